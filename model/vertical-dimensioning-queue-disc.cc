/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "vertical-dimensioning-queue-disc.h"

#include "qdisc-lab-compat.h"
#include "qdisc-lab-config.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/net-device.h"
#include "ns3/packet-filter.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("VerticalDimensioningQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(VerticalDimensioningQueueDisc);

namespace
{

/// The largest number of round FIFOs (each costs 12 bytes, whether used or not).
constexpr uint64_t MAX_ROUNDS = 1U << 24;

} // namespace

TypeId
VerticalDimensioningQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::VerticalDimensioningQueueDisc")
            .SetParent<QueueDisc>()
            .SetGroupName("QdiscLab")
            .AddConstructor<VerticalDimensioningQueueDisc>()
            .AddAttribute("MaxSize",
                          "The buffer size B, in bytes ('25000B', the paper's unit; at least "
                          "MaxPacketSize) or packets ('1000p'; at least 1): while more is "
                          "queued, the tail packet of the last non-empty round is dropped. "
                          "Default: 25000 B, DrrQueueDisc's (ns-2's blimit_), so the two compare "
                          "at equal buffers.",
                          QueueSizeValue(QueueSize("25000B")),
                          qdisclab::MakeMaxSizeAccessor(),
                          MakeQueueSizeChecker())
            .AddAttribute("MaxPacketSize",
                          "L_M in bytes: a flow of weight w may send w x L_M bytes per round. "
                          "0 (the default) takes the device's MTU, 1500 B without a device: the "
                          "paper's L_M is the network's MTU (1000 B in its simulations). Larger "
                          "packets are sent as DRR sends them, after ceil(size / (w x L_M)) "
                          "rounds' quanta. 0 or 1 .. MaxSize.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&VerticalDimensioningQueueDisc::m_maxPacketSizeAttr),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Rounds",
                          "M, the number of round FIFOs. 0 (the default): the smallest M that "
                          "cannot wrap around, ceil(B / Q) + 1, with B = MaxSize in bytes (n x "
                          "MaxPacketSize for n packets) and Q = w x MaxPacketSize for w = min(1, "
                          "DefaultWeight); the paper's ceil(B / L_M) can wrap by one round. "
                          "Smaller values are rejected; at most 16777216. Packets that would "
                          "still need a round M or more rounds ahead (a rule's weight below w; "
                          "with MaxSize in packets, packets larger than MaxPacketSize) are "
                          "dropped (BEYOND_LAST_ROUND_DROP).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&VerticalDimensioningQueueDisc::m_roundsAttr),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Buckets",
                          "Number of buckets flows are hashed into, as DrrQueueDisc's Buckets, "
                          "1 .. 16777216; a bucket is a flow i of the paper. Flow state exists "
                          "only while a bucket has packets queued, so buckets cost no memory. "
                          "Default: 16777216, so that flows rarely collide (the paper keeps "
                          "exact per-flow state).",
                          UintegerValue(1U << 24),
                          MakeUintegerAccessor(&VerticalDimensioningQueueDisc::m_buckets),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Mask",
                          "What identifies a flow, as DrrQueueDisc's Mask: FiveTuple (addresses, "
                          "ports, protocol; the default) or AddressPair.",
                          EnumValue(FlowIdentifier::FIVE_TUPLE),
                          QDISC_LAB_ENUM_ACCESSOR(FlowIdentifier::Mask,
                                                  &VerticalDimensioningQueueDisc::m_mask),
                          MakeEnumChecker(FlowIdentifier::FIVE_TUPLE,
                                          "FiveTuple",
                                          FlowIdentifier::ADDRESS_PAIR,
                                          "AddressPair"))
            .AddAttribute("Perturbation",
                          "Hash perturbation, any 32-bit value, as DrrQueueDisc's: another value "
                          "maps flows to buckets differently.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&VerticalDimensioningQueueDisc::m_perturbation),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("WeightRules",
                          "Per-flow weights w_i (quantum w_i x L_M), as DrrQueueDisc's "
                          "WeightRules: rules 'field=value ... weight=W' separated by ';', first "
                          "match wins; fields src, dst, sport, dport, proto, dscp. A flow keeps "
                          "the weight of its first packet while it has packets queued. Empty: "
                          "every flow has DefaultWeight.",
                          StringValue(""),
                          MakeStringAccessor(&VerticalDimensioningQueueDisc::m_weightRules),
                          MakeStringChecker())
            .AddAttribute("DefaultWeight",
                          "Weight of flows no rule matches, finite and > 0 (the paper's "
                          "best-effort w_i = 1 is the default).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&VerticalDimensioningQueueDisc::m_defaultWeight),
                          MakeDoubleChecker<double>())
            .AddAttribute("ReturningFlows",
                          "What a flow that empties and returns in the round it was credited in "
                          "gets. Fresh (the default, the paper's Fig. 2, which forgets a flow "
                          "when its last packet leaves): a fresh quantum in the current round, as "
                          "a new flow, so a flow that keeps emptying can send more than w x L_M "
                          "in one round and keep it open. Keep: what is left of its quantum in "
                          "that round (its state is kept until the round ends), so it sends at "
                          "most w x L_M per round, as DRR, which appends a returning flow to the "
                          "tail of its ActiveList. Ours, not the paper's.",
                          EnumValue(VdRounds::FRESH),
                          QDISC_LAB_ENUM_ACCESSOR(VdRounds::Returning,
                                                  &VerticalDimensioningQueueDisc::m_returning),
                          MakeEnumChecker(VdRounds::FRESH, "Fresh", VdRounds::KEEP, "Keep"))
            .AddAttribute("BucketCounters",
                          "Keep sent and dropped counters for every bucket that ever had a "
                          "packet, for GetFlowStats (the default): memory grows with the buckets "
                          "seen, and every packet looks its bucket up in a table of them. false: "
                          "all state is per active flow, and GetFlowStats stops the program "
                          "(per-flow counts are then the FlowEnqueue, FlowDequeue and FlowDrop "
                          "traces').",
                          BooleanValue(true),
                          MakeBooleanAccessor(&VerticalDimensioningQueueDisc::m_bucketCounters),
                          MakeBooleanChecker())
            .AddTraceSource("CurrentRound",
                            "The round being served, counted from 0 (the paper's current is it "
                            "modulo M)",
                            MakeTraceSourceAccessor(&VerticalDimensioningQueueDisc::m_currentRound),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("ActiveFlows",
                            "Number of flows with packets queued",
                            MakeTraceSourceAccessor(&VerticalDimensioningQueueDisc::m_activeFlows),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource(
                "Placement",
                "Equation (3) placed a packet: bucket, round, packet",
                MakeTraceSourceAccessor(&VerticalDimensioningQueueDisc::m_placementTrace),
                "ns3::VerticalDimensioningQueueDisc::PlacementTracedCallback")
            .AddTraceSource(
                "FlowEnqueue",
                "A packet of a flow was queued: bucket, packet",
                MakeTraceSourceAccessor(&VerticalDimensioningQueueDisc::m_flowEnqueueTrace),
                "ns3::VerticalDimensioningQueueDisc::FlowItemTracedCallback")
            .AddTraceSource(
                "FlowDequeue",
                "A packet of a flow was sent: bucket, packet",
                MakeTraceSourceAccessor(&VerticalDimensioningQueueDisc::m_flowDequeueTrace),
                "ns3::VerticalDimensioningQueueDisc::FlowItemTracedCallback")
            .AddTraceSource(
                "FlowDrop",
                "A packet of a flow was dropped (on arrival or from the tail of the "
                "last round): bucket, packet",
                MakeTraceSourceAccessor(&VerticalDimensioningQueueDisc::m_flowDropTrace),
                "ns3::VerticalDimensioningQueueDisc::FlowItemTracedCallback")
            .AddTraceSource("Deficit",
                            "A flow's deficit_i after it sent a packet: bucket, bytes (negative: "
                            "what it sent in this round beyond its carried-over deficit)",
                            MakeTraceSourceAccessor(&VerticalDimensioningQueueDisc::m_deficitTrace),
                            "ns3::VerticalDimensioningQueueDisc::DeficitTracedCallback");
    return tid;
}

VerticalDimensioningQueueDisc::VerticalDimensioningQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::MULTIPLE_QUEUES),
      m_maxPacketSizeAttr(0),
      m_roundsAttr(0),
      m_buckets(1U << 24),
      m_mask(FlowIdentifier::FIVE_TUPLE),
      m_perturbation(0),
      m_defaultWeight(1.0),
      m_bucketCounters(true),
      m_returning(VdRounds::FRESH),
      m_lm(0),
      m_m(0),
      m_uniformWeight(0),
      m_currentRound(0),
      m_activeFlows(0)
{
    NS_LOG_FUNCTION(this);
}

