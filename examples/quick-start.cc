/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup qdisc-lab
 * The module's queue discs with plain ns-3 helpers: two dumbbells in one simulation.
 *
 *   DRR: three UDP flows of 2 Mb/s through a 3 Mb/s bottleneck whose DrrQueueDisc weighs them
 *        1, 2 and 3 by destination port: they get 1/6, 2/6 and 3/6 of it.
 *   RIO: three TCP flows through a 3 Mb/s bottleneck with a RioQueueDisc; the first sender's
 *        DscpMarkerHelper marks its flow AF11 (IN) up to a 1.5 Mb/s profile, AF12 (OUT) above;
 *        the other two send best effort (OUT). The IN flow gets about its profile, the
 *        others share the rest.
 *
 *   ./ns3 run "quick-start [--quick] [--simTime=20]"
 *
 * Prints each flow's goodput as a table: FlowMonitor's received bytes (IP packets, headers
 * included) per second between the flow's first and last received packet.
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/flow-monitor-module.h"
#include "ns3/internet-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/qdisc-lab-module.h"
#include "ns3/traffic-control-module.h"

#include <iomanip>
#include <iostream>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

/// Senders on the left, receivers on the right, `tch` on the left router's bottleneck port.
struct Dumbbell
{
    NodeContainer senders, receivers, routers;
    NetDeviceContainer senderDevices;
    std::vector<Ipv4Address> receiverAddresses;

    Dumbbell(uint32_t n, const char* network, TrafficControlHelper& tch)
    {
        senders.Create(n);
        receivers.Create(n);
        routers.Create(2);
        InternetStackHelper().Install(NodeContainer(senders, receivers, routers));
        PointToPointHelper access;
        PointToPointHelper bottleneck;
        access.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
        access.SetChannelAttribute("Delay", StringValue("1ms"));
        bottleneck.SetDeviceAttribute("DataRate", StringValue("3Mbps"));
        bottleneck.SetChannelAttribute("Delay", StringValue("10ms"));
        NetDeviceContainer link = bottleneck.Install(routers.Get(0), routers.Get(1));
        // Before Ipv4AddressHelper::Assign: it installs FqCoDel on every device that has no
        // queue disc yet, and TrafficControlHelper::Install then aborts (a root exists).
        tch.Install(link.Get(0));
        Ipv4AddressHelper addresses(network, "255.255.255.0");
        addresses.Assign(link);
        for (uint32_t i = 0; i < n; ++i)
        {
            addresses.NewNetwork();
            NetDeviceContainer left = access.Install(senders.Get(i), routers.Get(0));
            senderDevices.Add(left.Get(0));
            addresses.Assign(left);
            addresses.NewNetwork();
            NetDeviceContainer right = access.Install(routers.Get(1), receivers.Get(i));
            receiverAddresses.push_back(addresses.Assign(right).GetAddress(1));
        }
    }
};

int
main(int argc, char* argv[])
{
    double simTime = 20;
    bool quick = false;
    CommandLine cmd(__FILE__);
    cmd.AddValue("simTime", "Simulated seconds", simTime);
    cmd.AddValue("quick", "Short run for tests: simTime=8", quick);
    cmd.Parse(argc, argv);
    simTime = quick ? 8 : simTime;
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));

    TrafficControlHelper drr;
    drr.SetRootQueueDisc("ns3::DrrQueueDisc",
                         "Quantum",
                         UintegerValue(1500),
                         "Buckets",
                         UintegerValue(1024), // ns-2's 10 lets flows share a bucket
                         "WeightRules",
                         StringValue("dport=5000 weight=1; dport=5001 weight=2; "
                                     "dport=5002 weight=3"));
    Dumbbell udp(3, "10.1.0.0", drr);

    TrafficControlHelper rio; // RIO's default thresholds, RED's idle decay at the link's rate
    rio.SetRootQueueDisc("ns3::RioQueueDisc", "LinkBandwidth", DataRateValue(DataRate("3Mbps")));
    Dumbbell tcp(3, "10.2.0.0", rio);
    DscpMarkerHelper marker; // on the first TCP sender's egress: any time, it replaces the root
    marker.AddProfile("dport=6000 proto=tcp", DataRate("1.5Mbps"), 20000);
    marker.Install(tcp.senderDevices.Get(0));
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    std::map<uint16_t, std::string> label; // destination port -> what the flow is
    for (uint16_t i = 0; i < 3; ++i)
    {
        const uint16_t port = 5000 + i;
        OnOffHelper onOff("ns3::UdpSocketFactory",
                          InetSocketAddress(udp.receiverAddresses[i], port));
        onOff.SetConstantRate(DataRate("2Mbps"), 1000);
        onOff.Install(udp.senders.Get(i)).Start(Seconds(1));
        PacketSinkHelper("ns3::UdpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port))
            .Install(udp.receivers.Get(i));
        label[port] = "DRR weight " + std::to_string(i + 1);
    }
    for (uint16_t i = 0; i < 3; ++i)
    {
        const uint16_t port = 6000 + i;
        BulkSendHelper bulk("ns3::TcpSocketFactory",
                            InetSocketAddress(tcp.receiverAddresses[i], port));
        bulk.Install(tcp.senders.Get(i)).Start(Seconds(1 + 0.1 * i));
        PacketSinkHelper("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port))
            .Install(tcp.receivers.Get(i));
        label[port] = i == 0 ? "RIO IN 1.5Mbps" : "RIO best effort";
    }

    FlowMonitorHelper flowmon;
    Ptr<FlowMonitor> monitor = flowmon.InstallAll();
    Simulator::Stop(Seconds(simTime));
    Simulator::Run();

    auto classifier = DynamicCast<Ipv4FlowClassifier>(flowmon.GetClassifier());
    std::map<uint16_t, double> goodput; // destination port -> Mb/s
    for (const auto& [id, stats] : monitor->GetFlowStats())
    {
        const double seconds = (stats.timeLastRxPacket - stats.timeFirstRxPacket).GetSeconds();
        goodput[classifier->FindFlow(id).destinationPort] = stats.rxBytes * 8 / seconds / 1e6;
    }
    std::cout << std::left << std::setw(18) << "flow" << std::setw(7) << "dport"
              << "goodput_mbps\n";
    for (const auto& [port, what] : label) // not the TCP acknowledgements
    {
        std::cout << std::setw(18) << what << std::setw(7) << port << std::fixed
                  << std::setprecision(3) << goodput[port] << "\n";
    }
    Simulator::Destroy();
    return 0;
}
