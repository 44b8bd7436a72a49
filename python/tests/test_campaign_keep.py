# SPDX-License-Identifier: GPL-2.0-only
"""Files a campaign keeps per run (``keep``, ``{run}``): beside the database, one folder per run.

The fake program (``python/tests/fakeprog.py``) writes pcap and FlowMonitor files like the
examples' ``--pcap=PREFIX`` and ``--flowMonitor=FILE``; the last test keeps the traces of
the real red-vs-droptail of the system build.
"""

import csv
import io
import json
import sqlite3
import tempfile
import threading
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pandas as pd
import pytest
import xarray as xr
from click.testing import CliRunner
from rich.console import Console

from fakeprog import flow_monitor_text, pcap_bytes
from qdisclab.campaign import children, engine, runner
from qdisclab.campaign.engine import KeptFiles, sweep
from qdisclab.campaign.export import runs_frame
from qdisclab.campaign.spec import CampaignError, loads_campaign, run_key
from qdisclab.campaign.store import ResultStore, kept_root, salvage
from qdisclab.cli import main
from qdisclab.context import REPO
from qdisclab.toolchain.build import runtime_env
from test_campaign_sweep import fake, starts  # noqa: F401

PCAPS = ["trace-1-1.pcap", "trace-2-1.pcap"]

CAMPAIGN = """
program = "fake-program"
metrics = ["value_mbps"]
timeout = 60
seeds = [1, 2]
keep = ["*.pcap", "flowmon.xml"]
[[grid]]
name = "traced"
fixed = { pcap = "{run}/trace", flowMonitor = "{run}/flowmon.xml" }
factors = { x = [1, 2] }
[[grid]]
name = "crash"
fixed = { x = 0, behave = "crash", pcap = "{run}/trace" }
keep = ["*.pcap", "stderr"]
[[grid]]
name = "plain"
keep = []
fixed = { x = 7 }
"""


def console() -> Console:
    return Console(file=io.StringIO(), width=1000)


@pytest.fixture
def scratch(tmp_path, monkeypatch) -> Path:
    """The runs' scratch directory ($TMPDIR), to check that nothing is left in it."""
    directory = tmp_path / "scratch"
    directory.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(directory))
    return directory


def run_dirs(scratch: Path) -> list[str]:
    """The runs' scratch directories left in ``scratch``."""
    return [p.name for p in scratch.iterdir() if p.name.startswith(runner.RUN_DIR_PREFIX)]


def records(db: Path) -> dict:
    with ResultStore(db) as store:
        return {record.run_key: record for record in store.runs()}


def kept_rows(db: Path) -> dict:
    with ResultStore(db) as store:
        return store.kept_files()


