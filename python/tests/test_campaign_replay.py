# SPDX-License-Identifier: GPL-2.0-only
"""`qdisc-lab replay`: stored runs run again and their reports compared byte for byte, on the
fake example program (python/tests/fakeprog.py)."""

import lzma
import re
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from qdisclab.campaign import replay
from qdisclab.campaign.engine import sweep
from qdisclab.campaign.spec import CampaignError, loads_campaign
from qdisclab.campaign.store import ResultStore
from qdisclab.campaign.timing import TimingRow, read_timing, write_timing
from test_campaign_sweep import quiet, write_fake_program

CAMPAIGN = """
program = "fake-program"
metrics = ["value_mbps"]
timeout = 30
seeds = [1, 2]
[[grid]]
name = "a"
factors = { x = [1, 2, 3] }
[[grid]]
name = "b"
factors = { x = [7, 8] }
"""


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """(the fake program, its database of 10 ok runs, the same compressed as .sqlite.xz)."""
    root = tmp_path_factory.mktemp("replay")
    program = write_fake_program(root)
    db = root / "campaign.sqlite"
    result = sweep(loads_campaign(CAMPAIGN), program, db, jobs=1, console=quiet())  # stored in order
    assert result.ok == 10
    packed = root / "recorded" / "campaign.sqlite.xz"
    packed.parent.mkdir()
    packed.write_bytes(lzma.compress(db.read_bytes()))
    return program, db, packed


def shifted_program(directory: Path) -> Path:
    """fakeprog run with RngRun + 1: the same parameters give another report (its `seed` and
    `value_mbps` move), as a build that changed a result would."""
    path = directory / "fake-program"
    path.write_text(
        f"#!{sys.executable}\n"
        "import re, runpy, sys\n"
        "sys.argv = [re.sub(r'^--RngRun=(\\d+)$', lambda m: f'--RngRun={int(m[1]) + 1}', a)"
        " for a in sys.argv]\n"
        f"runpy.run_path({str(Path(__file__).with_name('fakeprog.py'))!r}, run_name='__main__')\n",
        encoding="utf-8")
    path.chmod(0o755)
    return path


def growing_program(directory: Path) -> Path:
    """fakeprog whose report then gains a parameter (as a program that reports one more
    since the database was recorded)."""
    path = directory / "fake-program"
    path.write_text(
        f"#!{sys.executable}\n"
        "import json, runpy, sys\n"
        "out = [a.split('=', 1)[1] for a in sys.argv if a.startswith('--output=')]\n"
        "try:\n"
        f"    runpy.run_path({str(Path(__file__).with_name('fakeprog.py'))!r}, run_name='__main__')\n"
        "finally:\n"
        "    doc = json.load(open(out[0]))\n"
        "    doc['params']['RngSeed'] = 1\n"
        "    json.dump(doc, open(out[0], 'w'))\n",
        encoding="utf-8")
    path.chmod(0o755)
    return path


def test_a_report_with_fields_added_since_is_the_same_result_counted_apart(recorded, tmp_path):
    from qdisclab.commands.campaign import replay_cmd

    _, db, _ = recorded
    (result,) = replay.replay(db, growing_program(tmp_path), count=1)
    assert result.verdict == replay.SAME_BUT_ADDED and result.same
    assert result.added == ["params.RngSeed"] and result.differences == []
    out = CliRunner().invoke(replay_cmd, [str(db), "--binary", str(growing_program(tmp_path)),
                                          "--runs", "2"])
    assert out.exit_code == 0, out.output
    assert ("0 of 2 reports byte-identical, 2 the same with fields the program reports since"
            " (params.RngSeed), 0 differ") in out.output


def test_the_sample_is_spread_over_the_stored_runs_in_their_order():
    assert replay.spread(list(range(10)), 3) == [0, 3, 6]
    assert replay.spread(list(range(10)), 4) == [0, 2, 5, 7]
    assert replay.spread([1, 2], 5) == [1, 2]
    assert replay.spread([1, 2], 0) == []


def test_the_same_program_gives_every_stored_report_again(recorded):
    program, db, packed = recorded
    for source in (db, packed):
        results = replay.replay(source, program, count=4, jobs=2)
        assert [r.same for r in results] == [True] * 4
        assert all(r.differences == [] and r.cpu_s is not None for r in results)
    with ResultStore(db) as store:
        keys = [run.run_key for run in store.runs(status="ok")]
    assert [r.key for r in replay.replay(db, program, count=4)] == replay.spread(keys, 4)
    assert packed.is_file()  # read through a copy, left as it was


