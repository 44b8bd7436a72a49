# SPDX-License-Identifier: GPL-2.0-only
"""The RED-vs-DropTail study on ns-3.24 (``validation/ns-3.24/red-vs-droptail.cc``) and the
``ns-3.24`` flavour that builds and runs it (:mod:`qdisclab.toolchain.ns324`).

The toolchain tests run without the tree. The program's tests need the built tree
(``./qdisc-lab build --ns3 ns-3.24``): they skip without it, except when
``QDISC_LAB_REQUIRE_NS324`` is set, where they fail. The schema comparison also needs the
module's own example (``./qdisc-lab build``) and skips without it.
"""

import json
import subprocess
from pathlib import Path

import pytest

from qdisclab.campaign.engine import program_binary
from qdisclab.campaign.spec import CampaignError, load_campaign
from qdisclab.context import REPO
from qdisclab.metrics import load_metrics
from qdisclab.schema import parse_schema, read_schema
from qdisclab.toolchain import build, intree, ns324

PROGRAM = "red-vs-droptail"
MODULE_EXAMPLE = REPO / "build" / "system" / "examples" / PROGRAM
#: The module example's parameters the ns-3.24 program does not take: its trace options and
#: SACK, which ns-3.24's TCP does not have.
NOT_HONOURED = {"pcap", "flowMonitor", "sack"}


@pytest.fixture(scope="module")
def binary() -> Path:
    path = ns324.program_path(PROGRAM)
    if not path.is_file():
        message = f"{path} not built (./qdisc-lab build --ns3 {ns324.FLAVOUR})"
        if ns324.required():
            pytest.fail(f"{message}, and {ns324.REQUIRE_ENV} says it must be")
        pytest.skip(message)
    return path


