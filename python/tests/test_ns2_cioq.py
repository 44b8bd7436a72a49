# SPDX-License-Identifier: GPL-2.0-only
"""CIOQ-RED's scenario on ns-2.35 (``validation/ns2/cioq-red-evaluation.tcl``): an
output-queued router, since ns-2.35 has no CIOQ switch. Its parameters against the ns-3
example's ``--schema``, its report against its own, and what its runs must show: DropTail's
output queue above RED's at full load, RED's early drops, packets conserved at the outputs,
utilisation at most 1, the same sessions for both queue discs of one ``RngRun``.

Short runs (4 × 4, 30 s with the full load's session rate); without ``ns`` the tests skip,
except under ``CI=true``, where they fail.
"""

import pytest

from built_examples import example
from ns2_programs import Ns2Program, require_ns2
from qdisclab.context import REPO
from qdisclab.metrics import load_metrics
from qdisclab.schema import parse_schema, read_schema

PROGRAM = REPO / "validation" / "ns2" / "cioq-red-evaluation.tcl"
EXAMPLE = example("cioq-red-evaluation")
#: 4 × 4 at the paper's full load (800 sessions in 100 s), for 30 s.
SHORT = ("--ports=4", "--simTime=30", "--sessions=240")
#: The example's switch parameters: the output-queued router has none of them.
SWITCH_ONLY = ("speedup", "fabric", "islipIterations", "inputBuffer", "voqLimit", "nu")


def _need_ns2() -> None:
    require_ns2()


_PROGRAM = Ns2Program(PROGRAM, timeout=120)
run = _PROGRAM.run

metrics = _PROGRAM.metrics


@pytest.fixture(scope="module")
def schema():
    _need_ns2()
    return parse_schema(run("--schema").stdout, "cioq-red-evaluation.tcl --schema")


@pytest.fixture(scope="module")
def full_load():
    """DropTail and RED on the same sessions (RngRun 1)."""
    _need_ns2()
    return {queue: metrics(*SHORT, f"--queueDisc={queue}") for queue in ("FIFO", "RED")}


@pytest.mark.skipif(not EXAMPLE.is_file(), reason=f"{EXAMPLE} not built (qdisc-lab build)")
def test_shared_parameters_have_the_example_names_types_defaults_and_ranges(schema):
    ours = {p["name"]: p for p in schema.params}
    theirs = {p["name"]: p for p in read_schema(EXAMPLE).params}
    shared = sorted(set(ours) - {"RngRun", "RngSeed"})
    assert set(shared) <= set(theirs), set(shared) - set(theirs)
    for name in shared:
        mine, example_param = ours[name], theirs[name]
        assert mine["type"] == example_param["type"], name
        assert mine["recorded"] == example_param["recorded"], name
        if name != "queueDisc":  # the example's default, CioqRed, is what ns-2 cannot run
            assert mine["default"] == example_param["default"], name
        for bound, inside in (("min", lambda a, b: a >= b), ("max", lambda a, b: a <= b)):
            if bound in example_param:  # a range within the example's (delAckCount: 1 or 2)
                assert inside(mine[bound], example_param[bound]), (name, bound)
    assert theirs["queueDisc"]["default"] == "CIOQ-RED" and ours["queueDisc"]["default"] == "RED"
    assert not set(SWITCH_ONLY) & set(ours)
    example_metrics = {m["name"] for m in read_schema(EXAMPLE).metrics}
    assert {m["name"] for m in schema.metrics} <= example_metrics


def test_the_switch_is_refused_in_one_line(schema):
    _PROGRAM.assert_refused("--queueDisc=CIOQ-RED",
                            message="--queueDisc=CIOQ-RED: ns-2.35 has no CIOQ switch")
    for name in SWITCH_ONLY:
        _PROGRAM.assert_refused(f"--{name}=2", message=f"unknown parameter --{name}")
    # the paper's sessions are for 4 and 16 ports only
    _PROGRAM.assert_refused("--ports=8", message="for 4 and 16 ports only")


def test_a_run_reports_every_metric_its_schema_declares(schema, tmp_path):
    out = tmp_path / "m.json"
    done = run("--ports=4", "--simTime=10", "--sessions=80", "--queueDisc=FIFO",
               f"--output={out}")
    assert done.returncode == 0, done.stderr
    doc = load_metrics(out, schema)
    assert doc["simulator"] == "ns-2.35" and doc["program"] == "cioq-red-evaluation"
    assert doc["params"]["queueDisc"] == "FIFO" and doc["params"]["sessions"] == 80
    always = [m["name"] for m in schema.metrics if m["recorded"] == "always"]
    assert all(doc["metrics"][name] is not None for name in always)


def test_droptail_holds_a_longer_output_queue_than_red_at_full_load(full_load):
    droptail, red = full_load["FIFO"], full_load["RED"]
    assert droptail["mean_output_queue_packets"] > red["mean_output_queue_packets"] > 0
    assert droptail["mean_output_queue_packets"] <= 20  # the output buffer


