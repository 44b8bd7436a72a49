# SPDX-License-Identifier: GPL-2.0-only
"""Running a campaign: every missing run as a Dask task, each result stored as it lands.

:func:`sweep` expands the campaign, skips the runs the database already holds
(``ok``, and ``failed``/``timeout`` unless ``retry_failed``), and submits the rest to
Dask: an embedded in-process cluster of ``jobs`` threads (each run is a subprocess,
so threads are enough), or an existing Dask scheduler at ``cluster``. Results come
back in completion order; each is checked against the metrics contract and
committed to SQLite before the next is read.

Nothing outlives a sweep on the embedded cluster: Ctrl-C, SIGTERM and SIGHUP stop
it the same way (kill the runs, keep the finished ones, remove the scratch
directories); after ``kill -9`` the kernel kills the runs (see
:func:`~qdisclab.campaign.runner.death_signal_launcher`) and the next sweep removes
their directories.
One sweep at a time writes a database (:func:`~qdisclab.campaign.store.exclusive_writer`).

With ``points_per_process`` > 1 (the campaign's, or ``--points-per-process``), a task
runs up to that many runs in one process of a program built on PointBatch
(experiment/point-batch.h; :func:`~qdisclab.campaign.runner.execute_batch`), when a probe
says the program's ns-3 can reset between runs (else: one run per process, said on
the console). Each run still gets its own row, timeout and failure reason: the run that
ended the process gets its exit status, or its timeout, and its own error line; the runs
queued behind it go back to the queue as a new task. A task takes at most as many runs
as spread the sweep evenly over the workers.

A run of a sub-grid with ``keep`` patterns keeps files: its arguments name its own
directory for ``{run}`` (a point of a batch has its own too), and after the run, whatever
its outcome, the runner moves the matching files to ``<database stem>-runs/<run key>/``
beside the database (:func:`~qdisclab.campaign.store.kept_root`), replacing what an earlier
attempt kept there. The run's row names the folder (``kept_dir``) and ``kept_files`` lists
the files with their sizes; the folder's ``qdisclab-run.json`` says which run it is and how
it ended (status, reason, command). The sweep says where the files go and how much space is
free there, warns once when the runs left would need more than that at the size per run so
far, and names the patterns that matched no file in any run.
"""

from __future__ import annotations

import json
import logging
import math
import os
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    SpinnerColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text

from qdisclab.campaign import children, runner
from qdisclab.campaign.machine_load import LoadSampler, MachineLoad
from qdisclab.campaign.spec import Campaign, CampaignError, Run, check_program
from qdisclab.campaign.store import ResultStore, exclusive_writer, iso_time, kept_root
from qdisclab.context import CONSOLE, REPO, RESULTS_DIR
from qdisclab.metrics import MetricsError, parse_metrics
from qdisclab.schema import ProgramSchema, SchemaError, read_schema

#: How long to wait for a remote scheduler and its first worker.
CONNECT_TIMEOUT_S = 30
#: How long an interrupted sweep waits for its killed runs to clean up.
STOP_TIMEOUT_S = 30
#: Signals that stop a sweep like Ctrl-C (when not ignored, as under nohup).
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
#: Where the embedded cluster's HTTP endpoints listen (Dask's default is every interface).
LOOPBACK_HTTP = "127.0.0.1:0"


def results_dir(campaign: Campaign) -> Path:
    """Where a campaign's results go by default: the clone's ``results/`` for a campaign file
    in the clone (or none), and ``results/`` beside the file for one kept elsewhere."""
    if campaign.source is not None:
        folder = Path(campaign.source).resolve().parent
        if not folder.is_relative_to(REPO):
            return folder / "results"
    return RESULTS_DIR


def default_db_path(campaign: Campaign, results: Path | None = None) -> Path:
    """``<results>/<name>/campaign.sqlite`` (``campaign-quick.sqlite`` for ``--quick``), in
    ``results`` or else :func:`results_dir`."""
    stem = "campaign-quick" if campaign.quick else "campaign"
    return (results or results_dir(campaign)) / campaign.name / f"{stem}.sqlite"


def program_binary(program: str, flavor: str = "system") -> Path:
    """``build/<flavor>/examples/<program>`` (``validation/ns2/<program>.tcl`` for ns-2.35,
    flavour ``ns2``; the ns-3.24 tree's ``build/scratch/<program>``, flavour ``ns-3.24``); a
    clear error when it was not built or is not there."""
    from qdisclab.toolchain.build import NS2, NS2_PROGRAMS, NS324, build_dir, ns2_programs

    if flavor == NS2:
        path = NS2_PROGRAMS / f"{program}.tcl"
        if not path.is_file():
            raise CampaignError(f"{path} does not exist: no ns-2.35 program {program!r}")
        ns2_programs()  # `ns` itself
        return path
    if flavor == NS324:
        from qdisclab.toolchain import ns324

        try:
            return ns324.find_program(program)
        except ns324.Ns324Error as exc:
            raise CampaignError(str(exc)) from exc
    path = build_dir(flavor) / "examples" / program
    if not path.is_file():
        raise CampaignError(
            f"{path} does not exist: build it first (`./qdisc-lab build --ns3 {flavor}`)"
        )
    return path