def test_a_changed_result_is_named_with_both_values(recorded, tmp_path):
    _, db, _ = recorded
    results = replay.replay(db, shifted_program(tmp_path), count=2, grids=["b"])
    assert [r.same for r in results] == [False, False]
    with ResultStore(db) as store:
        stored = [run for run in store.runs(status="ok") if run.grid == "b"]
    assert [r.label for r in results] == [" ".join(replay.arguments(run))
                                          for run in replay.spread(stored, 2)]
    seed = stored[0].seed
    first = results[0].differences
    assert f"params.RngRun: {seed} -> {seed + 1}" in first
    assert f"metrics.seed: {seed} -> {seed + 1}" in first
    value = stored[0].params["x"] * 1.5 + seed / 100
    assert any(line.startswith(f"metrics.value_mbps: {value!r} -> ") for line in first)


def test_the_command_lists_each_run_and_exits_1_when_one_differs(recorded, tmp_path):
    from qdisclab.commands.campaign import replay_cmd

    program, _, packed = recorded
    ok = CliRunner().invoke(replay_cmd, [str(packed), "--binary", str(program), "--runs", "3"])
    assert ok.exit_code == 0, ok.output
    assert ok.output.count("identical  --x=") == 3
    assert ("3 of 3 reports byte-identical, 0 the same with fields the program reports since"
            " (none), 0 differ; CPU seconds of the 3 timed:") in ok.output
    bad = CliRunner().invoke(replay_cmd, [str(packed), "--binary", str(shifted_program(tmp_path)),
                                          "--runs", "2", "--grid", "a"])
    assert bad.exit_code == 1
    assert bad.output.count("DIFFERS  --x=") == 2 and "0 of 2 reports byte-identical" in bad.output
    assert ", 2 differ;" in bad.output
    assert "metrics.seed: 1 -> 2" in bad.output or "metrics.seed: 2 -> 3" in bad.output


def test_bad_input_is_a_clear_error(recorded, tmp_path):
    from qdisclab.commands.campaign import replay_cmd

    program, db, _ = recorded
    with pytest.raises(CampaignError, match="no successful run with a stored report in sub-grid"):
        replay.replay(db, program, count=1, grids=["nope"])
    broken = tmp_path / "broken.sqlite.xz"
    broken.write_bytes(b"not xz at all")
    with pytest.raises(CampaignError, match="not an xz-compressed database"):
        replay.replay(broken, program, count=1)
    other = tmp_path / "other-program"
    other.write_bytes(program.read_bytes())
    other.chmod(0o755)
    with pytest.raises(CampaignError, match="holds runs of fake-program, not of other-program"):
        replay.replay(db, other, count=1)
    result = CliRunner().invoke(replay_cmd, [str(db), "--binary", str(program), "--ns3", "ns2"])
    assert result.exit_code == 1 and "replay runs ns-3 programs" in result.output


def test_callgrinds_summary_gives_the_instructions():
    stderr = ("==77== Events    : Ir\n==77== Collected : 1406779866\n==77==\n"
              "==77== I   refs:      1,406,779,866\n")
    assert replay.collected(stderr) == 1406779866
    assert replay.collected("no valgrind here") is None
    results = [replay.Replayed("a", "", instructions=100), replay.Replayed("b", "", instructions=300),
               replay.Replayed("c", "")]
    assert replay.instructions_estimate(results, 10) == (200.0, 2000.0)
    assert replay.instructions_estimate(results[2:], 10) is None


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="no valgrind")
def test_under_callgrind_each_run_is_counted_and_the_database_estimated(recorded):
    """Two runs of the fake program under callgrind: the same reports, each run's instructions,
    and their mean times the database's runs."""
    from qdisclab.commands.campaign import replay_cmd

    program, db, _ = recorded
    first = replay.replay(db, program, count=2, callgrind=True, jobs=2)
    assert [r.verdict for r in first] == [replay.IDENTICAL] * 2
    assert all(r.instructions and r.instructions > 10_000_000 for r in first)
    timing = db.parent / "timing-replay.csv"
    write_timing(timing, [TimingRow("fake-program", 10, 1.0, 2.0, 1, "system", "abc")])
    out = CliRunner().invoke(replay_cmd, [str(db), "--binary", str(program), "--runs", "1",
                                          "--callgrind", "--timing", str(timing)])
    assert out.exit_code == 0, out.output
    # The estimate goes into the campaign's row of the timing file.
    (recorded_row,) = read_timing(timing)
    assert recorded_row["instructions_sampled"] == "1"
    assert float(recorded_row["instructions_g"]) > 0 and recorded_row["cpu_s"] == "1.0"
    assert f"Recorded in {timing}'s row of fake-program" in out.output
    assert re.search(r"Instructions: \d+\.\d{3} G per run \(mean of 1\); x 10 stored ok runs = \d+ G"
                     r" for the database", out.output), out.output
    assert re.search(r"identical  --x=1 --RngRun=1 .*\(\d+\.\d{3} G instructions\)", out.output)
    assert "cpu " not in out.output and "CPU seconds" not in out.output  # valgrind's, not the run's
