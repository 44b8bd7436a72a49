/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qdisc-lab-test-packets.h"

#include "ns3/application-container.h"
#include "ns3/boolean.h"
#include "ns3/dscp-marker-helper.h"
#include "ns3/dscp-marker-queue-disc.h"
#include "ns3/enum.h"
#include "ns3/fifo-queue-disc.h"
#include "ns3/global-value.h"
#include "ns3/icmpv6-l4-protocol.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv6-address-helper.h"
#include "ns3/ipv6-queue-disc-item.h"
#include "ns3/on-off-helper.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/prio-queue-disc.h"
#include "ns3/qdisc-lab-compat.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <map>
#include <vector>

using namespace ns3;

namespace
{

using qdisclab::test::Ipv4UdpPacket;
using qdisclab::test::Ipv6UdpPacket;
using qdisclab::test::MakeQueueDisc;
using qdisclab::test::NonIpItem;

/**
 * \param item an IPv4 test packet
 * \param tos the whole TOS byte (DSCP and ECN)
 * \return the packet with that TOS
 */
Ptr<QueueDiscItem>
WithTos(Ptr<QueueDiscItem> item, uint8_t tos)
{
    auto ipv4 = DynamicCast<Ipv4QueueDiscItem>(item);
    Ipv4Header header = ipv4->GetHeader();
    header.SetTos(tos);
    return Create<Ipv4QueueDiscItem>(item->GetPacket(), Address(), 0x0800, header);
}

/**
 * \param item an IPv6 test packet
 * \param tclass the whole Traffic Class byte (DSCP and ECN)
 * \return the packet with that Traffic Class
 */
Ptr<QueueDiscItem>
WithTclass(Ptr<QueueDiscItem> item, uint8_t tclass)
{
    auto ipv6 = DynamicCast<Ipv6QueueDiscItem>(item);
    Ipv6Header header = ipv6->GetHeader();
    header.SetTrafficClass(tclass);
    return Create<Ipv6QueueDiscItem>(item->GetPacket(), Address(), 0x86DD, header);
}

/**
 * \param item an IP packet
 * \return its DS field (TOS / Traffic Class) as the queue disc holds it
 */
uint8_t
DsField(Ptr<const QueueDiscItem> item)
{
    uint8_t value = 0;
    item->GetUint8Value(QueueItem::IP_DSFIELD, value);
    return value;
}

/**
 * Enqueue \p item in \p qd and dequeue the packet that comes out (the queue disc is empty
 * before), at the current simulation time.
 * \param qd the marker
 * \param item a packet
 * \return the packet dequeued
 */
Ptr<QueueDiscItem>
Through(Ptr<QueueDisc> qd, Ptr<QueueDiscItem> item)
{
    qd->Enqueue(item);
    return qd->Dequeue();
}

/**
 * Run \p steps at the given times (in ms), in a fresh simulation.
 * \param steps time and action pairs
 */
void
RunAt(const std::vector<std::pair<int64_t, std::function<void()>>>& steps)
{
    for (const auto& [ms, step] : steps)
    {
        qdisclab::Schedule(MilliSeconds(ms), step);
    }
    Simulator::Run();
    Simulator::Destroy();
}

constexpr uint8_t AF21 = 18; //!< DSCP AF21
constexpr uint8_t AF22 = 20; //!< DSCP AF22
constexpr uint8_t AF31 = 26; //!< DSCP AF31
constexpr uint8_t AF32 = 28; //!< DSCP AF32
constexpr uint8_t AF33 = 30; //!< DSCP AF33
constexpr uint8_t EF = 46;   //!< DSCP EF

/**
 * \param dscp a DSCP
 * \param ecn the ECN bits
 * \return the DS field (TOS / Traffic Class byte)
 */
constexpr unsigned
Tos(uint8_t dscp, uint8_t ecn = 0)
{
    return (dscp << 2) | ecn;
}

} // namespace

/**
 * \ingroup qdisc-lab-tests
 * Hand-built packets through a marker: profiles, colours and code points, IPv4 and IPv6
 * headers rewritten with ECN kept, the same packet and transmit queue after marking,
 * unmatched and non-IP packets, counters and the DscpMark trace.
 */
