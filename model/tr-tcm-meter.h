/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TR_TCM_METER_H
#define TR_TCM_METER_H

#include "token-bucket.h"
#include "traffic-meter.h"

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief The Two Rate Three Color Marker's meter (trTCM, RFC 2698).
 *
 * Two buckets, P (PIR, size PBS) and C (CIR, size CBS), both full at the start, each filled at
 * its own rate up to its size (sec. 3.1). A packet of B bytes arriving with colour c
 * (sec. 3.2, 3.3):
 *  - RED if c is red or Tp < B;
 *  - else YELLOW if c is yellow or Tc < B; Tp -= B;
 *  - else GREEN; Tp -= B, Tc -= B.
 */
class TrTcmMeter : public TrafficMeter
{
  public:
    /**
     * \param cir committed information rate, > 0
     * \param cbs committed burst size in bytes, 1 .. TokenBucket::MAX_SIZE
     * \param pir peak information rate, >= cir
     * \param pbs peak burst size in bytes, 1 .. TokenBucket::MAX_SIZE
     * \param now when metering starts (both buckets are full then)
     */
    TrTcmMeter(DataRate cir, uint32_t cbs, DataRate pir, uint32_t pbs, Time now);

    Color Meter(Time now, uint32_t bytes, Color color) override;

    /// \return Tp, the tokens in the peak bucket, in bytes
    double GetPeakTokens() const;

    /// \return Tc, the tokens in the committed bucket, in bytes
    double GetCommittedTokens() const;

  private:
    TokenBucket m_p; //!< peak bucket: PIR, PBS
    TokenBucket m_c; //!< committed bucket: CIR, CBS
};

} // namespace ns3

#endif /* TR_TCM_METER_H */
