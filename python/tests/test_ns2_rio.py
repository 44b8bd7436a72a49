# SPDX-License-Identifier: GPL-2.0-only
"""The Assured Service scenario on ns-2.35 (``validation/ns2/rio-assured-service.tcl``): its
parameters are the ns-3 example's (names, types, defaults), its report passes its own schema,
and short runs behave as the scenario says: the bottleneck is full and conserves its packets,
a marker never lets a class carry more IN traffic than its token bucket allows, best-effort
flows carry no IN packet, the queue limit is honoured, and bad input stops the program with one
line naming the parameter. Without ``ns`` the tests skip, except under ``CI=true``.
"""

import pytest

from built_examples import example
from ns2_programs import Ns2Program, require_ns2
from qdisclab.context import REPO
from qdisclab.metrics import load_metrics
from qdisclab.schema import parse_schema, read_schema

PROGRAM = REPO / "validation" / "ns2" / "rio-assured-service.tcl"
EXAMPLE = example("rio-assured-service")
#: ns-3 example parameters the ns-2 program leaves out: RI+O's OUT test, SACK, the recovery
#: algorithm, ns-3's minimum RTO default, the trace and ns-3's own outputs.
NOT_ON_NS2 = {"outMinTh", "outMaxTh", "outMaxP", "sack", "recovery", "minRto", "traceFlow",
              "traceFile", "pcap", "flowMonitor", "nAs"}
#: A short Table 1: 10 s with 4 s of warm-up.
SHORT = ("--simTime=10", "--warmup=4")
PACKET = 1040  # bytes: 1000-byte segments and 40 bytes of TCP/IP header


@pytest.fixture(scope="module")
def ns2():
    require_ns2()
    return PROGRAM


_PROGRAM = Ns2Program(PROGRAM, timeout=60)
run = _PROGRAM.run

report = _PROGRAM.report


@pytest.fixture(scope="module")
def table1(ns2, tmp_path_factory):
    """A short Table 1 run's report, read through the program's schema."""
    out = tmp_path_factory.mktemp("rio") / "m.json"
    done = run(*SHORT, f"--output={out}")
    assert done.returncode == 0, done.stderr
    return load_metrics(out, parse_schema(run("--schema").stdout))


@pytest.mark.skipif(not EXAMPLE.is_file(), reason=f"{EXAMPLE} not built (qdisc-lab build)")
def test_the_shared_parameters_are_the_ns3_examples(ns2):
    ours = parse_schema(run("--schema").stdout, "rio-assured-service.tcl --schema")
    theirs = read_schema(EXAMPLE)
    mine = {p["name"]: p for p in ours.params}
    shared = [p for p in theirs.params if p["name"] not in NOT_ON_NS2]
    assert {p["name"] for p in shared} == set(mine)
    for param in shared:
        assert (mine[param["name"]]["type"], mine[param["name"]]["default"]) == \
            (param["type"], param["default"]), param["name"]
        # Recorded or not as the example records it (RIO's IN thresholds, "sometimes" there
        # because its RED baseline omits them, are always recorded here: ns-2 runs RIO only).
        assert (mine[param["name"]]["recorded"] == "never") == (param["recorded"] == "never")
    # Every metric the figures read has the example's name.
    patterns = {m["name"] for m in theirs.metrics}
    for name in ("as<i>_mbps", "as<i>_in_mbps", "as<i>_goodput_mbps", "as_mbps", "as_min_mbps",
                 "be_mbps", "be_goodput_mbps", "as<i>_out_drop_prob", "flow<i>_goodput_mbps",
                 "mean_queue_packets", "mean_queue_delay_ms", "out_early_drops",
                 "mean_avg_in_packets", "mean_avg_total_packets"):
        assert name in patterns and any(m["name"] == name for m in ours.metrics), name


def test_the_report_records_the_run_and_the_subscription_the_flows_give(table1):
    assert table1["ns3_version"] == "ns-2.35" and table1["program"] == "rio-assured-service"
    params = table1["params"]
    assert params["queueDisc"] == "RIO" and params["RngRun"] == 1
    assert params["subscription"] == pytest.approx(0.76)  # 4 x 3.8 Mb/s of 20
    assert "socketBuffer" not in params and "startJitter" not in params  # recorded never


