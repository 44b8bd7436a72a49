# SPDX-License-Identifier: GPL-2.0-only
"""What campaigns cost: per-run CPU time, sweep wall times, ``timing.csv`` and
``qdisc-lab reproduce --all``.

The runs are real processes of the fake program, which burns ``--spin`` seconds of CPU time
(or sleeps ``--sleep`` seconds without using any), so the recorded CPU seconds can be checked
against what the runs did.
"""

import csv
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

import qdisclab.commands.reproduce as reproduce
from qdisclab.campaign import runner
from qdisclab.campaign.engine import sweep
from qdisclab.campaign.spec import CampaignError, loads_campaign
from qdisclab.campaign.store import ResultStore
from qdisclab.campaign.timing import (
    COLUMNS,
    IncompleteCampaign,
    TimingRow,
    campaign_timing,
    read_timing,
    record_instructions,
    write_timing,
)
from qdisclab.context import CONSOLE
from qdisclab.figures import FigureSet, Reproduction
from test_campaign_sweep import fake, quiet, write_fake_program  # noqa: F401

#: Slack for the interpreter's start-up and the machine's load, in CPU seconds.
START_CPU_S = 1.0

SPIN_CAMPAIGN = """
name = "spin"
program = "fake-program"
metrics = ["value_mbps"]
timeout = 60
seeds = [{seeds}]
[[grid]]
name = "spin"
fixed = {{ spin = 0.3 }}
factors = {{ x = [1, 2] }}
"""


def spin_campaign(seeds: str = "1, 2", points_per_process: int = 1):
    text = SPIN_CAMPAIGN.format(seeds=seeds)
    if points_per_process > 1:
        text = f"points_per_process = {points_per_process}\n" + text
    return loads_campaign(text)


def test_a_run_records_the_cpu_time_of_its_process_not_its_wall_time(fake):
    program, _ = fake
    busy = runner.execute_run([str(program), "--spin=0.5"], 60)
    idle = runner.execute_run([str(program), "--sleep=0.5"], 60)
    assert busy["returncode"] == 0 and idle["returncode"] == 0
    assert 0.5 <= busy["cpu_time_s"] < 0.5 + START_CPU_S
    assert idle["wall_time_s"] >= 0.5
    assert 0 < idle["cpu_time_s"] < 0.4
    assert busy["cpu_time_s"] - idle["cpu_time_s"] > 0.3


def test_a_timed_out_run_records_the_cpu_time_it_used(fake):
    program, _ = fake
    result = runner.execute_run([str(program), "--spin=30"], 1)
    assert result["outcome"] == "timeout"
    # Killed after 1 s of wall time: some CPU time, at most that second (the machine may be
    # loaded, so no lower bound but 0).
    assert 0 < result["cpu_time_s"] <= result["wall_time_s"] + 0.1


def test_a_batch_shares_its_process_cpu_time_by_the_points_wall_times(fake):
    program, _ = fake
    points = runner.execute_batch(str(program), [["--spin=0.2"], ["--spin=0.6"]], 60)
    assert [point["returncode"] for point in points] == [0, 0]
    first, second = (point["cpu_time_s"] for point in points)
    assert 0.8 <= first + second < 0.8 + START_CPU_S
    # The shares follow the wall times (the first includes the interpreter's start).
    walls = [point["wall_time_s"] for point in points]
    assert first / (first + second) == pytest.approx(walls[0] / sum(walls))


def test_a_program_that_cannot_start_has_no_cpu_time(tmp_path):
    result = runner.execute_run([str(tmp_path / "missing")], 10)
    assert result["outcome"] == "error" and result["cpu_time_s"] is None


