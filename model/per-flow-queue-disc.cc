/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "per-flow-queue-disc.h"

#include "qdisc-lab-compat.h"
#include "qdisc-lab-config.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/net-device.h"
#include "ns3/packet-filter.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PerFlowQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(PerFlowQueueDisc);

TypeId
PerFlowQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PerFlowQueueDisc").SetParent<QueueDisc>().SetGroupName("QdiscLab");
    return tid;
}

TypeId
PerFlowQueueDisc::AddCommonAttributes(TypeId tid, const SharedAttributes& shared)
{
    tid.AddAttribute("MaxSize",
                     shared.maxSizeHelp,
                     QueueSizeValue(QueueSize("25000B")),
                     qdisclab::MakeMaxSizeAccessor(),
                     MakeQueueSizeChecker())
        .AddAttribute("Buckets",
                      std::string("Number of buckets flows are hashed into (ns-2 DRR's "
                                  "buckets_), 1 .. 16777216; a bucket is one flow to the "
                                  "scheduler, and flows that collide share it. ") +
                          shared.bucketsHelp,
                      UintegerValue(shared.buckets),
                      MakeUintegerAccessor(&PerFlowQueueDisc::m_buckets),
                      MakeUintegerChecker<uint32_t>())
        .AddAttribute("Mask",
                      "What identifies a flow: FiveTuple (addresses, ports, protocol; the "
                      "default) or AddressPair (source and destination addresses). ns-2's DRR "
                      "identifies a flow by its source node address alone (mask_ 0; mask_ 1 "
                      "first clears the address's low four bits): for its buckets, install "
                      "ns3::Ns2SourceHashPacketFilter.",
                      EnumValue(FlowIdentifier::FIVE_TUPLE),
                      QDISC_LAB_ENUM_ACCESSOR(FlowIdentifier::Mask, &PerFlowQueueDisc::m_mask),
                      MakeEnumChecker(FlowIdentifier::FIVE_TUPLE,
                                      "FiveTuple",
                                      FlowIdentifier::ADDRESS_PAIR,
                                      "AddressPair"))
        .AddAttribute("Perturbation",
                      "Hash perturbation, any 32-bit value: another value maps flows to "
                      "buckets differently (and so changes which flows collide).",
                      UintegerValue(0),
                      MakeUintegerAccessor(&PerFlowQueueDisc::m_perturbation),
                      MakeUintegerChecker<uint32_t>());
    if (shared.dropFrom)
    {
        tid.AddAttribute(
            "DropFrom",
            "Which packet buffer stealing drops while the shared buffer is over MaxSize: Head "
            "(the oldest packet of the longest flow by bytes / weight; ns-2 DRR's, the "
            "default), Tail (its newest), or Last (the packet the scheduler would send last, as "
            "Vertical Dimensioning's drop() does; an arrival that would be that packet is "
            "dropped before enqueue; only schedulers that know it: DrrQueueDisc).",
            EnumValue(DROP_HEAD),
            QDISC_LAB_ENUM_ACCESSOR(PerFlowQueueDisc::DropFrom, &PerFlowQueueDisc::m_dropFrom),
            MakeEnumChecker(DROP_HEAD, "Head", DROP_TAIL, "Tail", DROP_LAST, "Last"));
    }
    const std::string scope = shared.callbackScope;
    return tid
        .AddAttribute("WeightRules",
                      "Per-flow weights (a flow's quantum is its scheduler's quantum x weight; "
                      "buffer stealing from the longest queue compares bytes / weight), as rules "
                      "'field=value ... weight=W' separated by ';', first match wins; fields "
                      "src, dst (address or prefix), sport, dport (port or LO-HI), proto, "
                      "dscp. Example: 'dscp=AF11 weight=2; dport=5000 weight=4'. A flow keeps "
                      "the weight of its first packet while it has packets queued. Empty: every "
                      "flow has DefaultWeight.",
                      StringValue(""),
                      MakeStringAccessor(&PerFlowQueueDisc::m_weightRules),
                      MakeStringChecker())
        .AddAttribute("DefaultWeight",
                      "Weight of flows no rule matches, finite and > 0.",
                      DoubleValue(1.0),
                      MakeDoubleAccessor(&PerFlowQueueDisc::m_defaultWeight),
                      MakeDoubleChecker<double>())
        .AddTraceSource("ActiveFlows",
                        "Number of flows with packets queued",
                        MakeTraceSourceAccessor(&PerFlowQueueDisc::m_activeFlows),
                        "ns3::TracedValueCallback::Uint32")
        .AddTraceSource("FlowEnqueue",
                        "A packet of a flow was queued: bucket, packet",
                        MakeTraceSourceAccessor(&PerFlowQueueDisc::m_flowEnqueueTrace),
                        scope + "::FlowItemTracedCallback")
        .AddTraceSource("FlowDequeue",
                        "A packet of a flow was sent: bucket, packet",
                        MakeTraceSourceAccessor(&PerFlowQueueDisc::m_flowDequeueTrace),
                        scope + "::FlowItemTracedCallback")
        .AddTraceSource("FlowDrop",
                        "The buffer dropped a packet of a flow (stolen, or on arrival): "
                        "bucket, packet",
                        MakeTraceSourceAccessor(&PerFlowQueueDisc::m_flowDropTrace),
                        scope + "::FlowItemTracedCallback")
        .AddTraceSource("SharedBucket",
                        "A flow arrived in a bucket that already held another flow's packets "
                        "(the two are one flow to the scheduler): bucket, the number of "
                        "distinct flows it has held",
                        MakeTraceSourceAccessor(&PerFlowQueueDisc::m_sharedBucketTrace),
                        scope + "::SharedBucketTracedCallback");
}

