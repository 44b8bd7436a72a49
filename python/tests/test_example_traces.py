# SPDX-License-Identifier: GPL-2.0-only
"""ns-3's command-line habits in every example (experiment/experiment-params.h):
``--pcap=PREFIX`` on the studied devices and ``--flowMonitor=FILE``, both off by default, and
ns-3's attribute overrides (``--ns3::Type::Attribute=VALUE``, ``NS_ATTRIBUTE_DEFAULT``) honoured
or refused."""

import json
import os
import subprocess
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from built_examples import example

#: A short run of each example.
SHORT = {
    "dscp-marking": "--simTime=2",
    "dumbbell-fifo-vs-red": "--simTime=2 --warmup=1",
    "red-vs-droptail": "--simTime=2 --warmup=1",
    "drr-evaluation": "--simTime=3 --warmup=1",
    "rio-assured-service": "--simTime=3 --warmup=1",
    "vertical-dimensioning-evaluation": "--simTime=3 --warmup=1",
    "cioq-red-evaluation": "--sessions=20 --simTime=5",
    "cioq-switch-load": "--ports=2 --duration=1",
}
PCAP_MAGIC = (b"\xd4\xc3\xb2\xa1", b"\xa1\xb2\xc3\xd4")


def run(program: str, directory: Path, *args: str, env: dict | None = None,
        check: bool = True) -> subprocess.CompletedProcess:
    """Run ``program`` in ``directory`` with its metrics report in report.json."""
    binary = example(program)
    if not binary.is_file():
        pytest.skip(f"{binary} not built (qdisc-lab build)")
    return subprocess.run([str(binary), *args, "--output=report.json"], cwd=directory,
                          capture_output=True, text=True, timeout=600, check=check,
                          env={**os.environ, **(env or {})})


def report(directory: Path) -> dict:
    return json.loads((directory / "report.json").read_text())


@pytest.mark.parametrize("program", sorted(SHORT))
def test_pcap_and_flow_monitor_on_request(tmp_path, program):
    run(program, tmp_path, *SHORT[program].split(), "--pcap=trace", "--flowMonitor=flows.xml")
    pcaps = sorted(tmp_path.glob("trace-*.pcap"))
    assert pcaps, f"no pcap of {program}'s studied devices"
    for pcap in pcaps:
        assert pcap.read_bytes()[:4] in PCAP_MAGIC and pcap.stat().st_size > 24
    flows = ElementTree.parse(tmp_path / "flows.xml").getroot()
    assert flows.tag == "FlowMonitor"
    assert len(flows.findall("./FlowStats/Flow")) > 0
    assert len(flows.findall("./Ipv4FlowClassifier/Flow")) > 0


@pytest.mark.parametrize("flags", [(), ("--pcap=", "--flowMonitor=")], ids=["absent", "empty"])
def test_no_trace_by_default_or_when_empty(tmp_path, flags):
    run("dscp-marking", tmp_path, "--simTime=2", *flags)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]


def test_traces_do_not_change_the_results(tmp_path):
    plain, traced = tmp_path / "plain", tmp_path / "traced"
    plain.mkdir()
    traced.mkdir()
    run("red-vs-droptail", plain, "--quick", "--queueDisc=RED")
    run("red-vs-droptail", traced, "--quick", "--queueDisc=RED", "--pcap=t",
        "--flowMonitor=f.xml")
    assert (plain / "report.json").read_text() == (traced / "report.json").read_text()


def test_an_attribute_override_is_honoured_as_the_parameter(tmp_path):
    """drr-evaluation sets DRR's Quantum from --quantum: the override becomes --quantum."""
    given, flag, env = (tmp_path / name for name in ("override", "flag", "env"))
    for directory in (given, flag, env):
        directory.mkdir()
    short = ("--simTime=3", "--warmup=1")
    run("drr-evaluation", given, *short, "--ns3::DrrQueueDisc::Quantum=1500")
    run("drr-evaluation", flag, *short, "--quantum=1500")
    run("drr-evaluation", env, *short,
        env={"NS_ATTRIBUTE_DEFAULT": "ns3::DrrQueueDisc::Quantum=1500"})
    assert report(given)["params"]["quantum"] == 1500
    assert report(given) == report(flag) == report(env)
    default = tmp_path / "default"
    default.mkdir()
    run("drr-evaluation", default, *short)
    assert report(default)["params"]["quantum"] == 250
    assert report(default)["metrics"] != report(given)["metrics"]


def test_an_override_of_an_attribute_the_program_leaves_alone_is_ns3s(tmp_path):
    """red-vs-droptail does not set RED's QW: the override works as in any ns-3 program."""
    default, weighted = tmp_path / "default", tmp_path / "weighted"
    default.mkdir()
    weighted.mkdir()
    run("red-vs-droptail", default, "--quick", "--queueDisc=RED")
    run("red-vs-droptail", weighted, "--quick", "--queueDisc=RED", "--ns3::RedQueueDisc::QW=0.5")
    assert report(default)["params"] == report(weighted)["params"]
    assert report(default)["metrics"] != report(weighted)["metrics"]


@pytest.mark.parametrize(
    ("args", "env", "words"),
    [
        (("--ns3::DrrQueueDisc::Quantum=1500", "--quantum=500"), None,
         ("--ns3::DrrQueueDisc::Quantum=1500 conflicts with --quantum=500",
          "sets ns3::DrrQueueDisc::Quantum from --quantum")),
        (("--quantum=500",), "ns3::DrrQueueDisc::Quantum=1500",
         ("NS_ATTRIBUTE_DEFAULT='ns3::DrrQueueDisc::Quantum=1500' conflicts with --quantum=500",)),
        (("--ns3::DrrQueueDisc::MaxSize=9000B",), None,
         ("--ns3::DrrQueueDisc::MaxSize=9000B: drr-evaluation sets ns3::DrrQueueDisc::MaxSize "
          "itself (from --maxSize)",)),
        (("--ns3::PointToPointNetDevice::DataRate=5Mbps",), None,
         ("sets ns3::PointToPointNetDevice::DataRate itself (from --bottleneckRate and "
          "--accessRate)",)),
    ],
    ids=["both", "environment-and-flag", "owned", "link-rate"],
)
def test_a_conflicting_override_is_refused_naming_both(tmp_path, args, env, words):
    done = run("drr-evaluation", tmp_path, "--simTime=3", "--warmup=1", *args,
               env={"NS_ATTRIBUTE_DEFAULT": env} if env else None, check=False)
    assert done.returncode != 0 and not (tmp_path / "report.json").exists()
    for word in words:
        assert word in done.stderr
