# SPDX-License-Identifier: GPL-2.0-only
"""The module installed for programs of one's own (``qdisc-lab install``).

Builds ``build/<flavor>`` (see :mod:`qdisclab.toolchain.build`), then runs ``cmake --install``
on it, which installs under the prefix the public headers (``include/ns3``), the library, the
CMake package ``qdisc-lab`` and ``qdisc-lab.pc`` (cmake/qdisc-lab-install.cmake says what and
why).
"""

from pathlib import Path

from qdisclab.toolchain import proc
from qdisclab.toolchain.build import build


def install(flavor: str, prefix: Path) -> list[Path]:
    """Build ``flavor`` and install it under ``prefix``; return the files installed."""
    out = build(flavor)
    proc.run(["cmake", "--install", str(out), "--prefix", str(prefix)])
    # install_manifest.txt lists what this run installed, one absolute path a line.
    return [Path(line) for line in (out / "install_manifest.txt").read_text().splitlines()]


