# SPDX-License-Identifier: GPL-2.0-only
"""The DRR evaluation's numbers from the runs: the calibration, the runs' parameters, Fig. 3's
cells, the 2^3 r factorial designs and the variant campaign.

Calibration rules and the values they chose (doc: "Calibration result") are here; the
verdicts are in :mod:`.claims`.
"""

from __future__ import annotations

import math
from collections import ChainMap, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from qdisclab.campaign.store import RunRecord
from qdisclab.factorial import MINUS, FactorialError, FactorialResult, analyze
from qdisclab.figures.common import (
    Estimate,
    RunParams,
    metric_value,
    parse_bytes,
    parse_mbps,
    t_interval,
)
from qdisclab.figures.drr_evaluation.paper import (
    B_LEVELS,
    FACTORS,
    FLOWS,
    MAPPINGS,
    P_LEVELS,
    Q_LEVELS,
    READINGS,
    Cell,
)


# ----------------------------------------------------------------- metrics

STD = "throughput_std_kbps"
DELAY = "mean_delay_s"
RATIO = "arrival_ratio"
CONFIDENCE = 0.95


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


# ----------------------------------------------------------------- the calibration

#: The calibration's anchor cells (plan: S15, S16, S22): one number per buffer and one for
#: the background; their claims are re-scoped to the other cells.
DELAY_ANCHORS: tuple[Cell, ...] = ((1000, 1.0, "FIFO"), (1000, 1.0, "DRR"))
RATIO_ANCHOR: Cell = (500, 1.5, "FIFO")

#: The buffers chosen on the anchor cells (doc: "Calibration result"): DropTail's limit in
#: packets, DRR's blimit_ with ns-2's head drop and with tail drop (the variant).
DROPTAIL_LIMIT = "400p"
DRR_BLIMIT_HEAD = "650000B"
DRR_BLIMIT_TAIL = "200000B"

#: The factorial's background as (background flows, bgPacketSize (0 = P), bgIntervalMin,
#: bgIntervalMax ms): the final campaign's (chosen on S22), and the variant campaign's sizes.
Background = tuple[int, int, float, float]
BACKGROUND: Background = (1, 1000, 5.0, 15.0)
#: The factorial's DRR Buckets (the program's default): the measured flow and the background
#: in buckets of their own. The variant ``factorial-one-bucket`` runs DRR with one bucket.
FACTORIAL_BUCKETS = 10

#: Queue configurations of the factorial designs: Q's two halves as
#: (queueDisc, maxSize, dropFrom) with the program's defaults filled in
#: (campaigns/drr-evaluation.toml runs exactly these).
QueueConfig = tuple[str, str, str]
VARIANTS: dict[str, tuple[QueueConfig, QueueConfig]] = {
    "main": (("FIFO", DROPTAIL_LIMIT, ""), ("DRR", DRR_BLIMIT_HEAD, "Head")),
    "drr-tail": (("FIFO", DROPTAIL_LIMIT, ""), ("DRR", DRR_BLIMIT_TAIL, "Tail")),
    "equal-buffers": (("FIFO", DRR_BLIMIT_HEAD, ""), ("DRR", DRR_BLIMIT_HEAD, "Head")),
}
VARIANT_LABELS = {
    "main": "ours",
    "drr-tail": "ours, DRR tail drop",
    "equal-buffers": f"ours, DropTail {parse_bytes(DRR_BLIMIT_HEAD)} B",
}


# ----------------------------------------------------------------- parameters


def size_label(size: int) -> str:
    return f"{size // 1000}k" if size % 1000 == 0 else f"{size / 1000:g}k"


#: What ns-2.35's DRR does where DrrQueueDisc has a parameter ns-2's program does not report
#: (validation/ns2/drr-evaluation.tcl): ns-2's drr.cc steals buffer from the head of the longest
#: queue, and its hash puts sender k in bucket k mod buckets_ (the module's ``sequential``).
NS2_DRR = {"dropFrom": "Head", "flowMapping": "sequential"}


def run_params(run: RunRecord) -> Mapping:
    """Every parameter a stored run had, as the program reported it (:class:`RunParams`); an
    ns-2.35 run's DRR settings the module names and ns-2 has fixed (:data:`NS2_DRR`)."""
    params = RunParams(run)
    return ChainMap(params, NS2_DRR) if str(run.ns3_version or "").startswith("ns-2") else params


