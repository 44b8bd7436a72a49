/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup qdisc-lab
 * Assured Service over RIO and RI+O (H. Kim, W. H. Park, S. Bahk, "A modified RIO queue
 * management scheme that reduces the bandwidth skew problem in Assured Service", ns-2): long-lived
 * TCP NewReno flows (by default as the paper's ns-2 NewReno: no SACK, classic fast recovery; see
 * --sack and --recovery) share a dumbbell bottleneck whose queue disc is RioQueueDisc or
 * RiPlusOQueueDisc. Assured Service (AS) flows have a profile: a
 * token-bucket marker on the sender's egress marks its packets IN (AF11) while they fit the
 * profile and OUT (AF12) beyond it; best-effort (BE) flows are unmarked (DSCP 0, treated as OUT).
 *
 * Flows 0 .. nAs-1 are the AS flows, flowsPerProfile of each profile in the order given, then
 * the nBestEffort BE flows. Defaults are the paper's Table 1 (20 Mb/s, RTT 100 ms, profiles
 * 2, 1, 0.5, 0.2, 0.1 Mb/s four each, 20 BE flows, RIO 390/694/0.02 for IN and 347/694/0.05
 * for IN+OUT, 320 kbit buckets, 100 s):
 *
 *   ./ns3 run "rio-assured-service --queueDisc=RI+O --outMinTh=10 --outMaxTh=30"
 *   ./ns3 run "rio-assured-service --profiles=2 --nBestEffort=11 --inMinTh=60 --inMaxTh=180
 *              --totalMinTh=30 --totalMaxTh=90 --outMinTh=10 --outMaxTh=30 --outMaxP=0.1
 *              --queueLimit=200"                                  (the paper's Fig. 2)
 *
 * --subscription=S gives each profile round(S x bottleneck / sum(profiles)) flows instead of
 * flowsPerProfile (the paper's Figs. 2 and 3 are per subscription level).
 *
 * Throughput of a flow is the IPv4 bytes of its packets leaving the bottleneck queue disc
 * between the end of the warm-up and simTime, split into IN and OUT by their DSCP; goodput is
 * what its TcpBulkSink received. BottleneckFlowMeter also counts, per flow, the retransmitted
 * and spurious (already delivered) payload bytes and the OUT drops; --traceFlow writes one
 * flow's segments, window and congestion states to a CSV file (see FlowTrace). The choices where
 * the paper is silent are in doc/reproductions/rio-assured-service.rst.
 *
 * --queueDisc=FIFO is the scenario's floor: ns-3's FifoQueueDisc of queueLimit packets and no
 * markers, the same topology and traffic, against which `qdisc-lab bench --campaigns` measures
 * what RIO and the markers cost.
 */

#include "rio-assured-service-helpers.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/experiment-params.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/qdisc-lab-module.h"
#include "ns3/traffic-control-module.h"
#include "ns3/value-text.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::qdisclab::assured;

NS_LOG_COMPONENT_DEFINE("RioAssuredService");

/// The --queueDisc names (of QueueDiscCatalog) the example runs.
static const std::vector<std::string> QUEUE_DISCS{"RIO", "RI+O", "RED", "FIFO"};

namespace
{

/**
 * \param text comma-separated positive rates in Mb/s, e.g. "2,1,0.5"
 * \return the rates; stops the program on an empty list or a bad number
 */
std::vector<double>
ParseProfiles(const std::string& text)
{
    std::vector<double> profiles;
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
    {
        // A rate in Mb/s that a DataRate holds: [1 bit/s, 2^64 - 1 bit/s].
        double value = 0;
        NS_ABORT_MSG_UNLESS(qdisclab::ParseDecimal(item, value).empty() && value >= 1e-6 &&
                                value * 1e6 < 18446744073709551616.0,
                            "--profiles: '"
                                << item
                                << "' is not a positive rate in Mb/s in [1e-06, 1.8e+13] "
                                   "(expected e.g. 2,1,0.5)");
        profiles.push_back(value);
    }
    NS_ABORT_MSG_IF(profiles.empty(), "--profiles: at least one profile rate is required");
    return profiles;
}

} // namespace

/**
 * \ingroup qdisc-lab
 * The study's parameters, with the paper's Table 1 as defaults (see
 * doc/reproductions/rio-assured-service.rst for the choices where it is silent).
 */
struct RioAssuredServiceConfig
{
    /**
     * Add the parameters to the command line, in the order the report records them.
     * \param params the program's parameters
     */
    void Declare(ExperimentParams& params);

    /**
     * After parsing: check the values, derive the flow counts from the profiles, and record
     * what the report holds (the derived parameters; not the thresholds of other queue discs).
     * \param params the program's parameters
     */
    void Resolve(ExperimentParams& params);

    std::string queueDisc = "RIO";
    std::string profilesText = "2,1,0.5,0.2,0.1";
    uint32_t flowsPerProfile = 4;
    double subscription = 0;
    uint32_t nBestEffort = 20;
    double bucketKbit = 320;
    double inMinTh = 390;
    double inMaxTh = 694;
    double inMaxP = 0.02;
    double totalMinTh = 347;
    double totalMaxTh = 694;
    double totalMaxP = 0.05;
    double outMinTh = 10;
    double outMaxTh = 30;
    double outMaxP = 0.01;
    uint32_t queueLimit = 1000;
    double queueWeight = 0.002;
    std::string bottleneckRate = "20Mbps";
    std::string bottleneckDelay = "48ms";
    std::string accessRate = "100Mbps";
    std::string accessDelay = "1ms";
    uint32_t segmentSize = 1000;
    uint32_t delAckCount = 1;
    uint32_t socketBuffer = 4 * 1024 * 1024;
    bool sack = false;
    std::string recovery = "Classic";
    Time minRto = Seconds(1);
    int32_t traceFlow = -1;
    std::string traceFile = "rio-assured-service-trace.csv";
    double simTime = 100;
    double warmup = 10;
    double startJitter = 1;
    bool quick = false;

    // Set by Resolve.
    std::string queueDiscTypeId;  //!< the catalog's TypeId for queueDisc
    std::vector<double> profiles; //!< the AS profile rates, Mb/s
    DataRate bottleneckDataRate;  //!< bottleneckRate
    uint32_t nAs = 0;             //!< AS flows: 0 .. nAs - 1
    uint32_t nFlows = 0;          //!< AS and best-effort flows
};

/**
 * \ingroup qdisc-lab
 * One run of the study: its configuration, then what BuildTopology and InstallTraffic create,
 * which Collect reads after the simulation.
 */
struct RioAssuredService : RioAssuredServiceConfig
{
    /**
     * TCP NewReno as ns-2's (see --sack and --recovery), before the stacks exist.
     * \param params the program's parameters (the fixed choices an override may replace)
     */
    void ConfigureTcp(ExperimentParams& params);
    /// The dumbbell with the queue disc under study, and a marker on every AS sender.
    void BuildTopology();
    /// The TCP flows, their meters, the --traceFlow trace and what is read after the warm-up.
    void InstallTraffic();
    /**
     * Write the metrics.
     * \param report the run's report, holding its parameters
     */
    void Collect(MetricsReport& report);

    DumbbellScenario dumbbell;                                //!< the topology
    Ptr<QueueDisc> queue;                                     //!< the queue disc under study
    Ptr<RioQueueDisc> rio;                                    //!< queue, if RIO or RI+O
    std::optional<BottleneckFlowMeter> meter;                 //!< per-flow counts at the queue
    std::optional<BottleneckMonitor> monitor;                 //!< queue statistics and sinks
    std::vector<Ptr<TcpBulkSink>> sinks;                      //!< each flow's sink
    std::vector<Time> flowStart;                              //!< each flow's start time
    std::unique_ptr<FlowTrace> trace;                         //!< --traceFlow's trace
    std::vector<uint64_t> rxAtWarmup;                         //!< sinks' bytes at the warm-up
    std::vector<uint64_t> timeouts;                           //!< timeouts after the warm-up
    std::vector<RioQueueDisc::PrecedenceStats> statsAtWarmup; //!< RIO's IN and OUT counters
    AverageSampler sampler;                                   //!< RIO's averages

  private:
    /**
     * The queue disc under study, with its parameters.
     * \param tc the bottleneck's traffic control helper
     */
    void SetQueueDisc(TrafficControlHelper& tc) const;
    /// --traceFlow: the flow's segments at the bottleneck, its window and congestion state.
    void TraceFlow();
    /// Read the counters at the end of the warm-up, and count timeouts and sample RIO after it.
    void ReadAtWarmup();
    /**
     * Per profile class, AS and BE: throughput, IN throughput and goodput.
     * \param report the run's report
     */
    void CollectThroughput(MetricsReport& report);
    /**
     * RIO's per-precedence counters and averages.
     * \param report the run's report
     */
    void CollectPrecedences(MetricsReport& report);
    /**
     * Per class: retransmitted and spurious fractions, OUT drop probability, timeouts.
     * \param report the run's report
     */
    void CollectRetransmissions(MetricsReport& report);

    std::vector<double> m_mbps;    //!< each flow's throughput
    std::vector<double> m_inMbps;  //!< each flow's IN throughput
    std::vector<double> m_goodput; //!< each flow's goodput
};

void
RioAssuredServiceConfig::Declare(ExperimentParams& params)
{
    const auto SOMETIMES = ExperimentParams::SOMETIMES;
    const auto NEVER = ExperimentParams::NEVER;
    params.AddChoice("queueDisc",
                     "Bottleneck queue disc: RIO, RI+O, RED (one RED on the whole queue with "
                     "the IN+OUT thresholds, markings ignored: the no-differentiation "
                     "baseline), or FIFO (one drop-tail FIFO of queueLimit packets and no "
                     "markers: the floor)",
                     queueDisc,
                     QUEUE_DISCS);
    params.Add("profiles",
               "AS profile rates in Mb/s, comma-separated (flowsPerProfile flows of each)",
               profilesText);
    params.AddUnsigned("flowsPerProfile", "AS flows per profile rate", flowsPerProfile, 0, 254);
    params.AddDerived("nAs", "uint", "AS flows: flowsPerProfile x the number of profiles");
    params.AddUnsigned("nBestEffort", "Best-effort (unmarked) flows", nBestEffort, 0, 254);
    params.Add("subscription",
               "If > 0: the subscription level in (0, 1]; each profile gets round(S x "
               "bottleneckRate / sum(profiles)) flows instead of flowsPerProfile (recorded: "
               "the level the flows give)",
               subscription);
    params.Add("bucketKbit",
               "Token bucket depth of every AS marker, kbit (1000 bits)",
               bucketKbit,
               SOMETIMES);
    params.Add("inMinTh", "RIO IN min_in, packets", inMinTh, SOMETIMES);
    params.Add("inMaxTh", "RIO IN max_in, packets", inMaxTh, SOMETIMES);
    params.Add("inMaxP", "RIO IN P_max_in", inMaxP, SOMETIMES);
    params.Add("totalMinTh", "RIO IN+OUT min_total, packets", totalMinTh, SOMETIMES);
    params.Add("totalMaxTh", "RIO IN+OUT max_total, packets", totalMaxTh, SOMETIMES);
    params.Add("totalMaxP", "RIO IN+OUT P_max_total", totalMaxP, SOMETIMES);
    params.Add("outMinTh", "RI+O OUT min_out, packets", outMinTh, SOMETIMES);
    params.Add("outMaxTh", "RI+O OUT max_out, packets", outMaxTh, SOMETIMES);
    params.Add("outMaxP", "RI+O OUT P_max_out", outMaxP, SOMETIMES);
    params.AddUnsigned("queueLimit", "Bottleneck queue limit, packets", queueLimit, 1, 1000000);
    params.Add("queueWeight",
               "RED averaging weight w_q of the queue averages",
               queueWeight,
               SOMETIMES);
    params.AddRate("bottleneckRate", "Bottleneck link rate", bottleneckRate);
    params.AddText("bottleneckDelay",
                   "Bottleneck one-way propagation delay",
                   bottleneckDelay,
                   ExperimentParams::TIME_TEXT);
    params.AddRate("accessRate", "Access links' rate", accessRate);
    params.AddText("accessDelay",
                   "Access links' one-way propagation delay",
                   accessDelay,
                   ExperimentParams::TIME_TEXT);
    params.AddUnsigned("segmentSize",
                       "TCP segment size, bytes (IPv4 packets are 40 B larger)",
                       segmentSize,
                       100,
                       1460);
    params.AddUnsigned("delAckCount",
                       "Segments per delayed ACK (1: an ACK per segment, as ns-2)",
                       delAckCount,
                       1,
                       65535);
    params.AddUnsigned("socketBuffer",
                       "TCP send and receive buffer, bytes (large: windows are never the limit)",
                       socketBuffer,
                       1,
                       std::numeric_limits<uint32_t>::max(),
                       NEVER);
    params.Add("sack",
               "TCP selective acknowledgements (off: ns-2's NewReno, the paper's TCP). Off, "
               "ns-3's loss recovery guesses a SACK scoreboard from duplicate ACKs and may "
               "resend data the receiver has (see doc/reproductions/rio-assured-service.rst)",
               sack);
    params.Add("recovery",
               "TCP fast-recovery algorithm: Classic (window inflation by one segment per "
               "duplicate ACK, as ns-2's NewReno) or Prr (ns-3's default, RFC 6937)",
               recovery);
    params.AddTime("minRto", "TCP minimum retransmission timeout", minRto, MilliSeconds(1));
    params.AddSeconds("simTime", "Simulated seconds", simTime);
    params.AddSeconds("warmup", "Seconds excluded from the statistics", warmup);
    params.AddRunNumber();
    params.Add("traceFlow",
               "If >= 0: write the events of this flow (its segments at the bottleneck, "
               "cwnd, ssthresh, congestion state) to --traceFile",
               traceFlow,
               NEVER);
    params.Add("traceFile", "CSV file of the --traceFlow trace", traceFile, NEVER);
    params.AddSeconds("startJitter",
                      "Flows start at times uniform in [0, startJitter) s",
                      startJitter,
                      NEVER);
    params.Add("quick", "Short run for CI: simTime=30, warmup=5", quick, NEVER);
    for (const char* metric : {"as<i>_mbps",
                               "as<i>_min_mbps",
                               "as<i>_max_mbps",
                               "as<i>_in_mbps",
                               "as<i>_goodput_mbps",
                               "as_mbps",
                               "as_min_mbps",
                               "as_in_mbps",
                               "be_mbps",
                               "be_min_mbps",
                               "be_max_mbps",
                               "be_in_mbps",
                               "be_goodput_mbps",
                               "total_mbps",
                               "mean_queue_packets",
                               "mean_queue_delay_ms",
                               "drops"})
    {
        params.AddMetric(metric);
    }
    for (const char* metric : {"in_packets",
                               "in_early_drops",
                               "in_forced_drops",
                               "in_limit_drops",
                               "out_packets",
                               "out_early_drops",
                               "out_forced_drops",
                               "out_limit_drops",
                               "out_queue_drops",
                               "mean_avg_in_packets",
                               "mean_avg_total_packets"})
    {
        params.AddMetric(metric, SOMETIMES); // RIO and RI+O
    }
    for (const char* metric : {"as<i>_retx_fraction",
                               "as<i>_spurious_fraction",
                               "as<i>_out_drop_prob",
                               "be_retx_fraction",
                               "be_spurious_fraction",
                               "be_out_drop_prob",
                               "as<i>_timeouts_per_s",
                               "be_timeouts_per_s",
                               "flow<i>_mbps",
                               "flow<i>_goodput_mbps"})
    {
        params.AddMetric(metric);
    }
    params.SetsAttribute("segmentSize", "ns3::TcpSocket::SegmentSize");
    params.SetsAttribute("delAckCount", "ns3::TcpSocket::DelAckCount");
    params.SetsAttribute("sack", "ns3::TcpSocketBase::Sack");
    params.SetsAttribute("minRto", "ns3::TcpSocketBase::MinRto");
    params.OwnsAttribute("ns3::TcpSocket::SndBufSize", "--socketBuffer");
    params.OwnsAttribute("ns3::TcpSocket::RcvBufSize", "--socketBuffer");
    params.OwnsAttribute("ns3::TcpL4Protocol::RecoveryType", "--recovery");
    params.OwnsAttribute("ns3::RedQueueDisc::MaxSize", "--queueLimit");
    params.OwnsAttribute("ns3::RedQueueDisc::MinTh", "--totalMinTh");
    params.OwnsAttribute("ns3::RedQueueDisc::MaxTh", "--totalMaxTh");
    params.OwnsAttribute("ns3::RedQueueDisc::LInterm", "--totalMaxP");
    params.OwnsAttribute("ns3::RedQueueDisc::QW", "--queueWeight");
    params.OwnsAttribute("ns3::RedQueueDisc::Gentle", "the RIO paper's choice");
    params.OwnsAttribute("ns3::RedQueueDisc::LinkBandwidth", "--bottleneckRate");
    for (const std::string type : {"ns3::RioQueueDisc::", "ns3::RiPlusOQueueDisc::"})
    {
        params.OwnsAttribute(type + "MaxSize", "--queueLimit");
        params.OwnsAttribute(type + "QueueWeight", "--queueWeight");
        params.OwnsAttribute(type + "LinkBandwidth", "--bottleneckRate");
        for (const std::string threshold :
             {"InMinTh", "InMaxTh", "InMaxP", "TotalMinTh", "TotalMaxTh", "TotalMaxP"})
        {
            params.OwnsAttribute(type + threshold,
                                 "--" + std::string(1, char(std::tolower(threshold[0]))) +
                                     threshold.substr(1));
        }
    }
    for (const std::string threshold : {"OutMinTh", "OutMaxTh", "OutMaxP"})
    {
        params.OwnsAttribute("ns3::RiPlusOQueueDisc::" + threshold, "--out" + threshold.substr(3));
    }
    params.OwnsAttribute("ns3::PointToPointNetDevice::DataRate",
                         "--bottleneckRate and --accessRate");
    params.OwnsAttribute("ns3::PointToPointChannel::Delay", "--bottleneckDelay and --accessDelay");
}

void
RioAssuredServiceConfig::Resolve(ExperimentParams& params)
{
    if (quick)
    {
        simTime = 30;
        warmup = 5;
    }
    NS_ABORT_MSG_UNLESS(recovery == "Classic" || recovery == "Prr",
                        "--recovery must be Classic or Prr, got '" << recovery << "'");
    queueDiscTypeId = QueueDiscCatalog::Choose("--queueDisc", queueDisc, QUEUE_DISCS).typeId;
    profiles = ParseProfiles(profilesText);
    bottleneckDataRate = DataRate(bottleneckRate);
    double profileSum = 0;
    for (double p : profiles)
    {
        profileSum += p;
    }
    if (subscription != 0)
    {
        NS_ABORT_MSG_UNLESS(subscription > 0 && subscription <= 1,
                            "--subscription must be in (0, 1], got " << subscription);
        const double flows = subscription * bottleneckDataRate.GetBitRate() / 1e6 / profileSum;
        flowsPerProfile = static_cast<uint32_t>(std::lround(flows));
        NS_ABORT_MSG_UNLESS(std::abs(flows - flowsPerProfile) < 1e-6 && flowsPerProfile >= 1,
                            "--subscription=" << subscription << " needs " << flows
                                              << " flows per profile: not a positive integer");
    }
    nAs = flowsPerProfile * static_cast<uint32_t>(profiles.size());
    nFlows = nAs + nBestEffort;
    NS_ABORT_MSG_UNLESS(nFlows >= 1 && nFlows <= 254,
                        "AS plus best-effort flows must be in [1, 254], got " << nFlows);
    NS_ABORT_MSG_UNLESS(traceFlow >= -1 && traceFlow < static_cast<int32_t>(nFlows),
                        "--traceFlow=" << traceFlow << " is out of range [-1, " << nFlows - 1
                                       << "] (-1: no trace)");
    NS_ABORT_MSG_UNLESS(bucketKbit > 0, "--bucketKbit must be > 0");
    NS_ABORT_MSG_UNLESS(warmup >= 0 && warmup < simTime, "--warmup must be in [0, simTime)");
    NS_ABORT_MSG_UNLESS(startJitter >= 0 && startJitter <= warmup,
                        "--startJitter must be in [0, warmup]");

    // The report records the flow counts the profiles give, and the parameters that apply to
    // this run.
    params.Record("nAs", int64_t{nAs});
    params.Record("subscription",
                  nAs ? profileSum * flowsPerProfile * 1e6 / bottleneckDataRate.GetBitRate() : 0.0);
    if (queueDisc == "RED" || queueDisc == "FIFO")
    {
        for (const char* name : {"inMinTh", "inMaxTh", "inMaxP"})
        {
            params.Omit(name);
        }
    }
    if (queueDisc == "FIFO")
    {
        // The floor has no RED test and no markers.
        for (const char* name :
             {"totalMinTh", "totalMaxTh", "totalMaxP", "queueWeight", "bucketKbit"})
        {
            params.Omit(name);
        }
    }
    if (queueDisc != "RI+O")
    {
        for (const char* name : {"outMinTh", "outMaxTh", "outMaxP"})
        {
            params.Omit(name);
        }
    }
}

void
RioAssuredService::ConfigureTcp(ExperimentParams& params)
{
    params.SetDefault("ns3::TcpL4Protocol::SocketType", StringValue("ns3::TcpNewReno"));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(segmentSize));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(delAckCount));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(socketBuffer));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(socketBuffer));
    // NewReno's congestion control, with or without SACK (see --sack) and the chosen fast
    // recovery; no timestamps, as ns-2's TCP, so IPv4 packets are segmentSize + 40 bytes.
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                       TypeIdValue(recovery == "Classic" ? TcpClassicRecovery::GetTypeId()
                                                         : TcpPrrRecovery::GetTypeId()));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(minRto));
    params.SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
}

