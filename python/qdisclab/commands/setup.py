# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab setup``: the system packages (and optionally the ns-3 wheel) the module needs.

The work is :func:`qdisclab.toolchain.provision.ensure_setup`; this module is the command.
"""

import click

from qdisclab.context import CONSOLE
from qdisclab.toolchain.provision import ensure_setup


@click.command("setup")
@click.option("--wheel", is_flag=True,
              help="Also install the ns-3 wheel (pyproject.toml's wheel extra).")
def setup_cmd(wheel: bool) -> None:
    """Install the system packages (and optionally the ns-3 wheel) this module needs."""
    ensure_setup(wheel=wheel)
    CONSOLE.print("[green]Setup complete.[/]")
