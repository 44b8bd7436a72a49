/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_WEIGHT_RULES_H
#define FLOW_WEIGHT_RULES_H

#include "flow-match.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief Per-flow weights from match rules, written as text in a user's script.
 *
 * Rules are separated by ';'. A rule is a list of key=value fields separated by spaces or
 * commas: FlowMatch's fields and the weight. A flow takes the weight of the first rule it
 * matches (DefaultWeight if none):
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
 * stops the program with a message naming the rule, the field and what was expected; Check
 * returns that message instead.
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
     * Check rules without stopping the program.
     * \param text the rules
     * \param what the attribute or setting they come from, named in the message
     * \return "" if \p text parses, else the message the constructor stops with
     */
    static std::string Check(const std::string& text, const std::string& what);

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

    /// \return the smallest weight a flow can have: of a rule, or the default weight
    double GetMinWeight() const;

    /// \return the largest weight a flow can have: of a rule, or the default weight
    double GetMaxWeight() const;

  private:
    /**
     * Read the rules into m_rules.
     * \param text the rules
     * \param what the setting they come from
     * \throws FlowMatch::RuleError on a malformed rule
     */
    void Parse(const std::string& text, const std::string& what);

    /// One rule.
    struct Rule
    {
        FlowMatch match;   //!< the flows it applies to
        double weight = 0; //!< their weight
    };

    std::vector<Rule> m_rules;  //!< rules, in order
    double m_defaultWeight = 1; //!< weight of unmatched flows
};

} // namespace ns3

#endif /* FLOW_WEIGHT_RULES_H */