class DscpMarkerMarkingTestCase : public TestCase
{
  public:
    DscpMarkerMarkingTestCase()
        : TestCase("marking: profiles, code points, IPv4 and IPv6 headers, ECN kept, stats, trace")
    {
    }

  private:
    void DoRun() override
    {
        // Profile 0: token bucket, 8 kb/s = 1 B/ms, 3000 B, AF class 2 (the marker's).
        // Profile 1: trTCM, CIR 1 B/ms CBS 1000, PIR 2 B/ms PBS 2000, AF class 3.
        auto qd = MakeQueueDisc<DscpMarkerQueueDisc>(
            {{"AfClass", "2"},
             {"Profiles",
              "dst=10.2.0.0/16 dport=5000 cir=8kbps cbs=3000; src=2001:db8::1 meter=trtcm "
              "cir=8kbps cbs=1000 pir=16kbps pbs=2000 af=3"}});
        std::vector<std::pair<uint32_t, TrafficMeter::Color>> traced;
        qd->TraceConnectWithoutContext(
            "DscpMark",
            MakeCallback(+[](std::vector<std::pair<uint32_t, TrafficMeter::Color>>* log,
                             Ptr<const QueueDiscItem> item,
                             uint32_t profile,
                             TrafficMeter::Color color) {
                log->emplace_back(profile, color);
            }).Bind(&traced));

        const auto v4 = [](uint32_t size) {
            return Ipv4UdpPacket("10.1.1.1", "10.2.3.4", 1000, 5000, size);
        };
        const auto v6 = [](uint32_t size) {
            return Ipv6UdpPacket("2001:db8::1", "2001:db8::2", 1000, 7000, size);
        };
        RunAt({
            {1000,
             [&]() {
                 // ECN ECT(0) and a transmit queue index survive the rewrite.
                 Ptr<QueueDiscItem> in = WithTos(v4(1000), 0x02);
                 in->SetTxQueueIndex(3);
                 Ptr<QueueDiscItem> out = Through(qd, in);
                 NS_TEST_EXPECT_MSG_EQ(unsigned(DsField(out)), Tos(AF21, 0x02), "AF21, ECT0");
                 NS_TEST_EXPECT_MSG_EQ(out->GetPacket()->GetUid(),
                                       in->GetPacket()->GetUid(),
                                       "same packet");
                 NS_TEST_EXPECT_MSG_EQ(unsigned(out->GetTxQueueIndex()), 3, "same txq");
                 NS_TEST_EXPECT_MSG_EQ(out->GetSize(), 1000, "same size");
                 NS_TEST_EXPECT_MSG_EQ(unsigned(DsField(Through(qd, v4(1000)))),
                                       Tos(AF21),
                                       "2000 B in the bucket");
                 NS_TEST_EXPECT_MSG_EQ(unsigned(DsField(Through(qd, v4(1000)))),
                                       Tos(AF21),
                                       "1000 B");
                 NS_TEST_EXPECT_MSG_EQ(unsigned(DsField(Through(qd, v4(1000)))),
                                       Tos(AF22),
                                       "bucket empty: OUT");
                 // trTCM, IPv6: green, yellow, red.
                 NS_TEST_EXPECT_MSG_EQ(unsigned(DsField(Through(qd, WithTclass(v6(1000), 0x01)))),
                                       Tos(AF31, 0x01),
                                       "AF31, ECT1");
                 NS_TEST_EXPECT_MSG_EQ(unsigned(DsField(Through(qd, v6(1000)))),
                                       Tos(AF32),
                                       "Tc empty");
                 NS_TEST_EXPECT_MSG_EQ(unsigned(DsField(Through(qd, v6(1000)))),
                                       Tos(AF33),
                                       "Tp empty");
                 // Unmatched: DSCP kept (default); non-IP: passed as is.
                 Ptr<QueueDiscItem> ef =
                     Ipv4UdpPacket("10.1.1.1", "10.2.3.4", 1000, 6000, 500, Ipv4Header::DSCP_EF);
                 Ptr<QueueDiscItem> efOut = Through(qd, ef);
                 NS_TEST_EXPECT_MSG_EQ(PeekPointer(efOut), PeekPointer(ef), "untouched");
                 NS_TEST_EXPECT_MSG_EQ(unsigned(DsField(efOut)), Tos(EF), "EF kept");
                 Ptr<QueueDiscItem> arp = Create<NonIpItem>(60);
                 NS_TEST_EXPECT_MSG_EQ(PeekPointer(Through(qd, arp)), PeekPointer(arp), "non-IP");
             }},
            {1500,
             [&]() {
                 // 500 ms x 1 B/ms = 500 B of tokens.
                 NS_TEST_EXPECT_MSG_EQ(unsigned(DsField(Through(qd, v4(501)))),
                                       Tos(AF22),
                                       "501 > 500");
                 NS_TEST_EXPECT_MSG_EQ(unsigned(DsField(Through(qd, v4(500)))), Tos(AF21), "500 B");
             }},
        });

        const auto& tb = qd->GetProfileStats(0);
        NS_TEST_EXPECT_MSG_EQ(tb.packets[TrafficMeter::GREEN], 4, "IN packets");
        NS_TEST_EXPECT_MSG_EQ(tb.bytes[TrafficMeter::GREEN], 3500, "IN bytes");
        NS_TEST_EXPECT_MSG_EQ(tb.packets[TrafficMeter::YELLOW], 2, "OUT packets");
        NS_TEST_EXPECT_MSG_EQ(tb.bytes[TrafficMeter::YELLOW], 1501, "OUT bytes");
        NS_TEST_EXPECT_MSG_EQ(tb.packets[TrafficMeter::RED], 0, "no red in two colours");
        const auto& tr = qd->GetProfileStats(1);
        for (uint8_t c = 0; c < TrafficMeter::N_COLORS; ++c)
        {
            NS_TEST_EXPECT_MSG_EQ(tr.packets[c], 1, "one packet of each colour");
            NS_TEST_EXPECT_MSG_EQ(tr.bytes[c], 1000, "1000 B of each colour");
        }
        NS_TEST_EXPECT_MSG_EQ(qd->GetUnmatchedPackets(), 2, "EF and non-IP");
        NS_TEST_EXPECT_MSG_EQ(qd->GetUnmatchedBytes(), 560, "500 + 60 B");
        NS_TEST_EXPECT_MSG_EQ(qd->GetNMeters(), 2, "one flow per profile");
        using C = TrafficMeter::Color;
        const std::vector<std::pair<uint32_t, C>> expected = {
            {0, C::GREEN},
            {0, C::GREEN},
            {0, C::GREEN},
            {0, C::YELLOW},
            {1, C::GREEN},
            {1, C::YELLOW},
            {1, C::RED},
            {0, C::YELLOW},
            {0, C::GREEN},
        };
        NS_TEST_EXPECT_MSG_EQ((traced == expected), true, "one DscpMark per metered packet");
        const QueueDisc::Stats& stats = qd->GetStats();
        NS_TEST_EXPECT_MSG_EQ(stats.nTotalReceivedPackets, 11, "received");
        NS_TEST_EXPECT_MSG_EQ(stats.nTotalSentPackets, 11, "sent");
        NS_TEST_EXPECT_MSG_EQ(stats.nTotalDroppedPackets, 0, "the marker never drops");
        qd->Dispose();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * MeterScope: per flow, each 5-tuple has its bucket; per profile, they share one.
 */
class DscpMarkerScopeTestCase : public TestCase
{
  public:
    DscpMarkerScopeTestCase()
        : TestCase("meter scope: one bucket per flow or per profile")
    {
    }

  private:
    void DoRun() override
    {
        for (const char* scope : {"PerFlow", "PerProfile"})
        {
            auto qd = MakeQueueDisc<DscpMarkerQueueDisc>(
                {{"MeterScope", scope}, {"Profiles", "dport=5000 cir=8kbps cbs=2000"}});
            std::vector<unsigned> dscps;
            RunAt({{0, [&]() {
                        for (uint16_t sport : {1, 1, 2, 2})
                        {
                            dscps.push_back(
                                DsField(Through(
                                    qd,
                                    Ipv4UdpPacket("10.0.0.1", "10.0.0.2", sport, 5000, 1000))) >>
                                2);
                        }
                    }}});
            const bool perFlow = std::string(scope) == "PerFlow";
            const std::vector<unsigned> expected = perFlow ? std::vector<unsigned>{10, 10, 10, 10}
                                                           : std::vector<unsigned>{10, 10, 12, 12};
            NS_TEST_EXPECT_MSG_EQ((dscps == expected), true, scope);
            NS_TEST_EXPECT_MSG_EQ(qd->GetNMeters(), perFlow ? 2 : 1, scope);
            qd->Dispose();
        }
    }
};

/**
 * \ingroup qdisc-lab-tests
 * ColorAware: pre-marked packets keep their drop precedence (never promoted, no tokens taken);
 * colour-blind: they are re-metered. Unmatched BestEffort resets the DSCP.
 */
class DscpMarkerColorAwareTestCase : public TestCase
{
  public:
    DscpMarkerColorAwareTestCase()
        : TestCase("colour-aware and colour-blind pre-marked packets; unmatched set to BE")
    {
    }

  private:
    void DoRun() override
    {
        for (bool aware : {true, false})
        {
            auto qd = MakeQueueDisc<DscpMarkerQueueDisc>(
                {{"ColorAware", aware ? "true" : "false"},
                 {"Unmatched", "BestEffort"},
                 {"Profiles",
                  "dport=5000 cir=8kbps cbs=2000; dport=6000 meter=srtcm cir=8kbps cbs=1000 "
                  "ebs=1000"}});
            std::vector<unsigned> dscps;
            const auto send = [&](uint16_t dport, Ipv4Header::DscpType dscp) {
                dscps.push_back(
                    DsField(
                        Through(qd, Ipv4UdpPacket("10.0.0.1", "10.0.0.2", 1, dport, 1000, dscp))) >>
                    2);
            };
            RunAt({{0, [&]() {
                        send(5000, Ipv4Header::DSCP_AF12); // aware: stays AF12, no tokens
                        send(5000, Ipv4Header::DSCP_AF13); // aware: stays AF13
                        send(5000, Ipv4Header::DSCP_AF11);
                        send(5000, Ipv4Header::DSCP_AF11);
                        send(6000, Ipv4Header::DSCP_AF12); // srTCM aware: yellow from E
                        send(6000, Ipv4Header::DSCP_AF11); // green from C
                        send(6000, Ipv4Header::DSCP_AF11); // C and E empty: red
                        send(7000, Ipv4Header::DSCP_EF);   // unmatched: BE
                    }}});
            const std::vector<unsigned> expected =
                aware ? std::vector<unsigned>{12, 14, 10, 10, 12, 10, 14, 0}
                      : std::vector<unsigned>{10, 10, 12, 12, 10, 12, 14, 0};
            NS_TEST_EXPECT_MSG_EQ((dscps == expected), true, (aware ? "aware" : "blind"));
            qd->Dispose();
        }
    }
};

/**
 * \ingroup qdisc-lab-tests
 * The ways a marker is installed: DscpMarkerHelper with its default or a given child (replacing
 * the root queue disc the address helper put there), and TrafficControlHelper with a child that
 * has classes of its own.
 */
class DscpMarkerInstallTestCase : public TestCase
{
  public:
    DscpMarkerInstallTestCase()
        : TestCase("installation: DscpMarkerHelper, child queue discs, TrafficControlHelper")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes(2);
        InternetStackHelper().Install(nodes);
        NetDeviceContainer devices = PointToPointHelper().Install(nodes);
        Ipv4AddressHelper("10.1.1.0", "255.255.255.0").Assign(devices); // installs pfifo_fast

        DscpMarkerHelper helper;
        helper.SetAttribute("MaxSize", StringValue("42p"));
        helper.AddProfile("dport=5000", DataRate("1Mbps"), 10000);
        QueueDiscContainer markers = helper.Install(devices.Get(0));
        auto tc = nodes.Get(0)->GetObject<TrafficControlLayer>();
        NS_TEST_ASSERT_MSG_EQ(tc->GetRootQueueDiscOnDevice(devices.Get(0)),
                              markers.Get(0),
                              "the marker replaced the root queue disc");
        markers.Get(0)->Initialize();
        auto fifo =
            DynamicCast<FifoQueueDisc>(markers.Get(0)->GetQueueDiscClass(0)->GetQueueDisc());
        NS_TEST_ASSERT_MSG_NE(fifo, nullptr, "default child: a FIFO");
        NS_TEST_EXPECT_MSG_EQ(fifo->GetMaxSize(), QueueSize("42p"), "of MaxSize");

        helper.SetChildQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue("7p"));
        markers = helper.Install(devices.Get(1));
        markers.Get(0)->Initialize();
        NS_TEST_EXPECT_MSG_EQ(markers.Get(0)->GetQueueDiscClass(0)->GetQueueDisc()->GetMaxSize(),
                              QueueSize("7p"),
                              "the given child");
        NS_TEST_EXPECT_MSG_EQ(DynamicCast<DscpMarkerQueueDisc>(markers.Get(0))->GetNProfiles(),
                              1,
                              "profiles");

        // TrafficControlHelper: a marker over a PrioQueueDisc with two FIFO bands.
        tc->DeleteRootQueueDiscOnDevice(devices.Get(0));
        TrafficControlHelper tch;
        const uint16_t root = tch.SetRootQueueDisc("ns3::DscpMarkerQueueDisc",
                                                   "Profiles",
                                                   StringValue(helper.GetProfiles()));
        tch.AddQueueDiscClasses(root, 1, "ns3::QueueDiscClass");
        const uint16_t prio = tch.AddChildQueueDisc(root, 0, "ns3::PrioQueueDisc");
        tch.AddQueueDiscClasses(prio, 2, "ns3::QueueDiscClass");
        tch.AddChildQueueDiscs(prio, {0, 1}, "ns3::FifoQueueDisc");
        markers = tch.Install(devices.Get(0));
        markers.Get(0)->Initialize();
        auto child = markers.Get(0)->GetQueueDiscClass(0)->GetQueueDisc();
        NS_TEST_EXPECT_MSG_NE(DynamicCast<PrioQueueDisc>(child), nullptr, "Prio child");
        NS_TEST_EXPECT_MSG_EQ(child->GetNQueueDiscClasses(), 2, "with its bands");
        Simulator::Destroy();
    }
};