@pytest.mark.parametrize(("points_per_process", "jobs"), [(1, 2), (4, 1)])
def test_the_timing_row_sums_the_runs_cpu_and_the_sweeps_wall_times(fake, tmp_path,
                                                                      points_per_process, jobs):
    program, _ = fake
    db = tmp_path / "spin.sqlite"
    # A first sweep stores seed 1; the campaign with seeds 1 and 2 resumes it.
    first = sweep(spin_campaign("1", points_per_process), program, db, jobs=jobs,
                  flavor="system", console=quiet())
    with pytest.raises(IncompleteCampaign, match="2 of its 4 runs are not in"):
        campaign_timing(db, spin_campaign("1, 2"))
    second = sweep(spin_campaign("1, 2", points_per_process), program, db, jobs=jobs,
                   flavor="system", console=quiet())
    assert (first.ok, second.ok, second.skipped_done) == (2, 2, 2)
    nothing = sweep(spin_campaign("1, 2"), program, db, jobs=1, console=quiet())
    assert nothing.ok == 0

    row = campaign_timing(db, spin_campaign("1, 2"))
    with ResultStore(db) as store:
        cpu = [record.cpu_time_s for record in store.runs()]
        sweeps = store.sweeps()
    if points_per_process == 1:
        assert all(0.3 <= c < 0.3 + START_CPU_S for c in cpu)
    else:  # shared by wall time: each run's share is near its own, the sum is exact
        assert all(c > 0 for c in cpu)
        assert 4 * 0.3 <= sum(cpu) < 4 * (0.3 + START_CPU_S)
    assert row.runs == 4
    assert row.cpu_s == pytest.approx(sum(cpu))
    assert [s["cpu_time_s"] for s in sweeps[:2]] == pytest.approx([sum(cpu[:2]), sum(cpu[2:])])
    # Resumed: the wall times of both sweeps that ran something (the third added 0).
    assert sweeps[2]["wall_time_s"] == 0
    assert row.wall_s == pytest.approx(first.wall_time_s + second.wall_time_s)
    assert row.wall_s >= 2 * 0.3
    assert (row.cores, row.ns3_flavor, row.campaign) == (jobs, "system", "spin")
    assert row.git_revision == sweeps[0]["git_rev"]
    # Each sweep that ran something recorded the machine's load; the row has the load beyond
    # the workers, weighted by the sweeps' wall times.
    assert [s["machine_cores"] is not None for s in sweeps] == [True, True, False]
    expected = sum(max(0.0, s["load_mean"] - s["workers"]) * s["wall_time_s"]
                   for s in sweeps[:2]) / (sweeps[0]["wall_time_s"] + sweeps[1]["wall_time_s"])
    assert row.other_load == pytest.approx(expected)


def test_a_sweep_killed_before_its_end_counts_up_to_its_last_stored_run(fake, tmp_path):
    program, _ = fake
    db = tmp_path / "spin.sqlite"
    sweep(spin_campaign(), program, db, jobs=2, console=quiet())
    with sqlite3.connect(db) as conn:  # as a sweep killed with SIGKILL leaves it
        conn.execute("UPDATE sweeps SET wall_time_s = NULL, finished_at = NULL")
        conn.execute("UPDATE sweeps SET started_at = '2026-01-01T10:00:00Z'")
        conn.execute("UPDATE runs SET finished_at = '2026-01-01T10:00:05Z'")
        conn.execute("UPDATE runs SET finished_at = '2026-01-01T10:00:42Z' WHERE seed = 2")
    assert campaign_timing(db, spin_campaign()).wall_s == 42


OLD_RUNS = """
CREATE TABLE runs (
    run_key TEXT PRIMARY KEY, campaign TEXT NOT NULL, program TEXT NOT NULL, grid TEXT,
    params TEXT NOT NULL, seed INTEGER NOT NULL, status TEXT NOT NULL, reason TEXT,
    metrics TEXT, output TEXT, wall_time_s REAL, exit_code INTEGER, stderr_tail TEXT,
    ns3_version TEXT, git_rev TEXT, host TEXT, command TEXT,
    attempts INTEGER NOT NULL DEFAULT 1, started_at TEXT, finished_at TEXT);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE sweeps (
    id INTEGER PRIMARY KEY AUTOINCREMENT, campaign TEXT, mode TEXT, started_at TEXT,
    finished_at TEXT, workers INTEGER, cluster TEXT, planned INTEGER, skipped INTEGER,
    ok INTEGER, failed INTEGER, timeout INTEGER, interrupted INTEGER, wall_time_s REAL,
    run_time_s REAL, git_rev TEXT);
"""


