# SPDX-License-Identifier: GPL-2.0-only
"""What an example program says about itself: its ``--schema``.

Every example program (experiment/experiment-params.h) answers ``--schema`` with one JSON
object and exits 0 without running::

    {"schema": "qdisc-lab.params/1", "program": "red-vs-droptail",
     "params": [{"name": "queueDisc", "type": "string", "default": "FIFO",
                 "choices": ["FIFO", "RED"], "help": "...", "recorded": "always"}, ...],
     "metrics": [{"name": "total_goodput_mbps", "recorded": "always"},
                 {"name": "flow<i>_kbps", "recorded": "always"}, ...]}

A ``string`` parameter that takes only some values lists them as ``choices`` (a queue disc
among the catalog names the program runs: ``"choices": ["FIFO", "RED"]``).
``recorded`` says whether a run's metrics report holds the parameter or metric in every
run (``always``), in some (``sometimes``) or never (``never``: options such as ``--quick``).
A parameter with ``"derived": true`` has no flag (the program computes it); ``<i>`` in a
metric name stands for an index. The tools read this instead of keeping lists of their own:
:func:`read_schema` asks a binary once (cached per binary file), :meth:`ProgramSchema.check_report`
checks a metrics report against it, :meth:`ProgramSchema.unknown` finds the names a campaign
gives that the program has no flag for.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

SCHEMA = "qdisc-lab.params/1"

#: How long a program may take to print its schema, in seconds.
TIMEOUT = 60


class SchemaError(ValueError):
    """A program's ``--schema`` could not be read or breaks the ``qdisc-lab.params/1`` layout."""


@dataclass(frozen=True)
class ProgramSchema:
    """A program's parameters and metrics, as its ``--schema`` gives them."""

    program: str
    params: tuple[Mapping[str, Any], ...]
    metrics: tuple[Mapping[str, Any], ...]

    def param(self, name: str) -> Mapping[str, Any] | None:
        """The entry of parameter ``name``, or None."""
        return next((p for p in self.params if p["name"] == name), None)

    def choices(self, name: str) -> tuple[str, ...]:
        """The values parameter ``name`` takes when it lists them (``"choices"``); () when it
        lists none, or has no such parameter."""
        entry = self.param(name)
        return tuple(entry.get("choices", ())) if entry else ()

    @property
    def flags(self) -> list[str]:
        """The parameters a command line (or a campaign) can set."""
        return [p["name"] for p in self.params if not p.get("derived")]

    def unknown(self, names: Iterable[str]) -> list[str]:
        """The names among ``names`` that are not flags of the program, in their order.

        ns-3's own arguments pass: attribute overrides (``ns3::Type::Attribute``) and global
        values (``RngRun``, ``RngSeed``, ...: the names ns-3's CommandLine also takes).
        """
        flags = set(self.flags)
        return [name for name in names
                if name not in flags and not name.startswith("ns3::") and name not in NS3_GLOBALS]

    def check_report(self, doc: Mapping[str, Any], source: str = "metrics report") -> None:
        """Raise :class:`~qdisclab.metrics.MetricsError` unless ``doc`` has every parameter and
        metric the schema says every run reports, and no metric the schema does not declare."""
        from qdisclab.metrics import MetricsError

        params, metrics = doc.get("params", {}), doc.get("metrics", {})
        missing = [p["name"] for p in self.params
                   if p["recorded"] == "always" and p["name"] not in params]
        if missing:
            raise MetricsError(f"{source}: program {self.program!r} must report param(s): "
                               f"{', '.join(missing)}")
        missing = [m["name"] for m in self.metrics if m["recorded"] == "always"
                   and not any(metric_matches(m["name"], name) for name in metrics)]
        if missing:
            raise MetricsError(f"{source}: program {self.program!r} must report metric(s): "
                               f"{', '.join(missing)}")
        undeclared = [name for name in metrics
                      if not any(metric_matches(m["name"], name) for m in self.metrics)]
        if undeclared:
            raise MetricsError(f"{source}: program {self.program!r} does not declare metric(s): "
                               f"{', '.join(undeclared)}")


#: ns-3's global values, which every program's CommandLine takes (--RngRun=2).
NS3_GLOBALS = frozenset({"RngRun", "RngSeed", "SchedulerType", "SimulatorImplementationType",
                         "ChecksumEnabled"})


def metric_matches(pattern: str, name: str) -> bool:
    """Whether metric ``name`` is an instance of the declared ``pattern`` (``<i>``: digits)."""
    if "<i>" not in pattern:
        return pattern == name
    regex = "".join(r"\d+" if part == "<i>" else re.escape(part)
                    for part in re.split(r"(<i>)", pattern))
    return re.fullmatch(regex, name) is not None


def parse_schema(text: str, source: str = "schema") -> ProgramSchema:
    """Parse and check the JSON ``text`` of a ``--schema``."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SchemaError(f"{source}: not valid JSON: {exc}") from exc
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise SchemaError(f"{source}: expected a {SCHEMA!r} object")
    params, metrics = doc.get("params"), doc.get("metrics")
    if not isinstance(doc.get("program"), str) or not isinstance(params, list) \
            or not isinstance(metrics, list):
        raise SchemaError(f"{source}: needs 'program' (a string), 'params' and 'metrics' (lists)")
    for entry in params:
        if not isinstance(entry, dict) or not {"name", "type", "default", "help",
                                               "recorded"} <= entry.keys():
            raise SchemaError(f"{source}: a parameter needs name, type, default, help and "
                              f"recorded: {entry!r}")
        choices = entry.get("choices")
        if choices is not None and (not isinstance(choices, list) or not choices
                                    or not all(isinstance(c, str) for c in choices)
                                    or entry["default"] not in choices):
            raise SchemaError(f"{source}: parameter {entry['name']!r}: choices must be a list of "
                              f"strings holding its default: {choices!r}")
    for entry in metrics:
        if not isinstance(entry, dict) or not {"name", "recorded"} <= entry.keys():
            raise SchemaError(f"{source}: a metric needs name and recorded: {entry!r}")
    return ProgramSchema(doc["program"], tuple(params), tuple(metrics))


@lru_cache(maxsize=64)
def _read(binary: str, _mtime_ns: int, _size: int) -> ProgramSchema:
    try:
        done = subprocess.run([binary, "--schema"], capture_output=True, text=True,
                              timeout=TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SchemaError(f"{binary} --schema: {exc}") from exc
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise SchemaError(f"{binary} --schema exited {done.returncode}: {tail[0]}")
    return parse_schema(done.stdout, f"{binary} --schema")


def read_schema(binary: str | Path) -> ProgramSchema:
    """The schema of the program ``binary`` (asked once per binary file: cached on its path,
    modification time and size). Raises :class:`SchemaError` when it cannot be read."""
    path = Path(binary).resolve()
    try:
        stat = os.stat(path)
    except OSError as exc:
        raise SchemaError(f"{path}: {exc.strerror or exc}") from exc
    return _read(str(path), stat.st_mtime_ns, stat.st_size)
