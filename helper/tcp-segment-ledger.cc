/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-segment-ledger.h"

#include <algorithm>
#include <iterator>

namespace ns3
{

uint32_t
TcpSegmentLedger::Send(uint32_t begin, uint32_t end)
{
    const uint32_t resent = begin < m_highSent ? std::min(end, m_highSent) - begin : 0;
    m_highSent = std::max(m_highSent, end);
    return resent;
}

uint32_t
TcpSegmentLedger::Deliver(uint32_t begin, uint32_t end)
{
    if (begin >= end)
    {
        return 0;
    }
    // The first range that may touch [begin, end): the last one starting at or before begin.
    auto it = m_delivered.upper_bound(begin);
    if (it != m_delivered.begin() && std::prev(it)->second >= begin)
    {
        --it;
    }
    uint32_t duplicate = 0;
    uint32_t mergedBegin = begin;
    uint32_t mergedEnd = end;
    // Absorb every range that overlaps or abuts [begin, end), counting the overlap.
    while (it != m_delivered.end() && it->first <= end)
    {
        const uint32_t overlapBegin = std::max(begin, it->first);
        const uint32_t overlapEnd = std::min(end, it->second);
        if (overlapEnd > overlapBegin)
        {
            duplicate += overlapEnd - overlapBegin;
        }
        mergedBegin = std::min(mergedBegin, it->first);
        mergedEnd = std::max(mergedEnd, it->second);
        it = m_delivered.erase(it);
    }
    m_delivered.emplace(mergedBegin, mergedEnd);
    return duplicate;
}

std::size_t
TcpSegmentLedger::GetDeliveredRanges() const
{
    return m_delivered.size();
}

} // namespace ns3
