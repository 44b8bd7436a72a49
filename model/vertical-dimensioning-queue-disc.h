/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef VERTICAL_DIMENSIONING_QUEUE_DISC_H
#define VERTICAL_DIMENSIONING_QUEUE_DISC_H

#include "per-flow-queue-disc.h"
#include "vd-rounds.h"
#include "vertical-dimensioning-scheduler.h"

#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief Vertical Dimensioning (Bakiras, Wang, Papadias and Hamdi): DRR's rounds without per-flow
 * queues. One FIFO per round; each packet joins, on arrival, the round in which DRR would send it.
 *
 * A member of the per-flow family (PerFlowQueueDiscOf over VerticalDimensioningScheduler): the
 * packet's flow i is its bucket, found as DrrQueueDisc finds it (packet filters, else
 * FlowIdentifier's hash of the Mask's fields modulo Buckets; non-IP packets share bucket Buckets),
 * and a new flow takes the weight w_i the WeightRules give its first packet; the shared attributes,
 * trace sources, per-bucket getters and enqueue and dequeue steps are PerFlowQueueDisc's. Its own
 * are the rounds and the buffer's drop policy, VD's (PerFlowQueueDisc's DropFrom = Last, fixed):
 *
 * Enqueue (Fig. 2): Equation (3) places the packet in round current + ceil((bytes_i - deficit_i
 * + size) / (w_i L_M)) - 1, whose FIFO is q[round mod M]. While more than B (MaxSize, bytes or
 * packets) is queued, the tail packet of the last non-empty round is dropped (OVERFLOW_DROP): in
 * O(1), and it is the newest packet of its flow, so no other packet's round changes. IPv4 and
 * IPv6 alike; packets larger than w_i L_M wait for ceil(size / (w_i L_M)) rounds' quanta, as in
 * DRR.
 *
 * Dequeue: the head of q[current]; when q[current] empties, current moves to the next round.
 * A flow with nothing queued has no state: its next packet starts it afresh (deficit 0, round
 * current), as DRR resets the deficit of a flow that empties.
 *
 * The algorithm is VdRounds (no simulator, unit-tested); the packets are in the family's one
 * internal queue, a SlotQueue that finds each packet by the slot VdRounds gave it.
 */
class VerticalDimensioningQueueDisc
    : public PerFlowQueueDiscOf<VerticalDimensioningScheduler, VerticalDimensioningQueueDisc>
{
  public:
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

    /// Drop reasons (32-byte aligned: see PerFlowQueueDisc::OVERLIMIT_DROP)
    alignas(32) static constexpr char OVERFLOW_DROP[] =
        "Overflow drop"; //!< buffer over B: the tail packet of the last non-empty round
    alignas(32) static constexpr char BEYOND_LAST_ROUND_DROP[] =
        "Beyond the last round"; //!< needs a round M or more rounds ahead (a weight below the one
                                 //!< Rounds was sized for; in packets, a packet over L_M)

  private:
    friend class PerFlowQueueDiscOf<VerticalDimensioningScheduler, VerticalDimensioningQueueDisc>;

    /**
     * After a packet was placed: the Placement trace.
     * \param i its flow
     * \param key its flow key
     * \param item the packet
     */
    void Queued(uint32_t i, const FlowKey& key, const Ptr<QueueDiscItem>& item)
    {
        const VdRounds& vd = m_scheduler.GetVdRounds();
        const uint64_t round = m_scheduler.GetPlacement();
        if (!m_placementTrace.IsEmpty())
        {
            m_placementTrace(i, round, item);
        }
        NS_LOG_DEBUG("bucket " << i << " (" << key.ToString() << "), quantum " << vd.GetQuantum(i)
                               << " B: " << item->GetSize() << " B into round " << round << " (q["
                               << vd.SlotOf(round) << "]), current " << vd.GetCurrent()
                               << ", bytes_i " << vd.GetFlowBytes(i) << ", deficit_i "
                               << vd.GetDeficit(i));
    }

    /**
     * After a packet was sent: the CurrentRound trace.
     * \param p the packet
     */
    void Served(const Packet& p)
    {
        m_currentRound.Set(m_scheduler.GetVdRounds().GetCurrent());
        NS_LOG_DEBUG("round " << p.round << ": bucket " << p.flow << " sends " << p.size
                              << " B, deficit_i " << p.deficit << ", current now "
                              << m_scheduler.GetVdRounds().GetCurrent());
    }

    /**
     * Why VerticalDimensioningScheduler::Arrive refused a packet.
     * \param i its flow
     * \param key its flow key
     * \param size its size
     * \return the drop reason
     */
    const char* Refused(uint32_t i, const FlowKey& key, uint32_t size)
    {
        if (m_scheduler.GetVerdict() == VdRounds::OVER_LIMIT)
        {
            // It would be the tail of the last non-empty round of an overflowing buffer: (15)-(16)
            // would drop it at once.
            NS_LOG_DEBUG("bucket " << i << " (" << key.ToString() << "): " << size
                                   << " B would overflow from the last round; dropped");
            return OVERFLOW_DROP;
        }
        NS_LOG_DEBUG("bucket " << i << " (" << key.ToString() << "): " << size
                               << " B would need a round beyond current + " << m_m - 1
                               << "; dropped");
        return BEYOND_LAST_ROUND_DROP;
    }

    bool CheckConfig() override;
    void InitializeParams() override;
    uint32_t GetSmallestBuffer(std::string& what) const override;

    // Attributes (the family's are PerFlowQueueDisc's)
    uint32_t m_maxPacketSizeAttr;    //!< MaxPacketSize: L_M, 0 for the device MTU
    uint32_t m_roundsAttr;           //!< Rounds: M, 0 for the smallest that cannot wrap
    bool m_bucketCounters;           //!< BucketCounters: keep per-bucket counters
    VdRounds::Returning m_returning; //!< ReturningFlows: what a flow that empties and returns gets

    uint32_t m_lm;                        //!< L_M in use, bytes
    uint32_t m_m;                         //!< M in use
    TracedValue<uint64_t> m_currentRound; //!< the round being served
    TracedCallback<uint32_t, uint64_t, Ptr<const QueueDiscItem>>
        m_placementTrace; //!< bucket, round, packet
};

} // namespace ns3

#endif /* VERTICAL_DIMENSIONING_QUEUE_DISC_H */
