/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PARKING_LOT_SCENARIO_H
#define PARKING_LOT_SCENARIO_H

#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/queue-disc.h"
#include "ns3/scenario-link.h"
#include "ns3/traffic-control-helper.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief Builds a parking lot: a chain of routers whose every core link is a bottleneck shared
 * by flows that cross the whole chain and cross traffic that uses that one link.
 *
 * With H hops (core links) there are 3H + 3 nodes, numbered as in Bakiras et al.'s Fig. 3
 * (H = 2, nine nodes n0 ... n8):
 *
 * \verbatim
 *            n5          n7                   H = 2:  n0           main source
 *             |           |                           n1, n2, n3   routers
 *   n0 ---- n1 ===hop0=== n2 ===hop1=== n3 ---- n4    n4           main sink
 *                         |             |             n5 -> n6     cross traffic of hop 0
 *                        n6            n8             n7 -> n8     cross traffic of hop 1
 * \endverbatim
 *
 * In general node 0 is the main source, nodes 1 .. H+1 the routers, node H+2 the main sink,
 * and nodes H+3+2h and H+4+2h the source and sink of hop h's cross traffic, attached to the
 * routers at either end of hop h (routers h+1 and h+2). Main-source-to-main-sink traffic
 * crosses every hop, hop h's cross traffic only hop h.
 *
 * All links are point-to-point. The queue disc under study is installed on every core link in
 * the forward direction (router h+1 towards router h+2), with a one-packet device queue so
 * that the backlog builds in the queue disc; every other device has no queue disc and a
 * DropTail device queue of ScenarioLink::UNSTUDIED_QUEUE_SIZE (see ScenarioLink). Hosts (every
 * node but the routers) have one address each: host n gets 10.1.n.1 on its access link
 * 10.1.n.0/24; core link h is 10.2.h.0/24. Routes come from global routing, consulted before
 * static routing (ScenarioLink::GetStackHelper).
 *
 * Usage: set the hop count, the links and the queue disc, call Build(), then install
 * applications on GetMainSource() / GetCrossSource(h), addressing GetHostAddress(...) of the
 * sinks.
 */
class ParkingLotScenario
{
  public:
    ParkingLotScenario();

    /**
     * \param hops the number of core links H, 1 .. 84 (default 2, as in Fig. 3); resets the
     *        per-hop core link settings to the current default core link
     */
    void SetHopCount(uint32_t hops);

    /**
     * \param rate the access links' rate (every host's link to its router; default 100 Mb/s)
     * \param delay their one-way propagation delay (default 1 ms)
     */
    void SetAccessLink(DataRate rate, Time delay);

    /**
     * Set every core link.
     * \param rate the core links' rate (default 10 Mb/s)
     * \param delay their one-way propagation delay (default 1 ms)
     */
    void SetCoreLink(DataRate rate, Time delay);

    /**
     * Set one core link.
     * \param hop the hop, < GetHopCount()
     * \param rate its rate
     * \param delay its one-way propagation delay
     */
    void SetCoreLink(uint32_t hop, DataRate rate, Time delay);

    /**
     * \param helper configures the queue disc installed on every core link's forward device
     *        (default: ns-3's FifoQueueDisc with its default size); each link gets its own
     */
    void SetCoreQueueDisc(const TrafficControlHelper& helper);

    /**
     * Create nodes, links, the Internet stack, addresses and routes. Call once.
     */
    void Build();

    /// \return the number of core links H
    uint32_t GetHopCount() const;

    /// \return the number of nodes, 3H + 3
    uint32_t GetNodeCount() const;

    /**
     * \param n the node's number (see the class description), < GetNodeCount()
     * \return node n
     */
    Ptr<Node> GetNode(uint32_t n) const;

    /// \return the main source (node 0)
    Ptr<Node> GetMainSource() const;

    /// \return the main sink (node H + 2)
    Ptr<Node> GetMainSink() const;

    /**
     * \param r the router's position along the chain, 0 .. H (node r + 1)
     * \return the router
     */
    Ptr<Node> GetRouter(uint32_t r) const;

    /**
     * \param hop a hop, < GetHopCount()
     * \return the source of its cross traffic (node H + 3 + 2 hop)
     */
    Ptr<Node> GetCrossSource(uint32_t hop) const;

    /**
     * \param hop a hop, < GetHopCount()
     * \return the sink of its cross traffic (node H + 4 + 2 hop)
     */
    Ptr<Node> GetCrossSink(uint32_t hop) const;

    /**
     * \param n a host's node number (not a router's)
     * \return its IPv4 address, 10.1.n.1
     */
    Ipv4Address GetHostAddress(uint32_t n) const;

    /**
     * \param hop a hop, < GetHopCount()
     * \return the queue disc under study on that hop's forward device
     */
    Ptr<QueueDisc> GetCoreQueueDisc(uint32_t hop) const;

    /**
     * \param hop a hop, < GetHopCount()
     * \return the forward device of that hop (on router hop + 1)
     */
    Ptr<NetDevice> GetCoreDevice(uint32_t hop) const;

    /**
     * \param hop a hop, < GetHopCount()
     * \return its rate
     */
    DataRate GetCoreRate(uint32_t hop) const;

    /**
     * \param hop a hop, < GetHopCount()
     * \return its one-way propagation delay
     */
    Time GetCoreDelay(uint32_t hop) const;

    /// \return the access links' rate
    DataRate GetAccessRate() const;

    /// \return the access links' one-way propagation delay
    Time GetAccessDelay() const;

  private:
    /// Stop the program if Build() has not been called, naming the accessor.
    /// \param what the accessor called too early
    void RequireBuilt(const char* what) const;

    /// Stop the program if a hop index is out of range.
    /// \param hop the index
    void RequireHop(uint32_t hop) const;

    /// \return the node number of the main sink, H + 2
    uint32_t MainSinkNumber() const;

    uint32_t m_hops;                          //!< number of core links H
    ScenarioLink m_access;                    //!< access links' rate and delay
    ScenarioLink m_defaultCore;               //!< core link setting new hop counts start with
    std::vector<ScenarioLink> m_core;         //!< each core link's setting
    TrafficControlHelper m_coreTc;            //!< queue disc under study
    bool m_built;                             //!< whether Build() ran
    NodeContainer m_nodes;                    //!< every node, by number
    std::vector<Ipv4Address> m_hostAddress;   //!< address of each node (routers: 0.0.0.0)
    NetDeviceContainer m_coreDevices;         //!< forward device of each hop
    std::vector<Ptr<QueueDisc>> m_coreQueues; //!< queue disc under study of each hop
};

} // namespace ns3

#endif /* PARKING_LOT_SCENARIO_H */
