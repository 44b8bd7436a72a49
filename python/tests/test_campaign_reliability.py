# SPDX-License-Identifier: GPL-2.0-only
"""A sweep's driver under stress: signals, kill -9, a second driver, a broken database.

Every test runs real subprocesses (the fake program, and the driver itself as
``python -m qdisclab sweep``) and real signals; every wait is bounded.
"""

import io
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from rich.console import Console

from qdisclab.campaign import runner
from qdisclab.campaign.engine import sweep
from qdisclab.campaign.spec import loads_campaign
from qdisclab.campaign.store import ResultStore, StoreError, exclusive_writer
from test_campaign_sweep import PYTHON_DIR, ok_rows, starts, write_fake_program

# A bound on waiting for a state change, not a timing assertion: a loaded 2-core machine took
# over 60 s for a driver to start Dask and two runs (a test failed there), so it is generous.
DEADLINE_S = 240


def quiet() -> Console:
    return Console(file=io.StringIO(), width=200)


def log_pids(log: Path, kind: str = "start") -> list[int]:
    """Pids the fake program logged (``start`` lines, or ``child`` lines of ``spawn``)."""
    if not log.exists():
        return []
    return [int(line.split()[1]) for line in log.read_text().splitlines()
            if line.startswith(kind + " ")]


