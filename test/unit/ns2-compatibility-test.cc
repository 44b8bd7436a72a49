/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The opt-in ns-2 behaviours (Ns2SourceHashPacketFilter: ns-2.35 drr.cc's buckets; RioQueueDisc's
// Ns2Averaging: ns-2.35 rio.cc's averages) and the per-flow family's count of flows that share a
// bucket, with the warning it prints when their weights differ.

#include "qdisc-lab-gtest-utils.h"

#include "ns3/drr-queue-disc.h"
#include "ns3/ns2-source-hash-packet-filter.h"
#include "ns3/rio-queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;
using ns3::qdisclab::test::FromHost;
using ns3::qdisclab::test::Ipv4UdpPacket;
using ns3::qdisclab::test::MakeQueueDisc;
using ns3::qdisclab::test::NonIpItem;

namespace
{

/// \param text NodeAddresses \param mask Mask \return the filter, configured
Ptr<Ns2SourceHashPacketFilter>
Ns2Filter(const std::string& text, bool mask = false)
{
    auto filter = CreateObject<Ns2SourceHashPacketFilter>();
    filter->SetAttribute("NodeAddresses", StringValue(text));
    filter->SetAttribute("Mask", StringValue(mask ? "true" : "false"));
    return filter;
}

} // namespace

// drr.cc's hash, h = ((i + (i >> 8) + ~(i >> 4)) % (2^24 - 1)) + 1, worked by hand: for small
// i it is i - i / 16; mask_ 1 clears the low four bits first (only bits 4-15 are kept).
TEST(Ns2SourceHashPacketFilter, HashIsNs2DrrsOfTheNodeAddress)
{
    const std::vector<std::vector<int32_t>> cases = {
        // address, hash with mask_ 0, hash with mask_ 1
        {0, 0, 0},
        {1, 1, 0},
        {2, 2, 0},
        {15, 15, 0},
        {16, 15, 15},
        {17, 16, 15},
        {255, 240, 225},
        {256, 241, 241},
        {4095, 3855, 3840},
        {65536, 61696, 0},
        {167837953, 7008763, 241}, // 10.1.1.1 as a number
        {2147483647, 8388727, 61680},
    };
    for (const auto& c : cases)
    {
        EXPECT_EQ(Ns2SourceHashPacketFilter::Ns2Hash(c[0], false), c[1]) << "address " << c[0];
        EXPECT_EQ(Ns2SourceHashPacketFilter::Ns2Hash(c[0], true), c[2]) << "address " << c[0];
    }
}

// With each source mapped to its ns-2 node, DrrQueueDisc's buckets are ns-2's: node n in bucket
// hash(n) % buckets_, whatever the ports or destination; 12 nodes in 10 buckets put 11 with 1,
// and 12 with 2 (hash 11 and 12), so two buckets are shared by two flows each.
TEST(Ns2SourceHashPacketFilter, DrrBucketsAreNs2sWithItsCollisions)
{
    std::string nodes;
    for (int n = 1; n <= 12; ++n)
    {
        nodes += "10.0.0." + std::to_string(n) + "=" + std::to_string(n) + "; ";
    }
    auto qd = MakeQueueDisc<DrrQueueDisc>({{"Buckets", "10"}}, Ns2Filter(nodes));
    for (uint32_t n = 1; n <= 12; ++n)
    {
        EXPECT_EQ(qd->GetBucket(FromHost(n, 100)), n % 10) << "node " << n;
        qd->Enqueue(FromHost(n, 100));
    }
    // Ports and destination do not matter.
    EXPECT_EQ(qd->GetBucket(Ipv4UdpPacket("10.0.0.7", "10.5.5.5", 9, 99, 100)), 7U);
    EXPECT_EQ(qd->GetSharedBuckets(), 2U);
    EXPECT_EQ(qd->GetFlowsInSharedBuckets(), 4U);
    EXPECT_EQ(qd->GetUsedBuckets(), 10U) << "buckets 1-9, 0, 1 and 2";
    // An unlisted source counts as its own value: 10.0.0.200 = 167772360.
    EXPECT_EQ(qd->GetBucket(FromHost(200, 100)),
              static_cast<uint32_t>(Ns2SourceHashPacketFilter::Ns2Hash(167772360, false)) % 10);
    qd->Dispose();

    // mask_ 1: nodes 16 .. 31 are one flow (hash 15), node 32 another (hash 30 -> bucket 0).
    auto masked =
        MakeQueueDisc<DrrQueueDisc>({{"Buckets", "10"}},
                                    Ns2Filter("10.0.0.1=16; 10.0.0.2=31; 10.0.0.3=32", true));
    EXPECT_EQ(masked->GetBucket(FromHost(1, 100)), 5U);
    EXPECT_EQ(masked->GetBucket(FromHost(2, 100)), 5U);
    EXPECT_EQ(masked->GetBucket(FromHost(3, 100)), 0U);
    masked->Dispose();
}

TEST(Ns2SourceHashPacketFilterDeathTest, BadNodeAddressesAreNamed)
{
    EXPECT_DEATH(Ns2Filter("10.0.0.1=x"), "NodeAddresses: rule 1 .*expected a node 0..2147483647");
    EXPECT_DEATH(Ns2Filter("10.0.0.1=2147483648"), "expected a node 0..2147483647");
    EXPECT_DEATH(Ns2Filter("10.0.0.300=1"), "expected an IPv4 address a.b.c.d or an IPv6 address");
    EXPECT_DEATH(Ns2Filter("10.0.0.1=1; 10.0.0.1=2"), "rule 2 .*expected each address once");
    EXPECT_DEATH(Ns2Filter("10.0.0.1=1 10.0.0.2=2"), "one ADDRESS=NODE");
    EXPECT_DEATH(Ns2Filter("10.0.0.1"), "NodeAddresses: rule 1");
}

// Distinct flows in one bucket are counted once each; a bucket of one flow is not shared; flows
// of different weights in one bucket print one warning, naming the bucket and the weights; the
// buckets used are those that held a flow's packet.
TEST(PerFlowSharedBuckets, CountsDistinctFlowsAndWarnsOnceOnMixedWeights)
{
    auto qd = MakeQueueDisc<DrrQueueDisc>(
        {{"Buckets", "1"}, {"WeightRules", "src=10.0.0.2 weight=2"}, {"MaxSize", "100p"}});
    testing::internal::CaptureStderr();
    for (int round = 0; round < 3; ++round)
    {
        for (uint32_t host : {1U, 2U, 3U})
        {
            qd->Enqueue(FromHost(host, 100));
        }
    }
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(qd->GetSharedBuckets(), 1U);
    EXPECT_EQ(qd->GetFlowsInSharedBuckets(), 3U);
    EXPECT_NE(err.find("DrrQueueDisc: flows of different weights share bucket 0 of 1 (weights 1 "
                       "and 2, the latter 10.0.0.2"),
              std::string::npos)
        << err;
    EXPECT_EQ(err.find("warning:", 1), std::string::npos) << "warned once: " << err;
    qd->Dispose();

    // Equal weights: counted, not warned; one flow per bucket: nothing.
    auto equal = MakeQueueDisc<DrrQueueDisc>({{"Buckets", "1"}});
    testing::internal::CaptureStderr();
    equal->Enqueue(FromHost(1, 100));
    equal->Enqueue(FromHost(2, 100));
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    EXPECT_EQ(equal->GetSharedBuckets(), 1U);
    equal->Dispose();
    auto apart = MakeQueueDisc<DrrQueueDisc>({{"Buckets", "64"}});
    for (uint32_t host = 1; host <= 3; ++host)
    {
        apart->Enqueue(FromHost(host, 100));
        apart->Enqueue(FromHost(host, 100));
    }
    EXPECT_EQ(apart->GetSharedBuckets(), 0U);
    EXPECT_EQ(apart->GetFlowsInSharedBuckets(), 0U);
    EXPECT_EQ(apart->GetUsedBuckets(), 3U);
    apart->Enqueue(Create<NonIpItem>(100));
    EXPECT_EQ(apart->GetUsedBuckets(), 3U) << "the non-IP bucket is not counted";
    apart->Dispose();
}

// ns-2.35's rio.cc runs the estimators on IN arrivals only: five OUT packets leave both averages
// at 0, and the IN packet after them averages the queue it finds (5 packets). Clark and Fang's
// RIO (the default) averages on every arrival.
TEST(RioNs2Averaging, AveragesMoveOnInArrivalsOnly)
{
    const double w = 0.002;
    for (const bool ns2 : {true, false})
    {
        auto rio = MakeQueueDisc<RioQueueDisc>(
            {{"Ns2Averaging", ns2 ? "true" : "false"}, {"QueueWeight", "0.002"}});
        double total = 0;
        for (uint32_t i = 0; i < 5; ++i)
        {
            ASSERT_TRUE(rio->Enqueue(FromHost(1, 500)));
            total = ns2 ? 0 : (1 - w) * total + w * i;
            EXPECT_DOUBLE_EQ(rio->GetAverage(2), total) << "OUT arrival " << i;
            EXPECT_EQ(rio->GetAverage(1), 0.0);
        }
        ASSERT_TRUE(rio->Enqueue(
            Ipv4UdpPacket("10.0.0.1", "10.9.0.1", 1000, 80, 500, Ipv4Header::DSCP_AF11)));
        EXPECT_DOUBLE_EQ(rio->GetAverage(2), (1 - w) * total + w * 5) << "ns2 " << ns2;
        EXPECT_EQ(rio->GetAverage(1), 0.0) << "no IN packet was queued before";
        rio->Dispose();
    }
}

TEST(RioNs2AveragingDeathTest, NeedsTwoCoupledPrecedences)
{
    EXPECT_DEATH(MakeQueueDisc<RioQueueDisc>({{"Ns2Averaging", "true"}, {"Precedences", "3"}}),
                 "Ns2Averaging needs Precedences 2 and Coupled averaging \\(ns-2.35's rio.cc\\), "
                 "not Precedences 3 and Coupled");
    EXPECT_DEATH(MakeQueueDisc<RioQueueDisc>({{"Ns2Averaging", "true"}, {"Averaging", "Wred"}}),
                 "not Precedences 2 and Wred");
}
