/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qdisc-lab-test-packets.h"
#include "qdisc-lab-test-sockets.h"

#include "ns3/dumbbell-scenario.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/packet-filter.h"
#include "ns3/packet.h"
#include "ns3/qdisc-lab-compat.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/test.h"
#include "ns3/vertical-dimensioning-queue-disc.h"

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using qdisclab::test::DrainUids;
using qdisclab::test::NonIpItem;
using qdisclab::test::RecordSojourn;
using qdisclab::test::Uid;

/**
 * An IPv4/UDP packet of exactly \p size bytes (headers included), to 10.9.0.1 from port 1.
 * \param src source address
 * \param dport destination port
 * \param size total size
 * \param dscp DSCP
 * \return the item
 */
Ptr<QueueDiscItem>
Ipv4Packet(const char* src,
           uint16_t dport,
           uint32_t size,
           Ipv4Header::DscpType dscp = Ipv4Header::DscpDefault)
{
    return qdisclab::test::Ipv4UdpPacket(src, "10.9.0.1", 1, dport, size, dscp);
}

/**
 * \param src source address
 * \param size total size
 * \return an IPv6/UDP packet of exactly \p size bytes, to 2001:dead::1 port 80
 */
Ptr<QueueDiscItem>
Ipv6Packet(const char* src, uint32_t size)
{
    return qdisclab::test::Ipv6UdpPacket(src, "2001:dead::1", 1000, 80, size);
}

/**
 * \param attributes name/value pairs
 * \param filter a packet filter to add (none if null)
 * \return an initialized VerticalDimensioningQueueDisc
 */
Ptr<VerticalDimensioningQueueDisc>
MakeVd(const qdisclab::test::Attributes& attributes, Ptr<PacketFilter> filter = nullptr)
{
    return qdisclab::test::MakeQueueDisc<VerticalDimensioningQueueDisc>(attributes, filter);
}

/// What the trace sources reported.
struct Traces
{
    std::vector<uint64_t> placements;                   //!< round of each packet placed
    std::vector<uint64_t> currentRounds;                //!< CurrentRound's successive values
    std::vector<uint32_t> dropBuckets;                  //!< bucket of each packet dropped
    std::vector<std::pair<uint32_t, int64_t>> deficits; //!< bucket and deficit after each send

    /**
     * Connect to every trace source of \p qd.
     * \param qd the queue disc
     */
    void Connect(Ptr<VerticalDimensioningQueueDisc> qd)
    {
        qd->TraceConnectWithoutContext("Placement", MakeCallback(&Traces::Placement, this));
        qd->TraceConnectWithoutContext("CurrentRound", MakeCallback(&Traces::Current, this));
        qd->TraceConnectWithoutContext("FlowDrop", MakeCallback(&Traces::Drop, this));
        qd->TraceConnectWithoutContext("Deficit", MakeCallback(&Traces::Deficit, this));
    }

    /// Placement sink.
    void Placement(uint32_t, uint64_t round, Ptr<const QueueDiscItem>)
    {
        placements.push_back(round);
    }

    /// CurrentRound sink.
    void Current(uint64_t, uint64_t round)
    {
        currentRounds.push_back(round);
    }

    /// FlowDrop sink.
    void Drop(uint32_t bucket, Ptr<const QueueDiscItem>)
    {
        dropBuckets.push_back(bucket);
    }

    /// Deficit sink.
    void Deficit(uint32_t bucket, int64_t deficit)
    {
        deficits.emplace_back(bucket, deficit);
    }
};

} // namespace

/**
 * \ingroup qdisc-lab-tests
 * Fig. 2 by hand with real packets (L_M = 1000 B; A weight 1, B weight 2 by a port rule): the
 * round of every packet (Placement), the departure order (arrival order within a round), every
 * deficit_i after a send, and CurrentRound. The same sequence as gtest VdRounds.Figure2HandWorked.
 */
class VdFigure2TestCase : public TestCase
{
  public:
    VdFigure2TestCase()
        : TestCase("Fig. 2 by hand: rounds, order, deficits, current round")
    {
    }

