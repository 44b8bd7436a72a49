# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab bench``: callgrind parsing, the CSV, the ratios, and the qdisc-bench binary."""

import csv
import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from qdisclab.commands import bench
from qdisclab.context import REPO
from qdisclab.metrics import load_metrics

# The bench binary of the system build; QDISC_LAB_BENCH_BINARY points at another one.
BINARY = Path(
    os.environ.get("QDISC_LAB_BENCH_BINARY") or REPO / "build" / "system" / "bench" / "qdisc-bench"
)
needs_binary = pytest.mark.skipif(
    not BINARY.is_file(), reason=f"{BINARY} not built (qdisc-lab build)"
)

CALLGRIND_FIXTURE = textwrap.dedent(
    """\
    # callgrind format
    version: 1
    creator: callgrind-3.19.0
    pid: 4242
    cmd:  ./qdisc-bench --qdisc=ns3::FifoQueueDisc --packets=20000
    part: 1

    desc: Timerange: Basic block 0 - 37266160
    desc: Trigger: Program termination

    positions: line
    events: Ir
    summary: 47551896

    ob=(1) /tmp/qdisc-bench
    fl=(1) ???
    fn=(1) (anonymous namespace)::RunMeasuredLoop(ns3::QueueDisc&)
    0 1200
    cfn=(2) ns3::QueueDisc::Enqueue(ns3::Ptr<ns3::QueueDiscItem>)
    calls=20000 0
    0 47550696

    totals: 47551896
    """
)


def test_parse_callgrind_totals(tmp_path):
    path = tmp_path / "out.callgrind"
    path.write_text(CALLGRIND_FIXTURE)
    assert bench.parse_callgrind(path) == 47551896


def test_parse_callgrind_summary_only_and_several_events(tmp_path):
    path = tmp_path / "out.callgrind"
    path.write_text("events: Ir Dr Dw\nsummary: 100 20 3\n")
    assert bench.parse_callgrind(path) == 100
    assert bench.parse_callgrind(path, "Dw") == 3


def test_parse_callgrind_rejects_other_files(tmp_path):
    path = tmp_path / "out.callgrind"
    path.write_text("not a profile\n")
    with pytest.raises(bench.BenchError, match="totals"):
        bench.parse_callgrind(path)


def test_callgrind_collects_only_the_measured_function():
    cmd = bench.callgrind_command(Path("x.callgrind"))
    assert "--collect-atstart=no" in cmd
    assert "--toggle-collect=*RunMeasuredLoop*" in cmd


def test_csv_columns_exact(tmp_path):
    row = {
        "qdisc": "ns3::FifoQueueDisc",
        "flows": 10,
        "load": "overload",
        "instructions_per_packet": 2377.6,
        "ns_per_packet": 301.25,
        "packets": 2000,
        "callgrind_packets": 500,
        "drops": 1000.0,
        "drop_rate": 0.5,
        "classes": 0.0,
        "rss_growth_kib": 496.0,
        "peak_rss_kib": 18000.0,
        "max_size": "1000p",
        "ns3_flavor": "system",
        "ns3_version": "3.37",
        "git_revision": "abc",
        "not_a_column": "dropped",
    }
    path = bench.write_csv([row], tmp_path / "bench.csv")
    with open(path, newline="") as handle:
        records = list(csv.reader(handle))
    assert records[0] == [
        "qdisc",
        "attrs",
        "flows",
        "load",
        "instructions_per_packet",
        "ns_per_packet",
        "packets",
        "callgrind_packets",
        "drops",
        "drop_rate",
        "classes",
        "rss_growth_kib",
        "peak_rss_kib",
        "active_flow_state_bytes",
        "bucket_state_bytes",
        "peak_active_flows",
        "state_bytes_per_active_flow",
        "max_size",
        "ns3_flavor",
        "ns3_version",
        "git_revision",
    ]
    assert records[1][:6] == ["ns3::FifoQueueDisc", "", "10", "overload", "2377.6", "301.25"]
    assert records[1][8] == "1000"


