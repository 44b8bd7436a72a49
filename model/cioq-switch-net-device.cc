/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cioq-switch-net-device.h"

#include "cioq-frame-item.h"
#include "cioq-source-tag.h"
#include "qdisc-lab-compat.h"
#include "qdisc-lab-config.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/channel.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fifo-queue-disc.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv6-header.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/ipv6-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CioqSwitchNetDevice");

NS_OBJECT_ENSURE_REGISTERED(CioqSwitchNetDevice);

TypeId
CioqSwitchNetDevice::AddFabricAttributes(TypeId tid)
{
    // How the fabric moves packets, and what it does when an output is full.
    return tid
        .AddAttribute("Speedup",
                      "Switch speedup s: the fabric moves packets s times faster than the "
                      "line rate (Islip: per transfer; Paper: s/N per internal link). "
                      "Range [1, N], N = number of ports.",
                      DoubleValue(1.0),
                      MakeDoubleAccessor(&CioqSwitchNetDevice::m_speedup),
                      MakeDoubleChecker<double>())
        .AddAttribute("FabricModel",
                      "Paper: all N^2 internal links carry packets concurrently, each at s/N "
                      "of the line rate (Sundararajan et al.'s ns model). Islip: at most one "
                      "packet per input and per output at a time, at s times the line rate, "
                      "matched by iSLIP.",
                      EnumValue(CioqSwitchNetDevice::PAPER),
                      QDISC_LAB_ENUM_ACCESSOR(CioqSwitchNetDevice::FabricModel,
                                              &CioqSwitchNetDevice::m_fabricModel),
                      MakeEnumChecker(CioqSwitchNetDevice::PAPER,
                                      "Paper",
                                      CioqSwitchNetDevice::ISLIP,
                                      "Islip"))
        .AddAttribute(
            "InputQueueing",
            "Voq: one virtual output queue per output at each input. Fifo: a "
            "single FIFO per input (head-of-line blocking), for comparison.",
            EnumValue(CioqSwitchNetDevice::VOQ),
            QDISC_LAB_ENUM_ACCESSOR(CioqSwitchNetDevice::InputQueueing,
                                    &CioqSwitchNetDevice::m_inputQueueing),
            MakeEnumChecker(CioqSwitchNetDevice::VOQ, "Voq", CioqSwitchNetDevice::FIFO, "Fifo"))
        .AddAttribute("OutputFull",
                      "Drop: a full output queue disc drops what the fabric delivers (the "
                      "paper). Backpressure: the fabric offers an output a packet only when "
                      "its queue disc has room (counting packets already crossing), so "
                      "packets wait in the VOQs; needs a queue disc with a size limit.",
                      EnumValue(CioqSwitchNetDevice::DROP),
                      QDISC_LAB_ENUM_ACCESSOR(CioqSwitchNetDevice::OutputFull,
                                              &CioqSwitchNetDevice::m_outputFull),
                      MakeEnumChecker(CioqSwitchNetDevice::DROP,
                                      "Drop",
                                      CioqSwitchNetDevice::BACKPRESSURE,
                                      "Backpressure"))
        .AddAttribute("Forwarding",
                      "Learning: MAC learning, flooding unknown destinations, as "
                      "BridgeNetDevice (needs ports whose frames carry MAC addresses, e.g. "
                      "CSMA). Static: the port map of AddStaticRoute, by destination MAC "
                      "or IPv4 address; unknown unicast is dropped.",
                      EnumValue(CioqSwitchNetDevice::LEARNING),
                      QDISC_LAB_ENUM_ACCESSOR(CioqSwitchNetDevice::Forwarding,
                                              &CioqSwitchNetDevice::m_forwarding),
                      MakeEnumChecker(CioqSwitchNetDevice::LEARNING,
                                      "Learning",
                                      CioqSwitchNetDevice::STATIC,
                                      "Static"));
}

