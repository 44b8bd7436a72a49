# SPDX-License-Identifier: GPL-2.0-only
"""The DRR evaluation on ns-2.35 (``validation/ns2/drr-evaluation.tcl``): its parameters are the
ns-3 example's, its reports pass its schema, and short runs behave as the scenario says
(the link's capacity, DRR's equal shares and ns-2's bucket mapping, the queue limits in
packets and bytes, the replications).

Without ``ns`` the tests skip, except under ``CI=true``, where they fail.
"""

import pytest

from built_examples import example
from ns2_programs import Ns2Program, require_ns2
from qdisclab.context import REPO
from qdisclab.metrics import load_metrics
from qdisclab.schema import parse_schema, read_schema

PROGRAM = REPO / "validation" / "ns2" / "drr-evaluation.tcl"
NS3_EXAMPLE = example("drr-evaluation")
#: The ns-3 example's parameters ns-2 cannot honour (doc/reproductions/drr-evaluation.rst).
NS3_ONLY = {"pcap", "flowMonitor", "dropFrom", "flowMapping", "mask", "perturbation"}
#: A factorial run: the measured flow of P = 1000 B and the chosen background, 30 s.
FACTORIAL = ("--scenario=factorial", "--packetSizeMin=1000", "--packetSizeMax=1000",
             "--bgPacketSize=1000", "--bgIntervalMin=5", "--bgIntervalMax=15",
             "--simTime=30", "--warmup=10", "--drainTime=5")


@pytest.fixture(autouse=True)
def ns2():
    require_ns2()


_PROGRAM = Ns2Program(PROGRAM, timeout=60)
run = _PROGRAM.run

metrics = _PROGRAM.metrics


@pytest.mark.skipif(not NS3_EXAMPLE.is_file(),
                    reason=f"{NS3_EXAMPLE} not built (qdisc-lab build)")
def test_the_shared_parameters_are_the_ns3_examples():
    ours = parse_schema(run("--schema").stdout, "drr-evaluation.tcl --schema")
    theirs = read_schema(NS3_EXAMPLE)
    assert ours.program == theirs.program == "drr-evaluation"
    names = {p["name"] for p in ours.params}
    assert {p["name"] for p in theirs.params} - names == NS3_ONLY
    assert names <= {p["name"] for p in theirs.params}
    for param in ours.params:
        other = theirs.param(param["name"])
        for key in ("type", "default", "recorded"):
            assert param[key] == other[key], (param["name"], key)
        for key in ("min", "max"):
            if key in other:
                assert param[key] == other[key], (param["name"], key)
    assert [(m["name"], m["recorded"]) for m in ours.metrics] == [
        (m["name"], m["recorded"]) for m in theirs.metrics]


def test_a_report_passes_the_schema_and_records_the_resolved_defaults(tmp_path):
    out = tmp_path / "m.json"
    done = run(*FACTORIAL, "--queueDisc=FIFO", f"--output={out}")
    assert done.returncode == 0, done.stderr
    schema = parse_schema(run("--schema").stdout)
    doc = load_metrics(out, schema)
    schema.check_report(doc)
    assert doc["simulator"] == "ns-2.35"
    params = doc["params"]
    # The factorial's defaults, as the ns-3 example resolves them.
    assert (params["nFlows"], params["accessRate"], params["maxSize"]) == (2, "10Mbps", "400p")
    assert "startJitter" not in params and "quick" not in params
    m = doc["metrics"]
    assert 0 < m["rx_packets"] <= m["tx_packets"]
    assert m["arrival_ratio"] == pytest.approx(m["rx_packets"] / m["tx_packets"], rel=1e-12)
    assert m["total_throughput_kbps"] == pytest.approx(m["flow0_kbps"] + m["flow1_kbps"])


def test_droptail_shares_the_link_in_proportion_and_drr_equally():
    # 1000-byte packets: the measured flow offers 1.6 Mb/s, the background 0.8 Mb/s, the link
    # carries 1 Mb/s (ns-2 adds no header to a UDP packet).
    droptail = metrics(*FACTORIAL, "--queueDisc=FIFO", "--maxSize=50p")
    drr = metrics(*FACTORIAL, "--queueDisc=DRR", "--maxSize=50000B")
    for m in (droptail, drr):
        assert m["total_throughput_kbps"] == pytest.approx(1000, rel=0.002)
        assert m["drops"] > 0
    # DropTail: the flow offering twice the background's rate gets more of the link.
    assert droptail["flow0_kbps"] > 1.5 * droptail["flow1_kbps"]
    assert drr["flow0_kbps"] == pytest.approx(500, rel=0.01)
    assert drr["flow1_kbps"] == pytest.approx(500, rel=0.01)
    assert drr["jain_index"] > 0.9999 > droptail["jain_index"]
    assert (drr["buckets_used"], drr["colliding_flows"]) == (2, 0)
    assert "buckets_used" not in droptail


