/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-bulk-sink-helper.h"

#include "ns3/application.h"
#include "ns3/node.h"
#include "ns3/tcp-bulk-sink.h"

namespace ns3
{

TcpBulkSinkHelper::TcpBulkSinkHelper(const Address& local)
{
    m_factory.SetTypeId(TcpBulkSink::GetTypeId());
    m_factory.Set("Local", AddressValue(local));
}

void
TcpBulkSinkHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

ApplicationContainer
TcpBulkSinkHelper::Install(Ptr<Node> node) const
{
    Ptr<Application> sink = m_factory.Create<Application>();
    node->AddApplication(sink);
    return ApplicationContainer(sink);
}

ApplicationContainer
TcpBulkSinkHelper::Install(const NodeContainer& nodes) const
{
    ApplicationContainer apps;
    for (auto i = nodes.Begin(); i != nodes.End(); ++i)
    {
        apps.Add(Install(*i));
    }
    return apps;
}

} // namespace ns3
