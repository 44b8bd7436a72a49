# SPDX-License-Identifier: GPL-2.0-only
"""Figures and tables of the demos: FIFO vs RED, and the weighted-fairness run.

Only matplotlib's object API (``Figure``) is used, rendered by the Agg/PDF
backends without a display and without pyplot's global state.
"""

import csv
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from qdisclab.figures.common import save_figure
from qdisclab.metrics import run_label

QUEUE_TRACE_HEADER = ("time_s", "packets", "bytes")


@dataclass(frozen=True)
class DemoArtifacts:
    """Files written by :func:`plot_demo`."""

    png: Path
    pdf: Path
    csv: Path


def read_queue_trace(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """Return the ``time_s`` and ``packets`` columns of a queue-trace CSV."""
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    if not rows or tuple(col.strip() for col in rows[0]) != QUEUE_TRACE_HEADER:
        raise ValueError(f"{path}: expected header {','.join(QUEUE_TRACE_HEADER)}")
    data = np.array([[float(v) for v in row[:2]] for row in rows[1:] if row], dtype=float)
    if data.size == 0:
        return np.empty(0), np.empty(0)
    return data[:, 0], data[:, 1]


def metric_names(docs: Sequence[dict]) -> list[str]:
    """Union of the metric names of ``docs``, in first-seen order."""
    names: dict[str, None] = {}
    for doc in docs:
        names.update(dict.fromkeys(doc["metrics"]))
    return list(names)


def write_metrics_csv(docs: Sequence[dict], path: Path) -> Path:
    """Write one row per run: ``queue_disc`` then every metric (empty when null)."""
    names = metric_names(docs)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["queue_disc", *names])
        for index, doc in enumerate(docs):
            values = [doc["metrics"].get(name) for name in names]
            writer.writerow([run_label(doc, index), *("" if v is None else v for v in values)])
    return path


def _value(doc: dict, name: str) -> float:
    value = doc["metrics"].get(name)
    return float("nan") if value is None else float(value)


def _headroom(axis, values: list[float]) -> None:
    """Start ``axis`` at 0 and leave room above the tallest bar for labels and legend."""
    finite = [v for v in values if np.isfinite(v)]
    top = max(finite, default=0.0)
    axis.set_ylim(0, top * 1.3 if top > 0 else 1)


def demo_figure(docs: Sequence[dict], traces: Sequence[Path]) -> Figure:
    """Queue length over time (left) and goodput / mean queueing delay bars (right)."""
    fig = Figure(figsize=(11, 4.2), layout="constrained")
    left, right = fig.subplots(1, 2, width_ratios=[1.6, 1])
    labels = [run_label(doc, i) for i, doc in enumerate(docs)]
    colors = [f"C{i}" for i in range(len(docs))]

    for label, color, trace in zip(labels, colors, traces, strict=True):
        times, packets = read_queue_trace(trace)
        left.plot(times, packets, drawstyle="steps-post", color=color, lw=1, label=label)
    left.set_xlabel("Time (s)")
    left.set_ylabel("Queue length (packets)")
    left.set_title("Bottleneck queue")
    left.set_ylim(bottom=0)
    left.grid(alpha=0.3)
    left.legend()

    # Goodput and delay have different units: one y axis each, one bar group each.
    delay_axis = right.twinx()
    width = 0.7 / max(len(docs), 1)
    for i, (doc, label, color) in enumerate(zip(docs, labels, colors, strict=True)):
        offset = (i - (len(docs) - 1) / 2) * width
        bars = right.bar(offset, _value(doc, "tcp_goodput_mbps"), width, color=color, label=label)
        right.bar_label(bars, fmt="%.2f", fontsize=8)
        bars = delay_axis.bar(
            1 + offset, _value(doc, "mean_queue_delay_ms"), width, color=color, hatch="//"
        )
        delay_axis.bar_label(bars, fmt="%.1f", fontsize=8)
    right.set_xticks([0, 1], ["Goodput", "Mean queueing delay"])
    right.set_ylabel("Goodput (Mb/s)")
    delay_axis.set_ylabel("Mean queueing delay (ms, hatched)")
    _headroom(right, [_value(doc, "tcp_goodput_mbps") for doc in docs])
    _headroom(delay_axis, [_value(doc, "mean_queue_delay_ms") for doc in docs])
    right.set_title("Throughput and delay")
    # The twin axis is drawn on top: put the legend there so bars cannot hide it.
    delay_axis.legend(*right.get_legend_handles_labels(), loc="upper center", ncols=len(docs))

    if docs:
        params = docs[0].get("params", {})
        keys = ("bottleneckRate", "bottleneckDelay", "nTcp", "simTime")
        details = ", ".join(f"{key}={params[key]}" for key in keys if key in params)
        fig.suptitle(f"{docs[0].get('program', 'demo')}: {' vs '.join(labels)}  ({details})")
    return fig


