/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PER_FLOW_QUEUE_DISC_H
#define PER_FLOW_QUEUE_DISC_H

#include "flow-identifier.h"
#include "flow-key-classifier.h"
#include "flow-queues.h"
#include "flow-weight-rules.h"
#include "slot-queue.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief The per-flow family's ns-3 half, shared by every member (the queue discs deriving from
 * PerFlowQueueDiscOf; the catalog lists them: its entries with QueueDiscCatalogEntry::PER_FLOW,
 * `qdisc-bench --list`): flows hashed into buckets, per-flow weights, one shared
 * buffer with a drop policy, per-bucket counters and traces.
 *
 * Classification: installed PacketFilters first (as in FqCoDel), else a hash of the fields the
 * Mask selects, modulo Buckets; non-IP packets share one extra bucket, number Buckets. Weights:
 * a flow that was idle gets the weight of its first packet's WeightRules (DefaultWeight if none
 * matches) for as long as it stays backlogged. Buffer: while the shared buffer (MaxSize) is over
 * its limit, one packet is dropped, counted under the queue disc's overlimit reason
 * (OVERLIMIT_DROP; VD's OVERFLOW_DROP) and in its flow's FlowStats; which one is the DropFrom
 * policy: the head (ns-2) or tail of the longest flow by bytes / weight (McKenney's buffer
 * stealing), or the packet the scheduler would send last (Vertical Dimensioning's drop(), for
 * schedulers that know it), an arrival that would be that packet being dropped before enqueue.
 *
 * This class registers the attributes and trace sources they have in common, checks them, and
 * classifies packets; PerFlowQueueDiscOf adds the per-packet steps (enqueue, the drop policy,
 * dequeue), which call the scheduler. A subclass adds its scheduler's own attributes (Quantum,
 * ...) and, if it needs them, hooks on those steps (PerFlowQueueDiscOf).
 */
class PerFlowQueueDisc : public QueueDisc
{
  public:
    /// Which packet the buffer drops while it is over its limit (the DropFrom attribute).
    enum DropFrom
    {
        DROP_HEAD, //!< the oldest packet of the longest flow (ns-2's DRR)
        DROP_TAIL, //!< the newest packet of the longest flow
        DROP_LAST, //!< the packet the scheduler would send last (VD's drop()); an arrival that
                   //!< would be that packet is dropped before enqueue
    };

    /// Counters of one bucket (flow queue).
    struct FlowStats
    {
        uint64_t enqueuedPackets = 0; //!< packets enqueued
        uint64_t enqueuedBytes = 0;   //!< bytes enqueued
        uint64_t sentPackets = 0;     //!< packets dequeued for transmission
        uint64_t sentBytes = 0;       //!< bytes dequeued for transmission
        uint64_t droppedPackets = 0;  //!< packets dropped by the buffer
        uint64_t droppedBytes = 0;    //!< bytes dropped by the buffer
    };

    /// What the state of a per-flow queue disc costs in memory (GetStateSize).
    using StateSize = FlowStateSize;

    /**
     * Signature of the FlowEnqueue, FlowDequeue and FlowDrop trace sources.
     * \param bucket the packet's bucket (flow)
     * \param item the packet
     */
    using FlowItemTracedCallback = void (*)(uint32_t bucket, Ptr<const QueueDiscItem> item);

    /**
     * Signature of the Deficit trace source of the family's members.
     * \param bucket the bucket (flow) that sent
     * \param deficit its deficit counter afterwards, in bytes
     */
    using DeficitTracedCallback = void (*)(uint32_t bucket, uint64_t deficit);

    /**
     * What a queue disc of the family sets on the attributes and trace sources it shares: the
     * defaults are DrrQueueDisc's (ns-2's).
     */
    struct SharedAttributes
    {
        /// MaxSize's help: the buffer's meaning and limits
        const char* maxSizeHelp =
            "The shared buffer pool (ns-2 DRR's blimit_), in bytes ('25000B') or packets "
            "('100p'). Bytes: at least one MTU (the device's, else 1500 B); packets: at least 1. "
            "Default: ns-2 DRR's 25000 B.";
        uint32_t buckets = 10;                               //!< Buckets' default
        const char* bucketsHelp = "Default: ns-2 DRR's 10."; //!< what ends Buckets' help
        bool dropFrom = true; //!< whether DropFrom is an attribute (else the queue disc's own)
        /// The class that names the trace sources' callback signatures
        const char* callbackScope = "ns3::PerFlowQueueDisc";
        /// The Deficit trace source's help (a member whose scheduler keeps deficit counters)
        const char* deficitHelp = "A flow's deficit counter after it sent a packet: bucket, bytes";
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \param name the subclass's name, which starts its error messages ("DrrQueueDisc")
     * \param dropsLongest whether its scheduler can drop from the longest flow (DropFrom Head,
     *        Tail)
     * \param dropsLast whether its scheduler knows which packet it sends last (DropFrom Last)
     */
    PerFlowQueueDisc(const char* name, bool dropsLongest, bool dropsLast);
    ~PerFlowQueueDisc() override;

