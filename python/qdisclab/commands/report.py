# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab report``: the HTML report of every reproduction, and what it prints.

The report is :func:`qdisclab.report.write_report`; this module is the command and its console
table of the campaigns' cost.
"""

from pathlib import Path

import click
from rich.markup import escape

from qdisclab.campaign.timing import COLUMNS, TIMING_CSV
from qdisclab.context import CONSOLE, RESULTS_DIR
from qdisclab.report import Section, write_sections


def timing_table(sections: list[Section]):
    """The sections' timing rows as a console table (None when none has one)."""
    from rich.table import Table

    rows = [section.timing for section in sections if section.timing]
    if not rows:
        return None
    table = Table(title="What the campaigns cost (timing.csv)")
    for column in COLUMNS:
        table.add_column(column, justify="right" if column in ("runs", "cpu_s", "wall_s",
                                                                "cores") else "left")
    for row in rows:
        table.add_row(*(row.get(column, "") for column in COLUMNS))
    return table


@click.command("report")
@click.option(
    "--results", type=click.Path(file_okay=False, path_type=Path), default=RESULTS_DIR,
    show_default=True, help="Directory holding one subdirectory per campaign.",
)
@click.option(
    "--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="HTML file to write (default RESULTS/report.html). Links to the results' files are"
    " relative to it: keep it in the results directory to copy the two together.",
)
@click.option("--redraw", is_flag=True,
              help="Draw every figure again, even when the database has not changed.")
@click.option(
    "--timing", type=click.Path(dir_okay=False, path_type=Path), default=TIMING_CSV,
    help="Timing file whose rows the full campaigns show (default doc/results/timing.csv).",
)
def report_cmd(results: Path, output: Path | None, redraw: bool, timing: Path) -> None:
    """Write an HTML report of every reproduction under results/, figures beside the paper.

    A directory without a database is reported from its recorded figures (figures.json),
    so `--results doc/results` renders the recorded reproductions without running them.
    """
    try:
        with CONSOLE.status("Writing the report…"):
            path, sections = write_sections(results, output, redraw, timing)
    except OSError as exc:
        target = output or results / "report.html"
        raise click.ClickException(
            f"cannot write the report {target}: {exc.strerror or exc}"
            f"{f' ({exc.filename})' if exc.filename and str(exc.filename) != str(target) else ''};"
            " the databases are unchanged: free some space or give --output elsewhere, and run"
            " `qdisc-lab report` again.") from exc
    for section in sections:
        if section.error and section.state is None and section.db is not None:
            CONSOLE.print(f"[yellow]{section.name}:[/] {escape(section.error)}", soft_wrap=True)
    if (table := timing_table(sections)) is not None:
        CONSOLE.print(table)
    CONSOLE.print(f"Report: {path.resolve()}", markup=False, highlight=False, soft_wrap=True)
