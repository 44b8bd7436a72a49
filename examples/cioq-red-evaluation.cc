/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup qdisc-lab
 * The CIOQ-RED evaluation (J. K. Sundararajan, F. Zhao, P. Youssef-Massaad and M. Médard, "A
 * Modification to RED AQM for CIOQ Switches", ns-2): N hosts around an N x N CIOQ switch
 * (CioqSwitchNetDevice with VOQs, 1 Mb/s links, input and output buffers of 20 packets,
 * DropTail at the inputs), TCP sessions between random hosts (RandomTcpSessions) with durations
 * uniform in [3, 13] s (4 x 4) or [3, 53] s (16 x 16) starting at uniformly random times over
 * the 100 s run, and at every output FIFO (the paper's DropTail), RED or CIOQ-RED
 * (CioqRedQueueDisc, RED on
 * nu q_input + q_output). RED: min_th 5, max_th 15, w_q 0.004, max_p 0.1; nu 0.5 (4 x 4) or
 * 0.125 (16 x 16).
 *
 *   ./cioq-red-evaluation --ports=4 --sessions=800 --speedup=1.1 --queueDisc=CIOQ-RED
 *   ./cioq-red-evaluation --ports=16 --speedup=2.0 --queueDisc=RED --fabric=Islip
 *
 * Defaults that depend on the switch size (sessions, longest session, nu, speedup) are the
 * paper's for 4 and 16 ports (0 or a negative value means "the paper's"); other sizes need them
 * given. Metrics over [warmup, simTime]: the average input and output queue lengths (time
 * averages, mean over the ports; the paper's Figs. 2 and 4), the loss rate (packets dropped in
 * the switch / packets that reached it) and the utilisation (bits the outputs delivered to the
 * hosts / (N x line rate x time); Figs. 3 and 5). One JSON metrics object (MetricsReport).
 *
 * The topology is the paper's ns model: N source hosts on the switch's inputs and N sink hosts
 * on its outputs, every link 1 Mb/s. The switch is a CioqSwitchNetDevice with 2N ports, the
 * sources on ports 0 .. N-1 and the sinks on ports N .. 2N-1, so that the source and the sink
 * of a session may have the same index and still cross the switch; only the N x N VOQs from
 * source ports to sink ports ever hold packets. (Its Paper fabric runs each internal link at
 * Speedup / ports of the line rate, so the device gets Speedup = 2s for the paper's s/N.) The
 * sinks' acknowledgements return through a second, uncongested switch, as they did on the
 * reverse direction of the paper's duplex links (the sinks route the sources' addresses over
 * it, and it maps them to the sources' ports). Each VOQ holds 20 packets
 * (--voqLimit, ns-2's queue of each internal link; --inputBuffer=20p --voqLimit=0p shares 20
 * packets among an input's VOQs instead).
 *
 * The choices where the paper is silent are in doc/reproductions/cioq-red.rst.
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

#include <cmath>
#include <optional>
#include <string>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("CioqRedEvaluation");

/// The --queueDisc names (of QueueDiscCatalog) the example runs.
static const std::vector<std::string> QUEUE_DISCS{"FIFO", "RED", "CIOQ-RED"};

/// TCP port of the sinks.
static constexpr uint16_t SINK_PORT = 5000;

/**
 * Bits on the wire: counts the frames the data switch delivers to the hosts after the
 * warm-up (PointToPointNetDevice PhyRxEnd, PPP header included).
 */
struct WireCounter
{
    Time from;          //!< start of the measurement
    uint64_t bytes = 0; //!< frame bytes received since then
};

/**
 * PhyRxEnd trace sink.
 * \param counter the counter
 * \param packet the frame
 */
static void
OnHostRx(WireCounter* counter, Ptr<const Packet> packet)
{
    if (Simulator::Now() >= counter->from)
    {
        counter->bytes += packet->GetSize();
    }
}

/**
 * \param ports the switch size
 * \param four the paper's value for 4 x 4
 * \param sixteen the paper's value for 16 x 16
 * \param what what the value is, for the error message
 * \return the paper's value for this size (aborts for other sizes)
 */
template <typename T>
static T
PaperDefault(uint32_t ports, T four, T sixteen, const std::string& what)
{
    NS_ABORT_MSG_UNLESS(ports == 4 || ports == 16,
                        "the paper gives " << what << " for 4 and 16 ports only: set it for "
                                           << ports);
    return ports == 4 ? four : sixteen;
}

/**
 * \ingroup qdisc-lab
 * The evaluation's parameters, with the paper's setup as defaults; the ones that depend on the
 * switch size are resolved by Resolve (see doc/reproductions/cioq-red.rst for the choices where
 * the paper is silent).
 */
struct CioqRedEvaluationConfig
{
    /**
     * Add the parameters to the command line, in the order the report records them.
     * \param params the program's parameters
     */
    void Declare(ExperimentParams& params);

    /**
     * After parsing: the paper's values for the switch size, --quick, the checks, the TCP's
     * TypeId; and leave out of the report the parameters that do not apply to this run.
     * \param params the program's parameters
     */
    void Resolve(ExperimentParams& params);

    uint32_t ports = 4;
    uint32_t sessions = 0;
    double load = 1;
    double speedup = -1;
    std::string queueDisc = "CIOQ-RED";
    double nu = -1;
    double minTh = 5;
    double maxTh = 15;
    double qW = 0.004;
    double maxP = 0.1;
    bool gentle = true;
    bool wait = true;
    std::string inputBuffer = "0p";
    std::string voqLimit = "20p";
    uint32_t outputBuffer = 20;
    std::string fabric = "Paper";
    uint32_t islipIterations = 4;
    std::string lineRate = "1Mbps";
    std::string linkDelay = "1ms";
    uint32_t hostQueue = 50;
    double durationMin = 3;
    double durationMax = 0;
    double simTime = 100;
    double warmup = 0;
    std::string tcp = "NewReno";
    uint32_t segmentSize = 1000;
    uint32_t maxWindow = 20;
    uint32_t initialCwnd = 2;
    uint32_t delAckCount = 1;
    bool sack = false;
    double minRto = 1;
    uint32_t sinkPorts = 16;
    bool quick = false;

    // Set by Resolve.
    std::string queueDiscTypeId; //!< the catalog's TypeId for queueDisc
    QueueSize voqSize;           //!< voqLimit
    QueueSize inputSize;         //!< inputBuffer
    std::string tcpType;         //!< tcp's TypeId name
    TypeId tcpTid;               //!< tcp's TypeId
};

/// What Collect sums over the ports after the run.
struct CioqSwitchTotals
{
    double inputSum = 0;        //!< time-average input queue lengths, summed over the inputs
    double outputSum = 0;       //!< time-average output queue lengths, summed over the outputs
    uint64_t arrived = 0;       //!< frames the switch received from the sources
    uint64_t inputDrops = 0;    //!< dropped at the inputs
    uint64_t outputDrops = 0;   //!< dropped at the outputs
    uint64_t delivered = 0;     //!< sent to the sinks
    uint64_t earlyDrops = 0;    //!< RED's early drops after the warm-up
    uint64_t forcedDrops = 0;   //!< RED's forced drops after the warm-up
    uint64_t hostSent = 0;      //!< packets the sources' queues took after the warm-up
    uint64_t hostDrops = 0;     //!< and dropped
    uint64_t strayArrivals = 0; //!< frames in the sinks' direction (none expected)
};

/**
 * \ingroup qdisc-lab
 * One run of the evaluation: its configuration, then what BuildTopology and InstallTraffic
 * create, which Collect reads after the simulation.
 */
struct CioqRedEvaluation : CioqRedEvaluationConfig
{
    /**
     * TCP as ns-2's agents of the time, before the stacks exist: one congestion control for
     * all, no SACK or timestamps (40-byte headers), ns-2's window_ as the receive window.
     * \param params the program's parameters (the fixed choices an override may replace)
     */
    void ConfigureTcp(ExperimentParams& params);
    /// The hosts, the CIOQ switch with its output queue discs, and the acknowledgements' path.
    void BuildTopology();
    /// The TCP sessions, RED's streams, and what is measured from the warm-up on.
    void InstallTraffic();
    /// \return the switch's ports to the sinks (the devices the evaluation studies)
    NetDeviceContainer GetOutputPorts() const;
    /**
     * Write the metrics.
     * \param report the run's report, holding its parameters
     */
    void Collect(MetricsReport& report) const;

    uint32_t firstSink = 0;                        //!< the switch port of sink 0 (= ports)
    NodeContainer sources;                         //!< the N source hosts
    NodeContainer sinks;                           //!< the N sink hosts
    CioqSwitchHelper::Star star;                   //!< the CIOQ switch and its links
    QueueDiscContainer hostQdiscs;                 //!< the sources' DropTail queues
    Ipv4InterfaceContainer dataInterfaces;         //!< hosts' addresses on the CIOQ switch
    CioqSwitchHelper::Star ackStar;                //!< the acknowledgements' switch
    std::optional<RandomTcpSessions> traffic;      //!< the sessions
    std::vector<RandomTcpSessions::Session> drawn; //!< the sessions drawn
    WireCounter wire;                              //!< bits delivered to the sinks
    std::vector<QueueDisc::Stats> outputAtWarmup;  //!< output queue discs' counters
    std::vector<QueueDisc::Stats> hostAtWarmup;    //!< sources' queues' counters
    uint64_t sinkBytesAtWarmup = 0;                //!< bytes the sinks had received

  private:
    /**
     * Configure the CIOQ switch: its output queue discs, fabric and buffers.
     * \param cioq the switch's helper
     */
    void ConfigureDataSwitch(CioqSwitchHelper& cioq) const;
    /// The CIOQ switch (2N ports) with the hosts on it, and the sources' queues.
    void BuildDataSwitch();
    /// The acknowledgements' switch, and the sinks' routes through it.
    void BuildAckPath();
    /// \return the switch's counters after the run, summed over the ports
    CioqSwitchTotals SumPorts() const;
};

void
CioqRedEvaluationConfig::Declare(ExperimentParams& params)
{
    const auto SOMETIMES = ExperimentParams::SOMETIMES;
    const auto NEVER = ExperimentParams::NEVER;
    params.AddUnsigned("ports", "N, the switch size (N sources, N sinks)", ports, 2, 256);
    params.AddUnsigned("sessions",
                       "TCP sessions over the run (0: the paper's 800 for 4 ports, 6400 for 16)",
                       sessions,
                       0);
    params.Add("load",
               "with --sessions=0: this fraction of the paper's sessions (Figs. 3 and 5 vary "
               "the load from 0.1 to 1: 80 .. 800 and 640 .. 6400 sessions)",
               load);
    params.Add("speedup",
               "switch speedup s in [1, N] (< 0: the paper's Figs. 3/5 value, 1.1 for 4 "
               "ports, 1.4 for 16)",
               speedup);
    params.AddChoice("queueDisc",
                     "output queue disc: " + QueueDiscCatalog::Describe(QUEUE_DISCS),
                     queueDisc,
                     QUEUE_DISCS);
    params.Add("minTh", "RED min_th, packets", minTh, SOMETIMES);
    params.Add("maxTh", "RED max_th, packets", maxTh, SOMETIMES);
    params.Add("qW", "RED w_q", qW, SOMETIMES);
    params.Add("maxP", "RED max_p, in (0, 1]", maxP, SOMETIMES);
    params.Add("gentle", "RED gentle mode (ns-2's gentle_)", gentle, SOMETIMES);
    params.Add("wait", "RED wait between early drops (ns-2's wait_)", wait, SOMETIMES);
    params.Add("nu",
               "CIOQ-RED's input weight nu (< 0: the paper's 0.5 for 4 ports, 0.125 for 16)",
               nu,
               SOMETIMES);
    params.AddText("inputBuffer",
                   "buffer of each switch input, shared by its VOQs (0p: only the VOQ limit)",
                   inputBuffer,
                   ExperimentParams::QUEUE_SIZE_TEXT);
    params.AddText("voqLimit",
                   "limit of each VOQ (0p: only the input buffer)",
                   voqLimit,
                   ExperimentParams::QUEUE_SIZE_TEXT);
    params.AddUnsigned("outputBuffer", "output buffer, packets", outputBuffer, 1, 1000000);
    params.Add("fabric", "switch fabric: Paper (N^2 links at s/N) or Islip", fabric);
    params.AddUnsigned("islipIterations",
                       "iSLIP iterations per match (fabric Islip)",
                       islipIterations,
                       1,
                       256,
                       SOMETIMES);
    params.AddRate("lineRate", "rate of every host link", lineRate);
    params.AddText("linkDelay",
                   "propagation delay of every host link",
                   linkDelay,
                   ExperimentParams::TIME_TEXT);
    params.AddUnsigned("hostQueue",
                       "DropTail queue of each source's link, packets",
                       hostQueue,
                       1,
                       1000000);
    params.AddSeconds("durationMin", "shortest session, seconds", durationMin);
    params.AddSeconds("durationMax",
                      "longest session, seconds (0: the paper's 13 for 4 ports, 53 for 16)",
                      durationMax);
    params.AddSeconds("simTime",
                      "run length, seconds; sessions start uniformly in [0, simTime)",
                      simTime);
    params.AddSeconds("warmup", "statistics start, seconds", warmup);
    params.Add("tcp", "TCP congestion control: NewReno, Cubic, ...", tcp);
    params.AddUnsigned("segmentSize", "TCP segment size, bytes", segmentSize, 1, 1400);
    params.AddUnsigned("maxWindow",
                       "receive window, segments (ns-2's window_); 0: no limit",
                       maxWindow,
                       0,
                       65535);
    params.AddUnsigned("initialCwnd", "initial congestion window, segments", initialCwnd, 1, 65535);
    params.AddUnsigned("delAckCount",
                       "segments per delayed ACK (1: an ACK per segment)",
                       delAckCount,
                       1,
                       65535);
    params.Add("sack", "TCP selective acknowledgements", sack);
    params.AddSeconds("minRto", "TCP minimum retransmission timeout, seconds", minRto);
    params.AddUnsigned("sinkPorts",
                       "TCP ports each sink listens on, the sessions spread over them (speed "
                       "only: the traffic is the same; fewer full checks in the sinks' end-point "
                       "demultiplexers)",
                       sinkPorts,
                       1,
                       4096);
    params.AddRunNumber();
    params.Add("quick", "a short run (20 s, a tenth of the sessions) for tests", quick, NEVER);
    for (const char* metric : {"mean_input_queue_packets",
                               "mean_output_queue_packets",
                               "loss_rate",
                               "input_loss_rate",
                               "output_loss_rate",
                               "utilization",
                               "goodput_utilization",
                               "switch_arrivals",
                               "switch_delivered",
                               "input_drops",
                               "output_drops",
                               "early_drops",
                               "forced_drops",
                               "host_sent",
                               "host_drops",
                               "end_to_end_loss_rate",
                               "ack_path_drops",
                               "sessions_run",
                               "mean_concurrent_sessions",
                               "sessions_started",
                               "sessions_connected",
                               "sessions_failed",
                               "sessions_closed"})
    {
        params.AddMetric(metric);
    }
    params.SetsAttribute("segmentSize", "ns3::TcpSocket::SegmentSize");
    params.SetsAttribute("initialCwnd", "ns3::TcpSocket::InitialCwnd");
    params.SetsAttribute("delAckCount", "ns3::TcpSocket::DelAckCount");
    params.SetsAttribute("sack", "ns3::TcpSocketBase::Sack");
    params.OwnsAttribute("ns3::TcpL4Protocol::SocketType", "--tcp");
    params.OwnsAttribute("ns3::TcpSocket::RcvBufSize", "--maxWindow x --segmentSize");
    params.OwnsAttribute("ns3::TcpSocketBase::MinRto", "--minRto");
    params.OwnsAttribute("ns3::FifoQueueDisc::MaxSize", "--outputBuffer and --hostQueue");
    params.OwnsAttribute("ns3::CioqRedQueueDisc::InputWeight", "--nu");
    params.OwnsAttribute("ns3::CioqSwitchNetDevice::Speedup", "--speedup");
    params.OwnsAttribute("ns3::CioqSwitchNetDevice::FabricModel", "--fabric");
    params.OwnsAttribute("ns3::CioqSwitchNetDevice::InputBufferSize", "--inputBuffer");
    params.OwnsAttribute("ns3::CioqSwitchNetDevice::VoqMaxSize", "--voqLimit");
    params.OwnsAttribute("ns3::CioqSwitchNetDevice::IslipIterations", "--islipIterations");
    params.OwnsAttribute("ns3::CioqSwitchNetDevice::LineRate", "--lineRate");
    for (const std::string type : {"ns3::RedQueueDisc::", "ns3::CioqRedQueueDisc::"})
    {
        params.OwnsAttribute(type + "MaxSize", "--outputBuffer");
        params.OwnsAttribute(type + "MinTh", "--minTh");
        params.OwnsAttribute(type + "MaxTh", "--maxTh");
        params.OwnsAttribute(type + "QW", "--qW");
        params.OwnsAttribute(type + "LInterm", "--maxP");
        params.OwnsAttribute(type + "Gentle", "--gentle");
        params.OwnsAttribute(type + "Wait", "--wait");
        params.OwnsAttribute(type + "MeanPktSize", "--segmentSize");
        params.OwnsAttribute(type + "LinkBandwidth", "--lineRate");
    }
    params.OwnsAttribute("ns3::PointToPointNetDevice::DataRate", "--lineRate");
    params.OwnsAttribute("ns3::PointToPointChannel::Delay", "--linkDelay");
}

void
CioqRedEvaluationConfig::Resolve(ExperimentParams& params)
{
    // The paper's values for its two switch sizes.
    NS_ABORT_MSG_UNLESS(load > 0 && load <= 100, "--load must be in (0, 100]");
    if (sessions == 0)
    {
        const uint32_t paper = PaperDefault<uint32_t>(ports, 800, 6400, "--sessions");
        sessions = static_cast<uint32_t>(std::lround(load * paper));
        NS_ABORT_MSG_IF(sessions == 0, "--load " << load << " gives no session");
    }
    else
    {
        NS_ABORT_MSG_UNLESS(load == 1, "give --sessions or --load, not both");
    }
    if (speedup < 0)
    {
        speedup = PaperDefault(ports, 1.1, 1.4, "--speedup");
    }
    if (nu < 0)
    {
        nu = PaperDefault(ports, 0.5, 0.125, "--nu");
    }
    if (durationMax <= 0)
    {
        durationMax = PaperDefault(ports, 13.0, 53.0, "--durationMax");
    }
    if (quick)
    {
        simTime = 20;
        sessions = std::max<uint32_t>(1, sessions / 10);
    }

    queueDiscTypeId = QueueDiscCatalog::Choose("--queueDisc", queueDisc, QUEUE_DISCS).typeId;
    NS_ABORT_MSG_UNLESS(speedup >= 1 && speedup <= ports,
                        "--speedup must be in [1, " << ports << "], got " << speedup);
    NS_ABORT_MSG_UNLESS(fabric == "Paper" || fabric == "Islip",
                        "--fabric must be Paper or Islip, got '" << fabric << "'");
    voqSize = QueueSize(voqLimit);
    inputSize = QueueSize(inputBuffer);
    NS_ABORT_MSG_IF(voqSize.GetValue() == 0 && inputSize.GetValue() == 0,
                    "--inputBuffer and --voqLimit cannot both be 0");
    NS_ABORT_MSG_UNLESS(maxP > 0 && maxP <= 1, "--maxP must be in (0, 1]");
    NS_ABORT_MSG_UNLESS(simTime > 0 && warmup >= 0 && warmup < simTime,
                        "need simTime > 0 and warmup in [0, simTime)");
    NS_ABORT_MSG_UNLESS(minRto > 0, "--minRto must be > 0 seconds");

    // TCP as ns-2's agents of the time (ConfigureTcp): the congestion control's TypeId.
    tcpType = tcp.find("::") == std::string::npos ? "ns3::Tcp" + tcp : tcp;
    tcpTid = qdisclab::LookupTypeId(tcpType, TcpCongestionOps::GetTypeId(), "--tcp");

    // The report records the parameters that apply to this run, and the TCP's TypeId name.
    if (queueDisc == "FIFO")
    {
        for (const char* name : {"minTh", "maxTh", "qW", "maxP", "gentle", "wait"})
        {
            params.Omit(name);
        }
    }
    if (queueDisc != "CIOQ-RED")
    {
        params.Omit("nu");
    }
    if (fabric != "Islip")
    {
        params.Omit("islipIterations");
    }
    params.Record("tcp", tcpType);
}

void
CioqRedEvaluation::ConfigureTcp(ExperimentParams& params)
{
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(tcpTid));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(segmentSize));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(initialCwnd));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(delAckCount));
    // maxWindow = 0: a receive buffer so large that the window never limits. (ns-3 < 3.44
    // crashes when a sender's unacknowledged data exactly fills the peer's advertised window;
    // TcpSessionSource guards its sockets against it, see qdisclab::GuardedReceiveWindow.)
    const uint32_t rcvBuf = maxWindow ? maxWindow * segmentSize : (16U << 20);
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(rcvBuf));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));
    params.SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(minRto)));
    // TIME_WAIT lasts 2 MSL. Sessions never reuse a port here, so a short MSL changes nothing but
    // how long a finished session's end point stays in its node's demultiplexer, which ns-3
    // scans linearly for every arriving packet.
    params.SetDefault("ns3::TcpSocketBase::MaxSegLifetime", DoubleValue(1));
}

