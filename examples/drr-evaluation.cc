/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup qdisc-lab
 * The DRR evaluation (J.-S. Li, "An Evaluation of Deficit Round Robin Fair
 * Queuing Applied in Router Congestion Control", JISE 2002, ns-2): UDP sources
 * share a dumbbell bottleneck whose queue disc is DrrQueueDisc (DRR) or
 * FifoQueueDisc (FIFO, the paper's DropTail). Two scenarios:
 *
 *  - fairness (the paper's Fig. 3): ten exponential on/off sources (mean on 3
 * s, off 0.3 s, 1 Mb/s while on, packet sizes uniform in [1400, 1600] B), every
 * link 1 Mb/s; the standard deviation of the flows' throughputs over DRR's
 * Buckets and MaxSize (blimit_).
 *  - factorial (Tables 2-5): one measured flow and background flows, all with
 * inter-arrival times uniform in (2.5, 7.5) ms and packets of P bytes, through
 * a bottleneck of B Mb/s with FIFO (DropTail) or DRR; the measured flow's mean delay
 * and packet arrival ratio. The background flows (1 .. nFlows - 1) may have a
 * packet size and inter-arrival range of their own
 *    (--bgPacketSize, --bgIntervalMin, --bgIntervalMax), which the paper does
 * not give.
 *
 * DRR maps sender k to bucket k mod Buckets by default
 * (--flowMapping=sequential: what ns-2's DRR hash does with node addresses
 * below 16) or uses DrrQueueDisc's own hash
 * (--flowMapping=hash, a random perturbation per run unless --perturbation is
 * given).
 *   ./ns3 run "drr-evaluation --scenario=fairness --buckets=8 --maxSize=15000B"
 *   ./ns3 run "drr-evaluation --scenario=factorial --queueDisc=FIFO
 * --packetSizeMin=1000
 *              --packetSizeMax=1000 --bottleneckRate=1.5Mbps"
 *
 * Defaults depend on --scenario (give it first to see them in --help). Packet
 * sizes are IPv4 packet sizes (what the queue disc stores and DRR's quantum
 * counts), so a UDP payload is the size minus 28 bytes. Every flow is measured
 * the same way: its sink reads the send time and sequence number the source
 * wrote into each packet (SeqTsHeader). Throughput counts the IP bytes received
 * between the end of the warm-up and simTime; delay and arrival ratio cover the
 * packets sent in that interval, received before simTime + drainTime (the
 * sources stop at simTime). Flow 0 is the measured flow.
 *
 * The choices where the paper is silent are in
 * doc/reproductions/drr-evaluation.rst.
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/experiment-params.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/qdisc-lab-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("DrrEvaluation");

/// The --queueDisc names (of QueueDiscCatalog) the example runs.
static const std::vector<std::string> QUEUE_DISCS{"DRR", "FIFO"};

/**
 * \ingroup qdisc-lab
 * \brief Puts the packets of sender k (by source address) in DRR bucket k mod
 * Buckets, as ns-2's DRR does for nodes 1 .. 15: its hash of source address i <
 * 16 is i itself.
 *
 * DrrQueueDisc asks its packet filters first and uses the class modulo Buckets;
 * packets of other sources are left to its own hash (PF_NO_MATCH). It takes IPv4
 * packets by their protocol number (IsIpv4), without Ipv4PacketFilter's DynamicCast:
 * it classifies every arrival at the bottleneck. Its class depends on the source
 * address alone (FlowKeyClassifier), so that DrrQueueDisc classifies the flow key it
 * has read, without reading the header again.
 */
class SourceIndexFilter : public PacketFilter, public FlowKeyClassifier
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \param source a sender's address
     * \param index the class (bucket before the modulo) of its packets
     */
    void AddSource(Ipv4Address source, int32_t index);

    /**
     * \param key a packet's flow key
     * \return its source's class; PF_NO_MATCH for another source or a packet other
     *         than IPv4 (as CheckProtocol and DoClassify)
     */
    int32_t ClassifyKey(const FlowKey& key) const override;

  private:
    bool CheckProtocol(Ptr<QueueDiscItem> item) const override;
    int32_t DoClassify(Ptr<QueueDiscItem> item) const override;

    /// class of each source address (Ipv4Address::Get, host order)
    std::map<uint32_t, int32_t> m_index;
};

/**
 * \param item a queue disc item
 * \return whether it is an IPv4 packet: an Ipv4QueueDiscItem, the only item IPv4 hands
 *         to traffic control (Ipv4L3Protocol::PROT_NUMBER)
 */
static bool
IsIpv4(const QueueDiscItem& item)
{
    return item.GetProtocol() == Ipv4L3Protocol::PROT_NUMBER;
}

NS_OBJECT_ENSURE_REGISTERED(SourceIndexFilter);

TypeId
SourceIndexFilter::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DrrEvaluationSourceIndexFilter")
                            .SetParent<PacketFilter>()
                            .SetGroupName("QdiscLab")
                            .AddConstructor<SourceIndexFilter>();
    return tid;
}