void
RioAssuredService::SetQueueDisc(TrafficControlHelper& tc) const
{
    const QueueSize limit(QueueSizeUnit::PACKETS, queueLimit);
    if (queueDisc == "FIFO")
    {
        tc.SetRootQueueDisc(queueDiscTypeId, "MaxSize", QueueSizeValue(limit));
    }
    else if (queueDisc == "RED")
    {
        tc.SetRootQueueDisc(queueDiscTypeId,
                            "MaxSize",
                            QueueSizeValue(limit),
                            "MinTh",
                            DoubleValue(totalMinTh),
                            "MaxTh",
                            DoubleValue(totalMaxTh),
                            "LInterm",
                            DoubleValue(1 / totalMaxP),
                            "QW",
                            DoubleValue(queueWeight),
                            "Gentle",
                            BooleanValue(false));
    }
    else
    {
        // RIO's IN and IN+OUT RED parameters; RI+O adds its OUT test on avg_out.
        auto setRio = [&](const std::string& type, auto&&... outParameters) {
            tc.SetRootQueueDisc(type,
                                "MaxSize",
                                QueueSizeValue(limit),
                                "QueueWeight",
                                DoubleValue(queueWeight),
                                "LinkBandwidth",
                                DataRateValue(bottleneckDataRate),
                                "InMinTh",
                                DoubleValue(inMinTh),
                                "InMaxTh",
                                DoubleValue(inMaxTh),
                                "InMaxP",
                                DoubleValue(inMaxP),
                                "TotalMinTh",
                                DoubleValue(totalMinTh),
                                "TotalMaxTh",
                                DoubleValue(totalMaxTh),
                                "TotalMaxP",
                                DoubleValue(totalMaxP),
                                std::forward<decltype(outParameters)>(outParameters)...);
        };
        if (queueDisc == "RIO")
        {
            setRio(queueDiscTypeId);
        }
        else
        {
            setRio(queueDiscTypeId,
                   "OutMinTh",
                   DoubleValue(outMinTh),
                   "OutMaxTh",
                   DoubleValue(outMaxTh),
                   "OutMaxP",
                   DoubleValue(outMaxP));
        }
    }
}

