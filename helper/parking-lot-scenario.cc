/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "parking-lot-scenario.h"

#include "ns3/abort.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/log.h"
#include "ns3/qdisc-lab-compat.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ParkingLotScenario");

ParkingLotScenario::ParkingLotScenario()
    : m_hops(2),
      m_access{DataRate("100Mbps"), MilliSeconds(1)},
      m_defaultCore{DataRate("10Mbps"), MilliSeconds(1)},
      m_core(2, m_defaultCore),
      m_built(false)
{
    m_coreTc.SetRootQueueDisc("ns3::FifoQueueDisc");
}

void
ParkingLotScenario::SetHopCount(uint32_t hops)
{
    NS_ABORT_MSG_IF(m_built, "ParkingLotScenario::SetHopCount called after Build()");
    NS_ABORT_MSG_UNLESS(
        hops >= 1 && hops <= 84,
        "ParkingLotScenario: the hop count must be in [1, 84] (one /24 per host), got " << hops);
    m_hops = hops;
    m_core.assign(hops, m_defaultCore);
}

void
ParkingLotScenario::SetAccessLink(DataRate rate, Time delay)
{
    m_access = ScenarioLink::Checked("ParkingLotScenario", "access", rate, delay);
}

void
ParkingLotScenario::SetCoreLink(DataRate rate, Time delay)
{
    m_defaultCore = ScenarioLink::Checked("ParkingLotScenario", "core", rate, delay);
    m_core.assign(m_hops, m_defaultCore);
}

void
ParkingLotScenario::SetCoreLink(uint32_t hop, DataRate rate, Time delay)
{
    NS_ABORT_MSG_UNLESS(hop < m_hops,
                        "ParkingLotScenario: hop " << hop << " out of range [0, " << m_hops << ")");
    m_core[hop] = ScenarioLink::Checked("ParkingLotScenario", "core", rate, delay);
}

void
ParkingLotScenario::SetCoreQueueDisc(const TrafficControlHelper& helper)
{
    m_coreTc = helper;
}

void
ParkingLotScenario::Build()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_built, "ParkingLotScenario::Build called twice");
    m_nodes.Create(GetNodeCount());
    InternetStackHelper stack = ScenarioLink::GetStackHelper();
    stack.Install(m_nodes);
    // The routers only forward (nothing is addressed to them): the strong end-system model
    // spares them a search of all their interfaces' addresses per packet (6 % of a VD run's
    // instructions) and changes no result, as in DumbbellScenario.
    for (uint32_t r = 0; r <= m_hops; ++r)
    {
        qdisclab::SetStrongEndSystemModel(GetRouter(r)->GetObject<Ipv4>(), true);
    }
    m_hostAddress.assign(GetNodeCount(), Ipv4Address());

    // Core links, router h+1 -> router h+2; the queue disc under study on the forward device,
    // installed before addresses are assigned so that ns-3 does not install its default there.
    Ipv4AddressHelper address;
    for (uint32_t hop = 0; hop < m_hops; ++hop)
    {
        NetDeviceContainer devices =
            m_core[hop].GetQueueDiscLinkHelper().Install(GetRouter(hop), GetRouter(hop + 1));
        m_coreDevices.Add(devices.Get(0));
        m_coreQueues.push_back(m_coreTc.Install(devices.Get(0)).Get(0));
        ScenarioLink::AssignSubnet(address, 2, hop, devices);
    }

    // Access links: each host to its router (see the class description).
    std::vector<std::pair<uint32_t, uint32_t>> hosts; // (host node, router position)
    hosts.emplace_back(0, 0);
    hosts.emplace_back(MainSinkNumber(), m_hops);
    for (uint32_t hop = 0; hop < m_hops; ++hop)
    {
        hosts.emplace_back(MainSinkNumber() + 1 + 2 * hop, hop);
        hosts.emplace_back(MainSinkNumber() + 2 + 2 * hop, hop + 1);
    }
    PointToPointHelper access = m_access.GetHelper();
    for (const auto& [host, router] : hosts)
    {
        NetDeviceContainer devices = access.Install(m_nodes.Get(host), GetRouter(router));
        m_hostAddress[host] = ScenarioLink::AssignSubnet(address, 1, host, devices).GetAddress(0);
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    m_built = true;
    NS_LOG_INFO("parking lot: " << m_hops << " hops, " << GetNodeCount() << " nodes, access "
                                << m_access.rate << " " << m_access.delay.As(Time::MS)
                                << ", queue disc "
                                << m_coreQueues[0]->GetInstanceTypeId().GetName());
}

