/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QDISC_LAB_GTEST_UTILS_H
#define QDISC_LAB_GTEST_UTILS_H

/**
 * \file
 * \ingroup qdisc-lab-tests
 * Helpers of the module's GoogleTest unit tests: flow keys from address text, queue discs
 * initialized with given attributes (for the death tests of bad configurations), and a harness
 * that checks every packet a per-flow scheduler says left.
 */

#include "../qdisc-lab-test-packets.h"

#include "ns3/attribute.h"
#include "ns3/flow-identifier.h"
#include "ns3/flow-queues.h"

#include <arpa/inet.h>
#include <cstdint>
#include <deque>
#include <gtest/gtest.h>
#include <string>
#include <utility>
#include <vector>

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

/**
 * A per-flow scheduler plus the packets it schedules: one FIFO of (slot, size) per flow, kept
 * apart, so that every packet the scheduler says left is checked against the one that should
 * have (its slot, its size, and the deficit reported the flow's).
 * \tparam Scheduler DrrScheduler, AliquemScheduler or SrrScheduler
 */
template <typename Scheduler>
class SchedulerHarness
{
  public:
    /**
     * \param flows number of flows
     * \param reset the scheduler's other Reset arguments (quantum, ...)
     */
    template <typename... Args>
    explicit SchedulerHarness(uint32_t flows, Args... reset)
        : queues(flows)
    {
        scheduler.Reset(flows, reset...);
    }

    /**
     * \param f a flow
     * \param size a packet's size, which arrives at f
     * \param weight f's weight, if it was idle
     */
    void Arrive(uint32_t f, uint32_t size, double weight = 1.0)
    {
        queues[f].push_back({scheduler.Arrive(f, size, weight), size});
    }

    /// \return the packet dequeued: (flow, size)
    std::pair<uint32_t, uint32_t> Send()
    {
        const FlowPacket p = scheduler.Dequeue();
        Check(p, queues[p.flow].front());
        queues[p.flow].pop_front();
        return {p.flow, p.size};
    }

    /**
     * Buffer stealing from the head (or tail) of the longest flow.
     * \param head whether from its head
     * \return the flow
     */
    uint32_t Steal(bool head)
    {
        const FlowPacket p = scheduler.Drop(head);
        Check(p, head ? queues[p.flow].front() : queues[p.flow].back());
        if (head)
        {
            queues[p.flow].pop_front();
        }
        else
        {
            queues[p.flow].pop_back();
        }
        return p.flow;
    }

    /**
     * Drop the packet the scheduler would send last (DropLast): its flow's tail.
     * \return the packet
     */
    FlowPacket StealLast()
    {
        const FlowPacket p = scheduler.DropLast();
        Check(p, queues[p.flow].back());
        queues[p.flow].pop_back();
        return p;
    }

    /// \return the flow buffer stealing dropped the head packet of
    uint32_t StealHead()
    {
        return Steal(true);
    }

    /// \return the flow buffer stealing dropped the tail packet of
    uint32_t StealTail()
    {
        return Steal(false);
    }

    /**
     * The packet that left must be the one expected, and the deficit reported the flow's (for
     * a scheduler that keeps deficit counters).
     * \param p the packet the scheduler returned
     * \param expected (slot, size) of the packet that should have left
     */
    void Check(const FlowPacket& p, const std::pair<uint32_t, uint32_t>& expected)
    {
        EXPECT_EQ(p.slot, expected.first) << "flow " << p.flow;
        EXPECT_EQ(p.size, expected.second) << "flow " << p.flow;
        if constexpr (perflow::HasDeficit<Scheduler>::value)
        {
            EXPECT_EQ(p.deficit, scheduler.GetFlows().GetDeficit(p.flow));
        }
    }

    Scheduler scheduler;                                           //!< the scheduler
    std::vector<std::deque<std::pair<uint32_t, uint32_t>>> queues; //!< (slot, size) per flow
};

} // namespace test
} // namespace qdisclab
} // namespace ns3

#endif /* QDISC_LAB_GTEST_UTILS_H */
