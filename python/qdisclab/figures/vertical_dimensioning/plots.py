# SPDX-License-Identifier: GPL-2.0-only
"""The Vertical Dimensioning reproduction's figures (matplotlib) and their CSV rows: Figs. 4
and 5 per topology, the sensitivity figure and the variant figures."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure

from qdisclab.figures.common import Estimate, RunParams, errorbar
from qdisclab.figures.vertical_dimensioning.analysis import (
    SCHEDULER_STYLES,
    TOPOLOGY_DELAYS,
    Study,
    Variants,
    estimated_rtt_ms,
    main_variant,
    scheduler_order,
    static_ideal,
    variant_of,
)
from qdisclab.figures.vertical_dimensioning.claims import delay_tally
from qdisclab.figures.vertical_dimensioning.paper import (
    DELAY_STATS,
    PAPER_COMPARATORS,
    PAPER_SMALL_BUFFER,
)


# ----------------------------------------------------------------- styles


def _label(scheduler: str) -> str:
    return SCHEDULER_STYLES.get(scheduler, (scheduler,))[0]


def _style(scheduler: str, index: int) -> dict:
    _, color, line = SCHEDULER_STYLES.get(scheduler, (scheduler, f"C{5 + index}", "-"))
    return {"color": color, "ls": line}


def _errorbar(axis, xs, estimates: Sequence[Estimate], label: str, **style) -> None:
    errorbar(axis, xs, estimates, capsize=2.5, label=label, **style)


# ----------------------------------------------------------------- fig4: delay


def fig4_figure(study: Study) -> Figure:
    """Rows: buffer sizes; columns: mean, p99 and maximum delay per flow."""
    sizes = study.sizes
    fig = Figure(figsize=(14, 3.6 * len(sizes) + 0.6), layout="constrained")
    axes = fig.subplots(len(sizes), len(DELAY_STATS), squeeze=False)
    xs = study.weights
    for row, size in zip(axes, sizes, strict=True):
        for axis, (suffix, title) in zip(row, DELAY_STATS, strict=True):
            for k, scheduler in enumerate(study.schedulers):
                if (size, scheduler) not in study.cells:
                    continue
                estimates = [study.estimate(size, scheduler, f"flow{i}_{suffix}")
                             for i in study.flows]
                _errorbar(axis, xs, estimates, _label(scheduler), **_style(scheduler, k))
            axis.set_title(f"{title} delay, buffer {study.buffer_label(size)}", fontsize=10)
            axis.set_xlabel("reference flow i (weight i, 125·i kb/s)")
            axis.set_ylabel("end-to-end delay (ms)")
            axis.set_xticks(xs)
            axis.set_ylim(bottom=0)
            axis.grid(alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.suptitle("Figure 4: delay of the CBR reference flows (mean ± 95 % CI over seeds);"
                 f" {_topology_text(study)}", fontsize=11)
    return fig


def _topology_text(study: Study) -> str:
    return f"{study.variant[0]:g} ms links, our BDP {study.bdp_text}"


FIG4_HEADER = ("maxSize_bytes", "queueDisc", "flow", "weight", "n",
               "mean_delay_ms", "mean_delay_ms_ci95", "p99_delay_ms", "p99_delay_ms_ci95",
               "max_delay_ms", "max_delay_ms_ci95", "throughput_kbps", "loss")


def fig4_rows(study: Study) -> list[list]:
    rows = []
    for size in study.sizes:
        for scheduler in study.schedulers:
            if (size, scheduler) not in study.cells:
                continue
            for i, w in zip(study.flows, study.weights, strict=True):
                row = [size, scheduler, i, w]
                mean = study.estimate(size, scheduler, f"flow{i}_mean_delay_ms")
                row.append(mean.n)
                for suffix, _ in DELAY_STATS:
                    e = study.estimate(size, scheduler, f"flow{i}_{suffix}")
                    row += [e.mean, e.half_width]
                row += [study.estimate(size, scheduler, f"flow{i}_kbps").mean,
                        study.estimate(size, scheduler, f"flow{i}_loss").mean]
                rows.append(row)
    return rows


# ----------------------------------------------------------------- fig5: TCP throughput


def fig5_figure(study: Study) -> Figure:
    """One panel per buffer size (throughput per flow vs the ideal), and two summaries."""
    sizes = study.sizes
    columns = 3
    rows = math.ceil((len(sizes) + 2) / columns)
    fig = Figure(figsize=(15, 4.2 * rows + 0.6), layout="constrained")
    axes = list(fig.subplots(rows, columns, squeeze=False).flat)
    xs = study.weights
    for axis, size in zip(axes, sizes, strict=False):
        ideal = study.ideal(size)
        axis.plot(xs, [e.mean for e in ideal], color="black", lw=2, marker="s", markersize=4,
                  label="ideal weighted max-min share")
        axis.plot(xs, static_ideal(study), color="0.4", lw=1, ls="--",
                  label="static share 125·i kb/s")
        for k, scheduler in enumerate(study.schedulers):
            if (size, scheduler) not in study.cells:
                continue
            estimates = [study.estimate(size, scheduler, f"flow{i}_kbps") for i in study.flows]
            _errorbar(axis, xs, estimates, _label(scheduler), **_style(scheduler, k))
        axis.set_title(f"buffer {study.buffer_label(size)}", fontsize=10)
        axis.set_xlabel("reference flow i (weight i)")
        axis.set_ylabel("throughput (kb/s)")
        axis.set_xticks(xs)
        axis.set_ylim(bottom=0)
        axis.grid(alpha=0.3)
    if sizes:
        axes[0].legend(fontsize=7)
    error_axis, first_axis = axes[len(sizes)], axes[len(sizes) + 1]
    for k, scheduler in enumerate(study.schedulers):
        present = [s for s in sizes if (s, scheduler) in study.cells]
        if not present:
            continue
        _errorbar(error_axis, [s / 1000 for s in present],
                  [study.mean_abs_error(s, scheduler) for s in present], _label(scheduler),
                  **_style(scheduler, k))
        _errorbar(first_axis, [s / 1000 for s in present],
                  [study.relative_errors(s, scheduler)[0] for s in present], _label(scheduler),
                  **_style(scheduler, k))
    error_axis.set_title("mean over the flows of |throughput / ideal − 1|", fontsize=10)
    first_axis.set_title("weight-1 flow: throughput / ideal − 1", fontsize=10)
    first_axis.axhline(0, color="black", lw=0.8)
    _clip_above(first_axis, study, 1.0)
    for axis in (error_axis, first_axis):
        axis.set_xscale("log")
        axis.set_xticks([s / 1000 for s in sizes], [f"{s / 1000:g}" for s in sizes])
        axis.set_xticks([], minor=True)
        axis.set_xlabel("limit_ (packets per flow queue; ns-2's Queue/SRR)"
                        if study.per_queue_limit else "buffer (kB)")
        axis.grid(alpha=0.3)
    error_axis.set_ylim(bottom=0)
    error_axis.legend(fontsize=7)
    for axis in axes[len(sizes) + 2:]:
        axis.axis("off")
    fig.suptitle("Figure 5: throughput of the TCP reference flows vs the ideal weighted max-min"
                 f" share (mean ± 95 % CI over seeds); {_topology_text(study)}", fontsize=11)
    return fig


def _clip_above(axis, study: Study, top: float) -> None:
    """Limit the weight-1 panel to [-1.05, top]; write the values above it at the top."""
    axis.set_ylim(-1.05, top)
    for k, scheduler in enumerate(study.schedulers):
        for size in study.sizes:
            if (size, scheduler) not in study.cells:
                continue
            value = study.relative_errors(size, scheduler)[0].mean
            if math.isfinite(value) and value > top:
                axis.annotate(f"{_label(scheduler)}: {value:+.1f} ↑", (size / 1000, top),
                              xytext=(0, -12), textcoords="offset points", ha="center",
                              fontsize=7, color=_style(scheduler, k)["color"])


FIG5_HEADER = ("maxSize_bytes", "queueDisc", "flow", "weight", "n", "throughput_kbps",
               "throughput_kbps_ci95", "ideal_kbps", "ideal_nominal_kbps", "relative_error",
               "relative_error_ci95", "ideal_static_kbps")


def fig5_rows(study: Study) -> list[list]:
    rows = []
    for size in study.sizes:
        ideal = study.ideal(size)
        nominal = study.ideal(size, nominal=True)
        static = static_ideal(study)
        for scheduler in study.schedulers:
            if (size, scheduler) not in study.cells:
                continue
            errors = study.relative_errors(size, scheduler)
            for i, w in zip(study.flows, study.weights, strict=True):
                e = study.estimate(size, scheduler, f"flow{i}_kbps")
                rows.append([size, scheduler, i, w, e.n, e.mean, e.half_width,
                             ideal[i - 1].mean, nominal[i - 1].mean, errors[i - 1].mean,
                             errors[i - 1].half_width, static[i - 1]])
    return rows


# ----------------------------------------------------------------- sensitivity and variants

SENSITIVITY_HEADER = ("source", "link_delay_ms", "maxSize_bytes", "bdp_bytes", "bdp_fraction",
                      "queueDisc", "n", "mean_abs_error", "mean_abs_error_ci95",
                      "low_weights_ratio", "est_rtt_ms")


def sensitivity_rows(v: Variants) -> list[list]:
    """Fig. 5's headline against the buffer as a fraction of our BDP: the main topologies and
    the variant campaign's delay sweep (12500 B at 2, 3, 4 ms)."""
    # (Not ns-2.35's runs: a limit per flow queue is no fraction of the BDP.)
    studies = [("main", v.main[k]) for k in sorted(v.main)
               if k[0] == "tcp" and not v.main[k].per_queue_limit]
    for delay in sorted({variant[0] for r in v.runs or []
                         if (variant := variant_of(RunParams(r)))} - set(TOPOLOGY_DELAYS)):
        studies.append(("delay sweep", v.study("tcp", main_variant(delay))))
    rows = []
    for source, study in studies:
        low = [i for i, w in zip(study.flows, study.weights, strict=True) if w <= 2]
        for size in study.sizes:
            for scheduler in study.schedulers:
                if (size, scheduler) not in study.cells or scheduler in ("FIFO", "DRR-tail"):
                    continue
                e = study.mean_abs_error(size, scheduler)
                errors = study.relative_errors(size, scheduler)
                rtts = [x for r in study.cells[(size, scheduler)].values()
                        if (x := estimated_rtt_ms(RunParams(r), r.metrics)) is not None]
                rows.append([source, study.variant[0], size, study.bdp, size / study.bdp,
                             scheduler, e.n, e.mean, e.half_width,
                             float(np.mean([1 + errors[i - 1].mean for i in low])),
                             float(np.mean(rtts)) if rtts else math.nan])
    return rows


