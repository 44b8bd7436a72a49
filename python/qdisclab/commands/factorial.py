# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab factorial``: a 2^k r factorial design stored in a CSV file, analysed.

The analysis is :mod:`qdisclab.factorial` (Jain, ch. 17-18); this module is the command and
its console rendering.
"""

from pathlib import Path

import click

from qdisclab.factorial import (
    DEFAULT_CONFIDENCE,
    FactorialError,
    FactorialResult,
    analyze,
    read_csv,
    to_json,
)


def render(result: FactorialResult, console, decimals: int = 2) -> None:
    """Print one response's effects, regression equation and allocation of variation."""
    from rich.table import Table

    design = f"2^{result.k}" + (f"·{result.replications}" if result.replications > 1 else "")
    console.print(
        f"[bold]{result.response}[/]: {design} design, factors {', '.join(result.factors)},"
        f" r = {result.replications} ({result.runs} runs)"
    )
    level = f"{100 * result.confidence:g}%"
    table = Table(title=f"Effects and variation explained ({result.response})")
    table.add_column("Effect")
    table.add_column("Estimate", justify="right")
    if result.t is not None:
        table.add_column(f"{level} CI", justify="right")
        table.add_column("Sig.", justify="center")
    table.add_column("SS", justify="right")
    table.add_column("Var. %", justify="right")
    for effect in result.effects:
        row = [effect.label, _number(effect.value)]
        if result.t is not None:
            row.append(f"({_number(effect.ci_low, 4)}, {_number(effect.ci_high, 4)})")
            row.append("no: CI has 0" if effect.zero_in_ci else "yes")
        row += [_number(effect.sum_of_squares), _number(effect.percent, 5)]
        table.add_row(*row)
    padding = ["", ""] if result.t is not None else []
    if result.sse is not None:
        table.add_row("Error", "", *padding, _number(result.sse), _number(result.percent_error, 5))
    table.add_row("Total", "", *padding, _number(result.sst), "100" if result.sst else "")
    console.print(table)
    console.print(f"Regression: {result.equation(decimals)}", markup=False, soft_wrap=True)
    if result.t is not None:
        console.print(
            f"s_e = {_number(result.s_e)}, s_q = s_e/sqrt(2^k r) = {_number(result.s_q)},"
            f" t[{1 - (1 - result.confidence) / 2:g}; {result.dof}] = {result.t:.4f}",
            markup=False,
            soft_wrap=True,
        )
    else:
        console.print(result.note, markup=False, soft_wrap=True)
    if result.sst == 0:
        console.print("The response is constant (SST = 0): no variation to allocate.", markup=False)


def _names(values: tuple[str, ...]) -> list[str] | None:
    """Repeated and comma-separated option values, flattened."""
    names = [name.strip() for value in values for name in value.split(",") if name.strip()]
    return names or None


@click.command("factorial")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--response", "-r", "responses", multiple=True, metavar="COL",
    help="Response column to analyse (repeat, or separate with commas; default: every"
    " numeric column that is not a factor).",
)
@click.option(
    "--factors", "-f", multiple=True, metavar="COL",
    help="Factor columns, in the order that names the interactions (repeat, or separate"
    " with commas; default: the columns holding only -1 and +1).",
)
@click.option(
    "--confidence", type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=DEFAULT_CONFIDENCE, show_default=True,
    help="Confidence level of the effects' intervals (used when runs are replicated).",
)
@click.option(
    "--decimals", type=click.IntRange(0, 12), default=2, show_default=True,
    help="Decimal places of the regression equation's coefficients.",
)
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON instead.")
def factorial_cmd(
    file: Path,
    responses: tuple[str, ...],
    factors: tuple[str, ...],
    confidence: float,
    decimals: int,
    as_json: bool,
) -> None:
    """Analyse a 2^k r factorial design stored in a CSV file (Jain, ch. 17-18).

    One row per run; factor columns hold the levels -1/+1 and replications are
    repeated rows of the same level combination. For each response column this
    prints the effects (with confidence intervals when runs are replicated),
    the regression equation and the percentage of variation each effect and
    the error explain.
    """
    try:
        results = analyze(
            read_csv(file), _names(responses), _names(factors), confidence=confidence
        )
    except FactorialError as exc:
        raise click.ClickException(str(exc)) from exc
    if as_json:
        click.echo(to_json(results, source=str(file)))
        return
    from qdisclab.context import CONSOLE

    for index, result in enumerate(results.values()):
        if index:
            CONSOLE.print()
        render(result, CONSOLE, decimals)


def _number(value: float | None, digits: int = 6) -> str:
    return "" if value is None else f"{value:.{digits}g}"
