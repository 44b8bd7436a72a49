# SPDX-License-Identifier: GPL-2.0-only
"""The Assured Service study's numbers from the runs: a run's scenario and fair share, Table
1's settings and per-class maxima, Figs. 2 and 3's curves with the reading of "meets the
profile" (U9) and its calibration rule, the sensitivity campaign, the TCP trace's loss
recovery episodes, and the variants campaign's runs."""

from __future__ import annotations

import csv
import dataclasses
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from qdisclab.campaign.store import RunRecord
from qdisclab.figures.common import (
    NO_ESTIMATE,
    Estimate,
    RunParams,
    compare_paired,
    metric_value,
    parse_mbps,
    t_interval,
)
from qdisclab.figures.rio_assured_service.paper import (
    FIG3_LEVELS,
    PAPER_BEST_RIO,
    PAPER_TABLE1,
    SCHEMES,
    SCHEME_LABELS,
    TABLE1_PROFILES,
    TABLE1_TOTAL,
    Setting,
)


# ----------------------------------------------------------------- parameters and a run's scenario


def parse_profiles(text: str) -> tuple[float, ...]:
    """``"2,1,0.5"`` → (2.0, 1.0, 0.5)."""
    return tuple(float(item) for item in str(text).split(","))


@dataclass(frozen=True)
class Setup:
    """A run's scenario, as the program reported it."""

    grid: str
    queue: str
    profiles: tuple[float, ...]
    flows_per_profile: int
    n_be: int
    capacity: float  # Mb/s
    total: Setting
    out: Setting

    @property
    def n_as(self) -> int:
        """Number of AS flows."""
        return self.flows_per_profile * len(self.profiles)

    @property
    def subscription(self) -> float:
        """Sum of the AS profiles over the bottleneck rate, rounded to 0.1 %."""
        return round(sum(self.profiles) * self.flows_per_profile / self.capacity, 3)

    def fair_share(self, profile: float) -> float:
        """``profile`` plus the unsubscribed capacity split equally over all flows."""
        flows = self.n_as + self.n_be
        return profile + (self.capacity - sum(self.profiles) * self.flows_per_profile) / flows


def setup_of(run: RunRecord) -> Setup:
    """The scenario of a stored run: the parameters the program reported for it (the
    example's defaults included; :class:`RunParams`)."""
    p = RunParams(run)
    profiles = parse_profiles(p["profiles"])
    capacity = parse_mbps(p["bottleneckRate"])
    flows = int(p["flowsPerProfile"])
    if float(p["subscription"]) > 0:
        flows = round(float(p["subscription"]) * capacity / sum(profiles))
    total = (float(p["totalMinTh"]), float(p["totalMaxTh"]), float(p["totalMaxP"]))
    out = ((float(p["outMinTh"]), float(p["outMaxTh"]), float(p["outMaxP"]))
           if p["queueDisc"] == "RI+O" else (0.0, 0.0, 0.0))
    return Setup(run.grid or "", str(p["queueDisc"]), profiles, flows, int(p["nBestEffort"]),
                 capacity, total, out)


#: The rate the claims judge: goodput (the bytes the receivers get for the first time), as
#: the paper's "throughput" of TCP NewReno without spurious retransmissions would be.
JUDGED = "goodput"


def has_goodput(runs: Iterable[RunRecord]) -> bool:
    """Whether the runs hold goodput metrics (``*_goodput_mbps``)."""
    return any(key.endswith("_goodput_mbps") for run in runs for key in (run.metrics or {}))


