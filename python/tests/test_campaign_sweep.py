# SPDX-License-Identifier: GPL-2.0-only
"""Sweeps of a fake example program on the embedded Dask cluster.

The fake program (``python/tests/fakeprog.py``) writes a valid metrics report,
or crashes, hangs, or breaks the contract when told to; it logs each start to
``$QDISCLAB_FAKE_LOG`` so the tests can count the runs that really ran.
"""

import csv
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

import fakeprog
from qdisclab.campaign.engine import sweep
from qdisclab.campaign.spec import CampaignError, loads_campaign
from qdisclab.campaign.store import ResultStore

PYTHON_DIR = Path(__file__).resolve().parents[1]


def write_fake_program(directory: Path) -> Path:
    """An executable running fakeprog.py (without importing the qdisclab package)."""
    path = directory / "fake-program"
    path.write_text(
        f"#!{sys.executable}\n"
        "import runpy\n"
        f"runpy.run_path({str(Path(fakeprog.__file__))!r}, run_name='__main__')\n",
        encoding="utf-8",
    )
    path.chmod(0o755)
    return path


@pytest.fixture
def fake(tmp_path, monkeypatch):
    """(program path, start log path); the log is set in the environment."""
    log = tmp_path / "starts.log"
    monkeypatch.setenv("QDISCLAB_FAKE_LOG", str(log))
    return write_fake_program(tmp_path), log


def starts(log: Path) -> list[str]:
    """The argument lists of the runs that started, in order."""
    if not log.exists():
        return []
    return [line.split(" ", 2)[2] for line in log.read_text().splitlines()
            if line.startswith("start ")]


def quiet() -> Console:
    return Console(file=io.StringIO(), width=120)


# The timeout is well above a run's start (a Python process: a second or more on a loaded
# machine), so only the `hang` runs time out, however busy the machine.
CONTRACT_CAMPAIGN = """
program = "fake-program"
metrics = ["value_mbps"]
timeout = 5
seeds = [1, 2]
[[grid]]
name = "good"
factors = { x = [1, 2, 3] }
[[grid]]
name = "bad"
fixed = { x = 0 }
factors = { behave = ["crash", "abort", "hang", "nojson", "badjson", "badschema",
                      "nanmetric", "nometric"] }
"""


@pytest.fixture(scope="module")
def contract_sweep(tmp_path_factory):
    """One sweep of CONTRACT_CAMPAIGN, shared by the tests that only read its results."""
    directory = tmp_path_factory.mktemp("contract")
    program = write_fake_program(directory)
    log = directory / "starts.log"
    campaign = loads_campaign(CONTRACT_CAMPAIGN)
    db = directory / "contract.sqlite"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("QDISCLAB_FAKE_LOG", str(log))
        result = sweep(campaign, program, db, jobs=2, console=quiet())
    with ResultStore(db) as store:
        records = {(r.params.get("behave", "ok"), r.params["x"], r.seed): r for r in store.runs()}
    return campaign, db, result, records, log


def copy_db(source: Path, target: Path) -> Path:
    """A copy of a results database (SQLite's online backup)."""
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    return target


def test_failures_and_timeouts_are_recorded_and_others_unaffected(contract_sweep):
    campaign, _, result, records, log = contract_sweep
    assert (result.planned, result.ok, result.failed, result.timeout) == (22, 6, 14, 2)
    assert len(records) == 22 and len(starts(log)) == 22
    for x in (1, 2, 3):
        for seed in (1, 2):
            record = records[("ok", x, seed)]
            assert record.status == "ok" and record.exit_code == 0
            assert record.metrics == {"value_mbps": x * 1.5 + seed / 100, "seed": seed}
            assert record.ns3_version == "3.37-fake"
            assert record.reason is None
    crash = records[("crash", 0, 1)]
    assert crash.status == "failed" and crash.exit_code == 3
    assert crash.reason.startswith("exit status 3: msg=\"Simulated fatal error\"")
    assert "something went wrong" in crash.stderr_tail
    assert crash.metrics is None
    abort = records[("abort", 0, 2)]
    assert abort.status == "failed" and abort.reason.startswith("killed by SIGABRT")
    hang = records[("hang", 0, 1)]
    assert hang.status == "timeout" and hang.reason == "timed out after 5 s"
    assert 1 <= hang.wall_time_s < 10
    for record in records.values():
        assert record.git_rev and record.command.endswith(f"--RngRun={record.seed}")
        assert record.run_key in {run.key for run in campaign.runs()}


