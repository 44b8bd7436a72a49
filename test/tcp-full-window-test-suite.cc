/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/packet.h"
#include "ns3/qdisc-lab-compat.h"
#include "ns3/tcp-tx-buffer.h"
#include "ns3/test.h"

using namespace ns3;

namespace
{

/**
 * \ingroup qdisc-lab-tests
 * A peer's receive window the test sets by hand.
 */
struct PeerWindow
{
    uint32_t bytes{0}; //!< the window in bytes

    /**
     * \return the window in bytes
     */
    uint32_t Get() const
    {
        return bytes;
    }
};

} // namespace

/**
 * \ingroup qdisc-lab-tests
 * TcpTxBuffer::NextSeg with qdisclab::GuardedReceiveWindow, as DumbbellScenario's TCP senders
 * use it: new data is offered up to exactly the peer's window, in segments cut to what is left of
 * it, and once the sent data fills the window nothing is offered (ns-3 < 3.44's own NextSeg offers
 * a zero-byte segment there, on which the sender crashes; 3.44's offers nothing).
 */
class NextSegFullWindowTestCase : public TestCase
{
  public:
    NextSegFullWindowTestCase()
        : TestCase("NextSeg offers new data up to the peer's window and nothing at it")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TcpTxBuffer> txBuffer = CreateObject<TcpTxBuffer>();
        txBuffer->SetSegmentSize(500);
        txBuffer->SetHeadSequence(SequenceNumber32(1));
        NS_TEST_ASSERT_MSG_EQ(txBuffer->Add(Create<Packet>(3000)), true, "3000 bytes to send");
        PeerWindow window{1200};
        txBuffer->SetRWndCallback(
            qdisclab::GuardedReceiveWindow(txBuffer, MakeCallback(&PeerWindow::Get, &window)));

        // Sends the segment NextSeg offers; checks it is [first, last).
        auto sendNext = [&txBuffer, this](uint32_t first, uint32_t last) {
            SequenceNumber32 seq;
            SequenceNumber32 seqHigh;
            NS_TEST_ASSERT_MSG_EQ(txBuffer->NextSeg(&seq, &seqHigh, false),
                                  true,
                                  "new data is offered while the window has room");
            NS_TEST_ASSERT_MSG_EQ(seq, SequenceNumber32(first), "the first unsent byte");
            NS_TEST_ASSERT_MSG_EQ(seqHigh, SequenceNumber32(last), "one segment or the room left");
            const bool sent = txBuffer->CopyFromSequence(seqHigh - seq, seq) != nullptr;
            NS_TEST_ASSERT_MSG_EQ(sent, true, "the offered bytes are sent");
        };
        sendNext(1, 501);
        sendNext(501, 1001);
        sendNext(1001, 1201); // 200 bytes: what is left of the 1200-byte window
        NS_TEST_ASSERT_MSG_EQ(txBuffer->BytesInFlight(), 1200, "the window is full");

        SequenceNumber32 seq;
        SequenceNumber32 seqHigh;
        NS_TEST_ASSERT_MSG_EQ(txBuffer->NextSeg(&seq, &seqHigh, false),
                              false,
                              "nothing is offered once the sent data fills the window");

        window.bytes = 1700; // the peer's window opens: one more full segment
        sendNext(1201, 1701);
        window.bytes = 1900; // and 200 bytes more
        sendNext(1701, 1901);
        NS_TEST_ASSERT_MSG_EQ(txBuffer->NextSeg(&seq, &seqHigh, false),
                              false,
                              "nothing is offered at the new window's edge either");
    }
};

/**
 * \ingroup qdisc-lab-tests
 * The TCP sender's full-window guard (model/qdisc-lab-compat.h).
 */
class TcpFullWindowTestSuite : public TestSuite
{
  public:
    TcpFullWindowTestSuite()
        : TestSuite("qdisc-lab-tcp-full-window")
    {
        AddTestCase(new NextSegFullWindowTestCase());
    }
};

/// The suite's instance.
static TcpFullWindowTestSuite g_tcpFullWindowTestSuite;
