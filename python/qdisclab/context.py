# SPDX-License-Identifier: GPL-2.0-only
"""Process-wide locations and the shared rich console.

``REPO`` is the module's git checkout (the directory holding ``qdisc-lab``),
``CACHE`` the tool's cache directory (``$QDISC_LAB_CACHE``, default
``~/.cache/qdisc-lab``) and ``CCACHE_DIR`` the compiler cache inside it.
"""

import os
from pathlib import Path

from rich.console import Console

REPO = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("QDISC_LAB_CACHE") or Path.home() / ".cache" / "qdisc-lab")
CCACHE_DIR = CACHE / "ccache"
PYTHON_DIR = REPO / "python"
RESULTS_DIR = REPO / "results"

CONSOLE = Console(highlight=False)
