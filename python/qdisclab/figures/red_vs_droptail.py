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

``sensitivity``, ``variant-*``
    the reconstruction plan's calibration and variant grids
    (``campaigns/red-vs-droptail-variants.toml``), when their database is present:
    see :mod:`qdisclab.figures.red_vs_droptail_variants`.

The tie rule of the reconstruction plan (doc/reproductions/red-vs-droptail.rst): in each
cell the best of the threshold pairs is chosen on seeds 1-3 (:data:`CHOICE_SEEDS`) and
judged on the other seeds, which removes the upward bias of the maximum of ten noisy means;
a campaign without other seeds chooses and judges on the same ones (and says so). The judged
comparison is one of *identical* (RED never dropped early: the same runs), *RED ahead* /
*DropTail ahead* (the paired 95 % Student-t interval of best RED minus DropTail, same RngRun,
lies above / below zero) or *tied*; the paper's ">=" counts are an interval
[RED ahead + identical, that + tied], since its single run could fall either way in a tie.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from matplotlib.figure import Figure

from qdisclab.campaign.store import RunRecord
from qdisclab.figures import VERDICTS_NEEDING_CAUSE, Artifact, Claim, FigureSet, TableData
from qdisclab.figures.common import (
    NO_ESTIMATE,
    Estimate,
    compare_paired,
    figure_artifact,
    load_campaign_runs,
    runs_note,
    t_interval,
    variants_db,
    write_csv,
)

NAME = "red-vs-droptail"
TOTAL, TCP, UDP = "total_goodput_mbps", "tcp_goodput_mbps", "udp_goodput_mbps"

Link = tuple[str, str]  # (bottleneckRate, bottleneckDelay) as on the command line
Pair = tuple[float, float]  # (minTh, maxTh) as fractions of the queue limit
WaitGentle = tuple[bool, bool]

# ----------------------------------------------------------------- the paper's numbers

#: Link settings in the order of the paper's table; fig1 … fig4 follow it.
LINKS: tuple[Link, ...] = (
    ("1Mbps", "20ms"),
    ("1Mbps", "10ms"),
    ("1Mbps", "30ms"),
    ("0.5Mbps", "20ms"),
)
#: The ten threshold pairs (minTh, maxTh), in the paper's order.
PAIRS: tuple[Pair, ...] = tuple(
    zip(
        (0.02, 0.04, 0.08, 0.16, 0.24, 0.32, 0.32, 0.4, 0.48, 0.6),
        (0.04, 0.08, 0.16, 0.32, 0.48, 0.64, 0.8, 0.8, 0.96, 0.85),
        strict=True,
    )
)
WINDOWS = (2000, 8000, 16000, 32000, 64000)
QUEUES = (2000, 8000, 16000, 32000, 64000)
WAIT_GENTLE: tuple[WaitGentle, ...] = ((False, False), (False, True), (True, False), (True, True))

#: The paper's table (§3.2): cases of 25 where RED >= DropTail, per {Wait, Gentle}, in LINKS order.
PAPER_TABLE1: dict[WaitGentle, tuple[int, ...]] = {
    (False, False): (15, 7, 15, 16),
    (False, True): (16, 7, 16, 15),
    (True, False): (15, 6, 16, 14),
    (True, True): (17, 8, 18, 14),
}
PAPER_CELLS = 25
#: Agreement tolerance for a table cell, in cases of 25.
TABLE_TOLERANCE = 3
#: The threshold pair with the highest goodput in the paper (§3.1).
PAPER_BEST_PAIR: Pair = (0.32, 0.64)
#: §2.1: the cells (window, queue) of the largest RED and the largest DropTail advantage.
PAPER_RED_LARGEST: tuple[int, int] = (64000, 32000)
PAPER_DROPTAIL_LARGEST: tuple[int, int] = (32000, 64000)
#: Window of the §2.3 and §3 figures.
FOCUS_WINDOW = 32000
BASE_LINK: Link = LINKS[0]
TT: WaitGentle = (True, True)
#: The tie rule: each cell's best threshold pair is chosen on these seeds, judged on the others.
CHOICE_SEEDS = (1, 2, 3)
#: A count with more tied cells than this share of its cells cannot fail: "not evaluated".
MAX_TIED_SHARE = 12 / 25
#: S29: "the gap ... is not that distinct": every |best RED - DropTail| below this share.
DISTINCT_GAP = 0.05


# ----------------------------------------------------------------- analysis


def link_label(link: Link) -> str:
    """``("0.5Mbps", "20ms")`` → ``"0.5 Mb/s, 20 ms"``."""
    rate, delay = link
    rate = re.sub(r"^([\d.]+)\s*([kMG])bps$", r"\1 \2b/s", rate)
    delay = re.sub(r"^([\d.]+)\s*(m?s)$", r"\1 \2", delay)
    return f"{rate}, {delay}"


