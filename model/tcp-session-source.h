/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_SESSION_SOURCE_H
#define TCP_SESSION_SOURCE_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class Socket;

/**
 * \ingroup qdisc-lab
 * \brief Runs many timed bulk-transfer TCP sessions from one node: each session opens its own
 * socket at its start time, sends as fast as TCP lets it, and stops sending new data at its stop
 * time, like ns-2's FTP over a TCP agent started and stopped on schedule.
 *
 * One application serves every session of its node, so thousands of sessions cost a socket
 * each (whose end point is released when its connection closes) and a few bytes of
 * bookkeeping, not an application object each.
 *
 * Stopping: ns-3's TcpSocketBase::Close() sends whatever the application already wrote before
 * the FIN, so a BulkSendApplication that keeps the send buffer full goes on sending a whole
 * buffer after its stop time. This application instead keeps only UnsentSegments segments
 * written beyond what TCP has sent (it refills on the socket's DataSent notification, which
 * reports new data only), so at the stop time at most that much is left to send besides the
 * data in flight, which TCP delivers (retransmitting as needed), as ns-2's "$ftp stop" leaves
 * the agent's outstanding packets to complete.
 *
 * Sessions are added before the simulation starts; their times are absolute simulation times
 * and must lie within the application's own start and stop times to be run.
 */
class TcpSessionSource : public Application
{
  public:
    /// One session.
    struct Session
    {
        Time start;   //!< when it opens its socket and starts sending
        Time stop;    //!< when it stops sending new data and closes (> start)
        Address peer; //!< the sink's address and port
    };

    /// Counters over the application's sessions.
    struct Counters
    {
        uint32_t started = 0;      //!< sessions that opened their socket
        uint32_t connected = 0;    //!< sessions whose connection was established
        uint32_t failed = 0;       //!< sessions whose connection attempt failed
        uint32_t stopped = 0;      //!< sessions stopped at their stop time
        uint32_t closed = 0;       //!< sessions whose socket has reached CLOSED
        uint64_t bytesWritten = 0; //!< bytes handed to the sockets
        uint64_t bytesSent = 0;    //!< new bytes the sockets sent (retransmissions excluded)
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    TcpSessionSource();
    ~TcpSessionSource() override;

    /**
     * Add a session (before the simulation starts).
     * \param session the session; its stop must be after its start
     */
    void AddSession(const Session& session);

    /// \return the number of sessions added
    uint32_t GetNSessions() const;

    /// \return the counters
    const Counters& GetCounters() const;

  private:
    /// A session's run-time state.
    struct State
    {
        Session session;    //!< its definition
        Ptr<Socket> socket; //!< its socket once started, held until disposal (see TcpSessionSink)
        EventId startEvent; //!< its start
        EventId stopEvent;  //!< its stop
        uint32_t segmentSize = 0; //!< its socket's segment size, bytes
        uint32_t unsent = 0;      //!< bytes written and not yet sent
        bool sending = false;     //!< between start and stop
    };

    void StartApplication() override;
    void StopApplication() override;
    void DoDispose() override;

    /**
     * Open session \p index's socket, connect it and write its first segments.
     * \param index the session
     */
    void StartSession(uint32_t index);

    /**
     * Stop writing to session \p index's socket and close it.
     * \param index the session
     */
    void StopSession(uint32_t index);

    /**
     * Write to session \p index's socket until UnsentSegments segments are unsent.
     * \param index the session
     */
    void Refill(uint32_t index);

    /**
     * New bytes of session \p index left its socket (its DataSent callback).
     * \param index the session
     * \param bytes new bytes sent
     */
    void DataSent(uint32_t index, uint32_t bytes);

    uint32_t m_unsentSegments;     //!< segments kept written beyond what TCP sent
    std::vector<State> m_sessions; //!< the sessions
    Counters m_counters;           //!< counters
};

} // namespace ns3

#endif /* TCP_SESSION_SOURCE_H */
