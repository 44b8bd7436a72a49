/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup qdisc-lab
 * The RED-vs-DropTail study (Luo, "Comparison of RED vs. DropTail Queuing", ns-3.24.1): TCP
 * senders with a given receiver window and one UDP on/off sender share a dumbbell bottleneck
 * whose queue disc is the paper's DropTail (FIFO: FifoQueueDisc) or RED (RedQueueDisc), both
 * limited to the same number of bytes; RED's thresholds are fractions of that limit. Reports TCP,
 * UDP and total goodput, queueing delay and drops as one JSON object (MetricsReport).
 *
 *   ./ns3 run "red-vs-droptail --queueDisc=RED --window=32000 --queueSize=16000
 *              --minTh=0.32 --maxTh=0.64"
 *
 * With --batch=FILE it runs the points FILE lists in one process (PointBatch).
 *
 * Differences from the paper's ns-3.24 code, and the choices where the paper is silent, are in
 * doc/reproductions/red-vs-droptail.rst.
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/experiment-params.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-batch.h"
#include "ns3/qdisc-lab-module.h"
#include "ns3/traffic-control-module.h"

#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The --queueDisc names (of QueueDiscCatalog) the example runs.
const std::vector<std::string> QUEUE_DISCS{"FIFO", "RED"};

/// One run of the study: parse the flags, simulate, write the metrics report (PointBatch).
int
RunPoint(int argc, char* argv[])
{
    std::string queueDisc = "FIFO";
    uint32_t window = 32000;
    uint32_t queueSize = 16000;
    // The scenario the calibration chose (doc/reproductions/red-vs-droptail.rst, "Calibration
    // result"): 8 TCP senders, UDP on 3 s / off 1 s, 100 Mb/s access links.
    DumbbellParams links("1Mbps", "20ms", "100Mbps", "1ms");
    double minTh = 0.32;
    double maxTh = 0.64;
    bool wait = true;
    bool gentle = true;
    uint32_t meanPktSize = 500;
    uint32_t nTcp = 8;
    uint32_t segmentSize = 512;
    bool sack = true;
    std::string udpRate = "500kbps";
    uint32_t udpPacketSize = 1024;
    double udpOn = 3;
    double udpOff = 1;
    double simTime = 30;
    double warmup = 2;
    double startJitter = 1;
    bool quick = false;

    // Declared in the order the report records them; the NEVER ones are not recorded (the
    // recorded campaigns' reports have none of them).
    ExperimentParams params("red-vs-droptail", __FILE__);
    params.AddChoice("queueDisc",
                     "Bottleneck queue disc: " + QueueDiscCatalog::Describe(QUEUE_DISCS),
                     queueDisc,
                     QUEUE_DISCS);
    params.AddUnsigned("window", "TCP receiver window (receive buffer) in bytes", window, 1);
    params.AddUnsigned("queueSize", "Queue limit in bytes, FIFO and RED alike", queueSize, 1);
    links.Declare(params, ExperimentParams::NEVER, ExperimentParams::ALWAYS);
    params.Add("minTh", "RED minimum threshold as a fraction of queueSize, in (0, 1]", minTh);
    params.Add("maxTh", "RED maximum threshold as a fraction of queueSize, in (minTh, 1]", maxTh);
    params.Add("wait", "RED: wait between dropping consecutive packets", wait);
    params.Add("gentle", "RED: gentle mode above the maximum threshold", gentle);
    params.AddUnsigned("meanPktSize",
                       "RED: mean packet size in bytes (idle-time estimate)",
                       meanPktSize,
                       1,
                       65535,
                       ExperimentParams::NEVER);
    params.AddUnsigned("nTcp",
                       "Number of TCP senders (one sender/receiver pair each)",
                       nTcp,
                       1,
                       1000);
    params.AddUnsigned("segmentSize", "TCP segment size in bytes", segmentSize, 1, 1460);
    params.Add("sack",
               "TCP selective acknowledgements (ns3::TcpSocketBase::Sack; ns-3.24's NewReno "
               "had none)",
               sack);
    params.AddRate("udpRate", "UDP sender's rate while on", udpRate);
    params.AddUnsigned("udpPacketSize", "UDP packet size in bytes", udpPacketSize, 12, 1472);
    params.AddSeconds("udpOn", "UDP on time in seconds (constant)", udpOn, ExperimentParams::NEVER);
    params.AddSeconds("udpOff",
                      "UDP off time in seconds (constant)",
                      udpOff,
                      ExperimentParams::NEVER);
    params.AddSeconds("simTime", "Simulated time in seconds", simTime);
    params.AddSeconds("warmup", "Seconds excluded from the statistics", warmup);
    params.AddSeconds("startJitter",
                      "TCP senders start at times uniform in [0, startJitter) s",
                      startJitter,
                      ExperimentParams::NEVER);
    params.AddRunNumber();
    params.Add("quick", "Short run for CI: simTime=10, warmup=1", quick, ExperimentParams::NEVER);
    params.SetsAttribute("window", "ns3::TcpSocket::RcvBufSize");
    params.SetsAttribute("wait", "ns3::RedQueueDisc::Wait");
    params.SetsAttribute("gentle", "ns3::RedQueueDisc::Gentle");
    params.SetsAttribute("meanPktSize", "ns3::RedQueueDisc::MeanPktSize");
    params.SetsAttribute("segmentSize", "ns3::TcpSocket::SegmentSize");
    params.SetsAttribute("sack", "ns3::TcpSocketBase::Sack");
    params.OwnsAttribute("ns3::FifoQueueDisc::MaxSize", "--queueSize");
    params.OwnsAttribute("ns3::RedQueueDisc::MaxSize", "--queueSize");
    params.OwnsAttribute("ns3::RedQueueDisc::MinTh", "--minTh x --queueSize");
    params.OwnsAttribute("ns3::RedQueueDisc::MaxTh", "--maxTh x --queueSize");
    params.Parse(argc, argv);

    if (quick)
    {
        simTime = 10;
        warmup = 1;
    }
    const QueueDiscCatalogEntry& qdiscEntry =
        QueueDiscCatalog::Choose("--queueDisc", queueDisc, QUEUE_DISCS);
    NS_ABORT_MSG_UNLESS(warmup >= 0 && warmup < simTime, "--warmup must be in [0, simTime)");
    if (queueDisc == "RED")
    {
        NS_ABORT_MSG_UNLESS(minTh > 0 && minTh < maxTh && maxTh <= 1,
                            "RED thresholds must satisfy 0 < minTh < maxTh <= 1, got minTh="
                                << minTh << " maxTh=" << maxTh);
    }

    params.SetDefault("ns3::TcpL4Protocol::SocketType", StringValue("ns3::TcpNewReno"));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(segmentSize));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(window));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));

    TrafficControlHelper tc;
    const QueueSize limit(QueueSizeUnit::BYTES, queueSize);
    if (queueDisc == "FIFO")
    {
        tc.SetRootQueueDisc(qdiscEntry.typeId, "MaxSize", QueueSizeValue(limit));
    }
    else
    {
        // In byte mode RED's thresholds and average queue are in bytes.
        tc.SetRootQueueDisc(qdiscEntry.typeId,
                            "MaxSize",
                            QueueSizeValue(limit),
                            "MinTh",
                            DoubleValue(minTh * queueSize),
                            "MaxTh",
                            DoubleValue(maxTh * queueSize),
                            "Wait",
                            BooleanValue(wait),
                            "Gentle",
                            BooleanValue(gentle),
                            "MeanPktSize",
                            UintegerValue(meanPktSize),
                            "LinkBandwidth",
                            StringValue(links.bottleneckRate),
                            "LinkDelay",
                            StringValue(links.bottleneckDelay));
    }

    DumbbellScenario scenario;
    scenario.SetLeafCount(nTcp + 1);
    links.SetLinks(scenario);
    scenario.SetBottleneckQueueDisc(tc);
    scenario.Build();

    BottleneckMonitor monitor(scenario.GetBottleneckQueueDisc(), Seconds(warmup));
    // Random TCP start times: the replications (RngRun) differ by them, and by RED's drops.
    auto startTime = CreateObject<UniformRandomVariable>();
    startTime->SetStream(1);
    for (uint32_t i = 0; i < nTcp; ++i)
    {
        monitor.AddSink("tcp",
                        scenario.AddBulkTcpFlow(i, Seconds(startTime->GetValue(0, startJitter))));
    }
    monitor.AddSink("udp",
                    scenario.AddOnOffUdpFlow(nTcp,
                                             DataRate(udpRate),
                                             udpPacketSize,
                                             Seconds(udpOn),
                                             Seconds(udpOff),
                                             Seconds(0)));
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

} // namespace

int
main(int argc, char* argv[])
{
    return PointBatch::Main(argc, argv, RunPoint);
}
