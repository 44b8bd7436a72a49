/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup qdisc-lab
 * A DiffServ edge router marks its customers' flows: a DscpMarkerQueueDisc on the left router's
 * egress to the bottleneck of a dumbbell meters each UDP source against its profile and writes
 * the DSCP in the IP header, which a pcap of that link shows (`--pcap=dscp-marking`, then e.g.
 * `tcpdump -v -r dscp-marking-<node>-<device>.pcap`: "tos 0x28" is AF11, 0x30 AF12, ...).
 *
 *   flow 0: 2 Mb/s constant        token bucket 1 Mb/s, 10000 B     AF11 (IN) / AF12 (OUT)
 *   flow 1: 2 Mb/s, on 0.5 s/off 0.5 s  srTCM (RFC 2697) CIR 1 Mb/s,
 *                                       CBS 20000 B, EBS 40000 B   AF21 / AF22 / AF23
 *   flow 2: 1.5 Mb/s constant      trTCM (RFC 2698) CIR 0.5 Mb/s, CBS 10000 B,
 *                                  PIR 1 Mb/s, PBS 10000 B        AF31 / AF32 / AF33
 *   flow 3: 0.5 Mb/s constant      no profile: DSCP left at 0
 *
 *   ./ns3 run "dscp-marking --quick"
 *
 * Reports each flow's bytes per colour as one JSON object (see MetricsReport).
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/experiment-params.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/qdisc-lab-module.h"
#include "ns3/traffic-control-module.h"

#include <sstream>
#include <string>

using namespace ns3;

int
main(int argc, char* argv[])
{
    double simTime = 20;
    uint32_t packetSize = 1000;
    std::string scope = "PerFlow";
    bool quick = false;

    ExperimentParams params("dscp-marking", __FILE__);
    params.AddSeconds("simTime", "Simulated time in seconds", simTime);
    params.AddUnsigned("packetSize", "UDP payload size in bytes", packetSize, 12, 1472);
    params.Add("scope", "Marker's MeterScope: PerFlow or PerProfile", scope);
    params.SetsAttribute("scope", "ns3::DscpMarkerQueueDisc::MeterScope");
    params.AddRunNumber();
    params.Add("quick", "Short run for CI: simTime=5", quick, ExperimentParams::NEVER);
    for (const char* color : {"green", "yellow", "red"})
    {
        params.AddMetric(std::string("flow<i>_") + color + "_bytes");
    }
    params.AddMetric("unmatched_packets");
    params.AddMetric("unmatched_bytes");
    params.OwnsAttribute("ns3::PointToPointNetDevice::DataRate", "the dumbbell's fixed link rates");
    params.OwnsAttribute("ns3::PointToPointChannel::Delay", "the dumbbell's fixed link delays");
    params.Parse(argc, argv);
    if (quick)
    {
        simTime = 5;
    }
    NS_ABORT_MSG_UNLESS(simTime > 1, "--simTime must be > 1 s");

    DumbbellScenario scenario;
    scenario.SetLeafCount(4);
    scenario.Build();

    // The edge router's marker, one profile per customer host.
    const auto from = [&scenario](uint32_t i) {
        std::ostringstream match;
        match << "src=" << scenario.GetLeftAddress(i) << " proto=udp";
        return match.str();
    };
    DscpMarkerHelper marker;
    marker.SetAttribute("MeterScope", StringValue(scope));
    marker.AddProfile(from(0), DataRate("1Mbps"), 10000);
    marker.AddSrTcmProfile(from(1) + " af=2", DataRate("1Mbps"), 20000, 40000);
    marker.AddTrTcmProfile(from(2) + " af=3", DataRate("500kbps"), 10000, DataRate("1Mbps"), 10000);
    auto edge =
        DynamicCast<DscpMarkerQueueDisc>(marker.Install(scenario.GetBottleneckDevice()).Get(0));

    const Time forever = Seconds(simTime);
    scenario.AddOnOffUdpFlow(0, DataRate("2Mbps"), packetSize, forever, Seconds(0), Seconds(1));
    scenario
        .AddOnOffUdpFlow(1, DataRate("2Mbps"), packetSize, Seconds(0.5), Seconds(0.5), Seconds(1));
    scenario.AddOnOffUdpFlow(2, DataRate("1.5Mbps"), packetSize, forever, Seconds(0), Seconds(1));
    scenario.AddOnOffUdpFlow(3, DataRate("500kbps"), packetSize, forever, Seconds(0), Seconds(1));

    params.EnableTraces(NetDeviceContainer(scenario.GetBottleneckDevice()));

    Simulator::Stop(Seconds(simTime));
    Simulator::Run();

    MetricsReport report = params.NewReport();
    for (uint32_t f = 0; f < edge->GetNProfiles(); ++f)
    {
        const auto& stats = edge->GetProfileStats(f);
        for (uint8_t c = 0; c < TrafficMeter::N_COLORS; ++c)
        {
            const std::string color = TrafficMeter::ColorName(static_cast<TrafficMeter::Color>(c));
            report.SetMetric("flow" + std::to_string(f) + "_" + color + "_bytes", stats.bytes[c]);
        }
    }
    report.SetMetric("unmatched_packets", edge->GetUnmatchedPackets());
    report.SetMetric("unmatched_bytes", edge->GetUnmatchedBytes());
    params.Write(report);

    Simulator::Destroy();
    return 0;
}
