# SPDX-License-Identifier: GPL-2.0-only
"""Figures, tables and claims of the Assured Service study, from a synthetic results database.

The runs are those of ``campaigns/rio-assured-service.toml`` (six seeds everywhere), so the
test also checks that the figures module reads the campaign as it is written. Every number is
constructed: per seed the metrics add a known multiple of d = 1/256 to a cell mean (seeds 1-6:
-2.5 .. +2.5), so seed means and Student-t intervals are known in closed form, and paired
differences between two settings are exact.

* Table 1: RI+O rows are the paper's numbers; RIO rows are 1.50 - 0.01 i (i: the setting's
  index) for the 2 Mb/s class and 0.95, 0.60, 0.35, 0.30, 0.27 for the others, except IN+OUT
  200/600/0.1 (1.75, 1.00, 0.55, 0.33, 0.28, 0.25: the single best RIO), so the per-class
  maxima take the 2 and 1 Mb/s classes from 200/600/0.1 and the others from 347/694/0.05; the
  paper's RIO 347/694/0.05 gives the 0.1 Mb/s class 0.30 Mb/s (above its 0.22 fair share).
  IN throughput is 0.9 x the profile, OUT drop probabilities 5, 4, 3, 2, 1 %.
* Fig. 2: the AS flows get profile + 0.1 up to a limit of BE flows, profile - 0.1 beyond;
  limits 11 (RIO) and 26 (RI+O) at 40 %, 2 and 16 at 50 %.
* Fig. 3: likewise along the subscription level: 0.9 / 0.9 (0.5 Mb/s), 0.5 / 0.7 (1 Mb/s),
  never / 0.3 (2 Mb/s).
"""

import math
from pathlib import Path

import pytest
from scipy import stats

from qdisclab.campaign.spec import load_campaign
from qdisclab.campaign.store import ResultStore, RunRecord
from qdisclab.figures import REPRODUCTIONS, get_reproduction
from qdisclab.figures.common import parse_mbps, t_interval
from qdisclab.figures import rio_assured_service as ras
from qdisclab.report import write_report
from synthetic_campaign import (
    draw_results,
    program_params,
    read_csv,
    stored_run,
    write_campaign_db,
)

CAMPAIGN = Path(__file__).resolve().parents[2] / "campaigns" / "rio-assured-service.toml"
D = 1 / 256
RIO_SETTINGS = [(347.0, 694.0), (200.0, 600.0), (100.0, 300.0), (30.0, 90.0), (10.0, 30.0)]
FIG2_LIMITS = {(0.4, "RIO"): 11, (0.4, "RI+O"): 26, (0.5, "RIO"): 2, (0.5, "RI+O"): 16}
FIG3_LIMITS = {(0.5, "RIO"): 0.9, (0.5, "RI+O"): 0.9, (1.0, "RIO"): 0.5,
               (1.0, "RI+O"): 0.7, (2.0, "RIO"): None, (2.0, "RI+O"): 0.3}


PROGRAM = "rio-assured-service"


def offset(grid: str, seed: int) -> float:
    return seed - 3.5


def table1_means(s: ras.Setup) -> tuple[float, ...]:
    if s.queue == "RI+O":
        return ras.PAPER_TABLE1[s.out]
    index = RIO_SETTINGS.index(s.total[:2]) + 5 * (s.total[2] == 0.1)
    if s.total == (200.0, 600.0, 0.1):
        return (1.75, 1.00, 0.55, 0.33, 0.28, 0.25)
    return (1.50 - 0.01 * index, 0.95, 0.60, 0.35, 0.30, 0.27)


def curve_mean(s: ras.Setup, x: float, limit: float | None) -> float:
    met = limit is not None and x <= limit + 1e-9
    return s.profiles[0] + (0.1 if met else -0.1)


