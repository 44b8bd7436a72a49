# SPDX-License-Identifier: GPL-2.0-only
"""Figures, tables and claims of the Assured Service study (Kim, Park, Bahk; RIO vs RI+O, ns-2).

Long-lived TCP flows share a 20 Mb/s bottleneck managed by RIO or RI+O; Assured
Service (AS) flows are marked IN up to their profile by a token bucket, best-effort
(BE) flows are OUT. ``campaigns/rio-assured-service.toml`` runs the
``rio-assured-service`` example in four sub-grids:

``table1``
    20 AS flows (profiles 2, 1, 0.5, 0.2, 0.1 Mb/s, four each) and 20 BE flows:
    mean throughput per profile class for RIO with the paper's parameters, the best
    RIO of an IN+OUT search (the setting whose 2 Mb/s flows get the most), and RI+O
    with each OUT setting of the paper's Table 1, beside the paper's numbers and the
    fair share (profile + the unsubscribed capacity split over all 40 flows);
``fig2``
    mean throughput of four AS flows at 40 % (2 Mb/s each) and 50 % (2.5 Mb/s)
    subscription against the number of BE flows, RIO and RI+O; where each scheme
    stops meeting the profile, beside the paper's 11 / 26 and 6 / 16 BE flows;
``fig3``
    20 BE flows, AS flows of one profile (0.5, 1, 2 Mb/s) at subscription 10–100 %:
    the highest level up to which each scheme meets the profile, beside the paper's.

Throughput is the IPv4 bytes of a flow's packets through the bottleneck after the
warm-up (retransmissions included, as a link meter sees them); every mean comes with
its 95 % Student-t interval over seeds. "Meets the profile" compares the seed mean of
the AS flows' mean throughput with the profile rate.
"""

from __future__ import annotations

import dataclasses
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from matplotlib.figure import Figure

from qdisclab.campaign.store import RunRecord
from qdisclab.figures import VERDICTS_NEEDING_CAUSE, Artifact, Claim, FigureSet, TableData
from qdisclab.figures.common import (
    COMPARISONS,
    NO_ESTIMATE,
    Estimate,
    compare_paired,
    figure_artifact,
    load_campaign_runs,
    save_figure,
    t_interval,
    variants_db,
    write_csv,
)
from qdisclab.figures.rio_assured_service_runs import sensitivity_artifact, trace_artifact

NAME = "rio-assured-service"
SCHEMES = ("Rio", "RiPlusO")
SCHEME_LABELS = {"Rio": "RIO", "RiPlusO": "RI+O"}

# ----------------------------------------------------------------- the example's defaults

#: rio-assured-service's defaults (the paper's Table 1 setup) for the parameters read here.
DEFAULTS: dict[str, object] = {
    "queueDisc": "Rio",
    "profiles": "2,1,0.5,0.2,0.1",
    "flowsPerProfile": 4,
    "subscription": 0.0,
    "nBestEffort": 20,
    "inMinTh": 390.0,
    "inMaxTh": 694.0,
    "inMaxP": 0.02,
    "totalMinTh": 347.0,
    "totalMaxTh": 694.0,
    "totalMaxP": 0.05,
    "outMinTh": 10.0,
    "outMaxTh": 30.0,
    "outMaxP": 0.01,
    "queueLimit": 1000,
    "bottleneckRate": "20Mbps",
}

# ----------------------------------------------------------------- the paper's numbers

#: Table 1's profile classes (Mb/s), then best effort.
TABLE1_PROFILES = (2.0, 1.0, 0.5, 0.2, 0.1)
#: Column titles of Table 1: the profile rates, then BE (the paper heads it "0.05").
TABLE1_COLUMNS = ("2.0", "1.0", "0.5", "0.2", "0.1", "BE")
#: Table 1's fixed IN and IN+OUT settings (min, max, P_max).
TABLE1_IN = (390.0, 694.0, 0.02)
TABLE1_TOTAL = (347.0, 694.0, 0.05)
Setting = tuple[float, float, float]  # (min_th, max_th, P_max), thresholds in packets
#: Table 1: the best RIO and RI+O with each OUT setting (IN 390/694/0.02), Mb/s per class.
PAPER_BEST_RIO = (1.765, 1.009, 0.568, 0.333, 0.276, 0.253)
PAPER_TABLE1: dict[Setting, tuple[float, ...]] = {
    (200.0, 600.0, 0.01): (1.633, 0.912, 0.557, 0.322, 0.267, 0.253),
    (100.0, 300.0, 0.01): (1.657, 0.962, 0.586, 0.346, 0.277, 0.229),
    (30.0, 90.0, 0.01): (1.751, 1.013, 0.594, 0.342, 0.276, 0.198),
    (10.0, 30.0, 0.01): (1.781, 1.023, 0.592, 0.345, 0.272, 0.186),
    (5.0, 15.0, 0.01): (1.788, 1.028, 0.591, 0.339, 0.271, 0.179),
}
PAPER_FAIR_SHARE = (2.120, 1.120, 0.620, 0.320, 0.220, 0.120)

#: Fig. 2: subscription level -> AS profile (four flows on 20 Mb/s).
FIG2_PROFILES = {0.4: 2.0, 0.5: 2.5}
FIG2_BE = (0, 1, 2, 6, 11, 16, 26, 46, 96)
#: Fig. 2: the largest number of BE flows at which the AS flows still meet their profile.
PAPER_FIG2: dict[tuple[float, str], int] = {
    (0.4, "Rio"): 11, (0.4, "RiPlusO"): 26, (0.5, "Rio"): 6, (0.5, "RiPlusO"): 16,
}
#: Fig. 3: the highest subscription level up to which the profile is met (None: never).
FIG3_PROFILES = (0.5, 1.0, 2.0)
FIG3_LEVELS = tuple(round(0.1 * k, 1) for k in range(1, 11))
PAPER_FIG3: dict[tuple[float, str], float | None] = {
    (0.5, "Rio"): 0.9, (0.5, "RiPlusO"): 0.9, (1.0, "Rio"): 0.5, (1.0, "RiPlusO"): 0.7,
    (2.0, "Rio"): None, (2.0, "RiPlusO"): 0.5,
}

# ----------------------------------------------------------------- parameters


