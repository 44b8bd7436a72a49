# SPDX-License-Identifier: GPL-2.0-only
"""Replay stored runs: run a sample of a database's runs again, on a given build, and compare
each metrics report with the stored one, byte for byte.

This is how a change that must not move any result (a faster build of ns-3, a patch to it, a
cheaper helper) is shown to keep every recorded figure: the stored report of a run is the
program's whole output for its parameters and seed, so the same text from the new build means
the same row in every figure drawn from the database. The sample is spread evenly over the
database's successful runs in the order they were stored, so it covers every sub-grid.

A database kept compressed (``doc/results/<name>/campaign.sqlite.xz``) is read from a
decompressed copy in a temporary folder; the database itself is only read.
"""

from __future__ import annotations

import json
import lzma
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from qdisclab.campaign import runner
from qdisclab.campaign.spec import CampaignError, format_value
from qdisclab.campaign.store import ResultStore, RunRecord, read_only

#: The report's fields that say which build ran, compared like the rest (a replay on another
#: ns-3 release differs there, and is reported so).
BUILD_FIELDS = ("ns3_version",)


#: A replayed run's report is the stored one byte for byte.
IDENTICAL = "identical"
#: It holds fields the stored one lacks (the program reports more since: a new parameter),
#: and every field of the stored one with the same value.
SAME_BUT_ADDED = "same, fields added"
#: A field of the stored report has another value, or is gone; or the run gave no report.
DIFFERS = "DIFFERS"


@dataclass
class Replayed:
    """One stored run, run again."""

    key: str  #: the run's key
    label: str  #: its parameters and seed, for a listing
    verdict: str = DIFFERS  #: :data:`IDENTICAL`, :data:`SAME_BUT_ADDED` or :data:`DIFFERS`
    #: Where they differ: "metrics.x: 1.5 -> 1.6", at most :data:`MAX_DIFFERENCES`; or why the
    #: run gave no report.
    differences: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)  #: fields only the new report has
    stored_cpu_s: float | None = None  #: the stored run's CPU seconds
    cpu_s: float | None = None  #: this run's
    instructions: int | None = None  #: this run's, counted by callgrind (``callgrind=True``)

    @property
    def same(self) -> bool:
        """Whether every stored field came back with its value (added fields aside)."""
        return self.verdict != DIFFERS


#: Differences listed per run.
MAX_DIFFERENCES = 5

#: What runs a program under callgrind: instruction counts repeat for the same binary and
#: inputs whatever else the machine does, unlike CPU seconds. The profile itself is not kept.
CALLGRIND = ("valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null")

#: callgrind's summary line on standard error: ``==PID== Collected : N``.
_COLLECTED = re.compile(r"^==\d+== Collected : (\d+)\s*$", re.MULTILINE)


def collected(stderr: str) -> int | None:
    """The instructions callgrind's summary on ``stderr`` counts; None without one."""
    found = _COLLECTED.findall(stderr or "")
    return int(found[-1]) if found else None


@contextmanager
def opened(db: Path) -> Iterator[ResultStore]:
    """``db`` opened read-only; a ``.xz`` file through a decompressed temporary copy."""
    db = Path(db)
    if not db.is_file():
        raise CampaignError(f"{db}: no such database")
    if db.suffix != ".xz":
        with read_only(), ResultStore(db) as store:
            yield store
        return
    folder = Path(tempfile.mkdtemp(prefix="qdisclab-replay-"))
    try:
        copy = folder / db.stem
        try:
            with lzma.open(db) as source, open(copy, "wb") as target:
                shutil.copyfileobj(source, target)
        except lzma.LZMAError as exc:
            raise CampaignError(f"{db}: not an xz-compressed database ({exc})") from exc
        with read_only(), ResultStore(copy) as store:
            yield store
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def spread(items: Sequence[Any], count: int) -> list[Any]:
    """``count`` of ``items``, evenly spaced from the first; all of them when there are fewer."""
    if count >= len(items):
        return list(items)
    if count <= 0:
        return []
    step = len(items) / count
    return [items[int(i * step)] for i in range(count)]


def sample(store: ResultStore, count: int, grids: Sequence[str] = ()) -> list[tuple[RunRecord, str]]:
    """``count`` successful runs with a stored report (of the sub-grids ``grids``, when given),
    spread over the database in the order they were stored, each with its stored report."""
    outputs = store.outputs()
    runs = [run for run in store.runs(status="ok")
            if outputs.get(run.run_key) and (not grids or run.grid in grids)]
    if not runs:
        where = f" in sub-grid(s) {', '.join(grids)}" if grids else ""
        raise CampaignError(f"{store.path}: no successful run with a stored report{where}")
    return [(run, outputs[run.run_key]) for run in spread(runs, count)]


