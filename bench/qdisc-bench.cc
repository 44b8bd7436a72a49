/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup qdisc-lab
 * Micro-benchmark of a queue disc: the cost of Enqueue + Dequeue per packet, with synthetic
 * multi-flow IPv4/UDP traffic and no network around the queue disc.
 *
 *   qdisc-bench --qdisc=ns3::FqCoDelQueueDisc --flows=1000 --load=overload --packets=200000 \
 *       --attr=MaxSize=1000p --output=fq.json
 *
 * What is measured. Packets are processed in chunks (--chunk). For each chunk the items are
 * built first, outside the measured region: the flow of each packet comes from a fixed
 * pseudo-random sequence (uniform or Zipf over --flows flows), its size is uniform in
 * [--minSize, --maxSize] bytes of IPv4 packet, and each item is a fresh Ipv4QueueDiscItem (an
 * Ipv4Header plus a Packet carrying a UdpHeader, so that the 5-tuples of the flows differ). Then
 * RunMeasuredLoop() hands the chunk to the queue disc -- only Enqueue, Dequeue and whatever they
 * do (classification, AQM, drops; an item the queue disc drops from its queue may be freed
 * there) -- and that call alone is timed (steady_clock) and, under callgrind, collected
 * (--toggle-collect=*RunMeasuredLoop*). Dequeued items, and dropped ones (the queue disc's Drop
 * trace hands them to KeepDropped), are kept until the chunk ends, so freeing them is not
 * measured either: a queue disc that drops a packet it queued in an earlier chunk (buffer
 * stealing, head drop) would otherwise be charged for freeing it, and one that drops the arrival
 * would not. Every queue disc pays the same small price for the trace sink (one call per drop).
 * ns_per_packet is measured time / --packets; the time to build the items is reported separately
 * (item_build_ns_per_packet).
 *
 * Load. overload: two enqueues per dequeue, always (offered load 200%): the queue fills up to its
 * limit (or to where its AQM holds it) and half of the packets are dropped. underload: after every
 * --burst enqueues the queue is drained, so it stays short and flows come and go.
 *
 * State. For the queue discs whose catalog entry (helper/queue-disc-catalog.h) has the
 * flow_state capability (this module's per-flow queue discs: DRR, SRR, Aliquem, VD) the report
 * adds what they allocated for their flows by the end of the run: active_flow_state_bytes (state
 * that exists only while a flow has packets queued, at its peak), bucket_state_bytes (state kept
 * per bucket), peak_active_flows, and state_bytes_per_active_flow (the first over the third).
 * Per-packet records are not included.
 *
 * Time. Between chunks the simulation clock advances by the transmission time of the bytes
 * dequeued in the chunk at --rate, so AQMs that look at sojourn times (CoDel) see them; within a
 * chunk Simulator::Now() does not move. Events the queue disc schedules run between chunks.
 *
 * Catalog. `qdisc-bench --list` (or --list=json) prints the module's queue disc catalog as JSON,
 * --list=tsv as tab-separated values, and exits: `qdisc-lab bench` takes from it which queue
 * discs to benchmark by default and with which attributes.
 *
 * Exit status: 0 on success, 2 for a bad argument or attribute, 3 for an unknown queue disc type.
 */

#include "ns3/command-line.h"
#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/metrics-report.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/qdisc-lab-compat.h"
#include "ns3/queue-disc-catalog.h"
#include "ns3/queue-disc.h"
#include "ns3/simple-net-device.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/udp-header.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <sys/resource.h>
#include <unistd.h>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// Exit status for a bad command-line argument or queue disc attribute.
constexpr int EXIT_BAD_ARGUMENT = 2;
/// Exit status for a queue disc type that is not registered.
constexpr int EXIT_UNKNOWN_QDISC = 3;

/// IPv4 protocol number of UDP.
constexpr uint8_t UDP_PROTOCOL = 17;

/// Bytes of IPv4 and UDP headers in every packet.
constexpr uint32_t HEADER_BYTES = 20 + 8;

/**
 * SplitMix64: a small, fast generator whose sequence is the same on every platform and
 * standard library (unlike std:: distributions).
 */
class SplitMix64
{
  public:
    /**
     * \param seed the seed
     */
    explicit SplitMix64(uint64_t seed)
        : m_state(seed)
    {
    }

    /// \return the next 64 random bits
    uint64_t Next()
    {
        uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    /// \return a double uniform in [0, 1)
    double NextDouble()
    {
        return static_cast<double>(Next() >> 11) * 0x1.0p-53;
    }

    /**
     * \param n the bound, > 0
     * \return an integer uniform in [0, n) (Lemire's multiply-shift, bias < 2^-32)
     */
    uint32_t Below(uint32_t n)
    {
        return static_cast<uint32_t>(((Next() >> 32) * n) >> 32);
    }

  private:
    uint64_t m_state; //!< generator state
};

/**
 * The synthetic traffic: which flow each packet belongs to, its size, and the queue disc item
 * that carries it. Flows are numbered 0..flows-1; flow i's 5-tuple is computed from i (UDP from
 * 10.0.0.1 + i, port 1024 + i mod 60000, to 192.168.0.1 + i mod 250, port 5001), so the source
 * keeps no per-flow state (memory measurements see the queue disc's state only), except the
 * cumulative distribution of the Zipf law.
 */
class TrafficSource
{
  public:
    /**
     * \param flows number of flows
     * \param zipfExponent 0 for flows picked uniformly; otherwise the exponent s of a Zipf law
     *        (flow i has probability proportional to 1 / (i + 1)^s)
     * \param minSize smallest IPv4 packet, bytes (>= 28)
     * \param maxSize largest IPv4 packet, bytes
     * \param seed seed of the pseudo-random sequences
     */
    TrafficSource(uint32_t flows,
                  double zipfExponent,
                  uint32_t minSize,
                  uint32_t maxSize,
                  uint64_t seed)
        : m_flows(flows),
          m_minSize(minSize),
          m_sizeSpan(maxSize - minSize + 1),
          m_flowRng(seed),
          m_sizeRng(seed ^ 0x5bd1e9955bd1e995ULL)
    {
        if (zipfExponent > 0)
        {
            m_zipfCdf.resize(flows);
            double sum = 0;
            for (uint32_t i = 0; i < flows; ++i)
            {
                sum += std::pow(1.0 + i, -zipfExponent);
                m_zipfCdf[i] = sum;
            }
            for (double& value : m_zipfCdf)
            {
                value /= sum;
            }
        }
    }

    /// \return the flow of the next packet
    uint32_t NextFlow()
    {
        if (m_zipfCdf.empty())
        {
            return m_flowRng.Below(m_flows);
        }
        double u = m_flowRng.NextDouble();
        auto it = std::upper_bound(m_zipfCdf.begin(), m_zipfCdf.end(), u);
        return std::min<uint32_t>(static_cast<uint32_t>(it - m_zipfCdf.begin()), m_flows - 1);
    }

    /// \return a new item for the next packet
    Ptr<QueueDiscItem> NextItem()
    {
        uint32_t flow = NextFlow();
        uint32_t size = m_minSize + m_sizeRng.Below(m_sizeSpan);

        Ptr<Packet> packet = Create<Packet>(size - HEADER_BYTES);
        UdpHeader udp;
        udp.SetSourcePort(static_cast<uint16_t>(1024 + flow % 60000));
        udp.SetDestinationPort(5001);
        packet->AddHeader(udp);

        Ipv4Header ip;
        ip.SetSource(Ipv4Address(0x0a000001U + flow));
        ip.SetDestination(Ipv4Address(0xc0a80001U + flow % 250));
        ip.SetProtocol(UDP_PROTOCOL);
        ip.SetPayloadSize(packet->GetSize());
        ip.SetTtl(64);
        return Create<Ipv4QueueDiscItem>(packet, m_destination, Ipv4L3Protocol::PROT_NUMBER, ip);
    }

  private:
    uint32_t m_flows;              //!< number of flows
    uint32_t m_minSize;            //!< smallest packet, bytes
    uint32_t m_sizeSpan;           //!< number of possible sizes
    SplitMix64 m_flowRng;          //!< sequence of flows
    SplitMix64 m_sizeRng;          //!< sequence of sizes
    std::vector<double> m_zipfCdf; //!< Zipf CDF over the flows; empty for uniform
    Address m_destination;         //!< the items' (unused) link-layer destination
};

/// Offered load.
enum class Load
{
    OVERLOAD,  //!< two enqueues per dequeue
    UNDERLOAD, //!< drain the queue after every burst
};

/// Counters and position of the load pattern across chunks.
struct LoadState
{
    Load load{Load::OVERLOAD}; //!< the load pattern
    uint32_t burst{4};         //!< underload: enqueues between drains
    uint64_t enqueueCalls{0};  //!< Enqueue calls so far
    uint64_t dequeued{0};      //!< items Dequeue returned so far
    uint64_t dequeuedBytes{0}; //!< bytes of those items
    uint32_t sinceDrain{0};    //!< underload: enqueues since the last drain
};

/**
 * \def QDISC_BENCH_DISTINCT
 * Keeps a function out of line and apart from identical ones (GCC would otherwise fold
 * RunWarmupLoop and RunMeasuredLoop into one, and callgrind would see one name for both).
 */
#if defined(__clang__)
#define QDISC_BENCH_DISTINCT __attribute__((noinline))
#else
#define QDISC_BENCH_DISTINCT __attribute__((noinline, no_icf))
#endif

/**
 * Give one chunk of items to the queue disc, following the load pattern. Inlined into
 * RunWarmupLoop and RunMeasuredLoop, so that the measured loop is the latter's own code.
 * \param qdisc the queue disc
 * \param items the chunk's items
 * \param state the load pattern's counters, updated
 * \param out receives the dequeued items (freed by the caller, outside the measured region)
 */
inline __attribute__((always_inline)) void
RunChunk(QueueDisc& qdisc,
         const std::vector<Ptr<QueueDiscItem>>& items,
         LoadState& state,
         std::vector<Ptr<QueueDiscItem>>& out)
{
    for (const Ptr<QueueDiscItem>& item : items)
    {
        qdisc.Enqueue(item);
        ++state.enqueueCalls;
        if (state.load == Load::OVERLOAD)
        {
            if (state.enqueueCalls % 2 == 0)
            {
                if (Ptr<QueueDiscItem> next = qdisc.Dequeue())
                {
                    out.push_back(std::move(next));
                }
            }
        }
        else if (++state.sinceDrain == state.burst)
        {
            state.sinceDrain = 0;
            while (Ptr<QueueDiscItem> next = qdisc.Dequeue())
            {
                out.push_back(std::move(next));
            }
        }
    }
}

/**
 * The warm-up: the same work as RunMeasuredLoop, in a function of its own so that callgrind
 * does not collect it.
 * \param qdisc the queue disc
 * \param items the chunk's items
 * \param state the load pattern's counters
 * \param out receives the dequeued items
 */
QDISC_BENCH_DISTINCT void
RunWarmupLoop(QueueDisc& qdisc,
              const std::vector<Ptr<QueueDiscItem>>& items,
              LoadState& state,
              std::vector<Ptr<QueueDiscItem>>& out)
{
    RunChunk(qdisc, items, state, out);
}

/**
 * The measured region: timed, and the only function callgrind collects
 * (--collect-atstart=no --toggle-collect=*RunMeasuredLoop*). Never inlined, so that its name
 * stays in the binary.
 * \param qdisc the queue disc
 * \param items the chunk's items
 * \param state the load pattern's counters
 * \param out receives the dequeued items
 */
QDISC_BENCH_DISTINCT void
RunMeasuredLoop(QueueDisc& qdisc,
                const std::vector<Ptr<QueueDiscItem>>& items,
                LoadState& state,
                std::vector<Ptr<QueueDiscItem>>& out)
{
    RunChunk(qdisc, items, state, out);
}

/**
 * Drop trace sink: keep the dropped item until the chunk ends, so that freeing it is not
 * measured (see the file's comment).
 * \param dropped where the chunk's dropped items go
 * \param item the item the queue disc dropped
 */
void
KeepDropped(std::vector<Ptr<const QueueDiscItem>>* dropped, Ptr<const QueueDiscItem> item)
{
    dropped->push_back(std::move(item));
}

/// \return the resident set size now, KiB (from /proc/self/statm; 0 if unavailable)
double
CurrentRssKib()
{
    std::ifstream statm("/proc/self/statm");
    uint64_t size = 0;
    uint64_t resident = 0;
    if (!(statm >> size >> resident))
    {
        return 0;
    }
    return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / 1024.0;
}

/// \return the peak resident set size of the process, KiB
double
PeakRssKib()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss); // KiB on Linux
}

