/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dscp-marker-queue-disc.h"

#include "qdisc-lab-compat.h"
#include "qdisc-lab-config.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv6-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DscpMarkerQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(DscpMarkerQueueDisc);

TypeId
DscpMarkerQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DscpMarkerQueueDisc")
            .SetParent<QueueDisc>()
            .SetGroupName("QdiscLab")
            .AddConstructor<DscpMarkerQueueDisc>()
            .AddAttribute("MaxSize",
                          "Size of the default child, a FifoQueueDisc, in packets ('100p') or "
                          "bytes ('150000B'), > 0; with another child, that child's size. "
                          "Default: 1000p, as ns-3's TbfQueueDisc.",
                          QueueSizeValue(QueueSize("1000p")),
                          qdisclab::MakeMaxSizeAccessor(),
                          MakeQueueSizeChecker())
            .AddAttribute("Profiles",
                          "The traffic profiles, as rules 'field=value ...' separated by ';', "
                          "first match wins: match fields src, dst (address or prefix), sport, "
                          "dport (port or LO-HI), proto, dscp; meter=tb|srtcm|trtcm (default "
                          "tb); cir=RATE and cbs=BYTES (all meters), ebs=BYTES (srtcm), "
                          "pir=RATE and pbs=BYTES (trtcm); af=1..4. Example: 'src=10.1.1.1 "
                          "dport=5000 cir=2Mbps cbs=40000'. See DscpMarkerProfiles.",
                          StringValue(""),
                          MakeStringAccessor(&DscpMarkerQueueDisc::m_profilesText),
                          MakeStringChecker())
            .AddAttribute("AfClass",
                          "AF class (RFC 2597) of the marks, 1..4, unless a profile gives af=: "
                          "green/IN packets get AF<class>1, yellow/OUT AF<class>2, red "
                          "AF<class>3. Default: 1.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&DscpMarkerQueueDisc::m_afClass),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ColorAware",
                          "Colour-aware metering (RFC 2697/2698): packets arriving as AFx2 / "
                          "AFx3 are pre-coloured yellow / red and never promoted. Default: "
                          "false (colour-blind).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DscpMarkerQueueDisc::m_colorAware),
                          MakeBooleanChecker())
            .AddAttribute("MeterScope",
                          "PerFlow: each distinct 5-tuple a profile matches has its own meter "
                          "(the default, the paper's per-flow marker); PerProfile: one meter "
                          "per profile, shared by its flows.",
                          EnumValue(PER_FLOW),
                          QDISC_LAB_ENUM_ACCESSOR(DscpMarkerQueueDisc::MeterScope,
                                                  &DscpMarkerQueueDisc::m_scope),
                          MakeEnumChecker(PER_FLOW, "PerFlow", PER_PROFILE, "PerProfile"))
            .AddAttribute("Unmatched",
                          "DSCP of packets no profile matches: Keep (the default) or "
                          "BestEffort (set to 0).",
                          EnumValue(KEEP_DSCP),
                          QDISC_LAB_ENUM_ACCESSOR(DscpMarkerQueueDisc::UnmatchedAction,
                                                  &DscpMarkerQueueDisc::m_unmatched),
                          MakeEnumChecker(KEEP_DSCP, "Keep", BEST_EFFORT, "BestEffort"))
            .AddTraceSource("DscpMark",
                            "A packet was metered and marked: the packet (with its new DSCP), "
                            "its profile, its colour",
                            MakeTraceSourceAccessor(&DscpMarkerQueueDisc::m_markTrace),
                            "ns3::DscpMarkerQueueDisc::DscpMarkTracedCallback");
    return tid;
}

DscpMarkerQueueDisc::DscpMarkerQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::SINGLE_CHILD_QUEUE_DISC),
      m_afClass(1),
      m_colorAware(false),
      m_scope(PER_FLOW),
      m_unmatched(KEEP_DSCP),
      m_unmatchedPackets(0),
      m_unmatchedBytes(0)
{
    NS_LOG_FUNCTION(this);
}

DscpMarkerQueueDisc::~DscpMarkerQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

void
DscpMarkerQueueDisc::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_shared.clear();
    m_perFlow.clear();
    QueueDisc::DoDispose();
}

uint32_t
DscpMarkerQueueDisc::GetNProfiles() const
{
    return static_cast<uint32_t>(m_profiles.GetN());
}