def synthetic_metrics(run) -> dict:
    s = ras.setup_of(stored_run(run))
    k = offset(run.grid, run.seed) * D
    metrics = {"total_mbps": 19.9, "mean_queue_packets": 100.0 + k, "drops": 10.0}
    if run.grid.startswith("table1"):
        means = table1_means(s)
        for i, value in enumerate(means[:5]):
            metrics[f"as{i}_mbps"] = value + k
            metrics[f"as{i}_in_mbps"] = 0.9 * ras.TABLE1_PROFILES[i]
            metrics[f"as{i}_out_drop_prob"] = 0.05 - 0.01 * i + k / 100
        metrics["be_mbps"] = means[5] + k
        metrics["as_mbps"] = sum(means[:5]) / 5 + k
    else:
        if run.grid == "fig2":
            mean = curve_mean(s, s.n_be, FIG2_LIMITS[(s.subscription, s.queue)])
        else:
            mean = curve_mean(s, s.subscription, FIG3_LIMITS[(s.profiles[0], s.queue)])
        metrics.update(as0_mbps=mean + k, as_mbps=mean + k, as_min_mbps=mean - 0.05,
                       as_in_mbps=s.profiles[0] * 0.9, be_mbps=0.25 if s.n_be else None)
    return metrics


def make_db(path: Path, quick: bool = False) -> int:
    return write_campaign_db(path, CAMPAIGN, synthetic_metrics, quick=quick,
                             wall_time_s=lambda run: 13.0)


@pytest.fixture(scope="module")
def full_figures(tmp_path_factory):
    root = tmp_path_factory.mktemp("results")
    return root, *draw_results(root, "rio-assured-service", make_db, quick=False)


def claim(figures, where: str, start: str = ""):
    (found,) = [c for c in figures.claims if c.where == where and c.paper.startswith(start)]
    return found


def half_width(n: int, spread: list[float]) -> float:
    """Student-t half-width of the seed offsets ``spread`` (in units of D)."""
    mean = sum(spread) / n
    s = math.sqrt(sum((x - mean) ** 2 for x in spread) / (n - 1))
    return stats.t.ppf(0.975, n - 1) * s * D / math.sqrt(n)


# ----------------------------------------------------------------- the campaign file


def test_registry_and_campaign():
    reproduction = get_reproduction("rio-assured-service")
    assert "rio-assured-service" in REPRODUCTIONS
    assert reproduction.figures_function() is ras.make_figures
    full = load_campaign(reproduction.campaign)
    quick = load_campaign(reproduction.campaign, quick=True)
    assert full.program == "rio-assured-service" and full.ns3 == "optimized"
    count = {g.name: sum(1 for r in full.runs() if r.grid == g.name) for g in full.grids}
    # Table 1: 10 RIO and 5 RI+O settings; every point six runs (the paper's).
    assert count == {"table1-rio": 60, "table1-riplus": 30, "fig2": 216, "fig3": 360}
    assert {r.seed for r in full.runs()} == set(range(1, 7))
    assert len(quick.runs()) == 26 and {r.seed for r in quick.runs()} == {1}
    assert all(r.params["simTime"] == 30 for r in quick.runs())
    # The paper's TCP (NewReno without SACK, classic recovery); buckets: Table 1's 320 kbit,
    # the general 160 kbit in Figs. 2-3.
    assert all(r.params["sack"] is False and r.params["recovery"] == "Classic"
               for r in full.runs())
    assert {(r.grid, r.params["bucketKbit"]) for r in full.runs()} == {
        ("table1-rio", 320), ("table1-riplus", 320), ("fig2", 160), ("fig3", 160)}
    # Every Fig. 3 level asks for a whole number of AS flows.
    for run in full.runs():
        if run.grid == "fig3":
            flows = run.params["subscription"] * 20 / float(run.params["profiles"])
            assert abs(flows - round(flows)) < 1e-9 and round(flows) >= 1


