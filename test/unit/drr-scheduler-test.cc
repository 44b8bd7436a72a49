/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/drr-scheduler.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <gtest/gtest.h>
#include <random>
#include <utility>
#include <vector>

using ns3::DrrScheduler;

namespace
{

/// The scheduler plus the packets it schedules: one FIFO of sizes per flow.
class Harness
{
  public:
    Harness(uint32_t flows, uint32_t quantum)
        : queues(flows)
    {
        drr.Reset(flows, quantum);
    }

    void Arrive(uint32_t f, uint32_t size, double weight = 1.0)
    {
        queues[f].push_back(size);
        drr.Arrive(f, size, weight);
    }

    /// Dequeue one packet: (flow, size).
    std::pair<uint32_t, uint32_t> Send()
    {
        const uint32_t f = drr.Select([this](uint32_t flow) { return queues[flow].front(); });
        const uint32_t size = queues[f].front();
        queues[f].pop_front();
        drr.Depart(f, size);
        return {f, size};
    }

    /// Buffer stealing: drop the head packet of the longest flow; return the flow.
    uint32_t StealHead()
    {
        const uint32_t f = drr.Longest();
        const uint32_t size = queues[f].front();
        queues[f].pop_front();
        drr.Depart(f, size);
        return f;
    }

    DrrScheduler drr;
    std::vector<std::deque<uint32_t>> queues;
};

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
    EXPECT_EQ(h.drr.GetDeficit(A), 500u) << "a new flow holds its first quantum";

    const std::vector<std::pair<uint32_t, uint32_t>> order =
        {{A, 200}, {B, 500}, {A, 750}, {B, 500}, {C, 1000}, {A, 100}};
    const std::vector<uint64_t> deficitAfter = {300, 0, 50, 0, 0, 0};
    for (std::size_t i = 0; i < order.size(); ++i)
    {
        const auto sent = h.Send();
        EXPECT_EQ(sent, order[i]) << "packet " << i;
        EXPECT_EQ(h.drr.GetDeficit(sent.first), deficitAfter[i]) << "packet " << i;
    }
    EXPECT_TRUE(h.drr.Empty());
    EXPECT_EQ(h.drr.GetDeficit(A), 0u);
}

TEST(DrrScheduler, IdleFlowLeavesAndRejoinsAtTheTail)
{
    Harness h(3, 1000);
    h.Arrive(A, 100);
    h.Arrive(B, 100);
    EXPECT_EQ(h.Send(), std::make_pair(A, 100u));
    EXPECT_EQ(h.drr.GetActiveFlows(), 1u) << "A emptied and left the ActiveList";
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
    EXPECT_EQ(h.drr.GetDeficit(A), 200u);
    EXPECT_EQ(h.drr.Longest(), A) << "1200 B beats 1000 B";
    EXPECT_EQ(h.StealHead(), A);
    EXPECT_EQ(h.drr.GetPackets(A), 0u);
    EXPECT_EQ(h.drr.GetDeficit(A), 0u) << "emptied by stealing: deficit reset";
    h.Arrive(A, 400);
    EXPECT_EQ(h.drr.GetDeficit(A), 500u) << "re-entry with a full quantum";
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
    EXPECT_EQ(h.drr.Longest(), A);
    h.Arrive(C, 200); // 2200 / 0.5... = 1100 B / 0.5 = 2200
    EXPECT_EQ(h.drr.Longest(), C);
    EXPECT_EQ(h.StealHead(), C);
    EXPECT_EQ(h.drr.Longest(), A) << "C has 200 B / 0.5 = 400 left";
    EXPECT_EQ(h.drr.GetQuantum(B), 2000u);
    EXPECT_EQ(h.drr.GetQuantum(C), 500u);
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
        if (!h.drr.Empty())
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

TEST(DrrScheduler, ResetForgetsEverything)
{
    Harness h(2, 100);
    h.Arrive(A, 50);
    h.drr.Reset(2, 100);
    EXPECT_TRUE(h.drr.Empty());
    EXPECT_EQ(h.drr.GetPackets(A), 0u);
    EXPECT_EQ(h.drr.GetFlowCount(), 2u);
}

TEST(DrrSchedulerDeathTest, RejectsZeroQuantumAndPhantomDepartures)
{
    DrrScheduler drr;
    EXPECT_DEATH(drr.Reset(2, 0), "quantum must be >= 1");
    drr.Reset(2, 100);
    EXPECT_DEATH(drr.Depart(0, 10), "cannot lose");
}
