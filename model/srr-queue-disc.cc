/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "srr-queue-disc.h"

#include "qdisc-lab-compat.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/net-device.h"
#include "ns3/packet-filter.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SrrQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(SrrQueueDisc);

TypeId
SrrQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SrrQueueDisc")
            .SetParent<QueueDisc>()
            .SetGroupName("QdiscLab")
            .AddConstructor<SrrQueueDisc>()
            .AddAttribute("MaxSize",
                          "The shared buffer pool, in bytes ('25000B') or packets ('100p'). Bytes: "
                          "at least one MTU (the device's, else 1500 B); packets: at least 1. "
                          "Default: 25000 B, as DrrQueueDisc (ns-2's DRR).",
                          QueueSizeValue(QueueSize("25000B")),
                          MakeQueueSizeAccessor(&QueueDisc::SetMaxSize, &QueueDisc::GetMaxSize),
                          MakeQueueSizeChecker())
            .AddAttribute("Buckets",
                          "Number of per-flow queues flows are hashed into, 1 .. 16777216. "
                          "Default: 10, as DrrQueueDisc (ns-2's DRR).",
                          UintegerValue(10),
                          MakeUintegerAccessor(&SrrQueueDisc::m_buckets),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Quantum",
                          "Bytes a visit adds to a flow's deficit, >= 1; a flow of weight w is "
                          "visited w times per round. SRR is O(1) when Quantum >= the largest "
                          "packet. Default: the Vertical Dimensioning paper's 1000 B.",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&SrrQueueDisc::m_quantum),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Mask",
                          "What identifies a flow: FiveTuple (addresses, ports, protocol; the "
                          "default) or AddressPair.",
                          EnumValue(FlowIdentifier::FIVE_TUPLE),
                          QDISC_LAB_ENUM_ACCESSOR(FlowIdentifier::Mask, &SrrQueueDisc::m_mask),
                          MakeEnumChecker(FlowIdentifier::FIVE_TUPLE,
                                          "FiveTuple",
                                          FlowIdentifier::ADDRESS_PAIR,
                                          "AddressPair"))
            .AddAttribute("Perturbation",
                          "Hash perturbation, any 32-bit value: another value maps flows to "
                          "buckets differently (and so changes which flows collide).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SrrQueueDisc::m_perturbation),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "DropFrom",
                "Where buffer stealing drops from the longest flow: Head (as ns-2's DRR, "
                "the default) or Tail.",
                EnumValue(DROP_HEAD),
                QDISC_LAB_ENUM_ACCESSOR(SrrQueueDisc::DropFrom, &SrrQueueDisc::m_dropFrom),
                MakeEnumChecker(DROP_HEAD, "Head", DROP_TAIL, "Tail"))
            .AddAttribute("WeightRules",
                          "Per-flow weights, rounded to integers >= 1 for the Weight Matrix "
                          "(stealing compares bytes / weight as given), "
                          "as rules 'field=value ... weight=W' separated by ';', first match "
                          "wins; fields src, dst (address or prefix), sport, dport (port or "
                          "LO-HI), proto, dscp. Example: 'dscp=AF11 weight=2; dport=5000 "
                          "weight=4'. Empty: every flow has DefaultWeight.",
                          StringValue(""),
                          MakeStringAccessor(&SrrQueueDisc::m_weightRules),
                          MakeStringChecker())
            .AddAttribute("DefaultWeight",
                          "Weight of flows no rule matches, finite and > 0 (rounded to an integer "
                          ">= 1 for the Weight Matrix).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&SrrQueueDisc::m_defaultWeight),
                          MakeDoubleChecker<double>())
            .AddTraceSource("ActiveFlows",
                            "Number of backlogged flows (the ActiveList's length)",
                            MakeTraceSourceAccessor(&SrrQueueDisc::m_activeFlows),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("Position",
                            "Position in the Weight Spread Sequence (of order 32) being served",
                            MakeTraceSourceAccessor(&SrrQueueDisc::m_position),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("FlowEnqueue",
                            "A packet joined a flow queue: bucket, packet",
                            MakeTraceSourceAccessor(&SrrQueueDisc::m_flowEnqueueTrace),
                            "ns3::SrrQueueDisc::FlowItemTracedCallback")
            .AddTraceSource("FlowDequeue",
                            "A flow queue sent a packet: bucket, packet",
                            MakeTraceSourceAccessor(&SrrQueueDisc::m_flowDequeueTrace),
                            "ns3::SrrQueueDisc::FlowItemTracedCallback")
            .AddTraceSource("FlowDrop",
                            "Buffer stealing dropped a packet of a flow: bucket, packet",
                            MakeTraceSourceAccessor(&SrrQueueDisc::m_flowDropTrace),
                            "ns3::SrrQueueDisc::FlowItemTracedCallback")
            .AddTraceSource("Deficit",
                            "A flow's deficit counter after it sent a packet: bucket, bytes",
                            MakeTraceSourceAccessor(&SrrQueueDisc::m_deficitTrace),
                            "ns3::SrrQueueDisc::DeficitTracedCallback");
    return tid;
}

SrrQueueDisc::SrrQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::MULTIPLE_QUEUES),
      m_buckets(10),
      m_quantum(1000),
      m_mask(FlowIdentifier::FIVE_TUPLE),
      m_perturbation(0),
      m_dropFrom(DROP_HEAD),
      m_defaultWeight(1.0),
      m_uniformWeight(0),
      m_activeFlows(0),
      m_position(0)
{
    NS_LOG_FUNCTION(this);
}

