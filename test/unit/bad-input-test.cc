/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Bad input reaching the module by the paths ns-3's own checks miss: an empty MaxSize through an
// object factory, queue-disc TypeIds that are no queue disc, port numbers past the last port,
// switch attributes out of range, example flags ns-3's CommandLine reads wrongly, value texts
// ns-3's parsers read in part (value-text.h), weights whose quantum does not fit 32 bits, a
// report that cannot be written; and the warnings about legal but suspicious values (printed
// once, on standard error).

#include "../qdisc-lab-test-packets.h"

#include "ns3/aliquem-queue-disc.h"
#include "ns3/cioq-red-queue-disc.h"
#include "ns3/cioq-switch-helper.h"
#include "ns3/drr-queue-disc.h"
#include "ns3/dscp-marker-helper.h"
#include "ns3/dscp-marker-profiles.h"
#include "ns3/example-flags.h"
#include "ns3/experiment-params.h"
#include "ns3/metrics-report.h"
#include "ns3/object-factory.h"
#include "ns3/qdisc-lab-config.h"
#include "ns3/queue-disc-catalog.h"
#include "ns3/queue-disc.h"
#include "ns3/rio-queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/uinteger.h"
#include "ns3/value-text.h"
#include "ns3/vertical-dimensioning-queue-disc.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <set>
#include <string>
#include <vector>

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

TEST(CheckAttribute, ReturnsWhatSettingTheAttributeWouldStopTheProgramFor)
{
    using qdisclab::CheckAttribute;
    EXPECT_EQ(CheckAttribute("ns3::DrrQueueDisc", "Quantum", UintegerValue(1500)), "");
    EXPECT_EQ(CheckAttribute("ns3::DrrQueueDisc", "Quantum", StringValue("1500")), "");
    EXPECT_EQ(CheckAttribute("ns3::DrrQueueDisk", "Quantum", UintegerValue(1500)),
              "'ns3::DrrQueueDisk': no such TypeId");
    EXPECT_EQ(
        CheckAttribute("ns3::DrrQueueDisc", "Quantm", UintegerValue(1500))
            .rfind("ns3::DrrQueueDisc has no attribute 'Quantm' (its attributes: MaxSize, ", 0),
        0U);
    EXPECT_EQ(CheckAttribute("ns3::DrrQueueDisc", "Quantum", StringValue("4ms")),
              "ns3::DrrQueueDisc Quantum = '4ms' is not an integer in [0, 9223372036854775807]");
    EXPECT_EQ(CheckAttribute("ns3::DrrQueueDisc", "Quantum", StringValue("99999999999")),
              "ns3::DrrQueueDisc Quantum = '99999999999': not a valid value (expected uint32_t "
              "0:4294967295)");
    EXPECT_EQ(CheckAttribute("ns3::DrrQueueDisc", "DropFrom", StringValue("Middle")),
              "ns3::DrrQueueDisc DropFrom = 'Middle' is not one of Head|Tail|Last");
    EXPECT_EQ(CheckAttribute("ns3::DrrQueueDisc", "DropFrom", StringValue("Tail")), "");
    EXPECT_EQ(CheckAttribute("ns3::DrrQueueDisc", "MaxSize", StringValue("0p")),
              "ns3::DrrQueueDisc: MaxSize = 0p is out of range: a queue disc's buffer holds at "
              "least 1p (in packets) or 1B (in bytes)");
    EXPECT_EQ(CheckAttribute("ns3::SrrQueueDisc", "WeightRules", StringValue("weight=0")),
              "SrrQueueDisc WeightRules: rule 1 ('weight=0'), field 'weight=0': expected a finite "
              "weight > 0");
    EXPECT_EQ(CheckAttribute("ns3::DscpMarkerQueueDisc", "Profiles", StringValue("cir=1Mbps"))
                  .rfind("DscpMarkerQueueDisc Profiles: rule 1 ('cir=1Mbps'), field 'cbs'", 0),
              0U);
    // A string attribute of ns-3's own is any text.
    EXPECT_EQ(CheckAttribute("ns3::FqCoDelQueueDisc", "Interval", StringValue("x")), "");
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
    EXPECT_DEATH(ExampleFlags::ParseUnsigned("ports", " 3", 2, 8), "--ports= 3 is not an integer");
    EXPECT_DEATH(ExampleFlags::ParseUnsigned("ports", "0x3", 2, 8),
                 "--ports=0x3 is not an integer");
}

