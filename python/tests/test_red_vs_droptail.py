# SPDX-License-Identifier: GPL-2.0-only
"""The RED-vs-DropTail reconstruction plan's rules (doc/reproductions/red-vs-droptail.rst):
the tie rule (best pair chosen on seeds 1-3, judged on the others; identical, ahead, tied),
the "RED >= DropTail" count verdicts, the calibration statements S16 / S20 and the choice
rule, on runs constructed so that every outcome is known."""

from pathlib import Path

import pytest

from qdisclab.campaign.spec import Run, load_campaign
from qdisclab.campaign.store import RunRecord
from qdisclab.figures import red_vs_droptail as rvd
from qdisclab.figures.common import RunParams
from synthetic_campaign import (
    program_params,
    program_report,
    read_csv,
    run_params,
    write_campaign_db,
)
from test_report import make_db as make_report_db


PROGRAM = "red-vs-droptail"


def record(params: dict, seed: int, total: float, drops: float = 0.0, grid: str = "",
           early: float = 0.0) -> RunRecord:
    """An ``ok`` run of the example with these parameters and metrics."""
    full = {"bottleneckRate": "1Mbps", "bottleneckDelay": "20ms", **params}
    if full["queueDisc"] == "RED":
        full = {"wait": True, "gentle": True, **full}
    return RunRecord(
        run_key=f"{sorted(full.items())}-{seed}", campaign="c", program="red-vs-droptail",
        grid=grid, params=full, seed=seed, status="ok", reason=None,
        metrics={"total_goodput_mbps": total, "tcp_goodput_mbps": total - 0.125,
                 "udp_goodput_mbps": 0.125, "drops": drops, "early_drops": early,
                 "forced_drops": drops - early},
        wall_time_s=0.2, exit_code=0, stderr_tail=None, ns3_version="3.44", git_rev="x",
        host=None, command=None, attempts=1, started_at=None, finished_at=None,
        reported_params=program_report(PROGRAM, **full))


def droptail(window, queue, seed, total, **kw):
    return record({"queueDisc": "FIFO", "window": window, "queueSize": queue}, seed, total,
                  **kw)


def red(window, queue, pair, seed, total, **kw):
    return record({"queueDisc": "RED", "window": window, "queueSize": queue, "minTh": pair[0],
                   "maxTh": pair[1]}, seed, total, **kw)


A, B = (0.32, 0.64), (0.6, 0.85)


def test_best_pair_is_chosen_on_seeds_1_to_3_and_judged_on_the_others():
    # Pair A leads on seeds 1-3 (a lucky draw) and is below DropTail on 4-6; pair B is
    # DropTail plus 1/64 on every seed. The tie rule keeps A and judges it on 4-6.
    runs = []
    for seed in range(1, 7):
        base = 0.5 + seed / 256
        runs.append(droptail(32000, 16000, seed, base, drops=10))
        runs.append(red(32000, 16000, A, seed, base + (1 / 8 if seed <= 3 else -1 / 32),
                        drops=14))
        runs.append(red(32000, 16000, B, seed, base + 1 / 64, drops=12))
    study = rvd.Study(runs)
    assert (study.choice_seeds, study.judge_seeds, study.split) == ([1, 2, 3], [4, 5, 6], True)
    cell = study.cell(rvd.BASE_LINK, 32000, 16000, rvd.TT)
    assert cell.pair == A and cell.comparison == rvd.DROPTAIL_AHEAD
    assert cell.difference.mean == pytest.approx(-1 / 32) and cell.difference.n == 3
    assert (cell.red_drops, cell.droptail_drops) == (14, 10)
    assert "chosen on seeds 1-3 and judged on seeds 4-6" in study.seeds_note()
    # Without seeds 4-6 the same runs choose and judge on 1-3: A, biased upwards.
    first = rvd.Study(r for r in runs if r.seed <= 3)
    assert not first.split and first.choice_seeds == first.judge_seeds == [1, 2, 3]
    cell = first.cell(rvd.BASE_LINK, 32000, 16000, rvd.TT)
    assert cell.pair == A and cell.comparison == rvd.RED_AHEAD
    assert "biased upwards" in first.seeds_note()


