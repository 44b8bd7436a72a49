# SPDX-License-Identifier: GPL-2.0-only
"""The runs this process has started and not yet reaped (in-process Dask workers).

An interrupted sweep on the embedded cluster kills them with :func:`kill_all`, so
no run outlives Ctrl-C. Tasks on a remote cluster do not use this module.
"""

import subprocess
import threading

_ACTIVE: set[subprocess.Popen] = set()
_LOCK = threading.Lock()


def add(child: subprocess.Popen) -> None:
    """Register a running child."""
    with _LOCK:
        _ACTIVE.add(child)


def discard(child: subprocess.Popen) -> None:
    """Forget a reaped child."""
    with _LOCK:
        _ACTIVE.discard(child)


def kill_all() -> int:
    """Kill every registered child; return how many there were."""
    with _LOCK:
        active = list(_ACTIVE)
    for child in active:
        try:
            child.kill()
        except OSError:
            pass
    return len(active)
