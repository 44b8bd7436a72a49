/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "token-bucket-meter.h"

#include "ns3/abort.h"

namespace ns3
{

namespace
{

/**
 * Stop the program unless the profile is valid.
 * \param rate the profile rate
 * \param bucket the bucket size
 * \return the bucket size
 */
uint32_t
CheckedBucket(DataRate rate, uint32_t bucket)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "TokenBucketMeter: the rate must be > 0 bit/s");
    NS_ABORT_MSG_IF(bucket == 0 || bucket > TokenBucket::MAX_SIZE,
                    "TokenBucketMeter: the bucket size must be in [1, "
                        << TokenBucket::MAX_SIZE << "] bytes, got " << bucket);
    return bucket;
}

} // namespace

TokenBucketMeter::TokenBucketMeter(DataRate rate, uint32_t bucket, Time now)
    : m_bucket(rate, CheckedBucket(rate, bucket), now)
{
}

TrafficMeter::Color
TokenBucketMeter::Meter(Time now, uint32_t bytes, Color color)
{
    m_bucket.Refill(now);
    if (color != GREEN)
    {
        return color; // arrived OUT (colour-aware): never promoted, takes no tokens
    }
    if (m_bucket.Holds(bytes))
    {
        m_bucket.Take(bytes);
        return GREEN; // IN
    }
    return YELLOW; // OUT
}

double
TokenBucketMeter::GetTokens() const
{
    return m_bucket.GetTokens();
}

} // namespace ns3
