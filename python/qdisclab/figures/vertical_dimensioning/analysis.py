# SPDX-License-Identifier: GPL-2.0-only
"""The Vertical Dimensioning reproduction's numbers from the runs: parameters and the BDP, the
fluid (GPS) ideal share, the runs by topology and variant (:class:`Study`), and the variant
campaign's runs."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

import numpy as np
from scipy import stats

from qdisclab.campaign.store import RunRecord
from qdisclab.figures.common import (
    Estimate,
    RunParams,
    metric_value,
    parse_bytes,
    parse_mbps,
    t_interval,
)


# ----------------------------------------------------------------- topologies and schedulers

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


# ----------------------------------------------------------------- parameters
#
# A run's parameters are a mapping of every parameter it had: a metrics report's ``params``
# (the program's defaults included), or :class:`RunParams` of a stored run. The example's
# defaults are its own (``--schema``); nothing here fills them in.


def weights_of(params: Mapping) -> list[float]:
    """The reference flows' weights of a run."""
    return [float(w) for w in str(params["weights"]).split(",")]


#: An ns-2.35 run's Queue/SRR has no shared buffer: each flow's queue holds ``limit`` packets
#: (validation/ns2/vertical-dimensioning-evaluation.tcl). Its runs are placed at ``limit`` times
#: this many bytes (the full-size packets one queue may hold) and labelled by the limit.
NS2_LIMIT_BYTES = 1000


def resolved(params: Mapping) -> dict:
    """The parameters of a run used here, parsed; an ns-2 run (a ``limit``, no ``maxSize``) at
    ``limit`` x :data:`NS2_LIMIT_BYTES`. ``vdReturn`` is VD's alone (None for the others: the
    example reports it for VD only)."""
    limit = int(params["limit"]) if "limit" in params and "maxSize" not in params else None
    p = params
    queue = str(p["queueDisc"])
    return {
        "queueDisc": queue,
        "reference": str(p["reference"]),
        "maxSize": (limit * NS2_LIMIT_BYTES if limit is not None
                    else parse_bytes(p["maxSize"])),
        "limit": limit,
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
        "vdReturn": str(p["vdReturn"]) if queue == "VD" else None,
        "packetSizeMax": int(p["packetSizeMax"]),
    }


def parse_ms(delay: str) -> float:
    """``"5ms"`` → 5.0, ``"0.5s"`` → 500.0, ``"200us"`` → 0.2 (ms)."""
    match = re.fullmatch(r"\s*([\d.]+)\s*(s|ms|us)\s*", str(delay))
    if not match:
        raise ValueError(f"not a delay: {delay!r}")
    return float(match.group(1)) * {"s": 1000.0, "ms": 1.0, "us": 1e-3}[match.group(2)]


def base_rtt_ms(params: Mapping) -> float:
    """The propagation RTT n0 → n4 → n0: two access links and ``hops`` core links, twice."""
    p = resolved(params)
    return 2 * (2 * p["accessDelayMs"] + p["hops"] * p["coreDelayMs"])


def bdp_bytes(params: Mapping) -> float:
    """Our bandwidth-delay product: the core rate times the propagation RTT (S31), bytes."""
    return resolved(params)["coreKbps"] * 1000 / 8 * base_rtt_ms(params) / 1000


def estimated_rtt_ms(params: Mapping, metrics: dict | None) -> float | None:
    """S31's "average RTT" of a run, estimated from its metrics: the propagation RTT plus each
    core queue's time-average backlog drained at the core rate (the ACKs' path has no queue)."""
    p = resolved(params)
    queues = [metric_value(metrics, f"hop{h}_mean_queue_bytes") for h in range(p["hops"])]
    if any(q is None for q in queues):
        return None
    return base_rtt_ms(params) + sum(8 * q / p["coreKbps"] for q in queues)


#: A variant of the runs: (link delay in ms, on/off law, VD's returning flows; None for the
#: other schedulers, which have no such setting).
Variant = tuple[float, str, str | None]


def variant_of(params: Mapping) -> Variant | None:
    """The variant a run belongs to; None for topologies with unequal access and core delays."""
    p = resolved(params)
    if p["accessDelayMs"] != p["coreDelayMs"]:
        return None
    return (p["coreDelayMs"], p["onOff"], p["vdReturn"])


def main_variant(delay_ms: float) -> Variant:
    """The main campaign's settings at a link delay: Pareto on/off, Fig. 2's returning flows."""
    return (delay_ms, "pareto", "fresh")


def scheduler_order(schedulers: Iterable[str]) -> list[str]:
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


