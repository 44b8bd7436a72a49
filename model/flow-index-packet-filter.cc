/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-index-packet-filter.h"

#include "qdisc-lab-compat.h"

#include "ns3/enum.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowIndexPacketFilter");

NS_OBJECT_ENSURE_REGISTERED(FlowIndexPacketFilter);

TypeId
FlowIndexPacketFilter::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FlowIndexPacketFilter")
            .SetParent<PacketFilter>()
            .SetGroupName("QdiscLab")
            .AddConstructor<FlowIndexPacketFilter>()
            .AddAttribute(
                "Mask",
                "What identifies a flow, as DrrQueueDisc's Mask: FiveTuple (addresses, "
                "ports, protocol; the default) or AddressPair. Set before the first "
                "packet.",
                EnumValue(FlowIdentifier::FIVE_TUPLE),
                QDISC_LAB_ENUM_ACCESSOR(FlowIdentifier::Mask, &FlowIndexPacketFilter::m_mask),
                MakeEnumChecker(FlowIdentifier::FIVE_TUPLE,
                                "FiveTuple",
                                FlowIdentifier::ADDRESS_PAIR,
                                "AddressPair"));
    return tid;
}

FlowIndexPacketFilter::FlowIndexPacketFilter()
    : m_mask(FlowIdentifier::FIVE_TUPLE),
      m_classes(16, KeyHash{FlowIdentifier::FIVE_TUPLE}, KeyEqual{FlowIdentifier::FIVE_TUPLE})
{
    NS_LOG_FUNCTION(this);
}

FlowIndexPacketFilter::~FlowIndexPacketFilter() = default;

uint32_t
FlowIndexPacketFilter::GetFlowCount() const
{
    return static_cast<uint32_t>(m_classes.size());
}

bool
FlowIndexPacketFilter::CheckProtocol(Ptr<QueueDiscItem> item) const
{
    // Every item: DoClassify tells IPv4 and IPv6 from the rest by the flow key it extracts
    // anyway (PF_NO_MATCH for the rest, as a false here would give), without two dynamic casts
    // per packet.
    return true;
}

int32_t
FlowIndexPacketFilter::DoClassify(Ptr<QueueDiscItem> item) const
{
    return ClassifyKey(FlowIdentifier::Extract(item));
}

int32_t
FlowIndexPacketFilter::ClassifyKey(const FlowKey& key) const
{
    if (!key.isIp)
    {
        return PacketFilter::PF_NO_MATCH;
    }
    if (m_classes.empty() && m_classes.hash_function().mask != m_mask)
    {
        // The Mask attribute was set after construction: rebuild the (empty) table with it.
        m_classes = Table(16, KeyHash{m_mask}, KeyEqual{m_mask});
    }
    auto [it, inserted] = m_classes.try_emplace(key, static_cast<int32_t>(m_classes.size()));
    if (inserted)
    {
        NS_LOG_DEBUG("flow " << key.ToString() << " -> class " << it->second);
    }
    return it->second;
}

std::size_t
FlowIndexPacketFilter::KeyHash::operator()(const FlowKey& key) const
{
    return FlowIdentifier::Hash(key, mask, 0);
}

bool
FlowIndexPacketFilter::KeyEqual::operator()(const FlowKey& a, const FlowKey& b) const
{
    const bool sameAddresses = a.isIpv6 == b.isIpv6 && a.src == b.src && a.dst == b.dst;
    if (mask == FlowIdentifier::ADDRESS_PAIR)
    {
        return sameAddresses;
    }
    return sameAddresses && a.protocol == b.protocol && a.srcPort == b.srcPort &&
           a.dstPort == b.dstPort;
}

} // namespace ns3
