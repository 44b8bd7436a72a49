/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// FlowIdentifier's own murmur3 is ns-3's Hash32, so that flows land in the buckets they always
// did (the family's service order and the examples' outputs depend on it).

#include "ns3/flow-identifier.h"
#include "ns3/hash.h"

#include <cstdint>
#include <cstring>
#include <gtest/gtest.h>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

// Every length from empty to past IPv6's 41-byte five-tuple (each tail length, 0-3 bytes),
// random contents: the same hash as ns-3's default hasher.
TEST(FlowIdentifier, Murmur3IsNs3sHash32)
{
    std::mt19937 random(31);
    std::vector<char> buffer(64);
    for (std::size_t size = 0; size <= buffer.size(); ++size)
    {
        for (int trial = 0; trial < 200; ++trial)
        {
            for (char& byte : buffer)
            {
                byte = static_cast<char>(random());
            }
            ASSERT_EQ(FlowIdentifier::Murmur3(buffer.data(), size), Hash32(buffer.data(), size))
                << size << " bytes, trial " << trial;
        }
    }
}

// Hash of a key: perturbation | src | dst | ports | protocol, hashed as ns-3's Hash32 would.
TEST(FlowIdentifier, HashOfAKeyIsHash32OfItsFields)
{
    FlowKey key;
    key.isIp = true;
    const uint8_t src[4] = {10, 0, 0, 7};
    const uint8_t dst[4] = {192, 168, 0, 9};
    std::memcpy(key.src.data(), src, 4);
    std::memcpy(key.dst.data(), dst, 4);
    key.srcPort = 1031;
    key.dstPort = 5001;
    key.protocol = 17;
    const uint32_t perturbation = 12345;

    char fiveTuple[17];
    std::memcpy(fiveTuple, &perturbation, 4);
    std::memcpy(fiveTuple + 4, src, 4);
    std::memcpy(fiveTuple + 8, dst, 4);
    std::memcpy(fiveTuple + 12, &key.srcPort, 2);
    std::memcpy(fiveTuple + 14, &key.dstPort, 2);
    fiveTuple[16] = 17;
    EXPECT_EQ(FlowIdentifier::Hash(key, FlowIdentifier::FIVE_TUPLE, perturbation),
              Hash32(fiveTuple, sizeof(fiveTuple)));
    EXPECT_EQ(FlowIdentifier::Hash(key, FlowIdentifier::ADDRESS_PAIR, perturbation),
              Hash32(fiveTuple, 12));
}

} // namespace
