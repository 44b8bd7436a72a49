/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * The RED-vs-DropTail study (Luo, "Comparison of RED vs. DropTail Queuing") on the simulator it
 * names: ns-3.24, where RED and DropTail are device queues (ns3::RedQueue, ns3::DropTailQueue)
 * and the traffic-control layer does not exist yet. The scenario is the module's
 * examples/red-vs-droptail.cc: nTcp TCP NewReno bulk senders and one UDP on/off sender, each
 * with its own receiver, on a dumbbell whose bottleneck queue (left router to right router) is
 * DropTail or RED, both limited to queueSize bytes; RED's thresholds are fractions of that limit.
 *
 * The program is self-contained (ns-3.24 cannot build the module's helpers) and keeps the
 * module's experiment contract: --schema prints the parameters it takes (the module example's
 * names, types and defaults) and the metrics it reports; --output=FILE writes one
 * "qdisc-lab.metrics/1" JSON object; --RngRun and --RngSeed are ns-3's global values. A bad
 * value is a one-line error naming the parameter, exit status 2.
 *
 * It runs from ns-3.24's scratch/ (the qdisc-lab tool copies it there and builds it):
 *
 *   ./waf --run "red-vs-droptail --queueDisc=RED --window=32000 --queueSize=16000"
 *
 * How each parameter maps onto ns-3.24's attributes, and what does not map, is in
 * doc/reproductions/red-vs-droptail.rst, "On the paper's simulator (ns-3.24)".
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const char* const PROGRAM = "red-vs-droptail";
const char* const NS3_VERSION = "3.24";
const uint32_t UNSTUDIED_QUEUE_PACKETS = 10240; //!< the module's ScenarioLink::UNSTUDIED_QUEUE_SIZE
const uint16_t TCP_PORT = 5000;                 //!< the module's DumbbellScenario defaults
const uint16_t UDP_PORT = 6000;

// ------------------------------------------------------------------------------ JSON output

/// Shortest decimal text that reads back as the same double ("0.32", not "0.320000000000001").
std::string
JsonNumber(double v)
{
    if (!std::isfinite(v))
    {
        return "null";
    }
    char text[32];
    for (int precision = 15; precision <= 17; ++precision)
    {
        std::snprintf(text, sizeof(text), "%.*g", precision, v);
        if (std::strtod(text, nullptr) == v)
        {
            break;
        }
    }
    return text;
}

std::string
JsonString(const std::string& s)
{
    std::string out = "\"";
    for (unsigned char c : s)
    {
        switch (c)
        {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (c < 0x20)
            {
                char esc[8];
                std::snprintf(esc, sizeof(esc), "\\u%04x", c);
                out += esc;
            }
            else
            {
                out += static_cast<char>(c);
            }
        }
    }
    return out + "\"";
}

/// A JSON object written member by member, in insertion order.
class JsonObject
{
  public:
    void Raw(const std::string& key, const std::string& json)
    {
        m_text += (m_text.empty() ? "" : ", ") + JsonString(key) + ": " + json;
    }

    void String(const std::string& key, const std::string& value)
    {
        Raw(key, JsonString(value));
    }

    void Number(const std::string& key, double value)
    {
        Raw(key, JsonNumber(value));
    }

    std::string Text() const
    {
        return "{" + m_text + "}";
    }

  private:
    std::string m_text;
};

// ------------------------------------------------------------------------------ parameters

/// A one-line error naming what is wrong, then exit status 2 (a usage error).
[[noreturn]] void
Fail(const std::string& message)
{
    std::cerr << PROGRAM << ": " << message << std::endl;
    std::exit(2);
}

/// The value kinds the module's --schema knows ("time" is reported as "string", as there).
enum class Kind
{
    STRING,
    UINT,
    DOUBLE,
    BOOL,
    RATE,
    TIME
};

