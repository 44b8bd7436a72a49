# SPDX-License-Identifier: GPL-2.0-only
"""Counting JUnit XML outcomes (ctest's and pytest's dialects)."""

from qdisclab.toolchain.junit import Counts, closing_line, summarize

# What ctest 3.25 writes with --output-junit (one failed, one skipped, one disabled).
CTEST_XML = """<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="qdisc-lab" tests="5" failures="1" disabled="1" skipped="1" hostname="" time="0">
  <testcase name="ns3-suite-a" classname="ns3-suite-a" time="0.1" status="run">
    <system-out></system-out>
  </testcase>
  <testcase name="Gtest.Case" classname="Gtest.Case" time="0.1" status="run"/>
  <testcase name="bad" classname="bad" time="0.002" status="fail">
    <failure message=""/>
  </testcase>
  <testcase name="skip" classname="skip" time="0.003" status="notrun">
    <skipped message="SKIP_RETURN_CODE=77"/>
  </testcase>
  <testcase name="dis" classname="dis" time="0" status="disabled">
    <system-out>Disabled</system-out>
  </testcase>
</testsuite>
"""

# pytest's --junitxml format: failures, errors and skips are child elements.
PYTEST_XML = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" errors="1" failures="1" skipped="1" tests="6">
  <testcase classname="tests.test_a" name="test_ok" time="0.001"/>
  <testcase classname="tests.test_a" name="test_ok2" time="0.001"/>
  <testcase classname="tests.test_a" name="test_ok3" time="0.001"/>
  <testcase classname="tests.test_a" name="test_fail" time="0.001">
    <failure message="assert 1 == 2">trace</failure>
  </testcase>
  <testcase classname="tests.test_b" name="test_error" time="0.001">
    <error message="fixture failed">trace</error>
  </testcase>
  <testcase classname="tests.test_b" name="test_skip" time="0.001">
    <skipped type="pytest.skip" message="no binary">reason</skipped>
  </testcase>
</testsuite></testsuites>
"""


def test_ctest_counts(tmp_path):
    path = tmp_path / "ctest.xml"
    path.write_text(CTEST_XML)
    counts = summarize(path)
    assert (counts.passed, counts.failed, counts.skipped) == (2, 1, 2)
    assert counts.failures == ["bad"]


def test_pytest_counts(tmp_path):
    path = tmp_path / "pytest.xml"
    path.write_text(PYTEST_XML)
    counts = summarize(path)
    assert (counts.passed, counts.failed, counts.skipped) == (3, 2, 1)
    assert counts.failures == ["tests.test_a::test_fail", "tests.test_b::test_error"]


def test_empty_suite(tmp_path):
    path = tmp_path / "empty.xml"
    path.write_text('<testsuite name="x" tests="0"/>')
    assert summarize(path).total == 0


def test_counts_add_and_closing_line():
    total = Counts(3, 1, 0, ["a"]) + Counts(2, 0, 0)
    assert (total.passed, total.failed, total.skipped, total.failures) == (5, 1, 0, ["a"])
    assert closing_line(total) == "5 passed, 1 failed"
    assert closing_line(Counts(5, 0, 2)) == "5 passed, 0 failed, 2 skipped"
