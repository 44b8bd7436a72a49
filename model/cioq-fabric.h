/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CIOQ_FABRIC_H
#define CIOQ_FABRIC_H

#include "cioq-input-backlog.h"
#include "cioq-voq-set.h"
#include "islip-arbiter.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-size.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup qdisc-lab
 * \brief The switching fabric of a CioqSwitchNetDevice: the input buffers (a CioqVoqSet), the
 * matching of inputs to outputs and the timing of the transfers across.
 *
 * By its model:
 *  - Paper (Sundararajan et al.'s ns model): N^2 internal links (i, j) carry packets
 *    concurrently, each at s/N times the line rate; link (i, j) serves VOQ(i, j) in FIFO order
 *    (in Fifo mode, input i sends one packet at a time, its FIFO's head). With Backpressure, an
 *    output that regains room is offered to the inputs in round-robin order.
 *  - Islip: a crossbar that carries at most one packet per input and per output at a time, at
 *    s times the line rate, matched by an IslipArbiter at the end of every instant in which a
 *    port became free or a packet arrived at an idle pair (a packet crosses whole).
 *
 * A transfer of a packet of b bytes takes (b + FrameOverhead) * 8 / rate. With OutputFull =
 * Drop every packet that crosses is delivered; with Backpressure a packet crosses only while its
 * output's queue disc has room for it, counting the packets already crossing towards it.
 *
 * The fabric reads the output queue discs' sizes and updates each output's CioqInputBacklog; it
 * reports what happens through callbacks that its owner (the switch, which keeps the counters
 * and trace sources) sets: a refused packet, an admitted one, a transfer's start, a delivery.
 * The delivery callback must enqueue the packet in the output's queue disc.
 */
class CioqFabric
{
  public:
    /// Fabric models.
    enum Model
    {
        PAPER, //!< N^2 concurrent internal links at s/N of the line rate (the paper's ns model)
        ISLIP, //!< crossbar, one packet per input and per output, s x line rate, iSLIP matching
    };

    /// What a full output does.
    enum OutputFull
    {
        DROP,         //!< the output queue disc drops the packet (the paper)
        BACKPRESSURE, //!< the fabric holds packets back in the VOQs until the output has room
    };

    /// The configuration, fixed from Reset on.
    struct Config
    {
        uint32_t ports = 0;                              //!< N
        Model model = PAPER;                             //!< fabric model
        CioqVoqSet::Queueing queueing = CioqVoqSet::VOQ; //!< VOQs or one FIFO per input
        OutputFull outputFull = DROP;                    //!< drop or backpressure
        QueueSize inputBufferSize;                       //!< per-input buffer limit
        QueueSize voqMaxSize;                            //!< per-VOQ limit (0 = none)
        uint32_t islipIterations = 1;                    //!< iSLIP iterations per match
        DataRate rate;                                   //!< rate of one transfer
        uint32_t frameOverhead = 0;                      //!< link-layer bytes per packet
    };

    /// A refused packet: (item, input).
    using DropCallback = Callback<void, Ptr<const QueueDiscItem>, uint32_t>;
    /// A change of VOQ(input, output) by an arrival: (input, output).
    using EnqueueCallback = Callback<void, uint32_t, uint32_t>;
    /// A transfer starts: (item, input, output, time it waited at the input).
    using TransferCallback = Callback<void, Ptr<const QueueDiscItem>, uint32_t, uint32_t, Time>;
    /// A transfer ended: (item, input, output); enqueue the item in the output's queue disc.
    using DeliverCallback = Callback<void, Ptr<QueueDiscItem>, uint32_t, uint32_t>;

    CioqFabric();

    /**
     * Empty the fabric and configure it; then give it each output with SetOutput.
     * \param config the configuration
     */
    void Reset(const Config& config);

    /**
     * \param j an output
     * \param qdisc its queue disc (its sizes decide Backpressure)
     * \param backlog the backlog object to keep up to date with VOQ(., j)
     */
    void SetOutput(uint32_t j, Ptr<QueueDisc> qdisc, Ptr<CioqInputBacklog> backlog);

    /**
     * Set the largest packet (Islip with Backpressure matches an output only if it has room
     * for a packet of this size).
     * \param bytes the MTU, bytes
     */
    void SetMtu(uint16_t bytes);

    /**
     * Set the callbacks to the owner.
     * \param drop a packet refused by a full input
     * \param enqueue a packet joined an input's buffer
     * \param transfer a transfer started
     * \param deliver a transfer ended
     */
    void SetCallbacks(DropCallback drop,
                      EnqueueCallback enqueue,
                      TransferCallback transfer,
                      DeliverCallback deliver);

    /// Drop the references to the output queue discs and backlogs.
    void Clear();

    /**
     * A packet for output j arrived at input i: queue it (or refuse it, when the input's buffer
     * or the VOQ is full) and start what can start.
     * \param i the input
     * \param j the output
     * \param item the packet
     */
    void Enqueue(uint32_t i, uint32_t j, Ptr<QueueDiscItem> item);

    /**
     * Output j's queue disc has room again (Backpressure): restart transfers towards it.
     * \param j the output
     */
    void OutputRoom(uint32_t j);

    /// \return the input buffers
    const CioqVoqSet& GetVoqs() const;

    /// \return packets crossing the fabric now
    uint32_t GetPacketsInFabric() const;

    /**
     * \param bytes the size of a packet (as its queue disc counts it)
     * \return the time it takes to cross the fabric
     */
    Time TransferTime(uint32_t bytes) const;

  private:
    /// The fabric's state of one port, as input and as output.
    struct Port
    {
        Ptr<QueueDisc> qdisc;          //!< output queue disc
        Ptr<CioqInputBacklog> backlog; //!< sum of VOQ(., this output)
        bool inputBusy = false;        //!< Islip / Fifo: this input is transferring
        bool outputBusy = false;       //!< Islip: this output is receiving
        uint32_t inFlightPackets = 0;  //!< packets crossing toward this output
        uint64_t inFlightBytes = 0;    //!< bytes crossing toward this output
        uint32_t rrNext = 0;           //!< Paper, Backpressure: next input to serve
    };

    /**
     * Paper fabric: start transfers on link (i, j) (VOQ) or from input i's head (FIFO).
     * \param i the input
     * \param j the output (VOQ mode)
     * \return whether a transfer started
     */
    bool PaperTryStart(uint32_t i, uint32_t j);

    /// Islip fabric: run a match at the end of this instant (once, however many ask).
    void ScheduleMatch();

    /// Islip fabric: match free inputs to free outputs and start their transfers.
    void Match();

    /**
     * Start moving the head of input i's queue for output j across the fabric.
     * \param i the input
     * \param j the output
     */
    void StartTransfer(uint32_t i, uint32_t j);

    /**
     * A transfer ended: hand the packet to output j.
     * \param i the input
     * \param j the output
     * \param item the packet
     */
    void FinishTransfer(uint32_t i, uint32_t j, Ptr<QueueDiscItem> item);

    /**
     * \param j an output
     * \param bytes size of a packet
     * \return whether output j may be offered a packet of \p bytes now
     */
    bool OutputHasRoom(uint32_t j, uint32_t bytes) const;

    /**
     * Islip, Fifo: point input i's requests at the output of its head packet.
     * \param i the input
     */
    void UpdateFifoRequest(uint32_t i);

    Config m_config;                   //!< the configuration
    uint16_t m_mtu;                    //!< the largest packet, bytes
    CioqVoqSet m_voqs;                 //!< the input buffers
    std::vector<Port> m_ports;         //!< per port
    std::vector<uint8_t> m_linkBusy;   //!< Paper, VOQ: internal link (i, j) busy, N*N
    std::vector<uint8_t> m_requests;   //!< Islip: request(i, j), N*N
    std::vector<uint8_t> m_inputFree;  //!< Islip: scratch, inputs free to match
    std::vector<uint8_t> m_outputFree; //!< Islip: scratch, outputs free to match
    IslipArbiter m_arbiter;            //!< Islip: the arbiter
    bool m_matchPending;               //!< Islip: a match is scheduled for this instant
    uint32_t m_inFabric;               //!< packets crossing the fabric
    DropCallback m_drop;               //!< owner: a packet refused
    EnqueueCallback m_enqueue;         //!< owner: a packet admitted
    TransferCallback m_transfer;       //!< owner: a transfer started
    DeliverCallback m_deliver;         //!< owner: a transfer ended
};

} // namespace ns3

#endif /* CIOQ_FABRIC_H */
