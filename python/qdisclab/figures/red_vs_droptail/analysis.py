# SPDX-License-Identifier: GPL-2.0-only
"""The RED-vs-DropTail study's numbers from the runs: each cell's best RED pair chosen and
judged under the tie rule (:class:`Study`), the counts of its comparisons, and the variants
database (the calibration statements S16 and S20 and the plan's choice rule)."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from qdisclab.campaign.store import RunRecord
from qdisclab.figures.common import (
    NO_ESTIMATE,
    Estimate,
    RunParams,
    compare_paired,
    load_campaign_runs,
    parse_mbps,
    t_interval,
)
from qdisclab.figures.red_vs_droptail.paper import (
    BASE_LINK,
    FIG2_LINK,
    FOCUS_WINDOW,
    LINKS,
    PAIRS,
    TT,
    WAIT_GENTLE,
    Link,
    Pair,
    WaitGentle,
)


# ----------------------------------------------------------------- metrics and the tie rule

TOTAL, TCP, UDP = "total_goodput_mbps", "tcp_goodput_mbps", "udp_goodput_mbps"
#: The tie rule: each cell's best threshold pair is chosen on these seeds, judged on the others.
CHOICE_SEEDS = (1, 2, 3)


# ----------------------------------------------------------------- labels


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


def kilo(value: int) -> str:
    return f"{value // 1000}k" if value % 1000 == 0 else str(value)


# ----------------------------------------------------------------- cells, counts and the runs

#: The study's equivalence margin, as a share of the bottleneck rate: two goodputs whose paired
#: interval of difference lies within ± this share of the link are tied, however narrow the
#: interval. The paper prints no goodput (its figures are plots over the link's range, one run
#: a point), so the margin is fixed by the link, not by any result: one hundredth of it,
#: 0.01 Mb/s at 1 Mb/s, 0.005 Mb/s at 0.5 Mb/s.
EQUIVALENCE_SHARE = 0.01


def equivalence_margin(link: Link) -> float:
    """The equivalence margin at ``link`` in Mb/s (:data:`EQUIVALENCE_SHARE` of its rate)."""
    return EQUIVALENCE_SHARE * parse_mbps(link[0])


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
            if p["queueDisc"] == "FIFO":
                self.droptail[(link, window, queue)][run.seed] = run.metrics
            elif p["queueDisc"] == "RED":
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
                                          [droptail[s] for s in common],
                                          margin=equivalence_margin(link))
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


# ----------------------------------------------------------------- fig5 (thresholds)


def focus_window(study: Study) -> int | None:
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


def tied_with_best(rows: list[PairRow], margin: float) -> tuple[PairRow, list[PairRow]]:
    """The pair of highest mean total goodput, and every pair not significantly below it
    (identical or tied in the paired comparison over common seeds, ``margin`` the
    equivalence margin, :func:`equivalence_margin`)."""
    best = max(rows, key=lambda r: r.total.mean)
    tied = []
    for row in rows:
        common = [s for s in best.totals if s in row.totals]
        if row is best or (common and compare_paired(
                [row.totals[s] for s in common],
                [best.totals[s] for s in common], margin=margin)[0] in ("identical", "tied")):
            tied.append(row)
    return best, tied


# ----------------------------------------------------------------- calibration and variants

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


@dataclass(frozen=True, order=True)
class Scenario:
    """The unknowns of the lost topology a run was made with."""

    n_tcp: int
    udp: tuple[float, float]
    access: tuple[str, str]
    sack: bool = True

    @classmethod
    def of(cls, params: Mapping) -> Scenario:
        """The scenario of a run's parameters: every parameter it had (a metrics report's
        ``params``, the example's defaults included, or :class:`RunParams` of a stored run)."""
        p = params
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
    """The calibration grids' scenarios, in the choice rule's order: those whose runs measure
    both statements (RED's drops at every queue S16 reads, DropTail's halving ratio at windows
    2000 and 64000). A scenario with only some of them (the runs another grid shares with the
    calibration grids, which are stored under the calibration grid's name, when the
    calibration itself has not run) is no calibration row."""
    by_scenario: dict[Scenario, list[RunRecord]] = defaultdict(list)
    for run in runs:
        if (run.grid or "").startswith("calibration"):
            by_scenario[Scenario.of(RunParams(run))].append(run)
    rows = []
    for scenario, group in by_scenario.items():
        drops: dict[int, list[float]] = defaultdict(list)
        for run in group:
            p = run.params
            if (p["queueDisc"] == "RED" and int(p["window"]) == 2000
                    and (p["bottleneckRate"], p["bottleneckDelay"]) == BASE_LINK
                    and (float(p["minTh"]), float(p["maxTh"])) == CALIBRATION_PAIR):
                drops[int(p["queueSize"])].append(_red_drops(run))
        ratios = halving_ratios(Study(r for r in group if r.params["queueDisc"] == "FIFO"))
        small, large = (ratios.get(w, math.nan) for w in (2000, 64000))
        if math.isnan(small) or math.isnan(large) or not all(
                drops.get(q) for q in (S16_DROPS, *S16_QUIET)):
            continue
        rows.append(CalibrationRow(
            scenario,
            tuple(q for q in S16_QUIET if drops.get(q) and not any(drops[q])),
            any(drops.get(S16_DROPS, ())), small, large))
    return sorted(rows, key=lambda row: row.scenario.rank())


