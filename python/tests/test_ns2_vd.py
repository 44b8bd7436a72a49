# SPDX-License-Identifier: GPL-2.0-only
"""The Vertical Dimensioning scenario on ns-2.35 (``validation/ns2/vertical-dimensioning-evaluation.tcl``):
its parameters against the ns-3 example's ``--schema``, its report against its own schema, and
what ns-2.35's Queue/SRR does in it on short runs (weighted shares, the per-queue limit, loss and
delay by hand). Without ``ns`` the tests skip, except under ``CI=true``, where they fail.
"""

import pytest

from built_examples import example, needs_build
from ns2_programs import Ns2Program, require_ns2
from qdisclab.context import REPO
from qdisclab.metrics import load_metrics
from qdisclab.schema import parse_schema, read_schema

PROGRAM = REPO / "validation" / "ns2" / "vertical-dimensioning-evaluation.tcl"
EXAMPLE = example("vertical-dimensioning-evaluation")

#: The ns-3 example's parameters ns-2.35 cannot honour (doc/reproductions/vertical-dimensioning.rst).
LEFT_OUT = {"pcap", "flowMonitor", "maxSize", "buckets", "vdReturn", "tcp"}
#: ns-2.35's own: Queue/SRR's limit_ (packets per flow queue).
NS2_ONLY = {"limit"}

#: No background: only the reference flows, short runs.
ALONE = ("--queueDisc=SRR", "--mainBackground=0", "--crossBackground=0", "--warmup=1",
         "--simTime=4", "--drainTime=0.5")


@pytest.fixture(autouse=True)
def ns2():
    require_ns2()


_PROGRAM = Ns2Program(PROGRAM, timeout=60)
run = _PROGRAM.run

metrics = _PROGRAM.metrics


@needs_build(EXAMPLE)
def test_shared_parameters_have_the_ns3_examples_names_types_and_defaults():
    ours = {p["name"]: p for p in parse_schema(run("--schema").stdout).params}
    theirs = {p["name"]: p for p in read_schema(EXAMPLE).params}
    assert set(theirs) - set(ours) == LEFT_OUT
    assert set(ours) - set(theirs) == NS2_ONLY
    for name in set(ours) & set(theirs):
        assert (ours[name]["type"], ours[name]["default"]) == (
            theirs[name]["type"], theirs[name]["default"]), name
    assert {m["name"] for m in parse_schema(run("--schema").stdout).metrics} == {
        m["name"] for m in read_schema(EXAMPLE).metrics}


def test_a_cbr_run_writes_every_metric_its_schema_declares(tmp_path):
    out = tmp_path / "m.json"
    done = run("--queueDisc=SRR", "--simTime=3", "--warmup=1", f"--output={out}")
    assert done.returncode == 0, done.stderr
    doc = load_metrics(out, parse_schema(run("--schema").stdout))
    assert doc["program"] == "vertical-dimensioning-evaluation"
    assert doc["ns3_version"] == "ns-2.35"
    assert doc["params"]["queueDisc"] == "SRR" and doc["params"]["limit"] == 50
    m = doc["metrics"]
    for i in range(1, 11):
        assert all(m[f"flow{i}_{s}"] is not None
                   for s in ("kbps", "mean_delay_ms", "p99_delay_ms", "max_delay_ms", "loss"))
        assert m[f"flow{i}_mean_delay_ms"] <= m[f"flow{i}_p99_delay_ms"] <= m[
            f"flow{i}_max_delay_ms"]
    assert m["reference_kbps"] == pytest.approx(sum(m[f"flow{i}_kbps"] for i in range(1, 11)))
    # Every flow of a core link has its own SRR queue: 25 n0 -> n4 flows and 10 cross flows.
    assert m["hop0_flows"] == m["hop1_flows"] == 35
    assert {"cross0_offered_kbps", "cross1_kbps", "main_kbps"} <= m.keys()


