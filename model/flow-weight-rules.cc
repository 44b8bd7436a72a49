/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-weight-rules.h"

#include "ns3/abort.h"

#include <arpa/inet.h>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>

namespace ns3
{

namespace
{

/**
 * Split \p text at any of \p separators, dropping empty pieces.
 * \param text the text
 * \param separators the separator characters
 * \return the pieces
 */
std::vector<std::string>
Split(const std::string& text, const std::string& separators)
{
    std::vector<std::string> pieces;
    std::string current;
    for (char c : text)
    {
        if (separators.find(c) != std::string::npos)
        {
            if (!current.empty())
            {
                pieces.push_back(current);
            }
            current.clear();
        }
        else
        {
            current += c;
        }
    }
    if (!current.empty())
    {
        pieces.push_back(current);
    }
    return pieces;
}

/**
 * \param text decimal digits
 * \param max the largest value allowed
 * \param value where the number goes
 * \return whether text is a number in [0, max]
 */
bool
ParseUnsigned(const std::string& text, unsigned long max, unsigned long& value)
{
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
        text.size() > 10)
    {
        return false;
    }
    value = std::strtoul(text.c_str(), nullptr, 10);
    return value <= max;
}

/// DSCP names (RFC 2474, 2597, 3246).
const std::map<std::string, int> DSCP_NAMES = {
    {"BE", 0},    {"CS0", 0},   {"CS1", 8},   {"CS2", 16},  {"CS3", 24},  {"CS4", 32},
    {"CS5", 40},  {"CS6", 48},  {"CS7", 56},  {"AF11", 10}, {"AF12", 12}, {"AF13", 14},
    {"AF21", 18}, {"AF22", 20}, {"AF23", 22}, {"AF31", 26}, {"AF32", 28}, {"AF33", 30},
    {"AF41", 34}, {"AF42", 36}, {"AF43", 38}, {"EF", 46},
};

/// Protocol names.
const std::map<std::string, int> PROTOCOL_NAMES = {
    {"icmp", 1},
    {"tcp", 6},
    {"udp", 17},
    {"icmpv6", 58},
};

} // namespace

bool
ParseDscp(const std::string& text, uint8_t& dscp)
{
    unsigned long number = 0;
    auto it = DSCP_NAMES.find(text);
    if (it != DSCP_NAMES.end())
    {
        dscp = static_cast<uint8_t>(it->second);
        return true;
    }
    if (ParseUnsigned(text, 63, number))
    {
        dscp = static_cast<uint8_t>(number);
        return true;
    }
    return false;
}

