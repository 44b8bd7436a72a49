/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The DiffServ meters, without the simulator: exact token arithmetic, the Assured Service
// bound (a source above its profile gets rate x T + bucket bytes IN, within one packet),
// hand-worked RFC 2697 / 2698 sequences in colour-blind and colour-aware modes, and equality
// with a literal reference of the RFCs' token updates ("incremented by one, CIR times per
// second") on random traffic.

#include "ns3/sr-tcm-meter.h"
#include "ns3/token-bucket-meter.h"
#include "ns3/token-bucket.h"
#include "ns3/tr-tcm-meter.h"

#include <algorithm>
#include <cstdint>
#include <gtest/gtest.h>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

constexpr TrafficMeter::Color G = TrafficMeter::GREEN;
constexpr TrafficMeter::Color Y = TrafficMeter::YELLOW;
constexpr TrafficMeter::Color R = TrafficMeter::RED;

/// A packet: arrival time in ms, size in bytes, colour on arrival.
struct Arrival
{
    int64_t ms;
    uint32_t bytes;
    TrafficMeter::Color color;
};

/**
 * \param meter a meter
 * \param arrivals packets
 * \return their colours
 */
std::vector<TrafficMeter::Color>
MeterAll(TrafficMeter& meter, const std::vector<Arrival>& arrivals)
{
    std::vector<TrafficMeter::Color> colors;
    for (const auto& a : arrivals)
    {
        colors.push_back(meter.Meter(MilliSeconds(a.ms), a.bytes, a.color));
    }
    return colors;
}

/**
 * RFC 2697 sec. 3, literally: one token at a time, CIR times per second; a whole number of
 * tokens per millisecond.
 */
class ReferenceSrTcm
{
  public:
    ReferenceSrTcm(uint32_t bytesPerMs, uint32_t cbs, uint32_t ebs)
        : m_perMs(bytesPerMs),
          m_cbs(cbs),
          m_ebs(ebs),
          m_tc(cbs),
          m_te(ebs)
    {
    }

    TrafficMeter::Color Meter(int64_t ms, uint32_t b, TrafficMeter::Color color)
    {
        for (; m_ms < ms; ++m_ms)
        {
            for (uint32_t i = 0; i < m_perMs; ++i)
            {
                if (m_tc < m_cbs)
                {
                    ++m_tc;
                }
                else if (m_te < m_ebs)
                {
                    ++m_te;
                }
            }
        }
        if (color == G && m_tc >= b)
        {
            m_tc -= b;
            return G;
        }
        if (color != R && m_te >= b)
        {
            m_te -= b;
            return Y;
        }
        return R;
    }

  private:
    uint32_t m_perMs;
    uint32_t m_cbs;
    uint32_t m_ebs;
    uint32_t m_tc;
    uint32_t m_te;
    int64_t m_ms = 0;
};

/// RFC 2698 sec. 3, literally.
class ReferenceTrTcm
{
  public:
    ReferenceTrTcm(uint32_t cirPerMs, uint32_t cbs, uint32_t pirPerMs, uint32_t pbs)
        : m_cirPerMs(cirPerMs),
          m_pirPerMs(pirPerMs),
          m_cbs(cbs),
          m_pbs(pbs),
          m_tc(cbs),
          m_tp(pbs)
    {
    }

    TrafficMeter::Color Meter(int64_t ms, uint32_t b, TrafficMeter::Color color)
    {
        for (; m_ms < ms; ++m_ms)
        {
            for (uint32_t i = 0; i < m_cirPerMs; ++i)
            {
                m_tc += m_tc < m_cbs;
            }
            for (uint32_t i = 0; i < m_pirPerMs; ++i)
            {
                m_tp += m_tp < m_pbs;
            }
        }
        if (color == R || m_tp < b)
        {
            return R;
        }
        if (color == Y || m_tc < b)
        {
            m_tp -= b;
            return Y;
        }
        m_tp -= b;
        m_tc -= b;
        return G;
    }

  private:
    uint32_t m_cirPerMs;
    uint32_t m_pirPerMs;
    uint32_t m_cbs;
    uint32_t m_pbs;
    uint32_t m_tc;
    uint32_t m_tp;
    int64_t m_ms = 0;
};

