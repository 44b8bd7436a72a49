/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qdisc-lab-test-packets.h"

#include "ns3/drr-queue-disc.h"
#include "ns3/flow-identifier.h"
#include "ns3/hash.h"
#include "ns3/ipv4-header.h"
#include "ns3/packet-filter.h"
#include "ns3/packet.h"
#include "ns3/qdisc-lab-compat.h"
#include "ns3/simulator.h"
#include "ns3/slot-queue.h"
#include "ns3/test.h"

#include <algorithm>
#include <cstring>
#include <vector>

using namespace ns3;

namespace
{

using qdisclab::test::DrainUids;
using qdisclab::test::FromHost;
using qdisclab::test::Ipv4UdpPacket;
using qdisclab::test::Ipv6UdpPacket;
using qdisclab::test::NonIpItem;
using qdisclab::test::RecordSojourn;
using qdisclab::test::Uid;

/**
 * \param attributes name/value pairs
 * \param filter a packet filter to add (none if null)
 * \return an initialized DrrQueueDisc
 */
Ptr<DrrQueueDisc>
MakeDrr(const qdisclab::test::Attributes& attributes, Ptr<PacketFilter> filter = nullptr)
{
    return qdisclab::test::MakeQueueDisc<DrrQueueDisc>(attributes, filter);
}

} // namespace

/**
 * \ingroup qdisc-lab-tests
 * The hand-worked example of the scheduler's unit test, with real packets: three flows,
 * quantum 500, sizes A = 200, 750, 100; B = 500, 500; C = 1000. Order A B A B C A, and the
 * deficits after each packet.
 */
class DrrHandWorkedOrderTestCase : public TestCase
{
  public:
    DrrHandWorkedOrderTestCase()
        : TestCase("hand-worked example: exact order and deficits")
    {
    }

