/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PER_FLOW_QUEUE_DISC_H
#define PER_FLOW_QUEUE_DISC_H

#include "flow-identifier.h"
#include "flow-queues.h"
#include "flow-weight-rules.h"
#include "slot-queue.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <string>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief What ns-2's DRR puts around its scheduler, shared by DrrQueueDisc, AliquemQueueDisc and
 * SrrQueueDisc: flows hashed into buckets, one shared buffer with buffer stealing from the
 * longest queue, per-flow weights, per-bucket counters and traces.
 *
 * Classification: installed PacketFilters first (as in FqCoDel), else a hash of the fields the
 * Mask selects, modulo Buckets; non-IP packets share one extra bucket, number Buckets. Weights:
 * a flow that was idle gets the weight of its first packet's WeightRules (DefaultWeight if none
 * matches) for as long as it stays backlogged. Buffer stealing: while the shared buffer (MaxSize)
 * is over its limit, one packet is dropped from the flow with the largest bytes / weight, from its
 * head (ns-2) or tail (DropFrom), counted under OVERLIMIT_DROP and in the flow's FlowStats.
 *
 * This class registers the attributes and trace sources these have in common, checks them, and
 * classifies packets; PerFlowQueueDiscOf adds the per-packet steps that use the scheduler. A
 * subclass adds its scheduler's own attributes (Quantum, ...) and its dequeue: the algorithm.
 */
class PerFlowQueueDisc : public QueueDisc
{
  public:
    /// Which end of the longest queue buffer stealing drops from.
    enum DropFrom
    {
        DROP_HEAD, //!< the oldest packet (ns-2)
        DROP_TAIL, //!< the newest packet
    };

    /// Counters of one bucket (flow queue).
    struct FlowStats
    {
        uint64_t enqueuedPackets = 0; //!< packets enqueued
        uint64_t enqueuedBytes = 0;   //!< bytes enqueued
        uint64_t sentPackets = 0;     //!< packets dequeued for transmission
        uint64_t sentBytes = 0;       //!< bytes dequeued for transmission
        uint64_t droppedPackets = 0;  //!< packets dropped by buffer stealing
        uint64_t droppedBytes = 0;    //!< bytes dropped by buffer stealing
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief Register the attributes and trace sources every per-flow queue disc shares
     * (MaxSize, Buckets, Mask, Perturbation, DropFrom, WeightRules, DefaultWeight; ActiveFlows,
     * FlowEnqueue, FlowDequeue, FlowDrop, Deficit) on a subclass's own TypeId.
     *
     * They are registered on each subclass rather than on ns3::PerFlowQueueDisc because
     * Config::SetDefault and --ns3::X::Attr on the command line look only at X's own
     * attributes: "ns3::DrrQueueDisc::Buckets" must keep working.
     * \param tid the subclass's TypeId, its parent set to ns3::PerFlowQueueDisc
     * \return \p tid with the shared attributes and trace sources
     */
    static TypeId AddSharedAttributes(TypeId tid);

    /**
     * \param name the subclass's name, which starts its error messages ("DrrQueueDisc")
     */
    explicit PerFlowQueueDisc(const char* name);
    ~PerFlowQueueDisc() override;

    /**
     * \param item a packet
     * \return the bucket it would be queued in (packet filters, else the hash)
     */
    uint32_t GetBucket(Ptr<QueueDiscItem> item);

    /// Drop reasons
    static constexpr const char* OVERLIMIT_DROP =
        "Overlimit drop"; //!< shared buffer full: stolen from the longest flow

  protected:
    void DoDispose() override;

    /**
     * The checks every per-flow queue disc makes (no classes, no internal queue added, Buckets,
     * DefaultWeight, MaxSize, WeightRules); then it creates the internal queue. A subclass
     * checks its own attributes and calls this.
     * \return true
     */
    bool CheckConfig() override;

    /// Empty the internal queue and ActiveFlows; a subclass resets its scheduler and calls this.
    void InitializeParams() override;

    /**
     * \param item a packet
     * \param key set to the packet's flow key
     * \return the packet's bucket
     */
    uint32_t Classify(const Ptr<QueueDiscItem>& item, FlowKey& key);

    /// \return the subclass's name, for its messages
    const char* GetName() const
    {
        return m_name;
    }

