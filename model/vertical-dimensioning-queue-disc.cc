/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "vertical-dimensioning-queue-disc.h"

#include "qdisc-lab-compat.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("VerticalDimensioningQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(VerticalDimensioningQueueDisc);

namespace
{

/// The largest number of round FIFOs (each costs 12 bytes, whether used or not).
constexpr uint64_t MAX_ROUNDS = 1U << 24;

} // namespace

TypeId
VerticalDimensioningQueueDisc::GetTypeId()
{
    static TypeId tid = [] {
        // The family's attributes, with VD's buffer, Buckets default and trace signatures.
        SharedAttributes shared;
        shared.maxSizeHelp =
            "The buffer size B, in bytes ('25000B', the paper's unit; at least MaxPacketSize) or "
            "packets ('1000p'; at least 1): while more is queued, the tail packet of the last "
            "non-empty round is dropped. Default: 25000 B, DrrQueueDisc's (ns-2's blimit_), so "
            "the two compare at equal buffers.";
        shared.buckets = 1U << 24;
        shared.bucketsHelp =
            "A bucket is a flow i of the paper; flow state exists only while a bucket has "
            "packets queued, so buckets cost no memory. Default: 16777216, so that flows rarely "
            "collide (the paper keeps exact per-flow state).";
        shared.dropFrom = false; // VD's own: the tail of the last non-empty round
        shared.callbackScope = "ns3::VerticalDimensioningQueueDisc";
        shared.deficitHelp = "A flow's deficit_i after it sent a packet: bucket, bytes "
                             "(negative: what it sent in this round beyond its carried-over "
                             "deficit)";
        return AddSharedAttributes(TypeId("ns3::VerticalDimensioningQueueDisc")
                                       .SetParent<PerFlowQueueDisc>()
                                       .SetGroupName("QdiscLab")
                                       .AddConstructor<VerticalDimensioningQueueDisc>(),
                                   shared)
            .AddAttribute("MaxPacketSize",
                          "L_M in bytes: a flow of weight w may send w x L_M bytes per round. "
                          "0 (the default) takes the device's MTU, 1500 B without a device: the "
                          "paper's L_M is the network's MTU (1000 B in its simulations). Larger "
                          "packets are sent as DRR sends them, after ceil(size / (w x L_M)) "
                          "rounds' quanta; every weight's w x L_M must round to at least 1 B. 0 or "
                          "1 .. MaxSize.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&VerticalDimensioningQueueDisc::m_maxPacketSizeAttr),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Rounds",
                          "M, the number of round FIFOs. 0 (the default): the smallest M that "
                          "cannot wrap around, ceil(B / Q) + 1, with B = MaxSize in bytes (n x "
                          "MaxPacketSize for n packets) and Q = w x MaxPacketSize for w = min(1, "
                          "DefaultWeight); the paper's ceil(B / L_M) can wrap by one round. "
                          "Smaller values are rejected; at most 16777216. Packets that would "
                          "still need a round M or more rounds ahead (a rule's weight below w; "
                          "with MaxSize in packets, packets larger than MaxPacketSize) are "
                          "dropped (BEYOND_LAST_ROUND_DROP).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&VerticalDimensioningQueueDisc::m_roundsAttr),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ReturningFlows",
                          "What a flow that empties and returns in the round it was credited in "
                          "gets. Fresh (the default, the paper's Fig. 2, which forgets a flow "
                          "when its last packet leaves): a fresh quantum in the current round, as "
                          "a new flow, so a flow that keeps emptying can send more than w x L_M "
                          "in one round and keep it open. Keep: what is left of its quantum in "
                          "that round (its state is kept until the round ends), so it sends at "
                          "most w x L_M per round, as DRR, which appends a returning flow to the "
                          "tail of its ActiveList. Ours, not the paper's.",
                          EnumValue(VdRounds::FRESH),
                          QDISC_LAB_ENUM_ACCESSOR(VdRounds::Returning,
                                                  &VerticalDimensioningQueueDisc::m_returning),
                          MakeEnumChecker(VdRounds::FRESH, "Fresh", VdRounds::KEEP, "Keep"))
            .AddAttribute("BucketCounters",
                          "Keep sent and dropped counters for every bucket that ever had a "
                          "packet, for GetFlowStats (the default): memory grows with the buckets "
                          "seen, and every packet looks its bucket up in a table of them. false: "
                          "all state is per active flow, and GetFlowStats stops the program "
                          "(per-flow counts are then the FlowEnqueue, FlowDequeue and FlowDrop "
                          "traces').",
                          BooleanValue(true),
                          MakeBooleanAccessor(&VerticalDimensioningQueueDisc::m_bucketCounters),
                          MakeBooleanChecker())
            .AddTraceSource("CurrentRound",
                            "The round being served, counted from 0 (the paper's current is it "
                            "modulo M)",
                            MakeTraceSourceAccessor(&VerticalDimensioningQueueDisc::m_currentRound),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource(
                "Placement",
                "Equation (3) placed a packet: bucket, round, packet",
                MakeTraceSourceAccessor(&VerticalDimensioningQueueDisc::m_placementTrace),
                "ns3::VerticalDimensioningQueueDisc::PlacementTracedCallback");
    }();
    return tid;
}

VerticalDimensioningQueueDisc::VerticalDimensioningQueueDisc()
    : PerFlowQueueDiscOf<VerticalDimensioningScheduler, VerticalDimensioningQueueDisc>(
          "VerticalDimensioningQueueDisc"),
      m_maxPacketSizeAttr(0),
      m_roundsAttr(0),
      m_bucketCounters(true),
      m_returning(VdRounds::FRESH),
      m_lm(0),
      m_m(0),
      m_currentRound(0)
{
    NS_LOG_FUNCTION(this);
    m_buckets = 1U << 24;
    m_overlimitReason = OVERFLOW_DROP;
}

VerticalDimensioningQueueDisc::~VerticalDimensioningQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

uint64_t
VerticalDimensioningQueueDisc::GetFlowRound(uint32_t bucket) const
{
    return m_scheduler.GetVdRounds().GetFlowRound(bucket);
}

uint32_t
VerticalDimensioningQueueDisc::GetQuantum(uint32_t bucket) const
{
    return m_scheduler.GetVdRounds().GetQuantum(bucket);
}

uint64_t
VerticalDimensioningQueueDisc::GetCurrentRound() const
{
    return m_scheduler.GetVdRounds().GetCurrent();
}

uint32_t
VerticalDimensioningQueueDisc::GetCurrent() const
{
    const VdRounds& vd = m_scheduler.GetVdRounds();
    return vd.SlotOf(vd.GetCurrent());
}

uint32_t
VerticalDimensioningQueueDisc::GetLast() const
{
    const VdRounds& vd = m_scheduler.GetVdRounds();
    return vd.SlotOf(vd.GetLast());
}

uint32_t
VerticalDimensioningQueueDisc::GetRounds() const
{
    return m_m;
}

uint32_t
VerticalDimensioningQueueDisc::GetMaxPacketSize() const
{
    return m_lm;
}

uint32_t
VerticalDimensioningQueueDisc::GetSmallestBuffer(std::string& what) const
{
    // L_M: set by CheckConfig before it calls PerFlowQueueDisc's.
    what = "MaxPacketSize (L_M = " + std::to_string(m_lm) + " B" +
           (m_maxPacketSizeAttr == 0 ? ", the device MTU" : "") + ")";
    return m_lm;
}

bool
VerticalDimensioningQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    // The family's checks (MaxSize at least L_M, GetSmallestBuffer), then M.
    m_lm = m_maxPacketSizeAttr == 0 ? GetDeviceMtu() : m_maxPacketSizeAttr;
    PerFlowQueueDisc::CheckConfig();
    const QueueSize limit = GetMaxSize();
    const bool inBytes = limit.GetUnit() == QueueSizeUnit::BYTES;
    // M: no packet that stays may be placed M or more rounds ahead of current. B in bytes is
    // MaxSize, or n x L_M for n packets (of at most L_M bytes).
    const uint64_t b = inBytes ? limit.GetValue() : uint64_t{limit.GetValue()} * m_lm;
    std::ostringstream buffer;
    buffer << "a buffer of " << b << " B (MaxSize " << limit;
    if (!inBytes)
    {
        buffer << " x MaxPacketSize " << m_lm << " B";
    }
    buffer << ")";
    const double w = std::min(1.0, m_defaultWeight);
    const uint32_t quantum = VdRounds::QuantumOf(w, m_lm);
    const uint64_t minRounds = VdRounds::MinRounds(b, quantum);
    NS_ABORT_MSG_IF(minRounds > MAX_ROUNDS,
                    "VerticalDimensioningQueueDisc: "
                        << buffer.str() << " over a quantum of " << quantum << " B (weight " << w
                        << " x MaxPacketSize " << m_lm << " B) needs " << minRounds
                        << " rounds, more than the maximum " << MAX_ROUNDS
                        << "; raise MaxPacketSize or lower MaxSize");
    // A weight whose quantum w x L_M rounds to 0 B could never send: its every packet would go
    // beyond the last round.
    const double smallest = m_weights.GetMinWeight();
    NS_ABORT_MSG_IF(std::round(smallest * m_lm) < 1,
                    "VerticalDimensioningQueueDisc: weight "
                        << smallest << " x MaxPacketSize " << m_lm << " B = " << smallest * m_lm
                        << " B rounds to a quantum of 0 B; a weight (DefaultWeight, WeightRules) "
                        << "must be at least 0.5 / MaxPacketSize = " << 0.5 / m_lm);
    if (m_roundsAttr == 0)
    {
        m_m = static_cast<uint32_t>(minRounds);
    }
    else
    {
        NS_ABORT_MSG_IF(m_roundsAttr > MAX_ROUNDS,
                        "VerticalDimensioningQueueDisc: Rounds = "
                            << m_roundsAttr << " is out of range: 0 (automatic) or " << minRounds
                            << " .. " << MAX_ROUNDS);
        NS_ABORT_MSG_IF(m_roundsAttr < minRounds,
                        "VerticalDimensioningQueueDisc: Rounds = "
                            << m_roundsAttr << " could wrap around: with " << buffer.str()
                            << " and a quantum of " << quantum << " B (weight " << w
                            << " x MaxPacketSize " << m_lm << " B) a packet can be placed ceil("
                            << b << " / " << quantum << ") = " << minRounds - 1
                            << " rounds ahead of current; use 0 (automatic) or " << minRounds
                            << " .. " << MAX_ROUNDS);
        m_m = m_roundsAttr;
    }

    return true;
}

void
VerticalDimensioningQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    const QueueSize limit = GetMaxSize();
    // Buckets + 1: the last bucket holds non-IP packets.
    m_scheduler.Reset(m_buckets + 1,
                      m_m,
                      m_lm,
                      limit.GetValue(),
                      limit.GetUnit() == QueueSizeUnit::BYTES ? VdRounds::BYTES : VdRounds::PACKETS,
                      m_returning,
                      m_bucketCounters);
    PerFlowQueueDisc::InitializeParams();
    m_currentRound.Set(0);
    NS_LOG_INFO("VD: M = " << m_m << " rounds, L_M = " << m_lm << " B, B = " << GetMaxSize()
                           << ", default weight " << m_defaultWeight << ", returning flows "
                           << (m_returning == VdRounds::KEEP ? "keep their round" : "fresh"));
}

} // namespace ns3
