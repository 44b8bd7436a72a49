# SPDX-License-Identifier: GPL-2.0-only
"""The results database of a campaign: one SQLite file, one row per run.

Tables:

``runs``
    One row per run, keyed by :func:`qdisclab.campaign.spec.run_key`: parameters and
    metrics as JSON objects, the seed, the status (``ok``, ``failed`` or ``timeout``)
    with its reason and the tail of standard error, wall time, CPU time (user + system
    seconds of its process; a run of a batch has its share, see
    :func:`~qdisclab.campaign.runner.execute_batch`), exit code, the ns-3
    version (from the metrics report), the module's git revision, the host, the
    command line, the number of attempts, and ``kept_dir``: the folder of the files the run
    kept (a campaign's ``keep``), relative to the database's directory, or NULL.
``kept_files``
    The files each run kept: ``run_key``, ``name`` (relative to the run's ``kept_dir``)
    and ``bytes``. A run's rows are replaced with its row in ``runs``, in one transaction.
``runs_flat``
    A view of ``runs`` with one column per parameter (``p_<name>``) and per metric
    (``m_<name>``) of the last campaign swept into the file.
``meta``
    Key/value facts about the campaign (name, program, mode, its TOML text).
``sweeps``
    One row per ``sweep`` invocation: start and end, counts, wall time (from the first
    run submitted to the last result stored), summed run wall and CPU time, workers,
    the ns-3 flavour and the git revision.

Every row is committed on its own in WAL mode, so a sweep killed at any moment
loses at most the runs still in flight, and a reader can open the file while a
sweep writes it. One sweep at a time writes a database: :func:`exclusive_writer`
holds a lock on ``<database>.lock`` beside it.

A database SQLite cannot read or write (damaged, truncated, disk full, no
permission) raises :class:`StoreError`, whose message says what is wrong and how
to recover; nothing already stored is changed or removed.

Opening a database made before a column existed adds that column (empty for the
rows already there; :data:`_ADDED_COLUMNS`), so every older database stays readable.

Readers never write. ``ResultStore(path, write=False)``, and every store opened inside
:func:`read_only` (what ``export``, ``report``, ``figures`` and ``factorial`` do), opens the
file with SQLite's ``mode=ro`` (``immutable=1`` when its directory cannot be written, as on a
read-only mount, where SQLite could not make the ``-shm`` file a WAL database needs): it
creates no table, adds no column and keeps the journal mode; a column an older database
lacks reads as NULL. A file that is not a campaign database (empty, another program's
SQLite), a damaged one, or a row whose ``params``/``metrics`` are not JSON objects raises
:class:`StoreError` naming the file (and the row) and how to recover.
"""

from __future__ import annotations

