/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QDISC_LAB_RED_TWINS_H
#define QDISC_LAB_RED_TWINS_H

/**
 * \file
 * \ingroup qdisc-lab-tests
 * Two queue discs side by side on the same random traffic: ns-3's RedQueueDisc and a queue disc
 * built on RedCore (a test adapter, RioQueueDisc with IN traffic only), compared after every
 * arrival and dequeue.
 */

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/qdisc-lab-compat.h"
#include "ns3/queue-disc.h"
#include "ns3/red-queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace qdisclab
{
namespace test
{

/// A packet that is ECN-capable or not (Mark() succeeds only if it is); no headers.
class EcnTestItem : public QueueDiscItem
{
  public:
    /**
     * \param size packet size in bytes
     * \param ecnCapable whether Mark() succeeds
     */
    EcnTestItem(uint32_t size, bool ecnCapable)
        : QueueDiscItem(Create<Packet>(size), Address(), 0),
          m_ecnCapable(ecnCapable)
    {
    }

    void AddHeader() override
    {
    }

    bool Mark() override
    {
        return m_ecnCapable;
    }

  private:
    bool m_ecnCapable; //!< whether Mark() succeeds
};

/// One RED configuration, as both twins are set up.
struct RedTwinConfig
{
    std::string name;            //!< for messages
    bool bytes = false;          //!< byte mode (MaxSize in bytes, thresholds x 1000)
    bool gentle = true;          //!< Gentle
    bool wait = true;            //!< Wait
    bool ecn = false;            //!< UseEcn
    bool hardDrop = true;        //!< UseHardDrop
    double minTh = 5;            //!< min_th in packets (x 1000 in byte mode)
    double maxTh = 15;           //!< max_th in packets (x 1000 in byte mode)
    double lInterm = 10;         //!< 1 / max_p
    double qW = 0.01;            //!< w_q
    uint32_t meanPktSize = 1000; //!< MeanPktSize
    double linkRate = 4e6;       //!< LinkBandwidth and the server's rate, bit/s

    /// \return min_th in the queue's unit
    double MinTh() const
    {
        return bytes ? minTh * 1000 : minTh;
    }

    /// \return max_th in the queue's unit
    double MaxTh() const
    {
        return bytes ? maxTh * 1000 : maxTh;
    }

    /// \return the queue limit (60 packets or 60000 bytes)
    std::string Limit() const
    {
        return bytes ? "60000B" : "60p";
    }

    /**
     * A queue disc with RedQueueDisc's attributes (CioqRedQueueDisc has them too), set to this
     * configuration.
     * \tparam QD RedQueueDisc or a queue disc with the same attributes
     * \return the queue disc (not initialized)
     */
    template <typename QD = RedQueueDisc>
    Ptr<QD> MakeRed() const
    {
        auto qd = CreateObject<QD>();
        qd->SetAttribute("MinTh", DoubleValue(MinTh()));
        qd->SetAttribute("MaxTh", DoubleValue(MaxTh()));
        qd->SetAttribute("LInterm", DoubleValue(lInterm));
        qd->SetAttribute("QW", DoubleValue(qW));
        qd->SetAttribute("Wait", BooleanValue(wait));
        qd->SetAttribute("Gentle", BooleanValue(gentle));
        qd->SetAttribute("MeanPktSize", UintegerValue(meanPktSize));
        qd->SetAttribute("LinkBandwidth", DataRateValue(DataRate(uint64_t(linkRate))));
        qd->SetAttribute("UseEcn", BooleanValue(ecn));
        qd->SetAttribute("UseHardDrop", BooleanValue(hardDrop));
        qd->SetAttribute("MaxSize", StringValue(Limit()));
        return qd;
    }
};

/// \return the configurations the twins are compared in
inline std::vector<RedTwinConfig>
RedTwinConfigs()
{
    const auto config =
        [](std::string name, bool bytes, bool gentle, bool wait, bool ecn, bool hardDrop) {
            RedTwinConfig c;
            c.name = std::move(name);
            c.bytes = bytes;
            c.gentle = gentle;
            c.wait = wait;
            c.ecn = ecn;
            c.hardDrop = hardDrop;
            return c;
        };
    return {
        config("packets, gentle, wait", false, true, true, false, true),
        config("packets, no gentle, wait", false, false, true, false, true),
        config("packets, gentle, no wait", false, true, false, false, true),
        config("packets, no gentle, no wait", false, false, false, false, true),
        config("bytes, gentle, wait", true, true, true, false, true),
        config("bytes, no gentle, no wait", true, false, false, false, true),
        config("packets, ECN, hard drop", false, true, true, true, true),
        config("packets, ECN, no hard drop, gentle", false, true, true, true, false),
        config("bytes, ECN, no hard drop, no gentle", true, false, true, true, false),
    };
}

/// What the twins did.
struct RedTwinRun
{
    std::string divergence;    //!< the first difference, empty if none
    uint32_t arrivals = 0;     //!< arrivals
    uint32_t idleArrivals = 0; //!< arrivals that found the server stopped
};

/**
 * Drive \p reference and \p candidate (initialized, same random stream) with the same traffic:
 * phases of 300 ms of heavy overload (~5x the link), moderate load (~0.9x), overload (~1.9x)
 * and light load (~0.4x), with idle gaps of 0 to 400 ms between them; packets of 40, 500, 1000
 * or 1500 B (mean 760 B: 1.5 ms at 4 Mbit/s), 70% ECN-capable. A server at \p linkRate takes
 * packets from both and stops when it finds the queue empty, as a device does. After every
 * arrival the drop and mark counts of every RED reason and the bytes enqueued must be equal;
 * every dequeue must give a packet of the same size from both, or none. Runs the simulator and
 * destroys it.
 * \param reference RedQueueDisc
 * \param candidate the queue disc under test
 * \param make makes one packet: (size, ECN-capable)
 * \param linkRate the server's rate, bit/s
 * \return the first divergence (empty if none) and counts
 */
inline RedTwinRun
RunRedTwins(Ptr<QueueDisc> reference,
            Ptr<QueueDisc> candidate,
            const std::function<Ptr<QueueDiscItem>(uint32_t, bool)>& make,
            double linkRate)
{
    RedTwinRun run;
    bool serverBusy = false;

    const auto compare = [&]() {
        const QueueDisc::Stats& a = reference->GetStats();
        const QueueDisc::Stats& b = candidate->GetStats();
        std::ostringstream why;
        for (const char* reason : {RedQueueDisc::UNFORCED_DROP,
                                   RedQueueDisc::FORCED_DROP,
                                   QueueDisc::INTERNAL_QUEUE_DROP})
        {
            if (a.GetNDroppedPackets(reason) != b.GetNDroppedPackets(reason))
            {
                why << reason << ": " << b.GetNDroppedPackets(reason) << " instead of "
                    << a.GetNDroppedPackets(reason) << "; ";
            }
        }
        for (const char* reason : {RedQueueDisc::UNFORCED_MARK, RedQueueDisc::FORCED_MARK})
        {
            if (a.GetNMarkedPackets(reason) != b.GetNMarkedPackets(reason))
            {
                why << reason << ": " << b.GetNMarkedPackets(reason) << " instead of "
                    << a.GetNMarkedPackets(reason) << "; ";
            }
        }
        if (a.nTotalEnqueuedBytes != b.nTotalEnqueuedBytes)
        {
            why << "bytes enqueued: " << b.nTotalEnqueuedBytes << " instead of "
                << a.nTotalEnqueuedBytes;
        }
        return why.str();
    };
    const auto diverge = [&](const std::string& what) {
        std::ostringstream where;
        where << "after arrival " << run.arrivals << " at " << Simulator::Now().As(Time::S) << ": "
              << what;
        run.divergence = where.str();
        Simulator::Stop();
    };

    std::function<void()> serve = [&]() {
        Ptr<QueueDiscItem> a = reference->Dequeue();
        Ptr<QueueDiscItem> b = candidate->Dequeue();
        if (bool(a) != bool(b) || (a && a->GetSize() != b->GetSize()))
        {
            diverge("the dequeues differ");
            return;
        }
        if (!a)
        {
            serverBusy = false;
            return;
        }
        qdisclab::Schedule(Seconds(a->GetSize() * 8 / linkRate), serve);
    };
    const auto arrive = [&](uint32_t size, bool ecnCapable) {
        if (!run.divergence.empty())
        {
            return;
        }
        ++run.arrivals;
        run.idleArrivals += serverBusy ? 0 : 1;
        const bool a = reference->Enqueue(make(size, ecnCapable));
        const bool b = candidate->Enqueue(make(size, ecnCapable));
        const std::string why = compare();
        if (a != b || !why.empty())
        {
            diverge((a ? "accepted by RED, dropped by the candidate; "
                       : (b ? "dropped by RED, accepted by the candidate; " : "")) +
                    why);
            return;
        }
        if (!serverBusy)
        {
            serverBusy = true;
            qdisclab::ScheduleNow(serve);
        }
    };

    std::mt19937_64 rng(20240531);
    std::exponential_distribution<double> gap(1.0);
    std::uniform_int_distribution<int> pick(0, 3);
    std::bernoulli_distribution ecnCapable(0.7);
    const uint32_t sizes[] = {40, 500, 1000, 1500};
    const double meanInterArrival[] = {0.3e-3, 1.7e-3, 0.8e-3, 3.8e-3}; // at 4 Mbit/s
    const double scale = 4e6 / linkRate;
    double t = 0.01;
    for (int phase = 0; phase < 60; ++phase)
    {
        const double end = t + 0.3 * scale;
        const double mean = meanInterArrival[phase % 4] * scale;
        while (t < end)
        {
            const uint32_t size = sizes[pick(rng)];
            const bool ecn = ecnCapable(rng);
            qdisclab::Schedule(Seconds(t), [&arrive, size, ecn]() { arrive(size, ecn); });
            t += mean * gap(rng);
        }
        t += std::uniform_real_distribution<double>(0, 0.4)(rng) * scale;
    }
    Simulator::Run();
    Simulator::Destroy();
    return run;
}

} // namespace test
} // namespace qdisclab
} // namespace ns3

#endif /* QDISC_LAB_RED_TWINS_H */