def plot_demo(
    docs: Sequence[dict],
    traces: Sequence[Path],
    out_dir: Path,
    stem: str = "demo-fifo-vs-red",
) -> DemoArtifacts:
    """Write ``<stem>.png``, ``<stem>.pdf`` and ``<stem>.csv`` into ``out_dir``.

    ``docs`` are validated metrics objects (see :mod:`qdisclab.metrics`) and
    ``traces`` their queue-trace CSVs (``time_s,packets,bytes``), in the same order.
    """
    if len(docs) != len(traces):
        raise ValueError("need one queue trace per metrics document")
    out_dir.mkdir(parents=True, exist_ok=True)
    artifacts = DemoArtifacts(
        png=out_dir / f"{stem}.png", pdf=out_dir / f"{stem}.pdf", csv=out_dir / f"{stem}.csv"
    )
    save_figure(demo_figure(docs, traces), out_dir, stem)
    write_metrics_csv(docs, artifacts.csv)
    return artifacts


#: Colours and line styles of the fairness demo's schedulers.
FAIRNESS_STYLES = {"VD": ("C0", "-"), "DRR": ("C3", "-"), "FIFO": ("0.5", ":")}
FAIRNESS_HEADER = ("queue_disc", "seed", "flow", "weight", "throughput_kbps", "ideal_kbps",
                   "throughput_over_ideal")
#: The ratio panel's log-scale range: a ratio outside it is drawn at its edge.
RATIO_RANGE = (0.01, 10.0)
RATIO_TICKS = (0.01, 0.03, 0.1, 0.3, 1, 3, 10)


def _fairness_rows(docs: Sequence[dict]) -> list[list]:
    """One row per (run, reference flow): throughput, ideal share and their ratio."""
    from qdisclab.figures.vertical_dimensioning import run_ideal, weights_of

    rows = []
    for index, doc in enumerate(docs):
        ideal = run_ideal(doc["params"], doc["metrics"]) or []
        seed = doc["params"].get("RngRun", "")
        for i, weight in enumerate(weights_of(doc["params"]), start=1):
            x = _value(doc, f"flow{i}_kbps")
            share = ideal[i - 1] if i <= len(ideal) else float("nan")
            rows.append([run_label(doc, index), seed, i, weight, x, share, x / share])
    return rows


def fairness_estimates(docs: Sequence[dict]) -> dict[str, list[tuple]]:
    """Per queue disc, one (weight, throughput, ideal, ratio) per flow over the runs (seeds):
    throughput and ratio as ``Estimate`` (mean and 95 % Student-t half-width), ideal a mean."""
    from qdisclab.figures.common import t_interval

    rows = _fairness_rows(docs)
    out: dict[str, list[tuple]] = {}
    for label in dict.fromkeys(row[0] for row in rows):
        mine = [row for row in rows if row[0] == label]
        flows = list(dict.fromkeys(row[2] for row in mine))
        out[label] = []
        for flow in flows:
            runs = [row for row in mine if row[2] == flow]
            out[label].append((runs[0][3], t_interval(r[4] for r in runs),
                               float(np.mean([r[5] for r in runs])),
                               t_interval(r[6] for r in runs)))
    return out


