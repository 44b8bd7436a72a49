# SPDX-License-Identifier: GPL-2.0-only
"""``qdisclab.ns`` and ``qdisc-lab python``: finding and checking the wheel build and running
a script; and, when build/wheel is built (`qdisc-lab test --ns3 wheel`, as CI does), qdisc-lab's
classes in ns-3's Python bindings and examples/python/weighted-drr.py's shares, from one
`qdisc-lab python` run that imports ns-3 (15-45 s).
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from qdisclab import ns

from qdisclab.cli import main
from qdisclab.context import PYTHON_DIR, REPO
from qdisclab.commands import python as python_cmd
from qdisclab.toolchain import provision
from qdisclab.toolchain.build import build_dir

EXAMPLE = REPO / "examples" / "python" / "weighted-drr.py"


def fake_build(root: Path, version: tuple[int, int] | None = (3, 44)) -> Path:
    """A build directory with the files qdisclab.ns looks for, built against ``version``."""
    (root / "lib").mkdir(parents=True)
    (root / ns.LIBRARY).write_bytes(b"")
    headers = root / ns.INCLUDE_DIR / "ns3"
    headers.mkdir(parents=True)
    (root / ns.INCLUDE_DIR / ns.MODULE_HEADER).write_text("")
    if version:
        (root / ns.INCLUDE_DIR / ns.VERSION_HEADER).write_text(
            "#ifndef QDISC_LAB_VERSION_H\n#define QDISC_LAB_VERSION_H\n"
            f"#define QDISC_LAB_NS3_VERSION_MAJOR {version[0]}\n"
            f"#define QDISC_LAB_NS3_VERSION_MINOR {version[1]}\n#endif\n"
        )
    return root


@pytest.fixture
def ns3_344(monkeypatch):
    """This Python's ns-3 wheel is 3.44.post0, whatever is installed."""
    monkeypatch.setattr(ns, "installed_ns3", lambda: ("3.44.post0", (3, 44)))


def test_build_dir_is_the_checkouts_wheel_build_unless_the_environment_names_one(
    monkeypatch, tmp_path
):
    monkeypatch.delenv(ns.BUILD_ENV, raising=False)
    assert ns.build_dir() == REPO / "build" / "wheel"
    monkeypatch.setenv(ns.BUILD_ENV, str(tmp_path / "mine"))
    assert ns.build_dir() == tmp_path / "mine"


def test_a_missing_build_says_how_to_build_it(tmp_path):
    with pytest.raises(ns.BuildMissing) as missing:
        ns.check_build(tmp_path)
    assert str(missing.value) == (
        f"no qdisc-lab build in {tmp_path} (it lacks lib/libns3-qdisc-lab.so): build it with "
        "`./qdisc-lab build --ns3 wheel` (or run your script with `./qdisc-lab python SCRIPT`, "
        "which builds it), or set QDISC_LAB_BUILD to a build directory"
    )
    (tmp_path / "lib").mkdir()
    (tmp_path / ns.LIBRARY).write_bytes(b"")
    with pytest.raises(ns.BuildMissing, match=r"it lacks include/ns3/qdisc-lab-module\.h"):
        ns.check_build(tmp_path)


def test_the_build_version_comes_from_its_generated_header(tmp_path):
    assert ns.built_against(fake_build(tmp_path / "a", (3, 44))) == (3, 44)
    assert ns.built_against(fake_build(tmp_path / "b", (3, 37))) == (3, 37)
    with pytest.raises(ns.BuildMismatch, match=r"qdisc-lab-version\.h is missing, .* --clean`$"):
        ns.built_against(fake_build(tmp_path / "c", None))


def test_a_build_for_another_ns3_is_refused_before_ns3_is_imported(tmp_path, ns3_344):
    ns.check_build(fake_build(tmp_path / "ok", (3, 44)))
    with pytest.raises(ns.BuildMismatch) as mismatch:
        ns.check_build(fake_build(tmp_path / "old", (3, 37)))
    assert str(mismatch.value) == (
        f"{tmp_path / 'old'} was built against ns-3 3.37, but this Python's ns-3 is 3.44.post0; "
        "rebuild it against this one with `./qdisc-lab build --ns3 wheel --clean`"
    )


