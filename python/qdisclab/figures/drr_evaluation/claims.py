# SPDX-License-Identifier: GPL-2.0-only
"""The DRR evaluation's claims: the paper's statements judged against our numbers (C1-C18),
with the rules that give their verdicts and the variant runs that show their causes."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import replace

import numpy as np

from qdisclab.factorial import MINUS, FactorialResult
from qdisclab.figures import (
    ARGUMENT,
    NO_CAUSE,
    Claim,
    TableData,
    calibration_verdict,
    class_by_verdicts,
)
from qdisclab.figures.common import Estimate, metric_value, t_interval
from qdisclab.figures.drr_evaluation.analysis import (
    BACKGROUND,
    DELAY,
    DELAY_ANCHORS,
    DELAY_BAND,
    DROPTAIL_LIMIT,
    DRR_BLIMIT_HEAD,
    DRR_BLIMIT_TAIL,
    RATIO,
    RATIO_ANCHOR,
    RATIO_BAND,
    RATIO_TARGET,
    Design,
    Fairness,
    Variants,
    background_label,
    background_preference,
    choose_background,
    choose_buffer,
    effect_text,
    hash_series,
    offered_load,
    percent_text,
    reading_studies,
    size_label,
)
from qdisclab.figures.drr_evaluation.paper import (
    B_LEVELS,
    EFFECTS,
    FLOWS,
    PAPER_TABLE2,
    PAPER_TABLE3,
    PAPER_TABLE4,
    P_LEVELS,
    Q_LABELS,
    Cell,
)


# ----------------------------------------------------------------- fig3 claims


def _fmt(value: float, digits: int = 1) -> str:
    return "–" if not math.isfinite(value) else f"{value:.{digits}f}"


def _overlap(a: Estimate, b: Estimate) -> bool:
    """Whether two 95 % intervals overlap (unknown half-widths count as points)."""
    ha = a.half_width if math.isfinite(a.half_width) else 0.0
    hb = b.half_width if math.isfinite(b.half_width) else 0.0
    return a.mean - ha <= b.mean + hb and b.mean - hb <= a.mean + ha


def below_flows_counts(study: Fairness, mapping: str) -> dict[str, list[int]] | None:
    """Per MaxSize, the best (smallest) std. dev. with Buckets < flows against the worst
    (largest) with Buckets ≥ flows: *above* (intervals apart, worse below the flow count),
    *tied* (intervals overlap) or *below*; the MaxSize values of each, None without Buckets
    on both sides."""
    below = [b for b in study.buckets if b < study.flows]
    above = [b for b in study.buckets if b >= study.flows]
    if not below or not above:
        return None
    counts: dict[str, list[int]] = {"above": [], "tied": [], "below": []}
    for size in study.sizes:
        low = [e for b in below if (e := study.estimate(mapping, b, size)).n]
        high = [e for b in above if (e := study.estimate(mapping, b, size)).n]
        if not low or not high:
            continue
        best_low = min(low, key=lambda e: e.mean)
        worst_high = max(high, key=lambda e: e.mean)
        kind = ("tied" if _overlap(best_low, worst_high)
                else "above" if best_low.mean > worst_high.mean else "below")
        counts[kind].append(size)
    return counts


def below_flows_verdict(counts: dict[str, list[int]]) -> str:
    """The plan's rule: agree when above + tied cover every MaxSize and above ≥ 8 of 10."""
    n = sum(len(v) for v in counts.values())
    above, tied = len(counts["above"]), len(counts["tied"])
    if above + tied == n and above >= 0.8 * n:
        return "agree"
    return "partly" if above + tied >= n / 2 else "disagree"


def worse_below_flows(study: Fairness, mapping: str) -> Claim:
    """Buckets < flows gives a larger std. dev. than Buckets ≥ flows, at every MaxSize."""
    where = "§3, Fig. 3" + ("" if mapping == "sequential" else " (DrrQueueDisc's hash)")
    paper = ("fairness is worse (larger std. dev. of throughput) when buckets_ is smaller"
             f" than the number of flows ({FLOWS}): collisions")
    counts = below_flows_counts(study, mapping)
    if counts is None:
        return Claim(where, paper, "needs Buckets values on both sides of 10", "not evaluated")
    n = sum(len(v) for v in counts.values())
    if not n:
        return Claim(where, paper, "no complete MaxSize column", "not evaluated")
    below = [b for b in study.buckets if b < study.flows]
    above = [b for b in study.buckets if b >= study.flows]
    size = study.sizes[-1]
    low = np.mean([study.estimate(mapping, b, size).mean for b in below])
    high = np.mean([study.estimate(mapping, b, size).mean for b in above])
    collisions = {b: study.estimate(mapping, b, size, "colliding_flows").mean
                  for b in (below[-1], above[0], above[-1])}
    text = (f"{mapping} mapping, {study.reading}: the smallest std. dev. with Buckets <"
            f" {study.flows} is above the largest with Buckets ≥ {study.flows} (95 % CIs apart)"
            f" at {len(counts['above'])} of {n} MaxSize values, tied (CIs overlap) at"
            f" {len(counts['tied'])}, below at {len(counts['below'])}; e.g."
            f" {size_label(size)} B: mean {_fmt(float(low))} vs {_fmt(float(high))} kb/s."
            f" Colliding flows (of {study.flows}): "
            + ", ".join(f"Buckets {b}: {_fmt(c)}" for b, c in collisions.items()))
    return Claim(where, paper, text, below_flows_verdict(counts))


