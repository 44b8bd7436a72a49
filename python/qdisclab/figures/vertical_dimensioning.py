# SPDX-License-Identifier: GPL-2.0-only
"""Figures and claims of Vertical Dimensioning's simulations (Bakiras et al., §IV, ns-2).

Both figures come from ``campaigns/vertical-dimensioning.toml``, run with the
``vertical-dimensioning-evaluation`` example on the reconstructed Fig. 3 parking lot:

``fig4``
    reference flows sending CBR UDP at 125·i kb/s: the mean, 99th-percentile and
    maximum end-to-end delay of each flow (x: its weight i), per scheduler, one row
    per buffer size; mean ± 95 % Student-t interval over the seeds;
``fig5``
    reference flows running long-lived TCP: the throughput of each flow per
    scheduler, one panel per buffer size, beside the ideal weighted max-min share
    (:func:`expected_ideal`); and two summaries over the buffer size, the mean
    relative error against the ideal and the weight-1 flow's share of its ideal.

The ideal is that of the fluid (GPS) model with the paper's traffic: at any moment
every TCP flow wants as much as it can get and every background source that is on
wants its 250 kb/s; the weighted max-min allocation of that moment
(:func:`weighted_max_min`, progressive filling over the core links) is averaged over
the on/off states, each source on independently with the probability its measured
offered load gives (offered / (n · rate); 1/2 nominally). Sources whose on periods
exceed their fair share (250 kb/s against 125 kb/s per unit of weight when all are
backlogged) are cut to it while on, so the background gets less than its mean offered
load and the reference flows more than the static 125·i kb/s.

The schedulers are whatever ``queueDisc`` names the runs have: VD and DRR are the
paper's; ``SCHEDULER_STYLES`` gives known ones a fixed colour, others get the next.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure
from scipy import stats

from qdisclab.campaign.store import RunRecord
from qdisclab.figures import Claim, FigureSet
from qdisclab.figures.common import (
    NO_ESTIMATE,
    Estimate,
    figure_artifact,
    load_campaign_runs,
    parse_bytes,
    parse_mbps,
    runs_note,
    t_interval,
)

NAME = "vertical-dimensioning"

#: The example's defaults (the paper's setup and the reconstruction), for runs that omit them.
DEFAULTS = {
    "queueDisc": "VD",
    "reference": "cbr",
    "maxSize": "50000B",
    "weights": "1,2,3,4,5,6,7,8,9,10",
    "mainBackground": 15,
    "crossBackground": 10,
    "backgroundRate": "250kbps",
    "meanOn": 0.5,
    "meanOff": 0.5,
    "hops": 2,
    "coreRate": "10Mbps",
}

#: Plot styles of the schedulers we know: (label, colour, line style).
SCHEDULER_STYLES = {
    "VD": ("VD", "C0", "-"),
    "DRR": ("DRR (weighted stealing, head)", "C3", "-"),
    "DRR-tail": ("DRR (weighted stealing, tail)", "C1", "--"),
    "SRR": ("SRR", "C2", "-"),
    "Aliquem": ("Aliquem", "C4", "-"),
    "FIFO": ("FIFO (ours)", "0.5", ":"),
}
#: The paper's comparators, in its order; the claims compare VD with each that was run.
PAPER_COMPARATORS = ("Aliquem", "SRR", "DRR")

#: §IV: "VD's average delay is 8%-54% lower compared to Aliquem, 18%-58% lower compared to
#: SRR, and 46%-57% lower compared to DRR" (percent).
PAPER_DELAY_REDUCTION = {"Aliquem": (8, 54), "SRR": (18, 58), "DRR": (46, 57)}
#: The buffer the paper calls "approximately equal to 25 % of the BDP" (bytes).
PAPER_SMALL_BUFFER = 12500
#: The delay statistics of Fig. 4: (metric suffix, title).
DELAY_STATS = (("mean_delay_ms", "average"), ("p99_delay_ms", "99th percentile"),
               ("max_delay_ms", "maximum"))


# ----------------------------------------------------------------- parameters


def weights_of(params: dict) -> list[float]:
    """The reference flows' weights of a run."""
    return [float(w) for w in str(params.get("weights", DEFAULTS["weights"])).split(",")]