def old_database(path: Path, campaign) -> Path:
    """A database as the store wrote it before CPU time and the flavour were recorded."""
    with sqlite3.connect(path) as conn:
        conn.executescript(OLD_RUNS)
        conn.execute("INSERT INTO meta VALUES ('binary', '/r/build/wheel/examples/fake-program')")
        conn.execute("INSERT INTO sweeps (started_at, finished_at, workers, wall_time_s, git_rev)"
                     " VALUES ('2026-01-01T10:00:00Z', '2026-01-01T10:01:00Z', 2, 60.5, 'abc')")
        for run in campaign.runs():
            conn.execute("INSERT INTO runs (run_key, campaign, program, params, seed, status,"
                         " wall_time_s, git_rev) VALUES (?, 'spin', 'fake-program', '{}', ?,"
                         " 'ok', 1.0, 'abc')", (run.key, run.seed))
    return path


def test_an_old_database_gives_a_row_without_cpu_and_is_left_unchanged(tmp_path):
    campaign = spin_campaign()
    db = old_database(tmp_path / "old.sqlite", campaign)
    before = db.read_bytes()
    row = campaign_timing(db, campaign)
    assert row == TimingRow("spin", 4, None, 60.5, 2, "wheel", "abc")
    assert row.runs_without_cpu == 4
    assert row.cells()[2] == ""
    assert row.other_load is None and row.cells()[-1] == ""
    assert db.read_bytes() == before


def test_opening_an_old_database_adds_the_new_columns_and_keeps_its_runs(fake, tmp_path):
    program, _ = fake
    campaign = spin_campaign()
    db = old_database(tmp_path / "old.sqlite", campaign)
    with ResultStore(db) as store:
        assert [record.cpu_time_s for record in store.runs()] == [None] * 4
        assert store.sweeps()[0]["ns3_flavor"] is None
    # A sweep can write it again: a retried run gets its CPU time.
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE runs SET status = 'failed' WHERE seed = 2")
    sweep(campaign, program, db, jobs=2, retry_failed=True, console=quiet())
    with ResultStore(db) as store:
        cpu = {record.seed: record.cpu_time_s for record in store.runs()}
    assert cpu[1] is None and cpu[2] >= 0.3


def row(name: str, cpu: float | None = 1.0) -> TimingRow:
    return TimingRow(name, 10, cpu, 2.25, 2, "system", "abc")


def test_write_timing_replaces_a_campaigns_row_and_keeps_the_others(tmp_path):
    path = tmp_path / "doc" / "timing.csv"
    write_timing(path, [row("a"), row("b")])
    write_timing(path, [row("b", 7.0), row("c", None)])
    assert path.read_text().splitlines() == [
        ",".join(COLUMNS),
        "a,10,1.0,2.2,2,system,abc,,,",
        "b,10,7.0,2.2,2,system,abc,,,",
        "c,10,,2.2,2,system,abc,,,",
    ]
    assert read_timing(path)[1]["cpu_s"] == "7.0"
    assert read_timing(tmp_path / "missing.csv") == []


def test_a_replays_instructions_go_into_the_campaigns_row_and_a_sweep_clears_them(tmp_path):
    path = tmp_path / "timing.csv"
    write_timing(path, [row("a"), row("b")])
    record_instructions(path, "b", 7_109_123_456_789, 4)
    assert path.read_text().splitlines()[1:] == [
        "a,10,1.0,2.2,2,system,abc,,,",
        "b,10,1.0,2.2,2,system,abc,,7109.1,4",
    ]
    # A file of the older layout (no instructions columns) gains them.
    path.write_text("campaign,runs,cpu_s,wall_s,cores,ns3_flavor,git_revision,other_load\n"
                    "a,10,1.0,2.2,2,system,abc,0.50\n")
    record_instructions(path, "a", 2.5e9, 1)
    assert read_timing(path)[0] | {} == {**dict.fromkeys(COLUMNS, ""), "campaign": "a",
                                         "runs": "10", "cpu_s": "1.0", "wall_s": "2.2",
                                         "cores": "2", "ns3_flavor": "system",
                                         "git_revision": "abc", "other_load": "0.50",
                                         "instructions_g": "2.5", "instructions_sampled": "1"}
    with pytest.raises(CampaignError, match="has no row for 'z' \\(its campaigns: a\\)"):
        record_instructions(path, "z", 1e9, 1)
    # The row a sweep writes again is a new build's: the instructions go with the old one.
    write_timing(path, [row("a", 3.0)])
    assert read_timing(path)[0]["instructions_g"] == ""