@pytest.mark.parametrize("offsets, expected", [
    ((0.0, 0.0, 0.0), rvd.IDENTICAL),  # RED never dropped early: the same runs
    ((1 / 64, 5 / 256, 1 / 64), rvd.RED_AHEAD),
    ((-1 / 64, -5 / 256, -1 / 64), rvd.DROPTAIL_AHEAD),
    ((1 / 64, -1 / 32, 1 / 128), rvd.TIED),
    ((0.0, 0.0, 1 / 1024), rvd.TIED),  # one seed differs: not identical, within the noise
])
def test_cells_are_identical_ahead_or_tied(offsets, expected):
    runs = []
    for seed, offset in zip((1, 2, 3), offsets, strict=True):
        runs += [droptail(2000, 8000, seed, 0.5 + seed / 64),
                 red(2000, 8000, B, seed, 0.5 + seed / 64 + offset)]
    cell = rvd.Study(runs).cell(rvd.BASE_LINK, 2000, 8000, rvd.TT)
    assert cell.comparison == expected
    assert rvd.Counts.of([cell]).n == 1


def test_count_verdict_reads_ties_either_way():
    counts = rvd.Counts(red_ahead=2, identical=18, tied=5, droptail_ahead=0)
    assert counts.red_ge == (20, 25) and counts.range_text() == "20-25 of 25"
    assert counts.format() == "RED ahead 2, identical 18, tied 5, DropTail ahead 0"
    assert rvd.count_verdict(counts, 17) == "agree"  # 17 >= 20 - 3
    assert rvd.count_verdict(counts, 16) == "disagree"
    no_ties = rvd.Counts(red_ahead=10, droptail_ahead=15)
    assert no_ties.range_text() == "10 of 25"
    assert rvd.count_verdict(no_ties, 13) == "agree" and rvd.count_verdict(no_ties, 6) == \
        "disagree"
    # Ties spanning more than 12 of 25 cells: the count cannot fail.
    assert rvd.count_verdict(rvd.Counts(tied=13, droptail_ahead=12), 6) == "not evaluated"
    assert rvd.count_verdict(rvd.Counts(tied=12, droptail_ahead=13), 6) == "agree"
    # 15 cells (queue <= window), the paper's 14 of 15: tolerance 3 * 15 / 25 = 1.8 cells.
    assert rvd.count_verdict(rvd.Counts(red_ahead=13, droptail_ahead=2), 14, 15) == "agree"
    assert rvd.count_verdict(rvd.Counts(red_ahead=12, droptail_ahead=3), 14, 15) == "disagree"
    assert rvd.count_verdict(rvd.Counts(), 17) == "not evaluated"


def calibration_runs(n_tcp: int, udp: tuple, access: tuple, *, quiet_from: int,
                     small_ratio: float) -> list[RunRecord]:
    """One scenario of the calibration grid: RED 0.6/0.85 drops (early) at window 2000 below
    queue ``quiet_from``; DropTail at 0.5 Mb/s gives ``small_ratio`` of 1 Mb/s's goodput at
    window 2000 and 0.75 at 64000."""
    scenario = {"nTcp": n_tcp, "udpOn": udp[0], "udpOff": udp[1], "accessRate": access[0],
                "accessDelay": access[1]}
    runs = []
    for seed in (1, 2, 3):
        for window in (2000, 64000):
            for queue in rvd.S16_QUIET[:0] + (2000, 8000, 16000, 32000, 64000):
                for rate in ("1Mbps", "0.5Mbps"):
                    full = 0.25 * (1 + queue / 64000) + window / 2 ** 20
                    ratio = small_ratio if window == 2000 else 0.75
                    total = full if rate == "1Mbps" else full * ratio
                    link = {"bottleneckRate": rate, **scenario}
                    runs.append(record({"queueDisc": "FIFO", "window": window,
                                        "queueSize": queue, **link}, seed, total,
                                       grid="calibration-droptail"))
                    dropping = queue < quiet_from and seed == 2
                    runs.append(record({"queueDisc": "RED", "window": window, "queueSize": queue,
                                        "minTh": 0.6, "maxTh": 0.85, **link}, seed, total,
                                       drops=3 if dropping else 0, early=2 if dropping else 0,
                                       grid="calibration-red"))
    return runs


