/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "token-bucket.h"

#include "ns3/abort.h"

namespace ns3
{

namespace
{

/// Refill saturates here: more than any bucket holds (MAX_SIZE x UNITS_PER_BYTE < 2^63).
constexpr uint64_t ACCRUAL_LIMIT = 1ULL << 63;

static_assert(uint64_t{TokenBucket::MAX_SIZE} * TokenBucket::UNITS_PER_BYTE < ACCRUAL_LIMIT,
              "a full bucket fits below the accrual limit");

} // namespace

TokenBucket::TokenBucket(DataRate rate, uint32_t size, Time now)
    : m_rate(rate.GetBitRate()),
      m_size(size),
      m_capacity(uint64_t{size} * UNITS_PER_BYTE),
      m_tokens(m_capacity),
      m_last(now.GetNanoSeconds())
{
    NS_ABORT_MSG_IF(size > MAX_SIZE,
                    "TokenBucket: size " << size << " B exceeds the largest, " << MAX_SIZE << " B");
}

uint64_t
TokenBucket::Refill(Time now)
{
    const int64_t t = now.GetNanoSeconds();
    NS_ABORT_MSG_IF(t < m_last,
                    "TokenBucket: time went backwards, from " << m_last << " ns to " << t << " ns");
    const auto elapsed = static_cast<uint64_t>(t - m_last);
    m_last = t;
    // rate [bit/s] x elapsed [ns] = tokens in units of 10^-9 bit, saturated.
    uint64_t accrued = 0;
    if (m_rate > 0)
    {
        accrued = elapsed > ACCRUAL_LIMIT / m_rate ? ACCRUAL_LIMIT : m_rate * elapsed;
    }
    const uint64_t room = m_capacity - m_tokens;
    if (accrued <= room)
    {
        m_tokens += accrued;
        return 0;
    }
    m_tokens = m_capacity;
    return accrued - room;
}

void
TokenBucket::Add(uint64_t units)
{
    const uint64_t room = m_capacity - m_tokens;
    m_tokens = units <= room ? m_tokens + units : m_capacity;
}

bool
TokenBucket::Holds(uint32_t bytes) const
{
    return bytes <= m_size && uint64_t{bytes} * UNITS_PER_BYTE <= m_tokens;
}

void
TokenBucket::Take(uint32_t bytes)
{
    NS_ABORT_MSG_UNLESS(Holds(bytes),
                        "TokenBucket: taking " << bytes << " B from a bucket holding "
                                               << GetTokens() << " B");
    m_tokens -= uint64_t{bytes} * UNITS_PER_BYTE;
}

double
TokenBucket::GetTokens() const
{
    return static_cast<double>(m_tokens) / UNITS_PER_BYTE;
}

uint64_t
TokenBucket::GetUnits() const
{
    return m_tokens;
}

uint32_t
TokenBucket::GetSize() const
{
    return m_size;
}

} // namespace ns3
