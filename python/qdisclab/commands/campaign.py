# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab sweep``, ``export`` (CSV, and Parquet and NetCDF: :mod:`qdisclab.campaign.export`),
``salvage`` and ``replay`` (:mod:`qdisclab.campaign.replay`)."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path

import click

from qdisclab.context import CONSOLE
from qdisclab.toolchain.build import SIMULATORS, ns3_option


def jobs_option(function):
    """``--jobs N``: local worker threads (default: one per core)."""
    return click.option(
        "--jobs", "-j", type=click.IntRange(min=1), default=None,
        help="Runs at a time on this machine (default: one per core).",
    )(function)


def cluster_option(function):
    """``--cluster tcp://HOST:PORT``: an existing Dask scheduler instead of local workers."""
    return click.option(
        "--cluster", metavar="ADDRESS", default=None,
        help="Send the runs to this Dask scheduler (e.g. tcp://host:8786); its workers"
        " must see the same filesystem.",
    )(function)


def run_sweep(
    campaign_name: str,
    *,
    quick: bool,
    jobs: int | None,
    cluster: str | None,
    db: Path | None,
    retry_failed: bool,
    flavor: str | None,
    binary: Path | None,
    points_per_process: int | None = None,
    grids: tuple[str, ...] = (),
    progress_every: float | None = None,
    results: Path | None = None,
):
    """Load, sweep and summarize a campaign (only the sub-grids ``grids``, when given);
    return the :class:`SweepResult`."""
    from qdisclab.toolchain.build import runtime_env
    from qdisclab.campaign.engine import (
        default_db_path,
        load_line,
        overhead_line,
        program_binary,
        summary_table,
        sweep,
    )
    from qdisclab.campaign.spec import CampaignError, load_campaign

    try:
        campaign = load_campaign(campaign_name, quick=quick)
        flavor = flavor or campaign.ns3
        program = binary or program_binary(campaign.program, flavor)
        if not Path(program).is_file():
            raise CampaignError(f"{program} does not exist")
        if db is None and results is not None:
            db = default_db_path(campaign, results)
        result = sweep(
            campaign,
            Path(program),
            db,
            jobs=jobs,
            cluster=cluster,
            retry_failed=retry_failed,
            env=runtime_env(flavor) or None,
            points_per_process=points_per_process,
            flavor=flavor,
            grids=grids or None,
            progress_every=progress_every,
        )
    except CampaignError as exc:
        raise click.ClickException(str(exc)) from exc
    CONSOLE.print(summary_table(result))
    for line in (overhead_line(result), load_line(result)):
        if line:
            CONSOLE.print(line, highlight=False, soft_wrap=True)
    CONSOLE.print(f"Results: {result.db_path}", markup=False, highlight=False, soft_wrap=True)
    return result


@click.command("sweep")
@click.argument("campaign")
@click.option("--quick", is_flag=True, help="Apply the campaign's [quick] overrides.")
@jobs_option
@cluster_option
@click.option(
    "--db", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="Results database (default RESULTS/<campaign>/campaign[-quick].sqlite).",
)
@click.option(
    "--results", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="Results directory (default: the clone's results/, or results/ beside a campaign"
    " file kept outside the clone).",
)
@click.option("--retry-failed", is_flag=True, help="Rerun runs stored as failed or timed out.")
@click.option(
    "--csv", "csv_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="Also export the campaign's runs to this CSV file.",
)
@click.option(
    "--binary", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
    help="Run this executable instead of build/<flavor>/examples/<program>.",
)
@click.option(
    "--points-per-process", type=click.IntRange(min=1), default=None,
    help="Run up to this many runs in one process (default: the campaign's"
    " points_per_process; 1: a process per run).",
)
@ns3_option(SIMULATORS, default=None)
@click.option(
    "--grid", "grids", metavar="NAME", multiple=True,
    help="Run only this sub-grid's runs (repeatable); the database keeps the whole campaign,"
    " so a later sweep without --grid runs the rest.",
)
@click.option(
    "--progress-every", type=click.FloatRange(min=1), default=None, metavar="SECONDS",
    help="When the output is not a terminal (nohup, a SLURM log): a progress line every"
    " SECONDS (default 60).",
)
def sweep_cmd(campaign, quick, jobs, cluster, db, results, retry_failed, csv_path, binary,
              points_per_process, flavor, grids, progress_every):
    """Run a campaign (a file, or a name in campaigns/), skipping runs already stored.

    Interrupt it at any time (Ctrl-C, SIGTERM): finished runs are kept, and
    running it again does only what is missing. One sweep at a time writes a
    database. Exits 1 when a run of the campaign failed or timed out, 128 + the
    signal's number when interrupted.
    """
    result = run_sweep(
        campaign, quick=quick, jobs=jobs, cluster=cluster, db=db,
        retry_failed=retry_failed, flavor=flavor, binary=binary,
        points_per_process=points_per_process, grids=grids, progress_every=progress_every,
        results=results,
    )
    if csv_path is not None:
        _export(result.db_path, csv_path)
    if result.interrupted:
        sys.exit(128 + result.stop_signal)
    if result.failed or result.timeout or result.skipped_failed:
        sys.exit(1)


