/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_QUEUES_H
#define FLOW_QUEUES_H

#include "ns3/abort.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief Counters of one flow of a per-flow scheduler.
 */
struct FlowCounters
{
    uint64_t sentPackets = 0;    //!< packets sent (dequeued)
    uint64_t sentBytes = 0;      //!< bytes sent
    uint64_t droppedPackets = 0; //!< packets dropped (buffer stealing)
    uint64_t droppedBytes = 0;   //!< bytes dropped
};

/**
 * \ingroup qdisc-lab
 * \brief What a per-flow scheduler's state costs in memory (the benchmark's flow state, read
 * through PerFlowQueueDisc::GetStateSize).
 */
struct FlowStateSize
{
    uint64_t activeFlowBytes = 0; //!< state that exists only while a flow has packets queued
                                  //!< (at its peak; the packets and their records not included)
    uint64_t bucketBytes = 0;     //!< state kept per bucket, active or not
    uint32_t peakActiveFlows = 0; //!< most flows with packets queued at once
};

/**
 * \ingroup qdisc-lab
 * \brief A packet that left a flow of a per-flow scheduler (the scheduler of a member of the
 * per-flow family: PerFlowQueueDiscOf), sent or dropped.
 */
struct FlowPacket
{
    uint32_t flow;    //!< its flow
    uint32_t slot;    //!< the slot it had (free again)
    uint32_t size;    //!< its size in bytes
    uint64_t deficit; //!< its flow's deficit counter afterwards (0 if the flow emptied, and for
                      //!< a scheduler without deficit counters)
};

/**
 * \ingroup qdisc-lab
 * \brief The per-flow packet queues of a shared buffer and the index of the backlogged flows by
 * weighted backlog (bytes / weight) that buffer stealing needs; no simulator, no scheduling.
 *
 * The schedulers of the per-flow family's members that steal from the longest flow keep their
 * packets and their longest-queue bookkeeping here, and add their own service order on top. The
 * packets themselves live with the caller: Push gives each queued packet a slot number, and
 * Remove says which slot left, so the caller finds the packet in O(1) (the queue discs keep them
 * in a SlotQueue).
 *
 * Flow is the scheduler's per-flow record, so that a scheduler keeps all of a flow's state in
 * one record (DrrScheduler's is one cache line); it must have the members
 * `uint32_t position` (its heap entry; NONE when idle, as default-constructed),
 * `uint32_t head`, `uint32_t tail` (its first and last packets' slots, NONE as
 * default-constructed) and `FlowCounters counters`; a scheduler that keeps a deficit counter
 * has `uint64_t deficit` too (only read here: GetDeficit exists only then).
 *
 * Its const members are the scheduler's per-flow state as everyone else reads it: a scheduler
 * hands out `const FlowQueues<Flow>&` (GetFlows) instead of forwarding each getter.
 *
 * Longest: the backlogged flows are in a 4-ary max-heap by bytes / weight. Its entries carry
 * their flow's backlog (bytes, packets, weight), so sifting reads one small array and no flow
 * records; each flow record holds its entry's position. Its operations are those of
 * boost::heap::d_ary_heap (arity 4, mutable), step by step -- push and increase sift up,
 * decrease sifts down, erase lifts the entry to the root and pops it -- so flows with equal
 * weighted backlogs are chosen exactly as with that heap (DrrScheduler's unit test checks
 * this on random traffic). boost's mutable heap is not used itself because it keeps every
 * entry in a std::list node: an allocation per newly backlogged flow and a pointer chase per
 * comparison.
 *
 * Memory: a Flow per flow; 24 bytes per backlogged flow in the heap; 12 bytes per queued
 * packet. Pools keep their peak size: once warmed up nothing is allocated. Push and Remove are
 * O(log_4 n) in the number n of backlogged flows.
 *
 * \tparam Flow the scheduler's per-flow record
 */
template <typename Flow>
class FlowQueues
{
  public:
    /// Flow index type.
    using FlowId = uint32_t;
    /// A queued packet's slot.
    using Slot = uint32_t;
    /// An index (flow, slot or heap position) that points nowhere.
    static constexpr uint32_t NONE = UINT32_MAX;

    /**
     * Forget every flow and packet.
     * \param flows number of flows (ids 0 .. flows-1), each a default-constructed Flow
     */
    void Reset(uint32_t flows)
    {
        m_flows = std::vector<Flow>(flows);
        m_heap.clear();
        m_packets.clear();
        m_freeSlots.clear();
        m_peakActive = 0;
        m_weight = 0;
        m_sameWeights = true;
    }