def gone(pid: int) -> bool:
    """True when ``pid`` no longer exists or is a zombie nobody has reaped yet."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rpartition(")")[2].split()[0] == "Z"
    except FileNotFoundError:
        return True


def wait_until(condition, what: str, timeout: float = DEADLINE_S) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.05)


def started_x(log: Path) -> list[int]:
    """The ``x`` of every run that started, in the order they logged their start."""
    return [int(re.search(r"--x=(\d+)", args).group(1)) for args in starts(log)]


def wait_for_two_hanging_runs(log: Path) -> list[int]:
    """Wait until two ``behave=hang`` runs have started; return their pids."""

    def hanging() -> list[int]:
        pids = log_pids(log)
        return [pid for pid, args in zip(pids, starts(log)) if "behave=hang" in args]

    wait_until(lambda: len(hanging()) == 2, "two runs hang")
    return hanging()


def run_dirs(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.glob(runner.RUN_DIR_PREFIX + "*"))


def default_signals() -> None:
    """In the driver before exec: the stop signals at their default action.

    A shell starts background jobs with SIGINT ignored, and Python then installs
    no Ctrl-C handler; the driver must see each signal as a terminal would send it.
    """
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)


class Driver:
    """``python -m qdisclab sweep`` in a subprocess, with its own scratch TMPDIR."""

    def __init__(self, tmp_path: Path, toml: str, db: Path, log: Path, *extra: str,
                 env: dict[str, str] | None = None):
        self.scratch = tmp_path / "scratch"
        self.scratch.mkdir(exist_ok=True)
        campaign = tmp_path / f"campaign-{len(list(tmp_path.glob('campaign-*')))}.toml"
        campaign.write_text(toml)
        program = write_fake_program(tmp_path)
        env = {**os.environ, "PYTHONPATH": str(PYTHON_DIR), "TMPDIR": str(self.scratch),
               "QDISCLAB_FAKE_LOG": str(log), "COLUMNS": "200", **(env or {})}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "qdisclab", "sweep", str(campaign), "--binary", str(program),
             "--db", str(db), *extra],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            preexec_fn=default_signals,
        )

    def finish(self, timeout: float = DEADLINE_S) -> tuple[int, str, str]:
        """Exit status, standard output and error (killed after ``timeout``)."""
        try:
            out, err = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            out, err = self.process.communicate()
            pytest.fail(f"the driver did not end in {timeout} s:\n{out}\n{err}")
        return self.process.returncode, out, err

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.communicate()


@pytest.fixture
def driver(tmp_path):
    """Start drivers; each is killed (and its pipes closed) at the end of the test."""
    started = []

    def start(toml: str, db: Path, log: Path, *extra: str,
              env: dict[str, str] | None = None) -> Driver:
        started.append(Driver(tmp_path, toml, db, log, *extra, env=env))
        return started[-1]

    yield start
    for each in started:
        each.kill()


# -- stop signals and kill -9 -----------------------------------------------------------

HANGING = """
name = "hanging"
program = "fake-program"
timeout = 600
[[grid]]
name = "quick"
factors = { x = [1, 2] }
[[grid]]
name = "hang"
fixed = { behave = "hang" }
factors = { x = [3, 4, 5, 6] }
"""


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_stop_signal_kills_the_runs_and_keeps_finished_ones(driver, tmp_path, signum):
    db, log = tmp_path / "db.sqlite", tmp_path / "starts.log"
    sweeper = driver(HANGING, db, log, "--jobs", "2")
    # Two runs hang in the two slots; the quick runs that started before them are stored, and
    # the rest stay queued. (Which runs a slot took first is up to Dask and process start-up.)
    running = wait_for_two_hanging_runs(log)
    quick = [x for x in started_x(log) if x <= 2]
    wait_until(lambda: ok_rows(db) == len(quick), "the quick runs that started are stored")
    assert not any(gone(pid) for pid in running)
    sweeper.process.send_signal(signum)
    code, out, err = sweeper.finish()

    assert code == 128 + signum, err
    assert f"Interrupted ({signal.Signals(signum).name}): finished runs are stored" in out
    assert "Traceback" not in err
    assert all(gone(pid) for pid in running)
    assert run_dirs(sweeper.scratch) == []  # each killed run removed its directory
    assert len(starts(log)) == len(quick) + 2  # the queued runs never started
    with ResultStore(db) as store:
        assert {r.params["x"]: r.status for r in store.runs()} == {x: "ok" for x in quick}
        (record,) = store.sweeps()
    assert record["interrupted"] == 1 and record["ok"] == len(quick)


def test_kill_9_of_the_driver_kills_its_runs_and_the_next_sweep_removes_their_dirs(
    driver, tmp_path, monkeypatch
):
    db, log = tmp_path / "db.sqlite", tmp_path / "starts.log"
    sweeper = driver(HANGING, db, log, "--jobs", "2")
    running = wait_for_two_hanging_runs(log)
    sweeper.process.kill()
    sweeper.finish()
    # The kernel kills them (PR_SET_PDEATHSIG) at once: no 600 s timeout to wait for.
    wait_until(lambda: all(gone(pid) for pid in running), "the runs are gone", timeout=5)
    left = run_dirs(sweeper.scratch)
    assert len(left) == 2 and all(
        name.startswith(f"{runner.RUN_DIR_PREFIX}{sweeper.process.pid}-") for name in left)

    # The next sweep on this machine (any campaign) removes them.
    monkeypatch.setattr(tempfile, "tempdir", str(sweeper.scratch))
    console = quiet()
    program = write_fake_program(tmp_path)
    result = sweep(loads_campaign('program = "fake-program"\n'), program,
                   tmp_path / "other.sqlite", jobs=1, console=console)
    assert result.ok == 1
    assert "Removed 2 scratch directories of runs whose sweep was killed" in \
        console.file.getvalue()
    assert run_dirs(sweeper.scratch) == []


def test_stale_run_dirs_only_of_dead_processes_are_removed(tmp_path):
    dead = subprocess.Popen(["true"])
    dead.wait()
    for name in (f"{dead.pid}-a", f"{dead.pid}-b", f"{os.getpid()}-c", "legacy"):
        (tmp_path / (runner.RUN_DIR_PREFIX + name)).mkdir()
    (tmp_path / f"{runner.RUN_DIR_PREFIX}{dead.pid}-file").write_text("not a directory")
    assert runner.remove_stale_run_dirs(str(tmp_path)) == 2
    assert run_dirs(tmp_path) == sorted(
        runner.RUN_DIR_PREFIX + name for name in (f"{dead.pid}-file", f"{os.getpid()}-c",
                                                  "legacy"))


def test_timeout_kills_the_runs_whole_process_group(tmp_path, monkeypatch):
    log = tmp_path / "starts.log"
    monkeypatch.setenv("QDISCLAB_FAKE_LOG", str(log))
    program = write_fake_program(tmp_path)
    campaign = loads_campaign('program = "fake-program"\ntimeout = 2\n'
                              '[fixed]\nbehave = "spawn"\n')
    result = sweep(campaign, program, tmp_path / "db.sqlite", jobs=1, console=quiet())
    assert result.timeout == 1
    (grandchild,) = log_pids(log, "child")
    # Not a child of ours: once killed it is reaped by init, at once or nearly.
    wait_until(lambda: gone(grandchild), "the program's own child is gone", timeout=5)


# -- one writer per database ------------------------------------------------------------

SLOW = """
name = "slow"
program = "fake-program"
timeout = 60
[fixed]
sleep = 0.5
[factors]
x = [1, 2, 3, 4, 5, 6, 7, 8]
"""


def test_a_second_sweep_on_the_same_database_is_refused(driver, tmp_path):
    db, log = tmp_path / "db.sqlite", tmp_path / "starts.log"
    first = driver(SLOW, db, log, "--jobs", "1")
    wait_until(lambda: len(starts(log)) >= 1, "the first sweep runs")

    second = driver(SLOW, db, log, "--jobs", "2")
    code, _, err = second.finish()
    assert code == 1
    assert f"another sweep is writing {db}: PID {first.process.pid} on " in " ".join(err.split())
    assert "Traceback" not in err

    code, _, err = first.finish()
    assert code == 0, err
    assert len(starts(log)) == 8  # each run ran once
    with ResultStore(db) as store:
        assert [r.attempts for r in store.runs()] == [1] * 8
        assert len(store.sweeps()) == 1


def test_a_second_sweep_through_a_symlink_is_refused(driver, tmp_path):
    db, log = tmp_path / "db.sqlite", tmp_path / "starts.log"
    link = tmp_path / "elsewhere" / "link.sqlite"
    link.parent.mkdir()
    link.symlink_to(db)
    first = driver(SLOW, db, log, "--jobs", "1")
    wait_until(lambda: len(starts(log)) >= 1, "the first sweep runs")

    code, _, err = driver(SLOW, link, log, "--jobs", "2").finish()
    message = " ".join(err.split())
    assert code == 1 and "Traceback" not in err
    assert (f"another sweep is writing {link} (the file {db}): PID {first.process.pid} on"
            in message)
    code, _, err = first.finish()
    assert code == 0, err
    assert len(starts(log)) == 8  # each run ran once
    with ResultStore(db) as store:
        assert [r.attempts for r in store.runs()] == [1] * 8
        assert len(store.sweeps()) == 1


QUICK_AND_FULL = """
name = "modes"
program = "fake-program"
[factors]
x = [1, 2, 3]
[quick.params]
x = [1]
"""


@pytest.mark.parametrize("first", ["--quick", ""])
def test_quick_and_full_sweeps_into_one_database_are_refused(driver, tmp_path, first):
    db, log = tmp_path / "db.sqlite", tmp_path / "starts.log"
    code, _, err = driver(QUICK_AND_FULL, db, log, *filter(None, [first])).finish()
    assert code == 0, err
    ran = len(starts(log))
    second = "" if first else "--quick"
    code, _, err = driver(QUICK_AND_FULL, db, log, *filter(None, [second])).finish()
    message = " ".join(err.split())
    stored, other = ("quick", "full") if first else ("full", "quick")
    assert code == 1 and "Traceback" not in err
    assert f"{db} holds the {stored} sweep of 'modes'; a {other} sweep would mix" in message
    assert "campaign.sqlite and campaign-quick.sqlite" in message
    assert len(starts(log)) == ran  # nothing ran
    with ResultStore(db) as store:
        assert store.meta()["mode"] == stored and len(store.sweeps()) == 1


def test_sigterm_while_reading_the_schema_exits_143_before_anything(driver, tmp_path):
    db, log = tmp_path / "db.sqlite", tmp_path / "starts.log"
    sweeper = driver(SLOW, db, log, env={"QDISCLAB_FAKE_SCHEMA": "slow"})
    wait_until(lambda: log.exists() and "schema " in log.read_text(), "the schema is asked for")
    (pid,) = [int(line.split()[1]) for line in log.read_text().splitlines()
              if line.startswith("schema ")]
    sweeper.process.send_signal(signal.SIGTERM)
    code, out, err = sweeper.finish()
    assert code == 143, err
    assert "Traceback" not in err and "Aborted!" not in err + out
    assert "Interrupted (SIGTERM) before the first run started: nothing was run" in out
    assert starts(log) == [] and not db.exists()
    wait_until(lambda: gone(pid), "the program asked for its schema is gone", timeout=5)


BATCHED = SLOW.replace("timeout = 60\n", "timeout = 60\npoints_per_process = 4\n")


def test_sigterm_before_the_first_run_exits_143_with_the_sweep_row_finished(driver, tmp_path):
    db, log = tmp_path / "db.sqlite", tmp_path / "starts.log"
    sweeper = driver(BATCHED, db, log, "--jobs", "2",
                     env={"QDISCLAB_FAKE_BATCH_PROBE": "slow"})
    wait_until(lambda: log.exists() and "probe " in log.read_text(), "the batch probe runs")
    sweeper.process.send_signal(signal.SIGTERM)
    code, out, err = sweeper.finish()
    assert code == 143, err
    assert "Traceback" not in err and "Aborted!" not in err + out
    assert "Interrupted (SIGTERM)" in out
    assert starts(log) == []
    with ResultStore(db) as store:
        (record,) = store.sweeps()
        assert store.runs() == []
    assert record["interrupted"] == 1 and record["finished_at"] and record["ok"] == 0


def test_progress_lines_when_the_output_is_not_a_terminal(driver, tmp_path):
    db, log = tmp_path / "db.sqlite", tmp_path / "starts.log"
    long_name = "a-campaign-with-a-long-name-to-show-that-lines-do-not-wrap"
    toml = SLOW.replace("sleep = 0.5", "sleep = 1.0").replace('"slow"', f'"{long_name}"')
    code, out, err = driver(toml, db, log, "--jobs", "2", "--progress-every", "1",
                            env={"COLUMNS": "80"}).finish()
    assert code == 0, err
    lines = [line for line in out.splitlines() if line.startswith("progress: ")]
    assert len(lines) >= 3, out
    pattern = re.compile(r"progress: (\d+)/8 runs done \((\d+) ok, 0 failed, 0 timed out\),"
                         r" \d:\d\d:\d\d elapsed, ETA (\d:\d\d:\d\d|-:--:--)")
    matches = [pattern.fullmatch(line) for line in lines]
    assert all(matches), lines
    done = [int(m.group(1)) for m in matches]
    assert done == sorted(done) and done[-1] == 8 and done[0] < 8
    assert all(m.group(1) == m.group(2) for m in matches)
    # Not wrapped at 80 columns: the first line names the campaign and the database on one line.
    assert any(line.startswith(long_name) and line.endswith(str(db))
               for line in out.splitlines()), out


def test_the_lock_is_free_again_after_the_sweep(tmp_path):
    db = tmp_path / "db.sqlite"
    with exclusive_writer(db):
        with pytest.raises(StoreError, match=rf"PID {os.getpid()} on .* since "):
            with exclusive_writer(db):
                pass
    with exclusive_writer(db):
        pass


# -- a damaged or full database ---------------------------------------------------------

SMALL = """
name = "small"
program = "fake-program"
metrics = ["value_mbps"]
seeds = [1, 2, 3, 4]
[factors]
x = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
"""
RUNS = 40


def make_db(tmp_path: Path) -> Path:
    """A database holding the runs of SMALL (many pages: each row keeps its report)."""
    db = tmp_path / "db.sqlite"
    program = write_fake_program(tmp_path)
    assert sweep(loads_campaign(SMALL), program, db, jobs=2, console=quiet()).ok == RUNS
    return db


def damage_truncate(db: Path) -> None:
    """Cut off the last quarter (a copy or a disk that ran out)."""
    os.truncate(db, db.stat().st_size * 3 // 4)


def damage_overwrite(db: Path) -> None:
    """Zero a leaf page of ``runs`` in the middle of the table (rows on both sides of it)."""
    size = 4096
    data = db.read_bytes()
    leaves = [offset for offset in range(size, len(data), size)
              if data[offset] == 0x0D and b'"value_mbps"' in data[offset:offset + size]]
    assert len(leaves) >= 3
    with open(db, "r+b") as handle:
        handle.seek(leaves[len(leaves) // 2])
        handle.write(bytes(size))


def damage_replace(db: Path) -> None:
    db.write_text("these are my notes, not a database\n" * 100)


@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        (damage_truncate, "database disk image is malformed"),
        (damage_overwrite, "database disk image is malformed"),
        (damage_replace, "file is not a database"),
    ],
)
def test_a_damaged_database_is_left_alone_with_a_recipe(driver, tmp_path, damage, problem):
    db = make_db(tmp_path)
    damage(db)
    before = db.read_bytes()
    log = tmp_path / "starts.log"
    code, _, err = driver(SMALL, db, log).finish()
    message = " ".join(err.split())
    assert code == 1 and "Traceback" not in err
    assert f"Error: {db} is damaged ({problem}); it was left as it is." in message
    assert f"run `qdisc-lab salvage {db}` (it moves the file to db.sqlite.damaged" in message
    assert starts(log) == []  # refused before running anything
    assert db.read_bytes() == before


@pytest.mark.parametrize("damage", [damage_truncate, damage_overwrite])
def test_salvage_keeps_the_readable_rows_and_the_sweep_completes(tmp_path, monkeypatch, damage):
    db = make_db(tmp_path)
    with ResultStore(db) as store:
        stored = {r.run_key: r.metrics for r in store.runs()}
    damage(db)
    damaged_bytes = db.read_bytes()
    salvage = subprocess.run(
        [sys.executable, "-m", "qdisclab", "salvage", str(db)], capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(PYTHON_DIR), "COLUMNS": "200"}, timeout=60)
    assert salvage.returncode == 0, salvage.stderr
    assert Path(f"{db}.damaged").read_bytes() == damaged_bytes

    with ResultStore(db) as store:
        store.check()
        recovered = {r.run_key: r.metrics for r in store.runs()}
        assert store.meta()["campaign"] == "small"
    assert f"Salvaged {len(recovered)} runs and 1 sweep records into {db}" in salvage.stdout
    assert 0 < len(recovered) < RUNS
    assert all(stored[key] == metrics for key, metrics in recovered.items())
    log = tmp_path / "starts.log"
    monkeypatch.setenv("QDISCLAB_FAKE_LOG", str(log))
    result = sweep(loads_campaign(SMALL), write_fake_program(tmp_path), db, jobs=2,
                   console=quiet())
    assert (result.skipped_done, result.ok) == (len(recovered), RUNS - len(recovered))
    assert len(starts(log)) == RUNS - len(recovered)


def test_salvage_reads_the_rows_a_killed_driver_left_in_the_wal(tmp_path):
    db = tmp_path / "db.sqlite"
    writer = (
        "import os, sys\n"
        "from qdisclab.campaign.store import ResultStore\n"
        "store = ResultStore(sys.argv[1])\n"
        "store.conn.execute('PRAGMA wal_autocheckpoint = 0')\n"
        "for i in range(40):\n"
        "    store.record(dict(run_key=f'k{i}', campaign='c', program='p', params={'i': i},\n"
        "                      seed=1, status='ok', metrics={'m': i}))\n"
        "os._exit(0)  # like kill -9: no checkpoint, the rows stay in the -wal\n"
    )
    subprocess.run([sys.executable, "-c", writer, str(db)], check=True, timeout=60,
                   env={**os.environ, "PYTHONPATH": str(PYTHON_DIR)})
    assert Path(f"{db}-wal").stat().st_size > 40 * 100
    from qdisclab.campaign.store import salvage

    assert salvage(db) == {"runs": 40, "meta": 0, "sweeps": 0, "kept_files": 0}
    assert Path(f"{db}.damaged-wal").is_file()
    with ResultStore(db) as store:
        assert sorted(r.metrics["m"] for r in store.runs()) == list(range(40))
    with pytest.raises(StoreError, match=r"db.sqlite.damaged exists: move it away first"):
        salvage(db)


def test_a_full_database_stops_the_sweep_and_keeps_every_stored_row(tmp_path, monkeypatch):
    log = tmp_path / "starts.log"
    monkeypatch.setenv("QDISCLAB_FAKE_LOG", str(log))
    program = write_fake_program(tmp_path)
    db = tmp_path / "db.sqlite"
    campaign = loads_campaign(SMALL)
    opened = ResultStore.__init__

    def capped(self, path, **options):
        """The database may grow by 3 pages: a full disk, without filling one."""
        opened(self, path, **options)
        (pages,) = self.conn.execute("PRAGMA page_count").fetchone()
        self.conn.execute(f"PRAGMA max_page_count = {pages + 3}")

    monkeypatch.setattr(ResultStore, "__init__", capped)
    with pytest.raises(StoreError, match="database or disk is full. The runs stored so far"
                                         " are kept; free some space"):
        sweep(campaign, program, db, jobs=2, console=quiet())
    monkeypatch.setattr(ResultStore, "__init__", opened)

    with ResultStore(db) as store:
        store.check()
        kept = store.statuses()
    assert 0 < len(kept) < RUNS and set(kept.values()) == {"ok"}
    ran_before = len(starts(log))
    # Runs in flight when the write failed were killed, not left running.
    assert all(gone(pid) for pid in log_pids(log))

    result = sweep(campaign, program, db, jobs=2, console=quiet())
    assert (result.skipped_done, result.ok) == (len(kept), RUNS - len(kept))
    assert len(starts(log)) == ran_before + RUNS - len(kept)
    with ResultStore(db) as store:
        assert all(r.attempts == 1 for r in store.runs())


# -- readers on a read-only mount ---------------------------------------------------------


def test_export_reads_a_database_on_a_read_only_mount(tmp_path):
    source, mount = tmp_path / "source", tmp_path / "mount"
    source.mkdir()
    mount.mkdir()
    with ResultStore(source / "db.sqlite", write=True) as store:  # WAL: needs a -shm to read
        for i in range(3):
            store.record(dict(run_key=f"k{i}", campaign="c", program="p", params={"i": i},
                              seed=1, status="ok", metrics={"m": i}))
    assert not Path(f"{source}/db.sqlite-shm").exists()
    binds = [["mount", "--bind", str(source), str(mount)],
             ["mount", "-o", "remount,ro,bind", str(mount)]]
    if os.geteuid() != 0 or subprocess.run(binds[0], capture_output=True).returncode:
        pytest.skip("needs root and mount to make a read-only bind mount")
    try:
        if subprocess.run(binds[1], capture_output=True).returncode:
            pytest.skip("cannot remount the bind mount read-only")
        assert not os.access(mount, os.W_OK)
        out = tmp_path / "runs.csv"
        done = subprocess.run(
            [sys.executable, "-m", "qdisclab", "export", str(mount / "db.sqlite"), "--csv",
             str(out)], capture_output=True, text=True, timeout=120,
            env={**os.environ, "PYTHONPATH": str(PYTHON_DIR), "COLUMNS": "200"})
        assert done.returncode == 0, done.stdout + done.stderr
        assert "Exported 3 runs" in done.stdout
        assert out.read_text().splitlines()[0].startswith("run_key,status,seed,i,m,")
    finally:
        subprocess.run(["umount", str(mount)], check=True)