def test_setup_and_fair_share():
    record = RunRecord("k", "c", "p", "table1-rio", {"queueDisc": "RIO"}, 1, "ok", None, None,
                       None, None, None, None, None, None, None, 1, None, None,
                       reported_params=program_params(PROGRAM, queueDisc="RIO"))
    s = ras.setup_of(record)
    assert (s.profiles, s.flows_per_profile, s.n_be, s.capacity) == (ras.TABLE1_PROFILES, 4,
                                                                     20, 20.0)
    assert s.subscription == 0.76 and s.out == (0.0, 0.0, 0.0)
    assert s.total == ras.TABLE1_TOTAL
    # The paper's fair shares: profile + (20 - 15.2) / 40.
    shares = [s.fair_share(p) for p in (*ras.TABLE1_PROFILES, 0.0)]
    assert shares == pytest.approx(ras.PAPER_FAIR_SHARE, abs=1e-12)
    fig3_params = {"queueDisc": "RI+O", "profiles": "0.5", "subscription": 0.3, "outMinTh": 10}
    fig3 = RunRecord("k", "c", "p", "fig3", fig3_params, 1, "ok", None, None, None, None, None,
                     None, None, None, None, 1, None, None,
                     reported_params=program_params(PROGRAM, **fig3_params))
    s = ras.setup_of(fig3)
    assert (s.flows_per_profile, s.n_as, s.subscription, s.out) == (12, 12, 0.3,
                                                                    (10.0, 30.0, 0.01))
    # A stored run without a report: what the campaign did not set is an error naming both.
    bare = RunRecord("k", "c", "p", "fig3", fig3_params, 1, "ok", None, None, None, None, None,
                     None, None, None, None, 1, None, None)
    with pytest.raises(KeyError, match="run k .* no stored metrics report .* 'bottleneckRate'"):
        ras.setup_of(bare)
    assert parse_mbps("500kbps") == 0.5 and ras.parse_profiles("2,0.5") == (2.0, 0.5)


def test_last_met():
    profile = 2.0
    assert ras.last_met([(0, 2.1), (1, 2.0), (2, 1.9), (6, 2.2)], profile) == 1
    assert ras.last_met([(6, 1.0), (0, 2.5)], profile) == 0  # sorted by x first
    assert ras.last_met([(0, 1.9), (1, 2.5)], profile) is None
    assert ras.last_met([(0, 2.1), (1, float("nan")), (2, 2.1)], profile) == 2
    assert ras.last_met([], profile) is None


# ----------------------------------------------------------------- Table 1


def test_table1(full_figures):
    _, directory, figures, count = full_figures
    assert count == 666
    (artifact,) = [a for a in figures.artifacts if a.id == "table1"]
    assert artifact.png.is_file() and artifact.pdf.is_file()
    rows = read_csv(artifact.csv)
    # Every setting, then both schemes' per-class maxima and single best settings.
    assert len(rows) == 15 * 6 + 4 * 6
    six = half_width(6, [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5])
    maxima = {r["class"]: r for r in rows if r["row"] == "RIO per-class maximum"}
    assert {c: r["total_setting"] for c, r in maxima.items()} == {
        "2.0": "200/600/0.1", "1.0": "200/600/0.1", "0.5": "347/694/0.05",
        "0.2": "347/694/0.05", "0.1": "347/694/0.05", "BE": "347/694/0.05"}
    assert [float(maxima[c]["mbps_mean"]) for c in ras.TABLE1_COLUMNS] == pytest.approx(
        [1.75, 1.00, 0.60, 0.35, 0.30, 0.27], abs=1e-12)
    assert float(maxima["2.0"]["mbps_ci95"]) == pytest.approx(six, rel=1e-9)
    assert tuple(float(maxima[c]["paper_mbps"]) for c in ras.TABLE1_COLUMNS) == \
        ras.PAPER_BEST_RIO
    single = [r for r in rows if r["row"] == "RIO single best setting"]
    assert {r["total_setting"] for r in single} == {"200/600/0.1"}
    assert all(r["paper_mbps"] == "" for r in single)
    by_class = {r["class"]: r for r in single}
    assert by_class["2.0"]["n"] == "6"
    assert float(by_class["0.1"]["fair_share_mbps"]) == pytest.approx(0.22, abs=1e-12)
    riplus_max = [r for r in rows if r["row"] == "RI+O per-class maximum"]
    # Per class, the RI+O setting with the paper's largest number.
    assert [r["out_setting"] for r in riplus_max] == [
        "5/15/0.01", "5/15/0.01", "30/90/0.01", "100/300/0.01", "100/300/0.01", "200/600/0.01"]
    riplus = [r for r in rows if r["row"] == "RI+O setting" and r["out_setting"] == "5/15/0.01"]
    assert [float(r["mbps_mean"]) for r in riplus] == pytest.approx(
        ras.PAPER_TABLE1[(5.0, 15.0, 0.01)], abs=1e-12)
    assert tuple(float(r["paper_mbps"]) for r in riplus) == ras.PAPER_TABLE1[(5.0, 15.0, 0.01)]
    assert len([r for r in rows if r["row"] == "RIO setting"]) == 10 * 6
    # The report's table: the paper's RIO, RIO's maxima and single best, the five RI+O rows,
    # RI+O's maxima and single best, the fair share.
    table = artifact.table
    assert [row[0] for row in table.rows] == [
        "RIO 347/694/0.05 (the paper's RIO)",
        "Best RIO: RIO, per-class maxima over 10 settings",
        "RIO, single best setting: IN+OUT 200/600/0.1",
        "RI+O, OUT 200/600/0.01", "RI+O, OUT 100/300/0.01", "RI+O, OUT 30/90/0.01",
        "RI+O, OUT 10/30/0.01", "RI+O, OUT 5/15/0.01",
        "Best RI+O: RI+O, per-class maxima over 5 settings",
        "RI+O, single best setting: OUT 5/15/0.01", "Fair share"]
    assert table.rows[1][1] == f"1.750 ± {six:.3f} (1.765)"
    assert table.rows[2][3] == f"0.550 ± {six:.3f}"  # no paper number beside a single setting
    assert table.rows[-1][1:] == ["2.120", "1.120", "0.620", "0.320", "0.220", "0.120"]