def folder_files(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def expected_files(run) -> dict[str, bytes]:
    """What the fake program writes for ``run`` and the campaign keeps (without the note)."""
    x, seed = str(run.params["x"]), str(run.seed)
    files = {name: pcap_bytes(node, x, seed) for node, name in zip((1, 2), PCAPS, strict=True)}
    if run.grid == "traced":
        files["flowmon.xml"] = flow_monitor_text(x, seed).encode()
    return files


# ------------------------------------------------------------------------- the campaign file


def test_keep_is_the_campaigns_unless_a_sub_grid_names_its_own():
    campaign = loads_campaign(CAMPAIGN)
    assert [grid.keep for grid in campaign.grids] == [
        ("*.pcap", "flowmon.xml"), ("*.pcap", "stderr"), ()]
    assert campaign.keeps_files
    by_grid = {}
    for run in campaign.runs():
        by_grid.setdefault(run.grid, set()).add(run.keep)
    assert by_grid == {"traced": {("*.pcap", "flowmon.xml")}, "crash": {("*.pcap", "stderr")},
                       "plain": {()}}
    assert not loads_campaign('program = "p"\nfixed = { x = 1 }\n').keeps_files


def test_a_run_two_sub_grids_share_keeps_what_either_keeps():
    campaign = loads_campaign("""
program = "p"
[[grid]]
fixed = { x = 1 }
keep = ["a.txt", "*.pcap"]
[[grid]]
factors = { x = [1, 2] }
keep = ["*.pcap", "b.txt"]
""")
    assert [(run.params, run.keep) for run in campaign.runs()] == [
        ({"x": 1}, ("a.txt", "*.pcap", "b.txt")), ({"x": 2}, ("*.pcap", "b.txt"))]


def test_keep_leaves_the_run_keys_as_they_were():
    plain = 'program = "p"\nseeds = [1, 2]\n[factors]\nx = [1, 2]\n'
    kept = 'keep = ["stderr"]\n' + plain
    assert [run.key for run in loads_campaign(kept).runs()] == \
        [run.key for run in loads_campaign(plain).runs()] == \
        [run_key("p", {"x": x}, seed) for seed in (1, 2) for x in (1, 2)]
    traced = loads_campaign('keep = ["*.pcap"]\n' + plain.replace("[factors]",
                                                                   '[fixed]\npcap = "{run}/t"\n'
                                                                   "[factors]"))
    assert traced.runs()[0].key == run_key("p", {"pcap": "{run}/t", "x": 1}, 1)
    assert traced.runs()[0].args() == ["--pcap={run}/t", "--x=1", "--RngRun=1"]


@pytest.mark.parametrize("pattern, message", [
    ('"/tmp/x.pcap"', r"'/tmp/x\.pcap' is an absolute path; a pattern names files in the run's"
                      r" directory, relative to it"),
    ('"~/x.pcap"', r"'~/x\.pcap' is an absolute path"),
    ('"../x.pcap"', r"'\.\./x\.pcap' leaves the run's directory \('\.\.'\)"),
    ('"a/../../b"', r"'a/\.\./\.\./b' leaves the run's directory"),
    ('""', r"empty file pattern"),
    ('" "', r"empty file pattern"),
    ('"."', r"'\.' names the run's directory, not files in it"),
    ("3", r"expected file patterns \(strings\), got int"),
])
def test_a_bad_pattern_is_refused_naming_it(pattern, message):
    with pytest.raises(CampaignError, match=r"^campaign\.keep: " + message):
        loads_campaign(f'program = "p"\nkeep = [{pattern}]\n')
    with pytest.raises(CampaignError, match=r"^\[\[grid\]\] #2\.keep: " + message):
        loads_campaign(f'program = "p"\n[[grid]]\nname = "a"\n[[grid]]\nkeep = [{pattern}]\n')


def test_keep_must_be_a_list_of_patterns():
    with pytest.raises(CampaignError, match=r"campaign\.keep: expected a list of file patterns,"
                                            r" got int"):
        loads_campaign('program = "p"\nkeep = 5\n')
    assert loads_campaign('program = "p"\nkeep = "*.pcap"\n').grids[0].keep == ("*.pcap",)


def test_run_dir_needs_keep_and_a_name_in_it():
    with pytest.raises(CampaignError, match=(
            r"^\[\[grid\]\] #2: pcap = '\{run\}/t' writes into the run's directory \(\{run\}\),"
            r" but the grid keeps no files: add keep = \[\.\.\.\]")):
        loads_campaign('program = "p"\nkeep = ["*"]\n[[grid]]\nfixed = { pcap = "{run}/t" }\n'
                       '[[grid]]\nkeep = []\nfixed = { pcap = "{run}/t", x = 1 }\n')
    for value in ("{run}", "{run}trace", "{run}/", "a,{run}/x,{run}"):
        with pytest.raises(CampaignError, match=(
                rf"^campaign: pcap = '{value}': \{{run\}} is the run's directory; name a file"
                r" or prefix in it, e\.g\. \"\{run\}/trace\"")):
            loads_campaign(f'program = "p"\nkeep = ["*"]\nfixed = {{ pcap = "{value}" }}\n')
    with pytest.raises(CampaignError, match=r"^\[quick\.params\]: pcap = '\{run\}'"):
        loads_campaign('program = "p"\nkeep = ["*"]\nfixed = { pcap = "{run}/t" }\n'
                       '[quick.params]\npcap = "{run}"\n')


# ------------------------------------------------------------------------------- the runner


def test_keep_files_moves_the_matching_files_and_replaces_the_folder(tmp_path):
    run_dir, folder = tmp_path / "run", tmp_path / "db-runs" / "key"
    (run_dir / "sub" / "deep").mkdir(parents=True)
    (run_dir / "a.pcap").write_bytes(b"12345")
    (run_dir / "b.pcap").write_bytes(b"1")
    (run_dir / "sub" / "deep" / "c.txt").write_bytes(b"123")
    (run_dir / "sub" / "d.log").write_bytes(b"12")
    (run_dir / runner.RUN_NOTE).write_text("{}")
    outside = tmp_path / "outside.pcap"
    outside.write_bytes(b"not the run's")
    (run_dir / "link.pcap").symlink_to(outside)
    folder.mkdir(parents=True)
    (folder / "old.pcap").write_bytes(b"an earlier attempt's")

    kept = runner.keep_files(str(run_dir), ["*.pcap", "sub/**/*.txt", "*.json", "none*"],
                             str(folder))
    assert kept == {"dir": str(folder), "files": [["a.pcap", 5], ["b.pcap", 1],
                                                  ["sub/deep/c.txt", 3]],
                    "unmatched": ["*.json", "none*"], "error": ""}
    assert folder_files(folder) == {"a.pcap": b"12345", "b.pcap": b"1",
                                    "sub/deep/c.txt": b"123"}
    assert sorted(p.name for p in run_dir.iterdir()) == ["link.pcap", runner.RUN_NOTE, "sub"]
    assert not Path(f"{folder}.partial").exists()
    # Nothing matches: the earlier attempt's folder goes.
    assert runner.keep_files(str(run_dir), ["*.pcap"], str(folder))["files"] == []
    assert not folder.exists()


def test_keep_files_says_why_it_cannot_keep(tmp_path):
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "a.pcap").write_bytes(b"1")
    (tmp_path / "db-runs").write_text("a file where the folders should go")
    folder = tmp_path / "db-runs" / "key"
    kept = runner.keep_files(str(run_dir), ["*.pcap"], str(folder))
    assert kept["files"] == []
    assert kept["error"] == (f"cannot keep its files in {folder}: {folder}.partial:"
                             " Not a directory")


