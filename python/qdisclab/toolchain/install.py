# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab install``: install the module for programs of one's own.

Builds ``build/<flavor>`` (see :mod:`qdisclab.toolchain.build`), then runs ``cmake --install``
on it, which installs under the prefix the public headers (``include/ns3``), the library, the
CMake package ``qdisc-lab`` and ``qdisc-lab.pc`` (cmake/qdisc-lab-install.cmake says what and
why).
"""

from pathlib import Path

import click

from qdisclab.context import CONSOLE
from qdisclab.toolchain import proc
from qdisclab.toolchain.build import build, ns3_option


def install(flavor: str, prefix: Path) -> list[Path]:
    """Build ``flavor`` and install it under ``prefix``; return the files installed."""
    out = build(flavor)
    proc.run(["cmake", "--install", str(out), "--prefix", str(prefix)])
    # install_manifest.txt lists what this run installed, one absolute path a line.
    return [Path(line) for line in (out / "install_manifest.txt").read_text().splitlines()]


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
