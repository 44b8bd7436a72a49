# SPDX-License-Identifier: GPL-2.0-only
"""Entry point for ``python -m qdisclab`` (what ``./qdisc-lab`` runs)."""

from qdisclab.cli import main

if __name__ == "__main__":
    main(prog_name="qdisc-lab")
