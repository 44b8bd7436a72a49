/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup qdisc-lab
 * The simulations of Vertical Dimensioning's paper (S. Bakiras, F. Wang, D. Papadias and
 * M. Hamdi, "Vertical Dimensioning: A Novel DRR Implementation for Efficient Fair Queueing",
 * §IV; ns-2): the Fig. 3 topology, reconstructed as a parking lot (ParkingLotScenario, nine
 * nodes n0 ... n8, every link 1 ms), with the scheduler under study on both core links:
 *
 *   n0 -- n1 == n2 == n3 -- n4     background: 15 flows n0 -> n4, 10 n5 -> n6, 10 n7 -> n8,
 *         |     |  |     |         UDP on/off (Pareto, shape 1.5, mean on and off 500 ms,
 *        n5    n6 n7    n8         250 kb/s while on), weight 1
 *
 * plus reference flows n0 -> n4, flow i with weight w_i (--weights, default i = 1 .. 10):
 *
 *  - --reference=cbr (Fig. 4): UDP at w_i x 125 kb/s; their end-to-end delay (mean, 99th
 *    percentile, maximum), throughput and loss;
 *  - --reference=tcp (Fig. 5): long-lived TCP transfers (FTP); their throughput.
 *
 * UDP packet sizes are uniform in [200, 1000] B (IPv4 packet sizes, as ns-2 counts them), TCP
 * segments 1000 B; the schedulers' quantum (VD's L_M, DRR's Quantum) is 1000 B. The scheduler
 * is chosen by name from the module's queue disc catalog (helper/queue-disc-catalog.h;
 * --queueDisc=VD, DRR, SRR, Aliquem, DRR-tail, WF2Q+, FIFO): every per-flow queue disc the
 * catalog has, so a new one needs no edit here. Per-flow schedulers get one bucket per flow (a
 * FlowIndexPacketFilter) and the weights as WeightRules on the reference flows' ports;
 * background flows keep the default weight 1. --vdReturn=keep runs VD with ReturningFlows =
 * Keep (a flow that empties and returns in the same round keeps what is left of its quantum;
 * ours, a variant of the paper's Fig. 2).
 *
 *   ./ns3 run "vertical-dimensioning-evaluation --queueDisc=VD --reference=cbr --quick"
 *   ./ns3 run "vertical-dimensioning-evaluation --queueDisc=DRR --reference=tcp --maxSize=12500B"
 *
 * Output: one JSON metrics object (MetricsReport). Throughputs are IPv4-layer rates (kb/s)
 * between the warm-up and simTime, comparable with the core links' rate; for TCP, the bytes the
 * sink received scaled by tcpPacketSize / segment size. Delays cover the packets sent in that
 * interval, received before simTime + drainTime. The reconstruction and every choice the paper
 * leaves open are in doc/reproductions/vertical-dimensioning.rst.
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/experiment-params.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/qdisc-lab-config.h"
#include "ns3/qdisc-lab-module.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/traffic-control-module.h"
#include "ns3/value-text.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("VerticalDimensioningEvaluation");

/// Bytes of the IPv4 and TCP headers of a data segment, with the timestamp option ns-3 adds.
static constexpr uint32_t IP_TCP_HEADERS = 20 + 20 + 12;
/// Destination port of reference flow i is REFERENCE_PORT + i (the weights match on it).
static constexpr uint16_t REFERENCE_PORT = 5000;
/// Destination port of the background flows.
static constexpr uint16_t BACKGROUND_PORT = 6000;

/**
 * \return the --queueDisc names (of QueueDiscCatalog) the example runs: every per-flow queue disc
 *         of the catalog (the paper's VD, DRR, SRR and Aliquem with q = 5, and ours, e.g.
 *         DRR-tail and WF2Q+), and FIFO
 */
static std::vector<std::string>
PerFlowSchedulers()
{
    std::vector<std::string> names;
    for (const QueueDiscCatalogEntry& entry : QueueDiscCatalog::GetEntries())
    {
        if (entry.Has(QueueDiscCatalogEntry::FLOW_STATE))
        {
            names.push_back(entry.name);
        }
    }
    names.emplace_back("FIFO");
    return names;
}

/// The --queueDisc names the example runs (PerFlowSchedulers).
static const std::vector<std::string> SCHEDULERS = PerFlowSchedulers();

/**
 * \param sorted values in increasing order
 * \param q the quantile, in (0, 1]
 * \return the nearest-rank quantile; NaN without values
 */
static double
Quantile(const std::vector<double>& sorted, double q)
{
    if (sorted.empty())
    {
        return std::nan("");
    }
    const auto rank = static_cast<std::size_t>(std::ceil(q * sorted.size()));
    return sorted[std::max<std::size_t>(rank, 1) - 1];
}

/**
 * \param text comma-separated positive numbers, e.g. "1,2,3"
 * \return the numbers; stops the program if one is not a finite number > 0
 */
static std::vector<double>
ParseWeights(const std::string& text)
{
    std::vector<double> weights;
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
    {
        double w = 0;
        NS_ABORT_MSG_UNLESS(qdisclab::ParseDecimal(item, w).empty() && w > 0,
                            "--weights: '" << item << "' is not a number > 0 (weights are "
                                           << "comma-separated, e.g. 1,2,3)");
        weights.push_back(w);
    }
    NS_ABORT_MSG_IF(weights.empty() || weights.size() > 1000,
                    "--weights must list 1 to 1000 weights, got " << weights.size());
    return weights;
}

/**
 * \param weights the reference flows' weights
 * \return WeightRules giving reference flow i (destination port REFERENCE_PORT + i) weight
 *         weights[i - 1]
 */
static std::string
WeightRules(const std::vector<double>& weights)
{
    std::ostringstream rules;
    for (std::size_t i = 0; i < weights.size(); ++i)
    {
        rules << (i ? "; " : "") << "dport=" << REFERENCE_PORT + i + 1 << " weight=" << weights[i];
    }
    return rules.str();
}

/**
 * \ingroup qdisc-lab
 * The simulations' parameters: the paper's §IV where it says, the reconstruction otherwise
 * (doc/reproductions/vertical-dimensioning.rst).
 */
struct VerticalDimensioningConfig
{
    /**
     * Add the parameters to the command line, in the order the report records them.
     * \param params the program's parameters
     */
    void Declare(ExperimentParams& params);

    /**
     * After parsing: check the values, choose the scheduler, read the weights; and leave out
     * of the report the parameters that do not apply to this run.
     * \param params the program's parameters
     */
    void Resolve(ExperimentParams& params);

    std::string queueDisc = "VD";
    std::string reference = "cbr";
    std::string maxSize = "50000B";
    uint32_t quantum = 1000;
    uint32_t buckets = 64;
    std::string weightList = "1,2,3,4,5,6,7,8,9,10";
    std::string cbrRateUnit = "125kbps";
    uint32_t mainBackground = 15;
    uint32_t crossBackground = 10;
    std::string backgroundRate = "250kbps";
    std::string onOff = "pareto";
    std::string vdReturn = "fresh";
    double paretoShape = 1.5;
    double meanOn = 0.5;
    double meanOff = 0.5;
    uint32_t packetSizeMin = 200;
    uint32_t packetSizeMax = 1000;
    uint32_t tcpPacketSize = 1000;
    std::string tcp = "TcpNewReno";
    uint32_t hops = 2;
    std::string accessRate = "100Mbps";
    std::string accessDelay = "1ms";
    std::string coreRate = "10Mbps";
    std::string coreDelay = "1ms";
    double simTime = 60;
    double warmup = 5;
    double drainTime = 1;
    double startJitter = 1;
    bool quick = false;

    // Set by Resolve.
    const QueueDiscCatalogEntry* scheduler = nullptr; //!< the catalog's entry for queueDisc
    bool perFlow = false;        //!< whether the scheduler keeps per-flow state (buckets)
    std::vector<double> weights; //!< the reference flows' weights
    uint32_t nReference = 0;     //!< the number of reference flows
    bool tcpReference = false;   //!< reference == tcp
    TypeId tcpType;              //!< ns3::<tcp>
};

/// Background flows into one sink: group 0 is n0 -> n4, group 1 + h hop h's cross traffic.
struct BackgroundGroup
{
    std::string name;                             //!< metric prefix
    Ptr<Node> from;                               //!< sources' node
    Ptr<Node> to;                                 //!< sink's node
    Ipv4Address address;                          //!< sink's address
    uint32_t flows;                               //!< number of sources
    UdpFlowMeter meter;                           //!< what the sink received
    std::vector<Ptr<RandomPacketSource>> sources; //!< the sources
};

/**
 * \ingroup qdisc-lab
 * One run of the simulations: its configuration, then what BuildTopology and InstallTraffic
 * create, which Collect reads after the simulation.
 */
struct VerticalDimensioningEvaluation : VerticalDimensioningConfig
{
    /**
     * With TCP reference flows, their congestion control and segment size, before the stacks
     * exist.
     * \param params the program's parameters (the fixed choices an override may replace)
     */
    void ConfigureTcp(ExperimentParams& params);
    /// The parking lot with the scheduler under study on every core link.
    void BuildTopology();
    /// The reference and background flows, and the core links' measurements.
    void InstallTraffic();
    /// \return the core links' devices (the ones the simulations study)
    NetDeviceContainer GetCoreDevices() const;
    /// Stop the program if a per-flow scheduler had to share a bucket between flows.
    void CheckBuckets() const;
    /**
     * Write the metrics.
     * \param report the run's report, holding its parameters
     */
    void Collect(MetricsReport& report) const;

    ParkingLotScenario lot;                                   //!< the topology
    std::vector<Ptr<FlowIndexPacketFilter>> filters;          //!< per hop, per-flow schedulers
    std::vector<UdpFlowMeter> referenceMeters;                //!< cbr reference flows' sinks
    std::vector<Ptr<RandomPacketSource>> cbrSources;          //!< cbr reference flows' sources
    std::vector<Ptr<TcpBulkSink>> tcpSinks;                   //!< tcp reference flows' sinks
    std::vector<BackgroundGroup> groups;                      //!< the background flows
    std::vector<std::unique_ptr<BottleneckMonitor>> monitors; //!< per hop
    std::vector<uint64_t> sentAtWarmup;                       //!< per hop, bytes sent
    std::vector<uint64_t> sentAtEnd;                          //!< per hop, bytes sent
    std::vector<double> meanQueueBytes;                       //!< per hop, over [warmup, simTime]
    std::vector<uint64_t> drops;                              //!< per hop, over [warmup, simTime]
    std::vector<uint64_t> tcpRxAtWarmup;                      //!< tcp sinks' bytes
    std::vector<uint64_t> tcpRxAtEnd;                         //!< tcp sinks' bytes

  private:
    /**
     * \param stream the random stream
     * \return UDP packet sizes, uniform in [packetSizeMin, packetSizeMax]
     */
    Ptr<RandomVariableStream> UniformSize(int64_t stream) const;
    /**
     * \param mean the mean period, seconds
     * \param stream the random stream
     * \return on or off periods (--onOff)
     */
    Ptr<RandomVariableStream> Period(double mean, int64_t stream) const;
    /**
     * The reference flows n0 -> n4, flow i to port REFERENCE_PORT + i.
     * \param startTime their start times' draws
     */
    void InstallReferenceFlows(Ptr<UniformRandomVariable> startTime);
    /**
     * The background flows, one sink per group.
     * \param startTime their start times' draws
     */
    void InstallBackground(Ptr<UniformRandomVariable> startTime);
    /// The core links' queue length, drops and bytes sent over [warmup, simTime].
    void MonitorCoreLinks();
    /**
     * The reference flows' throughput, and for cbr their delay and loss.
     * \param report the run's report
     */
    void CollectReference(MetricsReport& report) const;
};

void
VerticalDimensioningConfig::Declare(ExperimentParams& params)
{
    const auto SOMETIMES = ExperimentParams::SOMETIMES;
    const auto NEVER = ExperimentParams::NEVER;
    params.AddChoice("queueDisc",
                     "Scheduler on the core links, by name: " +
                         QueueDiscCatalog::Describe(SCHEDULERS),
                     queueDisc,
                     SCHEDULERS);
    params.Add("reference",
               "Reference flows: cbr (UDP at w_i x cbrRateUnit, Fig. 4) or tcp (long-lived "
               "TCP, Fig. 5)",
               reference);
    params.AddText("maxSize",
                   "Buffer of each core link's scheduler as an ns-3 QueueSize ('12500B'); "
                   "shared by all flows",
                   maxSize,
                   ExperimentParams::QUEUE_SIZE_TEXT);
    params.AddUnsigned("quantum",
                       "Quantum of a weight-1 flow in bytes (VD's L_M, DRR's Quantum); the paper's "
                       "1000",
                       quantum,
                       1,
                       65535,
                       SOMETIMES);
    params.AddUnsigned("buckets",
                       "Per-flow schedulers' Buckets: at least the flows on a link (each flow gets "
                       "its own)",
                       buckets,
                       1,
                       65536,
                       SOMETIMES);
    params.Add("weights",
               "Reference flows' weights, comma-separated; flow i has the i-th (the paper's "
               "w_i = i)",
               weightList);
    params.AddRate("cbrRateUnit",
                   "cbr: reference flow i sends at w_i times this rate (the paper's 125 kb/s)",
                   cbrRateUnit,
                   SOMETIMES);
    params.AddUnsigned("mainBackground",
                       "Background flows n0 -> n4 (the paper's 15)",
                       mainBackground,
                       0,
                       10000);
    params.AddUnsigned("crossBackground",
                       "Background flows of each hop's cross traffic, n5 -> n6 and n7 -> n8 (the "
                       "paper's 10)",
                       crossBackground,
                       0,
                       10000);
    params.AddRate("backgroundRate", "Background sources' rate while on", backgroundRate);
    params.Add("onOff",
               "Background on and off periods: pareto (ns-2's Pareto source, shape "
               "paretoShape) or exponential",
               onOff);
    params.Add("vdReturn",
               "VD only: what a flow that empties and returns in the round it was credited in "
               "gets: fresh (a fresh quantum in the current round, the paper's Fig. 2) or "
               "keep (what is left of its quantum; VerticalDimensioningQueueDisc's "
               "ReturningFlows)",
               vdReturn,
               SOMETIMES);
    params.Add("paretoShape",
               "Shape of the Pareto on and off periods, > 1",
               paretoShape,
               SOMETIMES);
    params.AddSeconds("meanOn", "Mean on period in seconds", meanOn);
    params.AddSeconds("meanOff", "Mean off period in seconds", meanOff);
    params.AddUnsigned("packetSizeMin",
                       "Smallest UDP IPv4 packet size in bytes (uniform integers in [min, max])",
                       packetSizeMin,
                       40,
                       1500);
    params.AddUnsigned("packetSizeMax",
                       "Largest UDP IPv4 packet size in bytes",
                       packetSizeMax,
                       40,
                       1500);
    params.AddUnsigned("tcpPacketSize",
                       "tcp: IPv4 size of a full TCP segment in bytes (ns-2's packetSize_ 1000)",
                       tcpPacketSize,
                       53,
                       1500,
                       SOMETIMES);
    params.Add("tcp", "tcp: congestion control, an ns-3 TcpSocketBase subclass", tcp, SOMETIMES);
    params.AddUnsigned("hops", "Core links of the parking lot (Fig. 3: 2)", hops, 1, 84);
    params.AddRate("accessRate", "Hosts' link rate", accessRate);
    params.AddText("accessDelay",
                   "Hosts' link one-way delay",
                   accessDelay,
                   ExperimentParams::TIME_TEXT);
    params.AddRate("coreRate", "Core links' rate", coreRate);
    params.AddText("coreDelay",
                   "Core links' one-way delay",
                   coreDelay,
                   ExperimentParams::TIME_TEXT);
    params.AddSeconds("simTime", "Seconds until the sources stop (the paper's 60)", simTime);
    params.AddSeconds("warmup", "Seconds excluded from the statistics", warmup);
    params.AddSeconds("drainTime",
                      "Seconds the simulation goes on after simTime, so that packets sent before "
                      "simTime can arrive",
                      drainTime);
    params.AddSeconds("startJitter",
                      "Sources start at times uniform in [0, startJitter) s",
                      startJitter,
                      NEVER);
    params.AddRunNumber();
    params.Add("quick", "Short run for CI and the demo: simTime=20, warmup=5", quick, NEVER);
    params.AddMetric("reference_kbps");
    params.AddMetric("weighted_jain");
    params.AddMetric("flow<i>_kbps");
    for (const char* metric :
         {"flow<i>_mean_delay_ms", "flow<i>_p99_delay_ms", "flow<i>_max_delay_ms", "flow<i>_loss"})
    {
        params.AddMetric(metric, SOMETIMES); // cbr reference flows
    }
    params.AddMetric("main_offered_kbps");
    params.AddMetric("main_kbps");
    params.AddMetric("cross<i>_offered_kbps", SOMETIMES);
    params.AddMetric("cross<i>_kbps", SOMETIMES);
    params.AddMetric("hop<i>_kbps");
    params.AddMetric("hop<i>_drops");
    params.AddMetric("hop<i>_mean_queue_bytes");
    params.AddMetric("hop<i>_flows", SOMETIMES); // per-flow schedulers
    // The scheduler's attributes are set by name on whichever scheduler runs (SCHEDULERS).
    for (const std::string& name : SCHEDULERS)
    {
        const QueueDiscCatalogEntry& entry = *QueueDiscCatalog::Find(name);
        const std::string type = entry.typeId + "::";
        params.OwnsAttribute(type + "MaxSize", "--maxSize");
        if (!entry.quantumAttribute.empty())
        {
            params.OwnsAttribute(type + entry.quantumAttribute, "--quantum");
        }
        if (entry.Has(QueueDiscCatalogEntry::PER_FLOW))
        {
            params.OwnsAttribute(type + "Buckets", "--buckets");
            params.OwnsAttribute(type + "WeightRules", "--weights");
        }
        for (const auto& attribute : entry.attributes)
        {
            params.OwnsAttribute(type + attribute.first, "--queueDisc=" + entry.name);
        }
    }
    params.OwnsAttribute("ns3::VerticalDimensioningQueueDisc::ReturningFlows", "--vdReturn");
    params.OwnsAttribute("ns3::TcpL4Protocol::SocketType", "--tcp");
    params.OwnsAttribute("ns3::TcpSocket::SegmentSize", "--tcpPacketSize");
    params.OwnsAttribute("ns3::PointToPointNetDevice::DataRate", "--coreRate and --accessRate");
    params.OwnsAttribute("ns3::PointToPointChannel::Delay", "--coreDelay and --accessDelay");
}

void
VerticalDimensioningConfig::Resolve(ExperimentParams& params)
{
    if (quick)
    {
        simTime = 20;
        warmup = 5;
    }
    scheduler = &QueueDiscCatalog::Choose("--queueDisc", queueDisc, SCHEDULERS);
    perFlow = scheduler->Has(QueueDiscCatalogEntry::PER_FLOW);
    NS_ABORT_MSG_UNLESS(reference == "cbr" || reference == "tcp",
                        "--reference must be cbr or tcp, got '" << reference << "'");
    NS_ABORT_MSG_UNLESS(onOff == "pareto" || onOff == "exponential",
                        "--onOff must be pareto or exponential, got '" << onOff << "'");
    NS_ABORT_MSG_UNLESS(vdReturn == "fresh" || vdReturn == "keep",
                        "--vdReturn must be fresh or keep, got '" << vdReturn << "'");
    NS_ABORT_MSG_IF(vdReturn != "fresh" && scheduler->name != "VD",
                    "--vdReturn=" << vdReturn << " applies to --queueDisc=VD only, not "
                                  << scheduler->name);
    NS_ABORT_MSG_UNLESS(paretoShape > 1, "--paretoShape must be > 1 (a finite mean)");
    NS_ABORT_MSG_UNLESS(meanOn > 0 && meanOff > 0, "--meanOn and --meanOff must be > 0");
    NS_ABORT_MSG_UNLESS(packetSizeMin >= 40 && packetSizeMin <= packetSizeMax &&
                            packetSizeMax <= 1500,
                        "packet sizes must satisfy 40 <= packetSizeMin <= packetSizeMax <= 1500");
    NS_ABORT_MSG_UNLESS(warmup >= 0 && warmup < simTime, "--warmup must be in [0, simTime)");
    NS_ABORT_MSG_IF(drainTime < 0, "--drainTime must be >= 0");
    NS_ABORT_MSG_IF(startJitter < 0 || startJitter > simTime,
                    "--startJitter must be in [0, simTime]");
    weights = ParseWeights(weightList);
    if (reference == "cbr")
    {
        // Reference flow i sends at w_i x cbrRateUnit, which must be a rate the access link
        // can carry (a faster source only floods the simulator with events) and at least 1 bit/s.
        const double unit = DataRate(cbrRateUnit).GetBitRate();
        const double access = DataRate(accessRate).GetBitRate();
        for (const double w : weights)
        {
            NS_ABORT_MSG_UNLESS(w * unit >= 1 && w * unit <= access,
                                "--weights: weight " << w << " x --cbrRateUnit=" << cbrRateUnit
                                                     << " = " << w * unit
                                                     << " bit/s is out of range [1 bit/s, "
                                                        "--accessRate="
                                                     << accessRate << "]");
        }
    }
    nReference = static_cast<uint32_t>(weights.size());
    tcpReference = reference == "tcp";
    tcpType = qdisclab::LookupTypeId("ns3::" + tcp, TcpCongestionOps::GetTypeId(), "--tcp");

    // The report records the parameters that apply to this run.
    if (scheduler->quantumAttribute.empty())
    {
        params.Omit("quantum");
    }
    if (!perFlow)
    {
        params.Omit("buckets");
    }
    params.Omit(tcpReference ? "cbrRateUnit" : "tcpPacketSize");
    if (!tcpReference)
    {
        params.Omit("tcp");
    }
    if (scheduler->name != "VD")
    {
        params.Omit("vdReturn");
    }
    if (onOff != "pareto")
    {
        params.Omit("paretoShape");
    }
}

void
VerticalDimensioningEvaluation::ConfigureTcp(ExperimentParams& params)
{
    if (tcpReference)
    {
        Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(tcpType));
        Config::SetDefault("ns3::TcpSocket::SegmentSize",
                           UintegerValue(tcpPacketSize - IP_TCP_HEADERS));
        params.SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(true));
    }
}

