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

Decisions are made on seed means; every mean comes with its 95 % Student-t
interval over seeds, and a difference is *significant* when the interval of the
paired per-seed difference (same RngRun, best-RED minus DropTail) excludes zero.
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
from qdisclab.figures import Artifact, Claim, FigureSet, TableData
from qdisclab.figures.common import (
    NO_ESTIMATE,
    Estimate,
    figure_artifact,
    load_campaign_runs,
    runs_note,
    t_interval,
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


@dataclass(frozen=True)
class Cell:
    """Best RED vs DropTail in one (link, window, queue, Wait, Gentle) cell."""

    link: Link
    window: int
    queue: int
    droptail: Estimate
    red: Estimate  # the best threshold pair's total goodput
    pair: Pair | None
    difference: Estimate  # paired per-seed best-RED minus DropTail

    @property
    def red_ge_droptail(self) -> bool:
        """The paper's criterion, on seed means (ties within 1e-9 relative count as equal)."""
        tolerance = 1e-9 * max(1.0, abs(self.droptail.mean))
        return self.red.mean >= self.droptail.mean - tolerance

    @property
    def red_better_significant(self) -> bool:
        """Best RED above DropTail, with the paired interval excluding zero."""
        return self.difference.excludes_zero() and self.difference.mean > 0

    @property
    def droptail_better_significant(self) -> bool:
        """DropTail above best RED, with the paired interval excluding zero."""
        return self.difference.excludes_zero() and self.difference.mean < 0


class Study:
    """The campaign's ``ok`` runs, indexed by the study's factors."""

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

    def best_pair(self, link, window, queue, wg) -> tuple[Pair | None, Estimate]:
        """The threshold pair with the highest mean total goodput, and its estimate."""
        best: tuple[Pair | None, Estimate] = (None, NO_ESTIMATE)
        for pair in self.pairs:
            estimate = t_interval(self.red_values(link, window, queue, wg, pair).values())
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
        pair, red = self.best_pair(link, window, queue, wg)
        if not droptail or pair is None:
            return None
        red_values = self.red_values(link, window, queue, wg, pair)
        common = sorted(droptail.keys() & red_values.keys())
        difference = t_interval(red_values[s] - droptail[s] for s in common)
        return Cell(link, window, queue, t_interval(droptail.values()), red, pair, difference)

    def cells(self, link: Link, wg: WaitGentle) -> list[Cell]:
        """Every complete cell of a link setting, windows outer, queues inner."""
        cells = []
        for window in self.windows:
            for queue in self.queues:
                if (cell := self.cell(link, window, queue, wg)) is not None:
                    cells.append(cell)
        return cells


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
    "diff_mean", "diff_ci95", "diff_n", "red_ge_droptail",
)


