# SPDX-License-Identifier: GPL-2.0-only
"""Runs the built vertical-dimensioning-evaluation example (if present) and checks its report."""

import subprocess

import pytest

from built_examples import example, needs_build, run_example

BINARY = example("vertical-dimensioning-evaluation")
pytestmark = needs_build(BINARY)
SHORT = ("--simTime=12", "--warmup=2")


def run(tmp_path, *args: str) -> dict:
    return run_example(BINARY, tmp_path, *SHORT, *args)


@pytest.fixture(scope="module")
def cbr(tmp_path_factory):
    """The CBR reference flows through VD and DRR with the same seed."""
    return {q: run(tmp_path_factory.mktemp(q), "--reference=cbr", f"--queueDisc={q}",
                   "--RngRun=3")
            for q in ("VD", "DRR")}


def test_cbr_flows_get_their_rate_and_a_delay_above_the_path(cbr):
    for queue, doc in cbr.items():
        params, metrics = doc["params"], doc["metrics"]
        assert params["queueDisc"] == queue and params["reference"] == "cbr"
        assert params["maxSize"] == "50000B" and params["quantum"] == 1000
        assert params["weights"] == "1,2,3,4,5,6,7,8,9,10" and params["hops"] == 2
        for i in range(1, 11):
            # 125·i kb/s sent; little is lost with a 50000 B buffer.
            assert metrics[f"flow{i}_kbps"] == pytest.approx(125 * i, rel=0.03)
            assert metrics[f"flow{i}_loss"] < 0.02
            # Four 1 ms links plus at least the transmission of 200 B at 10 Mb/s twice.
            mean, p99, top = (metrics[f"flow{i}_{s}_delay_ms"] for s in ("mean", "p99", "max"))
            assert 4.3 < mean <= p99 <= top
        assert "flow11_kbps" not in metrics
        assert metrics["reference_kbps"] == pytest.approx(
            sum(metrics[f"flow{i}_kbps"] for i in range(1, 11)), rel=1e-12)
        # Every flow its own bucket: 25 main flows and 10 cross flows on each hop.
        assert metrics["hop0_flows"] == 35 and metrics["hop1_flows"] == 35
        # The mean offered load is 10 Mb/s per core link: both are busy.
        assert 9000 < metrics["hop0_kbps"] <= 10000 and 9000 < metrics["hop1_kbps"] <= 10000


def test_cbr_same_traffic_under_both_schedulers(cbr):
    """Common random numbers: the background's offered load depends on the seed only."""
    vd, drr = cbr["VD"]["metrics"], cbr["DRR"]["metrics"]
    for group in ("main", "cross0", "cross1"):
        assert vd[f"{group}_offered_kbps"] == drr[f"{group}_offered_kbps"]
        assert 500 < vd[f"{group}_offered_kbps"] < 4000


def test_tcp_fifo_fills_the_link_and_ignores_weights(tmp_path):
    doc = run(tmp_path, "--reference=tcp", "--queueDisc=FIFO", "--maxSize=25000B")
    params, metrics = doc["params"], doc["metrics"]
    assert params["tcpPacketSize"] == 1000 and params["tcp"] == "TcpNewReno"
    assert "quantum" not in params and "buckets" not in params and "hop0_flows" not in metrics
    assert "flow1_mean_delay_ms" not in metrics
    assert metrics["hop0_kbps"] > 9500 and metrics["hop1_kbps"] > 9500
    # Without weights, flow 10 does not get ten times flow 1's throughput.
    assert metrics["flow10_kbps"] < 4 * metrics["flow1_kbps"]


def test_vd_return_keep_ends_the_large_weights_tails(tmp_path):
    """--vdReturn=keep (ReturningFlows = Keep): at 12500 B a returning flow no longer keeps
    VD's round open, so the 99th-percentile delay of weights 8-10 falls from over 60 ms
    (seed 1: 78-104 ms) to that of the small weights (about 21 ms); same offered traffic."""
    for r in ("fresh", "keep"):
        (tmp_path / r).mkdir()
    docs = {r: run(tmp_path / r, "--reference=cbr", "--queueDisc=VD", "--maxSize=12500B",
                   "--RngRun=1", f"--vdReturn={r}") for r in ("fresh", "keep")}
    fresh, keep = docs["fresh"]["metrics"], docs["keep"]["metrics"]
    assert docs["fresh"]["params"]["vdReturn"] == "fresh"
    assert docs["keep"]["params"]["vdReturn"] == "keep"
    assert fresh["main_offered_kbps"] == keep["main_offered_kbps"]
    for i in (8, 9, 10):
        assert fresh[f"flow{i}_p99_delay_ms"] > 60
        assert keep[f"flow{i}_p99_delay_ms"] < 25
        assert keep[f"flow{i}_max_delay_ms"] < fresh[f"flow{i}_max_delay_ms"] / 4
    for i in (2, 3, 4, 5, 6):
        assert keep[f"flow{i}_p99_delay_ms"] == pytest.approx(fresh[f"flow{i}_p99_delay_ms"],
                                                               rel=0.1)


def test_vd_return_is_reported_for_vd_only(tmp_path):
    doc = run(tmp_path, "--reference=cbr", "--queueDisc=DRR", "--simTime=4")
    assert "vdReturn" not in doc["params"]


@pytest.mark.parametrize("args, message", [
    (("--vdReturn=later",), "--vdReturn must be fresh or keep, got 'later'"),
    (("--queueDisc=DRR", "--vdReturn=keep"),
     "--vdReturn=keep applies to --queueDisc=VD only, not DRR"),
    (("--queueDisc=WFQ",), "--queueDisc=WFQ is not one of its choices: DRR, DRR-tail, "
                           "Aliquem, SRR, VD"),
    (("--queueDisc=DRR", "--buckets=20"), "more than --buckets=20"),
    (("--weights=1,x",), "--weights: 'x' is not a number > 0"),
    (("--reference=ftp",), "--reference must be cbr or tcp"),
])
def test_bad_settings_are_refused(tmp_path, args, message):
    result = subprocess.run([str(BINARY), "--simTime=3", "--warmup=1", *args,
                             f"--output={tmp_path / 'm.json'}"], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode != 0
    assert message in result.stdout + result.stderr
