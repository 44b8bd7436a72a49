# SPDX-License-Identifier: GPL-2.0-only
"""Assured Service study (Kim, Park, Bahk): the runs beside the final campaign.

``sensitivity``
    ``campaigns/rio-assured-service-sensitivity.toml``: Table 1's 2 Mb/s class and mean queue
    against the unknowns, one at a time (queue limit, access rate, segment size, window, fast
    recovery, minimum RTO, SACK), for RIO 347/694/0.05 and RI+O with OUT 200/600 and 100/300.
``trace``
    one 2 Mb/s flow (flow 0, Table 1's RIO 347/694/0.05, seed 1) traced with and without SACK
    (``rio-assured-service --traceFlow=0``, files ``trace-nosack.csv`` and ``trace-sack.csv`` in
    ``results/rio-assured-service-trace/``): its loss-recovery episodes, against what ns-2's
    NewReno does (one window cut per episode, one retransmission per lost segment, nothing
    resent that the receiver has, timeouts aside).

Both are found beside the final campaign's database and drawn when present.
"""

from __future__ import annotations

import csv
import math
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from matplotlib.figure import Figure

from qdisclab.figures import Artifact, TableData
from qdisclab.figures.common import (
    NO_ESTIMATE,
    Estimate,
    figure_artifact,
    load_campaign_runs,
    t_interval,
)

SENSITIVITY = "rio-assured-service-sensitivity"
TRACE_DIR = "rio-assured-service-trace"

# ----------------------------------------------------------------- sensitivity

#: The sensitivity campaign's grids: (grid, parameter, the primary's value, label of a value).
UNKNOWNS = (
    ("tcp", "sack", False, lambda v: "SACK" if v else "no SACK"),
    ("queue-limit", "queueLimit", 1000, lambda v: f"{v} pkts"),
    ("access-rate", "accessRate", "100Mbps", lambda v: str(v).replace("Mbps", " Mb/s")),
    ("segment-size", "segmentSize", 1000, lambda v: f"{v} B"),
    ("window", "socketBuffer", 4 * 1024 * 1024,
     lambda v: "unlimited" if v >= 1 << 20 else f"{v // 1000} segs"),
    ("recovery", "recovery", "Classic", str),
    ("min-rto", "minRto", "1s", str),
)
#: The three Table 1 settings of the sensitivity grid, by (queueDisc, outMinTh).
SETTINGS = {("Rio", 10): "RIO 347/694/0.05", ("RiPlusO", 200): "RI+O OUT 200/600/0.01",
            ("RiPlusO", 100): "RI+O OUT 100/300/0.01"}

SENSITIVITY_HEADER = (
    "unknown", "parameter", "value", "primary", "setting", "n", "as0_mbps_mean", "as0_mbps_ci95",
    "be_mbps_mean", "mean_queue_packets_mean", "mean_queue_packets_ci95", "mean_queue_delay_ms",
    "mean_avg_total_packets", "mean_avg_in_packets", "out_queue_drops", "out_red_drops",
    "as0_out_drop_prob", "as0_retx_fraction", "as0_spurious_fraction", "as0_goodput_mbps")


def sensitivity_db(db_path: Path) -> Path | None:
    """The sensitivity campaign's database beside the final one's, if it was run."""
    path = Path(db_path).parent.parent / SENSITIVITY / "campaign.sqlite"
    return path if path.is_file() else None


def _estimate(runs: list[dict], metric: str) -> Estimate:
    values = [v for m in runs if (v := m.get(metric)) is not None and math.isfinite(v)]
    return t_interval(values) if values else NO_ESTIMATE


def sensitivity_cells(runs) -> dict[tuple[str, object, str], list[dict]]:
    """Metrics per (grid, value of its parameter, setting); the primary's runs (tcp grid,
    no SACK) are every grid's value at the primary."""
    cells: dict[tuple[str, object, str], list[dict]] = defaultdict(list)
    primary: dict[str, list[dict]] = defaultdict(list)
    parameters = {grid: (name, default) for grid, name, default, _ in UNKNOWNS}
    for run in runs:
        setting = SETTINGS.get((run.params.get("queueDisc"), run.params.get("outMinTh")))
        if run.grid not in parameters or setting is None or not run.metrics:
            continue
        name, default = parameters[run.grid]
        value = run.params.get(name, default)
        cells[(run.grid, value, setting)].append(run.metrics)
        if run.grid == "tcp" and value == default:
            primary[setting].append(run.metrics)
    for grid, (_, default) in parameters.items():
        for setting, metrics in primary.items():
            cells.setdefault((grid, default, setting), metrics)
    return cells


