# SPDX-License-Identifier: GPL-2.0-only
"""The CIOQ-RED reproduction's figures (matplotlib) and their CSV rows: the speedup and load
sweeps (Figs. 2-5), the ν trade-off, the calibration and the loss variant."""

from __future__ import annotations

import math

import numpy as np
from matplotlib.figure import Figure

from qdisclab.figures.cioq_red.analysis import (
    INPUT,
    LOSS,
    NU_VARIANT,
    OQ_QDISCS,
    OUTPUT,
    OUTPUT_QUEUED,
    UTIL,
    Setting,
    Study,
    delay_ms,
    loss_differences,
)
from qdisclab.figures.cioq_red.claims import SAME_LOSS, band_position
from qdisclab.figures.cioq_red.paper import (
    FABRIC_LABELS,
    LABELS,
    PAPER_NU,
    PAPER_SESSIONS,
    PAPER_SPEEDUP,
    QDISCS,
    READINGS,
    READING_LABELS,
)
from qdisclab.figures.common import Estimate, errorbar

COLORS = {"FIFO": "C0", "RED": "C1", "CIOQ-RED": "C2"}


# ----------------------------------------------------------------- figures


def _sweep_figure(study: Study, fabric: str, ports: int, axis_name: str, xs: list,
                  xlabel: str, panels: tuple, title: str,
                  queues: tuple[str, ...] = QDISCS) -> Figure:
    """The queue discs (default the three) along ``axis_name`` ("speedup" or "load"), in two
    panels: ``panels`` gives each its metric, y label and y-axis top (None: automatic)."""
    fig = Figure(figsize=(11.0, 4.2), layout="constrained")
    for axis, (metric, ylabel, top) in zip(fig.subplots(1, 2), panels, strict=True):
        for queue in queues:
            errorbar(axis, xs, study.series(fabric, ports, queue, axis_name, xs, metric),
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


def output_queued_load_figure(study: Study, ports: int, number: int) -> Figure:
    """Fig. 3 / 5 on ns-2.35's output-queued router: loss rate and utilisation vs load,
    DropTail and RED (ns-2 has no CIOQ switch, so no speedup and no CIOQ-RED)."""
    return _sweep_figure(
        study, OUTPUT_QUEUED, ports, "load", study.loads(OUTPUT_QUEUED, ports, OQ_QDISCS),
        "load (TCP sessions in 100 s)", ((LOSS, "loss rate", None), (UTIL, "utilisation", 1.0)),
        f"Figure {number} on ns-2.35: loss rate and utilisation of a {ports}×{ports}"
        f" output-queued router (the CIOQ switch's limit s = {ports}; mean ± 95 % CI)",
        queues=OQ_QDISCS)


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
                      color=COLORS["CIOQ-RED"], marker="o", markersize=4, capsize=3, lw=1.2,
                      label="CIOQ-RED over ν")
        for i, (nu, lo, ou) in enumerate(zip(nus, loss, out, strict=True)):
            bold = math.isclose(nu, PAPER_NU[ports])
            axis.annotate(f"ν={nu:g}" + (" (paper)" if bold else ""), (lo.mean, ou.mean),
                          textcoords="offset points", xytext=(5, 4 if i % 2 == 0 else -11),
                          fontsize=7, fontweight="bold" if bold else "normal")
        for queue in ("FIFO", "RED"):
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


# ----------------------------------------------------------------- CSV rows

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


def load_rows(study: Study, fabric: str, ports: int,
              queues: tuple[str, ...] = QDISCS) -> list[list]:
    rows = []
    for queue in queues:
        for sessions in study.loads(fabric, ports, queues):
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
        keys = [study.default_key("Paper", ports, q) for q in ("FIFO", "RED")]
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


# ----------------------------------------------------------------- calibration and variants


def sensitivity_figure(rows: list[list]) -> Figure:
    """The headline at s = 1.1 against the unknowns: CIOQ-RED's output queue relative to
    RED's and the loss-rate difference, per input buffer reading (x) and link delay
    (series), the chosen setting circled."""
    fig = Figure(figsize=(11.0, 4.4), layout="constrained")
    panels = fig.subplots(1, 2)
    readings = [r for r in READINGS if any(tuple(row[:2]) == r for row in rows)]
    delays = sorted({row[3] for row in rows}, key=delay_ms)
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
