# SPDX-License-Identifier: GPL-2.0-only
"""Figures, tables and claims of the DRR evaluation (J.-S. Li, JISE 2002, ns-2).

The paper has two parts, both run by ``campaigns/drr-evaluation.toml`` with the
``drr-evaluation`` example:

``fig3``
    fairness of DRR over ``buckets_`` × ``blimit_`` (DrrQueueDisc's Buckets ×
    MaxSize): the standard deviation of ten on/off flows' throughputs, as heat
    maps (flows mapped to buckets as ns-2 does, ``sequential``, and by
    DrrQueueDisc's own hash) and slices through them;
``table2`` / ``table4``
    the measured flow's mean delay / packet arrival ratio in the eight cells of
    the 2^3 design packet size P × bottleneck B × queue Q, ours (mean ± 95 %
    Student-t interval over the r replications) beside the paper's;
``table3`` / ``table5``
    their 2^3 r analysis (:func:`qdisclab.factorial.analyze`): effects with 95 %
    intervals, the percentage of variation each explains, and the regression
    equation, beside the paper's Table 3 / 5 and equation (1) / (3).

Besides the main design, two variants of the factorial replace one half of the
Q factor (``VARIANTS``): DRR dropping from the tail of the longest queue, and
DropTail with DRR's buffer in bytes; tables 2–5 show them in extra columns.

With the variant campaign's database (``campaigns/drr-evaluation-variants.toml``,
:func:`qdisclab.figures.common.variants_db`) the figures add Fig. 3 at every reading of
the source rate (``fig3-rate``), the calibration sweeps (``variant-buffers``,
``variant-background``) and the cause-demonstrating variants (``variant-flows``,
``variant-hash``), and each "partly"/"disagree" claim names the run that shows its
cause. The claims carry the reconstruction plan's ids (C1 ..); the anchor cells used to
choose the buffers and the background are claims of their own, marked "calibrated".

The package splits the paper's numbers (:mod:`.paper`), the analysis of the runs
(:mod:`.analysis`), the figures and tables (:mod:`.plots`) and the claims (:mod:`.claims`);
:func:`make_figures` puts them together.
"""

from __future__ import annotations

from pathlib import Path

from qdisclab.figures import Artifact, Claim, FigureSet
from qdisclab.figures.common import (
    figure_artifact,
    load_campaign_runs,
    runs_note,
    variants_db,
    write_csv,
)
from qdisclab.figures.drr_evaluation.analysis import (
    BACKGROUND,
    DELAY,
    DROPTAIL_LIMIT,
    DRR_BLIMIT_HEAD,
    DRR_BLIMIT_TAIL,
    RATIO,
    VARIANTS,
    VARIANT_LABELS,
    Fairness,
    Variants,
    background_label,
    build_design,
    choose_background,
    choose_buffer,
    factorial_runs,
    offered_load,
    paper_analysis,
    reading_of,
    resolved,
    run_params,
)
from qdisclab.figures.drr_evaluation.claims import (
    add_causes,
    band_class,
    band_verdict,
    below_flows_verdict,
    buffer_threshold,
    calibration_claims,
    convex_optimum,
    factorial_claims,
    numbered,
    unimodal_steps,
    unimodal_violations,
    worse_below_flows,
)
from qdisclab.figures.drr_evaluation.paper import (
    B_LEVELS,
    EFFECTS,
    FLOWS,
    NAME,
    PAPER_EQ1,
    PAPER_EQ1_TEXT,
    PAPER_EQ3,
    PAPER_EQ3_TEXT,
    PAPER_TABLE2,
    PAPER_TABLE3,
    PAPER_TABLE4,
    PAPER_TABLE5,
    P_LEVELS,
)
from qdisclab.figures.drr_evaluation.plots import (
    FIG3_HEADER,
    analysis_header,
    analysis_table,
    fig3_figure,
    fig3_rows,
    values_header,
    values_table,
    variant_artifacts,
)