def wg_label(wg: WaitGentle) -> str:
    """``(True, False)`` → ``"Wait=T, Gentle=F"``."""
    return f"Wait={'T' if wg[0] else 'F'}, Gentle={'T' if wg[1] else 'F'}"


def pair_label(pair: Pair | None) -> str:
    """``(0.32, 0.64)`` → ``"0.32/0.64"``."""
    return "–" if pair is None else f"{pair[0]:g}/{pair[1]:g}"


def _kilo(value: int) -> str:
    return f"{value // 1000}k" if value % 1000 == 0 else str(value)


#: How a cell's judged comparison comes out (compare_paired's classes, named for this study).
RED_AHEAD, IDENTICAL, TIED, DROPTAIL_AHEAD = "RED ahead", "identical", "tied", "DropTail ahead"
_CLASS = {"A ahead": RED_AHEAD, "identical": IDENTICAL, "tied": TIED, "B ahead": DROPTAIL_AHEAD}


@dataclass(frozen=True)
class Cell:
    """Best RED vs DropTail in one (link, window, queue, Wait, Gentle) cell, on the judging
    seeds; the best pair was chosen on the choice seeds."""

    link: Link
    window: int
    queue: int
    droptail: Estimate
    red: Estimate  # the best threshold pair's total goodput
    pair: Pair | None
    difference: Estimate  # paired per-seed best-RED minus DropTail
    comparison: str  # RED_AHEAD, IDENTICAL, TIED or DROPTAIL_AHEAD
    droptail_drops: float = math.nan  # mean drops per run
    red_drops: float = math.nan  # the best pair's mean drops (early, forced and overflow)

    @property
    def red_ahead(self) -> bool:
        """Best RED above DropTail, the paired interval excluding zero."""
        return self.comparison == RED_AHEAD

    @property
    def droptail_ahead(self) -> bool:
        """DropTail above best RED, the paired interval excluding zero."""
        return self.comparison == DROPTAIL_AHEAD


@dataclass(frozen=True)
class Counts:
    """How many cells of a set come out each way."""

    red_ahead: int = 0
    identical: int = 0
    tied: int = 0
    droptail_ahead: int = 0

    @classmethod
    def of(cls, cells: Iterable[Cell]) -> Counts:
        """Count ``cells`` by their comparison."""
        kinds = [cell.comparison for cell in cells]
        return cls(kinds.count(RED_AHEAD), kinds.count(IDENTICAL), kinds.count(TIED),
                   kinds.count(DROPTAIL_AHEAD))

    @property
    def n(self) -> int:
        """Cells counted."""
        return self.red_ahead + self.identical + self.tied + self.droptail_ahead

    @property
    def red_ge(self) -> tuple[int, int]:
        """The paper's "RED >= DropTail" count: ties may fall either way in one run."""
        low = self.red_ahead + self.identical
        return low, low + self.tied

    def format(self) -> str:
        """``"RED ahead 2, identical 18, tied 5, DropTail ahead 0"``."""
        return (f"RED ahead {self.red_ahead}, identical {self.identical}, tied {self.tied},"
                f" DropTail ahead {self.droptail_ahead}")

    def range_text(self) -> str:
        """``"20-25 of 25"`` (one number when there is no tie)."""
        low, high = self.red_ge
        return f"{low}{'' if low == high else f'-{high}'} of {self.n}"


def count_verdict(counts: Counts, paper_k: int, paper_n: int = PAPER_CELLS) -> str:
    """A paper's "RED >= DropTail in k of n": *agree* when k lies within the table tolerance
    (±3 of 25, scaled to n) of our interval [RED ahead + identical, that + tied], scaled to n;
    *not evaluated* when the ties alone span more than :data:`MAX_TIED_SHARE` of the cells."""
    if not counts.n:
        return "not evaluated"
    if counts.tied > MAX_TIED_SHARE * counts.n:
        return "not evaluated"
    scale = paper_n / counts.n
    low, high = (k * scale for k in counts.red_ge)
    tolerance = TABLE_TOLERANCE * paper_n / PAPER_CELLS
    return "agree" if low - tolerance <= paper_k <= high + tolerance else "disagree"