def _row(qdisc, flows, load, instructions, ns, rss=100.0, classes=0):
    return {
        "qdisc": qdisc,
        "flows": flows,
        "load": load,
        "instructions_per_packet": instructions,
        "ns_per_packet": ns,
        "rss_growth_kib": rss,
        "classes": classes,
    }


def test_ratio_lines():
    rows = [
        _row("ns3::FifoQueueDisc", 10, "overload", 2000, 300),
        _row("ns3::FifoQueueDisc", 100000, "overload", 2200, 330),
        _row("ns3::FqCoDelQueueDisc", 10, "overload", 6000, 600, rss=500, classes=10),
        _row("ns3::FqCoDelQueueDisc", 100000, "overload", 36000, 3000, rss=5500, classes=1010),
    ]
    lines = bench.ratio_lines(rows, "ns3::FifoQueueDisc")
    assert "FqCoDel vs Fifo, 10 flows, overload: 3.00× instructions, 2.00× time" in lines
    many = [line for line in lines if line.startswith("FqCoDel, overload: 100000 vs 10")]
    assert len(many) == 1
    assert "6.00× instructions" in many[0]
    assert "1000 more classes: 5120 B each" in many[0]
    assert not any(line.startswith("Fifo vs Fifo") for line in lines)
    # Named as the catalog names them: the console speaks the queue discs' one spelling.
    names = bench.catalog_labels(bench.parse_catalog(CATALOG_FIXTURE))
    assert names["ns3::FifoQueueDisc"] == "FIFO" and names["ns3::DrrQueueDisc"] == "DRR"
    assert "ns3::FqCoDelQueueDisc" not in names  # not in the fixture: its TypeId's short form
    named = bench.ratio_lines(rows, "ns3::FifoQueueDisc", names)
    assert "FqCoDel vs FIFO, 10 flows, overload: 3.00× instructions, 2.00× time" in named
    tail = bench.catalog_labels(bench.parse_catalog(CATALOG_FIXTURE), ["DRR-tail", "Red"])
    assert tail["ns3::DrrQueueDisc"] == "DRR-tail" and tail["ns3::RedQueueDisc"] == "RED"


def test_flow_state_lines():
    rows = [
        _row("ns3::FifoQueueDisc", 10, "overload", 2000, 300),
        {**_row("ns3::DrrQueueDisc", 10, "overload", 4000, 500),
         "active_flow_state_bytes": 384, "bucket_state_bytes": 8388672, "peak_active_flows": 10,
         "state_bytes_per_active_flow": 38.4},
        {**_row("ns3::DrrQueueDisc", 10, "underload", 4000, 500),
         "active_flow_state_bytes": 96, "bucket_state_bytes": 8388672, "peak_active_flows": 4,
         "state_bytes_per_active_flow": 24},
    ]
    assert bench.flow_state_lines(rows) == [
        "Drr state: 10 flows: 38 B per active flow (peak 10), 8,192 KiB per-bucket"
    ]
    assert bench.flow_state_lines(rows, {"ns3::DrrQueueDisc": "DRR"}) == [
        "DRR state: 10 flows: 38 B per active flow (peak 10), 8,192 KiB per-bucket"
    ]


def test_extra_attributes_reach_the_command_line():
    catalog_attributes = bench.bench_attributes(bench.parse_catalog(CATALOG_FIXTURE))
    merged = bench.merge_attributes(
        catalog_attributes,
        {"ns3::VerticalDimensioningQueueDisc": ("BucketCounters=false",),
         "ns3::DrrQueueDisc": ("Quantum=3000",)},
    )
    assert merged["ns3::DrrQueueDisc"] == ("Buckets=131072", "Quantum=1500", "Quantum=3000")
    assert catalog_attributes["ns3::DrrQueueDisc"] == ("Buckets=131072", "Quantum=1500")
    cmd = bench.bench_command(Path("b"), "ns3::VerticalDimensioningQueueDisc", 10, "overload",
                              1, 0, "o.json", attributes=merged)
    assert cmd[-2:] == ["--attr=MaxSize=1000p", "--attr=BucketCounters=false"]
    assert bench.bench_command(Path("b"), "ns3::DrrQueueDisc", 10, "overload", 1, 0, "o.json",
                               attributes=catalog_attributes)[-2:] == [
        "--attr=Buckets=131072", "--attr=Quantum=1500"]
    assert bench.bench_command(Path("b"), "ns3::DrrQueueDisc", 10, "overload", 1, 0,
                               "o.json")[-1] == "--attr=MaxSize=1000p"


