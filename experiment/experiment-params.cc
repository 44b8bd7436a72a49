/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "experiment-params.h"

#include "ns3/abort.h"
#include "ns3/config.h"
#include "ns3/csma-helper.h"
#include "ns3/csma-net-device.h"
#include "ns3/node-list.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/qdisc-lab-compat.h"
#include "ns3/qdisc-lab-config.h"
#include "ns3/queue.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/rtt-estimator.h"
#include "ns3/string.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-recovery-ops.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace ns3
{

ExperimentParams::ExperimentParams(std::string program, const std::string& file)
    : m_program(std::move(program)),
      m_cmd(file),
      m_flags(m_cmd)
{
    m_cmd.AddValue("output", "Metrics JSON file (default: standard output)", m_output);
    m_cmd.AddValue("schema",
                   "Print the program's parameters and metrics as JSON, and exit",
                   m_schema);
    const std::string pcapHelp =
        "Prefix of pcap traces of the studied devices, PREFIX-NODE-DEVICE.pcap (empty: none)";
    const std::string flowMonitorHelp =
        "File for ns-3's FlowMonitor XML of every flow (empty: none)";
    m_flags.AddText("pcap", pcapHelp, m_pcap);
    m_flags.AddText("flowMonitor", flowMonitorHelp, m_flowMonitorFile);
    // In the schema too (never in a report: where a run writes its traces is no input of the
    // experiment), so that a campaign may set them.
    const std::string* pcap = &m_pcap;
    const std::string* flowMonitor = &m_flowMonitorFile;
    Declare(
        "pcap",
        "string",
        pcapHelp,
        [pcap]() { return MetricsReport::Value(*pcap); },
        NEVER);
    Declare(
        "flowMonitor",
        "string",
        flowMonitorHelp,
        [flowMonitor]() { return MetricsReport::Value(*flowMonitor); },
        NEVER);
}

CommandLine&
ExperimentParams::GetCommandLine()
{
    return m_cmd;
}

ExperimentParams::Param&
ExperimentParams::Declare(const std::string& name,
                          const std::string& type,
                          const std::string& help,
                          std::function<MetricsReport::Value()> get,
                          Recording recording)
{
    for (const auto& param : m_params)
    {
        NS_ABORT_MSG_IF(param.name == name,
                        m_program << ": parameter '" << name << "' is declared twice");
    }
    Param param;
    param.name = name;
    param.type = type;
    param.help = help;
    param.defaultValue = get();
    param.get = std::move(get);
    param.recording = recording;
    m_params.push_back(std::move(param));
    return m_params.back();
}

void
ExperimentParams::AddUnsigned(const std::string& name,
                              const std::string& help,
                              uint32_t& value,
                              uint32_t min,
                              uint32_t max,
                              Recording recording)
{
    m_flags.AddUnsigned(name, help, value, min, max);
    Param& param = Track(name, "uint", help, value, recording);
    param.hasRange = true;
    param.min = min;
    param.max = max;
}

void
ExperimentParams::AddRate(const std::string& name,
                          const std::string& help,
                          std::string& value,
                          Recording recording)
{
    m_flags.AddRate(name, help, value);
    Track(name, "rate", help, value, recording);
}

void
ExperimentParams::AddChoice(const std::string& name,
                            const std::string& help,
                            std::string& value,
                            const std::vector<std::string>& choices,
                            Recording recording)
{
    NS_ABORT_MSG_IF(std::find(choices.begin(), choices.end(), value) == choices.end(),
                    m_program << ": the default of --" << name << " ('" << value
                              << "') is not one of its choices");
    m_cmd.AddValue(name, help, value);
    Param& param = Track(name, "string", help, value, recording);
    param.choices = choices;
}

void
ExperimentParams::AddText(const std::string& name,
                          const std::string& help,
                          std::string& value,
                          TextFormat format,
                          Recording recording)
{
    if (format == TIME_TEXT)
    {
        m_flags.AddTimeText(name, help, value);
    }
    else
    {
        m_flags.AddSizeText(name, help, value, value.empty());
    }
    Track(name, "string", help, value, recording);
}

void
ExperimentParams::AddSeconds(const std::string& name,
                             const std::string& help,
                             double& value,
                             Recording recording)
{
    m_flags.AddSeconds(name, help, value);
    Track(name, "double", help, value, recording);
}

void
ExperimentParams::AddTime(const std::string& name,
                          const std::string& help,
                          Time& value,
                          Time min,
                          Recording recording)
{
    m_flags.AddTime(name, help, value, min);
    Track(name, "time", help, value, recording);
}

void
ExperimentParams::AddDerived(const std::string& name,
                             const std::string& type,
                             const std::string& help)
{
    Param& param = Declare(
        name,
        type,
        help,
        []() { return MetricsReport::Value(false); },
        ALWAYS);
    param.derived = true;
}

void
ExperimentParams::AddRunNumber()
{
    Declare(
        "RngRun",
        "uint",
        "ns-3's run number (the RngRun global value: --RngRun=N)",
        []() { return MetricsReport::Value(int64_t(RngSeedManager::GetRun())); },
        ALWAYS);
    Declare(
        "RngSeed",
        "uint",
        "ns-3's seed (the RngSeed global value: --RngSeed=N)",
        []() { return MetricsReport::Value(int64_t{RngSeedManager::GetSeed()}); },
        ALWAYS);
}

void
ExperimentParams::AddMetric(const std::string& name, Recording recording)
{
    NS_ABORT_MSG_IF(recording == NEVER,
                    m_program << ": metric '" << name << "' declared as never recorded");
    for (const auto& metric : m_metrics)
    {
        NS_ABORT_MSG_IF(metric.name == name,
                        m_program << ": metric '" << name << "' is declared twice");
    }
    m_metrics.push_back({name, recording});
}

void
ExperimentParams::SetsAttribute(const std::string& name, const std::string& attribute)
{
    Find(name);
    m_sets.emplace_back(name, attribute);
}

void
ExperimentParams::OwnsAttribute(const std::string& attribute, const std::string& from)
{
    m_owns.emplace_back(attribute, from);
}

void
ExperimentParams::SetDefault(const std::string& attribute, const AttributeValue& value)
{
    if (m_overrides.find(attribute) == m_overrides.end())
    {
        Config::SetDefault(attribute, value);
    }
}

void
ExperimentParams::Parse(int argc, char* argv[])
{
    // Before CommandLine::Parse, which stops on some bad override values without naming the
    // attribute, and takes others in part.
    CheckRunArguments(argc, argv);
    ReadOverrides(argc, argv);
    CheckOverrides();
    m_cmd.Parse(argc, argv);
    if (m_schema)
    {
        std::cout << GetSchema() << std::flush;
        std::exit(0);
    }
    ApplyOverrides(argv[0]);
    CheckChoices();
    CheckFiles();
}

void
ExperimentParams::CheckChoices() const
{
    for (const auto& param : m_params)
    {
        if (param.choices.empty())
        {
            continue;
        }
        const std::string value = std::get<std::string>(param.get());
        std::string listed;
        for (const std::string& choice : param.choices)
        {
            listed += (listed.empty() ? "" : ", ") + choice;
        }
        const bool chosen =
            std::find(param.choices.begin(), param.choices.end(), value) != param.choices.end();
        NS_ABORT_MSG_UNLESS(chosen,
                            "--" << param.name << "=" << value
                                 << " is not one of its choices: " << listed);
    }
}

void
ExperimentParams::WritesFile(const std::string& name, const std::string& path)
{
    m_files.emplace_back(name, &path);
}

void
ExperimentParams::CheckFiles() const
{
    std::vector<std::pair<std::string, const std::string*>> files = m_files;
    files.emplace_back("output", &m_output);
    files.emplace_back("flowMonitor", &m_flowMonitorFile);
    std::map<std::filesystem::path, std::string> seen;
    for (const auto& [name, path] : files)
    {
        if (path->empty() || (name == "output" && *path == "-"))
        {
            continue;
        }
        std::error_code error;
        const std::filesystem::path file = std::filesystem::weakly_canonical(*path, error);
        NS_ABORT_MSG_IF(error, "--" << name << "=" << *path << ": " << error.message());
        NS_ABORT_MSG_IF(std::filesystem::is_directory(file, error),
                        "--" << name << "=" << *path << " is a directory, not a file");
        const std::filesystem::path directory =
            file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
        NS_ABORT_MSG_UNLESS(std::filesystem::is_directory(directory, error),
                            "--" << name << "=" << *path << ": no directory " << directory
                                 << " to write it in");
        const auto [other, added] = seen.emplace(file, name);
        NS_ABORT_MSG_UNLESS(added,
                            "--" << name << "=" << *path << " and --" << other->second
                                 << " name one file; give each output its own");
    }
}

void
ExperimentParams::CheckRunArguments(int argc, char* argv[]) const
{
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        NS_ABORT_MSG_IF(arg.empty() || arg[0] != '-',
                        m_program << ": unexpected argument '" << arg
                                  << "': every argument is --name=value (--PrintHelp lists them)");
        const std::size_t dashes = arg.rfind("--", 0) == 0 ? 2 : 1;
        const auto equals = arg.find('=');
        const std::string name = arg.substr(dashes, equals - dashes);
        const std::string value = equals == std::string::npos ? "" : arg.substr(equals + 1);
        if (name == "RngRun")
        {
            ExampleFlags::ParseInteger(name, value, 0, std::numeric_limits<int64_t>::max());
        }
        else if (name == "RngSeed")
        {
            ExampleFlags::ParseInteger(name, value, 1, std::numeric_limits<uint32_t>::max());
        }
    }
}

