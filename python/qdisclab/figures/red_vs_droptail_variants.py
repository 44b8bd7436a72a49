# SPDX-License-Identifier: GPL-2.0-only
"""The RED-vs-DropTail study's calibration and cause-demonstrating variants.

They are the reconstruction plan's grids (doc/reproductions/red-vs-droptail.rst;
``campaigns/red-vs-droptail-variants.toml``), read from the variants database beside the final
campaign's. What is written, beside the study's figures:

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
``variant-sack``
    1 Mb/s, 10 ms, window 32000: best RED − DropTail per queue size with and without SACK.

:func:`causes` turns them into the run-backed causes of the claims the plan names.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from matplotlib.figure import Figure

from qdisclab.campaign.store import RunRecord
from qdisclab.figures import Artifact
from qdisclab.figures.common import figure_artifact, load_campaign_runs
from qdisclab.figures.red_vs_droptail import (
    BASE_LINK,
    DROPTAIL_AHEAD,
    FOCUS_WINDOW,
    LINKS,
    PAPER_BEST_PAIR,
    PAPER_DROPTAIL_LARGEST,
    PAPER_RED_LARGEST,
    PAPER_TABLE1,
    RED_AHEAD,
    TT,
    Cell,
    Counts,
    Study,
    halving_ratios,
    link_label,
    pair_label,
    threshold_rows,
    tied_with_best,
)

#: The example's defaults for the scenario parameters the variants change (see
#: ``red-vs-droptail --help``): a run that does not set one has this value.
DEFAULTS = {"nTcp": 2, "udpOn": 1.0, "udpOff": 1.0, "accessRate": "10Mbps",
            "accessDelay": "1ms", "sack": True}
#: The calibration grid's UDP (on, off) times and access links, in the choice rule's order.
UDP_ORDER = ((1.0, 1.0), (0.5, 0.5), (2.0, 2.0), (1.0, 3.0), (3.0, 1.0))
ACCESS_ORDER = (("10Mbps", "1ms"), ("100Mbps", "1ms"), ("10Mbps", "10ms"))
#: S16: RED's largest pair, the queues where it must never drop, the queue where it must.
CALIBRATION_PAIR = (0.6, 0.85)
S16_QUIET = (16000, 32000, 64000)
S16_DROPS = 8000
#: S20: the ratio's range at the smallest window, its lower bound at the largest.
S20_SMALL = (0.45, 0.55)
S20_LARGE = 0.55
FIG2_LINK = LINKS[1]


@dataclass(frozen=True, order=True)
class Scenario:
    """The unknowns of the lost topology a run was made with."""

    n_tcp: int
    udp: tuple[float, float]
    access: tuple[str, str]
    sack: bool = True

    @classmethod
    def of(cls, params: dict) -> Scenario:
        """The scenario of a run's parameters (the example's defaults where unset)."""
        p = {**DEFAULTS, **params}
        return cls(int(p["nTcp"]), (float(p["udpOn"]), float(p["udpOff"])),
                   (str(p["accessRate"]), str(p["accessDelay"])), bool(p["sack"]))

    def rank(self) -> tuple:
        """The choice rule's order: fewest senders, then the grid's UDP and access order."""
        def index(order, value):
            return order.index(value) if value in order else len(order)
        return self.n_tcp, index(UDP_ORDER, self.udp), index(ACCESS_ORDER, self.access)

    def label(self) -> str:
        """``"nTcp=3, UDP 1/1 s, access 10Mbps/1ms"`` (and ``", no SACK"``)."""
        return (f"nTcp={self.n_tcp}, UDP {self.udp[0]:g}/{self.udp[1]:g} s, access"
                f" {self.access[0]}/{self.access[1]}" + ("" if self.sack else ", no SACK"))


@dataclass(frozen=True)
class CalibrationRow:
    """One swept scenario against the calibration statements S16 and S20."""

    scenario: Scenario
    quiet: tuple[int, ...]  # S16_QUIET queues where the pair never dropped early or forced
    drops_at_8000: bool  # the pair dropped (early or forced) at queue 8000 in some seed
    ratio_small: float  # S20 at window 2000
    ratio_large: float  # S20 at window 64000

    @property
    def meets_s16(self) -> bool:
        """Identical to DropTail from queue 16000 on, different at 8000."""
        return self.quiet == S16_QUIET and self.drops_at_8000

    @property
    def meets_s20(self) -> bool:
        """About half at the small window, more than half at the large one."""
        return (S20_SMALL[0] <= self.ratio_small <= S20_SMALL[1]
                and self.ratio_large > S20_LARGE)


def _red_drops(run: RunRecord) -> float:
    return (run.metrics.get("early_drops") or 0) + (run.metrics.get("forced_drops") or 0)


def calibration_rows(runs: Iterable[RunRecord]) -> list[CalibrationRow]:
    """The calibration grids' scenarios, in the choice rule's order."""
    by_scenario: dict[Scenario, list[RunRecord]] = defaultdict(list)
    for run in runs:
        if (run.grid or "").startswith("calibration"):
            by_scenario[Scenario.of(run.params)].append(run)
    rows = []
    for scenario, group in by_scenario.items():
        drops: dict[int, list[float]] = defaultdict(list)
        for run in group:
            p = run.params
            if (p["queueDisc"] == "Red" and int(p["window"]) == 2000
                    and (p["bottleneckRate"], p["bottleneckDelay"]) == BASE_LINK
                    and (float(p["minTh"]), float(p["maxTh"])) == CALIBRATION_PAIR):
                drops[int(p["queueSize"])].append(_red_drops(run))
        ratios = halving_ratios(Study(r for r in group if r.params["queueDisc"] == "DropTail"))
        small, large = (ratios.get(w, math.nan) for w in (2000, 64000))
        rows.append(CalibrationRow(
            scenario,
            tuple(q for q in S16_QUIET if drops.get(q) and not any(drops[q])),
            any(drops.get(S16_DROPS, ())), small, large))
    return sorted(rows, key=lambda row: row.scenario.rank())


def choose(rows: list[CalibrationRow]) -> tuple[CalibrationRow | None, str]:
    """The plan's choice rule: the first scenario (fewest senders, then the grid's order) that
    meets S16 and S20; else, among those meeting S16, the ratio at window 2000 closest to 0.5;
    else none (the present scenario stays). Returns the row and how it was chosen."""
    both = [row for row in rows if row.meets_s16 and row.meets_s20]
    if both:
        return both[0], "meets S16 and S20"
    s16 = [row for row in rows if row.meets_s16]
    if s16:
        return (min(s16, key=lambda row: (abs(row.ratio_small - 0.5), row.scenario.rank())),
                "meets S16 only; its ratio at window 2000 is the closest to 0.5")
    return None, "no swept scenario meets S16: the present scenario stays"


@dataclass
class Variants:
    """What the variants database holds, analysed."""

    calibration: list[CalibrationRow]
    chosen: CalibrationRow | None
    rule: str
    #: Grids sensitivity-*: per number of TCP senders, its Study (seeds 1-3, present UDP and
    #: access links).
    sensitivity: dict[int, Study] = field(default_factory=dict)
    #: Grids seeds-*: the calibrated scenario at 1 Mb/s, 20 ms, Wait = Gentle = true, seeds
    #: 1-3 (from the sensitivity grid) and 4-10, as one Study and split by seeds.
    seeds_scenario: Scenario | None = None
    seeds_all: Study | None = None
    seeds_first: Study | None = None
    seeds_rest: Study | None = None
    #: Grid sack-*: 1 Mb/s, 10 ms without SACK, and the same cells with it.
    sack_scenario: Scenario | None = None
    sack_off: Study | None = None
    sack_on: Study | None = None


def load(db_path: Path | None) -> Variants | None:
    """Analyse the variants database ``db_path``; None when there is none."""
    if db_path is None:
        return None
    _, runs = load_campaign_runs(db_path)
    rows = calibration_rows(runs)
    chosen, rule = choose(rows)
    result = Variants(rows, chosen, rule)
    by_scenario: dict[Scenario, list[RunRecord]] = defaultdict(list)
    sensitivity: dict[int, list[RunRecord]] = defaultdict(list)
    for run in runs:
        grid = run.grid or ""
        if grid.startswith("calibration"):
            continue
        scenario = Scenario.of(run.params)
        by_scenario[scenario].append(run)
        if grid.startswith("sensitivity"):
            sensitivity[scenario.n_tcp].append(run)
        elif grid.startswith("seeds"):
            result.seeds_scenario = scenario
        elif grid.startswith("sack"):
            result.sack_scenario = scenario
    result.sensitivity = {n: Study(group) for n, group in sorted(sensitivity.items())}
    if result.seeds_scenario is not None:
        base = [run for run in by_scenario[result.seeds_scenario]
                if (run.params.get("bottleneckRate"), run.params.get("bottleneckDelay"))
                == BASE_LINK]
        result.seeds_all = Study(base)
        result.seeds_first = Study(r for r in base if r.seed in result.seeds_all.choice_seeds)
        result.seeds_rest = Study(r for r in base if r.seed not in result.seeds_all.choice_seeds)
    if result.sack_scenario is not None:
        on = Scenario(result.sack_scenario.n_tcp, result.sack_scenario.udp,
                      result.sack_scenario.access, True)
        off = by_scenario[result.sack_scenario]
        seeds = {run.seed for run in off}
        result.sack_off = Study(off)
        # The same cells with SACK: the sensitivity grid's, on the same seeds.
        result.sack_on = Study(
            run for run in by_scenario[on] if run.seed in seeds
            and (run.params.get("bottleneckRate"), run.params.get("bottleneckDelay"))
            == FIG2_LINK)
    return result


# ----------------------------------------------------------------- figures


def _row_cells(study: Study | None, link, window: int) -> list[Cell]:
    if study is None:
        return []
    return [c for c in study.cells(link, TT) if c.window == window]


def _largest(study: Study, sign: int) -> Cell | None:
    cells = study.cells(BASE_LINK, TT)
    return max(cells, key=lambda c: sign * c.difference.mean) if cells else None


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
                     for c in _row_cells(study, FIG2_LINK, FOCUS_WINDOW)})
    for label, study, color, offset in sides:
        by_queue = _difference_row(_row_cells(study, FIG2_LINK, FOCUS_WINDOW))
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
    axis.set_ylabel(f"best RED − DropTail, seeds {_seeds_text(found.seeds_rest)} (Mb/s)")
    axis.grid(alpha=0.3)
    fig.suptitle(f"Variant: Figure 1's cells on two sets of seeds"
                 f" ({found.seeds_scenario.label() if found.seeds_scenario else ''})",
                 fontsize=10)
    return fig, rows


def _seeds_text(study: Study) -> str:
    seeds = study.choice_seeds
    return f"{seeds[0]}-{seeds[-1]}" if seeds else "–"


def artifacts(found: Variants, out_dir: Path) -> list[Artifact]:
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
    if found.sack_off and found.sack_off.cells(FIG2_LINK, TT):
        fig, rows = sack_figure(found)
        result.append(figure_artifact(
            fig, out_dir, "variant-sack",
            ("tcp", "queueSize", "diff_mean", "diff_ci95", "n", "comparison", "best_pair"),
            rows, "Variant: without SACK (ns-3.24's NewReno)",
            f"{link_label(FIG2_LINK)}, window {FOCUS_WINDOW}: best RED − DropTail with and"
            " without SACK."))
    return result


def notes(found: Variants) -> list[str]:
    """The calibration's outcome, for the notes."""
    s16 = sum(row.meets_s16 for row in found.calibration)
    s20 = sum(row.meets_s20 for row in found.calibration)
    return [f"Calibration (red-vs-droptail-variants): {len(found.calibration)} scenario(s)"
            f" swept, {s16} meet S16, {s20} meet S20; chosen:"
            f" {found.chosen.scenario.label() if found.chosen else 'none'} ({found.rule})."]


