/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cioq-red-queue-disc.h"

#include "qdisc-lab-config.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CioqRedQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(CioqRedQueueDisc);

TypeId
CioqRedQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CioqRedQueueDisc")
            .SetParent<QueueDisc>()
            .SetGroupName("QdiscLab")
            .AddConstructor<CioqRedQueueDisc>()
            .AddAttribute("InputWeight",
                          "nu, the weight of the input backlog q_input in the congestion measure "
                          "nu q_input + q_output, >= 0. Default 0.5 (the paper's 4x4 switch; it "
                          "used 0.125 for 16x16). 0 gives RedQueueDisc.",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&CioqRedQueueDisc::m_inputWeight),
                          MakeDoubleChecker<double>())
            .AddAttribute("MinTh",
                          "min_th, packets (bytes in byte mode), >= 0. Default 5 (the paper).",
                          DoubleValue(5),
                          MakeDoubleAccessor(&CioqRedQueueDisc::m_minTh),
                          MakeDoubleChecker<double>())
            .AddAttribute("MaxTh",
                          "max_th, packets (bytes in byte mode), > MinTh. Default 15 (the paper).",
                          DoubleValue(15),
                          MakeDoubleAccessor(&CioqRedQueueDisc::m_maxTh),
                          MakeDoubleChecker<double>())
            .AddAttribute("MaxSize",
                          "The output queue's limit, packets or bytes (bytes: byte mode). "
                          "Default 20p (the paper's output buffer).",
                          QueueSizeValue(QueueSize("20p")),
                          qdisclab::MakeMaxSizeAccessor(),
                          MakeQueueSizeChecker())
            .AddAttribute("QW",
                          "w_q, the weight of the EWMA average, in (0, 1]. Default 0.004 (the "
                          "paper).",
                          DoubleValue(0.004),
                          MakeDoubleAccessor(&CioqRedQueueDisc::m_qW),
                          MakeDoubleChecker<double>())
            .AddAttribute("LInterm",
                          "1 / max_p, >= 1. Default 10 (the paper's max_p = 0.1).",
                          DoubleValue(10),
                          MakeDoubleAccessor(&CioqRedQueueDisc::m_lInterm),
                          MakeDoubleChecker<double>())
            .AddAttribute("MeanPktSize",
                          "Mean packet size, bytes, >= 1 (ns-2's mean_pktsize_ default 500).",
                          UintegerValue(500),
                          MakeUintegerAccessor(&CioqRedQueueDisc::m_meanPktSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Wait",
                          "Space early drops further apart (ns-2's wait_, default true).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CioqRedQueueDisc::m_wait),
                          MakeBooleanChecker())
            .AddAttribute("Gentle",
                          "Drop probability rises from max_p to 1 between max_th and 2 max_th "
                          "(ns-2's gentle_, default true).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CioqRedQueueDisc::m_gentle),
                          MakeBooleanChecker())
            .AddAttribute("LinkBandwidth",
                          "Rate of the output link, for the idle-time decay of the average, "
                          "> 0. Default 1 Mbps (the paper's links).",
                          DataRateValue(DataRate("1Mbps")),
                          MakeDataRateAccessor(&CioqRedQueueDisc::m_linkBandwidth),
                          MakeDataRateChecker())
            .AddAttribute("UseEcn",
                          "Mark ECN-capable packets instead of dropping them.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&CioqRedQueueDisc::m_useEcn),
                          MakeBooleanChecker())
            .AddAttribute("UseHardDrop",
                          "With UseEcn, still drop (not mark) above max_th (2 max_th if gentle).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CioqRedQueueDisc::m_useHardDrop),
                          MakeBooleanChecker())
            .AddTraceSource("Average",
                            "Q_avg after each arrival, packets (bytes in byte mode).",
                            MakeTraceSourceAccessor(&CioqRedQueueDisc::m_average),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("InputBacklog",
                            "q_input seen by the last arrival, packets (bytes in byte mode).",
                            MakeTraceSourceAccessor(&CioqRedQueueDisc::m_inputPackets),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

CioqRedQueueDisc::CioqRedQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::SINGLE_INTERNAL_QUEUE),
      m_inputWeight(0.5),
      m_minTh(5),
      m_maxTh(15),
      m_qW(0.004),
      m_lInterm(10),
      m_meanPktSize(500),
      m_wait(true),
      m_gentle(true),
      m_useEcn(false),
      m_useHardDrop(true),
      m_backlog(nullptr),
      m_uv(CreateObject<UniformRandomVariable>()),
      m_average(0),
      m_inputPackets(0)
{
    NS_LOG_FUNCTION(this);
}

CioqRedQueueDisc::~CioqRedQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

void
CioqRedQueueDisc::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_uv = nullptr;
    m_backlog = nullptr;
    QueueDisc::DoDispose();
}

void
CioqRedQueueDisc::NotifyNewAggregate()
{
    if (!m_backlog)
    {
        m_backlog = PeekPointer(GetObject<CioqInputBacklog>());
    }
    QueueDisc::NotifyNewAggregate();
}

int64_t
CioqRedQueueDisc::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_uv->SetStream(stream);
    return 1;
}

double
CioqRedQueueDisc::GetAverage() const
{
    return m_core.GetAverage();
}

bool
CioqRedQueueDisc::HasInputBacklog() const
{
    return m_backlog != nullptr;
}

double
CioqRedQueueDisc::TicksToSeconds(int64_t ticks)
{
    return Time(ticks).GetSeconds();
}