def arguments(run: RunRecord) -> list[str]:
    """The run's command line after the program (as the sweep built it), without ``--output``."""
    words = [f"--{name}={format_value(value)}" for name, value in run.params.items()]
    return [*words, f"--RngRun={run.seed}"]


_ABSENT = object()


def compare(stored: str, new: str, limit: int = MAX_DIFFERENCES) -> tuple[list[str], list[str]]:
    """Where two metrics reports differ: (the stored fields with another value or gone, as
    "path: old -> new", at most ``limit``; the fields only ``new`` has), as dotted paths."""
    try:
        old_doc, new_doc = json.loads(stored), json.loads(new)
    except ValueError:
        return ["the reports differ and one is not JSON"], []
    changed: list[str] = []
    added: list[str] = []

    def walk(path: str, a: Any, b: Any) -> None:
        if isinstance(a, Mapping) and isinstance(b, Mapping):
            for key in [*a, *(k for k in b if k not in a)]:
                walk(f"{path}.{key}" if path else str(key), a.get(key, _ABSENT),
                     b.get(key, _ABSENT))
        elif a is _ABSENT:
            added.append(path)
        elif len(changed) < limit and (a != b or type(a) is not type(b)):
            shown = "(absent)" if b is _ABSENT else repr(b)
            changed.append(f"{path}: {a!r} -> {shown}")

    walk("", old_doc, new_doc)
    if not changed and not added:
        changed = ["the same fields and values, written differently"]
    return changed, added


def replay_one(run: RunRecord, stored: str, binary: Path, env: Mapping[str, str] | None,
               timeout: float | None, callgrind: bool = False) -> Replayed:
    """Run ``run`` again with ``binary`` (under callgrind, counting its instructions, with
    ``callgrind``) and compare its report with ``stored``."""
    argv = [str(binary), *arguments(run)]
    needs_dir = any(runner.RUN_DIR in word for word in argv)
    scratch = tempfile.mkdtemp(prefix="qdisclab-replay-run-") if needs_dir else None
    try:
        raw = runner.execute_run(argv, timeout, dict(env) if env else None,
                                 launcher=list(CALLGRIND) if callgrind else None,
                                 keep=[[], scratch] if scratch else None)
    finally:
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
    label = " ".join(arguments(run))
    result = Replayed(run.run_key, label, stored_cpu_s=run.cpu_time_s,
                      cpu_s=raw.get("cpu_time_s"),
                      instructions=collected(raw.get("stderr_tail", "")) if callgrind else None)
    new = raw.get("output")
    if raw["outcome"] != "exited" or raw["returncode"] != 0 or not new:
        why = raw.get("error") or raw.get("error_line") or f"exit status {raw['returncode']}"
        result.differences = [f"no report: {raw['outcome']}, {why}"]
        return result
    if new == stored:
        result.verdict = IDENTICAL
        return result
    result.differences, result.added = compare(stored, new)
    if result.added and not result.differences:
        result.verdict = SAME_BUT_ADDED
    return result


def replay(db: Path, binary: Path, *, count: int, env: Mapping[str, str] | None = None,
           grids: Sequence[str] = (), jobs: int = 1, timeout: float | None = None,
           callgrind: bool = False,
           done: Callable[[Replayed], None] | None = None) -> list[Replayed]:
    """Replay ``count`` of ``db``'s runs with ``binary``, ``jobs`` at a time (under callgrind
    with ``callgrind``, without a timeout: it runs them about 50 times slower); results in the
    sample's order (``done`` is called as each finishes)."""
    if callgrind and shutil.which(CALLGRIND[0]) is None:
        raise CampaignError("--callgrind needs valgrind (`./qdisc-lab setup` installs it)")
    with opened(db) as store:
        chosen = sample(store, count, grids)
        programs = {run.program for run, _ in chosen}
    if binary.name not in programs and len(programs) == 1:
        (program,) = programs
        raise CampaignError(f"{db} holds runs of {program}, not of {binary.name}")

    def one(item: tuple[RunRecord, str]) -> Replayed:
        result = replay_one(item[0], item[1], binary, env, None if callgrind else timeout,
                            callgrind)
        if done is not None:
            done(result)
        return result

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(one, chosen))


def instructions_estimate(results: Sequence[Replayed], runs: int) -> tuple[float, float] | None:
    """(mean instructions per run of the sample, that mean x ``runs``: the database's stored
    runs), from the results callgrind counted; None when it counted none."""
    counted = [r.instructions for r in results if r.instructions is not None]
    if not counted:
        return None
    mean = sum(counted) / len(counted)
    return mean, mean * runs
