/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tr-tcm-meter.h"

#include "ns3/abort.h"

namespace ns3
{

namespace
{

/**
 * Stop the program unless the parameters are valid (RFC 2698 sec. 2).
 * \param cir committed information rate
 * \param cbs committed burst size
 * \param pir peak information rate
 * \param pbs peak burst size
 * \return pbs
 */
uint32_t
CheckedPbs(DataRate cir, uint32_t cbs, DataRate pir, uint32_t pbs)
{
    NS_ABORT_MSG_IF(cir.GetBitRate() == 0, "TrTcmMeter: CIR must be > 0 bit/s");
    NS_ABORT_MSG_IF(pir < cir,
                    "TrTcmMeter: PIR must be >= CIR (RFC 2698), got PIR " << pir << ", CIR "
                                                                          << cir);
    NS_ABORT_MSG_IF(
        cbs == 0 || cbs > TokenBucket::MAX_SIZE || pbs == 0 || pbs > TokenBucket::MAX_SIZE,
        "TrTcmMeter: CBS and PBS must be in [1, "
            << TokenBucket::MAX_SIZE << "] bytes (RFC 2698), got CBS " << cbs << ", PBS " << pbs);
    return pbs;
}

} // namespace

TrTcmMeter::TrTcmMeter(DataRate cir, uint32_t cbs, DataRate pir, uint32_t pbs, Time now)
    : m_p(pir, CheckedPbs(cir, cbs, pir, pbs), now),
      m_c(cir, cbs, now)
{
}

TrafficMeter::Color
TrTcmMeter::Meter(Time now, uint32_t bytes, Color color)
{
    m_p.Refill(now);
    m_c.Refill(now);
    if (color == RED || !m_p.Holds(bytes))
    {
        return RED;
    }
    if (color == YELLOW || !m_c.Holds(bytes))
    {
        m_p.Take(bytes);
        return YELLOW;
    }
    m_p.Take(bytes);
    m_c.Take(bytes);
    return GREEN;
}

double
TrTcmMeter::GetPeakTokens() const
{
    return m_p.GetTokens();
}

double
TrTcmMeter::GetCommittedTokens() const
{
    return m_c.GetTokens();
}

} // namespace ns3