def sensitivity_artifact(db_path: Path, out_dir: Path) -> Artifact | None:
    """``sensitivity``: the 2 Mb/s class and the mean queue against each unknown."""
    path = sensitivity_db(db_path)
    if path is None:
        return None
    _, runs = load_campaign_runs(path)
    cells = sensitivity_cells(runs)
    if not cells:
        return None
    rows = []
    fig = Figure(figsize=(2.7 * len(UNKNOWNS), 6.4), layout="constrained")
    axes = fig.subplots(2, len(UNKNOWNS), squeeze=False)
    for column, (grid, name, default, label) in enumerate(UNKNOWNS):
        values = sorted({v for g, v, _ in cells if g == grid}, key=lambda v: (v != default, str(v)))
        for i, setting in enumerate(SETTINGS.values()):
            throughput, queue = [], []
            for value in values:
                metrics = cells.get((grid, value, setting), [])
                as0, q = _estimate(metrics, "as0_mbps"), _estimate(metrics, "mean_queue_packets")
                delay = _estimate(metrics, "mean_queue_delay_ms")
                throughput.append(as0)
                queue.append(delay)
                red = [m["out_early_drops"] + m["out_forced_drops"] - m["out_queue_drops"]
                       for m in metrics if m.get("out_early_drops") is not None]
                rows.append([grid, name, value, value == default, setting, as0.n, as0.mean,
                             as0.half_width, _estimate(metrics, "be_mbps").mean, q.mean,
                             q.half_width, delay.mean,
                             _estimate(metrics, "mean_avg_total_packets").mean,
                             _estimate(metrics, "mean_avg_in_packets").mean,
                             _estimate(metrics, "out_queue_drops").mean,
                             sum(red) / len(red) if red else None,
                             _estimate(metrics, "as0_out_drop_prob").mean,
                             _estimate(metrics, "as0_retx_fraction").mean,
                             _estimate(metrics, "as0_spurious_fraction").mean,
                             _estimate(metrics, "as0_goodput_mbps").mean])
            xs = [j + (i - 1) * 0.12 for j in range(len(values))]
            for axis, estimates in ((axes[0][column], throughput), (axes[1][column], queue)):
                axis.errorbar(xs, [e.mean for e in estimates],
                              yerr=[e.half_width if math.isfinite(e.half_width) else 0
                                    for e in estimates],
                              fmt="o", ms=4, capsize=2, color=f"C{i}", label=setting)
        ticks = [label(v) + (" *" if v == default else "") for v in values]
        for axis in axes[:, column]:
            axis.set_xticks(range(len(values)), ticks, fontsize=7, rotation=20)
            axis.grid(alpha=0.3)
        axes[0][column].set_title(name, fontsize=9)
    axes[0][0].set_ylabel("2 Mb/s class: throughput per flow (Mb/s)")
    axes[1][0].set_ylabel("mean queueing delay (ms)")
    axes[0][0].legend(fontsize=6)
    fig.suptitle("Sensitivity of Table 1 to the unknowns, one at a time from the primary (*):"
                 " mean ± 95 % CI over seeds", fontsize=10)
    return figure_artifact(
        fig, out_dir, "sensitivity", SENSITIVITY_HEADER, rows,
        "Sensitivity: Table 1's 2 Mb/s class and queue against the unknowns",
        "campaigns/rio-assured-service-sensitivity.toml: from the primary scenario (*: no SACK,"
        " classic recovery, 1000-packet limit, 100 Mb/s access links, 1000-byte segments, no"
        " window limit, 1 s minimum RTO), one unknown at a time, for RIO 347/694/0.05 and RI+O"
        " with OUT 200/600 and 100/300 (IN+OUT 347/694/0.05). sensitivity.csv also holds the"
        " mean queue in packets, RED's averages, the OUT drops by RI+O's test on avg_out"
        " (out_queue_drops) and by RIO's own tests (out_red_drops), and the 2 Mb/s class's"
        " retransmitted and spurious fractions.")


# ----------------------------------------------------------------- the TCP trace

TRACES = (("nosack", "without SACK (primary)"), ("sack", "with SACK (variant)"))


@dataclass
class Episode:
    """One loss-recovery episode of the traced flow: from leaving Open/Disorder for
    Recovery or Loss to being back in Open."""

    start: float
    kind: str = "fast recovery"  # or "timeout" (entered Loss, or fell into it)
    end: float = math.nan
    losses: int = 0  # the flow's drops after the previous episode ended, up to this one's end
    resent: int = 0  # retransmissions sent during the episode
    spurious: int = 0  # of which the receiver already had every byte
    cuts: int = 0  # ssthresh reductions during the episode
    cwnd_exit: float = math.nan  # segments
    resent_seqs: set = field(default_factory=set)