# ----------------------------------------------------------------- causes


def _count_text(study: Study, link) -> str:
    counts = Counts.of(study.cells(link, TT))
    return f"{counts.range_text()} ({counts.red_ahead}↑ {counts.identical}= {counts.tied}~" \
           f" {counts.droptail_ahead}↓)"


def _load_cause(found: Variants) -> str | None:
    if not found.sensitivity:
        return None
    parts = []
    for link in (BASE_LINK, FIG2_LINK):
        parts.append(f"{link_label(link)}: " + "; ".join(
            f"nTcp={n}: {_count_text(study, link)}" for n, study in found.sensitivity.items()))
    return ("sensitivity-* (only the number of TCP senders changes): RED ≥ DropTail"
            " [ahead, identical, tied, behind] " + " | ".join(parts))


def _sack_cause(found: Variants) -> str | None:
    if not (found.sack_off and found.sack_on):
        return None
    texts = []
    for label, study in (("with SACK", found.sack_on), ("without SACK", found.sack_off)):
        row = _row_cells(study, FIG2_LINK, FOCUS_WINDOW)
        hits = sum(c.comparison != RED_AHEAD for c in row)
        texts.append(f"{label}: DropTail ≥ RED at {hits} of {len(row)} queue sizes ("
                     + ", ".join(f"{c.queue // 1000}k {c.comparison}" for c in row) + ")")
    return (f"sack-* ({found.sack_scenario.label()}, only SACK changes): " + "; ".join(texts))


