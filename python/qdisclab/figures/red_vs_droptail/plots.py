# SPDX-License-Identifier: GPL-2.0-only
"""The RED-vs-DropTail study's figures (matplotlib), their CSV rows and the HTML table 1:
figs. 1-6, and the calibration, sensitivity and variant figures."""

from __future__ import annotations

import math
from pathlib import Path

from matplotlib.figure import Figure

from qdisclab.figures import Artifact, TableData
from qdisclab.figures.common import NO_ESTIMATE, Estimate, errorbar, figure_artifact, t_interval
from qdisclab.figures.red_vs_droptail.analysis import (
    ACCESS_ORDER,
    DROPTAIL_AHEAD,
    IDENTICAL,
    RED_AHEAD,
    S20_LARGE,
    S20_SMALL,
    UDP_ORDER,
    Cell,
    Counts,
    PairRow,
    Scenario,
    Study,
    Variants,
    kilo,
    link_label,
    pair_label,
    row_cells,
    seeds_text,
    threshold_rows,
    wait_gentle_counts,
    wg_label,
)
from qdisclab.figures.red_vs_droptail.claims import LowWindow
from qdisclab.figures.red_vs_droptail.paper import (
    BASE_LINK,
    FIG2_LINK,
    FOCUS_WINDOW,
    LINKS,
    PAPER_DROPTAIL_LARGEST,
    PAPER_RED_LARGEST,
    PAPER_TABLE1,
    TT,
    WAIT_GENTLE,
    Link,
    WaitGentle,
)


# ----------------------------------------------------------------- fig1 … fig4


def figure_number(link: Link, study: Study) -> int:
    if link in LINKS:
        return LINKS.index(link) + 1
    extra = [lk for lk in study.links if lk not in LINKS]
    return len(LINKS) + extra.index(link) + 1 + 2  # after fig5 and fig6


CELL_HEADER = (
    "bottleneckRate", "bottleneckDelay", "wait", "gentle", "window", "queueSize",
    "droptail_mean", "droptail_ci95", "droptail_n",
    "red_best_mean", "red_best_ci95", "red_best_n", "red_best_minTh", "red_best_maxTh",
    "diff_mean", "diff_ci95", "diff_n", "comparison", "droptail_drops", "red_best_drops",
)


def cell_row(cell: Cell, wg: WaitGentle) -> list:
    return [
        cell.link[0], cell.link[1], wg[0], wg[1], cell.window, cell.queue,
        cell.droptail.mean, cell.droptail.half_width, cell.droptail.n,
        cell.red.mean, cell.red.half_width, cell.red.n,
        cell.pair[0] if cell.pair else None, cell.pair[1] if cell.pair else None,
        cell.difference.mean, cell.difference.half_width, cell.difference.n,
        cell.comparison, cell.droptail_drops, cell.red_drops,
    ]


def _errorbar(axis, xs, estimates: list[Estimate], **style) -> None:
    errorbar(axis, xs, estimates, markersize=4, **style)


