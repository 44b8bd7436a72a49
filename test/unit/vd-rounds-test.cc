/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// VdRounds, the Vertical Dimensioning scheduler (Bakiras et al.), on exact sequences: Fig. 1 and
// a hand-worked Fig. 2 trace, the overflow drop, wrap-around of current and last, flow state
// reclaimed, packets larger than the quantum; then, on long random traffic, every packet leaves
// in the round an independent reference DRR serves it in, and Lemma 1 and Theorem 3 hold.

#include "ns3/drr-scheduler.h"
#include "ns3/vd-rounds.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

using ns3::VdRounds;

namespace
{

/// VdRounds plus the packets it schedules, by id, in the same FIFOs (as the queue disc keeps
/// them): so that tests can say which packet left.
class Harness
{
  public:
    /// A packet that left.
    struct Left
    {
        uint64_t id;    //!< packet id
        uint32_t flow;  //!< flow
        uint32_t size;  //!< size
        uint64_t round; //!< round it was queued in
    };

    Harness(uint32_t rounds,
            uint32_t maxPacketSize,
            uint64_t buffer,
            VdRounds::Unit unit = VdRounds::BYTES,
            VdRounds::Returning returning = VdRounds::FRESH)
        : fifos(rounds)
    {
        vd.Reset(rounds, maxPacketSize, buffer, unit, returning);
    }

    /**
     * Fig. 2's enqueue, then drop() while over the buffer.
     * \return the verdict; the ids dropped go to `dropped`
     */
    VdRounds::Verdict Arrive(uint64_t id, uint32_t flow, uint32_t size, double weight = 1.0)
    {
        uint64_t round = 0;
        uint32_t slot = 0;
        const VdRounds::Verdict verdict = vd.Enqueue(flow, size, weight, &round, &slot);
        if (verdict == VdRounds::QUEUED)
        {
            EXPECT_TRUE(slots.emplace(slot, id).second) << "slot " << slot << " is in use";
            fifos[vd.SlotOf(round)].push_back({id, flow, size, round});
            lastRound = round;
            while (vd.OverLimit())
            {
                const VdRounds::Packet p = vd.Drop();
                auto& fifo = fifos[vd.SlotOf(p.round)];
                const Left victim = fifo.back();
                fifo.pop_back();
                Check(victim, p);
                dropped.push_back(victim);
            }
        }
        else
        {
            dropped.push_back({id, flow, size, vd.GetCurrent()});
        }
        return verdict;
    }

    /// Fig. 2's dequeue.
    Left Send()
    {
        const VdRounds::Packet p = vd.Dequeue();
        auto& fifo = fifos[vd.SlotOf(p.round)];
        const Left sent = fifo.front();
        fifo.pop_front();
        Check(sent, p);
        return sent;
    }

    /// The FIFOs must hold what VdRounds says they hold, and the slot must be the packet's.
    void Check(const Left& mirror, const VdRounds::Packet& p)
    {
        EXPECT_EQ(mirror.flow, p.flow);
        EXPECT_EQ(mirror.size, p.size);
        EXPECT_EQ(mirror.round, p.round);
        const auto it = slots.find(p.slot);
        ASSERT_NE(it, slots.end()) << "slot " << p.slot << " is not in use";
        EXPECT_EQ(it->second, mirror.id) << "slot " << p.slot;
        slots.erase(it);
    }

    VdRounds vd;                                  //!< the scheduler
    std::vector<std::deque<Left>> fifos;          //!< q[0..M-1] with packet ids
    std::vector<Left> dropped;                    //!< every packet dropped, in order
    std::unordered_map<uint32_t, uint64_t> slots; //!< slot -> id of the packets queued
    uint64_t lastRound = 0;                       //!< round of the last packet placed
};

} // namespace

// Fig. 1: M = 10, flows 1..4 with weights 2, 1, 1, 1, packets of L_M bytes arriving while the
// link is idle. The text gives the first six: three packets of three flows join q[0]; the 4th,
// flow 4's second, joins q[1]; the 5th, flow 3's first, and the 6th, flow 1's second (weight 2),
// join q[0]. Packets 7-10 are ours (the figure's are not in the text): flow 1's third (q[1]),
// flow 2's second (q[1]), flow 4's third (q[2]) and flow 1's fourth (q[1]).
TEST(VdRounds, Figure1Placement)
{
    const uint32_t lm = 1000;
    Harness h(10, lm, 100 * lm);
    const double weight[] = {0, 2, 1, 1, 1};
    const uint32_t flows[] = {1, 2, 4, 4, 3, 1, 1, 2, 4, 1};
    const uint64_t rounds[] = {0, 0, 0, 1, 0, 0, 1, 1, 2, 1};
    for (uint64_t p = 0; p < 10; ++p)
    {
        ASSERT_EQ(h.Arrive(p + 1, flows[p], lm, weight[flows[p]]), VdRounds::QUEUED);
        EXPECT_EQ(h.lastRound, rounds[p]) << "packet " << p + 1;
    }
    EXPECT_EQ(h.vd.GetLast(), 2u);
    EXPECT_EQ(h.vd.GetRoundPackets(0), 5u);
    EXPECT_EQ(h.vd.GetRoundPackets(1), 4u);
    EXPECT_EQ(h.vd.GetRoundPackets(2), 1u);
    EXPECT_EQ(h.vd.GetQuantum(1), 2 * lm);
    // Within a round, arrival order.
    const std::vector<uint64_t> order = {1, 2, 3, 5, 6, 4, 7, 8, 10, 9};
    for (uint64_t id : order)
    {
        EXPECT_EQ(h.Send().id, id);
    }
    EXPECT_TRUE(h.vd.Empty());
    EXPECT_EQ(h.vd.GetActiveFlows(), 0u);
    EXPECT_EQ(h.vd.GetCurrent(), 3u) << "current moved past the last round served";
}

