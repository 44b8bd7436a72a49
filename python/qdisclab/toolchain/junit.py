# SPDX-License-Identifier: GPL-2.0-only
"""Counting test outcomes in JUnit XML files (ctest's and pytest's dialects)."""

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Counts:
    """Outcome counts of one test source, plus the names of the failed tests."""

    passed: int = 0
    failed: int = 0
    skipped: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.passed + self.failed + self.skipped

    def __add__(self, other: "Counts") -> "Counts":
        return Counts(
            self.passed + other.passed,
            self.failed + other.failed,
            self.skipped + other.skipped,
            self.failures + other.failures,
        )


# ctest marks skipped and disabled tests through a status attribute.
_CTEST_SKIP_STATUS = {"notrun", "disabled"}


def _testcase_name(case: ET.Element) -> str:
    name = case.get("name", "?")
    classname = case.get("classname")
    return f"{classname}::{name}" if classname and classname != name else name


def summarize(path: Path) -> Counts:
    """Count the passed, failed (failure or error) and skipped testcases of ``path``.

    Works on a ``<testsuites>`` or a bare ``<testsuite>`` root; ctest's
    ``status="notrun"``/``"disabled"`` count as skipped.
    """
    counts = Counts()
    for case in ET.parse(path).getroot().iter("testcase"):
        if (
            case.find("failure") is not None
            or case.find("error") is not None
            or case.get("status") == "fail"
        ):
            counts.failed += 1
            counts.failures.append(_testcase_name(case))
        elif case.find("skipped") is not None or case.get("status") in _CTEST_SKIP_STATUS:
            counts.skipped += 1
        else:
            counts.passed += 1
    return counts


def closing_line(counts: Counts) -> str:
    """The plain ``N passed, N failed[, N skipped]`` summary line."""
    line = f"{counts.passed} passed, {counts.failed} failed"
    if counts.skipped:
        line += f", {counts.skipped} skipped"
    return line
