/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIO_QUEUE_DISC_H
#define RIO_QUEUE_DISC_H

#include "red-core.h"

#include "ns3/data-rate.h"
#include "ns3/queue-disc.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-value.h"

#include <array>
#include <string>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief RIO, RED with IN and OUT (Clark and Fang, 1998), as Kim, Park and Bahk's Fig. 1 runs
 * it: one FIFO queue, twin RED tests, both averages updated at every arrival; plus a
 * three-precedence mode with coupled (RIO-C), decoupled (RIO-D) or shared (WRED) averages.
 *
 * Each packet has a drop precedence from its DSCP (IPv4 TOS / IPv6 Traffic Class): precedence 1
 * (IN) for the DSCPs in InDscps (default AFx1), 2 for those in MidDscps (AFx2) in
 * three-precedence mode, and the last precedence (OUT; AFx3 in three-precedence mode) for every
 * other DSCP, best effort included, and for packets that are not IP (counted as `nonIp`).
 *
 * On every arrival (Fig. 1):
 *  1. every precedence's average is updated from the queue before the packet joins, with one
 *     weight QueueWeight and, after an idle period, RED's idle-time decay: in the paper's
 *     two-precedence coupled mode avg_in follows the IN packets in the queue and avg_total the
 *     whole queue (RIO-C: precedence k follows the packets of precedence <= k; RIO-D: its own
 *     packets; WRED: the whole queue);
 *  2. the packet is tested by RED on its precedence's average with its precedence's parameters:
 *     IN on avg_in with InMinTh/InMaxTh/InMaxP, OUT on avg_total with
 *     TotalMinTh/TotalMaxTh/TotalMaxP (and AFx2 with MidMinTh/MidMaxTh/MidMaxP). Each precedence
 *     has its own RED count, so its early drops are spaced as RED spaces them (Wait), and its own
 *     "never drop when the queue it follows holds at most one packet" rule;
 *  3. early drops become ECN marks for ECN-capable packets with UseEcn; above the maximum
 *     threshold (twice it with Gentle) packets are dropped (marked if UseHardDrop is off);
 *  4. a packet that passes joins the FIFO unless the queue is full (MaxSize).
 * Each step is RED's own (RedCore); with IN packets only, RIO is RedQueueDisc with the IN
 * parameters, drop for drop.
 *
 * Packet or byte mode follows MaxSize's unit, as in RedQueueDisc: in byte mode queue lengths and
 * thresholds are in bytes, RED's count is in MeanPktSize units and early drop probabilities
 * scale with packet size.
 */
class RioQueueDisc : public QueueDisc
{
  public:
    /// Which queue each precedence's average follows.
    enum Averaging
    {
        COUPLED,   //!< RIO-C: packets of this or a lower precedence (the paper's avg_in, avg_total)
        DECOUPLED, //!< RIO-D: packets of this precedence only
        WRED,      //!< every precedence: the whole queue (each with its own thresholds)
    };

    /// Counters of one drop precedence.
    struct PrecedenceStats
    {
        uint64_t arrivals = 0;    //!< packets that arrived
        uint64_t nonIp = 0;       //!< of which not IP (given the last precedence)
        uint64_t enqueued = 0;    //!< packets queued (marked ones included)
        uint64_t earlyDrops = 0;  //!< early (random) drops, including packets RED chose to mark
                                  //!< that were not ECN-capable
        uint64_t forcedDrops = 0; //!< drops above the maximum threshold (twice it with Gentle)
        uint64_t earlyMarks = 0;  //!< early ECN marks
        uint64_t forcedMarks = 0; //!< ECN marks above the maximum threshold (UseHardDrop off)
        uint64_t limitDrops = 0;  //!< drops because the queue was full (MaxSize)
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RioQueueDisc();
    ~RioQueueDisc() override;

    /**
     * Assign a fixed random variable stream number to the random variables used by this model.
     * \param stream first stream index to use
     * \return the number of stream indices assigned by this model (1)
     */
    int64_t AssignStreams(int64_t stream);