TEST(ValueText, WholeValuesAreReadWithTheirUnit)
{
    double d = 0;
    EXPECT_EQ(qdisclab::ParseDecimal("1e-3", d), "");
    EXPECT_EQ(d, 0.001);
    EXPECT_EQ(qdisclab::ParseDecimal("-.5", d), "");
    EXPECT_EQ(d, -0.5);
    EXPECT_EQ(qdisclab::ParseDecimal("+7.", d), "");
    EXPECT_EQ(d, 7);
    EXPECT_EQ(qdisclab::ParseDecimal("1e-300", d), "");
    EXPECT_EQ(d, 1e-300);
    int64_t i = 0;
    EXPECT_EQ(qdisclab::ParseInteger("+7", 0, 10, i), "");
    EXPECT_EQ(i, 7);
    EXPECT_EQ(qdisclab::ParseInteger("-9223372036854775808", INT64_MIN, 0, i), "");
    EXPECT_EQ(i, INT64_MIN);
    bool b = false;
    EXPECT_EQ(qdisclab::ParseBoolean("T", b), "");
    EXPECT_TRUE(b);
    EXPECT_EQ(qdisclab::ParseBoolean("0", b), "");
    EXPECT_FALSE(b);
    EXPECT_EQ(qdisclab::ParseBoolean("", b), "") << "a bare --flag";
    EXPECT_TRUE(b);
    DataRate rate;
    EXPECT_EQ(qdisclab::ParseRateText("1.5Mbps", rate), "");
    EXPECT_EQ(rate.GetBitRate(), 1500000u);
    EXPECT_EQ(qdisclab::ParseRateText("125000B/s", rate), "");
    EXPECT_EQ(rate.GetBitRate(), 1000000u);
    EXPECT_EQ(qdisclab::ParseRateText("2000", rate), "") << "digits alone: bit/s, as ns-3";
    EXPECT_EQ(rate.GetBitRate(), 2000u);
    EXPECT_EQ(qdisclab::ParseRateText("18446744073709549568bps", rate), "");
    EXPECT_EQ(qdisclab::ParseRateText("0bps", rate, 0), "");
    EXPECT_EQ(rate.GetBitRate(), 0u);
    Time t;
    EXPECT_EQ(qdisclab::ParseTimeText("4ms", t), "");
    EXPECT_EQ(t, MilliSeconds(4));
    EXPECT_EQ(qdisclab::ParseTimeText("1e3", t), "") << "no unit: seconds";
    EXPECT_EQ(t, Seconds(1000));
    EXPECT_EQ(qdisclab::ParseTimeText("2min", t), "");
    EXPECT_EQ(t, Seconds(120));
    EXPECT_EQ(qdisclab::ParseTimeText("-1.5us", t), "");
    EXPECT_EQ(t, NanoSeconds(-1500));
    QueueSize size;
    EXPECT_EQ(qdisclab::ParseQueueSizeText("64KiB", size), "");
    EXPECT_EQ(size, QueueSize("65536B"));
    EXPECT_EQ(qdisclab::ParseQueueSizeText("4294967295B", size), "");
    EXPECT_EQ(size.GetValue(), 4294967295u);
    EXPECT_EQ(qdisclab::ParseQueueSizeText("0p", size), "");
    EXPECT_EQ(size, QueueSize("0p"));
}

/// A value text that must be refused: its kind and the text.
struct RefusedText
{
    const char* kind; //!< decimal, integer, boolean, rate, time or size
    const char* text; //!< the text
};