def _errorbar(axis, x, estimates, color, line, label, clip=None):
    means = np.array([e.mean for e in estimates])
    halves = np.array([e.half_width if np.isfinite(e.half_width) else 0.0 for e in estimates])
    low, high = means - halves, means + halves
    if clip:
        means, low, high = (np.clip(v, *clip) for v in (means, low, high))
    axis.errorbar(x, means, yerr=[means - low, high - means], color=color, ls=line, marker="o",
                  markersize=4, capsize=3, label=label)


def fairness_figure(docs: Sequence[dict]) -> Figure:
    """Throughput per reference flow against the ideal share (left) and their ratio (right,
    log scale), each the mean over the runs of a queue disc with its 95 % interval."""
    fig = Figure(figsize=(11, 4.2), layout="constrained")
    left, right = fig.subplots(1, 2)
    estimates = fairness_estimates(docs)
    labels = list(estimates)
    first = estimates[labels[0]] if labels else []
    left.plot([f[0] for f in first], [f[2] for f in first], color="black", lw=2, marker="s",
              markersize=4, label="ideal weighted max-min share")
    for k, label in enumerate(labels):
        flows = estimates[label]
        color, line = FAIRNESS_STYLES.get(label, (f"C{k + 4}", "-"))
        weights = [f[0] for f in flows]
        _errorbar(left, weights, [f[1] for f in flows], color, line, label)
        _errorbar(right, weights, [f[3] for f in flows], color, line, label, RATIO_RANGE)
    runs = max((f[1].n for flows in estimates.values() for f in flows), default=0)
    left.set_xlabel("TCP flow's weight")
    left.set_ylabel("Throughput (kb/s)")
    left.set_title(f"Throughput per flow (mean of {runs} seeds, 95 % CI)" if runs > 1
                   else "Throughput per flow")
    left.set_ylim(bottom=0)
    left.legend(fontsize=8)
    right.axhline(1, color="black", lw=1)
    right.set_xlabel("TCP flow's weight")
    right.set_ylabel("Throughput / ideal share (log scale)")
    right.set_title("Share of the ideal (1 = fair)")
    right.set_yscale("log")
    right.set_ylim(*RATIO_RANGE)
    right.set_yticks(RATIO_TICKS, [f"{t:g}" for t in RATIO_TICKS])
    right.minorticks_off()
    right.legend(fontsize=8)
    for axis in (left, right):
        axis.grid(alpha=0.3)
        if first:
            axis.set_xticks([f[0] for f in first])
    if docs:
        params = docs[0].get("params", {})
        keys = ("coreRate", "maxSize", "simTime")
        details = ", ".join(f"{key}={params[key]}" for key in keys if key in params)
        fig.suptitle(f"Weighted fairness on the parking lot: {' vs '.join(labels)}  ({details})")
    return fig


def plot_fairness_demo(docs: Sequence[dict], out_dir: Path,
                       stem: str = "demo-fairness") -> DemoArtifacts:
    """Write ``<stem>.png``, ``<stem>.pdf`` and ``<stem>.csv`` into ``out_dir``.

    ``docs`` are validated metrics objects of vertical-dimensioning-evaluation runs with
    TCP reference flows; the CSV has one row per (queue disc, flow).
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    artifacts = DemoArtifacts(
        png=out_dir / f"{stem}.png", pdf=out_dir / f"{stem}.pdf", csv=out_dir / f"{stem}.csv"
    )
    save_figure(fairness_figure(docs), out_dir, stem)
    with open(artifacts.csv, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(FAIRNESS_HEADER)
        writer.writerows(_fairness_rows(docs))
    return artifacts