void
ExperimentParams::CheckOverrides() const
{
    for (const auto& [full, override] : m_overrides)
    {
        const auto colons = full.rfind("::");
        TypeId tid;
        TypeId::AttributeInformation info;
        NS_ABORT_MSG_UNLESS(colons != std::string::npos &&
                                TypeId::LookupByNameFailSafe(full.substr(0, colons), &tid) &&
                                tid.LookupAttributeByName(full.substr(colons + 2), &info),
                            override.given << ": there is no attribute " << full);
        const std::string& text = override.value;
        // Without "ns3::": ns-3 spells some ("DataRateValue", "QueueSizeValue") without it.
        if (const std::string type = info.checker->GetValueTypeName();
            type == "TypeIdValue" || type == "ns3::TypeIdValue")
        {
            // The TypeIds TCP creates objects of, by the base their objects must have (any
            // other TypeId attribute: an existing TypeId).
            static const std::map<std::string, TypeId> bases = {
                {"ns3::TcpL4Protocol::SocketType", TcpCongestionOps::GetTypeId()},
                {"ns3::TcpL4Protocol::RecoveryType", TcpRecoveryOps::GetTypeId()},
                {"ns3::TcpL4Protocol::RttEstimatorType", RttEstimator::GetTypeId()}};
            const auto base = bases.find(full);
            qdisclab::LookupTypeId(text,
                                   base == bases.end() ? ObjectBase::GetTypeId() : base->second,
                                   override.given + ": " + full);
            continue;
        }
        const std::string expected = qdisclab::CheckValueText(info.checker, text);
        NS_ABORT_MSG_UNLESS(expected.empty(),
                            override.given << ": " << full << " = '" << text << "' is not "
                                           << expected);
    }
}