def run_ideal(params: Mapping, metrics: dict | None, nominal: bool = False) -> list[float] | None:
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
            offered = metric_value(metrics, f"{name}_offered_kbps")
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
    #: Whether the runs are ns-2.35's, whose buffer is a limit per flow queue (packets).
    per_queue_limit: bool = False

    @classmethod
    def of(cls, runs: Iterable[RunRecord], reference: str,
           variant: Variant = main_variant(1.0)) -> Study:
        """The runs of ``reference`` traffic in ``variant``; VD's runs of a ``vdReturn``
        variant stand alone (the other schedulers have no such setting: their runs are taken
        from the variant with Fig. 2's rule)."""
        cells: dict[tuple[int, str], dict[int, RunRecord]] = defaultdict(dict)
        weights: tuple[float, ...] = ()
        bdp, bdp_text = math.nan, ""
        per_queue = False
        delay, on_off, returning = variant
        for run in runs:
            params = RunParams(run)
            p = resolved(params)
            if p["reference"] != reference or p["maxSize"] is None or not run.metrics:
                continue
            wanted = (delay, on_off, returning if p["queueDisc"] == "VD" else None)
            if variant_of(params) != wanted:
                continue
            cells[(p["maxSize"], p["queueDisc"])][run.seed] = run
            per_queue = per_queue or p["limit"] is not None
            weights = weights or p["weights"]
            if not math.isfinite(bdp):
                bdp = bdp_bytes(params)
                bdp_text = (f"{p['coreKbps'] / 1000:g} Mb/s × {base_rtt_ms(params):g} ms"
                            f" = {_bytes_text(bdp)}")
        return cls(reference, cells, weights, variant, bdp, bdp_text, per_queue)

    def restricted(self, seeds: Iterable[int]) -> Study:
        """The same study with only ``seeds``."""
        keep = set(seeds)
        cells = {key: {s: r for s, r in runs.items() if s in keep}
                 for key, runs in self.cells.items()}
        return Study(self.reference, {k: v for k, v in cells.items() if v}, self.weights,
                     self.variant, self.bdp, self.bdp_text, self.per_queue_limit)

    def with_cells(self, other: Study, schedulers: Iterable[str]) -> Study:
        """This study plus ``other``'s cells of ``schedulers`` (same seeds as this one's)."""
        seeds = {s for runs in self.cells.values() for s in runs}
        cells = dict(self.cells)
        for (size, scheduler), runs in other.restricted(seeds).cells.items():
            if scheduler in schedulers and (size, scheduler) not in cells:
                cells[(size, scheduler)] = runs
        return Study(self.reference, cells, self.weights or other.weights, self.variant,
                     self.bdp, self.bdp_text, self.per_queue_limit)

    def buffer_label(self, size: int) -> str:
        """``size`` as a fraction of our BDP, e.g. "12 500 B = 125 % of our BDP"; below three
        full-size packets it says so. ns-2.35's runs: the limit of each flow queue."""
        if self.per_queue_limit:
            return (f"limit_ {size // NS2_LIMIT_BYTES} packets per flow queue (ns-2's Queue/SRR,"
                    " no shared buffer)")
        label = size_label(size)
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
                return resolved(RunParams(run))["packetSizeMax"]
        return 0

    @property
    def sizes(self) -> list[int]:
        return sorted({size for size, _ in self.cells})

    @property
    def schedulers(self) -> list[str]:
        return scheduler_order({q for _, q in self.cells})

    @property
    def flows(self) -> list[int]:
        return list(range(1, len(self.weights) + 1))

    def estimate(self, size: int, scheduler: str, metric: str) -> Estimate:
        """Mean and 95 % interval over seeds of a metric in one cell."""
        runs = self.cells.get((size, scheduler), {})
        return t_interval(v for r in runs.values()
                          if (v := metric_value(r.metrics, metric)) is not None)

    def per_seed(self, size: int, scheduler: str, metric: str) -> dict[int, float]:
        runs = self.cells.get((size, scheduler), {})
        return {s: v for s, r in runs.items() if (v := metric_value(r.metrics, metric)) is not None}

    def ideal(self, size: int, nominal: bool = False) -> list[Estimate]:
        """The ideal share of each flow, over the seeds of any scheduler at this size (the
        background's offered load depends on the seed only)."""
        by_seed: dict[int, list[float]] = {}
        for (s, _), runs in self.cells.items():
            if s != size:
                continue
            for seed, run in runs.items():
                if seed not in by_seed and (ideal := run_ideal(RunParams(run), run.metrics,
                                                               nominal)) is not None:
                    by_seed[seed] = ideal
        return [t_interval(v[i] for v in by_seed.values()) for i in range(len(self.weights))]

    def relative_errors(self, size: int, scheduler: str) -> list[Estimate]:
        """Per flow, throughput / ideal − 1 (per seed, paired with that seed's ideal)."""
        out = []
        for i in self.flows:
            values = []
            for seed, run in self.cells.get((size, scheduler), {}).items():
                x = metric_value(run.metrics, f"flow{i}_kbps")
                ideal = run_ideal(RunParams(run), run.metrics)
                if x is not None and ideal:
                    values.append(x / ideal[i - 1] - 1)
            out.append(t_interval(values))
        return out

    def mean_abs_error(self, size: int, scheduler: str) -> Estimate:
        """Mean over the flows of |throughput / ideal − 1|, with its interval over seeds."""
        per_seed = defaultdict(list)
        for seed, run in self.cells.get((size, scheduler), {}).items():
            ideal = run_ideal(RunParams(run), run.metrics)
            if not ideal:
                continue
            for i in self.flows:
                x = metric_value(run.metrics, f"flow{i}_kbps")
                if x is not None:
                    per_seed[seed].append(abs(x / ideal[i - 1] - 1))
        return t_interval(float(np.mean(v)) for v in per_seed.values() if v)


def size_label(size: int) -> str:
    return f"{size:,} B".replace(",", " ")


def _bytes_text(value: float) -> str:
    return size_label(int(round(value)))


def static_ideal(study: Study) -> list[float]:
    """The static share 125·i kb/s: the core rate split by weight among the reference flows and
    every background source of one core link, all backlogged (80 weight units)."""
    for runs in study.cells.values():
        for run in runs.values():
            p = resolved(RunParams(run))
            units = sum(p["weights"]) + p["mainBackground"] + p["crossBackground"]
            return [p["coreKbps"] * w / units for w in p["weights"]]
    return []


# ----------------------------------------------------------------- variant campaign


@dataclass
class Variants:
    """The variant campaign's studies (None when it was not run) beside the main ones."""

    main: dict[tuple[str, float], Study]
    runs: list[RunRecord] | None

    def study(self, reference: str, variant: Variant) -> Study:
        return Study.of(self.runs or [], reference, variant)

    def seeds(self, study: Study) -> list[int]:
        return sorted({s for runs in study.cells.values() for s in runs})
