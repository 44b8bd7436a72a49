/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-match.h"

#include <arpa/inet.h>
#include <map>

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
    if (FlowMatch::ParseNumber(text, 63, number))
    {
        dscp = static_cast<uint8_t>(number);
        return true;
    }
    return false;
}

bool
FlowMatch::ParseNumber(const std::string& text, unsigned long max, unsigned long& value)
{
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
        text.size() > 10)
    {
        return false;
    }
    value = std::strtoul(text.c_str(), nullptr, 10);
    return value <= max;
}

bool
FlowMatch::IsKey(const std::string& key)
{
    return key == "src" || key == "dst" || key == "sport" || key == "dport" || key == "proto" ||
           key == "dscp";
}

std::string
FlowMatch::Set(const std::string& key, const std::string& value)
{
    if (key == "src" || key == "dst")
    {
        Prefix prefix;
        prefix.any = false;
        const auto slash = value.find('/');
        const std::string address = value.substr(0, slash);
        prefix.ipv6 = address.find(':') != std::string::npos;
        const unsigned long maxLength = prefix.ipv6 ? 128 : 32;
        unsigned long length = maxLength;
        if (slash != std::string::npos && !ParseNumber(value.substr(slash + 1), maxLength, length))
        {
            return "a prefix length from 0 to " + std::to_string(maxLength);
        }
        prefix.length = static_cast<uint8_t>(length);
        if (inet_pton(prefix.ipv6 ? AF_INET6 : AF_INET, address.c_str(), prefix.bytes.data()) != 1)
        {
            return "an IPv4 address a.b.c.d or an IPv6 address, optionally /LENGTH";
        }
        (key == "src" ? m_src : m_dst) = prefix;
    }
    else if (key == "sport" || key == "dport")
    {
        const auto dash = value.find('-');
        unsigned long lo = 0;
        unsigned long hi = 0;
        if (!ParseNumber(value.substr(0, dash), 65535, lo) ||
            (dash != std::string::npos && !ParseNumber(value.substr(dash + 1), 65535, hi)))
        {
            return "a port 0-65535 or a range LO-HI";
        }
        if (dash == std::string::npos)
        {
            hi = lo;
        }
        if (lo > hi)
        {
            return "a range LO-HI with LO <= HI";
        }
        (key == "sport" ? m_sportLo : m_dportLo) = static_cast<uint16_t>(lo);
        (key == "sport" ? m_sportHi : m_dportHi) = static_cast<uint16_t>(hi);
    }
    else if (key == "proto")
    {
        unsigned long number = 0;
        auto it = PROTOCOL_NAMES.find(value);
        if (it != PROTOCOL_NAMES.end())
        {
            m_protocol = it->second;
        }
        else if (ParseNumber(value, 255, number))
        {
            m_protocol = static_cast<int>(number);
        }
        else
        {
            return "tcp, udp, icmp, icmpv6 or a number 0-255";
        }
    }
    else if (key == "dscp")
    {
        uint8_t dscp = 0;
        if (!ParseDscp(value, dscp))
        {
            return "BE, CS0-CS7, AF11-AF43, EF or a number 0-63";
        }
        m_dscp = dscp;
    }
    else
    {
        return std::string("key ") + KEYS;
    }
    return "";
}

bool
FlowMatch::Matches(const Prefix& prefix, const std::array<uint8_t, 16>& address, bool ipv6)
{
    if (prefix.any)
    {
        return true;
    }
    if (prefix.ipv6 != ipv6)
    {
        return false;
    }
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

bool
FlowMatch::Matches(const FlowKey& key) const
{
    return key.isIp && Matches(m_src, key.src, key.isIpv6) && Matches(m_dst, key.dst, key.isIpv6) &&
           key.srcPort >= m_sportLo && key.srcPort <= m_sportHi && key.dstPort >= m_dportLo &&
           key.dstPort <= m_dportHi && (m_protocol < 0 || m_protocol == key.protocol) &&
           (m_dscp < 0 || m_dscp == key.dscp);
}

std::vector<FlowMatch::RuleText>
FlowMatch::SplitRules(const std::string& text, const std::string& what, const std::string& keys)
{
    std::vector<RuleText> rules;
    std::size_t index = 0;
    for (const std::string& ruleText : Split(text, ";\n"))
    {
        ++index;
        if (ruleText.find_first_not_of(" \t,") == std::string::npos)
        {
            continue;
        }
        RuleText rule;
        rule.index = index;
        rule.text = ruleText;
        for (const std::string& field : Split(ruleText, " \t,"))
        {
            const auto eq = field.find('=');
            if (eq == std::string::npos || eq == 0 || eq + 1 == field.size())
            {
                Fail(what, rule, field, "key=value with key " + keys);
            }
            std::string key = field.substr(0, eq);
            for (const auto& previous : rule.fields)
            {
                if (previous.first == key)
                {
                    Fail(what, rule, field, "each key once, but " + key + " is given twice");
                }
            }
            rule.fields.emplace_back(std::move(key), field.substr(eq + 1));
        }
        rules.push_back(std::move(rule));
    }
    return rules;
}

void
FlowMatch::Fail(const std::string& what,
                const RuleText& rule,
                const std::string& field,
                const std::string& expected)
{
    throw RuleError(what + ": rule " + std::to_string(rule.index) + " ('" + rule.text +
                    "'), field '" + field + "': expected " + expected);
}

} // namespace ns3
