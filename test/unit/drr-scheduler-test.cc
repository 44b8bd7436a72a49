/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qdisc-lab-gtest-utils.h"

#include "ns3/drr-scheduler.h"

#include <algorithm>
#include <boost/heap/d_ary_heap.hpp>
#include <cmath>
#include <cstdint>
#include <deque>
#include <gtest/gtest.h>
#include <list>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

using ns3::DrrScheduler;

namespace
{

/// The scheduler plus the packets it schedules, each checked as it leaves.
using Harness = ns3::qdisclab::test::SchedulerHarness<DrrScheduler>;

constexpr uint32_t A = 0;
constexpr uint32_t B = 1;
constexpr uint32_t C = 2;

} // namespace

// Hand-worked (quantum 500): A = [200, 750, 100], B = [500, 500], C = [1000].
// Round 1: A sends 200 (DC 300; 750 waits), B sends 500 (DC 0), C: 1000 > 500.
// Round 2: A: DC 800, sends 750 (DC 50); B: DC 500, sends 500, empty -> DC 0; C: DC 1000,
// sends 1000 -> empty. Round 3: A: DC 550, sends 100 -> empty.
TEST(DrrScheduler, HandWorkedOrderAndDeficits)
{
    Harness h(3, 500);
    for (uint32_t size : {200, 750, 100})
    {
        h.Arrive(A, size);
    }
    h.Arrive(B, 500);
    h.Arrive(B, 500);
    h.Arrive(C, 1000);
    EXPECT_EQ(h.scheduler.GetFlows().GetDeficit(A), 500u) << "a new flow holds its first quantum";

    const std::vector<std::pair<uint32_t, uint32_t>> order =
        {{A, 200}, {B, 500}, {A, 750}, {B, 500}, {C, 1000}, {A, 100}};
    const std::vector<uint64_t> deficitAfter = {300, 0, 50, 0, 0, 0};
    for (std::size_t i = 0; i < order.size(); ++i)
    {
        const auto sent = h.Send();
        EXPECT_EQ(sent, order[i]) << "packet " << i;
        EXPECT_EQ(h.scheduler.GetFlows().GetDeficit(sent.first), deficitAfter[i]) << "packet " << i;
    }
    EXPECT_TRUE(h.scheduler.GetFlows().Empty());
    EXPECT_EQ(h.scheduler.GetFlows().GetDeficit(A), 0u);
}

TEST(DrrScheduler, IdleFlowLeavesAndRejoinsAtTheTail)
{
    Harness h(3, 1000);
    h.Arrive(A, 100);
    h.Arrive(B, 100);
    EXPECT_EQ(h.Send(), std::make_pair(A, 100u));
    EXPECT_EQ(h.scheduler.GetFlows().GetActiveFlows(), 1u) << "A emptied and left the ActiveList";
    h.Arrive(A, 100);
    h.Arrive(C, 100);
    EXPECT_EQ(h.Send().first, B);
    EXPECT_EQ(h.Send().first, A) << "A rejoined behind B";
    EXPECT_EQ(h.Send().first, C);
}

// ns-2's DRR keeps a flow's per-round state when buffer stealing empties it, so the flow loses
// a visit when it comes back. Here the flow emptied by stealing re-enters like a new flow.
TEST(DrrScheduler, FlowEmptiedByStealingReentersWithAFreshQuantum)
{
    Harness h(3, 500);
    h.Arrive(A, 300);
    h.Arrive(A, 1200);
    h.Arrive(B, 500);
    h.Arrive(B, 500);
    h.Arrive(C, 500);
    h.Arrive(C, 500);
    EXPECT_EQ(h.Send(), std::make_pair(A, 300u));
    EXPECT_EQ(h.scheduler.GetFlows().GetDeficit(A), 200u);
    EXPECT_EQ(h.scheduler.GetFlows().Longest(), A) << "1200 B beats 1000 B";
    EXPECT_EQ(h.StealHead(), A);
    EXPECT_EQ(h.scheduler.GetFlows().GetPackets(A), 0u);
    EXPECT_EQ(h.scheduler.GetFlows().GetDeficit(A), 0u) << "emptied by stealing: deficit reset";
    h.Arrive(A, 400);
    EXPECT_EQ(h.scheduler.GetFlows().GetDeficit(A), 500u) << "re-entry with a full quantum";
    const std::vector<uint32_t> order = {B, C, A, B, C};
    for (uint32_t expected : order)
    {
        EXPECT_EQ(h.Send().first, expected);
    }
}