def grid_figure(study: Study, link: Link, cells: list[Cell], number: int) -> Figure:
    """Goodput vs window, one panel per queue size: DropTail and best RED (Wait=Gentle=T)."""
    queues = sorted({cell.queue for cell in cells})
    fig = Figure(figsize=(3.0 * max(len(queues), 1) + 0.6, 3.6), layout="constrained")
    axes = fig.subplots(1, max(len(queues), 1), sharey=True, squeeze=False)[0]
    for axis, queue in zip(axes, queues, strict=False):
        row = sorted((c for c in cells if c.queue == queue), key=lambda c: c.window)
        xs = list(range(len(row)))
        _errorbar(axis, xs, [c.droptail for c in row], color="C0", label="DropTail")
        _errorbar(axis, xs, [c.red for c in row], color="C3", ls="--", label="RED (best pair)")
        axis.set_xticks(xs, [kilo(c.window) for c in row])
        axis.set_title(f"queue {kilo(queue)} B", fontsize=10)
        axis.set_xlabel("receiver window (B)")
        axis.grid(alpha=0.3)
        for x, c in zip(xs, row, strict=True):
            mark = {DROPTAIL_AHEAD: ("DT", "C0"), RED_AHEAD: ("R", "C3"),
                    IDENTICAL: ("=", "0.4")}.get(c.comparison)
            if mark:
                axis.annotate(mark[0], (x, c.droptail.mean), textcoords="offset points",
                              xytext=(0, 6), ha="center", fontsize=7, color=mark[1])
    axes[0].set_ylabel("goodput, TCP + UDP (Mb/s)")
    axes[0].legend(fontsize=8, loc="lower right")
    counts = Counts.of(cells)
    fig.suptitle(
        f"Figure {number}: RED (best of {len(study.pairs)} threshold pairs) vs DropTail,"
        f" {link_label(link)}, Wait=Gentle=true — {counts.format()}"
        " (mean ± 95 % CI over the judging seeds; marks: R / DT ahead, = identical)",
        fontsize=10,
    )
    return fig


# ----------------------------------------------------------------- fig5 and fig6


def threshold_figure(rows: list[PairRow], link: Link, window: int) -> Figure:
    """Left: TCP, UDP, total goodput per pair; right: total goodput per pair and queue size."""
    fig = Figure(figsize=(11, 4), layout="constrained")
    left, right = fig.subplots(1, 2)
    xs = list(range(len(rows)))
    labels = [pair_label(r.pair) for r in rows]
    for attribute, name, color in (("total", "total", "C2"), ("tcp", "TCP", "C0"),
                                   ("udp", "UDP", "C1")):
        _errorbar(left, xs, [getattr(r, attribute) for r in rows], color=color, label=name)
    left.set_xticks(xs, labels, rotation=45, ha="right", fontsize=8)
    left.set_xlabel("RED minTh/maxTh (fraction of queue limit)")
    left.set_ylabel("goodput (Mb/s), mean over queue sizes")
    left.set_ylim(bottom=0)
    left.grid(alpha=0.3)
    left.legend(fontsize=8)
    if rows:
        best = max(range(len(rows)), key=lambda i: rows[i].total.mean)
        left.annotate("max", (best, rows[best].total.mean), textcoords="offset points",
                      xytext=(0, 8), ha="center", fontsize=8, color="C2")
    queues = sorted({q for r in rows for q in r.per_queue})
    for i, queue in enumerate(queues):
        estimates = [r.per_queue.get(queue, NO_ESTIMATE) for r in rows]
        _errorbar(right, xs, estimates, color=f"C{i + 4}", label=f"queue {kilo(queue)} B")
    right.set_xticks(xs, labels, rotation=45, ha="right", fontsize=8)
    right.set_xlabel("RED minTh/maxTh (fraction of queue limit)")
    right.set_ylabel("total goodput (Mb/s)")
    right.grid(alpha=0.3)
    right.legend(fontsize=7)
    fig.suptitle(
        f"Figure 5: goodput vs RED thresholds, window {window} B, {link_label(link)},"
        " Wait=Gentle=true (mean ± 95 % CI over seeds)",
        fontsize=10,
    )
    return fig





