/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "slot-queue.h"

#include "ns3/abort.h"
#include "ns3/queue-disc.h"

namespace ns3
{

namespace
{

/*
 * Queue<QueueDiscItem>'s Enqueue and Dequeue trace sources, which QueueDisc::AddInternalQueue
 * connects to the queue disc's accounting, are private members that ns-3 fires only from
 * Queue::DoEnqueue and Queue::DoDequeue; those also check a size limit SlotQueue does not have
 * and keep each packet in a std::list node, which costs a third of a per-flow queue disc's
 * enqueue. A subclass cannot redeclare the trace sources (TypeId refuses a name its parent
 * has), so SlotQueue fires these two itself. Access checking does not apply to the names in an
 * explicit instantiation ([temp.explicit]), which lets the two pointers-to-member below be
 * taken; nothing else of Queue's private state is touched.
 */

/// The type of Queue<QueueDiscItem>'s item trace sources, as a pointer to member.
using ItemTraceMember = TracedCallback<Ptr<const QueueDiscItem>> Queue<QueueDiscItem>::*;

/**
 * Hands out the pointer to member \p Member through the friend function Get(Tag).
 * \tparam Tag a tag type naming the member
 * \tparam Member the member
 */
template <typename Tag, ItemTraceMember Member>
struct ItemTraceAccess
{
    /// \return the pointer to member
    friend ItemTraceMember Get(Tag)
    {
        return Member;
    }
};

/// Names Queue<QueueDiscItem>::m_traceEnqueue.
struct EnqueueTrace
{
    /// \return the pointer to member (defined by the explicit instantiation below)
    friend ItemTraceMember Get(EnqueueTrace);
};

/// Names Queue<QueueDiscItem>::m_traceDequeue.
struct DequeueTrace
{
    /// \return the pointer to member (defined by the explicit instantiation below)
    friend ItemTraceMember Get(DequeueTrace);
};

template struct ItemTraceAccess<EnqueueTrace, &Queue<QueueDiscItem>::m_traceEnqueue>;
template struct ItemTraceAccess<DequeueTrace, &Queue<QueueDiscItem>::m_traceDequeue>;

} // namespace

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
    m_items.clear();
}

void
SlotQueue::Put(uint32_t slot, Ptr<QueueDiscItem> item, uint32_t size)
{
    if (slot >= m_items.size())
    {
        m_items.resize(slot + 1);
    }
    // Queue::DoEnqueue's steps after its limit check (store, count, trace).
    m_items[slot] = item;
    m_nBytes += size;
    m_nTotalReceivedBytes += size;
    m_nPackets++;
    m_nTotalReceivedPackets++;
    (this->*Get(EnqueueTrace{}))(m_items[slot]);
}

Ptr<QueueDiscItem>
SlotQueue::Take(uint32_t slot, uint32_t size)
{
    Ptr<QueueDiscItem> item = m_items[slot];
    m_items[slot] = nullptr; // ns-3's Ptr has no move: let the packet go explicitly
    // Queue::DoDequeue's steps after it unlinked the item.
    m_nBytes -= size;
    m_nPackets--;
    (this->*Get(DequeueTrace{}))(item);
    return item;
}

void
SlotQueue::DoDispose()
{
    m_items.clear();
    Queue<QueueDiscItem>::DoDispose();
}

bool
SlotQueue::Enqueue(Ptr<QueueDiscItem> item)
{
    NS_FATAL_ERROR("SlotQueue: use Put(slot, item, size)");
    return false;
}

Ptr<QueueDiscItem>
SlotQueue::Dequeue()
{
    NS_FATAL_ERROR("SlotQueue: use Take(slot, size)");
    return nullptr;
}

Ptr<QueueDiscItem>
SlotQueue::Remove()
{
    NS_FATAL_ERROR("SlotQueue: use Take(slot, size) and drop the packet");
    return nullptr;
}

Ptr<const QueueDiscItem>
SlotQueue::Peek() const
{
    NS_FATAL_ERROR("SlotQueue: its packets have no order (the scheduler has it); peek the "
                   "queue disc");
    return nullptr;
}

} // namespace ns3
