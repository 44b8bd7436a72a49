/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A researcher's own dumbbell from ns-3's PointToPointDumbbellHelper (point-to-point-layout, a
// module qdisc-lab does not link) with a DrrQueueDisc on its bottleneck, built against an
// installed qdisc-lab by python/tests/test_install.py. Two UDP flows of 20 packets each cross
// the bottleneck; it prints what the queue disc and each receiver saw.

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/point-to-point-layout-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/qdisc-lab-module.h"
#include "ns3/traffic-control-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    link.SetChannelAttribute("Delay", StringValue("1ms"));
    PointToPointDumbbellHelper dumbbell(2, link, 2, link, link);
    dumbbell.InstallStack(InternetStackHelper());
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::DrrQueueDisc", "Buckets", UintegerValue(64));
    // Before the addresses: Ipv4AddressHelper puts FqCoDel on devices without a queue disc.
    Ptr<QueueDisc> drr = tch.Install(dumbbell.GetLeft()->GetDevice(0)).Get(0);
    dumbbell.AssignIpv4Addresses(Ipv4AddressHelper("10.1.0.0", "255.255.255.0"),
                                 Ipv4AddressHelper("10.2.0.0", "255.255.255.0"),
                                 Ipv4AddressHelper("10.3.0.0", "255.255.255.0"));
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    std::vector<Ptr<UdpServer>> servers;
    for (uint32_t i = 0; i < 2; ++i)
    {
        UdpServerHelper server(9000 + i);
        ApplicationContainer apps = server.Install(dumbbell.GetRight(i));
        servers.push_back(DynamicCast<UdpServer>(apps.Get(0)));
        UdpClientHelper client(dumbbell.GetRightIpv4Address(i), 9000 + i);
        client.SetAttribute("MaxPackets", UintegerValue(20));
        client.SetAttribute("Interval", TimeValue(MilliSeconds(10)));
        client.Install(dumbbell.GetLeft(i)).Start(Seconds(0.1));
    }
    Simulator::Stop(Seconds(2));
    Simulator::Run();
    std::cout << drr->GetInstanceTypeId().GetName() << " sent " << drr->GetStats().nTotalSentPackets
              << "\n";
    for (uint32_t i = 0; i < 2; ++i)
    {
        std::cout << "receiver " << i << " received " << servers[i]->GetReceived() << "\n";
    }
    Simulator::Destroy();
    return 0;
}