def resolved(params: Mapping) -> dict:
    """The parameters of a run used here (every parameter it had: a metrics report's
    ``params``, or :func:`run_params`), parsed. DRR's settings are None (``dropFrom``: "") for
    DropTail; the source rate is the fairness scenario's, the background the factorial's
    (None in the other scenario: the example reports each scenario's own)."""
    scenario = str(params["scenario"])
    queue = str(params["queueDisc"])
    drr = queue == "DRR"
    fairness = scenario == "fairness"
    return {
        "scenario": scenario,
        "queueDisc": queue,
        "maxSize": str(params["maxSize"]),
        "dropFrom": str(params["dropFrom"]) if drr else "",
        "buckets": int(params["buckets"]) if drr else None,
        "flowMapping": str(params["flowMapping"]) if drr else None,
        "packetSizeMin": int(params["packetSizeMin"]),
        "packetSizeMax": int(params["packetSizeMax"]),
        "bottleneckRate": parse_mbps(params["bottleneckRate"]),
        "nFlows": int(params["nFlows"]),
        "onRate": parse_mbps(params["onRate"]) if fairness else None,
        "meanOn": float(params["meanOn"]) if fairness else None,
        "meanOff": float(params["meanOff"]) if fairness else None,
        "background": None if fairness else (
            int(params["nFlows"]) - 1,
            int(params["bgPacketSize"]),
            # 0: the measured flow's interval (the example's rule).
            float(params["bgIntervalMin"]) or float(params["intervalMin"]),
            float(params["bgIntervalMax"]) or float(params["intervalMax"]),
        ),
    }


def factorial_buckets(p: dict) -> bool:
    """Whether a resolved factorial run is at the factorial's Buckets (DropTail has none)."""
    return p["buckets"] is None or p["buckets"] == FACTORIAL_BUCKETS


# ----------------------------------------------------------------- fig3: fairness


#: Fig. 3's packet sizes (packetSizeMin, packetSizeMax: the paper's uniform [1400, 1600] B),
#: and the one size of the variant fig3-fixed-size (ns-2's exponential source sends one size:
#: the mean).
PACKET_SIZES = (1400, 1600)
FIXED_SIZES = (1500, 1500)


class Fairness:
    """The fairness runs of one source-rate reading, flow count and packet-size range, by
    (mapping, buckets, maxSize bytes) and seed."""

    def __init__(self, runs: Iterable[RunRecord], reading: str = "R1", flows: int = FLOWS,
                 sizes: tuple[int, int] = PACKET_SIZES):
        self.reading = reading
        self.flows = flows
        self.sizes_range = sizes
        self.cells: dict[tuple[str, int, int], dict[int, dict]] = defaultdict(dict)
        #: DRR's quanta in the runs, bytes (the program's report; one value: its default).
        quanta: set[int] = set()
        for run in runs:
            params = run_params(run)
            p = resolved(params)
            if p["scenario"] != "fairness" or p["queueDisc"] != "DRR" or not run.metrics:
                continue
            if p["nFlows"] != flows or reading_of(p) != reading:
                continue
            if (p["packetSizeMin"], p["packetSizeMax"]) != sizes:
                continue
            size = parse_bytes(p["maxSize"])
            if size is None:
                continue
            self.cells[(p["flowMapping"], p["buckets"], size)][run.seed] = run.metrics
            quanta.add(int(params["quantum"]))
        self.quanta = sorted(quanta)
        known = [m for m in MAPPINGS if any(k[0] == m for k in self.cells)]
        self.mappings = known + sorted({k[0] for k in self.cells} - set(known))
        self.buckets = sorted({k[1] for k in self.cells})
        self.sizes = sorted({k[2] for k in self.cells})

    def estimate(self, mapping: str, buckets: int, size: int, metric: str = STD) -> Estimate:
        """Mean and 95 % interval over seeds of ``metric`` in one cell."""
        by_seed = self.cells.get((mapping, buckets, size), {})
        return t_interval(v for m in by_seed.values() if (v := metric_value(m, metric)) is not None)

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
        return t_interval(metric_value(by_seed[s], metric) for s in self.seeds if s in by_seed)

    def values(self, cell: Cell, metric: str) -> dict[int, float]:
        """Per-seed values in a cell (the design's seeds only)."""
        by_seed = self.cells.get(cell, {})
        out = {}
        for seed in self.seeds:
            if seed in by_seed and (v := metric_value(by_seed[seed], metric)) is not None:
                out[seed] = v
        return out