def test_attr_option_parsing():
    from click.testing import CliRunner

    result = CliRunner().invoke(bench.bench_cmd, ["--attr", "Drr-no-colon"])
    assert result.exit_code != 0
    assert "QDISC:NAME=VALUE" in result.output
    parsed = bench._attribute_list(None, None, ("VerticalDimensioning:BucketCounters=false",
                                                 "VerticalDimensioning:Rounds=0"))
    assert parsed == {"VerticalDimensioning": ("BucketCounters=false", "Rounds=0")}


def test_qdiscs_are_named_as_the_catalog_names_them_or_by_type():
    catalog = bench.parse_catalog(CATALOG_FIXTURE)
    assert bench.type_of("RED", catalog) == "ns3::RedQueueDisc"
    assert bench.type_of("VD", catalog) == "ns3::VerticalDimensioningQueueDisc"
    assert bench.type_of("Red", catalog) == "ns3::RedQueueDisc"  # a TypeId, not a catalog name
    types, named = bench.resolve_qdiscs(["FIFO", "DRR-tail", "ns3::FqCoDelQueueDisc"], catalog)
    assert types == ["ns3::FifoQueueDisc", "ns3::DrrQueueDisc", "ns3::FqCoDelQueueDisc"]
    # DRR-tail: DRR's bench attributes (its TypeId's), then its own.
    assert named == {"ns3::DrrQueueDisc": ("Buckets=131072", "Quantum=1500", "DropFrom=Tail",
                                           "Buckets=7")}
    assert bench.resolve_qdiscs(["DRR", "RED"], catalog) == (
        ["ns3::DrrQueueDisc", "ns3::RedQueueDisc"],
        {"ns3::DrrQueueDisc": ("Buckets=131072", "Quantum=1500")})
    with pytest.raises(bench.BenchError, match="--qdisc DRR and DRR-tail are both"
                                               " ns3::DrrQueueDisc"):
        bench.resolve_qdiscs(["DRR", "DRR-tail"], catalog)


def test_qdisc_names():
    assert bench.qdisc_type_name("Red") == "ns3::RedQueueDisc"
    assert bench.qdisc_type_name("FqCoDelQueueDisc") == "ns3::FqCoDelQueueDisc"
    assert bench.qdisc_type_name("ns3::DrrQueueDisc") == "ns3::DrrQueueDisc"
    assert bench.short_name("ns3::FqCoDelQueueDisc") == "FqCoDel"


def _entry(name, type_id, default=True, reference=False, bench_attributes=(), attributes=()):
    return {"name": name, "type_id": type_id, "origin": "qdisc-lab",
            "description": name, "attributes": list(attributes), "quantum_attribute": "",
            "capabilities": [], "bench": {"default": default, "reference": reference,
                                          "attributes": list(bench_attributes)}}


#: A small catalog, in ``qdisc-bench --list``'s form.
CATALOG_FIXTURE = json.dumps({
    "schema": "qdisc-lab.catalog/2",
    "capabilities": ["per_flow", "flow_state", "flow_stats", "class_stats"],
    "entries": [
        _entry("FIFO", "ns3::FifoQueueDisc", reference=True),
        _entry("RED", "ns3::RedQueueDisc"),
        _entry("DRR", "ns3::DrrQueueDisc", bench_attributes=("Buckets=131072", "Quantum=1500")),
        _entry("DRR-tail", "ns3::DrrQueueDisc", default=False, attributes=("DropFrom=Tail",),
               bench_attributes=("Buckets=7",)),
        _entry("VD", "ns3::VerticalDimensioningQueueDisc"),
        _entry("DscpMarker", "ns3::DscpMarkerQueueDisc", default=False),
    ],
})


