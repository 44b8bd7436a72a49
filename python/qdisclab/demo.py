# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab demo``: a quick run of the module's schedulers, with a figure and a table.

Two demos, each a few example runs written into ``results/demo/``:

``fairness`` (the default)
    VD, DRR and FIFO on the Vertical Dimensioning paper's parking lot: ten long-lived TCP
    flows with weights 1 .. 10 and 35 on/off UDP flows share two 10 Mb/s links with the
    paper's smallest buffer (12500 B). Who gets which share of the link, against the ideal
    weighted max-min share: ``demo-fairness.png`` / ``.pdf`` / ``.csv``.
``fifo-vs-red``
    FIFO (DropTail) and RED on the dumbbell: queue length over time, goodput and queueing
    delay: ``demo-fifo-vs-red.png`` / ``.pdf`` / ``.csv``.
"""

from __future__ import annotations

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


DEMOS = {
    "fairness": Demo(
        name="fairness",
        program="vertical-dimensioning-evaluation",
        queue_discs=("VD", "DRR", "FIFO"),
        args=("--reference=tcp", "--maxSize=12500B"),
        title="VD vs DRR vs FIFO: ten TCP flows of weights 1-10 and 35 UDP on/off flows,"
        " 12500 B buffers",
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
    ),
    "fifo-vs-red": Demo(
        name="fifo-vs-red",
        program="dumbbell-fifo-vs-red",
        queue_discs=("Fifo", "Red"),
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


def run_simulation(
    binary: Path, demo: Demo, queue_disc: str, full: bool, env: dict[str, str]
) -> tuple[Path, Path | None]:
    """Run the example for ``queue_disc``; return its metrics JSON and queue trace paths
    (the trace only for the FIFO-vs-RED demo)."""
    stem = f"{demo.name}-{queue_disc.lower()}"
    output = DEMO_DIR / f"{stem}.json"
    cmd = [str(binary), f"--queueDisc={queue_disc}", *demo.args]
    if not full:
        cmd.append("--quick")
    cmd.append(f"--output={output}")
    trace = None
    if demo.program == "dumbbell-fifo-vs-red":
        trace = DEMO_DIR / f"{stem}-queue.csv"
        cmd.append(f"--queueTrace={trace}")
    proc.run(cmd, env=env)
    return output, trace


def metrics_table(docs: list[dict], demo: Demo = DEMOS["fifo-vs-red"]) -> Table:
    """Rich table with one row per queue disc."""
    table = Table(title=demo.title)
    table.add_column("Queue disc")
    for _, title, _ in demo.columns:
        table.add_column(title, justify="right")
    for index, doc in enumerate(docs):
        cells = []
        for name, _, fmt in demo.columns:
            value = doc["metrics"].get(name)
            if value is not None and name in ("reference_kbps", "hop0_mean_queue_bytes"):
                value /= 1000  # Mb/s, kB
            cells.append("–" if value is None else fmt.format(value))
        table.add_row(run_label(doc, index), *cells)
    return table


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
    docs, traces = [], []
    for queue_disc in demo.queue_discs:
        output, trace = run_simulation(binary, demo, queue_disc, full, env)
        docs.append(load_metrics(output))
        traces.append(trace)

    with CONSOLE.status("Plotting…"):
        if which == "fairness":
            artifacts = plot_fairness_demo(docs, DEMO_DIR)
        else:
            artifacts = plot_demo(docs, traces, DEMO_DIR)
    CONSOLE.print(metrics_table(docs, demo))
    for path in (artifacts.png, artifacts.pdf, artifacts.csv):
        CONSOLE.print(str(path.resolve()), markup=False, soft_wrap=True)