def sensitivity_figure(rows: list[list]) -> Figure:
    fig = Figure(figsize=(15, 4.4), layout="constrained")
    axes = fig.subplots(1, 3)
    # 1 ms links: circles, 5 ms: triangles, the delay sweep (2-4 ms): squares.
    markers = {("main", 1.0): "o", ("main", 5.0): "^"}
    for k, scheduler in enumerate(scheduler_order({r[5] for r in rows})):
        style = _style(scheduler, k)
        for group in dict.fromkeys((r[0], r[1] if r[0] == "main" else None) for r in rows):
            mine = sorted((r for r in rows if r[5] == scheduler and r[0] == group[0]
                           and (group[1] is None or r[1] == group[1])), key=lambda r: r[4])
            if not mine:
                continue
            marker = markers.get(group, "s")
            where = f"{group[1]:g} ms" if group[1] is not None else group[0]
            label = f"{_label(scheduler)} ({where})"
            axes[0].errorbar([r[4] for r in mine], [r[7] for r in mine],
                             yerr=[r[8] if math.isfinite(r[8]) else 0 for r in mine],
                             marker=marker, ls="none", capsize=2, label=label,
                             color=style["color"])
            axes[1].plot([r[4] for r in mine], [r[9] for r in mine], marker=marker,
                         ls="none", color=style["color"], label=label)
        at_paper = sorted((r for r in rows if r[5] == scheduler and r[2] == PAPER_SMALL_BUFFER),
                          key=lambda r: r[1])
        axes[2].plot([r[1] for r in at_paper], [r[10] for r in at_paper], marker="o",
                     color=style["color"], label=_label(scheduler))
    for axis in axes[:2]:
        axis.set_xscale("log")
        axis.axvline(0.25, color="0.4", ls=":", lw=1)
        axis.set_xlabel("buffer / our BDP (10 Mb/s × propagation RTT)")
        axis.grid(alpha=0.3)
    axes[0].set_title("Fig. 5: mean |throughput / ideal − 1| over the flows", fontsize=10)
    axes[0].set_ylim(bottom=0)
    axes[0].legend(fontsize=6, ncol=2)
    axes[1].set_title("weights 1–2: throughput / ideal (mean)", fontsize=10)
    axes[1].axhline(1, color="black", lw=0.8)
    axes[2].set_title("12 500 B: estimated average RTT (propagation + queues)", fontsize=10)
    axes[2].axhline(40, color="0.4", ls=":", lw=1)
    axes[2].set_xlabel("delay of every link (ms)")
    axes[2].set_ylabel("RTT (ms)")
    axes[2].grid(alpha=0.3)
    axes[2].legend(fontsize=7)
    fig.suptitle("Sensitivity of Fig. 5 to the BDP (link delay, U3) and the buffer (U8); dotted:"
                 " the paper's 25 % and the 40 ms RTT it implies", fontsize=11)
    return fig