def threshold_test(study: Fairness, mapping: str = "sequential") -> dict | None:
    """Fig. 3's buffer threshold at Buckets = flows (or the next larger): the smallest and
    largest MaxSize's std. dev., the minimum, the threshold (smallest MaxSize within the
    minimum's interval) and the verdict: *agree* when the smallest MaxSize's interval lies
    above the largest's, *tied* when only its mean does, *disagree* otherwise."""
    above = [b for b in study.buckets if b >= study.flows]
    if len(study.sizes) < 2 or not above:
        return None
    buckets = study.flows if study.flows in above else above[0]
    valid = [(s, e) for s in study.sizes if (e := study.estimate(mapping, buckets, s)).n]
    if len(valid) < 2:
        return None
    smallest, largest = valid[0], valid[-1]
    best = min(valid, key=lambda v: v[1].mean)
    tolerance = best[1].half_width if math.isfinite(best[1].half_width) else 0.0
    threshold = next(s for s, e in valid if e.mean <= best[1].mean + max(tolerance, 1e-9))
    if smallest[1].mean <= largest[1].mean:
        kind = "disagree"
    elif _overlap(smallest[1], largest[1]):
        kind = "tied"
    else:
        kind = "agree"
    return {"buckets": buckets, "smallest": smallest, "largest": largest, "best": best,
            "threshold": threshold, "kind": kind}


def _threshold_text(test: dict, mapping: str, reading: str) -> str:
    (s0, e0), (s1, e1) = test["smallest"], test["largest"]
    return (f"{mapping} mapping, {reading}, Buckets {test['buckets']}: std. dev."
            f" {e0.format(1)} kb/s at {s0} B, {e1.format(1)} kb/s at {s1} B"
            + (" (CIs overlap: tied)" if test["kind"] == "tied" else "")
            + f"; within the minimum's interval from {test['threshold']} B on")


def buffer_threshold(study: Fairness, mapping: str = "sequential") -> Claim:
    """Below a MaxSize threshold the std. dev. rises (Buckets ≥ flows)."""
    where = "§3, Fig. 3"
    paper = "if blimit_ is below a threshold, flows lack buffer space and fairness suffers"
    test = threshold_test(study, mapping)
    if test is None:
        return Claim(where, paper, "needs two MaxSize values and Buckets ≥ 10", "not evaluated")
    verdict = {"agree": "agree", "tied": "partly", "disagree": "disagree"}[test["kind"]]
    return Claim(where, paper, _threshold_text(test, mapping, study.reading), verdict)


def unimodal_steps(estimates: list[Estimate]) -> tuple[int, int]:
    """Steps that go the wrong way around the minimum: (beyond the noise, within it).

    Before the minimum a slice should not rise, after it not fall; a wrong-way step counts
    as a violation when it is larger than the two points' combined interval half-widths,
    else as a tie.
    """
    means = [e.mean for e in estimates]
    k = int(np.nanargmin(means))
    violations = ties = 0
    for i in range(len(means) - 1):
        a, b = estimates[i], estimates[i + 1]
        noise = math.hypot(*(h if math.isfinite(h) else 0.0 for h in (a.half_width,
                                                                       b.half_width)))
        step = b.mean - a.mean
        wrong = (i < k and step > 0) or (i >= k and step < 0)
        if wrong and abs(step) > noise:
            violations += 1
        elif wrong:
            ties += 1
    return violations, ties


def unimodal_violations(estimates: list[Estimate]) -> int:
    """Wrong-way steps around the minimum beyond the noise (see :func:`unimodal_steps`)."""
    return unimodal_steps(estimates)[0]