  private:
    void DoRun() override
    {
        auto qd = MakeDrr({{"Quantum", "500"}, {"Buckets", "1024"}, {"MaxSize", "100000B"}});
        std::vector<Ptr<QueueDiscItem>> a = {Ipv4UdpPacket("10.0.0.1", "10.9.0.1", 1, 9, 200),
                                             Ipv4UdpPacket("10.0.0.1", "10.9.0.1", 1, 9, 750),
                                             Ipv4UdpPacket("10.0.0.1", "10.9.0.1", 1, 9, 100)};
        std::vector<Ptr<QueueDiscItem>> b = {Ipv4UdpPacket("10.0.0.2", "10.9.0.1", 1, 9, 500),
                                             Ipv4UdpPacket("10.0.0.2", "10.9.0.1", 1, 9, 500)};
        std::vector<Ptr<QueueDiscItem>> c = {Ipv4UdpPacket("10.0.0.3", "10.9.0.1", 1, 9, 1000)};
        const uint32_t fa = qd->GetBucket(a[0]);
        const uint32_t fb = qd->GetBucket(b[0]);
        const uint32_t fc = qd->GetBucket(c[0]);
        NS_TEST_ASSERT_MSG_EQ((fa != fb && fb != fc && fa != fc), true, "three buckets");
        for (const auto& items : {a, b, c})
        {
            for (const auto& item : items)
            {
                NS_TEST_ASSERT_MSG_EQ(qd->Enqueue(item), true, "enqueued");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(qd->GetActiveFlows(), 3, "three active flows");
        NS_TEST_ASSERT_MSG_EQ(qd->GetNBytes(), 3050, "backlog");

        const std::vector<Ptr<QueueDiscItem>> order = {a[0], b[0], a[1], b[1], c[0], a[2]};
        const std::vector<uint32_t> flows = {fa, fb, fa, fb, fc, fa};
        const std::vector<uint64_t> deficits = {300, 0, 50, 0, 0, 0};
        for (std::size_t i = 0; i < order.size(); ++i)
        {
            Ptr<QueueDiscItem> item = qd->Dequeue();
            NS_TEST_ASSERT_MSG_EQ(item->GetPacket()->GetUid(),
                                  order[i]->GetPacket()->GetUid(),
                                  "packet " << i);
            NS_TEST_ASSERT_MSG_EQ(qd->GetDeficit(flows[i]), deficits[i], "deficit after " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(qd->Dequeue(), nullptr, "empty");
        NS_TEST_ASSERT_MSG_EQ(qd->GetFlowStats(fa).sentPackets, 3, "A's counters");
        NS_TEST_ASSERT_MSG_EQ(qd->GetFlowStats(fa).sentBytes, 1050, "A's counters");
        NS_TEST_ASSERT_MSG_EQ(qd->GetStats().nTotalDroppedPackets, 0, "no drops");
        qd->Dispose();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * The shared buffer is full: the longest flow loses its head (or tail) packet, counted under
 * OVERLIMIT_DROP, and the newcomer is admitted.
 */
class DrrStealingTestCase : public TestCase
{
  public:
    DrrStealingTestCase()
        : TestCase("buffer stealing hits the longest flow, head or tail, and admits a newcomer")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string dropFrom : {"Head", "Tail"})
        {
            auto qd = MakeDrr({{"MaxSize", "5000B"}, {"Buckets", "1024"}, {"DropFrom", dropFrom}});
            std::vector<Ptr<QueueDiscItem>> a;
            for (int i = 0; i < 3; ++i)
            {
                a.push_back(Ipv4UdpPacket("10.0.0.1", "10.9.0.1", 1, 9, 1000));
                qd->Enqueue(a.back());
            }
            qd->Enqueue(Ipv4UdpPacket("10.0.0.2", "10.9.0.1", 1, 9, 1000));
            Ptr<QueueDiscItem> newcomer = Ipv4UdpPacket("10.0.0.3", "10.9.0.1", 1, 9, 1500);
            NS_TEST_ASSERT_MSG_EQ(qd->Enqueue(newcomer), true, "the newcomer is admitted");
            const uint32_t fa = qd->GetBucket(a[0]);
            const uint32_t fc = qd->GetBucket(newcomer);
            const QueueDisc::Stats& stats = qd->GetStats();
            NS_TEST_ASSERT_MSG_EQ(stats.GetNDroppedPackets(DrrQueueDisc::OVERLIMIT_DROP),
                                  1,
                                  dropFrom << ": one packet stolen");
            NS_TEST_ASSERT_MSG_EQ(qd->GetFlowStats(fa).droppedPackets, 1, "from the longest");
            NS_TEST_ASSERT_MSG_EQ(qd->GetFlowStats(fc).enqueuedPackets, 1, "newcomer queued");
            NS_TEST_ASSERT_MSG_EQ(qd->GetNBytes(), 4500, "back under the limit");
            const std::vector<uint64_t> uids = DrainUids(qd);
            const uint64_t lost = (dropFrom == "Head" ? a[0] : a[2])->GetPacket()->GetUid();
            NS_TEST_ASSERT_MSG_EQ(std::count(uids.begin(), uids.end(), lost),
                                  0,
                                  dropFrom << ": the " << dropFrom << " packet was dropped");
            NS_TEST_ASSERT_MSG_EQ(uids.size(), 4, "the other four are sent");
            qd->Dispose();
        }
    }
};

/**
 * \ingroup qdisc-lab-tests
 * With weights, stealing compares bytes / weight; the weight rule sets the quantum too.
 */
class DrrWeightedStealingTestCase : public TestCase
{
  public:
    DrrWeightedStealingTestCase()
        : TestCase("weighted: stealing takes the longest bytes over weight; quantum x weight")
    {
    }

  private:
    void DoRun() override
    {
        auto qd = MakeDrr({{"MaxSize", "5500B"},
                           {"Buckets", "1024"},
                           {"Quantum", "1000"},
                           {"WeightRules", "dport=7000 weight=2; dscp=AF11 weight=3"}});
        Ptr<QueueDiscItem> a1 = Ipv4UdpPacket("10.0.0.1", "10.9.0.1", 1, 9, 1000);
        Ptr<QueueDiscItem> b1 = Ipv4UdpPacket("10.0.0.2", "10.9.0.1", 1, 7000, 1500);
        qd->Enqueue(a1);
        qd->Enqueue(Ipv4UdpPacket("10.0.0.1", "10.9.0.1", 1, 9, 1000)); // A: 2000 B / 1
        qd->Enqueue(b1);
        qd->Enqueue(Ipv4UdpPacket("10.0.0.2", "10.9.0.1", 1, 7000, 1500)); // B: 3000 B / 2
        const uint32_t fa = qd->GetBucket(a1);
        const uint32_t fb = qd->GetBucket(b1);
        NS_TEST_ASSERT_MSG_EQ(qd->GetDeficit(fb), 2000, "B's quantum is 2 x 1000");
        NS_TEST_ASSERT_MSG_EQ(qd->GetDeficit(fa), 1000, "A's quantum is 1000");
        Ptr<QueueDiscItem> af =
            Ipv4UdpPacket("10.0.0.5", "10.9.0.1", 1, 9, 600, Ipv4Header::DSCP_AF11);
        qd->Enqueue(af); // 5600 B > 5500 B
        NS_TEST_ASSERT_MSG_EQ(qd->GetFlowStats(fa).droppedPackets, 1, "A (2000) beats B (1500)");
        NS_TEST_ASSERT_MSG_EQ(qd->GetFlowStats(fb).droppedPackets, 0, "B keeps its packets");
        NS_TEST_ASSERT_MSG_EQ(qd->GetDeficit(qd->GetBucket(af)), 3000, "DSCP AF11 weight 3");
        qd->Dispose();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * Mask: FiveTuple separates flows that differ only in ports; AddressPair merges them. One
 * bucket for many flows: collisions make it a FIFO. IPv6 packets are hashed and weighted;
 * non-IP packets go to their own bucket; installed packet filters win over hashing.
 */
class DrrClassificationTestCase : public TestCase
{
  public:
    DrrClassificationTestCase()
        : TestCase("classification: masks, collisions, IPv6, non-IP, packet filters")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<QueueDiscItem> p1 = Ipv4UdpPacket("10.0.0.1", "10.9.0.1", 1000, 80, 100);
        Ptr<QueueDiscItem> p2 = Ipv4UdpPacket("10.0.0.1", "10.9.0.1", 1001, 80, 100);
        auto five = MakeDrr({{"Buckets", "1024"}, {"Mask", "FiveTuple"}});
        auto pair = MakeDrr({{"Buckets", "1024"}, {"Mask", "AddressPair"}});
        NS_TEST_ASSERT_MSG_NE(five->GetBucket(p1), five->GetBucket(p2), "ports separate");
        NS_TEST_ASSERT_MSG_EQ(pair->GetBucket(p1), pair->GetBucket(p2), "ports ignored");
        auto perturbed = MakeDrr({{"Buckets", "1024"}, {"Perturbation", "7"}});
        NS_TEST_ASSERT_MSG_NE(perturbed->GetBucket(p1), five->GetBucket(p1), "perturbation");

        // Buckets = 1: every flow collides; the one queue is served in arrival order.
        auto one = MakeDrr({{"Buckets", "1"}, {"Quantum", "100"}, {"MaxSize", "100000B"}});
        std::vector<uint64_t> arrival;
        for (int i = 0; i < 6; ++i)
        {
            Ptr<QueueDiscItem> item = Ipv4UdpPacket("10.0.0.1", "10.9.0.1", 1000 + i % 3, 80, 100);
            arrival.push_back(item->GetPacket()->GetUid());
            one->Enqueue(item);
        }
        NS_TEST_ASSERT_MSG_EQ(one->GetActiveFlows(), 1, "one bucket");
        NS_TEST_ASSERT_MSG_EQ((DrainUids(one) == arrival), true, "FIFO under collisions");

        // IPv6: hashed by addresses and ports, weighted by prefix rules.
        auto v6 = MakeDrr({{"Buckets", "1024"},
                           {"Quantum", "1000"},
                           {"WeightRules", "src=2001:db8::/32 weight=4"}});
        Ptr<QueueDiscItem> x = Ipv6UdpPacket("2001:db8::1", "2001:dead::1", 1000, 80, 500);
        Ptr<QueueDiscItem> y = Ipv6UdpPacket("2001:db9::1", "2001:dead::1", 1000, 80, 500);
        NS_TEST_ASSERT_MSG_NE(v6->GetBucket(x), v6->GetBucket(y), "IPv6 sources separate");
        v6->Enqueue(x);
        v6->Enqueue(y);
        NS_TEST_ASSERT_MSG_EQ(v6->GetDeficit(v6->GetBucket(x)), 4000, "IPv6 prefix weight 4");
        NS_TEST_ASSERT_MSG_EQ(v6->GetDeficit(v6->GetBucket(y)), 1000, "default weight 1");
        NS_TEST_ASSERT_MSG_EQ(DrainUids(v6).size(), 2, "both sent");

        // Non-IP: the extra bucket, number Buckets.
        Ptr<QueueDiscItem> arp = Create<NonIpItem>(60);
        NS_TEST_ASSERT_MSG_EQ(v6->GetBucket(arp), 1024, "non-IP bucket");
        v6->Enqueue(arp);
        NS_TEST_ASSERT_MSG_EQ(v6->Dequeue()->GetPacket()->GetUid(),
                              arp->GetPacket()->GetUid(),
                              "non-IP sent");
        NS_TEST_ASSERT_MSG_EQ(v6->GetFlowStats(1024).sentPackets, 1, "counted in its bucket");

        // Packet filters first, as in FqCoDel; no match falls back to hashing.
        auto filtered =
            MakeDrr({{"Buckets", "16"}}, CreateObject<qdisclab::test::ClassThreeFilter>());
        NS_TEST_ASSERT_MSG_EQ(filtered->GetBucket(p1), 3, "filter's class");
        NS_TEST_ASSERT_MSG_EQ(
            filtered->GetBucket(x),
            FlowIdentifier::Hash(FlowIdentifier::Extract(x), FlowIdentifier::FIVE_TUPLE, 0) % 16,
            "no match: hash");
        for (auto qd : {five, pair, perturbed, one, v6, filtered})
        {
            qd->Dispose();
        }
    }
};

/**
 * \ingroup qdisc-lab-tests
 * SlotQueue keeps a queue's books as ns-3's Queue does (packets, bytes, totals received, the
 * Enqueue and Dequeue trace sources a queue disc's accounting listens to), gives each packet
 * back by its slot in any order, and reuses slots.
 */
class SlotQueueTestCase : public TestCase
{
  public:
    SlotQueueTestCase()
        : TestCase("SlotQueue: packets by slot, with Queue's counters and traces")
    {
    }

  private:
    void DoRun() override
    {
        auto queue = CreateObject<SlotQueue>();
        std::vector<uint64_t> enqueued;
        std::vector<uint64_t> dequeued;
        queue->TraceConnectWithoutContext("Enqueue",
                                          MakeBoundCallback(&SlotQueueTestCase::Record, &enqueued));
        queue->TraceConnectWithoutContext("Dequeue",
                                          MakeBoundCallback(&SlotQueueTestCase::Record, &dequeued));
        Ptr<QueueDiscItem> a = FromHost(1, 100);
        Ptr<QueueDiscItem> b = FromHost(2, 300);
        Ptr<QueueDiscItem> c = FromHost(3, 500);
        queue->Put(5, a, a->GetSize());
        queue->Put(0, b, b->GetSize());
        queue->Put(2, c, c->GetSize());
        NS_TEST_ASSERT_MSG_EQ(queue->GetNPackets(), 3, "three queued");
        NS_TEST_ASSERT_MSG_EQ(queue->GetNBytes(), 900, "their bytes");
        NS_TEST_ASSERT_MSG_EQ(queue->GetTotalReceivedPackets(), 3, "received");
        NS_TEST_ASSERT_MSG_EQ(queue->GetTotalReceivedBytes(), 900, "received bytes");
        NS_TEST_ASSERT_MSG_EQ((enqueued == std::vector<uint64_t>{Uid(a), Uid(b), Uid(c)}),
                              true,
                              "Enqueue fired per packet, in order");

        NS_TEST_ASSERT_MSG_EQ(queue->Take(2, 500), c, "slot 2's packet");
        NS_TEST_ASSERT_MSG_EQ(queue->Take(5, 100), a, "slot 5's packet");
        NS_TEST_ASSERT_MSG_EQ(queue->GetNPackets(), 1, "one left");
        NS_TEST_ASSERT_MSG_EQ(queue->GetNBytes(), 300, "its bytes");
        queue->Put(2, a, 100);
        NS_TEST_ASSERT_MSG_EQ(queue->Take(2, 100), a, "slot 2 reused");
        NS_TEST_ASSERT_MSG_EQ(queue->Take(0, 300), b, "slot 0's packet");
        NS_TEST_ASSERT_MSG_EQ(queue->IsEmpty(), true, "empty");
        NS_TEST_ASSERT_MSG_EQ(queue->GetNBytes(), 0, "no bytes");
        NS_TEST_ASSERT_MSG_EQ(queue->GetTotalReceivedPackets(), 4, "four puts");
        NS_TEST_ASSERT_MSG_EQ((dequeued == std::vector<uint64_t>{Uid(c), Uid(a), Uid(a), Uid(b)}),
                              true,
                              "Dequeue fired per take, in order");
        NS_TEST_ASSERT_MSG_EQ(a->GetReferenceCount(), 1, "the queue let a go");
        queue->Reset();
        queue->Dispose();
    }

    /**
     * \param uids where the packet's uid goes
     * \param item a packet a trace source reported
     */
    static void Record(std::vector<uint64_t>* uids, Ptr<const QueueDiscItem> item)
    {
        uids->push_back(Uid(item));
    }
};

/**
 * \ingroup qdisc-lab-tests
 * FlowIdentifier::Hash is ns-3's Hash32 (murmur3) of perturbation | src | dst [| srcPort |
 * dstPort | protocol], addresses 4 or 16 bytes: the bytes and the function that decide every
 * bucket, so that a faster path to the same hash keeps every result.
 */
class FlowHashTestCase : public TestCase
{
  public:
    FlowHashTestCase()
        : TestCase("FlowIdentifier::Hash is Hash32 of perturbation, addresses, ports, protocol")
    {
    }

  private:
    void DoRun() override
    {
        FlowKey v4;
        v4.isIp = true;
        v4.src = {10, 1, 1, 1};
        v4.dst = {10, 3, 1, 7};
        v4.srcPort = 49153;
        v4.dstPort = 5000;
        v4.protocol = 17;
        FlowKey v6 = v4;
        v6.isIpv6 = true;
        for (uint8_t i = 0; i < 16; ++i)
        {
            v6.src[i] = static_cast<uint8_t>(0x20 + i);
            v6.dst[i] = static_cast<uint8_t>(0xf0 - i);
        }
        for (const uint32_t perturbation : {0U, 7U, 0xdeadbeefU})
        {
            for (const FlowKey& key : {v4, v6})
            {
                for (const auto mask : {FlowIdentifier::FIVE_TUPLE, FlowIdentifier::ADDRESS_PAIR})
                {
                    char bytes[41];
                    const std::size_t address = key.isIpv6 ? 16 : 4;
                    std::memcpy(bytes, &perturbation, 4);
                    std::memcpy(bytes + 4, key.src.data(), address);
                    std::memcpy(bytes + 4 + address, key.dst.data(), address);
                    std::size_t n = 4 + 2 * address;
                    if (mask == FlowIdentifier::FIVE_TUPLE)
                    {
                        std::memcpy(bytes + n, &key.srcPort, 2);
                        std::memcpy(bytes + n + 2, &key.dstPort, 2);
                        bytes[n + 4] = static_cast<char>(key.protocol);
                        n += 5;
                    }
                    NS_TEST_ASSERT_MSG_EQ(FlowIdentifier::Hash(key, mask, perturbation),
                                          Hash32(bytes, n),
                                          key.ToString() << " mask " << mask << " perturbation "
                                                         << perturbation);
                }
            }
        }
        // Pinned: the value every release of the module has given this key.
        NS_TEST_ASSERT_MSG_EQ(FlowIdentifier::Hash(v4, FlowIdentifier::FIVE_TUPLE, 0),
                              PINNED_V4_HASH,
                              "10.1.1.1:49153 > 10.3.1.7:5000 UDP, perturbation 0");
    }

    /// Hash of the IPv4 key above (five-tuple, perturbation 0).
    static constexpr uint32_t PINNED_V4_HASH = 3316295895U;
};

/**
 * \ingroup qdisc-lab-tests
 * Packets larger than the quantum: a 1000-byte packet with quantum 100 waits ten rounds, while
 * a flow of 100-byte packets sends one per round.
 */
class DrrLargePacketTestCase : public TestCase
{
  public:
    DrrLargePacketTestCase()
        : TestCase("packets larger than the quantum wait ceil(size over quantum) rounds")
    {
    }

  private:
    void DoRun() override
    {
        auto qd = MakeDrr({{"Buckets", "1024"}, {"Quantum", "100"}, {"MaxSize", "100000B"}});
        Ptr<QueueDiscItem> big = Ipv4UdpPacket("10.0.0.1", "10.9.0.1", 1, 9, 1000);
        qd->Enqueue(big);
        for (int i = 0; i < 20; ++i)
        {
            qd->Enqueue(Ipv4UdpPacket("10.0.0.2", "10.9.0.1", 1, 9, 100));
        }
        std::size_t position = 0;
        for (std::size_t i = 0; i < 21; ++i)
        {
            if (qd->Dequeue()->GetPacket()->GetUid() == big->GetPacket()->GetUid())
            {
                position = i;
            }
        }
        // Rounds 1..9: only the small flow sends (9 packets); round 10: the big packet.
        NS_TEST_ASSERT_MSG_EQ(position, 9, "the big packet leaves in round 10");
        qd->Dispose();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * A stolen packet's SojournTime sample is the time it spent queued, also when the packet stolen
 * is the one arriving (QueueDisc stamps items only after DoEnqueue, so DRR must stamp it first):
 * five packets of A queued at 1 s, then at 5 s one more of A and one of B. Head drops steal two
 * of A's 1 s packets (4 s each); Tail drops steal the arrival itself (0 s), then A's last 1 s
 * packet (4 s).
 */
class DrrStolenSojournTestCase : public TestCase
{
  public:
    DrrStolenSojournTestCase()
        : TestCase("a stolen packet's sojourn time is the time it was queued, also the arrival's")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string dropFrom : {"Head", "Tail"})
        {
            auto qd = MakeDrr({{"MaxSize", "5000B"}, {"Buckets", "1024"}, {"DropFrom", dropFrom}});
            std::vector<Time> sojourns;
            qd->TraceConnectWithoutContext("SojournTime",
                                           MakeBoundCallback(&RecordSojourn, &sojourns));
            qdisclab::Schedule(Seconds(1), [qd]() {
                for (int i = 0; i < 5; ++i)
                {
                    qd->Enqueue(Ipv4UdpPacket("10.0.0.1", "10.9.0.1", 1, 9, 1000));
                }
            });
            qdisclab::Schedule(Seconds(5), [qd]() {
                qd->Enqueue(Ipv4UdpPacket("10.0.0.1", "10.9.0.1", 1, 9, 1000));
                qd->Enqueue(Ipv4UdpPacket("10.0.0.2", "10.9.0.1", 1, 9, 1000));
            });
            Simulator::Run();
            Simulator::Destroy();
            const std::vector<Time> expected = dropFrom == "Head"
                                                   ? std::vector<Time>{Seconds(4), Seconds(4)}
                                                   : std::vector<Time>{Seconds(0), Seconds(4)};
            NS_TEST_ASSERT_MSG_EQ(qd->GetStats().GetNDroppedPackets(DrrQueueDisc::OVERLIMIT_DROP),
                                  2,
                                  dropFrom << ": two packets stolen");
            NS_TEST_ASSERT_MSG_EQ(sojourns.size(), 2, dropFrom << ": one sample per steal");
            for (std::size_t i = 0; i < sojourns.size() && i < expected.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(sojourns[i], expected[i], dropFrom << ": sample " << i);
            }
            qd->Dispose();
        }
    }
};

/**
 * \ingroup qdisc-lab-tests
 * The DrrQueueDisc test suite.
 */
class DrrQueueDiscTestSuite : public TestSuite
{
  public:
    DrrQueueDiscTestSuite()
        : TestSuite("qdisc-lab-drr-queue-disc")
    {
        AddTestCase(new DrrHandWorkedOrderTestCase());
        AddTestCase(new DrrStealingTestCase());
        AddTestCase(new DrrWeightedStealingTestCase());
        AddTestCase(new DrrClassificationTestCase());
        AddTestCase(new FlowHashTestCase());
        AddTestCase(new SlotQueueTestCase());
        AddTestCase(new DrrLargePacketTestCase());
        // Per-bucket counters (GetFlowStats) and the FlowEnqueue, FlowDequeue and FlowDrop traces
        // agree with the packets the test gave and received, on random traffic with stealing
        // from head and tail, in bytes and in packets.
        AddTestCase(new qdisclab::test::FlowCountersTestCase<DrrQueueDisc>({
            {{"MaxSize", "12000B"}, {"Buckets", "16"}, {"Quantum", "1500"}},
            {{"MaxSize", "20p"}, {"Buckets", "5"}, {"Quantum", "300"}, {"DropFrom", "Tail"}},
            {{"MaxSize", "9000B"}, {"Buckets", "64"}, {"WeightRules", "src=10.0.0.7 weight=3"}},
            // VD's drop policy: the packet sent last, arrivals that would be it refused
            {{"MaxSize", "12000B"}, {"Buckets", "16"}, {"Quantum", "600"}, {"DropFrom", "Last"}},
            {{"MaxSize", "15p"},
             {"Buckets", "64"},
             {"DropFrom", "Last"},
             {"WeightRules", "src=10.0.0.7 weight=3"}},
        }));
        AddTestCase(new DrrStolenSojournTestCase());
    }
};

/// Registers the suite.
static DrrQueueDiscTestSuite g_drrQueueDiscTestSuite;