def read_trace(path: Path) -> list[dict]:
    """The rows of a ``--traceFlow`` CSV, times as floats."""
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        row["time_s"] = float(row["time_s"])
        row["seq"] = int(row["seq"])
        row["bytes"] = int(row["bytes"])
    return rows


def episodes(rows: list[dict], segment: int = 1000) -> list[Episode]:
    """The flow's loss-recovery episodes, with their losses, retransmissions (and spurious
    ones: a retransmission of the episode whose segment then left the bottleneck as a
    duplicate), ssthresh cuts and the window on exit."""
    found: list[Episode] = []
    current: Episode | None = None
    drops = 0
    ssthresh = math.inf
    cwnd = math.nan
    last_cut = math.nan  # time of the last ssthresh reduction
    closed: Episode | None = None  # the last episode that ended
    for row in rows:
        event = row["event"]
        if event == "drop":
            if current is None:
                drops += 1
            else:
                current.losses += 1
        elif event == "cwnd":
            cwnd = row["bytes"] / segment
            if closed is not None and closed.end == row["time_s"]:  # set as it returns to Open
                closed.cwnd_exit = cwnd
        elif event == "ssthresh":
            if row["bytes"] < ssthresh:
                last_cut = row["time_s"]
                if current is not None:
                    current.cuts += 1
            ssthresh = row["bytes"]
        elif event == "state":
            state = row["detail"]
            if state in ("Recovery", "Loss"):
                if current is None:
                    # A timeout cuts ssthresh just before its state change; fast recovery
                    # just after (counted as it comes).
                    current = Episode(row["time_s"], losses=drops,
                                      cuts=int(last_cut == row["time_s"]))
                    drops = 0
                    found.append(current)
                if state == "Loss":
                    current.kind = "timeout"
            elif state == "Open" and current is not None:
                current.end = row["time_s"]
                current.cwnd_exit = cwnd
                closed, current = current, None
        elif event == "resent" and current is not None:
            current.resent += 1
            current.resent_seqs.add(row["seq"])
        elif event == "spurious":
            owner = next((e for e in reversed(found) if row["seq"] in e.resent_seqs), None)
            if owner is not None:
                owner.spurious += 1
                owner.resent_seqs.discard(row["seq"])
    return found


EPISODE_HEADER = ("tcp", "episode", "start_s", "end_s", "kind", "losses", "resent", "spurious",
                  "ssthresh_cuts", "cwnd_exit_segments")


def trace_files(db_path: Path) -> dict[str, Path] | None:
    """The two trace files beside the final campaign's database, if both are there."""
    directory = Path(db_path).parent.parent / TRACE_DIR
    files = {name: directory / f"trace-{name}.csv" for name, _ in TRACES}
    return files if all(p.is_file() for p in files.values()) else None


#: TCP states at the time of a retransmission, grouped as the trace table reports them.
STATE_GROUPS = {"Recovery": "fast recovery", "Loss": "timeout recovery"}

TRACE_COLUMNS = ["TCP", "losses", "fast recoveries", "of which without a new loss", "timeouts",
                 "resent in fast recovery (spurious)", "resent in timeout recovery (spurious)",
                 "resent outside recovery (spurious)", "fast retransmits sent twice",
                 "resent < 100 ms after first sent"]


def retransmissions(rows: list[dict], twice_within: float = 0.05,
                    early: float = 0.1) -> dict[str, list[int]]:
    """Retransmissions by the TCP state they were sent in (fast recovery, timeout recovery,
    outside recovery: Open or Disorder, e.g. a timeout's go-back-N once back in Open), each
    [sent, spurious]; under "twice", those sent in fast recovery of a segment already resent
    less than ``twice_within`` s before; under "early", those sent less than ``early`` s (the
    propagation RTT) after the segment's first transmission, before any ACK could say it was
    lost."""
    counts = {group: [0, 0] for group in (*STATE_GROUPS.values(), "outside recovery")}
    counts["twice"] = [0, 0]
    counts["early"] = [0, 0]
    state = "Open"
    sent_in: dict[int, str] = {}
    first_sent: dict[int, float] = {}
    last_resent: dict[int, float] = {}
    for row in rows:
        event, seq = row["event"], row["seq"]
        if event == "state":
            state = row["detail"]
        elif event == "new":
            first_sent[seq] = row["time_s"]
        elif event == "resent":
            if row["time_s"] - first_sent.get(seq, -math.inf) < early:
                counts["early"][0] += 1
            group = STATE_GROUPS.get(state, "outside recovery")
            counts[group][0] += 1
            sent_in[seq] = group
            if state == "Recovery" and row["time_s"] - last_resent.get(seq, -math.inf) \
                    < twice_within:
                counts["twice"][0] += 1
            last_resent[seq] = row["time_s"]
        elif event == "spurious" and seq in sent_in:
            counts[sent_in.pop(seq)][1] += 1
    return counts


