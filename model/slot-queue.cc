/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "slot-queue.h"

#include "ns3/abort.h"
#include "ns3/queue-disc.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SlotQueue);

TypeId
SlotQueue::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SlotQueue")
                            .SetParent<Queue<QueueDiscItem>>()
                            .SetGroupName("QdiscLab")
                            .AddConstructor<SlotQueue>();
    return tid;
}

void
SlotQueue::Reset()
{
    NS_ABORT_MSG_UNLESS(IsEmpty(), "SlotQueue::Reset on a non-empty queue");
    m_positions.clear();
}

void
SlotQueue::Put(uint32_t slot, Ptr<QueueDiscItem> item)
{
    if (slot >= m_positions.size())
    {
        m_positions.resize(slot + 1);
    }
    Base::Iterator inserted;
    const bool ok = DoEnqueue(GetContainer().end(), item, inserted);
    NS_ABORT_MSG_UNLESS(ok, "SlotQueue: the list refused a packet");
    m_positions[slot] = inserted;
}

Ptr<QueueDiscItem>
SlotQueue::Take(uint32_t slot)
{
    return DoDequeue(m_positions[slot]);
}

bool
SlotQueue::Enqueue(Ptr<QueueDiscItem> item)
{
    NS_FATAL_ERROR("SlotQueue: use Put(slot, item)");
    return false;
}

Ptr<QueueDiscItem>
SlotQueue::Dequeue()
{
    NS_FATAL_ERROR("SlotQueue: use Take(slot)");
    return nullptr;
}

Ptr<QueueDiscItem>
SlotQueue::Remove()
{
    NS_FATAL_ERROR("SlotQueue: use Take(slot) and drop the packet");
    return nullptr;
}

Ptr<const QueueDiscItem>
SlotQueue::Peek() const
{
    return IsEmpty() ? nullptr : Ptr<const QueueDiscItem>(GetContainer().front());
}

} // namespace ns3
