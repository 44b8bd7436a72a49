/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef VALUE_TEXT_H
#define VALUE_TEXT_H

/**
 * \file
 * \ingroup qdisc-lab
 * Strict readers of the value texts the module takes (numbers, booleans, rates, times and queue
 * sizes, on the command line and inside attribute strings): a text is read whole, with its
 * unit, or refused.
 *
 * ns-3's own parsers (CommandLine's input streams, DataRate, Time and QueueSize) stop at the
 * first character they do not understand and keep what came before ("4ms" read as a number is
 * 4, "1.2.3Mbps" is 1.2 Mb/s, "1-2ms" is 1 ms, "0x10" is 0), and they wrap or overflow values
 * beyond what their type holds ("5000000000B" is 705032704 B, "1e300s" is undefined). These
 * readers refuse all of that: each returns an empty string when \p text is a valid value of its
 * kind, and otherwise what was expected (for the caller's message, which names the flag or
 * attribute and the text as given).
 */

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"

#include <cstdint>
#include <string>

namespace ns3
{
namespace qdisclab
{

/**
 * A decimal number: optional sign, digits with an optional fraction, an optional exponent;
 * nothing before or after it (no hexadecimal, no "nan" or "inf", no spaces), and finite.
 * \param text the text
 * \param value the number read
 * \return "" or what was expected
 */
std::string ParseDecimal(const std::string& text, double& value);

/**
 * A decimal integer (optional sign, digits) in [min, max].
 * \param text the text
 * \param min the smallest value
 * \param max the largest value
 * \param value the integer read
 * \return "" or what was expected
 */
std::string ParseInteger(const std::string& text, int64_t min, int64_t max, int64_t& value);

/**
 * A boolean as ns-3's CommandLine spells one: true, false, 1, 0, t or f (any case); an empty
 * text (a bare "--flag") is true.
 * \param text the text
 * \param value the boolean read
 * \return "" or what was expected
 */
std::string ParseBoolean(const std::string& text, bool& value);

/**
 * A DataRate text: a decimal number (no sign, no exponent) and one of DataRate's units (bps,
 * b/s, Bps, B/s; with k, K, M or G; Kib/s, KiB/s, Mib/s, MiB/s, Gib/s, GiB/s; digits alone:
 * bit/s), at least \p minBits
 * once truncated to whole bits and at most 2^64 - 1 bit/s.
 * \param text the text
 * \param value the rate read
 * \param minBits the smallest rate, bit/s
 * \return "" or what was expected
 */
std::string ParseRateText(const std::string& text, DataRate& value, uint64_t minBits = 1);

/**
 * A Time text: a decimal number and one of Time's units (s, ms, us, ns, ps, fs, min, h, d, y;
 * none: seconds), within what a Time holds at the current resolution (about +-292 years at
 * nanoseconds).
 * \param text the text
 * \param value the time read
 * \return "" or what was expected
 */
std::string ParseTimeText(const std::string& text, Time& value);

/**
 * A QueueSize text: a decimal number (no sign, no exponent) and one of QueueSize's units (B,
 * kB, KB, KiB, MB, MiB; p, kp, Kp, Kip, Mp, Mip), a whole number of packets or bytes in [0,
 * 4294967295].
 * \param text the text
 * \param value the size read
 * \return "" or what was expected
 */
std::string ParseQueueSizeText(const std::string& text, QueueSize& value);

} // namespace qdisclab
} // namespace ns3

#endif /* VALUE_TEXT_H */