void
RioAssuredService::BuildTopology()
{
    TrafficControlHelper tc;
    SetQueueDisc(tc);
    dumbbell.SetLeafCount(nFlows);
    dumbbell.SetAccessLink(DataRate(accessRate), Time(accessDelay));
    dumbbell.SetBottleneckLink(bottleneckDataRate, Time(bottleneckDelay));
    dumbbell.SetBottleneckQueueDisc(tc);
    dumbbell.Build();
    queue = dumbbell.GetBottleneckQueueDisc();
    rio = DynamicCast<RioQueueDisc>(queue);

    // A token-bucket marker on every AS sender's egress, metering its flow against its profile:
    // IN (AF11) while the bucket holds the packet's bytes, OUT (AF12) beyond. The floor has none.
    if (queueDisc == "FIFO")
    {
        return;
    }
    const auto bucketBytes = static_cast<uint32_t>(std::lround(bucketKbit * 1000 / 8));
    for (uint32_t k = 0; k < profiles.size(); ++k)
    {
        DscpMarkerHelper marker;
        marker.AddProfile("proto=tcp", DataRate(profiles[k] * 1e6), bucketBytes);
        for (uint32_t j = 0; j < flowsPerProfile; ++j)
        {
            marker.Install(dumbbell.GetLeftDevice(k * flowsPerProfile + j));
        }
    }
}

