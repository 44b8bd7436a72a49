/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CIOQ_SWITCH_NET_DEVICE_H
#define CIOQ_SWITCH_NET_DEVICE_H

#include "cioq-fabric.h"
#include "cioq-forwarding-table.h"
#include "cioq-input-backlog.h"
#include "cioq-port-stats.h"
#include "cioq-voq-set.h"

#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-size.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

class Node;

/**
 * \ingroup qdisc-lab
 * \brief An N x N combined input/output queued (CIOQ) switch, installed on a node like
 * BridgeNetDevice: it owns N port devices, and hosts attached to the ports run IP over it
 * unchanged.
 *
 * A packet's path (port k is input k and output k):
 *  1. Input. A frame received on port i is forwarded, by MAC learning (as BridgeNetDevice) or by
 *     a static port map (by destination MAC or by IPv4 destination, the latter for
 *     point-to-point ports, whose frames carry no MAC addresses), to output j (or to every other
 *     port for broadcast and unknown destinations). It joins VOQ(i, j), or the single FIFO of
 *     input i in InputQueueing=Fifo mode, unless input i's buffer (InputBufferSize, shared by
 *     its VOQs, and VoqMaxSize per VOQ) is full: then it is dropped (DropTail, an "input" drop).
 *  2. Fabric, at speedup s = Speedup (1 <= s <= N), by FabricModel:
 *     - Paper (Sundararajan et al.): N^2 internal links (i, j) carry packets concurrently, each at
 *       s/N times the line rate; link (i, j) serves VOQ(i, j) in FIFO order.
 *     - Islip: a crossbar that carries at most one packet per input and per output at a time,
 *       at s times the line rate, matched by iSLIP (IslipIterations) whenever ports become free
 *       (asynchronous packet-mode scheduling: a packet crosses whole).
 *     In Fifo mode only the head of each input's FIFO may cross.
 *  3. Output. The packet is enqueued in output j's QueueDisc (FIFO, RED, CioqRedQueueDisc or any
 *     other), which drains to port j's device at line rate. A full output drops the packet (the
 *     queue disc's own drop, OutputFull=Drop, the paper) or is not offered packets until it has
 *     room, which keeps them in the VOQs (OutputFull=Backpressure).
 *
 * Output draining uses ns-3's traffic-control contract, as TrafficControlLayer does for a device
 * attached to IP: each output queue disc gets the port's NetDeviceQueueInterface and a send
 * callback to the port, and the port's transmission queue wakes QueueDisc::Run when the device
 * has room. Ports therefore need a NetDeviceQueueInterface (ns-3's point-to-point and CSMA
 * helpers aggregate one) and should have a 1-packet device queue, so that the queue disc holds
 * the backlog (CioqSwitchHelper sets this up).
 *
 * Each output queue disc has a CioqInputBacklog aggregated to it, which holds the sum of
 * VOQ(., j) in packets and bytes (packets waiting, not those crossing the fabric); queue discs
 * that want it (CioqRedQueueDisc) read it.
 *
 * The device is a facade, as BridgeNetDevice keeps its learning apart: it holds the attributes,
 * the trace sources, the counters and the output queue discs, and is the NetDevice the node
 * sees; a CioqForwardingTable chooses the outputs (step 1) and a CioqFabric (its CioqVoqSet,
 * an IslipArbiter and the transfer timing) runs steps 1-2, reporting back through callbacks.
 */
class CioqSwitchNetDevice : public NetDevice
{
  public:
    /// Fabric models (declared by CioqFabric).
    using FabricModel = CioqFabric::Model;
    /// N^2 concurrent internal links at s/N of the line rate (the paper's ns model)
    static constexpr FabricModel PAPER = CioqFabric::PAPER;
    /// crossbar, one packet per input and per output, s x line rate, iSLIP matching
    static constexpr FabricModel ISLIP = CioqFabric::ISLIP;

    /// Input queueing (declared by CioqVoqSet).
    using InputQueueing = CioqVoqSet::Queueing;
    /// one virtual output queue per output at each input
    static constexpr InputQueueing VOQ = CioqVoqSet::VOQ;
    /// one FIFO per input (head-of-line blocking)
    static constexpr InputQueueing FIFO = CioqVoqSet::FIFO;

    /// What a full output does (declared by CioqFabric).
    using OutputFull = CioqFabric::OutputFull;
    /// the output queue disc drops the packet (the paper)
    static constexpr OutputFull DROP = CioqFabric::DROP;
    /// the fabric holds packets back in the VOQs until the output has room
    static constexpr OutputFull BACKPRESSURE = CioqFabric::BACKPRESSURE;

