/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cioq-port-stats.h"

#include <algorithm>

namespace ns3
{

void
CioqPortStats::TransferStarted(Time waited)
{
    ++transfersStarted;
    voqWaitTotal += waited;
    voqWaitMax = std::max(voqWaitMax, waited);
}

void
CioqPortStats::InputChanged(uint32_t packets, Time now)
{
    m_inputIntegral += m_inputPackets * (now - m_inputSince).GetSeconds();
    m_inputSince = now;
    m_inputPackets = packets;
}

void
CioqPortStats::OutputChanged(uint32_t packets, Time now)
{
    m_outputIntegral += m_outputPackets * (now - m_outputSince).GetSeconds();
    m_outputSince = now;
    m_outputPackets = packets;
}

double
CioqPortStats::GetAverageInputPackets(Time since, Time now) const
{
    const double elapsed = (now - since).GetSeconds();
    const double integral = m_inputIntegral + m_inputPackets * (now - m_inputSince).GetSeconds();
    return elapsed > 0 ? integral / elapsed : m_inputPackets;
}

double
CioqPortStats::GetAverageOutputPackets(Time since, Time now) const
{
    const double elapsed = (now - since).GetSeconds();
    const double integral = m_outputIntegral + m_outputPackets * (now - m_outputSince).GetSeconds();
    return elapsed > 0 ? integral / elapsed : m_outputPackets;
}

void
CioqPortStats::Reset(Time now)
{
    const uint32_t inputPackets = m_inputPackets;
    const uint32_t outputPackets = m_outputPackets;
    *this = CioqPortStats();
    m_inputPackets = inputPackets;
    m_inputSince = now;
    m_outputPackets = outputPackets;
    m_outputSince = now;
}

} // namespace ns3