TEST(DrrScheduler, LongestIsByBytesOverWeight)
{
    Harness h(3, 1000);
    h.Arrive(A, 2000, 1.0); // 2000 / 1
    h.Arrive(B, 1500, 2.0); // 3000 B / 2 = 1500 once the second packet is in
    h.Arrive(B, 1500);
    h.Arrive(C, 900, 0.5); // 1800
    EXPECT_EQ(h.scheduler.GetFlows().Longest(), A);
    h.Arrive(C, 200); // 2200 / 0.5... = 1100 B / 0.5 = 2200
    EXPECT_EQ(h.scheduler.GetFlows().Longest(), C);
    EXPECT_EQ(h.StealHead(), C);
    EXPECT_EQ(h.scheduler.GetFlows().Longest(), A) << "C has 200 B / 0.5 = 400 left";
    EXPECT_EQ(h.scheduler.GetQuantum(B), 2000u);
    EXPECT_EQ(h.scheduler.GetQuantum(C), 500u);
}

TEST(DrrScheduler, WeightedSharesWhenAlwaysBacklogged)
{
    Harness h(2, 1000);
    const double weights[] = {1.0, 3.0};
    uint64_t sent[2] = {0, 0};
    for (uint32_t f = 0; f < 2; ++f)
    {
        for (int i = 0; i < 4; ++i)
        {
            h.Arrive(f, 500, weights[f]);
        }
    }
    for (int step = 0; step < 40000; ++step)
    {
        const auto [f, size] = h.Send();
        sent[f] += size;
        h.Arrive(f, 500); // keep both backlogged
    }
    EXPECT_NEAR(static_cast<double>(sent[1]) / sent[0], 3.0, 0.001);
}

namespace
{

/**
 * Random bursty traffic through the scheduler; returns the largest difference of normalized
 * service (sent / weight) between two flows over an interval in which both were backlogged, and
 * fails the test if it ever exceeds 2 Quantum + Max / min(w_i, w_j).
 */
double
WorstNormalizedDifference(const std::vector<double>& weights, uint32_t quantum, uint32_t seed)
{
    const auto flows = static_cast<uint32_t>(weights.size());
    const uint32_t maxPacket = 1500;
    std::mt19937 rng(seed);
    std::uniform_int_distribution<uint32_t> size(40, maxPacket);
    std::uniform_int_distribution<uint32_t> flow(0, flows - 1);
    std::uniform_int_distribution<int> coin(0, 99);

    Harness h(flows, quantum);
    std::vector<double> normalized(flows, 0); // cumulative sent / weight
    // For every pair, the extremes of D = n_i - n_j within the current joint-backlog stretch.
    std::vector<std::vector<std::pair<double, double>>> range(
        flows,
        std::vector<std::pair<double, double>>(flows));
    std::vector<std::vector<bool>> joint(flows, std::vector<bool>(flows, false));
    double worst = 0;
    for (int step = 0; step < 60000; ++step)
    {
        // Arrivals: bursty, so flows come and go.
        const int arrivals = coin(rng) < 60 ? 1 : (coin(rng) < 50 ? 0 : 3);
        for (int a = 0; a < arrivals; ++a)
        {
            const uint32_t f = flow(rng);
            h.Arrive(f, size(rng), weights[f]);
        }
        if (!h.scheduler.GetFlows().Empty())
        {
            const auto [f, bytes] = h.Send();
            normalized[f] += bytes / weights[f];
        }
        for (uint32_t i = 0; i < flows; ++i)
        {
            for (uint32_t j = i + 1; j < flows; ++j)
            {
                if (h.queues[i].empty() || h.queues[j].empty())
                {
                    joint[i][j] = false;
                    continue;
                }
                const double d = normalized[i] - normalized[j];
                auto& [lo, hi] = range[i][j];
                if (!joint[i][j])
                {
                    lo = hi = d;
                    joint[i][j] = true;
                }
                lo = std::min(lo, d);
                hi = std::max(hi, d);
                worst = std::max(worst, hi - lo);
                const double bound = 2.0 * quantum + maxPacket / std::min(weights[i], weights[j]);
                EXPECT_LE(hi - lo, bound) << "flows " << i << ", " << j << " at step " << step;
                if (hi - lo > bound)
                {
                    return worst;
                }
            }
        }
    }
    return worst;
}

} // namespace

