/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef VD_ROUNDS_H
#define VD_ROUNDS_H

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief A hash table from flow ids (any 32-bit values, e.g. hash buckets) to values, stored
 * inline: open addressing with linear probing, Fibonacci hashing, backward-shift deletion.
 *
 * It doubles when half full and never shrinks, so its size follows the peak number of entries
 * and, once warmed up, it allocates nothing. Growing moves the values: pointers and references
 * to them are valid until the next InsertAt or FindOrInsert.
 *
 * \tparam Value the value type (default-constructible, copyable)
 */
template <typename Value>
class VdFlowTable
{
  public:
    VdFlowTable()
    {
        Clear();
    }

    /// Remove every entry and shrink to the initial 16 slots.
    void Clear()
    {
        m_slots.assign(std::size_t{1} << INITIAL_BITS, Slot{});
        m_shift = 32 - INITIAL_BITS;
        m_size = 0;
    }

    /// Where a search for a key ended.
    struct Position
    {
        Value* value;     //!< the key's value, nullptr if absent
        std::size_t slot; //!< if absent, the empty slot where it would go
    };

    /**
     * \param key a flow id
     * \return its value, or where it would be inserted (InsertAt)
     */
    Position Locate(uint32_t key)
    {
        const std::size_t mask = m_slots.size() - 1;
        std::size_t h = Home(key);
        for (; m_slots[h].used; h = (h + 1) & mask)
        {
            if (m_slots[h].key == key)
            {
                return {&m_slots[h].value, h};
            }
        }
        return {nullptr, h};
    }

    /**
     * \param key a flow id
     * \return its value, nullptr if absent
     */
    Value* Find(uint32_t key)
    {
        return Locate(key).value;
    }

    /**
     * \param key a flow id
     * \return its value, nullptr if absent
     */
    const Value* Find(uint32_t key) const
    {
        return const_cast<VdFlowTable*>(this)->Find(key);
    }

    /**
     * \param key a flow id
     * \return its value, inserted (default-constructed) if absent
     */
    Value& FindOrInsert(uint32_t key)
    {
        const Position position = Locate(key);
        return position.value ? *position.value : InsertAt(position, key);
    }

    /**
     * Insert an absent key where Locate found it would go (no second search), unless the table
     * must grow first.
     * \param position what Locate(key) returned, with no Insert, Erase or Clear since
     * \param key the flow id, absent
     * \return its value, default-constructed
     */
    Value& InsertAt(const Position& position, uint32_t key)
    {
        if (2 * (m_size + 1) > m_slots.size())
        {
            Grow();
            return InsertAt(Locate(key), key);
        }
        m_slots[position.slot] = Slot{key, true, Value{}};
        ++m_size;
        return m_slots[position.slot].value;
    }

    /**
     * \param key a flow id, present
     */
    void Erase(uint32_t key)
    {
        const std::size_t mask = m_slots.size() - 1;
        std::size_t hole = Home(key);
        while (m_slots[hole].key != key || !m_slots[hole].used)
        {
            hole = (hole + 1) & mask;
        }
        // Backward shift: move up every later entry of the probe run whose home is not in
        // (hole, j], so that no run has a gap.
        for (std::size_t j = (hole + 1) & mask; m_slots[j].used; j = (j + 1) & mask)
        {
            const std::size_t home = Home(m_slots[j].key);
            const bool stays = hole < j ? (hole < home && home <= j) : (hole < home || home <= j);
            if (!stays)
            {
                m_slots[hole] = m_slots[j];
                hole = j;
            }
        }
        m_slots[hole] = Slot{};
        --m_size;
    }

    /// \return the number of entries
    std::size_t GetSize() const
    {
        return m_size;
    }

    /// \return the number of slots (a power of 2)
    std::size_t GetSlots() const
    {
        return m_slots.size();
    }

    /// \return the bytes of one slot (a key, a flag and a value)
    static constexpr std::size_t SlotBytes()
    {
        return sizeof(Slot);
    }

  private:
    /// log2 of the initial number of slots.
    static constexpr uint32_t INITIAL_BITS = 4;

