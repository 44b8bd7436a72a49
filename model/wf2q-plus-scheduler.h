/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WF2Q_PLUS_SCHEDULER_H
#define WF2Q_PLUS_SCHEDULER_H

#include "flow-queues.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief WF²Q+, the one-level Worst-case Fair Weighted Fair Queueing server of Bennett and Zhang
 * ("Hierarchical packet fair queueing algorithms", IEEE/ACM ToN 5(5), 1997), with weights and a
 * shared buffer's longest-queue bookkeeping; no simulator.
 *
 * Rates: flow i of weight w_i is guaranteed the share r_i = w_i / Φ of the link, Φ being the
 * Reset argument totalWeight. The paper's bounds assume Σ r_i <= 1, i.e. that the weights of the
 * flows sum to at most Φ. Virtual time is counted in bytes of link service, so a packet of L
 * bytes spans L / r_i = L Φ / w_i of it.
 *
 * The paper's definitions, for the head packet of each backlogged flow i (packet k of L_i^k
 * bytes, arrived at a_i^k):
 * \verbatim
 *   V(t + τ) = max( V(t) + W(t, t + τ),  min_{i backlogged} S_i )     system virtual time
 *   S_i = max(F_i, V(a_i^k))    if flow i was empty when packet k arrived
 *   S_i = F_i                   otherwise (packet k reaches the head as packet k-1 leaves)
 *   F_i = S_i + L_i^k / r_i
 *   select: among the eligible flows, S_i <= V, the one with the smallest F_i
 * \endverbatim
 * W(t, t + τ) is the work (bytes) the link did in the interval. The max with the smallest start
 * tag keeps at least one flow eligible, so the server is work-conserving; the eligibility test is
 * what tells WF²Q+ from WFQ, which serves the smallest F_i among all flows and may send a burst
 * of one flow far ahead of its fluid (GPS) schedule. Ties in F_i go to the smaller flow id, so
 * flows of equal weight and packet size are served in round robin.
 *
 * Time: the scheduler has no clock. It counts the work W in whole packets: a Dequeue means the
 * link is free, so the packet sent before has left, and V then becomes max(V + its length,
 * smallest S); right after a selection, V is raised to the smallest start tag if no flow is
 * eligible any more (the max of the paper's V(t) holds at every instant, not only when a packet
 * is chosen). Between two Dequeues, V is the paper's V at the start of the packet being sent: an
 * arrival during that packet sees V without the part of it already transmitted, one after the
 * link went idle without that whole packet (at most one packet of link work either way).
 * Counting the packet at once when it is chosen instead makes the unit tests' guaranteed-rate
 * delay bound fail by 0.64 L_max and their fairness bound by 0.21 L_max. A packet dropped by
 * buffer stealing is not charged: a flow keeps the start tag of the packet it lost at its head,
 * and a flow emptied by a drop returns with S_i = max(that start, V).
 *
 * GPS: V grows with the work done, as GPS's virtual time does only while the backlogged flows'
 * rates sum to the whole link. While every flow is backlogged, packets leave within L_max / C
 * of their GPS finish times; when fewer are, each flow still gets its guaranteed rate r_i
 * (within L_max / C), but the excess is shared differently: a flow whose packet was sent while
 * it was alone waits until V reaches that packet's finish tag, much later than GPS would make it
 * wait (Wf2qPlusScheduler.LagsGpsAfterAFlowWasServedAlone in the unit tests).
 *
 * Heaps: the eligible flows are in a min-heap by (F_i, flow), the others in a min-heap by
 * (S_i, flow); a Dequeue moves the flows that V made eligible from one to the other (each flow
 * at most once per packet) and takes the top of the first. Both are 4-ary heaps on flat arrays
 * with each flow's position kept in an array, so nothing is allocated once they reached their
 * peak size. The backlogged flows' queues and the longest-flow heap for buffer stealing are a
 * FlowQueues, as in DrrScheduler.
 *
 * Virtual time and tags are doubles; they grow with the bytes served (up to Φ / w per byte), and
 * their resolution is 1/8 byte or finer up to 2^50 bytes of virtual time.
 *
 * Costs: Arrive, Dequeue and Drop are O(log n) in the number n of backlogged flows (heap
 * updates; a Dequeue also moves the flows that became eligible, each O(log n)). Measured
 * (callgrind, every flow backlogged, sizes 64 .. 1500 B): a Dequeue plus an Arrive take about
 * 440 instructions with 4 flows, 810 with 64, 1,100 with 1,024 and 1,400 with 16,384;
 * DrrScheduler's take 220 .. 230.
 */