class Study:
    """The campaign's ``ok`` runs, indexed by the study's factors.

    ``choice_seeds`` choose each cell's best pair, ``judge_seeds`` judge it (the tie rule);
    without seeds outside :data:`CHOICE_SEEDS` both are every seed (``split`` is False).
    """

    def __init__(self, runs: Iterable[RunRecord]):
        self.droptail: dict[tuple, dict[int, dict]] = defaultdict(dict)
        self.red: dict[tuple, dict[int, dict]] = defaultdict(dict)
        links: dict[Link, None] = {}
        windows, queues, pairs, wgs = set(), set(), set(), set()
        for run in runs:
            p = run.params
            if not run.metrics or "queueDisc" not in p:
                continue
            link = (str(p.get("bottleneckRate")), str(p.get("bottleneckDelay")))
            window, queue = int(p["window"]), int(p["queueSize"])
            if p["queueDisc"] == "DropTail":
                self.droptail[(link, window, queue)][run.seed] = run.metrics
            elif p["queueDisc"] == "Red":
                pair = (float(p["minTh"]), float(p["maxTh"]))
                wg = (bool(p["wait"]), bool(p["gentle"]))
                self.red[(link, window, queue, wg, pair)][run.seed] = run.metrics
                pairs.add(pair)
                wgs.add(wg)
            else:
                continue
            links[link] = None
            windows.add(window)
            queues.add(queue)
        seeds = sorted({s for by_seed in (*self.droptail.values(), *self.red.values())
                        for s in by_seed})
        self.choice_seeds = [s for s in seeds if s in CHOICE_SEEDS]
        self.judge_seeds = [s for s in seeds if s not in CHOICE_SEEDS]
        self.split = bool(self.choice_seeds and self.judge_seeds)
        if not self.split:
            self.choice_seeds = self.judge_seeds = seeds
        known = [link for link in LINKS if link in links]
        self.links = known + [link for link in links if link not in known]
        self.windows = sorted(windows)
        self.queues = sorted(queues)
        order = {pair: i for i, pair in enumerate(PAIRS)}
        self.pairs = sorted(pairs, key=lambda pair: (order.get(pair, len(order)), pair))
        self.wait_gentle = [wg for wg in WAIT_GENTLE if wg in wgs]
        self._cells: dict[tuple, Cell | None] = {}

    @staticmethod
    def _values(by_seed: dict[int, dict], metric: str) -> dict[int, float]:
        values = {}
        for seed, metrics in by_seed.items():
            value = metrics.get(metric)
            if value is not None and math.isfinite(value):
                values[seed] = float(value)
        return values

    def droptail_values(self, link: Link, window: int, queue: int, metric: str = TOTAL):
        """DropTail's per-seed values of ``metric`` in a cell."""
        return self._values(self.droptail.get((link, window, queue), {}), metric)

    def red_values(self, link, window, queue, wg, pair, metric: str = TOTAL):
        """RED's per-seed values of ``metric`` for one threshold pair in a cell."""
        return self._values(self.red.get((link, window, queue, wg, pair), {}), metric)

    def best_pair(self, link, window, queue, wg,
                  seeds: Iterable[int] | None = None) -> tuple[Pair | None, Estimate]:
        """The threshold pair with the highest mean total goodput over ``seeds`` (default:
        every seed), and that estimate."""
        best: tuple[Pair | None, Estimate] = (None, NO_ESTIMATE)
        keep = None if seeds is None else set(seeds)
        for pair in self.pairs:
            values = self.red_values(link, window, queue, wg, pair)
            estimate = t_interval(v for s, v in values.items() if keep is None or s in keep)
            if estimate.n and (best[0] is None or estimate.mean > best[1].mean):
                best = (pair, estimate)
        return best

    def cell(self, link: Link, window: int, queue: int, wg: WaitGentle) -> Cell | None:
        """Best RED vs DropTail in a cell; ``None`` when either side has no run."""
        key = (link, window, queue, wg)
        if key not in self._cells:
            self._cells[key] = self._compute_cell(link, window, queue, wg)
        return self._cells[key]

    def _compute_cell(self, link: Link, window: int, queue: int, wg: WaitGentle) -> Cell | None:
        droptail = self.droptail_values(link, window, queue)
        pair, _ = self.best_pair(link, window, queue, wg, self.choice_seeds)
        if not droptail or pair is None:
            return None
        red_values = self.red_values(link, window, queue, wg, pair)
        common = [s for s in self.judge_seeds if s in droptail and s in red_values]
        if not common:
            return None
        kind, difference = compare_paired([red_values[s] for s in common],
                                          [droptail[s] for s in common])
        dt_drops = self.droptail_values(link, window, queue, "drops")
        red_drops = self.red_values(link, window, queue, wg, pair, "drops")
        return Cell(link, window, queue, t_interval(droptail[s] for s in common),
                    t_interval(red_values[s] for s in common), pair, difference, _CLASS[kind],
                    t_interval(dt_drops[s] for s in common if s in dt_drops).mean,
                    t_interval(red_drops[s] for s in common if s in red_drops).mean)

    def seeds_note(self) -> str:
        """How the best pairs were chosen and judged, for the notes."""
        if self.split:
            return (f"Tie rule: each cell's best threshold pair is chosen on seeds"
                    f" {_seed_list(self.choice_seeds)} and judged on seeds"
                    f" {_seed_list(self.judge_seeds)}.")
        return (f"Only seeds {_seed_list(self.choice_seeds)}: each cell's best threshold pair is"
                " chosen and judged on the same seeds, which favours RED slightly (the maximum"
                " of noisy means is biased upwards).")

    def cells(self, link: Link, wg: WaitGentle) -> list[Cell]:
        """Every complete cell of a link setting, windows outer, queues inner."""
        cells = []
        for window in self.windows:
            for queue in self.queues:
                if (cell := self.cell(link, window, queue, wg)) is not None:
                    cells.append(cell)
        return cells