def test_the_catalog_decides_what_is_benched():
    catalog = bench.parse_catalog(CATALOG_FIXTURE)
    assert [e.name for e in catalog] == ["FIFO", "RED", "DRR", "DRR-tail", "VD", "DscpMarker"]
    assert catalog[3].attributes == ("DropFrom=Tail",)
    assert bench.default_qdiscs(catalog) == [
        "ns3::FifoQueueDisc", "ns3::RedQueueDisc", "ns3::DrrQueueDisc",
        "ns3::VerticalDimensioningQueueDisc"]
    assert bench.reference_qdisc(catalog) == "ns3::FifoQueueDisc"
    # DRR-tail is not in the default grid: its TypeId is benched with DRR's attributes.
    assert bench.bench_attributes(catalog) == {
        "ns3::DrrQueueDisc": ("Buckets=131072", "Quantum=1500")}


def test_bad_catalogs_are_refused():
    with pytest.raises(bench.BenchError, match="not a queue disc catalog"):
        bench.parse_catalog("[]")
    with pytest.raises(bench.BenchError, match="schema"):
        bench.parse_catalog(json.dumps({"schema": "other/1", "entries": []}))
    with pytest.raises(bench.BenchError, match="not a queue disc catalog"):
        bench.parse_catalog(json.dumps({"schema": "qdisc-lab.catalog/2",
                                        "entries": [{"name": "X"}]}))
    # The first layout, with aliases (other spellings of a name), is refused by its tag.
    with pytest.raises(bench.BenchError, match="schema 'qdisc-lab.catalog/1'"):
        bench.parse_catalog(CATALOG_FIXTURE.replace("catalog/2", "catalog/1"))
    two = bench.parse_catalog(json.dumps({"schema": "qdisc-lab.catalog/2", "entries": [
        _entry("A", "ns3::AQueueDisc", reference=True),
        _entry("B", "ns3::BQueueDisc", reference=True)]}))
    with pytest.raises(bench.BenchError, match="2 bench references"):
        bench.reference_qdisc(two)


FAKE_BINARY = """\
#!{python}
import json, sys
if sys.argv[1:] == ["--list"]:
    sys.stdout.write({catalog!r})
    sys.exit(0)
args = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
if args["qdisc"] not in ("ns3::FifoQueueDisc", "ns3::RedQueueDisc"):
    sys.stderr.write("qdisc-bench: unknown queue disc type '%s'\\n" % args["qdisc"])
    sys.exit(3)
doc = {{"schema": "qdisc-lab.metrics/1", "program": "qdisc-bench", "ns3_version": "3.37",
       "params": {{"qdisc": args["qdisc"], "flows": int(args["flows"]), "load": args["load"],
                  "packets": int(args["packets"])}},
       "metrics": {{"ns_per_packet": 100.0 + int(args["flows"]) / 1000, "measured_drops": 0,
                   "drop_rate": 0, "classes": 0, "rss_growth_kib": 10, "peak_rss_kib": 20}}}}
open(args["output"], "w").write(json.dumps(doc))
"""


@pytest.fixture
def fake_binary(tmp_path):
    path = tmp_path / "qdisc-bench"
    path.write_text(FAKE_BINARY.format(python=sys.executable, catalog=CATALOG_FIXTURE))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_run_bench_skips_unknown_module_qdiscs(tmp_path, fake_binary):
    settings = bench.Settings(
        packets=10, warmup=0, repetitions=2, callgrind_packets=5, callgrind_warmup=0
    )
    rows = bench.run_bench(
        fake_binary,
        ["ns3::FifoQueueDisc", "ns3::RedQueueDisc", "ns3::DrrQueueDisc"],
        [10, 100000],
        ["overload"],
        settings,
        out_dir=tmp_path / "out",
        use_callgrind=False,
        skip_unknown=["ns3::DrrQueueDisc"],
    )
    assert [(row["qdisc"], row["flows"]) for row in rows] == [
        ("ns3::FifoQueueDisc", 10),
        ("ns3::FifoQueueDisc", 100000),
        ("ns3::RedQueueDisc", 10),
        ("ns3::RedQueueDisc", 100000),
    ]
    with open(tmp_path / "out" / "bench.csv", newline="") as handle:
        assert len(list(csv.DictReader(handle))) == 4
    assert json.loads((tmp_path / "out" / "bench.json").read_text())["rows"][0]["flows"] == 10