TEST(ValueText, PartialWrappedAndOverflowingTextsAreRefused)
{
    const std::vector<RefusedText> rows = {
        // Numbers: the whole text, decimal, finite.
        {"decimal", "4ms"},
        {"decimal", "3abc"},
        {"decimal", "0x10"},
        {"decimal", "5e"},
        {"decimal", "1e"},
        {"decimal", "nan"},
        {"decimal", "inf"},
        {"decimal", "-inf"},
        {"decimal", "1e309"},
        {"decimal", " 1"},
        {"decimal", "1 "},
        {"decimal", ""},
        {"decimal", "1,5"},
        {"decimal", "1.2.3"},
        {"decimal", "."},
        {"decimal", "--1"},
        // Integers: digits only, in range.
        {"integer", "1.9"},
        {"integer", "-1"},
        {"integer", "9223372036854775808"},
        {"integer", "0x10"},
        {"integer", "1e3"},
        {"integer", " 3"},
        {"integer", "3 "},
        {"integer", ""},
        {"integer", "+"},
        // Booleans.
        {"boolean", "3abc"},
        {"boolean", "yes"},
        {"boolean", "2"},
        {"boolean", "truex"},
        // Rates: a number and one of DataRate's units, in [1 bit/s, 2^64 - 1 bit/s].
        {"rate", "1.2.3Mbps"},
        {"rate", "1..5Mbps"},
        {"rate", "-1Mbps"},
        {"rate", "1e3Mbps"},
        {"rate", "18446744073709551616bps"},
        {"rate", "100000000000Gbps"},
        {"rate", "0bps"},
        {"rate", "0.5bps"},
        {"rate", "Mbps"},
        {"rate", "10 Mbps"},
        {"rate", "10Mbpss"},
        {"rate", "10mbps"},
        {"rate", "1.5"},
        {"rate", ""},
        // Times: a number and one of Time's units, within what a Time holds.
        {"time", "1-2ms"},
        {"time", "5e"},
        {"time", "1e300"},
        {"time", "1e10s"},
        {"time", "400y"},
        {"time", "4 ms"},
        {"time", "ms"},
        {"time", "1.2.3s"},
        {"time", "10mss"},
        {"time", "0x10"},
        {"time", ""},
        // Queue sizes: a whole number of p or B, within 32 bits.
        {"size", "5000000000B"},
        {"size", "4294967296p"},
        {"size", "5000MB"},
        {"size", "5GB"},
        {"size", "1.5p"},
        {"size", "100"},
        {"size", "p"},
        {"size", "-1p"},
        {"size", "100 p"},
        {"size", "0x10p"},
        {"size", "1e3B"},
        {"size", "100b"},
    };
    for (const RefusedText& row : rows)
    {
        const std::string kind = row.kind;
        const std::string text = row.text;
        std::string expected;
        double d = 0;
        int64_t i = 0;
        bool b = false;
        DataRate rate;
        Time t;
        QueueSize size;
        if (kind == "decimal")
        {
            expected = qdisclab::ParseDecimal(text, d);
        }
        else if (kind == "integer")
        {
            expected = qdisclab::ParseInteger(text, 0, INT64_MAX, i);
        }
        else if (kind == "boolean")
        {
            expected = qdisclab::ParseBoolean(text, b);
        }
        else if (kind == "rate")
        {
            expected = qdisclab::ParseRateText(text, rate);
        }
        else if (kind == "time")
        {
            expected = qdisclab::ParseTimeText(text, t);
        }
        else
        {
            expected = qdisclab::ParseQueueSizeText(text, size);
        }
        EXPECT_NE(expected, "") << kind << " '" << text << "' was taken";
    }
    EXPECT_EQ(rows.size(), 66u);
}

/// A flag value the examples must refuse: the parser, the flag, the text, the message.
struct RefusedFlag
{
    const char* kind;    //!< decimal, integer, boolean, rate, time or size
    const char* name;    //!< the flag
    const char* text;    //!< its value
    const char* message; //!< a regular expression of the message
};

