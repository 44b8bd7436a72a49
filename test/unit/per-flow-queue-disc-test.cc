/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PerFlowQueueDisc's per-packet steps, written once for the family: the family's checks
// (per-flow-family-tests.h) for DRR, SRR, Aliquem and VD; DropFrom = Last, Vertical
// Dimensioning's drop() as a policy of the family, gives DrrQueueDisc VD's drops; a
// FlowKeyClassifier as the only packet filter is asked by key, with the same results.

#include "per-flow-family-tests.h"

#include "ns3/aliquem-queue-disc.h"
#include "ns3/aliquem-scheduler.h"
#include "ns3/cioq-red-queue-disc.h"
#include "ns3/drr-queue-disc.h"
#include "ns3/drr-scheduler.h"
#include "ns3/ri-plus-o-queue-disc.h"
#include "ns3/rio-queue-disc.h"
#include "ns3/srr-queue-disc.h"
#include "ns3/srr-scheduler.h"
#include "ns3/vd-rounds.h"
#include "ns3/vertical-dimensioning-queue-disc.h"

#include <algorithm>
#include <cstdint>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;
using qdisclab::test::Attributes;
using qdisclab::test::FAMILY_BUFFER;
using qdisclab::test::FromHost;
using qdisclab::test::MakeQueueDisc;
using qdisclab::test::SeenPacket;
using qdisclab::test::StealingModel;

namespace ns3
{
namespace qdisclab
{
namespace test
{

/// DrrQueueDisc: quantum 500 B.
template <>
struct PerFlowMember<DrrQueueDisc>
{
    /// \return the queue disc's own attributes
    static Attributes Own()
    {
        return {{"Quantum", "500"}};
    }

    /// \param flows number of flows \return its scheduler, driven directly
    static StealingModel<DrrScheduler> Model(const Ptr<DrrQueueDisc>&, uint32_t flows)
    {
        StealingModel<DrrScheduler> m;
        m.s.Reset(flows, 500);
        return m;
    }
};

/// SrrQueueDisc: quantum 500 B.
template <>
struct PerFlowMember<SrrQueueDisc>
{
    /// \return the queue disc's own attributes
    static Attributes Own()
    {
        return {{"Quantum", "500"}};
    }

    /// \param flows number of flows \return its scheduler, driven directly
    static StealingModel<SrrScheduler> Model(const Ptr<SrrQueueDisc>&, uint32_t flows)
    {
        StealingModel<SrrScheduler> m;
        m.s.Reset(flows, 500);
        return m;
    }
};

/// AliquemQueueDisc: quantum 1000 B, q = 4.
template <>
struct PerFlowMember<AliquemQueueDisc>
{
    /// \return the queue disc's own attributes
    static Attributes Own()
    {
        return {{"Quantum", "1000"}, {"ScalingFactor", "4"}};
    }

    /// \param flows number of flows \return its scheduler, driven directly
    static StealingModel<AliquemScheduler> Model(const Ptr<AliquemQueueDisc>&, uint32_t flows)
    {
        StealingModel<AliquemScheduler> m;
        m.s.Reset(flows, 1000, 4);
        return m;
    }
};

/// VdRounds driven directly, with Fig. 2's drop(): what VerticalDimensioningQueueDisc does.
struct VdModel
{
    VdRounds s; //!< the scheduler

    /// \param f flow \param size bytes \param weight weight \return whether it was queued
    bool Arrive(uint32_t f, uint32_t size, double weight)
    {
        uint64_t round = 0;
        return s.Enqueue(f, size, weight, &round) == VdRounds::QUEUED;
    }

    /// \return whether the buffer is over its limit
    bool OverLimit() const
    {
        return s.OverLimit();
    }

    /// \return the packet dropped: the tail of the last round
    SeenPacket Drop()
    {
        const VdRounds::Packet p = s.Drop();
        return {p.flow, p.size, 0};
    }

    /// \return whether nothing is queued
    bool Empty() const
    {
        return s.Empty();
    }

    /// \return the packet sent
    SeenPacket Dequeue()
    {
        const VdRounds::Packet p = s.Dequeue();
        return {p.flow, p.size, p.deficit};
    }
};

/// VerticalDimensioningQueueDisc: L_M 500 B.
template <>
struct PerFlowMember<VerticalDimensioningQueueDisc>
{
    /// Fig. 2: a flow that empties and returns may join the round still open.
    static constexpr bool JOINS_THE_OPEN_ROUND = true;

    /// \return the queue disc's own attributes
    static Attributes Own()
    {
        return {{"MaxPacketSize", "500"}};
    }

