/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ALIQUEM_QUEUE_DISC_H
#define ALIQUEM_QUEUE_DISC_H

#include "aliquem-scheduler.h"
#include "drr-queue-disc.h"
#include "flow-identifier.h"
#include "flow-weight-rules.h"

#include "ns3/queue-disc.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <string>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief Aliquem (Lenzini, Mingozzi and Stea, IWQoS 2002): Deficit Round Robin with q + 1 active
 * lists, one per future round, so that quanta may be scaled down by q at O(1) cost; flows hashed
 * into buckets, one shared buffer, buffer stealing from the longest queue (bytes / weight), and
 * per-flow weights, as in DrrQueueDisc.
 *
 * Enqueue: as DrrQueueDisc's (packet filters, else a hash of the fields the Mask selects,
 * modulo Buckets; non-IP packets share bucket number Buckets). A flow that was idle gets the
 * weight its WeightRules give it and the scaled quantum phi = Quantum x weight / ScalingFactor,
 * and joins the list of the round in which it can send its head packet. While the shared buffer
 * (MaxSize) is over its limit, one packet is dropped from the longest flow (the largest
 * bytes / weight), from its head (as ns-2's DRR) or tail (DropFrom), counted under
 * OVERLIMIT_DROP.
 *
 * Dequeue: Aliquem's round robin (see AliquemScheduler): the head flow of the current round's
 * list sends its head packet if it fits its deficit; otherwise it goes, with the quanta of the
 * k rounds it needs, into the list k rounds ahead (k <= q when phi >= the largest packet / q).
 * With ScalingFactor 1 it serves exactly as DrrQueueDisc.
 */
class AliquemQueueDisc : public QueueDisc
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

    AliquemQueueDisc();
    ~AliquemQueueDisc() override;

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
     * \return its deficit counter in bytes (it includes the quanta of the rounds up to its next
     *         visit)
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

    /// \return the number of rounds completed
    uint64_t GetRound() const;

    /**
     * \param bucket a backlogged bucket
     * \return in how many rounds it is next served: 0 (the current round) .. ScalingFactor
     */
    uint32_t GetRoundsAhead(uint32_t bucket) const;

    /// \return the number of times a flow needed more than ScalingFactor rounds (phi too small)
    uint64_t GetCutSchedules() const;

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
    uint32_t m_quantum;          //!< quantum of a weight-1 flow in bytes, before scaling
    uint32_t m_scalingFactor;    //!< q: quanta scaled by 1/q, q + 1 active lists
    FlowIdentifier::Mask m_mask; //!< flow identification (ns-2 mask_)
    uint32_t m_perturbation;     //!< hash perturbation
    DropFrom m_dropFrom;         //!< end of the longest queue to steal from
    std::string m_weightRules;   //!< weight rules, as text
    double m_defaultWeight;      //!< weight of flows no rule matches

    FlowWeightRules m_weights;           //!< parsed weight rules
    double m_uniformWeight;              //!< every flow's weight when there are no rules, else 0
    AliquemScheduler m_scheduler;        //!< the DRR state
    Ptr<SlotQueue> m_queues;             //!< every bucket's packets: the one internal queue
    TracedValue<uint32_t> m_activeFlows; //!< number of backlogged flows
    TracedValue<uint64_t> m_round;       //!< rounds completed

    TracedCallback<uint32_t, Ptr<const QueueDiscItem>> m_flowEnqueueTrace; //!< bucket, packet
    TracedCallback<uint32_t, Ptr<const QueueDiscItem>> m_flowDequeueTrace; //!< bucket, packet
    TracedCallback<uint32_t, Ptr<const QueueDiscItem>> m_flowDropTrace;    //!< bucket, packet
    TracedCallback<uint32_t, uint64_t> m_deficitTrace; //!< bucket, deficit after it sent
};

} // namespace ns3

#endif /* ALIQUEM_QUEUE_DISC_H */