/// The two-colour token bucket marker, literally: IN if tokens >= size; arrived OUT stays.
class ReferenceTokenBucket
{
  public:
    ReferenceTokenBucket(uint32_t bytesPerMs, uint32_t size)
        : m_perMs(bytesPerMs),
          m_size(size),
          m_tokens(size)
    {
    }

    TrafficMeter::Color Meter(int64_t ms, uint32_t b, TrafficMeter::Color color)
    {
        for (; m_ms < ms; ++m_ms)
        {
            m_tokens = std::min(m_size, m_tokens + m_perMs);
        }
        if (color != G)
        {
            return color;
        }
        if (m_tokens >= b)
        {
            m_tokens -= b;
            return G;
        }
        return Y;
    }

  private:
    uint32_t m_perMs;
    uint32_t m_size;
    uint32_t m_tokens;
    int64_t m_ms = 0;
};

/**
 * Random traffic: gaps of 0..maxGapMs, and one in 20 an idle period of up to 20 maxGapMs (so
 * that buckets fill up again: srTCM's E only fills when C is full); sizes 40..maxBytes;
 * colours on arrival random when \p colored, else green.
 */
std::vector<Arrival>
RandomTraffic(uint32_t seed, std::size_t n, int64_t maxGapMs, uint32_t maxBytes, bool colored)
{
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int64_t> gap(0, maxGapMs);
    std::uniform_int_distribution<int64_t> idle(0, 20 * maxGapMs);
    std::uniform_int_distribution<int> oneIn20(1, 20);
    std::uniform_int_distribution<uint32_t> size(40, maxBytes);
    std::uniform_int_distribution<int> color(0, 2);
    std::vector<Arrival> arrivals;
    int64_t t = 0;
    for (std::size_t i = 0; i < n; ++i)
    {
        t += oneIn20(rng) == 1 ? idle(rng) : gap(rng);
        arrivals.push_back(
            {t, size(rng), colored ? static_cast<TrafficMeter::Color>(color(rng)) : G});
    }
    return arrivals;
}

/**
 * \param colors colours
 * \param c a colour
 * \return how many are c
 */
std::size_t
CountOf(const std::vector<TrafficMeter::Color>& colors, TrafficMeter::Color c)
{
    return std::count(colors.begin(), colors.end(), c);
}

/**
 * On 20 random traffics (seeds 1 to 20; pre-coloured on even seeds, else all green), a meter
 * gives every packet the colour a literal reference gives it, and each colour of \p seen turns
 * up more than \p atLeast times.
 * \param makeMeter makes the meter under test (a fresh one each seed)
 * \param makeReference makes its reference, with a Meter(ms, bytes, colour) method
 * \param maxGapMs RandomTraffic's largest gap
 * \param maxBytes RandomTraffic's largest packet
 * \param seen the colours that must turn up
 * \param atLeast how often each must
 */
template <typename MakeMeter, typename MakeReference>
void
ExpectEqualsReferenceOnRandomTraffic(MakeMeter makeMeter,
                                     MakeReference makeReference,
                                     int64_t maxGapMs,
                                     uint32_t maxBytes,
                                     const std::vector<TrafficMeter::Color>& seen,
                                     std::size_t atLeast)
{
    for (uint32_t seed = 1; seed <= 20; ++seed)
    {
        const auto arrivals = RandomTraffic(seed, 2000, maxGapMs, maxBytes, seed % 2 == 0);
        auto meter = makeMeter();
        auto reference = makeReference();
        std::vector<TrafficMeter::Color> expected;
        for (const auto& a : arrivals)
        {
            expected.push_back(reference.Meter(a.ms, a.bytes, a.color));
        }
        const auto colors = MeterAll(meter, arrivals);
        ASSERT_EQ(colors, expected) << "seed " << seed;
        for (auto c : seen)
        {
            EXPECT_GT(CountOf(colors, c), atLeast) << "seed " << seed << ", " << unsigned(c);
        }
    }
}

} // namespace

