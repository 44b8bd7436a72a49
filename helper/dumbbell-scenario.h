/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DUMBBELL_SCENARIO_H
#define DUMBBELL_SCENARIO_H

#include "ns3/data-rate.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/packet-sink.h"
#include "ns3/queue-disc.h"
#include "ns3/scenario-link.h"
#include "ns3/tcp-bulk-sink.h"
#include "ns3/traffic-control-helper.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief Builds the classic dumbbell used by queue-management studies.
 *
 * \verbatim
 *   left[0] --+                                          +-- right[0]
 *   left[1] --+-- leftRouter ==== bottleneck ==== rightRouter --+-- right[1]
 *     ...     |                                          |     ...
 *   left[n-1]-+                                          +-- right[n-1]
 * \endverbatim
 *
 * All links are point-to-point. The queue disc under study is installed on the left router's
 * bottleneck device (the direction senders -> receivers); its device queue is one packet long,
 * so the backlog builds in the queue disc, as in ns-3's own RED examples. Every other device
 * has no queue disc and a DropTail device queue of ScenarioLink::UNSTUDIED_QUEUE_SIZE (see
 * ScenarioLink). IPv4 addresses come from 10.1.0.0/16 (access links, one /24 each) and
 * 10.2.0.0/24 (bottleneck); routes are computed by global routing, consulted before static
 * routing (ScenarioLink::GetStackHelper).
 *
 * Usage: set the links and the queue disc, call Build(), then install applications on
 * GetLeft(i) / GetRight(i), addressing GetRightAddress(i).
 */
class DumbbellScenario
{
  public:
    DumbbellScenario();

    /**
     * \param n the number of sender (left) and receiver (right) hosts; must be >= 1
     */
    void SetLeafCount(uint32_t n);

    /**
     * \param rate the access links' rate (default 100 Mb/s)
     * \param delay their one-way propagation delay (default 1 ms)
     */
    void SetAccessLink(DataRate rate, Time delay);

    /**
     * \param rate the bottleneck's rate (default 10 Mb/s)
     * \param delay its one-way propagation delay (default 20 ms)
     */
    void SetBottleneckLink(DataRate rate, Time delay);

    /**
     * \param helper configures the queue disc installed at the bottleneck (default: ns-3's
     *        FifoQueueDisc with its default size)
     */
    void SetBottleneckQueueDisc(const TrafficControlHelper& helper);

    /**
     * Create nodes, links, the Internet stack, addresses and routes. Call once.
     */
    void Build();

    /**
     * \param i host index, < GetLeafCount()
     * \return the i-th sender host
     */
    Ptr<Node> GetLeft(uint32_t i) const;

    /**
     * \param i host index, < GetLeafCount()
     * \return the i-th receiver host
     */
    Ptr<Node> GetRight(uint32_t i) const;

    /**
     * \param i host index, < GetLeafCount()
     * \return the i-th receiver's IPv4 address
     */
    Ipv4Address GetRightAddress(uint32_t i) const;

    /**
     * \param i host index, < GetLeafCount()
     * \return the i-th sender's IPv4 address
     */
    Ipv4Address GetLeftAddress(uint32_t i) const;

    /**
     * The i-th sender's own device on its access link: where a per-host egress queue disc
     * goes (a traffic conditioner such as a DSCP marker, metering the host's packets before
     * they reach the left router).
     * \param i host index, < GetLeafCount()
     * \return the i-th sender's access device
     */
    Ptr<NetDevice> GetLeftDevice(uint32_t i) const;

    /**
     * Start a TCP bulk transfer (BulkSendApplication, unlimited) from left i to right i. On
     * ns-3 < 3.44 the sender's socket gets qdisclab::GuardTcpSocketFullWindow, which keeps it
     * clear of that version's zero-byte-segment crash without changing any run that does not
     * crash. Call before Simulator::Run.
     * \param i the pair
     * \param start when the sender starts
     * \param port the receiver's port
     * \return the receiver's sink (a TcpBulkSink: PacketSink's behaviour, one segment per read)
     */
    Ptr<TcpBulkSink> AddBulkTcpFlow(uint32_t i, Time start, uint16_t port = 5000);

    /**
     * Start a UDP on/off flow (OnOffApplication with constant on and off times) from left i to
     * right i.
     * \param i the pair
     * \param rate the sending rate while on
     * \param packetSize the UDP payload size in bytes
     * \param onTime length of each on period
     * \param offTime length of each off period
     * \param start when the sender starts
     * \param port the receiver's port
     * \return the receiver's sink
     */
    Ptr<PacketSink> AddOnOffUdpFlow(uint32_t i,
                                    DataRate rate,
                                    uint32_t packetSize,
                                    Time onTime,
                                    Time offTime,
                                    Time start,
                                    uint16_t port = 6000);

    /// \return the number of sender/receiver pairs
    uint32_t GetLeafCount() const;

    /// \return the router on the senders' side
    Ptr<Node> GetLeftRouter() const;

    /// \return the router on the receivers' side
    Ptr<Node> GetRightRouter() const;

    /// \return the queue disc under study, on the left router's bottleneck device
    Ptr<QueueDisc> GetBottleneckQueueDisc() const;

    /// \return the left router's bottleneck device
    Ptr<NetDevice> GetBottleneckDevice() const;

    /// \return the bottleneck's rate
    DataRate GetBottleneckRate() const;

    /// \return the bottleneck's one-way propagation delay
    Time GetBottleneckDelay() const;

  private:
    /// Stop the program if Build() has not been called, naming the accessor.
    /// \param what the accessor called too early
    void RequireBuilt(const char* what) const;

    /// Stop the program if a host index is out of range.
    /// \param i the index
    void RequireLeaf(uint32_t i) const;

    uint32_t m_leafCount;                     //!< sender/receiver pairs
    ScenarioLink m_access;                    //!< access links' rate and delay
    ScenarioLink m_bottleneck;                //!< bottleneck's rate and delay
    TrafficControlHelper m_bottleneckTc;      //!< queue disc under study
    bool m_built;                             //!< whether Build() ran
    NodeContainer m_left;                     //!< senders
    NodeContainer m_right;                    //!< receivers
    NodeContainer m_routers;                  //!< left router, right router
    NetDeviceContainer m_bottleneckDevices;   //!< left, right router bottleneck devices
    NetDeviceContainer m_leftDevices;         //!< senders' access devices
    Ipv4InterfaceContainer m_leftInterfaces;  //!< senders' interfaces
    Ipv4InterfaceContainer m_rightInterfaces; //!< receivers' interfaces
    Ptr<QueueDisc> m_bottleneckQueueDisc;     //!< the queue disc under study
};

} // namespace ns3

#endif /* DUMBBELL_SCENARIO_H */
