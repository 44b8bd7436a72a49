/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Bad RIO / RI+O configurations stop the program with a message naming the attribute and the
// valid range, in release builds too (ns-3 itself only asserts on CheckConfig's result).

#include "qdisc-lab-gtest-utils.h"

#include "ns3/double.h"
#include "ns3/ri-plus-o-queue-disc.h"
#include "ns3/rio-queue-disc.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using ns3::qdisclab::test::InitializeWith;

TEST(RioQueueDiscConfigDeathTest, InconsistentThresholdsAreNamed)
{
    EXPECT_DEATH(InitializeWith<RioQueueDisc>({{"InMinTh", "180"}}),
                 "RioQueueDisc: InMaxTh = 180 must be finite and above InMinTh = 180");
    EXPECT_DEATH(InitializeWith<RioQueueDisc>({{"InMinTh", "-1"}}),
                 "InMinTh = -1 must be finite and >= 0");
    EXPECT_DEATH(InitializeWith<RioQueueDisc>({{"TotalMinTh", "100"}}),
                 "TotalMaxTh = 90 must be finite and above TotalMinTh = 100");
    EXPECT_DEATH(InitializeWith<RioQueueDisc>({{"Precedences", "3"}, {"MidMaxTh", "10"}}),
                 "MidMaxTh = 10 must be finite and above MidMinTh = 45");
    EXPECT_DEATH(InitializeWith<RiPlusOQueueDisc>({{"OutMaxTh", "5"}}),
                 "RiPlusOQueueDisc: OutMaxTh = 5 must be finite and above OutMinTh = 10");
}

TEST(RioQueueDiscConfigDeathTest, ProbabilitiesAndWeightOutOfRange)
{
    EXPECT_DEATH(InitializeWith<RioQueueDisc>({{"InMaxP", "0"}}),
                 "InMaxP = 0 is out of range \\(0, 1\\]");
    EXPECT_DEATH(InitializeWith<RioQueueDisc>({{"TotalMaxP", "1.5"}}),
                 "TotalMaxP = 1.5 is out of range \\(0, 1\\]");
    EXPECT_DEATH(InitializeWith<RiPlusOQueueDisc>({{"OutMaxP", "-0.1"}}),
                 "OutMaxP = -0.1 is out of range \\(0, 1\\]");
    EXPECT_DEATH(InitializeWith<RioQueueDisc>({{"QueueWeight", "0"}}),
                 "QueueWeight = 0 is out of range \\(0, 1\\]");
    EXPECT_DEATH(InitializeWith<RioQueueDisc>({{"QueueWeight", "2"}}),
                 "QueueWeight = 2 is out of range \\(0, 1\\]");
    EXPECT_DEATH(InitializeWith<RioQueueDisc>({{"MeanPktSize", "0"}}),
                 "MeanPktSize must be >= 1 byte, got 0");
    EXPECT_DEATH(InitializeWith<RioQueueDisc>({{"LinkBandwidth", "0bps"}}),
                 "LinkBandwidth = 0 bit/s must be > 0");
}

TEST(RioQueueDiscConfigDeathTest, PrecedencesAndDscps)
{
    EXPECT_DEATH(InitializeWith<RioQueueDisc>({{"Precedences", "4"}}),
                 "Precedences = 4 must be 2 or 3");
    EXPECT_DEATH(InitializeWith<RioQueueDisc>({{"InDscps", "AF11 AF99"}}),
                 "InDscps = 'AF11 AF99': 'AF99' is not a DSCP");
    EXPECT_DEATH(InitializeWith<RioQueueDisc>({{"InDscps", "64"}}), "'64' is not a DSCP");
    EXPECT_DEATH(InitializeWith<RioQueueDisc>({{"Precedences", "3"}, {"MidDscps", "AF11"}}),
                 "MidDscps = 'AF11': DSCP AF11 already has precedence 1");
    EXPECT_DEATH(InitializeWith<RiPlusOQueueDisc>({{"Precedences", "3"}}),
                 "RiPlusOQueueDisc: avg_out = avg_total - avg_in needs Precedences = 2 and "
                 "Averaging = Coupled");
    EXPECT_DEATH(InitializeWith<RiPlusOQueueDisc>({{"Averaging", "Wred"}}),
                 "needs Precedences = 2 and Averaging = Coupled");
}

TEST(RioQueueDiscConfig, DefaultsAreThePapers)
{
    auto rio = CreateObject<RiPlusOQueueDisc>();
    rio->Initialize();
    EXPECT_EQ(rio->GetPrecedences(), 2u);
    EXPECT_EQ(rio->GetMaxSize(), QueueSize("200p"));
    DoubleValue v;
    for (const auto& [name, expected] :
         std::vector<std::pair<std::string, double>>{{"InMinTh", 60},
                                                     {"InMaxTh", 180},
                                                     {"InMaxP", 0.02},
                                                     {"TotalMinTh", 30},
                                                     {"TotalMaxTh", 90},
                                                     {"TotalMaxP", 0.05},
                                                     {"OutMinTh", 10},
                                                     {"OutMaxTh", 30},
                                                     {"OutMaxP", 0.1}})
    {
        rio->GetAttribute(name, v);
        EXPECT_EQ(v.Get(), expected) << name;
    }
    EXPECT_DEATH(rio->GetPrecedenceStats(3), "precedence 3 out of range \\[1, 2\\]");
    EXPECT_DEATH(rio->GetAverage(0), "precedence 0 out of range \\[1, 2\\]");
    rio->Dispose();
}
