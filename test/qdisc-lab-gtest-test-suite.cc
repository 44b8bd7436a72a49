/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The module's GoogleTest unit tests (test/unit) as one ns-3 test suite, so that ns-3's test.py
// runs them in-tree too. The build compiles them into their own program, qdisc-lab-gtest, and
// gives this file its path as QDISC_LAB_GTEST_BINARY (test/unit/CMakeLists.txt; wscript on
// waf-era ns-3); the suite runs the program and fails naming the GoogleTest tests that failed.
// Where GoogleTest is missing the program is not built, the configuration step says so, and
// this suite is not registered.

#include "ns3/test.h"

#ifdef QDISC_LAB_GTEST_BINARY

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <set>
#include <sstream>
#include <string>

using namespace ns3;

namespace
{

/**
 * \ingroup qdisc-lab-tests
 * The GoogleTest results in a program's output.
 */
struct GtestOutcome
{
    uint64_t passed = 0;          //!< the count of "[  PASSED  ] N tests."
    std::set<std::string> failed; //!< names of the failed tests (Suite.Test)
    std::string tail;             //!< the output's last lines, for the failure message
};

/**
 * \param output what a GoogleTest program printed
 * \return its passed count and failed tests
 */
GtestOutcome
ReadGtestOutput(const std::string& output)
{
    const std::string passed = "[  PASSED  ] ";
    const std::string failed = "[  FAILED  ] ";
    GtestOutcome outcome;
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);)
    {
        if (line.rfind(passed, 0) == 0)
        {
            outcome.passed = std::stoull(line.substr(passed.size()));
        }
        else if (line.rfind(failed, 0) == 0 && line.size() > failed.size() &&
                 !std::isdigit(static_cast<unsigned char>(line[failed.size()])))
        {
            // "[  FAILED  ] Suite.Test (12 ms)" or, in the summary, "[  FAILED  ] Suite.Test".
            const std::string rest = line.substr(failed.size());
            outcome.failed.insert(rest.substr(0, rest.find_first_of(" ,")));
        }
    }
    const std::size_t keep = 2000;
    outcome.tail = output.size() > keep ? output.substr(output.size() - keep) : output;
    return outcome;
}

/**
 * \ingroup qdisc-lab-tests
 * Runs the qdisc-lab-gtest program: it must exit 0 with at least one test passed and none
 * failed. Its temporary files (GoogleTest's TempDir) go to this test case's temporary directory.
 */
class GtestProgramTestCase : public TestCase
{
  public:
    GtestProgramTestCase()
        : TestCase("qdisc-lab-gtest: every GoogleTest unit test passes")
    {
    }

  private:
    void DoRun() override
    {
        const std::string tempDir = CreateTempDirFilename("");
        const std::string command = "TEST_TMPDIR=\"" + tempDir + "\" \"" +
                                    std::string(QDISC_LAB_GTEST_BINARY) +
                                    "\" --gtest_color=no 2>&1";
        FILE* pipe = popen(command.c_str(), "r");
        NS_TEST_ASSERT_MSG_EQ((pipe != nullptr), true, "cannot run " << command);
        std::string output;
        char buffer[4096];
        for (std::size_t n; (n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0;)
        {
            output.append(buffer, n);
        }
        const int status = pclose(pipe);

        const GtestOutcome outcome = ReadGtestOutput(output);
        std::string failed;
        for (const auto& name : outcome.failed)
        {
            failed += (failed.empty() ? "" : ", ") + name;
        }
        NS_TEST_EXPECT_MSG_EQ(failed, "", "GoogleTest tests failed:\n" << outcome.tail);
        NS_TEST_EXPECT_MSG_EQ(status,
                              0,
                              command << " exited with " << status << ":\n"
                                      << outcome.tail);
        NS_TEST_EXPECT_MSG_GT(outcome.passed, 0, "no GoogleTest test passed:\n" << outcome.tail);
    }
};

/**
 * \ingroup qdisc-lab-tests
 * The output reader: the counts and names of GoogleTest's own output lines.
 */
class GtestOutputTestCase : public TestCase
{
  public:
    GtestOutputTestCase()
        : TestCase("qdisc-lab-gtest: reading GoogleTest's output")
    {
    }

  private:
    void DoRun() override
    {
        const GtestOutcome ok = ReadGtestOutput("[==========] 3 tests from 1 test suite ran.\n"
                                                "[  PASSED  ] 3 tests.\n");
        NS_TEST_EXPECT_MSG_EQ(ok.passed, 3, "passed count");
        NS_TEST_EXPECT_MSG_EQ(ok.failed.size(), 0, "no failure");

        const GtestOutcome bad =
            ReadGtestOutput("[ RUN      ] A.One\n"
                            "[  FAILED  ] A.One (0 ms)\n"
                            "[  FAILED  ] P/B.Two/1, where GetParam() = 4 (1 ms)\n"
                            "[  PASSED  ] 5 tests.\n"
                            "[  FAILED  ] 2 tests, listed below:\n"
                            "[  FAILED  ] A.One\n"
                            "[  FAILED  ] P/B.Two/1, where GetParam() = 4\n"
                            "\n 2 FAILED TESTS\n");
        NS_TEST_EXPECT_MSG_EQ(bad.passed, 5, "passed count");
        NS_TEST_EXPECT_MSG_EQ(bad.failed.size(), 2, "the two failed tests, once each");
        NS_TEST_EXPECT_MSG_EQ(bad.failed.count("A.One"), 1, "A.One");
        NS_TEST_EXPECT_MSG_EQ(bad.failed.count("P/B.Two/1"), 1, "P/B.Two/1");
    }
};

/**
 * \ingroup qdisc-lab-tests
 * The GoogleTest unit tests' suite.
 */
class GtestTestSuite : public TestSuite
{
  public:
    GtestTestSuite()
        : TestSuite("qdisc-lab-gtest")
    {
#ifdef NS_TEST_SOURCEDIR
        SetDataDir(NS_TEST_SOURCEDIR); // where test.py --update-data puts temporary files
#endif
        AddTestCase(new GtestOutputTestCase());
        AddTestCase(new GtestProgramTestCase());
    }
};

/// The suite's instance.
static GtestTestSuite g_gtestTestSuite;

} // namespace

#endif // QDISC_LAB_GTEST_BINARY
