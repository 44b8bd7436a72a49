# SPDX-License-Identifier: GPL-2.0-only
"""Weighted DRR on a dumbbell, from Python: each flow's throughput follows its weight.

Three UDP senders on the left each offer 2 Mb/s to their own receiver on the right, through a
3 Mb/s bottleneck whose queue disc is qdisc-lab's DrrQueueDisc with weights 1, 2 and 3 by
destination port. DRR serves the backlogged flows in proportion to their weights, so they get
1/6, 2/6 and 3/6 of the bottleneck. Run it with

    ./qdisc-lab python examples/python/weighted-drr.py [--weights 1,2,3] [--time 4]

It prints one line per flow: dport, weight, throughput (Mb/s) and its share of the total,
next to the ideal share weight / sum(weights), measured after a warm-up second. The queue disc's
configuration is checked first (qdisclab.ns.check), so a weight DRR refuses (0, nan) is an error
message naming it, not the end of the interpreter.
"""

import argparse

from qdisclab.ns import ConfigError, check, ns

PORT = 5000  # flow i goes to port PORT + i
WARMUP = 1.0  # seconds before the measurement starts, while the queue fills


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--weights", default="1,2,3", help="weight of each flow (default 1,2,3)")
    parser.add_argument("--bottleneck", default="3Mbps", help="bottleneck rate (default 3Mbps)")
    parser.add_argument("--rate", default="2Mbps", help="each sender's rate (default 2Mbps)")
    parser.add_argument("--time", type=float, default=4.0, help="measured seconds (default 4)")
    args = parser.parse_args()
    try:
        args.weights = [float(w) for w in args.weights.split(",")]
    except ValueError:
        parser.error(f"--weights {args.weights!r}: expected numbers separated by commas")
    try:  # what ns-3 would stop the program for, as a Python exception
        check("ns3::DrrQueueDisc", **drr_attributes(args.weights))
    except ConfigError as error:
        parser.error(f"--weights {','.join(f'{w:g}' for w in args.weights)}: {error}")
    return args


def drr_attributes(weights):
    """The DRR queue disc's attributes: quantum, buckets and a weight rule per flow."""
    rules = "; ".join(f"dport={PORT + i} weight={w}" for i, w in enumerate(weights))
    # Buckets well above the flow count: with ns-2's default 10, flows of different weights can
    # share a bucket (and one share), whatever the run (the queue disc warns when they do).
    return {"Quantum": ns.UintegerValue(1500), "Buckets": ns.UintegerValue(1024),
            "WeightRules": ns.StringValue(rules)}


def build_dumbbell(args):
    """Senders on the left, receivers on the right, DRR on the left router's bottleneck port."""
    access, bottleneck = ns.PointToPointHelper(), ns.PointToPointHelper()
    access.SetDeviceAttribute("DataRate", ns.StringValue("10Mbps"))
    access.SetChannelAttribute("Delay", ns.StringValue("1ms"))
    bottleneck.SetDeviceAttribute("DataRate", ns.StringValue(args.bottleneck))
    bottleneck.SetChannelAttribute("Delay", ns.StringValue("10ms"))
    n = len(args.weights)
    dumbbell = ns.PointToPointDumbbellHelper(n, access, n, access, bottleneck)
    dumbbell.InstallStack(ns.InternetStackHelper())

    attributes = drr_attributes(args.weights)
    drr = ns.TrafficControlHelper()
    drr.SetRootQueueDisc("ns3::DrrQueueDisc", "Quantum", attributes["Quantum"],
                         "Buckets", attributes["Buckets"], "WeightRules", attributes["WeightRules"])
    # Before the addresses: Ipv4AddressHelper puts FqCoDel on devices without a queue disc.
    drr.Install(dumbbell.GetLeft().GetDevice(0))  # the helper creates the bottleneck first

    dumbbell.AssignIpv4Addresses(ns.Ipv4AddressHelper("10.1.0.0", "255.255.255.0"),
                                 ns.Ipv4AddressHelper("10.2.0.0", "255.255.255.0"),
                                 ns.Ipv4AddressHelper("10.3.0.0", "255.255.255.0"))
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()
    return dumbbell


def install_flows(dumbbell, args):
    """One constant-rate UDP flow per weight; return the receivers' PacketSinks."""
    sinks = []
    for i in range(len(args.weights)):
        local = ns.InetSocketAddress(ns.Ipv4Address.GetAny(), PORT + i).ConvertTo()
        sink = ns.PacketSinkHelper("ns3::UdpSocketFactory", local).Install(dumbbell.GetRight(i))
        sinks.append(sink.Get(0).GetObject[ns.PacketSink]())

        remote = ns.InetSocketAddress(dumbbell.GetRightIpv4Address(i), PORT + i).ConvertTo()
        sender = ns.OnOffHelper("ns3::UdpSocketFactory", remote)
        sender.SetConstantRate(ns.DataRate(args.rate), 1000)
        sender.Install(dumbbell.GetLeft(i)).Start(ns.Seconds(0.1))
    return sinks


def main():
    args = parse_args()
    dumbbell = build_dumbbell(args)
    sinks = install_flows(dumbbell, args)

    # Run the warm-up, note the bytes received, run the measured time.
    ns.Simulator.Stop(ns.Seconds(WARMUP))
    ns.Simulator.Run()
    start = [sink.GetTotalRx() for sink in sinks]
    ns.Simulator.Stop(ns.Seconds(args.time))
    ns.Simulator.Run()
    received = [sink.GetTotalRx() - before for sink, before in zip(sinks, start)]
    ns.Simulator.Destroy()

    total = sum(received)
    print("dport weight mbps share ideal")
    for i, (weight, rx) in enumerate(zip(args.weights, received)):
        mbps = rx * 8 / args.time / 1e6
        ideal = weight / sum(args.weights)
        print(f"{PORT + i} {weight:g} {mbps:.3f} {rx / total:.4f} {ideal:.4f}")


if __name__ == "__main__":
    main()