TEST(ExampleFlagsDeathTest, ValuesAreReadWholeAndNameTheFlag)
{
    const std::vector<RefusedFlag> rows = {
        {"decimal", "simTime", "4ms", "--simTime=4ms is not a number \\(e.g. 2, -0.5, 1e-3;"},
        {"decimal", "udpOn", "3abc", "--udpOn=3abc is not a number"},
        {"decimal", "simTime", "0x10", "--simTime=0x10 is not a number"},
        {"decimal", "load", "nan", "--load=nan is not a number"},
        {"decimal", "load", "1e999", "--load=1e999 is not a finite number"},
        {"decimal", "speedup", "1.4 ", "--speedup=1.4  is not a number"},
        {"integer",
         "traceFlow",
         "1.9",
         "--traceFlow=1.9 is not an integer in \\[-2147483648, "
         "2147483647\\]"},
        {"integer", "traceFlow", "3000000000", "--traceFlow=3000000000 is not an integer in"},
        {"integer",
         "RngRun",
         "-1",
         "--RngRun=-1 is not an integer in \\[0, "
         "9223372036854775807\\]"},
        {"boolean", "quick", "3abc", "--quick=3abc is not a boolean \\(true, false, 1 or 0\\)"},
        {"boolean", "sack", "yes", "--sack=yes is not a boolean"},
        {"rate",
         "bottleneckRate",
         "1.2.3Mbps",
         "--bottleneckRate=1.2.3Mbps is not a rate \\(e.g. "
         "10Mbps, 125kbps\\)"},
        {"rate",
         "lineRate",
         "18446744073709551616bps",
         "--lineRate=18446744073709551616bps is "
         "not a rate.*18446744073709551615 bit/s"},
        {"rate", "lineRate", "0.5bps", "--lineRate=0.5bps must be > 0 bit/s"},
        {"time",
         "bottleneckDelay",
         "1-2ms",
         "--bottleneckDelay=1-2ms is not a time \\(e.g. "
         "200ms, 1s\\)"},
        {"time", "bottleneckDelay", "5e", "--bottleneckDelay=5e is not a time"},
        {"time",
         "minRto",
         "1e300",
         "--minRto=1e300 is not a time.*in \\[-9.22337e\\+09s, "
         "\\+9.22337e\\+09s\\]"},
        {"time", "linkDelay", "-1ms", "--linkDelay=-1ms must be >= \\+0s"},
        {"size",
         "maxSize",
         "5000000000B",
         "--maxSize=5000000000B is not a queue size.*\\[0, "
         "4294967295\\]"},
        {"size", "maxSize", "4294967296p", "--maxSize=4294967296p is not a queue size"},
        {"size", "inputBuffer", "10", "--inputBuffer=10 is not a queue size"},
    };
    for (const RefusedFlag& row : rows)
    {
        const std::string kind = row.kind;
        if (kind == "decimal")
        {
            EXPECT_DEATH(ExampleFlags::ParseDecimal(row.name, row.text), row.message);
        }
        else if (kind == "integer")
        {
            const bool run = std::string(row.name) == "RngRun";
            EXPECT_DEATH(ExampleFlags::ParseInteger(row.name,
                                                    row.text,
                                                    run ? 0 : INT32_MIN,
                                                    run ? INT64_MAX : INT32_MAX),
                         row.message);
        }
        else if (kind == "boolean")
        {
            EXPECT_DEATH(ExampleFlags::ParseBoolean(row.name, row.text), row.message);
        }
        else if (kind == "rate")
        {
            EXPECT_DEATH(ExampleFlags::ParseRate(row.name, row.text), row.message);
        }
        else if (kind == "time")
        {
            EXPECT_DEATH(ExampleFlags::ParseTime(row.name, row.text, Seconds(0)), row.message);
        }
        else
        {
            EXPECT_DEATH(ExampleFlags::ParseSize(row.name, row.text), row.message);
        }
    }
    EXPECT_EQ(ExampleFlags::ParseDecimal("simTime", "4"), 4);
    EXPECT_EQ(ExampleFlags::ParseTime("simTime", "4ms", Seconds(0)), MilliSeconds(4));
    EXPECT_EQ(ExampleFlags::ParseSize("maxSize", "4294967295B").GetValue(), 4294967295u);
}

