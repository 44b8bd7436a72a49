/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cioq-source-tag.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CioqSourceTag");

NS_OBJECT_ENSURE_REGISTERED(CioqSourceTag);

TypeId
CioqSourceTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CioqSourceTag")
                            .SetParent<Tag>()
                            .SetGroupName("QdiscLab")
                            .AddConstructor<CioqSourceTag>();
    return tid;
}

TypeId
CioqSourceTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
CioqSourceTag::GetSerializedSize() const
{
    return 6;
}

void
CioqSourceTag::Serialize(TagBuffer buffer) const
{
    uint8_t bytes[6];
    source.CopyTo(bytes);
    buffer.Write(bytes, 6);
}

void
CioqSourceTag::Deserialize(TagBuffer buffer)
{
    uint8_t bytes[6];
    buffer.Read(bytes, 6);
    source.CopyFrom(bytes);
}

void
CioqSourceTag::Print(std::ostream& os) const
{
    os << "source=" << source;
}

} // namespace ns3
