/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RANDOM_PACKET_SOURCE_H
#define RANDOM_PACKET_SOURCE_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/socket.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief A UDP source whose packet sizes (and gaps) are random, in one of three modes:
 *
 *  - SetInterval: always on, the gap between two packets drawn per packet;
 *  - SetOnOff: on and off periods of random lengths (exponential, Pareto, ...), sending at a
 *    rate while on, as ns-2's Application/Traffic/Exponential and /Pareto;
 *  - SetConstantRate: always on at a rate (CBR), each packet followed by its own transmission
 *    time at that rate, so the rate holds whatever the sizes.
 *
 * ns-3's OnOffApplication has one fixed packet size; this source draws one per packet. Every
 * packet starts with a SeqTsHeader (sequence number, send time), so a sink can measure delay
 * and losses. Packet sizes are IPv4 packet sizes: the UDP payload is the size minus 28 bytes
 * (IPv4 and UDP headers), and a size below 28 bytes plus the SeqTsHeader stops the program.
 */
class RandomPacketSource : public Application
{
  public:
    /// Bytes of the IPv4 and UDP headers in front of the payload.
    static constexpr uint32_t IP_UDP_HEADERS = 28;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RandomPacketSource();
    ~RandomPacketSource() override;

    /**
     * Packet sizes for Setup(): uniform over the integers in [min, max], the floor of a uniform
     * real in [min, max + 1); the constant \p min if min == max.
     * \param min the smallest IPv4 packet size in bytes
     * \param max the largest, >= min
     * \param stream the random stream of the draws (fixed streams give every configuration the
     *        same traffic for a given RngRun)
     * \return the size variable
     */
    static Ptr<RandomVariableStream> UniformSizes(uint32_t min, uint32_t max, int64_t stream);

    /**
     * On or off period lengths for SetOnOff(), exponential (ns-2's
     * Application/Traffic/Exponential).
     * \param mean the mean length in seconds, > 0
     * \param stream the random stream of the draws
     * \return the period variable
     */
    static Ptr<RandomVariableStream> ExponentialPeriods(double mean, int64_t stream);

    /**
     * On or off period lengths for SetOnOff(), Pareto with a given mean (ns-2's
     * Application/Traffic/Pareto: scale = mean (shape - 1) / shape).
     * \param mean the mean length in seconds, > 0
     * \param shape the shape, > 1 (a finite mean), such that the scale (the shortest period)
     *        is at least MIN_PARETO_SCALE
     * \param stream the random stream of the draws
     * \return the period variable
     */
    static Ptr<RandomVariableStream> ParetoPeriods(double mean, double shape, int64_t stream);

    /// The shortest Pareto scale ParetoPeriods takes, seconds (1 us).
    static constexpr double MIN_PARETO_SCALE = 1e-6;

    /**
     * \param peer the sink's address and port
     * \param size IPv4 packet size in bytes, drawn per packet (rounded down)
     */
    void Setup(const Address& peer, Ptr<RandomVariableStream> size);

    /**
     * Always on: the gap between two packets is drawn from \p interval (seconds).
     * \param interval the inter-arrival time in seconds
     */
    void SetInterval(Ptr<RandomVariableStream> interval);

    /**
     * On/off: alternate on periods (seconds drawn from \p on) and off periods (from \p off),
     * starting with an on period; while on, each packet is followed by a gap of its size at
     * \p rate.
     * \param rate the sending rate while on, > 0
     * \param on on period length in seconds
     * \param off off period length in seconds
     */
    void SetOnOff(DataRate rate, Ptr<RandomVariableStream> on, Ptr<RandomVariableStream> off);

    /**
     * Always on at \p rate: each packet is followed by a gap of its size at that rate.
     * \param rate the sending rate, > 0
     */
    void SetConstantRate(DataRate rate);

    /**
     * \param tos the IPv4 type-of-service byte of every packet (the DSCP is its upper six
     *        bits: AF11 is 0x28); default 0
     */
    void SetTos(uint8_t tos);

    /**
     * \param from packets sent from this time on are counted by GetMeasuredSent() and
     *        GetMeasuredSentBytes()
     */
    void SetMeasurementStart(Time from);

    /// \return packets sent since the measurement start
    uint64_t GetMeasuredSent() const;

    /// \return IPv4 bytes sent since the measurement start
    uint64_t GetMeasuredSentBytes() const;

  private:
    /// How the source paces its packets.
    enum Mode
    {
        NONE,     //!< not set up
        INTERVAL, //!< random gaps
        ON_OFF,   //!< rate while on, random on and off periods
        CONSTANT, //!< constant rate
    };

    void StartApplication() override;
    void StopApplication() override;
    void DoDispose() override;

    /// Begin an on period and send its first packet.
    void StartOn();

    /// Send one packet and schedule the next (or the next on period).
    void SendPacket();

    Address m_peer;                       //!< sink address
    Ptr<RandomVariableStream> m_size;     //!< IPv4 packet size, bytes
    Mode m_mode;                          //!< pacing mode
    Ptr<RandomVariableStream> m_interval; //!< INTERVAL: inter-arrival time, seconds
    DataRate m_rate;                      //!< ON_OFF: rate while on; CONSTANT: the rate
    Ptr<RandomVariableStream> m_on;       //!< ON_OFF: on period, seconds
    Ptr<RandomVariableStream> m_off;      //!< ON_OFF: off period, seconds
    Ptr<Socket> m_socket;                 //!< the UDP socket
    uint8_t m_tos;                        //!< the packets' type-of-service byte
    EventId m_event;                      //!< next send or next on period
    Time m_onUntil;                       //!< ON_OFF: end of the current on period
    uint32_t m_seq;                       //!< next sequence number
    Time m_measureFrom;                   //!< start of the measurement interval
    uint64_t m_measuredSent;              //!< packets sent since m_measureFrom
    uint64_t m_measuredBytes;             //!< IPv4 bytes sent since m_measureFrom
};

} // namespace ns3

#endif /* RANDOM_PACKET_SOURCE_H */
