/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "vd-rounds.h"

#include "ns3/abort.h"

#include <cmath>
#include <limits>

namespace ns3
{

namespace
{

/**
 * Take a slot of a pool: a free one if any, else a new one at the end (the pool keeps its peak
 * size, so nothing is allocated once warmed up).
 * \param pool the pool
 * \param free indices of its free slots
 * \return the slot's index
 */
template <typename T>
uint32_t
TakeSlot(std::vector<T>& pool, std::vector<uint32_t>& free)
{
    if (free.empty())
    {
        pool.emplace_back();
        return static_cast<uint32_t>(pool.size() - 1);
    }
    const uint32_t index = free.back();
    free.pop_back();
    return index;
}

} // namespace

VdRounds::VdRounds()
    : m_current(0),
      m_last(0),
      m_bytes(0),
      m_packets(0),
      m_maxPacketSize(1),
      m_bufferSize(1),
      m_unit(BYTES),
      m_returning(FRESH),
      m_kept(0)
{
    Reset(1, 1, 1);
}

void
VdRounds::Reset(uint32_t rounds,
                uint32_t maxPacketSize,
                uint64_t bufferSize,
                Unit unit,
                Returning returning)
{
    NS_ABORT_MSG_IF(rounds == 0, "VdRounds: the number of rounds M must be >= 1");
    NS_ABORT_MSG_IF(maxPacketSize == 0, "VdRounds: the maximum packet size L_M must be >= 1 byte");
    NS_ABORT_MSG_IF(bufferSize == 0, "VdRounds: the buffer size B must be >= 1");
    m_q.assign(rounds, Fifo{});
    m_current = 0;
    m_last = 0;
    m_bytes = 0;
    m_packets = 0;
    m_maxPacketSize = maxPacketSize;
    m_bufferSize = bufferSize;
    m_unit = unit;
    m_returning = returning;
    m_flows.clear();
    m_freeFlows.clear();
    m_index.Clear();
    m_keptFlows.clear();
    m_kept = 0;
    m_records.clear();
    m_freeRecords.clear();
}

uint64_t
VdRounds::MinRounds(uint64_t bufferSize, uint32_t quantum)
{
    NS_ABORT_MSG_IF(quantum == 0, "VdRounds: the quantum must be >= 1 byte");
    return (bufferSize + quantum - 1) / quantum + 1;
}

inline void
VdRounds::StartRound(Flow& f) const
{
    // Fig. 2 enqueue (7)-(8), dequeue (5)-(6): "if (f[i].round != current and f[i].deficit < 0)
    // f[i].deficit += w_i L_M". The quantum is credited once per round; here round_i records that
    // it was (instead of the sign of deficit_i), and a flow whose packets needed several rounds'
    // quanta gets one per round begun.
    if (f.round != m_current)
    {
        f.deficit += static_cast<int64_t>(m_current - f.round) * f.quantum;
        f.round = m_current;
    }
}

inline uint32_t
VdRounds::Find(FlowId i) const
{
    const uint32_t* index = m_index.Find(i);
    return index ? *index : NIL;
}

inline uint32_t
VdRounds::Activate(const Flow& state, const VdFlowTable<uint32_t>::Position& position)
{
    const uint32_t index = TakeSlot(m_flows, m_freeFlows);
    m_flows[index] = state;
    m_index.InsertAt(position, state.id) = index;
    return index;
}

inline void
VdRounds::Deactivate(uint32_t index)
{
    m_index.Erase(m_flows[index].id);
    m_freeFlows.push_back(index); // its state is overwritten when the slot is taken again
}

inline void
VdRounds::Release(uint32_t index)
{
    if (m_returning == KEEP && m_flows[index].round == m_current)
    {
        m_keptFlows.push_back(index);
        ++m_kept;
        return;
    }
    Deactivate(index);
}

void
VdRounds::ForgetKept()
{
    for (const uint32_t index : m_keptFlows)
    {
        // Skip flows that returned, and repeats: a flow kept, returned and kept again is listed
        // twice, and its state is gone after the first.
        const Flow& f = m_flows[index];
        if (f.packets == 0 && Find(f.id) == index)
        {
            Deactivate(index);
            --m_kept;
        }
    }
    m_keptFlows.clear();
}

inline void
VdRounds::PushBack(uint32_t index, uint32_t slot)
{
    Fifo& q = m_q[slot];
    Record& r = m_records[index];
    r.prev = q.tail;
    r.next = NIL;
    if (q.tail == NIL)
    {
        q.head = index;
    }
    else
    {
        m_records[q.tail].next = index;
    }
    q.tail = index;
    ++q.packets;
}

inline void
VdRounds::Unlink(uint32_t index, uint32_t slot)
{
    Fifo& q = m_q[slot];
    const Record& r = m_records[index];
    if (r.prev == NIL)
    {
        q.head = r.next;
    }
    else
    {
        m_records[r.prev].next = r.next;
    }
    if (r.next == NIL)
    {
        q.tail = r.prev;
    }
    else
    {
        m_records[r.next].prev = r.prev;
    }
    --q.packets;
}

VdRounds::Verdict
VdRounds::Enqueue(FlowId i, uint32_t size, double weight, uint64_t* round, uint32_t* slot)
{
    // (1) i = p.flowid: given by the caller.
    const VdFlowTable<uint32_t>::Position position = m_index.Locate(i);
    uint32_t index = position.value ? *position.value : NIL;
    Flow fresh;
    if (index == NIL)
    {
        // (2)-(5) A new flow: bytes = 0, deficit = 0, round = current. Its state is allocated
        // only if the packet is placed.
        fresh.id = i;
        fresh.round = m_current;
        fresh.quantum = QuantumOf(weight);
    }
    else
    {
        // (6)-(8) If this is a new round for i, credit its quantum. (A kept flow, KEEP, was
        // credited in the current round: nothing changes.)
        StartRound(m_flows[index]);
    }
    const Flow& f = index == NIL ? fresh : m_flows[index];

    // (9) Equation (3): pos = current + ceil((bytes_i - deficit_i + size) / (w_i L_M)) - 1.
    // The numerator is > 0 except for a zero-size packet of a new flow, which fits at once.
    const int64_t need = static_cast<int64_t>(f.bytes) - f.deficit + size;
    const uint64_t rounds =
        need > 0 ? (static_cast<uint64_t>(need) + f.quantum - 1) / f.quantum : 1;
    const uint64_t pos = m_current + rounds - 1;

    // (12)-(16) for a packet that would overflow the buffer from the tail of the last non-empty
    // round: drop() would take it straight back.
    const bool overflows =
        m_unit == BYTES ? m_bytes + size > m_bufferSize : uint64_t{m_packets} + 1 > m_bufferSize;
    if (overflows && (m_packets == 0 || pos >= m_last))
    {
        return OVER_LIMIT;
    }
    // A round M or more rounds ahead would wrap around onto a round still in use.
    if (pos - m_current >= m_q.size())
    {
        return BEYOND_LAST_ROUND;
    }

    if (index == NIL)
    {
        index = Activate(fresh, position);
    }
    else if (m_flows[index].packets == 0)
    {
        --m_kept; // a kept flow returns
    }
    // (10)-(11) "if (q[pos] is empty) last = pos": pos becomes the last non-empty round. (When
    // packets larger than w_i L_M leave empty rounds below last, q[pos] may be one of them.)
    if (m_packets == 0 || pos > m_last)
    {
        m_last = pos;
    }
    // (12) Insert p at q[pos].
    const uint32_t record = TakeSlot(m_records, m_freeRecords);
    m_records[record].flow = index;
    m_records[record].size = size;
    PushBack(record, SlotOf(pos));
    // (13)-(14)
    Flow& g = m_flows[index];
    NS_ABORT_MSG_IF(g.bytes > UINT32_MAX - size,
                    "VdRounds: flow " << g.id << " would queue more than 4294967295 bytes, the "
                                      << "most an ns-3 queue counts");
    g.bytes += size;
    ++g.packets;
    m_bytes += size;
    ++m_packets;
    *round = pos;
    if (slot)
    {
        *slot = record;
    }
    return QUEUED;
}

VdRounds::Packet
VdRounds::Dequeue()
{
    NS_ABORT_MSG_IF(m_packets == 0, "VdRounds: Dequeue with no packet queued");
    // Rounds in which no queued packet fits pass at once: DRR's visits that only add quanta.
    // Only packets larger than w_i L_M leave such rounds.
    if (m_q[SlotOf(m_current)].packets == 0)
    {
        // (Also the current round, when Drop took its last packet.)
        while (m_q[SlotOf(m_current)].packets == 0)
        {
            ++m_current;
        }
        if (!m_keptFlows.empty())
        {
            ForgetKept();
        }
    }
    // (1) p = q[current].head
    const uint32_t slot = SlotOf(m_current);
    const uint32_t record = m_q[slot].head;
    Unlink(record, slot);
    const Record p = m_records[record];
    m_freeRecords.push_back(record);
    // (2) i = p.flowid
    Flow& f = m_flows[p.flow];
    // (3)-(4)
    f.bytes -= p.size;
    --f.packets;
    m_bytes -= p.size;
    --m_packets;
    // (5)-(6) If this is a new round for i, credit its quantum; (8) round_i = current.
    StartRound(f);
    // (7)
    f.deficit -= p.size;
    const Packet sent{f.id, p.size, m_current, f.deficit, record};
    // Nothing of i is left: its state goes (FRESH: its next packet starts a new flow) or is kept
    // while this round lasts (KEEP).
    if (f.packets == 0)
    {
        Release(p.flow);
    }
    // (9)-(10)
    if (m_q[slot].packets == 0)
    {
        ++m_current;
        if (!m_keptFlows.empty())
        {
            ForgetKept();
        }
    }
    // (11) return p
    return sent;
}

VdRounds::Packet
VdRounds::Drop()
{
    NS_ABORT_MSG_IF(m_packets == 0, "VdRounds: Drop with no packet queued");
    // (1) p = q[last].tail
    const uint32_t slot = SlotOf(m_last);
    const uint32_t record = m_q[slot].tail;
    Unlink(record, slot);
    const Record p = m_records[record];
    m_freeRecords.push_back(record);
    // (2)-(4)
    Flow& f = m_flows[p.flow];
    f.bytes -= p.size;
    --f.packets;
    m_bytes -= p.size;
    --m_packets;
    const Packet dropped{f.id, p.size, m_last, f.deficit, record};
    // (5)-(6) If q[last] is empty, last = last - 1 (and on past rounds left empty by packets
    // larger than w_i L_M).
    while (m_packets > 0 && m_q[SlotOf(m_last)].packets == 0)
    {
        --m_last;
    }
    if (f.packets == 0)
    {
        Release(p.flow);
    }
    // (7) delete p: the caller's.
    return dropped;
}

uint64_t
VdRounds::GetLast() const
{
    return m_last;
}

uint32_t
VdRounds::GetRounds() const
{
    return static_cast<uint32_t>(m_q.size());
}

uint32_t
VdRounds::GetMaxPacketSize() const
{
    return m_maxPacketSize;
}

uint64_t
VdRounds::GetBufferSize() const
{
    return m_bufferSize;
}

void
VdRounds::SetBufferSize(uint64_t bufferSize, Unit unit)
{
    NS_ABORT_MSG_IF(bufferSize == 0, "VdRounds: the buffer size B must be >= 1");
    m_bufferSize = bufferSize;
    m_unit = unit;
}

VdRounds::Unit
VdRounds::GetUnit() const
{
    return m_unit;
}

VdRounds::Returning
VdRounds::GetReturning() const
{
    return m_returning;
}

uint64_t
VdRounds::GetBytes() const
{
    return m_bytes;
}

uint32_t
VdRounds::GetPackets() const
{
    return m_packets;
}

uint32_t
VdRounds::GetRoundPackets(uint64_t round) const
{
    return m_q[SlotOf(round)].packets;
}

bool
VdRounds::IsActive(FlowId i) const
{
    const uint32_t index = Find(i);
    return index != NIL && m_flows[index].packets > 0;
}

uint64_t
VdRounds::GetFlowBytes(FlowId i) const
{
    const uint32_t index = Find(i);
    return index == NIL ? 0 : m_flows[index].bytes;
}

uint32_t
VdRounds::GetFlowPackets(FlowId i) const
{
    const uint32_t index = Find(i);
    return index == NIL ? 0 : m_flows[index].packets;
}

int64_t
VdRounds::GetDeficit(FlowId i) const
{
    const uint32_t index = Find(i);
    return index == NIL ? 0 : m_flows[index].deficit;
}

uint64_t
VdRounds::GetFlowRound(FlowId i) const
{
    const uint32_t index = Find(i);
    return index == NIL ? m_current : m_flows[index].round;
}

uint32_t
VdRounds::GetQuantum(FlowId i) const
{
    const uint32_t index = Find(i);
    return index == NIL ? 0 : m_flows[index].quantum;
}

std::size_t
VdRounds::GetFlowCapacity() const
{
    return m_flows.size();
}

std::size_t
VdRounds::GetFlowTableSize() const
{
    return m_index.GetSlots();
}

std::size_t
VdRounds::GetFlowStateBytes() const
{
    return m_flows.capacity() * sizeof(Flow) +
           m_index.GetSlots() * VdFlowTable<uint32_t>::SlotBytes();
}

} // namespace ns3
