# SPDX-License-Identifier: GPL-2.0-only
"""Process-wide locations and the shared rich console.

``REPO`` is the module's git checkout (the directory holding ``qdisc-lab``),
``CACHE`` the tool's cache directory (``$QDISC_LAB_CACHE``, default
``~/.cache/qdisc-lab``) and ``CCACHE_DIR`` the compiler cache inside it.
"""

import os
from pathlib import Path

import click
from rich.console import Console

REPO = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("QDISC_LAB_CACHE") or Path.home() / ".cache" / "qdisc-lab")
CCACHE_DIR = CACHE / "ccache"
PYTHON_DIR = REPO / "python"
RESULTS_DIR = REPO / "results"

CONSOLE = Console(highlight=False)


def ensure_cache_dir(path: Path = CCACHE_DIR) -> Path:
    """Create ``path`` (a directory in the cache) unless it exists; return it.

    A clear error, naming the directory and ``QDISC_LAB_CACHE``, when it cannot
    be created or written (a read-only or missing HOME, as in some containers and CI).
    """
    try:
        path.mkdir(parents=True, exist_ok=True)
        problem = None if os.access(path, os.W_OK | os.X_OK) else "not writable"
    except OSError as exc:
        problem = exc.strerror or str(exc)
    if problem:
        raise click.ClickException(
            f"cannot use the cache directory {path} ({problem}). Set QDISC_LAB_CACHE to a"
            " writable directory, e.g. `QDISC_LAB_CACHE=/tmp/qdisc-lab-cache ./qdisc-lab build`."
        )
    return path