import csv
import fcntl
import functools
import json
import os
import shlex
import socket
import sqlite3
import sys
import time
import urllib.parse
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from qdisclab.campaign.spec import CampaignError

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
    cpu_time_s   REAL,
    exit_code    INTEGER,
    stderr_tail  TEXT,
    ns3_version  TEXT,
    git_rev      TEXT,
    host         TEXT,
    command      TEXT,
    attempts     INTEGER NOT NULL DEFAULT 1,
    started_at   TEXT,
    finished_at  TEXT,
    kept_dir     TEXT
);
CREATE INDEX IF NOT EXISTS runs_status ON runs (status);
CREATE TABLE IF NOT EXISTS kept_files (
    run_key  TEXT NOT NULL,
    name     TEXT NOT NULL,
    bytes    INTEGER NOT NULL,
    PRIMARY KEY (run_key, name)
);
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
    cpu_time_s   REAL,
    ns3_flavor   TEXT,
    git_rev      TEXT,
    load_mean    REAL,
    load_peak    REAL,
    machine_cores INTEGER
);
"""

#: Columns added after the first databases were written: (table, column, type). A database
#: without one gets it (NULL in its old rows) when opened.
_ADDED_COLUMNS = (
    ("runs", "cpu_time_s", "REAL"),
    ("sweeps", "cpu_time_s", "REAL"),
    ("sweeps", "ns3_flavor", "TEXT"),
    ("runs", "kept_dir", "TEXT"),
    ("sweeps", "load_mean", "REAL"),
    ("sweeps", "load_peak", "REAL"),
    ("sweeps", "machine_cores", "INTEGER"),
)

_RUN_COLUMNS = (
    "run_key", "campaign", "program", "grid", "params", "seed", "status", "reason", "metrics",
    "output", "wall_time_s", "cpu_time_s", "exit_code", "stderr_tail", "ns3_version", "git_rev",
    "host", "command", "started_at", "finished_at", "kept_dir",
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
    #: User + system seconds of the run's process (its share of a batch's); None for runs
    #: stored before CPU time was recorded.
    cpu_time_s: float | None = None
    #: The folder of the files the run kept, relative to the database's directory; None
    #: when it kept none.
    kept_dir: str | None = None
    #: The params the program itself reported for the run (its metrics report's ``params``:
    #: every recorded parameter's final value, the program's defaults included); None when
    #: the report was not stored.
    reported_params: dict[str, Any] | None = None

    def param(self, name: str) -> Any:
        """The value parameter ``name`` had in the run: as the program reported it, else as
        the campaign set it. The program's ``--schema`` defaults are its own word, so the
        figures read them here rather than holding copies; ``KeyError`` naming the run when
        neither has it."""
        if self.reported_params is not None and name in self.reported_params:
            return self.reported_params[name]
        if name in self.params:
            return self.params[name]
        if self.reported_params is None:
            raise KeyError(f"run {self.run_key} ({self.program}) has no stored metrics report"
                           f" and its campaign does not set parameter {name!r}")
        raise KeyError(f"run {self.run_key} ({self.program}) reports no parameter {name!r}")

    def metric(self, name: str) -> float:
        """A metric's value, NaN when absent or null."""
        value = (self.metrics or {}).get(name)
        return float("nan") if value is None else float(value)


def _reported_params(output: str | None) -> dict[str, Any] | None:
    """The ``params`` object of a stored metrics report, or None (no report, or not JSON)."""
    if not output:
        return None
    try:
        params = json.loads(output).get("params")
    except (ValueError, AttributeError):
        return None
    return params if isinstance(params, dict) else None


class StoreError(CampaignError):
    """The results database cannot be read or written; the message says how to recover."""


def _damaged(path: Path, problem: str) -> StoreError:
    return StoreError(
        f"{path} is damaged ({problem}); it was left as it is.\n"
        f"To keep the runs it still holds, run `qdisc-lab salvage {shlex.quote(str(path))}`"
        f" (it moves the file to {path.name}.damaged and copies every row SQLite can still"
        f" read into a new {path.name}), then run the sweep again: it runs only what is missing."
    )


def store_error(path: Path, exc: sqlite3.Error) -> StoreError | None:
    """The :class:`StoreError` explaining ``exc`` on the database ``path`` (None: a bug)."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return _damaged(path, str(exc))
    if name == "SQLITE_FULL":
        return StoreError(
            f"cannot write {path}: {exc}. The runs stored so far are kept; free some space"
            " and run the sweep again: it runs only what is missing."
        )
    if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_IOERR", "SQLITE_PERM")):
        return StoreError(
            f"cannot use {path}: {exc}. Check that it and its directory are writable"
            " (SQLite also writes -wal and -shm files beside it) and that the disk is not full."
        )
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return StoreError(
            f"{path} stayed locked by another process for 30 s ({exc}); run again when it is done."
        )
    return None


def _reported(method):
    """Turn SQLite's errors about the file into :class:`StoreError` (see :func:`store_error`)."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except sqlite3.DatabaseError as exc:
            error = store_error(self.path, exc)
            if error is None:
                raise
            raise error from exc

    return wrapper