/// One declared parameter: its flag, kind, help, whether reports record it, and its variable.
struct Param
{
    std::string name;
    Kind kind;
    std::string help;
    bool recorded;
    void* target;
    uint64_t min;
    uint64_t max;
};

bool
ParseUnsigned(const std::string& text, uint64_t& value)
{
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    {
        return false;
    }
    errno = 0;
    value = std::strtoull(text.c_str(), nullptr, 10);
    return errno == 0;
}

bool
ParseDouble(const std::string& text, double& value)
{
    if (text.empty())
    {
        return false;
    }
    char* end = nullptr;
    errno = 0;
    value = std::strtod(text.c_str(), &end);
    return errno == 0 && *end == '\0' && std::isfinite(value);
}

/// A number then one of ns-3.24's Time units (none: seconds), as Time(std::string) reads it.
bool
IsTimeText(const std::string& text)
{
    const std::string::size_type n = text.find_first_not_of("+-0123456789.eE");
    double number;
    if (!ParseDouble(text.substr(0, n), number))
    {
        return false;
    }
    const std::string unit = n == std::string::npos ? "" : text.substr(n);
    static const char* const units[] =
        {"", "s", "ms", "us", "ns", "ps", "fs", "min", "h", "d", "y"};
    return std::find(std::begin(units), std::end(units), unit) != std::end(units);
}

/// The parameters of one run, declared once: flags, --schema, --help and the report use them.
class Params
{
  public:
    void Add(const std::string& name, const std::string& help, std::string& v, bool recorded = true)
    {
        m_params.push_back({name, Kind::STRING, help, recorded, &v, 0, 0});
    }

    void AddRate(const std::string& name, const std::string& help, std::string& v, bool recorded)
    {
        m_params.push_back({name, Kind::RATE, help, recorded, &v, 0, 0});
    }

    void AddTime(const std::string& name, const std::string& help, std::string& v, bool recorded)
    {
        m_params.push_back({name, Kind::TIME, help, recorded, &v, 0, 0});
    }

    void AddUnsigned(const std::string& name,
                     const std::string& help,
                     uint64_t& v,
                     uint64_t min,
                     uint64_t max,
                     bool recorded = true)
    {
        m_params.push_back({name, Kind::UINT, help, recorded, &v, min, max});
    }

    void Add(const std::string& name, const std::string& help, double& v, bool recorded = true)
    {
        m_params.push_back({name, Kind::DOUBLE, help, recorded, &v, 0, 0});
    }

    void Add(const std::string& name, const std::string& help, bool& v, bool recorded = true)
    {
        m_params.push_back({name, Kind::BOOL, help, recorded, &v, 0, 0});
    }

    void AddMetric(const std::string& name)
    {
        m_metrics.push_back(name);
    }

    /// Take "--name=value" flags; --schema and --help print and exit; --output=FILE is kept.
    void Parse(int argc, char* argv[])
    {
        for (int i = 1; i < argc; ++i)
        {
            const std::string arg = argv[i];
            if (arg == "--schema")
            {
                std::cout << Schema() << std::endl;
                std::exit(0);
            }
            if (arg == "--help" || arg == "--PrintHelp")
            {
                PrintHelp();
                std::exit(0);
            }
            const std::string::size_type eq = arg.find('=');
            if (arg.compare(0, 2, "--") != 0)
            {
                Fail(arg + ": expected --name=value (see --help)");
            }
            const std::string name = arg.substr(2, eq == std::string::npos ? eq : eq - 2);
            // A boolean flag alone is true, as with ns-3's CommandLine (--quick).
            const std::string text = eq == std::string::npos ? "" : arg.substr(eq + 1);
            if (eq == std::string::npos && !(Find(name) && Find(name)->kind == Kind::BOOL))
            {
                Fail(arg + ": expected --name=value (see --help)");
            }
            if (name == "output")
            {
                m_output = text;
                continue;
            }
            Param* param = Find(name);
            if (!param)
            {
                Fail("--" + name + ": no such parameter (see --help)");
            }
            Set(*param, eq == std::string::npos ? "true" : text);
        }
    }

