# SPDX-License-Identifier: GPL-2.0-only
"""Figures, tables and claims of the RED-vs-DropTail study (Z. Luo, ns-3.24.1).

The paper compares DropTail with RED on a dumbbell (TCP bulk transfer plus an
on/off UDP flow) over receiver windows × queue limits × four bottleneck link
settings, with ten RED threshold pairs and the Wait/Gentle options. It calls RED
better when *one* of the ten threshold pairs reaches DropTail's goodput
("best RED"), and compares overall (TCP + UDP) goodput.

What is written (``out_dir``):

``fig1`` … ``fig4``
    per link setting — (1 Mb/s, 20 ms), (1 Mb/s, 10 ms), (1 Mb/s, 30 ms),
    (0.5 Mb/s, 20 ms), in the order of the paper's table — best-RED and DropTail
    goodput over window × queue size, Wait = Gentle = true (paper §2.1–2.3);
``table1``
    in how many of the window × queue cells best-RED ≥ DropTail, per
    {Wait, Gentle} × link setting, beside the paper's counts (§3.2);
``fig5``
    TCP, UDP and total goodput per threshold pair, window 32000, 1 Mb/s 20 ms,
    Wait = Gentle = true, averaged over the queue sizes (§3.1);
``fig6``
    best-RED goodput per {Wait, Gentle} and DropTail over queue size, window
    32000, 1 Mb/s 20 ms (§3.2), when more than one {Wait, Gentle} was run.

With the reconstruction plan's calibration and cause-demonstrating variants
(doc/reproductions/red-vs-droptail.rst; ``campaigns/red-vs-droptail-variants.toml``), read
from the variants database beside the final campaign's when it is present:

``variant-calibration``
    per swept scenario (TCP senders x UDP on/off x access links) the calibration statements:
    S16 (window 2000: RED's largest pair 0.6/0.85 never drops from queue 16000 on and does at
    8000) and S20 (DropTail's goodput at 0.5 Mb/s ÷ at 1 Mb/s: about half at window 2000, more
    than half at 64000), and the scenario the plan's choice rule picks;
``sensitivity``
    Figures 1 and 2's comparisons (RED ahead, identical, tied, DropTail ahead over the 25
    cells) against the number of TCP senders, the paper's counts as lines;
``variant-seeds``
    Figure 1's best RED − DropTail per cell on seeds 1-3 against seeds 4-10 (is the arg max a
    property of the scenario or of the noise?);
``variant-waitgentle``
    Figure 1's counts per {Wait, Gentle} setting on seeds 1-3 and on 4-10 (C3: is the setting
    with the most wins the same on both?);
``variant-senders``
    C13 (Figure 5's TCP and UDP goodput per pair) and C14 (the smallest window against the
    next) with 2, 4 and 8 TCP senders;
``variant-sack``
    1 Mb/s, 10 ms, window 32000: best RED − DropTail per queue size with and without SACK.

:func:`.claims.variant_causes` turns them into the run-backed causes of the claims the plan
names.

The tie rule of the reconstruction plan (doc/reproductions/red-vs-droptail.rst): in each
cell the best of the threshold pairs is chosen on seeds 1-3 (:data:`CHOICE_SEEDS`) and
judged on the other seeds, which removes the upward bias of the maximum of ten noisy means;
a campaign without other seeds chooses and judges on the same ones (and says so). The judged
comparison is one of *identical* (RED never dropped early: the same runs), *RED ahead* /
*DropTail ahead* (the paired 95 % Student-t interval of best RED minus DropTail, same RngRun,
lies above / below zero) or *tied*; the paper's ">=" counts are an interval
[RED ahead + identical, that + tied], since its single run could fall either way in a tie.

The package splits the paper's numbers (:mod:`.paper`), the analysis of the runs
(:mod:`.analysis`), the figures and table 1 (:mod:`.plots`) and the claims (:mod:`.claims`);
:func:`make_figures` puts them together.
"""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path

