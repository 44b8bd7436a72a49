/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rio-queue-disc.h"

#include "flow-weight-rules.h"
#include "qdisc-lab-compat.h"
#include "qdisc-lab-config.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RioQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(RioQueueDisc);

namespace
{

/**
 * \param ticks a span of ns-3 time steps
 * \return it in seconds, converted as ns-3 converts a Time (so idle periods decay the averages
 *         exactly as in RedQueueDisc)
 */
double
TimeStepsToSeconds(int64_t ticks)
{
    return Time(ticks).GetSeconds();
}

} // namespace

TypeId
RioQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RioQueueDisc")
            .SetParent<QueueDisc>()
            .SetGroupName("QdiscLab")
            .AddConstructor<RioQueueDisc>()
            .AddAttribute("MaxSize",
                          "The queue's limit, in packets ('200p') or bytes ('300000B'); its "
                          "unit sets packet or byte mode (thresholds in the same unit). "
                          "Default: the paper's 200 packets (Fig. 2).",
                          QueueSizeValue(QueueSize("200p")),
                          qdisclab::MakeMaxSizeAccessor(),
                          MakeQueueSizeChecker())
            .AddAttribute("Precedences",
                          "Number of drop precedences: 2 (IN and OUT, the paper's RIO, the "
                          "default) or 3 (AFx1, AFx2, AFx3, as ns-2's dsRED and Linux GRED).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&RioQueueDisc::m_precedences),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "Averaging",
                "What each precedence's average follows: Coupled (RIO-C: the packets of its "
                "own and lower precedences, the paper's avg_in and avg_total; the default), "
                "Decoupled (RIO-D: its own packets) or Wred (the whole queue).",
                EnumValue(COUPLED),
                QDISC_LAB_ENUM_ACCESSOR(RioQueueDisc::Averaging, &RioQueueDisc::m_averaging),
                MakeEnumChecker(COUPLED, "Coupled", DECOUPLED, "Decoupled", WRED, "Wred"))
            .AddAttribute(
                "Ns2Averaging",
                "Average as ns-2.35's rio.cc does: the averages (avg_in, avg_total) are "
                "updated on IN arrivals only, not on OUT ones (Clark and Fang's RIO, the "
                "default false, updates both on every arrival; older ns-2 versions of rio.cc "
                "do too). For comparisons with ns-2.35 runs; needs Precedences 2 and Coupled "
                "averaging.",
                BooleanValue(false),
                MakeBooleanAccessor(&RioQueueDisc::m_ns2Averaging),
                MakeBooleanChecker())
            .AddAttribute("InDscps",
                          "DSCPs of precedence 1 (IN), separated by spaces or commas: BE, "
                          "CS0..CS7, AF11..AF43, EF or 0..63. Default: AFx1.",
                          StringValue("AF11 AF21 AF31 AF41"),
                          MakeStringAccessor(&RioQueueDisc::m_inDscps),
                          MakeStringChecker())
            .AddAttribute("MidDscps",
                          "DSCPs of precedence 2 with Precedences = 3 (ignored with 2, where "
                          "they are OUT). Default: AFx2. Any DSCP in neither list has the "
                          "last precedence (OUT; AFx3), as do packets that are not IP.",
                          StringValue("AF12 AF22 AF32 AF42"),
                          MakeStringAccessor(&RioQueueDisc::m_midDscps),
                          MakeStringChecker())
            .AddAttribute("InMinTh",
                          "min_in: IN packets are dropped early from this average avg_in, in "
                          "packets (bytes in byte mode), >= 0. Default: the paper's 60 (Fig. 2).",
                          DoubleValue(60),
                          MakeDoubleAccessor(&RioQueueDisc::m_inMinTh),
                          MakeDoubleChecker<double>())
            .AddAttribute("InMaxTh",
                          "max_in: every IN packet is dropped from this avg_in (twice it with "
                          "Gentle), > InMinTh. Default: the paper's 180.",
                          DoubleValue(180),
                          MakeDoubleAccessor(&RioQueueDisc::m_inMaxTh),
                          MakeDoubleChecker<double>())
            .AddAttribute("InMaxP",
                          "P_max_in: IN drop probability p_b at InMaxTh, in (0, 1]. Default: "
                          "the paper's 0.02.",
                          DoubleValue(0.02),
                          MakeDoubleAccessor(&RioQueueDisc::m_inMaxP),
                          MakeDoubleChecker<double>())
            .AddAttribute("MidMinTh",
                          "Minimum threshold of precedence 2 with Precedences = 3, >= 0. "
                          "Default: 45, between the IN and IN+OUT defaults.",
                          DoubleValue(45),
                          MakeDoubleAccessor(&RioQueueDisc::m_midMinTh),
                          MakeDoubleChecker<double>())
            .AddAttribute("MidMaxTh",
                          "Maximum threshold of precedence 2 with Precedences = 3, > "
                          "MidMinTh. Default: 135.",
                          DoubleValue(135),
                          MakeDoubleAccessor(&RioQueueDisc::m_midMaxTh),
                          MakeDoubleChecker<double>())
            .AddAttribute("MidMaxP",
                          "Drop probability at MidMaxTh of precedence 2 with Precedences = 3, "
                          "in (0, 1]. Default: 0.035.",
                          DoubleValue(0.035),
                          MakeDoubleAccessor(&RioQueueDisc::m_midMaxP),
                          MakeDoubleChecker<double>())
            .AddAttribute("TotalMinTh",
                          "min_total: OUT packets (the last precedence) are dropped early from "
                          "this average avg_total, >= 0. Default: the paper's 30 (Fig. 2).",
                          DoubleValue(30),
                          MakeDoubleAccessor(&RioQueueDisc::m_totalMinTh),
                          MakeDoubleChecker<double>())
            .AddAttribute("TotalMaxTh",
                          "max_total: every OUT packet is dropped from this avg_total (twice "
                          "it with Gentle), > TotalMinTh. Default: the paper's 90.",
                          DoubleValue(90),
                          MakeDoubleAccessor(&RioQueueDisc::m_totalMaxTh),
                          MakeDoubleChecker<double>())
            .AddAttribute("TotalMaxP",
                          "P_max_total: OUT drop probability p_b at TotalMaxTh, in (0, 1]. "
                          "Default: the paper's 0.05.",
                          DoubleValue(0.05),
                          MakeDoubleAccessor(&RioQueueDisc::m_totalMaxP),
                          MakeDoubleChecker<double>())
            .AddAttribute("QueueWeight",
                          "w_q, the weight of every average's EWMA, in (0, 1]. Default: "
                          "ns-2's 0.002.",
                          DoubleValue(0.002),
                          MakeDoubleAccessor(&RioQueueDisc::m_qW),
                          MakeDoubleChecker<double>())
            .AddAttribute("Wait",
                          "RED's Wait: at least 1/p_b packets between early drops of a "
                          "precedence (ns-2 wait_, the default) instead of at least one.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RioQueueDisc::m_wait),
                          MakeBooleanChecker())
            .AddAttribute("Gentle",
                          "RED's Gentle: between max and twice max the drop probability rises "
                          "from max_p to 1 instead of every packet being dropped. Default off, "
                          "as Fig. 1 drops every packet above max.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RioQueueDisc::m_gentle),
                          MakeBooleanChecker())
            .AddAttribute("UseEcn",
                          "Mark ECN-capable packets instead of dropping them early (others are "
                          "dropped). Default off.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RioQueueDisc::m_useEcn),
                          MakeBooleanChecker())
            .AddAttribute("UseHardDrop",
                          "With UseEcn, still drop every packet above the maximum threshold "
                          "(twice it with Gentle) rather than mark it. Default on, as "
                          "RedQueueDisc.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RioQueueDisc::m_useHardDrop),
                          MakeBooleanChecker())
            .AddAttribute("MeanPktSize",
                          "Mean packet size in bytes, >= 1: the packet time of the idle-time "
                          "decay, and RED's count unit in byte mode. Default: ns-2's 500.",
                          UintegerValue(500),
                          MakeUintegerAccessor(&RioQueueDisc::m_meanPktSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("LinkBandwidth",
                          "Rate of the link the queue feeds, > 0: an idle period of t seconds "
                          "decays the averages as t x LinkBandwidth / (8 MeanPktSize) arrivals "
                          "to an empty queue would. Default: the paper's 20 Mbit/s.",
                          DataRateValue(DataRate("20Mbps")),
                          MakeDataRateAccessor(&RioQueueDisc::m_linkBandwidth),
                          MakeDataRateChecker())
            .AddTraceSource("AvgIn",
                            "avg_in: the average precedence 1 (IN) is judged on, after each "
                            "arrival (packets or bytes)",
                            MakeTraceSourceAccessor(&RioQueueDisc::m_avgIn),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("AvgMid",
                            "The average precedence 2 is judged on with Precedences = 3",
                            MakeTraceSourceAccessor(&RioQueueDisc::m_avgMid),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("AvgTotal",
                            "avg_total: the average the last precedence (OUT) is judged on "
                            "(the whole queue's when coupled)",
                            MakeTraceSourceAccessor(&RioQueueDisc::m_avgTotal),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("AvgOut",
                            "avg_out = avg_total - avg_in, the average OUT backlog "
                            "(Precedences = 2, Averaging = Coupled; 0 otherwise)",
                            MakeTraceSourceAccessor(&RioQueueDisc::m_avgOut),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

RioQueueDisc::RioQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::SINGLE_INTERNAL_QUEUE),
      m_avgIn(0),
      m_avgMid(0),
      m_avgTotal(0),
      m_avgOut(0),
      m_precedences(2),
      m_averaging(COUPLED),
      m_inMinTh(60),
      m_inMaxTh(180),
      m_inMaxP(0.02),
      m_midMinTh(45),
      m_midMaxTh(135),
      m_midMaxP(0.035),
      m_totalMinTh(30),
      m_totalMaxTh(90),
      m_totalMaxP(0.05),
      m_qW(0.002),
      m_ns2Averaging(false),
      m_wait(true),
      m_gentle(false),
      m_useEcn(false),
      m_useHardDrop(true),
      m_meanPktSize(500),
      m_linkBandwidth("20Mbps"),
      m_uv(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

RioQueueDisc::~RioQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

void
RioQueueDisc::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_uv = nullptr;
    QueueDisc::DoDispose();
}

int64_t
RioQueueDisc::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_uv->SetStream(stream);
    return 1;
}

uint32_t
RioQueueDisc::GetPrecedences() const
{
    return m_precedences;
}

RioQueueDisc::Averaging
RioQueueDisc::GetAveraging() const
{
    return m_averaging;
}

uint32_t
RioQueueDisc::Classify(Ptr<const QueueDiscItem> item, bool& isIp) const
{
    uint8_t ds = 0;
    isIp = item->GetUint8Value(QueueItem::IP_DSFIELD, ds);
    return isIp ? m_indexOf[ds >> 2] : m_precedences - 1;
}

uint32_t
RioQueueDisc::GetPrecedence(Ptr<const QueueDiscItem> item) const
{
    bool isIp = false;
    return Classify(item, isIp) + 1;
}

const RioQueueDisc::PrecedenceStats&
RioQueueDisc::GetPrecedenceStats(uint32_t precedence) const
{
    NS_ABORT_MSG_UNLESS(precedence >= 1 && precedence <= m_precedences,
                        "RioQueueDisc: precedence " << precedence << " out of range [1, "
                                                    << m_precedences << "]");
    return m_stats[precedence - 1];
}

double
RioQueueDisc::GetAverage(uint32_t precedence) const
{
    GetPrecedenceStats(precedence); // range check
    return m_red[precedence - 1].GetAverage();
}

double
RioQueueDisc::GetQueueLength(uint32_t precedence) const
{
    GetPrecedenceStats(precedence);
    return Followed(precedence - 1);
}

double
RioQueueDisc::GetDropProbability(uint32_t precedence) const
{
    GetPrecedenceStats(precedence);
    return m_red[precedence - 1].GetProbability();
}

uint64_t
RioQueueDisc::GetCount(uint32_t precedence) const
{
    GetPrecedenceStats(precedence);
    return m_red[precedence - 1].GetCount();
}

double
RioQueueDisc::Followed(uint32_t k) const
{
    switch (m_averaging)
    {
    case DECOUPLED:
        return m_backlog[k];
    case WRED:
        k = m_precedences - 1;
        [[fallthrough]];
    case COUPLED:
    default: {
        double q = m_backlog[0];
        for (uint32_t j = 1; j <= k; ++j)
        {
            q += m_backlog[j];
        }
        return q;
    }
    }
}

bool
RioQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    bool isIp = false;
    const uint32_t k = Classify(item, isIp);
    const uint32_t size = item->GetSize();
    PrecedenceStats& stats = m_stats[k];
    stats.arrivals++;
    stats.nonIp += isIp ? 0 : 1;

    // Fig. 1, for each packet arrival: calculate every average (avg_in, avg_total), RED's
    // idle-time decay included, from the queue before this packet joins. (All the tests share
    // the queue's idle state; the clock matters only when it is idle.) ns-2.35's rio.cc skips
    // this step for OUT packets (Ns2Averaging).
    if (!m_ns2Averaging || k == 0)
    {
        const int64_t now = m_red[0].IsIdle() ? Simulator::Now().GetTimeStep() : 0;
        for (uint32_t j = 0; j < m_precedences; ++j)
        {
            m_red[j].UpdateAverage(Followed(j), now);
        }
        m_avgIn = m_red[0].GetAverage();
        m_avgTotal = m_red[m_precedences - 1].GetAverage();
        if (m_precedences == 3)
        {
            m_avgMid = m_red[1].GetAverage();
        }
        else if (m_averaging == COUPLED)
        {
            m_avgOut = m_avgTotal - m_avgIn;
        }
    }
    NS_LOG_DEBUG("precedence " << k + 1 << (isIp ? "" : " (not IP)") << ": avg_in " << m_avgIn
                               << ", avg_total " << m_avgTotal);

    // The packet's RED test(s) on its precedence's average.
    if (Judge(item, k, size) == DROPPED)
    {
        return false;
    }

    if (!GetInternalQueue(0)->Enqueue(item))
    {
        // The internal queue dropped it (QueueDisc::INTERNAL_QUEUE_DROP): the queue is full.
        stats.limitDrops++;
        return false;
    }
    stats.enqueued++;
    m_backlog[k] += m_byteMode ? size : 1;
    for (uint32_t j = 0; j < m_precedences; ++j)
    {
        m_red[j].NotifyBusy();
    }
    return true;
}

RioQueueDisc::Outcome
RioQueueDisc::Judge(Ptr<QueueDiscItem> item, uint32_t k, uint32_t size)
{
    const RedCore::Decision d = m_red[k].Decide(Followed(k), size, [this]() { return Draw(); });
    return Apply(item, k, d, REASONS);
}

RioQueueDisc::Outcome
RioQueueDisc::Apply(Ptr<QueueDiscItem> item,
                    uint32_t k,
                    RedCore::Decision decision,
                    const std::array<const char*, 4>& reasons)
{
    PrecedenceStats& stats = m_stats[k];
    switch (decision)
    {
    case RedCore::ACCEPT:
        return PASSED;
    case RedCore::EARLY_MARK:
        if (Mark(item, reasons[2]))
        {
            NS_LOG_DEBUG("early mark, precedence " << k + 1);
            stats.earlyMarks++;
            return MARKED;
        }
        [[fallthrough]];
    case RedCore::EARLY_DROP:
        NS_LOG_DEBUG("early drop, precedence " << k + 1);
        stats.earlyDrops++;
        DropBeforeEnqueue(item, reasons[0]);
        return DROPPED;
    case RedCore::FORCED_MARK:
        if (Mark(item, reasons[3]))
        {
            NS_LOG_DEBUG("forced mark, precedence " << k + 1);
            stats.forcedMarks++;
            return MARKED;
        }
        [[fallthrough]];
    case RedCore::FORCED_DROP:
    default:
        NS_LOG_DEBUG("forced drop, precedence " << k + 1);
        stats.forcedDrops++;
        DropBeforeEnqueue(item, reasons[1]);
        return DROPPED;
    }
}

Ptr<QueueDiscItem>
RioQueueDisc::DoDequeue()
{
    Ptr<QueueDiscItem> item = GetInternalQueue(0)->Dequeue();
    if (!item)
    {
        // RED: the queue is idle from now (restarted at every empty dequeue, as RedQueueDisc).
        const int64_t now = Simulator::Now().GetTimeStep();
        for (uint32_t j = 0; j < m_precedences; ++j)
        {
            m_red[j].NotifyIdle(now);
        }
        return nullptr;
    }
    bool isIp = false;
    m_backlog[Classify(item, isIp)] -= m_byteMode ? item->GetSize() : 1;
    return item;
}

Ptr<const QueueDiscItem>
RioQueueDisc::DoPeek()
{
    return GetInternalQueue(0)->Peek();
}

RedCore::Params
RioQueueDisc::MakeParams(double minTh, double maxTh, double maxP) const
{
    RedCore::Params p;
    p.minTh = minTh;
    p.maxTh = maxTh;
    p.maxP = maxP;
    p.qW = m_qW;
    p.wait = m_wait;
    p.gentle = m_gentle;
    p.byteMode = m_byteMode;
    p.meanPktSize = m_meanPktSize;
    p.linkBandwidth = static_cast<double>(m_linkBandwidth.GetBitRate());
    p.useEcn = m_useEcn;
    p.useHardDrop = m_useHardDrop;
    p.ticksToSeconds = &TimeStepsToSeconds;
    return p;
}

void
RioQueueDisc::CheckParams(const RedCore::Params& p, const std::string& prefix) const
{
    const std::string why = RedCore::Check(p, prefix);
    NS_ABORT_MSG_UNLESS(why.empty(), GetInstanceTypeId().GetName() << ": " << why);
}

void
RioQueueDisc::MapDscps(const std::string& name, const std::string& text, uint32_t k)
{
    std::string spaced = text;
    std::replace_if(
        spaced.begin(),
        spaced.end(),
        [](char c) { return c == ',' || c == '\t' || c == '\n'; },
        ' ');
    std::istringstream words(spaced);
    std::string word;
    while (words >> word)
    {
        uint8_t dscp = 0;
        NS_ABORT_MSG_UNLESS(ParseDscp(word, dscp),
                            "RioQueueDisc: " << name << " = '" << text << "': '" << word
                                             << "' is not a DSCP (BE, CS0-CS7, AF11-AF43, EF "
                                                "or a number 0-63)");
        NS_ABORT_MSG_IF(m_indexOf[dscp] != k && m_indexOf[dscp] != m_precedences - 1,
                        "RioQueueDisc: " << name << " = '" << text << "': DSCP " << word
                                         << " already has precedence " << m_indexOf[dscp] + 1);
        m_indexOf[dscp] = static_cast<uint8_t>(k);
    }
}

bool
RioQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    // Always-on checks: ns-3 only asserts on CheckConfig's result, and release builds drop that.
    NS_ABORT_MSG_IF(GetNQueueDiscClasses() > 0, "RioQueueDisc cannot have classes");
    NS_ABORT_MSG_IF(GetNPacketFilters() > 0,
                    "RioQueueDisc cannot have packet filters (the DSCP gives the precedence)");
    NS_ABORT_MSG_IF(GetNInternalQueues() > 0,
                    "RioQueueDisc creates its own internal queue; do not add one");
    NS_ABORT_MSG_UNLESS(m_precedences == 2 || m_precedences == 3,
                        "RioQueueDisc: Precedences = " << m_precedences << " must be 2 or 3");
    NS_ABORT_MSG_IF(m_ns2Averaging && (m_precedences != 2 || m_averaging != COUPLED),
                    "RioQueueDisc: Ns2Averaging needs Precedences 2 and Coupled averaging "
                    "(ns-2.35's rio.cc), not Precedences "
                        << m_precedences << " and "
                        << (m_averaging == COUPLED
                                ? "Coupled"
                                : (m_averaging == DECOUPLED ? "Decoupled" : "Wred")));
    m_byteMode = GetMaxSize().GetUnit() == QueueSizeUnit::BYTES;

    CheckParams(MakeParams(m_inMinTh, m_inMaxTh, m_inMaxP), "In");
    if (m_precedences == 3)
    {
        CheckParams(MakeParams(m_midMinTh, m_midMaxTh, m_midMaxP), "Mid");
    }
    CheckParams(MakeParams(m_totalMinTh, m_totalMaxTh, m_totalMaxP), "Total");
    qdisclab::WarnThresholdsAboveMaxSize(*this, "In", m_inMinTh, m_inMaxTh);
    if (m_precedences == 3)
    {
        qdisclab::WarnThresholdsAboveMaxSize(*this, "Mid", m_midMinTh, m_midMaxTh);
    }
    qdisclab::WarnThresholdsAboveMaxSize(*this, "Total", m_totalMinTh, m_totalMaxTh);

    m_indexOf.fill(static_cast<uint8_t>(m_precedences - 1));
    MapDscps("InDscps", m_inDscps, 0);
    if (m_precedences == 3)
    {
        MapDscps("MidDscps", m_midDscps, 1);
    }

    AddInternalQueue(
        CreateObjectWithAttributes<DropTailQueue<QueueDiscItem>>("MaxSize",
                                                                 QueueSizeValue(GetMaxSize())));
    return true;
}

void
RioQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    m_red[0].Configure(MakeParams(m_inMinTh, m_inMaxTh, m_inMaxP));
    if (m_precedences == 3)
    {
        m_red[1].Configure(MakeParams(m_midMinTh, m_midMaxTh, m_midMaxP));
    }
    m_red[m_precedences - 1].Configure(MakeParams(m_totalMinTh, m_totalMaxTh, m_totalMaxP));
    m_backlog.fill(0);
    m_stats.fill(PrecedenceStats{});
    m_avgIn = 0;
    m_avgMid = 0;
    m_avgTotal = 0;
    m_avgOut = 0;
    NS_LOG_INFO("RIO: " << m_precedences << " precedences, "
                        << (m_averaging == COUPLED     ? "coupled"
                            : m_averaging == DECOUPLED ? "decoupled"
                                                       : "WRED")
                        << " averages, IN " << m_inMinTh << "/" << m_inMaxTh << "/" << m_inMaxP
                        << ", IN+OUT " << m_totalMinTh << "/" << m_totalMaxTh << "/" << m_totalMaxP
                        << ", w_q " << m_qW << ", limit " << GetMaxSize()
                        << (m_byteMode ? " (byte mode)" : ""));
}

} // namespace ns3
