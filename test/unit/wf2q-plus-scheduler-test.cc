/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Wf2qPlusScheduler against a GPS fluid reference, WF²Q+'s bounds and hand-worked orders; and
// Wf2qPlusQueueDisc in the per-flow family's checks (per-flow-family-tests.h).

#include "per-flow-family-tests.h"
#include "qdisc-lab-gtest-utils.h"

#include "ns3/wf2q-plus-queue-disc.h"
#include "ns3/wf2q-plus-scheduler.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <gtest/gtest.h>
#include <limits>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

using ns3::Wf2qPlusScheduler;

namespace
{

/// The scheduler plus the packets it schedules, each checked as it leaves.
using Harness = ns3::qdisclab::test::SchedulerHarness<Wf2qPlusScheduler>;

constexpr double INF = std::numeric_limits<double>::infinity();
constexpr double EPS = 1e-6; //!< slack of the floating-point comparisons (units of time)

constexpr uint32_t A = 0;
constexpr uint32_t B = 1;
constexpr uint32_t C = 2;

/// A packet of a traffic: its arrival time, its flow and its size.
struct Arrival
{
    double time;   //!< in byte times of the link (the link sends 1 byte per unit of time)
    uint32_t flow; //!< its flow
    uint32_t size; //!< bytes
};

/// The flows' weights and their packets in order of arrival.
struct Traffic
{
    std::vector<double> weights;   //!< one per flow
    std::vector<Arrival> arrivals; //!< sorted by time

    /// \return the largest packet, L_max
    uint32_t MaxSize() const
    {
        uint32_t m = 0;
        for (const Arrival& a : arrivals)
        {
            m = std::max(m, a.size);
        }
        return m;
    }

    /// \param f a flow \return its largest packet, L_f,max
    uint32_t MaxSize(uint32_t f) const
    {
        uint32_t m = 0;
        for (const Arrival& a : arrivals)
        {
            m = a.flow == f ? std::max(m, a.size) : m;
        }
        return m;
    }

