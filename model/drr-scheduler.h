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
 *
 * Last (Reset's trackLast; PerFlowQueueDisc's DropFrom = Last): which queued packet DRR would
 * send last, if nothing more arrived. A flow f with backlog B_f, deficit DC_f (what it may send
 * at its current or next visit) and quantum Q_f empties at its visit
 * v_f = 1 + ceil(max(0, B_f - DC_f) / Q_f), counting that next visit as 1; visits come in
 * ActiveList order, so the last packet is the tail of the flow with the largest (v_f, position
 * in ActiveList from the head). The position is kept as a ticket, a number that grows each time
 * a flow joins the tail or moves there, so that ActiveList from the head is in ticket order;
 * the flows are in a second heap, a binary max-heap by (v_f, ticket). Sending keeps B_f - DC_f,
 * so v_f does not change; an arrival raises it, a drop lowers it; a flow moving to the tail gets
 * Q_f more deficit (v_f one lower) and the largest ticket, which keeps its order among the
 * others, so its entry changes in place. 24 bytes per backlogged flow and 4 per flow, only
 * when tracking; without it the scheduler does what it did, one test per Arrive, move to the
 * tail and flow that empties more.
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
     * \param trackLast whether to keep which packet it would send last (DropLast, GetLast)
     */
    void Reset(uint32_t flows, uint32_t quantum, bool trackLast = false);

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
     * otherwise it gets its quantum and moves to the tail, and so on. Some flow must be
     * backlogged.
     * \return the packet sent
     */
    Packet Dequeue();

    /**
     * Buffer stealing: drop one packet of the longest flow (GetFlows().Longest()); some flow
     * must be backlogged.
     * \param fromHead whether to drop its head (oldest) packet, else its tail (newest)
     * \return the packet dropped
     */
    Packet Drop(bool fromHead);

    /**
     * Drop the packet DRR would send last of those queued (PerFlowQueueDisc's DropFrom = Last,
     * Vertical Dimensioning's drop()): the tail packet of the flow that needs the most visits
     * to empty, of equal ones the last in ActiveList order (GetLast()). Needs Reset's
     * trackLast; some flow must be backlogged.
     * \return the packet dropped
     */
    Packet DropLast();

    /**
     * \return the flow whose tail packet DRR would send last (see DropLast); needs Reset's
     *         trackLast; some flow must be backlogged
     */
    FlowId GetLast() const;

    /**
     * The per-flow state, read-only: each flow's backlog, deficit and counters, the backlogged
     * flows and the longest (FlowQueues' const members).
     * \return the flows
     */
    const auto& GetFlows() const
    {
        return m_flows;
    }

    /// \return the memory of the flows' state
    FlowStateSize GetStateSize() const
    {
        return m_flows.GetStateSize();
    }

    /// \return the flow at the head of ActiveList (the one being served); some flow must be
    ///         backlogged
    FlowId GetHead() const;

    /**
     * \param f a flow
     * \return its quantum in bytes (quantum x weight of its current busy period; 0 when idle)
     */
    uint32_t GetQuantum(FlowId f) const;

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
     * After flow \p p.flow lost a packet: if it emptied, it leaves ActiveList (a ring of flows:
     * perflow::RingAppend, perflow::RingUnlink, with m_head its head) and its deficit is reset
     * (perflow::Left); the packet's deficit field is set to the flow's. Inline, defined in
     * drr-scheduler.cc (its only user), so that the compiler may inline it in the library's
     * position-independent code.
     * \param p the packet that left
     * \return p
     */
    inline Packet Left(Packet p);

    /// \name Last: the backlogged flows by (visits to empty, ticket), when tracking
    /// \{
    /// A backlogged flow's entry in the heap of last visits.
    struct LastEntry
    {
        uint64_t visits; //!< v_f: at which of its visits it empties (its next one is 1)
        uint64_t ticket; //!< its order in ActiveList (larger: nearer the tail)
        FlowId flow;     //!< the flow
    };

    /**
     * \param f a backlogged flow
     * \return v_f, the visit at which it empties
     */
    inline uint64_t Visits(FlowId f) const;

    /**
     * \param a an entry
     * \param b another
     * \return whether a's flow empties before b's
     */
    static bool Earlier(const LastEntry& a, const LastEntry& b)
    {
        return a.visits < b.visits || (a.visits == b.visits && a.ticket < b.ticket);
    }

    /**
     * \param f a flow that became backlogged (it joined the tail): it enters the heap
     */
    void LastJoin(FlowId f);

    /**
     * \param f a backlogged flow whose backlog changed: its entry moves
     */
    void LastUpdate(FlowId f);

    /**
     * \param f a flow that emptied: it leaves the heap
     */
    void LastLeave(FlowId f);

    /**
     * \param i a heap position
     * \param j another, whose entry is swapped with i's (and their flows' positions)
     */
    void LastSwap(uint32_t i, uint32_t j);

    /**
     * \param i a heap position whose entry moves up or down to its place
     */
    void LastSift(uint32_t i);
    /// \}

    FlowQueues<Flow> m_flows; //!< every flow's record, packets, and the longest-flow heap
    FlowId m_head;            //!< head of ActiveList; NONE when empty
    uint32_t m_quantum;       //!< quantum of a weight-1 flow, bytes

    bool m_trackLast;               //!< whether the heap of last visits is kept
    std::vector<LastEntry> m_last;  //!< backlogged flows, a max-heap by Earlier
    std::vector<uint32_t> m_lastOf; //!< each flow's position in m_last; NONE when idle
    uint64_t m_ticket;              //!< the last ticket given
};

constexpr std::size_t
DrrScheduler::FlowStateBytes()
{
    return sizeof(Flow);
}

} // namespace ns3

#endif /* DRR_SCHEDULER_H */
