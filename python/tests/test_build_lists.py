# SPDX-License-Identifier: GPL-2.0-only
"""wscript (waf-era ns-3) must build exactly what CMakeLists.txt builds.

CMakeLists.txt is the source of truth (the wscript reads its lists from it). Each wscript is executed against a recording stand-in
for waf's build context, so the comparison sees what waf would see, not a textual guess.
"""
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

REPO = Path(__file__).resolve().parents[2]
KEYWORDS = {"LIBNAME", "NAME", "SOURCE_FILES", "HEADER_FILES", "LIBRARIES_TO_LINK", "TEST_SOURCES",
            "IGNORE_PCH"}


def cmake_calls(path: Path, function: str) -> list[dict[str, list[str]]]:
    """Arguments of every call of `function` in a CMake file, grouped by keyword."""
    text = re.sub(r"#[^\n]*", "", path.read_text())
    calls = []
    for match in re.finditer(rf"^\s*{function}\s*\((.*?)\)", text, re.S | re.M):
        groups: dict[str, list[str]] = {}
        current = None
        for token in match.group(1).split():
            if token in KEYWORDS:
                current = groups.setdefault(token, [])
            else:
                variable = re.fullmatch(r"\$\{lib(.+)\}", token)
                current.append(variable.group(1) if variable else token)
        calls.append(groups)
    return calls


class Recorder(SimpleNamespace):
    """Stands in for the task generators waf returns; keeps whatever the wscript sets."""


class FakeBuildContext:
    """The part of ns-3's waf build context that module wscripts use."""

    def __init__(self, root: Path, examples: bool = True):
        self.root = root
        self.env = SimpleNamespace(ENABLE_EXAMPLES=examples)
        self.srcnode = SimpleNamespace(
            find_node=lambda name: SimpleNamespace(read=lambda: "3.35\n"))
        # The wscript's own folder (waf's bld.path): it reads CMakeLists.txt there.
        self.path = SimpleNamespace(
            find_node=lambda name: SimpleNamespace(read=lambda: (root / name).read_text()))
        self.modules: list[Recorder] = []
        self.test_libraries: list[Recorder] = []
        self.headers: list[Recorder] = []
        self.programs: list[Recorder] = []

    def create_ns3_module(self, name, dependencies):
        self.modules.append(Recorder(name=name, dependencies=list(dependencies)))
        return self.modules[-1]

    def create_ns3_module_test_library(self, name):
        self.test_libraries.append(Recorder(name=name))
        return self.test_libraries[-1]

    def create_ns3_program(self, name, dependencies):
        self.programs.append(Recorder(name=name, dependencies=list(dependencies)))
        return self.programs[-1]

    def __call__(self, features):
        self.headers.append(Recorder(features=features))
        return self.headers[-1]

    def recurse(self, folder):
        run_wscript(self.root / folder / "wscript", self)


def run_wscript(path: Path, bld: FakeBuildContext) -> None:
    namespace: dict = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    namespace["build"](bld)


@pytest.fixture(scope="module")
def waf() -> FakeBuildContext:
    bld = FakeBuildContext(REPO)
    run_wscript(REPO / "wscript", bld)
    return bld


@pytest.fixture(scope="module")
def cmake() -> dict[str, list[str]]:
    (lib,) = cmake_calls(REPO / "CMakeLists.txt", "build_lib")
    return lib


def as_list(value) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def test_module_name_and_dependencies(waf, cmake):
    (module,) = waf.modules
    assert module.name == cmake["LIBNAME"][0] == "qdisc-lab"
    assert sorted(module.dependencies) == sorted(cmake["LIBRARIES_TO_LINK"])


def test_sources(waf, cmake):
    assert sorted(as_list(waf.modules[0].source)) == sorted(cmake["SOURCE_FILES"])


def test_headers(waf, cmake):
    (headers,) = waf.headers
    assert headers.features == "ns3header" and headers.module == "qdisc-lab"
    assert sorted(as_list(headers.source)) == sorted(cmake["HEADER_FILES"])


def test_test_sources(waf, cmake):
    (tests,) = waf.test_libraries
    assert sorted(as_list(tests.source)) == sorted(cmake.get("TEST_SOURCES", []))


def cmake_examples() -> dict[str, tuple[list[str], list[str]]]:
    """examples/CMakeLists.txt's programs: its one build_lib_example call, in a foreach over the
    list `qdisc_lab_examples`, expanded for each name; name -> (sources, linked modules)."""
    path = REPO / "examples" / "CMakeLists.txt"
    text = re.sub(r"#[^\n]*", "", path.read_text())
    (names,) = re.findall(r"set\(qdisc_lab_examples\s+(.*?)\)", text, re.S)
    (call,) = cmake_calls(path, "build_lib_example")
    assert call["NAME"] == ["${example}"], "one build_lib_example call, in the foreach"
    return {name: (sorted(s.replace("${example}", name) for s in call["SOURCE_FILES"]),
                   sorted(set(call["LIBRARIES_TO_LINK"]) | {"qdisc-lab"}))
            for name in names.split()}


def test_examples(waf):
    cmake_examples_ = cmake_examples()
    waf_examples = {
        program.name: (sorted(as_list(program.source)), sorted(set(program.dependencies)))
        for program in waf.programs
    }
    assert waf_examples == cmake_examples_


def test_every_example_is_built():
    """Each examples/*.cc is a program of its own name, and each listed program has its file."""
    on_disk = {p.stem for p in (REPO / "examples").glob("*.cc")}
    listed = cmake_examples()
    assert set(listed) == on_disk
    assert all(sources == [f"{name}.cc"] for name, (sources, _) in listed.items())


def test_every_listed_file_exists(cmake):
    for key in ("SOURCE_FILES", "HEADER_FILES", "TEST_SOURCES"):
        for name in cmake.get(key, []):
            assert (REPO / name).is_file(), f"{key} lists {name}, which does not exist"


def test_every_source_file_is_listed(cmake):
    """A .cc/.h under model/ helper/ test/ that neither list names would be silently unbuilt."""
    listed = set(cmake["SOURCE_FILES"]) | set(cmake["HEADER_FILES"]) | set(cmake["TEST_SOURCES"])
    on_disk = {str(p.relative_to(REPO)) for folder in ("model", "helper")
               for p in (REPO / folder).rglob("*") if p.suffix in (".cc", ".h")}
    on_disk |= {str(p.relative_to(REPO)) for p in (REPO / "test").glob("*.cc")}
    assert on_disk - listed == set()


def test_the_checker_sees_a_disagreement(cmake, tmp_path):
    """The comparison is not vacuous: the wscript builds what the CMakeLists.txt beside it lists,
    so one missing a source differs from ours."""
    text = (REPO / "CMakeLists.txt").read_text().replace("helper/metrics-report.cc\n", "")
    (tmp_path / "CMakeLists.txt").write_text(text)
    (tmp_path / "wscript").write_text((REPO / "wscript").read_text())
    bld = FakeBuildContext(tmp_path, examples=False)
    run_wscript(tmp_path / "wscript", bld)
    assert sorted(as_list(bld.modules[0].source)) != sorted(cmake["SOURCE_FILES"])