def parse_mbps(rate: str) -> float:
    """``"20Mbps"`` → 20.0, ``"500kbps"`` → 0.5 (Mb/s)."""
    text = str(rate).strip()
    for suffix, scale in (("Gbps", 1e3), ("Mbps", 1.0), ("kbps", 1e-3), ("bps", 1e-6)):
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * scale
    raise ValueError(f"not a data rate: {rate!r}")


def parse_profiles(text: str) -> tuple[float, ...]:
    """``"2,1,0.5"`` → (2.0, 1.0, 0.5)."""
    return tuple(float(item) for item in str(text).split(","))


@dataclass(frozen=True)
class Setup:
    """A run's scenario with the example's defaults filled in."""

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
    """The scenario of a stored run (campaign parameters over the example's defaults)."""
    p = {**DEFAULTS, **run.params}
    profiles = parse_profiles(p["profiles"])
    capacity = parse_mbps(p["bottleneckRate"])
    flows = int(p["flowsPerProfile"])
    if float(p["subscription"]) > 0:
        flows = round(float(p["subscription"]) * capacity / sum(profiles))
    total = (float(p["totalMinTh"]), float(p["totalMaxTh"]), float(p["totalMaxP"]))
    out = ((float(p["outMinTh"]), float(p["outMaxTh"]), float(p["outMaxP"]))
           if p["queueDisc"] == "RiPlusO" else (0.0, 0.0, 0.0))
    return Setup(run.grid or "", str(p["queueDisc"]), profiles, flows, int(p["nBestEffort"]),
                 capacity, total, out)


def setting_label(setting: Setting) -> str:
    """``(347.0, 694.0, 0.05)`` → ``"347/694/0.05"``."""
    low, high, p = setting
    return f"{low:g}/{high:g}/{p:g}"


def _value(metrics: dict | None, name: str) -> float | None:
    value = (metrics or {}).get(name)
    return float(value) if value is not None and math.isfinite(value) else None


def _estimate(by_seed: dict[int, dict], metric: str) -> Estimate:
    return t_interval(v for m in by_seed.values() if (v := _value(m, metric)) is not None)


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


def _fmt(value: float | None, digits: int = 3) -> str:
    if value is None or not math.isfinite(value):
        return "–"
    return f"{value:.{digits}f}"


def _level(value: float | None) -> str:
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
        if self.queue == "Rio":
            return f"RIO, IN+OUT {setting_label(self.total)}"
        if self.total != TABLE1_TOTAL:
            return f"RI+O, IN+OUT {setting_label(self.total)}, OUT {setting_label(self.out)}"
        return f"RI+O, OUT {setting_label(self.out)}"

    @property
    def short(self) -> str:
        """The setting alone: IN+OUT for RIO, OUT (and IN+OUT if not S4's) for RI+O."""
        if self.queue == "Rio":
            return setting_label(self.total)
        if self.total != TABLE1_TOTAL:
            return f"{setting_label(self.total)} + {setting_label(self.out)}"
        return setting_label(self.out)

    def estimate(self, metric: str) -> Estimate:
        """Mean and 95 % CI over seeds of any metric."""
        return _estimate(self.by_seed, metric)


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
        samples = [{seed: v for seed, m in by_seed.items() if (v := _value(m, metric)) is not None}
                   for metric in CLASS_METRICS]
        rows.append(Table1Row(q, t, o, [_estimate(by_seed, m) for m in CLASS_METRICS],
                              len(by_seed), samples, by_seed))
    rows.sort(key=lambda r: (SCHEMES.index(r.queue), -r.total[0], -r.out[0], r.total[2]))
    return rows


def searched(rows: Iterable[Table1Row], queue: str, all_totals: bool = False) -> list[Table1Row]:
    """The settings searched for a scheme's best: every RIO row; RI+O's rows with S4's
    IN+OUT 347/694/0.05 (the paper's Table 1 rows), or every RI+O row if ``all_totals``."""
    return [r for r in rows if r.queue == queue
            and (queue == "Rio" or all_totals or r.total == TABLE1_TOTAL)]


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
    if row.queue != "RiPlusO" or row.total != TABLE1_TOTAL:
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
        rio_paper = next((r for r in rows if r.queue == "Rio" and r.total == TABLE1_TOTAL), None)
        return cls(rows, rio_paper, per_class_maxima(rows, "Rio"), best(rows, "Rio"),
                   per_class_maxima(rows, "RiPlusO", riplus_all_totals),
                   best(rows, "RiPlusO", riplus_all_totals))

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
            if row.queue == "RiPlusO" and row.total == TABLE1_TOTAL:
                shown.append((row.label, row.classes, paper_row(row)))
        if self.riplus_max:
            shown.append((f"Best RI+O: {self.riplus_max.label}", self.riplus_max.classes, None))
        if self.riplus_best:
            shown.append((f"RI+O, single best setting: OUT {self.riplus_best.short}",
                          self.riplus_best.classes, None))
        return shown


TABLE1_HEADER = ("row", "queueDisc", "total_setting", "out_setting", "class", "profile_mbps",
                 "mbps_mean", "mbps_ci95", "n", "paper_mbps", "fair_share_mbps")


def table1_csv_rows(view: Table1View) -> list[list]:
    """One CSV row per (row, class): every setting run, then the maxima and best rows."""
    fair = _table1_fair_share()
    out: list[list] = []

    def add(role: str, row: Table1Row, k: int, paper: tuple[float, ...] | None) -> None:
        profile = TABLE1_PROFILES[k] if k < len(TABLE1_PROFILES) else 0.0
        e = row.classes[k]
        out.append([role, row.queue, setting_label(row.total),
                     setting_label(row.out) if row.queue == "RiPlusO" else "",
                     TABLE1_COLUMNS[k], profile, e.mean, e.half_width, e.n,
                     paper[k] if paper else None, fair[k]])

    for row in view.rows:
        for k in range(len(CLASS_METRICS)):
            add("RIO setting" if row.queue == "Rio" else "RI+O setting", row, k, paper_row(row))
    for maxima, paper in ((view.rio_max, PAPER_BEST_RIO), (view.riplus_max, None)):
        if maxima:
            for k, row in enumerate(maxima.argmax):
                add(f"{SCHEME_LABELS[maxima.queue]} per-class maximum", row, k, paper)
    for single in (view.rio_best, view.riplus_best):
        if single:
            for k in range(len(CLASS_METRICS)):
                add(f"{SCHEME_LABELS[single.queue]} single best setting", single, k, None)
    return out


