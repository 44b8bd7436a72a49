/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cioq-voq-set.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CioqVoqSet");

CioqVoqSet::CioqVoqSet()
    : m_ports(0),
      m_queueing(VOQ)
{
    NS_LOG_FUNCTION(this);
}

void
CioqVoqSet::Reset(uint32_t ports, Queueing queueing, QueueSize inputLimit, QueueSize voqLimit)
{
    NS_LOG_FUNCTION(this << ports << queueing << inputLimit << voqLimit);
    NS_ABORT_MSG_IF(ports < 1, "CioqVoqSet: ports = 0 is out of range [1, inf)");
    NS_ABORT_MSG_IF(inputLimit.GetValue() == 0,
                    "CioqVoqSet: input limit " << inputLimit << " must be > 0");
    m_ports = ports;
    m_queueing = queueing;
    m_inputLimit = inputLimit;
    m_voqLimit = voqLimit;
    m_queues.clear();
    m_queues.resize(queueing == VOQ ? ports * ports : ports);
    m_inputPackets.assign(ports, 0);
    m_inputBytes.assign(ports, 0);
    m_voqPackets.assign(ports * ports, 0);
    m_voqBytes.assign(ports * ports, 0);
}

std::size_t
CioqVoqSet::Enqueue(uint32_t i, uint32_t j, Ptr<QueueDiscItem> item, Time arrival)
{
    const uint32_t size = item->GetSize();
    const uint32_t voq = i * m_ports + j;
    auto& queue = m_queues[m_queueing == VOQ ? voq : i];
    queue.push_back(Entry{item, j, arrival});
    ++m_inputPackets[i];
    m_inputBytes[i] += size;
    ++m_voqPackets[voq];
    m_voqBytes[voq] += size;
    return queue.size();
}

CioqVoqSet::Entry
CioqVoqSet::Dequeue(uint32_t i, uint32_t j)
{
    const uint32_t voq = i * m_ports + j;
    auto& queue = m_queues[m_queueing == VOQ ? voq : i];
    Entry entry = std::move(queue.front());
    queue.pop_front();
    const uint32_t size = entry.item->GetSize();
    --m_inputPackets[i];
    m_inputBytes[i] -= size;
    --m_voqPackets[voq];
    m_voqBytes[voq] -= size;
    return entry;
}

uint32_t
CioqVoqSet::GetPorts() const
{
    return m_ports;
}

CioqVoqSet::Queueing
CioqVoqSet::GetQueueing() const
{
    return m_queueing;
}

} // namespace ns3
