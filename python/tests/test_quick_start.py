# SPDX-License-Identifier: GPL-2.0-only
"""The quick starts, examples/quick-start.cc and examples/python/quick-start.py: the table they
print, DRR's weighted shares and RIO's IN flow near its profile.

The C++ program runs on the system build (``qdisc-lab build``); the Python one needs the wheel
build (``qdisc-lab build --ns3 wheel``) and ns-3's Python bindings.
"""

import os
import subprocess
import sys

import pytest

from built_examples import example, needs_build
from qdisclab import ns
from qdisclab.context import PYTHON_DIR, REPO
from qdisclab.toolchain.build import build_dir

BINARY = example("quick-start")
SCRIPT = REPO / "examples" / "python" / "quick-start.py"
#: The arguments test/examples-to-run.py runs the C++ quick start with.
ARGS = "--quick"
#: What each flow is, by destination port, in the order the table lists them.
FLOWS = {5000: "DRR weight 1", 5001: "DRR weight 2", 5002: "DRR weight 3",
         6000: "RIO IN 1.5Mbps", 6001: "RIO best effort", 6002: "RIO best effort"}
#: The bottleneck's rate at the IP layer: 3 Mb/s less PPP's 2 bytes per 1028-byte IP packet.
BOTTLENECK_IP_MBPS = 3 * 1028 / 1030


def parse_table(stdout: str) -> dict[int, tuple[str, float]]:
    """dport -> (flow, goodput in Mb/s), from the quick start's table."""
    header, *rows = stdout.splitlines()
    assert header.split() == ["flow", "dport", "goodput_mbps"]
    table = {}
    for row in rows:
        *words, port, mbps = row.split()
        table[int(port)] = (" ".join(words), float(mbps))
    return table


def check_table(table: dict[int, tuple[str, float]]) -> None:
    assert {port: flow for port, (flow, _) in table.items()} == FLOWS
    assert list(table) == sorted(FLOWS)
    mbps = {port: rate for port, (_, rate) in table.items()}
    # DRR: the three UDP flows fill the bottleneck, each with weight / 6 of it (within 10 %: the
    # measurement starts with each flow's first packet, before the queue holds all three).
    drr = [mbps[5000], mbps[5001], mbps[5002]]
    assert sum(drr) == pytest.approx(BOTTLENECK_IP_MBPS, rel=0.01)
    for weight, rate in zip((1, 2, 3), drr):
        assert rate / sum(drr) == pytest.approx(weight / 6, rel=0.10), drr
    # RIO: the IN flow gets well above an equal share (1 Mb/s; more than 1.25), more than either
    # best-effort flow, and at most 105 % of its 1.5 Mb/s profile (TCP's sawtooth keeps an
    # assured flow below its profile: 1.343 on Debian's 3.37, 1.267 on the 3.44 wheel, --quick);
    # the three TCP flows fill the bottleneck.
    rio_in, best_effort = mbps[6000], [mbps[6001], mbps[6002]]
    assert rio_in <= 1.05 * 1.5, rio_in
    assert rio_in > max(best_effort) and rio_in > 1.25
    assert rio_in + sum(best_effort) == pytest.approx(3.0, rel=0.05)


@needs_build(BINARY)
def test_cpp_quick_start_shares_and_profile():
    result = subprocess.run([str(BINARY), *ARGS.split()], capture_output=True, text=True,
                            timeout=300, check=True)
    check_table(parse_table(result.stdout))


def test_the_table_check_fails_on_equal_shares():
    """The check is not vacuous: FIFO-like equal shares and an IN flow at its fair share fail."""
    equal = "flow dport goodput_mbps\n" + "".join(
        f"{name} {port} 1.0\n" for port, name in FLOWS.items())
    with pytest.raises(AssertionError):
        check_table(parse_table(equal))


needs_wheel_build = pytest.mark.skipif(
    not (build_dir("wheel") / ns.LIBRARY).is_file(),
    reason="build/wheel not built (qdisc-lab build --ns3 wheel)",
)


@needs_wheel_build
def test_python_quick_start_shares_and_profile():
    env = {**os.environ, "PYTHONPATH": str(PYTHON_DIR)}
    env.pop(ns.BUILD_ENV, None)
    result = subprocess.run([sys.executable, "-m", "qdisclab", "python", str(SCRIPT), "--quick"],
                            env=env, cwd=REPO, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    check_table(parse_table(result.stdout))
