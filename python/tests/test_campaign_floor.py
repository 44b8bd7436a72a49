# SPDX-License-Identifier: GPL-2.0-only
"""A campaign's ``[floor]`` (its representative point and the scenario's floor) and `qdisc-lab
bench --campaigns`' instructions per packet-hop: the table's checks, the runs it makes, the
measurement on a fake program under a fake callgrind, and the real programs' floors."""

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from built_examples import example
from qdisclab.campaign import floor
from qdisclab.campaign.spec import CampaignError, check_program, load_campaign, loads_campaign
from qdisclab.schema import parse_schema

CAMPAIGN = """
program = "fake-program"
seeds = [3, 4]
[fixed]
simTime = 60
[[grid]]
name = "a"
fixed = { queueDisc = "RIO" }
factors = { x = [1, 2], y = [5, 6] }
[[grid]]
name = "b"
fixed = { queueDisc = "RED" }
factors = { x = [7, 8] }
seeds = [9]
[floor]
grid = "b"
params = { simTime = 20 }
fifo = { queueDisc = "FIFO" }
"""

def _param(name: str, kind: str, default) -> dict:
    return {"name": name, "type": kind, "default": default, "help": name, "recorded": "always"}


SCHEMA = json.dumps({
    "schema": "qdisc-lab.params/1", "program": "fake-program",
    "params": [_param("queueDisc", "string", "RIO"), _param("x", "int", 1), _param("y", "int", 5),
               _param("simTime", "double", 100), _param("RngRun", "uint", 1)],
    "metrics": [],
})


def test_the_point_is_the_grids_first_combination_with_its_params_and_first_seed():
    point, fifo = loads_campaign(CAMPAIGN).floor_runs()
    assert point.params == {"simTime": 20, "queueDisc": "RED", "x": 7}
    assert point.seed == 9 and point.grid == "b"
    assert fifo.params == {"simTime": 20, "queueDisc": "FIFO", "x": 7} and fifo.seed == 9
    assert point.key != fifo.key
    assert point.args() == ["--simTime=20", "--queueDisc=RED", "--x=7", "--RngRun=9"]
    # Without `grid`: the first sub-grid, with the campaign's first seed.
    first, _ = loads_campaign(CAMPAIGN.replace('grid = "b"\n', "")).floor_runs()
    assert first.params == {"simTime": 20, "queueDisc": "RIO", "x": 1, "y": 5}
    assert first.seed == 3


@pytest.mark.parametrize(("change", "message"), [
    (('grid = "b"', 'grid = "c"'), r"\[floor\].grid: no sub-grid 'c' \(the campaign's: 'a', 'b'\)"),
    (('fifo = { queueDisc = "FIFO" }', "fifo = {}"), r"\[floor\].fifo: give the values"),
    (('fifo = { queueDisc = "FIFO" }', 'fifo = { queueDisc = "FIFO" }\nrepeat = 2'),
     r"\[floor\]: unknown key\(s\) repeat"),
    (("params = { simTime = 20 }", "params = { simTime = [20, 30] }"), r"\[floor\].params.simTime"),
    (("params = { simTime = 20 }", 'params = "simTime=20"'), r"\[floor\].params"),
])
def test_a_bad_floor_table_is_refused_naming_the_key(change, message):
    with pytest.raises(CampaignError, match=message):
        loads_campaign(CAMPAIGN.replace(*change))


def test_a_campaign_without_a_floor_says_so():
    campaign = loads_campaign(CAMPAIGN[:CAMPAIGN.index("[floor]")])
    assert campaign.floor is None
    with pytest.raises(CampaignError, match="has no \\[floor\\] table"):
        campaign.floor_runs()


def test_the_floor_values_are_checked_against_the_programs_schema():
    schema = parse_schema(SCHEMA)
    check_program(loads_campaign(CAMPAIGN), schema)
    with pytest.raises(CampaignError, match=r"\[floor\].fifo: fake-program has no parameter 'qdisc'"):
        check_program(loads_campaign(CAMPAIGN.replace("fifo = { queueDisc", "fifo = { qdisc")),
                      schema)
    with pytest.raises(CampaignError, match=r"\[floor\].params: simTime = 'long': expected a number"):
        check_program(loads_campaign(CAMPAIGN.replace("simTime = 20", 'simTime = "long"')), schema)


def fake_program(directory: Path, hops: str = "1000 if queue != 'FIFO' else 900") -> Path:
    """A program writing a report whose packet-hops depend on --queueDisc."""
    path = directory / "fake-program"
    path.write_text(
        f"#!{sys.executable}\n"
        "import json, sys\n"
        "args = dict(a[2:].split('=', 1) for a in sys.argv[1:])\n"
        "queue = args.get('queueDisc')\n"
        f"doc = {{'schema': 'qdisc-lab.metrics/1', 'program': 'fake-program', 'ns3_version': '3.37',"
        f" 'params': {{'queueDisc': queue}}, 'metrics': {{}},"
        f" 'run_measurements': {{'packet_hops': {hops}}}}}\n"
        "if doc['run_measurements']['packet_hops'] is None: del doc['run_measurements']\n"
        "json.dump(doc, open(args['output'], 'w'))\n",
        encoding="utf-8")
    path.chmod(0o755)
    return path


