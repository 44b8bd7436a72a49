# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab install``: the module into a prefix, for programs of one's own.

The work is :func:`qdisclab.toolchain.install.install`; this module is the command and what it
prints.
"""

from pathlib import Path

import click

from qdisclab.context import CONSOLE
from qdisclab.toolchain.build import ns3_option
from qdisclab.toolchain.install import install


@click.command("install")
@ns3_option()
@click.option(
    "--prefix",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Directory to install into (include/, lib/ are created in it).",
)
def install_cmd(flavor: str, prefix: Path) -> None:
    """Install headers, library, CMake package and pkg-config file under PREFIX."""
    from qdisclab.toolchain.provision import ensure_setup

    ensure_setup(wheel=flavor == "wheel")
    prefix = prefix.resolve()
    files = install(flavor, prefix)
    (pc,) = [f for f in files if f.name == "qdisc-lab.pc"]
    CONSOLE.print(f"[green]Installed[/] {len(files)} files under {prefix}. Use them with")
    CONSOLE.print(
        f"  CMake:      cmake -DCMAKE_PREFIX_PATH={prefix} ... with find_package(qdisc-lab CONFIG)"
        " and target_link_libraries(app PRIVATE qdisc-lab::qdisc-lab)\n"
        f"  pkg-config: g++ app.cc $(PKG_CONFIG_PATH={pc.parent}"
        " pkg-config --cflags --libs qdisc-lab)",
        markup=False,
        soft_wrap=True,
    )
