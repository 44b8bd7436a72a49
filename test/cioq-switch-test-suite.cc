/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/cioq-switch-helper.h"
#include "ns3/cioq-switch-net-device.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/qdisc-lab-compat.h"
#include "ns3/queue-size.h"
#include "ns3/queue.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <map>
#include <vector>

using namespace ns3;

/**
 * \defgroup qdisc-lab-tests Tests of qdisc-lab
 * \ingroup qdisc-lab
 */

namespace
{

/// Line rate of the test switches.
const DataRate LINE_RATE("10Mbps");
/// IPv4 packet size of the fixed-size tests, bytes.
constexpr uint32_t PACKET_BYTES = 1000;
/// Line time of one such packet (with its 2-byte PPP header).
const Time SLOT = LINE_RATE.CalculateBytesTxTime(PACKET_BYTES + 2);

/**
 * A CIOQ switch whose hosts have no IP stack: host k sends raw IPv4 packets, addressed to
 * AddressOf(d), straight into its device (back to back at line rate); the switch forwards by a
 * static IPv4 port map; every host counts what it receives.
 */
class RawStar
{
  public:
    /**
     * \param ports N
     * \param helper the configured helper (switch attributes, output queue discs)
     */
    RawStar(uint32_t ports, CioqSwitchHelper helper)
        : received(ports, 0),
          receivedBytes(ports, 0)
    {
        hosts.Create(ports);
        helper.SetLineRate(LINE_RATE);
        helper.SetLinkDelay(MicroSeconds(10));
        star = helper.InstallStar(CreateObject<Node>(), hosts);
        sw = star.device;
        for (uint32_t k = 0; k < ports; ++k)
        {
            sw->AddStaticRoute(AddressOf(k), k);
            // Hosts queue what they send in their device, which then sends back to back.
            DynamicCast<PointToPointNetDevice>(star.hostDevices.Get(k))
                ->GetQueue()
                ->SetMaxSize(QueueSize("1000000p"));
            hosts.Get(k)->RegisterProtocolHandler(MakeCallback(&RawStar::Receive, this).Bind(k),
                                                  0,
                                                  star.hostDevices.Get(k),
                                                  false);
        }
    }

    /**
     * \param k a host
     * \return its IPv4 address
     */
    static Ipv4Address AddressOf(uint32_t k)
    {
        return Ipv4Address(0x0a000001 + k);
    }

    /**
     * Queue one packet at host \p from for host \p to (sent when its device gets to it).
     * \param from the sender
     * \param to the receiver
     * \param bytes IPv4 size
     */
    void Send(uint32_t from, uint32_t to, uint32_t bytes)
    {
        Ptr<Packet> packet = Create<Packet>(bytes - 20);
        Ipv4Header header;
        header.SetSource(AddressOf(from));
        header.SetDestination(AddressOf(to));
        header.SetProtocol(17);
        header.SetPayloadSize(bytes - 20);
        header.SetTtl(64);
        packet->AddHeader(header);
        Ptr<NetDevice> device = star.hostDevices.Get(from);
        device->Send(packet, device->GetBroadcast(), 0x0800);
        ++sent;
    }

    NodeContainer hosts;                 //!< the hosts
    CioqSwitchHelper::Star star;         //!< the switch and links
    Ptr<CioqSwitchNetDevice> sw;         //!< the switch
    std::vector<uint64_t> received;      //!< packets received per host
    std::vector<uint64_t> receivedBytes; //!< bytes received per host
    uint64_t sent = 0;                   //!< packets sent by all hosts
    uint64_t misdelivered = 0;           //!< packets received by the wrong host

