# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab build``: the module, its tests and examples into ``build/<flavor>``.

The builds are :func:`qdisclab.toolchain.build.build` (and its ns-3.24 and optimized
variants); this module is the command.
"""

import click

from qdisclab.context import CCACHE_DIR, CONSOLE, ensure_cache_dir
from qdisclab.toolchain.build import ALL_FLAVORS, NS324, build, ns3_option, sanitize_option


@click.command("build")
@ns3_option((*ALL_FLAVORS, NS324))
@sanitize_option()
@click.option("--clean", is_flag=True, help="Delete the build directory first.")
def build_cmd(flavor: str, sanitize: bool, clean: bool) -> None:
    """Build the module, its tests and examples into build/<flavor>."""
    from qdisclab.toolchain.provision import ensure_setup

    ensure_cache_dir(CCACHE_DIR)  # before anything is installed: a clear error
    if flavor != NS324:  # ns-3.24 needs only its fixture, Python 2 and a compiler
        ensure_setup(wheel=flavor == "wheel")
    out = build(flavor, clean=clean, sanitize=sanitize)
    CONSOLE.print(f"[green]Built[/] {out}")
