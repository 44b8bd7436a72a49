# SPDX-License-Identifier: GPL-2.0-only
"""Figures, tables, claims and the HTML report, from a synthetic results database.

The synthetic RED-vs-DropTail results are built so that every number is known:
goodputs are multiples of 1/1024 (exact in binary, so seed means are exact), the
seeds add -1/1024, 0, +1/1024, and best RED beats DropTail in exactly the paper's
number of cells per {Wait, Gentle} x link setting, with the paper's best threshold
pair (0.32/0.64) on top.
"""

import json
import math
import os
import re
import shutil
from html import unescape
from pathlib import Path

import pytest
from scipy import stats

from qdisclab.campaign.spec import loads_campaign
from qdisclab.campaign.store import ResultStore
from qdisclab.context import REPO
from qdisclab.figures import (
    ARGUMENT,
    DOES_NOT_MOVE,
    MOVES,
    NO_CAUSE,
    REPRODUCTIONS,
    Claim,
    FigureSet,
    Reproduction,
    calibration_verdict,
    class_by_verdicts,
    get_reproduction,
)
from qdisclab.figures import red_vs_droptail as rvd
from qdisclab.figures.common import campaign_state, t_interval
from qdisclab.report import write_report
from synthetic_campaign import draw_results, read_csv, reported_params

# The study's grid, as in campaigns/red-vs-droptail.toml, with three seeds.
CAMPAIGN_TOML = """
name = "red-vs-droptail"
program = "red-vs-droptail"
metrics = ["tcp_goodput_mbps", "udp_goodput_mbps", "total_goodput_mbps"]
seeds = [1, 2, 3]
[fixed]
simTime = 30
[factors]
window = [2000, 8000, 16000, 32000, 64000]
queueSize = [2000, 8000, 16000, 32000, 64000]
[[zip]]
bottleneckRate = ["1Mbps", "1Mbps", "1Mbps", "0.5Mbps"]
bottleneckDelay = ["20ms", "10ms", "30ms", "20ms"]
[[grid]]
name = "droptail"
fixed = { queueDisc = "FIFO" }
[[grid]]
name = "red"
fixed = { queueDisc = "RED" }
factors = { wait = [true, false], gentle = [true, false] }
[[grid.zip]]
minTh = [0.02, 0.04, 0.08, 0.16, 0.24, 0.32, 0.32, 0.4, 0.48, 0.6]
maxTh = [0.04, 0.08, 0.16, 0.32, 0.48, 0.64, 0.8, 0.8, 0.96, 0.85]
[quick]
seeds = [1, 2]
[quick.params]
simTime = 10
window = [2000, 16000, 32000]
queueSize = [2000, 16000, 64000]
bottleneckRate = ["1Mbps"]
bottleneckDelay = ["20ms"]
wait = [true]
gentle = [true]
minTh = [0.08, 0.32, 0.6]
maxTh = [0.16, 0.64, 0.85]
"""

OFFSET = {1: -1 / 1024, 2: 0.0, 3: 1 / 1024}
UDP = 0.125


def droptail_total(link: int, wi: int, qi: int) -> float:
    """DropTail's seed-mean goodput of a cell (exact in binary)."""
    return 0.25 + link / 16 + (wi * 5 + qi) / 256


def red_total(link: int, wi: int, qi: int, wait: bool, gentle: bool, pair: int) -> float:
    """RED's seed-mean goodput: best pair 0.32/0.64 ahead by 1/64 in the paper's k cells."""
    k = rvd.PAPER_TABLE1[(wait, gentle)][link]
    best = droptail_total(link, wi, qi) + (1 / 64 if wi * 5 + qi < k else -1 / 64)
    return best - abs(pair - 5) / 512