  private:
    /**
     * Protocol handler of host k.
     * \param k the host (bound)
     * \param device its device
     * \param packet the packet
     * \param protocol protocol number
     * \param from source
     * \param to destination
     * \param type packet type
     */
    void Receive(uint32_t k,
                 Ptr<NetDevice> device,
                 Ptr<const Packet> packet,
                 uint16_t protocol,
                 const Address& from,
                 const Address& to,
                 NetDevice::PacketType type)
    {
        Ipv4Header header;
        packet->PeekHeader(header);
        if (header.GetDestination() != AddressOf(k))
        {
            ++misdelivered;
        }
        ++received[k];
        receivedBytes[k] += packet->GetSize();
    }
};

/**
 * A helper configured for the tests.
 * \param fabric FabricModel
 * \param queueing InputQueueing
 * \param speedup Speedup
 * \return the helper
 */
CioqSwitchHelper
MakeHelper(const std::string& fabric, const std::string& queueing, double speedup)
{
    CioqSwitchHelper helper;
    helper.SetDeviceAttribute("FabricModel", StringValue(fabric));
    helper.SetDeviceAttribute("InputQueueing", StringValue(queueing));
    helper.SetDeviceAttribute("Speedup", DoubleValue(speedup));
    return helper;
}

/**
 * Saturated uniform i.i.d. traffic through a 2N-port switch: hosts 0..N-1 send back to back,
 * each packet to one of hosts N..2N-1 drawn uniformly, so ports N..2N-1 form the N outputs of
 * the classic N x N switch (Karol et al.'s model: an input may send to any output).
 * \param n N
 * \param fabric FabricModel
 * \param queueing InputQueueing
 * \param slots packets each input sends (the run lasts that many line times)
 * \param inputBuffer InputBufferSize
 * \return throughput per output, as a fraction of the line rate
 */
double
SaturationThroughput(uint32_t n,
                     const std::string& fabric,
                     const std::string& queueing,
                     uint32_t slots,
                     const std::string& inputBuffer = "20p")
{
    CioqSwitchHelper helper = MakeHelper(fabric, queueing, 1.0);
    helper.SetDeviceAttribute("InputBufferSize", StringValue(inputBuffer));
    helper.SetOutputQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue("1000p"));
    RawStar raw(2 * n, helper);
    Ptr<UniformRandomVariable> destination = CreateObject<UniformRandomVariable>();
    destination->SetStream(7);
    for (uint32_t slot = 0; slot < slots; ++slot)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            raw.Send(i, n + destination->GetInteger(0, n - 1), PACKET_BYTES);
        }
    }
    // Count what the outputs deliver between a warm-up and the end of the sources' traffic.
    const uint32_t warmup = slots / 10;
    uint64_t atWarmup = 0;
    qdisclab::Schedule(SLOT * warmup, [&]() {
        for (uint32_t j = n; j < 2 * n; ++j)
        {
            atWarmup += raw.received[j];
        }
    });
    Simulator::Stop(SLOT * slots);
    Simulator::Run();
    uint64_t atEnd = 0;
    for (uint32_t j = n; j < 2 * n; ++j)
    {
        atEnd += raw.received[j];
    }
    Simulator::Destroy();
    return static_cast<double>(atEnd - atWarmup) / (static_cast<double>(n) * (slots - warmup));
}

} // namespace

/**
 * \ingroup qdisc-lab-tests
 * Head-of-line blocking: one FIFO per input saturates at Karol, Hluchyj and Morgan's bound
 * (0.75 for N = 2, 0.6553 for N = 4, 0.6184 for N = 8, 2 - sqrt(2) = 0.586 as N grows), while
 * VOQs with iSLIP carry nearly the full load.
 */
class CioqHolSaturationTestCase : public TestCase
{
  public:
    CioqHolSaturationTestCase()
        : TestCase("Saturation throughput: FIFO inputs at the HOL bound, VOQ + iSLIP near 100%")
    {
    }

