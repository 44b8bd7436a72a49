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

The campaign runs two topologies (``accessDelay`` = ``coreDelay``): 1 ms links (the paper's;
``fig4``, ``fig5``) and 5 ms links (``fig4-5ms``, ``fig5-5ms``), where the paper's 12500 B is
25 % of the BDP. Every buffer is labelled as a fraction of *our* BDP, computed from the runs'
parameters (:func:`bdp_bytes`). Each claim is judged in the 5 ms topology (the paper's regime)
and shows the 1 ms verdict beside it. Cases the paper counts with "in all cases" or "better"
are classified per seed pair (:func:`qdisclab.figures.common.compare_paired`): wins, ties and
losses. The variant campaign (``campaigns/vertical-dimensioning-variants.toml``), when its
database exists, gives the causes of the "partly" and "disagree" verdicts, the ``sensitivity``
figure's delay sweep and the ``variant-fig4`` / ``variant-fig5`` figures.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
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
    compare_paired,
    figure_artifact,
    load_campaign_runs,
    parse_bytes,
    parse_mbps,
    runs_note,
    t_interval,
    variants_db,
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
    "accessDelay": "1ms",
    "coreDelay": "1ms",
    "onOff": "pareto",
    "vdReturn": "fresh",
    "packetSizeMax": 1000,
}

#: The main campaign's two topologies, by link delay (ms, every link): the paper's 1 ms, and
#: 5 ms, where its 12500 B is 25 % of the BDP. Claims are judged in PRIMARY_DELAY.
TOPOLOGY_DELAYS = (5.0, 1.0)
PRIMARY_DELAY = 5.0

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
        "accessDelayMs": parse_ms(p["accessDelay"]),
        "coreDelayMs": parse_ms(p["coreDelay"]),
        "onOff": str(p["onOff"]),
        "vdReturn": str(p["vdReturn"]),
        "packetSizeMax": int(p["packetSizeMax"]),
    }


def parse_ms(delay: str) -> float:
    """``"5ms"`` → 5.0, ``"0.5s"`` → 500.0, ``"200us"`` → 0.2 (ms)."""
    match = re.fullmatch(r"\s*([\d.]+)\s*(s|ms|us)\s*", str(delay))
    if not match:
        raise ValueError(f"not a delay: {delay!r}")
    return float(match.group(1)) * {"s": 1000.0, "ms": 1.0, "us": 1e-3}[match.group(2)]


def base_rtt_ms(params: dict) -> float:
    """The propagation RTT n0 → n4 → n0: two access links and ``hops`` core links, twice."""
    p = resolved(params)
    return 2 * (2 * p["accessDelayMs"] + p["hops"] * p["coreDelayMs"])


def bdp_bytes(params: dict) -> float:
    """Our bandwidth-delay product: the core rate times the propagation RTT (S31), bytes."""
    return resolved(params)["coreKbps"] * 1000 / 8 * base_rtt_ms(params) / 1000


def estimated_rtt_ms(params: dict, metrics: dict | None) -> float | None:
    """S31's "average RTT" of a run, estimated from its metrics: the propagation RTT plus each
    core queue's time-average backlog drained at the core rate (the ACKs' path has no queue)."""
    p = resolved(params)
    queues = [_value(metrics, f"hop{h}_mean_queue_bytes") for h in range(p["hops"])]
    if any(q is None for q in queues):
        return None
    return base_rtt_ms(params) + sum(8 * q / p["coreKbps"] for q in queues)


#: A variant of the runs: (link delay in ms, on/off law, VD's returning flows).
Variant = tuple[float, str, str]


def variant_of(params: dict) -> Variant | None:
    """The variant a run belongs to; None for topologies with unequal access and core delays."""
    p = resolved(params)
    if p["accessDelayMs"] != p["coreDelayMs"]:
        return None
    return (p["coreDelayMs"], p["onOff"], p["vdReturn"])


def main_variant(delay_ms: float) -> Variant:
    """The main campaign's settings at a link delay: Pareto on/off, Fig. 2's returning flows."""
    return (delay_ms, "pareto", "fresh")


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
    """Runs of one reference traffic (cbr or tcp) and one variant, by (maxSize, queueDisc) and
    seed."""

    reference: str
    cells: dict[tuple[int, str], dict[int, RunRecord]]
    weights: tuple[float, ...]
    variant: Variant = main_variant(1.0)
    #: Our BDP in bytes (:func:`bdp_bytes`) and the parameters it comes from.
    bdp: float = math.nan
    bdp_text: str = ""

    @classmethod
    def of(cls, runs: Iterable[RunRecord], reference: str,
           variant: Variant = main_variant(1.0)) -> Study:
        """The runs of ``reference`` traffic in ``variant``; VD's runs of a ``vdReturn``
        variant stand alone (the other schedulers have no such setting: their runs are taken
        from the variant with Fig. 2's rule)."""
        cells: dict[tuple[int, str], dict[int, RunRecord]] = defaultdict(dict)
        weights: tuple[float, ...] = ()
        bdp, bdp_text = math.nan, ""
        delay, on_off, returning = variant
        for run in runs:
            p = resolved(run.params)
            if p["reference"] != reference or p["maxSize"] is None or not run.metrics:
                continue
            wanted = (delay, on_off, returning if p["queueDisc"] == "VD" else "fresh")
            if variant_of(run.params) != wanted:
                continue
            cells[(p["maxSize"], p["queueDisc"])][run.seed] = run
            weights = weights or p["weights"]
            if not math.isfinite(bdp):
                bdp = bdp_bytes(run.params)
                bdp_text = (f"{p['coreKbps'] / 1000:g} Mb/s × {base_rtt_ms(run.params):g} ms"
                            f" = {_bytes_text(bdp)}")
        return cls(reference, cells, weights, variant, bdp, bdp_text)

    def restricted(self, seeds: Iterable[int]) -> Study:
        """The same study with only ``seeds``."""
        keep = set(seeds)
        cells = {key: {s: r for s, r in runs.items() if s in keep}
                 for key, runs in self.cells.items()}
        return Study(self.reference, {k: v for k, v in cells.items() if v}, self.weights,
                     self.variant, self.bdp, self.bdp_text)

    def with_cells(self, other: Study, schedulers: Iterable[str]) -> Study:
        """This study plus ``other``'s cells of ``schedulers`` (same seeds as this one's)."""
        seeds = {s for runs in self.cells.values() for s in runs}
        cells = dict(self.cells)
        for (size, scheduler), runs in other.restricted(seeds).cells.items():
            if scheduler in schedulers and (size, scheduler) not in cells:
                cells[(size, scheduler)] = runs
        return Study(self.reference, cells, self.weights or other.weights, self.variant,
                     self.bdp, self.bdp_text)

    def buffer_label(self, size: int) -> str:
        """``size`` as a fraction of our BDP, e.g. "12 500 B = 125 % of our BDP"; below three
        full-size packets it says so."""
        label = _size_label(size)
        if math.isfinite(self.bdp):
            label += f" = {100 * size / self.bdp:.0f} % of our BDP"
        full = self.full_packet()
        if full and size < 3 * full:
            label += f" (fewer than three {full}-B packets)"
        return label

    def full_packet(self) -> int:
        """The largest packet of the runs, bytes (UDP packetSizeMax; TCP 1000-B segments)."""
        for runs in self.cells.values():
            for run in runs.values():
                return resolved(run.params)["packetSizeMax"]
        return 0

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