def convex_test(study: Fairness, mapping: str = "sequential") -> dict | None:
    """Slices through the minimum (wrong-way steps beyond / within the CIs along Buckets and
    MaxSize), the best Buckets per MaxSize, and the verdict."""
    best = study.optimum(mapping)
    if best is None or len(study.buckets) < 3 or len(study.sizes) < 3:
        return None
    b_opt, s_opt = best
    vb, tb = unimodal_steps([study.estimate(mapping, b, s_opt) for b in study.buckets])
    vs, ts = unimodal_steps([study.estimate(mapping, b_opt, s) for s in study.sizes])
    per_size = {}
    for s in study.sizes:
        row = [(study.estimate(mapping, b, s).mean, b) for b in study.buckets]
        row = [r for r in row if math.isfinite(r[0])]
        if row:
            per_size[s] = min(row)[1]
    verdict = "agree" if vb == 0 and vs == 0 else "partly" if min(vb, vs) == 0 else "disagree"
    return {"best": best, "along_buckets": (vb, tb), "along_sizes": (vs, ts),
            "optima": sorted(set(per_size.values())), "verdict": verdict}


def convex_optimum(study: Fairness, mapping: str = "sequential") -> Claim:
    """Unimodal (convex-like) slices through the optimum; 1-D optimization per fixed buffer."""
    where = "§3, Fig. 3"
    paper = ("the std. dev. is convex near the optimum, reachable from every direction: with"
             " blimit_ fixed the problem is a one-dimensional optimization of buckets_")
    test = convex_test(study, mapping)
    if test is None:
        return Claim(where, paper, "needs at least 3 × 3 settings", "not evaluated")
    b_opt, s_opt = test["best"]
    (vb, tb), (vs, ts) = test["along_buckets"], test["along_sizes"]
    text = (f"{mapping} mapping, {study.reading}: minimum"
            f" {study.estimate(mapping, b_opt, s_opt).format(1)} kb/s at Buckets {b_opt},"
            f" MaxSize {s_opt} B; slices through it: {vb} step(s) against a single minimum"
            f" along Buckets, {vs} along MaxSize (beyond the 95 % CIs; within them, tied:"
            f" {tb} and {ts}); best Buckets per MaxSize: {', '.join(map(str, test['optima']))}")
    return Claim(where, paper, text, test["verdict"])


# ----------------------------------------------------------------- factorial claims


def _cell_label(cell: Cell) -> str:
    p, b, q = cell
    return f"{p} B, {b:g} Mb/s, {Q_LABELS[q]}"


def _ranking(result: FactorialResult) -> list[str]:
    return sorted(EFFECTS, key=lambda name: -(result.effect(name).percent or 0.0))


def _percents(result: FactorialResult, names: Iterable[str]) -> str:
    return ", ".join(f"{n} {percent_text(result.effect(n).percent)} %" for n in names)


def band_class(estimate: Estimate, paper: float, relative: bool, tolerance: float) -> str:
    """A cell against the band paper ± tolerance (relative or absolute): *within* (its 95 %
    interval inside the band), *tied* (the interval straddles an edge of the band) or
    *outside* (the interval clear of the band)."""
    width = tolerance * abs(paper) if relative else tolerance
    low, high = paper - width, paper + width
    half = estimate.half_width if math.isfinite(estimate.half_width) else 0.0
    if low <= estimate.mean - half and estimate.mean + half <= high:
        return "within"
    if estimate.mean + half < low or estimate.mean - half > high:
        return "outside"
    return "tied"


def band_verdict(classes: Iterable[str]) -> str:
    """agree: no cell outside and at least half within; partly: within + tied at least half."""
    classes = list(classes)
    within, tied = classes.count("within"), classes.count("tied")
    if within + tied == len(classes) and 2 * within >= len(classes):
        return "agree"
    return "partly" if 2 * (within + tied) >= len(classes) else "disagree"


def _value_claim(design: Design, metric: str, paper: dict[Cell, float], where: str,
                 what: str, relative: bool, tolerance: float, digits: int,
                 anchors: Iterable[Cell] = ()) -> Claim:
    """The cells of Table 2 or 4 against the paper's, the calibration's anchor cells left out
    (they are claims of their own)."""
    errors, classes = {}, {}
    for cell, value in paper.items():
        e = design.estimate(cell, metric)
        if e.n and cell not in anchors:
            errors[cell] = (e.mean - value) / value if relative else e.mean - value
            classes[cell] = band_class(e, value, relative, tolerance)
    if not errors:
        return Claim(where, what, "no cell was run", "not evaluated")
    worst = max(errors, key=lambda c: abs(errors[c]))
    unit = "%" if relative else ""
    scale = 100 if relative else 1
    kinds = list(classes.values())
    tied = [c for c, k in classes.items() if k == "tied"]
    text = (f"{len(errors)} held-out cells"
            + (f" (the anchor cell{'s' if len(tuple(anchors)) > 1 else ''} "
               + "; ".join(_cell_label(c) for c in anchors) + " calibrated)" if anchors else "")
            + f": {kinds.count('within')} within ±{tolerance * scale:g}{unit} of the paper's"
            f" (95 % CI inside the band), {len(tied)} tied (CI straddles its edge"
            + (": " + "; ".join(_cell_label(c) for c in tied) if tied else "")
            + f"), {kinds.count('outside')} outside; largest gap {_cell_label(worst)}: ours"
            f" {design.estimate(worst, metric).format(digits)} vs {paper[worst]:.{digits}f}"
            f" ({errors[worst] * scale:+.{1 if relative else digits}f}{unit})")
    return Claim(where, what, text, band_verdict(kinds))


