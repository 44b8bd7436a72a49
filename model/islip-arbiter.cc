/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "islip-arbiter.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

IslipArbiter::IslipArbiter()
    : m_ports(0),
      m_iterations(1)
{
}

void
IslipArbiter::Reset(uint32_t ports, uint32_t iterations)
{
    NS_ABORT_MSG_IF(ports == 0, "IslipArbiter: the number of ports must be >= 1");
    NS_ABORT_MSG_IF(iterations == 0, "IslipArbiter: the number of iterations must be >= 1");
    m_ports = ports;
    m_iterations = iterations;
    m_grantPtr.assign(ports, 0);
    m_acceptPtr.assign(ports, 0);
    m_grant.assign(ports, NONE);
    m_inMatched.assign(ports, 0);
    m_outMatched.assign(ports, 0);
    m_matches.clear();
    m_matches.reserve(ports);
}

const std::vector<IslipArbiter::Pair>&
IslipArbiter::Match(const std::vector<uint8_t>& requests,
                    const std::vector<uint8_t>& inputFree,
                    const std::vector<uint8_t>& outputFree)
{
    const uint32_t n = m_ports;
    m_matches.clear();
    std::fill(m_inMatched.begin(), m_inMatched.end(), 0);
    std::fill(m_outMatched.begin(), m_outMatched.end(), 0);

    for (uint32_t iteration = 0; iteration < m_iterations; ++iteration)
    {
        // Grant: each free, unmatched output grants the next requesting input from g[j].
        bool granted = false;
        for (uint32_t j = 0; j < n; ++j)
        {
            m_grant[j] = NONE;
            if (!outputFree[j] || m_outMatched[j])
            {
                continue;
            }
            for (uint32_t k = 0, i = m_grantPtr[j]; k < n; ++k, i = (i + 1 == n) ? 0 : i + 1)
            {
                if (inputFree[i] && !m_inMatched[i] && requests[i * n + j])
                {
                    m_grant[j] = i;
                    granted = true;
                    break;
                }
            }
        }
        if (!granted)
        {
            break;
        }

        // Accept: each granted input accepts the next granting output from a[i].
        const std::size_t before = m_matches.size();
        for (uint32_t i = 0; i < n; ++i)
        {
            if (!inputFree[i] || m_inMatched[i])
            {
                continue;
            }
            for (uint32_t k = 0, j = m_acceptPtr[i]; k < n; ++k, j = (j + 1 == n) ? 0 : j + 1)
            {
                if (m_grant[j] == i)
                {
                    m_matches.emplace_back(i, j);
                    m_inMatched[i] = 1;
                    m_outMatched[j] = 1;
                    if (iteration == 0)
                    {
                        m_acceptPtr[i] = (j + 1 == n) ? 0 : j + 1;
                        m_grantPtr[j] = (i + 1 == n) ? 0 : i + 1;
                    }
                    break;
                }
            }
        }
        if (m_matches.size() == before)
        {
            break;
        }
    }
    return m_matches;
}

uint32_t
IslipArbiter::GetGrantPointer(uint32_t output) const
{
    return m_grantPtr.at(output);
}

uint32_t
IslipArbiter::GetAcceptPointer(uint32_t input) const
{
    return m_acceptPtr.at(input);
}

uint32_t
IslipArbiter::GetPorts() const
{
    return m_ports;
}

} // namespace ns3