    /// One slot.
    struct Slot
    {
        uint32_t key = 0;  //!< flow id
        bool used = false; //!< whether it holds an entry
        Value value{};     //!< the value
    };

    /**
     * \param key a flow id
     * \return its home slot
     */
    std::size_t Home(uint32_t key) const
    {
        return static_cast<uint32_t>(key * 2654435769U) >> m_shift;
    }

    /// Double the slots and re-insert every entry.
    void Grow()
    {
        std::vector<Slot> previous(m_slots.size() * 2);
        previous.swap(m_slots);
        --m_shift;
        const std::size_t mask = m_slots.size() - 1;
        for (const Slot& slot : previous)
        {
            if (slot.used)
            {
                std::size_t h = Home(slot.key);
                while (m_slots[h].used)
                {
                    h = (h + 1) & mask;
                }
                m_slots[h] = slot;
            }
        }
    }

    std::vector<Slot> m_slots; //!< the slots
    uint32_t m_shift;          //!< 32 - log2(number of slots)
    std::size_t m_size;        //!< number of entries
};

/**
 * \ingroup qdisc-lab
 * \brief The Vertical Dimensioning scheduler of Bakiras, Wang, Papadias and Hamdi: DRR without
 * per-flow queues, as an array of M round FIFOs; no packets, no simulator.
 *
 * Each packet is placed, on arrival, in the FIFO of the round in which DRR would send it
 * (Equation (3)); the link serves the FIFO of round `current` until it is empty, then the next.
 * The state is the paper's: the FIFOs q[0..M-1], the counters `current` and `last`, the total
 * `bytes`, and for every active flow i (a flow with packets queued) `bytes`, `deficit`, `round`,
 * plus its quantum w_i L_M. The packets themselves live with the caller (the queue disc keeps
 * them in one internal queue, a FIFO per round, in the same order); here each queued packet is a
 * record of its flow and size, in an intrusive list per round.
 *
 * The operations are Fig. 2's, line for line (see the comments in vd-rounds.cc):
 * \verbatim
 *   Enqueue  (1)-(14): find or create f[i], start its round, pos from Eq. (3), insert at q[pos]
 *   caller   (15)-(16): while (OverLimit()) Drop();
 *   Dequeue  (1)-(11): head of q[current], start i's round, deficit -= size, advance current
 *   Drop     (1)-(7):  tail of q[last], move last down to the last non-empty round
 * \endverbatim
 *
 * Rounds are numbered from 0 without wrapping (64 bits); round r lives in q[r mod M], and
 * GetCurrent() mod M is the paper's `current`. Two generalizations keep VD exactly DRR where the
 * paper's assumptions (w_i >= 1, every packet <= L_M, hence every packet <= w_i L_M) do not hold:
 *  - "Start i's round" credits w_i L_M once per round begun since i's last operation (Fig. 2
 *    credits one quantum, guarded by deficit_i < 0, and never sets round_i on enqueue; with
 *    packets <= w_i L_M at most one round can have begun, and both forms give the same values).
 *  - A packet larger than w_i L_M needs several rounds' quanta, so rounds can be left empty:
 *    Dequeue lets empty rounds pass (DRR's visits that only add quanta) and Drop moves `last`
 *    down past them. Without such packets the non-empty rounds are contiguous and neither loop
 *    runs more than once.
 *
 * A flow that empties and returns (Returning): Fig. 2 forgets a flow when its last packet
 * leaves, so a flow that returns in the same round is placed as a new one, with a fresh quantum
 * in the current round (FRESH, the paper's). KEEP remembers the state of a flow that empties
 * in the round it was credited in until that round ends: a flow that returns in the same round
 * continues with what is left of its quantum, as if it had not emptied, so it sends at most
 * w_i L_M per round however often it returns (DRR appends a returning flow to the tail of its
 * ActiveList, after the flows that were served in that pass). A flow that returns in a later
 * round is new under both rules.
 *
 * Memory: O(M) for the FIFOs, O(active flows) for flow state (a pool indexed by a VdFlowTable
 * keyed by flow id, so flow ids may be sparse, e.g. hash buckets), and
 * O(queued packets) for the records. A flow's state is freed when its last packet leaves. Pools
 * and table keep their peak size, so once warmed up nothing is allocated per packet. Every
 * operation is O(1) (expected, for the hash table), except that Dequeue and Drop skip the rounds
 * left empty by packets larger than w_i L_M.
 */
