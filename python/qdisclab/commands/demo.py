# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab demo``: a quick run of the module's schedulers, with a figure and a table.

Two demos, each a few example runs written into ``results/demo/``:

``fairness`` (the default)
    VD, DRR and FIFO on the Vertical Dimensioning paper's parking lot: ten long-lived TCP
    flows with weights 1 .. 10 and 35 on/off UDP flows share two 10 Mb/s links with the
    paper's smallest buffer (12500 B), three seeds each. Who gets which share of the link,
    against the ideal weighted max-min share, with 95 % intervals over the seeds:
    ``demo-fairness.png`` / ``.pdf`` / ``.csv``, and a two-line takeaway.
``fifo-vs-red``
    FIFO (DropTail) and RED on the dumbbell: queue length over time, goodput and queueing
    delay: ``demo-fifo-vs-red.png`` / ``.pdf`` / ``.csv``.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import click
from rich.table import Table

from qdisclab.context import CONSOLE, RESULTS_DIR
from qdisclab.metrics import load_metrics, run_label
from qdisclab.toolchain import proc
from qdisclab.toolchain.build import ALL_FLAVORS, build, ns3_option, runtime_env

DEMO_DIR = RESULTS_DIR / "demo"


@dataclass(frozen=True)
class Demo:
    """One demo: the example it runs, once per queue disc, and the table it prints."""

    name: str  # file names start with it
    program: str
    queue_discs: tuple[str, ...]
    args: tuple[str, ...]  # besides --queueDisc, --quick and --output
    title: str
    columns: tuple[tuple[str, str, str], ...]  # (metric, column title, format)
    seeds: tuple[int, ...] = (1,)  # RngRun values, each run for every queue disc


DEMOS = {
    "fairness": Demo(
        name="fairness",
        program="vertical-dimensioning-evaluation",
        queue_discs=("VD", "DRR", "FIFO"),
        args=("--reference=tcp", "--maxSize=12500B"),
        title="VD vs DRR vs FIFO: ten TCP flows of weights 1-10 and 35 UDP on/off flows,"
        " 12500 B buffers (mean ± 95 % CI over seeds)",
        columns=(
            ("reference_kbps", "TCP\nMb/s", "{:.2f}"),
            ("flow1_kbps", "w=1\nkb/s", "{:.0f}"),
            ("flow2_kbps", "w=2\nkb/s", "{:.0f}"),
            ("flow5_kbps", "w=5\nkb/s", "{:.0f}"),
            ("flow10_kbps", "w=10\nkb/s", "{:.0f}"),
            ("weighted_jain", "Jain\n(x/w)", "{:.3f}"),
            ("main_kbps", "UDP n0→n4\nkb/s", "{:.0f}"),
            ("hop0_mean_queue_bytes", "Queue\nkB", "{:.1f}"),
            ("hop0_drops", "Drops", "{:.0f}"),
        ),
        seeds=(1, 2, 3),
    ),
    "fifo-vs-red": Demo(
        name="fifo-vs-red",
        program="dumbbell-fifo-vs-red",
        queue_discs=("FIFO", "RED"),
        args=(),
        title="FIFO vs RED: goodput, mean/p99 queueing delay, mean queue, drops",
        columns=(
            ("tcp_goodput_mbps", "TCP\nMb/s", "{:.2f}"),
            ("udp_goodput_mbps", "UDP\nMb/s", "{:.2f}"),
            ("mean_queue_delay_ms", "Delay\nms", "{:.1f}"),
            ("p99_queue_delay_ms", "p99\nms", "{:.1f}"),
            ("mean_queue_packets", "Queue\npkts", "{:.1f}"),
            ("drops", "Drops", "{:.0f}"),
            ("early_drops", "Early", "{:.0f}"),
            ("forced_drops", "Forced", "{:.0f}"),
        ),
    ),
}


#: The page that explains the fairness demo's numbers.
FAIRNESS_DOC = ("doc/reproductions/vertical-dimensioning.rst"
                " (Findings, Fig. 5 in the paper's regime)")


def run_simulation(
    binary: Path, demo: Demo, queue_disc: str, seed: int, full: bool, env: dict[str, str]
) -> tuple[Path, Path | None]:
    """Run the example for ``queue_disc`` and ``seed``; return its metrics JSON and queue
    trace paths (the trace only for the FIFO-vs-RED demo)."""
    stem = f"{demo.name}-{queue_disc.lower()}"
    if len(demo.seeds) > 1:
        stem += f"-seed{seed}"
    output = DEMO_DIR / f"{stem}.json"
    cmd = [str(binary), f"--queueDisc={queue_disc}", *demo.args, f"--RngRun={seed}"]
    if not full:
        cmd.append("--quick")
    cmd.append(f"--output={output}")
    trace = None
    if demo.program == "dumbbell-fifo-vs-red":
        trace = DEMO_DIR / f"{stem}-queue.csv"
        cmd.append(f"--queueTrace={trace}")
    proc.run(cmd, env=env)
    return output, trace