void
SourceIndexFilter::AddSource(Ipv4Address source, int32_t index)
{
    m_index[source.Get()] = index;
}

bool
SourceIndexFilter::CheckProtocol(Ptr<QueueDiscItem> item) const
{
    return IsIpv4(*item);
}

int32_t
SourceIndexFilter::DoClassify(Ptr<QueueDiscItem> item) const
{
    // PacketFilter::Classify asks CheckProtocol first; the class is ClassifyKey's, defined
    // once.
    return ClassifyKey(FlowIdentifier::Extract(*item));
}

int32_t
SourceIndexFilter::ClassifyKey(const FlowKey& key) const
{
    // An IPv4 key is an Ipv4QueueDiscItem's (FlowIdentifier::Extract), the only item of
    // protocol number Ipv4L3Protocol::PROT_NUMBER.
    if (!key.isIp || key.isIpv6)
    {
        return PacketFilter::PF_NO_MATCH;
    }
    // The key holds the address in network byte order.
    const uint32_t source = uint32_t{key.src[0]} << 24 | uint32_t{key.src[1]} << 16 |
                            uint32_t{key.src[2]} << 8 | key.src[3];
    auto it = m_index.find(source);
    return it == m_index.end() ? PacketFilter::PF_NO_MATCH : it->second;
}

/**
 * \param argc argument count
 * \param argv arguments
 * \return the value of --scenario=X (or --scenario X) among the arguments;
 * "fairness" if absent
 */
static std::string
ScenarioArgument(int argc, char* argv[])
{
    std::string scenario = "fairness";
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        for (const std::string prefix : {"--scenario=", "-scenario="})
        {
            if (arg.rfind(prefix, 0) == 0)
            {
                scenario = arg.substr(prefix.size());
            }
        }
        if ((arg == "--scenario" || arg == "-scenario") && i + 1 < argc)
        {
            scenario = argv[i + 1];
        }
    }
    return scenario;
}

/**
 * \ingroup qdisc-lab
 * The evaluation's parameters, with the paper's setup for a scenario as
 * defaults (see doc/reproductions/drr-evaluation.rst for the choices where the
 * paper is silent).
 */
struct DrrEvaluationConfig
{
    /// \param scenarioName "fairness" or "factorial": the defaults depend on it
    explicit DrrEvaluationConfig(const std::string& scenarioName)
        : scenario(scenarioName),
          fairness(scenarioName != "factorial")
    {
    }

    /**
     * Add the parameters to the command line, in the order the report records
     * them. \param params the program's parameters
     */
    void Declare(ExperimentParams& params);

    /**
     * After parsing: check the values, resolve the defaults that depend on
     * others, and leave out of the report the parameters that do not apply to
     * this run. \param params the program's parameters
     */
    void Resolve(ExperimentParams& params);

    std::string scenario; //!< fairness or factorial
    bool fairness;        //!< scenario == fairness
    std::string queueDisc = "DRR";
    std::string queueDiscTypeId; //!< the catalog's TypeId for queueDisc (set by Resolve)
    uint32_t nFlows = fairness ? 10 : 2;
    uint32_t buckets = 10;
    uint32_t quantum = 250;
    std::string maxSize;
    std::string mask = "FiveTuple";
    std::string dropFrom = "Head";
    std::string flowMapping = "sequential";
    int64_t perturbation = -1;
    std::string accessRate = fairness ? "1Mbps" : "10Mbps";
    std::string accessDelay = "1ms";
    std::string bottleneckRate = "1Mbps";
    std::string bottleneckDelay = "10ms";
    uint32_t packetSizeMin = fairness ? 1400 : 500;
    uint32_t packetSizeMax = fairness ? 1600 : 500;
    std::string onRate = "1Mbps";
    double meanOn = 3;
    double meanOff = 0.3;
    double intervalMin = 2.5;
    double intervalMax = 7.5;
    uint32_t bgPacketSize = 0;
    double bgIntervalMin = 0;
    double bgIntervalMax = 0;
    double simTime = fairness ? 300 : 200;
    double warmup = fairness ? 30 : 50;
    double drainTime = 10;
    double startJitter = 1;
    bool quick = false;
};