namespace
{

/// What the end-to-end scenario measured.
struct Measured
{
    std::map<uint8_t, uint64_t> bytesByDscp; //!< profiled flow: received IP bytes per DSCP
    uint64_t packets = 0;                    //!< profiled flow: packets received
    uint64_t sentPackets = 0;                //!< profiled flow: packets sent
    Time first;                              //!< profiled flow: first packet sent
    Time last;                               //!< profiled flow: last packet sent
    std::map<uint8_t, uint64_t> otherByDscp; //!< unprofiled flow: packets received per DSCP
    Ptr<DscpMarkerQueueDisc> marker;         //!< the marker
};

/// IP header + UDP header bytes.
uint32_t
Headers(bool ipv6)
{
    return ipv6 ? 48 : 28;
}

/**
 * Two nodes over a 10 Mb/s point-to-point link; the sender's egress has a marker with one
 * profile (UDP to port 5000: 1 Mb/s, a 10000 B bucket); a constant 2 Mb/s UDP source of
 * 1000 B IP packets sends to port 5000 from 1 s to 6 s, and a 100 kb/s source to port 6000.
 * The receiver's sockets read each datagram's DS field (IP_RECVTOS / IPV6_RECVTCLASS), so
 * what is counted is the header as it crossed the link. IPv4 header checksums are on, so a
 * stale checksum after rewriting would drop the packet.
 * \param ipv6 use IPv6 (else IPv4)
 * \return the measurements
 */
Measured
RunScenario(bool ipv6)
{
    Measured m;
    GlobalValue::Bind("ChecksumEnabled", BooleanValue(true));
    NodeContainer nodes(2);
    InternetStackHelper().Install(nodes);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    p2p.SetChannelAttribute("Delay", StringValue("1ms"));
    NetDeviceContainer devices = p2p.Install(nodes);
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        // No duplicate address detection: IPv6 addresses are usable at once.
        nodes.Get(i)->GetObject<Icmpv6L4Protocol>()->SetAttribute("DAD", BooleanValue(false));
    }
    Address sink5000;
    Address sink6000;
    Address any5000;
    Address any6000;
    if (ipv6)
    {
        Ipv6AddressHelper addresses("2001:db8:1::", Ipv6Prefix(64));
        Ipv6InterfaceContainer interfaces = addresses.Assign(devices);
        sink5000 = Inet6SocketAddress(interfaces.GetAddress(1, 1), 5000);
        sink6000 = Inet6SocketAddress(interfaces.GetAddress(1, 1), 6000);
        any5000 = Inet6SocketAddress(Ipv6Address::GetAny(), 5000);
        any6000 = Inet6SocketAddress(Ipv6Address::GetAny(), 6000);
    }
    else
    {
        Ipv4InterfaceContainer interfaces =
            Ipv4AddressHelper("10.1.1.0", "255.255.255.0").Assign(devices);
        sink5000 = InetSocketAddress(interfaces.GetAddress(1), 5000);
        sink6000 = InetSocketAddress(interfaces.GetAddress(1), 6000);
        any5000 = InetSocketAddress(Ipv4Address::GetAny(), 5000);
        any6000 = InetSocketAddress(Ipv4Address::GetAny(), 6000);
    }

