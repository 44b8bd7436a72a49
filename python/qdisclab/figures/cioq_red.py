# SPDX-License-Identifier: GPL-2.0-only
"""Figures and claims of CIOQ-RED (Sundararajan, Zhao, Youssef-Massaad and Médard, ns-2).

The paper compares DropTail, RED and its CIOQ-RED (RED on ν·q_input + q_output) at the
outputs of 4 × 4 and 16 × 16 CIOQ switches carrying random TCP sessions; the campaign
``campaigns/cioq-red.toml`` runs the ``cioq-red-evaluation`` example. What is written
(``out_dir``), each figure as PNG, PDF and CSV:

``fig2`` / ``fig4``
    average input and output queue lengths vs speedup, 4 × 4 with 800 sessions /
    16 × 16 with 6400 sessions;
``fig3`` / ``fig5``
    loss rate and utilisation vs load (sessions) at s = 1.1 / 1.4;
``fig2-islip`` … ``fig5-islip``
    the same with an iSLIP crossbar instead of the paper's N² concurrent internal links;
``nu-tradeoff``
    CIOQ-RED's output backlog against its loss rate over the input weight ν (the
    trade-off the paper leaves to future work), RED (ν = 0) and DropTail for reference.

Every point is a mean over seeds with its 95 % Student-t interval. The claims compare
the paper's statements (its Section V text; its figures have no printed numbers) with
ours under rules stated in each claim.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure
from scipy import stats

from qdisclab.campaign.store import RunRecord
from qdisclab.figures import Claim, FigureSet
from qdisclab.figures.common import (
    Estimate,
    compare_paired,
    figure_artifact,
    load_campaign_runs,
    t_interval,
    variants_db,
)

NAME = "cioq-red"
INPUT, OUTPUT = "mean_input_queue_packets", "mean_output_queue_packets"
LOSS, UTIL = "loss_rate", "utilization"

# ----------------------------------------------------------------- the paper's setup

QDISCS = ("DropTail", "Red", "CioqRed")
LABELS = {"DropTail": "DropTail", "Red": "RED", "CioqRed": "CIOQ-RED"}
COLORS = {"DropTail": "C0", "Red": "C1", "CioqRed": "C2"}
SIZES = (4, 16)
#: Sessions of Figs. 2 / 4 (the full load of Figs. 3 / 5).
PAPER_SESSIONS = {4: 800, 16: 6400}
#: Speedup of Figs. 3 / 5.
PAPER_SPEEDUP = {4: 1.1, 16: 1.4}
#: CIOQ-RED's input weight ν.
PAPER_NU = {4: 0.5, 16: 0.125}
#: Speedup ranges of Figs. 2 / 4.
PAPER_SPEEDUP_RANGE = {4: (1.1, 2.5), 16: (1.1, 2.7)}
#: Figure numbers: (kind, ports) -> paper figure.
FIGURE_NUMBER = {("speedup", 4): 2, ("load", 4): 3, ("speedup", 16): 4, ("load", 16): 5}
FABRICS = ("Paper", "Islip")
FABRIC_LABELS = {"Paper": "the paper's fabric (N² links at s/N)", "Islip": "iSLIP crossbar"}

#: Thresholds of the claims' verdicts, fixed before the full campaign was run.
SAME_INPUT_SPREAD = 0.15  # "roughly the same": within ±15 % of the three's mean
LOW_INPUT_RATIO = 0.2  # "very low" at s ≥ 2: below 1/5 of the value at s = 1.1
SAME_UTIL = 0.02  # "almost the same" utilisation: |Δ| ≤ 0.02
SAME_LOSS = 0.01  # "almost the same" loss rate: |Δ| ≤ 1 percentage point

Key = tuple[str, int, str, float, int, float]  # fabric, ports, queueDisc, speedup, sessions, nu


def resolved(params: dict) -> dict:
    """A run's parameters with the example's defaults filled in (those used here)."""
    ports = int(params.get("ports", 4))
    queue = str(params.get("queueDisc", "CioqRed"))
    speedup = float(params.get("speedup", -1))
    if speedup < 0:
        speedup = PAPER_SPEEDUP.get(ports, math.nan)
    sessions = int(params.get("sessions", 0))
    if sessions == 0:
        sessions = round(float(params.get("load", 1.0)) * PAPER_SESSIONS.get(ports, 0))
    nu = float(params.get("nu", -1))
    if queue != "CioqRed":
        nu = 0.0
    elif nu < 0:
        nu = PAPER_NU.get(ports, math.nan)
    return {"ports": ports, "queueDisc": queue, "fabric": str(params.get("fabric", "Paper")),
            "speedup": round(speedup, 6), "sessions": sessions, "nu": nu}


class Study:
    """The runs by (fabric, ports, queueDisc, speedup, sessions, ν) and seed."""

    def __init__(self, runs: Iterable[RunRecord]):
        self.cells: dict[Key, dict[int, dict]] = defaultdict(dict)
        self.wall: dict[tuple[str, int, int], list[float]] = defaultdict(list)
        for run in runs:
            if not run.metrics:
                continue
            p = resolved(run.params)
            key = (p["fabric"], p["ports"], p["queueDisc"], p["speedup"], p["sessions"], p["nu"])
            self.cells[key][run.seed] = run.metrics
            if run.wall_time_s is not None:
                self.wall[(p["fabric"], p["ports"], p["sessions"])].append(run.wall_time_s)
        self.seeds = sorted({seed for cell in self.cells.values() for seed in cell})

    def estimate(self, key: Key, metric: str) -> Estimate:
        """Mean and 95 % interval over seeds of ``metric`` in one cell."""
        return t_interval(v for m in self.cells.get(key, {}).values()
                          if (v := m.get(metric)) is not None)

    def paired(self, a: Key, b: Key, metric: str) -> tuple[list[float], list[float]]:
        """``metric`` of cells ``a`` and ``b`` over the seeds both ran, in seed order."""
        seeds = sorted(set(self.cells.get(a, {})) & set(self.cells.get(b, {})))
        return ([self.cells[a][seed].get(metric, math.nan) for seed in seeds],
                [self.cells[b][seed].get(metric, math.nan) for seed in seeds])

    def compare(self, a: Key, b: Key, metric: str) -> tuple[str, Estimate]:
        """Paired comparison of ``metric`` in cell ``a`` against cell ``b``
        (:func:`qdisclab.figures.common.compare_paired`); "not run" without common seeds."""
        xs, ys = self.paired(a, b, metric)
        if not xs:
            return "not run", t_interval([])
        return compare_paired(xs, ys)

    def default_key(self, fabric: str, ports: int, queue: str, *, speedup: float | None = None,
                    sessions: int | None = None, nu: float | None = None) -> Key:
        """A cell at the paper's operating point, with the given coordinates changed."""
        if nu is None:
            nu = PAPER_NU[ports] if queue == "CioqRed" else 0.0
        return (fabric, ports, queue,
                round(PAPER_SPEEDUP[ports] if speedup is None else speedup, 6),
                PAPER_SESSIONS[ports] if sessions is None else sessions, nu)

    def speedups(self, fabric: str, ports: int) -> list[float]:
        """Speedups run with all three queue discs at the paper's load."""
        found = [{k[3] for k in self.cells if k[:3] == (fabric, ports, q)
                  and k[4] == PAPER_SESSIONS[ports]
                  and k[5] == (PAPER_NU[ports] if q == "CioqRed" else 0.0)} for q in QDISCS]
        return sorted(set.intersection(*found)) if found else []

    def loads(self, fabric: str, ports: int) -> list[int]:
        """Session counts run with all three queue discs at the paper's speedup."""
        speedup = round(PAPER_SPEEDUP[ports], 6)
        found = [{k[4] for k in self.cells if k[:4] == (fabric, ports, q, speedup)
                  and k[5] == (PAPER_NU[ports] if q == "CioqRed" else 0.0)} for q in QDISCS]
        return sorted(set.intersection(*found)) if found else []

    def nus(self, fabric: str, ports: int) -> list[float]:
        """CIOQ-RED input weights run at the paper's operating point; 0 when RED was run
        there (CIOQ-RED with ν = 0 is RED, drop for drop)."""
        found = {k[5] for k in self.cells
                 if k[:5] == self.default_key(fabric, ports, "CioqRed")[:5]}
        if self.default_key(fabric, ports, "Red") in self.cells:
            found.add(0.0)
        return sorted(found)

    def nu_key(self, fabric: str, ports: int, nu: float) -> Key:
        """The cell of CIOQ-RED with input weight ``nu`` at the paper's operating point (RED's
        for ν = 0 unless CIOQ-RED was run with ν = 0)."""
        key = self.default_key(fabric, ports, "CioqRed", nu=nu)
        if nu == 0 and key not in self.cells:
            return self.default_key(fabric, ports, "Red")
        return key

    def series(self, fabric: str, ports: int, queue: str, axis: str, xs: list,
               metric: str) -> list[Estimate]:
        """Estimates of ``metric`` along ``axis`` ("speedup" or "load")."""
        keys = [self.default_key(fabric, ports, queue, **{axis if axis == "speedup" else
                                                           "sessions": x}) for x in xs]
        return [self.estimate(k, metric) for k in keys]


