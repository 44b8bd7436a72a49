/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// TcpSegmentLedger, without the simulator: new data vs retransmissions on the sending side,
// needed vs spurious deliveries on the receiving side, for whole, partial and gap-filling
// segments, and a random reordering checked against a byte-by-byte reference.

#include "ns3/tcp-segment-ledger.h"

#include <algorithm>
#include <cstdint>
#include <gtest/gtest.h>
#include <random>
#include <vector>

using namespace ns3;

TEST(TcpSegmentLedger, SendCountsBytesBelowTheHighestSent)
{
    TcpSegmentLedger ledger;
    EXPECT_EQ(ledger.Send(1, 1001), 0u);
    EXPECT_EQ(ledger.Send(1001, 2001), 0u);
    EXPECT_EQ(ledger.Send(1, 1001), 1000u);    // a retransmission
    EXPECT_EQ(ledger.Send(1501, 2501), 500u);  // half resent, half new
    EXPECT_EQ(ledger.Send(5001, 6001), 0u);    // beyond a gap: new
    EXPECT_EQ(ledger.Send(3001, 4001), 1000u); // the gap was skipped, not unsent: below 6001
}

TEST(TcpSegmentLedger, DeliverCountsBytesDeliveredBefore)
{
    TcpSegmentLedger ledger;
    EXPECT_EQ(ledger.Deliver(1, 1001), 0u);
    EXPECT_EQ(ledger.Deliver(2001, 3001), 0u); // out of order: a hole at 1001
    EXPECT_EQ(ledger.GetDeliveredRanges(), 2u);
    EXPECT_EQ(ledger.Deliver(2001, 3001), 1000u); // spurious: the receiver had it
    EXPECT_EQ(ledger.Deliver(1001, 2001), 0u);    // fills the hole: one range again
    EXPECT_EQ(ledger.GetDeliveredRanges(), 1u);
    EXPECT_EQ(ledger.Deliver(501, 3501), 2500u); // overlaps the whole range and extends it
    EXPECT_EQ(ledger.Deliver(3001, 3501), 500u);
    EXPECT_EQ(ledger.Deliver(3501, 3501), 0u); // empty
    EXPECT_EQ(ledger.GetDeliveredRanges(), 1u);
}

TEST(TcpSegmentLedger, DeliverSpanningSeveralRangesCountsEachOverlap)
{
    TcpSegmentLedger ledger;
    ledger.Deliver(101, 201);
    ledger.Deliver(301, 401);
    ledger.Deliver(501, 601);
    EXPECT_EQ(ledger.GetDeliveredRanges(), 3u);
    EXPECT_EQ(ledger.Deliver(151, 551), 50u + 100u + 50u);
    EXPECT_EQ(ledger.GetDeliveredRanges(), 1u);
    EXPECT_EQ(ledger.Deliver(101, 601), 500u);
}

TEST(TcpSegmentLedger, RandomOrderMatchesAByteReference)
{
    // 200 segments of 100 bytes, each delivered one to three times in a random order: the
    // ledger's duplicate count equals a byte-by-byte reference, and the ranges end as one.
    std::mt19937 random(7);
    std::vector<uint32_t> order;
    for (uint32_t s = 0; s < 200; ++s)
    {
        for (uint32_t copies = 1 + random() % 3; copies > 0; --copies)
        {
            order.push_back(s);
        }
    }
    std::shuffle(order.begin(), order.end(), random);
    TcpSegmentLedger ledger;
    std::vector<bool> seen(200 * 100 + 1, false);
    for (uint32_t s : order)
    {
        // Segments of 100 bytes, some sent as 150-byte repacketized ones across two.
        const uint32_t begin = 1 + s * 100;
        const uint32_t end = std::min<uint32_t>(begin + (s % 7 == 0 ? 150 : 100), 20001);
        uint32_t expected = 0;
        for (uint32_t b = begin; b < end; ++b)
        {
            expected += seen[b];
            seen[b] = true;
        }
        ASSERT_EQ(ledger.Deliver(begin, end), expected) << "segment " << s;
    }
    EXPECT_EQ(ledger.GetDeliveredRanges(), 1u);
}