// Shreedhar and Varghese's fairness bound (their Theorem 2, which assumes every flow's quantum
// is at least the largest packet): over any interval in which flows i and j are both backlogged,
// |sent_i / w_i - sent_j / w_j| <= 2 Quantum + Max (Max / min weight, with weights). The
// difference really gets past Quantum + Max: a flow may hold a quantum it has not used yet.
TEST(DrrScheduler, ServiceBoundOnRandomTraffic)
{
    const uint32_t quantum = 1500;
    const double equal = WorstNormalizedDifference({1, 1, 1, 1, 1, 1}, quantum, 12345);
    EXPECT_GT(equal, quantum) << "flows were backlogged together long enough to test the bound";
    RecordProperty("worst_equal_weights", std::to_string(equal));

    // Weights down to 0.5: the quantum (3000 B) keeps every flow's share >= one packet.
    const double weighted = WorstNormalizedDifference({1, 1, 2, 3, 0.5, 1.5}, 3000, 777);
    EXPECT_GT(weighted, 3000);
    RecordProperty("worst_weighted", std::to_string(weighted));
}

namespace
{

/**
 * The reference: DRR written plainly, as this module first had it -- a std::list ActiveList,
 * a std::deque of sizes per flow, and the longest flow from boost::heap::d_ary_heap (arity 4,
 * mutable, handles) over bytes / weight. DrrScheduler must make the same choices, including
 * between flows of equal weighted backlog.
 */
class ReferenceDrr
{
  public:
    ReferenceDrr(uint32_t flows, uint32_t quantum)
        : m_flows(flows),
          m_heap(Compare{this}),
          m_quantum(quantum)
    {
    }

    void Arrive(uint32_t f, uint32_t size, double weight)
    {
        Flow& flow = m_flows[f];
        flow.sizes.push_back(size);
        flow.bytes += size;
        if (flow.sizes.size() == 1)
        {
            flow.weight = weight;
            flow.quantum = static_cast<uint32_t>(std::max(1.0, std::round(m_quantum * weight)));
            flow.deficit = flow.quantum;
            m_active.push_back(f);
            flow.handle = m_heap.push(f);
        }
        else
        {
            m_heap.increase(flow.handle);
        }
    }

    /// \return (flow, size, deficit afterwards)
    std::tuple<uint32_t, uint32_t, uint64_t> Dequeue()
    {
        for (;;)
        {
            const uint32_t f = m_active.front();
            Flow& flow = m_flows[f];
            const uint32_t size = flow.sizes.front();
            if (size <= flow.deficit)
            {
                flow.deficit -= size;
                flow.sizes.pop_front();
                Left(f, size);
                return {f, size, flow.deficit};
            }
            flow.deficit += flow.quantum;
            m_active.splice(m_active.end(), m_active, m_active.begin());
        }
    }

    /// \return (flow, size)
    std::pair<uint32_t, uint32_t> Drop(bool fromHead)
    {
        const uint32_t f = m_heap.top();
        Flow& flow = m_flows[f];
        const uint32_t size = fromHead ? flow.sizes.front() : flow.sizes.back();
        fromHead ? flow.sizes.pop_front() : flow.sizes.pop_back();
        Left(f, size);
        return {f, size};
    }

    uint32_t Longest() const
    {
        return m_heap.top();
    }

    bool Empty() const
    {
        return m_active.empty();
    }