    /// How outputs are chosen.
    enum Forwarding
    {
        LEARNING, //!< MAC learning, flooding unknown destinations, as BridgeNetDevice
        STATIC,   //!< a static port map (AddStaticRoute); unknown unicast is dropped
    };

    /// The smallest Mtu: IPv4's minimum link MTU (RFC 791), bytes.
    static constexpr uint16_t MIN_MTU = 68;
    /// Input drop reason: the input buffer (or the VOQ) is full.
    static constexpr const char* INPUT_FULL_DROP = "Input buffer full";
    /// Fabric drop reason: no output for a unicast destination (Forwarding=Static).
    static constexpr const char* NO_ROUTE_DROP = "No route";
    /// Fabric drop reason: the only output is the port the frame came in on.
    static constexpr const char* SAME_PORT_DROP = "Same port";

    /// Counters of one port, as input and as output, and its time averages (CioqPortStats).
    using PortStats = CioqPortStats;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    CioqSwitchNetDevice();
    ~CioqSwitchNetDevice() override;

    CioqSwitchNetDevice(const CioqSwitchNetDevice&) = delete;            //!< no copies
    CioqSwitchNetDevice& operator=(const CioqSwitchNetDevice&) = delete; //!< no copies

    /**
     * Add a port. The device must be on the switch's node, have no IP address, and have a
     * NetDeviceQueueInterface. Ports are numbered in the order they are added.
     * \param port the port device
     * \return its index
     */
    uint32_t AddPort(Ptr<NetDevice> port);

    /// \return N, the number of ports
    uint32_t GetNPorts() const;

    /**
     * \param port a port index
     * \return its device
     */
    Ptr<NetDevice> GetPort(uint32_t port) const;

    /**
     * Set the queue disc that port \p port drains (before the switch is initialized). Ports
     * without one get a FifoQueueDisc of 20 packets (the paper's output buffer).
     * \param port a port index
     * \param qdisc the queue disc, not installed anywhere else
     */
    void SetOutputQueueDisc(uint32_t port, Ptr<QueueDisc> qdisc);

    /**
     * \param port a port index
     * \return its output queue disc (null before initialization if none was set)
     */
    Ptr<QueueDisc> GetOutputQueueDisc(uint32_t port) const;

    /**
     * Static port map entry (Forwarding=Static): frames to \p address leave by \p port.
     * \param address a destination MAC address
     * \param port a port index
     */
    void AddStaticRoute(Mac48Address address, uint32_t port);

    /**
     * Static port map entry (Forwarding=Static): IPv4 packets to \p address leave by \p port.
     * Used when the frame's destination MAC is not in the map (always the case with
     * point-to-point ports, whose frames carry no MAC addresses).
     * \param address a destination IPv4 address
     * \param port a port index
     */
    void AddStaticRoute(Ipv4Address address, uint32_t port);

    /**
     * \param input an input
     * \param output an output
     * \return packets waiting in VOQ(input, output) (in Fifo mode: in input's FIFO for output)
     */
    uint32_t GetVoqPackets(uint32_t input, uint32_t output) const;

    /**
     * \param input an input
     * \return packets waiting in its buffer
     */
    uint32_t GetInputPackets(uint32_t input) const;

    /**
     * \param input an input
     * \return bytes waiting in its buffer
     */
    uint64_t GetInputBytes(uint32_t input) const;

    /**
     * \param output an output
     * \return the input-side backlog reported to its queue disc (sum of VOQ(., output))
     */
    Ptr<const CioqInputBacklog> GetInputBacklog(uint32_t output) const;

    /// \return packets crossing the fabric now
    uint32_t GetPacketsInFabric() const;

    /**
     * \param port a port
     * \return its counters
     */
    const PortStats& GetPortStats(uint32_t port) const;

    /**
     * \param input an input
     * \return its time-averaged buffer occupancy in packets since the last ResetStatistics
     */
    double GetAverageInputPackets(uint32_t input) const;

    /**
     * \param output an output
     * \return the time-averaged packets in its queue disc since the last ResetStatistics
     */
    double GetAverageOutputPackets(uint32_t output) const;

    /// Zero every counter and restart the time averages (e.g. after a warm-up).
    void ResetStatistics();

    /// \return the switch's speedup s
    double GetSpeedup() const;

    /// \return the line rate of the ports
    DataRate GetLineRate() const;