def _seeds_cause(found: Variants, sign: int) -> str | None:
    if not (found.seeds_first and found.seeds_rest):
        return None
    kind = RED_AHEAD if sign > 0 else DROPTAIL_AHEAD
    texts = []
    for study in (found.seeds_first, found.seeds_rest):
        cell = _largest(study, sign)
        if cell is None:
            return None
        significant = sum(c.comparison == kind for c in study.cells(BASE_LINK, TT))
        texts.append(f"seeds {_seeds_text(study)}: largest at ({cell.window}, {cell.queue})"
                     f" {cell.difference.format()} Mb/s, {significant} cell(s) significant")
    return (f"seeds-* ({found.seeds_scenario.label()}, only the seeds change): "
            + "; ".join(texts))


def _plateau_cause(found: Variants) -> str | None:
    if not (found.seeds_first and found.seeds_rest):
        return None
    texts = []
    for study in (found.seeds_first, found.seeds_rest):
        rows = threshold_rows(study, BASE_LINK, FOCUS_WINDOW, TT)
        if not rows:
            return None
        best, tied = tied_with_best(rows)
        paper = "tied with it" if any(r.pair == PAPER_BEST_PAIR for r in tied) else "below it"
        texts.append(f"seeds {_seeds_text(study)}: maximum {pair_label(best.pair)},"
                     f" {pair_label(PAPER_BEST_PAIR)} {paper} ({len(tied)} pairs tied)")
    return (f"seeds-* ({found.seeds_scenario.label()}, only the seeds change): "
            + "; ".join(texts))


def causes(found: Variants | None) -> dict[str, str]:
    """Per claim id, the variant run that shows the cause the plan names for it."""
    if found is None:
        return {}
    result = {}
    load = _load_cause(found)
    for claim_id in ("C1", "C2", "C4", "C8"):
        if load:
            result[claim_id] = load
    sack = _sack_cause(found)
    if load or sack:
        result["C10"] = " | ".join(t for t in (load, sack) if t)
    for claim_id, sign in (("C5", 1), ("C6", -1)):
        if text := _seeds_cause(found, sign):
            result[claim_id] = text
    if text := _plateau_cause(found):
        result["C12"] = text
    return result
