/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-identifier.h"

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

/// ns-3's murmur3 seed (Hash::Function::Murmur3::SEED).
constexpr uint32_t MURMUR3_SEED = 0x8BADF00D;

/**
 * \param x a word
 * \param r bits
 * \return x rotated left by r bits
 */
constexpr uint32_t
RotateLeft(uint32_t x, int r)
{
    return (x << r) | (x >> (32 - r));
}

/**
 * \param k a word of the key (its last, partial one padded with zeros)
 * \return it mixed, as murmur3 mixes each word into the hash
 */
constexpr uint32_t
MixWord(uint32_t k)
{
    return RotateLeft(k * 0xcc9e2d51U, 15) * 0x1b873593U;
}

/**
 * MurmurHash3_x86_32 with ns-3's seed (FlowIdentifier::Murmur3); inlined where the size is a
 * constant, so that the loop unrolls.
 * \param buffer the bytes
 * \param size how many
 * \return their hash
 */
inline __attribute__((always_inline)) uint32_t
Murmur3Of(const char* buffer, std::size_t size)
{
    // MurmurHash3_x86_32: the key in 4-byte words (the machine's byte order, as ns-3 reads
    // them), each mixed into h; the last 1-3 bytes as a little-endian word; then the length
    // and a final avalanche (fmix32).
    uint32_t h = MURMUR3_SEED;
    const std::size_t words = size / 4;
    for (std::size_t i = 0; i < words; ++i)
    {
        uint32_t k;
        std::memcpy(&k, buffer + 4 * i, 4);
        h ^= MixWord(k);
        h = RotateLeft(h, 13) * 5 + 0xe6546b64U;
    }
    const auto* tail = reinterpret_cast<const uint8_t*>(buffer + 4 * words);
    uint32_t k = 0;
    switch (size & 3)
    {
    case 3:
        k ^= uint32_t{tail[2]} << 16;
        [[fallthrough]];
    case 2:
        k ^= uint32_t{tail[1]} << 8;
        [[fallthrough]];
    case 1:
        k ^= tail[0];
        h ^= MixWord(k);
    }
    h ^= static_cast<uint32_t>(size);
    h ^= h >> 16;
    h *= 0x85ebca6bU;
    h ^= h >> 13;
    h *= 0xc2b2ae35U;
    h ^= h >> 16;
    return h;
}

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
    // copies have constant sizes, and each of the four layouts hashes a constant number of
    // bytes (12, 17, 36 or 41), so that they compile to moves and unrolled loops.
    char buffer[4 + 16 + 16 + 5];
    std::memcpy(buffer, &perturbation, 4);
    const auto ports = [&key](char* at) {
        std::memcpy(at, &key.srcPort, 2);
        std::memcpy(at + 2, &key.dstPort, 2);
        at[4] = static_cast<char>(key.protocol);
    };
    if (key.isIpv6)
    {
        std::memcpy(buffer + 4, key.src.data(), 16);
        std::memcpy(buffer + 20, key.dst.data(), 16);
        if (mask == FIVE_TUPLE)
        {
            ports(buffer + 36);
            return Murmur3Of(buffer, 36 + 5);
        }
        return Murmur3Of(buffer, 36);
    }
    std::memcpy(buffer + 4, key.src.data(), 4);
    std::memcpy(buffer + 8, key.dst.data(), 4);
    if (mask == FIVE_TUPLE)
    {
        ports(buffer + 12);
        return Murmur3Of(buffer, 12 + 5);
    }
    return Murmur3Of(buffer, 12);
}

uint32_t
FlowIdentifier::Murmur3(const char* buffer, std::size_t size)
{
    return Murmur3Of(buffer, size);
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
