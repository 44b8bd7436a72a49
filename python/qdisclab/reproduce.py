# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab reproduce NAME``: build, sweep and draw one paper; ``qdisc-lab figures NAME``.

Everything of a reproduction lives in ``results/NAME/``: the results database
(``campaign.sqlite``, or ``campaign-quick.sqlite`` for ``--quick``), the figures and
tables named after the paper's (``fig1.png``, ``fig1.pdf``, ``fig1.csv``,
``table1.csv``, ...; those of ``--quick`` in ``results/NAME/quick/``), and the
report (``results/report.html``, covering every reproduction).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.markup import escape
from rich.table import Table

from qdisclab.build import ALL_FLAVORS, ns3_option
from qdisclab.campaign.commands import cluster_option, jobs_option
from qdisclab.context import CONSOLE, RESULTS_DIR
from qdisclab.figures import REPRODUCTIONS, FigureSet, Reproduction, get_reproduction

VERDICT_STYLES = {"agree": "green", "partly": "yellow", "disagree": "red",
                  "not evaluated": "dim", "calibrated": "cyan"}


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
                      f"[{style}]{claim.verdict}[/]")
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


@click.command("reproduce")
@NAME_ARGUMENT
@click.option("--quick", is_flag=True, help="The campaign's small grid: a few minutes.")
@jobs_option
@cluster_option
@click.option("--retry-failed", is_flag=True, help="Rerun runs stored as failed or timed out.")
@ns3_option(ALL_FLAVORS, default=None)
def reproduce_cmd(name, quick, jobs, cluster, retry_failed, flavor):
    """Build, run the paper's campaign and draw its figures into results/NAME/.

    Runs already in the database are not run again. Ends by writing
    results/report.html. Exits 1 when a run failed or timed out.
    """
    from qdisclab.build import build
    from qdisclab.campaign.commands import run_sweep
    from qdisclab.provision import ensure_setup
    from qdisclab.report import write_report

    from qdisclab.campaign.spec import load_campaign

    reproduction = _reproduction(name)
    flavor = flavor or load_campaign(reproduction.campaign, quick=quick).ns3
    ensure_setup(wheel=flavor == "wheel")
    build(flavor)
    result = run_sweep(
        reproduction.campaign, quick=quick, jobs=jobs, cluster=cluster,
        db=database_path(name, quick), retry_failed=retry_failed, flavor=flavor, binary=None,
    )
    if result.interrupted:
        sys.exit(130)
    draw(reproduction, quick, result.db_path)
    report = write_report()
    CONSOLE.print(f"Report: {report}", markup=False, highlight=False)
    if result.failed or result.timeout or result.skipped_failed:
        sys.exit(1)


@click.command("figures")
@NAME_ARGUMENT
@click.option("--quick", is_flag=True, help="Draw the --quick campaign's results.")
@click.option(
    "--db", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
    help="Results database (default results/NAME/campaign[-quick].sqlite).",
)
def figures_cmd(name, quick, db):
    """Draw a reproduction's figures and tables again from its database (no runs)."""
    draw(_reproduction(name), quick, db)
