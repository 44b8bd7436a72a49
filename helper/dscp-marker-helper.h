/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DSCP_MARKER_HELPER_H
#define DSCP_MARKER_HELPER_H

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/net-device-container.h"
#include "ns3/object-factory.h"
#include "ns3/qdisc-lab-config.h"
#include "ns3/queue-disc-container.h"
#include "ns3/queue-disc.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief Installs a DscpMarkerQueueDisc (a DiffServ edge marker) on devices' egress, with its
 * flows' profiles written in a script.
 *
 * \code
 *   DscpMarkerHelper marker;
 *   marker.SetAttribute("AfClass", UintegerValue(1));
 *   // the paper's marker: a token bucket per flow, IN -> AF11, OUT -> AF12
 *   marker.AddProfile("src=10.1.1.1 dport=5000 proto=tcp", DataRate("2Mbps"), 40000);
 *   // RFC 2697 and 2698: green/yellow/red -> AF11/AF12/AF13
 *   marker.AddSrTcmProfile("dst=10.2.0.0/16", DataRate("1Mbps"), 3000, 6000);
 *   marker.AddTrTcmProfile("dscp=AF21 af=2", DataRate("1Mbps"), 3000, DataRate("2Mbps"), 6000);
 *   marker.SetChildQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue("100p"));
 *   QueueDiscContainer markers = marker.Install(edgeDevice);
 * \endcode
 *
 * A flow takes the first profile whose match it satisfies. A match is a list of fields
 * (see FlowMatch): src=, dst= (address or prefix), sport=, dport= (port or LO-HI), proto=
 * (tcp, udp, icmp, icmpv6, or a number), dscp= (name or number); an empty match takes every
 * IP packet. It may also give af=1..4, the AF class of that profile's marks (default: the
 * marker's AfClass attribute).
 *
 * Install() puts the marker at the root of each device's traffic control, as
 * TrafficControlHelper::Install does, replacing any root queue disc already there, with one
 * child queue disc (a FifoQueueDisc unless SetChildQueueDisc says otherwise). A marker with a
 * more elaborate child (with classes of its own) can be built with TrafficControlHelper:
 * set "Profiles" to GetProfiles() on a root "ns3::DscpMarkerQueueDisc".
 *
 * Add every profile before Install; installing again after adding profiles installs markers
 * with all profiles so far.
 */
class DscpMarkerHelper
{
  public:
    DscpMarkerHelper();

    /**
     * Add a two-colour token bucket profile (the Assured Service marker): packets that find
     * enough tokens are IN (green, AFx1), the others OUT (yellow, AFx2).
     * \param match the flows it applies to (FlowMatch fields, optionally af=N)
     * \param rate the profile rate (token rate, of IP bytes: RFC 2697's CIR), > 0
     * \param bucket the token bucket size in bytes, 1 .. 2^30
     * \return the profile's index, as DscpMarkerQueueDisc::GetProfileStats takes it
     */
    uint32_t AddProfile(const std::string& match, DataRate rate, uint32_t bucket);

    /**
     * Add a single rate three colour profile (srTCM, RFC 2697): green AFx1, yellow AFx2,
     * red AFx3.
     * \param match the flows it applies to (FlowMatch fields, optionally af=N)
     * \param cir committed information rate, > 0
     * \param cbs committed burst size in bytes, 0 .. 2^30
     * \param ebs excess burst size in bytes, 0 .. 2^30; cbs + ebs > 0
     * \return the profile's index
     */
    uint32_t AddSrTcmProfile(const std::string& match, DataRate cir, uint32_t cbs, uint32_t ebs);

    /**
     * Add a two rate three colour profile (trTCM, RFC 2698): green AFx1, yellow AFx2, red AFx3.
     * \param match the flows it applies to (FlowMatch fields, optionally af=N)
     * \param cir committed information rate, > 0
     * \param cbs committed burst size in bytes, 1 .. 2^30
     * \param pir peak information rate, >= cir
     * \param pbs peak burst size in bytes, 1 .. 2^30
     * \return the profile's index
     */
    uint32_t AddTrTcmProfile(const std::string& match,
                             DataRate cir,
                             uint32_t cbs,
                             DataRate pir,
                             uint32_t pbs);

    /// \return the number of profiles added
    uint32_t GetNProfiles() const;

    /**
     * \return the profiles as the value of DscpMarkerQueueDisc's "Profiles" attribute, one
     *         rule per profile, separated by "; "
     */
    std::string GetProfiles() const;

    /**
     * Set an attribute of the markers Install creates (AfClass, ColorAware, MeterScope,
     * Unmatched, MaxSize; "Profiles" comes from the Add*Profile methods).
     * \param name the attribute's name
     * \param value its value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Set the type and attributes of the child queue disc under each marker (default:
     * ns3::FifoQueueDisc with the marker's MaxSize).
     * \tparam Args name/value pairs: std::string, AttributeValue
     * \param type the child's TypeId name, e.g. "ns3::RedQueueDisc"; a name that is not a
     *        constructible queue disc stops the program, naming it (qdisclab::LookupTypeId)
     * \param args its attributes
     */
    template <typename... Args>
    void SetChildQueueDisc(const std::string& type, Args&&... args);

    /**
     * Install a marker on a device's egress (replacing its root queue disc, if any).
     * \param device a device of a node with an Internet stack
     * \return the marker
     */
    QueueDiscContainer Install(Ptr<NetDevice> device) const;

    /**
     * Install a marker on each device's egress.
     * \param devices the devices
     * \return the markers, in the devices' order
     */
    QueueDiscContainer Install(const NetDeviceContainer& devices) const;

  private:
    /**
     * Check a profile rule (stops the program, naming it, if it is malformed) and add it.
     * \param rule the rule, in the "Profiles" syntax
     * \return its index
     */
    uint32_t Add(const std::string& rule);

    ObjectFactory m_marker;              //!< the markers' type and attributes
    ObjectFactory m_child;               //!< the child queue disc's type and attributes
    bool m_hasChild;                     //!< whether SetChildQueueDisc was called
    std::vector<std::string> m_profiles; //!< the profile rules, in order
};

template <typename... Args>
void
DscpMarkerHelper::SetChildQueueDisc(const std::string& type, Args&&... args)
{
    qdisclab::LookupTypeId(type, QueueDisc::GetTypeId(), "DscpMarkerHelper::SetChildQueueDisc");
    m_child = ObjectFactory(type, std::forward<Args>(args)...);
    m_hasChild = true;
}

} // namespace ns3

#endif /* DSCP_MARKER_HELPER_H */