def test_without_the_ns3_wheel_the_error_says_how_to_install_it(monkeypatch):
    def not_installed(name):
        raise ns.importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(ns.importlib.metadata, "version", not_installed)
    with pytest.raises(ns.BuildError, match=r"`ns3` wheel\) are not installed .* setup --wheel"):
        ns.installed_ns3()


def test_importing_the_module_does_not_import_ns3():
    probe = "import sys, qdisclab.ns; print(sorted({'cppyy', 'ns'} & set(sys.modules)))"
    env = {**os.environ, "PYTHONPATH": str(PYTHON_DIR)}
    result = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                            text=True, check=True, timeout=60)
    assert result.stdout == "[]\n"


@pytest.fixture
def command(monkeypatch):
    """`qdisc-lab python` with building, setup and exec recorded instead of done."""
    calls = []
    monkeypatch.setattr(provision, "ensure_setup", lambda wheel: calls.append(("setup", wheel)))
    monkeypatch.setattr(python_cmd, "build",
                        lambda flavor, clean, targets: calls.append((flavor, clean, targets)))
    monkeypatch.setattr(provision, "missing_wheel_pins", lambda: [])

    def execve(path, argv, env):
        calls.append(("exec", argv, env))

    monkeypatch.setattr(python_cmd.os, "execve", execve)
    return calls


def run_python(*args):
    return CliRunner().invoke(main, ["python", *args], prog_name="qdisc-lab")


def test_python_runs_the_script_at_once_when_the_build_fits(monkeypatch, command, ns3_344,
                                                             tmp_path):
    target = fake_build(tmp_path / "wheel")
    monkeypatch.setattr(python_cmd, "build_dir", lambda flavor: target)
    monkeypatch.setenv(ns.BUILD_ENV, str(target))
    result = run_python("-X", "dev", "script.py", "--weights", "1,2")
    assert result.exit_code == 0, result.output
    assert "first run" not in result.output  # nothing to build: no cost to announce
    [(what, argv, env)] = command
    assert what == "exec"
    assert argv == [sys.executable, "-X", "dev", "script.py", "--weights", "1,2"]
    assert env[ns.BUILD_ENV] == str(target)
    # qdisclab is installed in the venv (editable): the script needs no PYTHONPATH.
    assert env.get("PYTHONPATH") == os.environ.get("PYTHONPATH")


@pytest.mark.parametrize("version, clean", [(None, False), ((3, 37), True)])
def test_python_builds_a_missing_build_and_rebuilds_a_mismatched_one(
    monkeypatch, command, ns3_344, tmp_path, version, clean
):
    target = tmp_path / "wheel"
    if version:
        fake_build(target, version)
    monkeypatch.setattr(python_cmd, "build_dir", lambda flavor: target)
    monkeypatch.setattr(ns, "build_dir", lambda: target)

    def build(flavor, clean, targets):
        command.append((flavor, clean, targets))
        shutil.rmtree(target, ignore_errors=True)
        fake_build(target, (3, 44))

    monkeypatch.setattr(python_cmd, "build", build)
    result = run_python("script.py")
    assert result.exit_code == 0, result.output
    # Only the library the import loads, not the tests and examples.
    assert [call[:3] for call in command] == [
        ("setup", True), ("wheel", clean, ("libqdisc-lab",)),
        ("exec", [sys.executable, "script.py"], command[2][2])]
    # The cost is said first: building the library (again), importing ns-3; no install step,
    # the ns-3 wheel being installed.
    plan = result.output[:result.output.index("import ns-3")]
    assert plan.startswith("qdisc-lab python: before the script runs, this first run will\n")
    assert f"  1. {'rebuild' if clean else 'build'} qdisc-lab's library in {target}: about " in plan
    assert "install" not in plan


