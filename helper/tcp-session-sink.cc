/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-session-sink.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/qdisc-lab-compat.h"
#include "ns3/socket.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/trace-source-accessor.h"

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
    m_listener = nullptr;
    m_accepted.clear();
    Application::DoDispose();
}

void
TcpSessionSink::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_local.IsInvalid(), "TcpSessionSink: set the Local address to listen on");
    m_listener = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    NS_ABORT_MSG_IF(m_listener->Bind(m_local) != 0, "TcpSessionSink: cannot bind " << m_local);
    m_listener->Listen();
    m_listener->SetAcceptCallback(
        MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
        qdisclab::MakeFunctorCallback([this](Ptr<Socket> socket, const Address&) {
            m_counters.accepted++;
            m_accepted.push_back(socket);
            socket->SetRecvCallback(MakeCallback(&TcpSessionSink::Read, this));
            socket->SetCloseCallbacks(MakeCallback(&TcpSessionSink::PeerClosed, this),
                                      qdisclab::MakeFunctorCallback([this](Ptr<Socket> s) {
                                          m_counters.failed++;
                                          s->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
                                      }));
        }));
}

void
TcpSessionSink::StopApplication()
{
    NS_LOG_FUNCTION(this);
    if (m_listener)
    {
        m_listener->Close();
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeNullCallback<void, Ptr<Socket>, const Address&>());
    }
}

void
TcpSessionSink::Read(Ptr<Socket> socket)
{
    while (Ptr<Packet> packet = socket->Recv())
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
