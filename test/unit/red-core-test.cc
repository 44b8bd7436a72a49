/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RedCore without the simulator: the average (EWMA, idle-time decay), the drop probability
// (linear, gentle, count-based spacing with and without Wait, byte mode), the decision order
// (when RED draws and when not), ECN verdicts, and the pitfalls other implementations fall into.

#include "ns3/red-core.h"

#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <vector>

using ns3::RedCore;

namespace
{

/// A uniform source that must not be drawn from.
struct NoDraw
{
    double operator()() const
    {
        ADD_FAILURE() << "RED drew a random number where it must not";
        return 0.5;
    }
};

/// A uniform source that replays fixed values and counts the draws.
struct Scripted
{
    std::vector<double> values; //!< values to return, in order
    std::size_t draws = 0;      //!< draws made

    double operator()()
    {
        EXPECT_LT(draws, values.size()) << "more draws than scripted";
        return draws < values.size() ? values[draws++] : 1.0;
    }
};

/// Packet-mode parameters: min 5, max 15, max_p 0.1, w 0.5 (fast to move), no gentle, no wait.
RedCore::Params
Plain()
{
    RedCore::Params p;
    p.minTh = 5;
    p.maxTh = 15;
    p.maxP = 0.1;
    p.qW = 0.5;
    p.gentle = false;
    p.wait = false;
    p.linkBandwidth = 8e6; // 1000 packets/s of 1000 B
    p.meanPktSize = 1000;
    return p;
}

/// \return a busy core whose average is \p avg (one arrival of q = avg / w onto avg 0).
RedCore
AtAverage(const RedCore::Params& p, double avg)
{
    RedCore core(p);
    core.NotifyBusy();
    core.UpdateAverage(avg / p.qW, 0);
    EXPECT_EQ(core.GetAverage(), avg);
    return core;
}

/// RED's p_a for p_b and count, Wait off: p_b / (1 - count p_b), capped at 1.
double
SpacedNoWait(double pb, uint64_t count)
{
    return count * pb < 1 ? std::min(1.0, pb / (1 - count * pb)) : 1.0;
}

} // namespace

TEST(RedCore, AverageIsTheEwmaOfTheQueueBeforeEachArrival)
{
    RedCore core(Plain());
    core.NotifyBusy(); // not idle: no decay
    double expected = 0;
    for (double q : {4.0, 8.0, 8.0, 2.0, 0.0, 10.0})
    {
        expected = 0.5 * expected + 0.5 * q;
        EXPECT_DOUBLE_EQ(core.UpdateAverage(q, 0), expected);
    }
    EXPECT_DOUBLE_EQ(core.GetAverage(), expected);
}

