/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TOKEN_BUCKET_METER_H
#define TOKEN_BUCKET_METER_H

#include "token-bucket.h"
#include "traffic-meter.h"

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief The two-colour token bucket marker of Assured Service (Clark and Fang 1998; Kim, Park
 * and Bahk, "A modified RIO...", sec. 3: "for each flow, a token bucket marker is attached").
 * The paper does not spell the marker out; this is the usual one.
 *
 * The bucket is full when the flow starts; tokens arrive at the profile rate up to the bucket
 * size. A packet that finds at least its size in tokens is IN (GREEN) and takes them; any other
 * packet is OUT (YELLOW, marked AFx2) and takes none. In colour-aware use, a packet that
 * arrives yellow or red keeps its colour (it is never promoted) and takes no tokens.
 *
 * So a source sending faster than the rate r for a time T gets r T + b bytes IN, less what is
 * left in the bucket once it is drained: under one packet when the bucket holds at least a
 * packet plus the tokens of one gap between packets (otherwise tokens overflow and are lost).
 */
class TokenBucketMeter : public TrafficMeter
{
  public:
    /**
     * \param rate the profile rate, > 0
     * \param bucket the bucket size in bytes, 1 .. TokenBucket::MAX_SIZE
     * \param now when metering starts (the bucket is full then)
     */
    TokenBucketMeter(DataRate rate, uint32_t bucket, Time now);

    Color Meter(Time now, uint32_t bytes, Color color) override;

    /// \return the tokens in the bucket, in bytes
    double GetTokens() const;

  private:
    TokenBucket m_bucket; //!< the profile's bucket
};

} // namespace ns3

#endif /* TOKEN_BUCKET_METER_H */
