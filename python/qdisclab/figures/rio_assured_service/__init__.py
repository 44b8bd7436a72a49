# SPDX-License-Identifier: GPL-2.0-only
"""Figures, tables and claims of the Assured Service study (Kim, Park, Bahk; RIO vs RI+O, ns-2).

Long-lived TCP flows share a 20 Mb/s bottleneck managed by RIO or RI+O; Assured
Service (AS) flows are marked IN up to their profile by a token bucket, best-effort
(BE) flows are OUT. ``campaigns/rio-assured-service.toml`` runs the
``rio-assured-service`` example in four sub-grids:

``table1``
    20 AS flows (profiles 2, 1, 0.5, 0.2, 0.1 Mb/s, four each) and 20 BE flows:
    mean throughput per profile class for RIO with the paper's parameters, the best
    RIO of an IN+OUT search (the setting whose 2 Mb/s flows get the most), and RI+O
    with each OUT setting of the paper's Table 1, beside the paper's numbers and the
    fair share (profile + the unsubscribed capacity split over all 40 flows);
``fig2``
    mean throughput of four AS flows at 40 % (2 Mb/s each) and 50 % (2.5 Mb/s)
    subscription against the number of BE flows, RIO and RI+O; where each scheme
    stops meeting the profile, beside the paper's 11 / 26 and 6 / 16 BE flows;
``fig3``
    20 BE flows, AS flows of one profile (0.5, 1, 2 Mb/s) at subscription 10–100 %:
    the highest level up to which each scheme meets the profile, beside the paper's.

Throughput is the IPv4 bytes of a flow's packets through the bottleneck after the
warm-up (retransmissions included, as a link meter sees them); every mean comes with
its 95 % Student-t interval over seeds. "Meets the profile" compares the seed mean of
the AS flows' mean throughput with the profile rate.

Beside the final campaign's database, when they were run:

``sensitivity``
    ``campaigns/rio-assured-service-sensitivity.toml``: Table 1's 2 Mb/s class and mean queue
    against the unknowns, one at a time (queue limit, access rate, segment size, window, fast
    recovery, minimum RTO, SACK), for RIO 347/694/0.05 and RI+O with OUT 200/600 and 100/300.
``trace``
    one 2 Mb/s flow (flow 0, Table 1's RIO 347/694/0.05, seed 1) traced with and without SACK
    (``rio-assured-service --traceFlow=0``, files ``trace-nosack.csv`` and ``trace-sack.csv`` in
    ``results/rio-assured-service-trace/``): its loss-recovery episodes, against what ns-2's
    NewReno does (one window cut per episode, one retransmission per lost segment, nothing
    resent that the receiver has, timeouts aside).

Both are found beside the final campaign's database and drawn when present.

The package splits the paper's numbers (:mod:`.paper`), the analysis of the runs
(:mod:`.analysis`), the figures and tables (:mod:`.plots`) and the claims (:mod:`.claims`);
:func:`make_figures` puts them together.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from qdisclab.figures import VERDICTS, Claim, FigureSet
from qdisclab.figures.common import figure_artifact, load_campaign_runs, variants_db
from qdisclab.figures.rio_assured_service.analysis import (
    CRITERIA,
    TRACES,
    TRACE_DIR,
    VARIANTS,
    Curve,
    Setup,
    Table1Row,
    be_label,
    best,
    choose_criterion,
    episodes,
    goodput_run,
    has_goodput,
    last_met,
    paired,
    parse_profiles,
    per_class_maxima,
    percent_label,
    read_trace,
    retransmissions,
    setup_of,
    trace_summary,
    variant_runs,
)
from qdisclab.figures.rio_assured_service.claims import Analysis, variant_causes
from qdisclab.figures.rio_assured_service.paper import (
    FIG2_PROFILES,
    FIG3_LEVELS,
    FIG3_PROFILES,
    NAME,
    PAPER_BEST_RIO,
    PAPER_FAIR_SHARE,
    PAPER_FIG2,
    PAPER_FIG3,
    PAPER_TABLE1,
    SCHEMES,
    SCHEME_LABELS,
    TABLE1_COLUMNS,
    TABLE1_PROFILES,
    TABLE1_TOTAL,
)
from qdisclab.figures.rio_assured_service.plots import (
    CURVE_HEADER,
    TRACE_COLUMNS,
    curve_rows,
    curves_figure,
    sensitivity_artifact,
    table1_artifact,
    trace_artifact,
    variant_artifact,
)

#: The entry point, and the names the tests and other modules use.
__all__ = [
    "Claim", "both_readings", "goodput_run", "has_goodput",
    "CRITERIA", "Curve", "FIG3_LEVELS", "PAPER_BEST_RIO", "PAPER_FAIR_SHARE", "PAPER_TABLE1",
    "SCHEMES", "SCHEME_LABELS", "Setup", "TABLE1_COLUMNS", "TABLE1_PROFILES", "TABLE1_TOTAL",
    "TRACES", "TRACE_COLUMNS", "TRACE_DIR", "Table1Row", "best", "choose_criterion", "episodes",
    "last_met", "make_figures", "paired", "parse_profiles", "per_class_maxima",
    "read_trace", "retransmissions", "sensitivity_artifact", "setup_of", "trace_artifact",
    "trace_summary",
]


# ----------------------------------------------------------------- entry point


def both_readings(goodput: list[Claim], throughput: list[Claim]) -> list[Claim]:
    """The claims judged on goodput (``goodput``, changed in place), each with the throughput
    reading's numbers and verdict beside its own; a claim goodput cannot judge (the IN-marked
    part has no goodput) keeps the throughput's verdict, marked as such."""
    others = {c.id: c for c in throughput}
    for index, claim in enumerate(goodput):
        other = others.get(claim.id)
        if claim.verdict == "not evaluated" and other is not None \
                and other.verdict != "not evaluated":
            other.ours = (f"[throughput only: goodput cannot judge it ({claim.ours})]"
                          f" {other.ours}")
            goodput[index] = other
            continue
        claim.ours = f"[goodput] {claim.ours}"
        if other is not None:
            claim.ours += (f" ‖ [throughput, retransmissions counted; verdict there:"
                           f" {other.verdict}] {other.ours}")
    return goodput