void
RioAssuredService::InstallTraffic()
{
    const Time warmupTime = Seconds(warmup);
    const Time stopTime = Seconds(simTime);
    meter.emplace(warmupTime, stopTime);
    monitor.emplace(queue, warmupTime);
    auto startTime = CreateObject<UniformRandomVariable>();
    startTime->SetStream(1);
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        meter->AddFlow(dumbbell.GetLeftAddress(i));
        flowStart.push_back(Seconds(startTime->GetValue(0, startJitter)));
        sinks.push_back(dumbbell.AddBulkTcpFlow(i, flowStart.back()));
        monitor->AddSink(i < nAs ? "as" : "be", sinks.back());
    }
    meter->Connect(queue);
    if (traceFlow >= 0)
    {
        TraceFlow();
    }
    monitor->Start();
    ReadAtWarmup();
}

void
RioAssuredService::TraceFlow()
{
    // The flow's segments from the meter; its socket's traces once its application has
    // created the socket (just after its start time).
    trace = std::make_unique<FlowTrace>(traceFile);
    const auto traced = static_cast<uint32_t>(traceFlow);
    meter->SetEventCallback([this, traced](uint32_t flow,
                                           BottleneckFlowMeter::Event event,
                                           uint32_t seq,
                                           uint32_t bytes,
                                           bool in) {
        if (flow == traced)
        {
            trace->Segment(event, seq, bytes, in);
        }
    });
    Ptr<Node> sender = dumbbell.GetLeft(traced);
    qdisclab::Schedule(flowStart[traced] + NanoSeconds(1), [this, sender]() {
        Ptr<TcpL4Protocol> tcp = sender->GetObject<TcpL4Protocol>();
        ObjectVectorValue sockets;
        tcp->GetAttribute("SocketList", sockets);
        NS_ABORT_MSG_UNLESS(sockets.GetN() == 1, "--traceFlow: no sender socket yet");
        trace->Follow(DynamicCast<TcpSocketBase>(sockets.Get(0)));
    });
}

