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
 * has), so SlotQueue fires these two itself, and keeps QueueBase's packet and byte counters as
 * DoEnqueue and DoDequeue do (protected since ns-3.36, private to QueueBase and its friend Queue
 * in the waf era, <= 3.35: reached the same way on every version). Access checking does not
 * apply to the names in an explicit instantiation ([temp.explicit]), which lets the
 * pointers-to-member below be taken; nothing else of Queue's private state is touched.
 */

/**
 * Hands out the pointer to member \p Member through the friend function Get(Tag).
 * \tparam Tag a tag type naming the member; it declares `friend Pointer Get(Tag)`
 * \tparam Pointer the type of a pointer to the member
 * \tparam Member the member
 */
template <typename Tag, typename Pointer, Pointer Member>
struct MemberAccess
{
    /// \return the pointer to member
    friend Pointer Get(Tag)
    {
        return Member;
    }
};

/**
 * Declares a tag type \p Tag naming Class::member of type \p Type and defines its Get(Tag)
 * through an explicit instantiation of MemberAccess.
 */
#define QDISC_LAB_MEMBER_ACCESS(Tag, Class, Type, member)                                          \
    struct Tag                                                                                     \
    {                                                                                              \
        friend Type Class::*Get(Tag);                                                              \
    };                                                                                             \
    template struct MemberAccess<Tag, Type Class::*, &Class::member>

/// The type of Queue<QueueDiscItem>'s item trace sources.
using ItemTrace = TracedCallback<Ptr<const QueueDiscItem>>;

QDISC_LAB_MEMBER_ACCESS(EnqueueTrace, Queue<QueueDiscItem>, ItemTrace, m_traceEnqueue);
QDISC_LAB_MEMBER_ACCESS(DequeueTrace, Queue<QueueDiscItem>, ItemTrace, m_traceDequeue);
QDISC_LAB_MEMBER_ACCESS(NBytes, QueueBase, TracedValue<uint32_t>, m_nBytes);
QDISC_LAB_MEMBER_ACCESS(NPackets, QueueBase, TracedValue<uint32_t>, m_nPackets);
QDISC_LAB_MEMBER_ACCESS(NTotalReceivedBytes, QueueBase, uint32_t, m_nTotalReceivedBytes);
QDISC_LAB_MEMBER_ACCESS(NTotalReceivedPackets, QueueBase, uint32_t, m_nTotalReceivedPackets);

#undef QDISC_LAB_MEMBER_ACCESS

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
SlotQueue::Put(uint32_t slot, const Ptr<QueueDiscItem>& item, uint32_t size)
{
    if (slot >= m_items.size())
    {
        m_items.resize(slot + 1, nullptr);
    }
    // Queue::DoEnqueue's steps after its limit check (store, count, trace). The slot holds a
    // reference of its own, which Take hands on.
    item->Ref();
    m_items[slot] = PeekPointer(item);
    // Prefix increments: TracedValue's postfix ones copy the value with its callback list.
    this->*Get(NBytes{}) += size;
    this->*Get(NTotalReceivedBytes{}) += size;
    ++(this->*Get(NPackets{}));
    ++(this->*Get(NTotalReceivedPackets{}));
    (this->*Get(EnqueueTrace{}))(item);
}

Ptr<QueueDiscItem>
SlotQueue::Take(uint32_t slot, uint32_t size)
{
    // The slot's reference passes to the returned Ptr (ns-3's Ptr has no move).
    Ptr<QueueDiscItem> item(m_items[slot], false);
    m_items[slot] = nullptr;
    // Queue::DoDequeue's steps after it unlinked the item.
    this->*Get(NBytes{}) -= size;
    --(this->*Get(NPackets{}));
    (this->*Get(DequeueTrace{}))(item);
    return item;
}

SlotQueue::~SlotQueue()
{
    Release();
}

void
SlotQueue::Release()
{
    for (QueueDiscItem* item : m_items)
    {
        if (item != nullptr)
        {
            item->Unref(); // the slot's reference
        }
    }
    m_items.clear();
}

void
SlotQueue::DoDispose()
{
    Release();
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
