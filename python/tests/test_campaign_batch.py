# SPDX-License-Identifier: GPL-2.0-only
"""Several runs in one process (``points_per_process``; experiment/point-batch.h).

A batched sweep must store what a sweep of one process per run stores: the same rows,
metrics reports byte for byte, failure reasons and timeouts per run; resume per run;
and fall back to one process per run where the program cannot batch (ns-3.37).
The fake program (``python/tests/fakeprog.py``) batches like PointBatch; the
tests at the end run the real red-vs-droptail of the wheel and system builds.
"""

import io
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest
from rich.console import Console

from qdisclab.campaign import runner
from qdisclab.campaign.engine import sweep
from qdisclab.campaign.spec import CampaignError, loads_campaign
from qdisclab.campaign.store import ResultStore
from qdisclab.context import REPO
from qdisclab.toolchain.build import runtime_env
from test_campaign_sweep import CONTRACT_CAMPAIGN, contract_sweep, fake, quiet, starts  # noqa: F401

#: The columns a run's row must have alike, batched or not.
SAME = ("status", "reason", "exit_code", "metrics", "stderr_tail", "params", "seed")


def wide() -> Console:
    """A console that keeps what it prints, one message a line."""
    return Console(file=io.StringIO(), width=1000)


def start_pids(log: Path) -> list[int]:
    """The pid of every point that started, in order (one process runs a batch's points)."""
    return [int(line.split()[1]) for line in log.read_text().splitlines()
            if line.startswith("start ")]


def rows(db: Path) -> dict:
    with ResultStore(db) as store:
        return {record.run_key: record for record in store.runs()}


def same_rows(one: dict, other: dict) -> None:
    assert one.keys() == other.keys()
    for key, record in one.items():
        for column in SAME:
            assert getattr(record, column) == getattr(other[key], column), (record.params, column)


def test_points_per_process_is_a_positive_integer():
    assert loads_campaign('program = "p"\n').points_per_process == 1
    assert loads_campaign('program = "p"\npoints_per_process = 20\n').points_per_process == 20
    for bad in ("0", "-3", "true", "2.5", '"20"'):
        with pytest.raises(CampaignError,
                           match=r"campaign\.points_per_process: expected an integer >= 1"):
            loads_campaign(f'program = "p"\npoints_per_process = {bad}\n')


def test_a_batched_sweep_stores_the_rows_of_one_process_per_run(contract_sweep, fake, tmp_path):
    """Crashes, aborts, timeouts and contract violations inside batches: each run's own row."""
    _, solo_db, solo, _, _ = contract_sweep
    program, log = fake
    campaign = loads_campaign("points_per_process = 4\n" + CONTRACT_CAMPAIGN)
    db = tmp_path / "batched.sqlite"
    result = sweep(campaign, program, db, jobs=2, console=quiet())
    assert (result.ok, result.failed, result.timeout) == (solo.ok, solo.failed, solo.timeout)
    assert (result.ok, result.failed, result.timeout) == (6, 14, 2)
    same_rows(rows(solo_db), rows(db))
    pids = start_pids(log)
    assert len(pids) == 22  # every run started once: none lost, none run twice
    assert len(set(pids)) < 22


BEHIND_A_CRASH = """
program = "fake-program"
metrics = ["value_mbps"]
points_per_process = 7
[[grid]]
name = "before"
factors = { x = [1, 2, 3] }
[[grid]]
name = "crash"
fixed = { x = 0, behave = "{behave}" }
[[grid]]
name = "after"
factors = { x = [4, 5, 6] }
"""


@pytest.mark.parametrize(
    "behave, reason",
    [("abort", "killed by SIGABRT: fake-program: aborting"),
     ("crash", 'exit status 3: msg="Simulated fatal error", file=fake.cc, line=42')],
)
def test_the_runs_behind_a_failed_run_run_in_a_new_process(fake, tmp_path, behave, reason):
    program, log = fake
    campaign = loads_campaign(BEHIND_A_CRASH.replace("{behave}", behave))
    result = sweep(campaign, program, tmp_path / "db.sqlite", jobs=1, console=quiet())
    assert (result.ok, result.failed) == (6, 1)
    assert result.failures == [(f"x=0 behave={behave} RngRun=1", reason)]
    pids = start_pids(log)
    assert len(pids) == 7
    assert len(set(pids[:4])) == 1 and len(set(pids[4:])) == 1 and pids[3] != pids[4]
    stored = rows(tmp_path / "db.sqlite")
    assert sorted(r.metrics["value_mbps"] for r in stored.values() if r.status == "ok") == \
        [x * 1.5 + 0.01 for x in range(1, 7)]