/**
 * \ingroup qdisc-lab
 * One run of the evaluation: its configuration, then what BuildTopology and
 * InstallTraffic create, which Collect reads after the simulation.
 */
struct DrrEvaluation : DrrEvaluationConfig
{
    using DrrEvaluationConfig::DrrEvaluationConfig;

    /// The dumbbell with the queue disc under study.
    void BuildTopology();
    /// The sources and their meters, and the queue statistics read when the
    /// sources stop.
    void InstallTraffic();
    /**
     * Write the metrics.
     * \param report the run's report, holding its parameters
     */
    void Collect(MetricsReport& report);

    DumbbellScenario dumbbell;                    //!< the topology
    Ptr<QueueDisc> bottleneck;                    //!< the queue disc under study
    std::vector<UdpFlowMeter> meters;             //!< each flow's sink
    std::vector<Ptr<RandomPacketSource>> sources; //!< each flow's source
    std::optional<BottleneckMonitor> monitor;     //!< queue statistics
    double meanQueueDelayMs = 0;                  //!< over [warmup, simTime]
    double meanQueueBytes = 0;                    //!< over [warmup, simTime]
    double drops = 0;                             //!< over [warmup, simTime]
};

void
DrrEvaluationConfig::Declare(ExperimentParams& params)
{
    const auto SOMETIMES = ExperimentParams::SOMETIMES;
    params.Add("scenario",
               "fairness (Fig. 3: on/off sources, DRR's Buckets x MaxSize) or factorial "
               "(Tables 2-5: P x B x Q); the other defaults depend on it",
               scenario);
    params.AddChoice("queueDisc",
                     "Bottleneck queue disc: " + QueueDiscCatalog::Describe(QUEUE_DISCS),
                     queueDisc,
                     QUEUE_DISCS);
    params.AddUnsigned("nFlows",
                       "Number of sources (sender/receiver pairs); flow 0 is the measured flow",
                       nFlows,
                       1,
                       254);
    params.AddText("maxSize",
                   "Queue limit as an ns-3 QueueSize ('25000B', '400p'); DRR's is the "
                   "shared "
                   "buffer (ns-2 blimit_). Default: fairness 25000B; factorial DRR 200000B, "
                   "FIFO 400p",
                   maxSize,
                   ExperimentParams::QUEUE_SIZE_TEXT);
    params.AddUnsigned("buckets", "DRR: Buckets (ns-2 buckets_)", buckets, 1, 16777216, SOMETIMES);
    params.AddUnsigned("quantum",
                       "DRR: Quantum in bytes (ns-2 quantum_; ns-2's default 250)",
                       quantum,
                       1,
                       std::numeric_limits<uint32_t>::max(),
                       SOMETIMES);
    params.Add("dropFrom",
               "DRR: DropFrom, the end of the longest flow's queue buffer "
               "stealing drops "
               "from: Head (ns-2) or Tail",
               dropFrom,
               SOMETIMES);
    params.Add("flowMapping",
               "DRR: sequential (sender k -> bucket k mod Buckets, as ns-2's "
               "hash does for "
               "node addresses < 16) or hash (DrrQueueDisc's own hash)",
               flowMapping,
               SOMETIMES);
    params.Add("mask",
               "DRR: Mask, FiveTuple or AddressPair (for flowMapping=hash)",
               mask,
               SOMETIMES);
    params.Add("perturbation",
               "DRR: hash Perturbation for flowMapping=hash; -1 draws one per run",
               perturbation,
               SOMETIMES);
    params.AddRate("accessRate", "Senders' link rate", accessRate);
    params.AddText("accessDelay",
                   "Senders' link one-way delay",
                   accessDelay,
                   ExperimentParams::TIME_TEXT);
    params.AddRate("bottleneckRate", "Bottleneck rate (the factorial's B)", bottleneckRate);
    params.AddText("bottleneckDelay",
                   "Bottleneck one-way delay",
                   bottleneckDelay,
                   ExperimentParams::TIME_TEXT);
    params.AddUnsigned("packetSizeMin",
                       "Smallest IPv4 packet size in bytes (sizes are uniform integers in "
                       "[packetSizeMin, packetSizeMax]; the factorial's P: both equal)",
                       packetSizeMin,
                       40,
                       65535);
    params.AddUnsigned("packetSizeMax",
                       "Largest IPv4 packet size in bytes",
                       packetSizeMax,
                       40,
                       65535);
    params.AddRate("onRate", "fairness: sending rate while on", onRate, SOMETIMES);
    params.AddSeconds("meanOn",
                      "fairness: mean on period in seconds (exponential)",
                      meanOn,
                      SOMETIMES);
    params.AddSeconds("meanOff",
                      "fairness: mean off period in seconds (exponential)",
                      meanOff,
                      SOMETIMES);
    params.Add("intervalMin",
               "factorial: smallest inter-arrival time in ms (uniform)",
               intervalMin,
               SOMETIMES);
    params.Add("intervalMax",
               "factorial: largest inter-arrival time in ms (uniform)",
               intervalMax,
               SOMETIMES);
    params.AddUnsigned("bgPacketSize",
                       "factorial: IPv4 packet size in bytes of the background flows (1 .. "
                       "nFlows - 1); 0 = the measured flow's sizes (P), else 40 .. 65535",
                       bgPacketSize,
                       0,
                       65535,
                       SOMETIMES);
    params.Add("bgIntervalMin",
               "factorial: background flows' smallest inter-arrival time in ms "
               "(uniform); "
               "0 = intervalMin",
               bgIntervalMin,
               SOMETIMES);
    params.Add("bgIntervalMax",
               "factorial: background flows' largest inter-arrival time in ms "
               "(uniform); "
               "0 = intervalMax",
               bgIntervalMax,
               SOMETIMES);
    params.AddSeconds("simTime", "Seconds until the sources stop", simTime);
    params.AddSeconds("warmup", "Seconds excluded from the statistics", warmup);
    params.AddSeconds("drainTime",
                      "Seconds the simulation goes on after simTime, so that packets "
                      "sent before "
                      "simTime can arrive",
                      drainTime);
    params.AddSeconds("startJitter",
                      "Sources start at times uniform in [0, startJitter) s",
                      startJitter,
                      ExperimentParams::NEVER);
    params.AddRunNumber();
    params.Add("quick",
               "Short run for CI: simTime=60, warmup=10 (fairness) or 20 (factorial)",
               quick,
               ExperimentParams::NEVER);
    for (const char* metric : {"throughput_mean_kbps",
                               "throughput_std_kbps",
                               "throughput_min_kbps",
                               "throughput_max_kbps",
                               "jain_index",
                               "total_throughput_kbps",
                               "mean_delay_s",
                               "arrival_ratio",
                               "tx_packets",
                               "rx_packets",
                               "all_mean_delay_s",
                               "all_arrival_ratio",
                               "mean_queue_delay_ms",
                               "mean_queue_bytes",
                               "drops"})
    {
        params.AddMetric(metric);
    }
    params.AddMetric("buckets_used", SOMETIMES);
    params.AddMetric("colliding_flows", SOMETIMES);
    params.AddMetric("flow<i>_kbps");
    params.SetsAttribute("buckets", "ns3::DrrQueueDisc::Buckets");
    params.SetsAttribute("quantum", "ns3::DrrQueueDisc::Quantum");
    params.SetsAttribute("dropFrom", "ns3::DrrQueueDisc::DropFrom");
    params.SetsAttribute("mask", "ns3::DrrQueueDisc::Mask");
    params.OwnsAttribute("ns3::DrrQueueDisc::MaxSize", "--maxSize");
    params.OwnsAttribute("ns3::FifoQueueDisc::MaxSize", "--maxSize");
    params.OwnsAttribute("ns3::DrrQueueDisc::Perturbation", "--flowMapping and --perturbation");
    params.OwnsAttribute("ns3::PointToPointNetDevice::Mtu", "--packetSizeMax and --bgPacketSize");
    params.OwnsAttribute("ns3::PointToPointNetDevice::DataRate",
                         "--bottleneckRate and --accessRate");
    params.OwnsAttribute("ns3::PointToPointChannel::Delay", "--bottleneckDelay and --accessDelay");
}

