# SPDX-License-Identifier: GPL-2.0-only
"""Figures and claims of the CIOQ-RED reproduction, from a synthetic results database.

The runs are those of ``campaigns/cioq-red.toml`` (full and --quick grids, their seeds), so the
test also checks that the figures module reads the campaign the way it is written. Every
number is constructed: per seed the metrics add -d, 0, +d to a known cell mean (d a power of
two), so seed means and Student-t intervals are known in closed form.

* input queue: 30 / s^4 packets for every queue disc (so "roughly the same" and "very low
  from s = 2" hold);
* output queue: DropTail 10, RED 8, CIOQ-RED below RED by a gap that shrinks as 1 / s^4
  (``output``);
* loss rate and utilisation per load with CIOQ-RED 0.003 above / 0.01 below RED;
* over ν: the output queue 8 / (1 + 4ν), the loss rate 0.03 + 0.01ν, utilisation 0.95 - 0.01ν.
"""

import math
from pathlib import Path

import pytest
from scipy import stats

from qdisclab.campaign.spec import load_campaign
from qdisclab.campaign.store import ResultStore
from qdisclab.figures import REPRODUCTIONS, get_reproduction
from qdisclab.figures import cioq_red as cr
from qdisclab.figures.cioq_red.paper import PAPER_SPEEDUP
from synthetic_campaign import program_params, read_csv, run_params, write_campaign_db

CAMPAIGN = Path(__file__).resolve().parents[2] / "campaigns" / "cioq-red.toml"
PROGRAM = "cioq-red-evaluation"


def program_resolve(params: dict) -> dict:
    """What the example reports where its default is a placeholder (test_cioq_red_example
    checks its report): the paper's sessions (times ``load``), speedup and ν for the switch
    size."""
    ports, out = params["ports"], {}
    if params["sessions"] == 0:
        out["sessions"] = round(params["load"] * cr.PAPER_SESSIONS[ports])
    if params["speedup"] < 0:
        out["speedup"] = PAPER_SPEEDUP[ports]
    if params["nu"] < 0:
        out["nu"] = cr.PAPER_NU[ports]
    return out


def params_of(run) -> dict:
    """Every parameter a run of the campaigns has, as the example reports it."""
    return run_params(run, resolve=program_resolve)
OFFSET = {1: -1.0, 2: 0.0, 3: 1.0}
D = 1 / 64


def output(queue: str, speedup: float, nu: float) -> float:
    if queue == "FIFO":
        return 10.0
    red = 8.0
    if queue == "RED" or nu == 0:
        return red
    return red - 12.0 * (4 * nu) / (1 + 4 * nu) / speedup**4


def synthetic_metrics(params: dict, seed: int, seeds: list[int]) -> dict:
    p = cr.resolved(params)
    # Centre the offsets on the seeds actually run, so seed means are the constructed values.
    k = OFFSET[seed] - sum(OFFSET[s] for s in seeds) / len(seeds)
    s, queue, nu = p["speedup"], p["queueDisc"], p["nu"]
    load = p["sessions"] / cr.PAPER_SESSIONS[p["ports"]]
    loss = 0.02 * load + (0.003 if queue == "CIOQ-RED" else 0.0) + 0.01 * nu
    util = 0.9 + 0.05 * load - (0.01 if queue == "CIOQ-RED" else 0.0) - 0.01 * nu
    return {cr.INPUT: 30.0 / s**4 + k * D, cr.OUTPUT: output(queue, s, nu) + k * D,
            cr.LOSS: loss + k * D / 16, cr.UTIL: util + k * D / 16,
            "goodput_utilization": util - 0.1}


def make_db(path: Path, quick: bool) -> int:
    seeds = list(load_campaign(CAMPAIGN, quick=quick).seeds)
    return write_campaign_db(
        path, CAMPAIGN, lambda run: synthetic_metrics(params_of(run), run.seed, seeds),
        quick=quick, wall_time_s=lambda run: 12.5 if run.params["ports"] == 16 else 1.5,
        ns3_version="3.44", resolve=program_resolve)


@pytest.fixture(scope="module", params=[False, True], ids=["full", "quick"])
def figures(request, tmp_path_factory):
    quick = request.param
    directory = tmp_path_factory.mktemp("cioq-red")
    db = directory / ("campaign-quick.sqlite" if quick else "campaign.sqlite")
    make_db(db, quick)
    return quick, get_reproduction("cioq-red").make_figures(db, directory / "out")