// Fig. 2 by hand, L_M = 1000: A has weight 1, B weight 2. Each packet's round is DRR's (A gets
// 1000 B a round, B 2000 B, deficits carry over), and deficit_i follows Section III-A: reduced by
// each packet sent, credited w_i L_M at i's first operation of a round.
TEST(VdRounds, Figure2HandWorked)
{
    Harness h(21, 1000, 20000);
    const uint32_t A = 7;
    const uint32_t B = 9;
    // current = 0: A 600 -> r0, A 600 -> r1 (400 left), B 1000 -> r0, B 900 -> r0 (1900 of
    // 2000), B 800 -> r1, A 300 -> r1.
    h.Arrive(1, A, 600, 1);
    h.Arrive(2, A, 600, 1);
    h.Arrive(3, B, 1000, 2);
    h.Arrive(4, B, 900, 2);
    h.Arrive(5, B, 800, 2);
    h.Arrive(6, A, 300, 1);
    EXPECT_EQ(h.vd.GetRoundPackets(0), 3u);
    EXPECT_EQ(h.vd.GetRoundPackets(1), 3u);
    EXPECT_EQ(h.vd.GetLast(), 1u);
    EXPECT_EQ(h.vd.GetDeficit(A), 0);
    EXPECT_EQ(h.vd.GetFlowBytes(A), 1500u);
    EXPECT_EQ(h.vd.GetFlowBytes(B), 2700u);

    EXPECT_EQ(h.Send().id, 1u);
    EXPECT_EQ(h.vd.GetDeficit(A), -600);
    EXPECT_EQ(h.Send().id, 3u);
    EXPECT_EQ(h.vd.GetDeficit(B), -1000);
    // A 200 in round 0: bytes_A - deficit_A + 200 = 900 + 600 + 200 -> round 1 (A's 1000 B of
    // round 0 are spent: 600 sent, 600 did not fit; round 1: 600 + 300 + 200 <= 1400).
    h.Arrive(7, A, 200, 1);
    EXPECT_EQ(h.lastRound, 1u);
    EXPECT_EQ(h.Send().id, 4u);
    EXPECT_EQ(h.vd.GetDeficit(B), -1900);
    EXPECT_EQ(h.vd.GetCurrent(), 1u) << "q[0] emptied: current moves on";

    // current = 1. B 500: B's first operation of round 1 credits 2000: deficit 100; 800 + 500
    // fit its 2100 -> r1. A 1000: credit 1000 -> deficit 400; 1100 queued + 1000 > 1400 -> r2.
    h.Arrive(8, B, 500, 2);
    EXPECT_EQ(h.lastRound, 1u);
    EXPECT_EQ(h.vd.GetDeficit(B), 100);
    EXPECT_EQ(h.vd.GetFlowRound(B), 1u);
    h.Arrive(9, A, 1000, 1);
    EXPECT_EQ(h.lastRound, 2u);
    EXPECT_EQ(h.vd.GetDeficit(A), 400);
    EXPECT_EQ(h.vd.GetLast(), 2u);

    const std::vector<std::pair<uint64_t, int64_t>> round1 = {{2, -200},
                                                              {5, -700},
                                                              {6, -500},
                                                              {7, -700}};
    for (const auto& [id, deficit] : round1)
    {
        const Harness::Left sent = h.Send();
        EXPECT_EQ(sent.id, id);
        EXPECT_EQ(sent.round, 1u);
        EXPECT_EQ(h.vd.GetDeficit(sent.flow), deficit) << "after packet " << id;
    }
    EXPECT_EQ(h.Send().id, 8u);
    EXPECT_FALSE(h.vd.IsActive(B)) << "B sent its last packet: its state is freed";
    EXPECT_EQ(h.vd.GetCurrent(), 2u);
    // Round 2: A is credited 1000 (deficit 300) and sends 1000.
    const Harness::Left last = h.Send();
    EXPECT_EQ(last.id, 9u);
    EXPECT_EQ(last.round, 2u);
    EXPECT_TRUE(h.vd.Empty());
    EXPECT_EQ(h.vd.GetActiveFlows(), 0u);
    EXPECT_EQ(h.vd.GetCurrent(), 3u);
}

// The paper's M = ceil(B / L_M) can wrap around by one round. B = 3000, L_M = 1000, weights 1:
// A 1000 (r0), B 100 (r0), A 1000 (r1), A 900 (r2); A's 1000 of round 0 leaves; B's 100 keeps
// round 0 open; A 1000 arrives: bytes_A - deficit_A + size = 1900 + 1000 + 1000 -> round 3,
// 3000 B queued, no drop. With M = 3 Fig. 2 puts it in q[3 mod 3] = q[0], the round being served,
// and sends it before A's rounds 1 and 2. MinRounds gives 4, with which it leaves last.
TEST(VdRounds, PaperRoundCountWrapsAroundByOne)
{
    EXPECT_EQ(VdRounds::MinRounds(3000, 1000), 4u);
    EXPECT_EQ(VdRounds::MinRounds(2999, 1000), 4u);
    EXPECT_EQ(VdRounds::MinRounds(3001, 1000), 5u);
    EXPECT_EQ(VdRounds::MinRounds(1000, 1000), 2u);
    for (uint32_t m : {3U, 4U})
    {
        Harness h(m, 1000, 3000);
        h.Arrive(1, 0, 1000);
        h.Arrive(2, 1, 100);
        h.Arrive(3, 0, 1000);
        h.Arrive(4, 0, 900);
        EXPECT_EQ(h.Send().id, 1u);
        const VdRounds::Verdict verdict = h.Arrive(5, 0, 1000);
        if (m == 3)
        {
            // VdRounds refuses rather than wrap; the queue disc rejects Rounds = 3 up front.
            EXPECT_EQ(verdict, VdRounds::BEYOND_LAST_ROUND);
            EXPECT_EQ(h.vd.GetBytes(), 2000u) << "nothing changed";
            continue;
        }
        ASSERT_EQ(verdict, VdRounds::QUEUED);
        EXPECT_EQ(h.lastRound, 3u);
        EXPECT_EQ(h.vd.GetBytes(), 3000u);
        EXPECT_TRUE(h.dropped.empty());
        const std::vector<std::pair<uint64_t, uint64_t>> order = {{2, 0}, {3, 1}, {4, 2}, {5, 3}};
        for (const auto& [id, round] : order)
        {
            const Harness::Left sent = h.Send();
            EXPECT_EQ(sent.id, id);
            EXPECT_EQ(sent.round, round);
        }
    }
}

// Overflow drops the tail of the last non-empty round, and last moves down; an arrival that
// would itself be that tail is refused (OVER_LIMIT), as Fig. 2 would insert and drop it.
TEST(VdRounds, OverflowDropsTheTailOfTheLastNonEmptyRound)
{
    Harness h(VdRounds::MinRounds(3000, 1000), 1000, 3000);
    const uint32_t A = 1;
    h.Arrive(1, A, 1000); // r0
    h.Arrive(2, A, 1000); // r1
    h.Arrive(3, A, 1000); // r2
    EXPECT_EQ(h.vd.GetLast(), 2u);
    ASSERT_EQ(h.Arrive(4, 2, 500), VdRounds::QUEUED) << "a new flow joins round 0";
    ASSERT_EQ(h.dropped.size(), 1u);
    EXPECT_EQ(h.dropped[0].id, 3u) << "A's round-2 packet";
    EXPECT_EQ(h.vd.GetLast(), 1u);
    EXPECT_EQ(h.vd.GetBytes(), 2500u);
    EXPECT_EQ(h.vd.GetFlowBytes(A), 2000u);

    ASSERT_EQ(h.Arrive(5, 3, 600), VdRounds::QUEUED);
    ASSERT_EQ(h.dropped.size(), 2u);
    EXPECT_EQ(h.dropped[1].id, 2u) << "A's round-1 packet";
    EXPECT_EQ(h.vd.GetLast(), 0u);

    // Round 0 holds A 1000, 500, 600 = 2100 B. Flow 4's 1000 B would be round 0's tail and
    // overflow: refused, and flow 4 gets no state.
    EXPECT_EQ(h.Arrive(6, 4, 1000), VdRounds::OVER_LIMIT);
    EXPECT_FALSE(h.vd.IsActive(4));
    EXPECT_EQ(h.vd.GetActiveFlows(), 3u);
    // Flow 5: five packets of 180 B fit its round-0 quantum and the buffer (3000 B); a sixth
    // would open round 1 and overflow; a 100 B one would be round 0's tail and overflow.
    for (uint64_t id = 7; id < 12; ++id)
    {
        ASSERT_EQ(h.Arrive(id, 5, 180), VdRounds::QUEUED);
    }
    EXPECT_EQ(h.vd.GetBytes(), 3000u);
    EXPECT_EQ(h.vd.GetLast(), 0u);
    EXPECT_EQ(h.Arrive(12, 5, 180), VdRounds::OVER_LIMIT);
    EXPECT_EQ(h.Arrive(13, 5, 100), VdRounds::OVER_LIMIT);
    EXPECT_EQ(h.dropped.back().id, 13u);
    std::vector<uint64_t> sent;
    while (!h.vd.Empty())
    {
        sent.push_back(h.Send().id);
    }
    EXPECT_EQ(sent, (std::vector<uint64_t>{1, 4, 5, 7, 8, 9, 10, 11}));

    // One arrival, several drops: X holds 15 packets of 200 B in rounds 0, 1, 2 (five each);
    // Y's 1000 B join round 0 and push out round 2, newest first; last moves to round 1.
    Harness g(VdRounds::MinRounds(3000, 1000), 1000, 3000);
    for (uint64_t id = 1; id <= 15; ++id)
    {
        ASSERT_EQ(g.Arrive(id, 0, 200), VdRounds::QUEUED);
        EXPECT_EQ(g.lastRound, (id - 1) / 5);
    }
    ASSERT_EQ(g.Arrive(16, 1, 1000), VdRounds::QUEUED);
    std::vector<uint64_t> dropped;
    for (const Harness::Left& d : g.dropped)
    {
        dropped.push_back(d.id);
        EXPECT_EQ(d.round, 2u);
    }
    EXPECT_EQ(dropped, (std::vector<uint64_t>{15, 14, 13, 12, 11}));
    EXPECT_EQ(g.vd.GetLast(), 1u);
    EXPECT_EQ(g.vd.GetFlowBytes(0), 2000u);
    // X's next packet goes where the dropped ones were: round 2.
    ASSERT_EQ(g.Arrive(17, 0, 200), VdRounds::OVER_LIMIT) << "3200 B > B from round 2's tail";
    g.Send();
    ASSERT_EQ(g.Arrive(18, 0, 200), VdRounds::QUEUED);
    EXPECT_EQ(g.lastRound, 2u);
}

