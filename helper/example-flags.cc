/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "example-flags.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/qdisc-lab-compat.h"

#include <cerrno>
#include <cstdlib>
#include <sstream>
#include <type_traits>
#include <utility>

namespace ns3
{

namespace
{

/// The type of CommandLine::AddValue's overload taking a Callback<bool, Arg> (its default
/// value's parameter is a const std::string&, or a const std::string up to ns-3.35).
template <typename Arg, typename Default = const std::string&>
using AddValueWithCallback =
    void (CommandLine::*)(const std::string&, const std::string&, Callback<bool, Arg>, Default);

/**
 * Whether CommandLine::AddValue has an overload taking exactly a Callback<bool, Arg> (ns-3
 * changed Arg across releases). The overload is named by its exact member-function type:
 * a call expression would also accept the other Callback type through Callback's converting
 * constructor, which reinterprets the implementation (undefined behaviour; UBSan reports it).
 */
template <typename Arg, typename = void>
struct TakesCallbackOf : std::false_type
{
};

/// \copydoc TakesCallbackOf
template <typename Arg>
struct TakesCallbackOf<
    Arg,
    std::void_t<decltype(static_cast<AddValueWithCallback<Arg>>(&CommandLine::AddValue))>>
    : std::true_type
{
};

/// \copydoc TakesCallbackOf
template <typename Arg>
struct TakesCallbackOf<Arg,
                       std::void_t<decltype(static_cast<AddValueWithCallback<Arg, std::string>>(
                           &CommandLine::AddValue))>> : std::true_type
{
};

/// The callback a flag's value goes through: Callback<bool, std::string> up to ns-3.37,
/// Callback<bool, const std::string&> in later releases.
using FlagCallback = std::conditional_t<TakesCallbackOf<const std::string&>::value,
                                        Callback<bool, const std::string&>,
                                        Callback<bool, std::string>>;
static_assert(TakesCallbackOf<const std::string&>::value || TakesCallbackOf<std::string>::value,
              "CommandLine::AddValue takes neither Callback<bool, std::string> nor "
              "Callback<bool, const std::string&>");

} // namespace

ExampleFlags::ExampleFlags(CommandLine& cmd)
    : m_cmd(cmd)
{
}

void
ExampleFlags::AddUnsigned(const std::string& name,
                          const std::string& help,
                          uint32_t& value,
                          uint32_t min,
                          uint32_t max)
{
    uint32_t* target = &value;
    m_cmd.AddValue(name,
                   help + " [" + std::to_string(min) + ", " + std::to_string(max) + "]",
                   qdisclab::MakeFunctorCallback<FlagCallback>(
                       [name, target, min, max](const std::string& text) {
                           *target = ParseUnsigned(name, text, min, max);
                           return true;
                       }),
                   std::to_string(value));
}

void
ExampleFlags::AddRate(const std::string& name, const std::string& help, std::string& value)
{
    std::string* target = &value;
    m_cmd.AddValue(
        name,
        help + " (> 0)",
        qdisclab::MakeFunctorCallback<FlagCallback>([name, target](const std::string& text) {
            ParseRate(name, text);
            *target = text;
            return true;
        }),
        value);
}

void
ExampleFlags::AddTime(const std::string& name, const std::string& help, Time& value, Time min)
{
    Time* target = &value;
    std::ostringstream bound;
    bound << " (>= " << min.As(Time::S) << ")";
    std::ostringstream text;
    text << value.As(Time::S);
    m_cmd.AddValue(
        name,
        help + bound.str(),
        qdisclab::MakeFunctorCallback<FlagCallback>([name, target, min](const std::string& text) {
            *target = ParseTime(name, text, min);
            return true;
        }),
        text.str());
}

uint32_t
ExampleFlags::ParseUnsigned(const std::string& name,
                            const std::string& text,
                            uint32_t min,
                            uint32_t max)
{
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    NS_ABORT_MSG_IF(text.empty() || *end != '\0' || errno == ERANGE,
                    "--" << name << "=" << text << " is not an integer (range [" << min << ", "
                         << max << "])");
    NS_ABORT_MSG_UNLESS(v >= min && v <= max,
                        "--" << name << "=" << text << " is out of range [" << min << ", " << max
                             << "]");
    return static_cast<uint32_t>(v);
}

uint64_t
ExampleFlags::ParseRate(const std::string& name, const std::string& text)
{
    DataRateValue rate;
    NS_ABORT_MSG_UNLESS(rate.DeserializeFromString(text, MakeDataRateChecker()),
                        "--" << name << "=" << text << " is not a rate (e.g. 10Mbps, 125kbps)");
    NS_ABORT_MSG_UNLESS(rate.Get().GetBitRate() > 0,
                        "--" << name << "=" << text << " must be > 0 bit/s");
    return rate.Get().GetBitRate();
}

Time
ExampleFlags::ParseTime(const std::string& name, const std::string& text, Time min)
{
    // Checked here, because ns-3's Time parser stops the program without naming the flag:
    // a number, then one of Time's units (none: seconds).
    char* end = nullptr;
    errno = 0;
    std::strtod(text.c_str(), &end);
    const std::string unit(end);
    const bool known = unit.empty() || unit == "s" || unit == "ms" || unit == "us" ||
                       unit == "ns" || unit == "ps" || unit == "fs" || unit == "min" ||
                       unit == "h" || unit == "d" || unit == "y";
    NS_ABORT_MSG_IF(text.empty() || end == text.c_str() || errno == ERANGE || !known,
                    "--" << name << "=" << text << " is not a time (e.g. 200ms, 1s)");
    const Time value(text);
    NS_ABORT_MSG_UNLESS(value >= min,
                        "--" << name << "=" << text << " must be >= " << min.As(Time::S));
    return value;
}

} // namespace ns3