def test_table1_claims(full_figures):
    figures = full_figures[2]
    assert [c.id for c in figures.claims] == [f"C{i}" for i in range(1, 14)]
    skew = claim(figures, "§2–3, Table 1")
    assert skew.verdict == "agree" and skew.id == "C1"
    assert "2 Mb/s flows 1.500 ±" in skew.ours and "(fair share 0.220)" in skew.ours
    improve = claim(figures, "§3, Table 1", "the best RI+O")
    # RI+O's maxima (5/15: 1.788, 1.028) ahead of RIO's (200/600/0.1: 1.75, 1.00) in every
    # seed by the same amount: the paired interval excludes 0.
    assert improve.verdict == "agree" and improve.id == "C2"
    assert improve.ours.startswith("per-class maxima (like the paper's best RIO): 2.0 Mb/s RI+O")
    assert "(OUT 5/15/0.01) vs RIO 1.750" in improve.ours
    assert "(IN+OUT 200/600/0.1): RI+O ahead, difference 0.038 ± 0.000" in improve.ours
    assert ("Single best settings (RI+O OUT 5/15/0.01 vs RIO IN+OUT 200/600/0.1): 2.0 Mb/s"
            " RI+O ahead") in improve.ours
    trend = claim(figures, "§3, Table 1", "smaller OUT")
    assert trend.verdict == "agree" and "200/600/0.01 → 5/15/0.01" in trend.ours
    values = claim(figures, "Table 1")
    # RI+O rows are the paper's; RIO's maxima are within 10 %, the largest gap 0.30 vs 0.276.
    assert values.verdict == "agree" and values.id == "C4"
    assert values.ours.startswith("36 of 36 within ±10 % of the paper's (best RIO = our"
                                  " per-class maxima; with our single best RIO setting"
                                  " instead: 36)")
    assert "ours 0.300 ±" in values.ours and "vs 0.276" in values.ours
    drops = claim(figures, "§3, RIO", "the larger profile")
    assert drops.id == "C12" and drops.verdict == "agree"
    assert drops.ours.startswith("RIO 347/694/0.05, OUT drop probability per class 2 → 0.1"
                                 " Mb/s: 5.00 %, 4.00 %, 3.00 %, 2.00 %, 1.00 %")
    out = claim(figures, "§3, RIO", "however")
    # OUT throughput: 2 Mb/s flows 1.5 - 0.01 i - 1.8 < 0, 0.1 Mb/s flows 0.30 - 0.09 > 0.
    assert out.id == "C13" and out.verdict == "agree"
    assert out.ours.startswith("OUT throughput of the 0.1 Mb/s flows above the 2 Mb/s flows'"
                               " beyond both 95 % CIs in 10 of 10 RIO settings")