def _bytes_text(value: float) -> str:
    return _size_label(int(round(value)))


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
            axis.set_title(f"{title} delay, buffer {study.buffer_label(size)}", fontsize=10)
            axis.set_xlabel("reference flow i (weight i, 125·i kb/s)")
            axis.set_ylabel("end-to-end delay (ms)")
            axis.set_xticks(xs)
            axis.set_ylim(bottom=0)
            axis.grid(alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.suptitle("Figure 4: delay of the CBR reference flows (mean ± 95 % CI over seeds);"
                 f" {_topology_text(study)}", fontsize=11)
    return fig


def _topology_text(study: Study) -> str:
    return f"{study.variant[0]:g} ms links, our BDP {study.bdp_text}"


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


#: The plan's claim ids (doc/reproductions/vertical-dimensioning.rst): Fig. 4's "outperforms in
#: all cases" and "x %-y % lower" per comparator, then the weight invariance.
FIG4_IDS = {"Aliquem": ("C1", "C2"), "SRR": ("C3", "C4"), "DRR": ("C5", "C6")}
WEIGHT_ID = "C7"
#: Fig. 5: "performs poorly" per scheduler, "DRR better for weights > 7", "regardless of the
#: buffer size", "per-flow queueing needs buffer".
EXCESS_IDS = {"DRR": "C8", "DRR-tail": "C9", "SRR": "C10", "Aliquem": "C11"}
STRICT_IDS = {"SRR": "C12", "Aliquem": "C13"}
IDEAL_ID = "C14"
BUFFER_ID = "C15"


@dataclass
class Tally:
    """Paired comparisons counted as the paper counts "better": VD (or the first scheduler)
    ahead, tied (or identical), behind."""

    wins: int = 0
    ties: int = 0
    losses: int = 0

    @property
    def total(self) -> int:
        return self.wins + self.ties + self.losses

    def add(self, other: Tally) -> Tally:
        return Tally(self.wins + other.wins, self.ties + other.ties, self.losses + other.losses)

    def text(self) -> str:
        return f"{self.wins} wins / {self.ties} ties / {self.losses} losses"

    def all_cases(self) -> str:
        """ "In all cases": agree with no loss and more wins than ties; partly with at least
        three quarters won, or with some wins and no loss; else disagree."""
        if not self.total:
            return "not evaluated"
        if self.losses == 0 and self.wins > self.ties:
            return "agree"
        partly = self.wins >= 0.75 * self.total or (self.losses == 0 and self.wins > 0)
        return "partly" if partly else "disagree"


def lower_is_better(ours: dict[int, float], theirs: dict[int, float]) -> str:
    """Paired over common seeds: "win" when ``ours`` is lower (interval of theirs - ours above
    0), "loss" when higher, "tie" when the interval holds 0 (or every seed is identical)."""
    seeds = sorted(ours.keys() & theirs.keys())
    if not seeds:
        return "none"
    outcome, _ = compare_paired([theirs[s] for s in seeds], [ours[s] for s in seeds])
    return {"A ahead": "win", "B ahead": "loss"}.get(outcome, "tie")


def _count(outcomes: Iterable[str]) -> Tally:
    outcomes = list(outcomes)
    return Tally(outcomes.count("win"), outcomes.count("tie"), outcomes.count("loss"))


def delay_tally(study: Study, size: int, other: str) -> Tally:
    """VD against ``other`` over the (flow, statistic) cases of one buffer, paired by seed."""
    return _count(lower_is_better(study.per_seed(size, "VD", f"flow{i}_{suffix}"),
                                  study.per_seed(size, other, f"flow{i}_{suffix}"))
                  for i in study.flows for suffix, _ in DELAY_STATS)


def fig4_claims(study: Study) -> list[Claim]:
    """§IV on Fig. 4: VD's delays are lower than every comparator's, by the paper's
    percentages, and about the same for every weight."""
    claims = []
    comparators = [c for c in PAPER_COMPARATORS if c in study.schedulers]
    sizes = [s for s in study.sizes if (s, "VD") in study.cells]
    if not sizes or not comparators:
        return [Claim("§IV, Fig. 4", "VD's delays vs DRR, SRR and Aliquem",
                      "needs cbr runs of VD and of a paper comparator", "not evaluated",
                      id=FIG4_IDS["Aliquem"][0])]
    for other in PAPER_COMPARATORS:
        if other not in study.schedulers:
            low, high = PAPER_DELAY_REDUCTION[other]
            claims.append(Claim(f"§IV, Fig. 4 ({other})",
                                f"VD's average delay is {low}%–{high}% lower than {other}'s",
                                f"no cbr runs of {other}", "not evaluated",
                                id=FIG4_IDS[other][1]))
    for other in comparators:
        # "VD clearly outperforms the other schedulers in all cases."
        total = Tally()
        parts, per_size = [], []
        for size in sizes:
            tally = delay_tally(study, size, other)
            total = total.add(tally)
            per_size.append(f"{tally.text()} at {study.buffer_label(size)}")
            mean_red = [r for r in _reductions(study, size, other, "mean_delay_ms")
                        if math.isfinite(r)]
            if mean_red:
                parts.append(f"{_size_label(size)}: {min(mean_red):.0f}%–{max(mean_red):.0f}%")
        claims.append(Claim(
            "§IV, Fig. 4", f"VD clearly outperforms {other} in all cases (average, 99th"
            " percentile and maximum delay of every reference flow)",
            f"VD's delay against {other}'s over the {total.total} (flow, statistic, buffer)"
            f" cases, paired over seeds: {total.text()} (" + "; ".join(per_size) + ")",
            total.all_cases(), id=FIG4_IDS[other][0]))
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
            else "disagree", id=FIG4_IDS[other][1]))
    # "The delay under VD does not vary considerably for different weight values."
    spreads = weight_spreads(study, "VD", sizes)
    text = "; ".join(f"{_size_label(s)}: VD {lo:.1f}–{hi:.1f} ms (max/min {r:.2f})"
                     for s, lo, hi, r in spreads)
    for other in comparators:
        for size, lo, hi, r in weight_spreads(study, other, sizes):
            text += f"; {other} at {_size_label(size)}: {lo:.1f}–{hi:.1f} ms (max/min {r:.2f})"
    worst = max((r for *_, r in spreads), default=math.nan)
    claims.append(Claim(
        "§IV, Fig. 4 / §III-B", "the delay under VD does not vary considerably for different"
        " weight values (its bounds are not rate proportional)", text,
        "agree" if worst <= 1.5 else "partly" if worst <= 2.5 else "disagree", id=WEIGHT_ID))
    return claims