TEST(TokenBucket, CountsTokensExactly)
{
    TokenBucket bucket(DataRate("1Mbps"), 1000, Seconds(0));
    EXPECT_DOUBLE_EQ(bucket.GetTokens(), 1000.0) << "full at the start";
    bucket.Take(1000);
    EXPECT_EQ(bucket.GetUnits(), 0u);
    EXPECT_EQ(bucket.Refill(MilliSeconds(1)), 0u);
    EXPECT_EQ(bucket.GetUnits(), 125 * TokenBucket::UNITS_PER_BYTE) << "1 ms at 1 Mb/s = 125 B";
    EXPECT_TRUE(bucket.Holds(125));
    EXPECT_FALSE(bucket.Holds(126));
    // 1 ns at 1 Mb/s is 1/8000 B: fractions are kept, not rounded away.
    bucket.Take(125);
    for (int i = 1; i <= 8000; ++i)
    {
        bucket.Refill(MilliSeconds(1) + NanoSeconds(i));
    }
    EXPECT_EQ(bucket.GetUnits(), TokenBucket::UNITS_PER_BYTE);
    // Overflow beyond the size is returned: 10 ms at 1 Mb/s = 1250 B, room for 999.
    EXPECT_EQ(bucket.Refill(MilliSeconds(11) + NanoSeconds(8000)),
              251 * TokenBucket::UNITS_PER_BYTE);
    EXPECT_DOUBLE_EQ(bucket.GetTokens(), 1000.0);
}

TEST(TokenBucket, SaturatesOnLongIdleAndFastRates)
{
    TokenBucket big(DataRate(UINT64_MAX), TokenBucket::MAX_SIZE, Seconds(0));
    big.Take(TokenBucket::MAX_SIZE);
    EXPECT_EQ(big.Refill(Seconds(1e6)),
              (1ULL << 63) - uint64_t{TokenBucket::MAX_SIZE} * TokenBucket::UNITS_PER_BYTE);
    EXPECT_EQ(big.GetTokens(), TokenBucket::MAX_SIZE);
    EXPECT_FALSE(big.Holds(TokenBucket::MAX_SIZE + 1));
    EXPECT_FALSE(big.Holds(UINT32_MAX)) << "no overflow in the size conversion";
    TokenBucket passive(DataRate(0), 10, Seconds(0));
    passive.Take(10);
    EXPECT_EQ(passive.Refill(Seconds(100)), 0u) << "rate 0: only Add fills it";
    passive.Add(UINT64_MAX);
    EXPECT_DOUBLE_EQ(passive.GetTokens(), 10.0);
}

TEST(TokenBucketDeathTest, RefusesTimeGoingBackwardsAndOverdrafts)
{
    TokenBucket bucket(DataRate("1Mbps"), 1000, Seconds(1));
    EXPECT_DEATH(bucket.Refill(Seconds(0.5)), "time went backwards");
    EXPECT_DEATH(bucket.Take(1001), "taking 1001 B from a bucket holding 1000 B");
    EXPECT_DEATH(TokenBucket(DataRate("1Mbps"), TokenBucket::MAX_SIZE + 1, Seconds(0)),
                 "exceeds the largest");
}

// The paper's marker: a constant-rate source above its profile gets rate x T + bucket bytes
// IN, less under one packet left in the bucket.
TEST(TokenBucketMeter, SourceAboveProfileGetsRateTimesTPlusBucketIn)
{
    struct Case
    {
        const char* rate;
        uint32_t bucket;
        const char* source;
        uint32_t packet;
    };

    const Case cases[] = {
        {"2Mbps", 20000, "3Mbps", 1000},    // Kim et al.: 2 Mb/s profile, 160 kbit bucket
        {"2Mbps", 40000, "10Mbps", 1500},   // Table 1's 320 kbit bucket
        {"100kbps", 3000, "101kbps", 1500}, // bucket >= packet + rate x gap
        {"1Mbps", 1000, "1.5Mbps", 576},
        {"500kbps", 7777, "4Mbps", 40},
    };
    for (const auto& c : cases)
    {
        const DataRate rate(c.rate);
        const DataRate source(c.source);
        TokenBucketMeter meter(rate, c.bucket, Seconds(1));
        const Time gap = source.CalculateBytesTxTime(c.packet);
        uint64_t in = 0;
        Time last;
        for (Time t = Seconds(1); t <= Seconds(61); t += gap)
        {
            in += meter.Meter(t, c.packet, G) == G ? c.packet : 0;
            last = t;
        }
        const double expected =
            rate.GetBitRate() / 8.0 * (last - Seconds(1)).GetSeconds() + c.bucket;
        EXPECT_LE(in, expected) << c.rate << " " << c.bucket << " " << c.source;
        EXPECT_GT(in, expected - c.packet) << c.rate << " " << c.bucket << " " << c.source;
        EXPECT_LT(meter.GetTokens(), c.packet);
    }
}

