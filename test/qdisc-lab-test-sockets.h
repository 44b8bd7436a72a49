/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QDISC_LAB_TEST_SOCKETS_H
#define QDISC_LAB_TEST_SOCKETS_H

/**
 * \file
 * \ingroup qdisc-lab-tests
 * UDP traffic for the module's scenario test suites: a sink that records every datagram it
 * receives (when, from whom, how large) and a source that sends a burst at a given time.
 */

#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/qdisc-lab-compat.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/udp-socket-factory.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace qdisclab
{
namespace test
{

/// One datagram as received by a sink socket.
struct Arrival
{
    Time at;          //!< reception time
    Ipv4Address from; //!< source address
    uint32_t bytes;   //!< payload size
};

/**
 * Bind a UDP sink on \p node that appends every datagram to \p arrivals.
 * \param node the receiving node
 * \param port the UDP port
 * \param arrivals where datagrams are recorded
 * \return the socket
 */
inline Ptr<Socket>
InstallSink(Ptr<Node> node, uint16_t port, std::vector<Arrival>* arrivals)
{
    Ptr<Socket> sink = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
    sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
    sink->SetRecvCallback(qdisclab::MakeFunctorCallback([arrivals](Ptr<Socket> socket) {
        Address from;
        while (Ptr<Packet> packet = socket->RecvFrom(from))
        {
            arrivals->push_back({Simulator::Now(),
                                 InetSocketAddress::ConvertFrom(from).GetIpv4(),
                                 packet->GetSize()});
        }
    }));
    return sink;
}

/**
 * Send \p count datagrams of \p bytes from \p node to \p to at time \p at, back to back.
 * \param node the sender
 * \param to the destination
 * \param at when
 * \param count how many
 * \param bytes payload size of each
 * \return the socket
 */
inline Ptr<Socket>
ScheduleBurst(Ptr<Node> node, InetSocketAddress to, Time at, uint32_t count, uint32_t bytes)
{
    Ptr<Socket> source = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
    source->Bind();
    qdisclab::Schedule(at, [source, to, count, bytes]() {
        for (uint32_t i = 0; i < count; ++i)
        {
            source->SendTo(Create<Packet>(bytes), 0, to);
        }
    });
    return source;
}

} // namespace test
} // namespace qdisclab
} // namespace ns3

#endif /* QDISC_LAB_TEST_SOCKETS_H */