def weight_spreads(study: Study, scheduler: str,
                   sizes: Iterable[int]) -> list[tuple[int, float, float, float]]:
    """Per buffer: the smallest and largest mean delay over the flows, and their ratio."""
    out = []
    for size in sizes:
        means = [study.estimate(size, scheduler, f"flow{i}_mean_delay_ms").mean
                 for i in study.flows]
        means = [m for m in means if math.isfinite(m)]
        if means:
            out.append((size, min(means), max(means), max(means) / min(means)))
    return out


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
        axis.plot(xs, static_ideal(study), color="0.4", lw=1, ls="--",
                  label="static share 125·i kb/s")
        for k, scheduler in enumerate(study.schedulers):
            if (size, scheduler) not in study.cells:
                continue
            estimates = [study.estimate(size, scheduler, f"flow{i}_kbps") for i in study.flows]
            _errorbar(axis, xs, estimates, _label(scheduler), **_style(scheduler, k))
        axis.set_title(f"buffer {study.buffer_label(size)}", fontsize=10)
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
                 f" share (mean ± 95 % CI over seeds); {_topology_text(study)}", fontsize=11)
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
               "relative_error_ci95", "ideal_static_kbps")


def fig5_rows(study: Study) -> list[list]:
    rows = []
    for size in study.sizes:
        ideal = study.ideal(size)
        nominal = study.ideal(size, nominal=True)
        static = static_ideal(study)
        for scheduler in study.schedulers:
            if (size, scheduler) not in study.cells:
                continue
            errors = study.relative_errors(size, scheduler)
            for i, w in zip(study.flows, study.weights, strict=True):
                e = study.estimate(size, scheduler, f"flow{i}_kbps")
                rows.append([size, scheduler, i, w, e.n, e.mean, e.half_width,
                             ideal[i - 1].mean, nominal[i - 1].mean, errors[i - 1].mean,
                             errors[i - 1].half_width, static[i - 1]])
    return rows


def _ratio_text(study: Study, size: int, scheduler: str, flows: Sequence[int]) -> str:
    errors = study.relative_errors(size, scheduler)
    return ", ".join(f"w{i} {100 * (1 + errors[i - 1].mean):.0f}%" for i in flows)


def static_ideal(study: Study) -> list[float]:
    """The static share 125·i kb/s: the core rate split by weight among the reference flows and
    every background source of one core link, all backlogged (80 weight units)."""
    for runs in study.cells.values():
        for run in runs.values():
            p = resolved(run.params)
            units = sum(p["weights"]) + p["mainBackground"] + p["crossBackground"]
            return [p["coreKbps"] * w / units for w in p["weights"]]
    return []


def ideal_sides(study: Study, size: int, scheduler: str, flows: Sequence[int],
                static: bool = False) -> Tally:
    """Per flow, whether the 95 % interval of throughput / ideal (per seed) lies above 1
    ("wins" here), holds 1 ("ties") or lies below ("losses"); ``static``: against 125·i."""
    shares = static_ideal(study) if static else None
    outcomes = []
    for i in flows:
        if shares:
            values = [x / shares[i - 1] - 1 for x in
                      study.per_seed(size, scheduler, f"flow{i}_kbps").values()]
            e = t_interval(values)
        else:
            e = study.relative_errors(size, scheduler)[i - 1]
        outcomes.append("win" if e.n and e.low > 0 else "loss" if e.n and e.high < 0
                        else "tie")
    return _count(outcomes)


def _sides_text(t: Tally) -> str:
    return f"{t.wins} above / {t.ties} at / {t.losses} below"


def excess_verdict(low: Tally, high: Tally) -> str:
    """ "Weights > 4 get an excessive share at the expense of weights 1 and 2": agree when
    every small weight is below its ideal and more large weights are above than not; partly
    when the small weights are below only."""
    if low.total and low.losses == low.total and high.wins > high.ties + high.losses:
        return "agree"
    return "partly" if low.total and low.losses == low.total else "disagree"