VerticalDimensioningQueueDisc::~VerticalDimensioningQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

void
VerticalDimensioningQueueDisc::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_q = nullptr;
    m_flowCounters.Clear();
    QueueDisc::DoDispose();
}

VerticalDimensioningQueueDisc::FlowStats
VerticalDimensioningQueueDisc::GetFlowStats(uint32_t bucket) const
{
    NS_ABORT_MSG_UNLESS(bucket <= m_buckets,
                        "VerticalDimensioningQueueDisc: bucket " << bucket << " out of range [0, "
                                                                 << uint64_t{m_buckets} + 1 << ")");
    NS_ABORT_MSG_UNLESS(m_bucketCounters,
                        "VerticalDimensioningQueueDisc: GetFlowStats needs BucketCounters = true "
                        "(it is false: no per-bucket counters are kept)");
    const DrrScheduler::Counters* counters = m_flowCounters.Find(bucket);
    FlowStats stats;
    if (counters)
    {
        stats.sentPackets = counters->sentPackets;
        stats.sentBytes = counters->sentBytes;
        stats.droppedPackets = counters->droppedPackets;
        stats.droppedBytes = counters->droppedBytes;
    }
    // Every arrival was sent, dropped (on arrival or later), or is still queued.
    stats.enqueuedPackets = stats.sentPackets + stats.droppedPackets + m_vd.GetFlowPackets(bucket);
    stats.enqueuedBytes = stats.sentBytes + stats.droppedBytes + m_vd.GetFlowBytes(bucket);
    return stats;
}

