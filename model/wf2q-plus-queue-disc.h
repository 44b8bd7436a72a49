/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WF2Q_PLUS_QUEUE_DISC_H
#define WF2Q_PLUS_QUEUE_DISC_H

#include "per-flow-queue-disc.h"
#include "wf2q-plus-scheduler.h"

#include "ns3/traced-value.h"

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief WF²Q+ (Bennett and Zhang, "Hierarchical packet fair queueing algorithms", IEEE/ACM ToN
 * 5(5), 1997) as a per-flow queue disc: flows hashed into buckets (or classified by packet
 * filters), each bucket a flow of WF²Q+ (Wf2qPlusScheduler) with the weight of its rule, and a
 * shared buffer.
 *
 * A bucket of weight w is guaranteed the share w / Φ of the link, Φ being TotalWeight; with
 * TotalWeight = 0 (the default) Φ is the sum of the weights of the buckets that have had packets
 * since the simulation started (each counted once), so that the guarantees fill the link as the
 * paper assumes once every flow has been seen. When the buffer is full, DropFrom chooses the
 * packet dropped: the head (the default) or the tail of the bucket with the largest bytes /
 * weight (buffer stealing, as DRR's).
 *
 * Traces: the family's (no Deficit: WF²Q+ keeps tags, not deficits), and VirtualTime, the system
 * virtual time V after each dequeue, in bytes of link service.
 */
class Wf2qPlusQueueDisc : public PerFlowQueueDiscOf<Wf2qPlusScheduler, Wf2qPlusQueueDisc>
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    Wf2qPlusQueueDisc();
    ~Wf2qPlusQueueDisc() override;

    /// \return Φ: TotalWeight, or (TotalWeight = 0) the sum of the weights of the buckets seen
    double GetTotalWeight() const;

    /// \return the system virtual time V, in bytes of link service
    double GetVirtualTime() const;

  private:
    friend class PerFlowQueueDiscOf<Wf2qPlusScheduler, Wf2qPlusQueueDisc>;

    /**
     * After a packet was sent: the VirtualTime trace.
     * \param p the packet
     */
    void Served(const Packet& p)
    {
        m_virtualTime = m_scheduler.GetVirtualTime();
        NS_LOG_DEBUG("bucket " << p.flow << " sends " << p.size << " B, V now "
                               << m_scheduler.GetVirtualTime());
    }

    void InitializeParams() override;

    double m_totalWeightAttribute;     //!< TotalWeight: Φ, or 0 for the sum of the weights seen
    TracedValue<double> m_virtualTime; //!< V after the last dequeue
};

} // namespace ns3

#endif /* WF2Q_PLUS_QUEUE_DISC_H */
