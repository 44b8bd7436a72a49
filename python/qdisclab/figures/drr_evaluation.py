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
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from qdisclab.campaign.store import RunRecord
from qdisclab.factorial import MINUS, FactorialError, FactorialResult, analyze
from qdisclab.figures import Artifact, Claim, FigureSet, TableData
from qdisclab.figures.common import (
    NO_ESTIMATE,
    Estimate,
    figure_artifact,
    load_campaign_runs,
    parse_bytes,
    parse_mbps,
    runs_note,
    t_interval,
    variants_db,
    write_csv,
)

NAME = "drr-evaluation"
STD = "throughput_std_kbps"
DELAY = "mean_delay_s"
RATIO = "arrival_ratio"
CONFIDENCE = 0.95

# ----------------------------------------------------------------- the paper's numbers

#: Number of flows in the fairness experiment (§3).
FLOWS = 10
#: Mappings of flows to buckets, the paper's (ns-2's) first.
MAPPINGS = ("sequential", "hash")
MAPPING_LABELS = {
    "sequential": "ns-2 mapping (sender k → bucket k mod Buckets)",
    "hash": "DrrQueueDisc's hash (random perturbation per run)",
}

#: Fig. 3's source rate is not given unambiguously ("1 Mb", on/off 3 s / 0.3 s): its readings
#: (doc: "The source rate's readings") as (onRate, meanOn s, meanOff s, meaning). R1 is the
#: final campaign's; R2-R5 run in the variant campaign's ``fig3-rates`` grid.
READINGS: dict[str, tuple[str, float, float, str]] = {
    "R1": ("1Mbps", 3.0, 0.3, "1 Mb/s while on (the access link's rate)"),
    "R2": ("333333bps", 3.0, 0.3, "1 Mbit per mean 3 s on period"),
    "R3": ("100kbps", 3.0, 0.3, "1 Mb/s shared by the ten sources"),
    "R4": ("64kbps", 3.0, 0.3, "ns-2's default rate_ of its exponential source"),
    "R5": ("1Mbps", 0.3, 3.0, "1 Mb/s with on and off swapped"),
}
#: Buckets values drawn in the sensitivity figure (one line each).
RATE_FIGURE_BUCKETS = (4, 8, 10, 16)


def offered_load(reading: str, flows: int = FLOWS, bottleneck_mbps: float = 1.0) -> float:
    """Mean offered load of a reading over the bottleneck rate (ten sources, 1 Mb/s)."""
    rate, on, off, _ = READINGS[reading]
    return flows * parse_mbps(rate) * on / (on + off) / bottleneck_mbps


def reading_of(params: dict) -> str | None:
    """The reading (R1 ..) of a fairness run's resolved parameters; None for another rate."""
    for name, (rate, on, off, _) in READINGS.items():
        if (math.isclose(params["onRate"], parse_mbps(rate), rel_tol=1e-9)
                and math.isclose(params["meanOn"], on) and math.isclose(params["meanOff"], off)):
            return name
    return None


#: The factorial's factors, in the paper's order, and their levels (−1, +1).
FACTORS = ("P", "B", "Q")
P_LEVELS = (500, 1000)  # bytes
B_LEVELS = (1.0, 1.5)  # Mb/s
Q_LEVELS = ("DropTail", "Drr")
Q_LABELS = {"DropTail": "DropTail", "Drr": "DRR"}
EFFECTS = ("P", "B", "Q", "PB", "PQ", "BQ", "PBQ")

Cell = tuple[int, float, str]  # (P bytes, B Mb/s, queueDisc)

#: Table 2: mean delay (s) of the measured flow.
PAPER_TABLE2: dict[Cell, float] = {
    (500, 1.0, "DropTail"): 1.52971, (500, 1.0, "Drr"): 1.56103,
    (1000, 1.0, "DropTail"): 3.23200, (1000, 1.0, "Drr"): 1.61920,
    (500, 1.5, "DropTail"): 0.89872, (500, 1.5, "Drr"): 0.91565,
    (1000, 1.5, "DropTail"): 2.06929, (1000, 1.5, "Drr"): 1.05314,
}
#: Table 4: packet arrival ratio of the measured flow.
PAPER_TABLE4: dict[Cell, float] = {
    (500, 1.0, "DropTail"): 0.646, (500, 1.0, "Drr"): 0.646,
    (1000, 1.0, "DropTail"): 0.535, (1000, 1.0, "Drr"): 0.524,
    (500, 1.5, "DropTail"): 0.949, (500, 1.5, "Drr"): 0.949,
    (1000, 1.5, "DropTail"): 0.779, (1000, 1.5, "Drr"): 0.767,
}
#: Table 3 / Table 5: percentage of variation explained.
PAPER_TABLE3 = {"P": 28.37, "B": 27.21, "Q": 20.07, "PB": 0.62, "PQ": 21.59, "BQ": 1.02,
                "PBQ": 1.12}
PAPER_TABLE5 = {"P": 22.04923, "B": 76.9701, "Q": 0.034083, "PB": 0.91238, "PQ": 0.034083,
                "BQ": 6.4429e-05, "PBQ": 6.4429e-05}
#: Equations (1) and (3) as printed: coefficients by effect ("I" = the mean q0).
PAPER_EQ1 = {"I": 1.61, "P": 0.38, "B": -0.37, "Q": -0.32, "PB": -0.06, "PQ": -0.33, "BQ": 0.07,
             "PBQ": 0.08}
PAPER_EQ3 = {"I": 0.72, "P": -0.07, "B": 0.14, "Q": -0.003, "PB": -0.01, "PQ": -0.0001,
             "BQ": -0.003, "PBQ": -0.0001}
PAPER_EQ1_TEXT = (f"y = 1.61 + 0.38xP {MINUS} 0.37xB {MINUS} 0.32xQ {MINUS} 0.06xPxB + 0.07xBxQ"
                  f" {MINUS} 0.33xQxP + 0.08xPxBxQ")
PAPER_EQ3_TEXT = (f"y = 0.72 {MINUS} 0.07xP + 0.14xB {MINUS} 0.003xQ {MINUS} 0.01xPxB"
                  f" {MINUS} 0.003xBxQ {MINUS} 0.0001xQxP {MINUS} 0.0001xPxBxQ")

#: The calibration's anchor cells (plan: S15, S16, S22): one number per buffer and one for
#: the background; their claims are re-scoped to the other cells.
DELAY_ANCHORS: tuple[Cell, ...] = ((1000, 1.0, "DropTail"), (1000, 1.0, "Drr"))
RATIO_ANCHOR: Cell = (500, 1.5, "DropTail")

#: The buffers chosen on the anchor cells (doc: "Calibration result"): DropTail's limit in
#: packets, DRR's blimit_ with ns-2's head drop and with tail drop (the variant).
DROPTAIL_LIMIT = "400p"
DRR_BLIMIT_HEAD = "650000B"
DRR_BLIMIT_TAIL = "200000B"

#: The factorial's background as (background flows, bgPacketSize (0 = P), bgIntervalMin,
#: bgIntervalMax ms): the final campaign's (chosen on S22), and the variant campaign's sizes.
Background = tuple[int, int, float, float]
BACKGROUND: Background = (1, 1000, 5.0, 15.0)

