# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab test``: build, then ctest, pytest and the clang-format check, summed up.

The sources are run by :mod:`qdisclab.toolchain.testing`; this module is the command and its
summary table.
"""

import os
import sys

import click
from rich.table import Table

from qdisclab.context import CONSOLE
from qdisclab.toolchain.build import FLAVORS, ns3_option, sanitize_option
from qdisclab.toolchain.junit import Counts, closing_line
from qdisclab.toolchain.testing import (
    FORMAT_TEST,
    IN_PYTEST_ENV,
    SourceResult,
    run_ctest,
    run_format_check,
    run_pytest,
)


def summary_table(results: list[SourceResult]) -> Table:
    """Rich table with one row per test source."""
    table = Table(title="Test summary")
    table.add_column("Source")
    for column in ("Passed", "Failed", "Skipped"):
        table.add_column(column, justify="right")
    table.add_column("Notes", overflow="fold")
    for result in results:
        counts = result.counts
        style = "red" if counts.failed else "green"
        table.add_row(
            result.name,
            str(counts.passed),
            str(counts.failed),
            str(counts.skipped),
            result.note,
            style=style,
        )
    return table


@click.command("test")
@ns3_option((*FLAVORS, "all"))
@click.option(
    "-k",
    "pattern",
    metavar="PATTERN",
    help="Only tests matching PATTERN (pytest -k, ctest -R); the format check "
    "runs only if PATTERN is a substring of 'clang-format'.",
)
@sanitize_option()
def test_cmd(flavor: str, pattern: str | None, sanitize: bool) -> None:
    """Build, then run ctest, pytest and the clang-format check.

    With --sanitize: build the sanitized build and run its ctest only (every test suite,
    GoogleTest and example --quick run, each stopping at its first sanitizer report).
    """
    from qdisclab.toolchain.provision import ensure_setup

    if os.environ.get(IN_PYTEST_ENV):
        raise click.ClickException(
            "refusing to run `qdisc-lab test` from inside its own pytest run"
        )
    flavors = FLAVORS if flavor == "all" else (flavor,)
    ensure_setup(wheel="wheel" in flavors)

    results = [run_ctest(f, pattern, sanitize) for f in flavors]
    if not sanitize:
        results.append(run_pytest(pattern))
        if not pattern or pattern in FORMAT_TEST:
            results.append(run_format_check())

    total = sum((r.counts for r in results), Counts())
    CONSOLE.print(summary_table(results))
    for failure in total.failures:
        CONSOLE.print(f"[red]FAILED[/] {failure}")
    CONSOLE.file.flush()
    print(closing_line(total), flush=True)
    if total.failed or total.passed + total.failed == 0:
        sys.exit(1)
