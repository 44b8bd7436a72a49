/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cioq-fabric.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CioqFabric");

CioqFabric::CioqFabric()
    : m_mtu(1500),
      m_matchPending(false),
      m_inFabric(0)
{
    NS_LOG_FUNCTION(this);
}

void
CioqFabric::Reset(const Config& config)
{
    NS_LOG_FUNCTION(this);
    const uint32_t n = config.ports;
    NS_ABORT_MSG_IF(n < 1, "CioqFabric: ports = 0 is out of range [1, inf)");
    NS_ABORT_MSG_IF(config.islipIterations < 1,
                    "CioqFabric: islipIterations = 0 is out of range [1, inf)");
    NS_ABORT_MSG_IF(config.rate.GetBitRate() == 0, "CioqFabric: the transfer rate is 0");
    m_config = config;
    m_voqs.Reset(n, config.queueing, config.inputBufferSize, config.voqMaxSize);
    m_ports.assign(n, Port());
    m_linkBusy.assign(n * n, 0);
    m_requests.assign(n * n, 0);
    m_inputFree.assign(n, 0);
    m_outputFree.assign(n, 0);
    m_arbiter.Reset(n, std::min(config.islipIterations, n));
    m_matchPending = false;
    m_inFabric = 0;
}

void
CioqFabric::SetOutput(uint32_t j, Ptr<QueueDisc> qdisc, Ptr<CioqInputBacklog> backlog)
{
    NS_LOG_FUNCTION(this << j << qdisc << backlog);
    NS_ABORT_MSG_UNLESS(j < m_ports.size(),
                        "CioqFabric::SetOutput: output " << j << " out of range [0, "
                                                         << m_ports.size() << ")");
    m_ports[j].qdisc = qdisc;
    m_ports[j].backlog = backlog;
}

void
CioqFabric::SetMtu(uint16_t bytes)
{
    m_mtu = bytes;
}

void
CioqFabric::SetCallbacks(DropCallback drop,
                         EnqueueCallback enqueue,
                         TransferCallback transfer,
                         DeliverCallback deliver)
{
    m_drop = drop;
    m_enqueue = enqueue;
    m_transfer = transfer;
    m_deliver = deliver;
}

void
CioqFabric::Clear()
{
    NS_LOG_FUNCTION(this);
    for (auto& port : m_ports)
    {
        port.qdisc = nullptr;
        port.backlog = nullptr;
    }
}

const CioqVoqSet&
CioqFabric::GetVoqs() const
{
    return m_voqs;
}

uint32_t
CioqFabric::GetPacketsInFabric() const
{
    return m_inFabric;
}

Time
CioqFabric::TransferTime(uint32_t bytes) const
{
    return m_config.rate.CalculateBytesTxTime(bytes + m_config.frameOverhead);
}

void
CioqFabric::Enqueue(uint32_t i, uint32_t j, Ptr<QueueDiscItem> item)
{
    const uint32_t size = item->GetSize();
    if (m_voqs.IsFull(i, j, size))
    {
        NS_LOG_DEBUG("Input " << i << " full (" << m_voqs.GetInputPackets(i)
                              << " packets): drop for output " << j);
        m_drop(item, i);
        return;
    }

    const std::size_t length = m_voqs.Enqueue(i, j, item, Simulator::Now());
    m_ports[j].backlog->Add(size);
    m_enqueue(i, j);

    if (m_config.model == PAPER)
    {
        PaperTryStart(i, j);
        return;
    }
    if (m_config.queueing == CioqVoqSet::VOQ)
    {
        m_requests[i * m_config.ports + j] = 1;
    }
    else if (length == 1)
    {
        UpdateFifoRequest(i);
    }
    if (!m_ports[i].inputBusy && !m_ports[j].outputBusy)
    {
        ScheduleMatch();
    }
}

void
CioqFabric::UpdateFifoRequest(uint32_t i)
{
    const uint32_t n = m_config.ports;
    std::fill(m_requests.begin() + i * n, m_requests.begin() + (i + 1) * n, 0);
    const auto& fifo = m_voqs.GetQueue(i, 0);
    if (!fifo.empty())
    {
        m_requests[i * n + fifo.front().output] = 1;
    }
}

bool
CioqFabric::PaperTryStart(uint32_t i, uint32_t j)
{
    const auto& queue = m_voqs.GetQueue(i, j);
    if (m_config.queueing == CioqVoqSet::VOQ)
    {
        if (!m_linkBusy[i * m_config.ports + j] && !queue.empty() &&
            (m_config.outputFull == DROP || OutputHasRoom(j, queue.front().item->GetSize())))
        {
            StartTransfer(i, j);
            return true;
        }
        return false;
    }
    if (!m_ports[i].inputBusy && !queue.empty() &&
        (m_config.outputFull == DROP ||
         OutputHasRoom(queue.front().output, queue.front().item->GetSize())))
    {
        StartTransfer(i, queue.front().output);
        return true;
    }
    return false;
}