def goodput_run(run: RunRecord) -> RunRecord:
    """``run`` with its rates read as goodput: every ``<x>_mbps`` that has a ``<x>_goodput_mbps``
    beside it takes its value; the AS aggregate ``as_mbps`` is the AS flows' mean goodput and
    ``as_min_mbps`` the poorest AS flow's (the AS flows are the first ``n_as`` of the run). The
    runs hold no goodput of the IN-marked part, so ``*_in_mbps`` is left out (a claim that splits
    IN from OUT is not evaluated on goodput)."""
    metrics = {key: value for key, value in (run.metrics or {}).items()
               if not key.endswith("_in_mbps")}
    for key, value in run.metrics.items():
        if key.endswith("_goodput_mbps"):
            metrics[key[:-len("_goodput_mbps")] + "_mbps"] = value
    setup = setup_of(run)
    n_as = setup.n_as
    flows = [metric_value(metrics, f"flow{i}_goodput_mbps") for i in range(n_as)]
    if n_as and all(v is not None for v in flows):
        metrics["as_mbps"] = sum(flows) / n_as
        metrics["as_min_mbps"] = min(flows)
    elif "as_mbps" in metrics:
        metrics["as_mbps"] = metrics["as_min_mbps"] = None
    return replace(run, metrics=metrics)


def setting_label(setting: Setting) -> str:
    """``(347.0, 694.0, 0.05)`` → ``"347/694/0.05"``."""
    low, high, p = setting
    return f"{low:g}/{high:g}/{p:g}"


def seed_estimate(by_seed: dict[int, dict], metric: str) -> Estimate:
    return t_interval(v for m in by_seed.values() if (v := metric_value(m, metric)) is not None)


def last_met(points: Sequence[tuple[float, float]], profile: float) -> float | None:
    """The largest x before the first point whose mean is below ``profile`` (x ascending).

    ``points`` are (x, mean); None when the first point already fails. Missing means
    (NaN) end the scan like a failure would not: they are skipped.
    """
    met = None
    for x, mean in sorted(points):
        if not math.isfinite(mean):
            continue
        if mean < profile:
            return met
        met = x
    return met


def above(a: Estimate, b: Estimate) -> bool:
    """``a`` above ``b`` beyond both 95 % intervals (by the means when one is unknown)."""
    if math.isfinite(a.half_width) and math.isfinite(b.half_width):
        return a.low > b.high
    return a.mean > b.mean


def level_label(value: float | None) -> str:
    return "never" if value is None else f"{100 * value:.0f} %"


# ----------------------------------------------------------------- Table 1

CLASS_METRICS = tuple(f"as{k}_mbps" for k in range(len(TABLE1_PROFILES))) + ("be_mbps",)


@dataclass
class Table1Row:
    """One Table 1 setting: per-class estimates (2, 1, 0.5, 0.2, 0.1 Mb/s, BE) and the
    per-seed values behind them (for paired comparisons)."""

    queue: str
    total: Setting
    out: Setting
    classes: list[Estimate]
    seeds: int
    samples: list[dict[int, float]] = field(default_factory=list)
    by_seed: dict[int, dict] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """The row's name: the scheme and its IN+OUT (RIO) or OUT (RI+O) setting."""
        if self.queue == "RIO":
            return f"RIO, IN+OUT {setting_label(self.total)}"
        if self.total != TABLE1_TOTAL:
            return f"RI+O, IN+OUT {setting_label(self.total)}, OUT {setting_label(self.out)}"
        return f"RI+O, OUT {setting_label(self.out)}"

    @property
    def short(self) -> str:
        """The setting alone: IN+OUT for RIO, OUT (and IN+OUT if not S4's) for RI+O."""
        if self.queue == "RIO":
            return setting_label(self.total)
        if self.total != TABLE1_TOTAL:
            return f"{setting_label(self.total)} + {setting_label(self.out)}"
        return setting_label(self.out)

    def estimate(self, metric: str) -> Estimate:
        """Mean and 95 % CI over seeds of any metric."""
        return seed_estimate(self.by_seed, metric)


