/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NS2_SOURCE_HASH_PACKET_FILTER_H
#define NS2_SOURCE_HASH_PACKET_FILTER_H

#include "flow-identifier.h"

#include "ns3/packet-filter.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief Classifies packets as ns-2.35's Queue/DRR buckets them: by a hash of the source node
 * address alone (drr.cc's hash()), so that a per-flow queue disc of the module, taking the class
 * modulo its Buckets, puts flows in the buckets ns-2 puts them in and reproduces its collisions.
 *
 * ns-2's DRR identifies a flow by its source node's integer address only: no ports, no
 * destination. With mask_ 1 it first clears the address's low four bits (so nodes 16 k .. 16 k
 * + 15 share a flow). The hash is, in C int arithmetic, h = ((i + (i >> 8) + ~(i >> 4)) mod
 * (2^24 - 1)) + 1 for the (masked) address i, and the bucket is h mod buckets_; for the small
 * addresses of an ns-2 script, h = i - i / 16.
 *
 * Node addresses: in an ns-2 script with flat addressing, a node's address is its id, the order
 * in which `$ns node` created it, from 0. NodeAddresses maps the ns-3 source addresses of a
 * scenario to the ids of the ns-2 nodes they stand for; an address it does not list counts as
 * its own value (the IPv4 address, or the last 32 bits of an IPv6 one, as an unsigned number)
 * modulo 2^31, a non-negative int as ns-2's addresses are. Non-IP packets get no class
 * (PacketFilter::PF_NO_MATCH): the queue disc's own rule applies.
 *
 * Install it on DrrQueueDisc (or any per-flow queue disc) with TrafficControlHelper::
 * AddPacketFilter; keep the queue disc's Buckets = ns-2's buckets_.
 */
class Ns2SourceHashPacketFilter : public PacketFilter
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    Ns2SourceHashPacketFilter();
    ~Ns2SourceHashPacketFilter() override;

    /// The largest node address, ns-2's INT_MAX.
    static constexpr int32_t MAX_NODE_ADDRESS = 2147483647;

    /**
     * ns-2.35 drr.cc's hash() of a source node address.
     * \param nodeAddress the address, 0 .. MAX_NODE_ADDRESS
     * \param mask ns-2's mask_: clear the address's low four bits first
     * \return the hash, 0 .. 2^24 - 1 (the bucket is this modulo buckets_)
     */
    static int32_t Ns2Hash(int32_t nodeAddress, bool mask);

    /**
     * \param key an IP packet's flow key
     * \return the ns-2 node address its source stands for (NodeAddresses, else its value)
     */
    int32_t GetNodeAddress(const FlowKey& key) const;

  private:
    bool CheckProtocol(Ptr<QueueDiscItem> item) const override;
    int32_t DoClassify(Ptr<QueueDiscItem> item) const override;

    /**
     * Read the NodeAddresses attribute: 'ADDRESS=NODE' entries separated by ';'. A malformed
     * entry, an address given twice or a node out of range stops the program, naming it.
     * \param text the attribute's value
     */
    void SetNodeAddresses(std::string text);

    /// \return the NodeAddresses attribute's value, as given
    std::string GetNodeAddresses() const;

    bool m_mask;                                       //!< ns-2's mask_
    std::string m_nodeAddressesText;                   //!< NodeAddresses as given
    std::unordered_map<uint32_t, int32_t> m_ipv4;      //!< IPv4 source (host order) -> node
    std::map<std::array<uint8_t, 16>, int32_t> m_ipv6; //!< IPv6 source -> node
};

} // namespace ns3

#endif /* NS2_SOURCE_HASH_PACKET_FILTER_H */
