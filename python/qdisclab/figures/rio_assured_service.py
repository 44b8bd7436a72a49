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

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
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
    save_figure,
    t_interval,
    write_csv,
)

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
    """One Table 1 setting: per-class estimates (2, 1, 0.5, 0.2, 0.1 Mb/s, BE)."""

    queue: str
    total: Setting
    out: Setting
    classes: list[Estimate]
    seeds: int

    @property
    def label(self) -> str:
        """The row's name: the scheme and its IN+OUT (RIO) or OUT (RI+O) setting."""
        if self.queue == "Rio":
            return f"RIO, IN+OUT {setting_label(self.total)}"
        return f"RI+O, OUT {setting_label(self.out)}"


def table1_rows(runs: Iterable[RunRecord]) -> list[Table1Row]:
    """Every Table 1 setting run (Table 1's profiles and 20 BE flows), RIO first."""
    cells: dict[tuple[str, Setting, Setting], dict[int, dict]] = defaultdict(dict)
    for run in runs:
        s = setup_of(run)
        if (not run.metrics or s.profiles != TABLE1_PROFILES or s.flows_per_profile != 4
                or s.n_be != 20 or s.queue not in SCHEMES):
            continue
        cells[(s.queue, s.total, s.out)][run.seed] = run.metrics
    rows = [Table1Row(q, t, o, [_estimate(by_seed, m) for m in CLASS_METRICS], len(by_seed))
            for (q, t, o), by_seed in cells.items()]
    rows.sort(key=lambda r: (SCHEMES.index(r.queue), -r.total[0], -r.out[0], r.total[2]))
    return rows


def best(rows: Iterable[Table1Row], queue: str) -> Table1Row | None:
    """The row of ``queue`` whose 2 Mb/s flows get the most throughput."""
    candidates = [r for r in rows if r.queue == queue and r.classes[0].n]
    return max(candidates, key=lambda r: r.classes[0].mean, default=None)


def paper_row(row: Table1Row) -> tuple[float, ...] | None:
    """The paper's numbers for a RI+O row of Table 1 (IN+OUT 347/694/0.05), if it has them."""
    if row.queue != "RiPlusO" or row.total != TABLE1_TOTAL:
        return None
    return PAPER_TABLE1.get(row.out)


TABLE1_HEADER = ("row", "queueDisc", "total_setting", "out_setting", "class", "profile_mbps",
                 "mbps_mean", "mbps_ci95", "n", "paper_mbps", "fair_share_mbps")


def table1_artifacts(rows: list[Table1Row], out_dir: Path) -> tuple[Artifact, list[Claim]]:
    """table1.csv, the table for the report, table1.png/.pdf, and the claims."""
    fair = _table1_fair_share()
    rio_paper = next((r for r in rows if r.queue == "Rio" and r.total == TABLE1_TOTAL), None)
    best_rio = best(rows, "Rio")
    shown: list[tuple[str, Table1Row, tuple[float, ...] | None]] = []
    if rio_paper:
        shown.append(("RIO 347/694/0.05 (the paper's RIO)", rio_paper, None))
    if best_rio:
        shown.append((f"Best RIO (ours: IN+OUT {setting_label(best_rio.total)})", best_rio,
                      PAPER_BEST_RIO))
    for row in rows:
        if row.queue == "RiPlusO":
            shown.append((f"RI+O, OUT {setting_label(row.out)}", row, paper_row(row)))

    csv_rows = []
    for row in rows:
        role = ("best RIO" if row is best_rio else "RIO search") if row.queue == "Rio" \
            else "RI+O"
        paper = PAPER_BEST_RIO if row is best_rio else paper_row(row)
        for k, title in enumerate(TABLE1_COLUMNS):
            profile = TABLE1_PROFILES[k] if k < len(TABLE1_PROFILES) else 0.0
            e = row.classes[k]
            csv_rows.append([role, row.queue, setting_label(row.total),
                             setting_label(row.out) if row.queue == "RiPlusO" else "",
                             title, profile, e.mean, e.half_width, e.n,
                             paper[k] if paper else None, fair[k]])
    csv = write_csv(out_dir / "table1.csv", TABLE1_HEADER, csv_rows)

    columns = ["setting"] + [f"{c} Mb/s" if c != "BE" else "BE (paper: 0.05)"
                             for c in TABLE1_COLUMNS]
    table_rows = []
    for label, row, paper in shown:
        cells = [label]
        for k, e in enumerate(row.classes):
            cell = e.format(3)
            if paper:
                cell += f" ({paper[k]:.3f})"
            cells.append(cell)
        table_rows.append(cells)
    table_rows.append(["Fair share"] + [f"{f:.3f}" for f in fair])

    png = pdf = None
    if shown:
        png, pdf = save_figure(table1_figure(shown, fair), out_dir, "table1")
    seeds = sorted({r.seeds for r in rows})
    artifact = Artifact(
        "table1",
        "Table 1: RIO vs RI+O, mean throughput per profile (Mb/s)",
        "20 AS flows (profiles 2, 1, 0.5, 0.2, 0.1 Mb/s, four each, 320 kbit token buckets)"
        " and 20 BE flows on 20 Mb/s, RTT 100 ms, 1000-packet queue, IN 390/694/0.02. Ours:"
        " mean ± 95 % CI over seeds (" + "/".join(map(str, seeds)) + " runs) of the class's"
        " per-flow mean; the paper's in parentheses. RI+O rows use IN+OUT 347/694/0.05. Best"
        " RIO: the searched IN+OUT setting whose 2 Mb/s flows get the most (all in"
        " table1.csv).",
        csv, png, pdf, TableData(columns, table_rows))
    return artifact, table1_claims(rows, rio_paper, best_rio, fair)