def _seed_list(seeds: list[int]) -> str:
    if len(seeds) > 2 and seeds == list(range(seeds[0], seeds[-1] + 1)):
        return f"{seeds[0]}-{seeds[-1]}"
    return ", ".join(map(str, seeds))


# ----------------------------------------------------------------- fig1 … fig4


def _figure_number(link: Link, study: Study) -> int:
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


def _cell_row(cell: Cell, wg: WaitGentle) -> list:
    return [
        cell.link[0], cell.link[1], wg[0], wg[1], cell.window, cell.queue,
        cell.droptail.mean, cell.droptail.half_width, cell.droptail.n,
        cell.red.mean, cell.red.half_width, cell.red.n,
        cell.pair[0] if cell.pair else None, cell.pair[1] if cell.pair else None,
        cell.difference.mean, cell.difference.half_width, cell.difference.n,
        cell.comparison, cell.droptail_drops, cell.red_drops,
    ]


def _errorbar(axis, xs, estimates: list[Estimate], **style) -> None:
    means = [e.mean for e in estimates]
    errors = [e.half_width if math.isfinite(e.half_width) else 0.0 for e in estimates]
    axis.errorbar(xs, means, yerr=errors, capsize=3, marker="o", markersize=4, lw=1.2, **style)


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
        axis.set_xticks(xs, [_kilo(c.window) for c in row])
        axis.set_title(f"queue {_kilo(queue)} B", fontsize=10)
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


# ----------------------------------------------------------------- fig5 (thresholds)


def _focus_window(study: Study) -> int | None:
    if FOCUS_WINDOW in study.windows:
        return FOCUS_WINDOW
    return study.windows[len(study.windows) // 2] if study.windows else None


@dataclass(frozen=True)
class PairRow:
    """Goodputs of one threshold pair, averaged over queue sizes per seed."""

    pair: Pair
    tcp: Estimate
    udp: Estimate
    total: Estimate
    per_queue: dict[int, Estimate]
    totals: dict[int, float]  # per seed, the total goodput's mean over the queue sizes


def threshold_rows(study: Study, link: Link, window: int, wg: WaitGentle) -> list[PairRow]:
    """Per pair: per-seed mean over the queue sizes, then the t interval over seeds."""
    # Only queue sizes every pair has, so that the pairs' averages are comparable.
    pairs = [p for p in study.pairs
             if any(study.red_values(link, window, q, wg, p) for q in study.queues)]
    queues = [q for q in study.queues
              if all(study.red_values(link, window, q, wg, p) for p in pairs)]
    rows = []
    for pair in pairs if queues else []:
        per_metric, per_seed = {}, {}
        for metric in (TCP, UDP, TOTAL):
            by_queue = {q: study.red_values(link, window, q, wg, pair, metric) for q in queues}
            seeds = set.intersection(*(set(values) for values in by_queue.values()))
            per_seed[metric] = {s: sum(by_queue[q][s] for q in queues) / len(queues)
                                for s in sorted(seeds)}
            per_metric[metric] = t_interval(per_seed[metric].values())
        per_queue = {
            q: t_interval(study.red_values(link, window, q, wg, pair).values()) for q in queues
        }
        rows.append(PairRow(pair, per_metric[TCP], per_metric[UDP], per_metric[TOTAL], per_queue,
                            per_seed[TOTAL]))
    return rows


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
        _errorbar(right, xs, estimates, color=f"C{i + 4}", label=f"queue {_kilo(queue)} B")
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


# ----------------------------------------------------------------- fig6 (Wait, Gentle)


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
            rows.append(["Red", wg[0], wg[1], q, estimate.mean, estimate.half_width, estimate.n,
                         pair[0] if pair else None, pair[1] if pair else None])
    axis.set_xticks(xs, [_kilo(q) for q in study.queues])
    axis.set_xlabel("queue limit (B)")
    axis.set_ylabel("goodput, TCP + UDP (Mb/s)")
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8)
    fig.suptitle(
        f"Figure 6: RED (best pair) per Wait/Gentle vs DropTail, window {window} B,"
        f" {link_label(link)}", fontsize=10,
    )
    return fig, rows


