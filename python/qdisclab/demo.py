# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab demo``: FIFO vs RED on the dumbbell, with a figure and a table."""

from pathlib import Path

import click
from rich.table import Table

from qdisclab import proc
from qdisclab.build import build, ns3_option, runtime_env
from qdisclab.context import CONSOLE, RESULTS_DIR
from qdisclab.metrics import load_metrics, run_label

PROGRAM = "dumbbell-fifo-vs-red"
QUEUE_DISCS = ("Fifo", "Red")
DEMO_DIR = RESULTS_DIR / "demo"

# (metric, column title, format) of the console table.
TABLE_COLUMNS = (
    ("tcp_goodput_mbps", "TCP\nMb/s", "{:.2f}"),
    ("udp_goodput_mbps", "UDP\nMb/s", "{:.2f}"),
    ("mean_queue_delay_ms", "Delay\nms", "{:.1f}"),
    ("p99_queue_delay_ms", "p99\nms", "{:.1f}"),
    ("mean_queue_packets", "Queue\npkts", "{:.1f}"),
    ("drops", "Drops", "{:.0f}"),
    ("early_drops", "Early", "{:.0f}"),
    ("forced_drops", "Forced", "{:.0f}"),
)


def run_simulation(
    binary: Path, queue_disc: str, full: bool, env: dict[str, str]
) -> tuple[Path, Path]:
    """Run the example for ``queue_disc``; return its metrics JSON and queue trace paths."""
    stem = queue_disc.lower()
    output = DEMO_DIR / f"{stem}.json"
    trace = DEMO_DIR / f"{stem}-queue.csv"
    cmd = [str(binary), f"--queueDisc={queue_disc}"]
    if not full:
        cmd.append("--quick")
    cmd += [f"--output={output}", f"--queueTrace={trace}"]
    proc.run(cmd, env=env)
    return output, trace


def metrics_table(docs: list[dict]) -> Table:
    """Rich table with one row per queue disc."""
    table = Table(title="FIFO vs RED: goodput, mean/p99 queueing delay, mean queue, drops")
    table.add_column("Queue disc")
    for _, title, _ in TABLE_COLUMNS:
        table.add_column(title, justify="right")
    for index, doc in enumerate(docs):
        cells = []
        for name, _, fmt in TABLE_COLUMNS:
            value = doc["metrics"].get(name)
            cells.append("–" if value is None else fmt.format(value))
        table.add_row(run_label(doc, index), *cells)
    return table


@click.command("demo")
@ns3_option()
@click.option("--full", is_flag=True, help="Run the full-length simulations instead of --quick.")
def demo_cmd(flavor: str, full: bool) -> None:
    """Build, run FIFO and RED on the dumbbell and plot them into results/demo/."""
    from qdisclab.plots import plot_demo  # imports matplotlib: only when needed
    from qdisclab.provision import ensure_setup

    ensure_setup(wheel=flavor == "wheel")
    binary = build(flavor) / "examples" / PROGRAM
    if not binary.is_file():
        raise click.ClickException(f"{binary} was not built")
    DEMO_DIR.mkdir(parents=True, exist_ok=True)

    env = runtime_env(flavor)
    docs, traces = [], []
    for queue_disc in QUEUE_DISCS:
        output, trace = run_simulation(binary, queue_disc, full, env)
        docs.append(load_metrics(output))
        traces.append(trace)

    with CONSOLE.status("Plotting…"):
        artifacts = plot_demo(docs, traces, DEMO_DIR)
    CONSOLE.print(metrics_table(docs))
    for path in (artifacts.png, artifacts.pdf, artifacts.csv):
        CONSOLE.print(str(path.resolve()), markup=False, soft_wrap=True)
