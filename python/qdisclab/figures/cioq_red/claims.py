# SPDX-License-Identifier: GPL-2.0-only
"""The CIOQ-RED reproduction's claims: the paper's Section V statements judged with the
thresholds fixed before the full campaign, and the cause of the loss claim from the
variants."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from qdisclab.figures import NO_CAUSE, Claim, calibration_verdict, class_by_verdicts
from qdisclab.figures.cioq_red.analysis import (
    BASE_SPEEDUP,
    INPUT,
    LOSS,
    OQ_QDISCS,
    OUTPUT,
    OUTPUT_QUEUED,
    S14_MAX,
    S14_SPEEDUP,
    S18_MIN,
    S18_SPEEDUP,
    UTIL,
    Setting,
    Study,
    input_ratios,
    loss_differences,
)
from qdisclab.figures.cioq_red.paper import (
    FIGURE_NUMBER,
    LABELS,
    PAPER_SESSIONS,
    QDISCS,
    READINGS,
    READING_LABELS,
)
from qdisclab.figures.common import Estimate

#: Thresholds of the claims' verdicts, fixed before the full campaign was run.
SAME_INPUT_SPREAD = 0.15  # "roughly the same": within ±15 % of the three's mean
LOW_INPUT_RATIO = 0.2  # "very low" at s ≥ 2: below 1/5 of the value at s = 1.1
SAME_UTIL = 0.02  # "almost the same" utilisation: |Δ| ≤ 0.02
SAME_LOSS = 0.01  # "almost the same" loss rate: |Δ| ≤ 1 percentage point


# ----------------------------------------------------------------- claims


def _spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation; 0 when either series is constant (no trend)."""
    if np.ptp(xs) == 0 or np.ptp(ys) == 0:
        return 0.0
    return float(stats.spearmanr(xs, ys).statistic)


def _fmt(value: float, digits: int = 2) -> str:
    return "–" if not math.isfinite(value) else f"{value:.{digits}f}"


def _percent(value: float) -> str:
    return f"{value:.1%}" if math.isfinite(value) else "not run"


def _where(ports: int, kind: str) -> str:
    return f"§V.B, Fig. {FIGURE_NUMBER[(kind, ports)]} ({ports}×{ports})"


#: Claim ids of the reconstruction plan (doc/reproductions/cioq-red.rst): per switch size the
#: speedup claims (Figs. 2 / 4), the load claims (Figs. 3 / 5), ν; then the claims added by it.
#: 4 × 4's "very low from s ≈ 2" (S14) is a calibration statement, split from C2.
CLAIM_IDS = {
    4: {"same input": "C1", "input falls": "C2a", "input low": "C2b", "droptail longest": "C3",
        "low speedup": "C4", "approach": "C5", "util": "C6", "loss": "C7", "nu": "C8",
        "util droptail": "C17", "input felt": "C19"},
    16: {"same input": "C9", "input falls": "C10", "droptail longest": "C11",
         "low speedup": "C12", "approach": "C13", "util": "C14", "loss": "C15", "nu": "C16",
         "util droptail": "C18"},
}


def _count(kinds: list[str]) -> str:
    """"k ahead, t tied, b behind" (and identical) of paired comparisons A − B."""
    names = {"A ahead": "ahead", "tied": "tied", "B ahead": "behind", "identical": "identical",
             "not run": "not run"}
    return ", ".join(f"{kinds.count(k)} {names[k]}" for k in names if kinds.count(k))