def test_calibration_statements_and_the_choice_rule():
    udp, access = rvd.UDP_ORDER, rvd.ACCESS_ORDER
    runs = (
        # One sender: S20 met, but RED is silent at 8000 too (S16 fails).
        calibration_runs(1, udp[0], access[0], quiet_from=8000, small_ratio=0.5)
        # Two senders: S16 met everywhere, S20 only in the later combinations.
        + calibration_runs(2, udp[0], access[0], quiet_from=16000, small_ratio=0.6)
        + calibration_runs(2, udp[1], access[0], quiet_from=16000, small_ratio=0.46)
        + calibration_runs(2, udp[0], access[2], quiet_from=16000, small_ratio=0.54)
        # RED still dropping at 16000: S16 fails.
        + calibration_runs(2, udp[0], access[1], quiet_from=32000, small_ratio=0.5)
    )
    rows = rvd.calibration_rows(runs)
    labels = [row.scenario.label() for row in rows]
    assert labels == ["nTcp=1, UDP 1/1 s, access 10Mbps/1ms",
                      "nTcp=2, UDP 1/1 s, access 10Mbps/1ms",
                      "nTcp=2, UDP 1/1 s, access 100Mbps/1ms",
                      "nTcp=2, UDP 1/1 s, access 10Mbps/10ms",
                      "nTcp=2, UDP 0.5/0.5 s, access 10Mbps/1ms"]
    one, two, fast, slow, short = rows
    assert one.quiet == (16000, 32000, 64000) and not one.drops_at_8000 and not one.meets_s16
    assert one.ratio_small == pytest.approx(0.5) and one.ratio_large == pytest.approx(0.75)
    assert one.meets_s20
    assert two.meets_s16 and not two.meets_s20
    assert fast.quiet == (32000, 64000) and not fast.meets_s16 and fast.meets_s20
    assert slow.meets_s16 and slow.meets_s20 and short.meets_s16 and short.meets_s20
    # Fewest senders, then UDP 1/1 before the access link's order: the 10 ms access links.
    chosen, rule = rvd.choose_scenario(rows)
    assert chosen is slow and rule == "meets S16 and S20"
    # Without the two that meet both: among those meeting S16, the ratio closest to 0.5.
    chosen, rule = rvd.choose_scenario([one, two, fast])
    assert chosen is two and "closest to 0.5" in rule
    assert rvd.choose_scenario([one, fast]) == (None, "no swept scenario meets S16: the present"
                                             " scenario stays")
    # A scenario whose runs do not measure both statements (here two runs) is no row.
    assert rvd.calibration_rows(runs[:2]) == []


def test_the_examples_defaults_are_the_calibrated_scenario():
    """The example's defaults (its --schema) are the scenario the calibration chose."""
    assert rvd.Scenario.of(program_params(PROGRAM)) == rvd.Scenario(8, (3.0, 1.0),
                                                                    ("100Mbps", "1ms"), True)
    assert rvd.Scenario.of(program_params(PROGRAM, nTcp=4, sack=False, udpOn=0.5)).label() == \
        "nTcp=4, UDP 0.5/1 s, access 100Mbps/1ms, no SACK"


#: The scenario parameters the example never records in its report (its --schema).
UNREPORTED = ("udpOn", "udpOff", "accessRate", "accessDelay")