#: The entry point, and the names the tests and other modules use.
__all__ = [
    "BACKGROUND", "B_LEVELS", "DELAY", "EFFECTS", "PAPER_TABLE2", "PAPER_TABLE3", "PAPER_TABLE4",
    "PAPER_TABLE5", "P_LEVELS", "RATIO", "VARIANTS", "band_class", "band_verdict",
    "below_flows_verdict", "choose_background", "choose_buffer", "make_figures", "offered_load",
    "paper_analysis", "reading_of", "resolved", "run_params", "unimodal_steps",
    "unimodal_violations",
]


# ----------------------------------------------------------------- entry point


def make_figures(db_path: Path, out_dir: Path) -> FigureSet:
    """Write fig3 and tables 2–5 from the database ``db_path``, and the variant campaign's
    figures when its database is beside it."""
    meta, runs = load_campaign_runs(db_path)
    variant_path = variants_db(db_path, NAME)
    variants = Variants(load_campaign_runs(variant_path)[1]) if variant_path else None
    result = FigureSet(NAME, out_dir)
    mode = meta.get("mode", "full")
    fairness = Fairness(runs)
    by_config = factorial_runs(runs)
    designs = {name: d for name in VARIANTS if (d := build_design(name, by_config)) is not None}
    main = designs.get("main")
    result.notes.append(runs_note(
        runs, mode, f"fairness: {len(fairness.mappings)} mapping(s) × {len(fairness.buckets)}"
        f" Buckets × {len(fairness.sizes)} MaxSize values; factorial designs: "
        + (", ".join(f"{VARIANT_LABELS[n]} (r = {len(d.seeds)})" for n, d in designs.items())
           or "none")))
    if mode == "quick":
        result.notes.append("Quick campaign: short runs and a smaller grid; the verdicts are"
                            " indicative only.")
    for name, design in designs.items():
        if design.error:
            result.notes.append(f"Factorial design {VARIANT_LABELS[name]!r}: {design.error}.")
    result.notes += [
        "The paper's equation (1) prints qB = −0.37, but its Table 2 gives −0.3756 (→ −0.38);"
        " its equation (3) swaps the BQ and PQ coefficients (Table 4 gives qPQ = −0.0029 and"
        " qBQ = −0.0001; the equation prints −0.003xBxQ and −0.0001xQxP). The column"
        " \u201cpaper's table, recomputed\u201d is the 2^3 analysis of the paper's own Table 2 / 4.",
        "Factorial: the measured flow (uniform inter-arrival times in (2.5, 7.5) ms, P-byte"
        f" packets) and the background chosen on S22 ({background_label(BACKGROUND)});"
        " DropTail holds"
        f" {DROPTAIL_LIMIT} (ns-2's limit_ counts packets), DRR {DRR_BLIMIT_HEAD} with head"
        f" drop and {DRR_BLIMIT_TAIL} with tail drop (blimit_ counts bytes): buffers"
        " calibrated on the anchor cell 1000 B, 1 Mb/s (claims C16, C17), the background on"
        " 500 B, 1.5 Mb/s (C18); those cells are not judged. Effects and intervals: 2^3 r"
        " analysis, 95 % confidence.",
        "With two identical flows the arrival ratio is about B / (2 · 200 packets/s · P · 8)"
        " under either queue: Q hardly matters, as in the paper, but P matters as much as B."
        " The paper's Table 4 keeps 0.53 of the flow's 1.6 Mb/s with 1000-byte packets at"
        " 1 Mb/s (and as much with DRR), which needs background traffic the paper does not"
        " describe.",
        "Fig. 3: ns-2's DRR hashes a source address i < 16 to i, so with consecutive node"
        " addresses sender k lands in bucket k mod buckets_ (our default mapping, no collision"
        " once buckets_ ≥ 10 flows); with a random hash, 10 flows in 10 buckets collide with"
        " probability 1 − 10!/10^10 ≈ 99.96 %.",
        "ns-2's DRR (and DrrQueueDisc by default) steals buffer from the head of the longest"
        " queue: the packets it delivers are younger, and under overload their delay is about"
        " blimit_ / arrival rate, independent of B. The paper's DRR delays scale with 1/B, as"
        " tail drop gives (column \u201cDRR tail drop\u201d).",
    ]

    if fairness.cells:
        optimum = fairness.optimum("sequential")
        result.artifacts.append(figure_artifact(
            fig3_figure(fairness), out_dir, "fig3", FIG3_HEADER, fig3_rows(fairness),
            "Figure 3: standard deviation of throughput over Buckets × MaxSize",
            f"{FLOWS} exponential on/off flows (mean on 3 s, off 0.3 s, 1 Mb/s while on,"
            " 1400–1600 B packets), every link 1 Mb/s, DRR quantum"
            f" {' / '.join(map(str, fairness.quanta))} B; std. dev. of the"
            " flows' throughputs after the warm-up, mean over seeds."
            + (f" Minimum (ns-2 mapping): Buckets {optimum[0]}, MaxSize {optimum[1]} B."
               if optimum else ""),
        ))
        if "sequential" in fairness.mappings:
            result.claims += numbered([worse_below_flows(fairness, "sequential"),
                                        buffer_threshold(fairness, "sequential"),
                                        convex_optimum(fairness, "sequential")], 1)
        if "hash" in fairness.mappings:
            result.claims += numbered([worse_below_flows(fairness, "hash")], 4)
    else:
        result.claims.append(Claim("§3, Fig. 3", "fairness over buckets_ × blimit_",
                                   "no fairness run", "not evaluated", id="C1"))

    if designs:
        for stem, metric, paper, digits, title in (
            ("table2", DELAY, PAPER_TABLE2, 3, "Table 2: mean delay of the flow (s)"),
            ("table4", RATIO, PAPER_TABLE4, 3, "Table 4: packet arrival ratio of the flow"),
        ):
            rows, table = values_table(designs, metric, paper, digits)
            csv = write_csv(out_dir / f"{stem}.csv", values_header(), rows)
            result.artifacts.append(Artifact(
                stem, title,
                "Ours: mean ± 95 % CI over the replications (RngRun), beside the paper's single"
                " values. Variants: DRR dropping from the tail of the longest queue; DropTail"
                f" with DRR's {DRR_BLIMIT_HEAD} buffer (\u201c= ours\u201d: the main design's runs).",
                csv, table=table))
        for stem, response, percent, eq, eq_text, paper_table, digits, title in (
            ("table3", DELAY, PAPER_TABLE3, PAPER_EQ1, PAPER_EQ1_TEXT, PAPER_TABLE2, 3,
             "Table 3 and equation (1): effects on the delay, variation explained"),
            ("table5", RATIO, PAPER_TABLE5, PAPER_EQ3, PAPER_EQ3_TEXT, PAPER_TABLE4, 4,
             "Table 5 and equation (3): effects on the arrival ratio, variation explained"),
        ):
            rows, table = analysis_table(designs, response, percent, eq, paper_table, digits)
            csv = write_csv(out_dir / f"{stem}.csv", analysis_header(), rows)
            equations = f"Paper: {eq_text}."
            recomputed = paper_analysis(paper_table, response)
            equations += f" The paper's table, recomputed: {recomputed.equation(digits - 1)}."
            if main is not None and main.results:
                equations += (f" Ours (r = {main.results[response].replications}):"
                              f" {main.results[response].equation(digits - 1)}.")
            result.artifacts.append(Artifact(
                stem, title,
                "2^3 r factorial analysis (Jain, ch. 18): effects q with 95 % confidence"
                " intervals (n.s.: the interval contains 0) and the percentage of the total"
                f" variation each explains. {equations}",
                csv, table=table))
    result.claims += factorial_claims(designs)
    if designs:
        result.claims += calibration_claims(designs, variants)
    if variants is not None:
        result.artifacts += variant_artifacts(fairness, variants, out_dir)
        result.notes.append(
            f"Variant campaign ({NAME}-variants/{variant_path.name}): calibration sweeps and"
            " cause-demonstrating"
            " variants, with their own seeds; its figures are fig3-rate (the sensitivity of"
            " Fig. 3 to the source rate) and variant-*.")
    add_causes(result.claims, fairness, designs, variants)
    return result