  private:
    void DoRun() override
    {
        const double fifo2 = SaturationThroughput(2, "Islip", "Fifo", 20000);
        const double fifo4 = SaturationThroughput(4, "Islip", "Fifo", 20000);
        const double fifo8 = SaturationThroughput(8, "Islip", "Fifo", 10000);
        const double fifo32 = SaturationThroughput(32, "Islip", "Fifo", 3000);
        const double voq8 = SaturationThroughput(8, "Islip", "Voq", 10000, "1000p");
        const double voq8small = SaturationThroughput(8, "Islip", "Voq", 10000);
        std::clog << "HOL saturation: N=2 " << fifo2 << ", N=4 " << fifo4 << ", N=8 " << fifo8
                  << ", N=32 " << fifo32 << "; VOQ+iSLIP N=8 " << voq8
                  << " (20p inputs: " << voq8small << ")" << std::endl;
        NS_TEST_EXPECT_MSG_EQ_TOL(fifo2, 0.75, 0.01, "N = 2 FIFO saturation throughput");
        NS_TEST_EXPECT_MSG_EQ_TOL(fifo4, 0.6553, 0.01, "N = 4 FIFO saturation throughput");
        NS_TEST_EXPECT_MSG_EQ_TOL(fifo8, 0.6184, 0.01, "N = 8 FIFO saturation throughput");
        NS_TEST_EXPECT_MSG_EQ_TOL(fifo32, 0.5858, 0.02, "large-N FIFO saturation throughput");
        // Load exactly 1 keeps the VOQs critically loaded, so some are empty now and then.
        NS_TEST_EXPECT_MSG_GT(voq8, 0.97, "VOQ + iSLIP carries (nearly) the full load");
        NS_TEST_EXPECT_MSG_GT(voq8small, 0.92, "also with 20-packet input buffers");
    }
};

/**
 * \ingroup qdisc-lab-tests
 * Conservation at every place, and the input backlog the switch reports against an independent
 * count: random sizes and destinations at full load from every input (so inputs and outputs
 * both overflow), checked every few line times and after the switch has drained.
 */
class CioqConservationTestCase : public TestCase
{
  public:
    /**
     * \param fabric FabricModel
     * \param queueing InputQueueing
     * \param outputFull OutputFull
     * \param speedup Speedup
     */
    CioqConservationTestCase(std::string fabric,
                             std::string queueing,
                             std::string outputFull,
                             double speedup)
        : TestCase("Conservation and reported backlog: " + fabric + ", " + queueing + ", " +
                   outputFull + ", s = " + std::to_string(speedup)),
          m_fabric(fabric),
          m_queueing(queueing),
          m_outputFull(outputFull),
          m_speedup(speedup)
    {
    }

  private:
    static constexpr uint32_t N = 5; //!< ports

    void DoRun() override
    {
        CioqSwitchHelper helper = MakeHelper(m_fabric, m_queueing, m_speedup);
        helper.SetDeviceAttribute("OutputFull", StringValue(m_outputFull));
        helper.SetDeviceAttribute("InputBufferSize", StringValue("12p"));
        helper.SetOutputQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue("8p"));
        RawStar raw(N, helper);
        m_raw = &raw;
        m_voq.assign(N * N, 0);
        m_voqBytes.assign(N * N, 0);

        // The independent count: arrivals at the port devices, less input drops and transfers.
        for (uint32_t i = 0; i < N; ++i)
        {
            raw.star.ports.Get(i)->TraceConnectWithoutContext(
                "MacRx",
                MakeCallback(&CioqConservationTestCase::Arrived, this).Bind(i));
        }
        raw.sw->TraceConnectWithoutContext(
            "InputDrop",
            MakeCallback(&CioqConservationTestCase::InputDropped, this));
        raw.sw->TraceConnectWithoutContext(
            "Transfer",
            MakeCallback(&CioqConservationTestCase::Transferred, this));

