# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab install``: the installed tree, and a program of one's own (data/consumer) built
against it with the CMake package and with pkg-config, then run without LD_LIBRARY_PATH.

For each flavor whose library is built (``qdisc-lab build --ns3 system|wheel``).
"""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_build_lists import cmake_calls

from qdisclab.cli import main
from qdisclab.context import REPO
from qdisclab.toolchain import build as build_mod

CONSUMER = Path(__file__).parent / "data" / "consumer"
#: A consumer linking an ns-3 module qdisc-lab does not (point-to-point-layout).
CONSUMER_LAYOUT = Path(__file__).parent / "data" / "consumer-layout"
LAYOUT_OUTPUT = "ns3::DrrQueueDisc sent 40\nreceiver 0 received 20\nreceiver 1 received 20\n"
CMAKE_PACKAGE = {
    "qdisc-lab-config.cmake",
    "qdisc-lab-config-version.cmake",
    "qdisc-lab-targets.cmake",
    "qdisc-lab-targets-release.cmake",
    "qdisc-lab-ns3-targets.cmake",
}
# Debian's ns-3 ships ns3-<module>.pc files: qdisc-lab.pc requires those the library links.
DEBIAN_REQUIRES = (
    "ns3-applications ns3-csma ns3-flow-monitor ns3-internet ns3-point-to-point"
    " ns3-traffic-control"
)


def ns3_dir(flavor: str) -> Path:
    """The ns3_DIR a build directory was configured with."""
    cache = (build_mod.build_dir(flavor) / "CMakeCache.txt").read_text()
    return Path(re.search(r"^ns3_DIR:[A-Z]+=(.*)$", cache, re.M).group(1))


def ns3_version(flavor: str) -> str:
    """The version ns-3's own CMake package states (not read through qdisc-lab's build)."""
    text = (ns3_dir(flavor) / "ns3ConfigVersion.cmake").read_text()
    return re.search(r'set\(PACKAGE_VERSION "([0-9.]+)"\)', text).group(1)


def without_ld_library_path() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}


def run(cmd: list, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=600,
                          env=without_ld_library_path(), **kwargs)


def expected_output(flavor: str, quantum: int) -> str:
    return (f"ns-3 {ns3_version(flavor)}\n"
            f"ObjectFactory ns3::DrrQueueDisc Quantum={quantum}\n"
            f"TrafficControlHelper ns3::DrrQueueDisc Quantum={quantum}\n"
            "queue disc: received 20 sent 20 dropped 0\n"
            "UDP server received 20\n")


def runpath(binary: Path) -> list[str]:
    dynamic = run(["readelf", "-d", binary]).stdout
    match = re.search(r"\((?:RUNPATH|RPATH)\).*\[(.*)\]", dynamic)
    return match.group(1).split(":") if match else []


@pytest.fixture(scope="module", params=build_mod.FLAVORS)
def installed(request, tmp_path_factory) -> tuple[str, Path]:
    """(flavor, prefix) of the module installed by `qdisc-lab install` into a temporary prefix."""
    flavor = request.param
    if not (build_mod.build_dir(flavor) / "lib" / "libns3-qdisc-lab.so").is_file():
        pytest.skip(f"build/{flavor} not built (qdisc-lab build --ns3 {flavor})")
    prefix = tmp_path_factory.mktemp(f"prefix-{flavor}")
    result = CliRunner().invoke(main, ["install", "--ns3", flavor, "--prefix", str(prefix)])
    assert result.exit_code == 0, result.output
    assert "find_package(qdisc-lab CONFIG)" in result.output
    return flavor, prefix


def test_installed_tree(installed):
    flavor, prefix = installed
    files = {str(p.relative_to(prefix)) for p in prefix.rglob("*") if not p.is_dir()}
    (lib,) = cmake_calls(REPO / "CMakeLists.txt", "build_lib")
    headers = {Path(h).name for h in lib["HEADER_FILES"]} | {"qdisc-lab-module.h",
                                                              "qdisc-lab-version.h"}
    assert files == ({f"include/ns3/{h}" for h in headers}
                     | {"lib/libns3-qdisc-lab.so", "lib/pkgconfig/qdisc-lab.pc"}
                     | {f"lib/cmake/qdisc-lab/{name}" for name in CMAKE_PACKAGE})
    major, minor = ns3_version(flavor).split(".")
    version_header = (prefix / "include/ns3/qdisc-lab-version.h").read_text()
    assert f"#define QDISC_LAB_NS3_VERSION_MAJOR {major}\n" in version_header
    assert f"#define QDISC_LAB_NS3_VERSION_MINOR {minor}\n" in version_header


def test_library_finds_ns3_by_rpath_unless_in_a_system_dir(installed):
    flavor, prefix = installed
    ns3_libdir = str(ns3_dir(flavor).parents[1])  # <libdir>/cmake/ns3
    expected = [] if flavor == "system" else [ns3_libdir]
    assert runpath(prefix / "lib" / "libns3-qdisc-lab.so") == expected


def test_pkg_config_file(installed):
    flavor, prefix = installed
    fields = dict(re.findall(r"^([A-Za-z.]+): ?(.*)$",
                             (prefix / "lib/pkgconfig/qdisc-lab.pc").read_text(), re.M))
    assert fields["Libs"].startswith(
        '-L"${libdir}" -Wl,-rpath,"${libdir}" -Wl,--push-state,--no-as-needed -lns3-qdisc-lab '
        "-Wl,--pop-state")
    if flavor == "system":
        assert fields["Requires"] == DEBIAN_REQUIRES
        assert fields["Cflags"] == '-std=c++17 -I"${includedir}"'
    else:  # the wheel's own .pc files name its build machine: qdisc-lab.pc names its flags
        wheel = ns3_dir(flavor).parents[2]
        assert fields["Requires"] == ""
        assert fields["Cflags"] == f'-std=c++20 -I"${{includedir}}" -I"{wheel}/include"'
        assert f'-Wl,-rpath,"{wheel}/lib64"' in fields["Libs"]
        assert "-lns3.44-traffic-control" in fields["Libs"]


def test_program_with_cmake_package(installed, tmp_path):
    flavor, prefix = installed
    build = tmp_path / "build"
    configure = run(["cmake", "-S", CONSUMER, "-B", build, "-G", "Ninja",
                     f"-DCMAKE_PREFIX_PATH={prefix}"])
    assert configure.returncode == 0, configure.stdout + configure.stderr
    compiled = run(["cmake", "--build", build])
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    # Installed elsewhere, the program still finds both libraries (RPATH, as the README says).
    assert run(["cmake", "--install", build, "--prefix", tmp_path / "app"]).returncode == 0
    program = tmp_path / "app" / "bin" / "consumer"
    shutil.rmtree(build)
    result = run([program, "--quantum=700"])
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected_output(flavor, 700)


def test_program_with_pkg_config(installed, tmp_path):
    flavor, prefix = installed
    env = {**without_ld_library_path(), "PKG_CONFIG_PATH": str(prefix / "lib" / "pkgconfig")}
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "qdisc-lab"], env=env,
                           capture_output=True, text=True, check=True).stdout.split()
    program = tmp_path / "consumer"
    compiled = run(["g++", CONSUMER / "consumer.cc", *flags, "-o", program])
    assert compiled.returncode == 0, compiled.stderr
    result = run([program])
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected_output(flavor, 500)


def test_program_naming_another_ns3_module_with_cmake_package(installed, tmp_path):
    """qdisc_lab_link_ns3(target PRIVATE point-to-point-layout) links ns-3's dumbbell helper,
    whichever name the ns-3 exports it under (Debian's ns3::libpoint-to-point-layout)."""
    _, prefix = installed
    build = tmp_path / "build"
    configure = run(["cmake", "-S", CONSUMER_LAYOUT, "-B", build, "-G", "Ninja",
                     f"-DCMAKE_PREFIX_PATH={prefix}"])
    assert configure.returncode == 0, configure.stdout + configure.stderr
    compiled = run(["cmake", "--build", build])
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    result = run([build / "dumbbell"])
    assert result.returncode == 0, result.stderr
    assert result.stdout == LAYOUT_OUTPUT


def test_a_missing_ns3_module_is_named(installed, tmp_path):
    _, prefix = installed
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.16)\n"
        "project(typo LANGUAGES CXX)\n"
        "find_package(qdisc-lab CONFIG REQUIRED)\n"
        "add_executable(app app.cc)\n"
        "qdisc_lab_link_ns3(app point-to-point-layuot)\n")
    (tmp_path / "app.cc").write_text("int main() { return 0; }\n")
    result = run(["cmake", "-S", tmp_path, "-B", tmp_path / "build", "-G", "Ninja",
                  f"-DCMAKE_PREFIX_PATH={prefix}"])
    assert result.returncode != 0
    message = " ".join((result.stdout + result.stderr).split())
    assert "has no module 'point-to-point-layuot'" in message


