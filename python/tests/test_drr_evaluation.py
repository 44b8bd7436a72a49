# SPDX-License-Identifier: GPL-2.0-only
"""Figures, tables and claims of the DRR evaluation, from a synthetic results database.

The runs are those of ``campaigns/drr-evaluation.toml`` (its --quick grid, three seeds), so
the test also checks that the figures module reads the campaign the way it is written. Every
number is constructed: per seed the metrics add -d, 0, +d to a known cell mean, with d a
power of two, so seed means and Student-t intervals are known in closed form.

* fig3: standard deviation 12 (Buckets 1), 24 (8), 2 (10, 16) kb/s with the ns-2 mapping and
  12 (1) or 30 (8, 10, 16) with the hash, plus 4 at the smallest MaxSize; d = 1/4.
* factorial, main design: the paper's Tables 2 and 4 exactly (d = 1/64 and 1/1024), so the
  2^3 r analysis gives the paper's effects; DRR tail drop: DRR = DropTail + 1/16 s
  (DRR worse); equal buffers: DropTail = the paper's DRR delay + 1/32 s.
"""

import math
from pathlib import Path

import pytest
from scipy import stats

from qdisclab.campaign.spec import load_campaign
from qdisclab.factorial import analyze
from qdisclab.figures import REPRODUCTIONS, get_reproduction
from qdisclab.figures import drr_evaluation as drr
from qdisclab.figures.common import Estimate, parse_bytes, parse_mbps
from qdisclab.report import write_report
from synthetic_campaign import (
    draw_results,
    program_params,
    read_csv,
    run_params,
    write_campaign_db,
)

CAMPAIGN = Path(__file__).resolve().parents[2] / "campaigns" / "drr-evaluation.toml"
PROGRAM = "drr-evaluation"


def program_resolve(params: dict) -> dict:
    """What the example reports where its default is a placeholder (test_drr_evaluation_example
    checks its report): the buffer by scenario and queue disc for an empty maxSize; in the
    factorial, the measured flow's inter-arrival times for a background's 0."""
    out = {}
    if not params["maxSize"]:
        out["maxSize"] = "25000B" if params["scenario"] == "fairness" else (
            "200000B" if params["queueDisc"] == "DRR" else "400p")
    if params["scenario"] == "factorial":
        out["bgIntervalMin"] = params["bgIntervalMin"] or params["intervalMin"]
        out["bgIntervalMax"] = params["bgIntervalMax"] or params["intervalMax"]
    return out


def params_of(run) -> dict:
    """Every parameter a run of the campaign has (the example's defaults for its scenario)."""
    return run_params(run, resolve=program_resolve)
SEED_OFFSET = {1: -1.0, 2: 0.0, 3: 1.0}  # times d
T2 = stats.t.ppf(0.975, 2)  # three seeds


def fairness_std(mapping: str, buckets: int, size: int) -> float:
    base = {"sequential": {1: 12.0, 8: 24.0, 10: 2.0, 16: 2.0},
            "hash": {1: 12.0, 8: 30.0, 10: 30.0, 16: 30.0}}[mapping][buckets]
    return base + (4.0 if size == 3000 else 0.0)


def factorial_values(p: int, b: float, config: tuple[str, str, str]) -> tuple[float, float]:
    """(delay, ratio) seed means of a factorial cell in any of the designs."""
    queue = config[0]
    delay = drr.PAPER_TABLE2[(p, b, queue)]
    ratio = drr.PAPER_TABLE4[(p, b, queue)]
    if config == drr.VARIANTS["drr-tail"][1]:
        delay = drr.PAPER_TABLE2[(p, b, "FIFO")] + 1 / 16
    if config == drr.VARIANTS["equal-buffers"][0]:
        delay = drr.PAPER_TABLE2[(p, b, "DRR")] + 1 / 32
    return delay, ratio


def synthetic_metrics(params: dict, seed: int) -> dict:
    p = drr.resolved(params)
    k = SEED_OFFSET[seed]
    if p["scenario"] == "fairness":
        size = parse_bytes(p["maxSize"])
        std = fairness_std(p["flowMapping"], p["buckets"], size) + k / 4
        colliding = {1: 10, 8: 4}.get(p["buckets"], 0) if p["flowMapping"] == "sequential" else 6
        return {"throughput_std_kbps": std, "throughput_mean_kbps": 100.0,
                "jain_index": 1 - std / 1024, "mean_delay_s": 0.0625, "arrival_ratio": 0.125,
                "colliding_flows": colliding}
    config = (p["queueDisc"], p["maxSize"], p["dropFrom"])
    delay, ratio = factorial_values(p["packetSizeMin"], p["bottleneckRate"], config)
    return {"throughput_std_kbps": 1.0, "throughput_mean_kbps": 500.0, "jain_index": 1.0,
            "mean_delay_s": delay + k / 64, "arrival_ratio": ratio + k / 1024}


