/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_BULK_SINK_HELPER_H
#define TCP_BULK_SINK_HELPER_H

#include "ns3/address.h"
#include "ns3/application-container.h"
#include "ns3/attribute.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief Installs TcpBulkSink applications, as PacketSinkHelper installs PacketSinks.
 *
 * \code
 *   TcpBulkSinkHelper sink(InetSocketAddress(Ipv4Address::GetAny(), 5000));
 *   ApplicationContainer apps = sink.Install(receiver);
 *   Ptr<TcpBulkSink> bulk = DynamicCast<TcpBulkSink>(apps.Get(0));  // bulk->GetTotalRx()
 * \endcode
 */
class TcpBulkSinkHelper
{
  public:
    /**
     * \param local the address and port each sink listens on (its Local attribute)
     */
    explicit TcpBulkSinkHelper(const Address& local);

    /**
     * \param name a TcpBulkSink attribute
     * \param value its value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \param node a node
     * \return the sink installed on it
     */
    ApplicationContainer Install(Ptr<Node> node) const;

    /**
     * \param nodes nodes
     * \return the sinks installed on them, one each, in the nodes' order
     */
    ApplicationContainer Install(const NodeContainer& nodes) const;

  private:
    ObjectFactory m_factory; //!< makes the sinks
};

} // namespace ns3

#endif /* TCP_BULK_SINK_HELPER_H */