def choose_scenario(rows: list[CalibrationRow]) -> tuple[CalibrationRow | None, str]:
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
    #: Grids sensitivity-*: per number of TCP senders, its Study (seeds 1-3, UDP 1 s / 1 s,
    #: 10 Mb/s / 1 ms access links).
    sensitivity: dict[int, Study] = field(default_factory=dict)
    #: Grids seeds-*: the calibrated scenario at 1 Mb/s, 20 ms, Wait = Gentle = true, seeds
    #: 1-10, as one Study and split by seeds (1-3 and the rest).
    seeds_scenario: Scenario | None = None
    seeds_all: Study | None = None
    seeds_first: Study | None = None
    seeds_rest: Study | None = None
    #: Grid sack-*: 1 Mb/s, 10 ms without SACK, and the same cells with it.
    sack_scenario: Scenario | None = None
    sack_off: Study | None = None
    sack_on: Study | None = None
    #: Grids senders-*: per number of TCP senders, Fig. 1's setting at the calibrated scenario
    #: on the senders grids' seeds (1-6); the nTcp = 8 runs are stored as the seeds grids'.
    senders: dict[int, Study] = field(default_factory=dict)


def load_variants(db_path: Path | None) -> Variants | None:
    """Analyse the variants database ``db_path``; None when there is none."""
    if db_path is None:
        return None
    _, runs = load_campaign_runs(db_path)
    rows = calibration_rows(runs)
    chosen, rule = choose_scenario(rows)
    result = Variants(rows, chosen, rule)
    # A run two grids list is stored once, under the first grid's name (a sensitivity run at
    # window 2000 may be a calibration run): each grid's study is every run of its scenario.
    by_scenario: dict[Scenario, list[RunRecord]] = defaultdict(list)
    sensitivity: set[Scenario] = set()
    senders: set[Scenario] = set()
    senders_seeds: set[int] = set()
    for run in runs:
        grid = run.grid or ""
        scenario = Scenario.of(RunParams(run))
        by_scenario[scenario].append(run)
        if grid.startswith("sensitivity"):
            sensitivity.add(scenario)
        elif grid.startswith("senders"):
            senders.add(scenario)
            senders_seeds.add(run.seed)
        elif grid.startswith("seeds"):
            result.seeds_scenario = scenario
        elif grid.startswith("sack") and not scenario.sack:
            result.sack_scenario = scenario
    result.sensitivity = {s.n_tcp: Study(by_scenario[s])
                          for s in sorted(sensitivity, key=Scenario.rank)}
    if result.seeds_scenario is not None:
        base = [run for run in by_scenario[result.seeds_scenario]
                if (run.params.get("bottleneckRate"), run.params.get("bottleneckDelay"))
                == BASE_LINK]
        result.seeds_all = Study(base)
        result.seeds_first = Study(r for r in base if r.seed in result.seeds_all.choice_seeds)
        result.seeds_rest = Study(r for r in base if r.seed not in result.seeds_all.choice_seeds)
    result.senders = _senders_studies(by_scenario, senders, senders_seeds,
                                      result.seeds_scenario)
    if result.sack_scenario is not None:
        on = Scenario(result.sack_scenario.n_tcp, result.sack_scenario.udp,
                      result.sack_scenario.access, True)
        off = by_scenario[result.sack_scenario]
        seeds = {run.seed for run in off}
        result.sack_off = Study(off)
        # The same cells with SACK (the sack grid's, on the same seeds).
        result.sack_on = Study(
            run for run in by_scenario[on] if run.seed in seeds
            and (run.params.get("bottleneckRate"), run.params.get("bottleneckDelay"))
            == FIG2_LINK)
    return result


def _senders_studies(by_scenario: dict[Scenario, list[RunRecord]], senders: set[Scenario],
                     seeds: set[int], seeds_scenario: Scenario | None) -> dict[int, Study]:
    """Per number of TCP senders, the senders grids' study at Fig. 1's setting on their seeds.
    A run the seeds grids also list (nTcp = 8) is stored under the seeds grid's name, so their
    scenario joins when it differs from the senders grids' only in the number of senders."""
    if not senders:
        return {}
    scenarios = set(senders)
    if seeds_scenario is not None and any(
            (s.udp, s.access, s.sack) == (seeds_scenario.udp, seeds_scenario.access,
                                          seeds_scenario.sack) for s in senders):
        scenarios.add(seeds_scenario)
    result = {}
    for scenario in sorted(scenarios, key=Scenario.rank):
        result[scenario.n_tcp] = Study(
            run for run in by_scenario[scenario] if run.seed in seeds
            and (run.params.get("bottleneckRate"), run.params.get("bottleneckDelay"))
            == BASE_LINK)
    return result


# ----------------------------------------------------------------- cells the variants compare


def row_cells(study: Study | None, link, window: int) -> list[Cell]:
    if study is None:
        return []
    return [c for c in study.cells(link, TT) if c.window == window]


def largest_cell(study: Study, sign: int) -> Cell | None:
    cells = study.cells(BASE_LINK, TT)
    return max(cells, key=lambda c: sign * c.difference.mean) if cells else None


def wait_gentle_counts(study: Study, link: Link) -> dict[WaitGentle, Counts]:
    """C3's comparison at ``link``: per {Wait, Gentle} setting run, the counts of its cells."""
    return {wg: counts for wg in study.wait_gentle
            if (counts := Counts.of(study.cells(link, wg))).n}


def seeds_text(study: Study) -> str:
    seeds = study.choice_seeds
    return f"{seeds[0]}-{seeds[-1]}" if seeds else "–"
