# SPDX-License-Identifier: GPL-2.0-only
"""The programs' --schema (qdisclab.schema), and campaigns checked against it before they run."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from test_campaign_sweep import quiet, starts, write_fake_program

from built_examples import example
from qdisclab.campaign.engine import sweep
from qdisclab.campaign.spec import CAMPAIGNS_DIR, CampaignError, load_campaign, loads_campaign
from qdisclab.campaign.store import ResultStore
from qdisclab.schema import SchemaError, metric_matches, parse_schema, read_schema

PROGRAMS = ["cioq-red-evaluation", "cioq-switch-load", "dscp-marking", "drr-evaluation",
            "dumbbell-fifo-vs-red", "red-vs-droptail", "rio-assured-service",
            "vertical-dimensioning-evaluation"]
TYPES = {"bool", "int", "uint", "double", "string", "rate", "time"}


def built(program: str) -> Path:
    binary = example(program)
    if not binary.is_file():
        pytest.skip(f"{binary} not built (qdisc-lab build)")
    return binary


@pytest.mark.parametrize(
    ("pattern", "name", "matches"),
    [("flow<i>_kbps", "flow0_kbps", True), ("flow<i>_kbps", "flow12_kbps", True),
     ("flow<i>_kbps", "flow_kbps", False), ("flow<i>_kbps", "flow0_goodput_kbps", False),
     ("flow<i>_green_bytes", "flow3_green_bytes", True), ("drops", "drops", True),
     ("drops", "early_drops", False), ("as<i>_mbps", "as_mbps", False)],
)
def test_metric_patterns(pattern, name, matches):
    assert metric_matches(pattern, name) is matches


@pytest.mark.parametrize("text", ["not json", "[]", '{"schema": "other/1"}',
                                  '{"schema": "qdisc-lab.params/1", "program": "p"}',
                                  '{"schema": "qdisc-lab.params/1", "program": "p", '
                                  '"params": [{"name": "x"}], "metrics": []}'])
def test_a_broken_schema_is_refused(text):
    with pytest.raises(SchemaError):
        parse_schema(text)


@pytest.mark.parametrize("program", PROGRAMS)
def test_every_example_answers_schema_without_running(tmp_path, program):
    binary = built(program)
    done = subprocess.run([str(binary), "--schema"], capture_output=True, text=True, check=True,
                          timeout=60, cwd=tmp_path)
    assert done.stderr == "" and list(tmp_path.iterdir()) == []  # nothing ran, nothing written
    doc = json.loads(done.stdout)
    assert doc["schema"] == "qdisc-lab.params/1" and doc["program"] == program
    names = [p["name"] for p in doc["params"]]
    assert len(names) == len(set(names)) and "quick" in names
    # The traces a campaign can ask for ({run}/...), never in a report.
    recorded = {p["name"]: (p["type"], p["default"], p["recorded"]) for p in doc["params"]}
    assert recorded["pcap"] == recorded["flowMonitor"] == ("string", "", "never")
    for param in doc["params"]:
        assert param["type"] in TYPES and param["help"]
        assert param["recorded"] in {"always", "sometimes", "never"}
    assert doc["metrics"] and all(m["recorded"] in {"always", "sometimes"}
                                  for m in doc["metrics"])
    schema = read_schema(binary)
    assert schema.program == program and "output" not in schema.flags


def test_schema_defaults_are_the_recorded_values():
    """A run with every default records the schema's defaults (unless the program resolves
    them after parsing: --quick's times, the paper's values for 0 or empty)."""
    schema = read_schema(built("red-vs-droptail"))
    defaults = {p["name"]: p["default"] for p in schema.params if p["recorded"] == "always"}
    assert defaults["queueDisc"] == "FIFO" and defaults["window"] == 32000
    assert defaults["minTh"] == 0.32 and defaults["sack"] is True
    assert schema.param("accessRate")["recorded"] == "never"


@pytest.mark.parametrize("path", sorted(CAMPAIGNS_DIR.glob("*.toml")), ids=lambda p: p.stem)
def test_the_campaigns_name_only_parameters_their_program_has(path):
    """Each campaign against the program it runs: the ns-3 example, or for a campaign on the
    paper's simulator (``ns3 = "ns2"``) the ns-2.35 program of validation/ns2/."""
    from qdisclab.campaign.engine import program_binary
    from qdisclab.toolchain.build import ALL_FLAVORS, NS2

    campaign = load_campaign(path)
    if campaign.ns3 == NS2:
        if shutil.which("ns") is None:
            pytest.skip("ns-2.35's ns is not installed")
        binary = program_binary(campaign.program, NS2)
    elif campaign.ns3 in ALL_FLAVORS:
        binary = built(campaign.program)
    else:
        try:  # a tree of its own, built by `./qdisc-lab build --ns3 <flavour>`
            binary = program_binary(campaign.program, campaign.ns3)
        except CampaignError as exc:
            pytest.skip(f"{campaign.ns3} is not built here: {exc}")
        if not Path(binary).is_file():
            pytest.skip(f"{binary} not built")
    schema = read_schema(binary)
    assert schema.unknown(campaign.parameters()) == []