def _tally(goodput: Analysis, throughput: Analysis) -> str:
    """The verdict counts of the two readings, and the claims whose verdict differs."""
    def counts(analysis: Analysis) -> str:
        found = Counter(c.verdict for c in analysis.claims)
        return ", ".join(f"{found[v]} {v}" for v in VERDICTS if found.get(v))

    verdicts = {c.id: c.verdict for c in throughput.claims}
    moved = [c.id for c in goodput.claims if verdicts.get(c.id, c.verdict) != c.verdict]
    return (f"Goodput: {counts(goodput)}; throughput: {counts(throughput)}"
            + (f"; verdicts that differ: {', '.join(moved)}." if moved else "; no verdict"
               " differs."))



def make_figures(db_path: Path, out_dir: Path) -> FigureSet:
    """Write table1, fig2 and fig3 from the database ``db_path``, the variants' comparisons
    when the variants campaign was run, the sensitivity figure when its campaign was, and the
    TCP trace when its two files are there (all found beside ``db_path``)."""
    meta, runs = load_campaign_runs(db_path)
    result = FigureSet(NAME, out_dir)
    mode = meta.get("mode", "full")
    seeds = sorted({run.seed for run in runs})
    result.notes.append(
        f"{len(runs)} successful runs ({mode} campaign), seeds {', '.join(map(str, seeds))}.")
    if mode == "quick":
        result.notes.append("Quick campaign: 30 s runs, one seed and a few points; the verdicts"
                            " are indicative only.")
    result.notes += [
        "TCP: ns-3's NewReno without SACK and with classic fast recovery (the paper's ns-2"
        " NewReno has no SACK); SACK is the labelled variant \u201csack\u201d.",
        "Throughput: IPv4 bytes of a flow's packets leaving the bottleneck queue after the"
        " warm-up, retransmissions included; the metrics also hold goodput (*_goodput_mbps), the"
        " IN part (*_in_mbps) and the retransmitted and spurious fractions.",
        "Table 1's sixth column is headed \u201c0.05\u201d in the paper but its fair share,"
        " 0.120 = (20 \u2212 15.2) / 40, is that of a flow without a profile: the best-effort"
        " flows 20\u201339.",
        "\u201cBest RIO\u201d: its classes add up to 20.86 Mb/s on a 20 Mb/s link, so it is"
        " compared with our per-class maxima over the settings searched; the single best"
        " setting (whose 2 Mb/s flows get the most) is shown as a second row.",
        "Token buckets: 320 kbit in Table 1 (the paper's), 160 kbit in Figs. 2-3 (our choice:"
        " the paper's general setting; it names none there); 320 kbit there is the variant"
        " \u201cbucket320\u201d.",
    ]

    primary = Analysis.of(runs)
    goodput = has_goodput(runs)
    judged = Analysis.of([goodput_run(run) for run in runs]) if goodput else primary
    if not goodput:
        result.notes.append("Verdicts: on throughput, retransmissions included: these runs"
                            " hold no goodput metrics (*_goodput_mbps).")
        result.notes.append(f"\u201cMaintains the profile\u201d (U9): {primary.choice}.")
    else:
        result.notes.append(f"\u201cMaintains the profile\u201d (U9), on goodput (the claims):"
                            f" {judged.choice}; on throughput (the figures): {primary.choice}.")
        result.notes.append(
            "Verdicts: on goodput (bytes received for the first time, *_goodput_mbps), since the"
            " throughput counts the spurious retransmissions of NewReno without SACK; each claim"
            " shows the throughput's numbers and verdict beside its own. The figures and tables"
            " draw throughput, retransmissions included. The IN-marked rates (*_in_mbps) and"
            f" the OUT drop probabilities are the same in both readings. {_tally(judged, primary)}")
    if primary.view.rows:
        result.artifacts.append(table1_artifact(primary.view, out_dir, "320 kbit"))
    panels2 = [p for p in FIG2_PROFILES if any(k[0] == p for k in primary.curves2)]
    if panels2:
        fig = curves_figure(
            primary.curves2, panels2,
            "Figure 2: throughput of the AS flows vs the number of BE flows (mean ± 95 % CI)",
            lambda p: f"({'ab'[list(FIG2_PROFILES).index(p)]}) {100 * p:.0f} % subscription:"
                      f" 4 × {FIG2_PROFILES[p]:g} Mb/s",
            "number of best-effort flows", True, PAPER_FIG2, be_label)
        result.artifacts.append(figure_artifact(
            fig, out_dir, "fig2", CURVE_HEADER, curve_rows(primary.curves2, primary.criterion),
            "Figure 2: AS throughput vs number of best-effort flows",
            "Four AS flows with equal profiles (2 Mb/s: 40 %, 2.5 Mb/s: 50 % of 20 Mb/s) and 0–96"
            " BE flows; IN 60/180/0.02, IN+OUT 30/90/0.05, OUT 10/30/0.1, 200-packet queue,"
            " 160 kbit buckets (our choice). Dashed: the paper's last number of BE flows at"
            " which the profile is met."))
    panels3 = [p for p in FIG3_PROFILES if any(k[0] == p for k in primary.curves3)]
    if panels3:
        fig = curves_figure(
            primary.curves3, panels3,
            "Figure 3: throughput of the AS flows vs subscription level, 20 BE flows"
            " (mean ± 95 % CI)",
            lambda p: f"({'abc'[list(FIG3_PROFILES).index(p)]}) profile {p:g} Mb/s",
            "subscription level (%)", True, PAPER_FIG3, percent_label)
        result.artifacts.append(figure_artifact(
            fig, out_dir, "fig3", CURVE_HEADER, curve_rows(primary.curves3, primary.criterion),
            "Figure 3: AS throughput vs subscription level",
            "20 BE flows; AS flows of one profile (0.5, 1, 2 Mb/s), as many as the subscription"
            " level asks (10–100 % of 20 Mb/s); thresholds, queue and buckets as in Fig. 2."
            " Dashed: the paper's highest level at which the profile is met."))

    variants_path = variants_db(db_path, NAME)
    analyses: dict[str, Analysis] = {}
    if variants_path is not None:
        _, vruns = load_campaign_runs(variants_path)
        for variant in VARIANTS:
            mine = variant_runs(variant, vruns, runs)
            if mine:
                rates = Analysis.of(mine, variant.name == "riplus-total", primary.criterion)
                result.artifacts.append(variant_artifact(variant, primary, rates, out_dir))
                analyses[variant.name] = rates
                if goodput:  # judged as the primary is: goodput, else throughput
                    analyses[variant.name] = Analysis.of(
                        [goodput_run(run) for run in mine], variant.name == "riplus-total",
                        judged.criterion)
                    analyses[variant.name].claims = both_readings(
                        analyses[variant.name].claims, rates.claims)
    result.claims += both_readings(judged.claims, primary.claims) if goodput else primary.claims
    variant_causes(judged, analyses, variants_path is not None)

    sensitivity = sensitivity_artifact(db_path, out_dir)
    if sensitivity is not None:
        result.artifacts.append(sensitivity)
    trace = trace_artifact(db_path, out_dir)
    if trace is not None:
        result.artifacts.append(trace)
    return result
