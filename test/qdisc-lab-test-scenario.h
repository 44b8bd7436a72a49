/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QDISC_LAB_TEST_SCENARIO_H
#define QDISC_LAB_TEST_SCENARIO_H

/**
 * \file
 * \ingroup qdisc-lab-tests
 * Checks of what a scenario helper built, shared by its test suites: which devices have a queue
 * disc, and how the nodes route.
 */

#include "ns3/ipv4-list-routing.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/ipv4.h"
#include "ns3/loopback-net-device.h"
#include "ns3/node-list.h"
#include "ns3/pointer.h"
#include "ns3/qdisc-lab-compat.h"
#include "ns3/queue-disc.h"
#include "ns3/queue.h"
#include "ns3/scenario-link.h"
#include "ns3/socket.h"
#include "ns3/traffic-control-layer.h"

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include QDISC_LAB_IPV4_GLOBAL_ROUTING_HEADER

namespace ns3
{
namespace qdisclab
{
namespace test
{

/**
 * \param studied the devices asked to have a queue disc, with its type
 * \return "" if every device of every node (loopback excepted) in \p studied has a root queue
 *         disc of exactly that type and every other has none and a DropTail device queue of
 *         ScenarioLink::UNSTUDIED_QUEUE_SIZE; else the first device that does not
 */
inline std::string
QueueDiscMismatch(const std::map<Ptr<NetDevice>, TypeId>& studied)
{
    std::ostringstream error;
    uint32_t seen = 0;
    for (auto node = NodeList::Begin(); node != NodeList::End(); ++node)
    {
        Ptr<TrafficControlLayer> tc = (*node)->GetObject<TrafficControlLayer>();
        for (uint32_t i = 0; i < (*node)->GetNDevices(); ++i)
        {
            Ptr<NetDevice> device = (*node)->GetDevice(i);
            if (DynamicCast<LoopbackNetDevice>(device))
            {
                continue;
            }
            Ptr<QueueDisc> root = tc->GetRootQueueDiscOnDevice(device);
            auto asked = studied.find(device);
            error << "node " << (*node)->GetId() << " device " << i << ": ";
            if (asked != studied.end())
            {
                ++seen;
                if (!root || root->GetInstanceTypeId() != asked->second)
                {
                    error << "expected " << asked->second.GetName() << ", has "
                          << (root ? root->GetInstanceTypeId().GetName() : "none");
                    return error.str();
                }
            }
            else
            {
                if (root)
                {
                    error << "expected no queue disc, has " << root->GetInstanceTypeId().GetName();
                    return error.str();
                }
                PointerValue queue;
                device->GetAttribute("TxQueue", queue);
                if (queue.Get<QueueBase>()->GetMaxSize() != ScenarioLink::UNSTUDIED_QUEUE_SIZE)
                {
                    error << "device queue of " << queue.Get<QueueBase>()->GetMaxSize();
                    return error.str();
                }
            }
            error.str("");
        }
    }
    if (seen != studied.size())
    {
        error << seen << " of the " << studied.size() << " studied devices found";
    }
    return error.str();
}

/**
 * \param destinations addresses every node must reach
 * \return "" if every node consults global routing first (priority
 *         ScenarioLink::GLOBAL_ROUTING_PRIORITY), static routing second
 *         (ScenarioLink::STATIC_ROUTING_PRIORITY), and global routing alone has a route from
 *         every node to every address of \p destinations not its own; else the first failure
 */
inline std::string
RoutingMismatch(const std::vector<Ipv4Address>& destinations)
{
    std::ostringstream error;
    for (auto node = NodeList::Begin(); node != NodeList::End(); ++node)
    {
        Ptr<Ipv4> ipv4 = (*node)->GetObject<Ipv4>();
        error << "node " << (*node)->GetId() << ": ";
        Ptr<Ipv4ListRouting> list = DynamicCast<Ipv4ListRouting>(ipv4->GetRoutingProtocol());
        if (!list || list->GetNRoutingProtocols() != 2)
        {
            error << "not a list of two routing protocols";
            return error.str();
        }
        int16_t priority;
        Ptr<Ipv4GlobalRouting> global =
            DynamicCast<Ipv4GlobalRouting>(list->GetRoutingProtocol(0, priority));
        if (!global || priority != ScenarioLink::GLOBAL_ROUTING_PRIORITY)
        {
            error << "global routing is not first, at priority "
                  << ScenarioLink::GLOBAL_ROUTING_PRIORITY;
            return error.str();
        }
        if (!DynamicCast<Ipv4StaticRouting>(list->GetRoutingProtocol(1, priority)) ||
            priority != ScenarioLink::STATIC_ROUTING_PRIORITY)
        {
            error << "static routing is not second, at priority "
                  << ScenarioLink::STATIC_ROUTING_PRIORITY;
            return error.str();
        }
        for (const Ipv4Address& to : destinations)
        {
            if (ipv4->GetInterfaceForAddress(to) >= 0)
            {
                continue;
            }
            Ipv4Header header;
            header.SetDestination(to);
            Socket::SocketErrno errno_;
            Ptr<Ipv4Route> route = global->RouteOutput(nullptr, header, nullptr, errno_);
            if (!route || errno_ != Socket::ERROR_NOTERROR)
            {
                error << "global routing has no route to " << to;
                return error.str();
            }
        }
        error.str("");
    }
    return error.str();
}

} // namespace test
} // namespace qdisclab
} // namespace ns3

#endif /* QDISC_LAB_TEST_SCENARIO_H */
