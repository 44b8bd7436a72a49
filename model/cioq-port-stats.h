/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CIOQ_PORT_STATS_H
#define CIOQ_PORT_STATS_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief The statistics of one port of a CioqSwitchNetDevice, as input and as output: its
 * counters, and the time averages of the packets waiting in its input buffer and of those in its
 * output queue disc.
 *
 * The device holds one per port (CioqSwitchNetDevice::GetPortStats), counts into it and tells
 * it of every change of the two occupancies with the time of the change; it has no clock of
 * its own.
 */
class CioqPortStats
{
  public:
    uint64_t framesReceived = 0;   //!< frames received from the port's link
    uint64_t localDeliveries = 0;  //!< frames (also) passed up to the switch's own stack
    uint64_t fabricDrops = 0;      //!< frames/copies with no output (NO_ROUTE, SAME_PORT)
    uint64_t inputDrops = 0;       //!< copies refused by a full input buffer
    uint64_t voqEnqueued = 0;      //!< copies admitted to the input buffer
    uint64_t transfersStarted = 0; //!< as input: fabric transfers started
    uint64_t switchedIn = 0;       //!< as input: fabric transfers completed
    uint64_t switchedOut = 0;      //!< as output: packets the fabric delivered to it
    uint64_t outputDrops = 0;      //!< as output: drops by its queue disc (any reason)
    uint64_t localSent = 0;        //!< as output: packets sent by the switch's own stack
    uint64_t sent = 0;             //!< as output: packets handed to the port device
    Time voqWaitTotal;             //!< as input: sum of VOQ waits of transferred packets
    Time voqWaitMax;               //!< as input: largest VOQ wait

    /**
     * As input: a fabric transfer started (transfersStarted and the VOQ waits).
     * \param waited the time its packet waited in its VOQ
     */
    void TransferStarted(Time waited);

    /**
     * As input: the packets waiting in its buffer changed.
     * \param packets how many wait now
     * \param now the time of the change
     */
    void InputChanged(uint32_t packets, Time now);

    /**
     * As output: the packets in its queue disc changed.
     * \param packets how many it holds now
     * \param now the time of the change
     */
    void OutputChanged(uint32_t packets, Time now);

    /**
     * \param since the start of the averages (the last Reset)
     * \param now the time
     * \return the time-averaged packets waiting in its input buffer since \p since
     */
    double GetAverageInputPackets(Time since, Time now) const;

    /**
     * \param since the start of the averages (the last Reset)
     * \param now the time
     * \return the time-averaged packets in its output queue disc since \p since
     */
    double GetAverageOutputPackets(Time since, Time now) const;

    /**
     * Zero the counters and restart the time averages (the occupancies stay as they are).
     * \param now the time
     */
    void Reset(Time now);

  private:
    uint32_t m_inputPackets = 0;  //!< packets waiting at the last input change
    double m_inputIntegral = 0;   //!< integral of packets waiting, packet-seconds
    Time m_inputSince;            //!< last change of m_inputPackets
    uint32_t m_outputPackets = 0; //!< packets in the output queue disc
    double m_outputIntegral = 0;  //!< integral of output packets, packet-seconds
    Time m_outputSince;           //!< last change of m_outputPackets
};

} // namespace ns3

#endif /* CIOQ_PORT_STATS_H */
