/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SRR_QUEUE_DISC_H
#define SRR_QUEUE_DISC_H

#include "drr-queue-disc.h"
#include "flow-identifier.h"
#include "flow-weight-rules.h"
#include "srr-scheduler.h"

#include "ns3/queue-disc.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <string>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief Smoothed Round Robin (C. Guo, SIGCOMM 2001): the flows' weights in binary as a Weight
 * Matrix, served column by column in the order of the Weight Spread Sequence, with per-flow
 * deficit counters; flows hashed into buckets, one shared buffer, buffer stealing from the
 * longest queue (bytes / weight), and per-flow weights, as in DrrQueueDisc.
 *
 * Enqueue: as DrrQueueDisc's (packet filters, else a hash of the fields the Mask selects,
 * modulo Buckets; non-IP packets share bucket number Buckets). A flow that was idle gets the
 * weight its WeightRules give it, rounded to an integer >= 1 (its row of the Weight Matrix), and
 * joins the bottom of the columns of its weight's 1 bits. While the shared buffer (MaxSize) is
 * over its limit, one packet is dropped from the longest flow (the largest bytes / weight), from
 * its head (as ns-2's DRR) or tail (DropFrom), counted under OVERLIMIT_DROP.
 *
 * Dequeue: SRR (see SrrScheduler): for each term of the Weight Spread Sequence, the flows of its
 * column are visited in turn; a visit adds Quantum to the flow's deficit, and the flow sends its
 * head packets while they fit. A flow of weight w is visited w times per pass over the sequence,
 * spread over it rather than back to back.
 */
class SrrQueueDisc : public QueueDisc
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

    SrrQueueDisc();
    ~SrrQueueDisc() override;

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

    /// \return the position in the Weight Spread Sequence (of order 32; 0 before the first term)
    uint64_t GetPosition() const;

    /**
     * \param bucket a bucket
     * \return its integer weight, its Weight Matrix row (0 if never backlogged)
     */
    uint32_t GetWeight(uint32_t bucket) const;

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
    uint32_t m_quantum;          //!< bytes a visit adds to a flow's deficit
    FlowIdentifier::Mask m_mask; //!< flow identification (ns-2 mask_)
    uint32_t m_perturbation;     //!< hash perturbation
    DropFrom m_dropFrom;         //!< end of the longest queue to steal from
    std::string m_weightRules;   //!< weight rules, as text
    double m_defaultWeight;      //!< weight of flows no rule matches

    FlowWeightRules m_weights;           //!< parsed weight rules
    double m_uniformWeight;              //!< every flow's weight when there are no rules, else 0
    SrrScheduler m_scheduler;            //!< the DRR state
    Ptr<SlotQueue> m_queues;             //!< every bucket's packets: the one internal queue
    TracedValue<uint32_t> m_activeFlows; //!< number of backlogged flows
    TracedValue<uint64_t> m_position;    //!< position in the Weight Spread Sequence

    TracedCallback<uint32_t, Ptr<const QueueDiscItem>> m_flowEnqueueTrace; //!< bucket, packet
    TracedCallback<uint32_t, Ptr<const QueueDiscItem>> m_flowDequeueTrace; //!< bucket, packet
    TracedCallback<uint32_t, Ptr<const QueueDiscItem>> m_flowDropTrace;    //!< bucket, packet
    TracedCallback<uint32_t, uint64_t> m_deficitTrace; //!< bucket, deficit after it sent
};

} // namespace ns3

#endif /* SRR_QUEUE_DISC_H */