def test_variant_grids_name_every_scenario_parameter_the_report_lacks():
    """A variant run's scenario is read from its report and its campaign: every parameter the
    report does not hold is named by each variant grid; a stored run without either is an
    error naming the run and the parameter."""
    assert {p for p in UNREPORTED if p not in program_report(PROGRAM)} == set(UNREPORTED)
    for run in load_campaign(VARIANTS).runs():
        assert set(UNREPORTED) <= set(run.params), run.grid
    bare = RunRecord("k", "c", PROGRAM, "sack-red", {"nTcp": 2}, 1, "ok", None, None, None, None,
                     None, None, None, None, None, 1, None, None)
    with pytest.raises(KeyError, match="run k .*no stored metrics report.* 'udpOn'"):
        rvd.Scenario.of(RunParams(bare))


# ------------------------------------------------- the variants campaign, end to end

VARIANTS = Path(__file__).resolve().parents[2] / "campaigns" / "red-vs-droptail-variants.toml"
OFFSET = {seed: ((seed - 1) % 3 - 1) / 1024 for seed in range(1, 11)}  # -1, 0, +1 (/1024) by seed
NOISE = {0: 1 / 64, 1: -1 / 64, 2: 0.0}  # by seed % 3: a paired difference of mean 0


def variant_metrics(run: Run) -> dict:
    """Constructed outcomes, a function of the run's parameters alone (a run two grids list is
    stored once). Per cell c = 5 · window index + queue index, a base goodput grows with c and
    the number of senders. Window 2000: RED identical to DropTail, except that the calibration
    pair 0.6/0.85 drops early in seed 2 below queue 16000 with two or more senders (below 8000
    with one). Other windows: RED ahead by 1/64 in the top 3 · nTcp cells, tied in the others;
    without SACK DropTail is ahead at 10 ms; the best pair is 0.32/0.64, the others below it by
    |k - 5| / 512. The 0.5 Mb/s link gives 0.5 of 1 Mb/s's goodput at window 2000 with three or
    more senders (0.6 with fewer), 0.75 at the other windows."""
    p, seed = run_params(run), run.seed
    scenario = rvd.Scenario.of(p)
    n, window, queue = scenario.n_tcp, int(p["window"]), int(p["queueSize"])
    red = p["queueDisc"] == "RED"
    c = 5 * rvd.WINDOWS.index(window) + rvd.QUEUES.index(queue)
    total = 0.5 + c / 256 + n / 64 + OFFSET[seed]
    if window == 2000:
        calibration_pair = red and (p["minTh"], p["maxTh"]) == (0.6, 0.85)
        early = 2 if calibration_pair and seed == 2 and queue < (16000 if n >= 2 else 8000) else 0
        drops, forced = early, 0
    else:
        early, drops = 0, 10
        if red:
            k = rvd.PAIRS.index((p["minTh"], p["maxTh"]))
            if not scenario.sack and p["bottleneckDelay"] == "10ms":
                total -= 1 / 64
            elif c >= 25 - 3 * n:
                total += 1 / 64
            else:
                total += NOISE[seed % 3]
            total -= abs(k - 5) / 512
            drops = 12
        forced = drops
    if p["bottleneckRate"] == "0.5Mbps":
        total *= (0.5 if n >= 3 else 0.6) if window == 2000 else 0.75
    return {"total_goodput_mbps": total, "tcp_goodput_mbps": total - 0.125,
            "udp_goodput_mbps": 0.125, "drops": drops, "early_drops": early,
            "forced_drops": forced}


@pytest.fixture(scope="module")
def variants(tmp_path_factory):
    """The results tree of a quick final campaign with the full variants campaign beside it."""
    root = tmp_path_factory.mktemp("results")
    write_campaign_db(root / "red-vs-droptail-variants" / "campaign.sqlite", VARIANTS,
                      variant_metrics, ns3_version="3.44")
    make_report_db(root / "red-vs-droptail" / "campaign-quick.sqlite", quick=True)
    return root