void
VerticalDimensioningEvaluation::BuildTopology()
{
    // The core links' schedulers: the named queue disc, its attributes set by name.
    TrafficControlHelper tc;
    tc.SetRootQueueDisc(scheduler->typeId);
    lot.SetHopCount(hops);
    lot.SetAccessLink(DataRate(accessRate), Time(accessDelay));
    lot.SetCoreLink(DataRate(coreRate), Time(coreDelay));
    lot.SetCoreQueueDisc(tc);
    lot.Build();

    const std::string rules = WeightRules(weights);
    for (uint32_t hop = 0; hop < hops; ++hop)
    {
        // Set before the simulation starts, when the queue disc checks its configuration.
        Ptr<QueueDisc> qdisc = lot.GetCoreQueueDisc(hop);
        qdisc->SetAttribute("MaxSize", QueueSizeValue(QueueSize(maxSize)));
        if (!scheduler->quantumAttribute.empty())
        {
            qdisc->SetAttribute(scheduler->quantumAttribute, UintegerValue(quantum));
        }
        if (perFlow)
        {
            qdisc->SetAttribute("Buckets", UintegerValue(buckets));
            qdisc->SetAttribute("WeightRules", StringValue(rules));
            filters.push_back(CreateObject<FlowIndexPacketFilter>());
            qdisc->AddPacketFilter(filters.back());
        }
        for (const auto& [name, value] : scheduler->attributes)
        {
            qdisc->SetAttribute(name, StringValue(value));
        }
        if (scheduler->name == "VD")
        {
            qdisc->SetAttribute("ReturningFlows",
                                StringValue(vdReturn == "keep" ? "Keep" : "Fresh"));
        }
    }
}

