/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns2-source-hash-packet-filter.h"

#include "flow-match.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/string.h"

#include <arpa/inet.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Ns2SourceHashPacketFilter");

NS_OBJECT_ENSURE_REGISTERED(Ns2SourceHashPacketFilter);

namespace
{

/// The attribute named in error messages.
constexpr const char* NODE_ADDRESSES = "Ns2SourceHashPacketFilter NodeAddresses";

/**
 * \param bytes four bytes of an address, in network order
 * \return their value as an unsigned number
 */
uint32_t
Value32(const uint8_t* bytes)
{
    return (uint32_t{bytes[0]} << 24) | (uint32_t{bytes[1]} << 16) | (uint32_t{bytes[2]} << 8) |
           uint32_t{bytes[3]};
}

} // namespace

TypeId
Ns2SourceHashPacketFilter::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Ns2SourceHashPacketFilter")
            .SetParent<PacketFilter>()
            .SetGroupName("QdiscLab")
            .AddConstructor<Ns2SourceHashPacketFilter>()
            .AddAttribute("Mask",
                          "ns-2 DRR's mask_: true (mask_ 1) clears the source node address's "
                          "low four bits before hashing, so that nodes 16k .. 16k+15 share a "
                          "flow; false (mask_ 0, ns-2's default) hashes the address as it is.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&Ns2SourceHashPacketFilter::m_mask),
                          MakeBooleanChecker())
            .AddAttribute("NodeAddresses",
                          "The ns-2 node address (the node's id in its script, 0 .. 2^31 - 1) "
                          "of each source address, as 'ADDRESS=NODE' entries separated by ';', "
                          "e.g. '10.1.1.1=1; 10.1.2.1=2' (IPv4 or IPv6 addresses). A source "
                          "not listed counts as its own value (IPv4 address, or an IPv6 "
                          "address's last 32 bits) modulo 2^31. Empty: none listed.",
                          StringValue(""),
                          MakeStringAccessor(&Ns2SourceHashPacketFilter::SetNodeAddresses,
                                             &Ns2SourceHashPacketFilter::GetNodeAddresses),
                          MakeStringChecker());
    return tid;
}

Ns2SourceHashPacketFilter::Ns2SourceHashPacketFilter()
    : m_mask(false)
{
    NS_LOG_FUNCTION(this);
}

Ns2SourceHashPacketFilter::~Ns2SourceHashPacketFilter() = default;

int32_t
Ns2SourceHashPacketFilter::Ns2Hash(int32_t nodeAddress, bool mask)
{
    NS_ABORT_MSG_IF(nodeAddress < 0,
                    "Ns2SourceHashPacketFilter: node address " << nodeAddress << " < 0");
    // drr.cc: i = saddr (& 0xfff0 with mask_); return ((i + (i >> 8) + ~(i >> 4)) % ((2 << 23)
    // - 1)) + 1. For 0 <= i < 2^31 the sum stays in [-1, 2^31) (no overflow), and C's %
    // truncates toward zero, which int64_t's does too.
    const int64_t i = mask ? (nodeAddress & 0xfff0) : nodeAddress;
    const int64_t sum = i + (i >> 8) + ~(i >> 4);
    return static_cast<int32_t>(sum % ((int64_t{2} << 23) - 1) + 1);
}

int32_t
Ns2SourceHashPacketFilter::GetNodeAddress(const FlowKey& key) const
{
    if (key.isIpv6)
    {
        const auto it = m_ipv6.find(key.src);
        return it != m_ipv6.end() ? it->second
                                  : static_cast<int32_t>(Value32(&key.src[12]) & 0x7fffffffU);
    }
    const uint32_t value = Value32(key.src.data());
    const auto it = m_ipv4.find(value);
    return it != m_ipv4.end() ? it->second : static_cast<int32_t>(value & 0x7fffffffU);
}

bool
Ns2SourceHashPacketFilter::CheckProtocol(Ptr<QueueDiscItem> item) const
{
    // Every item: DoClassify tells IP from the rest by the flow key it extracts anyway.
    return true;
}

int32_t
Ns2SourceHashPacketFilter::DoClassify(Ptr<QueueDiscItem> item) const
{
    const FlowKey key = FlowIdentifier::Extract(item);
    if (!key.isIp)
    {
        return PacketFilter::PF_NO_MATCH;
    }
    return Ns2Hash(GetNodeAddress(key), m_mask);
}

void
Ns2SourceHashPacketFilter::SetNodeAddresses(std::string text)
{
    try
    {
        std::unordered_map<uint32_t, int32_t> ipv4;
        std::map<std::array<uint8_t, 16>, int32_t> ipv6;
        const auto expected = std::string("ADDRESS=NODE (an IPv4 or IPv6 address, a node 0..") +
                              std::to_string(MAX_NODE_ADDRESS) + ")";
        for (const FlowMatch::RuleText& rule :
             FlowMatch::SplitRules(text, NODE_ADDRESSES, expected))
        {
            if (rule.fields.size() != 1)
            {
                FlowMatch::Fail(NODE_ADDRESSES, rule, rule.text, "one " + expected + " per entry");
            }
            const auto& [address, node] = rule.fields.front();
            unsigned long value = 0;
            if (!FlowMatch::ParseNumber(node, MAX_NODE_ADDRESS, value))
            {
                FlowMatch::Fail(NODE_ADDRESSES,
                                rule,
                                address,
                                "a node 0.." + std::to_string(MAX_NODE_ADDRESS));
            }
            std::array<uint8_t, 16> bytes{};
            bool inserted = false;
            if (inet_pton(AF_INET, address.c_str(), bytes.data()) == 1)
            {
                inserted = ipv4.emplace(Value32(bytes.data()), static_cast<int32_t>(value)).second;
            }
            else if (inet_pton(AF_INET6, address.c_str(), bytes.data()) == 1)
            {
                inserted = ipv6.emplace(bytes, static_cast<int32_t>(value)).second;
            }
            else
            {
                FlowMatch::Fail(NODE_ADDRESSES,
                                rule,
                                address,
                                "an IPv4 address a.b.c.d or an IPv6 address");
            }
            if (!inserted)
            {
                FlowMatch::Fail(NODE_ADDRESSES, rule, address, "each address once");
            }
        }
        m_nodeAddressesText = text;
        m_ipv4 = std::move(ipv4);
        m_ipv6 = std::move(ipv6);
    }
    catch (const FlowMatch::RuleError& error)
    {
        NS_FATAL_ERROR(error.what());
    }
}

std::string
Ns2SourceHashPacketFilter::GetNodeAddresses() const
{
    return m_nodeAddressesText;
}

} // namespace ns3
