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
from qdisclab.figures.common import Estimate, figure_artifact, load_campaign_runs, t_interval

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


def _where(ports: int, kind: str) -> str:
    return f"§V.B, Fig. {FIGURE_NUMBER[(kind, ports)]} ({ports}×{ports})"


def _speedup_claims(study: Study, ports: int) -> list[Claim]:
    fabric = "Paper"
    xs = study.speedups(fabric, ports)
    where = _where(ports, "speedup")
    if len(xs) < 2:
        return [Claim(where, "queue lengths vs speedup", "fewer than two speedups run",
                      "not evaluated")]
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
        "agree" if within == len(xs) else "partly" if within >= len(xs) / 2 else "disagree"))

    # 2. They decrease with speedup and are very low from s ≈ 2 on.
    rho = float(np.mean([_spearman(xs, [e.mean for e in est[(q, INPUT)]]) for q in QDISCS]))
    first = {q: est[(q, INPUT)][0].mean for q in QDISCS}
    high = [k for k, s in enumerate(xs) if s >= 2.0]
    if high:
        k2 = high[0]
        ratios = {q: est[(q, INPUT)][k2].mean / first[q] if first[q] > 0 else math.nan
                  for q in QDISCS}
        low = all(r <= LOW_INPUT_RATIO for r in ratios.values())
        text = (f"Spearman ρ(speedup, input) = {rho:.2f} (mean of the three); at s = {xs[k2]:g}"
                f" the input queue is {max(ratios.values()):.0%} or less of its value at"
                f" s = {xs[0]:g} (" + ", ".join(
                    f"{LABELS[q]} {_fmt(first[q])} → {_fmt(est[(q, INPUT)][k2].mean)}"
                    for q in QDISCS) + " packets)")
        verdict = ("agree" if rho < -0.9 and low else "partly" if rho < -0.5 else "disagree")
    else:
        text = f"Spearman ρ(speedup, input) = {rho:.2f}; no speedup ≥ 2 run"
        verdict = "partly" if rho < -0.9 else "disagree"
    claims.append(Claim(where, "the input queue lengths decrease as the speedup grows and are"
                        " very low from a speedup of about 2 on", text, verdict))

    # 3. DropTail has the longest output queue.
    longest = sum(est[("DropTail", OUTPUT)][k].mean
                  >= max(est[(q, OUTPUT)][k].mean for q in QDISCS) for k in range(len(xs)))
    claims.append(Claim(
        where, "DropTail has the longest average output queue",
        f"DropTail's is the longest at {longest} of {len(xs)} speedups (at s = {xs[0]:g}: "
        + ", ".join(f"{LABELS[q]} {_fmt(est[(q, OUTPUT)][0].mean)}" for q in QDISCS)
        + f"; at s = {xs[-1]:g}: "
        + ", ".join(f"{LABELS[q]} {_fmt(est[(q, OUTPUT)][-1].mean)}" for q in QDISCS) + ")",
        "agree" if longest == len(xs) else "partly" if longest >= len(xs) / 2 else "disagree"))

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
        else "disagree"))

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
            "agree" if approach else "partly" if abs(late) < abs(gaps[0]) else "disagree"))
    return claims


def _load_claims(study: Study, ports: int) -> list[Claim]:
    fabric = "Paper"
    xs = study.loads(fabric, ports)
    where = _where(ports, "load")
    if not xs:
        return [Claim(where, "loss rate and utilisation vs load", "no load runs",
                      "not evaluated")]
    u = {q: study.series(fabric, ports, q, "load", xs, UTIL) for q in ("Red", "CioqRed")}
    lo = {q: study.series(fabric, ports, q, "load", xs, LOSS) for q in ("Red", "CioqRed")}
    du = [u["CioqRed"][k].mean - u["Red"][k].mean for k in range(len(xs))]
    dl = [lo["CioqRed"][k].mean - lo["Red"][k].mean for k in range(len(xs))]
    ku, kl = int(np.argmax(np.abs(du))), int(np.argmax(np.abs(dl)))
    higher = sum(d > 0 for d in dl)
    return [
        Claim(where, "RED and CIOQ-RED have almost the same utilisation (the gain in backlog"
              " does not cost utilisation)",
              f"largest |Δ| (CIOQ-RED − RED) {abs(du[ku]):.3f} at {xs[ku]} sessions"
              f" ({_fmt(u['Red'][ku].mean, 3)} vs {_fmt(u['CioqRed'][ku].mean, 3)}); rule:"
              f" ≤ {SAME_UTIL} agree, ≤ {2 * SAME_UTIL} partly",
              _closeness(abs(du[ku]), SAME_UTIL)),
        Claim(where, "RED and CIOQ-RED have almost the same loss rate; CIOQ-RED's is slightly"
              " larger (abstract)",
              f"CIOQ-RED's loss rate is higher at {higher} of {len(xs)} loads; largest |Δ|"
              f" {abs(dl[kl]):.4f} at {xs[kl]} sessions ({_fmt(lo['Red'][kl].mean, 4)} vs"
              f" {_fmt(lo['CioqRed'][kl].mean, 4)}); rule: ≤ {SAME_LOSS} agree,"
              f" ≤ {2 * SAME_LOSS} partly", _closeness(abs(dl[kl]), SAME_LOSS)),
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
        return [Claim(where, paper, "fewer than three values of ν run", "not evaluated")]
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
    return [Claim(where, paper, text, verdict)]


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

    for ports in SIZES:
        if any(k[1] == ports and k[0] == "Paper" for k in study.cells):
            result.claims += _speedup_claims(study, ports)
            result.claims += _load_claims(study, ports)
            result.claims += _nu_claims(study, ports)
    return result