// B in packets: the same drop, by packet count.
TEST(VdRounds, OverflowByPacketCount)
{
    Harness h(VdRounds::MinRounds(3 * 1000, 1000), 1000, 3, VdRounds::PACKETS);
    EXPECT_EQ(h.vd.GetUnit(), VdRounds::PACKETS);
    h.Arrive(1, 0, 1000); // r0
    h.Arrive(2, 0, 1000); // r1
    h.Arrive(3, 0, 1000); // r2
    ASSERT_EQ(h.Arrive(4, 1, 100), VdRounds::QUEUED);
    ASSERT_EQ(h.dropped.size(), 1u);
    EXPECT_EQ(h.dropped[0].id, 3u) << "the tail of round 2";
    EXPECT_EQ(h.vd.GetPackets(), 3u);
    EXPECT_EQ(h.Arrive(5, 1, 100), VdRounds::QUEUED) << "round 0";
    EXPECT_EQ(h.dropped.back().id, 2u) << "the tail of round 1";
    EXPECT_EQ(h.Arrive(6, 2, 40), VdRounds::OVER_LIMIT) << "round 0's tail, a fourth packet";
}

// current and last are round numbers; FIFOs are reused modulo M. With M = 2 every round reuses
// the other FIFO; a thousand rounds keep the order exact.
TEST(VdRounds, CurrentAndLastWrapAround)
{
    const uint32_t m = VdRounds::MinRounds(1000, 1000);
    ASSERT_EQ(m, 2u);
    Harness h(m, 1000, 1000);
    uint64_t id = 0;
    for (uint64_t round = 0; round < 1000; ++round)
    {
        ASSERT_EQ(h.Arrive(++id, 0, 600), VdRounds::QUEUED);
        ASSERT_EQ(h.Arrive(++id, 0, 400), VdRounds::QUEUED);
        EXPECT_EQ(h.lastRound, round);
        EXPECT_EQ(h.vd.SlotOf(h.vd.GetLast()), round % 2);
        EXPECT_EQ(h.Send().id, id - 1);
        EXPECT_EQ(h.Send().id, id);
        EXPECT_EQ(h.vd.GetCurrent(), round + 1);
    }
    // Three flows, rounds spread over the whole ring, many times around.
    const uint32_t m4 = VdRounds::MinRounds(3000, 1000);
    Harness g(m4, 1000, 3000);
    std::vector<uint64_t> lastId(3, 0);
    std::mt19937 rng(5);
    for (int step = 0; step < 20000; ++step)
    {
        const uint32_t flow = rng() % 3;
        g.Arrive(++id, flow, 300 + rng() % 700);
        if (step % 2 == 1)
        {
            const Harness::Left sent = g.Send();
            EXPECT_GT(sent.id, lastId[sent.flow]) << "per-flow FIFO";
            lastId[sent.flow] = sent.id;
            EXPECT_LE(g.vd.GetLast() - g.vd.GetCurrent(), m4 - 1);
        }
    }
    EXPECT_GT(g.vd.GetCurrent(), 20u * m4) << "current went around the ring many times";
}

// Flow state exists only while a flow has packets queued: memory follows the peak number of
// active flows, not the number of flows ever seen, and no per-packet allocation remains.
TEST(VdRounds, FlowStateIsReclaimed)
{
    Harness h(VdRounds::MinRounds(1 << 20, 1000), 1000, 1 << 20);
    std::mt19937 rng(42);
    uint64_t id = 0;
    for (int n = 0; n < 100000; ++n)
    {
        h.Arrive(++id, static_cast<uint32_t>(rng()), 500);
        h.Send();
    }
    EXPECT_EQ(h.vd.GetActiveFlows(), 0u);
    EXPECT_EQ(h.vd.GetFlowCapacity(), 1u);
    EXPECT_EQ(h.vd.GetFlowTableSize(), 16u);

    // 1000 flows at once, then a hundred thousand more one at a time: the peak stays 1000.
    std::vector<uint32_t> ids;
    for (int n = 0; n < 1000; ++n)
    {
        ids.push_back(static_cast<uint32_t>(rng()));
        h.Arrive(++id, ids.back(), 100);
    }
    EXPECT_EQ(h.vd.GetActiveFlows(), 1000u);
    for (uint32_t flow : ids)
    {
        EXPECT_TRUE(h.vd.IsActive(flow));
    }
    while (!h.vd.Empty())
    {
        h.Send();
    }
    EXPECT_EQ(h.vd.GetActiveFlows(), 0u);
    for (uint32_t flow : ids)
    {
        EXPECT_FALSE(h.vd.IsActive(flow));
        EXPECT_EQ(h.vd.GetDeficit(flow), 0);
    }
    const std::size_t capacity = h.vd.GetFlowCapacity();
    const std::size_t table = h.vd.GetFlowTableSize();
    EXPECT_EQ(capacity, 1000u);
    EXPECT_EQ(table, 2048u);
    // 32 bytes of flow state (the pool may have room for a few more) and a 12-byte table slot
    // (two to four per flow): under 64 bytes per active flow.
    EXPECT_GE(h.vd.GetFlowStateBytes(), capacity * 32 + table * 12);
    EXPECT_LE(h.vd.GetFlowStateBytes(), 1000u * 64);
    for (int n = 0; n < 100000; ++n)
    {
        h.Arrive(++id, static_cast<uint32_t>(rng()), 500);
        h.Send();
    }
    EXPECT_EQ(h.vd.GetFlowCapacity(), capacity);
    EXPECT_EQ(h.vd.GetFlowTableSize(), table);
}