    /// \return the --output file; empty: standard output
    const std::string& Output() const
    {
        return m_output;
    }

    /// \return the recorded parameters as a JSON object, in declaration order
    std::string Recorded() const
    {
        JsonObject params;
        for (const Param& p : m_params)
        {
            if (p.recorded)
            {
                params.Raw(p.name, Value(p));
            }
        }
        return params.Text();
    }

    const std::vector<std::string>& Metrics() const
    {
        return m_metrics;
    }

  private:
    Param* Find(const std::string& name)
    {
        for (Param& p : m_params)
        {
            if (p.name == name)
            {
                return &p;
            }
        }
        return nullptr;
    }

    static void Set(Param& p, const std::string& text)
    {
        const std::string flag = "--" + p.name + "=" + text;
        switch (p.kind)
        {
        case Kind::STRING:
            *static_cast<std::string*>(p.target) = text;
            break;
        case Kind::RATE: {
            DataRateValue rate;
            if (!rate.DeserializeFromString(text, MakeDataRateChecker()) ||
                rate.Get().GetBitRate() == 0)
            {
                Fail(flag + " is not a rate > 0 (e.g. 10Mbps, 500kbps)");
            }
            *static_cast<std::string*>(p.target) = text;
            break;
        }
        case Kind::TIME:
            if (!IsTimeText(text) || Time(text).IsStrictlyNegative())
            {
                Fail(flag + " is not a time >= 0 (e.g. 20ms, 1s)");
            }
            *static_cast<std::string*>(p.target) = text;
            break;
        case Kind::UINT: {
            uint64_t v = 0;
            if (!ParseUnsigned(text, v) || v < p.min || v > p.max)
            {
                Fail(flag + " is not an integer in [" + std::to_string(p.min) + ", " +
                     std::to_string(p.max) + "]");
            }
            *static_cast<uint64_t*>(p.target) = v;
            break;
        }
        case Kind::DOUBLE: {
            double v = 0;
            if (!ParseDouble(text, v))
            {
                Fail(flag + " is not a finite number");
            }
            *static_cast<double*>(p.target) = v;
            break;
        }
        case Kind::BOOL:
            if (text == "true" || text == "1")
            {
                *static_cast<bool*>(p.target) = true;
            }
            else if (text == "false" || text == "0")
            {
                *static_cast<bool*>(p.target) = false;
            }
            else
            {
                Fail(flag + " is not a boolean (true, false, 1 or 0)");
            }
            break;
        }
    }

    static std::string Value(const Param& p)
    {
        switch (p.kind)
        {
        case Kind::UINT:
            return std::to_string(*static_cast<uint64_t*>(p.target));
        case Kind::DOUBLE:
            return JsonNumber(*static_cast<double*>(p.target));
        case Kind::BOOL:
            return *static_cast<bool*>(p.target) ? "true" : "false";
        default:
            return JsonString(*static_cast<std::string*>(p.target));
        }
    }

    static const char* TypeName(Kind kind)
    {
        switch (kind)
        {
        case Kind::UINT:
            return "uint";
        case Kind::DOUBLE:
            return "double";
        case Kind::BOOL:
            return "bool";
        case Kind::RATE:
            return "rate";
        default:
            return "string";
        }
    }

