/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Bad input reaching the module by the paths ns-3's own checks miss: an empty MaxSize through an
// object factory, queue-disc TypeIds that are no queue disc, port numbers past the last port,
// switch attributes out of range, example flags ns-3's CommandLine reads wrongly; and the
// warnings about legal but suspicious values (printed once, on standard error).

#include "ns3/cioq-red-queue-disc.h"
#include "ns3/cioq-switch-helper.h"
#include "ns3/dscp-marker-helper.h"
#include "ns3/example-flags.h"
#include "ns3/object-factory.h"
#include "ns3/qdisc-lab-config.h"
#include "ns3/queue-disc-catalog.h"
#include "ns3/queue-disc.h"
#include "ns3/rio-queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <set>
#include <string>

using namespace ns3;

namespace
{

/**
 * Create a queue disc the way helpers do (an ObjectFactory), with one attribute.
 * \param type its TypeId name
 * \param name the attribute
 * \param value its value, as text
 * \return the queue disc
 */
Ptr<QueueDisc>
FromFactory(const std::string& type, const std::string& name, const std::string& value)
{
    ObjectFactory factory(type);
    factory.Set(name, StringValue(value));
    return factory.Create<QueueDisc>();
}

/**
 * \param hosts number of hosts (ports)
 * \param queueing the switch's InputQueueing
 * \return the switch of a star of \p hosts point-to-point hosts
 */
Ptr<CioqSwitchNetDevice>
StarSwitch(uint32_t hosts, const std::string& queueing = "Voq")
{
    NodeContainer nodes;
    nodes.Create(hosts);
    CioqSwitchHelper helper;
    helper.SetDeviceAttribute("InputQueueing", StringValue(queueing));
    return helper.InstallStar(CreateObject<Node>(), nodes).device;
}

/**
 * Build a star switch with one attribute set (and an InputQueueing) and initialize it.
 * \param hosts number of hosts (ports)
 * \param name a switch attribute
 * \param value its value
 * \param queueing the InputQueueing
 */
void
InitializeSwitch(uint32_t hosts,
                 const std::string& name,
                 const AttributeValue& value,
                 const std::string& queueing = "Voq")
{
    Ptr<CioqSwitchNetDevice> device = StarSwitch(hosts, queueing);
    device->SetAttribute(name, value);
    device->Initialize();
    Simulator::Destroy();
}

/**
 * InitializeSwitch, capturing standard error.
 * \param hosts number of hosts (ports)
 * \param name a switch attribute
 * \param value its value
 * \param queueing the InputQueueing
 * \return what the switch wrote to standard error
 */
std::string
SwitchStderr(uint32_t hosts,
             const std::string& name,
             const AttributeValue& value,
             const std::string& queueing = "Voq")
{
    testing::internal::CaptureStderr();
    InitializeSwitch(hosts, name, value, queueing);
    return testing::internal::GetCapturedStderr();
}

} // namespace

TEST(MaxSizeDeathTest, ZeroThroughAFactoryStopsNamingTheQueueDisc)
{
    // ns-3's factory used to ignore SetMaxSize's refusal: the disc ran with its old size. Every
    // queue disc of the module's catalog (each TypeId once).
    std::set<std::string> types;
    for (const QueueDiscCatalogEntry& entry : QueueDiscCatalog::GetEntries())
    {
        if (entry.origin != "qdisc-lab" || !types.insert(entry.typeId).second)
        {
            continue;
        }
        const std::string& type = entry.typeId;
        for (const char* size : {"0p", "0B"})
        {
            EXPECT_DEATH(
                FromFactory(type, "MaxSize", size),
                type + ": MaxSize = " + size + " is out of range: a queue " +
                    "disc's buffer holds at least 1p \\(in packets\\) or 1B \\(in bytes\\)")
                << type << " " << size;
        }
    }
    EXPECT_GE(types.size(), 8U); // DRR, SRR, Aliquem, VD, RIO, RI+O, CIOQ-RED, the marker
}