TEST(WeightsDeathTest, QuantumTimesWeightMustFit32Bits)
{
    using qdisclab::test::MakeQueueDisc;
    // DRR: Quantum x weight is each flow's quantum, in 32 bits.
    EXPECT_DEATH(MakeQueueDisc<DrrQueueDisc>({{"DefaultWeight", "1e308"}}),
                 "DrrQueueDisc: Quantum x weight = 250 B x 1e\\+308 = inf B is out of range "
                 "\\[1, 4294967295\\] B");
    EXPECT_DEATH(MakeQueueDisc<DrrQueueDisc>({{"Quantum", "1"}, {"DefaultWeight", "4294967296"}}),
                 "Quantum x weight = 1 B x 4.29497e\\+09 = 4.29497e\\+09 B is out of range");
    EXPECT_DEATH(MakeQueueDisc<DrrQueueDisc>({{"WeightRules", "dport=80 weight=1e10"}}),
                 "DrrQueueDisc: Quantum x weight = 250 B x 1e\\+10");
    EXPECT_EQ(MakeQueueDisc<DrrQueueDisc>({{"Quantum", "1"}, {"DefaultWeight", "4294967295"}})
                  ->GetNPackets(),
              0u)
        << "the largest quantum fits";
    // Aliquem: phi = Quantum x weight / ScalingFactor.
    EXPECT_DEATH(MakeQueueDisc<AliquemQueueDisc>({{"DefaultWeight", "1e308"}}),
                 "AliquemQueueDisc: Quantum x weight / ScalingFactor = 1000 B x 1e\\+308");
    EXPECT_DEATH(MakeQueueDisc<AliquemQueueDisc>(
                     {{"Quantum", "1"}, {"ScalingFactor", "1"}, {"DefaultWeight", "4294967296"}}),
                 "is out of range \\[1, 4294967295\\] B");
    // Weights are read whole: no hexadecimal, no NaN.
    EXPECT_DEATH(MakeQueueDisc<DrrQueueDisc>({{"WeightRules", "dport=80 weight=0x10"}}),
                 "'weight=0x10'.*a finite weight > 0");
    EXPECT_DEATH(MakeQueueDisc<DrrQueueDisc>({{"WeightRules", "dport=80 weight=2x"}}),
                 "'weight=2x'.*a finite weight > 0");
    // VD: a weight so small that its packets go beyond the last round drops every one of them.
    EXPECT_DEATH(
        MakeQueueDisc<VerticalDimensioningQueueDisc>({{"WeightRules", "dport=80 weight=1e-300"}}),
        "VerticalDimensioningQueueDisc: weight 1e-300 x MaxPacketSize 1500 B = 1.5e-297 "
        "B rounds to a quantum of 0 B");
    EXPECT_DEATH(MakeQueueDisc<VerticalDimensioningQueueDisc>({{"DefaultWeight", "1e-4"}}),
                 "weight 0.0001 x MaxPacketSize 1500 B = 0.15 B rounds to a quantum of 0 B");
    EXPECT_EQ(
        MakeQueueDisc<VerticalDimensioningQueueDisc>({{"WeightRules", "dport=80 weight=0.00034"}})
            ->GetNPackets(),
        0u)
        << "0.51 B rounds to 1 B";
}