TypeId
CioqSwitchNetDevice::AddBufferAttributes(TypeId tid)
{
    // The input buffers and their virtual output queues.
    return tid
        .AddAttribute("InputBufferSize",
                      "Buffer of each input, shared by its VOQs, in packets or bytes; "
                      "DropTail. > 0. Default 20 packets (the paper's input buffer).",
                      QueueSizeValue(QueueSize("20p")),
                      MakeQueueSizeAccessor(&CioqSwitchNetDevice::m_inputBufferSize),
                      MakeQueueSizeChecker())
        .AddAttribute("VoqMaxSize",
                      "Limit of each single VOQ, in packets or bytes; 0 = none (only "
                      "InputBufferSize applies). Setting 20p and a large InputBufferSize "
                      "gives one 20-packet queue per internal link, as an ns-2 link queue. With "
                      "InputQueueing = Fifo it caps the packets for each output inside an "
                      "input's FIFO (a warning says so).",
                      QueueSizeValue(QueueSize("0p")),
                      MakeQueueSizeAccessor(&CioqSwitchNetDevice::m_voqMaxSize),
                      MakeQueueSizeChecker())
        .AddAttribute("IslipIterations",
                      "iSLIP iterations per match (FabricModel=Islip), >= 1; more than N act as N.",
                      UintegerValue(4),
                      MakeUintegerAccessor(&CioqSwitchNetDevice::m_islipIterations),
                      MakeUintegerChecker<uint32_t>(1));
}

TypeId
CioqSwitchNetDevice::AddPortAttributes(TypeId tid)
{
    // What the switch reads of its ports, and the MAC-level settings.
    return tid
        .AddAttribute("LineRate",
                      "Line rate of the ports, bit/s; 0 = read from the ports' DataRate "
                      "(their own or their channel's), which must all be equal.",
                      DataRateValue(DataRate(0)),
                      MakeDataRateAccessor(&CioqSwitchNetDevice::m_lineRate),
                      MakeDataRateChecker())
        .AddAttribute("FrameOverhead",
                      "Link-layer bytes each packet carries on the ports' links, counted in "
                      "fabric transfer times so that speedup 1 is exactly the line rate: 2 "
                      "for point-to-point (PPP), 18 for CSMA (Ethernet header and FCS). "
                      "Range [0, Mtu].",
                      UintegerValue(2),
                      MakeUintegerAccessor(&CioqSwitchNetDevice::m_frameOverhead),
                      MakeUintegerChecker<uint32_t>())
        .AddAttribute("ExpirationTime",
                      "Lifetime of learned MAC state (Forwarding=Learning).",
                      TimeValue(Seconds(300)),
                      MakeTimeAccessor(&CioqSwitchNetDevice::m_expirationTime),
                      MakeTimeChecker())
        .AddAttribute(
            "Mtu",
            "The MAC-level Maximum Transmission Unit, bytes, 68 .. 65535 (68: IPv4's "
            "minimum link MTU).",
            UintegerValue(1500),
            MakeUintegerAccessor(&CioqSwitchNetDevice::SetMtu, &CioqSwitchNetDevice::GetMtu),
            MakeUintegerChecker<uint16_t>());
}

TypeId
CioqSwitchNetDevice::AddTraceSources(TypeId tid)
{
    // The algorithm's state and every drop, per input and output.
    return tid
        .AddTraceSource("InputOccupancy",
                        "Packets and bytes waiting at an input: (input, packets, bytes).",
                        MakeTraceSourceAccessor(&CioqSwitchNetDevice::m_inputOccupancyTrace),
                        "ns3::CioqSwitchNetDevice::InputOccupancyTracedCallback")
        .AddTraceSource("VoqOccupancy",
                        "Packets in VOQ(input, output): (input, output, packets).",
                        MakeTraceSourceAccessor(&CioqSwitchNetDevice::m_voqOccupancyTrace),
                        "ns3::CioqSwitchNetDevice::VoqOccupancyTracedCallback")
        .AddTraceSource("OutputQueueLength",
                        "Packets in an output's queue disc: (output, packets).",
                        MakeTraceSourceAccessor(&CioqSwitchNetDevice::m_outputQueueTrace),
                        "ns3::CioqSwitchNetDevice::OutputQueueTracedCallback")
        .AddTraceSource("InputDrop",
                        "A copy dropped by a full input buffer: (packet, input, reason).",
                        MakeTraceSourceAccessor(&CioqSwitchNetDevice::m_inputDropTrace),
                        "ns3::CioqSwitchNetDevice::InputDropTracedCallback")
        .AddTraceSource("FabricDrop",
                        "A frame with no output: (packet, input, reason).",
                        MakeTraceSourceAccessor(&CioqSwitchNetDevice::m_fabricDropTrace),
                        "ns3::CioqSwitchNetDevice::DropTracedCallback")
        .AddTraceSource("OutputDrop",
                        "A drop by an output's queue disc: (item, output, reason).",
                        MakeTraceSourceAccessor(&CioqSwitchNetDevice::m_outputDropTrace),
                        "ns3::CioqSwitchNetDevice::OutputDropTracedCallback")
        .AddTraceSource("Transfer",
                        "A packet starts crossing the fabric: (item, input, output, time "
                        "it waited in its VOQ).",
                        MakeTraceSourceAccessor(&CioqSwitchNetDevice::m_transferTrace),
                        "ns3::CioqSwitchNetDevice::TransferTracedCallback")
        .AddTraceSource("Switched",
                        "A packet crossed the fabric and reaches its output's queue disc: "
                        "(item, input, output).",
                        MakeTraceSourceAccessor(&CioqSwitchNetDevice::m_switchedTrace),
                        "ns3::CioqSwitchNetDevice::SwitchedTracedCallback");
}

