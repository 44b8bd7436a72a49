/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QDISC_LAB_TEST_PACKETS_H
#define QDISC_LAB_TEST_PACKETS_H

/**
 * \file
 * \ingroup qdisc-lab-tests
 * Packets and queue discs for the module's test suites: IPv4/IPv6 UDP packets of exact sizes,
 * addresses, ports, DSCP and ECN, a non-IP packet, queue discs configured from name/value pairs,
 * what a queue disc sends and the sojourn times it reports, and a check of per-flow counters and
 * traces on random traffic (with the test case that runs it on several configurations), and the
 * test cases per-flow queue discs share (weighted buffer stealing, the non-IP bucket).
 */

#include "ns3/abort.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv6-header.h"
#include "ns3/ipv6-queue-disc-item.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet-filter.h"
#include "ns3/packet.h"
#include "ns3/queue-disc.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/udp-header.h"

#include <cstdint>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace qdisclab
{
namespace test
{

/// Bytes of IPv4 + UDP headers in an IPv4 test packet's size.
constexpr uint32_t IPV4_UDP = 28;
/// Bytes of IPv6 + UDP headers in an IPv6 test packet's size.
constexpr uint32_t IPV6_UDP = 48;

/**
 * An IPv4/UDP packet of exactly \p size bytes (headers included).
 * \param src source address
 * \param dst destination address
 * \param sport source port
 * \param dport destination port
 * \param size total size, >= IPV4_UDP
 * \param dscp DSCP
 * \param ecn ECN codepoint
 * \return the item
 */
inline Ptr<QueueDiscItem>
Ipv4UdpPacket(const char* src,
              const char* dst,
              uint16_t sport,
              uint16_t dport,
              uint32_t size,
              Ipv4Header::DscpType dscp = Ipv4Header::DscpDefault,
              Ipv4Header::EcnType ecn = Ipv4Header::ECN_NotECT)
{
    NS_ABORT_MSG_IF(size < IPV4_UDP, "an IPv4/UDP packet needs " << IPV4_UDP << " B, not " << size);
    Ptr<Packet> p = Create<Packet>(size - IPV4_UDP);
    UdpHeader udp;
    udp.SetSourcePort(sport);
    udp.SetDestinationPort(dport);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address(src));
    ip.SetDestination(Ipv4Address(dst));
    ip.SetProtocol(17);
    ip.SetPayloadSize(p->GetSize());
    ip.SetDscp(dscp);
    ip.SetEcn(ecn);
    return Create<Ipv4QueueDiscItem>(p, Address(), 0x0800, ip);
}

/**
 * \param host the last byte of a 10.0.0.x source address
 * \param size total size
 * \return an IPv4/UDP packet of exactly \p size bytes from that host, to 10.9.0.1:80
 */
inline Ptr<QueueDiscItem>
FromHost(uint32_t host, uint32_t size)
{
    const std::string src = "10.0.0." + std::to_string(host);
    return Ipv4UdpPacket(src.c_str(), "10.9.0.1", 1000, 80, size);
}

/**
 * An IPv6/UDP packet of exactly \p size bytes (headers included).
 * \param src source address
 * \param dst destination address
 * \param sport source port
 * \param dport destination port
 * \param size total size, >= IPV6_UDP
 * \param dscp DSCP (6 bits, the Traffic Class's upper bits)
 * \param ecn ECN codepoint
 * \return the item
 */
inline Ptr<QueueDiscItem>
Ipv6UdpPacket(const char* src,
              const char* dst,
              uint16_t sport,
              uint16_t dport,
              uint32_t size,
              uint8_t dscp = 0,
              Ipv6Header::EcnType ecn = Ipv6Header::ECN_NotECT)
{
    NS_ABORT_MSG_IF(size < IPV6_UDP, "an IPv6/UDP packet needs " << IPV6_UDP << " B, not " << size);
    Ptr<Packet> p = Create<Packet>(size - IPV6_UDP);
    UdpHeader udp;
    udp.SetSourcePort(sport);
    udp.SetDestinationPort(dport);
    p->AddHeader(udp);
    Ipv6Header ip;
    ip.SetSource(Ipv6Address(src));
    ip.SetDestination(Ipv6Address(dst));
    ip.SetNextHeader(17);
    ip.SetPayloadLength(p->GetSize());
    ip.SetTrafficClass(static_cast<uint8_t>(dscp << 2));
    ip.SetEcn(ecn);
    return Create<Ipv6QueueDiscItem>(p, Address(), 0x86DD, ip);
}

/// A packet that is neither IPv4 nor IPv6 (an ARP-like payload).
class NonIpItem : public QueueDiscItem
{
  public:
    /// \param size the packet size
    explicit NonIpItem(uint32_t size)
        : QueueDiscItem(Create<Packet>(size), Address(), 0x0806)
    {
    }

    void AddHeader() override
    {
    }

    bool Mark() override
    {
        return false;
    }
};

/// A packet filter that puts every IPv4 packet in class 3 (and does not match others).
class ClassThreeFilter : public PacketFilter
{
  private:
    bool CheckProtocol(Ptr<QueueDiscItem> item) const override
    {
        return DynamicCast<Ipv4QueueDiscItem>(item) != nullptr;
    }

    int32_t DoClassify(Ptr<QueueDiscItem> item) const override
    {
        return 3;
    }
};

/// Attribute name/value pairs, set as StringValues.
using Attributes = std::vector<std::pair<std::string, std::string>>;

/**
 * \tparam QD a queue disc type
 * \param attributes name/value pairs, set as StringValues
 * \param filter a packet filter to add before initializing (none if null)
 * \return the queue disc, initialized
 */
template <typename QD>
Ptr<QD>
MakeQueueDisc(const Attributes& attributes, Ptr<PacketFilter> filter = nullptr)
{
    auto qd = CreateObject<QD>();
    for (const auto& [name, value] : attributes)
    {
        qd->SetAttribute(name, StringValue(value));
    }
    if (filter)
    {
        qd->AddPacketFilter(filter);
    }
    qd->Initialize();
    return qd;
}

/**
 * \param item a packet
 * \return its UID
 */
inline uint64_t
Uid(Ptr<const QueueDiscItem> item)
{
    return item->GetPacket()->GetUid();
}

/**
 * \param qd a queue disc
 * \return the UIDs of every packet it dequeues until empty
 */
inline std::vector<uint64_t>
DrainUids(Ptr<QueueDisc> qd)
{
    std::vector<uint64_t> uids;
    while (Ptr<QueueDiscItem> item = qd->Dequeue())
    {
        uids.push_back(Uid(item));
    }
    return uids;
}

/**
 * A SojournTime sink.
 * \param samples where to append
 * \param sojourn the sample
 */
inline void
RecordSojourn(std::vector<Time>* samples, Time sojourn)
{
    samples->push_back(sojourn);
}

/// Per-bucket counts, as the test sees them and as the traces report them.
struct BucketCounts
{
    uint64_t arrivals = 0;       //!< packets given to Enqueue
    uint64_t arrivalBytes = 0;   //!< their bytes
    uint64_t sent = 0;           //!< packets Dequeue returned
    uint64_t sentBytes = 0;      //!< their bytes
    uint64_t traceEnqueue = 0;   //!< FlowEnqueue calls
    uint64_t traceDequeue = 0;   //!< FlowDequeue calls
    uint64_t traceDrop = 0;      //!< FlowDrop calls
    uint64_t traceDropBytes = 0; //!< their bytes
};

/**
 * Random traffic (IPv4 flows that collide in few buckets, IPv6, non-IP; sizes 60-1500 B;
 * bursts that fill the buffer, then drains) through a per-flow queue disc with the FlowEnqueue,
 * FlowDequeue and FlowDrop trace sources and GetBucket, GetFlowStats, GetFlowBytes. Checks,
 * per bucket, that GetFlowStats agrees with what the test sent and received and with the traces,
 * that every arrival is sent, dropped or still queued, and that the counters add up to
 * QueueDisc's statistics.
 * \tparam QD a PerFlowQueueDisc or VerticalDimensioningQueueDisc
 * \param qd an initialized queue disc
 * \param seed seed of the traffic
 * \return "" if all agree, else the first disagreement
 */
template <typename QD>
std::string
CheckFlowCountersOnRandomTraffic(Ptr<QD> qd, uint32_t seed)
{
    std::map<uint32_t, BucketCounts> counts;

    struct Sinks
    {
        std::map<uint32_t, BucketCounts>* counts;

        void Enqueue(uint32_t b, Ptr<const QueueDiscItem>)
        {
            (*counts)[b].traceEnqueue++;
        }

        void Dequeue(uint32_t b, Ptr<const QueueDiscItem>)
        {
            (*counts)[b].traceDequeue++;
        }

        void Drop(uint32_t b, Ptr<const QueueDiscItem> item)
        {
            (*counts)[b].traceDrop++;
            (*counts)[b].traceDropBytes += item->GetSize();
        }
    } sinks{&counts};

    qd->TraceConnectWithoutContext("FlowEnqueue", MakeCallback(&Sinks::Enqueue, &sinks));
    qd->TraceConnectWithoutContext("FlowDequeue", MakeCallback(&Sinks::Dequeue, &sinks));
    qd->TraceConnectWithoutContext("FlowDrop", MakeCallback(&Sinks::Drop, &sinks));
    std::mt19937 rng(seed);
    uint64_t enqueued = 0;
    uint64_t dequeued = 0;
    for (int step = 0; step < 20000; ++step)
    {
        const bool burst = (step / 500) % 2 == 0;
        if (rng() % 100 < (burst ? 75U : 35U))
        {
            const uint32_t host = rng() % 40;
            const uint32_t size = 60 + rng() % 1441;
            Ptr<QueueDiscItem> item;
            if (host == 0)
            {
                item = Create<NonIpItem>(size);
            }
            else if (host < 4)
            {
                const std::string src = "2001:db8::" + std::to_string(host);
                item = Ipv6UdpPacket(src.c_str(), "2001:dead::1", 1000, 80, size);
            }
            else
            {
                const std::string src = "10.0.0." + std::to_string(host);
                item = Ipv4UdpPacket(src.c_str(), "10.9.0.1", 1000 + host % 3, 80, size);
            }
            BucketCounts& c = counts[qd->GetBucket(item)];
            c.arrivals++;
            c.arrivalBytes += item->GetSize();
            enqueued += qd->Enqueue(item);
        }
        else if (Ptr<QueueDiscItem> item = qd->Dequeue())
        {
            BucketCounts& c = counts[qd->GetBucket(item)];
            c.sent++;
            c.sentBytes += item->GetSize();
            ++dequeued;
        }
    }

    std::ostringstream error;
    uint64_t sumDropped = 0;
    uint64_t sumQueued = 0;
    for (const auto& [bucket, c] : counts)
    {
        const auto stats = qd->GetFlowStats(bucket);
        const uint64_t queuedBytes = qd->GetFlowBytes(bucket);
        sumDropped += stats.droppedPackets;
        sumQueued += stats.enqueuedPackets - stats.sentPackets - stats.droppedPackets;
        if (stats.enqueuedPackets != c.arrivals || stats.enqueuedBytes != c.arrivalBytes)
        {
            error << "bucket " << bucket << ": enqueued " << stats.enqueuedPackets << " packets, "
                  << stats.enqueuedBytes << " B; the test gave " << c.arrivals << ", "
                  << c.arrivalBytes << " B";
        }
        else if (stats.sentPackets != c.sent || stats.sentBytes != c.sentBytes ||
                 c.traceDequeue != c.sent)
        {
            error << "bucket " << bucket << ": sent " << stats.sentPackets << " ("
                  << stats.sentBytes << " B), traced " << c.traceDequeue << "; received " << c.sent
                  << " (" << c.sentBytes << " B)";
        }
        else if (stats.droppedPackets != c.traceDrop || stats.droppedBytes != c.traceDropBytes)
        {
            error << "bucket " << bucket << ": dropped " << stats.droppedPackets << ", traced "
                  << c.traceDrop;
        }
        else if (stats.enqueuedBytes - stats.sentBytes - stats.droppedBytes != queuedBytes)
        {
            error << "bucket " << bucket << ": " << queuedBytes << " B queued, counters say "
                  << stats.enqueuedBytes - stats.sentBytes - stats.droppedBytes;
        }
        if (!error.str().empty())
        {
            return error.str();
        }
    }
    const QueueDisc::Stats& total = qd->GetStats();
    if (sumDropped != total.nTotalDroppedPackets || sumDropped == 0)
    {
        error << "drops: buckets " << sumDropped << ", queue disc " << total.nTotalDroppedPackets;
    }
    else if (sumQueued != qd->GetNPackets() || dequeued == 0 || enqueued == 0)
    {
        error << "queued: buckets " << sumQueued << ", queue disc " << qd->GetNPackets();
    }
    return error.str();
}

/**
 * \ingroup qdisc-lab-tests
 * CheckFlowCountersOnRandomTraffic on one queue disc per configuration, the traffic of the
 * first seeded 1, of the second 2, and so on.
 * \tparam QD a PerFlowQueueDisc or VerticalDimensioningQueueDisc
 */
template <typename QD>
class FlowCountersTestCase : public TestCase
{
  public:
    /// \param configs the queue discs' attributes, one queue disc each
    explicit FlowCountersTestCase(std::vector<Attributes> configs)
        : TestCase("per-bucket counters and traces agree with the traffic"),
          m_configs(std::move(configs))
    {
    }

  private:
    void DoRun() override
    {
        uint32_t seed = 0;
        for (const auto& config : m_configs)
        {
            auto qd = MakeQueueDisc<QD>(config);
            const std::string error = CheckFlowCountersOnRandomTraffic(qd, ++seed);
            NS_TEST_ASSERT_MSG_EQ(error, "", "config " << seed << ": " << error);
            qd->Dispose();
        }
    }

    std::vector<Attributes> m_configs; //!< one queue disc's attributes each
};

/**
 * \ingroup qdisc-lab-tests
 * Buffer stealing, from the head and the tail: with weights, the longest bytes / weight loses a
 * packet, counted under OVERLIMIT_DROP and in its bucket's counters; the arrival is admitted.
 * \tparam QD a PerFlowQueueDisc (AliquemQueueDisc, SrrQueueDisc)
 */
template <typename QD>
class WeightedStealingTestCase : public TestCase
{
  public:
    WeightedStealingTestCase()
        : TestCase("buffer stealing takes the longest bytes over weight, counted per reason")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string dropFrom : {"Head", "Tail"})
        {
            auto qd = MakeQueueDisc<QD>(
                {{"MaxSize", "5500B"},
                 {"Buckets", "1024"},
                 {"DropFrom", dropFrom},
                 {"WeightRules", "src=10.0.0.2 weight=2; src=2001:db8::/32 weight=3"}});
            std::vector<Ptr<QueueDiscItem>> a;
            for (int i = 0; i < 2; ++i)
            {
                a.push_back(FromHost(1, 1000));
                qd->Enqueue(a.back()); // A: 2000 B / 1
            }
            qd->Enqueue(FromHost(2, 1500));
            qd->Enqueue(FromHost(2, 1500)); // B: 3000 B / 2 = 1500
            Ptr<QueueDiscItem> v6 = Ipv6UdpPacket("2001:db8::1", "2001:dead::1", 1, 80, 600);
            NS_TEST_ASSERT_MSG_EQ(qd->Enqueue(v6), true, "the arrival is admitted");
            const uint32_t fa = qd->GetBucket(a[0]);
            const uint32_t fb = qd->GetBucket(FromHost(2, 100));
            const QueueDisc::Stats& stats = qd->GetStats();
            NS_TEST_ASSERT_MSG_EQ(stats.GetNDroppedPackets(QD::OVERLIMIT_DROP),
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
 * Non-IP packets have their own bucket, number Buckets, and are served like any flow.
 * \tparam QD a PerFlowQueueDisc (AliquemQueueDisc, SrrQueueDisc)
 */
template <typename QD>
class NonIpBucketTestCase : public TestCase
{
  public:
    NonIpBucketTestCase()
        : TestCase("non-IP packets: the extra bucket")
    {
    }

  private:
    void DoRun() override
    {
        auto qd = MakeQueueDisc<QD>({{"Buckets", "8"}});
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

} // namespace test
} // namespace qdisclab
} // namespace ns3

#endif /* QDISC_LAB_TEST_PACKETS_H */
