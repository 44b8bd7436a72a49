# SPDX-License-Identifier: GPL-2.0-only
"""The Assured Service study's runs beside the final campaign: the variants' causes and
figures, the sensitivity figure and the TCP trace's episodes, from synthetic inputs.

* Variants: the sack grids give Fig. 2's RIO the paper's limits (11 and 6 BE flows), the
  bucket320 grids give every curve the primary's numbers; the primary is the synthetic
  campaign of test_rio_assured_service (Fig. 2(b)'s RIO limit 2: "partly").
* Sensitivity: every run's mean queue is 400 + the queue limit / 10 + 100 x SACK, the 2 Mb/s
  class 1.0 + the segment size / 10000.
* Trace: a hand-written trace with a fast recovery, a timeout and a fast recovery that no loss
  started, with known counts.
"""

import csv
from pathlib import Path

import pytest

from qdisclab.figures import rio_assured_service as ras
from qdisclab.figures.rio_assured_service import claims as claims_module
from synthetic_campaign import draw_results, read_csv, stored_run, write_campaign_db
from test_rio_assured_service import make_db, synthetic_metrics

CAMPAIGNS = Path(__file__).resolve().parents[2] / "campaigns"


def variant_metrics(run) -> dict:
    if run.grid.startswith("sack-fig2"):
        s = ras.setup_of(stored_run(run, grid="fig2"))
        limit = {(0.4, "RIO"): 11, (0.4, "RI+O"): 26, (0.5, "RIO"): 6,
                 (0.5, "RI+O"): 16}[(s.subscription, s.queue)]
        mean = s.profiles[0] + (0.1 if s.n_be <= limit else -0.1) + (run.seed - 2) / 256
        return {"as_mbps": mean, "as0_mbps": mean, "as_min_mbps": mean - 0.05,
                "total_mbps": 19.9, "mean_queue_packets": 100.0}
    primary_grid = run.grid.split("-", 1)[1] if "-" in run.grid else run.grid
    return synthetic_metrics(type(run)(run.key, run.program, run.params, run.seed,
                                       primary_grid if primary_grid != "total" else "table1"))


@pytest.fixture(scope="module")
def with_variants(tmp_path_factory):
    root = tmp_path_factory.mktemp("results")
    write_campaign_db(root / "rio-assured-service-variants" / "campaign.sqlite",
                      CAMPAIGNS / "rio-assured-service-variants.toml", variant_metrics)
    return draw_results(root, "rio-assured-service", make_db, quick=False)


def test_variant_causes_and_artifacts(with_variants):
    _, figures, _ = with_variants
    ids = {a.id for a in figures.artifacts}
    assert {"variant-sack", "variant-bucket320", "variant-riplus-total"} <= ids
    b = next(c for c in figures.claims if c.id == "C6")
    assert b.verdict == "partly"
    # The cause names each variant and what it measured for the same claim.
    assert ("variant sack (TCP with SACK, everything else as the primary): RIO meets the"
            " profile up to 6 BE flows, RI+O meets the profile up to 16 BE flows (criterion a)"
            " → agree; ") in b.cause
    assert ("variant bucket320 (320 kbit token buckets in Figs. 2-3 (primary: 160)): RIO meets"
            " the profile up to 2 BE flows, RI+O meets the profile up to 16 BE flows (criterion"
            " a) → partly; ") in b.cause
    # The minimum-RTO variant's runs have the primary's numbers here: the primary's verdict.
    assert b.cause.endswith("variant minrto200 (TCP's minimum RTO 0.2 s, ns-2.35's minrto_"
                            " (primary: ns-3's 1 s), in Fig. 2): RIO meets the profile up to 2"
                            " BE flows, RI+O meets the profile up to 16 BE flows (criterion a)"
                            " → partly")
    assert "variant-minrto200" in ids
    (sack,) = [a for a in figures.artifacts if a.id == "variant-sack"]
    rows = {r["claim"]: r for r in read_csv(sack.csv)}
    assert rows["C6"]["primary_verdict"] == "partly" and rows["C6"]["variant_verdict"] == "agree"
    assert rows["C5"]["variant_verdict"] == "agree"
    assert sack.png.is_file() and sack.pdf.is_file()
    assert sack.table.columns == ["claim", "where", "primary", "variant", "variant: ours"]
    # The U8 variant searches RI+O over 15 settings: its maxima cover more rows.
    (total,) = [a for a in figures.artifacts if a.id == "variant-riplus-total"]
    by_claim = {r["claim"]: r for r in read_csv(total.csv)}
    assert set(by_claim) == {"C2", "C4"}  # the claims an IN+OUT search of RI+O bears on
    assert by_claim["C2"]["variant_verdict"] == "agree"
    assert "RI+O per-class" not in by_claim["C2"]["variant_ours"]
    assert by_claim["C2"]["variant_ours"].startswith("per-class maxima")