def test_registry_and_campaign():
    assert "cioq-red" in REPRODUCTIONS
    assert get_reproduction("cioq-red").figures_function() is cr.make_figures
    full = load_campaign(CAMPAIGN)
    quick = load_campaign(CAMPAIGN, quick=True)
    assert full.program == "cioq-red-evaluation" and full.ns3 == "wheel"
    assert full.seeds == (1, 2, 3) and quick.seeds == (1, 2)
    # Per seed, 4 x 4: speedup 3 x 9, load 3 x 10, nu 6, iSLIP 3 x 6 + 3 x 4;
    # 16 x 16: speedup 3 x 6, load 3 x 4, nu 3, iSLIP 3 + 3.
    by_size = {4: 0, 16: 0}
    for run in full.runs():
        by_size[run.params["ports"]] += 1
    assert by_size == {4: 3 * (27 + 30 + 6 + 18 + 12), 16: 3 * (18 + 12 + 3 + 3 + 3)}
    # --quick: the 16 x 16 grids become copies of the 4 x 4 ones, run once.
    assert {r.params["ports"] for r in quick.runs()} == {4}
    assert len(quick.runs()) == 2 * (6 + 6 + 2 + 6 + 6)


def test_resolved_reads_the_report():
    """A run's coordinates as the example reports them; ν is 0 for RED and DropTail; sessions
    = 0 (what ns-2.35's program reports) is ``load`` times the paper's."""
    p = cr.resolved(program_params(PROGRAM, ports=16, queueDisc="CIOQ-RED", load=0.5,
                                   sessions=3200, speedup=1.4, nu=0.125))
    assert (p["speedup"], p["sessions"], p["nu"], p["fabric"]) == (1.4, 3200, 0.125, "Paper")
    p = cr.resolved(program_params(PROGRAM, ports=4, queueDisc="RED", speedup=2.1,
                                   fabric="Islip"))
    assert (p["speedup"], p["sessions"], p["nu"], p["fabric"]) == (2.1, 800, 0.0, "Islip")
    with pytest.raises(KeyError, match="fabric"):
        cr.resolved({k: v for k, v in program_params(PROGRAM).items() if k != "fabric"})


def test_artifacts(figures):
    quick, result = figures
    ids = {a.id for a in result.artifacts}
    expected = {"fig2", "fig3", "fig2-islip", "fig3-islip", "nu-tradeoff"}
    if not quick:
        expected |= {"fig4", "fig5", "fig4-islip", "fig5-islip"}
    assert ids == expected
    for artifact in result.artifacts:
        assert artifact.png.is_file() and artifact.pdf.is_file() and artifact.csv.is_file()


def test_speedup_csv_has_the_constructed_means_and_intervals(figures):
    quick, result = figures
    (fig2,) = [a for a in result.artifacts if a.id == "fig2"]
    rows = read_csv(fig2.csv)
    speedups = sorted({float(r["speedup"]) for r in rows})
    assert speedups == ([1.1, 2.1] if quick else
                        [1.1, 1.3, 1.5, 1.7, 1.9, 2.1, 2.3, 2.5, 2.7])
    assert len(rows) == 3 * len(speedups)
    seeds = [1, 2] if quick else [1, 2, 3]
    n = len(seeds)
    sd = stats.tstd([OFFSET[seed] * D for seed in seeds])
    half = stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n)
    for row in rows:
        s, queue = float(row["speedup"]), row["queueDisc"]
        assert float(row["input_mean"]) == pytest.approx(30 / s**4)
        assert float(row["output_mean"]) == pytest.approx(output(queue, s, cr.PAPER_NU[4]))
        assert float(row["output_ci95"]) == pytest.approx(half)
        assert int(row["n"]) == n and int(row["sessions"]) == 800


def test_load_csv(figures):
    quick, result = figures
    (fig3,) = [a for a in result.artifacts if a.id == "fig3"]
    rows = read_csv(fig3.csv)
    loads = sorted({int(r["sessions"]) for r in rows})
    assert loads == ([400, 800] if quick else list(range(80, 801, 80)))
    for row in rows:
        assert float(row["speedup"]) == 1.1
        extra = 0.003 if row["queueDisc"] == "CIOQ-RED" else 0.0
        assert float(row["loss_rate_mean"]) == pytest.approx(
            0.02 * int(row["sessions"]) / 800 + extra + 0.01 * float(row["nu"]))


