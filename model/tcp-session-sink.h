/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_SESSION_SINK_H
#define TCP_SESSION_SINK_H

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
 * \brief The receiving end of TcpSessionSource's sessions: accepts TCP connections on a local
 * address, reads and counts their data, and closes each connection when its peer closes.
 *
 * ns-3's PacketSink keeps every accepted socket open (in CLOSE_WAIT) until it stops, so the
 * senders' sockets never leave FIN_WAIT_2 either; with thousands of sessions those dead
 * connections' end points stay in the nodes' demultiplexers, which every arriving packet scans.
 * This sink closes its side on the peer's FIN, so both ends release their end points (the
 * sender's after TIME_WAIT, 2 x TcpSocketBase::MaxSegLifetime). It still holds every accepted
 * socket object until it is disposed: a TcpSocketBase freed as soon as it closes can leave
 * events behind that refer to it (ns-3.37 crashes so).
 *
 * With Ports = n > 1 it listens on n consecutive ports from Local's: connections spread over
 * them land in the demultiplexer's entries of different local ports, which its linear scan
 * rejects on the port alone (RandomTcpSessions::SetSinkPorts spreads the sessions).
 */
class TcpSessionSink : public Application
{
  public:
    /// Counters.
    struct Counters
    {
        uint32_t accepted = 0;      //!< connections accepted
        uint32_t closed = 0;        //!< connections closed by their peer
        uint32_t failed = 0;        //!< connections ended by an error (reset, retries)
        uint64_t bytesReceived = 0; //!< data bytes read
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    TcpSessionSink();
    ~TcpSessionSink() override;

    /// \return the counters
    const Counters& GetCounters() const;

    /**
     * Rx trace: data read from a connection.
     * \param packet the data
     * \param socket the connection's socket
     */
    typedef void (*RxTracedCallback)(Ptr<const Packet> packet, Ptr<const Socket> socket);

  private:
    void StartApplication() override;
    void StopApplication() override;
    void DoDispose() override;

    /**
     * Read and count everything \p socket holds.
     * \param socket an accepted socket
     */
    void Read(Ptr<Socket> socket);

    /**
     * Read and count everything \p socket holds, \p readSize bytes per Recv.
     * \param socket an accepted socket
     * \param readSize bytes per Recv (> 0)
     */
    void ReadBy(Ptr<Socket> socket, uint32_t readSize);

    /**
     * A connection was accepted: read it and close it with its peer.
     * \param socket the accepted socket
     * \param from the peer's address
     */
    void Accepted(Ptr<Socket> socket, const Address& from);

    /**
     * The peer closed: close our side.
     * \param socket an accepted socket
     */
    void PeerClosed(Ptr<Socket> socket);

    Address m_local;                      //!< address and first port to listen on
    uint32_t m_ports;                     //!< number of consecutive ports to listen on
    uint32_t m_readSize;                  //!< bytes per Recv; 0: the connection's SegmentSize
    std::vector<Ptr<Socket>> m_listeners; //!< the listening sockets, one per port
    std::vector<Ptr<Socket>> m_accepted;  //!< every accepted socket
    TracedCallback<Ptr<const Packet>, Ptr<const Socket>> m_rxTrace; //!< data read
    Counters m_counters;                                            //!< counters
};

} // namespace ns3

#endif /* TCP_SESSION_SINK_H */
