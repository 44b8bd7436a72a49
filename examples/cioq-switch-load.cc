/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup qdisc-lab
 * N IP hosts on one CIOQ switch (CioqSwitchHelper), each sending UDP datagrams back to back at
 * line rate (load --load) to destinations drawn uniformly among the other hosts: the switch's
 * throughput, its input and output occupancies, its drops by place, and how fast it simulates
 * (datagrams per second of wall-clock and CPU time, in the report's "run_measurements", apart
 * from the metrics: they differ between runs of the same inputs). One JSON metrics object.
 *
 *   ./cioq-switch-load --ports=16 --speedup=1.4 --fabric=Paper --qdisc=ns3::CioqRedQueueDisc
 */

#include "ns3/applications-module.h"
#include "ns3/cioq-switch-helper.h"
#include "ns3/core-module.h"
#include "ns3/experiment-params.h"
#include "ns3/internet-module.h"
#include "ns3/metrics-report.h"
#include "ns3/network-module.h"
#include "ns3/qdisc-lab-compat.h"
#include "ns3/qdisc-lab-config.h"
#include "ns3/queue-disc.h"

#include <chrono>
#include <cmath>
#include <ctime>

using namespace ns3;

int
main(int argc, char* argv[])
{
    uint32_t ports = 16;
    double speedup = 1.4;
    std::string fabric = "Paper";
    std::string queueing = "Voq";
    std::string qdisc = "ns3::CioqRedQueueDisc";
    std::string lineRate = "1Mbps";
    double load = 1.0;
    uint32_t payload = 972; // 1000-byte IP packets
    double duration = 100;
    bool quick = false;

    // Declared in the order the report records them; the payload is not recorded.
    ExperimentParams params("cioq-switch-load", __FILE__);
    params.AddUnsigned("ports", "N, hosts and switch ports", ports, 2, 1024);
    params.AddUnsigned("payload",
                       "UDP payload, bytes (one IPv4 packet within the links' 1500-byte MTU)",
                       payload,
                       0,
                       1500 - 28,
                       ExperimentParams::NEVER);
    params.Add("speedup", "Switch speedup s, 1 <= s <= N", speedup);
    params.Add("fabric", "FabricModel: Paper or Islip", fabric);
    params.Add("queueing", "InputQueueing: Voq or Fifo", queueing);
    params.Add("qdisc", "Output queue disc TypeId", qdisc);
    params.AddRate("lineRate", "Line rate of every link", lineRate);
    params.Add("load", "Offered load per host, fraction of the line rate, in (0, 100]", load);
    params.AddSeconds("duration", "Simulated seconds, > 0", duration);
    params.AddRunNumber();
    params.Add("quick", "Short run for CI: duration=10", quick, ExperimentParams::NEVER);
    for (const char* metric : {"throughput",
                               "avg_input_packets",
                               "avg_output_packets",
                               "input_drops",
                               "output_drops",
                               "fabric_drops",
                               "frames_after_warmup",
                               "datagrams"})
    {
        params.AddMetric(metric);
    }
    params.OwnsAttribute("ns3::CioqSwitchNetDevice::Speedup", "--speedup");
    params.OwnsAttribute("ns3::CioqSwitchNetDevice::FabricModel", "--fabric");
    params.OwnsAttribute("ns3::CioqSwitchNetDevice::InputQueueing", "--queueing");
    params.OwnsAttribute("ns3::CioqSwitchNetDevice::LineRate", "--lineRate");
    params.OwnsAttribute("ns3::PointToPointNetDevice::DataRate", "--lineRate");
    params.OwnsAttribute("ns3::PointToPointChannel::Delay", "the star's fixed link delay");
    params.Parse(argc, argv);
    if (quick)
    {
        duration = 10;
    }
    NS_ABORT_MSG_UNLESS(load > 0 && load <= 100, "--load=" << load << " is out of range (0, 100]");
    NS_ABORT_MSG_UNLESS(duration > 0 && std::isfinite(duration) && duration < 1e9,
                        "--duration=" << duration << " must be finite and in (0, 1e9) seconds");
    NS_ABORT_MSG_UNLESS(fabric == "Paper" || fabric == "Islip",
                        "--fabric must be Paper or Islip, got '" << fabric << "'");
    NS_ABORT_MSG_UNLESS(queueing == "Voq" || queueing == "Fifo",
                        "--queueing must be Voq or Fifo, got '" << queueing << "'");
    qdisclab::LookupTypeId(qdisc, QueueDisc::GetTypeId(), "--qdisc");

    NodeContainer hosts;
    hosts.Create(ports);
    InternetStackHelper().Install(hosts);
    CioqSwitchHelper cioq;
    cioq.SetLineRate(DataRate(lineRate));
    cioq.SetDeviceAttribute("Speedup", DoubleValue(speedup));
    cioq.SetDeviceAttribute("FabricModel", StringValue(fabric));
    cioq.SetDeviceAttribute("InputQueueing", StringValue(queueing));
    cioq.SetOutputQueueDisc(qdisc);
    CioqSwitchHelper::Star star = cioq.InstallStar(CreateObject<Node>(), hosts);
    Ipv4AddressHelper addresses("10.1.0.0", "255.255.0.0");
    Ipv4InterfaceContainer interfaces = cioq.AssignIpv4(star, addresses);

    // Each host: one datagram per (line time / load), to a uniformly drawn other host.
    const uint32_t frameBytes = payload + 28 + 2;
    const Time frameTime = DataRate(lineRate).CalculateBytesTxTime(frameBytes);
    NS_ABORT_MSG_UNLESS(frameTime.IsStrictlyPositive(),
                        "--lineRate=" << lineRate << ": a " << frameBytes
                                      << "-byte frame takes less than the time resolution ("
                                      << TimeStep(1).As(Time::S)
                                      << ") at this rate; lower the rate");
    const double gapSeconds = frameTime.GetSeconds() / load;
    const double warmup = duration / 10;
    NS_ABORT_MSG_UNLESS(Seconds(warmup).IsStrictlyPositive(),
                        "--duration=" << duration << ": its tenth (the warmup) is below the time "
                                      << "resolution (" << TimeStep(1).As(Time::S) << ")");
    NS_ABORT_MSG_UNLESS(gapSeconds <= duration - warmup,
                        "--load=" << load << ": one datagram per host every " << gapSeconds
                                  << " s, more than the " << duration - warmup
                                  << " s measured (--duration=" << duration
                                  << " less its first tenth); raise --load or --duration");
    const Time gap = frameTime / load;
    Ptr<UniformRandomVariable> pick = CreateObject<UniformRandomVariable>();
    pick->SetStream(1);
    std::vector<Ptr<Socket>> senders;
    for (uint32_t k = 0; k < ports; ++k)
    {
        Ptr<Socket> sink = Socket::CreateSocket(hosts.Get(k), UdpSocketFactory::GetTypeId());
        sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        sink->SetRecvCallback(qdisclab::MakeFunctorCallback([](Ptr<Socket> s) {
            while (s->Recv())
            {
            }
        }));
        senders.push_back(sink);
    }
    uint64_t datagrams = 0;
    std::function<void(uint32_t)> send = [&](uint32_t k) {
        ++datagrams;
        const uint32_t to = (k + pick->GetInteger(1, ports - 1)) % ports;
        senders[k]->SendTo(Create<Packet>(payload),
                           0,
                           InetSocketAddress(interfaces.GetAddress(to), 9));
        qdisclab::Schedule(gap, [&send, k]() { send(k); });
    };
    for (uint32_t k = 0; k < ports; ++k)
    {
        qdisclab::Schedule(MicroSeconds(k), [&send, k]() { send(k); });
    }

    Simulator::Schedule(Seconds(warmup), &CioqSwitchNetDevice::ResetStatistics, star.device);
    params.EnableTraces(star.ports);
    Simulator::Stop(Seconds(duration));
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpuStart = std::clock();
    Simulator::Run();
    const double cpu = static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC;
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    uint64_t frames = 0;
    uint64_t sent = 0;
    uint64_t inputDrops = 0;
    uint64_t outputDrops = 0;
    uint64_t fabricDrops = 0;
    double input = 0;
    double outputQueue = 0;
    for (uint32_t k = 0; k < ports; ++k)
    {
        const auto& s = star.device->GetPortStats(k);
        frames += s.framesReceived;
        sent += s.sent;
        inputDrops += s.inputDrops;
        outputDrops += s.outputDrops;
        fabricDrops += s.fabricDrops;
        input += star.device->GetAverageInputPackets(k) / ports;
        outputQueue += star.device->GetAverageOutputPackets(k) / ports;
    }
    const double measured = duration - warmup;
    const double linePackets =
        measured / DataRate(lineRate).CalculateBytesTxTime(payload + 28 + 2).GetSeconds();

    MetricsReport report = params.NewReport();
    report.SetMetric("throughput", static_cast<double>(sent) / (ports * linePackets));
    report.SetMetric("avg_input_packets", input);
    report.SetMetric("avg_output_packets", outputQueue);
    report.SetMetric("input_drops", static_cast<double>(inputDrops));
    report.SetMetric("output_drops", static_cast<double>(outputDrops));
    report.SetMetric("fabric_drops", static_cast<double>(fabricDrops));
    report.SetMetric("frames_after_warmup", static_cast<double>(frames));
    // Simulation speed over the whole run: datagrams the hosts sent per second.
    report.SetMetric("datagrams", static_cast<double>(datagrams));
    // Measurements of the run, not of the simulation: they differ between equal runs.
    report.SetMeasurement("wall_s", wall);
    report.SetMeasurement("cpu_s", cpu);
    report.SetMeasurement("datagrams_per_wall_s", static_cast<double>(datagrams) / wall);
    report.SetMeasurement("datagrams_per_cpu_s", static_cast<double>(datagrams) / cpu);
    params.Write(report);
    Simulator::Destroy();
    return 0;
}