    // Attributes
    uint32_t m_buckets;          //!< number of buckets (ns-2 buckets_)
    FlowIdentifier::Mask m_mask; //!< flow identification (ns-2 mask_)
    uint32_t m_perturbation;     //!< hash perturbation
    DropFrom m_dropFrom;         //!< end of the longest queue to steal from
    std::string m_weightRules;   //!< weight rules, as text
    double m_defaultWeight;      //!< weight of flows no rule matches

    FlowWeightRules m_weights;           //!< parsed weight rules
    double m_uniformWeight;              //!< every flow's weight when there are no rules, else 0
    Ptr<SlotQueue> m_queues;             //!< every bucket's packets: the one internal queue
    TracedValue<uint32_t> m_activeFlows; //!< number of backlogged flows

    TracedCallback<uint32_t, Ptr<const QueueDiscItem>> m_flowEnqueueTrace; //!< bucket, packet
    TracedCallback<uint32_t, Ptr<const QueueDiscItem>> m_flowDequeueTrace; //!< bucket, packet
    TracedCallback<uint32_t, Ptr<const QueueDiscItem>> m_flowDropTrace;    //!< bucket, packet
    TracedCallback<uint32_t, uint64_t> m_deficitTrace; //!< bucket, deficit after it sent

  private:
    const char* m_name; //!< the subclass's name
};

/**
 * \ingroup qdisc-lab
 * \brief A PerFlowQueueDisc with its scheduler: the per-packet steps every one of them takes
 * (enqueue with buffer stealing, the bookkeeping of a sent packet) and the per-bucket getters,
 * written once for the three schedulers, without a virtual call per packet.
 *
 * The subclass implements DoDequeue: its scheduler's step, then Sent.
 *
 * \tparam Scheduler DrrScheduler, AliquemScheduler or SrrScheduler (Arrive, Dequeue, Drop, and
 *         the per-flow getters; its packets are FlowPackets, its counters FlowCounters)
 */
template <typename Scheduler>
class PerFlowQueueDiscOf : public PerFlowQueueDisc
{
  public:
    /// \param name the subclass's name, which starts its error messages
    explicit PerFlowQueueDiscOf(const char* name)
        : PerFlowQueueDisc(name),
          NS_LOG_TEMPLATE_DEFINE(name)
    {
    }

    /**
     * \param bucket a bucket, 0 .. Buckets (the last one holds non-IP packets)
     * \return its counters since the simulation started
     */
    FlowStats GetFlowStats(uint32_t bucket) const
    {
        NS_ABORT_MSG_UNLESS(bucket < m_scheduler.GetFlowCount(),
                            GetName() << ": bucket " << bucket << " out of range [0, "
                                      << m_scheduler.GetFlowCount() << ")");
        const FlowCounters counters = m_scheduler.GetCounters(bucket);
        FlowStats stats;
        stats.sentPackets = counters.sentPackets;
        stats.sentBytes = counters.sentBytes;
        stats.droppedPackets = counters.droppedPackets;
        stats.droppedBytes = counters.droppedBytes;
        // Every packet enqueued was sent, dropped, or is still queued (every arrival is admitted).
        stats.enqueuedPackets =
            counters.sentPackets + counters.droppedPackets + m_scheduler.GetPackets(bucket);
        stats.enqueuedBytes =
            counters.sentBytes + counters.droppedBytes + m_scheduler.GetBytes(bucket);
        return stats;
    }

    /// \return the number of backlogged flows
    uint32_t GetActiveFlows() const
    {
        return m_scheduler.GetActiveFlows();
    }

    /**
     * \param bucket a bucket
     * \return its deficit counter in bytes
     */
    uint64_t GetDeficit(uint32_t bucket) const
    {
        return m_scheduler.GetDeficit(bucket);
    }

    /**
     * \param bucket a bucket
     * \return its backlog in bytes
     */
    uint64_t GetFlowBytes(uint32_t bucket) const
    {
        return m_scheduler.GetBytes(bucket);
    }

    /**
     * \return the bytes allocated for state that exists only while a flow has packets queued
     *         (at its peak; the packets and their per-packet records not included)
     */
    uint64_t GetActiveFlowStateBytes() const
    {
        return m_scheduler.GetHeapBytes();
    }