def fig5_claims(study: Study) -> list[Claim]:
    """§IV on Fig. 5: per-flow-queue DRR fails at 12500 B (large weights take too much, weights
    1-2 starve) and needs large buffers; VD is close to the ideal at every buffer size."""
    claims = []
    sizes = study.sizes
    small = PAPER_SMALL_BUFFER if PAPER_SMALL_BUFFER in sizes else (sizes[0] if sizes else None)
    if small is None or (small, "VD") not in study.cells:
        return [Claim("§IV, Fig. 5", "TCP throughput of VD and DRR vs the ideal share",
                      "needs tcp runs of VD", "not evaluated", id=EXCESS_IDS["DRR"])]
    low = [i for i, w in zip(study.flows, study.weights, strict=True) if w <= 2]
    high = [i for i, w in zip(study.flows, study.weights, strict=True) if w > 4]
    below = [s for s in sizes if s < small]
    for other in ("DRR", "DRR-tail", "SRR", "Aliquem"):
        if (small, other) not in study.cells:
            continue
        errors = study.relative_errors(small, other)
        low_mean = float(np.mean([errors[i - 1].mean for i in low]))
        high_mean = float(np.mean([errors[i - 1].mean for i in high]))
        vd = study.relative_errors(small, "VD")
        vd_low = float(np.mean([vd[i - 1].mean for i in low]))
        low_sides = ideal_sides(study, small, other, low)
        high_sides = ideal_sides(study, small, other, high)
        static_high = ideal_sides(study, small, other, high, static=True)
        label = {"DRR": "", "DRR-tail": " (DRR, tail stealing)"}.get(other, f" ({other})")
        name = "DRR" if other == "DRR-tail" else other
        text = (f"{other} at {study.buffer_label(small)}, throughput / ideal: "
                f"{_ratio_text(study, small, other, study.flows)}; weights 1–2 on average"
                f" {100 * (1 + low_mean):.0f}% ({_sides_text(low_sides)} their ideal), weights"
                f" > 4 {100 * (1 + high_mean):.0f}% ({_sides_text(high_sides)}; against the"
                f" static 125·i kb/s: {_sides_text(static_high)}) (VD: weights 1–2"
                f" {100 * (1 + vd_low):.0f}%)")
        for size in below:
            if (size, other) in study.cells:
                text += (f"; at {study.buffer_label(size)}: weights 1–2"
                         f" {_sides_text(ideal_sides(study, size, other, low))}, weights > 4"
                         f" {_sides_text(ideal_sides(study, size, other, high))}")
        claims.append(Claim(
            f"§IV, Fig. 5{label}",
            f"at {PAPER_SMALL_BUFFER} B (≈ 25 % of the BDP) {name} performs poorly: flows with"
            " weights > 4 get an excessive share at the expense of weights 1 and 2",
            text, excess_verdict(low_sides, high_sides), id=EXCESS_IDS[other]))
    # "DRR seems to perform better for weight values greater than 7" (than SRR and Aliquem).
    heavy = [i for i, w in zip(study.flows, study.weights, strict=True) if w > 7]
    for name in ("SRR", "Aliquem"):
        if (small, name) not in study.cells or (small, "DRR") not in study.cells:
            claims.append(Claim(
                "§IV, Fig. 5", f"DRR does better than {name} for weights > 7 at 12500 B (strict"
                " round robin)", f"needs tcp runs of DRR and {name} at 12500 B",
                "not evaluated", id=STRICT_IDS[name]))
            continue
        drr_heavy = [study.relative_errors(small, "DRR")[i - 1].mean for i in heavy]
        them_heavy = [study.relative_errors(small, name)[i - 1].mean for i in heavy]
        drr_abs = float(np.mean(np.abs(drr_heavy)))
        them_abs = float(np.mean(np.abs(them_heavy)))
        tally = _count(lower_is_better(abs_errors(study, small, "DRR", i),
                                       abs_errors(study, small, name, i)) for i in heavy)
        claims.append(Claim(
            "§IV, Fig. 5", f"DRR does better than {name} for weights > 7 at 12500 B (strict"
            " round robin: heavy flows cannot take more than their rounds)",
            f"weights > 7 at {study.buffer_label(small)}, mean |throughput / ideal − 1|: DRR"
            f" {100 * drr_abs:.0f}%, {name} {100 * them_abs:.0f}%; per weight, paired over"
            f" seeds, DRR closer: {tally.text()}",
            "agree" if tally.losses == 0 and tally.wins > tally.ties
            else "partly" if tally.wins > tally.losses else "disagree", id=STRICT_IDS[name]))
    # "VD performs very well, comparable to the ideal case, regardless of the buffer size."
    vd_sizes = [s for s in sizes if (s, "VD") in study.cells]
    errors = {s: study.mean_abs_error(s, "VD") for s in vd_sizes}
    # The paper contrasts VD with every per-flow queueing scheduler it ran (DRR, SRR, Aliquem).
    per_flow = {name: {s: study.mean_abs_error(s, name) for s in sizes
                       if (s, name) in study.cells} for name in ("DRR", "SRR", "Aliquem")}
    per_flow = {name: errs for name, errs in per_flow.items() if errs}
    drr = per_flow.get("DRR", {})
    text = "mean |throughput / ideal − 1| over the flows, VD: " + ", ".join(
        f"{study.buffer_label(s)} {100 * e.mean:.0f}%" for s, e in errors.items())
    for name, errs in per_flow.items():
        text += f"; {name}: " + ", ".join(f"{_size_label(s)} {100 * e.mean:.0f}%"
                                          for s, e in errs.items())
    worst = max((e.mean for e in errors.values()), default=math.nan)
    better = all(errors[s].mean <= errs[s].mean
                 for errs in per_flow.values() for s in errs if s in errors)
    claims.append(Claim(
        "§IV, Fig. 5", "VD's allocation is comparable to the ideal case, regardless of the"
        " buffer size", text,
        "agree" if worst <= 0.10 else "partly" if worst <= 0.25 or better else "disagree",
        id=IDEAL_ID))
    if len(drr) >= 2:
        first, last = min(drr), max(drr)
        vd_small = errors.get(first, NO_ESTIMATE)
        ratios = ", ".join(f"{name} {errs[first].mean / vd_small.mean:.1f}×"
                           for name, errs in per_flow.items() if first in errs)
        claims.append(Claim(
            "§IV, Fig. 5", "per-flow queueing (DRR) needs a large buffer for each flow to sustain"
            " its throughput; VD does not",
            f"DRR's mean error falls from {100 * drr[first].mean:.0f}% at"
            f" {study.buffer_label(first)} to {100 * drr[last].mean:.0f}% at"
            f" {_size_label(last)}; VD's is {100 * vd_small.mean:.0f}% at {_size_label(first)}"
            f" (per-flow schedulers' error there against VD's: {ratios})",
            "agree" if drr[first].mean > drr[last].mean and vd_small.mean < drr[first].mean
            else "partly" if drr[first].mean > drr[last].mean else "disagree", id=BUFFER_ID))
    return claims


