/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qdisc-lab-gtest-utils.h"

#include "ns3/srr-scheduler.h"

#include <cstdint>
#include <deque>
#include <gtest/gtest.h>
#include <random>
#include <utility>
#include <vector>

using ns3::SrrScheduler;

namespace
{

/// The scheduler plus the packets it schedules, each checked as it leaves.
using Harness = ns3::qdisclab::test::SchedulerHarness<SrrScheduler>;

/// WSS_1 = 1, WSS_k = WSS_{k-1}, k, WSS_{k-1}: Guo's definition, literally.
std::vector<uint32_t>
Wss(uint32_t k)
{
    if (k == 1)
    {
        return {1};
    }
    std::vector<uint32_t> previous = Wss(k - 1);
    std::vector<uint32_t> sequence = previous;
    sequence.push_back(k);
    sequence.insert(sequence.end(), previous.begin(), previous.end());
    return sequence;
}

/**
 * Flows sent by SRR as its definition reads, every flow backlogged for good (each packet sent is
 * replaced by the next of \p sizes): order k = the bits of the largest weight; for each term v
 * of WSS_k, the flows whose weight has bit k - v, in flow order (their order of arrival), are
 * visited: DC += quantum, send while the head fits.
 */
std::vector<uint32_t>
ReferenceOrder(const std::vector<uint32_t>& weights,
               uint32_t quantum,
               const std::vector<std::deque<uint32_t>>& initial,
               std::deque<uint32_t> sizes,
               std::size_t packets)
{
    uint32_t k = 0;
    for (uint32_t w : weights)
    {
        uint32_t bits = 0;
        for (uint32_t v = w; v != 0; v >>= 1)
        {
            ++bits;
        }
        k = std::max(k, bits);
    }
    const std::vector<uint32_t> wss = Wss(k);
    std::vector<std::deque<uint32_t>> queues = initial;
    std::vector<uint64_t> deficit(weights.size(), 0);
    std::vector<uint32_t> order;
    for (;;)
    {
        for (uint32_t term : wss)
        {
            const uint32_t bit = k - term;
            for (uint32_t f = 0; f < weights.size(); ++f)
            {
                if (((weights[f] >> bit) & 1) == 0)
                {
                    continue;
                }
                deficit[f] += quantum;
                while (queues[f].front() <= deficit[f])
                {
                    deficit[f] -= queues[f].front();
                    queues[f].pop_front();
                    queues[f].push_back(sizes.front());
                    sizes.pop_front();
                    order.push_back(f);
                    if (order.size() == packets)
                    {
                        return order;
                    }
                }
            }
        }
    }
}

} // namespace

TEST(SrrScheduler, WssTermsAreTheRecursiveDefinition)
{
    for (uint32_t k = 1; k <= 12; ++k)
    {
        const std::vector<uint32_t> wss = Wss(k);
        ASSERT_EQ(wss.size(), (std::size_t{1} << k) - 1);
        for (std::size_t p = 1; p <= wss.size(); ++p)
        {
            ASSERT_EQ(SrrScheduler::WssTerm(p), wss[p - 1]) << "k " << k << ", position " << p;
        }
    }
    EXPECT_EQ(Wss(3), (std::vector<uint32_t>{1, 2, 1, 3, 1, 2, 1}));
}

// Weights 5 (101), 3 (011), 1 (001): columns bit 2 = {f1}, bit 1 = {f2}, bit 0 = {f1, f2, f3}.
// WSS_3 = 1 2 1 3 1 2 1 -> bits 2 1 2 0 2 1 2 -> f1 | f2 | f1 | f1 f2 f3 | f1 | f2 | f1: f1 five
// times, f2 three, f3 once per pass. Every packet is the quantum, so a visit sends one.
TEST(SrrScheduler, ServiceOrderOfWeights531)
{
    Harness h(3, 1000);
    const double weights[] = {5, 3, 1};
    for (uint32_t f = 0; f < 3; ++f)
    {
        for (int i = 0; i < 20; ++i)
        {
            h.Arrive(f, 1000, weights[f]);
        }
    }
    EXPECT_EQ(h.scheduler.GetOrder(), 3u);
    const std::vector<uint32_t> pass = {0, 1, 0, 0, 1, 2, 0, 1, 0};
    for (int round = 0; round < 2; ++round)
    {
        for (std::size_t i = 0; i < pass.size(); ++i)
        {
            EXPECT_EQ(h.Send().first, pass[i]) << "pass " << round << ", packet " << i;
        }
    }
    EXPECT_EQ(h.scheduler.GetPasses(), 1u) << "one wrap-around to the first term";
}