def synthetic_total(params: dict, seed: int) -> float:
    link = rvd.LINKS.index((params["bottleneckRate"], params["bottleneckDelay"]))
    wi = rvd.WINDOWS.index(params["window"])
    qi = rvd.QUEUES.index(params["queueSize"])
    if params["queueDisc"] == "FIFO":
        mean = droptail_total(link, wi, qi)
    else:
        pair = rvd.PAIRS.index((params["minTh"], params["maxTh"]))
        mean = red_total(link, wi, qi, params["wait"], params["gentle"], pair)
    return mean + OFFSET[seed]


def make_db(path: Path, quick: bool = False, *, fail_every: int = 0) -> int:
    """Write a synthetic campaign database; return the number of runs."""
    campaign = loads_campaign(CAMPAIGN_TOML, quick=quick)
    runs = campaign.runs()
    with ResultStore(path) as store:
        store.set_meta({"campaign": campaign.name, "program": campaign.program,
                        "mode": campaign.mode, "campaign_toml": CAMPAIGN_TOML})
        store.start_sweep({"campaign": campaign.name, "mode": campaign.mode,
                           "wall_time_s": 12.5})
        with store.conn:  # one transaction: fast
            store.conn.execute("BEGIN")
            for index, run in enumerate(runs):
                total = synthetic_total(run.params, run.seed)
                failed = fail_every and index % fail_every == fail_every - 1
                metrics = {
                    "tcp_goodput_mbps": total - UDP, "udp_goodput_mbps": UDP,
                    "total_goodput_mbps": total, "mean_queue_delay_ms": 10.0,
                    "drops": 1, "early_drops": 0, "forced_drops": 1,
                }
                store.record({
                    "run_key": run.key, "campaign": campaign.name, "program": run.program,
                    "grid": run.grid, "params": run.params, "seed": run.seed,
                    "status": "failed" if failed else "ok",
                    "reason": "exit status 1" if failed else None,
                    "metrics": None if failed else metrics,
                    "output": None if failed else json.dumps({
                        "schema": "qdisc-lab.metrics/1", "program": run.program,
                        "params": reported_params(run), "metrics": metrics}),
                    "wall_time_s": 0.25, "exit_code": 1 if failed else 0,
                    "ns3_version": "3.37", "git_rev": "abc123",
                })
    return len(runs)


@pytest.fixture(scope="module")
def full_figures(tmp_path_factory):
    root = tmp_path_factory.mktemp("results")
    return root, *draw_results(root, "red-vs-droptail", make_db, quick=False)


def test_registry_names_the_study():
    assert "red-vs-droptail" in REPRODUCTIONS
    reproduction = get_reproduction("red-vs-droptail")
    assert reproduction.figures_function() is rvd.make_figures
    with pytest.raises(KeyError, match="known: .*red-vs-droptail"):
        get_reproduction("no-such-paper")


def test_t_interval_is_student_t():
    estimate = t_interval([1.0, 2.0, 4.0])
    s = math.sqrt(((1 - 7 / 3) ** 2 + (2 - 7 / 3) ** 2 + (4 - 7 / 3) ** 2) / 2)
    assert estimate.n == 3
    assert estimate.mean == pytest.approx(7 / 3, abs=1e-15)
    assert estimate.half_width == pytest.approx(4.302652729749464 * s / math.sqrt(3), rel=1e-12)
    single = t_interval([5.0])
    assert single.mean == 5.0 and math.isnan(single.half_width)
    assert t_interval([]).n == 0