    /**
     * Input occupancy: (input, packets, bytes), on every change.
     */
    typedef void (*InputOccupancyTracedCallback)(uint32_t input, uint32_t packets, uint64_t bytes);
    /**
     * VOQ occupancy: (input, output, packets), on every change.
     */
    typedef void (*VoqOccupancyTracedCallback)(uint32_t input, uint32_t output, uint32_t packets);
    /**
     * Output queue length: (output, packets in its queue disc), on every change.
     */
    typedef void (*OutputQueueTracedCallback)(uint32_t output, uint32_t packets);
    /**
     * A drop in the fabric (no output): (packet, input or N for the switch's own, reason).
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, uint32_t input, const char* why);
    /**
     * A drop at a full input: (item, input, reason).
     */
    typedef void (*InputDropTracedCallback)(Ptr<const QueueDiscItem> item,
                                            uint32_t input,
                                            const char* why);
    /**
     * A drop by an output queue disc: (item, output, reason).
     */
    typedef void (*OutputDropTracedCallback)(Ptr<const QueueDiscItem> item,
                                             uint32_t output,
                                             const char* why);
    /**
     * A fabric transfer: (item, input, output, time it waited in its VOQ).
     */
    typedef void (*TransferTracedCallback)(Ptr<const QueueDiscItem> item,
                                           uint32_t input,
                                           uint32_t output,
                                           Time waited);

    /**
     * A packet reached its output's queue disc: (item, input, output).
     */
    typedef void (*SwitchedTracedCallback)(Ptr<const QueueDiscItem> item,
                                           uint32_t input,
                                           uint32_t output);

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoInitialize() override;
    void DoDispose() override;

  private:
    /**
     * The TypeId's parts, each adding to \p tid (GetTypeId chains them).
     * \param tid the TypeId so far
     * \return it with the part's attributes or trace sources
     */
    static TypeId AddFabricAttributes(TypeId tid);
    /// \copydoc AddFabricAttributes
    static TypeId AddBufferAttributes(TypeId tid);
    /// \copydoc AddFabricAttributes
    static TypeId AddPortAttributes(TypeId tid);
    /// \copydoc AddFabricAttributes
    static TypeId AddTraceSources(TypeId tid);

    /// One port: its device, its output queue disc, its statistics.
    struct Port
    {
        Ptr<NetDevice> device;         //!< the port device
        Ptr<QueueDisc> qdisc;          //!< output queue disc
        Ptr<CioqInputBacklog> backlog; //!< sum of VOQ(., this output)
        CioqPortStats stats;           //!< counters and time averages
    };

    /**
     * Validate the configuration, with messages naming the attribute; abort if invalid.
     */
    void CheckConfig();

    /**
     * \param port a port number
     * \param caller the public method asking, for the message
     * \return the port; stops the program, naming \p caller and the range, if there is none
     */
    const Port& PortAt(uint32_t port, const char* caller) const;

    /**
     * Set up output \p j: default queue disc, backlog object, draining, traces.
     * \param j the output
     */
    void SetUpOutput(uint32_t j);

    /**
     * A frame arrived at a port (registered as a promiscuous protocol handler).
     * \param input the port index (bound)
     * \param device the port device
     * \param packet the frame's payload
     * \param protocol its protocol number
     * \param source its source address
     * \param destination its destination address
     * \param packetType its type
     */
    void ReceiveFromPort(uint32_t input,
                         Ptr<NetDevice> device,
                         Ptr<const Packet> packet,
                         uint16_t protocol,
                         const Address& source,
                         const Address& destination,
                         PacketType packetType);

    /**
     * Choose the outputs of a frame into m_outputs (empty: none), by the forwarding table.
     * \param input the arrival port, or N for the switch's own stack
     * \param packet the frame's payload
     * \param protocol its protocol number
     * \param destination its destination MAC
     * \param flood whether the frame goes to every port but \p input
     */
    void Lookup(uint32_t input,
                Ptr<const Packet> packet,
                uint16_t protocol,
                Mac48Address destination,
                bool flood);

    /**
     * Wrap a packet as a queue disc item (IPv4/IPv6 items carry their header apart, as the IP
     * layers hand them to traffic control, so that queue discs can classify and mark them).
     * \param packet the payload (copied)
     * \param protocol its protocol number
     * \param source its source MAC
     * \param destination its destination MAC
     * \return the item
     */
    Ptr<QueueDiscItem> MakeItem(Ptr<const Packet> packet,
                                uint16_t protocol,
                                Mac48Address source,
                                Mac48Address destination) const;

    /**
     * Fabric callback: input i's buffer refused a copy.
     * \param item the packet
     * \param i the input
     */
    void InputDropped(Ptr<const QueueDiscItem> item, uint32_t i);