def speedup_claims(study: Study, ports: int) -> list[Claim]:
    fabric = "Paper"
    ids = CLAIM_IDS[ports]
    xs = study.speedups(fabric, ports)
    where = _where(ports, "speedup")
    if len(xs) < 2:
        return [Claim(where, "queue lengths vs speedup", "fewer than two speedups run",
                      "not evaluated", id=ids["same input"])]
    est = {(q, m): study.series(fabric, ports, q, "speedup", xs, m)
           for q in QDISCS for m in (INPUT, OUTPUT)}
    claims = []

    # 1. The input queue lengths of the three are roughly the same.
    spreads = []
    for k in range(len(xs)):
        means = [est[(q, INPUT)][k].mean for q in QDISCS]
        centre = float(np.mean(means))
        spreads.append(max(abs(m - centre) for m in means) / centre if centre > 0 else 0.0)
    within = sum(sp <= SAME_INPUT_SPREAD for sp in spreads)
    worst = int(np.argmax(spreads))
    claims.append(Claim(
        where, "the input queue lengths of DropTail, RED and CIOQ-RED are roughly the same",
        f"within ±{SAME_INPUT_SPREAD:.0%} of their mean at {within} of {len(xs)} speedups;"
        f" largest spread {spreads[worst]:.0%} at s = {xs[worst]:g} ("
        + ", ".join(f"{LABELS[q]} {_fmt(est[(q, INPUT)][worst].mean)}" for q in QDISCS) + ")",
        "agree" if within == len(xs) else "partly" if within >= len(xs) / 2 else "disagree",
        id=ids["same input"]))

    # 2. They decrease with speedup (held out) and are very low from s ≈ 2 on (4 × 4: the
    # calibration statement S14, so only shown; 16 × 16: held out, judged together).
    rho = float(np.mean([_spearman(xs, [e.mean for e in est[(q, INPUT)]]) for q in QDISCS]))
    first = {q: est[(q, INPUT)][0].mean for q in QDISCS}
    high = [k for k, s in enumerate(xs) if s >= 2.0]
    falls = f"Spearman ρ(speedup, input) = {rho:.2f} (mean of the three)"
    if high:
        k2 = high[0]
        ratios = {q: est[(q, INPUT)][k2].mean / first[q] if first[q] > 0 else math.nan
                  for q in QDISCS}
        low = all(r <= LOW_INPUT_RATIO for r in ratios.values())
        lowness = (f"at s = {xs[k2]:g} the input queue is {max(ratios.values()):.0%} or less of"
                   f" its value at s = {xs[0]:g} (" + ", ".join(
                       f"{LABELS[q]} {_fmt(first[q])} → {_fmt(est[(q, INPUT)][k2].mean)}"
                       for q in QDISCS) + " packets)")
    else:
        low, lowness = False, "no speedup ≥ 2 run"
    if "input low" in ids:
        claims.append(Claim(where, "the input queue lengths decrease as the speedup grows",
                            falls, "agree" if rho < -0.9 else "partly" if rho < -0.5
                            else "disagree", id=ids["input falls"]))
        ratio = input_ratios(study, fabric, ports)
        s14 = ratio.get(round(S14_SPEEDUP, 6), math.nan)
        claims.append(Claim(
            where, "the input queue is very low from a speedup of about 2 on (S14, a"
            " calibration statement)",
            f"{lowness}; calibration metric input(s = {S14_SPEEDUP:g}) / input(s ="
            f" {BASE_SPEEDUP:g}) = {_percent(s14)} (target ≤ {S14_MAX:.0%})",
            calibration_verdict(s14 <= S14_MAX if math.isfinite(s14) else None),
            id=ids["input low"]))
        s18 = ratio.get(round(S18_SPEEDUP, 6), math.nan)
        claims.append(Claim(
            "§V.B.2, §IV.A (4×4)", "the effect of the input queue is felt only for low speedup"
            " (1 to 1.5) (S18, a calibration statement)",
            f"input(s = {S18_SPEEDUP:g}) / input(s = {BASE_SPEEDUP:g}) = {_percent(s18)} (target ≥"
            f" {S18_MIN:.0%}); the output queues of RED and CIOQ-RED differ by "
            + ", ".join(f"{_fmt(est[('RED', OUTPUT)][k].mean - est[('CIOQ-RED', OUTPUT)][k].mean)}"
                        f" at s = {xs[k]:g}" for k in range(len(xs)) if xs[k] <= 2.1)
            + " packets", calibration_verdict(s18 >= S18_MIN if math.isfinite(s18) else None),
            id=ids["input felt"]))
    else:
        verdict = ("agree" if rho < -0.9 and low else "partly" if rho < -0.5 else "disagree")
        claims.append(Claim(where, "the input queue lengths decrease as the speedup grows and"
                            " are very low from a speedup of about 2 on",
                            f"{falls}; {lowness}", verdict, id=ids["input falls"]))

    # 3. DropTail has the longest output queue; per speedup, paired over seeds against the
    # longer of the two REDs: ahead, tied (the interval contains 0) or behind, counted apart.
    longest = sum(est[("FIFO", OUTPUT)][k].mean
                  >= max(est[(q, OUTPUT)][k].mean for q in QDISCS) for k in range(len(xs)))
    kinds = []
    for k, sp in enumerate(xs):
        rival = max(("RED", "CIOQ-RED"), key=lambda q: est[(q, OUTPUT)][k].mean)
        kinds.append(study.compare(study.default_key(fabric, ports, "FIFO", speedup=sp),
                                   study.default_key(fabric, ports, rival, speedup=sp),
                                   OUTPUT)[0])
    claims.append(Claim(
        where, "DropTail has the longest average output queue",
        f"DropTail's is the longest at {longest} of {len(xs)} speedups; paired over seeds"
        f" against the longer RED: {_count(kinds)} (at s = {xs[0]:g}: "
        + ", ".join(f"{LABELS[q]} {_fmt(est[(q, OUTPUT)][0].mean)}" for q in QDISCS)
        + f"; at s = {xs[-1]:g}: "
        + ", ".join(f"{LABELS[q]} {_fmt(est[(q, OUTPUT)][-1].mean)}" for q in QDISCS) + ")",
        "agree" if longest == len(xs) else "partly" if longest >= len(xs) / 2 else "disagree",
        id=ids["droptail longest"]))

    # 4. At low speedup CIOQ-RED's output queue is significantly below RED's.
    red0, cioq0 = est[("RED", OUTPUT)][0], est[("CIOQ-RED", OUTPUT)][0]
    significant = (math.isfinite(red0.half_width) and math.isfinite(cioq0.half_width)
                   and cioq0.high < red0.low)
    cut = 1 - cioq0.mean / red0.mean if red0.mean > 0 else math.nan
    claims.append(Claim(
        where, "at low speedup CIOQ-RED's average output queue is significantly lower than"
        " RED's", f"at s = {xs[0]:g}: RED {red0.format(2)}, CIOQ-RED {cioq0.format(2)} packets"
        f" ({cut:.0%} lower; intervals {'do not' if significant else 'do'} overlap)",
        "agree" if significant and cut >= 0.25 else "partly" if cioq0.mean < red0.mean
        else "disagree", id=ids["low speedup"]))

    # 5. The two approach each other for s ≥ 2.
    gaps = [est[("RED", OUTPUT)][k].mean - est[("CIOQ-RED", OUTPUT)][k].mean
            for k in range(len(xs))]
    if high:
        late = float(np.mean([gaps[k] for k in high]))
        approach = abs(late) <= abs(gaps[0]) / 3
        claims.append(Claim(
            where, "RED's and CIOQ-RED's output queue curves approach each other for s ≥ 2",
            f"RED − CIOQ-RED output queue: {_fmt(gaps[0])} packets at s = {xs[0]:g},"
            f" {_fmt(late)} on average over s ≥ 2 (" + ", ".join(
                f"{xs[k]:g}: {_fmt(gaps[k])}" for k in high) + ")",
            "agree" if approach else "partly" if abs(late) < abs(gaps[0]) else "disagree",
            id=ids["approach"]))
    return claims