def delay_claims(design: Design, label: str = "") -> list[Claim]:
    """The paper's statements on the delay (Table 2, Table 3, equation (1)) for one design."""
    suffix = f" ({label})" if label else ""
    claims = [
        _value_claim(design, DELAY, PAPER_TABLE2, "Table 2" + suffix,
                     "mean delay of the flow: 0.90–2.07 s in the 6 cells not used for the"
                     " buffers", True, 0.15, 3, DELAY_ANCHORS),
    ]
    delay = design.results[DELAY]
    ranking = _ranking(delay)
    dominant = {"P", "B", "PQ", "Q"}
    top = set(ranking[:4])
    gaps = {n: abs((delay.effect(n).percent or 0.0) - PAPER_TABLE3[n]) for n in dominant}
    text = (f"by decreasing importance: {', '.join(ranking)} ({_percents(delay, ranking)};"
            f" error {percent_text(delay.percent_error)} %); largest gap to the paper's among P, B,"
            f" PQ, Q: {max(gaps.values()):.1f} points")
    claims.append(Claim(
        "Table 3" + suffix,
        "delay: variation explained P 28.37 %, B 27.21 %, PQ 21.59 %, Q 20.07 %; PB, BQ, PBQ"
        " ≈ 1 % each",
        text,
        "agree" if top == dominant and max(gaps.values()) <= 10 else
        "partly" if len(top & dominant) >= 3 else "disagree"))
    q, b = delay.effect("Q"), delay.effect("B")
    ratio_qb = abs(q.value) / abs(b.value) if b.value else float("inf")
    claims.append(Claim(
        "Eq. (1)" + suffix,
        f"DRR lowers the delay (qQ = {MINUS}0.32 s) about as much as the higher bandwidth does"
        f" (qB = {MINUS}0.37 s)",
        f"qQ = {effect_text(delay, 'Q', 3)} s, qB = {effect_text(delay, 'B', 3)} s;"
        f" |qQ|/|qB| = {ratio_qb:.2f}",
        "agree" if q.value < 0 and q.significant is not False and 0.5 <= ratio_qb <= 2 else
        "partly" if q.value < 0 else "disagree"))
    # DRR lowers the delay of large packets: paired (same seed) DRR − DropTail at P = 1000.
    diffs = []
    for bw in B_LEVELS:
        dt = design.values((1000, bw, "FIFO"), DELAY)
        drr = design.values((1000, bw, "DRR"), DELAY)
        diffs.append((bw, t_interval(drr[s] - dt[s] for s in sorted(dt.keys() & drr.keys()))))
    lower = [d for _, d in diffs if d.n and d.mean < 0]
    significant = [d for d in lower if d.excludes_zero() or not math.isfinite(d.half_width)]
    pq = delay.effect("PQ")
    claims.append(Claim(
        "§4, Eq. (1)" + suffix,
        "with 1000-byte packets DRR's delay is about half DropTail's (1.62 vs 3.23 s at 1 Mb/s,"
        f" 1.05 vs 2.07 s at 1.5 Mb/s); PQ interaction {MINUS}0.33 s",
        "DRR − DropTail at 1000 B: "
        + "; ".join(f"{bw:g} Mb/s {d.format(3)} s" for bw, d in diffs).replace("-", MINUS)
        + f"; qPQ = {effect_text(delay, 'PQ', 3)} s",
        "agree" if len(significant) == len(B_LEVELS) and pq.value < 0 else
        "partly" if lower else "disagree"))
    return claims


