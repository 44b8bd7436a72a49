/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RED_CORE_H
#define RED_CORE_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief One RED (Floyd and Jacobson, 1993) average and drop test, as ns-2's queue/red.cc and
 * ns-3's RedQueueDisc run it, with no packets and no simulator: the shared core of
 * RioQueueDisc, RiPlusOQueueDisc and the CIOQ-weighted RED.
 *
 * A RedCore holds RED's parameters (Params) and state: the average queue `avg`, the packets
 * (and bytes) since the last early drop `count` (`count_bytes`), the "average was already above
 * min_th" flag `old`, and the idle state (whether the queue is idle, since when). The caller owns
 * the packets and tells the core, in this order, for every arrival:
 *
 * \verbatim
 *   UpdateAverage(q, now)          // 1. avg <- avg (1-w)^(m+1) + w q; m = packets the link could
 *                                  //    have sent while the queue was idle (0 if it was not)
 *   d = Decide(q, size, uniform)   // 2. count++; then, with avg = GetAverage():
 *                                  //    avg < min_th or q <= 1   -> ACCEPT, old = false
 *                                  //    avg >= max_th (gentle: 2 max_th) -> FORCED_*
 *                                  //    !old (first packet above min_th) -> ACCEPT, count = 1
 *                                  //    else one uniform draw u: u <= p_a -> EARLY_*, count = 0
 *   if d is ACCEPT, or a mark the packet took: enqueue it, then NotifyBusy()
 * \endverbatim
 * and, whenever a dequeue finds the queue empty, NotifyIdle(now).
 *
 * `q` is whatever queue length the average follows, in packets or (byte mode) bytes, taken
 * *before* the arriving packet joins: the queue's length for RED; a precedence's backlog for RIO
 * (the IN queue for avg_in, the whole queue for avg_total); nu q_in + q_out for the CIOQ-weighted
 * RED. Decide takes the same `q` again for RED's "never drop when the queue is (almost) empty"
 * rule (q <= 1). DecideOn judges on an average the caller supplies instead of the core's own
 * (RiPlusOQueueDisc's avg_out = avg_total - avg_in), with the core's thresholds and count.
 *
 * The drop probability, as in ns-2 and ns-3 (arithmetic arranged the same way, so that the
 * results are bit-identical and a queue disc built on this core drops exactly the packets
 * RedQueueDisc drops, for the same random stream):
 * \verbatim
 *   p_b = max_p (avg - min_th) / (max_th - min_th)                 min_th <= avg < max_th
 *   p_b = max_p + (1 - max_p) (avg - max_th) / max_th              gentle, max_th <= avg < 2 max_th
 *   c   = count,  or (byte mode) floor(count_bytes / MeanPktSize)
 *   p_a = p_b / (1 - c p_b)  if c p_b < 1, else 1                  Wait off
 *   p_a = 0 if c p_b < 1;  p_b / (2 - c p_b) if c p_b < 2;  else 1  Wait on (ns-2 wait_)
 *   p_a = p_a size / MeanPktSize  if byte mode and p_a < 1;  p_a = min(p_a, 1)
 * \endverbatim
 * count is reset only by an early drop/mark (to 0) and when avg first rises above min_th (to 1);
 * it keeps counting the accepted packets in between, so early drops are spaced roughly uniformly
 * (not geometrically), and c p_b is capped before it can make p_a negative.
 *
 * ECN: with Params::useEcn the early verdict is EARLY_MARK (mark the packet if it is
 * ECN-capable, otherwise drop it, counting an early drop), and the forced verdict is FORCED_MARK
 * only when useHardDrop is off (hard drops above max_th otherwise, as RedQueueDisc's UseHardDrop).
 *
 * Idle time: NotifyIdle(now) starts (or, called again, restarts, as RedQueueDisc does) an idle
 * period. The next UpdateAverage decays the average over it as if m = floor(ptc x idle seconds)
 * packets had arrived to an empty queue, ptc = LinkBandwidth / (8 MeanPktSize) packets per
 * second, and restarts the idle clock at `now`; the queue stays idle until NotifyBusy, i.e.
 * until a packet is really queued. So an arrival that is dropped at an empty queue does not
 * make the queue look busy: the next arrival still sees the decay since the dropped one.
 * (RedQueueDisc marks the queue busy at every arrival, but ns-3's traffic control layer runs the
 * queue disc after each enqueue, whose dequeue finds the queue empty and marks it idle again, at
 * the same instant: the two agree.)
 *
 * Clock: `now` is in the caller's integer ticks. An ns-3 adapter passes
 * Simulator::Now().GetTimeStep() and sets Params::ticksToSeconds to a function returning
 * Time(ticks).GetSeconds(), so the idle time converts exactly as RedQueueDisc converts it.
 * Random draws: `uniform` is any callable returning a double uniform in [0, 1] (the adapters'
 * UniformRandomVariable::GetValue; a std::mt19937 or a script in unit tests). RED draws once per
 * packet it tests between the thresholds (never below min_th, never in the forced region, never
 * for the first packet above min_th), so adapters that share one stream stay in step with
 * RedQueueDisc.
 *
 * Not included: RedQueueDisc's adaptive variants (ARED, Feng's adaptive RED, NLRED), its
 * experimental `cautious` modes, Ns1Compat, and the automatic settings of w_q (QW <= 0).
 */
class RedCore
{
  public:
    /// RED's parameters. Thresholds are in packets, or in bytes in byte mode.
    struct Params
    {
        double minTh = 5;             //!< min_th: early drops start when avg reaches it, >= 0
        double maxTh = 15;            //!< max_th: > min_th; forced drops from max_th (2 max_th)
        double maxP = 0.02;           //!< max_p: p_b at max_th, in (0, 1]
        double qW = 0.002;            //!< w_q: weight of the EWMA average, in (0, 1]
        bool wait = true;             //!< space early drops further apart (ns-2 wait_)
        bool gentle = true;           //!< p_b rises to 1 between max_th and 2 max_th (gentle_)
        bool byteMode = false;        //!< count bytes / MeanPktSize, scale p_a by packet size
        uint32_t meanPktSize = 500;   //!< mean packet size in bytes, >= 1 (ns-2 mean_pktsize_)
        double linkBandwidth = 1.5e6; //!< link rate in bit/s, > 0 (idle-time decay)
        bool useEcn = false;          //!< mark ECN-capable packets instead of dropping them
        bool useHardDrop = true;      //!< with useEcn: still drop above max_th (2 max_th)
        double (*ticksToSeconds)(int64_t) = nullptr; //!< converts a span of the caller's clock
                                                     //!< ticks to seconds; nullptr: ticks are ns
    };

    /// What to do with an arriving packet.
    enum Decision : uint8_t
    {
        ACCEPT,      //!< enqueue it
        EARLY_MARK,  //!< early (random) signal by ECN: mark it, or drop it if it is not ECN-capable
        EARLY_DROP,  //!< early (random) drop
        FORCED_MARK, //!< above max_th without hard drops: mark it, or drop it if not ECN-capable
        FORCED_DROP, //!< above max_th (gentle: 2 max_th): drop
    };

    /**
     * Check parameters; the adapters stop the program with the message.
     * \param p the parameters
     * \param prefix the attribute prefix of the thresholds: names are prefix + "MinTh",
     *        prefix + "MaxTh", prefix + "MaxP"; the others are \p qWName, "MeanPktSize"
     *        and "LinkBandwidth"
     * \param qWName the name of the w_q attribute ("QueueWeight" for RIO, "QW" as ns-3's RED)
     * \return an empty string if valid, else what is wrong, naming the attribute and its range
     */
    static std::string Check(const Params& p,
                             const std::string& prefix = "",
                             const std::string& qWName = "QueueWeight");

    RedCore();

    /**
     * \param p valid parameters (see Check)
     */
    explicit RedCore(const Params& p);

    /**
     * Set the parameters (valid, see Check) and Reset.
     * \param p the parameters
     */
    void Configure(const Params& p);

    /// Forget the state: avg = 0, count = 0, idle since tick 0 (as RED starts).
    void Reset();

    /**
     * The queue was found empty: an idle period starts (again) now.
     * \param now the caller's clock, in ticks
     */
    void NotifyIdle(int64_t now);

    /// A packet joined the queue: the idle period, if any, is over.
    void NotifyBusy()
    {
        m_idle = false;
    }

    /**
     * Step 1 of an arrival: decay the average over the idle period, if the queue is idle, and
     * fold in the current queue length.
     * \param q the queue length the average follows, before the arriving packet joins
     * \param now the caller's clock, in ticks; read only if the queue is idle (IsIdle), so a
     *        caller may skip reading its clock otherwise
     * \return the new average
     */
    double UpdateAverage(double q, int64_t now)
    {
        uint32_t m = 0;
        if (m_idle)
        {
            m = IdlePackets(now);
            m_idleStart = now;
        }
        // m == 0 is the busy queue's every arrival: pow(1 - w, 1) is 1 - w exactly.
        m_avg = (m == 0 ? m_avg * m_oneMinusW : m_avg * DecayOver(m)) + m_p.qW * q;
        return m_avg;
    }

    /**
     * Step 2 of an arrival: RED's test on the core's own average.
     * \tparam Uniform a callable returning a uniform draw in [0, 1]
     * \param q the queue length given to UpdateAverage
     * \param size the arriving packet's size in bytes
     * \param uniform the random source; called at most once, only when RED draws
     * \return the verdict
     */
    template <typename Uniform>
    Decision Decide(double q, uint32_t size, Uniform&& uniform)
    {
        return DecideOn(m_avg, q, size, uniform);
    }

    /**
     * Step 2 of an arrival, judged on an average the caller supplies, with this core's
     * thresholds and count (RiPlusOQueueDisc's OUT test on avg_total - avg_in).
     * \tparam Uniform a callable returning a uniform draw in [0, 1]
     * \param avg the average to judge on
     * \param q the queue length that average follows
     * \param size the arriving packet's size in bytes
     * \param uniform the random source; called at most once, only when RED draws
     * \return the verdict
     */
    template <typename Uniform>
    Decision DecideOn(double avg, double q, uint32_t size, Uniform&& uniform)
    {
        ++m_count;
        m_countBytes += size;
        if (avg < m_p.minTh || q <= 1)
        {
            m_old = false; // below min_th, or the queue is (almost) empty: no drops
            m_prob = 0.0;
            return ACCEPT;
        }
        if (avg >= m_forcedTh)
        {
            m_prob = 1.0;
            return m_forced;
        }
        if (!m_old)
        {
            // avg just rose above min_th: start counting packets from this one.
            m_old = true;
            m_count = 1;
            m_countBytes = size;
            m_prob = 0.0;
            return ACCEPT;
        }
        m_prob = DropProbability(avg, size);
        if (uniform() <= m_prob)
        {
            m_count = 0;
            m_countBytes = 0;
            return m_early;
        }
        return ACCEPT;
    }

    /// \return the average queue length
    double GetAverage() const
    {
        return m_avg;
    }

    /// \return packets since the last early drop (or since avg rose above min_th)
    uint64_t GetCount() const
    {
        return m_count;
    }

    /**
     * \return the probability with which the last tested packet was to be dropped or marked:
     *         0 below min_th (or q <= 1) and for the first packet above min_th, p_a between the
     *         thresholds, 1 in the forced region
     */
    double GetProbability() const
    {
        return m_prob;
    }

    /// \return whether the queue is idle (NotifyIdle, and no NotifyBusy since)
    bool IsIdle() const
    {
        return m_idle;
    }

    /// \return the parameters
    const Params& GetParams() const
    {
        return m_p;
    }

    /**
     * RED's drop probability p_a for the current count (no draw, no state change).
     * \param avg the average
     * \param size the packet's size in bytes (byte mode)
     * \return p_a in [0, 1]
     */
    double DropProbability(double avg, uint32_t size) const;

  private:
    /**
     * \param now the caller's clock, in ticks
     * \return m = floor(ptc x idle seconds), capped below 2^32 - 1
     */
    uint32_t IdlePackets(int64_t now) const;

    /**
     * \param m packets "arrived" during the idle period
     * \return (1 - w)^(m + 1)
     */
    double DecayOver(uint32_t m) const;

    Params m_p;                      //!< parameters
    double m_oneMinusW = 0.998;      //!< 1 - w_q
    double m_forcedTh = 15;          //!< max_th, or 2 max_th with gentle
    double m_ptc = 375;              //!< packets per second the link sends (LinkBandwidth / 8 mean)
    double m_vA = 0.1;               //!< 1 / (max_th - min_th)
    double m_vB = -0.5;              //!< -min_th / (max_th - min_th)
    double m_vC = 0.0;               //!< gentle slope: (1 - max_p) / max_th
    double m_vD = 0.0;               //!< gentle intercept: 2 max_p - 1
    Decision m_early = EARLY_DROP;   //!< early verdict: EARLY_DROP, or EARLY_MARK with ECN
    Decision m_forced = FORCED_DROP; //!< forced verdict: FORCED_DROP, or FORCED_MARK
    double m_avg = 0.0;              //!< avg: the average queue length
    uint64_t m_count = 0;            //!< count: packets since the last early drop
    uint64_t m_countBytes = 0;       //!< count_bytes: bytes since the last early drop
    bool m_old = false;              //!< whether avg was above min_th at the previous test
    double m_prob = 0.0;             //!< probability applied to the last tested packet
    bool m_idle = true;              //!< whether the queue is idle
    int64_t m_idleStart = 0;         //!< when the idle period started (caller's ticks)
};

} // namespace ns3

#endif /* RED_CORE_H */