#: Queue configurations of the factorial designs: Q's two halves as
#: (queueDisc, maxSize, dropFrom) with the program's defaults filled in
#: (campaigns/drr-evaluation.toml runs exactly these).
QueueConfig = tuple[str, str, str]
VARIANTS: dict[str, tuple[QueueConfig, QueueConfig]] = {
    "main": (("DropTail", DROPTAIL_LIMIT, ""), ("Drr", DRR_BLIMIT_HEAD, "Head")),
    "drr-tail": (("DropTail", DROPTAIL_LIMIT, ""), ("Drr", DRR_BLIMIT_TAIL, "Tail")),
    "equal-buffers": (("DropTail", DRR_BLIMIT_HEAD, ""), ("Drr", DRR_BLIMIT_HEAD, "Head")),
}
VARIANT_LABELS = {
    "main": "ours",
    "drr-tail": "ours, DRR tail drop",
    "equal-buffers": f"ours, DropTail {parse_bytes(DRR_BLIMIT_HEAD)} B",
}

# ----------------------------------------------------------------- parameters


def _size_label(size: int) -> str:
    return f"{size // 1000}k" if size % 1000 == 0 else f"{size / 1000:g}k"


def resolved(params: dict) -> dict:
    """A run's parameters with the example's defaults filled in (only those used here)."""
    scenario = params.get("scenario", "fairness")
    queue = params.get("queueDisc", "Drr")
    fairness = scenario == "fairness"
    default_size = "25000B" if fairness else ("200000B" if queue == "Drr" else "400p")
    interval = (float(params.get("intervalMin", 2.5)), float(params.get("intervalMax", 7.5)))
    return {
        "scenario": scenario,
        "queueDisc": queue,
        "maxSize": str(params.get("maxSize", default_size)),
        "dropFrom": str(params.get("dropFrom", "Head")) if queue == "Drr" else "",
        "buckets": int(params.get("buckets", 10)),
        "flowMapping": str(params.get("flowMapping", "sequential")),
        "packetSizeMin": int(params.get("packetSizeMin", 1400 if fairness else 500)),
        "packetSizeMax": int(params.get("packetSizeMax", 1600 if fairness else 500)),
        "bottleneckRate": parse_mbps(params.get("bottleneckRate", "1Mbps")),
        "nFlows": int(params.get("nFlows", FLOWS if fairness else 2)),
        "onRate": parse_mbps(params.get("onRate", "1Mbps")),
        "meanOn": float(params.get("meanOn", 3)),
        "meanOff": float(params.get("meanOff", 0.3)),
        "background": (
            int(params.get("nFlows", 2)) - 1,
            int(params.get("bgPacketSize", 0)),
            float(params.get("bgIntervalMin", 0)) or interval[0],
            float(params.get("bgIntervalMax", 0)) or interval[1],
        ),
    }


def _value(metrics: dict | None, name: str) -> float | None:
    value = (metrics or {}).get(name)
    return float(value) if value is not None and math.isfinite(value) else None


# ----------------------------------------------------------------- fig3: fairness


class Fairness:
    """The fairness runs of one source-rate reading and flow count, by (mapping, buckets,
    maxSize bytes) and seed."""

    def __init__(self, runs: Iterable[RunRecord], reading: str = "R1", flows: int = FLOWS):
        self.reading = reading
        self.flows = flows
        self.cells: dict[tuple[str, int, int], dict[int, dict]] = defaultdict(dict)
        for run in runs:
            p = resolved(run.params)
            if p["scenario"] != "fairness" or p["queueDisc"] != "Drr" or not run.metrics:
                continue
            if p["nFlows"] != flows or reading_of(p) != reading:
                continue
            size = parse_bytes(p["maxSize"])
            if size is None:
                continue
            self.cells[(p["flowMapping"], p["buckets"], size)][run.seed] = run.metrics
        known = [m for m in MAPPINGS if any(k[0] == m for k in self.cells)]
        self.mappings = known + sorted({k[0] for k in self.cells} - set(known))
        self.buckets = sorted({k[1] for k in self.cells})
        self.sizes = sorted({k[2] for k in self.cells})

    def estimate(self, mapping: str, buckets: int, size: int, metric: str = STD) -> Estimate:
        """Mean and 95 % interval over seeds of ``metric`` in one cell."""
        by_seed = self.cells.get((mapping, buckets, size), {})
        return t_interval(v for m in by_seed.values() if (v := _value(m, metric)) is not None)

    def grid(self, mapping: str, metric: str = STD) -> np.ndarray:
        """Seed means, rows = sizes, columns = buckets (NaN where not run)."""
        return np.array([[self.estimate(mapping, b, s, metric).mean for b in self.buckets]
                         for s in self.sizes], dtype=float)

    def optimum(self, mapping: str) -> tuple[int, int] | None:
        """(buckets, size) of the smallest mean standard deviation."""
        best = None
        for b in self.buckets:
            for s in self.sizes:
                e = self.estimate(mapping, b, s)
                if e.n and (best is None or e.mean < best[0]):
                    best = (e.mean, b, s)
        return None if best is None else (best[1], best[2])