# ----------------------------------------------------------------- drawing


def _errorbar(axis, xs, estimates: list[Estimate], **style) -> None:
    means = [e.mean for e in estimates]
    errors = [e.half_width if math.isfinite(e.half_width) else 0.0 for e in estimates]
    axis.errorbar(xs, means, yerr=errors, capsize=3, marker="o", markersize=3.5, lw=1.2,
                  **style)


def _sweep_figure(study: Study, fabric: str, ports: int, axis_name: str, xs: list,
                  xlabel: str, panels: tuple, title: str) -> Figure:
    """The three queue discs along ``axis_name`` ("speedup" or "load"), in two panels:
    ``panels`` gives each its metric, y label and y-axis top (None: automatic)."""
    fig = Figure(figsize=(11.0, 4.2), layout="constrained")
    for axis, (metric, ylabel, top) in zip(fig.subplots(1, 2), panels, strict=True):
        for queue in QDISCS:
            _errorbar(axis, xs, study.series(fabric, ports, queue, axis_name, xs, metric),
                      color=COLORS[queue], label=LABELS[queue])
        axis.set_xlabel(xlabel)
        axis.set_ylabel(ylabel)
        axis.set_ylim(bottom=0, top=top)
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8)
    fig.suptitle(title, fontsize=10)
    return fig


def speedup_figure(study: Study, fabric: str, ports: int, number: int) -> Figure:
    """Input and output queue lengths vs speedup (Fig. 2 / 4)."""
    return _sweep_figure(
        study, fabric, ports, "speedup", study.speedups(fabric, ports), "speedup s",
        ((INPUT, "average input queue length (packets)", None),
         (OUTPUT, "average output queue length (packets)", None)),
        f"Figure {number}{'' if fabric == 'Paper' else ' with iSLIP'}: average input"
        f" and output queue lengths vs speedup, {ports}×{ports} switch"
        f" ({PAPER_SESSIONS[ports]} TCP sessions; {FABRIC_LABELS[fabric]};"
        " mean ± 95 % CI)")