def test_replay_records_the_instructions_in_the_timing_file_only_with_callgrind(tmp_path):
    from qdisclab.commands.campaign import replay_cmd

    db = tmp_path / "campaign.sqlite"
    db.write_bytes(b"")
    result = CliRunner().invoke(replay_cmd, [str(db), "--timing", str(tmp_path / "t.csv")])
    assert result.exit_code == 2 and "--timing records the instructions --callgrind" in result.output


# -- qdisc-lab reproduce --all, with the fake program as every reproduction's program --------

def fake_figures(db_path: Path, out_dir: Path) -> FigureSet:
    """A reproduction's figures function that draws nothing."""
    return FigureSet("fake", out_dir, [], [], [f"runs in {db_path.name}"])


@pytest.fixture
def fake_reproductions(fake, tmp_path, monkeypatch):
    """Two reproductions of spin campaigns, run by ``reproduce --all`` with the fake
    program; the results directory under ``tmp_path``; returns the timing CSV's path."""
    program, _ = fake
    reproductions = {}
    for name, seeds in (("spin-a", "1"), ("spin-b", "1, 2")):
        toml = tmp_path / f"{name}.toml"
        toml.write_text(SPIN_CAMPAIGN.format(seeds=seeds).replace('"spin"', f'"{name}"', 1))
        reproductions[name] = Reproduction(name, name, "", str(toml),
                                           "test_timing:fake_figures")
    monkeypatch.setattr(reproduce, "REPRODUCTIONS", reproductions)
    name_argument = next(p for p in reproduce.reproduce_cmd.params if p.name == "name")
    monkeypatch.setattr(name_argument.type, "choices", list(reproductions))
    monkeypatch.setattr(reproduce, "get_reproduction", reproductions.__getitem__)
    monkeypatch.setattr(reproduce, "RESULTS_DIR", tmp_path / "results")
    monkeypatch.setattr("qdisclab.toolchain.build.build", lambda flavor: None)
    monkeypatch.setattr("qdisclab.toolchain.provision.ensure_setup", lambda wheel: None)
    monkeypatch.setattr("qdisclab.campaign.engine.program_binary", lambda name, flavor: program)
    monkeypatch.setattr("qdisclab.report.write_report", lambda timing: tmp_path / "report.html")
    return tmp_path / "timing.csv"


def timing_rows(path: Path) -> dict[str, dict[str, str]]:
    with open(path, newline="") as handle:
        return {row["campaign"]: row for row in csv.DictReader(handle)}


def test_reproduce_all_writes_a_row_per_campaign_and_resumes(fake_reproductions, tmp_path):
    timing = fake_reproductions
    cli = CliRunner()
    result = cli.invoke(reproduce.reproduce_cmd, ["--all", "-j", "2", "--timing", str(timing)])
    assert result.exit_code == 0, result.output
    rows = timing_rows(timing)
    assert list(rows) == ["spin-a", "spin-b"]
    assert [rows[name]["runs"] for name in rows] == ["2", "4"]
    for name, runs in (("spin-a", 2), ("spin-b", 4)):
        assert 0.3 * runs <= float(rows[name]["cpu_s"]) < (0.3 + START_CPU_S) * runs
        assert float(rows[name]["wall_s"]) >= 0.3 * runs / 2
        assert rows[name]["cores"] == "2" and rows[name]["ns3_flavor"] == "system"
    # Run again: nothing to run, every row stays (the sweeps that ran nothing add 0 s).
    assert cli.invoke(reproduce.reproduce_cmd, ["--all", "--timing", str(timing)]).exit_code == 0
    assert timing_rows(timing) == rows
    # --timing-only rewrites the rows from the databases alone.
    timing.unlink()
    result = cli.invoke(reproduce.reproduce_cmd,
                        ["--all", "--timing-only", "--timing", str(timing)])
    assert result.exit_code == 0, result.output
    assert timing_rows(timing) == rows


