/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qdisc-lab-test-packets.h"

#include "ns3/packet.h"
#include "ns3/srr-queue-disc.h"
#include "ns3/test.h"

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
 * \return an initialized SrrQueueDisc
 */
Ptr<SrrQueueDisc>
Make(const std::vector<std::pair<std::string, std::string>>& attributes)
{
    return qdisclab::test::MakeQueueDisc<SrrQueueDisc>(attributes);
}

} // namespace

/**
 * \ingroup qdisc-lab-tests
 * Guo's example with real packets: weights 5, 2, 2, 3, 1 (hosts 1 .. 5, IPv4) and every packet
 * the quantum: WSS_3 = 1 2 1 3 1 2 1 serves 1 2 3 4 1 1 4 5 1 2 3 4 1. Then weights 5, 3, 1 with
 * the middle flow IPv6: 1 2 1 1 2 3 1 2 1.
 */
class SrrOrderTestCase : public TestCase
{
  public:
    SrrOrderTestCase()
        : TestCase("Weight Spread Sequence order of service, IPv4 and IPv6")
    {
    }

  private:
    void DoRun() override
    {
        auto qd = Make({{"Buckets", "1024"},
                        {"Quantum", "1000"},
                        {"MaxSize", "100000B"},
                        {"WeightRules",
                         "src=10.0.0.1 weight=5; src=10.0.0.2 weight=2; src=10.0.0.3 weight=2; "
                         "src=10.0.0.4 weight=3"}});
        std::vector<uint32_t> buckets(6);
        for (uint32_t host = 0; host < 6; ++host)
        {
            buckets[host] = qd->GetBucket(FromHost(host, 100));
        }
        for (uint32_t host = 1; host <= 5; ++host)
        {
            for (int i = 0; i < 5; ++i)
            {
                qd->Enqueue(FromHost(host, 1000));
            }
        }
        NS_TEST_ASSERT_MSG_EQ(qd->GetWeight(buckets[1]), 5, "weight 5 from the rules");
        NS_TEST_ASSERT_MSG_EQ(qd->GetWeight(buckets[5]), 1, "the default weight");
        std::vector<uint32_t> hosts;
        for (int i = 0; i < 13; ++i)
        {
            const uint32_t bucket = qd->GetBucket(qd->Dequeue());
            hosts.push_back(std::find(buckets.begin(), buckets.end(), bucket) - buckets.begin());
        }
        NS_TEST_ASSERT_MSG_EQ(
            (hosts == std::vector<uint32_t>{1, 2, 3, 4, 1, 1, 4, 5, 1, 2, 3, 4, 1}),
            true,
            "Guo's example");
        qd->Dispose();

        auto mixed = Make({{"Buckets", "1024"},
                           {"Quantum", "1000"},
                           {"MaxSize", "100000B"},
                           {"WeightRules", "src=10.0.0.1 weight=5; src=2001:db8::/32 weight=3"}});
        Ptr<QueueDiscItem> v6 = Ipv6UdpPacket("2001:db8::1", "2001:dead::1", 1, 80, 1000);
        const uint32_t b1 = mixed->GetBucket(FromHost(1, 100));
        const uint32_t b2 = mixed->GetBucket(v6);
        for (int i = 0; i < 5; ++i)
        {
            mixed->Enqueue(FromHost(1, 1000));
            mixed->Enqueue(Ipv6UdpPacket("2001:db8::1", "2001:dead::1", 1, 80, 1000));
            mixed->Enqueue(FromHost(3, 1000));
        }
        std::vector<uint32_t> order;
        for (int i = 0; i < 9; ++i)
        {
            const uint32_t bucket = mixed->GetBucket(mixed->Dequeue());
            order.push_back(bucket == b1 ? 1 : (bucket == b2 ? 2 : 3));
        }
        NS_TEST_ASSERT_MSG_EQ((order == std::vector<uint32_t>{1, 2, 1, 1, 2, 3, 1, 2, 1}),
                              true,
                              "weights 5, 3 (IPv6), 1");
        NS_TEST_ASSERT_MSG_GT(mixed->GetPosition(), 0, "the Position trace's value moved");
        mixed->Dispose();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * The SrrQueueDisc test suite.
 */
class SrrQueueDiscTestSuite : public TestSuite
{
  public:
    SrrQueueDiscTestSuite()
        : TestSuite("qdisc-lab-srr-queue-disc")
    {
        AddTestCase(new SrrOrderTestCase());
        AddTestCase(new qdisclab::test::WeightedStealingTestCase<SrrQueueDisc>());
        AddTestCase(new qdisclab::test::FlowCountersTestCase<SrrQueueDisc>({
            {{"MaxSize", "12000B"}, {"Buckets", "16"}},
            {{"MaxSize", "20p"}, {"Buckets", "5"}, {"Quantum", "300"}, {"DropFrom", "Tail"}},
            {{"MaxSize", "9000B"}, {"Buckets", "64"}, {"WeightRules", "src=10.0.0.7 weight=3"}},
        }));
        AddTestCase(new qdisclab::test::NonIpBucketTestCase<SrrQueueDisc>());
    }
};

/// Registers the suite.
static SrrQueueDiscTestSuite g_srrQueueDiscTestSuite;
