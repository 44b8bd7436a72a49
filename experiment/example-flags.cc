/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "example-flags.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/qdisc-lab-compat.h"
#include "ns3/value-text.h"

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
ExampleFlags::AddParsed(const std::string& name,
                        const std::string& help,
                        const std::string& defaultText,
                        std::function<void(const std::string&)> parse)
{
    m_cmd.AddValue(name,
                   help,
                   qdisclab::MakeFunctorCallback<FlagCallback>([parse](const std::string& text) {
                       parse(text);
                       return true;
                   }),
                   defaultText);
}

void
ExampleFlags::AddUnsigned(const std::string& name,
                          const std::string& help,
                          uint32_t& value,
                          uint32_t min,
                          uint32_t max)
{
    uint32_t* target = &value;
    AddParsed(name,
              help + " [" + std::to_string(min) + ", " + std::to_string(max) + "]",
              std::to_string(value),
              [name, target, min, max](const std::string& text) {
                  *target = ParseUnsigned(name, text, min, max);
              });
}

void
ExampleFlags::AddBoolean(const std::string& name, const std::string& help, bool& value)
{
    bool* target = &value;
    AddParsed(name, help, value ? "true" : "false", [name, target](const std::string& text) {
        *target = ParseBoolean(name, text);
    });
}

void
ExampleFlags::AddDecimal(const std::string& name, const std::string& help, double& value)
{
    double* target = &value;
    std::ostringstream text;
    text << value;
    AddParsed(name, help, text.str(), [name, target](const std::string& text) {
        *target = ParseDecimal(name, text);
    });
}

void
ExampleFlags::AddSeconds(const std::string& name, const std::string& help, double& value)
{
    double* target = &value;
    std::ostringstream text;
    text << value;
    AddParsed(name, help, text.str(), [name, target](const std::string& text) {
        *target = ParseSeconds(name, text);
    });
}

void
ExampleFlags::AddRate(const std::string& name, const std::string& help, std::string& value)
{
    std::string* target = &value;
    AddParsed(name, help + " (> 0)", value, [name, target](const std::string& text) {
        ParseRate(name, text);
        *target = text;
    });
}

void
ExampleFlags::AddText(const std::string& name, const std::string& help, std::string& value)
{
    std::string* target = &value;
    AddParsed(name, help, value, [target](const std::string& text) { *target = text; });
}

void
ExampleFlags::AddTimeText(const std::string& name, const std::string& help, std::string& value)
{
    std::string* target = &value;
    AddParsed(name, help, value, [name, target](const std::string& text) {
        ParseTime(name, text, Seconds(0));
        *target = text;
    });
}

void
ExampleFlags::AddSizeText(const std::string& name,
                          const std::string& help,
                          std::string& value,
                          bool emptyAllowed)
{
    std::string* target = &value;
    AddParsed(name, help, value, [name, target, emptyAllowed](const std::string& text) {
        if (!(emptyAllowed && text.empty()))
        {
            ParseSize(name, text);
        }
        *target = text;
    });
}

void
ExampleFlags::AddTime(const std::string& name, const std::string& help, Time& value, Time min)
{
    Time* target = &value;
    std::ostringstream bound;
    bound << " (>= " << min.As(Time::S) << ")";
    std::ostringstream text;
    text << value.As(Time::S);
    AddParsed(name, help + bound.str(), text.str(), [name, target, min](const std::string& text) {
        *target = ParseTime(name, text, min);
    });
}

uint32_t
ExampleFlags::ParseUnsigned(const std::string& name,
                            const std::string& text,
                            uint32_t min,
                            uint32_t max)
{
    int64_t v = 0;
    NS_ABORT_MSG_UNLESS(qdisclab::ParseInteger(text,
                                               std::numeric_limits<int64_t>::min(),
                                               std::numeric_limits<int64_t>::max(),
                                               v)
                            .empty(),
                        "--" << name << "=" << text << " is not an integer (range [" << min << ", "
                             << max << "])");
    NS_ABORT_MSG_UNLESS(v >= min && v <= max,
                        "--" << name << "=" << text << " is out of range [" << min << ", " << max
                             << "]");
    return static_cast<uint32_t>(v);
}

int64_t
ExampleFlags::ParseInteger(const std::string& name,
                           const std::string& text,
                           int64_t min,
                           int64_t max)
{
    int64_t v = 0;
    const std::string expected = qdisclab::ParseInteger(text, min, max, v);
    NS_ABORT_MSG_UNLESS(expected.empty(), "--" << name << "=" << text << " is not " << expected);
    return v;
}

double
ExampleFlags::ParseDecimal(const std::string& name, const std::string& text)
{
    double v = 0;
    const std::string expected = qdisclab::ParseDecimal(text, v);
    NS_ABORT_MSG_UNLESS(expected.empty(), "--" << name << "=" << text << " is not " << expected);
    return v;
}

bool
ExampleFlags::ParseBoolean(const std::string& name, const std::string& text)
{
    bool v = false;
    const std::string expected = qdisclab::ParseBoolean(text, v);
    NS_ABORT_MSG_UNLESS(expected.empty(), "--" << name << "=" << text << " is not " << expected);
    return v;
}

double
ExampleFlags::ParseSeconds(const std::string& name, const std::string& text)
{
    const double v = ParseDecimal(name, text);
    NS_ABORT_MSG_UNLESS(v >= 0 && v <= MAX_SECONDS,
                        "--" << name << "=" << text << " is out of range [0, " << MAX_SECONDS
                             << "] seconds");
    return v;
}

QueueSize
ExampleFlags::ParseSize(const std::string& name, const std::string& text)
{
    QueueSize v;
    const std::string expected = qdisclab::ParseQueueSizeText(text, v);
    NS_ABORT_MSG_UNLESS(expected.empty(), "--" << name << "=" << text << " is not " << expected);
    return v;
}

uint64_t
ExampleFlags::ParseRate(const std::string& name, const std::string& text)
{
    DataRate rate;
    if (!qdisclab::ParseRateText(text, rate, 0).empty())
    {
        NS_FATAL_ERROR("--" << name << "=" << text << " is not "
                            << qdisclab::ParseRateText(text, rate, 1));
    }
    NS_ABORT_MSG_UNLESS(rate.GetBitRate() > 0, "--" << name << "=" << text << " must be > 0 bit/s");
    return rate.GetBitRate();
}

Time
ExampleFlags::ParseTime(const std::string& name, const std::string& text, Time min)
{
    // Checked here, because ns-3's Time parser stops the program without naming the flag, and
    // reads "1-2ms" as 1 ms.
    Time value;
    const std::string expected = qdisclab::ParseTimeText(text, value);
    NS_ABORT_MSG_UNLESS(expected.empty(), "--" << name << "=" << text << " is not " << expected);
    NS_ABORT_MSG_UNLESS(value >= min,
                        "--" << name << "=" << text << " must be >= " << min.As(Time::S));
    return value;
}

} // namespace ns3