// Guo's example: weights 5, 2, 2, 3, 1; WSS_3 gives f1 f2 f3 f4 f1 f1 f4 f5 f1 f2 f3 f4 f1.
TEST(SrrScheduler, ServiceOrderOfGuosExample)
{
    Harness h(5, 500);
    const double weights[] = {5, 2, 2, 3, 1};
    for (uint32_t f = 0; f < 5; ++f)
    {
        for (int i = 0; i < 10; ++i)
        {
            h.Arrive(f, 500, weights[f]);
        }
    }
    const std::vector<uint32_t> expected = {0, 1, 2, 3, 0, 0, 3, 4, 0, 1, 2, 3, 0};
    for (std::size_t i = 0; i < expected.size(); ++i)
    {
        EXPECT_EQ(h.Send().first, expected[i]) << "packet " << i;
    }
}

// Only the columns of bits 1 and 0 have flows (weights 2 and 1): the scan of the order-32
// sequence is WSS_2 = 1 2 1 -> bits 1 0 1: A B A, pass after pass.
TEST(SrrScheduler, EmptyColumnsAreSkippedAsAnOrderTwoSequence)
{
    Harness h(2, 100);
    for (int i = 0; i < 10; ++i)
    {
        h.Arrive(0, 100, 2.0);
        h.Arrive(1, 100, 1.0);
    }
    EXPECT_EQ(h.scheduler.GetOrder(), 2u);
    const std::vector<uint32_t> expected = {0, 1, 0, 0, 1, 0, 0, 1, 0};
    for (std::size_t i = 0; i < expected.size(); ++i)
    {
        EXPECT_EQ(h.Send().first, expected[i]) << "packet " << i;
    }
}

// Deficits: quantum 600, A (weight 1) = [400, 400, 400], B (weight 2) = [1000, 100].
// Bits: A in column 0, B in column 1; WSS_2 -> bits 1 0 1.
// Term 1 (bit 1): B DC 600, 1000 waits. Term 2 (bit 0): A DC 600, sends 400 (DC 200).
// Term 3 (bit 1): B DC 1200, sends 1000 (DC 200), sends 100, empty -> DC 0.
// Next pass, term 1: column 1 is empty now; term 2: A DC 800, sends 400, 400 -> empty.
TEST(SrrScheduler, DeficitsCarryOverVisits)
{
    Harness h(2, 600);
    for (int i = 0; i < 3; ++i)
    {
        h.Arrive(0, 400, 1.0);
    }
    h.Arrive(1, 1000, 2.0);
    h.Arrive(1, 100, 2.0);
    const std::vector<std::pair<uint32_t, uint32_t>> order = {{0, 400},
                                                              {1, 1000},
                                                              {1, 100},
                                                              {0, 400},
                                                              {0, 400}};
    const std::vector<uint64_t> deficitAfter = {200, 200, 0, 400, 0};
    for (std::size_t i = 0; i < order.size(); ++i)
    {
        const auto sent = h.Send();
        EXPECT_EQ(sent, order[i]) << "packet " << i;
        EXPECT_EQ(h.scheduler.GetFlows().GetDeficit(sent.first), deficitAfter[i]) << "packet " << i;
    }
    EXPECT_TRUE(h.scheduler.GetFlows().Empty());
    EXPECT_EQ(h.scheduler.GetOrder(), 0u);
}