void
ExperimentParams::ReadOverrides(int argc, char* argv[])
{
    // As CommandLine reads them: "--name=value", "-name=value", "--name" (a bool's true).
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        const std::size_t dashes = arg.rfind("--", 0) == 0 ? 2 : (arg.rfind('-', 0) == 0 ? 1 : 0);
        if (dashes == 0)
        {
            continue;
        }
        arg = arg.substr(dashes);
        const auto equals = arg.find('=');
        const std::string name = arg.substr(0, equals);
        const std::string value = equals == std::string::npos ? "" : arg.substr(equals + 1);
        if (name.find("::") == std::string::npos)
        {
            m_given[name] = argv[i];
        }
        else
        {
            // CommandLine takes "--Type::Attribute" for "--ns3::Type::Attribute" too.
            const std::string full = name.rfind("ns3::", 0) == 0 ? name : "ns3::" + name;
            m_overrides[full] = {value, argv[i]};
        }
    }
    // NS_ATTRIBUTE_DEFAULT='ns3::Type::Attribute=value|...', read as ns-3 reads it.
    if (const char* env = std::getenv("NS_ATTRIBUTE_DEFAULT"))
    {
        std::istringstream entries(env);
        for (std::string entry; std::getline(entries, entry, '|');)
        {
            const auto equals = entry.find('=');
            if (equals == std::string::npos)
            {
                continue;
            }
            // ns-3 applies an entry only under its full name; the command line also takes
            // "Type::Attribute", and so does this: such an entry is applied in ApplyOverrides.
            const std::string name = entry.substr(0, equals);
            const bool full = name.rfind("ns3::", 0) == 0;
            m_overrides.emplace(full ? name : "ns3::" + name,
                                Override{entry.substr(equals + 1),
                                         "NS_ATTRIBUTE_DEFAULT='" + std::string(env) + "'",
                                         !full});
        }
    }
}

