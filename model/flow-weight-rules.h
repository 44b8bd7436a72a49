/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_WEIGHT_RULES_H
#define FLOW_WEIGHT_RULES_H

#include "flow-identifier.h"

#include <array>
#include <cstdint>
#include <string>
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
 * \brief Per-flow weights from match rules, written as text in a user's script.
 *
 * Rules are separated by ';'. A rule is a list of key=value fields separated by spaces or
 * commas; a flow matches a rule when it matches every field the rule gives, and takes the
 * weight of the first rule it matches (DefaultWeight if none):
 *
 * \verbatim
 *   src=10.1.0.0/16   dst=2001:db8::/32   source / destination address or prefix
 *   sport=5000        dport=5000-5010     TCP/UDP port or inclusive range
 *   proto=tcp         proto=17            tcp, udp, icmp, icmpv6 or a protocol number
 *   dscp=AF11         dscp=46             BE, CS0..CS7, AF11..AF43, EF, or 0..63
 *   weight=2.5                            required, finite and > 0
 * \endverbatim
 *
 * e.g. "dscp=AF11 weight=2; dst=10.3.1.1 dport=5000 proto=udp weight=4". A malformed rule
 * stops the program with a message naming the rule, the field and what was expected.
 */
class FlowWeightRules
{
  public:
    /// Parse nothing: every flow has weight 1.
    FlowWeightRules() = default;

    /**
     * \param text the rules
     * \param what the attribute or setting they come from, named in error messages
     */
    FlowWeightRules(const std::string& text, const std::string& what);

    /**
     * \param key a flow
     * \return the weight of the first rule the flow matches, else the default weight
     */
    double WeightOf(const FlowKey& key) const;

    /**
     * \param weight the weight of flows no rule matches; finite and > 0
     */
    void SetDefaultWeight(double weight);

    /// \return the number of rules
    std::size_t GetN() const;

  private:
    /// An address prefix.
    struct Prefix
    {
        bool any = true;                 //!< no constraint
        bool ipv6 = false;               //!< an IPv6 prefix
        std::array<uint8_t, 16> bytes{}; //!< address bytes
        uint8_t length = 0;              //!< prefix length in bits
    };

    /// One rule.
    struct Rule
    {
        Prefix src;               //!< source prefix
        Prefix dst;               //!< destination prefix
        uint16_t sportLo = 0;     //!< source port range, low end
        uint16_t sportHi = 65535; //!< source port range, high end
        uint16_t dportLo = 0;     //!< destination port range, low end
        uint16_t dportHi = 65535; //!< destination port range, high end
        int protocol = -1;        //!< protocol number, -1 for any
        int dscp = -1;            //!< DSCP, -1 for any
        double weight = 0;        //!< the weight
    };

    /**
     * \param prefix a prefix
     * \param key a flow
     * \param source whether to test the source (else the destination) address
     * \return whether the address matches
     */
    static bool Matches(const Prefix& prefix, const FlowKey& key, bool source);

    std::vector<Rule> m_rules;  //!< rules, in order
    double m_defaultWeight = 1; //!< weight of unmatched flows
};

} // namespace ns3

#endif /* FLOW_WEIGHT_RULES_H */
