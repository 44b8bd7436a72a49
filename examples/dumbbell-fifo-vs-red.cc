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
 *   ./ns3 run "dumbbell-fifo-vs-red --queueDisc=Red --quick"
 *
 * This is the module's demo (`./qdisc-lab demo`): the same traffic through both queue discs
 * shows DropTail's standing queue next to RED's short one, at about the same goodput.
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/qdisc-lab-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <fstream>
#include <vector>

using namespace ns3;

namespace
{

/// Per-packet queueing delays at the bottleneck queue disc, in seconds.
std::vector<double> g_sojournSeconds;

/**
 * SojournTime trace sink.
 * \param sojourn time the dequeued packet spent in the queue disc
 */
void
RecordSojourn(Time sojourn)
{
    g_sojournSeconds.push_back(sojourn.GetSeconds());
}

/**
 * Sample the queue disc's length every \p interval and write it to \p out.
 * \param queueDisc the queue disc
 * \param out the CSV stream
 * \param interval the sampling interval
 * \param sum running sum of sampled lengths in packets
 * \param samples number of samples taken
 */
void
SampleQueue(Ptr<QueueDisc> queueDisc,
            std::ofstream* out,
            Time interval,
            double* sum,
            uint64_t* samples)
{
    uint32_t packets = queueDisc->GetNPackets();
    *sum += packets;
    ++*samples;
    if (out && out->is_open())
    {
        *out << Simulator::Now().GetSeconds() << "," << packets << "," << queueDisc->GetNBytes()
             << "\n";
    }
    Simulator::Schedule(interval, &SampleQueue, queueDisc, out, interval, sum, samples);
}

/**
 * \param sorted sorted samples
 * \param q quantile in [0, 1]
 * \return the nearest-rank quantile, NaN when there are no samples
 */
double
Quantile(const std::vector<double>& sorted, double q)
{
    if (sorted.empty())
    {
        return std::numeric_limits<double>::quiet_NaN();
    }
    auto rank = static_cast<size_t>(std::ceil(q * sorted.size()));
    return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string queueDisc = "Fifo";
    uint32_t nTcp = 4;
    double simTime = 60;
    double warmup = 5;
    std::string bottleneckRate = "10Mbps";
    std::string bottleneckDelay = "20ms";
    std::string accessRate = "100Mbps";
    std::string accessDelay = "1ms";
    uint32_t queueLimit = 100;
    std::string udpRate = "1Mbps";
    uint32_t udpPacketSize = 1000;
    bool quick = false;
    std::string output;
    std::string queueTrace;

    CommandLine cmd(__FILE__);
    cmd.AddValue("queueDisc", "Bottleneck queue disc: Fifo (DropTail) or Red", queueDisc);
    cmd.AddValue("nTcp", "Number of TCP bulk-transfer flows (one sender/receiver pair each)", nTcp);
    cmd.AddValue("simTime", "Simulated time in seconds", simTime);
    cmd.AddValue("warmup", "Seconds excluded from goodput and delay statistics", warmup);
    cmd.AddValue("bottleneckRate", "Bottleneck link rate", bottleneckRate);
    cmd.AddValue("bottleneckDelay", "Bottleneck one-way propagation delay", bottleneckDelay);
    cmd.AddValue("accessRate", "Access link rate", accessRate);
    cmd.AddValue("accessDelay", "Access link one-way propagation delay", accessDelay);
    cmd.AddValue("queueLimit", "Queue disc limit in packets (both queue discs)", queueLimit);
    cmd.AddValue("udpRate", "UDP on/off flow's rate while on (0 disables it)", udpRate);
    cmd.AddValue("udpPacketSize", "UDP packet size in bytes", udpPacketSize);
    cmd.AddValue("quick", "Short run for CI and the demo: simTime=15, warmup=3", quick);
    cmd.AddValue("output", "Metrics JSON file (default: standard output)", output);
    cmd.AddValue("queueTrace", "CSV file for the queue length every 10 ms (time_s,packets,bytes)",
                 queueTrace);
    cmd.Parse(argc, argv);

    if (quick)
    {
        simTime = 15;
        warmup = 3;
    }
    NS_ABORT_MSG_UNLESS(queueDisc == "Fifo" || queueDisc == "Red",
                        "--queueDisc must be Fifo or Red, got '" << queueDisc << "'");
    NS_ABORT_MSG_IF(nTcp == 0, "--nTcp must be >= 1");
    NS_ABORT_MSG_IF(queueLimit == 0, "--queueLimit must be >= 1 packet");
    NS_ABORT_MSG_UNLESS(warmup >= 0 && warmup < simTime, "--warmup must be in [0, simTime)");

    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue("ns3::TcpNewReno"));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1 << 20));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1 << 20));

    TrafficControlHelper tc;
    QueueSize limit(QueueSizeUnit::PACKETS, queueLimit);
    if (queueDisc == "Fifo")
    {
        tc.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", QueueSizeValue(limit));
    }
    else
    {
        tc.SetRootQueueDisc("ns3::RedQueueDisc",
                            "MaxSize",
                            QueueSizeValue(limit),
                            "LinkBandwidth",
                            StringValue(bottleneckRate),
                            "LinkDelay",
                            StringValue(bottleneckDelay));
    }

    const uint32_t nUdp = DataRate(udpRate).GetBitRate() > 0 ? 1 : 0;
    DumbbellScenario scenario;
    scenario.SetLeafCount(nTcp + nUdp);
    scenario.SetAccessLink(DataRate(accessRate), Time(accessDelay));
    scenario.SetBottleneckLink(DataRate(bottleneckRate), Time(bottleneckDelay));
    scenario.SetBottleneckQueueDisc(tc);
    scenario.Build();

    const uint16_t port = 5000;
    std::vector<Ptr<PacketSink>> tcpSinks;
    for (uint32_t i = 0; i < nTcp; ++i)
    {
        PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sinkApp = sink.Install(scenario.GetRight(i));
        tcpSinks.push_back(DynamicCast<PacketSink>(sinkApp.Get(0)));
        BulkSendHelper source("ns3::TcpSocketFactory",
                              InetSocketAddress(scenario.GetRightAddress(i), port));
        ApplicationContainer sourceApp = source.Install(scenario.GetLeft(i));
        // Staggered starts, 100 ms apart, so the flows do not synchronise by construction.
        sourceApp.Start(Seconds(0.1 * i));
    }
    Ptr<PacketSink> udpSink;
    if (nUdp)
    {
        PacketSinkHelper sink("ns3::UdpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sinkApp = sink.Install(scenario.GetRight(nTcp));
        udpSink = DynamicCast<PacketSink>(sinkApp.Get(0));
        OnOffHelper source("ns3::UdpSocketFactory",
                           InetSocketAddress(scenario.GetRightAddress(nTcp), port));
        source.SetConstantRate(DataRate(udpRate), udpPacketSize);
        source.SetAttribute("OnTime", StringValue("ns3::ConstantRandomVariable[Constant=1]"));
        source.SetAttribute("OffTime", StringValue("ns3::ConstantRandomVariable[Constant=1]"));
        source.Install(scenario.GetLeft(nTcp));
    }

    Ptr<QueueDisc> bottleneck = scenario.GetBottleneckQueueDisc();
    std::ofstream traceFile;
    if (!queueTrace.empty())
    {
        traceFile.open(queueTrace);
        NS_ABORT_MSG_UNLESS(traceFile, "cannot write --queueTrace file '" << queueTrace << "'");
        traceFile << "time_s,packets,bytes\n";
    }
    double queueSum = 0;
    uint64_t queueSamples = 0;
    uint64_t rxAtWarmup = 0;
    uint64_t udpRxAtWarmup = 0;
    Simulator::Schedule(Seconds(warmup), [&]() {
        g_sojournSeconds.clear();
        for (const auto& s : tcpSinks)
        {
            rxAtWarmup += s->GetTotalRx();
        }
        udpRxAtWarmup = udpSink ? udpSink->GetTotalRx() : 0;
        SampleQueue(bottleneck, &traceFile, MilliSeconds(10), &queueSum, &queueSamples);
    });
    bottleneck->TraceConnectWithoutContext("SojournTime", MakeCallback(&RecordSojourn));

    Simulator::Stop(Seconds(simTime));
    Simulator::Run();

    const double measured = simTime - warmup;
    uint64_t tcpRx = 0;
    for (const auto& s : tcpSinks)
    {
        tcpRx += s->GetTotalRx();
    }
    const uint64_t udpRx = udpSink ? udpSink->GetTotalRx() : 0;
    std::sort(g_sojournSeconds.begin(), g_sojournSeconds.end());
    double delaySum = 0;
    for (double d : g_sojournSeconds)
    {
        delaySum += d;
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const QueueDisc::Stats& stats = bottleneck->GetStats();
    uint64_t early = 0;
    uint64_t forced = 0;
    if (queueDisc == "Red")
    {
        early = stats.GetNDroppedPackets(RedQueueDisc::UNFORCED_DROP);
        // RED counts drops at a full queue as forced drops too.
        forced = stats.GetNDroppedPackets(RedQueueDisc::FORCED_DROP);
    }
    else
    {
        forced = stats.GetNDroppedPackets(FifoQueueDisc::LIMIT_EXCEEDED_DROP);
    }

    MetricsReport report("dumbbell-fifo-vs-red", qdisclab::Ns3Version());
    report.SetParam("queueDisc", queueDisc);
    report.SetParam("nTcp", int64_t{nTcp});
    report.SetParam("simTime", simTime);
    report.SetParam("warmup", warmup);
    report.SetParam("bottleneckRate", bottleneckRate);
    report.SetParam("bottleneckDelay", bottleneckDelay);
    report.SetParam("accessRate", accessRate);
    report.SetParam("accessDelay", accessDelay);
    report.SetParam("queueLimit", int64_t{queueLimit});
    report.SetParam("udpRate", udpRate);
    report.SetParam("udpPacketSize", int64_t{udpPacketSize});
    report.SetParam("RngRun", int64_t(RngSeedManager::GetRun()));
    report.SetMetric("goodput_mbps", (tcpRx - rxAtWarmup) * 8.0 / measured / 1e6);
    report.SetMetric("udp_goodput_mbps", nUdp ? (udpRx - udpRxAtWarmup) * 8.0 / measured / 1e6 : nan);
    report.SetMetric("mean_queue_delay_ms",
                     g_sojournSeconds.empty() ? nan : 1e3 * delaySum / g_sojournSeconds.size());
    report.SetMetric("p99_queue_delay_ms", 1e3 * Quantile(g_sojournSeconds, 0.99));
    report.SetMetric("mean_queue_packets", queueSamples ? queueSum / queueSamples : nan);
    report.SetMetric("drops", static_cast<double>(stats.nTotalDroppedPackets));
    report.SetMetric("early_drops", static_cast<double>(early));
    report.SetMetric("forced_drops", static_cast<double>(forced));
    report.Write(output);

    Simulator::Destroy();
    return 0;
}
