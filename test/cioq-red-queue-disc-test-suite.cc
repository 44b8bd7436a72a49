/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qdisc-lab-red-twins.h"

#include "ns3/cioq-input-backlog.h"
#include "ns3/cioq-red-queue-disc.h"
#include "ns3/cioq-switch-helper.h"
#include "ns3/double.h"
#include "ns3/packet.h"
#include "ns3/string.h"
#include "ns3/test.h"

using namespace ns3;

namespace
{

using qdisclab::test::EcnTestItem;

/**
 * A CioqRedQueueDisc configured as the twin configuration's RedQueueDisc.
 * \param c the configuration
 * \param nu InputWeight
 * \return the queue disc (not initialized)
 */
Ptr<CioqRedQueueDisc>
MakeCioqRed(const qdisclab::test::RedTwinConfig& c, double nu)
{
    auto qd = c.MakeRed<CioqRedQueueDisc>();
    qd->SetAttribute("InputWeight", DoubleValue(nu));
    return qd;
}

/// A CioqInputBacklog that records its deletion.
class WatchedBacklog : public CioqInputBacklog
{
  public:
    /// \param deleted set to true by the destructor
    explicit WatchedBacklog(bool* deleted)
        : m_deleted(deleted)
    {
    }

    ~WatchedBacklog() override
    {
        *m_deleted = true;
    }

  private:
    bool* m_deleted; //!< set on deletion
};

} // namespace

/**
 * \ingroup qdisc-lab-tests
 * With nu = 0, or with no input backlog supplied (outside a switch), CioqRedQueueDisc is
 * RedQueueDisc: same configuration, same random stream, same random traffic (RunRedTwins), the
 * same decision for every packet. With nu = 0 the input backlog is large and ignored.
 */
class CioqRedMatchesRedTestCase : public TestCase
{
  public:
    /**
     * \param config the configuration
     * \param inSwitch give the queue disc an input backlog (and nu = 0), or none (nu = 0.5)
     */
    CioqRedMatchesRedTestCase(const qdisclab::test::RedTwinConfig& config, bool inSwitch)
        : TestCase(std::string("CioqRedQueueDisc is RedQueueDisc ") +
                   (inSwitch ? "with nu = 0: " : "outside a switch: ") + config.name),
          m_config(config),
          m_inSwitch(inSwitch)
    {
    }

  private:
    void DoRun() override
    {
        const auto& c = m_config;
        Ptr<RedQueueDisc> red = c.MakeRed();
        Ptr<CioqRedQueueDisc> cioq = MakeCioqRed(c, m_inSwitch ? 0.0 : 0.5);
        if (m_inSwitch)
        {
            auto backlog = CreateObject<CioqInputBacklog>();
            for (int k = 0; k < 37; ++k)
            {
                backlog->Add(1000);
            }
            cioq->AggregateObject(backlog);
        }
        red->Initialize();
        cioq->Initialize();
        NS_TEST_ASSERT_MSG_EQ(cioq->HasInputBacklog(), m_inSwitch, "input backlog supplied");
        red->AssignStreams(11);
        cioq->AssignStreams(11);
        const auto run = qdisclab::test::RunRedTwins(
            red,
            cioq,
            [](uint32_t size, bool ecn) { return Create<EcnTestItem>(size, ecn); },
            c.linkRate);
        NS_TEST_ASSERT_MSG_EQ(run.divergence, "", "CioqRedQueueDisc and RedQueueDisc diverged");
        NS_TEST_EXPECT_MSG_GT(run.arrivals, 20000, "arrivals");
        const QueueDisc::Stats& s = red->GetStats();
        NS_TEST_EXPECT_MSG_GT(s.GetNDroppedPackets(RedQueueDisc::UNFORCED_DROP) +
                                  s.GetNMarkedPackets(RedQueueDisc::UNFORCED_MARK),
                              20,
                              "enough early decisions to compare");
    }

    qdisclab::test::RedTwinConfig m_config; //!< configuration
    bool m_inSwitch;                        //!< with an input backlog
};

/**
 * \ingroup qdisc-lab-tests
 * Equation (2): the average follows nu q_input + q_output, arrival by arrival, computed here by
 * hand; the input backlog makes it drop while the output queue alone is short, where RED with
 * the same output queue drops nothing; all drops are taken at the output queue.
 */
class CioqRedEquationTwoTestCase : public TestCase
{
  public:
    CioqRedEquationTwoTestCase()
        : TestCase("CioqRedQueueDisc: equation (2), and early drops driven by the input backlog")
    {
    }

