/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CIOQ_INPUT_BACKLOG_H
#define CIOQ_INPUT_BACKLOG_H

#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief The input-side backlog of one switch output: how many packets and bytes wait at the
 * switch's inputs for this output (the sum over inputs i of VOQ(i, j)).
 *
 * A switch aggregates one of these to each output's queue disc (ns-3 object aggregation, as a
 * NetDeviceQueueInterface is aggregated to a device) and keeps its counts up to date; a queue
 * disc that wants the input backlog (CioqRedQueueDisc) looks it up with
 * GetObject<CioqInputBacklog>() and reads it when it needs it. Neither side depends on the
 * other's class: a queue disc outside a switch simply finds none.
 */
class CioqInputBacklog : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    CioqInputBacklog();

    /// \return packets waiting at the inputs for this output
    uint32_t GetPackets() const
    {
        return m_packets;
    }

    /// \return bytes waiting at the inputs for this output
    uint64_t GetBytes() const
    {
        return m_bytes;
    }

    /**
     * A packet of \p bytes joined the input side for this output.
     * \param bytes its size
     */
    void Add(uint32_t bytes)
    {
        ++m_packets;
        m_bytes += bytes;
    }

    /**
     * A packet of \p bytes left the input side for this output.
     * \param bytes its size
     */
    void Remove(uint32_t bytes)
    {
        --m_packets;
        m_bytes -= bytes;
    }

  private:
    uint32_t m_packets; //!< packets waiting at the inputs for this output
    uint64_t m_bytes;   //!< bytes waiting at the inputs for this output
};

} // namespace ns3

#endif /* CIOQ_INPUT_BACKLOG_H */