def test_every_file_is_written(full_figures):
    _, directory, figures, count = full_figures
    assert count == 4100 * 3
    ids = [artifact.id for artifact in figures.artifacts]
    assert ids == ["fig1", "fig2", "fig3", "fig4", "table1", "fig5", "fig6"]
    for stem in ("fig1", "fig2", "fig3", "fig4", "fig5", "fig6"):
        for suffix in (".png", ".pdf", ".csv"):
            path = directory / f"{stem}{suffix}"
            assert path.is_file() and path.stat().st_size > 0, path
        assert (directory / f"{stem}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (directory / "table1.csv").is_file()


def test_table1_counts_match_the_constructed_data(full_figures):
    _, directory, _, _ = full_figures
    rows = read_csv(directory / "table1.csv")
    assert len(rows) == 16
    for row in rows:
        wg = (row["wait"] == "true", row["gentle"] == "true")
        link = rvd.LINKS.index((row["bottleneckRate"], row["bottleneckDelay"]))
        paper = rvd.PAPER_TABLE1[wg][link]
        assert int(row["cells"]) == 25
        assert int(row["paper_of_25"]) == paper
        # The seed offsets cancel in the paired difference: every gap is significant, no
        # cell is tied or identical, so the RED >= interval is one number: the paper's.
        assert int(row["red_ahead"]) == int(row["red_ge_low"]) == int(row["red_ge_high"]) == paper
        assert int(row["droptail_ahead"]) == 25 - paper
        assert int(row["identical"]) == int(row["tied"]) == 0
        assert row["verdict"] == "agree"


def test_fig1_csv_numbers_are_exact(full_figures):
    _, directory, _, _ = full_figures
    rows = read_csv(directory / "fig1.csv")
    assert len(rows) == 25
    half = stats.t.ppf(0.975, 2) * (1 / 1024) / math.sqrt(3)  # sample sd of the offsets: 1/1024
    for row in rows:
        wi = rvd.WINDOWS.index(int(row["window"]))
        qi = rvd.QUEUES.index(int(row["queueSize"]))
        assert (row["bottleneckRate"], row["bottleneckDelay"]) == ("1Mbps", "20ms")
        assert float(row["droptail_mean"]) == droptail_total(0, wi, qi)
        assert float(row["red_best_mean"]) == red_total(0, wi, qi, True, True, 5)
        assert (float(row["red_best_minTh"]), float(row["red_best_maxTh"])) == (0.32, 0.64)
        assert float(row["droptail_ci95"]) == pytest.approx(half, rel=1e-9)
        assert int(row["droptail_n"]) == 3 and int(row["red_best_n"]) == 3
        assert float(row["diff_ci95"]) == pytest.approx(0.0, abs=1e-12)
        wins = wi * 5 + qi < 17
        assert row["comparison"] == ("RED ahead" if wins else "DropTail ahead")
        assert float(row["diff_mean"]) == pytest.approx(1 / 64 if wins else -1 / 64, abs=1e-12)


def test_fig5_finds_the_papers_best_pair(full_figures):
    _, directory, figures, _ = full_figures
    rows = [r for r in read_csv(directory / "fig5.csv") if r["queueSize"] == "all"]
    assert [(float(r["minTh"]), float(r["maxTh"])) for r in rows] == list(rvd.PAIRS)
    best = max(rows, key=lambda r: float(r["total_mean"]))
    assert (float(best["minTh"]), float(best["maxTh"])) == (0.32, 0.64)
    assert all(float(r["udp_mean"]) == UDP for r in rows)
    verdicts = {c.paper: c.verdict for c in figures.claims}
    assert verdicts["maximum total goodput at minTh/maxTh = 0.32/0.64 (window 32000)"] == "agree"


def test_claims_state_agreement_with_numbers(full_figures):
    _, _, figures, _ = full_figures
    by_where = {}
    for claim in figures.claims:
        by_where.setdefault(claim.where, []).append(claim)
    table = by_where["Table 1"][0]
    assert table.verdict == "agree"
    assert "16 of the 16 counts we can judge are within ±3" in table.ours
    seventeen = by_where["§2.1 (Figure 1)"][0]
    assert seventeen.verdict == "agree" and seventeen.ours.startswith("17 of 25")
    # The calibration statement S16 is shown, not judged: constructed so that RED is ahead at
    # window 2000 from queue 8000 on (the paper says equal from 16000).
    equal = next(c for c in figures.claims if c.id == "C7")
    assert equal.verdict == "calibration target not met" and "window 2000" in equal.paper
    assert equal.ours.endswith("not met)")
    assert equal.ours.startswith("queue 8000: RED ahead; queue 16000: RED ahead")


def test_report_embeds_everything(full_figures):
    root, _, _, _ = full_figures
    report = write_report(root)
    text = report.read_text(encoding="utf-8")
    assert report == root / "report.html"
    assert text.count('src="data:image/png;base64,') == 6
    for stem in ("fig1", "fig5", "fig6"):
        assert f'href="red-vs-droptail/{stem}.csv"' in text
        assert f'href="red-vs-droptail/{stem}.pdf"' in text
    assert 'href="red-vs-droptail/table1.csv"' in text
    assert "12300 planned: 12300 ok, 0 failed, 0 timed out" in text
    assert "17 of 25 [17↑ 0= 0~ 8↓] — paper 17/25" in text
    assert "Where we agree and where we do not" in text


def test_quick_results_are_reported_as_quick(tmp_path):
    directory = tmp_path / "red-vs-droptail"
    count = make_db(directory / "campaign-quick.sqlite", quick=True, fail_every=10)
    assert count == 72
    (tmp_path / "other").mkdir()  # no database: not a section
    text = write_report(tmp_path).read_text(encoding="utf-8")
    assert "quick campaign" in text
    assert "72 planned: 65 ok, 7 failed, 0 timed out" in text
    assert (directory / "quick" / "fig1.csv").is_file()
    assert not (directory / "fig1.csv").exists()
    assert 'href="red-vs-droptail/quick/fig1.csv"' in text
    assert "not evaluated" in text  # the quick grid lacks most of the paper's cells


# ------------------------------------------------------- the report from recorded results

RECORDED = REPO / "doc" / "results"
# What each recorded reproduction holds: figures drawn as PNG, claims in figures.json.
RECORDED_PNGS = {"cioq-red": 11, "drr-evaluation": 6, "red-vs-droptail": 12,
                 "rio-assured-service": 6, "vertical-dimensioning": 7}
RECORDED_CLAIMS = {"cioq-red": 20, "drr-evaluation": 18, "red-vs-droptail": 18,
                   "rio-assured-service": 13, "vertical-dimensioning": 15}


def local_links(text: str) -> list[str]:
    """Every href of the page but anchors."""
    return [unescape(h) for h in re.findall(r'href="([^"]+)"', text) if not h.startswith("#")]


def test_report_renders_from_the_recorded_results_alone(tmp_path):
    results = tmp_path / "results"
    shutil.copytree(RECORDED, results)
    assert not list(results.rglob("*.sqlite"))
    text = write_report(results).read_text(encoding="utf-8")

    assert "No results yet" not in text
    assert re.findall(r'<h2 id="([^"]+)">', text) == sorted(RECORDED_PNGS)
    assert text.count('src="data:image/png;base64,') == sum(RECORDED_PNGS.values())
    assert text.count("<tr class=") == sum(RECORDED_CLAIMS.values())
    assert text.count("no campaign database") == 5
    # The campaign state recorded in figures.json (RED vs DropTail's final campaign) ...
    assert "<td>24600 planned: 24600 ok, 0 failed, 0 timed out</td>" in text
    assert "<td>666 planned: 666 ok, 0 failed, 0 timed out</td>" in text  # RIO's primary
    assert "(incomplete:" not in text
    for table in ("table1", "table2", "table3", "table4", "table5"):
        assert f'id="{table}"' in text


def test_figure_set_recorded_without_its_campaign_state(tmp_path):
    """A figure set recorded before figures.json held the campaign state (RIO's first
    campaign, kept for its SACK results) is reported from its notes: runs and seeds, the
    rest not recorded, and no plan to mark verdicts incomplete against."""
    results = tmp_path / "results"
    shutil.copytree(RECORDED / "rio-assured-service" / "first-campaign-sack",
                    results / "rio-assured-service")
    text = write_report(results).read_text(encoding="utf-8")
    assert "<td>378 ok, 0 failed, 0 timed out</td>" in text
    assert "<tr><th>Seeds (RngRun)</th><td>1, 2, 3, 4, 5, 6</td></tr>" in text
    assert text.count("<tr class=") == 11
    assert "(incomplete:" not in text  # the plan is not known: nothing to mark


def test_recorded_report_is_portable(tmp_path):
    results = tmp_path / "results"
    shutil.copytree(RECORDED, results)
    page = write_report(results)
    text = page.read_text(encoding="utf-8")
    for machine_path in ("/work", str(Path.home()), str(REPO), str(tmp_path)):
        assert machine_path not in text, machine_path

    # Copied elsewhere, the page's every link still finds its file.
    copy = tmp_path / "elsewhere" / "copy"
    shutil.copytree(results, copy)
    links = local_links((copy / page.name).read_text(encoding="utf-8"))
    assert len(links) == 3 * sum(RECORDED_PNGS.values()) + 5 + 5  # PNG, PDF, CSV; tables; json
    for link in links:
        assert not link.startswith("/") and (copy / link).is_file(), link


def test_recorded_figure_set_carries_its_campaign_state(tmp_path):
    directory = tmp_path / "red-vs-droptail"
    make_db(directory / "campaign-quick.sqlite", quick=True, fail_every=10)
    with_db = write_report(tmp_path).read_text(encoding="utf-8")
    figures = FigureSet.load(directory / "quick")
    assert figures.campaign == campaign_state(directory / "campaign-quick.sqlite")
    assert figures.campaign.counts == {"ok": 65, "failed": 7, "timeout": 0}
    assert figures.campaign.incomplete

    (directory / "campaign-quick.sqlite").unlink()  # recorded: the figures alone
    text = write_report(tmp_path).read_text(encoding="utf-8")
    assert "no campaign database" in text and "campaign database <a" in with_db
    for page in (with_db, text):
        assert "72 planned: 65 ok, 7 failed, 0 timed out" in page
        assert "<tr><th>Seeds (RngRun)</th><td>1, 2</td></tr>" in page
        assert "<code>abc123</code>" in page and "<td>3.37</td>" in page
        verdicts = re.findall(r"<td>([^<]*) <span class='incomplete'>\(incomplete: 65/72 runs\)",
                              page)
        assert len(verdicts) == len(figures.claims) and "not evaluated" in verdicts
        assert "drawn from 65 of the campaign&#x27;s 72 runs" in page
        # Failed runs are named by parameters and seed, not by a machine's command line.
        assert "queueDisc=" in page and "RngRun=" in page


def test_complete_campaign_verdicts_are_not_marked(full_figures):
    root, _, _, _ = full_figures
    text = write_report(root).read_text(encoding="utf-8")
    assert "(incomplete:" not in text and "campaign&#x27;s" not in text


def test_machine_paths_are_left_out_of_the_page(tmp_path):
    directory = tmp_path / "red-vs-droptail"
    db = directory / "campaign-quick.sqlite"
    make_db(db, quick=True, fail_every=10)
    with ResultStore(db) as store:
        store.conn.execute("UPDATE runs SET reason = ?, command = ? WHERE status = 'failed'",
                           (f"exit status 134: {REPO}/model/red.cc:12 in {Path.home()}/x",
                            f"{REPO}/build/system/examples/red-vs-droptail --RngRun=1"))
    text = write_report(tmp_path).read_text(encoding="utf-8")
    assert str(REPO) not in text and str(Path.home()) + "/" not in text
    assert "exit status 134: &lt;repo&gt;/model/red.cc:12 in ~/x" in text
    assert 'href="red-vs-droptail/campaign-quick.sqlite"' in text


def test_saved_figures_that_record_the_databases_state_are_reused(tmp_path, monkeypatch):
    directory = tmp_path / "red-vs-droptail"
    db = directory / "campaign-quick.sqlite"
    make_db(db, quick=True)
    write_report(tmp_path)
    # A checkout gives files arbitrary times: the database now looks newer than its figures.
    later = (directory / "quick" / "figures.json").stat().st_mtime + 100
    os.utime(db, (later, later))

    def redraw(*args):
        raise AssertionError("drawn again")

    monkeypatch.setattr(Reproduction, "make_figures", redraw)
    assert "72 planned: 72 ok" in write_report(tmp_path).read_text(encoding="utf-8")
    with ResultStore(db) as store:  # one more failed run: the state differs, so draw again
        store.conn.execute("UPDATE runs SET status = 'failed' WHERE rowid = 1")
    assert "drawn again" in write_report(tmp_path).read_text(encoding="utf-8")


# Claim ids, the "calibrated" verdict and causes (issue #12's reconstruction plans).
def test_claims_are_numbered_in_order_and_keep_given_ids(tmp_path):
    figures = FigureSet("x", tmp_path, claims=[
        Claim("Fig. 1", "a", "b", "agree"),
        Claim("Fig. 2", "c", "d", "calibrated", id="C7"),
        Claim("Fig. 3", "e", "f", "disagree", cause="variant v: flips to agree",
              cause_class=MOVES),
    ])
    figures.number_claims()
    assert [c.id for c in figures.claims] == ["C1", "C7", "C3"]
    figures.save()
    loaded = FigureSet.load(tmp_path)
    assert [(c.id, c.verdict, c.cause, c.cause_class) for c in loaded.claims] == [
        ("C1", "agree", "", "none"), ("C7", "calibrated", "", "none"),
        ("C3", "disagree", "variant v: flips to agree", MOVES)]


def test_claim_ids_used_twice_are_refused(tmp_path):
    figures = FigureSet("x", tmp_path, claims=[Claim("a", "b", "c", "agree", id="C2"),
                                               Claim("d", "e", "f", "agree")])
    with pytest.raises(ValueError, match="claim ids used twice: C2"):
        figures.number_claims()


def test_report_shows_claim_id_and_cause(tmp_path):
    from qdisclab.report import _claims_html
    figures = FigureSet("x", tmp_path, claims=[
        Claim("Fig. 3", "paper says", "we say", "partly", id="C4", cause="run <v> moved it",
              cause_class=MOVES)])
    html = _claims_html(figures, None)
    assert "<td>C4</td>" in html and "run &lt;v&gt; moved it" in html and 'class="partly"' in html
    # Every cause is labelled by what it stands on, never titled "shown by a run" as a whole.
    assert f"<td>{MOVES}</td>" in html and "shown by a run" not in html


def test_a_calibration_whose_target_is_missed_is_not_calibrated():
    assert calibration_verdict(True) == "calibrated"
    assert calibration_verdict(False) == "calibration target not met"
    assert calibration_verdict(None) == "not evaluated"


def test_cause_classes_follow_the_variant_verdicts(tmp_path):
    assert class_by_verdicts("disagree", ["disagree", "partly"]) == MOVES
    assert class_by_verdicts("partly", ["partly", "partly"]) == DOES_NOT_MOVE
    assert class_by_verdicts("partly", ["not evaluated"]) == NO_CAUSE
    # A cause without its class is refused when the figure set is numbered.
    figures = FigureSet("x", tmp_path, claims=[Claim("a", "b", "c", "partly", cause="a guess")])
    with pytest.raises(ValueError, match="its cause needs a class"):
        figures.number_claims()
    claim = Claim("a", "b", "c", "partly")
    claim.set_cause("the background scales with P", ARGUMENT)
    assert claim.cause_class == ARGUMENT
    with pytest.raises(ValueError, match="unknown cause class"):
        claim.set_cause("x", "shown by a run")


def _section(name, claims):
    from qdisclab.report import Section
    return Section(name, None, figures=FigureSet(name, Path("."), claims=claims))


def test_report_leads_with_the_verdict_counts_of_every_reproduction(tmp_path):
    """The summary table comes before the first section and counts each verdict apart:
    calibrations whose target was missed apart from the calibrated ones, variants (claims judged
    again under a changed setting) apart from the claims, and the causes by class."""
    from qdisclab.report import render, summary_rows
    a = _section("paper-a", [
        Claim("1", "p", "o", "agree", id="C1"),
        Claim("2", "p", "o", "partly", id="C2", cause="variant v", cause_class=MOVES),
        Claim("3", "p", "o", "disagree", id="C3", cause="a reading", cause_class=ARGUMENT),
        Claim("4", "p", "o", "calibrated", id="C4"),
        Claim("5", "p", "o", "calibration target not met", id="C5"),
        Claim("6", "p", "o", "agree", id="C6", kind="variant"),
        Claim("7", "p", "o", "partly", id="C7", kind="variant"),
    ])
    b = _section("paper-b", [Claim("1", "p", "o", "not evaluated", id="C1"),
                             Claim("2", "p", "o", "disagree", id="C2")])
    rows = summary_rows([a, b])
    assert [(r["name"], r["claims"], r["agree"], r["partly"], r["disagree"], r["not evaluated"],
             r["calibrated"], r["calibration target not met"]) for r in rows] == [
        ("paper-a", 5, 1, 1, 1, 0, 1, 1), ("paper-b", 2, 0, 0, 1, 1, 0, 0)]
    assert rows[0]["variants"] == {"agree": 1, "partly": 1}
    assert rows[0]["causes"] == {MOVES: 1, ARGUMENT: 1}
    assert rows[1]["causes"] == {"none": 1}
    html = render([a, b], tmp_path)
    assert html.index("Verdicts per reproduction") < html.index('<h2 id="paper-a">')
    summary = html[html.index("Verdicts per reproduction"):html.index('<h2 id="paper-a">')]
    cells = re.findall(r'<td class="num">(\d+)</td>', summary)
    assert cells == ["5", "1", "1", "1", "0", "1", "1", "2", "0", "0", "1", "1", "0", "0",
                     "7", "1", "1", "2", "1", "1", "1"]
    assert "1 agree, 1 partly" in summary and f"1 {MOVES}, 1 {ARGUMENT}" in summary
    # The variants have their own table, after the claims'.
    section = html[html.index('<h2 id="paper-a">'):]
    assert section.index("Variants: claims judged again") > section.index("Where we agree")


def test_recorded_claims_carry_cause_classes_and_no_target_missed_is_calibrated():
    """Every recorded claim with a cause has its class, and every recorded calibration claim
    that says its target was not met has that verdict."""
    for name in REPRODUCTIONS:
        figures = FigureSet.load(REPO / "doc" / "results" / name)
        for claim in figures.claims:
            if not claim.cause:
                assert claim.cause_class == "none", (name, claim.id)
            elif claim.cause_class == "none":  # a text saying no variant was run or covers it
                assert re.search(r"not run|no variant", claim.cause), (name, claim.id)
            else:
                assert claim.cause_class in (MOVES, DOES_NOT_MOVE, ARGUMENT), (name, claim.id)
            if claim.verdict == "calibrated":
                assert "not met" not in claim.ours, (name, claim.id)
        assert "shown by a run" not in " ".join(c.cause_class for c in figures.claims)


def test_compare_paired_separates_identical_ties_and_wins():
    from qdisclab.figures.common import compare_paired
    assert compare_paired([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])[0] == "identical"
    assert compare_paired([2.0, 3.1, 4.0], [1.0, 2.0, 3.0])[0] == "A ahead"
    assert compare_paired([0.0, 1.0, 2.0], [1.0, 2.1, 3.0])[0] == "B ahead"
    kind, diff = compare_paired([1.5, 1.0, 3.2], [1.0, 2.0, 3.0])
    assert kind == "tied" and diff.low < 0 < diff.high
    assert compare_paired([1.5], [1.0])[0] == "tied"  # one seed: the interval is unknown
    # An equivalence margin: a sure difference smaller than it is a tie, a larger one is not.
    close = ([0.9307, 0.9308, 0.9306], [0.9300, 0.9301, 0.9300])
    assert compare_paired(*close)[0] == "A ahead"
    assert compare_paired(*close, margin=0.01)[0] == "tied"
    assert compare_paired([2.0, 3.1, 4.0], [1.0, 2.0, 3.0], margin=0.01)[0] == "A ahead"
    assert compare_paired([1.0, 2.0], [1.0, 2.0], margin=0.01)[0] == "identical"
    with pytest.raises(ValueError, match="equal, non-empty"):
        compare_paired([1.0], [1.0, 2.0])


def test_variants_db_is_found_beside_the_campaign(tmp_path):
    from qdisclab.figures.common import variants_db
    main = tmp_path / "results" / "x" / "campaign.sqlite"
    assert variants_db(main, "x") is None
    other = tmp_path / "results" / "x-variants" / "campaign.sqlite"
    other.parent.mkdir(parents=True)
    other.write_bytes(b"")
    assert variants_db(main, "x") == other


def test_summary_shows_other_readings_beside_and_outside_the_totals(tmp_path):
    """A reproduction judged under two readings (VD's two topologies) shows the other one's
    counts on an indented row of its own, not added to the totals; a figure set keeps them."""
    from qdisclab.report import render
    figures = FigureSet("vd", tmp_path, claims=[Claim("1", "p", "o", "agree", id="C1"),
                                                Claim("2", "p", "o", "disagree", id="C2")],
                        tallies={"1 ms links (the paper's topology)": {"agree": 2}})
    figures.save()
    assert FigureSet.load(tmp_path).tallies == {"1 ms links (the paper's topology)": {"agree": 2}}
    from qdisclab.report import Section
    html = render([Section("vd", None, figures=figures)], tmp_path)
    summary = html[html.index("Verdicts per reproduction"):html.index('<h2 id="vd">')]
    row = re.search(r"vd: 1 ms links \(the paper&#x27;s topology\)</td>(.*?)</tr>", summary)
    assert row and re.findall(r'<td class="num">(\d+)</td>', row.group(1)) == [
        "2", "2", "0", "0", "0", "0", "0"]
    total = re.search(r"<th>all</th>(.*?)</tr>", summary).group(1)
    assert re.findall(r'<td class="num">(\d+)</td>', total) == ["2", "1", "0", "1", "0", "0", "0"]


def test_report_shows_the_papers_simulator_beside_the_module(tmp_path):
    """The three-way view: the summary has a row of the paper's simulator's counts (not in the
    totals) with where the claims stand, and the claims table its verdicts and numbers."""
    from qdisclab.figures import BOTH_AGREE, SIMULATOR_AGREES
    from qdisclab.report import render, summary_rows
    ours = _section("paper-a", [Claim("1", "p", "o1", "agree", id="C1"),
                                Claim("2", "p", "o2", "disagree", id="C2")])
    theirs = FigureSet("paper-a", tmp_path, claims=[Claim("1", "p", "n1", "agree", id="C1"),
                                                   Claim("2", "p", "n2", "agree", id="C2")])
    ours.figures.attach_simulator("ns-2.35", theirs)
    row, = summary_rows([ours])
    assert row["simulator_counts"]["agree"] == 2
    assert row["attributions"][BOTH_AGREE] == row["attributions"][SIMULATOR_AGREES] == 1
    html = render([ours], tmp_path)
    summary = html[html.index("Verdicts per reproduction"):html.index('<h2 id="paper-a">')]
    from html import escape
    assert "paper-a: on ns-2.35" in summary and escape(f"1 {SIMULATOR_AGREES}") in summary
    # The totals count the module's claims only: 2 claims, 1 agree, 1 disagree.
    total = summary[summary.index("<th>all</th>"):]
    assert re.findall(r'<td class="num">(\d+)</td>', total)[:4] == ["2", "1", "0", "1"]
    section = html[html.index('<h2 id="paper-a">'):]
    assert "Verdict on ns-2.35" in section and "n2" in section
    assert escape(SIMULATOR_AGREES) in section