def table1_rows(runs: Iterable[RunRecord]) -> list[Table1Row]:
    """Every Table 1 setting run (Table 1's profiles and 20 BE flows), RIO first."""
    cells: dict[tuple[str, Setting, Setting], dict[int, dict]] = defaultdict(dict)
    for run in runs:
        s = setup_of(run)
        if (not run.metrics or s.profiles != TABLE1_PROFILES or s.flows_per_profile != 4
                or s.n_be != 20 or s.queue not in SCHEMES):
            continue
        cells[(s.queue, s.total, s.out)][run.seed] = run.metrics
    rows = []
    for (q, t, o), by_seed in cells.items():
        samples = [{seed: v for seed, m in by_seed.items() if (v := metric_value(m, metric)) is not None}
                   for metric in CLASS_METRICS]
        rows.append(Table1Row(q, t, o, [seed_estimate(by_seed, m) for m in CLASS_METRICS],
                              len(by_seed), samples, by_seed))
    rows.sort(key=lambda r: (SCHEMES.index(r.queue), -r.total[0], -r.out[0], r.total[2]))
    return rows


def searched(rows: Iterable[Table1Row], queue: str, all_totals: bool = False) -> list[Table1Row]:
    """The settings searched for a scheme's best: every RIO row; RI+O's rows with S4's
    IN+OUT 347/694/0.05 (the paper's Table 1 rows), or every RI+O row if ``all_totals``."""
    return [r for r in rows if r.queue == queue
            and (queue == "RIO" or all_totals or r.total == TABLE1_TOTAL)]


def best(rows: Iterable[Table1Row], queue: str, all_totals: bool = False) -> Table1Row | None:
    """The single best setting of ``queue``: the one whose 2 Mb/s flows get the most."""
    candidates = [r for r in searched(rows, queue, all_totals) if r.classes[0].n]
    return max(candidates, key=lambda r: r.classes[0].mean, default=None)


@dataclass
class MaximaRow:
    """Per class, the estimate of the searched setting with the highest seed mean for that
    class: the form of the paper's "best RIO", whose classes add up to more than the link
    (4 x 3.951 + 20 x 0.253 = 20.86 Mb/s on 20 Mb/s), so not one setting."""

    queue: str
    argmax: list[Table1Row]  # per class, the setting that gives it the most
    n_settings: int

    @property
    def classes(self) -> list[Estimate]:
        """Per class, the best setting's estimate."""
        return [row.classes[k] for k, row in enumerate(self.argmax)]

    @property
    def samples(self) -> list[dict[int, float]]:
        """Per class, the best setting's per-seed values."""
        return [row.samples[k] for k, row in enumerate(self.argmax)]

    @property
    def label(self) -> str:
        """E.g. ``"RIO, per-class maxima over 10 settings"``."""
        return f"{SCHEME_LABELS[self.queue]}, per-class maxima over {self.n_settings} settings"


def per_class_maxima(rows: Iterable[Table1Row], queue: str,
                     all_totals: bool = False) -> MaximaRow | None:
    """The per-class maxima of ``queue`` over its searched settings (None if none was run)."""
    candidates = [r for r in searched(rows, queue, all_totals) if all(e.n for e in r.classes)]
    if not candidates:
        return None
    argmax = [max(candidates, key=lambda r, k=k: r.classes[k].mean)
              for k in range(len(CLASS_METRICS))]
    return MaximaRow(queue, argmax, len(candidates))


def paper_row(row: Table1Row) -> tuple[float, ...] | None:
    """The paper's numbers for a RI+O row of Table 1 (IN+OUT 347/694/0.05), if it has them."""
    if row.queue != "RI+O" or row.total != TABLE1_TOTAL:
        return None
    return PAPER_TABLE1.get(row.out)


