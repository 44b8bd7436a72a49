# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab reproduce NAME`` / ``--all``: build, sweep and draw papers; ``qdisc-lab figures NAME``.

Everything of a reproduction lives in ``results/NAME/``: the results database
(``campaign.sqlite``, or ``campaign-quick.sqlite`` for ``--quick``), the figures and
tables named after the paper's (``fig1.png``, ``fig1.pdf``, ``fig1.csv``,
``table1.csv``, ...; those of ``--quick`` in ``results/NAME/quick/``), and the
report (``results/report.html``, covering every reproduction). What each full
campaign cost goes into ``doc/results/timing.csv``
(:mod:`qdisclab.campaign.timing`), a row as soon as its campaign is complete.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.markup import escape
from rich.table import Table

from qdisclab.campaign.timing import TIMING_CSV
from qdisclab.commands.campaign import cluster_option, jobs_option
from qdisclab.context import CONSOLE, RESULTS_DIR
from qdisclab.figures import REPRODUCTIONS, FigureSet, Reproduction, get_reproduction
from qdisclab.toolchain.build import SIMULATORS, ns3_option

VERDICT_STYLES = {"agree": "green", "partly": "yellow", "disagree": "red",
                  "not evaluated": "dim", "calibrated": "cyan",
                  "calibration target not met": "magenta"}


def results_dir(name: str) -> Path:
    """``results/<name>/``."""
    return RESULTS_DIR / name


def database_path(name: str, quick: bool) -> Path:
    """The results database of a reproduction (``--quick`` has its own)."""
    return results_dir(name) / ("campaign-quick.sqlite" if quick else "campaign.sqlite")


def figures_dir(name: str, quick: bool) -> Path:
    """Where a reproduction's figures go: ``results/<name>/`` (``.../quick/`` for ``--quick``)."""
    return results_dir(name) / "quick" if quick else results_dir(name)


def claims_table(figures: FigureSet) -> Table:
    """The paper's statements beside ours, with a verdict each."""
    table = Table(title=f"{figures.reproduction}: the paper vs this reproduction")
    table.add_column("Where", no_wrap=True)
    table.add_column("The paper")
    table.add_column("Ours")
    table.add_column("Verdict", no_wrap=True)
    for claim in figures.claims:
        style = VERDICT_STYLES.get(claim.verdict, "")
        # Claims are plain text: brackets in them ("[RED ahead + identical]") are not markup.
        table.add_row(escape(claim.where), escape(claim.paper), escape(claim.ours),
                      f"[{style}]{claim.verdict}[/]"
                      + (" (variant)" if claim.kind == "variant" else ""))
    return table


def draw(reproduction: Reproduction, quick: bool, db: Path | None = None) -> FigureSet:
    """Draw a reproduction's figures from its database; print what was written."""
    db = db or database_path(reproduction.name, quick)
    if not db.is_file():
        raise click.ClickException(
            f"{db} does not exist: run `./qdisc-lab reproduce {reproduction.name}"
            f"{' --quick' if quick else ''}` first"
        )
    with CONSOLE.status("Drawing figures…"):
        figures = reproduction.make_figures(db, figures_dir(reproduction.name, quick))
    for note in figures.notes:
        CONSOLE.print(note, highlight=False)
    for artifact in figures.artifacts:
        files = [p for p in (artifact.png, artifact.pdf, artifact.csv) if p is not None]
        CONSOLE.print(f"[bold]{artifact.id}[/] {artifact.title}", highlight=False)
        for path in files:
            CONSOLE.print(f"    {path}", markup=False, highlight=False, soft_wrap=True)
    CONSOLE.print(claims_table(figures))
    return figures


def _reproduction(name: str) -> Reproduction:
    try:
        return get_reproduction(name)
    except KeyError as exc:
        raise click.ClickException(str(exc.args[0])) from exc


NAME_ARGUMENT = click.argument("name", type=click.Choice(sorted(REPRODUCTIONS)))


def _campaign(reproduction: Reproduction, quick: bool):
    from qdisclab.campaign.spec import CampaignError, load_campaign

    try:
        return load_campaign(reproduction.campaign, quick=quick)
    except CampaignError as exc:
        raise click.ClickException(str(exc)) from exc


def timing_row(reproduction: Reproduction, quick: bool):
    """The timing row of a reproduction's campaign from its database; None (said on the
    console) when the database is missing or does not hold every run yet."""
    from qdisclab.campaign.spec import CampaignError
    from qdisclab.campaign.timing import campaign_timing

    try:
        row = campaign_timing(database_path(reproduction.name, quick),
                              _campaign(reproduction, quick))
    except CampaignError as exc:
        CONSOLE.print(f"[yellow]No timing row for {reproduction.name}:[/] {escape(str(exc))}",
                      soft_wrap=True)
        return None
    if row.runs_without_cpu:
        CONSOLE.print(
            f"[yellow]{reproduction.name}: cpu_s left empty:[/] {row.runs_without_cpu} of its"
            f" {row.runs} runs were stored before the database recorded CPU time."
        )
    return row