def test_a_run_cut_short_by_a_stopping_sweep_keeps_nothing(fake, tmp_path, scratch):
    program, log = fake
    folder = tmp_path / "db-runs" / "key"
    outcome = {}
    children.reset()

    def work():
        outcome.update(runner.execute_run(
            [str(program), "--behave=hang", "--pcap={run}/trace", "--RngRun=1"], 60,
            track=True, keep=[["*.pcap"], str(folder)]))

    thread = threading.Thread(target=work)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while not list(scratch.glob("*/trace-2-1.pcap")) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert list(scratch.glob("*/trace-2-1.pcap")), "the run did not start"
        assert children.kill_all() == 1
        thread.join(60)
    finally:
        children.reset()
    assert outcome["returncode"] == -9 and outcome["kept"] is None
    assert not folder.exists() and run_dirs(scratch) == []


# -------------------------------------------------------------------------------- the sweep


def test_a_sweep_keeps_each_runs_files_beside_the_database(fake, tmp_path, scratch):
    program, _ = fake
    campaign = loads_campaign(CAMPAIGN)
    db = tmp_path / "db.sqlite"
    out = console()
    result = sweep(campaign, program, db, jobs=2, console=out)
    assert (result.ok, result.failed, result.timeout) == (6, 2, 0)
    root = tmp_path / "db-runs"
    assert kept_root(db) == root
    runs = {run.key: run for run in campaign.runs()}
    keeping = {key for key, run in runs.items() if run.grid != "plain"}
    assert sorted(p.name for p in root.iterdir()) == sorted(keeping)
    stored, kept = records(db), kept_rows(db)
    for key, run in runs.items():
        record = stored[key]
        if run.grid == "plain":
            assert record.status == "ok" and record.kept_dir is None and key not in kept
            continue
        folder = root / key
        assert record.kept_dir == f"db-runs/{key}"
        files = folder_files(folder)
        note = json.loads(files.pop(runner.RUN_NOTE))
        want = expected_files(run)
        if run.grid == "crash":
            assert b"fake-program: something went wrong" in files["stderr"]
            want["stderr"] = files["stderr"]
        assert files == want
        assert kept[key] == sorted((name, len(data)) for name, data in want.items())
        assert note["files"] == [{"name": name, "bytes": size} for name, size in kept[key]]
        assert (note["run_key"], note["grid"], note["seed"], note["params"]) == \
            (key, run.grid, run.seed, run.params)
        assert (note["status"], note["reason"]) == (record.status, record.reason)
        assert note["command"] == record.command
        assert f"--pcap={folder}/trace" in record.command
        if run.grid == "crash":
            assert record.status == "failed" and record.reason.startswith("exit status 3")
        else:
            assert record.status == "ok"
            assert record.metrics["value_mbps"] == run.params["x"] * 1.5 + run.seed / 100
    assert run_dirs(scratch) == []  # every run's scratch directory is gone
    text = out.file.getvalue()
    assert (f"Keeping the files of 6 runs that match *.pcap, flowmon.xml, stderr in {root}"
            in text)
    crash = next(key for key, run in runs.items() if run.grid == "crash" and run.seed == 1)
    assert (f'failed x=0 behave=crash pcap={{run}}/trace RngRun=1: exit status 3: msg="Simulated'
            f' fatal error", file=fake.cc, line=42 (its files: db-runs/{crash})') in text
    total = sum(size for files in kept.values() for _, size in files)
    assert (result.kept.runs, result.kept.files, result.kept.bytes) == (6, 18, total)
    assert "keep: no run had a file" not in text