def _cell(values: list[float], fmt: str) -> str:
    """One run's value, or the mean ± 95 % half-width of several."""
    from qdisclab.figures.common import t_interval

    if not values:
        return "–"
    estimate = t_interval(values)
    if estimate.n < 2:
        return fmt.format(estimate.mean)
    return f"{fmt.format(estimate.mean)}\n±{fmt.format(estimate.half_width)}"


def metrics_table(docs: list[dict], demo: Demo = DEMOS["fifo-vs-red"]) -> Table:
    """Rich table with one row per queue disc: a run's values, or the mean ± 95 % half-width
    over the runs (seeds) of that queue disc."""
    table = Table(title=demo.title)
    table.add_column("Queue disc")
    for _, title, _ in demo.columns:
        table.add_column(title, justify="right")
    groups: dict[str, list[dict]] = {}
    for index, doc in enumerate(docs):
        groups.setdefault(run_label(doc, index), []).append(doc)
    for label, runs in groups.items():
        cells = []
        for name, _, fmt in demo.columns:
            values = [doc["metrics"][name] for doc in runs if doc["metrics"].get(name) is not None]
            if name in ("reference_kbps", "hop0_mean_queue_bytes"):
                values = [v / 1000 for v in values]  # Mb/s, kB
            cells.append(_cell(values, fmt))
        table.add_row(label, *cells)
    return table


def fairness_takeaway(docs: list[dict]) -> list[str]:
    """Two lines: what the weight-1 flow gets of its ideal share and each queue disc's mean
    error over the TCP flows (means over the seeds), and the page that explains them."""
    from qdisclab.plots import fairness_estimates

    estimates = fairness_estimates(docs)
    seeds = max((f[3].n for flows in estimates.values() for f in flows), default=0)
    smallest = ", ".join(f"{flows[0][3].mean:.2f} ({label})" for label, flows in estimates.items())
    error = ", ".join(
        f"{sum(abs(f[3].mean - 1) for f in flows) / len(flows):.2f} ({label})"
        for label, flows in estimates.items())
    return [
        f"Takeaway ({seeds} seeds): the weight-1 flow gets {smallest} of its ideal share; the"
        f" mean |throughput / ideal - 1| over the TCP flows is {error}.",
        "At this buffer DRR starves the smallest weights and FIFO ignores the weights;"
        f" why, and how it changes with the buffer: {FAIRNESS_DOC}.",
    ]


@click.command("demo")
@click.argument("which", type=click.Choice(sorted(DEMOS)), default="fairness")
@ns3_option(ALL_FLAVORS)
@click.option("--full", is_flag=True, help="Run the full-length simulations instead of --quick.")
def demo_cmd(which: str, flavor: str, full: bool) -> None:
    """Build, run a quick demo and plot it into results/demo/.

    WHICH is fairness (the default: VD vs DRR vs FIFO with weighted TCP flows on the
    Vertical Dimensioning paper's parking lot) or fifo-vs-red (DropTail vs RED on a
    dumbbell).
    """
    from qdisclab.plots import plot_demo, plot_fairness_demo  # matplotlib: only when needed
    from qdisclab.toolchain.provision import ensure_setup

    demo = DEMOS[which]
    ensure_setup(wheel=flavor == "wheel")
    binary = build(flavor) / "examples" / demo.program
    if not binary.is_file():
        raise click.ClickException(f"{binary} was not built")
    DEMO_DIR.mkdir(parents=True, exist_ok=True)

    env = runtime_env(flavor)
    runs = [(queue_disc, seed) for queue_disc in demo.queue_discs for seed in demo.seeds]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:  # the runs in parallel
        done = list(pool.map(lambda run: run_simulation(binary, demo, *run, full, env), runs))
    docs = [load_metrics(output) for output, _ in done]
    traces = [trace for _, trace in done]

    with CONSOLE.status("Plotting…"):
        if which == "fairness":
            artifacts = plot_fairness_demo(docs, DEMO_DIR)
        else:
            artifacts = plot_demo(docs, traces, DEMO_DIR)
    CONSOLE.print(metrics_table(docs, demo))
    if which == "fairness":
        for line in fairness_takeaway(docs):
            CONSOLE.print(line, markup=False, soft_wrap=True)
    for path in (artifacts.png, artifacts.pdf, artifacts.csv):
        CONSOLE.print(str(path.resolve()), markup=False, soft_wrap=True)
