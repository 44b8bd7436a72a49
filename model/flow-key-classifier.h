/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_KEY_CLASSIFIER_H
#define FLOW_KEY_CLASSIFIER_H

#include "flow-identifier.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief A packet filter whose class depends on the packet's flow key alone
 * (FlowIdentifier::Extract): an interface a PacketFilter subclass adds.
 *
 * A per-flow queue disc (PerFlowQueueDisc) reads every arrival's flow key before it classifies
 * it. When its only packet filter is also a FlowKeyClassifier, it calls ClassifyKey with that
 * key instead of QueueDisc::Classify, which would go through PacketFilter::Classify (a copy of
 * the item's Ptr, CheckProtocol) to the filter's DoClassify, and there read the same headers
 * again. With more than one filter, or one that is not a FlowKeyClassifier, it calls
 * QueueDisc::Classify as any queue disc does.
 *
 * ClassifyKey must return what the filter's Classify returns for every packet with that key,
 * CheckProtocol included: PacketFilter::PF_NO_MATCH for one the filter does not handle (a key
 * with isIp false is any packet other than IPv4 and IPv6). FlowIndexPacketFilter is one; the
 * tests check that both paths give every packet the same class.
 */
class FlowKeyClassifier
{
  public:
    virtual ~FlowKeyClassifier() = default;

    /**
     * \param key a packet's flow key
     * \return its class, or PacketFilter::PF_NO_MATCH, as the filter's Classify of the packet
     */
    virtual int32_t ClassifyKey(const FlowKey& key) const = 0;
};

} // namespace ns3

#endif /* FLOW_KEY_CLASSIFIER_H */
