/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef VERTICAL_DIMENSIONING_QUEUE_DISC_H
#define VERTICAL_DIMENSIONING_QUEUE_DISC_H

#include "flow-queues.h"
#include "per-flow-queue-disc.h"
#include "vd-rounds.h"

#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief VdRounds as a scheduler of the per-flow family (what PerFlowQueueDiscOf calls): Fig. 2's
 * enqueue, dequeue and drop, the per-flow state and the per-bucket counters; no simulator.
 *
 * Its buffer policy is VD's own: DropLast (the tail packet of the last non-empty round), with
 * Arrive refusing a packet that would be that packet at once, or that would need a round M or
 * more rounds ahead. The per-bucket sent and dropped counters (of every bucket that ever sent
 * or lost a packet, in a VdFlowTable; refused arrivals count as dropped) are optional.
 */
class VdScheduler
{
  public:
    /// Flow index type (a bucket).
    using FlowId = uint32_t;
    /// A queued packet's slot.
    using Slot = uint32_t;
    /// A packet that left, sent (Dequeue) or dropped (DropLast).
    using Packet = VdRounds::Packet;

    /// Arrive may refuse a packet (PerFlowQueueDiscOf then drops it before enqueue).
    static constexpr bool REFUSES_ARRIVALS = true;
    /// What Arrive returns for a refused packet (GetVerdict says why).
    static constexpr Slot REFUSED = UINT32_MAX;

    /**
     * Forget everything and size the scheduler.
     * \param flows number of flows (buckets, ids 0 .. flows-1)
     * \param rounds M
     * \param maxPacketSize L_M in bytes
     * \param bufferSize B, in bytes or packets
     * \param unit what B counts
     * \param returning what a flow that empties and returns in the same round gets
     * \param bucketCounters whether to keep per-bucket sent and dropped counters
     */
    void Reset(uint32_t flows,
               uint32_t rounds,
               uint32_t maxPacketSize,
               uint64_t bufferSize,
               VdRounds::Unit unit,
               VdRounds::Returning returning,
               bool bucketCounters)
    {
        m_vd.Reset(rounds, maxPacketSize, bufferSize, unit, returning);
        m_counters.Clear();
        m_bucketCounters = bucketCounters;
        m_flowCount = flows;
        m_verdict = VdRounds::QUEUED;
        m_placement = 0;
    }

    /**
     * Fig. 2's enqueue, lines (1)-(14).
     * \param f the packet's flow
     * \param size its size in bytes
     * \param weight the flow's weight (> 0), used if the flow is new
     * \return its slot, or REFUSED (counted as dropped; GetVerdict says why)
     */
    Slot Arrive(FlowId f, uint32_t size, double weight)
    {
        Slot slot = REFUSED;
        m_verdict = m_vd.Enqueue(f, size, weight, &m_placement, &slot);
        if (m_verdict != VdRounds::QUEUED)
        {
            CountDrop(f, size);
            return REFUSED;
        }
        return slot;
    }

    /// \return what the last Arrive did: QUEUED, or why it refused the packet
    VdRounds::Verdict GetVerdict() const
    {
        return m_verdict;
    }

    /// \return the round Equation (3) placed the last queued packet in
    uint64_t GetPlacement() const
    {
        return m_placement;
    }

    /**
     * Fig. 2's dequeue: the head packet of the current round. Must not be Empty().
     * \return it
     */
    Packet Dequeue()
    {
        const Packet p = m_vd.Dequeue();
        if (m_bucketCounters)
        {
            FlowCounters& counters = m_counters.FindOrInsert(p.flow);
            counters.sentPackets++;
            counters.sentBytes += p.size;
        }
        return p;
    }

    /**
     * Fig. 2's drop(): the tail packet of the last non-empty round, the packet VD would send
     * last. Must not be Empty().
     * \return it
     */
    Packet DropLast()
    {
        const Packet p = m_vd.Drop();
        CountDrop(p.flow, p.size);
        return p;
    }

    /// \return whether more than B is queued (Fig. 2 enqueue, line (15))
    bool OverLimit() const
    {
        return m_vd.OverLimit();
    }

    /**
     * Follow the queue disc's MaxSize, which QueueDisc::SetMaxSize may change after
     * Initialize (PerFlowQueueDiscOf calls this before each Arrive).
     * \param limit the queue disc's MaxSize, > 0
     */
    void SetLimit(const QueueSize& limit)
    {
        const VdRounds::Unit unit =
            limit.GetUnit() == QueueSizeUnit::BYTES ? VdRounds::BYTES : VdRounds::PACKETS;
        if (limit.GetValue() != m_vd.GetBufferSize() || unit != m_vd.GetUnit())
        {
            m_vd.SetBufferSize(limit.GetValue(), unit);
        }
    }

    /**
     * The per-flow state, read-only (the members below).
     * \return this
     */
    const VdScheduler& GetFlows() const
    {
        return *this;
    }