void
CioqRedEvaluation::BuildTopology()
{
    BuildDataSwitch();
    BuildAckPath();
}

void
CioqRedEvaluation::ConfigureDataSwitch(CioqSwitchHelper& cioq) const
{
    // The output queue discs. Packets are IPv4 packets of segmentSize + 40 bytes.
    const uint32_t packetSize = segmentSize + 40;
    const QueueSizeValue outputLimit(QueueSize(QueueSizeUnit::PACKETS, outputBuffer));
    cioq.SetLineRate(DataRate(lineRate));
    cioq.SetLinkDelay(Time(linkDelay));
    if (queueDisc == "FIFO")
    {
        cioq.SetOutputQueueDisc(queueDiscTypeId, "MaxSize", outputLimit);
    }
    else
    {
        cioq.SetOutputQueueDisc(queueDiscTypeId,
                                "MaxSize",
                                outputLimit,
                                "MinTh",
                                DoubleValue(minTh),
                                "MaxTh",
                                DoubleValue(maxTh),
                                "QW",
                                DoubleValue(qW),
                                "LInterm",
                                DoubleValue(1 / maxP),
                                "Gentle",
                                BooleanValue(gentle),
                                "Wait",
                                BooleanValue(wait),
                                "MeanPktSize",
                                UintegerValue(packetSize),
                                "LinkBandwidth",
                                DataRateValue(DataRate(lineRate)));
    }
    // 2N ports: sources on 0 .. N-1, sinks on N .. 2N-1. The Paper fabric's internal links run
    // at Speedup / (2N): Speedup 2s gives the N x N switch's s/N. An Islip transfer runs at
    // Speedup whatever the port count.
    cioq.SetDeviceAttribute("Speedup", DoubleValue(fabric == "Paper" ? 2 * speedup : speedup));
    cioq.SetDeviceAttribute("FabricModel", StringValue(fabric));
    cioq.SetDeviceAttribute(
        "InputBufferSize",
        QueueSizeValue(inputSize.GetValue() ? inputSize : QueueSize("1000000p")));
    cioq.SetDeviceAttribute("VoqMaxSize", QueueSizeValue(voqSize));
    cioq.SetDeviceAttribute("IslipIterations", UintegerValue(islipIterations));
}