    /// \return the sum of the weights
    double TotalWeight() const
    {
        return std::accumulate(weights.begin(), weights.end(), 0.0);
    }
};

/// A packet's transmission on the link.
struct Transmission
{
    double start;  //!< when it started
    double end;    //!< when it left
    uint32_t flow; //!< its flow
    uint32_t size; //!< bytes
};

/**
 * The packet system: a link of 1 byte per unit of time that asks the scheduler for a packet
 * whenever it is free and a packet is queued (arrivals at that very instant first).
 * \param traffic the packets
 * \param totalWeight the scheduler's Φ
 * \param departures set to each packet's transmission, by index in traffic.arrivals
 * \return the transmissions in order
 */
std::vector<Transmission>
RunLink(const Traffic& traffic, double totalWeight, std::vector<Transmission>& departures)
{
    const auto flows = static_cast<uint32_t>(traffic.weights.size());
    Harness h(flows, totalWeight);
    std::vector<std::deque<std::size_t>> queued(flows); // indices of the queued packets
    std::vector<Transmission> order;
    departures.assign(traffic.arrivals.size(), Transmission{});
    double free = 0; // when the link is free
    std::size_t next = 0;
    while (next < traffic.arrivals.size() || !h.scheduler.GetFlows().Empty())
    {
        const double arrival = next < traffic.arrivals.size() ? traffic.arrivals[next].time : INF;
        if (!h.scheduler.GetFlows().Empty() && free < arrival)
        {
            const auto [f, size] = h.Send();
            const std::size_t i = queued[f].front();
            queued[f].pop_front();
            departures[i] = Transmission{free, free + size, f, size};
            order.push_back(departures[i]);
            free += size;
        }
        else
        {
            const Arrival& a = traffic.arrivals[next];
            h.Arrive(a.flow, a.size, traffic.weights[a.flow]);
            queued[a.flow].push_back(next++);
            free = std::max(free, a.time);
        }
    }
    return order;
}

/// What the fluid reference computed.
struct Fluid
{
    std::vector<double> finish; //!< each packet's finish time, by index in traffic.arrivals
    double allBackloggedUntil;  //!< the first instant at which some flow has nothing queued
};

/**
 * GPS, the fluid reference (Parekh and Gallager), written independently of the scheduler's
 * virtual time: a link of 1 byte per unit of time is shared by the backlogged flows in
 * proportion to their weights, each flow serving its packets in order. Event-driven: between
 * two events (an arrival, the end of a head packet's service) every backlogged flow i is
 * served at w_i / sum of the backlogged flows' weights.
 * \param traffic the packets
 * \return the packets' finish times
 */
Fluid
Gps(const Traffic& traffic)
{
    const std::size_t flows = traffic.weights.size();
    std::vector<std::deque<std::pair<double, std::size_t>>> queues(flows); // (bytes left, index)
    Fluid out{std::vector<double>(traffic.arrivals.size(), 0.0), INF};
    double t = 0;
    std::size_t next = 0;
    for (;;)
    {
        while (next < traffic.arrivals.size() && traffic.arrivals[next].time <= t)
        {
            const Arrival& a = traffic.arrivals[next];
            queues[a.flow].emplace_back(a.size, next++);
        }
        double active = 0; // the backlogged flows' weights
        for (std::size_t f = 0; f < flows; ++f)
        {
            if (queues[f].empty())
            {
                out.allBackloggedUntil = std::min(out.allBackloggedUntil, t);
            }
            else
            {
                active += traffic.weights[f];
            }
        }
        const double arrival = next < traffic.arrivals.size() ? traffic.arrivals[next].time : INF;
        if (active == 0)
        {
            if (arrival == INF)
            {
                return out;
            }
            t = arrival; // idle until then
            continue;
        }
        // The next head packet to finish, at the current rates.
        double dt = INF;
        std::size_t first = flows;
        for (std::size_t f = 0; f < flows; ++f)
        {
            if (!queues[f].empty())
            {
                const double left = queues[f].front().first * active / traffic.weights[f];
                if (left < dt)
                {
                    dt = left;
                    first = f;
                }
            }
        }
        const double step = std::min(dt, arrival - t);
        for (std::size_t f = 0; f < flows; ++f)
        {
            if (!queues[f].empty())
            {
                queues[f].front().first -= step * traffic.weights[f] / active;
            }
        }
        t += step;
        if (step == dt)
        {
            queues[first].front().first = 0; // no rounding left over
        }
        for (std::size_t f = 0; f < flows; ++f)
        {
            if (!queues[f].empty() && queues[f].front().first <= 1e-9)
            {
                out.finish[queues[f].front().second] = t;
                queues[f].pop_front();
            }
        }
    }
}

const uint32_t SIZES[] = {40, 64, 200, 576, 1000, 1500};
const double WEIGHTS[] = {0.5, 1, 2, 3, 5, 8};

/**
 * Flows that come and go: Poisson arrivals at \p load times the link's rate (on average), a
 * random flow each, sometimes a burst of up to 8 packets of that flow at once.
 * \param seed the random seed
 * \param flows number of flows
 * \param packets number of arrival events
 * \param load offered load
 * \return the traffic
 */
Traffic
OnOffTraffic(uint32_t seed, uint32_t flows, uint32_t packets, double load)
{
    std::mt19937 rng(seed);
    std::uniform_int_distribution<std::size_t> sizeIndex(0, 5);
    std::uniform_int_distribution<uint32_t> flow(0, flows - 1);
    std::uniform_int_distribution<int> burst(2, 8);
    std::uniform_real_distribution<double> coin(0, 1);
    std::exponential_distribution<double> gap(load / 563.0); // 563 B: the mean of SIZES
    Traffic traffic;
    for (uint32_t f = 0; f < flows; ++f)
    {
        traffic.weights.push_back(WEIGHTS[sizeIndex(rng)]);
    }
    double t = 0;
    for (uint32_t i = 0; i < packets; ++i)
    {
        t += gap(rng);
        const uint32_t f = flow(rng);
        const int n = coin(rng) < 0.1 ? burst(rng) : 1;
        for (int k = 0; k < n; ++k)
        {
            traffic.arrivals.push_back({t, f, SIZES[sizeIndex(rng)]});
        }
    }
    return traffic;
}

/**
 * Every flow backlogged from the start (5 .. 15 packets each at time 0), then Poisson arrivals
 * at 1.5 times the link's rate, each of a flow drawn in proportion to the weights, so that the
 * fluid server keeps every flow backlogged for a while.
 * \param seed the random seed
 * \param flows number of flows
 * \param packets number of later arrivals
 * \return the traffic
 */
Traffic
BackloggedTraffic(uint32_t seed, uint32_t flows, uint32_t packets)
{
    std::mt19937 rng(seed);
    std::uniform_int_distribution<std::size_t> sizeIndex(0, 5);
    std::uniform_int_distribution<int> initial(5, 15);
    std::exponential_distribution<double> gap(1.5 / 563.0);
    Traffic traffic;
    for (uint32_t f = 0; f < flows; ++f)
    {
        traffic.weights.push_back(WEIGHTS[sizeIndex(rng)]);
    }
    for (uint32_t f = 0; f < flows; ++f)
    {
        for (int k = initial(rng); k > 0; --k)
        {
            traffic.arrivals.push_back({0.0, f, SIZES[sizeIndex(rng)]});
        }
    }
    std::discrete_distribution<uint32_t> flow(traffic.weights.begin(), traffic.weights.end());
    double t = 0;
    for (uint32_t i = 0; i < packets; ++i)
    {
        t += gap(rng);
        traffic.arrivals.push_back({t, flow(rng), SIZES[sizeIndex(rng)]});
    }
    return traffic;
}

/**
 * The worst shortfall of flow \p f's service against its guaranteed share over its backlogged
 * intervals: the largest r_f W(t1, t2) - W_f(t1, t2) over t1 <= t2 within one backlogged
 * period of f, W being the link's work (bytes sent, counted fluidly within a packet) and W_f
 * f's. This is the least α_f such that the server has B-WFI α_f for f (the paper's definition).
 * \param traffic the packets
 * \param departures each packet's transmission
 * \param order the transmissions in order
 * \param f the flow
 * \param rate r_f, its share of the link
 * \return the shortfall in bytes
 */
double
WorstShortfall(const Traffic& traffic,
               const std::vector<Transmission>& departures,
               const std::vector<Transmission>& order,
               uint32_t f,
               double rate)
{
    // f's backlogged periods: from an arrival at an empty flow to the end of its last packet.
    std::vector<std::pair<double, double>> periods;
    for (std::size_t i = 0; i < traffic.arrivals.size(); ++i)
    {
        if (traffic.arrivals[i].flow != f)
        {
            continue;
        }
        if (periods.empty() || traffic.arrivals[i].time >= periods.back().second)
        {
            periods.emplace_back(traffic.arrivals[i].time, departures[i].end);
        }
        periods.back().second = std::max(periods.back().second, departures[i].end);
    }
    // The link is busy all through such a period. D(t) = r_f W(b, t) - W_f(b, t) rises while
    // others send and falls while f sends: the largest rise is from a low to a later high,
    // both at the end of a transmission (or b).
    double worst = 0;
    auto tx = order.begin();
    for (const auto& [b, e] : periods)
    {
        while (tx != order.end() && tx->end <= b)
        {
            ++tx;
        }
        double d = 0;
        double low = 0;
        for (auto it = tx; it != order.end() && it->start < e; ++it)
        {
            const double sent = std::min(it->end, e) - std::max(it->start, b);
            d += (rate - (it->flow == f ? 1.0 : 0.0)) * sent;
            worst = std::max(worst, d - low);
            low = std::min(low, d);
        }
    }
    return worst;
}

} // namespace