TypeId
CioqSwitchNetDevice::GetTypeId()
{
    static TypeId tid = AddTraceSources(AddPortAttributes(
        AddBufferAttributes(AddFabricAttributes(TypeId("ns3::CioqSwitchNetDevice")
                                                    .SetParent<NetDevice>()
                                                    .SetGroupName("QdiscLab")
                                                    .AddConstructor<CioqSwitchNetDevice>()))));
    return tid;
}

CioqSwitchNetDevice::CioqSwitchNetDevice()
    : m_speedup(1.0),
      m_fabricModel(PAPER),
      m_inputQueueing(VOQ),
      m_outputFull(DROP),
      m_forwarding(LEARNING),
      m_islipIterations(4),
      m_frameOverhead(2),
      m_mtu(1500),
      m_node(nullptr),
      m_ifIndex(0),
      m_address(Mac48Address::Allocate()),
      m_preserveSource(true)
{
    NS_LOG_FUNCTION(this);
}

CioqSwitchNetDevice::~CioqSwitchNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
CioqSwitchNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& port : m_ports)
    {
        if (port.qdisc)
        {
            port.qdisc->Dispose();
        }
    }
    m_fabric.Clear();
    m_ports.clear();
    m_node = nullptr;
    NetDevice::DoDispose();
}

uint32_t
CioqSwitchNetDevice::AddPort(Ptr<NetDevice> port)
{
    NS_LOG_FUNCTION(this << port);
    NS_ABORT_MSG_IF(!m_node, "CioqSwitchNetDevice::AddPort: add the switch to its node first");
    NS_ABORT_MSG_IF(!port || port == this, "CioqSwitchNetDevice::AddPort: not a port device");
    NS_ABORT_MSG_IF(port->GetNode() != m_node,
                    "CioqSwitchNetDevice::AddPort: the port must be a device of the switch's node");
    NS_ABORT_MSG_IF(IsInitialized(),
                    "CioqSwitchNetDevice::AddPort: ports must be added before the simulation "
                    "starts");
    NS_ABORT_MSG_UNLESS(Mac48Address::IsMatchingType(port->GetAddress()),
                        "CioqSwitchNetDevice::AddPort: the port needs an EUI-48 address");
    const auto index = static_cast<uint32_t>(m_ports.size());
    m_ports.emplace_back();
    m_ports.back().device = port;
    m_preserveSource = m_preserveSource && port->SupportsSendFrom();
    m_node->RegisterProtocolHandler(
        MakeCallback(&CioqSwitchNetDevice::ReceiveFromPort, this).Bind(index),
        0,
        port,
        true);
    return index;
}

uint32_t
CioqSwitchNetDevice::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<NetDevice>
CioqSwitchNetDevice::GetPort(uint32_t port) const
{
    NS_ABORT_MSG_UNLESS(port < m_ports.size(),
                        "CioqSwitchNetDevice: port " << port << " out of range [0, "
                                                     << m_ports.size() << ")");
    return m_ports[port].device;
}