def test_red_drops_early_and_droptail_only_when_full(full_load):
    droptail, red = full_load["FIFO"], full_load["RED"]
    assert red["early_drops"] > 0 and red["forced_drops"] >= 0
    assert red["early_drops"] + red["forced_drops"] == red["output_drops"]
    assert droptail["early_drops"] == droptail["forced_drops"] == 0
    assert droptail["output_drops"] > 0


def test_packets_are_conserved_and_utilisation_is_at_most_one(full_load):
    for m in full_load.values():
        left = m["switch_arrivals"] - m["switch_delivered"] - m["output_drops"]
        assert 0 <= left <= 4 * 20  # what the four 20-packet outputs still hold
        assert m["loss_rate"] == pytest.approx(m["output_drops"] / m["switch_arrivals"])
        assert m["input_drops"] == 0 and m["mean_input_queue_packets"] == 0  # no input queue
        assert 0.5 < m["utilization"] <= 1
        assert 0 < m["goodput_utilization"] < m["utilization"]  # headers, retransmissions
        # The sources' queues drop too: the paper's loss rate counts them.
        assert m["host_sent"] >= m["switch_arrivals"]
        assert m["end_to_end_loss_rate"] == pytest.approx(
            (m["host_drops"] + m["output_drops"]) / m["host_sent"])
        assert m["ack_path_drops"] == 0


def test_both_queue_discs_carry_the_same_sessions_and_rngrun_replicates(full_load):
    droptail, red = full_load["FIFO"], full_load["RED"]
    assert droptail["sessions_run"] == red["sessions_run"] == 240
    assert droptail["mean_concurrent_sessions"] == red["mean_concurrent_sessions"]
    short = ("--ports=4", "--simTime=10", "--sessions=80", "--queueDisc=RED")
    assert metrics(*short, "--RngRun=2") == metrics(*short, "--RngRun=2")
    assert metrics(*short, "--RngRun=3") != metrics(*short, "--RngRun=2")


def test_a_smaller_output_buffer_holds_less_and_drops_more(full_load):
    small = metrics(*SHORT, "--queueDisc=FIFO", "--outputBuffer=5")
    assert small["mean_output_queue_packets"] <= 5
    assert small["mean_output_queue_packets"] < full_load["FIFO"]["mean_output_queue_packets"]
    assert small["loss_rate"] > full_load["FIFO"]["loss_rate"]


# ------------------------------------------------------------------ the figures' reading


def _record(queue: str, output: float, seed: int, version: str = "ns-2.35"):
    """A stored run of ``queue`` at full load on ns-2.35 (its program's report: sessions 0, no
    switch) or on ns-3 (the example's report: the paper's 800 sessions, speedup 1.1)."""
    from qdisclab.campaign.store import RunRecord
    from synthetic_campaign import program_schema

    params = {"ports": 4, "queueDisc": queue, "load": 1.0}
    ns2 = version.startswith("ns-2")
    defaults, never = program_schema("cioq-red-evaluation", "ns2" if ns2 else "system")
    report = {**{k: v for k, v in defaults.items() if k not in never}, **params,
              **({} if ns2 else {"sessions": 800, "speedup": 1.1})}
    return RunRecord(run_key=f"{queue}-{seed}", campaign="cioq-red-ns2",
                     program="cioq-red-evaluation", grid="load-4", params=params, seed=seed,
                     status="ok", reason=None, metrics={"mean_output_queue_packets": output},
                     wall_time_s=1.0, exit_code=0, stderr_tail=None, ns3_version=version,
                     git_rev=None, host=None, command=None, attempts=1, started_at=None,
                     finished_at=None, reported_params=report)


@pytest.mark.parametrize("droptail, red, verdict", [(9.5, 8.5, "agree"), (8.0, 8.5, "disagree")])
def test_ns2_runs_are_the_output_queued_limit_and_judge_only_droptail_longest(
        droptail, red, verdict):
    from qdisclab.figures.cioq_red.analysis import OUTPUT_QUEUED, Study
    from qdisclab.figures.cioq_red.claims import CLAIM_IDS, output_queued_claims

    runs = [_record(q, value + 0.1 * seed, seed)
            for q, value in (("FIFO", droptail), ("RED", red)) for seed in (1, 2, 3)]
    study = Study(runs)
    assert {key[:4] for key in study.cells} == {(OUTPUT_QUEUED, 4, "FIFO", 4.0),
                                                (OUTPUT_QUEUED, 4, "RED", 4.0)}
    claims = {claim.id: claim for claim in output_queued_claims(study, 4)}
    assert set(claims) == set(CLAIM_IDS[4].values())
    assert claims["C3"].verdict == verdict and "s = N = 4" in claims["C3"].ours
    others = [claim for claim_id, claim in claims.items() if claim_id != "C3"]
    assert {claim.verdict for claim in others} == {"not evaluated"}
    assert all("ns-2.35 has no CIOQ switch" in claim.ours for claim in others)
    # The module's runs of the same parameters stay at the paper's fabric and speedup.
    module = Study([_record("RED", red, 1, version="3.44")])
    assert [key[:4] for key in module.cells] == [("Paper", 4, "RED", 1.1)]