    /// \return whether no packet is queued
    bool Empty() const
    {
        return m_vd.Empty();
    }

    /// \return the number of active flows (with packets queued)
    uint32_t GetActiveFlows() const
    {
        return m_vd.GetActiveFlows();
    }

    /**
     * \param f a flow
     * \return whether it has packets queued
     */
    bool IsBacklogged(FlowId f) const
    {
        return m_vd.IsActive(f);
    }

    /**
     * \param f a flow
     * \return its bytes_i
     */
    uint64_t GetBytes(FlowId f) const
    {
        return m_vd.GetFlowBytes(f);
    }

    /**
     * \param f a flow
     * \return its packets queued
     */
    uint32_t GetPackets(FlowId f) const
    {
        return m_vd.GetFlowPackets(f);
    }

    /**
     * \param f a flow
     * \return its deficit_i as Fig. 2 keeps it (negative once it sent in round_i; 0 when it has
     *         nothing queued)
     */
    int64_t GetDeficit(FlowId f) const
    {
        return m_vd.GetDeficit(f);
    }

    /**
     * \param f a flow
     * \return its sent and dropped counters (zero if it never had a packet); needs
     *         bucketCounters
     */
    FlowCounters GetCounters(FlowId f) const;

    /// \return the number of flows (buckets)
    uint32_t GetFlowCount() const
    {
        return m_flowCount;
    }

    /// \return the memory of the flows' state: VdRounds' per active flow, the counters per bucket
    FlowStateSize GetStateSize() const;

    /// \return VdRounds, the algorithm's state (current, last, each flow's round_i, quantum)
    const VdRounds& GetVdRounds() const
    {
        return m_vd;
    }

  private:
    /**
     * Count a packet dropped or refused.
     * \param f its flow
     * \param size its size
     */
    void CountDrop(FlowId f, uint32_t size)
    {
        if (m_bucketCounters)
        {
            FlowCounters& counters = m_counters.FindOrInsert(f);
            counters.droppedPackets++;
            counters.droppedBytes += size;
        }
    }

    VdRounds m_vd;                        //!< the algorithm's state
    VdFlowTable<FlowCounters> m_counters; //!< sent and dropped counters of the buckets that had
                                          //!< packets leave
    bool m_bucketCounters = true;         //!< whether m_counters is kept
    uint32_t m_flowCount = 0;             //!< number of flows (buckets)
    VdRounds::Verdict m_verdict = VdRounds::QUEUED; //!< what the last Arrive did
    uint64_t m_placement = 0; //!< the round the last queued packet was placed in
};

/**
 * \ingroup qdisc-lab
 * \brief Vertical Dimensioning (Bakiras, Wang, Papadias and Hamdi): DRR's rounds without per-flow
 * queues. One FIFO per round; each packet joins, on arrival, the round in which DRR would send it.
 *
 * A member of the per-flow family (PerFlowQueueDiscOf over VdScheduler): the packet's flow i is
 * its bucket, found as DrrQueueDisc finds it (packet filters, else FlowIdentifier's hash of the
 * Mask's fields modulo Buckets; non-IP packets share bucket Buckets), and a new flow takes the
 * weight w_i the WeightRules give its first packet; the shared attributes, trace sources,
 * per-bucket getters and enqueue and dequeue steps are PerFlowQueueDisc's. Its own are the
 * rounds and the buffer's drop policy, VD's (PerFlowQueueDisc's DropFrom = Last, fixed):
 *
 * Enqueue (Fig. 2): Equation (3) places the packet in round current + ceil((bytes_i - deficit_i
 * + size) / (w_i L_M)) - 1, whose FIFO is q[round mod M]. While more than B (MaxSize, bytes or
 * packets) is queued, the tail packet of the last non-empty round is dropped (OVERFLOW_DROP): in
 * O(1), and it is the newest packet of its flow, so no other packet's round changes. IPv4 and
 * IPv6 alike; packets larger than w_i L_M wait for ceil(size / (w_i L_M)) rounds' quanta, as in
 * DRR.
 *
 * Dequeue: the head of q[current]; when q[current] empties, current moves to the next round.
 * A flow with nothing queued has no state: its next packet starts it afresh (deficit 0, round
 * current), as DRR resets the deficit of a flow that empties.
 *
 * The algorithm is VdRounds (no simulator, unit-tested); the packets are in the family's one
 * internal queue, a SlotQueue that finds each packet by the slot VdRounds gave it.
 */