VARIANT4_HEADER = ("variant", "link_delay_ms", "maxSize_bytes", "comparator", "seeds", "wins",
                   "ties", "losses", "vd_p99_w8_10_ms", "comparator_p99_w8_10_ms")


def variant4_rows(v: Variants) -> list[list]:
    rows = []
    for delay in TOPOLOGY_DELAYS:
        main = v.main.get(("cbr", delay))
        if main is None:
            continue
        settings = [("nodrop", v.study("cbr", main_variant(delay)))]
        keep = v.study("cbr", (delay, "pareto", "keep"))
        if keep.cells:
            settings += [("fresh (main, same seeds)", main.restricted(v.seeds(keep))),
                         ("keep", keep.with_cells(main, PAPER_COMPARATORS))]
        settings.append(("exponential", v.study("cbr", (delay, "exponential", "fresh"))))
        heavy = [i for i, w in zip(main.flows, main.weights, strict=True) if w > 7]
        for name, study in settings:
            for size in study.sizes:
                for other in PAPER_COMPARATORS:
                    if (size, "VD") not in study.cells or (size, other) not in study.cells:
                        continue
                    t = delay_tally(study, size, other)
                    p99 = [float(np.mean([study.estimate(size, q, f"flow{i}_p99_delay_ms").mean
                                          for i in heavy])) for q in ("VD", other)]
                    rows.append([name, delay, size, other, len(v.seeds(study)), t.wins, t.ties,
                                 t.losses, *p99])
    return rows