def abs_errors(study: Study, size: int, scheduler: str, flow: int) -> dict[int, float]:
    """Per seed, |throughput / ideal − 1| of one flow (ideal of that seed)."""
    out = {}
    for seed, run in study.cells.get((size, scheduler), {}).items():
        x = _value(run.metrics, f"flow{flow}_kbps")
        ideal = run_ideal(run.params, run.metrics)
        if x is not None and ideal:
            out[seed] = abs(x / ideal[flow - 1] - 1)
    return out


# ----------------------------------------------------------------- entry point


def _delay_name(delay: float) -> str:
    return f"{delay:g} ms links"


def merge_claims(primary: list[Claim], other: list[Claim], primary_name: str,
                 other_name: str) -> list[Claim]:
    """One claim per id: the verdict of ``primary`` (the 5 ms topology) with ``other``'s
    numbers and verdict beside it; a claim evaluated in one topology only keeps its verdict."""
    others = {c.id: c for c in other}
    out = []
    for c in primary:
        o = others.pop(c.id, None)
        if c.verdict == "not evaluated" and o is not None and o.verdict != "not evaluated":
            out.append(replace(o, ours=f"[{other_name} only] {o.ours}"))
            continue
        ours = f"[{primary_name}] {c.ours}"
        if o is not None:
            ours += f" ‖ [{other_name}, verdict there: {o.verdict}] {o.ours}"
        out.append(replace(c, ours=ours))
    out += [replace(o, ours=f"[{other_name} only] {o.ours}") for o in others.values()]
    return sorted(out, key=lambda c: int(c.id[1:]))


@dataclass
class Variants:
    """The variant campaign's studies (None when it was not run) beside the main ones."""

    main: dict[tuple[str, float], Study]
    runs: list[RunRecord] | None

    def study(self, reference: str, variant: Variant) -> Study:
        return Study.of(self.runs or [], reference, variant)

    def seeds(self, study: Study) -> list[int]:
        return sorted({s for runs in study.cells.values() for s in runs})


def _fig4_cause(v: Variants, other: str) -> str:
    parts = []
    for delay in TOPOLOGY_DELAYS:
        main = v.main.get(("cbr", delay))
        nodrop = v.study("cbr", main_variant(delay))
        big = [s for s in nodrop.sizes if (s, "VD") in nodrop.cells and (s, other) in nodrop.cells]
        for size in big:
            red = [r for r in _reductions(nodrop, size, other, "mean_delay_ms")
                   if math.isfinite(r)]
            parts.append(f"fig4-nodrop, {_delay_name(delay)}, {_size_label(size)} (no overflow):"
                         f" {delay_tally(nodrop, size, other).text()}, average"
                         f" {min(red):.0f}%–{max(red):.0f}% lower" if red else "")
        for name, variant, baseline in (
                ("vd-return (VD with --vdReturn=keep)", (delay, "pareto", "keep"),
                 "Fig. 2's rule"),
                ("onoff-exp (exponential periods)", (delay, "exponential", "fresh"), "Pareto")):
            study = v.study("cbr", variant)
            if not study.cells or main is None:
                continue
            both = study.with_cells(main, [other])
            fresh = main.restricted(v.seeds(study))
            for size in study.sizes:
                if (size, other) in both.cells and (size, "VD") in both.cells:
                    parts.append(
                        f"{name}, {_delay_name(delay)}, {_size_label(size)}:"
                        f" {delay_tally(both, size, other).text()} ({baseline}, same seeds:"
                        f" {delay_tally(fresh, size, other).text()})")
    parts = [p for p in parts if p]
    return "; ".join(parts) if parts else "variant not run"


def _fig5_vd_cause(v: Variants) -> str:
    parts = []
    for delay in TOPOLOGY_DELAYS:
        main = v.main.get(("tcp", delay))
        for name, variant in (("vd-return (VD with --vdReturn=keep)", (delay, "pareto", "keep")),
                              ("onoff-exp (exponential periods)",
                               (delay, "exponential", "fresh"))):
            study = v.study("tcp", variant)
            if not study.cells or main is None:
                continue
            fresh = main.restricted(v.seeds(study))
            for size in study.sizes:
                if (size, "VD") in study.cells:
                    parts.append(f"{name}, {_delay_name(delay)}, {_size_label(size)}: VD's mean"
                                 f" error {100 * study.mean_abs_error(size, 'VD').mean:.0f}%"
                                 f" (Fig. 2's rule / Pareto, same seeds:"
                                 f" {100 * fresh.mean_abs_error(size, 'VD').mean:.0f}%)")
    return "; ".join(parts) if parts else "variant not run"