@dataclass
class Table1View:
    """What Table 1 shows: the paper's RIO setting, both schemes' per-class maxima and single
    best settings, and every RI+O row."""

    rows: list[Table1Row]
    rio_paper: Table1Row | None
    rio_max: MaximaRow | None
    rio_best: Table1Row | None
    riplus_max: MaximaRow | None
    riplus_best: Table1Row | None

    @classmethod
    def of(cls, rows: list[Table1Row], riplus_all_totals: bool = False) -> Table1View:
        """The view of ``rows`` (RI+O's best over every IN+OUT run if ``riplus_all_totals``)."""
        rio_paper = next((r for r in rows if r.queue == "RIO" and r.total == TABLE1_TOTAL), None)
        return cls(rows, rio_paper, per_class_maxima(rows, "RIO"), best(rows, "RIO"),
                   per_class_maxima(rows, "RI+O", riplus_all_totals),
                   best(rows, "RI+O", riplus_all_totals))

    def shown(self) -> list[tuple[str, list[Estimate], tuple[float, ...] | None]]:
        """(label, per-class estimates, the paper's numbers or None), in the table's order."""
        shown = []
        if self.rio_paper:
            shown.append(("RIO 347/694/0.05 (the paper's RIO)", self.rio_paper.classes, None))
        if self.rio_max:
            shown.append((f"Best RIO: {self.rio_max.label}", self.rio_max.classes,
                          PAPER_BEST_RIO))
        if self.rio_best:
            shown.append((f"RIO, single best setting: IN+OUT {self.rio_best.short}",
                          self.rio_best.classes, None))
        for row in self.rows:
            if row.queue == "RI+O" and row.total == TABLE1_TOTAL:
                shown.append((row.label, row.classes, paper_row(row)))
        if self.riplus_max:
            shown.append((f"Best RI+O: {self.riplus_max.label}", self.riplus_max.classes, None))
        if self.riplus_best:
            shown.append((f"RI+O, single best setting: OUT {self.riplus_best.short}",
                          self.riplus_best.classes, None))
        return shown


def table1_fair_share() -> tuple[float, ...]:
    setup = Setup("", "RIO", TABLE1_PROFILES, 4, 20, 20.0, TABLE1_TOTAL, (0.0, 0.0, 0.0))
    return tuple(setup.fair_share(p) for p in (*TABLE1_PROFILES, 0.0))


def paired(a: dict[int, float], b: dict[int, float]) -> tuple[str, Estimate]:
    """:func:`compare_paired` of two per-seed samples over their common seeds."""
    seeds = sorted(set(a) & set(b))
    if not seeds:
        return "no common seed", NO_ESTIMATE
    return compare_paired([a[s] for s in seeds], [b[s] for s in seeds])


# ----------------------------------------------------------------- sensitivity

SENSITIVITY = "rio-assured-service-sensitivity"
TRACE_DIR = "rio-assured-service-trace"



#: The sensitivity campaign's grids: (grid, parameter, the primary's value, label of a value).
UNKNOWNS = (
    ("tcp", "sack", False, lambda v: "SACK" if v else "no SACK"),
    ("queue-limit", "queueLimit", 1000, lambda v: f"{v} pkts"),
    ("access-rate", "accessRate", "100Mbps", lambda v: str(v).replace("Mbps", " Mb/s")),
    ("segment-size", "segmentSize", 1000, lambda v: f"{v} B"),
    ("window", "socketBuffer", 4 * 1024 * 1024,
     lambda v: "unlimited" if v >= 1 << 20 else f"{v // 1000} segs"),
    ("recovery", "recovery", "Classic", str),
    ("min-rto", "minRto", "1s", str),
)
#: The three Table 1 settings of the sensitivity grid, by (queueDisc, outMinTh).
SETTINGS = {("RIO", 10): "RIO 347/694/0.05", ("RI+O", 200): "RI+O OUT 200/600/0.01",
            ("RI+O", 100): "RI+O OUT 100/300/0.01"}


def sensitivity_db(db_path: Path) -> Path | None:
    """The sensitivity campaign's database beside the final one's, if it was run."""
    path = Path(db_path).parent.parent / SENSITIVITY / "campaign.sqlite"
    return path if path.is_file() else None