class VerticalDimensioningQueueDisc
    : public PerFlowQueueDiscOf<VdScheduler, VerticalDimensioningQueueDisc>
{
  public:
    /**
     * Signature of the Placement trace source.
     * \param bucket the packet's bucket (flow)
     * \param round the round Equation (3) placed it in
     * \param item the packet
     */
    using PlacementTracedCallback = void (*)(uint32_t bucket,
                                             uint64_t round,
                                             Ptr<const QueueDiscItem> item);

    /**
     * Signature of the Deficit trace source.
     * \param bucket the bucket (flow) that sent
     * \param deficit its deficit_i afterwards, in bytes
     */
    using DeficitTracedCallback = void (*)(uint32_t bucket, int64_t deficit);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    VerticalDimensioningQueueDisc();
    ~VerticalDimensioningQueueDisc() override;

    /**
     * \param bucket a bucket
     * \return its round_i, the round in which it was last credited its quantum
     */
    uint64_t GetFlowRound(uint32_t bucket) const;

    /**
     * \param bucket a bucket
     * \return its quantum w_i L_M in bytes (0 when it has nothing queued)
     */
    uint32_t GetQuantum(uint32_t bucket) const;

    /// \return the number of the round being served (counted from 0; never wraps)
    uint64_t GetCurrentRound() const;

    /// \return the paper's current: the index of the FIFO being served, in [0, M)
    uint32_t GetCurrent() const;

    /// \return the paper's last: the index of the last non-empty FIFO, in [0, M)
    uint32_t GetLast() const;

    /// \return M, the number of round FIFOs in use
    uint32_t GetRounds() const;

    /// \return L_M in bytes, in use
    uint32_t GetMaxPacketSize() const;

    /// Drop reasons
    static constexpr const char* OVERFLOW_DROP =
        "Overflow drop"; //!< buffer over B: the tail packet of the last non-empty round
    static constexpr const char* BEYOND_LAST_ROUND_DROP =
        "Beyond the last round"; //!< needs a round M or more rounds ahead (a weight below the one
                                 //!< Rounds was sized for; in packets, a packet over L_M)

  private:
    friend class PerFlowQueueDiscOf<VdScheduler, VerticalDimensioningQueueDisc>;

    /**
     * After a packet was placed: the Placement trace.
     * \param i its flow
     * \param key its flow key
     * \param item the packet
     */
    void Queued(uint32_t i, const FlowKey& key, const Ptr<QueueDiscItem>& item)
    {
        const VdRounds& vd = m_scheduler.GetVdRounds();
        const uint64_t round = m_scheduler.GetPlacement();
        if (!m_placementTrace.IsEmpty())
        {
            m_placementTrace(i, round, item);
        }
        NS_LOG_DEBUG("bucket " << i << " (" << key.ToString() << "), quantum " << vd.GetQuantum(i)
                               << " B: " << item->GetSize() << " B into round " << round << " (q["
                               << vd.SlotOf(round) << "]), current " << vd.GetCurrent()
                               << ", bytes_i " << vd.GetFlowBytes(i) << ", deficit_i "
                               << vd.GetDeficit(i));
    }

    /**
     * After a packet was sent: the CurrentRound trace.
     * \param p the packet
     */
    void Served(const Packet& p)
    {
        m_currentRound.Set(m_scheduler.GetVdRounds().GetCurrent());
        NS_LOG_DEBUG("round " << p.round << ": bucket " << p.flow << " sends " << p.size
                              << " B, deficit_i " << p.deficit << ", current now "
                              << m_scheduler.GetVdRounds().GetCurrent());
    }

    /**
     * Why VdScheduler::Arrive refused a packet.
     * \param i its flow
     * \param key its flow key
     * \param size its size
     * \return the drop reason
     */
    const char* Refused(uint32_t i, const FlowKey& key, uint32_t size)
    {
        if (m_scheduler.GetVerdict() == VdRounds::OVER_LIMIT)
        {
            // It would be the tail of the last non-empty round of an overflowing buffer: (15)-(16)
            // would drop it at once.
            NS_LOG_DEBUG("bucket " << i << " (" << key.ToString() << "): " << size
                                   << " B would overflow from the last round; dropped");
            return OVERFLOW_DROP;
        }
        NS_LOG_DEBUG("bucket " << i << " (" << key.ToString() << "): " << size
                               << " B would need a round beyond current + " << m_m - 1
                               << "; dropped");
        return BEYOND_LAST_ROUND_DROP;
    }

    bool CheckConfig() override;
    void InitializeParams() override;
    uint32_t GetSmallestBuffer(std::string& what) const override;

    // Attributes (the family's are PerFlowQueueDisc's)
    uint32_t m_maxPacketSizeAttr;    //!< MaxPacketSize: L_M, 0 for the device MTU
    uint32_t m_roundsAttr;           //!< Rounds: M, 0 for the smallest that cannot wrap
    bool m_bucketCounters;           //!< BucketCounters: keep per-bucket counters
    VdRounds::Returning m_returning; //!< ReturningFlows: what a flow that empties and returns gets

    uint32_t m_lm;                        //!< L_M in use, bytes
    uint32_t m_m;                         //!< M in use
    TracedValue<uint64_t> m_currentRound; //!< the round being served
    TracedCallback<uint32_t, uint64_t, Ptr<const QueueDiscItem>>
        m_placementTrace; //!< bucket, round, packet
};

} // namespace ns3

#endif /* VERTICAL_DIMENSIONING_QUEUE_DISC_H */
