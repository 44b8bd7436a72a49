/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qdisc-lab-gtest-utils.h"

#include "ns3/flow-weight-rules.h"

#include <gtest/gtest.h>

using ns3::FlowKey;
using ns3::FlowWeightRules;

using ns3::qdisclab::test::Ipv4Key;
using ns3::qdisclab::test::Ipv6Key;

TEST(FlowWeightRules, FirstMatchWinsAndDefaultIsOne)
{
    FlowWeightRules rules("dscp=AF11 weight=2; dst=10.3.1.0/24 dport=5000-5010 proto=udp "
                          "weight=4; src=10.1.0.0/16, weight=0.5",
                          "test");
    EXPECT_EQ(rules.GetN(), 3u);
    EXPECT_DOUBLE_EQ(rules.WeightOf(Ipv4Key("10.1.1.1", "10.3.1.7", 1, 5005, 17, 10)), 2.0);
    EXPECT_DOUBLE_EQ(rules.WeightOf(Ipv4Key("10.1.1.1", "10.3.1.7", 1, 5005, 17)), 4.0);
    EXPECT_DOUBLE_EQ(rules.WeightOf(Ipv4Key("10.1.1.1", "10.3.1.7", 1, 5011, 17)), 0.5);
    EXPECT_DOUBLE_EQ(rules.WeightOf(Ipv4Key("10.1.1.1", "10.3.1.7", 1, 5005, 6)), 0.5);
    EXPECT_DOUBLE_EQ(rules.WeightOf(Ipv4Key("10.2.1.1", "10.3.2.7", 1, 5005, 17)), 1.0);
    FlowKey nonIp;
    EXPECT_DOUBLE_EQ(rules.WeightOf(nonIp), 1.0);
}

TEST(FlowWeightRules, PrefixesAndIpv6)
{
    FlowWeightRules rules("src=2001:db8::/32 weight=3; dst=10.0.0.0/9 weight=5; "
                          "src=10.128.0.1 weight=7",
                          "test");
    EXPECT_DOUBLE_EQ(rules.WeightOf(Ipv6Key("2001:db8:1::1", "2001:db9::1")), 3.0);
    EXPECT_DOUBLE_EQ(rules.WeightOf(Ipv6Key("2001:db9::1", "2001:db8::1")), 1.0);
    EXPECT_DOUBLE_EQ(rules.WeightOf(Ipv4Key("1.1.1.1", "10.127.255.255", 0, 0, 6)), 5.0);
    EXPECT_DOUBLE_EQ(rules.WeightOf(Ipv4Key("10.128.0.1", "10.128.0.0", 0, 0, 6)), 7.0);
    EXPECT_DOUBLE_EQ(rules.WeightOf(Ipv4Key("10.128.0.2", "10.128.0.0", 0, 0, 6)), 1.0);
}

TEST(FlowWeightRules, DscpNamesAndNumbers)
{
    FlowWeightRules rules("dscp=EF weight=8; dscp=12 weight=6", "test");
    EXPECT_DOUBLE_EQ(rules.WeightOf(Ipv4Key("1.1.1.1", "2.2.2.2", 0, 0, 17, 46)), 8.0);
    EXPECT_DOUBLE_EQ(rules.WeightOf(Ipv4Key("1.1.1.1", "2.2.2.2", 0, 0, 17, 12)), 6.0);
    rules.SetDefaultWeight(2.5);
    EXPECT_DOUBLE_EQ(rules.WeightOf(Ipv4Key("1.1.1.1", "2.2.2.2", 0, 0, 17, 0)), 2.5);
}

TEST(FlowWeightRules, CheckReturnsTheErrorInsteadOfStopping)
{
    EXPECT_EQ(FlowWeightRules::Check("dport=5000 weight=2; dscp=EF weight=1", "WR"), "");
    EXPECT_EQ(FlowWeightRules::Check("", "WR"), "");
    EXPECT_EQ(FlowWeightRules::Check("dport=5000 weight=2; dprt=1 weight=1", "WR"),
              "WR: rule 2 (' dprt=1 weight=1'), field 'dprt=1': expected key src, dst, sport, "
              "dport, proto, dscp or weight");
    EXPECT_EQ(FlowWeightRules::Check("weight=0", "WR"),
              "WR: rule 1 ('weight=0'), field 'weight=0': expected a finite weight > 0");
    EXPECT_EQ(FlowWeightRules::Check("dport", "WR"),
              "WR: rule 1 ('dport'), field 'dport': expected key=value with key src, dst, sport, "
              "dport, proto, dscp or weight");
}

TEST(FlowWeightRulesDeathTest, MalformedRulesNameTheFieldAndTheSetting)
{
    EXPECT_DEATH(FlowWeightRules("dscp=AF11", "WR"), "WR: rule 1 .*'weight'.*weight=W");
    EXPECT_DEATH(FlowWeightRules("weight=0", "WR"), "a finite weight > 0");
    EXPECT_DEATH(FlowWeightRules("weight=-1", "WR"), "a finite weight > 0");
    EXPECT_DEATH(FlowWeightRules("weight=2; dport=70000 weight=1", "WR"),
                 "rule 2.*'dport=70000'.*port 0-65535");
    EXPECT_DEATH(FlowWeightRules("dport=9-3 weight=1", "WR"), "LO <= HI");
    EXPECT_DEATH(FlowWeightRules("src=10.1.1 weight=1", "WR"), "IPv4 address");
    EXPECT_DEATH(FlowWeightRules("src=10.1.1.1/33 weight=1", "WR"), "prefix length from 0 to 32");
    EXPECT_DEATH(FlowWeightRules("dscp=AF99 weight=1", "WR"), "AF11-AF43");
    EXPECT_DEATH(FlowWeightRules("color=red weight=1", "WR"), "key src, dst");
    EXPECT_DEATH(FlowWeightRules("weight", "WR"), "key=value");
}
