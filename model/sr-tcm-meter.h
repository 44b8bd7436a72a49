/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SR_TCM_METER_H
#define SR_TCM_METER_H

#include "token-bucket.h"
#include "traffic-meter.h"

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief The Single Rate Three Color Marker's meter (srTCM, RFC 2697).
 *
 * Two buckets, C (size CBS) and E (size EBS), both full at the start. Tokens arrive at the CIR
 * into C; what C cannot hold goes to E; what E cannot hold is lost (sec. 3.1). A packet of
 * B bytes arriving with colour c (sec. 3.2, 3.3):
 *  - GREEN if c is green and Tc >= B; Tc -= B;
 *  - else YELLOW if c is green or yellow and Te >= B; Te -= B;
 *  - else RED.
 */
class SrTcmMeter : public TrafficMeter
{
  public:
    /**
     * \param cir committed information rate, > 0
     * \param cbs committed burst size in bytes, 0 .. TokenBucket::MAX_SIZE
     * \param ebs excess burst size in bytes, 0 .. TokenBucket::MAX_SIZE; cbs + ebs > 0
     * \param now when metering starts (both buckets are full then)
     */
    SrTcmMeter(DataRate cir, uint32_t cbs, uint32_t ebs, Time now);

    Color Meter(Time now, uint32_t bytes, Color color) override;

    /// \return Tc, the tokens in the committed bucket, in bytes
    double GetCommittedTokens() const;

    /// \return Te, the tokens in the excess bucket, in bytes
    double GetExcessTokens() const;

  private:
    TokenBucket m_c; //!< committed bucket: CIR, CBS
    TokenBucket m_e; //!< excess bucket: fed by C's overflow, EBS
};

} // namespace ns3

#endif /* SR_TCM_METER_H */