def resolved(params: dict) -> dict:
    """A run's parameters with the example's defaults filled in (those used here)."""
    p = {**DEFAULTS, **params}
    return {
        "queueDisc": str(p["queueDisc"]),
        "reference": str(p["reference"]),
        "maxSize": parse_bytes(p["maxSize"]),
        "weights": tuple(weights_of(p)),
        "mainBackground": int(p["mainBackground"]),
        "crossBackground": int(p["crossBackground"]),
        "backgroundKbps": parse_mbps(p["backgroundRate"]) * 1000,
        "onProbability": float(p["meanOn"]) / (float(p["meanOn"]) + float(p["meanOff"])),
        "hops": int(p["hops"]),
        "coreKbps": parse_mbps(p["coreRate"]) * 1000,
    }


def _value(metrics: dict | None, name: str) -> float | None:
    value = (metrics or {}).get(name)
    return float(value) if value is not None and math.isfinite(value) else None


def _label(scheduler: str) -> str:
    return SCHEDULER_STYLES.get(scheduler, (scheduler,))[0]


def _style(scheduler: str, index: int) -> dict:
    _, color, line = SCHEDULER_STYLES.get(scheduler, (scheduler, f"C{5 + index}", "-"))
    return {"color": color, "ls": line}


def _order(schedulers: Iterable[str]) -> list[str]:
    known = [s for s in SCHEDULER_STYLES if s in schedulers]
    return known + sorted(set(schedulers) - set(known))


# ----------------------------------------------------------------- the ideal share


def weighted_max_min(capacities: Sequence[float],
                     flows: Sequence[tuple[float, float, Sequence[int]]]) -> list[float]:
    """The weighted max-min fair rates of ``flows`` on links of ``capacities``.

    A flow is ``(weight, demand, links)``: it wants ``demand`` (``math.inf`` for a
    greedy one) over the links it crosses. Progressive filling: every unfrozen flow
    gets ``weight · level`` while the level rises; a flow freezes at its demand, and
    every flow crossing a link freezes when that link is full.
    """
    rates = [0.0] * len(flows)
    active = {i for i, (w, d, links) in enumerate(flows) if w > 0 and d > 0 and links}
    level = 0.0
    while active:
        steps = []
        for link, capacity in enumerate(capacities):
            users = [i for i in active if link in flows[i][2]]
            if users:
                used = sum(rates[i] for i in range(len(flows)) if link in flows[i][2])
                steps.append(((capacity - used) / sum(flows[i][0] for i in users), link))
        demand_steps = [((flows[i][1] - rates[i]) / flows[i][0], -1 - i) for i in active]
        step, which = min(steps + demand_steps)
        step = max(step, 0.0)
        level += step
        for i in active:
            rates[i] += flows[i][0] * step
        if which >= 0:
            frozen = {i for i in active if which in flows[i][2]}
        else:
            frozen = {-1 - which}
        # Anything else that reached its demand or a full link at the same level.
        frozen |= {i for i in active if rates[i] >= flows[i][1] - 1e-9}
        for link, capacity in enumerate(capacities):
            used = sum(rates[i] for i in range(len(flows)) if link in flows[i][2])
            if used >= capacity - 1e-9:
                frozen |= {i for i in active if link in flows[i][2]}
        active -= frozen
    return rates


@lru_cache(maxsize=4096)
def expected_ideal(weights: tuple[float, ...], hops: int, core_kbps: float,
                   groups: tuple[tuple[int, float, tuple[int, ...]], ...],
                   source_kbps: float) -> tuple[float, ...]:
    """The reference flows' expected weighted max-min share in kb/s (the fluid ideal).

    The reference flows (``weights``) are greedy and cross every hop. Background group
    ``(n, p, links)`` has ``n`` sources of weight 1, each on with probability ``p``
    independently, wanting ``source_kbps`` while on. The share of each combination of
    active sources (binomial counts per group; the active sources of a group are one
    aggregate of weight k and demand k · rate, which max-min treats as k equal flows)
    is weighted by its probability.
    """
    capacities = [core_kbps] * hops
    reference = [(w, math.inf, tuple(range(hops))) for w in weights]
    pmfs = [stats.binom.pmf(np.arange(n + 1), n, min(max(p, 0.0), 1.0)) for n, p, _ in groups]
    expected = np.zeros(len(weights))
    for counts in product(*(range(n + 1) for n, _, _ in groups)):
        probability = float(np.prod([pmf[k] for pmf, k in zip(pmfs, counts, strict=True)]))
        if probability < 1e-12:
            continue
        background = [(k, k * source_kbps, links)
                      for k, (_, _, links) in zip(counts, groups, strict=True) if k]
        rates = weighted_max_min(capacities, reference + background)
        expected += probability * np.asarray(rates[:len(weights)])
    return tuple(float(x) for x in expected)