TEST(MaxSize, VerticalDimensioningFollowsSetMaxSizeAfterInitialize)
{
    using qdisclab::test::FromHost;
    for (const char* type : {"ns3::VerticalDimensioningQueueDisc", "ns3::DrrQueueDisc"})
    {
        ObjectFactory factory(type);
        Ptr<QueueDisc> qd = factory.Create<QueueDisc>();
        qd->Initialize();
        ASSERT_TRUE(qd->SetMaxSize(QueueSize("1p")));
        for (uint32_t k = 0; k < 5; ++k)
        {
            qd->Enqueue(FromHost(k, 1000));
        }
        EXPECT_EQ(qd->GetNPackets(), 1u) << type;
        EXPECT_EQ(qd->GetStats().nTotalDroppedPackets, 4u) << type;
        ASSERT_TRUE(qd->SetMaxSize(QueueSize("3000B")));
        for (uint32_t k = 0; k < 5; ++k)
        {
            qd->Enqueue(FromHost(k, 1000));
        }
        EXPECT_EQ(qd->GetNBytes(), 3000u) << type;
        qd->Dispose();
    }
}

TEST(DscpMarkerProfilesDeathTest, RatesAreReadWhole)
{
    EXPECT_DEATH(DscpMarkerProfiles("cir=1..5Mbps cbs=1500", "P"),
                 "'cir=1..5Mbps'.*a rate > 0 such as 2Mbps");
    EXPECT_DEATH(DscpMarkerProfiles("cir=1e308Mbps cbs=1500", "P"), "'cir=1e308Mbps'");
    EXPECT_DEATH(DscpMarkerProfiles("cir=99999999999999999999bps cbs=1500", "P"),
                 "'cir=99999999999999999999bps'.*at most 18446744073709551615 bit/s");
    EXPECT_DEATH(DscpMarkerProfiles("cir=1.5.Mbps cbs=1500", "P"), "'cir=1.5.Mbps'");
    EXPECT_EQ(DscpMarkerProfiles("cir=1.5Mbps cbs=1500", "P").GetN(), 1u);
}

TEST(LookupTypeIdDeathTest, BaseTypesAreCheckedUpFront)
{
    EXPECT_DEATH(qdisclab::LookupTypeId("ns3::MqQueueDisc", QueueDisc::GetTypeId(), "--qdisc"),
                 "--qdisc = 'ns3::MqQueueDisc' needs a multi-queue device");
    EXPECT_DEATH(qdisclab::LookupTypeId("ns3::Node", TcpCongestionOps::GetTypeId(), "--tcp"),
                 "--tcp = 'ns3::Node' is not a ns3::TcpCongestionOps");
    EXPECT_EQ(qdisclab::LookupTypeId("ns3::TcpNewReno", TcpCongestionOps::GetTypeId(), "--tcp"),
              TypeId::LookupByName("ns3::TcpNewReno"));
}

TEST(MetricsReportDeathTest, AFailedWriteStopsTheProgram)
{
    MetricsReport report("p", "3.37");
    report.SetMetric("m", 1);
    EXPECT_DEATH(report.Write("/dev/full"),
                 "MetricsReport: writing the metrics file '/dev/full' failed");
    EXPECT_DEATH(report.Write("/nonexistent/dir/x.json"),
                 "MetricsReport: cannot write the metrics file '/nonexistent/dir/x.json'");
}

TEST(MetricsReport, RunMeasurementsStayOutOfTheMetrics)
{
    MetricsReport report("p", "3.37");
    report.SetMetric("datagrams", 7);
    EXPECT_EQ(report.ToJson(),
              "{\"schema\": \"qdisc-lab.metrics/1\", \"program\": \"p\", \"ns3_version\": "
              "\"3.37\", \"params\": {}, \"metrics\": {\"datagrams\": 7}}\n");
    report.SetMeasurement("wall_s", 0.5);
    EXPECT_EQ(report.GetMetricNames(), std::vector<std::string>{"datagrams"});
    EXPECT_EQ(report.ToJson(),
              "{\"schema\": \"qdisc-lab.metrics/1\", \"program\": \"p\", \"ns3_version\": "
              "\"3.37\", \"params\": {}, \"metrics\": {\"datagrams\": 7}, "
              "\"run_measurements\": {\"wall_s\": 0.5}}\n");
}