def trace_summary(rows: list[dict], found: list[Episode]) -> list[str]:
    """One TCP's row of the report's table (TRACE_COLUMNS after the first)."""
    fast = [e for e in found if e.kind == "fast recovery"]
    counts = retransmissions(rows)
    return [str(sum(1 for r in rows if r["event"] == "drop")), str(len(fast)),
            str(sum(1 for e in fast if e.losses == 0)),
            str(sum(1 for r in rows if r["event"] == "state" and r["detail"] == "Loss")),
            *(f"{sent} ({spurious})" for sent, spurious in
              (counts["fast recovery"], counts["timeout recovery"], counts["outside recovery"])),
            str(counts["twice"][0]), str(counts["early"][0])]


def trace_artifact(db_path: Path, out_dir: Path, window: tuple[float, float] = (9.0, 17.0)
                   ) -> Artifact | None:
    """``trace``: flow 0's window and loss recovery, without and with SACK."""
    files = trace_files(db_path)
    if files is None:
        return None
    fig = Figure(figsize=(11.0, 6.6), layout="constrained")
    axes = fig.subplots(len(TRACES), 1, sharex=True, squeeze=False)[:, 0]
    rows, table = [], []
    for axis, (name, label) in zip(axes, TRACES, strict=True):
        trace = read_trace(files[name])
        found = episodes(trace)
        for i, e in enumerate(found):
            rows.append([name, i, e.start, e.end, e.kind, e.losses, e.resent, e.spurious,
                         e.cuts, e.cwnd_exit])
        table.append([label, *trace_summary(trace, found)])
        low, high = window
        shown = [r for r in trace if low <= r["time_s"] <= high]
        for key, style, title in (("cwnd", "-", "cwnd"), ("ssthresh", "--", "ssthresh")):
            before = [r for r in trace if r["event"] == key and r["time_s"] < low]
            points = [(r["time_s"], r["bytes"] / 1000) for r in [*before[-1:], *shown]
                      if r["event"] == key and r["bytes"] < 1 << 30]
            if points:
                points[0] = (max(points[0][0], low), points[0][1])
            if points:
                axis.step(*zip(*points), style, where="post", lw=1, label=f"{title} (segments)")
        for event, marker, color, title in (("drop", "x", "C3", "dropped at the bottleneck"),
                                            ("resent", "|", "C1", "retransmitted"),
                                            ("spurious", ".", "C4",
                                             "spurious: the receiver had it")):
            ts = [r["time_s"] for r in shown if r["event"] == event]
            axis.plot(ts, [-1.5 - 1.5 * ("drop", "resent", "spurious").index(event)] * len(ts),
                      marker, color=color, ms=6, ls="none", label=title)
        for e in found:
            if e.start <= high and (math.isnan(e.end) or e.end >= low):
                axis.axvspan(max(e.start, low), min(e.end if math.isfinite(e.end) else high, high),
                             color="C3" if e.kind == "timeout" else "C0", alpha=0.12)
        axis.set_ylabel("segments")
        axis.set_title(f"flow 0 (2 Mb/s profile), {label}: shaded = fast recovery (blue),"
                       " timeout (red)", fontsize=9)
        axis.grid(alpha=0.3)
        axis.legend(fontsize=6, loc="upper right", ncols=2)
    axes[-1].set_xlabel("time (s)")
    fig.suptitle("ns-3 NewReno's loss recovery under RIO 347/694/0.05 (Table 1, seed 1)",
                 fontsize=10)
    artifact = figure_artifact(
        fig, out_dir, "trace", EPISODE_HEADER, rows,
        "TCP trace: one 2 Mb/s flow's loss recovery without and with SACK",
        "rio-assured-service --traceFlow=0 (Table 1's RIO 347/694/0.05, seed 1, 100 s), with"
        " --sack=false (the primary) and --sack=true. One row per loss-recovery episode in"
        " trace.csv; ns-2's NewReno cuts ssthresh once per episode, resends one segment per"
        " partial ACK and never resends what the receiver has outside a timeout's go-back-N."
        f" The figure shows {window[0]:g}-{window[1]:g} s.")
    artifact.table = TableData(TRACE_COLUMNS, table)
    return artifact