def test_the_first_run_plan_names_the_ns3_wheel_install_when_it_is_missing(tmp_path):
    plan = python_cmd.first_run_plan(["ns3==3.44.post0"], tmp_path, False).splitlines()
    assert plan[1].startswith("  1. install ns3==3.44.post0 into the venv: a minute or two of ")
    assert f"(once: the wheels are kept in {provision.WHEELS_DIR})" in plan[1]
    assert plan[2].startswith(f"  2. build qdisc-lab's library in {tmp_path}: about ")
    assert plan[3] == "  3. import ns-3 in your script: 15-45 s"


def test_python_does_not_build_into_a_directory_named_by_the_user(monkeypatch, command,
                                                                  tmp_path):
    monkeypatch.setenv(ns.BUILD_ENV, str(tmp_path))
    result = run_python("script.py")
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: QDISC_LAB_BUILD={tmp_path}: no qdisc-lab build in")
    assert command == []


# ---- qdisc-lab's classes in ns-3's own bindings, then the example, in one `qdisc-lab python`
# run (importing ns-3 takes 15-45 s, so it is done once).

needs_wheel_build = pytest.mark.skipif(
    not (build_dir("wheel") / ns.LIBRARY).is_file(),
    reason="build/wheel not built (qdisc-lab build --ns3 wheel)",
)

# Prints one JSON line about qdisc-lab's classes, then runs the script given as its argument.
SESSION = """
import json, runpy, sys
from qdisclab.ns import ns

def name(tid):
    return str(tid.GetName())  # a std::string

drr = ns.CreateObject[ns.DrrQueueDisc]()
drr.SetAttribute("Quantum", ns.UintegerValue(1500))
quantum = ns.UintegerValue()
drr.GetAttribute("Quantum", quantum)
print(json.dumps({
    "typeids": [name(ns.TypeId.LookupByName(n)) for n in
                ("ns3::DrrQueueDisc", "ns3::CioqSwitchNetDevice", "ns3::DscpMarkerQueueDisc")],
    "instance": name(drr.GetInstanceTypeId()),
    "quantum": quantum.Get(),
    "parent": name(ns.DrrQueueDisc.GetTypeId().GetParent()),
    "helpers": [type(ns.DscpMarkerHelper()).__name__, type(ns.CioqSwitchHelper()).__name__],
    "ns3": name(ns.TypeId.LookupByName("ns3::FqCoDelQueueDisc")),
}), flush=True)
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


@pytest.fixture(scope="module")
def session() -> list[str]:
    """The stdout lines of `qdisc-lab python -c SESSION weighted-drr.py` on build/wheel."""
    env = {**os.environ, "PYTHONPATH": str(PYTHON_DIR)}
    env.pop(ns.BUILD_ENV, None)
    result = subprocess.run(
        [sys.executable, "-m", "qdisclab", "python", "-c", SESSION, str(EXAMPLE)],
        env=env, cwd=REPO, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


@needs_wheel_build
def test_qdisc_labs_classes_and_typeids_sit_next_to_ns3s(session):
    assert json.loads(session[0]) == {
        "typeids": ["ns3::DrrQueueDisc", "ns3::CioqSwitchNetDevice", "ns3::DscpMarkerQueueDisc"],
        "instance": "ns3::DrrQueueDisc",
        "quantum": 1500,
        "parent": "ns3::PerFlowQueueDisc",
        "helpers": ["DscpMarkerHelper", "CioqSwitchHelper"],
        "ns3": "ns3::FqCoDelQueueDisc",
    }


@needs_wheel_build
def test_weighted_drr_example_shares_follow_the_weights(session):
    header, *rows = session[1:]
    assert header == "dport weight mbps share ideal"
    flows = [dict(zip(header.split(), map(float, row.split()))) for row in rows]
    assert [(f["dport"], f["weight"], f["ideal"]) for f in flows] == [
        (5000, 1, 0.1667), (5001, 2, 0.3333), (5002, 3, 0.5)
    ]
    for flow in flows:
        assert flow["share"] == pytest.approx(flow["ideal"], rel=0.05), flow
    # The bottleneck (3 Mb/s, 1000-byte payloads in 1030-byte frames) is fully used.
    assert sum(f["mbps"] for f in flows) == pytest.approx(3 * 1000 / 1030, rel=0.01)
