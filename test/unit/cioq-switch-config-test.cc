/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Bad CIOQ switch configurations stop the program with a message naming what is wrong.

#include "ns3/cioq-red-queue-disc.h"
#include "ns3/cioq-switch-helper.h"
#include "ns3/cioq-switch-net-device.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/**
 * Build a star of \p hosts hosts with one switch attribute set, and initialize the switch.
 * \param hosts number of hosts (ports)
 * \param name attribute name ("" for none)
 * \param value its value
 * \param csma CSMA ports
 */
void
InitializeWith(uint32_t hosts,
               const std::string& name,
               const AttributeValue& value,
               bool csma = false)
{
    NodeContainer nodes;
    nodes.Create(hosts);
    CioqSwitchHelper helper;
    helper.SetPortType(csma ? CioqSwitchHelper::CSMA : CioqSwitchHelper::POINT_TO_POINT);
    CioqSwitchHelper::Star star = helper.InstallStar(CreateObject<Node>(), nodes);
    if (!name.empty())
    {
        star.device->SetAttribute(name, value);
    }
    star.device->Initialize();
}

} // namespace

TEST(CioqSwitchConfigDeathTest, BadAttributesAreNamed)
{
    EXPECT_DEATH(InitializeWith(4, "Speedup", DoubleValue(0.5)),
                 "Speedup = 0.5 is out of range \\[1, N\\] = \\[1, 4\\]");
    EXPECT_DEATH(InitializeWith(4, "Speedup", DoubleValue(4.5)), "Speedup = 4.5 is out of range");
    EXPECT_DEATH(InitializeWith(4, "InputBufferSize", StringValue("0p")),
                 "InputBufferSize = 0p: the input buffer must hold at least 1 packet");
    EXPECT_DEATH(InitializeWith(1, "", StringValue("")),
                 "CioqSwitchNetDevice needs at least 2 ports, has 1");
    // Point-to-point frames carry no MAC addresses: MAC learning cannot work on them.
    EXPECT_DEATH(InitializeWith(3, "Forwarding", StringValue("Learning")),
                 "Forwarding = Learning needs ports whose frames carry MAC addresses");
}

TEST(CioqSwitchConfigDeathTest, PortCountMismatches)
{
    EXPECT_DEATH(
        {
            NodeContainer nodes;
            nodes.Create(3);
            CioqSwitchHelper helper;
            CioqSwitchHelper::Star star = helper.InstallStar(CreateObject<Node>(), nodes);
            QueueDiscContainer two;
            two.Add(CreateObject<CioqRedQueueDisc>());
            two.Add(CreateObject<CioqRedQueueDisc>());
            helper.Install(star.switchNode, star.ports, two);
        },
        "CioqSwitchHelper::Install: 2 output queue discs for 3 ports: give one per port");
    EXPECT_DEATH(
        {
            NodeContainer nodes;
            nodes.Create(3);
            CioqSwitchHelper::Star star =
                CioqSwitchHelper().InstallStar(CreateObject<Node>(), nodes);
            star.device->AddStaticRoute(Ipv4Address("10.0.0.9"), 3);
            star.device->Initialize();
        },
        "static route to 10.0.0.9 names port 3, out of range \\[0, N\\) = \\[0, 3\\)");
    EXPECT_DEATH(
        {
            NodeContainer nodes;
            nodes.Create(2);
            CioqSwitchHelper::Star star =
                CioqSwitchHelper().InstallStar(CreateObject<Node>(), nodes);
            star.device->SetOutputQueueDisc(2, CreateObject<CioqRedQueueDisc>());
        },
        "SetOutputQueueDisc: port 2 out of range \\[0, 2\\)");
}

