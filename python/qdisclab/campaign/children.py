# SPDX-License-Identifier: GPL-2.0-only
"""The runs this process has in flight (in-process Dask workers).

An interrupted sweep on the embedded cluster (Ctrl-C, SIGTERM, a database error)
calls :func:`kill_all`, which kills every running program's process group and
refuses runs that start afterwards, then :func:`wait_idle` until each run has
removed its scratch directory. :func:`reset` opens the registry for the next
sweep. Tasks on a remote cluster do not use this module.
"""

import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from qdisclab.campaign.runner import kill_group

_ACTIVE: set[subprocess.Popen] = set()
_CHANGED = threading.Condition()
_in_flight = 0
_stopping = False


def reset() -> None:
    """Accept runs again (a new sweep starts)."""
    global _stopping
    with _CHANGED:
        _stopping = False


@contextmanager
def run_slot() -> Iterator[bool]:
    """Count a run in flight from start to cleanup; yields False once :func:`kill_all` ran."""
    global _in_flight
    with _CHANGED:
        if _stopping:
            admitted = False
        else:
            admitted = True
            _in_flight += 1
    try:
        yield admitted
    finally:
        if admitted:
            with _CHANGED:
                _in_flight -= 1
                _CHANGED.notify_all()


def add(child: subprocess.Popen) -> None:
    """Register a running child (killed at once when the sweep is stopping)."""
    with _CHANGED:
        _ACTIVE.add(child)
        if _stopping:
            kill_group(child)


def discard(child: subprocess.Popen) -> None:
    """Forget a reaped child."""
    with _CHANGED:
        _ACTIVE.discard(child)


def stopping() -> bool:
    """Whether :func:`kill_all` ran since the last :func:`reset` (a run ending now was cut
    short, and keeps no files)."""
    with _CHANGED:
        return _stopping


def kill_all() -> int:
    """Refuse new runs and kill every registered child; return how many there were."""
    global _stopping
    with _CHANGED:
        _stopping = True
        active = list(_ACTIVE)
        for child in active:
            kill_group(child)
    return len(active)


def wait_idle(timeout: float) -> bool:
    """Wait until no run is in flight (each has cleaned up); False after ``timeout`` s."""
    with _CHANGED:
        return _CHANGED.wait_for(lambda: _in_flight == 0, timeout)