    /**
     * \param item a packet
     * \return the bucket it would be queued in (packet filters, else the hash)
     */
    uint32_t GetBucket(Ptr<QueueDiscItem> item);

    /**
     * \return the number of buckets that have held packets of more than one flow since the
     *         simulation started (the non-IP bucket not counted)
     */
    uint32_t GetSharedBuckets() const;

    /**
     * \return the number of buckets that have held a packet since the simulation started (the
     *         non-IP bucket not counted); with GetFlowsInSharedBuckets, how the flows fell into
     *         buckets, counted as packets arrive (every arrival, queued or dropped)
     */
    uint32_t GetUsedBuckets() const;

    /**
     * \return the number of distinct flows that have shared a bucket with another flow since the
     *         simulation started: each such flow is one scheduler flow with the others of its
     *         bucket, and they split one share among them
     */
    uint32_t GetFlowsInSharedBuckets() const;

    /**
     * Signature of the SharedBucket trace source.
     * \param bucket the bucket a flow joined that already held another flow's packets
     * \param flows the number of distinct flows it has held so far (>= 2)
     */
    using SharedBucketTracedCallback = void (*)(uint32_t bucket, uint32_t flows);

    /**
     * What its state costs in memory, as the benchmark reports it (QueueDiscCatalog's
     * ReadFlowState reads every per-flow queue disc through this).
     * \return the bytes of state per active flow and per bucket, and the peak active flows
     */
    virtual StateSize GetStateSize() const = 0;

    /**
     * Drop reasons. Each is 32-byte aligned, as every drop reason of the module: QueueDisc's
     * per-reason counters (std::map<std::string, ...>, looked up with the const char*) take
     * strlen and memcmp of the reason about four times a drop, and glibc's AVX2 versions take a
     * longer path for a string in the last 32 bytes of a page. Aligned, the text never is there,
     * so that a drop costs the same wherever the linker places it (unaligned, qdisc-bench's DRR
     * at 10 flows in overload measured 3,174.6 or 3,200.6 instructions a packet in two builds of
     * the same source).
     */
    alignas(32) static constexpr char OVERLIMIT_DROP[] =
        "Overlimit drop"; //!< shared buffer full: stolen from the longest flow

  protected:
    /**
     * \brief Register the attributes and trace sources every per-flow queue disc shares
     * (MaxSize, Buckets, Mask, Perturbation, DropFrom, WeightRules, DefaultWeight; ActiveFlows,
     * FlowEnqueue, FlowDequeue, FlowDrop) on a subclass's own TypeId; PerFlowQueueDiscOf's
     * AddSharedAttributes adds Deficit for a member whose scheduler keeps deficit counters.
     *
     * They are registered on each subclass rather than on ns3::PerFlowQueueDisc because
     * Config::SetDefault and --ns3::X::Attr on the command line look only at X's own
     * attributes: "ns3::DrrQueueDisc::Buckets" must keep working.
     * \param tid the subclass's TypeId, its parent set to ns3::PerFlowQueueDisc
     * \param shared what the subclass sets on them
     * \return \p tid with the shared attributes and trace sources
     */
    static TypeId AddCommonAttributes(TypeId tid, const SharedAttributes& shared);

    void DoDispose() override;

    /**
     * The checks every per-flow queue disc makes (no classes, no internal queue added, Buckets,
     * DefaultWeight, MaxSize, DropFrom, WeightRules); then it creates the internal queue. A
     * subclass checks its own attributes and calls this.
     * \return true
     */
    bool CheckConfig() override;

    /// Empty the internal queue and ActiveFlows; a subclass resets its scheduler and calls this.
    void InitializeParams() override;