def table1_artifact(view: Table1View, out_dir: Path, buckets: str) -> Artifact:
    """table1.csv, the table for the report and table1.png/.pdf."""
    fair = _table1_fair_share()
    csv = write_csv(out_dir / "table1.csv", TABLE1_HEADER, table1_csv_rows(view))
    shown = view.shown()
    columns = ["setting"] + [f"{c} Mb/s" if c != "BE" else "BE (paper: 0.05)"
                             for c in TABLE1_COLUMNS]
    table_rows = []
    for label, classes, paper in shown:
        cells = [label]
        for k, e in enumerate(classes):
            cells.append(e.format(3) + (f" ({paper[k]:.3f})" if paper else ""))
        table_rows.append(cells)
    table_rows.append(["Fair share"] + [f"{f:.3f}" for f in fair])
    png = pdf = None
    if shown:
        png, pdf = save_figure(table1_figure(shown, fair), out_dir, "table1")
    seeds = sorted({r.seeds for r in view.rows})
    return Artifact(
        "table1",
        "Table 1: RIO vs RI+O, mean throughput per profile (Mb/s)",
        f"20 AS flows (profiles 2, 1, 0.5, 0.2, 0.1 Mb/s, four each, {buckets} token buckets)"
        " and 20 BE flows on 20 Mb/s, RTT 100 ms, 1000-packet queue, IN 390/694/0.02. Ours:"
        " mean ± 95 % CI over seeds (" + "/".join(map(str, seeds)) + " runs) of the class's"
        " per-flow mean; the paper's in parentheses. RI+O rows use IN+OUT 347/694/0.05."
        " The paper's \u201cbest RIO\u201d adds up to 20.86 Mb/s on a 20 Mb/s link, so it is"
        " compared with our per-class maxima (per class, the best of the settings searched:"
        " ten IN+OUT settings for RIO, the five OUT settings for RI+O); the single best setting"
        " (the one whose 2 Mb/s flows get the most) is the row below it. Every setting is in"
        " table1.csv.",
        csv, png, pdf, TableData(columns, table_rows))


def _table1_fair_share() -> tuple[float, ...]:
    setup = Setup("", "Rio", TABLE1_PROFILES, 4, 20, 20.0, TABLE1_TOTAL, (0.0, 0.0, 0.0))
    return tuple(setup.fair_share(p) for p in (*TABLE1_PROFILES, 0.0))


def table1_figure(shown: list[tuple[str, list[Estimate], tuple[float, ...] | None]],
                  fair: Sequence[float]) -> Figure:
    """Throughput per class of each shown row (ours with CIs, the paper's hollow)."""
    fig = Figure(figsize=(9.0, 5.4), layout="constrained")
    axis = fig.subplots()
    n = len(shown)
    width = 0.8 / max(n, 1)
    xs = list(range(len(TABLE1_COLUMNS)))
    for i, (label, classes, paper) in enumerate(shown):
        offset = (i - (n - 1) / 2) * width
        means = [e.mean for e in classes]
        errors = [e.half_width if math.isfinite(e.half_width) else 0.0 for e in classes]
        axis.errorbar([x + offset for x in xs], means, yerr=errors, fmt="o", ms=4, capsize=2,
                      color=f"C{i % 10}", label=label)
        if paper:
            axis.plot([x + offset for x in xs], paper, "o", ms=7, mfc="none", color=f"C{i % 10}")
    for x, value in zip(xs, fair, strict=True):
        axis.hlines(value, x - 0.45, x + 0.45, color="black", lw=1.2)
    for x, profile in zip(xs, TABLE1_PROFILES, strict=False):
        axis.hlines(profile, x - 0.45, x + 0.45, color="grey", lw=1, ls=":")
    axis.set_xticks(xs, [f"{c} Mb/s" if c != "BE" else "BE" for c in TABLE1_COLUMNS])
    axis.set_xlabel("profile class")
    axis.set_ylabel("throughput per flow (Mb/s)")
    axis.set_yscale("log")
    axis.grid(alpha=0.3, which="both")
    axis.legend(fontsize=6.5, loc="upper right")
    axis.set_title("Table 1: filled = ours (mean ± 95 % CI), hollow = the paper's; black = fair"
                   " share, dotted = profile", fontsize=9)
    return fig


def paired(a: dict[int, float], b: dict[int, float]) -> tuple[str, Estimate]:
    """:func:`compare_paired` of two per-seed samples over their common seeds."""
    seeds = sorted(set(a) & set(b))
    if not seeds:
        return "no common seed", NO_ESTIMATE
    return compare_paired([a[s] for s in seeds], [b[s] for s in seeds])


def _comparison(outcome: str, diff: Estimate) -> str:
    word = {"A ahead": "RI+O ahead", "B ahead": "RIO ahead"}.get(outcome, outcome)
    return f"{word}, difference {diff.format()}"