    std::string Schema() const
    {
        std::string params;
        for (const Param& p : m_params)
        {
            JsonObject entry;
            entry.String("name", p.name);
            entry.String("type", TypeName(p.kind));
            entry.Raw("default", Value(p));
            if (p.kind == Kind::UINT)
            {
                entry.Raw("min", std::to_string(p.min));
                entry.Raw("max", std::to_string(p.max));
            }
            entry.String("help", p.help);
            entry.String("recorded", p.recorded ? "always" : "never");
            params += (params.empty() ? "" : ", ") + entry.Text();
        }
        std::string metrics;
        for (const std::string& m : m_metrics)
        {
            JsonObject entry;
            entry.String("name", m);
            entry.String("recorded", "always");
            metrics += (metrics.empty() ? "" : ", ") + entry.Text();
        }
        JsonObject schema;
        schema.String("schema", "qdisc-lab.params/1");
        schema.String("program", PROGRAM);
        schema.String("ns3_version", NS3_VERSION);
        schema.Raw("params", "[" + params + "]");
        schema.Raw("metrics", "[" + metrics + "]");
        return schema.Text();
    }

    void PrintHelp() const
    {
        std::cout
            << PROGRAM << " (ns-" << NS3_VERSION << ") [--name=value ...]\n\n"
            << "    --output:  Metrics JSON file (default: standard output)\n"
            << "    --schema:  Print the program's parameters and metrics as JSON, and exit\n";
        for (const Param& p : m_params)
        {
            std::cout << "    --" << p.name << ":  " << p.help;
            if (p.kind == Kind::UINT)
            {
                std::cout << " [" << p.min << ", " << p.max << "]";
            }
            std::cout << " [" << Value(p) << "]\n";
        }
    }

    std::vector<Param> m_params;
    std::vector<std::string> m_metrics;
    std::string m_output;
};

// ------------------------------------------------------------------------------ scenario

/// The study's parameters, with the module example's defaults (its calibrated scenario).
struct Study
{
    std::string queueDisc = "FIFO";
    uint64_t window = 32000;
    uint64_t queueSize = 16000;
    std::string bottleneckRate = "1Mbps";
    std::string bottleneckDelay = "20ms";
    std::string accessRate = "100Mbps";
    std::string accessDelay = "1ms";
    double minTh = 0.32;
    double maxTh = 0.64;
    bool wait = true;
    bool gentle = true;
    uint64_t meanPktSize = 500;
    uint64_t nTcp = 8;
    uint64_t segmentSize = 512;
    std::string udpRate = "500kbps";
    uint64_t udpPacketSize = 1024;
    double udpOn = 3;
    double udpOff = 1;
    double simTime = 30;
    double warmup = 2;
    double startJitter = 1;
    uint64_t rngRun = 1;
    uint64_t rngSeed = 1;
    bool quick = false;
};

