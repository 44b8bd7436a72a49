/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The marker's profile rules: parsing, first-match classification, the meters they make, and
// malformed rules stopping the program with the rule, the field and what was expected.

#include "qdisc-lab-gtest-utils.h"

#include "ns3/dscp-marker-profiles.h"
#include "ns3/sr-tcm-meter.h"
#include "ns3/token-bucket-meter.h"
#include "ns3/tr-tcm-meter.h"

#include <gtest/gtest.h>

using namespace ns3;

using ns3::qdisclab::test::Ipv4Key;

TEST(DscpMarkerProfiles, ParsesEveryMeterAndMatchesFirst)
{
    DscpMarkerProfiles profiles("src=10.1.1.1 dport=5000 proto=tcp cir=2Mbps cbs=40000;\n"
                                "dst=10.2.0.0/16 meter=srtcm cir=1Mbps cbs=0 ebs=6000 af=2; "
                                "cir=100kbps, pbs=3000, meter=trtcm, pir=200kbps, cbs=1500",
                                "test");
    ASSERT_EQ(profiles.GetN(), 3u);
    const auto& tb = profiles.Get(0);
    EXPECT_EQ(tb.meter, DscpMarkerProfiles::TOKEN_BUCKET);
    EXPECT_EQ(tb.cir, DataRate("2Mbps"));
    EXPECT_EQ(tb.cbs, 40000u);
    EXPECT_EQ(tb.afClass, 0) << "the marker's AfClass";
    const auto& sr = profiles.Get(1);
    EXPECT_EQ(sr.meter, DscpMarkerProfiles::SR_TCM);
    EXPECT_EQ(sr.cbs, 0u);
    EXPECT_EQ(sr.ebs, 6000u);
    EXPECT_EQ(sr.afClass, 2);
    const auto& tr = profiles.Get(2);
    EXPECT_EQ(tr.meter, DscpMarkerProfiles::TR_TCM);
    EXPECT_EQ(tr.cir, DataRate("100kbps"));
    EXPECT_EQ(tr.pir, DataRate("200kbps"));
    EXPECT_EQ(tr.cbs, 1500u);
    EXPECT_EQ(tr.pbs, 3000u);

    EXPECT_EQ(profiles.Find(Ipv4Key("10.1.1.1", "10.2.3.4", 49153, 5000, 6)), 0);
    EXPECT_EQ(profiles.Find(Ipv4Key("10.1.1.1", "10.2.3.4", 49153, 5000, 17)), 1);
    EXPECT_EQ(profiles.Find(Ipv4Key("10.1.1.2", "10.3.3.4", 1, 2, 17)), 2) << "catch-all";
    EXPECT_EQ(profiles.Find(FlowKey{}), -1) << "non-IP packets match no profile";

    EXPECT_NE(dynamic_cast<TokenBucketMeter*>(profiles.MakeMeter(0, Seconds(0)).get()), nullptr);
    EXPECT_NE(dynamic_cast<SrTcmMeter*>(profiles.MakeMeter(1, Seconds(0)).get()), nullptr);
    EXPECT_NE(dynamic_cast<TrTcmMeter*>(profiles.MakeMeter(2, Seconds(0)).get()), nullptr);
}

TEST(DscpMarkerProfiles, MadeMetersHaveTheProfilesParameters)
{
    DscpMarkerProfiles profiles("cir=8kbps cbs=300", "test");
    auto meter = profiles.MakeMeter(0, Seconds(10));
    EXPECT_EQ(meter->Meter(Seconds(10), 300, TrafficMeter::GREEN), TrafficMeter::GREEN);
    EXPECT_EQ(meter->Meter(Seconds(10.1), 101, TrafficMeter::GREEN), TrafficMeter::YELLOW);
    EXPECT_EQ(meter->Meter(Seconds(10.1), 100, TrafficMeter::GREEN), TrafficMeter::GREEN);
}

TEST(DscpMarkerProfiles, EmptyTextHasNoProfiles)
{
    EXPECT_EQ(DscpMarkerProfiles("", "test").GetN(), 0u);
    EXPECT_EQ(DscpMarkerProfiles(" ; ;\n", "test").GetN(), 0u);
    EXPECT_EQ(DscpMarkerProfiles().Find(Ipv4Key("1.1.1.1", "2.2.2.2", 1, 2, 6)), -1);
}

TEST(DscpMarkerProfilesDeathTest, MalformedRulesNameTheRuleAndField)
{
    EXPECT_DEATH(DscpMarkerProfiles("cbs=1000", "P"),
                 "P: rule 1 \\('cbs=1000'\\), field 'cir': expected meter=tb to give cir=RATE");
    EXPECT_DEATH(DscpMarkerProfiles("cir=0bps cbs=1000", "P"), "'cir=0bps'.*a rate > 0");
    EXPECT_DEATH(DscpMarkerProfiles("cir=fast cbs=1000", "P"), "'cir=fast'.*a rate > 0");
    EXPECT_DEATH(DscpMarkerProfiles("cir=1Mbps", "P"), "field 'cbs'.*cbs=BYTES");
    EXPECT_DEATH(DscpMarkerProfiles("cir=1Mbps cbs=0", "P"),
                 "'cbs=0'.*a size in bytes from 1 to 1073741824");
    EXPECT_DEATH(DscpMarkerProfiles("cir=1Mbps cbs=1073741825", "P"), "from 1 to 1073741824");
    EXPECT_DEATH(DscpMarkerProfiles("cir=1Mbps cbs=1500 ebs=100", "P"),
                 "'ebs=100'.*ebs only with meter=srtcm, not meter=tb");
    EXPECT_DEATH(DscpMarkerProfiles("meter=srtcm cir=1Mbps cbs=1500", "P"), "field 'ebs'");
    EXPECT_DEATH(DscpMarkerProfiles("meter=srtcm cir=1Mbps cbs=0 ebs=0", "P"), "cbs \\+ ebs > 0");
    EXPECT_DEATH(DscpMarkerProfiles("meter=trtcm cir=2Mbps cbs=1 pir=1Mbps pbs=1", "P"),
                 "'pir=1Mbps'.*pir >= cir");
    EXPECT_DEATH(DscpMarkerProfiles("meter=trtcm cir=1Mbps cbs=1 pbs=1", "P"), "field 'pir'");
    EXPECT_DEATH(DscpMarkerProfiles("meter=trtcm cir=1Mbps cbs=1 pir=1Mbps pbs=0", "P"),
                 "'pbs=0'.*from 1 to");
    EXPECT_DEATH(DscpMarkerProfiles("meter=red cir=1Mbps cbs=1", "P"), "tb, srtcm or trtcm");
    EXPECT_DEATH(DscpMarkerProfiles("cir=1Mbps cbs=1 af=5", "P"), "'af=5'.*an AF class 1-4");
    EXPECT_DEATH(DscpMarkerProfiles("cir=1Mbps cbs=1 af=0", "P"), "an AF class 1-4");
    EXPECT_DEATH(DscpMarkerProfiles("cir=1Mbps cbs=1 weight=2", "P"),
                 "'weight=2'.*key src, dst, sport, dport, proto, dscp, meter, cir");
    EXPECT_DEATH(DscpMarkerProfiles("cir=1Mbps cbs=1 dport=99999", "P"), "port 0-65535");
    EXPECT_DEATH(DscpMarkerProfiles("cir=1Mbps cbs=1; cir=1Mbps cbs=1 cbs=2", "P"),
                 "rule 2.*'cbs=2'.*cbs is given twice");
    EXPECT_DEATH(DscpMarkerProfiles("cir=1Mbps cbs", "P"), "'cbs': expected key=value");
}
