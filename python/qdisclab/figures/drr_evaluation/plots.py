# SPDX-License-Identifier: GPL-2.0-only
"""The DRR evaluation's figures (matplotlib) and their CSV rows, and Tables 2-5's layout."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from qdisclab.factorial import MINUS
from qdisclab.figures import Artifact, TableData
from qdisclab.figures.common import (
    NO_ESTIMATE,
    Estimate,
    errorbar,
    figure_artifact,
    metric_value,
    parse_mbps,
    t_interval,
)
from qdisclab.figures.drr_evaluation.analysis import (
    DELAY,
    DELAY_ANCHORS,
    RATIO,
    RATIO_BAND,
    RATIO_TARGET,
    VARIANTS,
    VARIANT_LABELS,
    Design,
    Fairness,
    Variants,
    background_label,
    background_preference,
    buffer_value,
    effect_text,
    hash_series,
    offered_load,
    paper_analysis,
    percent_text,
    reading_studies,
    size_label,
)
from qdisclab.figures.drr_evaluation.claims import rate_table
from qdisclab.figures.drr_evaluation.paper import (
    B_LEVELS,
    EFFECTS,
    FLOWS,
    PAPER_TABLE2,
    PAPER_TABLE4,
    P_LEVELS,
    Q_LABELS,
    Q_LEVELS,
    READINGS,
    Cell,
)

MAPPING_LABELS = {
    "sequential": "ns-2 mapping (sender k → bucket k mod Buckets)",
    "hash": "DrrQueueDisc's hash (random perturbation per run)",
}
#: Buckets values drawn in the sensitivity figure (one line each).
RATE_FIGURE_BUCKETS = (4, 8, 10, 16)


# ----------------------------------------------------------------- fig3: fairness


def _slice_sizes(sizes: list[int]) -> list[int]:
    """Up to three MaxSize values for the slices: smallest, middle, largest."""
    picks = [sizes[0], sizes[len(sizes) // 2], sizes[-1]] if sizes else []
    return list(dict.fromkeys(picks))


def _slice_buckets(buckets: list[int]) -> list[int]:
    """Buckets values for the MaxSize slices: 1, the largest below 10, 10, the largest."""
    below = [b for b in buckets if b < FLOWS]
    picks = [b for b in (buckets[0] if buckets else None, below[-1] if below else None,
                         FLOWS if FLOWS in buckets else None, buckets[-1] if buckets else None)
             if b is not None]
    return list(dict.fromkeys(picks))


def fig3_figure(study: Fairness) -> Figure:
    """Heat maps of the standard deviation per mapping, and slices through them."""
    mappings = study.mappings
    fig = Figure(figsize=(6.0 * max(len(mappings), 2), 9.0), layout="constrained")
    axes = fig.subplots(2, max(len(mappings), 2), squeeze=False)
    grids = {m: study.grid(m) for m in mappings}
    finite = [g[np.isfinite(g)] for g in grids.values()]
    vmax = max((float(g.max()) for g in finite if g.size), default=1.0)
    image = None
    for axis, mapping in zip(axes[0], mappings, strict=False):
        grid = grids[mapping]
        image = axis.imshow(grid, origin="lower", aspect="auto", cmap="viridis", vmin=0,
                            vmax=vmax)
        axis.set_xticks(range(len(study.buckets)), [str(b) for b in study.buckets])
        axis.set_yticks(range(len(study.sizes)), [size_label(s) for s in study.sizes])
        axis.set_xlabel("Buckets (buckets_)")
        axis.set_ylabel("MaxSize, bytes (blimit_)")
        axis.set_title(MAPPING_LABELS.get(mapping, mapping), fontsize=10)
        for i in range(grid.shape[0]):
            for j in range(grid.shape[1]):
                if math.isfinite(grid[i, j]):
                    axis.text(j, i, f"{grid[i, j]:.0f}", ha="center", va="center", fontsize=6,
                              color="white" if grid[i, j] < 0.6 * vmax else "black")
        best = study.optimum(mapping)
        if best:
            axis.add_patch(_box(study.buckets.index(best[0]), study.sizes.index(best[1])))
    if image is not None:
        fig.colorbar(image, ax=list(axes[0]), label="std. dev. of throughput (kb/s)",
                     shrink=0.9)
    for axis in axes[0][len(mappings):]:
        axis.axis("off")

    # Slices: std. dev. vs Buckets at a few sizes, and vs MaxSize at a few Buckets values.
    left, right = axes[1][0], axes[1][1]
    styles = {"sequential": "-", "hash": "--"}
    xs = list(range(len(study.buckets)))
    for i, size in enumerate(_slice_sizes(study.sizes)):
        for mapping in mappings:
            estimates = [study.estimate(mapping, b, size) for b in study.buckets]
            errorbar(left, xs, estimates, color=f"C{i}", ls=styles.get(mapping, ":"),
                     label=f"{size_label(size)} B, {mapping}")
    left.axvline(_flows_position(study.buckets), color="grey", lw=0.8, ls=":")
    left.set_xticks(xs, [str(b) for b in study.buckets])
    left.set_xlabel("Buckets")
    left.set_ylabel("std. dev. of throughput (kb/s)")
    left.set_ylim(bottom=0)
    left.grid(alpha=0.3)
    left.legend(fontsize=7, ncol=2)
    sizes = study.sizes
    for i, buckets in enumerate(_slice_buckets(study.buckets)):
        for mapping in mappings:
            estimates = [study.estimate(mapping, buckets, s) for s in sizes]
            errorbar(right, [s / 1000 for s in sizes], estimates, color=f"C{i + 3}",
                     ls=styles.get(mapping, ":"), label=f"Buckets {buckets}, {mapping}")
    right.set_xlabel("MaxSize (kB)")
    right.set_ylabel("std. dev. of throughput (kb/s)")
    right.set_ylim(bottom=0)
    right.grid(alpha=0.3)
    right.legend(fontsize=7, ncol=2)
    for axis in axes[1][2:]:
        axis.axis("off")
    fig.suptitle(
        f"Figure 3: standard deviation of the {FLOWS} flows' throughputs over DRR's Buckets ×"
        " MaxSize\n(heat maps: seed means, box: minimum; slices: mean ± 95 % CI, dotted line:"
        f" Buckets = {FLOWS} flows)", fontsize=10,
    )
    return fig


def _box(x: int, y: int):
    from matplotlib.patches import Rectangle

    return Rectangle((x - 0.5, y - 0.5), 1, 1, fill=False, edgecolor="red", lw=1.5)


def _flows_position(buckets: list[int]) -> float:
    """x position of Buckets = FLOWS on the categorical axis (interpolated)."""
    if FLOWS in buckets:
        return float(buckets.index(FLOWS))
    below = [i for i, b in enumerate(buckets) if b < FLOWS]
    return below[-1] + 0.5 if below else -0.5


FIG3_HEADER = ("flowMapping", "buckets", "maxSize_bytes", "std_kbps_mean", "std_kbps_ci95",
               "n", "jain_mean", "jain_ci95", "throughput_mean_kbps", "colliding_flows_mean",
               "mean_delay_s")


def fig3_rows(study: Fairness) -> list[list]:
    """One CSV row per (mapping, buckets, size)."""
    rows = []
    for mapping in study.mappings:
        for b in study.buckets:
            for s in study.sizes:
                std = study.estimate(mapping, b, s)
                if not std.n:
                    continue
                jain = study.estimate(mapping, b, s, "jain_index")
                rows.append([mapping, b, s, std.mean, std.half_width, std.n, jain.mean,
                             jain.half_width,
                             study.estimate(mapping, b, s, "throughput_mean_kbps").mean,
                             study.estimate(mapping, b, s, "colliding_flows").mean,
                             study.estimate(mapping, b, s, DELAY).mean])
    return rows


# ----------------------------------------------------------------- tables 2-5


def values_table(designs: dict[str, Design], metric: str, paper: dict[Cell, float],
                 digits: int) -> tuple[list[list], TableData]:
    """CSV rows (long format) and the HTML table (the paper's layout) of Table 2 or 4."""
    csv_rows = []
    for cell, paper_value in paper.items():
        row = [cell[0], cell[1], cell[2], paper_value]
        for name in VARIANTS:
            design = designs.get(name)
            e = design.estimate(cell, metric) if design else NO_ESTIMATE
            row += [e.mean, e.half_width, e.n]
        csv_rows.append(row)
    columns = ["B (Mb/s)", ""] + [f"{p} B, {Q_LABELS[q]}" for p in P_LEVELS for q in Q_LEVELS]
    rows = []
    for b in B_LEVELS:
        rows.append([f"{b:g}", "paper"] + [f"{paper[(p, b, q)]:.{digits}f}"
                                           for p in P_LEVELS for q in Q_LEVELS])
        for name, label in VARIANT_LABELS.items():
            design = designs.get(name)
            if design is None:
                continue
            cells = []
            for p in P_LEVELS:
                for q in Q_LEVELS:
                    if name != "main" and VARIANTS[name][Q_LEVELS.index(q)] == \
                            VARIANTS["main"][Q_LEVELS.index(q)]:
                        cells.append("= ours")
                    else:
                        cells.append(design.estimate((p, b, q), metric).format(digits))
            rows.append([f"{b:g}", label] + cells)
    return csv_rows, TableData(columns, rows)


def analysis_table(designs: dict[str, Design], response: str, paper_percent: dict[str, float],
                   paper_eq: dict[str, float], paper_table: dict[Cell, float],
                   digits: int) -> tuple[list[list], TableData]:
    """CSV rows and HTML table of Table 3 or 5: effects, CIs and variation explained."""
    recomputed = paper_analysis(paper_table, response)
    csv_rows = []
    columns = ["effect", "paper: variation %", "paper: equation", "paper's table, recomputed"]
    for name in VARIANTS:
        if designs.get(name) and designs[name].results:
            label = VARIANT_LABELS[name]
            columns += [f"{label}: effect [95 % CI]", f"{label}: variation %"]
    rows = []
    for name in ("I", *EFFECTS, "error"):
        if name == "error":
            row = ["error", "", "", ""]
            csv = ["error", None, None, None, None]
        else:
            effect = recomputed.effect(name)
            row = ["q0" if name == "I" else f"q{name}",
                   percent_text(paper_percent.get(name)) if name != "I" else "",
                   f"{paper_eq[name]:g}".replace("-", MINUS),
                   f"{effect.value:+.{digits}f}".replace("-", MINUS)
                   + (f" ({percent_text(effect.percent)} %)" if effect.percent is not None else "")]
            csv = [name, paper_percent.get(name), paper_eq[name], effect.value, effect.percent]
        for variant in VARIANTS:
            design = designs.get(variant)
            if not design or not design.results:
                csv += [None] * 5
                continue
            result = design.results[response]
            if name == "error":
                row += ["", percent_text(result.percent_error)]
                csv += [None, None, None, None, result.percent_error]
                continue
            effect = result.effect(name)
            row += [effect_text(result, name, digits),
                    percent_text(effect.percent) if name != "I" else ""]
            csv += [effect.value, effect.ci_low, effect.ci_high,
                    None if effect.zero_in_ci is None else not effect.zero_in_ci, effect.percent]
        rows.append(row)
        csv_rows.append(csv)
    return csv_rows, TableData(columns, rows)


def analysis_header() -> list[str]:
    header = ["effect", "paper_percent", "paper_equation", "paper_recomputed",
              "paper_recomputed_percent"]
    for name in VARIANTS:
        key = name.replace("-", "_")
        header += [f"{key}_effect", f"{key}_ci_low", f"{key}_ci_high", f"{key}_significant",
                   f"{key}_percent"]
    return header


def values_header() -> list[str]:
    header = ["packet_size", "bottleneck_mbps", "queueDisc", "paper"]
    for name in VARIANTS:
        key = name.replace("-", "_")
        header += [f"{key}_mean", f"{key}_ci95", f"{key}_n"]
    return header


# ----------------------------------------------------------------- variant campaign


def _reading_title(reading: str) -> str:
    rate, on, off, meaning = READINGS[reading]
    return (f"{reading}: {parse_mbps(rate) * 1000:g} kb/s, on/off {on:g}/{off:g} s"
            f"\n({meaning}); offered {offered_load(reading):.2f}×")


def rate_figure(studies: dict[str, Fairness]) -> Figure:
    """The sensitivity of Fig. 3 to the source rate: one panel per reading, the std. dev. over
    MaxSize for a few Buckets values (ns-2 mapping)."""
    fig = Figure(figsize=(4.0 * len(studies), 4.2), layout="constrained")
    axes = fig.subplots(1, len(studies), squeeze=False)[0]
    for axis, (reading, study) in zip(axes, studies.items(), strict=True):
        for i, buckets in enumerate(RATE_FIGURE_BUCKETS):
            if buckets not in study.buckets:
                continue
            estimates = [study.estimate("sequential", buckets, s) for s in study.sizes]
            errorbar(axis, [s / 1000 for s in study.sizes], estimates, color=f"C{i}",
                     label=f"Buckets {buckets}")
        axis.set_title(_reading_title(reading), fontsize=8)
        axis.set_xlabel("MaxSize (kB)")
        axis.set_ylim(bottom=0)
        axis.grid(alpha=0.3)
    axes[0].set_ylabel("std. dev. of throughput (kb/s)")
    axes[0].legend(fontsize=7)
    fig.suptitle("Figure 3 against the source rate's readings (ns-2 mapping; mean ± 95 % CI)",
                 fontsize=10)
    return fig


RATE_HEADER = ("reading", "onRate", "meanOn_s", "meanOff_s", "offered_load", "buckets",
               "maxSize_bytes", "std_kbps_mean", "std_kbps_ci95", "n", "jain_mean")


def rate_rows(studies: dict[str, Fairness]) -> list[list]:
    rows = []
    for reading, study in studies.items():
        rate, on, off, _ = READINGS[reading]
        for b in study.buckets:
            for size in study.sizes:
                e = study.estimate("sequential", b, size)
                if e.n:
                    rows.append([reading, rate, on, off, offered_load(reading), b, size, e.mean,
                                 e.half_width, e.n,
                                 study.estimate("sequential", b, size, "jain_index").mean])
    return rows


def flows_figure(variants: Variants) -> Figure:
    """C3's variant: the std. dev. along Buckets with 7 and 11 flows."""
    fig = Figure(figsize=(5.0 * len(variants.flows), 4.0), layout="constrained")
    axes = fig.subplots(1, len(variants.flows), squeeze=False)[0]
    for axis, (flows, study) in zip(axes, variants.flows.items(), strict=True):
        xs = list(range(len(study.buckets)))
        for i, size in enumerate(study.sizes):
            errorbar(axis, xs, [study.estimate("sequential", b, size) for b in study.buckets],
                     color=f"C{i}", label=f"{size_label(size)} B")
        axis.set_xticks(xs, [str(b) for b in study.buckets])
        axis.set_title(f"{flows} flows (R1, ns-2 mapping)", fontsize=9)
        axis.set_xlabel("Buckets")
        axis.set_ylim(bottom=0)
        axis.grid(alpha=0.3)
        axis.legend(fontsize=7)
    axes[0].set_ylabel("std. dev. of throughput (kb/s)")
    return fig


FLOWS_HEADER = ("nFlows", "buckets", "maxSize_bytes", "std_kbps_mean", "std_kbps_ci95", "n",
                "colliding_flows_mean")


def flows_rows(variants: Variants) -> list[list]:
    rows = []
    for flows, study in variants.flows.items():
        for b in study.buckets:
            for size in study.sizes:
                e = study.estimate("sequential", b, size)
                if e.n:
                    rows.append([flows, b, size, e.mean, e.half_width, e.n,
                                 study.estimate("sequential", b, size, "colliding_flows").mean])
    return rows


def hash_figure(series: dict[int, dict[str, Estimate]]) -> Figure:
    fig = Figure(figsize=(9.0, 3.8), layout="constrained")
    left, right = fig.subplots(1, 2)
    xs = list(range(len(series)))
    errorbar(left, xs, [v["hash"] for v in series.values()], color="C1",
             label="DrrQueueDisc's hash")
    seq = [(x, v["sequential"]) for x, v in zip(xs, series.values(), strict=True)
           if v["sequential"].n]
    if seq:
        errorbar(left, [x for x, _ in seq], [e for _, e in seq], color="C0",
                 label="ns-2 mapping")
    errorbar(right, xs, [v["colliding"] for v in series.values()], color="C1")
    for axis, label in ((left, "std. dev. of throughput (kb/s)"),
                        (right, f"colliding flows (of {FLOWS})")):
        axis.set_xticks(xs, [str(b) for b in series])
        axis.set_xlabel("Buckets")
        axis.set_ylabel(label)
        axis.set_ylim(bottom=0)
        axis.grid(alpha=0.3)
    left.legend(fontsize=7)
    fig.suptitle("C4: the hash with more buckets (R1; MaxSize 6000, 25000, 45000 B pooled)",
                 fontsize=10)
    return fig


def buffers_figure(variants: Variants) -> Figure:
    """S15 / S16 and the held-out delays against the buffers."""
    panels = (("FIFO", "", "DropTail limit (packets)"),
              ("DRR", "Head", "DRR blimit_, head drop (kB)"),
              ("DRR", "Tail", "DRR blimit_, tail drop (kB)"))
    fig = Figure(figsize=(13.0, 4.0), layout="constrained")
    axes = fig.subplots(1, 3)
    for axis, (queue, drop, label) in zip(axes, panels, strict=True):
        for i, (p, b) in enumerate((p, b) for p in P_LEVELS for b in B_LEVELS):
            series = variants.buffers(queue, drop, (p, b))
            if not series:
                continue
            scale = 1 if queue == "FIFO" else 1e-3
            xs = [buffer_value(k) * scale for k in series]
            errorbar(axis, xs, list(series.values()), color=f"C{i}", label=f"{p} B, {b:g} Mb/s")
            axis.axhline(PAPER_TABLE2[(p, b, queue)], color=f"C{i}", lw=0.8, ls="--")
        axis.set_xlabel(label)
        axis.grid(alpha=0.3)
        axis.set_ylim(bottom=0)
    axes[0].set_ylabel("mean delay of the flow (s)")
    axes[0].legend(fontsize=7)
    fig.suptitle("Buffers (factorial-buffers-*): delay per cell, the paper's as dashed lines;"
                 " the anchor cell 1000 B, 1 Mb/s chooses each buffer", fontsize=10)
    return fig


BUFFERS_HEADER = ("queueDisc", "dropFrom", "maxSize", "packet_size", "bottleneck_mbps",
                  "delay_mean_s", "delay_ci95", "n", "paper_delay_s", "anchor")


def buffers_rows(variants: Variants) -> list[list]:
    rows = []
    for queue, drop in (("FIFO", ""), ("DRR", "Head"), ("DRR", "Tail")):
        for p in P_LEVELS:
            for b in B_LEVELS:
                for size, e in variants.buffers(queue, drop, (p, b)).items():
                    rows.append([queue, drop, size, p, b, e.mean, e.half_width, e.n,
                                 PAPER_TABLE2[(p, b, queue)], (p, b, queue) in DELAY_ANCHORS])
    return rows


def background_figure(variants: Variants) -> Figure:
    fig = Figure(figsize=(12.0, 4.2), layout="constrained")
    left, right = fig.subplots(1, 2)
    anchor = variants.anchor_backgrounds()
    xs = list(range(len(anchor)))
    errorbar(left, xs, list(anchor.values()), color="C0", ls="none")
    left.axhspan(RATIO_TARGET - RATIO_BAND, RATIO_TARGET + RATIO_BAND, color="C2", alpha=0.2,
                 label="paper 0.949 ± 0.01")
    left.set_xticks(xs, [background_label(b) for b in anchor], rotation=60, fontsize=6)
    left.set_ylabel("arrival ratio, DropTail 500 B 1.5 Mb/s")
    left.set_title("S22: background at the anchor cell", fontsize=9)
    left.legend(fontsize=7)
    left.grid(alpha=0.3)
    designs = variants.background_designs()
    cells = [(p, b, q) for p in P_LEVELS for b in B_LEVELS for q in Q_LEVELS]
    cx = list(range(len(cells)))
    right.plot(cx, [PAPER_TABLE4[c] for c in cells], "k_", markersize=14, label="paper")
    for i, (background, design) in enumerate(designs.items()):
        errorbar(right, [x + 0.12 * (i - 1) for x in cx],
                 [design.estimate(c, RATIO) for c in cells], color=f"C{i + 1}", ls="none",
                 label=background_label(background))
    right.set_xticks(cx, [f"{p}/{b:g}/{Q_LABELS[q]}" for p, b, q in cells], rotation=45,
                     fontsize=7)
    right.set_ylabel("arrival ratio of the flow")
    right.set_title("C9, C10: background size in the 8 cells", fontsize=9)
    right.legend(fontsize=7)
    right.grid(alpha=0.3)
    return fig


BACKGROUND_HEADER = ("background_flows", "bgPacketSize", "bgIntervalMin_ms", "bgIntervalMax_ms",
                     "packet_size", "bottleneck_mbps", "queueDisc", "ratio_mean", "ratio_ci95",
                     "delay_mean_s", "delay_ci95", "n", "paper_ratio")


def background_rows(variants: Variants) -> list[list]:
    rows = []
    for background, cells in sorted(variants.backgrounds.items(),
                                    key=lambda kv: background_preference(kv[0])):
        # Cells in their key's text order, the queue disc by its place in Q_LEVELS (FIFO first).
        for (p, b, config), by_seed in sorted(
                cells.items(), key=lambda kv: str((*kv[0][:2], (Q_LEVELS.index(kv[0][2][0]),
                                                                *kv[0][2][1:])))):
            ratio = t_interval(metric_value(m, RATIO) for m in by_seed.values())
            delay = t_interval(metric_value(m, DELAY) for m in by_seed.values())
            rows.append([*background, p, b, config[0], ratio.mean, ratio.half_width,
                         delay.mean, delay.half_width, ratio.n,
                         PAPER_TABLE4.get((p, b, config[0]))])
    return rows


# ----------------------------------------------------------------- the variant campaign's artifacts


def variant_artifacts(main: Fairness, variants: Variants, out_dir: Path) -> list[Artifact]:
    """The variant campaign's figures (PNG, PDF, CSV): those with runs."""
    out = []
    studies = reading_studies(main, variants)
    if len(studies) > 1:
        artifact = figure_artifact(
            rate_figure(studies), out_dir, "fig3-rate", RATE_HEADER, rate_rows(studies),
            "Figure 3 against the source rate (sensitivity)",
            "The std. dev. of the ten flows' throughputs over MaxSize at every reading of the"
            " paper's \u201c1 Mb\u201d (R1 from the final campaign, R2-R5 from fig3-rates, three"
            " seeds), ns-2 mapping. The table judges C1-C3 at each reading; no reading is"
            " chosen.")
        artifact.table = rate_table(studies)
        out.append(artifact)
    if variants.flows:
        out.append(figure_artifact(
            flows_figure(variants), out_dir, "variant-flows", FLOWS_HEADER,
            flows_rows(variants), "Variant fig3-flows (C3): 7 and 11 flows",
            "Along Buckets with 7 and 11 flows (R1, ns-2 mapping, three seeds): where Buckets"
            " divides the flow count the flows split evenly."))
    series = hash_series(main, variants)
    if any(b > 32 for b in series):
        out.append(figure_artifact(
            hash_figure(series), out_dir, "variant-hash",
            ("buckets", "hash_std_kbps", "hash_std_ci95", "colliding_flows", "sequential_std_kbps"),
            [[b, v["hash"].mean, v["hash"].half_width, v["colliding"].mean,
              v["sequential"].mean] for b, v in series.items()],
            "Variant fig3-hash-buckets (C4): the hash with many buckets",
            "DrrQueueDisc's hash with Buckets 10-32 (final campaign) and 64-1024 (variant),"
            " pooled over MaxSize 6000, 25000 and 45000 B."))
    if variants.factorial:
        out.append(figure_artifact(
            buffers_figure(variants), out_dir, "variant-buffers", BUFFERS_HEADER,
            buffers_rows(variants), "Calibration factorial-buffers (S15, S16)",
            "Mean delay of the flow (five seeds) against DropTail's limit and DRR's blimit_"
            " (head and tail drop) in the four (P, B) cells; the anchor cell (1000 B, 1 Mb/s)"
            " chooses each buffer, the other cells are held out."))
    if variants.anchor_backgrounds():
        out.append(figure_artifact(
            background_figure(variants), out_dir, "variant-background", BACKGROUND_HEADER,
            background_rows(variants), "Calibration factorial-background (S22) and sizes (C9, C10)",
            "Left: the arrival ratio at the anchor cell per background (factorial-background-"
            "anchor). Right: the 8 cells with the background's packet size fixed at 500 or 1000 B"
            " (factorial-background-size) beside the paper's Table 4."))
    return out