def table1_claims(view: Table1View) -> list[Claim]:
    """The paper's statements on Table 1 (and §2's bandwidth skew): C1-C4, C12, C13."""
    fair = _table1_fair_share()
    claims = []
    where = "§2–3, Table 1"
    paper = ("bandwidth skew under RIO: the 2 Mb/s flows miss their profile (best RIO 1.765)"
             " while the 0.1 Mb/s flows exceed their fair share (0.276 vs 0.220)")
    rio_paper = view.rio_paper
    if rio_paper is None:
        claims.append(Claim(where, paper, "RIO 347/694/0.05 not run", "not evaluated", id="C1"))
    else:
        big, small = rio_paper.classes[0], rio_paper.classes[4]
        skew = big.mean < TABLE1_PROFILES[0] and small.mean > fair[4]
        significant = (above(Estimate(TABLE1_PROFILES[0], 0.0, 1), big)
                       and above(small, Estimate(fair[4], 0.0, 1)))
        claims.append(Claim(
            where, paper,
            f"RIO 347/694/0.05: 2 Mb/s flows {big.format()} Mb/s, 0.1 Mb/s flows"
            f" {small.format()} Mb/s (fair share {fair[4]:.3f})",
            "agree" if significant else "partly" if skew else "disagree", id="C1"))

    where = "§3, Table 1"
    paper = ("the best RI+O always improves on the best RIO (2 Mb/s: 1.788 vs 1.765; 1 Mb/s:"
             " 1.028 vs 1.009)")
    if not (view.rio_max and view.riplus_max and view.rio_best and view.riplus_best):
        claims.append(Claim(where, paper, "needs RIO and RI+O runs", "not evaluated", id="C2"))
    else:
        a, b = view.riplus_max, view.rio_max
        outcomes = [paired(a.samples[k], b.samples[k]) for k in (0, 1)]
        single = [paired(view.riplus_best.samples[k], view.rio_best.samples[k]) for k in (0, 1)]
        text = ("per-class maxima (like the paper's best RIO): " + "; ".join(
            f"{TABLE1_COLUMNS[k]} Mb/s RI+O {a.classes[k].format()} (OUT"
            f" {a.argmax[k].short}) vs RIO {b.classes[k].format()} (IN+OUT {b.argmax[k].short}):"
            f" {_comparison(*outcomes[k])}" for k in (0, 1))
            + f". Single best settings (RI+O OUT {view.riplus_best.short} vs RIO IN+OUT"
            f" {view.rio_best.short}): " + "; ".join(
                f"{TABLE1_COLUMNS[k]} Mb/s {_comparison(*single[k])}" for k in (0, 1)))
        kinds = [o for o, _ in outcomes]
        verdict = ("agree" if kinds.count("A ahead") == 2 else
                   "partly" if "A ahead" in kinds and "B ahead" not in kinds else "disagree")
        claims.append(Claim(where, paper, text, verdict, id="C2"))

    where = "§3, Table 1"
    paper = ("smaller OUT thresholds give the large profiles more and BE less: 2 Mb/s 1.633 →"
             " 1.788, BE 0.253 → 0.179 from OUT 200/600 to 5/15")
    riplus = searched(view.rows, "RiPlusO")
    ordered = sorted((r for r in riplus if r.out in PAPER_TABLE1), key=lambda r: -r.out[0])
    if len(ordered) < 2:
        claims.append(Claim(where, paper, "needs two OUT settings of the table", "not evaluated",
                            id="C3"))
    else:
        first, last = ordered[0], ordered[-1]
        up = last.classes[0].mean > first.classes[0].mean
        down = last.classes[5].mean < first.classes[5].mean
        sig = (above(last.classes[0], first.classes[0])
               and above(first.classes[5], last.classes[5]))
        claims.append(Claim(
            where, paper,
            f"OUT {setting_label(first.out)} → {setting_label(last.out)}: 2 Mb/s"
            f" {first.classes[0].format()} → {last.classes[0].format()}, BE"
            f" {first.classes[5].format()} → {last.classes[5].format()}",
            "agree" if sig else "partly" if up and down else "disagree", id="C3"))

    claims.append(_numbers_claim(view))
    claims.append(_out_drop_claim(view))
    claims.append(_out_skew_claim(view))
    return claims


def _within(compared: list[tuple[Estimate, float]]) -> int:
    """How many of (ours, paper's) are within ±10 % of the paper's."""
    return sum(1 for e, value in compared if e.n and abs(e.mean - value) / value <= 0.10)


def _numbers_claim(view: Table1View) -> Claim:
    """C4: the 36 numbers, the best RIO row compared with our per-class maxima."""
    where = "Table 1"
    paper = "30 numbers for RI+O (five OUT settings × six classes) and six for the best RIO"
    riplus = [(row.classes[k], numbers[k]) for row in view.rows
              if (numbers := paper_row(row)) for k in range(len(numbers))]
    if not view.rio_max or not riplus:
        return Claim(where, paper, "needs the RIO search and the table's RI+O rows",
                     "not evaluated", id="C4")
    best_rio = list(zip(view.rio_max.classes, PAPER_BEST_RIO, strict=True))
    compared = riplus + best_rio
    close = _within(compared)
    errors = [(abs(e.mean - value) / value, e, value) for e, value in compared if e.n]
    _, worst, value = max(errors, key=lambda item: item[0])
    single = _within(riplus + list(zip(view.rio_best.classes, PAPER_BEST_RIO, strict=True)))
    text = (f"{close} of {len(compared)} within ±10 % of the paper's (best RIO = our per-class"
            f" maxima; with our single best RIO setting instead: {single}); largest gap: ours"
            f" {worst.format()} vs {value:.3f}")
    verdict = ("agree" if close == len(compared) else
               "partly" if 2 * close >= len(compared) else "disagree")
    return Claim(where, paper, text, verdict, id="C4")


def _out_drop_claim(view: Table1View) -> Claim:
    """C12 (S33): the larger the profile, the higher its OUT packets' drop probability."""
    where = "§3, RIO"
    paper = "the larger profile flows face larger OUT packet drop probabilities"
    row = view.rio_paper
    metrics = [f"as{k}_out_drop_prob" for k in range(len(TABLE1_PROFILES))]
    if row is None or not all(row.estimate(m).n for m in metrics):
        return Claim(where, paper, "needs RIO 347/694/0.05 runs with as<k>_out_drop_prob",
                     "not evaluated", id="C12")
    estimates = [row.estimate(m) for m in metrics]
    falling = sum(above(a, b) for a, b in zip(estimates, estimates[1:]))
    text = ("RIO 347/694/0.05, OUT drop probability per class 2 → 0.1 Mb/s: "
            + ", ".join(f"{100 * e.mean:.2f} %" for e in estimates)
            + f"; {falling} of 4 steps down beyond both 95 % CIs")
    verdict = ("agree" if falling == 4 else
               "partly" if above(estimates[0], estimates[-1]) else "disagree")
    return Claim(where, paper, text, verdict, id="C12")


