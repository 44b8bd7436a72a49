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
    figure_artifact,
    load_campaign_runs,
    variants_db,
)
from qdisclab.figures.rio_assured_service_runs import sensitivity_artifact, trace_artifact
from qdisclab.figures.rio_assured_service_setup import (
    FIG2_PROFILES,
    FIG3_LEVELS,
    FIG3_PROFILES,
    PAPER_FIG2,
    PAPER_FIG3,
    SCHEME_LABELS,
    SCHEMES,
    above,
    last_met,
    level_label,
    metric_value,
    seed_estimate,
    setup_of,
)
from qdisclab.figures.rio_assured_service_table1 import (
    Table1View,
    best,
    paired,
    searched,
    table1_artifact,
    table1_claims,
    table1_rows,
)

NAME = "rio-assured-service"

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
                 if (v := metric_value(m, "as_mbps")) is not None}
            b = {s: v for s, m in rio.points[x].items() if (v := metric_value(m, "as_mbps")) is not None}
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
                      f" {_meets('RIO', rio, level_label)},"
                      f" {_meets('RI+O', riplus, level_label)}")
        claim = _limit_claim(f"§3, Fig. 3({letter})", paper_text, curves3, panel, PAPER_FIG3,
                             level_label, criterion, claim_id)
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