const DscpMarkerQueueDisc::ProfileStats&
DscpMarkerQueueDisc::GetProfileStats(uint32_t profile) const
{
    NS_ABORT_MSG_UNLESS(profile < m_stats.size(),
                        "DscpMarkerQueueDisc: profile " << profile << " out of range [0, "
                                                        << m_stats.size() << ")");
    return m_stats[profile];
}

uint64_t
DscpMarkerQueueDisc::GetUnmatchedPackets() const
{
    return m_unmatchedPackets;
}

uint64_t
DscpMarkerQueueDisc::GetUnmatchedBytes() const
{
    return m_unmatchedBytes;
}

std::size_t
DscpMarkerQueueDisc::GetNMeters() const
{
    std::size_t shared = 0;
    for (const auto& meter : m_shared)
    {
        shared += meter != nullptr;
    }
    return shared + m_perFlow.size();
}

uint8_t
DscpMarkerQueueDisc::AfDscp(uint8_t afClass, TrafficMeter::Color color)
{
    return static_cast<uint8_t>(8 * afClass + 2 * (color + 1));
}

TrafficMeter::Color
DscpMarkerQueueDisc::PreColor(uint8_t dscp)
{
    const uint8_t afClass = dscp >> 3;
    const uint8_t precedence = (dscp & 0x7) >> 1;
    if (afClass >= 1 && afClass <= 4 && (dscp & 1) == 0 && precedence >= 2)
    {
        return precedence == 2 ? TrafficMeter::YELLOW : TrafficMeter::RED;
    }
    return TrafficMeter::GREEN;
}

bool
DscpMarkerQueueDisc::FlowMeterKey::operator==(const FlowMeterKey& other) const
{
    return profile == other.profile && flow.isIpv6 == other.flow.isIpv6 &&
           flow.src == other.flow.src && flow.dst == other.flow.dst &&
           flow.srcPort == other.flow.srcPort && flow.dstPort == other.flow.dstPort &&
           flow.protocol == other.flow.protocol;
}

std::size_t
DscpMarkerQueueDisc::FlowMeterKeyHash::operator()(const FlowMeterKey& key) const
{
    return FlowIdentifier::Hash(key.flow, FlowIdentifier::FIVE_TUPLE, key.profile);
}

TrafficMeter&
DscpMarkerQueueDisc::MeterOf(uint32_t profile, const FlowKey& key)
{
    std::unique_ptr<TrafficMeter>& meter =
        m_scope == PER_PROFILE ? m_shared[profile] : m_perFlow[FlowMeterKey{profile, key}];
    if (!meter)
    {
        meter = m_profiles.MakeMeter(profile, Simulator::Now());
        NS_LOG_DEBUG("new meter for profile " << profile << " ('" << m_profiles.Get(profile).text
                                              << "'), first packet " << key.ToString());
    }
    return *meter;
}

Ptr<QueueDiscItem>
DscpMarkerQueueDisc::WithDscp(Ptr<QueueDiscItem> item, uint8_t dscp)
{
    // The header waits in the item until the packet is sent and is read-only there: mark a
    // copy of it, in a new item around the same packet (see the class description).
    Ptr<QueueDiscItem> marked;
    if (auto ipv4 = DynamicCast<Ipv4QueueDiscItem>(item))
    {
        if (ipv4->GetHeader().GetDscp() == dscp)
        {
            return item;
        }
        Ipv4Header header = ipv4->GetHeader();
        header.SetDscp(static_cast<Ipv4Header::DscpType>(dscp));
        marked = Create<Ipv4QueueDiscItem>(item->GetPacket(),
                                           item->GetAddress(),
                                           item->GetProtocol(),
                                           header);
    }
    else if (auto ipv6 = DynamicCast<Ipv6QueueDiscItem>(item))
    {
        if (ipv6->GetHeader().GetDscp() == dscp)
        {
            return item;
        }
        Ipv6Header header = ipv6->GetHeader();
        header.SetDscp(static_cast<Ipv6Header::DscpType>(dscp));
        marked = Create<Ipv6QueueDiscItem>(item->GetPacket(),
                                           item->GetAddress(),
                                           item->GetProtocol(),
                                           header);
    }
    else
    {
        return item;
    }
    marked->SetTxQueueIndex(item->GetTxQueueIndex());
    marked->SetTimeStamp(item->GetTimeStamp());
    return marked;
}