def _out_skew_claim(view: Table1View) -> Claim:
    """C13 (S32): over every RIO setting, the OUT throughput stays skewed between classes."""
    where = "§3, RIO"
    paper = ("however the IN+OUT parameters are set, RIO cannot control the OUT packets'"
             " throughput of the different profiles (the large profiles get less excess)")
    rows = [r for r in searched(view.rows, "Rio")
            if r.estimate("as0_in_mbps").n and r.estimate("as4_in_mbps").n]
    if not rows:
        return Claim(where, paper, "needs RIO runs with as<k>_in_mbps", "not evaluated",
                     id="C13")

    def out_mbps(row: Table1Row, k: int) -> Estimate:
        return t_interval(v - i for m in row.by_seed.values()
                          if (v := _value(m, f"as{k}_mbps")) is not None
                          and (i := _value(m, f"as{k}_in_mbps")) is not None)

    skewed = [r for r in rows if above(out_mbps(r, 4), out_mbps(r, 0))]
    least = min(rows, key=lambda r: out_mbps(r, 4).mean - out_mbps(r, 0).mean)
    text = (f"OUT throughput of the 0.1 Mb/s flows above the 2 Mb/s flows' beyond both 95 % CIs"
            f" in {len(skewed)} of {len(rows)} RIO settings; least skewed: IN+OUT {least.short}"
            f" ({out_mbps(least, 4).format()} vs {out_mbps(least, 0).format()} Mb/s)")
    verdict = ("agree" if len(skewed) == len(rows) else
               "partly" if 2 * len(skewed) >= len(rows) else "disagree")
    return Claim(where, paper, text, verdict, id="C13")


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
        return _estimate(self.points.get(x, {}), metric) if x in self.points else NO_ESTIMATE

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


def choose_criterion(curves3: dict[tuple[float, str], Curve]) -> tuple[Criterion, str]:
    """The plan's choice rule for U9, on Fig. 3(a) (S26: both schemes meet the 0.5 Mb/s
    profile up to 90 %): the first criterion that calls 10-90 % met and 100 % missed for both
    schemes; (a) when none does or the points were not all run (said in the note)."""
    curves = [curves3.get((0.5, q)) for q in SCHEMES]
    if any(c is None or any(x not in c.points for x in FIG3_LEVELS) for c in curves):
        return CRITERIA[0], ("not calibrated: Fig. 3(a)'s points 10-100 % were not all run;"
                             " criterion (a)")
    for criterion in CRITERIA:
        if all(all(c.met(x, criterion) for x in FIG3_LEVELS[:-1])
               and not c.met(FIG3_LEVELS[-1], criterion) for c in curves):
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


def _errorbar(axis, xs, estimates: list[Estimate], **style) -> None:
    means = [e.mean for e in estimates]
    errors = [e.half_width if math.isfinite(e.half_width) else 0.0 for e in estimates]
    axis.errorbar(xs, means, yerr=errors, capsize=3, marker="o", markersize=3.5, lw=1.2, **style)


def curves_figure(curves: dict[tuple[float, str], Curve], panels: list[float], title: str,
                  panel_title, xlabel: str, categorical: bool,
                  paper: dict[tuple[float, str], float | None], x_label) -> Figure:
    """One panel per ``panels`` value: RIO and RI+O with CIs, the profile, the paper's limit."""
    fig = Figure(figsize=(max(5.2 * len(panels), 8.0), 4.4), layout="constrained")
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for axis, panel in zip(axes, panels, strict=True):
        profile = None
        all_xs = sorted({x for (p, _), c in curves.items() if p == panel for x in c.xs()})
        position = {x: i for i, x in enumerate(all_xs)} if categorical else {x: x for x in all_xs}
        for i, queue in enumerate(SCHEMES):
            curve = curves.get((panel, queue))
            if curve is None:
                continue
            profile = curve.profile
            xs = curve.xs()
            _errorbar(axis, [position[x] for x in xs], [curve.estimate(x) for x in xs],
                      color=f"C{i}", label=f"{SCHEME_LABELS[queue]} (ours)")
            limit = paper.get((panel, queue), "absent")
            if limit != "absent" and limit is not None and limit in position:
                axis.axvline(position[limit], color=f"C{i}", ls="--", lw=0.9,
                             label=f"{SCHEME_LABELS[queue]}: paper's last point meeting it")
        if profile is not None:
            axis.axhline(profile, color="black", lw=1, ls=":", label="profile")
        if categorical:
            axis.set_xticks(range(len(all_xs)), [x_label(x) for x in all_xs])
        axis.set_xlabel(xlabel)
        axis.set_ylabel("throughput per AS flow (Mb/s)")
        axis.set_ylim(bottom=0)
        axis.grid(alpha=0.3)
        axis.set_title(panel_title(panel), fontsize=10)
        axis.legend(fontsize=7)
    fig.suptitle(title, fontsize=10)
    return fig


CURVE_HEADER = ("panel", "profile_mbps", "queueDisc", "x", "as_mbps_mean", "as_mbps_ci95", "n",
                "as_min_mbps_mean", "as_in_mbps_mean", "be_mbps_mean", "mean_queue_packets",
                "meets_profile", "status")


def curve_rows(curves: dict[tuple[float, str], Curve],
               criterion: Criterion = CRITERIA[0]) -> list[list]:
    """One CSV row per (panel, scheme, x); meets_profile and status by ``criterion``."""
    rows = []
    for (panel, queue), curve in sorted(curves.items()):
        for x in curve.xs():
            e = curve.estimate(x)
            rows.append([panel, curve.profile, queue, x, e.mean, e.half_width, e.n,
                         curve.estimate(x, "as_min_mbps").mean,
                         curve.estimate(x, "as_in_mbps").mean,
                         curve.estimate(x, "be_mbps").mean,
                         curve.estimate(x, "mean_queue_packets").mean,
                         curve.met(x, criterion) if e.n else None,
                         curve.status(x, criterion) if e.n else None])
    return rows


def _rank(value: float | None) -> float:
    return -math.inf if value is None else value