    uint32_t Active() const
    {
        return static_cast<uint32_t>(m_active.size());
    }

    uint64_t Bytes(uint32_t f) const
    {
        return m_flows[f].bytes;
    }

    uint64_t Deficit(uint32_t f) const
    {
        return m_flows[f].deficit;
    }

    uint32_t Packets(uint32_t f) const
    {
        return static_cast<uint32_t>(m_flows[f].sizes.size());
    }

  private:
    struct Compare
    {
        const ReferenceDrr* drr;

        bool operator()(uint32_t a, uint32_t b) const
        {
            const Flow& fa = drr->m_flows[a];
            const Flow& fb = drr->m_flows[b];
            return fa.bytes * fb.weight < fb.bytes * fa.weight;
        }
    };

    using Heap = boost::heap::d_ary_heap<uint32_t,
                                         boost::heap::arity<4>,
                                         boost::heap::mutable_<true>,
                                         boost::heap::compare<Compare>>;

    struct Flow
    {
        std::deque<uint32_t> sizes;
        uint64_t bytes = 0;
        uint64_t deficit = 0;
        uint32_t quantum = 0;
        double weight = 1;
        Heap::handle_type handle;
    };

    void Left(uint32_t f, uint32_t size)
    {
        Flow& flow = m_flows[f];
        if (flow.sizes.empty())
        {
            m_active.remove(f);
            m_heap.erase(flow.handle);
            flow.bytes = 0;
            flow.deficit = 0;
            return;
        }
        flow.bytes -= size;
        m_heap.decrease(flow.handle);
    }

    std::vector<Flow> m_flows;
    std::list<uint32_t> m_active;
    Heap m_heap;
    uint32_t m_quantum;
};

} // namespace

// On random traffic with many ties (few packet sizes, few weights), every dequeue, every steal
// (head and tail) and every Longest() is the reference's, with the same deficits and backlogs.
// Seeds 5 and 6 give every flow one weight (1, and 0.7, which rounds bytes x weight), for which
// FlowQueues' heap compares bytes alone.
TEST(DrrScheduler, SameChoicesAsTheReferenceOnRandomTraffic)
{
    for (const uint32_t seed : {1U, 2U, 3U, 4U, 5U, 6U})
    {
        const uint32_t flows = seed >= 4 ? 300 : 12;
        const uint32_t quantum = seed == 3 ? 300 : 1500;
        std::mt19937 rng(seed);
        const std::vector<uint32_t> sizes = {64, 500, 1000, 1000, 1500, 3000};
        const std::vector<double> weights = seed == 5   ? std::vector<double>{1}
                                            : seed == 6 ? std::vector<double>{0.7}
                                                        : std::vector<double>{1, 1, 2, 0.5, 3};
        Harness h(flows, quantum);
        ReferenceDrr ref(flows, quantum);
        uint64_t queued = 0;
        uint64_t steals = 0;
        for (int step = 0; step < 200000; ++step)
        {
            const uint32_t r = rng() % 100;
            if (r < 55)
            {
                const uint32_t f = rng() % flows;
                const uint32_t size = sizes[rng() % sizes.size()];
                const double weight = weights[f % weights.size()];
                h.Arrive(f, size, weight);
                ref.Arrive(f, size, weight);
                ++queued;
                if (queued > 40) // a shared buffer of 40 packets: steal
                {
                    ASSERT_EQ(h.scheduler.GetFlows().Longest(), ref.Longest()) << "step " << step;
                    const bool head = rng() % 4 != 0;
                    const uint32_t victim = head ? h.StealHead() : h.StealTail();
                    ASSERT_EQ(victim, ref.Drop(head).first) << "step " << step;
                    --queued;
                    ++steals;
                }
            }
            else if (!ref.Empty())
            {
                const auto [f, size] = h.Send();
                const auto [rf, rsize, rdeficit] = ref.Dequeue();
                ASSERT_EQ(f, rf) << "step " << step;
                ASSERT_EQ(size, rsize) << "step " << step;
                ASSERT_EQ(h.scheduler.GetFlows().GetDeficit(f), rdeficit) << "step " << step;
                --queued;
            }
            ASSERT_EQ(h.scheduler.GetFlows().GetActiveFlows(), ref.Active());
            if (step % 101 == 0)
            {
                for (uint32_t f = 0; f < flows; ++f)
                {
                    ASSERT_EQ(h.scheduler.GetFlows().GetBytes(f), ref.Bytes(f));
                    ASSERT_EQ(h.scheduler.GetFlows().GetPackets(f), ref.Packets(f));
                    ASSERT_EQ(h.scheduler.GetFlows().GetDeficit(f), ref.Deficit(f));
                }
            }
        }
        EXPECT_GT(steals, 10000U) << "seed " << seed << ": the buffer was full often";
    }
}

