/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Bad configurations stop the program with a message naming the attribute and the valid range,
// in release builds too (ns-3 itself only asserts on CheckConfig's result).

#include "ns3/aliquem-queue-disc.h"
#include "ns3/double.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

void
InitializeWith(const std::string& name, const AttributeValue& value)
{
    auto qd = CreateObject<AliquemQueueDisc>();
    qd->SetAttribute(name, value);
    qd->Initialize();
}

} // namespace

TEST(AliquemQueueDiscConfigDeathTest, OutOfRangeAttributesAreNamed)
{
    EXPECT_DEATH(InitializeWith("Buckets", UintegerValue(0)),
                 "AliquemQueueDisc: Buckets = 0 is out of range \\[1, 16777216\\]");
    EXPECT_DEATH(InitializeWith("Quantum", UintegerValue(0)), "Quantum must be >= 1 byte");
    EXPECT_DEATH(InitializeWith("ScalingFactor", UintegerValue(0)),
                 "ScalingFactor = 0 is out of range \\[1, 1024\\]");
    EXPECT_DEATH(InitializeWith("ScalingFactor", UintegerValue(1025)),
                 "ScalingFactor = 1025 is out of range");
    EXPECT_DEATH(InitializeWith("MaxSize", StringValue("1000B")),
                 "MaxSize = 1000B is smaller than one MTU \\(1500 B\\)");
    EXPECT_DEATH(InitializeWith("DefaultWeight", DoubleValue(0)),
                 "DefaultWeight must be finite and > 0");
    EXPECT_DEATH(InitializeWith("WeightRules", StringValue("dport=80 weight=-2")),
                 "AliquemQueueDisc WeightRules: rule 1.*a finite weight > 0");
}

TEST(AliquemQueueDiscConfig, ValidEdgesInitialize)
{
    auto qd = CreateObject<AliquemQueueDisc>();
    qd->SetAttribute("Buckets", UintegerValue(1));
    qd->SetAttribute("Quantum", UintegerValue(1));
    qd->SetAttribute("ScalingFactor", UintegerValue(1024));
    qd->SetAttribute("MaxSize", StringValue("1500B"));
    qd->Initialize();
    EXPECT_EQ(qd->GetActiveFlows(), 0u);
    EXPECT_EQ(qd->GetRound(), 0u);
    EXPECT_DEATH(qd->GetFlowStats(2), "bucket 2 out of range \\[0, 2\\)");
    qd->Dispose();
}