def test_each_run_of_a_batch_has_the_whole_timeout(fake, tmp_path):
    """Six runs of 0.4 s in one process with a 1 s timeout; a hanging one times out alone."""
    program, log = fake
    campaign = loads_campaign("""
program = "fake-program"
metrics = ["value_mbps"]
timeout = 1
points_per_process = 7
[[grid]]
fixed = { sleep = 0.4 }
factors = { x = [1, 2, 3] }
[[grid]]
fixed = { behave = "hang", x = 0 }
[[grid]]
fixed = { sleep = 0.4 }
factors = { x = [4, 5, 6] }
""")
    result = sweep(campaign, program, tmp_path / "db.sqlite", jobs=1, console=quiet())
    assert (result.ok, result.timeout) == (6, 1)
    assert result.failures == [("behave=hang x=0 RngRun=1", "timed out after 1 s")]
    pids = start_pids(log)
    assert len(pids) == 7 and len(set(pids)) == 2
    walls = [r.wall_time_s for r in rows(tmp_path / "db.sqlite").values() if r.status == "ok"]
    assert all(0.35 < wall < 1.5 for wall in walls), walls


def test_resume_runs_only_the_missing_runs_batched(fake, tmp_path):
    program, log = fake
    campaign = loads_campaign("""
program = "fake-program"
metrics = ["value_mbps"]
seeds = [1, 2]
points_per_process = 10
[factors]
x = [1, 2, 3, 4, 5, 6, 7, 8]
""")
    db = tmp_path / "db.sqlite"
    assert sweep(campaign, program, db, jobs=2, console=quiet()).ok == 16
    first = rows(db)
    missing = [run.key for run in campaign.runs()][3:8]
    with sqlite3.connect(db) as conn:
        conn.executemany("DELETE FROM runs WHERE run_key = ?", [(key,) for key in missing])
    started = len(start_pids(log))
    again = sweep(campaign, program, db, jobs=1, console=quiet())
    assert (again.skipped_done, again.ok) == (11, 5)
    rerun = starts(log)[started:]
    labels = {" ".join(run.args()) for run in campaign.runs() if run.key in missing}
    assert {args.rpartition(" --output=")[0] for args in rerun} == labels
    assert len(set(start_pids(log)[started:])) == 1
    same_rows(first, rows(db))


def test_a_program_that_cannot_batch_runs_one_process_per_run(fake, tmp_path, monkeypatch):
    program, log = fake
    monkeypatch.setenv("QDISCLAB_FAKE_NO_BATCH", "1")
    campaign = loads_campaign('program = "fake-program"\npoints_per_process = 5\n'
                              "[factors]\nx = [1, 2, 3, 4]\n")
    console = wide()
    result = sweep(campaign, program, tmp_path / "db.sqlite", jobs=1, console=console)
    assert result.ok == 4
    assert ('points_per_process = 5, but fake-program cannot run points in batches (aborted.'
            ' cond="!(IsSupported())", msg="--batch needs ns-3 >= 3.44"): one point per'
            " process.") in console.file.getvalue()
    assert len(set(start_pids(log))) == 4


# ------------------------------------------------------------------ the real example program

PROGRAM = "red-vs-droptail"


def binary(flavor: str) -> Path:
    return REPO / "build" / flavor / "examples" / PROGRAM


def needs(flavor: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(not binary(flavor).is_file(),
                              reason=f"{binary(flavor)} not built (qdisc-lab build --ns3 {flavor})")


#: Points that differ in parameters, seeds and topology size; the first comes back last.
POINTS = [
    ["--queueDisc=RED", "--window=8000", "--queueSize=16000", "--RngRun=1"],
    ["--queueDisc=FIFO", "--window=32000", "--queueSize=8000", "--RngRun=2"],
    ["--queueDisc=RED", "--window=2000", "--queueSize=64000", "--nTcp=4", "--RngRun=3"],
    ["--queueDisc=RED", "--window=64000", "--queueSize=16000", "--minTh=0.6", "--maxTh=0.85",
     "--bottleneckRate=0.5Mbps", "--nTcp=1", "--RngRun=7"],
    ["--queueDisc=FIFO", "--window=8000", "--queueSize=2000", "--nTcp=8", "--RngRun=1"],
    ["--queueDisc=RED", "--window=8000", "--queueSize=16000", "--RngRun=1"],
]


def run(flavor: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(binary(flavor)), *args], capture_output=True, text=True,
                          timeout=300, env={**os.environ, **runtime_env(flavor)})


@needs("wheel")
def test_every_point_of_a_batch_writes_the_report_of_a_process_of_its_own(tmp_path):
    lines = []
    for index, words in enumerate(POINTS):
        words = [*words, "--quick=true"]
        solo = run("wheel", *words, f"--output={tmp_path / f'solo{index}.json'}")
        assert solo.returncode == 0, solo.stderr
        lines.append("\t".join([*words, f"--output={tmp_path / f'batch{index}.json'}",
                                f"--stdout={tmp_path / f'{index}.out'}",
                                f"--stderr={tmp_path / f'{index}.err'}"]))
    (tmp_path / "batch").write_text("\n".join(lines) + "\n")
    batch = run("wheel", f"--batch={tmp_path / 'batch'}")
    assert batch.returncode == 0, batch.stderr
    reports = [(tmp_path / f"batch{i}.json").read_bytes() for i in range(len(POINTS))]
    for index, report in enumerate(reports):
        assert report == (tmp_path / f"solo{index}.json").read_bytes(), POINTS[index]
    assert reports[0] == reports[-1]
    assert len(set(reports)) == len(POINTS) - 1  # the points differ