# ----------------------------------------------------------------- claims


def _verdict(ok: bool) -> str:
    return "agree" if ok else "disagree"


def _share_verdict(hits: int, n: int) -> str:
    return "agree" if hits == n else "partly" if hits else "disagree"


def _table_claims(table: dict[tuple[WaitGentle, Link], Counts]) -> list[Claim]:
    compared = [
        (wg, link, counts, PAPER_TABLE1[wg][LINKS.index(link)])
        for (wg, link), counts in table.items()
        if wg in PAPER_TABLE1 and link in LINKS and counts.n
    ]
    if not compared:
        return [Claim("Table 1", "RED ≥ DropTail counts per {Wait, Gentle} × link setting",
                      "no cell of the table was run", "not evaluated", id="C1")]
    verdicts = [count_verdict(counts, paper) for _, _, counts, paper in compared]
    judged = [v for v in verdicts if v != "not evaluated"]
    agree = judged.count("agree")
    worst = max(compared, key=lambda c: abs(c[2].red_ge[0] * PAPER_CELLS / c[2].n - c[3]))
    claims = [Claim(
        "Table 1",
        "RED ≥ DropTail in k of 25 cases, 16 counts (4 {Wait, Gentle} × 4 link settings),"
        " k from 6 to 18",
        f"{agree} of the {len(judged)} counts we can judge are within ±{TABLE_TOLERANCE} of"
        f" our RED ≥ interval [ahead + identical, + tied]"
        f" ({len(verdicts) - len(judged)} not judged: more than {MAX_TIED_SHARE:.0%} tied);"
        f" largest gap: {wg_label(worst[0])}, {link_label(worst[1])}: ours"
        f" {worst[2].range_text()} ({worst[2].format()}) vs paper {worst[3]} of 25",
        "not evaluated" if not judged else _share_verdict(agree, len(judged)),
        id="C1",
    )]
    # Majority of wins for every link but 1 Mb/s 10 ms, where DropTail wins most. A side is
    # ours when our RED >= interval allows it (ties fall either way in the paper's one run).
    sides = []
    for _, _, counts, paper in compared:
        low, high = counts.red_ge
        sides.append(2 * high > counts.n if 2 * paper > PAPER_CELLS else 2 * low < counts.n)
    slow = [(wg, counts) for wg, link, counts, _ in compared if link == LINKS[1]]
    claims.append(Claim(
        "Table 1",
        "RED ≥ DropTail in most cells except at 1 Mb/s, 10 ms, where DropTail is ahead"
        " in most (6–8 of 25)",
        f"the paper's majority side is within our interval in {sum(sides)} of {len(sides)}"
        " table cells" + ("; at 1 Mb/s, 10 ms: " + ", ".join(
            f"{wg_label(wg)} {counts.range_text()}" for wg, counts in slow) if slow else ""),
        _share_verdict(sum(sides), len(sides)),
        id="C2",
    ))
    # Wait=Gentle=true gives the most wins except at 0.5 Mb/s (on the certain wins).
    by_link: dict[Link, dict[WaitGentle, float]] = defaultdict(dict)
    for wg, link, counts, _ in compared:
        by_link[link][wg] = counts.red_ge[0] / counts.n
    checks = []
    for link, shares in by_link.items():
        if TT in shares and len(shares) > 1:
            tt_best = shares[TT] >= max(shares.values())
            checks.append((link, tt_best, tt_best == (link != LINKS[3])))
    if checks:
        claims.append(Claim(
            "Table 1 / §3.2",
            "Wait = Gentle = true gives RED the most wins for every link setting except"
            " 0.5 Mb/s, 20 ms",
            "; ".join(f"{link_label(link)}: TT {'is' if best else 'is not'} (one of) the best"
                      for link, best, _ in checks) + " (RED ahead + identical)",
            _share_verdict(sum(c[2] for c in checks), len(checks)),
            id="C3",
        ))
    return claims


def _largest_claim(base: dict[tuple[int, int], Cell], cell_id: tuple[int, int], sign: int,
                   who: str, claim_id: str) -> Claim:
    paper = f"largest {who} advantage at window {cell_id[0]}, queue {cell_id[1]}"
    if cell_id not in base:
        return Claim("§2.1", paper, "cell not run", "not evaluated", id=claim_id)
    kind = RED_AHEAD if sign > 0 else DROPTAIL_AHEAD
    significant = [c for c in base.values() if c.comparison == kind]
    at_paper = f"at ({cell_id[0]}, {cell_id[1]}): {base[cell_id].difference.format()} Mb/s"
    if not significant:
        return Claim("§2.1", paper, f"no cell has {who} significantly ahead; {at_paper}",
                     "not evaluated", id=claim_id)
    extreme = max(significant, key=lambda c: sign * c.difference.mean)
    return Claim(
        "§2.1", paper,
        f"{len(significant)} cell(s) with {who} significantly ahead, the largest at window"
        f" {extreme.window}, queue {extreme.queue} ({extreme.difference.format()} Mb/s, best"
        f" RED − DropTail); {at_paper}",
        _verdict((extreme.window, extreme.queue) == cell_id), id=claim_id)