void
RioAssuredService::ReadAtWarmup()
{
    // At the end of the warm-up (every flow has started): the sinks' byte counts and the queue
    // disc's per-precedence counters, so that both are reported over [warmup, simTime]; from
    // then on, each flow's retransmission timeouts and RIO's averages.
    rxAtWarmup.assign(nFlows, 0);
    timeouts.assign(nFlows, 0);
    statsAtWarmup.resize(2);
    sampler.rio = rio;
    sampler.interval = MilliSeconds(10);
    sampler.until = Seconds(simTime);
    qdisclab::Schedule(Seconds(warmup), [this]() {
        for (uint32_t i = 0; i < nFlows; ++i)
        {
            rxAtWarmup[i] = sinks[i]->GetTotalRx();
            std::ostringstream path;
            path << "/NodeList/" << dumbbell.GetLeft(i)->GetId()
                 << "/$ns3::TcpL4Protocol/SocketList/0/CongState";
            Config::ConnectWithoutContext(path.str(),
                                          MakeBoundCallback(&CountTimeout, &timeouts[i]));
        }
        if (rio)
        {
            for (uint32_t k = 0; k < 2; ++k)
            {
                statsAtWarmup[k] = rio->GetPrecedenceStats(k + 1);
            }
            sampler.Sample();
        }
    });
}

