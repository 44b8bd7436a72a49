/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef VERTICAL_DIMENSIONING_SCHEDULER_H
#define VERTICAL_DIMENSIONING_SCHEDULER_H

#include "flow-queues.h"
#include "vd-rounds.h"

#include <cstdint>

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
class VerticalDimensioningScheduler
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
     * \param limit the queue disc's MaxSize's value, > 0
     * \param inPackets whether it is in packets, else in bytes
     */
    void SetLimit(uint32_t limit, bool inPackets)
    {
        const VdRounds::Unit unit = inPackets ? VdRounds::PACKETS : VdRounds::BYTES;
        if (limit != m_vd.GetBufferSize() || unit != m_vd.GetUnit())
        {
            m_vd.SetBufferSize(limit, unit);
        }
    }

    /**
     * The per-flow state, read-only (the members below).
     * \return this
     */
    const VerticalDimensioningScheduler& GetFlows() const
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

} // namespace ns3

#endif /* VERTICAL_DIMENSIONING_SCHEDULER_H */
