/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "metrics-report.h"

#include "ns3/abort.h"
#include "ns3/fatal-error.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

namespace ns3
{

namespace
{

/**
 * Set the value of a key in a vector of key/value pairs, keeping first-insertion order.
 * \param entries the pairs
 * \param name the key
 * \param value the value
 */
template <typename T>
void
Upsert(std::vector<std::pair<std::string, T>>& entries, const std::string& name, T value)
{
    for (auto& [key, old] : entries)
    {
        if (key == name)
        {
            old = std::move(value);
            return;
        }
    }
    entries.emplace_back(name, std::move(value));
}

} // namespace

MetricsReport::MetricsReport(std::string program, std::string ns3Version)
    : m_program(std::move(program)),
      m_ns3Version(std::move(ns3Version))
{
}

void
MetricsReport::SetParam(const std::string& name, Value value)
{
    Upsert(m_params, name, std::move(value));
}

void
MetricsReport::SetMetric(const std::string& name, double value)
{
    Upsert(m_metrics, name, value);
}

bool
MetricsReport::HasMetric(const std::string& name) const
{
    for (const auto& entry : m_metrics)
    {
        if (entry.first == name)
        {
            return true;
        }
    }
    return false;
}

void
MetricsReport::WriteString(std::ostream& os, const std::string& s)
{
    os << '"';
    for (unsigned char c : s)
    {
        switch (c)
        {
        case '"':
            os << "\\\"";
            break;
        case '\\':
            os << "\\\\";
            break;
        case '\n':
            os << "\\n";
            break;
        case '\r':
            os << "\\r";
            break;
        case '\t':
            os << "\\t";
            break;
        default:
            if (c < 0x20)
            {
                std::array<char, 8> buffer{};
                std::snprintf(buffer.data(), buffer.size(), "\\u%04x", c);
                os << buffer.data();
            }
            else
            {
                os << c;
            }
        }
    }
    os << '"';
}

void
MetricsReport::WriteNumber(std::ostream& os, double v)
{
    if (!std::isfinite(v))
    {
        os << "null";
        return;
    }
    std::array<char, 32> buffer{};
    auto [end, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), v);
    os.write(buffer.data(), end - buffer.data());
}

void
MetricsReport::WriteValue(std::ostream& os, const Value& value)
{
    if (const auto* b = std::get_if<bool>(&value))
    {
        os << (*b ? "true" : "false");
    }
    else if (const auto* i = std::get_if<int64_t>(&value))
    {
        os << *i;
    }
    else if (const auto* d = std::get_if<double>(&value))
    {
        WriteNumber(os, *d);
    }
    else
    {
        WriteString(os, std::get<std::string>(value));
    }
}

void
MetricsReport::SetMeasurement(const std::string& name, double value)
{
    Upsert(m_measurements, name, value);
}

std::vector<std::string>
MetricsReport::GetMetricNames() const
{
    std::vector<std::string> names;
    for (const auto& entry : m_metrics)
    {
        names.push_back(entry.first);
    }
    return names;
}

std::string
MetricsReport::ToJson() const
{
    std::ostringstream os;
    os << "{\"schema\": ";
    WriteString(os, SCHEMA);
    os << ", \"program\": ";
    WriteString(os, m_program);
    os << ", \"ns3_version\": ";
    WriteString(os, m_ns3Version);
    os << ", \"params\": {";
    const char* separator = "";
    for (const auto& [name, value] : m_params)
    {
        os << separator;
        WriteString(os, name);
        os << ": ";
        WriteValue(os, value);
        separator = ", ";
    }
    // The metrics, and the run's measurements: JSON objects of numbers, in the order set.
    const auto writeNumbers = [&os](const char* key,
                                    const std::vector<std::pair<std::string, double>>& numbers) {
        os << ", ";
        WriteString(os, key);
        os << ": {";
        const char* comma = "";
        for (const auto& [name, value] : numbers)
        {
            os << comma;
            WriteString(os, name);
            os << ": ";
            WriteNumber(os, value);
            comma = ", ";
        }
        os << "}";
    };
    os << "}";
    writeNumbers("metrics", m_metrics);
    if (!m_measurements.empty())
    {
        writeNumbers("run_measurements", m_measurements);
    }
    os << "}\n";
    return os.str();
}

void
MetricsReport::Write(const std::string& path) const
{
    if (path.empty() || path == "-")
    {
        std::cout << ToJson() << std::flush;
        NS_ABORT_MSG_IF(std::cout.fail(),
                        "MetricsReport: writing the metrics to standard output failed");
        return;
    }
    std::ofstream file(path);
    if (!file)
    {
        NS_FATAL_ERROR("MetricsReport: cannot write the metrics file '" << path << "'");
    }
    file << ToJson();
    file.close();
    // A full disk (or /dev/full) shows only once the buffer is written out.
    NS_ABORT_MSG_IF(file.fail(),
                    "MetricsReport: writing the metrics file '" << path
                                                                << "' failed (is the disk full?)");
}

} // namespace ns3