def ratio_claims(design: Design) -> list[Claim]:
    """The paper's statements on the packet arrival ratio (Tables 4 and 5, equation (3))."""
    claims = [_value_claim(design, RATIO, PAPER_TABLE4, "Table 4",
                           "packet arrival ratio of the flow: 0.524–0.949 in the 7 cells not"
                           " used for the background", False, 0.05, 3, (RATIO_ANCHOR,))]
    ratio = design.results[RATIO]
    ranking = _ranking(ratio)
    qp = ratio.effect("Q").percent or 0.0
    claims.append(Claim(
        "Table 5",
        "arrival ratio: B explains 76.97 % of the variation, P 22.05 %, Q 0.03 % (negligible),"
        " interactions ≤ 0.9 %",
        f"ours: {_percents(ratio, ranking)}; error {percent_text(ratio.percent_error)} %",
        "agree" if ranking[:2] == ["B", "P"] and qp < 1 else
        "partly" if qp < 1 and set(ranking[:2]) == {"B", "P"} else "disagree"))
    gaps = [abs(design.estimate((p, bw, "DRR"), RATIO).mean
                - design.estimate((p, bw, "FIFO"), RATIO).mean)
            for p in P_LEVELS for bw in B_LEVELS]
    claims.append(Claim(
        "§4, Table 4",
        "the queue type hardly changes the arrival ratio (DropTail and DRR within 0.012)",
        f"largest |DRR − DropTail| over the 4 (P, B) cells: {max(gaps):.4f}; Q explains"
        f" {percent_text(qp)} % of the variation",
        queue_gap_verdict(max(gaps))))
    return claims


def queue_gap_verdict(gap: float) -> str:
    """C11 (S25, "the queuing management factor had no effect"; the paper's own gap 0.012):
    agree up to 0.02, partly up to 0.05."""
    return "agree" if gap <= 0.02 else "partly" if gap <= 0.05 else "disagree"


def tail_buffers_cause(variants: Variants) -> tuple[str, list[str]] | None:
    """C13 (Table 3 with tail drop) against the buffers: the suspect is the anchor-calibrated
    buffers, so Table 3's claim is judged at every buffer pair of the buffers grids."""
    designs = variants.buffer_designs("Tail")
    if len(designs) < 2:
        return None
    judged = {pair: delay_claims(design)[1] for pair, design in designs.items()}
    verdicts = [claim.verdict for claim in judged.values()]
    shares = {n: [d.results[DELAY].effect(n).percent or 0.0 for d in designs.values()]
              for n in ("P", "B", "PQ", "Q")}
    closest = min(designs, key=lambda pair: max(
        abs((designs[pair].results[DELAY].effect(n).percent or 0.0) - PAPER_TABLE3[n])
        for n in shares))
    return (
        "suspect: the buffers, calibrated on the anchor cells. factorial-buffers-*-bg (DropTail"
        " limit x DRR tail-drop blimit_, the chosen background, nothing else changed): Table 3's"
        f" claim over the {len(designs)} buffer pairs: "
        + ", ".join(f"{verdicts.count(v)} {v}" for v in ("agree", "partly", "disagree")
                    if v in verdicts)
        + "; share of the variation " + ", ".join(
            f"{n} {min(v):.0f}-{max(v):.0f} % (paper {PAPER_TABLE3[n]:.0f})"
            for n, v in shares.items())
        + f"; closest to the paper: {closest[0]} / {closest[1]}"
        f" ({_percents(designs[closest].results[DELAY], shares)}). "
        + ("No buffer pair gives the paper's shares: the buffers are not the cause, and no run"
           " of ours shows one" if "agree" not in verdicts else
           f"{verdicts.count('agree')} buffer pair(s) agree: the buffers are a cause")), verdicts


def one_bucket_cause(main: Design, variants: Variants) -> tuple[str, list[str]] | None:
    """C11's cause: DRR keeps the measured flow from the background. The variant puts both in
    one DRR bucket, nothing else changed, against the main design's DropTail runs."""
    parts, gaps = [], []
    for (p, bw), by_seed in sorted(variants.one_bucket.items()):
        ratio = t_interval(metric_value(m, RATIO) for m in by_seed.values())
        droptail = main.estimate((p, bw, "FIFO"), RATIO)
        drr = main.estimate((p, bw, "DRR"), RATIO)
        gaps.append(abs(ratio.mean - droptail.mean))
        parts.append(f"{p} B, {bw:g} Mb/s: {ratio.format(3)} (DropTail {droptail.mean:.3f},"
                     f" DRR {drr.mean:.3f})")
    if not gaps:
        return None
    return ("DRR serves the measured flow and the background from buckets of their own, so the"
            " flow gets half the link whatever it offers. factorial-one-bucket (DRR with"
            " Buckets 1: both flows in one bucket, buffer and head drop as the main design,"
            " nothing else changed): arrival ratio " + "; ".join(parts)
            + f"; largest |DRR − DropTail| {max(gaps):.4f} → {queue_gap_verdict(max(gaps))}"),\
        [queue_gap_verdict(max(gaps))]


