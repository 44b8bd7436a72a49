/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// CioqVoqSet: the input buffers of a CIOQ switch, their limits, counts and FIFO order.

#include "ns3/cioq-voq-set.h"
#include "ns3/packet.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// A queue disc item of a given size, no headers.
class SizedItem : public QueueDiscItem
{
  public:
    /**
     * \param bytes its size
     */
    explicit SizedItem(uint32_t bytes)
        : QueueDiscItem(Create<Packet>(bytes), Address(), 0)
    {
    }

    void AddHeader() override
    {
    }

    bool Mark() override
    {
        return false;
    }
};

/**
 * \param bytes a size
 * \return an item of that size
 */
Ptr<QueueDiscItem>
Item(uint32_t bytes)
{
    return Create<SizedItem>(bytes);
}

} // namespace

TEST(CioqVoqSet, VoqsShareTheInputBufferAndKeepFifoOrder)
{
    CioqVoqSet voqs;
    voqs.Reset(3, CioqVoqSet::VOQ, QueueSize("3p"), QueueSize("0p"));
    Ptr<QueueDiscItem> a = Item(100);
    Ptr<QueueDiscItem> b = Item(200);
    Ptr<QueueDiscItem> c = Item(300);
    EXPECT_FALSE(voqs.IsFull(0, 1, 100));
    EXPECT_EQ(voqs.Enqueue(0, 1, a, Seconds(1)), 1u);
    EXPECT_EQ(voqs.Enqueue(0, 1, b, Seconds(2)), 2u);
    EXPECT_EQ(voqs.Enqueue(0, 2, c, Seconds(3)), 1u) << "another VOQ of the same input";
    EXPECT_EQ(voqs.GetInputPackets(0), 3u);
    EXPECT_EQ(voqs.GetInputBytes(0), 600u);
    EXPECT_EQ(voqs.GetVoqPackets(0, 1), 2u);
    EXPECT_EQ(voqs.GetVoqBytes(0, 1), 300u);
    EXPECT_EQ(voqs.GetVoqPackets(0, 2), 1u);
    EXPECT_EQ(voqs.GetVoqPackets(1, 1), 0u);
    // 3 packets: input 0 is full for every output; input 1 is not.
    EXPECT_TRUE(voqs.IsFull(0, 0, 1));
    EXPECT_TRUE(voqs.IsFull(0, 2, 1));
    EXPECT_FALSE(voqs.IsFull(1, 1, 1500));

    EXPECT_EQ(voqs.GetQueue(0, 1).front().item, a);
    EXPECT_EQ(voqs.GetQueue(0, 2).front().item, c);
    const CioqVoqSet::Entry first = voqs.Dequeue(0, 1);
    EXPECT_EQ(first.item, a);
    EXPECT_EQ(first.output, 1u);
    EXPECT_EQ(first.arrival, Seconds(1));
    EXPECT_EQ(voqs.Dequeue(0, 2).item, c) << "VOQs are independent";
    EXPECT_EQ(voqs.Dequeue(0, 1).item, b);
    EXPECT_EQ(voqs.GetInputPackets(0), 0u);
    EXPECT_EQ(voqs.GetInputBytes(0), 0u);
    EXPECT_EQ(voqs.GetVoqBytes(0, 1), 0u);
    EXPECT_TRUE(voqs.GetQueue(0, 1).empty());
}

TEST(CioqVoqSet, ByteLimitsAndPerVoqLimits)
{
    CioqVoqSet voqs;
    voqs.Reset(2, CioqVoqSet::VOQ, QueueSize("1000B"), QueueSize("1p"));
    EXPECT_FALSE(voqs.IsFull(0, 1, 1000)) << "exactly the input limit fits";
    EXPECT_TRUE(voqs.IsFull(0, 1, 1001));
    voqs.Enqueue(0, 1, Item(400), Seconds(0));
    EXPECT_TRUE(voqs.IsFull(0, 1, 1)) << "VOQ(0, 1) holds its one packet";
    EXPECT_FALSE(voqs.IsFull(0, 0, 600));
    EXPECT_TRUE(voqs.IsFull(0, 0, 601)) << "the input's bytes are shared";

    CioqVoqSet bytes;
    bytes.Reset(2, CioqVoqSet::VOQ, QueueSize("100p"), QueueSize("500B"));
    bytes.Enqueue(1, 0, Item(300), Seconds(0));
    EXPECT_FALSE(bytes.IsFull(1, 0, 200));
    EXPECT_TRUE(bytes.IsFull(1, 0, 201));
    EXPECT_FALSE(bytes.IsFull(1, 1, 500)) << "a VOQ limit is per VOQ";
}

TEST(CioqVoqSet, FifoModeKeepsOneQueuePerInput)
{
    CioqVoqSet fifo;
    fifo.Reset(3, CioqVoqSet::FIFO, QueueSize("10p"), QueueSize("0p"));
    EXPECT_EQ(fifo.GetQueueing(), CioqVoqSet::FIFO);
    EXPECT_EQ(fifo.Enqueue(2, 0, Item(100), Seconds(1)), 1u);
    EXPECT_EQ(fifo.Enqueue(2, 1, Item(200), Seconds(2)), 2u) << "the same FIFO";
    EXPECT_EQ(&fifo.GetQueue(2, 0), &fifo.GetQueue(2, 1));
    EXPECT_EQ(fifo.GetVoqPackets(2, 0), 1u) << "still counted per output";
    EXPECT_EQ(fifo.GetVoqPackets(2, 1), 1u);
    EXPECT_EQ(fifo.GetQueue(2, 1).front().output, 0u) << "head-of-line: the packet for 0";
    EXPECT_EQ(fifo.Dequeue(2, 0).arrival, Seconds(1));
    EXPECT_EQ(fifo.GetQueue(2, 1).front().output, 1u);
    EXPECT_EQ(fifo.GetInputBytes(2), 200u);
}

TEST(CioqVoqSetDeathTest, BadSizesAreNamed)
{
    CioqVoqSet voqs;
    EXPECT_DEATH(voqs.Reset(0, CioqVoqSet::VOQ, QueueSize("1p"), QueueSize("0p")),
                 "CioqVoqSet: ports = 0 is out of range \\[1, inf\\)");
    EXPECT_DEATH(voqs.Reset(2, CioqVoqSet::VOQ, QueueSize("0B"), QueueSize("0p")),
                 "CioqVoqSet: input limit 0B must be > 0");
}