def test_cbr_flows_below_the_core_rate_arrive_whole_at_their_rates():
    # 6.875 Mb/s into 10 Mb/s: no loss, flow i gets i x 125 kb/s (its packets sizes are random:
    # within 3 %), and no packet is faster than the path: 2 x 1 ms access + 2 x 1 ms core.
    m = metrics(*ALONE)
    for i in range(1, 11):
        assert m[f"flow{i}_loss"] == 0
        assert m[f"flow{i}_kbps"] == pytest.approx(125 * i, rel=0.03)
        assert m[f"flow{i}_mean_delay_ms"] > 4.0
    assert m["hop0_drops"] == m["hop1_drops"] == 0
    assert m["main_kbps"] == m["main_offered_kbps"] == 0


def test_overloaded_equal_weights_split_the_link_and_drop_the_excess():
    # Two CBR flows of 8 Mb/s, weights 1 and 1, into 10 Mb/s: each gets 5 Mb/s and loses 3/8.
    m = metrics(*ALONE, "--weights=1,1", "--cbrRateUnit=8Mbps", "--limit=5")
    for i in (1, 2):
        assert m[f"flow{i}_kbps"] == pytest.approx(5000, rel=0.02)
        assert m[f"flow{i}_loss"] == pytest.approx(3 / 8, abs=0.02)
    assert m["hop0_drops"] > 0 and m["hop1_drops"] == 0


def test_srr_weights_share_the_link_between_backlogged_tcp_flows():
    # Two TCP flows of weights 1 and 3, nothing else: Queue/SRR gives them 1:3 of 10 Mb/s.
    m = metrics(*ALONE, "--reference=tcp", "--weights=1,3", "--simTime=6", "--warmup=2")
    assert m["flow2_kbps"] / m["flow1_kbps"] == pytest.approx(3, rel=0.1)
    assert m["reference_kbps"] == pytest.approx(10000, rel=0.03)


def test_the_per_queue_limit_bounds_the_queue_and_drops():
    # 10 TCP flows with limit_ 2: every flow queue holds at most 2 packets of 1000 B, so hop 0
    # never holds more than 10 x 2 x 1000 B; with limit_ 50 it holds far more and drops none
    # of the flows' windows (ns-2's window_ 20 < 50).
    small = metrics(*ALONE, "--reference=tcp", "--limit=2")
    large = metrics(*ALONE, "--reference=tcp", "--limit=50")
    assert 0 < small["hop0_mean_queue_bytes"] <= 10 * 2 * 1000
    assert small["hop0_drops"] > 0
    assert large["hop0_drops"] == 0
    assert large["hop0_mean_queue_bytes"] > 10 * 2 * 1000


def test_rngrun_selects_an_independent_replication_and_repeats_exactly():
    args = ("--queueDisc=SRR", "--simTime=2", "--warmup=1")
    assert metrics(*args, "--RngRun=2") == metrics(*args, "--RngRun=2")
    assert metrics(*args, "--RngRun=2") != metrics(*args, "--RngRun=1")


@pytest.mark.parametrize("arg, message", [
    ("--queueDisc=VD", "--queueDisc=VD: ns-2.35 runs SRR only"),
    ("--queueDisc=DRR", "its Queue/DRR has one quantum_ for all flows"),
    ("--weights=1,2.5", "--weights: '2.5' is not a whole number"),
    ("--maxSize=12500B", "unknown parameter --maxSize"),
    ("--accessDelay=1", "--accessDelay: expected a time such as 1ms"),
    ("--reference=ftp", "--reference must be cbr or tcp, got 'ftp'"),
    ("--limit=0", "--limit: 0 is below its minimum 1"),
    ("--crossBackground=50", "exceed Queue/SRR's 100 flow ids"),
])
def test_bad_input_stops_with_one_line_naming_the_parameter(arg, message):
    _PROGRAM.assert_refused("--queueDisc=SRR", arg, message=message)