void
DrrEvaluationConfig::Resolve(ExperimentParams& params)
{
    if (quick)
    {
        simTime = 60;
        warmup = fairness ? 10 : 20;
    }
    NS_ABORT_MSG_UNLESS(scenario == "fairness" || scenario == "factorial",
                        "--scenario must be fairness or factorial, got '" << scenario << "'");
    queueDiscTypeId = QueueDiscCatalog::Choose("--queueDisc", queueDisc, QUEUE_DISCS).typeId;
    NS_ABORT_MSG_UNLESS(dropFrom == "Head" || dropFrom == "Tail",
                        "--dropFrom must be Head or Tail, got '" << dropFrom << "'");
    NS_ABORT_MSG_UNLESS(flowMapping == "sequential" || flowMapping == "hash",
                        "--flowMapping must be sequential or hash, got '" << flowMapping << "'");
    NS_ABORT_MSG_UNLESS(packetSizeMin >= 40 && packetSizeMin <= packetSizeMax &&
                            packetSizeMax <= 65535,
                        "packet sizes must satisfy 40 <= packetSizeMin <= "
                        "packetSizeMax <= 65535");
    NS_ABORT_MSG_UNLESS(warmup >= 0 && warmup < simTime, "--warmup must be in [0, simTime)");
    NS_ABORT_MSG_IF(drainTime < 0, "--drainTime must be >= 0");
    NS_ABORT_MSG_IF(startJitter < 0 || startJitter > warmup,
                    "--startJitter must be in [0, warmup]");
    NS_ABORT_MSG_UNLESS(perturbation >= -1 && perturbation <= 0xffffffffLL,
                        "--perturbation must be -1 or a 32-bit value");
    if (fairness)
    {
        NS_ABORT_MSG_UNLESS(meanOn > 0 && meanOff >= 0,
                            "--meanOn must be > 0 and --meanOff >= 0 seconds");
        NS_ABORT_MSG_IF(bgPacketSize != 0 || bgIntervalMin != 0 || bgIntervalMax != 0,
                        "--bgPacketSize, --bgIntervalMin and --bgIntervalMax apply to "
                        "--scenario=factorial only");
    }
    else
    {
        NS_ABORT_MSG_UNLESS(intervalMin > 0 && intervalMin <= intervalMax,
                            "inter-arrival times must satisfy 0 < intervalMin <= intervalMax");
        NS_ABORT_MSG_IF(bgPacketSize != 0 && bgPacketSize < 40,
                        "--bgPacketSize=" << bgPacketSize
                                          << " is out of range: 0 (the measured flow's sizes) "
                                             "or [40, 65535] bytes");
        bgIntervalMin = bgIntervalMin == 0 ? intervalMin : bgIntervalMin;
        bgIntervalMax = bgIntervalMax == 0 ? intervalMax : bgIntervalMax;
        NS_ABORT_MSG_UNLESS(bgIntervalMin > 0 && bgIntervalMin <= bgIntervalMax,
                            "background inter-arrival times must satisfy 0 < bgIntervalMin <= "
                            "bgIntervalMax (ms; 0 = the measured flow's), got "
                                << bgIntervalMin << " and " << bgIntervalMax);
    }
    if (maxSize.empty())
    {
        maxSize = fairness ? "25000B" : (queueDisc == "DRR" ? "200000B" : "400p");
    }

    // The report records the parameters that apply to this run.
    if (queueDisc != "DRR")
    {
        for (const char* name : {"buckets", "quantum", "dropFrom", "flowMapping"})
        {
            params.Omit(name);
        }
    }
    if (queueDisc != "DRR" || flowMapping != "hash")
    {
        params.Omit("mask");
        params.Omit("perturbation");
    }
    const std::vector<std::string> otherScenario =
        fairness ? std::vector<std::string>{"intervalMin",
                                            "intervalMax",
                                            "bgPacketSize",
                                            "bgIntervalMin",
                                            "bgIntervalMax"}
                 : std::vector<std::string>{"onRate", "meanOn", "meanOff"};
    for (const auto& name : otherScenario)
    {
        params.Omit(name);
    }
}

