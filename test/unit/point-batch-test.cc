/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/config.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/mac48-address.h"
#include "ns3/point-batch.h"
#include "ns3/qdisc-lab-compat.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using ns3::PointBatch;

namespace
{

/// A file under the test's temporary directory holding \p text; returns its path.
std::string
WriteFile(const std::string& name, const std::string& text)
{
    const std::string path = ::testing::TempDir() + name;
    std::ofstream(path) << text;
    return path;
}

} // namespace

TEST(PointBatch, ReadPointsSplitsLinesAtTabsAndSkipsBlankLines)
{
    const auto path = WriteFile("qdisc-lab-point-batch-read",
                                "--a=1\t--b=x y\t--output=/o/0\n\n  \n--c=\t--d=2\n--e=3");
    const std::vector<std::vector<std::string>> expected{{"--a=1", "--b=x y", "--output=/o/0"},
                                                         {"--c=", "--d=2"},
                                                         {"--e=3"}};
    EXPECT_EQ(PointBatch::ReadPoints(path), expected);
}

TEST(PointBatch, ReadPointsOfAMissingFileStopsNamingIt)
{
    EXPECT_DEATH(PointBatch::ReadPoints("/nonexistent/batch"),
                 "--batch=/nonexistent/batch: cannot read the file");
}

TEST(PointBatch, SupportedFromNs3_44)
{
    EXPECT_EQ(PointBatch::IsSupported(), QDISC_LAB_NS3_AT_LEAST(3, 44));
}

#if QDISC_LAB_NS3_RESETS_STREAM_INDEX
TEST(PointBatch, ResetGlobalStateGivesAFreshProcessState)
{
    PointBatch::ResetGlobalState();
    const auto fresh = ns3::CreateObject<ns3::UniformRandomVariable>();
    const int64_t firstStream = fresh->GetStream();
    const auto firstMac = ns3::Mac48Address::Allocate();

    ns3::Config::SetDefault("ns3::TcpSocket::SegmentSize", ns3::UintegerValue(512));
    ns3::RngSeedManager::SetRun(7);
    ns3::CreateObject<ns3::UniformRandomVariable>();
    ns3::Mac48Address::Allocate();
    const ns3::Ipv4Address address("10.9.0.1");
    ASSERT_TRUE(ns3::Ipv4AddressGenerator::AddAllocated(address));
    ns3::Simulator::Schedule(ns3::Seconds(1), [] {});

    PointBatch::ResetGlobalState();
    EXPECT_EQ(ns3::RngSeedManager::GetRun(), 1U);
    EXPECT_EQ(ns3::CreateObject<ns3::UniformRandomVariable>()->GetStream(), firstStream);
    EXPECT_EQ(ns3::Mac48Address::Allocate(), firstMac);
    EXPECT_TRUE(ns3::Ipv4AddressGenerator::AddAllocated(address)); // not a collision
    EXPECT_EQ(ns3::Simulator::GetEventCount(), 0U);
    EXPECT_EQ(ns3::Simulator::Now(), ns3::Seconds(0));
    ns3::Simulator::Destroy();
}
#else
TEST(PointBatch, ResetGlobalStateStopsWhereItCannotResetTheStreamNumbers)
{
    // The message names the ns-3 the module was compiled against (3.37; 3.35 in a waf tree).
    EXPECT_DEATH(PointBatch::ResetGlobalState(),
                 "--batch needs ns-3 >= 3.44 \\(RngSeedManager::ResetNextStreamIndex\\); on ns-3 " +
                     ns3::qdisclab::Ns3Version() + " ");
}
#endif
