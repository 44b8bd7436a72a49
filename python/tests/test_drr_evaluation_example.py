# SPDX-License-Identifier: GPL-2.0-only
"""Runs the built drr-evaluation example (if present) and checks its metrics report."""

import math
import subprocess

import pytest

from built_examples import example, needs_build, run_example

BINARY = example("drr-evaluation")
pytestmark = needs_build(BINARY)


def run(tmp_path, *args: str) -> dict:
    return run_example(BINARY, tmp_path, *args)


def test_fairness_quick_run(tmp_path):
    """Ten on/off flows, 8 buckets: flows 0 and 8, 1 and 9 share a bucket (ns-2 mapping)."""
    doc = run(tmp_path, "--quick", "--buckets=8", "--maxSize=15000B", "--RngRun=2")
    params, metrics = doc["params"], doc["metrics"]
    assert params["scenario"] == "fairness" and params["queueDisc"] == "DRR"
    assert params["buckets"] == 8 and params["maxSize"] == "15000B"
    assert params["flowMapping"] == "sequential" and params["quantum"] == 250
    assert (params["simTime"], params["warmup"], params["RngRun"]) == (60, 10, 2)
    flows = [metrics[f"flow{i}_kbps"] for i in range(10)]
    assert "flow10_kbps" not in metrics
    mean = sum(flows) / 10
    assert metrics["throughput_mean_kbps"] == pytest.approx(mean, rel=1e-12)
    assert metrics["total_throughput_kbps"] == pytest.approx(sum(flows), rel=1e-12)
    std = math.sqrt(sum((x - mean) ** 2 for x in flows) / 10)  # over the flows, not a sample
    assert metrics["throughput_std_kbps"] == pytest.approx(std, rel=1e-9)
    jain = sum(flows) ** 2 / (10 * sum(x * x for x in flows))
    assert metrics["jain_index"] == pytest.approx(jain, rel=1e-12)
    assert metrics["throughput_min_kbps"] == min(flows)
    assert metrics["throughput_max_kbps"] == max(flows)
    # The 1 Mb/s bottleneck is saturated: its IP throughput is 1 Mb/s less the 2-byte PPP
    # header per packet of about 1500 bytes.
    assert 990 < sum(flows) < 1000
    assert metrics["buckets_used"] == 8 and metrics["colliding_flows"] == 4
    # The four flows sharing a bucket get about half the others' throughput.
    shared = [flows[i] for i in (0, 1, 8, 9)]
    alone = [flows[i] for i in range(2, 8)]
    assert max(shared) < 0.75 * min(alone)
    assert 0 < metrics["arrival_ratio"] < 0.5 and metrics["drops"] > 0
    assert metrics["rx_packets"] == pytest.approx(metrics["arrival_ratio"]
                                                  * metrics["tx_packets"], abs=1e-6)


def test_factorial_quick_run(tmp_path):
    """P = 1000 B, B = 1 Mb/s, DropTail of 400 packets: full queue, delay 400 x 1002 x 8 / 1e6."""
    doc = run(tmp_path, "--scenario=factorial", "--queueDisc=FIFO", "--packetSizeMin=1000",
              "--packetSizeMax=1000", "--simTime=40", "--warmup=20")
    params, metrics = doc["params"], doc["metrics"]
    assert params["maxSize"] == "400p" and params["nFlows"] == 2
    assert "buckets" not in params and "colliding_flows" not in metrics
    assert params["intervalMin"] == 2.5 and params["intervalMax"] == 7.5
    # Two flows of 200 packets/s x 1000 B offer 3.2 Mb/s to 1 Mb/s: about 5/16 arrive.
    assert metrics["arrival_ratio"] == pytest.approx(1e6 / 1002 / 8 / 400, rel=0.05)
    assert metrics["mean_delay_s"] == pytest.approx(400 * 1002 * 8 / 1e6, rel=0.03)
    assert metrics["tx_packets"] == pytest.approx(20 * 200, rel=0.05)


