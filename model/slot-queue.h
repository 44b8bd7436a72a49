/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SLOT_QUEUE_H
#define SLOT_QUEUE_H

#include "ns3/queue-item.h"
#include "ns3/queue.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief The one internal queue of a per-flow queue disc (a PerFlowQueueDiscOf): packets
 * addressed by slot numbers.
 *
 * The queue disc's scheduler keeps the
 * order of the packets and gives each queued packet a slot number; this queue holds the packets
 * themselves in a vector indexed by slot, so no object exists per flow or per round and nothing
 * is allocated per packet. Being a single ns-3 Queue, it feeds ns-3's queue disc accounting
 * (packets, bytes, sojourn times): Put and Take update the queue's counters and fire its Enqueue
 * and Dequeue trace sources exactly as Queue's DoEnqueue and DoDequeue do, without their limit
 * check (the queue disc enforces its own MaxSize; this queue has none) and without a list node
 * per packet. Use Put and Take; the generic Enqueue, Dequeue, Remove and Peek stop the program
 * (the packets have no order here: the scheduler has it).
 */
class SlotQueue : public Queue<QueueDiscItem>
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    SlotQueue() = default;
    ~SlotQueue() override;
    SlotQueue(const SlotQueue&) = delete;            //!< its slots own references
    SlotQueue& operator=(const SlotQueue&) = delete; //!< its slots own references

    /// Forget every slot (the queue must be empty).
    void Reset();

    /**
     * \param slot a slot number, not in use
     * \param item a packet, queued under that slot
     * \param size its size, item->GetSize() (the caller has it already)
     */
    void Put(uint32_t slot, const Ptr<QueueDiscItem>& item, uint32_t size);

    /**
     * \param slot a slot number in use
     * \param size the size its packet had when Put
     * \return its packet, removed (the slot is free again)
     */
    Ptr<QueueDiscItem> Take(uint32_t slot, uint32_t size);

    bool Enqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> Dequeue() override;
    Ptr<QueueDiscItem> Remove() override;
    Ptr<const QueueDiscItem> Peek() const override;

  protected:
    void DoDispose() override;

  private:
    /// Let go of the packets still queued.
    void Release();

    /// Each slot's packet, null when free; a queued one holds a reference (Ref in Put, handed
    /// to Take's Ptr: Ptr has no move, and its copies cost a reference count each).
    std::vector<QueueDiscItem*> m_items;
};

} // namespace ns3

#endif /* SLOT_QUEUE_H */