def _table1_fair_share() -> tuple[float, ...]:
    setup = Setup("", "Rio", TABLE1_PROFILES, 4, 20, 20.0, TABLE1_TOTAL, (0.0, 0.0, 0.0))
    return tuple(setup.fair_share(p) for p in (*TABLE1_PROFILES, 0.0))


def table1_figure(shown: list[tuple[str, Table1Row, tuple[float, ...] | None]],
                  fair: Sequence[float]) -> Figure:
    """Throughput per class of each shown row (ours with CIs, the paper's hollow)."""
    fig = Figure(figsize=(9.0, 5.0), layout="constrained")
    axis = fig.subplots()
    n = len(shown)
    width = 0.8 / max(n, 1)
    xs = list(range(len(TABLE1_COLUMNS)))
    for i, (label, row, paper) in enumerate(shown):
        offset = (i - (n - 1) / 2) * width
        means = [e.mean for e in row.classes]
        errors = [e.half_width if math.isfinite(e.half_width) else 0.0 for e in row.classes]
        axis.errorbar([x + offset for x in xs], means, yerr=errors, fmt="o", ms=4, capsize=2,
                      color=f"C{i}", label=label)
        if paper:
            axis.plot([x + offset for x in xs], paper, "o", ms=7, mfc="none", color=f"C{i}")
    for x, value in zip(xs, fair, strict=True):
        axis.hlines(value, x - 0.45, x + 0.45, color="black", lw=1.2)
    for x, profile in zip(xs, TABLE1_PROFILES, strict=False):
        axis.hlines(profile, x - 0.45, x + 0.45, color="grey", lw=1, ls=":")
    axis.set_xticks(xs, [f"{c} Mb/s" if c != "BE" else "BE" for c in TABLE1_COLUMNS])
    axis.set_xlabel("profile class")
    axis.set_ylabel("throughput per flow (Mb/s)")
    axis.set_yscale("log")
    axis.grid(alpha=0.3, which="both")
    axis.legend(fontsize=7, loc="upper right")
    axis.set_title("Table 1: filled = ours (mean ± 95 % CI), hollow = the paper's; black = fair"
                   " share, dotted = profile", fontsize=9)
    return fig


