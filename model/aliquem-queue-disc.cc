/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "aliquem-queue-disc.h"

#include "ns3/abort.h"
#include "ns3/log.h"
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
        AddSharedAttributes(TypeId("ns3::AliquemQueueDisc")
                                .SetParent<PerFlowQueueDisc>()
                                .SetGroupName("QdiscLab")
                                .AddConstructor<AliquemQueueDisc>())
            .AddAttribute("Quantum",
                          "Bytes a flow of weight 1 may send per round before scaling, >= 1: its "
                          "quantum phi is Quantum x weight / ScalingFactor (weight: WeightRules, "
                          "DefaultWeight). Aliquem is O(1) when phi >= the largest packet / "
                          "ScalingFactor; phi of the largest weight must be at most 4294967295 B. "
                          "Default: the Vertical Dimensioning paper's 1000 B.",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&AliquemQueueDisc::m_quantum),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ScalingFactor",
                          "q, 1 .. 1024: quanta are scaled down by q and there are q + 1 active "
                          "lists; 1 is DRR. Default: the Vertical Dimensioning paper's 5.",
                          UintegerValue(5),
                          MakeUintegerAccessor(&AliquemQueueDisc::m_scalingFactor),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("Round",
                            "Number of rounds completed (the current active list's round)",
                            MakeTraceSourceAccessor(&AliquemQueueDisc::m_round),
                            "ns3::TracedValueCallback::Uint64");
    return tid;
}

AliquemQueueDisc::AliquemQueueDisc()
    : PerFlowQueueDiscOf<AliquemScheduler, AliquemQueueDisc>("AliquemQueueDisc"),
      m_quantum(1000),
      m_scalingFactor(5),
      m_round(0)
{
    NS_LOG_FUNCTION(this);
}

AliquemQueueDisc::~AliquemQueueDisc()
{
    NS_LOG_FUNCTION(this);
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

bool
AliquemQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_quantum == 0, "AliquemQueueDisc: Quantum must be >= 1 byte, got 0");
    NS_ABORT_MSG_UNLESS(m_scalingFactor >= 1 && m_scalingFactor <= 1024,
                        "AliquemQueueDisc: ScalingFactor = " << m_scalingFactor
                                                             << " is out of range [1, 1024]");
    if (m_quantum < 1500)
    {
        NS_LOG_INFO("Quantum / ScalingFactor = " << m_quantum / double(m_scalingFactor)
                                                 << " B: a weight-1 flow needs more than "
                                                 << m_scalingFactor << " rounds for a packet above "
                                                 << m_quantum << " B, and is then visited again");
    }
    PerFlowQueueDisc::CheckConfig();
    // A flow's phi, Quantum x weight / ScalingFactor, is held in 32 bits: refuse what would
    // not fit (wrapped to 0, it would divide by zero).
    const double largest = std::round(m_quantum * m_weights.GetMaxWeight() / m_scalingFactor);
    NS_ABORT_MSG_UNLESS(largest <= std::numeric_limits<uint32_t>::max(),
                        "AliquemQueueDisc: Quantum x weight / ScalingFactor = "
                            << m_quantum << " B x " << m_weights.GetMaxWeight() << " / "
                            << m_scalingFactor << " = " << largest
                            << " B is out of range [1, 4294967295] B; lower the weight "
                               "(DefaultWeight, WeightRules) or Quantum");
    return true;
}

void
AliquemQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    // Buckets + 1: the last bucket holds non-IP packets.
    m_scheduler.Reset(m_buckets + 1, m_quantum, m_scalingFactor);
    PerFlowQueueDisc::InitializeParams();
    m_round = 0;
    NS_LOG_INFO("Aliquem: quantum " << m_quantum << " B / q = " << m_scalingFactor);
}

} // namespace ns3