// (c) Hand-worked, Φ = 4: A (weight 2, 1/r = 2) = [300, 300, 300], B (weight 1, 1/r = 4) =
// [600], C (weight 1) = [200, 200], all at time 0. Tags: A 0/600, B 0/2400, C 0/800.
//   1. V = 0: all eligible; smallest F: A (600). A's next: S 600 > V, F 1200.
//   2. V = 0 + 300 = 300: B (2400), C (800) eligible: C. C's next: S 800, F 1600.
//   3. V = 300 + 200 = 500: only B eligible: B, which empties. No flow eligible any more:
//      V jumps to the smallest start tag, 600.
//   4. V = 600 + 600 = 1200: A (F 1200) and C (S 800, F 1600) eligible: A; next S 1200, F 1800.
//   5. V = 1500: A (1800), C (1600): C. 6. V = 1700: A.
// WFQ (smallest F, no eligibility) sends A, C, A, C, A, B: B's large packet last.
TEST(Wf2qPlusScheduler, HandWorkedTagsAndVirtualTime)
{
    Harness h(3, 4.0);
    for (int i = 0; i < 3; ++i)
    {
        h.Arrive(A, 300, 2.0);
    }
    h.Arrive(B, 600, 1.0);
    h.Arrive(C, 200, 1.0);
    h.Arrive(C, 200, 1.0);
    EXPECT_EQ(h.scheduler.GetFinishTag(A), 600);
    EXPECT_EQ(h.scheduler.GetFinishTag(B), 2400);
    EXPECT_EQ(h.scheduler.GetFinishTag(C), 800);

    const std::vector<std::pair<uint32_t, uint32_t>> order =
        {{A, 300}, {C, 200}, {B, 600}, {A, 300}, {C, 200}, {A, 300}};
    const std::vector<double> virtualTime = {0, 300, 600, 1200, 1500, 1700};
    for (std::size_t i = 0; i < order.size(); ++i)
    {
        EXPECT_EQ(h.Send(), order[i]) << "packet " << i;
        EXPECT_EQ(h.scheduler.GetVirtualTime(), virtualTime[i]) << "packet " << i;
        if (i == 0)
        {
            EXPECT_EQ(h.scheduler.GetStartTag(A), 600);
            EXPECT_EQ(h.scheduler.GetFinishTag(A), 1200);
            EXPECT_FALSE(h.scheduler.IsEligible(A)) << "S 600 > V 0";
            EXPECT_TRUE(h.scheduler.IsEligible(B));
        }
    }
    EXPECT_TRUE(h.scheduler.GetFlows().Empty());
    EXPECT_EQ(h.scheduler.GetFinishTag(A), 1800) << "an idle flow keeps its last finish tag";
}