def _grid_claims(study: Study, cells_by_link: dict[Link, list[Cell]]) -> list[Claim]:
    claims = []
    base = {(c.window, c.queue): c for c in cells_by_link.get(BASE_LINK, [])}
    if base:
        counts = Counts.of(base.values())
        claims.append(Claim(
            "§2.1 (Figure 1)",
            "1 Mb/s, 20 ms, Wait = Gentle = true: RED ≥ DropTail in 17 of 25 cases",
            f"{counts.range_text()} ({counts.format()})",
            count_verdict(counts, 17), id="C4"))
        claims.append(_largest_claim(base, PAPER_RED_LARGEST, 1, "RED", "C5"))
        claims.append(_largest_claim(base, PAPER_DROPTAIL_LARGEST, -1, "DropTail", "C6"))
        small = [base[(2000, q)] for q in QUEUES[1:] if (2000, q) in base]
        if small:
            claims.append(Claim(
                "§2.1",
                "window 2000: RED and DropTail give the same results once the queue reaches"
                " 16000 (RED's queue never reaches minTh), not below",
                "; ".join(f"queue {c.queue}: {c.comparison}" for c in small)
                + " (the calibration statement S16: the scenario was chosen to meet it)",
                "calibrated", id="C7"))
        below = [c for c in base.values() if c.queue <= c.window]
        if below:
            below_counts = Counts.of(below)
            claims.append(Claim(
                "§2.2",
                "queue ≤ window (15 cases): DropTail ahead in only 1",
                f"DropTail ahead in {below_counts.droptail_ahead} of {len(below)}"
                f" ({below_counts.format()})",
                count_verdict(below_counts, 14, 15), id="C8"))
    window = _focus_window(study)
    for link, who, paper, claim_id in (
        (LINKS[2], "RED", "1 Mb/s, 30 ms: RED ≥ DropTail at every queue size", "C9"),
        (LINKS[1], "DropTail", "1 Mb/s, 10 ms: DropTail ≥ RED at every queue size", "C10"),
    ):
        row = [c for c in cells_by_link.get(link, []) if c.window == window]
        if not row:
            claims.append(Claim("§2.3", paper + f" (window {FOCUS_WINDOW})", "not run",
                                "not evaluated", id=claim_id))
            continue
        against = DROPTAIL_AHEAD if who == "RED" else RED_AHEAD
        hits = sum(c.comparison != against for c in row)
        claims.append(Claim(
            "§2.3", paper + f" (window {FOCUS_WINDOW})",
            f"{who} ≥ the other (ahead, identical or tied) at {hits} of {len(row)} queue sizes"
            f" (window {window}): "
            + ", ".join(f"{_kilo(c.queue)}: {c.difference.mean:+.3f} {c.comparison}"
                        for c in row) + " (Mb/s)",
            _share_verdict(hits, len(row)), id=claim_id))
    ratios = halving_ratios(study)
    if len(ratios) == 2:
        (small_w, small), (large_w, large) = sorted(ratios.items())
        claims.append(Claim(
            "§2.3",
            "halving the link rate halves goodput at small windows, less than halves it"
            " at large ones",
            f"DropTail goodput at 0.5 Mb/s ÷ at 1 Mb/s (20 ms, mean over queue sizes):"
            f" {small:.2f} at window {small_w}, {large:.2f} at window {large_w}"
            " (the calibration statement S20: the scenario was chosen to meet it)",
            "calibrated", id="C11"))
    return claims


def halving_ratios(study: Study) -> dict[int, float]:
    """S20: DropTail's total goodput at 0.5 Mb/s ÷ at 1 Mb/s (20 ms), each the mean over the
    queue sizes of the seed means, at the smallest and the largest window."""
    half = LINKS[3]
    ratios = {}
    for w in {study.windows[0], study.windows[-1]} if study.windows else ():
        full = [t_interval(study.droptail_values(BASE_LINK, w, q).values()).mean
                for q in study.queues]
        slow = [t_interval(study.droptail_values(half, w, q).values()).mean for q in study.queues]
        pairs = [(f, s) for f, s in zip(full, slow, strict=True)
                 if math.isfinite(f) and math.isfinite(s) and f > 0]
        if pairs:
            ratios[w] = sum(s for _, s in pairs) / sum(f for f, _ in pairs)
    return ratios


