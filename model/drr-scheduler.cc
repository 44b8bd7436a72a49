/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drr-scheduler.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

static_assert(sizeof(DrrScheduler::Counters) == 32, "four 64-bit counters");

DrrScheduler::DrrScheduler()
    : m_head(NONE),
      m_quantum(1)
{
}

void
DrrScheduler::Reset(uint32_t flows, uint32_t quantum)
{
    NS_ABORT_MSG_IF(quantum == 0, "DrrScheduler: the quantum must be >= 1 byte");
    m_flows.Reset(flows);
    m_head = NONE;
    m_quantum = quantum;
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
DrrScheduler::Left(Packet p)
{
    Flow& flow = m_flows[p.flow];
    if (flow.position == NONE)
    {
        // Empty: leave ActiveList; the deficit does not carry over to the next busy period.
        Unlink(p.flow);
        flow.deficit = 0;
    }
    p.deficit = flow.deficit;
    return p;
}

DrrScheduler::Slot
DrrScheduler::Arrive(FlowId f, uint32_t bytes, double weight)
{
    Flow& flow = m_flows[f];
    if (flow.position == NONE)
    {
        // Newly backlogged: join the tail of ActiveList with the quantum of its first visit.
        flow.quantum =
            weight == 1.0 ? m_quantum // the common case needs no rounding
                          : static_cast<uint32_t>(
                                std::max(1.0, std::round(static_cast<double>(m_quantum) * weight)));
        flow.deficit = flow.quantum;
        Append(f);
    }
    // The packet joins the tail of its flow's queue.
    return m_flows.Push(f, bytes, weight);
}

DrrScheduler::Packet
DrrScheduler::Dequeue()
{
    NS_ABORT_MSG_IF(m_head == NONE, "DrrScheduler: Dequeue with no flow backlogged");
    for (;;)
    {
        Flow& head = m_flows[m_head];
        const uint32_t size = m_flows.HeadSize(m_head);
        if (size <= head.deficit)
        {
            // It fits: send it.
            head.deficit -= size;
            return Left(m_flows.Send(m_head));
        }
        // It does not: one more quantum, and the flow moves to the tail.
        head.deficit += head.quantum;
        m_head = head.next;
    }
}

DrrScheduler::Packet
DrrScheduler::Drop(bool fromHead)
{
    NS_ABORT_MSG_IF(m_flows.Empty(), "DrrScheduler: Drop with no flow backlogged");
    return Left(m_flows.DropFromLongest(fromHead));
}

DrrScheduler::FlowId
DrrScheduler::Longest() const
{
    NS_ABORT_MSG_IF(m_flows.Empty(), "DrrScheduler: Longest with no flow backlogged");
    return m_flows.Longest();
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
    return m_flows.GetBytes(f);
}

uint32_t
DrrScheduler::GetPackets(FlowId f) const
{
    return m_flows.GetPackets(f);
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
    return m_flows.GetFlowCount();
}

std::size_t
DrrScheduler::GetSlotCapacity() const
{
    return m_flows.GetSlotCapacity();
}

uint32_t
DrrScheduler::GetPeakActiveFlows() const
{
    return m_flows.GetPeakActiveFlows();
}

std::size_t
DrrScheduler::GetFlowRecordBytes() const
{
    return m_flows.GetFlowRecordBytes();
}

std::size_t
DrrScheduler::GetHeapBytes() const
{
    return m_flows.GetHeapBytes();
}

} // namespace ns3
