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
      m_quantum(1),
      m_trackLast(false),
      m_ticket(0)
{
}

void
DrrScheduler::Reset(uint32_t flows, uint32_t quantum, bool trackLast)
{
    NS_ABORT_MSG_IF(quantum == 0, "DrrScheduler: the quantum must be >= 1 byte");
    m_flows.Reset(flows);
    m_head = NONE;
    m_quantum = quantum;
    m_trackLast = trackLast;
    m_last.clear();
    m_lastOf.assign(trackLast ? flows : 0, NONE);
    m_ticket = 0;
}

inline DrrScheduler::Packet
DrrScheduler::Left(Packet p)
{
    // Empty: leave ActiveList (and Last); the deficit is reset.
    return perflow::Left(m_flows, p, [this](FlowId f) {
        perflow::RingUnlink(m_flows, m_head, f);
        if (m_trackLast)
        {
            LastLeave(f);
        }
    });
}

DrrScheduler::Slot
DrrScheduler::Arrive(FlowId f, uint32_t bytes, double weight)
{
    Flow& flow = m_flows[f];
    const bool idle = flow.position == NONE;
    if (idle)
    {
        // Newly backlogged: join the tail of ActiveList with the quantum of its first visit.
        flow.quantum =
            weight == 1.0 ? m_quantum // the common case needs no rounding
                          : static_cast<uint32_t>(
                                std::max(1.0, std::round(static_cast<double>(m_quantum) * weight)));
        flow.deficit = flow.quantum;
        perflow::RingAppend(m_flows, m_head, f);
    }
    // The packet joins the tail of its flow's queue.
    const Slot slot = m_flows.Push(f, bytes, weight);
    if (m_trackLast)
    {
        if (idle)
        {
            LastJoin(f);
        }
        else
        {
            LastUpdate(f);
        }
    }
    return slot;
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
        if (m_trackLast)
        {
            // One visit fewer to go, and the last place in ActiveList: its order among the
            // other flows' entries stays, so its entry changes in place.
            LastEntry& entry = m_last[m_lastOf[m_head]];
            --entry.visits;
            entry.ticket = ++m_ticket;
        }
        m_head = head.next;
    }
}

DrrScheduler::Packet
DrrScheduler::Drop(bool fromHead)
{
    NS_ABORT_MSG_IF(m_flows.Empty(), "DrrScheduler: Drop with no flow backlogged");
    const Packet p = Left(m_flows.DropFromLongest(fromHead));
    if (m_trackLast && m_flows.IsBacklogged(p.flow))
    {
        LastUpdate(p.flow);
    }
    return p;
}

DrrScheduler::Packet
DrrScheduler::DropLast()
{
    const FlowId f = GetLast();
    // Its tail: its newest packet, so no other packet's visit changes.
    const Packet p = Left(m_flows.DropFrom(f, false));
    if (m_flows.IsBacklogged(f))
    {
        LastUpdate(f);
    }
    return p;
}

DrrScheduler::FlowId
DrrScheduler::GetLast() const
{
    NS_ABORT_MSG_UNLESS(m_trackLast, "DrrScheduler: DropLast and GetLast need Reset's trackLast");
    NS_ABORT_MSG_IF(m_last.empty(), "DrrScheduler: GetLast with no flow backlogged");
    return m_last.front().flow;
}

inline uint64_t
DrrScheduler::Visits(FlowId f) const
{
    // v_f = 1 + ceil(max(0, B_f - DC_f) / Q_f): the next visit sends up to DC_f, each later one
    // up to Q_f more.
    const Flow& flow = m_flows[f];
    const uint64_t bytes = m_flows.GetBytes(f);
    return bytes <= flow.deficit ? 1 : 1 + (bytes - flow.deficit + flow.quantum - 1) / flow.quantum;
}

void
DrrScheduler::LastJoin(FlowId f)
{
    // It joined the tail of ActiveList: the largest ticket.
    const auto i = static_cast<uint32_t>(m_last.size());
    m_last.push_back(LastEntry{Visits(f), ++m_ticket, f});
    m_lastOf[f] = i;
    LastSift(i);
}

void
DrrScheduler::LastUpdate(FlowId f)
{
    const uint32_t i = m_lastOf[f];
    m_last[i].visits = Visits(f);
    LastSift(i);
}

void
DrrScheduler::LastLeave(FlowId f)
{
    const uint32_t i = m_lastOf[f];
    const auto last = static_cast<uint32_t>(m_last.size() - 1);
    if (i != last)
    {
        LastSwap(i, last);
    }
    m_last.pop_back();
    m_lastOf[f] = NONE;
    if (i < m_last.size())
    {
        LastSift(i);
    }
}

void
DrrScheduler::LastSwap(uint32_t i, uint32_t j)
{
    std::swap(m_last[i], m_last[j]);
    m_lastOf[m_last[i].flow] = i;
    m_lastOf[m_last[j].flow] = j;
}

void
DrrScheduler::LastSift(uint32_t i)
{
    // Up while its parent empties earlier (tickets differ, so no two entries are equal).
    while (i != 0 && Earlier(m_last[(i - 1) / 2], m_last[i]))
    {
        LastSwap(i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
    // Down while a child empties later.
    const auto n = static_cast<uint32_t>(m_last.size());
    for (;;)
    {
        uint32_t later = i;
        for (uint32_t child = 2 * i + 1; child <= 2 * i + 2 && child < n; ++child)
        {
            if (Earlier(m_last[later], m_last[child]))
            {
                later = child;
            }
        }
        if (later == i)
        {
            return;
        }
        LastSwap(i, later);
        i = later;
    }
}

DrrScheduler::FlowId
DrrScheduler::GetHead() const
{
    NS_ABORT_MSG_IF(m_head == NONE, "DrrScheduler: GetHead with no flow backlogged");
    return m_head;
}

uint32_t
DrrScheduler::GetQuantum(FlowId f) const
{
    return m_flows[f].quantum;
}

} // namespace ns3
