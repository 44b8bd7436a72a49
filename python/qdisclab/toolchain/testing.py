# SPDX-License-Identifier: GPL-2.0-only
"""The test sources of ``qdisc-lab test``: ctest, pytest and the clang-format check, each as counts.

Each source writes (or is turned into) test counts; the command prints a
table per source and ends with the plain line ``N passed, N failed``.

``--sanitize`` runs the sanitized build's ctest instead: every ns-3 test suite, every
GoogleTest and every example's ``--quick`` run (the build registers each as a ctest), each
failing on its first AddressSanitizer, LeakSanitizer or UBSan report.
"""

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import click

from qdisclab.context import PYTHON_DIR, REPO
from qdisclab.toolchain import proc
from qdisclab.toolchain.build import build, build_dir, runtime_env
from qdisclab.toolchain.junit import Counts, summarize

# Set in the environment of the pytest run, so no test re-enters `qdisc-lab test`.
IN_PYTEST_ENV = "QDISC_LAB_IN_PYTEST"
FORMAT_DIRS = ("model", "helper", "experiment", "test", "examples")
FORMAT_SUFFIXES = (".cc", ".h")
FORMAT_TEST = "clang-format"
# clang-format --dry-run -Werror reports "<file>:<line>:<col>: error: ...".
_FORMAT_DIAGNOSTIC = re.compile(r"^(?P<file>.+?):\d+:\d+: (?:error|warning):", re.MULTILINE)


@dataclass
class SourceResult:
    """Counts of one test source (``ctest/system``, ``pytest``, ``format``)."""

    name: str
    counts: Counts
    note: str = ""


def _failed(name: str, test: str, note: str) -> SourceResult:
    return SourceResult(name, Counts(failed=1, failures=[test]), note)


def run_ctest(flavor: str, pattern: str | None = None, sanitize: bool = False) -> SourceResult:
    """Build ``flavor`` (its sanitized build with ``sanitize``) and run its ctest suite
    (``-R pattern`` when given)."""
    name = f"ctest/{build_dir(flavor, sanitize).name}"
    try:
        out = build(flavor, sanitize=sanitize)
    except (subprocess.CalledProcessError, click.ClickException) as exc:
        return _failed(name, f"build ({flavor})", f"build failed: {exc}")
    junit = out / "ctest-junit.xml"
    junit.unlink(missing_ok=True)
    cmd = [
        "ctest",
        "--test-dir",
        str(out),
        "--output-junit",
        str(junit),
        "--output-on-failure",
        "--parallel",
        str(os.cpu_count() or 1),
    ]
    if pattern:
        cmd += ["-R", pattern]
    result = proc.run(cmd, env=runtime_env(flavor, sanitize), check=False)
    if not junit.is_file():
        return _failed(name, f"ctest ({flavor})", f"no JUnit output (exit {result.returncode})")
    counts = summarize(junit)
    if result.returncode != 0 and counts.failed == 0:
        counts.failed += 1
        counts.failures.append(f"ctest ({flavor}) exit status {result.returncode}")
    return SourceResult(name, counts)


def run_pytest(pattern: str | None = None) -> SourceResult:
    """Run the Python tests under python/tests (``-k pattern`` when given)."""
    junit = REPO / "build" / "pytest-junit.xml"
    junit.parent.mkdir(parents=True, exist_ok=True)
    junit.unlink(missing_ok=True)
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        str(PYTHON_DIR / "tests"),
        f"--junitxml={junit}",
        "-q",
        "--tb=short",
        # One worker per core (pytest-xdist): most tests run an example program or a small
        # campaign, one process each, so two cores take about half the time (measured: 347 s
        # against 788 s for the whole suite on two cores).
        "-n",
        "auto",
    ]
    if pattern:
        cmd += ["-k", pattern]
    result = proc.run(cmd, env={IN_PYTEST_ENV: "1"}, check=False, cwd=REPO)
    if not junit.is_file():
        return _failed("pytest", "pytest", f"no JUnit output (exit {result.returncode})")
    counts = summarize(junit)
    # 0: passed, 1: tests failed, 5: none collected; anything else broke pytest itself.
    if result.returncode not in (0, 1, 5) and counts.failed == 0:
        counts.failed += 1
        counts.failures.append(f"pytest exit status {result.returncode}")
    return SourceResult("pytest", counts)


def format_sources(repo: Path = REPO) -> list[Path]:
    """The C++ files the format check covers, relative to ``repo``."""
    return sorted(
        path.relative_to(repo)
        for directory in FORMAT_DIRS
        for path in (repo / directory).rglob("*")
        if path.suffix in FORMAT_SUFFIXES and path.is_file()
    )


def offending_files(diagnostics: str) -> list[str]:
    """Files named in clang-format's ``--dry-run`` diagnostics, in order, once each."""
    return list(dict.fromkeys(m["file"] for m in _FORMAT_DIAGNOSTIC.finditer(diagnostics)))


def run_format_check() -> SourceResult:
    """``clang-format --dry-run -Werror`` over the C++ sources: one test, ``clang-format``."""
    name = "format"
    sources = format_sources()
    if not sources:
        return SourceResult(name, Counts(skipped=1), "no C++ sources")
    if shutil.which("clang-format") is None:
        return _failed(name, FORMAT_TEST, "clang-format is not installed")
    result = proc.run(
        ["clang-format", "--dry-run", "-Werror", "--style=file", *map(str, sources)],
        cwd=REPO,
        check=False,
        capture=True,
    )
    if result.returncode == 0:
        return SourceResult(name, Counts(passed=1), f"{len(sources)} files")
    offenders = offending_files(result.stderr)
    note = "needs formatting: " + ", ".join(offenders) if offenders else result.stderr.strip()
    return _failed(name, FORMAT_TEST, note)