void
RioAssuredService::Collect(MetricsReport& report)
{
    const double seconds = simTime - warmup;
    m_mbps.resize(nFlows);
    m_inMbps.resize(nFlows);
    m_goodput.resize(nFlows);
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        m_mbps[i] = meter->GetMbps(i);
        m_inMbps[i] = meter->GetInMbps(i);
        m_goodput[i] = (sinks[i]->GetTotalRx() - rxAtWarmup[i]) * 8.0 / 1e6 / seconds;
    }
    CollectThroughput(report);
    report.SetMetric("mean_queue_packets", monitor->GetMeanQueuePackets());
    report.SetMetric("mean_queue_delay_ms", monitor->GetMeanQueueDelayMs());
    report.SetMetric("drops", static_cast<double>(monitor->GetDrops()));
    if (rio)
    {
        CollectPrecedences(report);
    }
    CollectRetransmissions(report);
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        report.SetMetric("flow" + std::to_string(i) + "_mbps", m_mbps[i]);
        report.SetMetric("flow" + std::to_string(i) + "_goodput_mbps", m_goodput[i]);
    }
}

void
RioAssuredService::CollectThroughput(MetricsReport& report)
{
    // Per profile class k (the k-th of --profiles), the mean, min and max over its flows.
    for (uint32_t k = 0; k < profiles.size(); ++k)
    {
        const uint32_t from = k * flowsPerProfile;
        const uint32_t to = from + flowsPerProfile;
        const Summary total = Summarize(Slice(m_mbps, from, to));
        const std::string name = "as" + std::to_string(k);
        report.SetMetric(name + "_mbps", total.mean);
        report.SetMetric(name + "_min_mbps", total.min);
        report.SetMetric(name + "_max_mbps", total.max);
        report.SetMetric(name + "_in_mbps", Summarize(Slice(m_inMbps, from, to)).mean);
        report.SetMetric(name + "_goodput_mbps", Summarize(Slice(m_goodput, from, to)).mean);
    }
    const Summary as = Summarize(Slice(m_mbps, 0, nAs));
    report.SetMetric("as_mbps", as.mean);
    report.SetMetric("as_min_mbps", as.min);
    report.SetMetric("as_in_mbps", Summarize(Slice(m_inMbps, 0, nAs)).mean);
    const Summary be = Summarize(Slice(m_mbps, nAs, nFlows));
    report.SetMetric("be_mbps", be.mean);
    report.SetMetric("be_min_mbps", be.min);
    report.SetMetric("be_max_mbps", be.max);
    report.SetMetric("be_in_mbps", Summarize(Slice(m_inMbps, nAs, nFlows)).mean);
    report.SetMetric("be_goodput_mbps", Summarize(Slice(m_goodput, nAs, nFlows)).mean);
    double totalMbps = 0;
    for (double x : m_mbps)
    {
        totalMbps += x;
    }
    report.SetMetric("total_mbps", totalMbps);
}

