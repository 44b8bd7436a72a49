/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef BOTTLENECK_FLOW_METER_H
#define BOTTLENECK_FLOW_METER_H

#include "tcp-segment-ledger.h"

#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/queue-disc.h"

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief Per-flow accounting at a bottleneck queue disc, each flow known by its IPv4 source
 * address: the bytes leaving the queue split into IN and OUT by DSCP, the packets arriving and
 * dropped by precedence, and, for TCP, which data segments are retransmissions and which of
 * those brought the receiver bytes it already had (spurious), from a TcpSegmentLedger per flow.
 *
 * Arrivals are the queue disc's "Enqueue" and "Drop" traces (every drop of a RIO-like queue
 * disc happens before enqueue), departures its "Dequeue" trace. Counters cover the window
 * [from, to]; the ledgers see the whole run. A departed segment counts as delivered: valid when
 * nothing is lost between the queue and the receiver.
 *
 * \code
 *   BottleneckFlowMeter meter(Seconds(10), Seconds(100));
 *   meter.AddFlow(senderAddress);            // flow 0
 *   meter.Connect(bottleneckQueueDisc);
 *   ...
 *   meter.GetCounters(0).outDrops;           // after Simulator::Run()
 * \endcode
 */
class BottleneckFlowMeter
{
  public:
    /// One flow's counters over the window.
    struct Counters
    {
        uint64_t inBytes = 0;          //!< IPv4 bytes of IN packets dequeued
        uint64_t outBytes = 0;         //!< IPv4 bytes of OUT packets dequeued
        uint64_t inArrivals = 0;       //!< IN packets arriving (enqueued or dropped)
        uint64_t outArrivals = 0;      //!< OUT packets arriving
        uint64_t inDrops = 0;          //!< IN packets dropped by the queue disc
        uint64_t outDrops = 0;         //!< OUT packets dropped by the queue disc
        uint64_t sentPayload = 0;      //!< TCP payload bytes arriving
        uint64_t resentPayload = 0;    //!< of which sent before (retransmissions)
        uint64_t duplicatePayload = 0; //!< TCP payload bytes dequeued that had been before
    };

    /// What happened to one of a flow's TCP data segments at the queue disc.
    enum class Event
    {
        SEND_NEW,         //!< arrived, new data
        SEND_RESENT,      //!< arrived, data sent before (a retransmission)
        DROP,             //!< dropped by the queue disc
        DELIVER,          //!< dequeued, bytes the receiver did not have
        DELIVER_SPURIOUS, //!< dequeued, every byte delivered before
    };

    /// Called for every data segment of every flow: (flow, event, sequence number, payload
    /// bytes, whether the packet is IN), at any time (not only in the window).
    using EventCallback = std::function<void(uint32_t, Event, uint32_t, uint32_t, bool)>;

    /**
     * \param from start of the counting window
     * \param to end of the counting window
     */
    BottleneckFlowMeter(Time from, Time to);

    /**
     * \param source a sender's address
     * \return the flow index given to it (0, 1, ... in the order added)
     */
    uint32_t AddFlow(Ipv4Address source);

    /// \param queue the queue disc whose Enqueue, Drop and Dequeue traces to follow
    void Connect(Ptr<QueueDisc> queue);

    /// \param callback called for every data segment event (see EventCallback)
    void SetEventCallback(EventCallback callback);

    /// \param flow a flow index \return its counters
    const Counters& GetCounters(uint32_t flow) const;

    /// \param flow a flow index \return its IPv4 throughput in Mb/s over the window
    double GetMbps(uint32_t flow) const;

    /// \param flow a flow index \return the throughput of its IN packets in Mb/s over the window
    double GetInMbps(uint32_t flow) const;

    /**
     * \param dscp a packet's DSCP
     * \return whether it is the lowest drop precedence of an AF class (AF11, AF21, AF31, AF41):
     *         an IN packet for RIO
     */
    static bool IsIn(Ipv4Header::DscpType dscp);

  private:
    /// How a queue disc trace saw a packet.
    enum class Stage
    {
        ENQUEUED,
        DROPPED,
        DEQUEUED,
    };

    /**
     * Account one packet.
     * \param stage where it was seen
     * \param item the packet
     */
    void Account(Stage stage, Ptr<const QueueDiscItem> item);

    Time m_from;                                    //!< window start
    Time m_to;                                      //!< window end
    std::unordered_map<uint32_t, uint32_t> m_index; //!< flow index by source address
    std::vector<Counters> m_counters;               //!< per flow
    std::vector<TcpSegmentLedger> m_ledgers;        //!< per flow
    EventCallback m_callback;                       //!< segment events, if set
};

} // namespace ns3

#endif /* BOTTLENECK_FLOW_METER_H */
