/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SRR_SCHEDULER_H
#define SRR_SCHEDULER_H

#include "flow-queues.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief Smoothed Round Robin (C. Guo, SIGCOMM 2001): the Weight Matrix of the flows' weights in
 * binary, scanned column by column in the order of the Weight Spread Sequence, with per-flow
 * deficit counters; plus a shared buffer's longest-queue bookkeeping; no simulator.
 *
 * Weight Matrix: a flow of integer weight w = sum_j b_j 2^j has an entry in column j for every
 * bit b_j = 1; each column is a list of its flows. A flow that becomes backlogged joins the bottom
 * of its columns, except in the column being scanned, where it goes just above the scan position
 * (the flow being visited, else the next to visit): it waits for that column's next turn, as in
 * Guo's SRR and ns-2's add_to_WM. It leaves its columns when it empties. (Joining below the scan
 * position instead lets two flows of one column that empty and refill on each send hold the
 * column's turn for ever, starving every other column.)
 *
 * Weight Spread Sequence of order k: WSS_1 = 1, WSS_k = WSS_{k-1}, k, WSS_{k-1} (2^k - 1 terms;
 * term value v appears 2^{k-v} times). Term v stands for the column of bit k - v, so bit j is
 * visited 2^j times per pass and a flow of weight w w times. The term at position p (1-based) is
 * 1 + the number of trailing zero bits of p, which the scheduler computes instead of storing the
 * sequence.
 *
 * Schedule: take the WSS terms in turn; for each, visit the flows of its column top to bottom; a
 * visited flow's deficit counter grows by the Quantum, and it sends its head packets while they
 * fit in it. A flow that empties leaves the matrix and its deficit is reset:
 * \verbatim
 *   loop:
 *     if no flow is being visited:
 *       if the current column has no flow left to visit: next WSS term with a non-empty column
 *       f = next flow of the column; DC[f] += Quantum     -- a visit
 *     if size(head packet of f) <= DC[f]:  DC[f] -= size; send it
 *                                          if f is empty: f leaves the matrix, DC[f] = 0
 *     else:                                the visit ends
 * \endverbatim
 * Order: Guo's SRR sets the order k to that of the largest weight (and changes it as flows come
 * and go). This scheduler scans the sequence of order 32 and skips the terms whose columns are
 * empty; restricted to the columns of bits 0 .. k-1, WSS_32 is WSS_k term for term (the terms
 * at positions that are multiples of 2^(32-k)), so its order of service is SRR's of order k, k
 * being that of the heaviest backlogged flow; when k changes, the scan goes on from where it is.
 * Finding the next non-empty term is O(number of non-empty columns) <= 32 (bit arithmetic), not
 * a walk over the sequence.
 *
 * Weights are integers: a weight is rounded to the nearest integer, at least 1 and at most
 * 2^32 - 1. The backlogged flows' queues and the longest-flow heap (bytes / weight, the weight as
 * given) for buffer stealing are a FlowQueues.
 *
 * Costs: Arrive and Drop are O(log_4 n + popcount(w)); Dequeue is O(log_4 n) plus O(1) visits
 * when the Quantum is at least the largest packet (every visit then sends).
 */