class VdRounds
{
  public:
    /// Flow identifier (the paper's i; a bucket for the queue disc).
    using FlowId = uint32_t;

    /// What Enqueue did with a packet.
    enum Verdict
    {
        QUEUED,     //!< placed in a round; the caller then drops while OverLimit()
        OVER_LIMIT, //!< not placed: the buffer would exceed B and the packet would be the tail of
                    //!< the last non-empty round, which Fig. 2's drop() takes at once
        BEYOND_LAST_ROUND, //!< not placed: its round is M or more rounds after current (a weight
                           //!< below the one M was sized for, or a packet larger than the L M was
                           //!< sized for with B in packets); the buffer had room
    };

    /// What the buffer size B counts.
    enum Unit
    {
        BYTES,   //!< bytes, as in the paper
        PACKETS, //!< packets
    };

    /// What a flow that empties and returns in the same round gets.
    enum Returning
    {
        FRESH, //!< a fresh quantum in the current round, as a new flow (Fig. 2)
        KEEP,  //!< what is left of its quantum in that round (its state is kept until it ends)
    };

    /// A packet that left, sent (Dequeue) or dropped (Drop).
    struct Packet
    {
        FlowId flow;     //!< its flow
        uint32_t size;   //!< its size in bytes
        uint64_t round;  //!< the round it was queued in
        int64_t deficit; //!< its flow's deficit_i afterwards (its last value if the flow left)
        uint32_t slot;   //!< the slot Enqueue gave it (free again)
    };

    VdRounds();

    /**
     * Forget everything and size the scheduler.
     * \param rounds M, the number of round FIFOs, >= 1
     * \param maxPacketSize L_M in bytes, >= 1: a flow of weight w gets w L_M per round
     * \param bufferSize B, >= 1: OverLimit() when more is queued
     * \param unit what B counts: bytes (the paper's) or packets
     * \param returning what a flow that empties and returns in the same round gets
     */
    void Reset(uint32_t rounds,
               uint32_t maxPacketSize,
               uint64_t bufferSize,
               Unit unit = BYTES,
               Returning returning = FRESH);

    /**
     * The smallest M with which no packet that stays in a buffer of \p bufferSize bytes is placed
     * M or more rounds after current, for flows whose quantum is at least \p quantum:
     * ceil(B / Q) + 1. (A packet's round is current + ceil((bytes_i + size - r_i) / Q_i), where
     * r_i >= 0 is what is left of i's quantum in the current round and bytes_i + size <= B.)
     * For a buffer of n packets of at most L bytes, B = n L.
     * \param bufferSize B in bytes
     * \param quantum Q in bytes, >= 1
     * \return M
     */
    static uint64_t MinRounds(uint64_t bufferSize, uint32_t quantum);

    /**
     * \param weight a flow's weight, > 0
     * \return its quantum w L_M in bytes, rounded, at least 1
     */
    uint32_t QuantumOf(double weight) const
    {
        // Weight 1, the common case, needs no rounding.
        return weight == 1.0 ? m_maxPacketSize : QuantumOf(weight, m_maxPacketSize);
    }

    /**
     * \param weight a flow's weight, > 0
     * \param maxPacketSize L_M in bytes
     * \return the quantum w L_M in bytes, rounded, at least 1 (at most 2^32 - 1)
     */
    static uint32_t QuantumOf(double weight, uint32_t maxPacketSize)
    {
        const double quantum = std::round(weight * maxPacketSize);
        if (!(quantum >= 1.0)) // also NaN
        {
            return 1;
        }
        return quantum >= std::numeric_limits<uint32_t>::max()
                   ? std::numeric_limits<uint32_t>::max()
                   : static_cast<uint32_t>(quantum);
    }

