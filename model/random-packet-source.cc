/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "random-packet-source.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/metrics-report.h"
#include "ns3/packet.h"
#include "ns3/seq-ts-header.h"
#include "ns3/simulator.h"
#include "ns3/udp-socket-factory.h"

#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RandomPacketSource");

namespace
{

/**
 * \param v a number
 * \return its shortest text that reads back as \p v (as a user would have written it)
 */
std::string
Shortest(double v)
{
    std::ostringstream os;
    MetricsReport::WriteNumber(os, v);
    return os.str();
}

} // namespace

NS_OBJECT_ENSURE_REGISTERED(RandomPacketSource);

TypeId
RandomPacketSource::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RandomPacketSource")
                            .SetParent<Application>()
                            .SetGroupName("QdiscLab")
                            .AddConstructor<RandomPacketSource>();
    return tid;
}

RandomPacketSource::RandomPacketSource()
    : m_mode(NONE),
      m_tos(0),
      m_seq(0),
      m_measuredSent(0),
      m_measuredBytes(0)
{
    NS_LOG_FUNCTION(this);
}

RandomPacketSource::~RandomPacketSource() = default;

Ptr<RandomVariableStream>
RandomPacketSource::UniformSizes(uint32_t min, uint32_t max, int64_t stream)
{
    NS_ABORT_MSG_UNLESS(min <= max,
                        "RandomPacketSource::UniformSizes: need min <= max, got [" << min << ", "
                                                                                   << max << "]");
    if (min == max)
    {
        auto constant = CreateObject<ConstantRandomVariable>();
        constant->SetAttribute("Constant", DoubleValue(min));
        return constant;
    }
    auto uniform = CreateObject<UniformRandomVariable>();
    uniform->SetAttribute("Min", DoubleValue(min));
    uniform->SetAttribute("Max", DoubleValue(max + 1.0));
    uniform->SetStream(stream);
    return uniform;
}

Ptr<RandomVariableStream>
RandomPacketSource::ExponentialPeriods(double mean, int64_t stream)
{
    auto exponential = CreateObject<ExponentialRandomVariable>();
    exponential->SetAttribute("Mean", DoubleValue(mean));
    exponential->SetStream(stream);
    return exponential;
}

Ptr<RandomVariableStream>
RandomPacketSource::ParetoPeriods(double mean, double shape, int64_t stream)
{
    NS_ABORT_MSG_UNLESS(shape > 1,
                        "RandomPacketSource::ParetoPeriods: the shape must be > 1 (a finite "
                        "mean), got "
                            << shape);
    // The shortest period is the scale, mean (shape - 1) / shape: a shape just above 1 makes it
    // tiny, and the source then switches on and off so often that the run never ends.
    const double scale = mean * (shape - 1) / shape;
    NS_ABORT_MSG_UNLESS(scale >= MIN_PARETO_SCALE,
                        "RandomPacketSource::ParetoPeriods: shape "
                            << Shortest(shape) << " with mean " << mean
                            << " s makes the shortest period, mean x (shape - 1) / shape = "
                            << scale << " s, shorter than " << MIN_PARETO_SCALE
                            << " s: raise the shape or the mean");
    auto pareto = CreateObject<ParetoRandomVariable>();
    pareto->SetAttribute("Shape", DoubleValue(shape));
    pareto->SetAttribute("Scale", DoubleValue(mean * (shape - 1) / shape));
    pareto->SetStream(stream);
    return pareto;
}

void
RandomPacketSource::Setup(const Address& peer, Ptr<RandomVariableStream> size)
{
    m_peer = peer;
    m_size = size;
}

void
RandomPacketSource::SetInterval(Ptr<RandomVariableStream> interval)
{
    m_mode = INTERVAL;
    m_interval = interval;
    m_on = nullptr;
    m_off = nullptr;
}

void
RandomPacketSource::SetOnOff(DataRate rate,
                             Ptr<RandomVariableStream> on,
                             Ptr<RandomVariableStream> off)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "RandomPacketSource: the on rate must be > 0");
    m_mode = ON_OFF;
    m_rate = rate;
    m_on = on;
    m_off = off;
    m_interval = nullptr;
}