SrrQueueDisc::~SrrQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

void
SrrQueueDisc::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_queues = nullptr;
    QueueDisc::DoDispose();
}

SrrQueueDisc::FlowStats
SrrQueueDisc::GetFlowStats(uint32_t bucket) const
{
    NS_ABORT_MSG_UNLESS(bucket < m_scheduler.GetFlowCount(),
                        "SrrQueueDisc: bucket " << bucket << " out of range [0, "
                                                << m_scheduler.GetFlowCount() << ")");
    const SrrScheduler::Counters counters = m_scheduler.GetCounters(bucket);
    FlowStats stats;
    stats.sentPackets = counters.sentPackets;
    stats.sentBytes = counters.sentBytes;
    stats.droppedPackets = counters.droppedPackets;
    stats.droppedBytes = counters.droppedBytes;
    // Every packet enqueued was sent, dropped, or is still queued (every arrival is admitted).
    stats.enqueuedPackets =
        counters.sentPackets + counters.droppedPackets + m_scheduler.GetPackets(bucket);
    stats.enqueuedBytes = counters.sentBytes + counters.droppedBytes + m_scheduler.GetBytes(bucket);
    return stats;
}

uint32_t
SrrQueueDisc::GetActiveFlows() const
{
    return m_scheduler.GetActiveFlows();
}

uint64_t
SrrQueueDisc::GetDeficit(uint32_t bucket) const
{
    return m_scheduler.GetDeficit(bucket);
}

uint64_t
SrrQueueDisc::GetFlowBytes(uint32_t bucket) const
{
    return m_scheduler.GetBytes(bucket);
}

uint64_t
SrrQueueDisc::GetActiveFlowStateBytes() const
{
    return m_scheduler.GetHeapBytes();
}

uint64_t
SrrQueueDisc::GetBucketStateBytes() const
{
    return m_scheduler.GetFlowRecordBytes();
}

uint64_t
SrrQueueDisc::GetPosition() const
{
    return m_scheduler.GetPosition();
}

uint32_t
SrrQueueDisc::GetWeight(uint32_t bucket) const
{
    return m_scheduler.GetWeight(bucket);
}

uint32_t
SrrQueueDisc::GetPeakActiveFlows() const
{
    return m_scheduler.GetPeakActiveFlows();
}