def factorial_runs(runs: Iterable[RunRecord], background: Background = BACKGROUND
                   ) -> dict[tuple, dict[int, dict]]:
    """Factorial runs with the given background, by (P, B, queue config) and seed."""
    out: dict[tuple, dict[int, dict]] = defaultdict(dict)
    for run in runs:
        p = resolved(run_params(run))
        if (p["scenario"] != "factorial" or not run.metrics or p["background"] != background
                or not factorial_buckets(p)):
            continue
        if p["packetSizeMin"] != p["packetSizeMax"]:
            continue
        config = (p["queueDisc"], p["maxSize"], p["dropFrom"])
        out[(p["packetSizeMin"], p["bottleneckRate"], config)][run.seed] = run.metrics
    return out


def build_design(name: str, by_config: dict[tuple, dict[int, dict]],
                 halves: tuple[QueueConfig, QueueConfig] | None = None) -> Design | None:
    """The design ``name`` from the factorial runs, with Q's two halves ``halves`` (default:
    VARIANTS[name]); None without any run."""
    configs = dict(zip(Q_LEVELS, halves or VARIANTS[name], strict=True))
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
            metric_value(cells[cell][s], m) is not None for cell in cells for m in (DELAY, RATIO)))
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
                    DELAY: metric_value(cells[(p, b, q)][seed], DELAY),
                    RATIO: metric_value(cells[(p, b, q)][seed], RATIO),
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


# ----------------------------------------------------------------- factorial results as text


def percent_text(value: float | None) -> str:
    if value is None or not math.isfinite(value):
        return "–"
    return f"{value:.2f}" if value >= 0.01 else f"{value:.1g}"


def effect_text(result: FactorialResult, name: str, digits: int) -> str:
    effect = result.effect(name)
    text = f"{effect.value:+.{digits}f}".replace("-", MINUS)
    if effect.ci_low is not None:
        text += f" [{effect.ci_low:.{digits}f}, {effect.ci_high:.{digits}f}]".replace("-", MINUS)
        if effect.zero_in_ci:
            text += " (n.s.)"
    return text


# ----------------------------------------------------------------- calibration rules

#: Backgrounds of the S22 calibration in the plan's order of preference: fewest flows, P,
#: fixed 500 B, 1000 B, shortest inter-arrival.
SIZE_ORDER = {0: 0, 500: 1, 1000: 2}
#: The plan's S22 band and the tie margin of its fallback (the closest mean).
RATIO_TARGET, RATIO_BAND, RATIO_TIE = 0.949, 0.01, 0.002
#: The plan's S15 / S16 band (relative).
DELAY_BAND = 0.05


def background_preference(background: Background) -> tuple:
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
        return min(inside, key=background_preference), True
    gap = min(abs(e.mean - RATIO_TARGET) for e in valid.values())
    near = [b for b, e in valid.items() if abs(e.mean - RATIO_TARGET) <= gap + RATIO_TIE]
    return min(near, key=background_preference), False


def choose_buffer(estimates: dict[str, Estimate], target: float) -> tuple[str, bool]:
    """The plan's S15 / S16 rule: the buffer whose mean delay is closest to ``target``; returns
    it and whether it is within ±5 %."""
    valid = {b: e for b, e in estimates.items() if e.n}
    if not valid:
        raise ValueError("no buffer was run")
    best = min(valid, key=lambda b: (abs(valid[b].mean - target), b))
    return best, abs(valid[best].mean - target) <= DELAY_BAND * target


def buffer_value(size: str) -> float:
    """A queue limit as a number for sorting and plotting (bytes, or packets)."""
    return float(parse_bytes(size) or size.rstrip("p"))


def background_label(background: Background) -> str:
    flows, size, low, high = background
    return (f"{flows} × {'P' if size == 0 else f'{size} B'}, ({low:g}, {high:g}) ms")


# ----------------------------------------------------------------- variant campaign