  private:
    void DoRun() override
    {
        auto qd = MakeVd({{"MaxPacketSize", "1000"},
                          {"MaxSize", "20000B"},
                          {"WeightRules", "dport=7000 weight=2"}});
        Traces traces;
        traces.Connect(qd);
        auto a = [](uint32_t size) { return Ipv4Packet("10.0.0.1", 9, size); };
        auto b = [](uint32_t size) { return Ipv4Packet("10.0.0.2", 7000, size); };
        std::vector<Ptr<QueueDiscItem>> p =
            {nullptr, a(600), a(600), b(1000), b(900), b(800), a(300), a(200), b(500), a(1000)};
        const uint32_t fa = qd->GetBucket(p[1]);
        const uint32_t fb = qd->GetBucket(p[3]);
        NS_TEST_ASSERT_MSG_NE(fa, fb, "two flows");
        for (int k = 1; k <= 6; ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(qd->Enqueue(p[k]), true, "packet " << k);
        }
        NS_TEST_ASSERT_MSG_EQ(qd->GetQuantum(fb), 2000, "weight 2 x L_M");
        NS_TEST_ASSERT_MSG_EQ(Uid(qd->Dequeue()), Uid(p[1]), "A's first");
        NS_TEST_ASSERT_MSG_EQ(Uid(qd->Dequeue()), Uid(p[3]), "B's first");
        qd->Enqueue(p[7]);
        NS_TEST_ASSERT_MSG_EQ(Uid(qd->Dequeue()), Uid(p[4]), "B's second, last of round 0");
        NS_TEST_ASSERT_MSG_EQ(qd->GetCurrentRound(), 1, "round 1");
        qd->Enqueue(p[8]);
        qd->Enqueue(p[9]);
        NS_TEST_ASSERT_MSG_EQ(qd->GetDeficit(fa), 400, "A credited 1000 in round 1");
        NS_TEST_ASSERT_MSG_EQ(qd->GetDeficit(fb), 100, "B credited 2000 in round 1");
        NS_TEST_ASSERT_MSG_EQ(qd->GetLast(), 2, "last");
        const std::vector<int> rest = {2, 5, 6, 7, 8, 9};
        for (int k : rest)
        {
            NS_TEST_ASSERT_MSG_EQ(Uid(qd->Dequeue()), Uid(p[k]), "packet " << k);
        }
        NS_TEST_ASSERT_MSG_EQ(qd->Dequeue(), nullptr, "empty");

        NS_TEST_ASSERT_MSG_EQ(
            (traces.placements == std::vector<uint64_t>{0, 1, 0, 0, 1, 1, 1, 1, 2}),
            true,
            "Equation (3)'s rounds");
        const std::vector<std::pair<uint32_t, int64_t>> deficits = {{fa, -600},
                                                                    {fb, -1000},
                                                                    {fb, -1900},
                                                                    {fa, -200},
                                                                    {fb, -700},
                                                                    {fa, -500},
                                                                    {fa, -700},
                                                                    {fb, -1200},
                                                                    {fa, -700}};
        NS_TEST_ASSERT_MSG_EQ((traces.deficits == deficits), true, "deficit_i after each send");
        NS_TEST_ASSERT_MSG_EQ((traces.currentRounds == std::vector<uint64_t>{1, 2, 3}),
                              true,
                              "CurrentRound");
        NS_TEST_ASSERT_MSG_EQ(qd->GetActiveFlows(), 0, "all state freed");
        NS_TEST_ASSERT_MSG_EQ(qd->GetFlowStats(fa).sentBytes, 2700, "A's counters");
        NS_TEST_ASSERT_MSG_EQ(qd->GetFlowStats(fb).sentPackets, 4, "B's counters");
        NS_TEST_ASSERT_MSG_EQ(qd->GetStats().nTotalDroppedPackets, 0, "no drops");
        qd->Dispose();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * Overflow drops the tail of the last non-empty round: a queued packet (a drop after dequeue)
 * or the arrival itself when it would be that tail (a drop before enqueue), all counted under
 * OVERFLOW_DROP, per flow, and in FlowDrop.
 */
class VdOverflowTestCase : public TestCase
{
  public:
    VdOverflowTestCase()
        : TestCase("overflow drops the tail of the last non-empty round")
    {
    }

  private:
    void DoRun() override
    {
        auto qd = MakeVd({{"MaxPacketSize", "1000"}, {"MaxSize", "3000B"}});
        Traces traces;
        traces.Connect(qd);
        std::vector<Ptr<QueueDiscItem>> a;
        for (int k = 0; k < 3; ++k)
        {
            a.push_back(Ipv4Packet("10.0.0.1", 9, 1000)); // rounds 0, 1, 2
            qd->Enqueue(a.back());
        }
        NS_TEST_ASSERT_MSG_EQ(qd->GetLast(), 2, "last");
        Ptr<QueueDiscItem> two = Ipv4Packet("10.0.0.2", 9, 500);
        Ptr<QueueDiscItem> three = Ipv4Packet("10.0.0.3", 9, 600);
        Ptr<QueueDiscItem> four = Ipv4Packet("10.0.0.4", 9, 1000);
        NS_TEST_ASSERT_MSG_EQ(qd->Enqueue(two), true, "round 0; A's round-2 packet goes");
        NS_TEST_ASSERT_MSG_EQ(qd->GetLast(), 1, "last moved down");
        NS_TEST_ASSERT_MSG_EQ(qd->Enqueue(three), true, "round 0; A's round-1 packet goes");
        NS_TEST_ASSERT_MSG_EQ(qd->GetLast(), 0, "last moved down");
        NS_TEST_ASSERT_MSG_EQ(qd->Enqueue(four), false, "it would be round 0's tail: refused");

        const uint32_t fa = qd->GetBucket(a[0]);
        const uint32_t f4 = qd->GetBucket(four);
        const QueueDisc::Stats& stats = qd->GetStats();
        NS_TEST_ASSERT_MSG_EQ(
            stats.GetNDroppedPackets(VerticalDimensioningQueueDisc::OVERFLOW_DROP),
            3,
            "three overflow drops");
        NS_TEST_ASSERT_MSG_EQ(stats.nTotalDroppedPacketsAfterDequeue, 2, "two queued packets");
        NS_TEST_ASSERT_MSG_EQ(stats.nTotalDroppedPacketsBeforeEnqueue, 1, "one arrival");
        NS_TEST_ASSERT_MSG_EQ(qd->GetFlowStats(fa).droppedPackets, 2, "A lost two");
        NS_TEST_ASSERT_MSG_EQ(qd->GetFlowStats(f4).droppedPackets, 1, "the arrival's flow");
        NS_TEST_ASSERT_MSG_EQ(qd->GetFlowStats(f4).enqueuedPackets, 1, "arrivals are counted");
        NS_TEST_ASSERT_MSG_EQ(qd->GetActiveFlows(), 3, "flow 4 got no state");
        NS_TEST_ASSERT_MSG_EQ((traces.dropBuckets == std::vector<uint32_t>{fa, fa, f4}),
                              true,
                              "FlowDrop");
        NS_TEST_ASSERT_MSG_EQ(qd->GetNBytes(), 2100, "within MaxSize");
        NS_TEST_ASSERT_MSG_EQ(qd->GetNPackets(), 3, "QueueDisc's count");
        const std::vector<uint64_t> uids = DrainUids(qd);
        NS_TEST_ASSERT_MSG_EQ((uids == std::vector<uint64_t>{Uid(a[0]), Uid(two), Uid(three)}),
                              true,
                              "survivors, in arrival order");
        qd->Dispose();

        // MaxSize in packets: the same drops, by packet count.
        auto byCount = MakeVd({{"MaxPacketSize", "1000"}, {"MaxSize", "3p"}});
        NS_TEST_ASSERT_MSG_EQ(byCount->GetRounds(), 4, "3 packets of up to 1000 B");
        std::vector<Ptr<QueueDiscItem>> x;
        for (int k = 0; k < 3; ++k)
        {
            x.push_back(Ipv4Packet("10.0.0.1", 9, 1000)); // rounds 0, 1, 2
            byCount->Enqueue(x.back());
        }
        Ptr<QueueDiscItem> y1 = Ipv4Packet("10.0.0.2", 9, 100);
        Ptr<QueueDiscItem> y2 = Ipv4Packet("10.0.0.2", 9, 100);
        NS_TEST_ASSERT_MSG_EQ(byCount->Enqueue(y1), true, "round 0; x's round-2 packet goes");
        NS_TEST_ASSERT_MSG_EQ(byCount->Enqueue(y2), true, "round 0; x's round-1 packet goes");
        NS_TEST_ASSERT_MSG_EQ(byCount->Enqueue(Ipv4Packet("10.0.0.3", 9, 40)),
                              false,
                              "a fourth packet at round 0's tail");
        NS_TEST_ASSERT_MSG_EQ(
            byCount->GetStats().GetNDroppedPackets(VerticalDimensioningQueueDisc::OVERFLOW_DROP),
            3,
            "three overflow drops");
        NS_TEST_ASSERT_MSG_EQ(
            (DrainUids(byCount) == std::vector<uint64_t>{Uid(x[0]), Uid(y1), Uid(y2)}),
            true,
            "survivors");
        byCount->Dispose();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * The round count: B = 3000, L_M = 1000 gives M = 4 (the paper's ceil(B / L_M) = 3 would wrap:
 * this sequence places a packet 3 rounds ahead of current with no drop). Then current and last
 * wrap around the ring, and the order stays exact.
 */
class VdWrapAroundTestCase : public TestCase
{
  public:
    VdWrapAroundTestCase()
        : TestCase("M is ceil(B over L_M) + 1; current and last wrap around")
    {
    }

  private:
    void DoRun() override
    {
        auto qd = MakeVd({{"MaxPacketSize", "1000"}, {"MaxSize", "3000B"}});
        NS_TEST_ASSERT_MSG_EQ(qd->GetRounds(), 4, "ceil(3000 / 1000) + 1");
        Traces traces;
        traces.Connect(qd);
        Ptr<QueueDiscItem> a1 = Ipv4Packet("10.0.0.1", 9, 1000);
        Ptr<QueueDiscItem> b1 = Ipv4Packet("10.0.0.2", 9, 100);
        Ptr<QueueDiscItem> a2 = Ipv4Packet("10.0.0.1", 9, 1000);
        Ptr<QueueDiscItem> a3 = Ipv4Packet("10.0.0.1", 9, 900);
        Ptr<QueueDiscItem> a4 = Ipv4Packet("10.0.0.1", 9, 1000);
        for (const auto& item : {a1, b1, a2, a3})
        {
            qd->Enqueue(item);
        }
        NS_TEST_ASSERT_MSG_EQ(Uid(qd->Dequeue()), Uid(a1), "A's round-0 packet");
        NS_TEST_ASSERT_MSG_EQ(qd->Enqueue(a4), true, "3000 B queued: no drop");
        NS_TEST_ASSERT_MSG_EQ(traces.placements.back(), 3, "three rounds ahead of current");
        NS_TEST_ASSERT_MSG_EQ(qd->GetLast(), 3, "q[3]; with M = 3 it would be q[0]");
        NS_TEST_ASSERT_MSG_EQ(qd->GetStats().nTotalDroppedPackets, 0, "no drop");
        const std::vector<uint64_t> uids = DrainUids(qd);
        NS_TEST_ASSERT_MSG_EQ((uids == std::vector<uint64_t>{Uid(b1), Uid(a2), Uid(a3), Uid(a4)}),
                              true,
                              "A's packets in order, the last one last");

        // Around the ring: each step fills a round with two 500 B packets of C and sends them.
        const uint64_t start = qd->GetCurrentRound();
        for (int step = 0; step < 50; ++step)
        {
            Ptr<QueueDiscItem> c1 = Ipv4Packet("10.0.0.3", 9, 500);
            Ptr<QueueDiscItem> c2 = Ipv4Packet("10.0.0.3", 9, 500);
            Ptr<QueueDiscItem> c3 = Ipv4Packet("10.0.0.3", 9, 500);
            qd->Enqueue(c1);
            qd->Enqueue(c2);
            qd->Enqueue(c3); // next round
            NS_TEST_ASSERT_MSG_EQ(qd->GetLast(), (qd->GetCurrentRound() + 1) % 4, "last slot");
            NS_TEST_ASSERT_MSG_EQ(Uid(qd->Dequeue()), Uid(c1), "c1");
            NS_TEST_ASSERT_MSG_EQ(Uid(qd->Dequeue()), Uid(c2), "c2");
            NS_TEST_ASSERT_MSG_EQ(qd->GetCurrent(), qd->GetCurrentRound() % 4, "current slot");
            NS_TEST_ASSERT_MSG_EQ(Uid(qd->Dequeue()), Uid(c3), "c3");
        }
        NS_TEST_ASSERT_MSG_EQ(qd->GetCurrentRound(), start + 100, "two rounds per step");
        NS_TEST_ASSERT_MSG_EQ(traces.currentRounds.back(), start + 100, "CurrentRound trace");
        qd->Dispose();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * Flow state lives while a flow has packets queued: a thousand flows come and go, and a flow
 * that returns starts afresh (deficit 0, round current). Works with the default 2^24 buckets.
 */
class VdFlowStateTestCase : public TestCase
{
  public:
    VdFlowStateTestCase()
        : TestCase("flow state is freed when a flow empties; returning flows start afresh")
    {
    }

  private:
    /// ActiveFlows sink.
    void Active(uint32_t, uint32_t now)
    {
        m_peak = std::max(m_peak, now);
        m_now = now;
    }

    void DoRun() override
    {
        auto qd = MakeVd({{"MaxSize", "2000000B"}});
        qd->TraceConnectWithoutContext("ActiveFlows",
                                       MakeCallback(&VdFlowStateTestCase::Active, this));
        for (uint16_t port = 1000; port < 2000; ++port)
        {
            qd->Enqueue(Ipv4Packet("10.0.0.1", port, 200));
        }
        NS_TEST_ASSERT_MSG_EQ(qd->GetActiveFlows(), 1000, "a thousand flows");
        NS_TEST_ASSERT_MSG_EQ(DrainUids(qd).size(), 1000, "all sent");
        NS_TEST_ASSERT_MSG_EQ(qd->GetActiveFlows(), 0, "all freed");
        NS_TEST_ASSERT_MSG_EQ(m_peak, 1000, "ActiveFlows trace peak");
        NS_TEST_ASSERT_MSG_EQ(m_now, 0, "ActiveFlows trace now");

        Ptr<QueueDiscItem> x = Ipv4Packet("10.0.0.1", 1000, 300);
        const uint32_t f = qd->GetBucket(x);
        qd->Enqueue(x);
        qd->Enqueue(Ipv4Packet("10.0.0.1", 1000, 300));
        NS_TEST_ASSERT_MSG_EQ(qd->GetDeficit(f), 0, "a new flow's deficit");
        NS_TEST_ASSERT_MSG_EQ(qd->GetFlowRound(f), qd->GetCurrentRound(), "round = current");
        qd->Dequeue();
        NS_TEST_ASSERT_MSG_EQ(qd->GetDeficit(f), -300, "charged");
        qd->Dequeue();
        NS_TEST_ASSERT_MSG_EQ(qd->GetFlowBytes(f), 0, "empty");
        NS_TEST_ASSERT_MSG_EQ(qd->GetDeficit(f), 0, "its state is gone");
        NS_TEST_ASSERT_MSG_EQ(qd->GetFlowStats(f).sentPackets, 3, "statistics stay");
        qd->Dispose();
    }

    uint32_t m_peak = 0; //!< largest ActiveFlows value
    uint32_t m_now = 0;  //!< last ActiveFlows value
};

/**
 * \ingroup qdisc-lab-tests
 * Flow identification and weights are DrrQueueDisc's: Mask, Perturbation, IPv6 hashed and
 * weighted by prefix, DSCP rules, non-IP packets in bucket Buckets, packet filters first.
 */
class VdClassificationTestCase : public TestCase
{
  public:
    VdClassificationTestCase()
        : TestCase("classification and weights as DrrQueueDisc: masks, IPv6, DSCP, non-IP")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<QueueDiscItem> p1 = Ipv4Packet("10.0.0.1", 80, 100);
        Ptr<QueueDiscItem> p2 = Ipv4Packet("10.0.0.1", 81, 100);
        auto five = MakeVd({{"Buckets", "1024"}, {"Mask", "FiveTuple"}});
        auto pair = MakeVd({{"Buckets", "1024"}, {"Mask", "AddressPair"}});
        auto perturbed = MakeVd({{"Buckets", "1024"}, {"Perturbation", "7"}});
        NS_TEST_ASSERT_MSG_NE(five->GetBucket(p1), five->GetBucket(p2), "ports separate");
        NS_TEST_ASSERT_MSG_EQ(pair->GetBucket(p1), pair->GetBucket(p2), "ports ignored");
        NS_TEST_ASSERT_MSG_NE(perturbed->GetBucket(p1), five->GetBucket(p1), "perturbation");
        NS_TEST_ASSERT_MSG_EQ(
            five->GetBucket(p1),
            FlowIdentifier::Hash(FlowIdentifier::Extract(p1), FlowIdentifier::FIVE_TUPLE, 0) % 1024,
            "FlowIdentifier's hash");

        // Weights: IPv6 by prefix, IPv4 by DSCP; quantum = weight x L_M.
        auto weighted = MakeVd({{"Buckets", "1024"},
                                {"MaxPacketSize", "1000"},
                                {"WeightRules", "src=2001:db8::/32 weight=4; dscp=AF11 weight=3"}});
        Ptr<QueueDiscItem> x = Ipv6Packet("2001:db8::1", 500);
        Ptr<QueueDiscItem> y = Ipv6Packet("2001:db9::1", 500);
        Ptr<QueueDiscItem> af = Ipv4Packet("10.0.0.5", 9, 600, Ipv4Header::DSCP_AF11);
        NS_TEST_ASSERT_MSG_NE(weighted->GetBucket(x), weighted->GetBucket(y), "IPv6 separate");
        weighted->Enqueue(x);
        weighted->Enqueue(y);
        weighted->Enqueue(af);
        NS_TEST_ASSERT_MSG_EQ(weighted->GetQuantum(weighted->GetBucket(x)), 4000, "prefix w 4");
        NS_TEST_ASSERT_MSG_EQ(weighted->GetQuantum(weighted->GetBucket(y)), 1000, "default 1");
        NS_TEST_ASSERT_MSG_EQ(weighted->GetQuantum(weighted->GetBucket(af)), 3000, "AF11 w 3");

        // Non-IP: bucket Buckets, default weight.
        Ptr<QueueDiscItem> arp = Create<NonIpItem>(60);
        NS_TEST_ASSERT_MSG_EQ(weighted->GetBucket(arp), 1024, "non-IP bucket");
        weighted->Enqueue(arp);
        NS_TEST_ASSERT_MSG_EQ(weighted->GetQuantum(1024), 1000, "non-IP: default weight");
        NS_TEST_ASSERT_MSG_EQ(DrainUids(weighted).size(), 4, "all sent");
        NS_TEST_ASSERT_MSG_EQ(weighted->GetFlowStats(1024).sentPackets, 1, "non-IP counted");

        auto filtered =
            MakeVd({{"Buckets", "16"}}, CreateObject<qdisclab::test::ClassThreeFilter>());
        NS_TEST_ASSERT_MSG_EQ(filtered->GetBucket(p1), 3, "filter's class");
        NS_TEST_ASSERT_MSG_EQ(
            filtered->GetBucket(x),
            FlowIdentifier::Hash(FlowIdentifier::Extract(x), FlowIdentifier::FIVE_TUPLE, 0) % 16,
            "no match: hash");
        for (auto qd : {five, pair, perturbed, weighted, filtered})
        {
            qd->Dispose();
        }
    }
};

/**
 * \ingroup qdisc-lab-tests
 * Packets larger than w_i L_M: sent after ceil(size / (w_i L_M)) rounds' quanta, as DRR sends
 * them. A flow whose weight is below the one Rounds was sized for can need a round beyond the
 * ring: such a packet is dropped under BEYOND_LAST_ROUND_DROP.
 */
class VdLargePacketTestCase : public TestCase
{
  public:
    VdLargePacketTestCase()
        : TestCase("packets larger than the quantum wait several rounds; beyond the ring")
    {
    }

  private:
    void DoRun() override
    {
        auto qd = MakeVd({{"MaxPacketSize", "500"}, {"MaxSize", "100000B"}});
        Ptr<QueueDiscItem> big = Ipv4Packet("10.0.0.1", 9, 1500);
        qd->Enqueue(big);
        for (int k = 0; k < 15; ++k)
        {
            qd->Enqueue(Ipv4Packet("10.0.0.2", 9, 100));
        }
        const std::vector<uint64_t> uids = DrainUids(qd);
        const auto position = std::find(uids.begin(), uids.end(), Uid(big)) - uids.begin();
        // Rounds 0 and 1: five 100 B packets each; round 2: the big one (it arrived first).
        NS_TEST_ASSERT_MSG_EQ(position, 10, "the 1500 B packet leaves in round 2");

        auto light = MakeVd({{"MaxPacketSize", "1000"},
                             {"MaxSize", "3000B"},
                             {"WeightRules", "dport=5 weight=0.25"}});
        NS_TEST_ASSERT_MSG_EQ(light->GetRounds(), 4, "sized for weight 1");
        NS_TEST_ASSERT_MSG_EQ(light->Enqueue(Ipv4Packet("10.0.0.1", 5, 1000)), true, "round 3");
        NS_TEST_ASSERT_MSG_EQ(light->Enqueue(Ipv4Packet("10.0.0.1", 5, 1000)), false, "round 7");
        NS_TEST_ASSERT_MSG_EQ(light->GetStats().GetNDroppedPackets(
                                  VerticalDimensioningQueueDisc::BEYOND_LAST_ROUND_DROP),
                              1,
                              "counted");
        NS_TEST_ASSERT_MSG_EQ(DrainUids(light).size(), 1, "the first one is sent");
        qd->Dispose();
        light->Dispose();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * In a simulation with default attributes plus MaxSize: L_M is the bottleneck device's MTU,
 * M follows, three equal UDP bursts share the survivors fairly, and every drop is an overflow.
 */
class VdDumbbellTestCase : public TestCase
{
  public:
    VdDumbbellTestCase()
        : TestCase("in a dumbbell: device MTU as L_M, fair survivors of three bursts")
    {
    }

  private:
    void DoRun() override
    {
        TrafficControlHelper tc;
        tc.SetRootQueueDisc("ns3::VerticalDimensioningQueueDisc",
                            "MaxSize",
                            QueueSizeValue(QueueSize("10280B")));
        DumbbellScenario scenario;
        scenario.SetLeafCount(3);
        scenario.SetAccessLink(DataRate("100Mbps"), MilliSeconds(1));
        scenario.SetBottleneckLink(DataRate("1Mbps"), MilliSeconds(10));
        scenario.SetBottleneckQueueDisc(tc);
        scenario.Build();

        std::vector<qdisclab::test::Arrival> arrivals;
        std::vector<Ptr<Socket>> sockets;
        for (uint32_t i = 0; i < 3; ++i)
        {
            sockets.push_back(qdisclab::test::InstallSink(scenario.GetRight(i), 9, &arrivals));
            sockets.push_back(
                qdisclab::test::ScheduleBurst(scenario.GetLeft(i),
                                              InetSocketAddress(scenario.GetRightAddress(i), 9),
                                              Seconds(1),
                                              40,
                                              1000));
        }
        Simulator::Run();
        std::map<Ipv4Address, uint32_t> received;
        for (const auto& arrival : arrivals)
        {
            received[arrival.from]++;
        }

        auto qd = DynamicCast<VerticalDimensioningQueueDisc>(scenario.GetBottleneckQueueDisc());
        NS_TEST_ASSERT_MSG_NE(qd, nullptr, "queue disc");
        NS_TEST_ASSERT_MSG_EQ(qd->GetMaxPacketSize(),
                              scenario.GetBottleneckDevice()->GetMtu(),
                              "L_M = the device MTU");
        NS_TEST_ASSERT_MSG_EQ(qd->GetRounds(), 8, "ceil(10280 / 1500) + 1");
        const QueueDisc::Stats& stats = qd->GetStats();
        NS_TEST_ASSERT_MSG_EQ(stats.nTotalReceivedPackets, 120, "every packet reaches the qdisc");
        NS_TEST_ASSERT_MSG_EQ(
            stats.nTotalDroppedPackets,
            stats.GetNDroppedPackets(VerticalDimensioningQueueDisc::OVERFLOW_DROP),
            "only overflow drops");
        NS_TEST_ASSERT_MSG_GT(stats.nTotalDroppedPackets, 0, "the buffer overflowed");
        uint32_t total = 0;
        uint32_t least = UINT32_MAX;
        uint32_t most = 0;
        for (uint32_t i = 0; i < 3; ++i)
        {
            const uint32_t n = received[scenario.GetLeftAddress(i)];
            total += n;
            least = std::min(least, n);
            most = std::max(most, n);
        }
        NS_TEST_ASSERT_MSG_EQ(total, stats.nTotalSentPackets, "what was sent arrived");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(most - least, 1, "equal shares of the survivors");
        NS_TEST_ASSERT_MSG_EQ(qd->GetActiveFlows(), 0, "drained");
        Simulator::Destroy();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * BucketCounters = false changes nothing but the counters: on the same random traffic, the same
 * packets leave in the same order and the same are dropped, and no per-bucket table grows.
 */
class VdWithoutBucketCountersTestCase : public TestCase
{
  public:
    VdWithoutBucketCountersTestCase()
        : TestCase("without per-bucket counters: same service, state per active flow only")
    {
    }

  private:
    void DoRun() override
    {
        auto counted = MakeVd({{"MaxSize", "20p"}, {"MaxPacketSize", "1000"}});
        auto uncounted =
            MakeVd({{"MaxSize", "20p"}, {"MaxPacketSize", "1000"}, {"BucketCounters", "false"}});
        const uint64_t emptyTable = uncounted->GetStateSize().bucketBytes;
        std::mt19937 rng(11);
        std::vector<uint64_t> sent[2];
        for (int step = 0; step < 20000; ++step)
        {
            if (rng() % 100 < 60)
            {
                const std::string src = "10.0.0." + std::to_string(1 + rng() % 200);
                const uint32_t size = 60 + rng() % 1441;
                Ptr<QueueDiscItem> item = Ipv4Packet(src.c_str(), 9, size);
                // The same item (same UID) goes to both.
                counted->Enqueue(item);
                uncounted->Enqueue(item);
            }
            else
            {
                Ptr<QueueDiscItem> a = counted->Dequeue();
                Ptr<QueueDiscItem> b = uncounted->Dequeue();
                sent[0].push_back(a ? a->GetPacket()->GetUid() : 0);
                sent[1].push_back(b ? b->GetPacket()->GetUid() : 0);
            }
        }
        NS_TEST_ASSERT_MSG_EQ((sent[0] == sent[1]), true, "the same packets leave in order");
        NS_TEST_ASSERT_MSG_EQ(uncounted->GetStats().nTotalDroppedPackets,
                              counted->GetStats().nTotalDroppedPackets,
                              "the same drops");
        NS_TEST_ASSERT_MSG_GT(counted->GetStats().nTotalDroppedPackets, 1000, "many drops");
        NS_TEST_ASSERT_MSG_EQ(uncounted->GetStateSize().bucketBytes, emptyTable, "no counters");
        NS_TEST_ASSERT_MSG_GT(counted->GetStateSize().bucketBytes, emptyTable, "counters grew");
        counted->Dispose();
        uncounted->Dispose();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * A packet dropped from the internal queue reports the time it spent queued as its SojournTime,
 * also when it is the arrival itself (QueueDisc stamps items only after DoEnqueue, so VD must
 * stamp it first). B = 3000 B, L_M = 1500 B. At 1 s: A 1400 B (round 0), A 200 B (round 1),
 * B 1400 B (round 0). At 5 s: C 1500 B joins round 0, 4500 B queued: (15)-(16) drop A's 200 B
 * (queued 4 s), then the tail of round 0, C itself (queued 0 s).
 */
class VdDroppedSojournTestCase : public TestCase
{
  public:
    VdDroppedSojournTestCase()
        : TestCase("a dropped packet's sojourn time is the time it was queued, also the arrival's")
    {
    }

  private:
    void DoRun() override
    {
        auto qd = MakeVd({{"MaxPacketSize", "1500"}, {"MaxSize", "3000B"}});
        std::vector<Time> sojourns;
        qd->TraceConnectWithoutContext("SojournTime", MakeBoundCallback(&RecordSojourn, &sojourns));
        qdisclab::Schedule(Seconds(1), [qd]() {
            qd->Enqueue(Ipv4Packet("10.0.0.1", 9, 1400));
            qd->Enqueue(Ipv4Packet("10.0.0.1", 9, 200));
            qd->Enqueue(Ipv4Packet("10.0.0.2", 9, 1400));
        });
        Ptr<QueueDiscItem> c = Ipv4Packet("10.0.0.3", 9, 1500);
        qdisclab::Schedule(Seconds(5), [qd, c]() { qd->Enqueue(c); });
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(qd->GetStats().nTotalDroppedPacketsAfterDequeue,
                              2,
                              "two queued packets dropped");
        NS_TEST_ASSERT_MSG_EQ(qd->GetNBytes(), 2800, "A's and B's 1400 B left");
        NS_TEST_ASSERT_MSG_EQ(qd->GetFlowStats(qd->GetBucket(c)).droppedPackets, 1, "C dropped");
        NS_TEST_ASSERT_MSG_EQ((sojourns == std::vector<Time>{Seconds(4), Seconds(0)}),
                              true,
                              "A's 200 B queued 4 s, C 0 s");
        qd->Dispose();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * The VerticalDimensioningQueueDisc test suite.
 */
class VerticalDimensioningQueueDiscTestSuite : public TestSuite
{
  public:
    VerticalDimensioningQueueDiscTestSuite()
        : TestSuite("qdisc-lab-vertical-dimensioning-queue-disc")
    {
        AddTestCase(new VdFigure2TestCase());
        AddTestCase(new VdOverflowTestCase());
        AddTestCase(new VdWrapAroundTestCase());
        AddTestCase(new VdFlowStateTestCase());
        AddTestCase(new VdClassificationTestCase());
        AddTestCase(new VdLargePacketTestCase());
        AddTestCase(new VdDumbbellTestCase());
        // Per-bucket counters (GetFlowStats) and the FlowEnqueue, FlowDequeue and FlowDrop traces
        // agree with the packets the test gave and received, on random traffic with drops on
        // arrival and from the last round, in bytes and in packets.
        AddTestCase(new qdisclab::test::FlowCountersTestCase<VerticalDimensioningQueueDisc>({
            {{"MaxSize", "12000B"}, {"Buckets", "16"}},
            {{"MaxSize", "20p"}, {"Buckets", "5"}, {"MaxPacketSize", "1000"}},
            {{"MaxSize", "9000B"}, {"WeightRules", "src=10.0.0.7 weight=3"}},
        }));
        AddTestCase(new VdWithoutBucketCountersTestCase());
        AddTestCase(new VdDroppedSojournTestCase());
    }
};

/// Registers the suite.
static VerticalDimensioningQueueDiscTestSuite g_verticalDimensioningQueueDiscTestSuite;