    /**
     * Fig. 2's enqueue, lines (1)-(14).
     * \param i the packet's flow
     * \param size the packet's size in bytes
     * \param weight the flow's weight (> 0), used if the flow is new: it keeps it while active
     * \param round set to the round the packet is placed in, when QUEUED
     * \param slot if not null, set to the packet's slot when QUEUED: a number, unique among
     *        the queued packets, that Dequeue or Drop gives back when the packet leaves (so the
     *        caller can find the packet in O(1))
     * \return whether it was placed; if not, nothing changed (but i's round may have started)
     */
    Verdict Enqueue(FlowId i,
                    uint32_t size,
                    double weight,
                    uint64_t* round,
                    uint32_t* slot = nullptr);

    /// \return whether more than B bytes (or packets) are queued (Fig. 2 enqueue, line (15))
    bool OverLimit() const
    {
        return m_unit == BYTES ? m_bytes > m_bufferSize : m_packets > m_bufferSize;
    }

    /**
     * Fig. 2's dequeue: the head packet of the current round leaves. Must not be Empty().
     * \return it
     */
    Packet Dequeue();

    /**
     * Fig. 2's drop: the tail packet of the last non-empty round leaves. Must not be Empty().
     * \return it
     */
    Packet Drop();

    /// \return whether no packet is queued
    bool Empty() const
    {
        return m_packets == 0;
    }

    /// \return the round being served (its FIFO is q[GetCurrent() mod M])
    uint64_t GetCurrent() const
    {
        return m_current;
    }

    /// \return the last non-empty round (meaningless when Empty())
    uint64_t GetLast() const;

    /**
     * \param round a round
     * \return the index of its FIFO, round mod M
     */
    uint32_t SlotOf(uint64_t round) const
    {
        return static_cast<uint32_t>(round % m_q.size());
    }

    /// \return M
    uint32_t GetRounds() const;

    /// \return L_M in bytes
    uint32_t GetMaxPacketSize() const;

    /// \return B, in bytes or packets
    uint64_t GetBufferSize() const;

    /**
     * Change B, keeping what is queued (OverLimit() then says whether it must shed packets).
     * \param bufferSize B, >= 1
     * \param unit what B counts
     */
    void SetBufferSize(uint64_t bufferSize, Unit unit);

    /// \return what B counts
    Unit GetUnit() const;

    /// \return what a flow that empties and returns in the same round gets
    Returning GetReturning() const;

    /// \return the bytes queued (the paper's `bytes`)
    uint64_t GetBytes() const;

    /// \return the packets queued
    uint32_t GetPackets() const;

    /**
     * \param round a round in [GetCurrent(), GetCurrent() + M)
     * \return the number of packets in its FIFO
     */
    uint32_t GetRoundPackets(uint64_t round) const;

    /// \return the number of active flows (flows with packets queued)
    uint32_t GetActiveFlows() const
    {
        return static_cast<uint32_t>(m_index.GetSize()) - m_kept;
    }

    /// \return the number of flows with nothing queued whose state is kept (KEEP) until the
    ///         current round ends
    uint32_t GetKeptFlows() const
    {
        return m_kept;
    }

    /**
     * \param i a flow
     * \return whether it has packets queued (and so has state)
     */
    bool IsActive(FlowId i) const;

    /**
     * \param i a flow
     * \return its bytes_i (0 when not active)
     */
    uint64_t GetFlowBytes(FlowId i) const;

    /**
     * \param i a flow
     * \return its packets queued
     */
    uint32_t GetFlowPackets(FlowId i) const;

    /**
     * \param i a flow
     * \return its deficit_i as stored, credited lazily at i's first operation in a round (0 when
     *         not active; a kept flow's, KEEP, while it is kept)
     */
    int64_t GetDeficit(FlowId i) const;

    /**
     * \param i a flow
     * \return its round_i, the last round in which it was credited (current when not active or
     *         kept)
     */
    uint64_t GetFlowRound(FlowId i) const;

    /**
     * \param i a flow
     * \return its quantum w_i L_M in bytes (0 when not active; a kept flow's while it is kept)
     */
    uint32_t GetQuantum(FlowId i) const;

    /// \return the number of flow states allocated (the peak number of active flows)
    std::size_t GetFlowCapacity() const;

    /// \return the number of slots of the flow hash table (a power of 2)
    std::size_t GetFlowTableSize() const;

