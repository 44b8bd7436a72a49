# SPDX-License-Identifier: GPL-2.0-only
"""What a campaign cost, from its results database: one row of ``doc/results/timing.csv``.

Columns (:data:`COLUMNS`):

``campaign``
    the campaign's name;
``runs``
    its runs, every one stored (ok, failed or timed out);
``cpu_s``
    the sum of those runs' CPU seconds (user + system of their processes, as the kernel
    accounted them; a run retried with ``--retry-failed`` counts its last attempt); empty
    when a run was stored before the database recorded CPU time;
``wall_s``
    the sum of the wall times of the sweeps that wrote the database (each from its first
    run submitted to its last result stored; a resumed campaign adds every sweep's, and a
    sweep that found nothing to do adds 0). A sweep that never recorded its end (killed
    with SIGKILL) counts up to the last run it stored;
``cores``
    the most runs at a time of those sweeps (``--jobs``, by default the machine's cores);
``ns3_flavor``
    the ns-3 flavour the sweeps ran (``system``, ``wheel``, ``optimized``; for sweeps
    before it was recorded, read from the program's path ``build/<flavor>/examples/``);
``git_revision``
    the module's revisions the runs were made at, in order of first use, space-separated;
``other_load``
    how much other work shared the machine with the runs: the mean 1-minute load average
    beyond the sweeps' own workers (:mod:`qdisclab.campaign.machine_load`), averaged over the sweeps
    weighted by their wall time. Below 0.5 the CPU seconds are a quiet machine's; above it,
    they are inflated by the other work (by 1.35-2.9x on two cores beside builds). Empty when
    no sweep of the database recorded the load (databases written before sweeps recorded it);
``instructions_g``
    the campaign's work in instructions (G), which no other work on the machine changes: the
    mean of a sample of its runs replayed under callgrind times its stored successful runs
    (``qdisc-lab replay DB --callgrind --timing FILE``: :func:`record_instructions`); empty
    until a replay records it, and again when a sweep rewrites the row (a new build);
``instructions_sampled``
    how many replayed runs that mean is of.

A row is only made for a campaign whose every run is stored. The database is opened
read-only and never changed, so it can be read while a sweep writes it, and a database
of any age can be read.
"""

from __future__ import annotations

import csv
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from qdisclab.campaign.machine_load import other_load
from qdisclab.campaign.spec import Campaign, CampaignError
from qdisclab.context import REPO

#: The timing file of the recorded results (``reproduce --timing`` and ``report --timing``
#: choose another).
TIMING_CSV = REPO / "doc" / "results" / "timing.csv"

COLUMNS = ("campaign", "runs", "cpu_s", "wall_s", "cores", "ns3_flavor", "git_revision",
           "other_load", "instructions_g", "instructions_sampled")


@dataclass
class TimingRow:
    """One campaign's row of ``timing.csv`` (see the module's text)."""

    campaign: str
    runs: int
    cpu_s: float | None
    wall_s: float
    cores: int
    ns3_flavor: str
    git_revision: str
    other_load: float | None = None
    instructions_g: float | None = None
    instructions_sampled: int | None = None
    #: Runs stored before the database recorded CPU time (then ``cpu_s`` is None); not a column.
    runs_without_cpu: int = field(default=0, compare=False)

    def cells(self) -> list[str]:
        """The row's CSV cells in :data:`COLUMNS` order (seconds to 0.1 s; an unknown CPU
        time is empty)."""
        values = {name: getattr(self, name) for name in COLUMNS}
        values["cpu_s"] = "" if self.cpu_s is None else f"{self.cpu_s:.1f}"
        values["wall_s"] = f"{self.wall_s:.1f}"
        values["other_load"] = "" if self.other_load is None else f"{self.other_load:.2f}"
        values["instructions_g"] = ("" if self.instructions_g is None
                                    else f"{self.instructions_g:.1f}")
        values["instructions_sampled"] = ("" if self.instructions_sampled is None
                                          else self.instructions_sampled)
        return [str(values[name]) for name in COLUMNS]


class IncompleteCampaign(CampaignError):
    """The database does not hold every run of the campaign yet."""


def _seconds(iso: str | None) -> float | None:
    if not iso:
        return None
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}


def _sweeps_wall_s(sweeps: Sequence[sqlite3.Row], finished: Sequence[float]) -> float:
    """Sum of the sweeps' wall times; a sweep without an end counts from its start to the last
    run stored before the next sweep started (``finished``: the runs' finish times)."""
    total = 0.0
    for index, sweep in enumerate(sweeps):
        if sweep["wall_time_s"] is not None:
            total += sweep["wall_time_s"]
            continue
        start = _seconds(sweep["started_at"])
        if start is None:
            continue
        end = _seconds(sweeps[index + 1]["started_at"]) if index + 1 < len(sweeps) else None
        last = max((t for t in finished if t >= start and (end is None or t < end)),
                   default=start)
        total += last - start
    return total