def test_claims_follow_the_rules(figures):
    quick, result = figures
    by = {(c.where, c.paper[:30]): c for c in result.claims}
    sizes = [4] if quick else [4, 16]
    for ports in sizes:
        speed = [c for c in result.claims if c.where == cr.claims._where(ports, "speedup")]
        # 4 x 4's "very low from s = 2" is the calibration statement S14: shown, not judged.
        expected = ["agree", "agree", "calibrated", "agree", "agree", "agree"] if ports == 4 \
            else ["agree"] * 5
        assert [c.verdict for c in speed] == expected, [c.ours for c in speed]
        load = [c for c in result.claims if c.where == cr.claims._where(ports, "load")]
        # Utilisation 0.01 + 0.01 ν apart, loss rate 0.003 + 0.01 ν: both within the rules.
        assert load[0].verdict == "agree"
        expected = 0.003 + 0.01 * cr.PAPER_NU[ports]
        assert load[1].verdict == "agree" and not load[1].cause
        assert f"{expected:.4f}" in load[1].ours
        # Seed offsets are common to the queue discs: every paired difference is exact.
        loads = 2 if quick else (10 if ports == 4 else 4)
        assert f"paired over seeds: {loads} ahead)" in load[1].ours
        assert f"{loads} inside ±0.01, 0 tied with its edge, 0 outside" in load[1].ours
        # CIOQ-RED vs DropTail utilisation: 0.01 + 0.01 ν below.
        assert load[2].verdict == "agree" and load[2].id == cr.CLAIM_IDS[ports]["util droptail"]
        assert f"{0.01 + 0.01 * cr.PAPER_NU[ports]:.3f}" in load[2].ours
        speedups = 2 if quick else (9 if ports == 4 else 7)  # 16 x 16: with load-16's 1.4
        assert f"against the longer RED: {speedups} ahead " in speed[-3].ours
        (nu,) = [c for c in result.claims if c.where == f"§V.A (ν), {ports}×{ports}"]
        assert nu.verdict == "agree" and "ρ -1.00" in nu.ours
    assert by  # every claim has a verdict from the registry's list
    ids = [c.id for c in result.claims]
    four = ["C1", "C2a", "C2b", "C19", "C3", "C4", "C5", "C6", "C7", "C17", "C8"]
    sixteen = ["C9", "C10", "C11", "C12", "C13", "C14", "C15", "C18", "C16"]
    assert ids == (four if quick else four + sixteen)
    (s18,) = [c for c in result.claims if c.id == "C19"]
    # Input 30 / s^4: input(1.5) / input(1.1) = (1.1 / 1.5)^4.
    # A calibration target met is "calibrated"; one that could not be measured is not.
    assert s18.verdict == ("not evaluated" if quick else "calibrated")
    assert ("= not run" if quick else f"= {(1.1 / 1.5) ** 4:.1%}") in s18.ours


def test_claims_detect_a_disagreement(tmp_path):
    """CIOQ-RED no better than RED: the low-speedup claim says so."""
    db = tmp_path / "campaign-quick.sqlite"
    make_db(db, quick=True)
    with ResultStore(db) as store:
        rows = store.conn.execute("SELECT run_key, output, metrics FROM runs").fetchall()
        with store.conn:
            for key, output, metrics in rows:
                import json
                p, m = json.loads(output)["params"], json.loads(metrics)
                if cr.resolved(p)["queueDisc"] == "CIOQ-RED":
                    m[cr.OUTPUT] = 8.5
                    store.conn.execute("UPDATE runs SET metrics = ? WHERE run_key = ?",
                                       (json.dumps(m), key))
    result = cr.make_figures(db, tmp_path / "out")
    (low,) = [c for c in result.claims if c.paper.startswith("at low speedup")]
    assert low.verdict == "disagree" and "RED 8.00" in low.ours


@pytest.mark.parametrize(("switch_gap", "sent_gap", "verdict"),
                         [(0.015, 0.005, "agree"), (0.005, 0.015, "partly")])
def test_loss_claim_is_judged_on_the_papers_loss_rate(tmp_path, switch_gap, sent_gap, verdict):
    """C7 is judged on the paper's loss rate, dropped over sent (``end_to_end_loss_rate``); the
    loss at the switch is shown beside it and does not decide the verdict."""
    db = tmp_path / "campaign-quick.sqlite"
    make_db(db, quick=True)
    with ResultStore(db) as store:
        rows = store.conn.execute("SELECT run_key, output, metrics, seed FROM runs").fetchall()
        with store.conn:
            for key, output, metrics, seed in rows:
                import json
                p, m = json.loads(output)["params"], json.loads(metrics)
                cioq = cr.resolved(p)["queueDisc"] == "CIOQ-RED"
                noise = OFFSET[seed] * D / 16
                m[cr.LOSS] = 0.03 + noise + (switch_gap if cioq else 0.0)
                m[cr.PAPER_LOSS] = 0.06 + noise + (sent_gap if cioq else 0.0)
                store.conn.execute("UPDATE runs SET metrics = ? WHERE run_key = ?",
                                   (json.dumps(m), key))
    result = cr.make_figures(db, tmp_path / "out")
    (loss,) = [c for c in result.claims if c.id == cr.CLAIM_IDS[4]["loss"]]
    assert loss.verdict == verdict
    assert loss.ours.startswith("the paper's loss rate (dropped over sent): CIOQ-RED's is higher")
    assert f"largest |Δ| {sent_gap:.4f}" in loss.ours  # the paper's reading
    assert f"the loss at the switch: CIOQ-RED's is higher" in loss.ours
    assert f"largest |Δ| {switch_gap:.4f}" in loss.ours  # shown beside it
    assert "rule (on the paper's loss rate (dropped over sent))" in loss.ours
