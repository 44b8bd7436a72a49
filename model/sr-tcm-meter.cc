/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sr-tcm-meter.h"

#include "ns3/abort.h"

namespace ns3
{

namespace
{

/**
 * Stop the program unless the parameters are valid (RFC 2697 sec. 2).
 * \param cir committed information rate
 * \param cbs committed burst size
 * \param ebs excess burst size
 * \return cbs
 */
uint32_t
CheckedCbs(DataRate cir, uint32_t cbs, uint32_t ebs)
{
    NS_ABORT_MSG_IF(cir.GetBitRate() == 0, "SrTcmMeter: CIR must be > 0 bit/s");
    NS_ABORT_MSG_IF(cbs > TokenBucket::MAX_SIZE || ebs > TokenBucket::MAX_SIZE,
                    "SrTcmMeter: CBS and EBS must be in [0, "
                        << TokenBucket::MAX_SIZE << "] bytes, got CBS " << cbs << ", EBS " << ebs);
    NS_ABORT_MSG_IF(cbs == 0 && ebs == 0, "SrTcmMeter: CBS or EBS must be > 0 (RFC 2697)");
    return cbs;
}

} // namespace

SrTcmMeter::SrTcmMeter(DataRate cir, uint32_t cbs, uint32_t ebs, Time now)
    : m_c(cir, CheckedCbs(cir, cbs, ebs), now),
      m_e(DataRate(0), ebs, now)
{
}

TrafficMeter::Color
SrTcmMeter::Meter(Time now, uint32_t bytes, Color color)
{
    // Tokens: into C at the CIR; C's overflow into E; E's overflow is lost.
    m_e.Add(m_c.Refill(now));
    if (color == GREEN && m_c.Holds(bytes))
    {
        m_c.Take(bytes);
        return GREEN;
    }
    if (color != RED && m_e.Holds(bytes))
    {
        m_e.Take(bytes);
        return YELLOW;
    }
    return RED;
}

double
SrTcmMeter::GetCommittedTokens() const
{
    return m_c.GetTokens();
}

double
SrTcmMeter::GetExcessTokens() const
{
    return m_e.GetTokens();
}

} // namespace ns3