const CioqSwitchNetDevice::Port&
CioqSwitchNetDevice::PortAt(uint32_t port, const char* caller) const
{
    NS_ABORT_MSG_UNLESS(port < m_ports.size(),
                        "CioqSwitchNetDevice::" << caller << ": port " << port
                                                << " out of range [0, " << m_ports.size() << ")");
    return m_ports[port];
}

void
CioqSwitchNetDevice::SetOutputQueueDisc(uint32_t port, Ptr<QueueDisc> qdisc)
{
    NS_LOG_FUNCTION(this << port << qdisc);
    NS_ABORT_MSG_UNLESS(qdisc,
                        "CioqSwitchNetDevice::SetOutputQueueDisc: port "
                            << port << ": no queue disc (a null pointer)");
    NS_ABORT_MSG_UNLESS(port < m_ports.size(),
                        "CioqSwitchNetDevice::SetOutputQueueDisc: port "
                            << port << " out of range [0, " << m_ports.size()
                            << "): add the ports first");
    NS_ABORT_MSG_IF(IsInitialized(),
                    "CioqSwitchNetDevice::SetOutputQueueDisc: set queue discs before the "
                    "simulation starts");
    m_ports[port].qdisc = qdisc;
}

Ptr<QueueDisc>
CioqSwitchNetDevice::GetOutputQueueDisc(uint32_t port) const
{
    NS_ABORT_MSG_UNLESS(port < m_ports.size(),
                        "CioqSwitchNetDevice: port " << port << " out of range [0, "
                                                     << m_ports.size() << ")");
    return m_ports[port].qdisc;
}

void
CioqSwitchNetDevice::AddStaticRoute(Mac48Address address, uint32_t port)
{
    NS_LOG_FUNCTION(this << address << port);
    m_table.AddRoute(address, port);
}

void
CioqSwitchNetDevice::AddStaticRoute(Ipv4Address address, uint32_t port)
{
    NS_LOG_FUNCTION(this << address << port);
    m_table.AddRoute(address, port);
}

void
CioqSwitchNetDevice::CheckConfig()
{
    const auto n = static_cast<uint32_t>(m_ports.size());
    NS_ABORT_MSG_IF(n < 2, "CioqSwitchNetDevice needs at least 2 ports, has " << n);
    NS_ABORT_MSG_UNLESS(std::isfinite(m_speedup) && m_speedup >= 1.0 && m_speedup <= n,
                        "CioqSwitchNetDevice: Speedup = "
                            << m_speedup << " is out of range [1, N] = [1, " << n << "]");
    NS_ABORT_MSG_IF(m_inputBufferSize.GetValue() == 0,
                    "CioqSwitchNetDevice: InputBufferSize = "
                        << m_inputBufferSize << ": the input buffer must hold at least 1 packet");
    NS_ABORT_MSG_UNLESS(m_mtu >= MIN_MTU,
                        "CioqSwitchNetDevice: Mtu = " << m_mtu << " is out of range [" << MIN_MTU
                                                      << ", 65535] bytes");
    NS_ABORT_MSG_UNLESS(m_frameOverhead <= m_mtu,
                        "CioqSwitchNetDevice: FrameOverhead = "
                            << m_frameOverhead << " is out of range [0, Mtu] = [0, " << m_mtu
                            << "] bytes");
    if (m_inputQueueing == FIFO && m_voqMaxSize.GetValue() > 0)
    {
        std::ostringstream text;
        text << "CioqSwitchNetDevice VoqMaxSize=" << m_voqMaxSize
             << " with InputQueueing=Fifo: there are no VOQs; it still caps each input's "
                "packets for one output inside its FIFO";
        qdisclab::WarnOnce(text.str());
    }
    NS_ABORT_MSG_IF(m_islipIterations < 1,
                    "CioqSwitchNetDevice: IslipIterations = " << m_islipIterations
                                                              << " is out of range [1, inf)");
    NS_ABORT_MSG_IF(m_forwarding == LEARNING && !m_preserveSource,
                    "CioqSwitchNetDevice: Forwarding = Learning needs ports whose frames carry "
                    "MAC addresses (SupportsSendFrom, e.g. CSMA); use Forwarding = Static with "
                    "point-to-point ports");
    m_table.CheckPorts(n, "CioqSwitchNetDevice");

    // The line rate: set, or the ports' (all equal).
    if (m_lineRate.GetBitRate() == 0)
    {
        for (uint32_t k = 0; k < n; ++k)
        {
            DataRateValue rate(DataRate(0));
            const Ptr<NetDevice> device = m_ports[k].device;
            const bool found = device->GetAttributeFailSafe("DataRate", rate) ||
                               (device->GetChannel() &&
                                device->GetChannel()->GetAttributeFailSafe("DataRate", rate));
            NS_ABORT_MSG_UNLESS(found && rate.Get().GetBitRate() > 0,
                                "CioqSwitchNetDevice: LineRate = 0 and port "
                                    << k << " has no DataRate: set LineRate");
            if (k == 0)
            {
                m_lineRate = rate.Get();
            }
            NS_ABORT_MSG_UNLESS(rate.Get() == m_lineRate,
                                "CioqSwitchNetDevice: the ports' line rates differ (port 0: "
                                    << m_lineRate << ", port " << k << ": " << rate.Get()
                                    << "); set LineRate");
        }
    }
}