        Ptr<UniformRandomVariable> random = CreateObject<UniformRandomVariable>();
        random->SetStream(11);
        const uint32_t packets = 400;
        for (uint32_t k = 0; k < packets; ++k)
        {
            for (uint32_t i = 0; i < N; ++i)
            {
                // Skewed destinations so that some outputs are oversubscribed.
                uint32_t to = (random->GetValue() < 0.4) ? 0 : random->GetInteger(0, N - 1);
                to = (to == i) ? (i + 1) % N : to;
                raw.Send(i, to, random->GetInteger(64, 1500));
            }
        }
        for (uint32_t t = 1; t < 300; ++t)
        {
            Simulator::Schedule(SLOT * (t * 1.37), &CioqConservationTestCase::Check, this, false);
        }
        Simulator::Stop(Seconds(5));
        Simulator::Run();
        Check(true);
        Simulator::Destroy();
    }

    /**
     * A frame arrived at port i.
     * \param i the port (bound)
     * \param frame the frame, with its PPP header
     */
    void Arrived(uint32_t i, Ptr<const Packet> frame)
    {
        Ptr<Packet> copy = frame->Copy();
        copy->RemoveAtStart(2); // PPP header
        Ipv4Header header;
        copy->PeekHeader(header);
        const uint32_t j = header.GetDestination().Get() - RawStar::AddressOf(0).Get();
        ++m_voq[i * N + j];
        m_voqBytes[i * N + j] += copy->GetSize();
    }

    /**
     * Trace sink: an input dropped a copy.
     * \param item the copy
     * \param i the input
     * \param reason why
     */
    void InputDropped(Ptr<const QueueDiscItem> item, uint32_t i, const char* reason)
    {
        const auto ip = DynamicCast<const Ipv4QueueDiscItem>(item);
        const uint32_t j = ip->GetHeader().GetDestination().Get() - RawStar::AddressOf(0).Get();
        --m_voq[i * N + j];
        m_voqBytes[i * N + j] -= item->GetSize();
        ++m_inputDrops;
    }

    /**
     * Trace sink: a transfer started.
     * \param item the packet
     * \param i its input
     * \param j its output
     * \param waited time in its VOQ
     */
    void Transferred(Ptr<const QueueDiscItem> item, uint32_t i, uint32_t j, Time waited)
    {
        --m_voq[i * N + j];
        m_voqBytes[i * N + j] -= item->GetSize();
    }

    /**
     * Check every conservation law and the reported backlog.
     * \param end whether the run is over (everything drained)
     */
    void Check(bool end)
    {
        Ptr<CioqSwitchNetDevice> sw = m_raw->sw;
        uint64_t inFabric = 0;
        uint64_t dropped = 0;
        uint64_t delivered = 0;
        for (uint32_t i = 0; i < N; ++i)
        {
            const auto& st = sw->GetPortStats(i);
            NS_TEST_ASSERT_MSG_EQ(st.framesReceived,
                                  st.fabricDrops + st.inputDrops + st.voqEnqueued,
                                  "input " << i << ": received = dropped + admitted");
            NS_TEST_ASSERT_MSG_EQ(st.voqEnqueued,
                                  st.transfersStarted + sw->GetInputPackets(i),
                                  "input " << i << ": admitted = transferred + waiting");
            inFabric += st.transfersStarted - st.switchedIn;
            dropped += st.fabricDrops + st.inputDrops + st.outputDrops;
            delivered += m_raw->received[i];

            const QueueDisc::Stats qs = sw->GetOutputQueueDisc(i)->GetStats();
            NS_TEST_ASSERT_MSG_EQ(st.switchedOut, qs.nTotalReceivedPackets, "output " << i);
            NS_TEST_ASSERT_MSG_EQ(qs.nTotalReceivedPackets,
                                  qs.nTotalDroppedPackets + qs.nTotalSentPackets +
                                      sw->GetOutputQueueDisc(i)->GetNPackets(),
                                  "output " << i << ": received = dropped + sent + queued");
            NS_TEST_ASSERT_MSG_EQ(st.outputDrops, qs.nTotalDroppedPackets, "output " << i);
            NS_TEST_ASSERT_MSG_EQ(st.sent, qs.nTotalSentPackets, "output " << i);
            NS_TEST_ASSERT_MSG_GT_OR_EQ(st.sent, m_raw->received[i], "output " << i);
            NS_TEST_ASSERT_MSG_LT_OR_EQ(st.sent, m_raw->received[i] + 3, "output " << i);
            if (m_outputFull == "Backpressure")
            {
                NS_TEST_ASSERT_MSG_EQ(qs.nTotalDroppedPackets, 0, "backpressure: no output drop");
            }

            // The reported backlog against the independent count.
            uint32_t packets = 0;
            uint64_t bytes = 0;
            uint32_t reported = 0;
            for (uint32_t k = 0; k < N; ++k)
            {
                packets += m_voq[k * N + i];
                bytes += m_voqBytes[k * N + i];
                reported += sw->GetVoqPackets(k, i);
                NS_TEST_ASSERT_MSG_EQ(sw->GetVoqPackets(k, i), m_voq[k * N + i], "VOQ");
            }
            NS_TEST_ASSERT_MSG_EQ(sw->GetInputBacklog(i)->GetPackets(), packets, "backlog");
            NS_TEST_ASSERT_MSG_EQ(sw->GetInputBacklog(i)->GetBytes(), bytes, "backlog bytes");
            NS_TEST_ASSERT_MSG_EQ(reported, packets, "backlog");
        }
        NS_TEST_ASSERT_MSG_EQ(inFabric, sw->GetPacketsInFabric(), "in the fabric");
        NS_TEST_ASSERT_MSG_EQ(m_raw->misdelivered, 0, "every packet reaches its host");
        if (end)
        {
            NS_TEST_ASSERT_MSG_EQ(m_raw->sent, delivered + dropped, "sent = delivered + dropped");
            NS_TEST_ASSERT_MSG_EQ(sw->GetPacketsInFabric(), 0, "drained");
            NS_TEST_ASSERT_MSG_GT(m_inputDrops, 0, "the inputs overflowed");
            NS_TEST_ASSERT_MSG_GT(delivered, 0, "packets got through");
            if (m_outputFull == "Drop" && m_speedup > 1 &&
                !(m_fabric == "Paper" && m_queueing == "Fifo"))
            {
                // At s = 1 an output receives at most its line rate, so it never overflows;
                // nor does it when each Paper FIFO input sends one packet at a time at s/N.
                NS_TEST_ASSERT_MSG_GT(dropped, m_inputDrops, "the outputs overflowed too");
            }
        }
    }

    std::string m_fabric;            //!< FabricModel
    std::string m_queueing;          //!< InputQueueing
    std::string m_outputFull;        //!< OutputFull
    double m_speedup;                //!< Speedup
    RawStar* m_raw = nullptr;        //!< the scenario
    std::vector<int64_t> m_voq;      //!< independent VOQ(i, j) packets
    std::vector<int64_t> m_voqBytes; //!< independent VOQ(i, j) bytes
    uint64_t m_inputDrops = 0;       //!< input drops seen
};

