# SPDX-License-Identifier: GPL-2.0-only
"""``sweep --cluster``: a real Dask scheduler and worker, on loopback only.

The worker runs with neither qdisclab nor this repository on its Python path and in
another directory: a task needs only the program's path and arguments (the task
function travels by value). Every wait is bounded; both processes are stopped.
"""

import io
import json
import os
import subprocess
import sys
import time

import pytest
from rich.console import Console

from qdisclab.campaign.engine import sweep
from qdisclab.campaign.spec import loads_campaign
from qdisclab.campaign.store import ResultStore
from test_campaign_sweep import starts, write_fake_program

START_TIMEOUT_S = 60
STOP_TIMEOUT_S = 15


def stop(process: subprocess.Popen) -> None:
    """Terminate, then kill after a bounded wait."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=STOP_TIMEOUT_S)


@pytest.fixture
def dask_cluster(tmp_path):
    """Address of a scheduler on 127.0.0.1 (free port) with one two-thread worker."""
    scheduler_file = tmp_path / "scheduler.json"
    # qdisclab is installed in the venv the scheduler and worker run in; a package of that
    # name that refuses to import, first on their path, stands for a worker without it.
    hidden = tmp_path / "without-qdisclab" / "qdisclab"
    hidden.mkdir(parents=True)
    (hidden / "__init__.py").write_text('raise ImportError("no qdisclab on this worker")\n')
    env = {**os.environ, "PYTHONPATH": str(hidden.parent)}
    loopback = "127.0.0.1:0"
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1", "--port", "0",
         "--dashboard-address", loopback, "--no-dashboard", "--scheduler-file",
         str(scheduler_file), "--idle-timeout", "300"],
        cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    worker = None
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        address = None
        while address is None:
            assert scheduler.poll() is None, "the scheduler exited"
            assert time.monotonic() < deadline, "the scheduler did not start"
            if scheduler_file.exists():
                try:
                    address = json.loads(scheduler_file.read_text())["address"]
                except (ValueError, KeyError):
                    pass
            time.sleep(0.1)
        assert address.startswith("tcp://127.0.0.1:")
        worker_dir = tmp_path / "worker"
        worker_dir.mkdir()
        worker = subprocess.Popen(
            [sys.executable, "-m", "dask", "worker", address, "--host", "127.0.0.1",
             "--nthreads", "2", "--no-nanny", "--dashboard-address", loopback,
             "--no-dashboard", "--death-timeout", "60", "--local-directory", str(worker_dir),
             "--name", "test-worker"],
            cwd=worker_dir, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        # The worker's environment cannot import qdisclab: tasks must travel by value.
        probe = subprocess.run([sys.executable, "-c", "import qdisclab"], cwd=worker_dir,
                               env=env, capture_output=True, timeout=60)
        assert probe.returncode != 0
        yield address, worker
    finally:
        if worker is not None:
            stop(worker)
        stop(scheduler)


CAMPAIGN = """
name = "remote"
program = "fake-program"
metrics = ["value_mbps"]
timeout = 20
seeds = [1, 2]
[[grid]]
factors = { x = [1, 2, 3, 4, 5] }
[[grid]]
fixed = { x = 9, behave = "crash" }
"""


def test_sweep_on_a_dask_cluster(dask_cluster, tmp_path, monkeypatch):
    address, worker = dask_cluster
    program = write_fake_program(tmp_path)
    log = tmp_path / "starts.log"
    monkeypatch.setenv("QDISCLAB_FAKE_LOG", str(log))  # the worker does not see it
    campaign = loads_campaign(CAMPAIGN)
    db = tmp_path / "remote.sqlite"
    console = Console(file=io.StringIO(), width=120)

    result = sweep(campaign, program, db, cluster=address, console=console)

    assert worker.poll() is None
    assert result.cluster == address and result.workers == 2
    counts = (result.planned, result.ok, result.failed, result.timeout)
    assert counts == (12, 10, 2, 0), result.failures
    assert f"Dask: {address} (2 slots)" in console.file.getvalue()
    assert starts(log) == []  # the runs happened in the worker's environment, not ours
    with ResultStore(db) as store:
        records = store.runs()
    ok = sorted(r.metrics["value_mbps"] for r in records if r.status == "ok")
    assert ok == sorted(x * 1.5 + s / 100 for x in range(1, 6) for s in (1, 2))
    crashed = [r for r in records if r.status == "failed"]
    assert all(r.exit_code == 3 and "Simulated fatal error" in r.stderr_tail for r in crashed)

    again = sweep(campaign, program, db, cluster=address, console=console)
    assert (again.skipped_done, again.skipped_failed, again.executed) == (10, 2, 0)


def test_batched_sweep_on_a_dask_cluster(dask_cluster, tmp_path):
    """Batches travel by value too; the runs behind a crash in a batch run in a new one."""
    address, worker = dask_cluster
    program = write_fake_program(tmp_path)
    campaign = loads_campaign("points_per_process = 6\n" + CAMPAIGN)
    db = tmp_path / "remote-batched.sqlite"
    console = Console(file=io.StringIO(), width=200)

    result = sweep(campaign, program, db, cluster=address, console=console)

    assert worker.poll() is None
    assert (result.planned, result.ok, result.failed, result.timeout) == (12, 10, 2, 0)
    assert "Up to 6 points per process (points_per_process = 6)." in console.file.getvalue()
    with ResultStore(db) as store:
        records = store.runs()
    ok = sorted(r.metrics["value_mbps"] for r in records if r.status == "ok")
    assert ok == sorted(x * 1.5 + s / 100 for x in range(1, 6) for s in (1, 2))
    assert sorted(r.reason for r in records if r.status == "failed") == [
        'exit status 3: msg="Simulated fatal error", file=fake.cc, line=42'] * 2