    /// \return the bytes allocated for state kept per bucket, whether active or not
    uint64_t GetBucketStateBytes() const
    {
        return m_scheduler.GetFlowRecordBytes();
    }

    /// \return the largest number of flows that had packets queued at once
    uint32_t GetPeakActiveFlows() const
    {
        return m_scheduler.GetPeakActiveFlows();
    }

  protected:
    /**
     * The bookkeeping of a packet the scheduler sent: take it from the internal queue, trace.
     * \param p the packet, as the scheduler's Dequeue returned it
     * \return the packet
     */
    Ptr<QueueDiscItem> Sent(const FlowPacket& p)
    {
        Ptr<QueueDiscItem> item = m_queues->Take(p.slot, p.size);
        m_activeFlows.Set(m_scheduler.GetActiveFlows());
        if (!m_flowDequeueTrace.IsEmpty())
        {
            m_flowDequeueTrace(p.flow, item);
        }
        if (!m_deficitTrace.IsEmpty())
        {
            m_deficitTrace(p.flow, p.deficit);
        }
        return item;
    }

    Scheduler m_scheduler; //!< the scheduler's state

    /// The subclass's log component (by the name given to the constructor), for the messages of
    /// these steps; in the subclass's members it names the same component as its own g_log.
    NS_LOG_TEMPLATE_DECLARE;

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override
    {
        // 1. Find the packet's flow; an idle flow takes the weight of its first packet's rule.
        FlowKey key;
        const uint32_t f = Classify(item, key);
        double weight = m_uniformWeight; // every flow's, without rules
        if (weight == 0)
        {
            weight = m_scheduler.IsBacklogged(f) ? 1.0 : m_weights.WeightOf(key);
        }
        const uint32_t size = item->GetSize();

        // 2. Queue it; an idle flow joins the scheduler's lists with that weight.
        const uint32_t slot = m_scheduler.Arrive(f, size, weight);
        m_queues->Put(slot, item, size);
        m_activeFlows.Set(m_scheduler.GetActiveFlows());
        if (!m_flowEnqueueTrace.IsEmpty())
        {
            m_flowEnqueueTrace(f, item);
        }
        NS_LOG_DEBUG("bucket " << f << " (" << key.ToString() << "): " << m_scheduler.GetPackets(f)
                               << " packets, " << m_scheduler.GetBytes(f) << " B");

        // 3. Buffer stealing: while the shared buffer is over its limit, drop from the longest.
        const QueueSize limit = GetMaxSize();
        const bool inPackets = limit.GetUnit() == QueueSizeUnit::PACKETS;
        const uint32_t maxSize = limit.GetValue();
        while ((inPackets ? GetNPackets() : GetNBytes()) > maxSize)
        {
            StealFromLongest(item, slot);
        }
        return true;
    }

    /**
     * \brief Drop one packet of the longest flow (buffer stealing).
     * \param arrival the packet being enqueued
     * \param arrivalSlot its slot in the internal queue
     */
    void StealFromLongest(const Ptr<QueueDiscItem>& arrival, uint32_t arrivalSlot)
    {
        const FlowPacket p = m_scheduler.Drop(m_dropFrom == DROP_HEAD);
        if (p.slot == arrivalSlot)
        {
            // The arrival itself: QueueDisc::Enqueue stamps items only after DoEnqueue returns,
            // and the internal queue reports the sojourn time (Now - timestamp) when it gives
            // the packet up; stamp it, or that SojournTime sample would be the absolute time.
            // (Only here: Simulator::Now costs ~100 instructions a packet.)
            arrival->SetTimeStamp(Simulator::Now());
        }
        Ptr<QueueDiscItem> item = m_queues->Take(p.slot, p.size);
        NS_LOG_DEBUG("buffer full: drop "
                     << p.size << " B from the " << (m_dropFrom == DROP_HEAD ? "head" : "tail")
                     << " of bucket " << p.flow << " (" << m_scheduler.GetBytes(p.flow)
                     << " B left)");
        m_activeFlows.Set(m_scheduler.GetActiveFlows());
        if (!m_flowDropTrace.IsEmpty())
        {
            m_flowDropTrace(p.flow, item);
        }
        DropAfterDequeue(item, OVERLIMIT_DROP);
    }
};

} // namespace ns3

#endif /* PER_FLOW_QUEUE_DISC_H */