def test_paired_and_maxima_with_a_tie():
    """The single best setting and the per-class maxima; a paired comparison that ties."""
    rows = [ras.Table1Row("RIO", (347.0, 694.0, 0.05), (0.0, 0.0, 0.0),
                          [t_interval([v]) for v in values], 1,
                          [{1: v} for v in values])
            for values in ((1.2, 1.0, 0.6, 0.4, 0.3, 0.2), (1.3, 0.9, 0.7, 0.4, 0.3, 0.1))]
    rows[1].total = (10.0, 30.0, 0.05)
    assert ras.best(rows, "RIO") is rows[1]
    maxima = ras.per_class_maxima(rows, "RIO")
    assert [e.mean for e in maxima.classes] == [1.3, 1.0, 0.7, 0.4, 0.3, 0.2]
    assert [r.short for r in maxima.argmax] == ["10/30/0.05", "347/694/0.05", "10/30/0.05",
                                               "347/694/0.05", "347/694/0.05", "347/694/0.05"]
    assert ras.per_class_maxima(rows, "RI+O") is None
    assert ras.paired({1: 1.0, 2: 1.2, 3: 0.9}, {1: 1.1, 2: 1.0, 3: 1.0})[0] == "tied"
    assert ras.paired({1: 1.0, 2: 1.0}, {1: 1.0, 2: 1.0})[0] == "identical"
    assert ras.paired({1: 1.0}, {2: 1.0})[0] == "no common seed"


# ----------------------------------------------------------------- Figs. 2 and 3


def test_fig2(full_figures):
    figures = full_figures[2]
    (artifact,) = [a for a in figures.artifacts if a.id == "fig2"]
    assert artifact.png.is_file() and artifact.pdf.is_file()
    rows = read_csv(artifact.csv)
    assert len(rows) == 2 * 2 * 9
    six = half_width(6, [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5])
    row = [r for r in rows if r["panel"] == "0.4" and r["queueDisc"] == "RIO"
           and r["x"] == "11.0"][0]
    assert float(row["as_mbps_mean"]) == pytest.approx(2.1, abs=1e-12)
    assert float(row["as_mbps_ci95"]) == pytest.approx(six, rel=1e-9)
    assert row["meets_profile"] == "true" and row["n"] == "6" and row["status"] == "met"
    after = [r for r in rows if r["panel"] == "0.4" and r["queueDisc"] == "RIO"
             and r["x"] == "16.0"][0]
    assert after["meets_profile"] == "false" and after["status"] == "missed"
    a = claim(figures, "§3, Fig. 2(a)")
    assert a.verdict == "agree" and a.id == "C5"
    assert a.ours.startswith("RIO meets the profile up to 11 BE flows, RI+O meets the profile up"
                             " to 26 BE flows (criterion a); beyond the 95 % CIs: RIO met up to"
                             " 11 BE flows, tied up to 11 BE flows; RI+O met up to 26 BE flows,"
                             " tied up to 26 BE flows")
    b = claim(figures, "§3, Fig. 2(b)")
    assert b.verdict == "partly" and "RIO meets the profile up to 2 BE flows" in b.ours
    assert b.id == "C6" and b.cause.startswith("variant not run")
    gain = claim(figures, "§3, Fig. 2")
    # RI+O above RIO wherever their limits differ: 11 < n <= 26 at 40 %, 2 < n <= 16 at 50 %;
    # equal (the same seeds' values) elsewhere.
    assert gain.ours == ("paired over seeds, RI+O ahead of RIO at 5 of 18 points, tied at 0"
                         " (identical at 13), behind at 0")
    assert gain.verdict == "agree" and gain.id == "C7"


def test_fig3(full_figures):
    figures = full_figures[2]
    (artifact,) = [a for a in figures.artifacts if a.id == "fig3"]
    rows = read_csv(artifact.csv)
    assert len(rows) == 3 * 2 * 10
    assert {r["x"] for r in rows} == {repr(x) for x in ras.FIG3_LEVELS}
    # Fig. 3(a) (S26) chose the criterion of "maintains the profile": calibrated, not judged.
    a = claim(figures, "§3, Fig. 3(a)")
    assert a.verdict == "calibrated" and a.id == "C8"
    assert a.ours.endswith("criterion (a), seed mean of the AS flows' mean throughput >="
                           " profile: calibrated on Fig. 3(a)")
    assert claim(figures, "§3, Fig. 3(b)").verdict == "agree"
    c = claim(figures, "§3, Fig. 3(c)")
    assert c.verdict == "partly" and c.id == "C10"
    assert c.ours.startswith("RIO never meets the profile, RI+O meets the profile up to 30 %")
    assert c.paper == ("profile 2 Mb/s, by subscription level: RIO never meets the profile, RI+O"
                       " meets the profile up to 50 %")
    assert "RIO 10 %: 1.900 ±" in c.ours
    assert any("calibrated on Fig. 3(a)" in note for note in figures.notes)


