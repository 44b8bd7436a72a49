/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ri-plus-o-queue-disc.h"

#include "qdisc-lab-config.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiPlusOQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(RiPlusOQueueDisc);

TypeId
RiPlusOQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RiPlusOQueueDisc")
            .SetParent<RioQueueDisc>()
            .SetGroupName("QdiscLab")
            .AddConstructor<RiPlusOQueueDisc>()
            .AddAttribute("OutMinTh",
                          "min_out: OUT packets that pass the IN+OUT test are dropped early from "
                          "this average avg_out = avg_total - avg_in, in packets (bytes in byte "
                          "mode), >= 0. Default: the paper's 10 (Fig. 2).",
                          DoubleValue(10),
                          MakeDoubleAccessor(&RiPlusOQueueDisc::m_outMinTh),
                          MakeDoubleChecker<double>())
            .AddAttribute("OutMaxTh",
                          "max_out: every OUT packet is dropped from this avg_out (twice it with "
                          "Gentle), > OutMinTh. Default: the paper's 30.",
                          DoubleValue(30),
                          MakeDoubleAccessor(&RiPlusOQueueDisc::m_outMaxTh),
                          MakeDoubleChecker<double>())
            .AddAttribute("OutMaxP",
                          "P_max_out: drop probability p_b at OutMaxTh, in (0, 1]. Default: the "
                          "paper's 0.1.",
                          DoubleValue(0.1),
                          MakeDoubleAccessor(&RiPlusOQueueDisc::m_outMaxP),
                          MakeDoubleChecker<double>());
    return tid;
}

RiPlusOQueueDisc::RiPlusOQueueDisc()
    : m_outMinTh(10),
      m_outMaxTh(30),
      m_outMaxP(0.1)
{
    NS_LOG_FUNCTION(this);
}

RiPlusOQueueDisc::~RiPlusOQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

double
RiPlusOQueueDisc::GetAvgOut() const
{
    return m_avgOut;
}

double
RiPlusOQueueDisc::GetOutDropProbability() const
{
    return m_outRed.GetProbability();
}

uint64_t
RiPlusOQueueDisc::GetOutCount() const
{
    return m_outRed.GetCount();
}

bool
RiPlusOQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_UNLESS(GetPrecedences() == 2 && GetAveraging() == COUPLED,
                        "RiPlusOQueueDisc: avg_out = avg_total - avg_in needs Precedences = 2 "
                        "and Averaging = Coupled (the paper's RIO)");
    RioQueueDisc::CheckConfig();
    CheckParams(MakeParams(m_outMinTh, m_outMaxTh, m_outMaxP), "Out");
    qdisclab::WarnThresholdsAboveMaxSize(*this, "Out", m_outMinTh, m_outMaxTh);
    return true;
}

void
RiPlusOQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    RioQueueDisc::InitializeParams();
    m_outRed.Configure(MakeParams(m_outMinTh, m_outMaxTh, m_outMaxP));
    NS_LOG_INFO("RI+O: OUT " << m_outMinTh << "/" << m_outMaxTh << "/" << m_outMaxP);
}

RiPlusOQueueDisc::Outcome
RiPlusOQueueDisc::Judge(Ptr<QueueDiscItem> item, uint32_t k, uint32_t size)
{
    // RIO's test: IN on avg_in, OUT on avg_total.
    const Outcome first = RioQueueDisc::Judge(item, k, size);
    constexpr uint32_t OUT = 1;
    if (first == DROPPED || k != OUT)
    {
        return first;
    }
    // Fig. 1's bold part: an OUT packet that is not dropped is tested again on avg_out.
    const RedCore::Decision d =
        m_outRed.DecideOn(m_avgOut, Backlog(OUT), size, [this]() { return Draw(); });
    if (first == MARKED && (d == RedCore::EARLY_MARK || d == RedCore::FORCED_MARK))
    {
        return MARKED; // it already carries the congestion mark
    }
    const Outcome second = Apply(item, k, d, OUT_REASONS);
    return second == PASSED ? first : second;
}

} // namespace ns3