// The flow table (open addressing, backward-shift deletion) against std::set, with ids that
// collide in the table (multiples of a power of two) and random ones.
TEST(VdRounds, FlowTableMatchesASet)
{
    Harness h(VdRounds::MinRounds(1 << 22, 1000), 1000, 1 << 22);
    std::mt19937 rng(7);
    std::set<uint32_t> active;
    std::map<uint32_t, uint32_t> packets;
    uint64_t id = 0;
    for (int step = 0; step < 50000; ++step)
    {
        if (rng() % 3 != 0 || h.vd.Empty())
        {
            const uint32_t flow = rng() % 2 ? (rng() % 64) << 16 : static_cast<uint32_t>(rng());
            ASSERT_EQ(h.Arrive(++id, flow, 1), VdRounds::QUEUED);
            active.insert(flow);
            ++packets[flow];
        }
        else
        {
            const uint32_t flow = h.Send().flow;
            if (--packets[flow] == 0)
            {
                active.erase(flow);
                packets.erase(flow);
            }
        }
        if (step % 97 == 0)
        {
            ASSERT_EQ(h.vd.GetActiveFlows(), active.size());
            for (uint32_t flow : active)
            {
                ASSERT_TRUE(h.vd.IsActive(flow));
                ASSERT_EQ(h.vd.GetFlowPackets(flow), packets[flow]);
            }
        }
    }
}

// VdFlowTable alone, against std::map: keys anywhere in 32 bits (0 and 2^32 - 1 included),
// many of them colliding, inserts and erases mixed; values stay with their keys as it grows.
TEST(VdFlowTable, MatchesAMap)
{
    ns3::VdFlowTable<uint64_t> table;
    std::map<uint32_t, uint64_t> reference;
    std::mt19937 rng(3);
    for (int step = 0; step < 200000; ++step)
    {
        const uint32_t r = static_cast<uint32_t>(rng());
        const uint32_t key = r % 4 == 0   ? UINT32_MAX - r % 8
                             : r % 4 == 1 ? (r % 256) << 24
                                          : r % 5000;
        if (reference.count(key) && rng() % 2)
        {
            table.Erase(key);
            reference.erase(key);
        }
        else
        {
            table.FindOrInsert(key) += step;
            reference[key] += step;
        }
        if (step % 1009 == 0)
        {
            ASSERT_EQ(table.GetSize(), reference.size());
            for (const auto& [k, v] : reference)
            {
                const uint64_t* found = table.Find(k);
                ASSERT_NE(found, nullptr) << k;
                ASSERT_EQ(*found, v) << k;
            }
            ASSERT_EQ(table.Find(12345678), nullptr);
        }
    }
    const std::size_t slots = table.GetSlots();
    EXPECT_LE(slots, 4 * std::max<std::size_t>(reference.size(), 8));
    table.Clear();
    EXPECT_EQ(table.GetSize(), 0u);
    EXPECT_EQ(table.Find(0), nullptr);
}

// A known property of Fig. 2, not a bug of this implementation: a flow whose last packet has
// left is a new flow, placed in the current round with a fresh quantum. Two flows that each keep
// one packet queued, the next arriving as soon as the previous one leaves, keep round 0 open:
// the backlogged flow A waits in round 1 for as long as they go on. In DRR's ActiveList a flow
// that empties and comes back joins behind A, and A gets a third of the link.
TEST(VdRounds, FlowsThatEmptyAndReturnWithinARoundKeepItOpen)
{
    Harness h(VdRounds::MinRounds(100000, 1000), 1000, 100000);
    const uint32_t A = 0;
    const uint32_t X = 1;
    const uint32_t Y = 2;
    uint64_t id = 0;
    for (int k = 0; k < 10; ++k)
    {
        h.Arrive(++id, A, 1000); // rounds 0..9
    }
    h.Arrive(++id, X, 100);
    h.Arrive(++id, Y, 100);
    EXPECT_EQ(h.Send().flow, A) << "A's round-0 packet";
    uint32_t vdA = 0;
    for (int n = 0; n < 300; ++n)
    {
        const Harness::Left sent = h.Send();
        vdA += sent.flow == A;
        if (sent.flow != A)
        {
            h.Arrive(++id, sent.flow, 100); // comes straight back: a new flow, round current
            EXPECT_EQ(h.lastRound, 0u);
        }
    }
    EXPECT_EQ(vdA, 0u) << "round 0 never ended";

    ns3::DrrScheduler drr;
    drr.Reset(3, 1000);
    for (int k = 0; k < 10; ++k)
    {
        drr.Arrive(A, 1000);
    }
    drr.Arrive(X, 100);
    drr.Arrive(Y, 100);
    uint32_t drrA = 0;
    for (int n = 0; n < 300 && !drr.GetFlows().Empty(); ++n)
    {
        const uint32_t f = drr.Dequeue().flow;
        drrA += f == A;
        if (f != A)
        {
            drr.Arrive(f, 100);
        }
    }
    EXPECT_EQ(drrA, 10u) << "DRR serves all of A's packets among the first 300";
}

// The same traffic with ReturningFlows = Keep: X and Y keep what is left of their quantum when
// they return in the same round, so each sends 1000 B (ten 100-B packets) per round and round 0
// ends; A sends one packet per round, all ten among the first 300, as under DRR.
TEST(VdRounds, KeptFlowsSendOneQuantumPerRound)
{
    Harness h(VdRounds::MinRounds(100000, 1000), 1000, 100000, VdRounds::BYTES, VdRounds::KEEP);
    EXPECT_EQ(h.vd.GetReturning(), VdRounds::KEEP);
    const uint32_t A = 0;
    const uint32_t X = 1;
    const uint32_t Y = 2;
    uint64_t id = 0;
    for (int k = 0; k < 10; ++k)
    {
        h.Arrive(++id, A, 1000);
    }
    h.Arrive(++id, X, 100);
    h.Arrive(++id, Y, 100);
    EXPECT_EQ(h.Send().flow, A) << "A's round-0 packet";
    uint32_t vdA = 1;
    std::vector<uint32_t> xPerRound(12, 0);
    for (int n = 0; n < 300; ++n)
    {
        const Harness::Left sent = h.Send();
        vdA += sent.flow == A;
        if (sent.flow == X && sent.round < xPerRound.size())
        {
            ++xPerRound[sent.round];
        }
        if (sent.flow != A)
        {
            h.Arrive(++id, sent.flow, 100);
        }
    }
    EXPECT_EQ(vdA, 10u) << "A sends one packet per round, all ten";
    for (uint64_t round = 0; round < 10; ++round)
    {
        EXPECT_EQ(xPerRound[round], 10u) << "X sends 1000 B in round " << round;
    }
}