    /**
     * \param f a flow
     * \return its record
     */
    Flow& operator[](FlowId f)
    {
        return m_flows[f];
    }

    /**
     * \param f a flow
     * \return its record
     */
    const Flow& operator[](FlowId f) const
    {
        return m_flows[f];
    }

    /**
     * A packet of \p bytes joins the tail of flow \p f; if f was idle, it becomes backlogged
     * with weight \p weight (kept until it empties).
     * \param f the flow
     * \param bytes the packet's size
     * \param weight the flow's weight (> 0), used if it was idle
     * \return the packet's slot, until it leaves
     */
    Slot Push(FlowId f, uint32_t bytes, double weight)
    {
        Slot slot;
        if (m_freeSlots.empty())
        {
            slot = static_cast<Slot>(m_packets.size());
            m_packets.emplace_back();
        }
        else
        {
            slot = m_freeSlots.back();
            m_freeSlots.pop_back();
        }
        Flow& flow = m_flows[f];
        m_packets[slot] = PacketRecord{flow.tail, NONE, bytes};
        if (flow.tail == NONE)
        {
            flow.head = slot;
        }
        else
        {
            m_packets[flow.tail].next = slot;
        }
        flow.tail = slot;

        if (flow.position == NONE)
        {
            flow.position = static_cast<uint32_t>(m_heap.size());
            m_heap.push_back(Backlog{bytes, weight, 1, f});
            if (weight != m_weight)
            {
                NoteWeight(weight);
            }
            m_peakActive = std::max(m_peakActive, static_cast<uint32_t>(m_heap.size()));
        }
        else
        {
            Backlog& backlog = m_heap[flow.position];
            backlog.bytes += bytes;
            ++backlog.packets;
        }
        SiftUp(flow.position);
        return slot;
    }

    /**
     * Unlink packet \p slot from flow \p f and free the slot; the flow leaves the heap if it
     * empties (its scheduler then takes it out of its own lists). Counters are the caller's.
     * \param f the flow
     * \param slot one of its packets (its head or tail)
     * \return the packet's size
     */
    // Inlined in Send and DropFrom, its two callers (compilers leave it out of line otherwise).
    __attribute__((always_inline)) uint32_t Remove(FlowId f, Slot slot)
    {
        Flow& flow = m_flows[f];
        const PacketRecord p = m_packets[slot];
        if (p.prev == NONE)
        {
            flow.head = p.next;
        }
        else
        {
            m_packets[p.prev].next = p.next;
        }
        if (p.next == NONE)
        {
            flow.tail = p.prev;
        }
        else
        {
            m_packets[p.next].prev = p.prev;
        }
        m_freeSlots.push_back(slot);

        if (m_heap[flow.position].packets == 1)
        {
            EraseEntry(flow.position);
            flow.position = NONE;
        }
        else
        {
            Backlog& backlog = m_heap[flow.position];
            backlog.bytes -= p.size;
            --backlog.packets;
            SiftDown(flow.position, backlog);
        }
        return p.size;
    }

    /**
     * Send the head packet of backlogged flow \p f: count it and remove it.
     * \param f the flow
     * \return the packet (its deficit field is left 0 for the scheduler to fill)
     */
    FlowPacket Send(FlowId f)
    {
        Flow& flow = m_flows[f];
        const Slot slot = flow.head;
        const uint32_t size = Remove(f, slot);
        flow.counters.sentPackets++;
        flow.counters.sentBytes += size;
        return FlowPacket{f, slot, size, 0};
    }

    /**
     * Buffer stealing: drop one packet of the longest flow, count it and remove it. Must not
     * be Empty().
     * \param fromHead whether to drop its head (oldest) packet, else its tail (newest)
     * \return the packet (its deficit field is left 0 for the scheduler to fill)
     */
    FlowPacket DropFromLongest(bool fromHead)
    {
        NS_ABORT_MSG_IF(m_heap.empty(), "FlowQueues: Drop with no flow backlogged");
        return DropFrom(m_heap.front().flow, fromHead);
    }

