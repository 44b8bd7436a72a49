/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "bottleneck-flow-meter.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/simulator.h"
#include "ns3/tcp-header.h"

namespace ns3
{

BottleneckFlowMeter::BottleneckFlowMeter(Time from, Time to)
    : m_from(from),
      m_to(to)
{
    NS_ABORT_MSG_UNLESS(from < to, "BottleneckFlowMeter: the window must not be empty");
}

uint32_t
BottleneckFlowMeter::AddFlow(Ipv4Address source)
{
    const auto index = static_cast<uint32_t>(m_counters.size());
    NS_ABORT_MSG_UNLESS(m_index.emplace(source.Get(), index).second,
                        "BottleneckFlowMeter: " << source << " is already a flow");
    m_counters.emplace_back();
    m_ledgers.emplace_back();
    return index;
}

void
BottleneckFlowMeter::Connect(Ptr<QueueDisc> queue)
{
    queue->TraceConnectWithoutContext(
        "Enqueue",
        MakeCallback(&BottleneckFlowMeter::Account, this).Bind(Stage::ENQUEUED));
    queue->TraceConnectWithoutContext(
        "Drop",
        MakeCallback(&BottleneckFlowMeter::Account, this).Bind(Stage::DROPPED));
    queue->TraceConnectWithoutContext(
        "Dequeue",
        MakeCallback(&BottleneckFlowMeter::Account, this).Bind(Stage::DEQUEUED));
}

void
BottleneckFlowMeter::SetEventCallback(EventCallback callback)
{
    m_callback = std::move(callback);
}

const BottleneckFlowMeter::Counters&
BottleneckFlowMeter::GetCounters(uint32_t flow) const
{
    return m_counters.at(flow);
}

double
BottleneckFlowMeter::GetMbps(uint32_t flow) const
{
    const Counters& c = m_counters.at(flow);
    return (c.inBytes + c.outBytes) * 8.0 / 1e6 / (m_to - m_from).GetSeconds();
}

double
BottleneckFlowMeter::GetInMbps(uint32_t flow) const
{
    return m_counters.at(flow).inBytes * 8.0 / 1e6 / (m_to - m_from).GetSeconds();
}

bool
BottleneckFlowMeter::IsIn(Ipv4Header::DscpType dscp)
{
    return dscp == Ipv4Header::DSCP_AF11 || dscp == Ipv4Header::DSCP_AF21 ||
           dscp == Ipv4Header::DSCP_AF31 || dscp == Ipv4Header::DSCP_AF41;
}

void
BottleneckFlowMeter::Account(Stage stage, Ptr<const QueueDiscItem> item)
{
    Ptr<const Ipv4QueueDiscItem> ipv4 = DynamicCast<const Ipv4QueueDiscItem>(item);
    if (!ipv4)
    {
        return;
    }
    const Ipv4Header& ip = ipv4->GetHeader();
    auto it = m_index.find(ip.GetSource().Get());
    if (it == m_index.end())
    {
        return;
    }
    const uint32_t flow = it->second;
    const bool in = IsIn(ip.GetDscp());
    const Time now = Simulator::Now();
    const bool counted = now >= m_from && now <= m_to;
    Counters& c = m_counters[flow];

    uint32_t begin = 0;
    uint32_t payload = 0;
    if (ip.GetProtocol() == 6)
    {
        TcpHeader tcp;
        Ptr<const Packet> packet = item->GetPacket();
        if (packet->PeekHeader(tcp) > 0)
        {
            begin = tcp.GetSequenceNumber().GetValue();
            payload = packet->GetSize() - tcp.GetSerializedSize();
        }
    }
    if (stage == Stage::DEQUEUED)
    {
        const uint32_t duplicate = payload ? m_ledgers[flow].Deliver(begin, begin + payload) : 0;
        if (counted)
        {
            (in ? c.inBytes : c.outBytes) += item->GetSize();
            c.duplicatePayload += duplicate;
        }
        if (payload && m_callback)
        {
            m_callback(flow,
                       duplicate == payload ? Event::DELIVER_SPURIOUS : Event::DELIVER,
                       begin,
                       payload,
                       in);
        }
        return;
    }
    // An arrival: enqueued or dropped.
    const uint32_t resent = payload ? m_ledgers[flow].Send(begin, begin + payload) : 0;
    if (counted)
    {
        ++(in ? c.inArrivals : c.outArrivals);
        c.sentPayload += payload;
        c.resentPayload += resent;
        if (stage == Stage::DROPPED)
        {
            ++(in ? c.inDrops : c.outDrops);
        }
    }
    if (payload && m_callback)
    {
        m_callback(flow, resent ? Event::SEND_RESENT : Event::SEND_NEW, begin, payload, in);
        if (stage == Stage::DROPPED)
        {
            m_callback(flow, Event::DROP, begin, payload, in);
        }
    }
}

} // namespace ns3