def test_read_catalog_runs_the_binary(fake_binary):
    catalog = bench.read_catalog(fake_binary)
    assert bench.reference_qdisc(catalog) == "ns3::FifoQueueDisc"


def test_run_bench_unknown_named_qdisc_is_an_error(tmp_path, fake_binary):
    with pytest.raises(bench.UnknownQdiscError, match="ns3::NopeQueueDisc"):
        bench.run_bench(
            fake_binary,
            ["ns3::NopeQueueDisc"],
            [10],
            ["overload"],
            bench.QUICK_SETTINGS,
            out_dir=tmp_path / "out",
            use_callgrind=False,
            skip_unknown=[],
        )


@needs_binary
def test_binary_quick_fifo_run(tmp_path):
    output = tmp_path / "fifo.json"
    cmd = bench.bench_command(
        BINARY, "ns3::FifoQueueDisc", 10, "overload", packets=3000, warmup=2500, output=output
    )
    subprocess.run(cmd, check=True, timeout=60)
    doc = load_metrics(output)
    metrics = doc["metrics"]
    assert doc["program"] == "qdisc-bench"
    assert doc["params"]["qdisc"] == "ns3::FifoQueueDisc"
    assert doc["params"]["attrs"] == "MaxSize=1000p"
    assert metrics["ns_per_packet"] > 0
    assert metrics["enqueued"] == 5500
    assert metrics["enqueued"] == (
        metrics["dequeued"] + metrics["dropped"] + metrics["left_in_queue"]
    )
    # Overloaded: the queue is full and half of the measured packets are dropped.
    assert metrics["left_in_queue"] >= 999
    assert metrics["measured_drops"] == pytest.approx(1500, abs=1)


@needs_binary
@pytest.mark.parametrize("qdisc", ["ns3::DrrQueueDisc", "ns3::VerticalDimensioningQueueDisc"])
def test_binary_reports_the_flow_state_of_module_qdiscs(tmp_path, qdisc):
    output = tmp_path / "state.json"
    cmd = bench.bench_command(BINARY, qdisc, 1000, "overload", packets=3000, warmup=2500,
                              output=output,
                              attributes=bench.bench_attributes(bench.read_catalog(BINARY)))
    subprocess.run(cmd, check=True, timeout=60)
    metrics = load_metrics(output)["metrics"]
    # The buffer holds 1000 packets of 1000 flows: hundreds of flows are active at once.
    assert 200 < metrics["peak_active_flows"] <= 1000
    assert metrics["active_flow_state_bytes"] >= 24 * metrics["peak_active_flows"]
    assert metrics["state_bytes_per_active_flow"] == pytest.approx(
        metrics["active_flow_state_bytes"] / metrics["peak_active_flows"]
    )
    assert metrics["bucket_state_bytes"] > 0


@needs_binary
def test_binary_underload_keeps_the_queue_short(tmp_path):
    output = tmp_path / "red.json"
    cmd = bench.bench_command(
        BINARY, "ns3::RedQueueDisc", 1000, "underload", packets=2000, warmup=100, output=output
    )
    subprocess.run(cmd, check=True, timeout=60)
    metrics = load_metrics(output)["metrics"]
    assert "peak_active_flows" not in metrics, "ns-3's queue discs report no flow state"
    assert metrics["dropped"] == 0
    assert metrics["enqueued"] == metrics["dequeued"] + metrics["left_in_queue"]
    assert metrics["left_in_queue"] < 4