void
CioqSwitchNetDevice::DoInitialize()
{
    NS_LOG_FUNCTION(this);
    CheckConfig();
    const auto n = static_cast<uint32_t>(m_ports.size());
    const double perTransfer = (m_fabricModel == PAPER) ? m_speedup / n : m_speedup;
    CioqFabric::Config config;
    config.ports = n;
    config.model = m_fabricModel;
    config.queueing = m_inputQueueing;
    config.outputFull = m_outputFull;
    config.inputBufferSize = m_inputBufferSize;
    config.voqMaxSize = m_voqMaxSize;
    config.islipIterations = m_islipIterations;
    config.rate = DataRate(static_cast<uint64_t>(
        std::llround(static_cast<double>(m_lineRate.GetBitRate()) * perTransfer)));
    config.frameOverhead = m_frameOverhead;
    m_fabric.Reset(config);
    m_fabric.SetMtu(m_mtu);
    m_fabric.SetCallbacks(MakeCallback(&CioqSwitchNetDevice::InputDropped, this),
                          MakeCallback(&CioqSwitchNetDevice::InputEnqueued, this),
                          MakeCallback(&CioqSwitchNetDevice::TransferStarted, this),
                          MakeCallback(&CioqSwitchNetDevice::Delivered, this));
    for (uint32_t k = 0; k < n; ++k)
    {
        SetUpOutput(k);
    }
    NS_LOG_INFO("CIOQ switch: N = " << n << ", s = " << m_speedup << ", fabric "
                                    << (m_fabricModel == PAPER ? "Paper" : "Islip") << " at "
                                    << config.rate << " per transfer, line " << m_lineRate
                                    << ", inputs " << (m_inputQueueing == VOQ ? "VOQ" : "FIFO")
                                    << " of " << m_inputBufferSize);
    ResetStatistics();
    NetDevice::DoInitialize();
}

void
CioqSwitchNetDevice::SetUpOutput(uint32_t j)
{
    Port& port = m_ports[j];
    if (!port.qdisc)
    {
        port.qdisc = CreateObject<FifoQueueDisc>();
        port.qdisc->SetAttribute("MaxSize", QueueSizeValue(QueueSize("20p")));
    }
    port.backlog = port.qdisc->GetObject<CioqInputBacklog>();
    if (!port.backlog)
    {
        port.backlog = CreateObject<CioqInputBacklog>();
        port.qdisc->AggregateObject(port.backlog);
    }

    // Drain to the port as TrafficControlLayer drains a root queue disc to its device.
    Ptr<NetDeviceQueueInterface> ndqi = port.device->GetObject<NetDeviceQueueInterface>();
    NS_ABORT_MSG_UNLESS(ndqi,
                        "CioqSwitchNetDevice: port "
                            << j
                            << " has no NetDeviceQueueInterface (create it with flow control "
                               "enabled, as the point-to-point and CSMA helpers do by default)");
    port.qdisc->SetNetDeviceQueueInterface(ndqi);
    port.qdisc->SetSendCallback([this, j](Ptr<QueueDiscItem> item) { SendToPort(j, item); });
    ndqi->GetTxQueue(0)->SetWakeCallback(MakeCallback(&QueueDisc::Run, port.qdisc));

    port.qdisc->TraceConnectWithoutContext(
        "PacketsInQueue",
        MakeCallback(&CioqSwitchNetDevice::OutputLengthChanged, this).Bind(j));
    port.qdisc->TraceConnectWithoutContext(
        "DropBeforeEnqueue",
        MakeCallback(&CioqSwitchNetDevice::OutputDropped, this).Bind(j));
    port.qdisc->TraceConnectWithoutContext(
        "DropAfterDequeue",
        MakeCallback(&CioqSwitchNetDevice::OutputDropped, this).Bind(j));
    port.qdisc->Initialize();

    if (m_outputFull == BACKPRESSURE)
    {
        // ns-3 stops here, naming the problem, if the queue disc has no size limit.
        NS_ABORT_MSG_IF(port.qdisc->GetMaxSize().GetValue() == 0,
                        "CioqSwitchNetDevice: the queue disc of output "
                            << j << " has a zero size limit");
    }
    m_fabric.SetOutput(j, port.qdisc, port.backlog);
}