void
RandomPacketSource::SetConstantRate(DataRate rate)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "RandomPacketSource: the rate must be > 0");
    m_mode = CONSTANT;
    m_rate = rate;
    m_on = nullptr;
    m_off = nullptr;
    m_interval = nullptr;
}

void
RandomPacketSource::SetTos(uint8_t tos)
{
    m_tos = tos;
}

void
RandomPacketSource::SetMeasurementStart(Time from)
{
    m_measureFrom = from;
}

uint64_t
RandomPacketSource::GetMeasuredSent() const
{
    return m_measuredSent;
}

uint64_t
RandomPacketSource::GetMeasuredSentBytes() const
{
    return m_measuredBytes;
}

void
RandomPacketSource::DoDispose()
{
    m_socket = nullptr;
    m_size = nullptr;
    m_interval = nullptr;
    m_on = nullptr;
    m_off = nullptr;
    Application::DoDispose();
}

void
RandomPacketSource::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_UNLESS(m_size && m_mode != NONE, "RandomPacketSource is not set up");
    m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    m_socket->Bind();
    m_socket->Connect(m_peer);
    if (m_tos != 0)
    {
        m_socket->SetIpTos(m_tos); // the default sends no TOS tag at all
    }
    if (m_mode == ON_OFF)
    {
        StartOn();
    }
    else
    {
        SendPacket();
    }
}

void
RandomPacketSource::StopApplication()
{
    NS_LOG_FUNCTION(this);
    Simulator::Cancel(m_event);
    if (m_socket)
    {
        m_socket->Close();
    }
}

void
RandomPacketSource::StartOn()
{
    m_onUntil = Simulator::Now() + Seconds(m_on->GetValue());
    SendPacket();
}

void
RandomPacketSource::SendPacket()
{
    const Time now = Simulator::Now();
    if (m_mode == ON_OFF && now >= m_onUntil)
    {
        m_event =
            Simulator::Schedule(Seconds(m_off->GetValue()), &RandomPacketSource::StartOn, this);
        return;
    }
    SeqTsHeader header; // stamps the send time
    header.SetSeq(m_seq++);
    const auto size = static_cast<uint32_t>(std::floor(m_size->GetValue()));
    NS_ABORT_MSG_IF(size < IP_UDP_HEADERS + header.GetSerializedSize(),
                    "RandomPacketSource: packet size "
                        << size << " B is below the headers' "
                        << IP_UDP_HEADERS + header.GetSerializedSize() << " B");
    Ptr<Packet> packet = Create<Packet>(size - IP_UDP_HEADERS - header.GetSerializedSize());
    packet->AddHeader(header);
    m_socket->Send(packet);
    if (now >= m_measureFrom)
    {
        m_measuredSent++;
        m_measuredBytes += size;
    }
    // At a rate of ~10^19 bit/s a packet's transmission time rounds to 0: the next packet
    // would follow at the same instant, for ever.
    NS_ABORT_MSG_IF(m_mode != INTERVAL && !m_rate.CalculateBytesTxTime(size).IsStrictlyPositive(),
                    "RandomPacketSource: a " << size << "-byte packet at " << m_rate.GetBitRate()
                                             << " bit/s takes less than the time resolution ("
                                             << TimeStep(1).As(Time::S)
                                             << "): the rate is beyond what the simulation can "
                                                "space packets by; lower it");
    switch (m_mode)
    {
    case ON_OFF: {
        // While on, the next packet follows this one's transmission time at the on rate; the
        // off period starts when the on period ends.
        const Time next = now + m_rate.CalculateBytesTxTime(size);
        if (next < m_onUntil)
        {
            m_event = Simulator::Schedule(next - now, &RandomPacketSource::SendPacket, this);
        }
        else
        {
            m_event = Simulator::Schedule(m_onUntil - now + Seconds(m_off->GetValue()),
                                          &RandomPacketSource::StartOn,
                                          this);
        }
        break;
    }
    case CONSTANT:
        m_event = Simulator::Schedule(m_rate.CalculateBytesTxTime(size),
                                      &RandomPacketSource::SendPacket,
                                      this);
        break;
    default:
        m_event = Simulator::Schedule(Seconds(m_interval->GetValue()),
                                      &RandomPacketSource::SendPacket,
                                      this);
        break;
    }
}

} // namespace ns3
