/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qdisc-lab-test-packets.h"

#include "ns3/packet.h"
#include "ns3/test.h"
#include "ns3/wf2q-plus-queue-disc.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

using qdisclab::test::FromHost;
using qdisclab::test::Ipv6UdpPacket;

/**
 * \param attributes name/value pairs
 * \return an initialized Wf2qPlusQueueDisc
 */
Ptr<Wf2qPlusQueueDisc>
Make(const std::vector<std::pair<std::string, std::string>>& attributes)
{
    return qdisclab::test::MakeQueueDisc<Wf2qPlusQueueDisc>(attributes);
}

} // namespace

/**
 * \ingroup qdisc-lab-tests
 * Bennett and Zhang's WF²Q example (INFOCOM 1996, Fig. 1) with real packets: flow 0 (an IPv6
 * source, weight 10 of TotalWeight 20) has 11 packets, flows 1 .. 10 (IPv4 hosts, weight 1) one
 * each, all of one size, queued at once. WF²Q+ sends flow 0's packet k only once the virtual
 * time reaches its start tag 2(k-1) packet times, so flow 0 alternates with the others, which tie
 * and go in bucket order: 0, a, 0, b, ..., 0, j, 0 (WFQ would send flow 0's first ten back to
 * back). Then equal weights and sizes (TotalWeight 3, three flows): round robin.
 */
class Wf2qPlusOrderTestCase : public TestCase
{
  public:
    Wf2qPlusOrderTestCase()
        : TestCase("WF2Q+ interleaves where WFQ sends a burst; IPv4 and IPv6")
    {
    }

  private:
    void DoRun() override
    {
        auto qd = Make({{"Buckets", "1024"},
                        {"TotalWeight", "20"},
                        {"MaxSize", "100000B"},
                        {"WeightRules", "src=2001:db8::/32 weight=10"}});
        const auto v6 = []() { return Ipv6UdpPacket("2001:db8::1", "2001:dead::1", 1, 80, 1000); };
        std::vector<uint32_t> buckets{qd->GetBucket(v6())};
        for (uint32_t host = 1; host <= 10; ++host)
        {
            buckets.push_back(qd->GetBucket(FromHost(host, 100)));
        }
        std::vector<uint32_t> distinct = buckets;
        std::sort(distinct.begin(), distinct.end());
        const bool apart = std::unique(distinct.begin(), distinct.end()) == distinct.end();
        NS_TEST_ASSERT_MSG_EQ(apart, true, "11 flows in 11 buckets");
        for (int k = 0; k < 11; ++k)
        {
            qd->Enqueue(v6());
        }
        for (uint32_t host = 1; host <= 10; ++host)
        {
            qd->Enqueue(FromHost(host, 1000)); // sizes are whole IP packets, as the IPv6 ones
        }
        std::vector<uint32_t> order;
        while (Ptr<QueueDiscItem> item = qd->Dequeue())
        {
            const uint32_t bucket = qd->GetBucket(item);
            order.push_back(std::find(buckets.begin(), buckets.end(), bucket) - buckets.begin());
        }
        // Flows 1 .. 10 tie on their tags: the smaller bucket goes first.
        std::vector<uint32_t> light{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        std::sort(light.begin(), light.end(), [&buckets](uint32_t a, uint32_t b) {
            return buckets[a] < buckets[b];
        });
        std::vector<uint32_t> expected;
        for (uint32_t f : light)
        {
            expected.push_back(0);
            expected.push_back(f);
        }
        expected.push_back(0);
        std::string got;
        for (uint32_t f : order)
        {
            got += std::to_string(f) + " ";
        }
        NS_TEST_ASSERT_MSG_EQ((order == expected), true, "0 a 0 b ... 0 j 0, got " << got);
        NS_TEST_ASSERT_MSG_GT(qd->GetVirtualTime(), 0, "the virtual time moved");
        qd->Dispose();

        auto rr = Make({{"Buckets", "1024"}, {"TotalWeight", "3"}, {"MaxSize", "100000B"}});
        std::vector<uint32_t> rrBuckets;
        for (uint32_t host = 1; host <= 3; ++host)
        {
            rrBuckets.push_back(rr->GetBucket(FromHost(host, 100)));
        }
        for (int i = 0; i < 4; ++i)
        {
            for (uint32_t host : {3U, 1U, 2U})
            {
                rr->Enqueue(FromHost(host, 500));
            }
        }
        std::vector<uint32_t> rrOrder;
        while (Ptr<QueueDiscItem> item = rr->Dequeue())
        {
            rrOrder.push_back(rr->GetBucket(item));
        }
        NS_TEST_ASSERT_MSG_EQ(rrOrder.size(), 12, "every packet sent");
        for (std::size_t i = 3; i < rrOrder.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(rrOrder[i], rrOrder[i - 3], "round robin, packet " << i);
        }
        rr->Dispose();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * The Wf2qPlusQueueDisc test suite.
 */
class Wf2qPlusQueueDiscTestSuite : public TestSuite
{
  public:
    Wf2qPlusQueueDiscTestSuite()
        : TestSuite("qdisc-lab-wf2q-plus-queue-disc")
    {
        AddTestCase(new Wf2qPlusOrderTestCase());
        AddTestCase(new qdisclab::test::WeightedStealingTestCase<Wf2qPlusQueueDisc>());
        AddTestCase(new qdisclab::test::FlowCountersTestCase<Wf2qPlusQueueDisc>({
            {{"MaxSize", "12000B"}, {"Buckets", "16"}},
            {{"MaxSize", "20p"}, {"Buckets", "5"}, {"DropFrom", "Tail"}},
            {{"MaxSize", "9000B"}, {"Buckets", "64"}, {"WeightRules", "src=10.0.0.7 weight=3"}},
        }));
        AddTestCase(new qdisclab::test::NonIpBucketTestCase<Wf2qPlusQueueDisc>());
    }
};

/// Registers the suite.
static Wf2qPlusQueueDiscTestSuite g_wf2qPlusQueueDiscTestSuite;