void
ExperimentParams::ApplyOverrides(char* program)
{
    for (const auto& [name, attribute] : m_sets)
    {
        const auto override = m_overrides.find(attribute);
        if (override == m_overrides.end())
        {
            continue;
        }
        const auto given = m_given.find(name);
        NS_ABORT_MSG_IF(given != m_given.end(),
                        override->second.given << " conflicts with " << given->second << ": "
                                               << m_program << " sets " << attribute << " from --"
                                               << name << "; give one of them");
        // The override becomes the parameter's value, through the parameter's own checks.
        std::string arg = "--" + name + "=" + override->second.value;
        char* args[] = {program, &arg[0], nullptr};
        m_cmd.Parse(2, args);
    }
    for (const auto& [attribute, from] : m_owns)
    {
        const auto override = m_overrides.find(attribute);
        NS_ABORT_MSG_IF(override != m_overrides.end(),
                        override->second.given << ": " << m_program << " sets " << attribute
                                               << " itself (from " << from
                                               << "), so the override would be lost");
    }
    for (const auto& [attribute, override] : m_overrides)
    {
        NS_ABORT_MSG_IF(override.unprefixed &&
                            !Config::SetDefaultFailSafe(attribute, StringValue(override.value)),
                        override.given << ": " << attribute << " does not take '" << override.value
                                       << "'");
    }
}

void
ExperimentParams::EnableTraces(const NetDeviceContainer& studied)
{
    if (!m_pcap.empty())
    {
        for (auto device = studied.Begin(); device != studied.End(); ++device)
        {
            if (DynamicCast<PointToPointNetDevice>(*device))
            {
                PointToPointHelper().EnablePcap(m_pcap, *device);
            }
            else if (DynamicCast<CsmaNetDevice>(*device))
            {
                CsmaHelper().EnablePcap(m_pcap, *device);
            }
            else
            {
                NS_FATAL_ERROR("--pcap: " << m_program << " studies a "
                                          << (*device)->GetInstanceTypeId().GetName()
                                          << ", which has no pcap helper");
            }
        }
    }
    if (!m_flowMonitorFile.empty())
    {
        m_flowMonitor = m_flowMonitorHelper.InstallAll();
    }
}

const std::string&
ExperimentParams::GetPcapPrefix() const
{
    return m_pcap;
}

ExperimentParams::Param&
ExperimentParams::Find(const std::string& name)
{
    for (auto& param : m_params)
    {
        if (param.name == name)
        {
            return param;
        }
    }
    NS_FATAL_ERROR(m_program << ": no parameter '" << name << "'");
}

void
ExperimentParams::Omit(const std::string& name)
{
    Param& param = Find(name);
    NS_ABORT_MSG_UNLESS(param.recording == SOMETIMES,
                        m_program << ": parameter '" << name
                                  << "' is not declared SOMETIMES, so it cannot be omitted");
    param.omitted = true;
}

void
ExperimentParams::Record(const std::string& name, MetricsReport::Value value)
{
    Param& param = Find(name);
    param.recordedSet = true;
    param.recorded = std::move(value);
}

MetricsReport
ExperimentParams::NewReport() const
{
    MetricsReport report(m_program, qdisclab::Ns3Version());
    for (const auto& param : m_params)
    {
        if (param.recording == NEVER || param.omitted)
        {
            continue;
        }
        NS_ABORT_MSG_IF(param.derived && !param.recordedSet,
                        m_program << ": derived parameter '" << param.name
                                  << "' has no value (ExperimentParams::Record)");
        report.SetParam(param.name, param.recordedSet ? param.recorded : param.get());
    }
    return report;
}