void
DrrEvaluation::BuildTopology()
{
    // Every device must carry the largest packet unfragmented.
    const uint32_t mtu = std::max({1500U, packetSizeMax, bgPacketSize});
    Config::SetDefault("ns3::PointToPointNetDevice::Mtu", UintegerValue(mtu));

    const bool drr = queueDisc == "DRR";
    if (drr && flowMapping == "hash" && perturbation < 0)
    {
        auto draw = CreateObject<UniformRandomVariable>();
        draw->SetStream(2); // its own stream: the traffic is the same with either mapping
        perturbation = draw->GetInteger(0, 0xffffffffU);
    }

    const QueueSize limit(maxSize);
    TrafficControlHelper tc;
    if (drr)
    {
        tc.SetRootQueueDisc(queueDiscTypeId,
                            "MaxSize",
                            QueueSizeValue(limit),
                            "Buckets",
                            UintegerValue(buckets),
                            "Quantum",
                            UintegerValue(quantum),
                            "DropFrom",
                            StringValue(dropFrom),
                            "Mask",
                            StringValue(mask),
                            "Perturbation",
                            UintegerValue(flowMapping == "hash" ? perturbation : 0));
    }
    else
    {
        tc.SetRootQueueDisc(queueDiscTypeId, "MaxSize", QueueSizeValue(limit));
    }

    dumbbell.SetLeafCount(nFlows);
    dumbbell.SetAccessLink(DataRate(accessRate), Time(accessDelay));
    dumbbell.SetBottleneckLink(DataRate(bottleneckRate), Time(bottleneckDelay));
    dumbbell.SetBottleneckQueueDisc(tc);
    dumbbell.Build();
    bottleneck = dumbbell.GetBottleneckQueueDisc();

    if (drr && flowMapping == "sequential")
    {
        auto filter = CreateObject<SourceIndexFilter>();
        for (uint32_t i = 0; i < nFlows; ++i)
        {
            filter->AddSource(dumbbell.GetLeftAddress(i), static_cast<int32_t>(i));
        }
        bottleneck->AddPacketFilter(filter);
    }
}

