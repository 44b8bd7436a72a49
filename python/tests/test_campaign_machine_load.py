# SPDX-License-Identifier: GPL-2.0-only
"""The machine's load while a sweep runs (``qdisclab.campaign.machine_load``): the sampler's summary,
the load beyond the sweep's own workers, the ``sweeps`` row and the sweep's summary line."""

import itertools
import threading

import pytest

from qdisclab.campaign.engine import SweepResult, load_line, sweep
from qdisclab.campaign.machine_load import LoadSampler, MachineLoad, other_load
from qdisclab.campaign.store import ResultStore
from test_campaign_sweep import fake, quiet  # noqa: F401
from test_timing import spin_campaign


def test_the_sampler_summarises_every_sample_it_took():
    values = itertools.count(1.0)
    taken = threading.Event()

    def read():
        value = next(values)
        if value >= 3:
            taken.set()
        return value

    sampler = LoadSampler(every=0.01, read=read).start()
    assert taken.wait(5)
    load = sampler.stop()
    # The first sample at start, at least one in the background, one at stop: 1, 2, ..., n.
    assert load.samples >= 3
    assert load.mean == pytest.approx((1 + load.samples) / 2)
    assert load.peak == load.samples
    assert load.cores >= 1


def test_a_sampler_that_never_started_has_no_load_and_a_bad_interval_is_refused():
    assert LoadSampler(read=lambda: 1.0).stop() is None
    with pytest.raises(ValueError, match="sampling interval must be positive, got 0"):
        LoadSampler(every=0)


@pytest.mark.parametrize("mean, workers, other, quiet_machine", [
    (2.1, 2, 0.1, True),    # the sweep's two runs and a little else
    (1.0, 2, 0.0, True),    # the tail of a sweep: fewer runs than workers
    (5.0, 2, 3.0, False),   # builds beside the runs
    (2.5, 2, 0.5, False),   # half a core of other work: no longer quiet
])
def test_the_load_beyond_the_workers_says_whether_the_machine_was_quiet(
        mean, workers, other, quiet_machine):
    load = MachineLoad(mean, mean, 4, 2)
    assert other_load(mean, workers) == pytest.approx(other)
    assert load.other(workers) == pytest.approx(other)
    assert load.quiet(workers) is quiet_machine


def test_the_summary_line_says_when_other_work_inflated_the_cpu_seconds(tmp_path):
    result = SweepResult("c", "full", tmp_path / "c.sqlite", ok=3, workers=2)
    assert load_line(result) is None
    result.load = MachineLoad(5.0, 7.5, 12, 2)
    line = load_line(result)
    assert line.startswith("Machine load: mean 5.00, peak 7.50 over 12 samples, 2 workers on 2")
    assert "other work used about 3.0 of the 2 cores" in line and "inflated" in line
    result.load = MachineLoad(2.2, 2.4, 12, 2)
    assert "the machine was quiet" in load_line(result)


def test_a_sweep_records_the_load_it_ran_under(fake, tmp_path):
    program, _ = fake
    db = tmp_path / "spin.sqlite"
    result = sweep(spin_campaign("1"), program, db, jobs=1, console=quiet())
    assert result.ok == 2 and result.load is not None and result.load.samples >= 2
    with ResultStore(db) as store:
        (row,) = store.sweeps()
    assert row["load_mean"] == pytest.approx(result.load.mean, abs=1e-3)
    assert row["load_peak"] == pytest.approx(result.load.peak, abs=1e-3)
    assert row["load_peak"] >= row["load_mean"] >= 0
    assert row["machine_cores"] == result.load.cores
