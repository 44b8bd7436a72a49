/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef VERTICAL_DIMENSIONING_QUEUE_DISC_H
#define VERTICAL_DIMENSIONING_QUEUE_DISC_H

#include "drr-queue-disc.h"
#include "flow-identifier.h"
#include "flow-weight-rules.h"
#include "vd-rounds.h"

#include "ns3/queue-disc.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <string>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief Vertical Dimensioning (Bakiras, Wang, Papadias and Hamdi): DRR's rounds without per-flow
 * queues. One FIFO per round; each packet joins, on arrival, the round in which DRR would send it.
 *
 * Enqueue (Fig. 2): the packet's flow i is its bucket, found as DrrQueueDisc finds it (packet
 * filters, else FlowIdentifier's hash of the Mask's fields modulo Buckets; non-IP packets share
 * bucket Buckets), and a new flow takes the weight w_i the WeightRules give its first packet.
 * Equation (3) places the packet in round current + ceil((bytes_i - deficit_i + size) /
 * (w_i L_M)) - 1, whose FIFO is q[round mod M]. While more than B (MaxSize, bytes or packets) is
 * queued, the tail packet of the last non-empty round is dropped (OVERFLOW_DROP): in O(1), and it
 * is the newest packet of its flow, so no other packet's round changes. IPv4 and IPv6 alike;
 * packets larger than w_i L_M wait for ceil(size / (w_i L_M)) rounds' quanta, as in DRR.
 *
 * Dequeue: the head of q[current]; when q[current] empties, current moves to the next round.
 * A flow with nothing queued has no state: its next packet starts it afresh (deficit 0, round
 * current), as DRR resets the deficit of a flow that empties.
 *
 * The algorithm is VdRounds (no simulator, unit-tested); this class keeps the packets in one
 * internal queue (so QueueDisc's accounting sees them), a SlotQueue that finds each packet by
 * the slot VdRounds gave it, and adds ns-3's classification, drop reasons, statistics and
 * traces.
 */
class VerticalDimensioningQueueDisc : public QueueDisc
{
  public:
    /// Counters of one bucket: the same as DrrQueueDisc's.
    using FlowStats = DrrQueueDisc::FlowStats;

    /**
     * Signature of the FlowEnqueue, FlowDequeue and FlowDrop trace sources.
     * \param bucket the packet's bucket (flow)
     * \param item the packet
     */
    using FlowItemTracedCallback = void (*)(uint32_t bucket, Ptr<const QueueDiscItem> item);

    /**
     * Signature of the Placement trace source.
     * \param bucket the packet's bucket (flow)
     * \param round the round Equation (3) placed it in
     * \param item the packet
     */
    using PlacementTracedCallback = void (*)(uint32_t bucket,
                                             uint64_t round,
                                             Ptr<const QueueDiscItem> item);

    /**
     * Signature of the Deficit trace source.
     * \param bucket the bucket (flow) that sent
     * \param deficit its deficit_i afterwards, in bytes
     */
    using DeficitTracedCallback = void (*)(uint32_t bucket, int64_t deficit);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    VerticalDimensioningQueueDisc();
    ~VerticalDimensioningQueueDisc() override;

    /**
     * \param bucket a bucket, 0 .. Buckets (the last one holds non-IP packets)
     * \return its counters since the simulation started (zero if it never had a packet);
     *         enqueuedPackets counts every arrival, also those dropped on arrival. Needs
     *         BucketCounters (the default).
     */
    FlowStats GetFlowStats(uint32_t bucket) const;

    /**
     * \param item a packet
     * \return the bucket (flow) it belongs to (packet filters, else the hash)
     */
    uint32_t GetBucket(Ptr<QueueDiscItem> item);

    /// \return the number of active flows (buckets with packets queued)
    uint32_t GetActiveFlows() const;

    /**
     * \param bucket a bucket
     * \return its bytes_i, the bytes it has queued
     */
    uint64_t GetFlowBytes(uint32_t bucket) const;

    /**
     * \param bucket a bucket
     * \return its deficit_i in bytes as Fig. 2 keeps it (negative once it sent in round_i;
     *         0 when it has nothing queued)
     */
    int64_t GetDeficit(uint32_t bucket) const;

    /**
     * \param bucket a bucket
     * \return its round_i, the round in which it was last credited its quantum
     */
    uint64_t GetFlowRound(uint32_t bucket) const;

    /**
     * \param bucket a bucket
     * \return its quantum w_i L_M in bytes (0 when it has nothing queued)
     */
    uint32_t GetQuantum(uint32_t bucket) const;

    /// \return the number of the round being served (counted from 0; never wraps)
    uint64_t GetCurrentRound() const;

    /// \return the paper's current: the index of the FIFO being served, in [0, M)
    uint32_t GetCurrent() const;

    /// \return the paper's last: the index of the last non-empty FIFO, in [0, M)
    uint32_t GetLast() const;

    /// \return M, the number of round FIFOs in use
    uint32_t GetRounds() const;

    /// \return L_M in bytes, in use
    uint32_t GetMaxPacketSize() const;

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
    static constexpr const char* OVERFLOW_DROP =
        "Overflow drop"; //!< buffer over B: the tail packet of the last non-empty round
    static constexpr const char* BEYOND_LAST_ROUND_DROP =
        "Beyond the last round"; //!< needs a round M or more rounds ahead (a weight below the one
                                 //!< Rounds was sized for; in packets, a packet over L_M)

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

    /// \return the device's MTU, 1500 B without a device
    uint32_t DeviceMtu() const;

    /**
     * \brief Fig. 2's drop(): drop the tail packet of the last non-empty round.
     * \param arrival the packet being enqueued
     * \param arrivalSlot its slot in the internal queue
     */
    void DropTail(const Ptr<QueueDiscItem>& arrival, uint32_t arrivalSlot);

    /**
     * Count and trace a packet dropped by VdRounds::Drop or refused by VdRounds::Enqueue.
     * \param bucket its bucket
     * \param size its size in bytes
     * \param item the packet
     */
    void CountDrop(uint32_t bucket, uint32_t size, Ptr<const QueueDiscItem> item);

    // Attributes
    uint32_t m_maxPacketSizeAttr;    //!< MaxPacketSize: L_M, 0 for the device MTU
    uint32_t m_roundsAttr;           //!< Rounds: M, 0 for the smallest that cannot wrap
    uint32_t m_buckets;              //!< Buckets: number of buckets (flows)
    FlowIdentifier::Mask m_mask;     //!< Mask: flow identification
    uint32_t m_perturbation;         //!< Perturbation: hash perturbation
    std::string m_weightRules;       //!< WeightRules: weight rules, as text
    double m_defaultWeight;          //!< DefaultWeight: weight of flows no rule matches
    bool m_bucketCounters;           //!< BucketCounters: keep per-bucket counters
    VdRounds::Returning m_returning; //!< ReturningFlows: what a flow that empties and returns gets

    uint32_t m_lm;             //!< L_M in use, bytes
    uint32_t m_m;              //!< M in use
    FlowWeightRules m_weights; //!< parsed weight rules
    double m_uniformWeight;    //!< every flow's weight when there are no rules, else 0
    VdRounds m_vd;             //!< the algorithm's state
    Ptr<SlotQueue> m_q;        //!< the packets, each under the slot VdRounds gave it
    VdFlowTable<DrrScheduler::Counters> m_flowCounters; //!< sent and dropped counters of the
                                                        //!< buckets that had packets leave
    TracedValue<uint64_t> m_currentRound;               //!< the round being served
    TracedValue<uint32_t> m_activeFlows;                //!< number of active flows

    TracedCallback<uint32_t, Ptr<const QueueDiscItem>> m_flowEnqueueTrace; //!< bucket, packet
    TracedCallback<uint32_t, Ptr<const QueueDiscItem>> m_flowDequeueTrace; //!< bucket, packet
    TracedCallback<uint32_t, Ptr<const QueueDiscItem>> m_flowDropTrace;    //!< bucket, packet
    TracedCallback<uint32_t, uint64_t, Ptr<const QueueDiscItem>>
        m_placementTrace;                             //!< bucket, round, packet
    TracedCallback<uint32_t, int64_t> m_deficitTrace; //!< bucket, deficit after it sent
};

} // namespace ns3

#endif /* VERTICAL_DIMENSIONING_QUEUE_DISC_H */
