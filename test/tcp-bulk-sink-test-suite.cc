/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/boolean.h"
#include "ns3/bulk-send-helper.h"
#include "ns3/config.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet-sink.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/qdisc-lab-compat.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-bulk-sink-helper.h"
#include "ns3/tcp-bulk-sink.h"
#include "ns3/test.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

using namespace ns3;

namespace
{

/// What one transfer through a lossy bottleneck looked like at the receiver.
struct Transfer
{
    std::vector<uint64_t> received; //!< the sink's byte count every 20 ms
    uint32_t acks = 0;              //!< packets the receiver sent (its ACKs)
    uint32_t reads = 0;             //!< Rx trace calls
    uint32_t largestRead = 0;       //!< largest Rx packet, bytes
};

/**
 * \ingroup qdisc-lab-tests
 * TcpBulkSink against ns-3's PacketSink: one bulk TCP transfer through a 2 Mb/s bottleneck
 * whose 8-packet FIFO drops, so retransmissions fill holes and whole windows become readable
 * at once. The connection must not tell the two sinks apart (the same bytes received at every
 * sample, the same ACKs); only the reads differ: at most one segment per read with TcpBulkSink,
 * many at once with PacketSink.
 */
class TcpBulkSinkTestCase : public TestCase
{
  public:
    TcpBulkSinkTestCase()
        : TestCase("TcpBulkSink: PacketSink's connection, one segment per read")
    {
    }

  private:
    static constexpr uint32_t SEGMENT = 536; //!< TcpSocket's default SegmentSize

    /**
     * \param bulk TcpBulkSink (else PacketSink)
     * \param readSize TcpBulkSink's ReadSize
     * \return the transfer, seen at the receiver
     */
    static Transfer Run(bool bulk, uint32_t readSize = 0)
    {
        Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(false));
        NodeContainer nodes;
        nodes.Create(2);
        PointToPointHelper link;
        link.SetDeviceAttribute("DataRate", StringValue("2Mbps"));
        link.SetChannelAttribute("Delay", StringValue("20ms"));
        NetDeviceContainer devices = link.Install(nodes);
        InternetStackHelper().Install(nodes);
        TrafficControlHelper fifo;
        fifo.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue("8p"));
        fifo.Install(devices.Get(0));
        Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
        Ipv4InterfaceContainer interfaces = addresses.Assign(devices);

        Transfer transfer;
        const InetSocketAddress local(Ipv4Address::GetAny(), 5000);
        std::function<uint64_t()> total;
        auto onRead = [&transfer](Ptr<const Packet> packet, const Address&) {
            ++transfer.reads;
            transfer.largestRead = std::max(transfer.largestRead, packet->GetSize());
        };
        if (bulk)
        {
            TcpBulkSinkHelper helper(local);
            helper.SetAttribute("ReadSize", UintegerValue(readSize));
            Ptr<TcpBulkSink> sink = DynamicCast<TcpBulkSink>(helper.Install(nodes.Get(1)).Get(0));
            sink->TraceConnectWithoutContext(
                "Rx",
                qdisclab::MakeFunctorCallback<Callback<void, Ptr<const Packet>, const Address&>>(
                    onRead));
            total = [sink] { return sink->GetTotalRx(); };
        }
        else
        {
            PacketSinkHelper helper("ns3::TcpSocketFactory", local);
            Ptr<PacketSink> sink = DynamicCast<PacketSink>(helper.Install(nodes.Get(1)).Get(0));
            sink->TraceConnectWithoutContext(
                "Rx",
                qdisclab::MakeFunctorCallback<Callback<void, Ptr<const Packet>, const Address&>>(
                    onRead));
            total = [sink] { return sink->GetTotalRx(); };
        }
        devices.Get(1)->TraceConnectWithoutContext(
            "MacTx",
            qdisclab::MakeFunctorCallback<Callback<void, Ptr<const Packet>>>(
                [&transfer](Ptr<const Packet>) { ++transfer.acks; }));
        BulkSendHelper source("ns3::TcpSocketFactory",
                              InetSocketAddress(interfaces.GetAddress(1), 5000));
        source.SetAttribute("MaxBytes", UintegerValue(400000));
        source.Install(nodes.Get(0)).Start(Seconds(0.1));
        for (int i = 1; i <= 250; ++i)
        {
            qdisclab::Schedule(MilliSeconds(20 * i),
                               [&transfer, &total] { transfer.received.push_back(total()); });
        }
        Simulator::Stop(Seconds(5.1));
        Simulator::Run();
        Simulator::Destroy();
        Config::Reset();
        return transfer;
    }

    void DoRun() override
    {
        const Transfer packetSink = Run(false);
        const Transfer bulkSink = Run(true);
        NS_TEST_ASSERT_MSG_EQ(packetSink.received.back(), 400000, "the whole transfer arrives");
        NS_TEST_ASSERT_MSG_GT(packetSink.largestRead,
                              4 * SEGMENT,
                              "retransmissions fill holes: PacketSink reads windows at once");
        NS_TEST_ASSERT_MSG_EQ((bulkSink.received == packetSink.received),
                              true,
                              "the same bytes at every sample");
        NS_TEST_ASSERT_MSG_EQ(bulkSink.acks, packetSink.acks, "the same ACKs");
        NS_TEST_ASSERT_MSG_EQ(bulkSink.largestRead, SEGMENT, "one segment per read");
        NS_TEST_ASSERT_MSG_GT(bulkSink.reads, packetSink.reads, "so more reads");

        const Transfer small = Run(true, 100);
        NS_TEST_ASSERT_MSG_EQ((small.received == packetSink.received), true, "ReadSize 100");
        NS_TEST_ASSERT_MSG_EQ(small.acks, packetSink.acks, "ReadSize 100: the same ACKs");
        NS_TEST_ASSERT_MSG_EQ(small.largestRead, 100, "ReadSize 100: 100 bytes at most");
    }
};

/**
 * \ingroup qdisc-lab-tests
 * TcpBulkSink's test suite.
 */
class TcpBulkSinkTestSuite : public TestSuite
{
  public:
    TcpBulkSinkTestSuite()
        : TestSuite("qdisc-lab-tcp-bulk-sink")
    {
        AddTestCase(new TcpBulkSinkTestCase());
    }
};

/// Registers the suite.
static TcpBulkSinkTestSuite g_tcpBulkSinkTestSuite;

} // namespace
