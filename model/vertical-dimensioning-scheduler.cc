/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "vertical-dimensioning-scheduler.h"

#include "ns3/abort.h"

namespace ns3
{

FlowCounters
VerticalDimensioningScheduler::GetCounters(FlowId f) const
{
    NS_ABORT_MSG_UNLESS(m_bucketCounters,
                        "VerticalDimensioningQueueDisc: GetFlowStats needs BucketCounters = true "
                        "(it is false: no per-bucket counters are kept)");
    const FlowCounters* counters = m_counters.Find(f);
    return counters ? *counters : FlowCounters{};
}

FlowStateSize
VerticalDimensioningScheduler::GetStateSize() const
{
    return FlowStateSize{m_vd.GetFlowStateBytes(),
                         m_counters.GetSlots() * VdFlowTable<FlowCounters>::SlotBytes(),
                         static_cast<uint32_t>(m_vd.GetFlowCapacity())};
}

} // namespace ns3