    /// \param qd the queue disc (its M) \return VdRounds, driven directly
    static VdModel Model(const Ptr<VerticalDimensioningQueueDisc>& qd, uint32_t)
    {
        VdModel m;
        m.s.Reset(qd->GetRounds(), 500, FAMILY_BUFFER);
        return m;
    }
};

/// The family's members, each checked by PerFlowFamilyTest.
using PerFlowMembers =
    ::testing::Types<DrrQueueDisc, SrrQueueDisc, AliquemQueueDisc, VerticalDimensioningQueueDisc>;
INSTANTIATE_TYPED_TEST_SUITE_P(Members, PerFlowFamilyTest, PerFlowMembers);

} // namespace test
} // namespace qdisclab
} // namespace ns3

// The family's drop policy is chosen per queue disc: McKenney's from the head (the default) or
// tail of the longest flow, or (DrrQueueDisc) the packet sent last; a scheduler that does not
// know that packet refuses Last, by name.
TEST(PerFlowQueueDiscDeathTest, DropFromLastNeedsASchedulerThatKnowsItsLastPacket)
{
    EXPECT_DEATH(MakeQueueDisc<SrrQueueDisc>({{"DropFrom", "Last"}}),
                 "SrrQueueDisc: DropFrom = Last needs a scheduler that knows which packet it "
                 "would send last");
    EXPECT_DEATH(MakeQueueDisc<AliquemQueueDisc>({{"DropFrom", "Last"}}),
                 "AliquemQueueDisc: DropFrom = Last needs");
    auto drr = MakeQueueDisc<DrrQueueDisc>({{"DropFrom", "Last"}});
    StringValue dropFrom;
    drr->GetAttribute("DropFrom", dropFrom);
    EXPECT_EQ(dropFrom.Get(), "Last");
    drr->Dispose();
    TypeId::AttributeInformation info;
    EXPECT_FALSE(
        VerticalDimensioningQueueDisc::GetTypeId().LookupAttributeByName("DropFrom", &info))
        << "VD's policy is its own";
}

namespace
{

/// What a queue disc did with a scripted sequence.
struct Outcome
{
    std::vector<std::string> enqueued; //!< per arrival: "queued" or "dropped"
    std::vector<uint64_t> dropped;     //!< UIDs of the packets dropped, in order
    std::vector<uint64_t> sent;        //!< UIDs of the packets sent, in order
    uint64_t droppedBeforeEnqueue = 0; //!< QueueDisc's count
    uint64_t droppedAfterDequeue = 0;  //!< QueueDisc's count
    std::vector<std::tuple<uint64_t, uint64_t, uint64_t>> buckets; //!< enqueued, sent, dropped
};

/// Sink of the Drop trace.
void
RecordDrop(std::vector<uint64_t>* uids, Ptr<const QueueDiscItem> item)
{
    uids->push_back(qdisclab::test::Uid(item));
}

/**
 * Run a script through a queue disc: letters A-D are packets of hosts 1-4 (their sizes in
 * \p sizes), '.' a dequeue.
 * \param qd the queue disc
 * \param script the steps
 * \param sizes each arrival's size, in order
 * \param uids set to each arrival's UID, in order
 * \return what it did
 */
template <typename QD>
Outcome
RunScript(Ptr<QD> qd,
          const std::string& script,
          const std::vector<uint32_t>& sizes,
          std::vector<uint64_t>* uids)
{
    Outcome out;
    qd->TraceConnectWithoutContext("Drop", MakeBoundCallback(&RecordDrop, &out.dropped));
    std::set<uint32_t> buckets;
    std::size_t arrival = 0;
    uids->clear();
    for (const char step : script)
    {
        if (step == '.')
        {
            out.sent.push_back(qdisclab::test::Uid(qd->Dequeue()));
            continue;
        }
        Ptr<QueueDiscItem> item = FromHost(1 + (step - 'A'), sizes.at(arrival++));
        uids->push_back(qdisclab::test::Uid(item));
        buckets.insert(qd->GetBucket(item));
        out.enqueued.emplace_back(qd->Enqueue(item) ? "queued" : "dropped");
    }
    while (Ptr<QueueDiscItem> item = qd->Dequeue())
    {
        out.sent.push_back(qdisclab::test::Uid(item));
    }
    out.droppedBeforeEnqueue = qd->GetStats().nTotalDroppedPacketsBeforeEnqueue;
    out.droppedAfterDequeue = qd->GetStats().nTotalDroppedPacketsAfterDequeue;
    for (const uint32_t b : buckets)
    {
        const auto stats = qd->GetFlowStats(b);
        out.buckets.emplace_back(stats.enqueuedPackets, stats.sentPackets, stats.droppedPackets);
    }
    return out;
}

} // namespace