def _errorbar(axis, xs, estimates: list[Estimate], **style) -> None:
    means = [e.mean for e in estimates]
    errors = [e.half_width if math.isfinite(e.half_width) else 0.0 for e in estimates]
    axis.errorbar(xs, means, yerr=errors, capsize=3, marker="o", markersize=3.5, lw=1.2, **style)


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
        axis.set_yticks(range(len(study.sizes)), [_size_label(s) for s in study.sizes])
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
            _errorbar(left, xs, estimates, color=f"C{i}", ls=styles.get(mapping, ":"),
                      label=f"{_size_label(size)} B, {mapping}")
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
            _errorbar(right, [s / 1000 for s in sizes], estimates, color=f"C{i + 3}",
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


# ----------------------------------------------------------------- fig3 claims


def _fmt(value: float, digits: int = 1) -> str:
    return "–" if not math.isfinite(value) else f"{value:.{digits}f}"


def _overlap(a: Estimate, b: Estimate) -> bool:
    """Whether two 95 % intervals overlap (unknown half-widths count as points)."""
    ha = a.half_width if math.isfinite(a.half_width) else 0.0
    hb = b.half_width if math.isfinite(b.half_width) else 0.0
    return a.mean - ha <= b.mean + hb and b.mean - hb <= a.mean + ha


def below_flows_counts(study: Fairness, mapping: str) -> dict[str, list[int]] | None:
    """Per MaxSize, the best (smallest) std. dev. with Buckets < flows against the worst
    (largest) with Buckets ≥ flows: *above* (intervals apart, worse below the flow count),
    *tied* (intervals overlap) or *below*; the MaxSize values of each, None without Buckets
    on both sides."""
    below = [b for b in study.buckets if b < study.flows]
    above = [b for b in study.buckets if b >= study.flows]
    if not below or not above:
        return None
    counts: dict[str, list[int]] = {"above": [], "tied": [], "below": []}
    for size in study.sizes:
        low = [e for b in below if (e := study.estimate(mapping, b, size)).n]
        high = [e for b in above if (e := study.estimate(mapping, b, size)).n]
        if not low or not high:
            continue
        best_low = min(low, key=lambda e: e.mean)
        worst_high = max(high, key=lambda e: e.mean)
        kind = ("tied" if _overlap(best_low, worst_high)
                else "above" if best_low.mean > worst_high.mean else "below")
        counts[kind].append(size)
    return counts


def below_flows_verdict(counts: dict[str, list[int]]) -> str:
    """The plan's rule: agree when above + tied cover every MaxSize and above ≥ 8 of 10."""
    n = sum(len(v) for v in counts.values())
    above, tied = len(counts["above"]), len(counts["tied"])
    if above + tied == n and above >= 0.8 * n:
        return "agree"
    return "partly" if above + tied >= n / 2 else "disagree"


def _worse_below_flows(study: Fairness, mapping: str) -> Claim:
    """Buckets < flows gives a larger std. dev. than Buckets ≥ flows, at every MaxSize."""
    where = "§3, Fig. 3" + ("" if mapping == "sequential" else " (DrrQueueDisc's hash)")
    paper = ("fairness is worse (larger std. dev. of throughput) when buckets_ is smaller"
             f" than the number of flows ({FLOWS}): collisions")
    counts = below_flows_counts(study, mapping)
    if counts is None:
        return Claim(where, paper, "needs Buckets values on both sides of 10", "not evaluated")
    n = sum(len(v) for v in counts.values())
    if not n:
        return Claim(where, paper, "no complete MaxSize column", "not evaluated")
    below = [b for b in study.buckets if b < study.flows]
    above = [b for b in study.buckets if b >= study.flows]
    size = study.sizes[-1]
    low = np.mean([study.estimate(mapping, b, size).mean for b in below])
    high = np.mean([study.estimate(mapping, b, size).mean for b in above])
    collisions = {b: study.estimate(mapping, b, size, "colliding_flows").mean
                  for b in (below[-1], above[0], above[-1])}
    text = (f"{mapping} mapping, {study.reading}: the smallest std. dev. with Buckets <"
            f" {study.flows} is above the largest with Buckets ≥ {study.flows} (95 % CIs apart)"
            f" at {len(counts['above'])} of {n} MaxSize values, tied (CIs overlap) at"
            f" {len(counts['tied'])}, below at {len(counts['below'])}; e.g."
            f" {_size_label(size)} B: mean {_fmt(float(low))} vs {_fmt(float(high))} kb/s."
            f" Colliding flows (of {study.flows}): "
            + ", ".join(f"Buckets {b}: {_fmt(c)}" for b, c in collisions.items()))
    return Claim(where, paper, text, below_flows_verdict(counts))


def threshold_test(study: Fairness, mapping: str = "sequential") -> dict | None:
    """Fig. 3's buffer threshold at Buckets = flows (or the next larger): the smallest and
    largest MaxSize's std. dev., the minimum, the threshold (smallest MaxSize within the
    minimum's interval) and the verdict: *agree* when the smallest MaxSize's interval lies
    above the largest's, *tied* when only its mean does, *disagree* otherwise."""
    above = [b for b in study.buckets if b >= study.flows]
    if len(study.sizes) < 2 or not above:
        return None
    buckets = study.flows if study.flows in above else above[0]
    valid = [(s, e) for s in study.sizes if (e := study.estimate(mapping, buckets, s)).n]
    if len(valid) < 2:
        return None
    smallest, largest = valid[0], valid[-1]
    best = min(valid, key=lambda v: v[1].mean)
    tolerance = best[1].half_width if math.isfinite(best[1].half_width) else 0.0
    threshold = next(s for s, e in valid if e.mean <= best[1].mean + max(tolerance, 1e-9))
    if smallest[1].mean <= largest[1].mean:
        kind = "disagree"
    elif _overlap(smallest[1], largest[1]):
        kind = "tied"
    else:
        kind = "agree"
    return {"buckets": buckets, "smallest": smallest, "largest": largest, "best": best,
            "threshold": threshold, "kind": kind}


def _threshold_text(test: dict, mapping: str, reading: str) -> str:
    (s0, e0), (s1, e1) = test["smallest"], test["largest"]
    return (f"{mapping} mapping, {reading}, Buckets {test['buckets']}: std. dev."
            f" {e0.format(1)} kb/s at {s0} B, {e1.format(1)} kb/s at {s1} B"
            + (" (CIs overlap: tied)" if test["kind"] == "tied" else "")
            + f"; within the minimum's interval from {test['threshold']} B on")


def _buffer_threshold(study: Fairness, mapping: str = "sequential") -> Claim:
    """Below a MaxSize threshold the std. dev. rises (Buckets ≥ flows)."""
    where = "§3, Fig. 3"
    paper = "if blimit_ is below a threshold, flows lack buffer space and fairness suffers"
    test = threshold_test(study, mapping)
    if test is None:
        return Claim(where, paper, "needs two MaxSize values and Buckets ≥ 10", "not evaluated")
    verdict = {"agree": "agree", "tied": "partly", "disagree": "disagree"}[test["kind"]]
    return Claim(where, paper, _threshold_text(test, mapping, study.reading), verdict)


def unimodal_steps(estimates: list[Estimate]) -> tuple[int, int]:
    """Steps that go the wrong way around the minimum: (beyond the noise, within it).

    Before the minimum a slice should not rise, after it not fall; a wrong-way step counts
    as a violation when it is larger than the two points' combined interval half-widths,
    else as a tie.
    """
    means = [e.mean for e in estimates]
    k = int(np.nanargmin(means))
    violations = ties = 0
    for i in range(len(means) - 1):
        a, b = estimates[i], estimates[i + 1]
        noise = math.hypot(*(h if math.isfinite(h) else 0.0 for h in (a.half_width,
                                                                       b.half_width)))
        step = b.mean - a.mean
        wrong = (i < k and step > 0) or (i >= k and step < 0)
        if wrong and abs(step) > noise:
            violations += 1
        elif wrong:
            ties += 1
    return violations, ties


def unimodal_violations(estimates: list[Estimate]) -> int:
    """Wrong-way steps around the minimum beyond the noise (see :func:`unimodal_steps`)."""
    return unimodal_steps(estimates)[0]


def convex_test(study: Fairness, mapping: str = "sequential") -> dict | None:
    """Slices through the minimum (wrong-way steps beyond / within the CIs along Buckets and
    MaxSize), the best Buckets per MaxSize, and the verdict."""
    best = study.optimum(mapping)
    if best is None or len(study.buckets) < 3 or len(study.sizes) < 3:
        return None
    b_opt, s_opt = best
    vb, tb = unimodal_steps([study.estimate(mapping, b, s_opt) for b in study.buckets])
    vs, ts = unimodal_steps([study.estimate(mapping, b_opt, s) for s in study.sizes])
    per_size = {}
    for s in study.sizes:
        row = [(study.estimate(mapping, b, s).mean, b) for b in study.buckets]
        row = [r for r in row if math.isfinite(r[0])]
        if row:
            per_size[s] = min(row)[1]
    verdict = "agree" if vb == 0 and vs == 0 else "partly" if min(vb, vs) == 0 else "disagree"
    return {"best": best, "along_buckets": (vb, tb), "along_sizes": (vs, ts),
            "optima": sorted(set(per_size.values())), "verdict": verdict}


def _convex_optimum(study: Fairness, mapping: str = "sequential") -> Claim:
    """Unimodal (convex-like) slices through the optimum; 1-D optimization per fixed buffer."""
    where = "§3, Fig. 3"
    paper = ("the std. dev. is convex near the optimum, reachable from every direction: with"
             " blimit_ fixed the problem is a one-dimensional optimization of buckets_")
    test = convex_test(study, mapping)
    if test is None:
        return Claim(where, paper, "needs at least 3 × 3 settings", "not evaluated")
    b_opt, s_opt = test["best"]
    (vb, tb), (vs, ts) = test["along_buckets"], test["along_sizes"]
    text = (f"{mapping} mapping, {study.reading}: minimum"
            f" {study.estimate(mapping, b_opt, s_opt).format(1)} kb/s at Buckets {b_opt},"
            f" MaxSize {s_opt} B; slices through it: {vb} step(s) against a single minimum"
            f" along Buckets, {vs} along MaxSize (beyond the 95 % CIs; within them, tied:"
            f" {tb} and {ts}); best Buckets per MaxSize: {', '.join(map(str, test['optima']))}")
    return Claim(where, paper, text, test["verdict"])


# ----------------------------------------------------------------- factorial


@dataclass
class Design:
    """One 2^3 r design: its cells' per-seed responses and the analysis."""

    name: str
    cells: dict[Cell, dict[int, dict]]
    seeds: list[int]  # seeds present in all eight cells (the replications)
    results: dict[str, FactorialResult]
    error: str = ""

    def estimate(self, cell: Cell, metric: str) -> Estimate:
        """Mean and 95 % interval over the design's seeds."""
        by_seed = self.cells.get(cell, {})
        return t_interval(_value(by_seed[s], metric) for s in self.seeds if s in by_seed)

    def values(self, cell: Cell, metric: str) -> dict[int, float]:
        """Per-seed values in a cell (the design's seeds only)."""
        by_seed = self.cells.get(cell, {})
        out = {}
        for seed in self.seeds:
            if seed in by_seed and (v := _value(by_seed[seed], metric)) is not None:
                out[seed] = v
        return out


def factorial_runs(runs: Iterable[RunRecord], background: Background = BACKGROUND
                   ) -> dict[tuple, dict[int, dict]]:
    """Factorial runs with the given background, by (P, B, queue config) and seed."""
    out: dict[tuple, dict[int, dict]] = defaultdict(dict)
    for run in runs:
        p = resolved(run.params)
        if p["scenario"] != "factorial" or not run.metrics or p["background"] != background:
            continue
        if p["packetSizeMin"] != p["packetSizeMax"]:
            continue
        config = (p["queueDisc"], p["maxSize"], p["dropFrom"])
        out[(p["packetSizeMin"], p["bottleneckRate"], config)][run.seed] = run.metrics
    return out


def build_design(name: str, by_config: dict[tuple, dict[int, dict]]) -> Design | None:
    """The design ``name`` (see VARIANTS) from the factorial runs; None without any run."""
    configs = dict(zip(Q_LEVELS, VARIANTS[name], strict=True))
    cells: dict[Cell, dict[int, dict]] = {}
    for p in P_LEVELS:
        for b in B_LEVELS:
            for q in Q_LEVELS:
                found = by_config.get((p, b, configs[q]))
                if found:
                    cells[(p, b, q)] = found
    if not cells:
        return None
    seeds: list[int] = []
    if len(cells) == 8:
        common = set.intersection(*(set(c) for c in cells.values()))
        seeds = sorted(s for s in common if all(
            _value(cells[cell][s], m) is not None for cell in cells for m in (DELAY, RATIO)))
    design = Design(name, cells, seeds, {})
    if len(cells) < 8:
        design.error = f"{len(cells)} of the 8 cells were run"
    elif not seeds:
        design.error = "no seed has all 8 cells"
    else:
        rows = []
        for (p, b, q) in cells:
            for seed in seeds:
                rows.append({
                    "P": P_LEVELS.index(p) * 2 - 1,
                    "B": B_LEVELS.index(b) * 2 - 1,
                    "Q": Q_LEVELS.index(q) * 2 - 1,
                    DELAY: _value(cells[(p, b, q)][seed], DELAY),
                    RATIO: _value(cells[(p, b, q)][seed], RATIO),
                })
        try:
            design.results = analyze(rows, [DELAY, RATIO], list(FACTORS),
                                     confidence=CONFIDENCE)
        except FactorialError as exc:
            design.error = str(exc)
    return design


def paper_analysis(table: dict[Cell, float], response: str) -> FactorialResult:
    """The 2^3 analysis (r = 1) of one of the paper's tables."""
    rows = [{"P": P_LEVELS.index(p) * 2 - 1, "B": B_LEVELS.index(b) * 2 - 1,
             "Q": Q_LEVELS.index(q) * 2 - 1, response: value}
            for (p, b, q), value in table.items()]
    return analyze(rows, [response], list(FACTORS))[response]


def _cell_label(cell: Cell) -> str:
    p, b, q = cell
    return f"{p} B, {b:g} Mb/s, {Q_LABELS[q]}"


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


def _percent(value: float | None) -> str:
    if value is None or not math.isfinite(value):
        return "–"
    return f"{value:.2f}" if value >= 0.01 else f"{value:.1g}"


def _effect_text(result: FactorialResult, name: str, digits: int) -> str:
    effect = result.effect(name)
    text = f"{effect.value:+.{digits}f}".replace("-", MINUS)
    if effect.ci_low is not None:
        text += f" [{effect.ci_low:.{digits}f}, {effect.ci_high:.{digits}f}]".replace("-", MINUS)
        if effect.zero_in_ci:
            text += " (n.s.)"
    return text


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
                   _percent(paper_percent.get(name)) if name != "I" else "",
                   f"{paper_eq[name]:g}".replace("-", MINUS),
                   f"{effect.value:+.{digits}f}".replace("-", MINUS)
                   + (f" ({_percent(effect.percent)} %)" if effect.percent is not None else "")]
            csv = [name, paper_percent.get(name), paper_eq[name], effect.value, effect.percent]
        for variant in VARIANTS:
            design = designs.get(variant)
            if not design or not design.results:
                csv += [None] * 5
                continue
            result = design.results[response]
            if name == "error":
                row += ["", _percent(result.percent_error)]
                csv += [None, None, None, None, result.percent_error]
                continue
            effect = result.effect(name)
            row += [_effect_text(result, name, digits),
                    _percent(effect.percent) if name != "I" else ""]
            csv += [effect.value, effect.ci_low, effect.ci_high,
                    None if effect.zero_in_ci is None else not effect.zero_in_ci, effect.percent]
        rows.append(row)
        csv_rows.append(csv)
    return csv_rows, TableData(columns, rows)