def load_figure(study: Study, fabric: str, ports: int, number: int) -> Figure:
    """Loss rate and utilisation vs load (Fig. 3 / 5)."""
    return _sweep_figure(
        study, fabric, ports, "load", study.loads(fabric, ports), "load (TCP sessions in 100 s)",
        ((LOSS, "loss rate", None), (UTIL, "utilisation", 1.0)),
        f"Figure {number}{'' if fabric == 'Paper' else ' with iSLIP'}: loss rate and"
        f" utilisation of the {ports}×{ports} switch at s = {PAPER_SPEEDUP[ports]}"
        f" ({FABRIC_LABELS[fabric]}; mean ± 95 % CI)")


def nu_figure(study: Study, sizes: list[int]) -> Figure:
    """CIOQ-RED's output backlog vs loss rate over ν, per switch size."""
    fig = Figure(figsize=(5.5 * len(sizes), 4.6), layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, len(sizes)))
    for axis, ports in zip(axes, sizes, strict=True):
        nus = study.nus("Paper", ports)
        keys = [study.nu_key("Paper", ports, nu) for nu in nus]
        loss = [study.estimate(k, LOSS) for k in keys]
        out = [study.estimate(k, OUTPUT) for k in keys]
        axis.errorbar([e.mean for e in loss], [e.mean for e in out],
                      xerr=[_half(e) for e in loss], yerr=[_half(e) for e in out],
                      color=COLORS["CioqRed"], marker="o", markersize=4, capsize=3, lw=1.2,
                      label="CIOQ-RED over ν")
        for i, (nu, lo, ou) in enumerate(zip(nus, loss, out, strict=True)):
            bold = math.isclose(nu, PAPER_NU[ports])
            axis.annotate(f"ν={nu:g}" + (" (paper)" if bold else ""), (lo.mean, ou.mean),
                          textcoords="offset points", xytext=(5, 4 if i % 2 == 0 else -11),
                          fontsize=7, fontweight="bold" if bold else "normal")
        for queue in ("DropTail", "Red"):
            key = study.default_key("Paper", ports, queue)
            lo, ou = study.estimate(key, LOSS), study.estimate(key, OUTPUT)
            if lo.n:
                axis.errorbar([lo.mean], [ou.mean], xerr=[_half(lo)], yerr=[_half(ou)],
                              color=COLORS[queue], marker="s", markersize=5, capsize=3,
                              ls="none", label=LABELS[queue])
        axis.set_xlabel("loss rate")
        axis.set_ylabel("average output queue length (packets)")
        axis.set_ylim(bottom=0)
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8)
        axis.set_title(f"{ports}×{ports}, {PAPER_SESSIONS[ports]} sessions,"
                       f" s = {PAPER_SPEEDUP[ports]}", fontsize=9)
    fig.suptitle("Beyond the paper: CIOQ-RED's output backlog vs loss rate over its input"
                 " weight ν\n(ν = 0 is RED; mean ± 95 % CI)", fontsize=10)
    return fig


def _half(e: Estimate) -> float:
    return e.half_width if math.isfinite(e.half_width) else 0.0


# ----------------------------------------------------------------- tables

SPEEDUP_HEADER = ("fabric", "ports", "sessions", "queueDisc", "nu", "speedup",
                  "input_mean", "input_ci95", "output_mean", "output_ci95", "loss_rate_mean",
                  "loss_rate_ci95", "utilization_mean", "utilization_ci95", "n")
LOAD_HEADER = ("fabric", "ports", "speedup", "queueDisc", "nu", "sessions", "loss_rate_mean",
               "loss_rate_ci95", "utilization_mean", "utilization_ci95",
               "goodput_utilization_mean", "input_mean", "output_mean", "n")
NU_HEADER = ("ports", "sessions", "speedup", "queueDisc", "nu", "output_mean", "output_ci95",
             "loss_rate_mean", "loss_rate_ci95", "input_mean", "utilization_mean",
             "utilization_ci95", "n")


def speedup_rows(study: Study, fabric: str, ports: int) -> list[list]:
    rows = []
    for queue in QDISCS:
        for s in study.speedups(fabric, ports):
            key = study.default_key(fabric, ports, queue, speedup=s)
            i, o = study.estimate(key, INPUT), study.estimate(key, OUTPUT)
            lo, u = study.estimate(key, LOSS), study.estimate(key, UTIL)
            rows.append([fabric, ports, key[4], queue, key[5], s, i.mean, i.half_width, o.mean,
                         o.half_width, lo.mean, lo.half_width, u.mean, u.half_width, i.n])
    return rows


def load_rows(study: Study, fabric: str, ports: int) -> list[list]:
    rows = []
    for queue in QDISCS:
        for sessions in study.loads(fabric, ports):
            key = study.default_key(fabric, ports, queue, sessions=sessions)
            lo, u = study.estimate(key, LOSS), study.estimate(key, UTIL)
            rows.append([fabric, ports, key[3], queue, key[5], sessions, lo.mean, lo.half_width,
                         u.mean, u.half_width, study.estimate(key, "goodput_utilization").mean,
                         study.estimate(key, INPUT).mean, study.estimate(key, OUTPUT).mean,
                         lo.n])
    return rows


