# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab intree``: build and test the module inside an ns-3 source tree.

The work is done by :func:`qdisclab.toolchain.intree.run_intree`; this is only its CLI.
"""

import inspect
import os
import sys

import click

from qdisclab.context import CACHE, CONSOLE, REPO


@click.command("intree")
@click.option(
    "--ns3-version",
    "version",
    default="3.37",
    show_default=True,
    help="ns-3 release whose source tree hosts the module: 3.37 (apt-get source, Debian "
    "bookworm), 3.48 or `newest` (the fixture ../shared/ns-3/ns-3.48-src.tar.xz), 3.35 (the waf "
    "era: built with ./waf and the module's wscript, from the fixture "
    "../shared/ns-3/ns-3.35-src.tar.xz), or any release whose tree QDISC_LAB_NS3_SRC names. "
    "The pins: DEBIAN_SOURCES and FIXTURE_SOURCES in qdisclab.toolchain.intree.",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=os.cpu_count() or 1,
    show_default="number of CPUs",
    help="Parallel build jobs.",
)
@click.option("--keep-going", is_flag=True, help="Do not stop at the first failing step.")
def intree_cmd(version: str, jobs: int, keep_going: bool) -> None:
    """Build and test the module in-tree, in an ns-3 source checkout."""
    try:
        from qdisclab.toolchain.intree import run_intree
    except ModuleNotFoundError as exc:
        if exc.name != "qdisclab.toolchain.intree":
            raise
        raise click.ClickException(
            "the in-tree runner python/qdisclab/toolchain/intree.py is missing from this checkout"
        ) from exc
    kwargs = {"repo": REPO, "cache": CACHE, "version": version, "jobs": jobs, "console": CONSOLE}
    if "keep_going" in inspect.signature(run_intree).parameters:
        kwargs["keep_going"] = keep_going
    if not run_intree(**kwargs):
        sys.exit(1)