#: The grids of a partly run variants campaign (swept a part at a time with ``--grid``):
#: Table 1's three and Fig. 2 with 320 kbit buckets, which here gives Fig. 2(b)'s RIO the
#: paper's limit (6 BE flows; the primary's is 2).
PART_GRIDS = ("sack-table1-rio", "sack-table1-riplus", "table1-riplus-total", "bucket320-fig2")


def part_metrics(run) -> dict:
    if run.grid == "bucket320-fig2":
        return variant_metrics(type(run)(run.key, run.program, run.params, run.seed,
                                         "sack-fig2"))
    return variant_metrics(run)


def test_causes_of_a_partly_run_variants_campaign(tmp_path):
    """Each claim needing a cause quotes the variants that ran for it and names the covering
    ones that did not; a claim no variant ran for says so, naming the grids it needs."""
    root = tmp_path / "results"
    write_campaign_db(root / "rio-assured-service-variants" / "campaign.sqlite",
                      CAMPAIGNS / "rio-assured-service-variants.toml", part_metrics,
                      skip=lambda run: run.grid not in PART_GRIDS)
    _, figures, _ = draw_results(root, "rio-assured-service", make_db, quick=False)
    fig2b = next(c for c in figures.claims if c.id == "C6")
    assert fig2b.verdict == "partly"  # the primary's: RIO up to 2 BE flows
    assert fig2b.cause == ("variant bucket320 (320 kbit token buckets in Figs. 2-3 (primary:"
                           " 160)): RIO meets the profile up to 6 BE flows, RI+O meets the"
                           " profile up to 16 BE flows (criterion a) → agree; not run for this"
                           " claim: sack, minrto200")
    fig3c = next(c for c in figures.claims if c.id == "C10")
    assert fig3c.verdict == "partly"
    assert fig3c.cause == ("variant not run (campaigns/rio-assured-service-variants.toml: no"
                           " runs of sack-*, bucket320-* for this claim)")
    (bucket,) = [a for a in figures.artifacts if a.id == "variant-bucket320"]
    assert {r["claim"] for r in read_csv(bucket.csv)} == {"C5", "C6", "C7"}  # Fig. 3 not run
    (sack,) = [a for a in figures.artifacts if a.id == "variant-sack"]
    # SACK ran Table 1 only, with the primary's numbers: its Table 1 claims, all agreeing.
    assert {(r["claim"], r["variant_verdict"]) for r in read_csv(sack.csv)} == \
        {(f"C{i}", "agree") for i in (1, 2, 3, 4, 12, 13)}


def test_a_cause_quotes_a_variants_result_up_to_its_details():
    """The result is cut at the first "; " outside parentheses, so C4's "(best RIO = our
    per-class maxima; with ...)" stays whole."""
    head = claims_module._head
    assert head("10 of 36 within ±10 % (best RIO = our per-class maxima; with our single best"
                " RIO setting instead: 9); largest gap: 0.6 vs 0.276") == \
        "10 of 36 within ±10 % (best RIO = our per-class maxima; with our single best RIO" \
        " setting instead: 9)"
    assert head("RIO meets the profile up to 6 BE flows (criterion a); beyond") == \
        "RIO meets the profile up to 6 BE flows (criterion a)"
    assert head("no details") == "no details"


def write_sensitivity(path: Path) -> None:
    def metrics(run) -> dict:
        p = run.params
        queue = 400 + p["queueLimit"] / 10 + 100 * p["sack"]
        return {"as0_mbps": 1.0 + p.get("segmentSize", 1000) / 10000 + run.seed / 1000,
                "be_mbps": 0.2, "mean_queue_packets": queue, "mean_queue_delay_ms": queue / 2.5,
                "out_queue_drops": 3.0 if p["queueDisc"] == "RI+O" else 0.0,
                "out_early_drops": 100.0, "out_forced_drops": 10.0,
                "mean_avg_total_packets": queue, "mean_avg_in_packets": 250.0}
    write_campaign_db(path, CAMPAIGNS / "rio-assured-service-sensitivity.toml", metrics)