@pytest.fixture
def fake_callgrind(tmp_path, monkeypatch):
    """A launcher standing in for valgrind: runs the command, then prints callgrind's summary
    line with 5,000,000 instructions (4,000,000 when the command has --queueDisc=FIFO)."""
    launcher = tmp_path / "fake-valgrind"
    launcher.write_text(
        f"#!{sys.executable}\n"
        "import subprocess, sys\n"
        "code = subprocess.call(sys.argv[1:])\n"
        "n = 4000000 if '--queueDisc=FIFO' in sys.argv else 5000000\n"
        "sys.stderr.write(f'==42== Collected : {n}\\n')\n"
        "sys.exit(code)\n",
        encoding="utf-8")
    launcher.chmod(0o755)
    monkeypatch.setattr(floor, "CALLGRIND", (str(launcher),))
    return launcher


def test_the_point_and_its_floor_are_compared_per_packet_hop(tmp_path, fake_callgrind):
    program = fake_program(tmp_path)
    campaigns = [loads_campaign(CAMPAIGN, name="one"),
                 loads_campaign(CAMPAIGN.replace('grid = "b"\n', ""), name="two")]
    lines = []
    results = floor.measure_floors(campaigns, lambda c: (program, None), jobs=2,
                                   done=lines.append)
    assert [r.campaign.name for r in results] == ["one", "two"]
    result = results[0]
    assert (result.measured.instructions, result.measured.packet_hops) == (5_000_000, 1000)
    assert (result.floor_measured.instructions, result.floor_measured.packet_hops) == (4_000_000, 900)
    assert result.measured.per_hop == 5000 and result.floor_measured.per_hop == pytest.approx(4444.44, abs=0.01)
    assert result.ratio == pytest.approx(1.125)
    assert len(lines) == 4 and any("one floor: 0.004 G instructions, 900 packet-hops, 4,444 a hop"
                                   in line for line in lines)
    row = result.row("optimized", "abc")
    assert row["point"] == "simTime=20 queueDisc=RED x=7 RngRun=9"
    assert row["floor"] == "queueDisc=FIFO" and row["ratio"] == 1.125
    assert row["ns3_version"] == "3.37" and row["ns3_flavor"] == "optimized"
    path = floor.write_csv([row, results[1].row("optimized", "abc")],
                           tmp_path / "out" / "campaigns.csv")
    read = list(csv.DictReader(path.open()))
    assert list(read[0]) == list(floor.CSV_COLUMNS)
    assert read[0]["instructions_per_hop"] == "5000.0" and read[0]["floor_packet_hops"] == "900"
    # Measuring one campaign again replaces its row and keeps the other's.
    floor.write_csv([{**row, "ratio": 1.5}], path)
    read = list(csv.DictReader(path.open()))
    assert [(r["campaign"], r["ratio"]) for r in read] == [("one", "1.5"), ("two", "1.125")]


def test_a_report_without_packet_hops_or_a_failed_run_is_named(tmp_path, fake_callgrind):
    campaign = loads_campaign(CAMPAIGN)
    point, _ = campaign.floor_runs()
    with pytest.raises(CampaignError, match=r"fake-program simTime=20 queueDisc=RED x=7 RngRun=9:"
                                            r" its report has no run_measurements.packet_hops"):
        floor.measure(point, fake_program(tmp_path, hops="None"))
    failing = tmp_path / "failing"
    failing.write_text(f"#!{sys.executable}\nimport sys\nsys.exit('no such queue disc')\n")
    failing.chmod(0o755)
    with pytest.raises(CampaignError, match="RngRun=9: no report \\(exited: "):
        floor.measure(point, failing)


def test_the_command_refuses_a_campaign_without_a_floor():
    from qdisclab.commands.bench import bench_cmd

    result = CliRunner().invoke(bench_cmd, ["--campaign", "rio-assured-service-variants"])
    assert result.exit_code != 0
    assert "no [floor] table in rio-assured-service-variants" in result.output


FINAL = ("cioq-red", "drr-evaluation", "red-vs-droptail", "rio-assured-service",
         "vertical-dimensioning")


def test_the_five_final_campaigns_declare_a_floor():
    from qdisclab.commands.bench_campaigns import floor_campaigns

    assert sorted(c.name for c in floor_campaigns(())) == list(FINAL)


@pytest.mark.parametrize("name", FINAL)
def test_each_floor_is_valid_for_its_program_and_changes_only_the_queue_disc(name):
    from qdisclab.campaign.engine import program_schema

    campaign = load_campaign(name)
    binary = example(campaign.program)
    if not binary.is_file():
        pytest.skip(f"{binary} not built (qdisc-lab build)")
    program_schema(campaign, binary)  # raises on a bad [floor] value
    point, fifo = campaign.floor_runs()
    assert [k for k in fifo.params if fifo.params[k] != point.params.get(k)] == ["queueDisc"]


def test_rios_floor_is_a_fifo_without_markers(tmp_path):
    """--queueDisc=FIFO: ns-3's FifoQueueDisc, no packet marked IN, the RED thresholds and the
    markers' bucket left out of the report, and the packet-hops reported like every program's."""
    binary = example("rio-assured-service")
    if not binary.is_file():
        pytest.skip(f"{binary} not built (qdisc-lab build)")
    out = tmp_path / "fifo.json"
    subprocess.run([str(binary), "--queueDisc=FIFO", "--simTime=12", "--warmup=2",
                    f"--output={out}"], check=True, timeout=300, capture_output=True)
    doc = json.loads(out.read_text())
    assert doc["params"]["queueDisc"] == "FIFO"
    assert not {"inMinTh", "totalMinTh", "totalMaxP", "queueWeight", "outMinTh",
                "bucketKbit"} & set(doc["params"])
    assert doc["metrics"]["as_in_mbps"] == 0 and doc["metrics"]["as_mbps"] > 0
    assert "in_packets" not in doc["metrics"]  # RIO's precedence counters: no RIO
    assert doc["run_measurements"]["packet_hops"] > 10_000