def _cell_row(cell: Cell, wg: WaitGentle) -> list:
    return [
        cell.link[0], cell.link[1], wg[0], wg[1], cell.window, cell.queue,
        cell.droptail.mean, cell.droptail.half_width, cell.droptail.n,
        cell.red.mean, cell.red.half_width, cell.red.n,
        cell.pair[0] if cell.pair else None, cell.pair[1] if cell.pair else None,
        cell.difference.mean, cell.difference.half_width, cell.difference.n,
        cell.red_ge_droptail,
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
            if not c.red_ge_droptail:
                axis.annotate("DT", (x, c.droptail.mean), textcoords="offset points",
                              xytext=(0, 6), ha="center", fontsize=7, color="C0")
    axes[0].set_ylabel("goodput, TCP + UDP (Mb/s)")
    axes[0].legend(fontsize=8, loc="lower right")
    wins = sum(c.red_ge_droptail for c in cells)
    fig.suptitle(
        f"Figure {number}: RED (best of {len(study.pairs)} threshold pairs) vs DropTail,"
        f" {link_label(link)}, Wait=Gentle=true — RED ≥ DropTail in {wins} of {len(cells)}"
        " (mean ± 95 % CI over seeds; \u201cDT\u201d: DropTail ahead)",
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


def threshold_rows(study: Study, link: Link, window: int, wg: WaitGentle) -> list[PairRow]:
    """Per pair: per-seed mean over the queue sizes, then the t interval over seeds."""
    # Only queue sizes every pair has, so that the pairs' averages are comparable.
    pairs = [p for p in study.pairs
             if any(study.red_values(link, window, q, wg, p) for q in study.queues)]
    queues = [q for q in study.queues
              if all(study.red_values(link, window, q, wg, p) for p in pairs)]
    rows = []
    for pair in pairs if queues else []:
        per_metric = {}
        for metric in (TCP, UDP, TOTAL):
            by_queue = {q: study.red_values(link, window, q, wg, pair, metric) for q in queues}
            seeds = set.intersection(*(set(values) for values in by_queue.values()))
            per_metric[metric] = t_interval(
                sum(by_queue[q][s] for q in queues) / len(queues) for s in sorted(seeds)
            )
        per_queue = {
            q: t_interval(study.red_values(link, window, q, wg, pair).values()) for q in queues
        }
        rows.append(PairRow(pair, per_metric[TCP], per_metric[UDP], per_metric[TOTAL], per_queue))
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


def _table_claims(table: dict[tuple[WaitGentle, Link], tuple[int, int]]) -> list[Claim]:
    claims = []
    compared = [
        (wg, link, k, n, PAPER_TABLE1[wg][LINKS.index(link)])
        for (wg, link), (k, n) in table.items()
        if wg in PAPER_TABLE1 and link in LINKS and n
    ]
    if not compared:
        return [Claim("Table 1", "RED ≥ DropTail counts per {Wait, Gentle} × link setting",
                      "no cell of the table was run", "not evaluated")]
    close = [c for c in compared if abs(c[2] * PAPER_CELLS / c[3] - c[4]) <= TABLE_TOLERANCE]
    worst = max(compared, key=lambda c: abs(c[2] * PAPER_CELLS / c[3] - c[4]))
    claims.append(
        Claim(
            "Table 1",
            "RED ≥ DropTail in k of 25 cases, 16 counts (4 {Wait, Gentle} × 4 link settings),"
            " k from 6 to 18",
            f"{len(close)} of the {len(compared)} counts we have are within ±{TABLE_TOLERANCE}"
            f" of the paper's (ours scaled to 25 cells); largest gap: {wg_label(worst[0])},"
            f" {link_label(worst[1])}: ours {worst[2]} of {worst[3]} vs paper {worst[4]} of 25",
            "agree" if len(close) == len(compared) else "partly" if close else "disagree",
        )
    )
    # Majority of wins for every link but 1 Mb/s 10 ms, where DropTail wins most.
    sides = []
    for _, _, k, n, paper in compared:
        sides.append((2 * k > n) == (2 * paper > PAPER_CELLS))
    claims.append(
        Claim(
            "Table 1",
            "RED ≥ DropTail in most cells except at 1 Mb/s, 10 ms, where DropTail is ahead"
            " in most (6–8 of 25)",
            f"same majority side in {sum(sides)} of {len(sides)} table cells; at 1 Mb/s, 10 ms: "
            + ", ".join(
                f"{wg_label(wg)} {k}/{n}" for wg, link, k, n, _ in compared if link == LINKS[1]
            ) if any(link == LINKS[1] for _, link, *_ in compared) else
            f"same majority side in {sum(sides)} of {len(sides)} table cells",
            "agree" if all(sides) else "partly" if any(sides) else "disagree",
        )
    )
    # Wait=Gentle=true gives the most wins except at 0.5 Mb/s.
    by_link = defaultdict(dict)
    for wg, link, k, n, _ in compared:
        by_link[link][wg] = k / n
    checks = []
    for link, shares in by_link.items():
        if TT in shares and len(shares) > 1:
            tt_best = shares[TT] >= max(shares.values())
            checks.append((link, tt_best, tt_best == (link != LINKS[3])))
    if checks:
        claims.append(
            Claim(
                "Table 1 / §3.2",
                "Wait = Gentle = true gives RED the most wins for every link setting except"
                " 0.5 Mb/s, 20 ms",
                "; ".join(f"{link_label(link)}: TT {'is' if best else 'is not'} (one of) the best"
                          for link, best, _ in checks),
                "agree" if all(c[2] for c in checks) else "partly" if any(c[2] for c in checks)
                else "disagree",
            )
        )
    return claims


def _grid_claims(study: Study, cells_by_link: dict[Link, list[Cell]]) -> list[Claim]:
    claims = []
    base = {(c.window, c.queue): c for c in cells_by_link.get(BASE_LINK, [])}
    if base:
        k = sum(c.red_ge_droptail for c in base.values())
        claims.append(
            Claim(
                "§2.1 (Figure 1)",
                "1 Mb/s, 20 ms, Wait = Gentle = true: RED ≥ DropTail in 17 of 25 cases",
                f"{k} of {len(base)}"
                f" ({sum(c.red_better_significant for c in base.values())} significantly better,"
                f" {sum(c.droptail_better_significant for c in base.values())}"
                " significantly worse)",
                _verdict(abs(k * PAPER_CELLS / len(base) - 17) <= TABLE_TOLERANCE),
            )
        )
        for (where, cell_id, sign, who) in (
            ("§2.1", PAPER_RED_LARGEST, 1, "RED"),
            ("§2.1", PAPER_DROPTAIL_LARGEST, -1, "DropTail"),
        ):
            if cell_id not in base:
                claims.append(Claim(where, f"largest {who} advantage at window {cell_id[0]},"
                                    f" queue {cell_id[1]}", "cell not run", "not evaluated"))
                continue
            extreme = max(base.values(), key=lambda c: sign * c.difference.mean)
            claims.append(
                Claim(
                    where,
                    f"largest {who} advantage at window {cell_id[0]}, queue {cell_id[1]}",
                    f"largest at window {extreme.window}, queue {extreme.queue}"
                    f" ({extreme.difference.format()} Mb/s, best RED − DropTail); at"
                    f" ({cell_id[0]}, {cell_id[1]}): {base[cell_id].difference.format()} Mb/s",
                    _verdict((extreme.window, extreme.queue) == cell_id),
                )
            )
        small = [base[(2000, q)] for q in (16000, 32000, 64000) if (2000, q) in base]
        if small:
            equal = [c for c in small
                     if abs(c.difference.mean) <= max(1e-6, 0.01 * abs(c.droptail.mean))]
            claims.append(
                Claim(
                    "§2.1",
                    "window 2000, queue ≥ 16000: RED and DropTail give the same goodput",
                    f"equal within 1 % in {len(equal)} of {len(small)}: "
                    + ", ".join(f"queue {c.queue}: {c.difference.format(4)} Mb/s" for c in small),
                    _verdict(len(equal) == len(small)),
                )
            )
        below = [c for c in base.values() if c.queue <= c.window]
        if below:
            losses = sum(not c.red_ge_droptail for c in below)
            claims.append(
                Claim(
                    "§2.2",
                    "queue ≤ window (15 cases): DropTail ahead in only 1",
                    f"DropTail ahead in {losses} of {len(below)}",
                    _verdict(losses <= max(1, round(len(below) / 15))),
                )
            )
    window = _focus_window(study)
    for link, who, paper in (
        (LINKS[2], "RED", "1 Mb/s, 30 ms: RED ≥ DropTail at every queue size"),
        (LINKS[1], "DropTail", "1 Mb/s, 10 ms: DropTail ≥ RED at every queue size"),
    ):
        row = [c for c in cells_by_link.get(link, []) if c.window == window]
        if not row:
            claims.append(Claim("§2.3", paper + f" (window {FOCUS_WINDOW})", "not run",
                                "not evaluated"))
            continue
        if who == "RED":
            hits = sum(c.red_ge_droptail for c in row)
        else:
            hits = sum(c.red.mean <= c.droptail.mean + 1e-9 for c in row)
        claims.append(
            Claim(
                "§2.3",
                paper + f" (window {FOCUS_WINDOW})",
                f"{who} ≥ the other in {hits} of {len(row)} queue sizes (window {window}): "
                + ", ".join(f"{_kilo(c.queue)}: {c.difference.mean:+.3f}" for c in row)
                + " Mb/s",
                "agree" if hits == len(row) else "partly" if hits else "disagree",
            )
        )
    half = LINKS[3]
    small_w, large_w = (study.windows[0], study.windows[-1]) if study.windows else (None, None)
    ratios = {}
    for w in (small_w, large_w):
        full = [t_interval(study.droptail_values(BASE_LINK, w, q).values()).mean
                for q in study.queues]
        slow = [t_interval(study.droptail_values(half, w, q).values()).mean for q in study.queues]
        pairs = [(f, s) for f, s in zip(full, slow, strict=True)
                 if math.isfinite(f) and math.isfinite(s) and f > 0]
        if pairs:
            ratios[w] = sum(s for _, s in pairs) / sum(f for f, _ in pairs)
    if len(ratios) == 2 and small_w != large_w:
        ok = abs(ratios[small_w] - 0.5) <= 0.1 and ratios[large_w] > ratios[small_w]
        claims.append(
            Claim(
                "§2.3",
                "halving the link rate halves goodput at small windows, less than halves it"
                " at large ones",
                f"DropTail goodput at 0.5 Mb/s ÷ at 1 Mb/s (20 ms, mean over queue sizes):"
                f" {ratios[small_w]:.2f} at window {small_w}, {ratios[large_w]:.2f} at"
                f" window {large_w}",
                _verdict(ok),
            )
        )
    return claims


def _threshold_claims(rows: list[PairRow], window: int) -> list[Claim]:
    if not rows:
        return [Claim("§3.1 (Figure 5)", "maximum goodput at minTh 0.32, maxTh 0.64",
                      "no RED run at the base link setting", "not evaluated")]
    best = max(rows, key=lambda r: r.total.mean)
    tied = [r for r in rows if r.total.mean >= best.total.mean - 1e-9 * abs(best.total.mean)]
    claims = []
    paper_row = next((r for r in rows if r.pair == PAPER_BEST_PAIR), None)
    detail = (f"maximum at {' = '.join(pair_label(r.pair) for r in tied)}:"
              f" {best.total.format()} Mb/s")
    if paper_row is None:
        verdict = "not evaluated"
        detail += f"; {pair_label(PAPER_BEST_PAIR)} was not run"
    elif any(r is paper_row for r in tied):
        verdict = "agree"
    else:
        overlap = paper_row.total.high >= best.total.low
        detail += (f"; {pair_label(PAPER_BEST_PAIR)}: {paper_row.total.format()} Mb/s"
                   + (" (intervals overlap)" if overlap else ""))
        verdict = "partly" if overlap else "disagree"
    claims.append(Claim("§3.1 (Figure 5)",
                        f"maximum total goodput at minTh/maxTh = 0.32/0.64 (window {FOCUS_WINDOW})",
                        detail + f" (window {window})", verdict))
    if len(rows) >= 3:
        drops = [(a, b) for a, b in zip(rows, rows[1:], strict=False) if b.tcp.mean < a.tcp.low]
        udp = [r.udp.mean for r in rows]
        spread = (max(udp) - min(udp)) / max(sum(udp) / len(udp), 1e-9)
        claims.append(
            Claim(
                "§3.1 (Figure 5)",
                "TCP goodput does not decrease as the thresholds grow; UDP goodput hardly changes",
                f"TCP falls below the previous pair's interval {len(drops)} time(s) of"
                f" {len(rows) - 1} steps; UDP spread {spread:.0%} of its mean"
                f" ({min(udp):.3f}–{max(udp):.3f} Mb/s)",
                "agree" if not drops and spread <= 0.1 else "partly" if not drops or spread <= 0.1
                else "disagree",
            )
        )
    return claims


# ----------------------------------------------------------------- entry point


def make_figures(db_path: Path, out_dir: Path) -> FigureSet:
    """Write every figure and table of the study from the database ``db_path``."""
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
    result.notes.append(
        "Best RED is the maximum of the pairs' seed means, which favours RED slightly"
        " (the maximum of noisy means is biased upwards); the paired per-seed difference"
        " shows whether a gap is larger than the noise."
    )

    # fig1 … fig4 (and beyond, for link settings the paper did not use).
    cells_by_link: dict[Link, list[Cell]] = {}
    for link in study.links:
        cells = study.cells(link, TT)
        cells_by_link[link] = cells
        if not cells:
            continue
        number = _figure_number(link, study)
        wins = sum(c.red_ge_droptail for c in cells)
        paper = (f" The paper: {PAPER_TABLE1[TT][LINKS.index(link)]} of 25."
                 if link in LINKS else "")
        result.artifacts.append(figure_artifact(
            grid_figure(study, link, cells, number), out_dir, f"fig{number}", CELL_HEADER,
            (_cell_row(c, TT) for c in cells),
            f"Figure {number}: best RED vs DropTail, {link_label(link)}",
            f"Total goodput over receiver window × queue limit, Wait = Gentle = true."
            f" Best RED ≥ DropTail in {wins} of {len(cells)} cells.{paper}",
        ))

    # table1: win counts per {Wait, Gentle} × link setting.
    table: dict[tuple[WaitGentle, Link], tuple[int, int]] = {}
    rows = []
    for wg in study.wait_gentle:
        for link in study.links:
            cells = study.cells(link, wg)
            if not cells:
                continue
            k = sum(c.red_ge_droptail for c in cells)
            table[(wg, link)] = (k, len(cells))
            paper = PAPER_TABLE1[wg][LINKS.index(link)] if link in LINKS else None
            rows.append([
                wg[0], wg[1], link[0], link[1], len(cells), k,
                round(k * PAPER_CELLS / len(cells), 2), paper,
                sum(c.red_better_significant for c in cells),
                sum(c.droptail_better_significant for c in cells),
            ])
    if rows:
        csv = write_csv(
            out_dir / "table1.csv",
            ("wait", "gentle", "bottleneckRate", "bottleneckDelay", "cells", "red_ge_droptail",
             "red_ge_droptail_of_25", "paper_of_25", "red_better_significant",
             "droptail_better_significant"),
            rows,
        )
        result.artifacts.append(
            Artifact(
                "table1",
                "Table 1: cases where best RED ≥ DropTail, per {Wait, Gentle} × link setting",
                f"Ours as k of n cells (and scaled to 25), beside the paper's k of 25; in"
                f" brackets: cells where RED / DropTail is significantly ahead (paired 95 % CI"
                f" over seeds). Agreement: within ±{TABLE_TOLERANCE} of 25.",
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
    if window and len(study.wait_gentle) > 1 and BASE_LINK in study.links:
        fig, wg_rows = wait_gentle_figure(study, BASE_LINK, window)
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
    return result


def _table1_html(table: dict[tuple[WaitGentle, Link], tuple[int, int]], study: Study) -> TableData:
    links = [link for link in study.links if any((wg, link) in table for wg in WAIT_GENTLE)]
    columns = ["{Wait, Gentle}", *(link_label(link) for link in links)]
    rows = []
    for wg in study.wait_gentle:
        cells = [wg_label(wg)]
        for link in links:
            if (wg, link) not in table:
                cells.append("–")
                continue
            k, n = table[(wg, link)]
            paper = PAPER_TABLE1[wg][LINKS.index(link)] if link in LINKS else None
            cell_list = study.cells(link, wg)
            better = sum(c.red_better_significant for c in cell_list)
            worse = sum(c.droptail_better_significant for c in cell_list)
            text = f"{k}/{n}"
            if n != PAPER_CELLS:
                text += f" (≈{k * PAPER_CELLS / n:.0f}/25)"
            text += f" [{better}↑ {worse}↓]"
            if paper is not None:
                text += f" — paper {paper}/25"
            cells.append(text)
        rows.append(cells)
    return TableData(columns, rows)