def _analysis_header() -> list[str]:
    header = ["effect", "paper_percent", "paper_equation", "paper_recomputed",
              "paper_recomputed_percent"]
    for name in VARIANTS:
        key = name.replace("-", "_")
        header += [f"{key}_effect", f"{key}_ci_low", f"{key}_ci_high", f"{key}_significant",
                   f"{key}_percent"]
    return header


def _values_header() -> list[str]:
    header = ["packet_size", "bottleneck_mbps", "queueDisc", "paper"]
    for name in VARIANTS:
        key = name.replace("-", "_")
        header += [f"{key}_mean", f"{key}_ci95", f"{key}_n"]
    return header


# ----------------------------------------------------------------- factorial claims


def _ranking(result: FactorialResult) -> list[str]:
    return sorted(EFFECTS, key=lambda name: -(result.effect(name).percent or 0.0))


def _percents(result: FactorialResult, names: Iterable[str]) -> str:
    return ", ".join(f"{n} {_percent(result.effect(n).percent)} %" for n in names)


def band_class(estimate: Estimate, paper: float, relative: bool, tolerance: float) -> str:
    """A cell against the band paper ± tolerance (relative or absolute): *within* (its 95 %
    interval inside the band), *tied* (the interval straddles an edge of the band) or
    *outside* (the interval clear of the band)."""
    width = tolerance * abs(paper) if relative else tolerance
    low, high = paper - width, paper + width
    half = estimate.half_width if math.isfinite(estimate.half_width) else 0.0
    if low <= estimate.mean - half and estimate.mean + half <= high:
        return "within"
    if estimate.mean + half < low or estimate.mean - half > high:
        return "outside"
    return "tied"


