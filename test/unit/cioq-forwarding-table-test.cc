/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// CioqForwardingTable: learned state with expiry, and the static MAC / IPv4 port map.

#include "ns3/cioq-forwarding-table.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/packet.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/**
 * An IPv4 packet to \p destination, as a port hands it to the switch (header first).
 * \param destination its IPv4 destination
 * \return the packet
 */
Ptr<Packet>
Ipv4To(const char* destination)
{
    Ptr<Packet> packet = Create<Packet>(100);
    Ipv4Header header;
    header.SetSource(Ipv4Address("10.1.0.9"));
    header.SetDestination(Ipv4Address(destination));
    header.SetPayloadSize(100);
    packet->AddHeader(header);
    return packet;
}

} // namespace

TEST(CioqForwardingTable, LearnedStateLastsUntilItsExpirationTime)
{
    CioqForwardingTable table;
    const Mac48Address a("00:00:00:00:00:01");
    const Mac48Address b("00:00:00:00:00:02");
    EXPECT_EQ(table.GetLearnedPort(a, Seconds(0)), CioqForwardingTable::NONE);

    table.Learn(a, 3, Seconds(10));
    EXPECT_EQ(table.GetLearnedPort(a, Seconds(9.999)), 3u);
    EXPECT_EQ(table.GetLearnedPort(b, Seconds(1)), CioqForwardingTable::NONE);
    EXPECT_EQ(table.GetNLearned(), 1u);

    // Seen again elsewhere: the new port, the new lifetime.
    table.Learn(a, 1, Seconds(20));
    EXPECT_EQ(table.GetLearnedPort(a, Seconds(15)), 1u);
    EXPECT_EQ(table.GetNLearned(), 1u);

    // Expired at the expiration time itself; the lookup removes the entry.
    EXPECT_EQ(table.GetLearnedPort(a, Seconds(20)), CioqForwardingTable::NONE);
    EXPECT_EQ(table.GetNLearned(), 0u);
    EXPECT_EQ(table.GetLearnedPort(a, Seconds(0)), CioqForwardingTable::NONE) << "forgotten";
}

TEST(CioqForwardingTable, StaticMapByMacThenByIpv4Destination)
{
    CioqForwardingTable table;
    const Mac48Address host("00:00:00:00:00:07");
    const Mac48Address other("00:00:00:00:00:08");
    table.AddRoute(Ipv4Address("10.1.0.2"), 2);
    table.AddRoute(Ipv4Address("10.1.0.3"), 3);
    table.AddRoute(host, 5);

    const uint16_t ipv4 = Ipv4L3Protocol::PROT_NUMBER;
    // The MAC address wins over the IPv4 destination.
    EXPECT_EQ(table.GetStaticPort(host, ipv4, Ipv4To("10.1.0.2")), 5u);
    // Not in the MAC map: by the IPv4 header's destination.
    EXPECT_EQ(table.GetStaticPort(other, ipv4, Ipv4To("10.1.0.2")), 2u);
    EXPECT_EQ(table.GetStaticPort(other, ipv4, Ipv4To("10.1.0.3")), 3u);
    EXPECT_EQ(table.GetStaticPort(other, ipv4, Ipv4To("10.1.0.4")), CioqForwardingTable::NONE);
    // Not IPv4 (ARP): only the MAC map applies.
    EXPECT_EQ(table.GetStaticPort(other, 0x0806, Ipv4To("10.1.0.2")), CioqForwardingTable::NONE);
    EXPECT_EQ(table.GetStaticPort(host, 0x0806, Create<Packet>(28)), 5u);

    // A later entry replaces an earlier one.
    table.AddRoute(Ipv4Address("10.1.0.2"), 0);
    table.AddRoute(host, 1);
    EXPECT_EQ(table.GetStaticPort(other, ipv4, Ipv4To("10.1.0.2")), 0u);
    EXPECT_EQ(table.GetStaticPort(host, ipv4, Ipv4To("10.1.0.2")), 1u);
    // The two kinds of knowledge are apart: static routes are not learned state.
    EXPECT_EQ(table.GetLearnedPort(host, Seconds(0)), CioqForwardingTable::NONE);
}

TEST(CioqForwardingTableDeathTest, RoutesToMissingPortsAreNamed)
{
    CioqForwardingTable table;
    table.AddRoute(Mac48Address("00:00:00:00:00:01"), 1);
    table.AddRoute(Ipv4Address("10.1.0.1"), 1);
    table.CheckPorts(2, "Switch"); // in range: no stop
    EXPECT_DEATH(table.CheckPorts(1, "Switch"),
                 "Switch: static route to 00:00:00:00:00:01 names port 1, out of range \\[0, N\\) "
                 "= \\[0, 1\\)");
    CioqForwardingTable ipOnly;
    ipOnly.AddRoute(Ipv4Address("10.1.0.1"), 4);
    EXPECT_DEATH(ipOnly.CheckPorts(4, "Switch"),
                 "Switch: static route to 10.1.0.1 names port 4, out of range \\[0, N\\) = "
                 "\\[0, 4\\)");
}