def _other_load(sweeps: Sequence[sqlite3.Row], has_load: bool) -> float | None:
    """The wall-time-weighted mean load beyond the workers of the sweeps that recorded their
    load; None when none did."""
    if not has_load:
        return None
    measured = [(other_load(s["load_mean"], s["workers"] or 0), s["wall_time_s"] or 0.0)
                for s in sweeps if s["load_mean"] is not None]
    if not measured:
        return None
    wall = sum(w for _, w in measured)
    if wall <= 0:
        return sum(load for load, _ in measured) / len(measured)
    return sum(load * w for load, w in measured) / wall


def _flavor(sweeps: Sequence[sqlite3.Row], has_flavor: bool, binary: str | None) -> str:
    flavors: dict[str, None] = {}
    if has_flavor:
        flavors.update(dict.fromkeys(s["ns3_flavor"] for s in sweeps if s["ns3_flavor"]))
    if not flavors and binary:
        parts = Path(binary).parts
        if len(parts) >= 3 and parts[-2] == "examples":
            flavors[parts[-3]] = None
    return " ".join(flavors)


def campaign_timing(db_path: str | Path, campaign: Campaign) -> TimingRow:
    """The timing row of ``campaign`` from its database ``db_path``.

    Counts the campaign's runs only (a database can hold runs of an earlier grid); raises
    :class:`IncompleteCampaign` when some are not stored, :class:`CampaignError` when the
    database is missing or unreadable.
    """
    db_path = Path(db_path)
    if not db_path.is_file():
        raise CampaignError(f"{db_path} does not exist")
    keys = {run.key for run in campaign.runs()}
    try:
        conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=30.0)
    except sqlite3.Error as exc:
        raise CampaignError(f"cannot open {db_path}: {exc}") from exc
    conn.row_factory = sqlite3.Row
    try:
        has_cpu = "cpu_time_s" in _columns(conn, "runs")
        cpu_column = "cpu_time_s" if has_cpu else "NULL AS cpu_time_s"
        stored = [row for row in conn.execute(
            f"SELECT run_key, {cpu_column}, git_rev, finished_at FROM runs ORDER BY rowid")
            if row["run_key"] in keys]
        finished = [t for t in (_seconds(row["finished_at"]) for row in
                                conn.execute("SELECT finished_at FROM runs")) if t is not None]
        sweeps = list(conn.execute("SELECT * FROM sweeps ORDER BY id"))
        sweep_columns = _columns(conn, "sweeps")
        has_flavor = "ns3_flavor" in sweep_columns
        has_load = "load_mean" in sweep_columns
        binary = conn.execute("SELECT value FROM meta WHERE key = 'binary'").fetchone()
    except sqlite3.Error as exc:
        raise CampaignError(f"cannot read {db_path}: {exc}") from exc
    finally:
        conn.close()
    if len(stored) < len(keys):
        raise IncompleteCampaign(
            f"{campaign.name}: {len(keys) - len(stored)} of its {len(keys)} runs are not in"
            f" {db_path} yet"
        )
    without_cpu = sum(row["cpu_time_s"] is None for row in stored)
    revisions = dict.fromkeys(row["git_rev"] for row in stored if row["git_rev"])
    return TimingRow(
        campaign=campaign.name,
        runs=len(stored),
        cpu_s=None if without_cpu else sum(row["cpu_time_s"] for row in stored),
        wall_s=_sweeps_wall_s(sweeps, finished),
        cores=max((s["workers"] or 0 for s in sweeps), default=0),
        ns3_flavor=_flavor(sweeps, has_flavor, binary[0] if binary else None),
        git_revision=" ".join(revisions),
        other_load=_other_load(sweeps, has_load),
        runs_without_cpu=without_cpu,
    )


def read_timing(path: str | Path) -> list[dict[str, str]]:
    """The rows of a timing CSV (empty when the file does not exist)."""
    path = Path(path)
    if not path.is_file():
        return []
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def write_timing(path: str | Path, rows: Iterable[TimingRow]) -> None:
    """Put ``rows`` into the timing CSV ``path``: each replaces the row of its campaign where
    there is one, the others are appended; the file's other rows stay as they are."""
    path = Path(path)
    table = {row["campaign"]: [row.get(column, "") for column in COLUMNS]
             for row in read_timing(path)}
    for row in rows:
        table[row.campaign] = row.cells()
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(COLUMNS)
        writer.writerows(table.values())
    temporary.replace(path)



def record_instructions(path: str | Path, campaign: str, instructions: float, sampled: int) -> None:
    """Write a campaign's instructions (``instructions`` for all its stored successful runs,
    from a mean of ``sampled`` replayed runs) into its row of the timing CSV ``path``; the
    row's other cells stay. Raises :class:`CampaignError` when the file has no row for it."""
    path = Path(path)
    rows = read_timing(path)
    row = next((r for r in rows if r["campaign"] == campaign), None)
    if row is None:
        known = ", ".join(r["campaign"] for r in rows) or "none"
        raise CampaignError(f"{path} has no row for {campaign!r} (its campaigns: {known}):"
                            " its sweep writes the row first")
    row["instructions_g"] = f"{instructions / 1e9:.1f}"
    row["instructions_sampled"] = str(sampled)
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(COLUMNS)
        writer.writerows([r.get(column, "") or "" for column in COLUMNS] for r in rows)
    temporary.replace(path)
