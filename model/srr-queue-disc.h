/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SRR_QUEUE_DISC_H
#define SRR_QUEUE_DISC_H

#include "per-flow-queue-disc.h"
#include "srr-scheduler.h"

#include "ns3/traced-value.h"

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief Smoothed Round Robin (C. Guo, SIGCOMM 2001): the flows' weights in binary as a Weight
 * Matrix, served column by column in the order of the Weight Spread Sequence, with per-flow
 * deficit counters; flows hashed into buckets, one shared buffer, buffer stealing from the
 * longest queue (bytes / weight), and per-flow weights, as in DrrQueueDisc.
 *
 * Enqueue: PerFlowQueueDisc's, as DrrQueueDisc's (packet filters, else a hash of the fields the
 * Mask selects, modulo Buckets; non-IP packets share bucket number Buckets). A flow that was idle
 * gets the weight its WeightRules give it, rounded to an integer >= 1 (its row of the Weight
 * Matrix), and joins the columns of its weight's 1 bits: at the bottom, but in the column being
 * scanned just above the scan position, so that it waits for that column's next turn. While the
 * shared buffer (MaxSize) is over its limit, one packet is dropped from the longest flow (the
 * largest bytes / weight), from its head (as ns-2's DRR) or tail (DropFrom), counted under
 * OVERLIMIT_DROP.
 *
 * Dequeue: SRR (see SrrScheduler): for each term of the Weight Spread Sequence, the flows of its
 * column are visited in turn; a visit adds Quantum to the flow's deficit, and the flow sends its
 * head packets while they fit. A flow of weight w is visited w times per pass over the sequence,
 * spread over it rather than back to back.
 */
class SrrQueueDisc : public PerFlowQueueDiscOf<SrrScheduler, SrrQueueDisc>
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    SrrQueueDisc();
    ~SrrQueueDisc() override;

    /// \return the position in the Weight Spread Sequence (of order 32; 0 before the first term)
    uint64_t GetPosition() const;

    /**
     * \param bucket a bucket
     * \return its integer weight, its Weight Matrix row (0 if never backlogged)
     */
    uint32_t GetWeight(uint32_t bucket) const;

  private:
    friend class PerFlowQueueDiscOf<SrrScheduler, SrrQueueDisc>;

    /**
     * After a packet was sent: the Position trace.
     * \param p the packet
     */
    void Served(const Packet& p)
    {
        // SRR: the flow being visited sent its head packet (SrrScheduler::Dequeue).
        m_position = m_scheduler.GetPosition();
        NS_LOG_DEBUG("WSS position " << m_scheduler.GetPosition() << ": bucket " << p.flow
                                     << " sends " << p.size << " B, deficit now " << p.deficit);
    }

    bool CheckConfig() override;
    void InitializeParams() override;

    uint32_t m_quantum;               //!< bytes a visit adds to a flow's deficit
    TracedValue<uint64_t> m_position; //!< position in the Weight Spread Sequence
};

} // namespace ns3

#endif /* SRR_QUEUE_DISC_H */
