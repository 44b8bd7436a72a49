/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "srr-scheduler.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

SrrScheduler::SrrScheduler()
    : m_nonEmpty(0),
      m_position(0),
      m_passes(0),
      m_column(0),
      m_next(NONE),
      m_visiting(NONE),
      m_quantum(1)
{
}

void
SrrScheduler::Reset(uint32_t flows, uint32_t quantum)
{
    NS_ABORT_MSG_IF(quantum == 0, "SrrScheduler: the quantum must be >= 1 byte");
    m_flows.Reset(flows);
    m_columns = std::vector<Column>(ORDER);
    m_nonEmpty = 0;
    m_position = 0;
    m_passes = 0;
    m_column = 0;
    m_next = NONE;
    m_visiting = NONE;
    m_quantum = quantum;
}

uint32_t
SrrScheduler::IntegerWeight(double weight)
{
    const double rounded = std::round(weight);
    if (!(rounded >= 1.0))
    {
        return 1;
    }
    return rounded >= 4294967295.0 ? UINT32_MAX : static_cast<uint32_t>(rounded);
}

uint32_t
SrrScheduler::WssTerm(uint64_t position)
{
    NS_ABORT_MSG_IF(position == 0, "SrrScheduler: WSS positions start at 1");
    uint32_t term = 1;
    for (; (position & 1) == 0; position >>= 1)
    {
        ++term;
    }
    return term;
}

uint32_t
SrrScheduler::GetOrder() const
{
    uint32_t order = 0;
    for (uint32_t bits = m_nonEmpty; bits != 0; bits >>= 1)
    {
        ++order;
    }
    return order;
}

void
SrrScheduler::Join(FlowId f)
{
    for (uint32_t bits = m_flows[f].weight; bits != 0; bits &= bits - 1)
    {
        const auto j = static_cast<uint32_t>(__builtin_ctz(bits));
        Column& column = m_columns[j];
        if (column.entries.empty())
        {
            column.entries.resize(m_flows.GetFlowCount());
        }
        // In the column being scanned, f waits for the column's next turn (Guo's SRR, and ns-2's
        // add_to_WM): it goes just above the scan position, the flow being visited or else the
        // next to visit, which this turn has passed. Elsewhere, and in a column whose turn is
        // over, it joins the bottom.
        const FlowId below = j != m_column ? NONE : (m_visiting != NONE ? m_visiting : m_next);
        Entry& entry = column.entries[f];
        entry.next = below;
        entry.prev = below == NONE ? column.bottom : column.entries[below].prev;
        (entry.prev == NONE ? column.top : column.entries[entry.prev].next) = f;
        (below == NONE ? column.bottom : column.entries[below].prev) = f;
        m_nonEmpty |= 1U << j;
    }
}

void
SrrScheduler::Leave(FlowId f)
{
    if (m_visiting == f)
    {
        m_visiting = NONE;
    }
    for (uint32_t bits = m_flows[f].weight; bits != 0; bits &= bits - 1)
    {
        const auto j = static_cast<uint32_t>(__builtin_ctz(bits));
        Column& column = m_columns[j];
        Entry& entry = column.entries[f];
        if (j == m_column && m_next == f)
        {
            m_next = entry.next;
        }
        (entry.prev == NONE ? column.top : column.entries[entry.prev].next) = entry.next;
        (entry.next == NONE ? column.bottom : column.entries[entry.next].prev) = entry.prev;
        entry = Entry{};
        if (column.top == NONE)
        {
            m_nonEmpty &= ~(1U << j);
        }
    }
}

SrrScheduler::Packet
SrrScheduler::Left(Packet p)
{
    // Empty: leave the matrix; the deficit is reset.
    return perflow::Left(m_flows, p, [this](FlowId f) { Leave(f); });
}

void
SrrScheduler::NextTerm()
{
    // The next position after m_position whose term's column has flows: for column j, the
    // positions with 31 - j trailing zero bits, i.e. the odd multiples of 2^(31 - j). Positions
    // of the next pass are counted on from LAST_POSITION.
    uint64_t best = UINT64_MAX;
    uint32_t bestColumn = 0;
    for (uint32_t bits = m_nonEmpty; bits != 0; bits &= bits - 1)
    {
        const auto j = static_cast<uint32_t>(__builtin_ctz(bits));
        const uint32_t zeros = ORDER - 1 - j;
        uint64_t next = (((m_position >> zeros) + 1) | 1) << zeros;
        if (next > LAST_POSITION)
        {
            next = (uint64_t{1} << zeros) + LAST_POSITION; // its first term in the next pass
        }
        if (next < best)
        {
            best = next;
            bestColumn = j;
        }
    }
    NS_ABORT_MSG_IF(best == UINT64_MAX, "SrrScheduler: no column has flows");
    if (best > LAST_POSITION)
    {
        best -= LAST_POSITION;
        ++m_passes;
    }
    m_position = best;
    m_column = bestColumn;
    m_next = m_columns[bestColumn].top;
}

SrrScheduler::Slot
SrrScheduler::Arrive(FlowId f, uint32_t bytes, double weight)
{
    const bool idle = !m_flows.IsBacklogged(f);
    const Slot slot = m_flows.Push(f, bytes, weight);
    if (idle)
    {
        // Newly backlogged: its row of the Weight Matrix is its integer weight in binary.
        Flow& flow = m_flows[f];
        flow.weight = IntegerWeight(weight);
        flow.deficit = 0;
        Join(f);
    }
    return slot;
}

SrrScheduler::Packet
SrrScheduler::Dequeue()
{
    NS_ABORT_MSG_IF(m_flows.Empty(), "SrrScheduler: Dequeue with no flow backlogged");
    for (;;)
    {
        if (m_visiting == NONE)
        {
            // A visit: the next flow of the column, else of the next term's column.
            if (m_next == NONE)
            {
                NextTerm();
            }
            m_visiting = m_next;
            m_next = m_columns[m_column].entries[m_visiting].next;
            m_flows[m_visiting].deficit += m_quantum;
        }
        const FlowId f = m_visiting;
        Flow& flow = m_flows[f];
        const uint32_t size = m_flows.HeadSize(f);
        if (size <= flow.deficit)
        {
            // It fits: send it.
            flow.deficit -= size;
            return Left(m_flows.Send(f));
        }
        // It does not: the visit ends, the deficit carries over.
        m_visiting = NONE;
    }
}

SrrScheduler::Packet
SrrScheduler::Drop(bool fromHead)
{
    NS_ABORT_MSG_IF(m_flows.Empty(), "SrrScheduler: Drop with no flow backlogged");
    return Left(m_flows.DropFromLongest(fromHead));
}

FlowStateSize
SrrScheduler::GetStateSize() const
{
    FlowStateSize size = m_flows.GetStateSize();
    for (const Column& column : m_columns)
    {
        size.bucketBytes += column.entries.capacity() * sizeof(Entry);
    }
    return size;
}

} // namespace ns3
