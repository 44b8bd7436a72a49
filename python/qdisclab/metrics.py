# SPDX-License-Identifier: GPL-2.0-only
"""The metrics contract between the C++ example programs and the Python tools.

Every example program writes one JSON object::

    {"schema": "qdisc-lab.metrics/1",
     "program": "dumbbell-fifo-vs-red",
     "ns3_version": "3.37",
     "params": {"queueDisc": "RED", ...},
     "metrics": {"tcp_goodput_mbps": 9.4, ..., "p99_queue_delay_ms": null}}

Metric values are numbers or ``null``. :func:`load_metrics` reads and checks
such a file and raises :class:`MetricsError` when it breaks the contract. Which
params and metrics a program must report is the program's own word: its
``--schema`` (:mod:`qdisclab.schema`), given as ``schema=``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from qdisclab.schema import ProgramSchema

SCHEMA = "qdisc-lab.metrics/1"

# Top-level keys and the JSON type each must have.
REQUIRED_KEYS: dict[str, type] = {
    "schema": str,
    "program": str,
    "ns3_version": str,
    "params": dict,
    "metrics": dict,
}


class MetricsError(ValueError):
    """A metrics document is unreadable or breaks the ``qdisc-lab.metrics/1`` contract."""


def _is_metric_value(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return math.isfinite(value)


def validate_metrics(doc: Any, source: str = "metrics document",
                     schema: ProgramSchema | None = None) -> dict:
    """Check ``doc`` against the contract and return it; ``source`` names it in errors.

    With ``schema`` (the program's ``--schema``), also check that the report has every
    param and metric the program says every run reports, and no undeclared metric.
    """
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

    if schema is not None:
        schema.check_report(doc, source)
    return doc


def run_label(doc: dict, index: int = 0) -> str:
    """Name of a run in legends and tables: its ``queueDisc`` param, else ``run N``."""
    return str(doc.get("params", {}).get("queueDisc") or f"run {index + 1}")


def parse_metrics(text: str, source: str = "metrics document",
                  schema: ProgramSchema | None = None) -> dict:
    """Parse JSON ``text`` and validate it (see :func:`validate_metrics`)."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MetricsError(f"{source}: not valid JSON: {exc}") from exc
    return validate_metrics(doc, source, schema)


def load_metrics(path: str | Path, schema: ProgramSchema | None = None) -> dict:
    """Read the metrics file ``path``, validate it and return the parsed object."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise MetricsError(f"{path}: cannot read metrics file: {exc.strerror or exc}") from exc
    return parse_metrics(text, str(path), schema)