    /// \return the number of drop precedences (Precedences: 2, or 3)
    uint32_t GetPrecedences() const;

    /// \return what each precedence's average follows (Averaging)
    Averaging GetAveraging() const;

    /**
     * \param item a packet
     * \return its drop precedence, 1 (IN) .. GetPrecedences() (OUT)
     */
    uint32_t GetPrecedence(Ptr<const QueueDiscItem> item) const;

    /**
     * \param precedence 1 .. GetPrecedences()
     * \return its counters since the simulation started
     */
    const PrecedenceStats& GetPrecedenceStats(uint32_t precedence) const;

    /**
     * \param precedence 1 .. GetPrecedences()
     * \return the average its packets are judged on (avg_in for 1, avg_total for OUT when
     *         coupled), in packets or bytes
     */
    double GetAverage(uint32_t precedence) const;

    /**
     * \param precedence 1 .. GetPrecedences()
     * \return the queue length that average follows, now (packets or bytes)
     */
    double GetQueueLength(uint32_t precedence) const;

    /**
     * \param precedence 1 .. GetPrecedences()
     * \return the probability with which its last arriving packet was to be dropped or marked
     *         (0 below the minimum threshold, RED's p_a between the thresholds, 1 above)
     */
    double GetDropProbability(uint32_t precedence) const;

    /**
     * \param precedence 1 .. GetPrecedences()
     * \return RED's count of its packets since its last early drop
     */
    uint64_t GetCount(uint32_t precedence) const;

    /// Drop and mark reasons: the same as RedQueueDisc's, for every precedence (32-byte
    /// aligned: see PerFlowQueueDisc::OVERLIMIT_DROP).
    alignas(32) static constexpr char UNFORCED_DROP[] = "Unforced drop"; //!< early, random drop
    alignas(32) static constexpr char FORCED_DROP[] =
        "Forced drop"; //!< above the maximum threshold
    alignas(32) static constexpr char UNFORCED_MARK[] = "Unforced mark"; //!< early, random ECN mark
    alignas(32) static constexpr char FORCED_MARK[] = "Forced mark"; //!< ECN mark above the maximum

  protected:
    /// What became of an arriving packet after a test.
    enum Outcome
    {
        PASSED,  //!< untouched
        MARKED,  //!< ECN-marked, still to be queued
        DROPPED, //!< dropped
    };

    void DoDispose() override;
    bool CheckConfig() override;
    void InitializeParams() override;

    /**
     * Step 2 of an arrival: the packet's RED test(s), once every average is up to date.
     * RiPlusOQueueDisc adds its OUT test here.
     * \param item the packet
     * \param k its precedence index (precedence - 1)
     * \param size its size in bytes
     * \return what became of it
     */
    virtual Outcome Judge(Ptr<QueueDiscItem> item, uint32_t k, uint32_t size);

    /**
     * Carry out a RED verdict on a packet: mark or drop it, with stats.
     * \param item the packet
     * \param k its precedence index
     * \param decision the verdict
     * \param reasons the drop and mark reasons: early drop, forced drop, early mark, forced mark
     * \return what became of the packet
     */
    Outcome Apply(Ptr<QueueDiscItem> item,
                  uint32_t k,
                  RedCore::Decision decision,
                  const std::array<const char*, 4>& reasons);

    /**
     * RED's parameters shared by every test: QueueWeight, Wait, Gentle, byte mode, MeanPktSize,
     * LinkBandwidth, UseEcn, UseHardDrop; with the given thresholds.
     * \param minTh minimum threshold
     * \param maxTh maximum threshold
     * \param maxP drop probability at maxTh
     * \return the parameters
     */
    RedCore::Params MakeParams(double minTh, double maxTh, double maxP) const;

    /**
     * Stop the program if \p p is not valid, naming the attributes.
     * \param p parameters
     * \param prefix their thresholds' attribute prefix ("In", "Total", ...)
     */
    void CheckParams(const RedCore::Params& p, const std::string& prefix) const;