def test_kept_files_survive_resume_and_a_retry_replaces_them(fake, tmp_path, scratch):
    program, log = fake
    campaign = loads_campaign(CAMPAIGN)
    db = tmp_path / "db.sqlite"
    sweep(campaign, program, db, jobs=2, console=console())
    root = kept_root(db)
    before = {path: path.stat().st_mtime_ns for path in root.rglob("*")}
    rows_before, kept_before = records(db), kept_rows(db)
    again = sweep(campaign, program, db, jobs=2, console=console())
    assert again.executed == 0 and len(starts(log)) == 8
    assert {path: path.stat().st_mtime_ns for path in root.rglob("*")} == before
    assert kept_rows(db) == kept_before
    assert records(db) == rows_before

    crashed = [key for key, r in rows_before.items() if r.status == "failed"]
    (root / crashed[0] / "from-an-earlier-attempt.txt").write_text("stale")
    retry = sweep(campaign, program, db, jobs=2, retry_failed=True, console=console())
    assert (retry.executed, retry.failed) == (2, 2) and len(starts(log)) == 10
    assert kept_rows(db) == kept_before  # same names and sizes, from the new attempt
    after = records(db)
    for key in crashed:
        assert after[key].attempts == 2
        assert sorted(folder_files(root / key)) == sorted(
            [runner.RUN_NOTE, "stderr", *PCAPS])
    for key in set(rows_before) - set(crashed):
        assert after[key] == rows_before[key]
    assert {path: path.stat().st_mtime_ns for path in root.rglob("*")
            if path.parent.name not in crashed and path.name not in crashed} == \
        {path: mtime for path, mtime in before.items()
         if path.parent.name not in crashed and path.name not in crashed}


def test_each_run_of_a_batch_keeps_its_own_files(fake, tmp_path, scratch):
    program, log = fake
    stored = {}
    for per_process in (1, 8):
        db = tmp_path / f"{per_process}.sqlite"
        result = sweep(loads_campaign(CAMPAIGN), program, db, jobs=1,
                       points_per_process=per_process, console=console())
        assert (result.ok, result.failed) == (6, 2)
        root = kept_root(db)
        stored[per_process] = {folder.name: folder_files(folder) for folder in root.iterdir()}
        for files in stored[per_process].values():
            note = json.loads(files.pop(runner.RUN_NOTE))
            assert note["command"].count(f"{root}/{note['run_key']}/trace") == 1
    pids = [int(line.split()[1]) for line in log.read_text().splitlines()
            if line.startswith("start ")]
    assert len(pids) == 16 and len(set(pids[8:])) < 8  # the second sweep ran batches
    runs = {run.key: run for run in loads_campaign(CAMPAIGN).runs()}
    assert stored[1].keys() == stored[8].keys()
    for key, files in stored[8].items():
        stderr = files.pop("stderr", None)
        assert files == expected_files(runs[key])  # its own x and seed, not a neighbour's
        assert (stderr is None) == (runs[key].grid == "traced")
        assert stderr == stored[1][key].get("stderr")


def test_a_run_that_cannot_keep_its_files_fails_saying_why(fake, tmp_path, scratch):
    program, _ = fake
    db = tmp_path / "db.sqlite"
    kept_root(db).write_text("a file where the folders should go")
    result = sweep(loads_campaign(CAMPAIGN), program, db, jobs=2, console=console())
    assert (result.ok, result.failed) == (2, 6)
    for record in records(db).values():
        folder = kept_root(db) / record.run_key
        if record.grid == "plain":
            assert record.status == "ok"
        elif record.grid == "traced":
            assert record.status == "failed" and record.kept_dir is None
            assert record.reason == (f"cannot keep its files in {folder}: {folder}.partial:"
                                     " Not a directory")
        else:
            assert record.reason == ('exit status 3: msg="Simulated fatal error", file=fake.cc,'
                                     f" line=42; cannot keep its files in {folder}:"
                                     f" {folder}.partial: Not a directory")
    assert kept_rows(db) == {}


