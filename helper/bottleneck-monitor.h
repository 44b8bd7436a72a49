/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef BOTTLENECK_MONITOR_H
#define BOTTLENECK_MONITOR_H

#include "ns3/metrics-report.h"
#include "ns3/nstime.h"
#include "ns3/packet-sink.h"
#include "ns3/queue-disc.h"
#include "ns3/tcp-bulk-sink.h"

#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief Measures what the examples report about a bottleneck: goodput per group of sinks,
 * queueing delay and queue length, all after a warm-up.
 *
 * Queueing delay is each dequeued packet's sojourn time (QueueDisc's SojournTime trace); queue
 * length is sampled every \c sampleInterval and can be written as CSV
 * (\c time_s,packets,bytes). Goodput of a group is the bytes its sinks (PacketSink, TcpBulkSink)
 * received between the end of the warm-up and the moment it is read, over that time.
 */
class BottleneckMonitor
{
  public:
    /**
     * \param queueDisc the queue disc to watch
     * \param warmup time excluded from every statistic
     * \param sampleInterval queue length sampling interval
     */
    BottleneckMonitor(Ptr<QueueDisc> queueDisc,
                      Time warmup,
                      Time sampleInterval = MilliSeconds(10));

    /**
     * \param group a label such as "tcp" or "udp"
     * \param sink a sink whose received bytes count toward that group's goodput
     */
    void AddSink(const std::string& group, Ptr<PacketSink> sink);

    /**
     * \param group a label such as "tcp" or "udp"
     * \param sink a TCP sink whose received bytes count toward that group's goodput
     */
    void AddSink(const std::string& group, Ptr<TcpBulkSink> sink);

    /**
     * \param path CSV file for the sampled queue length; stops the program if not writable
     */
    void SetQueueTrace(const std::string& path);

    /// Connect the traces and schedule the end of the warm-up. Call before Simulator::Run().
    void Start();

    /**
     * \param group a label given to AddSink()
     * \return the group's goodput in Mb/s since the warm-up ended
     */
    double GetGoodputMbps(const std::string& group) const;

    /// \return the sum of every group's goodput in Mb/s
    double GetTotalGoodputMbps() const;

    /// \return the mean queueing delay in ms; NaN without samples
    double GetMeanQueueDelayMs() const;

    /**
     * \param q the quantile, in [0, 1]
     * \return the nearest-rank quantile of the queueing delay in ms; NaN without samples
     */
    double GetQueueDelayQuantileMs(double q) const;

    /// \return the time-average queue length in packets; NaN without samples
    double GetMeanQueuePackets() const;

    /// \return the time-average queue length in bytes; NaN without samples
    double GetMeanQueueBytes() const;

    /**
     * \param reason a drop reason of the queue disc; empty for all reasons
     * \return packets dropped for that reason after the warm-up
     */
    uint64_t GetDrops(const std::string& reason = "") const;

    /**
     * Add the standard metrics: <group>_goodput_mbps for every group, total_goodput_mbps,
     * mean_queue_delay_ms, p99_queue_delay_ms, mean_queue_packets, mean_queue_bytes and drops
     * (packets the queue disc dropped after the warm-up, for any reason).
     * \param report the report to fill
     */
    void Report(MetricsReport& report) const;

  private:
    /// \return the queue disc's drops so far, by reason (before enqueue and after dequeue)
    std::map<std::string, uint64_t> CountDropsByReason() const;

    /// End of the warm-up: take the sinks' byte counts and start sampling.
    void EndWarmup();

    /// Take one queue length sample and schedule the next.
    void Sample();

    /**
     * SojournTime trace sink.
     * \param sojourn time the dequeued packet spent in the queue disc
     */
    void RecordSojourn(Time sojourn);

    /// A group's sinks and their byte counts at the end of the warm-up.
    struct Group
    {
        std::vector<std::function<uint64_t()>> sinks; //!< each sink's received bytes
        uint64_t rxAtWarmup = 0;                      //!< bytes received before the warm-up ended
    };

    Ptr<QueueDisc> m_queueDisc;              //!< the watched queue disc
    Time m_warmup;                           //!< warm-up length
    Time m_sampleInterval;                   //!< sampling interval
    bool m_warm;                             //!< whether the warm-up is over
    std::map<std::string, Group> m_groups;   //!< sink groups by label
    mutable std::vector<double> m_sojournMs; //!< queueing delays after the warm-up, in ms
    mutable bool m_sorted;                   //!< whether m_sojournMs is sorted
    uint64_t m_dropsAtWarmup;                //!< the queue disc's drops before the warm-up ended
    std::map<std::string, uint64_t> m_dropsByReason; //!< per-reason drops before it ended
    double m_queuePacketsSum;                        //!< sum of sampled lengths in packets
    double m_queueBytesSum;                          //!< sum of sampled lengths in bytes
    uint64_t m_samples;                              //!< number of samples
    std::unique_ptr<std::ofstream> m_trace;          //!< queue length CSV, if requested
};

} // namespace ns3

#endif /* BOTTLENECK_MONITOR_H */