void
DrrEvaluation::InstallTraffic()
{
    // Sources and sinks. Explicit streams: the same RngRun gives every flow the
    // same draws in every configuration (common random numbers across the
    // factorial's cells).
    const Time warmupTime = Seconds(warmup);
    const Time stopTime = Seconds(simTime);
    meters.resize(nFlows);
    auto startTime = CreateObject<UniformRandomVariable>();
    startTime->SetStream(1);
    const uint16_t port = 9000;
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        meters[i].SetWindow(warmupTime, stopTime);
        meters[i].Install(dumbbell.GetRight(i), port);

        // Flow 0 is the measured flow; the others are the factorial's background.
        const bool background = !fairness && i > 0;
        const bool ownSize = background && bgPacketSize != 0;
        auto source = CreateObject<RandomPacketSource>();
        source->Setup(InetSocketAddress(dumbbell.GetRightAddress(i), port),
                      RandomPacketSource::UniformSizes(ownSize ? bgPacketSize : packetSizeMin,
                                                       ownSize ? bgPacketSize : packetSizeMax,
                                                       10 + 4 * i));
        if (fairness)
        {
            source->SetOnOff(DataRate(onRate),
                             RandomPacketSource::ExponentialPeriods(meanOn, 11 + 4 * i),
                             RandomPacketSource::ExponentialPeriods(meanOff, 12 + 4 * i));
        }
        else
        {
            auto interval = CreateObject<UniformRandomVariable>();
            interval->SetAttribute("Min",
                                   DoubleValue((background ? bgIntervalMin : intervalMin) / 1000));
            interval->SetAttribute("Max",
                                   DoubleValue((background ? bgIntervalMax : intervalMax) / 1000));
            interval->SetStream(13 + 4 * i);
            source->SetInterval(interval);
        }
        source->SetMeasurementStart(warmupTime);
        dumbbell.GetLeft(i)->AddApplication(source);
        source->SetStartTime(Seconds(startTime->GetValue(0, startJitter)));
        source->SetStopTime(stopTime);
        sources.push_back(source);
    }

    // Queue statistics over [warmup, simTime]: read when the sources stop.
    monitor.emplace(bottleneck, warmupTime);
    monitor->Start();
    qdisclab::Schedule(stopTime, [&]() {
        meanQueueDelayMs = monitor->GetMeanQueueDelayMs();
        meanQueueBytes = monitor->GetMeanQueueBytes();
        drops = static_cast<double>(monitor->GetDrops());
    });
}