void
CioqSwitchNetDevice::ReceiveFromPort(uint32_t input,
                                     Ptr<NetDevice> device,
                                     Ptr<const Packet> packet,
                                     uint16_t protocol,
                                     const Address& source,
                                     const Address& destination,
                                     PacketType packetType)
{
    NS_LOG_FUNCTION(this << input << packet << protocol << source << destination << packetType);
    Port& in = m_ports[input];
    ++in.stats.framesReceived;
    if (!m_promiscRxCallback.IsNull())
    {
        m_promiscRxCallback(this, packet, protocol, source, destination, packetType);
    }
    const Mac48Address src48 = Mac48Address::ConvertFrom(source);
    const Mac48Address dst48 = Mac48Address::ConvertFrom(destination);
    if (m_forwarding == LEARNING)
    {
        m_table.Learn(src48, input, Simulator::Now() + m_expirationTime);
    }

    bool flood = false;
    switch (packetType)
    {
    case PACKET_BROADCAST:
    case PACKET_MULTICAST:
        ++in.stats.localDeliveries;
        m_rxCallback(this, packet, protocol, source);
        flood = true;
        break;
    case PACKET_HOST:
    case PACKET_OTHERHOST:
        if (dst48 == m_address)
        {
            ++in.stats.localDeliveries;
            m_rxCallback(this, packet, protocol, source);
            return;
        }
        break;
    }

    Lookup(input, packet, protocol, dst48, flood);
    for (const uint32_t output : m_outputs)
    {
        m_fabric.Enqueue(input, output, MakeItem(packet, protocol, src48, dst48));
    }
}

void
CioqSwitchNetDevice::Lookup(uint32_t input,
                            Ptr<const Packet> packet,
                            uint16_t protocol,
                            Mac48Address destination,
                            bool flood)
{
    const auto n = static_cast<uint32_t>(m_ports.size());
    m_outputs.clear();
    uint32_t output = n;
    if (!flood)
    {
        const uint32_t found = (m_forwarding == LEARNING)
                                   ? m_table.GetLearnedPort(destination, Simulator::Now())
                                   : m_table.GetStaticPort(destination, protocol, packet);
        if (found != CioqForwardingTable::NONE)
        {
            output = found;
        }
        else
        {
            flood = (m_forwarding == LEARNING);
        }
    }
    if (flood)
    {
        for (uint32_t j = 0; j < n; ++j)
        {
            if (j != input)
            {
                m_outputs.push_back(j);
            }
        }
        return;
    }
    const char* reason = (output == n) ? NO_ROUTE_DROP : (output == input ? SAME_PORT_DROP : "");
    if (output == n || output == input)
    {
        NS_LOG_DEBUG("Fabric drop at input " << input << ": " << reason);
        if (input < n)
        {
            ++m_ports[input].stats.fabricDrops;
        }
        m_fabricDropTrace(packet, input, reason);
        return;
    }
    m_outputs.push_back(output);
}

