/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-weight-rules.h"

#include "value-text.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace ns3
{

namespace
{

/// Every key a weight rule takes, for error messages.
const std::string KEYS = std::string(FlowMatch::KEYS) + " or weight";

} // namespace

FlowWeightRules::FlowWeightRules(const std::string& text, const std::string& what)
{
    try
    {
        Parse(text, what);
    }
    catch (const FlowMatch::RuleError& error)
    {
        NS_FATAL_ERROR(error.what());
    }
}

std::string
FlowWeightRules::Check(const std::string& text, const std::string& what)
{
    try
    {
        FlowWeightRules().Parse(text, what);
    }
    catch (const FlowMatch::RuleError& error)
    {
        return error.what();
    }
    return "";
}

void
FlowWeightRules::Parse(const std::string& text, const std::string& what)
{
    for (const FlowMatch::RuleText& ruleText : FlowMatch::SplitRules(text, what, KEYS))
    {
        Rule rule;
        bool hasWeight = false;
        for (const auto& [key, value] : ruleText.fields)
        {
            const std::string field = key + "=" + value;
            if (key == "weight")
            {
                if (!qdisclab::ParseDecimal(value, rule.weight).empty() || rule.weight <= 0)
                {
                    FlowMatch::Fail(what, ruleText, field, "a finite weight > 0");
                }
                hasWeight = true;
            }
            else if (!FlowMatch::IsKey(key))
            {
                FlowMatch::Fail(what, ruleText, field, "key " + KEYS);
            }
            else if (const std::string expected = rule.match.Set(key, value); !expected.empty())
            {
                FlowMatch::Fail(what, ruleText, field, expected);
            }
        }
        if (!hasWeight)
        {
            FlowMatch::Fail(what, ruleText, "weight", "every rule to give weight=W");
        }
        m_rules.push_back(rule);
    }
}

void
FlowWeightRules::SetDefaultWeight(double weight)
{
    NS_ABORT_MSG_UNLESS(std::isfinite(weight) && weight > 0,
                        "FlowWeightRules: the default weight must be finite and > 0, got "
                            << weight);
    m_defaultWeight = weight;
}

std::size_t
FlowWeightRules::GetN() const
{
    return m_rules.size();
}

double
FlowWeightRules::GetMinWeight() const
{
    double weight = m_defaultWeight;
    for (const Rule& rule : m_rules)
    {
        weight = std::min(weight, rule.weight);
    }
    return weight;
}

double
FlowWeightRules::GetMaxWeight() const
{
    double weight = m_defaultWeight;
    for (const Rule& rule : m_rules)
    {
        weight = std::max(weight, rule.weight);
    }
    return weight;
}

double
FlowWeightRules::WeightOf(const FlowKey& key) const
{
    for (const Rule& rule : m_rules)
    {
        if (rule.match.Matches(key))
        {
            return rule.weight;
        }
    }
    return m_defaultWeight;
}

} // namespace ns3