TEST(MaxSize, OneUnitThroughAFactoryIsKept)
{
    EXPECT_EQ(FromFactory("ns3::RioQueueDisc", "MaxSize", "1p")->GetMaxSize(), QueueSize("1p"));
    EXPECT_EQ(FromFactory("ns3::CioqRedQueueDisc", "MaxSize", "1B")->GetMaxSize(), QueueSize("1B"));
    StringValue text;
    FromFactory("ns3::DrrQueueDisc", "MaxSize", "7p")->GetAttribute("MaxSize", text);
    EXPECT_EQ(text.Get(), "7p");
}

TEST(LookupTypeIdDeathTest, OnlyConstructibleQueueDiscsPass)
{
    EXPECT_EQ(qdisclab::LookupTypeId("ns3::RioQueueDisc", QueueDisc::GetTypeId(), "--qdisc"),
              RioQueueDisc::GetTypeId());
    EXPECT_DEATH(qdisclab::LookupTypeId("ns3::Bogus", QueueDisc::GetTypeId(), "--qdisc"),
                 "--qdisc = 'ns3::Bogus': no such TypeId \\(expected a ns3::QueueDisc\\)");
    EXPECT_DEATH(qdisclab::LookupTypeId("ns3::Node", QueueDisc::GetTypeId(), "--qdisc"),
                 "--qdisc = 'ns3::Node' is not a ns3::QueueDisc");
    EXPECT_DEATH(qdisclab::LookupTypeId("ns3::PerFlowQueueDisc", QueueDisc::GetTypeId(), "x"),
                 "x = 'ns3::PerFlowQueueDisc' has no constructor");
    EXPECT_DEATH(CioqSwitchHelper().SetOutputQueueDisc("ns3::Node"),
                 "CioqSwitchHelper::SetOutputQueueDisc = 'ns3::Node' is not a ns3::QueueDisc");
    EXPECT_DEATH(DscpMarkerHelper().SetChildQueueDisc("ns3::FifoQueueDisk"),
                 "DscpMarkerHelper::SetChildQueueDisc = 'ns3::FifoQueueDisk': no such TypeId");
}

TEST(CioqSwitchBadInputDeathTest, PortsAndAttributesAreNamed)
{
    EXPECT_DEATH(StarSwitch(3)->GetPortStats(3),
                 "CioqSwitchNetDevice::GetPortStats: port 3 out of range \\[0, 3\\)");
    EXPECT_DEATH(StarSwitch(2)->GetAverageOutputPackets(7),
                 "GetAverageOutputPackets: port 7 out of range \\[0, 2\\)");
    EXPECT_DEATH(StarSwitch(2)->SetOutputQueueDisc(1, nullptr),
                 "SetOutputQueueDisc: port 1: no queue disc \\(a null pointer\\)");
    EXPECT_DEATH(InitializeSwitch(2, "Mtu", UintegerValue(0)),
                 "CioqSwitchNetDevice: Mtu = 0 is out of range \\[68, 65535\\] bytes");
    EXPECT_DEATH(InitializeSwitch(2, "FrameOverhead", UintegerValue(100000)),
                 "FrameOverhead = 100000 is out of range \\[0, Mtu\\] = \\[0, 1500\\] bytes");
}

TEST(CioqSwitchBadInput, VoqLimitWithFifoInputsWarnsOnce)
{
    const std::string warning = "qdisc-lab warning: CioqSwitchNetDevice VoqMaxSize=5p with "
                                "InputQueueing=Fifo: there are no VOQs; it still caps each "
                                "input's packets for one output inside its FIFO\n";
    EXPECT_EQ(SwitchStderr(2, "VoqMaxSize", StringValue("5p"), "Fifo"), warning);
    EXPECT_EQ(SwitchStderr(3, "VoqMaxSize", StringValue("5p"), "Fifo"), "") << "said once";
    EXPECT_EQ(SwitchStderr(2, "VoqMaxSize", StringValue("5p"), "Voq"), "");
    EXPECT_EQ(SwitchStderr(2, "Mtu", UintegerValue(68)), "") << "the edges are legal";
}

