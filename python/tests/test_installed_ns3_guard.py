# SPDX-License-Identifier: GPL-2.0-only
"""An in-tree build cannot take an installed ns-3's headers (cmake/qdisc-lab-installed-ns3-guard.cmake).

In an ns-3 source tree, a header the tree lacks (ns3/ipv4-global-routing.h in ns-3.48) would be
found in an installed ns-3 on the compiler's default path (Debian's libns3-dev: /usr/include/ns3).
The guard writes a stub with an #error for each installed header the tree lacks. These tests run
the CMake function in script mode on a fake tree and a fake installed ns-3 (a -isystem directory,
searched like /usr/include) and compile against the result: no ns-3 build is needed.
"""

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GUARD_CMAKE = REPO / "cmake" / "qdisc-lab-installed-ns3-guard.cmake"

pytestmark = pytest.mark.skipif(
    not (shutil.which("cmake") and shutil.which("g++")), reason="needs cmake and g++"
)


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def write_guard(tmp_path: Path, tree: Path, own: Path, installed: list[Path]) -> tuple[Path, int]:
    """Run qdisc_lab_write_installed_ns3_guard through `cmake -P`; the guard dir and its count."""
    guard = tmp_path / "guard"
    script = _write(
        tmp_path / "run-guard.cmake",
        f'include("{GUARD_CMAKE}")\n'
        f'qdisc_lab_write_installed_ns3_guard("{guard}" count TREE "{tree}" OWN "{own}" '
        f'VERSION 3.48 INSTALLED {" ".join(map(str, installed))})\n'
        'message(STATUS "count=${count}")\n',
    )
    proc = subprocess.run(["cmake", "-P", str(script)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    (line,) = [x for x in (proc.stdout + proc.stderr).splitlines() if "count=" in x]
    return guard, int(line.rsplit("=", 1)[1])


def compile_errors(tmp_path: Path, source: str, flags: list[str]) -> str:
    """g++ -fsyntax-only on `source`; its stderr ('' if it compiled)."""
    tu = _write(tmp_path / "tu.cc", source)
    proc = subprocess.run(["g++", "-fsyntax-only", *flags, str(tu)], capture_output=True, text=True)
    return "" if proc.returncode == 0 else proc.stderr or f"exit {proc.returncode}"


@pytest.fixture
def layout(tmp_path):
    """A tree with ns3/core.h; an installed ns-3 with core.h, gone.h (the tree lacks it) and
    drr-queue-disc.h and qdisc-lab-module.h (the module's own names: never guarded)."""
    tree = tmp_path / "tree" / "build" / "include"
    _write(tree / "ns3" / "core.h", "#define FROM_TREE 1\n")
    installed = tmp_path / "usr" / "include"
    for name in ("core.h", "gone.h", "drr-queue-disc.h", "qdisc-lab-module.h"):
        _write(installed / "ns3" / name, f"#define FROM_INSTALLED_{name[:4].replace('-', '_')} 1\n")
    own = tmp_path / "module"
    _write(own / "model" / "drr-queue-disc.h", "#pragma once\n")
    return tree, installed, own


def test_without_the_guard_an_installed_header_fills_in_for_a_missing_one(tmp_path, layout):
    tree, installed, _ = layout
    flags = ["-I", str(tree), "-isystem", str(installed)]
    # the leak this guards against: the tree lacks gone.h, the installed ns-3 supplies it
    assert compile_errors(tmp_path, '#include "ns3/gone.h"\nstatic_assert(FROM_INSTALLED_gone);\n',
                          flags) == ""


def test_the_guard_stops_a_build_that_includes_a_header_the_tree_lacks(tmp_path, layout):
    tree, installed, own = layout
    guard, count = write_guard(tmp_path, tree / "ns3", own, [installed])
    assert count == 1
    assert sorted(p.name for p in (guard / "ns3").iterdir()) == ["gone.h"]
    flags = ["-I", str(tree), "-I", str(guard), "-isystem", str(installed)]
    errors = compile_errors(tmp_path, '#include "ns3/gone.h"\n', flags)
    assert "ns3/gone.h is not a header of this ns-3 3.48 tree" in errors
    assert str(installed / "ns3" / "gone.h") in errors


def test_the_guard_leaves_the_trees_headers_and_the_modules_own_alone(tmp_path, layout):
    tree, installed, own = layout
    guard, _ = write_guard(tmp_path, tree / "ns3", own, [installed])
    # the guard directory may come before or after the tree's: their names never overlap
    for order in (["-I", str(tree), "-I", str(guard)], ["-I", str(guard), "-I", str(tree)]):
        flags = [*order, "-isystem", str(installed)]
        assert compile_errors(tmp_path, '#include "ns3/core.h"\nstatic_assert(FROM_TREE);\n',
                              flags) == ""


def test_the_guard_is_empty_without_an_installed_ns3(tmp_path, layout):
    tree, _, own = layout
    guard, count = write_guard(tmp_path, tree / "ns3", own, [])
    assert count == 0 and list((guard / "ns3").iterdir()) == []


@pytest.mark.skipif(not Path("/usr/include/ns3/ipv4-global-routing.h").is_file(),
                    reason="no installed ns-3 with ipv4-global-routing.h in /usr/include")
def test_debians_ns3_header_that_ns3_48_dropped_is_guarded(tmp_path):
    """The case that prompted the guard: a 3.48 tree has global-routing.h, not
    ipv4-global-routing.h; Debian's 3.37 in /usr/include (the compiler's own path) has it."""
    tree = _write(tmp_path / "tree" / "ns3" / "global-routing.h", "#pragma once\n").parent.parent
    guard, count = write_guard(tmp_path, tree / "ns3", tmp_path / "module", [Path("/usr/include")])
    assert count > 500  # every installed header but global-routing.h
    errors = compile_errors(tmp_path, '#include "ns3/ipv4-global-routing.h"\n',
                            ["-I", str(tree), "-I", str(guard)])
    assert "ns3/ipv4-global-routing.h is not a header of this ns-3 3.48 tree" in errors


def test_the_module_sets_the_guard_before_ns3_defines_its_targets():
    """include_directories reaches only targets defined after it: the library, its tests and
    the examples are all defined by build_lib."""
    text = (REPO / "CMakeLists.txt").read_text()
    assert 0 <= text.index("qdisc_lab_guard_installed_ns3_headers()") < text.index("\nbuild_lib(")


# --------------------------------------------------------------------------- after the build

DEPS = """\
src/core/CMakeFiles/core.dir/model/time.cc.o: #deps 2, deps mtime 1 (VALID)
    ../src/core/model/time.cc
    /usr/include/ns3/nstime.h

contrib/qdisc-lab/CMakeFiles/qdisc-lab.dir/model/drr-queue-disc.cc.o: #deps 3, deps mtime 1 (VALID)
    ../contrib/qdisc-lab/model/drr-queue-disc.cc
    /usr/include/c++/12/vector
    /usr/include/libxml2/libxml/tree.h

contrib/qdisc-lab/CMakeFiles/qdisc-lab-test.dir/test/x-test-suite.cc.o: #deps 4, deps mtime 1 (VALID)
    ../contrib/qdisc-lab/test/x-test-suite.cc
    /tree/build/include/ns3/global-routing.h
    /usr/include/ns3/ipv4-global-routing.h
    /usr/include/ns3/ipv4-routing-protocol.h

"""


def test_installed_headers_are_found_in_the_module_objects_dependencies():
    from qdisclab.toolchain import intree

    assert intree.installed_headers_used(DEPS) == {
        "contrib/qdisc-lab/CMakeFiles/qdisc-lab-test.dir/test/x-test-suite.cc.o": [
            "/usr/include/ns3/ipv4-global-routing.h",
            "/usr/include/ns3/ipv4-routing-protocol.h",
        ]
    }  # ns-3's own objects and the system's other headers are not the module's concern
    clean = DEPS.split("contrib/qdisc-lab/CMakeFiles/qdisc-lab-test.dir")[0]
    assert intree.installed_headers_used(clean) == {}


def test_the_in_tree_run_stops_when_the_build_read_an_installed_header(tmp_path, monkeypatch):
    from qdisclab.toolchain import intree

    tree = tmp_path / "ns-3.48"
    (tree / "cmake-cache").mkdir(parents=True)
    (tree / "cmake-cache" / "build.ninja").write_text("")
    (tree / "ns3").write_text("")
    calls = []

    def fake_run(cmd, **kwargs):
        calls.append([str(c) for c in cmd])
        return subprocess.CompletedProcess(cmd, 0, stdout=DEPS)

    monkeypatch.setattr(intree, "run_cmd", fake_run)
    monkeypatch.setattr(intree.shutil, "which", lambda name: f"/usr/bin/{name}")
    with pytest.raises(intree.StepFailed, match=r"1 of qdisc-lab's objects read an installed "
                                                r"ns-3's headers instead of the tree's:\n"
                                                r"  contrib/qdisc-lab/.*x-test-suite\.cc\.o: "
                                                r"/usr/include/ns3/ipv4-global-routing\.h"):
        intree.check_no_installed_headers(tree, {})
    assert calls == [["ninja", "-C", str(tree / "cmake-cache"), "-t", "deps"]]


@pytest.mark.skipif(not shutil.which("ninja"), reason="needs ninja")
def test_in_a_cmake_tree_the_guard_is_filled_after_ns3_configured_its_modules(tmp_path):
    """ns-3 configures contrib/ before src/: the guard is written when the whole tree is
    configured, so a header an src/ module adds later is the tree's, not guarded; the module's
    targets get the guard directory and stop at a header only the installed ns-3 has."""
    installed = tmp_path / "usr" / "include"
    for name in ("core.h", "gone.h"):
        _write(installed / "ns3" / name, "#define FROM_INSTALLED 1\n")
    src = tmp_path / "src"
    _write(src / "CMakeLists.txt", f"""cmake_minimum_required(VERSION 3.19)
project(fake-ns3 CXX)
set(NS3_VER 3.48)
set(CMAKE_HEADER_OUTPUT_DIRECTORY ${{CMAKE_BINARY_DIR}}/include/ns3)
include_directories(${{CMAKE_BINARY_DIR}}/include)
add_subdirectory(contrib)
file(WRITE ${{CMAKE_HEADER_OUTPUT_DIRECTORY}}/core.h "#define FROM_TREE 1\\n")  # src/, later
""")
    _write(src / "contrib" / "CMakeLists.txt", f"""include("{GUARD_CMAKE}")
qdisc_lab_guard_installed_ns3_headers()
add_library(uses-core OBJECT uses-core.cc)
add_library(uses-gone OBJECT uses-gone.cc)
""")
    _write(src / "contrib" / "uses-core.cc", '#include "ns3/core.h"\nstatic_assert(FROM_TREE);\n')
    _write(src / "contrib" / "uses-gone.cc", '#include "ns3/gone.h"\n')
    build = tmp_path / "build"
    configure = subprocess.run(
        ["cmake", "-S", src, "-B", build, "-G", "Ninja",
         f"-DQDISC_LAB_INSTALLED_NS3_INCLUDE_DIRS={installed}",
         f"-DCMAKE_CXX_FLAGS=-isystem {installed}"],  # searched like /usr/include
        capture_output=True, text=True)
    assert configure.returncode == 0, configure.stdout + configure.stderr
    assert "the 1 that this tree lacks stop the build if included" in configure.stdout
    guard = build / "contrib" / "installed-ns3-guard" / "ns3"
    assert sorted(p.name for p in guard.iterdir()) == ["gone.h"]
    ok = subprocess.run(["cmake", "--build", build, "--target", "uses-core"],
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    stopped = subprocess.run(["cmake", "--build", build, "--target", "uses-gone"],
                             capture_output=True, text=True)
    assert stopped.returncode != 0
    assert "ns3/gone.h is not a header of this ns-3 3.48 tree" in stopped.stdout