Ptr<RandomVariableStream>
VerticalDimensioningEvaluation::UniformSize(int64_t stream) const
{
    return RandomPacketSource::UniformSizes(packetSizeMin, packetSizeMax, stream);
}

Ptr<RandomVariableStream>
VerticalDimensioningEvaluation::Period(double mean, int64_t stream) const
{
    return onOff == "pareto" ? RandomPacketSource::ParetoPeriods(mean, paretoShape, stream)
                             : RandomPacketSource::ExponentialPeriods(mean, stream);
}

void
VerticalDimensioningEvaluation::InstallTraffic()
{
    // Explicit random streams: every scheduler sees the same traffic for a given RngRun.
    auto startTime = CreateObject<UniformRandomVariable>();
    startTime->SetStream(1);
    InstallReferenceFlows(startTime);
    InstallBackground(startTime);
    MonitorCoreLinks();
}

void
VerticalDimensioningEvaluation::InstallReferenceFlows(Ptr<UniformRandomVariable> startTime)
{
    const Time warmupTime = Seconds(warmup);
    const Time stopTime = Seconds(simTime);
    referenceMeters.resize(nReference);
    for (uint32_t i = 0; i < nReference; ++i)
    {
        const uint16_t port = REFERENCE_PORT + i + 1;
        const InetSocketAddress sinkAddress(lot.GetHostAddress(2 + hops), port);
        const Time start = Seconds(startTime->GetValue(0, startJitter));
        if (tcpReference)
        {
            TcpBulkSinkHelper sink(InetSocketAddress(Ipv4Address::GetAny(), port));
            tcpSinks.push_back(DynamicCast<TcpBulkSink>(sink.Install(lot.GetMainSink()).Get(0)));
            BulkSendHelper source("ns3::TcpSocketFactory", sinkAddress);
            ApplicationContainer app = source.Install(lot.GetMainSource());
            app.Start(start);
            app.Stop(stopTime);
            continue;
        }
        UdpFlowMeter& meter = referenceMeters[i];
        meter.SetWindow(warmupTime, stopTime);
        meter.SetKeepDelays(true);
        meter.Install(lot.GetMainSink(), port);
        auto source = CreateObject<RandomPacketSource>();
        source->Setup(sinkAddress, UniformSize(10 + 4 * i));
        source->SetConstantRate(DataRate(
            static_cast<uint64_t>(std::llround(DataRate(cbrRateUnit).GetBitRate() * weights[i]))));
        source->SetMeasurementStart(warmupTime);
        lot.GetMainSource()->AddApplication(source);
        source->SetStartTime(start);
        source->SetStopTime(stopTime);
        cbrSources.push_back(source);
    }
}

