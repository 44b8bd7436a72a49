/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CIOQ_SOURCE_TAG_H
#define CIOQ_SOURCE_TAG_H

#include "ns3/mac48-address.h"
#include "ns3/tag.h"

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief A packet's source MAC address across a CioqSwitchNetDevice, for ports that send with
 * SendFrom (CSMA): the queue disc item carries only the destination.
 */
class CioqSourceTag : public Tag
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer buffer) const override;
    void Deserialize(TagBuffer buffer) override;
    void Print(std::ostream& os) const override;

    Mac48Address source; //!< the frame's source address
};

} // namespace ns3

#endif /* CIOQ_SOURCE_TAG_H */