TEST(RedCore, IdleTimeDecaysTheAverageAsIfMEmptyArrivalsHadHappened)
{
    auto p = Plain(); // ptc = 8e6 / (8 x 1000) = 1000 packets/s
    RedCore core(p);
    core.NotifyBusy();
    core.UpdateAverage(16, 0); // avg 8
    core.NotifyIdle(1'000'000'000);
    // Idle 3.5 ms: m = floor(1000 x 0.0035) = 3, so (1 - w)^(m + 1) = 1/16.
    EXPECT_DOUBLE_EQ(core.UpdateAverage(4, 1'003'500'000), 8.0 / 16 + 2.0);
    EXPECT_TRUE(core.IsIdle()) << "idle until a packet is really queued";
    core.NotifyBusy();
    EXPECT_FALSE(core.IsIdle());
    EXPECT_DOUBLE_EQ(core.UpdateAverage(4, 2'000'000'000), (8.0 / 16 + 2.0) / 2 + 2.0)
        << "busy: no decay however long since";
}

TEST(RedCore, ADroppedArrivalAtAnIdleQueueDoesNotEndTheIdlePeriod)
{
    // Pitfall: marking the queue busy on arrival, before knowing whether the packet is queued.
    // Here the first arrival is dropped (the caller never calls NotifyBusy), so the second one
    // still decays the average over the time since the first.
    RedCore core(Plain());
    core.NotifyBusy();
    core.UpdateAverage(32, 0); // avg 16
    core.NotifyIdle(0);
    const double afterFirst = core.UpdateAverage(0, 1'000'000); // 1 ms: m = 1 -> x 1/4
    EXPECT_DOUBLE_EQ(afterFirst, 4.0);
    const double afterSecond = core.UpdateAverage(0, 3'000'000); // 2 ms more: m = 2 -> x 1/8
    EXPECT_DOUBLE_EQ(afterSecond, 0.5);
}

TEST(RedCore, HugeIdlePeriodsEmptyTheAverageWithoutOverflow)
{
    auto p = Plain();
    p.linkBandwidth = 1e12;
    RedCore core(p);
    core.NotifyBusy();
    core.UpdateAverage(100, 0);
    core.NotifyIdle(0);
    EXPECT_EQ(core.UpdateAverage(0, int64_t(1e18)), 0.0);
}

TEST(RedCore, CustomClockTicks)
{
    auto p = Plain();
    p.ticksToSeconds = [](int64_t ticks) { return ticks * 1e-3; }; // milliseconds
    RedCore core(p);
    core.NotifyBusy();
    core.UpdateAverage(16, 0); // avg 8
    core.NotifyIdle(10);
    EXPECT_DOUBLE_EQ(core.UpdateAverage(0, 13), 8.0 / 16); // 3 ms: m = 3
}

TEST(RedCore, BelowMinThOrNearlyEmptyQueueAcceptsWithoutDrawing)
{
    auto core = AtAverage(Plain(), 4.9);
    EXPECT_EQ(core.Decide(50, 1000, NoDraw{}), RedCore::ACCEPT);
    auto high = AtAverage(Plain(), 30); // above max_th, but the queue holds <= 1 packet
    EXPECT_EQ(high.Decide(1, 1000, NoDraw{}), RedCore::ACCEPT);
    EXPECT_EQ(high.Decide(0, 1000, NoDraw{}), RedCore::ACCEPT);
    EXPECT_EQ(high.GetProbability(), 0.0);
    EXPECT_EQ(high.Decide(2, 1000, NoDraw{}), RedCore::FORCED_DROP);
    EXPECT_EQ(high.GetProbability(), 1.0) << "forced: certain";
}

TEST(RedCore, FirstPacketAboveMinThIsAcceptedAndStartsTheCount)
{
    auto core = AtAverage(Plain(), 10);
    for (int i = 0; i < 7; ++i)
    {
        core.Decide(0, 1000, NoDraw{}); // below min (q <= 1): counts, old = false
    }
    EXPECT_EQ(core.GetCount(), 7u) << "count keeps counting below min_th";
    EXPECT_EQ(core.Decide(10, 1000, NoDraw{}), RedCore::ACCEPT);
    EXPECT_EQ(core.GetCount(), 1u) << "reset to 1 when avg rises above min_th";
    EXPECT_EQ(core.GetProbability(), 0.0) << "the first packet above min_th is never dropped";
    Scripted u{{0.99}};
    EXPECT_EQ(core.Decide(10, 1000, u), RedCore::ACCEPT);
    EXPECT_EQ(u.draws, 1u) << "the second packet above min_th draws";
}

TEST(RedCore, ProbabilityIsLinearBetweenThresholdsAndCountSpaced)
{
    // avg 10: p_b = 0.1 (10 - 5) / (15 - 5) = 0.05; Wait off: p_a = p_b / (1 - count p_b),
    // which reaches 1 at count 19 (1 - 19 x 0.05 rounds just below 0.05) and stays capped there:
    // the uncapped formula would divide by zero at count 20 and turn negative after it.
    auto core = AtAverage(Plain(), 10);
    core.Decide(10, 1000, NoDraw{}); // count = 1
    for (uint64_t count = 2; count < 60; ++count)
    {
        Scripted never{{1.0 + 1e-9}};
        ASSERT_EQ(core.Decide(10, 1000, never), RedCore::ACCEPT);
        ASSERT_EQ(core.GetCount(), count);
        EXPECT_DOUBLE_EQ(core.GetProbability(), SpacedNoWait(0.05, count)) << "count " << count;
        EXPECT_GT(core.GetProbability(), 0.0);
        EXPECT_LE(core.GetProbability(), 1.0);
    }
    EXPECT_EQ(core.GetProbability(), 1.0);
    Scripted one{{1.0}};
    EXPECT_EQ(core.Decide(10, 1000, one), RedCore::EARLY_DROP) << "u <= p_a = 1";
    EXPECT_EQ(core.GetCount(), 0u) << "an early drop resets count";
    Scripted next{{1.0}};
    EXPECT_EQ(core.Decide(10, 1000, next), RedCore::ACCEPT);
    EXPECT_EQ(core.GetCount(), 1u);
    EXPECT_DOUBLE_EQ(core.GetProbability(), 0.05 / 0.95);
}

TEST(RedCore, LargeCountNeverMakesTheProbabilityNegative)
{
    // A long forced period (count keeps growing, old stays set), then back between the
    // thresholds: count p_b >> 1 must give p_a = 1, never p_b / (1 - count p_b) < 0.
    for (bool wait : {false, true})
    {
        auto p = Plain();
        p.wait = wait;
        auto core = AtAverage(p, 10);
        core.Decide(10, 1000, NoDraw{}); // old = true, count = 1
        for (int i = 0; i < 1000; ++i)
        {
            EXPECT_EQ(core.DecideOn(20, 10, 1000, NoDraw{}), RedCore::FORCED_DROP);
        }
        EXPECT_EQ(core.GetCount(), 1001u) << "forced drops do not reset count (ns-2, ns-3)";
        EXPECT_EQ(core.DropProbability(10, 1000), 1.0);
        Scripted u{{0.999}};
        EXPECT_EQ(core.DecideOn(10, 10, 1000, u), RedCore::EARLY_DROP);
    }
}

TEST(RedCore, WaitKeepsAtLeastOneOverPbPacketsBetweenDrops)
{
    // Wait on: p_a = 0 while count p_b < 1, p_b / (2 - count p_b) up to 2, then 1.
    auto p = Plain();
    p.wait = true;
    auto core = AtAverage(p, 10); // p_b = 0.05
    core.Decide(10, 1000, NoDraw{});
    for (uint64_t count = 2; count < 40; ++count)
    {
        const double expected =
            count * 0.05 < 1 ? 0.0
                             : (count * 0.05 < 2 ? std::min(1.0, 0.05 / (2 - count * 0.05)) : 1.0);
        Scripted never{{1.0 + 1e-9}};
        core.Decide(10, 1000, never);
        EXPECT_NEAR(core.GetProbability(), expected, 1e-15) << "count " << count;
    }
}

TEST(RedCore, DropsAreSpacedUniformlyNotGeometrically)
{
    // Pitfall: resetting count after every accepted packet makes p_a = p_b for every packet and
    // the gaps between drops geometric (unbounded, mean 1/p_b). With RED's count they are
    // bounded. p_b = 0.05: Wait off, P(gap > k) = (1 - (k+1) p_b) / (1 - p_b), so gaps are
    // uniform on 1 .. 19 (mean 10); Wait on, P(gap > k) = 2 - (k+1) p_b from k = 19, so gaps are
    // 20 .. 39.
    std::mt19937_64 rng(12345);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    auto draw = [&]() { return uniform(rng); };
    for (bool wait : {false, true})
    {
        auto p = Plain();
        p.wait = wait;
        auto core = AtAverage(p, 10);
        core.Decide(10, 1000, NoDraw{});
        std::vector<uint64_t> gaps;
        uint64_t since = 1;
        while (gaps.size() < 20000)
        {
            ++since;
            if (core.Decide(10, 1000, draw) == RedCore::EARLY_DROP)
            {
                gaps.push_back(since);
                since = 0;
            }
        }
        gaps.erase(gaps.begin()); // the first gap started at the min_th crossing
        std::vector<double> share(41, 0.0);
        double mean = 0;
        for (uint64_t g : gaps)
        {
            ASSERT_LE(g, 40u);
            share[g] += 1.0 / gaps.size();
            mean += double(g) / gaps.size();
        }
        const uint64_t lo = wait ? 20 : 1;
        const uint64_t hi = wait ? 39 : 19;
        for (uint64_t g = 0; g <= 40; ++g)
        {
            if (g < lo || g > hi)
            {
                EXPECT_EQ(share[g], 0.0) << "gap " << g << (wait ? " (Wait)" : "");
            }
            else if (!wait)
            {
                EXPECT_NEAR(share[g], 1.0 / 19, 0.006) << "gap " << g;
            }
            else
            {
                // P(gap = k) = p_b for 20 <= k <= 39.
                EXPECT_NEAR(share[g], 0.05, 0.006) << "gap " << g << " (Wait)";
            }
        }
        EXPECT_NEAR(mean, wait ? 29.5 : 10.0, 0.15);
    }
}

TEST(RedCore, GentleRisesFromMaxPToOneBetweenMaxThAndTwiceMaxTh)
{
    auto p = Plain();
    p.gentle = true;
    for (double avg : {15.0, 18.0, 25.0, 29.9})
    {
        auto core = AtAverage(p, avg);
        core.Decide(avg, 1000, NoDraw{}); // count = 1
        const double pb = 0.1 + (1 - 0.1) * (avg - 15) / 15;
        EXPECT_NEAR(core.DropProbability(avg, 1000), SpacedNoWait(pb, 1), 1e-12) << avg;
    }
    auto core = AtAverage(p, 30);
    EXPECT_EQ(core.Decide(30, 1000, NoDraw{}), RedCore::FORCED_DROP) << "forced from 2 max_th";
    auto below = AtAverage(p, 29.9);
    EXPECT_EQ(below.Decide(30, 1000, NoDraw{}), RedCore::ACCEPT) << "first above min_th";
    auto hard = AtAverage(Plain(), 15);
    EXPECT_EQ(hard.Decide(15, 1000, NoDraw{}), RedCore::FORCED_DROP) << "not gentle: from max_th";
}

TEST(RedCore, ByteModeCountsMeanPacketsAndScalesBySize)
{
    auto p = Plain();
    p.byteMode = true;
    p.minTh = 5000;
    p.maxTh = 15000;
    auto core = AtAverage(p, 10000);    // p_b = 0.05
    core.Decide(10000, 1500, NoDraw{}); // count_bytes = 1500
    Scripted never{{1.0}};
    core.Decide(10000, 700, never); // count_bytes = 2200 -> c = floor(2200 / 1000) = 2
    const double pa = 0.05 / (1 - 2 * 0.05);
    EXPECT_NEAR(core.GetProbability(), pa * 700 / 1000, 1e-15);
}

TEST(RedCore, EcnVerdictsMarkEarlyAndDropAboveMaxUnlessHardDropIsOff)
{
    auto p = Plain();
    p.useEcn = true;
    auto early = AtAverage(p, 10);
    early.Decide(10, 1000, NoDraw{});
    Scripted always{{0.0}};
    EXPECT_EQ(early.Decide(10, 1000, always), RedCore::EARLY_MARK);
    auto forced = AtAverage(p, 20);
    EXPECT_EQ(forced.Decide(20, 1000, NoDraw{}), RedCore::FORCED_DROP);
    p.useHardDrop = false;
    auto soft = AtAverage(p, 20);
    EXPECT_EQ(soft.Decide(20, 1000, NoDraw{}), RedCore::FORCED_MARK);
}

TEST(RedCore, DecideOnUsesTheSuppliedAverageAndOwnState)
{
    auto core = AtAverage(Plain(), 0); // own average 0
    EXPECT_EQ(core.DecideOn(20, 10, 1000, NoDraw{}), RedCore::FORCED_DROP);
    EXPECT_EQ(core.DecideOn(4, 10, 1000, NoDraw{}), RedCore::ACCEPT);
    EXPECT_EQ(core.GetAverage(), 0.0);
}

TEST(RedCore, CheckNamesTheAttributeAndRange)
{
    auto p = Plain();
    EXPECT_EQ(RedCore::Check(p, "In"), "");
    p.minTh = 15;
    EXPECT_EQ(RedCore::Check(p, "In"), "InMaxTh = 15 must be finite and above InMinTh = 15");
    p = Plain();
    p.minTh = -1;
    EXPECT_EQ(RedCore::Check(p, "Out"), "OutMinTh = -1 must be finite and >= 0");
    p = Plain();
    p.maxP = 0;
    EXPECT_EQ(RedCore::Check(p, "Total"), "TotalMaxP = 0 is out of range (0, 1]");
    p.maxP = 1.5;
    EXPECT_EQ(RedCore::Check(p, "Total"), "TotalMaxP = 1.5 is out of range (0, 1]");
    p = Plain();
    p.qW = 0;
    EXPECT_EQ(RedCore::Check(p), "QueueWeight = 0 is out of range (0, 1]");
    p.qW = 1.01;
    EXPECT_EQ(RedCore::Check(p), "QueueWeight = 1.01 is out of range (0, 1]");
    EXPECT_EQ(RedCore::Check(p, "", "QW"), "QW = 1.01 is out of range (0, 1]") << "ns-3 RED's name";
    p = Plain();
    p.meanPktSize = 0;
    EXPECT_EQ(RedCore::Check(p), "MeanPktSize must be >= 1 byte, got 0");
    p = Plain();
    p.linkBandwidth = 0;
    EXPECT_EQ(RedCore::Check(p), "LinkBandwidth = 0 bit/s must be > 0");
}
