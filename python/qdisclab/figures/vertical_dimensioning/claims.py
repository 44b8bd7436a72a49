# SPDX-License-Identifier: GPL-2.0-only
"""The Vertical Dimensioning reproduction's claims: the paper's statements on Figs. 4 and 5
judged per seed pair (wins, ties, losses), merged over the two topologies, and the causes the
variant runs show."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from qdisclab.figures import ARGUMENT, NO_CAUSE, Claim, class_by_verdicts
from qdisclab.figures.common import (
    NO_ESTIMATE,
    RunParams,
    compare_paired,
    metric_value,
    t_interval,
)
from qdisclab.figures.vertical_dimensioning.analysis import (
    TOPOLOGY_DELAYS,
    Study,
    Variants,
    main_variant,
    run_ideal,
    size_label,
    static_ideal,
)
from qdisclab.figures.vertical_dimensioning.paper import (
    DELAY_STATS,
    PAPER_COMPARATORS,
    PAPER_DELAY_REDUCTION,
    PAPER_SMALL_BUFFER,
)


# ----------------------------------------------------------------- fig4 claims


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
                parts.append(f"{size_label(size)}: {min(mean_red):.0f}%–{max(mean_red):.0f}%")
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
    text = "; ".join(f"{size_label(s)}: VD {lo:.1f}–{hi:.1f} ms (max/min {r:.2f})"
                     for s, lo, hi, r in spreads)
    for other in comparators:
        for size, lo, hi, r in weight_spreads(study, other, sizes):
            text += f"; {other} at {size_label(size)}: {lo:.1f}–{hi:.1f} ms (max/min {r:.2f})"
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


# ----------------------------------------------------------------- fig5 claims


def _ratio_text(study: Study, size: int, scheduler: str, flows: Sequence[int]) -> str:
    errors = study.relative_errors(size, scheduler)
    return ", ".join(f"w{i} {100 * (1 + errors[i - 1].mean):.0f}%" for i in flows)


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
    if sizes and study.per_queue_limit and PAPER_SMALL_BUFFER not in sizes:
        # ns-2.35's SRR: the limit whose full-size packets come nearest the paper's buffer.
        small = min(sizes, key=lambda s: (abs(s - PAPER_SMALL_BUFFER), s))
    has_vd = small is not None and (small, "VD") in study.cells
    if small is None or not (has_vd or any(q in study.schedulers for q in EXCESS_IDS)):
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
        vd_low = float(np.mean([vd[i - 1].mean for i in low])) if has_vd else math.nan
        low_sides = ideal_sides(study, small, other, low)
        high_sides = ideal_sides(study, small, other, high)
        static_high = ideal_sides(study, small, other, high, static=True)
        label = {"DRR": "", "DRR-tail": " (DRR, tail stealing)"}.get(other, f" ({other})")
        name = "DRR" if other == "DRR-tail" else other
        text = (f"{other} at {study.buffer_label(small)}, throughput / ideal: "
                f"{_ratio_text(study, small, other, study.flows)}; weights 1–2 on average"
                f" {100 * (1 + low_mean):.0f}% ({_sides_text(low_sides)} their ideal), weights"
                f" > 4 {100 * (1 + high_mean):.0f}% ({_sides_text(high_sides)}; against the"
                f" static 125·i kb/s: {_sides_text(static_high)})"
                + (f" (VD: weights 1–2 {100 * (1 + vd_low):.0f}%)" if has_vd else ""))
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
    if not has_vd:
        return claims + [Claim("§IV, Fig. 5", "VD's allocation is comparable to the ideal case,"
                               " regardless of the buffer size", "needs tcp runs of VD",
                               "not evaluated", id=IDEAL_ID)]
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
        text += f"; {name}: " + ", ".join(f"{size_label(s)} {100 * e.mean:.0f}%"
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
            f" {size_label(last)}; VD's is {100 * vd_small.mean:.0f}% at {size_label(first)}"
            f" (per-flow schedulers' error there against VD's: {ratios})",
            "agree" if drr[first].mean > drr[last].mean and vd_small.mean < drr[first].mean
            else "partly" if drr[first].mean > drr[last].mean else "disagree", id=BUFFER_ID))
    return claims


def abs_errors(study: Study, size: int, scheduler: str, flow: int) -> dict[int, float]:
    """Per seed, |throughput / ideal − 1| of one flow (ideal of that seed)."""
    out = {}
    for seed, run in study.cells.get((size, scheduler), {}).items():
        x = metric_value(run.metrics, f"flow{flow}_kbps")
        ideal = run_ideal(RunParams(run), run.metrics)
        if x is not None and ideal:
            out[seed] = abs(x / ideal[flow - 1] - 1)
    return out


# ----------------------------------------------------------------- the two topologies


def delay_name(delay: float) -> str:
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


# ----------------------------------------------------------------- causes


def _fig4_cause(v: Variants, other: str) -> str:
    parts = []
    for delay in TOPOLOGY_DELAYS:
        main = v.main.get(("cbr", delay))
        nodrop = v.study("cbr", main_variant(delay))
        big = [s for s in nodrop.sizes if (s, "VD") in nodrop.cells and (s, other) in nodrop.cells]
        for size in big:
            red = [r for r in _reductions(nodrop, size, other, "mean_delay_ms")
                   if math.isfinite(r)]
            parts.append(f"fig4-nodrop, {delay_name(delay)}, {size_label(size)} (no overflow):"
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
                        f"{name}, {delay_name(delay)}, {size_label(size)}:"
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
                    parts.append(f"{name}, {delay_name(delay)}, {size_label(size)}: VD's mean"
                                 f" error {100 * study.mean_abs_error(size, 'VD').mean:.0f}%"
                                 f" (Fig. 2's rule / Pareto, same seeds:"
                                 f" {100 * fresh.mean_abs_error(size, 'VD').mean:.0f}%)")
    return "; ".join(parts) if parts else "variant not run"


def variant_verdicts(v: Variants) -> dict[str, list[str]]:
    """Per claim id, the verdicts the claims' own rules give on each variant study (both
    topologies): fig4-nodrop alone, vd-return and onoff-exp with the main runs' comparators
    on the same seeds (Fig. 4); vd-return and onoff-exp (Fig. 5)."""
    out: dict[str, list[str]] = defaultdict(list)
    for delay in TOPOLOGY_DELAYS:
        cbr, tcp = v.main.get(("cbr", delay)), v.main.get(("tcp", delay))
        returns = ((delay, "pareto", "keep"), (delay, "exponential", "fresh"))
        studies = [v.study("cbr", main_variant(delay))]
        if cbr is not None:
            studies += [study.with_cells(cbr, PAPER_COMPARATORS)
                        for study in (v.study("cbr", variant) for variant in returns)
                        if study.cells]
        for study in studies:
            if any(key[1] == "VD" for key in study.cells):
                for claim in fig4_claims(study):
                    out[claim.id].append(claim.verdict)
        if tcp is not None:
            for variant in returns:
                study = v.study("tcp", variant)
                if study.cells:
                    for claim in fig5_claims(study.with_cells(tcp, ("DRR", "SRR", "Aliquem"))):
                        out[claim.id].append(claim.verdict)
    return out


def add_causes(claims: list[Claim], v: Variants,
               topology_verdicts: dict[str, str] | None = None) -> None:
    """Set each "partly" / "disagree" claim's cause: the variant runs that change it, classed
    by whether the claim's own rule on those runs gives another verdict. Fig. 5's excess and
    BDP-fraction causes (C8-C11) are the main runs of the other topology, whose verdict is
    ``topology_verdicts`` (by claim id)."""
    _add_causes(claims, v)
    judged = variant_verdicts(v)
    other = topology_verdicts or {}
    for claim in claims:
        if not claim.cause:
            continue
        if claim.cause == "variant not run":
            claim.cause_class = NO_CAUSE
        elif claim.id in EXCESS_IDS.values():
            claim.cause_class = (class_by_verdicts(claim.verdict, [other[claim.id]])
                                 if claim.id in other else ARGUMENT)
        else:
            claim.cause_class = class_by_verdicts(claim.verdict, judged.get(claim.id, []))
            if claim.cause_class == NO_CAUSE:
                claim.cause_class = ARGUMENT


def _add_causes(claims: list[Claim], v: Variants) -> None:
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
                parts.append(f"vd-return, {delay_name(delay)}, {size_label(size)}: VD"
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
                        f"{delay_name(delay)}, {main.buffer_label(size)} (main runs): weights"
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
                parts.append(f"onoff-exp, {delay_name(delay)}: DRR closer {tally.text()}")
        claim.cause = "; ".join(parts) or "variant not run"
    for claim_id in (IDEAL_ID, BUFFER_ID):
        claim = by_id.get(claim_id)
        if claim and claim.verdict in ("partly", "disagree"):
            claim.cause = _fig5_vd_cause(v)
