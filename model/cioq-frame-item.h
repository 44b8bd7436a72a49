/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CIOQ_FRAME_ITEM_H
#define CIOQ_FRAME_ITEM_H

#include "ns3/queue-item.h"

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief A non-IP frame (ARP, ...) that a CioqSwitchNetDevice puts in an output queue disc: no
 * header kept apart, nothing to mark. (IPv4 and IPv6 packets travel as the IP layers' own
 * queue disc items.)
 */
class CioqFrameItem : public QueueDiscItem
{
  public:
    /**
     * \param packet the frame's payload
     * \param address its destination
     * \param protocol its protocol number
     */
    CioqFrameItem(Ptr<Packet> packet, const Address& address, uint16_t protocol);

    /// Nothing to add: the frame has no header kept apart.
    void AddHeader() override;

    /**
     * Not an IP packet: nothing to mark.
     * \return false
     */
    bool Mark() override;
};

} // namespace ns3

#endif /* CIOQ_FRAME_ITEM_H */