def sensitivity_cells(runs) -> dict[tuple[str, object, str], list[dict]]:
    """Metrics per (grid, value of its parameter, setting); the primary's runs (tcp grid,
    no SACK) are every grid's value at the primary."""
    cells: dict[tuple[str, object, str], list[dict]] = defaultdict(list)
    primary: dict[str, list[dict]] = defaultdict(list)
    parameters = {grid: (name, default) for grid, name, default, _ in UNKNOWNS}
    for run in runs:
        setting = SETTINGS.get((run.params.get("queueDisc"), run.params.get("outMinTh")))
        if run.grid not in parameters or setting is None or not run.metrics:
            continue
        name, default = parameters[run.grid]
        value = run.params.get(name, default)
        cells[(run.grid, value, setting)].append(run.metrics)
        if run.grid == "tcp" and value == default:
            primary[setting].append(run.metrics)
    for grid, (_, default) in parameters.items():
        for setting, metrics in primary.items():
            cells.setdefault((grid, default, setting), metrics)
    return cells


# ----------------------------------------------------------------- the TCP trace

TRACES = (("nosack", "without SACK (primary)"), ("sack", "with SACK (variant)"))


@dataclass
class Episode:
    """One loss-recovery episode of the traced flow: from leaving Open/Disorder for
    Recovery or Loss to being back in Open."""

    start: float
    kind: str = "fast recovery"  # or "timeout" (entered Loss, or fell into it)
    end: float = math.nan
    losses: int = 0  # the flow's drops after the previous episode ended, up to this one's end
    resent: int = 0  # retransmissions sent during the episode
    spurious: int = 0  # of which the receiver already had every byte
    cuts: int = 0  # ssthresh reductions during the episode
    cwnd_exit: float = math.nan  # segments
    resent_seqs: set = field(default_factory=set)


def read_trace(path: Path) -> list[dict]:
    """The rows of a ``--traceFlow`` CSV, times as floats."""
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        row["time_s"] = float(row["time_s"])
        row["seq"] = int(row["seq"])
        row["bytes"] = int(row["bytes"])
    return rows


def episodes(rows: list[dict], segment: int = 1000) -> list[Episode]:
    """The flow's loss-recovery episodes, with their losses, retransmissions (and spurious
    ones: a retransmission of the episode whose segment then left the bottleneck as a
    duplicate), ssthresh cuts and the window on exit."""
    found: list[Episode] = []
    current: Episode | None = None
    drops = 0
    ssthresh = math.inf
    cwnd = math.nan
    last_cut = math.nan  # time of the last ssthresh reduction
    closed: Episode | None = None  # the last episode that ended
    for row in rows:
        event = row["event"]
        if event == "drop":
            if current is None:
                drops += 1
            else:
                current.losses += 1
        elif event == "cwnd":
            cwnd = row["bytes"] / segment
            if closed is not None and closed.end == row["time_s"]:  # set as it returns to Open
                closed.cwnd_exit = cwnd
        elif event == "ssthresh":
            if row["bytes"] < ssthresh:
                last_cut = row["time_s"]
                if current is not None:
                    current.cuts += 1
            ssthresh = row["bytes"]
        elif event == "state":
            state = row["detail"]
            if state in ("Recovery", "Loss"):
                if current is None:
                    # A timeout cuts ssthresh just before its state change; fast recovery
                    # just after (counted as it comes).
                    current = Episode(row["time_s"], losses=drops,
                                      cuts=int(last_cut == row["time_s"]))
                    drops = 0
                    found.append(current)
                if state == "Loss":
                    current.kind = "timeout"
            elif state == "Open" and current is not None:
                current.end = row["time_s"]
                current.cwnd_exit = cwnd
                closed, current = current, None
        elif event == "resent" and current is not None:
            current.resent += 1
            current.resent_seqs.add(row["seq"])
        elif event == "spurious":
            owner = next((e for e in reversed(found) if row["seq"] in e.resent_seqs), None)
            if owner is not None:
                owner.spurious += 1
                owner.resent_seqs.discard(row["seq"])
    return found