def wait_gentle_figure(study: Study, link: Link, window: int) -> tuple[Figure, list[list]]:
    """Best-RED total goodput vs queue size per {Wait, Gentle}, with DropTail."""
    fig = Figure(figsize=(6.5, 4), layout="constrained")
    axis = fig.subplots()
    rows = []
    xs = list(range(len(study.queues)))
    droptail = [t_interval(study.droptail_values(link, window, q).values()) for q in study.queues]
    _errorbar(axis, xs, droptail, color="black", label="DropTail")
    for q, estimate in zip(study.queues, droptail, strict=True):
        rows.append(["DropTail", "", "", q, estimate.mean, estimate.half_width, estimate.n,
                     None, None])
    for i, wg in enumerate(study.wait_gentle):
        best = [study.best_pair(link, window, q, wg) for q in study.queues]
        _errorbar(axis, xs, [b[1] for b in best], color=f"C{i}", ls="--", label=wg_label(wg))
        for q, (pair, estimate) in zip(study.queues, best, strict=True):
            rows.append(["RED", wg[0], wg[1], q, estimate.mean, estimate.half_width, estimate.n,
                         pair[0] if pair else None, pair[1] if pair else None])
    axis.set_xticks(xs, [kilo(q) for q in study.queues])
    axis.set_xlabel("queue limit (B)")
    axis.set_ylabel("goodput, TCP + UDP (Mb/s)")
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8)
    fig.suptitle(
        f"Figure 6: RED (best pair) per Wait/Gentle vs DropTail, window {window} B,"
        f" {link_label(link)}", fontsize=10,
    )
    return fig, rows


# ----------------------------------------------------------------- table1


def table1_html(table: dict[tuple[WaitGentle, Link], Counts], study: Study) -> TableData:
    links = [link for link in study.links if any((wg, link) in table for wg in WAIT_GENTLE)]
    columns = ["{Wait, Gentle}", *(link_label(link) for link in links)]
    rows = []
    for wg in study.wait_gentle:
        cells = [wg_label(wg)]
        for link in links:
            if (wg, link) not in table:
                cells.append("–")
                continue
            counts = table[(wg, link)]
            paper = PAPER_TABLE1[wg][LINKS.index(link)] if link in LINKS else None
            text = (f"{counts.range_text()} [{counts.red_ahead}↑ {counts.identical}="
                    f" {counts.tied}~ {counts.droptail_ahead}↓]")
            if paper is not None:
                text += f" — paper {paper}/25"
            cells.append(text)
        rows.append(cells)
    return TableData(columns, rows)


# ----------------------------------------------------------------- calibration and variants

STACK = (("red_ahead", "RED ahead", "C3"), ("identical", "identical", "0.6"),
         ("tied", "tied", "C1"), ("droptail_ahead", "DropTail ahead", "C0"))


