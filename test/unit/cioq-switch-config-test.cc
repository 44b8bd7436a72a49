/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Bad CIOQ switch configurations stop the program with a message naming what is wrong.

#include "ns3/cioq-red-queue-disc.h"
#include "ns3/cioq-switch-helper.h"
#include "ns3/double.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <gtest/gtest.h>

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