bool
DscpMarkerQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    // 1. Classify: first matching profile.
    const FlowKey key = FlowIdentifier::Extract(item);
    const int32_t found = m_profiles.Find(key);
    const uint32_t size = item->GetSize();
    if (found < 0)
    {
        m_unmatchedPackets++;
        m_unmatchedBytes += size;
        if (m_unmatched == BEST_EFFORT && key.isIp)
        {
            item = WithDscp(item, 0);
        }
        NS_LOG_DEBUG("unmatched: " << key.ToString());
        return GetQueueDiscClass(0)->GetQueueDisc()->Enqueue(item);
    }
    const auto profile = static_cast<uint32_t>(found);

    // 2. Meter: the packet's IP size at its arrival time, with its colour on arrival.
    const TrafficMeter::Color arrival = m_colorAware ? PreColor(key.dscp) : TrafficMeter::GREEN;
    const TrafficMeter::Color color = MeterOf(profile, key).Meter(Simulator::Now(), size, arrival);

    // 3. Mark: AF<class><color + 1> in the IP header.
    const uint8_t afClass = m_profiles.Get(profile).afClass ? m_profiles.Get(profile).afClass
                                                            : static_cast<uint8_t>(m_afClass);
    const uint8_t dscp = AfDscp(afClass, color);
    item = WithDscp(item, dscp);
    m_stats[profile].packets[color]++;
    m_stats[profile].bytes[color] += size;
    m_markTrace(item, profile, color);
    NS_LOG_DEBUG("profile " << profile << ": " << key.ToString() << ", " << size << " B "
                            << TrafficMeter::ColorName(color) << " -> DSCP " << unsigned(dscp));

    // 4. Queue it in the child.
    return GetQueueDiscClass(0)->GetQueueDisc()->Enqueue(item);
}

Ptr<QueueDiscItem>
DscpMarkerQueueDisc::DoDequeue()
{
    NS_LOG_FUNCTION(this);
    return GetQueueDiscClass(0)->GetQueueDisc()->Dequeue();
}

Ptr<const QueueDiscItem>
DscpMarkerQueueDisc::DoPeek()
{
    NS_LOG_FUNCTION(this);
    return GetQueueDiscClass(0)->GetQueueDisc()->Peek();
}

bool
DscpMarkerQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    // Always-on checks: ns-3 only asserts on CheckConfig's result, and release builds drop that.
    NS_ABORT_MSG_IF(GetNInternalQueues() > 0,
                    "DscpMarkerQueueDisc has no internal queues; its child queue disc queues");
    NS_ABORT_MSG_IF(GetNPacketFilters() > 0,
                    "DscpMarkerQueueDisc classifies by its Profiles; it takes no packet filters");
    NS_ABORT_MSG_UNLESS(m_afClass >= 1 && m_afClass <= 4,
                        "DscpMarkerQueueDisc: AfClass = " << m_afClass
                                                          << " is out of range [1, 4]");
    m_profiles = DscpMarkerProfiles(m_profilesText, "DscpMarkerQueueDisc Profiles");
    if (GetNQueueDiscClasses() == 0)
    {
        // The default child, as ns-3's TbfQueueDisc: a FIFO of MaxSize.
        ObjectFactory factory("ns3::FifoQueueDisc");
        Ptr<QueueDisc> fifo = factory.Create<QueueDisc>();
        fifo->SetMaxSize(GetMaxSize());
        fifo->Initialize();
        Ptr<QueueDiscClass> c = CreateObject<QueueDiscClass>();
        c->SetQueueDisc(fifo);
        AddQueueDiscClass(c);
    }
    NS_ABORT_MSG_UNLESS(GetNQueueDiscClasses() == 1,
                        "DscpMarkerQueueDisc needs exactly 1 child queue disc, got "
                            << GetNQueueDiscClasses());
    if (m_profiles.GetN() == 0)
    {
        NS_LOG_WARN("DscpMarkerQueueDisc has no Profiles: it marks nothing");
    }
    return true;
}

void
DscpMarkerQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    m_shared.clear();
    m_shared.resize(m_profiles.GetN());
    m_perFlow.clear();
    m_stats.assign(m_profiles.GetN(), ProfileStats{});
    m_unmatchedPackets = 0;
    m_unmatchedBytes = 0;
    NS_LOG_INFO("DSCP marker: " << m_profiles.GetN() << " profiles, AF class " << m_afClass << ", "
                                << (m_colorAware ? "colour-aware" : "colour-blind") << ", meters "
                                << (m_scope == PER_FLOW ? "per flow" : "per profile")
                                << ", unmatched DSCP "
                                << (m_unmatched == KEEP_DSCP ? "kept" : "set to 0"));
}

} // namespace ns3