def band_verdict(classes: Iterable[str]) -> str:
    """agree: no cell outside and at least half within; partly: within + tied at least half."""
    classes = list(classes)
    within, tied = classes.count("within"), classes.count("tied")
    if within + tied == len(classes) and 2 * within >= len(classes):
        return "agree"
    return "partly" if 2 * (within + tied) >= len(classes) else "disagree"


def _value_claim(design: Design, metric: str, paper: dict[Cell, float], where: str,
                 what: str, relative: bool, tolerance: float, digits: int,
                 anchors: Iterable[Cell] = ()) -> Claim:
    """The cells of Table 2 or 4 against the paper's, the calibration's anchor cells left out
    (they are claims of their own)."""
    errors, classes = {}, {}
    for cell, value in paper.items():
        e = design.estimate(cell, metric)
        if e.n and cell not in anchors:
            errors[cell] = (e.mean - value) / value if relative else e.mean - value
            classes[cell] = band_class(e, value, relative, tolerance)
    if not errors:
        return Claim(where, what, "no cell was run", "not evaluated")
    worst = max(errors, key=lambda c: abs(errors[c]))
    unit = "%" if relative else ""
    scale = 100 if relative else 1
    kinds = list(classes.values())
    tied = [c for c, k in classes.items() if k == "tied"]
    text = (f"{len(errors)} held-out cells"
            + (f" (the anchor cell{'s' if len(tuple(anchors)) > 1 else ''} "
               + "; ".join(_cell_label(c) for c in anchors) + " calibrated)" if anchors else "")
            + f": {kinds.count('within')} within ±{tolerance * scale:g}{unit} of the paper's"
            f" (95 % CI inside the band), {len(tied)} tied (CI straddles its edge"
            + (": " + "; ".join(_cell_label(c) for c in tied) if tied else "")
            + f"), {kinds.count('outside')} outside; largest gap {_cell_label(worst)}: ours"
            f" {design.estimate(worst, metric).format(digits)} vs {paper[worst]:.{digits}f}"
            f" ({errors[worst] * scale:+.{1 if relative else digits}f}{unit})")
    return Claim(where, what, text, band_verdict(kinds))


def delay_claims(design: Design, label: str = "") -> list[Claim]:
    """The paper's statements on the delay (Table 2, Table 3, equation (1)) for one design."""
    suffix = f" ({label})" if label else ""
    claims = [
        _value_claim(design, DELAY, PAPER_TABLE2, "Table 2" + suffix,
                     "mean delay of the flow: 0.90–2.07 s in the 6 cells not used for the"
                     " buffers", True, 0.15, 3, DELAY_ANCHORS),
    ]
    delay = design.results[DELAY]
    ranking = _ranking(delay)
    dominant = {"P", "B", "PQ", "Q"}
    top = set(ranking[:4])
    gaps = {n: abs((delay.effect(n).percent or 0.0) - PAPER_TABLE3[n]) for n in dominant}
    text = (f"by decreasing importance: {', '.join(ranking)} ({_percents(delay, ranking)};"
            f" error {_percent(delay.percent_error)} %); largest gap to the paper's among P, B,"
            f" PQ, Q: {max(gaps.values()):.1f} points")
    claims.append(Claim(
        "Table 3" + suffix,
        "delay: variation explained P 28.37 %, B 27.21 %, PQ 21.59 %, Q 20.07 %; PB, BQ, PBQ"
        " ≈ 1 % each",
        text,
        "agree" if top == dominant and max(gaps.values()) <= 10 else
        "partly" if len(top & dominant) >= 3 else "disagree"))
    q, b = delay.effect("Q"), delay.effect("B")
    ratio_qb = abs(q.value) / abs(b.value) if b.value else float("inf")
    claims.append(Claim(
        "Eq. (1)" + suffix,
        f"DRR lowers the delay (qQ = {MINUS}0.32 s) about as much as the higher bandwidth does"
        f" (qB = {MINUS}0.37 s)",
        f"qQ = {_effect_text(delay, 'Q', 3)} s, qB = {_effect_text(delay, 'B', 3)} s;"
        f" |qQ|/|qB| = {ratio_qb:.2f}",
        "agree" if q.value < 0 and q.significant is not False and 0.5 <= ratio_qb <= 2 else
        "partly" if q.value < 0 else "disagree"))
    # DRR lowers the delay of large packets: paired (same seed) DRR − DropTail at P = 1000.
    diffs = []
    for bw in B_LEVELS:
        dt = design.values((1000, bw, "DropTail"), DELAY)
        drr = design.values((1000, bw, "Drr"), DELAY)
        diffs.append((bw, t_interval(drr[s] - dt[s] for s in sorted(dt.keys() & drr.keys()))))
    lower = [d for _, d in diffs if d.n and d.mean < 0]
    significant = [d for d in lower if d.excludes_zero() or not math.isfinite(d.half_width)]
    pq = delay.effect("PQ")
    claims.append(Claim(
        "§4, Eq. (1)" + suffix,
        "with 1000-byte packets DRR's delay is about half DropTail's (1.62 vs 3.23 s at 1 Mb/s,"
        f" 1.05 vs 2.07 s at 1.5 Mb/s); PQ interaction {MINUS}0.33 s",
        "DRR − DropTail at 1000 B: "
        + "; ".join(f"{bw:g} Mb/s {d.format(3)} s" for bw, d in diffs).replace("-", MINUS)
        + f"; qPQ = {_effect_text(delay, 'PQ', 3)} s",
        "agree" if len(significant) == len(B_LEVELS) and pq.value < 0 else
        "partly" if lower else "disagree"))
    return claims


def ratio_claims(design: Design) -> list[Claim]:
    """The paper's statements on the packet arrival ratio (Tables 4 and 5, equation (3))."""
    claims = [_value_claim(design, RATIO, PAPER_TABLE4, "Table 4",
                           "packet arrival ratio of the flow: 0.524–0.949 in the 7 cells not"
                           " used for the background", False, 0.05, 3, (RATIO_ANCHOR,))]
    ratio = design.results[RATIO]
    ranking = _ranking(ratio)
    qp = ratio.effect("Q").percent or 0.0
    claims.append(Claim(
        "Table 5",
        "arrival ratio: B explains 76.97 % of the variation, P 22.05 %, Q 0.03 % (negligible),"
        " interactions ≤ 0.9 %",
        f"ours: {_percents(ratio, ranking)}; error {_percent(ratio.percent_error)} %",
        "agree" if ranking[:2] == ["B", "P"] and qp < 1 else
        "partly" if qp < 1 and set(ranking[:2]) == {"B", "P"} else "disagree"))
    gaps = []
    for p in P_LEVELS:
        for bw in B_LEVELS:
            dt = design.estimate((p, bw, "DropTail"), RATIO).mean
            drr = design.estimate((p, bw, "Drr"), RATIO).mean
            gaps.append(abs(drr - dt))
    claims.append(Claim(
        "§4, Table 4",
        "the queue type hardly changes the arrival ratio (DropTail and DRR within 0.012)",
        f"largest |DRR − DropTail| over the 4 (P, B) cells: {max(gaps):.4f}; Q explains"
        f" {_percent(qp)} % of the variation",
        "agree" if max(gaps) <= 0.02 else "partly" if max(gaps) <= 0.05 else "disagree"))
    return claims