    /**
     * The smallest MaxSize in bytes (CheckConfig): one MTU, the device's or 1500 B.
     * \param what set to what it is, for the message ("one MTU (1500 B)")
     * \return it
     */
    virtual uint32_t GetSmallestBuffer(std::string& what) const;

    /// \return the device's MTU, 1500 B without a device
    uint32_t GetDeviceMtu() const;

    /// \return the memory of the per-bucket record of which flow each bucket holds, in bytes
    std::size_t GetBucketOwnersBytes() const
    {
        return m_owners.capacity() * sizeof(BucketOwner);
    }

    /**
     * \param item a packet
     * \param key its flow key (FlowIdentifier::Extract)
     * \return its bucket: installed packet filters first, else the hash of its key
     */
    uint32_t Classify(const Ptr<QueueDiscItem>& item, const FlowKey& key)
    {
        // Inline, as FlowIdentifier::Bucket: every packet comes here.
        const int32_t filterClass = ClassifyByFilters(item, key);
        return FlowIdentifier::Bucket(key, filterClass, m_buckets, m_mask, m_perturbation);
    }

    /**
     * Classify an arriving packet, and note which flow its bucket holds (GetSharedBuckets).
     * \param item a packet
     * \param key its flow key (FlowIdentifier::Extract)
     * \return its bucket, as Classify
     */
    uint32_t ClassifyArrival(const Ptr<QueueDiscItem>& item, const FlowKey& key)
    {
        // Inline: every packet comes here. A flow is what was taken modulo Buckets: the filter's
        // class, else the hash of the fields the Mask selects.
        const int32_t filterClass = ClassifyByFilters(item, key);
        if (filterClass == PacketFilter::PF_NO_MATCH && !key.isIp)
        {
            return m_buckets; // the bucket of non-IP packets
        }
        const uint32_t flow = filterClass != PacketFilter::PF_NO_MATCH
                                  ? static_cast<uint32_t>(filterClass)
                                  : FlowIdentifier::Hash(key, m_mask, m_perturbation);
        const uint32_t bucket = flow % m_buckets;
        BucketOwner& owner = m_owners[bucket];
        if (owner.flow != flow || owner.weight == 0)
        {
            if (owner.weight == 0 && m_uniformWeight != 0)
            {
                owner = BucketOwner{flow, static_cast<float>(m_uniformWeight), 1};
            }
            else
            {
                NoteOtherFlow(bucket, flow, key); // the bucket's first flow, or another one
            }
        }
        return bucket;
    }

    /**
     * \param item a packet
     * \param key its flow key
     * \return its class from the installed packet filters: PacketFilter::PF_NO_MATCH without
     *         any; the filter's ClassifyKey when the only one is a FlowKeyClassifier (the key
     *         read once); else QueueDisc::Classify's
     */
    int32_t ClassifyByFilters(const Ptr<QueueDiscItem>& item, const FlowKey& key)
    {
        const std::size_t filters = GetNPacketFilters();
        if (filters == 0)
        {
            return PacketFilter::PF_NO_MATCH;
        }
        if (filters == 1)
        {
            // QueueDisc only appends filters: while there is one, it is the one found here.
            if (!m_keyClassifierChecked)
            {
                FindKeyClassifier();
            }
            if (m_keyClassifier != nullptr)
            {
                return m_keyClassifier->ClassifyKey(key);
            }
        }
        return QueueDisc::Classify(item);
    }

    /// \return the subclass's name, for its messages
    const char* GetName() const
    {
        return m_name;
    }

    /// The shared buffer's limit (MaxSize), decoded.
    struct Limit
    {
        bool inPackets = true; //!< in packets, else in bytes
        uint32_t value = 0;    //!< packets or bytes
    };

    /**
     * MaxSize, read on every packet (QueueDisc::SetMaxSize may change it at any time) but
     * decoded only when it changed: QueueSize's getters are calls into ns-3, and they cost
     * more than the rest of the limit check.
     * \return the limit
     */
    const Limit& GetLimit()
    {
        const QueueSize size = GetMaxSize();
        // QueueSize is a unit and a value and nothing else: equal bytes, the same limit.
        static_assert(std::is_trivially_copyable_v<QueueSize> && sizeof(QueueSize) == 8,
                      "QueueSize is not {unit, value}");
        if (std::memcmp(&size, &m_limitSize, sizeof(QueueSize)) != 0)
        {
            m_limitSize = size;
            m_limit = Limit{size.GetUnit() == QueueSizeUnit::PACKETS, size.GetValue()};
        }
        return m_limit;
    }

