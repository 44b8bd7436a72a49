/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// VerticalDimensioningQueueDisc: bad configurations stop the program with a message naming the
// attribute and the valid range, in release builds too; M and L_M default as documented.

#include "../qdisc-lab-test-packets.h"

#include "ns3/double.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/vertical-dimensioning-queue-disc.h"

#include <gtest/gtest.h>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \param attributes name/value pairs
 * \return an initialized queue disc
 */
Ptr<VerticalDimensioningQueueDisc>
Make(const qdisclab::test::Attributes& attributes)
{
    return qdisclab::test::MakeQueueDisc<VerticalDimensioningQueueDisc>(attributes);
}

} // namespace

TEST(VdQueueDiscConfigDeathTest, OutOfRangeAttributesAreNamed)
{
    EXPECT_DEATH(Make({{"Buckets", "0"}}), "Buckets = 0 is out of range \\[1, 16777216\\]");
    EXPECT_DEATH(Make({{"Buckets", "33554432"}}), "Buckets = 33554432 is out of range");
    EXPECT_DEATH(Make({{"MaxSize", "1000B"}}),
                 "MaxSize = 1000B is smaller than MaxPacketSize \\(L_M = 1500 B, the device "
                 "MTU\\); it must be >= 1500B \\(or >= 1p in packets\\)");
    EXPECT_DEATH(Make({{"MaxSize", "1500B"}, {"MaxPacketSize", "2000"}}),
                 "MaxSize = 1500B is smaller than MaxPacketSize \\(L_M = 2000 B\\); it must be "
                 ">= 2000B");
    EXPECT_DEATH(Make({{"MaxSize", "0B"}}),
                 "ns3::VerticalDimensioningQueueDisc: MaxSize = 0B is out of range");
    EXPECT_DEATH(Make({{"DefaultWeight", "0"}}), "DefaultWeight must be finite and > 0, got 0");
    EXPECT_DEATH(Make({{"WeightRules", "dport=80 weight=-2"}}),
                 "VerticalDimensioningQueueDisc WeightRules: rule 1.*a finite weight > 0");
}

// The paper's M = ceil(B / L_M) = 17 for 25000 B and 1500 B can wrap by one round (see
// gtest/VdRounds.PaperRoundCountWrapsAroundByOne): rejected, with the smallest valid value.
TEST(VdQueueDiscConfigDeathTest, RoundCountsThatCouldWrapAreRejected)
{
    EXPECT_DEATH(Make({{"Rounds", "17"}}),
                 "Rounds = 17 could wrap around: with a buffer of 25000 B \\(MaxSize 25000B\\) "
                 "and a quantum of 1500 B \\(weight 1 x MaxPacketSize 1500 B\\) a packet can be "
                 "placed ceil\\(25000 / 1500\\) = 17 rounds ahead of current; use 0 "
                 "\\(automatic\\) or 18 .. 16777216");
    EXPECT_DEATH(Make({{"MaxSize", "100p"}, {"Rounds", "100"}}),
                 "Rounds = 100 could wrap around: with a buffer of 150000 B \\(MaxSize 100p x "
                 "MaxPacketSize 1500 B\\).*use 0 \\(automatic\\) or 101 .. 16777216");
    EXPECT_DEATH(Make({{"Rounds", "16777217"}}),
                 "Rounds = 16777217 is out of range: 0 \\(automatic\\) or 18 .. 16777216");
    EXPECT_DEATH(Make({{"MaxSize", "2000000000B"}, {"MaxPacketSize", "1"}}),
                 "needs 2000000001 rounds, more than the maximum 16777216");
    EXPECT_DEATH(Make({{"DefaultWeight", "0.5"}, {"Rounds", "18"}}),
                 "Rounds = 18 could wrap around.*quantum of 750 B \\(weight 0.5 x MaxPacketSize "
                 "1500 B\\).*use 0 \\(automatic\\) or 35 .. 16777216");
}