    /// \return a uniform draw in [0, 1) from the queue disc's stream
    double Draw()
    {
        return m_uv->GetValue();
    }

    /**
     * \param k a precedence index
     * \return the number of packets (or bytes) of that precedence in the queue
     */
    double Backlog(uint32_t k) const
    {
        return m_backlog[k];
    }

    /// Drop and mark reasons of the (first) RED test.
    static constexpr std::array<const char*, 4> REASONS = {UNFORCED_DROP,
                                                           FORCED_DROP,
                                                           UNFORCED_MARK,
                                                           FORCED_MARK};

    TracedValue<double> m_avgIn;    //!< avg_in: the average precedence 1 is judged on
    TracedValue<double> m_avgMid;   //!< the average precedence 2 of three is judged on
    TracedValue<double> m_avgTotal; //!< avg_total: the average the last precedence is judged on
    TracedValue<double> m_avgOut;   //!< avg_out = avg_total - avg_in (two coupled precedences)

  private:
    /// The most precedences.
    static constexpr uint32_t MAX_PRECEDENCES = 3;

    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    Ptr<const QueueDiscItem> DoPeek() override;

    /**
     * \param item a packet
     * \param isIp set to whether it is IPv4 or IPv6
     * \return its precedence index, 0 .. m_precedences - 1
     */
    uint32_t Classify(Ptr<const QueueDiscItem> item, bool& isIp) const;

    /**
     * \param k a precedence index
     * \return the queue length its average follows
     */
    double Followed(uint32_t k) const;

    /**
     * Parse a DSCP list attribute into m_indexOf.
     * \param name the attribute's name
     * \param text its value
     * \param k the precedence index to give those DSCPs
     */
    void MapDscps(const std::string& name, const std::string& text, uint32_t k);

    // Attributes
    uint32_t m_precedences;   //!< number of drop precedences, 2 or 3
    Averaging m_averaging;    //!< what each precedence's average follows
    std::string m_inDscps;    //!< DSCPs of precedence 1
    std::string m_midDscps;   //!< DSCPs of precedence 2 (three precedences)
    double m_inMinTh;         //!< IN min_th
    double m_inMaxTh;         //!< IN max_th
    double m_inMaxP;          //!< IN max_p
    double m_midMinTh;        //!< AFx2 min_th (three precedences)
    double m_midMaxTh;        //!< AFx2 max_th
    double m_midMaxP;         //!< AFx2 max_p
    double m_totalMinTh;      //!< IN+OUT (last precedence) min_th
    double m_totalMaxTh;      //!< IN+OUT max_th
    double m_totalMaxP;       //!< IN+OUT max_p
    double m_qW;              //!< w_q, shared by every average
    bool m_ns2Averaging;      //!< averages updated on IN arrivals only (ns-2.35's rio.cc)
    bool m_wait;              //!< RED's Wait
    bool m_gentle;            //!< RED's Gentle
    bool m_useEcn;            //!< mark ECN-capable packets instead of early drops
    bool m_useHardDrop;       //!< drop above the maximum threshold even with ECN
    uint32_t m_meanPktSize;   //!< mean packet size in bytes
    DataRate m_linkBandwidth; //!< link rate, for the idle-time decay

    // State
    bool m_byteMode = false;                                //!< MaxSize in bytes
    std::array<uint8_t, 64> m_indexOf{};                    //!< DSCP -> precedence index
    std::array<RedCore, MAX_PRECEDENCES> m_red;             //!< each precedence's RED
    std::array<double, MAX_PRECEDENCES> m_backlog{};        //!< packets/bytes per precedence
    std::array<PrecedenceStats, MAX_PRECEDENCES> m_stats{}; //!< counters per precedence
    Ptr<UniformRandomVariable> m_uv;                        //!< RED's draws, one stream
};

} // namespace ns3

#endif /* RIO_QUEUE_DISC_H */