bool
CioqRedQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    const bool bytes = GetMaxSize().GetUnit() == QueueSizeUnit::BYTES;
    const double qOutput = GetInternalQueue(0)->GetCurrentSize().GetValue();
    double qInput = 0;
    if (m_backlog)
    {
        qInput = bytes ? static_cast<double>(m_backlog->GetBytes()) : m_backlog->GetPackets();
    }
    m_inputPackets = qInput;

    // Equation (2): the average follows nu q_input + q_output; drops only at this queue.
    m_average =
        m_core.UpdateAverage(m_inputWeight * qInput + qOutput, Simulator::Now().GetTimeStep());
    const RedCore::Decision decision =
        m_core.Decide(qOutput, item->GetSize(), [this]() { return m_uv->GetValue(); });
    switch (decision)
    {
    case RedCore::ACCEPT:
        break;
    case RedCore::EARLY_MARK:
        if (Mark(item, UNFORCED_MARK))
        {
            break;
        }
        [[fallthrough]];
    case RedCore::EARLY_DROP:
        NS_LOG_DEBUG("Early drop: avg " << m_core.GetAverage() << ", q_input " << qInput
                                        << ", q_output " << qOutput);
        DropBeforeEnqueue(item, UNFORCED_DROP);
        return false;
    case RedCore::FORCED_MARK:
        if (Mark(item, FORCED_MARK))
        {
            break;
        }
        [[fallthrough]];
    case RedCore::FORCED_DROP:
        NS_LOG_DEBUG("Forced drop: avg " << m_core.GetAverage() << ", q_input " << qInput
                                         << ", q_output " << qOutput);
        DropBeforeEnqueue(item, FORCED_DROP);
        return false;
    }
    if (!GetInternalQueue(0)->Enqueue(item))
    {
        return false; // counted by the internal queue's drop (INTERNAL_QUEUE_DROP)
    }
    m_core.NotifyBusy();
    return true;
}

Ptr<QueueDiscItem>
CioqRedQueueDisc::DoDequeue()
{
    NS_LOG_FUNCTION(this);
    Ptr<QueueDiscItem> item = GetInternalQueue(0)->Dequeue();
    if (!item)
    {
        m_core.NotifyIdle(Simulator::Now().GetTimeStep());
    }
    return item;
}

Ptr<const QueueDiscItem>
CioqRedQueueDisc::DoPeek()
{
    return GetInternalQueue(0)->Peek();
}

bool
CioqRedQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(GetNQueueDiscClasses() > 0, "CioqRedQueueDisc cannot have classes");
    NS_ABORT_MSG_IF(GetNPacketFilters() > 0, "CioqRedQueueDisc cannot have packet filters");
    NS_ABORT_MSG_UNLESS(std::isfinite(m_inputWeight) && m_inputWeight >= 0,
                        "CioqRedQueueDisc: InputWeight = " << m_inputWeight
                                                           << " is out of range [0, inf)");
    NS_ABORT_MSG_UNLESS(m_lInterm >= 1,
                        "CioqRedQueueDisc: LInterm = " << m_lInterm
                                                       << " is out of range [1, inf) (1 / max_p)");
    if (GetNInternalQueues() == 0)
    {
        AddInternalQueue(
            CreateObjectWithAttributes<DropTailQueue<QueueDiscItem>>("MaxSize",
                                                                     QueueSizeValue(GetMaxSize())));
    }
    NS_ABORT_MSG_IF(GetNInternalQueues() != 1, "CioqRedQueueDisc needs exactly one internal queue");
    RedCore::Params p;
    p.minTh = m_minTh;
    p.maxTh = m_maxTh;
    p.maxP = 1.0 / m_lInterm;
    p.qW = m_qW;
    p.meanPktSize = m_meanPktSize;
    p.linkBandwidth = static_cast<double>(m_linkBandwidth.GetBitRate());
    const std::string problem = RedCore::Check(p, "", "QW");
    NS_ABORT_MSG_UNLESS(problem.empty(), "CioqRedQueueDisc: " << problem);
    qdisclab::WarnThresholdsAboveMaxSize(*this, "", m_minTh, m_maxTh);
    return true;
}

void
CioqRedQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    RedCore::Params p;
    p.minTh = m_minTh;
    p.maxTh = m_maxTh;
    p.maxP = 1.0 / m_lInterm; // as RedQueueDisc computes it
    p.qW = m_qW;
    p.wait = m_wait;
    p.gentle = m_gentle;
    p.byteMode = GetMaxSize().GetUnit() == QueueSizeUnit::BYTES;
    p.meanPktSize = m_meanPktSize;
    p.linkBandwidth = static_cast<double>(m_linkBandwidth.GetBitRate());
    p.useEcn = m_useEcn;
    p.useHardDrop = m_useHardDrop;
    p.ticksToSeconds = &CioqRedQueueDisc::TicksToSeconds;
    m_core.Configure(p);
    m_average = 0;
    if (m_backlog) // found by NotifyNewAggregate when the switch aggregated it
    {
        NS_LOG_INFO("CioqRedQueueDisc: nu = " << m_inputWeight << ", min_th = " << m_minTh
                                              << ", max_th = " << m_maxTh << ", w_q = " << m_qW
                                              << ", max_p = " << p.maxP);
    }
    else
    {
        NS_LOG_WARN("CioqRedQueueDisc: no input backlog supplied (not the output of a CIOQ "
                    "switch): q_input = 0, this is plain RED");
    }
}

} // namespace ns3
