# SPDX-License-Identifier: GPL-2.0-only
"""The module's queue discs with plain ns-3 helpers, from Python: examples/quick-start.cc's
two dumbbells, line for line.

DRR: three UDP flows of 2 Mb/s through a 3 Mb/s bottleneck whose DrrQueueDisc weighs them 1, 2
and 3 by destination port: they get 1/6, 2/6 and 3/6 of it. RIO: three TCP flows through a
3 Mb/s bottleneck with a RioQueueDisc; the first sender's DscpMarkerHelper marks its flow AF11
(IN) up to a 1.5 Mb/s profile, AF12 (OUT) above; the other two send best effort (OUT). Run it
with

    ./qdisc-lab python examples/python/quick-start.py [--quick] [--sim-time 20]

It prints each flow's goodput as a table: FlowMonitor's received bytes (IP packets, headers
included) per second between the flow's first and last received packet.
"""

import argparse

from qdisclab.ns import ns


class Dumbbell:
    """Senders on the left, receivers on the right, ``tch`` on the left router's bottleneck."""

    def __init__(self, n, network, tch):
        self.senders, self.receivers, self.routers = (ns.NodeContainer() for _ in range(3))
        self.senders.Create(n)
        self.receivers.Create(n)
        self.routers.Create(2)
        ns.InternetStackHelper().Install(
            ns.NodeContainer(self.senders, self.receivers, self.routers))
        access, bottleneck = ns.PointToPointHelper(), ns.PointToPointHelper()
        access.SetDeviceAttribute("DataRate", ns.StringValue("10Mbps"))
        access.SetChannelAttribute("Delay", ns.StringValue("1ms"))
        bottleneck.SetDeviceAttribute("DataRate", ns.StringValue("3Mbps"))
        bottleneck.SetChannelAttribute("Delay", ns.StringValue("10ms"))
        link = bottleneck.Install(self.routers.Get(0), self.routers.Get(1))
        # Before Ipv4AddressHelper.Assign: it installs FqCoDel on every device that has no
        # queue disc yet, and TrafficControlHelper.Install then aborts (a root exists).
        tch.Install(link.Get(0))
        addresses = ns.Ipv4AddressHelper(network, "255.255.255.0")
        addresses.Assign(link)
        self.sender_devices = ns.NetDeviceContainer()
        self.receiver_addresses = []
        for i in range(n):
            addresses.NewNetwork()
            left = access.Install(self.senders.Get(i), self.routers.Get(0))
            self.sender_devices.Add(left.Get(0))
            addresses.Assign(left)
            addresses.NewNetwork()
            right = access.Install(self.routers.Get(1), self.receivers.Get(i))
            self.receiver_addresses.append(addresses.Assign(right).GetAddress(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sim-time", type=float, default=20.0, help="simulated seconds")
    parser.add_argument("--quick", action="store_true", help="short run for tests: 8 s")
    args = parser.parse_args()
    sim_time = 8.0 if args.quick else args.sim_time
    ns.Config.SetDefault("ns3::TcpSocket::SegmentSize", ns.UintegerValue(1448))

    drr = ns.TrafficControlHelper()
    drr.SetRootQueueDisc("ns3::DrrQueueDisc", "Quantum", ns.UintegerValue(1500),
                         "Buckets", ns.UintegerValue(1024),  # ns-2's 10 lets flows share one
                         "WeightRules", ns.StringValue(
                             "dport=5000 weight=1; dport=5001 weight=2; dport=5002 weight=3"))
    udp = Dumbbell(3, "10.1.0.0", drr)

    rio = ns.TrafficControlHelper()  # RIO's default thresholds, RED's idle decay at the link's
    rio.SetRootQueueDisc("ns3::RioQueueDisc",
                         "LinkBandwidth", ns.DataRateValue(ns.DataRate("3Mbps")))
    tcp = Dumbbell(3, "10.2.0.0", rio)
    marker = ns.DscpMarkerHelper()  # on the first TCP sender's egress: any time, it replaces
    marker.AddProfile("dport=6000 proto=tcp", ns.DataRate("1.5Mbps"), 20000)
    marker.Install(tcp.sender_devices.Get(0))
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()

    label = {}  # destination port -> what the flow is
    any_address = ns.Ipv4Address.GetAny()
    for i in range(3):
        port = 5000 + i
        remote = ns.InetSocketAddress(udp.receiver_addresses[i], port).ConvertTo()
        on_off = ns.OnOffHelper("ns3::UdpSocketFactory", remote)
        on_off.SetConstantRate(ns.DataRate("2Mbps"), 1000)
        on_off.Install(udp.senders.Get(i)).Start(ns.Seconds(1))
        local = ns.InetSocketAddress(any_address, port).ConvertTo()
        ns.PacketSinkHelper("ns3::UdpSocketFactory", local).Install(udp.receivers.Get(i))
        label[port] = f"DRR weight {i + 1}"
    for i in range(3):
        port = 6000 + i
        remote = ns.InetSocketAddress(tcp.receiver_addresses[i], port).ConvertTo()
        bulk = ns.BulkSendHelper("ns3::TcpSocketFactory", remote)
        bulk.Install(tcp.senders.Get(i)).Start(ns.Seconds(1 + 0.1 * i))
        local = ns.InetSocketAddress(any_address, port).ConvertTo()
        ns.PacketSinkHelper("ns3::TcpSocketFactory", local).Install(tcp.receivers.Get(i))
        label[port] = "RIO IN 1.5Mbps" if i == 0 else "RIO best effort"

    flowmon = ns.FlowMonitorHelper()
    monitor = flowmon.InstallAll()
    ns.Simulator.Stop(ns.Seconds(sim_time))
    ns.Simulator.Run()

    classifier = ns.DynamicCast[ns.Ipv4FlowClassifier](flowmon.GetClassifier())
    goodput = {}  # destination port -> Mb/s
    for entry in monitor.GetFlowStats():
        flow, stats = entry.first, entry.second
        seconds = (stats.timeLastRxPacket - stats.timeFirstRxPacket).GetSeconds()
        goodput[classifier.FindFlow(flow).destinationPort] = stats.rxBytes * 8 / seconds / 1e6
    print(f"{'flow':<18}{'dport':<7}goodput_mbps")
    for port, what in sorted(label.items()):  # not the TCP acknowledgements
        print(f"{what:<18}{port:<7}{goodput[port]:.3f}")
    ns.Simulator.Destroy()


if __name__ == "__main__":
    main()
