/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cioq-switch-helper.h"

#include "ns3/abort.h"
#include "ns3/csma-helper.h"
#include "ns3/enum.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/queue-size.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CioqSwitchHelper");

CioqSwitchHelper::CioqSwitchHelper()
    : m_qdiscSet(false),
      m_portType(POINT_TO_POINT),
      m_lineRate(DataRate("1Mbps")),
      m_linkDelay(MilliSeconds(1))
{
    m_switchFactory.SetTypeId("ns3::CioqSwitchNetDevice");
}

void
CioqSwitchHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

void
CioqSwitchHelper::SetPortType(PortType type)
{
    m_portType = type;
}

void
CioqSwitchHelper::SetLineRate(DataRate rate)
{
    m_lineRate = rate;
}

void
CioqSwitchHelper::SetLinkDelay(Time delay)
{
    m_linkDelay = delay;
}

Ptr<CioqSwitchNetDevice>
CioqSwitchHelper::Install(Ptr<Node> node, NetDeviceContainer ports) const
{
    if (m_qdiscSet)
    {
        QueueDiscContainer qdiscs;
        for (uint32_t k = 0; k < ports.GetN(); ++k)
        {
            qdiscs.Add(m_qdiscFactory.Create<QueueDisc>());
        }
        return Install(node, ports, qdiscs);
    }
    // The switch's default output queue discs.
    Ptr<CioqSwitchNetDevice> device = m_switchFactory.Create<CioqSwitchNetDevice>();
    node->AddDevice(device);
    for (uint32_t k = 0; k < ports.GetN(); ++k)
    {
        device->AddPort(ports.Get(k));
    }
    return device;
}

Ptr<CioqSwitchNetDevice>
CioqSwitchHelper::Install(Ptr<Node> node, NetDeviceContainer ports, QueueDiscContainer qdiscs) const
{
    NS_ABORT_MSG_UNLESS(qdiscs.GetN() == ports.GetN(),
                        "CioqSwitchHelper::Install: " << qdiscs.GetN() << " output queue discs for "
                                                      << ports.GetN()
                                                      << " ports: give one per port");
    Ptr<CioqSwitchNetDevice> device = m_switchFactory.Create<CioqSwitchNetDevice>();
    node->AddDevice(device);
    for (uint32_t k = 0; k < ports.GetN(); ++k)
    {
        device->AddPort(ports.Get(k));
        device->SetOutputQueueDisc(k, qdiscs.Get(k));
    }
    return device;
}

CioqSwitchHelper::Star
CioqSwitchHelper::InstallStar(Ptr<Node> switchNode, NodeContainer hosts) const
{
    NS_LOG_FUNCTION(this << switchNode << hosts.GetN());
    Star star;
    star.switchNode = switchNode;
    const QueueSizeValue oneP(QueueSize("1p"));
    if (m_portType == POINT_TO_POINT)
    {
        PointToPointHelper links;
        links.SetDeviceAttribute("DataRate", DataRateValue(m_lineRate));
        links.SetChannelAttribute("Delay", TimeValue(m_linkDelay));
        links.SetQueue("ns3::DropTailQueue", "MaxSize", oneP);
        for (uint32_t k = 0; k < hosts.GetN(); ++k)
        {
            NetDeviceContainer pair = links.Install(hosts.Get(k), switchNode);
            star.hostDevices.Add(pair.Get(0));
            star.ports.Add(pair.Get(1));
        }
    }
    else
    {
        CsmaHelper links;
        links.SetChannelAttribute("DataRate", DataRateValue(m_lineRate));
        links.SetChannelAttribute("Delay", TimeValue(m_linkDelay));
        links.SetQueue("ns3::DropTailQueue", "MaxSize", oneP);
        for (uint32_t k = 0; k < hosts.GetN(); ++k)
        {
            NetDeviceContainer pair = links.Install(NodeContainer(hosts.Get(k), switchNode));
            star.hostDevices.Add(pair.Get(0));
            star.ports.Add(pair.Get(1));
        }
    }
    star.device = Install(switchNode, star.ports);
    star.device->SetAttribute("LineRate", DataRateValue(m_lineRate));
    if (m_portType == POINT_TO_POINT)
    {
        // Point-to-point frames carry no MAC addresses: forward by the IPv4 destination.
        star.device->SetAttribute("FrameOverhead", UintegerValue(2));
        star.device->SetAttribute("Forwarding", EnumValue(CioqSwitchNetDevice::STATIC));
    }
    else
    {
        star.device->SetAttribute("FrameOverhead", UintegerValue(18));
    }
    for (uint32_t k = 0; k < hosts.GetN(); ++k)
    {
        star.device->AddStaticRoute(
            Mac48Address::ConvertFrom(star.hostDevices.Get(k)->GetAddress()),
            k);
    }
    return star;
}

Ipv4InterfaceContainer
CioqSwitchHelper::AssignIpv4(const Star& star, Ipv4AddressHelper& addresses) const
{
    Ipv4InterfaceContainer interfaces = addresses.Assign(star.hostDevices);
    for (uint32_t k = 0; k < interfaces.GetN(); ++k)
    {
        star.device->AddStaticRoute(interfaces.GetAddress(k), k);
    }
    return interfaces;
}

} // namespace ns3
