# SPDX-License-Identifier: GPL-2.0-only
"""Runs the built cioq-red-evaluation example (if present) and checks its metrics report.

Most runs use --maxWindow=0 (no receive-window limit), as they did when Debian's ns-3.37 crashed
whenever a sender exactly filled the receive window; TcpSessionSource now guards its sockets
against that ns-3 bug (qdisclab::GuardTcpSocketFullWindow), and the default 20-segment window runs
too (test_default_window_runs).
"""

import subprocess

import pytest

from built_examples import example, needs_build, run_example

BINARY = example("cioq-red-evaluation")
pytestmark = needs_build(BINARY)


def run(tmp_path, *args: str) -> dict:
    return run_example(BINARY, tmp_path, "--quick", "--maxWindow=0", *args)


def test_quick_run_accounts_for_every_packet(tmp_path):
    doc = run(tmp_path, "--queueDisc=FIFO")
    params, m = doc["params"], doc["metrics"]
    assert (params["ports"], params["sessions"], params["speedup"]) == (4, 80, 1.1)
    assert (params["simTime"], params["durationMax"], params["voqLimit"]) == (20, 13, "20p")
    assert "nu" not in params and "minTh" not in params
    assert m["sessions_run"] == m["sessions_started"] == 80
    assert m["loss_rate"] == pytest.approx(
        (m["input_drops"] + m["output_drops"]) / m["switch_arrivals"], rel=1e-12)
    assert m["switch_delivered"] <= m["switch_arrivals"] - m["input_drops"] - m["output_drops"]
    assert m["early_drops"] == 0 and m["ack_path_drops"] == 0
    # Bits delivered to the sinks: at most the sinks' links' capacity; goodput below that.
    assert 0.2 < m["goodput_utilization"] < m["utilization"] <= 1.0


def test_default_window_runs(tmp_path):
    """The paper's 20-segment window (the default), which crashed ns-3.37 before the guard."""
    for queue in ("FIFO", "CIOQ-RED"):
        doc = run_example(BINARY, tmp_path, "--quick", f"--queueDisc={queue}")
        params, m = doc["params"], doc["metrics"]
        assert params["maxWindow"] == 20
        assert m["sessions_run"] == m["sessions_started"] == 80
        assert 0.2 < m["goodput_utilization"] < m["utilization"] <= 1.0


def test_cioq_red_with_nu_zero_is_red(tmp_path):
    """nu = 0 drops exactly the packets RED drops: the same run, metric for metric."""
    red = run(tmp_path, "--queueDisc=RED")["metrics"]
    zero = run(tmp_path, "--queueDisc=CIOQ-RED", "--nu=0")["metrics"]
    assert red == zero
    paper = run(tmp_path, "--queueDisc=CIOQ-RED")
    assert paper["params"]["nu"] == 0.5
    assert paper["metrics"]["early_drops"] > red["early_drops"]


def test_islip_and_sixteen_ports(tmp_path):
    doc = run(tmp_path, "--ports=16", "--fabric=Islip", "--speedup=2", "--sessions=300")
    params, m = doc["params"], doc["metrics"]
    # --quick: a tenth of the sessions in 20 s.
    assert (params["nu"], params["fabric"], params["sessions"]) == (0.125, "Islip", 30)
    assert m["mean_input_queue_packets"] < 1.0  # iSLIP at s = 2: output queued


def test_sink_ports_change_nothing_but_speed(tmp_path):
    """--sinkPorts spreads the sessions over the sinks' ports: the same packets, so the same
    metrics to the last digit (FIFO queues only look at sizes)."""
    one = run(tmp_path, "--sinkPorts=1", "--queueDisc=CIOQ-RED")
    many = run(tmp_path, "--sinkPorts=7", "--queueDisc=CIOQ-RED")
    assert (one["params"]["sinkPorts"], many["params"]["sinkPorts"]) == (1, 7)
    assert one["metrics"] == many["metrics"]
    assert one["metrics"]["sessions_connected"] > 0


def test_bad_sink_ports_name_the_flag():
    for value in ("0", "4097"):
        result = subprocess.run([str(BINARY), f"--sinkPorts={value}", "--quick"],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode != 0
        assert "sinkPorts" in result.stderr and value in result.stderr, result.stderr


def test_bad_arguments_stop_the_program():
    for args in (["--queueDisc=Fifo"], ["--speedup=0.5"], ["--fabric=Crossbar"],
                 ["--ports=5"], ["--load=0.5", "--sessions=10"], ["--maxP=0"],
                 ["--inputBuffer=0p", "--voqLimit=0p"]):
        result = subprocess.run([str(BINARY), *args], capture_output=True, text=True,
                                timeout=60)
        assert result.returncode != 0, args