// (c) The example of Bennett and Zhang's WF²Q paper (INFOCOM 1996, Fig. 1) that the HPFQ paper
// recalls: flow 0 has half the link (weight 10 of Φ = 20) and 11 packets, flows 1 .. 10 a
// twentieth each and one packet, all of one size, all at time 0. Flow 0's packet k has
// S = 2(k-1), F = 2k (in packet times), the others S = 0, F = 20. WFQ sends flow 0's first ten
// packets back to back (F <= 20), then the ten others. WF²Q+ sends flow 0's packet k only once
// V reaches 2(k-1), i.e. every other packet: 0, 1, 0, 2, ..., 0, 10, 0.
TEST(Wf2qPlusScheduler, InterleavesWhereWfqSendsABurst)
{
    Harness h(11, 20.0);
    for (int k = 0; k < 11; ++k)
    {
        h.Arrive(0, 100, 10.0);
    }
    for (uint32_t f = 1; f <= 10; ++f)
    {
        h.Arrive(f, 100, 1.0);
    }
    std::vector<uint32_t> expected;
    for (uint32_t f = 1; f <= 10; ++f)
    {
        expected.push_back(0);
        expected.push_back(f);
    }
    expected.push_back(0);
    for (std::size_t i = 0; i < expected.size(); ++i)
    {
        EXPECT_EQ(h.Send().first, expected[i]) << "packet " << i;
    }
    EXPECT_TRUE(h.scheduler.GetFlows().Empty());
}