void
RioAssuredService::CollectPrecedences(MetricsReport& report)
{
    // IN (precedence 1) and OUT (2) drops after the warm-up: early (random), forced (average
    // above the maximum threshold) and queue-full; RI+O's OUT test on avg_out is counted
    // among OUT's early and forced drops, and separately.
    for (uint32_t k = 0; k < 2; ++k)
    {
        const RioQueueDisc::PrecedenceStats& now = rio->GetPrecedenceStats(k + 1);
        const RioQueueDisc::PrecedenceStats& then = statsAtWarmup[k];
        const std::string name = k == 0 ? "in" : "out";
        report.SetMetric(name + "_packets", static_cast<double>(now.arrivals - then.arrivals));
        report.SetMetric(name + "_early_drops",
                         static_cast<double>(now.earlyDrops - then.earlyDrops));
        report.SetMetric(name + "_forced_drops",
                         static_cast<double>(now.forcedDrops - then.forcedDrops));
        report.SetMetric(name + "_limit_drops",
                         static_cast<double>(now.limitDrops - then.limitDrops));
    }
    report.SetMetric("out_queue_drops",
                     static_cast<double>(monitor->GetDrops(RiPlusOQueueDisc::OUT_UNFORCED_DROP) +
                                         monitor->GetDrops(RiPlusOQueueDisc::OUT_FORCED_DROP)));
    report.SetMetric("mean_avg_in_packets", sampler.inSum / sampler.samples);
    report.SetMetric("mean_avg_total_packets", sampler.totalSum / sampler.samples);
}