void
Declare(Params& params, Study& c)
{
    const uint64_t u32 = std::numeric_limits<uint32_t>::max();
    params.Add("queueDisc", "Bottleneck queue disc: FIFO (DropTailQueue) or RED", c.queueDisc);
    params.AddUnsigned("window", "TCP receiver window (receive buffer) in bytes", c.window, 1, u32);
    params.AddUnsigned("queueSize",
                       "Queue limit in bytes, FIFO and RED alike",
                       c.queueSize,
                       1,
                       u32);
    params.AddRate("bottleneckRate", "Bottleneck link rate", c.bottleneckRate, true);
    params.AddTime("bottleneckDelay",
                   "Bottleneck one-way propagation delay",
                   c.bottleneckDelay,
                   true);
    params.AddRate("accessRate", "Access link rate", c.accessRate, false);
    params.AddTime("accessDelay", "Access link one-way propagation delay", c.accessDelay, false);
    params.Add("minTh", "RED minimum threshold as a fraction of queueSize, in (0, 1]", c.minTh);
    params.Add("maxTh", "RED maximum threshold as a fraction of queueSize, in (minTh, 1]", c.maxTh);
    params.Add("wait", "RED: wait between dropping consecutive packets", c.wait);
    params.Add("gentle", "RED: gentle mode above the maximum threshold", c.gentle);
    params.AddUnsigned("meanPktSize",
                       "RED: mean packet size in bytes (idle-time estimate)",
                       c.meanPktSize,
                       1,
                       65535,
                       false);
    params.AddUnsigned("nTcp",
                       "Number of TCP senders (one sender/receiver pair each)",
                       c.nTcp,
                       1,
                       1000);
    params.AddUnsigned("segmentSize", "TCP segment size in bytes", c.segmentSize, 1, 1460);
    params.AddRate("udpRate", "UDP sender's rate while on", c.udpRate, true);
    params.AddUnsigned("udpPacketSize", "UDP packet size in bytes", c.udpPacketSize, 12, 1472);
    params.Add("udpOn", "UDP on time in seconds (constant)", c.udpOn, false);
    params.Add("udpOff", "UDP off time in seconds (constant)", c.udpOff, false);
    params.Add("simTime", "Simulated time in seconds", c.simTime);
    params.Add("warmup", "Seconds excluded from the statistics", c.warmup);
    params.Add("startJitter",
               "TCP senders start at times uniform in [0, startJitter) s",
               c.startJitter,
               false);
    params.AddUnsigned("RngRun",
                       "ns-3's run number (the RngRun global value: --RngRun=N)",
                       c.rngRun,
                       0,
                       std::numeric_limits<uint64_t>::max());
    params.AddUnsigned("RngSeed",
                       "ns-3's seed (the RngSeed global value: --RngSeed=N)",
                       c.rngSeed,
                       1,
                       u32);
    params.Add("quick", "Short run for CI: simTime=10, warmup=1", c.quick, false);
    for (const char* metric : {"tcp_goodput_mbps",
                               "udp_goodput_mbps",
                               "total_goodput_mbps",
                               "mean_queue_delay_ms",
                               "p99_queue_delay_ms",
                               "mean_queue_packets",
                               "mean_queue_bytes",
                               "drops",
                               "early_drops",
                               "forced_drops"})
    {
        params.AddMetric(metric);
    }
}

/// What the module checks after parsing, as one-line errors naming the parameter.
void
Check(const Study& c)
{
    if (c.queueDisc != "FIFO" && c.queueDisc != "RED")
    {
        Fail("--queueDisc=" + c.queueDisc + " is not one of its choices: FIFO, RED");
    }
    if (!(c.simTime > 0))
    {
        Fail("--simTime must be > 0");
    }
    if (!(c.warmup >= 0 && c.warmup < c.simTime))
    {
        Fail("--warmup must be in [0, simTime)");
    }
    if (c.queueDisc == "RED" && !(c.minTh > 0 && c.minTh < c.maxTh && c.maxTh <= 1))
    {
        Fail("--minTh, --maxTh: RED thresholds must satisfy 0 < minTh < maxTh <= 1, got minTh=" +
             JsonNumber(c.minTh) + " maxTh=" + JsonNumber(c.maxTh));
    }
    if (c.nTcp + 1 > 254)
    {
        Fail("--nTcp=" + std::to_string(c.nTcp) +
             ": at most 253 in this dumbbell (one /24 a host)");
    }
    if (!(c.udpOn > 0) || c.udpOff < 0)
    {
        Fail("--udpOn must be > 0 and --udpOff >= 0");
    }
    if (c.startJitter < 0)
    {
        Fail("--startJitter must be >= 0");
    }
}

/// The studied queue: RED or DropTail in byte mode, both limited to queueSize bytes.
Ptr<Queue>
MakeBottleneckQueue(const Study& c)
{
    ObjectFactory factory;
    if (c.queueDisc == "FIFO")
    {
        factory.SetTypeId("ns3::DropTailQueue");
        factory.Set("Mode", EnumValue(Queue::QUEUE_MODE_BYTES));
        factory.Set("MaxBytes", UintegerValue(c.queueSize));
    }
    else
    {
        factory.SetTypeId("ns3::RedQueue");
        factory.Set("Mode", EnumValue(Queue::QUEUE_MODE_BYTES));
        factory.Set("QueueLimit", UintegerValue(c.queueSize));
        factory.Set("MinTh", DoubleValue(c.minTh * c.queueSize));
        factory.Set("MaxTh", DoubleValue(c.maxTh * c.queueSize));
        factory.Set("Wait", BooleanValue(c.wait));
        factory.Set("Gentle", BooleanValue(c.gentle));
        factory.Set("MeanPktSize", UintegerValue(c.meanPktSize));
        factory.Set("LinkBandwidth", DataRateValue(DataRate(c.bottleneckRate)));
        factory.Set("LinkDelay", TimeValue(Time(c.bottleneckDelay)));
    }
    return factory.Create<Queue>();
}