void
CioqFabric::ScheduleMatch()
{
    if (!m_matchPending)
    {
        m_matchPending = true;
        Simulator::ScheduleNow(&CioqFabric::Match, this);
    }
}

void
CioqFabric::Match()
{
    NS_LOG_FUNCTION(this);
    m_matchPending = false;
    const uint32_t n = m_config.ports;
    for (uint32_t k = 0; k < n; ++k)
    {
        const Port& port = m_ports[k];
        m_inputFree[k] = !port.inputBusy && m_voqs.GetInputPackets(k) > 0;
        m_outputFree[k] =
            !port.outputBusy && (m_config.outputFull == DROP || OutputHasRoom(k, m_mtu));
    }
    for (const auto& [i, j] : m_arbiter.Match(m_requests, m_inputFree, m_outputFree))
    {
        StartTransfer(i, j);
    }
}

void
CioqFabric::StartTransfer(uint32_t i, uint32_t j)
{
    Port& in = m_ports[i];
    Port& out = m_ports[j];
    CioqVoqSet::Entry entry = m_voqs.Dequeue(i, j);
    const uint32_t size = entry.item->GetSize();
    const uint32_t voq = i * m_config.ports + j;
    out.backlog->Remove(size);
    if (m_config.model == ISLIP)
    {
        if (m_config.queueing == CioqVoqSet::VOQ)
        {
            m_requests[voq] = m_voqs.GetVoqPackets(i, j) > 0;
        }
        else
        {
            UpdateFifoRequest(i);
        }
        out.outputBusy = true;
    }
    if (m_config.model == PAPER && m_config.queueing == CioqVoqSet::VOQ)
    {
        m_linkBusy[voq] = 1;
    }
    else
    {
        in.inputBusy = true;
    }
    ++out.inFlightPackets;
    out.inFlightBytes += size;
    ++m_inFabric;
    const Time waited = Simulator::Now() - entry.arrival;
    m_transfer(entry.item, i, j, waited);
    NS_LOG_DEBUG("Transfer " << i << " -> " << j << " of " << size << " B after " << waited);
    Simulator::Schedule(TransferTime(size), &CioqFabric::FinishTransfer, this, i, j, entry.item);
}

void
CioqFabric::FinishTransfer(uint32_t i, uint32_t j, Ptr<QueueDiscItem> item)
{
    Port& in = m_ports[i];
    Port& out = m_ports[j];
    --out.inFlightPackets;
    out.inFlightBytes -= item->GetSize();
    --m_inFabric;
    if (m_config.model == PAPER && m_config.queueing == CioqVoqSet::VOQ)
    {
        m_linkBusy[i * m_config.ports + j] = 0;
    }
    else
    {
        in.inputBusy = false;
    }
    out.outputBusy = false;
    m_deliver(item, i, j);

    if (m_config.model == ISLIP)
    {
        ScheduleMatch();
        return;
    }
    PaperTryStart(i, j);
    if (m_config.outputFull == BACKPRESSURE)
    {
        OutputRoom(j);
    }
}

bool
CioqFabric::OutputHasRoom(uint32_t j, uint32_t bytes) const
{
    const Port& out = m_ports[j];
    const QueueSize max = out.qdisc->GetMaxSize();
    const QueueSize current = out.qdisc->GetCurrentSize();
    if (max.GetUnit() == QueueSizeUnit::PACKETS)
    {
        return current.GetValue() + out.inFlightPackets + 1 <= max.GetValue();
    }
    return current.GetValue() + out.inFlightBytes + bytes <= max.GetValue();
}

void
CioqFabric::OutputRoom(uint32_t j)
{
    if (m_config.model == ISLIP)
    {
        ScheduleMatch();
        return;
    }
    // Paper: offer the room to the inputs in round-robin order.
    const uint32_t n = m_config.ports;
    Port& out = m_ports[j];
    for (uint32_t k = 0; k < n; ++k)
    {
        const uint32_t i = (out.rrNext + k) % n;
        const auto& queue = m_voqs.GetQueue(i, j);
        if (queue.empty() || (m_config.queueing == CioqVoqSet::FIFO && queue.front().output != j))
        {
            continue;
        }
        if (PaperTryStart(i, j))
        {
            out.rrNext = (i + 1) % n;
        }
    }
}

} // namespace ns3
