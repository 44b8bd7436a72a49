/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRR_QUEUE_DISC_H
#define DRR_QUEUE_DISC_H

#include "drr-scheduler.h"
#include "per-flow-queue-disc.h"

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief Deficit Round Robin (Shreedhar and Varghese, 1996) as ns-2's Queue/DRR implements it:
 * flows hashed into buckets, one shared buffer, buffer stealing from the longest queue; plus
 * per-flow weights.
 *
 * Enqueue (PerFlowQueueDisc): the packet's flow is found (installed PacketFilters first, as in
 * FqCoDel; else a hash of the fields the Mask selects, modulo Buckets; non-IP packets share one
 * extra bucket, number Buckets). The packet joins its flow's queue, and a flow that was idle
 * joins the tail of the ActiveList with the weight the WeightRules give it (quantum x weight).
 * While the shared buffer (MaxSize) is over its limit, one packet is dropped from the longest
 * flow (the largest bytes / weight), from its head (ns-2) or tail (DropFrom), counted under
 * OVERLIMIT_DROP.
 *
 * Dequeue: DRR's round robin over the ActiveList (see DrrScheduler): the head flow sends its
 * head packet if it fits its deficit; otherwise it gets quantum x weight more and goes to the
 * tail. A flow that empties leaves the list and its deficit is reset.
 *
 * DropFrom = Last (not ns-2's) drops instead the packet DRR would send last, the tail of the
 * flow that needs the most visits to empty (DrrScheduler::DropLast), as Vertical
 * Dimensioning's drop() takes the tail of its last round; an arrival that would be that packet
 * is dropped before enqueue.
 */
class DrrQueueDisc : public PerFlowQueueDiscOf<DrrScheduler, DrrQueueDisc>
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    DrrQueueDisc();
    ~DrrQueueDisc() override;

  private:
    bool CheckConfig() override;
    void InitializeParams() override;

    uint32_t m_quantum; //!< quantum of a weight-1 flow in bytes (ns-2 quantum_)
};

} // namespace ns3

#endif /* DRR_QUEUE_DISC_H */
