# SPDX-License-Identifier: GPL-2.0-only
"""Shared fixtures; makes ``qdisclab`` importable when pytest is run directly."""

import copy
import sys
from pathlib import Path

import pytest

PYTHON_DIR = Path(__file__).resolve().parents[1]
if str(PYTHON_DIR) not in sys.path:
    sys.path.insert(0, str(PYTHON_DIR))

VALID_DOC = {
    "schema": "qdisc-lab.metrics/1",
    "program": "dumbbell-fifo-vs-red",
    "ns3_version": "3.37",
    "params": {
        "queueDisc": "RED",
        "simTime": 5.0,
        "bottleneckRate": "10Mbps",
        "bottleneckDelay": "20ms",
        "nTcp": 4,
    },
    "metrics": {
        "tcp_goodput_mbps": 9.1,
        "udp_goodput_mbps": 0.5,
        "mean_queue_delay_ms": 12.5,
        "p99_queue_delay_ms": None,
        "mean_queue_packets": 14.2,
        "drops": 40,
        "early_drops": 30,
        "forced_drops": 10,
    },
}


@pytest.fixture
def valid_doc() -> dict:
    """A fresh, valid dumbbell-fifo-vs-red metrics object."""
    return copy.deepcopy(VALID_DOC)
