/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qdisc-lab-test-scenario.h"
#include "qdisc-lab-test-sockets.h"

#include "ns3/dumbbell-scenario.h"
#include "ns3/experiment-params.h"
#include "ns3/fifo-queue-disc.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/red-queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/test.h"

#include <vector>

using namespace ns3;

namespace
{

using qdisclab::test::Arrival;
using qdisclab::test::InstallSink;
using qdisclab::test::QueueDiscMismatch;
using qdisclab::test::RoutingMismatch;
using qdisclab::test::ScheduleBurst;

} // namespace

/**
 * \ingroup qdisc-lab-tests
 * Every pair of the dumbbell is connected, addressed as documented, and one packet's one-way
 * delay is exactly the sum of the three links' transmission and propagation times. The three
 * packets are nine packet-hops (ExperimentParams::CountPacketHops).
 */
class DumbbellOneWayDelayTestCase : public TestCase
{
  public:
    DumbbellOneWayDelayTestCase()
        : TestCase("one packet per pair: addresses and exact one-way delay")
    {
    }

  private:
    void DoRun() override
    {
        DumbbellScenario scenario;
        scenario.SetLeafCount(3);
        scenario.SetAccessLink(DataRate("100Mbps"), MilliSeconds(1));
        scenario.SetBottleneckLink(DataRate("1Mbps"), MilliSeconds(10));
        scenario.Build();

        std::vector<std::vector<Arrival>> arrivals(3);
        std::vector<Ptr<Socket>> sockets;
        for (uint32_t i = 0; i < 3; ++i)
        {
            sockets.push_back(InstallSink(scenario.GetRight(i), 9, &arrivals[i]));
            sockets.push_back(ScheduleBurst(scenario.GetLeft(i),
                                            InetSocketAddress(scenario.GetRightAddress(i), 9),
                                            Seconds(1 + i),
                                            1,
                                            1000));
        }
        Simulator::Run();

        // 1000 B payload + 8 B UDP + 20 B IPv4 + 2 B PPP = 1030 B on every link.
        const double wireBits = 1030 * 8;
        const Time expected = Seconds(2 * wireBits / 100e6 + wireBits / 1e6) + MilliSeconds(12);
        NS_TEST_ASSERT_MSG_EQ(expected, MicroSeconds(20404) + NanoSeconds(800), "hand sum");
        for (uint32_t i = 0; i < 3; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(arrivals[i].size(), 1, "pair " << i << " gets its one packet");
            NS_TEST_ASSERT_MSG_EQ(arrivals[i][0].bytes, 1000, "payload size");
            std::ostringstream left;
            left << "10.1." << i + 1 << ".1";
            NS_TEST_ASSERT_MSG_EQ(arrivals[i][0].from, Ipv4Address(left.str().c_str()), "source");
            // The sender's access device is on the sender and carries its address.
            Ptr<NetDevice> device = scenario.GetLeftDevice(i);
            NS_TEST_ASSERT_MSG_EQ(device->GetNode(), scenario.GetLeft(i), "device's node");
            Ptr<Ipv4> ipv4 = scenario.GetLeft(i)->GetObject<Ipv4>();
            const int32_t interface = ipv4->GetInterfaceForDevice(device);
            NS_TEST_ASSERT_MSG_GT(interface, 0, "the device has an IPv4 interface");
            NS_TEST_ASSERT_MSG_EQ(ipv4->GetAddress(interface, 0).GetLocal(),
                                  scenario.GetLeftAddress(i),
                                  "the access device holds the sender's address");
            std::ostringstream right;
            right << "10.3." << i + 1 << ".1";
            NS_TEST_ASSERT_MSG_EQ(scenario.GetRightAddress(i),
                                  Ipv4Address(right.str().c_str()),
                                  "receiver address");
            NS_TEST_ASSERT_MSG_EQ(arrivals[i][0].at - Seconds(1 + i), expected, "one-way delay");
        }
        NS_TEST_ASSERT_MSG_EQ(ExperimentParams::CountPacketHops(), 9, "3 packets x 3 links");
        Simulator::Destroy();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * A burst into a 10-packet FIFO at the bottleneck: one packet on the wire, one in the
 * one-packet device queue, ten in the queue disc; every other packet is dropped by the queue
 * disc and counted under FifoQueueDisc::LIMIT_EXCEEDED_DROP. The packet-hops count the 50 on the
 * access link and the 12 survivors' two more links, not the drops.
 */
class DumbbellBacklogInQueueDiscTestCase : public TestCase
{
  public:
    DumbbellBacklogInQueueDiscTestCase()
        : TestCase("a burst backs up in the bottleneck queue disc, not in the device")
    {
    }

  private:
    void DoRun() override
    {
        TrafficControlHelper tc;
        tc.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", QueueSizeValue(QueueSize("10p")));
        DumbbellScenario scenario;
        scenario.SetAccessLink(DataRate("100Mbps"), MilliSeconds(1));
        scenario.SetBottleneckLink(DataRate("1Mbps"), MilliSeconds(10));
        scenario.SetBottleneckQueueDisc(tc);
        scenario.Build();

        std::vector<Arrival> arrivals;
        Ptr<Socket> sink = InstallSink(scenario.GetRight(0), 9, &arrivals);
        Ptr<Socket> source = ScheduleBurst(scenario.GetLeft(0),
                                           InetSocketAddress(scenario.GetRightAddress(0), 9),
                                           Seconds(1),
                                           50,
                                           1000);
        Simulator::Run();

        Ptr<QueueDisc> qd = scenario.GetBottleneckQueueDisc();
        NS_TEST_ASSERT_MSG_EQ(qd->GetInstanceTypeId(), FifoQueueDisc::GetTypeId(), "queue disc");
        const QueueDisc::Stats& stats = qd->GetStats();
        NS_TEST_ASSERT_MSG_EQ(stats.nTotalReceivedPackets, 50, "every packet reaches the qdisc");
        NS_TEST_ASSERT_MSG_EQ(stats.GetNDroppedPackets(FifoQueueDisc::LIMIT_EXCEEDED_DROP),
                              38,
                              "50 - 1 on the wire - 1 in the device - 10 queued");
        NS_TEST_ASSERT_MSG_EQ(stats.nTotalDroppedPackets, 38, "no drop for any other reason");
        NS_TEST_ASSERT_MSG_EQ(arrivals.size(), 12, "the survivors arrive");
        NS_TEST_ASSERT_MSG_EQ(stats.nTotalSentPackets, 12, "conservation at the queue disc");
        // Back to back at the bottleneck: 8.24 ms apart.
        NS_TEST_ASSERT_MSG_EQ(arrivals[11].at - arrivals[10].at, MicroSeconds(8240), "spacing");
        NS_TEST_ASSERT_MSG_EQ(ExperimentParams::CountPacketHops(), 50 + 2 * 12, "hops, no drops");
        Simulator::Destroy();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * Only the bottleneck device has a queue disc, the one asked for: no FqCoDel from
 * Ipv4AddressHelper anywhere, every other device buffers in a device queue of FqCoDel's limit.
 * Every node routes with global routing first, and it alone reaches every host. A 200-packet
 * burst from a receiver back through the right router's bottleneck device (a one-packet
 * device queue before, under ns-3's FqCoDel) arrives whole.
 */
class DumbbellQueueDiscsAndRoutingTestCase : public TestCase
{
  public:
    DumbbellQueueDiscsAndRoutingTestCase()
        : TestCase("only the bottleneck has a queue disc; global routing first; reverse burst")
    {
    }

  private:
    void DoRun() override
    {
        TrafficControlHelper tc;
        tc.SetRootQueueDisc("ns3::RedQueueDisc");
        DumbbellScenario scenario;
        scenario.SetLeafCount(3);
        scenario.SetBottleneckQueueDisc(tc);
        scenario.Build();

        NS_TEST_ASSERT_MSG_EQ(
            QueueDiscMismatch({{scenario.GetBottleneckDevice(), RedQueueDisc::GetTypeId()}}),
            "",
            "queue discs");
        std::vector<Ipv4Address> hosts;
        for (uint32_t i = 0; i < 3; ++i)
        {
            hosts.push_back(scenario.GetLeftAddress(i));
            hosts.push_back(scenario.GetRightAddress(i));
        }
        NS_TEST_ASSERT_MSG_EQ(RoutingMismatch(hosts), "", "routing");

        std::vector<Arrival> arrivals;
        Ptr<Socket> sink = InstallSink(scenario.GetLeft(1), 9, &arrivals);
        Ptr<Socket> source = ScheduleBurst(scenario.GetRight(1),
                                           InetSocketAddress(scenario.GetLeftAddress(1), 9),
                                           Seconds(1),
                                           200,
                                           1000);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(arrivals.size(), 200, "no drop on the reverse bottleneck");
        NS_TEST_ASSERT_MSG_EQ(scenario.GetBottleneckQueueDisc()->GetStats().nTotalReceivedPackets,
                              0,
                              "the reverse burst does not pass the studied queue disc");
        Simulator::Destroy();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * The DumbbellScenario helper's test suite.
 */
class DumbbellScenarioTestSuite : public TestSuite
{
  public:
    DumbbellScenarioTestSuite()
        : TestSuite("qdisc-lab-dumbbell-scenario")
    {
        AddTestCase(new DumbbellOneWayDelayTestCase());
        AddTestCase(new DumbbellBacklogInQueueDiscTestCase());
        AddTestCase(new DumbbellQueueDiscsAndRoutingTestCase());
    }
};

/// Registers the suite.
static DumbbellScenarioTestSuite g_dumbbellScenarioTestSuite;
