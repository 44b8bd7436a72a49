/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drr-queue-disc.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DrrQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(DrrQueueDisc);

TypeId
DrrQueueDisc::GetTypeId()
{
    static TypeId tid =
        AddSharedAttributes(TypeId("ns3::DrrQueueDisc")
                                .SetParent<PerFlowQueueDisc>()
                                .SetGroupName("QdiscLab")
                                .AddConstructor<DrrQueueDisc>())
            .AddAttribute("Quantum",
                          "Bytes a flow of weight 1 may send per round (ns-2 quantum_), >= 1; a "
                          "flow's quantum is Quantum x its weight (WeightRules). Packets larger "
                          "than the quantum wait ceil(size/quantum) rounds; Quantum x the largest "
                          "weight must be at most 4294967295 B. Default: ns-2's 250 B.",
                          UintegerValue(250),
                          MakeUintegerAccessor(&DrrQueueDisc::m_quantum),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

DrrQueueDisc::DrrQueueDisc()
    : PerFlowQueueDiscOf<DrrScheduler, DrrQueueDisc>("DrrQueueDisc"),
      m_quantum(250)
{
    NS_LOG_FUNCTION(this);
}

DrrQueueDisc::~DrrQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

bool
DrrQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_quantum == 0, "DrrQueueDisc: Quantum must be >= 1 byte, got 0");
    if (m_quantum < 1500)
    {
        NS_LOG_INFO("Quantum " << m_quantum << " B is below a 1500 B packet: such packets wait "
                               << "several rounds, and a dequeue may visit a flow several times");
    }
    PerFlowQueueDisc::CheckConfig();
    // A flow's quantum, Quantum x weight, is held in 32 bits: refuse what would not fit
    // (rounded to 0 or wrapped, the flow could never send and Dequeue would not end).
    const double largest = std::round(m_quantum * m_weights.GetMaxWeight());
    NS_ABORT_MSG_UNLESS(largest <= std::numeric_limits<uint32_t>::max(),
                        "DrrQueueDisc: Quantum x weight = "
                            << m_quantum << " B x " << m_weights.GetMaxWeight() << " = " << largest
                            << " B is out of range [1, "
                               "4294967295] B; lower the "
                               "weight (DefaultWeight, "
                               "WeightRules) or Quantum");
    return true;
}

void
DrrQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    // Buckets + 1: the last bucket holds non-IP packets.
    m_scheduler.Reset(m_buckets + 1, m_quantum, m_dropFrom == DROP_LAST);
    PerFlowQueueDisc::InitializeParams();
    NS_LOG_INFO("DRR: quantum " << m_quantum << " B");
}

} // namespace ns3