void
ParkingLotScenario::RequireBuilt(const char* what) const
{
    NS_ABORT_MSG_UNLESS(m_built, "ParkingLotScenario::" << what << " called before Build()");
}

void
ParkingLotScenario::RequireHop(uint32_t hop) const
{
    NS_ABORT_MSG_UNLESS(hop < m_hops,
                        "ParkingLotScenario: hop " << hop << " out of range [0, " << m_hops << ")");
}

uint32_t
ParkingLotScenario::MainSinkNumber() const
{
    return m_hops + 2;
}

uint32_t
ParkingLotScenario::GetHopCount() const
{
    return m_hops;
}

uint32_t
ParkingLotScenario::GetNodeCount() const
{
    return 3 * m_hops + 3;
}

Ptr<Node>
ParkingLotScenario::GetNode(uint32_t n) const
{
    NS_ABORT_MSG_UNLESS(m_nodes.GetN() > 0, "ParkingLotScenario::GetNode called before Build()");
    NS_ABORT_MSG_UNLESS(n < GetNodeCount(),
                        "ParkingLotScenario: node " << n << " out of range [0, " << GetNodeCount()
                                                    << ")");
    return m_nodes.Get(n);
}

Ptr<Node>
ParkingLotScenario::GetMainSource() const
{
    return GetNode(0);
}

Ptr<Node>
ParkingLotScenario::GetMainSink() const
{
    return GetNode(MainSinkNumber());
}

Ptr<Node>
ParkingLotScenario::GetRouter(uint32_t r) const
{
    NS_ABORT_MSG_UNLESS(r <= m_hops,
                        "ParkingLotScenario: router " << r << " out of range [0, " << m_hops
                                                      << "]");
    return GetNode(r + 1);
}

Ptr<Node>
ParkingLotScenario::GetCrossSource(uint32_t hop) const
{
    RequireHop(hop);
    return GetNode(MainSinkNumber() + 1 + 2 * hop);
}

Ptr<Node>
ParkingLotScenario::GetCrossSink(uint32_t hop) const
{
    RequireHop(hop);
    return GetNode(MainSinkNumber() + 2 + 2 * hop);
}

Ipv4Address
ParkingLotScenario::GetHostAddress(uint32_t n) const
{
    RequireBuilt("GetHostAddress");
    NS_ABORT_MSG_UNLESS(n < GetNodeCount() && (n == 0 || n > m_hops + 1),
                        "ParkingLotScenario: node " << n << " is not a host");
    return m_hostAddress[n];
}

Ptr<QueueDisc>
ParkingLotScenario::GetCoreQueueDisc(uint32_t hop) const
{
    RequireBuilt("GetCoreQueueDisc");
    RequireHop(hop);
    return m_coreQueues[hop];
}

Ptr<NetDevice>
ParkingLotScenario::GetCoreDevice(uint32_t hop) const
{
    RequireBuilt("GetCoreDevice");
    RequireHop(hop);
    return m_coreDevices.Get(hop);
}

DataRate
ParkingLotScenario::GetCoreRate(uint32_t hop) const
{
    RequireHop(hop);
    return m_core[hop].rate;
}

Time
ParkingLotScenario::GetCoreDelay(uint32_t hop) const
{
    RequireHop(hop);
    return m_core[hop].delay;
}

DataRate
ParkingLotScenario::GetAccessRate() const
{
    return m_access.rate;
}

Time
ParkingLotScenario::GetAccessDelay() const
{
    return m_access.delay;
}

} // namespace ns3