class SrrScheduler
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

    /// The order of the sequence scanned (columns: bits 0 .. ORDER-1 of the weights).
    static constexpr uint32_t ORDER = 32;

    SrrScheduler();

    /**
     * Forget every flow and packet and size the scheduler.
     * \param flows number of flows (flow ids are 0 .. flows-1)
     * \param quantum bytes added to a flow's deficit per visit (per unit of weight and round);
     *        >= 1
     */
    void Reset(uint32_t flows, uint32_t quantum);

    /**
     * \param weight a flow's weight (> 0)
     * \return its SRR weight: rounded to the nearest integer, within [1, 2^32 - 1]
     */
    static uint32_t IntegerWeight(double weight);

    /**
     * The term of the Weight Spread Sequence at a position.
     * \param position a position, 1-based
     * \return its value: 1 + the number of trailing zero bits of the position
     */
    static uint32_t WssTerm(uint64_t position);

    /**
     * A packet of \p bytes joins the tail of flow \p f; an idle flow joins its columns of the
     * Weight Matrix (Join).
     * \param f the flow
     * \param bytes the packet's size
     * \param weight the flow's weight (> 0), used if the flow was idle: it keeps it until it
     *        empties again
     * \return the packet's slot, until it leaves
     */
    Slot Arrive(FlowId f, uint32_t bytes, double weight = 1.0);

    /**
     * SRR's dequeue (see the class description). GetFlows() must not be Empty().
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

    /// \return the memory of the flows' state, the Weight Matrix's entries included
    FlowStateSize GetStateSize() const;

    /// \return the current position in the sequence of order ORDER (0 before the first term)
    uint64_t GetPosition() const
    {
        return m_position;
    }

    /// \return the number of passes over the whole sequence completed since Reset
    uint64_t GetPasses() const
    {
        return m_passes;
    }

    /// \return the largest order (bits) of a backlogged flow's integer weight; 0 when no flow is
    /// backlogged
    uint32_t GetOrder() const;

    /**
     * \param f a flow
     * \return its integer weight this busy period (0 when never backlogged)
     */
    uint32_t GetWeight(FlowId f) const
    {
        return m_flows[f].weight;
    }

  private:
    /// An index that points nowhere.
    static constexpr uint32_t NONE = UINT32_MAX;
    /// The last position of the sequence of order ORDER.
    static constexpr uint64_t LAST_POSITION = (uint64_t{1} << ORDER) - 1;

    /// Per-flow state (the members FlowQueues needs, and SRR's).
    struct Flow
    {
        uint64_t deficit = 0;     //!< deficit counter DC
        uint32_t weight = 0;      //!< integer weight, this busy period (its matrix row)
        uint32_t position = NONE; //!< index of its heap entry; NONE when idle
        Slot head = NONE;         //!< first queued packet
        Slot tail = NONE;         //!< last queued packet
        Counters counters;        //!< sent and dropped counters
    };

    /// A flow's entry in one column of the Weight Matrix: its neighbours there.
    struct Entry
    {
        FlowId next = NONE; //!< the flow below, NONE for the bottom
        FlowId prev = NONE; //!< the flow above, NONE for the top
    };

    /// One column of the Weight Matrix: a list of flows.
    struct Column
    {
        FlowId top = NONE;          //!< first flow
        FlowId bottom = NONE;       //!< last flow
        std::vector<Entry> entries; //!< every flow's entry, indexed by flow (sized on first use)
    };

    /**
     * \param f a flow that became backlogged: it joins the bottom of its columns, but in the
     *        column being scanned goes just above the scan position (its next turn)
     */
    void Join(FlowId f);

    /**
     * \param f a flow that emptied: it leaves its columns (and the visit, if visited)
     */
    void Leave(FlowId f);

    /**
     * After flow \p p.flow lost a packet: if it emptied, it leaves the matrix and its deficit is
     * reset (perflow::Left); the packet's deficit field is set to the flow's.
     * \param p the packet that left
     * \return p
     */
    Packet Left(Packet p);

    /// Move to the next term of the sequence whose column has flows; there must be one.
    void NextTerm();

    FlowQueues<Flow> m_flows;      //!< every flow's record, packets, and the longest-flow heap
    std::vector<Column> m_columns; //!< the Weight Matrix: column j holds the flows with bit j
    uint32_t m_nonEmpty;           //!< bit j set when column j has flows
    uint64_t m_position;           //!< position in the sequence, 1 .. LAST_POSITION; 0 at start
    uint64_t m_passes;             //!< passes over the sequence completed
    uint32_t m_column;             //!< the current term's column (bit)
    FlowId m_next;                 //!< next flow of the current column to visit; NONE: none
    FlowId m_visiting;             //!< the flow being visited (its deficit charged); NONE: none
    uint32_t m_quantum;            //!< bytes a visit adds to a deficit
};

} // namespace ns3

#endif /* SRR_SCHEDULER_H */