def band_position(diff: Estimate, limit: float) -> str:
    """Where the paired interval of a difference lies against the band ±``limit``:
    "inside", "outside", or "straddles" its edge (tied with it)."""
    if not math.isfinite(diff.half_width):
        return "inside" if abs(diff.mean) <= limit else "outside"
    if max(abs(diff.low), abs(diff.high)) <= limit:
        return "inside"
    if min(abs(diff.low), abs(diff.high)) > limit and diff.low * diff.high > 0:
        return "outside"
    return "straddles"


def load_claims(study: Study, ports: int,
                cause: tuple[str, list[str] | None] = ("", None)) -> list[Claim]:
    """Utilisation and loss against the load. ``cause``: the loss claim's cause, should it be
    partly or disagree, and the verdicts its variant runs give (None: no run)."""
    fabric = "Paper"
    ids = CLAIM_IDS[ports]
    xs = study.loads(fabric, ports)
    where = _where(ports, "load")
    if not xs:
        return [Claim(where, "loss rate and utilisation vs load", "no load runs",
                      "not evaluated", id=ids["util"])]
    u = {q: study.series(fabric, ports, q, "load", xs, UTIL) for q in QDISCS}
    du = [u["CIOQ-RED"][k].mean - u["RED"][k].mean for k in range(len(xs))]
    dd = [u["CIOQ-RED"][k].mean - u["FIFO"][k].mean for k in range(len(xs))]
    ku, kd = (int(np.argmax(np.abs(d))) for d in (du, dd))
    # The loss claim is judged on the paper's own loss rate ("the ratio of the number of
    # packets dropped and the number of packets sent": over the packets the sources sent, their
    # queues' drops included); the loss at the switch is shown beside it.
    readings = {metric: _loss_reading(study, ports, fabric, xs, metric)
                for metric in (PAPER_LOSS, LOSS)}
    judged = readings[PAPER_LOSS] if readings[PAPER_LOSS].xs else readings[LOSS]
    verdict = _closeness(judged.largest, SAME_LOSS)
    ours = "; ".join(reading.text(SAME_LOSS) for reading in readings.values() if reading.xs)
    return [
        Claim(where, "RED and CIOQ-RED have almost the same utilisation (the gain in backlog"
              " does not cost utilisation)",
              f"largest |Δ| (CIOQ-RED − RED) {abs(du[ku]):.3f} at {xs[ku]} sessions"
              f" ({_fmt(u['RED'][ku].mean, 3)} vs {_fmt(u['CIOQ-RED'][ku].mean, 3)}); rule:"
              f" ≤ {SAME_UTIL} agree, ≤ {2 * SAME_UTIL} partly",
              _closeness(abs(du[ku]), SAME_UTIL), id=ids["util"]),
        _with_cause(Claim(where, "RED and CIOQ-RED have almost the same loss rate; CIOQ-RED's"
                          " is slightly larger (abstract)",
                          f"{ours}; rule (on {judged.label}): largest |Δ| ≤ {SAME_LOSS} agree,"
                          f" ≤ {2 * SAME_LOSS} partly", verdict, id=ids["loss"]), cause),
        Claim(where, "CIOQ-RED does not compromise the utilisation compared with DropTail"
              " (abstract, §VI)",
              f"largest |Δ| (CIOQ-RED − DropTail) {abs(dd[kd]):.3f} at {xs[kd]} sessions"
              f" ({_fmt(u['FIFO'][kd].mean, 3)} vs {_fmt(u['CIOQ-RED'][kd].mean, 3)});"
              f" rule: ≤ {SAME_UTIL} agree, ≤ {2 * SAME_UTIL} partly",
              _closeness(abs(dd[kd]), SAME_UTIL), id=ids["util droptail"]),
    ]


