/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dscp-marker-helper.h"

#include "ns3/abort.h"
#include "ns3/dscp-marker-profiles.h"
#include "ns3/dscp-marker-queue-disc.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/string.h"
#include "ns3/traffic-control-layer.h"

#include <sstream>

namespace ns3
{

DscpMarkerHelper::DscpMarkerHelper()
    : m_marker("ns3::DscpMarkerQueueDisc"),
      m_hasChild(false)
{
}

uint32_t
DscpMarkerHelper::Add(const std::string& rule)
{
    const std::string what = "DscpMarkerHelper profile " + std::to_string(m_profiles.size());
    NS_ABORT_MSG_IF(rule.find_first_of(";\n") != std::string::npos,
                    what << ": '" << rule << "' must be one rule, without ';'");
    // Parse it now, so that a malformed profile stops the program at the script's line.
    DscpMarkerProfiles check(rule, what);
    m_profiles.push_back(rule);
    return static_cast<uint32_t>(m_profiles.size() - 1);
}

uint32_t
DscpMarkerHelper::AddProfile(const std::string& match, DataRate rate, uint32_t bucket)
{
    std::ostringstream rule;
    rule << match << (match.empty() ? "" : " ") << "meter=tb cir=" << rate << " cbs=" << bucket;
    return Add(rule.str());
}

uint32_t
DscpMarkerHelper::AddSrTcmProfile(const std::string& match,
                                  DataRate cir,
                                  uint32_t cbs,
                                  uint32_t ebs)
{
    std::ostringstream rule;
    rule << match << (match.empty() ? "" : " ") << "meter=srtcm cir=" << cir << " cbs=" << cbs
         << " ebs=" << ebs;
    return Add(rule.str());
}

uint32_t
DscpMarkerHelper::AddTrTcmProfile(const std::string& match,
                                  DataRate cir,
                                  uint32_t cbs,
                                  DataRate pir,
                                  uint32_t pbs)
{
    std::ostringstream rule;
    rule << match << (match.empty() ? "" : " ") << "meter=trtcm cir=" << cir << " cbs=" << cbs
         << " pir=" << pir << " pbs=" << pbs;
    return Add(rule.str());
}

uint32_t
DscpMarkerHelper::GetNProfiles() const
{
    return static_cast<uint32_t>(m_profiles.size());
}

std::string
DscpMarkerHelper::GetProfiles() const
{
    std::string text;
    for (const std::string& rule : m_profiles)
    {
        text += (text.empty() ? "" : "; ") + rule;
    }
    return text;
}

void
DscpMarkerHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    NS_ABORT_MSG_IF(name == "Profiles",
                    "DscpMarkerHelper: add profiles with AddProfile, AddSrTcmProfile or "
                    "AddTrTcmProfile, not the Profiles attribute");
    m_marker.Set(name, value);
}

QueueDiscContainer
DscpMarkerHelper::Install(Ptr<NetDevice> device) const
{
    Ptr<TrafficControlLayer> tc = device->GetNode()->GetObject<TrafficControlLayer>();
    NS_ABORT_MSG_UNLESS(tc,
                        "DscpMarkerHelper::Install: node " << device->GetNode()->GetId()
                                                           << " has no traffic control layer "
                                                              "(install the Internet stack)");
    if (tc->GetRootQueueDiscOnDevice(device))
    {
        tc->DeleteRootQueueDiscOnDevice(device);
    }
    Ptr<DscpMarkerQueueDisc> marker = m_marker.Create<DscpMarkerQueueDisc>();
    marker->SetAttribute("Profiles", StringValue(GetProfiles()));
    if (m_hasChild)
    {
        Ptr<QueueDiscClass> c = CreateObject<QueueDiscClass>();
        c->SetQueueDisc(m_child.Create<QueueDisc>());
        marker->AddQueueDiscClass(c);
    }
    // As TrafficControlHelper::Install does.
    tc->SetRootQueueDiscOnDevice(device, marker);
    QueueDiscContainer container;
    container.Add(marker);
    return container;
}

QueueDiscContainer
DscpMarkerHelper::Install(const NetDeviceContainer& devices) const
{
    QueueDiscContainer container;
    for (auto it = devices.Begin(); it != devices.End(); ++it)
    {
        container.Add(Install(*it));
    }
    return container;
}

} // namespace ns3