    // Attributes
    uint32_t m_buckets;          //!< number of buckets (ns-2 buckets_)
    FlowIdentifier::Mask m_mask; //!< flow identification (ns-2 mask_)
    uint32_t m_perturbation;     //!< hash perturbation
    DropFrom m_dropFrom;         //!< which packet the buffer drops
    std::string m_weightRules;   //!< weight rules, as text
    double m_defaultWeight;      //!< weight of flows no rule matches

    FlowWeightRules m_weights;           //!< parsed weight rules
    double m_uniformWeight;              //!< every flow's weight when there are no rules, else 0
    Ptr<SlotQueue> m_queues;             //!< every bucket's packets: the one internal queue
    TracedValue<uint32_t> m_activeFlows; //!< number of backlogged flows
    const char* m_overlimitReason;       //!< drop reason of the buffer's drops (OVERLIMIT_DROP)

    TracedCallback<uint32_t, Ptr<const QueueDiscItem>> m_flowEnqueueTrace; //!< bucket, packet
    TracedCallback<uint32_t, Ptr<const QueueDiscItem>> m_flowDequeueTrace; //!< bucket, packet
    TracedCallback<uint32_t, Ptr<const QueueDiscItem>> m_flowDropTrace;    //!< bucket, packet

  private:
    /// The flow a bucket held first, and its weight.
    struct BucketOwner
    {
        uint32_t flow = 0;  //!< the flow (what was taken modulo Buckets)
        float weight = 0;   //!< its weight (WeightRules); 0: the bucket has held no packet
        uint32_t flows = 0; //!< distinct flows the bucket has held
    };

    /**
     * ClassifyArrival's rare case: a bucket's first packet (with weight rules; without, its
     * owner is noted inline), or a packet of another flow than the one the bucket held first.
     * Counts the bucket's distinct flows, fires SharedBucket,
     * and warns once on stderr (always, NS_LOG or not) when flows of different weights share
     * one.
     * \param bucket the bucket
     * \param flow the arrival's flow
     * \param key the arrival's flow key
     */
    void NoteOtherFlow(uint32_t bucket, uint32_t flow, const FlowKey& key);

    /**
     * A set of (bucket, flow) pairs, open addressing with linear probing, at most half full: a
     * flat array, so that noting a flow allocates nothing but the array's growth (a node-based
     * set allocates one per flow, and with many flows most arrivals are a flow's first).
     */
    class PairSet
    {
      public:
        /**
         * \param bucket a bucket (< 2^24)
         * \param flow a flow
         * \return whether the pair was not in the set (it is now)
         */
        bool Insert(uint32_t bucket, uint32_t flow);

        /// \return the number of pairs
        std::size_t Size() const
        {
            return m_size;
        }

        /// Forget every pair.
        void Clear();

      private:
        /// An empty slot (no pair: buckets are below 2^24).
        static constexpr uint64_t EMPTY = UINT64_MAX;

        /**
         * \param key a pair, bucket << 32 | flow
         * \return where its probe starts
         */
        std::size_t Home(uint64_t key) const
        {
            // Fibonacci hashing: the top bits of key x 2^64 / phi.
            return static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ULL) >> m_shift);
        }

        /// Double the slots and insert every pair again.
        void Grow();

        std::vector<uint64_t> m_slots; //!< pairs and EMPTY slots; a power of two of them
        std::size_t m_size = 0;        //!< pairs in the set
        int m_shift = 64;              //!< 64 - log2(number of slots)
    };

    std::vector<BucketOwner> m_owners; //!< per bucket: its first flow
    PairSet m_sharers;                 //!< (bucket, flow) of every flow in a shared bucket
    uint32_t m_sharedBuckets = 0;      //!< buckets that have held two flows or more
    bool m_warnedWeights = false;      //!< whether the weights warning was printed

    /// Note whether the only packet filter is a FlowKeyClassifier (ClassifyByFilters).
    void FindKeyClassifier();

    const FlowKeyClassifier* m_keyClassifier = nullptr; //!< the only filter, as one; or null
    bool m_keyClassifierChecked = false; //!< whether FindKeyClassifier looked at the filter
    TracedCallback<uint32_t, uint32_t> m_sharedBucketTrace; //!< bucket, its distinct flows

    QueueSize m_limitSize; //!< MaxSize when m_limit was decoded
    Limit m_limit;         //!< m_limitSize, decoded
    const char* m_name;    //!< the subclass's name
    bool m_dropsLongest;   //!< whether its scheduler can drop from the longest flow
    bool m_dropsLast;      //!< whether its scheduler knows which packet it sends last
};