TEST(TokenBucketMeter, SourceWithinProfileIsAllIn)
{
    TokenBucketMeter meter(DataRate("1Mbps"), 1500, Seconds(0));
    const Time gap = DataRate("1Mbps").CalculateBytesTxTime(1500);
    for (int i = 0; i < 10000; ++i)
    {
        ASSERT_EQ(meter.Meter(gap * i, 1500, G), G) << "packet " << i;
    }
    // One packet faster than the rate: the bucket refilled only 1499 B of the last 1500.
    EXPECT_EQ(meter.Meter(gap * 10000 - NanoSeconds(8000), 1500, G), Y);
}

TEST(TokenBucketMeter, HandWorkedAndColorAware)
{
    // 8 kb/s = 1 B/ms, bucket 300 B.
    TokenBucketMeter meter(DataRate("8kbps"), 300, Seconds(0));
    const std::vector<Arrival> arrivals = {
        {0, 200, G},   // 300 -> 100: IN
        {50, 200, G},  // 150: OUT, no tokens taken
        {100, 200, Y}, // 200, but arrived OUT: stays OUT, takes none
        {100, 200, G}, // 200 -> 0: IN
        {100, 1, G},   // 0: OUT
        {400, 301, G}, // 300 (capped): a packet larger than the bucket is always OUT
        {400, 300, G}, // 300 -> 0: IN
        {800, 100, R}, // 300, but arrived red: stays red, takes none
        {800, 300, G}, // 300 -> 0: IN
    };
    EXPECT_EQ(MeterAll(meter, arrivals),
              (std::vector<TrafficMeter::Color>{G, Y, Y, G, Y, Y, G, R, G}));
    EXPECT_EQ(meter.GetTokens(), 0.0);
}

TEST(TokenBucketMeter, EqualsTheLiteralReferenceOnRandomTraffic)
{
    ExpectEqualsReferenceOnRandomTraffic(
        [] { return TokenBucketMeter(DataRate("16kbps"), 1800, Seconds(0)); }, // 2 B/ms
        [] { return ReferenceTokenBucket(2, 1800); },
        200,
        600,
        {G, Y},
        100);
}

// RFC 2697 by hand: CIR 8 kb/s (1 B/ms), CBS 300, EBS 500.
TEST(SrTcmMeter, HandWorkedColorBlind)
{
    SrTcmMeter meter(DataRate("8kbps"), 300, 500, Seconds(0));
    const std::vector<Arrival> arrivals = {
        {0, 250, G},   // Tc 300 -> 50: green
        {0, 250, G},   // Tc 50 < 250; Te 500 -> 250: yellow
        {0, 250, G},   // Te 250 -> 0: yellow
        {0, 100, G},   // Tc 50 < 100, Te 0: red
        {100, 150, G}, // Tc 150 -> 0: green
        {700, 300, G}, // Tc 300 (full after 300 ms); the other 300 B went to E: Tc -> 0, green
        {700, 300, G}, // Te 300 -> 0: yellow
        {700, 1, G},   // red
    };
    EXPECT_EQ(MeterAll(meter, arrivals),
              (std::vector<TrafficMeter::Color>{G, Y, Y, R, G, G, Y, R}));
    EXPECT_EQ(meter.GetCommittedTokens(), 0.0);
    EXPECT_EQ(meter.GetExcessTokens(), 0.0);
    // Tokens fill C first, then E, then are lost: after 2 s, C = 300 and E = 500.
    meter.Meter(MilliSeconds(2700), 0, G);
    EXPECT_EQ(meter.GetCommittedTokens(), 300.0);
    EXPECT_EQ(meter.GetExcessTokens(), 500.0);
}