@needs("wheel")
def test_batch_mode_names_its_misuse(tmp_path):
    extra = run("wheel", f"--batch={tmp_path / 'b'}", "--quick=true")
    assert extra.returncode != 0
    assert "--batch=FILE must be the only argument" in extra.stderr
    unreadable = run("wheel", f"--batch={tmp_path / 'none'}")
    assert unreadable.returncode != 0
    assert f"--batch={tmp_path / 'none'}: cannot read the file" in unreadable.stderr
    (tmp_path / "bad").write_text("--queueDisc=RED\t--stdout=/nonexistent/dir/out\n")
    redirect = run("wheel", f"--batch={tmp_path / 'bad'}")
    assert redirect.returncode != 0
    assert "PointBatch: cannot open --stdout=/nonexistent/dir/out" in redirect.stderr


WHEEL_CAMPAIGN = f"""
program = "{PROGRAM}"
metrics = ["total_goodput_mbps", "early_drops", "forced_drops"]
seeds = [1, 2]
timeout = 120
[fixed]
simTime = 4
warmup = 1
queueSize = 16000
[[grid]]
name = "good"
factors = {{ queueDisc = ["FIFO", "RED"], window = [2000, 32000] }}
[[grid]]
name = "bad"
fixed = {{ queueDisc = "RED", minTh = 0.8, maxTh = 0.4, window = 8000 }}
[[grid]]
name = "more"
fixed = {{ queueDisc = "RED" }}
factors = {{ nTcp = [1, 4] }}
"""


@needs("wheel")
def test_a_batched_sweep_on_the_wheel_stores_the_reports_of_solo_runs(tmp_path):
    """Byte-identical reports through the engine, and a failing point inside a batch."""
    env = runtime_env("wheel") or None
    stored = {}
    for per_process in (1, 20):
        db = tmp_path / f"{per_process}.sqlite"
        result = sweep(loads_campaign(WHEEL_CAMPAIGN), binary("wheel"), db, jobs=1, env=env,
                       points_per_process=per_process, console=quiet())
        assert (result.ok, result.failed) == (12, 2)
        stored[per_process] = rows(db)
    same_rows(stored[1], stored[20])
    with sqlite3.connect(tmp_path / "1.sqlite") as solo, \
            sqlite3.connect(tmp_path / "20.sqlite") as batched:
        query = "SELECT run_key, output FROM runs ORDER BY run_key"
        assert solo.execute(query).fetchall() == batched.execute(query).fetchall()
    bogus = [r for r in stored[20].values() if r.status == "failed"]
    assert [r.seed for r in sorted(bogus, key=lambda r: r.seed)] == [1, 2]
    for record in bogus:
        assert record.reason.startswith("killed by SIGABRT: aborted. cond=")
        assert "RED thresholds must satisfy 0 < minTh < maxTh <= 1, got minTh=0.8 maxTh=0.4" \
            in record.reason
    # A queue disc the program does not run is refused before the first run: its --schema lists
    # the choices.
    with pytest.raises(CampaignError, match=r"queueDisc = 'Bogus': not one of its choices: FIFO,"
                                            r" RED"):
        sweep(loads_campaign(WHEEL_CAMPAIGN.replace('queueDisc = "RED", minTh = 0.8, maxTh = 0.4',
                                                    'queueDisc = "Bogus"')),
              binary("wheel"), tmp_path / "bogus.sqlite", jobs=1, env=env, console=quiet())


@needs("system")
def test_on_ns3_37_batch_mode_refuses_and_the_sweep_runs_one_process_per_run(tmp_path):
    (tmp_path / "empty").write_text("")
    probe = run("system", f"--batch={tmp_path / 'empty'}")
    assert probe.returncode != 0
    assert "--batch needs ns-3 >= 3.44 (RngSeedManager::ResetNextStreamIndex); on ns-3 3.37" \
        in probe.stderr
    assert runner.batch_support(str(binary("system"))).startswith("aborted. cond=")
    campaign = loads_campaign(f'program = "{PROGRAM}"\npoints_per_process = 4\n'
                              'metrics = ["total_goodput_mbps"]\n'
                              "[fixed]\nsimTime = 3\nwarmup = 1\n"
                              '[factors]\nqueueDisc = ["FIFO", "RED"]\n')
    console = wide()
    result = sweep(campaign, binary("system"), tmp_path / "db.sqlite", jobs=1, console=console)
    assert result.ok == 2
    assert "cannot run points in batches" in console.file.getvalue()
    assert "one point per process" in console.file.getvalue()