def test_the_fake_program_answers_schema(tmp_path):
    schema = read_schema(write_fake_program(tmp_path))
    assert schema.program == "fake-program"
    assert schema.flags == ["x", "behave", "sleep", "spin", "RngRun", "pcap", "flowMonitor",
                            "count", "flag", "offset", "rate"]


def test_an_unknown_parameter_fails_before_the_first_run(tmp_path, monkeypatch):
    program = write_fake_program(tmp_path)
    log = tmp_path / "starts.log"
    monkeypatch.setenv("QDISCLAB_FAKE_LOG", str(log))
    path = tmp_path / "typo.toml"
    path.write_text('program = "fake-program"\n[factors]\nx = [1, 2]\nbehaviour = ["ok"]\n')
    db = tmp_path / "db.sqlite"
    with pytest.raises(CampaignError) as error:
        sweep(load_campaign(path), program, db, jobs=1, console=quiet())
    assert str(path) in str(error.value)
    assert "fake-program has no parameter 'behaviour'" in str(error.value)
    assert not log.exists() or starts(log) == []
    assert not db.exists()


def test_a_program_without_schema_fails_before_the_first_run(tmp_path, monkeypatch):
    program = write_fake_program(tmp_path)
    monkeypatch.setenv("QDISCLAB_FAKE_SCHEMA", "fail")
    with pytest.raises(CampaignError, match="cannot read the parameters of fake-program.*"
                                            "exited 1: Invalid command-line argument: --schema"):
        sweep(loads_campaign('program = "fake-program"\n[factors]\nx = [1]\n'), program,
              tmp_path / "db.sqlite", jobs=1, console=quiet())


def test_an_unknown_parameter_of_a_real_example_fails_before_the_first_run(tmp_path):
    binary = built("red-vs-droptail")
    path = tmp_path / "typo.toml"
    path.write_text('program = "red-vs-droptail"\n[fixed]\nqueueDisk = "RED"\nwindow = 8000\n')
    with pytest.raises(CampaignError, match=f"{path}: red-vs-droptail has no parameter "
                                            "'queueDisk'"):
        sweep(load_campaign(path), binary, tmp_path / "db.sqlite", jobs=1, console=quiet())


def test_a_real_example_run_is_checked_against_its_schema(tmp_path):
    binary = built("dscp-marking")
    campaign = loads_campaign('program = "dscp-marking"\nseeds = [1]\n[fixed]\nsimTime = 2\n')
    result = sweep(campaign, binary, tmp_path / "db.sqlite", jobs=1, console=quiet())
    assert result.ok == 1
    with ResultStore(tmp_path / "db.sqlite") as store:
        [run] = store.runs()
    assert run.metrics["flow0_green_bytes"] > 0
