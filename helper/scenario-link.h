/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_LINK_H
#define SCENARIO_LINK_H

#include "ns3/data-rate.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/net-device-container.h"
#include "ns3/nstime.h"
#include "ns3/point-to-point-helper.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief A point-to-point link of a scenario helper (DumbbellScenario, ParkingLotScenario): its
 * rate and delay, how they are checked, and how the link and its /24 subnet are built.
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
};

} // namespace ns3

#endif /* SCENARIO_LINK_H */