@pytest.mark.parametrize(
    ("behave", "reason"),
    [
        ("nojson", "exited 0 but wrote no metrics file"),
        ("badjson", "metrics contract: metrics report: not valid JSON"),
        ("badschema", "metrics contract: metrics report: schema is 'something-else/0'"),
        ("nanmetric", "metrics contract: metrics report: metric values must be finite numbers"
                      " or null: value_mbps='fast'"),
        ("nometric", "metrics contract: missing campaign metric(s) value_mbps"),
    ],
)
def test_contract_violations_fail_with_the_reason(contract_sweep, behave, reason):
    _, _, _, records, _ = contract_sweep
    for seed in (1, 2):
        record = records[(behave, 0, seed)]
        assert record.status == "failed"
        assert record.exit_code == 0
        assert record.reason.startswith(reason), record.reason


def test_rerun_skips_everything_then_retry_failed_reruns_failures(contract_sweep, fake, tmp_path):
    campaign, shared_db, _, _, _ = contract_sweep
    program, log = fake
    db = copy_db(shared_db, tmp_path / "copy.sqlite")
    before = len(starts(log))
    assert before == 0
    again = sweep(campaign, program, db, jobs=2, console=quiet())
    assert (again.skipped_done, again.skipped_failed, again.executed) == (6, 16, 0)
    assert len(starts(log)) == before

    retried = sweep(campaign, program, db, jobs=2, retry_failed=True, console=quiet())
    assert (retried.skipped_done, retried.executed) == (6, 16)
    assert (retried.failed, retried.timeout) == (14, 2)
    assert len(starts(log)) == before + 16
    assert all("behave=" in line for line in starts(log)[before:])
    with ResultStore(db) as store:
        attempts = {r.params.get("behave", "ok"): r.attempts for r in store.runs()}
        assert attempts["ok"] == 1 and attempts["crash"] == 2
        assert len(store.sweeps()) == 3  # the shared sweep, and the two here
        # The flat view has a column per parameter and campaign metric.
        row = store.conn.execute(
            "SELECT p_x, m_value_mbps FROM runs_flat WHERE status = 'ok' ORDER BY m_value_mbps"
        ).fetchone()
        assert tuple(row) == (1, 1.51)