    /**
     * \return the bytes allocated for the state of active flows: the pool of flow states (its
     *         peak size) and the table that indexes them
     */
    std::size_t GetFlowStateBytes() const;

  private:
    /// An index into m_flows or m_records that points nowhere.
    static constexpr uint32_t NIL = UINT32_MAX;

    /// Per-flow state, f[i] of Fig. 2: 32 bytes. bytes_i has 32 bits, as ns-3's byte counts of
    /// a queue and a queue disc have (Enqueue stops the program if a flow's would pass them).
    struct Flow
    {
        FlowId id = 0;        //!< i
        uint32_t packets = 0; //!< packets queued
        uint32_t bytes = 0;   //!< bytes_i: bytes queued
        uint32_t quantum = 0; //!< w_i L_M
        int64_t deficit = 0;  //!< deficit_i: what i may still send in round round_i, - w_i L_M
        uint64_t round = 0;   //!< round_i: the last round in which i was credited
    };

    /// A queued packet.
    struct Record
    {
        uint32_t flow = NIL; //!< index of its flow in m_flows
        uint32_t size = 0;   //!< size in bytes
        uint32_t prev = NIL; //!< previous record in its round's FIFO
        uint32_t next = NIL; //!< next record in its round's FIFO
    };

    /// One round's FIFO, q[k]: the paper's head and tail pointers, and a count.
    struct Fifo
    {
        uint32_t head = NIL;  //!< first record
        uint32_t tail = NIL;  //!< last record
        uint32_t packets = 0; //!< records in the FIFO
    };

    /**
     * Fig. 2 enqueue (6)-(8) and dequeue (5)-(6): at flow i's first operation in a round, credit
     * w_i L_M for each round begun since round_i.
     * \param f the flow
     */
    inline void StartRound(Flow& f) const;

    /**
     * \param i a flow
     * \return the index of its state in m_flows, NIL if not active
     */
    inline uint32_t Find(FlowId i) const;

    /**
     * Allocate state for a flow that is not active.
     * \param state its state (state.id is the flow)
     * \param position where m_index.Locate(state.id) found it would go
     * \return the index of its state in m_flows
     */
    inline uint32_t Activate(const Flow& state, const VdFlowTable<uint32_t>::Position& position);

    /**
     * Free the state of a flow that has no packet left.
     * \param index the index of its state in m_flows
     */
    inline void Deactivate(uint32_t index);

    /**
     * A flow's last packet left: free its state, or (KEEP, credited in the current round) keep
     * it until the round ends.
     * \param index the index of its state in m_flows
     */
    inline void Release(uint32_t index);

    /// The current round ended: free the state of the kept flows that did not return.
    void ForgetKept();

    /**
     * \param index a record
     * \param slot the FIFO it joins at the tail
     */
    inline void PushBack(uint32_t index, uint32_t slot);

    /**
     * \param index a record
     * \param slot the FIFO it leaves
     */
    inline void Unlink(uint32_t index, uint32_t slot);

    std::vector<Fifo> m_q;    //!< q[0..M-1]
    uint64_t m_current;       //!< current, as a round number (q[current mod M] is served)
    uint64_t m_last;          //!< last, as a round number: the last non-empty round
    uint64_t m_bytes;         //!< bytes: bytes queued
    uint32_t m_packets;       //!< packets queued
    uint32_t m_maxPacketSize; //!< L_M
    uint64_t m_bufferSize;    //!< B
    Unit m_unit;              //!< what B counts
    Returning m_returning;    //!< what a flow that empties and returns in the same round gets

    std::vector<Flow> m_flows;         //!< flow states, active or free
    std::vector<uint32_t> m_freeFlows; //!< indices of free flow states
    VdFlowTable<uint32_t> m_index;     //!< flow id -> index of its state in m_flows
    std::vector<uint32_t> m_keptFlows; //!< flows kept in the current round (KEEP), by index;
                                       //!< one may appear more than once
    uint32_t m_kept;                   //!< flows in m_index with no packet queued (KEEP)

    std::vector<Record> m_records;       //!< packet records, queued or free
    std::vector<uint32_t> m_freeRecords; //!< indices of free records
};

} // namespace ns3

#endif /* VD_ROUNDS_H */