@pytest.fixture(scope="module")
def variant_figures(variants):
    """The quick final campaign's figures drawn with the variants database beside it."""
    out = variants / "red-vs-droptail" / "quick"
    return out, rvd.make_figures(variants / "red-vs-droptail" / "campaign-quick.sqlite", out)


def chosen_scenario() -> rvd.Scenario:
    """What the constructed data make the choice rule pick among the calibration grid's
    scenarios: the first with three or more senders, in the rule's order."""
    scenarios = {rvd.Scenario.of(run_params(run)) for run in load_campaign(VARIANTS).runs()
                 if run.grid.startswith("calibration")}
    return min((s for s in scenarios if s.n_tcp >= 3), key=rvd.Scenario.rank)


def test_variants_campaign_calibrates_and_shows_causes(variants, variant_figures):
    found = rvd.load_variants(variants / "red-vs-droptail-variants" / "campaign.sqlite")
    chosen = chosen_scenario()
    assert found.chosen.scenario == chosen and found.rule == "meets S16 and S20"
    for row in found.calibration:
        assert row.meets_s16 == (row.scenario.n_tcp >= 2)
        assert row.meets_s20 == (row.scenario.n_tcp >= 3)
    senders = sorted({rvd.Scenario.of(run_params(run)).n_tcp
                      for run in load_campaign(VARIANTS).runs()
                      if run.grid.startswith("sensitivity")})
    assert list(found.sensitivity) == senders
    out, figures = variant_figures
    ids = [a.id for a in figures.artifacts]
    assert ids[-6:] == ["variant-calibration", "sensitivity", "variant-seeds",
                        "variant-waitgentle", "variant-senders", "variant-sack"]
    for stem in ids[-6:]:
        for suffix in (".png", ".pdf", ".csv"):
            assert (out / f"{stem}{suffix}").stat().st_size > 0
    rows = read_csv(out / "sensitivity.csv")
    assert len(rows) == 2 * len(senders)
    for row in rows:
        n = int(row["nTcp"])
        ahead = min(3 * n, 20)
        assert (int(row["identical"]), int(row["red_ahead"]), int(row["tied"]),
                int(row["droptail_ahead"])) == (5, ahead, 20 - ahead, 0)
        assert (int(row["red_ge_low"]), int(row["red_ge_high"])) == (5 + ahead, 25)
        assert int(row["paper_red_ge"]) == (17 if row["bottleneckDelay"] == "20ms" else 8)
        assert (row["chosen"] == "true") == (n == chosen.n_tcp)
    calibration = read_csv(out / "variant-calibration.csv")
    assert [r["chosen"] for r in calibration].count("true") == 1
    picked = next(r for r in calibration if r["chosen"] == "true")
    assert (int(picked["nTcp"]), float(picked["s20_ratio_window2000"])) == (chosen.n_tcp, 0.5)
    assert picked["s16_quiet_queues"] == "16000 32000 64000"
    # Seeds 4-10 choose 0.32/0.64 too; the tie rule judges Fig. 1 on them.
    seeds = read_csv(out / "variant-seeds.csv")
    assert len(seeds) == 25 and {r["best_pair_other_seeds"] for r in seeds
                                 if r["window"] != "2000"} == {"0.32/0.64"}
    assert {r["comparison_other_seeds"] for r in seeds if r["window"] == "2000"} == \
        {"identical"}
    judged = rvd.variant_causes(found)
    assert set(judged) == {"C1", "C2", "C3", "C4", "C8", "C10", "C5", "C6", "C12", "C13",
                           "C14"}
    causes = {cid: text for cid, (text, _) in judged.items()}
    # The runs the claims' own rules judge carry their verdicts (on seeds 1-10, 0.32/0.64 is
    # tied with the maximum); the load and SACK causes are arguments.
    assert judged["C12"][1] == ["agree"]
    assert judged["C4"][1] is None and judged["C10"][1] is None
    assert rvd.cause_class("disagree", judged["C12"][1]) == "run that moves the verdict"
    assert rvd.cause_class("disagree", None) == "argument"
    for n in senders:
        ahead = min(3 * n, 20)
        low = f"{5 + ahead}-25" if ahead < 20 else "25"  # without ties the range is one count
        assert f"nTcp={n}: {low} of 25 ({ahead}↑ 5= {20 - ahead}~ 0↓)" in causes["C4"]
    sack_n = {rvd.Scenario.of(run_params(run)).n_tcp for run in load_campaign(VARIANTS).runs()
              if run.grid.startswith("sack")}
    assert len(sack_n) == 1
    n_sack = sack_n.pop()
    window_32000 = sum(c >= 25 - 3 * n_sack for c in range(15, 20))
    assert (f"with SACK: DropTail ≥ RED at {5 - window_32000} of 5 queue sizes" in causes["C10"])
    assert "without SACK: DropTail ≥ RED at 5 of 5 queue sizes" in causes["C10"]
    # Every other pair is |k - 5| / 512 below 0.32/0.64, within the 0.01 Mb/s margin: all tied.
    assert "seeds 1-10 instead of 1-6): maximum 0.32/0.64 " in causes["C12"]
    assert causes["C12"].endswith("0.32/0.64 tied with it (10 pairs tied)")
    # Every partly / disagree claim of the figures carries a cause, and its class: "none" only
    # where the cause says that no variant changes it.
    for claim in figures.claims:
        if claim.verdict in ("partly", "disagree"):
            assert claim.cause, claim.id
            assert (claim.cause_class == "none") == claim.cause.startswith("no variant"), claim.id


