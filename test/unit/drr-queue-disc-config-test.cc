/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Bad configurations stop the program with a message naming the attribute and the valid range,
// in release builds too (ns-3 itself only asserts on CheckConfig's result).

#include "qdisc-lab-gtest-utils.h"

#include "ns3/double.h"
#include "ns3/drr-queue-disc.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/**
 * Create a DrrQueueDisc, set one attribute and initialize it.
 * \param name the attribute
 * \param value its value
 */
void
InitializeWith(const std::string& name, const AttributeValue& value)
{
    qdisclab::test::InitializeWith<DrrQueueDisc>(name, value);
}

} // namespace

TEST(DrrQueueDiscConfigDeathTest, OutOfRangeAttributesAreNamed)
{
    EXPECT_DEATH(InitializeWith("Buckets", UintegerValue(0)),
                 "Buckets = 0 is out of range \\[1, 16777216\\]");
    EXPECT_DEATH(InitializeWith("Buckets", UintegerValue(1U << 25)), "Buckets = 33554432");
    EXPECT_DEATH(InitializeWith("Quantum", UintegerValue(0)), "Quantum must be >= 1 byte");
    EXPECT_DEATH(InitializeWith("MaxSize", StringValue("1000B")),
                 "MaxSize = 1000B is smaller than one MTU \\(1500 B\\)");
    EXPECT_DEATH(InitializeWith("MaxSize", StringValue("0p")),
                 "ns3::DrrQueueDisc: MaxSize = 0p is out of range: a queue disc's buffer holds "
                 "at least 1p \\(in packets\\) or 1B \\(in bytes\\)");
    EXPECT_DEATH(InitializeWith("DefaultWeight", DoubleValue(0)),
                 "DefaultWeight must be finite and > 0");
    EXPECT_DEATH(InitializeWith("WeightRules", StringValue("dport=80 weight=-2")),
                 "DrrQueueDisc WeightRules: rule 1.*a finite weight > 0");
}

TEST(DrrQueueDiscConfig, ValidEdgesInitialize)
{
    auto qd = CreateObject<DrrQueueDisc>();
    qd->SetAttribute("Buckets", UintegerValue(1));
    qd->SetAttribute("Quantum", UintegerValue(1));
    qd->SetAttribute("MaxSize", StringValue("1500B"));
    qd->Initialize();
    EXPECT_EQ(qd->GetActiveFlows(), 0u);
    EXPECT_EQ(qd->GetFlowStats(1).enqueuedPackets, 0u) << "bucket 1 = the non-IP bucket";
    EXPECT_DEATH(qd->GetFlowStats(2), "bucket 2 out of range \\[0, 2\\)");
    qd->Dispose();
}