def git_revision(repo: Path = REPO) -> str:
    """``git rev-parse HEAD`` of the module, with ``-dirty`` when tracked files changed."""
    try:
        head = subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "HEAD"],
            capture_output=True, text=True, check=True, timeout=30,
        ).stdout.strip()
        changes = subprocess.run(
            ["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True, text=True, check=True, timeout=30,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return f"{head}-dirty" if changes else head


def duration(seconds: float) -> str:
    """``seconds`` for people: ``45 s``, ``12 min``, ``3.5 h``, ``2.1 days``."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 172800:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def cost_line(campaign: Campaign, todo: int, workers: int, mean_s: float | None,
              planned: int | None = None) -> str:
    """What the runs left will cost: their number over the workers, at the mean wall time
    of the runs stored so far when there are some, and at most (every run at its timeout)."""
    grids = ", ".join(f"{grid.name} {grid.size():,} points" for grid in campaign.grids)
    estimate = (f"about {duration(todo * mean_s / workers)} at the {mean_s:.1f} s a run"
                " stored so far; " if mean_s else "")
    size = campaign.size()
    merged = (f", {planned:,} once runs sub-grids share are merged"
              if planned is not None and planned != size else "")
    return (f"Grid: {size:,} runs ({grids}{merged}); the {todo:,} to run on {workers}"
            f" worker{'s' if workers != 1 else ''} take {estimate}at most"
            f" {duration(todo * campaign.timeout / workers)} (each at its {campaign.timeout:g} s"
            " timeout).")


def _exit_description(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


def program_schema(campaign: Campaign, binary: Path) -> ProgramSchema | None:
    """The ``--schema`` of ``binary``, after checking that it has every parameter ``campaign``
    names; None when the binary is not there (its runs fail to start, each with that reason).

    Raises :class:`CampaignError`, naming the parameters and the campaign file, when the
    program has no such flag, or when the program does not answer ``--schema``.
    """
    if not Path(binary).is_file():
        return None
    where = str(campaign.source or f"campaign {campaign.name!r}")
    try:
        schema = read_schema(binary)
    except SchemaError as exc:
        raise CampaignError(f"{where}: cannot read the parameters of {campaign.program}: {exc}"
                            ) from exc
    if unknown := schema.unknown(campaign.parameters()):
        raise CampaignError(
            f"{where}: {campaign.program} has no parameter"
            f" {', '.join(repr(name) for name in unknown)}"
            f" (its parameters: {', '.join(schema.flags)})"
        )
    check_program(campaign, schema)
    return schema


def interpret(run: Run, result: Mapping, campaign: Campaign,
              schema: ProgramSchema | None = None) -> dict:
    """Turn a task's raw result into a ``runs`` row: status, reason, metrics; a run that
    could not keep its files (its ``kept`` has an error) failed, saying why."""
    row = _interpret(run, result, campaign, schema)
    kept = result.get("kept")
    if kept and kept.get("error"):
        if row["status"] == "ok":
            row.update(status="failed", reason=kept["error"])
        else:
            row["reason"] = f"{row['reason']}; {kept['error']}"
    return row


def _interpret(run: Run, result: Mapping, campaign: Campaign,
               schema: ProgramSchema | None = None) -> dict:
    row = {
        "run_key": run.key,
        "campaign": campaign.name,
        "program": run.program,
        "grid": run.grid,
        "params": run.params,
        "seed": run.seed,
        "wall_time_s": result.get("wall_time_s"),
        "cpu_time_s": result.get("cpu_time_s"),
        "exit_code": result.get("returncode"),
        "stderr_tail": result.get("stderr_tail") or result.get("stdout_tail") or "",
        "output": result.get("output"),
        "host": result.get("host"),
        "started_at": iso_time(result["started_at"]) if result.get("started_at") else None,
        "finished_at": iso_time(),
        "metrics": None,
        "reason": None,
    }
    outcome = result.get("outcome")
    code = result.get("returncode")
    if outcome == "timeout":
        row.update(status="timeout", reason=f"timed out after {campaign.timeout:g} s")
        return row
    if outcome != "exited":
        row.update(status="failed", reason=result.get("error") or f"task failed ({outcome})")
        return row
    if code != 0:
        detail = result.get("error_line") or ""
        row.update(
            status="failed",
            reason=_exit_description(code) + (f": {detail}" if detail else ""),
        )
        return row
    if result.get("output") is None:
        row.update(status="failed", reason="exited 0 but wrote no metrics file (--output)")
        return row
    try:
        doc = parse_metrics(result["output"], "metrics report")
    except MetricsError as exc:
        row.update(status="failed", reason=f"metrics contract: {exc}")
        return row
    row["ns3_version"] = doc["ns3_version"]
    row["metrics"] = doc["metrics"]
    if doc["program"] != run.program:
        row.update(
            status="failed",
            reason=f"metrics contract: report is from program {doc['program']!r},"
            f" expected {run.program!r}",
        )
        return row
    missing = [name for name in campaign.metrics if name not in doc["metrics"]]
    if missing:
        row.update(
            status="failed",
            reason=f"metrics contract: missing campaign metric(s) {', '.join(missing)}",
        )
        return row
    if schema is not None:
        try:
            schema.check_report(doc, "metrics report")
        except MetricsError as exc:
            row.update(status="failed", reason=f"metrics contract: {exc}")
            return row
    row["status"] = "ok"
    return row


@dataclass
class SweepResult:
    """What a sweep did, for the summary and the ``sweeps`` table."""

    campaign: str
    mode: str
    db_path: Path
    planned: int = 0
    skipped_done: int = 0
    skipped_failed: int = 0
    ok: int = 0
    failed: int = 0
    timeout: int = 0
    interrupted: bool = False
    #: The signal that stopped the sweep (SIGINT for Ctrl-C); 0 when not interrupted.
    stop_signal: int = 0
    workers: int = 0
    #: The files this sweep's runs kept (None: the campaign keeps none).
    kept: KeptFiles | None = None
    cluster: str = "local"
    cluster_start_s: float = 0.0
    #: From the first run submitted to the last result stored (or the interruption).
    wall_time_s: float = 0.0
    run_time_s: float = 0.0
    #: CPU seconds (user + system) of the runs stored by this sweep.
    cpu_time_s: float = 0.0
    #: The machine's load average while the runs executed (None: no run executed).
    load: MachineLoad | None = None
    failures: list[tuple[str, str]] = field(default_factory=list)

    @property
    def executed(self) -> int:
        """Runs that ran (and were stored) in this sweep."""
        return self.ok + self.failed + self.timeout

    @property
    def remaining(self) -> int:
        """Runs of the campaign still not stored as ``ok``."""
        return self.planned - self.skipped_done - self.ok

    @property
    def overhead_per_run_s(self) -> float | None:
        """Worker time per run not spent in the program: (wall × workers − Σ run) / runs.

        Includes the tail at the end of the sweep where some workers have nothing left to do.
        """
        if not self.executed or not self.workers:
            return None
        return (self.wall_time_s * self.workers - self.run_time_s) / self.executed


#: The share of the free space the runs left may need before the sweep warns.
DISK_WARNING_SHARE = 0.8


def free_space(path: Path) -> int | None:
    """Bytes free for this user on the filesystem of ``path`` (its nearest existing
    ancestor); None when that cannot be known."""
    for candidate in (path, *path.parents):
        if candidate.exists():
            try:
                return shutil.disk_usage(candidate).free
            except OSError:
                return None
    return None


def file_size(count: float) -> str:
    """A byte count for people: ``512 B``, ``3.2 MB``, ``1.5 GB`` (powers of 1000)."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count:.0f} B"


@dataclass
class KeptFiles:
    """What the runs of a sweep kept (see the module doc)."""

    root: Path
    #: Runs of this sweep that keep files.
    planned: int
    #: The patterns those runs keep, with the number of runs that had a file matching each.
    matches: dict[str, int] = field(default_factory=dict)
    #: Runs stored that were to keep files, whether or not they had any.
    done: int = 0
    runs: int = 0
    files: int = 0
    bytes: int = 0
    warned: bool = False

    def add(self, kept: Mapping | None, patterns: Sequence[str]) -> None:
        """Count a stored run's ``kept`` (from :func:`~qdisclab.campaign.runner.keep_files`),
        of its ``patterns``."""
        self.done += 1
        if not kept:
            return
        for pattern in patterns:
            if pattern not in kept["unmatched"]:
                self.matches[pattern] += 1
        if kept["files"]:
            self.runs += 1
            self.files += len(kept["files"])
            self.bytes += sum(size for _, size in kept["files"])

    def disk_warning(self, free: int | None) -> str | None:
        """Once: a warning when the runs left would need more than
        :data:`DISK_WARNING_SHARE` of the ``free`` bytes, at the size per run so far."""
        left = self.planned - self.done
        if self.warned or free is None or not self.done or left <= 0:
            return None
        need = self.bytes / self.done * left
        if need <= DISK_WARNING_SHARE * free:
            return None
        self.warned = True
        return (f"Kept files take {file_size(self.bytes / self.done)} per run so far: the"
                f" {left} runs left would need about {file_size(need)}, and {self.root}'s disk"
                f" has {file_size(free)} free.")

    def unmatched(self) -> list[str]:
        """The patterns no run of the sweep had a file for."""
        return [pattern for pattern, count in self.matches.items() if not count]


def _average_rate(task: Task) -> float | None:
    """Runs per second since the start (steadier than a short window when runs end in bursts)."""
    if not task.completed or not task.elapsed:
        return None
    return task.completed / task.elapsed


class RateColumn(ProgressColumn):
    """Completed runs per second, averaged since the start."""

    def render(self, task: Task) -> Text:
        rate = _average_rate(task)
        text = "– runs/s" if rate is None else f"{rate:.2f} runs/s"
        return Text(text, style="progress.data.speed")


class EtaColumn(ProgressColumn):
    """Time left at the average rate."""

    def render(self, task: Task) -> Text:
        rate = _average_rate(task)
        if task.finished:
            return Text("ETA 0:00:00", style="progress.remaining")
        if rate is None or task.total is None:
            return Text("ETA -:--:--", style="progress.remaining")
        return Text(f"ETA {hms((task.total - task.completed) / rate)}",
                    style="progress.remaining")


#: Seconds between the progress lines of a sweep whose output is not a terminal.
PROGRESS_EVERY_S = 60.0


def hms(seconds: float) -> str:
    """``seconds`` as ``H:MM:SS``."""
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class ProgressLines:
    """When the console is not a terminal (``nohup``, a SLURM log, a pipe), where the
    progress bar draws nothing until the end: a plain line every ``every`` seconds, and one
    at the end, with the runs done of the total, ok/failed/timed out, the time elapsed and
    the time left at the average rate so far. Nothing on a terminal (the bar shows it)."""

    def __init__(self, console: Console, result: SweepResult, total: int,
                 every: float | None = PROGRESS_EVERY_S):
        self.console, self.result, self.total = console, result, total
        self.every = PROGRESS_EVERY_S if every is None else every
        self.stop = threading.Event()
        self.thread = None
        self.started = time.monotonic()

    def line(self) -> str:
        """The progress line for now."""
        r, elapsed = self.result, time.monotonic() - self.started
        done = r.executed
        eta = hms(elapsed / done * (self.total - done)) if done else "-:--:--"
        return (f"progress: {done}/{self.total} runs done ({r.ok} ok, {r.failed} failed,"
                f" {r.timeout} timed out), {hms(elapsed)} elapsed, ETA {eta}")

    def _loop(self) -> None:
        while not self.stop.wait(self.every):
            self.console.print(self.line(), markup=False, highlight=False, soft_wrap=True)

    def __enter__(self) -> ProgressLines:
        if not self.console.is_terminal:
            self.thread = threading.Thread(target=self._loop, name="qdisclab-progress",
                                           daemon=True)
            self.thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        if self.thread is not None:
            self.stop.set()
            self.thread.join()
            self.console.print(self.line(), markup=False, highlight=False, soft_wrap=True)


def _progress(console: Console) -> Progress:
    return Progress(
        SpinnerColumn(),
        TextColumn("[progress.description]{task.description}"),
        BarColumn(bar_width=24),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        EtaColumn(),
        TextColumn("{task.fields[status]}"),
        console=console,
        transient=False,
    )


#: Failures printed as they happen; the rest are only counted (all are in the database).
SHOWN_FAILURES = 20


def _report_failure(console: Console, index: int, run: Run, row: Mapping) -> None:
    if index <= SHOWN_FAILURES:
        kept = f" (its files: {row['kept_dir']})" if row.get("kept_dir") else ""
        console.print(
            f"[red]{row['status']}[/] {run.label()}: {row['reason']}{kept}", highlight=False,
            soft_wrap=True)
    if index == SHOWN_FAILURES:
        console.print(
            "[red]…[/] further failures are not shown; they are in the database"
            " (status, reason and stderr_tail columns).", soft_wrap=True)


def detached_task(function=runner.execute_run):
    """``function`` (of :mod:`~qdisclab.campaign.runner`), detached from its module, for
    workers elsewhere.

    Dask pickles a task's function by reference (module and name), which a worker
    without qdisclab on its path cannot import. This copy — made by cloudpickle with
    the runner module registered by value — is no longer the object its module
    names, so pickle cannot send it by reference and Dask sends it with cloudpickle,
    by value, helpers included. The runner uses the standard library only.
    """
    import cloudpickle

    cloudpickle.register_pickle_by_value(runner)
    try:
        return cloudpickle.loads(cloudpickle.dumps(function))
    finally:
        cloudpickle.unregister_pickle_by_value(runner)


def _open_client(cluster: str | None, jobs: int):
    """A Dask client: to ``cluster`` or to an embedded in-process cluster of ``jobs`` threads."""
    from dask.distributed import Client, LocalCluster

    if cluster:
        try:
            client = Client(cluster, timeout=f"{CONNECT_TIMEOUT_S}s")
        except (OSError, TimeoutError) as exc:
            raise CampaignError(f"cannot connect to the Dask scheduler {cluster}: {exc}") from exc
        try:
            client.wait_for_workers(1, timeout=CONNECT_TIMEOUT_S)
        except TimeoutError as exc:
            client.close()
            raise CampaignError(
                f"the Dask scheduler {cluster} has no worker after {CONNECT_TIMEOUT_S} s"
            ) from exc
        return client, None
    # In-process: no worker processes to leave behind. Dask still opens HTTP endpoints
    # (health, metrics) for the scheduler and the worker: on loopback, any free port.
    local = LocalCluster(
        n_workers=1,
        threads_per_worker=jobs,
        processes=False,
        dashboard_address=LOOPBACK_HTTP,
        worker_dashboard_address=LOOPBACK_HTTP,
        silence_logs=logging.ERROR,
    )
    return Client(local), local


class SweepInterrupted(KeyboardInterrupt):
    """A stop signal (SIGTERM, SIGHUP) in the main thread; handled like Ctrl-C."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _interrupt(signum: int, _frame) -> None:
    raise SweepInterrupted(signum)


@contextmanager
def _stop_signals_interrupt() -> Iterator[None]:
    """While the block runs, :data:`STOP_SIGNALS` raise :class:`SweepInterrupted`.

    Only in the main thread (where Python runs signal handlers), and only for
    signals at their default action: an ignored SIGHUP (``nohup``) stays ignored.
    """
    previous = {}
    if threading.current_thread() is threading.main_thread():
        for signum in STOP_SIGNALS:
            if signal.getsignal(signum) is signal.SIG_DFL:
                previous[signum] = signal.signal(signum, _interrupt)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def sweep(
    campaign: Campaign,
    binary: Path,
    db_path: Path | None = None,
    *,
    jobs: int | None = None,
    cluster: str | None = None,
    retry_failed: bool = False,
    env: Mapping[str, str] | None = None,
    points_per_process: int | None = None,
    flavor: str | None = None,
    grids: Sequence[str] | None = None,
    console: Console = CONSOLE,
    progress_every: float | None = None,
) -> SweepResult:
    """Run every run of ``campaign`` the database at ``db_path`` does not hold yet.

    ``binary`` is the example program (an absolute path every worker can reach).
    ``env`` adds environment variables to each run. Returns the counts; Ctrl-C,
    SIGTERM or SIGHUP stop the sweep (killing the runs in flight, cancelling what
    is queued) and return with ``interrupted`` and ``stop_signal`` set.
    ``points_per_process`` overrides the campaign's. ``flavor`` (the ns-3 flavour
    ``binary`` was built against) is recorded with the sweep. ``grids`` runs only the runs
    those sub-grids make (:meth:`Campaign.runs`); the database still records the whole
    campaign. ``progress_every``: seconds between progress lines when ``console`` is no
    terminal (:class:`ProgressLines`; default :data:`PROGRESS_EVERY_S`). Raises
    :class:`~qdisclab.campaign.store.StoreError` when another sweep writes the
    database, or it is damaged or full (after stopping the runs).
    """
    db_path = Path(db_path or default_db_path(campaign))
    result = SweepResult(campaign.name, campaign.mode, db_path)
    try:
        with _stop_signals_interrupt():
            return _sweep(campaign, Path(binary).resolve(), db_path, result,
                          jobs or os.cpu_count() or 1, cluster, retry_failed, env,
                          points_per_process, flavor, grids, console, progress_every)
    except KeyboardInterrupt as exc:  # a stop signal before the sweep was recorded
        _interrupted(result, exc, console)
        return result


def _interrupted(result: SweepResult, exc: KeyboardInterrupt, console: Console) -> None:
    """Record in ``result`` that the stop signal ``exc`` ended the sweep before its runs."""
    result.interrupted = True
    result.stop_signal = getattr(exc, "signum", signal.SIGINT)
    name = signal.Signals(result.stop_signal).name
    if result.executed:
        console.print(f"[yellow]Interrupted ({name}):[/] finished runs are stored; rerun to"
                      " continue.", soft_wrap=True)
    else:
        console.print(f"[yellow]Interrupted ({name})[/] before the first run started: nothing"
                      " was run; run the sweep again to start it.", soft_wrap=True)


def _sweep(campaign: Campaign, binary: Path, db_path: Path, result: SweepResult, jobs: int,
           cluster: str | None, retry_failed: bool, env: Mapping[str, str] | None,
           points_per_process: int | None, flavor: str | None, grids: Sequence[str] | None,
           console: Console, progress_every: float | None) -> SweepResult:
    """:func:`sweep`, with the stop signals raising :class:`SweepInterrupted`."""
    schema = program_schema(campaign, binary)
    runs = campaign.runs(grids)
    result.planned = len(runs)

    with exclusive_writer(db_path):
        if db_path.is_file() and db_path.stat().st_size:
            # Another program's SQLite file, or no database at all, is left as it is.
            ResultStore(db_path, write=False).close()
        with ResultStore(db_path, write=True) as store:
            return _sweep_store(campaign, binary, db_path, result, jobs, cluster, retry_failed,
                                env, points_per_process, flavor, runs, schema, store, console,
                                progress_every)


def _sweep_store(campaign: Campaign, binary: Path, db_path: Path, result: SweepResult,
                 jobs: int, cluster: str | None, retry_failed: bool,
                 env: Mapping[str, str] | None, points_per_process: int | None,
                 flavor: str | None, runs: list[Run], schema: ProgramSchema | None,
                 store: ResultStore, console: Console, progress_every: float | None
                 ) -> SweepResult:
    """:func:`sweep` into the open database ``store``: check that it may take this campaign,
    record the campaign, choose the runs to do, run them, and record the sweep."""
    _check_database(store, campaign, db_path)
    _record_campaign(store, campaign, binary)
    todo = _runs_to_do(runs, store.statuses(), retry_failed, result)
    revision = git_revision()
    _announce(campaign, runs, todo, result, db_path, jobs, store, console)
    sweep_id = store.start_sweep(_sweep_start(campaign, runs, result, cluster, flavor, revision))
    try:
        _prepare_kept(todo, db_path, result, console)
        if todo and not cluster:
            _remove_stale_run_dirs(console)
        if todo:
            requested = points_per_process or campaign.points_per_process
            sampler = LoadSampler().start()
            try:
                _execute(campaign, todo, binary, store, result, revision, jobs, cluster, env,
                         requested, console, schema, progress_every)
            finally:
                result.load = sampler.stop()
            _warn_unmatched_keep(result, console)
    except KeyboardInterrupt as exc:  # a stop signal before the runs started
        _interrupted(result, exc, console)
    store.finish_sweep(sweep_id, _sweep_end(result))
    return result


def _check_database(store: ResultStore, campaign: Campaign, db_path: Path) -> None:
    """Stop unless the database is sound and holds nothing but this campaign in this mode."""
    store.check()
    meta = store.meta()
    stored_campaign = meta.get("campaign")
    if stored_campaign and stored_campaign != campaign.name:
        raise CampaignError(
            f"{db_path} holds campaign {stored_campaign!r}, not {campaign.name!r}"
        )
    stored_mode = meta.get("mode")
    if stored_mode and stored_mode != campaign.mode and sum(store.counts().values()):
        quick = " --quick" if campaign.quick else ""
        raise CampaignError(
            f"{db_path} holds the {stored_mode} sweep of {campaign.name!r}; a {campaign.mode}"
            f" sweep would mix its runs with those (their parameters and seeds differ, and"
            f" exports and figures would read both). Sweep{quick} into another --db (by"
            f" default full and --quick sweeps have their own: campaign.sqlite and"
            f" campaign-quick.sqlite)."
        )


def _record_campaign(store: ResultStore, campaign: Campaign, binary: Path) -> None:
    """Write the campaign, its file and program into the database, and its flat view."""
    store.set_meta(
        {
            "campaign": campaign.name,
            "program": campaign.program,
            "mode": campaign.mode,
            "campaign_file": str(campaign.source or ""),
            "campaign_toml": campaign.text,
            "binary": str(binary),
            "updated_at": iso_time(),
        }
    )
    store.create_flat_view(campaign.parameters(), campaign.metrics)


def _runs_to_do(runs: list[Run], statuses: Mapping[str, str], retry_failed: bool,
                result: SweepResult) -> list[Run]:
    """The runs the database does not hold yet (and its failures, with ``retry_failed``);
    the others are counted in ``result`` as skipped."""
    todo = []
    for run in runs:
        status = statuses.get(run.key)
        if status == "ok":
            result.skipped_done += 1
        elif status is not None and not retry_failed:
            result.skipped_failed += 1
        else:
            todo.append(run)
    return todo


def _announce(campaign: Campaign, runs: list[Run], todo: list[Run], result: SweepResult,
              db_path: Path, jobs: int, store: ResultStore, console: Console) -> None:
    """Print what the sweep runs of the campaign, and what that costs."""
    console.print(
        f"[bold]{campaign.name}[/] ({campaign.mode}): {len(runs)} runs,"
        f" {result.skipped_done} already done"
        + (f", {result.skipped_failed} failed before (--retry-failed reruns them)"
           if result.skipped_failed else "")
        + f", {len(todo)} to run  →  {db_path}",
        soft_wrap=True,
    )
    if todo:
        console.print(cost_line(campaign, len(todo), jobs, store.mean_wall_time(), len(runs)),
                      markup=False, highlight=False, soft_wrap=True)


def _sweep_start(campaign: Campaign, runs: list[Run], result: SweepResult, cluster: str | None,
                 flavor: str | None, revision: str) -> dict:
    """The sweep's row as it starts."""
    return {
        "campaign": campaign.name,
        "mode": campaign.mode,
        "started_at": iso_time(),
        "cluster": cluster or "local",
        "planned": len(runs),
        "skipped": result.skipped_done + result.skipped_failed,
        "ns3_flavor": flavor,
        "git_rev": revision,
    }


def _sweep_end(result: SweepResult) -> dict:
    """The sweep's row as it ends: its counts and times."""
    return {
        "finished_at": iso_time(),
        "workers": result.workers,
        "ok": result.ok,
        "failed": result.failed,
        "timeout": result.timeout,
        "interrupted": int(result.interrupted),
        "wall_time_s": result.wall_time_s,
        "run_time_s": result.run_time_s,
        "cpu_time_s": result.cpu_time_s,
        **({} if result.load is None else {
            "load_mean": round(result.load.mean, 3),
            "load_peak": round(result.load.peak, 3),
            "machine_cores": result.load.cores,
        }),
    }


def _prepare_kept(todo: list[Run], db_path: Path, result: SweepResult, console: Console) -> None:
    """Where the files the runs keep go (``result.kept``), said with the space free there."""
    if keeping := [run for run in todo if run.keep]:
        patterns = list(dict.fromkeys(p for run in keeping for p in run.keep))
        result.kept = KeptFiles(kept_root(db_path).resolve(), len(keeping),
                                dict.fromkeys(patterns, 0))
        free = free_space(result.kept.root)
        console.print(
            f"Keeping the files of {len(keeping)} runs that match"
            f" {', '.join(patterns)} in {result.kept.root}"
            + (f" ({file_size(free)} free there)." if free is not None else "."),
            markup=False, highlight=False, soft_wrap=True,
        )


def _remove_stale_run_dirs(console: Console) -> None:
    """Forget earlier runs' children, and remove the scratch directories of killed sweeps."""
    children.reset()
    if removed := runner.remove_stale_run_dirs():
        console.print(
            f"Removed {removed} scratch director{'y' if removed == 1 else 'ies'}"
            " of runs whose sweep was killed.", soft_wrap=True)


def _warn_unmatched_keep(result: SweepResult, console: Console) -> None:
    """Name the keep patterns no run of the sweep had a file for."""
    if result.kept and result.kept.done and (unmatched := result.kept.unmatched()):
        console.print(
            f"[yellow]keep: no run had a file matching {escape(', '.join(unmatched))}"
            f" (does a parameter write it in the run's directory, {{run}}/...?)[/]",
            highlight=False, soft_wrap=True)


def _execute(
    campaign: Campaign,
    todo: list[Run],
    binary: Path,
    store: ResultStore,
    result: SweepResult,
    revision: str,
    jobs: int,
    cluster: str | None,
    env: Mapping[str, str] | None,
    points_per_process: int,
    console: Console,
    schema: ProgramSchema | None = None,
    progress_every: float | None = None,
) -> None:
    """Run ``todo`` on Dask, storing each run as it ends: open the cluster, choose how runs are
    started and how many a process takes, submit them, collect them. On a stop signal or an
    error, every run is ended first; a stop signal is recorded in ``result``."""
    from dask.distributed import as_completed

    result.cluster = cluster or "local"
    started = time.monotonic()
    distributed_logger = logging.getLogger("distributed")
    previous_level = distributed_logger.level
    distributed_logger.setLevel(logging.ERROR)
    client = local = tasks = None
    try:
        client, local = _open_client(cluster, jobs)
        _note_workers(client, cluster, jobs, started, result, console)
        launch = _Launch.choose(campaign, binary, env, cluster, result, console)
        batch_size = _batch_size(points_per_process, len(todo), result.workers, binary,
                                 launch.env, launch.launcher, console)
        tasks = _Tasks(client, launch)
        started = time.monotonic()  # the runs' wall time starts here
        for start in range(0, len(todo), batch_size):
            tasks.submit(todo[start:start + batch_size])
        _collect(as_completed(list(tasks.futures)), tasks,
                 _Recorder(campaign, binary, revision, store, result, schema), console, len(todo),
                 progress_every)
        result.wall_time_s = time.monotonic() - started
    except BaseException as exc:
        # Ctrl-C, a stop signal, a database that cannot take a row: end every run first.
        _end_runs(client, local, tasks.futures if tasks else [], console)
        if not isinstance(exc, KeyboardInterrupt):
            raise
        result.interrupted = True
        result.stop_signal = getattr(exc, "signum", signal.SIGINT)
        result.wall_time_s = time.monotonic() - started
        console.print(
            f"[yellow]Interrupted ({signal.Signals(result.stop_signal).name}):[/] finished runs"
            " are stored; rerun to continue.", soft_wrap=True)
    finally:
        distributed_logger.setLevel(previous_level)
        if client is not None:
            client.close()
        if local is not None:
            local.close()


def _note_workers(client, cluster: str | None, jobs: int, started: float, result: SweepResult,
                  console: Console) -> None:
    """Count the cluster's slots and its start-up time into ``result``, and say so."""
    result.workers = sum(client.nthreads().values()) or jobs
    result.cluster_start_s = time.monotonic() - started
    where = cluster or f"{jobs} local worker{'s' if jobs != 1 else ''}"
    console.print(
        f"Dask: {where} ({result.workers} slots), ready in {result.cluster_start_s:.1f} s",
        soft_wrap=True)


@dataclass
class _Launch:
    """How a sweep's runs are started: what each Dask task of it is given."""

    binary: Path
    timeout: float
    env: dict[str, str] | None  #: added to each run's environment
    task: object  #: runs one point (runner.execute_run, detached for a remote cluster)
    batch_task: object  #: runs several points in one process (runner.execute_batch)
    track: bool  #: in-process workers track their children (for Ctrl-C)
    launcher: list[str]  #: the death-signal launcher, local runs only
    kept_root: Path | None  #: where runs keep their files (SweepResult.kept)

    @classmethod
    def choose(cls, campaign: Campaign, binary: Path, env: Mapping[str, str] | None,
               cluster: str | None, result: SweepResult, console: Console) -> _Launch:
        """Local runs die with the sweep (``setpriv --pdeathsig``, warned about when missing);
        remote ones get copies of the runner's functions."""
        # In-process workers track their children (for Ctrl-C); remote ones get a copy.
        task = detached_task() if cluster else runner.execute_run
        launcher = [] if cluster else runner.death_signal_launcher()
        if not cluster and not launcher:
            console.print(
                "[yellow]setpriv --pdeathsig (util-linux 2.33 or later) is missing: runs"
                " outlive this sweep if it is killed with SIGKILL.[/]", soft_wrap=True)
        return cls(
            binary=binary,
            timeout=campaign.timeout,
            env=dict(env) if env else None,
            task=task,
            batch_task=detached_task(runner.execute_batch) if cluster else runner.execute_batch,
            track=not cluster,
            launcher=launcher,
            kept_root=result.kept.root if result.kept else None,
        )

    def keep(self, run: Run) -> list | None:
        """What ``run`` keeps, as the runner takes it: its patterns and its folder."""
        if not run.keep:
            return None
        return [list(run.keep), str(self.kept_root / run.key)]


class _Tasks:
    """The sweep's Dask tasks: one per run or per batch of runs, each knowing its runs."""

    def __init__(self, client, launch: _Launch):
        self.client = client
        self.launch = launch
        self.futures: list = []
        self.by_key: dict[str, list[Run]] = {}

    def submit(self, runs: list[Run]):
        """Submit ``runs`` as one task (one process); return its future."""
        launch = self.launch
        if len(runs) == 1:
            future = self.client.submit(
                launch.task, [str(launch.binary)] + runs[0].args(), launch.timeout, launch.env,
                runner.TAIL_CHARS, launch.track, launch.launcher, launch.keep(runs[0]),
                key=f"qdisclab-run-{runs[0].key}", retries=0,
            )
        else:
            future = self.client.submit(
                launch.batch_task, str(launch.binary), [run.args() for run in runs],
                launch.timeout, launch.env, runner.TAIL_CHARS, launch.track, launch.launcher,
                [launch.keep(run) for run in runs],
                key=f"qdisclab-batch-{runs[0].key}-{len(runs)}", retries=0,
            )
        self.by_key[future.key] = runs
        self.futures.append(future)
        return future

    def outcome(self, future) -> tuple[list[Run], list]:
        """A finished task's runs and their raw results (``None`` for a run handed back by
        its batch, to run again); a task that failed in Dask fails each of its runs."""
        runs = self.by_key.pop(future.key)
        try:
            raws = future.result()
        except Exception as exc:  # a lost worker, a serialization error, ...
            raws = {"outcome": "error", "error": f"Dask task failed: {exc!r}"}
        finally:
            future.release()
        if isinstance(raws, dict):
            raws = [raws] * len(runs)
        return runs, raws


@dataclass
class _Recorder:
    """Stores finished runs (:func:`_store`) and counts them into ``result``."""

    campaign: Campaign
    binary: Path
    revision: str
    store: ResultStore
    result: SweepResult
    schema: ProgramSchema | None

    def record(self, run: Run, raw: Mapping, progress: Progress) -> None:
        _store(self.campaign, run, raw, self.binary, self.revision, self.store, self.result,
               progress, self.schema)


def _collect(pending, tasks: _Tasks, recorder: _Recorder, console: Console, total: int,
             progress_every: float | None) -> None:
    """Store every run as its task finishes (``pending``: Dask's ``as_completed`` over the
    tasks), resubmitting those a batch handed back, with the progress bar (or progress lines)
    over ``total`` runs."""
    result = recorder.result
    with _progress(console) as progress, ProgressLines(console, result, total, progress_every):
        bar = progress.add_task(recorder.campaign.name, total=total, status="")
        for future in pending:
            runs, raws = tasks.outcome(future)
            if rerun := [run for run, raw in zip(runs, raws, strict=True) if raw is None]:
                pending.add(tasks.submit(rerun))
            for run, raw in zip(runs, raws, strict=True):
                if raw is not None:
                    recorder.record(run, raw, progress)
            progress.update(
                bar,
                completed=result.executed,
                status=(f"[red]{result.failed} failed[/] " if result.failed else "")
                + (f"[yellow]{result.timeout} timed out[/]" if result.timeout else ""),
            )


def _end_runs(client, local, futures: list, console: Console) -> None:
    """End every run of a stopping sweep: kill the local ones, cancel the queued tasks, and
    wait (up to STOP_TIMEOUT_S) for the local runs to be cleaned up."""
    if local is not None:
        children.kill_all()
    if client is not None and futures:
        try:
            client.cancel(futures, force=True)
        except Exception:  # noqa: BLE001 - shutting down anyway
            pass
    if local is not None and not children.wait_idle(STOP_TIMEOUT_S):
        console.print(f"[yellow]Runs still cleaning up after {STOP_TIMEOUT_S} s.[/]",
                      soft_wrap=True)


def _batch_size(requested: int, todo: int, workers: int, binary: Path,
                env: Mapping[str, str] | None, launcher: list[str], console: Console) -> int:
    """Runs per task: ``requested``, at most an even share of ``todo`` over the workers;
    1 when the program cannot run points in batches (a probe says why)."""
    if requested <= 1 or todo <= 1:
        return 1
    if problem := runner.batch_support(str(binary), dict(env) if env else None, launcher):
        console.print(
            f"[yellow]points_per_process = {requested}, but {binary.name} cannot run points in"
            f" batches ({problem}): one point per process.[/]",
            highlight=False, soft_wrap=True)
        return 1
    size = min(requested, math.ceil(todo / max(workers, 1)))
    console.print(f"Up to {size} points per process (points_per_process = {requested}).",
                  soft_wrap=True)
    return size


def _store(campaign: Campaign, run: Run, raw: Mapping, binary: Path, revision: str,
           store: ResultStore, result: SweepResult, progress: Progress,
           schema: ProgramSchema | None = None) -> None:
    """Store one run's row (and what it kept) and count it."""
    row = interpret(run, raw, campaign, schema)
    row["git_rev"] = revision
    args = run.args()
    kept = raw.get("kept") if run.keep else None
    if run.keep:
        # The command a user reruns: {run} is the run's folder beside the database.
        args = [word.replace(runner.RUN_DIR, str(result.kept.root / run.key)) for word in args]
    row["command"] = shlex.join([str(binary), *args])
    if kept and kept["files"]:
        row["kept_dir"] = os.path.relpath(kept["dir"], store.path.parent.resolve())
        row["kept_files"] = kept["files"]
    store.record(row)
    if run.keep:
        result.kept.add(kept, run.keep)
        if row.get("kept_dir"):
            _write_run_note(Path(kept["dir"]), row, progress.console)
        if warning := result.kept.disk_warning(free_space(result.kept.root)):
            progress.console.print(f"[yellow]{escape(warning)}[/]", highlight=False, soft_wrap=True)
    result.run_time_s += row["wall_time_s"] or 0.0
    result.cpu_time_s += row["cpu_time_s"] or 0.0
    if row["status"] == "ok":
        result.ok += 1
    else:
        setattr(result, row["status"], getattr(result, row["status"]) + 1)
        result.failures.append((run.label(), row["reason"]))
        _report_failure(progress.console, len(result.failures), run, row)


def _write_run_note(folder: Path, row: Mapping, console: Console) -> None:
    """``qdisclab-run.json`` in a run's kept folder: which run it is and how it ended."""
    note = {key: row.get(key) for key in ("run_key", "campaign", "program", "grid", "params",
                                          "seed", "status", "reason", "exit_code", "command",
                                          "finished_at")}
    note["files"] = [{"name": name, "bytes": size} for name, size in row["kept_files"]]
    try:
        (folder / runner.RUN_NOTE).write_text(json.dumps(note, indent=1) + "\n",
                                              encoding="utf-8")
    except OSError as exc:
        console.print(f"[yellow]{escape(f'cannot write {folder / runner.RUN_NOTE}: {exc}')}[/]",
                      highlight=False, soft_wrap=True)


def summary_table(result: SweepResult) -> Table:
    """The end-of-sweep summary."""
    table = Table(title=f"Sweep {result.campaign} ({result.mode})", show_header=False)
    table.add_column("what")
    table.add_column("count", justify="right")
    table.add_row("runs in campaign", str(result.planned))
    table.add_row("skipped (already done)", str(result.skipped_done))
    if result.skipped_failed:
        table.add_row("skipped (failed before; --retry-failed)", str(result.skipped_failed))
    table.add_row("[green]done[/]", str(result.ok))
    table.add_row("[red]failed[/]", str(result.failed))
    table.add_row("[yellow]timed out[/]", str(result.timeout))
    if result.interrupted:
        not_run = result.planned - result.skipped_done - result.skipped_failed - result.executed
        table.add_row("[yellow]not run (interrupted)[/]", str(not_run))
    if result.kept is not None:
        table.add_row("files kept",
                      f"{result.kept.files} of {result.kept.runs} runs,"
                      f" {file_size(result.kept.bytes)}")
    return table


def load_line(result: SweepResult) -> str | None:
    """One line on how busy the machine was while the runs executed: the mean and largest
    1-minute load average against the sweep's own workers and the machine's cores, and
    whether the runs' CPU seconds are a quiet machine's (nothing else ran beside them)."""
    load = result.load
    if load is None or not result.executed:
        return None
    other = load.other(result.workers)
    verdict = ("the machine was quiet: the runs' CPU seconds are a quiet machine's"
               if load.quiet(result.workers) else
               f"other work used about {other:.1f} of the {load.cores} cores beside the"
               f" runs: their CPU seconds are inflated by it (a quiet machine's are lower)")
    return (f"Machine load: mean {load.mean:.2f}, peak {load.peak:.2f} over {load.samples}"
            f" samples, {result.workers} workers on {load.cores} cores; {verdict}")


def overhead_line(result: SweepResult) -> str | None:
    """One line on the engine's cost: sweep wall time vs summed run time per worker."""
    per_run = result.overhead_per_run_s
    if per_run is None or result.interrupted:
        return None
    ideal = result.run_time_s / result.workers
    busy = result.run_time_s / max(result.wall_time_s * result.workers, 1e-9)
    return (
        f"Engine overhead: {per_run * 1000:.0f} ms per run: {result.wall_time_s:.1f} s wall for"
        f" {result.executed} runs vs {result.run_time_s:.1f} s of runs / {result.workers}"
        f" workers = {ideal:.1f} s ({busy:.0%} busy; includes the idle tail; cluster"
        f" start-up {result.cluster_start_s:.1f} s not counted)"
    )
