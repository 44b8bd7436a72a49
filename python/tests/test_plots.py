# SPDX-License-Identifier: GPL-2.0-only
"""The demo figure and table, from synthetic metrics and queue traces."""

import csv

import pytest

from qdisclab.plots import plot_demo, plot_fairness_demo, read_queue_trace

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def write_trace(path, rows):
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["time_s", "packets", "bytes"])
        writer.writerows(rows)
    return path


@pytest.fixture
def runs(tmp_path, valid_doc):
    fifo = {**valid_doc, "params": {**valid_doc["params"], "queueDisc": "Fifo"}}
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
        ["Fifo", "9.5", "0.5", "80.0", "", "14.2", "40", "30", "10"],
        ["Red", "9.1", "0.5", "12.5", "", "14.2", "40", "30", "10"],
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

    params = {"queueDisc": queue_disc, "reference": "tcp", "maxSize": "12500B",
              "weights": "1,2,3,4,5,6,7,8,9,10", "hops": 2, "coreRate": "10Mbps",
              "simTime": 20.0}
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
