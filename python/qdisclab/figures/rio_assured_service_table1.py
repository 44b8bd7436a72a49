# SPDX-License-Identifier: GPL-2.0-only
"""Table 1 of the Assured Service study (Kim, Park, Bahk): RIO and RI+O per profile class.

Every setting run; both schemes' per-class maxima over the settings searched (the form of the
paper's "best RIO", whose classes add up to 20.86 Mb/s on a 20 Mb/s link) and single best
settings; the claims C1-C4, C12 and C13.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from matplotlib.figure import Figure

from qdisclab.campaign.store import RunRecord
from qdisclab.figures import Artifact, Claim, TableData
from qdisclab.figures.common import (
    NO_ESTIMATE,
    Estimate,
    compare_paired,
    save_figure,
    t_interval,
    write_csv,
)
from qdisclab.figures.rio_assured_service_setup import (
    PAPER_BEST_RIO,
    PAPER_TABLE1,
    SCHEME_LABELS,
    SCHEMES,
    TABLE1_COLUMNS,
    TABLE1_PROFILES,
    TABLE1_TOTAL,
    Setting,
    Setup,
    above,
    metric_value,
    seed_estimate,
    setting_label,
    setup_of,
)

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
    fig = Figure(figsize=(12.0, 5.4), layout="constrained")
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
    axis.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
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
                          if (v := metric_value(m, f"as{k}_mbps")) is not None
                          and (i := metric_value(m, f"as{k}_in_mbps")) is not None)

    skewed = [r for r in rows if above(out_mbps(r, 4), out_mbps(r, 0))]
    least = min(rows, key=lambda r: out_mbps(r, 4).mean - out_mbps(r, 0).mean)
    text = (f"OUT throughput of the 0.1 Mb/s flows above the 2 Mb/s flows' beyond both 95 % CIs"
            f" in {len(skewed)} of {len(rows)} RIO settings; least skewed: IN+OUT {least.short}"
            f" ({out_mbps(least, 4).format()} vs {out_mbps(least, 0).format()} Mb/s)")
    verdict = ("agree" if len(skewed) == len(rows) else
               "partly" if 2 * len(skewed) >= len(rows) else "disagree")
    return Claim(where, paper, text, verdict, id="C13")
