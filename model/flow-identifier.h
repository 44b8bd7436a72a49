/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QDISC_LAB_FLOW_IDENTIFIER_H
#define QDISC_LAB_FLOW_IDENTIFIER_H

#include "ns3/packet-filter.h"
#include "ns3/ptr.h"
#include "ns3/queue-item.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief What identifies and describes a packet's flow: addresses, ports, protocol, DSCP.
 *
 * IPv4 addresses are stored in the first 4 bytes of the 16-byte arrays. Ports are those of a
 * TCP or UDP header that starts the payload (0 otherwise, and for non-first IPv4 fragments).
 */
struct FlowKey
{
    bool isIp = false;             //!< an IPv4 or IPv6 packet
    bool isIpv6 = false;           //!< an IPv6 packet
    std::array<uint8_t, 16> src{}; //!< source address
    std::array<uint8_t, 16> dst{}; //!< destination address
    uint16_t srcPort = 0;          //!< TCP/UDP source port
    uint16_t dstPort = 0;          //!< TCP/UDP destination port
    uint8_t protocol = 0;          //!< IPv4 protocol / IPv6 next header
    uint8_t dscp = 0;              //!< DiffServ code point (6 bits)

    /// \return the key as text, e.g. "10.1.1.1:49153 > 10.3.1.1:5000 proto 6 dscp 10"
    std::string ToString() const;
};

/**
 * \ingroup qdisc-lab
 * \brief Maps packets to per-flow buckets, as ns-2's DRR does with its mask_ and buckets_,
 * with ns-3's hashing (murmur3) and a perturbation.
 *
 * Shared by every per-flow queue disc of the module (DrrQueueDisc,
 * VerticalDimensioningQueueDisc), so that all identify flows the same way.
 */
class FlowIdentifier
{
  public:
    /// What identifies a flow (ns-2's mask_).
    enum Mask
    {
        FIVE_TUPLE,   //!< addresses, ports and protocol (ns-2 mask_ = 0, its default)
        ADDRESS_PAIR, //!< source and destination address only (ns-2 mask_ = 1)
    };

    /**
     * \param item a packet
     * \return its flow key; isIp is false for anything but IPv4 and IPv6 packets
     */
    static FlowKey Extract(Ptr<const QueueDiscItem> item);

    /**
     * \param item a packet
     * \return its flow key; isIp is false for anything but IPv4 and IPv6 packets
     */
    static FlowKey Extract(const QueueDiscItem& item);

    /**
     * \param key a flow key with isIp set
     * \param mask which fields identify the flow
     * \param perturbation hash perturbation (changes the flow-to-bucket mapping)
     * \return the 32-bit hash of the key's identifying fields
     */
    static uint32_t Hash(const FlowKey& key, Mask mask, uint32_t perturbation);

    /**
     * ns-3's Hash32 (murmur3, MurmurHash3_x86_32 with ns-3's seed), computed here: Hash32 and
     * Hash::Function::Murmur3 are calls into ns-3 that cost as much again as the hash itself
     * (a global Hasher, a reset, an incremental interface). The same value as
     * `ns3::Hash32(buffer, size)` with the default hasher (a unit test compares them).
     * \param buffer the bytes
     * \param size how many
     * \return their 32-bit hash
     */
    static uint32_t Murmur3(const char* buffer, std::size_t size);

    /**
     * The bucket of a packet, as every per-flow queue disc of the module assigns it: the class
     * an installed PacketFilter gave it, modulo \p buckets (filters win, as in FqCoDel); else
     * the hash of its key modulo \p buckets; a non-IP packet gets the extra bucket \p buckets.
     * \param key the packet's flow key
     * \param filterClass the class the queue disc's packet filters returned, or
     *        PacketFilter::PF_NO_MATCH (also when it has none)
     * \param buckets number of buckets (>= 1)
     * \param mask which fields identify the flow
     * \param perturbation hash perturbation
     * \return the bucket, 0 .. buckets
     */
    static uint32_t Bucket(const FlowKey& key,
                           int32_t filterClass,
                           uint32_t buckets,
                           Mask mask,
                           uint32_t perturbation)
    {
        // Inline: every packet of every per-flow queue disc comes here.
        if (filterClass != PacketFilter::PF_NO_MATCH)
        {
            return static_cast<uint32_t>(filterClass) % buckets;
        }
        if (!key.isIp)
        {
            return buckets; // the bucket of non-IP packets
        }
        return Hash(key, mask, perturbation) % buckets;
    }
};

} // namespace ns3

#endif /* QDISC_LAB_FLOW_IDENTIFIER_H */