uint32_t
VerticalDimensioningQueueDisc::GetBucket(Ptr<QueueDiscItem> item)
{
    FlowKey key;
    return Classify(item, key);
}

uint32_t
VerticalDimensioningQueueDisc::GetActiveFlows() const
{
    return m_vd.GetActiveFlows();
}

uint64_t
VerticalDimensioningQueueDisc::GetFlowBytes(uint32_t bucket) const
{
    return m_vd.GetFlowBytes(bucket);
}

int64_t
VerticalDimensioningQueueDisc::GetDeficit(uint32_t bucket) const
{
    return m_vd.GetDeficit(bucket);
}

uint64_t
VerticalDimensioningQueueDisc::GetFlowRound(uint32_t bucket) const
{
    return m_vd.GetFlowRound(bucket);
}

uint32_t
VerticalDimensioningQueueDisc::GetQuantum(uint32_t bucket) const
{
    return m_vd.GetQuantum(bucket);
}

uint64_t
VerticalDimensioningQueueDisc::GetCurrentRound() const
{
    return m_vd.GetCurrent();
}

uint32_t
VerticalDimensioningQueueDisc::GetCurrent() const
{
    return m_vd.SlotOf(m_vd.GetCurrent());
}

uint32_t
VerticalDimensioningQueueDisc::GetLast() const
{
    return m_vd.SlotOf(m_vd.GetLast());
}

uint32_t
VerticalDimensioningQueueDisc::GetRounds() const
{
    return m_m;
}

uint32_t
VerticalDimensioningQueueDisc::GetMaxPacketSize() const
{
    return m_lm;
}