// Every flow backlogged for good, random weights (1 .. 40, so columns 0 .. 5, some empty) and
// random sizes up to the quantum or beyond it: the order of service is the definition's.
TEST(SrrScheduler, SameOrderAsTheDefinitionOnRandomTraffic)
{
    for (const uint32_t seed : {1U, 2U, 3U, 4U})
    {
        std::mt19937 rng(seed);
        const uint32_t flows = 3 + seed * 4;
        const uint32_t quantum = seed == 3 ? 700 : 1500;
        std::uniform_int_distribution<uint32_t> weight(1, seed == 4 ? 8 : 40);
        std::uniform_int_distribution<uint32_t> size(40, 1500);
        std::vector<uint32_t> weights(flows);
        std::vector<std::deque<uint32_t>> initial(flows);
        Harness h(flows, quantum);
        for (uint32_t f = 0; f < flows; ++f)
        {
            weights[f] = seed == 4 ? 4 * weight(rng) : weight(rng); // 4: bits 0, 1 empty
            for (int i = 0; i < 3; ++i)
            {
                initial[f].push_back(size(rng));
                h.Arrive(f, initial[f].back(), weights[f]);
            }
        }
        std::deque<uint32_t> refills;
        for (int i = 0; i < 20000; ++i)
        {
            refills.push_back(size(rng));
        }
        const std::vector<uint32_t> expected =
            ReferenceOrder(weights, quantum, initial, refills, refills.size());
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            const uint32_t f = h.Send().first;
            ASSERT_EQ(f, expected[i]) << "seed " << seed << ", packet " << i;
            h.Arrive(f, refills[i]);
        }
    }
}

// Long run on random traffic (flows come and go, the buffer is stolen from): the flows that
// stay backlogged share the link in proportion to their weights.
TEST(SrrScheduler, ThroughputSharesProportionalToWeights)
{
    const std::vector<double> weights = {1, 2, 3, 5, 10};
    const auto flows = static_cast<uint32_t>(weights.size());
    std::mt19937 rng(11);
    std::uniform_int_distribution<uint32_t> size(200, 1000);
    Harness h(flows, 1000);
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
        h.Arrive(f, size(rng));
    }
    uint64_t all = 0;
    for (uint64_t s : sent)
    {
        all += s;
    }
    for (uint32_t f = 0; f < flows; ++f)
    {
        EXPECT_NEAR(static_cast<double>(sent[f]) / all, weights[f] / 21.0, 0.002) << "flow " << f;
    }
}

// Flows come and go at random, with buffer stealing from both ends: every packet that leaves is
// one that was queued in its flow (slot, size, order), and the scheduler drains to empty.
TEST(SrrScheduler, FlowsComingAndGoingUnderStealing)
{
    std::mt19937 rng(5);
    const uint32_t flows = 50;
    const std::vector<double> weights = {1, 2, 3, 7, 16, 0.4, 2.6};
    Harness h(flows, 1000);
    uint64_t queued = 0;
    uint64_t steals = 0;
    for (int step = 0; step < 200000; ++step)
    {
        if (rng() % 100 < 55)
        {
            const uint32_t f = rng() % flows;
            h.Arrive(f, 40 + rng() % 1461, weights[f % weights.size()]);
            if (++queued > 40)
            {
                const uint32_t longest = h.scheduler.GetFlows().Longest();
                ASSERT_EQ(h.Steal(rng() % 4 != 0), longest);
                --queued;
                ++steals;
            }
        }
        else if (!h.scheduler.GetFlows().Empty())
        {
            h.Send();
            --queued;
        }
        ASSERT_LE(h.scheduler.GetOrder(), 5u);
    }
    while (!h.scheduler.GetFlows().Empty())
    {
        h.Send();
        --queued;
    }
    EXPECT_EQ(queued, 0u);
    EXPECT_GT(steals, 10000u);
    EXPECT_EQ(SrrScheduler::IntegerWeight(0.4), 1u);
    EXPECT_EQ(SrrScheduler::IntegerWeight(2.6), 3u);
}

// Buffer stealing takes from the largest bytes / weight; a flow emptied by it leaves the
// matrix, and one that arrives joins the bottom of its columns.
TEST(SrrScheduler, StealsFromTheLongestWeightedQueueAndNewFlowsJoinTheBottom)
{
    Harness h(3, 1000);
    h.Arrive(0, 900, 1.0);
    h.Arrive(1, 1000, 2.0);
    h.Arrive(1, 1000, 2.0);
    EXPECT_EQ(h.scheduler.GetFlows().Longest(), 1u); // 1000 vs 900
    EXPECT_EQ(h.Steal(true), 1u);
    EXPECT_EQ(h.scheduler.GetFlows().Longest(), 0u); // 900 vs 500
    EXPECT_EQ(h.Steal(true), 0u);
    EXPECT_FALSE(h.scheduler.GetFlows().IsBacklogged(0));
    EXPECT_EQ(h.scheduler.GetFlows().GetCounters(0).droppedBytes, 900u);
    EXPECT_EQ(h.scheduler.GetFlows().GetCounters(1).droppedPackets, 1u);
    // Weight 1 flows 2 then 0 (re-joining): column 0 is {2, 0}; flow 1 (weight 2) is column 1.
    h.Arrive(2, 1000, 1.0);
    h.Arrive(0, 1000, 1.0);
    h.Arrive(1, 1000);
    EXPECT_EQ(h.Send().first, 1u); // bit 1
    EXPECT_EQ(h.Send().first, 2u); // bit 0, top
    EXPECT_EQ(h.Send().first, 0u); // bit 0, bottom
    EXPECT_EQ(h.Send().first, 1u); // bit 1
    EXPECT_TRUE(h.scheduler.GetFlows().Empty());
}