void
VerticalDimensioningEvaluation::InstallBackground(Ptr<UniformRandomVariable> startTime)
{
    const Time warmupTime = Seconds(warmup);
    const Time stopTime = Seconds(simTime);
    groups.push_back({"main",
                      lot.GetMainSource(),
                      lot.GetMainSink(),
                      lot.GetHostAddress(2 + hops),
                      mainBackground,
                      {},
                      {}});
    for (uint32_t hop = 0; hop < hops; ++hop)
    {
        groups.push_back({"cross" + std::to_string(hop),
                          lot.GetCrossSource(hop),
                          lot.GetCrossSink(hop),
                          lot.GetHostAddress(hops + 4 + 2 * hop),
                          crossBackground,
                          {},
                          {}});
    }
    uint32_t background = 0;
    for (BackgroundGroup& group : groups) // the vector no longer grows: meters stay put
    {
        group.meter.SetWindow(warmupTime, stopTime);
        group.meter.Install(group.to, BACKGROUND_PORT);
        for (uint32_t k = 0; k < group.flows; ++k, ++background)
        {
            auto source = CreateObject<RandomPacketSource>();
            source->Setup(InetSocketAddress(group.address, BACKGROUND_PORT),
                          UniformSize(1000 + 4 * background));
            source->SetOnOff(DataRate(backgroundRate),
                             Period(meanOn, 1001 + 4 * background),
                             Period(meanOff, 1002 + 4 * background));
            source->SetMeasurementStart(warmupTime);
            group.from->AddApplication(source);
            source->SetStartTime(Seconds(startTime->GetValue(0, startJitter)));
            source->SetStopTime(stopTime);
            group.sources.push_back(source);
        }
    }
}

