/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QDISC_LAB_TEST_PACKETS_H
#define QDISC_LAB_TEST_PACKETS_H

/**
 * \file
 * \ingroup qdisc-lab-tests
 * Packets and queue discs for the module's test suites: IPv4/IPv6 UDP packets of exact sizes,
 * a non-IP packet, and queue discs configured from name/value pairs.
 */

#include "ns3/ipv4-header.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv6-header.h"
#include "ns3/ipv6-queue-disc-item.h"
#include "ns3/object.h"
#include "ns3/packet-filter.h"
#include "ns3/packet.h"
#include "ns3/string.h"
#include "ns3/udp-header.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace qdisclab
{
namespace test
{

/// Bytes of IPv4 + UDP headers in an IPv4 test packet's size.
constexpr uint32_t IPV4_UDP = 28;
/// Bytes of IPv6 + UDP headers in an IPv6 test packet's size.
constexpr uint32_t IPV6_UDP = 48;

/**
 * An IPv4/UDP packet of exactly \p size bytes (headers included).
 * \param src source address
 * \param dst destination address
 * \param sport source port
 * \param dport destination port
 * \param size total size, >= IPV4_UDP
 * \param dscp DSCP
 * \return the item
 */
inline Ptr<QueueDiscItem>
Ipv4UdpPacket(const char* src,
              const char* dst,
              uint16_t sport,
              uint16_t dport,
              uint32_t size,
              Ipv4Header::DscpType dscp = Ipv4Header::DscpDefault)
{
    Ptr<Packet> p = Create<Packet>(size - IPV4_UDP);
    UdpHeader udp;
    udp.SetSourcePort(sport);
    udp.SetDestinationPort(dport);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address(src));
    ip.SetDestination(Ipv4Address(dst));
    ip.SetProtocol(17);
    ip.SetPayloadSize(p->GetSize());
    ip.SetDscp(dscp);
    return Create<Ipv4QueueDiscItem>(p, Address(), 0x0800, ip);
}

/**
 * An IPv6/UDP packet of exactly \p size bytes (headers included).
 * \param src source address
 * \param dst destination address
 * \param sport source port
 * \param dport destination port
 * \param size total size, >= IPV6_UDP
 * \return the item
 */
inline Ptr<QueueDiscItem>
Ipv6UdpPacket(const char* src, const char* dst, uint16_t sport, uint16_t dport, uint32_t size)
{
    Ptr<Packet> p = Create<Packet>(size - IPV6_UDP);
    UdpHeader udp;
    udp.SetSourcePort(sport);
    udp.SetDestinationPort(dport);
    p->AddHeader(udp);
    Ipv6Header ip;
    ip.SetSource(Ipv6Address(src));
    ip.SetDestination(Ipv6Address(dst));
    ip.SetNextHeader(17);
    ip.SetPayloadLength(p->GetSize());
    return Create<Ipv6QueueDiscItem>(p, Address(), 0x86DD, ip);
}

/// A packet that is neither IPv4 nor IPv6 (an ARP-like payload).
class NonIpItem : public QueueDiscItem
{
  public:
    /// \param size the packet size
    explicit NonIpItem(uint32_t size)
        : QueueDiscItem(Create<Packet>(size), Address(), 0x0806)
    {
    }

    void AddHeader() override
    {
    }

    bool Mark() override
    {
        return false;
    }
};

/// A packet filter that puts every IPv4 packet in class 3 (and does not match others).
class ClassThreeFilter : public PacketFilter
{
  private:
    bool CheckProtocol(Ptr<QueueDiscItem> item) const override
    {
        return DynamicCast<Ipv4QueueDiscItem>(item) != nullptr;
    }

    int32_t DoClassify(Ptr<QueueDiscItem> item) const override
    {
        return 3;
    }
};

/**
 * \tparam QD a queue disc type
 * \param attributes name/value pairs, set as StringValues
 * \return the queue disc, initialized
 */
template <typename QD>
Ptr<QD>
MakeQueueDisc(const std::vector<std::pair<std::string, std::string>>& attributes)
{
    auto qd = CreateObject<QD>();
    for (const auto& [name, value] : attributes)
    {
        qd->SetAttribute(name, StringValue(value));
    }
    qd->Initialize();
    return qd;
}

} // namespace test
} // namespace qdisclab
} // namespace ns3

#endif /* QDISC_LAB_TEST_PACKETS_H */