// Vertical Dimensioning's drop() as the family's policy: DrrQueueDisc with DropFrom = Last and
// VD, quantum = L_M = 1000 B, a 6000 B buffer, on a script whose flows join at the ends of
// rounds (so that VD's rounds are DRR's): the same arrivals dropped on arrival, the same packets
// stolen, the same order of service, the same counters. By hand: A4 would be sent in A's 4th
// round, after everything else, so it is dropped on arrival; D1, arriving to a full buffer, takes
// A3 (A's 3rd round, the last); after the first round, A6 is stolen by C4 and B5 is dropped on
// arrival alike.
TEST(PerFlowQueueDisc, DropFromLastOnDrrDropsAsVerticalDimensioning)
{
    const std::string script = "ABACAB" // A1 B1 A2 C1 A3 B2: 5500 B
                               "A"      // A4: 4 rounds -> dropped on arrival
                               "D"      // D1 takes A3, the tail of round 2
                               "...."   // round 0: A1 B1 C1 D1
                               "CABAC"  // C3 A5 B4 A6 C4: C4 takes A6
                               "B";     // B5: round 3 -> dropped on arrival
    const std::vector<uint32_t> sizes =
        {1000, 1000, 1000, 500, 1000, 1000, 1000, 1000, 500, 1000, 1000, 1000, 1000, 1000};
    const Attributes shared = {{"MaxSize", "6000B"}, {"Buckets", "1024"}};
    Attributes drrAttributes = shared;
    drrAttributes.insert(drrAttributes.end(), {{"Quantum", "1000"}, {"DropFrom", "Last"}});
    Attributes vdAttributes = shared;
    vdAttributes.emplace_back("MaxPacketSize", "1000");

    std::vector<uint64_t> drrUids;
    std::vector<uint64_t> vdUids;
    auto drr = MakeQueueDisc<DrrQueueDisc>(drrAttributes);
    auto vd = MakeQueueDisc<VerticalDimensioningQueueDisc>(vdAttributes);
    const Outcome d = RunScript(drr, script, sizes, &drrUids);
    const Outcome v = RunScript(vd, script, sizes, &vdUids);
    ASSERT_EQ(d.buckets.size(), 4U) << "four hosts, four buckets";

    // Arrival k of the script (0-based), as an index into the UIDs.
    auto uidsOf = [](const std::vector<uint64_t>& uids, const std::vector<std::size_t>& arrivals) {
        std::vector<uint64_t> out;
        for (const std::size_t k : arrivals)
        {
            out.push_back(uids[k]);
        }
        return out;
    };
    // Arrivals: 0 A1, 1 B1, 2 A2, 3 C1, 4 A3, 5 B2, 6 A4, 7 D1, 8 C3, 9 A5, 10 B4, 11 A6, 12 C4,
    // 13 B5.
    for (const auto& [o, uids] : {std::make_pair(&d, &drrUids), std::make_pair(&v, &vdUids)})
    {
        EXPECT_EQ(o->dropped, uidsOf(*uids, {6, 4, 11, 13}));
        EXPECT_EQ(o->sent, uidsOf(*uids, {0, 1, 3, 7, 2, 5, 8, 9, 10, 12}));
        EXPECT_EQ(o->droppedBeforeEnqueue, 2U) << "A4 and B5";
        EXPECT_EQ(o->droppedAfterDequeue, 2U) << "A3 and A6";
    }
    EXPECT_EQ(d.enqueued, v.enqueued);
    EXPECT_EQ(d.buckets, v.buckets);
    EXPECT_EQ(drr->GetStats().GetNDroppedPackets(DrrQueueDisc::OVERLIMIT_DROP), 4U);
    EXPECT_EQ(vd->GetStats().GetNDroppedPackets(VerticalDimensioningQueueDisc::OVERFLOW_DROP), 4U);
    drr->Dispose();
    vd->Dispose();
}