def _export(db: Path, csv_path: Path) -> None:
    from qdisclab.campaign.store import ResultStore, read_only

    with _reading(db, csv_path), read_only(), ResultStore(db) as store:
        count = store.export_csv(csv_path)
    CONSOLE.print(f"Exported {count} runs to {csv_path}", markup=False, highlight=False,
                  soft_wrap=True)


@contextmanager
def _reading(db: Path, output: Path | None = None):
    """Read ``db`` (read-only) and write ``output``: what goes wrong is a click error saying
    what and how to recover, and a partly written ``output`` is removed."""
    from qdisclab.campaign.spec import CampaignError
    from qdisclab.campaign.store import read_only

    try:
        with read_only():
            yield
    except CampaignError as exc:  # StoreError too: the database
        raise click.ClickException(str(exc)) from exc
    except (OSError, RuntimeError) as exc:
        # The output (a full disk, /dev/full, a missing directory); pyarrow and netCDF4
        # raise OSError subclasses or RuntimeError with the C library's words.
        if output is not None and output.is_file():
            output.unlink(missing_ok=True)
        what = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        raise click.ClickException(
            f"cannot write {output or 'the export'}: {what}. {db} is unchanged; free some space"
            " or name another file, and export again."
        ) from exc


@click.command("export")
@click.argument("db", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--csv", "csv_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="CSV file to write: one row per run, one column per parameter and metric.",
)
@click.option(
    "--parquet", "parquet_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="Parquet file to write for pandas: one row per run, typed columns.",
)
@click.option(
    "--netcdf", "netcdf_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="NetCDF-4 file to write for xarray: per sub-grid, one Dataset over its factors and"
    " seeds.",
)
def export_cmd(db: Path, csv_path: Path | None, parquet_path: Path | None,
               netcdf_path: Path | None) -> None:
    """Export a campaign database's runs to CSV, Parquet (pandas) and/or NetCDF (xarray).

    When the campaign keeps files per run (its keep patterns), each export has a kept_dir
    column naming the run's folder, relative to the exported file. The database is only
    read. A campaign of one grid is the NetCDF file's root (xarray.open_dataset(FILE)); with
    sub-grids, each is a group (xarray.open_dataset(FILE, group=NAME)).
    """
    if not (csv_path or parquet_path or netcdf_path):
        raise click.UsageError("give at least one of --csv, --parquet, --netcdf")
    with _reading(db):
        from qdisclab.campaign.store import ResultStore

        ResultStore(db).close()  # a database at all, before any output is written
    if csv_path is not None:
        _export(db, csv_path)
    from qdisclab.campaign.export import netcdf_message, write_netcdf, write_parquet

    if parquet_path is not None:
        with _reading(db, parquet_path):
            count = write_parquet(db, parquet_path)
        CONSOLE.print(f"Exported {count} runs to {parquet_path}", markup=False, highlight=False,
                      soft_wrap=True)
    if netcdf_path is not None:
        with _reading(db, netcdf_path):
            runs = write_netcdf(db, netcdf_path)
        CONSOLE.print(netcdf_message(runs, netcdf_path), markup=False, highlight=False,
                      soft_wrap=True)
    with _reading(db):
        _say_kept(db)


