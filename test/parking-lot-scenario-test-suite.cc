/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qdisc-lab-test-packets.h"
#include "qdisc-lab-test-scenario.h"
#include "qdisc-lab-test-sockets.h"

#include "ns3/drr-queue-disc.h"
#include "ns3/fifo-queue-disc.h"
#include "ns3/flow-index-packet-filter.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/packet.h"
#include "ns3/parking-lot-scenario.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/qdisc-lab-compat.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/test.h"
#include "ns3/vertical-dimensioning-queue-disc.h"

#include <set>
#include <vector>

using namespace ns3;
using namespace ns3::qdisclab::test;

namespace
{

/**
 * \param device a point-to-point device
 * \return its rate
 */
DataRate
RateOf(Ptr<NetDevice> device)
{
    DataRateValue rate;
    device->GetAttribute("DataRate", rate);
    return rate.Get();
}

/**
 * \param device a point-to-point device
 * \return its channel's propagation delay
 */
Time
DelayOf(Ptr<NetDevice> device)
{
    TimeValue delay;
    device->GetChannel()->GetAttribute("Delay", delay);
    return delay.Get();
}

/**
 * \param a a node
 * \param b another
 * \return the device of \p a on the point-to-point link between them; null if none
 */
Ptr<NetDevice>
DeviceTowards(Ptr<Node> a, Ptr<Node> b)
{
    for (uint32_t i = 0; i < a->GetNDevices(); ++i)
    {
        Ptr<NetDevice> device = a->GetDevice(i);
        Ptr<Channel> channel = device->GetChannel();
        if (!channel || channel->GetNDevices() != 2)
        {
            continue;
        }
        for (std::size_t k = 0; k < 2; ++k)
        {
            if (channel->GetDevice(k)->GetNode() == b)
            {
                return device;
            }
        }
    }
    return nullptr;
}

/**
 * \param node a node
 * \return its point-to-point devices (loopback excluded)
 */
uint32_t
LinkCount(Ptr<Node> node)
{
    uint32_t links = 0;
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        links += DynamicCast<PointToPointNetDevice>(node->GetDevice(i)) != nullptr;
    }
    return links;
}

} // namespace

/**
 * \ingroup qdisc-lab-tests
 * The reconstructed Fig. 3 (two hops): nine nodes wired as documented, link rates and delays
 * as set, the queue disc under study (with its attributes) on both core links' forward devices
 * behind a one-packet device queue and no queue disc on any other device, global routing first,
 * hosts addressed 10.1.n.1.
 */
class ParkingLotTopologyTestCase : public TestCase
{
  public:
    ParkingLotTopologyTestCase()
        : TestCase("Fig. 3: nine nodes, links, rates, delays, queue discs and addresses")
    {
    }