def _limit_claim(where: str, paper_text: str, curves: dict[tuple[float, str], Curve],
                 panel: float, paper: dict[tuple[float, str], float | None], fmt,
                 criterion: Criterion, claim_id: str) -> Claim:
    """Where each scheme stops meeting the profile, ours vs the paper's, with ties: agree when
    the paper's limit lies between "met up to X" and "tied up to Y" for both schemes."""
    rio, riplus = curves.get((panel, "Rio")), curves.get((panel, "RiPlusO"))
    if rio is None or riplus is None:
        return Claim(where, paper_text, "needs RIO and RI+O runs", "not evaluated", id=claim_id)
    pairs = (("Rio", rio), ("RiPlusO", riplus))
    ours = {q: c.last_met(criterion) for q, c in pairs}
    ranges = {q: c.tie_range(criterion) for q, c in pairs}
    theirs = {q: paper[(panel, q)] for q in SCHEMES}
    covered = all(theirs[q] is None or theirs[q] in c.points for q, c in pairs)
    text = (f"{_meets('RIO', ours['Rio'], fmt)}, {_meets('RI+O', ours['RiPlusO'], fmt)}"
            f" (criterion {criterion.key}); beyond the 95 % CIs: " + "; ".join(
                f"{SCHEME_LABELS[q]} met up to {fmt(ranges[q][0])}, tied up to"
                f" {fmt(ranges[q][1])}" for q in SCHEMES)
            + "; mean throughput there and one step beyond: " + "; ".join(
                f"{SCHEME_LABELS[q]} " + ", ".join(
                    f"{fmt(x)}: {c.estimate(x).format()}" for x in _around(c, ours[q]))
                for q, c in pairs))
    if not covered:
        return Claim(where, paper_text, text + " (the paper's points were not all run)",
                     "not evaluated", id=claim_id)
    inside = all(_rank(ranges[q][0]) <= _rank(theirs[q]) <= _rank(ranges[q][1])
                 for q in SCHEMES)
    if ours == theirs or inside:
        verdict = "agree"
    elif _rank(ours["RiPlusO"]) > _rank(ours["Rio"]) or (
            _rank(ours["RiPlusO"]) == _rank(ours["Rio"]) == _rank(theirs["RiPlusO"])
            == _rank(theirs["Rio"])):
        verdict = "partly"
    else:
        verdict = "disagree"
    return Claim(where, paper_text, text, verdict, id=claim_id)


def _meets(scheme: str, limit: float | None, fmt) -> str:
    """``"RIO meets the profile up to 11 BE flows"``, or ``"RIO never meets the profile"``."""
    if limit is None:
        return f"{scheme} never meets the profile"
    return f"{scheme} meets the profile up to {fmt(limit)}"


def _around(curve: Curve, x: float | None) -> list[float]:
    """``x`` and the next point run (the first point when ``x`` is None)."""
    xs = curve.xs()
    if not xs:
        return []
    if x is None:
        return xs[:1]
    i = xs.index(x)
    return xs[i:i + 2]


def _gain_claim(where: str, curves: dict[tuple[float, str], Curve], panels: list[float],
                what: str, claim_id: str) -> Claim:
    """RI+O gives the AS flows more throughput than RIO: per point, paired over the seeds,
    RI+O ahead, tied (or identical) or behind; agree when ahead somewhere and never behind."""
    paper = f"RI+O gives the AS flows more throughput than RIO ({what})"
    counts = {outcome: 0 for outcome in COMPARISONS}
    for panel in panels:
        rio, riplus = curves.get((panel, "Rio")), curves.get((panel, "RiPlusO"))
        if rio is None or riplus is None:
            continue
        for x in sorted(set(rio.points) & set(riplus.points)):
            a = {s: v for s, m in riplus.points[x].items()
                 if (v := _value(m, "as_mbps")) is not None}
            b = {s: v for s, m in rio.points[x].items() if (v := _value(m, "as_mbps")) is not None}
            outcome, _ = paired(a, b)
            if outcome in counts:
                counts[outcome] += 1
    total = sum(counts.values())
    if not total:
        return Claim(where, paper, "needs RIO and RI+O at the same points", "not evaluated",
                     id=claim_id)
    ahead, behind = counts["A ahead"], counts["B ahead"]
    text = (f"paired over seeds, RI+O ahead of RIO at {ahead} of {total} points, tied at"
            f" {counts['tied']} (identical at {counts['identical']}), behind at {behind}")
    verdict = ("agree" if ahead and not behind else
               "partly" if ahead > behind else "disagree")
    return Claim(where, paper, text, verdict, id=claim_id)


def _be_label(x: float | None) -> str:
    return "never" if x is None else f"{x:g}"


def _percent_label(x: float) -> str:
    return f"{100 * x:.0f}"


def _be_flows(x: float | None) -> str:
    return "never" if x is None else f"{x:g} BE flows"


def figure_claims(curves2: dict[tuple[float, str], Curve], curves3: dict[tuple[float, str], Curve],
                  criterion: Criterion, choice: str) -> list[Claim]:
    """C5-C11: the limits of Figs. 2 and 3 and RI+O's gain; C8 (Fig. 3(a)) is calibrated."""
    claims = []
    for panel, letter, claim_id in ((0.4, "a", "C5"), (0.5, "b", "C6")):
        paper_text = (f"{100 * panel:.0f} % subscription: the AS flows keep their profile up"
                      f" to {PAPER_FIG2[(panel, 'Rio')]} BE flows with RIO and"
                      f" {PAPER_FIG2[(panel, 'RiPlusO')]} with RI+O")
        claims.append(_limit_claim(f"§3, Fig. 2({letter})", paper_text, curves2, panel,
                                   PAPER_FIG2, _be_flows, criterion, claim_id))
    claims.append(_gain_claim("§3, Fig. 2", curves2, list(FIG2_PROFILES),
                              "it overcomes the impact of BE flows", "C7"))
    for panel, letter, claim_id in ((0.5, "a", "C8"), (1.0, "b", "C9"), (2.0, "c", "C10")):
        rio, riplus = PAPER_FIG3[(panel, "Rio")], PAPER_FIG3[(panel, "RiPlusO")]
        paper_text = (f"profile {panel:g} Mb/s, by subscription level:"
                      f" {_meets('RIO', rio, _level)}, {_meets('RI+O', riplus, _level)}")
        claim = _limit_claim(f"§3, Fig. 3({letter})", paper_text, curves3, panel, PAPER_FIG3,
                             _level, criterion, claim_id)
        if claim_id == "C8" and claim.verdict != "not evaluated":  # S26 chose U9: not judged
            claim = Claim(claim.where, claim.paper, f"{claim.ours}; {choice}", "calibrated",
                          id="C8")
        claims.append(claim)
    claims.append(_gain_claim("§3, Fig. 3", curves3, list(FIG3_PROFILES),
                              "the gap grows with the profile rate", "C11"))
    return claims