class Variants:
    """The variant campaign's runs (``campaigns/drr-evaluation-variants.toml``)."""

    def __init__(self, runs: Iterable[RunRecord]):
        runs = list(runs)
        self.readings = {r: Fairness(runs, r) for r in READINGS if r != "R1"}
        self.readings = {r: f for r, f in self.readings.items() if f.cells}
        self.flows = {n: f for n in (7, 11) if (f := Fairness(runs, "R1", n)).cells}
        self.hash = Fairness(runs, "R1")
        #: Grid fig3-fixed-size: Fig. 3 at Buckets 10 with every packet 1500 B (C2's variant
        #: toward the ns-2.35 run, whose exponential sources send one size).
        self.fixed_size = Fairness(runs, "R1", sizes=FIXED_SIZES)
        # Factorial runs with the final background (buffers), and every background.
        self.factorial = factorial_runs(runs)
        self.backgrounds: dict[Background, dict[tuple, dict[int, dict]]] = defaultdict(
            lambda: defaultdict(dict))
        #: Grid factorial-one-bucket: DRR (the main design's buffer and head drop) with the
        #: measured flow and the background in one bucket, by (P, B) and seed.
        self.one_bucket: dict[tuple[int, float], dict[int, dict]] = defaultdict(dict)
        for run in runs:
            p = resolved(run_params(run))
            if p["scenario"] != "factorial" or not run.metrics \
                    or p["packetSizeMin"] != p["packetSizeMax"]:
                continue
            config = (p["queueDisc"], p["maxSize"], p["dropFrom"])
            if factorial_buckets(p):
                key = (p["packetSizeMin"], p["bottleneckRate"], config)
                self.backgrounds[p["background"]][key][run.seed] = run.metrics
            elif (p["buckets"] == 1 and p["background"] == BACKGROUND
                    and config == VARIANTS["main"][1]):
                self.one_bucket[(p["packetSizeMin"], p["bottleneckRate"])][run.seed] = \
                    run.metrics

    def buffers(self, queue: str, drop_from: str, cell: tuple[int, float]) -> dict[str, Estimate]:
        """Mean delay per buffer of one queue type in one (P, B) cell."""
        out = {}
        for (p, b, (q, size, drop)), by_seed in self.factorial.items():
            if (p, b) == cell and q == queue and drop == drop_from:
                out[size] = t_interval(metric_value(m, DELAY) for m in by_seed.values())
        return dict(sorted(out.items(), key=lambda kv: buffer_value(kv[0])))

    def anchor_backgrounds(self) -> dict[Background, Estimate]:
        """S22: arrival ratio at the anchor cell (DropTail 400 p, 500 B, 1.5 Mb/s) per
        background."""
        key = (RATIO_ANCHOR[0], RATIO_ANCHOR[1], ("FIFO", "400p", ""))
        out = {b: t_interval(metric_value(m, RATIO) for m in cells[key].values())
               for b, cells in self.backgrounds.items() if key in cells}
        return dict(sorted(out.items(), key=lambda kv: background_preference(kv[0])))

    def anchor_delays(self) -> dict[Background, Estimate]:
        """The anchor cell's delay per background (the cause of C12's gap)."""
        key = (RATIO_ANCHOR[0], RATIO_ANCHOR[1], ("FIFO", "400p", ""))
        out = {b: t_interval(metric_value(m, DELAY) for m in cells[key].values())
               for b, cells in self.backgrounds.items() if key in cells}
        return dict(sorted(out.items(), key=lambda kv: background_preference(kv[0])))

    def buffer_designs(self, drop_from: str) -> dict[tuple[str, str], Design]:
        """The factorial with the chosen background per (DropTail limit, DRR blimit_) of the
        buffers grids, DRR dropping from ``drop_from``: every design the grids complete."""
        cells = self.backgrounds.get(BACKGROUND, {})
        limits = {config[1] for (_, _, config) in cells if config[0] == "FIFO"}
        blimits = {config[1] for (_, _, config) in cells
                   if config[0] == "DRR" and config[2] == drop_from}
        out = {}
        for limit in sorted(limits, key=buffer_value):
            for blimit in sorted(blimits, key=buffer_value):
                design = build_design(f"buffers {limit}/{blimit}", cells,
                                      (("FIFO", limit, ""), ("DRR", blimit, drop_from)))
                if design is not None and design.results:
                    out[(limit, blimit)] = design
        return out

    def background_designs(self) -> dict[Background, Design]:
        """The main design (calibrated buffers) with each background run in all 8 cells."""
        out = {}
        for background, cells in self.backgrounds.items():
            design = build_design("main", cells)
            if design is not None and design.results:
                out[background] = design
        return dict(sorted(out.items(), key=lambda kv: background_preference(kv[0])))


def reading_studies(main: Fairness, variants: Variants | None) -> dict[str, Fairness]:
    """Fig. 3 per reading: R1 from the final campaign, the others from the variants."""
    studies = {"R1": main} if main.cells else {}
    if variants is not None:
        studies.update(variants.readings)
    return {r: studies[r] for r in READINGS if r in studies}


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
                             .values() if (v := metric_value(m, STD)) is not None)
            col = t_interval(v for s in sizes for m in source.cells.get(("hash", b, s), {})
                             .values() if (v := metric_value(m, "colliding_flows")) is not None)
            seq = t_interval(v for s in sizes for m in main.cells.get(("sequential", b, s), {})
                             .values() if (v := metric_value(m, STD)) is not None)
            if std.n:
                out[b] = {"hash": std, "colliding": col, "sequential": seq}
    return dict(sorted(out.items()))
