/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The compat layer's lambda bridges (model/qdisc-lab-compat.h), which the module's code uses for
// every lambda it gives ns-3: on ns-3 <= 3.35 they are the module's own code, on later releases
// ns-3's calls. Both must schedule in ns-3's order and call back with the arguments given.

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/qdisc-lab-compat.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// What ran, and when (ms).
std::vector<std::pair<std::string, int64_t>> g_ran;

/// A plain function event, scheduled through ns-3's own Simulator::Schedule.
void
Ran(std::string what)
{
    g_ran.emplace_back(what, Simulator::Now().GetMilliSeconds());
}

/**
 * \ingroup qdisc-lab-tests
 * qdisclab::Schedule and ScheduleNow: at the time given, in the order scheduled among ns-3's
 * own events (FIFO for equal times), and cancellable through the returned EventId.
 */
class CompatScheduleTestCase : public TestCase
{
  public:
    CompatScheduleTestCase()
        : TestCase("Schedule and ScheduleNow with lambdas: times, order, cancel")
    {
    }

  private:
    void DoRun() override
    {
        g_ran.clear();
        Simulator::Schedule(MilliSeconds(10), &Ran, "ns-3 first");
        qdisclab::Schedule(MilliSeconds(10), []() {
            Ran("lambda second");
            qdisclab::ScheduleNow([]() { Ran("now, after the others at 10 ms"); });
        });
        Simulator::Schedule(MilliSeconds(10), &Ran, "ns-3 third");
        std::string captured = "captured by value";
        qdisclab::Schedule(MilliSeconds(5), [captured]() { Ran(captured); });
        EventId cancelled = qdisclab::Schedule(MilliSeconds(7), []() { Ran("cancelled"); });
        cancelled.Cancel();
        Simulator::Run();
        Simulator::Destroy();
        const std::vector<std::pair<std::string, int64_t>> expected = {
            {"captured by value", 5},
            {"ns-3 first", 10},
            {"lambda second", 10},
            {"ns-3 third", 10},
            {"now, after the others at 10 ms", 10},
        };
        NS_TEST_ASSERT_MSG_EQ(g_ran.size(), expected.size(), "events that ran");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(g_ran[i].first, expected[i].first, "event " << i);
            NS_TEST_EXPECT_MSG_EQ(g_ran[i].second, expected[i].second, "time of event " << i);
        }
    }
};

/**
 * \ingroup qdisc-lab-tests
 * qdisclab::MakeFunctorCallback: a Callback of the lambda's own signature, or of the type given,
 * that passes arguments and results through; copies share the lambda and compare equal.
 */
class CompatCallbackTestCase : public TestCase
{
  public:
    CompatCallbackTestCase()
        : TestCase("MakeFunctorCallback: signature, arguments, result, copies")
    {
    }

  private:
    void DoRun() override
    {
        int sum = 0;
        Callback<int, int, int> add =
            qdisclab::MakeFunctorCallback([&sum](int a, int b) { return sum += a * b; });
        NS_TEST_EXPECT_MSG_EQ(add(2, 3), 6, "the lambda's result");
        Callback<int, int, int> copy = add;
        NS_TEST_EXPECT_MSG_EQ(copy(1, 4), 10, "a copy calls the same lambda");
        NS_TEST_EXPECT_MSG_EQ(sum, 10, "both calls reached the captured state");
        NS_TEST_EXPECT_MSG_EQ(copy.IsEqual(add), true, "a copy equals its original");
        NS_TEST_EXPECT_MSG_EQ(add.IsNull(), false, "a lambda's callback is not null");

        // A type other than the lambda's own: CommandLine's Callback<bool, std::string> (3.37).
        auto isYes = qdisclab::MakeFunctorCallback<Callback<bool, std::string>>(
            [](const std::string& text) { return text == "yes"; });
        NS_TEST_EXPECT_MSG_EQ(isYes("yes"), true, "the given type's argument reaches the lambda");
        NS_TEST_EXPECT_MSG_EQ(isYes("no"), false, "and its result comes back");
    }
};

/**
 * \ingroup qdisc-lab-tests
 * The compat layer's suite.
 */
class CompatTestSuite : public TestSuite
{
  public:
    CompatTestSuite()
        : TestSuite("qdisc-lab-compat")
    {
        AddTestCase(new CompatScheduleTestCase());
        AddTestCase(new CompatCallbackTestCase());
    }
};

/// The suite's instance.
static CompatTestSuite g_compatTestSuite;

} // namespace