bool
ExperimentParams::Matches(const std::string& pattern, const std::string& name)
{
    const std::string index = "<i>";
    const auto at = pattern.find(index);
    if (at == std::string::npos)
    {
        return pattern == name;
    }
    const std::string prefix = pattern.substr(0, at);
    const std::string suffix = pattern.substr(at + index.size());
    if (name.size() <= prefix.size() + suffix.size() || name.compare(0, at, prefix) != 0 ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
    {
        return false;
    }
    for (std::size_t i = prefix.size(); i < name.size() - suffix.size(); ++i)
    {
        if (!std::isdigit(static_cast<unsigned char>(name[i])))
        {
            return false;
        }
    }
    return true;
}

void
ExperimentParams::Write(const MetricsReport& report) const
{
    const auto names = report.GetMetricNames();
    for (const auto& name : names)
    {
        bool declared = false;
        for (const auto& metric : m_metrics)
        {
            declared = declared || Matches(metric.name, name);
        }
        NS_ABORT_MSG_UNLESS(declared,
                            m_program << ": metric '" << name
                                      << "' is not declared (ExperimentParams::AddMetric)");
    }
    for (const auto& metric : m_metrics)
    {
        if (metric.recording != ALWAYS)
        {
            continue;
        }
        bool set = false;
        for (const auto& name : names)
        {
            set = set || Matches(metric.name, name);
        }
        NS_ABORT_MSG_UNLESS(set,
                            m_program << ": metric '" << metric.name
                                      << "' is declared ALWAYS but was not reported");
    }
    MetricsReport written = report;
    written.SetMeasurement("packet_hops", static_cast<double>(CountPacketHops()));
    written.Write(m_output);
    if (m_flowMonitor)
    {
        m_flowMonitor->CheckForLostPackets();
        std::ofstream file(m_flowMonitorFile);
        NS_ABORT_MSG_UNLESS(file, "--flowMonitor=" << m_flowMonitorFile << ": cannot open it");
        m_flowMonitor->SerializeToXmlStream(file, 0, true, true);
        file.close();
        NS_ABORT_MSG_IF(file.fail(),
                        "--flowMonitor=" << m_flowMonitorFile << ": writing it failed");
    }
}

uint64_t
ExperimentParams::CountPacketHops()
{
    // A point-to-point or CSMA device's queue counts every packet handed to it; those it still
    // holds or dropped after dequeue did not go onto the link.
    uint64_t hops = 0;
    auto add = [&hops](const auto& queue) {
        hops += queue->GetTotalReceivedPackets() - queue->GetTotalDroppedPacketsAfterDequeue() -
                queue->GetNPackets();
    };
    for (auto node = NodeList::Begin(); node != NodeList::End(); ++node)
    {
        for (uint32_t i = 0; i < (*node)->GetNDevices(); ++i)
        {
            const Ptr<NetDevice> device = (*node)->GetDevice(i);
            if (const auto ppp = DynamicCast<PointToPointNetDevice>(device))
            {
                add(ppp->GetQueue());
            }
            else if (const auto csma = DynamicCast<CsmaNetDevice>(device))
            {
                add(csma->GetQueue());
            }
        }
    }
    return hops;
}

const std::string&
ExperimentParams::GetOutput() const
{
    return m_output;
}

const char*
ExperimentParams::RecordingName(Recording recording)
{
    switch (recording)
    {
    case ALWAYS:
        return "always";
    case SOMETIMES:
        return "sometimes";
    case NEVER:
        return "never";
    }
    return "never";
}

std::string
ExperimentParams::GetSchema() const
{
    std::ostringstream os;
    os << "{\"schema\": ";
    MetricsReport::WriteString(os, SCHEMA);
    os << ", \"program\": ";
    MetricsReport::WriteString(os, m_program);
    os << ", \"params\": [";
    const char* separator = "";
    for (const auto& param : m_params)
    {
        os << separator << "{\"name\": ";
        MetricsReport::WriteString(os, param.name);
        os << ", \"type\": ";
        MetricsReport::WriteString(os, param.type);
        os << ", \"default\": ";
        if (param.derived)
        {
            os << "null, \"derived\": true";
        }
        else
        {
            MetricsReport::WriteValue(os, param.defaultValue);
        }
        if (param.hasRange)
        {
            os << ", \"min\": " << param.min << ", \"max\": " << param.max;
        }
        if (!param.choices.empty())
        {
            os << ", \"choices\": [";
            for (std::size_t i = 0; i < param.choices.size(); ++i)
            {
                os << (i > 0 ? ", " : "");
                MetricsReport::WriteString(os, param.choices[i]);
            }
            os << "]";
        }
        os << ", \"help\": ";
        MetricsReport::WriteString(os, param.help);
        os << ", \"recorded\": ";
        MetricsReport::WriteString(os, RecordingName(param.recording));
        os << "}";
        separator = ", ";
    }
    os << "], \"metrics\": [";
    separator = "";
    for (const auto& metric : m_metrics)
    {
        os << separator << "{\"name\": ";
        MetricsReport::WriteString(os, metric.name);
        os << ", \"recorded\": ";
        MetricsReport::WriteString(os, RecordingName(metric.recording));
        os << "}";
        separator = ", ";
    }
    os << "]}\n";
    return os.str();
}

} // namespace ns3