#: The paper's loss rate: packets dropped (the sources' queues' drops included) over the
#: packets the sources sent (the example's ``end_to_end_loss_rate``).
PAPER_LOSS = "end_to_end_loss_rate"
LOSS_LABELS = {PAPER_LOSS: "the paper's loss rate (dropped over sent)",
               LOSS: "the loss at the switch"}


@dataclass(frozen=True)
class LossReading:
    """CIOQ-RED − RED under one loss definition, per load: mean difference, paired kinds and
    the paired intervals' places against the band."""

    label: str
    xs: tuple[int, ...]
    red: tuple[float, ...]
    cioq: tuple[float, ...]
    kinds: tuple[str, ...]
    bands: tuple[str, ...]

    @property
    def diffs(self) -> list[float]:
        return [c - r for c, r in zip(self.cioq, self.red, strict=True)]

    @property
    def largest(self) -> float:
        return max(map(abs, self.diffs))

    def text(self, band: float) -> str:
        k = int(np.argmax(np.abs(self.diffs)))
        return (f"{self.label}: CIOQ-RED's is higher at {sum(d > 0 for d in self.diffs)} of"
                f" {len(self.xs)} loads (paired over seeds: {_count(list(self.kinds))}); largest"
                f" |Δ| {self.largest:.4f} at {self.xs[k]} sessions ({_fmt(self.red[k], 4)} vs"
                f" {_fmt(self.cioq[k], 4)}); paired 95 % intervals of Δ:"
                f" {self.bands.count('inside')} inside ±{band},"
                f" {self.bands.count('straddles')} tied with its edge,"
                f" {self.bands.count('outside')} outside")


def _loss_reading(study: Study, ports: int, fabric: str, xs: list, metric: str) -> LossReading:
    lo = {q: study.series(fabric, ports, q, "load", xs, metric) for q in ("RED", "CIOQ-RED")}
    keep = [k for k in range(len(xs))
            if math.isfinite(lo["RED"][k].mean) and math.isfinite(lo["CIOQ-RED"][k].mean)]
    paired = loss_differences(study, ports, fabric, metric=metric)
    return LossReading(LOSS_LABELS[metric], tuple(xs[k] for k in keep),
                       tuple(lo["RED"][k].mean for k in keep),
                       tuple(lo["CIOQ-RED"][k].mean for k in keep),
                       tuple(kind for _, kind, _ in paired),
                       tuple(band_position(diff, SAME_LOSS) for _, _, diff in paired))


