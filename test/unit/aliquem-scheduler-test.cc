/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qdisc-lab-gtest-utils.h"

#include "ns3/aliquem-scheduler.h"
#include "ns3/drr-scheduler.h"

#include <cstdint>
#include <deque>
#include <gtest/gtest.h>
#include <random>
#include <utility>
#include <vector>

using ns3::AliquemScheduler;
using ns3::DrrScheduler;

namespace
{

/// The scheduler plus the packets it schedules, each checked as it leaves.
using Harness = ns3::qdisclab::test::SchedulerHarness<AliquemScheduler>;

constexpr uint32_t A = 0;
constexpr uint32_t B = 1;
constexpr uint32_t C = 2;
constexpr uint32_t D = 3;

} // namespace

// Hand-worked, q = 2 (three lists), Quantum 1000: phi = 500. D = [500, 500, 500] arrives first,
// then A = [1000, 100]. D needs k = 1 round (list 1, DC 500), A k = 2 (list 2, DC 1000).
// Round 1: D sends 500 (DC 0); 500 > 0: k = 1, DC 500, list 2 behind A.
// Round 2: A sends 1000 (DC 0); 100 > 0: k = 1, DC 500, list 0. D sends 500 (DC 0), k = 1,
//          DC 500, list 0 behind A.
// Round 3: A sends 100, empty; D sends 500, empty.
// DRR with quantum 500 keeps its ring order D, A and sends D, D, A, D, A: Aliquem put A, which
// skipped round 1, into round 2's list before D, which was scheduled during round 1.
TEST(AliquemScheduler, HandWorkedOrderRoundsAndDeficits)
{
    Harness h(4, 1000, 2);
    for (int i = 0; i < 3; ++i)
    {
        h.Arrive(D, 500);
    }
    h.Arrive(A, 1000);
    h.Arrive(A, 100);
    EXPECT_EQ(h.scheduler.GetQuantum(A), 500u) << "phi = Quantum / q";
    EXPECT_EQ(h.scheduler.GetFlows().GetDeficit(D), 500u);
    EXPECT_EQ(h.scheduler.GetFlows().GetDeficit(A), 1000u)
        << "the quanta of the two rounds A waits";
    EXPECT_EQ(h.scheduler.GetRoundsAhead(D), 1u);
    EXPECT_EQ(h.scheduler.GetRoundsAhead(A), 2u);

    const std::vector<std::pair<uint32_t, uint32_t>> order = {{D, 500},
                                                              {A, 1000},
                                                              {D, 500},
                                                              {A, 100},
                                                              {D, 500}};
    const std::vector<uint64_t> deficitAfter = {0, 0, 0, 0, 0};
    const std::vector<uint64_t> roundOf = {1, 2, 2, 3, 3};
    for (std::size_t i = 0; i < order.size(); ++i)
    {
        const auto sent = h.Send();
        EXPECT_EQ(sent, order[i]) << "packet " << i;
        EXPECT_EQ(h.scheduler.GetFlows().GetDeficit(sent.first), deficitAfter[i]) << "packet " << i;
        EXPECT_EQ(h.scheduler.GetRound(), roundOf[i]) << "packet " << i;
        if (i == 2)
        {
            EXPECT_EQ(h.scheduler.GetRoundsAhead(A), 1u) << "100 B more: one round ahead";
            EXPECT_EQ(h.scheduler.GetFlows().GetDeficit(A), 500u);
        }
    }
    EXPECT_TRUE(h.scheduler.GetFlows().Empty());
    EXPECT_EQ(h.scheduler.GetCutSchedules(), 0u);

    // The same arrivals under DRR with quantum 500.
    DrrScheduler drr;
    drr.Reset(4, 500);
    for (int i = 0; i < 3; ++i)
    {
        drr.Arrive(D, 500);
    }
    drr.Arrive(A, 1000);
    drr.Arrive(A, 100);
    std::vector<uint32_t> drrOrder;
    while (!drr.GetFlows().Empty())
    {
        drrOrder.push_back(drr.Dequeue().flow);
    }
    EXPECT_EQ(drrOrder, (std::vector<uint32_t>{D, D, A, D, A}));
}

