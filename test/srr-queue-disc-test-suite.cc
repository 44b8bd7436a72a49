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

using qdisclab::test::Ipv4UdpPacket;
using qdisclab::test::Ipv6UdpPacket;
using qdisclab::test::NonIpItem;

/**
 * \param attributes name/value pairs
 * \return an initialized SrrQueueDisc
 */
Ptr<SrrQueueDisc>
Make(const std::vector<std::pair<std::string, std::string>>& attributes)
{
    return qdisclab::test::MakeQueueDisc<SrrQueueDisc>(attributes);
}

/**
 * \param host the last byte of a 10.0.0.x source address
 * \param size total size
 * \return an IPv4/UDP packet of exactly \p size bytes from that host
 */
Ptr<QueueDiscItem>
From(uint32_t host, uint32_t size)
{
    const std::string src = "10.0.0." + std::to_string(host);
    return Ipv4UdpPacket(src.c_str(), "10.9.0.1", 1000, 80, size);
}

/**
 * \param qd a queue disc
 * \param buckets the bucket of each host, by host
 * \return the hosts of the packets it dequeues until empty
 */
std::vector<uint32_t>
DrainHosts(Ptr<SrrQueueDisc> qd, const std::vector<uint32_t>& buckets)
{
    std::vector<uint32_t> hosts;
    while (Ptr<QueueDiscItem> item = qd->Dequeue())
    {
        const uint32_t bucket = qd->GetBucket(item);
        uint32_t host = 0;
        while (host < buckets.size() && buckets[host] != bucket)
        {
            ++host;
        }
        hosts.push_back(host);
    }
    return hosts;
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
            buckets[host] = qd->GetBucket(From(host, 100));
        }
        for (uint32_t host = 1; host <= 5; ++host)
        {
            for (int i = 0; i < 5; ++i)
            {
                qd->Enqueue(From(host, 1000));
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
        const uint32_t b1 = mixed->GetBucket(From(1, 100));
        const uint32_t b2 = mixed->GetBucket(v6);
        for (int i = 0; i < 5; ++i)
        {
            mixed->Enqueue(From(1, 1000));
            mixed->Enqueue(Ipv6UdpPacket("2001:db8::1", "2001:dead::1", 1, 80, 1000));
            mixed->Enqueue(From(3, 1000));
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
 * Buffer stealing, from the head and the tail: with weights, the longest bytes / weight loses a
 * packet, counted under OVERLIMIT_DROP and in its bucket's counters; the arrival is admitted.
 */
class SrrStealingTestCase : public TestCase
{
  public:
    SrrStealingTestCase()
        : TestCase("buffer stealing takes the longest bytes over weight, counted per reason")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string dropFrom : {"Head", "Tail"})
        {
            auto qd = Make({{"MaxSize", "5500B"},
                            {"Buckets", "1024"},
                            {"DropFrom", dropFrom},
                            {"WeightRules", "src=10.0.0.2 weight=2; src=2001:db8::/32 weight=3"}});
            std::vector<Ptr<QueueDiscItem>> a;
            for (int i = 0; i < 2; ++i)
            {
                a.push_back(From(1, 1000));
                qd->Enqueue(a.back()); // A: 2000 B / 1
            }
            qd->Enqueue(From(2, 1500));
            qd->Enqueue(From(2, 1500)); // B: 3000 B / 2 = 1500
            Ptr<QueueDiscItem> v6 = Ipv6UdpPacket("2001:db8::1", "2001:dead::1", 1, 80, 600);
            NS_TEST_ASSERT_MSG_EQ(qd->Enqueue(v6), true, "the arrival is admitted");
            const uint32_t fa = qd->GetBucket(a[0]);
            const uint32_t fb = qd->GetBucket(From(2, 100));
            const QueueDisc::Stats& stats = qd->GetStats();
            NS_TEST_ASSERT_MSG_EQ(stats.GetNDroppedPackets(SrrQueueDisc::OVERLIMIT_DROP),
                                  1,
                                  dropFrom << ": one packet stolen");
            NS_TEST_ASSERT_MSG_EQ(stats.nTotalDroppedPackets, 1, "no other drop");
            NS_TEST_ASSERT_MSG_EQ(qd->GetFlowStats(fa).droppedPackets,
                                  1,
                                  "A (2000) beats B (1500)");
            NS_TEST_ASSERT_MSG_EQ(qd->GetFlowStats(fa).droppedBytes, 1000, "one of A's packets");
            NS_TEST_ASSERT_MSG_EQ(qd->GetFlowStats(fb).droppedPackets, 0, "B keeps its packets");
            NS_TEST_ASSERT_MSG_EQ(qd->GetNBytes(), 4600, "back under the limit");
            const Ptr<QueueDiscItem> lost = dropFrom == "Head" ? a[0] : a[1];
            bool lostSent = false;
            uint32_t sent = 0;
            while (Ptr<QueueDiscItem> item = qd->Dequeue())
            {
                lostSent |= item->GetPacket()->GetUid() == lost->GetPacket()->GetUid();
                ++sent;
            }
            NS_TEST_ASSERT_MSG_EQ(lostSent, false, dropFrom << ": that end's packet was dropped");
            NS_TEST_ASSERT_MSG_EQ(sent, 4, "the other four are sent");
            qd->Dispose();
        }
    }
};

/**
 * \ingroup qdisc-lab-tests
 * Random traffic (IPv4, IPv6, non-IP; buckets shared by colliding flows; bursts that fill the
 * buffer): per-bucket counters and traces agree with what was sent, received and dropped.
 */
class SrrFlowCountersTestCase : public TestCase
{
  public:
    SrrFlowCountersTestCase()
        : TestCase("per-bucket counters and traces agree with the traffic")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::vector<std::pair<std::string, std::string>>> configs = {
            {{"MaxSize", "12000B"}, {"Buckets", "16"}},
            {{"MaxSize", "20p"}, {"Buckets", "5"}, {"Quantum", "300"}, {"DropFrom", "Tail"}},
            {{"MaxSize", "9000B"}, {"Buckets", "64"}, {"WeightRules", "src=10.0.0.7 weight=3"}},
        };
        uint32_t seed = 0;
        for (const auto& config : configs)
        {
            auto qd = Make(config);
            const std::string error = qdisclab::test::CheckFlowCountersOnRandomTraffic(qd, ++seed);
            NS_TEST_ASSERT_MSG_EQ(error, "", "config " << seed << ": " << error);
            qd->Dispose();
        }
    }
};

/**
 * \ingroup qdisc-lab-tests
 * Non-IP packets have their own bucket, number Buckets, and are served like any flow.
 */
class SrrNonIpTestCase : public TestCase
{
  public:
    SrrNonIpTestCase()
        : TestCase("non-IP packets: the extra bucket")
    {
    }

  private:
    void DoRun() override
    {
        auto qd = Make({{"Buckets", "8"}});
        Ptr<QueueDiscItem> arp = Create<NonIpItem>(60);
        NS_TEST_ASSERT_MSG_EQ(qd->GetBucket(arp), 8, "non-IP bucket");
        qd->Enqueue(arp);
        NS_TEST_ASSERT_MSG_EQ(qd->Dequeue()->GetPacket()->GetUid(),
                              arp->GetPacket()->GetUid(),
                              "non-IP sent");
        NS_TEST_ASSERT_MSG_EQ(qd->GetFlowStats(8).sentPackets, 1, "counted in its bucket");
        qd->Dispose();
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
        AddTestCase(new SrrStealingTestCase());
        AddTestCase(new SrrFlowCountersTestCase());
        AddTestCase(new SrrNonIpTestCase());
    }
};

/// Registers the suite.
static SrrQueueDiscTestSuite g_srrQueueDiscTestSuite;