def test_senders_grids_judge_c13_and_c14_per_number_of_senders(variants, variant_figures):
    """The senders grids (nTcp = 2 and 4; nTcp = 8 is the seeds grids' runs, seeds 1-6 of them)
    re-judge C13 and C14 at each load. In the constructed data every pair after 0.32/0.64 is
    1/512 Mb/s below the one before. With four or eight senders every window-32000 cell has RED
    ahead by a constant, so the seeds differ by +-1/1024 only and TCP falls below the previous
    pair's interval at each of those 4 steps; with two senders four of the five cells carry a
    +-1/64 noise, whose interval hides the steps. UDP is constant, and window 2000 is below
    8000 at every queue size whatever the senders."""
    found = rvd.load_variants(variants / "red-vs-droptail-variants" / "campaign.sqlite")
    assert list(found.senders) == [2, 4, 8]
    for n, study in found.senders.items():
        assert (study.choice_seeds, study.judge_seeds) == ([1, 2, 3], [4, 5, 6]), n
    judged = rvd.variant_causes(found)
    causes = {cid: text for cid, (text, _) in judged.items()}
    assert judged["C13"][1] == ["agree", "partly", "partly"]
    assert judged["C14"][1] == ["agree", "agree", "agree"]
    assert causes["C13"].startswith("senders-* (1 Mb/s, 20 ms, UDP and access links of the"
                                    " calibrated scenario, seeds 1-6;")
    assert "nTcp=2: TCP falls 0 of 9 steps, UDP spread 0% (agree)" in causes["C13"]
    for n in (4, 8):
        assert f"nTcp={n}: TCP falls 4 of 9 steps, UDP spread 0% (partly)" in causes["C13"]
        assert f"nTcp={n}: window 2000 below 8000 at 5 of 5 queue sizes (agree)" in causes["C14"]
    out, figures = variant_figures
    assert {c.id: c.cause for c in figures.claims}.get("C13") in (None, causes["C13"])
    rows = read_csv(out / "variant-senders.csv")
    assert {(r["nTcp"], r["panel"]) for r in rows} == {
        (str(n), panel) for n in (2, 4, 8) for panel in ("fig5", "windows")}
    assert sum(r["panel"] == "fig5" for r in rows) == 3 * 10
    for r in rows:
        if r["panel"] == "windows":
            assert float(r["droptail_small_window"]) < float(r["droptail_next_window"])


