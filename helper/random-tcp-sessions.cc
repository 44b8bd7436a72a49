/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "random-tcp-sessions.h"

#include "ns3/abort.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv6-address.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RandomTcpSessions");

RandomTcpSessions::RandomTcpSessions()
    : m_durationMin(Seconds(3)),
      m_durationMax(Seconds(13)),
      m_startFrom(Seconds(0)),
      m_startTo(Seconds(100)),
      m_end(Seconds(100)),
      m_excludeSameIndex(false),
      m_sinkPorts(1),
      m_sourceDraw(CreateObject<UniformRandomVariable>()),
      m_sinkDraw(CreateObject<UniformRandomVariable>()),
      m_startDraw(CreateObject<UniformRandomVariable>()),
      m_durationDraw(CreateObject<UniformRandomVariable>())
{
}

void
RandomTcpSessions::SetDuration(Time min, Time max)
{
    NS_ABORT_MSG_UNLESS(min.IsStrictlyPositive() && max >= min,
                        "RandomTcpSessions: durations need 0 < min <= max, got ["
                            << min.As(Time::S) << ", " << max.As(Time::S) << "]");
    m_durationMin = min;
    m_durationMax = max;
}

void
RandomTcpSessions::SetStartWindow(Time from, Time to)
{
    NS_ABORT_MSG_UNLESS(from.IsPositive() && to > from,
                        "RandomTcpSessions: the start window needs 0 <= from < to, got ["
                            << from.As(Time::S) << ", " << to.As(Time::S) << ")");
    m_startFrom = from;
    m_startTo = to;
}

void
RandomTcpSessions::SetExcludeSameIndex(bool exclude)
{
    m_excludeSameIndex = exclude;
}

void
RandomTcpSessions::SetSinkPorts(uint32_t ports)
{
    NS_ABORT_MSG_UNLESS(ports >= 1 && ports <= 65535,
                        "RandomTcpSessions: sink ports must be in [1, 65535], got " << ports);
    m_sinkPorts = ports;
}

void
RandomTcpSessions::SetEnd(Time end)
{
    m_end = end;
}

int64_t
RandomTcpSessions::AssignStreams(int64_t stream)
{
    m_sourceDraw->SetStream(stream);
    m_sinkDraw->SetStream(stream + 1);
    m_startDraw->SetStream(stream + 2);
    m_durationDraw->SetStream(stream + 3);
    return 4;
}

std::vector<RandomTcpSessions::Session>
RandomTcpSessions::Draw(uint32_t count, uint32_t sources, uint32_t sinks) const
{
    NS_ABORT_MSG_IF(sources < 1, "RandomTcpSessions::Draw: need at least 1 source");
    NS_ABORT_MSG_IF(sinks < (m_excludeSameIndex ? 2 : 1),
                    "RandomTcpSessions::Draw: need at least " << (m_excludeSameIndex ? 2 : 1)
                                                              << " sinks, got " << sinks);
    NS_ABORT_MSG_IF(m_excludeSameIndex && sinks < sources,
                    "RandomTcpSessions::Draw: ExcludeSameIndex needs sinks >= sources");
    NS_ABORT_MSG_UNLESS(m_end > m_startFrom,
                        "RandomTcpSessions: the end (" << m_end.As(Time::S)
                                                       << ") must be after the earliest start ("
                                                       << m_startFrom.As(Time::S) << ")");
    std::vector<Session> sessions;
    sessions.reserve(count);
    const double startFrom = m_startFrom.GetSeconds();
    const double startTo = m_startTo.GetSeconds();
    const double durationMin = m_durationMin.GetSeconds();
    const double durationMax = m_durationMax.GetSeconds();
    for (uint32_t k = 0; k < count; ++k)
    {
        Session session;
        session.source = m_sourceDraw->GetInteger(0, sources - 1);
        if (m_excludeSameIndex)
        {
            // Uniform over the other sinks: skip the source's index.
            session.sink = m_sinkDraw->GetInteger(0, sinks - 2);
            session.sink += session.sink >= session.source ? 1 : 0;
        }
        else
        {
            session.sink = m_sinkDraw->GetInteger(0, sinks - 1);
        }
        session.start = Seconds(m_startDraw->GetValue(startFrom, startTo));
        const double duration = durationMin == durationMax
                                    ? durationMin
                                    : m_durationDraw->GetValue(durationMin, durationMax);
        session.stop = std::min(session.start + Seconds(duration), m_end);
        if (session.stop > session.start)
        {
            sessions.push_back(session);
        }
    }
    return sessions;
}