namespace
{

/**
 * Parse \p args with an ExperimentParams declaring one parameter of each kind, as an example
 * program does.
 * \param args the arguments, without the program's name
 * \return the quantum parsed (set from ns3::DrrQueueDisc::Quantum overrides)
 */
uint32_t
ParseArgs(const std::vector<std::string>& args)
{
    double simTime = 10;
    std::string delay = "1ms";
    std::string size = "100p";
    bool quick = false;
    int64_t n = 0;
    uint32_t quantum = 250;
    std::string queueDisc = "DRR";
    ExperimentParams params("bad-input-test", __FILE__);
    params.AddSeconds("simTime", "seconds", simTime);
    params.AddChoice("queueDisc", "a queue disc", queueDisc, {"DRR", "FIFO"});
    params.AddText("delay", "a delay", delay, ExperimentParams::TIME_TEXT);
    params.AddText("size", "a size", size, ExperimentParams::QUEUE_SIZE_TEXT);
    params.Add("quick", "quick", quick, ExperimentParams::NEVER);
    params.Add("n", "an integer", n);
    params.AddUnsigned("quantum", "DRR quantum", quantum, 1, 65535);
    params.SetsAttribute("quantum", "ns3::DrrQueueDisc::Quantum");
    params.AddRunNumber();
    std::vector<std::string> words{"bad-input-test"};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& word : words)
    {
        argv.push_back(&word[0]);
    }
    params.Parse(static_cast<int>(argv.size()), argv.data());
    return quantum;
}

/// A command line the wrapper must refuse, and a regular expression of its message.
struct RefusedArguments
{
    std::vector<std::string> args; //!< the arguments
    const char* env;               //!< NS_ATTRIBUTE_DEFAULT, or nullptr
    const char* message;           //!< a regular expression of the message
};

} // namespace

TEST(ExperimentParamsDeathTest, CommandLinesAreReadWholeAndNameTheFlag)
{
    const std::vector<RefusedArguments> rows = {
        {{"--simTime=4ms"}, nullptr, "--simTime=4ms is not a number"},
        {{"--simTime=1e300"}, nullptr, "--simTime=1e300 is out of range \\[0, 1e\\+09\\] seconds"},
        {{"--delay=1-2ms"}, nullptr, "--delay=1-2ms is not a time"},
        {{"--delay=-1ms"}, nullptr, "--delay=-1ms must be >= \\+0s"},
        {{"--size=5000000000B"}, nullptr, "--size=5000000000B is not a queue size"},
        {{"--quick=3abc"}, nullptr, "--quick=3abc is not a boolean"},
        {{"--n=1.9"}, nullptr, "--n=1.9 is not an integer in"},
        {{"--quantum=0x10"},
         nullptr,
         "--quantum=0x10 is not an integer \\(range \\[1, 65535\\]\\)"},
        {{"stray"}, nullptr, "bad-input-test: unexpected argument 'stray'"},
        {{"--RngRun=-1"}, nullptr, "--RngRun=-1 is not an integer in \\[0, 9223372036854775807\\]"},
        {{"--RngSeed=0"}, nullptr, "--RngSeed=0 is not an integer in \\[1, 4294967295\\]"},
        {{"--ns3::DrrQueueDisc::Quantum=15x0"},
         nullptr,
         "--ns3::DrrQueueDisc::Quantum=15x0: ns3::DrrQueueDisc::Quantum = '15x0' is not an "
         "integer"},
        {{"--ns3::DrrQueueDisc::MaxSize=5000000000B"},
         nullptr,
         "ns3::DrrQueueDisc::MaxSize = '5000000000B' is not a queue size"},
        {{"--ns3::RioQueueDisc::LinkBandwidth=1.2.3Mbps"},
         nullptr,
         "ns3::RioQueueDisc::LinkBandwidth = '1.2.3Mbps' is not a rate"},
        {{"--ns3::TcpL4Protocol::SocketType=ns3::Node"},
         nullptr,
         "ns3::TcpL4Protocol::SocketType = 'ns3::Node' is not a ns3::TcpCongestionOps"},
        {{"--output=same.json", "--flowMonitor=same.json"},
         nullptr,
         "--flowMonitor=same.json and --output name one file"},
        {{"--flowMonitor=/nonexistent/dir/x.xml"},
         nullptr,
         "--flowMonitor=/nonexistent/dir/x.xml: no directory"},
        {{"--output=/"}, nullptr, "--output=/ is a directory, not a file"},
        // One spelling per queue disc: another case, or a name the program does not run.
        {{"--queueDisc=Drr"}, nullptr, "--queueDisc=Drr is not one of its choices: DRR, FIFO"},
        {{"--queueDisc=VD"}, nullptr, "--queueDisc=VD is not one of its choices: DRR, FIFO"},
        // An empty value: ns-3's CommandLine refuses it (3.37; 3.35 in its own words), or the
        // choices do.
        {{"--queueDisc="},
         nullptr,
         "Invalid command-line argument: --queueDisc|Invalid argument value: queueDisc=|"
         "--queueDisc= is not one of its choices"},
        {{}, "DrrQueueDisc::Bogus=1", "there is no attribute ns3::DrrQueueDisc::Bogus"},
        {{}, "ns3::DrrQueueDisc::Quantum=15x0", "NS_ATTRIBUTE_DEFAULT='ns3::DrrQueueDisc::"},
        {{}, "DrrQueueDisc::Quantum=0", "--quantum=0 is out of range \\[1, 65535\\]"},
        {{"--quantum=500"},
         "DrrQueueDisc::Quantum=1500",
         "conflicts with bad-input-test --quantum=500|conflicts with --quantum=500"},
    };
    for (const RefusedArguments& row : rows)
    {
        EXPECT_DEATH(
            {
                if (row.env)
                {
                    setenv("NS_ATTRIBUTE_DEFAULT", row.env, 1);
                }
                ParseArgs(row.args);
            },
            row.message)
            << (row.args.empty() ? row.env : row.args[0]);
    }
}

