# SPDX-License-Identifier: GPL-2.0-only
"""The demo figure and table, from synthetic metrics and queue traces."""

import csv

import pytest

from qdisclab.plots import plot_demo, plot_fairness_demo, read_queue_trace
from synthetic_campaign import program_report

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def write_trace(path, rows):
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["time_s", "packets", "bytes"])
        writer.writerows(rows)
    return path


@pytest.fixture
def runs(tmp_path, valid_doc):
    fifo = {**valid_doc, "params": {**valid_doc["params"], "queueDisc": "FIFO"}}
    fifo["metrics"] = {**valid_doc["metrics"], "tcp_goodput_mbps": 9.5, "mean_queue_delay_ms": 80.0}
    red = valid_doc
    traces = [
        write_trace(
            tmp_path / "fifo.csv", [(t / 10, 100 - t, (100 - t) * 1500) for t in range(50)]
        ),
        write_trace(tmp_path / "red.csv", [(t / 10, t % 20, (t % 20) * 1500) for t in range(50)]),
    ]
    return [fifo, red], traces


def test_plot_demo_writes_png_pdf_csv(tmp_path, runs):
    docs, traces = runs
    out = tmp_path / "out"
    artifacts = plot_demo(docs, traces, out)

    assert artifacts.png == out / "demo-fifo-vs-red.png"
    png = artifacts.png.read_bytes()
    assert png.startswith(PNG_MAGIC) and len(png) > 1000
    assert artifacts.pdf.read_bytes().startswith(b"%PDF-")

    with open(artifacts.csv, newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows == [
        [
            "queue_disc",
            "tcp_goodput_mbps",
            "udp_goodput_mbps",
            "mean_queue_delay_ms",
            "p99_queue_delay_ms",
            "mean_queue_packets",
            "drops",
            "early_drops",
            "forced_drops",
        ],
        ["FIFO", "9.5", "0.5", "80.0", "", "14.2", "40", "30", "10"],
        ["RED", "9.1", "0.5", "12.5", "", "14.2", "40", "30", "10"],
    ]


def test_plot_demo_handles_empty_trace(tmp_path, runs):
    docs, traces = runs
    write_trace(traces[1], [])
    artifacts = plot_demo(docs, traces, tmp_path, stem="empty")
    assert artifacts.png.stat().st_size > 0


def test_plot_demo_needs_one_trace_per_run(tmp_path, runs):
    docs, traces = runs
    with pytest.raises(ValueError, match="one queue trace per metrics document"):
        plot_demo(docs, traces[:1], tmp_path)


def test_read_queue_trace(tmp_path):
    times, packets = read_queue_trace(
        write_trace(tmp_path / "t.csv", [(0, 1, 1500), (0.5, 3, 4500)])
    )
    assert times.tolist() == [0.0, 0.5]
    assert packets.tolist() == [1.0, 3.0]


def test_read_queue_trace_rejects_wrong_header(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("t,q\n0,1\n")
    with pytest.raises(ValueError, match="expected header time_s,packets,bytes"):
        read_queue_trace(path)


def fairness_doc(queue_disc: str, factor: float) -> dict:
    """A vertical-dimensioning-evaluation report whose flows get ``factor`` x the ideal share
    (the background offers its nominal load, so the ideal is the nominal one)."""
    from qdisclab.figures.vertical_dimensioning import run_ideal

    params = program_report("vertical-dimensioning-evaluation", queueDisc=queue_disc,
                            reference="tcp", maxSize="12500B", simTime=20.0)
    metrics = {"main_offered_kbps": 1875.0, "cross0_offered_kbps": 1250.0,
               "cross1_offered_kbps": 1250.0}
    ideal = run_ideal(params, metrics)
    metrics.update({f"flow{i}_kbps": factor * ideal[i - 1] for i in range(1, 11)})
    return {"schema": "qdisc-lab.metrics/1", "program": "vertical-dimensioning-evaluation",
            "ns3_version": "3.37", "params": params, "metrics": metrics}


def test_plot_fairness_demo_writes_png_pdf_csv(tmp_path):
    docs = [fairness_doc("VD", 1.0), fairness_doc("DRR", 0.5), fairness_doc("FIFO", 2.0)]
    artifacts = plot_fairness_demo(docs, tmp_path)
    assert artifacts.png == tmp_path / "demo-fairness.png"
    assert artifacts.png.read_bytes().startswith(PNG_MAGIC)
    assert artifacts.pdf.read_bytes().startswith(b"%PDF-")
    with open(artifacts.csv, newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 30
    assert [r["queue_disc"] for r in rows[::10]] == ["VD", "DRR", "FIFO"]
    for row, factor in zip(rows[::10], (1.0, 0.5, 2.0), strict=True):
        assert (row["flow"], row["weight"]) == ("1", "1.0")
        assert float(row["throughput_over_ideal"]) == pytest.approx(factor, rel=1e-12)
    # The ideal is proportional to the weight (every TCP flow crosses both links).
    first = float(rows[0]["ideal_kbps"])
    assert [float(r["ideal_kbps"]) for r in rows[:10]] == pytest.approx(
        [first * i for i in range(1, 11)])


def seeded(doc: dict, seed: int, factor: float) -> dict:
    """``doc`` as the run of seed ``seed`` whose flows get ``factor`` x the ideal share."""
    from qdisclab.figures.vertical_dimensioning import run_ideal

    ideal = run_ideal(doc["params"], doc["metrics"])
    metrics = {**doc["metrics"], **{f"flow{i}_kbps": factor * ideal[i - 1] for i in range(1, 11)}}
    return {**doc, "params": {**doc["params"], "RngRun": seed}, "metrics": metrics}


def test_fairness_estimates_are_means_with_student_t_intervals():
    from qdisclab.plots import fairness_estimates

    docs = [seeded(fairness_doc("VD", 1.0), seed, f) for seed, f in ((1, 0.9), (2, 1.0), (3, 1.1))]
    docs.append(seeded(fairness_doc("FIFO", 1.0), 1, 5.0))
    estimates = fairness_estimates(docs)
    assert list(estimates) == ["VD", "FIFO"]
    weight, throughput, ideal, ratio = estimates["VD"][0]
    assert weight == 1.0 and ratio.n == 3
    # mean 1.0, sd 0.1, t(0.975, 2) = 4.303: half-width 4.303 x 0.1 / sqrt(3) = 0.2484
    assert ratio.mean == pytest.approx(1.0) and ratio.half_width == pytest.approx(0.2484, abs=1e-4)
    assert throughput.mean == pytest.approx(ideal)
    fifo_ratio = estimates["FIFO"][0][3]
    assert fifo_ratio.n == 1 and fifo_ratio.mean == pytest.approx(5.0)


def test_fairness_figure_draws_the_ratio_on_a_clipped_log_scale(tmp_path):
    from qdisclab.plots import RATIO_RANGE, fairness_figure

    docs = [seeded(fairness_doc("DRR", 1.0), 1, 0.001), seeded(fairness_doc("FIFO", 1.0), 1, 50)]
    fig = fairness_figure(docs)
    right = fig.axes[1]
    assert right.get_yscale() == "log"
    assert right.get_ylim() == pytest.approx(RATIO_RANGE)
    drawn = [line.get_ydata() for line in right.get_lines() if line.get_marker() == "o"]
    assert [min(y) for y in drawn] == pytest.approx([RATIO_RANGE[0], RATIO_RANGE[1]])
    artifacts = plot_fairness_demo(docs, tmp_path)
    with open(artifacts.csv, newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["queue_disc"], r["seed"]) for r in rows[::10]] == [("DRR", "1"), ("FIFO", "1")]
    assert float(rows[0]["throughput_over_ideal"]) == pytest.approx(0.001)  # the CSV is not clipped


def test_demo_table_and_takeaway_over_seeds():
    from qdisclab.commands.demo import DEMOS, FAIRNESS_DOC, fairness_takeaway, metrics_table

    docs = [seeded(fairness_doc("VD", 1.0), seed, f) for seed, f in ((1, 0.9), (2, 1.0), (3, 1.1))]
    docs += [seeded(fairness_doc("DRR", 1.0), seed, 0.5) for seed in (1, 2, 3)]
    for doc in docs:
        doc["metrics"]["weighted_jain"] = 0.9
    table = metrics_table(docs, DEMOS["fairness"])
    assert [cell for cell in table.columns[0].cells] == ["VD", "DRR"]
    jain = list(table.columns[[c.header for c in table.columns].index("Jain\n(x/w)")].cells)
    assert jain == ["0.900\n±0.000", "0.900\n±0.000"]
    first, second = fairness_takeaway(docs)
    # Means over the seeds: VD's 0.9, 1.0, 1.1 are 1.00 (each flow), DRR's 0.5.
    assert first == ("Takeaway (3 seeds): the weight-1 flow gets 1.00 (VD), 0.50 (DRR) of its ideal"
                     " share; the mean |throughput / ideal - 1| over the TCP flows is 0.00 (VD),"
                     " 0.50 (DRR).")
    assert second.endswith(f"why, and how it changes with the buffer: {FAIRNESS_DOC}.")