// (d) Equal weights and sizes: round robin, in flow order, whatever order the flows arrived in,
// while every flow stays backlogged (each one sent packet is replaced).
TEST(Wf2qPlusScheduler, EqualWeightsAndSizesGiveRoundRobin)
{
    for (const uint32_t flows : {2U, 5U, 16U})
    {
        Harness h(flows, 3.0 * flows);
        for (uint32_t i = 0; i < flows; ++i)
        {
            const uint32_t f = flows - 1 - i; // they arrive in reverse order
            h.Arrive(f, 700, 3.0);
            h.Arrive(f, 700, 3.0);
        }
        for (uint32_t i = 0; i < 10 * flows; ++i)
        {
            const uint32_t f = h.Send().first;
            ASSERT_EQ(f, i % flows) << flows << " flows, packet " << i;
            h.Arrive(f, 700);
        }
    }
}

// A flow keeps the weight of the packet that made it backlogged until it empties; an idle flow
// returns with S = max(F, V), so a flow that was served ahead of V is not eligible at once even
// with the smaller finish tag (WFQ would send it first). Φ = 4.
TEST(Wf2qPlusScheduler, WeightOfABusyPeriodAndReturnAfterIdle)
{
    Harness h(2, 4.0);
    h.Arrive(A, 100, 2.0); // 1/r = 2: S 0, F 200
    h.Arrive(A, 300, 4.0); // weight ignored: A is backlogged
    EXPECT_EQ(h.Send(), std::make_pair(A, 100u));
    EXPECT_EQ(h.scheduler.GetFinishTag(A), 800) << "200 + 300 x 2, not 300 x 1";
    EXPECT_EQ(h.scheduler.GetVirtualTime(), 200) << "alone and not eligible: V jumps to S";
    EXPECT_EQ(h.Send(), std::make_pair(A, 300u));
    EXPECT_EQ(h.scheduler.GetVirtualTime(), 300) << "200 + the 100 bytes sent before";
    h.Arrive(B, 1000, 1.0); // S = max(0, 300) = 300, F = 300 + 1000 x 4 = 4300
    h.Arrive(A, 100, 4.0);  // 1/r = 1: S = max(800, 300) = 800, F = 900
    EXPECT_EQ(h.scheduler.GetStartTag(A), 800);
    EXPECT_EQ(h.scheduler.GetFinishTag(A), 900);
    EXPECT_FALSE(h.scheduler.IsEligible(A));
    EXPECT_TRUE(h.scheduler.IsEligible(B));
    EXPECT_EQ(h.Send().first, B) << "V = 300 + 300 = 600 < S_A = 800";
    EXPECT_EQ(h.scheduler.GetVirtualTime(), 800) << "B emptied: V jumps to A's start tag";
    EXPECT_EQ(h.Send().first, A);
}

// Buffer stealing: a dropped head packet is not charged (the new head keeps its start tag);
// a flow emptied by a drop returns with S = max(that start, V).
TEST(Wf2qPlusScheduler, StealingKeepsTheStartTag)
{
    Harness h(3, 2.0);
    h.Arrive(A, 1000, 1.0); // S 0, F 2000
    h.Arrive(A, 500, 1.0);
    h.Arrive(B, 300, 1.0); // S 0, F 600
    h.Arrive(C, 800, 1.0); // S 0, F 1600
    EXPECT_EQ(h.scheduler.GetFlows().Longest(), A);
    EXPECT_EQ(h.StealHead(), A);
    EXPECT_EQ(h.scheduler.GetStartTag(A), 0);
    EXPECT_EQ(h.scheduler.GetFinishTag(A), 1000) << "the 500-byte packet from S = 0";
    EXPECT_EQ(h.scheduler.GetFlows().Longest(), C);
    EXPECT_EQ(h.StealTail(), C);
    EXPECT_FALSE(h.scheduler.GetFlows().IsBacklogged(C));
    EXPECT_EQ(h.scheduler.GetFinishTag(C), 0) << "emptied by a drop: F back to its start";
    EXPECT_EQ(h.Send(), std::make_pair(B, 300u));
    EXPECT_EQ(h.Send(), std::make_pair(A, 500u));
    static_assert(!ns3::perflow::HasDeficit<Wf2qPlusScheduler>::value, "tags, no deficit counter");
    EXPECT_EQ(h.scheduler.GetFlows().GetCounters(A).droppedBytes, 1000u);
    EXPECT_EQ(h.scheduler.GetFlows().GetCounters(C).droppedPackets, 1u);
    h.Arrive(C, 100, 1.0);
    EXPECT_EQ(h.scheduler.GetStartTag(C), 300) << "max(0, V = 300): A's 500 B still in service";
}

