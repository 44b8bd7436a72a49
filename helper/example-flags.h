/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EXAMPLE_FLAGS_H
#define EXAMPLE_FLAGS_H

#include "ns3/command-line.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <limits>
#include <string>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief The examples' command-line flags that ns-3's CommandLine would read wrongly, declared
 * with their range and checked as they are parsed.
 *
 * CommandLine reads an unsigned flag with an input stream, which takes "-1" for 4294967295; a
 * flag added here is read as a signed integer instead, and a value outside its range stops the
 * program with a message naming the flag, the value and the range:
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
    CommandLine& m_cmd; //!< the program's command line
};

} // namespace ns3

#endif /* EXAMPLE_FLAGS_H */