namespace perflow
{

/// Whether Scheduler::Arrive may refuse a packet (it says so with REFUSES_ARRIVALS = true).
template <typename S, typename = void>
struct RefusesArrivals : std::false_type
{
};

/// \copydoc RefusesArrivals
template <typename S>
struct RefusesArrivals<S, std::void_t<decltype(S::REFUSES_ARRIVALS)>>
    : std::bool_constant<S::REFUSES_ARRIVALS>
{
};

/// Whether the scheduler drops from the longest flow: Packet Drop(bool fromHead).
template <typename S, typename = void>
struct DropsLongest : std::false_type
{
};

/// \copydoc DropsLongest
template <typename S>
struct DropsLongest<S, std::void_t<decltype(std::declval<S&>().Drop(true))>> : std::true_type
{
};

/// Whether the scheduler drops the packet it would send last: Packet DropLast().
template <typename S, typename = void>
struct DropsLast : std::false_type
{
};

/// \copydoc DropsLast
template <typename S>
struct DropsLast<S, std::void_t<decltype(std::declval<S&>().DropLast())>> : std::true_type
{
};

/**
 * A flow's deficit counter as the scheduler keeps it (the type of its packets' deficit field),
 * and the Deficit trace source; for a scheduler without deficit counters, void and no trace.
 */
template <typename S, bool = HasDeficit<S>::value>
struct DeficitOf
{
    using Type = void; //!< no deficit counter

    /// No Deficit trace source.
    struct Trace
    {
    };
};

/// \copydoc DeficitOf
template <typename S>
struct DeficitOf<S, true>
{
    using Type = decltype(S::Packet::deficit);    //!< the packets' deficit field
    using Trace = TracedCallback<uint32_t, Type>; //!< bucket, deficit after it sent
};

/// Whether the scheduler keeps its own buffer limit: bool OverLimit() const.
template <typename S, typename = void>
struct KeepsLimit : std::false_type
{
};

/// \copydoc KeepsLimit
template <typename S>
struct KeepsLimit<S, std::void_t<decltype(std::declval<const S&>().OverLimit())>> : std::true_type
{
};

} // namespace perflow

/**
 * \ingroup qdisc-lab
 * \brief A PerFlowQueueDisc with its scheduler: the per-packet steps every one of them takes
 * (enqueue, the drop policy, dequeue) and the per-bucket getters, written once, without a
 * virtual call per packet.
 *
 * What it calls on the Scheduler (each member's own, e.g. DrrScheduler):
 * `Slot Arrive(flow, size, weight)`, `Packet Dequeue()` (Packet has flow, slot, size and
 * deficit), `const auto& GetFlows()` (the per-flow state: Empty, GetActiveFlows,
 * IsBacklogged, GetBytes, GetPackets, GetCounters, GetFlowCount; and GetDeficit, for a
 * scheduler that keeps deficit counters: only then are there GetDeficit and the Deficit trace
 * source, HAS_DEFICIT) and `FlowStateSize GetStateSize()`; for the buffer, `Packet Drop(bool
 * fromHead)` (the longest flow's head or tail) or `Packet DropLast()` (the packet it would send
 * last) or both. A scheduler whose Arrive may refuse a packet sets `REFUSES_ARRIVALS` and returns
 * `REFUSED`; one that keeps its own limit has `bool OverLimit()`.
 *
 * Leaf, the queue disc deriving from it, may hide these hooks with its own (they are called
 * as Leaf's, statically; they must be accessible here, e.g. through a friend declaration):
 * `Queued(flow, key, item)` after a packet joined its flow, `Served(packet)` after one was
 * sent (both log by default), and, if the scheduler refuses packets, `const char*
 * Refused(flow, key, size)`, which returns the drop reason.
 *
 * \tparam Scheduler the scheduler
 * \tparam Leaf the queue disc deriving from it
 */
template <typename Scheduler, typename Leaf>
class PerFlowQueueDiscOf : public PerFlowQueueDisc
{
  public:
    /// A packet that left: sent, or dropped by the buffer.
    using Packet = typename Scheduler::Packet;
    /// Whether the scheduler keeps a deficit counter per flow (GetDeficit, the Deficit trace).
    static constexpr bool HAS_DEFICIT = perflow::HasDeficit<Scheduler>::value;
    /// A flow's deficit counter as the scheduler keeps it (void without deficit counters).
    using Deficit = typename perflow::DeficitOf<Scheduler>::Type;