def test_disk_warning_at_the_size_per_run_so_far():
    kept = KeptFiles(Path("/r"), planned=10, matches={"*.pcap": 0})
    assert kept.disk_warning(10) is None  # nothing stored yet
    kept.add({"files": [["a.pcap", 600], ["b.pcap", 300]], "unmatched": []}, ["*.pcap"])
    kept.add({"files": [["a.pcap", 100]], "unmatched": []}, ["*.pcap"])
    # 500 B per run, 8 runs left: 4,000 B, 0.8 of 5,000 B.
    assert kept.disk_warning(5000) is None
    assert kept.disk_warning(4999) == (
        "Kept files take 500 B per run so far: the 8 runs left would need about 4.0 kB, and"
        " /r's disk has 5.0 kB free.")
    assert kept.disk_warning(1) is None  # once
    assert (kept.runs, kept.files, kept.bytes, kept.matches) == (2, 3, 1000, {"*.pcap": 2})


def test_the_sweep_warns_once_when_the_disk_would_fill(fake, tmp_path, scratch, monkeypatch):
    program, _ = fake
    monkeypatch.setattr(engine, "free_space", lambda path: 300)
    out = console()
    sweep(loads_campaign(CAMPAIGN), program, tmp_path / "db.sqlite", jobs=1, console=out)
    text = out.file.getvalue()
    assert "match *.pcap, flowmon.xml, stderr in" in text and "(300 B free there)." in text
    assert text.count("Kept files take") == 1
    assert "runs left would need about" in text and "disk has 300 B free." in text


def test_the_sweep_names_a_pattern_no_run_matched(fake, tmp_path, scratch):
    program, _ = fake
    out = console()
    sweep(loads_campaign(CAMPAIGN.replace('keep = ["*.pcap", "flowmon.xml"]',
                                          'keep = ["*.pcap", "flows.xml"]')),
          program, tmp_path / "db.sqlite", jobs=2, console=out)
    assert ("keep: no run had a file matching flows.xml (does a parameter write it in the run's"
            " directory, {run}/...?)") in out.file.getvalue()


# ----------------------------------------------------------------------- database and export


def test_export_points_to_the_kept_folders(fake, tmp_path, scratch):
    program, _ = fake
    db = tmp_path / "results" / "db.sqlite"
    sweep(loads_campaign(CAMPAIGN), program, db, jobs=2, console=console())
    out = tmp_path / "elsewhere"
    result = CliRunner().invoke(main, ["export", str(db), "--csv", str(out / "runs.csv"),
                                       "--parquet", str(out / "runs.parquet"),
                                       "--netcdf", str(out / "runs.nc")])
    assert result.exit_code == 0, result.output
    stored = records(db)
    want = {key: (f"../results/db-runs/{key}" if record.kept_dir else None)
            for key, record in stored.items()}
    assert all((out / path / runner.RUN_NOTE).is_file() for path in want.values() if path)

    with open(out / "runs.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert {row["run_key"]: row["kept_dir"] or None for row in rows} == want
    frame = pd.read_parquet(out / "runs.parquet")
    assert frame.columns[-1] == "kept_dir" and str(frame["kept_dir"].dtype) == "string"
    assert {key: None if pd.isna(value) else value
            for key, value in zip(frame["run_key"], frame["kept_dir"], strict=True)} == want
    tree = xr.open_datatree(out / "runs.nc")
    traced = tree["traced"].to_dataset()
    for x in (1, 2):
        for seed in (1, 2):
            key = run_key("fake-program", {"pcap": "{run}/trace",
                                           "flowMonitor": "{run}/flowmon.xml", "x": x}, seed)
            assert traced["kept_dir"].sel(x=x, seed=seed).item() == want[key]
    assert "kept_dir" not in tree["plain"].to_dataset().data_vars


def test_a_database_without_kept_files_exports_no_kept_dir(fake, tmp_path, scratch):
    program, _ = fake
    db = tmp_path / "db.sqlite"
    sweep(loads_campaign('program = "fake-program"\n[factors]\nx = [1, 2]\n'), program, db,
          jobs=1, console=console())
    with ResultStore(db) as store:
        store.export_csv(tmp_path / "runs.csv")
    header = (tmp_path / "runs.csv").read_text().splitlines()[0]
    assert header == ("run_key,status,seed,x,value_mbps,metric.seed,wall_time_s,exit_code,"
                      "ns3_version,git_rev,host,reason,finished_at")
    assert "kept_dir" not in runs_frame(db).columns
    assert not kept_root(db).exists()


def test_an_older_database_gets_kept_dir_and_salvage_keeps_kept_files(tmp_path):
    db = tmp_path / "old.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE runs (run_key TEXT PRIMARY KEY, campaign TEXT NOT NULL,"
                     " program TEXT NOT NULL, grid TEXT, params TEXT NOT NULL,"
                     " seed INTEGER NOT NULL, status TEXT NOT NULL, reason TEXT, metrics TEXT,"
                     " output TEXT, wall_time_s REAL, exit_code INTEGER, stderr_tail TEXT,"
                     " ns3_version TEXT, git_rev TEXT, host TEXT, command TEXT,"
                     " attempts INTEGER NOT NULL DEFAULT 1, started_at TEXT, finished_at TEXT)")
        conn.execute("INSERT INTO runs (run_key, campaign, program, params, seed, status)"
                     " VALUES ('old', 'c', 'p', '{}', 1, 'ok')")
    conn.close()
    with ResultStore(db) as store:
        store.record({"run_key": "new", "campaign": "c", "program": "p", "params": {},
                      "seed": 2, "status": "failed", "kept_dir": "old-runs/new",
                      "kept_files": [("a.pcap", 10), ("sub/b.xml", 3)]})
        assert {r.run_key: r.kept_dir for r in store.runs()} == {"old": None,
                                                                 "new": "old-runs/new"}
        # A new attempt replaces the list.
        store.record({"run_key": "new", "campaign": "c", "program": "p", "params": {},
                      "seed": 2, "status": "ok", "kept_dir": "old-runs/new",
                      "kept_files": [("a.pcap", 12)]})
        # The row and its files go in together, or neither does.
        with pytest.raises(sqlite3.IntegrityError):
            store.record({"run_key": "third", "campaign": "c", "program": "p", "params": {},
                          "seed": 3, "status": "ok", "kept_dir": "old-runs/third",
                          "kept_files": [("a.pcap", 1), ("a.pcap", 2)]})
        assert [r.run_key for r in store.runs()] == ["old", "new"]
        assert not store.conn.in_transaction
    assert salvage(db) == {"runs": 2, "meta": 0, "sweeps": 0, "kept_files": 1}
    with ResultStore(db) as store:
        assert store.kept_files() == {"new": [("a.pcap", 12)]}
        assert [r.attempts for r in store.runs()] == [1, 2]