/**
 * \param scheduler a scheduler
 * \return the packet it would send last: what a copy of it sends last when drained
 */
ns3::FlowPacket
SentLast(const DrrScheduler& scheduler)
{
    DrrScheduler copy = scheduler;
    ns3::FlowPacket last{};
    while (!copy.GetFlows().Empty())
    {
        last = copy.Dequeue();
    }
    return last;
}

// Hand-worked (quantum 1000): A = [1000, 1000, 1000] empties at its 3rd visit, B = [1000,
// 1000] at its 2nd, C = [500] at its 1st: A's third packet is sent last. Of flows that empty at
// the same visit, the one behind in ActiveList sends last.
TEST(DrrScheduler, DropLastHandWorked)
{
    Harness h(3, 1000, true);
    for (int i = 0; i < 3; ++i)
    {
        h.Arrive(A, 1000);
    }
    h.Arrive(B, 1000);
    h.Arrive(B, 1000);
    h.Arrive(C, 500);
    EXPECT_EQ(h.scheduler.GetLast(), A);
    const ns3::FlowPacket dropped = h.StealLast();
    EXPECT_EQ(dropped.flow, A);
    EXPECT_EQ(dropped.size, 1000u);
    EXPECT_EQ(h.scheduler.GetFlows().GetCounters(A).droppedPackets, 1u);
    EXPECT_EQ(h.scheduler.GetLast(), B) << "A and B both empty at their 2nd visit; B is behind";
    EXPECT_EQ(h.Send(), std::make_pair(A, 1000u));
    EXPECT_EQ(h.scheduler.GetLast(), B) << "A, still at the head, needs one visit more, as B";
    EXPECT_EQ(h.Send(), std::make_pair(B, 1000u)) << "A moved to the tail";
    EXPECT_EQ(h.scheduler.GetLast(), B) << "A's next visit empties it; B needs one more";
    h.Arrive(A, 1000);
    h.Arrive(A, 1000);
    EXPECT_EQ(h.scheduler.GetLast(), A) << "A needs 3 visits now";
    EXPECT_EQ(h.StealLast().flow, A);
    EXPECT_EQ(h.scheduler.GetLast(), A) << "2 visits each; A, behind C, behind B";
    const std::vector<std::pair<uint32_t, uint32_t>> order = {{C, 500},
                                                              {A, 1000},
                                                              {B, 1000},
                                                              {A, 1000}};
    for (const auto& expected : order)
    {
        EXPECT_EQ(h.Send(), expected);
    }
    EXPECT_TRUE(h.scheduler.GetFlows().Empty());
}

