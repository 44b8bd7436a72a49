/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup qdisc-lab
 * The ns-3 half of the cross-validation suite against ns-2.35 (python/tests/
 * test_ns2_validation.py; validation/ns2/cbr.tcl is the ns-2 half, with the same parameter
 * names): N constant-bit-rate UDP sources on 100 Mb/s 1 ms access links, a router, a
 * 1 Mb/s 10 ms bottleneck whose queue disc is the one compared, and one sink per source
 * (DumbbellScenario). Each source sends --packetSize-byte IP packets at its rate (--rates, in
 * kb/s), from flow i x --startOffset (or --starts) until --stops, optionally with ns-2 CBR's
 * +-50 % dither of every gap (--jitter=50).
 *
 *   ./ns3 run "ns2-validation --queue=DRR --flows=3 --rates=500,500,800"
 *
 * With --ns2Calibration (the default) it applies the calibrations that make FIFO agree packet
 * for packet with ns-2: every link's rate is scaled by (packetSize + 2) / packetSize, so a
 * packet and its 2-byte PPP header take as long as the bare packet in ns-2; ns-2's queue limit_
 * L maps to a queue disc of L - 2 packets (FIFO for ns-2's DropTail, which drops at q + 1 >= L) or
 * L - 1 (RED and RIO, which drop at q >= L), plus the device's one-packet queue; and the bottleneck
 * is 1 b/s faster than that (each transmission ends 8 ns early), so that a departure and an arrival
 * due at the same instant are taken departure first, as ns-2 takes them (ns-3 takes the arrival
 * first): a fixed-rate flow whose period is a multiple of the transmission time meets every
 * departure at the same instant, and that order decides whether it is locked out.
 *
 * Reports per flow the packets delivered in [0, simTime] and dropped at the bottleneck, the
 * drops by reason, and the mean queue sampled every 10 ms, with and without the device's
 * packet, as one JSON object (MetricsReport).
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/experiment-params.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/qdisc-lab-module.h"
#include "ns3/traffic-control-module.h"

#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The --queue names (of QueueDiscCatalog) the example runs: those ns-2.35 has too.
const std::vector<std::string> QUEUE_DISCS{"FIFO", "DRR", "SRR", "RED", "RIO", "DscpMarker"};

/// DSCP of the IN packets, as a type-of-service byte (AF11 << 2).
constexpr uint8_t AF11_TOS = 0x28;

/// The scenario's parameters, named as validation/ns2/cbr.tcl names them.
struct Ns2ValidationConfig
{
    std::string queue = "FIFO";           //!< one of QUEUE_DISCS
    uint32_t flows = 1;                   //!< number of sources
    std::string rates = "2000";           //!< per-flow rates in kb/s (one for all, or one each)
    double startOffset = 0.000313;        //!< flow i starts at i x startOffset seconds
    std::string starts;                   //!< per-flow start times (s), overriding startOffset
    std::string stops;                    //!< per-flow stop times (s), 0: never
    uint32_t packetSize = 1000;           //!< IP packet size, bytes
    double simTime = 30;                  //!< simulated time, s
    uint32_t jitter = 0;                  //!< gap dither, percent: 0 or 50 (ns-2's random_ 1)
    std::string bottleneckRate = "1Mbps"; //!< ns-2's bottleneck rate
    std::string bottleneckDelay = "10ms"; //!< its delay
    std::string accessRate = "100Mbps";   //!< ns-2's access rate
    std::string accessDelay = "1ms";      //!< their delay
    bool ns2Calibration = true;           //!< PPP header and queue limit calibrations
    uint32_t limit = 50;                  //!< ns-2's limit_ in packets
    uint32_t firstNode = 0;               //!< ns-2 node address of flow 0's source
    std::string classifier = "FlowIndex"; //!< per-flow queue discs' classes: FlowIndex,
                                          //!< Hash or Ns2SourceHash
    uint32_t buckets = 10;                //!< ns-2 DRR's buckets_
    uint32_t blimit = 25000;              //!< ns-2 DRR's blimit_ (bytes): MaxSize
    uint32_t quantum = 250;               //!< ns-2 DRR's quantum_ (bytes)
    uint32_t mask = 0;                    //!< ns-2 DRR's mask_
    std::string weights;                  //!< per-flow SRR weights
    double minTh = 5;                     //!< RED minimum threshold, packets
    double maxTh = 15;                    //!< RED maximum threshold, packets
    double maxP = 0.1;                    //!< RED maximum probability
    double qWeight = 0.002;               //!< RED/RIO queue weight
    bool gentle = false;                  //!< RED/RIO gentle
    bool wait = true;                     //!< RED/RIO wait
    std::string inFlows;                  //!< RIO: flows whose packets are IN (AF11)
    double inMinTh = 10;                  //!< RIO IN minimum threshold
    double inMaxTh = 30;                  //!< RIO IN maximum threshold
    double inMaxP = 0.02;                 //!< RIO IN maximum probability
    double outMinTh = 5;                  //!< RIO OUT (total) minimum threshold
    double outMaxTh = 15;                 //!< RIO OUT (total) maximum threshold
    double outMaxP = 0.1;                 //!< RIO OUT (total) maximum probability
    bool ns2Averaging = false;            //!< RioQueueDisc::Ns2Averaging
    std::string policer = "TokenBucket";  //!< DscpMarker: TokenBucket, srTCM or trTCM
    double cir = 320;                     //!< committed rate, kb/s
    uint32_t cbs = 1000;                  //!< committed burst, bytes
    uint32_t ebs = 1000;                  //!< srTCM excess burst, bytes
    double pir = 640;                     //!< trTCM peak rate, kb/s
    uint32_t pbs = 1000;                  //!< trTCM peak burst, bytes
    bool quick = false;                   //!< short run for CI

    /// \param params where to declare the parameters
    void Declare(ExperimentParams& params);
    /// Check the values after parsing; stops the program naming a wrong one.
    void Resolve();
    /**
     * \param ns2Rate a link's rate in ns-2
     * \param bottleneck whether it is the bottleneck
     * \return its rate in ns-3: with the calibration, scaled by (packetSize + 2) / packetSize
     *         (the PPP header), the bottleneck's 1 b/s more (its departures come before the
     *         arrivals of the same instant, as in ns-2)
     */
    DataRate Ns3Rate(const std::string& ns2Rate, bool bottleneck) const;
};

void
Ns2ValidationConfig::Declare(ExperimentParams& params)
{
    params.AddChoice("queue",
                     "Queue disc (FIFO for ns-2's DropTail): " +
                         QueueDiscCatalog::Describe(QUEUE_DISCS),
                     queue,
                     QUEUE_DISCS);
    params.AddUnsigned("flows", "Number of CBR sources", flows, 1, 200);
    params.Add("rates", "Per-flow rates in kb/s: one for every flow, or one each (a,b,...)", rates);
    params.Add("startOffset", "Flow i starts at i x startOffset seconds", startOffset);
    params.Add("starts", "Per-flow start times in s (overrides startOffset)", starts);
    params.Add("stops", "Per-flow stop times in s (0: runs to the end)", stops);
    params.AddUnsigned("packetSize", "IP packet size in bytes", packetSize, 40, 1500);
    params.Add("simTime", "Simulated time in seconds", simTime);
    params.AddUnsigned("jitter", "Gap dither in percent: 0 or 50 (ns-2 CBR random_ 1)", jitter);
    params.AddRate("bottleneckRate", "Bottleneck rate (ns-2's)", bottleneckRate);
    params.Add("bottleneckDelay", "Bottleneck delay", bottleneckDelay);
    params.AddRate("accessRate", "Access links' rate (ns-2's)", accessRate);
    params.Add("accessDelay", "Access links' delay", accessDelay);
    params.Add("ns2Calibration",
               "Scale link rates by (size + 2) / size and map ns-2's limit_ to the queue disc "
               "(L - 2 for FIFO, L - 1 for RED and RIO)",
               ns2Calibration);
    params.AddUnsigned("limit", "ns-2's queue limit_ in packets", limit, 2);
    params.AddUnsigned("firstNode", "ns-2 node address of flow 0's source", firstNode);
    params.Add("classifier",
               "DRR/SRR classes: FlowIndex (each flow its own bucket), Hash (the queue disc's "
               "own) or Ns2SourceHash (ns-2 drr.cc's hash of the source's ns-2 address)",
               classifier);
    params.AddUnsigned("buckets", "DRR/SRR Buckets (ns-2 buckets_)", buckets, 1);
    params.AddUnsigned("blimit", "DRR/SRR MaxSize in bytes (ns-2 DRR's blimit_)", blimit, 1);
    params.AddUnsigned("quantum", "DRR Quantum in bytes (ns-2 quantum_)", quantum, 1);
    params.AddUnsigned("mask", "ns-2 DRR's mask_ (Ns2SourceHash's Mask)", mask, 0, 1);
    params.Add("weights", "Per-flow SRR weights (one for all, or one each)", weights);
    params.Add("minTh", "RED minimum threshold in packets", minTh);
    params.Add("maxTh", "RED maximum threshold in packets", maxTh);
    params.Add("maxP", "RED maximum drop probability (1 / ns-2's linterm_)", maxP);
    params.Add("qWeight", "RED/RIO queue weight", qWeight);
    params.Add("gentle", "RED/RIO gentle", gentle);
    params.Add("wait", "RED/RIO wait", wait);
    params.Add("inFlows", "RIO: the flows marked IN (AF11), e.g. 0,2", inFlows);
    params.Add("inMinTh", "RIO IN minimum threshold", inMinTh);
    params.Add("inMaxTh", "RIO IN maximum threshold", inMaxTh);
    params.Add("inMaxP", "RIO IN maximum probability", inMaxP);
    params.Add("outMinTh", "RIO OUT minimum threshold (on the total average)", outMinTh);
    params.Add("outMaxTh", "RIO OUT maximum threshold", outMaxTh);
    params.Add("outMaxP", "RIO OUT maximum probability", outMaxP);
    params.Add("ns2Averaging", "RIO: average as ns-2.35's rio.cc does", ns2Averaging);
    params.Add("policer", "DscpMarker meter: TokenBucket, srTCM or trTCM", policer);
    params.Add("cir", "Committed rate in kb/s", cir);
    params.AddUnsigned("cbs", "Committed burst in bytes", cbs);
    params.AddUnsigned("ebs", "srTCM excess burst in bytes", ebs);
    params.Add("pir", "trTCM peak rate in kb/s", pir);
    params.AddUnsigned("pbs", "trTCM peak burst in bytes", pbs);
    params.AddRunNumber();
    params.Add("quick", "Short run for CI: simTime=5", quick, ExperimentParams::NEVER);
    params.AddMetric("flow<i>_delivered_packets");
    params.AddMetric("flow<i>_dropped_packets");
    params.AddMetric("flow<i>_green_packets", ExperimentParams::SOMETIMES);
    params.AddMetric("flow<i>_yellow_packets", ExperimentParams::SOMETIMES);
    params.AddMetric("flow<i>_red_packets", ExperimentParams::SOMETIMES);
    params.AddMetric("limit_drops_packets", ExperimentParams::SOMETIMES);
    params.AddMetric("overlimit_drops_packets", ExperimentParams::SOMETIMES);
    params.AddMetric("forced_drops_packets", ExperimentParams::SOMETIMES);
    params.AddMetric("early_drops_packets", ExperimentParams::SOMETIMES);
    params.AddMetric("mean_queue_packets");
    params.AddMetric("mean_qdisc_packets");
    params.OwnsAttribute("ns3::PointToPointNetDevice::DataRate", "--bottleneckRate, --accessRate");
}

void
Ns2ValidationConfig::Resolve()
{
    if (quick)
    {
        simTime = 5;
    }
    NS_ABORT_MSG_UNLESS(jitter == 0 || jitter == 50,
                        "--jitter must be 0 or 50 (ns-2's CBR dithers by +-50 %), got " << jitter);
    NS_ABORT_MSG_UNLESS(simTime > 0, "--simTime must be > 0, got " << simTime);
    NS_ABORT_MSG_UNLESS(
        classifier == "FlowIndex" || classifier == "Hash" || classifier == "Ns2SourceHash",
        "--classifier must be FlowIndex, Hash or Ns2SourceHash, got " << classifier);
    NS_ABORT_MSG_IF(queue == "DscpMarker" && flows > 4,
                    "--queue=DscpMarker marks flow i into AF class i + 1: at most 4 flows");
}

DataRate
Ns2ValidationConfig::Ns3Rate(const std::string& ns2Rate, bool bottleneck) const
{
    const uint64_t bps = DataRate(ns2Rate).GetBitRate();
    if (!ns2Calibration)
    {
        return DataRate(bps);
    }
    return DataRate(bps * (packetSize + 2) / packetSize + (bottleneck ? 1 : 0));
}

/**
 * \param flag the parameter, for the error message
 * \param text a comma-separated list: empty (\p fallback for every flow), one value (every
 *        flow's) or one per flow
 * \param n the number of flows
 * \param fallback the value of an empty list
 * \return one value per flow
 */
std::vector<double>
PerFlow(const std::string& flag, const std::string& text, uint32_t n, double fallback)
{
    std::vector<double> values;
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
    {
        std::istringstream number(item);
        double v;
        NS_ABORT_MSG_UNLESS(number >> v, "--" << flag << ": '" << item << "' is not a number");
        values.push_back(v);
    }
    if (values.empty())
    {
        values.push_back(fallback);
    }
    if (values.size() == 1)
    {
        values.assign(n, values[0]);
    }
    NS_ABORT_MSG_UNLESS(values.size() == n,
                        "--" << flag << " needs one value or " << n << " (one per flow), got '"
                             << text << "'");
    return values;
}

/**
 * \param i a flow
 * \return its source's address, as DumbbellScenario assigns it (10.1.i+1.1; checked after
 *         Build): the queue disc's rules are written before the addresses exist
 */
Ipv4Address
SenderAddress(uint32_t i)
{
    return Ipv4Address(("10.1." + std::to_string(i + 1) + ".1").c_str());
}

/// \return whether the TypeId \p type exists (a compatibility feature of the model)
bool
HasType(const std::string& type)
{
    TypeId tid;
    return TypeId::LookupByNameFailSafe(type, &tid);
}

/// \return whether \p type has the attribute \p name (a compatibility feature of the model)
bool
HasAttribute(const std::string& type, const std::string& name)
{
    TypeId tid;
    TypeId::AttributeInformation info;
    return TypeId::LookupByNameFailSafe(type, &tid) && tid.LookupAttributeByName(name, &info);
}

/// One run: the topology, the traffic, the bottleneck's counters.
class Ns2Validation
{
  public:
    /// \param config the parameters
    explicit Ns2Validation(const Ns2ValidationConfig& config);

    /// Build the dumbbell with the queue disc under study.
    void BuildTopology();
    /// Install the sources and the sinks; start sampling the queue.
    void InstallTraffic();
    /// \param params the program's parameters \return the run's report
    MetricsReport Collect(const ExperimentParams& params) const;

    /// \return the bottleneck's device
    Ptr<NetDevice> GetBottleneckDevice() const;
    /// \return the queue disc under study (the marker's root with --queue=DscpMarker)
    Ptr<QueueDisc> GetBottleneckQueueDisc() const;

  private:
    /// \return the queue disc under study, configured
    TrafficControlHelper MakeQueueDisc() const;
    /// \return ns-2 node addresses of the sources, as Ns2SourceHashPacketFilter takes them
    std::string NodeAddresses() const;
    /// \param item a dropped packet: count it against its flow
    void CountDrop(Ptr<const QueueDiscItem> item);
    /// Take one sample of the queue and schedule the next.
    void Sample();

    Ns2ValidationConfig m_config;             //!< the parameters
    DumbbellScenario m_scenario;              //!< the topology
    Ptr<DscpMarkerQueueDisc> m_marker;        //!< the marker, with --queue=DscpMarker
    std::vector<UdpFlowMeter> m_meters;       //!< one per flow
    std::map<Ipv4Address, uint32_t> m_flowOf; //!< flow index by source address
    std::vector<uint64_t> m_dropped;          //!< drops per flow
    double m_qdiscSum = 0;                    //!< sum of sampled queue disc lengths
    double m_deviceSum = 0;                   //!< sum of sampled device queue lengths
    uint64_t m_samples = 0;                   //!< samples taken
};

Ns2Validation::Ns2Validation(const Ns2ValidationConfig& config)
    : m_config(config),
      m_meters(config.flows),
      m_dropped(config.flows, 0)
{
}

std::string
Ns2Validation::NodeAddresses() const
{
    std::ostringstream list;
    for (uint32_t i = 0; i < m_config.flows; ++i)
    {
        list << (i ? "; " : "") << SenderAddress(i) << "=" << m_config.firstNode + i;
    }
    return list.str();
}

TrafficControlHelper
Ns2Validation::MakeQueueDisc() const
{
    const Ns2ValidationConfig& c = m_config;
    const QueueDiscCatalogEntry& entry = QueueDiscCatalog::Choose("--queue", c.queue, QUEUE_DISCS);
    TrafficControlHelper tc;
    const uint32_t calibrated = c.ns2Calibration ? 1 : 0;
    if (c.queue == "FIFO")
    {
        const uint32_t size = c.limit - 2 * calibrated;
        tc.SetRootQueueDisc(entry.typeId,
                            "MaxSize",
                            QueueSizeValue(QueueSize(std::to_string(size) + "p")));
    }
    else if (c.queue == "RED")
    {
        tc.SetRootQueueDisc(entry.typeId,
                            "MaxSize",
                            QueueSizeValue(QueueSize(std::to_string(c.limit - calibrated) + "p")),
                            "MinTh",
                            DoubleValue(c.minTh),
                            "MaxTh",
                            DoubleValue(c.maxTh),
                            "LInterm",
                            DoubleValue(1.0 / c.maxP),
                            "QW",
                            DoubleValue(c.qWeight),
                            "Gentle",
                            BooleanValue(c.gentle),
                            "Wait",
                            BooleanValue(c.wait),
                            "MeanPktSize",
                            UintegerValue(c.packetSize),
                            "LinkBandwidth",
                            StringValue(c.bottleneckRate),
                            "LinkDelay",
                            StringValue(c.bottleneckDelay));
    }
    else if (c.queue == "RIO")
    {
        tc.SetRootQueueDisc(entry.typeId,
                            "MaxSize",
                            QueueSizeValue(QueueSize(std::to_string(c.limit - calibrated) + "p")),
                            "InDscps",
                            StringValue("AF11"),
                            "InMinTh",
                            DoubleValue(c.inMinTh),
                            "InMaxTh",
                            DoubleValue(c.inMaxTh),
                            "InMaxP",
                            DoubleValue(c.inMaxP),
                            "TotalMinTh",
                            DoubleValue(c.outMinTh),
                            "TotalMaxTh",
                            DoubleValue(c.outMaxTh),
                            "TotalMaxP",
                            DoubleValue(c.outMaxP),
                            "QueueWeight",
                            DoubleValue(c.qWeight),
                            "Gentle",
                            BooleanValue(c.gentle),
                            "Wait",
                            BooleanValue(c.wait),
                            "MeanPktSize",
                            UintegerValue(c.packetSize),
                            "LinkBandwidth",
                            StringValue(c.bottleneckRate));
        if (c.ns2Averaging)
        {
            NS_ABORT_MSG_UNLESS(HasAttribute(entry.typeId, "Ns2Averaging"),
                                "--ns2Averaging needs ns3::RioQueueDisc::Ns2Averaging, which "
                                "this build of the module does not have");
            Config::SetDefault(entry.typeId + "::Ns2Averaging", BooleanValue(true));
        }
    }
    else if (c.queue == "DRR" || c.queue == "SRR")
    {
        const QueueSizeValue maxSize(QueueSize(std::to_string(c.blimit) + "B"));
        uint16_t handle;
        if (c.queue == "DRR")
        {
            handle = tc.SetRootQueueDisc(entry.typeId,
                                         "MaxSize",
                                         maxSize,
                                         "Buckets",
                                         UintegerValue(c.buckets),
                                         "Quantum",
                                         UintegerValue(c.quantum),
                                         "DropFrom",
                                         StringValue("Head"));
        }
        else
        {
            const auto weights = PerFlow("weights", c.weights, c.flows, 1);
            std::ostringstream rules;
            for (uint32_t i = 0; i < c.flows; ++i)
            {
                rules << (i ? "; " : "") << "src=" << SenderAddress(i) << " weight=" << weights[i];
            }
            handle = tc.SetRootQueueDisc(entry.typeId,
                                         "MaxSize",
                                         maxSize,
                                         "Buckets",
                                         UintegerValue(c.buckets),
                                         "WeightRules",
                                         StringValue(rules.str()));
        }
        if (c.classifier == "FlowIndex")
        {
            tc.AddPacketFilter(handle, "ns3::FlowIndexPacketFilter");
        }
        else if (c.classifier == "Ns2SourceHash")
        {
            NS_ABORT_MSG_UNLESS(HasType("ns3::Ns2SourceHashPacketFilter"),
                                "--classifier=Ns2SourceHash needs "
                                "ns3::Ns2SourceHashPacketFilter, which this build of the "
                                "module does not have");
            tc.AddPacketFilter(handle,
                               "ns3::Ns2SourceHashPacketFilter",
                               "Mask",
                               StringValue(std::to_string(c.mask)), // 0 or 1, in its own type
                               "NodeAddresses",
                               StringValue(NodeAddresses()));
        }
    }
    return tc;
}

void
Ns2Validation::BuildTopology()
{
    const Ns2ValidationConfig& c = m_config;
    m_scenario.SetLeafCount(c.flows);
    m_scenario.SetAccessLink(c.Ns3Rate(c.accessRate, false), Time(c.accessDelay));
    m_scenario.SetBottleneckLink(c.Ns3Rate(c.bottleneckRate, true), Time(c.bottleneckDelay));
    if (c.queue != "DscpMarker")
    {
        m_scenario.SetBottleneckQueueDisc(MakeQueueDisc());
    }
    m_scenario.Build();
    if (c.queue == "DscpMarker")
    {
        // Flow i is metered by its own profile and marked into AF class i + 1; the child FIFO
        // holds ns-2's limit_.
        DscpMarkerHelper marker;
        marker.SetChildQueueDisc("ns3::FifoQueueDisc",
                                 "MaxSize",
                                 QueueSizeValue(QueueSize(std::to_string(c.limit) + "p")));
        const DataRate cir(static_cast<uint64_t>(c.cir * 1000));
        const DataRate pir(static_cast<uint64_t>(c.pir * 1000));
        for (uint32_t i = 0; i < c.flows; ++i)
        {
            std::ostringstream match;
            match << "src=" << m_scenario.GetLeftAddress(i) << " proto=udp af=" << i + 1;
            if (c.policer == "TokenBucket")
            {
                marker.AddProfile(match.str(), cir, c.cbs);
            }
            else if (c.policer == "srTCM")
            {
                marker.AddSrTcmProfile(match.str(), cir, c.cbs, c.ebs);
            }
            else if (c.policer == "trTCM")
            {
                marker.AddTrTcmProfile(match.str(), cir, c.cbs, pir, c.pbs);
            }
            else
            {
                NS_ABORT_MSG("--policer must be TokenBucket, srTCM or trTCM, got " << c.policer);
            }
        }
        m_marker = DynamicCast<DscpMarkerQueueDisc>(
            marker.Install(m_scenario.GetBottleneckDevice()).Get(0));
    }
    for (uint32_t i = 0; i < c.flows; ++i)
    {
        NS_ABORT_MSG_UNLESS(m_scenario.GetLeftAddress(i) == SenderAddress(i),
                            "ns2-validation: DumbbellScenario's addresses changed");
        m_flowOf[SenderAddress(i)] = i;
    }
    GetBottleneckQueueDisc()->TraceConnectWithoutContext(
        "Drop",
        MakeCallback(&Ns2Validation::CountDrop, this));
}

void
Ns2Validation::InstallTraffic()
{
    const Ns2ValidationConfig& c = m_config;
    const auto rates = PerFlow("rates", c.rates, c.flows, 2000);
    std::vector<double> starts(c.flows);
    for (uint32_t i = 0; i < c.flows; ++i)
    {
        starts[i] = i * c.startOffset;
    }
    if (!c.starts.empty())
    {
        starts = PerFlow("starts", c.starts, c.flows, 0);
    }
    const auto stops = PerFlow("stops", c.stops, c.flows, 0);
    std::vector<bool> isIn(c.flows, false);
    {
        std::istringstream list(c.inFlows);
        std::string item;
        while (std::getline(list, item, ','))
        {
            const uint32_t f = std::stoul(item);
            NS_ABORT_MSG_UNLESS(f < c.flows, "--inFlows: no flow " << f);
            isIn[f] = true;
        }
    }
    const uint16_t port = 9000;
    for (uint32_t i = 0; i < c.flows; ++i)
    {
        m_meters[i].SetWindow(Seconds(0), Seconds(c.simTime));
        m_meters[i].Install(m_scenario.GetRight(i), port);
        const double gap = c.packetSize * 8.0 / (rates[i] * 1000);
        Ptr<RandomVariableStream> interval;
        if (c.jitter == 0)
        {
            auto constant = CreateObject<ConstantRandomVariable>();
            constant->SetAttribute("Constant", DoubleValue(gap));
            interval = constant;
        }
        else
        {
            auto uniform = CreateObject<UniformRandomVariable>();
            uniform->SetAttribute("Min", DoubleValue(gap * (1 - c.jitter / 100.0)));
            uniform->SetAttribute("Max", DoubleValue(gap * (1 + c.jitter / 100.0)));
            uniform->SetStream(i);
            interval = uniform;
        }
        auto source = CreateObject<RandomPacketSource>();
        source->Setup(InetSocketAddress(m_scenario.GetRightAddress(i), port),
                      RandomPacketSource::UniformSizes(c.packetSize, c.packetSize, 1000 + i));
        source->SetInterval(interval);
        if (c.queue == "RIO" && isIn[i])
        {
            source->SetTos(AF11_TOS);
        }
        m_scenario.GetLeft(i)->AddApplication(source);
        source->SetStartTime(Seconds(starts[i]));
        if (stops[i] > 0)
        {
            source->SetStopTime(Seconds(stops[i]));
        }
    }
    Simulator::ScheduleNow(&Ns2Validation::Sample, this);
}

Ptr<NetDevice>
Ns2Validation::GetBottleneckDevice() const
{
    return m_scenario.GetBottleneckDevice();
}

Ptr<QueueDisc>
Ns2Validation::GetBottleneckQueueDisc() const
{
    return m_marker ? Ptr<QueueDisc>(m_marker) : m_scenario.GetBottleneckQueueDisc();
}

void
Ns2Validation::CountDrop(Ptr<const QueueDiscItem> item)
{
    auto ip = DynamicCast<const Ipv4QueueDiscItem>(item);
    if (ip)
    {
        auto flow = m_flowOf.find(ip->GetHeader().GetSource());
        if (flow != m_flowOf.end())
        {
            ++m_dropped[flow->second];
        }
    }
}

void
Ns2Validation::Sample()
{
    auto device = DynamicCast<PointToPointNetDevice>(GetBottleneckDevice());
    m_qdiscSum += GetBottleneckQueueDisc()->GetNPackets();
    m_deviceSum += device->GetQueue()->GetNPackets();
    ++m_samples;
    const Time next = MilliSeconds(10 * m_samples);
    if (next < Seconds(m_config.simTime))
    {
        Simulator::Schedule(next - Simulator::Now(), &Ns2Validation::Sample, this);
    }
}

MetricsReport
Ns2Validation::Collect(const ExperimentParams& params) const
{
    const Ns2ValidationConfig& c = m_config;
    MetricsReport report = params.NewReport();
    for (uint32_t i = 0; i < c.flows; ++i)
    {
        const std::string flow = "flow" + std::to_string(i) + "_";
        report.SetMetric(flow + "delivered_packets", m_meters[i].GetWindowBytes() / c.packetSize);
        report.SetMetric(flow + "dropped_packets", m_dropped[i]);
    }
    if (m_marker)
    {
        for (uint32_t i = 0; i < c.flows; ++i)
        {
            const auto& stats = m_marker->GetProfileStats(i);
            for (uint8_t colour = 0; colour < TrafficMeter::N_COLORS; ++colour)
            {
                const std::string name =
                    TrafficMeter::ColorName(static_cast<TrafficMeter::Color>(colour));
                report.SetMetric("flow" + std::to_string(i) + "_" + name + "_packets",
                                 stats.packets[colour]);
            }
        }
    }
    const QueueDisc::Stats& stats = GetBottleneckQueueDisc()->GetStats();
    if (c.queue == "FIFO")
    {
        report.SetMetric("limit_drops_packets",
                         stats.GetNDroppedPackets(FifoQueueDisc::LIMIT_EXCEEDED_DROP));
    }
    else if (c.queue == "DRR" || c.queue == "SRR")
    {
        report.SetMetric("overlimit_drops_packets",
                         stats.GetNDroppedPackets(PerFlowQueueDisc::OVERLIMIT_DROP));
    }
    else if (c.queue == "RED" || c.queue == "RIO")
    {
        report.SetMetric("forced_drops_packets",
                         stats.GetNDroppedPackets(RedQueueDisc::FORCED_DROP));
        report.SetMetric("early_drops_packets",
                         stats.GetNDroppedPackets(RedQueueDisc::UNFORCED_DROP));
    }
    report.SetMetric("mean_queue_packets", (m_qdiscSum + m_deviceSum) / m_samples);
    report.SetMetric("mean_qdisc_packets", m_qdiscSum / m_samples);
    return report;
}

} // namespace

int
main(int argc, char* argv[])
{
    Ns2ValidationConfig config;
    ExperimentParams params("ns2-validation", __FILE__);
    config.Declare(params);
    params.Parse(argc, argv);
    config.Resolve();

    Ns2Validation run(config);
    run.BuildTopology();
    run.InstallTraffic();
    params.EnableTraces(NetDeviceContainer(run.GetBottleneckDevice()));
    Simulator::Stop(Seconds(config.simTime));
    Simulator::Run();
    params.Write(run.Collect(params));
    Simulator::Destroy();
    return 0;
}
