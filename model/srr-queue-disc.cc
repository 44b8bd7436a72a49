/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "srr-queue-disc.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SrrQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(SrrQueueDisc);

TypeId
SrrQueueDisc::GetTypeId()
{
    static TypeId tid =
        AddSharedAttributes(TypeId("ns3::SrrQueueDisc")
                                .SetParent<PerFlowQueueDisc>()
                                .SetGroupName("QdiscLab")
                                .AddConstructor<SrrQueueDisc>())
            .AddAttribute("Quantum",
                          "Bytes a visit adds to a flow's deficit, >= 1; a flow of weight w is "
                          "visited w times per round, its weight (WeightRules, DefaultWeight) "
                          "rounded to an integer >= 1 for the Weight Matrix (stealing compares "
                          "bytes / weight as given). SRR is O(1) when Quantum >= the largest "
                          "packet. Default: the Vertical Dimensioning paper's 1000 B.",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&SrrQueueDisc::m_quantum),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("Position",
                            "Position in the Weight Spread Sequence (of order 32) being served",
                            MakeTraceSourceAccessor(&SrrQueueDisc::m_position),
                            "ns3::TracedValueCallback::Uint64");
    return tid;
}

SrrQueueDisc::SrrQueueDisc()
    : PerFlowQueueDiscOf<SrrScheduler, SrrQueueDisc>("SrrQueueDisc"),
      m_quantum(1000),
      m_position(0)
{
    NS_LOG_FUNCTION(this);
}

SrrQueueDisc::~SrrQueueDisc()
{
    NS_LOG_FUNCTION(this);
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

bool
SrrQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_quantum == 0, "SrrQueueDisc: Quantum must be >= 1 byte, got 0");
    if (m_quantum < 1500)
    {
        NS_LOG_INFO("Quantum " << m_quantum << " B is below a 1500 B packet: such packets need "
                               << "several visits, and a dequeue may visit several flows");
    }
    return PerFlowQueueDisc::CheckConfig();
}

void
SrrQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    // Buckets + 1: the last bucket holds non-IP packets.
    m_scheduler.Reset(m_buckets + 1, m_quantum);
    PerFlowQueueDisc::InitializeParams();
    m_position = 0;
    NS_LOG_INFO("SRR: quantum " << m_quantum << " B");
}

} // namespace ns3
