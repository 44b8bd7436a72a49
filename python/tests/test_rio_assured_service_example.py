# SPDX-License-Identifier: GPL-2.0-only
"""Runs the built rio-assured-service example (if present) and checks its metrics report."""

import csv
import subprocess

import pytest

from qdisclab.schema import metric_matches, read_schema
from built_examples import example, needs_build, run_example

BINARY = example("rio-assured-service")
pytestmark = needs_build(BINARY)


def run(tmp_path, *args: str) -> dict:
    # Not complete: a run without best-effort flows reports no best-effort throughput.
    return run_example(BINARY, tmp_path, *args, complete=False)


def fails(*args: str) -> str:
    result = subprocess.run([str(BINARY), *args], timeout=60, capture_output=True, text=True)
    assert result.returncode != 0
    return result.stderr


def check_flows(doc: dict, profiles: list[float], per_profile: int, n_be: int) -> None:
    """Per-class metrics are the means of the per-flow ones; the marker bounds IN traffic."""
    params, metrics = doc["params"], doc["metrics"]
    flows = [metrics[f"flow{i}_mbps"] for i in range(len(profiles) * per_profile + n_be)]
    goodputs = [metrics[f"flow{i}_goodput_mbps"] for i in range(len(flows))]
    assert f"flow{len(flows)}_mbps" not in metrics
    assert f"flow{len(flows)}_goodput_mbps" not in metrics
    assert metrics["total_mbps"] == pytest.approx(sum(flows), rel=1e-12)
    seconds = params["simTime"] - params["warmup"]
    for k, profile in enumerate(profiles):
        mine = flows[k * per_profile:(k + 1) * per_profile]
        assert metrics[f"as{k}_mbps"] == pytest.approx(sum(mine) / per_profile, rel=1e-12)
        assert metrics[f"as{k}_min_mbps"] == min(mine)
        assert metrics[f"as{k}_max_mbps"] == max(mine)
        # A token bucket of rate r and depth b marks at most r T + b bytes IN over T seconds;
        # more may have been marked before the window and left the queue within it (at most
        # the queue limit of 1040-byte packets, here far less than the bound's slack).
        bound = profile + params["bucketKbit"] / 1000 / seconds
        assert 0 < metrics[f"as{k}_in_mbps"] <= bound + 1040 * 8e-6 * 1000 / seconds
        assert metrics[f"as{k}_in_mbps"] <= metrics[f"as{k}_mbps"] + 1e-12
        assert metrics[f"as{k}_goodput_mbps"] == pytest.approx(
            sum(goodputs[k * per_profile:(k + 1) * per_profile]) / per_profile, rel=1e-12)
        # Goodput (payload, no duplicates) is below the IPv4 throughput; with SACK's exact
        # loss recovery the difference is the 40-byte headers of 1040-byte packets, give or
        # take the data in flight at the window's ends (no data is sent twice but after a
        # timeout). Without SACK, the spurious retransmissions make up much of the rest.
        assert metrics[f"as{k}_goodput_mbps"] < metrics[f"as{k}_mbps"]
        retx, spurious = metrics[f"as{k}_retx_fraction"], metrics[f"as{k}_spurious_fraction"]
        assert 0 <= spurious <= retx < 1
        assert 0 <= metrics[f"as{k}_out_drop_prob"] < 1
        if params["sack"]:
            assert metrics[f"as{k}_goodput_mbps"] * 1.04 == pytest.approx(
                metrics[f"as{k}_mbps"], rel=0.05)
            assert spurious < 0.005
    if n_be:
        assert metrics["be_in_mbps"] == 0  # best effort is never marked IN
        assert metrics["be_mbps"] == pytest.approx(sum(flows[-n_be:]) / n_be, rel=1e-12)
    else:
        assert metrics["be_mbps"] is None and metrics["be_in_mbps"] is None


def check_drops(metrics: dict, riplus: bool) -> None:
    """Per-precedence drops add up to the queue disc's; RI+O's OUT test only drops OUT."""
    parts = [metrics[f"{p}_{kind}_drops"] for p in ("in", "out")
             for kind in ("early", "forced", "limit")]
    assert sum(parts) == metrics["drops"]
    assert metrics["in_packets"] > 0 and metrics["out_packets"] > 0
    assert 0 <= metrics["mean_avg_in_packets"] <= metrics["mean_avg_total_packets"]
    out_test = metrics["out_queue_drops"]
    if riplus:
        assert 0 < out_test <= metrics["out_early_drops"] + metrics["out_forced_drops"]
    else:
        assert out_test == 0


