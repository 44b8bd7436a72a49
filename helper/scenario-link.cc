/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-link.h"

#include "ns3/abort.h"
#include "ns3/queue-size.h"

#include <sstream>

namespace ns3
{

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
    return address.Assign(devices);
}

} // namespace ns3
