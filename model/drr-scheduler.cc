/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drr-scheduler.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

DrrScheduler::DrrScheduler()
    : m_longest(ByWeightedBacklog{this}),
      m_quantum(1)
{
}

void
DrrScheduler::Reset(uint32_t flows, uint32_t quantum)
{
    NS_ABORT_MSG_IF(quantum == 0, "DrrScheduler: the quantum must be >= 1 byte");
    m_active.clear();
    m_longest.clear();
    m_flows = std::vector<Flow>(flows);
    m_quantum = quantum;
}

bool
DrrScheduler::ByWeightedBacklog::operator()(FlowId a, FlowId b) const
{
    const Flow& fa = scheduler->m_flows[a];
    const Flow& fb = scheduler->m_flows[b];
    // a.bytes / a.weight < b.bytes / b.weight, without dividing.
    return fa.bytes * fb.weight < fb.bytes * fa.weight;
}

DrrScheduler::FlowId
DrrScheduler::IdOf(const Flow& flow) const
{
    return static_cast<FlowId>(&flow - m_flows.data());
}

void
DrrScheduler::Arrive(FlowId f, uint32_t bytes, double weight)
{
    Flow& flow = m_flows[f];
    flow.bytes += bytes;
    ++flow.packets;
    if (flow.packets == 1)
    {
        // Newly backlogged: join the tail of ActiveList with the quantum of its first visit.
        flow.weight = weight;
        flow.quantum = static_cast<uint32_t>(
            std::max(1.0, std::round(static_cast<double>(m_quantum) * weight)));
        flow.deficit = flow.quantum;
        m_active.push_back(flow);
        flow.longest = m_longest.push(f);
    }
    else
    {
        m_longest.increase(flow.longest);
    }
}

void
DrrScheduler::Depart(FlowId f, uint32_t bytes)
{
    Flow& flow = m_flows[f];
    NS_ABORT_MSG_IF(flow.packets == 0 || flow.bytes < bytes,
                    "DrrScheduler: flow " << f << " cannot lose " << bytes << " bytes");
    if (flow.packets == 1)
    {
        // Empty: leave ActiveList; the deficit does not carry over to the next busy period.
        m_active.erase(m_active.iterator_to(flow));
        m_longest.erase(flow.longest);
        flow.packets = 0;
        flow.bytes = 0;
        flow.deficit = 0;
        return;
    }
    flow.bytes -= bytes;
    --flow.packets;
    m_longest.decrease(flow.longest);
}

DrrScheduler::FlowId
DrrScheduler::Longest() const
{
    return m_longest.top();
}

bool
DrrScheduler::Empty() const
{
    return m_active.empty();
}

uint32_t
DrrScheduler::GetActiveFlows() const
{
    return static_cast<uint32_t>(m_active.size());
}

DrrScheduler::FlowId
DrrScheduler::GetHead() const
{
    return IdOf(m_active.front());
}

uint64_t
DrrScheduler::GetDeficit(FlowId f) const
{
    return m_flows[f].deficit;
}

uint64_t
DrrScheduler::GetBytes(FlowId f) const
{
    return m_flows[f].bytes;
}

uint32_t
DrrScheduler::GetPackets(FlowId f) const
{
    return m_flows[f].packets;
}

uint32_t
DrrScheduler::GetQuantum(FlowId f) const
{
    return m_flows[f].quantum;
}

uint32_t
DrrScheduler::GetFlowCount() const
{
    return static_cast<uint32_t>(m_flows.size());
}

} // namespace ns3
