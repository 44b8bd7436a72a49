/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EXAMPLE_FLAGS_H
#define EXAMPLE_FLAGS_H

#include "ns3/command-line.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief The examples' command-line flags, read whole (qdisclab::ParseDecimal and the other
 * readers of value-text.h) and checked as they are parsed.
 *
 * CommandLine reads a flag with an input stream, which stops at the first character it does not
 * understand and keeps what came before ("--simTime=4ms" is 4, "--udpOn=3abc" is 3, "0x10" is 0)
 * and takes "-1" for 4294967295 in an unsigned flag. A flag added here is read whole, with its
 * unit, and a value that is not one, or is outside its range, stops the program with a message
 * naming the flag, the value as given and what was expected:
 *
 * \code
 *   CommandLine cmd(__FILE__);
 *   ExampleFlags flags(cmd);
 *   flags.AddUnsigned("quantum", "DRR quantum, bytes", quantum, 1, 65535);
 *   flags.AddRate("lineRate", "line rate of every link", lineRate);
 *   cmd.Parse(argc, argv);  // --quantum=-1: "--quantum=-1 is out of range [1, 65535]"
 * \endcode
 */
class ExampleFlags
{
  public:
    /// \param cmd the program's command line, which the flags are added to
    explicit ExampleFlags(CommandLine& cmd);

    /**
     * Add an unsigned integer flag, in [min, max]; the range is appended to the help.
     * \param name the flag, without "--"
     * \param help its help text
     * \param value its default, and where the parsed value goes
     * \param min the smallest value
     * \param max the largest value
     */
    void AddUnsigned(const std::string& name,
                     const std::string& help,
                     uint32_t& value,
                     uint32_t min = 0,
                     uint32_t max = std::numeric_limits<uint32_t>::max());

    /**
     * Add a boolean flag (true, false, 1, 0, t or f; a bare "--name" is true).
     * \param name the flag, without "--"
     * \param help its help text
     * \param value its default, and where the parsed value goes
     */
    void AddBoolean(const std::string& name, const std::string& help, bool& value);

    /**
     * Add a number flag: a finite decimal number, nothing before or after it.
     * \param name the flag, without "--"
     * \param help its help text
     * \param value its default, and where the parsed value goes
     */
    void AddDecimal(const std::string& name, const std::string& help, double& value);

    /**
     * Add a number of seconds: a decimal number in [0, MAX_SECONDS], the range a Time holds
     * (at nanoseconds), so that Seconds(value) neither overflows nor wraps.
     * \param name the flag, without "--"
     * \param help its help text
     * \param value its default, and where the parsed value goes
     */
    void AddSeconds(const std::string& name, const std::string& help, double& value);

    /// The largest number of seconds AddSeconds takes (a Time at nanoseconds holds 9.2e9 s).
    static constexpr double MAX_SECONDS = 1e9;

    /**
     * Add a signed integer flag, in the range of \p T.
     * \tparam T int64_t or int32_t
     * \param name the flag, without "--"
     * \param help its help text
     * \param value its default, and where the parsed value goes
     */
    template <typename T>
    void AddInteger(const std::string& name, const std::string& help, T& value);

    /**
     * Add a text flag that must be a Time text >= 0 (schema type "string": the program keeps
     * the text), e.g. a link delay.
     * \param name the flag, without "--"
     * \param help its help text
     * \param value its default, and where the parsed text goes
     */
    void AddTimeText(const std::string& name, const std::string& help, std::string& value);

    /**
     * Add a text flag that must be a QueueSize text, or empty when \p emptyAllowed (the
     * program's default).
     * \param name the flag, without "--"
     * \param help its help text
     * \param value its default, and where the parsed text goes
     * \param emptyAllowed whether an empty value is taken
     */
    void AddSizeText(const std::string& name,
                     const std::string& help,
                     std::string& value,
                     bool emptyAllowed);

    /**
     * Add a rate flag (ns-3 DataRate text, e.g. "10Mbps") that must be > 0.
     * \param name the flag, without "--"
     * \param help its help text
     * \param value its default, and where the parsed text goes
     */
    void AddRate(const std::string& name, const std::string& help, std::string& value);

