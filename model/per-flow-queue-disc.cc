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

#include <cmath>
#include <limits>

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
PerFlowQueueDisc::AddSharedAttributes(TypeId tid)
{
    return tid
        .AddAttribute("MaxSize",
                      "The shared buffer pool (ns-2 DRR's blimit_), in bytes ('25000B') or "
                      "packets ('100p'). Bytes: at least one MTU (the device's, else 1500 B); "
                      "packets: at least 1. Default: ns-2 DRR's 25000 B.",
                      QueueSizeValue(QueueSize("25000B")),
                      qdisclab::MakeMaxSizeAccessor(),
                      MakeQueueSizeChecker())
        .AddAttribute("Buckets",
                      "Number of per-flow queues flows are hashed into (ns-2 DRR's buckets_), "
                      "1 .. 16777216. Default: ns-2 DRR's 10.",
                      UintegerValue(10),
                      MakeUintegerAccessor(&PerFlowQueueDisc::m_buckets),
                      MakeUintegerChecker<uint32_t>())
        .AddAttribute("Mask",
                      "What identifies a flow (ns-2 DRR's mask_): FiveTuple (addresses, "
                      "ports, protocol; ns-2 mask_ 0, the default) or AddressPair (mask_ 1).",
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
                      MakeUintegerChecker<uint32_t>())
        .AddAttribute(
            "DropFrom",
            "Where buffer stealing drops from the longest flow: Head (ns-2 DRR's, "
            "the default) or Tail.",
            EnumValue(DROP_HEAD),
            QDISC_LAB_ENUM_ACCESSOR(PerFlowQueueDisc::DropFrom, &PerFlowQueueDisc::m_dropFrom),
            MakeEnumChecker(DROP_HEAD, "Head", DROP_TAIL, "Tail"))
        .AddAttribute("WeightRules",
                      "Per-flow weights (they scale a flow's share of the service, see "
                      "Quantum; stealing compares bytes / weight), as rules "
                      "'field=value ... weight=W' separated by ';', first match wins; fields "
                      "src, dst (address or prefix), sport, dport (port or LO-HI), proto, "
                      "dscp. Example: 'dscp=AF11 weight=2; dport=5000 weight=4'. Empty: every "
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
                        "Number of backlogged flows",
                        MakeTraceSourceAccessor(&PerFlowQueueDisc::m_activeFlows),
                        "ns3::TracedValueCallback::Uint32")
        .AddTraceSource("FlowEnqueue",
                        "A packet joined a flow queue: bucket, packet",
                        MakeTraceSourceAccessor(&PerFlowQueueDisc::m_flowEnqueueTrace),
                        "ns3::PerFlowQueueDisc::FlowItemTracedCallback")
        .AddTraceSource("FlowDequeue",
                        "A flow queue sent a packet: bucket, packet",
                        MakeTraceSourceAccessor(&PerFlowQueueDisc::m_flowDequeueTrace),
                        "ns3::PerFlowQueueDisc::FlowItemTracedCallback")
        .AddTraceSource("FlowDrop",
                        "Buffer stealing dropped a packet of a flow: bucket, packet",
                        MakeTraceSourceAccessor(&PerFlowQueueDisc::m_flowDropTrace),
                        "ns3::PerFlowQueueDisc::FlowItemTracedCallback")
        .AddTraceSource("Deficit",
                        "A flow's deficit counter after it sent a packet: bucket, bytes",
                        MakeTraceSourceAccessor(&PerFlowQueueDisc::m_deficitTrace),
                        "ns3::PerFlowQueueDisc::DeficitTracedCallback");
}

PerFlowQueueDisc::PerFlowQueueDisc(const char* name)
    : QueueDisc(QueueDiscSizePolicy::MULTIPLE_QUEUES),
      m_buckets(10),
      m_mask(FlowIdentifier::FIVE_TUPLE),
      m_perturbation(0),
      m_dropFrom(DROP_HEAD),
      m_defaultWeight(1.0),
      m_uniformWeight(0),
      m_activeFlows(0),
      m_name(name)
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
    FlowKey key;
    return Classify(item, key);
}

uint32_t
PerFlowQueueDisc::Classify(const Ptr<QueueDiscItem>& item, FlowKey& key)
{
    key = FlowIdentifier::Extract(*item);
    const int32_t filterClass =
        GetNPacketFilters() > 0 ? QueueDisc::Classify(item) : PacketFilter::PF_NO_MATCH;
    return FlowIdentifier::Bucket(key, filterClass, m_buckets, m_mask, m_perturbation);
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
                        m_name << ": MaxSize = " << limit << " is smaller than one MTU (" << mtu
                               << " B); it must be >= " << mtu << "B (or >= 1p in packets)");
    }
    // MaxSize = 0 never gets here: its accessor (qdisclab::MakeMaxSizeAccessor) refuses it.
    m_weights = FlowWeightRules(m_weightRules, std::string(m_name) + " WeightRules");
    // One internal queue holds every flow's packets; the shared buffer (MaxSize) is the limit.
    m_queues = CreateObject<SlotQueue>();
    m_queues->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, std::numeric_limits<uint32_t>::max()));
    AddInternalQueue(m_queues);
    m_weights.SetDefaultWeight(m_defaultWeight);
    m_uniformWeight = m_weights.GetN() == 0 ? m_defaultWeight : 0;
    return true;
}

void
PerFlowQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    m_queues->Reset();
    m_activeFlows.Set(0);
    NS_LOG_INFO(m_name << ": " << m_buckets << " buckets, buffer " << GetMaxSize() << ", "
                       << m_weights.GetN() << " weight rules, "
                       << (m_mask == FlowIdentifier::FIVE_TUPLE ? "five-tuple" : "address-pair")
                       << " flows, drop from " << (m_dropFrom == DROP_HEAD ? "head" : "tail"));
}

} // namespace ns3
