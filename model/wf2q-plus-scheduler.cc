/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wf2q-plus-scheduler.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

// TagHeap: a 4-ary min-heap; the children of position i are 4i+1 .. 4i+4.

void
Wf2qPlusScheduler::TagHeap::Reset(uint32_t flows)
{
    m_entries.clear();
    m_position.assign(flows, NONE);
}

inline void
Wf2qPlusScheduler::TagHeap::Place(uint32_t i, const Entry& e)
{
    m_entries[i] = e;
    m_position[e.flow] = i;
}

inline void
Wf2qPlusScheduler::TagHeap::SiftUp(uint32_t i, const Entry& e)
{
    while (i != 0)
    {
        const uint32_t parent = (i - 1) / 4;
        if (!Before(e, m_entries[parent]))
        {
            break;
        }
        Place(i, m_entries[parent]);
        i = parent;
    }
    Place(i, e);
}

inline void
Wf2qPlusScheduler::TagHeap::SiftDown(uint32_t i, const Entry& e)
{
    const auto n = static_cast<uint32_t>(m_entries.size());
    for (;;)
    {
        const uint32_t first = 4 * i + 1;
        if (first >= n)
        {
            break;
        }
        const uint32_t last = std::min(first + 4, n);
        uint32_t least = first;
        for (uint32_t child = first + 1; child < last; ++child)
        {
            if (Before(m_entries[child], m_entries[least]))
            {
                least = child;
            }
        }
        if (!Before(m_entries[least], e))
        {
            break;
        }
        Place(i, m_entries[least]);
        i = least;
    }
    Place(i, e);
}

void
Wf2qPlusScheduler::TagHeap::Push(FlowId f, double key)
{
    m_entries.emplace_back();
    SiftUp(static_cast<uint32_t>(m_entries.size() - 1), Entry{key, f});
}

void
Wf2qPlusScheduler::TagHeap::Update(FlowId f, double key)
{
    const uint32_t i = m_position[f];
    const Entry e{key, f};
    if (i != 0 && Before(e, m_entries[(i - 1) / 4]))
    {
        SiftUp(i, e);
    }
    else
    {
        SiftDown(i, e);
    }
}

void
Wf2qPlusScheduler::TagHeap::Erase(FlowId f)
{
    const uint32_t i = m_position[f];
    m_position[f] = NONE;
    const Entry last = m_entries.back();
    m_entries.pop_back();
    if (last.flow == f)
    {
        return; // it was the last entry
    }
    // The last entry fills the hole, up or down from there.
    if (i != 0 && Before(last, m_entries[(i - 1) / 4]))
    {
        SiftUp(i, last);
    }
    else
    {
        SiftDown(i, last);
    }
}

// The scheduler

Wf2qPlusScheduler::Wf2qPlusScheduler()
    : m_virtualTime(0),
      m_inService(0),
      m_totalWeight(1),
      m_sumWeights(false)
{
}

void
Wf2qPlusScheduler::Reset(uint32_t flows, double totalWeight)
{
    NS_ABORT_MSG_UNLESS(totalWeight >= 0,
                        "Wf2qPlusScheduler: the total weight must be >= 0 (0: the sum of the "
                        "flows' weights), not "
                            << totalWeight);
    m_flows.Reset(flows);
    m_eligible.Reset(flows);
    m_waiting.Reset(flows);
    m_virtualTime = 0;
    m_inService = 0;
    m_sumWeights = totalWeight == 0;
    m_totalWeight = totalWeight;
}

inline void
Wf2qPlusScheduler::Enter(FlowId f)
{
    const Flow& flow = m_flows[f];
    if (flow.start <= m_virtualTime)
    {
        m_eligible.Push(f, flow.finish);
    }
    else
    {
        m_waiting.Push(f, flow.start);
    }
}

inline void
Wf2qPlusScheduler::Admit()
{
    while (!m_waiting.Empty() && m_waiting.TopKey() <= m_virtualTime)
    {
        const FlowId f = m_waiting.Top();
        m_waiting.Erase(f);
        m_eligible.Push(f, m_flows[f].finish);
    }
}