from qdisclab.figures import NO_CAUSE, VERDICTS_NEEDING_CAUSE, Artifact, Claim, FigureSet
from qdisclab.figures.common import (
    figure_artifact,
    load_campaign_runs,
    runs_note,
    variants_db,
    write_csv,
)
from qdisclab.figures.red_vs_droptail.analysis import (
    ACCESS_ORDER,
    EQUIVALENCE_SHARE,
    equivalence_margin,
    DROPTAIL_AHEAD,
    IDENTICAL,
    RED_AHEAD,
    S16_QUIET,
    TIED,
    UDP_ORDER,
    Cell,
    Counts,
    Scenario,
    Study,
    Variants,
    calibration_rows,
    choose_scenario,
    focus_window,
    link_label,
    load_variants,
    pair_label,
    threshold_rows,
)
from qdisclab.figures.red_vs_droptail.claims import (
    TABLE_TOLERANCE,
    count_verdict,
    grid_claims,
    new_claims,
    table_claims,
    threshold_claims,
    cause_class,
    variant_causes,
)
from qdisclab.figures.red_vs_droptail.paper import (
    BASE_LINK,
    LINKS,
    NAME,
    PAIRS,
    PAPER_BEST_PAIR,
    PAPER_TABLE1,
    QUEUES,
    TT,
    WAIT_GENTLE,
    WINDOWS,
    Link,
    WaitGentle,
)
from qdisclab.figures.red_vs_droptail.plots import (
    CELL_HEADER,
    cell_row,
    figure_number,
    grid_figure,
    table1_html,
    threshold_figure,
    variant_artifacts,
    wait_gentle_figure,
)

#: The entry point, and the names the tests and other modules use.
__all__ = [
    "ACCESS_ORDER", "BASE_LINK", "Counts", "DROPTAIL_AHEAD", "IDENTICAL", "LINKS",
    "PAIRS", "PAPER_TABLE1", "QUEUES", "RED_AHEAD", "S16_QUIET", "Scenario", "Study", "TIED", "TT",
    "UDP_ORDER", "WAIT_GENTLE", "WINDOWS", "calibration_rows", "choose_scenario", "count_verdict", "load_variants",
    "ALL_SEEDS_IDS", "cause_class", "equivalence_margin", "make_figures", "variant_causes",
]


# ----------------------------------------------------------------- entry point


