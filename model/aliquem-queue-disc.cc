/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "aliquem-queue-disc.h"

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

NS_LOG_COMPONENT_DEFINE("AliquemQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(AliquemQueueDisc);

TypeId
AliquemQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AliquemQueueDisc")
            .SetParent<QueueDisc>()
            .SetGroupName("QdiscLab")
            .AddConstructor<AliquemQueueDisc>()
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
                          MakeUintegerAccessor(&AliquemQueueDisc::m_buckets),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Quantum",
                          "Bytes a flow of weight 1 may send per round before scaling, >= 1: its "
                          "quantum phi is Quantum x weight / ScalingFactor. Aliquem is O(1) when "
                          "phi >= the largest packet / ScalingFactor. Default: the Vertical "
                          "Dimensioning paper's 1000 B.",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&AliquemQueueDisc::m_quantum),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ScalingFactor",
                          "q, 1 .. 1024: quanta are scaled down by q and there are q + 1 active "
                          "lists; 1 is DRR. Default: the Vertical Dimensioning paper's 5.",
                          UintegerValue(5),
                          MakeUintegerAccessor(&AliquemQueueDisc::m_scalingFactor),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Mask",
                          "What identifies a flow: FiveTuple (addresses, ports, protocol; the "
                          "default) or AddressPair.",
                          EnumValue(FlowIdentifier::FIVE_TUPLE),
                          QDISC_LAB_ENUM_ACCESSOR(FlowIdentifier::Mask, &AliquemQueueDisc::m_mask),
                          MakeEnumChecker(FlowIdentifier::FIVE_TUPLE,
                                          "FiveTuple",
                                          FlowIdentifier::ADDRESS_PAIR,
                                          "AddressPair"))
            .AddAttribute("Perturbation",
                          "Hash perturbation, any 32-bit value: another value maps flows to "
                          "buckets differently (and so changes which flows collide).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&AliquemQueueDisc::m_perturbation),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "DropFrom",
                "Where buffer stealing drops from the longest flow: Head (as ns-2's DRR, "
                "the default) or Tail.",
                EnumValue(DROP_HEAD),
                QDISC_LAB_ENUM_ACCESSOR(AliquemQueueDisc::DropFrom, &AliquemQueueDisc::m_dropFrom),
                MakeEnumChecker(DROP_HEAD, "Head", DROP_TAIL, "Tail"))
            .AddAttribute("WeightRules",
                          "Per-flow weights (phi = Quantum x weight / ScalingFactor; stealing "
                          "compares bytes / weight), "
                          "as rules 'field=value ... weight=W' separated by ';', first match "
                          "wins; fields src, dst (address or prefix), sport, dport (port or "
                          "LO-HI), proto, dscp. Example: 'dscp=AF11 weight=2; dport=5000 "
                          "weight=4'. Empty: every flow has DefaultWeight.",
                          StringValue(""),
                          MakeStringAccessor(&AliquemQueueDisc::m_weightRules),
                          MakeStringChecker())
            .AddAttribute("DefaultWeight",
                          "Weight of flows no rule matches, finite and > 0.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&AliquemQueueDisc::m_defaultWeight),
                          MakeDoubleChecker<double>())
            .AddTraceSource("ActiveFlows",
                            "Number of backlogged flows (the ActiveList's length)",
                            MakeTraceSourceAccessor(&AliquemQueueDisc::m_activeFlows),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("Round",
                            "Number of rounds completed (the current active list's round)",
                            MakeTraceSourceAccessor(&AliquemQueueDisc::m_round),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("FlowEnqueue",
                            "A packet joined a flow queue: bucket, packet",
                            MakeTraceSourceAccessor(&AliquemQueueDisc::m_flowEnqueueTrace),
                            "ns3::AliquemQueueDisc::FlowItemTracedCallback")
            .AddTraceSource("FlowDequeue",
                            "A flow queue sent a packet: bucket, packet",
                            MakeTraceSourceAccessor(&AliquemQueueDisc::m_flowDequeueTrace),
                            "ns3::AliquemQueueDisc::FlowItemTracedCallback")
            .AddTraceSource("FlowDrop",
                            "Buffer stealing dropped a packet of a flow: bucket, packet",
                            MakeTraceSourceAccessor(&AliquemQueueDisc::m_flowDropTrace),
                            "ns3::AliquemQueueDisc::FlowItemTracedCallback")
            .AddTraceSource("Deficit",
                            "A flow's deficit counter after it sent a packet: bucket, bytes",
                            MakeTraceSourceAccessor(&AliquemQueueDisc::m_deficitTrace),
                            "ns3::AliquemQueueDisc::DeficitTracedCallback");
    return tid;
}

AliquemQueueDisc::AliquemQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::MULTIPLE_QUEUES),
      m_buckets(10),
      m_quantum(1000),
      m_scalingFactor(5),
      m_mask(FlowIdentifier::FIVE_TUPLE),
      m_perturbation(0),
      m_dropFrom(DROP_HEAD),
      m_defaultWeight(1.0),
      m_uniformWeight(0),
      m_activeFlows(0),
      m_round(0)
{
    NS_LOG_FUNCTION(this);
}