def test_table1_quick_run(tmp_path):
    """Table 1's 40 flows for 30 s: the 20 Mb/s bottleneck is full; the marker bounds IN."""
    doc = run(tmp_path, "--quick", "--RngRun=3")
    params, metrics = doc["params"], doc["metrics"]
    declared = [m["name"] for m in read_schema(BINARY).metrics]
    assert all(any(metric_matches(d, name) for name in metrics) for d in declared)
    assert params["queueDisc"] == "RIO" and params["profiles"] == "2,1,0.5,0.2,0.1"
    assert (params["nAs"], params["nBestEffort"], params["flowsPerProfile"]) == (20, 20, 4)
    assert params["subscription"] == pytest.approx(0.76, abs=1e-12)
    assert (params["inMinTh"], params["inMaxTh"], params["inMaxP"]) == (390, 694, 0.02)
    assert (params["totalMinTh"], params["totalMaxTh"], params["totalMaxP"]) == (347, 694, 0.05)
    assert "outMinTh" not in params and params["queueLimit"] == 1000
    # The paper's TCP: ns-2's NewReno without SACK, classic fast recovery, 1 s minimum RTO.
    assert (params["sack"], params["recovery"], params["minRto"]) == (False, "Classic", 1.0)
    assert (params["simTime"], params["warmup"], params["RngRun"]) == (30, 5, 3)
    check_flows(doc, [2, 1, 0.5, 0.2, 0.1], 4, 20)
    # 1040-byte packets with a 2-byte PPP header each: 20 Mb/s x 1040 / 1042 of IPv4 bytes
    # (plus at most one packet: the one leaving the queue as the window opens).
    assert 19.8 < metrics["total_mbps"] <= 20 * 1040 / 1042 + 1040 * 8e-6 / 25
    assert metrics["mean_queue_packets"] > 0 and metrics["drops"] > 0
    check_drops(metrics, riplus=False)
    # RIO's IN test starts at avg_in 390: with 15.2 Mb/s of profiles IN is never dropped early.
    assert metrics["in_early_drops"] == 0
    # Without SACK, ns-3 resends bytes the receiver has: over 2 % of the 2 Mb/s flows' data.
    assert metrics["as0_spurious_fraction"] > 0.02


def test_sack_sends_nothing_twice(tmp_path):
    """With SACK (the labelled variant) no class resends data the receiver already has."""
    doc = run(tmp_path, "--quick", "--RngRun=3", "--sack=true", "--recovery=Prr")
    assert (doc["params"]["sack"], doc["params"]["recovery"]) == (True, "Prr")
    check_flows(doc, [2, 1, 0.5, 0.2, 0.1], 4, 20)
    assert doc["metrics"]["be_spurious_fraction"] < 0.005


def test_trace_flow(tmp_path):
    """--traceFlow writes one flow's segments, window and states; the rows are consistent."""
    trace = tmp_path / "trace.csv"
    doc = run(tmp_path, "--simTime=15", "--warmup=5", "--traceFlow=0", f"--traceFile={trace}",
              "--minRto=200ms")
    assert doc["params"]["minRto"] == pytest.approx(0.2)
    with trace.open() as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == ["time_s", "event", "seq", "bytes", "detail"]
    events = {row["event"] for row in rows}
    assert {"new", "deliver", "cwnd", "ssthresh", "state", "drop", "resent"} <= events
    assert events <= {"new", "resent", "drop", "deliver", "spurious", "cwnd", "ssthresh",
                      "state"}
    times = [float(row["time_s"]) for row in rows]
    assert times == sorted(times) and times[-1] <= 15
    sent, delivered = set(), set()
    for i, row in enumerate(rows):
        seq, event = int(row["seq"]), row["event"]
        if event in ("new", "resent", "drop", "deliver", "spurious"):
            assert row["detail"] in ("in", "out") and row["bytes"] == "1000"
        if event == "new":
            assert seq not in sent
            sent.add(seq)
        elif event == "resent":
            assert seq in sent
        elif event == "drop":  # right after the segment's arrival
            assert rows[i - 1]["event"] in ("new", "resent") and int(rows[i - 1]["seq"]) == seq
        elif event == "deliver":
            delivered.add(seq)
        elif event == "spurious":
            assert seq in delivered
        elif event == "state":
            assert row["detail"] in ("Open", "Disorder", "CWR", "Recovery", "Loss")
    # The flow's delivered segments are its goodput: 5 s of warm-up's worth aside, all of them
    # reach the sink (segments still queued at the end aside).
    goodput_bytes = doc["metrics"]["flow0_goodput_mbps"] * 1e6 / 8 * 10
    after_warmup = sum(1 for row in rows if row["event"] == "deliver"
                       and float(row["time_s"]) >= 5) * 1000
    assert after_warmup == pytest.approx(goodput_bytes, rel=0.05)


