/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cioq-input-backlog.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CioqInputBacklog);

TypeId
CioqInputBacklog::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CioqInputBacklog")
                            .SetParent<Object>()
                            .SetGroupName("QdiscLab")
                            .AddConstructor<CioqInputBacklog>();
    return tid;
}

CioqInputBacklog::CioqInputBacklog()
    : m_packets(0),
      m_bytes(0)
{
}

} // namespace ns3