def trace_files(db_path: Path) -> dict[str, Path] | None:
    """The two trace files beside the final campaign's database, if both are there."""
    directory = Path(db_path).parent.parent / TRACE_DIR
    files = {name: directory / f"trace-{name}.csv" for name, _ in TRACES}
    return files if all(p.is_file() for p in files.values()) else None


#: TCP states at the time of a retransmission, grouped as the trace table reports them.
STATE_GROUPS = {"Recovery": "fast recovery", "Loss": "timeout recovery"}


def retransmissions(rows: list[dict], twice_within: float = 0.05,
                    early: float = 0.1) -> dict[str, list[int]]:
    """Retransmissions by the TCP state they were sent in (fast recovery, timeout recovery,
    outside recovery: Open or Disorder, e.g. a timeout's go-back-N once back in Open), each
    [sent, spurious]; under "twice", those sent in fast recovery of a segment already resent
    less than ``twice_within`` s before; under "early", those sent less than ``early`` s (the
    propagation RTT) after the segment's first transmission, before any ACK could say it was
    lost."""
    counts = {group: [0, 0] for group in (*STATE_GROUPS.values(), "outside recovery")}
    counts["twice"] = [0, 0]
    counts["early"] = [0, 0]
    state = "Open"
    sent_in: dict[int, str] = {}
    first_sent: dict[int, float] = {}
    last_resent: dict[int, float] = {}
    for row in rows:
        event, seq = row["event"], row["seq"]
        if event == "state":
            state = row["detail"]
        elif event == "new":
            first_sent[seq] = row["time_s"]
        elif event == "resent":
            if row["time_s"] - first_sent.get(seq, -math.inf) < early:
                counts["early"][0] += 1
            group = STATE_GROUPS.get(state, "outside recovery")
            counts[group][0] += 1
            sent_in[seq] = group
            if state == "Recovery" and row["time_s"] - last_resent.get(seq, -math.inf) \
                    < twice_within:
                counts["twice"][0] += 1
            last_resent[seq] = row["time_s"]
        elif event == "spurious" and seq in sent_in:
            counts[sent_in.pop(seq)][1] += 1
    return counts


def trace_summary(rows: list[dict], found: list[Episode]) -> list[str]:
    """One TCP's row of the report's table (TRACE_COLUMNS after the first)."""
    fast = [e for e in found if e.kind == "fast recovery"]
    counts = retransmissions(rows)
    return [str(sum(1 for r in rows if r["event"] == "drop")), str(len(fast)),
            str(sum(1 for e in fast if e.losses == 0)),
            str(sum(1 for r in rows if r["event"] == "state" and r["detail"] == "Loss")),
            *(f"{sent} ({spurious})" for sent, spurious in
              (counts["fast recovery"], counts["timeout recovery"], counts["outside recovery"])),
            str(counts["twice"][0]), str(counts["early"][0])]


# ----------------------------------------------------------------- Figs. 2 and 3


@dataclass(frozen=True)
class Criterion:
    """A reading of "the AS flows maintain (guarantee) their profile" at one point (U9)."""

    key: str
    text: str
    metric: str  # the per-run metric compared with the profile
    factor: float  # the threshold: factor x profile
    by_low: bool  # compare the interval's lower end (else the seed mean)


#: The candidate readings, in the order the plan's choice rule tries them.
CRITERIA = (
    Criterion("a", "seed mean of the AS flows' mean throughput >= profile", "as_mbps", 1.0,
              False),
    Criterion("b", "lower end of its 95 % CI >= profile", "as_mbps", 1.0, True),
    Criterion("c", "seed mean of the poorest AS flow (as_min_mbps) >= profile", "as_min_mbps",
              1.0, False),
    Criterion("d", "seed mean >= 0.95 x profile", "as_mbps", 0.95, False),
)


