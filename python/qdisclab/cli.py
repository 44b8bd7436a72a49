# SPDX-License-Identifier: GPL-2.0-only
"""The ``qdisc-lab`` command group.

Subcommands live in their own modules and are registered in :data:`COMMANDS`
as ``"name": "module:attribute"``; they are imported only when used (or when
help lists them), so ``qdisc-lab`` starts fast. A new subcommand is one module
plus one line here; ``main.add_command(cmd)`` works as well.
"""

import importlib
import subprocess

import click

from qdisclab import __version__
from qdisclab.context import CONSOLE

COMMANDS: dict[str, str] = {
    "setup": "qdisclab.toolchain.provision:setup_cmd",
    "build": "qdisclab.toolchain.build:build_cmd",
    "install": "qdisclab.toolchain.install:install_cmd",
    "test": "qdisclab.toolchain.testing:test_cmd",
    "demo": "qdisclab.demo:demo_cmd",
    "intree": "qdisclab.toolchain.intree_cmd:intree_cmd",
    "sweep": "qdisclab.campaign.commands:sweep_cmd",
    "export": "qdisclab.campaign.commands:export_cmd",
    "salvage": "qdisclab.campaign.commands:salvage_cmd",
    "figures": "qdisclab.reproduce:figures_cmd",
    "reproduce": "qdisclab.reproduce:reproduce_cmd",
    "report": "qdisclab.report:report_cmd",
    "bench": "qdisclab.bench:bench_cmd",
    "factorial": "qdisclab.factorial:factorial_cmd",
    "python": "qdisclab.toolchain.python_cmd:python_cmd",
    "docs": "qdisclab.docs:docs_cmd",
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