def test_the_droptail_limit_in_packets_and_in_bytes_hold_the_same_queue():
    # Always full: a limit of N packets of 1000 B holds what N * 1000 bytes hold (the queue
    # disc's and the device's packet); the delay is the same to the last digit.
    packets = metrics(*FACTORIAL, "--queueDisc=FIFO", "--maxSize=20p")
    bytes_ = metrics(*FACTORIAL, "--queueDisc=FIFO", "--maxSize=20000B")
    assert packets["mean_delay_s"] == bytes_["mean_delay_s"]
    assert packets["drops"] == bytes_["drops"]
    # 20 + 1 packets waiting at most, at least 20 while full.
    assert 20000 <= packets["mean_queue_bytes"] <= 21000
    wider = metrics(*FACTORIAL, "--queueDisc=FIFO", "--maxSize=40p")
    # Twenty more packets of 8 ms each before the measured flow's.
    assert wider["mean_delay_s"] - packets["mean_delay_s"] == pytest.approx(0.160, abs=0.002)


def test_drr_keeps_its_shared_buffer_full_and_the_delay_follows_it():
    # Both buckets are overloaded, so blimit_ is always nearly full (ns-2 steals while the
    # bytes exceed it) and the delay of the packets it delivers doubles with it.
    small = metrics(*FACTORIAL, "--queueDisc=DRR", "--maxSize=100000B")
    large = metrics(*FACTORIAL, "--queueDisc=DRR", "--maxSize=200000B")
    assert 100000 - 1000 <= small["mean_queue_bytes"] <= 100000
    assert 200000 - 1000 <= large["mean_queue_bytes"] <= 200000
    assert 1.8 < large["mean_delay_s"] / small["mean_delay_s"] < 2.2


def test_ns2_maps_sender_k_to_bucket_k_mod_buckets():
    short = ("--simTime=12", "--warmup=2", "--drainTime=0")
    for buckets, used, colliding in ((1, 1, 10), (4, 4, 10), (8, 8, 4), (10, 10, 0),
                                     (16, 10, 0)):
        m = metrics(*short, f"--buckets={buckets}")
        assert (m["buckets_used"], m["colliding_flows"]) == (used, colliding), buckets
    m = metrics(*short)
    # Ten on/off sources offer 9.1 Mb/s to 1 Mb/s: the link is full, DRR drops.
    assert m["total_throughput_kbps"] == pytest.approx(1000, rel=0.01)
    assert m["drops"] > 0 and m["mean_delay_s"] is None


def test_rngrun_selects_an_independent_replication_and_repeats_exactly():
    first = metrics(*FACTORIAL, "--RngRun=1")
    assert metrics(*FACTORIAL) == first
    assert metrics(*FACTORIAL, "--RngRun=2") != first
    assert metrics(*FACTORIAL, "--RngSeed=3") != first


@pytest.mark.parametrize("args, message", [
    (("--scenario=tables",), "--scenario must be fairness or factorial, got 'tables'"),
    (("--queueDisc=RED",), "--queueDisc must be DRR or FIFO, got 'RED'"),
    (("--maxSize=400p",), "--maxSize=400p: ns-2's DRR blimit_ counts bytes"),
    (("--maxSize=lots",), "--maxSize: expected a queue size such as 25000B or 400p"),
    (("--bgPacketSize=1000",), "apply to --scenario=factorial only"),
    (("--scenario=factorial", "--bgPacketSize=20"), "--bgPacketSize=20 is out of range"),
    (("--warmup=400",), "--warmup must be in [0, simTime)"),
    (("--flowMapping=hash",), "unknown parameter --flowMapping"),
    (("--dropFrom=Tail",), "unknown parameter --dropFrom"),
])
def test_bad_input_stops_with_one_line_naming_the_parameter(args, message):
    _PROGRAM.assert_refused(*args, message=message)
