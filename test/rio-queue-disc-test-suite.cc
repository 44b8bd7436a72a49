/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RioQueueDisc and RiPlusOQueueDisc: RIO with one class is RedQueueDisc drop for drop; each
// class follows RED's formula on its own average; the paper's claims about which class is
// touched when; ECN; DSCP classification (IPv4, IPv6, non-IP); three-precedence averaging; and
// the pitfalls other implementations fall into.

#include "qdisc-lab-red-twins.h"
#include "qdisc-lab-test-packets.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv6-header.h"
#include "ns3/ipv6-queue-disc-item.h"
#include "ns3/packet.h"
#include "ns3/ri-plus-o-queue-disc.h"
#include "ns3/rio-queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

using qdisclab::test::Attributes;

/**
 * \param dscp DSCP
 * \param size total size in bytes, >= 28
 * \param ect whether the packet is ECN-capable (ECT(0))
 * \return an IPv4/UDP packet
 */
Ptr<QueueDiscItem>
Ip4(Ipv4Header::DscpType dscp, uint32_t size = 1000, bool ect = false)
{
    return qdisclab::test::Ipv4UdpPacket("10.0.0.1",
                                         "10.0.0.2",
                                         1000,
                                         2000,
                                         size,
                                         dscp,
                                         ect ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT);
}

/**
 * \param dscp DSCP (6 bits)
 * \param size total size in bytes, >= 48
 * \param ect whether the packet is ECN-capable (ECT(0))
 * \return an IPv6/UDP packet
 */
Ptr<QueueDiscItem>
Ip6(uint8_t dscp, uint32_t size = 1000, bool ect = false)
{
    return qdisclab::test::Ipv6UdpPacket("2001:db8::1",
                                         "2001:db8::2",
                                         1000,
                                         2000,
                                         size,
                                         dscp,
                                         ect ? Ipv6Header::ECN_ECT0 : Ipv6Header::ECN_NotECT);
}

/// An IN packet (AF11) of 1000 B.
Ptr<QueueDiscItem>
In(bool ect = false)
{
    return Ip4(Ipv4Header::DSCP_AF11, 1000, ect);
}

/// An OUT packet (AF12) of 1000 B.
Ptr<QueueDiscItem>
Out(bool ect = false)
{
    return Ip4(Ipv4Header::DSCP_AF12, 1000, ect);
}

/// Advance the simulator's clock by \p seconds (no events).
void
Advance(double seconds)
{
    Simulator::Stop(Seconds(seconds));
    Simulator::Run();
}

/// RED's textbook drop probability: p_b from the average, then spaced by count (Wait off).
struct Textbook
{
    double minTh; //!< min_th
    double maxTh; //!< max_th
    double maxP;  //!< max_p
    bool gentle;  //!< gentle

    /**
     * \param avg the average, min_th <= avg < max_th (gentle: < 2 max_th)
     * \param count packets since the last drop, this one included
     * \return p_a
     */
    double Pa(double avg, uint64_t count) const
    {
        const double pb = avg < maxTh ? maxP * (avg - minTh) / (maxTh - minTh)
                                      : maxP + (1 - maxP) * (avg - maxTh) / maxTh;
        return count * pb < 1 ? std::min(1.0, pb / (1 - count * pb)) : 1.0;
    }

    /// \return the average from which every packet is dropped
    double Forced() const
    {
        return gentle ? 2 * maxTh : maxTh;
    }
};

} // namespace

/**
 * \ingroup qdisc-lab-tests
 * With packets of one precedence only, RIO is RedQueueDisc with that precedence's parameters,
 * drop for drop, for the same random stream (RunRedTwins): IN packets (AFx1, IPv4 or IPv6) and
 * the IN parameters; OUT packets (best effort) and the IN+OUT parameters; three precedences in
 * RIO-C, RIO-D and WRED.
 */
class RioMatchesRedTestCase : public TestCase
{
  public:
    /// Which traffic, which RIO.
    enum Variant
    {
        IN_IPV4,      //!< AF11 over IPv4: the IN test
        IN_IPV6,      //!< AF21 over IPv6: the IN test
        OUT_BE,       //!< best effort: the IN+OUT test
        THREE_AF13,   //!< three precedences, coupled, AF33 only: the last test
        DECOUPLED_MID //!< three precedences, decoupled, AF42 only: the middle test
    };

    /**
     * \param config the RED configuration
     * \param variant traffic and RIO
     */
    RioMatchesRedTestCase(const qdisclab::test::RedTwinConfig& config, Variant variant)
        : TestCase("RIO with one precedence matches RedQueueDisc drop for drop: " + config.name +
                   ", " + Name(variant)),
          m_config(config),
          m_variant(variant)
    {
    }

  private:
    /**
     * \param v a variant
     * \return its name
     */
    static std::string Name(Variant v)
    {
        switch (v)
        {
        case IN_IPV4:
            return "IN over IPv4";
        case IN_IPV6:
            return "IN over IPv6";
        case OUT_BE:
            return "OUT (best effort)";
        case THREE_AF13:
            return "three precedences, AF33 (RIO-C)";
        case DECOUPLED_MID:
        default:
            return "three precedences, AF42 (RIO-D)";
        }
    }

