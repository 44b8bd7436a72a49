# SPDX-License-Identifier: GPL-2.0-only
"""Runs the built dumbbell example (if present) and checks its metrics contract."""

import subprocess

import pytest

from qdisclab.metrics import load_metrics
from built_examples import example, needs_build

BINARY = example("dumbbell-fifo-vs-red")


@needs_build(BINARY)
@pytest.mark.parametrize("queue_disc", ["FIFO", "RED"])
def test_example_writes_valid_metrics(tmp_path, queue_disc):
    output = tmp_path / "metrics.json"
    trace = tmp_path / "queue.csv"
    subprocess.run(
        [
            str(BINARY),
            "--simTime=5",
            "--warmup=1",
            f"--queueDisc={queue_disc}",
            f"--output={output}",
            f"--queueTrace={trace}",
        ],
        check=True,
        timeout=300,
    )
    doc = load_metrics(output)
    assert doc["program"] == "dumbbell-fifo-vs-red"
    assert doc["params"]["queueDisc"] == queue_disc
    assert doc["metrics"]["tcp_goodput_mbps"] > 0
    assert trace.read_text().splitlines()[0] == "time_s,packets,bytes"