# ----------------------------------------------------------------- analysis and variants


@dataclass
class Analysis:
    """Everything the claims are computed from, for one set of runs."""

    view: Table1View
    curves2: dict[tuple[float, str], Curve]
    curves3: dict[tuple[float, str], Curve]
    criterion: Criterion
    choice: str
    claims: list[Claim]

    @classmethod
    def of(cls, runs: Sequence[RunRecord], riplus_all_totals: bool = False,
           criterion: Criterion | None = None) -> Analysis:
        """Analyse ``runs``; RI+O's best over every IN+OUT run if ``riplus_all_totals``; the
        U9 criterion chosen by the plan's rule unless given."""
        view = Table1View.of(table1_rows(runs), riplus_all_totals)
        curves2, curves3 = fig2_curves(runs), fig3_curves(runs)
        if criterion is None:
            criterion, choice = choose_criterion(curves3)
        else:
            choice = f"criterion ({criterion.key}), as calibrated on the primary runs"
        claims = table1_claims(view) + figure_claims(curves2, curves3, criterion, choice)
        claims.sort(key=lambda c: int(c.id[1:]))
        return cls(view, curves2, curves3, criterion, choice, claims)


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


def variant_causes(primary: Analysis, variants: dict[str, Analysis], ran: bool) -> None:
    """Give every "partly" or "disagree" claim of ``primary`` its cause: what each variant
    that changes one thing measured for the same claim."""
    for claim in primary.claims:
        if claim.verdict not in VERDICTS_NEEDING_CAUSE:
            continue
        parts = []
        for variant in VARIANTS:
            analysis = variants.get(variant.name)
            other = next((c for c in analysis.claims if c.id == claim.id), None) \
                if analysis and variant.covers(claim.id) else None
            if other is not None and other.verdict != "not evaluated":
                head = other.ours.split("; ")[0]  # its result, without the details
                parts.append(f"variant {variant.name} ({variant.what}): {head} →"
                             f" {other.verdict}")
        if parts:
            claim.cause = "; ".join(parts)
        else:
            claim.cause = ("variant not run (campaigns/rio-assured-service-variants.toml: SACK,"
                           " 320 kbit buckets, RI+O's IN+OUT)" if not ran else
                           "no variant of campaigns/rio-assured-service-variants.toml covers"
                           " this claim")


VARIANT_HEADER = ("claim", "where", "primary_ours", "primary_verdict", "variant_ours",
                  "variant_verdict")


def variant_artifact(variant: Variant, primary: Analysis, analysis: Analysis,
                     out_dir: Path) -> Artifact:
    """``variant-<name>``: the variant's claims beside the primary's (CSV, report table) and
    its curves or Table 1 beside the primary's (figure)."""
    rows, table = [], []
    for claim in primary.claims:
        other = next((c for c in analysis.claims if c.id == claim.id), None)
        if other is None or other.verdict == "not evaluated" or not variant.covers(claim.id):
            continue
        rows.append([claim.id, claim.where, claim.ours, claim.verdict, other.ours,
                     other.verdict])
        table.append([claim.id, claim.where, claim.verdict, other.verdict, other.ours])
    fig = variant_figure(variant, primary, analysis)
    artifact = figure_artifact(
        fig, out_dir, f"variant-{variant.name}", VARIANT_HEADER, rows,
        f"Variant {variant.name}: {variant.what}",
        f"campaigns/rio-assured-service-variants.toml, grids {variant.prefix}*: {variant.what}."
        " Each claim as the primary runs and as this variant give it; the figure draws the"
        " variant (dashed, squares) over the primary (solid, circles).")
    artifact.table = TableData(["claim", "where", "primary", "variant", "variant: ours"], table)
    return artifact


def variant_figure(variant: Variant, primary: Analysis, analysis: Analysis) -> Figure:
    """Table 1's 2 Mb/s and BE classes per setting, and Figs. 2-3's curves, of the variant
    over the primary: whichever the variant ran."""
    panels: list[tuple[str, object]] = []
    if analysis.view.rows:
        panels.append(("table1", None))
    panels += [("fig2", p) for p in FIG2_PROFILES if any(k[0] == p for k in analysis.curves2)]
    panels += [("fig3", p) for p in FIG3_PROFILES if any(k[0] == p for k in analysis.curves3)]
    columns = min(max(len(panels), 1), 3)
    rows = max(1, math.ceil(len(panels) / columns))
    fig = Figure(figsize=(5.2 * columns, 4.2 * rows), layout="constrained")
    axes = fig.subplots(rows, columns, squeeze=False).flatten()
    for axis, (kind, panel) in zip(axes, panels, strict=False):
        if kind == "table1":
            labels = [r.label for r in analysis.view.rows]
            base = {r.label: r for r in primary.view.rows}
            for k, marker in ((0, "o"), (5, "^")):
                ys = [r.classes[k] for r in analysis.view.rows]
                ref = [base[r.label].classes[k] if r.label in base else NO_ESTIMATE
                       for r in analysis.view.rows]
                xs = list(range(len(labels)))
                name = "2 Mb/s" if k == 0 else "BE"
                _errorbar(axis, xs, ref, color="C0" if k == 0 else "C2",
                          label=f"{name}, primary")
                _errorbar(axis, xs, ys, color="C1" if k == 0 else "C3", ls="--",
                          label=f"{name}, {variant.name}")
            axis.set_xticks(range(len(labels)), labels, rotation=60, ha="right", fontsize=6)
            axis.set_ylabel("throughput per flow (Mb/s)")
            axis.set_title("Table 1 settings", fontsize=9)
        else:
            curves = analysis.curves2 if kind == "fig2" else analysis.curves3
            base = primary.curves2 if kind == "fig2" else primary.curves3
            for i, queue in enumerate(SCHEMES):
                for source, style, tag in ((base, "-", "primary"), (curves, "--", variant.name)):
                    curve = source.get((panel, queue))
                    if curve is None:
                        continue
                    xs = curve.xs()
                    _errorbar(axis, [_percent_label(x) if kind == "fig3" else _be_label(x)
                                     for x in xs], [curve.estimate(x) for x in xs],
                              color=f"C{i}", ls=style, label=f"{SCHEME_LABELS[queue]}, {tag}")
            profile = FIG2_PROFILES[panel] if kind == "fig2" else panel
            axis.axhline(profile, color="black", lw=1, ls=":")
            axis.set_xlabel("BE flows" if kind == "fig2" else "subscription (%)")
            axis.set_ylabel("throughput per AS flow (Mb/s)")
            axis.set_title(f"Fig. {kind[-1]}: " + (f"{100 * panel:.0f} % subscription"
                                                   if kind == "fig2" else
                                                   f"profile {panel:g} Mb/s"), fontsize=9)
        axis.grid(alpha=0.3)
        axis.legend(fontsize=6)
    for axis in axes[len(panels):]:
        axis.set_visible(False)
    fig.suptitle(f"Variant {variant.name}: {variant.what} (mean ± 95 % CI)", fontsize=10)
    return fig


