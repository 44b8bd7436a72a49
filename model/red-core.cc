/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "red-core.h"

#include <cmath>
#include <limits>
#include <sstream>

namespace ns3
{

std::string
RedCore::Check(const Params& p, const std::string& prefix, const std::string& qWName)
{
    std::ostringstream why;
    if (!std::isfinite(p.minTh) || p.minTh < 0)
    {
        why << prefix << "MinTh = " << p.minTh << " must be finite and >= 0";
    }
    else if (!std::isfinite(p.maxTh) || p.maxTh <= p.minTh)
    {
        why << prefix << "MaxTh = " << p.maxTh << " must be finite and above " << prefix
            << "MinTh = " << p.minTh;
    }
    else if (!(p.maxP > 0 && p.maxP <= 1))
    {
        why << prefix << "MaxP = " << p.maxP << " is out of range (0, 1]";
    }
    else if (!(p.qW > 0 && p.qW <= 1))
    {
        why << qWName << " = " << p.qW << " is out of range (0, 1]";
    }
    else if (p.meanPktSize == 0)
    {
        why << "MeanPktSize must be >= 1 byte, got 0";
    }
    else if (!(p.linkBandwidth > 0) || !std::isfinite(p.linkBandwidth))
    {
        why << "LinkBandwidth = " << p.linkBandwidth << " bit/s must be > 0";
    }
    return why.str();
}

RedCore::RedCore()
{
    Configure(Params{});
}

RedCore::RedCore(const Params& p)
{
    Configure(p);
}

void
RedCore::Configure(const Params& p)
{
    m_p = p;
    m_oneMinusW = 1.0 - p.qW;
    m_forcedTh = p.gentle ? 2 * p.maxTh : p.maxTh;
    m_ptc = p.linkBandwidth / (8.0 * p.meanPktSize);
    // The straight line through (min_th, 0) and (max_th, max_p), and gentle's through
    // (max_th, max_p) and (2 max_th, 1), in the coefficients ns-2 uses (v_a, v_b, v_c, v_d).
    const double thDiff = p.maxTh - p.minTh;
    m_vA = 1.0 / thDiff;
    m_vB = -p.minTh / thDiff;
    m_vC = (1.0 - p.maxP) / p.maxTh;
    m_vD = 2.0 * p.maxP - 1.0;
    m_early = p.useEcn ? EARLY_MARK : EARLY_DROP;
    m_forced = p.useEcn && !p.useHardDrop ? FORCED_MARK : FORCED_DROP;
    Reset();
}

void
RedCore::Reset()
{
    m_avg = 0.0;
    m_count = 0;
    m_countBytes = 0;
    m_old = false;
    m_prob = 0.0;
    m_idle = true;
    m_idleStart = 0;
}

void
RedCore::NotifyIdle(int64_t now)
{
    m_idle = true;
    m_idleStart = now;
}

uint32_t
RedCore::IdlePackets(int64_t now) const
{
    const int64_t ticks = now - m_idleStart;
    const double seconds = m_p.ticksToSeconds ? m_p.ticksToSeconds(ticks) : ticks / 1e9;
    const double m = m_ptc * seconds;
    // Past 2^32 - 2 packets the decay is total anyway; the cap keeps m + 1 in range.
    constexpr double cap = std::numeric_limits<uint32_t>::max() - 1.0;
    return m < cap ? static_cast<uint32_t>(m) : static_cast<uint32_t>(cap);
}

double
RedCore::DecayOver(uint32_t m) const
{
    return std::pow(m_oneMinusW, static_cast<double>(m + 1));
}

double
RedCore::DropProbability(double avg, uint32_t size) const
{
    // p_b from the average (the forced region never gets here).
    double pb;
    if (avg >= m_p.maxTh)
    {
        pb = m_p.gentle ? m_vC * avg + m_vD : 1.0;
    }
    else
    {
        pb = m_vA * avg + m_vB;
        pb *= m_p.maxP;
    }
    if (pb > 1.0)
    {
        pb = 1.0;
    }

    // p_a from p_b and the packets since the last drop, capped before c p_b reaches the pole.
    const double c = m_p.byteMode ? static_cast<double>(m_countBytes / m_p.meanPktSize)
                                  : static_cast<double>(m_count);
    double pa;
    if (m_p.wait)
    {
        if (c * pb < 1.0)
        {
            pa = 0.0;
        }
        else if (c * pb < 2.0)
        {
            pa = pb / (2.0 - c * pb);
        }
        else
        {
            pa = 1.0;
        }
    }
    else
    {
        pa = c * pb < 1.0 ? pb / (1.0 - c * pb) : 1.0;
    }
    if (m_p.byteMode && pa < 1.0)
    {
        pa = (pa * size) / m_p.meanPktSize;
    }
    return pa > 1.0 ? 1.0 : pa;
}

} // namespace ns3
