/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIO_ASSURED_SERVICE_HELPERS_H
#define RIO_ASSURED_SERVICE_HELPERS_H

// The helpers of examples/rio-assured-service.cc: the --traceFlow CSV trace (FlowTrace), the
// summaries of per-flow values (Summary, Summarize, Slice), the retransmission-timeout counter
// (CountTimeout) and the time averages of RIO's averages (AverageSampler).

#include "ns3/abort.h"
#include "ns3/bottleneck-flow-meter.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/rio-queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/tcp-socket-state.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

namespace ns3
{
namespace qdisclab
{
/// The helpers of examples/rio-assured-service.cc.
namespace assured
{

/**
 * \ingroup qdisc-lab
 * The --traceFlow trace: one CSV row per event of one flow (its data segments at the
 * bottleneck, its congestion window, slow-start threshold and congestion state), columns
 * time_s, event, seq, bytes, detail:
 *
 * - new / resent (arrival at the bottleneck), drop, deliver / spurious (departure; spurious:
 *   every byte had left the queue before): seq and payload bytes, detail "in" or "out";
 * - cwnd, ssthresh: the value in bytes;
 * - state: detail the new congestion state (Open, Disorder, CWR, Recovery, Loss).
 */
class FlowTrace
{
  public:
    /// \param path the CSV file to write
    explicit FlowTrace(const std::string& path)
        : m_out(path)
    {
        NS_ABORT_MSG_UNLESS(m_out, "--traceFile: cannot write '" << path << "'");
        m_out << "time_s,event,seq,bytes,detail\n";
    }

    /**
     * BottleneckFlowMeter event sink, for the traced flow only.
     * \param event what happened
     * \param seq the segment's sequence number
     * \param bytes its payload
     * \param in whether it is an IN packet
     */
    void Segment(BottleneckFlowMeter::Event event, uint32_t seq, uint32_t bytes, bool in)
    {
        static const char* const names[] = {"new", "resent", "drop", "deliver", "spurious"};
        Row(names[static_cast<int>(event)], seq, bytes, in ? "in" : "out");
    }

    /**
     * "CongestionWindow" / "SlowStartThreshold" trace sink.
     * \param event "cwnd" or "ssthresh"
     * \param value the new value, bytes
     */
    void Window(const char* event, uint32_t, uint32_t value)
    {
        Row(event, 0, value, "");
    }

    /**
     * "CongState" trace sink.
     * \param to the new state
     */
    void State(TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t to)
    {
        static const char* const names[] = {"Open", "Disorder", "CWR", "Recovery", "Loss"};
        Row("state", 0, 0, to < 5 ? names[to] : "other");
    }

    /**
     * Follow a sender socket's window and state traces.
     * \param socket the traced flow's sender socket
     */
    void Follow(Ptr<TcpSocketBase> socket)
    {
        socket->TraceConnectWithoutContext("CongestionWindow",
                                           MakeCallback(&FlowTrace::Window, this).Bind("cwnd"));
        socket->TraceConnectWithoutContext("SlowStartThreshold",
                                           MakeCallback(&FlowTrace::Window, this).Bind("ssthresh"));
        socket->TraceConnectWithoutContext("CongState", MakeCallback(&FlowTrace::State, this));
    }

  private:
    /// Write one row.
    void Row(const char* event, uint32_t seq, uint32_t bytes, const char* detail)
    {
        m_out << Simulator::Now().GetSeconds() << ',' << event << ',' << seq << ',' << bytes << ','
              << detail << '\n';
        NS_ABORT_MSG_IF(m_out.fail(), "--traceFile: writing the trace failed");
    }

    std::ofstream m_out; //!< the CSV file
};

/// Mean, minimum and maximum of some values (NaN for none).
struct Summary
{
    double mean = std::numeric_limits<double>::quiet_NaN(); //!< mean
    double min = std::numeric_limits<double>::quiet_NaN();  //!< minimum
    double max = std::numeric_limits<double>::quiet_NaN();  //!< maximum
};

/**
 * \param values the values
 * \return their mean, minimum and maximum
 */
inline Summary
Summarize(const std::vector<double>& values)
{
    Summary s;
    if (!values.empty())
    {
        double sum = 0;
        for (double v : values)
        {
            sum += v;
        }
        s.mean = sum / values.size();
        s.min = *std::min_element(values.begin(), values.end());
        s.max = *std::max_element(values.begin(), values.end());
    }
    return s;
}

/**
 * \param values some values
 * \param from the first index
 * \param to one past the last index
 * \return values[from, to)
 */
inline std::vector<double>
Slice(const std::vector<double>& values, uint32_t from, uint32_t to)
{
    return std::vector<double>(values.begin() + from, values.begin() + to);
}

/**
 * TcpSocketState "CongState" trace sink: count a flow's retransmission timeouts (entries into
 * CA_LOSS).
 * \param count the flow's counter
 * \param from the previous state
 * \param to the new state
 */
inline void
CountTimeout(uint64_t* count,
             TcpSocketState::TcpCongState_t from,
             TcpSocketState::TcpCongState_t to)
{
    if (to == TcpSocketState::CA_LOSS && from != TcpSocketState::CA_LOSS)
    {
        ++*count;
    }
}

/**
 * \ingroup qdisc-lab
 * Time averages of RIO's avg_in and avg_total, sampled at a fixed interval.
 */
struct AverageSampler
{
    Ptr<RioQueueDisc> rio; //!< the queue disc
    Time interval;         //!< sampling interval
    Time until;            //!< last sample time
    double inSum = 0;      //!< sum of sampled avg_in
    double totalSum = 0;   //!< sum of sampled avg_total
    uint64_t samples = 0;  //!< number of samples

    /// Take one sample and schedule the next.
    void Sample()
    {
        inSum += rio->GetAverage(1);
        totalSum += rio->GetAverage(rio->GetPrecedences());
        ++samples;
        if (Simulator::Now() + interval <= until)
        {
            Simulator::Schedule(interval, &AverageSampler::Sample, this);
        }
    }
};

} // namespace assured
} // namespace qdisclab
} // namespace ns3

#endif /* RIO_ASSURED_SERVICE_HELPERS_H */
