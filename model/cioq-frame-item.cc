/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cioq-frame-item.h"

#include "ns3/log.h"
#include "ns3/packet.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CioqFrameItem");

CioqFrameItem::CioqFrameItem(Ptr<Packet> packet, const Address& address, uint16_t protocol)
    : QueueDiscItem(packet, address, protocol)
{
    NS_LOG_FUNCTION(this << packet << address << protocol);
}

void
CioqFrameItem::AddHeader()
{
}

bool
CioqFrameItem::Mark()
{
    return false;
}

} // namespace ns3