Ptr<QueueDiscItem>
CioqSwitchNetDevice::MakeItem(Ptr<const Packet> packet,
                              uint16_t protocol,
                              Mac48Address source,
                              Mac48Address destination) const
{
    Ptr<Packet> copy = packet->Copy();
    if (m_preserveSource)
    {
        CioqSourceTag tag;
        tag.source = source;
        copy->ReplacePacketTag(tag);
    }
    if (protocol == Ipv4L3Protocol::PROT_NUMBER)
    {
        Ipv4Header header;
        copy->RemoveHeader(header);
        return Create<Ipv4QueueDiscItem>(copy, destination, protocol, header);
    }
    if (protocol == Ipv6L3Protocol::PROT_NUMBER)
    {
        Ipv6Header header;
        copy->RemoveHeader(header);
        return Create<Ipv6QueueDiscItem>(copy, destination, protocol, header);
    }
    return Create<CioqFrameItem>(copy, destination, protocol);
}

void
CioqSwitchNetDevice::InputDropped(Ptr<const QueueDiscItem> item, uint32_t i)
{
    ++m_ports[i].stats.inputDrops;
    m_inputDropTrace(item, i, INPUT_FULL_DROP);
}

void
CioqSwitchNetDevice::InputEnqueued(uint32_t i, uint32_t j)
{
    ++m_ports[i].stats.voqEnqueued;
    InputChanged(i, j);
}

void
CioqSwitchNetDevice::TransferStarted(Ptr<const QueueDiscItem> item,
                                     uint32_t i,
                                     uint32_t j,
                                     Time waited)
{
    m_ports[i].stats.TransferStarted(waited);
    InputChanged(i, j);
    m_transferTrace(item, i, j, waited);
}

void
CioqSwitchNetDevice::Delivered(Ptr<QueueDiscItem> item, uint32_t i, uint32_t j)
{
    ++m_ports[i].stats.switchedIn;
    ++m_ports[j].stats.switchedOut;
    m_switchedTrace(item, i, j);
    EnqueueOutput(j, item);
}

void
CioqSwitchNetDevice::EnqueueOutput(uint32_t j, Ptr<QueueDiscItem> item)
{
    Ptr<QueueDisc> qdisc = m_ports[j].qdisc;
    qdisc->Enqueue(item);
    qdisc->Run();
}

void
CioqSwitchNetDevice::SendToPort(uint32_t j, Ptr<QueueDiscItem> item)
{
    Port& out = m_ports[j];
    ++out.stats.sent;
    Ptr<Packet> packet = item->GetPacket();
    CioqSourceTag tag;
    if (m_preserveSource && packet->RemovePacketTag(tag))
    {
        out.device->SendFrom(packet, tag.source, item->GetAddress(), item->GetProtocol());
        return;
    }
    out.device->Send(packet, item->GetAddress(), item->GetProtocol());
}

void
CioqSwitchNetDevice::OutputLengthChanged(uint32_t j, uint32_t oldValue, uint32_t newValue)
{
    m_ports[j].stats.OutputChanged(newValue, Simulator::Now());
    m_outputQueueTrace(j, newValue);
    if (m_outputFull == BACKPRESSURE && newValue < oldValue)
    {
        m_fabric.OutputRoom(j);
    }
}

void
CioqSwitchNetDevice::OutputDropped(uint32_t j, Ptr<const QueueDiscItem> item, const char* reason)
{
    ++m_ports[j].stats.outputDrops;
    m_outputDropTrace(item, j, reason);
}

void
CioqSwitchNetDevice::InputChanged(uint32_t i, uint32_t j)
{
    const CioqVoqSet& voqs = m_fabric.GetVoqs();
    const uint32_t packets = voqs.GetInputPackets(i);
    m_ports[i].stats.InputChanged(packets, Simulator::Now());
    m_inputOccupancyTrace(i, packets, voqs.GetInputBytes(i));
    m_voqOccupancyTrace(i, j, voqs.GetVoqPackets(i, j));
}

uint32_t
CioqSwitchNetDevice::GetVoqPackets(uint32_t input, uint32_t output) const
{
    NS_ABORT_MSG_UNLESS(input < m_ports.size() && output < m_ports.size() && IsInitialized(),
                        "CioqSwitchNetDevice::GetVoqPackets: (" << input << ", " << output
                                                                << ") out of range");
    return m_fabric.GetVoqs().GetVoqPackets(input, output);
}