def test_program_naming_another_ns3_module_with_pkg_config(installed, tmp_path):
    """On Debian's ns-3 a further module is its ns3-<module>.pc beside qdisc-lab."""
    flavor, prefix = installed
    if flavor != "system":
        pytest.skip("the wheel's ns3-*.pc files name its build machine's paths")
    env = {**without_ld_library_path(), "PKG_CONFIG_PATH": str(prefix / "lib" / "pkgconfig")}
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "qdisc-lab",
                            "ns3-point-to-point-layout"], env=env,
                           capture_output=True, text=True, check=True).stdout.split()
    program = tmp_path / "dumbbell"
    compiled = run(["g++", CONSUMER_LAYOUT / "dumbbell.cc", *flags, "-o", program])
    assert compiled.returncode == 0, compiled.stderr
    result = run([program])
    assert result.returncode == 0, result.stderr
    assert result.stdout == LAYOUT_OUTPUT


def test_package_refuses_another_ns3(installed, tmp_path):
    """A project that found another ns-3 first would link both: the package refuses, saying why."""
    flavor, prefix = installed
    other = "wheel" if flavor == "system" else "system"
    if not (build_mod.build_dir(other) / "CMakeCache.txt").is_file():
        pytest.skip(f"build/{other} not configured")
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.16)\n"
        "project(mixed LANGUAGES CXX)\n"
        "find_package(ns3 CONFIG REQUIRED)\n"
        "find_package(qdisc-lab CONFIG REQUIRED)\n")
    result = run(["cmake", "-S", tmp_path, "-B", tmp_path / "build", "-G", "Ninja",
                  f"-DCMAKE_PREFIX_PATH={prefix}", f"-Dns3_DIR={ns3_dir(other)}"])
    assert result.returncode != 0
    message = " ".join((result.stdout + result.stderr).split())
    assert (f"it was built against ns-3 {ns3_version(flavor)} (ns3_DIR={ns3_dir(flavor)}), but "
            f"this project uses ns-3 {ns3_version(other)} (ns3_DIR={ns3_dir(other)})") in message
