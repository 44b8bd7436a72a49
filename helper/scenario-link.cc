/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-link.h"

#include "ns3/abort.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/ipv4-list-routing-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/pointer.h"
#include "ns3/queue.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/traffic-control-layer.h"

#include <sstream>
#include <vector>

namespace ns3
{

const QueueSize ScenarioLink::UNSTUDIED_QUEUE_SIZE("10240p");

ScenarioLink
ScenarioLink::Checked(const std::string& owner, const std::string& name, DataRate rate, Time delay)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, owner << ": the " << name << " rate must be > 0");
    NS_ABORT_MSG_IF(delay.IsStrictlyNegative(), owner << ": negative " << name << " delay");
    return {rate, delay};
}

PointToPointHelper
ScenarioLink::GetHelper() const
{
    PointToPointHelper helper;
    helper.SetDeviceAttribute("DataRate", DataRateValue(rate));
    helper.SetChannelAttribute("Delay", TimeValue(delay));
    return helper;
}

PointToPointHelper
ScenarioLink::GetQueueDiscLinkHelper() const
{
    PointToPointHelper helper = GetHelper();
    helper.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize("1p")));
    return helper;
}

Ipv4InterfaceContainer
ScenarioLink::AssignSubnet(Ipv4AddressHelper& address,
                           uint32_t second,
                           uint32_t third,
                           const NetDeviceContainer& devices)
{
    std::ostringstream net;
    net << "10." << second << "." << third << ".0";
    address.SetBase(net.str().c_str(), "255.255.255.0");
    return AssignWithoutDefaultQueueDisc(address, devices);
}

Ipv4InterfaceContainer
ScenarioLink::AssignWithoutDefaultQueueDisc(Ipv4AddressHelper& address,
                                            const NetDeviceContainer& devices)
{
    std::vector<bool> hadQueueDisc;
    for (auto it = devices.Begin(); it != devices.End(); ++it)
    {
        Ptr<TrafficControlLayer> tc = (*it)->GetNode()->GetObject<TrafficControlLayer>();
        NS_ABORT_MSG_UNLESS(tc,
                            "ScenarioLink: node " << (*it)->GetNode()->GetId()
                                                  << " has no internet stack");
        hadQueueDisc.push_back(tc->GetRootQueueDiscOnDevice(*it) != nullptr);
    }
    Ipv4InterfaceContainer interfaces = address.Assign(devices);
    TrafficControlHelper tch;
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        if (hadQueueDisc[i])
        {
            continue;
        }
        Ptr<NetDevice> device = devices.Get(i);
        tch.Uninstall(device);
        PointerValue txQueue;
        NS_ABORT_MSG_UNLESS(device->GetAttributeFailSafe("TxQueue", txQueue),
                            "ScenarioLink: a " << device->GetInstanceTypeId().GetName()
                                               << " has no TxQueue attribute");
        txQueue.Get<QueueBase>()->SetMaxSize(UNSTUDIED_QUEUE_SIZE);
    }
    return interfaces;
}

InternetStackHelper
ScenarioLink::GetStackHelper()
{
    Ipv4ListRoutingHelper list;
    list.Add(Ipv4GlobalRoutingHelper(), GLOBAL_ROUTING_PRIORITY);
    list.Add(Ipv4StaticRoutingHelper(), STATIC_ROUTING_PRIORITY);
    InternetStackHelper stack;
    stack.SetRoutingHelper(list);
    return stack;
}

} // namespace ns3
