# SPDX-License-Identifier: GPL-2.0-only
"""The Assured Service study's claims (C1-C13): Table 1's and Figs. 2 and 3's statements
judged per seed, and the causes the variants campaign shows."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from qdisclab.campaign.store import RunRecord
from qdisclab.figures import (
    NO_CAUSE,
    VERDICTS_NEEDING_CAUSE,
    Claim,
    calibration_verdict,
    class_by_verdicts,
)
from qdisclab.figures.common import COMPARISONS, Estimate, metric_value, t_interval
from qdisclab.figures.rio_assured_service.analysis import (
    VARIANTS,
    Criterion,
    Curve,
    Table1Row,
    Table1View,
    above,
    choose_criterion,
    fig2_curves,
    fig3_curves,
    level_label,
    meets_s26,
    paired,
    paper_row,
    searched,
    setting_label,
    table1_fair_share,
    table1_rows,
)
from qdisclab.figures.rio_assured_service.paper import (
    FIG2_PROFILES,
    FIG3_PROFILES,
    PAPER_BEST_RIO,
    PAPER_FIG2,
    PAPER_FIG3,
    PAPER_TABLE1,
    SCHEMES,
    SCHEME_LABELS,
    TABLE1_COLUMNS,
    TABLE1_PROFILES,
)


# ----------------------------------------------------------------- Table 1 claims


def _comparison(outcome: str, diff: Estimate) -> str:
    word = {"A ahead": "RI+O ahead", "B ahead": "RIO ahead"}.get(outcome, outcome)
    return f"{word}, difference {diff.format()}"


def table1_claims(view: Table1View) -> list[Claim]:
    """The paper's statements on Table 1 (and §2's bandwidth skew): C1-C4, C12, C13."""
    fair = table1_fair_share()
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
    riplus = searched(view.rows, "RI+O")
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
    rows = [r for r in searched(view.rows, "RIO")
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


# ----------------------------------------------------------------- Figs. 2 and 3 claims


def _rank(value: float | None) -> float:
    return -math.inf if value is None else value


def _limit_claim(where: str, paper_text: str, curves: dict[tuple[float, str], Curve],
                 panel: float, paper: dict[tuple[float, str], float | None], fmt,
                 criterion: Criterion, claim_id: str) -> Claim:
    """Where each scheme stops meeting the profile, ours vs the paper's, with ties: agree when
    the paper's limit lies between "met up to X" and "tied up to Y" for both schemes."""
    rio, riplus = curves.get((panel, "RIO")), curves.get((panel, "RI+O"))
    if rio is not None and not any(q == "RI+O" for _, q in curves):
        return _rio_limit_claim(where, paper_text, rio, paper[(panel, "RIO")], fmt, criterion,
                                claim_id)
    if rio is None or riplus is None:
        return Claim(where, paper_text, "needs RIO and RI+O runs", "not evaluated", id=claim_id)
    pairs = (("RIO", rio), ("RI+O", riplus))
    ours = {q: c.last_met(criterion) for q, c in pairs}
    ranges = {q: c.tie_range(criterion) for q, c in pairs}
    theirs = {q: paper[(panel, q)] for q in SCHEMES}
    covered = all(theirs[q] is None or theirs[q] in c.points for q, c in pairs)
    text = (f"{_meets('RIO', ours['RIO'], fmt)}, {_meets('RI+O', ours['RI+O'], fmt)}"
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
    elif _rank(ours["RI+O"]) > _rank(ours["RIO"]) or (
            _rank(ours["RI+O"]) == _rank(ours["RIO"]) == _rank(theirs["RI+O"])
            == _rank(theirs["RIO"])):
        verdict = "partly"
    else:
        verdict = "disagree"
    return Claim(where, paper_text, text, verdict, id=claim_id)


def _rio_limit_claim(where: str, paper_text: str, rio: Curve, theirs: float | None, fmt,
                     criterion: Criterion, claim_id: str) -> Claim:
    """The limit claim on runs without RI+O (a simulator that has none, ns-2.35): RIO's half
    alone, agree when the paper's RIO limit lies between "met up to X" and "tied up to Y"."""
    ours = rio.last_met(criterion)
    low, high = rio.tie_range(criterion)
    text = (f"[RIO only: no RI+O runs] {_meets('RIO', ours, fmt)} (criterion {criterion.key});"
            f" beyond the 95 % CIs: met up to {fmt(low)}, tied up to {fmt(high)}; mean"
            " throughput there and one step beyond: " + ", ".join(
                f"{fmt(x)}: {rio.estimate(x).format()}" for x in _around(rio, ours)))
    if theirs is not None and theirs not in rio.points:
        return Claim(where, paper_text, text + " (the paper's points were not all run)",
                     "not evaluated", id=claim_id)
    inside = _rank(low) <= _rank(theirs) <= _rank(high)
    verdict = "agree" if ours == theirs or inside else "disagree"
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
        rio, riplus = curves.get((panel, "RIO")), curves.get((panel, "RI+O"))
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


def _be_flows(x: float | None) -> str:
    return "never" if x is None else f"{x:g} BE flows"


def figure_claims(curves2: dict[tuple[float, str], Curve], curves3: dict[tuple[float, str], Curve],
                  criterion: Criterion, choice: str) -> list[Claim]:
    """C5-C11: the limits of Figs. 2 and 3 and RI+O's gain; C8 (Fig. 3(a)) is calibrated."""
    claims = []
    for panel, letter, claim_id in ((0.4, "a", "C5"), (0.5, "b", "C6")):
        paper_text = (f"{100 * panel:.0f} % subscription: the AS flows keep their profile up"
                      f" to {PAPER_FIG2[(panel, 'RIO')]} BE flows with RIO and"
                      f" {PAPER_FIG2[(panel, 'RI+O')]} with RI+O")
        claims.append(_limit_claim(f"§3, Fig. 2({letter})", paper_text, curves2, panel,
                                   PAPER_FIG2, _be_flows, criterion, claim_id))
    claims.append(_gain_claim("§3, Fig. 2", curves2, list(FIG2_PROFILES),
                              "it overcomes the impact of BE flows", "C7"))
    for panel, letter, claim_id in ((0.5, "a", "C8"), (1.0, "b", "C9"), (2.0, "c", "C10")):
        rio, riplus = PAPER_FIG3[(panel, "RIO")], PAPER_FIG3[(panel, "RI+O")]
        paper_text = (f"profile {panel:g} Mb/s, by subscription level:"
                      f" {_meets('RIO', rio, level_label)},"
                      f" {_meets('RI+O', riplus, level_label)}")
        claim = _limit_claim(f"§3, Fig. 3({letter})", paper_text, curves3, panel, PAPER_FIG3,
                             level_label, criterion, claim_id)
        if claim_id == "C8" and claim.verdict != "not evaluated":  # S26 chose U9: not judged
            claim = Claim(claim.where, claim.paper, f"{claim.ours}; {choice}",
                          calibration_verdict(meets_s26(curves3, criterion)), id="C8")
        claims.append(claim)
    claims.append(_gain_claim("§3, Fig. 3", curves3, list(FIG3_PROFILES),
                              "the gap grows with the profile rate", "C11"))
    return claims


# ----------------------------------------------------------------- claims of a set of runs; causes


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


def _head(text: str) -> str:
    """``text`` up to its first "; " outside parentheses (a claim's result without details)."""
    depth = 0
    for i, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and text.startswith("; ", i):
            return text[:i]
    return text


def variant_causes(primary: Analysis, variants: dict[str, Analysis], ran: bool) -> None:
    """Give every "partly" or "disagree" claim of ``primary`` its cause: what each variant
    that changes one thing measured for the same claim."""
    for claim in primary.claims:
        if claim.verdict not in VERDICTS_NEEDING_CAUSE:
            continue
        parts, unrun, verdicts = [], [], []
        for variant in VARIANTS:
            analysis = variants.get(variant.name)
            other = next((c for c in analysis.claims if c.id == claim.id), None) \
                if analysis and variant.covers(claim.id) else None
            if other is not None and other.verdict != "not evaluated":
                head = _head(other.ours)  # its result, without the details
                parts.append(f"variant {variant.name} ({variant.what}): {head} →"
                             f" {other.verdict}")
                verdicts.append(other.verdict)
            elif variant.covers(claim.id):
                unrun.append(variant.name)
        if parts and unrun:
            parts.append(f"not run for this claim: {', '.join(unrun)}")
        covering = [variant for variant in VARIANTS if variant.covers(claim.id)]
        if parts:
            claim.set_cause("; ".join(parts), class_by_verdicts(claim.verdict, verdicts))
        elif covering:
            missing = ", ".join(f"{variant.prefix}*" for variant in covering)
            claim.set_cause("variant not run (campaigns/rio-assured-service-variants.toml: "
                            + (f"no runs of {missing} for this claim)" if ran else
                               "SACK, 320 kbit buckets, RI+O's IN+OUT)"), NO_CAUSE)
        else:
            claim.set_cause("no variant of campaigns/rio-assured-service-variants.toml covers"
                            " this claim", NO_CAUSE)
