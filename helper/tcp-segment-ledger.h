/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_SEGMENT_LEDGER_H
#define TCP_SEGMENT_LEDGER_H

#include <cstdint>
#include <map>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief Which bytes of one TCP flow's data have been sent and which delivered before: tells a
 * new segment from a retransmission, and a needed retransmission from one whose bytes the
 * receiver already has (a *spurious* one). No simulator dependency.
 *
 * Fed from a point all the flow's data segments pass (a bottleneck queue disc: Send() on
 * arrival, Deliver() on departure when nothing is lost beyond it). Sequence numbers are
 * the TCP header's, unwrapped: a flow may carry at most 4 GiB (ns-3's initial sequence number
 * is 0), which a 100 s run at 100 Mb/s does not approach.
 *
 * \code
 *   TcpSegmentLedger ledger;
 *   ledger.Send(1, 1001);      // 0: new data
 *   ledger.Send(1, 1001);      // 1000: sent before, a retransmission
 *   ledger.Deliver(1, 1001);   // 0: the receiver did not have these bytes
 *   ledger.Deliver(1, 1001);   // 1000: it did, the retransmission was spurious
 * \endcode
 */
class TcpSegmentLedger
{
  public:
    /**
     * Record that the bytes [begin, end) were sent.
     * \param begin the first byte's sequence number
     * \param end one past the last byte's
     * \return how many of them lie below the highest sequence number sent before
     */
    uint32_t Send(uint32_t begin, uint32_t end);

    /**
     * Record that the bytes [begin, end) were delivered.
     * \param begin the first byte's sequence number
     * \param end one past the last byte's
     * \return how many of them had been delivered before
     */
    uint32_t Deliver(uint32_t begin, uint32_t end);

    /// \return the number of disjoint delivered ranges (1 when delivery had no gap)
    std::size_t GetDeliveredRanges() const;

  private:
    uint32_t m_highSent = 0;                  //!< one past the highest byte sent
    std::map<uint32_t, uint32_t> m_delivered; //!< delivered ranges [begin, end), by begin
};

} // namespace ns3

#endif /* TCP_SEGMENT_LEDGER_H */
