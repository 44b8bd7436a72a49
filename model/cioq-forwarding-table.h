/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CIOQ_FORWARDING_TABLE_H
#define CIOQ_FORWARDING_TABLE_H

#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief The forwarding table of a CioqSwitchNetDevice: where a frame leaves the switch.
 *
 * It holds the two kinds of knowledge the switch forwards by (the switch's Forwarding attribute
 * chooses which one it asks), kept apart from the device as BridgeNetDevice keeps its learning:
 *  - learned state, as a learning bridge: the port each source MAC address was last seen on,
 *    until an expiration time (entries found expired are removed);
 *  - a static port map, by destination MAC address, or, when the MAC address is not in the map,
 *    by the IPv4 destination of an IPv4 packet (point-to-point frames carry no MAC addresses).
 *
 * No simulator: the caller passes the current time. A lookup that finds nothing returns NONE;
 * the switch floods (learning) or drops (static) such frames.
 */
class CioqForwardingTable
{
  public:
    /// No port: the destination is unknown.
    static constexpr uint32_t NONE = UINT32_MAX;

    CioqForwardingTable();

    /**
     * Learn that \p source is behind \p port, until \p expiration.
     * \param source a MAC address
     * \param port a port index
     * \param expiration when this knowledge expires
     */
    void Learn(Mac48Address source, uint32_t port, Time expiration);

    /**
     * The learned port of \p destination; removes the entry if it has expired.
     * \param destination a MAC address
     * \param now the current time
     * \return its port, or NONE if unknown or expired (expired at \p now included)
     */
    uint32_t GetLearnedPort(Mac48Address destination, Time now);

    /**
     * Static port map entry: frames to \p address leave by \p port (replaces an earlier one).
     * \param address a destination MAC address
     * \param port a port index
     */
    void AddRoute(Mac48Address address, uint32_t port);

    /**
     * Static port map entry: IPv4 packets to \p address leave by \p port (replaces an earlier
     * one), used when the frame's destination MAC address is not in the map.
     * \param address a destination IPv4 address
     * \param port a port index
     */
    void AddRoute(Ipv4Address address, uint32_t port);

    /**
     * The static port of a frame: by its destination MAC address, else (IPv4 only) by the
     * destination of the IPv4 header at the start of \p packet.
     * \param destination the frame's destination MAC address
     * \param protocol its protocol number (EtherType)
     * \param packet its payload
     * \return the port, or NONE if the map has none
     */
    uint32_t GetStaticPort(Mac48Address destination,
                           uint16_t protocol,
                           Ptr<const Packet> packet) const;

    /**
     * Stop the program, naming the route and the range, if a static route names a port >=
     * \p ports.
     * \param ports N, the number of ports
     * \param who the name the message starts with (the switch's class)
     */
    void CheckPorts(uint32_t ports, const std::string& who) const;

    /// \return entries in the learned state (expired ones not looked up since included)
    std::size_t GetNLearned() const;

  private:
    /// Learned MAC state.
    struct LearnedState
    {
        uint32_t port;       //!< where the address was last seen
        Time expirationTime; //!< when that knowledge expires
    };

    std::map<Mac48Address, LearnedState> m_learned;      //!< MAC learning table
    std::map<Mac48Address, uint32_t> m_macRoutes;        //!< static MAC port map
    std::unordered_map<uint32_t, uint32_t> m_ipv4Routes; //!< static IPv4 port map
};

} // namespace ns3

#endif /* CIOQ_FORWARDING_TABLE_H */