def run_ideal(params: dict, metrics: dict | None, nominal: bool = False) -> list[float] | None:
    """The ideal share of a run's reference flows: the background's on probability from its
    measured offered load (``nominal``: meanOn / (meanOn + meanOff)); None if unknown."""
    p = resolved(params)
    rate = p["backgroundKbps"]
    specs = [("main", p["mainBackground"], tuple(range(p["hops"])))]
    specs += [(f"cross{h}", p["crossBackground"], (h,)) for h in range(p["hops"])]
    groups = []
    for name, n, links in specs:
        if n == 0:
            continue
        if nominal:
            probability = p["onProbability"]
        else:
            offered = _value(metrics, f"{name}_offered_kbps")
            if offered is None:
                return None
            probability = offered / (n * rate)
        groups.append((n, round(probability, 9), links))
    return list(expected_ideal(p["weights"], p["hops"], p["coreKbps"], tuple(groups), rate))


# ----------------------------------------------------------------- the runs


@dataclass
class Study:
    """Runs of one reference traffic (cbr or tcp), by (maxSize, queueDisc) and seed."""

    reference: str
    cells: dict[tuple[int, str], dict[int, RunRecord]]
    weights: tuple[float, ...]

    @classmethod
    def of(cls, runs: Iterable[RunRecord], reference: str) -> Study:
        cells: dict[tuple[int, str], dict[int, RunRecord]] = defaultdict(dict)
        weights: tuple[float, ...] = ()
        for run in runs:
            p = resolved(run.params)
            if p["reference"] != reference or p["maxSize"] is None or not run.metrics:
                continue
            cells[(p["maxSize"], p["queueDisc"])][run.seed] = run
            weights = weights or p["weights"]
        return cls(reference, cells, weights)

    @property
    def sizes(self) -> list[int]:
        return sorted({size for size, _ in self.cells})

    @property
    def schedulers(self) -> list[str]:
        return _order({q for _, q in self.cells})

    @property
    def flows(self) -> list[int]:
        return list(range(1, len(self.weights) + 1))

    def estimate(self, size: int, scheduler: str, metric: str) -> Estimate:
        """Mean and 95 % interval over seeds of a metric in one cell."""
        runs = self.cells.get((size, scheduler), {})
        return t_interval(v for r in runs.values() if (v := _value(r.metrics, metric)) is not None)

    def per_seed(self, size: int, scheduler: str, metric: str) -> dict[int, float]:
        runs = self.cells.get((size, scheduler), {})
        return {s: v for s, r in runs.items() if (v := _value(r.metrics, metric)) is not None}

    def ideal(self, size: int, nominal: bool = False) -> list[Estimate]:
        """The ideal share of each flow, over the seeds of any scheduler at this size (the
        background's offered load depends on the seed only)."""
        by_seed: dict[int, list[float]] = {}
        for (s, _), runs in self.cells.items():
            if s != size:
                continue
            for seed, run in runs.items():
                if seed not in by_seed and (ideal := run_ideal(run.params, run.metrics,
                                                               nominal)) is not None:
                    by_seed[seed] = ideal
        return [t_interval(v[i] for v in by_seed.values()) for i in range(len(self.weights))]

    def relative_errors(self, size: int, scheduler: str) -> list[Estimate]:
        """Per flow, throughput / ideal − 1 (per seed, paired with that seed's ideal)."""
        out = []
        for i in self.flows:
            values = []
            for seed, run in self.cells.get((size, scheduler), {}).items():
                x = _value(run.metrics, f"flow{i}_kbps")
                ideal = run_ideal(run.params, run.metrics)
                if x is not None and ideal:
                    values.append(x / ideal[i - 1] - 1)
            out.append(t_interval(values))
        return out

    def mean_abs_error(self, size: int, scheduler: str) -> Estimate:
        """Mean over the flows of |throughput / ideal − 1|, with its interval over seeds."""
        per_seed = defaultdict(list)
        for seed, run in self.cells.get((size, scheduler), {}).items():
            ideal = run_ideal(run.params, run.metrics)
            if not ideal:
                continue
            for i in self.flows:
                x = _value(run.metrics, f"flow{i}_kbps")
                if x is not None:
                    per_seed[seed].append(abs(x / ideal[i - 1] - 1))
        return t_interval(float(np.mean(v)) for v in per_seed.values() if v)