    DscpMarkerHelper helper;
    helper.AddProfile(ipv6 ? "dst=2001:db8:1::/64 dport=5000 proto=udp"
                           : "dst=10.1.1.0/24 dport=5000 proto=udp",
                      DataRate("1Mbps"),
                      10000);
    m.marker = DynamicCast<DscpMarkerQueueDisc>(helper.Install(devices.Get(0)).Get(0));

    // Receivers: every datagram's DS field, from the header that crossed the link.
    const auto receiver =
        [&](const Address& local, std::map<uint8_t, uint64_t>* byDscp, bool countBytes) {
            Ptr<Socket> socket = Socket::CreateSocket(nodes.Get(1), UdpSocketFactory::GetTypeId());
            socket->Bind(local);
            socket->SetIpRecvTos(true);
            socket->SetIpv6RecvTclass(true);
            socket->SetRecvCallback(
                qdisclab::MakeFunctorCallback([byDscp, countBytes, ipv6, &m](Ptr<Socket> s) {
                    while (Ptr<Packet> packet = s->Recv())
                    {
                        uint8_t ds = 0;
                        if (ipv6)
                        {
                            SocketIpv6TclassTag tag;
                            NS_ABORT_UNLESS(packet->RemovePacketTag(tag));
                            ds = tag.GetTclass();
                        }
                        else
                        {
                            SocketIpTosTag tag;
                            NS_ABORT_UNLESS(packet->RemovePacketTag(tag));
                            ds = tag.GetTos();
                        }
                        (*byDscp)[ds >> 2] += countBytes ? packet->GetSize() + Headers(ipv6) : 1;
                        m.packets += countBytes;
                    }
                }));
            return socket;
        };
    Ptr<Socket> s5000 = receiver(any5000, &m.bytesByDscp, true);
    Ptr<Socket> s6000 = receiver(any6000, &m.otherByDscp, false);