def _with_cause(claim: Claim, cause: tuple[str, list[str] | None]) -> Claim:
    """``claim`` with ``cause`` (text, verdicts of its variant runs) when it needs one."""
    text, verdicts = cause
    if claim.verdict in ("partly", "disagree") and text:
        claim.set_cause(text, NO_CAUSE if verdicts is None
                        else class_by_verdicts(claim.verdict, verdicts))
    return claim


def _closeness(delta: float, limit: float) -> str:
    return "agree" if delta <= limit else "partly" if delta <= 2 * limit else "disagree"


def nu_claims(study: Study, ports: int) -> list[Claim]:
    nus = study.nus("Paper", ports)
    where = f"§V.A (ν), {ports}×{ports}"
    paper = ("ν trades backlog against loss: too low and the input queues are not felt, too"
             " high and too many packets are dropped, reducing utilisation and raising the"
             " loss rate")
    if len(nus) < 3:
        return [Claim(where, paper, "fewer than three values of ν run", "not evaluated",
                      id=CLAIM_IDS[ports]["nu"])]
    keys = [study.nu_key("Paper", ports, nu) for nu in nus]
    out = [study.estimate(k, OUTPUT).mean for k in keys]
    loss = [study.estimate(k, LOSS).mean for k in keys]
    util = [study.estimate(k, UTIL).mean for k in keys]
    r_out, r_loss, r_util = (_spearman(nus, y) for y in (out, loss, util))
    text = (f"over ν = {nus[0]:g} … {nus[-1]:g}: output queue {_fmt(out[0])} → {_fmt(out[-1])}"
            f" packets (Spearman ρ {r_out:.2f}), loss rate {_fmt(loss[0], 4)} →"
            f" {_fmt(loss[-1], 4)} (ρ {r_loss:.2f}), utilisation {_fmt(util[0], 3)} →"
            f" {_fmt(util[-1], 3)} (ρ {r_util:.2f})")
    verdict = ("agree" if r_out < -0.8 and r_loss > 0.8 and r_util < 0
               else "partly" if r_out < 0 and r_loss > 0 else "disagree")
    return [Claim(where, paper, text, verdict, id=CLAIM_IDS[ports]["nu"])]


# ----------------------------------------------------------------- causes


def loss_cause(rows: list[list], variants: dict[Setting, Study] | None,
               primary_setting: Setting) -> tuple[str, list[str] | None]:
    """C7's cause from the variant rows: what each variant changes and what it measured, and
    the verdict C7's rule gives on each variant (None without the variant campaign)."""
    if variants is None:
        return "variant not run (campaigns/cioq-red-variants.toml: loss-buffer, loss-nu)", None
    parts, verdicts = [], []
    for name in ("loss-buffer", "loss-nu", "loss-definition"):
        for what in dict.fromkeys(row[1] for row in rows if row[0] == name):
            mine = [row for row in rows if row[:2] == [name, what]]
            worst = max(mine, key=lambda row: abs(row[3]))
            inside = sum(abs(row[3]) <= SAME_LOSS for row in mine)
            text = (f"{name} ({what}): largest Δ {worst[3]:+.4f} at {worst[2]} sessions,"
                    f" |Δ| ≤ {SAME_LOSS} at {inside} of {len(mine)} loads")
            if name != "loss-definition":  # the claim's own reading now, not a variant
                verdicts.append(_closeness(abs(worst[3]), SAME_LOSS))
            if name == "loss-buffer":
                setting = next(r for r in READINGS if READING_LABELS[r] == what)
                study = variants[setting + (primary_setting[2],)]
                red = study.estimate(study.default_key("Paper", 4, "RED"), OUTPUT)
                cioq = study.estimate(study.default_key("Paper", 4, "CIOQ-RED"), OUTPUT)
                inp = study.estimate(study.default_key("Paper", 4, "CIOQ-RED"), INPUT)
                text += (f"; input queue {_fmt(inp.mean)} packets, output RED"
                         f" {_fmt(red.mean)} vs CIOQ-RED {_fmt(cioq.mean)}"
                         f" ({'C4 holds' if cioq.high < red.low and cioq.mean < 0.75 * red.mean else 'C4 fails'})")
            parts.append(text)
    primary = [row for row in rows if row[0] == "primary"]
    if primary:
        worst = max(primary, key=lambda row: abs(row[3]))
        parts.insert(0, f"primary: largest Δ {worst[3]:+.4f} at {worst[2]} sessions")
    return ("the input term ν·q_input of CIOQ-RED's average (4×4, s = 1.1, variant campaign"
            " cioq-red-variants): " + "; ".join(parts)), verdicts


