# SPDX-License-Identifier: GPL-2.0-only
"""How busy the machine was while a sweep ran, so that its CPU seconds can be read honestly.

A run's CPU seconds (user + system, as the kernel accounts them) grow when other work shares the
machine: the same run costs 1.35-2.9x more CPU beside builds than on a quiet machine (cache and
memory-bandwidth contention, frequency scaling). A sweep therefore records the machine's
1-minute load average, sampled while its runs execute, beside the machine's cores and its own
workers: :class:`LoadSampler` takes the samples, :class:`MachineLoad` is what the ``sweeps``
table keeps, and :func:`other_load` is the load beyond the sweep's own workers.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass

#: Seconds between samples of the load average.
SAMPLE_EVERY_S = 15.0


@dataclass(frozen=True)
class MachineLoad:
    """The machine's 1-minute load average over a sweep: its mean and largest sample, the
    number of samples and the machine's cores."""

    mean: float
    peak: float
    samples: int
    cores: int

    def other(self, workers: int) -> float:
        """The mean load beyond ``workers`` runs of the sweep itself (0 when none)."""
        return other_load(self.mean, workers)

    def quiet(self, workers: int) -> bool:
        """Whether the sweep had the machine to itself: the load beyond its own workers is
        below half a core on average."""
        return self.other(workers) < 0.5


def other_load(mean: float, workers: int) -> float:
    """The part of a mean load average that is not ``workers`` busy runs of the sweep."""
    return max(0.0, mean - workers)


def read_load() -> float:
    """The machine's 1-minute load average now."""
    return os.getloadavg()[0]


class LoadSampler:
    """Samples the load average every ``every`` seconds on a daemon thread between
    :meth:`start` and :meth:`stop`; :meth:`stop` returns the :class:`MachineLoad`
    (None when no sample was taken)."""

    def __init__(self, every: float = SAMPLE_EVERY_S,
                 read: Callable[[], float] = read_load) -> None:
        if not every > 0:
            raise ValueError(f"sampling interval must be positive, got {every!r}")
        self._every = every
        self._read = read
        self._samples: list[float] = []
        self._done = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> LoadSampler:
        """Take the first sample now and go on in the background."""
        self._samples.append(self._read())
        self._thread = threading.Thread(target=self._loop, name="load-sampler", daemon=True)
        self._thread.start()
        return self

    def _loop(self) -> None:
        while not self._done.wait(self._every):
            self._samples.append(self._read())

    def stop(self) -> MachineLoad | None:
        """Stop sampling (with a last sample) and summarise."""
        if self._thread is not None:
            self._done.set()
            self._thread.join()
            self._thread = None
            self._samples.append(self._read())
        if not self._samples:
            return None
        return MachineLoad(sum(self._samples) / len(self._samples), max(self._samples),
                           len(self._samples), os.cpu_count() or 1)
