/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A researcher's own program using an installed qdisc-lab, built by python/tests/test_install.py
// with the CMake package and with pkg-config, and run without LD_LIBRARY_PATH. It includes the
// module's aggregator header (so every public header must compile on its own, with no flags),
// creates a DrrQueueDisc with an ObjectFactory and through TrafficControlHelper, reads its
// Quantum attribute back, and sends a few UDP packets through it.

#include "ns3/command-line.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/object-factory.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/qdisc-lab-module.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/udp-client-server-helper.h"
#include "ns3/udp-server.h"
#include "ns3/uinteger.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    uint32_t quantum = 500;
    uint32_t packets = 20;
    CommandLine cmd(__FILE__);
    cmd.AddValue("quantum", "DRR quantum in bytes", quantum);
    cmd.AddValue("packets", "UDP packets to send", packets);
    cmd.Parse(argc, argv);

    ObjectFactory factory("ns3::DrrQueueDisc");
    factory.Set("Quantum", UintegerValue(quantum));
    Ptr<QueueDisc> made = factory.Create<QueueDisc>();
    UintegerValue madeQuantum;
    made->GetAttribute("Quantum", madeQuantum);
    std::cout << "ns-3 " << qdisclab::Ns3Version() << "\n"
              << "ObjectFactory " << made->GetInstanceTypeId().GetName()
              << " Quantum=" << madeQuantum.Get() << "\n";

    // Two nodes over a 10 Mb/s link whose queue discs are DRR; packets every 10 ms, well below
    // the link's rate, so each one passes the sender's queue disc and none is dropped.
    NodeContainer nodes(2);
    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    link.SetChannelAttribute("Delay", StringValue("1ms"));
    NetDeviceContainer devices = link.Install(nodes);
    InternetStackHelper().Install(nodes);
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::DrrQueueDisc", "Quantum", UintegerValue(quantum));
    QueueDiscContainer discs = tch.Install(devices);
    Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer interfaces = addresses.Assign(devices);

    const uint16_t port = 9;
    UdpServerHelper server(port);
    ApplicationContainer sink = server.Install(nodes.Get(1));
    UdpClientHelper client(interfaces.GetAddress(1), port);
    client.SetAttribute("MaxPackets", UintegerValue(packets));
    client.SetAttribute("Interval", TimeValue(MilliSeconds(10)));
    client.SetAttribute("PacketSize", UintegerValue(1000));
    ApplicationContainer source = client.Install(nodes.Get(0));
    sink.Start(Seconds(0));
    source.Start(Seconds(0.1));
    Simulator::Stop(Seconds(1));
    Simulator::Run();

    Ptr<QueueDisc> sender = discs.Get(0);
    UintegerValue installedQuantum;
    sender->GetAttribute("Quantum", installedQuantum);
    const QueueDisc::Stats& stats = sender->GetStats();
    std::cout << "TrafficControlHelper " << sender->GetInstanceTypeId().GetName()
              << " Quantum=" << installedQuantum.Get() << "\n"
              << "queue disc: received " << stats.nTotalReceivedPackets << " sent "
              << stats.nTotalSentPackets << " dropped " << stats.nTotalDroppedPackets << "\n"
              << "UDP server received " << DynamicCast<UdpServer>(sink.Get(0))->GetReceived()
              << "\n";
    Simulator::Destroy();
    return 0;
}