def add_causes(claims: list[Claim], v: Variants) -> None:
    """Set each "partly" / "disagree" claim's cause: the variant runs that change it."""
    by_id = {c.id: c for c in claims}
    for other, ids in FIG4_IDS.items():
        cause = None
        for claim_id in ids:
            claim = by_id.get(claim_id)
            if claim and claim.verdict in ("partly", "disagree"):
                cause = cause or _fig4_cause(v, other)
                claim.cause = (f"{cause}. The 1 ms topology (main runs) is beside the verdict"
                               " in 'ours'")
    claim = by_id.get(WEIGHT_ID)
    if claim and claim.verdict in ("partly", "disagree"):
        parts = []
        for delay in TOPOLOGY_DELAYS:
            keep = v.study("cbr", (delay, "pareto", "keep"))
            for size, lo, hi, r in weight_spreads(keep, "VD", keep.sizes):
                parts.append(f"vd-return, {_delay_name(delay)}, {_size_label(size)}: VD"
                             f" {lo:.1f}–{hi:.1f} ms (max/min {r:.2f})")
        claim.cause = "; ".join(parts) or "variant not run"
    for other, claim_id in EXCESS_IDS.items():
        claim = by_id.get(claim_id)
        if not claim or claim.verdict not in ("partly", "disagree"):
            continue
        parts = []
        for delay in TOPOLOGY_DELAYS:
            main = v.main.get(("tcp", delay))
            if main is None:
                continue
            high = [i for i, w in zip(main.flows, main.weights, strict=True) if w > 4]
            for size in main.sizes:
                if size <= PAPER_SMALL_BUFFER and (size, other) in main.cells:
                    parts.append(
                        f"{_delay_name(delay)}, {main.buffer_label(size)} (main runs): weights"
                        f" > 4 {_sides_text(ideal_sides(main, size, other, high))} the fluid"
                        f" ideal, {_sides_text(ideal_sides(main, size, other, high, True))}"
                        " the static 125·i kb/s")
        claim.cause = ("the BDP fraction and the ideal (U9), changed one at a time: "
                       + "; ".join(parts))
    for name, claim_id in STRICT_IDS.items():
        claim = by_id.get(claim_id)
        if not claim or claim.verdict not in ("partly", "disagree"):
            continue
        parts = []
        for delay in TOPOLOGY_DELAYS:
            exp = v.study("tcp", (delay, "exponential", "fresh"))
            heavy = [i for i, w in zip(exp.flows, exp.weights, strict=True) if w > 7]
            if (PAPER_SMALL_BUFFER, name) in exp.cells and (PAPER_SMALL_BUFFER, "DRR") in exp.cells:
                tally = _count(lower_is_better(abs_errors(exp, PAPER_SMALL_BUFFER, "DRR", i),
                                               abs_errors(exp, PAPER_SMALL_BUFFER, name, i))
                               for i in heavy)
                parts.append(f"onoff-exp, {_delay_name(delay)}: DRR closer {tally.text()}")
        claim.cause = "; ".join(parts) or "variant not run"
    for claim_id in (IDEAL_ID, BUFFER_ID):
        claim = by_id.get(claim_id)
        if claim and claim.verdict in ("partly", "disagree"):
            claim.cause = _fig5_vd_cause(v)


# ----------------------------------------------------------------- sensitivity and variants


SENSITIVITY_HEADER = ("source", "link_delay_ms", "maxSize_bytes", "bdp_bytes", "bdp_fraction",
                      "queueDisc", "n", "mean_abs_error", "mean_abs_error_ci95",
                      "low_weights_ratio", "est_rtt_ms")


def sensitivity_rows(v: Variants) -> list[list]:
    """Fig. 5's headline against the buffer as a fraction of our BDP: the main topologies and
    the variant campaign's delay sweep (12500 B at 2, 3, 4 ms)."""
    studies = [("main", v.main[k]) for k in sorted(v.main) if k[0] == "tcp"]
    for delay in sorted({variant_of(r.params)[0] for r in v.runs or []
                         if variant_of(r.params)} - set(TOPOLOGY_DELAYS)):
        studies.append(("delay sweep", v.study("tcp", main_variant(delay))))
    rows = []
    for source, study in studies:
        low = [i for i, w in zip(study.flows, study.weights, strict=True) if w <= 2]
        for size in study.sizes:
            for scheduler in study.schedulers:
                if (size, scheduler) not in study.cells or scheduler in ("FIFO", "DRR-tail"):
                    continue
                e = study.mean_abs_error(size, scheduler)
                errors = study.relative_errors(size, scheduler)
                rtts = [x for r in study.cells[(size, scheduler)].values()
                        if (x := estimated_rtt_ms(r.params, r.metrics)) is not None]
                rows.append([source, study.variant[0], size, study.bdp, size / study.bdp,
                             scheduler, e.n, e.mean, e.half_width,
                             float(np.mean([1 + errors[i - 1].mean for i in low])),
                             float(np.mean(rtts)) if rtts else math.nan])
    return rows


def sensitivity_figure(rows: list[list]) -> Figure:
    fig = Figure(figsize=(15, 4.4), layout="constrained")
    axes = fig.subplots(1, 3)
    # 1 ms links: circles, 5 ms: triangles, the delay sweep (2-4 ms): squares.
    markers = {("main", 1.0): "o", ("main", 5.0): "^"}
    for k, scheduler in enumerate(_order({r[5] for r in rows})):
        style = _style(scheduler, k)
        for group in dict.fromkeys((r[0], r[1] if r[0] == "main" else None) for r in rows):
            mine = sorted((r for r in rows if r[5] == scheduler and r[0] == group[0]
                           and (group[1] is None or r[1] == group[1])), key=lambda r: r[4])
            if not mine:
                continue
            marker = markers.get(group, "s")
            where = f"{group[1]:g} ms" if group[1] is not None else group[0]
            label = f"{_label(scheduler)} ({where})"
            axes[0].errorbar([r[4] for r in mine], [r[7] for r in mine],
                             yerr=[r[8] if math.isfinite(r[8]) else 0 for r in mine],
                             marker=marker, ls="none", capsize=2, label=label,
                             color=style["color"])
            axes[1].plot([r[4] for r in mine], [r[9] for r in mine], marker=marker,
                         ls="none", color=style["color"], label=label)
        at_paper = sorted((r for r in rows if r[5] == scheduler and r[2] == PAPER_SMALL_BUFFER),
                          key=lambda r: r[1])
        axes[2].plot([r[1] for r in at_paper], [r[10] for r in at_paper], marker="o",
                     color=style["color"], label=_label(scheduler))
    for axis in axes[:2]:
        axis.set_xscale("log")
        axis.axvline(0.25, color="0.4", ls=":", lw=1)
        axis.set_xlabel("buffer / our BDP (10 Mb/s × propagation RTT)")
        axis.grid(alpha=0.3)
    axes[0].set_title("Fig. 5: mean |throughput / ideal − 1| over the flows", fontsize=10)
    axes[0].set_ylim(bottom=0)
    axes[0].legend(fontsize=6, ncol=2)
    axes[1].set_title("weights 1–2: throughput / ideal (mean)", fontsize=10)
    axes[1].axhline(1, color="black", lw=0.8)
    axes[2].set_title("12 500 B: estimated average RTT (propagation + queues)", fontsize=10)
    axes[2].axhline(40, color="0.4", ls=":", lw=1)
    axes[2].set_xlabel("delay of every link (ms)")
    axes[2].set_ylabel("RTT (ms)")
    axes[2].grid(alpha=0.3)
    axes[2].legend(fontsize=7)
    fig.suptitle("Sensitivity of Fig. 5 to the BDP (link delay, U3) and the buffer (U8); dotted:"
                 " the paper's 25 % and the 40 ms RTT it implies", fontsize=11)
    return fig