    // Senders: 1000 B IP packets.
    OnOffHelper onOff("ns3::UdpSocketFactory", sink5000);
    onOff.SetConstantRate(DataRate("2Mbps"), 1000 - Headers(ipv6));
    ApplicationContainer apps = onOff.Install(nodes.Get(0));
    onOff.SetAttribute("Remote", AddressValue(sink6000));
    onOff.SetConstantRate(DataRate("100kbps"), 1000 - Headers(ipv6));
    apps.Add(onOff.Install(nodes.Get(0)));
    apps.Start(Seconds(1));
    apps.Stop(Seconds(6));
    apps.Get(0)->TraceConnectWithoutContext("Tx", MakeCallback(+[](Measured* m, Ptr<const Packet>) {
                                                      if (m->sentPackets++ == 0)
                                                      {
                                                          m->first = Simulator::Now();
                                                      }
                                                      m->last = Simulator::Now();
                                                  }).Bind(&m));

    Simulator::Stop(Seconds(7));
    Simulator::Run();
    Simulator::Destroy();
    GlobalValue::Bind("ChecksumEnabled", BooleanValue(false));
    return m;
}

} // namespace

/**
 * \ingroup qdisc-lab-tests
 * End to end, IPv4 or IPv6: a constant-rate source above its profile gets rate x T + bucket
 * bytes IN (within one packet), marked AF11 in the header that crosses the link (AF12 for the
 * rest); an unprofiled flow keeps DSCP 0; nothing is lost.
 */
