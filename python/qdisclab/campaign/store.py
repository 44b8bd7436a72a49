# SPDX-License-Identifier: GPL-2.0-only
"""The results database of a campaign: one SQLite file, one row per run.

Tables:

``runs``
    One row per run, keyed by :func:`qdisclab.campaign.spec.run_key`: parameters and
    metrics as JSON objects, the seed, the status (``ok``, ``failed`` or ``timeout``)
    with its reason and the tail of standard error, wall time, exit code, the ns-3
    version (from the metrics report), the module's git revision, the host, the
    command line and the number of attempts.
``runs_flat``
    A view of ``runs`` with one column per parameter (``p_<name>``) and per metric
    (``m_<name>``) of the last campaign swept into the file.
``meta``
    Key/value facts about the campaign (name, program, mode, its TOML text).
``sweeps``
    One row per ``sweep`` invocation: counts, wall time and summed run time.

Every row is committed on its own in WAL mode, so a sweep killed at any moment
loses at most the runs still in flight, and a reader can open the file while a
sweep writes it.
"""

from __future__ import annotations

import csv
import json
import sqlite3
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

STATUSES = ("ok", "failed", "timeout")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run_key      TEXT PRIMARY KEY,
    campaign     TEXT NOT NULL,
    program      TEXT NOT NULL,
    grid         TEXT,
    params       TEXT NOT NULL,
    seed         INTEGER NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('ok', 'failed', 'timeout')),
    reason       TEXT,
    metrics      TEXT,
    output       TEXT,
    wall_time_s  REAL,
    exit_code    INTEGER,
    stderr_tail  TEXT,
    ns3_version  TEXT,
    git_rev      TEXT,
    host         TEXT,
    command      TEXT,
    attempts     INTEGER NOT NULL DEFAULT 1,
    started_at   TEXT,
    finished_at  TEXT
);
CREATE INDEX IF NOT EXISTS runs_status ON runs (status);
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT
);
CREATE TABLE IF NOT EXISTS sweeps (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign     TEXT,
    mode         TEXT,
    started_at   TEXT,
    finished_at  TEXT,
    workers      INTEGER,
    cluster      TEXT,
    planned      INTEGER,
    skipped      INTEGER,
    ok           INTEGER,
    failed       INTEGER,
    timeout      INTEGER,
    interrupted  INTEGER,
    wall_time_s  REAL,
    run_time_s   REAL,
    git_rev      TEXT
);
"""

_RUN_COLUMNS = (
    "run_key", "campaign", "program", "grid", "params", "seed", "status", "reason", "metrics",
    "output", "wall_time_s", "exit_code", "stderr_tail", "ns3_version", "git_rev", "host",
    "command", "started_at", "finished_at",
)


def iso_time(timestamp: float | None = None) -> str:
    """UTC ISO-8601 time, to the second."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(timestamp))