def test_factorial_drr_is_fair_between_the_two_flows(tmp_path):
    doc = run(tmp_path, "--scenario=factorial", "--simTime=40", "--warmup=20",
              "--bottleneckRate=1.5Mbps")
    params, metrics = doc["params"], doc["metrics"]
    assert params["queueDisc"] == "DRR" and params["maxSize"] == "200000B"
    assert params["dropFrom"] == "Head" and params["buckets"] == 10
    assert metrics["colliding_flows"] == 0 and metrics["buckets_used"] == 2
    assert metrics["flow0_kbps"] == pytest.approx(metrics["flow1_kbps"], rel=0.01)
    assert metrics["jain_index"] > 0.9999


def test_bad_arguments_stop_the_program():
    for args in (["--scenario=other"], ["--queueDisc=RED"], ["--maxSize=1000B"],
                 ["--warmup=400"], ["--flowMapping=random"]):
        result = subprocess.run([str(BINARY), *args], capture_output=True, text=True,
                                timeout=60)
        assert result.returncode != 0, args


def test_background_flags_default_to_the_measured_flows_traffic(tmp_path):
    """--bgPacketSize=0 and --bgInterval*=0 are the measured flow's values: the same run."""
    base = ["--scenario=factorial", "--queueDisc=FIFO", "--simTime=30", "--warmup=20"]
    plain = run(tmp_path, *base)
    explicit = run(tmp_path, *base, "--bgPacketSize=0", "--bgIntervalMin=0", "--bgIntervalMax=0")
    assert explicit["metrics"] == plain["metrics"]
    params = plain["params"]
    assert params["bgPacketSize"] == 0
    assert (params["bgIntervalMin"], params["bgIntervalMax"]) == (2.5, 7.5)


def test_background_flags_set_the_background_traffic(tmp_path):
    """A 2000-byte background (links' MTU raised) every 20-60 ms: 400 kb/s. With the measured
    flow's 800 kb/s that is 1.2 Mb/s on 1.5 Mb/s, so nothing is lost and the queue stays short."""
    doc = run(tmp_path, "--scenario=factorial", "--queueDisc=FIFO", "--simTime=60",
              "--warmup=20", "--bottleneckRate=1.5Mbps", "--bgPacketSize=2000",
              "--bgIntervalMin=20", "--bgIntervalMax=60")
    params, metrics = doc["params"], doc["metrics"]
    assert (params["bgPacketSize"], params["bgIntervalMin"], params["bgIntervalMax"]) == \
        (2000, 20, 60)
    assert (params["intervalMin"], params["intervalMax"]) == (2.5, 7.5)
    assert metrics["arrival_ratio"] == 1 and metrics["all_arrival_ratio"] == 1
    assert metrics["drops"] == 0 and metrics["mean_delay_s"] < 0.1
    assert metrics["flow0_kbps"] == pytest.approx(500 * 8 / 5e-3 / 1000, rel=0.05)
    assert metrics["flow1_kbps"] == pytest.approx(2000 * 8 / 40e-3 / 1000, rel=0.1)


@pytest.mark.parametrize("args, message", [
    (["--scenario=factorial", "--bgPacketSize=39"],
     "--bgPacketSize=39 is out of range: 0 (the measured flow's sizes) or [40, 65535] bytes"),
    (["--scenario=factorial", "--bgPacketSize=70000"],
     "--bgPacketSize=70000 is out of range [0, 65535]"),
    (["--scenario=factorial", "--bgIntervalMin=9"],
     "0 < bgIntervalMin <= bgIntervalMax (ms; 0 = the measured flow's), got 9 and 7.5"),
    (["--scenario=factorial", "--bgIntervalMax=-1"], "got 2.5 and -1"),
    (["--bgPacketSize=500"],
     "--bgPacketSize, --bgIntervalMin and --bgIntervalMax apply to --scenario=factorial only"),
])
def test_bad_background_flags_stop_the_program(args, message):
    result = subprocess.run([str(BINARY), *args], capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert message in result.stdout + result.stderr