// A flow with a small weight and large packets skips rounds instead of being visited in each:
// with q = 5 and phi = 200, a 1000 B packet needs 5 rounds and is sent in the 5th.
TEST(AliquemScheduler, LargePacketWaitsItsRoundsInOneList)
{
    Harness h(2, 1000, 5);
    h.Arrive(A, 1000);
    h.Arrive(B, 200);
    h.Arrive(B, 200);
    EXPECT_EQ(h.scheduler.GetRoundsAhead(A), 5u);
    EXPECT_EQ(h.scheduler.GetFlows().GetDeficit(A), 1000u);
    EXPECT_EQ(h.Send(), std::make_pair(B, 200u));
    EXPECT_EQ(h.scheduler.GetRound(), 1u);
    EXPECT_EQ(h.Send(), std::make_pair(B, 200u));
    EXPECT_EQ(h.scheduler.GetRound(), 2u);
    EXPECT_EQ(h.Send(), std::make_pair(A, 1000u));
    EXPECT_EQ(h.scheduler.GetRound(), 5u) << "rounds 3 and 4 had no flow";
    EXPECT_EQ(h.scheduler.GetCutSchedules(), 0u);
}

// A quantum below the largest packet / q: k is cut to q, and the flow, still short, is
// scheduled again when its list comes: served all the same, counted.
TEST(AliquemScheduler, QuantumBelowLargestPacketOverQIsCutAndStillServed)
{
    Harness h(2, 100, 2); // phi = 50: a 1000 B packet needs 20 rounds
    h.Arrive(A, 1000);
    h.Arrive(B, 40);
    EXPECT_EQ(h.scheduler.GetRoundsAhead(A), 2u);
    EXPECT_EQ(h.Send(), std::make_pair(B, 40u));
    EXPECT_EQ(h.Send(), std::make_pair(A, 1000u));
    EXPECT_EQ(h.scheduler.GetRound(), 20u);
    // Visits at rounds 2, 4, .., 18 with DC 100 .. 900, k cut from 20, 18, .., 4 to 2; at
    // DC 900 k = 2; sent in round 20.
    EXPECT_EQ(h.scheduler.GetCutSchedules(), 9u);
    EXPECT_TRUE(h.scheduler.GetFlows().Empty());
}

// With q = 1 (two lists), Aliquem is DRR: on random traffic with weights, ties and buffer
// stealing from both ends, every packet sent or dropped, its slot and every deficit are
// DrrScheduler's.
TEST(AliquemScheduler, WithQOneEqualsDrrOnRandomTraffic)
{
    for (const uint32_t seed : {1U, 2U, 3U})
    {
        const uint32_t flows = seed == 3 ? 200 : 10;
        const uint32_t quantum = seed == 2 ? 300 : 1000;
        std::mt19937 rng(seed);
        const std::vector<uint32_t> sizes = {64, 500, 1000, 1000, 1500};
        const std::vector<double> weights = {1, 1, 2, 0.5, 3};
        AliquemScheduler aliquem;
        aliquem.Reset(flows, quantum, 1);
        DrrScheduler drr;
        drr.Reset(flows, quantum);
        uint64_t queued = 0;
        uint64_t steals = 0;
        for (int step = 0; step < 100000; ++step)
        {
            if (rng() % 100 < 55)
            {
                const uint32_t f = rng() % flows;
                const uint32_t size = sizes[rng() % sizes.size()];
                const double weight = weights[f % weights.size()];
                ASSERT_EQ(aliquem.Arrive(f, size, weight), drr.Arrive(f, size, weight));
                if (++queued > 30)
                {
                    const bool head = rng() % 4 != 0;
                    const auto a = aliquem.Drop(head);
                    const auto d = drr.Drop(head);
                    ASSERT_EQ(a.flow, d.flow) << "step " << step;
                    ASSERT_EQ(a.slot, d.slot) << "step " << step;
                    ASSERT_EQ(a.deficit, d.deficit) << "step " << step;
                    --queued;
                    ++steals;
                }
            }
            else if (!drr.GetFlows().Empty())
            {
                const auto a = aliquem.Dequeue();
                const auto d = drr.Dequeue();
                ASSERT_EQ(a.flow, d.flow) << "step " << step;
                ASSERT_EQ(a.slot, d.slot) << "step " << step;
                ASSERT_EQ(a.size, d.size) << "step " << step;
                ASSERT_EQ(a.deficit, d.deficit) << "step " << step;
                --queued;
            }
            ASSERT_EQ(aliquem.GetFlows().GetActiveFlows(), drr.GetFlows().GetActiveFlows());
        }
        EXPECT_GT(steals, 5000U) << "seed " << seed;
    }
}