def table1_claims(rows: list[Table1Row], rio_paper: Table1Row | None,
                  best_rio: Table1Row | None, fair: Sequence[float]) -> list[Claim]:
    """The paper's statements on Table 1 (and §2's bandwidth skew)."""
    claims = []
    where = "§2–3, Table 1"
    paper = ("bandwidth skew under RIO: the 2 Mb/s flows miss their profile (best RIO 1.765)"
             " while the 0.1 Mb/s flows exceed their fair share (0.276 vs 0.220)")
    if rio_paper is None:
        claims.append(Claim(where, paper, "RIO 347/694/0.05 not run", "not evaluated"))
    else:
        big, small = rio_paper.classes[0], rio_paper.classes[4]
        skew = big.mean < TABLE1_PROFILES[0] and small.mean > fair[4]
        significant = (above(Estimate(TABLE1_PROFILES[0], 0.0, 1), big)
                       and above(small, Estimate(fair[4], 0.0, 1)))
        claims.append(Claim(
            where, paper,
            f"RIO 347/694/0.05: 2 Mb/s flows {big.format()} Mb/s, 0.1 Mb/s flows"
            f" {small.format()} Mb/s (fair share {fair[4]:.3f})",
            "agree" if significant else "partly" if skew else "disagree"))

    riplus = [r for r in rows if r.queue == "RiPlusO" and r.total == TABLE1_TOTAL]
    best_riplus = best(riplus, "RiPlusO")
    where = "§3, Table 1"
    paper = ("the best RI+O always improves on the best RIO (2 Mb/s: 1.788 vs 1.765; 1 Mb/s:"
             " 1.028 vs 1.009)")
    if best_rio is None or best_riplus is None:
        claims.append(Claim(where, paper, "needs RIO and RI+O runs", "not evaluated"))
    else:
        a, b = best_riplus.classes, best_rio.classes
        higher = [k for k in (0, 1) if a[k].mean > b[k].mean]
        beyond = [k for k in (0, 1) if above(a[k], b[k])]
        claims.append(Claim(
            where, paper,
            f"best RI+O (OUT {setting_label(best_riplus.out)}): 2 Mb/s {a[0].format()}, 1 Mb/s"
            f" {a[1].format()}; best RIO (IN+OUT {setting_label(best_rio.total)}): 2 Mb/s"
            f" {b[0].format()}, 1 Mb/s {b[1].format()}",
            "agree" if len(beyond) == 2 else "partly" if len(higher) == 2 else "disagree"))

    where = "§3, Table 1"
    paper = ("smaller OUT thresholds give the large profiles more and BE less: 2 Mb/s 1.633 →"
             " 1.788, BE 0.253 → 0.179 from OUT 200/600 to 5/15")
    ordered = sorted((r for r in riplus if r.out in PAPER_TABLE1), key=lambda r: -r.out[0])
    if len(ordered) < 2:
        claims.append(Claim(where, paper, "needs two OUT settings of the table", "not evaluated"))
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
            "agree" if sig else "partly" if up and down else "disagree"))

    where = "Table 1"
    paper = "30 numbers for RI+O (five OUT settings × six classes) and six for the best RIO"
    compared = []
    for row in rows:
        numbers = PAPER_BEST_RIO if row is best_rio else paper_row(row)
        if numbers:
            compared += [(row, k, numbers[k]) for k in range(len(numbers))]
    if not compared:
        claims.append(Claim(where, paper, "no row with the paper's numbers", "not evaluated"))
    else:
        errors = [(abs(row.classes[k].mean - value) / value, row, k, value)
                  for row, k, value in compared if row.classes[k].n]
        close = [e for e in errors if e[0] <= 0.10]
        worst = max(errors, key=lambda e: e[0])
        _, row, k, value = worst
        claims.append(Claim(
            where, paper,
            f"{len(close)} of {len(errors)} within ±10 % of the paper's; largest gap: {row.label},"
            f" {TABLE1_COLUMNS[k]} class, ours {row.classes[k].format()} vs {value:.3f}",
            "agree" if len(close) == len(errors) else
            "partly" if 2 * len(close) >= len(errors) else "disagree"))
    return claims


# ----------------------------------------------------------------- Figs. 2 and 3


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

    def last_met(self) -> float | None:
        """The largest x before the first one whose mean is below the profile."""
        return last_met([(x, self.estimate(x).mean) for x in self.xs()], self.profile)


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
                "meets_profile")


