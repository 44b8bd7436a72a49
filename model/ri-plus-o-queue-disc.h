/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RI_PLUS_O_QUEUE_DISC_H
#define RI_PLUS_O_QUEUE_DISC_H

#include "red-core.h"
#include "rio-queue-disc.h"

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief RI+O (Kim, Park and Bahk): RIO plus a third RED test for OUT packets on the OUT
 * average avg_out = avg_total - avg_in, with the OUT parameters OutMinTh/OutMaxTh/OutMaxP
 * (Fig. 1's bold part).
 *
 * Everything else is RioQueueDisc's, in the paper's two-precedence coupled configuration
 * (Precedences = 2, Averaging = Coupled; others are refused): an OUT packet that survives the
 * IN+OUT test on avg_total is tested again on avg_out. Because both averages use one weight and
 * are updated at every arrival, avg_out is exactly the EWMA of the number of OUT packets in the
 * queue. The OUT test is RED's (RedCore), with its own count, and its own "never drop when the
 * queue holds at most one OUT packet" rule. Its drops and marks are counted under their own
 * reasons (OUT_UNFORCED_DROP, ...) and in the OUT precedence's PrecedenceStats. With UseEcn, a
 * packet the IN+OUT test already marked is not marked again; the OUT test may still drop it
 * (above OutMaxTh with hard drops, or if it cannot be marked).
 */
class RiPlusOQueueDisc : public RioQueueDisc
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RiPlusOQueueDisc();
    ~RiPlusOQueueDisc() override;

    /// \return avg_out = avg_total - avg_in, as of the last arrival
    double GetAvgOut() const;

    /// \return the probability with which the last OUT packet tested on avg_out was to be
    ///         dropped or marked by that test
    double GetOutDropProbability() const;

    /// \return the OUT test's RED count
    uint64_t GetOutCount() const;

    /// Drop and mark reasons of the OUT test (on avg_out; 32-byte aligned: see
    /// PerFlowQueueDisc::OVERLIMIT_DROP).
    alignas(32) static constexpr char OUT_UNFORCED_DROP[] =
        "Unforced drop (avg_out)"; //!< early, random drop on avg_out
    alignas(32) static constexpr char OUT_FORCED_DROP[] =
        "Forced drop (avg_out)"; //!< avg_out above OutMaxTh (twice it with Gentle)
    alignas(32) static constexpr char OUT_UNFORCED_MARK[] =
        "Unforced mark (avg_out)"; //!< early, random ECN mark on avg_out
    alignas(32) static constexpr char OUT_FORCED_MARK[] =
        "Forced mark (avg_out)"; //!< ECN mark, avg_out above OutMaxTh

  protected:
    bool CheckConfig() override;
    void InitializeParams() override;
    Outcome Judge(Ptr<QueueDiscItem> item, uint32_t k, uint32_t size) override;

  private:
    /// Drop and mark reasons of the OUT test.
    static constexpr std::array<const char*, 4> OUT_REASONS = {OUT_UNFORCED_DROP,
                                                               OUT_FORCED_DROP,
                                                               OUT_UNFORCED_MARK,
                                                               OUT_FORCED_MARK};

    double m_outMinTh; //!< min_out
    double m_outMaxTh; //!< max_out
    double m_outMaxP;  //!< P_max_out
    RedCore m_outRed;  //!< the OUT test (judges on avg_out)
};

} // namespace ns3

#endif /* RI_PLUS_O_QUEUE_DISC_H */
