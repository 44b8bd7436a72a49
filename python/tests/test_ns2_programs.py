# SPDX-License-Identifier: GPL-2.0-only
"""ns-2.35 programs on the experiment contract (``validation/ns2/lib/experiment.tcl``): their
``--schema``, metrics, bad input and replications, a campaign swept on the ``ns2`` simulator,
and the three-way view (paper | paper's simulator | module) built from two databases.

The program is ``data/ns2/onoff.tcl``, two on/off UDP sources through a DropTail bottleneck.
Without ``ns`` the ns-2 tests skip, except under ``CI=true``, where they fail.
"""

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from ns2_programs import Ns2Program, require_ns2

from qdisclab import campaign
from qdisclab.figures import (
    BOTH_AGREE,
    MODULE_AGREES,
    NEITHER_AGREES,
    SIMULATOR_AGREES,
    Claim,
    FigureSet,
    attribution,
)
from qdisclab.figures.common import simulator_db, variants_db
from qdisclab.metrics import load_metrics
from qdisclab.schema import parse_schema

PROGRAM = Path(__file__).parent / "data" / "ns2" / "onoff.tcl"


@pytest.fixture
def ns2():
    require_ns2()
    return PROGRAM


_PROGRAM = Ns2Program(PROGRAM, timeout=60)
run = _PROGRAM.run


def test_schema_declares_the_parameters_with_types_ranges_and_the_replication(ns2):
    schema = parse_schema(run("--schema").stdout, "onoff --schema")
    assert schema.program == "onoff"
    flows = schema.param("flows")
    assert (flows["type"], flows["default"], flows["min"], flows["max"]) == ("uint", 2, 1, 8)
    assert schema.param("bottleneckRate")["default"] == "1Mbps"
    assert schema.param("label")["recorded"] == "never"
    assert [schema.param(n)["type"] for n in ("RngRun", "RngSeed")] == ["uint", "uint"]
    assert [m["name"] for m in schema.metrics] == [
        "delivered_packets", "flow<i>_delivered_packets", "dropped_packets"]


def test_a_run_writes_metrics_its_schema_accepts(ns2, tmp_path):
    out = tmp_path / "m.json"
    done = run("--flows=3", "--simTime=5", "--label=x y", f"--output={out}")
    assert done.returncode == 0, done.stderr
    schema = parse_schema(run("--schema").stdout)
    doc = load_metrics(out, schema)
    assert doc["ns3_version"] == "ns-2.35" and doc["simulator"] == "ns-2.35"
    assert doc["params"]["flows"] == 3 and doc["params"]["RngRun"] == 1
    assert "label" not in doc["params"]  # recorded never
    metrics = doc["metrics"]
    per_flow = [metrics[f"flow{i}_delivered_packets"] for i in range(3)]
    assert sum(per_flow) == metrics["delivered_packets"] > 0
    # Three 800 kb/s on/off sources into 1 Mb/s: the bottleneck drops.
    assert metrics["dropped_packets"] > 0


@pytest.mark.parametrize("arg, message", [
    ("--simTime=abc", "--simTime: expected a finite number, got 'abc'"),
    ("--simTime=nan", "--simTime: expected a finite number, got 'nan'"),
    ("--flows=-1", "--flows: expected a non-negative integer, got '-1'"),
    ("--flows=2.5", "--flows: expected a non-negative integer, got '2.5'"),
    ("--flows=9", "--flows: 9 is above its maximum 8"),
    ("--limit=1", "--limit: 1 is below its minimum 2"),
    ("--RngRun=0", "--RngRun: 0 is below its minimum 1"),
    ("--bottleneckRate=1Mb", "--bottleneckRate: expected a data rate such as 1Mbps"),
    ("--colour=red", "unknown parameter --colour"),
    ("flows=2", "expected --name=value, got 'flows=2'"),
])
def test_bad_input_stops_with_one_line_naming_the_parameter(ns2, arg, message):
    _PROGRAM.assert_refused(arg, message=message)


def test_rngrun_selects_an_independent_replication_and_repeats_exactly(ns2):
    def metrics(*args):
        done = run("--simTime=5", *args)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)["metrics"]

    assert metrics("--RngRun=1") == metrics("--RngRun=1") == metrics()
    assert metrics("--RngRun=2") != metrics("--RngRun=1")
    assert metrics("--RngSeed=7") != metrics("--RngRun=1")