#: Whether stores opened now default to read-only (inside :func:`read_only`).
_READ_ONLY: ContextVar[bool] = ContextVar("qdisclab_store_read_only", default=False)
#: The tables a campaign database must have for a reader; ``sweeps`` and ``kept_files`` may
#: be missing (read as empty), as may columns added later.
_REQUIRED = {"runs": {"run_key", "params", "seed", "status", "metrics"}, "meta": {"key", "value"}}


@contextmanager
def read_only() -> Iterator[None]:
    """While the block runs, :class:`ResultStore` opens databases read-only unless told
    ``write=True`` (the reader commands run in it)."""
    token = _READ_ONLY.set(True)
    try:
        yield
    finally:
        _READ_ONLY.reset(token)


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """``path`` opened with ``mode=ro``, or ``immutable=1`` where its directory is read-only."""
    if not path.is_file():
        raise StoreError(f"{path} does not exist or is not a file")
    uri = "file:" + urllib.parse.quote(str(path.resolve()))
    conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=30.0)
    try:
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError as exc:
        conn.close()
        name = getattr(exc, "sqlite_errorname", "") or ""
        if not name.startswith(("SQLITE_CANTOPEN", "SQLITE_READONLY")) or os.access(
                path.parent, os.W_OK):
            raise
    # A WAL database on a read-only mount: nothing can write it, so read it as it is.
    return sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, timeout=30.0)