def fixed_size_cause(variants: Variants) -> tuple[str, list[str]] | None:
    """C2 on fig3-fixed-size (every packet 1500 B, the one size of the ns-2.35 run's
    exponential sources): the text and C2's verdict by its own rule; None without the grid."""
    test = threshold_test(variants.fixed_size) if variants.fixed_size.cells else None
    if test is None:
        return None
    verdict = {"agree": "agree", "tied": "partly", "disagree": "disagree"}[test["kind"]]
    return ("ns-2.35's exponential source sends one packet size. fig3-fixed-size (every packet"
            " 1500 B, the mean of 1400-1600 B, nothing else changed): C2 " + verdict + ": "
            + _threshold_text(test, "sequential", "R1")), [verdict]


def factorial_claims(designs: dict[str, Design]) -> list[Claim]:
    """The paper's statements on Tables 2–5: all on the main design, the delay's also on the
    DRR-tail-drop variant."""
    main = designs.get("main")
    if main is None or not main.results:
        reason = "no factorial run" if main is None else main.error
        return [Claim("§4, Tables 2–5", "the 2^3 factorial design P × B × Q", reason,
                      "not evaluated")]
    claims = numbered(delay_claims(main) + ratio_claims(main), 5)
    tail = designs.get("drr-tail")
    if tail is not None and tail.results:
        # Tables 2-3 and Eq. (1) judged again with DRR's tail drop: variants, not claims.
        claims += [replace(claim, kind="variant")
                   for claim in numbered(delay_claims(tail, "DRR tail drop"), 12)]
    return claims


def numbered(claims: list[Claim], first: int) -> list[Claim]:
    """Give ``claims`` the plan's ids C<first>, C<first + 1>, ..."""
    for i, claim in enumerate(claims):
        claim.id = f"C{first + i}"
    return claims


def calibration_claims(designs: dict[str, Design], variants: Variants | None) -> list[Claim]:
    """The anchor cells (plan: S15, S16, S22; claims C16-C18), marked "calibrated": our number
    and the choice the variant campaign's sweep made there."""
    main, tail = designs.get("main"), designs.get("drr-tail")
    claims = []
    anchor = (1000, 1.0)
    for cid, queue, buffer_text in (
        ("C16", "FIFO", f"DropTail limit {DROPTAIL_LIMIT}"),
        ("C17", "DRR", f"DRR blimit_ {DRR_BLIMIT_HEAD} (head drop)"),
    ):
        cell = (*anchor, queue)
        ours = main.estimate(cell, DELAY).format(3) if main and main.results else "–"
        text = f"{ours} s with the chosen {buffer_text}"
        if queue == "DRR" and tail is not None and tail.results:
            text += (f"; tail drop: {tail.estimate(cell, DELAY).format(3)} s with"
                     f" {DRR_BLIMIT_TAIL}")
        if variants is not None:
            for drop in (("",) if queue == "FIFO" else ("Head", "Tail")):
                series = variants.buffers(queue, drop, anchor)
                if series:
                    chosen, inside = choose_buffer(series, PAPER_TABLE2[cell])
                    text += (f"; factorial-buffers{'-' + drop.lower() if drop else ''}:"
                             f" closest of {', '.join(series)} is {chosen}"
                             f" ({series[chosen].format(3)} s,"
                             f" {'within' if inside else 'outside'} ±5 %)")
        mean = main.estimate(cell, DELAY).mean if main and main.results else math.nan
        met = (abs(mean - PAPER_TABLE2[cell]) <= DELAY_BAND * PAPER_TABLE2[cell]
               if math.isfinite(mean) else None)
        text += (f"; target: within ±{DELAY_BAND:.0%} of {PAPER_TABLE2[cell]:.4f} s"
                 f" ({'not run' if met is None else 'met' if met else 'not met'})")
        claims.append(Claim(
            "Table 2 (anchor)",
            f"{_cell_label(cell)}: delay {PAPER_TABLE2[cell]:.4f} s (used to choose the"
            f" {'DropTail limit' if queue == 'FIFO' else 'DRR blimit_'})",
            text, calibration_verdict(met), id=cid))
    ours = main.estimate(RATIO_ANCHOR, RATIO).format(3) if main and main.results else "–"
    text = f"{ours} with the chosen background {background_label(BACKGROUND)}"
    if variants is not None and (anchor_runs := variants.anchor_backgrounds()):
        chosen, inside = choose_background(anchor_runs)
        text += (f"; factorial-background-anchor: {len(anchor_runs)} backgrounds, "
                 + ("first in the band" if inside else "none within ±0.01, the closest")
                 + f" is {background_label(chosen)} ({anchor_runs[chosen].format(3)})")
        band = [b for b, e in anchor_runs.items()
                if e.n and abs(e.mean - RATIO_TARGET) <= RATIO_BAND]
        if len(band) > 1:
            delays = variants.anchor_delays()
            text += ("; in the band, in the plan's order of preference (the tie-break): "
                     + ", ".join(f"{background_label(b)} {anchor_runs[b].format(3)}"
                                 + (f" (delay at {_cell_label(RATIO_ANCHOR)}:"
                                    f" {delays[b].format(3)} s)" if b in delays else "")
                                 for b in sorted(band, key=background_preference))
                     + "; the final campaign ran the first only, so Tables 2-5 are drawn with"
                     " it alone")
    main_ratio = main.estimate(RATIO_ANCHOR, RATIO).mean if main and main.results else math.nan
    met = abs(main_ratio - RATIO_TARGET) <= RATIO_BAND if math.isfinite(main_ratio) else None
    text += (f"; target: within ±{RATIO_BAND} of {RATIO_TARGET}"
             f" ({'not run' if met is None else 'met' if met else 'not met'})")
    claims.append(Claim(
        "Table 4 (anchor)",
        f"{_cell_label(RATIO_ANCHOR)}: arrival ratio {PAPER_TABLE4[RATIO_ANCHOR]} (used to"
        " choose the background)", text, calibration_verdict(met), id="C18"))
    return claims