def make_figures(db_path: Path, out_dir: Path) -> FigureSet:
    """Write every figure and table of the study from the database ``db_path``, and the
    calibration and variant figures from the variants database beside it when it exists."""
    meta, runs = load_campaign_runs(db_path)
    study = Study(runs)
    result = FigureSet(NAME, out_dir)
    mode = meta.get("mode", "full")
    seeds = sorted({run.seed for run in runs})
    result.notes.append(runs_note(
        runs, mode, f"{len(study.links)} link setting(s), {len(study.windows)} window(s),"
        f" {len(study.queues)} queue size(s), {len(study.pairs)} threshold pair(s),"
        f" {len(study.wait_gentle)} Wait/Gentle setting(s)"))
    if len(seeds) < 2:
        result.notes.append("One seed only: confidence intervals are unknown.")
    if mode == "quick":
        result.notes.append(
            "Quick campaign: a small grid of short runs, so most of the paper's cells are"
            " missing and the verdicts below are indicative only."
        )
    result.notes.append(study.seeds_note())
    result.notes.append(
        f"Equivalence margin: two goodputs whose paired 95 % interval of difference lies within"
        f" ±{EQUIVALENCE_SHARE:.0%} of the bottleneck rate (0.01 Mb/s at 1 Mb/s, 0.005 at"
        " 0.5 Mb/s) are tied, however narrow the interval; \u201cahead\u201d and"
        " \u201csignificantly ahead\u201d mean beyond both. The paper prints no goodput (its"
        " figures plot one run a point over the link's range), so the margin is fixed by the"
        " link, not by a result.")

    # fig1 … fig4 (and beyond, for link settings the paper did not use).
    cells_by_link: dict[Link, list[Cell]] = {}
    for link in study.links:
        cells = study.cells(link, TT)
        cells_by_link[link] = cells
        if not cells:
            continue
        number = figure_number(link, study)
        paper = (f" The paper: {PAPER_TABLE1[TT][LINKS.index(link)]} of 25."
                 if link in LINKS else "")
        result.artifacts.append(figure_artifact(
            grid_figure(study, link, cells, number), out_dir, f"fig{number}", CELL_HEADER,
            (cell_row(c, TT) for c in cells),
            f"Figure {number}: best RED vs DropTail, {link_label(link)}",
            f"Total goodput over receiver window × queue limit, Wait = Gentle = true."
            f" {Counts.of(cells).format()}: RED ≥ DropTail in {Counts.of(cells).range_text()}"
            f" cells.{paper}",
        ))

    # table1: the comparisons per {Wait, Gentle} × link setting.
    table: dict[tuple[WaitGentle, Link], Counts] = {}
    rows = []
    for wg in study.wait_gentle:
        for link in study.links:
            counts = Counts.of(study.cells(link, wg))
            if not counts.n:
                continue
            table[(wg, link)] = counts
            paper = PAPER_TABLE1[wg][LINKS.index(link)] if link in LINKS else None
            rows.append([wg[0], wg[1], link[0], link[1], counts.n, counts.red_ahead,
                         counts.identical, counts.tied, counts.droptail_ahead, *counts.red_ge,
                         paper, count_verdict(counts, paper) if paper is not None else None])
    if rows:
        csv = write_csv(
            out_dir / "table1.csv",
            ("wait", "gentle", "bottleneckRate", "bottleneckDelay", "cells", "red_ahead",
             "identical", "tied", "droptail_ahead", "red_ge_low", "red_ge_high", "paper_of_25",
             "verdict"),
            rows,
        )
        result.artifacts.append(
            Artifact(
                "table1",
                "Table 1: cases where best RED ≥ DropTail, per {Wait, Gentle} × link setting",
                f"Ours as the interval [RED ahead + identical, + tied] of n cells, beside the"
                f" paper's k of 25; in brackets the four counts (↑ RED ahead, = identical,"
                f" ~ tied, ↓ DropTail ahead; paired 95 % CI over the judging seeds)."
                f" Agreement: the paper's k within ±{TABLE_TOLERANCE} of our interval.",
                csv,
                table=table1_html(table, study),
            )
        )

    # fig5: threshold pairs.
    window = focus_window(study)
    pair_rows = threshold_rows(study, BASE_LINK, window, TT) if window else []
    if pair_rows:
        csv_rows = []
        for r in pair_rows:
            csv_rows.append([r.pair[0], r.pair[1], "all", r.tcp.mean, r.tcp.half_width,
                             r.udp.mean, r.udp.half_width, r.total.mean, r.total.half_width,
                             r.total.n])
            for q, e in r.per_queue.items():
                csv_rows.append([r.pair[0], r.pair[1], q, None, None, None, None, e.mean,
                                 e.half_width, e.n])
        best = max(pair_rows, key=lambda r: r.total.mean)
        result.artifacts.append(figure_artifact(
            threshold_figure(pair_rows, BASE_LINK, window), out_dir, "fig5",
            ("minTh", "maxTh", "queueSize", "tcp_mean", "tcp_ci95", "udp_mean", "udp_ci95",
             "total_mean", "total_ci95", "n"),
            csv_rows,
            "Figure 5: goodput vs RED threshold pair",
            f"Window {window} B, {link_label(BASE_LINK)}, Wait = Gentle = true; per seed the"
            f" mean over the queue sizes, then the 95 % CI over seeds. Our maximum:"
            f" {pair_label(best.pair)}; the paper's: {pair_label(PAPER_BEST_PAIR)}.",
        ))

    # fig6: Wait / Gentle.
    wg_spread = None
    if window and len(study.wait_gentle) > 1 and BASE_LINK in study.links:
        fig, wg_rows = wait_gentle_figure(study, BASE_LINK, window)
        per_wg = defaultdict(list)
        for row in wg_rows:
            if row[0] == "RED" and math.isfinite(row[4]):
                per_wg[(row[1], row[2])].append(row[4])
        means = [sum(v) / len(v) for v in per_wg.values() if v]
        wg_spread = max(means) - min(means) if len(means) > 1 else None
        result.artifacts.append(figure_artifact(
            fig, out_dir, "fig6",
            ("queueDisc", "wait", "gentle", "queueSize", "total_mean", "total_ci95", "n",
             "best_minTh", "best_maxTh"),
            wg_rows,
            "Figure 6: RED per Wait/Gentle setting vs DropTail",
            f"Window {window} B, {link_label(BASE_LINK)}: best-RED total goodput per"
            " {Wait, Gentle} and DropTail over the queue limit.",
        ))

    result.claims += table_claims(table)
    result.claims += grid_claims(study, cells_by_link)
    result.claims += threshold_claims(pair_rows, window) if window else []
    result.claims += new_claims(study, cells_by_link, pair_rows, wg_spread)

    # The calibration and the cause-demonstrating variants (their own campaign).
    found = load_variants(variants_db(db_path, NAME))
    if found is None:
        result.notes.append("The variants campaign (red-vs-droptail-variants) was not run:"
                            " no sensitivity figure, and no run-backed causes.")
    else:
        result.artifacts += variant_artifacts(found, out_dir)
        result.notes += variant_notes(found)
    if found is not None:
        result.claims = all_seeds_claims(result.claims, table, found)
    causes = variant_causes(found)
    for claim in result.claims:
        if claim.verdict not in VERDICTS_NEEDING_CAUSE:
            continue
        if claim.id in causes:
            text, verdicts = causes[claim.id]
            claim.set_cause(text, cause_class(claim.verdict, verdicts))
        else:
            claim.set_cause("no variant of the plan changes this claim's cause" if found
                            else "variant not run", NO_CAUSE)
    return result