def run(binary: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run([str(binary), *args], capture_output=True, text=True, timeout=300,
                          env={**ns324.runtime_env()}, check=check)


def report(binary: Path, tmp_path: Path, *args: str) -> dict:
    out = tmp_path / "metrics.json"
    run(binary, *args, f"--output={out}")
    schema = parse_schema(run(binary, "--schema").stdout, f"{binary} --schema")
    return load_metrics(out, schema)


# --------------------------------------------------------------------------- the toolchain


def test_the_fixture_is_pinned_by_its_checksum():
    pin = intree.FIXTURE_SOURCES[ns324.RELEASE]
    assert pin.path == "../shared/ns-3/ns-3.24-src.tar.xz"
    checksum = (REPO / pin.path).with_name("ns-3.24-src.tar.xz.sha256")
    main = intree.main_worktree(REPO)
    if not checksum.is_file() and main is not None:
        checksum = (main / pin.path).with_name(checksum.name)
    if not checksum.is_file():
        pytest.skip(f"the fixture is not beside the clone ({pin.path})")
    assert checksum.read_text().split()[0] == pin.sha256
    assert intree.fetch_fixture_source(REPO, pin).name == "ns-3.24-src.tar.xz"  # checked


def test_a_wrong_fixture_is_refused(tmp_path, monkeypatch):
    tarball = tmp_path / "shared" / "ns-3" / "ns-3.24-src.tar.xz"
    tarball.parent.mkdir(parents=True)
    tarball.write_bytes(b"not the fixture")
    pin = intree.FixtureSource("3.24", "../shared/ns-3/ns-3.24-src.tar.xz", "0" * 64)
    with pytest.raises(intree.StepFailed, match="SHA-256"):
        intree.fetch_fixture_source(tmp_path / "repo", pin)


def test_the_flavour_runs_the_scratch_program_with_the_tree_libraries(tmp_path, monkeypatch):
    monkeypatch.setattr(ns324, "CACHE", tmp_path)
    scratch = tmp_path / "ns-3.24" / "build" / "scratch"
    scratch.mkdir(parents=True)
    (scratch / PROGRAM).write_text("")
    assert ns324.FLAVOUR == build.NS324 and build.NS324 in build.SIMULATORS
    assert program_binary(PROGRAM, "ns-3.24") == scratch / PROGRAM
    libraries = build.runtime_env("ns-3.24")["LD_LIBRARY_PATH"].split(":")
    assert libraries[0] == str(tmp_path / "ns-3.24" / "build")


def test_a_missing_tree_names_the_command_that_builds_it(tmp_path, monkeypatch):
    monkeypatch.setattr(ns324, "CACHE", tmp_path)
    with pytest.raises(CampaignError, match=r"build the ns-3.24 tree first "
                                            r"\(`./qdisc-lab build --ns3 ns-3.24`\)"):
        program_binary(PROGRAM, "ns-3.24")
    (tmp_path / "ns-3.24").mkdir()
    with pytest.raises(CampaignError, match=r"build it first \(`./qdisc-lab build --ns3"):
        program_binary(PROGRAM, "ns-3.24")
    with pytest.raises(CampaignError, match="no ns-3.24 program 'nonesuch'"):
        program_binary("nonesuch", "ns-3.24")


def test_programs_are_copied_only_when_changed_and_configure_only_when_needed(tmp_path):
    programs = tmp_path / "programs"
    programs.mkdir()
    (programs / "a.cc").write_text("int main() {}\n")
    tree = tmp_path / "ns-3.24"
    (tree / "scratch").mkdir(parents=True)
    assert ns324.copy_programs(tree, programs) == ["a"]
    copied = tree / "scratch" / "a.cc"
    stamp = copied.stat().st_mtime_ns
    ns324.copy_programs(tree, programs)
    assert copied.stat().st_mtime_ns == stamp  # unchanged: waf does not rebuild it

    env = ns324.build_env(tmp_path)
    assert env["PYENV_VERSION"] == "2.7.18" and "-std=c++11" in env["CXXFLAGS"]
    assert ns324.needs_configure(tree, env)  # never configured
    (tree / "build" / "c4che").mkdir(parents=True)
    (tree / "build" / "c4che" / "_cache.py").write_text("")
    assert ns324.needs_configure(tree, env)  # configured, but not by this command
    (tree / "build" / ns324.STAMP_NAME).write_text(json.dumps(ns324._stamp(env)))
    assert not ns324.needs_configure(tree, env)
    assert ns324.needs_configure(tree, {**env, "CXXFLAGS": "-O0"})


def test_the_campaign_is_the_module_campaign_on_ns324():
    ours = load_campaign(str(REPO / "campaigns" / "red-vs-droptail-ns324.toml"))
    module = load_campaign(str(REPO / "campaigns" / "red-vs-droptail.toml"))
    assert ours.ns3 == "ns-3.24" and ours.program == module.program
    assert tuple(ours.seeds) == tuple(module.seeds) == (1, 2, 3, 4, 5, 6)
    assert ours.metrics == module.metrics
    # The same runs (a run's key is its program, parameters and seed), full and quick.
    runs = {run.key: run for run in ours.runs()}
    assert runs.keys() == {run.key for run in module.runs()} and len(runs) == 24_600
    assert {run.grid for run in runs.values()} >= {"droptail", "red"}
    quick = load_campaign(str(REPO / "campaigns" / "red-vs-droptail-ns324.toml"), quick=True)
    module_quick = load_campaign(str(REPO / "campaigns" / "red-vs-droptail.toml"), quick=True)
    assert {run.key for run in quick.runs()} == {run.key for run in module_quick.runs()}
    # fig1-red is Fig. 1's setting inside "red": 25 cells x 10 pairs x 6 seeds.
    fig1 = [run for run in ours.runs() if run.params.get("queueDisc") == "RED"
            and run.params["bottleneckRate"] == "1Mbps" and run.params["bottleneckDelay"] == "20ms"
            and run.params["wait"] and run.params["gentle"]]
    assert len(fig1) == 1500


# --------------------------------------------------------------------------- the program


def test_the_schema_matches_the_module_example(binary):
    if not MODULE_EXAMPLE.is_file():
        pytest.skip(f"{MODULE_EXAMPLE} not built (./qdisc-lab build)")
    ours = read_schema(binary)
    module = read_schema(MODULE_EXAMPLE)
    assert ours.program == module.program == PROGRAM
    shared = [p["name"] for p in module.params if p["name"] not in NOT_HONOURED]
    assert [p["name"] for p in ours.params] == shared
    for name in shared:
        a, b = ours.param(name), module.param(name)
        assert (a["type"], a["default"], a["recorded"]) == (b["type"], b["default"],
                                                          b["recorded"]), name
    assert [m["name"] for m in ours.metrics] == [m["name"] for m in module.metrics]


def test_a_short_run_writes_a_report_its_schema_accepts(binary, tmp_path):
    doc = report(binary, tmp_path, "--quick", "--queueDisc=RED", "--nTcp=2")
    assert (doc["program"], doc["ns3_version"]) == (PROGRAM, "3.24")
    params, m = doc["params"], doc["metrics"]
    assert (params["queueDisc"], params["nTcp"], params["simTime"], params["warmup"]) == (
        "RED", 2, 10, 1)
    assert params["RngRun"] == 1 and "accessRate" not in params  # recorded never
    assert all(value is not None for value in m.values())


@pytest.fixture(scope="module")
def small_buffer(binary, tmp_path_factory):
    """DropTail and RED 0.08/0.16 at an 8000-byte queue, window 32000, 10 s."""
    docs = {}
    for queue in ("FIFO", "RED"):
        folder = tmp_path_factory.mktemp(queue)
        docs[queue] = report(binary, folder, "--quick", f"--queueDisc={queue}",
                             "--queueSize=8000", "--minTh=0.08", "--maxTh=0.16")["metrics"]
    return docs


def test_red_drops_early_and_droptail_only_when_full(small_buffer):
    red, droptail = small_buffer["RED"], small_buffer["FIFO"]
    assert red["early_drops"] > 0
    assert red["drops"] == red["early_drops"] + red["forced_drops"]
    assert droptail["early_drops"] == 0 and droptail["drops"] == droptail["forced_drops"] > 0


def test_goodput_is_conserved_and_below_the_bottleneck_rate(small_buffer):
    for m in small_buffer.values():
        assert m["total_goodput_mbps"] == pytest.approx(
            m["tcp_goodput_mbps"] + m["udp_goodput_mbps"], rel=1e-12)
        assert 0.5 < m["total_goodput_mbps"] < 1.0  # 1 Mb/s, IP and TCP headers included
        # UDP offers 500 kb/s three quarters of the time: at most 0.375 Mb/s on average.
        assert 0 < m["udp_goodput_mbps"] <= 0.375 * 1.07
        # An 8000-byte queue at 1 Mb/s holds at most 64 ms (plus one packet) of delay.
        assert 0 < m["mean_queue_delay_ms"] <= m["p99_queue_delay_ms"] <= 75


def test_replications_differ_and_repeat(binary, tmp_path):
    one = report(binary, tmp_path, "--quick", "--queueDisc=RED", "--RngRun=1")["metrics"]
    again = report(binary, tmp_path, "--quick", "--queueDisc=RED", "--RngRun=1")["metrics"]
    other = report(binary, tmp_path, "--quick", "--queueDisc=RED", "--RngRun=2")["metrics"]
    assert one == again and one != other


@pytest.mark.parametrize("arg, message", [
    ("--window=abc", "--window=abc is not an integer in [1, 4294967295]"),
    ("--window=0", "--window=0 is not an integer in [1, 4294967295]"),
    ("--bottleneckRate=fast", "--bottleneckRate=fast is not a rate"),
    ("--bottleneckDelay=xx", "--bottleneckDelay=xx is not a time"),
    ("--wait=maybe", "--wait=maybe is not a boolean"),
    ("--queueDisc=Foo", "--queueDisc=Foo is not one of its choices: FIFO, RED"),
    ("--sack=true", "--sack: no such parameter"),
    ("--warmup=40", "--warmup must be in [0, simTime)"),
])
def test_a_bad_value_is_one_line_naming_the_parameter_and_exit_2(binary, arg, message):
    done = run(binary, arg, check=False)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], done.stderr


def test_red_thresholds_are_checked_for_red_only(binary):
    done = run(binary, "--queueDisc=RED", "--minTh=0.9", "--maxTh=0.5", check=False)
    assert done.returncode == 2 and "--minTh, --maxTh" in done.stderr
