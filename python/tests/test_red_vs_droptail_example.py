# SPDX-License-Identifier: GPL-2.0-only
"""Runs the built red-vs-droptail example (if present) and checks its metrics report.

Before DumbbellScenario guarded its TCP senders (qdisclab::GuardTcpSocketFullWindow in
model/qdisc-lab-compat.h), Debian's ns-3.37 -- the system build these tests run -- crashed with
SIGSEGV within the first simulated seconds of the example's default run, of --window=8000 and
16000, and of --queueDisc=RED (doc/reproductions/red-vs-droptail.rst, "Known problem with
ns-3.37"). They must now complete with a full report.
"""

import pytest

from built_examples import example, needs_build, run_example

BINARY = example("red-vs-droptail")
pytestmark = needs_build(BINARY)

# What the campaign (campaigns/red-vs-droptail.toml) records of every run.
METRICS = ("tcp_goodput_mbps", "udp_goodput_mbps", "total_goodput_mbps", "mean_queue_delay_ms",
           "drops", "early_drops", "forced_drops")


def run(tmp_path, *args: str) -> dict:
    doc = run_example(BINARY, tmp_path, *args, complete=False)
    assert all(doc["metrics"][name] is not None for name in METRICS)
    return doc


def test_default_run_completes(tmp_path):
    """The example's defaults: the calibrated scenario (eight TCP senders, UDP on 3 s / off
    1 s, 100 Mb/s access links), a 32000-byte window, DropTail, 30 s."""
    doc = run(tmp_path)
    params, m = doc["params"], doc["metrics"]
    assert (params["queueDisc"], params["window"], params["queueSize"]) == ("FIFO", 32000,
                                                                            16000)
    assert (params["nTcp"], params["simTime"], params["bottleneckRate"]) == (8, 30, "1Mbps")
    # The 1 Mb/s bottleneck is shared; the UDP source offers 500 kb/s three quarters of the time.
    assert m["total_goodput_mbps"] == pytest.approx(
        m["tcp_goodput_mbps"] + m["udp_goodput_mbps"], rel=1e-12)
    assert 0.8 < m["total_goodput_mbps"] <= 1.0
    assert 0.25 < m["udp_goodput_mbps"] <= 0.375
    assert m["tcp_goodput_mbps"] > 0.5
    # DropTail drops only when full; 16000 bytes hold at most 31 full TCP segments.
    assert m["drops"] == m["forced_drops"] > 0 and m["early_drops"] == 0


# The scenario they crashed in: two senders, UDP 1 s / 1 s, 10 Mb/s access links.
CRASHED = ("--nTcp=2", "--udpOn=1", "--udpOff=1", "--accessRate=10Mbps")


@pytest.mark.parametrize("args", [
    ("--window=8000",),
    ("--window=16000",),
    ("--queueDisc=RED",),
    ("--queueDisc=RED", "--window=8000"),
])
def test_settings_that_crashed_on_ns3_37_complete(tmp_path, args):
    doc = run(tmp_path, "--quick", *CRASHED, *args)
    m = doc["metrics"]
    assert doc["params"]["simTime"] == 10 and doc["params"]["nTcp"] == 2
    assert m["tcp_goodput_mbps"] > 0 and m["udp_goodput_mbps"] > 0
    assert m["total_goodput_mbps"] <= 1.0
    if doc["params"]["queueDisc"] == "RED":
        # Besides its early and forced drops, RED drops what finds its byte limit full.
        assert m["drops"] >= m["early_drops"] + m["forced_drops"]
    else:
        assert m["drops"] == m["forced_drops"] and m["early_drops"] == 0


def test_sack_flag_switches_selective_acknowledgements(tmp_path):
    """--sack=false is ns-3.24's NewReno (no SACK), for the plan's variant of claim C10; the
    default keeps ns-3's SACK. The default run drops packets, so loss recovery, and with it
    the goodput, differs without SACK."""
    default = run(tmp_path, "--quick")
    on = run(tmp_path, "--quick", "--sack=true")
    off = run(tmp_path, "--quick", "--sack=false")
    assert default["params"]["sack"] is True and off["params"]["sack"] is False
    assert on["metrics"] == default["metrics"]
    assert default["metrics"]["forced_drops"] > 0
    assert off["metrics"]["tcp_goodput_mbps"] != default["metrics"]["tcp_goodput_mbps"]