void
CioqRedEvaluation::BuildDataSwitch()
{
    CioqSwitchHelper cioq;
    ConfigureDataSwitch(cioq);
    sources.Create(ports);
    sinks.Create(ports);
    NodeContainer hosts(sources, sinks);
    InternetStackHelper().Install(hosts);
    star = cioq.InstallStar(CreateObject<Node>(), hosts);
    firstSink = ports;
    if (queueDisc == "CIOQ-RED")
    {
        for (uint32_t j = firstSink; j < 2 * ports; ++j)
        {
            star.device->GetOutputQueueDisc(j)->SetAttribute("InputWeight", DoubleValue(nu));
        }
    }

    // Sources queue in a DropTail FIFO (not ns-3's default FqCoDel): ns-2's link queue.
    TrafficControlHelper hostTc;
    hostTc.SetRootQueueDisc("ns3::FifoQueueDisc",
                            "MaxSize",
                            QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, hostQueue)));
    hostQdiscs = hostTc.Install(star.hostDevices);
    Ipv4AddressHelper dataAddresses("10.1.0.0", "255.255.0.0");
    dataInterfaces = cioq.AssignIpv4(star, dataAddresses);
}

void
CioqRedEvaluation::BuildAckPath()
{
    // The acknowledgements' network: an output-queued switch (speedup 2N) with ample buffers.
    CioqSwitchHelper ackSwitch;
    ackSwitch.SetLineRate(DataRate(lineRate));
    ackSwitch.SetLinkDelay(Time(linkDelay));
    ackSwitch.SetDeviceAttribute("Speedup", DoubleValue(2 * ports));
    ackSwitch.SetDeviceAttribute("InputBufferSize", QueueSizeValue(QueueSize("1000p")));
    ackSwitch.SetOutputQueueDisc("ns3::FifoQueueDisc",
                                 "MaxSize",
                                 QueueSizeValue(QueueSize("1000p")));
    ackStar = ackSwitch.InstallStar(CreateObject<Node>(), NodeContainer(sources, sinks));
    TrafficControlHelper ackTc;
    ackTc.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", QueueSizeValue(QueueSize("1000p")));
    ackTc.Install(ackStar.hostDevices);
    Ipv4AddressHelper ackAddresses("10.2.0.0", "255.255.0.0");
    ackSwitch.AssignIpv4(ackStar, ackAddresses);
    // Sinks reach the sources through it: a host route per source, and the second switch maps
    // the sources' addresses on the CIOQ switch to their ports.
    Ipv4StaticRoutingHelper routing;
    for (uint32_t j = 0; j < ports; ++j)
    {
        Ptr<Ipv4> ipv4 = sinks.Get(j)->GetObject<Ipv4>();
        const int32_t ackInterface =
            ipv4->GetInterfaceForDevice(ackStar.hostDevices.Get(firstSink + j));
        Ptr<Ipv4StaticRouting> table = routing.GetStaticRouting(ipv4);
        for (uint32_t i = 0; i < ports; ++i)
        {
            table->AddHostRouteTo(dataInterfaces.GetAddress(i), ackInterface);
        }
    }
    for (uint32_t i = 0; i < ports; ++i)
    {
        ackStar.device->AddStaticRoute(dataInterfaces.GetAddress(i), i);
    }
}