def variant4_figure(rows: list[list]) -> Figure:
    fig = Figure(figsize=(15, 4.6), layout="constrained")
    axes = fig.subplots(1, len(PAPER_COMPARATORS))
    for axis, other in zip(axes, PAPER_COMPARATORS, strict=True):
        mine = [r for r in rows if r[3] == other]
        labels = [f"{r[0]}\n{r[1]:g} ms, {r[2] / 1000:g} kB" for r in mine]
        xs = np.arange(len(mine))
        bottom = np.zeros(len(mine))
        for column, name, color in ((5, "VD lower (win)", "C2"), (6, "tie", "0.7"),
                                    (7, "VD higher (loss)", "C3")):
            values = np.array([r[column] for r in mine], dtype=float)
            axis.bar(xs, values, bottom=bottom, color=color, label=name)
            bottom += values
        axis.set_xticks(xs, labels, rotation=90, fontsize=6)
        axis.set_title(f"VD vs {other}: (flow, statistic) delay cases", fontsize=10)
    axes[0].legend(fontsize=7)
    fig.suptitle("Fig. 4 variants (3 seeds): no overflow, VD keeping returning flows' rounds,"
                 " exponential on/off", fontsize=11)
    return fig


VARIANT5_HEADER = ("variant", "link_delay_ms", "maxSize_bytes", "queueDisc", "seeds",
                   "mean_abs_error", "mean_abs_error_ci95")


def variant5_rows(v: Variants) -> list[list]:
    rows = []
    for delay in TOPOLOGY_DELAYS:
        main = v.main.get(("tcp", delay))
        if main is None:
            continue
        keep = v.study("tcp", (delay, "pareto", "keep"))
        exp = v.study("tcp", (delay, "exponential", "fresh"))
        seeds = v.seeds(keep) or v.seeds(exp)
        for name, study in (("fresh (main, same seeds)", main.restricted(seeds)), ("keep", keep),
                            ("exponential", exp)):
            for size in study.sizes:
                if size != PAPER_SMALL_BUFFER:
                    continue
                for scheduler in study.schedulers:
                    if scheduler in ("FIFO", "DRR-tail"):
                        continue
                    e = study.mean_abs_error(size, scheduler)
                    rows.append([name, delay, size, scheduler, e.n, e.mean, e.half_width])
    return rows


def variant5_figure(rows: list[list]) -> Figure:
    fig = Figure(figsize=(10, 4.4), layout="constrained")
    axis = fig.subplots()
    groups = list(dict.fromkeys((r[0], r[1]) for r in rows))
    schedulers = scheduler_order({r[3] for r in rows})
    width = 0.8 / max(len(schedulers), 1)
    for k, scheduler in enumerate(schedulers):
        values = [next((r[5] for r in rows if (r[0], r[1]) == g and r[3] == scheduler), math.nan)
                  for g in groups]
        axis.bar(np.arange(len(groups)) + k * width, values, width, label=_label(scheduler),
                 color=_style(scheduler, k)["color"])
    axis.set_xticks(np.arange(len(groups)) + 0.4 - width / 2,
                    [f"{name}\n{delay:g} ms" for name, delay in groups], fontsize=7)
    axis.set_ylabel("mean |throughput / ideal − 1|")
    axis.set_title("Fig. 5 at 12 500 B: variants (3 seeds)", fontsize=10)
    axis.legend(fontsize=7)
    axis.grid(alpha=0.3, axis="y")
    return fig