    /**
     * Drop one packet of backlogged flow \p f, count it and remove it.
     * \param f the flow
     * \param fromHead whether to drop its head (oldest) packet, else its tail (newest)
     * \return the packet (its deficit field is left 0 for the scheduler to fill)
     */
    FlowPacket DropFrom(FlowId f, bool fromHead)
    {
        Flow& flow = m_flows[f];
        const Slot slot = fromHead ? flow.head : flow.tail;
        const uint32_t size = Remove(f, slot);
        flow.counters.droppedPackets++;
        flow.counters.droppedBytes += size;
        return FlowPacket{f, slot, size, 0};
    }

    /**
     * \param f a backlogged flow
     * \return the size of its head packet
     */
    uint32_t HeadSize(FlowId f) const
    {
        return m_packets[m_flows[f].head].size;
    }

    /// \return the backlogged flow with the largest bytes / weight; must not be Empty()
    FlowId Longest() const
    {
        NS_ABORT_MSG_IF(m_heap.empty(), "FlowQueues: Longest with no flow backlogged");
        return m_heap.front().flow;
    }

    /// \return whether no flow is backlogged
    bool Empty() const
    {
        return m_heap.empty();
    }

    /// \return the number of backlogged flows
    uint32_t GetActiveFlows() const
    {
        return static_cast<uint32_t>(m_heap.size());
    }

    /**
     * \param f a flow
     * \return whether it has packets queued
     */
    bool IsBacklogged(FlowId f) const
    {
        return m_flows[f].position != NONE;
    }

    /**
     * \param f a flow
     * \return its backlog in bytes
     */
    uint64_t GetBytes(FlowId f) const
    {
        const uint32_t position = m_flows[f].position;
        return position == NONE ? 0 : m_heap[position].bytes;
    }

    /**
     * \param f a flow
     * \return its backlog in packets
     */
    uint32_t GetPackets(FlowId f) const
    {
        const uint32_t position = m_flows[f].position;
        return position == NONE ? 0 : m_heap[position].packets;
    }

    /**
     * Only for a Flow record with a deficit counter (a scheduler that keeps one).
     * \param f a flow
     * \return its deficit counter in bytes, as its scheduler keeps it (0 when idle)
     * \tparam F Flow
     */
    template <typename F = Flow>
    auto GetDeficit(FlowId f) const -> decltype(std::declval<const F&>().deficit)
    {
        return m_flows[f].deficit;
    }

    /**
     * \param f a flow
     * \return its sent and dropped counters since Reset
     */
    FlowCounters GetCounters(FlowId f) const
    {
        return m_flows[f].counters;
    }

    /// \return the number of flows
    uint32_t GetFlowCount() const
    {
        return static_cast<uint32_t>(m_flows.size());
    }

    /// \return the number of packet slots allocated (the peak number of queued packets)
    std::size_t GetSlotCapacity() const
    {
        return m_packets.size();
    }

    /// \return the largest number of flows that were backlogged at once since Reset
    uint32_t GetPeakActiveFlows() const
    {
        return m_peakActive;
    }

    /// \return the bytes allocated for the records of every flow
    std::size_t GetFlowRecordBytes() const
    {
        return m_flows.capacity() * sizeof(Flow);
    }

    /// \return the bytes allocated for backlogged flows' heap entries (at its peak size)
    std::size_t GetHeapBytes() const
    {
        return m_heap.capacity() * sizeof(Backlog);
    }

    /// \return the memory of this state: the heap (per active flow) and the flow records
    FlowStateSize GetStateSize() const
    {
        return FlowStateSize{GetHeapBytes(), GetFlowRecordBytes(), GetPeakActiveFlows()};
    }

  private:
    /// A backlogged flow's entry in the heap: what the heap orders by, and whose it is.
    struct Backlog
    {
        uint64_t bytes;   //!< backlog in bytes
        double weight;    //!< weight, this busy period
        uint32_t packets; //!< backlog in packets
        FlowId flow;      //!< the flow
    };

    /// A queued packet: its size and its neighbours in its flow's queue.
    struct PacketRecord
    {
        Slot prev;     //!< previous packet of the flow, NONE for the head
        Slot next;     //!< next packet of the flow, NONE for the tail
        uint32_t size; //!< size in bytes
    };

    /**
     * A flow of weight \p weight became backlogged: are the weights still all one?
     * \param weight its weight, not m_weight
     */
    void NoteWeight(double weight)
    {
        // The first weight since Reset, in the range where Less<true> holds; else mixed (-1)
        // until Reset.
        m_sameWeights = m_weight == 0 && weight >= 1e-300 && weight <= 1e290;
        m_weight = m_sameWeights ? weight : -1;
    }