#: The claims judged again on every recorded seed of Fig. 1's setting (1 Mb/s, 20 ms): the
#: final campaign's seeds 1-6 and the variants' seeds-* grids' 4-10 of the same cells.
ALL_SEEDS_IDS = ("C1", "C2", "C3", "C4", "C5", "C6", "C8")


def all_seeds_claims(claims: list[Claim], table: dict[tuple[WaitGentle, Link], Counts],
                     found: Variants) -> list[Claim]:
    """``claims`` with the count claims (:data:`ALL_SEEDS_IDS`) judged on every recorded seed
    of Fig. 1's setting: each cell's best pair chosen on seeds 1-3, judged on the others (4-10,
    the seeds-* grids with the final campaign's 4-6), never on the seeds that chose it; Table
    1's other link settings keep the final campaign's 4-6. Each keeps the final campaign's
    verdict and numbers beside its own."""
    seeds = found.seeds_all
    if seeds is None or not seeds.split or BASE_LINK not in seeds.links:
        return claims
    wider = dict(table)
    for wg in seeds.wait_gentle:
        if (wg, BASE_LINK) in table and (counts := Counts.of(seeds.cells(BASE_LINK, wg))).n:
            wider[(wg, BASE_LINK)] = counts
    again = {c.id: c for c in table_claims(wider)
             + grid_claims(seeds, {BASE_LINK: seeds.cells(BASE_LINK, TT)})
             if c.id in ALL_SEEDS_IDS}
    rule = (f"best pair chosen on seeds {_seeds(seeds.choice_seeds)}, judged on"
            f" {_seeds(seeds.judge_seeds)}")
    scope = (f"{link_label(BASE_LINK)} on those seeds, the other link settings on the final"
             " campaign's" if again.get("C1") else "")
    out = []
    for claim in claims:
        new = again.get(claim.id)
        if new is None:
            out.append(claim)
            continue
        where = f"{rule}; {scope}" if claim.id in ("C1", "C2", "C3") else rule
        new.ours = (f"[every recorded seed: {where}] {new.ours} ‖ [final campaign alone,"
                    f" judged on seeds 4-6; verdict there: {claim.verdict}] {claim.ours}")
        out.append(new)
    return out


def _seeds(seeds: list[int]) -> str:
    return f"{seeds[0]}-{seeds[-1]}" if seeds == list(range(seeds[0], seeds[-1] + 1)) \
        else ", ".join(map(str, seeds))


def variant_notes(found: Variants) -> list[str]:
    """The calibration's outcome, for the notes."""
    if not found.calibration:
        return ["Calibration (red-vs-droptail-variants): its grids have not run (no scenario"
                " with the runs S16 and S20 read); the scenario is the one chosen before"
                " (doc/reproductions/red-vs-droptail.rst, \u201cCalibration result\u201d)."]
    s16 = sum(row.meets_s16 for row in found.calibration)
    s20 = sum(row.meets_s20 for row in found.calibration)
    return [f"Calibration (red-vs-droptail-variants): {len(found.calibration)} scenario(s)"
            f" swept, {s16} meet S16, {s20} meet S20; chosen:"
            f" {found.chosen.scenario.label() if found.chosen else 'none'} ({found.rule})."]