def _quote(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'


@dataclass
class RunRecord:
    """A stored run, with its JSON columns parsed."""

    run_key: str
    campaign: str
    program: str
    grid: str | None
    params: dict[str, Any]
    seed: int
    status: str
    reason: str | None
    metrics: dict[str, float | None] | None
    wall_time_s: float | None
    exit_code: int | None
    stderr_tail: str | None
    ns3_version: str | None
    git_rev: str | None
    host: str | None
    command: str | None
    attempts: int
    started_at: str | None
    finished_at: str | None

    def metric(self, name: str) -> float:
        """A metric's value, NaN when absent or null."""
        value = (self.metrics or {}).get(name)
        return float("nan") if value is None else float(value)


class ResultStore:
    """A campaign's SQLite database (created on first use)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Autocommit: each statement is its own transaction, so each row is durable at once.
        self.conn = sqlite3.connect(self.path, isolation_level=None, timeout=30.0)
        self.conn.row_factory = sqlite3.Row
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.executescript(_SCHEMA)

    # -- context manager ---------------------------------------------------------------

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    # -- meta --------------------------------------------------------------------------

    def set_meta(self, values: Mapping[str, str]) -> None:
        """Store campaign facts (replacing earlier values of the same keys)."""
        with self.conn:
            self.conn.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                list(values.items()),
            )

    def meta(self) -> dict[str, str]:
        """Every stored campaign fact."""
        rows = self.conn.execute("SELECT key, value FROM meta")
        return {row["key"]: row["value"] for row in rows}

    # -- runs --------------------------------------------------------------------------

    def statuses(self) -> dict[str, str]:
        """Status of every stored run, by run key."""
        return {row[0]: row[1] for row in self.conn.execute("SELECT run_key, status FROM runs")}

    def record(self, row: Mapping[str, Any]) -> None:
        """Insert or replace one run (committed at once); a replacement counts an attempt."""
        values = {column: row.get(column) for column in _RUN_COLUMNS}
        for column in ("params", "metrics"):
            if values[column] is not None and not isinstance(values[column], str):
                values[column] = json.dumps(values[column])
        if values["status"] not in STATUSES:
            raise ValueError(f"unknown run status {values['status']!r}")
        columns = ", ".join(_RUN_COLUMNS)
        placeholders = ", ".join(f":{c}" for c in _RUN_COLUMNS)
        updates = ", ".join(f"{c} = excluded.{c}" for c in _RUN_COLUMNS if c != "run_key")
        self.conn.execute(
            f"INSERT INTO runs ({columns}) VALUES ({placeholders})"
            f" ON CONFLICT(run_key) DO UPDATE SET {updates}, attempts = runs.attempts + 1",
            values,
        )

    def runs(
        self, *, status: str | None = None, keys: Iterable[str] | None = None
    ) -> list[RunRecord]:
        """Stored runs (only those with ``status`` / among ``keys``), in insertion order."""
        query = "SELECT * FROM runs"
        args: list[Any] = []
        if status is not None:
            query += " WHERE status = ?"
            args.append(status)
        query += " ORDER BY rowid"
        wanted = set(keys) if keys is not None else None
        records = []
        for row in self.conn.execute(query, args):
            if wanted is not None and row["run_key"] not in wanted:
                continue
            records.append(
                RunRecord(
                    run_key=row["run_key"],
                    campaign=row["campaign"],
                    program=row["program"],
                    grid=row["grid"],
                    params=json.loads(row["params"]),
                    seed=row["seed"],
                    status=row["status"],
                    reason=row["reason"],
                    metrics=json.loads(row["metrics"]) if row["metrics"] else None,
                    wall_time_s=row["wall_time_s"],
                    exit_code=row["exit_code"],
                    stderr_tail=row["stderr_tail"],
                    ns3_version=row["ns3_version"],
                    git_rev=row["git_rev"],
                    host=row["host"],
                    command=row["command"],
                    attempts=row["attempts"],
                    started_at=row["started_at"],
                    finished_at=row["finished_at"],
                )
            )
        return records

    def counts(self, keys: Iterable[str] | None = None) -> dict[str, int]:
        """Number of stored runs per status (among ``keys`` when given)."""
        counts = dict.fromkeys(STATUSES, 0)
        wanted = set(keys) if keys is not None else None
        for key, status in self.statuses().items():
            if wanted is None or key in wanted:
                counts[status] += 1
        return counts

    # -- sweeps ------------------------------------------------------------------------

    def start_sweep(self, values: Mapping[str, Any]) -> int:
        """Record the start of a sweep; return its id."""
        columns = ", ".join(values)
        placeholders = ", ".join("?" for _ in values)
        cursor = self.conn.execute(
            f"INSERT INTO sweeps ({columns}) VALUES ({placeholders})", list(values.values())
        )
        return int(cursor.lastrowid)

    def finish_sweep(self, sweep_id: int, values: Mapping[str, Any]) -> None:
        """Record a sweep's outcome."""
        assignments = ", ".join(f"{column} = ?" for column in values)
        self.conn.execute(
            f"UPDATE sweeps SET {assignments} WHERE id = ?", [*values.values(), sweep_id]
        )

    def sweeps(self) -> list[dict[str, Any]]:
        """Every recorded sweep, oldest first."""
        return [dict(row) for row in self.conn.execute("SELECT * FROM sweeps ORDER BY id")]

    # -- views and export --------------------------------------------------------------

    def create_flat_view(self, params: Sequence[str], metrics: Sequence[str]) -> None:
        """(Re)create ``runs_flat``: ``p_<name>`` per parameter, ``m_<name>`` per metric."""
        columns = ["run_key", "status", "seed"]
        columns += [
            f"json_extract(params, {_sql_path(name)}) AS {_quote('p_' + name)}" for name in params
        ]
        columns += [
            f"json_extract(metrics, {_sql_path(name)}) AS {_quote('m_' + name)}" for name in metrics
        ]
        columns += ["wall_time_s", "reason", "ns3_version", "git_rev"]
        with self.conn:
            self.conn.execute("DROP VIEW IF EXISTS runs_flat")
            self.conn.execute(f"CREATE VIEW runs_flat AS SELECT {', '.join(columns)} FROM runs")

    def export_csv(self, path: str | Path, *, keys: Iterable[str] | None = None) -> int:
        """Write every run (or those among ``keys``) as CSV; return the number of rows.

        Columns: ``run_key``, ``status``, ``seed``, one per parameter, one per metric
        (empty when null), then wall time, exit code, ns-3 version, git revision,
        host, reason and finish time. A parameter or metric whose name is already a
        column is titled ``param.<name>`` / ``metric.<name>``.
        """
        records = self.runs(keys=keys)
        params: dict[str, None] = {}
        metrics: dict[str, None] = {}
        for record in records:
            params.update(dict.fromkeys(record.params))
            metrics.update(dict.fromkeys(record.metrics or {}))
        head = ("run_key", "status", "seed")
        tail = ("wall_time_s", "exit_code", "ns3_version", "git_rev", "host", "reason",
                "finished_at")
        # A parameter or metric whose name is taken gets a "param." / "metric." prefix.
        taken = {*head, *tail}
        param_titles = [f"param.{n}" if n in taken else n for n in params]
        taken.update(param_titles)
        metric_titles = [f"metric.{n}" if n in taken else n for n in metrics]
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow([*head, *param_titles, *metric_titles, *tail])
            for record in records:
                writer.writerow(
                    [
                        record.run_key,
                        record.status,
                        record.seed,
                        *(_csv_value(record.params.get(name)) for name in params),
                        *(_csv_value((record.metrics or {}).get(name)) for name in metrics),
                        *(_csv_value(getattr(record, column)) for column in tail),
                    ]
                )
        return len(records)


def _sql_path(name: str) -> str:
    escaped = name.replace("\\", "\\\\").replace('"', '\\"').replace("'", "''")
    return f"'$.\"{escaped}\"'"


def _csv_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value