// Long run, every flow always backlogged with random sizes in [200, 1000] B: bytes sent are
// proportional to the weights, with q = 5 and the paper's Quantum 1000 B (phi = 200 B x weight).
TEST(AliquemScheduler, ThroughputSharesProportionalToWeights)
{
    const std::vector<double> weights = {1, 2, 3, 5, 10};
    const auto flows = static_cast<uint32_t>(weights.size());
    std::mt19937 rng(7);
    std::uniform_int_distribution<uint32_t> size(200, 1000);
    Harness h(flows, 1000, 5);
    std::vector<uint64_t> sent(flows, 0);
    for (uint32_t f = 0; f < flows; ++f)
    {
        for (int i = 0; i < 3; ++i)
        {
            h.Arrive(f, size(rng), weights[f]);
        }
    }
    for (int step = 0; step < 200000; ++step)
    {
        const auto [f, bytes] = h.Send();
        sent[f] += bytes;
        h.Arrive(f, size(rng)); // keep it backlogged
    }
    double total = 0;
    for (double w : weights)
    {
        total += w;
    }
    uint64_t all = 0;
    for (uint64_t s : sent)
    {
        all += s;
    }
    for (uint32_t f = 0; f < flows; ++f)
    {
        EXPECT_NEAR(static_cast<double>(sent[f]) / all, weights[f] / total, 0.002) << "flow " << f;
    }
    EXPECT_EQ(h.scheduler.GetCutSchedules(), 0u) << "phi >= 1000 / 5 for every flow";
}

// Buffer stealing takes from the largest bytes / weight; a flow emptied by it leaves its list
// and comes back with a fresh deficit.
TEST(AliquemScheduler, StealsFromTheLongestWeightedQueue)
{
    Harness h(3, 1000, 5);
    h.Arrive(A, 900, 1.0); // 900 / 1
    h.Arrive(B, 1000, 2.0);
    h.Arrive(B, 1000, 2.0); // 2000 / 2 = 1000
    h.Arrive(C, 1000, 4.0);
    h.Arrive(C, 1000, 4.0);
    h.Arrive(C, 1000, 4.0); // 3000 / 4 = 750
    EXPECT_EQ(h.scheduler.GetFlows().Longest(), B);
    EXPECT_EQ(h.Steal(false), B); // B: 1000 / 2 = 500
    EXPECT_EQ(h.scheduler.GetFlows().Longest(), A);
    EXPECT_EQ(h.Steal(true), A);
    EXPECT_FALSE(h.scheduler.GetFlows().IsBacklogged(A));
    EXPECT_EQ(h.scheduler.GetFlows().GetDeficit(A), 0u);
    EXPECT_EQ(h.scheduler.GetFlows().GetCounters(A).droppedPackets, 1u);
    EXPECT_EQ(h.scheduler.GetFlows().GetCounters(A).droppedBytes, 900u);
    EXPECT_EQ(h.scheduler.GetFlows().GetCounters(B).droppedPackets, 1u);
    h.Arrive(A, 200);
    EXPECT_EQ(h.scheduler.GetFlows().GetDeficit(A), 200u) << "a fresh busy period";
    EXPECT_EQ(h.scheduler.GetRoundsAhead(A), 1u);
    uint64_t sent = 0;
    while (!h.scheduler.GetFlows().Empty())
    {
        sent += h.Send().second;
    }
    EXPECT_EQ(sent, 1000u + 3000u + 200u);
    EXPECT_EQ(h.scheduler.GetFlows().GetCounters(C).sentPackets, 3u);
}

TEST(AliquemSchedulerDeathTest, RejectsBadParametersAndPhantomDepartures)
{
    AliquemScheduler aliquem;
    EXPECT_DEATH(aliquem.Reset(2, 0, 5), "quantum must be >= 1");
    EXPECT_DEATH(aliquem.Reset(2, 1000, 0), "scaling factor q must be >= 1");
    aliquem.Reset(2, 1000, 5);
    EXPECT_DEATH(aliquem.Dequeue(), "no flow backlogged");
    EXPECT_DEATH(aliquem.Drop(true), "no flow backlogged");
    EXPECT_DEATH(aliquem.GetRoundsAhead(0), "not backlogged");
}