AliquemQueueDisc::~AliquemQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

void
AliquemQueueDisc::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_queues = nullptr;
    QueueDisc::DoDispose();
}

AliquemQueueDisc::FlowStats
AliquemQueueDisc::GetFlowStats(uint32_t bucket) const
{
    NS_ABORT_MSG_UNLESS(bucket < m_scheduler.GetFlowCount(),
                        "AliquemQueueDisc: bucket " << bucket << " out of range [0, "
                                                    << m_scheduler.GetFlowCount() << ")");
    const AliquemScheduler::Counters counters = m_scheduler.GetCounters(bucket);
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
AliquemQueueDisc::GetActiveFlows() const
{
    return m_scheduler.GetActiveFlows();
}

uint64_t
AliquemQueueDisc::GetDeficit(uint32_t bucket) const
{
    return m_scheduler.GetDeficit(bucket);
}

uint64_t
AliquemQueueDisc::GetFlowBytes(uint32_t bucket) const
{
    return m_scheduler.GetBytes(bucket);
}

uint64_t
AliquemQueueDisc::GetActiveFlowStateBytes() const
{
    return m_scheduler.GetHeapBytes();
}

uint64_t
AliquemQueueDisc::GetBucketStateBytes() const
{
    return m_scheduler.GetFlowRecordBytes();
}

uint64_t
AliquemQueueDisc::GetRound() const
{
    return m_scheduler.GetRound();
}

uint32_t
AliquemQueueDisc::GetRoundsAhead(uint32_t bucket) const
{
    return m_scheduler.GetRoundsAhead(bucket);
}

uint64_t
AliquemQueueDisc::GetCutSchedules() const
{
    return m_scheduler.GetCutSchedules();
}

uint32_t
AliquemQueueDisc::GetPeakActiveFlows() const
{
    return m_scheduler.GetPeakActiveFlows();
}

uint32_t
AliquemQueueDisc::GetBucket(Ptr<QueueDiscItem> item)
{
    FlowKey key;
    return Classify(item, key);
}

uint32_t
AliquemQueueDisc::Classify(const Ptr<QueueDiscItem>& item, FlowKey& key)
{
    key = FlowIdentifier::Extract(*item);
    const int32_t filterClass =
        GetNPacketFilters() > 0 ? QueueDisc::Classify(item) : PacketFilter::PF_NO_MATCH;
    return FlowIdentifier::Bucket(key, filterClass, m_buckets, m_mask, m_perturbation);
}

bool
AliquemQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
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
                           << m_scheduler.GetQuantum(f) * double(m_scalingFactor) / m_quantum
                           << ": " << m_scheduler.GetPackets(f) << " packets, "
                           << m_scheduler.GetBytes(f) << " B");

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
AliquemQueueDisc::StealFromLongest(const Ptr<QueueDiscItem>& arrival, uint32_t arrivalSlot)
{
    const AliquemScheduler::Packet p = m_scheduler.Drop(m_dropFrom == DROP_HEAD);
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
AliquemQueueDisc::DoDequeue()
{
    if (m_scheduler.Empty())
    {
        return nullptr;
    }
    // Aliquem: the head flow of the current round's list sends its head packet if it fits its
    // deficit; else it moves to the list of the round in which it will (AliquemScheduler).
    const AliquemScheduler::Packet p = m_scheduler.Dequeue();
    m_round = m_scheduler.GetRound();
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
    NS_LOG_DEBUG("round " << m_scheduler.GetRound() << ": bucket " << p.flow << " sends " << p.size
                          << " B, deficit now " << p.deficit);
    return item;
}

bool
AliquemQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    // Always-on checks: ns-3 only asserts on CheckConfig's result, and release builds drop that.
    NS_ABORT_MSG_IF(GetNQueueDiscClasses() > 0, "AliquemQueueDisc cannot have classes");
    NS_ABORT_MSG_IF(GetNInternalQueues() > 0,
                    "AliquemQueueDisc creates its own internal queue; do not add one");
    NS_ABORT_MSG_UNLESS(m_buckets >= 1 && m_buckets <= (1U << 24),
                        "AliquemQueueDisc: Buckets = " << m_buckets
                                                       << " is out of range [1, 16777216]");
    NS_ABORT_MSG_IF(m_quantum == 0, "AliquemQueueDisc: Quantum must be >= 1 byte, got 0");
    NS_ABORT_MSG_UNLESS(m_scalingFactor >= 1 && m_scalingFactor <= 1024,
                        "AliquemQueueDisc: ScalingFactor = " << m_scalingFactor
                                                             << " is out of range [1, 1024]");
    NS_ABORT_MSG_UNLESS(std::isfinite(m_defaultWeight) && m_defaultWeight > 0,
                        "AliquemQueueDisc: DefaultWeight must be finite and > 0, got "
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
                        "AliquemQueueDisc: MaxSize = " << limit << " is smaller than one MTU ("
                                                       << mtu << " B); it must be >= " << mtu
                                                       << "B (or >= 1p in packets)");
    }
    else
    {
        NS_ABORT_MSG_IF(limit.GetValue() == 0, "AliquemQueueDisc: MaxSize must be >= 1p, got 0p");
    }
    m_weights = FlowWeightRules(m_weightRules, "AliquemQueueDisc WeightRules");
    // One internal queue holds every flow's packets; the shared buffer (MaxSize) is the limit.
    m_queues = CreateObject<SlotQueue>();
    m_queues->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, std::numeric_limits<uint32_t>::max()));
    AddInternalQueue(m_queues);
    m_weights.SetDefaultWeight(m_defaultWeight);
    m_uniformWeight = m_weights.GetN() == 0 ? m_defaultWeight : 0;
    if (m_quantum < 1500)
    {
        NS_LOG_INFO("Quantum / ScalingFactor = " << m_quantum / double(m_scalingFactor)
                                                 << " B: a weight-1 flow needs more than "
                                                 << m_scalingFactor << " rounds for a packet above "
                                                 << m_quantum << " B, and is then visited again");
    }
    return true;
}

void
AliquemQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    // Buckets + 1: the last bucket holds non-IP packets.
    m_scheduler.Reset(m_buckets + 1, m_quantum, m_scalingFactor);
    m_queues->Reset();
    m_activeFlows.Set(0);
    m_round = 0;
    NS_LOG_INFO(
        "Aliquem: " << m_buckets << " buckets, quantum " << m_quantum
                    << " B / q = " << m_scalingFactor << ", buffer " << GetMaxSize() << ", "
                    << m_weights.GetN() << " weight rules, "
                    << (m_mask == FlowIdentifier::FIVE_TUPLE ? "five-tuple" : "address-pair")
                    << " flows, drop from " << (m_dropFrom == DROP_HEAD ? "head" : "tail"));
}

} // namespace ns3