    /**
     * \param a a backlog
     * \param b another
     * \return whether a's bytes / weight is smaller than b's (without dividing)
     * \tparam SAME_WEIGHTS whether a and b have the same weight w (every flow since Reset has had
     *         it: m_sameWeights): then bytes are compared alone. The same answer: bytes are
     *         integers below 2^52 and 1e-300 <= w <= 1e290, so bytes x w is 0 or a normal
     *         double, and two products of different bytes differ by at least w, more than the
     *         spacing of doubles there (at most 2^-52 x 2^52 w): rounded, they keep their order.
     */
    template <bool SAME_WEIGHTS>
    static bool Less(const Backlog& a, const Backlog& b)
    {
        if constexpr (SAME_WEIGHTS)
        {
            return a.bytes < b.bytes;
        }
        else
        {
            // Backlogs are far below 2^63 bytes: converted as signed, the same doubles without
            // the test an unsigned conversion needs (the comparisons, hot, are those of the
            // heap).
            return static_cast<double>(static_cast<int64_t>(a.bytes)) * b.weight <
                   static_cast<double>(static_cast<int64_t>(b.bytes)) * a.weight;
        }
    }

    /**
     * \param i a position
     * \param entry the entry that goes there; its flow's record notes the position
     */
    void Place(uint32_t i, const Backlog& entry)
    {
        m_heap[i] = entry;
        m_flows[entry.flow].position = i;
    }

    // The sifts move a hole instead of swapping entries: each entry passed over moves once, and
    // the moving one is written once, where it stops. They end with the same heap as swapping
    // step by step (the moving entry is the one compared at every step either way). Each is
    // compiled twice, for flows of one weight (m_sameWeights) and for mixed weights.

    /**
     * Move entry \p i up while its parent is less.
     * \param i a position
     */
    void SiftUp(uint32_t i)
    {
        m_sameWeights ? SiftUp<true>(i) : SiftUp<false>(i);
    }

    /**
     * \copydoc SiftUp(uint32_t)
     * \tparam SAME_WEIGHTS m_sameWeights
     */
    template <bool SAME_WEIGHTS>
    void SiftUp(uint32_t i)
    {
        const Backlog moving = m_heap[i];
        const uint32_t start = i;
        while (i != 0)
        {
            const uint32_t parent = (i - 1) / 4;
            if (!Less<SAME_WEIGHTS>(m_heap[parent], moving))
            {
                break;
            }
            Place(i, m_heap[parent]);
            i = parent;
        }
        if (i != start)
        {
            Place(i, moving);
        }
    }

    /**
     * Put \p moving in the hole at position \p i, then move it down while its largest child
     * (the first of equal ones) is not less.
     * \param i a position whose entry is overwritten
     * \param moving the entry that goes there or below
     */
    void SiftDown(uint32_t i, const Backlog& moving)
    {
        m_sameWeights ? SiftDown<true>(i, moving) : SiftDown<false>(i, moving);
    }

    /**
     * \copydoc SiftDown(uint32_t, const Backlog&)
     * \tparam SAME_WEIGHTS m_sameWeights
     */
    template <bool SAME_WEIGHTS>
    void SiftDown(uint32_t i, const Backlog moving)
    {
        const auto n = static_cast<uint32_t>(m_heap.size());
        while (4 * i + 1 < n)
        {
            // The largest child; the first of equal ones (std::max_element's choice).
            const uint32_t first = 4 * i + 1;
            const uint32_t last = std::min(first + 4, n);
            uint32_t largest = first;
            if (last == first + 4)
            {
                // Four children, as everywhere but at the end: a loop the compiler unrolls.
                for (uint32_t child = first + 1; child < first + 4; ++child)
                {
                    if (Less<SAME_WEIGHTS>(m_heap[largest], m_heap[child]))
                    {
                        largest = child;
                    }
                }
            }
            else
            {
                for (uint32_t child = first + 1; child < last; ++child)
                {
                    if (Less<SAME_WEIGHTS>(m_heap[largest], m_heap[child]))
                    {
                        largest = child;
                    }
                }
            }
            if (Less<SAME_WEIGHTS>(m_heap[largest], moving))
            {
                break;
            }
            Place(i, m_heap[largest]);
            i = largest;
        }
        Place(i, moving);
    }