void
DrrEvaluation::Collect(MetricsReport& report)
{
    const bool drr = queueDisc == "DRR";
    // Per-flow throughput (kb/s) and its spread; flow 0's delay and arrival
    // ratio.
    const double seconds = simTime - warmup;
    std::vector<double> kbps(nFlows);
    double sum = 0;
    double sumSquares = 0;
    uint64_t sentAll = 0;
    uint64_t receivedAll = 0;
    double delaySumAll = 0;
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        kbps[i] = meters[i].GetWindowBytes() * 8.0 / 1000.0 / seconds;
        sum += kbps[i];
        sumSquares += kbps[i] * kbps[i];
        sentAll += sources[i]->GetMeasuredSent();
        receivedAll += meters[i].GetReceived();
        delaySumAll += meters[i].GetDelaySumSeconds();
    }
    const double mean = sum / nFlows;
    double variance = 0;
    for (double x : kbps)
    {
        variance += (x - mean) * (x - mean);
    }
    variance /= nFlows; // population variance over the flows
    const uint64_t sent0 = sources[0]->GetMeasuredSent();
    const uint64_t received0 = meters[0].GetReceived();
    const double nan = std::nan("");

    report.SetMetric("throughput_mean_kbps", mean);
    report.SetMetric("throughput_std_kbps", std::sqrt(variance));
    report.SetMetric("throughput_min_kbps", *std::min_element(kbps.begin(), kbps.end()));
    report.SetMetric("throughput_max_kbps", *std::max_element(kbps.begin(), kbps.end()));
    report.SetMetric("jain_index", sumSquares > 0 ? sum * sum / (nFlows * sumSquares) : nan);
    report.SetMetric("total_throughput_kbps", sum);
    report.SetMetric("mean_delay_s", received0 ? meters[0].GetDelaySumSeconds() / received0 : nan);
    report.SetMetric("arrival_ratio", sent0 ? double(received0) / sent0 : nan);
    report.SetMetric("tx_packets", static_cast<double>(sent0));
    report.SetMetric("rx_packets", static_cast<double>(received0));
    report.SetMetric("all_mean_delay_s", receivedAll ? delaySumAll / receivedAll : nan);
    report.SetMetric("all_arrival_ratio", sentAll ? double(receivedAll) / sentAll : nan);
    report.SetMetric("mean_queue_delay_ms", meanQueueDelayMs);
    report.SetMetric("mean_queue_bytes", meanQueueBytes);
    report.SetMetric("drops", drops);
    if (drr)
    {
        // The buckets the flows' packets went to, and the flows that share a bucket
        // with another flow (hash collisions, or Buckets < nFlows), as DrrQueueDisc
        // counts them on arrival: each sender is one UDP flow, one five-tuple.
        const auto& perFlow = static_cast<const PerFlowQueueDisc&>(*bottleneck);
        report.SetMetric("buckets_used", static_cast<double>(perFlow.GetUsedBuckets()));
        report.SetMetric("colliding_flows", perFlow.GetFlowsInSharedBuckets());
    }
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        report.SetMetric("flow" + std::to_string(i) + "_kbps", kbps[i]);
    }
}

int
main(int argc, char* argv[])
{
    ExperimentParams params("drr-evaluation", __FILE__);
    DrrEvaluation evaluation(ScenarioArgument(argc, argv));
    evaluation.Declare(params);
    params.Parse(argc, argv);
    evaluation.Resolve(params);

    evaluation.BuildTopology();
    evaluation.InstallTraffic();
    params.EnableTraces(NetDeviceContainer(evaluation.dumbbell.GetBottleneckDevice()));
    Simulator::Stop(Seconds(evaluation.simTime) + Seconds(evaluation.drainTime));
    Simulator::Run();

    MetricsReport report = params.NewReport();
    evaluation.Collect(report);
    params.Write(report);
    Simulator::Destroy();
    return 0;
}