void
RandomTcpSessions::Install(const std::vector<Session>& sessions,
                           NodeContainer sources,
                           NodeContainer sinks,
                           const std::vector<Address>& sinkAddresses,
                           uint16_t port)
{
    NS_ABORT_MSG_UNLESS(sinkAddresses.size() == sinks.GetN(),
                        "RandomTcpSessions::Install: " << sinkAddresses.size()
                                                       << " sink addresses for " << sinks.GetN()
                                                       << " sinks");
    NS_ABORT_MSG_UNLESS(m_sources.empty(), "RandomTcpSessions::Install: already installed");
    NS_ABORT_MSG_IF(uint32_t{port} + m_sinkPorts - 1 > 65535,
                    "RandomTcpSessions::Install: " << m_sinkPorts << " sink ports from port "
                                                   << port << " run past 65535");
    auto socketAddress = [](const Address& ip, uint16_t port) -> Address {
        if (Ipv4Address::IsMatchingType(ip))
        {
            return InetSocketAddress(Ipv4Address::ConvertFrom(ip), port);
        }
        NS_ABORT_MSG_UNLESS(Ipv6Address::IsMatchingType(ip),
                            "RandomTcpSessions::Install: not an IP address (port " << port << ")");
        return Inet6SocketAddress(Ipv6Address::ConvertFrom(ip), port);
    };
    const bool ipv6 = !sinkAddresses.empty() && Ipv6Address::IsMatchingType(sinkAddresses[0]);
    const Address listen = ipv6 ? Address(Inet6SocketAddress(Ipv6Address::GetAny(), port))
                                : Address(InetSocketAddress(Ipv4Address::GetAny(), port));
    for (uint32_t k = 0; k < sources.GetN(); ++k)
    {
        auto source = CreateObject<TcpSessionSource>();
        sources.Get(k)->AddApplication(source);
        source->SetStartTime(Seconds(0));
        source->SetStopTime(m_end);
        m_sources.push_back(source);
    }
    for (uint32_t k = 0; k < sinks.GetN(); ++k)
    {
        auto sink = CreateObject<TcpSessionSink>();
        sink->SetAttribute("Local", AddressValue(listen));
        sink->SetAttribute("Ports", UintegerValue(m_sinkPorts));
        sinks.Get(k)->AddApplication(sink);
        sink->SetStartTime(Seconds(0));
        m_sinks.push_back(sink);
    }
    for (uint32_t k = 0; k < sessions.size(); ++k)
    {
        const Session& s = sessions[k];
        NS_ABORT_MSG_UNLESS(s.source < sources.GetN() && s.sink < sinks.GetN(),
                            "RandomTcpSessions::Install: session from source "
                                << s.source << " to sink " << s.sink << " of " << sources.GetN()
                                << " sources and " << sinks.GetN() << " sinks");
        TcpSessionSource::Session session;
        session.start = s.start;
        session.stop = s.stop;
        session.peer =
            socketAddress(sinkAddresses[s.sink], static_cast<uint16_t>(port + k % m_sinkPorts));
        m_sources[s.source]->AddSession(session);
    }
}

const std::vector<Ptr<TcpSessionSource>>&
RandomTcpSessions::GetSources() const
{
    return m_sources;
}

const std::vector<Ptr<TcpSessionSink>>&
RandomTcpSessions::GetSinks() const
{
    return m_sinks;
}

TcpSessionSource::Counters
RandomTcpSessions::GetCounters() const
{
    TcpSessionSource::Counters sum;
    for (const auto& source : m_sources)
    {
        const TcpSessionSource::Counters& c = source->GetCounters();
        sum.started += c.started;
        sum.connected += c.connected;
        sum.failed += c.failed;
        sum.stopped += c.stopped;
        sum.closed += c.closed;
        sum.bytesWritten += c.bytesWritten;
        sum.bytesSent += c.bytesSent;
    }
    return sum;
}

uint64_t
RandomTcpSessions::GetTotalReceived() const
{
    uint64_t total = 0;
    for (const auto& sink : m_sinks)
    {
        total += sink->GetCounters().bytesReceived;
    }
    return total;
}

} // namespace ns3
