/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef UDP_FLOW_METER_H
#define UDP_FLOW_METER_H

#include "ns3/address.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/packet-sink.h"
#include "ns3/packet.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief What a UDP sink saw of the packets of a RandomPacketSource (one flow, or a group of
 * flows sharing the sink), over a measurement window [from, to].
 *
 * Every packet of a RandomPacketSource starts with a SeqTsHeader carrying its send time. The
 * meter counts
 *  - the IPv4 bytes (UDP payload + RandomPacketSource::IP_UDP_HEADERS) received in [from, to]:
 *    the throughput window;
 *  - the packets sent in [from, to) and received (whenever they arrive; a program that runs on
 *    after `to` lets the late ones drain), with the sum of their one-way delays and, if asked
 *    (SetKeepDelays), each delay.
 *
 * Install() puts a UDP PacketSink on a node and connects the meter to its "Rx" trace. The meter
 * must stay at its address while the simulation runs (the trace holds a pointer to it): keep
 * meters in a container that no longer grows, or on the stack of main().
 */
class UdpFlowMeter
{
  public:
    UdpFlowMeter();

    /**
     * \param from start of the measurement window (the end of the warm-up)
     * \param to end of the window (when the sources stop)
     */
    void SetWindow(Time from, Time to);

    /**
     * \param keep whether to keep the delay of every counted packet (GetDelaysMs; default
     *        false: only their sum)
     */
    void SetKeepDelays(bool keep);

    /**
     * Install a UDP PacketSink on a node, listening on any address, and meter what it receives.
     * \param node the node
     * \param port the sink's UDP port
     * \return the sink
     */
    Ptr<PacketSink> Install(Ptr<Node> node, uint16_t port);

    /**
     * PacketSink "Rx" trace sink: account one received packet.
     * \param packet the packet (UDP payload, starting with the SeqTsHeader)
     * \param from the sender's address
     */
    void Receive(Ptr<const Packet> packet, const Address& from);

    /// \return the IPv4 bytes received in [from, to]
    uint64_t GetWindowBytes() const;

    /// \return the packets sent in [from, to) and received
    uint64_t GetReceived() const;

    /// \return the sum of their one-way delays in seconds
    double GetDelaySumSeconds() const;

    /// \return their one-way delays in ms, in order of arrival (empty unless SetKeepDelays)
    const std::vector<double>& GetDelaysMs() const;

  private:
    Time m_from;                    //!< start of the measurement window
    Time m_to;                      //!< end of the window
    bool m_keepDelays;              //!< whether to keep every delay
    uint64_t m_windowBytes;         //!< IPv4 bytes received in [m_from, m_to]
    uint64_t m_received;            //!< packets sent in [m_from, m_to) and received
    double m_delaySumSeconds;       //!< sum of their one-way delays, seconds
    std::vector<double> m_delaysMs; //!< their one-way delays in ms (if m_keepDelays)
};

} // namespace ns3

#endif /* UDP_FLOW_METER_H */