def nu_rows(study: Study, sizes: list[int]) -> list[list]:
    rows = []
    for ports in sizes:
        keys = [study.default_key("Paper", ports, q) for q in ("DropTail", "Red")]
        keys += [study.nu_key("Paper", ports, nu) for nu in study.nus("Paper", ports)
                 if nu > 0]
        for key in keys:
            o, lo = study.estimate(key, OUTPUT), study.estimate(key, LOSS)
            u = study.estimate(key, UTIL)
            if o.n:
                rows.append([ports, key[4], key[3], key[2], key[5], o.mean, o.half_width,
                             lo.mean, lo.half_width, study.estimate(key, INPUT).mean, u.mean,
                             u.half_width, o.n])
    return rows


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
#: Calibration statements (4 × 4, 800 sessions, input queue averaged over the three queue
#: discs): S14 input(s = 2.1) ≤ 10 % of input(s = 1.1); S18 input(s = 1.5) ≥ 25 % of it.
S14_SPEEDUP, S14_MAX = 2.1, 0.10
S18_SPEEDUP, S18_MIN = 1.5, 0.25
BASE_SPEEDUP = 1.1


def _count(kinds: list[str]) -> str:
    """"k ahead, t tied, b behind" (and identical) of paired comparisons A − B."""
    names = {"A ahead": "ahead", "tied": "tied", "B ahead": "behind", "identical": "identical",
             "not run": "not run"}
    return ", ".join(f"{kinds.count(k)} {names[k]}" for k in names if kinds.count(k))


def input_ratios(study: Study, fabric: str = "Paper", ports: int = 4) -> dict[float, float]:
    """The input queue at each speedup of the paper's load relative to s = 1.1, averaged over
    the three queue discs (the calibration metrics of S14 and S18)."""
    def mean_input(speedup: float) -> float:
        values = [study.estimate(study.default_key(fabric, ports, q, speedup=speedup),
                                 INPUT).mean for q in QDISCS]
        return float(np.mean(values)) if all(map(math.isfinite, values)) else math.nan

    base = mean_input(BASE_SPEEDUP)
    return {s: mean_input(s) / base if base > 0 else math.nan
            for s in study.speedups(fabric, ports)}