uint32_t
CioqSwitchNetDevice::GetInputPackets(uint32_t input) const
{
    PortAt(input, "GetInputPackets");
    return IsInitialized() ? m_fabric.GetVoqs().GetInputPackets(input) : 0;
}

uint64_t
CioqSwitchNetDevice::GetInputBytes(uint32_t input) const
{
    PortAt(input, "GetInputBytes");
    return IsInitialized() ? m_fabric.GetVoqs().GetInputBytes(input) : 0;
}

Ptr<const CioqInputBacklog>
CioqSwitchNetDevice::GetInputBacklog(uint32_t output) const
{
    return PortAt(output, "GetInputBacklog").backlog;
}

uint32_t
CioqSwitchNetDevice::GetPacketsInFabric() const
{
    return m_fabric.GetPacketsInFabric();
}

const CioqSwitchNetDevice::PortStats&
CioqSwitchNetDevice::GetPortStats(uint32_t port) const
{
    return PortAt(port, "GetPortStats").stats;
}

double
CioqSwitchNetDevice::GetAverageInputPackets(uint32_t input) const
{
    return PortAt(input, "GetAverageInputPackets")
        .stats.GetAverageInputPackets(m_statsSince, Simulator::Now());
}

double
CioqSwitchNetDevice::GetAverageOutputPackets(uint32_t output) const
{
    return PortAt(output, "GetAverageOutputPackets")
        .stats.GetAverageOutputPackets(m_statsSince, Simulator::Now());
}

void
CioqSwitchNetDevice::ResetStatistics()
{
    const Time now = Simulator::Now();
    m_statsSince = now;
    for (auto& port : m_ports)
    {
        port.stats.Reset(now);
    }
}

double
CioqSwitchNetDevice::GetSpeedup() const
{
    return m_speedup;
}

DataRate
CioqSwitchNetDevice::GetLineRate() const
{
    return m_lineRate;
}

void
CioqSwitchNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
CioqSwitchNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
CioqSwitchNetDevice::GetChannel() const
{
    return nullptr;
}

void
CioqSwitchNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
CioqSwitchNetDevice::GetAddress() const
{
    return m_address;
}

bool
CioqSwitchNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    m_fabric.SetMtu(mtu);
    return true;
}

uint16_t
CioqSwitchNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
CioqSwitchNetDevice::IsLinkUp() const
{
    return true;
}

void
CioqSwitchNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
}

bool
CioqSwitchNetDevice::IsBroadcast() const
{
    return true;
}

Address
CioqSwitchNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
CioqSwitchNetDevice::IsMulticast() const
{
    return true;
}

Address
CioqSwitchNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
CioqSwitchNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
CioqSwitchNetDevice::IsPointToPoint() const
{
    return false;
}

bool
CioqSwitchNetDevice::IsBridge() const
{
    // Not a BridgeNetDevice: ns-3's global routing would look for one.
    return false;
}

bool
CioqSwitchNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return SendFrom(packet, m_address, dest, protocolNumber);
}

bool
CioqSwitchNetDevice::SendFrom(Ptr<Packet> packet,
                              const Address& source,
                              const Address& dest,
                              uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << source << dest << protocolNumber);
    // The switch's own packets go straight to the outputs' queue discs.
    const Mac48Address src48 = Mac48Address::ConvertFrom(source);
    const Mac48Address dst48 = Mac48Address::ConvertFrom(dest);
    const auto n = static_cast<uint32_t>(m_ports.size());
    Lookup(n, packet, protocolNumber, dst48, dst48.IsGroup());
    for (const uint32_t output : m_outputs)
    {
        ++m_ports[output].stats.localSent;
        EnqueueOutput(output, MakeItem(packet, protocolNumber, src48, dst48));
    }
    return !m_outputs.empty();
}

Ptr<Node>
CioqSwitchNetDevice::GetNode() const
{
    return m_node;
}

void
CioqSwitchNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
CioqSwitchNetDevice::NeedsArp() const
{
    return true;
}

void
CioqSwitchNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
CioqSwitchNetDevice::SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb)
{
    m_promiscRxCallback = cb;
}

bool
CioqSwitchNetDevice::SupportsSendFrom() const
{
    return true;
}

} // namespace ns3