class ResultStore:
    """A campaign's SQLite database: created on first use when ``write`` (the default,
    except inside :func:`read_only`), else only read."""

    @_reported
    def __init__(self, path: str | Path, *, write: bool | None = None):
        self.path = Path(path)
        self.conn = None
        self.write = not _READ_ONLY.get() if write is None else write
        self._columns: dict[str, set[str]] = {}
        if not self.write:
            self.conn = _connect_read_only(self.path)
            try:
                self.conn.row_factory = sqlite3.Row
                self._check_tables()
            except BaseException:
                self.conn.close()
                raise
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create {self.path.parent}: {exc.strerror or exc}") from exc
        # Autocommit: each statement is its own transaction, so each row is durable at once.
        self.conn = sqlite3.connect(self.path, isolation_level=None, timeout=30.0)
        try:
            self.conn.row_factory = sqlite3.Row
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.executescript(_SCHEMA)
            self._add_missing_columns()
        except BaseException:
            self.conn.close()
            raise

    def _check_tables(self) -> None:
        """Refuse a file that is not a campaign database; note the columns it has."""
        tables = [row[0] for row in self.conn.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name")]
        for table in tables:
            self._columns[table] = {row[1] for row in self.conn.execute(
                f"PRAGMA table_info({_quote(table)})")}
        if not tables:
            raise StoreError(
                f"{self.path} is empty: it holds no campaign database ({self.path.stat().st_size}"
                " bytes, no tables). A sweep writes one: `qdisc-lab sweep CAMPAIGN --db"
                f" {shlex.quote(str(self.path))}`; or name the database a sweep wrote.")
        for table, columns in _REQUIRED.items():
            if table not in tables or not columns <= self._columns[table]:
                lacks = ", ".join(sorted(columns - self._columns.get(table, set())))
                missing = (f"no {table} table" if table not in tables else
                           f"its {table} table lacks {lacks}")
                raise StoreError(
                    f"{self.path} is not a qdisc-lab campaign database ({missing}; its tables:"
                    f" {', '.join(tables)}); it was left as it is. Name the database a sweep"
                    " wrote (results/<campaign>/campaign.sqlite).")

    def _has(self, table: str) -> bool:
        """Whether the database has ``table`` (always, for a writer: it made them)."""
        return self.write or table in self._columns

    def _add_missing_columns(self) -> None:
        """Give a database written before :data:`_ADDED_COLUMNS` existed those columns."""
        for table, column, kind in _ADDED_COLUMNS:
            present = {row[1] for row in self.conn.execute(f"PRAGMA table_info({table})")}
            if column not in present:
                self.conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")

    @_reported
    def check(self) -> None:
        """SQLite's ``quick_check`` of the whole file; :class:`StoreError` when damaged."""
        problems = [row[0] for row in self.conn.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise _damaged(self.path, "; ".join(problems[:3]))

    # -- context manager ---------------------------------------------------------------

    def close(self) -> None:
        """Close the connection."""
        if self.conn is not None:
            self.conn.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    # -- meta --------------------------------------------------------------------------

    @_reported
    def set_meta(self, values: Mapping[str, str]) -> None:
        """Store campaign facts (replacing earlier values of the same keys)."""
        with self.conn:
            self.conn.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                list(values.items()),
            )

    @_reported
    def meta(self) -> dict[str, str]:
        """Every stored campaign fact."""
        rows = self.conn.execute("SELECT key, value FROM meta")
        return {row["key"]: row["value"] for row in rows if isinstance(row["key"], str)
                and isinstance(row["value"], str)}

    # -- runs --------------------------------------------------------------------------

    @_reported
    def statuses(self) -> dict[str, str]:
        """Status of every stored run, by run key."""
        return {row[0]: row[1] for row in self.conn.execute("SELECT run_key, status FROM runs")}

    @_reported
    def record(self, row: Mapping[str, Any]) -> None:
        """Insert or replace one run and its ``kept_files`` (the row's list of ``(name,
        bytes)``), committed at once; a replacement counts an attempt."""
        values = {column: row.get(column) for column in _RUN_COLUMNS}
        for column in ("params", "metrics"):
            if values[column] is not None and not isinstance(values[column], str):
                values[column] = json.dumps(values[column])
        if values["status"] not in STATUSES:
            raise ValueError(f"unknown run status {values['status']!r}")
        columns = ", ".join(_RUN_COLUMNS)
        placeholders = ", ".join(f":{c}" for c in _RUN_COLUMNS)
        updates = ", ".join(f"{c} = excluded.{c}" for c in _RUN_COLUMNS if c != "run_key")
        kept = [(values["run_key"], name, size) for name, size in row.get("kept_files") or ()]
        # A savepoint: its own transaction, or part of the caller's (a bulk insert).
        self.conn.execute("SAVEPOINT record")
        try:
            self.conn.execute(
                f"INSERT INTO runs ({columns}) VALUES ({placeholders})"
                f" ON CONFLICT(run_key) DO UPDATE SET {updates}, attempts = runs.attempts + 1",
                values,
            )
            self.conn.execute("DELETE FROM kept_files WHERE run_key = ?", (values["run_key"],))
            self.conn.executemany(
                "INSERT INTO kept_files (run_key, name, bytes) VALUES (?, ?, ?)", kept
            )
        except BaseException:
            # Some errors (SQLITE_FULL) have rolled the whole transaction back already.
            if self.conn.in_transaction:
                try:
                    self.conn.execute("ROLLBACK TO record")
                    self.conn.execute("RELEASE record")
                except sqlite3.Error:
                    pass
            raise
        self.conn.execute("RELEASE record")

    @_reported
    def kept_files(self) -> dict[str, list[tuple[str, int]]]:
        """The files every run kept, by run key: ``(name, bytes)`` in name order."""
        kept: dict[str, list[tuple[str, int]]] = {}
        if not self._has("kept_files"):
            return kept
        for row in self.conn.execute(
            "SELECT run_key, name, bytes FROM kept_files ORDER BY run_key, name"
        ):
            kept.setdefault(row[0], []).append((row[1], row[2]))
        return kept

    @_reported
    def outputs(self) -> dict[str, str]:
        """Every stored metrics report (the ``output`` column: the program's report as it
        wrote it), by run key; runs without one are left out."""
        rows = self.conn.execute("SELECT run_key, output FROM runs WHERE output IS NOT NULL")
        return {row[0]: row[1] for row in rows if isinstance(row[1], str) and row[1]}

    @_reported
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
            present = set(row.keys())

            def get(column: str, default: Any = None) -> Any:
                return row[column] if column in present else default

            records.append(
                RunRecord(
                    run_key=row["run_key"],
                    campaign=get("campaign"),
                    program=get("program"),
                    grid=get("grid"),
                    params=self._json_object(row, "params"),
                    seed=row["seed"],
                    status=row["status"],
                    reason=get("reason"),
                    metrics=self._json_object(row, "metrics", optional=True),
                    wall_time_s=get("wall_time_s"),
                    cpu_time_s=get("cpu_time_s"),
                    exit_code=get("exit_code"),
                    stderr_tail=get("stderr_tail"),
                    ns3_version=get("ns3_version"),
                    git_rev=get("git_rev"),
                    host=get("host"),
                    command=get("command"),
                    attempts=get("attempts", 1),
                    started_at=get("started_at"),
                    finished_at=get("finished_at"),
                    kept_dir=get("kept_dir"),
                    reported_params=_reported_params(get("output")),
                )
            )
        return records

    def _json_object(self, row: sqlite3.Row, column: str, optional: bool = False
                     ) -> dict[str, Any] | None:
        """The row's ``column`` as a JSON object (None when ``optional`` and empty);
        :class:`StoreError` naming the run, the column and the fix when it is not one."""
        text = row[column]
        if optional and not text:
            return None
        problem = None
        try:
            value = json.loads(text) if isinstance(text, str | bytes) else text
        except ValueError as exc:
            problem = f"not valid JSON: {exc}"
        else:
            if not isinstance(value, dict):
                kind = "null" if value is None else type(value).__name__
                problem = f"a JSON {kind}, not an object"
            elif column == "metrics" and any(
                    isinstance(v, bool) or not isinstance(v, int | float | type(None))
                    for v in value.values()):
                problem = "an object whose values are not all numbers or null"
        if problem is None:
            return value
        key = row["run_key"]
        raise StoreError(
            f"{self.path}: the {column} of run {key} are {problem}. The row is damaged: remove"
            f" it (sqlite3 {shlex.quote(str(self.path))} \"DELETE FROM runs WHERE run_key ="
            f" '{key}'\") and run the sweep again, which makes that run anew.")

    @_reported
    def mean_wall_time(self) -> float | None:
        """The mean wall time of the runs stored as ``ok``, in seconds; None without any."""
        (mean,) = self.conn.execute(
            "SELECT AVG(wall_time_s) FROM runs WHERE status = 'ok'").fetchone()
        return mean

    @_reported
    def counts(self, keys: Iterable[str] | None = None) -> dict[str, int]:
        """Number of stored runs per status (among ``keys`` when given)."""
        counts = dict.fromkeys(STATUSES, 0)
        wanted = set(keys) if keys is not None else None
        for key, status in self.statuses().items():
            if wanted is None or key in wanted:
                counts[status] += 1
        return counts

    # -- sweeps ------------------------------------------------------------------------

    @_reported
    def start_sweep(self, values: Mapping[str, Any]) -> int:
        """Record the start of a sweep; return its id."""
        columns = ", ".join(values)
        placeholders = ", ".join("?" for _ in values)
        cursor = self.conn.execute(
            f"INSERT INTO sweeps ({columns}) VALUES ({placeholders})", list(values.values())
        )
        return int(cursor.lastrowid)

    @_reported
    def finish_sweep(self, sweep_id: int, values: Mapping[str, Any]) -> None:
        """Record a sweep's outcome."""
        assignments = ", ".join(f"{column} = ?" for column in values)
        self.conn.execute(
            f"UPDATE sweeps SET {assignments} WHERE id = ?", [*values.values(), sweep_id]
        )

    @_reported
    def sweeps(self) -> list[dict[str, Any]]:
        """Every recorded sweep, oldest first."""
        if not self._has("sweeps"):
            return []
        added = dict.fromkeys((c for t, c, _ in _ADDED_COLUMNS if t == "sweeps"), None)
        # A database older than a column (read-only: not added) has it as None.
        return [{**added, **dict(row)}
                for row in self.conn.execute("SELECT * FROM sweeps ORDER BY id")]

    # -- views and export --------------------------------------------------------------

    @_reported
    def create_flat_view(self, params: Sequence[str], metrics: Sequence[str]) -> None:
        """(Re)create ``runs_flat``: ``p_<name>`` per parameter, ``m_<name>`` per metric."""
        columns = ["run_key", "status", "seed"]
        columns += [
            f"json_extract(params, {_sql_path(name)}) AS {_quote('p_' + name)}" for name in params
        ]
        columns += [
            f"json_extract(metrics, {_sql_path(name)}) AS {_quote('m_' + name)}" for name in metrics
        ]
        columns += ["wall_time_s", "reason", "ns3_version", "git_rev", "kept_dir"]
        with self.conn:
            self.conn.execute("DROP VIEW IF EXISTS runs_flat")
            self.conn.execute(f"CREATE VIEW runs_flat AS SELECT {', '.join(columns)} FROM runs")

    @_reported
    def export_csv(self, path: str | Path, *, keys: Iterable[str] | None = None) -> int:
        """Write every run (or those among ``keys``) as CSV; return the number of rows.

        Columns: ``run_key``, ``status``, ``seed``, one per parameter, one per metric
        (empty when null), then wall time, exit code, ns-3 version, git revision,
        host, reason and finish time, and, when some run kept files, ``kept_dir``: its
        folder, relative to the CSV file's directory (see :func:`kept_path`). A parameter
        or metric whose name is already a column is titled ``param.<name>`` /
        ``metric.<name>``.
        """
        records = self.runs(keys=keys)
        path = Path(path)
        params: dict[str, None] = {}
        metrics: dict[str, None] = {}
        for record in records:
            params.update(dict.fromkeys(record.params))
            metrics.update(dict.fromkeys(record.metrics or {}))
        head = ("run_key", "status", "seed")
        tail = ("wall_time_s", "exit_code", "ns3_version", "git_rev", "host", "reason",
                "finished_at")
        if any(record.kept_dir for record in records):
            tail += ("kept_dir",)
        # A parameter or metric whose name is taken gets a "param." / "metric." prefix.
        taken = {*head, *tail}
        param_titles = [f"param.{n}" if n in taken else n for n in params]
        taken.update(param_titles)
        metric_titles = [f"metric.{n}" if n in taken else n for n in metrics]
        path.parent.mkdir(parents=True, exist_ok=True)

        def cell(record: RunRecord, column: str) -> Any:
            if column == "kept_dir":
                return kept_path(self.path, record.kept_dir, path.parent) or ""
            return _csv_value(getattr(record, column))

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
                        *(cell(record, column) for column in tail),
                    ]
                )
        return len(records)