VARIANT4_HEADER = ("variant", "link_delay_ms", "maxSize_bytes", "comparator", "seeds", "wins",
                   "ties", "losses", "vd_p99_w8_10_ms", "comparator_p99_w8_10_ms")


def variant4_rows(v: Variants) -> list[list]:
    rows = []
    for delay in TOPOLOGY_DELAYS:
        main = v.main.get(("cbr", delay))
        if main is None:
            continue
        settings = [("nodrop", v.study("cbr", main_variant(delay)))]
        keep = v.study("cbr", (delay, "pareto", "keep"))
        if keep.cells:
            settings += [("fresh (main, same seeds)", main.restricted(v.seeds(keep))),
                         ("keep", keep.with_cells(main, PAPER_COMPARATORS))]
        settings.append(("exponential", v.study("cbr", (delay, "exponential", "fresh"))))
        heavy = [i for i, w in zip(main.flows, main.weights, strict=True) if w > 7]
        for name, study in settings:
            for size in study.sizes:
                for other in PAPER_COMPARATORS:
                    if (size, "VD") not in study.cells or (size, other) not in study.cells:
                        continue
                    t = delay_tally(study, size, other)
                    p99 = [float(np.mean([study.estimate(size, q, f"flow{i}_p99_delay_ms").mean
                                          for i in heavy])) for q in ("VD", other)]
                    rows.append([name, delay, size, other, len(v.seeds(study)), t.wins, t.ties,
                                 t.losses, *p99])
    return rows


def variant4_figure(rows: list[list]) -> Figure:
    fig = Figure(figsize=(15, 4.6), layout="constrained")
    axes = fig.subplots(1, len(PAPER_COMPARATORS))
    for axis, other in zip(axes, PAPER_COMPARATORS, strict=True):
        mine = [r for r in rows if r[3] == other]
        labels = [f"{r[0]}\n{r[1]:g} ms, {r[2] / 1000:g} kB" for r in mine]
        xs = np.arange(len(mine))
        bottom = np.zeros(len(mine))
        for column, name, color in ((5, "VD lower (win)", "C2"), (6, "tie", "0.7"),
                                    (7, "VD higher (loss)", "C3")):
            values = np.array([r[column] for r in mine], dtype=float)
            axis.bar(xs, values, bottom=bottom, color=color, label=name)
            bottom += values
        axis.set_xticks(xs, labels, rotation=90, fontsize=6)
        axis.set_title(f"VD vs {other}: (flow, statistic) delay cases", fontsize=10)
    axes[0].legend(fontsize=7)
    fig.suptitle("Fig. 4 variants (3 seeds): no overflow, VD keeping returning flows' rounds,"
                 " exponential on/off", fontsize=11)
    return fig


VARIANT5_HEADER = ("variant", "link_delay_ms", "maxSize_bytes", "queueDisc", "seeds",
                   "mean_abs_error", "mean_abs_error_ci95")


def variant5_rows(v: Variants) -> list[list]:
    rows = []
    for delay in TOPOLOGY_DELAYS:
        main = v.main.get(("tcp", delay))
        if main is None:
            continue
        keep = v.study("tcp", (delay, "pareto", "keep"))
        exp = v.study("tcp", (delay, "exponential", "fresh"))
        seeds = v.seeds(keep) or v.seeds(exp)
        for name, study in (("fresh (main, same seeds)", main.restricted(seeds)), ("keep", keep),
                            ("exponential", exp)):
            for size in study.sizes:
                if size != PAPER_SMALL_BUFFER:
                    continue
                for scheduler in study.schedulers:
                    if scheduler in ("FIFO", "DRR-tail"):
                        continue
                    e = study.mean_abs_error(size, scheduler)
                    rows.append([name, delay, size, scheduler, e.n, e.mean, e.half_width])
    return rows


def variant5_figure(rows: list[list]) -> Figure:
    fig = Figure(figsize=(10, 4.4), layout="constrained")
    axis = fig.subplots()
    groups = list(dict.fromkeys((r[0], r[1]) for r in rows))
    schedulers = _order({r[3] for r in rows})
    width = 0.8 / max(len(schedulers), 1)
    for k, scheduler in enumerate(schedulers):
        values = [next((r[5] for r in rows if (r[0], r[1]) == g and r[3] == scheduler), math.nan)
                  for g in groups]
        axis.bar(np.arange(len(groups)) + k * width, values, width, label=_label(scheduler),
                 color=_style(scheduler, k)["color"])
    axis.set_xticks(np.arange(len(groups)) + 0.4 - width / 2,
                    [f"{name}\n{delay:g} ms" for name, delay in groups], fontsize=7)
    axis.set_ylabel("mean |throughput / ideal − 1|")
    axis.set_title("Fig. 5 at 12 500 B: variants (3 seeds)", fontsize=10)
    axis.legend(fontsize=7)
    axis.grid(alpha=0.3, axis="y")
    return fig


# ----------------------------------------------------------------- entry point