def sensitivity_figure(found: Variants) -> tuple[Figure, list[list]]:
    """Figures 1 and 2's four counts against the number of TCP senders (stacked bars)."""
    fig = Figure(figsize=(10, 4), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    rows = []
    chosen = found.chosen.scenario.n_tcp if found.chosen else None
    for axis, (link, paper) in zip(axes, ((BASE_LINK, PAPER_TABLE1[TT][0]),
                                          (FIG2_LINK, PAPER_TABLE1[TT][1])), strict=True):
        senders = list(found.sensitivity)
        counts = [Counts.of(found.sensitivity[n].cells(link, TT)) for n in senders]
        xs = list(range(len(senders)))
        bottom = [0] * len(xs)
        for attribute, label, color in STACK:
            heights = [getattr(c, attribute) for c in counts]
            axis.bar(xs, heights, bottom=bottom, color=color, label=label, width=0.7)
            bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
        axis.axhline(paper, color="black", ls="--", lw=1, label=f"paper: RED ≥ in {paper}")
        ticks = [f"{n}{' (chosen)' if n == chosen else ''}" for n in senders]
        axis.set_xticks(xs, ticks, fontsize=8)
        axis.set_xlabel("TCP senders (nTcp)")
        axis.set_title(link_label(link), fontsize=10)
        axis.grid(alpha=0.3, axis="y")
        for n, c in zip(senders, counts, strict=True):
            rows.append([link[0], link[1], n, c.n, c.red_ahead, c.identical, c.tied,
                         c.droptail_ahead, *c.red_ge, paper, n == chosen])
    axes[0].set_ylabel("cells of 25 (Wait = Gentle = true)")
    axes[1].legend(fontsize=7, loc="upper right")
    fig.suptitle("Sensitivity of the headline to the number of TCP senders: best RED vs"
                 " DropTail per cell (paired 95 % CI over seeds 1-3)", fontsize=10)
    return fig, rows


#: Calibration figure: one marker per access link setting (ACCESS_ORDER), the last for others.
MARKERS = ("o", "s", "^", "x")


def calibration_figure(found: Variants) -> tuple[Figure, list[list]]:
    """S20's ratio at window 2000 and 64000 per swept scenario, S16 as the marker's fill."""
    fig = Figure(figsize=(10, 4), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    rows = []
    combos = [(u, a) for u in UDP_ORDER for a in ACCESS_ORDER]
    senders = sorted({row.scenario.n_tcp for row in found.calibration})
    for row in found.calibration:
        s = row.scenario
        rows.append([s.n_tcp, s.udp[0], s.udp[1], s.access[0], s.access[1],
                     " ".join(map(str, row.quiet)), row.drops_at_8000, row.meets_s16,
                     row.ratio_small, row.ratio_large, row.meets_s20,
                     found.chosen is not None and row.scenario == found.chosen.scenario])

    def position(s: Scenario) -> float:
        offset = combos.index((s.udp, s.access)) if (s.udp, s.access) in combos else 0
        return senders.index(s.n_tcp) + (offset / len(combos) - 0.5) * 0.6

    for axis, attribute, window in ((axes[0], "ratio_small", 2000),
                                    (axes[1], "ratio_large", 64000)):
        for row in found.calibration:
            s = row.scenario
            color = f"C{UDP_ORDER.index(s.udp) if s.udp in UDP_ORDER else 9}"
            marker = MARKERS[ACCESS_ORDER.index(s.access) if s.access in ACCESS_ORDER else -1]
            axis.plot([position(s)], [getattr(row, attribute)], marker=marker, ms=5,
                      color=color, mfc=color if row.meets_s16 else "none")
        if found.chosen:
            axis.plot([position(found.chosen.scenario)], [getattr(found.chosen, attribute)],
                      marker="*", ms=14, color="black", mfc="none", label="chosen")
        axis.set_xticks(range(len(senders)), [str(n) for n in senders])
        axis.set_xlabel("TCP senders (nTcp); within each: UDP on/off x access link")
        axis.set_title(f"window {window}", fontsize=10)
        axis.grid(alpha=0.3)
    axes[0].axhspan(*S20_SMALL, color="C2", alpha=0.15, label="S20 target")
    axes[1].axhline(S20_LARGE, color="C2", ls="--", lw=1, label="S20: above")
    for index, udp in enumerate(UDP_ORDER):
        axes[0].plot([], [], marker="o", ls="", color=f"C{index}",
                     label=f"UDP {udp[0]:g}/{udp[1]:g} s")
    for marker, access in zip(MARKERS, ACCESS_ORDER, strict=False):
        axes[1].plot([], [], marker=marker, ls="", color="0.3", mfc="none",
                     label=f"access {access[0]}/{access[1]}")
    axes[0].set_ylabel("DropTail goodput 0.5 Mb/s ÷ 1 Mb/s")
    axes[0].legend(fontsize=7)
    axes[1].legend(fontsize=7)
    fig.suptitle("Calibration: S20's ratio per scenario; filled marker: S16 met (window 2000,"
                 " RED 0.6/0.85 silent from queue 16000 on, dropping at 8000)", fontsize=10)
    return fig, rows


def _difference_row(cells: list[Cell]) -> dict[int, Cell]:
    return {c.queue: c for c in cells}


def sack_figure(found: Variants) -> tuple[Figure, list[list]]:
    """1 Mb/s, 10 ms, window 32000: best RED − DropTail per queue, with and without SACK."""
    fig = Figure(figsize=(6.5, 4), layout="constrained")
    axis = fig.subplots()
    rows = []
    sides = (("SACK (default)", found.sack_on, "C0", -0.15),
             ("no SACK (ns-3.24)", found.sack_off, "C3", 0.15))
    queues = sorted({c.queue for _, study, _, _ in sides
                     for c in row_cells(study, FIG2_LINK, FOCUS_WINDOW)})
    for label, study, color, offset in sides:
        by_queue = _difference_row(row_cells(study, FIG2_LINK, FOCUS_WINDOW))
        xs = [i + offset for i, q in enumerate(queues) if q in by_queue]
        cells = [by_queue[q] for q in queues if q in by_queue]
        axis.errorbar(xs, [c.difference.mean for c in cells],
                      yerr=[c.difference.half_width if math.isfinite(c.difference.half_width)
                            else 0 for c in cells],
                      fmt="o", color=color, capsize=3, label=label)
        for c in cells:
            rows.append([label, c.queue, c.difference.mean, c.difference.half_width,
                         c.difference.n, c.comparison, pair_label(c.pair)])
    axis.axhline(0, color="black", lw=0.8)
    axis.set_xticks(range(len(queues)), [f"{q // 1000}k" for q in queues])
    axis.set_xlabel("queue limit (B)")
    axis.set_ylabel("best RED − DropTail (Mb/s)")
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8)
    fig.suptitle(f"Variant: SACK off, {link_label(FIG2_LINK)}, window {FOCUS_WINDOW}"
                 f" ({found.sack_scenario.label() if found.sack_scenario else ''})", fontsize=10)
    return fig, rows


SENDERS_HEADER = ("nTcp", "panel", "minTh", "maxTh", "queueSize", "tcp_mean", "tcp_ci95",
                  "udp_mean", "udp_ci95", "droptail_small_window", "droptail_next_window",
                  "red_small_window", "red_next_window")


def senders_figure(found: Variants) -> tuple[Figure, list[list]]:
    """C13 and C14 against the number of TCP senders: Figure 5's TCP and UDP goodput per
    pair, and the smallest window's goodput over the next window's per queue size."""
    fig = Figure(figsize=(10, 4), layout="constrained")
    pairs_axis, windows_axis = fig.subplots(1, 2)
    rows = []
    labels: list[str] = []
    for i, (n, study) in enumerate(found.senders.items()):
        color = f"C{i}"
        pair_rows = threshold_rows(study, BASE_LINK, FOCUS_WINDOW, TT)
        labels = [pair_label(r.pair) for r in pair_rows] or labels
        xs = range(len(pair_rows))
        errorbar(pairs_axis, xs, [r.tcp for r in pair_rows], ls="-", color=color,
                 label=f"TCP, nTcp={n}")
        errorbar(pairs_axis, xs, [r.udp for r in pair_rows], ls="--", color=color,
                 label=f"UDP, nTcp={n}")
        for r in pair_rows:
            rows.append([n, "fig5", r.pair[0], r.pair[1], None, r.tcp.mean, r.tcp.half_width,
                         r.udp.mean, r.udp.half_width, None, None, None, None])
        if not (low := LowWindow.of(study)):
            continue
        xs = range(low.queues)
        for name, style, value in (("DropTail", "o-", lambda c: c.droptail.mean),
                                   ("best RED", "^:", lambda c: c.red.mean)):
            windows_axis.plot(xs, [value(a) / value(b) for a, b in low.pairs], style,
                              color=color, label=f"{name}, nTcp={n}")
        for a, b in low.pairs:
            rows.append([n, "windows", None, None, a.queue, None, None, None, None,
                         a.droptail.mean, b.droptail.mean, a.red.mean, b.red.mean])
        windows_axis.set_xticks(xs, [kilo(a.queue) for a, _ in low.pairs])
        windows_axis.set_ylabel(f"goodput at window {low.small} ÷ at window {low.large}")
    pairs_axis.set_xticks(range(len(labels)), labels, rotation=45, fontsize=7)
    pairs_axis.set_xlabel("minTh/maxTh (fractions of the queue limit)")
    pairs_axis.set_ylabel("goodput (Mb/s)")
    pairs_axis.set_title(f"C13: Figure 5 (window {FOCUS_WINDOW})", fontsize=9)
    windows_axis.axhline(1, color="black", lw=0.6)
    windows_axis.set_xlabel("queue limit (B)")
    windows_axis.set_title("C14: the smallest window against the next", fontsize=9)
    for axis in (pairs_axis, windows_axis):
        axis.grid(alpha=0.3)
        axis.legend(fontsize=6, ncol=2)
    fig.suptitle(f"Variant: the number of TCP senders ({link_label(BASE_LINK)}, Wait = Gentle ="
                 " true, the calibrated scenario otherwise)", fontsize=10)
    return fig, rows


WAIT_GENTLE_HEADER = ("seeds", "wait", "gentle", "cells", "red_ahead", "identical", "tied",
                      "droptail_ahead", "red_ge_low", "red_ge_high")


def wait_gentle_variant_figure(found: Variants) -> tuple[Figure, list[list]]:
    """C3 on two sets of seeds: Figure 1's four counts per {Wait, Gentle} setting."""
    fig = Figure(figsize=(10, 4), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    rows = []
    for axis, study in zip(axes, (found.seeds_first, found.seeds_rest), strict=True):
        per_wg = wait_gentle_counts(study, BASE_LINK)
        xs = list(range(len(per_wg)))
        bottom = [0] * len(xs)
        for attribute, label, color in STACK:
            heights = [getattr(c, attribute) for c in per_wg.values()]
            axis.bar(xs, heights, bottom=bottom, color=color, label=label, width=0.7)
            bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
        axis.set_xticks(xs, [wg_label(wg) for wg in per_wg], fontsize=8)
        axis.set_title(f"seeds {seeds_text(study)}", fontsize=10)
        axis.grid(alpha=0.3, axis="y")
        for wg, c in per_wg.items():
            rows.append([seeds_text(study), wg[0], wg[1], c.n, c.red_ahead, c.identical, c.tied,
                         c.droptail_ahead, *c.red_ge])
    axes[0].set_ylabel("cells of 25")
    axes[1].legend(fontsize=7, loc="lower right")
    fig.suptitle(f"Variant: C3's {{Wait, Gentle}} comparison on two sets of seeds"
                 f" ({link_label(BASE_LINK)}, {found.seeds_scenario.label()})", fontsize=10)
    return fig, rows


def seeds_figure(found: Variants) -> tuple[Figure, list[list]]:
    """Figure 1's best RED − DropTail per cell: seeds 1-3 against the other seeds."""
    fig = Figure(figsize=(5.5, 5), layout="constrained")
    axis = fig.subplots()
    first = {(c.window, c.queue): c for c in found.seeds_first.cells(BASE_LINK, TT)}
    rest = {(c.window, c.queue): c for c in found.seeds_rest.cells(BASE_LINK, TT)}
    rows = []
    for key in sorted(first.keys() & rest.keys()):
        a, b = first[key], rest[key]
        rows.append([*key, a.difference.mean, a.difference.half_width, a.comparison,
                     pair_label(a.pair), b.difference.mean, b.difference.half_width,
                     b.comparison, pair_label(b.pair)])
        special = key in (PAPER_RED_LARGEST, PAPER_DROPTAIL_LARGEST)
        axis.plot([a.difference.mean], [b.difference.mean], marker="*" if special else "o",
                  ms=10 if special else 5, color="C3" if special else "C0")
        if special:
            axis.annotate(f"paper: {key[0] // 1000}k/{key[1] // 1000}k",
                          (a.difference.mean, b.difference.mean), fontsize=7,
                          textcoords="offset points", xytext=(4, 4))
    axis.axhline(0, color="black", lw=0.6)
    axis.axvline(0, color="black", lw=0.6)
    axis.set_xlabel("best RED − DropTail, seeds 1-3 (Mb/s)")
    axis.set_ylabel(f"best RED − DropTail, seeds {seeds_text(found.seeds_rest)} (Mb/s)")
    axis.grid(alpha=0.3)
    fig.suptitle(f"Variant: Figure 1's cells on two sets of seeds"
                 f" ({found.seeds_scenario.label() if found.seeds_scenario else ''})",
                 fontsize=10)
    return fig, rows


def variant_artifacts(found: Variants, out_dir: Path) -> list[Artifact]:
    """The calibration, sensitivity and variant figures that ``found`` has the runs for."""
    result = []
    if found.calibration:
        fig, rows = calibration_figure(found)
        result.append(figure_artifact(
            fig, out_dir, "variant-calibration",
            ("nTcp", "udpOn", "udpOff", "accessRate", "accessDelay", "s16_quiet_queues",
             "s16_drops_at_8000", "meets_s16", "s20_ratio_window2000", "s20_ratio_window64000",
             "meets_s20", "chosen"),
            rows, "Calibration: the lost topology against S16 and S20",
            f"Every swept scenario; chosen: "
            f"{found.chosen.scenario.label() if found.chosen else 'none'} ({found.rule})."))
    if found.sensitivity:
        fig, rows = sensitivity_figure(found)
        result.append(figure_artifact(
            fig, out_dir, "sensitivity",
            ("bottleneckRate", "bottleneckDelay", "nTcp", "cells", "red_ahead", "identical",
             "tied", "droptail_ahead", "red_ge_low", "red_ge_high", "paper_red_ge", "chosen"),
            rows, "Sensitivity: the headline against the number of TCP senders",
            "Figures 1 and 2 (Wait = Gentle = true): per nTcp, the cells where best RED is"
            " ahead of, identical to, tied with or behind DropTail; the paper's count as a"
            " line."))
    if found.seeds_first and found.seeds_rest and found.seeds_rest.cells(BASE_LINK, TT):
        fig, rows = seeds_figure(found)
        result.append(figure_artifact(
            fig, out_dir, "variant-seeds",
            ("window", "queueSize", "diff_seeds_1_3", "ci95_seeds_1_3", "comparison_seeds_1_3",
             "best_pair_seeds_1_3", "diff_other_seeds", "ci95_other_seeds",
             "comparison_other_seeds", "best_pair_other_seeds"),
            rows, "Variant: Figure 1's gaps on seeds 1-3 and on the other seeds",
            "Each side chooses its best pair and judges it on its own seeds."))
    if (found.seeds_first and found.seeds_rest
            and len(wait_gentle_counts(found.seeds_first, BASE_LINK)) > 1):
        fig, rows = wait_gentle_variant_figure(found)
        result.append(figure_artifact(
            fig, out_dir, "variant-waitgentle", WAIT_GENTLE_HEADER, rows,
            "Variant: C3's {Wait, Gentle} comparison on two sets of seeds",
            "Figure 1's setting at the calibrated scenario: per {Wait, Gentle}, the cells where"
            " best RED is ahead of, identical to, tied with or behind DropTail, on seeds 1-3"
            " and on the other seeds (each choosing and judging its own best pair)."))
    if found.senders:
        fig, rows = senders_figure(found)
        result.append(figure_artifact(
            fig, out_dir, "variant-senders", SENDERS_HEADER, rows,
            "Variant: C13 and C14 against the number of TCP senders",
            f"{link_label(BASE_LINK)}, Wait = Gentle = true, the calibrated scenario's UDP and"
            " access links; per nTcp, Figure 5's TCP and UDP goodput per pair (95 % CI over"
            " seeds) and the smallest window's goodput over the next window's."))
    if found.sack_off and found.sack_off.cells(FIG2_LINK, TT):
        fig, rows = sack_figure(found)
        result.append(figure_artifact(
            fig, out_dir, "variant-sack",
            ("tcp", "queueSize", "diff_mean", "diff_ci95", "n", "comparison", "best_pair"),
            rows, "Variant: without SACK (ns-3.24's NewReno)",
            f"{link_label(FIG2_LINK)}, window {FOCUS_WINDOW}: best RED − DropTail with and"
            " without SACK."))
    return result