# ----------------------------------------------------------------- causes


def add_causes(claims: list[Claim], fairness: Fairness, designs: dict[str, Design],
            variants: Variants | None) -> None:
    """Name, for every "partly"/"disagree" claim, the run that changes exactly its suspected
    cause (the plan's table "Cause-demonstrating variants") and what it measured."""
    #: Per claim id: the cause and the verdicts the claim's own rule gives on its run (None:
    #: the run is not judged by the claim's rule, so the cause is an argument from its numbers).
    causes: dict[str, tuple[str, list[str] | None]] = {}
    tail = designs.get("drr-tail")
    if tail is not None and tail.results:
        tail_claims = {c.id: c for c in claims if c.where.endswith("(DRR tail drop)")}
        summary = "; ".join(f"{cid} {c.verdict}" for cid, c in tail_claims.items())
        for cid in ("C5", "C6", "C7", "C8"):
            twin = tail_claims.get(f"C{int(cid[1:]) + 7}")
            if twin is not None:
                causes[cid] = (
                    "ns-2's head drop delivers younger packets. factorial-drr-tail (DRR drops"
                    " from the tail of the longest queue, blimit_ calibrated again on the"
                    f" anchor, nothing else changed): {twin.id} {twin.verdict}: {twin.ours}"
                    f" (all tail-drop claims: {summary})", [twin.verdict])
    if variants is None:
        _set_causes(claims, causes, "variant not run")
        return
    studies = reading_studies(fairness, variants)
    if len(studies) > 1:
        verdicts = reading_verdicts(studies)
        causes["C2"] = (
            f"R1 offers {offered_load('R1'):.1f}× the bottleneck, so every bucket stays"
            " backlogged. fig3-rates (only the source rate / on-off changed, three seeds): "
            + "; ".join(f"{r} ({offered_load(r):.2f}×) {v['C2']}"
                        for r, v in verdicts.items() if r != "R1"),
            [_lead_verdict(v["C2"]) for r, v in verdicts.items() if r != "R1"])
        causes["C1"] = ("fig3-rates: " + "; ".join(f"{r} {v['C1']}" for r, v in verdicts.items()),
                        [_lead_verdict(v["C1"]) for r, v in verdicts.items() if r != "R1"])
    if found := fixed_size_cause(variants):
        prior_text, prior_verdicts = causes.get("C2", ("", []))
        causes["C2"] = ("; ".join(t for t in (prior_text, found[0]) if t),
                        [*prior_verdicts, *found[1]])
    if variants.flows:
        parts = []
        for flows, study in variants.flows.items():
            steps = []
            for size in study.sizes:
                series = [study.estimate("sequential", b, size) for b in study.buckets]
                best = study.buckets[int(np.nanargmin([e.mean for e in series]))]
                violations, ties = unimodal_steps(series)
                steps.append(f"{size_label(size)} B: {violations} (tied {ties}), minimum at"
                             f" {best}")
            parts.append(f"{flows} flows: " + ", ".join(steps))
        causes["C3"] = ("fig3-flows (7 and 11 flows, so no Buckets value below the flow count"
                        " but 1 splits them evenly): steps against a single minimum along"
                        " Buckets beyond the CIs: " + "; ".join(parts), None)
    series = hash_series(fairness, variants)
    if any(b > 32 for b in series):
        causes["C4"] = ("the hash puts flows in one bucket. fig3-hash-buckets (more buckets,"
                        " nothing else): " + "; ".join(
                            f"Buckets {b}: {v['colliding'].mean:.1f} colliding flows, std. dev."
                            f" {v['hash'].format(1)} kb/s" for b, v in series.items())
                        + (f"; ns-2 mapping at Buckets {FLOWS}:"
                           f" {series[FLOWS]['sequential'].format(1)} kb/s"
                           if FLOWS in series and series[FLOWS]["sequential"].n else ""), None)
    designs_bg = variants.background_designs()
    fixed = {b: d for b, d in designs_bg.items() if b[1] != 0}
    if fixed:
        parts = []
        for background, design in fixed.items():
            kinds = [band_class(design.estimate(c, RATIO), v, False, 0.05)
                     for c, v in PAPER_TABLE4.items() if c != RATIO_ANCHOR]
            parts.append(f"{background_label(background)}: Table 4 {kinds.count('within')}"
                         f" within ±0.05, {kinds.count('tied')} tied,"
                         f" {kinds.count('outside')} outside of {len(kinds)}; variation"
                         f" explained {_percents(design.results[RATIO], ('P', 'B', 'Q'))}")
        text = "; ".join(parts)
        for cid in ("C9", "C10"):
            causes[cid] = ("the background scales with P. factorial-background-size (the"
                           " background's packet size fixed, nothing else): " + text, None)
    if found := tail_buffers_cause(variants):
        causes["C13"] = found
    main = designs.get("main")
    if main is not None and main.results and (found := one_bucket_cause(main, variants)):
        causes["C11"] = found
    delays = variants.anchor_delays()
    if delays:
        causes["C12"] = (
            f"at {_cell_label(RATIO_ANCHOR)} the offered load (1.6 Mb/s) keeps DropTail's"
            " 400 packets full. factorial-background-anchor (only the background changed):"
            " delay " + "; ".join(f"{background_label(b)} {e.format(3)} s"
                                  for b, e in delays.items()), None)
    _set_causes(claims, causes, "no variant of the plan changes this cause")