def curve_rows(curves: dict[tuple[float, str], Curve]) -> list[list]:
    """One CSV row per (panel, scheme, x)."""
    rows = []
    for (panel, queue), curve in sorted(curves.items()):
        for x in curve.xs():
            e = curve.estimate(x)
            rows.append([panel, curve.profile, queue, x, e.mean, e.half_width, e.n,
                         curve.estimate(x, "as_min_mbps").mean,
                         curve.estimate(x, "as_in_mbps").mean,
                         curve.estimate(x, "be_mbps").mean,
                         curve.estimate(x, "mean_queue_packets").mean,
                         e.mean >= curve.profile if e.n else None])
    return rows


def _limit_claim(where: str, paper_text: str, curves: dict[tuple[float, str], Curve],
                 panel: float, paper: dict[tuple[float, str], float | None], fmt) -> Claim:
    """Where each scheme stops meeting the profile, ours vs the paper's."""
    rio, riplus = curves.get((panel, "Rio")), curves.get((panel, "RiPlusO"))
    if rio is None or riplus is None:
        return Claim(where, paper_text, "needs RIO and RI+O runs", "not evaluated")
    ours = {q: c.last_met() for q, c in (("Rio", rio), ("RiPlusO", riplus))}
    theirs = {q: paper[(panel, q)] for q in SCHEMES}
    covered = all(v is None or v in c.points for v, c in ((theirs["Rio"], rio),
                                                         (theirs["RiPlusO"], riplus)))

    def rank(value):
        return -math.inf if value is None else value

    text = (f"{_meets('RIO', ours['Rio'], fmt)}, {_meets('RI+O', ours['RiPlusO'], fmt)}"
            "; mean throughput there and one step beyond: "
            + "; ".join(f"{SCHEME_LABELS[q]} " + ", ".join(
                f"{fmt(x)}: {c.estimate(x).format()}" for x in _around(c, ours[q]))
                for q, c in (("Rio", rio), ("RiPlusO", riplus))))
    if not covered:
        return Claim(where, paper_text, text + " (the paper's points were not all run)",
                     "not evaluated")
    if ours == theirs:
        verdict = "agree"
    elif rank(ours["RiPlusO"]) > rank(ours["Rio"]) or (
            rank(ours["RiPlusO"]) == rank(ours["Rio"]) == rank(theirs["RiPlusO"])
            == rank(theirs["Rio"])):
        verdict = "partly"
    else:
        verdict = "disagree"
    return Claim(where, paper_text, text, verdict)


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
                what: str) -> Claim:
    """RI+O gives the AS flows more throughput than RIO: never less, more somewhere."""
    paper = f"RI+O gives the AS flows more throughput than RIO ({what})"
    above_count = below_count = total = 0
    for panel in panels:
        rio, riplus = curves.get((panel, "Rio")), curves.get((panel, "RiPlusO"))
        if rio is None or riplus is None:
            continue
        for x in sorted(set(rio.points) & set(riplus.points)):
            a, b = riplus.estimate(x), rio.estimate(x)
            total += 1
            above_count += above(a, b)
            below_count += above(b, a)
    if not total:
        return Claim(where, paper, "needs RIO and RI+O at the same points", "not evaluated")
    text = (f"RI+O above RIO beyond both 95 % CIs at {above_count} of {total} points, below at"
            f" {below_count}, within them at {total - above_count - below_count}")
    verdict = ("agree" if above_count and not below_count else
               "partly" if above_count > below_count else "disagree")
    return Claim(where, paper, text, verdict)


def _be_label(x: float) -> str:
    return f"{x:g}"


def _percent_label(x: float) -> str:
    return f"{100 * x:.0f}"


# ----------------------------------------------------------------- entry point