PerFlowQueueDisc::PerFlowQueueDisc(const char* name, bool dropsLongest, bool dropsLast)
    : QueueDisc(QueueDiscSizePolicy::MULTIPLE_QUEUES),
      m_buckets(10),
      m_mask(FlowIdentifier::FIVE_TUPLE),
      m_perturbation(0),
      m_dropFrom(dropsLongest ? DROP_HEAD : DROP_LAST),
      m_defaultWeight(1.0),
      m_uniformWeight(0),
      m_activeFlows(0),
      m_overlimitReason(OVERLIMIT_DROP),
      m_limit{m_limitSize.GetUnit() == QueueSizeUnit::PACKETS, m_limitSize.GetValue()},
      m_name(name),
      m_dropsLongest(dropsLongest),
      m_dropsLast(dropsLast)
{
    NS_LOG_FUNCTION(this << name);
}

PerFlowQueueDisc::~PerFlowQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

void
PerFlowQueueDisc::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_queues = nullptr;
    QueueDisc::DoDispose();
}

uint32_t
PerFlowQueueDisc::GetBucket(Ptr<QueueDiscItem> item)
{
    return Classify(item, FlowIdentifier::Extract(*item));
}

uint32_t
PerFlowQueueDisc::GetSharedBuckets() const
{
    return m_sharedBuckets;
}

uint32_t
PerFlowQueueDisc::GetUsedBuckets() const
{
    // A bucket's owner has a weight (> 0) from its first packet on.
    return static_cast<uint32_t>(std::count_if(m_owners.begin(),
                                               m_owners.end(),
                                               [](const BucketOwner& o) { return o.weight != 0; }));
}

uint32_t
PerFlowQueueDisc::GetFlowsInSharedBuckets() const
{
    return static_cast<uint32_t>(m_sharers.Size());
}

void
PerFlowQueueDisc::FindKeyClassifier()
{
    m_keyClassifier = dynamic_cast<const FlowKeyClassifier*>(PeekPointer(GetPacketFilter(0)));
    m_keyClassifierChecked = true;
    NS_LOG_LOGIC("packet filter 0 "
                 << (m_keyClassifier != nullptr ? "classifies" : "does not classify")
                 << " by flow key");
}

void
PerFlowQueueDisc::NoteOtherFlow(uint32_t bucket, uint32_t flow, const FlowKey& key)
{
    BucketOwner& owner = m_owners[bucket];
    const double weight = m_uniformWeight != 0 ? m_uniformWeight : m_weights.WeightOf(key);
    if (owner.weight == 0)
    {
        owner = BucketOwner{flow, static_cast<float>(weight), 1};
        return;
    }
    if (owner.flows == 1)
    {
        ++m_sharedBuckets;
        m_sharers.Insert(bucket, owner.flow);
    }
    if (!m_sharers.Insert(bucket, flow))
    {
        return; // a flow already counted
    }
    ++owner.flows;
    NS_LOG_DEBUG("bucket " << bucket << " holds another flow, " << key.ToString() << " ("
                           << owner.flows << " so far)");
    m_sharedBucketTrace(bucket, owner.flows);
    if (!m_warnedWeights && static_cast<float>(weight) != owner.weight)
    {
        m_warnedWeights = true;
        std::cerr << "warning: " << m_name << ": flows of different weights share bucket " << bucket
                  << " of " << m_buckets << " (weights " << owner.weight << " and " << weight
                  << ", the latter " << key.ToString()
                  << "): the scheduler sees one flow and gives them one share. Set Buckets "
                     "well above the number of flows, or install ns3::FlowIndexPacketFilter "
                     "for a bucket per flow. (Warned once; GetSharedBuckets() and the "
                     "SharedBucket trace count every such bucket.)"
                  << std::endl;
    }
}