def test_sensitivity_artifact(tmp_path):
    db = tmp_path / "rio-assured-service" / "campaign.sqlite"
    assert ras.sensitivity_artifact(db, tmp_path) is None
    write_sensitivity(tmp_path / "rio-assured-service-sensitivity" / "campaign.sqlite")
    artifact = ras.sensitivity_artifact(db, tmp_path / "out")
    assert artifact.id == "sensitivity" and artifact.png.is_file()
    rows = read_csv(artifact.csv)
    # 7 unknowns: the primary's value plus 1 or 2 others each (tcp: SACK), 3 settings.
    assert len(rows) == 3 * (2 + 3 + 2 + 3 + 2 + 2 + 2)
    cell = {(r["unknown"], r["value"], r["setting"]): r for r in rows}
    limit = cell[("queue-limit", "2000", "RIO 347/694/0.05")]
    assert float(limit["mean_queue_packets_mean"]) == pytest.approx(600)
    assert limit["n"] == "3" and limit["primary"] == "false"
    # The primary's runs stand for every unknown's default value.
    primary = cell[("segment-size", "1000", "RI+O OUT 200/600/0.01")]
    assert primary["primary"] == "true"
    assert float(primary["mean_queue_packets_mean"]) == pytest.approx(500)
    assert float(primary["as0_mbps_mean"]) == pytest.approx(1.102)
    assert float(cell[("tcp", "true", "RIO 347/694/0.05")]["mean_queue_packets_mean"]) == \
        pytest.approx(600)
    # OUT drops by RIO's own tests: early + forced - those of RI+O's test on avg_out.
    assert float(primary["out_red_drops"]) == pytest.approx(107)


TRACE = """time_s,event,seq,bytes,detail
1.0,cwnd,0,10000,
1.0,ssthresh,0,4294967295,
1.1,new,1,1000,out
1.1,drop,1,1000,out
1.2,new,1001,1000,out
1.3,new,2001,1000,in
1.5,state,0,0,Disorder
1.6,state,0,0,Recovery
1.6,ssthresh,0,5000,
1.6,cwnd,0,8000,
1.6,resent,1,1000,in
1.6,resent,1,1000,in
1.9,deliver,1,1000,in
1.9,spurious,1,1000,in
2.0,state,0,0,Open
2.0,cwnd,0,5000,
2.1,new,3001,1000,out
2.1,drop,3001,1000,out
3.1,ssthresh,0,2000,
3.1,state,0,0,Loss
3.1,cwnd,0,1000,
3.1,resent,3001,1000,in
3.4,deliver,3001,1000,in
3.5,state,0,0,Open
3.6,resent,2001,1000,in
3.9,spurious,2001,1000,in
4.0,state,0,0,Disorder
4.1,state,0,0,Recovery
4.1,ssthresh,0,2000,
4.1,resent,2001,1000,in
4.2,state,0,0,Open
"""


def test_trace_episodes_and_summary(tmp_path):
    path = tmp_path / "trace.csv"
    path.write_text(TRACE, encoding="utf-8")
    rows = ras.read_trace(path)
    found = ras.episodes(rows)
    assert [(e.start, e.end, e.kind, e.losses, e.resent, e.cuts) for e in found] == [
        (1.6, 2.0, "fast recovery", 1, 2, 1), (3.1, 3.5, "timeout", 1, 1, 1),
        (4.1, 4.2, "fast recovery", 0, 1, 0)]
    assert found[0].spurious == 1 and found[0].cwnd_exit == 5.0
    counts = ras.retransmissions(rows)
    assert counts["fast recovery"] == [3, 1]
    assert counts["timeout recovery"] == [1, 0]
    assert counts["outside recovery"] == [1, 1]
    assert counts["twice"] == [1, 0] and counts["early"] == [0, 0]
    assert ras.trace_summary(rows, found) == ["2", "2", "1", "1", "3 (1)", "1 (0)", "1 (1)",
                                               "1", "0"]


def test_trace_artifact(tmp_path):
    db = tmp_path / "rio-assured-service" / "campaign.sqlite"
    assert ras.trace_artifact(db, tmp_path) is None
    directory = tmp_path / ras.TRACE_DIR
    directory.mkdir()
    for name, _ in ras.TRACES:
        (directory / f"trace-{name}.csv").write_text(TRACE, encoding="utf-8")
    artifact = ras.trace_artifact(db, tmp_path / "out", window=(0.0, 5.0))
    assert artifact.id == "trace" and artifact.png.is_file() and artifact.pdf.is_file()
    with open(artifact.csv, newline="", encoding="utf-8") as handle:
        episodes = list(csv.DictReader(handle))
    assert [(r["tcp"], r["kind"]) for r in episodes] == [
        ("nosack", "fast recovery"), ("nosack", "timeout"), ("nosack", "fast recovery"),
        ("sack", "fast recovery"), ("sack", "timeout"), ("sack", "fast recovery")]
    assert artifact.table.columns == ras.TRACE_COLUMNS
    assert artifact.table.rows[0][0] == "without SACK (primary)"