Wf2qPlusScheduler::Slot
Wf2qPlusScheduler::Arrive(FlowId f, uint32_t bytes, double weight)
{
    const bool idle = !m_flows.IsBacklogged(f);
    const Slot slot = m_flows.Push(f, bytes, weight);
    if (idle)
    {
        // Newly backlogged: S = max(F, V(a)), F = S + L / r.
        Flow& flow = m_flows[f];
        if (m_sumWeights && flow.cost == 0)
        {
            m_totalWeight += weight; // first seen since Reset
        }
        flow.cost = m_totalWeight / weight;
        flow.start = std::max(flow.finish, m_virtualTime);
        flow.finish = flow.start + bytes * flow.cost;
        Enter(f);
    }
    return slot;
}

Wf2qPlusScheduler::Packet
Wf2qPlusScheduler::Dequeue()
{
    NS_ABORT_MSG_IF(m_flows.Empty(), "Wf2qPlusScheduler: Dequeue with no flow backlogged");
    // The link is free: the packet sent before has left. V = max(V + W, min S); the smallest
    // start tag counts only if no flow is eligible (an eligible one has S <= V).
    m_virtualTime += m_inService;
    if (m_eligible.Empty())
    {
        m_virtualTime = std::max(m_virtualTime, m_waiting.TopKey());
    }
    Admit();

    // The eligible flow with the smallest finish tag sends its head packet.
    const FlowId f = m_eligible.Top();
    Packet p = m_flows.Send(f);
    m_inService = p.size;
    Flow& flow = m_flows[f];
    if (m_flows.IsBacklogged(f))
    {
        // Its next packet: S = F, F = S + L / r.
        flow.start = flow.finish;
        flow.finish = flow.start + m_flows.HeadSize(f) * flow.cost;
        if (flow.start <= m_virtualTime)
        {
            m_eligible.Update(f, flow.finish);
        }
        else
        {
            m_eligible.Erase(f);
            m_waiting.Push(f, flow.start);
        }
    }
    else
    {
        m_eligible.Erase(f); // its finish tag stays, for S = max(F, V) when it returns
    }

    // V(t) >= min S at every instant: if no flow is eligible now, V jumps to the smallest
    // start tag (no work is done between the selection and this instant).
    if (m_eligible.Empty() && !m_waiting.Empty())
    {
        m_virtualTime = std::max(m_virtualTime, m_waiting.TopKey());
        Admit();
    }
    return p;
}

Wf2qPlusScheduler::Packet
Wf2qPlusScheduler::Drop(bool fromHead)
{
    NS_ABORT_MSG_IF(m_flows.Empty(), "Wf2qPlusScheduler: Drop with no flow backlogged");
    Packet p = m_flows.DropFromLongest(fromHead);
    const FlowId f = p.flow;
    Flow& flow = m_flows[f];
    if (!m_flows.IsBacklogged(f))
    {
        // Emptied: its lost packet is not charged; it returns with S = max(this start, V).
        flow.finish = flow.start;
        if (m_eligible.Contains(f))
        {
            m_eligible.Erase(f);
        }
        else
        {
            m_waiting.Erase(f);
        }
    }
    else if (fromHead)
    {
        // A new head packet with the same start tag: F = S + L / r.
        flow.finish = flow.start + m_flows.HeadSize(f) * flow.cost;
        if (m_eligible.Contains(f))
        {
            m_eligible.Update(f, flow.finish);
        }
    }
    return p;
}

FlowStateSize
Wf2qPlusScheduler::GetStateSize() const
{
    FlowStateSize size = m_flows.GetStateSize();
    size.activeFlowBytes += m_eligible.GetEntryBytes() + m_waiting.GetEntryBytes();
    size.bucketBytes += m_eligible.GetPositionBytes() + m_waiting.GetPositionBytes();
    return size;
}

} // namespace ns3