// Where they differ: within a round VD drops the newest packet (its FIFO's tail), DRR the packet
// of the flow behind in its ActiveList. A1 B1 B2 A2 fill 4000 B; C1 (100 B) overflows: both
// A and B end in round 1, VD's round 1 is [B2, A2] and loses A2, DRR's ActiveList is A, B and
// loses B2.
TEST(PerFlowQueueDisc, DropFromLastBreaksTiesByActiveListOrderNotArrival)
{
    const Attributes shared = {{"MaxSize", "4000B"}, {"Buckets", "1024"}};
    Attributes drrAttributes = shared;
    drrAttributes.insert(drrAttributes.end(), {{"Quantum", "1000"}, {"DropFrom", "Last"}});
    Attributes vdAttributes = shared;
    vdAttributes.emplace_back("MaxPacketSize", "1000");
    std::vector<uint64_t> drrUids;
    std::vector<uint64_t> vdUids;
    const std::vector<uint32_t> sizes = {1000, 1000, 1000, 1000, 100};
    auto drr = MakeQueueDisc<DrrQueueDisc>(drrAttributes);
    auto vd = MakeQueueDisc<VerticalDimensioningQueueDisc>(vdAttributes);
    const Outcome d = RunScript(drr, "ABBAC", sizes, &drrUids);
    const Outcome v = RunScript(vd, "ABBAC", sizes, &vdUids);
    EXPECT_EQ(d.dropped, std::vector<uint64_t>{drrUids[2]}) << "B2";
    EXPECT_EQ(v.dropped, std::vector<uint64_t>{vdUids[3]}) << "A2";
    drr->Dispose();
    vd->Dispose();
}

namespace
{

/**
 * A FlowKeyClassifier: IP packets in class (destination port mod 5), others unmatched; it
 * counts which path asked it, the key (ClassifyKey) or the packet (Classify).
 */
class PortClassFilter : public PacketFilter, public FlowKeyClassifier
{
  public:
    int32_t ClassifyKey(const FlowKey& key) const override
    {
        ++byKey;
        return ClassOf(key);
    }

    mutable uint64_t byKey = 0;    //!< ClassifyKey calls
    mutable uint64_t byPacket = 0; //!< DoClassify calls

  private:
    /// \param key a flow key \return its class
    static int32_t ClassOf(const FlowKey& key)
    {
        return key.isIp ? key.dstPort % 5 : PacketFilter::PF_NO_MATCH;
    }

    bool CheckProtocol(Ptr<QueueDiscItem>) const override
    {
        return true;
    }

    int32_t DoClassify(Ptr<QueueDiscItem> item) const override
    {
        ++byPacket;
        return ClassOf(FlowIdentifier::Extract(item));
    }
};

/// A packet filter that matches nothing.
class NoMatchFilter : public PacketFilter
{
  private:
    bool CheckProtocol(Ptr<QueueDiscItem>) const override
    {
        return true;
    }