@dataclass
class Curve:
    """One scheme's AS throughput along one axis (BE flows or subscription level)."""

    queue: str
    profile: float
    points: dict[float, dict[int, dict]]  # x -> seed -> metrics

    def estimate(self, x: float, metric: str = "as_mbps") -> Estimate:
        """Mean and 95 % CI over seeds at ``x``."""
        return seed_estimate(self.points.get(x, {}), metric) if x in self.points else NO_ESTIMATE

    def xs(self) -> list[float]:
        """The x values run, ascending."""
        return sorted(self.points)

    def met(self, x: float, criterion: Criterion = CRITERIA[0]) -> bool:
        """Whether ``criterion`` calls the profile met at ``x`` (the mean when the interval is
        unknown)."""
        e = self.estimate(x, criterion.metric)
        value = e.low if criterion.by_low and math.isfinite(e.half_width) else e.mean
        return math.isfinite(value) and value >= criterion.factor * self.profile

    def status(self, x: float, criterion: Criterion = CRITERIA[0]) -> str:
        """"met" / "missed" when the criterion's interval lies above / below its threshold,
        "tied" when it holds it (by the mean alone when the interval is unknown)."""
        e = self.estimate(x, criterion.metric)
        threshold = criterion.factor * self.profile
        if not math.isfinite(e.half_width):
            return "met" if self.met(x, criterion) else "missed"
        if e.low >= threshold:
            return "met"
        return "missed" if e.high < threshold else "tied"

    def last_met(self, criterion: Criterion = CRITERIA[0]) -> float | None:
        """The largest x before the first one at which ``criterion`` is not met."""
        return self._last_before(lambda x: not self.met(x, criterion))

    def tie_range(self, criterion: Criterion = CRITERIA[0]) -> tuple[float | None,
                                                                    float | None]:
        """(met up to X, tied up to Y): the last x before the first point not met beyond the
        interval, and the last before the first one missed beyond it."""
        return (self._last_before(lambda x: self.status(x, criterion) != "met"),
                self._last_before(lambda x: self.status(x, criterion) == "missed"))

    def _last_before(self, stops) -> float | None:
        last = None
        for x in self.xs():
            if stops(x):
                return last
            last = x
        return last


def fig3a_curves(curves3: dict[tuple[float, str], Curve]) -> list[Curve]:
    """Fig. 3(a)'s curves the calibration reads: both schemes', or RIO's alone when no run has
    RI+O (a simulator without it, ns-2.35); none when a scheme's curve is missing otherwise."""
    if not any(q == "RI+O" for _, q in curves3):
        schemes = ("RIO",)
    else:
        schemes = SCHEMES
    curves = [curves3.get((0.5, q)) for q in schemes]
    return [] if any(c is None for c in curves) else curves


def meets_s26(curves3: dict[tuple[float, str], Curve], criterion: Criterion) -> bool | None:
    """Whether ``criterion`` calls Fig. 3(a)'s 10-90 % met and 100 % missed for both schemes,
    or for RIO alone when the runs have no RI+O (ns-2.35's; the calibration target of S26;
    None when a point was not run)."""
    curves = fig3a_curves(curves3)
    if not curves or any(any(x not in c.points for x in FIG3_LEVELS) for c in curves):
        return None
    return all(all(c.met(x, criterion) for x in FIG3_LEVELS[:-1])
               and not c.met(FIG3_LEVELS[-1], criterion) for c in curves)