def factorial_claims(designs: dict[str, Design]) -> list[Claim]:
    """The paper's statements on Tables 2–5: all on the main design, the delay's also on the
    DRR-tail-drop variant."""
    main = designs.get("main")
    if main is None or not main.results:
        reason = "no factorial run" if main is None else main.error
        return [Claim("§4, Tables 2–5", "the 2^3 factorial design P × B × Q", reason,
                      "not evaluated")]
    claims = _numbered(delay_claims(main) + ratio_claims(main), 5)
    tail = designs.get("drr-tail")
    if tail is not None and tail.results:
        claims += _numbered(delay_claims(tail, "DRR tail drop"), 12)
    return claims


def _numbered(claims: list[Claim], first: int) -> list[Claim]:
    """Give ``claims`` the plan's ids C<first>, C<first + 1>, ..."""
    for i, claim in enumerate(claims):
        claim.id = f"C{first + i}"
    return claims


def calibration_claims(designs: dict[str, Design], variants: Variants | None) -> list[Claim]:
    """The anchor cells (plan: S15, S16, S22; claims C16-C18), marked "calibrated": our number
    and the choice the variant campaign's sweep made there."""
    main, tail = designs.get("main"), designs.get("drr-tail")
    claims = []
    anchor = (1000, 1.0)
    for cid, queue, buffer_text in (
        ("C16", "DropTail", f"DropTail limit {DROPTAIL_LIMIT}"),
        ("C17", "Drr", f"DRR blimit_ {DRR_BLIMIT_HEAD} (head drop)"),
    ):
        cell = (*anchor, queue)
        ours = main.estimate(cell, DELAY).format(3) if main and main.results else "–"
        text = f"{ours} s with the chosen {buffer_text}"
        if queue == "Drr" and tail is not None and tail.results:
            text += (f"; tail drop: {tail.estimate(cell, DELAY).format(3)} s with"
                     f" {DRR_BLIMIT_TAIL}")
        if variants is not None:
            for drop in (("",) if queue == "DropTail" else ("Head", "Tail")):
                series = variants.buffers(queue, drop, anchor)
                if series:
                    chosen, inside = choose_buffer(series, PAPER_TABLE2[cell])
                    text += (f"; factorial-buffers{'-' + drop.lower() if drop else ''}:"
                             f" closest of {', '.join(series)} is {chosen}"
                             f" ({series[chosen].format(3)} s,"
                             f" {'within' if inside else 'outside'} ±5 %)")
        claims.append(Claim(
            "Table 2 (anchor)",
            f"{_cell_label(cell)}: delay {PAPER_TABLE2[cell]:.4f} s (used to choose the"
            f" {'DropTail limit' if queue == 'DropTail' else 'DRR blimit_'})",
            text, "calibrated", id=cid))
    ours = main.estimate(RATIO_ANCHOR, RATIO).format(3) if main and main.results else "–"
    text = f"{ours} with the chosen background {_background_label(BACKGROUND)}"
    if variants is not None and (anchor_runs := variants.anchor_backgrounds()):
        chosen, inside = choose_background(anchor_runs)
        text += (f"; factorial-background-anchor: {len(anchor_runs)} backgrounds, "
                 + ("first in the band" if inside else "none within ±0.01, the closest")
                 + f" is {_background_label(chosen)} ({anchor_runs[chosen].format(3)})")
    claims.append(Claim(
        "Table 4 (anchor)",
        f"{_cell_label(RATIO_ANCHOR)}: arrival ratio {PAPER_TABLE4[RATIO_ANCHOR]} (used to"
        " choose the background)", text, "calibrated", id="C18"))
    return claims


def _causes(claims: list[Claim], fairness: Fairness, designs: dict[str, Design],
            variants: Variants | None) -> None:
    """Name, for every "partly"/"disagree" claim, the run that changes exactly its suspected
    cause (the plan's table "Cause-demonstrating variants") and what it measured."""
    causes: dict[str, str] = {}
    tail = designs.get("drr-tail")
    if tail is not None and tail.results:
        tail_claims = {c.id: c for c in claims if c.where.endswith("(DRR tail drop)")}
        summary = "; ".join(f"{cid} {c.verdict}" for cid, c in tail_claims.items())
        for cid in ("C5", "C6", "C7", "C8"):
            twin = tail_claims.get(f"C{int(cid[1:]) + 7}")
            if twin is not None:
                causes[cid] = (
                    "ns-2's head drop delivers younger packets. factorial-drr-tail (DRR drops"
                    " from the tail of the longest queue, blimit_ calibrated again on the"
                    f" anchor, nothing else changed): {twin.id} {twin.verdict}: {twin.ours}"
                    f" (all tail-drop claims: {summary})")
    if variants is None:
        for claim in claims:
            if claim.verdict in ("partly", "disagree") and not claim.cause:
                claim.cause = causes.get(claim.id, "variant not run")
        return
    studies = reading_studies(fairness, variants)
    if len(studies) > 1:
        verdicts = reading_verdicts(studies)
        causes["C2"] = (
            f"R1 offers {offered_load('R1'):.1f}× the bottleneck, so every bucket stays"
            " backlogged. fig3-rates (only the source rate / on-off changed, three seeds): "
            + "; ".join(f"{r} ({offered_load(r):.2f}×) {v['C2']}"
                        for r, v in verdicts.items() if r != "R1"))
        causes["C1"] = "fig3-rates: " + "; ".join(f"{r} {v['C1']}" for r, v in verdicts.items())
    if variants.flows:
        parts = []
        for flows, study in variants.flows.items():
            steps = []
            for size in study.sizes:
                series = [study.estimate("sequential", b, size) for b in study.buckets]
                best = study.buckets[int(np.nanargmin([e.mean for e in series]))]
                violations, ties = unimodal_steps(series)
                steps.append(f"{_size_label(size)} B: {violations} (tied {ties}), minimum at"
                             f" {best}")
            parts.append(f"{flows} flows: " + ", ".join(steps))
        causes["C3"] = ("fig3-flows (7 and 11 flows, so no Buckets value below the flow count"
                        " but 1 splits them evenly): steps against a single minimum along"
                        " Buckets beyond the CIs: " + "; ".join(parts))
    series = hash_series(fairness, variants)
    if any(b > 32 for b in series):
        causes["C4"] = ("the hash puts flows in one bucket. fig3-hash-buckets (more buckets,"
                        " nothing else): " + "; ".join(
                            f"Buckets {b}: {v['colliding'].mean:.1f} colliding flows, std. dev."
                            f" {v['hash'].format(1)} kb/s" for b, v in series.items())
                        + (f"; ns-2 mapping at Buckets {FLOWS}:"
                           f" {series[FLOWS]['sequential'].format(1)} kb/s"
                           if FLOWS in series and series[FLOWS]["sequential"].n else ""))
    designs_bg = variants.background_designs()
    fixed = {b: d for b, d in designs_bg.items() if b[1] != 0}
    if fixed:
        parts = []
        for background, design in fixed.items():
            kinds = [band_class(design.estimate(c, RATIO), v, False, 0.05)
                     for c, v in PAPER_TABLE4.items() if c != RATIO_ANCHOR]
            parts.append(f"{_background_label(background)}: Table 4 {kinds.count('within')}"
                         f" within ±0.05, {kinds.count('tied')} tied,"
                         f" {kinds.count('outside')} outside of {len(kinds)}; variation"
                         f" explained {_percents(design.results[RATIO], ('P', 'B', 'Q'))}")
        text = "; ".join(parts)
        for cid in ("C9", "C10"):
            causes[cid] = ("the background scales with P. factorial-background-size (the"
                           " background's packet size fixed, nothing else): " + text)
    delays = variants.anchor_delays()
    if delays:
        causes["C12"] = (
            f"at {_cell_label(RATIO_ANCHOR)} the offered load (1.6 Mb/s) keeps DropTail's"
            " 400 packets full. factorial-background-anchor (only the background changed):"
            " delay " + "; ".join(f"{_background_label(b)} {e.format(3)} s"
                                  for b, e in delays.items()))
    for claim in claims:
        if claim.verdict in ("partly", "disagree") and not claim.cause:
            claim.cause = causes.get(claim.id, "no variant of the plan changes this cause")