// (a) Against the GPS fluid reference. While every flow is backlogged in GPS, each flow's GPS
// rate is its guaranteed rate r_i and WF²Q+'s virtual time is GPS's (both grow with the work
// done); each packet then leaves no later than its GPS finish time + L_max / C, the bound of
// WFQ and WF²Q (Bennett and Zhang recall it as WFQ's, and show it for WF²Q and WF²Q+).
// Random weights and sizes, 3 to 8 flows, packets checked up to the first instant some flow is
// idle in GPS (at least 75 per seed; the worst packet here is 0.91 L_max late).
TEST(Wf2qPlusScheduler, WithinOnePacketOfGpsWhileEveryFlowIsBacklogged)
{
    for (uint32_t seed = 1; seed <= 12; ++seed)
    {
        const Traffic traffic = BackloggedTraffic(seed, 3 + seed % 6, 300);
        const Fluid gps = Gps(traffic);
        std::vector<Transmission> departures;
        RunLink(traffic, traffic.TotalWeight(), departures);
        const double lmax = traffic.MaxSize();
        uint32_t checked = 0;
        for (std::size_t i = 0; i < departures.size(); ++i)
        {
            if (gps.finish[i] <= gps.allBackloggedUntil)
            {
                ++checked;
                EXPECT_LE(departures[i].end, gps.finish[i] + lmax + EPS)
                    << "seed " << seed << ", packet " << i << " of flow "
                    << traffic.arrivals[i].flow;
            }
        }
        EXPECT_GE(checked, 40u) << "seed " << seed << ": too few packets while all backlogged";
    }
}

// (a) Flows that come and go (loads 0.6 .. 1.3, bursts): each packet leaves no later than it
// would from a fluid server of the flow's guaranteed rate r_i (what GPS guarantees a flow
// whatever the others send: finish = max(arrival, previous finish) + L / r_i) + L_max / C: the
// delay bound of WFQ, which the HPFQ paper gives WF²Q+ too ("the tightest delay bound among all
// PFQ algorithms", with its worst-case fair index). Also with Φ above the sum of the weights
// (the rates sum to less than the link). The worst packet here is 0.99 L_max late; counting
// the packet in service in V at once, instead of at the next Dequeue, makes it 1.64 L_max.
TEST(Wf2qPlusScheduler, GuaranteedRateDelayBoundWhenFlowsComeAndGo)
{
    for (uint32_t seed = 1; seed <= 12; ++seed)
    {
        for (const double load : {0.6, 1.0, 1.3})
        {
            const Traffic traffic = OnOffTraffic(seed, 2 + seed % 7, 250, load);
            const double phi = traffic.TotalWeight() * (seed % 3 == 0 ? 1.5 : 1.0);
            std::vector<Transmission> departures;
            RunLink(traffic, phi, departures);
            const double lmax = traffic.MaxSize();
            std::vector<double> fluid(traffic.weights.size(), 0.0);
            for (std::size_t i = 0; i < departures.size(); ++i)
            {
                const Arrival& a = traffic.arrivals[i];
                fluid[a.flow] =
                    std::max(a.time, fluid[a.flow]) + a.size * phi / traffic.weights[a.flow];
                EXPECT_LE(departures[i].end, fluid[a.flow] + lmax + EPS)
                    << "seed " << seed << ", load " << load << ", packet " << i;
            }
        }
    }
}