  private:
    void DoRun() override
    {
        ParkingLotScenario lot;
        lot.SetAccessLink(DataRate("100Mbps"), MilliSeconds(1));
        lot.SetCoreLink(DataRate("10Mbps"), MilliSeconds(1));
        TrafficControlHelper tc;
        tc.SetRootQueueDisc("ns3::VerticalDimensioningQueueDisc",
                            "MaxSize",
                            QueueSizeValue(QueueSize("12500B")));
        lot.SetCoreQueueDisc(tc);
        lot.Build();

        NS_TEST_ASSERT_MSG_EQ(lot.GetHopCount(), 2, "Fig. 3 has two core links by default");
        NS_TEST_ASSERT_MSG_EQ(lot.GetNodeCount(), 9, "n0 ... n8");
        // Routers n1, n2, n3; hosts n0, n4 (main flow), n5 -> n6 (hop 0), n7 -> n8 (hop 1).
        for (uint32_t r = 0; r < 3; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(lot.GetRouter(r), lot.GetNode(r + 1), "router " << r);
        }
        NS_TEST_ASSERT_MSG_EQ(lot.GetMainSource(), lot.GetNode(0), "n0");
        NS_TEST_ASSERT_MSG_EQ(lot.GetMainSink(), lot.GetNode(4), "n4");
        NS_TEST_ASSERT_MSG_EQ(lot.GetCrossSource(0), lot.GetNode(5), "n5");
        NS_TEST_ASSERT_MSG_EQ(lot.GetCrossSink(0), lot.GetNode(6), "n6");
        NS_TEST_ASSERT_MSG_EQ(lot.GetCrossSource(1), lot.GetNode(7), "n7");
        NS_TEST_ASSERT_MSG_EQ(lot.GetCrossSink(1), lot.GetNode(8), "n8");

        // Links: {a, b, is core}. Exactly these eight, each once.
        const std::vector<std::tuple<uint32_t, uint32_t, bool>> links = {
            {1, 2, true},
            {2, 3, true},
            {0, 1, false},
            {3, 4, false},
            {5, 1, false},
            {6, 2, false},
            {7, 2, false},
            {8, 3, false},
        };
        const std::vector<uint32_t> degree = {1, 3, 4, 3, 1, 1, 1, 1, 1};
        for (uint32_t n = 0; n < 9; ++n)
        {
            NS_TEST_ASSERT_MSG_EQ(LinkCount(lot.GetNode(n)), degree[n], "links of n" << n);
        }
        for (const auto& [a, b, core] : links)
        {
            Ptr<NetDevice> device = DeviceTowards(lot.GetNode(a), lot.GetNode(b));
            NS_TEST_ASSERT_MSG_NE(device, nullptr, "a link n" << a << " - n" << b);
            NS_TEST_ASSERT_MSG_EQ(RateOf(device),
                                  DataRate(core ? "10Mbps" : "100Mbps"),
                                  "rate of n" << a << " - n" << b);
            NS_TEST_ASSERT_MSG_EQ(RateOf(DeviceTowards(lot.GetNode(b), lot.GetNode(a))),
                                  RateOf(device),
                                  "both directions of n" << a << " - n" << b);
            NS_TEST_ASSERT_MSG_EQ(DelayOf(device), MilliSeconds(1), "1 ms links");
        }

        for (uint32_t hop = 0; hop < 2; ++hop)
        {
            Ptr<NetDevice> forward = DeviceTowards(lot.GetRouter(hop), lot.GetRouter(hop + 1));
            NS_TEST_ASSERT_MSG_EQ(lot.GetCoreDevice(hop), forward, "hop " << hop << " device");
            NS_TEST_ASSERT_MSG_EQ(lot.GetCoreRate(hop), DataRate("10Mbps"), "core rate");
            NS_TEST_ASSERT_MSG_EQ(lot.GetCoreDelay(hop), MilliSeconds(1), "core delay");
            Ptr<QueueDisc> qdisc = lot.GetCoreQueueDisc(hop);
            NS_TEST_ASSERT_MSG_NE(DynamicCast<VerticalDimensioningQueueDisc>(qdisc),
                                  nullptr,
                                  "the queue disc under study on hop " << hop);
            NS_TEST_ASSERT_MSG_EQ(qdisc->GetMaxSize(),
                                  QueueSize("12500B"),
                                  "its attributes came along");
            PointerValue queue;
            forward->GetAttribute("TxQueue", queue);
            NS_TEST_ASSERT_MSG_EQ(queue.Get<Queue<Packet>>()->GetMaxSize(),
                                  QueueSize("1p"),
                                  "one-packet device queue under the queue disc");
            NS_TEST_ASSERT_MSG_NE(lot.GetCoreQueueDisc(0),
                                  lot.GetCoreQueueDisc(1),
                                  "each link has its own queue disc");
        }

        NS_TEST_ASSERT_MSG_EQ(
            QueueDiscMismatch({{lot.GetCoreDevice(0), VerticalDimensioningQueueDisc::GetTypeId()},
                               {lot.GetCoreDevice(1), VerticalDimensioningQueueDisc::GetTypeId()}}),
            "",
            "only the core links' forward devices have a queue disc, no FqCoDel anywhere");
        std::vector<Ipv4Address> hostAddresses;
        for (uint32_t host : {0, 4, 5, 6, 7, 8})
        {
            hostAddresses.push_back(lot.GetHostAddress(host));
        }
        NS_TEST_ASSERT_MSG_EQ(RoutingMismatch(hostAddresses),
                              "",
                              "global routing first, and it alone reaches every host");

        for (uint32_t host : {0, 4, 5, 6, 7, 8})
        {
            std::ostringstream expected;
            expected << "10.1." << host << ".1";
            NS_TEST_ASSERT_MSG_EQ(lot.GetHostAddress(host),
                                  Ipv4Address(expected.str().c_str()),
                                  "address of n" << host);
            Ptr<Ipv4> ipv4 = lot.GetNode(host)->GetObject<Ipv4>();
            NS_TEST_ASSERT_MSG_EQ(ipv4->GetAddress(1, 0).GetLocal(),
                                  lot.GetHostAddress(host),
                                  "n" << host << " has that address");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * Routes: a datagram n0 -> n4 arrives after exactly the four links' transmission and
 * propagation times and passes both core queue discs; n5 -> n6 passes only hop 0's, n7 -> n8
 * only hop 1's.
 */
class ParkingLotRoutesTestCase : public TestCase
{
  public:
    ParkingLotRoutesTestCase()
        : TestCase("routes: n0 -> n4 crosses both hops with the exact delay; cross traffic one")
    {
    }

  private:
    void DoRun() override
    {
        ParkingLotScenario lot;
        lot.Build(); // defaults: access 100 Mb/s, core 10 Mb/s, all 1 ms, FIFO

        std::vector<Arrival> main;
        std::vector<Arrival> cross0;
        std::vector<Arrival> cross1;
        std::vector<Ptr<Socket>> sockets = {
            InstallSink(lot.GetMainSink(), 9, &main),
            InstallSink(lot.GetCrossSink(0), 9, &cross0),
            InstallSink(lot.GetCrossSink(1), 9, &cross1),
            ScheduleBurst(lot.GetMainSource(),
                          InetSocketAddress(lot.GetHostAddress(4), 9),
                          Seconds(1),
                          1,
                          1000),
            ScheduleBurst(lot.GetCrossSource(0),
                          InetSocketAddress(lot.GetHostAddress(6), 9),
                          Seconds(2),
                          1,
                          500),
            ScheduleBurst(lot.GetCrossSource(1),
                          InetSocketAddress(lot.GetHostAddress(8), 9),
                          Seconds(3),
                          1,
                          500),
        };
        std::vector<std::vector<uint32_t>> seen(2); // packets each hop's queue disc saw, by time
        qdisclab::Schedule(Seconds(1.5), [&]() {
            for (uint32_t hop = 0; hop < 2; ++hop)
            {
                seen[hop].push_back(lot.GetCoreQueueDisc(hop)->GetStats().nTotalReceivedPackets);
            }
        });
        qdisclab::Schedule(Seconds(2.5), [&]() {
            for (uint32_t hop = 0; hop < 2; ++hop)
            {
                seen[hop].push_back(lot.GetCoreQueueDisc(hop)->GetStats().nTotalReceivedPackets);
            }
        });
        Simulator::Run();
        for (uint32_t hop = 0; hop < 2; ++hop)
        {
            seen[hop].push_back(lot.GetCoreQueueDisc(hop)->GetStats().nTotalReceivedPackets);
        }

        // 1000 B payload + 8 B UDP + 20 B IPv4 + 2 B PPP = 1030 B on each of the four links.
        const double wireBits = 1030 * 8;
        const Time expected = Seconds(2 * wireBits / 100e6 + 2 * wireBits / 10e6) + MilliSeconds(4);
        NS_TEST_ASSERT_MSG_EQ(expected, MicroSeconds(5812) + NanoSeconds(800), "hand sum");
        NS_TEST_ASSERT_MSG_EQ(main.size(), 1, "n4 gets the datagram");
        NS_TEST_ASSERT_MSG_EQ(main[0].from, lot.GetHostAddress(0), "from n0");
        NS_TEST_ASSERT_MSG_EQ(main[0].bytes, 1000, "payload size");
        NS_TEST_ASSERT_MSG_EQ(main[0].at - Seconds(1), expected, "one-way delay n0 -> n4");
        NS_TEST_ASSERT_MSG_EQ(cross0.size(), 1, "n6 gets n5's datagram");
        NS_TEST_ASSERT_MSG_EQ(cross0[0].from, lot.GetHostAddress(5), "from n5");
        NS_TEST_ASSERT_MSG_EQ(cross1.size(), 1, "n8 gets n7's datagram");
        NS_TEST_ASSERT_MSG_EQ(cross1[0].from, lot.GetHostAddress(7), "from n7");
        // 528 B on three links (two access, one core): cross traffic crosses one hop.
        const double crossBits = 530 * 8;
        NS_TEST_ASSERT_MSG_EQ(cross0[0].at - Seconds(2),
                              Seconds(2 * crossBits / 100e6 + crossBits / 10e6) + MilliSeconds(3),
                              "one-way delay n5 -> n6");
        // Hop 0 saw n0's and n5's datagrams, hop 1 n0's and n7's (routes, not ARP: there is
        // none on point-to-point links).
        NS_TEST_ASSERT_MSG_EQ(seen[0][0], 1, "hop 0 carries n0 -> n4");
        NS_TEST_ASSERT_MSG_EQ(seen[1][0], 1, "hop 1 carries n0 -> n4");
        NS_TEST_ASSERT_MSG_EQ(seen[0][1], 2, "hop 0 carries n5 -> n6");
        NS_TEST_ASSERT_MSG_EQ(seen[1][1], 1, "hop 1 does not carry n5 -> n6");
        NS_TEST_ASSERT_MSG_EQ(seen[0][2], 2, "hop 0 does not carry n7 -> n8");
        NS_TEST_ASSERT_MSG_EQ(seen[1][2], 2, "hop 1 carries n7 -> n8");
        Simulator::Destroy();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * Three hops with one link set apart: 12 nodes, hop h's cross hosts numbered H + 3 + 2h and
 * H + 4 + 2h on routers h and h + 1, and the main flow crosses the three core links (its delay
 * has the slower link's transmission and propagation times).
 */
class ParkingLotThreeHopsTestCase : public TestCase
{
  public:
    ParkingLotThreeHopsTestCase()
        : TestCase("three hops, one of them set apart: numbering, rates and the main route")
    {
    }

  private:
    void DoRun() override
    {
        ParkingLotScenario lot;
        lot.SetHopCount(3);
        lot.SetCoreLink(DataRate("20Mbps"), MilliSeconds(2));
        lot.SetCoreLink(1, DataRate("5Mbps"), MilliSeconds(3));
        lot.SetAccessLink(DataRate("50Mbps"), MicroSeconds(500));
        lot.Build();
        NS_TEST_ASSERT_MSG_EQ(lot.GetNodeCount(), 12, "3H + 3 nodes");
        NS_TEST_ASSERT_MSG_EQ(lot.GetMainSink(), lot.GetNode(5), "main sink H + 2");
        NS_TEST_ASSERT_MSG_EQ(lot.GetCrossSource(2), lot.GetNode(10), "H + 3 + 2h");
        NS_TEST_ASSERT_MSG_EQ(lot.GetCrossSink(2), lot.GetNode(11), "H + 4 + 2h");
        NS_TEST_ASSERT_MSG_NE(DeviceTowards(lot.GetNode(10), lot.GetRouter(2)),
                              nullptr,
                              "hop 2's cross source hangs on router 2");
        NS_TEST_ASSERT_MSG_NE(DeviceTowards(lot.GetNode(11), lot.GetRouter(3)),
                              nullptr,
                              "hop 2's cross sink hangs on router 3");
        NS_TEST_ASSERT_MSG_EQ(RateOf(lot.GetCoreDevice(1)), DataRate("5Mbps"), "hop 1 apart");
        NS_TEST_ASSERT_MSG_EQ(DelayOf(lot.GetCoreDevice(1)), MilliSeconds(3), "hop 1 apart");
        NS_TEST_ASSERT_MSG_EQ(RateOf(lot.GetCoreDevice(2)), DataRate("20Mbps"), "other hops");
        NS_TEST_ASSERT_MSG_NE(DynamicCast<FifoQueueDisc>(lot.GetCoreQueueDisc(2)),
                              nullptr,
                              "FIFO by default");

        std::vector<Arrival> main;
        std::vector<Ptr<Socket>> sockets = {
            InstallSink(lot.GetMainSink(), 9, &main),
            ScheduleBurst(lot.GetMainSource(),
                          InetSocketAddress(lot.GetHostAddress(5), 9),
                          Seconds(1),
                          1,
                          472),
        };
        Simulator::Run();
        // 472 + 28 + 2 = 502 B: two access links, two 20 Mb/s hops, one 5 Mb/s hop.
        const double bits = 502 * 8;
        const Time expected =
            Seconds(2 * bits / 50e6 + 2 * bits / 20e6 + bits / 5e6) + MilliSeconds(8);
        NS_TEST_ASSERT_MSG_EQ(main.size(), 1, "the main sink gets the datagram");
        NS_TEST_ASSERT_MSG_EQ(main[0].at - Seconds(1), expected, "one-way delay over 3 hops");
        for (uint32_t hop = 0; hop < 3; ++hop)
        {
            NS_TEST_ASSERT_MSG_EQ(lot.GetCoreQueueDisc(hop)->GetStats().nTotalReceivedPackets,
                                  1,
                                  "hop " << hop << " carried it");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * FlowIndexPacketFilter numbers flows 0, 1, 2, ... in order of first appearance (five-tuple or
 * address pair), leaves non-IP packets alone, and so gives each flow its own DRR bucket.
 */
class FlowIndexPacketFilterTestCase : public TestCase
{
  public:
    FlowIndexPacketFilterTestCase()
        : TestCase("FlowIndexPacketFilter: one class per flow, in order of arrival")
    {
    }

  private:
    void DoRun() override
    {
        // PF_NO_MATCH by value: binding the static member to std::pair's reference parameter
        // would odr-use it, and Debian's libns3-traffic-control.so.37 does not export it (an
        // unoptimised build then fails to link).
        const int32_t noMatch = PacketFilter::PF_NO_MATCH;
        auto filter = CreateObject<FlowIndexPacketFilter>();
        const std::vector<std::pair<Ptr<QueueDiscItem>, int32_t>> packets = {
            {Ipv4UdpPacket("10.1.0.1", "10.1.4.1", 49153, 5001, 500), 0},
            {Ipv4UdpPacket("10.1.0.1", "10.1.4.1", 49154, 5002, 500), 1},
            {Ipv4UdpPacket("10.1.0.1", "10.1.4.1", 49153, 5001, 900), 0},
            {Ipv6UdpPacket("2001:db8::1", "2001:db8::2", 7, 9, 500), 2},
            {Ipv4UdpPacket("10.1.5.1", "10.1.6.1", 49153, 6000, 200), 3},
            {Ipv4UdpPacket("10.1.0.1", "10.1.4.1", 49154, 5002, 1000), 1},
            {Create<NonIpItem>(100), noMatch},
            {Ipv6UdpPacket("2001:db8::1", "2001:db8::2", 7, 9, 100), 2},
        };
        for (std::size_t k = 0; k < packets.size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(filter->Classify(packets[k].first),
                                  packets[k].second,
                                  "class of packet " << k);
        }
        NS_TEST_ASSERT_MSG_EQ(filter->GetFlowCount(), 4, "four flows");

        auto pairs = CreateObject<FlowIndexPacketFilter>();
        pairs->SetAttribute("Mask", StringValue("AddressPair"));
        NS_TEST_ASSERT_MSG_EQ(pairs->Classify(packets[0].first), 0, "first pair");
        NS_TEST_ASSERT_MSG_EQ(pairs->Classify(packets[1].first), 0, "same pair, other ports");
        NS_TEST_ASSERT_MSG_EQ(pairs->Classify(packets[4].first), 1, "second pair");
        NS_TEST_ASSERT_MSG_EQ(pairs->GetFlowCount(), 2, "two address pairs");

        // In a DRR with as many buckets as flows, the filter's classes are the buckets.
        auto drr = MakeQueueDisc<DrrQueueDisc>({{"Buckets", "4"}, {"MaxSize", "100000B"}});
        drr->AddPacketFilter(CreateObject<FlowIndexPacketFilter>());
        for (const auto& [item, expected] : packets)
        {
            if (expected != noMatch)
            {
                NS_TEST_ASSERT_MSG_EQ(drr->GetBucket(item),
                                      static_cast<uint32_t>(expected),
                                      "DRR bucket = filter class");
            }
        }
    }
};

/**
 * \ingroup qdisc-lab-tests
 * The parking-lot scenario helper and the flow-index packet filter.
 */
class ParkingLotScenarioTestSuite : public TestSuite
{
  public:
    ParkingLotScenarioTestSuite()
        : TestSuite("qdisc-lab-parking-lot-scenario")
    {
        AddTestCase(new ParkingLotTopologyTestCase);
        AddTestCase(new ParkingLotRoutesTestCase);
        AddTestCase(new ParkingLotThreeHopsTestCase);
        AddTestCase(new FlowIndexPacketFilterTestCase);
    }
};

/// The suite's one instance, registered with ns-3's test runner.
static ParkingLotScenarioTestSuite g_parkingLotScenarioTestSuite;