    /**
     * Add a text flag that may be empty ("--pcap=": CommandLine refuses an empty value for a
     * std::string flag).
     * \param name the flag, without "--"
     * \param help its help text
     * \param value its default, and where the parsed text goes
     */
    void AddText(const std::string& name, const std::string& help, std::string& value);

    /**
     * Add a time flag (ns-3 Time text, e.g. "200ms", "1s") that must be at least \p min.
     * \param name the flag, without "--"
     * \param help its help text
     * \param value its default, and where the parsed value goes
     * \param min the smallest value
     */
    void AddTime(const std::string& name, const std::string& help, Time& value, Time min);

    /**
     * \param name a flag, without "--"
     * \param text its value on the command line
     * \param min the smallest value
     * \param max the largest value
     * \return the value; stops the program, naming the flag, if \p text is not an integer in
     *         [min, max] (leading or trailing garbage included)
     */
    static uint32_t ParseUnsigned(const std::string& name,
                                  const std::string& text,
                                  uint32_t min,
                                  uint32_t max);

    /**
     * \param name a flag, without "--"
     * \param text its value on the command line
     * \return the number; stops the program, naming the flag, unless \p text is a finite decimal
     *         number and nothing else
     */
    static double ParseDecimal(const std::string& name, const std::string& text);

    /**
     * \param name a flag, without "--"
     * \param text its value on the command line
     * \return the boolean; stops the program, naming the flag, unless \p text is one
     */
    static bool ParseBoolean(const std::string& name, const std::string& text);

    /**
     * \param name a flag, without "--"
     * \param text its value on the command line
     * \return the number of seconds; stops the program, naming the flag, unless \p text is a
     *         decimal number in [0, MAX_SECONDS]
     */
    static double ParseSeconds(const std::string& name, const std::string& text);

    /**
     * \param name a flag, without "--"
     * \param text its value on the command line
     * \param min the smallest value
     * \param max the largest value
     * \return the integer; stops the program, naming the flag, unless \p text is an integer in
     *         [min, max]
     */
    static int64_t ParseInteger(const std::string& name,
                                const std::string& text,
                                int64_t min,
                                int64_t max);

    /**
     * \param name a flag, without "--"
     * \param text its value on the command line
     * \return the size; stops the program, naming the flag, unless \p text is a QueueSize text
     *         that fits its 32 bits
     */
    static QueueSize ParseSize(const std::string& name, const std::string& text);

    /**
     * \param name a flag, without "--"
     * \param text its value on the command line
     * \return the rate in bit/s; stops the program, naming the flag, if \p text is not a DataRate
     *         or is 0
     */
    static uint64_t ParseRate(const std::string& name, const std::string& text);

    /**
     * \param name a flag, without "--"
     * \param text its value on the command line
     * \param min the smallest value
     * \return the time; stops the program, naming the flag, if \p text is not a Time or is
     *         below \p min
     */
    static Time ParseTime(const std::string& name, const std::string& text, Time min);

  private:
    /**
     * Add a flag whose text goes through \p parse.
     * \param name the flag, without "--"
     * \param help its help text
     * \param defaultText its default, as shown by --help
     * \param parse reads (and checks) the text given
     */
    void AddParsed(const std::string& name,
                   const std::string& help,
                   const std::string& defaultText,
                   std::function<void(const std::string&)> parse);

    CommandLine& m_cmd; //!< the program's command line
};

template <typename T>
void
ExampleFlags::AddInteger(const std::string& name, const std::string& help, T& value)
{
    static_assert(std::is_same_v<T, int64_t> || std::is_same_v<T, int32_t>,
                  "ExampleFlags::AddInteger takes int64_t or int32_t");
    T* target = &value;
    AddParsed(name, help, std::to_string(value), [name, target](const std::string& text) {
        *target = static_cast<T>(
            ParseInteger(name, text, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
    });
}

} // namespace ns3

#endif /* EXAMPLE_FLAGS_H */