def test_a_campaign_on_the_ns2_simulator_sweeps_the_program(ns2, tmp_path):
    path = tmp_path / "onoff-ns2.toml"
    path.write_text('name = "onoff-ns2"\nprogram = "onoff"\nns3 = "ns2"\nseeds = [1, 2]\n'
                    'metrics = ["delivered_packets"]\n'
                    '[factors]\nflows = [1, 3]\nsimTime = [4]\n', encoding="utf-8")
    spec = campaign.load(path)
    assert spec.ns3 == "ns2"
    outcome = campaign.run(spec, binary=PROGRAM, jobs=2,
                           console=Console(file=io.StringIO(), width=200))
    assert (outcome.ok, outcome.failed) == (4, 0)
    frame = campaign.results(outcome.db_path)
    assert set(frame["ns3_version"]) == {"ns-2.35"}
    one = frame[frame["flows"] == 1]
    assert set(one["delivered_packets"]) == set(one["flow0_delivered_packets"])
    assert frame.groupby("flows")["delivered_packets"].mean()[3] > one["delivered_packets"].mean()
    # A parameter the campaign leaves at the program's default is read from the run's report,
    # not from a copy of the default.
    from qdisclab.campaign.store import ResultStore

    with ResultStore(outcome.db_path) as store:
        run = store.runs(status="ok")[0]
    assert "limit" not in run.params and run.param("limit") == 20
    assert run.param("flows") == run.params["flows"]
    with pytest.raises(KeyError, match="reports no parameter 'colour'"):
        run.param("colour")


def test_an_unknown_ns2_program_is_named():
    from qdisclab.campaign.engine import program_binary
    from qdisclab.campaign.spec import CampaignError

    with pytest.raises(CampaignError, match="no ns-2.35 program 'no-such-paper'"):
        program_binary("no-such-paper", "ns2")


# ------------------------------------------------------------------ the three-way view


@pytest.mark.parametrize("ours, theirs, expected", [
    ("agree", "agree", BOTH_AGREE),
    ("disagree", "agree", SIMULATOR_AGREES),
    ("partly", "agree", SIMULATOR_AGREES),
    ("agree", "partly", MODULE_AGREES),
    ("disagree", "partly", NEITHER_AGREES),
    ("agree", "", ""),
    ("agree", "not evaluated", ""),
    ("calibrated", "agree", ""),
])
def test_attribution_of_a_claim_across_the_two_simulators(ours, theirs, expected):
    assert attribution(ours, theirs) == expected


def test_the_simulator_verdicts_pair_by_claim_id_and_survive_the_manifest(tmp_path):
    ours = FigureSet("x", tmp_path, claims=[
        Claim("Fig. 1", "p", "o1", "agree", id="C1"),
        Claim("Fig. 2", "p", "o2", "disagree", id="C2"),
        Claim("Fig. 3", "p", "o3", "partly", id="C3"),
    ])
    theirs = FigureSet("x", tmp_path / "ns2", claims=[
        Claim("Fig. 2", "p", "n2", "agree", id="C2"),
        Claim("Fig. 1", "p", "n1", "agree", id="C1"),
    ])
    from qdisclab.figures import CampaignState

    theirs.campaign = CampaignState("x-ns2", "full", "p", 10, {"ok": 4}, [1], ["ns-2.35"], [],
                                    None, None)
    ours.attach_simulator("ns-2.35", theirs)
    assert ours.notes == ["The ns-2.35 column is drawn from 4 of its campaign's 10 runs"
                          " (x-ns2): a verdict there may change when the rest are in."]
    assert [(c.simulator_verdict, c.simulator_ours) for c in ours.claims] == [
        ("agree", "n1"), ("agree", "n2"), ("not evaluated", "no ns-2.35 run of this claim")]
    assert ours.simulator_counts()["agree"] == 2
    assert ours.simulator_counts()["not evaluated"] == 1
    assert ours.attribution_counts()[BOTH_AGREE] == 1
    assert ours.attribution_counts()[SIMULATOR_AGREES] == 1
    ours.save()
    saved = json.loads((tmp_path / "figures.json").read_text())
    assert saved["simulator"] == "ns-2.35"
    assert [c["attribution"] for c in saved["claims"]] == [BOTH_AGREE, SIMULATOR_AGREES, ""]
    again = FigureSet.load(tmp_path)
    assert again.simulator == "ns-2.35"
    assert [c.simulator_verdict for c in again.claims] == ["agree", "agree", "not evaluated"]


def test_the_simulator_database_sits_beside_the_final_one_and_has_no_variants(tmp_path):
    main = tmp_path / "paper" / "campaign.sqlite"
    ns2 = tmp_path / "paper-ns2" / "campaign.sqlite"
    variants = tmp_path / "paper-variants" / "campaign.sqlite"
    for path in (main, ns2, variants):
        path.parent.mkdir()
        path.write_bytes(b"")
    assert simulator_db(main, "paper") == ns2
    assert simulator_db(ns2, "paper") is None
    assert variants_db(main, "paper") == variants
    assert variants_db(ns2, "paper") is None  # ns-2's claims are not judged on our variants
    assert simulator_db(tmp_path / "paper" / "campaign-quick.sqlite", "paper") is None
    ns324 = tmp_path / "paper-ns324" / "campaign.sqlite"
    ns324.parent.mkdir()
    ns324.write_bytes(b"")
    assert simulator_db(main, "paper", "-ns324") == ns324
    assert variants_db(ns324, "paper") is None
