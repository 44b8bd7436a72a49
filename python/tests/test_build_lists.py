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


class FakeEnv(dict):
    """waf's ConfigSet: keys read as items or attributes, [] for a key never set."""

    def __getitem__(self, key):
        return self.get(key, [])

    __getattr__ = __getitem__


class FakeNode:
    """A waf node: the wscript's folder (bld.path: find_node(name).read(), ant_glob(pattern),
    node.path_from(bld.path)), read from `root`, and the build directory's nodes
    (path.get_bld().make_node(name).abspath())."""

    def __init__(self, path: str, root: Path | None = None):
        self.path = path
        self.root = root

    def get_bld(self) -> "FakeNode":
        return FakeNode(self.path.replace("/src/", "/build/", 1))

    def make_node(self, name: str) -> "FakeNode":
        return FakeNode(f"{self.path}/{name}")

    def abspath(self) -> str:
        return self.path

    def find_node(self, name: str) -> SimpleNamespace:
        return SimpleNamespace(read=lambda: (self.root / name).read_text())

    def ant_glob(self, pattern: str) -> list[SimpleNamespace]:
        return [SimpleNamespace(path_from=lambda base, p=p: str(p.relative_to(self.root)))
                for p in self.root.glob(pattern)]


class FakeBuildContext:
    """The part of ns-3's waf build context that module wscripts use."""

    def __init__(self, root: Path, examples: bool = True, tests: bool = True,
                 gtest: bool = True):
        self.root = root
        self.env = FakeEnv(ENABLE_EXAMPLES=examples, ENABLE_TESTS=tests, QDISC_LAB_GTEST=gtest)
        self.srcnode = SimpleNamespace(
            find_node=lambda name: SimpleNamespace(read=lambda: "3.35\n"))
        self.path = FakeNode("/ns-3.35/src/contrib/qdisc-lab", root)
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
        self.programs.append(Recorder(name=name, dependencies=list(dependencies),
                                      target=f"ns3.35-{name}-default"))
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
        for program in waf.programs if program.name != "qdisc-lab-gtest"
    }
    assert waf_examples == cmake_examples_


def cmake_unit_tests() -> list[str]:
    """test/unit/CMakeLists.txt's sources of the qdisc-lab-gtest program: its glob, expanded."""
    text = re.sub(r"#[^\n]*", "", (REPO / "test" / "unit" / "CMakeLists.txt").read_text())
    (pattern,) = re.findall(
        r"file\(GLOB qdisc_lab_gtest_sources CONFIGURE_DEPENDS \$\{CMAKE_CURRENT_SOURCE_DIR\}/(\S+)\)",
        text)
    assert re.search(r"add_executable\(qdisc-lab-gtest \$\{qdisc_lab_gtest_sources\}\)", text)
    return sorted(p.name for p in (REPO / "test" / "unit").glob(pattern))


def test_unit_tests_program(waf):
    """With tests and GoogleTest, waf builds the unit tests' program from CMake's list, and the
    test library's suite qdisc-lab-gtest gets the program's path."""
    (gtest,) = [program for program in waf.programs if program.name == "qdisc-lab-gtest"]
    assert sorted(as_list(gtest.source)) == [f"test/unit/{name}" for name in cmake_unit_tests()]
    assert gtest.dependencies == ["qdisc-lab"] and gtest.uselib == "QDISC_LAB_GTEST"
    # No source in test/unit that the glob leaves out.
    assert cmake_unit_tests() == sorted(p.name for p in (REPO / "test" / "unit").glob("*.cc"))
    (tests,) = waf.test_libraries
    assert tests.defines == [
        'QDISC_LAB_GTEST_BINARY="/ns-3.35/build/contrib/qdisc-lab/ns3.35-qdisc-lab-gtest-default"']


@pytest.mark.parametrize(("tests", "gtest"), [(True, False), (False, True)])
def test_no_unit_tests_program_without_gtest_or_tests(tests, gtest):
    bld = FakeBuildContext(REPO, tests=tests, gtest=gtest)
    run_wscript(REPO / "wscript", bld)
    assert "qdisc-lab-gtest" not in [program.name for program in bld.programs]
    assert not hasattr(bld.test_libraries[0], "defines")


class FakeConfigurationContext:
    """The part of ns-3's waf configuration context that module wscripts use."""

    def __init__(self, found: bool):
        self.found = found
        self.env = FakeEnv()
        self.checks: list[dict] = []
        self.features: list[tuple] = []

    def check_cxx(self, **kw):
        self.checks.append(kw)
        if not self.found and not kw.get("mandatory", True):
            return None
        return True

    def report_optional_feature(self, *args):
        self.features.append(args)


@pytest.mark.parametrize("found", [True, False])
def test_configure_looks_for_gtest_without_requiring_it(found):
    namespace: dict = {}
    exec(compile((REPO / "wscript").read_text(), "wscript", "exec"), namespace)
    conf = FakeConfigurationContext(found)
    namespace["configure"](conf)
    (check,) = conf.checks
    assert check["header_name"] == "gtest/gtest.h" and check["mandatory"] is False
    assert "gtest" in check["lib"] and check["uselib_store"] == "QDISC_LAB_GTEST"
    assert conf.env["QDISC_LAB_GTEST"] is found
    ((name, _, enabled, reason),) = conf.features
    assert (name, enabled) == ("QdiscLabGtest", found) and "GoogleTest" in reason


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
    """A .cc/.h under model/ helper/ experiment/ test/ that no list names would go unbuilt."""
    listed = set(cmake["SOURCE_FILES"]) | set(cmake["HEADER_FILES"]) | set(cmake["TEST_SOURCES"])
    on_disk = {str(p.relative_to(REPO)) for folder in ("model", "helper", "experiment")
               for p in (REPO / folder).rglob("*") if p.suffix in (".cc", ".h")}
    on_disk |= {str(p.relative_to(REPO)) for p in (REPO / "test").glob("*.cc")}
    assert on_disk - listed == set()


def test_the_checker_sees_a_disagreement(cmake, tmp_path):
    """The comparison is not vacuous: the wscript builds what the CMakeLists.txt beside it lists,
    so one missing a source differs from ours."""
    text = (REPO / "CMakeLists.txt").read_text().replace("experiment/metrics-report.cc\n", "")
    (tmp_path / "CMakeLists.txt").write_text(text)
    (tmp_path / "wscript").write_text((REPO / "wscript").read_text())
    bld = FakeBuildContext(tmp_path, examples=False)
    run_wscript(tmp_path / "wscript", bld)
    assert sorted(as_list(bld.modules[0].source)) != sorted(cmake["SOURCE_FILES"])
