/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ALIQUEM_SCHEDULER_H
#define ALIQUEM_SCHEDULER_H

#include "flow-queues.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief Aliquem, the Active List Queue Method of Lenzini, Mingozzi and Stea (IWQoS 2002): DRR
 * whose active list is split into q + 1 lists, one per future round, so that quanta may be
 * smaller than the largest packet; with weights and a shared buffer's longest-queue
 * bookkeeping; no simulator.
 *
 * DRR (DrrScheduler) stays O(1) only if every flow's quantum is at least the largest packet: a
 * flow whose deficit is short of its head packet is otherwise visited, and skipped, round after
 * round. Aliquem keeps q + 1 active lists, list i holding the flows to be served in round
 * (current + i) mod (q + 1), and puts such a flow straight into the list of the round in which it
 * will have accumulated enough deficit. With quanta scaled down by q (a flow's quantum
 * phi = Quantum x weight / q, the attribute ScalingFactor), a flow sends about q times as
 * often, in 1/q of the bytes, which shortens rounds, latency and the unfairness bound.
 *
 * Dequeue, the paper's steps with the deficit kept between calls:
 * \verbatim
 *   loop:
 *     while the current list is empty: the current round ends, the next list becomes current
 *     f = head of the current list
 *     if size(head packet of f) <= DC[f]:  DC[f] -= size; send it
 *                                          if f is empty: f leaves its list, DC[f] = 0
 *     else:                                Schedule(f): f leaves the current list
 * Schedule(f), also for a flow that becomes backlogged (with DC[f] = 0):
 *     k = ceil((size(head packet of f) - DC[f]) / phi[f]), the rounds f needs, 1 <= k <= q
 *     DC[f] += k x phi[f]          -- the quanta of the k rounds up to its next visit
 *     f joins the tail of list (current + k) mod (q + 1)
 * \endverbatim
 * k <= q holds when phi[f] >= the largest packet / q, the paper's condition; a larger k (a
 * smaller quantum) is cut to q, and the flow, still short, is scheduled again at that visit: it
 * is served correctly, only no longer in O(1). With q = 1 this is DRR: the order of service is
 * DrrScheduler's, flow by flow and byte by byte (a unit test checks this on random traffic).
 *
 * A flow that empties, by sending or by buffer stealing, leaves its list and its deficit is
 * reset; the backlogged flows' queues and the longest-flow heap for buffer stealing are a
 * FlowQueues.
 *
 * Costs: Arrive, Dequeue and Drop are O(log_4 n) in the number n of backlogged flows (heap
 * updates); Dequeue is O(q) otherwise (empty lists skipped), O(1) in the number of flows, when
 * the quanta satisfy the condition above.
 */
class AliquemScheduler
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

    AliquemScheduler();

    /**
     * Forget every flow and packet and size the scheduler.
     * \param flows number of flows (flow ids are 0 .. flows-1)
     * \param quantum bytes a flow of weight 1 may send per round, before scaling; >= 1
     * \param q the scaling factor: q + 1 active lists, quanta quantum x weight / q; >= 1
     */
    void Reset(uint32_t flows, uint32_t quantum, uint32_t q);

    /**
     * A packet of \p bytes joins the tail of flow \p f; an idle flow is scheduled (Schedule).
     * \param f the flow
     * \param bytes the packet's size
     * \param weight the flow's weight (> 0), used if the flow was idle: it keeps it until it
     *        empties again
     * \return the packet's slot, until it leaves
     */
    Slot Arrive(FlowId f, uint32_t bytes, double weight = 1.0);

    /**
     * Aliquem's dequeue (see the class description). GetFlows() must not be Empty().
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

    /// \return the number of rounds completed since Reset (the current list's round)
    uint64_t GetRound() const
    {
        return m_round;
    }

    /**
     * \param f a backlogged flow
     * \return in how many rounds it is next served: 0 (the current round) .. q
     */
    uint32_t GetRoundsAhead(FlowId f) const;

    /**
     * \param f a flow
     * \return its scaled quantum phi in bytes (quantum x weight / q of its busy period, rounded,
     *         at least 1; 0 when never backlogged)
     */
    uint32_t GetQuantum(FlowId f) const
    {
        return m_flows[f].quantum;
    }

    /// \return the number of times a flow's k was cut to q (its quantum below largest packet / q)
    uint64_t GetCutSchedules() const
    {
        return m_cut;
    }

  private:
    /// An index that points nowhere.
    static constexpr uint32_t NONE = UINT32_MAX;

    /// Per-flow state (the members FlowQueues needs, and Aliquem's).
    struct Flow
    {
        uint32_t next = NONE;     //!< next flow in its active list (a ring)
        uint32_t prev = NONE;     //!< previous flow in its active list
        uint32_t list = NONE;     //!< which active list it is in; NONE when idle
        uint32_t quantum = 0;     //!< phi: quantum x weight / q, this busy period
        uint64_t deficit = 0;     //!< deficit counter DC
        uint32_t position = NONE; //!< index of its heap entry; NONE when idle
        Slot head = NONE;         //!< first queued packet
        Slot tail = NONE;         //!< last queued packet
        Counters counters;        //!< sent and dropped counters
    };

    /**
     * Put a backlogged flow that is in no list into the list of the round in which its deficit
     * covers its head packet.
     * \param f the flow
     */
    void Schedule(FlowId f);

    /**
     * After flow \p p.flow lost a packet: if it emptied, it leaves its list and its deficit is
     * reset (perflow::Left); the packet's deficit field is set to the flow's.
     * \param p the packet that left
     * \return p
     */
    Packet Left(Packet p);

    /**
     * \param f a flow in no list
     * \param list an active list (a ring of flows: perflow::RingAppend), which f joins at the
     *        tail
     */
    void Append(FlowId f, uint32_t list);

    /**
     * \param f a flow in a list, which leaves it
     */
    void Unlink(FlowId f);

    FlowQueues<Flow> m_flows;    //!< every flow's record, packets, and the longest-flow heap
    std::vector<FlowId> m_lists; //!< the q + 1 active lists: each one's head, NONE if empty
    uint32_t m_current;          //!< the current round's list
    uint64_t m_round;            //!< rounds completed since Reset
    uint32_t m_quantum;          //!< quantum of a weight-1 flow before scaling, bytes
    uint32_t m_q;                //!< the scaling factor q
    uint64_t m_cut;              //!< Schedule calls whose k was cut to q
};

} // namespace ns3

#endif /* ALIQUEM_SCHEDULER_H */