/**
 * \ingroup qdisc-lab-tests
 * With speedup N the switch is output queued: under full uniform load with equal packets, the
 * Paper fabric never keeps a packet waiting at an input, and every packet reaches its output
 * queue exactly one packet time (one transfer at line rate) after it arrived; the Islip
 * fabric's crossbar, one packet per output per N-times-faster transfer, keeps each packet at
 * its input for less than one packet time; no input ever drops.
 */
class CioqSpeedupNTestCase : public TestCase
{
  public:
    /**
     * \param fabric FabricModel
     */
    explicit CioqSpeedupNTestCase(std::string fabric)
        : TestCase("Speedup N is output queued: " + fabric),
          m_fabric(fabric)
    {
    }

  private:
    static constexpr uint32_t N = 4; //!< ports

    void DoRun() override
    {
        CioqSwitchHelper helper = MakeHelper(m_fabric, "Voq", N);
        RawStar raw(N, helper);
        for (uint32_t i = 0; i < N; ++i)
        {
            raw.star.ports.Get(i)->TraceConnectWithoutContext(
                "MacRx",
                MakeCallback(&CioqSpeedupNTestCase::Arrived, this));
        }
        raw.sw->TraceConnectWithoutContext("Switched",
                                           MakeCallback(&CioqSpeedupNTestCase::Switched, this));
        Ptr<UniformRandomVariable> random = CreateObject<UniformRandomVariable>();
        random->SetStream(3);
        for (uint32_t k = 0; k < 2000; ++k)
        {
            for (uint32_t i = 0; i < N; ++i)
            {
                raw.Send(i, (i + random->GetInteger(1, N - 1)) % N, PACKET_BYTES);
            }
        }
        Simulator::Run();
        uint64_t switched = 0;
        for (uint32_t i = 0; i < N; ++i)
        {
            const auto& st = raw.sw->GetPortStats(i);
            NS_TEST_ASSERT_MSG_EQ(st.inputDrops, 0, "no input drop at input " << i);
            NS_TEST_ASSERT_MSG_EQ(st.switchedIn, 2000, "every packet crosses");
            switched += st.switchedIn;
            if (m_fabric == "Paper")
            {
                NS_TEST_ASSERT_MSG_EQ(st.voqWaitMax, Time(0), "no wait at input " << i);
                NS_TEST_ASSERT_MSG_EQ(raw.sw->GetAverageInputPackets(i), 0.0, "empty input");
            }
            else
            {
                NS_TEST_ASSERT_MSG_LT(st.voqWaitMax, SLOT, "wait < one packet time");
                NS_TEST_ASSERT_MSG_LT(raw.sw->GetAverageInputPackets(i), 1.0, "input side");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(m_transits.size(), switched, "every transit measured");
        const Time transfer = LINE_RATE.CalculateBytesTxTime(PACKET_BYTES + 2);
        for (const Time& transit : m_transits)
        {
            if (m_fabric == "Paper")
            {
                NS_TEST_ASSERT_MSG_EQ(transit, transfer, "one transfer at line rate, no wait");
            }
            else
            {
                NS_TEST_ASSERT_MSG_LT_OR_EQ(transit, transfer, "at most one packet time");
            }
        }
        Simulator::Destroy();
    }

    /**
     * A frame arrived at a port.
     * \param frame the frame
     */
    void Arrived(Ptr<const Packet> frame)
    {
        m_arrival[frame->GetUid()] = Simulator::Now();
    }

    /**
     * A packet reached its output queue disc.
     * \param item the packet
     * \param i its input
     * \param j its output
     */
    void Switched(Ptr<const QueueDiscItem> item, uint32_t i, uint32_t j)
    {
        m_transits.push_back(Simulator::Now() - m_arrival.at(item->GetPacket()->GetUid()));
    }

    std::string m_fabric;               //!< FabricModel
    std::map<uint64_t, Time> m_arrival; //!< arrival time by packet uid
    std::vector<Time> m_transits;       //!< arrival to output queue, per packet
};

/**
 * \ingroup qdisc-lab-tests
 * Forwarding with IP hosts. CSMA ports and MAC learning: ARP is flooded, then unicast goes to
 * the learned port only. Point-to-point ports and the static IPv4 map: datagrams reach their
 * host, and a destination in no port's map is dropped in the fabric as NO_ROUTE.
 */
class CioqForwardingTestCase : public TestCase
{
  public:
    /**
     * \param csma CSMA ports with learning, or point-to-point with the static map
     */
    explicit CioqForwardingTestCase(bool csma)
        : TestCase(csma ? "MAC learning over CSMA ports" : "Static IPv4 map over p2p ports"),
          m_csma(csma)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 4;
        NodeContainer hosts;
        hosts.Create(n);
        InternetStackHelper().Install(hosts);
        CioqSwitchHelper helper;
        helper.SetPortType(m_csma ? CioqSwitchHelper::CSMA : CioqSwitchHelper::POINT_TO_POINT);
        CioqSwitchHelper::Star star = helper.InstallStar(CreateObject<Node>(), hosts);
        Ipv4AddressHelper addresses("10.1.0.0", "255.255.255.0");
        Ipv4InterfaceContainer interfaces = helper.AssignIpv4(star, addresses);

        std::vector<uint32_t> received(n, 0);
        std::vector<Ptr<Socket>> sockets;
        for (uint32_t k = 0; k < n; ++k)
        {
            Ptr<Socket> sink = Socket::CreateSocket(hosts.Get(k), UdpSocketFactory::GetTypeId());
            sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
            sink->SetRecvCallback(qdisclab::MakeFunctorCallback([&received, k](Ptr<Socket> socket) {
                while (socket->Recv())
                {
                    ++received[k];
                }
            }));
            sockets.push_back(sink);
        }
        // 0 -> 2 and 3 -> 1, 10 datagrams each; 0 -> an address no host has, 5 datagrams.
        auto sendFrom = [&](uint32_t from, Ipv4Address to, uint32_t count) {
            Ptr<Socket> s = Socket::CreateSocket(hosts.Get(from), UdpSocketFactory::GetTypeId());
            s->Connect(InetSocketAddress(to, 9));
            for (uint32_t c = 0; c < count; ++c)
            {
                qdisclab::Schedule(MilliSeconds(100 + 50 * c),
                                   [s]() { s->Send(Create<Packet>(500)); });
            }
            sockets.push_back(s);
        };
        sendFrom(0, interfaces.GetAddress(2), 10);
        sendFrom(3, interfaces.GetAddress(1), 10);
        sendFrom(0, Ipv4Address("10.1.0.200"), m_csma ? 0 : 5);
        Simulator::Stop(Seconds(3));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(received[2], 10, "0 -> 2");
        NS_TEST_ASSERT_MSG_EQ(received[1], 10, "3 -> 1");
        NS_TEST_ASSERT_MSG_EQ(received[0] + received[3], 0, "nothing else");
        const auto& in0 = star.device->GetPortStats(0);
        if (m_csma)
        {
            // Host 0: one ARP request flooded to 3 ports, then 10 datagrams to port 2 only.
            NS_TEST_ASSERT_MSG_EQ(in0.framesReceived, 11, "ARP request + 10 datagrams");
            NS_TEST_ASSERT_MSG_EQ(in0.voqEnqueued, 3 + 10, "flooded once, then learned");
            NS_TEST_ASSERT_MSG_EQ(in0.localDeliveries, 1, "the broadcast also goes up");
            NS_TEST_ASSERT_MSG_EQ(star.device->GetPortStats(2).switchedOut,
                                  2 + 10,
                                  "port 2: both ARP requests and the datagrams");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(in0.framesReceived, 15, "no ARP on point-to-point");
            NS_TEST_ASSERT_MSG_EQ(in0.voqEnqueued, 10, "one copy each, to port 2");
            NS_TEST_ASSERT_MSG_EQ(in0.fabricDrops, 5, "unknown destination: NO_ROUTE");
            NS_TEST_ASSERT_MSG_EQ(star.device->GetPortStats(2).switchedOut, 10, "port 2");
        }
        Simulator::Destroy();
    }

    bool m_csma; //!< CSMA + learning, or p2p + static
};

/**
 * \ingroup qdisc-lab-tests
 * The switch's test suite.
 */
class CioqSwitchTestSuite : public TestSuite
{
  public:
    CioqSwitchTestSuite()
        : TestSuite("qdisc-lab-cioq-switch")
    {
        AddTestCase(new CioqHolSaturationTestCase());
        for (const std::string fabric : {"Paper", "Islip"})
        {
            AddTestCase(new CioqSpeedupNTestCase(fabric));
            for (const std::string queueing : {"Voq", "Fifo"})
            {
                for (const std::string full : {"Drop", "Backpressure"})
                {
                    for (const double speedup : {1.0, 1.7})
                    {
                        AddTestCase(new CioqConservationTestCase(fabric, queueing, full, speedup));
                    }
                }
            }
        }
        AddTestCase(new CioqForwardingTestCase(false));
        AddTestCase(new CioqForwardingTestCase(true));
    }
};

/// Registers the suite.
static CioqSwitchTestSuite g_cioqSwitchTestSuite;
