/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RedCore against ns-3's RedQueueDisc: a thin queue disc on the core (this file's
// RedCoreTestQueueDisc, the least a queue disc can add to it) and RedQueueDisc, with the same
// random stream, see the same arrivals, dequeues and idle periods and must take the same
// decision for every packet, in packet and byte mode, with and without Gentle and Wait, with ECN
// marks and hard drops.

#include "qdisc-lab-red-twins.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/packet.h"
#include "ns3/queue-disc.h"
#include "ns3/random-variable-stream.h"
#include "ns3/red-core.h"
#include "ns3/red-queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <random>
#include <sstream>

using namespace ns3;

namespace
{

using qdisclab::test::EcnTestItem;

/// \return a span of ns-3 time steps in seconds, as ns-3 converts a Time
double
TimeStepsToSeconds(int64_t ticks)
{
    return Time(ticks).GetSeconds();
}

} // namespace

namespace ns3
{

/**
 * \ingroup qdisc-lab-tests
 * The thinnest queue disc on a RedCore: one FIFO, the core told of every arrival, enqueue and
 * empty dequeue, its verdicts acted on with RedQueueDisc's drop and mark reasons.
 */
class RedCoreTestQueueDisc : public QueueDisc
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::RedCoreTestQueueDisc")
                                .SetParent<QueueDisc>()
                                .SetGroupName("QdiscLab")
                                .AddConstructor<RedCoreTestQueueDisc>();
        return tid;
    }

    RedCoreTestQueueDisc()
        : QueueDisc(QueueDiscSizePolicy::SINGLE_INTERNAL_QUEUE),
          m_uv(CreateObject<UniformRandomVariable>())
    {
    }

    /// \param p the core's parameters (set before Initialize)
    void SetParams(RedCore::Params p)
    {
        p.ticksToSeconds = &TimeStepsToSeconds;
        m_params = p;
    }

    /**
     * \param stream the random stream
     * \return 1
     */
    int64_t AssignStreams(int64_t stream)
    {
        m_uv->SetStream(stream);
        return 1;
    }

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override
    {
        const double q = GetInternalQueue(0)->GetCurrentSize().GetValue();
        m_core.UpdateAverage(q, Simulator::Now().GetTimeStep());
        switch (m_core.Decide(q, item->GetSize(), [this]() { return m_uv->GetValue(); }))
        {
        case RedCore::ACCEPT:
            break;
        case RedCore::EARLY_MARK:
            if (Mark(item, RedQueueDisc::UNFORCED_MARK))
            {
                break;
            }
            [[fallthrough]];
        case RedCore::EARLY_DROP:
            DropBeforeEnqueue(item, RedQueueDisc::UNFORCED_DROP);
            return false;
        case RedCore::FORCED_MARK:
            if (Mark(item, RedQueueDisc::FORCED_MARK))
            {
                break;
            }
            [[fallthrough]];
        case RedCore::FORCED_DROP:
            DropBeforeEnqueue(item, RedQueueDisc::FORCED_DROP);
            return false;
        }
        if (!GetInternalQueue(0)->Enqueue(item))
        {
            return false;
        }
        m_core.NotifyBusy();
        return true;
    }

    Ptr<QueueDiscItem> DoDequeue() override
    {
        Ptr<QueueDiscItem> item = GetInternalQueue(0)->Dequeue();
        if (!item)
        {
            m_core.NotifyIdle(Simulator::Now().GetTimeStep());
        }
        return item;
    }

    bool CheckConfig() override
    {
        AddInternalQueue(
            CreateObjectWithAttributes<DropTailQueue<QueueDiscItem>>("MaxSize",
                                                                     QueueSizeValue(GetMaxSize())));
        m_params.byteMode = GetMaxSize().GetUnit() == QueueSizeUnit::BYTES;
        return RedCore::Check(m_params).empty();
    }

    void InitializeParams() override
    {
        m_core.Configure(m_params);
    }

    RedCore::Params m_params;        //!< parameters
    RedCore m_core;                  //!< RED
    Ptr<UniformRandomVariable> m_uv; //!< RED's draws
};

} // namespace ns3