TEST(CioqSwitchConfigDeathTest, ZeroOutputBufferAndBadInputWeight)
{
    EXPECT_DEATH(
        {
            auto qd = CreateObject<CioqRedQueueDisc>();
            qd->SetAttribute("InputWeight", DoubleValue(-0.5));
            qd->Initialize();
        },
        "InputWeight = -0.5 is out of range \\[0, inf\\)");
    EXPECT_DEATH(
        {
            auto qd = CreateObject<CioqRedQueueDisc>();
            qd->SetAttribute("MaxSize", StringValue("0p"));
        },
        "ns3::CioqRedQueueDisc: MaxSize = 0p is out of range");
}

TEST(CioqSwitchConfig, ValidEdgesInitialize)
{
    NodeContainer nodes;
    nodes.Create(4);
    CioqSwitchHelper helper;
    helper.SetDeviceAttribute("Speedup", DoubleValue(4));
    helper.SetDeviceAttribute("InputBufferSize", StringValue("1p"));
    helper.SetDeviceAttribute("FabricModel", StringValue("Islip"));
    CioqSwitchHelper::Star star = helper.InstallStar(CreateObject<Node>(), nodes);
    star.device->Initialize();
    EXPECT_EQ(star.device->GetNPorts(), 4u);
    EXPECT_EQ(star.device->GetLineRate(), DataRate("1Mbps"));
    EXPECT_EQ(star.device->GetInputBacklog(3)->GetPackets(), 0u);
    Simulator::Destroy();
}

// The switch's TypeId: its attributes with their initial values and its trace sources, in the
// order the documentation lists them (the model page's Attributes and Traces).
TEST(CioqSwitchConfig, TypeIdDeclaresItsAttributesAndTraces)
{
    const TypeId tid = CioqSwitchNetDevice::GetTypeId();
    EXPECT_EQ(tid.GetParent(), NetDevice::GetTypeId());
    std::vector<std::string> attributes;
    for (uint32_t i = 0; i < tid.GetAttributeN(); ++i)
    {
        const TypeId::AttributeInformation info = tid.GetAttribute(i);
        EXPECT_FALSE(info.help.empty()) << info.name;
        std::ostringstream value; // a Time in seconds: its text differs between ns-3 releases
        if (const auto time = DynamicCast<const TimeValue>(info.initialValue))
        {
            value << time->Get().GetSeconds() << "s";
        }
        else
        {
            value << info.initialValue->SerializeToString(info.checker);
        }
        attributes.push_back(info.name + "=" + value.str());
    }
    EXPECT_EQ(attributes,
              (std::vector<std::string>{"Speedup=1",
                                        "FabricModel=Paper",
                                        "InputQueueing=Voq",
                                        "OutputFull=Drop",
                                        "Forwarding=Learning",
                                        "InputBufferSize=20p",
                                        "VoqMaxSize=0p",
                                        "IslipIterations=4",
                                        "LineRate=0bps",
                                        "FrameOverhead=2",
                                        "ExpirationTime=300s",
                                        "Mtu=1500"}));
    std::vector<std::string> traces;
    for (uint32_t i = 0; i < tid.GetTraceSourceN(); ++i)
    {
        const TypeId::TraceSourceInformation info = tid.GetTraceSource(i);
        EXPECT_FALSE(info.help.empty()) << info.name;
        traces.push_back(info.name + " " + info.callback);
    }
    EXPECT_EQ(traces,
              (std::vector<std::string>{
                  "InputOccupancy ns3::CioqSwitchNetDevice::InputOccupancyTracedCallback",
                  "VoqOccupancy ns3::CioqSwitchNetDevice::VoqOccupancyTracedCallback",
                  "OutputQueueLength ns3::CioqSwitchNetDevice::OutputQueueTracedCallback",
                  "InputDrop ns3::CioqSwitchNetDevice::InputDropTracedCallback",
                  "FabricDrop ns3::CioqSwitchNetDevice::DropTracedCallback",
                  "OutputDrop ns3::CioqSwitchNetDevice::OutputDropTracedCallback",
                  "Transfer ns3::CioqSwitchNetDevice::TransferTracedCallback",
                  "Switched ns3::CioqSwitchNetDevice::SwitchedTracedCallback"}));
}
