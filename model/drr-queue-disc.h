/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRR_QUEUE_DISC_H
#define DRR_QUEUE_DISC_H

#include "drr-scheduler.h"
#include "flow-identifier.h"
#include "flow-weight-rules.h"

#include "ns3/queue-disc.h"
#include "ns3/queue.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief The one internal queue of a per-flow queue disc (DrrQueueDisc,
 * VerticalDimensioningQueueDisc): packets addressed by slot numbers.
 *
 * The queue disc's scheduler (DrrScheduler, VdRounds) keeps the order of the packets and gives
 * each queued packet a slot number; this queue holds the packets themselves, in arrival order,
 * and finds a packet by its slot in O(1), so no object exists per flow or per round. Being a
 * single ns-3 Queue, it feeds ns-3's queue disc accounting (packets, bytes, sojourn times) as any
 * internal queue does. Use Put and Take; the generic Enqueue, Dequeue and Remove stop the program.
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

/**
 * \ingroup qdisc-lab
 * \brief Deficit Round Robin (Shreedhar and Varghese, 1996) as ns-2's Queue/DRR implements it:
 * flows hashed into buckets, one shared buffer, buffer stealing from the longest queue; plus
 * per-flow weights.
 *
 * Enqueue: the packet's flow is found (installed PacketFilters first, as in FqCoDel; else a hash
 * of the fields the Mask selects, modulo Buckets; non-IP packets share one extra bucket, number
 * Buckets). The packet joins its flow's queue, and a flow that was idle joins the tail of the
 * ActiveList with the weight the WeightRules give it. While the shared buffer (MaxSize) is over
 * its limit, one packet is dropped from the longest flow (the largest bytes / weight), from its
 * head (ns-2) or tail (DropFrom), counted under OVERLIMIT_DROP.
 *
 * Dequeue: DRR's round robin over the ActiveList (see DrrScheduler): the head flow sends its
 * head packet if it fits its deficit; otherwise it gets quantum x weight more and goes to the
 * tail. A flow that empties leaves the list and its deficit is reset.
 */
class DrrQueueDisc : public QueueDisc
{
  public:
    /// Which end of the longest queue buffer stealing drops from.
    enum DropFrom
    {
        DROP_HEAD, //!< the oldest packet (ns-2)
        DROP_TAIL, //!< the newest packet
    };

    /// Counters of one bucket (flow queue).
    struct FlowStats
    {
        uint64_t enqueuedPackets = 0; //!< packets enqueued
        uint64_t enqueuedBytes = 0;   //!< bytes enqueued
        uint64_t sentPackets = 0;     //!< packets dequeued for transmission
        uint64_t sentBytes = 0;       //!< bytes dequeued for transmission
        uint64_t droppedPackets = 0;  //!< packets dropped by buffer stealing
        uint64_t droppedBytes = 0;    //!< bytes dropped by buffer stealing
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    DrrQueueDisc();
    ~DrrQueueDisc() override;

    /**
     * \param bucket a bucket, 0 .. Buckets (the last one holds non-IP packets)
     * \return its counters since the simulation started
     */
    FlowStats GetFlowStats(uint32_t bucket) const;

    /**
     * \param item a packet
     * \return the bucket it would be queued in (packet filters, else the hash)
     */
    uint32_t GetBucket(Ptr<QueueDiscItem> item);

    /// \return the number of backlogged flows
    uint32_t GetActiveFlows() const;

    /**
     * \param bucket a bucket
     * \return its deficit counter in bytes
     */
    uint64_t GetDeficit(uint32_t bucket) const;

    /**
     * \param bucket a bucket
     * \return its backlog in bytes
     */
    uint64_t GetFlowBytes(uint32_t bucket) const;

    /**
     * \return the bytes allocated for state that exists only while a flow has packets queued
     *         (at its peak; the packets and their per-packet records not included)
     */
    uint64_t GetActiveFlowStateBytes() const;

    /// \return the bytes allocated for state kept per bucket, whether active or not
    uint64_t GetBucketStateBytes() const;

    /// \return the largest number of flows that had packets queued at once
    uint32_t GetPeakActiveFlows() const;

    /// Drop reasons
    static constexpr const char* OVERLIMIT_DROP =
        "Overlimit drop"; //!< shared buffer full: stolen from the longest flow

  protected:
    void DoDispose() override;

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    bool CheckConfig() override;
    void InitializeParams() override;

    /**
     * \param item a packet
     * \param key set to the packet's flow key
     * \return the packet's bucket
     */
    uint32_t Classify(const Ptr<QueueDiscItem>& item, FlowKey& key);

    /**
     * \brief Drop one packet of the longest flow (buffer stealing).
     * \param arrival the packet being enqueued
     * \param arrivalSlot its slot in the internal queue
     */
    void StealFromLongest(const Ptr<QueueDiscItem>& arrival, uint32_t arrivalSlot);

    // Attributes
    uint32_t m_buckets;          //!< number of buckets (ns-2 buckets_)
    uint32_t m_quantum;          //!< quantum of a weight-1 flow in bytes (ns-2 quantum_)
    FlowIdentifier::Mask m_mask; //!< flow identification (ns-2 mask_)
    uint32_t m_perturbation;     //!< hash perturbation
    DropFrom m_dropFrom;         //!< end of the longest queue to steal from
    std::string m_weightRules;   //!< weight rules, as text
    double m_defaultWeight;      //!< weight of flows no rule matches

    FlowWeightRules m_weights;           //!< parsed weight rules
    double m_uniformWeight;              //!< every flow's weight when there are no rules, else 0
    DrrScheduler m_scheduler;            //!< the DRR state
    Ptr<SlotQueue> m_queues;             //!< every bucket's packets: the one internal queue
    TracedValue<uint32_t> m_activeFlows; //!< number of backlogged flows

    TracedCallback<uint32_t, Ptr<const QueueDiscItem>> m_flowEnqueueTrace; //!< bucket, packet
    TracedCallback<uint32_t, Ptr<const QueueDiscItem>> m_flowDequeueTrace; //!< bucket, packet
    TracedCallback<uint32_t, Ptr<const QueueDiscItem>> m_flowDropTrace;    //!< bucket, packet
    TracedCallback<uint32_t, uint64_t> m_deficitTrace; //!< bucket, deficit after it sent
};

} // namespace ns3

#endif /* DRR_QUEUE_DISC_H */