TEST(SrTcmMeter, HandWorkedColorAware)
{
    SrTcmMeter meter(DataRate("8kbps"), 300, 500, Seconds(0));
    const std::vector<Arrival> arrivals = {
        {0, 100, Y}, // pre-coloured yellow: never green; Te 500 -> 400
        {0, 100, R}, // pre-coloured red: red, no tokens
        {0, 100, G}, // Tc 300 -> 200: green
        {0, 400, G}, // Tc 200 < 400; Te 400 -> 0: yellow
        {0, 100, Y}, // Te 0: red
    };
    EXPECT_EQ(MeterAll(meter, arrivals), (std::vector<TrafficMeter::Color>{Y, R, G, Y, R}));
    EXPECT_EQ(meter.GetCommittedTokens(), 200.0);
}

TEST(SrTcmMeter, EqualsTheLiteralReferenceOnRandomTraffic)
{
    ExpectEqualsReferenceOnRandomTraffic(
        [] { return SrTcmMeter(DataRate("24kbps"), 1500, 2500, Seconds(0)); }, // 3 B/ms
        [] { return ReferenceSrTcm(3, 1500, 2500); },
        150,
        700,
        {G, Y, R},
        50);
}

TEST(SrTcmMeter, ZeroCbsOrEbsFollowsTheRfc)
{
    // CBS 0: nothing is green; E is fed at the CIR.
    SrTcmMeter noCommitted(DataRate("8kbps"), 0, 100, Seconds(0));
    EXPECT_EQ(MeterAll(noCommitted, {{0, 100, G}, {0, 1, G}, {50, 50, G}}),
              (std::vector<TrafficMeter::Color>{Y, R, Y}));
    // EBS 0: nothing is yellow.
    SrTcmMeter noExcess(DataRate("8kbps"), 100, 0, Seconds(0));
    EXPECT_EQ(MeterAll(noExcess, {{0, 100, G}, {0, 1, G}, {1000, 100, G}}),
              (std::vector<TrafficMeter::Color>{G, R, G}));
}

// RFC 2698 by hand: CIR 8 kb/s (1 B/ms), CBS 200; PIR 16 kb/s (2 B/ms), PBS 400.
TEST(TrTcmMeter, HandWorkedColorBlind)
{
    TrTcmMeter meter(DataRate("8kbps"), 200, DataRate("16kbps"), 400, Seconds(0));
    const std::vector<Arrival> arrivals = {
        {0, 150, G},   // Tp 400 -> 250, Tc 200 -> 50: green
        {0, 150, G},   // Tc 50 < 150; Tp 250 -> 100: yellow
        {0, 150, G},   // Tp 100 < 150: red (Tc untouched)
        {100, 150, G}, // Tp 300, Tc 150: both -> Tp 150, Tc 0: green
        {100, 150, G}, // Tc 0: yellow, Tp -> 0
        {100, 1, G},   // Tp 0: red
        {200, 200, G}, // Tp 200, Tc 100: yellow, Tp -> 0
    };
    EXPECT_EQ(MeterAll(meter, arrivals), (std::vector<TrafficMeter::Color>{G, Y, R, G, Y, R, Y}));
    EXPECT_EQ(meter.GetPeakTokens(), 0.0);
    EXPECT_EQ(meter.GetCommittedTokens(), 100.0);
}

TEST(TrTcmMeter, HandWorkedColorAware)
{
    TrTcmMeter meter(DataRate("8kbps"), 200, DataRate("16kbps"), 400, Seconds(0));
    const std::vector<Arrival> arrivals = {
        {0, 100, R}, // pre-coloured red: red, no tokens
        {0, 100, Y}, // pre-coloured yellow: yellow, Tp 400 -> 300, Tc stays 200
        {0, 200, G}, // green: Tp -> 100, Tc -> 0
        {0, 100, G}, // Tc 0: yellow, Tp -> 0
        {0, 1, Y},   // Tp 0: red
    };
    EXPECT_EQ(MeterAll(meter, arrivals), (std::vector<TrafficMeter::Color>{R, Y, G, Y, R}));
}