def write_timing_rows(rows, path: Path) -> None:
    """Put ``rows`` into the timing CSV ``path`` and show them."""
    from qdisclab.campaign.timing import COLUMNS, write_timing

    rows = [row for row in rows if row is not None]
    if not rows:
        return
    write_timing(path, rows)
    table = Table(title=f"Timing rows written to {path}")
    for column in COLUMNS:
        table.add_column(column, justify="right" if column in ("runs", "cpu_s", "wall_s",
                                                                "cores") else "left")
    for row in rows:
        table.add_row(*(escape(cell) for cell in row.cells()))
    CONSOLE.print(table)


def _reproduce_one(reproduction: Reproduction, quick: bool, jobs, cluster, retry_failed,
                   flavor, timing: Path | None):
    """Build, sweep, write the timing row (to ``timing`` unless None) and draw one
    reproduction; return its :class:`~qdisclab.campaign.engine.SweepResult` (interrupted:
    nothing written or drawn)."""
    from qdisclab.commands.campaign import run_sweep
    from qdisclab.toolchain.build import build
    from qdisclab.toolchain.provision import ensure_setup

    flavor = flavor or _campaign(reproduction, quick).ns3
    ensure_setup(wheel=flavor == "wheel")
    build(flavor)
    result = run_sweep(
        reproduction.campaign, quick=quick, jobs=jobs, cluster=cluster,
        db=database_path(reproduction.name, quick), retry_failed=retry_failed, flavor=flavor,
        binary=None,
    )
    if result.interrupted:
        return result
    if timing is not None:
        write_timing_rows([timing_row(reproduction, quick)], timing)
    draw(reproduction, quick, result.db_path)
    return result


@click.command("reproduce")
@click.argument("name", required=False, type=click.Choice(sorted(REPRODUCTIONS)))
@click.option("--all", "all_", is_flag=True,
              help="Every reproduction, one after the other: " + ", ".join(REPRODUCTIONS) + ".")
@click.option("--quick", is_flag=True, help="The campaign's small grid: a few minutes.")
@jobs_option
@cluster_option
@click.option("--retry-failed", is_flag=True, help="Rerun runs stored as failed or timed out.")
@ns3_option(SIMULATORS, default=None)
@click.option(
    "--timing", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="CSV to put each finished campaign's timing row in (default, without --quick:"
    " doc/results/timing.csv; with --quick: none).",
)
@click.option("--timing-only", is_flag=True,
              help="Run and draw nothing: (re)write the timing rows from the databases in"
              " results/.")
def reproduce_cmd(name, all_, quick, jobs, cluster, retry_failed, flavor, timing, timing_only):
    """Build, run the paper's campaign and draw its figures into results/NAME/.

    With --all, every reproduction in turn (in the order listed above). Runs already
    in a database are not run again. Each full campaign, once every run is stored,
    gets its row in doc/results/timing.csv (runs, CPU and wall seconds, cores, ns-3
    flavour, git revision). Ends by writing results/report.html. Exits 1 when a run
    failed or timed out, 130 when interrupted (the finished campaigns keep their rows).
    """
    from qdisclab.report import write_report

    if bool(name) == all_:
        raise click.UsageError("give a reproduction's NAME or --all")
    reproductions = list(REPRODUCTIONS.values()) if all_ else [_reproduction(name)]
    if timing is None and not quick:
        timing = TIMING_CSV
    if timing_only:
        if timing is None:
            raise click.UsageError("--timing-only with --quick needs --timing FILE")
        write_timing_rows([timing_row(r, quick) for r in reproductions], timing)
        return
    failed = False
    for reproduction in reproductions:
        result = _reproduce_one(reproduction, quick, jobs, cluster, retry_failed, flavor, timing)
        if result.interrupted:
            sys.exit(130)
        failed |= bool(result.failed or result.timeout or result.skipped_failed)
    report = write_report(timing=timing or TIMING_CSV)
    CONSOLE.print(f"Report: {report}", markup=False, highlight=False)
    if failed:
        sys.exit(1)


@click.command("figures")
@NAME_ARGUMENT
@click.option("--quick", is_flag=True, help="Draw the --quick campaign's results.")
@click.option(
    "--db", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
    help="Results database (default results/NAME/campaign[-quick].sqlite).",
)
def figures_cmd(name, quick, db):
    """Draw a reproduction's figures and tables again from its database (no runs).

    The database is only read (SQLite read-only); one that is damaged or not a campaign
    database ends in a message saying so.
    """
    from qdisclab.campaign.spec import CampaignError
    from qdisclab.campaign.store import read_only

    reproduction = _reproduction(name)
    try:
        with read_only():
            draw(reproduction, quick, db)
    except CampaignError as exc:  # StoreError: the database
        raise click.ClickException(str(exc)) from exc
    except OSError as exc:
        raise click.ClickException(
            f"cannot write the figures of {name}: {exc.strerror or exc}"
            f"{f' ({exc.filename})' if exc.filename else ''}; free some space or make"
            f" {figures_dir(name, quick)} writable, then run `qdisc-lab figures {name}` again."
        ) from exc