def make_db(path: Path, quick: bool = True, *, skip=lambda run: False) -> int:
    """Write a synthetic database of the campaign; return the number of runs stored."""
    return write_campaign_db(path, CAMPAIGN,
                             lambda run: synthetic_metrics(params_of(run), run.seed),
                             quick=quick, skip=skip, resolve=program_resolve)


@pytest.fixture(scope="module")
def quick_figures(tmp_path_factory):
    root = tmp_path_factory.mktemp("results")
    return root, *draw_results(root, "drr-evaluation", make_db, quick=True)


def claim(figures, where: str):
    (found,) = [c for c in figures.claims if c.where == where]
    return found


# ----------------------------------------------------------------- the campaign file


def test_registry_and_campaign():
    assert "drr-evaluation" in REPRODUCTIONS
    reproduction = get_reproduction("drr-evaluation")
    assert reproduction.figures_function() is drr.make_figures
    full = load_campaign(reproduction.campaign)
    quick = load_campaign(reproduction.campaign, quick=True)
    assert full.program == "drr-evaluation" and full.ns3 == "optimized"
    assert len(full.runs()) == 1080 and len(full.seeds) == 5
    assert len(quick.runs()) == 288 and len(quick.seeds) == 3


@pytest.mark.parametrize("quick", [False, True])
def test_campaign_runs_exactly_the_designs(quick):
    """Every factorial run belongs to a design of VARIANTS; each design is complete."""
    campaign = load_campaign(CAMPAIGN, quick=quick)
    configs = {c for pair in drr.VARIANTS.values() for c in pair}
    cells = {}
    for run in campaign.runs():
        p = drr.resolved(params_of(run))
        if p["scenario"] != "factorial":
            assert p["queueDisc"] == "DRR" and parse_bytes(p["maxSize"])
            continue
        config = (p["queueDisc"], p["maxSize"], p["dropFrom"])
        assert config in configs
        assert p["packetSizeMin"] == p["packetSizeMax"] in drr.P_LEVELS
        assert p["bottleneckRate"] in drr.B_LEVELS
        cells.setdefault((p["packetSizeMin"], p["bottleneckRate"], config), set()).add(run.seed)
    for pair in drr.VARIANTS.values():
        for config in pair:
            for size in drr.P_LEVELS:
                for rate in drr.B_LEVELS:
                    assert cells[(size, rate, config)] == set(campaign.seeds)


def test_parsers():
    assert parse_bytes("25000B") == 25000
    assert parse_bytes("400p") is None
    assert parse_mbps("1.5Mbps") == 1.5 and parse_mbps("500kbps") == 0.5
    # A factorial DropTail run as the example reports it: its scenario's defaults, no DRR
    # settings, no source rate.
    report = {k: v for k, v in program_params(PROGRAM, scenario="factorial", queueDisc="FIFO",
                                              maxSize="400p").items()
              if k not in ("buckets", "quantum", "dropFrom", "flowMapping", "onRate")}
    p = drr.resolved(report)
    assert (p["maxSize"], p["nFlows"], p["packetSizeMin"], p["packetSizeMax"]) == ("400p", 2, 500,
                                                                                  500)
    assert (p["dropFrom"], p["buckets"], p["flowMapping"], p["onRate"]) == ("", None, None, None)
    assert p["background"] == (1, 0, 2.5, 7.5)
    fairness = drr.resolved(program_params(PROGRAM, maxSize="25000B"))
    assert (fairness["nFlows"], fairness["buckets"], fairness["dropFrom"]) == (10, 10, "Head")
    assert fairness["background"] is None
    # A parameter the report lacks is an error, not a default.
    with pytest.raises(KeyError, match="maxSize"):
        drr.resolved({k: v for k, v in report.items() if k != "maxSize"})


# ----------------------------------------------------------------- fig3