TEST(TrTcmMeter, EqualsTheLiteralReferenceOnRandomTraffic)
{
    // CIR 2 B/ms, CBS 1000; PIR 5 B/ms, PBS 2000.
    ExpectEqualsReferenceOnRandomTraffic(
        [] { return TrTcmMeter(DataRate("16kbps"), 1000, DataRate("40kbps"), 2000, Seconds(0)); },
        [] { return ReferenceTrTcm(2, 1000, 5, 2000); },
        120,
        800,
        {G, Y, R},
        50);
}

// Colour-blind metering is colour-aware metering of an all-green stream: the modes' rules agree.
TEST(TrafficMeter, ColorBlindIsColorAwareWithAllGreen)
{
    const auto arrivals = RandomTraffic(7, 3000, 120, 800, false);
    SrTcmMeter sr(DataRate("24kbps"), 1500, 2500, Seconds(0));
    ReferenceSrTcm srReference(3, 1500, 2500);
    TrTcmMeter tr(DataRate("16kbps"), 1000, DataRate("40kbps"), 2000, Seconds(0));
    ReferenceTrTcm trReference(2, 1000, 5, 2000);
    for (const auto& a : arrivals)
    {
        ASSERT_EQ(sr.Meter(MilliSeconds(a.ms), a.bytes, G), srReference.Meter(a.ms, a.bytes, G));
        ASSERT_EQ(tr.Meter(MilliSeconds(a.ms), a.bytes, G), trReference.Meter(a.ms, a.bytes, G));
    }
    EXPECT_STREQ(TrafficMeter::ColorName(G), "green");
    EXPECT_STREQ(TrafficMeter::ColorName(Y), "yellow");
    EXPECT_STREQ(TrafficMeter::ColorName(R), "red");
}

TEST(TrafficMeterDeathTest, BadParametersAreNamed)
{
    EXPECT_DEATH(TokenBucketMeter(DataRate(0), 1000, Seconds(0)),
                 "TokenBucketMeter: the rate must be > 0");
    EXPECT_DEATH(TokenBucketMeter(DataRate("1Mbps"), 0, Seconds(0)),
                 "TokenBucketMeter: the bucket size must be in \\[1, 1073741824\\] bytes, got 0");
    EXPECT_DEATH(TokenBucketMeter(DataRate("1Mbps"), TokenBucket::MAX_SIZE + 1, Seconds(0)),
                 "bucket size must be in \\[1, 1073741824\\] bytes, got 1073741825");
    EXPECT_DEATH(SrTcmMeter(DataRate(0), 1, 1, Seconds(0)), "SrTcmMeter: CIR must be > 0");
    EXPECT_DEATH(SrTcmMeter(DataRate("1Mbps"), 0, 0, Seconds(0)),
                 "SrTcmMeter: CBS or EBS must be > 0");
    EXPECT_DEATH(SrTcmMeter(DataRate("1Mbps"), 1, TokenBucket::MAX_SIZE + 1, Seconds(0)),
                 "SrTcmMeter: CBS and EBS must be in \\[0, 1073741824\\]");
    EXPECT_DEATH(TrTcmMeter(DataRate(0), 1, DataRate(1), 1, Seconds(0)),
                 "TrTcmMeter: CIR must be > 0");
    EXPECT_DEATH(TrTcmMeter(DataRate("2Mbps"), 1, DataRate("1Mbps"), 1, Seconds(0)),
                 "TrTcmMeter: PIR must be >= CIR");
    EXPECT_DEATH(TrTcmMeter(DataRate("1Mbps"), 0, DataRate("1Mbps"), 1, Seconds(0)),
                 "TrTcmMeter: CBS and PBS must be in \\[1, 1073741824\\]");
    EXPECT_DEATH(TrTcmMeter(DataRate("1Mbps"), 1, DataRate("1Mbps"), 0, Seconds(0)),
                 "CBS 1, PBS 0");
}