    /**
     * \param name the subclass's name, which starts its error messages
     */
    explicit PerFlowQueueDiscOf(const char* name)
        : PerFlowQueueDisc(name,
                           perflow::DropsLongest<Scheduler>::value,
                           perflow::DropsLast<Scheduler>::value),
          NS_LOG_TEMPLATE_DEFINE(name)
    {
    }

    /**
     * \param bucket a bucket, 0 .. Buckets (the last one holds non-IP packets)
     * \return its counters since the simulation started; enqueuedPackets counts every arrival,
     *         also those dropped on arrival
     */
    FlowStats GetFlowStats(uint32_t bucket) const
    {
        const auto& flows = m_scheduler.GetFlows();
        NS_ABORT_MSG_UNLESS(bucket < flows.GetFlowCount(),
                            GetName() << ": bucket " << bucket << " out of range [0, "
                                      << flows.GetFlowCount() << ")");
        const FlowCounters counters = flows.GetCounters(bucket);
        FlowStats stats;
        stats.sentPackets = counters.sentPackets;
        stats.sentBytes = counters.sentBytes;
        stats.droppedPackets = counters.droppedPackets;
        stats.droppedBytes = counters.droppedBytes;
        // Every arrival was sent, dropped (on arrival or later), or is still queued.
        stats.enqueuedPackets =
            counters.sentPackets + counters.droppedPackets + flows.GetPackets(bucket);
        stats.enqueuedBytes = counters.sentBytes + counters.droppedBytes + flows.GetBytes(bucket);
        return stats;
    }

    /// \return the number of backlogged flows
    uint32_t GetActiveFlows() const
    {
        return m_scheduler.GetFlows().GetActiveFlows();
    }

    /**
     * Only for a scheduler that keeps deficit counters (HAS_DEFICIT).
     * \param bucket a bucket
     * \return its deficit counter in bytes, as its scheduler keeps it (0 when idle)
     * \tparam S Scheduler
     */
    template <typename S = Scheduler, typename = std::enable_if_t<perflow::HasDeficit<S>::value>>
    Deficit GetDeficit(uint32_t bucket) const
    {
        return m_scheduler.GetFlows().GetDeficit(bucket);
    }

    /**
     * \param bucket a bucket
     * \return its backlog in bytes
     */
    uint64_t GetFlowBytes(uint32_t bucket) const
    {
        return m_scheduler.GetFlows().GetBytes(bucket);
    }

    StateSize GetStateSize() const override
    {
        StateSize size = m_scheduler.GetStateSize();
        size.bucketBytes += GetBucketOwnersBytes();
        return size;
    }

  protected:
    /**
     * PerFlowQueueDisc::AddCommonAttributes and, for a scheduler that keeps deficit counters, the
     * Deficit trace source, with the deficit's type.
     * \param tid the subclass's TypeId, its parent set to ns3::PerFlowQueueDisc
     * \param shared what the subclass sets on them
     * \return \p tid with the shared attributes and trace sources
     */
    static TypeId AddSharedAttributes(TypeId tid,
                                      const SharedAttributes& shared = SharedAttributes())
    {
        tid = AddCommonAttributes(tid, shared);
        if constexpr (HAS_DEFICIT)
        {
            tid.AddTraceSource("Deficit",
                               shared.deficitHelp,
                               MakeTraceSourceAccessor(&PerFlowQueueDiscOf::m_deficitTrace),
                               std::string(shared.callbackScope) + "::DeficitTracedCallback");
        }
        return tid;
    }

    /**
     * Hook: a packet joined its flow (Leaf may hide it; this one logs).
     * \param flow its bucket
     * \param key its flow key
     * \param item the packet
     */
    void Queued(uint32_t flow, const FlowKey& key, const Ptr<QueueDiscItem>& /* item */)
    {
        NS_LOG_DEBUG("bucket " << flow << " (" << key.ToString()
                               << "): " << m_scheduler.GetFlows().GetPackets(flow) << " packets, "
                               << m_scheduler.GetFlows().GetBytes(flow) << " B");
    }

