/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-session-sink.h"

#include "ns3/abort.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/qdisc-lab-compat.h"
#include "ns3/socket.h"
#include "ns3/tcp-bulk-sink.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpSessionSink");

NS_OBJECT_ENSURE_REGISTERED(TcpSessionSink);

TypeId
TcpSessionSink::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TcpSessionSink")
                            .SetParent<Application>()
                            .SetGroupName("QdiscLab")
                            .AddConstructor<TcpSessionSink>()
                            .AddAttribute("Local",
                                          "The address and port to listen on, e.g. "
                                          "InetSocketAddress(Ipv4Address::GetAny(), 5000).",
                                          AddressValue(),
                                          MakeAddressAccessor(&TcpSessionSink::m_local),
                                          MakeAddressChecker())
                            .AddAttribute("Ports",
                                          "Number of consecutive ports to listen on, from "
                                          "Local's port on (1 .. 65535; Local's port + Ports "
                                          "- 1 must not exceed 65535).",
                                          UintegerValue(1),
                                          MakeUintegerAccessor(&TcpSessionSink::m_ports),
                                          MakeUintegerChecker<uint32_t>(1, 65535))
                            .AddAttribute("ReadSize",
                                          "Bytes asked for per Recv; 0 (the default): the "
                                          "accepted connection's SegmentSize, one buffered "
                                          "segment per Recv (TcpBulkSink says why).",
                                          UintegerValue(0),
                                          MakeUintegerAccessor(&TcpSessionSink::m_readSize),
                                          MakeUintegerChecker<uint32_t>())
                            .AddTraceSource("Rx",
                                            "Data read from a connection: (packet, socket).",
                                            MakeTraceSourceAccessor(&TcpSessionSink::m_rxTrace),
                                            "ns3::TcpSessionSink::RxTracedCallback");
    return tid;
}

TcpSessionSink::TcpSessionSink() = default;

TcpSessionSink::~TcpSessionSink() = default;

const TcpSessionSink::Counters&
TcpSessionSink::GetCounters() const
{
    return m_counters;
}

void
TcpSessionSink::DoDispose()
{
    m_listeners.clear();
    m_accepted.clear();
    Application::DoDispose();
}

void
TcpSessionSink::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_local.IsInvalid(), "TcpSessionSink: set the Local address to listen on");
    const bool ipv4 = InetSocketAddress::IsMatchingType(m_local);
    NS_ABORT_MSG_UNLESS(ipv4 || Inet6SocketAddress::IsMatchingType(m_local),
                        "TcpSessionSink: Local must be an InetSocketAddress or an "
                        "Inet6SocketAddress, got "
                            << m_local);
    const uint32_t first = ipv4 ? InetSocketAddress::ConvertFrom(m_local).GetPort()
                                : Inet6SocketAddress::ConvertFrom(m_local).GetPort();
    NS_ABORT_MSG_IF(first + m_ports - 1 > 65535,
                    "TcpSessionSink: Ports " << m_ports << " from port " << first
                                             << " run past 65535");
    for (uint32_t i = 0; i < m_ports; ++i)
    {
        const auto port = static_cast<uint16_t>(first + i);
        Address local = m_local;
        if (ipv4)
        {
            InetSocketAddress address = InetSocketAddress::ConvertFrom(m_local);
            address.SetPort(port);
            local = address;
        }
        else
        {
            Inet6SocketAddress address = Inet6SocketAddress::ConvertFrom(m_local);
            address.SetPort(port);
            local = address;
        }
        Ptr<Socket> listener = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
        NS_ABORT_MSG_IF(listener->Bind(local) != 0, "TcpSessionSink: cannot bind " << local);
        listener->Listen();
        listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeCallback(&TcpSessionSink::Accepted, this));
        m_listeners.push_back(listener);
    }
}

void
TcpSessionSink::Accepted(Ptr<Socket> socket, const Address& from)
{
    NS_LOG_FUNCTION(this << socket << from);
    m_counters.accepted++;
    m_accepted.push_back(socket);
    const uint32_t readSize = qdisclab::ReadSizeFor(socket, m_readSize);
    socket->SetRecvCallback(qdisclab::MakeFunctorCallback<Callback<void, Ptr<Socket>>>(
        [this, readSize](Ptr<Socket> s) { ReadBy(s, readSize); }));
    socket->SetCloseCallbacks(MakeCallback(&TcpSessionSink::PeerClosed, this),
                              qdisclab::MakeFunctorCallback([this](Ptr<Socket> s) {
                                  m_counters.failed++;
                                  s->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
                              }));
}

void
TcpSessionSink::StopApplication()
{
    NS_LOG_FUNCTION(this);
    for (const Ptr<Socket>& listener : m_listeners)
    {
        listener->Close();
        listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeNullCallback<void, Ptr<Socket>, const Address&>());
    }
}

void
TcpSessionSink::Read(Ptr<Socket> socket)
{
    ReadBy(socket, qdisclab::ReadSizeFor(socket, m_readSize));
}

void
TcpSessionSink::ReadBy(Ptr<Socket> socket, uint32_t readSize)
{
    while (Ptr<Packet> packet = socket->Recv(readSize, 0))
    {
        if (packet->GetSize() == 0)
        {
            break;
        }
        m_counters.bytesReceived += packet->GetSize();
        m_rxTrace(packet, socket);
    }
}

void
TcpSessionSink::PeerClosed(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    m_counters.closed++;
    Read(socket);
    socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    // In CLOSE_WAIT this sends our FIN: TcpSocketBase expects the application to close here.
    socket->Close();
}

} // namespace ns3