def _lead_verdict(text: str) -> str:
    """The verdict a text of :func:`reading_verdicts` starts with."""
    return next(v for v in ("not evaluated", "agree", "partly", "disagree") if text.startswith(v))


def _set_causes(claims: list[Claim], causes: dict[str, tuple[str, list[str] | None]],
                missing: str) -> None:
    """Give each partly / disagree claim without a cause its cause from ``causes`` and its
    class (``missing``, classed "none", where ``causes`` has none)."""
    for claim in claims:
        if claim.verdict not in ("partly", "disagree") or claim.cause:
            continue
        if claim.id not in causes:
            claim.set_cause(missing, NO_CAUSE)
            continue
        text, verdicts = causes[claim.id]
        claim.set_cause(text, ARGUMENT if verdicts is None
                        else class_by_verdicts(claim.verdict, verdicts))



# ----------------------------------------------------------------- Fig. 3 per source-rate reading


def reading_verdicts(studies: dict[str, Fairness]) -> dict[str, dict[str, str]]:
    """Per reading, C1-C3 as the claims judge them (ns-2 mapping)."""
    out = {}
    for reading, study in studies.items():
        counts = below_flows_counts(study, "sequential")
        threshold = threshold_test(study)
        convex = convex_test(study)
        out[reading] = {
            "C1": (below_flows_verdict(counts) + f" ({len(counts['above'])} above,"
                   f" {len(counts['tied'])} tied, {len(counts['below'])} below)")
            if counts else "not evaluated",
            "C2": ({"agree": "agree", "tied": "partly (tied)", "disagree": "disagree"}[
                threshold["kind"]] + f": {threshold['smallest'][1].format(1)} kb/s at"
                f" {threshold['smallest'][0]} B vs {threshold['largest'][1].format(1)} at"
                f" {threshold['largest'][0]} B, threshold {threshold['threshold']} B")
            if threshold else "not evaluated",
            "C3": (convex["verdict"] + f" (minimum at Buckets {convex['best'][0]},"
                   f" {convex['best'][1]} B; wrong-way steps {convex['along_buckets'][0]} /"
                   f" {convex['along_sizes'][0]})") if convex else "not evaluated",
        }
    return out


def rate_table(studies: dict[str, Fairness]) -> TableData:
    verdicts = reading_verdicts(studies)
    return TableData(
        ["reading", "offered load", "C1 (worse below 10 buckets)", "C2 (buffer threshold)",
         "C3 (single optimum)"],
        [[r, f"{offered_load(r):.2f}×", v["C1"], v["C2"], v["C3"]] for r, v in verdicts.items()])
