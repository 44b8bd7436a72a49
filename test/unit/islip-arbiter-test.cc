/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// IslipArbiter: McKeown's iSLIP, pointer by pointer.

#include "ns3/islip-arbiter.h"

#include <gtest/gtest.h>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

/// All N*N requests set.
std::vector<uint8_t>
Full(uint32_t n)
{
    return std::vector<uint8_t>(n * n, 1);
}

} // namespace

TEST(IslipArbiter, HandWorkedFirstIterationAndPointers)
{
    // 3x3, pointers at 0. Requests: input 0 -> {0, 1}, input 1 -> {0}, input 2 -> {1, 2}.
    IslipArbiter arbiter;
    arbiter.Reset(3, 1);
    std::vector<uint8_t> r = {1, 1, 0, 1, 0, 0, 0, 1, 1};
    const std::vector<uint8_t> all(3, 1);
    // Grant: out 0 -> in 0 (g=0), out 1 -> in 0, out 2 -> in 2.
    // Accept: in 0 takes out 0 (a=0), in 2 takes out 2. In 1 is left out (one iteration).
    auto m = arbiter.Match(r, all, all);
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(m[0], IslipArbiter::Pair(0, 0));
    EXPECT_EQ(m[1], IslipArbiter::Pair(2, 2));
    EXPECT_EQ(arbiter.GetGrantPointer(0), 1u) << "one beyond the accepted input";
    EXPECT_EQ(arbiter.GetGrantPointer(1), 0u) << "grant not accepted: pointer stays";
    EXPECT_EQ(arbiter.GetGrantPointer(2), 0u) << "one beyond input 2, wrapped";
    EXPECT_EQ(arbiter.GetAcceptPointer(0), 1u);
    EXPECT_EQ(arbiter.GetAcceptPointer(2), 0u);
    // Same requests again: out 0 now favours input 1, out 1 input 0 -> full matching.
    m = arbiter.Match(r, all, all);
    ASSERT_EQ(m.size(), 3u);
    EXPECT_EQ(m[0], IslipArbiter::Pair(0, 1));
    EXPECT_EQ(m[1], IslipArbiter::Pair(1, 0));
    EXPECT_EQ(m[2], IslipArbiter::Pair(2, 2));
}

TEST(IslipArbiter, SecondIterationMatchesTheLeftOverPortsWithoutMovingPointers)
{
    // Two inputs both request outputs 0 and 1; pointers at 0: both outputs grant input 0,
    // which accepts output 0; iteration 2 matches input 1 to output 1.
    IslipArbiter arbiter;
    arbiter.Reset(2, 2);
    const std::vector<uint8_t> all(2, 1);
    const auto& m = arbiter.Match(Full(2), all, all);
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(m[0], IslipArbiter::Pair(0, 0));
    EXPECT_EQ(m[1], IslipArbiter::Pair(1, 1));
    EXPECT_EQ(arbiter.GetGrantPointer(1), 0u) << "second-iteration match: no update";
    EXPECT_EQ(arbiter.GetAcceptPointer(1), 0u) << "second-iteration match: no update";
}

TEST(IslipArbiter, DesynchronisesToFullPermutationsUnderFullLoad)
{
    // Every VOQ backlogged, one iteration: after at most N slots every slot is a permutation,
    // and over N slots every (input, output) pair is served exactly once (100% throughput).
    for (uint32_t n : {2u, 4u, 8u, 16u})
    {
        IslipArbiter arbiter;
        arbiter.Reset(n, 1);
        const std::vector<uint8_t> all(n, 1);
        for (uint32_t slot = 0; slot < n; ++slot)
        {
            arbiter.Match(Full(n), all, all);
        }
        std::set<IslipArbiter::Pair> served;
        for (uint32_t slot = 0; slot < n; ++slot)
        {
            const auto& m = arbiter.Match(Full(n), all, all);
            EXPECT_EQ(m.size(), n) << "N = " << n << ", slot " << slot;
            served.insert(m.begin(), m.end());
        }
        EXPECT_EQ(served.size(), n * n) << "N = " << n;
    }
}

TEST(IslipArbiter, BusyPortsAreLeftOut)
{
    IslipArbiter arbiter;
    arbiter.Reset(3, 3);
    const std::vector<uint8_t> inputs = {1, 0, 1};
    const std::vector<uint8_t> outputs = {0, 1, 1};
    const auto& m = arbiter.Match(Full(3), inputs, outputs);
    ASSERT_EQ(m.size(), 2u);
    for (const auto& [i, j] : m)
    {
        EXPECT_NE(i, 1u);
        EXPECT_NE(j, 0u);
    }
}

TEST(IslipArbiterDeathTest, ZeroPortsOrIterations)
{
    IslipArbiter arbiter;
    EXPECT_DEATH(arbiter.Reset(0, 1), "number of ports must be >= 1");
    EXPECT_DEATH(arbiter.Reset(4, 0), "number of iterations must be >= 1");
}
