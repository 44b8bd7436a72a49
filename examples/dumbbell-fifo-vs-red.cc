/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup qdisc-lab
 * TCP bulk transfers and one UDP on/off flow share a dumbbell's bottleneck whose queue disc is
 * ns-3's FifoQueueDisc (DropTail) or RedQueueDisc. Reports goodput, queueing delay and drops as
 * one JSON object (see MetricsReport), and optionally the queue length over time as CSV.
 *
 *   ./ns3 run "dumbbell-fifo-vs-red --queueDisc=RED --quick"
 *
 * It is `./qdisc-lab demo fifo-vs-red`: the same traffic through both queue discs
 * shows DropTail's standing queue next to RED's short one, at about the same goodput.
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/experiment-params.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/qdisc-lab-module.h"
#include "ns3/traffic-control-module.h"

#include <string>
#include <vector>

using namespace ns3;

/// The --queueDisc names (of QueueDiscCatalog) the example runs.
static const std::vector<std::string> QUEUE_DISCS{"FIFO", "RED"};

int
main(int argc, char* argv[])
{
    std::string queueDisc = "FIFO";
    uint32_t nTcp = 4;
    double simTime = 60;
    double warmup = 5;
    DumbbellParams links("10Mbps", "20ms", "100Mbps", "1ms");
    uint32_t queueLimit = 100;
    std::string udpRate = "1Mbps";
    uint32_t udpPacketSize = 1000;
    bool quick = false;
    std::string queueTrace;

    ExperimentParams params("dumbbell-fifo-vs-red", __FILE__);
    params.AddChoice("queueDisc",
                     "Bottleneck queue disc: " + QueueDiscCatalog::Describe(QUEUE_DISCS),
                     queueDisc,
                     QUEUE_DISCS);
    params.AddUnsigned("nTcp",
                       "Number of TCP bulk-transfer flows (one sender/receiver pair each)",
                       nTcp,
                       1,
                       1000);
    params.AddSeconds("simTime", "Simulated time in seconds", simTime);
    params.AddSeconds("warmup", "Seconds excluded from goodput and delay statistics", warmup);
    links.Declare(params, ExperimentParams::ALWAYS, ExperimentParams::SOMETIMES);
    params.AddUnsigned("queueLimit",
                       "Queue disc limit in packets (both queue discs)",
                       queueLimit,
                       1,
                       1000000);
    params.Add("udpRate", "UDP on/off flow's rate while on (0 disables it)", udpRate);
    params.AddUnsigned("udpPacketSize", "UDP packet size in bytes", udpPacketSize, 12, 1472);
    params.AddRunNumber();
    params.Add("quick",
               "Short run for CI and the demo: simTime=15, warmup=3",
               quick,
               ExperimentParams::NEVER);
    params.Add("queueTrace",
               "CSV file for the queue length every 10 ms (time_s,packets,bytes)",
               queueTrace,
               ExperimentParams::NEVER);
    params.WritesFile("queueTrace", queueTrace);
    params.OwnsAttribute("ns3::FifoQueueDisc::MaxSize", "--queueLimit");
    params.OwnsAttribute("ns3::RedQueueDisc::MaxSize", "--queueLimit");
    params.Parse(argc, argv);

    if (quick)
    {
        simTime = 15;
        warmup = 3;
    }
    const QueueDiscCatalogEntry& qdiscEntry =
        QueueDiscCatalog::Choose("--queueDisc", queueDisc, QUEUE_DISCS);
    NS_ABORT_MSG_UNLESS(warmup >= 0 && warmup < simTime, "--warmup must be in [0, simTime)");

    params.SetDefault("ns3::TcpL4Protocol::SocketType", StringValue("ns3::TcpNewReno"));
    params.SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
    params.SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1 << 20));
    params.SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1 << 20));

    TrafficControlHelper tc;
    QueueSize limit(QueueSizeUnit::PACKETS, queueLimit);
    if (queueDisc == "FIFO")
    {
        tc.SetRootQueueDisc(qdiscEntry.typeId, "MaxSize", QueueSizeValue(limit));
    }
    else
    {
        tc.SetRootQueueDisc(qdiscEntry.typeId,
                            "MaxSize",
                            QueueSizeValue(limit),
                            "LinkBandwidth",
                            StringValue(links.bottleneckRate),
                            "LinkDelay",
                            StringValue(links.bottleneckDelay));
    }

    const uint32_t nUdp = DataRate(udpRate).GetBitRate() > 0 ? 1 : 0;
    DumbbellScenario scenario;
    scenario.SetLeafCount(nTcp + nUdp);
    links.SetLinks(scenario);
    scenario.SetBottleneckQueueDisc(tc);
    scenario.Build();

    std::vector<Ptr<TcpBulkSink>> tcpSinks;
    // TCP start times uniform in [0, 1) s, so flows do not synchronise by construction and
    // replications (RngRun) differ.
    auto startJitter = CreateObject<UniformRandomVariable>();
    startJitter->SetStream(1);
    for (uint32_t i = 0; i < nTcp; ++i)
    {
        tcpSinks.push_back(scenario.AddBulkTcpFlow(i, Seconds(startJitter->GetValue(0, 1))));
    }
    Ptr<PacketSink> udpSink;
    if (nUdp)
    {
        udpSink = scenario.AddOnOffUdpFlow(nTcp,
                                           DataRate(udpRate),
                                           udpPacketSize,
                                           Seconds(1),
                                           Seconds(1),
                                           Seconds(0));
    }

    Ptr<QueueDisc> bottleneck = scenario.GetBottleneckQueueDisc();
    BottleneckMonitor monitor(bottleneck, Seconds(warmup));
    for (const auto& sink : tcpSinks)
    {
        monitor.AddSink("tcp", sink);
    }
    if (udpSink)
    {
        monitor.AddSink("udp", udpSink);
    }
    if (!queueTrace.empty())
    {
        monitor.SetQueueTrace(queueTrace);
    }
    monitor.Start();

    params.EnableTraces(NetDeviceContainer(scenario.GetBottleneckDevice()));
    Simulator::Stop(Seconds(simTime));
    Simulator::Run();

    MetricsReport report = params.NewReport();
    DumbbellParams::Report(report, monitor, queueDisc == "RED");
    params.Write(report);

    Simulator::Destroy();
    return 0;
}