def test_the_bottleneck_is_full_and_its_packets_are_conserved(table1):
    m = table1["metrics"]
    flows = [m[f"flow{i}_mbps"] for i in range(40)]
    assert sum(flows) == pytest.approx(m["total_mbps"], rel=1e-9)
    # 20 Mb/s of 1040-byte packets: the link is never idle once the flows run.
    assert 19.9 < m["total_mbps"] <= 20.0 + 1e-6
    # Every packet that reached the bottleneck after the warm-up left it, was dropped, or is
    # still queued (at most the limit, 1000).
    departed = m["total_mbps"] * 1e6 * 6 / 8 / PACKET
    arrived = m["in_packets"] + m["out_packets"]
    assert abs(arrived - departed - m["drops"]) <= 1000
    assert m["drops"] == (m["in_early_drops"] + m["in_forced_or_limit_drops"]
                          + m["out_early_drops"] + m["out_forced_or_limit_drops"])
    # The means, minima and maxima are those of the flows of each class.
    for k, first in enumerate(range(0, 20, 4)):
        mine = flows[first:first + 4]
        assert m[f"as{k}_mbps"] == pytest.approx(sum(mine) / 4)
        assert (m[f"as{k}_min_mbps"], m[f"as{k}_max_mbps"]) == (min(mine), max(mine))
    assert m["be_mbps"] == pytest.approx(sum(flows[20:]) / 20)
    assert m["as_min_mbps"] == min(flows[:20])


def test_the_markers_hold_each_class_to_its_profile_and_leave_best_effort_out(table1):
    m = table1["metrics"]
    assert m["be_in_mbps"] == 0
    for k, profile in enumerate((2, 1, 0.5, 0.2, 0.1)):
        # A token bucket of 320 kbit lets a flow send its profile plus one bucket in the 6 s;
        # packets queued at the warm-up's end can add one queue's worth to the class.
        bound = profile + 0.32 / 6 + 1000 * PACKET * 8 / 1e6 / 6 / 4
        assert 0 < m[f"as{k}_in_mbps"] <= bound, k
        assert m[f"as{k}_in_mbps"] <= m[f"as{k}_mbps"] + 1e-9
        assert 0 <= m[f"as{k}_out_drop_prob"] < 1
        assert 0 <= m[f"as{k}_retx_fraction"] < 1


def test_the_queue_limit_is_honoured_and_alone_drops_when_red_never_acts(ns2):
    m = report("--simTime=8", "--warmup=3", "--queueLimit=30", "--inMinTh=2000",
               "--inMaxTh=3000", "--totalMinTh=2000", "--totalMaxTh=3000")["metrics"]
    assert m["in_early_drops"] == m["out_early_drops"] == 0
    assert m["in_forced_or_limit_drops"] + m["out_forced_or_limit_drops"] == m["drops"] > 0
    assert m["mean_queue_packets"] <= 30
    assert m["mean_avg_total_packets"] <= 30


def test_subscription_sets_the_number_of_flows_and_rngrun_the_replication(ns2):
    one = report("--simTime=6", "--warmup=2", "--subscription=0.3", "--profiles=1",
                 "--nBestEffort=2")
    assert one["params"]["subscription"] == pytest.approx(0.3)
    flows = sorted(k for k in one["metrics"] if k.startswith("flow") and k.endswith("_mbps")
                   and "goodput" not in k)
    assert len(flows) == 8  # six AS flows and two BE flows
    again = report("--simTime=6", "--warmup=2", "--subscription=0.3", "--profiles=1",
                   "--nBestEffort=2")
    other = report("--simTime=6", "--warmup=2", "--subscription=0.3", "--profiles=1",
                   "--nBestEffort=2", "--RngRun=2")
    assert again["metrics"] == one["metrics"] != other["metrics"]


@pytest.mark.parametrize("arg, message", [
    ("--queueDisc=RI+O", "--queueDisc: ns-2.35 has RIO only, got 'RI+O'"),
    ("--profiles=2,x", "--profiles: 'x' is not a positive rate in Mb/s"),
    ("--subscription=0.33", "--subscription=0.33 needs"),
    ("--inMinTh=390.5", "--inMinTh: dsRED takes a whole number of packets"),
    ("--totalMaxTh=300", "--totalMaxTh must be above --totalMinTh"),
    ("--delAckCount=3", "--delAckCount: 3 is above its maximum 2"),
    ("--bottleneckDelay=48", "--bottleneckDelay: expected a time such as 48ms"),
    ("--nBestEffort=250", "AS plus best-effort flows must be in [1, 254], got 270"),
    ("--sack=true", "unknown parameter --sack"),
])
def test_bad_input_stops_with_one_line_naming_the_parameter(ns2, arg, message):
    _PROGRAM.assert_refused(arg, message=message)


def test_without_best_effort_flows_their_metrics_are_null(ns2):
    m = report("--simTime=6", "--warmup=2", "--profiles=2", "--nBestEffort=0")["metrics"]
    assert all(m[f"be{suffix}"] is None for suffix in (
        "_mbps", "_min_mbps", "_max_mbps", "_in_mbps", "_goodput_mbps", "_retx_fraction",
        "_out_drop_prob", "_timeouts_per_s"))
    flows = [m[f"flow{i}_mbps"] for i in range(4)]
    assert m["as_mbps"] == pytest.approx(sum(flows) / 4) and m["as_min_mbps"] == min(flows)
