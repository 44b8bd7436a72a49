/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "value-text.h"

#include "ns3/log.h"
#include "ns3/string.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <type_traits>
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

/**
 * The multiplier of a unit, as ns-3's parser of \p Value reads it: the value of "1" + \p unit.
 * \tparam Value DataRateValue or QueueSizeValue
 * \param unit the unit's text
 * \param checker the value's checker
 * \param multiplier the value of one unit (bits per second, packets or bytes)
 * \return whether ns-3 knows the unit
 */
template <typename Value>
bool
UnitMultiplier(const std::string& unit, Ptr<const AttributeChecker> checker, double& multiplier)
{
    if (unit.empty() || unit.find_first_of("0123456789.+-eE") == 0)
    {
        return false;
    }
    Value one;
    if (!one.DeserializeFromString("1" + unit, checker))
    {
        return false;
    }
    if constexpr (std::is_same_v<Value, DataRateValue>)
    {
        multiplier = static_cast<double>(one.Get().GetBitRate());
    }
    else
    {
        multiplier = one.Get().GetValue();
    }
    return multiplier > 0;
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
        (length < text.size() &&
         !UnitMultiplier<DataRateValue>(text.substr(length), MakeDataRateChecker(), multiplier)))
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
    static const std::vector<std::pair<std::string, double>> units = {{"", 1},
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
    std::ostringstream expected;
    expected << "a time (e.g. 200ms, 1s): a number and a unit (s, ms, us, ns, ps, fs, min, h, "
                "d, y; none: seconds), in ["
             << Time::Min().As(Time::S) << ", " << Time::Max().As(Time::S) << "]";
    const std::size_t length = NumberLength(text, true, true);
    double multiplier = 0;
    for (const auto& [unit, factor] : units)
    {
        multiplier =
            length > 0 && text.compare(length, std::string::npos, unit) == 0 ? factor : multiplier;
    }
    if (multiplier == 0)
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
        "an optional prefix such as k, M or Ki, in [0, "
        "4294967295]";
    const std::size_t length = NumberLength(text, false, false);
    double multiplier = 1;
    if (length == 0 || length == text.size() ||
        !UnitMultiplier<QueueSizeValue>(text.substr(length), MakeQueueSizeChecker(), multiplier))
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