# ----------------------------------------------------------------- variant campaign

#: Backgrounds of the S22 calibration in the plan's order of preference: fewest flows, P,
#: fixed 500 B, 1000 B, shortest inter-arrival.
SIZE_ORDER = {0: 0, 500: 1, 1000: 2}
#: The plan's S22 band and the tie margin of its fallback (the closest mean).
RATIO_TARGET, RATIO_BAND, RATIO_TIE = 0.949, 0.01, 0.002
#: The plan's S15 / S16 band (relative).
DELAY_BAND = 0.05


def _preference(background: Background) -> tuple:
    flows, size, low, _ = background
    return (flows, SIZE_ORDER.get(size, 3), size, low)


def choose_background(estimates: dict[Background, Estimate]) -> tuple[Background, bool]:
    """The plan's S22 rule: the first background in the order of preference whose mean arrival
    ratio lies within ±0.01 of 0.949; if none does, the closest mean, the order breaking ties
    within 0.002. Returns the choice and whether it is in the band."""
    valid = {b: e for b, e in estimates.items() if e.n}
    if not valid:
        raise ValueError("no background was run")
    inside = [b for b, e in valid.items() if abs(e.mean - RATIO_TARGET) <= RATIO_BAND]
    if inside:
        return min(inside, key=_preference), True
    gap = min(abs(e.mean - RATIO_TARGET) for e in valid.values())
    near = [b for b, e in valid.items() if abs(e.mean - RATIO_TARGET) <= gap + RATIO_TIE]
    return min(near, key=_preference), False


def choose_buffer(estimates: dict[str, Estimate], target: float) -> tuple[str, bool]:
    """The plan's S15 / S16 rule: the buffer whose mean delay is closest to ``target``; returns
    it and whether it is within ±5 %."""
    valid = {b: e for b, e in estimates.items() if e.n}
    if not valid:
        raise ValueError("no buffer was run")
    best = min(valid, key=lambda b: (abs(valid[b].mean - target), b))
    return best, abs(valid[best].mean - target) <= DELAY_BAND * target


def _buffer_value(size: str) -> float:
    """A queue limit as a number for sorting and plotting (bytes, or packets)."""
    return float(parse_bytes(size) or size.rstrip("p"))


def _background_label(background: Background) -> str:
    flows, size, low, high = background
    return (f"{flows} × {'P' if size == 0 else f'{size} B'}, ({low:g}, {high:g}) ms")


class Variants:
    """The variant campaign's runs (``campaigns/drr-evaluation-variants.toml``)."""

    def __init__(self, runs: Iterable[RunRecord]):
        runs = list(runs)
        self.readings = {r: Fairness(runs, r) for r in READINGS if r != "R1"}
        self.readings = {r: f for r, f in self.readings.items() if f.cells}
        self.flows = {n: f for n in (7, 11) if (f := Fairness(runs, "R1", n)).cells}
        self.hash = Fairness(runs, "R1")
        # Factorial runs with the final background (buffers), and every background.
        self.factorial = factorial_runs(runs)
        self.backgrounds: dict[Background, dict[tuple, dict[int, dict]]] = defaultdict(
            lambda: defaultdict(dict))
        for run in runs:
            p = resolved(run.params)
            if p["scenario"] == "factorial" and run.metrics \
                    and p["packetSizeMin"] == p["packetSizeMax"]:
                config = (p["queueDisc"], p["maxSize"], p["dropFrom"])
                key = (p["packetSizeMin"], p["bottleneckRate"], config)
                self.backgrounds[p["background"]][key][run.seed] = run.metrics

    def buffers(self, queue: str, drop_from: str, cell: tuple[int, float]) -> dict[str, Estimate]:
        """Mean delay per buffer of one queue type in one (P, B) cell."""
        out = {}
        for (p, b, (q, size, drop)), by_seed in self.factorial.items():
            if (p, b) == cell and q == queue and drop == drop_from:
                out[size] = t_interval(_value(m, DELAY) for m in by_seed.values())
        return dict(sorted(out.items(), key=lambda kv: _buffer_value(kv[0])))

    def anchor_backgrounds(self) -> dict[Background, Estimate]:
        """S22: arrival ratio at the anchor cell (DropTail 400 p, 500 B, 1.5 Mb/s) per
        background."""
        key = (RATIO_ANCHOR[0], RATIO_ANCHOR[1], ("DropTail", "400p", ""))
        out = {b: t_interval(_value(m, RATIO) for m in cells[key].values())
               for b, cells in self.backgrounds.items() if key in cells}
        return dict(sorted(out.items(), key=lambda kv: _preference(kv[0])))

    def anchor_delays(self) -> dict[Background, Estimate]:
        """The anchor cell's delay per background (the cause of C12's gap)."""
        key = (RATIO_ANCHOR[0], RATIO_ANCHOR[1], ("DropTail", "400p", ""))
        out = {b: t_interval(_value(m, DELAY) for m in cells[key].values())
               for b, cells in self.backgrounds.items() if key in cells}
        return dict(sorted(out.items(), key=lambda kv: _preference(kv[0])))

    def background_designs(self) -> dict[Background, Design]:
        """The main design (calibrated buffers) with each background run in all 8 cells."""
        out = {}
        for background, cells in self.backgrounds.items():
            design = build_design("main", cells)
            if design is not None and design.results:
                out[background] = design
        return dict(sorted(out.items(), key=lambda kv: _preference(kv[0])))


def _reading_title(reading: str) -> str:
    rate, on, off, meaning = READINGS[reading]
    return (f"{reading}: {parse_mbps(rate) * 1000:g} kb/s, on/off {on:g}/{off:g} s"
            f"\n({meaning}); offered {offered_load(reading):.2f}×")