void
CioqRedEvaluation::InstallTraffic()
{
    // The sessions. Their draws come from fixed streams, so that one RngRun gives the same
    // sessions to every queue disc, speedup and fabric (common random numbers).
    std::vector<Address> sinkAddresses;
    for (uint32_t j = 0; j < ports; ++j)
    {
        sinkAddresses.emplace_back(dataInterfaces.GetAddress(firstSink + j));
    }
    traffic.emplace();
    traffic->SetDuration(Seconds(durationMin), Seconds(durationMax));
    traffic->SetStartWindow(Seconds(0), Seconds(simTime));
    traffic->SetEnd(Seconds(simTime));
    traffic->AssignStreams(100);
    traffic->SetSinkPorts(sinkPorts);
    drawn = traffic->Draw(sessions, ports, ports);
    traffic->Install(drawn, sources, sinks, sinkAddresses, SINK_PORT);
    // RED's random drops: their own streams too.
    int64_t stream = 1000;
    for (uint32_t j = firstSink; j < 2 * ports; ++j)
    {
        Ptr<QueueDisc> qdisc = star.device->GetOutputQueueDisc(j);
        if (auto red = DynamicCast<RedQueueDisc>(qdisc))
        {
            stream += red->AssignStreams(stream);
        }
        else if (auto cioqRed = DynamicCast<CioqRedQueueDisc>(qdisc))
        {
            stream += cioqRed->AssignStreams(stream);
        }
    }

    // Measurement from the warm-up on: inputs are the sources' ports, outputs the sinks'.
    const Time warmupTime = Seconds(warmup);
    wire.from = warmupTime;
    for (uint32_t k = 0; k < ports; ++k)
    {
        star.hostDevices.Get(firstSink + k)
            ->TraceConnectWithoutContext("PhyRxEnd", MakeBoundCallback(&OnHostRx, &wire));
    }
    outputAtWarmup.resize(ports);
    hostAtWarmup.resize(ports);
    qdisclab::Schedule(warmupTime, [this]() {
        star.device->ResetStatistics();
        for (uint32_t k = 0; k < ports; ++k)
        {
            outputAtWarmup[k] = star.device->GetOutputQueueDisc(firstSink + k)->GetStats();
            hostAtWarmup[k] = hostQdiscs.Get(k)->GetStats();
        }
        sinkBytesAtWarmup = traffic->GetTotalReceived();
    });
}

