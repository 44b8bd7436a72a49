/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "udp-flow-meter.h"

#include "ns3/application-container.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/random-packet-source.h"
#include "ns3/seq-ts-header.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UdpFlowMeter");

UdpFlowMeter::UdpFlowMeter()
    : m_from(Seconds(0)),
      m_to(Time::Max()),
      m_keepDelays(false),
      m_windowBytes(0),
      m_received(0),
      m_delaySumSeconds(0)
{
}

void
UdpFlowMeter::SetWindow(Time from, Time to)
{
    m_from = from;
    m_to = to;
}

void
UdpFlowMeter::SetKeepDelays(bool keep)
{
    m_keepDelays = keep;
}

Ptr<PacketSink>
UdpFlowMeter::Install(Ptr<Node> node, uint16_t port)
{
    NS_LOG_FUNCTION(this << node << port);
    PacketSinkHelper helper("ns3::UdpSocketFactory",
                            InetSocketAddress(Ipv4Address::GetAny(), port));
    Ptr<PacketSink> sink = DynamicCast<PacketSink>(helper.Install(node).Get(0));
    sink->TraceConnectWithoutContext("Rx", MakeCallback(&UdpFlowMeter::Receive, this));
    return sink;
}

void
UdpFlowMeter::Receive(Ptr<const Packet> packet, [[maybe_unused]] const Address& from)
{
    SeqTsHeader header;
    packet->PeekHeader(header);
    const Time now = Simulator::Now();
    if (now >= m_from && now <= m_to)
    {
        m_windowBytes += packet->GetSize() + RandomPacketSource::IP_UDP_HEADERS;
    }
    if (header.GetTs() >= m_from && header.GetTs() < m_to)
    {
        m_received++;
        const Time delay = now - header.GetTs();
        m_delaySumSeconds += delay.GetSeconds();
        if (m_keepDelays)
        {
            m_delaysMs.push_back(delay.GetSeconds() * 1000);
        }
    }
}

uint64_t
UdpFlowMeter::GetWindowBytes() const
{
    return m_windowBytes;
}

uint64_t
UdpFlowMeter::GetReceived() const
{
    return m_received;
}

double
UdpFlowMeter::GetDelaySumSeconds() const
{
    return m_delaySumSeconds;
}

const std::vector<double>&
UdpFlowMeter::GetDelaysMs() const
{
    return m_delaysMs;
}

} // namespace ns3
