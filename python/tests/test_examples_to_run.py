# SPDX-License-Identifier: GPL-2.0-only
"""test/examples-to-run.py, the examples ns-3's test.py runs in-tree: every example is listed in
its quick mode, test.py can read the file, and each listed command is one that
test_example_json.py runs on the standalone build (comparing its report with a recorded one),
or, for the quick start (a table, not a metrics report), one that test_quick_start.py runs.
"""

import ast
from pathlib import Path

import pytest

from test_build_lists import cmake_examples
from test_example_json import CASES
import test_quick_start

REPO = Path(__file__).resolve().parents[2]
EXAMPLES_TO_RUN = REPO / "test" / "examples-to-run.py"

#: The configuration names test.py evaluates the conditions against, as a default ns-3 tree
#: configured with examples and tests has them.
TEST_PY_CONFIG = {"ENABLE_REAL_TIME": False, "ENABLE_EXAMPLES": True, "ENABLE_TESTS": True,
                  "NSCLICK": False, "ENABLE_BRITE": False, "ENABLE_OPENFLOW": False,
                  "ENABLE_PYTHON_BINDINGS": False, "VALGRIND_FOUND": True}


def read_list_as_test_py(text: str, name: str) -> list:
    """The list assigned to ``name``, read the way ns-3's test.py reads it: line by line, each
    line cut at its first hash sign, from the first line naming the list to the first line that
    closes a square bracket, then the text after the first '=' evaluated."""
    collected = ""
    for line in text.splitlines(keepends=True):
        line = line.split("#", 1)[0]
        if collected or name in line:
            collected += line
            if "]" in collected:
                return ast.literal_eval(collected.split("=", 1)[1].strip())
    return []


@pytest.fixture(scope="module")
def lists() -> dict[str, list]:
    text = EXAMPLES_TO_RUN.read_text()
    as_python: dict = {}
    exec(compile(text, str(EXAMPLES_TO_RUN), "exec"), as_python)
    read = {name: read_list_as_test_py(text, name) for name in ("cpp_examples", "python_examples")}
    # test.py's reading and Python's agree: no entry holds a '#' or a ']' that would cut it short.
    assert read == {name: as_python[name] for name in read}
    return read


def test_every_example_runs_in_quick_mode(lists):
    entries = lists["cpp_examples"]
    assert all(len(entry) == 3 and all(isinstance(x, str) for x in entry) for entry in entries)
    programs = [command.split()[0] for command, _, _ in entries]
    assert set(programs) == set(cmake_examples())
    assert all("--quick" in command.split()[1:] for command, _, _ in entries)
    assert len({command for command, _, _ in entries}) == len(entries)


def test_conditions_run_them_and_not_under_valgrind(lists):
    for command, do_run, do_valgrind_run in lists["cpp_examples"]:
        assert eval(do_run, dict(TEST_PY_CONFIG)) is True, command
        assert eval(do_valgrind_run, dict(TEST_PY_CONFIG)) is False, command
    assert lists["python_examples"] == []


def test_each_command_is_run_and_compared_on_the_standalone_build(lists):
    """test_example_json.py runs every listed command (same arguments, any order), and
    test_quick_start.py the quick start's."""
    compared = {(program, tuple(sorted(args.split()))) for program, _, args in CASES}
    compared.add(("quick-start", tuple(sorted(test_quick_start.ARGS.split()))))
    for command, _, _ in lists["cpp_examples"]:
        program, *args = command.split()
        assert (program, tuple(sorted(args))) in compared, command


def test_the_reader_sees_what_test_py_would_miss():
    """The agreement check above is not vacuous: a '#' inside an entry cuts test.py's reading."""
    text = 'cpp_examples = [\n    ("a --x=#1", "True", "False"),\n]\n'
    with pytest.raises(SyntaxError):
        read_list_as_test_py(text, "cpp_examples")
    text = 'cpp_examples = [\n    ("a --x=[1]", "True", "False"),\n    ("b", "True", "True"),\n]\n'
    with pytest.raises(SyntaxError):
        read_list_as_test_py(text, "cpp_examples")
