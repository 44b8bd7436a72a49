# SPDX-License-Identifier: GPL-2.0-only
"""Running the examples of the system build, for the tests that check their metrics reports."""

import subprocess
from pathlib import Path

import pytest

from qdisclab.context import REPO
from qdisclab.metrics import load_metrics
from qdisclab.schema import metric_matches, read_schema


def example(name: str) -> Path:
    """The example program ``name`` of the system build (``qdisc-lab build``)."""
    return REPO / "build" / "system" / "examples" / name


def needs_build(binary: Path) -> pytest.MarkDecorator:
    """Skip the marked tests while ``binary`` is not built."""
    return pytest.mark.skipif(not binary.is_file(), reason=f"{binary} not built (qdisc-lab build)")


def run_example(binary: Path, out_dir: Path, *args: str, complete: bool = True) -> dict:
    """Run ``binary`` with ``args`` and its metrics report in ``out_dir``; return the report.

    The report must come from the program itself, have every param and metric the program's
    ``--schema`` says every run reports and, with ``complete``, a value (not null) for each of
    those metrics.
    """
    output = out_dir / "metrics.json"
    subprocess.run([str(binary), *args, f"--output={output}"], check=True, timeout=300,
                   capture_output=True)
    schema = read_schema(binary)
    doc = load_metrics(output, schema)
    assert doc["program"] == binary.name
    if complete:
        always = [m["name"] for m in schema.metrics if m["recorded"] == "always"]
        assert all(value is not None for name, value in doc["metrics"].items()
                   if any(metric_matches(pattern, name) for pattern in always))
    return doc
