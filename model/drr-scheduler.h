/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRR_SCHEDULER_H
#define DRR_SCHEDULER_H

#include <boost/heap/d_ary_heap.hpp>
#include <boost/intrusive/list.hpp>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief The Deficit Round Robin scheduler of Shreedhar and Varghese, with weights and the
 * longest-queue bookkeeping of a shared buffer; no packets, no simulator.
 *
 * It keeps, per flow, the backlog (bytes and packets), the deficit counter and the flow's
 * quantum, the ActiveList of backlogged flows, and an index of the backlogged flows by weighted
 * backlog (bytes / weight) for buffer stealing. The packets themselves live with the caller
 * (DrrQueueDisc keeps them in one internal queue per flow); the caller tells the scheduler what
 * arrived (Arrive) and what left (Depart), and asks it which flow sends next (Select) and which
 * flow is the longest (Longest).
 *
 * Dequeue, as in the paper, with the deficit kept between calls:
 * \verbatim
 *   loop:
 *     f = head of ActiveList
 *     if size(head packet of f) <= DC[f]:  DC[f] -= size; send it      (Select + Depart)
 *                                          if f is empty: remove f from ActiveList, DC[f] = 0
 *     else:                                DC[f] += Q[f]; move f to the tail of ActiveList
 * \endverbatim
 * A flow that becomes backlogged joins the tail of ActiveList with DC = Q[f] (the quantum it
 * would be given on reaching the head, so no separate "visited" flag is needed); Q[f] = quantum
 * x weight, rounded, at least 1 byte. A flow that empties, whether by sending or by a drop,
 * leaves ActiveList and its deficit is reset, so a flow emptied by buffer stealing re-enters like
 * a new flow (ns-2's DRR keeps its stale per-round state there).
 *
 * Costs: Arrive, Depart and Longest are O(log_4 n) in the number n of backlogged flows (a
 * 4-ary heap with handles, boost::heap::d_ary_heap); Select is O(1) when the quantum is at least
 * the largest packet, otherwise it may visit each backlogged flow up to size/quantum times.
 */
class DrrScheduler
{
  public:
    /// Flow index type.
    using FlowId = uint32_t;

    DrrScheduler();
    DrrScheduler(const DrrScheduler&) = delete;            //!< the heap refers to this object
    DrrScheduler& operator=(const DrrScheduler&) = delete; //!< the heap refers to this object

    /**
     * Forget every flow and size the scheduler.
     * \param flows number of flows (flow ids are 0 .. flows-1)
     * \param quantum bytes a flow of weight 1 may send per round; must be >= 1
     */
    void Reset(uint32_t flows, uint32_t quantum);

    /**
     * A packet of \p bytes arrived at flow \p f.
     * \param f the flow
     * \param bytes the packet's size
     * \param weight the flow's weight (> 0), used if the flow was idle: it keeps it until it
     *        empties again
     */
    void Arrive(FlowId f, uint32_t bytes, double weight = 1.0);

    /**
     * A packet of \p bytes left flow \p f: sent (after Select chose f) or dropped.
     * \param f the flow, which must be backlogged
     * \param bytes the packet's size
     */
    void Depart(FlowId f, uint32_t bytes);

    /**
     * Choose the flow whose head packet is sent next and charge the packet to its deficit.
     * The caller then removes that packet and calls Depart(f, size).
     * \param headSize callable: FlowId -> size in bytes of that flow's head packet
     * \return the flow; the scheduler must not be empty
     */
    template <typename HeadSize>
    FlowId Select(HeadSize&& headSize);

    /// \return the backlogged flow with the largest bytes / weight; must not be empty
    FlowId Longest() const;

    /// \return whether no flow is backlogged
    bool Empty() const;

    /// \return the number of backlogged flows
    uint32_t GetActiveFlows() const;

    /// \return the flow at the head of ActiveList (the one being served); must not be empty
    FlowId GetHead() const;

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
     * \return its quantum in bytes (quantum x weight of its current busy period)
     */
    uint32_t GetQuantum(FlowId f) const;

    /// \return the number of flows
    uint32_t GetFlowCount() const;

    /// \return the size of one flow's state in bytes (for memory accounting)
    static constexpr std::size_t FlowStateBytes();

  private:
    /// Orders flow ids by weighted backlog, for the max-heap.
    struct ByWeightedBacklog
    {
        const DrrScheduler* scheduler; //!< the owner, whose flows are compared

        /**
         * \param a a flow
         * \param b another flow
         * \return whether a's bytes / weight is smaller than b's
         */
        bool operator()(FlowId a, FlowId b) const;
    };

    /// The 4-ary max-heap of backlogged flows by weighted backlog.
    using LongestHeap = boost::heap::d_ary_heap<FlowId,
                                                boost::heap::arity<4>,
                                                boost::heap::mutable_<true>,
                                                boost::heap::compare<ByWeightedBacklog>>;

    /// Per-flow state.
    struct Flow : public boost::intrusive::list_base_hook<>
    {
        uint64_t bytes = 0;               //!< backlog in bytes
        uint32_t packets = 0;             //!< backlog in packets
        uint32_t quantum = 0;             //!< quantum x weight, this busy period
        uint64_t deficit = 0;             //!< deficit counter DC
        double weight = 1.0;              //!< weight, this busy period
        LongestHeap::handle_type longest; //!< position in m_longest, while backlogged
    };

    /// ActiveList: backlogged flows in round-robin order.
    using ActiveList = boost::intrusive::list<Flow, boost::intrusive::constant_time_size<true>>;

    /**
     * \param flow a flow's state
     * \return its id
     */
    FlowId IdOf(const Flow& flow) const;

    std::vector<Flow> m_flows; //!< every flow's state, indexed by id
    ActiveList m_active;       //!< ActiveList
    LongestHeap m_longest;     //!< backlogged flows by bytes / weight
    uint32_t m_quantum;        //!< quantum of a weight-1 flow, bytes
};

template <typename HeadSize>
DrrScheduler::FlowId
DrrScheduler::Select(HeadSize&& headSize)
{
    for (;;)
    {
        Flow& head = m_active.front();
        const uint32_t size = headSize(IdOf(head));
        if (size <= head.deficit)
        {
            head.deficit -= size;
            return IdOf(head);
        }
        head.deficit += head.quantum;
        m_active.splice(m_active.end(), m_active, m_active.begin());
    }
}

constexpr std::size_t
DrrScheduler::FlowStateBytes()
{
    return sizeof(Flow);
}

} // namespace ns3

#endif /* DRR_SCHEDULER_H */
