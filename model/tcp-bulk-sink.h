/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_BULK_SINK_H
#define TCP_BULK_SINK_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class Packet;
class Socket;

/**
 * \ingroup qdisc-lab
 * \brief The receiving end of a bulk TCP transfer: ns-3's PacketSink for TCP, reading at most
 * one segment per Recv.
 *
 * It makes the same socket calls as PacketSink (listen, shut the listener's sending side,
 * accept, read everything the connection holds whenever it has data, close every socket when
 * it stops), so the connections behave exactly as with PacketSink, and GetTotalRx counts the
 * same bytes at every instant. What differs is how it reads: PacketSink asks TcpRxBuffer for
 * everything available at once, and TcpRxBuffer::Extract copies each buffered segment onto the
 * end of one growing packet. After a retransmission fills a hole, the whole window behind it
 * is available at once, and that copy costs in proportion to the square of the window. This
 * sink asks for ReadSize bytes at a time (by default the connection's SegmentSize: one
 * buffered segment per Recv, which moves a pointer), until the buffer is empty.
 *
 * The Rx trace fires once per Recv, so with the same bytes it fires more often than
 * PacketSink's.
 */
class TcpBulkSink : public Application
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    TcpBulkSink();
    ~TcpBulkSink() override;

    /// \return the data bytes read so far, from every connection
    uint64_t GetTotalRx() const;

    /// \return every socket accepted so far (open until the sink stops)
    const std::vector<Ptr<Socket>>& GetAcceptedSockets() const;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void DoDispose() override;

    /**
     * A connection was accepted: read it whenever it has data.
     * \param socket the accepted socket
     * \param from the peer's address
     */
    void Accepted(Ptr<Socket> socket, const Address& from);

    /**
     * Read and count everything \p socket holds, \p readSize bytes per Recv.
     * \param socket an accepted socket
     * \param readSize bytes per Recv (> 0)
     */
    void Read(Ptr<Socket> socket, uint32_t readSize);

    Address m_local;                     //!< address and port to listen on
    uint32_t m_readSize;                 //!< bytes per Recv; 0: the connection's SegmentSize
    Ptr<Socket> m_listener;              //!< the listening socket
    std::vector<Ptr<Socket>> m_accepted; //!< every accepted socket
    uint64_t m_totalRx = 0;              //!< data bytes read
    TracedCallback<Ptr<const Packet>, const Address&> m_rxTrace; //!< data read
};

namespace qdisclab
{

/**
 * \ingroup qdisc-lab
 * The bytes a sink asks for per Recv on an accepted TCP connection (TcpBulkSink's and
 * TcpSessionSink's ReadSize attribute).
 * \param socket the accepted socket
 * \param configured the sink's ReadSize; 0: the socket's SegmentSize
 * \return \p configured, or the socket's SegmentSize when it is 0 (stops the program if that
 *         is 0 too)
 */
uint32_t ReadSizeFor(Ptr<Socket> socket, uint32_t configured);

} // namespace qdisclab

} // namespace ns3

#endif /* TCP_BULK_SINK_H */
