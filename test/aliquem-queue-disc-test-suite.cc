/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qdisc-lab-test-packets.h"

#include "ns3/aliquem-queue-disc.h"
#include "ns3/packet.h"
#include "ns3/test.h"

#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

using qdisclab::test::FromHost;

/**
 * \param attributes name/value pairs
 * \return an initialized AliquemQueueDisc
 */
Ptr<AliquemQueueDisc>
Make(const std::vector<std::pair<std::string, std::string>>& attributes)
{
    return qdisclab::test::MakeQueueDisc<AliquemQueueDisc>(attributes);
}

/**
 * \param qd a queue disc
 * \param buckets the bucket of each host, by host
 * \return the hosts of the packets it dequeues until empty
 */
std::vector<uint32_t>
DrainHosts(Ptr<AliquemQueueDisc> qd, const std::vector<uint32_t>& buckets)
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

/**
 * A Round sink.
 * \param rounds where to append
 * \param before the previous value
 * \param now the new value
 */
void
RecordRound(std::vector<uint64_t>* rounds, uint64_t before, uint64_t now)
{
    rounds->push_back(now);
}

} // namespace

/**
 * \ingroup qdisc-lab-tests
 * The scheduler unit test's hand-worked example with real packets: ScalingFactor 2, Quantum
 * 1000 (phi = 500); host 4 sends 500, 500, 500, then host 1 sends 1000, 100. Host 1 needs two
 * rounds, host 4 one: order 4 1 4 1 4 (DRR would send 4 4 1 4 1), with the deficits and rounds.
 * Then ScalingFactor 1 gives DRR's order.
 */
class AliquemOrderTestCase : public TestCase
{
  public:
    AliquemOrderTestCase()
        : TestCase("hand-worked example: exact order, deficits and rounds; q = 1 is DRR")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string q : {"2", "1"})
        {
            auto qd = Make({{"Buckets", "1024"}, {"Quantum", "1000"}, {"ScalingFactor", q}});
            std::vector<uint32_t> buckets(5);
            for (uint32_t host = 0; host < 5; ++host)
            {
                buckets[host] = qd->GetBucket(FromHost(host, 100));
            }
            for (int i = 0; i < 3; ++i)
            {
                qd->Enqueue(FromHost(4, 500));
            }
            qd->Enqueue(FromHost(1, 1000));
            qd->Enqueue(FromHost(1, 100));
            if (q == "2")
            {
                NS_TEST_ASSERT_MSG_EQ(qd->GetDeficit(buckets[1]), 1000, "two quanta of 500");
                NS_TEST_ASSERT_MSG_EQ(qd->GetRoundsAhead(buckets[1]), 2, "two rounds ahead");
                NS_TEST_ASSERT_MSG_EQ(qd->GetRoundsAhead(buckets[4]), 1, "one round ahead");
                std::vector<uint64_t> rounds;
                qd->TraceConnectWithoutContext("Round", MakeBoundCallback(&RecordRound, &rounds));
                const std::vector<uint32_t> hosts = DrainHosts(qd, buckets);
                NS_TEST_ASSERT_MSG_EQ((hosts == std::vector<uint32_t>{4, 1, 4, 1, 4}),
                                      true,
                                      "Aliquem's order");
                NS_TEST_ASSERT_MSG_EQ((rounds == std::vector<uint64_t>{1, 2, 3}),
                                      true,
                                      "three rounds");
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ(
                    (DrainHosts(qd, buckets) == std::vector<uint32_t>{4, 4, 1, 4, 1}),
                    true,
                    "q = 1: DRR's order");
            }
            NS_TEST_ASSERT_MSG_EQ(qd->GetCutSchedules(), 0, "phi covers 1000 B in q rounds");
            qd->Dispose();
        }
    }
};

/**
 * \ingroup qdisc-lab-tests
 * The AliquemQueueDisc test suite.
 */
class AliquemQueueDiscTestSuite : public TestSuite
{
  public:
    AliquemQueueDiscTestSuite()
        : TestSuite("qdisc-lab-aliquem-queue-disc")
    {
        AddTestCase(new AliquemOrderTestCase());
        AddTestCase(new qdisclab::test::WeightedStealingTestCase<AliquemQueueDisc>());
        AddTestCase(new qdisclab::test::FlowCountersTestCase<AliquemQueueDisc>({
            {{"MaxSize", "12000B"}, {"Buckets", "16"}},
            {{"MaxSize", "20p"}, {"Buckets", "5"}, {"Quantum", "300"}, {"DropFrom", "Tail"}},
            {{"MaxSize", "9000B"}, {"Buckets", "64"}, {"WeightRules", "src=10.0.0.7 weight=3"}},
        }));
        AddTestCase(new qdisclab::test::NonIpBucketTestCase<AliquemQueueDisc>());
    }
};

/// Registers the suite.
static AliquemQueueDiscTestSuite g_aliquemQueueDiscTestSuite;