CioqSwitchTotals
CioqRedEvaluation::SumPorts() const
{
    CioqSwitchTotals t;
    for (uint32_t k = 0; k < ports; ++k)
    {
        const CioqSwitchNetDevice::PortStats& in = star.device->GetPortStats(k);
        const CioqSwitchNetDevice::PortStats& out = star.device->GetPortStats(firstSink + k);
        t.inputSum += star.device->GetAverageInputPackets(k);
        t.outputSum += star.device->GetAverageOutputPackets(firstSink + k);
        t.arrived += in.framesReceived;
        t.inputDrops += in.inputDrops;
        t.outputDrops += out.outputDrops;
        t.delivered += out.sent;
        t.strayArrivals += out.framesReceived + in.switchedOut; // sinks send nothing here
        const QueueDisc::Stats& now = star.device->GetOutputQueueDisc(firstSink + k)->GetStats();
        const QueueDisc::Stats& then = outputAtWarmup[k];
        t.earlyDrops += now.GetNDroppedPackets(RedQueueDisc::UNFORCED_DROP) -
                        then.GetNDroppedPackets(RedQueueDisc::UNFORCED_DROP);
        t.forcedDrops += now.GetNDroppedPackets(RedQueueDisc::FORCED_DROP) -
                         then.GetNDroppedPackets(RedQueueDisc::FORCED_DROP);
        const QueueDisc::Stats& host = hostQdiscs.Get(k)->GetStats();
        t.hostSent += host.nTotalReceivedPackets - hostAtWarmup[k].nTotalReceivedPackets;
        t.hostDrops += host.nTotalDroppedPackets - hostAtWarmup[k].nTotalDroppedPackets;
    }
    return t;
}