void
VerticalDimensioningEvaluation::MonitorCoreLinks()
{
    // (Not the sojourn times: QueueDisc's SojournTime trace also reports packets stolen by
    // buffer stealing, and one stolen on arrival has no timestamp yet, so its "sojourn" is the
    // simulation time.)
    const Time warmupTime = Seconds(warmup);
    const Time stopTime = Seconds(simTime);
    sentAtWarmup.resize(hops);
    sentAtEnd.resize(hops);
    meanQueueBytes.resize(hops);
    drops.resize(hops);
    tcpRxAtWarmup.resize(tcpSinks.size());
    tcpRxAtEnd.resize(tcpSinks.size());
    for (uint32_t hop = 0; hop < hops; ++hop)
    {
        monitors.push_back(
            std::make_unique<BottleneckMonitor>(lot.GetCoreQueueDisc(hop), warmupTime));
        monitors.back()->Start();
    }
    qdisclab::Schedule(warmupTime, [this]() {
        for (uint32_t hop = 0; hop < hops; ++hop)
        {
            sentAtWarmup[hop] = lot.GetCoreQueueDisc(hop)->GetStats().nTotalSentBytes;
        }
        for (std::size_t i = 0; i < tcpSinks.size(); ++i)
        {
            tcpRxAtWarmup[i] = tcpSinks[i]->GetTotalRx();
        }
    });
    qdisclab::Schedule(stopTime, [this]() {
        for (uint32_t hop = 0; hop < hops; ++hop)
        {
            sentAtEnd[hop] = lot.GetCoreQueueDisc(hop)->GetStats().nTotalSentBytes;
            meanQueueBytes[hop] = monitors[hop]->GetMeanQueueBytes();
            drops[hop] = monitors[hop]->GetDrops();
        }
        for (std::size_t i = 0; i < tcpSinks.size(); ++i)
        {
            tcpRxAtEnd[i] = tcpSinks[i]->GetTotalRx();
        }
    });
}