    /**
     * Hook: the scheduler sent a packet (Leaf may hide it; this one logs).
     * \param p the packet, as the scheduler's Dequeue returned it
     */
    void Served(const Packet& p)
    {
        if constexpr (HAS_DEFICIT)
        {
            NS_LOG_DEBUG("bucket " << p.flow << " sends " << p.size << " B, deficit now "
                                   << p.deficit);
        }
        else
        {
            NS_LOG_DEBUG("bucket " << p.flow << " sends " << p.size << " B");
        }
    }

    Scheduler m_scheduler; //!< the scheduler's state

    /// The subclass's log component (by the name given to the constructor), for the messages of
    /// these steps; in the subclass's members it names the same component as its own g_log.
    NS_LOG_TEMPLATE_DECLARE;

  private:
    /// \return the internal queue (m_queues, without Ptr's checked dereference per packet)
    SlotQueue& Slots()
    {
        return *PeekPointer(m_queues);
    }

    /// \return the queue disc deriving from this, for its hooks
    Leaf* GetLeaf()
    {
        return static_cast<Leaf*>(this);
    }

    bool DoEnqueue(Ptr<QueueDiscItem> item) override
    {
        // 1. Find the packet's flow; an idle flow takes the weight of its first packet's rule.
        const FlowKey key = FlowIdentifier::Extract(*item);
        const uint32_t f = ClassifyArrival(item, key);
        double weight = m_uniformWeight; // every flow's, without rules
        if (weight == 0)
        {
            weight = m_scheduler.GetFlows().IsBacklogged(f) ? 1.0 : m_weights.WeightOf(key);
        }
        const uint32_t size = item->GetSize();

        // 2. The scheduler queues it (or refuses it: VD, for a round beyond its last). One with
        // a limit of its own follows MaxSize, which SetMaxSize may change after Initialize.
        if constexpr (perflow::KeepsLimit<Scheduler>::value)
        {
            const Limit& limit = GetLimit();
            m_scheduler.SetLimit(limit.value, limit.inPackets);
        }
        const uint32_t slot = m_scheduler.Arrive(f, size, weight);
        if constexpr (perflow::RefusesArrivals<Scheduler>::value)
        {
            if (slot == Scheduler::REFUSED)
            {
                return Refuse(f, item, GetLeaf()->Refused(f, key, size));
            }
        }
        // DropFrom = Last, for a scheduler without a limit of its own (VD refuses in Arrive):
        // VD's Fig. 2 inserts, then drops the packet sent last while over the limit; when the
        // first one is the arrival itself, it is dropped before enqueue.
        Packet stolen;
        bool steal = false;
        if constexpr (perflow::DropsLast<Scheduler>::value &&
                      !perflow::KeepsLimit<Scheduler>::value)
        {
            if (m_dropFrom == DROP_LAST)
            {
                steal = StealLast(size, stolen);
                if (steal && stolen.slot == slot)
                {
                    NS_LOG_DEBUG("buffer full: bucket " << f << "'s " << size
                                                        << " B would be sent last; dropped");
                    return Refuse(f, item, m_overlimitReason);
                }
            }
        }
        Slots().Put(slot, item, size);
        m_activeFlows.Set(m_scheduler.GetFlows().GetActiveFlows());
        GetLeaf()->Queued(f, key, item);
        if (!m_flowEnqueueTrace.IsEmpty())
        {
            m_flowEnqueueTrace(f, item);
        }

        // 3. While the shared buffer is over its limit, the drop policy (DropFrom) drops.
        if constexpr (perflow::KeepsLimit<Scheduler>::value)
        {
            while (m_scheduler.OverLimit())
            {
                DropStolen(item, slot, Steal());
            }
        }
        else
        {
            if (steal)
            {
                DropStolen(item, slot, stolen);
            }
            // Each drop takes one packet and its bytes off the queue disc's counts (its internal
            // queue's Dequeue trace, or DropAfterDequeue while a packet is peeked): counted
            // down here, they are read once.
            const Limit limit = GetLimit();
            uint32_t queued = limit.inPackets ? GetNPackets() : GetNBytes();
            while (queued > limit.value)
            {
                const Packet p = Steal();
                DropStolen(item, slot, p);
                queued -= limit.inPackets ? 1 : p.size;
            }
        }
        return true;
    }

    /**
     * DropFrom = Last: if the buffer is over its limit with the arrival (not yet in the internal
     * queue), the scheduler drops the packet it would send last.
     * \param size the arrival's size
     * \param last set to that packet
     * \return whether it dropped one
     */
    bool StealLast(uint32_t size, Packet& last)
    {
        if (!OverLimitWith(size))
        {
            return false;
        }
        last = m_scheduler.DropLast();
        return true;
    }