// Keep, by hand: a flow that empties in the round it was credited in is kept (not active, its
// deficit remembered), returns behind its spent quantum, and is forgotten when a round ends
// without its return; Fresh places the same return in the current round.
TEST(VdRounds, KeptFlowStateLastsUntilTheRoundEnds)
{
    for (const VdRounds::Returning returning : {VdRounds::FRESH, VdRounds::KEEP})
    {
        const bool keep = returning == VdRounds::KEEP;
        Harness h(VdRounds::MinRounds(10000, 1000), 1000, 10000, VdRounds::BYTES, returning);
        const uint32_t A = 0;
        const uint32_t B = 1;
        const uint32_t X = 2;
        h.Arrive(1, A, 1000); // round 0
        h.Arrive(2, X, 600);  // round 0
        h.Arrive(3, B, 1000); // round 0
        h.Arrive(4, A, 1000); // round 1
        EXPECT_EQ(h.Send().id, 1u);
        EXPECT_EQ(h.Send().id, 2u);
        EXPECT_FALSE(h.vd.IsActive(X));
        EXPECT_EQ(h.vd.GetActiveFlows(), 2u) << "A and B";
        EXPECT_EQ(h.vd.GetKeptFlows(), keep ? 1u : 0u);
        EXPECT_EQ(h.vd.GetDeficit(X), keep ? -600 : 0);
        h.Arrive(5, X, 600);
        EXPECT_EQ(h.lastRound, keep ? 1u : 0u) << "600 + 600 B exceed X's 1000-B quantum";
        EXPECT_EQ(h.vd.GetKeptFlows(), 0u);
        EXPECT_EQ(h.vd.GetActiveFlows(), 3u);
        if (!keep)
        {
            continue;
        }
        EXPECT_EQ(h.Send().id, 3u) << "B ends round 0";
        EXPECT_EQ(h.vd.GetCurrent(), 1u);
        EXPECT_EQ(h.Send().id, 4u);
        const Harness::Left x = h.Send();
        EXPECT_EQ(x.id, 5u);
        EXPECT_EQ(h.vd.GetCurrent(), 2u) << "round 1 ended";
        EXPECT_EQ(h.vd.GetKeptFlows(), 0u) << "X was kept in round 1, forgotten when it ended";
        EXPECT_TRUE(h.vd.Empty());
        h.Arrive(6, X, 600);
        EXPECT_EQ(h.lastRound, 2u) << "a new flow in round 2";
        EXPECT_EQ(h.vd.GetDeficit(X), 0) << "fresh state";
    }
}

// Keep and Drop: a flow whose last packet is dropped in the round it was credited in is kept
// too, and returns behind its spent quantum.
TEST(VdRounds, KeptFlowsAfterDrops)
{
    Harness h(VdRounds::MinRounds(4500, 1000), 1000, 4500, VdRounds::BYTES, VdRounds::KEEP);
    const uint32_t A = 0;
    const uint32_t X = 1;
    const uint32_t Y = 2;
    const uint32_t Z = 3;
    const uint32_t W = 4;
    h.Arrive(1, A, 1000); // round 0
    h.Arrive(2, X, 500);  // round 0
    h.Arrive(3, Z, 1000); // round 0
    EXPECT_EQ(h.Send().id, 1u);
    EXPECT_EQ(h.Send().id, 2u);
    EXPECT_EQ(h.vd.GetKeptFlows(), 2u) << "A and X, credited in round 0";
    h.Arrive(4, Y, 1000); // round 0
    h.Arrive(5, Y, 1000); // round 1
    h.Arrive(6, X, 1000); // 500 spent + 1000: round 1, behind Y's
    EXPECT_EQ(h.lastRound, 1u);
    h.Arrive(7, W, 1000); // round 0; 5000 B > 4500 B: the tail of round 1, X's, goes
    ASSERT_EQ(h.dropped.size(), 1u);
    EXPECT_EQ(h.dropped[0].id, 6u);
    EXPECT_EQ(h.vd.GetKeptFlows(), 2u) << "X is kept again";
    EXPECT_EQ(h.vd.GetDeficit(X), -500) << "with the 500 B it sent in round 0";
    EXPECT_EQ(h.vd.GetActiveFlows(), 3u) << "Z, Y, W";
    h.Arrive(8, X, 400); // 500 spent + 400 fit: round 0
    EXPECT_EQ(h.lastRound, 0u);
    h.Arrive(9, A, 100); // A spent its 1000: round 1
    EXPECT_EQ(h.lastRound, 1u);
    EXPECT_EQ(h.vd.GetKeptFlows(), 0u);
    EXPECT_EQ(h.dropped.size(), 1u) << "4500 B queued, no more drops";
}

// Packets larger than w_i L_M: DRR sends them after ceil(size / (w_i L_M)) rounds' quanta; the
// rounds in between may be empty, and pass at once.
TEST(VdRounds, LargePacketsWaitForSeveralQuanta)
{
    const uint32_t lm = 500;
    Harness h(VdRounds::MinRounds(10000, lm), lm, 10000);
    h.Arrive(1, 0, 1500);
    EXPECT_EQ(h.lastRound, 2u) << "three quanta of 500";
    EXPECT_EQ(h.vd.GetRoundPackets(0), 0u);
    Harness::Left sent = h.Send();
    EXPECT_EQ(sent.round, 2u) << "rounds 0 and 1 were empty and passed";
    EXPECT_EQ(h.vd.GetCurrent(), 3u);

    // A: 1500 (round 3 + 2) then 200 (round 6: 1500 used all three quanta); B: twelve 100 B
    // packets, five per round from round 3.
    h.Arrive(2, 0, 1500);
    h.Arrive(3, 0, 200);
    for (uint64_t id = 4; id < 16; ++id)
    {
        h.Arrive(id, 1, 100);
    }
    std::vector<std::pair<uint64_t, uint64_t>> order;
    while (!h.vd.Empty())
    {
        sent = h.Send();
        order.emplace_back(sent.id, sent.round);
    }
    const std::vector<std::pair<uint64_t, uint64_t>> expected = {{4, 3},
                                                                 {5, 3},
                                                                 {6, 3},
                                                                 {7, 3},
                                                                 {8, 3},
                                                                 {9, 4},
                                                                 {10, 4},
                                                                 {11, 4},
                                                                 {12, 4},
                                                                 {13, 4},
                                                                 {2, 5},
                                                                 {14, 5},
                                                                 {15, 5},
                                                                 {3, 6}};
    EXPECT_EQ(order, expected);

    // Weight 0.25 with L_M 500: a quantum of 125 B; a 1000 B packet needs 8 rounds.
    h.Arrive(16, 2, 1000, 0.25);
    EXPECT_EQ(h.vd.GetQuantum(2), 125u);
    EXPECT_EQ(h.lastRound, h.vd.GetCurrent() + 7);
    EXPECT_EQ(h.Send().id, 16u);
}