// Two weight-1 flows that empty on each send and refill at once (A and B, one packet each) and
// a backlogged weight-2 flow C: WSS_2 = 1 2 1 -> bits 1 0 1 -> C | A B | C, pass after pass.
// A, refilled while column 0 is scanned at B, waits above B for the column's next turn; B,
// refilled when the turn is over, joins the bottom. (Were a refilled flow put below the scan
// position, A and B would keep column 0's turn for ever and C would never send again: the order
// would be C A B A B A B ...; this is the starvation ns-2.35's Queue/SRR does not have.)
TEST(SrrScheduler, FlowsRefilledInTheScannedColumnWaitForItsNextTurn)
{
    Harness h(3, 1000);
    h.Arrive(0, 1000, 1.0);
    h.Arrive(1, 1000, 1.0);
    h.Arrive(2, 1000, 2.0);
    h.Arrive(2, 1000, 2.0);
    const std::vector<uint32_t> pass = {2, 0, 1, 2};
    for (int round = 0; round < 50; ++round)
    {
        for (std::size_t i = 0; i < pass.size(); ++i)
        {
            const uint32_t f = h.Send().first;
            ASSERT_EQ(f, pass[i]) << "pass " << round << ", packet " << i;
            h.Arrive(f, 1000);
        }
    }
    EXPECT_EQ(h.scheduler.GetPasses(), 49u);
}

// A flow that joins the scanned column while another of its flows is being visited goes above
// the visited one: the visit goes on, the turn does not reach the newcomer, and in the column's
// next turn it comes first. Weights A = 1, C = 2, D = 1; quantum 2000, packets 1000 B.
TEST(SrrScheduler, AFlowJoiningDuringAVisitWaitsAboveTheVisitedFlow)
{
    Harness h(3, 2000);
    for (int i = 0; i < 4; ++i)
    {
        h.Arrive(0, 1000, 1.0); // A
    }
    for (int i = 0; i < 8; ++i)
    {
        h.Arrive(1, 1000, 2.0); // C
    }
    // C | A | C: C sends 2 (deficit 2000), then A's visit starts.
    EXPECT_EQ(h.Send().first, 1u);
    EXPECT_EQ(h.Send().first, 1u);
    EXPECT_EQ(h.Send().first, 0u);
    h.Arrive(2, 1000, 1.0); // D, during A's visit: column 0 becomes D A, scan at A
    EXPECT_EQ(h.Send().first, 0u) << "A's visit goes on";
    EXPECT_EQ(h.Send().first, 1u) << "column 0's turn is over without D";
    EXPECT_EQ(h.Send().first, 1u);
    // Next pass: C | D A | C.
    EXPECT_EQ(h.Send().first, 1u);
    EXPECT_EQ(h.Send().first, 1u);
    EXPECT_EQ(h.Send().first, 2u) << "D comes first in column 0's next turn";
    EXPECT_EQ(h.Send().first, 0u);
    EXPECT_EQ(h.Send().first, 0u);
    EXPECT_EQ(h.Send().first, 1u);
}

TEST(SrrSchedulerDeathTest, RejectsBadParametersAndPhantomDepartures)
{
    SrrScheduler srr;
    EXPECT_DEATH(srr.Reset(2, 0), "quantum must be >= 1");
    srr.Reset(2, 1000);
    EXPECT_DEATH(srr.Dequeue(), "no flow backlogged");
    EXPECT_DEATH(srr.Drop(true), "no flow backlogged");
    EXPECT_DEATH(SrrScheduler::WssTerm(0), "start at 1");
}
