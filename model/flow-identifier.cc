/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-identifier.h"

#include "ns3/hash-murmur3.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv6-address.h"
#include "ns3/ipv6-queue-disc-item.h"
#include "ns3/packet-filter.h"
#include "ns3/packet.h"

#include <arpa/inet.h>
#include <cstring>
#include <sstream>
#include <typeinfo>

namespace ns3
{

namespace
{

/// IANA protocol numbers whose header starts with 16-bit source and destination ports.
constexpr uint8_t TCP = 6;
constexpr uint8_t UDP = 17;

/**
 * Read the TCP/UDP ports at the start of \p packet's payload (the IP payload: the header is
 * kept apart in the queue disc item).
 * \param packet the IP payload
 * \param key where the ports go
 */
void
ReadPorts(const Packet* packet, FlowKey& key)
{
    if ((key.protocol != TCP && key.protocol != UDP) || packet->GetSize() < 4)
    {
        return;
    }
    uint8_t ports[4];
    packet->CopyData(ports, 4);
    key.srcPort = static_cast<uint16_t>(ports[0] << 8 | ports[1]);
    key.dstPort = static_cast<uint16_t>(ports[2] << 8 | ports[3]);
}

/**
 * The hash function of ns-3's Hash32 (murmur3, ns-3's default Hasher), called directly: Hash32
 * goes through the global Hasher (a function-local static, a reset and a virtual call), which
 * costs as much again as hashing a five-tuple. The result is the same: ns-3 resets the global
 * hasher before every Hash32, and Hash() resets this one.
 */
Hash::Function::Murmur3 g_murmur3;

/**
 * \param item a queue disc item
 * \return it as a T, or nullptr if it is not one. The exact type is checked first, which costs
 *         a comparison instead of a dynamic_cast's walk of the class hierarchy.
 */
template <typename T>
const T*
As(const QueueDiscItem& item)
{
    if (typeid(item) == typeid(T))
    {
        return static_cast<const T*>(&item);
    }
    return dynamic_cast<const T*>(&item);
}

} // namespace

FlowKey
FlowIdentifier::Extract(Ptr<const QueueDiscItem> item)
{
    return Extract(*item);
}

FlowKey
FlowIdentifier::Extract(const QueueDiscItem& item)
{
    FlowKey key;
    if (const Ipv4QueueDiscItem* ipv4 = As<Ipv4QueueDiscItem>(item))
    {
        const Ipv4Header& header = ipv4->GetHeader();
        key.isIp = true;
        const uint32_t src = htonl(header.GetSource().Get());
        const uint32_t dst = htonl(header.GetDestination().Get());
        std::memcpy(key.src.data(), &src, 4);
        std::memcpy(key.dst.data(), &dst, 4);
        key.protocol = header.GetProtocol();
        key.dscp = header.GetTos() >> 2;
        if (header.GetFragmentOffset() == 0)
        {
            ReadPorts(PeekPointer(item.GetPacket()), key);
        }
    }
    else if (const Ipv6QueueDiscItem* ipv6 = As<Ipv6QueueDiscItem>(item))
    {
        const Ipv6Header& header = ipv6->GetHeader();
        key.isIp = true;
        key.isIpv6 = true;
        header.GetSource().Serialize(key.src.data());
        header.GetDestination().Serialize(key.dst.data());
        key.protocol = header.GetNextHeader();
        key.dscp = header.GetTrafficClass() >> 2;
        ReadPorts(PeekPointer(item.GetPacket()), key);
    }
    return key;
}

uint32_t
FlowIdentifier::Hash(const FlowKey& key, Mask mask, uint32_t perturbation)
{
    // perturbation | src | dst [| srcPort | dstPort | protocol], addresses 4 or 16 bytes. The
    // copies have constant sizes (one branch per family) so that they compile to moves.
    char buffer[4 + 16 + 16 + 5];
    std::memcpy(buffer, &perturbation, 4);
    std::size_t n = 4;
    if (key.isIpv6)
    {
        std::memcpy(buffer + n, key.src.data(), 16);
        std::memcpy(buffer + n + 16, key.dst.data(), 16);
        n += 32;
    }
    else
    {
        std::memcpy(buffer + n, key.src.data(), 4);
        std::memcpy(buffer + n + 4, key.dst.data(), 4);
        n += 8;
    }
    if (mask == FIVE_TUPLE)
    {
        std::memcpy(buffer + n, &key.srcPort, 2);
        std::memcpy(buffer + n + 2, &key.dstPort, 2);
        buffer[n + 4] = static_cast<char>(key.protocol);
        n += 5;
    }
    g_murmur3.clear();
    return g_murmur3.GetHash32(buffer, n);
}

std::string
FlowKey::ToString() const
{
    if (!isIp)
    {
        return "non-IP";
    }
    std::ostringstream os;
    if (isIpv6)
    {
        auto source = src;
        auto destination = dst;
        os << Ipv6Address(source.data()) << "." << srcPort << " > "
           << Ipv6Address(destination.data()) << "." << dstPort;
    }
    else
    {
        os << Ipv4Address::Deserialize(src.data()) << ":" << srcPort << " > "
           << Ipv4Address::Deserialize(dst.data()) << ":" << dstPort;
    }
    os << " proto " << unsigned(protocol) << " dscp " << unsigned(dscp);
    return os.str();
}

} // namespace ns3