// On random traffic (weights, packets above and below the quantum, sends and steals from the
// longest interleaved), GetLast names the flow whose packet a drained copy of the scheduler
// sends last, and DropLast takes that packet; and tracking it changes nothing else: an
// untracked twin sends and steals the same.
TEST(DrrScheduler, DropLastTakesThePacketSentLastOnRandomTraffic)
{
    for (const uint32_t seed : {1U, 2U, 3U})
    {
        const uint32_t flows = 6 + 4 * seed;
        const uint32_t quantum = seed == 2 ? 400 : 1000;
        const std::vector<uint32_t> sizes = {64, 300, 1000, 1000, 1500};
        const std::vector<double> weights = {1, 2, 0.5, 3};
        // Tracked and untracked, on the same steps; then DropLast against the drained copy.
        for (const bool dropLast : {false, true})
        {
            std::mt19937 rng(seed);
            Harness h(flows, quantum, true);
            Harness twin(flows, quantum);
            uint32_t queued = 0;
            uint64_t checks = 0;
            for (int step = 0; step < 20000; ++step)
            {
                const uint32_t r = rng() % 100;
                if (r < 50 || queued == 0)
                {
                    const uint32_t f = rng() % flows;
                    const uint32_t size = sizes[rng() % sizes.size()];
                    const double weight = weights[f % weights.size()];
                    h.Arrive(f, size, weight);
                    twin.Arrive(f, size, weight);
                    ++queued;
                    continue;
                }
                if (r < 75)
                {
                    const auto sent = h.Send();
                    if (!dropLast)
                    {
                        ASSERT_EQ(sent, twin.Send()) << "step " << step;
                    }
                    --queued;
                    continue;
                }
                const bool full = queued > 30;
                if (r < 85 && !full)
                {
                    continue;
                }
                if (r < 85 && !dropLast)
                {
                    // A full buffer: steal from the longest, both.
                    const bool head = r % 2 == 0;
                    ASSERT_EQ(head ? h.StealHead() : h.StealTail(),
                              head ? twin.StealHead() : twin.StealTail())
                        << "step " << step;
                    --queued;
                    continue;
                }
                const ns3::FlowPacket last = SentLast(h.scheduler);
                ASSERT_EQ(h.scheduler.GetLast(), last.flow) << "step " << step;
                ++checks;
                if (dropLast && (full || r % 2 == 0))
                {
                    ASSERT_EQ(h.StealLast().slot, last.slot) << "step " << step;
                    --queued;
                }
            }
            EXPECT_GT(checks, 2000U) << "seed " << seed;
        }
    }
}

TEST(DrrScheduler, CountsSentAndDroppedPerFlow)
{
    Harness h(2, 1000);
    h.Arrive(A, 100);
    h.Arrive(A, 200);
    h.Arrive(A, 300);
    h.Arrive(B, 50);
    EXPECT_EQ(h.Send(), std::make_pair(A, 100u));
    EXPECT_EQ(h.StealTail(), A);
    EXPECT_EQ(h.StealHead(), A);
    const DrrScheduler::Counters a = h.scheduler.GetFlows().GetCounters(A);
    EXPECT_EQ(a.sentPackets, 1u);
    EXPECT_EQ(a.sentBytes, 100u);
    EXPECT_EQ(a.droppedPackets, 2u);
    EXPECT_EQ(a.droppedBytes, 500u);
    EXPECT_EQ(h.scheduler.GetFlows().GetCounters(B).sentPackets, 0u);
    EXPECT_EQ(h.scheduler.GetFlows().GetSlotCapacity(), 4u)
        << "one slot per packet queued at the peak";
    h.Arrive(B, 10);
    h.Arrive(B, 10);
    EXPECT_EQ(h.scheduler.GetFlows().GetSlotCapacity(), 4u) << "freed slots are reused";
    EXPECT_EQ(DrrScheduler::FlowStateBytes(), 64u) << "one cache line per flow";
}

TEST(DrrScheduler, ResetForgetsEverything)
{
    Harness h(2, 100);
    h.Arrive(A, 50);
    h.scheduler.Reset(2, 100);
    EXPECT_TRUE(h.scheduler.GetFlows().Empty());
    EXPECT_EQ(h.scheduler.GetFlows().GetPackets(A), 0u);
    EXPECT_EQ(h.scheduler.GetFlows().GetFlowCount(), 2u);
}

TEST(DrrSchedulerDeathTest, RejectsZeroQuantumAndPhantomDepartures)
{
    DrrScheduler drr;
    EXPECT_DEATH(drr.Reset(2, 0), "quantum must be >= 1");
    drr.Reset(2, 100);
    EXPECT_DEATH(drr.Dequeue(), "no flow backlogged");
    EXPECT_DEATH(drr.Drop(true), "no flow backlogged");
}
