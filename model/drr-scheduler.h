/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRR_SCHEDULER_H
#define DRR_SCHEDULER_H

#include "flow-queues.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief The Deficit Round Robin scheduler of Shreedhar and Varghese, with weights and the
 * longest-queue bookkeeping of a shared buffer; no simulator.
 *
 * It keeps, per flow, the queue of its packets' sizes, the deficit counter and the flow's
 * quantum, the ActiveList of backlogged flows, and an index of the backlogged flows by weighted
 * backlog (bytes / weight) for buffer stealing. The packets themselves live with the caller:
 * Arrive gives each queued packet a slot number, and Dequeue and Drop say which slot left, so
 * the caller finds the packet in O(1) (DrrQueueDisc keeps them in a SlotQueue).
 *
 * Dequeue, as in the paper, with the deficit kept between calls:
 * \verbatim
 *   loop:
 *     f = head of ActiveList
 *     if size(head packet of f) <= DC[f]:  DC[f] -= size; send it
 *                                          if f is empty: remove f from ActiveList, DC[f] = 0
 *     else:                                DC[f] += Q[f]; move f to the tail of ActiveList
 * \endverbatim
 * A flow that becomes backlogged joins the tail of ActiveList with DC = Q[f] (the quantum it
 * would be given on reaching the head, so no separate "visited" flag is needed); Q[f] = quantum
 * x weight, rounded, at least 1 byte. A flow that empties, whether by sending or by a drop,
 * leaves ActiveList and its deficit is reset, so a flow emptied by buffer stealing re-enters like
 * a new flow (ns-2's DRR keeps its stale per-round state there).
 *
 * ActiveList is a ring of flows with a cursor on its head: "move f to the tail" is moving the
 * cursor on, and a flow joins the tail just behind the cursor.
 *
 * Longest: the backlogged flows' queues and their index by bytes / weight (a 4-ary max-heap
 * with boost::heap::d_ary_heap's steps) are a FlowQueues, shared with AliquemScheduler and
 * SrrScheduler; the flow record they keep is this class's own.
 *
 * Memory: one 64-byte record per flow (ActiveList links, heap position, quantum, deficit, its
 * packet queue's ends, and its sent and dropped counters), so an operation on a flow touches
 * one cache line of per-flow state; 24 bytes per backlogged flow in the heap; 12 bytes per
 * queued packet. Pools keep their peak size: once warmed up nothing is allocated.
 *
 * Costs: Arrive, Dequeue and Drop are O(log_4 n) in the number n of backlogged flows (heap
 * updates); Dequeue is O(1) otherwise when the quantum is at least the largest packet, and may
 * visit each backlogged flow up to size/quantum times when it is not.
 */
class DrrScheduler
{
  public:
    /// Flow index type.
    using FlowId = uint32_t;

    /// A queued packet's slot (an index the caller may use to find the packet).
    using Slot = uint32_t;

    /// A packet that left a flow, sent (Dequeue) or dropped (Drop).
    using Packet = FlowPacket;

    /// Counters of one flow.
    using Counters = FlowCounters;

    DrrScheduler();

    /**
     * Forget every flow and packet and size the scheduler.
     * \param flows number of flows (flow ids are 0 .. flows-1)
     * \param quantum bytes a flow of weight 1 may send per round; must be >= 1
     */
    void Reset(uint32_t flows, uint32_t quantum);

    /**
     * A packet of \p bytes joins the tail of flow \p f.
     * \param f the flow
     * \param bytes the packet's size
     * \param weight the flow's weight (> 0), used if the flow was idle: it keeps it until it
     *        empties again
     * \return the packet's slot, until it leaves
     */
    Slot Arrive(FlowId f, uint32_t bytes, double weight = 1.0);

    /**
     * DRR's dequeue: the head flow of ActiveList sends its head packet if it fits its deficit;
     * otherwise it gets its quantum and moves to the tail, and so on. Must not be Empty().
     * \return the packet sent
     */
    Packet Dequeue();

    /**
     * Buffer stealing: drop one packet of the longest flow (Longest()). Must not be Empty().
     * \param fromHead whether to drop its head (oldest) packet, else its tail (newest)
     * \return the packet dropped
     */
    Packet Drop(bool fromHead);

    /// \return the backlogged flow with the largest bytes / weight; must not be Empty()
    FlowId Longest() const;

    /// \return whether no flow is backlogged
    bool Empty() const
    {
        return m_flows.Empty();
    }

    /// \return the number of backlogged flows
    uint32_t GetActiveFlows() const
    {
        return m_flows.GetActiveFlows();
    }

    /// \return the flow at the head of ActiveList (the one being served); must not be Empty()
    FlowId GetHead() const;

    /**
     * \param f a flow
     * \return whether it has packets queued
     */
    bool IsBacklogged(FlowId f) const
    {
        return m_flows.IsBacklogged(f);
    }

    /**
     * \param f a flow
     * \return its deficit counter in bytes (0 when idle)
     */
    uint64_t GetDeficit(FlowId f) const;

    /**
     * \param f a flow
     * \return its backlog in bytes
     */
    uint64_t GetBytes(FlowId f) const;

    /**
     * \param f a flow
     * \return its backlog in packets
     */
    uint32_t GetPackets(FlowId f) const;

    /**
     * \param f a flow
     * \return its quantum in bytes (quantum x weight of its current busy period; 0 when idle)
     */
    uint32_t GetQuantum(FlowId f) const;

    /**
     * \param f a flow
     * \return its sent and dropped counters since Reset
     */
    Counters GetCounters(FlowId f) const;

    /// \return the number of flows
    uint32_t GetFlowCount() const;

    /// \return the number of packet slots allocated (the peak number of queued packets)
    std::size_t GetSlotCapacity() const;

    /// \return the largest number of flows that were backlogged at once since Reset
    uint32_t GetPeakActiveFlows() const;

    /// \return the bytes allocated for the records of every flow (FlowStateBytes() each)
    std::size_t GetFlowRecordBytes() const;

    /// \return the bytes allocated for backlogged flows' heap entries (at its peak size)
    std::size_t GetHeapBytes() const;

    /// \return the size of one flow's record in bytes (for memory accounting)
    static constexpr std::size_t FlowStateBytes();

  private:
    /// An index (flow, slot or heap position) that points nowhere.
    static constexpr uint32_t NONE = UINT32_MAX;

    /// Per-flow state: one cache line (the members FlowQueues needs, and DRR's).
    struct alignas(64) Flow
    {
        uint32_t next = NONE;     //!< next flow in the ActiveList ring
        uint32_t prev = NONE;     //!< previous flow in the ActiveList ring
        uint32_t position = NONE; //!< index of its entry in the heap; NONE when idle
        uint32_t quantum = 0;     //!< quantum x weight, this busy period
        uint64_t deficit = 0;     //!< deficit counter DC
        Slot head = NONE;         //!< first queued packet
        Slot tail = NONE;         //!< last queued packet
        Counters counters;        //!< sent and dropped counters
    };

    /**
     * After flow \p p.flow lost a packet: if it emptied, it leaves ActiveList and its deficit is
     * reset; the packet's deficit field is set to the flow's.
     * \param p the packet that left
     * \return p
     */
    inline Packet Left(Packet p);

    // The helpers below are inline, defined in drr-scheduler.cc (their only user), so that the
    // compiler may inline them in the library's position-independent code.

    /// \name ActiveList, a ring with a cursor (m_head) on its head
    /// \{
    /**
     * \param f an idle flow, which joins the tail
     */
    inline void Append(FlowId f);

    /**
     * \param f a flow in the ring, which leaves it
     */
    inline void Unlink(FlowId f);
    /// \}

    FlowQueues<Flow> m_flows; //!< every flow's record, packets, and the longest-flow heap
    FlowId m_head;            //!< head of ActiveList; NONE when empty
    uint32_t m_quantum;       //!< quantum of a weight-1 flow, bytes
};

constexpr std::size_t
DrrScheduler::FlowStateBytes()
{
    return sizeof(Flow);
}

} // namespace ns3

#endif /* DRR_SCHEDULER_H */