TEST(VdQueueDiscConfig, DefaultsAndValidEdges)
{
    auto qd = Make({});
    EXPECT_EQ(qd->GetMaxPacketSize(), 1500u) << "no device: 1500 B";
    EXPECT_EQ(qd->GetRounds(), 18u) << "ceil(25000 / 1500) + 1";
    EXPECT_EQ(qd->GetNInternalQueues(), 1u) << "one queue holds every round's packets";
    EXPECT_EQ(qd->GetCurrent(), 0u);
    EXPECT_EQ(qd->GetCurrentRound(), 0u);
    qd->Dispose();

    auto paper = Make({{"MaxSize", "12500B"}, {"MaxPacketSize", "1000"}});
    EXPECT_EQ(paper->GetRounds(), 14u) << "ceil(12500 / 1000) + 1";
    paper->Dispose();

    auto light = Make({{"DefaultWeight", "0.5"}});
    EXPECT_EQ(light->GetRounds(), 35u) << "ceil(25000 / 750) + 1";
    light->Dispose();

    auto packets = Make({{"MaxSize", "100p"}});
    EXPECT_EQ(packets->GetRounds(), 101u) << "100 packets of up to 1500 B";
    packets->Dispose();

    auto more = Make({{"Rounds", "100"}});
    EXPECT_EQ(more->GetRounds(), 100u);
    more->Dispose();

    auto edge = Make({{"Buckets", "1"}, {"MaxSize", "1500B"}});
    EXPECT_EQ(edge->GetRounds(), 2u);
    EXPECT_EQ(edge->GetActiveFlows(), 0u);
    EXPECT_EQ(edge->GetFlowStats(1).enqueuedPackets, 0u) << "bucket 1 = the non-IP bucket";
    EXPECT_DEATH(edge->GetFlowStats(2), "bucket 2 out of range \\[0, 2\\)");
    edge->Dispose();

    auto uncounted = Make({{"BucketCounters", "false"}});
    EXPECT_DEATH(uncounted->GetFlowStats(0), "GetFlowStats needs BucketCounters = true");
    uncounted->Dispose();
}

// ReturningFlows: a flow that empties and returns in the round it was credited in. Flows A, X,
// B from hosts 1-3, L_M = 1000 B: A 1000 (round 0), X 600 (0), B 1000 (0), A 1000 (1); A and X
// leave; X returns with 600 B. Fresh (Fig. 2): round 0, before A's round-1 packet; Keep: X spent
// 600 of its 1000 B in round 0, so round 1, after it.
TEST(VdQueueDiscConfig, ReturningFlowsFreshOrKeep)
{
    for (const std::string returning : {"Fresh", "Keep"})
    {
        auto qd =
            Make({{"MaxSize", "10000B"}, {"MaxPacketSize", "1000"}, {"ReturningFlows", returning}});
        using qdisclab::test::FromHost;
        using qdisclab::test::Uid;
        Ptr<QueueDiscItem> a1 = FromHost(1, 1000);
        Ptr<QueueDiscItem> x1 = FromHost(2, 600);
        Ptr<QueueDiscItem> b1 = FromHost(3, 1000);
        Ptr<QueueDiscItem> a2 = FromHost(1, 1000);
        Ptr<QueueDiscItem> x2 = FromHost(2, 600);
        for (const auto& item : {a1, x1, b1, a2})
        {
            ASSERT_TRUE(qd->Enqueue(item));
        }
        EXPECT_EQ(Uid(qd->Dequeue()), Uid(a1));
        EXPECT_EQ(Uid(qd->Dequeue()), Uid(x1));
        EXPECT_EQ(qd->GetActiveFlows(), 2u) << returning << ": A and B (X is not active)";
        ASSERT_TRUE(qd->Enqueue(x2));
        const std::vector<uint64_t> expected =
            returning == "Keep" ? std::vector<uint64_t>{Uid(b1), Uid(a2), Uid(x2)}
                                : std::vector<uint64_t>{Uid(b1), Uid(x2), Uid(a2)};
        EXPECT_EQ(qdisclab::test::DrainUids(qd), expected) << returning;
        qd->Dispose();
    }
    // ns-3 >= 3.44 with NS_ASSERT compiled in stops in EnumChecker first, naming the valid values.
    EXPECT_DEATH(Make({{"ReturningFlows", "Later"}}), "ReturningFlows|not a valid enum value");
}