def curve(queue: str, profile: float, values: dict[float, list[float]],
          minimum: dict[float, float] | None = None) -> ras.Curve:
    """A curve with the given per-seed as_mbps (and as_min_mbps: the value, every seed)."""
    points = {x: {seed + 1: {"as_mbps": v,
                             "as_min_mbps": (minimum or {}).get(x, v)}
                  for seed, v in enumerate(vs)} for x, vs in values.items()}
    return ras.Curve(queue, profile, points)


def test_tie_range_and_the_choice_of_criterion():
    """Met / tied / missed by the interval; the first criterion fitting Fig. 3(a) is chosen."""
    c = curve("RIO", 2.0, {0: [2.2, 2.3, 2.2], 1: [1.9, 2.2, 2.0], 2: [2.1, 1.8, 2.0],
                           6: [1.5, 1.6, 1.5]})
    assert [c.status(x) for x in c.xs()] == ["met", "tied", "tied", "missed"]
    # Criterion (a) by the means (2.233, 2.033, 1.967, ...): met up to 1.
    assert c.last_met() == 1 and c.tie_range() == (0, 2)
    assert c.last_met(ras.CRITERIA[1]) == 0  # (b): the lower end of the interval
    assert c.last_met(ras.CRITERIA[3]) == 2  # (d): 0.95 x profile = 1.9
    # Fig. 3(a): both schemes' means meet 0.5 Mb/s up to 100 % under (a), but their poorest
    # flows miss it at 100 % only: the rule passes over (a) and (b), and takes (c).
    levels = ras.FIG3_LEVELS
    curves = {(0.5, q): curve(q, 0.5, {x: [0.55, 0.56, 0.57] for x in levels},
                              {x: (0.52 if x < 1.0 else 0.45) for x in levels})
              for q in ras.SCHEMES}
    criterion, note = ras.choose_criterion(curves)
    assert criterion.key == "c" and note.startswith("criterion (c)")
    del curves[(0.5, "RIO")].points[1.0]
    criterion, note = ras.choose_criterion(curves)
    assert criterion.key == "a" and note.startswith("not calibrated")
    curves = {(0.5, q): curve(q, 0.5, {x: [0.55, 0.56, 0.57] for x in levels})
              for q in ras.SCHEMES}
    criterion, note = ras.choose_criterion(curves)
    assert criterion.key == "a" and note.startswith("no candidate")


def test_quick_campaign_figures_and_report(tmp_path):
    root = tmp_path / "results"
    _, figures, count = draw_results(root, "rio-assured-service", make_db, quick=True)
    assert count == 26
    assert {a.id for a in figures.artifacts} == {"table1", "fig2", "fig3"}
    # The quick grid lacks the paper's 11 and 26 BE flows: not evaluated, not guessed.
    assert claim(figures, "§3, Fig. 2(a)").verdict == "not evaluated"
    assert "Quick campaign" in " ".join(figures.notes)
    text = write_report(root).read_text(encoding="utf-8")
    assert "rio-assured-service" in text and "Figure 2: AS throughput" in text


def test_empty_database(tmp_path):
    db = tmp_path / "empty.sqlite"
    with ResultStore(db) as store:
        store.set_meta({"campaign": "rio-assured-service", "mode": "full"})
    figures = ras.make_figures(db, tmp_path)
    assert not figures.artifacts
    assert {c.verdict for c in figures.claims} == {"not evaluated"}


def _run(params: dict, metrics: dict) -> RunRecord:
    return RunRecord("k", "rio-assured-service", "rio-assured-service", "fig2", params, 1, "ok",
                     None, metrics, None, None, None, None, None, None, None, 1, None, None,
                     reported_params=program_params(PROGRAM, **params))