FlowWeightRules::FlowWeightRules(const std::string& text, const std::string& what)
{
    std::size_t index = 0;
    for (const std::string& ruleText : Split(text, ";\n"))
    {
        ++index;
        if (ruleText.find_first_not_of(" \t,") == std::string::npos)
        {
            continue;
        }
        Rule rule;
        bool hasWeight = false;
        const auto fail = [&](const std::string& field, const std::string& expected) {
            NS_FATAL_ERROR(what << ": rule " << index << " ('" << ruleText << "'), field '" << field
                                << "': expected " << expected);
        };
        for (const std::string& field : Split(ruleText, " \t,"))
        {
            const auto eq = field.find('=');
            if (eq == std::string::npos || eq == 0 || eq + 1 == field.size())
            {
                fail(field, "key=value with key src, dst, sport, dport, proto, dscp or weight");
            }
            const std::string key = field.substr(0, eq);
            const std::string value = field.substr(eq + 1);
            if (key == "src" || key == "dst")
            {
                Prefix prefix;
                prefix.any = false;
                const auto slash = value.find('/');
                const std::string address = value.substr(0, slash);
                prefix.ipv6 = address.find(':') != std::string::npos;
                const unsigned long maxLength = prefix.ipv6 ? 128 : 32;
                unsigned long length = maxLength;
                if (slash != std::string::npos &&
                    !ParseUnsigned(value.substr(slash + 1), maxLength, length))
                {
                    fail(field, "a prefix length from 0 to " + std::to_string(maxLength));
                }
                prefix.length = static_cast<uint8_t>(length);
                if (inet_pton(prefix.ipv6 ? AF_INET6 : AF_INET,
                              address.c_str(),
                              prefix.bytes.data()) != 1)
                {
                    fail(field, "an IPv4 address a.b.c.d or an IPv6 address, optionally /LENGTH");
                }
                (key == "src" ? rule.src : rule.dst) = prefix;
            }
            else if (key == "sport" || key == "dport")
            {
                const auto dash = value.find('-');
                unsigned long lo = 0;
                unsigned long hi = 0;
                if (!ParseUnsigned(value.substr(0, dash), 65535, lo) ||
                    (dash != std::string::npos &&
                     !ParseUnsigned(value.substr(dash + 1), 65535, hi)))
                {
                    fail(field, "a port 0-65535 or a range LO-HI");
                }
                if (dash == std::string::npos)
                {
                    hi = lo;
                }
                if (lo > hi)
                {
                    fail(field, "a range LO-HI with LO <= HI");
                }
                (key == "sport" ? rule.sportLo : rule.dportLo) = static_cast<uint16_t>(lo);
                (key == "sport" ? rule.sportHi : rule.dportHi) = static_cast<uint16_t>(hi);
            }
            else if (key == "proto")
            {
                unsigned long number = 0;
                auto it = PROTOCOL_NAMES.find(value);
                if (it != PROTOCOL_NAMES.end())
                {
                    rule.protocol = it->second;
                }
                else if (ParseUnsigned(value, 255, number))
                {
                    rule.protocol = static_cast<int>(number);
                }
                else
                {
                    fail(field, "tcp, udp, icmp, icmpv6 or a number 0-255");
                }
            }
            else if (key == "dscp")
            {
                uint8_t dscp = 0;
                if (!ParseDscp(value, dscp))
                {
                    fail(field, "BE, CS0-CS7, AF11-AF43, EF or a number 0-63");
                }
                rule.dscp = dscp;
            }
            else if (key == "weight")
            {
                char* end = nullptr;
                rule.weight = std::strtod(value.c_str(), &end);
                if (end == value.c_str() || *end != '\0' || !std::isfinite(rule.weight) ||
                    rule.weight <= 0)
                {
                    fail(field, "a finite weight > 0");
                }
                hasWeight = true;
            }
            else
            {
                fail(field, "key src, dst, sport, dport, proto, dscp or weight");
            }
        }
        if (!hasWeight)
        {
            fail("weight", "every rule to give weight=W");
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

bool
FlowWeightRules::Matches(const Prefix& prefix, const FlowKey& key, bool source)
{
    if (prefix.any)
    {
        return true;
    }
    if (prefix.ipv6 != key.isIpv6)
    {
        return false;
    }
    const auto& address = source ? key.src : key.dst;
    const uint8_t full = prefix.length / 8;
    for (uint8_t i = 0; i < full; ++i)
    {
        if (address[i] != prefix.bytes[i])
        {
            return false;
        }
    }
    const uint8_t rest = prefix.length % 8;
    if (rest == 0)
    {
        return true;
    }
    const uint8_t mask = static_cast<uint8_t>(0xff << (8 - rest));
    return (address[full] & mask) == (prefix.bytes[full] & mask);
}

double
FlowWeightRules::WeightOf(const FlowKey& key) const
{
    if (!key.isIp)
    {
        return m_defaultWeight;
    }
    for (const Rule& rule : m_rules)
    {
        if (Matches(rule.src, key, true) && Matches(rule.dst, key, false) &&
            key.srcPort >= rule.sportLo && key.srcPort <= rule.sportHi &&
            key.dstPort >= rule.dportLo && key.dstPort <= rule.dportHi &&
            (rule.protocol < 0 || rule.protocol == key.protocol) &&
            (rule.dscp < 0 || rule.dscp == key.dscp))
        {
            return rule.weight;
        }
    }
    return m_defaultWeight;
}

} // namespace ns3