    /**
     * Fabric callback: a copy joined input i's buffer for output j.
     * \param i the input
     * \param j the output
     */
    void InputEnqueued(uint32_t i, uint32_t j);

    /**
     * Fabric callback: a transfer from input i to output j started.
     * \param item the packet
     * \param i the input
     * \param j the output
     * \param waited the time it waited at the input
     */
    void TransferStarted(Ptr<const QueueDiscItem> item, uint32_t i, uint32_t j, Time waited);

    /**
     * Fabric callback: a transfer ended; hand the packet to output j.
     * \param item the packet
     * \param i the input
     * \param j the output
     */
    void Delivered(Ptr<QueueDiscItem> item, uint32_t i, uint32_t j);

    /**
     * Enqueue in output j's queue disc and let it drain.
     * \param j the output
     * \param item the packet
     */
    void EnqueueOutput(uint32_t j, Ptr<QueueDiscItem> item);

    /**
     * Send callback of output j's queue disc.
     * \param j the output
     * \param item the packet, its header added
     */
    void SendToPort(uint32_t j, Ptr<QueueDiscItem> item);

    /**
     * Trace sink: output j's queue disc length changed.
     * \param j the output (bound)
     * \param oldValue previous packets
     * \param newValue current packets
     */
    void OutputLengthChanged(uint32_t j, uint32_t oldValue, uint32_t newValue);

    /**
     * Trace sink: output j's queue disc dropped a packet.
     * \param j the output (bound)
     * \param item the packet
     * \param reason why
     */
    void OutputDropped(uint32_t j, Ptr<const QueueDiscItem> item, const char* reason);

    /**
     * Record a change of input i's occupancy in the time average and the traces.
     * \param i the input
     * \param j the output whose VOQ changed
     */
    void InputChanged(uint32_t i, uint32_t j);

    // Attributes
    double m_speedup;              //!< s
    FabricModel m_fabricModel;     //!< fabric model
    InputQueueing m_inputQueueing; //!< VOQs or FIFO
    OutputFull m_outputFull;       //!< drop or backpressure
    Forwarding m_forwarding;       //!< learning or static
    QueueSize m_inputBufferSize;   //!< per-input buffer limit
    QueueSize m_voqMaxSize;        //!< per-VOQ limit (0 = none)
    uint32_t m_islipIterations;    //!< iSLIP iterations per match
    DataRate m_lineRate;           //!< line rate (0 = from the ports)
    uint32_t m_frameOverhead;      //!< link-layer bytes per packet on the ports' links
    Time m_expirationTime;         //!< learned state lifetime
    uint16_t m_mtu;                //!< MTU

    // State
    Ptr<Node> m_node;                                      //!< the node
    uint32_t m_ifIndex;                                    //!< interface index
    Mac48Address m_address;                                //!< the switch's own address
    NetDevice::ReceiveCallback m_rxCallback;               //!< receive callback
    NetDevice::PromiscReceiveCallback m_promiscRxCallback; //!< promiscuous receive callback
    std::vector<Port> m_ports;                             //!< the ports
    CioqForwardingTable m_table;                           //!< learned state, static port map
    CioqFabric m_fabric;                                   //!< VOQs, matching, transfers
    std::vector<uint32_t> m_outputs;                       //!< outputs found by Lookup
    bool m_preserveSource;                                 //!< every port supports SendFrom
    Time m_statsSince;                                     //!< start of the time averages

    // Traces
    TracedCallback<uint32_t, uint32_t, uint64_t> m_inputOccupancyTrace; //!< input occupancy
    TracedCallback<uint32_t, uint32_t, uint32_t> m_voqOccupancyTrace;   //!< VOQ occupancy
    TracedCallback<uint32_t, uint32_t> m_outputQueueTrace;              //!< output length
    TracedCallback<Ptr<const QueueDiscItem>, uint32_t, const char*> m_inputDropTrace; //!< input
    TracedCallback<Ptr<const Packet>, uint32_t, const char*> m_fabricDropTrace; //!< fabric drops
    TracedCallback<Ptr<const QueueDiscItem>, uint32_t, const char*> m_outputDropTrace;  //!< output
    TracedCallback<Ptr<const QueueDiscItem>, uint32_t, uint32_t, Time> m_transferTrace; //!< start
    TracedCallback<Ptr<const QueueDiscItem>, uint32_t, uint32_t> m_switchedTrace; //!< delivered
};

} // namespace ns3

#endif /* CIOQ_SWITCH_NET_DEVICE_H */