@needs_binary
def test_binary_unknown_qdisc(tmp_path):
    result = subprocess.run(
        [str(BINARY), "--qdisc=ns3::NoSuchQueueDisc", f"--output={tmp_path / 'x.json'}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == bench.EXIT_UNKNOWN_QDISC
    assert "unknown queue disc type 'ns3::NoSuchQueueDisc'" in result.stderr
    assert "ns3::FifoQueueDisc" in result.stderr  # lists the known ones
    assert not (tmp_path / "x.json").exists()
    with pytest.raises(bench.UnknownQdiscError):
        bench.probe(BINARY, "ns3::NoSuchQueueDisc", tmp_path, None, bench.MAX_SIZE)


@needs_binary
def test_binary_bad_attribute(tmp_path):
    result = subprocess.run(
        [str(BINARY), "--attr=NoSuchAttribute=1", f"--output={tmp_path / 'x.json'}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "has no attribute 'NoSuchAttribute'" in result.stderr


@needs_binary
def test_binary_lists_the_catalog():
    catalog = bench.read_catalog(BINARY)
    by_name = {entry.name: entry for entry in catalog}
    assert bench.reference_qdisc(catalog) == "ns3::FifoQueueDisc"
    # These in this order (ns-3's first); a queue disc added to the catalog as benched joins the
    # list without an edit here (it must be one of the module's).
    known = [
        "ns3::FifoQueueDisc", "ns3::RedQueueDisc", "ns3::FqCoDelQueueDisc", "ns3::DrrQueueDisc",
        "ns3::AliquemQueueDisc", "ns3::SrrQueueDisc", "ns3::VerticalDimensioningQueueDisc",
        "ns3::RioQueueDisc", "ns3::RiPlusOQueueDisc", "ns3::CioqRedQueueDisc"]
    defaults = bench.default_qdiscs(catalog)
    assert [q for q in defaults if q in known] == known
    assert {e.origin for e in catalog if e.type_id in set(defaults) - set(known)} <= {"qdisc-lab"}
    assert bench.bench_attributes(catalog)["ns3::DrrQueueDisc"] == (
        "Buckets=131072", "Quantum=1500")
    assert by_name["DRR-tail"].attributes == ("DropFrom=Tail",)
    # The per-flow state the bench reports (STATE_METRICS) is a catalog capability.
    # (a new per-flow queue disc adds itself: its entry has the capability)
    flow_state = {e.name for e in catalog if "flow_state" in e.capabilities}
    assert flow_state >= {"DRR", "DRR-tail", "SRR", "Aliquem", "VD"}
    assert all("per_flow" in by_name[name].capabilities for name in flow_state)

    tsv = subprocess.run([str(BINARY), "--list=tsv"], capture_output=True, text=True, check=True,
                         timeout=60).stdout.splitlines()
    header, *rows = [line.split("\t") for line in tsv]
    assert header[:2] == ["name", "type_id"]
    assert [(row[0], row[1]) for row in rows] == [(e.name, e.type_id) for e in catalog]
    assert all(len(row) == len(header) for row in rows)

    bad = subprocess.run([str(BINARY), "--list=xml"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2
    assert "--list must be json or tsv" in bad.stderr


@needs_binary
def test_figure_styles_name_catalog_queue_discs():
    """The figures key their colours by the examples' --queueDisc values: each must be one of
    the catalog's names, the one spelling of a queue disc (figures are drawn from recorded
    databases, without a build, so they keep their styles in Python; this keeps them to the
    catalog's names)."""
    from qdisclab import plots
    from qdisclab.figures import cioq_red, rio_assured_service, vertical_dimensioning

    names = {entry.name for entry in bench.read_catalog(BINARY)}
    styled = {
        *plots.FAIRNESS_STYLES,
        *vertical_dimensioning.SCHEDULER_STYLES,
        *vertical_dimensioning.PAPER_COMPARATORS,
        *cioq_red.QDISCS,
        *cioq_red.LABELS,
        *cioq_red.COLORS,
        *rio_assured_service.SCHEMES,
        *rio_assured_service.SCHEME_LABELS,
    }
    assert styled - names == set()