def test_goodput_reading_replaces_every_rate_that_has_a_goodput():
    """The claims judge goodput: each ``<x>_mbps`` with a ``<x>_goodput_mbps`` takes it; the AS
    aggregate and the poorest AS flow come from the first n_as flows' goodput (the BE flows
    after them do not count); the IN-marked rate stays the marker's."""
    params = {"queueDisc": "RIO", "profiles": "2", "flowsPerProfile": 2, "nBestEffort": 1,
              "grid": "fig2"}
    metrics = {"as_mbps": 3.0, "as_min_mbps": 2.5, "as_in_mbps": 1.2, "as0_mbps": 3.0,
               "as0_goodput_mbps": 2.0, "be_mbps": 1.0, "be_goodput_mbps": 0.9,
               "flow0_mbps": 3.5, "flow0_goodput_mbps": 2.5, "flow1_mbps": 2.5,
               "flow1_goodput_mbps": 1.5, "flow2_mbps": 1.0, "flow2_goodput_mbps": 0.9}
    run = _run(params, metrics)
    assert ras.has_goodput([run]) and not ras.has_goodput([_run(params, {"as_mbps": 1.0})])
    good = ras.goodput_run(run).metrics
    assert good["as0_mbps"] == 2.0 and good["be_mbps"] == 0.9 and good["flow1_mbps"] == 1.5
    assert good["as_mbps"] == pytest.approx(2.0) and good["as_min_mbps"] == 1.5
    assert "as_in_mbps" not in good  # the runs hold no goodput of the IN-marked part
    assert run.metrics["as_mbps"] == 3.0  # the run itself is not changed


def test_claims_show_the_other_reading_beside_their_own():
    goodput = [ras.Claim("Fig. 2", "p", "RIO 1.5", "disagree", id="C5")]
    throughput = [ras.Claim("Fig. 2", "p", "RIO 1.9", "agree", id="C5")]
    (claim,) = ras.both_readings(goodput, throughput)
    assert claim.verdict == "disagree"
    assert claim.ours == ("[goodput] RIO 1.5 ‖ [throughput, retransmissions counted; verdict"
                          " there: agree] RIO 1.9")
    # A claim goodput cannot judge keeps the throughput's verdict, said so.
    (kept,) = ras.both_readings(
        [ras.Claim("§3", "p", "needs RIO runs with as<k>_in_mbps", "not evaluated", id="C13")],
        [ras.Claim("§3", "p", "OUT skewed", "disagree", id="C13")])
    assert kept.verdict == "disagree" and kept.ours.startswith("[throughput only: goodput")


NS2_CAMPAIGN = CAMPAIGN.with_name("rio-assured-service-ns2.toml")


def test_runs_without_ri_o_judge_rio_alone_beside_the_module(tmp_path):
    """ns-2.35 has RIO only: its database holds the RIO rows (campaigns/rio-assured-service-ns2
    .toml); the limit claims are judged on RIO's half, the comparisons are not evaluated, and
    the verdicts sit beside the module's claims."""
    ns2 = tmp_path / "rio-assured-service-ns2" / "campaign.sqlite"
    stored = write_campaign_db(ns2, NS2_CAMPAIGN, synthetic_metrics, ns3_version="ns-2.35")
    assert stored == (10 + 18 + 30) * 6
    _, figures, _ = draw_results(tmp_path, "rio-assured-service", make_db, quick=False)
    theirs = {c.id: (c.simulator_verdict, c.simulator_ours) for c in figures.claims}
    # Fig. 2: RIO meets the profile up to 11 BE flows at 40 % (the paper's 11), 2 at 50 %
    # (the paper's 6); Fig. 3: 0.9 at 0.5 Mb/s (S26: calibrated), 0.5 at 1 Mb/s (the paper's
    # 50 %), never at 2 Mb/s (the paper's never).
    assert theirs["C5"][0] == "agree" and theirs["C5"][1].startswith(
        "[RIO only: no RI+O runs] RIO meets the profile up to 11 BE flows (criterion a)")
    assert theirs["C6"][0] == "disagree" and "up to 2 BE flows" in theirs["C6"][1]
    assert theirs["C8"][0] == "calibrated"
    assert [theirs[i][0] for i in ("C9", "C10")] == ["agree", "agree"]
    assert all(theirs[i][0] == "not evaluated" for i in ("C2", "C3", "C4", "C7", "C11"))
    assert theirs["C1"][0] == "agree"  # RIO 347/694/0.05: 1.50 and 0.30 Mb/s
    # The module's own verdicts are those it has without the ns-2 database.
    assert claim(figures, "§3, Fig. 2(a)").verdict == "agree"
    assert claim(figures, "§3, Fig. 2(b)").verdict == "partly"