class Wf2qPlusScheduler
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

    Wf2qPlusScheduler();

    /**
     * Forget every flow and packet, set V = 0 and size the scheduler.
     * \param flows number of flows (flow ids are 0 .. flows-1)
     * \param totalWeight Φ, the weight whose share is the whole link: a flow of weight w is
     *        guaranteed the rate w / Φ of it; >= 0. The paper's bounds need the flows' weights to
     *        sum to at most Φ. 0: Φ is the sum of the weights of the flows seen so far, each
     *        counted once, with the weight of its first busy period (as Linux's QFQ sums the
     *        weights of its classes); a flow's packets take the Φ of the start of their busy
     *        period
     */
    void Reset(uint32_t flows, double totalWeight);

    /**
     * A packet of \p bytes joins the tail of flow \p f; an idle flow gets its tags
     * (S = max(F, V), F = S + bytes Φ / weight) and joins the eligible flows if S <= V.
     * \param f the flow
     * \param bytes the packet's size
     * \param weight the flow's weight (> 0), used if the flow was idle: it keeps it until it
     *        empties again
     * \return the packet's slot, until it leaves
     */
    Slot Arrive(FlowId f, uint32_t bytes, double weight = 1.0);

    /**
     * WF²Q+'s selection (see the class description): V catches up with the packet sent before,
     * then the eligible flow with the smallest finish tag sends its head packet. Must not be
     * Empty().
     * \return the packet sent
     */
    Packet Dequeue();

    /**
     * Buffer stealing: drop one packet of the longest flow (Longest()). Must not be Empty().
     * \param fromHead whether to drop its head (oldest) packet, else its tail (newest)
     * \return the packet dropped
     */
    Packet Drop(bool fromHead);

    /**
     * \return the per-flow state (FlowQueues: Empty, GetActiveFlows, IsBacklogged, GetBytes,
     *         GetPackets, GetCounters, Longest, ...); WF²Q+ keeps tags, no deficit, so it has no
     *         GetDeficit
     */
    const auto& GetFlows() const
    {
        return m_flows;
    }

    /// \return the memory of the flows' state, the two tag heaps included
    FlowStateSize GetStateSize() const;

    /**
     * \param f a flow
     * \return whether it is backlogged and its start tag is at most V (it may be selected)
     */
    bool IsEligible(FlowId f) const
    {
        return m_eligible.Contains(f);
    }

    /**
     * \return the system virtual time V, as of the start of the packet sent last (the next
     *         Dequeue adds that packet's length)
     */
    double GetVirtualTime() const
    {
        return m_virtualTime;
    }

    /**
     * \return Φ: the Reset argument, or with 0 there the sum of the weights the flows had when
     *         they were first backlogged since Reset
     */
    double GetTotalWeight() const
    {
        return m_totalWeight;
    }

    /**
     * \param f a flow
     * \return its start tag S: its head packet's while backlogged
     */
    double GetStartTag(FlowId f) const
    {
        return m_flows[f].start;
    }

    /**
     * \param f a flow
     * \return its finish tag F: its head packet's while backlogged, else its last packet's
     */
    double GetFinishTag(FlowId f) const
    {
        return m_flows[f].finish;
    }

  private:
    /// An index that points nowhere.
    static constexpr uint32_t NONE = UINT32_MAX;

    /// Per-flow state (the members FlowQueues needs, and WF²Q+'s tags).
    struct Flow
    {
        uint32_t position = NONE; //!< index of its longest-flow heap entry; NONE when idle
        Slot head = NONE;         //!< first queued packet
        Slot tail = NONE;         //!< last queued packet
        double start = 0;         //!< S: start tag of its head packet
        double finish = 0;        //!< F: finish tag of its head packet (or of its last one)
        /// 1 / r = Φ / weight: virtual time per byte, this busy period (0: the flow was never
        /// backlogged since Reset)
        double cost = 0;
        Counters counters; //!< sent and dropped counters
    };

    /**
     * A min-heap of flows by (key, flow id), 4-ary, with each flow's position in an array, so
     * that a flow's entry can be found, re-keyed or removed in O(log n).
     */
    class TagHeap
    {
      public:
        /// \param flows number of flows; the heap is emptied
        void Reset(uint32_t flows);

        /// \return whether it holds no flow
        bool Empty() const
        {
            return m_entries.empty();
        }

        /**
         * \param f a flow
         * \return whether it is in the heap
         */
        bool Contains(FlowId f) const
        {
            return m_position[f] != NONE;
        }

        /// \return the flow with the smallest key; must not be Empty()
        FlowId Top() const
        {
            return m_entries.front().flow;
        }

        /// \return the smallest key; must not be Empty()
        double TopKey() const
        {
            return m_entries.front().key;
        }

        /**
         * \param f a flow not in the heap
         * \param key its key
         */
        void Push(FlowId f, double key);

        /**
         * \param f a flow in the heap
         * \param key its new key
         */
        void Update(FlowId f, double key);

        /// \param f a flow in the heap, which leaves it
        void Erase(FlowId f);

        /// \return the bytes allocated (entries at their peak number, positions)
        std::size_t GetEntryBytes() const
        {
            return m_entries.capacity() * sizeof(Entry);
        }

        /// \return the bytes allocated for the flows' positions
        std::size_t GetPositionBytes() const
        {
            return m_position.capacity() * sizeof(uint32_t);
        }

      private:
        /// A flow and its key.
        struct Entry
        {
            double key;  //!< start or finish tag
            FlowId flow; //!< the flow
        };

        /**
         * \param a an entry
         * \param b another
         * \return whether a comes before b: smaller key, or equal key and smaller flow id
         */
        static bool Before(const Entry& a, const Entry& b)
        {
            return a.key < b.key || (a.key == b.key && a.flow < b.flow);
        }

        /**
         * Put \p e at position \p i and record it there.
         * \param i a position
         * \param e an entry
         */
        void Place(uint32_t i, const Entry& e);

        /**
         * Move \p e up from the hole at \p i while it comes before the parent, and place it.
         * \param i a position (a hole)
         * \param e the entry to place
         */
        void SiftUp(uint32_t i, const Entry& e);

        /**
         * Move \p e down from the hole at \p i while a child comes before it, and place it.
         * \param i a position (a hole)
         * \param e the entry to place
         */
        void SiftDown(uint32_t i, const Entry& e);

        std::vector<Entry> m_entries;     //!< the heap
        std::vector<uint32_t> m_position; //!< each flow's index in m_entries; NONE if absent
    };

    /**
     * A backlogged flow that is in neither heap joins the eligible ones if S <= V, else the
     * waiting ones.
     * \param f the flow
     */
    void Enter(FlowId f);

    /// Move the waiting flows whose start tag is at most V to the eligible ones.
    void Admit();

    FlowQueues<Flow> m_flows; //!< every flow's record, packets, and the longest-flow heap
    TagHeap m_eligible;       //!< backlogged flows with S <= V, by finish tag
    TagHeap m_waiting;        //!< backlogged flows with S > V, by start tag
    double m_virtualTime;     //!< V, as of the start of the packet sent last
    uint32_t m_inService;     //!< length of the packet sent last, not yet in V
    double m_totalWeight;     //!< Φ
    bool m_sumWeights;        //!< Φ is the sum of the weights of the flows seen (Reset with 0)
};

} // namespace ns3

#endif /* WF2Q_PLUS_SCHEDULER_H */