def test_files_are_written(quick_figures):
    _, directory, figures, count = quick_figures
    assert count == 288
    assert [a.id for a in figures.artifacts] == ["fig3", "table2", "table4", "table3", "table5"]
    for suffix in (".png", ".pdf", ".csv"):
        assert (directory / f"fig3{suffix}").stat().st_size > 0
    assert (directory / "fig3.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for stem in ("table2", "table3", "table4", "table5"):
        assert (directory / f"{stem}.csv").is_file()
    assert (directory / "figures.json").is_file()


def test_fig3_csv_is_exact(quick_figures):
    _, directory, _, _ = quick_figures
    rows = read_csv(directory / "fig3.csv")
    assert len(rows) == 2 * 4 * 10
    half = T2 * 0.25 / math.sqrt(3)  # sample sd of -1/4, 0, 1/4 is 1/4
    for row in rows:
        mapping, buckets, size = row["flowMapping"], int(row["buckets"]), int(row["maxSize_bytes"])
        assert float(row["std_kbps_mean"]) == fairness_std(mapping, buckets, size)
        assert float(row["std_kbps_ci95"]) == pytest.approx(half, rel=1e-12)
        assert int(row["n"]) == 3
        assert float(row["throughput_mean_kbps"]) == 100.0
    assert {int(r["maxSize_bytes"]) for r in rows} == {3000, 4500, 6000, 9000, 12000, 15000,
                                                        20000, 25000, 35000, 45000}


def test_fig3_claims(quick_figures):
    _, _, figures, _ = quick_figures
    worse, threshold, convex = [c for c in figures.claims if c.where == "§3, Fig. 3"]
    assert worse.verdict == "agree"
    assert worse.id == "C1"
    assert ("(95 % CIs apart) at 10 of 10 MaxSize values, tied (CIs overlap) at 0, below at 0"
            in worse.ours)
    assert "mean 18.0 vs 2.0 kb/s" in worse.ours  # 45000 B: (12 + 24) / 2 vs 2
    assert "Buckets 8: 4.0, Buckets 10: 0.0, Buckets 16: 0.0" in worse.ours
    assert threshold.verdict == "agree"
    assert "Buckets 10" in threshold.ours and "within the minimum's interval from 4500 B" \
        in threshold.ours
    # Along Buckets the slice rises from 1 to 8 before its minimum at 10: not unimodal.
    assert (threshold.id, convex.id) == ("C2", "C3")
    assert convex.verdict == "partly"
    assert "at Buckets 10, MaxSize 4500 B" in convex.ours
    assert "1 step(s) against a single minimum along Buckets, 0 along MaxSize" in convex.ours
    assert "within them, tied: 0 and 0" in convex.ours
    assert convex.cause == "variant not run"
    assert "best Buckets per MaxSize: 10" in convex.ours
    hashed = claim(figures, "§3, Fig. 3 (DrrQueueDisc's hash)")
    assert hashed.verdict == "disagree" and "at 0 of 10 MaxSize values" in hashed.ours
    assert hashed.id == "C4" and "below at 10" in hashed.ours


def test_unimodal_violations():
    flat = Estimate(1.0, 0.1, 3)
    assert drr.unimodal_violations([flat, flat, flat]) == 0
    series = [Estimate(m, 0.5, 3) for m in (5, 3, 1, 2, 4)]
    assert drr.unimodal_violations(series) == 0
    series = [Estimate(m, 0.5, 3) for m in (5, 8, 1, 2, 1.5)]
    assert drr.unimodal_violations(series) == 1  # the rise 5 -> 8; 2 -> 1.5 is within noise


# ----------------------------------------------------------------- tables 2-5


def test_table2_and_table4_are_exact(quick_figures):
    _, directory, figures, _ = quick_figures
    for stem, paper, d in (("table2", drr.PAPER_TABLE2, 1 / 64), ("table4", drr.PAPER_TABLE4,
                                                                  1 / 1024)):
        rows = read_csv(directory / f"{stem}.csv")
        assert len(rows) == 8
        for row in rows:
            cell = (int(row["packet_size"]), float(row["bottleneck_mbps"]), row["queueDisc"])
            assert float(row["paper"]) == paper[cell]
            assert float(row["main_mean"]) == pytest.approx(paper[cell], abs=1e-12)
            assert float(row["main_ci95"]) == pytest.approx(T2 * d / math.sqrt(3), rel=1e-9)
            assert int(row["main_n"]) == 3
            for variant in ("drr_tail", "equal_buffers"):
                assert int(row[f"{variant}_n"]) == 3
    rows = {(int(r["packet_size"]), float(r["bottleneck_mbps"]), r["queueDisc"]): r
            for r in read_csv(directory / "table2.csv")}
    assert float(rows[(1000, 1.0, "DRR")]["drr_tail_mean"]) == pytest.approx(3.232 + 1 / 16)
    assert float(rows[(1000, 1.0, "FIFO")]["drr_tail_mean"]) == pytest.approx(3.232)
    assert float(rows[(1000, 1.0, "FIFO")]["equal_buffers_mean"]) == pytest.approx(
        1.6192 + 1 / 32)
    table2 = next(a for a in figures.artifacts if a.id == "table2").table
    assert table2.columns == ["B (Mb/s)", "", "500 B, DropTail", "500 B, DRR",
                              "1000 B, DropTail", "1000 B, DRR"]
    assert table2.rows[0] == ["1", "paper", "1.530", "1.561", "3.232", "1.619"]
    assert table2.rows[1][:3] == ["1", "ours", "1.530 ± 0.039"]
    assert table2.rows[2] == ["1", "ours, DRR tail drop", "= ours", "1.592 ± 0.039", "= ours",
                              "3.295 ± 0.039"]


def test_table3_and_table5_reproduce_the_papers_effects(quick_figures):
    """With the paper's cell means, the 2^3 r effects are the paper's 2^3 effects."""
    _, directory, figures, _ = quick_figures
    for stem, table, response, d in (("table3", drr.PAPER_TABLE2, drr.DELAY, 1 / 64),
                                     ("table5", drr.PAPER_TABLE4, drr.RATIO, 1 / 1024)):
        paper = drr.paper_analysis(table, response)
        rows = {r["effect"]: r for r in read_csv(directory / f"{stem}.csv")}
        assert list(rows) == ["I", *drr.EFFECTS, "error"]
        # r = 3 replications, per cell offsets -d, 0, +d: SSE = 8 * 2 d^2, 16 degrees of freedom.
        sse = 16 * d * d
        s_q = math.sqrt(sse / 16) / math.sqrt(24)
        half = stats.t.ppf(0.975, 16) * s_q
        sst = sum(24 * paper.effect(n).value ** 2 for n in drr.EFFECTS) + sse
        for name in ("I", *drr.EFFECTS):
            row = rows[name]
            assert float(row["paper_recomputed"]) == pytest.approx(paper.effect(name).value,
                                                                   abs=1e-12)
            assert float(row["main_effect"]) == pytest.approx(paper.effect(name).value,
                                                              abs=1e-12)
            assert float(row["main_ci_high"]) - float(row["main_effect"]) == pytest.approx(
                half, rel=1e-9)
            if name != "I":
                expected = 100 * 24 * paper.effect(name).value ** 2 / sst
                assert float(row["main_percent"]) == pytest.approx(expected, rel=1e-9)
        assert float(rows["error"]["main_percent"]) == pytest.approx(100 * sse / sst, rel=1e-9)
    rows = {r["effect"]: r for r in read_csv(directory / "table3.csv")}
    assert float(rows["B"]["paper_equation"]) == -0.37
    assert float(rows["B"]["paper_recomputed"]) == pytest.approx(-0.37564, abs=1e-5)
    assert float(rows["P"]["paper_percent"]) == 28.37
    # DRR tail drop: DRR = DropTail + 1/16 s, so qQ = +1/32 and no Q interaction.
    assert float(rows["Q"]["drr_tail_effect"]) == pytest.approx(1 / 32, abs=1e-12)
    assert float(rows["PQ"]["drr_tail_effect"]) == pytest.approx(0.0, abs=1e-12)
    rows5 = {r["effect"]: r for r in read_csv(directory / "table5.csv")}
    # The equation as printed swaps BQ and PQ; the table recomputed does not.
    assert float(rows5["BQ"]["paper_equation"]) == -0.003
    assert float(rows5["PQ"]["paper_recomputed"]) == pytest.approx(-0.0029, abs=1e-4)
    table3 = next(a for a in figures.artifacts if a.id == "table3")
    assert "y = 1.61 + 0.38xP − 0.37xB" in table3.caption
    assert "recomputed: y = 1.61 + 0.38xP − 0.38xB" in table3.caption
    assert any("swaps the BQ and PQ" in note for note in figures.notes)


def test_factorial_claims(quick_figures):
    _, _, figures, _ = quick_figures
    assert claim(figures, "Table 2").verdict == "agree"
    assert claim(figures, "Table 2").ours.startswith(
        "6 held-out cells (the anchor cells 1000 B, 1 Mb/s, DropTail; 1000 B, 1 Mb/s, DRR"
        " calibrated): 6 within ±15% of the paper's (95 % CI inside the band), 0 tied")
    assert [c.id for c in figures.claims] == [f"C{i}" for i in range(1, 19)]
    anchors = [c for c in figures.claims if c.verdict == "calibrated"]
    assert [c.id for c in anchors] == ["C16", "C17", "C18"]
    assert anchors[0].ours.startswith("3.232 ± 0.039 s with the chosen DropTail limit 400p")
    assert anchors[2].ours.startswith(
        "0.949 ± 0.002 with the chosen background 1 × 1000 B, (5, 15) ms")
    table3 = claim(figures, "Table 3")
    assert table3.verdict == "agree" and table3.ours.startswith("by decreasing importance: P,"
                                                                " B, PQ, Q, PBQ, BQ, PB")
    eq1 = claim(figures, "Eq. (1)")
    assert eq1.verdict == "agree" and "|qQ|/|qB| = 0.86" in eq1.ours
    large = claim(figures, "§4, Eq. (1)")
    assert large.verdict == "agree"
    assert "1 Mb/s −1.613 ± 0.000 s; 1.5 Mb/s −1.016 ± 0.000 s" in large.ours
    assert claim(figures, "Table 4").verdict == "agree"
    table5 = claim(figures, "Table 5")
    assert table5.verdict == "agree" and table5.ours.startswith("ours: B 76.")
    queue = claim(figures, "§4, Table 4")
    assert queue.verdict == "agree" and "0.0120" in queue.ours
    # The tail-drop variant, constructed with DRR slower than DropTail, disagrees.
    assert claim(figures, "Table 2 (DRR tail drop)").verdict == "partly"
    assert claim(figures, "Table 3 (DRR tail drop)").verdict == "partly"  # P, B, PB, Q
    assert claim(figures, "Eq. (1) (DRR tail drop)").verdict == "disagree"
    assert claim(figures, "§4, Eq. (1) (DRR tail drop)").verdict == "disagree"


def test_the_papers_own_tables_give_its_table_3_and_5():
    delay = drr.paper_analysis(drr.PAPER_TABLE2, drr.DELAY)
    ratio = drr.paper_analysis(drr.PAPER_TABLE4, drr.RATIO)
    for name in drr.EFFECTS:
        assert delay.effect(name).percent == pytest.approx(drr.PAPER_TABLE3[name], abs=0.006)
        assert ratio.effect(name).percent == pytest.approx(drr.PAPER_TABLE5[name], rel=1e-3)
    assert analyze  # the same module the figures use


def test_report_embeds_the_study(quick_figures):
    root, _, _, _ = quick_figures
    text = write_report(root).read_text(encoding="utf-8")
    assert 'href="drr-evaluation/quick/fig3.csv"' in text
    assert 'href="drr-evaluation/quick/table3.csv"' in text
    assert text.count('src="data:image/png;base64,') == 1
    assert "288 planned: 288 ok" in text


def test_missing_cells_are_reported(tmp_path):
    """Without the DRR tail-drop runs that design is incomplete; without fairness runs fig3 is
    not drawn and its claims are not evaluated."""
    db = tmp_path / "campaign-quick.sqlite"
    make_db(db, skip=lambda run: run.grid in ("fig3", "factorial-drr-tail")
            or (run.grid == "factorial" and run.seed == 3 and run.params["queueDisc"] == "DRR"
                and run.params["packetSizeMin"] == 1000))
    figures = get_reproduction("drr-evaluation").make_figures(db, tmp_path / "out")
    assert [a.id for a in figures.artifacts] == ["table2", "table4", "table3", "table5"]
    assert claim(figures, "§3, Fig. 3").verdict == "not evaluated"
    assert any("r = 2" in note for note in figures.notes)  # seed 3 lacks two cells
    rows = read_csv(tmp_path / "out" / "table2.csv")
    assert all(row["drr_tail_n"] in ("0", "3") for row in rows)
    assert not any(c.where.endswith("(DRR tail drop)") for c in figures.claims)
