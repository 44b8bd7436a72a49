/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RANDOM_TCP_SESSIONS_H
#define RANDOM_TCP_SESSIONS_H

#include "ns3/address.h"
#include "ns3/application-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/tcp-session-sink.h"
#include "ns3/tcp-session-source.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief TCP sessions between random sources and sinks at random times, as in Sundararajan et
 * al.'s CIOQ switch simulations: "each TCP session originates from a random source and
 * terminates at a random sink", lasting a random time.
 *
 * Each session draws, from four independent streams: its source (uniform over the sources),
 * its sink (uniform over the sinks, or over those of another index than its source's with
 * SetExcludeSameIndex, for sources and sinks that are the same hosts), its start (uniform in
 * [startFrom, startTo)) and its duration (uniform in [durationMin, durationMax]); it stops at
 * min(start + duration, end). Session k's values are the k-th draws of each stream, so with the
 * same streams the first n sessions of a larger draw are the n sessions of a smaller one
 * (common random numbers across loads).
 *
 * Install() runs them: one TcpSessionSource per source node holds that node's sessions (a
 * socket per session), one TcpSessionSink per sink node accepts them (and closes each
 * connection when its source does, so that finished sessions release their end points).
 * \code
 *   RandomTcpSessions sessions;
 *   sessions.SetDuration(Seconds(3), Seconds(13));
 *   sessions.SetStartWindow(Seconds(0), Seconds(100));
 *   sessions.SetEnd(Seconds(100));
 *   sessions.AssignStreams(100);
 *   sessions.Install(sessions.Draw(800, 4, 4), sources, sinks, sinkAddresses, 5000);
 * \endcode
 */
class RandomTcpSessions
{
  public:
    /// One drawn session.
    struct Session
    {
        uint32_t source; //!< index of the source
        uint32_t sink;   //!< index of the sink
        Time start;      //!< its start
        Time stop;       //!< its stop (> start)
    };

    RandomTcpSessions();

    /**
     * \param min shortest session (> 0)
     * \param max longest session (>= min)
     */
    void SetDuration(Time min, Time max);

    /**
     * \param from earliest start (>= 0)
     * \param to starts are drawn below this (> from)
     */
    void SetStartWindow(Time from, Time to);

    /**
     * \param end sessions still running then are stopped (> the start window's beginning)
     */
    void SetEnd(Time end);

    /**
     * \param exclude whether a session's sink never has its source's index (for sources and
     *        sinks that are the same hosts: no session to itself); default false
     */
    void SetExcludeSameIndex(bool exclude);

    /**
     * Spread the sessions over \p ports consecutive sink ports: session k of Install's list
     * connects to port + k mod \p ports, and every sink listens on all of them. Ports change
     * no header's size, so where no queue looks at them (FIFO, RED; not a flow-hashing queue
     * disc such as ns-3's default FqCoDel) the traffic is the same, packet for packet; only each
     * sink's end-point demultiplexer, whose linear scan for every arriving packet rejects other
     * ports' entries at once, gets cheaper. Default 1.
     * \param ports number of sink ports (1 .. 65535)
     */
    void SetSinkPorts(uint32_t ports);

    /**
     * Fix the random streams (four, from \p stream on).
     * \param stream first stream index
     * \return the number of streams used (4)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * Draw sessions.
     * \param count how many
     * \param sources number of sources (>= 1)
     * \param sinks number of sinks (>= 1; >= 2 with ExcludeSameIndex)
     * \return the sessions, in draw order
     */
    std::vector<Session> Draw(uint32_t count, uint32_t sources, uint32_t sinks) const;

    /**
     * Install the sessions: a TcpSessionSource on every source node with its sessions (running
     * from time 0 to the end), a TcpSessionSink on every sink node, listening on \p port (and
     * the following ports, see SetSinkPorts).
     * \param sessions what Draw returned
     * \param sources the source nodes, indexed as in the sessions
     * \param sinks the sink nodes, indexed as in the sessions
     * \param sinkAddresses per sink, the IP address it is reached at
     * \param port the sinks' (first) TCP port
     */
    void Install(const std::vector<Session>& sessions,
                 NodeContainer sources,
                 NodeContainer sinks,
                 const std::vector<Address>& sinkAddresses,
                 uint16_t port);

    /// \return the sources' applications, one per source node (after Install)
    const std::vector<Ptr<TcpSessionSource>>& GetSources() const;

    /// \return the sinks' applications, one per sink node (after Install)
    const std::vector<Ptr<TcpSessionSink>>& GetSinks() const;

    /// \return the sources' counters, summed
    TcpSessionSource::Counters GetCounters() const;

    /// \return bytes received by all sinks
    uint64_t GetTotalReceived() const;

  private:
    Time m_durationMin;                           //!< shortest session
    Time m_durationMax;                           //!< longest session
    Time m_startFrom;                             //!< earliest start
    Time m_startTo;                               //!< starts are below this
    Time m_end;                                   //!< sessions stop by then
    bool m_excludeSameIndex;                      //!< a sink never has its source's index
    uint32_t m_sinkPorts;                         //!< sessions spread over this many ports
    Ptr<UniformRandomVariable> m_sourceDraw;      //!< source host
    Ptr<UniformRandomVariable> m_sinkDraw;        //!< sink host among the others
    Ptr<UniformRandomVariable> m_startDraw;       //!< start
    Ptr<UniformRandomVariable> m_durationDraw;    //!< duration
    std::vector<Ptr<TcpSessionSource>> m_sources; //!< per node
    std::vector<Ptr<TcpSessionSink>> m_sinks;     //!< per node
};

} // namespace ns3

#endif /* RANDOM_TCP_SESSIONS_H */