/**
 * Split "A=1;B=2" into name/value pairs, appending them to `attributes`.
 * \param text the list; empty entries are ignored
 * \param attributes the list to append to
 * \return false if an entry has no '='
 */
bool
ParseAttributes(const std::string& text,
                std::vector<std::pair<std::string, std::string>>& attributes)
{
    size_t start = 0;
    while (start <= text.size())
    {
        size_t end = text.find(';', start);
        if (end == std::string::npos)
        {
            end = text.size();
        }
        std::string entry = text.substr(start, end - start);
        if (!entry.empty())
        {
            size_t eq = entry.find('=');
            if (eq == std::string::npos || eq == 0)
            {
                std::cerr << "qdisc-bench: attribute '" << entry << "' is not Name=Value\n";
                return false;
            }
            attributes.emplace_back(entry.substr(0, eq), entry.substr(eq + 1));
        }
        start = end + 1;
    }
    return true;
}

/// \return the names of the registered queue disc types that can be created, comma-separated
std::string
RegisteredQueueDiscs()
{
    std::vector<std::string> names;
    TypeId base = QueueDisc::GetTypeId();
    for (uint32_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        TypeId tid = TypeId::GetRegistered(static_cast<uint16_t>(i));
        if (tid != base && tid.IsChildOf(base) && tid.HasConstructor())
        {
            names.push_back(tid.GetName());
        }
    }
    std::sort(names.begin(), names.end());
    std::string joined;
    for (const std::string& name : names)
    {
        joined += (joined.empty() ? "" : ", ") + name;
    }
    return joined;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string qdiscName = "ns3::FifoQueueDisc";
    uint32_t flows = 10;
    std::string load = "overload";
    uint64_t packets = 200000;
    uint64_t warmup = 10000;
    uint32_t chunk = 256;
    uint32_t burst = 4;
    std::string dist = "uniform";
    double zipfExponent = 1.0;
    uint32_t minSize = 64;
    uint32_t maxSize = 1500;
    std::string rate = "1Gbps";
    uint64_t seed = 1;
    std::string attr;
    std::string attrs;
    std::string output;

    std::string list;

    // --attr may be repeated; CommandLine keeps only the last value, so collect them first.
    // A bare --list means --list=json (CommandLine wants a value for a string flag).
    std::vector<std::pair<std::string, std::string>> attributes;
    std::vector<std::string> args(argv, argv + argc);
    for (std::size_t i = 1; i < args.size(); ++i)
    {
        if (args[i].rfind("--attr=", 0) == 0 && !ParseAttributes(args[i].substr(7), attributes))
        {
            return EXIT_BAD_ARGUMENT;
        }
        if (args[i] == "--list")
        {
            args[i] = "--list=json";
        }
    }
    std::vector<char*> argvList;
    for (std::string& arg : args)
    {
        argvList.push_back(arg.data());
    }

    CommandLine cmd(__FILE__);
    cmd.Usage("Cost of a queue disc's Enqueue + Dequeue per packet, with synthetic multi-flow "
              "IPv4/UDP traffic and no network. Writes one JSON metrics object.");
    cmd.AddValue("qdisc", "Queue disc TypeId name, e.g. ns3::FqCoDelQueueDisc", qdiscName);
    cmd.AddValue("flows", "Number of flows (distinct 5-tuples)", flows);
    cmd.AddValue("load",
                 "overload (2 enqueues per dequeue) or underload (drain every burst)",
                 load);
    cmd.AddValue("packets", "Packets in the measured region", packets);
    cmd.AddValue("warmup", "Packets before the measured region", warmup);
    cmd.AddValue("chunk", "Packets per measured chunk (items are built between chunks)", chunk);
    cmd.AddValue("burst", "underload: enqueues between two drains of the queue", burst);
    cmd.AddValue("dist", "Flow of each packet: uniform or zipf", dist);
    cmd.AddValue("zipf", "Exponent of the Zipf law (--dist=zipf)", zipfExponent);
    cmd.AddValue("minSize", "Smallest IPv4 packet, bytes (sizes are uniform)", minSize);
    cmd.AddValue("maxSize", "Largest IPv4 packet, bytes", maxSize);
    cmd.AddValue("rate", "Link rate that drains the queue (advances the clock)", rate);
    cmd.AddValue("seed", "Seed of the flow and size sequences", seed);
    cmd.AddValue("attr", "Queue disc attribute Name=Value (repeatable)", attr);
    cmd.AddValue("attrs", "Queue disc attributes \"A=1;B=2\"", attrs);
    cmd.AddValue("output", "Metrics JSON file (default: standard output)", output);
    cmd.AddValue("list",
                 "Print the queue disc catalog and exit: json (also a bare --list) or tsv",
                 list);
    cmd.Parse(static_cast<int>(argvList.size()), argvList.data());

    if (list == "json")
    {
        QueueDiscCatalog::WriteJson(std::cout);
        return 0;
    }
    if (list == "tsv")
    {
        QueueDiscCatalog::WriteTsv(std::cout);
        return 0;
    }
    if (!list.empty())
    {
        std::cerr << "qdisc-bench: --list must be json or tsv, not '" << list << "'\n";
        return EXIT_BAD_ARGUMENT;
    }

    if (!ParseAttributes(attrs, attributes))
    {
        return EXIT_BAD_ARGUMENT;
    }
    Load loadKind;
    if (load == "overload")
    {
        loadKind = Load::OVERLOAD;
    }
    else if (load == "underload")
    {
        loadKind = Load::UNDERLOAD;
    }
    else
    {
        std::cerr << "qdisc-bench: --load must be overload or underload, not '" << load << "'\n";
        return EXIT_BAD_ARGUMENT;
    }
    if (dist != "uniform" && dist != "zipf")
    {
        std::cerr << "qdisc-bench: --dist must be uniform or zipf, not '" << dist << "'\n";
        return EXIT_BAD_ARGUMENT;
    }
    if (flows == 0 || packets == 0 || chunk == 0 || burst == 0 || minSize < HEADER_BYTES ||
        maxSize < minSize || maxSize > 65535)
    {
        std::cerr << "qdisc-bench: need --flows, --packets, --chunk, --burst > 0 and "
                  << HEADER_BYTES << " <= --minSize <= --maxSize <= 65535\n";
        return EXIT_BAD_ARGUMENT;
    }
    DataRateValue linkRate;
    if (!linkRate.DeserializeFromString(rate, MakeDataRateChecker()))
    {
        std::cerr << "qdisc-bench: --rate '" << rate << "' is not a data rate (e.g. 1Gbps)\n";
        return EXIT_BAD_ARGUMENT;
    }

    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(qdiscName, &tid) || !tid.IsChildOf(QueueDisc::GetTypeId()) ||
        !tid.HasConstructor())
    {
        std::cerr << "qdisc-bench: unknown queue disc type '" << qdiscName
                  << "'; registered queue discs: " << RegisteredQueueDiscs() << "\n";
        return EXIT_UNKNOWN_QDISC;
    }

    ObjectFactory factory;
    factory.SetTypeId(tid);
    std::string attributeList;
    for (const auto& [name, value] : attributes)
    {
        TypeId::AttributeInformation info;
        if (!tid.LookupAttributeByName(name, &info))
        {
            std::cerr << "qdisc-bench: " << qdiscName << " has no attribute '" << name << "'\n";
            return EXIT_BAD_ARGUMENT;
        }
        Ptr<AttributeValue> checked = info.checker->CreateValidValue(StringValue(value));
        if (!checked)
        {
            std::cerr << "qdisc-bench: invalid value '" << value << "' for " << qdiscName
                      << "::" << name << "\n";
            return EXIT_BAD_ARGUMENT;
        }
        factory.Set(name, *checked);
        attributeList += (attributeList.empty() ? "" : ";") + name + "=" + value;
    }
    Ptr<QueueDisc> qdisc = factory.Create<QueueDisc>();

    // As TrafficControlLayer does for a root queue disc: a device (whose MTU sets, e.g.,
    // FqCoDel's default quantum) with a queue interface, and a send callback.
    Ptr<SimpleNetDevice> device = CreateObject<SimpleNetDevice>();
    device->SetMtu(1500);
    Ptr<NetDeviceQueueInterface> ndqi = CreateObject<NetDeviceQueueInterface>();
    device->AggregateObject(ndqi);
    qdisc->SetNetDeviceQueueInterface(ndqi);
    qdisc->SetSendCallback([](Ptr<QueueDiscItem>) {});
    qdisc->Initialize();

    TrafficSource source(flows, dist == "zipf" ? zipfExponent : 0.0, minSize, maxSize, seed);
    LoadState state;
    state.load = loadKind;
    state.burst = burst;

    std::vector<Ptr<QueueDiscItem>> items;
    std::vector<Ptr<QueueDiscItem>> out;
    std::vector<Ptr<const QueueDiscItem>> dropped;
    items.reserve(chunk);
    out.reserve(chunk + 64);
    dropped.reserve(chunk + 64);
    qdisc->TraceConnectWithoutContext("Drop", MakeBoundCallback(&KeepDropped, &dropped));
    const double linkBps = static_cast<double>(linkRate.Get().GetBitRate());

    using Clock = std::chrono::steady_clock;
    Clock::duration measured{};
    Clock::duration building{};
    uint64_t dropsBefore = 0;
    double rssBefore = CurrentRssKib();

    // Run `total` packets through the queue disc, chunk by chunk; time them if `timed`.
    auto runPhase = [&](uint64_t total, bool timed) {
        uint64_t done = 0;
        while (done < total)
        {
            uint64_t n = std::min<uint64_t>(chunk, total - done);
            Clock::time_point t0 = Clock::now();
            items.clear();
            for (uint64_t i = 0; i < n; ++i)
            {
                items.push_back(source.NextItem());
            }
            Clock::time_point t1 = Clock::now();
            if (timed)
            {
                building += t1 - t0;
                RunMeasuredLoop(*qdisc, items, state, out);
                measured += Clock::now() - t1;
            }
            else
            {
                RunWarmupLoop(*qdisc, items, state, out);
            }
            uint64_t bytes = 0;
            for (const Ptr<QueueDiscItem>& item : out)
            {
                bytes += item->GetSize();
            }
            state.dequeued += out.size();
            state.dequeuedBytes += bytes;
            out.clear();
            dropped.clear();
            items.clear();
            // Advance the clock by the time the link takes to send what was dequeued.
            Simulator::Stop(Seconds(static_cast<double>(bytes) * 8.0 / linkBps));
            Simulator::Run();
            done += n;
        }
    };

    runPhase(warmup, false);
    dropsBefore = qdisc->GetStats().nTotalDroppedPackets;
    runPhase(packets, true);

    const QueueDisc::Stats& stats = qdisc->GetStats();
    double rssAfter = CurrentRssKib();
    double ns = std::chrono::duration<double, std::nano>(measured).count();
    double buildNs = std::chrono::duration<double, std::nano>(building).count();

    MetricsReport report("qdisc-bench", qdisclab::Ns3Version());
    report.SetParam("qdisc", qdiscName);
    report.SetParam("flows", int64_t{flows});
    report.SetParam("load", load);
    report.SetParam("packets", static_cast<int64_t>(packets));
    report.SetParam("warmup", static_cast<int64_t>(warmup));
    report.SetParam("chunk", int64_t{chunk});
    report.SetParam("burst", int64_t{burst});
    report.SetParam("dist", dist);
    report.SetParam("zipf", zipfExponent);
    report.SetParam("minSize", int64_t{minSize});
    report.SetParam("maxSize", int64_t{maxSize});
    report.SetParam("rate", rate);
    report.SetParam("seed", static_cast<int64_t>(seed));
    report.SetParam("attrs", attributeList);
    report.SetParam("measured", std::string("QueueDisc::Enqueue+Dequeue"));
    report.SetMetric("ns_per_packet", ns / static_cast<double>(packets));
    report.SetMetric("item_build_ns_per_packet", buildNs / static_cast<double>(packets));
    report.SetMetric("measured_s", ns * 1e-9);
    report.SetMetric("enqueued", static_cast<double>(state.enqueueCalls));
    report.SetMetric("accepted", stats.nTotalEnqueuedPackets);
    report.SetMetric("dequeued", static_cast<double>(state.dequeued));
    report.SetMetric("dequeued_bytes", static_cast<double>(state.dequeuedBytes));
    report.SetMetric("dropped", stats.nTotalDroppedPackets);
    report.SetMetric("dropped_before_enqueue", stats.nTotalDroppedPacketsBeforeEnqueue);
    report.SetMetric("dropped_after_dequeue", stats.nTotalDroppedPacketsAfterDequeue);
    report.SetMetric("measured_drops", stats.nTotalDroppedPackets - dropsBefore);
    report.SetMetric("drop_rate",
                     static_cast<double>(stats.nTotalDroppedPackets - dropsBefore) /
                         static_cast<double>(packets));
    report.SetMetric("left_in_queue", qdisc->GetNPackets());
    report.SetMetric("classes", qdisc->GetNQueueDiscClasses());
    report.SetMetric("sim_time_s", Simulator::Now().GetSeconds());
    report.SetMetric("rss_before_kib", rssBefore);
    report.SetMetric("rss_after_kib", rssAfter);
    report.SetMetric("rss_growth_kib", rssAfter - rssBefore);
    report.SetMetric("peak_rss_kib", PeakRssKib());
    QueueDiscFlowState flowState;
    if (QueueDiscCatalog::ReadFlowState(qdisc, flowState))
    {
        const auto activeFlowBytes = static_cast<double>(flowState.activeFlowBytes);
        const double peakActiveFlows = flowState.peakActiveFlows;
        report.SetMetric("active_flow_state_bytes", activeFlowBytes);
        report.SetMetric("bucket_state_bytes", static_cast<double>(flowState.bucketBytes));
        report.SetMetric("peak_active_flows", peakActiveFlows);
        report.SetMetric("state_bytes_per_active_flow",
                         activeFlowBytes / std::max(1.0, peakActiveFlows));
    }
    report.Write(output);

    qdisc->Dispose();
    Simulator::Destroy();
    return 0;
}