  private:
    void DoRun() override
    {
        const double nu = 0.5;
        const double w = 0.25;
        auto qd = CreateObject<CioqRedQueueDisc>();
        qd->SetAttribute("InputWeight", DoubleValue(nu));
        qd->SetAttribute("QW", DoubleValue(w));
        qd->SetAttribute("MaxSize", StringValue("100p"));
        auto backlog = CreateObject<CioqInputBacklog>();
        qd->AggregateObject(backlog);
        qd->Initialize();
        qd->AssignStreams(5);
        auto red = CreateObject<RedQueueDisc>();
        red->SetAttribute("QW", DoubleValue(w));
        red->SetAttribute("LInterm", DoubleValue(10));
        red->SetAttribute("MaxSize", StringValue("100p"));
        red->Initialize();
        red->AssignStreams(5);

        // The input backlog grows by one packet per arrival; the output queue is served down to
        // 2 packets after every arrival, so each arrival finds 2 (from the third on).
        double avg = 0;
        uint32_t qOut = 0;
        for (uint32_t k = 0; k < 200; ++k)
        {
            backlog->Add(1000);
            const double expected = avg * (1 - w) + w * (nu * backlog->GetPackets() + qOut);
            if (qd->Enqueue(Create<EcnTestItem>(1000, false)))
            {
                ++qOut;
            }
            NS_TEST_ASSERT_MSG_EQ_TOL(qd->GetAverage(), expected, 1e-9, "arrival " << k);
            avg = expected;
            red->Enqueue(Create<EcnTestItem>(1000, false));
            if (qOut > 2)
            {
                qOut -= qd->Dequeue() ? 1 : 0;
            }
            if (red->GetNPackets() > 2)
            {
                red->Dequeue();
            }
        }
        NS_TEST_ASSERT_MSG_LT_OR_EQ(qd->GetNPackets(), 3, "the output queue stayed short");
        const QueueDisc::Stats& s = qd->GetStats();
        NS_TEST_EXPECT_MSG_GT(s.GetNDroppedPackets(CioqRedQueueDisc::UNFORCED_DROP) +
                                  s.GetNDroppedPackets(CioqRedQueueDisc::FORCED_DROP),
                              5,
                              "the input backlog drives drops at the output");
        NS_TEST_EXPECT_MSG_EQ(red->GetStats().nTotalDroppedPackets,
                              0,
                              "RED on the same output queue alone drops nothing");
        NS_TEST_EXPECT_MSG_EQ(s.nTotalReceivedPackets,
                              s.nTotalDroppedPackets + s.nTotalDequeuedPackets + qd->GetNPackets(),
                              "drops only at the output queue");
    }
};

/**
 * \ingroup qdisc-lab-tests
 * As the output queue discs of a CIOQ switch (through CioqSwitchHelper), CioqRedQueueDisc reads
 * the switch's input backlog for its own output.
 */
class CioqRedInSwitchTestCase : public TestCase
{
  public:
    CioqRedInSwitchTestCase()
        : TestCase("CioqRedQueueDisc at the outputs of a switch reads that output's backlog")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer hosts;
        hosts.Create(3);
        CioqSwitchHelper helper;
        helper.SetOutputQueueDisc("ns3::CioqRedQueueDisc", "InputWeight", DoubleValue(0.125));
        CioqSwitchHelper::Star star = helper.InstallStar(CreateObject<Node>(), hosts);
        star.device->Initialize();
        for (uint32_t j = 0; j < 3; ++j)
        {
            auto qd = DynamicCast<CioqRedQueueDisc>(star.device->GetOutputQueueDisc(j));
            NS_TEST_ASSERT_MSG_NE(qd, nullptr, "output " << j << " runs CioqRedQueueDisc");
            NS_TEST_ASSERT_MSG_EQ(qd->HasInputBacklog(), true, "output " << j);
            NS_TEST_ASSERT_MSG_EQ(PeekPointer(qd->GetObject<CioqInputBacklog>()),
                                  PeekPointer(star.device->GetInputBacklog(j)),
                                  "output " << j << " reads its own backlog");
            DoubleValue nu;
            qd->GetAttribute("InputWeight", nu);
            NS_TEST_ASSERT_MSG_EQ(nu.Get(), 0.125, "attributes from the helper");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup qdisc-lab-tests
 * The queue disc finds the backlog aggregated to it before or after Initialize, and does not
 * keep its own aggregate alive: dropping the last Ptr deletes both, without Dispose (a Ptr to
 * the backlog would be a reference cycle, which LeakSanitizer reported).
 */
class CioqRedAggregateTestCase : public TestCase
{
  public:
    CioqRedAggregateTestCase()
        : TestCase("CioqRedQueueDisc: finds its aggregated backlog, and is deleted with it")
    {
    }

  private:
    void DoRun() override
    {
        for (const bool before : {true, false})
        {
            bool deleted = false;
            {
                auto qd = CreateObject<CioqRedQueueDisc>();
                auto backlog = CreateObject<WatchedBacklog>(&deleted);
                if (before)
                {
                    qd->AggregateObject(backlog);
                }
                qd->Initialize();
                if (!before)
                {
                    qd->AggregateObject(backlog);
                }
                NS_TEST_ASSERT_MSG_EQ(qd->HasInputBacklog(),
                                      true,
                                      "aggregated " << (before ? "before" : "after")
                                                    << " Initialize");
            }
            NS_TEST_ASSERT_MSG_EQ(deleted,
                                  true,
                                  "aggregate deleted with its last Ptr, aggregated "
                                      << (before ? "before" : "after") << " Initialize");
        }
    }
};

/**
 * \ingroup qdisc-lab-tests
 * CioqRedQueueDisc's test suite.
 */
class CioqRedQueueDiscTestSuite : public TestSuite
{
  public:
    CioqRedQueueDiscTestSuite()
        : TestSuite("qdisc-lab-cioq-red-queue-disc")
    {
        for (const auto& config : qdisclab::test::RedTwinConfigs())
        {
            AddTestCase(new CioqRedMatchesRedTestCase(config, true));
        }
        AddTestCase(new CioqRedMatchesRedTestCase(qdisclab::test::RedTwinConfigs().front(), false));
        AddTestCase(new CioqRedEquationTwoTestCase());
        AddTestCase(new CioqRedInSwitchTestCase());
        AddTestCase(new CioqRedAggregateTestCase());
    }
};

/// Registers the suite.
static CioqRedQueueDiscTestSuite g_cioqRedQueueDiscTestSuite;
