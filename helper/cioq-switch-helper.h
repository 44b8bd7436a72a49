/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CIOQ_SWITCH_HELPER_H
#define CIOQ_SWITCH_HELPER_H

#include "ns3/cioq-switch-net-device.h"
#include "ns3/data-rate.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/qdisc-lab-config.h"
#include "ns3/queue-disc-container.h"

#include <string>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief Builds CIOQ switches: a CioqSwitchNetDevice on a node, its output queue discs, and
 * (InstallStar) the links to N hosts.
 *
 * N hosts on one 16 x 16 switch at speedup 1.4 with CioqRedQueueDisc at the outputs:
 * \code
 *   NodeContainer hosts(16);
 *   InternetStackHelper().Install(hosts);
 *   CioqSwitchHelper cioq;
 *   cioq.SetLineRate(DataRate("1Mbps"));
 *   cioq.SetDeviceAttribute("Speedup", DoubleValue(1.4));
 *   cioq.SetOutputQueueDisc("ns3::CioqRedQueueDisc", "InputWeight", DoubleValue(0.125));
 *   CioqSwitchHelper::Star star = cioq.InstallStar(CreateObject<Node>(), hosts);
 *   Ipv4AddressHelper addresses("10.1.0.0", "255.255.0.0");
 *   Ipv4InterfaceContainer interfaces = cioq.AssignIpv4(star, addresses);
 * \endcode
 * Hosts then reach each other at interfaces.GetAddress(k) with plain IP (one subnet).
 */
class CioqSwitchHelper
{
  public:
    /// Kind of link between a host and a switch port.
    enum PortType
    {
        POINT_TO_POINT, //!< full-duplex point-to-point links; Static forwarding by IPv4 address
        CSMA,           //!< two-node CSMA (Ethernet, half duplex) links; MAC learning
    };

    /// What InstallStar built.
    struct Star
    {
        Ptr<Node> switchNode;            //!< the switch's node
        Ptr<CioqSwitchNetDevice> device; //!< the switch
        NetDeviceContainer ports;        //!< switch port k, attached to host k
        NetDeviceContainer hostDevices;  //!< host k's device on its link to the switch
    };

    CioqSwitchHelper();

    /**
     * Set an attribute of the CioqSwitchNetDevice to create.
     * \param name attribute name
     * \param value its value
     */
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Set the queue disc type (and attributes) that every output gets, as
     * TrafficControlHelper::SetRootQueueDisc. Without it, outputs get FifoQueueDisc of 20p.
     * A \p type that is not a QueueDisc stops the program, naming it.
     * \param type queue disc TypeId name
     * \param args attribute name / value pairs
     */
    template <typename... Args>
    void SetOutputQueueDisc(const std::string& type, Args&&... args);

    /**
     * \param type kind of host links InstallStar builds
     */
    void SetPortType(PortType type);

    /**
     * \param rate line rate of the links InstallStar builds (default 1 Mbps, the paper's)
     */
    void SetLineRate(DataRate rate);

    /**
     * \param delay propagation delay of the links InstallStar builds (default 1 ms)
     */
    void SetLinkDelay(Time delay);

    /**
     * Install a switch on \p node over existing port devices of that node, each output with a
     * queue disc from SetOutputQueueDisc.
     * \param node the switch's node
     * \param ports its port devices, in port order
     * \return the switch
     */
    Ptr<CioqSwitchNetDevice> Install(Ptr<Node> node, NetDeviceContainer ports) const;

    /**
     * Install a switch on \p node over existing port devices, with the given output queue discs.
     * \param node the switch's node
     * \param ports its port devices, in port order
     * \param qdiscs one queue disc per port, in port order
     * \return the switch
     */
    Ptr<CioqSwitchNetDevice> Install(Ptr<Node> node,
                                     NetDeviceContainer ports,
                                     QueueDiscContainer qdiscs) const;

    /**
     * Link each host to a new port of a switch installed on \p switchNode. Port devices get
     * 1-packet device queues (the output queue discs hold the backlog); host devices too (the
     * traffic-control layer installed by IP address assignment holds the hosts' backlog).
     * With POINT_TO_POINT ports the switch forwards statically (see AssignIpv4).
     * \param switchNode the switch's node (no devices of its own needed)
     * \param hosts the hosts; host k is attached to port k
     * \return the switch, its ports and the hosts' devices
     */
    Star InstallStar(Ptr<Node> switchNode, NodeContainer hosts) const;

    /**
     * Give the hosts of \p star addresses from \p addresses (one subnet) and, when the switch
     * forwards statically, enter each host's address (and MAC) in its port map.
     * \param star what InstallStar returned
     * \param addresses the address allocator
     * \return the hosts' interfaces, in host order
     */
    Ipv4InterfaceContainer AssignIpv4(const Star& star, Ipv4AddressHelper& addresses) const;

  private:
    ObjectFactory m_switchFactory; //!< the switch
    ObjectFactory m_qdiscFactory;  //!< the output queue discs
    bool m_qdiscSet;               //!< SetOutputQueueDisc was called
    PortType m_portType;           //!< links InstallStar builds
    DataRate m_lineRate;           //!< their rate
    Time m_linkDelay;              //!< their delay
};

template <typename... Args>
void
CioqSwitchHelper::SetOutputQueueDisc(const std::string& type, Args&&... args)
{
    qdisclab::LookupTypeId(type, QueueDisc::GetTypeId(), "CioqSwitchHelper::SetOutputQueueDisc");
    m_qdiscFactory = ObjectFactory(type, std::forward<Args>(args)...);
    m_qdiscSet = true;
}

} // namespace ns3

#endif /* CIOQ_SWITCH_HELPER_H */