class DscpMarkerEndToEndTestCase : public TestCase
{
  public:
    /// \param ipv6 run over IPv6 (else IPv4)
    explicit DscpMarkerEndToEndTestCase(bool ipv6)
        : TestCase(std::string("end to end over ") + (ipv6 ? "IPv6" : "IPv4") +
                   ": rate x T + bucket bytes IN, in the received headers"),
          m_ipv6(ipv6)
    {
    }

  private:
    void DoRun() override
    {
        const Measured m = RunScenario(m_ipv6);
        NS_TEST_ASSERT_MSG_GT(m.sentPackets, 1000, "the source ran");
        NS_TEST_EXPECT_MSG_EQ(m.packets, m.sentPackets, "every packet received");
        NS_TEST_EXPECT_MSG_EQ(m.bytesByDscp.size(), 2, "only AF11 and AF12");
        const uint64_t in = m.bytesByDscp.count(10) ? m.bytesByDscp.at(10) : 0;
        const uint64_t out = m.bytesByDscp.count(12) ? m.bytesByDscp.at(12) : 0;
        NS_TEST_EXPECT_MSG_EQ(in + out, m.sentPackets * 1000, "every byte AF11 or AF12");
        // Profile: 1 Mb/s, 10000 B; the source is above it from its first packet.
        const double expected = 1e6 / 8 * (m.last - m.first).GetSeconds() + 10000;
        NS_TEST_EXPECT_MSG_LT_OR_EQ(in, expected, "at most rate x T + bucket");
        NS_TEST_EXPECT_MSG_GT(in, expected - 1000, "at least rate x T + bucket - one packet");
        const auto& stats = m.marker->GetProfileStats(0);
        NS_TEST_EXPECT_MSG_EQ(stats.bytes[TrafficMeter::GREEN], in, "marker's IN count");
        NS_TEST_EXPECT_MSG_EQ(stats.bytes[TrafficMeter::YELLOW], out, "marker's OUT count");
        NS_TEST_EXPECT_MSG_EQ(m.otherByDscp.size(), 1, "the other flow is not marked");
        NS_TEST_EXPECT_MSG_GT(m.otherByDscp.count(0) ? m.otherByDscp.at(0) : 0,
                              50,
                              "it arrives with DSCP 0");
    }

    bool m_ipv6; //!< run over IPv6
};

/**
 * \ingroup qdisc-lab-tests
 * The DSCP marker's test suite.
 */
class DscpMarkerQueueDiscTestSuite : public TestSuite
{
  public:
    DscpMarkerQueueDiscTestSuite()
        : TestSuite("qdisc-lab-dscp-marker-queue-disc")
    {
        AddTestCase(new DscpMarkerMarkingTestCase());
        AddTestCase(new DscpMarkerScopeTestCase());
        AddTestCase(new DscpMarkerColorAwareTestCase());
        AddTestCase(new DscpMarkerInstallTestCase());
        AddTestCase(new DscpMarkerEndToEndTestCase(false));
        AddTestCase(new DscpMarkerEndToEndTestCase(true));
    }
};

/// The suite's instance.
static DscpMarkerQueueDiscTestSuite g_dscpMarkerQueueDiscTestSuite;
