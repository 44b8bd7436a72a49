/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CIOQ_VOQ_SET_H
#define CIOQ_VOQ_SET_H

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/queue-item.h"
#include "ns3/queue-size.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief The input buffers of an N x N CIOQ switch: at each input, one virtual output queue
 * (VOQ) per output, or a single FIFO; no simulator.
 *
 * Input i's buffer is shared by its queues and limited by an input limit (packets or bytes);
 * each VOQ(i, j) may have its own limit as well. A packet that would exceed either is refused
 * (DropTail: the caller drops it). The set counts packets and bytes per input and per VOQ
 * (VOQ(i, j) counts the packets of input i for output j, which in Fifo mode share one queue).
 * Every operation is O(1); the caller passes the arrival time it wants recorded.
 */
class CioqVoqSet
{
  public:
    /// Input queueing.
    enum Queueing
    {
        VOQ,  //!< one virtual output queue per output at each input
        FIFO, //!< one FIFO per input (head-of-line blocking)
    };

    /// A packet waiting at an input.
    struct Entry
    {
        Ptr<QueueDiscItem> item; //!< the packet, as its output queue disc will see it
        uint32_t output;         //!< its output
        Time arrival;            //!< when it joined the input buffer
    };

    CioqVoqSet();

    /**
     * Empty the set and size it.
     * \param ports N, the number of inputs (and outputs); >= 1
     * \param queueing VOQs or one FIFO per input
     * \param inputLimit limit of each input's buffer, packets or bytes; > 0
     * \param voqLimit limit of each VOQ, packets or bytes; 0 = none
     */
    void Reset(uint32_t ports, Queueing queueing, QueueSize inputLimit, QueueSize voqLimit);

    /**
     * \param i an input
     * \param j an output
     * \param bytes the size of a packet
     * \return whether input i's buffer, or VOQ(i, j), has no room for the packet
     */
    bool IsFull(uint32_t i, uint32_t j, uint32_t bytes) const
    {
        const uint32_t voq = i * m_ports + j;
        const bool inputFull = (m_inputLimit.GetUnit() == QueueSizeUnit::PACKETS)
                                   ? m_inputPackets[i] + 1 > m_inputLimit.GetValue()
                                   : m_inputBytes[i] + bytes > m_inputLimit.GetValue();
        return inputFull || (m_voqLimit.GetValue() > 0 &&
                             ((m_voqLimit.GetUnit() == QueueSizeUnit::PACKETS)
                                  ? m_voqPackets[voq] + 1 > m_voqLimit.GetValue()
                                  : m_voqBytes[voq] + bytes > m_voqLimit.GetValue()));
    }

    /**
     * Append a packet to input i's queue for output j; the caller has checked IsFull.
     * \param i the input
     * \param j the output
     * \param item the packet
     * \param arrival the time to record as its arrival
     * \return the length of the queue it joined, itself included
     */
    std::size_t Enqueue(uint32_t i, uint32_t j, Ptr<QueueDiscItem> item, Time arrival);

    /**
     * Remove the head of input i's queue for output j (in Fifo mode, the FIFO's head, which
     * must be for output j).
     * \param i the input
     * \param j the output
     * \return the packet's entry
     */
    Entry Dequeue(uint32_t i, uint32_t j);

    /**
     * \param i an input
     * \param j an output
     * \return the queue of input i that holds its packets for j: VOQ(i, j), or input i's FIFO
     */
    const std::deque<Entry>& GetQueue(uint32_t i, uint32_t j) const
    {
        return m_queues[m_queueing == VOQ ? i * m_ports + j : i];
    }

    /**
     * \param i an input
     * \param j an output
     * \return packets of input i for output j
     */
    uint32_t GetVoqPackets(uint32_t i, uint32_t j) const
    {
        return m_voqPackets[i * m_ports + j];
    }

    /**
     * \param i an input
     * \param j an output
     * \return bytes of input i for output j
     */
    uint64_t GetVoqBytes(uint32_t i, uint32_t j) const
    {
        return m_voqBytes[i * m_ports + j];
    }

    /**
     * \param i an input
     * \return packets waiting at input i
     */
    uint32_t GetInputPackets(uint32_t i) const
    {
        return m_inputPackets[i];
    }

    /**
     * \param i an input
     * \return bytes waiting at input i
     */
    uint64_t GetInputBytes(uint32_t i) const
    {
        return m_inputBytes[i];
    }

    /// \return N
    uint32_t GetPorts() const;

    /// \return VOQ or FIFO
    Queueing GetQueueing() const;

  private:
    uint32_t m_ports;                        //!< N
    Queueing m_queueing;                     //!< VOQs or FIFOs
    QueueSize m_inputLimit;                  //!< per-input buffer limit
    QueueSize m_voqLimit;                    //!< per-VOQ limit (0 = none)
    std::vector<std::deque<Entry>> m_queues; //!< VOQs (N*N, row-major) or FIFOs (N)
    std::vector<uint32_t> m_inputPackets;    //!< packets waiting at input i
    std::vector<uint64_t> m_inputBytes;      //!< bytes waiting at input i
    std::vector<uint32_t> m_voqPackets;      //!< packets of input i for output j, N*N
    std::vector<uint64_t> m_voqBytes;        //!< bytes of input i for output j, N*N
};

} // namespace ns3

#endif /* CIOQ_VOQ_SET_H */