    /**
     * Remove entry \p i: lift it to the root, then pop the root (boost's erase).
     * \param i a position
     */
    void EraseEntry(uint32_t i)
    {
        // Lifted to the root, it moves each of its ancestors one level down.
        while (i != 0)
        {
            const uint32_t parent = (i - 1) / 4;
            Place(i, m_heap[parent]);
            i = parent;
        }
        // Pop the root: the last entry takes its place and sifts down.
        const Backlog last = m_heap.back();
        m_heap.pop_back();
        if (!m_heap.empty())
        {
            SiftDown(0, last);
        }
    }

    std::vector<Flow> m_flows;           //!< every flow's record, indexed by id
    std::vector<Backlog> m_heap;         //!< the backlogged flows, a 4-ary max-heap
    std::vector<PacketRecord> m_packets; //!< packet records, queued or free
    std::vector<Slot> m_freeSlots;       //!< free packet records
    uint32_t m_peakActive = 0;           //!< the most flows backlogged at once
    double m_weight = 0;                 //!< every flow's weight since Reset (0: none yet; -1:
                                         //!< mixed, or out of Less<true>'s range)
    bool m_sameWeights = true;           //!< whether m_weight > 0: the heap uses Less<true>
};

namespace perflow
{

/// Whether the scheduler keeps a deficit counter per flow: GetFlows().GetDeficit(flow).
template <typename S, typename = void>
struct HasDeficit : std::false_type
{
};

/// \copydoc HasDeficit
template <typename S>
struct HasDeficit<S, std::void_t<decltype(std::declval<const S&>().GetFlows().GetDeficit(0))>>
    : std::true_type
{
};

/**
 * \ingroup qdisc-lab
 * \brief What a deficit scheduler of the family does after a flow lost a packet (sent or
 * dropped): if the flow emptied, \p leave takes it out of the scheduler's order of service and
 * its deficit is reset (it does not carry over to the next busy period); the packet's deficit
 * field is set to the flow's.
 * \param flows the scheduler's flows (the Flow record has a deficit)
 * \param p the packet that left
 * \param leave called with the flow, if it emptied
 * \return \p p, its deficit field set
 * \tparam Flow the scheduler's per-flow record
 * \tparam Leave void(uint32_t flow)
 */
template <typename Flow, typename Leave>
inline FlowPacket
Left(FlowQueues<Flow>& flows, FlowPacket p, Leave&& leave)
{
    Flow& flow = flows[p.flow];
    if (!flows.IsBacklogged(p.flow))
    {
        leave(p.flow);
        flow.deficit = 0;
    }
    p.deficit = flow.deficit;
    return p;
}

/**
 * \name A ring of flows
 * The round-robin schedulers' lists (DRR's ActiveList, each of Aliquem's lists): circular,
 * doubly linked through the flow records' `uint32_t next` and `uint32_t prev` (NONE while out of
 * a ring), entered by its head (NONE when the ring is empty); the tail is just behind the head.
 * \{
 */

/**
 * \param flows the scheduler's flows
 * \param head the ring's head
 * \param f a flow in no ring, which joins the tail
 * \tparam Flow the scheduler's per-flow record
 */
template <typename Flow>
inline void
RingAppend(FlowQueues<Flow>& flows, uint32_t& head, uint32_t f)
{
    Flow& flow = flows[f];
    if (head == FlowQueues<Flow>::NONE)
    {
        flow.next = flow.prev = f;
        head = f;
        return;
    }
    Flow& first = flows[head];
    const uint32_t tail = first.prev;
    flow.prev = tail;
    flow.next = head;
    flows[tail].next = f;
    first.prev = f;
}

/**
 * \param flows the scheduler's flows
 * \param head the ring's head (moves on if it was \p f)
 * \param f a flow in the ring, which leaves it
 * \tparam Flow the scheduler's per-flow record
 */
template <typename Flow>
inline void
RingUnlink(FlowQueues<Flow>& flows, uint32_t& head, uint32_t f)
{
    Flow& flow = flows[f];
    if (flow.next == f)
    {
        head = FlowQueues<Flow>::NONE; // it was the only one
    }
    else
    {
        flows[flow.prev].next = flow.next;
        flows[flow.next].prev = flow.prev;
        if (head == f)
        {
            head = flow.next;
        }
    }
    flow.next = flow.prev = FlowQueues<Flow>::NONE;
}

/// \}

} // namespace perflow

} // namespace ns3

#endif /* FLOW_QUEUES_H */
