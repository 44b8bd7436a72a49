# SPDX-License-Identifier: GPL-2.0-only
"""The ``qdisc-lab`` command group.

Subcommands live in :mod:`qdisclab.commands`, a module each, and are registered
in :data:`COMMANDS` as ``"name": "module:attribute"``; they are imported only when
used, so ``qdisc-lab`` starts fast: ``qdisc-lab --help`` reads each one's short help
from its module's source. A new subcommand is one module there plus one line
here; ``main.add_command(cmd)`` works as well.
"""

import ast
import importlib
import subprocess
from pathlib import Path

import click

from qdisclab import __version__
from qdisclab.context import CONSOLE

COMMANDS: dict[str, str] = {
    "setup": "qdisclab.commands.setup:setup_cmd",
    "build": "qdisclab.commands.build:build_cmd",
    "install": "qdisclab.commands.install:install_cmd",
    "test": "qdisclab.commands.test:test_cmd",
    "demo": "qdisclab.commands.demo:demo_cmd",
    "intree": "qdisclab.commands.intree:intree_cmd",
    "sweep": "qdisclab.commands.campaign:sweep_cmd",
    "export": "qdisclab.commands.campaign:export_cmd",
    "salvage": "qdisclab.commands.campaign:salvage_cmd",
    "replay": "qdisclab.commands.campaign:replay_cmd",
    "rekey": "qdisclab.commands.campaign:rekey_cmd",
    "figures": "qdisclab.commands.reproduce:figures_cmd",
    "reproduce": "qdisclab.commands.reproduce:reproduce_cmd",
    "report": "qdisclab.commands.report:report_cmd",
    "bench": "qdisclab.commands.bench:bench_cmd",
    "factorial": "qdisclab.commands.factorial:factorial_cmd",
    "python": "qdisclab.commands.python:python_cmd",
    "docs": "qdisclab.commands.docs:docs_cmd",
}


class LazyGroup(click.Group):
    """A click group importing each subcommand from ``module:attribute`` on first use."""

    def __init__(self, *args, lazy_commands: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy_commands = dict(lazy_commands or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands or cmd_name not in self.lazy_commands:
            return super().get_command(ctx, cmd_name)
        module_name, _, attribute = self.lazy_commands[cmd_name].partition(":")
        try:
            command = getattr(importlib.import_module(module_name), attribute)
        except ImportError as exc:
            # Keep --help and the other commands usable when one module cannot load.
            return _unavailable(cmd_name, exc)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.lazy_commands[cmd_name]} is not a click command")
        self.add_command(command, cmd_name)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's listing of the subcommands, taking the help of those not imported yet from
        their modules' source (importing one only where its source does not show it)."""
        rows = []
        for name in self.list_commands(ctx):
            if name not in self.commands:
                doc = _help_from_source(self.lazy_commands[name])
                if doc is not None:
                    rows.append((name, click.Command(name, help=doc)))
                    continue
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command))
        if rows:
            limit = formatter.width - 6 - max(len(name) for name, _ in rows)
            with formatter.section("Commands"):
                formatter.write_dl([(name, cmd.get_short_help_str(limit)) for name, cmd in rows])

    def invoke(self, ctx: click.Context):
        # A failing external command is a plain error, not a traceback.
        from qdisclab.metrics import MetricsError

        try:
            return super().invoke(ctx)
        except subprocess.CalledProcessError as exc:
            CONSOLE.print(f"[red]Error:[/] command exited with status {exc.returncode}")
            ctx.exit(exc.returncode or 1)
        except MetricsError as exc:
            raise click.ClickException(str(exc)) from exc


def _help_from_source(spec: str) -> str | None:
    """The docstring of the function ``module:attribute`` (click's help of the command it
    decorates), read from the module's source without importing it; None unless that function
    is a plain ``@click.command(...)`` (no help, short_help, hidden or deprecated given)."""
    module_name, _, attribute = spec.partition(":")
    path = Path(__file__).parent.joinpath(*module_name.split(".")[1:]).with_suffix(".py")
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError):
        return None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == attribute:
            calls = [d for d in node.decorator_list
                     if isinstance(d, ast.Call) and ast.unparse(d.func) == "click.command"]
            given = {k.arg for call in calls for k in call.keywords}
            if len(calls) != 1 or given & {"help", "short_help", "hidden", "deprecated", None}:
                return None
            return ast.get_docstring(node, clean=False)
    return None


def _unavailable(name: str, error: ImportError) -> click.Command:
    """A stand-in for a subcommand whose module failed to import."""
    message = f"unavailable: {error}"

    def fail() -> None:
        raise click.ClickException(f"`{name}` is {message}")

    return click.Command(name, callback=fail, help=message, short_help=f"({message})")


@click.group(
    "qdisc-lab",
    cls=LazyGroup,
    lazy_commands=COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(__version__, prog_name="qdisc-lab")
def main() -> None:
    """Build, test and run the qdisc-lab ns-3 module.

    The cache lives in $QDISC_LAB_CACHE (default ~/.cache/qdisc-lab), with
    ccache's files in its ccache/ directory.
    """