namespace
{

/**
 * The reference: round-based DRR (Shreedhar and Varghese's DRR, organized in rounds as the paper
 * describes it), written without VdRounds' state, Equation (3) or its FIFO ring.
 *
 * "The round DRR would serve a packet in", precisely:
 *  - Rounds are numbered 0, 1, 2, ...; R is the round being served.
 *  - In every round, each backlogged flow i gets its quantum Q_i = w_i L_M added to its deficit
 *    counter DC_i, and sends its head packets while they fit DC_i (each one reduces DC_i).
 *    DC_i carries over to the next round while i stays backlogged.
 *  - Flows come and go. A flow becomes backlogged when a packet arrives and finds none of its
 *    packets queued; it gets its first quantum in the round being served, R, with DC_i = 0
 *    before it (DRR resets the deficit of a flow that empties), and keeps Q_i until it empties
 *    again. (This is the paper's round structure, Fig. 1 and Fig. 2's "new flow" branch. DRR's
 *    ActiveList is not organized in rounds: a flow appended to it during a pass is served after
 *    the flows already served in that pass have had their next turn; see
 *    FlowsThatEmptyAndReturnWithinARoundKeepItOpen.)
 *  - A packet is served in the first round whose deficit counter covers it and all of its flow's
 *    earlier packets of this backlogged period: the DRR loop "if the packet does not fit DC_i,
 *    the flow's turn ends; next round DC_i += Q_i" run for the flow's packets in order.
 *  - Round R ends when its last packet has been sent; R then advances by one. A round in which
 *    nothing fits (every backlogged flow waits for more quanta) passes when the next packet is
 *    sent. While the link is idle, R is the round after the last one served.
 *  - Within a round, packets leave in arrival order. (Which order DRR uses within a round, flow
 *    by flow, is exactly what VD changes; the rounds it does not change.)
 *  - While more than B bytes are queued, the packet with the largest (round, arrival) leaves:
 *    the newest packet of its flow, so no other packet's round changes (the flow's DC_i goes
 *    back to what it was before that packet arrived).
 */
class ReferenceDrr
{
  public:
    /// A packet that left.
    struct Left
    {
        uint64_t id;    //!< packet id
        uint32_t flow;  //!< flow
        uint64_t round; //!< round it was served (or queued, if dropped) in
    };

    /**
     * \param buffer B
     * \param packets whether B counts packets (else bytes)
     */
    ReferenceDrr(uint64_t buffer, bool packets)
        : m_buffer(buffer),
          m_packets(packets)
    {
    }

    /**
     * A packet arrives; then drops while over B.
     * \return the packets dropped
     */
    std::vector<Left> Arrive(uint64_t id, uint32_t flow, uint32_t size, uint32_t quantum)
    {
        Packet p{id, flow, size, 0, 0, 0};
        auto it = m_flows.find(flow);
        if (it == m_flows.end())
        {
            it = m_flows.emplace(flow, Flow{quantum, m_round, quantum, 0}).first;
        }
        Flow& f = it->second;
        p.tailRoundBefore = f.tailRound;
        p.tailDeficitBefore = f.tailDeficit;
        // The DRR loop for this packet, behind the flow's queued packets.
        while (size > f.tailDeficit)
        {
            ++f.tailRound;
            f.tailDeficit += f.quantum;
        }
        f.tailDeficit -= size;
        p.round = f.tailRound;
        ++f.queued;
        m_queue.emplace(std::make_pair(p.round, m_arrivals++), p);
        m_bytes += size;

        std::vector<Left> dropped;
        while ((m_packets ? m_queue.size() : m_bytes) > m_buffer)
        {
            auto last = std::prev(m_queue.end());
            const Packet victim = last->second;
            m_queue.erase(last);
            m_bytes -= victim.size;
            Flow& v = m_flows.at(victim.flow);
            if (--v.queued == 0)
            {
                m_flows.erase(victim.flow); // empty: DC_i is forgotten
            }
            else
            {
                v.tailRound = victim.tailRoundBefore;
                v.tailDeficit = victim.tailDeficitBefore;
            }
            dropped.push_back({victim.id, victim.flow, victim.round});
        }
        return dropped;
    }

    /// \return the next packet sent
    Left Send()
    {
        auto head = m_queue.begin();
        const Packet p = head->second;
        m_round = p.round; // rounds in which nothing fits pass
        m_queue.erase(head);
        m_bytes -= p.size;
        if (--m_flows.at(p.flow).queued == 0)
        {
            m_flows.erase(p.flow); // empty: DC_i is forgotten
        }
        if (m_queue.empty() || m_queue.begin()->first.first != m_round)
        {
            ++m_round; // round R is over
        }
        return {p.id, p.flow, p.round};
    }

    /// \return whether nothing is queued
    bool Empty() const
    {
        return m_queue.empty();
    }

    /// \return the bytes queued
    uint64_t Bytes() const
    {
        return m_bytes;
    }

  private:
    /// A queued packet.
    struct Packet
    {
        uint64_t id;               //!< id
        uint32_t flow;             //!< flow
        uint32_t size;             //!< bytes
        uint64_t round;            //!< round DRR serves it in
        uint64_t tailRoundBefore;  //!< the flow's tailRound before it arrived
        int64_t tailDeficitBefore; //!< the flow's tailDeficit before it arrived
    };

    /// A backlogged flow.
    struct Flow
    {
        uint32_t quantum;    //!< Q_i
        uint64_t tailRound;  //!< the round of its newest packet (R when it arrived first)
        int64_t tailDeficit; //!< DC_i left in tailRound after its newest packet
        uint32_t queued;     //!< packets queued
    };

