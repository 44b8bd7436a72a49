/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/metrics-report.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <limits>
#include <sstream>
#include <string>

using ns3::MetricsReport;

TEST(MetricsReport, EmptyReportHasTheContractKeys)
{
    MetricsReport report("prog", "3.37");
    EXPECT_EQ(report.ToJson(),
              "{\"schema\": \"qdisc-lab.metrics/1\", \"program\": \"prog\", "
              "\"ns3_version\": \"3.37\", \"params\": {}, \"metrics\": {}}\n");
}

TEST(MetricsReport, ParamsKeepTypesAndFirstSetOrder)
{
    MetricsReport report("p", "3.44");
    report.SetParam("queueDisc", "Red");
    report.SetParam("nTcp", int64_t{4});
    report.SetParam("simTime", 2.5);
    report.SetParam("gentle", true);
    report.SetParam("name", std::string("a"));
    report.SetParam("nTcp", int64_t{8}); // overwrite keeps the position
    EXPECT_EQ(report.ToJson(),
              "{\"schema\": \"qdisc-lab.metrics/1\", \"program\": \"p\", \"ns3_version\": "
              "\"3.44\", \"params\": {\"queueDisc\": \"Red\", \"nTcp\": 8, \"simTime\": 2.5, "
              "\"gentle\": true, \"name\": \"a\"}, \"metrics\": {}}\n");
}

TEST(MetricsReport, NumbersAreShortestRoundTripAndNonFiniteIsNull)
{
    MetricsReport report("p", "3.37");
    report.SetMetric("a", 0.1);
    report.SetMetric("b", 1e-9);
    report.SetMetric("c", 12345678.0);
    report.SetMetric("nan", std::numeric_limits<double>::quiet_NaN());
    report.SetMetric("inf", -std::numeric_limits<double>::infinity());
    report.SetMetric("third", 1.0 / 3.0);
    const std::string json = report.ToJson();
    EXPECT_NE(json.find("\"a\": 0.1,"), std::string::npos) << json;
    EXPECT_NE(json.find("\"b\": 1e-09,"), std::string::npos) << json;
    EXPECT_NE(json.find("\"c\": 12345678,"), std::string::npos) << json;
    EXPECT_NE(json.find("\"nan\": null, \"inf\": null"), std::string::npos) << json;
    // Reads back to the same double.
    const auto at = json.find("\"third\": ") + 9;
    EXPECT_EQ(std::stod(json.substr(at)), 1.0 / 3.0);
    EXPECT_TRUE(report.HasMetric("third"));
    EXPECT_FALSE(report.HasMetric("fourth"));
}

TEST(MetricsReport, StringsAreEscaped)
{
    MetricsReport report("quote\"back\\slash", "3.37");
    report.SetParam("s", "tab\tnewline\nbell\a");
    const std::string json = report.ToJson();
    EXPECT_NE(json.find("\"program\": \"quote\\\"back\\\\slash\""), std::string::npos) << json;
    EXPECT_NE(json.find("\"s\": \"tab\\tnewline\\nbell\\u0007\""), std::string::npos) << json;
}

TEST(MetricsReport, WritesTheSameBytesToAFile)
{
    MetricsReport report("p", "3.37");
    report.SetMetric("goodput_mbps", 9.5);
    const std::string path = ::testing::TempDir() + "qdisc-lab-metrics-report-test.json";
    report.Write(path);
    std::ifstream in(path);
    std::stringstream content;
    content << in.rdbuf();
    EXPECT_EQ(content.str(), report.ToJson());
    std::remove(path.c_str());
}