    void DoRun() override
    {
        const auto& c = m_config;
        // The tested precedence gets RED's parameters; the others get different ones.
        std::string prefix = "In";
        Attributes attributes = {{"MaxSize", c.Limit()},
                                 {"QueueWeight", std::to_string(c.qW)},
                                 {"Wait", c.wait ? "true" : "false"},
                                 {"Gentle", c.gentle ? "true" : "false"},
                                 {"UseEcn", c.ecn ? "true" : "false"},
                                 {"UseHardDrop", c.hardDrop ? "true" : "false"},
                                 {"MeanPktSize", std::to_string(c.meanPktSize)},
                                 {"LinkBandwidth", std::to_string(uint64_t(c.linkRate)) + "bps"}};
        const double unit = c.bytes ? 1000 : 1;
        for (const char* other : {"In", "Mid", "Total"})
        {
            attributes.emplace_back(std::string(other) + "MinTh", std::to_string(2 * unit));
            attributes.emplace_back(std::string(other) + "MaxTh", std::to_string(3 * unit));
            attributes.emplace_back(std::string(other) + "MaxP", "1");
        }
        std::function<Ptr<QueueDiscItem>(uint32_t, bool)> make;
        switch (m_variant)
        {
        case IN_IPV4:
            make = [](uint32_t size, bool ecn) { return Ip4(Ipv4Header::DSCP_AF11, size, ecn); };
            break;
        case IN_IPV6:
            // AF21; the twins' 40 B packets are too small for IPv6 + UDP headers.
            make = [](uint32_t size, bool ecn) {
                return Ip6(18, std::max(size, qdisclab::test::IPV6_UDP), ecn);
            };
            break;
        case OUT_BE:
            prefix = "Total";
            make = [](uint32_t size, bool ecn) { return Ip4(Ipv4Header::DscpDefault, size, ecn); };
            break;
        case THREE_AF13:
            prefix = "Total";
            attributes.emplace_back("Precedences", "3");
            make = [](uint32_t size, bool ecn) { return Ip4(Ipv4Header::DSCP_AF33, size, ecn); };
            break;
        case DECOUPLED_MID:
            prefix = "Mid";
            attributes.emplace_back("Precedences", "3");
            attributes.emplace_back("Averaging", "Decoupled");
            make = [](uint32_t size, bool ecn) { return Ip4(Ipv4Header::DSCP_AF42, size, ecn); };
            break;
        }
        attributes.emplace_back(prefix + "MinTh", std::to_string(c.MinTh()));
        attributes.emplace_back(prefix + "MaxTh", std::to_string(c.MaxTh()));
        // MaxP as RedQueueDisc computes it from LInterm; DoubleValue parses it back exactly.
        std::ostringstream maxP;
        maxP.precision(17);
        maxP << 1.0 / c.lInterm;
        attributes.emplace_back(prefix + "MaxP", maxP.str());

        // The thresholds of the other precedences come first; the tested ones override them.
        auto rio = CreateObject<RioQueueDisc>();
        for (const auto& [name, value] : attributes)
        {
            rio->SetAttribute(name, StringValue(value));
        }
        Ptr<RedQueueDisc> red = c.MakeRed();
        red->Initialize();
        rio->Initialize();
        red->AssignStreams(23);
        rio->AssignStreams(23);
        const auto run = qdisclab::test::RunRedTwins(red, rio, make, c.linkRate);
        NS_TEST_ASSERT_MSG_EQ(run.divergence, "", "RIO and RED diverged");
        NS_TEST_EXPECT_MSG_GT(run.arrivals, 20000, "arrivals");
        const QueueDisc::Stats& s = red->GetStats();
        NS_TEST_EXPECT_MSG_GT(s.GetNDroppedPackets(RedQueueDisc::UNFORCED_DROP) +
                                  s.GetNMarkedPackets(RedQueueDisc::UNFORCED_MARK),
                              20,
                              "early drops/marks");
        NS_TEST_EXPECT_MSG_GT(s.GetNDroppedPackets(RedQueueDisc::FORCED_DROP) +
                                  s.GetNMarkedPackets(RedQueueDisc::FORCED_MARK),
                              20,
                              "forced drops/marks");
        // Every packet was of one precedence, and the counters say so.
        const uint32_t tested = rio->GetPrecedence(make(100, false));
        const auto& ps = rio->GetPrecedenceStats(tested);
        NS_TEST_EXPECT_MSG_EQ(ps.arrivals, run.arrivals, "all arrivals in one precedence");
        NS_TEST_EXPECT_MSG_EQ(ps.earlyDrops,
                              s.GetNDroppedPackets(RedQueueDisc::UNFORCED_DROP),
                              "early drops in the precedence's stats");
        NS_TEST_EXPECT_MSG_EQ(ps.forcedDrops,
                              s.GetNDroppedPackets(RedQueueDisc::FORCED_DROP),
                              "forced drops in the precedence's stats");
        NS_TEST_EXPECT_MSG_EQ(ps.earlyMarks + ps.forcedMarks,
                              s.GetNMarkedPackets(RedQueueDisc::UNFORCED_MARK) +
                                  s.GetNMarkedPackets(RedQueueDisc::FORCED_MARK),
                              "marks in the precedence's stats");
        NS_TEST_EXPECT_MSG_EQ(ps.enqueued, s.nTotalEnqueuedPackets, "enqueued");
        rio->Dispose();
    }

    qdisclab::test::RedTwinConfig m_config; //!< RED configuration
    Variant m_variant;                      //!< traffic and RIO
};

/**
 * \ingroup qdisc-lab-tests
 * Mixed IN and OUT traffic through every load: for every arrival, the probability RIO applied
 * is RED's textbook formula on the packet's own average with its own parameters (IN: avg_in and
 * InMinTh/InMaxTh/InMaxP; OUT: avg_total and TotalMinTh/...), 0 below min and for the first
 * packet above it, 1 in the forced region (where the packet must be dropped); and the early
 * drops of each class are as many as the probabilities promise (within 5 standard deviations).
 */
class RioFollowsRedFormulaTestCase : public TestCase
{
  public:
    /// \param gentle with Gentle
    explicit RioFollowsRedFormulaTestCase(bool gentle)
        : TestCase(std::string("every class follows RED's formula on its own average, ") +
                   (gentle ? "gentle" : "not gentle")),
          m_gentle(gentle)
    {
    }