def _say_kept(db: Path) -> None:
    """Where the runs' kept files are, when some run kept files."""
    from qdisclab.campaign.store import ResultStore, kept_root

    with ResultStore(db) as store:
        kept = store.kept_files()
    if kept:
        files = sum(len(names) for names in kept.values())
        CONSOLE.print(
            f"{len(kept)} runs kept {files} files in {kept_root(db)}/<run_key>/ (the kept_dir"
            " column, relative to the exported file)",
            markup=False, highlight=False, soft_wrap=True,
        )


@click.command("salvage")
@click.argument("db", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def salvage_cmd(db: Path) -> None:
    """Rebuild a damaged campaign database from the rows SQLite can still read.

    The damaged file is kept as DB.damaged; a new DB holds every readable run,
    and the next sweep runs only what is missing.
    """
    from qdisclab.campaign.store import StoreError, salvage

    try:
        copied = salvage(db)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from exc
    CONSOLE.print(
        f"Salvaged {copied['runs']} runs and {copied['sweeps']} sweep records into {db};"
        f" the damaged file is {db}.damaged.",
        markup=False, highlight=False, soft_wrap=True)


@click.command("replay")
@click.argument("db", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--runs", "count", type=click.IntRange(min=1), default=8, show_default=True,
              help="How many stored runs to replay, spread evenly over the database.")
@click.option(
    "--grid", "grids", metavar="NAME", multiple=True,
    help="Replay only runs of this sub-grid (repeatable).",
)
@ns3_option(SIMULATORS, default=None)
@click.option(
    "--binary", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
    help="Run this executable instead of build/<flavor>/examples/<program>.",
)
@click.option(
    "--callgrind", is_flag=True,
    help="Run each under callgrind and count its instructions (about 50 times slower, no"
    " timeout): the mean per run, and times the database's stored runs.",
)
@click.option(
    "--timing", "timing_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="With --callgrind: write that estimate into this timing CSV's row of the campaign"
    " (instructions_g, instructions_sampled), e.g. doc/results/timing.csv.",
)
@jobs_option
def replay_cmd(db, count, grids, flavor, binary, callgrind, timing_file, jobs):
    """Run a sample of a database's runs again and compare each metrics report with the
    stored one, byte for byte (DB: a campaign.sqlite, or a recorded campaign.sqlite.xz).

    Shows that a build or a change keeps every recorded result: the same report for the
    same parameters and seed is the same row in every figure. A report that holds every stored
    field with its value and fields the stored one lacks (a parameter the program reports
    since) is counted apart, as the same. Lists each run with its stored and new CPU seconds
    (with --callgrind, its instructions, which do not depend on the machine's load); exits 1
    when a stored field changed or a run gave no report.
    """
    from qdisclab.campaign.engine import program_binary
    from qdisclab.campaign.replay import (
        DIFFERS,
        IDENTICAL,
        SAME_BUT_ADDED,
        instructions_estimate,
        opened,
        replay,
    )
    from qdisclab.campaign.spec import CampaignError, stored_campaign
    from qdisclab.campaign.timing import record_instructions
    from qdisclab.toolchain.build import NS2, runtime_env

    if timing_file and not callgrind:
        raise click.UsageError("--timing records the instructions --callgrind counts: give both")
    try:
        with opened(db) as store:
            campaign = stored_campaign(store.meta())
            stored_ok = store.runs(status="ok")
            programs = sorted({run.program for run in stored_ok})
        if len(programs) != 1:
            raise CampaignError(f"{db} holds runs of {len(programs)} programs; replay needs one")
        flavor = flavor or (campaign.ns3 if campaign else "system")
        if flavor == NS2:
            raise CampaignError("replay runs ns-3 programs; ns-2.35's are Tcl scripts that"
                                " `ns` runs (sweep --ns3 ns2 runs them)")
        program = binary or program_binary(programs[0], flavor)
        CONSOLE.print(f"Replaying {count} run(s) of {db} with {program}", markup=False,
                      highlight=False, soft_wrap=True)
        results = replay(db, Path(program), count=count, env=runtime_env(flavor) or None,
                         grids=grids, jobs=jobs or 1,
                         timeout=campaign.timeout if campaign else None, callgrind=callgrind,
                         done=_replayed)
    except CampaignError as exc:
        raise click.ClickException(str(exc)) from exc
    for r in results:
        for line in r.differences:
            CONSOLE.print(f"  {r.key}: {line}", markup=False, highlight=False, soft_wrap=True)
    counts = {verdict: sum(r.verdict == verdict for r in results)
              for verdict in (IDENTICAL, SAME_BUT_ADDED, DIFFERS)}
    added = sorted({name for r in results for name in r.added if r.verdict == SAME_BUT_ADDED})
    # Under callgrind a run's CPU seconds are valgrind's: only its instructions compare.
    timed = [] if callgrind else [r for r in results
                                  if r.stored_cpu_s is not None and r.cpu_s is not None]
    cpu = (f"; CPU seconds of the {len(timed)} timed: {sum(r.stored_cpu_s for r in timed):.1f}"
           f" stored, {sum(r.cpu_s for r in timed):.1f} now") if timed else ""
    CONSOLE.print(
        f"{counts[IDENTICAL]} of {len(results)} reports byte-identical, {counts[SAME_BUT_ADDED]}"
        f" the same with fields the program reports since ({', '.join(added) or 'none'}),"
        f" {counts[DIFFERS]} differ{cpu}", markup=False, highlight=False, soft_wrap=True)
    if callgrind:
        estimate = instructions_estimate(results, len(stored_ok))
        counted = sum(r.instructions is not None for r in results)
        CONSOLE.print(
            f"Instructions: {estimate[0] / 1e9:.3f} G per run (mean of {counted});"
            f" x {len(stored_ok):,} stored ok runs = {estimate[1] / 1e9:,.0f} G for the database"
            if estimate else "Instructions: callgrind counted none (see the runs' errors)",
            markup=False, highlight=False, soft_wrap=True)
        if timing_file and estimate and not counts[DIFFERS]:
            name = campaign.name if campaign else programs[0]
            try:
                record_instructions(timing_file, name, estimate[1], counted)
            except CampaignError as exc:
                raise click.ClickException(str(exc)) from exc
            CONSOLE.print(f"Recorded in {timing_file}'s row of {name}", markup=False,
                          highlight=False, soft_wrap=True)
        elif timing_file:
            CONSOLE.print(f"Not recorded in {timing_file}: "
                          + ("a report differs" if counts[DIFFERS] else "nothing counted"),
                          markup=False, highlight=False, soft_wrap=True)
    if counts[DIFFERS]:
        sys.exit(1)


def _replayed(r) -> None:
    """One line per replayed run, as it finishes."""
    if r.instructions is not None:  # under callgrind: its CPU seconds are valgrind's
        cpu = f"  ({r.instructions / 1e9:.3f} G instructions)"
    elif r.stored_cpu_s is not None and r.cpu_s is not None:
        cpu = f"  (cpu {r.stored_cpu_s:.2f} -> {r.cpu_s:.2f} s)"
    else:
        cpu = ""
    CONSOLE.print(f"{r.verdict}  {r.label}{cpu}", markup=False, highlight=False, soft_wrap=True)


@click.command("rekey")
@click.argument("db", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("param")
@click.argument("renames", nargs=-1, required=True)
def rekey_cmd(db: Path, param: str, renames: tuple[str, ...]) -> None:
    """Rename values of a parameter in a campaign database, as if its runs had been recorded
    with the new ones (RENAMES: OLD=NEW ..., e.g. `rekey DB queueDisc Drr=DRR DropTail=FIFO`).

    For a program that renamed a value: each such run gets the new value in its parameters,
    metrics report and command line, and the run key that value makes, so the next sweep finds
    it instead of running it again; the stored campaign text's quoted old values are renamed
    too. Metrics and times are kept as recorded. One transaction: on an error (a new key that is
    already stored) the database is left as it was.
    """
    from qdisclab.campaign.rekey import parse_renames, rekey
    from qdisclab.campaign.spec import CampaignError

    try:
        done = rekey(db, param, parse_renames(renames))
    except CampaignError as exc:  # StoreError too
        raise click.ClickException(str(exc)) from exc
    counts = ", ".join(f"{old}: {count}" for old, count in done.by_value.items())
    CONSOLE.print(
        f"Rekeyed {done.runs} runs of {db} ({param} {counts}); kept-file folders moved:"
        f" {done.kept_folders}; stored campaign text "
        f"{'renamed' if done.campaign_text else 'unchanged'}.",
        markup=False, highlight=False, soft_wrap=True)