def test_seeds_waitgentle_judges_c3_on_two_sets_of_seeds(variants, variant_figures):
    """C3 (Wait = Gentle = true has the most wins) on seeds 1-3 and on 4-10, from the seeds
    grids and seeds-waitgentle. The constructed outcomes ignore Wait and Gentle, so the four
    settings count alike on each set and Wait = Gentle = true is one of the best on both."""
    found = rvd.load_variants(variants / "red-vs-droptail-variants" / "campaign.sqlite")
    assert found.seeds_first.wait_gentle == list(rvd.WAIT_GENTLE)
    cause, verdicts = rvd.variant_causes(found)["C3"]
    assert verdicts is None  # one link of the four the claim counts: an argument
    # Chosen on seeds 1-3 and judged on the others, never both on the same seeds.
    assert cause.startswith("seeds-* and seeds-waitgentle (nTcp=8, UDP 3/1 s, access"
                            " 100Mbps/1ms, 1 Mb/s, 20 ms; chosen on seeds 1-3, judged on 4-10):"
                            " TT is (one of) the best")
    out, _ = variant_figures
    rows = read_csv(out / "variant-waitgentle.csv")
    assert [(r["seeds"], r["wait"], r["gentle"]) for r in rows] == [
        (seeds, wait, gentle) for seeds in ("1-3", "4-10")
        for wait, gentle in (("false", "false"), ("false", "true"), ("true", "false"),
                             ("true", "true"))]
    for seeds in ("1-3", "4-10"):
        counts = {(r["red_ahead"], r["identical"], r["tied"], r["droptail_ahead"])
                  for r in rows if r["seeds"] == seeds}
        assert len(counts) == 1, counts
        assert sum(map(int, counts.pop())) == 25


def test_variants_with_only_the_seeds_grids(tmp_path):
    """The seeds grids swept alone (``sweep --grid seeds-droptail --grid seeds-red``): the runs
    they share with the calibration grids are stored under a calibration grid's name, but they
    measure neither S16 nor S20 (no 0.5 Mb/s runs), so there is no calibration row, figure or
    choice; the seeds' causes (C5, C6, C12) are given and the others are not."""
    root = tmp_path / "results"
    db = root / "red-vs-droptail-variants" / "campaign.sqlite"
    write_campaign_db(db, VARIANTS, variant_metrics, ns3_version="3.44",
                      skip=lambda run: not run.grid.startswith("seeds"))
    found = rvd.load_variants(db)
    assert found.calibration == [] and found.chosen is None
    assert found.seeds_scenario is not None and not found.sensitivity
    causes = rvd.variant_causes(found)
    assert set(causes) == {"C3", "C5", "C6", "C12"}
    assert "seeds 1-10 instead of 1-6): maximum 0.32/0.64" in causes["C12"][0]
    make_report_db(root / "red-vs-droptail" / "campaign-quick.sqlite", quick=True)
    figures = rvd.make_figures(root / "red-vs-droptail" / "campaign-quick.sqlite",
                               root / "red-vs-droptail" / "quick")
    assert [a.id for a in figures.artifacts if a.id.startswith(("variant", "sensitivity"))] \
        == ["variant-seeds", "variant-waitgentle"]
    assert any("its grids have not run" in note for note in figures.notes)
    assert not any("scenario(s) swept" in note for note in figures.notes)