def make_figures(db_path: Path, out_dir: Path) -> FigureSet:
    """Write table1, fig2 and fig3 from the database ``db_path``."""
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
        "Throughput: IPv4 bytes of a flow's packets leaving the bottleneck queue after the"
        " warm-up, retransmissions included; the metrics also hold goodput (*_goodput_mbps) and"
        " the IN part (*_in_mbps).",
        "Table 1's sixth column is headed \u201c0.05\u201d in the paper but its fair share,"
        " 0.120 = (20 \u2212 15.2) / 40, is that of a flow without a profile: the best-effort"
        " flows 20\u201339.",
        "\u201cBest RIO\u201d: the paper does not say over which IN+OUT settings or by which"
        " criterion; ours is the searched setting whose 2 Mb/s flows get the most throughput.",
    ]

    rows = table1_rows(runs)
    if rows:
        artifact, claims = table1_artifacts(rows, out_dir)
        result.artifacts.append(artifact)
        result.claims += claims
    else:
        result.claims.append(Claim("Table 1", "RIO vs RI+O per profile", "no Table 1 run",
                                   "not evaluated"))

    curves2 = fig2_curves(runs)
    panels2 = [p for p in FIG2_PROFILES if any(k[0] == p for k in curves2)]
    if panels2:
        fig = curves_figure(
            curves2, panels2,
            "Figure 2: throughput of the AS flows vs the number of BE flows (mean ± 95 % CI)",
            lambda p: f"({'ab'[list(FIG2_PROFILES).index(p)]}) {100 * p:.0f} % subscription:"
                      f" 4 × {FIG2_PROFILES[p]:g} Mb/s",
            "number of best-effort flows", True, PAPER_FIG2, _be_label)
        result.artifacts.append(figure_artifact(
            fig, out_dir, "fig2", CURVE_HEADER, curve_rows(curves2),
            "Figure 2: AS throughput vs number of best-effort flows",
            "Four AS flows with equal profiles (2 Mb/s: 40 %, 2.5 Mb/s: 50 % of 20 Mb/s) and 0–96"
            " BE flows; IN 60/180/0.02, IN+OUT 30/90/0.05, OUT 10/30/0.1, 200-packet queue."
            " Dashed: the paper's last number of BE flows at which the profile is met."))
        for panel in panels2:
            paper_text = (f"{100 * panel:.0f} % subscription: the AS flows keep their profile up"
                          f" to {PAPER_FIG2[(panel, 'Rio')]} BE flows with RIO and"
                          f" {PAPER_FIG2[(panel, 'RiPlusO')]} with RI+O")
            result.claims.append(_limit_claim(
                f"§3, Fig. 2({'ab'[list(FIG2_PROFILES).index(panel)]})", paper_text, curves2,
                panel, PAPER_FIG2, lambda x: "never" if x is None else f"{x:g} BE flows"))
        result.claims.append(_gain_claim("§3, Fig. 2", curves2, panels2,
                                         "it overcomes the impact of BE flows"))
    else:
        result.claims.append(Claim("§3, Fig. 2", "AS throughput vs BE flows", "no Fig. 2 run",
                                   "not evaluated"))

    curves3 = fig3_curves(runs)
    panels3 = [p for p in FIG3_PROFILES if any(k[0] == p for k in curves3)]
    if panels3:
        fig = curves_figure(
            curves3, panels3,
            "Figure 3: throughput of the AS flows vs subscription level, 20 BE flows"
            " (mean ± 95 % CI)",
            lambda p: f"({'abc'[list(FIG3_PROFILES).index(p)]}) profile {p:g} Mb/s",
            "subscription level (%)", True, PAPER_FIG3, _percent_label)
        result.artifacts.append(figure_artifact(
            fig, out_dir, "fig3", CURVE_HEADER, curve_rows(curves3),
            "Figure 3: AS throughput vs subscription level",
            "20 BE flows; AS flows of one profile (0.5, 1, 2 Mb/s), as many as the subscription"
            " level asks (10–100 % of 20 Mb/s); thresholds and queue as in Fig. 2. Dashed: the"
            " paper's highest level at which the profile is met."))
        for panel in panels3:
            rio, riplus = PAPER_FIG3[(panel, "Rio")], PAPER_FIG3[(panel, "RiPlusO")]
            paper_text = (f"profile {panel:g} Mb/s, by subscription level:"
                          f" {_meets('RIO', rio, _level)}, {_meets('RI+O', riplus, _level)}")
            result.claims.append(_limit_claim(
                f"§3, Fig. 3({'abc'[list(FIG3_PROFILES).index(panel)]})", paper_text, curves3,
                panel, PAPER_FIG3, _level))
        result.claims.append(_gain_claim("§3, Fig. 3", curves3, panels3,
                                         "the gap grows with the profile rate"))
    else:
        result.claims.append(Claim("§3, Fig. 3", "AS throughput vs subscription",
                                   "no Fig. 3 run", "not evaluated"))
    return result