NetDeviceContainer
VerticalDimensioningEvaluation::GetCoreDevices() const
{
    NetDeviceContainer core;
    for (uint32_t hop = 0; hop < hops; ++hop)
    {
        core.Add(lot.GetCoreDevice(hop));
    }
    return core;
}

void
VerticalDimensioningEvaluation::CheckBuckets() const
{
    for (uint32_t hop = 0; hop < filters.size(); ++hop)
    {
        NS_ABORT_MSG_IF(filters[hop]->GetFlowCount() > buckets,
                        "hop " << hop << " carried " << filters[hop]->GetFlowCount()
                               << " flows, more than --buckets=" << buckets
                               << ": give every flow its own bucket");
    }
}

void
VerticalDimensioningEvaluation::Collect(MetricsReport& report) const
{
    CollectReference(report);
    // Background groups: what their sources sent and their sink received; core links: what
    // they sent, dropped and queued.
    const double seconds = simTime - warmup;
    for (const BackgroundGroup& group : groups)
    {
        uint64_t offered = 0;
        for (const auto& source : group.sources)
        {
            offered += source->GetMeasuredSentBytes();
        }
        report.SetMetric(group.name + "_offered_kbps", offered * 8.0 / 1000.0 / seconds);
        report.SetMetric(group.name + "_kbps",
                         group.meter.GetWindowBytes() * 8.0 / 1000.0 / seconds);
    }
    for (uint32_t hop = 0; hop < hops; ++hop)
    {
        const std::string prefix = "hop" + std::to_string(hop);
        report.SetMetric(prefix + "_kbps",
                         (sentAtEnd[hop] - sentAtWarmup[hop]) * 8.0 / 1000.0 / seconds);
        report.SetMetric(prefix + "_drops", static_cast<double>(drops[hop]));
        report.SetMetric(prefix + "_mean_queue_bytes", meanQueueBytes[hop]);
        if (perFlow)
        {
            report.SetMetric(prefix + "_flows", filters[hop]->GetFlowCount());
        }
    }
}