  private:
    void DoRun() override
    {
        const Textbook classes[] = {{20, 40, 0.1, m_gentle}, {10, 30, 0.25, m_gentle}};
        auto rio =
            qdisclab::test::MakeQueueDisc<RioQueueDisc>({{"MaxSize", "200p"},
                                                         {"InMinTh", "20"},
                                                         {"InMaxTh", "40"},
                                                         {"InMaxP", "0.1"},
                                                         {"TotalMinTh", "10"},
                                                         {"TotalMaxTh", "30"},
                                                         {"TotalMaxP", "0.25"},
                                                         {"QueueWeight", "0.02"},
                                                         {"Wait", "false"},
                                                         {"Gentle", m_gentle ? "true" : "false"}});
        rio->AssignStreams(5);

        std::mt19937_64 rng(77);
        std::bernoulli_distribution isIn(0.45);
        uint64_t tested[2] = {0, 0};
        uint64_t earlyDrops[2] = {0, 0};
        double expectedDrops[2] = {0, 0};
        double variance[2] = {0, 0};
        uint64_t forced[2] = {0, 0};
        uint64_t gentleRegion[2] = {0, 0};
        bool old[2] = {false, false};
        // Phases: arrivals outnumber departures 3:1, then 1:1, then 1:3 ...
        const double serviceShare[] = {0.25, 0.5, 0.75, 0.45};
        for (int step = 0; step < 60000; ++step)
        {
            const double service = serviceShare[(step / 1500) % 4];
            if (std::bernoulli_distribution(service)(rng))
            {
                rio->Dequeue();
                continue;
            }
            const uint32_t k = isIn(rng) ? 0 : 1;
            const Textbook& t = classes[k];
            const uint64_t countBefore = rio->GetCount(k + 1);
            const double q = rio->GetQueueLength(k + 1);
            const bool accepted = rio->Enqueue(k == 0 ? In() : Out());
            const double avg = rio->GetAverage(k + 1);
            const double p = rio->GetDropProbability(k + 1);
            if (avg < t.minTh || q <= 1)
            {
                NS_TEST_ASSERT_MSG_EQ(p, 0.0, "below min_th");
                NS_TEST_ASSERT_MSG_EQ(accepted, true, "below min_th");
                old[k] = false;
            }
            else if (avg >= t.Forced())
            {
                NS_TEST_ASSERT_MSG_EQ(p, 1.0, "forced region");
                NS_TEST_ASSERT_MSG_EQ(accepted, false, "forced region");
                forced[k]++;
            }
            else if (!old[k])
            {
                NS_TEST_ASSERT_MSG_EQ(p, 0.0, "first packet above min_th");
                old[k] = true;
            }
            else
            {
                const double pa = t.Pa(avg, countBefore + 1);
                NS_TEST_ASSERT_MSG_EQ_TOL(p,
                                          pa,
                                          1e-12 + 1e-9 * pa,
                                          "class " << k << " avg " << avg);
                tested[k]++;
                gentleRegion[k] += avg >= t.maxTh ? 1 : 0;
                expectedDrops[k] += pa;
                variance[k] += pa * (1 - pa);
                earlyDrops[k] += accepted ? 0 : 1;
            }
        }
        for (uint32_t k = 0; k < 2; ++k)
        {
            NS_TEST_EXPECT_MSG_GT(tested[k], 2000, "class " << k << " tested between thresholds");
            // Gentle: arrivals tested between max_th and 2 max_th; otherwise forced drops.
            const uint64_t aboveMax = m_gentle ? gentleRegion[k] : forced[k];
            NS_TEST_EXPECT_MSG_GT(aboveMax, 100, "class " << k << " above max_th");
            NS_TEST_EXPECT_MSG_LT(std::abs(earlyDrops[k] - expectedDrops[k]),
                                  5 * std::sqrt(variance[k]) + 1,
                                  "class " << k << ": " << earlyDrops[k] << " early drops, "
                                           << expectedDrops[k] << " expected");
            NS_TEST_EXPECT_MSG_EQ(rio->GetPrecedenceStats(k + 1).earlyDrops,
                                  earlyDrops[k],
                                  "class " << k << " stats");
        }
        rio->Dispose();
    }

    bool m_gentle; //!< Gentle
};

/**
 * \ingroup qdisc-lab-tests
 * The paper's separation: while avg_in < min_in, IN packets are never dropped, however heavy
 * the OUT load (which RIO drops from avg_total); once avg_total >= max_total every OUT packet is
 * dropped (forced), while IN packets still pass.
 */
class RioInUntouchedByOutTestCase : public TestCase
{
  public:
    RioInUntouchedByOutTestCase()
        : TestCase("IN untouched by OUT load while avg_in < min_in; OUT dropped above max_total")
    {
    }

