/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "bottleneck-monitor.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BottleneckMonitor");

BottleneckMonitor::BottleneckMonitor(Ptr<QueueDisc> queueDisc, Time warmup, Time sampleInterval)
    : m_queueDisc(queueDisc),
      m_warmup(warmup),
      m_sampleInterval(sampleInterval),
      m_warm(false),
      m_sorted(true),
      m_dropsAtWarmup(0),
      m_queuePacketsSum(0),
      m_queueBytesSum(0),
      m_samples(0)
{
    NS_ABORT_MSG_UNLESS(queueDisc, "BottleneckMonitor: no queue disc");
    NS_ABORT_MSG_IF(warmup.IsStrictlyNegative(), "BottleneckMonitor: negative warm-up");
    NS_ABORT_MSG_UNLESS(sampleInterval.IsStrictlyPositive(),
                        "BottleneckMonitor: the sampling interval must be > 0");
}

void
BottleneckMonitor::AddSink(const std::string& group, Ptr<PacketSink> sink)
{
    NS_ABORT_MSG_UNLESS(sink, "BottleneckMonitor: null sink for group '" << group << "'");
    m_groups[group].sinks.emplace_back([sink] { return sink->GetTotalRx(); });
}

void
BottleneckMonitor::AddSink(const std::string& group, Ptr<TcpBulkSink> sink)
{
    NS_ABORT_MSG_UNLESS(sink, "BottleneckMonitor: null sink for group '" << group << "'");
    m_groups[group].sinks.emplace_back([sink] { return sink->GetTotalRx(); });
}

void
BottleneckMonitor::SetQueueTrace(const std::string& path)
{
    m_trace = std::make_unique<std::ofstream>(path);
    NS_ABORT_MSG_UNLESS(*m_trace,
                        "BottleneckMonitor: cannot write the queue trace '" << path << "'");
    *m_trace << "time_s,packets,bytes\n";
}

void
BottleneckMonitor::Start()
{
    m_queueDisc->TraceConnectWithoutContext("SojournTime",
                                            MakeCallback(&BottleneckMonitor::RecordSojourn, this));
    Simulator::Schedule(m_warmup, &BottleneckMonitor::EndWarmup, this);
}

void
BottleneckMonitor::EndWarmup()
{
    m_warm = true;
    m_dropsAtWarmup = m_queueDisc->GetStats().nTotalDroppedPackets;
    m_dropsByReason = CountDropsByReason();
    for (auto& [label, group] : m_groups)
    {
        group.rxAtWarmup = 0;
        for (const auto& received : group.sinks)
        {
            group.rxAtWarmup += received();
        }
    }
    Sample();
}

void
BottleneckMonitor::Sample()
{
    const uint32_t packets = m_queueDisc->GetNPackets();
    const uint32_t bytes = m_queueDisc->GetNBytes();
    m_queuePacketsSum += packets;
    m_queueBytesSum += bytes;
    ++m_samples;
    if (m_trace)
    {
        *m_trace << Simulator::Now().GetSeconds() << "," << packets << "," << bytes << "\n";
        NS_ABORT_MSG_IF(m_trace->fail(), "BottleneckMonitor: writing the queue trace failed");
    }
    Simulator::Schedule(m_sampleInterval, &BottleneckMonitor::Sample, this);
}

void
BottleneckMonitor::RecordSojourn(Time sojourn)
{
    if (m_warm)
    {
        m_sojournMs.push_back(sojourn.GetSeconds() * 1e3);
        m_sorted = false;
    }
}

double
BottleneckMonitor::GetGoodputMbps(const std::string& group) const
{
    auto it = m_groups.find(group);
    NS_ABORT_MSG_IF(it == m_groups.end(), "BottleneckMonitor: no sink group '" << group << "'");
    const double seconds = (Simulator::Now() - m_warmup).GetSeconds();
    if (!m_warm || seconds <= 0)
    {
        return std::numeric_limits<double>::quiet_NaN();
    }
    uint64_t rx = 0;
    for (const auto& received : it->second.sinks)
    {
        rx += received();
    }
    return (rx - it->second.rxAtWarmup) * 8.0 / seconds / 1e6;
}

double
BottleneckMonitor::GetTotalGoodputMbps() const
{
    double total = 0;
    for (const auto& entry : m_groups)
    {
        total += GetGoodputMbps(entry.first);
    }
    return total;
}

double
BottleneckMonitor::GetMeanQueueDelayMs() const
{
    if (m_sojournMs.empty())
    {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return std::accumulate(m_sojournMs.begin(), m_sojournMs.end(), 0.0) / m_sojournMs.size();
}

double
BottleneckMonitor::GetQueueDelayQuantileMs(double q) const
{
    NS_ABORT_MSG_UNLESS(q >= 0 && q <= 1, "BottleneckMonitor: quantile " << q << " not in [0, 1]");
    if (m_sojournMs.empty())
    {
        return std::numeric_limits<double>::quiet_NaN();
    }
    if (!m_sorted)
    {
        std::sort(m_sojournMs.begin(), m_sojournMs.end());
        m_sorted = true;
    }
    auto rank = static_cast<size_t>(std::ceil(q * m_sojournMs.size()));
    return m_sojournMs[std::clamp<size_t>(rank, 1, m_sojournMs.size()) - 1];
}

double
BottleneckMonitor::GetMeanQueuePackets() const
{
    return m_samples ? m_queuePacketsSum / m_samples : std::numeric_limits<double>::quiet_NaN();
}

double
BottleneckMonitor::GetMeanQueueBytes() const
{
    return m_samples ? m_queueBytesSum / m_samples : std::numeric_limits<double>::quiet_NaN();
}

std::map<std::string, uint64_t>
BottleneckMonitor::CountDropsByReason() const
{
    const QueueDisc::Stats& stats = m_queueDisc->GetStats();
    std::map<std::string, uint64_t> counts(stats.nDroppedPacketsBeforeEnqueue.begin(),
                                           stats.nDroppedPacketsBeforeEnqueue.end());
    for (const auto& [reason, n] : stats.nDroppedPacketsAfterDequeue)
    {
        counts[reason] += n;
    }
    return counts;
}

uint64_t
BottleneckMonitor::GetDrops(const std::string& reason) const
{
    if (reason.empty())
    {
        return m_queueDisc->GetStats().nTotalDroppedPackets - (m_warm ? m_dropsAtWarmup : 0);
    }
    const auto now = CountDropsByReason();
    auto it = now.find(reason);
    uint64_t before = 0;
    if (m_warm)
    {
        auto old = m_dropsByReason.find(reason);
        before = old == m_dropsByReason.end() ? 0 : old->second;
    }
    return (it == now.end() ? 0 : it->second) - before;
}

void
BottleneckMonitor::Report(MetricsReport& report) const
{
    for (const auto& entry : m_groups)
    {
        report.SetMetric(entry.first + "_goodput_mbps", GetGoodputMbps(entry.first));
    }
    report.SetMetric("total_goodput_mbps", GetTotalGoodputMbps());
    report.SetMetric("mean_queue_delay_ms", GetMeanQueueDelayMs());
    report.SetMetric("p99_queue_delay_ms", GetQueueDelayQuantileMs(0.99));
    report.SetMetric("mean_queue_packets", GetMeanQueuePackets());
    report.SetMetric("mean_queue_bytes", GetMeanQueueBytes());
    report.SetMetric("drops", static_cast<double>(GetDrops()));
}

} // namespace ns3