bool
PerFlowQueueDisc::PairSet::Insert(uint32_t bucket, uint32_t flow)
{
    if (2 * (m_size + 1) > m_slots.size())
    {
        Grow();
    }
    const uint64_t key = (uint64_t{bucket} << 32) | flow;
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = Home(key);; i = (i + 1) & mask)
    {
        if (m_slots[i] == key)
        {
            return false;
        }
        if (m_slots[i] == EMPTY)
        {
            m_slots[i] = key;
            ++m_size;
            return true;
        }
    }
}

void
PerFlowQueueDisc::PairSet::Clear()
{
    m_slots.clear();
    m_size = 0;
    m_shift = 64;
}

void
PerFlowQueueDisc::PairSet::Grow()
{
    const std::vector<uint64_t> old = std::move(m_slots);
    const std::size_t slots = old.empty() ? 16 : 2 * old.size();
    m_slots.assign(slots, EMPTY);
    m_shift = 64 - __builtin_ctzll(slots);
    const std::size_t mask = slots - 1;
    for (const uint64_t key : old)
    {
        if (key != EMPTY)
        {
            std::size_t i = Home(key);
            while (m_slots[i] != EMPTY)
            {
                i = (i + 1) & mask;
            }
            m_slots[i] = key;
        }
    }
}

bool
PerFlowQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    // Always-on checks: ns-3 only asserts on CheckConfig's result, and release builds drop that.
    NS_ABORT_MSG_IF(GetNQueueDiscClasses() > 0, m_name << " cannot have classes");
    NS_ABORT_MSG_IF(GetNInternalQueues() > 0,
                    m_name << " creates its own internal queue; do not add one");
    NS_ABORT_MSG_UNLESS(m_buckets >= 1 && m_buckets <= (1U << 24),
                        m_name << ": Buckets = " << m_buckets << " is out of range [1, 16777216]");
    NS_ABORT_MSG_UNLESS(std::isfinite(m_defaultWeight) && m_defaultWeight > 0,
                        m_name << ": DefaultWeight must be finite and > 0, got "
                               << m_defaultWeight);
    const QueueSize limit = GetMaxSize();
    std::string what;
    const uint32_t smallest = GetSmallestBuffer(what);
    NS_ABORT_MSG_IF(limit.GetUnit() == QueueSizeUnit::BYTES && limit.GetValue() < smallest,
                    m_name << ": MaxSize = " << limit << " is smaller than " << what
                           << "; it must be >= " << smallest << "B (or >= 1p in packets)");
    // MaxSize = 0 never gets here: its accessor (qdisclab::MakeMaxSizeAccessor) refuses it.
    NS_ABORT_MSG_IF(m_dropFrom == DROP_LAST && !m_dropsLast,
                    m_name << ": DropFrom = Last needs a scheduler that knows which packet it "
                              "would send last (DrrQueueDisc's); use Head or Tail");
    NS_ABORT_MSG_IF(m_dropFrom != DROP_LAST && !m_dropsLongest,
                    m_name << ": its scheduler drops only the packet it would send last");
    m_weights = FlowWeightRules(m_weightRules, std::string(m_name) + " WeightRules");
    // One internal queue holds every flow's packets; the shared buffer (MaxSize) is the limit.
    m_queues = CreateObject<SlotQueue>();
    m_queues->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, std::numeric_limits<uint32_t>::max()));
    AddInternalQueue(m_queues);
    m_weights.SetDefaultWeight(m_defaultWeight);
    m_uniformWeight = m_weights.GetN() == 0 ? m_defaultWeight : 0;
    return true;
}

uint32_t
PerFlowQueueDisc::GetSmallestBuffer(std::string& what) const
{
    const uint32_t mtu = GetDeviceMtu();
    what = "one MTU (" + std::to_string(mtu) + " B)";
    return mtu;
}

uint32_t
PerFlowQueueDisc::GetDeviceMtu() const
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

void
PerFlowQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    m_queues->Reset();
    m_activeFlows.Set(0);
    m_owners.assign(m_buckets, BucketOwner{});
    m_sharers.Clear();
    m_sharedBuckets = 0;
    m_warnedWeights = false;
    NS_LOG_INFO(
        m_name << ": " << m_buckets << " buckets, buffer " << GetMaxSize() << ", "
               << m_weights.GetN() << " weight rules, "
               << (m_mask == FlowIdentifier::FIVE_TUPLE ? "five-tuple" : "address-pair")
               << " flows, drop from "
               << (m_dropFrom == DROP_HEAD ? "head" : (m_dropFrom == DROP_TAIL ? "tail" : "last")));
}

} // namespace ns3