def _errorbar(axis, xs, estimates: Sequence[Estimate], label: str, **style) -> None:
    means = [e.mean for e in estimates]
    errors = [e.half_width if math.isfinite(e.half_width) else 0.0 for e in estimates]
    axis.errorbar(xs, means, yerr=errors, capsize=2.5, marker="o", markersize=3.5, lw=1.2,
                  label=label, **style)


def _size_label(size: int) -> str:
    return f"{size:,} B".replace(",", " ")


# ----------------------------------------------------------------- fig4: delay


def fig4_figure(study: Study) -> Figure:
    """Rows: buffer sizes; columns: mean, p99 and maximum delay per flow."""
    sizes = study.sizes
    fig = Figure(figsize=(14, 3.6 * len(sizes) + 0.6), layout="constrained")
    axes = fig.subplots(len(sizes), len(DELAY_STATS), squeeze=False)
    xs = study.weights
    for row, size in zip(axes, sizes, strict=True):
        for axis, (suffix, title) in zip(row, DELAY_STATS, strict=True):
            for k, scheduler in enumerate(study.schedulers):
                if (size, scheduler) not in study.cells:
                    continue
                estimates = [study.estimate(size, scheduler, f"flow{i}_{suffix}")
                             for i in study.flows]
                _errorbar(axis, xs, estimates, _label(scheduler), **_style(scheduler, k))
            axis.set_title(f"{title} delay, buffer {_size_label(size)}", fontsize=10)
            axis.set_xlabel("reference flow i (weight i, 125·i kb/s)")
            axis.set_ylabel("end-to-end delay (ms)")
            axis.set_xticks(xs)
            axis.set_ylim(bottom=0)
            axis.grid(alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.suptitle("Figure 4: delay of the CBR reference flows (mean ± 95 % CI over seeds)",
                 fontsize=11)
    return fig


FIG4_HEADER = ("maxSize_bytes", "queueDisc", "flow", "weight", "n",
               "mean_delay_ms", "mean_delay_ms_ci95", "p99_delay_ms", "p99_delay_ms_ci95",
               "max_delay_ms", "max_delay_ms_ci95", "throughput_kbps", "loss")


def fig4_rows(study: Study) -> list[list]:
    rows = []
    for size in study.sizes:
        for scheduler in study.schedulers:
            if (size, scheduler) not in study.cells:
                continue
            for i, w in zip(study.flows, study.weights, strict=True):
                row = [size, scheduler, i, w]
                mean = study.estimate(size, scheduler, f"flow{i}_mean_delay_ms")
                row.append(mean.n)
                for suffix, _ in DELAY_STATS:
                    e = study.estimate(size, scheduler, f"flow{i}_{suffix}")
                    row += [e.mean, e.half_width]
                row += [study.estimate(size, scheduler, f"flow{i}_kbps").mean,
                        study.estimate(size, scheduler, f"flow{i}_loss").mean]
                rows.append(row)
    return rows


def _reductions(study: Study, size: int, other: str, suffix: str) -> list[float]:
    """Per flow, 1 − VD / other of the seed-mean delay, in percent."""
    out = []
    for i in study.flows:
        vd = study.estimate(size, "VD", f"flow{i}_{suffix}").mean
        them = study.estimate(size, other, f"flow{i}_{suffix}").mean
        out.append(100 * (1 - vd / them) if them > 0 else math.nan)
    return out


def fig4_claims(study: Study) -> list[Claim]:
    """§IV on Fig. 4: VD's delays are lower than every comparator's, by the paper's
    percentages, and about the same for every weight."""
    claims = []
    comparators = [c for c in PAPER_COMPARATORS if c in study.schedulers]
    sizes = [s for s in study.sizes if (s, "VD") in study.cells]
    if not sizes or not comparators:
        return [Claim("§IV, Fig. 4", "VD's delays vs DRR, SRR and Aliquem",
                      "needs cbr runs of VD and of a paper comparator", "not evaluated")]
    for other in PAPER_COMPARATORS:
        if other not in study.schedulers:
            low, high = PAPER_DELAY_REDUCTION[other]
            claims.append(Claim(f"§IV, Fig. 4 ({other})",
                                f"VD's average delay is {low}%–{high}% lower than {other}'s",
                                f"no cbr runs of {other}", "not evaluated"))
    for other in comparators:
        # "VD clearly outperforms the other schedulers in all cases."
        wins = total = 0
        parts, per_size = [], []
        for size in sizes:
            size_wins = size_total = 0
            for suffix, _ in DELAY_STATS:
                red = _reductions(study, size, other, suffix)
                valid = [r for r in red if math.isfinite(r)]
                size_wins += sum(r > 0 for r in valid)
                size_total += len(valid)
            wins += size_wins
            total += size_total
            per_size.append(f"{size_wins} of {size_total} at {_size_label(size)}")
            mean_red = [r for r in _reductions(study, size, other, "mean_delay_ms")
                        if math.isfinite(r)]
            if mean_red:
                parts.append(f"{_size_label(size)}: {min(mean_red):.0f}%–{max(mean_red):.0f}%")
        claims.append(Claim(
            "§IV, Fig. 4", f"VD clearly outperforms {other} in all cases (average, 99th"
            " percentile and maximum delay of every reference flow)",
            f"VD's delay is lower in {wins} of {total} (flow, statistic, buffer) cases: "
            + ", ".join(per_size),
            "agree" if total and wins == total else "partly" if wins >= 0.75 * total
            else "disagree"))
        low, high = PAPER_DELAY_REDUCTION[other]
        in_range = []
        for size in sizes:
            red = [r for r in _reductions(study, size, other, "mean_delay_ms")
                   if math.isfinite(r)]
            in_range.append(bool(red) and low - 10 <= min(red) and max(red) <= high + 10)
        # Partly: within the range at one buffer size, or lower for every flow at one.
        lower_somewhere = any(min([r for r in _reductions(study, s, other, "mean_delay_ms")
                                   if math.isfinite(r)] or [-1]) > 0 for s in sizes)
        claims.append(Claim(
            "§IV, Fig. 4", f"VD's average delay is {low}%–{high}% lower than {other}'s",
            f"VD's average delay is lower than {other}'s by, over the flows: "
            + "; ".join(parts),
            "agree" if all(in_range) else "partly" if any(in_range) or lower_somewhere
            else "disagree"))
    # "The delay under VD does not vary considerably for different weight values."
    spreads = []
    for size in sizes:
        means = [study.estimate(size, "VD", f"flow{i}_mean_delay_ms").mean for i in study.flows]
        means = [m for m in means if math.isfinite(m)]
        if means:
            spreads.append((size, min(means), max(means), max(means) / min(means)))
    text = "; ".join(f"{_size_label(s)}: VD {lo:.1f}–{hi:.1f} ms (max/min {r:.2f})"
                     for s, lo, hi, r in spreads)
    for other in comparators:
        for size in sizes:
            means = [study.estimate(size, other, f"flow{i}_mean_delay_ms").mean
                     for i in study.flows]
            means = [m for m in means if math.isfinite(m)]
            if means:
                text += (f"; {other} at {_size_label(size)}: {min(means):.1f}–{max(means):.1f}"
                         f" ms (max/min {max(means) / min(means):.2f})")
    worst = max((r for *_, r in spreads), default=math.nan)
    claims.append(Claim(
        "§IV, Fig. 4 / §III-B", "the delay under VD does not vary considerably for different"
        " weight values (its bounds are not rate proportional)", text,
        "agree" if worst <= 1.5 else "partly" if worst <= 2.5 else "disagree"))
    return claims


# ----------------------------------------------------------------- fig5: TCP throughput


def fig5_figure(study: Study) -> Figure:
    """One panel per buffer size (throughput per flow vs the ideal), and two summaries."""
    sizes = study.sizes
    columns = 3
    rows = math.ceil((len(sizes) + 2) / columns)
    fig = Figure(figsize=(15, 4.2 * rows + 0.6), layout="constrained")
    axes = list(fig.subplots(rows, columns, squeeze=False).flat)
    xs = study.weights
    for axis, size in zip(axes, sizes, strict=False):
        ideal = study.ideal(size)
        axis.plot(xs, [e.mean for e in ideal], color="black", lw=2, marker="s", markersize=4,
                  label="ideal weighted max-min share")
        for k, scheduler in enumerate(study.schedulers):
            if (size, scheduler) not in study.cells:
                continue
            estimates = [study.estimate(size, scheduler, f"flow{i}_kbps") for i in study.flows]
            _errorbar(axis, xs, estimates, _label(scheduler), **_style(scheduler, k))
        note = " (≈ 25 % of the paper's BDP)" if size == PAPER_SMALL_BUFFER else ""
        axis.set_title(f"buffer {_size_label(size)}{note}", fontsize=10)
        axis.set_xlabel("reference flow i (weight i)")
        axis.set_ylabel("throughput (kb/s)")
        axis.set_xticks(xs)
        axis.set_ylim(bottom=0)
        axis.grid(alpha=0.3)
    if sizes:
        axes[0].legend(fontsize=7)
    error_axis, first_axis = axes[len(sizes)], axes[len(sizes) + 1]
    for k, scheduler in enumerate(study.schedulers):
        present = [s for s in sizes if (s, scheduler) in study.cells]
        if not present:
            continue
        _errorbar(error_axis, [s / 1000 for s in present],
                  [study.mean_abs_error(s, scheduler) for s in present], _label(scheduler),
                  **_style(scheduler, k))
        _errorbar(first_axis, [s / 1000 for s in present],
                  [study.relative_errors(s, scheduler)[0] for s in present], _label(scheduler),
                  **_style(scheduler, k))
    error_axis.set_title("mean over the flows of |throughput / ideal − 1|", fontsize=10)
    first_axis.set_title("weight-1 flow: throughput / ideal − 1", fontsize=10)
    first_axis.axhline(0, color="black", lw=0.8)
    _clip_above(first_axis, study, 1.0)
    for axis in (error_axis, first_axis):
        axis.set_xscale("log")
        axis.set_xticks([s / 1000 for s in sizes], [f"{s / 1000:g}" for s in sizes])
        axis.set_xticks([], minor=True)
        axis.set_xlabel("buffer (kB)")
        axis.grid(alpha=0.3)
    error_axis.set_ylim(bottom=0)
    error_axis.legend(fontsize=7)
    for axis in axes[len(sizes) + 2:]:
        axis.axis("off")
    fig.suptitle("Figure 5: throughput of the TCP reference flows vs the ideal weighted max-min"
                 " share (mean ± 95 % CI over seeds)", fontsize=11)
    return fig


def _clip_above(axis, study: Study, top: float) -> None:
    """Limit the weight-1 panel to [-1.05, top]; write the values above it at the top."""
    axis.set_ylim(-1.05, top)
    for k, scheduler in enumerate(study.schedulers):
        for size in study.sizes:
            if (size, scheduler) not in study.cells:
                continue
            value = study.relative_errors(size, scheduler)[0].mean
            if math.isfinite(value) and value > top:
                axis.annotate(f"{_label(scheduler)}: {value:+.1f} ↑", (size / 1000, top),
                              xytext=(0, -12), textcoords="offset points", ha="center",
                              fontsize=7, color=_style(scheduler, k)["color"])


FIG5_HEADER = ("maxSize_bytes", "queueDisc", "flow", "weight", "n", "throughput_kbps",
               "throughput_kbps_ci95", "ideal_kbps", "ideal_nominal_kbps", "relative_error",
               "relative_error_ci95")


def fig5_rows(study: Study) -> list[list]:
    rows = []
    for size in study.sizes:
        ideal = study.ideal(size)
        nominal = study.ideal(size, nominal=True)
        for scheduler in study.schedulers:
            if (size, scheduler) not in study.cells:
                continue
            errors = study.relative_errors(size, scheduler)
            for i, w in zip(study.flows, study.weights, strict=True):
                e = study.estimate(size, scheduler, f"flow{i}_kbps")
                rows.append([size, scheduler, i, w, e.n, e.mean, e.half_width,
                             ideal[i - 1].mean, nominal[i - 1].mean, errors[i - 1].mean,
                             errors[i - 1].half_width])
    return rows


def _ratio_text(study: Study, size: int, scheduler: str, flows: Sequence[int]) -> str:
    errors = study.relative_errors(size, scheduler)
    return ", ".join(f"w{i} {100 * (1 + errors[i - 1].mean):.0f}%" for i in flows)


def fig5_claims(study: Study) -> list[Claim]:
    """§IV on Fig. 5: per-flow-queue DRR fails at 12500 B (large weights take too much, weights
    1-2 starve) and needs large buffers; VD is close to the ideal at every buffer size."""
    claims = []
    sizes = study.sizes
    small = PAPER_SMALL_BUFFER if PAPER_SMALL_BUFFER in sizes else (sizes[0] if sizes else None)
    if small is None or (small, "VD") not in study.cells:
        return [Claim("§IV, Fig. 5", "TCP throughput of VD and DRR vs the ideal share",
                      "needs tcp runs of VD", "not evaluated")]
    low = [i for i, w in zip(study.flows, study.weights, strict=True) if w <= 2]
    high = [i for i, w in zip(study.flows, study.weights, strict=True) if w > 4]
    for other in ("DRR", "DRR-tail", "SRR", "Aliquem"):
        if (small, other) not in study.cells:
            continue
        errors = study.relative_errors(small, other)
        low_mean = float(np.mean([errors[i - 1].mean for i in low]))
        high_mean = float(np.mean([errors[i - 1].mean for i in high]))
        vd = study.relative_errors(small, "VD")
        vd_low = float(np.mean([vd[i - 1].mean for i in low]))
        label = {"DRR": "", "DRR-tail": " (DRR, tail stealing)"}.get(other, f" ({other})")
        name = "DRR" if other == "DRR-tail" else other
        claims.append(Claim(
            f"§IV, Fig. 5{label}",
            f"at {PAPER_SMALL_BUFFER} B (≈ 25 % of the BDP) {name} performs poorly: flows with"
            " weights > 4 get an excessive share at the expense of weights 1 and 2",
            f"{other} at {_size_label(small)}, throughput / ideal: "
            f"{_ratio_text(study, small, other, study.flows)}; weights 1–2 on average"
            f" {100 * (1 + low_mean):.0f}%, weights > 4 {100 * (1 + high_mean):.0f}% of their"
            f" ideal (VD: weights 1–2 {100 * (1 + vd_low):.0f}%)",
            "agree" if low_mean < -0.25 and high_mean > 0.05
            else "partly" if low_mean < -0.25 else "disagree"))
    # "DRR seems to perform better for weight values greater than 7" (than SRR and Aliquem).
    heavy = [i for i, w in zip(study.flows, study.weights, strict=True) if w > 7]
    for name in ("SRR", "Aliquem"):
        if (small, name) not in study.cells or (small, "DRR") not in study.cells:
            claims.append(Claim(
                "§IV, Fig. 5", f"DRR does better than {name} for weights > 7 at 12500 B (strict"
                " round robin)", f"needs tcp runs of DRR and {name} at 12500 B",
                "not evaluated"))
            continue
        drr_heavy = [study.relative_errors(small, "DRR")[i - 1].mean for i in heavy]
        them_heavy = [study.relative_errors(small, name)[i - 1].mean for i in heavy]
        drr_abs = float(np.mean(np.abs(drr_heavy)))
        them_abs = float(np.mean(np.abs(them_heavy)))
        claims.append(Claim(
            "§IV, Fig. 5", f"DRR does better than {name} for weights > 7 at 12500 B (strict"
            " round robin: heavy flows cannot take more than their rounds)",
            f"weights > 7, mean |throughput / ideal − 1|: DRR {100 * drr_abs:.0f}%,"
            f" {name} {100 * them_abs:.0f}%",
            "agree" if drr_abs < them_abs else "disagree"))
    # "VD performs very well, comparable to the ideal case, regardless of the buffer size."
    vd_sizes = [s for s in sizes if (s, "VD") in study.cells]
    errors = {s: study.mean_abs_error(s, "VD") for s in vd_sizes}
    # The paper contrasts VD with every per-flow queueing scheduler it ran (DRR, SRR, Aliquem).
    per_flow = {name: {s: study.mean_abs_error(s, name) for s in sizes
                       if (s, name) in study.cells} for name in ("DRR", "SRR", "Aliquem")}
    per_flow = {name: errs for name, errs in per_flow.items() if errs}
    drr = per_flow.get("DRR", {})
    text = "mean |throughput / ideal − 1| over the flows, VD: " + ", ".join(
        f"{_size_label(s)} {100 * e.mean:.0f}%" for s, e in errors.items())
    for name, errs in per_flow.items():
        text += f"; {name}: " + ", ".join(f"{_size_label(s)} {100 * e.mean:.0f}%"
                                          for s, e in errs.items())
    worst = max((e.mean for e in errors.values()), default=math.nan)
    better = all(errors[s].mean <= errs[s].mean
                 for errs in per_flow.values() for s in errs if s in errors)
    claims.append(Claim(
        "§IV, Fig. 5", "VD's allocation is comparable to the ideal case, regardless of the"
        " buffer size", text,
        "agree" if worst <= 0.10 else "partly" if worst <= 0.25 or better else "disagree"))
    if len(drr) >= 2:
        first, last = min(drr), max(drr)
        vd_small = errors.get(first, NO_ESTIMATE)
        claims.append(Claim(
            "§IV, Fig. 5", "per-flow queueing (DRR) needs a large buffer for each flow to sustain"
            " its throughput; VD does not",
            f"DRR's mean error falls from {100 * drr[first].mean:.0f}% at {_size_label(first)}"
            f" to {100 * drr[last].mean:.0f}% at {_size_label(last)}; VD's is"
            f" {100 * vd_small.mean:.0f}% at {_size_label(first)}",
            "agree" if drr[first].mean > drr[last].mean and vd_small.mean < drr[first].mean
            else "partly" if drr[first].mean > drr[last].mean else "disagree"))
    return claims


# ----------------------------------------------------------------- entry point


def make_figures(db_path: Path, out_dir: Path) -> FigureSet:
    """Write fig4 and fig5 from the database ``db_path``."""
    meta, runs = load_campaign_runs(db_path)
    result = FigureSet(NAME, out_dir)
    mode = meta.get("mode", "full")
    delay = Study.of(runs, "cbr")
    tcp = Study.of(runs, "tcp")
    result.notes.append(runs_note(
        runs, mode, f"cbr: {', '.join(delay.schedulers) or 'none'} × {len(delay.sizes)}"
        f" buffer(s); tcp: {', '.join(tcp.schedulers) or 'none'} × {len(tcp.sizes)} buffer(s)"))
    if mode == "quick":
        result.notes.append("Quick campaign: 20 s runs, fewer seeds and settings; the verdicts"
                            " are indicative only.")
    result.notes += [
        "Topology reconstructed from the text (the paper's Fig. 3 did not survive): a parking"
        " lot n0 – n1 = n2 = n3 – n4 with n5 → n6 crossing n1 = n2 and n7 → n8 crossing"
        " n2 = n3; core links 10 Mb/s, access links 100 Mb/s, all 1 ms. At 10 Mb/s the"
        " reference flows' 125·i kb/s are exactly the static weighted share of a link with all"
        " 80 weight units backlogged, and the mean offered load of each core link is 10 Mb/s.",
        "With 1 ms links the base RTT is 8 ms, so 12500 B is 125 % of the 10 Mb/s BDP, not the"
        " paper's ≈ 25 % (which implies a 50000 B BDP: 40 ms at 10 Mb/s, or 50 Mb/s at 8 ms);"
        " 50000 B is run as that BDP.",
        "The ideal share is the fluid (GPS) weighted max-min share averaged over the"
        " background's on/off states (each source on with the probability its measured"
        " offered load gives); with every source at its mean rate instead it would be the"
        " static 125·i kb/s.",
        "SRR (Guo's Weight Spread Sequence, quantum 1000 B per visit) and Aliquem (q = 5,"
        " phi = 200 B per weight unit) steal from the head of the longest weighted queue, as"
        " DRR does; DRR-tail and FIFO are ours, not the paper's.",
    ]

    if delay.cells:
        result.artifacts.append(figure_artifact(
            fig4_figure(delay), out_dir, "fig4", FIG4_HEADER, fig4_rows(delay),
            "Figure 4: delay properties of the schedulers (UDP sources)",
            "Ten CBR reference flows n0 → n4 at 125·i kb/s, weight i, with 35 Pareto on/off"
            " background flows; end-to-end delay of the packets sent after the warm-up: mean,"
            " 99th percentile (nearest rank) and maximum per run, averaged over seeds."))
    result.claims += fig4_claims(delay)
    if tcp.cells:
        result.artifacts.append(figure_artifact(
            fig5_figure(tcp), out_dir, "fig5", FIG5_HEADER, fig5_rows(tcp),
            "Figure 5: fairness properties of the schedulers (TCP sources)",
            "Ten long-lived TCP reference flows n0 → n4 with weight i, with 35 Pareto on/off"
            " background flows; IPv4-layer throughput after the warm-up, against the ideal"
            " weighted max-min share (fluid model over the on/off states, black);"
            " ideal_nominal_kbps in the CSV takes the sources' nominal on probability 1/2."))
    result.claims += fig5_claims(tcp)
    return result
