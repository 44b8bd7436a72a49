/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_LINK_H
#define SCENARIO_LINK_H

#include "ns3/data-rate.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/net-device-container.h"
#include "ns3/nstime.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/queue-size.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief A point-to-point link of a scenario helper (DumbbellScenario, ParkingLotScenario): its
 * rate and delay, how they are checked, and how the link and its /24 subnet are built.
 *
 * Only the studied device (the bottleneck's or a core link's forward device) has a queue disc:
 * the scenario installs it before the addresses. Every other device is left with none
 * (AssignSubnet removes the FqCoDel that Ipv4AddressHelper::Assign installs on devices without
 * a queue disc) and buffers in its own DropTail queue of UNSTUDIED_QUEUE_SIZE, the limit of the
 * FqCoDel it replaces, so that a burst no FqCoDel dropped is not dropped there either. The
 * nodes route with global routing alone (GetStackHelper): static routing's per-packet longest
 * prefix scan is consulted only for what global routing does not know (the loopback).
 */
struct ScenarioLink
{
    DataRate rate; //!< the link's rate
    Time delay;    //!< its one-way propagation delay

    /**
     * \param owner the scenario helper, for the error message (e.g. "DumbbellScenario")
     * \param name the link, for the error message (e.g. "access")
     * \param rate the link's rate, > 0
     * \param delay its one-way propagation delay, >= 0
     * \return the link; stops the program, naming \p owner and \p name, if rate or delay is out
     *         of range
     */
    static ScenarioLink Checked(const std::string& owner,
                                const std::string& name,
                                DataRate rate,
                                Time delay);

    /// \return a PointToPointHelper making links of this rate and delay
    PointToPointHelper GetHelper() const;

    /**
     * \return a PointToPointHelper making links of this rate and delay whose devices queue a
     *         single packet: the link a queue disc under study is installed on, so that the
     *         backlog builds in the queue disc, not in the device
     */
    PointToPointHelper GetQueueDiscLinkHelper() const;

    /**
     * Give a link's devices addresses in the /24 subnet 10.\p second.\p third.0, in order
     * (.1, .2).
     * \param address the helper assigning them
     * \param second the second byte of the subnet
     * \param third the third byte
     * \param devices the devices
     * \return their interfaces
     */
    static Ipv4InterfaceContainer AssignSubnet(Ipv4AddressHelper& address,
                                               uint32_t second,
                                               uint32_t third,
                                               const NetDeviceContainer& devices);

    /**
     * Assign addresses with \p address to \p devices, leaving without a queue disc every device
     * that had none before (ns-3 installs FqCoDel there) and giving such a device a DropTail
     * queue of UNSTUDIED_QUEUE_SIZE. A device whose queue disc was installed before keeps it.
     * \param address the helper assigning the addresses
     * \param devices the devices; each has a "TxQueue" attribute (point-to-point, CSMA)
     * \return their interfaces
     */
    static Ipv4InterfaceContainer AssignWithoutDefaultQueueDisc(Ipv4AddressHelper& address,
                                                                const NetDeviceContainer& devices);

    /**
     * \return an InternetStackHelper whose nodes consult global routing first (priority 10) and
     *         static routing only for what global routing has no route for (priority 0): a
     *         forwarded packet is not scanned against static routing's interface routes
     */
    static InternetStackHelper GetStackHelper();

    /// The device queue of a device without a queue disc: FqCoDelQueueDisc's default MaxSize
    static const QueueSize UNSTUDIED_QUEUE_SIZE;
    /// Priority of global routing in GetStackHelper's list (the higher is consulted first)
    static constexpr int16_t GLOBAL_ROUTING_PRIORITY = 10;
    /// Priority of static routing in GetStackHelper's list
    static constexpr int16_t STATIC_ROUTING_PRIORITY = 0;
};

} // namespace ns3

#endif /* SCENARIO_LINK_H */
