# SPDX-License-Identifier: GPL-2.0-only
"""The Assured Service study's figures (matplotlib), their CSV rows and artifacts: Table 1,
Figs. 2 and 3, the sensitivity and trace figures found beside the final campaign, and the
variants."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from matplotlib.figure import Figure

from qdisclab.figures import Artifact, TableData
from qdisclab.figures.common import (
    NO_ESTIMATE,
    Estimate,
    errorbar,
    figure_artifact,
    load_campaign_runs,
    save_figure,
    t_interval,
    write_csv,
)
from qdisclab.figures.rio_assured_service.analysis import (
    CLASS_METRICS,
    CRITERIA,
    SETTINGS,
    TRACES,
    UNKNOWNS,
    Criterion,
    Curve,
    Table1Row,
    Table1View,
    Variant,
    be_label,
    episodes,
    paper_row,
    percent_label,
    read_trace,
    sensitivity_cells,
    sensitivity_db,
    setting_label,
    table1_fair_share,
    trace_files,
    trace_summary,
)
from qdisclab.figures.rio_assured_service.claims import Analysis
from qdisclab.figures.rio_assured_service.paper import (
    FIG2_PROFILES,
    FIG3_PROFILES,
    PAPER_BEST_RIO,
    SCHEMES,
    SCHEME_LABELS,
    TABLE1_COLUMNS,
    TABLE1_PROFILES,
)


# ----------------------------------------------------------------- Table 1

TABLE1_HEADER = ("row", "queueDisc", "total_setting", "out_setting", "class", "profile_mbps",
                 "mbps_mean", "mbps_ci95", "n", "paper_mbps", "fair_share_mbps")


def table1_csv_rows(view: Table1View) -> list[list]:
    """One CSV row per (row, class): every setting run, then the maxima and best rows."""
    fair = table1_fair_share()
    out: list[list] = []

    def add(role: str, row: Table1Row, k: int, paper: tuple[float, ...] | None) -> None:
        profile = TABLE1_PROFILES[k] if k < len(TABLE1_PROFILES) else 0.0
        e = row.classes[k]
        out.append([role, row.queue, setting_label(row.total),
                     setting_label(row.out) if row.queue == "RI+O" else "",
                     TABLE1_COLUMNS[k], profile, e.mean, e.half_width, e.n,
                     paper[k] if paper else None, fair[k]])

    for row in view.rows:
        for k in range(len(CLASS_METRICS)):
            add("RIO setting" if row.queue == "RIO" else "RI+O setting", row, k, paper_row(row))
    for maxima, paper in ((view.rio_max, PAPER_BEST_RIO), (view.riplus_max, None)):
        if maxima:
            for k, row in enumerate(maxima.argmax):
                add(f"{SCHEME_LABELS[maxima.queue]} per-class maximum", row, k, paper)
    for single in (view.rio_best, view.riplus_best):
        if single:
            for k in range(len(CLASS_METRICS)):
                add(f"{SCHEME_LABELS[single.queue]} single best setting", single, k, None)
    return out


def table1_artifact(view: Table1View, out_dir: Path, buckets: str) -> Artifact:
    """table1.csv, the table for the report and table1.png/.pdf."""
    fair = table1_fair_share()
    csv = write_csv(out_dir / "table1.csv", TABLE1_HEADER, table1_csv_rows(view))
    shown = view.shown()
    columns = ["setting"] + [f"{c} Mb/s" if c != "BE" else "BE (paper: 0.05)"
                             for c in TABLE1_COLUMNS]
    table_rows = []
    for label, classes, paper in shown:
        cells = [label]
        for k, e in enumerate(classes):
            cells.append(e.format(3) + (f" ({paper[k]:.3f})" if paper else ""))
        table_rows.append(cells)
    table_rows.append(["Fair share"] + [f"{f:.3f}" for f in fair])
    png = pdf = None
    if shown:
        png, pdf = save_figure(table1_figure(shown, fair), out_dir, "table1")
    seeds = sorted({r.seeds for r in view.rows})
    return Artifact(
        "table1",
        "Table 1: RIO vs RI+O, mean throughput per profile (Mb/s)",
        f"20 AS flows (profiles 2, 1, 0.5, 0.2, 0.1 Mb/s, four each, {buckets} token buckets)"
        " and 20 BE flows on 20 Mb/s, RTT 100 ms, 1000-packet queue, IN 390/694/0.02. Ours:"
        " mean ± 95 % CI over seeds (" + "/".join(map(str, seeds)) + " runs) of the class's"
        " per-flow mean; the paper's in parentheses. RI+O rows use IN+OUT 347/694/0.05."
        " The paper's \u201cbest RIO\u201d adds up to 20.86 Mb/s on a 20 Mb/s link, so it is"
        " compared with our per-class maxima (per class, the best of the settings searched:"
        " ten IN+OUT settings for RIO, the five OUT settings for RI+O); the single best setting"
        " (the one whose 2 Mb/s flows get the most) is the row below it. Every setting is in"
        " table1.csv.",
        csv, png, pdf, TableData(columns, table_rows))


def table1_figure(shown: list[tuple[str, list[Estimate], tuple[float, ...] | None]],
                  fair: Sequence[float]) -> Figure:
    """Throughput per class of each shown row (ours with CIs, the paper's hollow)."""
    fig = Figure(figsize=(12.0, 5.4), layout="constrained")
    axis = fig.subplots()
    n = len(shown)
    width = 0.8 / max(n, 1)
    xs = list(range(len(TABLE1_COLUMNS)))
    for i, (label, classes, paper) in enumerate(shown):
        offset = (i - (n - 1) / 2) * width
        means = [e.mean for e in classes]
        errors = [e.half_width if math.isfinite(e.half_width) else 0.0 for e in classes]
        axis.errorbar([x + offset for x in xs], means, yerr=errors, fmt="o", ms=4, capsize=2,
                      color=f"C{i % 10}", label=label)
        if paper:
            axis.plot([x + offset for x in xs], paper, "o", ms=7, mfc="none", color=f"C{i % 10}")
    for x, value in zip(xs, fair, strict=True):
        axis.hlines(value, x - 0.45, x + 0.45, color="black", lw=1.2)
    for x, profile in zip(xs, TABLE1_PROFILES, strict=False):
        axis.hlines(profile, x - 0.45, x + 0.45, color="grey", lw=1, ls=":")
    axis.set_xticks(xs, [f"{c} Mb/s" if c != "BE" else "BE" for c in TABLE1_COLUMNS])
    axis.set_xlabel("profile class")
    axis.set_ylabel("throughput per flow (Mb/s)")
    axis.set_yscale("log")
    axis.grid(alpha=0.3, which="both")
    axis.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    axis.set_title("Table 1: filled = ours (mean ± 95 % CI), hollow = the paper's; black = fair"
                   " share, dotted = profile", fontsize=9)
    return fig


# ----------------------------------------------------------------- sensitivity

SENSITIVITY_HEADER = (
    "unknown", "parameter", "value", "primary", "setting", "n", "as0_mbps_mean", "as0_mbps_ci95",
    "be_mbps_mean", "mean_queue_packets_mean", "mean_queue_packets_ci95", "mean_queue_delay_ms",
    "mean_avg_total_packets", "mean_avg_in_packets", "out_queue_drops", "out_red_drops",
    "as0_out_drop_prob", "as0_retx_fraction", "as0_spurious_fraction", "as0_goodput_mbps")


def _estimate(runs: list[dict], metric: str) -> Estimate:
    values = [v for m in runs if (v := m.get(metric)) is not None and math.isfinite(v)]
    return t_interval(values) if values else NO_ESTIMATE


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

EPISODE_HEADER = ("tcp", "episode", "start_s", "end_s", "kind", "losses", "resent", "spurious",
                  "ssthresh_cuts", "cwnd_exit_segments")

TRACE_COLUMNS = ["TCP", "losses", "fast recoveries", "of which without a new loss", "timeouts",
                 "resent in fast recovery (spurious)", "resent in timeout recovery (spurious)",
                 "resent outside recovery (spurious)", "fast retransmits sent twice",
                 "resent < 100 ms after first sent"]


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


# ----------------------------------------------------------------- Figs. 2 and 3


def curves_figure(curves: dict[tuple[float, str], Curve], panels: list[float], title: str,
                  panel_title, xlabel: str, categorical: bool,
                  paper: dict[tuple[float, str], float | None], x_label) -> Figure:
    """One panel per ``panels`` value: RIO and RI+O with CIs, the profile, the paper's limit."""
    fig = Figure(figsize=(max(5.2 * len(panels), 8.0), 4.4), layout="constrained")
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for axis, panel in zip(axes, panels, strict=True):
        profile = None
        all_xs = sorted({x for (p, _), c in curves.items() if p == panel for x in c.xs()})
        position = {x: i for i, x in enumerate(all_xs)} if categorical else {x: x for x in all_xs}
        for i, queue in enumerate(SCHEMES):
            curve = curves.get((panel, queue))
            if curve is None:
                continue
            profile = curve.profile
            xs = curve.xs()
            errorbar(axis, [position[x] for x in xs], [curve.estimate(x) for x in xs],
                     color=f"C{i}", label=f"{SCHEME_LABELS[queue]} (ours)")
            limit = paper.get((panel, queue), "absent")
            if limit != "absent" and limit is not None and limit in position:
                axis.axvline(position[limit], color=f"C{i}", ls="--", lw=0.9,
                             label=f"{SCHEME_LABELS[queue]}: paper's last point meeting it")
        if profile is not None:
            axis.axhline(profile, color="black", lw=1, ls=":", label="profile")
        if categorical:
            axis.set_xticks(range(len(all_xs)), [x_label(x) for x in all_xs])
        axis.set_xlabel(xlabel)
        axis.set_ylabel("throughput per AS flow (Mb/s)")
        axis.set_ylim(bottom=0)
        axis.grid(alpha=0.3)
        axis.set_title(panel_title(panel), fontsize=10)
        axis.legend(fontsize=7)
    fig.suptitle(title, fontsize=10)
    return fig


CURVE_HEADER = ("panel", "profile_mbps", "queueDisc", "x", "as_mbps_mean", "as_mbps_ci95", "n",
                "as_min_mbps_mean", "as_in_mbps_mean", "be_mbps_mean", "mean_queue_packets",
                "meets_profile", "status")


def curve_rows(curves: dict[tuple[float, str], Curve],
               criterion: Criterion = CRITERIA[0]) -> list[list]:
    """One CSV row per (panel, scheme, x); meets_profile and status by ``criterion``."""
    rows = []
    for (panel, queue), curve in sorted(curves.items()):
        for x in curve.xs():
            e = curve.estimate(x)
            rows.append([panel, curve.profile, queue, x, e.mean, e.half_width, e.n,
                         curve.estimate(x, "as_min_mbps").mean,
                         curve.estimate(x, "as_in_mbps").mean,
                         curve.estimate(x, "be_mbps").mean,
                         curve.estimate(x, "mean_queue_packets").mean,
                         curve.met(x, criterion) if e.n else None,
                         curve.status(x, criterion) if e.n else None])
    return rows


# ----------------------------------------------------------------- variants

VARIANT_HEADER = ("claim", "where", "primary_ours", "primary_verdict", "variant_ours",
                  "variant_verdict")


def variant_artifact(variant: Variant, primary: Analysis, analysis: Analysis,
                     out_dir: Path) -> Artifact:
    """``variant-<name>``: the variant's claims beside the primary's (CSV, report table) and
    its curves or Table 1 beside the primary's (figure)."""
    rows, table = [], []
    for claim in primary.claims:
        other = next((c for c in analysis.claims if c.id == claim.id), None)
        if other is None or other.verdict == "not evaluated" or not variant.covers(claim.id):
            continue
        rows.append([claim.id, claim.where, claim.ours, claim.verdict, other.ours,
                     other.verdict])
        table.append([claim.id, claim.where, claim.verdict, other.verdict, other.ours])
    fig = variant_figure(variant, primary, analysis)
    artifact = figure_artifact(
        fig, out_dir, f"variant-{variant.name}", VARIANT_HEADER, rows,
        f"Variant {variant.name}: {variant.what}",
        f"campaigns/rio-assured-service-variants.toml, grids {variant.prefix}*: {variant.what}."
        " Each claim as the primary runs and as this variant give it; the figure draws the"
        " variant (dashed, squares) over the primary (solid, circles).")
    artifact.table = TableData(["claim", "where", "primary", "variant", "variant: ours"], table)
    return artifact


def variant_figure(variant: Variant, primary: Analysis, analysis: Analysis) -> Figure:
    """Table 1's 2 Mb/s and BE classes per setting, and Figs. 2-3's curves, of the variant
    over the primary: whichever the variant ran."""
    panels: list[tuple[str, object]] = []
    if analysis.view.rows:
        panels.append(("table1", None))
    panels += [("fig2", p) for p in FIG2_PROFILES if any(k[0] == p for k in analysis.curves2)]
    panels += [("fig3", p) for p in FIG3_PROFILES if any(k[0] == p for k in analysis.curves3)]
    columns = min(max(len(panels), 1), 3)
    rows = max(1, math.ceil(len(panels) / columns))
    fig = Figure(figsize=(5.2 * columns, 4.2 * rows), layout="constrained")
    axes = fig.subplots(rows, columns, squeeze=False).flatten()
    for axis, (kind, panel) in zip(axes, panels, strict=False):
        if kind == "table1":
            labels = [r.label for r in analysis.view.rows]
            base = {r.label: r for r in primary.view.rows}
            for k, marker in ((0, "o"), (5, "^")):
                ys = [r.classes[k] for r in analysis.view.rows]
                ref = [base[r.label].classes[k] if r.label in base else NO_ESTIMATE
                       for r in analysis.view.rows]
                xs = list(range(len(labels)))
                name = "2 Mb/s" if k == 0 else "BE"
                errorbar(axis, xs, ref, color="C0" if k == 0 else "C2",
                         label=f"{name}, primary")
                errorbar(axis, xs, ys, color="C1" if k == 0 else "C3", ls="--",
                         label=f"{name}, {variant.name}")
            axis.set_xticks(range(len(labels)), labels, rotation=60, ha="right", fontsize=6)
            axis.set_ylabel("throughput per flow (Mb/s)")
            axis.set_title("Table 1 settings", fontsize=9)
        else:
            curves = analysis.curves2 if kind == "fig2" else analysis.curves3
            base = primary.curves2 if kind == "fig2" else primary.curves3
            for i, queue in enumerate(SCHEMES):
                for source, style, tag in ((base, "-", "primary"), (curves, "--", variant.name)):
                    curve = source.get((panel, queue))
                    if curve is None:
                        continue
                    xs = curve.xs()
                    errorbar(axis, [percent_label(x) if kind == "fig3" else be_label(x)
                                     for x in xs], [curve.estimate(x) for x in xs],
                             color=f"C{i}", ls=style, label=f"{SCHEME_LABELS[queue]}, {tag}")
            profile = FIG2_PROFILES[panel] if kind == "fig2" else panel
            axis.axhline(profile, color="black", lw=1, ls=":")
            axis.set_xlabel("BE flows" if kind == "fig2" else "subscription (%)")
            axis.set_ylabel("throughput per AS flow (Mb/s)")
            axis.set_title(f"Fig. {kind[-1]}: " + (f"{100 * panel:.0f} % subscription"
                                                   if kind == "fig2" else
                                                   f"profile {panel:g} Mb/s"), fontsize=9)
        axis.grid(alpha=0.3)
        axis.legend(fontsize=6)
    for axis in axes[len(panels):]:
        axis.set_visible(False)
    fig.suptitle(f"Variant {variant.name}: {variant.what} (mean ± 95 % CI)", fontsize=10)
    return fig