def reading_studies(main: Fairness, variants: Variants | None) -> dict[str, Fairness]:
    """Fig. 3 per reading: R1 from the final campaign, the others from the variants."""
    studies = {"R1": main} if main.cells else {}
    if variants is not None:
        studies.update(variants.readings)
    return {r: studies[r] for r in READINGS if r in studies}


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
            _errorbar(axis, [s / 1000 for s in study.sizes], estimates, color=f"C{i}",
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


def reading_verdicts(studies: dict[str, Fairness]) -> dict[str, dict[str, str]]:
    """Per reading, C1-C3 as the claims judge them (ns-2 mapping)."""
    out = {}
    for reading, study in studies.items():
        counts = below_flows_counts(study, "sequential")
        threshold = threshold_test(study)
        convex = convex_test(study)
        out[reading] = {
            "C1": (below_flows_verdict(counts) + f" ({len(counts['above'])} above,"
                   f" {len(counts['tied'])} tied, {len(counts['below'])} below)")
            if counts else "not evaluated",
            "C2": ({"agree": "agree", "tied": "partly (tied)", "disagree": "disagree"}[
                threshold["kind"]] + f": {threshold['smallest'][1].format(1)} kb/s at"
                f" {threshold['smallest'][0]} B vs {threshold['largest'][1].format(1)} at"
                f" {threshold['largest'][0]} B, threshold {threshold['threshold']} B")
            if threshold else "not evaluated",
            "C3": (convex["verdict"] + f" (minimum at Buckets {convex['best'][0]},"
                   f" {convex['best'][1]} B; wrong-way steps {convex['along_buckets'][0]} /"
                   f" {convex['along_sizes'][0]})") if convex else "not evaluated",
        }
    return out


def rate_table(studies: dict[str, Fairness]) -> TableData:
    verdicts = reading_verdicts(studies)
    return TableData(
        ["reading", "offered load", "C1 (worse below 10 buckets)", "C2 (buffer threshold)",
         "C3 (single optimum)"],
        [[r, f"{offered_load(r):.2f}×", v["C1"], v["C2"], v["C3"]] for r, v in verdicts.items()])


def flows_figure(variants: Variants) -> Figure:
    """C3's variant: the std. dev. along Buckets with 7 and 11 flows."""
    fig = Figure(figsize=(5.0 * len(variants.flows), 4.0), layout="constrained")
    axes = fig.subplots(1, len(variants.flows), squeeze=False)[0]
    for axis, (flows, study) in zip(axes, variants.flows.items(), strict=True):
        xs = list(range(len(study.buckets)))
        for i, size in enumerate(study.sizes):
            _errorbar(axis, xs, [study.estimate("sequential", b, size) for b in study.buckets],
                      color=f"C{i}", label=f"{_size_label(size)} B")
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


def hash_series(main: Fairness, variants: Variants) -> dict[int, dict[str, Estimate]]:
    """C4's variant: per Buckets (the final campaign's ≥ 10 and the variant's 64 .. 1024), the
    std. dev. and colliding flows with the hash at the variant's MaxSize values."""
    sizes = variants.hash.sizes
    out: dict[int, dict[str, Estimate]] = {}
    for source in (main, variants.hash):
        for b in source.buckets:
            if b < FLOWS:
                continue
            std = t_interval(v for s in sizes for m in source.cells.get(("hash", b, s), {})
                             .values() if (v := _value(m, STD)) is not None)
            col = t_interval(v for s in sizes for m in source.cells.get(("hash", b, s), {})
                             .values() if (v := _value(m, "colliding_flows")) is not None)
            seq = t_interval(v for s in sizes for m in main.cells.get(("sequential", b, s), {})
                             .values() if (v := _value(m, STD)) is not None)
            if std.n:
                out[b] = {"hash": std, "colliding": col, "sequential": seq}
    return dict(sorted(out.items()))


def hash_figure(series: dict[int, dict[str, Estimate]]) -> Figure:
    fig = Figure(figsize=(9.0, 3.8), layout="constrained")
    left, right = fig.subplots(1, 2)
    xs = list(range(len(series)))
    _errorbar(left, xs, [v["hash"] for v in series.values()], color="C1",
              label="DrrQueueDisc's hash")
    seq = [(x, v["sequential"]) for x, v in zip(xs, series.values(), strict=True)
           if v["sequential"].n]
    if seq:
        _errorbar(left, [x for x, _ in seq], [e for _, e in seq], color="C0",
                  label="ns-2 mapping")
    _errorbar(right, xs, [v["colliding"] for v in series.values()], color="C1")
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
    panels = (("DropTail", "", "DropTail limit (packets)"),
              ("Drr", "Head", "DRR blimit_, head drop (kB)"),
              ("Drr", "Tail", "DRR blimit_, tail drop (kB)"))
    fig = Figure(figsize=(13.0, 4.0), layout="constrained")
    axes = fig.subplots(1, 3)
    for axis, (queue, drop, label) in zip(axes, panels, strict=True):
        for i, (p, b) in enumerate((p, b) for p in P_LEVELS for b in B_LEVELS):
            series = variants.buffers(queue, drop, (p, b))
            if not series:
                continue
            scale = 1 if queue == "DropTail" else 1e-3
            xs = [_buffer_value(k) * scale for k in series]
            _errorbar(axis, xs, list(series.values()), color=f"C{i}", label=f"{p} B, {b:g} Mb/s")
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
    for queue, drop in (("DropTail", ""), ("Drr", "Head"), ("Drr", "Tail")):
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
    _errorbar(left, xs, list(anchor.values()), color="C0", ls="none")
    left.axhspan(RATIO_TARGET - RATIO_BAND, RATIO_TARGET + RATIO_BAND, color="C2", alpha=0.2,
                 label="paper 0.949 ± 0.01")
    left.set_xticks(xs, [_background_label(b) for b in anchor], rotation=60, fontsize=6)
    left.set_ylabel("arrival ratio, DropTail 500 B 1.5 Mb/s")
    left.set_title("S22: background at the anchor cell", fontsize=9)
    left.legend(fontsize=7)
    left.grid(alpha=0.3)
    designs = variants.background_designs()
    cells = [(p, b, q) for p in P_LEVELS for b in B_LEVELS for q in Q_LEVELS]
    cx = list(range(len(cells)))
    right.plot(cx, [PAPER_TABLE4[c] for c in cells], "k_", markersize=14, label="paper")
    for i, (background, design) in enumerate(designs.items()):
        _errorbar(right, [x + 0.12 * (i - 1) for x in cx],
                  [design.estimate(c, RATIO) for c in cells], color=f"C{i + 1}", ls="none",
                  label=_background_label(background))
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
                                    key=lambda kv: _preference(kv[0])):
        for (p, b, config), by_seed in sorted(cells.items(), key=str):
            ratio = t_interval(_value(m, RATIO) for m in by_seed.values())
            delay = t_interval(_value(m, DELAY) for m in by_seed.values())
            rows.append([*background, p, b, config[0], ratio.mean, ratio.half_width,
                         delay.mean, delay.half_width, ratio.n,
                         PAPER_TABLE4.get((p, b, config[0]))])
    return rows


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
        f" packets) and the background chosen on S22 ({_background_label(BACKGROUND)});"
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
            " 1400–1600 B packets), every link 1 Mb/s, DRR quantum 250 B; std. dev. of the"
            " flows' throughputs after the warm-up, mean over seeds."
            + (f" Minimum (ns-2 mapping): Buckets {optimum[0]}, MaxSize {optimum[1]} B."
               if optimum else ""),
        ))
        if "sequential" in fairness.mappings:
            result.claims += _numbered([_worse_below_flows(fairness, "sequential"),
                                        _buffer_threshold(fairness, "sequential"),
                                        _convex_optimum(fairness, "sequential")], 1)
        if "hash" in fairness.mappings:
            result.claims += _numbered([_worse_below_flows(fairness, "hash")], 4)
    else:
        result.claims.append(Claim("§3, Fig. 3", "fairness over buckets_ × blimit_",
                                   "no fairness run", "not evaluated", id="C1"))

    if designs:
        for stem, metric, paper, digits, title in (
            ("table2", DELAY, PAPER_TABLE2, 3, "Table 2: mean delay of the flow (s)"),
            ("table4", RATIO, PAPER_TABLE4, 3, "Table 4: packet arrival ratio of the flow"),
        ):
            rows, table = values_table(designs, metric, paper, digits)
            csv = write_csv(out_dir / f"{stem}.csv", _values_header(), rows)
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
            csv = write_csv(out_dir / f"{stem}.csv", _analysis_header(), rows)
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
            f"Variant campaign ({variant_path}): calibration sweeps and cause-demonstrating"
            " variants, with their own seeds; its figures are fig3-rate (the sensitivity of"
            " Fig. 3 to the source rate) and variant-*.")
    _causes(result.claims, fairness, designs, variants)
    return result
