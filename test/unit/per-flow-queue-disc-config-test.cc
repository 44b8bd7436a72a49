/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The attributes DrrQueueDisc, AliquemQueueDisc and SrrQueueDisc share (PerFlowQueueDisc) are
// each queue disc's own: Config::SetDefault("ns3::DrrQueueDisc::Buckets", ...) and
// --ns3::DrrQueueDisc::Buckets=... on a command line look only at the named TypeId's own
// attributes, as they do for every ns-3 queue disc.

#include "ns3/aliquem-queue-disc.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/drr-queue-disc.h"
#include "ns3/srr-queue-disc.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <string>

using namespace ns3;

namespace
{

template <typename QD>
class PerFlowQueueDiscDefaultsTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Config::Reset();
    }
};

using PerFlowQueueDiscs = ::testing::Types<DrrQueueDisc, AliquemQueueDisc, SrrQueueDisc>;
TYPED_TEST_SUITE(PerFlowQueueDiscDefaultsTest, PerFlowQueueDiscs);

} // namespace

TYPED_TEST(PerFlowQueueDiscDefaultsTest, SharedAttributesTakeConfigDefaultsUnderTheirOwnName)
{
    const std::string name = TypeParam::GetTypeId().GetName();
    ASSERT_TRUE(Config::SetDefaultFailSafe(name + "::Buckets", UintegerValue(7)));
    ASSERT_TRUE(Config::SetDefaultFailSafe(name + "::DropFrom", StringValue("Tail")));
    ASSERT_TRUE(Config::SetDefaultFailSafe(name + "::DefaultWeight", DoubleValue(2.5)));
    ASSERT_TRUE(Config::SetDefaultFailSafe(name + "::MaxSize", StringValue("40p")));

    auto qd = CreateObject<TypeParam>();
    UintegerValue buckets;
    qd->GetAttribute("Buckets", buckets);
    EXPECT_EQ(buckets.Get(), 7U);
    StringValue dropFrom; // EnumValue is a template from ns-3.41 on; its string form is not
    qd->GetAttribute("DropFrom", dropFrom);
    EXPECT_EQ(dropFrom.Get(), "Tail");
    DoubleValue weight;
    qd->GetAttribute("DefaultWeight", weight);
    EXPECT_EQ(weight.Get(), 2.5);
    EXPECT_EQ(qd->GetMaxSize(), QueueSize("40p"));
}

TYPED_TEST(PerFlowQueueDiscDefaultsTest, SharedTraceSourcesAreFound)
{
    const TypeId tid = TypeParam::GetTypeId();
    for (const char* trace : {"ActiveFlows", "FlowEnqueue", "FlowDequeue", "FlowDrop", "Deficit"})
    {
        EXPECT_TRUE(tid.LookupTraceSourceByName(trace)) << trace;
    }
    // The base holds none of its own, so a default set under its name cannot reach the others.
    EXPECT_EQ(PerFlowQueueDisc::GetTypeId().GetAttributeN(), 0U);
    EXPECT_FALSE(Config::SetDefaultFailSafe("ns3::PerFlowQueueDisc::Buckets", UintegerValue(3)));
}
