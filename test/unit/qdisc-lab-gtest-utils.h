/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QDISC_LAB_GTEST_UTILS_H
#define QDISC_LAB_GTEST_UTILS_H

/**
 * \file
 * \ingroup qdisc-lab-tests
 * Helpers of the module's GoogleTest unit tests: flow keys from address text, and queue discs
 * initialized with given attributes (for the death tests of bad configurations).
 */

#include "../qdisc-lab-test-packets.h"

#include "ns3/attribute.h"
#include "ns3/flow-identifier.h"

#include <arpa/inet.h>
#include <cstdint>
#include <string>

namespace ns3
{
namespace qdisclab
{
namespace test
{

/**
 * \param src source address, dotted quad
 * \param dst destination address, dotted quad
 * \param sport source port
 * \param dport destination port
 * \param proto IPv4 protocol
 * \param dscp DSCP
 * \return the key of an IPv4 packet
 */
inline FlowKey
Ipv4Key(const char* src,
        const char* dst,
        uint16_t sport,
        uint16_t dport,
        uint8_t proto,
        uint8_t dscp = 0)
{
    FlowKey key;
    key.isIp = true;
    inet_pton(AF_INET, src, key.src.data());
    inet_pton(AF_INET, dst, key.dst.data());
    key.srcPort = sport;
    key.dstPort = dport;
    key.protocol = proto;
    key.dscp = dscp;
    return key;
}

/**
 * \param src source address, IPv6 text
 * \param dst destination address, IPv6 text
 * \return the key of an IPv6/UDP packet, ports 0
 */
inline FlowKey
Ipv6Key(const char* src, const char* dst)
{
    FlowKey key;
    key.isIp = true;
    key.isIpv6 = true;
    inet_pton(AF_INET6, src, key.src.data());
    inet_pton(AF_INET6, dst, key.dst.data());
    key.protocol = 17;
    return key;
}

/**
 * Create a \p QD, set one attribute and initialize it (where a bad configuration stops).
 * \tparam QD a queue disc type
 * \param name the attribute
 * \param value its value
 */
template <typename QD>
void
InitializeWith(const std::string& name, const AttributeValue& value)
{
    auto qd = CreateObject<QD>();
    qd->SetAttribute(name, value);
    qd->Initialize();
}

/**
 * Create a \p QD, set attributes and initialize it (where a bad configuration stops).
 * \tparam QD a queue disc type
 * \param attributes name/value pairs, set as StringValues
 */
template <typename QD>
void
InitializeWith(const Attributes& attributes)
{
    MakeQueueDisc<QD>(attributes);
}

} // namespace test
} // namespace qdisclab
} // namespace ns3

#endif /* QDISC_LAB_GTEST_UTILS_H */