/**
 * \ingroup qdisc-lab-tests
 * RedCoreTestQueueDisc and RedQueueDisc, same configuration and random stream, on the same
 * random traffic through overload, moderate load and idle periods (RunRedTwins): the same
 * decision for every packet, and enough early and forced decisions to mean something.
 */
class RedCoreMatchesRedTestCase : public TestCase
{
  public:
    /// \param config the configuration
    explicit RedCoreMatchesRedTestCase(const qdisclab::test::RedTwinConfig& config)
        : TestCase("RedCore matches RedQueueDisc drop for drop: " + config.name),
          m_config(config)
    {
    }

  private:
    void DoRun() override
    {
        const auto& c = m_config;
        RedCore::Params p;
        p.minTh = c.MinTh();
        p.maxTh = c.MaxTh();
        p.maxP = 1.0 / c.lInterm; // as RedQueueDisc computes it
        p.qW = c.qW;
        p.wait = c.wait;
        p.gentle = c.gentle;
        p.meanPktSize = c.meanPktSize;
        p.linkBandwidth = c.linkRate;
        p.useEcn = c.ecn;
        p.useHardDrop = c.hardDrop;

        Ptr<RedQueueDisc> red = c.MakeRed();
        auto core = CreateObject<RedCoreTestQueueDisc>();
        core->SetParams(p);
        core->SetMaxSize(QueueSize(c.Limit()));
        red->Initialize();
        core->Initialize();
        red->AssignStreams(11);
        core->AssignStreams(11);

        const auto run = qdisclab::test::RunRedTwins(
            red,
            core,
            [](uint32_t size, bool ecn) { return Create<EcnTestItem>(size, ecn); },
            c.linkRate);
        NS_TEST_ASSERT_MSG_EQ(run.divergence, "", "the twins diverged");
        NS_TEST_EXPECT_MSG_GT(run.arrivals, 20000, "arrivals");
        NS_TEST_EXPECT_MSG_GT(run.idleArrivals, 1000, "arrivals to an idle queue");

        const QueueDisc::Stats& s = red->GetStats();
        const uint32_t early = s.GetNDroppedPackets(RedQueueDisc::UNFORCED_DROP) +
                               s.GetNMarkedPackets(RedQueueDisc::UNFORCED_MARK);
        const uint32_t forced = s.GetNDroppedPackets(RedQueueDisc::FORCED_DROP) +
                                s.GetNMarkedPackets(RedQueueDisc::FORCED_MARK);
        NS_TEST_EXPECT_MSG_GT(early, 20, "enough early drops/marks to compare");
        NS_TEST_EXPECT_MSG_GT(forced, 20, "enough forced drops/marks to compare");
        if (c.ecn)
        {
            NS_TEST_EXPECT_MSG_GT(s.GetNMarkedPackets(RedQueueDisc::UNFORCED_MARK),
                                  20,
                                  "early marks");
            NS_TEST_EXPECT_MSG_GT(s.GetNDroppedPackets(RedQueueDisc::UNFORCED_DROP),
                                  5,
                                  "early drops of packets that are not ECN-capable");
        }
        if (c.ecn && !c.hardDrop)
        {
            NS_TEST_EXPECT_MSG_GT(s.GetNMarkedPackets(RedQueueDisc::FORCED_MARK),
                                  20,
                                  "forced marks");
        }
    }

    qdisclab::test::RedTwinConfig m_config; //!< configuration
};

/**
 * \ingroup qdisc-lab-tests
 * The RED core's suite.
 */
class RedCoreTestSuite : public TestSuite
{
  public:
    RedCoreTestSuite()
        : TestSuite("qdisc-lab-red-core")
    {
        for (const auto& c : qdisclab::test::RedTwinConfigs())
        {
            AddTestCase(new RedCoreMatchesRedTestCase(c));
        }
    }
};

/// The suite's instance.
static RedCoreTestSuite g_redCoreTestSuite;
