/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cioq-forwarding-table.h"

#include "ns3/abort.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CioqForwardingTable");

CioqForwardingTable::CioqForwardingTable()
{
    NS_LOG_FUNCTION(this);
}

void
CioqForwardingTable::Learn(Mac48Address source, uint32_t port, Time expiration)
{
    LearnedState& state = m_learned[source];
    state.port = port;
    state.expirationTime = expiration;
}

uint32_t
CioqForwardingTable::GetLearnedPort(Mac48Address destination, Time now)
{
    const auto it = m_learned.find(destination);
    if (it != m_learned.end())
    {
        if (it->second.expirationTime > now)
        {
            return it->second.port;
        }
        NS_LOG_DEBUG("Learned state of " << destination << " expired");
        m_learned.erase(it);
    }
    return NONE;
}

void
CioqForwardingTable::AddRoute(Mac48Address address, uint32_t port)
{
    NS_LOG_FUNCTION(this << address << port);
    m_macRoutes[address] = port;
}

void
CioqForwardingTable::AddRoute(Ipv4Address address, uint32_t port)
{
    NS_LOG_FUNCTION(this << address << port);
    m_ipv4Routes[address.Get()] = port;
}

uint32_t
CioqForwardingTable::GetStaticPort(Mac48Address destination,
                                   uint16_t protocol,
                                   Ptr<const Packet> packet) const
{
    const auto mac = m_macRoutes.find(destination);
    if (mac != m_macRoutes.end())
    {
        return mac->second;
    }
    if (protocol == Ipv4L3Protocol::PROT_NUMBER)
    {
        Ipv4Header header;
        packet->PeekHeader(header);
        const auto ip = m_ipv4Routes.find(header.GetDestination().Get());
        if (ip != m_ipv4Routes.end())
        {
            return ip->second;
        }
    }
    return NONE;
}

void
CioqForwardingTable::CheckPorts(uint32_t ports, const std::string& who) const
{
    for (const auto& [address, port] : m_macRoutes)
    {
        NS_ABORT_MSG_UNLESS(port < ports,
                            who << ": static route to " << address << " names port " << port
                                << ", out of range [0, N) = [0, " << ports << ")");
    }
    for (const auto& [address, port] : m_ipv4Routes)
    {
        NS_ABORT_MSG_UNLESS(port < ports,
                            who << ": static route to " << Ipv4Address(address) << " names port "
                                << port << ", out of range [0, N) = [0, " << ports << ")");
    }
}

std::size_t
CioqForwardingTable::GetNLearned() const
{
    return m_learned.size();
}

} // namespace ns3