# ----------------------------------------------------------------- entry point


def make_figures(db_path: Path, out_dir: Path) -> FigureSet:
    """Write table1, fig2 and fig3 from the database ``db_path``, the variants' comparisons
    when the variants campaign was run, the sensitivity figure when its campaign was, and the
    TCP trace when its two files are there (all found beside ``db_path``)."""
    meta, runs = load_campaign_runs(db_path)
    result = FigureSet(NAME, out_dir)
    mode = meta.get("mode", "full")
    seeds = sorted({run.seed for run in runs})
    result.notes.append(
        f"{len(runs)} successful runs ({mode} campaign), seeds {', '.join(map(str, seeds))}.")
    if mode == "quick":
        result.notes.append("Quick campaign: 30 s runs, one seed and a few points; the verdicts"
                            " are indicative only.")
    result.notes += [
        "TCP: ns-3's NewReno without SACK and with classic fast recovery (the paper's ns-2"
        " NewReno has no SACK); SACK is the labelled variant \u201csack\u201d.",
        "Throughput: IPv4 bytes of a flow's packets leaving the bottleneck queue after the"
        " warm-up, retransmissions included; the metrics also hold goodput (*_goodput_mbps), the"
        " IN part (*_in_mbps) and the retransmitted and spurious fractions.",
        "Table 1's sixth column is headed \u201c0.05\u201d in the paper but its fair share,"
        " 0.120 = (20 \u2212 15.2) / 40, is that of a flow without a profile: the best-effort"
        " flows 20\u201339.",
        "\u201cBest RIO\u201d: its classes add up to 20.86 Mb/s on a 20 Mb/s link, so it is"
        " compared with our per-class maxima over the settings searched; the single best"
        " setting (whose 2 Mb/s flows get the most) is shown as a second row.",
        "Token buckets: 320 kbit in Table 1 (the paper's), 160 kbit in Figs. 2-3 (our choice:"
        " the paper's general setting; it names none there); 320 kbit there is the variant"
        " \u201cbucket320\u201d.",
    ]

    primary = Analysis.of(runs)
    result.notes.append(f"\u201cMaintains the profile\u201d (U9): {primary.choice}.")
    if primary.view.rows:
        result.artifacts.append(table1_artifact(primary.view, out_dir, "320 kbit"))
    panels2 = [p for p in FIG2_PROFILES if any(k[0] == p for k in primary.curves2)]
    if panels2:
        fig = curves_figure(
            primary.curves2, panels2,
            "Figure 2: throughput of the AS flows vs the number of BE flows (mean ± 95 % CI)",
            lambda p: f"({'ab'[list(FIG2_PROFILES).index(p)]}) {100 * p:.0f} % subscription:"
                      f" 4 × {FIG2_PROFILES[p]:g} Mb/s",
            "number of best-effort flows", True, PAPER_FIG2, _be_label)
        result.artifacts.append(figure_artifact(
            fig, out_dir, "fig2", CURVE_HEADER, curve_rows(primary.curves2, primary.criterion),
            "Figure 2: AS throughput vs number of best-effort flows",
            "Four AS flows with equal profiles (2 Mb/s: 40 %, 2.5 Mb/s: 50 % of 20 Mb/s) and 0–96"
            " BE flows; IN 60/180/0.02, IN+OUT 30/90/0.05, OUT 10/30/0.1, 200-packet queue,"
            " 160 kbit buckets (our choice). Dashed: the paper's last number of BE flows at"
            " which the profile is met."))
    panels3 = [p for p in FIG3_PROFILES if any(k[0] == p for k in primary.curves3)]
    if panels3:
        fig = curves_figure(
            primary.curves3, panels3,
            "Figure 3: throughput of the AS flows vs subscription level, 20 BE flows"
            " (mean ± 95 % CI)",
            lambda p: f"({'abc'[list(FIG3_PROFILES).index(p)]}) profile {p:g} Mb/s",
            "subscription level (%)", True, PAPER_FIG3, _percent_label)
        result.artifacts.append(figure_artifact(
            fig, out_dir, "fig3", CURVE_HEADER, curve_rows(primary.curves3, primary.criterion),
            "Figure 3: AS throughput vs subscription level",
            "20 BE flows; AS flows of one profile (0.5, 1, 2 Mb/s), as many as the subscription"
            " level asks (10–100 % of 20 Mb/s); thresholds, queue and buckets as in Fig. 2."
            " Dashed: the paper's highest level at which the profile is met."))

    variants_path = variants_db(db_path, NAME)
    analyses: dict[str, Analysis] = {}
    if variants_path is not None:
        _, vruns = load_campaign_runs(variants_path)
        for variant in VARIANTS:
            mine = variant_runs(variant, vruns, runs)
            if mine:
                analyses[variant.name] = Analysis.of(
                    mine, variant.name == "riplus-total", primary.criterion)
                result.artifacts.append(variant_artifact(variant, primary,
                                                         analyses[variant.name], out_dir))
    variant_causes(primary, analyses, variants_path is not None)
    result.claims += primary.claims

    sensitivity = sensitivity_artifact(db_path, out_dir)
    if sensitivity is not None:
        result.artifacts.append(sensitivity)
    trace = trace_artifact(db_path, out_dir)
    if trace is not None:
        result.artifacts.append(trace)
    return result