# ------------------------------------------------------------------ the real example program

PROGRAM = REPO / "build" / "system" / "examples" / "red-vs-droptail"
PCAP_MAGIC = (b"\xd4\xc3\xb2\xa1", b"\xa1\xb2\xc3\xd4")

REAL = """
program = "red-vs-droptail"
metrics = ["total_goodput_mbps"]
timeout = 300
[fixed]
simTime = 2
warmup = 1
[factors]
queueDisc = ["FIFO", "RED"]
"""


@pytest.mark.skipif(not PROGRAM.is_file(), reason=f"{PROGRAM} not built (qdisc-lab build)")
def test_a_real_example_keeps_its_pcap_and_flow_monitor_files(tmp_path, scratch):
    env = runtime_env("system") or None
    traced = REAL.replace("[fixed]", 'keep = ["*.pcap", "flowmon.xml"]\n[fixed]\n'
                          'pcap = "{run}/trace"\nflowMonitor = "{run}/flowmon.xml"')
    plain_db, traced_db = tmp_path / "plain.sqlite", tmp_path / "traced.sqlite"
    for text, db in ((REAL, plain_db), (traced, traced_db)):
        result = sweep(loads_campaign(text), PROGRAM, db, jobs=2, env=env, console=console())
        assert result.ok == 2, result.failures
    plain = {r.params["queueDisc"]: r.metrics for r in records(plain_db).values()}
    kept = kept_rows(traced_db)
    for record in records(traced_db).values():
        assert record.metrics == plain[record.params["queueDisc"]]  # traces change nothing
        folder = traced_db.parent / record.kept_dir
        names = [name for name, _ in kept[record.run_key]]
        assert "flowmon.xml" in names and any(name.endswith(".pcap") for name in names)
        for name, size in kept[record.run_key]:
            assert (folder / name).stat().st_size == size
            if name.endswith(".pcap"):
                assert (folder / name).read_bytes()[:4] in PCAP_MAGIC and size > 24
        flows = ElementTree.parse(folder / "flowmon.xml").getroot()
        assert flows.tag == "FlowMonitor" and flows.findall("./FlowStats/Flow")
    assert run_dirs(scratch) == []
