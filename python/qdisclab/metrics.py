# SPDX-License-Identifier: GPL-2.0-only
"""The metrics contract between the C++ example programs and the Python tools.

Every example program writes one JSON object::

    {"schema": "qdisc-lab.metrics/1",
     "program": "dumbbell-fifo-vs-red",
     "ns3_version": "3.37",
     "params": {"queueDisc": "Red", ...},
     "metrics": {"tcp_goodput_mbps": 9.4, ..., "p99_queue_delay_ms": null}}

Metric values are numbers or ``null``. :func:`load_metrics` reads and checks
such a file and raises :class:`MetricsError` when it breaks the contract.
"""

import json
import math
from pathlib import Path
from typing import Any

SCHEMA = "qdisc-lab.metrics/1"

# Top-level keys and the JSON type each must have.
REQUIRED_KEYS: dict[str, type] = {
    "schema": str,
    "program": str,
    "ns3_version": str,
    "params": dict,
    "metrics": dict,
}

# Metrics and params each known program must report.
PROGRAM_METRICS: dict[str, tuple[str, ...]] = {
    "dumbbell-fifo-vs-red": (
        "tcp_goodput_mbps",
        "udp_goodput_mbps",
        "mean_queue_delay_ms",
        "p99_queue_delay_ms",
        "mean_queue_packets",
        "drops",
        "early_drops",
        "forced_drops",
    ),
    "drr-evaluation": (
        "throughput_mean_kbps",
        "throughput_std_kbps",
        "jain_index",
        "total_throughput_kbps",
        "mean_delay_s",
        "arrival_ratio",
        "tx_packets",
        "rx_packets",
        "drops",
        "flow0_kbps",
    ),
    "vertical-dimensioning-evaluation": (
        "reference_kbps",
        "weighted_jain",
        "flow1_kbps",
        "main_offered_kbps",
        "main_kbps",
        "hop0_kbps",
        "hop0_drops",
        "hop0_mean_queue_bytes",
    ),
    "cioq-red-evaluation": (
        "mean_input_queue_packets",
        "mean_output_queue_packets",
        "loss_rate",
        "utilization",
        "goodput_utilization",
        "input_drops",
        "output_drops",
        "switch_arrivals",
    ),
    "rio-assured-service": (
        "as0_mbps",
        "as0_in_mbps",
        "as0_goodput_mbps",
        "as_mbps",
        "as_min_mbps",
        "as_in_mbps",
        "be_mbps",
        "total_mbps",
        "mean_queue_packets",
        "drops",
        "flow0_mbps",
    ),
}
PROGRAM_PARAMS: dict[str, tuple[str, ...]] = {
    "dumbbell-fifo-vs-red": ("queueDisc", "simTime", "bottleneckRate", "bottleneckDelay", "nTcp"),
    "drr-evaluation": (
        "scenario",
        "queueDisc",
        "nFlows",
        "maxSize",
        "bottleneckRate",
        "packetSizeMin",
        "packetSizeMax",
        "simTime",
        "warmup",
        "RngRun",
    ),
    "vertical-dimensioning-evaluation": (
        "queueDisc",
        "reference",
        "maxSize",
        "weights",
        "hops",
        "coreRate",
        "simTime",
        "warmup",
        "RngRun",
    ),
    "cioq-red-evaluation": (
        "ports",
        "sessions",
        "speedup",
        "queueDisc",
        "fabric",
        "simTime",
        "RngRun",
    ),
    "rio-assured-service": (
        "queueDisc",
        "profiles",
        "flowsPerProfile",
        "nAs",
        "nBestEffort",
        "subscription",
        "bucketKbit",
        "totalMinTh",
        "totalMaxTh",
        "totalMaxP",
        "queueLimit",
        "simTime",
        "warmup",
        "RngRun",
    ),
}


class MetricsError(ValueError):
    """A metrics document is unreadable or breaks the ``qdisc-lab.metrics/1`` contract."""


def _is_metric_value(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return math.isfinite(value)


def validate_metrics(doc: Any, source: str = "metrics document") -> dict:
    """Check ``doc`` against the contract and return it; ``source`` names it in errors."""
    if not isinstance(doc, dict):
        raise MetricsError(f"{source}: expected a JSON object, got {type(doc).__name__}")
    missing = [key for key in REQUIRED_KEYS if key not in doc]
    if missing:
        raise MetricsError(f"{source}: missing required key(s): {', '.join(missing)}")
    for key, expected in REQUIRED_KEYS.items():
        if not isinstance(doc[key], expected):
            raise MetricsError(
                f"{source}: {key!r} must be a JSON {'object' if expected is dict else 'string'},"
                f" got {type(doc[key]).__name__}"
            )
    if doc["schema"] != SCHEMA:
        raise MetricsError(f"{source}: schema is {doc['schema']!r}, expected {SCHEMA!r}")

    metrics = doc["metrics"]
    bad = {name: value for name, value in metrics.items() if not _is_metric_value(value)}
    if bad:
        detail = ", ".join(f"{name}={value!r}" for name, value in bad.items())
        raise MetricsError(f"{source}: metric values must be finite numbers or null: {detail}")

    program = doc["program"]
    missing_metrics = [m for m in PROGRAM_METRICS.get(program, ()) if m not in metrics]
    if missing_metrics:
        raise MetricsError(
            f"{source}: program {program!r} must report metric(s): {', '.join(missing_metrics)}"
        )
    missing_params = [p for p in PROGRAM_PARAMS.get(program, ()) if p not in doc["params"]]
    if missing_params:
        raise MetricsError(
            f"{source}: program {program!r} must report param(s): {', '.join(missing_params)}"
        )
    return doc


def run_label(doc: dict, index: int = 0) -> str:
    """Name of a run in legends and tables: its ``queueDisc`` param, else ``run N``."""
    return str(doc.get("params", {}).get("queueDisc") or f"run {index + 1}")


def parse_metrics(text: str, source: str = "metrics document") -> dict:
    """Parse JSON ``text`` and validate it (see :func:`validate_metrics`)."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MetricsError(f"{source}: not valid JSON: {exc}") from exc
    return validate_metrics(doc, source)


def load_metrics(path: str | Path) -> dict:
    """Read the metrics file ``path``, validate it and return the parsed object."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise MetricsError(f"{path}: cannot read metrics file: {exc.strerror or exc}") from exc
    return parse_metrics(text, str(path))
