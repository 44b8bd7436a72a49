/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CIOQ_RED_QUEUE_DISC_H
#define CIOQ_RED_QUEUE_DISC_H

#include "cioq-input-backlog.h"
#include "red-core.h"

#include "ns3/data-rate.h"
#include "ns3/queue-disc.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-value.h"

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief RED for the outputs of a combined input/output queued switch (Sundararajan, Zhao,
 * Youssef-Massaad and Médard, "A Modification to RED AQM for CIOQ Switches"): the average
 * follows the weighted sum of the input-side backlog for this output and the output queue,
 * equation (2),
 * \verbatim
 *   Q_avg(i) = (1 - w_q) Q_avg(i - 1) + w_q (nu q_input + q_output)
 * \endverbatim
 * where q_input is the sum of the lengths of the VOQs of this output (read from the
 * CioqInputBacklog that CioqSwitchNetDevice aggregates to its output queue discs) and nu is
 * InputWeight. Drops (and ECN marks) are taken only at this, the output, queue.
 *
 * Everything else is RED as ns-3's RedQueueDisc runs it (the module's RedCore: idle-time decay
 * of the average, count-spaced drops, Wait, Gentle, byte mode, ECN), so with nu = 0, or outside a
 * switch (no CioqInputBacklog: it logs that it is plain RED), it drops exactly the packets
 * RedQueueDisc drops for the same random stream. RED's "no drop while the queue holds at most one
 * packet" rule reads the output queue itself, as ns-2's red.cc reads its own queue's length.
 */
class CioqRedQueueDisc : public QueueDisc
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    CioqRedQueueDisc();
    ~CioqRedQueueDisc() override;

    /**
     * Assign a fixed random variable stream number to the random variables used by this model.
     * \param stream first stream index to use
     * \return the number of stream indices assigned by this model
     */
    int64_t AssignStreams(int64_t stream);

    /// \return the RED average Q_avg (packets, or bytes in byte mode)
    double GetAverage() const;

    /// \return whether an input backlog is supplied (the queue disc is a CIOQ switch's output)
    bool HasInputBacklog() const;

    // Reasons for dropping and marking, the same strings as RedQueueDisc's (32-byte aligned: see
    // PerFlowQueueDisc::OVERLIMIT_DROP).
    alignas(32) static constexpr char UNFORCED_DROP[] = "Unforced drop"; //!< early (random) drop
    alignas(32) static constexpr char FORCED_DROP[] = "Forced drop";     //!< Q_avg above max_th
    alignas(32) static constexpr char UNFORCED_MARK[] =
        "Unforced mark";                                             //!< early (random) ECN mark
    alignas(32) static constexpr char FORCED_MARK[] = "Forced mark"; //!< forced ECN mark

  protected:
    void DoDispose() override;
    void NotifyNewAggregate() override;

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    Ptr<const QueueDiscItem> DoPeek() override;
    bool CheckConfig() override;
    void InitializeParams() override;

    /**
     * \return ns-3 time steps converted to seconds, as RedQueueDisc converts idle times
     * \param ticks a span of time steps
     */
    static double TicksToSeconds(int64_t ticks);

    // Attributes
    double m_inputWeight;     //!< nu
    double m_minTh;           //!< min_th
    double m_maxTh;           //!< max_th
    double m_qW;              //!< w_q
    double m_lInterm;         //!< 1 / max_p
    uint32_t m_meanPktSize;   //!< mean packet size, bytes
    bool m_wait;              //!< Wait
    bool m_gentle;            //!< Gentle
    DataRate m_linkBandwidth; //!< link rate, for the idle-time decay
    bool m_useEcn;            //!< mark instead of drop
    bool m_useHardDrop;       //!< with ECN, still drop above max_th

    // State. The backlog is an object of this queue disc's own aggregate, which ns-3 deletes
    // as a whole: a plain pointer, as a Ptr would be a cycle keeping the aggregate alive.
    RedCore m_core;                     //!< RED's average and drop test
    CioqInputBacklog* m_backlog;        //!< the switch's input backlog for this output, if any
    Ptr<UniformRandomVariable> m_uv;    //!< RED's draws
    TracedValue<double> m_average;      //!< Q_avg, after each arrival
    TracedValue<double> m_inputPackets; //!< q_input at the last arrival (packets or bytes)
};

} // namespace ns3

#endif /* CIOQ_RED_QUEUE_DISC_H */