def test_reproduce_all_stopped_by_a_failing_campaign_keeps_the_finished_rows(
        fake_reproductions, monkeypatch, tmp_path):
    timing = fake_reproductions
    broken = reproduce.REPRODUCTIONS["spin-b"]
    toml = Path(broken.campaign)
    toml.write_text(toml.read_text().replace("timeout = 60", "timeout = -1"))
    result = CliRunner().invoke(reproduce.reproduce_cmd, ["--all", "--timing", str(timing)])
    assert result.exit_code == 1
    assert list(timing_rows(timing)) == ["spin-a"]


def test_reproduce_one_updates_its_row_and_timing_only_skips_incomplete_campaigns(
        fake_reproductions):
    timing = fake_reproductions
    write_timing(timing, [row("other")])
    cli = CliRunner()
    assert cli.invoke(reproduce.reproduce_cmd, ["spin-b", "--timing", str(timing)]).exit_code == 0
    assert list(timing_rows(timing)) == ["other", "spin-b"]
    result = cli.invoke(reproduce.reproduce_cmd, ["--all", "--timing-only", "--timing",
                                                  str(timing)], terminal_width=200)
    assert result.exit_code == 0
    assert "No timing row for spin-a" in result.output and "does not exist" in result.output
    assert list(timing_rows(timing)) == ["other", "spin-b"]


def test_reproduce_needs_a_name_or_all():
    cli = CliRunner()
    assert "give a reproduction's NAME or --all" in cli.invoke(reproduce.reproduce_cmd,
                                                               []).output
    assert cli.invoke(reproduce.reproduce_cmd, ["--all", "red-vs-droptail"]).exit_code == 2


# -- qdisc-lab report shows the timing rows ---------------------------------------------------

def test_the_report_shows_each_full_campaigns_timing_row(tmp_path, monkeypatch):
    from test_report import RECORDED, make_db

    from qdisclab.commands.report import report_cmd

    results = tmp_path / "results"
    shutil.copytree(RECORDED, results)
    make_db(results / "quick-only" / "campaign-quick.sqlite", quick=True)
    # The console's table on one line per row. The console read COLUMNS when it was made (a
    # pytest-xdist worker starts with COLUMNS=80), so its width is set on it directly.
    monkeypatch.setattr(CONSOLE, "_width", 200)
    timing = tmp_path / "timing.csv"
    write_timing(timing, [
        TimingRow("red-vs-droptail", 12300, 5400.25, 3000.0, 2, "optimized", "abc1234"),
        TimingRow("drr-evaluation", 1080, None, 90.0, 2, "system", "def5678 0a1b2c3"),
        # The quick database's campaign: a quick section does not show the full one's row.
        TimingRow("red-vs-droptail-quick", 1, 1.0, 1.0, 1, "system", "x"),
    ])
    result = CliRunner().invoke(report_cmd, ["--results", str(results), "--timing", str(timing)],
                                terminal_width=200)
    assert result.exit_code == 0, result.output
    text = (results / "report.html").read_text(encoding="utf-8")
    assert ("<tr><th>Cost</th><td>12300 runs: 5,400.2 s (1.50 h) CPU, 3,000.0 s (50.0 min) wall"
            " on 2 cores; ns-3 <code>optimized</code>; revision <code>abc1234</code>"
            " (timing.csv)</td></tr>") in text
    assert ("1080 runs: CPU time not recorded, 90.0 s (1.5 min) wall on 2 cores; ns-3"
            " <code>system</code>; revision <code>def5678</code>, <code>0a1b2c3</code>") in text
    assert text.count("<th>Cost</th>") == 2
    printed = [[cell.strip() for cell in line.strip("│ ").split("│")]
               for line in result.output.splitlines() if line.startswith("│")]
    assert printed == [["drr-evaluation", "1080", "", "90.0", "2", "system", "def5678 0a1b2c3"],
                       ["red-vs-droptail", "12300", "5400.2", "3000.0", "2", "optimized",
                        "abc1234"]]
