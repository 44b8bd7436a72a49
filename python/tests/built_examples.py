# SPDX-License-Identifier: GPL-2.0-only
"""Running the examples of the system build, for the tests that check their metrics reports."""

import subprocess
from pathlib import Path

import pytest

from qdisclab.context import REPO
from qdisclab.metrics import PROGRAM_METRICS, load_metrics


def example(name: str) -> Path:
    """The example program ``name`` of the system build (``qdisc-lab build``)."""
    return REPO / "build" / "system" / "examples" / name


def needs_build(binary: Path) -> pytest.MarkDecorator:
    """Skip the marked tests while ``binary`` is not built."""
    return pytest.mark.skipif(not binary.is_file(), reason=f"{binary} not built (qdisc-lab build)")


def run_example(binary: Path, out_dir: Path, *args: str, complete: bool = True) -> dict:
    """Run ``binary`` with ``args`` and its metrics report in ``out_dir``; return the report.

    The report must come from the program itself and, with ``complete``, hold a value for every
    metric :data:`~qdisclab.metrics.PROGRAM_METRICS` lists for it.
    """
    output = out_dir / "metrics.json"
    subprocess.run([str(binary), *args, f"--output={output}"], check=True, timeout=300,
                   capture_output=True)
    doc = load_metrics(output)
    assert doc["program"] == binary.name
    if complete:
        assert all(doc["metrics"][name] is not None for name in PROGRAM_METRICS[binary.name])
    return doc
