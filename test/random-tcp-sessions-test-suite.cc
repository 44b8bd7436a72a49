/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/cioq-switch-helper.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/qdisc-lab-compat.h"
#include "ns3/random-tcp-sessions.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-session-sink.h"
#include "ns3/tcp-session-source.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/test.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \ingroup qdisc-lab-tests
 * RandomTcpSessions::Draw: the paper's distributions, fixed streams and nested draws.
 */
class RandomTcpSessionsDrawTestCase : public TestCase
{
  public:
    RandomTcpSessionsDrawTestCase()
        : TestCase("Random sessions: hosts, starts and durations as drawn")
    {
    }

  private:
    /**
     * \param exclude whether a sink never has its source's index
     * \return a configured drawer (durations [3, 13] s, starts in [0, 100) s, end 100 s)
     */
    static RandomTcpSessions Drawer(bool exclude)
    {
        RandomTcpSessions drawer;
        drawer.SetDuration(Seconds(3), Seconds(13));
        drawer.SetStartWindow(Seconds(0), Seconds(100));
        drawer.SetEnd(Seconds(100));
        drawer.SetExcludeSameIndex(exclude);
        drawer.AssignStreams(7);
        return drawer;
    }

    void DoRun() override
    {
        const uint32_t hosts = 4;
        const uint32_t count = 8000;
        const auto sessions = Drawer(false).Draw(count, hosts, hosts);
        NS_TEST_ASSERT_MSG_EQ(sessions.size(), count, "every session starts before the end");
        std::vector<uint32_t> bySource(hosts, 0);
        std::vector<uint32_t> bySink(hosts, 0);
        uint32_t self = 0;
        uint32_t cut = 0;
        double startSum = 0;
        for (const auto& s : sessions)
        {
            NS_TEST_ASSERT_MSG_LT(s.source, hosts, "source index");
            NS_TEST_ASSERT_MSG_LT(s.sink, hosts, "sink index");
            NS_TEST_ASSERT_MSG_EQ((s.start.IsPositive() && s.start < Seconds(100)), true, "start");
            const Time duration = s.stop - s.start;
            if (s.stop == Seconds(100))
            {
                ++cut;
                NS_TEST_ASSERT_MSG_EQ((duration <= Seconds(13)), true, "cut at the end");
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ((duration >= Seconds(3) && duration <= Seconds(13)),
                                      true,
                                      "duration in [3, 13] s");
            }
            ++bySource[s.source];
            ++bySink[s.sink];
            self += s.source == s.sink;
            startSum += s.start.GetSeconds();
        }
        // Uniform choices: each count within 5 standard deviations of its mean.
        const double p = 1.0 / hosts;
        const double sigma = std::sqrt(count * p * (1 - p));
        for (uint32_t h = 0; h < hosts; ++h)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(bySource[h], count * p, 5 * sigma, "sources uniform");
            NS_TEST_ASSERT_MSG_EQ_TOL(bySink[h], count * p, 5 * sigma, "sinks uniform");
        }
        // Source and sink independent: the sink has the source's index 1/4 of the time.
        NS_TEST_ASSERT_MSG_EQ_TOL(self, count * p, 5 * sigma, "same index as likely as any");
        // Starts uniform in [0, 100): mean 50 s (sd of the mean 28.9 / sqrt(8000) = 0.32 s).
        NS_TEST_ASSERT_MSG_EQ_TOL(startSum / count, 50.0, 1.7, "starts uniform over the run");
        // A session starting in [87, 100) with a long draw is cut: about 6 % of them.
        NS_TEST_ASSERT_MSG_GT(cut, 0, "some sessions are cut at the end");
        NS_TEST_ASSERT_MSG_LT(cut, count / 10, "few sessions are cut at the end");

        // Fixed streams: the same draws again, and the first n of a larger draw are a
        // smaller draw (common random numbers across loads).
        const auto again = Drawer(false).Draw(800, hosts, hosts);
        for (uint32_t k = 0; k < again.size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(again[k].source, sessions[k].source, "same source " << k);
            NS_TEST_ASSERT_MSG_EQ(again[k].sink, sessions[k].sink, "same sink " << k);
            NS_TEST_ASSERT_MSG_EQ(again[k].start, sessions[k].start, "same start " << k);
            NS_TEST_ASSERT_MSG_EQ(again[k].stop, sessions[k].stop, "same stop " << k);
        }