/// A point-to-point link whose queues are the module's unstudied ones (10240 packets).
PointToPointHelper
LinkHelper(const std::string& rate, const std::string& delay)
{
    PointToPointHelper helper;
    helper.SetDeviceAttribute("DataRate", StringValue(rate));
    helper.SetChannelAttribute("Delay", StringValue(delay));
    helper.SetQueue("ns3::DropTailQueue", "MaxPackets", UintegerValue(UNSTUDIED_QUEUE_PACKETS));
    return helper;
}

Ipv4InterfaceContainer
AssignSubnet(Ipv4AddressHelper& address, int second, int third, const NetDeviceContainer& devices)
{
    std::ostringstream net;
    net << "10." << second << "." << third << ".0";
    address.SetBase(net.str().c_str(), "255.255.255.0");
    return address.Assign(devices);
}

/// The dumbbell of the module's DumbbellScenario: left hosts, two routers, right hosts.
struct Dumbbell
{
    NodeContainer left;
    NodeContainer right;
    NodeContainer routers;
    Ipv4InterfaceContainer rightInterfaces;
    Ptr<Queue> bottleneck; //!< the studied queue, on the left router's bottleneck device

    void Build(const Study& c, uint32_t hosts)
    {
        left.Create(hosts);
        right.Create(hosts);
        routers.Create(2);
        InternetStackHelper stack;
        stack.InstallAll();

        NetDeviceContainer core =
            LinkHelper(c.bottleneckRate, c.bottleneckDelay).Install(routers.Get(0), routers.Get(1));
        bottleneck = MakeBottleneckQueue(c);
        DynamicCast<PointToPointNetDevice>(core.Get(0))->SetQueue(bottleneck);

        Ipv4AddressHelper address;
        AssignSubnet(address, 2, 0, core);
        PointToPointHelper access = LinkHelper(c.accessRate, c.accessDelay);
        for (uint32_t i = 0; i < hosts; ++i)
        {
            AssignSubnet(address, 1, i + 1, access.Install(left.Get(i), routers.Get(0)));
            rightInterfaces.Add(
                AssignSubnet(address, 3, i + 1, access.Install(right.Get(i), routers.Get(1)))
                    .Get(0));
        }
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    }

