/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The marker's configuration errors stop the program with a message naming the attribute and
// the valid range, in release builds too; and its DSCP arithmetic (RFC 2597's AF code points).

#include "qdisc-lab-gtest-utils.h"

#include "ns3/boolean.h"
#include "ns3/dscp-marker-helper.h"
#include "ns3/dscp-marker-queue-disc.h"
#include "ns3/fifo-queue-disc.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/**
 * Create a DscpMarkerQueueDisc, set one attribute and initialize it.
 * \param name the attribute
 * \param value its value
 */
void
InitializeWith(const std::string& name, const AttributeValue& value)
{
    qdisclab::test::InitializeWith<DscpMarkerQueueDisc>(name, value);
}

} // namespace

TEST(DscpMarkerQueueDisc, AfCodePoints)
{
    // RFC 2597 sec. 6: AF11 001010 ... AF43 100110.
    const uint8_t expected[4][3] = {{10, 12, 14}, {18, 20, 22}, {26, 28, 30}, {34, 36, 38}};
    for (uint8_t c = 1; c <= 4; ++c)
    {
        for (uint8_t d = 0; d < 3; ++d)
        {
            const auto color = static_cast<TrafficMeter::Color>(d);
            EXPECT_EQ(DscpMarkerQueueDisc::AfDscp(c, color), expected[c - 1][d]);
            EXPECT_EQ(DscpMarkerQueueDisc::PreColor(expected[c - 1][d]), color);
        }
    }
    for (uint8_t other : {0, 8, 16, 46, 48, 56, 9, 11, 42, 44, 2, 4, 6, 63})
    {
        EXPECT_EQ(DscpMarkerQueueDisc::PreColor(other), TrafficMeter::GREEN)
            << "DSCP " << unsigned(other) << " is not AFx2/AFx3";
    }
}

TEST(DscpMarkerQueueDisc, DefaultChildIsAFifoOfMaxSize)
{
    auto qd = CreateObject<DscpMarkerQueueDisc>();
    qd->SetAttribute("MaxSize", StringValue("37p"));
    qd->SetAttribute("Profiles",
                     StringValue("cir=1Mbps cbs=1500; meter=srtcm cir=1Mbps "
                                 "cbs=0 ebs=1500"));
    qd->Initialize();
    ASSERT_EQ(qd->GetNQueueDiscClasses(), 1u);
    auto child = DynamicCast<FifoQueueDisc>(qd->GetQueueDiscClass(0)->GetQueueDisc());
    ASSERT_NE(child, nullptr);
    EXPECT_EQ(child->GetMaxSize(), QueueSize("37p"));
    EXPECT_EQ(qd->GetNProfiles(), 2u);
    EXPECT_EQ(qd->GetProfileStats(1).packets[TrafficMeter::GREEN], 0u);
    EXPECT_EQ(qd->GetNMeters(), 0u);
    EXPECT_DEATH(qd->GetProfileStats(2), "profile 2 out of range \\[0, 2\\)");
    qd->Dispose();
}

TEST(DscpMarkerQueueDiscConfigDeathTest, OutOfRangeAttributesAreNamed)
{
    EXPECT_DEATH(InitializeWith("AfClass", UintegerValue(0)),
                 "AfClass = 0 is out of range \\[1, 4\\]");
    EXPECT_DEATH(InitializeWith("AfClass", UintegerValue(5)),
                 "AfClass = 5 is out of range \\[1, 4\\]");
    EXPECT_DEATH(InitializeWith("Profiles", StringValue("dport=80 cir=0Mbps cbs=1500")),
                 "DscpMarkerQueueDisc Profiles: rule 1.*'cir=0Mbps'.*a rate > 0");
    EXPECT_DEATH(InitializeWith("Profiles", StringValue("dport=80 cir=1Mbps cbs=0")),
                 "DscpMarkerQueueDisc Profiles: rule 1.*'cbs=0'.*from 1 to 1073741824");
    EXPECT_DEATH(InitializeWith("Profiles", StringValue("src=10.1.1 cir=1Mbps cbs=10")),
                 "IPv4 address");
    EXPECT_DEATH(InitializeWith("MaxSize", StringValue("0p")),
                 "ns3::DscpMarkerQueueDisc: MaxSize = 0p is out of range");
}

TEST(DscpMarkerQueueDiscConfigDeathTest, TwoChildrenAreRefused)
{
    auto qd = CreateObject<DscpMarkerQueueDisc>();
    for (int i = 0; i < 2; ++i)
    {
        auto c = CreateObject<QueueDiscClass>();
        c->SetQueueDisc(CreateObject<FifoQueueDisc>());
        qd->AddQueueDiscClass(c);
    }
    EXPECT_DEATH(qd->Initialize(), "needs exactly 1 child queue disc, got 2");
}

TEST(DscpMarkerHelper, BuildsTheProfilesAttribute)
{
    DscpMarkerHelper helper;
    EXPECT_EQ(helper.AddProfile("src=10.1.1.1 proto=tcp", DataRate("2Mbps"), 20000), 0u);
    EXPECT_EQ(helper.AddSrTcmProfile("dscp=AF21 af=2", DataRate("1Mbps"), 3000, 6000), 1u);
    EXPECT_EQ(helper.AddTrTcmProfile("", DataRate("1Mbps"), 3000, DataRate("2Mbps"), 6000), 2u);
    EXPECT_EQ(helper.GetNProfiles(), 3u);
    EXPECT_EQ(helper.GetProfiles(),
              "src=10.1.1.1 proto=tcp meter=tb cir=2000000bps cbs=20000; dscp=AF21 af=2 "
              "meter=srtcm cir=1000000bps cbs=3000 ebs=6000; meter=trtcm cir=1000000bps "
              "cbs=3000 pir=2000000bps pbs=6000");
    // The text is what the marker parses.
    DscpMarkerProfiles parsed(helper.GetProfiles(), "test");
    ASSERT_EQ(parsed.GetN(), 3u);
    EXPECT_EQ(parsed.Get(1).afClass, 2);
    EXPECT_EQ(parsed.Get(2).pir, DataRate("2Mbps"));
}

TEST(DscpMarkerHelperDeathTest, BadProfilesStopAtTheScriptLine)
{
    DscpMarkerHelper helper;
    EXPECT_DEATH(helper.AddProfile("dport=80", DataRate(0), 1500),
                 "DscpMarkerHelper profile 0: rule 1.*a rate > 0");
    EXPECT_DEATH(helper.AddProfile("dport=80", DataRate("1Mbps"), 0), "from 1 to 1073741824");
    EXPECT_DEATH(helper.AddProfile("port=80", DataRate("1Mbps"), 10), "'port=80'.*key src");
    EXPECT_DEATH(helper.AddProfile("dport=80; dport=81", DataRate("1Mbps"), 10),
                 "must be one rule, without ';'");
    EXPECT_DEATH(helper.AddTrTcmProfile("", DataRate("2Mbps"), 1, DataRate("1Mbps"), 1),
                 "pir >= cir");
    EXPECT_DEATH(helper.SetAttribute("Profiles", StringValue("cir=1Mbps cbs=1")),
                 "add profiles with AddProfile");
}