        // With ExcludeSameIndex, the sink is uniform over the other indices.
        const auto others = Drawer(true).Draw(count, hosts, hosts);
        std::vector<uint32_t> otherSinks(hosts, 0);
        for (const auto& s : others)
        {
            NS_TEST_ASSERT_MSG_NE(s.source, s.sink, "never the source's index");
            ++otherSinks[s.sink];
        }
        for (uint32_t h = 0; h < hosts; ++h)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(otherSinks[h], count * p, 5 * sigma, "other sinks");
        }
    }
};

/**
 * \ingroup qdisc-lab-tests
 * TcpSessionSource and TcpSessionSink over one 1 Mb/s link: a session sends only between its
 * start and stop (a BulkSendApplication would send a whole send buffer after its stop), all it
 * wrote arrives, and both ends close.
 */
class TcpSessionOverLinkTestCase : public TestCase
{
  public:
    TcpSessionOverLinkTestCase()
        : TestCase("Timed TCP sessions: send from start to stop, then close")
    {
    }

  private:
    void DoRun() override
    {
        // Windows of 30 segments (and half a segment more: a window exactly filled by whole
        // segments crashes ns-3.37) into a 100-packet queue: no loss, so the link stays busy
        // while the sessions run, and at most 30 segments are in flight when one stops.
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1000));
        Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(30500));
        Config::SetDefault("ns3::TcpSocketBase::MaxSegLifetime", DoubleValue(1)); // TIME_WAIT 2 s
        NodeContainer nodes(2);
        InternetStackHelper().Install(nodes);
        PointToPointHelper link;
        link.SetDeviceAttribute("DataRate", StringValue("1Mbps"));
        link.SetChannelAttribute("Delay", StringValue("5ms"));
        link.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1p"));
        NetDeviceContainer devices = link.Install(nodes);
        TrafficControlHelper fifo;
        fifo.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue("100p"));
        fifo.Install(devices);
        Ipv4AddressHelper addresses("10.9.0.0", "255.255.255.0");
        Ipv4InterfaceContainer interfaces = addresses.Assign(devices);

        auto sink = CreateObject<TcpSessionSink>();
        sink->SetAttribute("Local", AddressValue(InetSocketAddress(Ipv4Address::GetAny(), 80)));
        nodes.Get(1)->AddApplication(sink);
        auto source = CreateObject<TcpSessionSource>();
        nodes.Get(0)->AddApplication(source);
        TcpSessionSource::Session session;
        session.start = Seconds(1);
        session.stop = Seconds(4);
        session.peer = InetSocketAddress(interfaces.GetAddress(1), 80);
        source->AddSession(session);
        session.start = Seconds(2);
        session.stop = Seconds(3);
        source->AddSession(session);
        source->SetStopTime(Seconds(20));

        Time first = Seconds(100);
        Time last;
        uint64_t beforeStop = 0;
        uint64_t afterStop = 0;
        sink->TraceConnectWithoutContext(
            "Rx",
            qdisclab::MakeFunctorCallback([&](Ptr<const Packet> packet, Ptr<const Socket>) {
                first = std::min(first, Simulator::Now());
                last = Simulator::Now();
                if (Simulator::Now() > Seconds(4))
                {
                    afterStop += packet->GetSize();
                }
                else
                {
                    beforeStop += packet->GetSize();
                }
            }));
        Simulator::Stop(Seconds(20));
        Simulator::Run();

        const TcpSessionSource::Counters& sent = source->GetCounters();
        const TcpSessionSink::Counters& received = sink->GetCounters();
        NS_TEST_ASSERT_MSG_EQ(source->GetNSessions(), 2, "two sessions");
        NS_TEST_ASSERT_MSG_EQ(sent.started, 2, "both start");
        NS_TEST_ASSERT_MSG_EQ(sent.connected, 2, "both connect");
        NS_TEST_ASSERT_MSG_EQ(sent.stopped, 2, "both stop");
        NS_TEST_ASSERT_MSG_EQ(sent.closed, 2, "both sockets close");
        NS_TEST_ASSERT_MSG_EQ(received.accepted, 2, "the sink accepts both");
        NS_TEST_ASSERT_MSG_EQ(received.closed, 2, "and closes both when their sources do");
        NS_TEST_ASSERT_MSG_EQ(received.bytesReceived, sent.bytesWritten, "all data arrives");
        NS_TEST_ASSERT_MSG_GT(first, Seconds(1), "nothing before the first start");
        // 3 s at 1 Mb/s: 3 x 125000 B less the headers (1042 B on the wire per 1000 B).
        const double capacity = 3 * 125000.0 * 1000 / 1042;
        NS_TEST_ASSERT_MSG_EQ(beforeStop + afterStop, received.bytesReceived, "Rx trace");
        NS_TEST_ASSERT_MSG_GT(beforeStop, 0.9 * capacity, "the link is filled");
        NS_TEST_ASSERT_MSG_LT(beforeStop, capacity, "no more than the link carries");
        // After the stop only what was in flight (at most 30 segments) and the 2 unsent ones.
        NS_TEST_ASSERT_MSG_LT(afterStop, (30 + 2 + 1) * 1000, "stopped at the stop");
        NS_TEST_ASSERT_MSG_LT(last, Seconds(4.5), "the last data soon after the stop");
        Simulator::Destroy();
        Config::Reset();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * RandomTcpSessions across a CIOQ switch with N sources on ports 0 .. N-1 and N sinks on ports
 * N .. 2N-1 (the CIOQ-RED evaluation's topology): every session connects, delivers all it wrote
 * and closes; data crosses the switch only from source ports to sink ports, including between
 * a source and the sink of the same index. With sink ports > 1 (SetSinkPorts), session k
 * reaches its sink on port 5000 + k mod ports, and every packet crosses the switch at the same
 * time, between the same ports, as with one sink port.
 */
class RandomTcpSessionsAcrossSwitchTestCase : public TestCase
{
  public:
    /// \param sinkPorts the sink ports the sessions spread over
    RandomTcpSessionsAcrossSwitchTestCase(uint32_t sinkPorts)
        : TestCase("Random sessions across a CIOQ switch, sources and sinks apart, " +
                   std::to_string(sinkPorts) + " sink port(s)"),
          m_sinkPorts(sinkPorts)
    {
    }

  private:
    /// A packet through the switch: time (ns), input port, output port, size.
    using Switched = std::tuple<int64_t, uint32_t, uint32_t, uint32_t>;

    void DoRun() override
    {
        std::vector<Switched> log;
        Run(m_sinkPorts, log);
        if (m_sinkPorts > 1)
        {
            std::vector<Switched> reference;
            Run(1, reference);
            NS_TEST_ASSERT_MSG_EQ(log.size(), reference.size(), "as many packets switched");
            NS_TEST_ASSERT_MSG_EQ((log == reference),
                                  true,
                                  "the same packets at the same times with one sink port");
        }
    }

    /**
     * Run the sessions over \p sinkPorts sink ports and check them.
     * \param sinkPorts the sink ports
     * \param log every packet through the switch
     */
    void Run(uint32_t sinkPorts, std::vector<Switched>& log)
    {
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1000));
        Config::SetDefault("ns3::TcpSocketBase::MaxSegLifetime", DoubleValue(1)); // TIME_WAIT 2 s
        const uint32_t n = 3;
        NodeContainer sources(n);
        NodeContainer sinks(n);
        NodeContainer hosts(sources, sinks);
        InternetStackHelper().Install(hosts);
        CioqSwitchHelper helper;
        // Buffers no session can fill: every SYN and segment gets through.
        helper.SetDeviceAttribute("Speedup", DoubleValue(2 * n));
        helper.SetDeviceAttribute("InputBufferSize", StringValue("1000p"));
        helper.SetOutputQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue("1000p"));
        CioqSwitchHelper::Star star = helper.InstallStar(CreateObject<Node>(), hosts);
        // FIFOs at the hosts, as in the CIOQ-RED evaluation: ns-3's default FqCoDel hashes the
        // ports into its flow queues, so other sink ports would schedule packets otherwise.
        TrafficControlHelper fifo;
        fifo.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue("1000p"));
        fifo.Install(star.hostDevices);
        Ipv4AddressHelper addresses("10.1.0.0", "255.255.0.0");
        Ipv4InterfaceContainer interfaces = helper.AssignIpv4(star, addresses);
        std::vector<Address> sinkAddresses;
        for (uint32_t k = 0; k < n; ++k)
        {
            sinkAddresses.emplace_back(interfaces.GetAddress(n + k));
        }

        RandomTcpSessions traffic;
        traffic.SetDuration(Seconds(1), Seconds(2));
        traffic.SetStartWindow(Seconds(0), Seconds(5));
        traffic.SetEnd(Seconds(10));
        traffic.AssignStreams(3);
        traffic.SetSinkPorts(sinkPorts);
        const auto sessions = traffic.Draw(12, n, n);
        traffic.Install(sessions, sources, sinks, sinkAddresses, 5000);
        uint32_t sameIndex = 0;
        for (const auto& s : sessions)
        {
            sameIndex += s.source == s.sink;
        }
        NS_TEST_ASSERT_MSG_GT(sameIndex, 0, "the draw pairs some source k with sink k");

        // Transfers by (input, output); acknowledgements come back the same way here.
        std::vector<uint32_t> data(n * n, 0);
        uint32_t acks = 0;
        uint32_t other = 0;
        star.device->TraceConnectWithoutContext(
            "Switched",
            qdisclab::MakeFunctorCallback([&](Ptr<const QueueDiscItem> item,
                                              uint32_t input,
                                              uint32_t output) {
                log.emplace_back(Simulator::Now().GetNanoSeconds(), input, output, item->GetSize());
                if (input < n && output >= n)
                {
                    ++data[input * n + output - n];
                }
                else if (input >= n && output < n)
                {
                    ++acks;
                }
                else
                {
                    ++other;
                }
            }));
        // The sinks' local port of every connection that delivers data.
        std::map<uint16_t, std::set<const Socket*>> byPort;
        for (const auto& sink : traffic.GetSinks())
        {
            sink->TraceConnectWithoutContext(
                "Rx",
                qdisclab::MakeFunctorCallback<Callback<void, Ptr<const Packet>, Ptr<const Socket>>>(
                    [&byPort](Ptr<const Packet>, Ptr<const Socket> socket) {
                        Address local;
                        socket->GetSockName(local);
                        byPort[InetSocketAddress::ConvertFrom(local).GetPort()].insert(
                            PeekPointer(socket));
                    }));
        }
        Simulator::Stop(Seconds(30));
        Simulator::Run();

        const TcpSessionSource::Counters sent = traffic.GetCounters();
        NS_TEST_ASSERT_MSG_EQ(sent.started, 12, "all start");
        NS_TEST_ASSERT_MSG_EQ(sent.connected, 12, "all connect");
        NS_TEST_ASSERT_MSG_EQ(sent.stopped, 12, "all stop");
        NS_TEST_ASSERT_MSG_EQ(sent.closed, 12, "all close");
        NS_TEST_ASSERT_MSG_EQ(traffic.GetTotalReceived(), sent.bytesWritten, "all arrive");
        uint32_t accepted = 0;
        for (const auto& sink : traffic.GetSinks())
        {
            accepted += sink->GetCounters().accepted;
        }
        NS_TEST_ASSERT_MSG_EQ(accepted, 12, "every sink accepts its sessions");
        for (const auto& s : sessions)
        {
            NS_TEST_ASSERT_MSG_GT(data[s.source * n + s.sink],
                                  0,
                                  "source " << s.source << " -> sink " << s.sink);
        }
        NS_TEST_ASSERT_MSG_GT(acks, 0, "acknowledgements from sink ports to source ports");
        NS_TEST_ASSERT_MSG_EQ(other, 0, "nothing between two sources or two sinks");
        // Session k on port 5000 + k mod sinkPorts: 12 / sinkPorts sessions per port.
        NS_TEST_ASSERT_MSG_EQ(byPort.size(), sinkPorts, "sessions on every sink port");
        for (const auto& [port, sockets] : byPort)
        {
            NS_TEST_ASSERT_MSG_EQ((port >= 5000 && port < 5000 + sinkPorts), true, "port " << port);
            NS_TEST_ASSERT_MSG_EQ(sockets.size(), 12 / sinkPorts, "sessions on port " << port);
        }
        Simulator::Destroy();
        Config::Reset();
    }

    uint32_t m_sinkPorts; //!< sink ports
};

/**
 * \ingroup qdisc-lab-tests
 * The random TCP sessions helpers' test suite.
 */
class RandomTcpSessionsTestSuite : public TestSuite
{
  public:
    RandomTcpSessionsTestSuite()
        : TestSuite("qdisc-lab-random-tcp-sessions")
    {
        AddTestCase(new RandomTcpSessionsDrawTestCase());
        AddTestCase(new TcpSessionOverLinkTestCase());
        AddTestCase(new RandomTcpSessionsAcrossSwitchTestCase(1));
        AddTestCase(new RandomTcpSessionsAcrossSwitchTestCase(3));
    }
};

/// Registers the suite.
static RandomTcpSessionsTestSuite g_randomTcpSessionsTestSuite;

} // namespace