uint64_t
VerticalDimensioningQueueDisc::GetActiveFlowStateBytes() const
{
    return m_vd.GetFlowStateBytes();
}

uint64_t
VerticalDimensioningQueueDisc::GetBucketStateBytes() const
{
    return m_flowCounters.GetSlots() * VdFlowTable<DrrScheduler::Counters>::SlotBytes();
}

uint32_t
VerticalDimensioningQueueDisc::GetPeakActiveFlows() const
{
    return static_cast<uint32_t>(m_vd.GetFlowCapacity());
}

uint32_t
VerticalDimensioningQueueDisc::Classify(const Ptr<QueueDiscItem>& item, FlowKey& key)
{
    key = FlowIdentifier::Extract(*item);
    const int32_t filterClass =
        GetNPacketFilters() > 0 ? QueueDisc::Classify(item) : PacketFilter::PF_NO_MATCH;
    return FlowIdentifier::Bucket(key, filterClass, m_buckets, m_mask, m_perturbation);
}

uint32_t
VerticalDimensioningQueueDisc::DeviceMtu() const
{
    if (Ptr<NetDeviceQueueInterface> ndqi = GetNetDeviceQueueInterface())
    {
        if (Ptr<NetDevice> device = ndqi->GetObject<NetDevice>())
        {
            return device->GetMtu();
        }
    }
    return 1500;
}

bool
VerticalDimensioningQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    // Fig. 2 enqueue (1): i = p.flowid. A new flow takes the weight of its first packet's rule
    // (with no rules, every flow has DefaultWeight: no need to ask whether i is new).
    FlowKey key;
    const uint32_t i = Classify(item, key);
    double weight = m_uniformWeight; // every flow's, without rules
    if (weight == 0)
    {
        weight = m_vd.IsActive(i) ? 1.0 : m_weights.WeightOf(key);
    }
    const uint32_t size = item->GetSize();

    // (2)-(14): Equation (3) gives the round; the packet joins its FIFO.
    uint64_t round = 0;
    uint32_t slot = 0;
    switch (m_vd.Enqueue(i, size, weight, &round, &slot))
    {
    case VdRounds::QUEUED:
        break;
    case VdRounds::OVER_LIMIT:
        // It would be the tail of the last non-empty round of an overflowing buffer: (15)-(16)
        // would drop it at once.
        NS_LOG_DEBUG("bucket " << i << " (" << key.ToString() << "): " << size
                               << " B would overflow from the last round; dropped");
        CountDrop(i, size, item);
        DropBeforeEnqueue(item, OVERFLOW_DROP);
        return false;
    case VdRounds::BEYOND_LAST_ROUND:
        NS_LOG_DEBUG("bucket " << i << " (" << key.ToString() << "): " << size
                               << " B would need a round beyond current + " << m_m - 1
                               << "; dropped");
        CountDrop(i, size, item);
        DropBeforeEnqueue(item, BEYOND_LAST_ROUND_DROP);
        return false;
    }
    m_q->Put(slot, item, size);
    m_activeFlows.Set(m_vd.GetActiveFlows());
    if (!m_placementTrace.IsEmpty())
    {
        m_placementTrace(i, round, item);
    }
    if (!m_flowEnqueueTrace.IsEmpty())
    {
        m_flowEnqueueTrace(i, item);
    }
    NS_LOG_DEBUG("bucket " << i << " (" << key.ToString() << "), quantum " << m_vd.GetQuantum(i)
                           << " B: " << size << " B into round " << round << " (q["
                           << m_vd.SlotOf(round) << "]), current " << m_vd.GetCurrent()
                           << ", bytes_i " << m_vd.GetFlowBytes(i) << ", deficit_i "
                           << m_vd.GetDeficit(i));

    // (15)-(16): while the buffer holds more than B, drop().
    while (m_vd.OverLimit())
    {
        DropTail(item, slot);
    }
    return true;
}