    int32_t DoClassify(Ptr<QueueDiscItem>) const override
    {
        return PacketFilter::PF_NO_MATCH;
    }
};

/// What a queue disc did with random traffic, by arrival index.
struct RandomRun
{
    std::vector<bool> queued;        //!< per arrival: whether Enqueue returned true
    std::vector<std::size_t> sent;   //!< arrivals, in the order sent
    std::vector<std::size_t> stolen; //!< arrivals, in the order dropped
    uint64_t arrivals = 0;           //!< packets offered
};

/**
 * Offer the same random traffic (IPv4 from six hosts to twelve ports, IPv6, non-IP; 64-1500 B;
 * two arrivals per departure) to a queue disc.
 * \param qd the queue disc, initialized
 * \return what it did
 */
template <typename QD>
RandomRun
OfferRandomTraffic(Ptr<QD> qd)
{
    RandomRun run;
    std::map<uint64_t, std::size_t> arrivalOf; // packet UID -> arrival index
    std::vector<uint64_t> droppedUids;
    qd->TraceConnectWithoutContext("Drop", MakeBoundCallback(&RecordDrop, &droppedUids));
    std::mt19937 rng(20261204);
    std::uniform_int_distribution<uint32_t> size(64, 1500);
    std::uniform_int_distribution<uint32_t> pick(0, 99);
    for (int step = 0; step < 3000; ++step)
    {
        if (pick(rng) < 33)
        {
            if (Ptr<QueueDiscItem> item = qd->Dequeue())
            {
                run.sent.push_back(arrivalOf.at(qdisclab::test::Uid(item)));
            }
            continue;
        }
        const uint32_t kind = pick(rng);
        const uint32_t bytes = size(rng);
        Ptr<QueueDiscItem> item;
        if (kind < 80)
        {
            const std::string src = "10.0.0." + std::to_string(1 + kind % 6);
            item = qdisclab::test::Ipv4UdpPacket(src.c_str(),
                                                 "10.9.0.1",
                                                 1000,
                                                 static_cast<uint16_t>(1 + pick(rng) % 12),
                                                 std::max(bytes, qdisclab::test::IPV4_UDP));
        }
        else if (kind < 95)
        {
            item = qdisclab::test::Ipv6UdpPacket("2001:db8::1",
                                                 "2001:db8::2",
                                                 7,
                                                 static_cast<uint16_t>(1 + pick(rng) % 12),
                                                 std::max(bytes, qdisclab::test::IPV6_UDP));
        }
        else
        {
            item = Create<qdisclab::test::NonIpItem>(bytes);
        }
        arrivalOf[qdisclab::test::Uid(item)] = run.arrivals++;
        run.queued.push_back(qd->Enqueue(item));
    }
    while (Ptr<QueueDiscItem> item = qd->Dequeue())
    {
        run.sent.push_back(arrivalOf.at(qdisclab::test::Uid(item)));
    }
    for (const uint64_t uid : droppedUids)
    {
        run.stolen.push_back(arrivalOf.at(uid));
    }
    return run;
}

/**
 * A FlowKeyClassifier as a per-flow queue disc's only filter is asked by key, once per
 * arrival, and never by packet; with a second filter behind it, QueueDisc::Classify asks it by
 * packet; both give the same queued/dropped decisions, order of service and drops.
 * \param attributes the queue disc's attributes
 */
template <typename QD>
void
CheckKeyClassifierPath(const Attributes& attributes)
{
    auto byKey = CreateObject<PortClassFilter>();
    auto alone = MakeQueueDisc<QD>(attributes, byKey);
    const RandomRun a = OfferRandomTraffic(alone);
    EXPECT_EQ(byKey->byKey, a.arrivals);
    EXPECT_EQ(byKey->byPacket, 0U);

    auto byPacket = CreateObject<PortClassFilter>();
    auto both = MakeQueueDisc<QD>(attributes, byPacket);
    both->AddPacketFilter(CreateObject<NoMatchFilter>());
    const RandomRun b = OfferRandomTraffic(both);
    EXPECT_EQ(byPacket->byKey, 0U);
    EXPECT_EQ(byPacket->byPacket, b.arrivals);

    ASSERT_EQ(a.arrivals, b.arrivals);
    EXPECT_GT(a.stolen.size(), 100U) << "the buffer is full often enough to test drops";
    EXPECT_EQ(a.queued, b.queued);
    EXPECT_EQ(a.sent, b.sent);
    EXPECT_EQ(a.stolen, b.stolen);
    alone->Dispose();
    both->Dispose();
}

} // namespace

TEST(PerFlowQueueDisc, KeyClassifierAsTheOnlyFilterIsAskedByKeyWithTheSameResults)
{
    CheckKeyClassifierPath<DrrQueueDisc>({{"MaxSize", "20000B"}, {"Buckets", "8"}});
    CheckKeyClassifierPath<VerticalDimensioningQueueDisc>(
        {{"MaxSize", "20000B"}, {"Buckets", "8"}, {"MaxPacketSize", "1500"}});
}

// Every drop and mark reason of the module is 32-byte aligned (PerFlowQueueDisc::OVERLIMIT_DROP
// says why: QueueDisc's per-reason maps take strlen and memcmp of it on every drop, and their
// cost then does not depend on where the linker puts the text).
TEST(DropReasons, AreAlignedTo32Bytes)
{
    const std::vector<const char*> reasons = {
        PerFlowQueueDisc::OVERLIMIT_DROP,
        VerticalDimensioningQueueDisc::OVERFLOW_DROP,
        VerticalDimensioningQueueDisc::BEYOND_LAST_ROUND_DROP,
        RioQueueDisc::UNFORCED_DROP,
        RioQueueDisc::FORCED_DROP,
        RioQueueDisc::UNFORCED_MARK,
        RioQueueDisc::FORCED_MARK,
        RiPlusOQueueDisc::OUT_UNFORCED_DROP,
        RiPlusOQueueDisc::OUT_FORCED_DROP,
        RiPlusOQueueDisc::OUT_UNFORCED_MARK,
        RiPlusOQueueDisc::OUT_FORCED_MARK,
        CioqRedQueueDisc::UNFORCED_DROP,
        CioqRedQueueDisc::FORCED_DROP,
        CioqRedQueueDisc::UNFORCED_MARK,
        CioqRedQueueDisc::FORCED_MARK,
    };
    for (const char* reason : reasons)
    {
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(reason) % 32, 0U) << reason;
        EXPECT_LT(std::string(reason).size(), 32U) << reason << ": longer than its 32 bytes";
    }
}