// (a) What WF²Q+ is not: with fixed rates its virtual time grows with the work done, at the
// speed of GPS's only while the backlogged flows' rates sum to the link. Φ = 9: A (weight 1)
// sends a 1500-byte packet alone from time 0; B (weight 8) brings ten 1500-byte packets at
// 1400; A's next packet (64 B) arrives at 1450. WF²Q+: A's tags 0/13500 and 13500/14076;
// B's S = V = 0, then V follows B's start tags (1687.5 per packet) and reaches 13500 when B's
// eighth packet is chosen: A's 64 bytes leave at 8 x 1500 + 1500 + 64 = 13564. GPS: A alone
// until 1400, then 1/9 of the link: its 1500 bytes end at 2300, the 64 at 2876. (WF²Q, with
// GPS's virtual time, sends them at 3000 .. 3064.)
TEST(Wf2qPlusScheduler, LagsGpsAfterAFlowWasServedAlone)
{
    Traffic traffic;
    traffic.weights = {1, 8};
    traffic.arrivals.push_back({0, A, 1500});
    for (int k = 0; k < 10; ++k)
    {
        traffic.arrivals.push_back({1400, B, 1500});
    }
    traffic.arrivals.push_back({1450, A, 64});
    const Fluid gps = Gps(traffic);
    std::vector<Transmission> departures;
    RunLink(traffic, 9.0, departures);
    const std::size_t last = traffic.arrivals.size() - 1;
    EXPECT_NEAR(gps.finish[0], 2300, EPS);
    EXPECT_NEAR(gps.finish[last], 2876, EPS);
    EXPECT_EQ(departures[last].start, 13500);
    EXPECT_EQ(departures[last].end, 13564);
}

// (b) Worst-case fairness. The HPFQ paper's bit worst-case fair index (B-WFI): a server
// guarantees flow i the B-WFI α_i if W_i(t1, t2) >= r_i W(t1, t2) - α_i whenever i is
// backlogged all through [t1, t2] (W: bytes the link sent, W_i: flow i's). The paper's WF²Q+
// section gives WF²Q+ the smallest WFI of the PFQ algorithms, that of WF²Q, independent of the
// number of flows, where WFQ's grows with it. Tested: α_i = L_i,max + L_max, one packet of the
// flow plus one maximum packet. First the case of InterleavesWhereWfqSendsABurst, backlogged
// for good: WF²Q+ falls short by one packet (1000 B); WFQ makes flow 0 (r = 1/2) wait ten
// packets at a time, a shortfall of 5 L = 5000 B > 2000 B. Then random traffic, flows coming
// and going: at most L_i,max + 0.41 L_max here (L_i,max + 1.21 L_max if V counted the packet
// in service at once).
TEST(Wf2qPlusScheduler, WorstCaseFairIndexWithinOnePacket)
{
    Traffic burst;
    burst.weights = {10};
    for (int k = 0; k < 40; ++k)
    {
        burst.arrivals.push_back({0, 0, 1000});
    }
    for (uint32_t f = 1; f <= 10; ++f)
    {
        burst.weights.push_back(1);
        for (int k = 0; k < 4; ++k)
        {
            burst.arrivals.push_back({0, f, 1000});
        }
    }
    std::vector<Traffic> cases = {burst};
    std::vector<double> overWeight = {1.0};
    for (uint32_t seed = 1; seed <= 12; ++seed)
    {
        for (const double load : {0.7, 1.0, 1.3})
        {
            cases.push_back(OnOffTraffic(100 + seed, 2 + seed % 7, 250, load));
            overWeight.push_back(seed % 4 == 0 ? 1.5 : 1.0);
        }
    }
    for (std::size_t c = 0; c < cases.size(); ++c)
    {
        const Traffic& traffic = cases[c];
        const double phi = traffic.TotalWeight() * overWeight[c];
        std::vector<Transmission> departures;
        const std::vector<Transmission> order = RunLink(traffic, phi, departures);
        const double lmax = traffic.MaxSize();
        for (uint32_t f = 0; f < traffic.weights.size(); ++f)
        {
            const double shortfall =
                WorstShortfall(traffic, departures, order, f, traffic.weights[f] / phi);
            EXPECT_LE(shortfall, traffic.MaxSize(f) + lmax + EPS) << "case " << c << ", flow " << f;
        }
    }
}

