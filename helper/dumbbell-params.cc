/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dumbbell-params.h"

#include "ns3/data-rate.h"
#include "ns3/fifo-queue-disc.h"
#include "ns3/red-queue-disc.h"

#include <utility>

namespace ns3
{

DumbbellParams::DumbbellParams(std::string bottleneckRate,
                               std::string bottleneckDelay,
                               std::string accessRate,
                               std::string accessDelay)
    : bottleneckRate(std::move(bottleneckRate)),
      bottleneckDelay(std::move(bottleneckDelay)),
      accessRate(std::move(accessRate)),
      accessDelay(std::move(accessDelay))
{
}

void
DumbbellParams::Declare(ExperimentParams& params,
                        ExperimentParams::Recording access,
                        ExperimentParams::Recording udp)
{
    params.AddRate("bottleneckRate", "Bottleneck link rate", bottleneckRate);
    params.AddText("bottleneckDelay",
                   "Bottleneck one-way propagation delay",
                   bottleneckDelay,
                   ExperimentParams::TIME_TEXT);
    params.AddRate("accessRate", "Access link rate", accessRate, access);
    params.AddText("accessDelay",
                   "Access link one-way propagation delay",
                   accessDelay,
                   ExperimentParams::TIME_TEXT,
                   access);

    params.AddMetric("tcp_goodput_mbps");
    params.AddMetric("udp_goodput_mbps", udp);
    for (const char* metric : {"total_goodput_mbps",
                               "mean_queue_delay_ms",
                               "p99_queue_delay_ms",
                               "mean_queue_packets",
                               "mean_queue_bytes",
                               "drops",
                               "early_drops",
                               "forced_drops"})
    {
        params.AddMetric(metric);
    }

    params.OwnsAttribute("ns3::RedQueueDisc::LinkBandwidth", "--bottleneckRate");
    params.OwnsAttribute("ns3::RedQueueDisc::LinkDelay", "--bottleneckDelay");
    params.OwnsAttribute("ns3::PointToPointNetDevice::DataRate",
                         "--bottleneckRate and --accessRate");
    params.OwnsAttribute("ns3::PointToPointChannel::Delay", "--bottleneckDelay and --accessDelay");
}

void
DumbbellParams::SetLinks(DumbbellScenario& scenario) const
{
    scenario.SetAccessLink(DataRate(accessRate), Time(accessDelay));
    scenario.SetBottleneckLink(DataRate(bottleneckRate), Time(bottleneckDelay));
}

void
DumbbellParams::Report(MetricsReport& report, const BottleneckMonitor& monitor, bool red)
{
    monitor.Report(report);
    report.SetMetric("early_drops",
                     red ? static_cast<double>(monitor.GetDrops(RedQueueDisc::UNFORCED_DROP)) : 0);
    // RED counts drops at a full queue as forced drops too.
    report.SetMetric("forced_drops",
                     static_cast<double>(monitor.GetDrops(
                         red ? RedQueueDisc::FORCED_DROP : FifoQueueDisc::LIMIT_EXCEEDED_DROP)));
}

} // namespace ns3