def tied_with_best(rows: list[PairRow]) -> tuple[PairRow, list[PairRow]]:
    """The pair of highest mean total goodput, and every pair not significantly below it
    (identical or tied in the paired comparison over common seeds)."""
    best = max(rows, key=lambda r: r.total.mean)
    tied = []
    for row in rows:
        common = [s for s in best.totals if s in row.totals]
        if row is best or (common and compare_paired(
                [row.totals[s] for s in common],
                [best.totals[s] for s in common])[0] in ("identical", "tied")):
            tied.append(row)
    return best, tied


def _threshold_claims(rows: list[PairRow], window: int) -> list[Claim]:
    if not rows:
        return [Claim("§3.1 (Figure 5)", "maximum goodput at minTh 0.32, maxTh 0.64",
                      "no RED run at the base link setting", "not evaluated", id="C12")]
    best, tied = tied_with_best(rows)
    paper_row = next((r for r in rows if r.pair == PAPER_BEST_PAIR), None)
    detail = (f"maximum at {pair_label(best.pair)}: {best.total.format()} Mb/s; tied with it"
              f" (paired 95 % CI over seeds): {', '.join(pair_label(r.pair) for r in tied)}")
    if paper_row is None:
        verdict = "not evaluated"
        detail += f"; {pair_label(PAPER_BEST_PAIR)} was not run"
    else:
        detail += f"; {pair_label(PAPER_BEST_PAIR)}: {paper_row.total.format()} Mb/s"
        verdict = "agree" if any(r is paper_row for r in tied) else "disagree"
    claims = [Claim("§3.1 (Figure 5)",
                    f"maximum total goodput at minTh/maxTh = 0.32/0.64 (window {FOCUS_WINDOW})",
                    detail + f" (window {window})", verdict, id="C12")]
    if len(rows) >= 3:
        drops = [(a, b) for a, b in zip(rows, rows[1:], strict=False) if b.tcp.mean < a.tcp.low]
        udp = [r.udp.mean for r in rows]
        spread = (max(udp) - min(udp)) / max(sum(udp) / len(udp), 1e-9)
        claims.append(Claim(
            "§3.1 (Figure 5)",
            "TCP goodput does not decrease as the thresholds grow; UDP goodput hardly changes",
            f"TCP falls below the previous pair's interval {len(drops)} time(s) of"
            f" {len(rows) - 1} steps; UDP spread {spread:.0%} of its mean"
            f" ({min(udp):.3f}–{max(udp):.3f} Mb/s)",
            "agree" if not drops and spread <= 0.1 else "partly" if not drops or spread <= 0.1
            else "disagree", id="C13"))
    return claims