def kept_root(db: str | Path) -> Path:
    """Where the runs of the database ``db`` keep their files: ``<db's stem>-runs`` beside
    it (``campaign.sqlite`` → ``campaign-runs/``, ``campaign-quick-runs/`` for ``--quick``),
    a folder per run named by its key."""
    db = Path(db)
    return db.with_name(f"{db.stem}-runs")


def kept_path(db: str | Path, kept_dir: str | None, relative_to: str | Path | None = None
              ) -> str | None:
    """A run's ``kept_dir`` (relative to the database ``db``'s directory) as a path relative
    to the directory ``relative_to`` (an exported file's), or absolute when it is None;
    None when the run kept nothing."""
    if not kept_dir:
        return None
    folder = os.path.abspath(Path(db).parent / kept_dir)
    if relative_to is None:
        return folder
    return os.path.relpath(folder, os.path.abspath(relative_to))


@contextmanager
def exclusive_writer(path: str | Path) -> Iterator[None]:
    """Be the only sweep writing the database ``path`` while the block runs.

    Holds an exclusive ``flock`` on ``<path>.lock`` beside the database's real file
    (symbolic links resolved, so two paths to one file take one lock; created and kept,
    holding the owner's pid, host and command); the kernel releases it when the
    process ends, even by SIGKILL. Another holder raises :class:`StoreError`
    naming it. Readers (export, report) do not take the lock.
    """
    path = Path(path)
    real = path.resolve()
    lock_path = Path(f"{real}.lock")
    try:
        lock_path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise StoreError(f"cannot create the lock file {lock_path}: {exc.strerror or exc}") from exc
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 4096, 0).decode("utf-8", errors="replace").strip()
            also = f" (the file {real})" if real != path.absolute() else ""
            raise StoreError(
                f"another sweep is writing {path}{also}: {holder or 'owner unknown'}.\n"
                "Two sweeps on one database would run the same runs twice. Wait for it to"
                " finish, or stop it (its finished runs stay stored) and run this again."
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(
            fd,
            f"PID {os.getpid()} on {socket.gethostname()} since {iso_time()}:"
            f" {shlex.join(sys.argv)}\n".encode(),
            0,
        )
        yield
    finally:
        os.close(fd)


#: Tables :func:`salvage` copies (``runs_flat`` is a view the next sweep recreates).
_TABLES = ("runs", "meta", "sweeps", "kept_files")


def _readable_rows(conn: sqlite3.Connection, table: str) -> tuple[list[str], list[tuple]]:
    """A table's columns and the rows SQLite can read: from the start up to damage, then
    from the end back to it (what the sqlite3 tool's ``.dump`` does)."""
    rows: dict[int, tuple] = {}
    columns: list[str] = []
    for order in ("ASC", "DESC"):
        try:
            cursor = conn.execute(f"SELECT rowid, * FROM {table} ORDER BY rowid {order}")
            columns = [d[0] for d in cursor.description[1:]]
            for row in cursor:
                rows.setdefault(row[0], tuple(row)[1:])
        except sqlite3.DatabaseError:
            continue
    return columns, [rows[rowid] for rowid in sorted(rows)]


def salvage(path: str | Path) -> dict[str, int]:
    """Replace the damaged database ``path`` by a new one holding every row still readable.

    The damaged file (and its ``-wal``) is moved to ``<path>.damaged`` (``-wal``) and
    kept; nothing is deleted. Returns the number of rows copied per table.
    """
    path = Path(path)
    damaged = Path(f"{path}.damaged")
    moves = [(path, damaged), (Path(f"{path}-wal"), Path(f"{damaged}-wal"))]
    if not path.is_file():
        raise StoreError(f"{path} does not exist")
    if damaged.exists():
        raise StoreError(f"{damaged} exists: move it away first (it may be an earlier salvage)")
    copied = dict.fromkeys(_TABLES, 0)
    with exclusive_writer(path):
        for source, target in moves:
            if source.exists():
                source.rename(target)
        Path(f"{path}-shm").unlink(missing_ok=True)
        try:
            old = sqlite3.connect(f"file:{damaged}?mode=ro", uri=True)
            # Read the tables even when an index's root page is lost (read-only: no writes).
            old.execute("PRAGMA writable_schema = ON")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open {damaged}: {exc}") from exc
        try:
            with ResultStore(path, write=True) as new:
                for table in _TABLES:
                    try:
                        columns, rows = _readable_rows(old, table)
                    except sqlite3.Error:  # the schema itself is unreadable
                        continue
                    if not rows:
                        continue
                    names = ", ".join(_quote(c) for c in columns)
                    marks = ", ".join("?" for _ in columns)
                    with new.conn:
                        new.conn.execute("BEGIN")
                        # OR IGNORE: a damaged page can yield a row that breaks a constraint.
                        copied[table] = new.conn.executemany(
                            f"INSERT OR IGNORE INTO {table} ({names}) VALUES ({marks})", rows
                        ).rowcount
        finally:
            old.close()
    return copied


def _sql_path(name: str) -> str:
    escaped = name.replace("\\", "\\\\").replace('"', '\\"').replace("'", "''")
    return f"'$.\"{escaped}\"'"


def _csv_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value