    Ptr<QueueDiscItem> DoDequeue() override
    {
        if (m_scheduler.GetFlows().Empty())
        {
            return nullptr;
        }
        return Serve();
    }

    /**
     * The scheduler's step (which flow sends, and its packet) and its bookkeeping. (A function
     * of its own, with one return, so that the packet is returned without a copy.)
     * \return the packet sent
     */
    Ptr<QueueDiscItem> Serve()
    {
        const Packet p = m_scheduler.Dequeue();
        Ptr<QueueDiscItem> item = Slots().Take(p.slot, p.size);
        GetLeaf()->Served(p);
        m_activeFlows.Set(m_scheduler.GetFlows().GetActiveFlows());
        if (!m_flowDequeueTrace.IsEmpty())
        {
            m_flowDequeueTrace(p.flow, item);
        }
        if constexpr (HAS_DEFICIT)
        {
            if (!m_deficitTrace.IsEmpty())
            {
                m_deficitTrace(p.flow, p.deficit);
            }
        }
        return item;
    }

    /**
     * \param size the size of a packet not yet in the internal queue
     * \return whether the buffer would be over its limit with it
     */
    bool OverLimitWith(uint32_t size)
    {
        const Limit& limit = GetLimit();
        return limit.inPackets ? uint64_t{GetNPackets()} + 1 > limit.value
                               : uint64_t{GetNBytes()} + size > limit.value;
    }

    /// \return the packet the drop policy (DropFrom) takes from the scheduler
    Packet Steal()
    {
        if constexpr (perflow::DropsLast<Scheduler>::value &&
                      perflow::DropsLongest<Scheduler>::value)
        {
            return m_dropFrom == DROP_LAST ? m_scheduler.DropLast()
                                           : m_scheduler.Drop(m_dropFrom == DROP_HEAD);
        }
        else if constexpr (perflow::DropsLast<Scheduler>::value)
        {
            return m_scheduler.DropLast();
        }
        else
        {
            return m_scheduler.Drop(m_dropFrom == DROP_HEAD);
        }
    }

    /**
     * \brief Drop a packet the scheduler gave up, after dequeue (buffer stealing).
     * \param arrival the packet being enqueued
     * \param arrivalSlot its slot in the internal queue
     * \param p the packet dropped, as the scheduler's Drop or DropLast returned it
     */
    void DropStolen(const Ptr<QueueDiscItem>& arrival, uint32_t arrivalSlot, const Packet& p)
    {
        if (p.slot == arrivalSlot)
        {
            // The arrival itself: QueueDisc::Enqueue stamps items only after DoEnqueue returns,
            // and the internal queue reports the sojourn time (Now - timestamp) when it gives
            // the packet up; stamp it, or that SojournTime sample would be the absolute time.
            // (Only here: Simulator::Now costs ~100 instructions a packet.)
            arrival->SetTimeStamp(Simulator::Now());
        }
        Ptr<QueueDiscItem> item = Slots().Take(p.slot, p.size);
        NS_LOG_DEBUG("buffer over " << GetMaxSize() << ": drop " << p.size << " B of bucket "
                                    << p.flow << " (" << m_scheduler.GetFlows().GetBytes(p.flow)
                                    << " B left)");
        m_activeFlows.Set(m_scheduler.GetFlows().GetActiveFlows());
        if (!m_flowDropTrace.IsEmpty())
        {
            m_flowDropTrace(p.flow, item);
        }
        DropAfterDequeue(item, m_overlimitReason);
    }

    /**
     * \brief Drop an arrival before enqueue (the scheduler has counted it).
     * \param flow its bucket
     * \param item the packet
     * \param reason the drop reason
     * \return false
     */
    bool Refuse(uint32_t flow, const Ptr<QueueDiscItem>& item, const char* reason)
    {
        if (!m_flowDropTrace.IsEmpty())
        {
            m_flowDropTrace(flow, item);
        }
        DropBeforeEnqueue(item, reason);
        return false;
    }

    /// bucket, deficit after it sent (nothing, for a scheduler without deficit counters)
    typename perflow::DeficitOf<Scheduler>::Trace m_deficitTrace;
};

} // namespace ns3

#endif /* PER_FLOW_QUEUE_DISC_H */