void
RioAssuredService::CollectRetransmissions(MetricsReport& report)
{
    // Per class, over its flows' segments at the bottleneck after the warm-up: the fractions of
    // TCP payload bytes that were retransmissions and spurious retransmissions (bytes the
    // receiver already had), and the drop probability of its OUT packets.
    auto fractions = [&](const std::string& name, uint32_t from, uint32_t to) {
        BottleneckFlowMeter::Counters sum;
        for (uint32_t i = from; i < to; ++i)
        {
            const BottleneckFlowMeter::Counters& c = meter->GetCounters(i);
            sum.sentPayload += c.sentPayload;
            sum.resentPayload += c.resentPayload;
            sum.duplicatePayload += c.duplicatePayload;
            sum.outArrivals += c.outArrivals;
            sum.outDrops += c.outDrops;
        }
        auto ratio = [](uint64_t a, uint64_t b) {
            return b ? static_cast<double>(a) / b : std::nan("");
        };
        report.SetMetric(name + "_retx_fraction", ratio(sum.resentPayload, sum.sentPayload));
        report.SetMetric(name + "_spurious_fraction", ratio(sum.duplicatePayload, sum.sentPayload));
        report.SetMetric(name + "_out_drop_prob", ratio(sum.outDrops, sum.outArrivals));
    };
    for (uint32_t k = 0; k < profiles.size(); ++k)
    {
        fractions("as" + std::to_string(k), k * flowsPerProfile, (k + 1) * flowsPerProfile);
    }
    fractions("be", nAs, nFlows);
    // Retransmission timeouts per flow and second after the warm-up, by class.
    const double seconds = simTime - warmup;
    auto timeoutRate = [&](uint32_t from, uint32_t to) {
        double sum = 0;
        for (uint32_t i = from; i < to; ++i)
        {
            sum += timeouts[i];
        }
        return to > from ? sum / (to - from) / seconds : std::nan("");
    };
    for (uint32_t k = 0; k < profiles.size(); ++k)
    {
        report.SetMetric("as" + std::to_string(k) + "_timeouts_per_s",
                         timeoutRate(k * flowsPerProfile, (k + 1) * flowsPerProfile));
    }
    report.SetMetric("be_timeouts_per_s", timeoutRate(nAs, nFlows));
}

int
main(int argc, char* argv[])
{
    ExperimentParams params("rio-assured-service", __FILE__);
    RioAssuredService study;
    study.Declare(params);
    params.Parse(argc, argv);
    study.Resolve(params);

    study.ConfigureTcp(params);
    study.BuildTopology();
    study.InstallTraffic();
    params.EnableTraces(NetDeviceContainer(study.dumbbell.GetBottleneckDevice()));
    Simulator::Stop(Seconds(study.simTime));
    Simulator::Run();

    MetricsReport report = params.NewReport();
    study.Collect(report);
    params.Write(report);
    Simulator::Destroy();
    return 0;
}