void
VerticalDimensioningQueueDisc::DropTail(const Ptr<QueueDiscItem>& arrival, uint32_t arrivalSlot)
{
    const VdRounds::Packet p = m_vd.Drop();
    if (p.slot == arrivalSlot)
    {
        // The arrival itself (placed in an early round, it became the last round's tail):
        // QueueDisc::Enqueue stamps items only after DoEnqueue returns, and the internal queue
        // reports the sojourn time (Now - timestamp) when it gives the packet up; stamp it, or
        // that SojournTime sample would be the absolute time.
        arrival->SetTimeStamp(Simulator::Now());
    }
    Ptr<QueueDiscItem> item = m_q->Take(p.slot, p.size);
    NS_LOG_DEBUG("buffer over " << GetMaxSize() << ": drop the tail of round " << p.round << ", "
                                << p.size << " B of bucket " << p.flow);
    m_activeFlows.Set(m_vd.GetActiveFlows());
    CountDrop(p.flow, p.size, item);
    DropAfterDequeue(item, OVERFLOW_DROP);
}

void
VerticalDimensioningQueueDisc::CountDrop(uint32_t bucket,
                                         uint32_t size,
                                         Ptr<const QueueDiscItem> item)
{
    if (m_bucketCounters)
    {
        DrrScheduler::Counters& counters = m_flowCounters.FindOrInsert(bucket);
        counters.droppedPackets++;
        counters.droppedBytes += size;
    }
    if (!m_flowDropTrace.IsEmpty())
    {
        m_flowDropTrace(bucket, item);
    }
}

Ptr<QueueDiscItem>
VerticalDimensioningQueueDisc::DoDequeue()
{
    if (m_vd.Empty())
    {
        return nullptr;
    }
    // Fig. 2 dequeue: the head of q[current].
    const VdRounds::Packet p = m_vd.Dequeue();
    Ptr<QueueDiscItem> item = m_q->Take(p.slot, p.size);
    m_currentRound.Set(m_vd.GetCurrent());
    m_activeFlows.Set(m_vd.GetActiveFlows());
    if (m_bucketCounters)
    {
        DrrScheduler::Counters& counters = m_flowCounters.FindOrInsert(p.flow);
        counters.sentPackets++;
        counters.sentBytes += p.size;
    }
    if (!m_flowDequeueTrace.IsEmpty())
    {
        m_flowDequeueTrace(p.flow, item);
    }
    if (!m_deficitTrace.IsEmpty())
    {
        m_deficitTrace(p.flow, p.deficit);
    }
    NS_LOG_DEBUG("round " << p.round << ": bucket " << p.flow << " sends " << p.size
                          << " B, deficit_i " << p.deficit << ", current now "
                          << m_vd.GetCurrent());
    return item;
}

