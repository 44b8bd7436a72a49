# SPDX-License-Identifier: GPL-2.0-only
"""``build()``: the CMake command lines, with external commands recorded, not run."""

import re
import subprocess

import pytest

from qdisclab.context import REPO
from qdisclab.toolchain import build as build_mod


@pytest.fixture
def recorded(monkeypatch, tmp_path):
    """Point the build at tmp_path/repo and record proc.run calls instead of running them."""
    calls = []

    def fake_run(cmd, **kwargs):
        calls.append(([str(c) for c in cmd], kwargs))
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(build_mod, "REPO", tmp_path / "repo")
    monkeypatch.setattr(build_mod, "CCACHE_DIR", tmp_path / "cache" / "ccache")
    monkeypatch.setattr(build_mod.proc, "run", fake_run)
    return calls


def test_first_build_configures_then_builds(recorded, tmp_path):
    out = build_mod.build("system")
    assert out == tmp_path / "repo" / "build" / "system"
    (configure, configure_kwargs), (compile_, _) = recorded
    assert configure == [
        "cmake", "-S", str(tmp_path / "repo"), "-B", str(out), "-G", "Ninja",
        "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache",
    ]  # fmt: skip
    assert configure_kwargs["env"] == {
        "CCACHE_DIR": str(tmp_path / "cache" / "ccache"),
        "CCACHE_BASEDIR": str(tmp_path / "repo"),
    }
    assert compile_ == ["cmake", "--build", str(out)]


def test_sanitized_build_is_a_debug_build_of_its_own(recorded, tmp_path):
    out = build_mod.build("system", sanitize=True)
    assert out == tmp_path / "repo" / "build" / "system-sanitize"
    (configure, _), (compile_, _) = recorded
    assert configure == [
        "cmake", "-S", str(tmp_path / "repo"), "-B", str(out), "-G", "Ninja",
        "-DCMAKE_BUILD_TYPE=Debug", "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache",
        "-DQDISC_LAB_SANITIZE=ON",
    ]  # fmt: skip
    assert compile_ == ["cmake", "--build", str(out)]


def test_sanitized_programs_stop_at_the_first_report_and_check_leaks():
    assert build_mod.runtime_env("system") == {}
    assert build_mod.runtime_env("system", sanitize=True) == {
        "ASAN_OPTIONS": "halt_on_error=1:detect_leaks=1:print_stacktrace=1",
        "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
    }


def test_configured_build_only_builds(recorded, tmp_path):
    out = tmp_path / "repo" / "build" / "system"
    out.mkdir(parents=True)
    (out / "build.ninja").write_text("")
    build_mod.build("system")
    assert [cmd for cmd, _ in recorded] == [["cmake", "--build", str(out)]]


def test_clean_removes_the_build_dir(recorded, tmp_path):
    out = tmp_path / "repo" / "build" / "system"
    out.mkdir(parents=True)
    (out / "build.ninja").write_text("")
    build_mod.build("system", clean=True)
    assert recorded[0][0][0:2] == ["cmake", "-S"]
    assert not (out / "build.ninja").exists()


def test_wheel_flavor_points_cmake_at_the_wheel(recorded, tmp_path, monkeypatch):
    cmake_dir = tmp_path / "site" / "ns3" / "lib64" / "cmake" / "ns3"
    cmake_dir.mkdir(parents=True)
    monkeypatch.setattr(build_mod, "wheel_ns3_root", lambda: tmp_path / "site" / "ns3")
    build_mod.build("wheel")
    assert recorded[0][0][-1] == f"-Dns3_DIR={cmake_dir}"
    assert recorded[0][0][4] == str(tmp_path / "repo" / "build" / "wheel")
    env = build_mod.runtime_env("wheel")
    assert env["LD_LIBRARY_PATH"].split(":")[0] == str(tmp_path / "site" / "ns3" / "lib64")


def test_wheel_flavor_without_wheel_is_a_clear_error(recorded, tmp_path, monkeypatch):
    import click

    monkeypatch.setattr(build_mod, "wheel_ns3_root", lambda: tmp_path / "nowhere")
    with pytest.raises(click.ClickException, match="setup --wheel"):
        build_mod.build("wheel")


def test_unknown_flavor():
    with pytest.raises(ValueError, match="unknown ns-3 flavor"):
        build_mod.build("debian")


def test_sanitized_build_runs_every_example_quick_as_a_ctest(tmp_path):
    """Configured (not built) against Debian's ns-3, the sanitized build has one ctest per
    examples/*.cc, its --quick run; the Release build has none."""

    def example_tests(*options):
        out = tmp_path / "-".join(options or ("release",))
        subprocess.run(["cmake", "-S", REPO, "-B", out, "-G", "Ninja", *options],
                       check=True, capture_output=True)
        # add_test(example/NAME "<build>/examples/NAME" "--quick"), as CMake wrote it for ctest
        tests = (out / "examples" / "CTestTestfile.cmake").read_text()
        return {name: (program, args) for name, program, args
                in re.findall(r'^add_test\((\S+) "([^"]+)" (.*)\)$', tests, re.M)}

    examples = {p.stem for p in (REPO / "examples").glob("*.cc")}
    out = tmp_path / "-DQDISC_LAB_SANITIZE=ON"
    assert example_tests("-DQDISC_LAB_SANITIZE=ON") == {
        f"example/{name}": (str(out / "examples" / name), '"--quick"') for name in examples
    }
    assert example_tests() == {}