// TotalWeight 0: Φ is the sum of the weights of the flows seen since Reset, each counted once,
// with the weight of its first busy period; a packet's tags use the Φ of its busy period's start.
TEST(Wf2qPlusScheduler, TotalWeightZeroSumsTheWeightsSeen)
{
    Harness h(3, 0.0);
    EXPECT_EQ(h.scheduler.GetTotalWeight(), 0);
    h.Arrive(A, 100, 2.0); // Φ = 2, 1/r = 1: S 0, F 100
    h.Arrive(A, 100, 5.0); // A is backlogged: its weight and Φ stay
    EXPECT_EQ(h.scheduler.GetTotalWeight(), 2);
    h.Arrive(B, 100, 1.0); // Φ = 3, 1/r = 3: S 0, F 300
    EXPECT_EQ(h.scheduler.GetTotalWeight(), 3);
    EXPECT_EQ(h.scheduler.GetFinishTag(A), 100) << "A's tags keep the Φ of its busy period";
    EXPECT_EQ(h.scheduler.GetFinishTag(B), 300);
    EXPECT_EQ(h.Send(), std::make_pair(A, 100u)); // A's next: S 100, F 200 (1/r = 1)
    EXPECT_EQ(h.Send(), std::make_pair(A, 100u)); // V = 100: A eligible, F 200 < 300
    EXPECT_EQ(h.Send(), std::make_pair(B, 100u)); // V = 200
    h.Arrive(A, 300, 1.0); // seen before: Φ stays 3; 1/r = 3: S = max(200, 200), F = 1100
    EXPECT_EQ(h.scheduler.GetTotalWeight(), 3);
    EXPECT_EQ(h.scheduler.GetFinishTag(A), 1100);
    h.Arrive(C, 100, 1.0); // new: Φ = 4, 1/r = 4: S = max(0, 200), F = 600
    EXPECT_EQ(h.scheduler.GetTotalWeight(), 4);
    EXPECT_EQ(h.scheduler.GetStartTag(C), 200);
    EXPECT_EQ(h.scheduler.GetFinishTag(C), 600);
    EXPECT_EQ(h.Send().first, C) << "V = 300: both eligible, C's F 600 < A's 1100";
    EXPECT_EQ(h.Send().first, A);
    EXPECT_TRUE(h.scheduler.GetFlows().Empty());
}

namespace ns3
{
namespace qdisclab
{
namespace test
{

/// Wf2qPlusQueueDisc: Φ = 6 (TotalWeight).
template <>
struct PerFlowMember<Wf2qPlusQueueDisc>
{
    /// \return the queue disc's own attributes
    static Attributes Own()
    {
        return {{"TotalWeight", "6"}};
    }

    /// \param flows number of flows \return its scheduler, driven directly
    static StealingModel<Wf2qPlusScheduler> Model(const Ptr<Wf2qPlusQueueDisc>&, uint32_t flows)
    {
        StealingModel<Wf2qPlusScheduler> m;
        m.s.Reset(flows, 6);
        return m;
    }
};

INSTANTIATE_TYPED_TEST_SUITE_P(Wf2qPlus, PerFlowFamilyTest, ::testing::Types<Wf2qPlusQueueDisc>);

} // namespace test
} // namespace qdisclab
} // namespace ns3
