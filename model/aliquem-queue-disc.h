/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ALIQUEM_QUEUE_DISC_H
#define ALIQUEM_QUEUE_DISC_H

#include "aliquem-scheduler.h"
#include "per-flow-queue-disc.h"

#include "ns3/traced-value.h"

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief Aliquem (Lenzini, Mingozzi and Stea, IWQoS 2002): Deficit Round Robin with q + 1 active
 * lists, one per future round, so that quanta may be scaled down by q at O(1) cost; flows hashed
 * into buckets, one shared buffer, buffer stealing from the longest queue (bytes / weight), and
 * per-flow weights, as in DrrQueueDisc.
 *
 * Enqueue: PerFlowQueueDisc's, as DrrQueueDisc's (packet filters, else a hash of the fields the
 * Mask selects, modulo Buckets; non-IP packets share bucket number Buckets). A flow that was idle
 * gets the weight its WeightRules give it and the scaled quantum phi = Quantum x weight /
 * ScalingFactor, and joins the list of the round in which it can send its head packet. While the
 * shared buffer (MaxSize) is over its limit, one packet is dropped from the longest flow (the
 * largest bytes / weight), from its head (as ns-2's DRR) or tail (DropFrom), counted under
 * OVERLIMIT_DROP.
 *
 * Dequeue: Aliquem's round robin (see AliquemScheduler): the head flow of the current round's
 * list sends its head packet if it fits its deficit; otherwise it goes, with the quanta of the
 * k rounds it needs, into the list k rounds ahead (k <= q when phi >= the largest packet / q).
 * With ScalingFactor 1 it serves exactly as DrrQueueDisc. A flow's deficit (GetDeficit, the
 * Deficit trace) includes the quanta of the rounds up to its next visit.
 */
class AliquemQueueDisc : public PerFlowQueueDiscOf<AliquemScheduler, AliquemQueueDisc>
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    AliquemQueueDisc();
    ~AliquemQueueDisc() override;

    /// \return the number of rounds completed
    uint64_t GetRound() const;

    /**
     * \param bucket a backlogged bucket
     * \return in how many rounds it is next served: 0 (the current round) .. ScalingFactor
     */
    uint32_t GetRoundsAhead(uint32_t bucket) const;

    /// \return the number of times a flow needed more than ScalingFactor rounds (phi too small)
    uint64_t GetCutSchedules() const;

  private:
    friend class PerFlowQueueDiscOf<AliquemScheduler, AliquemQueueDisc>;

    /**
     * After a packet was sent: the Round trace.
     * \param p the packet
     */
    void Served(const Packet& p)
    {
        // Aliquem: the head flow of the current round's list sent its head packet
        // (AliquemScheduler::Dequeue).
        m_round = m_scheduler.GetRound();
        NS_LOG_DEBUG("round " << m_scheduler.GetRound() << ": bucket " << p.flow << " sends "
                              << p.size << " B, deficit now " << p.deficit);
    }

    bool CheckConfig() override;
    void InitializeParams() override;

    uint32_t m_quantum;            //!< quantum of a weight-1 flow in bytes, before scaling
    uint32_t m_scalingFactor;      //!< q: quanta scaled by 1/q, q + 1 active lists
    TracedValue<uint64_t> m_round; //!< rounds completed
};

} // namespace ns3

#endif /* ALIQUEM_QUEUE_DISC_H */