void
VerticalDimensioningEvaluation::CollectReference(MetricsReport& report) const
{
    const double seconds = simTime - warmup;
    const double nan = std::nan("");
    std::vector<double> kbps(nReference);
    for (uint32_t i = 0; i < nReference; ++i)
    {
        if (tcpReference)
        {
            const double segment = tcpPacketSize - IP_TCP_HEADERS;
            kbps[i] = (tcpRxAtEnd[i] - tcpRxAtWarmup[i]) * (tcpPacketSize / segment) * 8.0 /
                      1000.0 / seconds;
        }
        else
        {
            kbps[i] = referenceMeters[i].GetWindowBytes() * 8.0 / 1000.0 / seconds;
        }
    }
    double sum = 0;
    double normalizedSum = 0;
    double normalizedSquares = 0;
    for (uint32_t i = 0; i < nReference; ++i)
    {
        sum += kbps[i];
        normalizedSum += kbps[i] / weights[i];
        normalizedSquares += (kbps[i] / weights[i]) * (kbps[i] / weights[i]);
    }
    report.SetMetric("reference_kbps", sum);
    report.SetMetric("weighted_jain",
                     normalizedSquares > 0
                         ? normalizedSum * normalizedSum / (nReference * normalizedSquares)
                         : nan);
    for (uint32_t i = 0; i < nReference; ++i)
    {
        const std::string flow = "flow" + std::to_string(i + 1);
        report.SetMetric(flow + "_kbps", kbps[i]);
        if (tcpReference)
        {
            continue;
        }
        std::vector<double> delays = referenceMeters[i].GetDelaysMs();
        std::sort(delays.begin(), delays.end());
        double delaySum = 0;
        for (double d : delays)
        {
            delaySum += d;
        }
        const uint64_t sent = cbrSources[i]->GetMeasuredSent();
        report.SetMetric(flow + "_mean_delay_ms", delays.empty() ? nan : delaySum / delays.size());
        report.SetMetric(flow + "_p99_delay_ms", Quantile(delays, 0.99));
        report.SetMetric(flow + "_max_delay_ms", delays.empty() ? nan : delays.back());
        report.SetMetric(flow + "_loss",
                         sent ? 1.0 - double(referenceMeters[i].GetReceived()) / sent : nan);
    }
}

int
main(int argc, char* argv[])
{
    ExperimentParams params("vertical-dimensioning-evaluation", __FILE__);
    VerticalDimensioningEvaluation evaluation;
    evaluation.Declare(params);
    params.Parse(argc, argv);
    evaluation.Resolve(params);

    evaluation.ConfigureTcp(params);
    evaluation.BuildTopology();
    evaluation.InstallTraffic();
    params.EnableTraces(evaluation.GetCoreDevices());
    Simulator::Stop(Seconds(evaluation.simTime) + Seconds(evaluation.drainTime));
    Simulator::Run();
    evaluation.CheckBuckets();

    MetricsReport report = params.NewReport();
    evaluation.Collect(report);
    params.Write(report);
    Simulator::Destroy();
    return 0;
}