TEST(RedThresholdWarning, AboveMaxSizeIsSaidOncePerText)
{
    auto make = [](const std::string& maxSize, const std::string& inMaxTh) {
        auto rio = CreateObject<RioQueueDisc>();
        rio->SetAttribute("MaxSize", StringValue(maxSize));
        rio->SetAttribute("InMaxTh", StringValue(inMaxTh));
        testing::internal::CaptureStderr();
        rio->Initialize();
        std::string err = testing::internal::GetCapturedStderr();
        rio->Dispose();
        return err;
    };
    EXPECT_EQ(make("171p", "172"),
              "qdisc-lab warning: ns3::RioQueueDisc InMaxTh=172 packets exceeds MaxSize=171p: "
              "the buffer overflows before the average reaches it; raise MaxSize or lower the "
              "thresholds\n");
    EXPECT_EQ(make("171p", "172"), "") << "said once";
    EXPECT_EQ(make("172p", "172"), "") << "a threshold at the buffer is fine";
    // Below InMinTh = 60 (RED never drops IN packets early) and TotalMaxTh = 90.
    EXPECT_EQ(make("59p", "172"),
              "qdisc-lab warning: ns3::RioQueueDisc InMinTh=60 packets exceeds MaxSize=59p: "
              "the buffer overflows before the average reaches it, RED never drops early; raise "
              "MaxSize or lower the thresholds\n"
              "qdisc-lab warning: ns3::RioQueueDisc TotalMaxTh=90 packets exceeds MaxSize=59p: "
              "the buffer overflows before the average reaches it; raise MaxSize or lower the "
              "thresholds\n");
}

TEST(ExampleFlags, UnsignedFlagsAreReadSignedAndRangeChecked)
{
    EXPECT_EQ(ExampleFlags::ParseUnsigned("quantum", "1", 1, 4294967295U), 1u);
    EXPECT_EQ(ExampleFlags::ParseUnsigned("quantum", "4294967295", 1, 4294967295U), 4294967295U);
    EXPECT_EQ(ExampleFlags::ParseUnsigned("ports", "+7", 2, 8), 7u);
    EXPECT_EQ(ExampleFlags::ParseRate("lineRate", "1.5Mbps"), 1500000u);
    EXPECT_EQ(ExampleFlags::ParseRate("lineRate", "1bps"), 1u);
}

TEST(ExampleFlagsDeathTest, BadValuesNameTheFlag)
{
    EXPECT_DEATH(ExampleFlags::ParseUnsigned("quantum", "-1", 1, 4294967295U),
                 "--quantum=-1 is out of range \\[1, 4294967295\\]");
    EXPECT_DEATH(ExampleFlags::ParseUnsigned("quantum", "4294967296", 1, 4294967295U),
                 "--quantum=4294967296 is out of range");
    EXPECT_DEATH(ExampleFlags::ParseUnsigned("ports", "1", 2, 8),
                 "--ports=1 is out of range \\[2, 8\\]");
    EXPECT_DEATH(ExampleFlags::ParseUnsigned("ports", "3x", 2, 8),
                 "--ports=3x is not an integer \\(range \\[2, 8\\]\\)");
    EXPECT_DEATH(ExampleFlags::ParseUnsigned("ports", "", 2, 8), "--ports= is not an integer");
    EXPECT_DEATH(ExampleFlags::ParseUnsigned("ports", "99999999999999999999", 2, 8),
                 "is not an integer");
    EXPECT_DEATH(ExampleFlags::ParseRate("lineRate", "0bps"), "--lineRate=0bps must be > 0 bit/s");
    EXPECT_DEATH(ExampleFlags::ParseRate("lineRate", "fast"),
                 "--lineRate=fast is not a rate \\(e.g. 10Mbps, 125kbps\\)");
}