TEST(ExperimentParamsDeathTest, AttributeDefaultWithoutNs3PrefixIsTheParameter)
{
    // In a child process: the override changes ns-3's attribute defaults.
    EXPECT_EXIT(
        {
            setenv("NS_ATTRIBUTE_DEFAULT", "DrrQueueDisc::Quantum=1000", 1);
            std::exit(ParseArgs({"--simTime=4", "--delay=2ms", "--quick"}) == 1000 ? 0 : 1);
        },
        testing::ExitedWithCode(0),
        "");
    EXPECT_EQ(ParseArgs({"--simTime=4", "--delay=2ms", "--n=-3", "--quick"}), 250u);
}

TEST(ExperimentParams, AChoiceParameterListsItsChoicesAndTakesEach)
{
    std::string queueDisc = "FIFO";
    ExperimentParams params("choice-test", __FILE__);
    params.AddChoice("queueDisc", "a queue disc", queueDisc, {"FIFO", "RED", "RI+O"});
    EXPECT_NE(params.GetSchema().find("{\"name\": \"queueDisc\", \"type\": \"string\", "
                                      "\"default\": \"FIFO\", \"choices\": [\"FIFO\", "
                                      "\"RED\", \"RI+O\"]"),
              std::string::npos)
        << params.GetSchema();
    std::string program = "choice-test";
    std::string given = "--queueDisc=RI+O";
    std::vector<char*> argv{&program[0], &given[0]};
    params.Parse(static_cast<int>(argv.size()), argv.data());
    EXPECT_EQ(queueDisc, "RI+O");
    EXPECT_NE(params.NewReport().ToJson().find("\"queueDisc\": \"RI+O\""), std::string::npos);
}

TEST(ExperimentParamsDeathTest, AChoiceDefaultMustBeAChoice)
{
    EXPECT_DEATH(
        {
            std::string queueDisc = "Drr";
            ExperimentParams params("choice-test", __FILE__);
            params.AddChoice("queueDisc", "a queue disc", queueDisc, {"DRR", "FIFO"});
        },
        "choice-test: the default of --queueDisc \\('Drr'\\) is not one of its choices");
}