uint32_t
SrrQueueDisc::GetBucket(Ptr<QueueDiscItem> item)
{
    FlowKey key;
    return Classify(item, key);
}

uint32_t
SrrQueueDisc::Classify(const Ptr<QueueDiscItem>& item, FlowKey& key)
{
    key = FlowIdentifier::Extract(*item);
    const int32_t filterClass =
        GetNPacketFilters() > 0 ? QueueDisc::Classify(item) : PacketFilter::PF_NO_MATCH;
    return FlowIdentifier::Bucket(key, filterClass, m_buckets, m_mask, m_perturbation);
}

bool
SrrQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    // 1. Find the packet's flow; an idle flow takes the weight of its first packet's rule.
    FlowKey key;
    const uint32_t f = Classify(item, key);
    double weight = m_uniformWeight; // every flow's, without rules
    if (weight == 0)
    {
        weight = m_scheduler.IsBacklogged(f) ? 1.0 : m_weights.WeightOf(key);
    }
    const uint32_t size = item->GetSize();

    // 2. Queue it; an idle flow joins the tail of the ActiveList.
    const uint32_t slot = m_scheduler.Arrive(f, size, weight);
    m_queues->Put(slot, item);
    m_activeFlows.Set(m_scheduler.GetActiveFlows());
    if (!m_flowEnqueueTrace.IsEmpty())
    {
        m_flowEnqueueTrace(f, item);
    }
    NS_LOG_DEBUG("bucket " << f << " (" << key.ToString() << "), weight "
                           << m_scheduler.GetWeight(f) << ": " << m_scheduler.GetPackets(f)
                           << " packets, " << m_scheduler.GetBytes(f) << " B");

    // 3. Buffer stealing: while the shared buffer is over its limit, drop from the longest.
    const QueueSize limit = GetMaxSize();
    const bool inPackets = limit.GetUnit() == QueueSizeUnit::PACKETS;
    const uint32_t maxSize = limit.GetValue();
    while ((inPackets ? GetNPackets() : GetNBytes()) > maxSize)
    {
        StealFromLongest(item, slot);
    }
    return true;
}

void
SrrQueueDisc::StealFromLongest(const Ptr<QueueDiscItem>& arrival, uint32_t arrivalSlot)
{
    const SrrScheduler::Packet p = m_scheduler.Drop(m_dropFrom == DROP_HEAD);
    if (p.slot == arrivalSlot)
    {
        // The arrival itself: QueueDisc::Enqueue stamps items only after DoEnqueue returns,
        // and the internal queue reports the sojourn time (Now - timestamp) when it gives the
        // packet up; stamp it, or that SojournTime sample would be the absolute time. (Only
        // here: Simulator::Now costs ~100 instructions a packet.)
        arrival->SetTimeStamp(Simulator::Now());
    }
    Ptr<QueueDiscItem> item = m_queues->Take(p.slot);
    NS_LOG_DEBUG("buffer full: drop "
                 << p.size << " B from the " << (m_dropFrom == DROP_HEAD ? "head" : "tail")
                 << " of bucket " << p.flow << " (" << m_scheduler.GetBytes(p.flow) << " B left)");
    m_activeFlows.Set(m_scheduler.GetActiveFlows());
    if (!m_flowDropTrace.IsEmpty())
    {
        m_flowDropTrace(p.flow, item);
    }
    DropAfterDequeue(item, OVERLIMIT_DROP);
}

