/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "value-text.h"

#include "ns3/log.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <utility>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ValueText");

namespace qdisclab
{

namespace
{

/**
 * \param text a text
 * \param at where to start
 * \return the position after the digits at \p at
 */
std::size_t
SkipDigits(const std::string& text, std::size_t at)
{
    while (at < text.size() && text[at] >= '0' && text[at] <= '9')
    {
        ++at;
    }
    return at;
}

/**
 * The length of the decimal number at the start of \p text: digits with an optional fraction
 * (at least one digit), then, when \p exponent, an optional exponent; with \p sign an optional
 * sign first.
 * \param text a text
 * \param sign whether a sign may lead
 * \param exponent whether an exponent may follow
 * \return the number's length, 0 when there is none
 */
std::size_t
NumberLength(const std::string& text, bool sign, bool exponent)
{
    std::size_t at = 0;
    if (sign && at < text.size() && (text[at] == '+' || text[at] == '-'))
    {
        ++at;
    }
    const std::size_t integral = SkipDigits(text, at);
    std::size_t end = integral;
    std::size_t digits = integral - at;
    if (end < text.size() && text[end] == '.')
    {
        const std::size_t fraction = SkipDigits(text, end + 1);
        digits += fraction - end - 1;
        end = fraction;
    }
    if (digits == 0)
    {
        return 0;
    }
    if (exponent && end < text.size() && (text[end] == 'e' || text[end] == 'E'))
    {
        std::size_t e = end + 1;
        if (e < text.size() && (text[e] == '+' || text[e] == '-'))
        {
            ++e;
        }
        const std::size_t power = SkipDigits(text, e);
        if (power == e)
        {
            return 0; // "5e": an exponent without digits
        }
        end = power;
    }
    return end;
}

/**
 * \param text a number's text, already checked
 * \return its value (infinite when it overflows a double)
 */
double
ToDouble(const std::string& text)
{
    return std::strtod(text.c_str(), nullptr);
}

/// A unit's text and what one of it is worth (bits per second, packets or bytes).
using Unit = std::pair<const char*, double>;

/// The units ns-3's DataRate parser knows (ns-3 3.37's DataRate::DoParse).
const std::vector<Unit> RATE_UNITS = {{"bps", 1},
                                      {"b/s", 1},
                                      {"Bps", 8},
                                      {"B/s", 8},
                                      {"kbps", 1e3},
                                      {"kb/s", 1e3},
                                      {"Kbps", 1e3},
                                      {"Kb/s", 1e3},
                                      {"kBps", 8e3},
                                      {"kB/s", 8e3},
                                      {"KBps", 8e3},
                                      {"KB/s", 8e3},
                                      {"Kib/s", 1024.0},
                                      {"KiB/s", 8192.0},
                                      {"Mbps", 1e6},
                                      {"Mb/s", 1e6},
                                      {"MBps", 8e6},
                                      {"MB/s", 8e6},
                                      {"Mib/s", 1048576.0},
                                      {"MiB/s", 8388608.0},
                                      {"Gbps", 1e9},
                                      {"Gb/s", 1e9},
                                      {"GBps", 8e9},
                                      {"GB/s", 8e9},
                                      {"Gib/s", 1073741824.0},
                                      {"GiB/s", 8589934592.0}};

/// The units ns-3's QueueSize parser knows (ns-3 3.37's QueueSize::DoParse).
const std::vector<Unit> SIZE_UNITS = {{"B", 1},
                                      {"kB", 1e3},
                                      {"KB", 1e3},
                                      {"KiB", 1024.0},
                                      {"MB", 1e6},
                                      {"MiB", 1048576.0},
                                      {"p", 1},
                                      {"kp", 1e3},
                                      {"Kp", 1e3},
                                      {"Kip", 1024.0},
                                      {"Mp", 1e6},
                                      {"Mip", 1048576.0}};

/// The units ns-3's Time parser knows, in seconds ("": seconds).
const std::vector<Unit> TIME_UNITS = {{"", 1},
                                      {"s", 1},
                                      {"ms", 1e-3},
                                      {"us", 1e-6},
                                      {"ns", 1e-9},
                                      {"ps", 1e-12},
                                      {"fs", 1e-15},
                                      {"min", 60},
                                      {"h", 3600},
                                      {"d", 86400},
                                      {"y", 365 * 86400.0}};

/**
 * \param units the known units
 * \param unit a unit's text
 * \param multiplier what one of it is worth
 * \return whether \p unit is one of \p units
 */
bool
FindUnit(const std::vector<Unit>& units, const std::string& unit, double& multiplier)
{
    for (const auto& [name, value] : units)
    {
        if (unit == name)
        {
            multiplier = value;
            return true;
        }
    }
    return false;
}

} // namespace

std::string
ParseDecimal(const std::string& text, double& value)
{
    const std::size_t length = NumberLength(text, true, true);
    if (length == 0 || length != text.size())
    {
        return "a number (e.g. 2, -0.5, 1e-3; decimal, nothing before or after it)";
    }
    const double v = ToDouble(text);
    if (!std::isfinite(v))
    {
        return "a finite number (at most 1.8e308 in magnitude)";
    }
    value = v;
    return "";
}

std::string
ParseInteger(const std::string& text, int64_t min, int64_t max, int64_t& value)
{
    std::ostringstream range;
    range << "an integer in [" << min << ", " << max << "]";
    std::size_t digits = text.empty() || (text[0] != '+' && text[0] != '-') ? 0 : 1;
    if (SkipDigits(text, digits) != text.size() || text.size() == digits)
    {
        return range.str();
    }
    errno = 0;
    const long long v = std::strtoll(text.c_str(), nullptr, 10);
    if (errno == ERANGE || v < min || v > max)
    {
        return range.str();
    }
    value = v;
    return "";
}

std::string
ParseBoolean(const std::string& text, bool& value)
{
    std::string lower;
    for (const char c : text)
    {
        lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (lower.empty() || lower == "true" || lower == "1" || lower == "t")
    {
        value = true;
        return "";
    }
    if (lower == "false" || lower == "0" || lower == "f")
    {
        value = false;
        return "";
    }
    return "a boolean (true, false, 1 or 0)";
}

std::string
ParseRateText(const std::string& text, DataRate& value, uint64_t minBits)
{
    const std::string expected = "a rate (e.g. 10Mbps, 125kbps): a number and a unit such as "
                                 "bps, kbps, Mb/s or MB/s, in [" +
                                 std::to_string(minBits) + " bit/s, 18446744073709551615 bit/s]";
    const std::size_t length = NumberLength(text, false, false);
    double multiplier = 1; // no unit (digits only): bit/s, as ns-3 reads it
    if (length == 0 || (length == text.size() && text.find('.') != std::string::npos) ||
        (length < text.size() && !FindUnit(RATE_UNITS, text.substr(length), multiplier)))
    {
        return expected;
    }
    const double bits = ToDouble(text.substr(0, length)) * multiplier;
    // 2^64 is exactly representable; a double at or above it does not fit a uint64_t.
    if (!(std::floor(bits) >= static_cast<double>(minBits)) || bits >= 18446744073709551616.0)
    {
        return expected;
    }
    value = DataRate(text);
    return "";
}

std::string
ParseTimeText(const std::string& text, Time& value)
{
    std::ostringstream expected;
    expected << "a time (e.g. 200ms, 1s): a number and a unit (s, ms, us, ns, ps, fs, min, h, "
                "d, y; none: seconds), in ["
             << Time::Min().As(Time::S) << ", " << Time::Max().As(Time::S) << "]";
    const std::size_t length = NumberLength(text, true, true);
    double multiplier = 0;
    if (length == 0 || !FindUnit(TIME_UNITS, text.substr(length), multiplier))
    {
        return expected.str();
    }
    const double seconds = ToDouble(text.substr(0, length)) * multiplier;
    // Strictly inside: the largest Time is not exactly a double.
    if (!std::isfinite(seconds) || std::abs(seconds) >= Time::Max().GetSeconds())
    {
        return expected.str();
    }
    value = Time(text);
    return "";
}

std::string
ParseQueueSizeText(const std::string& text, QueueSize& value)
{
    const std::string expected =
        "a queue size (e.g. 100p, 50000B): a whole number of packets (p) or bytes (B), with "
        "an optional prefix such as k, M or Ki, in [0, 4294967295]";
    const std::size_t length = NumberLength(text, false, false);
    double multiplier = 1;
    if (length == 0 || length == text.size() ||
        !FindUnit(SIZE_UNITS, text.substr(length), multiplier))
    {
        return expected;
    }
    const double count = ToDouble(text.substr(0, length)) * multiplier;
    if (count != std::floor(count) || count > std::numeric_limits<uint32_t>::max())
    {
        return expected;
    }
    value = QueueSize(text);
    return "";
}

} // namespace qdisclab
} // namespace ns3