def _speedup_claims(study: Study, ports: int) -> list[Claim]:
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
            f" {BASE_SPEEDUP:g}) = {_percent(s14)} (target ≤ {S14_MAX:.0%})", "calibrated",
            id=ids["input low"]))
        s18 = ratio.get(round(S18_SPEEDUP, 6), math.nan)
        claims.append(Claim(
            "§V.B.2, §IV.A (4×4)", "the effect of the input queue is felt only for low speedup"
            " (1 to 1.5) (S18, a calibration statement)",
            f"input(s = {S18_SPEEDUP:g}) / input(s = {BASE_SPEEDUP:g}) = {_percent(s18)} (target ≥"
            f" {S18_MIN:.0%}); the output queues of RED and CIOQ-RED differ by "
            + ", ".join(f"{_fmt(est[('Red', OUTPUT)][k].mean - est[('CioqRed', OUTPUT)][k].mean)}"
                        f" at s = {xs[k]:g}" for k in range(len(xs)) if xs[k] <= 2.1)
            + " packets", "calibrated", id=ids["input felt"]))
    else:
        verdict = ("agree" if rho < -0.9 and low else "partly" if rho < -0.5 else "disagree")
        claims.append(Claim(where, "the input queue lengths decrease as the speedup grows and"
                            " are very low from a speedup of about 2 on",
                            f"{falls}; {lowness}", verdict, id=ids["input falls"]))

    # 3. DropTail has the longest output queue; per speedup, paired over seeds against the
    # longer of the two REDs: ahead, tied (the interval contains 0) or behind, counted apart.
    longest = sum(est[("DropTail", OUTPUT)][k].mean
                  >= max(est[(q, OUTPUT)][k].mean for q in QDISCS) for k in range(len(xs)))
    kinds = []
    for k, sp in enumerate(xs):
        rival = max(("Red", "CioqRed"), key=lambda q: est[(q, OUTPUT)][k].mean)
        kinds.append(study.compare(study.default_key(fabric, ports, "DropTail", speedup=sp),
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
    red0, cioq0 = est[("Red", OUTPUT)][0], est[("CioqRed", OUTPUT)][0]
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
    gaps = [est[("Red", OUTPUT)][k].mean - est[("CioqRed", OUTPUT)][k].mean
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


def loss_differences(study: Study, ports: int, fabric: str = "Paper", *,
                     nu: float | None = None, red: Study | None = None,
                     metric: str = LOSS) -> list[tuple[int, str, Estimate]]:
    """Per load: the paired comparison of CIOQ-RED's ``metric`` (input weight ``nu``, default
    the paper's) against RED's (from ``red``, default the same study), and the paired interval
    of the difference CIOQ-RED − RED."""
    red = red or study
    out = []
    for sessions in sorted({k[4] for k in study.cells
                            if k[:4] == (fabric, ports, "CioqRed", round(PAPER_SPEEDUP[ports], 6))
                            and k[5] == (PAPER_NU[ports] if nu is None else nu)}):
        a = study.default_key(fabric, ports, "CioqRed", sessions=sessions, nu=nu)
        b = red.default_key(fabric, ports, "Red", sessions=sessions)
        seeds = sorted(set(study.cells.get(a, {})) & set(red.cells.get(b, {})))
        if not seeds:
            continue
        xs = [study.cells[a][seed].get(metric, math.nan) for seed in seeds]
        ys = [red.cells[b][seed].get(metric, math.nan) for seed in seeds]
        kind, diff = compare_paired(xs, ys)
        out.append((sessions, kind, diff))
    return out


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


def _load_claims(study: Study, ports: int, cause: str = "") -> list[Claim]:
    fabric = "Paper"
    ids = CLAIM_IDS[ports]
    xs = study.loads(fabric, ports)
    where = _where(ports, "load")
    if not xs:
        return [Claim(where, "loss rate and utilisation vs load", "no load runs",
                      "not evaluated", id=ids["util"])]
    u = {q: study.series(fabric, ports, q, "load", xs, UTIL) for q in QDISCS}
    lo = {q: study.series(fabric, ports, q, "load", xs, LOSS) for q in ("Red", "CioqRed")}
    du = [u["CioqRed"][k].mean - u["Red"][k].mean for k in range(len(xs))]
    dd = [u["CioqRed"][k].mean - u["DropTail"][k].mean for k in range(len(xs))]
    dl = [lo["CioqRed"][k].mean - lo["Red"][k].mean for k in range(len(xs))]
    ku, kd, kl = (int(np.argmax(np.abs(d))) for d in (du, dd, dl))
    higher = sum(d > 0 for d in dl)
    paired = loss_differences(study, ports, fabric)
    kinds = [kind for _, kind, _ in paired]
    bands = [band_position(diff, SAME_LOSS) for _, _, diff in paired]
    verdict = _closeness(abs(dl[kl]), SAME_LOSS)
    return [
        Claim(where, "RED and CIOQ-RED have almost the same utilisation (the gain in backlog"
              " does not cost utilisation)",
              f"largest |Δ| (CIOQ-RED − RED) {abs(du[ku]):.3f} at {xs[ku]} sessions"
              f" ({_fmt(u['Red'][ku].mean, 3)} vs {_fmt(u['CioqRed'][ku].mean, 3)}); rule:"
              f" ≤ {SAME_UTIL} agree, ≤ {2 * SAME_UTIL} partly",
              _closeness(abs(du[ku]), SAME_UTIL), id=ids["util"]),
        Claim(where, "RED and CIOQ-RED have almost the same loss rate; CIOQ-RED's is slightly"
              " larger (abstract)",
              f"CIOQ-RED's loss rate is higher at {higher} of {len(xs)} loads (paired over"
              f" seeds: {_count(kinds)}); largest |Δ| {abs(dl[kl]):.4f} at {xs[kl]} sessions"
              f" ({_fmt(lo['Red'][kl].mean, 4)} vs {_fmt(lo['CioqRed'][kl].mean, 4)}); rule:"
              f" ≤ {SAME_LOSS} agree, ≤ {2 * SAME_LOSS} partly; paired 95 % intervals of Δ:"
              f" {bands.count('inside')} inside ±{SAME_LOSS}, {bands.count('straddles')} tied"
              f" with its edge, {bands.count('outside')} outside",
              verdict, id=ids["loss"],
              cause=cause if verdict in ("partly", "disagree") else ""),
        Claim(where, "CIOQ-RED does not compromise the utilisation compared with DropTail"
              " (abstract, §VI)",
              f"largest |Δ| (CIOQ-RED − DropTail) {abs(dd[kd]):.3f} at {xs[kd]} sessions"
              f" ({_fmt(u['DropTail'][kd].mean, 3)} vs {_fmt(u['CioqRed'][kd].mean, 3)});"
              f" rule: ≤ {SAME_UTIL} agree, ≤ {2 * SAME_UTIL} partly",
              _closeness(abs(dd[kd]), SAME_UTIL), id=ids["util droptail"]),
    ]


def _closeness(delta: float, limit: float) -> str:
    return "agree" if delta <= limit else "partly" if delta <= 2 * limit else "disagree"


def _nu_claims(study: Study, ports: int) -> list[Claim]:
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


# ----------------------------------------------------------------- calibration and variants

#: The input buffer readings of "the input and output buffer sizes are both 20", as the
#: example's (inputBuffer, voqLimit), in the plan's order of preference.
READINGS = (("0p", "20p"), ("20p", "0p"), ("0p", "5p"))
READING_LABELS = {("0p", "20p"): "20 per VOQ", ("20p", "0p"): "20 shared per input",
                  ("0p", "5p"): "5 per VOQ"}
#: The plan's cause-demonstrating variants of C7 (4 × 4, s = 1.1, loads 80 … 800).
NU_VARIANT = 0.25

Setting = tuple[str, str, str]  # inputBuffer, voqLimit, linkDelay


def setting_of(params: dict) -> Setting:
    """A run's input buffer reading and host link delay (the example's defaults filled in)."""
    return (str(params.get("inputBuffer", "0p")), str(params.get("voqLimit", "20p")),
            str(params.get("linkDelay", "1ms")))


def _delay_ms(delay: str) -> float:
    return float(delay.removesuffix("ms")) if delay.endswith("ms") else math.nan


def studies_by_setting(runs: Iterable[RunRecord]) -> dict[Setting, Study]:
    """The runs split by input buffer reading and link delay, a Study each."""
    groups: dict[Setting, list[RunRecord]] = defaultdict(list)
    for run in runs:
        groups[setting_of(run.params)].append(run)
    return {setting: Study(group) for setting, group in groups.items()}


CALIBRATION_HEADER = ("inputBuffer", "voqLimit", "reading", "linkDelay", "s14_ratio",
                      "s18_ratio", "meets_s14", "meets_s18", "output_ratio_s1.1",
                      "output_cioqred", "output_red", "loss_diff_s1.1", "loss_diff_ci95",
                      "chosen", "n")


def calibration_rows(studies: dict[Setting, Study]) -> list[list]:
    """Per setting of the calibration grid: the calibration metrics (S14, S18) and, at
    s = 1.1 with 800 sessions, the headline: CIOQ-RED's output queue relative to RED's and
    the loss-rate difference CIOQ-RED − RED (paired over seeds). The chosen setting (the
    plan's rule, :func:`choose_setting`) is marked."""
    rows = []
    for setting in sorted(studies, key=_setting_order):
        study = studies[setting]
        if not {round(S14_SPEEDUP, 6), round(S18_SPEEDUP, 6)} <= set(
                study.speedups("Paper", 4)):
            continue
        ratio = input_ratios(study)
        s14, s18 = ratio[round(S14_SPEEDUP, 6)], ratio[round(S18_SPEEDUP, 6)]
        red = study.estimate(study.default_key("Paper", 4, "Red"), OUTPUT)
        cioq = study.estimate(study.default_key("Paper", 4, "CioqRed"), OUTPUT)
        _, diff = study.compare(study.default_key("Paper", 4, "CioqRed"),
                                study.default_key("Paper", 4, "Red"), LOSS)
        rows.append([setting[0], setting[1], READING_LABELS.get(setting[:2], "?"), setting[2],
                     s14, s18, s14 <= S14_MAX, s18 >= S18_MIN,
                     cioq.mean / red.mean if red.mean > 0 else math.nan, cioq.mean, red.mean,
                     diff.mean, diff.half_width, False, red.n])
    chosen = choose_setting(rows)
    for row in rows:
        row[13] = chosen is not None and tuple(row[:2]) + (row[3],) == chosen
    return rows


def _setting_order(setting: Setting) -> tuple:
    reading = READINGS.index(setting[:2]) if setting[:2] in READINGS else len(READINGS)
    return reading, _delay_ms(setting[2])


def choose_setting(rows: list[list]) -> Setting | None:
    """The plan's choice rule, fixed before the runs: among the settings meeting S14 and S18,
    the first reading of :data:`READINGS`, then the shortest link delay; None when none
    meets both."""
    meeting = [(row[0], row[1], row[3]) for row in rows if row[6] and row[7]]
    return min(meeting, key=_setting_order) if meeting else None


def sensitivity_figure(rows: list[list]) -> Figure:
    """The headline at s = 1.1 against the unknowns: CIOQ-RED's output queue relative to
    RED's and the loss-rate difference, per input buffer reading (x) and link delay
    (series), the chosen setting circled."""
    fig = Figure(figsize=(11.0, 4.4), layout="constrained")
    panels = fig.subplots(1, 2)
    readings = [r for r in READINGS if any(tuple(row[:2]) == r for row in rows)]
    delays = sorted({row[3] for row in rows}, key=_delay_ms)
    width = 0.8 / max(1, len(delays))
    for axis, column, ylabel in ((panels[0], 8, "CIOQ-RED output queue / RED's"),
                                 (panels[1], 11, "loss rate: CIOQ-RED − RED")):
        for j, delay in enumerate(delays):
            xs, ys, errs = [], [], []
            for i, reading in enumerate(readings):
                for row in rows:
                    if tuple(row[:2]) == reading and row[3] == delay:
                        xs.append(i + (j - (len(delays) - 1) / 2) * width)
                        ys.append(row[column])
                        errs.append(row[12] if column == 11 and math.isfinite(row[12]) else 0)
                        if row[13]:
                            axis.plot(xs[-1], ys[-1], marker="o", ms=14, mfc="none",
                                      mec="k", mew=1.5, ls="none")
                        if not (row[6] and row[7]):
                            axis.plot(xs[-1], ys[-1], marker="x", ms=9, color="grey",
                                      ls="none")
            axis.errorbar(xs, ys, yerr=errs, marker="s", ms=5, capsize=3, ls="none",
                          color=f"C{j}", label=f"host links {delay}")
        axis.set_xticks(range(len(readings)), [READING_LABELS[r] for r in readings])
        axis.set_xlabel("input buffer reading of \"both 20\"")
        axis.set_ylabel(ylabel)
        axis.grid(alpha=0.3)
    panels[0].axhline(0.75, color="grey", ls=":", lw=1)
    panels[0].set_ylim(bottom=0)
    panels[1].axhspan(-SAME_LOSS, SAME_LOSS, color="C2", alpha=0.12,
                      label=f"\"almost the same\" (±{SAME_LOSS})")
    panels[1].axhline(0, color="k", lw=0.6)
    panels[0].plot([], [], marker="o", ms=10, mfc="none", mec="k", ls="none",
                   label="chosen (S14, S18)")
    panels[0].plot([], [], marker="x", color="grey", ls="none", label="misses S14 or S18")
    for axis in panels:
        axis.legend(fontsize=7)
    fig.suptitle("Sensitivity of the 4×4 headline (s = 1.1, 800 sessions) to the input buffer"
                 " and the host link delay\n(left: C4, the cut of the output queue, ≤ 0.75"
                 " needed; right: C7, the loss-rate difference, paired 95 % CI; mean of three"
                 " seeds)", fontsize=10)
    return fig


VARIANT_HEADER = ("variant", "what", "sessions", "loss_diff_mean", "loss_diff_ci95",
                  "comparison", "band", "n")


def loss_variant_rows(primary: Study, variants: dict[Setting, Study],
                      primary_setting: Setting) -> list[list]:
    """Per variant and load (4 × 4, s = 1.1): the loss-rate difference CIOQ-RED − RED, paired
    over seeds, its comparison (ahead = CIOQ-RED loses more) and its place against the band
    ±0.01: the primary scenario, its loss over the packets the sources sent
    (``end_to_end_loss_rate``), each other input buffer reading (loss-buffer) and ν = 0.25
    (loss-nu, against the primary's RED)."""
    rows = []

    def add(name: str, what: str, diffs: list[tuple[int, str, Estimate]]) -> None:
        for sessions, kind, diff in diffs:
            rows.append([name, what, sessions, diff.mean, diff.half_width, kind,
                         band_position(diff, SAME_LOSS), diff.n])

    add("primary", READING_LABELS.get(primary_setting[:2], "?") + f", ν = {PAPER_NU[4]:g}",
        loss_differences(primary, 4))
    add("loss-definition", "loss over packets the sources sent (with their queues' drops)",
        loss_differences(primary, 4, metric="end_to_end_loss_rate"))
    for reading in READINGS:
        setting = reading + (primary_setting[2],)
        if setting != primary_setting and setting in variants:
            add("loss-buffer", READING_LABELS[reading], loss_differences(variants[setting], 4))
    nu_runs = variants.get(primary_setting)
    if nu_runs is not None:
        add("loss-nu", f"ν = {NU_VARIANT:g} (input term halved)",
            loss_differences(nu_runs, 4, nu=NU_VARIANT, red=primary))
    return rows


def variant_figure(rows: list[list]) -> Figure:
    """Δ loss rate (CIOQ-RED − RED) vs load, per variant, with the ±0.01 band."""
    fig = Figure(figsize=(7.5, 4.6), layout="constrained")
    axis = fig.subplots()
    variants = list(dict.fromkeys((row[0], row[1]) for row in rows))
    for j, (name, what) in enumerate(variants):
        mine = [row for row in rows if (row[0], row[1]) == (name, what)]
        axis.errorbar([row[2] for row in mine], [row[3] for row in mine],
                      yerr=[row[4] if math.isfinite(row[4]) else 0 for row in mine],
                      marker="o", ms=4, capsize=3, lw=1.2, color=f"C{j}",
                      ls="--" if name == "loss-definition" else "-", label=f"{name}: {what}")
    axis.axhspan(-SAME_LOSS, SAME_LOSS, color="C2", alpha=0.12, label=f"±{SAME_LOSS} (agree)")
    axis.axhline(0, color="k", lw=0.6)
    axis.set_xlabel("load (TCP sessions in 100 s)")
    axis.set_ylabel("loss rate: CIOQ-RED − RED")
    axis.grid(alpha=0.3)
    axis.legend(fontsize=7)
    fig.suptitle("C7's cause: CIOQ-RED's extra loss at s = 1.1 (4×4) with the input term"
                 " changed\n(paired 95 % CI over three seeds)", fontsize=10)
    return fig


def loss_cause(rows: list[list], variants: dict[Setting, Study] | None,
               primary_setting: Setting) -> str:
    """C7's cause from the variant rows: what each variant changes and what it measured."""
    if variants is None:
        return "variant not run (campaigns/cioq-red-variants.toml: loss-buffer, loss-nu)"
    parts = []
    for name in ("loss-buffer", "loss-nu", "loss-definition"):
        for what in dict.fromkeys(row[1] for row in rows if row[0] == name):
            mine = [row for row in rows if row[:2] == [name, what]]
            worst = max(mine, key=lambda row: abs(row[3]))
            inside = sum(abs(row[3]) <= SAME_LOSS for row in mine)
            text = (f"{name} ({what}): largest Δ {worst[3]:+.4f} at {worst[2]} sessions,"
                    f" |Δ| ≤ {SAME_LOSS} at {inside} of {len(mine)} loads")
            if name == "loss-buffer":
                setting = next(r for r in READINGS if READING_LABELS[r] == what)
                study = variants[setting + (primary_setting[2],)]
                red = study.estimate(study.default_key("Paper", 4, "Red"), OUTPUT)
                cioq = study.estimate(study.default_key("Paper", 4, "CioqRed"), OUTPUT)
                inp = study.estimate(study.default_key("Paper", 4, "CioqRed"), INPUT)
                text += (f"; input queue {_fmt(inp.mean)} packets, output RED"
                         f" {_fmt(red.mean)} vs CIOQ-RED {_fmt(cioq.mean)}"
                         f" ({'C4 holds' if cioq.high < red.low and cioq.mean < 0.75 * red.mean else 'C4 fails'})")
            parts.append(text)
    primary = [row for row in rows if row[0] == "primary"]
    if primary:
        worst = max(primary, key=lambda row: abs(row[3]))
        parts.insert(0, f"primary: largest Δ {worst[3]:+.4f} at {worst[2]} sessions")
    return ("the input term ν·q_input of CIOQ-RED's average (4×4, s = 1.1, variant campaign"
            " cioq-red-variants): " + "; ".join(parts))


# ----------------------------------------------------------------- the figure set


def make_figures(db_path: Path, out_dir: Path) -> FigureSet:
    """Write fig2–fig5, their iSLIP variants and the ν trade-off from ``db_path``."""
    meta, runs = load_campaign_runs(db_path)
    study = Study(runs)
    result = FigureSet(NAME, out_dir)
    mode = meta.get("mode", "full")
    result.notes.append(f"{len(runs)} successful runs ({mode} campaign), {len(study.seeds)}"
                        f" seed(s): {', '.join(map(str, study.seeds))}.")
    if mode == "quick":
        result.notes.append("Quick campaign: the 4×4 switch only, three points per sweep; the"
                            " verdicts are indicative only.")
    for (fabric, ports, sessions), walls in sorted(study.wall.items()):
        if sessions == PAPER_SESSIONS.get(ports):
            result.notes.append(
                f"Wall time of a {ports}×{ports} run with {sessions} sessions ({fabric}):"
                f" mean {np.mean(walls):.1f} s, max {np.max(walls):.1f} s over {len(walls)}"
                " runs (shared machine).")
    result.notes.append(
        "Topology: N sources and N sinks, each on its own 1 Mb/s link to a 2N-port"
        " CioqSwitchNetDevice (input buffers: 20 packets per VOQ), acknowledgements over a"
        " second, uncongested switch; input queue = mean over inputs of the time-averaged"
        " packets in its VOQs (= the mean q_input of eq. (2)); loss rate = packets dropped in"
        " the switch / packets arriving at it; utilisation = bits delivered to the sinks /"
        " (N × 1 Mb/s × 100 s).")

    for fabric in FABRICS:
        suffix = "" if fabric == "Paper" else "-islip"
        for ports in SIZES:
            for kind in ("speedup", "load"):
                number = FIGURE_NUMBER[(kind, ports)]
                stem = f"fig{number}{suffix}"
                xs = (study.speedups if kind == "speedup" else study.loads)(fabric, ports)
                if not xs:
                    continue
                if kind == "speedup":
                    fig = speedup_figure(study, fabric, ports, number)
                    header, rows = SPEEDUP_HEADER, speedup_rows(study, fabric, ports)
                    title = (f"Figure {number}: average input and output queue lengths vs"
                             f" speedup, {ports}×{ports}")
                    caption = (f"{PAPER_SESSIONS[ports]} TCP sessions over 100 s; speedups"
                               f" {xs[0]:g} … {xs[-1]:g} (the paper:"
                               f" {PAPER_SPEEDUP_RANGE[ports][0]:g} …"
                               f" {PAPER_SPEEDUP_RANGE[ports][1]:g}); {FABRIC_LABELS[fabric]}.")
                else:
                    fig = load_figure(study, fabric, ports, number)
                    header, rows = LOAD_HEADER, load_rows(study, fabric, ports)
                    title = (f"Figure {number}: loss rate and utilisation vs load,"
                             f" {ports}×{ports}, s = {PAPER_SPEEDUP[ports]}")
                    caption = (f"{xs[0]} … {xs[-1]} TCP sessions over 100 s (the paper:"
                               f" {PAPER_SESSIONS[ports] // 10} …"
                               f" {PAPER_SESSIONS[ports]}); {FABRIC_LABELS[fabric]}.")
                if fabric != "Paper":
                    title += " (iSLIP, beyond the paper)"
                result.artifacts.append(
                    figure_artifact(fig, out_dir, stem, header, rows, title, caption))

    sizes = [p for p in SIZES if len(study.nus("Paper", p)) >= 2]
    if sizes:
        result.artifacts.append(figure_artifact(
            nu_figure(study, sizes), out_dir, "nu-tradeoff", NU_HEADER, nu_rows(study, sizes),
            "Beyond the paper: output backlog vs loss rate over ν",
            "CIOQ-RED at the operating point of Figs. 3/5 (full load) for each input weight"
            " ν; ν = 0 is RED's run (CIOQ-RED with ν = 0 drops exactly as RED); DropTail for"
            " reference."))

    # The variant campaign: calibration (sensitivity figure) and C7's cause.
    settings = [setting_of(run.params) for run in runs if run.metrics]
    primary_setting = max(set(settings), key=settings.count) if settings else READINGS[0] + (
        "1ms",)
    variants_path = variants_db(db_path, NAME)
    variants = None
    if variants_path is not None:
        variant_runs = [run for run in load_campaign_runs(variants_path)[1]
                        if run.params.get("ports", 4) == 4]
        variants = studies_by_setting(variant_runs)
        rows = calibration_rows(variants)
        chosen = choose_setting(rows)
        if rows:
            result.artifacts.append(figure_artifact(
                sensitivity_figure(rows), out_dir, "sensitivity", CALIBRATION_HEADER, rows,
                "Sensitivity: the 4×4 headline vs the input buffer reading and the link delay",
                "Calibration grid of campaigns/cioq-red-variants.toml (4×4, 800 sessions, three"
                " seeds): per setting the calibration metrics S14 (input at s = 2.1 ≤ 10 % of"
                " s = 1.1) and S18 (input at s = 1.5 ≥ 25 %), and at s = 1.1 CIOQ-RED's output"
                " queue relative to RED's and the loss-rate difference; the plan's rule picks"
                " the first reading meeting both, then the shortest delay."))
            result.notes.append(
                "Calibration (S14, S18; plan in doc/reproductions/cioq-red.rst): "
                + "; ".join(f"{row[2]}, {row[3]}: S14 {row[4]:.1%}, S18 {row[5]:.1%}"
                            f"{' (chosen)' if row[13] else ''}" for row in rows)
                + (f". Chosen: {READING_LABELS.get(chosen[:2], '?')}, host links {chosen[2]}"
                   f" (final campaign: {READING_LABELS.get(primary_setting[:2], '?')},"
                   f" {primary_setting[2]})." if chosen else ". No setting meets both."))
    variant_rows = loss_variant_rows(study, variants or {}, primary_setting)
    if variants is not None and any(row[0] != "primary" for row in variant_rows):
        result.artifacts.append(figure_artifact(
            variant_figure(variant_rows), out_dir, "variant-loss", VARIANT_HEADER,
            variant_rows, "C7's cause: the loss-rate difference with the input term changed",
            "4×4, s = 1.1, loads 80 … 800, three seeds: CIOQ-RED − RED loss rate, paired over"
            " seeds, for the primary scenario, its loss counted over the packets the sources"
            " sent, the other input buffer readings (loss-buffer: the input queue CIOQ-RED"
            " adds is bounded lower) and ν = 0.25 (loss-nu: the input term halved)."))
    cause = loss_cause(variant_rows, variants, primary_setting)

    for ports in SIZES:
        if any(k[1] == ports and k[0] == "Paper" for k in study.cells):
            result.claims += _speedup_claims(study, ports)
            result.claims += _load_claims(study, ports,
                                          cause if ports == 4 else "variant not run (the"
                                          " variants are 4×4; see C7's)")
            result.claims += _nu_claims(study, ports)
    return result