def test_export_csv(contract_sweep, tmp_path):
    _, db, _, records, _ = contract_sweep
    out = tmp_path / "runs.csv"
    with ResultStore(db) as store:
        assert store.export_csv(out) == 22
    with open(out, newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 22
    header = list(rows[0])
    assert header[:3] == ["run_key", "status", "seed"]
    assert {"x", "behave", "value_mbps", "metric.seed", "reason", "git_rev"} <= set(header)
    ok = [r for r in rows if r["status"] == "ok"]
    assert sorted(float(r["value_mbps"]) for r in ok) == sorted(
        x * 1.5 + s / 100 for x in (1, 2, 3) for s in (1, 2))
    assert {r["behave"] for r in ok} == {""}


def test_missing_binary_fails_every_run_with_a_reason(tmp_path):
    campaign = loads_campaign('program = "fake-program"\n[factors]\nx = [1, 2]\n')
    missing = tmp_path / "nowhere" / "fake-program"
    result = sweep(campaign, missing, tmp_path / "db.sqlite", jobs=1, console=quiet())
    assert result.failed == 2
    assert "cannot start" in result.failures[0][1]


def test_wrong_program_in_report_is_a_contract_failure(fake, tmp_path):
    program, _ = fake
    campaign = loads_campaign('program = "other-program"\n[factors]\nx = [1]\n')
    result = sweep(campaign, program, tmp_path / "db.sqlite", jobs=1, console=quiet())
    assert result.failed == 1
    assert "report is from program 'fake-program', expected 'other-program'" in \
        result.failures[0][1]


def test_a_database_holds_one_campaign(fake, tmp_path):
    program, _ = fake
    db = tmp_path / "db.sqlite"
    sweep(loads_campaign('name = "a"\nprogram = "fake-program"\n'), program, db, jobs=1,
          console=quiet())
    from qdisclab.campaign.spec import CampaignError

    with pytest.raises(CampaignError, match="holds campaign 'a', not 'b'"):
        sweep(loads_campaign('name = "b"\nprogram = "fake-program"\n'), program, db, jobs=1,
              console=quiet())


RESUME_CAMPAIGN = """
name = "resume"
program = "fake-program"
metrics = ["value_mbps"]
timeout = 30
seeds = [1, 2]
[fixed]
sleep = 0.3
[factors]
x = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
"""


def ok_rows(db: Path) -> int:
    """Runs stored as ok, read without disturbing a writer (0 before the table exists)."""
    if not db.exists():
        return 0
    conn = sqlite3.connect(db, timeout=5)
    try:
        return conn.execute("SELECT count(*) FROM runs WHERE status = 'ok'").fetchone()[0]
    except sqlite3.OperationalError:
        return 0
    finally:
        conn.close()


def test_resume_after_kill_9_reruns_only_missing_runs(fake, tmp_path):
    program, log = fake
    toml = tmp_path / "resume.toml"
    toml.write_text(RESUME_CAMPAIGN)
    db = tmp_path / "resume.sqlite"
    scratch = tmp_path / "tmp"  # where the runs killed with the sweep leave their files
    scratch.mkdir()
    env = {**os.environ, "PYTHONPATH": str(PYTHON_DIR), "TMPDIR": str(scratch)}
    sweeper = subprocess.Popen(
        [sys.executable, "-m", "qdisclab", "sweep", str(toml), "--binary", str(program),
         "--db", str(db), "--jobs", "2"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while ok_rows(db) < 6:
            assert sweeper.poll() is None, sweeper.stderr.read().decode()
            assert time.monotonic() < deadline, "the sweep made no progress"
            time.sleep(0.02)
        sweeper.send_signal(signal.SIGKILL)
    finally:
        sweeper.kill()
        sweeper.wait(timeout=30)
        sweeper.stderr.close()
    assert sweeper.returncode == -signal.SIGKILL

    campaign = loads_campaign(RESUME_CAMPAIGN)
    all_keys = {run.key for run in campaign.runs()}
    with ResultStore(db) as store:
        stored = store.statuses()
    assert 6 <= len(stored) < 24, "kill the sweep midway"
    assert set(stored.values()) == {"ok"} and set(stored) <= all_keys
    started_before = len(starts(log))

    result = sweep(campaign, program, db, jobs=2, console=quiet())
    assert result.skipped_done == len(stored)
    assert result.ok == 24 - len(stored) and result.executed == 24 - len(stored)
    rerun = starts(log)[started_before:]
    assert len(rerun) == 24 - len(stored)
    done_before = {run.label() for run in campaign.runs() if run.key in stored}
    assert not {args for args in rerun} & {
        " ".join(run.args()) for run in campaign.runs() if run.key in stored}
    assert len(done_before) == len(stored)
    with ResultStore(db) as store:
        final = store.runs()
    assert len(final) == 24 and {r.status for r in final} == {"ok"}
    assert {r.run_key for r in final} == all_keys
    assert all(r.attempts == 1 for r in final)
    values = sorted(r.metrics["value_mbps"] for r in final)
    assert values == sorted(x * 1.5 + s / 100 for x in range(1, 13) for s in (1, 2))


def test_sweep_command_line(fake, tmp_path):
    program, _ = fake
    toml = tmp_path / "cli.toml"
    toml.write_text('name = "cli"\nprogram = "fake-program"\nmetrics = ["value_mbps"]\n'
                    "[factors]\nx = [1, 2]\nbehave = [\"ok\", \"crash\"]\n")
    env = {**os.environ, "PYTHONPATH": str(PYTHON_DIR), "COLUMNS": "200"}
    command = [sys.executable, "-m", "qdisclab", "sweep", str(toml), "--binary", str(program),
               "--db", str(tmp_path / "cli.sqlite"), "--jobs", "2",
               "--csv", str(tmp_path / "cli.csv")]
    first = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert first.returncode == 1, first.stderr  # two runs crashed
    for text in ("runs in campaign", "done", "failed", "Engine overhead:", "ms per run",
                 "Exported 4 runs"):
        assert text in first.stdout, first.stdout
    second = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert "2 already done, 2 failed before" in second.stdout
    assert second.returncode == 1
    data = json.loads(json.dumps(list(csv.DictReader(open(tmp_path / "cli.csv")))))
    assert sorted(row["status"] for row in data) == ["failed", "failed", "ok", "ok"]


PARTS_CAMPAIGN = """
program = "fake-program"
metrics = ["value_mbps"]
seeds = [1]
[[grid]]
name = "low"
factors = { x = [1, 2] }
[[grid]]
name = "high"
factors = { x = [2, 3, 4] }
"""


def test_a_campaign_swept_by_parts_is_stored_as_the_whole(fake, tmp_path):
    """``grids`` runs only the named sub-grids' runs; each keeps the grid name the whole
    campaign gives it (x = 2 is low's, though high makes it too); the rest follows later and
    the database ends as one whole sweep's."""
    program, log = fake
    campaign = loads_campaign(PARTS_CAMPAIGN)
    assert [(r.grid, r.params["x"]) for r in campaign.runs(["high"])] == \
        [("low", 2), ("high", 3), ("high", 4)]
    db = tmp_path / "parts.sqlite"
    first = sweep(campaign, program, db, jobs=2, grids=["high"], console=quiet())
    assert (first.planned, first.ok) == (3, 3)
    assert sorted(s.split(" --output")[0] for s in starts(log)) == \
        ["--x=2 --RngRun=1", "--x=3 --RngRun=1", "--x=4 --RngRun=1"]
    rest = sweep(campaign, program, db, jobs=2, console=quiet())
    assert (rest.planned, rest.skipped_done, rest.ok) == (4, 3, 1)
    assert len(starts(log)) == 4
    with ResultStore(db) as store:
        stored = sorted((r.grid, r.params["x"]) for r in store.runs())
    assert stored == [("high", 3), ("high", 4), ("low", 1), ("low", 2)]
    whole = tmp_path / "whole.sqlite"
    sweep(campaign, program, whole, jobs=2, console=quiet())
    with ResultStore(whole) as store:
        assert sorted((r.grid, r.params["x"]) for r in store.runs()) == stored


def test_an_unknown_sub_grid_is_named_with_the_campaigns_sub_grids(fake, tmp_path):
    program, log = fake
    campaign = loads_campaign(PARTS_CAMPAIGN)
    with pytest.raises(CampaignError, match=r"no sub-grid 'middle' \(its sub-grids: low, high\)"):
        sweep(campaign, program, tmp_path / "x.sqlite", grids=["middle"], console=quiet())
    assert starts(log) == []
    env = {**os.environ, "PYTHONPATH": str(PYTHON_DIR), "COLUMNS": "200"}
    toml = tmp_path / "parts.toml"
    toml.write_text('name = "parts"' + PARTS_CAMPAIGN)
    cli = subprocess.run([sys.executable, "-m", "qdisclab", "sweep", str(toml), "--binary",
                          str(program), "--db", str(tmp_path / "cli.sqlite"), "--grid", "low",
                          "--grid", "nope"], env=env, capture_output=True, text=True, timeout=120)
    assert cli.returncode == 1 and "no sub-grid 'nope'" in cli.stderr, cli.stderr
