/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_INDEX_PACKET_FILTER_H
#define FLOW_INDEX_PACKET_FILTER_H

#include "flow-identifier.h"
#include "flow-key-classifier.h"

#include "ns3/packet-filter.h"

#include <cstdint>
#include <unordered_map>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief Gives every flow its own class: 0 for the first flow the filter sees, 1 for the
 * second, and so on, whatever their addresses and ports.
 *
 * Installed on a per-flow queue disc (DrrQueueDisc, VerticalDimensioningQueueDisc) whose
 * Buckets is at least the number of flows, it keeps every flow in its own bucket: the exact
 * per-flow state the papers' schedulers assume, with no hash collision. (Those queue discs take
 * the class modulo Buckets, so more flows than buckets share buckets, in order of arrival.)
 *
 * A flow is what FlowIdentifier's Mask selects (the five-tuple by default). Non-IP packets get
 * no class (PacketFilter::PF_NO_MATCH): the queue disc's own rule applies to them. The table
 * of flows only grows; GetFlowCount() says how many the filter has seen.
 *
 * Its class depends on the flow key alone (FlowKeyClassifier): as a per-flow queue disc's only
 * filter, it classifies the key the queue disc has read, and the headers are read once.
 */
class FlowIndexPacketFilter : public PacketFilter, public FlowKeyClassifier
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FlowIndexPacketFilter();
    ~FlowIndexPacketFilter() override;

    /// \return the number of distinct flows classified so far
    uint32_t GetFlowCount() const;

    /**
     * \param key a packet's flow key
     * \return its flow's class (a new flow gets the next one), or PacketFilter::PF_NO_MATCH for
     *         a non-IP packet
     */
    int32_t ClassifyKey(const FlowKey& key) const override;

  private:
    bool CheckProtocol(Ptr<QueueDiscItem> item) const override;
    int32_t DoClassify(Ptr<QueueDiscItem> item) const override;

    /// Hash of a flow key's identifying fields (FlowIdentifier::Hash).
    struct KeyHash
    {
        FlowIdentifier::Mask mask; //!< which fields identify a flow
        /**
         * \param key a flow key
         * \return its hash
         */
        std::size_t operator()(const FlowKey& key) const;
    };

    /// Equality of two flow keys' identifying fields.
    struct KeyEqual
    {
        FlowIdentifier::Mask mask; //!< which fields identify a flow
        /**
         * \param a a flow key
         * \param b another
         * \return whether they are the same flow
         */
        bool operator()(const FlowKey& a, const FlowKey& b) const;
    };

    /// Flows seen so far, and their classes.
    using Table = std::unordered_map<FlowKey, int32_t, KeyHash, KeyEqual>;

    FlowIdentifier::Mask m_mask; //!< which fields identify a flow
    mutable Table m_classes;     //!< class of every flow seen (Classify is const)
};

} // namespace ns3

#endif /* FLOW_INDEX_PACKET_FILTER_H */