def make_figures(db_path: Path, out_dir: Path) -> FigureSet:
    """Write fig4 and fig5 for both topologies, the sensitivity and variant figures, and the
    claims, from the database ``db_path`` (and the variant campaign's, if it exists)."""
    meta, runs = load_campaign_runs(db_path)
    result = FigureSet(NAME, out_dir)
    mode = meta.get("mode", "full")
    main = {(reference, delay): Study.of(runs, reference, main_variant(delay))
            for reference in ("cbr", "tcp") for delay in TOPOLOGY_DELAYS}
    main = {k: study for k, study in main.items() if study.cells}
    variant_path = variants_db(db_path, NAME) if mode == "full" else None
    variants = Variants(main, load_campaign_runs(variant_path)[1] if variant_path else None)
    result.notes.append(runs_note(runs, mode, "; ".join(
        f"{reference}, {_delay_name(delay)}: {', '.join(study.schedulers)} ×"
        f" {len(study.sizes)} buffer(s)" for (reference, delay), study in main.items())))
    if mode == "quick":
        result.notes.append("Quick campaign: 20 s runs, fewer seeds and settings; the verdicts"
                            " are indicative only.")
    result.notes += [
        "Topology reconstructed from the text (the paper's Fig. 3 did not survive): a parking"
        " lot n0 – n1 = n2 = n3 – n4 with n5 → n6 crossing n1 = n2 and n7 → n8 crossing"
        " n2 = n3; core links 10 Mb/s, access links 100 Mb/s. At 10 Mb/s the reference flows'"
        " 125·i kb/s are exactly the static weighted share of a link with all 80 weight units"
        " backlogged, and the mean offered load of each core link is 10 Mb/s.",
        "Two topologies: 1 ms on every link (the paper's; base RTT 8 ms, so its 12500 B is"
        " 125 % of our BDP) and 5 ms (base RTT 40 ms: 12500 B is 25 % of the BDP, as the paper"
        " says). Buffers are labelled as a fraction of our BDP; each claim's verdict is the 5 ms"
        " topology's, with the 1 ms numbers and verdict beside it. 2500 B (25 % at 1 ms) holds"
        " fewer than three full-size packets and judges no claim alone.",
        "Wins / ties / losses: per case, the paired 95 % interval of the difference over the"
        " common seeds lies on the paper's side of 0, holds 0, or lies on the other side.",
        "The ideal share is the fluid (GPS) weighted max-min share averaged over the"
        " background's on/off states (each source on with the probability its measured"
        " offered load gives); the static 125·i kb/s (every source at its mean rate) is drawn"
        " dashed and counted in the claims' text.",
        "SRR (Guo's Weight Spread Sequence, quantum 1000 B per visit) and Aliquem (q = 5,"
        " phi = 200 B per weight unit) steal from the head of the longest weighted queue, as"
        " DRR does; DRR-tail and FIFO are ours, not the paper's.",
        "Variant campaign: " + (f"{len(variants.runs)} runs" if variants.runs is not None
                                else "not run (causes say 'variant not run')") + ".",
    ]
    claims: dict[float, list[Claim]] = {}
    for delay in sorted(TOPOLOGY_DELAYS):
        stem = "" if delay == 1.0 else f"-{delay:g}ms"
        cbr, tcp = main.get(("cbr", delay)), main.get(("tcp", delay))
        claims[delay] = []
        if cbr is not None:
            result.artifacts.append(figure_artifact(
                fig4_figure(cbr), out_dir, f"fig4{stem}", FIG4_HEADER, fig4_rows(cbr),
                f"Figure 4: delay properties of the schedulers (UDP sources), {_delay_name(delay)}",
                "Ten CBR reference flows n0 → n4 at 125·i kb/s, weight i, with 35 Pareto on/off"
                " background flows; end-to-end delay of the packets sent after the warm-up:"
                " mean, 99th percentile (nearest rank) and maximum per run, averaged over seeds;"
                f" our BDP {cbr.bdp_text}."))
        if cbr is not None or not any(k[0] == "cbr" for k in main):
            claims[delay] += fig4_claims(cbr or Study("cbr", {}, ()))
        if tcp is not None:
            result.artifacts.append(figure_artifact(
                fig5_figure(tcp), out_dir, f"fig5{stem}", FIG5_HEADER, fig5_rows(tcp),
                f"Figure 5: fairness properties of the schedulers (TCP sources),"
                f" {_delay_name(delay)}",
                "Ten long-lived TCP reference flows n0 → n4 with weight i, with 35 Pareto on/off"
                " background flows; IPv4-layer throughput after the warm-up, against the ideal"
                " weighted max-min share (fluid model over the on/off states, black; the static"
                " 125·i kb/s dashed); ideal_nominal_kbps in the CSV takes the sources' nominal on"
                f" probability 1/2; our BDP {tcp.bdp_text}."))
        if tcp is not None or not any(k[0] == "tcp" for k in main):
            claims[delay] += fig5_claims(tcp or Study("tcp", {}, ()))
    result.claims += merge_claims(claims[PRIMARY_DELAY], claims[1.0],
                                  _delay_name(PRIMARY_DELAY), _delay_name(1.0))
    add_causes(result.claims, variants)
    rows = sensitivity_rows(variants)
    if rows:
        result.artifacts.append(figure_artifact(
            sensitivity_figure(rows), out_dir, "sensitivity", SENSITIVITY_HEADER, rows,
            "Sensitivity: Fig. 5's headline against the buffer as a fraction of our BDP",
            "Mean |throughput / ideal − 1| over the ten TCP flows and the weights 1–2 flows'"
            " share of their ideal, per scheduler, against buffer / BDP: the 1 ms and 5 ms"
            " topologies (ten seeds) and the variant campaign's delay sweep (12500 B, 2-4 ms"
            " links, three seeds); and the estimated average RTT at 12500 B."))
    if variants.runs:
        rows4, rows5 = variant4_rows(variants), variant5_rows(variants)
        if rows4:
            result.artifacts.append(figure_artifact(
                variant4_figure(rows4), out_dir, "variant-fig4", VARIANT4_HEADER, rows4,
                "Variants of Fig. 4: the causes of VD's delay verdicts",
                "VD against each comparator over the (flow, statistic) delay cases, paired over"
                " seeds 1-3: without overflow (1,000,000 B), with --vdReturn=keep (and Fig. 2's"
                " rule on the same seeds), and with exponential on/off periods."))
        if rows5:
            result.artifacts.append(figure_artifact(
                variant5_figure(rows5), out_dir, "variant-fig5", VARIANT5_HEADER, rows5,
                "Variants of Fig. 5 at 12500 B",
                "Mean |throughput / ideal − 1| at 12500 B, seeds 1-3: the main runs, VD with"
                " --vdReturn=keep, and exponential on/off periods, in both topologies."))
    return result