    uint64_t m_buffer;                                       //!< B
    bool m_packets;                                          //!< B counts packets
    uint64_t m_bytes = 0;                                    //!< bytes queued
    uint64_t m_round = 0;                                    //!< R
    uint64_t m_arrivals = 0;                                 //!< arrival counter
    std::map<std::pair<uint64_t, uint64_t>, Packet> m_queue; //!< by (round, arrival)
    std::unordered_map<uint32_t, Flow> m_flows;              //!< backlogged flows
};

/// Parameters of one random-traffic run.
struct Traffic
{
    uint32_t lm;                           //!< L_M
    uint64_t buffer;                       //!< B
    uint32_t flows;                        //!< number of flows
    uint32_t minSize;                      //!< smallest packet
    uint32_t maxSize;                      //!< largest packet
    std::vector<double> weights;           //!< weights drawn from, per busy period
    int steps;                             //!< steps of arrivals and departures
    uint32_t seed;                         //!< random seed
    VdRounds::Unit unit = VdRounds::BYTES; //!< what B counts
};

/// The quantum w L_M, rounded, at least 1 (computed here, not by VdRounds).
uint32_t
Quantum(double weight, uint32_t lm)
{
    return static_cast<uint32_t>(std::max<long>(1, std::lround(weight * lm)));
}

/// Counts of one run.
struct RunCounts
{
    uint64_t sent = 0;            //!< packets sent
    uint64_t dropped = 0;         //!< packets dropped
    uint64_t largestRound = 0;    //!< the last round served
    uint64_t largestAhead = 0;    //!< the largest last - current seen
    uint64_t newFlowsInRound = 0; //!< flows that emptied and came back in the same round
};

/**
 * Random traffic through VdRounds and ReferenceDrr side by side: bursty arrivals of random
 * sizes from random flows with random weights, 0 to 3 departures a step (so the buffer fills,
 * overflows and drains). Every departure and drop must be the same packet, in the same round.
 */
RunCounts
CompareWithReference(const Traffic& t)
{
    std::mt19937 rng(t.seed);
    std::uniform_int_distribution<uint32_t> size(t.minSize, t.maxSize);
    std::uniform_int_distribution<uint32_t> flow(0, t.flows - 1);
    std::uniform_int_distribution<std::size_t> weight(0, t.weights.size() - 1);
    std::uniform_int_distribution<int> percent(0, 99);
    const double lightest = *std::min_element(t.weights.begin(), t.weights.end());
    const bool packets = t.unit == VdRounds::PACKETS;
    const uint64_t bytes = packets ? t.buffer * t.lm : t.buffer; // sizes <= L_M with packets
    const auto m = static_cast<uint32_t>(VdRounds::MinRounds(bytes, Quantum(lightest, t.lm)));

    Harness vd(m, t.lm, t.buffer, t.unit);
    ReferenceDrr drr(t.buffer, packets);
    RunCounts counts;
    std::vector<uint64_t> lastSent(t.flows, 0);
    std::vector<uint64_t> emptiedInRound(t.flows, UINT64_MAX);
    uint64_t id = 0;
    for (int step = 0; step < t.steps; ++step)
    {
        const int burst = percent(rng);
        const int arrivals = burst < 50 ? 1 : burst < 75 ? 0 : burst < 95 ? 3 : 12;
        for (int a = 0; a < arrivals; ++a)
        {
            const uint32_t f = flow(rng);
            const uint32_t bytes = size(rng);
            const double w = t.weights[weight(rng)]; // used only if f is not backlogged
            if (!vd.vd.IsActive(f) && emptiedInRound[f] == vd.vd.GetCurrent())
            {
                ++counts.newFlowsInRound;
            }
            const std::size_t before = vd.dropped.size();
            const VdRounds::Verdict verdict = vd.Arrive(++id, f, bytes, w);
            EXPECT_NE(verdict, VdRounds::BEYOND_LAST_ROUND) << "step " << step;
            const std::vector<ReferenceDrr::Left> refDropped =
                drr.Arrive(id, f, bytes, Quantum(w, t.lm));
            EXPECT_EQ(vd.dropped.size() - before, refDropped.size()) << "drops at step " << step;
            for (std::size_t k = 0; k < refDropped.size() && before + k < vd.dropped.size(); ++k)
            {
                EXPECT_EQ(vd.dropped[before + k].id, refDropped[k].id) << "step " << step;
            }
            counts.dropped += refDropped.size();
            EXPECT_EQ(vd.vd.GetBytes(), drr.Bytes());
            EXPECT_LE(packets ? vd.vd.GetPackets() : vd.vd.GetBytes(), t.buffer);
            if (!vd.vd.Empty())
            {
                counts.largestAhead =
                    std::max(counts.largestAhead, vd.vd.GetLast() - vd.vd.GetCurrent());
            }
            if (::testing::Test::HasFailure())
            {
                return counts;
            }
        }
        const int departures = percent(rng) % 4;
        for (int d = 0; d < departures && !drr.Empty(); ++d)
        {
            EXPECT_FALSE(vd.vd.Empty()) << "step " << step;
            if (vd.vd.Empty())
            {
                return counts;
            }
            const Harness::Left got = vd.Send();
            const ReferenceDrr::Left want = drr.Send();
            EXPECT_EQ(got.id, want.id) << "step " << step;
            EXPECT_EQ(got.round, want.round) << "packet " << want.id << ", step " << step;
            EXPECT_GT(got.id, lastSent[got.flow]) << "per-flow order, step " << step;
            lastSent[got.flow] = got.id;
            if (!vd.vd.IsActive(got.flow))
            {
                emptiedInRound[got.flow] = got.round;
            }
            counts.largestRound = got.round;
            ++counts.sent;
            if (::testing::Test::HasFailure())
            {
                return counts;
            }
        }
    }
    while (!drr.Empty())
    {
        const Harness::Left got = vd.Send();
        const ReferenceDrr::Left want = drr.Send();
        EXPECT_EQ(got.id, want.id);
        EXPECT_EQ(got.round, want.round);
        ++counts.sent;
        if (::testing::Test::HasFailure())
        {
            return counts;
        }
    }
    EXPECT_TRUE(vd.vd.Empty());
    EXPECT_EQ(vd.vd.GetActiveFlows(), 0u);
    return counts;
}

} // namespace

// The exact-round property: every packet leaves in the round the reference DRR serves it in, in
// the same global order (so per flow too), and overflow drops the same packets.
TEST(VdRounds, ExactRoundsAgainstReferenceDrr)
{
    // The paper's setting: sizes 200..1000 B, L_M = 1000 B, integer weights >= 1.
    const RunCounts paper =
        CompareWithReference({1000, 12500, 16, 200, 1000, {1, 1, 2, 3, 5}, 200000, 1});
    EXPECT_GT(paper.sent, 100000u);
    EXPECT_GT(paper.dropped, 1000u) << "the buffer overflowed";
    EXPECT_GT(paper.largestRound, 10000u);
    EXPECT_GT(paper.newFlowsInRound, 100u) << "flows emptied and came back within a round";
    RecordProperty("paper_rounds", std::to_string(paper.largestRound));

    // Beyond the paper: packets larger than L_M and weights below 1 (several quanta per packet,
    // empty rounds), on a larger buffer.
    const RunCounts large =
        CompareWithReference({500, 30000, 8, 40, 1500, {0.25, 0.5, 1, 1.5, 3}, 200000, 2});
    EXPECT_GT(large.sent, 100000u);
    EXPECT_GT(large.dropped, 1000u);
    EXPECT_GT(large.largestAhead, 30u) << "rounds far ahead of current were used";

    // A one-packet buffer (M = 2), and many flows.
    const RunCounts tiny = CompareWithReference({1000, 1000, 4, 40, 1000, {1, 2}, 100000, 3});
    EXPECT_GT(tiny.dropped, 10000u);
    const RunCounts many =
        CompareWithReference({1500, 60000, 500, 40, 1500, {1, 1, 1, 4}, 200000, 4});
    EXPECT_GT(many.sent, 100000u);
    // B in packets: 20 packets of up to L_M.
    const RunCounts packets =
        CompareWithReference({1000, 20, 12, 40, 1000, {1, 2, 3}, 200000, 5, VdRounds::PACKETS});
    EXPECT_GT(packets.dropped, 1000u);
}