def choose_criterion(curves3: dict[tuple[float, str], Curve]) -> tuple[Criterion, str]:
    """The plan's choice rule for U9, on Fig. 3(a) (S26: both schemes meet the 0.5 Mb/s
    profile up to 90 %): the first criterion that calls 10-90 % met and 100 % missed for both
    schemes (RIO alone when the runs have no RI+O); (a) when none does or the points were not
    all run (said in the note)."""
    curves = fig3a_curves(curves3)
    if not curves or any(any(x not in c.points for x in FIG3_LEVELS) for c in curves):
        return CRITERIA[0], ("not calibrated: Fig. 3(a)'s points 10-100 % were not all run;"
                             " criterion (a)")
    for criterion in CRITERIA:
        if meets_s26(curves3, criterion) is True:
            return criterion, (f"criterion ({criterion.key}), {criterion.text}: calibrated on"
                               " Fig. 3(a)")
    return CRITERIA[0], ("no candidate calls Fig. 3(a)'s 10-90 % met and 100 % missed;"
                         " criterion (a)")


def fig2_curves(runs: Iterable[RunRecord]) -> dict[tuple[float, str], Curve]:
    """Fig. 2's curves by (subscription, scheme): four AS flows of one profile vs BE flows."""
    curves: dict[tuple[float, str], Curve] = {}
    for run in runs:
        s = setup_of(run)
        if (run.grid != "fig2" or not run.metrics or len(s.profiles) != 1
                or s.flows_per_profile != 4 or s.queue not in SCHEMES):
            continue
        key = (s.subscription, s.queue)
        curve = curves.setdefault(key, Curve(s.queue, s.profiles[0], {}))
        curve.points.setdefault(float(s.n_be), {})[run.seed] = run.metrics
    return curves


def fig3_curves(runs: Iterable[RunRecord]) -> dict[tuple[float, str], Curve]:
    """Fig. 3's curves by (profile, scheme): AS throughput vs subscription, 20 BE flows."""
    curves: dict[tuple[float, str], Curve] = {}
    for run in runs:
        s = setup_of(run)
        if (run.grid != "fig3" or not run.metrics or len(s.profiles) != 1 or s.n_be != 20
                or s.queue not in SCHEMES):
            continue
        key = (s.profiles[0], s.queue)
        curve = curves.setdefault(key, Curve(s.queue, s.profiles[0], {}))
        curve.points.setdefault(s.subscription, {})[run.seed] = run.metrics
    return curves


def be_label(x: float | None) -> str:
    return "never" if x is None else f"{x:g}"


def percent_label(x: float) -> str:
    return f"{100 * x:.0f}"


# ----------------------------------------------------------------- variants


@dataclass(frozen=True)
class Variant:
    """A grid family of the variants campaign: one thing changed from the primary."""

    name: str
    prefix: str  # its grids' names: the primary grid's, after this prefix
    what: str
    with_primary: bool = False  # analysed together with the primary runs (adds settings)
    claims: tuple[str, ...] = ()  # the claims it bears on (empty: every claim)

    def covers(self, claim_id: str) -> bool:
        """Whether the variant bears on the claim ``claim_id``."""
        return not self.claims or claim_id in self.claims


VARIANTS = (
    Variant("sack", "sack-", "TCP with SACK, everything else as the primary"),
    Variant("bucket320", "bucket320-", "320 kbit token buckets in Figs. 2-3 (primary: 160)",
            claims=("C5", "C6", "C7", "C8", "C9", "C10", "C11")),
    Variant("minrto200", "minrto200-",
            "TCP's minimum RTO 0.2 s, ns-2.35's minrto_ (primary: ns-3's 1 s), in Fig. 2",
            claims=("C5", "C6", "C7")),
    Variant("riplus-total", "table1-riplus-total",
            "RI+O's best searched over IN+OUT 200/600/0.05 and 100/300/0.05 too (U8)", True,
            ("C2", "C4")),
)


def variant_runs(variant: Variant, runs: Iterable[RunRecord],
                 primary: Sequence[RunRecord]) -> list[RunRecord]:
    """The variant's runs, their grids renamed to the primary's (plus the primary's runs when
    the variant only adds settings)."""
    mine = [dataclasses.replace(r, grid=r.grid[len(variant.prefix):] or "table1")
            for r in runs if (r.grid or "").startswith(variant.prefix)]
    return [*primary, *mine] if variant.with_primary and mine else mine
