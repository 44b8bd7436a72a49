/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drr-scheduler.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ns3
{

static_assert(sizeof(DrrScheduler::Counters) == 32, "four 64-bit counters");

DrrScheduler::DrrScheduler()
    : m_head(NONE),
      m_peakActive(0),
      m_quantum(1)
{
}

void
DrrScheduler::Reset(uint32_t flows, uint32_t quantum)
{
    NS_ABORT_MSG_IF(quantum == 0, "DrrScheduler: the quantum must be >= 1 byte");
    m_flows = std::vector<Flow>(flows);
    m_heap.clear();
    m_packets.clear();
    m_freeSlots.clear();
    m_head = NONE;
    m_quantum = quantum;
    m_peakActive = 0;
}

inline void
DrrScheduler::Swap(uint32_t i, uint32_t j)
{
    std::swap(m_heap[i], m_heap[j]);
    m_flows[m_heap[i].flow].position = i;
    m_flows[m_heap[j].flow].position = j;
}

inline void
DrrScheduler::SiftUp(uint32_t i)
{
    while (i != 0)
    {
        const uint32_t parent = (i - 1) / 4;
        if (!Less(m_heap[parent], m_heap[i]))
        {
            return;
        }
        Swap(i, parent);
        i = parent;
    }
}

inline void
DrrScheduler::SiftDown(uint32_t i)
{
    const auto n = static_cast<uint32_t>(m_heap.size());
    while (4 * i + 1 < n)
    {
        // The largest child; the first of equal ones (std::max_element's choice).
        const uint32_t first = 4 * i + 1;
        const uint32_t last = std::min(first + 4, n);
        uint32_t largest = first;
        for (uint32_t child = first + 1; child < last; ++child)
        {
            if (Less(m_heap[largest], m_heap[child]))
            {
                largest = child;
            }
        }
        if (Less(m_heap[largest], m_heap[i]))
        {
            return;
        }
        Swap(i, largest);
        i = largest;
    }
}

inline void
DrrScheduler::EraseEntry(uint32_t i)
{
    while (i != 0)
    {
        const uint32_t parent = (i - 1) / 4;
        Swap(i, parent);
        i = parent;
    }
    // Pop the root: the last entry takes its place and sifts down.
    const auto last = static_cast<uint32_t>(m_heap.size() - 1);
    if (last != 0)
    {
        m_heap.front() = m_heap[last];
        m_flows[m_heap.front().flow].position = 0;
    }
    m_heap.pop_back();
    if (!m_heap.empty())
    {
        SiftDown(0);
    }
}

inline void
DrrScheduler::Append(FlowId f)
{
    Flow& flow = m_flows[f];
    if (m_head == NONE)
    {
        flow.next = flow.prev = f;
        m_head = f;
        return;
    }
    // The tail is just behind the head, in the ring.
    Flow& head = m_flows[m_head];
    const FlowId tail = head.prev;
    flow.prev = tail;
    flow.next = m_head;
    m_flows[tail].next = f;
    head.prev = f;
}

inline void
DrrScheduler::Unlink(FlowId f)
{
    Flow& flow = m_flows[f];
    if (flow.next == f)
    {
        m_head = NONE; // it was the only one
    }
    else
    {
        m_flows[flow.prev].next = flow.next;
        m_flows[flow.next].prev = flow.prev;
        if (m_head == f)
        {
            m_head = flow.next;
        }
    }
    flow.next = flow.prev = NONE;
}

inline DrrScheduler::Packet
DrrScheduler::Remove(FlowId f, Slot slot)
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
        // Empty: leave ActiveList; the deficit does not carry over to the next busy period.
        Unlink(f);
        EraseEntry(flow.position);
        flow.position = NONE;
        flow.deficit = 0;
    }
    else
    {
        Backlog& backlog = m_heap[flow.position];
        backlog.bytes -= p.size;
        --backlog.packets;
        SiftDown(flow.position);
    }
    return Packet{f, slot, p.size, flow.deficit};
}

DrrScheduler::Slot
DrrScheduler::Arrive(FlowId f, uint32_t bytes, double weight)
{
    // The packet joins the tail of its flow's queue.
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
        // Newly backlogged: join the tail of ActiveList with the quantum of its first visit.
        flow.quantum =
            weight == 1.0 ? m_quantum // the common case needs no rounding
                          : static_cast<uint32_t>(
                                std::max(1.0, std::round(static_cast<double>(m_quantum) * weight)));
        flow.deficit = flow.quantum;
        Append(f);
        flow.position = static_cast<uint32_t>(m_heap.size());
        m_heap.push_back(Backlog{bytes, weight, 1, f});
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

DrrScheduler::Packet
DrrScheduler::Dequeue()
{
    NS_ABORT_MSG_IF(m_head == NONE, "DrrScheduler: Dequeue with no flow backlogged");
    for (;;)
    {
        Flow& head = m_flows[m_head];
        const uint32_t size = m_packets[head.head].size;
        if (size <= head.deficit)
        {
            // It fits: send it.
            head.deficit -= size;
            head.counters.sentPackets++;
            head.counters.sentBytes += size;
            return Remove(m_head, head.head);
        }
        // It does not: one more quantum, and the flow moves to the tail.
        head.deficit += head.quantum;
        m_head = head.next;
    }
}

DrrScheduler::Packet
DrrScheduler::Drop(bool fromHead)
{
    NS_ABORT_MSG_IF(m_heap.empty(), "DrrScheduler: Drop with no flow backlogged");
    const FlowId f = m_heap.front().flow;
    Flow& flow = m_flows[f];
    const Slot slot = fromHead ? flow.head : flow.tail;
    flow.counters.droppedPackets++;
    flow.counters.droppedBytes += m_packets[slot].size;
    return Remove(f, slot);
}

DrrScheduler::FlowId
DrrScheduler::Longest() const
{
    NS_ABORT_MSG_IF(m_heap.empty(), "DrrScheduler: Longest with no flow backlogged");
    return m_heap.front().flow;
}

DrrScheduler::FlowId
DrrScheduler::GetHead() const
{
    NS_ABORT_MSG_IF(m_head == NONE, "DrrScheduler: GetHead with no flow backlogged");
    return m_head;
}

uint64_t
DrrScheduler::GetDeficit(FlowId f) const
{
    return m_flows[f].deficit;
}

uint64_t
DrrScheduler::GetBytes(FlowId f) const
{
    const uint32_t position = m_flows[f].position;
    return position == NONE ? 0 : m_heap[position].bytes;
}

uint32_t
DrrScheduler::GetPackets(FlowId f) const
{
    const uint32_t position = m_flows[f].position;
    return position == NONE ? 0 : m_heap[position].packets;
}

uint32_t
DrrScheduler::GetQuantum(FlowId f) const
{
    return m_flows[f].quantum;
}

DrrScheduler::Counters
DrrScheduler::GetCounters(FlowId f) const
{
    return m_flows[f].counters;
}

uint32_t
DrrScheduler::GetFlowCount() const
{
    return static_cast<uint32_t>(m_flows.size());
}

std::size_t
DrrScheduler::GetSlotCapacity() const
{
    return m_packets.size();
}

uint32_t
DrrScheduler::GetPeakActiveFlows() const
{
    return m_peakActive;
}

std::size_t
DrrScheduler::GetFlowRecordBytes() const
{
    return m_flows.capacity() * sizeof(Flow);
}

std::size_t
DrrScheduler::GetHeapBytes() const
{
    return m_heap.capacity() * sizeof(Backlog);
}

} // namespace ns3