  private:
    void DoRun() override
    {
        auto rio = qdisclab::test::MakeQueueDisc<RioQueueDisc>({{"MaxSize", "400p"},
                                                                {"InMinTh", "40"},
                                                                {"InMaxTh", "80"},
                                                                {"TotalMinTh", "20"},
                                                                {"TotalMaxTh", "60"},
                                                                {"QueueWeight", "0.05"}});
        rio->AssignStreams(3);
        double maxAvgIn = 0;
        uint64_t outAboveMax = 0;
        uint64_t outForcedSeen = 0;
        // Every round: one IN and four OUT arrivals, two departures: OUT overloads the queue, IN
        // alone would not (IN is a fifth of the arrivals, the link serves two fifths).
        for (int round = 0; round < 5000; ++round)
        {
            NS_TEST_ASSERT_MSG_EQ(rio->Enqueue(In()), true, "IN accepted, round " << round);
            maxAvgIn = std::max(maxAvgIn, rio->GetAverage(1));
            for (int i = 0; i < 4; ++i)
            {
                const double q = rio->GetQueueLength(2);
                const bool accepted = rio->Enqueue(Out());
                if (rio->GetAverage(2) >= 60 && q > 1)
                {
                    outAboveMax++;
                    NS_TEST_ASSERT_MSG_EQ(accepted, false, "OUT dropped above max_total");
                }
            }
            rio->Dequeue();
            rio->Dequeue();
        }
        const auto& in = rio->GetPrecedenceStats(1);
        const auto& out = rio->GetPrecedenceStats(2);
        outForcedSeen = out.forcedDrops;
        NS_TEST_EXPECT_MSG_LT(maxAvgIn, 40, "avg_in stayed below min_in");
        NS_TEST_EXPECT_MSG_EQ(in.earlyDrops + in.forcedDrops + in.limitDrops, 0, "no IN drop");
        NS_TEST_EXPECT_MSG_EQ(in.enqueued, 5000, "every IN packet queued");
        NS_TEST_EXPECT_MSG_GT(out.earlyDrops, 100, "OUT early drops");
        NS_TEST_EXPECT_MSG_GT(outAboveMax, 100, "OUT arrivals above max_total");
        NS_TEST_EXPECT_MSG_EQ(outForcedSeen, outAboveMax, "forced drops = arrivals above max");
        rio->Dispose();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * RI+O's OUT test: with OUT thresholds (2/6) below the IN+OUT ones (30/90), every OUT packet is
 * dropped once avg_out >= max_out although avg_total < min_total, where RIO's tests drop
 * nothing; those drops carry the avg_out reasons; IN packets are untouched; and avg_out is
 * avg_total - avg_in after every arrival.
 */
class RiPlusODropsOutAboveMaxOutTestCase : public TestCase
{
  public:
    RiPlusODropsOutAboveMaxOutTestCase()
        : TestCase("RI+O drops OUT above max_out while avg_total < min_total")
    {
    }

  private:
    void DoRun() override
    {
        auto riPlusO = qdisclab::test::MakeQueueDisc<RiPlusOQueueDisc>({{"MaxSize", "400p"},
                                                                        {"TotalMinTh", "30"},
                                                                        {"TotalMaxTh", "90"},
                                                                        {"OutMinTh", "2"},
                                                                        {"OutMaxTh", "6"},
                                                                        {"QueueWeight", "0.05"}});
        riPlusO->AssignStreams(9);
        uint64_t aboveMaxOut = 0;
        for (int round = 0; round < 3000; ++round)
        {
            // Two IN and two OUT arrivals, three departures: the queue stays short (~ 20).
            for (int i = 0; i < 2; ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(riPlusO->Enqueue(In()), true, "IN accepted");
            }
            for (int i = 0; i < 2; ++i)
            {
                const double qOut = riPlusO->GetQueueLength(2) - riPlusO->GetQueueLength(1);
                const bool accepted = riPlusO->Enqueue(Out());
                const double avgOut = riPlusO->GetAvgOut();
                NS_TEST_ASSERT_MSG_EQ_TOL(avgOut,
                                          riPlusO->GetAverage(2) - riPlusO->GetAverage(1),
                                          1e-12,
                                          "avg_out = avg_total - avg_in");
                NS_TEST_ASSERT_MSG_LT(riPlusO->GetAverage(2), 30, "avg_total < min_total");
                if (avgOut >= 6 && qOut > 1)
                {
                    aboveMaxOut++;
                    NS_TEST_ASSERT_MSG_EQ(accepted, false, "OUT dropped above max_out");
                }
            }
            for (int i = 0; i < 3; ++i)
            {
                riPlusO->Dequeue();
            }
        }
        const QueueDisc::Stats& s = riPlusO->GetStats();
        NS_TEST_EXPECT_MSG_GT(aboveMaxOut, 50, "OUT arrivals with avg_out above max_out");
        NS_TEST_EXPECT_MSG_EQ(s.GetNDroppedPackets(RiPlusOQueueDisc::OUT_FORCED_DROP),
                              aboveMaxOut,
                              "forced drops on avg_out");
        NS_TEST_EXPECT_MSG_GT(s.GetNDroppedPackets(RiPlusOQueueDisc::OUT_UNFORCED_DROP),
                              20,
                              "early drops on avg_out");
        NS_TEST_EXPECT_MSG_EQ(s.GetNDroppedPackets(RioQueueDisc::UNFORCED_DROP) +
                                  s.GetNDroppedPackets(RioQueueDisc::FORCED_DROP),
                              0,
                              "no IN+OUT (or IN) drops");
        const auto& out = riPlusO->GetPrecedenceStats(2);
        NS_TEST_EXPECT_MSG_EQ(out.forcedDrops + out.earlyDrops,
                              s.nTotalDroppedPackets,
                              "every drop is an OUT drop");
        riPlusO->Dispose();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * RI+O adds exactly the OUT test: with an OUT test that can never fire (OutMinTh far above any
 * average), RI+O and RIO take the same decisions for every packet on mixed traffic, from the
 * same random stream (the OUT test never draws below its min_th).
 */
class RiPlusOIsRioPlusOneTestTestCase : public TestCase
{
  public:
    RiPlusOIsRioPlusOneTestTestCase()
        : TestCase("RI+O with an idle OUT test is RIO, drop for drop")
    {
    }

  private:
    void DoRun() override
    {
        const Attributes attributes = {{"MaxSize", "150p"},
                                       {"InMinTh", "20"},
                                       {"InMaxTh", "50"},
                                       {"TotalMinTh", "10"},
                                       {"TotalMaxTh", "40"},
                                       {"QueueWeight", "0.02"},
                                       {"Gentle", "true"}};
        auto rio = qdisclab::test::MakeQueueDisc<RioQueueDisc>(attributes);
        Attributes more = attributes;
        more.emplace_back("OutMinTh", "1000");
        more.emplace_back("OutMaxTh", "2000");
        auto riPlusO = qdisclab::test::MakeQueueDisc<RiPlusOQueueDisc>(more);
        rio->AssignStreams(31);
        riPlusO->AssignStreams(31);
        std::mt19937_64 rng(3);
        std::bernoulli_distribution isIn(0.4);
        for (int step = 0; step < 40000; ++step)
        {
            const double service = (step / 2000) % 2 ? 0.3 : 0.55;
            if (std::bernoulli_distribution(service)(rng))
            {
                rio->Dequeue();
                riPlusO->Dequeue();
                continue;
            }
            const bool in = isIn(rng);
            NS_TEST_ASSERT_MSG_EQ(riPlusO->Enqueue(in ? In() : Out()),
                                  rio->Enqueue(in ? In() : Out()),
                                  "step " << step);
        }
        for (uint32_t p = 1; p <= 2; ++p)
        {
            NS_TEST_EXPECT_MSG_EQ(riPlusO->GetPrecedenceStats(p).earlyDrops,
                                  rio->GetPrecedenceStats(p).earlyDrops,
                                  "precedence " << p);
            NS_TEST_EXPECT_MSG_GT(rio->GetPrecedenceStats(p).earlyDrops, 50, "drops happen");
        }
        rio->Dispose();
        riPlusO->Dispose();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * ECN: with UseEcn, early decisions mark ECN-capable packets (IN and OUT) instead of dropping
 * them, and drop the others; above the maximum threshold packets are dropped (UseHardDrop) or
 * marked (UseHardDrop off); IPv6 packets are marked too; RI+O's OUT test marks the same way and
 * does not mark a packet twice.
 */
class RioEcnTestCase : public TestCase
{
  public:
    RioEcnTestCase()
        : TestCase("ECN marks replace early drops; hard drops above max")
    {
    }

  private:
    /**
     * \param item a packet
     * \return whether it carries the CE mark
     */
    static bool IsCe(Ptr<const QueueDiscItem> item)
    {
        if (auto ip4 = DynamicCast<const Ipv4QueueDiscItem>(item))
        {
            return ip4->GetHeader().GetEcn() == Ipv4Header::ECN_CE;
        }
        auto ip6 = DynamicCast<const Ipv6QueueDiscItem>(item);
        return ip6 && ip6->GetHeader().GetEcn() == Ipv6Header::ECN_CE;
    }

    /**
     * Mixed traffic, 60% ECN-capable, half IPv6, then drain the queue.
     * \param qd the queue disc
     * \return the packets that left the queue disc (sent or dropped) with the CE mark
     */
    static uint64_t Drive(Ptr<RioQueueDisc> qd)
    {
        uint64_t ce = 0;
        qd->TraceConnectWithoutContext("Drop",
                                       MakeCallback(+[](uint64_t* n, Ptr<const QueueDiscItem> i) {
                                           *n += IsCe(i) ? 1 : 0;
                                       }).Bind(&ce));
        std::mt19937_64 rng(8);
        std::bernoulli_distribution coin(0.5);
        std::bernoulli_distribution ect(0.6);
        for (int step = 0; step < 40000; ++step)
        {
            const double service = (step / 2000) % 2 ? 0.4 : 0.55;
            if (std::bernoulli_distribution(service)(rng))
            {
                if (Ptr<QueueDiscItem> item = qd->Dequeue())
                {
                    ce += IsCe(item) ? 1 : 0;
                }
                continue;
            }
            const bool in = coin(rng);
            const bool capable = ect(rng);
            qd->Enqueue(
                coin(rng) ? Ip4(in ? Ipv4Header::DSCP_AF21 : Ipv4Header::DscpDefault, 1000, capable)
                          : Ip6(in ? 18 : 0, 1000, capable));
        }
        while (Ptr<QueueDiscItem> item = qd->Dequeue())
        {
            ce += IsCe(item) ? 1 : 0;
        }
        return ce;
    }

    void DoRun() override
    {
        const Attributes base = {{"MaxSize", "150p"},
                                 {"InMinTh", "15"},
                                 {"InMaxTh", "40"},
                                 {"TotalMinTh", "10"},
                                 {"TotalMaxTh", "30"},
                                 {"QueueWeight", "0.02"},
                                 {"Wait", "false"},
                                 {"Gentle", "true"},
                                 {"UseEcn", "true"}};
        for (bool hardDrop : {true, false})
        {
            Attributes attributes = base;
            attributes.emplace_back("UseHardDrop", hardDrop ? "true" : "false");
            auto rio = qdisclab::test::MakeQueueDisc<RioQueueDisc>(attributes);
            const uint64_t ce = Drive(rio);
            NS_TEST_EXPECT_MSG_EQ(ce, rio->GetStats().nTotalMarkedPackets, "one mark per packet");

            for (uint32_t p = 1; p <= 2; ++p)
            {
                const auto& s = rio->GetPrecedenceStats(p);
                NS_TEST_EXPECT_MSG_GT(s.earlyMarks, 50, "precedence " << p << " early marks");
                NS_TEST_EXPECT_MSG_GT(s.earlyDrops, 20, "precedence " << p << " not ECN-capable");
                NS_TEST_EXPECT_MSG_LT(s.earlyDrops, s.earlyMarks, "precedence " << p);
                if (hardDrop)
                {
                    NS_TEST_EXPECT_MSG_EQ(s.forcedMarks, 0, "hard drops: no forced marks");
                }
                else if (p == 2)
                {
                    NS_TEST_EXPECT_MSG_GT(s.forcedMarks, 20, "OUT forced marks");
                }
                NS_TEST_EXPECT_MSG_EQ(s.arrivals,
                                      s.enqueued + s.earlyDrops + s.forcedDrops + s.limitDrops,
                                      "every arrival accounted for");
            }
            NS_TEST_EXPECT_MSG_GT(rio->GetPrecedenceStats(2).forcedDrops, 20, "forced drops");
            const QueueDisc::Stats& st = rio->GetStats();
            NS_TEST_EXPECT_MSG_EQ(st.GetNMarkedPackets(RioQueueDisc::UNFORCED_MARK),
                                  rio->GetPrecedenceStats(1).earlyMarks +
                                      rio->GetPrecedenceStats(2).earlyMarks,
                                  "QueueDisc stats");
            rio->Dispose();
        }

        // RI+O: the OUT test marks as well, and never marks a packet twice.
        Attributes attributes = base;
        attributes.emplace_back("OutMinTh", "3");
        attributes.emplace_back("OutMaxTh", "12");
        auto riPlusO = qdisclab::test::MakeQueueDisc<RiPlusOQueueDisc>(attributes);
        const uint64_t ce = Drive(riPlusO);

        const QueueDisc::Stats& st = riPlusO->GetStats();
        NS_TEST_EXPECT_MSG_GT(st.GetNMarkedPackets(RiPlusOQueueDisc::OUT_UNFORCED_MARK),
                              20,
                              "early marks on avg_out");
        NS_TEST_EXPECT_MSG_GT(st.GetNDroppedPackets(RiPlusOQueueDisc::OUT_FORCED_DROP),
                              20,
                              "hard drops on avg_out");
        const auto& out = riPlusO->GetPrecedenceStats(2);
        NS_TEST_EXPECT_MSG_EQ(ce, st.nTotalMarkedPackets, "one mark per marked packet");
        NS_TEST_EXPECT_MSG_EQ(out.earlyMarks + out.forcedMarks,
                              st.nTotalMarkedPackets - riPlusO->GetPrecedenceStats(1).earlyMarks -
                                  riPlusO->GetPrecedenceStats(1).forcedMarks,
                              "OUT marks in the OUT stats");
        NS_TEST_EXPECT_MSG_EQ(out.arrivals,
                              out.enqueued + out.earlyDrops + out.forcedDrops + out.limitDrops,
                              "every OUT arrival accounted for");
        riPlusO->Dispose();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * Classification: AFx1 is IN, AFx2, AFx3, best effort and EF are OUT by default, over IPv4 and
 * IPv6; InDscps and MidDscps change that; three precedences; packets that are not IP get the
 * last precedence and are counted.
 */
class RioClassificationTestCase : public TestCase
{
  public:
    RioClassificationTestCase()
        : TestCase("DSCP -> precedence: defaults, lists, IPv6, non-IP")
    {
    }

  private:
    void DoRun() override
    {
        auto rio = qdisclab::test::MakeQueueDisc<RioQueueDisc>({});
        for (auto dscp : {Ipv4Header::DSCP_AF11,
                          Ipv4Header::DSCP_AF21,
                          Ipv4Header::DSCP_AF31,
                          Ipv4Header::DSCP_AF41})
        {
            NS_TEST_EXPECT_MSG_EQ(rio->GetPrecedence(Ip4(dscp)), 1, "AFx1 is IN");
            NS_TEST_EXPECT_MSG_EQ(rio->GetPrecedence(Ip6(dscp)), 1, "AFx1 is IN (IPv6)");
        }
        for (auto dscp : {Ipv4Header::DSCP_AF12,
                          Ipv4Header::DSCP_AF23,
                          Ipv4Header::DscpDefault,
                          Ipv4Header::DSCP_EF,
                          Ipv4Header::DSCP_CS1})
        {
            NS_TEST_EXPECT_MSG_EQ(rio->GetPrecedence(Ip4(dscp)), 2, "OUT: " << dscp);
            NS_TEST_EXPECT_MSG_EQ(rio->GetPrecedence(Ip6(dscp)), 2, "OUT (IPv6): " << dscp);
        }
        NS_TEST_EXPECT_MSG_EQ(rio->GetPrecedence(Ip4(Ipv4Header::DSCP_AF11, 1000, true)),
                              1,
                              "ECN bits do not change the precedence");
        NS_TEST_EXPECT_MSG_EQ(rio->GetPrecedence(Create<qdisclab::test::NonIpItem>(100)),
                              2,
                              "non-IP is OUT");
        rio->Enqueue(Create<qdisclab::test::NonIpItem>(100));
        rio->Enqueue(Ip6(10));
        NS_TEST_EXPECT_MSG_EQ(rio->GetPrecedenceStats(2).nonIp, 1, "non-IP counted");
        NS_TEST_EXPECT_MSG_EQ(rio->GetPrecedenceStats(2).arrivals, 1, "as OUT");
        NS_TEST_EXPECT_MSG_EQ(rio->GetPrecedenceStats(1).arrivals, 1, "IPv6 AF11 is IN");
        NS_TEST_EXPECT_MSG_EQ(rio->GetQueueLength(1), 1, "one IN packet queued");
        NS_TEST_EXPECT_MSG_EQ(rio->GetQueueLength(2), 2, "two packets in all");
        rio->Dequeue();
        NS_TEST_EXPECT_MSG_EQ(rio->GetQueueLength(2), 1, "the non-IP packet left");
        NS_TEST_EXPECT_MSG_EQ(rio->GetQueueLength(1), 1, "the IN one is still there");
        rio->Dequeue();
        NS_TEST_EXPECT_MSG_EQ(rio->GetQueueLength(1), 0, "IN backlog back to 0");
        rio->Dispose();

        auto custom = qdisclab::test::MakeQueueDisc<RioQueueDisc>({{"InDscps", "EF,46 10\tCS5"}});
        NS_TEST_EXPECT_MSG_EQ(custom->GetPrecedence(Ip4(Ipv4Header::DSCP_EF)), 1, "EF listed");
        NS_TEST_EXPECT_MSG_EQ(custom->GetPrecedence(Ip4(Ipv4Header::DSCP_AF11)), 1, "10 = AF11");
        NS_TEST_EXPECT_MSG_EQ(custom->GetPrecedence(Ip4(Ipv4Header::DSCP_CS5)), 1, "CS5 listed");
        NS_TEST_EXPECT_MSG_EQ(custom->GetPrecedence(Ip4(Ipv4Header::DSCP_AF21)), 2, "not listed");
        custom->Dispose();

        auto three = qdisclab::test::MakeQueueDisc<RioQueueDisc>({{"Precedences", "3"}});
        NS_TEST_EXPECT_MSG_EQ(three->GetPrecedence(Ip4(Ipv4Header::DSCP_AF31)), 1, "AFx1");
        NS_TEST_EXPECT_MSG_EQ(three->GetPrecedence(Ip4(Ipv4Header::DSCP_AF32)), 2, "AFx2");
        NS_TEST_EXPECT_MSG_EQ(three->GetPrecedence(Ip6(28)), 2, "AF32 over IPv6");
        NS_TEST_EXPECT_MSG_EQ(three->GetPrecedence(Ip4(Ipv4Header::DSCP_AF33)), 3, "AFx3");
        NS_TEST_EXPECT_MSG_EQ(three->GetPrecedence(Ip4(Ipv4Header::DscpDefault)), 3, "BE");
        NS_TEST_EXPECT_MSG_EQ(three->GetPrecedence(Create<qdisclab::test::NonIpItem>(100)),
                              3,
                              "non-IP");
        three->Dispose();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * What each average follows, with w_q = 1 (the average is the queue before the arrival): RIO-C
 * cumulates precedences (avg_in = IN backlog, avg_total = whole queue), RIO-D keeps them apart,
 * WRED gives every precedence the whole queue; byte mode counts bytes; the averages are updated
 * by every arrival, whatever its precedence.
 */
class RioAveragingTestCase : public TestCase
{
  public:
    RioAveragingTestCase()
        : TestCase("averages follow the documented queues (RIO-C, RIO-D, WRED, bytes)")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            std::string averaging; //!< Averaging
            std::string size;      //!< MaxSize
            double expected[3];    //!< averages after the probe, per precedence
        };

        // Queue: 3 x AF11 (100 B), 2 x AF12 (200 B), 4 x BE (300 B); then a BE probe arrives.
        const Case cases[] = {
            {"Coupled", "1000p", {3, 5, 9}},
            {"Decoupled", "1000p", {3, 2, 4}},
            {"Wred", "1000p", {9, 9, 9}},
            {"Coupled", "100000B", {300, 700, 1900}},
            {"Decoupled", "100000B", {300, 400, 1200}},
        };
        for (const Case& c : cases)
        {
            auto rio = qdisclab::test::MakeQueueDisc<RioQueueDisc>({{"Precedences", "3"},
                                                                    {"Averaging", c.averaging},
                                                                    {"MaxSize", c.size},
                                                                    {"QueueWeight", "1"},
                                                                    {"InMinTh", "1e6"},
                                                                    {"InMaxTh", "2e6"},
                                                                    {"MidMinTh", "1e6"},
                                                                    {"MidMaxTh", "2e6"},
                                                                    {"TotalMinTh", "1e6"},
                                                                    {"TotalMaxTh", "2e6"}});
            for (int i = 0; i < 3; ++i)
            {
                rio->Enqueue(Ip4(Ipv4Header::DSCP_AF11, 100));
            }
            for (int i = 0; i < 2; ++i)
            {
                rio->Enqueue(Ip4(Ipv4Header::DSCP_AF12, 200));
            }
            for (int i = 0; i < 4; ++i)
            {
                rio->Enqueue(Ip4(Ipv4Header::DscpDefault, 300));
            }
            rio->Enqueue(Ip4(Ipv4Header::DscpDefault, 300));
            for (uint32_t p = 1; p <= 3; ++p)
            {
                NS_TEST_EXPECT_MSG_EQ(rio->GetAverage(p),
                                      c.expected[p - 1],
                                      c.averaging << " " << c.size << " precedence " << p);
            }
            rio->Dispose();
        }
    }
};

/**
 * \ingroup qdisc-lab-tests
 * Pitfalls of other RIO implementations: an OUT arrival must update avg_in (it decays by
 * (1 - w_q) towards the IN backlog, and the AvgIn trace fires); each class's count keeps
 * counting its accepted packets (not reset by accepts, not touched by the other class); an
 * arrival dropped at an idle queue must not end the idle period (the next arrival still decays
 * the averages over the time since); idle periods decay avg_in and avg_total alike.
 */
class RioPitfallsTestCase : public TestCase
{
  public:
    RioPitfallsTestCase()
        : TestCase("pitfalls: OUT arrivals update avg_in, counts, idle after a dropped arrival")
    {
    }

  private:
    void DoRun() override
    {
        // 1. OUT arrivals update avg_in.
        auto rio = qdisclab::test::MakeQueueDisc<RioQueueDisc>({{"QueueWeight", "0.5"},
                                                                {"InMinTh", "100"},
                                                                {"InMaxTh", "200"},
                                                                {"TotalMinTh", "100"},
                                                                {"TotalMaxTh", "200"}});
        std::vector<double> avgInTrace;
        rio->TraceConnectWithoutContext("AvgIn",
                                        MakeCallback(+[](std::vector<double>* v, double, double n) {
                                            v->push_back(n);
                                        }).Bind(&avgInTrace));
        for (int i = 0; i < 4; ++i)
        {
            rio->Enqueue(In()); // avg_in: 0, 0.5, 1.25, 2.125 (queue before: 0, 1, 2, 3)
        }
        NS_TEST_ASSERT_MSG_EQ(rio->GetAverage(1), 2.125, "avg_in after four IN arrivals");
        for (int i = 0; i < 4; ++i)
        {
            rio->Dequeue(); // the IN packets leave
        }
        double expected = 2.125;
        for (int i = 0; i < 3; ++i)
        {
            rio->Enqueue(Out());
            expected *= 0.5; // IN backlog 0
            NS_TEST_ASSERT_MSG_EQ(rio->GetAverage(1), expected, "OUT arrival " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(avgInTrace.size(), 6, "AvgIn fired on OUT arrivals too");
        // avg_total: 2.125, then the OUT arrivals find 0, 1, 2 packets queued.
        NS_TEST_EXPECT_MSG_EQ(rio->GetAverage(2), ((2.125 / 2 + 0) / 2 + 0.5) / 2 + 1, "avg_total");
        rio->Dispose();

        // 2. Counts per class: accepted packets keep counting, the other class does not touch
        //    them (avg above min for both, no drops: max_p tiny).
        auto counted = qdisclab::test::MakeQueueDisc<RioQueueDisc>({{"QueueWeight", "1"},
                                                                    {"InMinTh", "1"},
                                                                    {"InMaxTh", "1000"},
                                                                    {"InMaxP", "1e-9"},
                                                                    {"TotalMinTh", "1"},
                                                                    {"TotalMaxTh", "1000"},
                                                                    {"TotalMaxP", "1e-9"},
                                                                    {"MaxSize", "1000p"}});
        for (int i = 0; i < 3; ++i)
        {
            counted->Enqueue(In());
        }
        // IN: first above min (q = 2 > 1 at the third arrival): count 1.
        NS_TEST_ASSERT_MSG_EQ(counted->GetCount(1), 1, "IN count starts");
        for (int i = 0; i < 10; ++i)
        {
            counted->Enqueue(Out());
            counted->Enqueue(In());
        }
        NS_TEST_EXPECT_MSG_EQ(counted->GetCount(1), 11, "IN count grows with accepted IN");
        NS_TEST_EXPECT_MSG_EQ(counted->GetCount(2), 10, "OUT count: its own packets");
        counted->Dispose();

        // 3. Idle: the first packet (1500 B) does not fit the 1000 B queue and is dropped at the
        //    idle queue; the next arrival, 4 ms later, decays over those 4 ms (m = 4 at
        //    1000 packets/s), not 0 as if the dropped arrival had made the queue busy.
        auto idle = qdisclab::test::MakeQueueDisc<RioQueueDisc>({{"MaxSize", "1000B"},
                                                                 {"QueueWeight", "0.5"},
                                                                 {"MeanPktSize", "1000"},
                                                                 {"LinkBandwidth", "8Mbps"},
                                                                 {"InMinTh", "1e6"},
                                                                 {"InMaxTh", "2e6"},
                                                                 {"TotalMinTh", "1e6"},
                                                                 {"TotalMaxTh", "2e6"}});
        idle->Enqueue(Ip4(Ipv4Header::DSCP_AF11, 600)); // avg_in 0
        idle->Enqueue(Ip4(Ipv4Header::DSCP_AF11, 100)); // avg_in 300, total 300
        NS_TEST_ASSERT_MSG_EQ(idle->GetAverage(1), 300, "avg_in");
        idle->Dequeue();
        idle->Dequeue();
        NS_TEST_ASSERT_MSG_EQ(idle->Dequeue(), nullptr, "empty: idle from now (t = 0)");
        Advance(0.002);
        NS_TEST_ASSERT_MSG_EQ(idle->Enqueue(Ip4(Ipv4Header::DSCP_AF11, 1500)), false, "too big");
        NS_TEST_EXPECT_MSG_EQ(idle->GetPrecedenceStats(1).limitDrops, 1, "limit drop");
        // 2 ms idle: m = 2, x (1/2)^3.
        NS_TEST_ASSERT_MSG_EQ(idle->GetAverage(1), 300.0 / 8, "decayed over 2 ms");
        Advance(0.004);
        idle->Enqueue(Ip4(Ipv4Header::DscpDefault, 100)); // an OUT arrival
        NS_TEST_EXPECT_MSG_EQ(idle->GetAverage(1), 300.0 / 8 / 32, "decayed over 4 more ms");
        NS_TEST_EXPECT_MSG_EQ(idle->GetAverage(2), 300.0 / 8 / 32, "avg_total alike");
        idle->Dispose();
        Simulator::Destroy();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * The suite.
 */
class RioQueueDiscTestSuite : public TestSuite
{
  public:
    RioQueueDiscTestSuite()
        : TestSuite("qdisc-lab-rio-queue-disc")
    {
        for (const auto& c : qdisclab::test::RedTwinConfigs())
        {
            AddTestCase(new RioMatchesRedTestCase(c, RioMatchesRedTestCase::IN_IPV4));
        }
        const auto configs = qdisclab::test::RedTwinConfigs();
        AddTestCase(new RioMatchesRedTestCase(configs[0], RioMatchesRedTestCase::IN_IPV6));
        AddTestCase(new RioMatchesRedTestCase(configs[7], RioMatchesRedTestCase::IN_IPV6));
        AddTestCase(new RioMatchesRedTestCase(configs[0], RioMatchesRedTestCase::OUT_BE));
        AddTestCase(new RioMatchesRedTestCase(configs[5], RioMatchesRedTestCase::OUT_BE));
        AddTestCase(new RioMatchesRedTestCase(configs[1], RioMatchesRedTestCase::THREE_AF13));
        AddTestCase(new RioMatchesRedTestCase(configs[4], RioMatchesRedTestCase::DECOUPLED_MID));
        AddTestCase(new RioFollowsRedFormulaTestCase(false));
        AddTestCase(new RioFollowsRedFormulaTestCase(true));
        AddTestCase(new RioInUntouchedByOutTestCase());
        AddTestCase(new RiPlusODropsOutAboveMaxOutTestCase());
        AddTestCase(new RiPlusOIsRioPlusOneTestTestCase());
        AddTestCase(new RioEcnTestCase());
        AddTestCase(new RioClassificationTestCase());
        AddTestCase(new RioAveragingTestCase());
        AddTestCase(new RioPitfallsTestCase());
    }
};

/// The suite's instance.
static RioQueueDiscTestSuite g_rioQueueDiscTestSuite;