# ----------------------------------------------------------------- ns-2.35's router

#: Why ns-2.35's output-queued router cannot judge a claim, by the claim's key in
#: :data:`CLAIM_IDS`: it has no CIOQ switch (no input queues, no speedup to vary) and no
#: CIOQ-RED (which reads the input queues; with none its average would be RED's, so comparing
#: it with RED would test nothing).
_NO_INPUTS = ("not evaluated: ns-2.35 has no CIOQ switch; its output-queued router has no"
              " input queues and no speedup to vary")
_NO_CIOQ_RED = ("not evaluated: ns-2.35 has no CIOQ switch and no CIOQ-RED (with no input"
                " queue its average would be RED's, which tests nothing)")
OUTPUT_QUEUED_UNJUDGED = {
    "same input": ("the input queue lengths of DropTail, RED and CIOQ-RED are roughly the same",
                   _NO_INPUTS),
    "input falls": ("the input queue lengths decrease as the speedup grows", _NO_INPUTS),
    "input low": ("the input queue is very low from a speedup of about 2 on (S14)", _NO_INPUTS),
    "input felt": ("the effect of the input queue is felt only for low speedup (S18)",
                   _NO_INPUTS),
    "low speedup": ("at low speedup CIOQ-RED's average output queue is significantly lower than"
                    " RED's", _NO_CIOQ_RED),
    "approach": ("RED's and CIOQ-RED's output queue curves approach each other for s ≥ 2",
                 _NO_CIOQ_RED),
    "util": ("RED and CIOQ-RED have almost the same utilisation", _NO_CIOQ_RED),
    "loss": ("RED and CIOQ-RED have almost the same loss rate; CIOQ-RED's is slightly larger",
             _NO_CIOQ_RED),
    "util droptail": ("CIOQ-RED does not compromise the utilisation compared with DropTail",
                      _NO_CIOQ_RED),
    "nu": ("ν trades backlog against loss", _NO_CIOQ_RED),
}


def output_queued_claims(study: Study, ports: int) -> list[Claim]:
    """The claims on ns-2.35's output-queued router (the CIOQ switch's limit s = N, DropTail
    and RED only). Only "DropTail has the longest average output queue" can be judged, by its
    own rule at the one speedup there is (N), at the paper's load; the others are "not
    evaluated", saying why."""
    ids = CLAIM_IDS[ports]
    claims = []
    for name, claim_id in ids.items():
        if name == "droptail longest":
            continue
        paper, why = OUTPUT_QUEUED_UNJUDGED[name]
        claims.append(Claim(_where(ports, "load" if name.startswith(("util", "loss"))
                                   else "speedup"), paper, why, "not evaluated", id=claim_id))
    where = _where(ports, "speedup")
    paper = "DropTail has the longest average output queue"
    full = {q: study.default_key(OUTPUT_QUEUED, ports, q) for q in OQ_QDISCS}
    est = {q: study.estimate(key, OUTPUT) for q, key in full.items()}
    if not all(e.n for e in est.values()):
        claims.append(Claim(where, paper, f"no DropTail and RED runs at the paper's"
                            f" {PAPER_SESSIONS[ports]} sessions", "not evaluated", id=ids["droptail longest"]))
        return claims
    kind, diff = study.compare(full["FIFO"], full["RED"], OUTPUT)
    longest = int(est["FIFO"].mean >= est["RED"].mean)
    loads = study.loads(OUTPUT_QUEUED, ports, OQ_QDISCS)
    at_loads = sum(study.estimate(study.default_key(OUTPUT_QUEUED, ports, "FIFO",
                                                    sessions=x), OUTPUT).mean
                   >= study.estimate(study.default_key(OUTPUT_QUEUED, ports, "RED",
                                                       sessions=x), OUTPUT).mean
                   for x in loads)
    claims.append(Claim(
        where, paper,
        f"output-queued router (the CIOQ switch's limit s = N = {ports}, the one speedup"
        f" ns-2.35 can run; no CIOQ-RED), {full['RED'][4]} sessions: DropTail"
        f" {est['FIFO'].format(2)}, RED {est['RED'].format(2)} packets; DropTail's is the"
        f" longest at {longest} of 1 speedups (paired over seeds: {_count([kind])},"
        f" Δ {diff.mean:+.2f}); at {at_loads} of {len(loads)} loads",
        "agree" if longest else "disagree", id=ids["droptail longest"]))
    return claims