NetDeviceContainer
CioqRedEvaluation::GetOutputPorts() const
{
    NetDeviceContainer outputs;
    for (uint32_t j = firstSink; j < 2 * ports; ++j)
    {
        outputs.Add(star.ports.Get(j));
    }
    return outputs;
}

void
CioqRedEvaluation::Collect(MetricsReport& report) const
{
    const CioqSwitchTotals t = SumPorts();
    NS_ABORT_MSG_IF(t.strayArrivals, "packets on the CIOQ switch in the sinks' direction");
    uint64_t ackDrops = 0;
    for (uint32_t k = 0; k < 2 * ports; ++k)
    {
        const CioqSwitchNetDevice::PortStats& port = ackStar.device->GetPortStats(k);
        ackDrops += port.inputDrops + port.outputDrops + port.fabricDrops;
    }
    const double seconds = simTime - warmup;
    const double capacityBits = ports * DataRate(lineRate).GetBitRate() * seconds;
    const TcpSessionSource::Counters counters = traffic->GetCounters();
    const double nan = std::nan("");

    report.SetMetric("mean_input_queue_packets", t.inputSum / ports);
    report.SetMetric("mean_output_queue_packets", t.outputSum / ports);
    report.SetMetric("loss_rate",
                     t.arrived ? double(t.inputDrops + t.outputDrops) / t.arrived : nan);
    report.SetMetric("input_loss_rate", t.arrived ? double(t.inputDrops) / t.arrived : nan);
    report.SetMetric("output_loss_rate", t.arrived ? double(t.outputDrops) / t.arrived : nan);
    report.SetMetric("utilization", wire.bytes * 8.0 / capacityBits);
    report.SetMetric("goodput_utilization",
                     (traffic->GetTotalReceived() - sinkBytesAtWarmup) * 8.0 / capacityBits);
    report.SetMetric("switch_arrivals", static_cast<double>(t.arrived));
    report.SetMetric("switch_delivered", static_cast<double>(t.delivered));
    report.SetMetric("input_drops", static_cast<double>(t.inputDrops));
    report.SetMetric("output_drops", static_cast<double>(t.outputDrops));
    report.SetMetric("early_drops", static_cast<double>(t.earlyDrops));
    report.SetMetric("forced_drops", static_cast<double>(t.forcedDrops));
    report.SetMetric("host_sent", static_cast<double>(t.hostSent));
    report.SetMetric("host_drops", static_cast<double>(t.hostDrops));
    report.SetMetric("end_to_end_loss_rate",
                     t.hostSent ? double(t.hostDrops + t.inputDrops + t.outputDrops) / t.hostSent
                                : nan);
    report.SetMetric("ack_path_drops", static_cast<double>(ackDrops));
    report.SetMetric("sessions_run", static_cast<double>(drawn.size()));
    double sessionSeconds = 0;
    for (const auto& s : drawn)
    {
        sessionSeconds += (s.stop - s.start).GetSeconds();
    }
    report.SetMetric("mean_concurrent_sessions", sessionSeconds / simTime);
    report.SetMetric("sessions_started", counters.started);
    report.SetMetric("sessions_connected", counters.connected);
    report.SetMetric("sessions_failed", counters.failed);
    report.SetMetric("sessions_closed", counters.closed);
}

int
main(int argc, char* argv[])
{
    ExperimentParams params("cioq-red-evaluation", __FILE__);
    CioqRedEvaluation evaluation;
    evaluation.Declare(params);
    params.Parse(argc, argv);
    evaluation.Resolve(params);

    evaluation.ConfigureTcp(params);
    evaluation.BuildTopology();
    evaluation.InstallTraffic();
    params.EnableTraces(evaluation.GetOutputPorts());
    Simulator::Stop(Seconds(evaluation.simTime));
    Simulator::Run();

    MetricsReport report = params.NewReport();
    evaluation.Collect(report);
    params.Write(report);
    Simulator::Destroy();
    return 0;
}