def _new_claims(study: Study, cells_by_link: dict[Link, list[Cell]], pair_rows: list[PairRow],
                wg_spread: float | None) -> list[Claim]:
    """The plan's held-out statements that had no claim before: S15, S17, S18, S26, S29."""
    claims = []
    base = {(c.window, c.queue): c for c in cells_by_link.get(BASE_LINK, [])}
    if len(study.windows) > 1:
        w0, w1 = study.windows[:2]
        pairs = [(base[(w0, q)], base[(w1, q)]) for q in study.queues
                 if (w0, q) in base and (w1, q) in base]
        lower = [a for a, b in pairs
                 if a.droptail.mean < b.droptail.mean and a.red.mean < b.red.mean]
        claims.append(Claim(
            "§2.1", f"a low receiver window ({w0}) suppresses the goodput of both RED and"
            " DropTail",
            f"DropTail and best RED at window {w0} below window {w1}'s at {len(lower)} of"
            f" {len(pairs)} queue sizes; at queue {study.queues[-1]}:"
            f" {base[(w0, study.queues[-1])].droptail.mean:.3f} vs"
            f" {base[(w1, study.queues[-1])].droptail.mean:.3f} Mb/s (DropTail)"
            if pairs and (w0, study.queues[-1]) in base and (w1, study.queues[-1]) in base
            else f"{len(lower)} of {len(pairs)} queue sizes",
            _share_verdict(len(lower), len(pairs)) if pairs else "not evaluated", id="C14"))
    lost = [c for cells in cells_by_link.values() for c in cells if c.droptail_ahead]
    if lost:
        more = [c for c in lost if c.red_drops > c.droptail_drops]
        claims.append(Claim(
            "§2.1", "where DropTail is ahead, RED drops more packets than DropTail",
            f"RED's best pair drops more in {len(more)} of the {len(lost)} cells with"
            " DropTail significantly ahead (Wait = Gentle = true, every link setting)",
            _share_verdict(len(more), len(lost)), id="C15"))
    else:
        claims.append(Claim(
            "§2.1", "where DropTail is ahead, RED drops more packets than DropTail",
            "no cell has DropTail significantly ahead (Wait = Gentle = true)",
            "not evaluated", id="C15"))
    if base:
        falls = []
        for window in study.windows:
            row = [base[(window, q)] for q in study.queues if (window, q) in base]
            for a, b in zip(row, row[1:], strict=False):
                for name, ea, eb in (("DropTail", a.droptail, b.droptail),
                                     ("RED", a.red, b.red)):
                    if eb.mean < ea.low:
                        falls.append(f"{name} window {window}, queue {a.queue}→{b.queue}")
        claims.append(Claim(
            "§2.2", "at a fixed window, goodput does not decrease as the queue size grows"
            " (RED and DropTail)",
            f"{len(falls)} fall(s) below the previous queue size's 95 % interval"
            + (": " + "; ".join(falls[:4]) if falls else "") + f" ({link_label(BASE_LINK)})",
            "agree" if not falls else "partly" if len(falls) <= 2 else "disagree", id="C16"))
    if wg_spread is not None and len(pair_rows) > 1:
        pair_spread = max(r.total.mean for r in pair_rows) - min(r.total.mean for r in pair_rows)
        claims.append(Claim(
            "§3.2", "Wait and Gentle change the goodput less than the threshold pairs do",
            f"spread of best RED over {{Wait, Gentle}}: {wg_spread:.4f} Mb/s; over the pairs"
            f" (Wait = Gentle = true): {pair_spread:.4f} Mb/s (window {_focus_window(study)},"
            " mean over the queue sizes)",
            _verdict(wg_spread < pair_spread), id="C17"))
    every = [c for cells in cells_by_link.values() for c in cells if c.droptail.mean > 0]
    if every:
        widest = max(every, key=lambda c: abs(c.difference.mean) / c.droptail.mean)
        share = abs(widest.difference.mean) / widest.droptail.mean
        claims.append(Claim(
            "§4", "the gap between RED's and DropTail's goodput is not that distinct",
            f"largest |best RED − DropTail|: {widest.difference.format()} Mb/s, {share:.1%} of"
            f" DropTail's ({link_label(widest.link)}, window {widest.window}, queue"
            f" {widest.queue}); our criterion: under {DISTINCT_GAP:.0%}",
            _verdict(share < DISTINCT_GAP), id="C18"))
    return claims


# ----------------------------------------------------------------- entry point


def make_figures(db_path: Path, out_dir: Path) -> FigureSet:
    """Write every figure and table of the study from the database ``db_path``, and the
    calibration and variant figures from the variants database beside it when it exists."""
    # Imported here: the variants module builds on this one's Study.
    from qdisclab.figures import red_vs_droptail_variants as variants

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

    # fig1 … fig4 (and beyond, for link settings the paper did not use).
    cells_by_link: dict[Link, list[Cell]] = {}
    for link in study.links:
        cells = study.cells(link, TT)
        cells_by_link[link] = cells
        if not cells:
            continue
        number = _figure_number(link, study)
        paper = (f" The paper: {PAPER_TABLE1[TT][LINKS.index(link)]} of 25."
                 if link in LINKS else "")
        result.artifacts.append(figure_artifact(
            grid_figure(study, link, cells, number), out_dir, f"fig{number}", CELL_HEADER,
            (_cell_row(c, TT) for c in cells),
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
                table=_table1_html(table, study),
            )
        )

    # fig5: threshold pairs.
    window = _focus_window(study)
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
            if row[0] == "Red" and math.isfinite(row[4]):
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

    result.claims += _table_claims(table)
    result.claims += _grid_claims(study, cells_by_link)
    result.claims += _threshold_claims(pair_rows, window) if window else []
    result.claims += _new_claims(study, cells_by_link, pair_rows, wg_spread)

    # The calibration and the cause-demonstrating variants (their own campaign).
    found = variants.load(variants_db(db_path, NAME))
    if found is None:
        result.notes.append("The variants campaign (red-vs-droptail-variants) was not run:"
                            " no sensitivity figure, and no run-backed causes.")
    else:
        result.artifacts += variants.artifacts(found, out_dir)
        result.notes += variants.notes(found)
    causes = variants.causes(found)
    for claim in result.claims:
        if claim.verdict in VERDICTS_NEEDING_CAUSE:
            claim.cause = causes.get(claim.id, "no variant of the plan changes this claim's"
                                     " cause" if found else "variant not run")
    return result


def _table1_html(table: dict[tuple[WaitGentle, Link], Counts], study: Study) -> TableData:
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