bool
VerticalDimensioningQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    // Always-on checks: ns-3 only asserts on CheckConfig's result, and release builds drop that.
    NS_ABORT_MSG_IF(GetNQueueDiscClasses() > 0,
                    "VerticalDimensioningQueueDisc cannot have classes");
    NS_ABORT_MSG_IF(GetNInternalQueues() > 0,
                    "VerticalDimensioningQueueDisc creates its own internal queue; do not add "
                    "internal queues");
    NS_ABORT_MSG_UNLESS(m_buckets >= 1 && m_buckets <= (1U << 24),
                        "VerticalDimensioningQueueDisc: Buckets = "
                            << m_buckets << " is out of range [1, 16777216]");
    NS_ABORT_MSG_UNLESS(std::isfinite(m_defaultWeight) && m_defaultWeight > 0,
                        "VerticalDimensioningQueueDisc: DefaultWeight must be finite and > 0, got "
                            << m_defaultWeight);
    const QueueSize limit = GetMaxSize();
    const bool inBytes = limit.GetUnit() == QueueSizeUnit::BYTES;
    m_lm = m_maxPacketSizeAttr == 0 ? DeviceMtu() : m_maxPacketSizeAttr;
    NS_ABORT_MSG_IF(inBytes && limit.GetValue() < m_lm,
                    "VerticalDimensioningQueueDisc: MaxSize = "
                        << limit << " is smaller than MaxPacketSize (L_M = " << m_lm << " B"
                        << (m_maxPacketSizeAttr == 0 ? ", the device MTU" : "")
                        << "); it must be >= " << m_lm << "B (or >= 1p in packets)");
    m_weights = FlowWeightRules(m_weightRules, "VerticalDimensioningQueueDisc WeightRules");
    m_weights.SetDefaultWeight(m_defaultWeight);
    m_uniformWeight = m_weights.GetN() == 0 ? m_defaultWeight : 0;

    // M: no packet that stays may be placed M or more rounds ahead of current. B in bytes is
    // MaxSize, or n x L_M for n packets (of at most L_M bytes).
    const uint64_t b = inBytes ? limit.GetValue() : uint64_t{limit.GetValue()} * m_lm;
    std::ostringstream buffer;
    buffer << "a buffer of " << b << " B (MaxSize " << limit;
    if (!inBytes)
    {
        buffer << " x MaxPacketSize " << m_lm << " B";
    }
    buffer << ")";
    const double w = std::min(1.0, m_defaultWeight);
    const uint32_t quantum = VdRounds::QuantumOf(w, m_lm);
    const uint64_t minRounds = VdRounds::MinRounds(b, quantum);
    NS_ABORT_MSG_IF(minRounds > MAX_ROUNDS,
                    "VerticalDimensioningQueueDisc: "
                        << buffer.str() << " over a quantum of " << quantum << " B (weight " << w
                        << " x MaxPacketSize " << m_lm << " B) needs " << minRounds
                        << " rounds, more than the maximum " << MAX_ROUNDS
                        << "; raise MaxPacketSize or lower MaxSize");
    if (m_roundsAttr == 0)
    {
        m_m = static_cast<uint32_t>(minRounds);
    }
    else
    {
        NS_ABORT_MSG_IF(m_roundsAttr > MAX_ROUNDS,
                        "VerticalDimensioningQueueDisc: Rounds = "
                            << m_roundsAttr << " is out of range: 0 (automatic) or " << minRounds
                            << " .. " << MAX_ROUNDS);
        NS_ABORT_MSG_IF(m_roundsAttr < minRounds,
                        "VerticalDimensioningQueueDisc: Rounds = "
                            << m_roundsAttr << " could wrap around: with " << buffer.str()
                            << " and a quantum of " << quantum << " B (weight " << w
                            << " x MaxPacketSize " << m_lm << " B) a packet can be placed ceil("
                            << b << " / " << quantum << ") = " << minRounds - 1
                            << " rounds ahead of current; use 0 (automatic) or " << minRounds
                            << " .. " << MAX_ROUNDS);
        m_m = m_roundsAttr;
    }

    // One internal queue holds every packet, found by its VdRounds slot; the buffer (B) is
    // the limit, the queue never refuses a packet itself.
    m_q = CreateObject<SlotQueue>();
    m_q->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, std::numeric_limits<uint32_t>::max()));
    AddInternalQueue(m_q);
    return true;
}

void
VerticalDimensioningQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    const QueueSize limit = GetMaxSize();
    m_vd.Reset(m_m,
               m_lm,
               limit.GetValue(),
               limit.GetUnit() == QueueSizeUnit::BYTES ? VdRounds::BYTES : VdRounds::PACKETS,
               m_returning);
    m_q->Reset();
    m_flowCounters.Clear();
    m_currentRound.Set(0);
    m_activeFlows.Set(0);
    NS_LOG_INFO("VD: M = " << m_m << " rounds, L_M = " << m_lm << " B, B = " << GetMaxSize() << ", "
                           << m_buckets << " buckets, " << m_weights.GetN()
                           << " weight rules, default weight " << m_defaultWeight << ", "
                           << (m_mask == FlowIdentifier::FIVE_TUPLE ? "five-tuple" : "address-pair")
                           << " flows, returning flows "
                           << (m_returning == VdRounds::KEEP ? "keep their round" : "fresh"));
}

} // namespace ns3