Ptr<QueueDiscItem>
SrrQueueDisc::DoDequeue()
{
    if (m_scheduler.Empty())
    {
        return nullptr;
    }
    // SRR: the flow being visited sends its head packet if it fits its deficit; else the next
    // flow of the column, or of the next Weight Spread Sequence term's, is visited
    // (SrrScheduler::Dequeue).
    const SrrScheduler::Packet p = m_scheduler.Dequeue();
    m_position = m_scheduler.GetPosition();
    Ptr<QueueDiscItem> item = m_queues->Take(p.slot);
    m_activeFlows.Set(m_scheduler.GetActiveFlows());
    if (!m_flowDequeueTrace.IsEmpty())
    {
        m_flowDequeueTrace(p.flow, item);
    }
    if (!m_deficitTrace.IsEmpty())
    {
        m_deficitTrace(p.flow, p.deficit);
    }
    NS_LOG_DEBUG("WSS position " << m_scheduler.GetPosition() << ": bucket " << p.flow << " sends "
                                 << p.size << " B, deficit now " << p.deficit);
    return item;
}

bool
SrrQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    // Always-on checks: ns-3 only asserts on CheckConfig's result, and release builds drop that.
    NS_ABORT_MSG_IF(GetNQueueDiscClasses() > 0, "SrrQueueDisc cannot have classes");
    NS_ABORT_MSG_IF(GetNInternalQueues() > 0,
                    "SrrQueueDisc creates its own internal queue; do not add one");
    NS_ABORT_MSG_UNLESS(m_buckets >= 1 && m_buckets <= (1U << 24),
                        "SrrQueueDisc: Buckets = " << m_buckets
                                                   << " is out of range [1, 16777216]");
    NS_ABORT_MSG_IF(m_quantum == 0, "SrrQueueDisc: Quantum must be >= 1 byte, got 0");
    NS_ABORT_MSG_UNLESS(std::isfinite(m_defaultWeight) && m_defaultWeight > 0,
                        "SrrQueueDisc: DefaultWeight must be finite and > 0, got "
                            << m_defaultWeight);
    const QueueSize limit = GetMaxSize();
    if (limit.GetUnit() == QueueSizeUnit::BYTES)
    {
        uint32_t mtu = 1500;
        if (Ptr<NetDeviceQueueInterface> ndqi = GetNetDeviceQueueInterface())
        {
            if (Ptr<NetDevice> device = ndqi->GetObject<NetDevice>())
            {
                mtu = device->GetMtu();
            }
        }
        NS_ABORT_MSG_IF(limit.GetValue() < mtu,
                        "SrrQueueDisc: MaxSize = " << limit << " is smaller than one MTU (" << mtu
                                                   << " B); it must be >= " << mtu
                                                   << "B (or >= 1p in packets)");
    }
    else
    {
        NS_ABORT_MSG_IF(limit.GetValue() == 0, "SrrQueueDisc: MaxSize must be >= 1p, got 0p");
    }
    m_weights = FlowWeightRules(m_weightRules, "SrrQueueDisc WeightRules");
    // One internal queue holds every flow's packets; the shared buffer (MaxSize) is the limit.
    m_queues = CreateObject<SlotQueue>();
    m_queues->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, std::numeric_limits<uint32_t>::max()));
    AddInternalQueue(m_queues);
    m_weights.SetDefaultWeight(m_defaultWeight);
    m_uniformWeight = m_weights.GetN() == 0 ? m_defaultWeight : 0;
    if (m_quantum < 1500)
    {
        NS_LOG_INFO("Quantum " << m_quantum << " B is below a 1500 B packet: such packets need "
                               << "several visits, and a dequeue may visit several flows");
    }
    return true;
}

void
SrrQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    // Buckets + 1: the last bucket holds non-IP packets.
    m_scheduler.Reset(m_buckets + 1, m_quantum);
    m_queues->Reset();
    m_activeFlows.Set(0);
    m_position = 0;
    NS_LOG_INFO("SRR: " << m_buckets << " buckets, quantum " << m_quantum << " B, buffer "
                        << GetMaxSize() << ", " << m_weights.GetN() << " weight rules, "
                        << (m_mask == FlowIdentifier::FIVE_TUPLE ? "five-tuple" : "address-pair")
                        << " flows, drop from " << (m_dropFrom == DROP_HEAD ? "head" : "tail"));
}

} // namespace ns3
