/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAFFIC_METER_H
#define TRAFFIC_METER_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief A DiffServ meter (RFC 2475 sec. 2.3.3.1): measures a flow's packets against its
 * profile and gives each a colour, its drop precedence.
 *
 * Implementations (TokenBucketMeter, SrTcmMeter, TrTcmMeter) are pure logic: each packet comes
 * with its arrival time, its size in bytes (of the IP packet: RFC 2697/2698 count the IP
 * header) and its colour on arrival, and times must not decrease.
 *
 * Colour-blind and colour-aware modes (RFC 2697/2698 sec. 3): a colour-aware meter takes each
 * packet's colour on arrival into account; a colour-blind one assumes none. In all three
 * meters, colour-blind metering is exactly colour-aware metering of an all-green stream (the
 * RFCs' colour-aware rules reduce to the colour-blind ones when every packet is green), so a
 * colour-blind user passes GREEN.
 */
class TrafficMeter
{
  public:
    /// A packet's colour: its drop precedence (AF PHB, RFC 2597): AFx1, AFx2, AFx3.
    enum Color : uint8_t
    {
        GREEN = 0,  //!< in profile, low drop precedence (AFx1)
        YELLOW = 1, //!< medium drop precedence (AFx2); the two-colour marker's OUT
        RED = 2,    //!< high drop precedence (AFx3)
    };

    /// Number of colours.
    static constexpr uint8_t N_COLORS = 3;

    virtual ~TrafficMeter() = default;

    /**
     * Meter one packet.
     * \param now its arrival time, not earlier than the previous packet's
     * \param bytes its size in bytes
     * \param color its colour on arrival (GREEN when colour-blind)
     * \return its colour after metering
     */
    virtual Color Meter(Time now, uint32_t bytes, Color color) = 0;

    /**
     * \param color a colour
     * \return its name: "green", "yellow" or "red"
     */
    static const char* ColorName(Color color);
};

} // namespace ns3

#endif /* TRAFFIC_METER_H */
