/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_MATCH_H
#define FLOW_MATCH_H

#include "flow-identifier.h"

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * Read a DiffServ code point written as a name or a number.
 * \param text BE, CS0..CS7, AF11..AF43, EF (RFC 2474, 2597, 3246), or a number 0..63
 * \param dscp set to its value if \p text is one
 * \return whether \p text is a DSCP
 */
bool ParseDscp(const std::string& text, uint8_t& dscp);

/**
 * \ingroup qdisc-lab
 * \brief A match on a packet's 5-tuple and DSCP, as the module's rules write it: the part of
 * a rule that says which flows it applies to (FlowWeightRules, DscpMarkerProfiles).
 *
 * \verbatim
 *   src=10.1.0.0/16   dst=2001:db8::/32   source / destination address or prefix
 *   sport=5000        dport=5000-5010     TCP/UDP port or inclusive range
 *   proto=tcp         proto=17            tcp, udp, icmp, icmpv6 or a protocol number
 *   dscp=AF11         dscp=46             BE, CS0..CS7, AF11..AF43, EF, or 0..63
 * \endverbatim
 *
 * A packet matches when it is an IP packet and matches every field given; a match with no
 * fields matches every IP packet.
 *
 * The rules' common syntax is here too (SplitRules, Fail): rules separated by ';' or new
 * lines, each a list of key=value fields separated by spaces or commas.
 */
class FlowMatch
{
  public:
    /**
     * What Fail throws: a rule text's error, worded as Fail says. The parsers of rule texts
     * (FlowWeightRules, DscpMarkerProfiles, Ns2SourceHashPacketFilter) stop the program with
     * it; their Check functions return it instead, for a caller that must not stop (Python).
     */
    class RuleError : public std::invalid_argument
    {
      public:
        using std::invalid_argument::invalid_argument;
    };

    /// One rule's text, split into its fields.
    struct RuleText
    {
        std::size_t index = 0;                                   //!< 1-based position
        std::string text;                                        //!< the rule as written
        std::vector<std::pair<std::string, std::string>> fields; //!< key, value, in order
    };

    /// The match keys, for error messages.
    static constexpr const char* KEYS = "src, dst, sport, dport, proto, dscp";

    /// Match every IP packet.
    FlowMatch() = default;

    /**
     * \param key a field's key
     * \return whether it is a match key (src, dst, sport, dport, proto, dscp)
     */
    static bool IsKey(const std::string& key);

    /**
     * Constrain the match by one field.
     * \param key a match key (IsKey)
     * \param value its value
     * \return "" if the value is valid, else what was expected, for Fail
     */
    std::string Set(const std::string& key, const std::string& value);

    /**
     * \param key a packet's flow key
     * \return whether it is an IP packet that matches every field
     */
    bool Matches(const FlowKey& key) const;

    /**
     * Split rules into fields. Empty rules are skipped (but counted in the indices); a field
     * that is not key=value, or a key given twice in a rule, is an error (Fail).
     * \param text the rules
     * \param what the setting they come from, named in error messages
     * \param keys every key the rules take, for the error message
     * \return the rules
     */
    static std::vector<RuleText> SplitRules(const std::string& text,
                                            const std::string& what,
                                            const std::string& keys);

    /**
     * Read a decimal number, as rule values write them.
     * \param text decimal digits only
     * \param max the largest value allowed
     * \param value where the number goes
     * \return whether text is a number in [0, max]
     */
    static bool ParseNumber(const std::string& text, unsigned long max, unsigned long& value);

    /**
     * Throw a RuleError naming the setting, the rule, the field and what was expected:
     * "<what>: rule <index> ('<text>'), field '<field>': expected <expected>".
     * \param what the setting
     * \param rule the rule
     * \param field the field
     * \param expected what was expected
     */
    [[noreturn]] static void Fail(const std::string& what,
                                  const RuleText& rule,
                                  const std::string& field,
                                  const std::string& expected);

  private:
    /// An address prefix.
    struct Prefix
    {
        bool any = true;                 //!< no constraint
        bool ipv6 = false;               //!< an IPv6 prefix
        std::array<uint8_t, 16> bytes{}; //!< address bytes
        uint8_t length = 0;              //!< prefix length in bits
    };

    /**
     * \param prefix a prefix
     * \param address an address of the key's family
     * \param ipv6 whether the address is IPv6
     * \return whether the address matches
     */
    static bool Matches(const Prefix& prefix, const std::array<uint8_t, 16>& address, bool ipv6);

    Prefix m_src;               //!< source prefix
    Prefix m_dst;               //!< destination prefix
    uint16_t m_sportLo = 0;     //!< source port range, low end
    uint16_t m_sportHi = 65535; //!< source port range, high end
    uint16_t m_dportLo = 0;     //!< destination port range, low end
    uint16_t m_dportHi = 65535; //!< destination port range, high end
    int m_protocol = -1;        //!< protocol number, -1 for any
    int m_dscp = -1;            //!< DSCP, -1 for any
};

} // namespace ns3

#endif /* FLOW_MATCH_H */