def test_subscription_sets_the_number_of_flows(tmp_path):
    """Fig. 3's 30 % of 20 Mb/s with 1 Mb/s profiles: six AS flows, with RI+O."""
    doc = run(tmp_path, "--queueDisc=RI+O", "--profiles=1", "--subscription=0.3",
              "--nBestEffort=3", "--simTime=20", "--warmup=5", "--queueLimit=200",
              "--inMinTh=60", "--inMaxTh=180", "--totalMinTh=30", "--totalMaxTh=90",
              "--outMinTh=10", "--outMaxTh=30", "--outMaxP=0.1")
    params = doc["params"]
    assert (params["nAs"], params["flowsPerProfile"]) == (6, 6)
    assert params["subscription"] == pytest.approx(0.3, abs=1e-12)
    assert (params["outMinTh"], params["outMaxTh"], params["outMaxP"]) == (10, 30, 0.1)
    check_flows(doc, [1.0], 6, 3)
    check_drops(doc["metrics"], riplus=True)


def test_no_best_effort_flows(tmp_path):
    doc = run(tmp_path, "--profiles=2", "--nBestEffort=0", "--simTime=15", "--warmup=5",
              "--queueLimit=200", "--inMinTh=60", "--inMaxTh=180", "--totalMinTh=30",
              "--totalMaxTh=90")
    check_flows(doc, [2.0], 4, 0)
    nulls = {name for name, value in doc["metrics"].items() if value is None}
    assert nulls == {"be_mbps", "be_min_mbps", "be_max_mbps", "be_in_mbps", "be_goodput_mbps",
                     "be_timeouts_per_s", "be_retx_fraction", "be_spurious_fraction",
                     "be_out_drop_prob"}


def test_bad_arguments_stop_with_a_message():
    assert "--recovery must be Classic or Prr, got 'Sack'" in fails("--recovery=Sack")
    assert "--minRto=fast is not a time (e.g. 200ms, 1s)" in fails("--minRto=fast")
    assert "--minRto=0ms must be >= +0.001s" in fails("--minRto=0ms")
    assert "--traceFlow=40 is out of range [-1, 39] (-1: no trace)" in fails("--traceFlow=40")
    assert "--traceFile: cannot write '/nonexistent/trace.csv'" in fails(
        "--traceFlow=1", "--traceFile=/nonexistent/trace.csv", "--simTime=2", "--warmup=1")
    # One spelling per queue disc: the catalog's name, no other case or former alias.
    for other in ("Rio", "rio", "RiPlusO", "Fifo"):
        assert (f"--queueDisc={other} is not one of its choices: RIO, RI+O, RED, FIFO"
                in fails(f"--queueDisc={other}"))
    assert "--profiles: 'x' is not a positive rate" in fails("--profiles=2,x")
    assert "--profiles: '-1' is not a positive rate" in fails("--profiles=-1")
    assert "needs 3.5 flows per profile: not a positive integer" in fails(
        "--profiles=2", "--subscription=0.35")
    assert "--subscription must be in (0, 1]" in fails("--subscription=1.5")
    assert "AS plus best-effort flows must be in [1, 254], got 270" in fails(
        "--nBestEffort=250")
    assert "--nBestEffort=280 is out of range [0, 254]" in fails("--nBestEffort=280")
