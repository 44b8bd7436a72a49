/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-bulk-sink.h"

#include "ns3/abort.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/qdisc-lab-compat.h"
#include "ns3/socket.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpBulkSink");

NS_OBJECT_ENSURE_REGISTERED(TcpBulkSink);

TypeId
TcpBulkSink::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TcpBulkSink")
            .SetParent<Application>()
            .SetGroupName("QdiscLab")
            .AddConstructor<TcpBulkSink>()
            .AddAttribute("Local",
                          "The address and port to listen on, e.g. "
                          "InetSocketAddress(Ipv4Address::GetAny(), 5000) or an "
                          "Inet6SocketAddress.",
                          AddressValue(),
                          MakeAddressAccessor(&TcpBulkSink::m_local),
                          MakeAddressChecker())
            .AddAttribute("ReadSize",
                          "Bytes asked for per Recv; 0 (the default): the accepted "
                          "connection's SegmentSize, one buffered segment per Recv.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&TcpBulkSink::m_readSize),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("Rx",
                            "Data read from a connection: (packet, the peer's address); once "
                            "per Recv.",
                            MakeTraceSourceAccessor(&TcpBulkSink::m_rxTrace),
                            "ns3::Packet::AddressTracedCallback");
    return tid;
}

TcpBulkSink::TcpBulkSink() = default;

TcpBulkSink::~TcpBulkSink() = default;

uint64_t
TcpBulkSink::GetTotalRx() const
{
    return m_totalRx;
}

const std::vector<Ptr<Socket>>&
TcpBulkSink::GetAcceptedSockets() const
{
    return m_accepted;
}

void
TcpBulkSink::DoDispose()
{
    m_listener = nullptr;
    m_accepted.clear();
    Application::DoDispose();
}

void
TcpBulkSink::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_UNLESS(InetSocketAddress::IsMatchingType(m_local) ||
                            Inet6SocketAddress::IsMatchingType(m_local),
                        "TcpBulkSink: Local must be an InetSocketAddress or an "
                        "Inet6SocketAddress, got "
                            << m_local);
    if (!m_listener)
    {
        m_listener = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
        NS_ABORT_MSG_IF(m_listener->Bind(m_local) != 0, "TcpBulkSink: cannot bind " << m_local);
        m_listener->Listen();
        m_listener->ShutdownSend();
    }
    m_listener->SetRecvPktInfo(true);
    m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                  MakeCallback(&TcpBulkSink::Accepted, this));
}

void
TcpBulkSink::Accepted(Ptr<Socket> socket, const Address& from)
{
    NS_LOG_FUNCTION(this << socket << from);
    const uint32_t readSize = qdisclab::ReadSizeFor(socket, m_readSize);
    socket->SetRecvCallback(qdisclab::MakeFunctorCallback<Callback<void, Ptr<Socket>>>(
        [this, readSize](Ptr<Socket> s) { Read(s, readSize); }));
    m_accepted.push_back(socket);
}

void
TcpBulkSink::Read(Ptr<Socket> socket, uint32_t readSize)
{
    Address from;
    while (Ptr<Packet> packet = socket->RecvFrom(readSize, 0, from))
    {
        if (packet->GetSize() == 0)
        {
            break; // end of file
        }
        m_totalRx += packet->GetSize();
        m_rxTrace(packet, from);
    }
}

void
TcpBulkSink::StopApplication()
{
    NS_LOG_FUNCTION(this);
    for (const Ptr<Socket>& socket : m_accepted)
    {
        socket->Close();
    }
    if (m_listener)
    {
        m_listener->Close();
        m_listener->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    }
}

uint32_t
qdisclab::ReadSizeFor(Ptr<Socket> socket, uint32_t configured)
{
    if (configured != 0)
    {
        return configured;
    }
    UintegerValue segmentSize;
    socket->GetAttribute("SegmentSize", segmentSize);
    NS_ABORT_MSG_IF(segmentSize.Get() == 0,
                    "ReadSize 0 reads one segment, but the accepted "
                    "socket's SegmentSize is 0");
    return static_cast<uint32_t>(segmentSize.Get());
}

} // namespace ns3
