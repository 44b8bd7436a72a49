/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wf2q-plus-queue-disc.h"

#include "ns3/double.h"
#include "ns3/log.h"

#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Wf2qPlusQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(Wf2qPlusQueueDisc);

TypeId
Wf2qPlusQueueDisc::GetTypeId()
{
    static TypeId tid =
        AddSharedAttributes(TypeId("ns3::Wf2qPlusQueueDisc")
                                .SetParent<PerFlowQueueDisc>()
                                .SetGroupName("QdiscLab")
                                .AddConstructor<Wf2qPlusQueueDisc>())
            .AddAttribute("TotalWeight",
                          "Φ, the weight whose share is the whole link: a bucket of weight w is "
                          "guaranteed w / Φ of it (WF²Q+'s bounds need the weights of the "
                          "buckets to sum to at most Φ); >= 0, in the units of WeightRules and "
                          "DefaultWeight. 0 (default): the sum of the weights of the buckets "
                          "that have had packets, each counted once with the weight of its "
                          "first packet (as Linux's QFQ sums its classes' weights).",
                          DoubleValue(0),
                          MakeDoubleAccessor(&Wf2qPlusQueueDisc::m_totalWeightAttribute),
                          MakeDoubleChecker<double>(0))
            .AddTraceSource("VirtualTime",
                            "The system virtual time V after each dequeue, in bytes of link "
                            "service",
                            MakeTraceSourceAccessor(&Wf2qPlusQueueDisc::m_virtualTime),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

Wf2qPlusQueueDisc::Wf2qPlusQueueDisc()
    : PerFlowQueueDiscOf<Wf2qPlusScheduler, Wf2qPlusQueueDisc>("Wf2qPlusQueueDisc"),
      m_totalWeightAttribute(0),
      m_virtualTime(0)
{
    NS_LOG_FUNCTION(this);
}

Wf2qPlusQueueDisc::~Wf2qPlusQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

double
Wf2qPlusQueueDisc::GetTotalWeight() const
{
    return m_scheduler.GetTotalWeight();
}

double
Wf2qPlusQueueDisc::GetVirtualTime() const
{
    return m_scheduler.GetVirtualTime();
}

void
Wf2qPlusQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    // Buckets + 1: the last bucket holds non-IP packets.
    m_scheduler.Reset(m_buckets + 1, m_totalWeightAttribute);
    PerFlowQueueDisc::InitializeParams();
    m_virtualTime = 0;
    NS_LOG_INFO("WF2Q+: total weight "
                << (m_totalWeightAttribute == 0 ? std::string("the sum of the weights seen")
                                                : std::to_string(m_totalWeightAttribute)));
}

} // namespace ns3
