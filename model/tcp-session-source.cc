/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-session-source.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/qdisc-lab-compat.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/tcp-socket.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpSessionSource");

NS_OBJECT_ENSURE_REGISTERED(TcpSessionSource);

TypeId
TcpSessionSource::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TcpSessionSource")
            .SetParent<Application>()
            .SetGroupName("QdiscLab")
            .AddConstructor<TcpSessionSource>()
            .AddAttribute("UnsentSegments",
                          "Segments each session keeps written to its socket beyond what TCP "
                          "has sent; at its stop time at most this much is left to send besides "
                          "the data in flight. >= 1.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&TcpSessionSource::m_unsentSegments),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

TcpSessionSource::TcpSessionSource()
    : m_unsentSegments(2)
{
    NS_LOG_FUNCTION(this);
}

TcpSessionSource::~TcpSessionSource() = default;

void
TcpSessionSource::AddSession(const Session& session)
{
    NS_LOG_FUNCTION(this << session.start << session.stop);
    NS_ABORT_MSG_UNLESS(session.start.IsPositive() && session.stop > session.start,
                        "TcpSessionSource::AddSession: need 0 <= start < stop, got start "
                            << session.start.As(Time::S) << ", stop " << session.stop.As(Time::S));
    NS_ABORT_MSG_IF(Simulator::Now().IsStrictlyPositive(),
                    "TcpSessionSource::AddSession: add sessions before the simulation starts");
    m_sessions.push_back(State{session});
}

uint32_t
TcpSessionSource::GetNSessions() const
{
    return static_cast<uint32_t>(m_sessions.size());
}

const TcpSessionSource::Counters&
TcpSessionSource::GetCounters() const
{
    return m_counters;
}

void
TcpSessionSource::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_sessions.clear();
    Application::DoDispose();
}

void
TcpSessionSource::StartApplication()
{
    NS_LOG_FUNCTION(this);
    const Time now = Simulator::Now();
    for (uint32_t i = 0; i < m_sessions.size(); ++i)
    {
        State& state = m_sessions[i];
        if (state.session.stop <= now)
        {
            continue;
        }
        const Time delay = state.session.start > now ? state.session.start - now : Time(0);
        state.startEvent = Simulator::Schedule(delay, &TcpSessionSource::StartSession, this, i);
        state.stopEvent =
            Simulator::Schedule(state.session.stop - now, &TcpSessionSource::StopSession, this, i);
    }
}

void
TcpSessionSource::StopApplication()
{
    NS_LOG_FUNCTION(this);
    for (uint32_t i = 0; i < m_sessions.size(); ++i)
    {
        Simulator::Cancel(m_sessions[i].startEvent);
        if (m_sessions[i].sending)
        {
            Simulator::Cancel(m_sessions[i].stopEvent);
            StopSession(i);
        }
    }
}

void
TcpSessionSource::StartSession(uint32_t index)
{
    State& state = m_sessions[index];
    NS_LOG_FUNCTION(this << index << state.session.peer);
    Ptr<Socket> socket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    const int bound =
        InetSocketAddress::IsMatchingType(state.session.peer) ? socket->Bind() : socket->Bind6();
    NS_ABORT_MSG_IF(bound != 0, "TcpSessionSource: session " << index << " cannot bind its socket");
    UintegerValue segmentSize;
    socket->GetAttribute("SegmentSize", segmentSize);
    state.segmentSize = static_cast<uint32_t>(segmentSize.Get());
    socket->SetConnectCallback(
        qdisclab::MakeFunctorCallback([this](Ptr<Socket>) { m_counters.connected++; }),
        qdisclab::MakeFunctorCallback([this](Ptr<Socket>) { m_counters.failed++; }));
    socket->TraceConnectWithoutContext(
        "State",
        qdisclab::MakeFunctorCallback([this](TcpSocket::TcpStates_t, TcpSocket::TcpStates_t state) {
            m_counters.closed += state == TcpSocket::CLOSED;
        }));
    socket->SetDataSentCallback(qdisclab::MakeFunctorCallback(
        [this, index](Ptr<Socket>, uint32_t bytes) { DataSent(index, bytes); }));
    // ns-3 < 3.44 crashes when the sent data exactly fills the peer's window (see
    // qdisclab::GuardedReceiveWindow); the guard makes it decide like 3.44, before Connect.
    qdisclab::GuardTcpSocketFullWindow(socket);
    socket->Connect(state.session.peer);
    state.socket = socket;
    state.sending = true;
    state.unsent = 0;
    m_counters.started++;
    Refill(index);
}

void
TcpSessionSource::StopSession(uint32_t index)
{
    State& state = m_sessions[index];
    NS_LOG_FUNCTION(this << index);
    if (!state.sending)
    {
        return;
    }
    state.sending = false;
    m_counters.stopped++;
    // Detach first: the close sends what is left (at most UnsentSegments segments and the data
    // in flight) without this application.
    state.socket->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                                     MakeNullCallback<void, Ptr<Socket>>());
    state.socket->SetDataSentCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
    state.socket->Close();
}

void
TcpSessionSource::Refill(uint32_t index)
{
    State& state = m_sessions[index];
    const uint32_t target = m_unsentSegments * state.segmentSize;
    if (state.unsent >= target)
    {
        return;
    }
    const uint32_t bytes = target - state.unsent;
    const int written = state.socket->Send(Create<Packet>(bytes));
    if (written > 0)
    {
        state.unsent += static_cast<uint32_t>(written);
        m_counters.bytesWritten += static_cast<uint32_t>(written);
    }
}

void
TcpSessionSource::DataSent(uint32_t index, uint32_t bytes)
{
    State& state = m_sessions[index];
    state.unsent -= std::min(bytes, state.unsent);
    m_counters.bytesSent += bytes;
    if (state.sending)
    {
        Refill(index);
    }
}

} // namespace ns3
