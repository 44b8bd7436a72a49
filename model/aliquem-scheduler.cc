/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "aliquem-scheduler.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

AliquemScheduler::AliquemScheduler()
    : m_current(0),
      m_round(0),
      m_quantum(1),
      m_q(1),
      m_cut(0)
{
}

void
AliquemScheduler::Reset(uint32_t flows, uint32_t quantum, uint32_t q)
{
    NS_ABORT_MSG_IF(quantum == 0, "AliquemScheduler: the quantum must be >= 1 byte");
    NS_ABORT_MSG_IF(q == 0, "AliquemScheduler: the scaling factor q must be >= 1");
    m_flows.Reset(flows);
    m_lists.assign(std::size_t{q} + 1, NONE);
    m_current = 0;
    m_round = 0;
    m_quantum = quantum;
    m_q = q;
    m_cut = 0;
}

void
AliquemScheduler::Append(FlowId f, uint32_t list)
{
    m_flows[f].list = list;
    perflow::RingAppend(m_flows, m_lists[list], f);
}

void
AliquemScheduler::Unlink(FlowId f)
{
    Flow& flow = m_flows[f];
    perflow::RingUnlink(m_flows, m_lists[flow.list], f);
    flow.list = NONE;
}

void
AliquemScheduler::Schedule(FlowId f)
{
    Flow& flow = m_flows[f];
    const uint64_t size = m_flows.HeadSize(f);
    // The rounds f needs for its deficit to cover its head packet (size > DC here).
    uint64_t k = (size - flow.deficit + flow.quantum - 1) / flow.quantum;
    if (k > m_q)
    {
        k = m_q; // its quantum is below the largest packet / q: it will be scheduled again
        ++m_cut;
    }
    flow.deficit += k * flow.quantum;
    Append(f, static_cast<uint32_t>((m_current + k) % (m_q + 1)));
}

AliquemScheduler::Packet
AliquemScheduler::Left(Packet p)
{
    // Empty: leave its list; the deficit is reset.
    return perflow::Left(m_flows, p, [this](FlowId f) { Unlink(f); });
}

AliquemScheduler::Slot
AliquemScheduler::Arrive(FlowId f, uint32_t bytes, double weight)
{
    const bool idle = !m_flows.IsBacklogged(f);
    const Slot slot = m_flows.Push(f, bytes, weight);
    if (idle)
    {
        // Newly backlogged: phi = quantum x weight / q, and the list of the round it can send.
        Flow& flow = m_flows[f];
        const double phi = static_cast<double>(m_quantum) * weight / m_q;
        flow.quantum = static_cast<uint32_t>(std::max(1.0, std::round(phi)));
        flow.deficit = 0;
        Schedule(f);
    }
    return slot;
}

AliquemScheduler::Packet
AliquemScheduler::Dequeue()
{
    NS_ABORT_MSG_IF(m_flows.Empty(), "AliquemScheduler: Dequeue with no flow backlogged");
    for (;;)
    {
        while (m_lists[m_current] == NONE)
        {
            // The current round is over: the next list becomes current.
            m_current = m_current == m_q ? 0 : m_current + 1;
            ++m_round;
        }
        const FlowId f = m_lists[m_current];
        Flow& flow = m_flows[f];
        const uint32_t size = m_flows.HeadSize(f);
        if (size <= flow.deficit)
        {
            // It fits: send it.
            flow.deficit -= size;
            return Left(m_flows.Send(f));
        }
        // It does not: into the list of the round in which it will.
        Unlink(f);
        Schedule(f);
    }
}

AliquemScheduler::Packet
AliquemScheduler::Drop(bool fromHead)
{
    NS_ABORT_MSG_IF(m_flows.Empty(), "AliquemScheduler: Drop with no flow backlogged");
    return Left(m_flows.DropFromLongest(fromHead));
}

uint32_t
AliquemScheduler::GetRoundsAhead(FlowId f) const
{
    const uint32_t list = m_flows[f].list;
    NS_ABORT_MSG_IF(list == NONE, "AliquemScheduler: flow " << f << " is not backlogged");
    return (list + m_q + 1 - m_current) % (m_q + 1);
}

} // namespace ns3