    Ptr<PacketSink> AddBulkTcpFlow(uint32_t i, Time start)
    {
        PacketSinkHelper sink("ns3::TcpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), TCP_PORT));
        ApplicationContainer sinkApp = sink.Install(right.Get(i));
        BulkSendHelper source("ns3::TcpSocketFactory",
                              InetSocketAddress(rightInterfaces.GetAddress(i), TCP_PORT));
        source.Install(left.Get(i)).Start(start);
        return DynamicCast<PacketSink>(sinkApp.Get(0));
    }

    Ptr<PacketSink> AddOnOffUdpFlow(uint32_t i, const Study& c)
    {
        PacketSinkHelper sink("ns3::UdpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), UDP_PORT));
        ApplicationContainer sinkApp = sink.Install(right.Get(i));
        OnOffHelper source("ns3::UdpSocketFactory",
                           InetSocketAddress(rightInterfaces.GetAddress(i), UDP_PORT));
        source.SetConstantRate(DataRate(c.udpRate), c.udpPacketSize);
        std::ostringstream on;
        on << "ns3::ConstantRandomVariable[Constant=" << c.udpOn << "]";
        std::ostringstream off;
        off << "ns3::ConstantRandomVariable[Constant=" << c.udpOff << "]";
        source.SetAttribute("OnTime", StringValue(on.str()));
        source.SetAttribute("OffTime", StringValue(off.str()));
        source.Install(left.Get(i)).Start(Seconds(0));
        return DynamicCast<PacketSink>(sinkApp.Get(0));
    }
};

// ------------------------------------------------------------------------------ measurement

/**
 * What the module's BottleneckMonitor measures, on a 3.24 device queue: goodput per group of
 * sinks, each packet's queueing delay (enqueue to dequeue: the queue is FIFO, so the enqueue
 * times form a FIFO too), the queue length sampled every 10 ms, and drops, all after the warm-up.
 */
class Monitor
{
  public:
    Monitor(Ptr<Queue> queue, Time warmup)
        : m_queue(queue),
          m_warmup(warmup)
    {
    }

    void AddSink(const std::string& group, Ptr<PacketSink> sink)
    {
        m_sinks[group].push_back(sink);
    }

    void Start()
    {
        m_queue->TraceConnectWithoutContext("Enqueue", MakeCallback(&Monitor::Enqueued, this));
        m_queue->TraceConnectWithoutContext("Dequeue", MakeCallback(&Monitor::Dequeued, this));
        Simulator::Schedule(m_warmup, &Monitor::EndWarmup, this);
    }

    void Report(JsonObject& metrics)
    {
        const double seconds = (Simulator::Now() - m_warmup).GetSeconds();
        double total = 0;
        for (const auto& group : m_sinks)
        {
            const double mbps =
                (Received(group.first) - m_rxAtWarmup[group.first]) * 8.0 / seconds / 1e6;
            metrics.Number(group.first + "_goodput_mbps", mbps);
            total += mbps;
        }
        const double nan = std::numeric_limits<double>::quiet_NaN();
        metrics.Number("total_goodput_mbps", total);
        metrics.Number("mean_queue_delay_ms",
                       m_sojournMs.empty()
                           ? nan
                           : std::accumulate(m_sojournMs.begin(), m_sojournMs.end(), 0.0) /
                                 m_sojournMs.size());
        metrics.Number("p99_queue_delay_ms", Quantile(0.99));
        metrics.Number("mean_queue_packets", m_samples ? m_packetsSum / m_samples : nan);
        metrics.Number("mean_queue_bytes", m_samples ? m_bytesSum / m_samples : nan);
        const Drops now = CountDrops();
        metrics.Number("drops", now.total - m_dropsAtWarmup.total);
        metrics.Number("early_drops", now.early - m_dropsAtWarmup.early);
        metrics.Number("forced_drops", now.forced - m_dropsAtWarmup.forced);
    }

  private:
    struct Drops
    {
        double total;
        double early;  //!< RED's unforced (probabilistic) drops; none for DropTail
        double forced; //!< RED's forced drops (full queue included); DropTail's every drop
    };

    Drops CountDrops() const
    {
        const double total = m_queue->GetTotalDroppedPackets();
        Ptr<RedQueue> red = DynamicCast<RedQueue>(m_queue);
        if (!red)
        {
            return {total, 0, total};
        }
        const RedQueue::Stats stats = red->GetStats();
        return {total, double(stats.unforcedDrop), double(stats.forcedDrop)};
    }

    uint64_t Received(const std::string& group) const
    {
        uint64_t rx = 0;
        for (const auto& sink : m_sinks.at(group))
        {
            rx += sink->GetTotalRx();
        }
        return rx;
    }

    void EndWarmup()
    {
        m_warm = true;
        m_dropsAtWarmup = CountDrops();
        for (const auto& group : m_sinks)
        {
            m_rxAtWarmup[group.first] = Received(group.first);
        }
        Sample();
    }

    void Sample()
    {
        m_packetsSum += m_queue->GetNPackets();
        m_bytesSum += m_queue->GetNBytes();
        ++m_samples;
        Simulator::Schedule(MilliSeconds(10), &Monitor::Sample, this);
    }

    void Enqueued(Ptr<const Packet>)
    {
        m_enqueueTimes.push_back(Simulator::Now());
    }

    void Dequeued(Ptr<const Packet>)
    {
        const Time sojourn = Simulator::Now() - m_enqueueTimes.front();
        m_enqueueTimes.pop_front();
        if (m_warm)
        {
            m_sojournMs.push_back(sojourn.GetSeconds() * 1e3);
        }
    }

    /// The nearest-rank quantile of the queueing delay in ms; NaN without samples.
    double Quantile(double q)
    {
        if (m_sojournMs.empty())
        {
            return std::numeric_limits<double>::quiet_NaN();
        }
        std::sort(m_sojournMs.begin(), m_sojournMs.end());
        const size_t n = m_sojournMs.size();
        size_t rank = static_cast<size_t>(std::ceil(q * n));
        rank = std::min(std::max<size_t>(rank, 1), n);
        return m_sojournMs[rank - 1];
    }

    Ptr<Queue> m_queue;
    Time m_warmup;
    bool m_warm = false;
    std::map<std::string, std::vector<Ptr<PacketSink>>> m_sinks;
    std::map<std::string, uint64_t> m_rxAtWarmup;
    std::deque<Time> m_enqueueTimes;
    std::vector<double> m_sojournMs;
    Drops m_dropsAtWarmup = {0, 0, 0};
    double m_packetsSum = 0;
    double m_bytesSum = 0;
    uint64_t m_samples = 0;
};

void
WriteReport(const Params& params, Monitor& monitor)
{
    JsonObject metrics;
    monitor.Report(metrics);
    JsonObject report;
    report.String("schema", "qdisc-lab.metrics/1");
    report.String("program", PROGRAM);
    report.String("ns3_version", NS3_VERSION);
    report.Raw("params", params.Recorded());
    report.Raw("metrics", metrics.Text());
    if (params.Output().empty())
    {
        std::cout << report.Text() << std::endl;
        return;
    }
    std::ofstream out(params.Output().c_str());
    out << report.Text() << "\n";
    out.close();
    if (!out)
    {
        std::cerr << PROGRAM << ": --output=" << params.Output() << ": cannot write the report"
                  << std::endl;
        std::exit(1);
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    Study c;
    Params params;
    Declare(params, c);
    params.Parse(argc, argv);
    if (c.quick)
    {
        c.simTime = 10;
        c.warmup = 1;
    }
    Check(c);

    RngSeedManager::SetSeed(static_cast<uint32_t>(c.rngSeed));
    RngSeedManager::SetRun(c.rngRun);
    // ns-3.24's TcpNewReno (the default SocketType, named to be explicit): no SACK.
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue("ns3::TcpNewReno"));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(c.segmentSize));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(c.window));

    Dumbbell net;
    net.Build(c, c.nTcp + 1);

    Monitor monitor(net.bottleneck, Seconds(c.warmup));
    // Random TCP start times: the replications (RngRun) differ by them, and by RED's drops.
    Ptr<UniformRandomVariable> startTime = CreateObject<UniformRandomVariable>();
    startTime->SetStream(1);
    for (uint32_t i = 0; i < c.nTcp; ++i)
    {
        monitor.AddSink("tcp",
                        net.AddBulkTcpFlow(i, Seconds(startTime->GetValue(0, c.startJitter))));
    }
    monitor.AddSink("udp", net.AddOnOffUdpFlow(c.nTcp, c));
    monitor.Start();

    Simulator::Stop(Seconds(c.simTime));
    Simulator::Run();
    WriteReport(params, monitor);
    Simulator::Destroy();
    return 0;
}
