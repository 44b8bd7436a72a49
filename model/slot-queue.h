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
 * \brief The one internal queue of a per-flow queue disc (PerFlowQueueDisc's subclasses,
 * VerticalDimensioningQueueDisc): packets addressed by slot numbers.
 *
 * The queue disc's scheduler (DrrScheduler, AliquemScheduler, SrrScheduler, VdRounds) keeps the
 * order of the packets and gives each queued packet a slot number; this queue holds the packets
 * themselves, in arrival order, and finds a packet by its slot in O(1), so no object exists per
 * flow or per round. Being a single ns-3 Queue, it feeds ns-3's queue disc accounting (packets,
 * bytes, sojourn times) as any internal queue does. Use Put and Take; the generic Enqueue,
 * Dequeue and Remove stop the program.
 */
class SlotQueue : public Queue<QueueDiscItem>
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// Forget every slot (the queue must be empty).
    void Reset();

    /**
     * \param slot a slot number, not in use
     * \param item a packet, appended to the queue under that slot
     */
    void Put(uint32_t slot, Ptr<QueueDiscItem> item);

    /**
     * \param slot a slot number in use
     * \return its packet, removed (the slot is free again)
     */
    Ptr<QueueDiscItem> Take(uint32_t slot);

    bool Enqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> Dequeue() override;
    Ptr<QueueDiscItem> Remove() override;
    Ptr<const QueueDiscItem> Peek() const override;

  private:
    using Base = Queue<QueueDiscItem>;    //!< the ns-3 queue
    using Iterator = Base::ConstIterator; //!< a position in the queue's list

    std::vector<Iterator> m_positions; //!< where each slot's packet is
};

} // namespace ns3

#endif /* SLOT_QUEUE_H */