namespace
{

/**
 * Lemma 1 on random traffic: for every flow i and every X successive rounds during which i is
 * continuously backlogged (it has packets queued from the moment the first round begins until
 * after the last one ends), X w_i L_M - L < S_i(X) < X w_i L_M + L, where S_i(X) is what i sent
 * in those rounds and L the largest packet (L_M in the paper, where no packet exceeds it).
 * \return the largest |S_i(X) - X w_i L_M| / L seen
 */
double
CheckLemma1(const Traffic& t)
{
    std::mt19937 rng(t.seed);
    std::uniform_int_distribution<uint32_t> size(t.minSize, t.maxSize);
    std::uniform_int_distribution<uint32_t> flow(0, t.flows - 1);
    std::uniform_int_distribution<std::size_t> weight(0, t.weights.size() - 1);
    std::uniform_int_distribution<int> percent(0, 99);
    const double lightest = *std::min_element(t.weights.begin(), t.weights.end());
    const auto m = static_cast<uint32_t>(VdRounds::MinRounds(t.buffer, Quantum(lightest, t.lm)));
    const double l = std::max(t.lm, t.maxSize);

    Harness h(m, t.lm, t.buffer);

    // Per flow: bytes sent ever; the first round of the current continuously-backlogged stretch
    // (UINT64_MAX: none); and the extremes of V(r) = sent through round r - r Q_i over the
    // rounds r = stretch start - 1 .. last ended, so that S(s..k) - X Q = V(k) - V(s - 1).
    struct Stretch
    {
        uint64_t sent = 0;
        uint64_t since = UINT64_MAX;
        double lo = 0;
        double hi = 0;
    };

    std::vector<Stretch> f(t.flows);
    double worst = 0;
    uint64_t windows = 0;
    // Round r has just ended (current became r + 1).
    auto endRound = [&](uint64_t r) {
        for (uint32_t i = 0; i < t.flows; ++i)
        {
            if (!h.vd.IsActive(i))
            {
                continue;
            }
            const double q = h.vd.GetQuantum(i);
            const double v = static_cast<double>(f[i].sent) - static_cast<double>(r) * q;
            if (f[i].since <= r)
            {
                // Windows s..r for every s >= since: V(r) - V(s - 1) in (-L, L).
                EXPECT_GT(v - f[i].hi, -l) << "flow " << i << " round " << r;
                EXPECT_LT(v - f[i].lo, l) << "flow " << i << " round " << r;
                worst = std::max({worst, (f[i].hi - v) / l, (v - f[i].lo) / l});
                f[i].lo = std::min(f[i].lo, v);
                f[i].hi = std::max(f[i].hi, v);
                ++windows;
            }
            else
            {
                // Backlogged as round r + 1 begins: a stretch starts there; V(r) is its base.
                f[i].since = r + 1;
                f[i].lo = f[i].hi = v;
            }
        }
    };

    uint64_t id = 0;
    for (int step = 0; step < t.steps && !::testing::Test::HasFailure(); ++step)
    {
        const int burst = percent(rng);
        const int arrivals = burst < 55 ? 1 : burst < 75 ? 0 : burst < 95 ? 2 : 8;
        for (int a = 0; a < arrivals; ++a)
        {
            h.Arrive(++id, flow(rng), size(rng), t.weights[weight(rng)]);
            for (const Harness::Left& d : h.dropped)
            {
                if (!h.vd.IsActive(d.flow))
                {
                    f[d.flow].since = UINT64_MAX; // emptied by a drop
                }
            }
            h.dropped.clear();
        }
        const int departures = percent(rng) % 3;
        for (int d = 0; d < departures && !h.vd.Empty(); ++d)
        {
            const uint64_t before = h.vd.GetCurrent();
            const Harness::Left sent = h.Send();
            for (uint64_t r = before; r < sent.round; ++r)
            {
                endRound(r); // empty rounds that passed
            }
            f[sent.flow].sent += sent.size;
            if (!h.vd.IsActive(sent.flow))
            {
                f[sent.flow].since = UINT64_MAX;
            }
            if (h.vd.GetCurrent() > sent.round)
            {
                endRound(sent.round);
            }
        }
    }
    EXPECT_GT(windows, 100000u);
    return worst;
}

} // namespace

TEST(VdRounds, Lemma1ServiceBoundsOnRandomTraffic)
{
    // The paper's setting: L = L_M.
    const double paper = CheckLemma1({1000, 50000, 12, 200, 1000, {1, 1, 2, 3, 4}, 300000, 11});
    EXPECT_GT(paper, 0.5) << "the bounds were approached";
    RecordProperty("lemma1_worst_over_L", std::to_string(paper));
    // Packets larger than L_M and weights below 1: the same with L = the largest packet.
    const double large = CheckLemma1({500, 50000, 8, 40, 1500, {0.5, 1, 2}, 300000, 12});
    RecordProperty("lemma1_large_worst_over_L", std::to_string(large));
}

// Theorem 3 on random traffic: with N flows always backlogged (the theorem's assumption), the
// time between the departures of two consecutive packets of flow i, in bytes sent over the link
// (other flows' packets in between plus the second packet), is below 2 L_M sum_j w_j +
// (N - 1) L_M, i.e. d < 2 L_M / r_min + (N - 1) L_M / C.
TEST(VdRounds, Theorem3InterDepartureBound)
{
    const uint32_t lm = 1000;
    const std::vector<uint32_t> weights = {1, 1, 2, 3, 1, 4, 2, 1};
    const auto n = static_cast<uint32_t>(weights.size());
    const uint64_t buffer = 200000; // large enough for no drops: N stays constant
    Harness h(VdRounds::MinRounds(buffer, lm), lm, buffer);
    std::mt19937 rng(21);
    std::uniform_int_distribution<uint32_t> size(40, lm);
    std::discrete_distribution<uint32_t> byWeight(weights.begin(), weights.end());
    std::uniform_int_distribution<int> percent(0, 99);

    double sumW = 0;
    for (uint32_t w : weights)
    {
        sumW += w;
    }
    const double bound = 2.0 * lm * sumW + (n - 1.0) * lm;
    uint64_t link = 0; // bytes sent
    std::vector<uint64_t> lastEnd(n, UINT64_MAX);
    double worst = 0;
    uint64_t id = 0;
    uint64_t pairs = 0;
    for (int step = 0; step < 400000; ++step)
    {
        // Keep every flow backlogged (at least 2 w_i L_M queued), plus random bursts.
        for (uint32_t i = 0; i < n; ++i)
        {
            while (h.vd.GetFlowBytes(i) < 2ULL * weights[i] * lm)
            {
                h.Arrive(++id, i, size(rng), weights[i]);
            }
        }
        // Bursts, to flows in proportion to their weights (so that no backlog grows forever).
        if (percent(rng) < 15)
        {
            const uint32_t i = byWeight(rng);
            for (int k = percent(rng) % 5; k >= 0; --k)
            {
                h.Arrive(++id, i, size(rng), weights[i]);
            }
        }
        ASSERT_TRUE(h.dropped.empty()) << "step " << step;
        ASSERT_EQ(h.vd.GetActiveFlows(), n);
        const Harness::Left sent = h.Send();
        link += sent.size;
        if (lastEnd[sent.flow] != UINT64_MAX)
        {
            const double d = static_cast<double>(link - lastEnd[sent.flow]);
            EXPECT_LT(d, bound) << "flow " << sent.flow << ", packet " << sent.id;
            worst = std::max(worst, d / bound);
            ++pairs;
        }
        lastEnd[sent.flow] = link;
        if (::testing::Test::HasFailure())
        {
            break;
        }
    }
    EXPECT_GT(pairs, 300000u);
    EXPECT_GT(worst, 0.3) << "inter-departure times reached a good part of the bound";
    RecordProperty("theorem3_worst_over_bound", std::to_string(worst));
}

TEST(VdRoundsDeathTest, RejectsBadSizesAndPhantomPackets)
{
    VdRounds vd;
    EXPECT_DEATH(vd.Reset(0, 1000, 1000), "number of rounds M must be >= 1");
    EXPECT_DEATH(vd.Reset(2, 0, 1000), "maximum packet size L_M must be >= 1 byte");
    EXPECT_DEATH(vd.Reset(2, 1000, 0), "buffer size B must be >= 1");
    EXPECT_DEATH(VdRounds::MinRounds(1000, 0), "quantum must be >= 1 byte");
    vd.Reset(2, 1000, 1000);
    EXPECT_DEATH(vd.Dequeue(), "Dequeue with no packet queued");
    EXPECT_DEATH(vd.Drop(), "Drop with no packet queued");

    // A flow's bytes_i is 32-bit, as ns-3's queue byte counts are.
    uint64_t round = 0;
    uint32_t slot = 0;
    vd.Reset(8, 0x80000000U, 100, VdRounds::PACKETS);
    ASSERT_EQ(vd.Enqueue(7, 0x80000000U, 1.0, &round, &slot), VdRounds::QUEUED);
    EXPECT_DEATH(vd.Enqueue(7, 0x80000000U, 1.0, &round, &slot),
                 "flow 7 would queue more than 4294967295 bytes");
}