def test_without_the_variants_campaign_causes_say_so(tmp_path):
    db = tmp_path / "red-vs-droptail" / "campaign-quick.sqlite"
    make_report_db(db, quick=True)
    figures = rvd.make_figures(db, tmp_path / "out")
    assert not any(a.id.startswith(("variant", "sensitivity")) for a in figures.artifacts)
    assert any("variants campaign (red-vs-droptail-variants) was not run" in note
               for note in figures.notes)
    judged = [c for c in figures.claims if c.verdict in ("partly", "disagree")]
    assert judged and all(c.cause == "variant not run" for c in judged)
    # The constructed quick runs have RED ahead at window 2000 from queue 16000 on: S16's
    # target is missed, so C7 is not "calibrated".
    assert [c.id for c in figures.claims if c.verdict == "calibration target not met"] == ["C7"]
    assert not [c.id for c in figures.claims if c.verdict == "calibrated"]


def test_claims_table_shows_calibrated_claims_and_brackets_as_text():
    from rich.console import Console

    from qdisclab.figures import Claim, FigureSet, VERDICTS
    from qdisclab.commands.reproduce import VERDICT_STYLES, claims_table

    assert set(VERDICT_STYLES) == set(VERDICTS)
    figures = FigureSet("red-vs-droptail", Path("."), claims=[
        Claim("§2.1", "S16 [/]", "20-25 of 25 [2↑ 18= 5~ 0↓]", "calibrated", id="C7")])
    console = Console(width=200, record=True)
    console.print(claims_table(figures))
    text = console.export_text()
    assert "20-25 of 25 [2↑ 18= 5~ 0↓]" in text and "S16 [/]" in text and "calibrated" in text


def test_equivalence_margin_is_one_hundredth_of_the_link():
    """Declared once for the study and fixed by the link rate: a pair 0.0007 Mb/s below the
    maximum with a narrow interval is tied with it at 1 Mb/s."""
    assert rvd.equivalence_margin(("1Mbps", "20ms")) == pytest.approx(0.01)
    assert rvd.equivalence_margin(("0.5Mbps", "20ms")) == pytest.approx(0.005)
    from qdisclab.figures.red_vs_droptail.analysis import PairRow, tied_with_best
    from qdisclab.figures.common import t_interval

    def row(pair, totals):
        est = t_interval(totals.values())
        return PairRow(pair, est, est, est, {}, totals)

    best = row((0.4, 0.8), {4: 0.9290, 5: 0.9287, 6: 0.9285})
    paper = row((0.32, 0.64), {4: 0.9283, 5: 0.9280, 6: 0.9278})
    far = row((0.02, 0.04), {4: 0.90, 5: 0.89, 6: 0.91})
    _, tied = tied_with_best([best, paper, far], 0.0)
    assert paper not in tied  # 0.0007 below, beyond its interval: not tied without a margin
    _, tied = tied_with_best([best, paper, far], rvd.equivalence_margin(("1Mbps", "20ms")))
    assert paper in tied and far not in tied


def test_count_claims_are_judged_on_every_recorded_seed(variants, variant_figures):
    """Fig. 1's count claims use the seeds-* grids' seeds too: each cell's best pair chosen on
    seeds 1-3 and judged on 4-10, never on the seeds that chose it; the final campaign's
    verdict (seeds 4-6) is shown beside."""
    found = rvd.load_variants(variants / "red-vs-droptail-variants" / "campaign.sqlite")
    seeds = found.seeds_all
    assert seeds.split and not set(seeds.choice_seeds) & set(seeds.judge_seeds)
    assert (seeds.choice_seeds, seeds.judge_seeds) == ([1, 2, 3], list(range(4, 11)))
    _, figures = variant_figures
    by_id = {c.id: c for c in figures.claims}
    assert "C4" in by_id
    for claim_id in (i for i in rvd.ALL_SEEDS_IDS if i in by_id):
        assert by_id[claim_id].ours.startswith(
            "[every recorded seed: best pair chosen on seeds 1-3, judged on 4-10"), claim_id
        assert "‖ [final campaign alone, judged on seeds 4-6; verdict there: " in \
            by_id[claim_id].ours
