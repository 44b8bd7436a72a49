# SPDX-License-Identifier: GPL-2.0-only
"""The click command group, driven through CliRunner (nothing is built or installed)."""

import sys
import types

from click.testing import CliRunner

from qdisclab.cli import main
from qdisclab.context import CACHE, REPO
from qdisclab.toolchain import testing


def invoke(*args):
    return CliRunner().invoke(main, list(args), prog_name="qdisc-lab")


def test_help_lists_the_commands():
    result = invoke("--help")
    assert result.exit_code == 0
    listed = result.output.split("Commands:", 1)[1].split()
    for command in ("setup", "build", "test", "demo", "intree"):
        assert command in listed


def test_every_command_has_help():
    for command in ("setup", "build", "test", "demo", "intree"):
        result = invoke(command, "--help")
        assert result.exit_code == 0, result.output
        assert "Usage: qdisc-lab " + command in result.output


def test_ns3_choices():
    assert "[system|wheel|all]" in invoke("test", "--help").output
    assert "[system|wheel|optimized|ns-3.24]" in invoke("build", "--help").output
    assert "[system|wheel|optimized|ns2|ns-3.24]" in invoke("sweep", "--help").output
    assert "[system|wheel|optimized|ns2|ns-3.24]" in invoke("reproduce", "--help").output
    assert "[system|wheel|optimized]" in invoke("demo", "--help").output
    result = invoke("build", "--ns3", "nope")
    assert result.exit_code == 2


def test_test_refuses_to_recurse(monkeypatch):
    monkeypatch.setenv(testing.IN_PYTEST_ENV, "1")
    result = invoke("test")
    assert result.exit_code == 1
    assert "refusing to run" in result.output


def test_intree_missing_module(monkeypatch):
    monkeypatch.setitem(sys.modules, "qdisclab.toolchain.intree", None)  # import fails as if absent
    result = invoke("intree")
    assert result.exit_code == 1
    assert "intree.py is missing" in result.output


def test_intree_passes_its_options(monkeypatch):
    calls = []

    def run_intree(*, repo, cache, version, jobs, console, keep_going=False):
        calls.append((repo, cache, version, jobs, keep_going))
        return version == "3.37"

    fake = types.ModuleType("qdisclab.toolchain.intree")
    fake.run_intree = run_intree
    monkeypatch.setitem(sys.modules, "qdisclab.toolchain.intree", fake)

    assert invoke("intree", "--jobs", "3", "--keep-going").exit_code == 0
    assert invoke("intree", "--ns3-version", "3.40").exit_code == 1
    assert calls[0] == (REPO, CACHE, "3.37", 3, True)
    assert calls[1][2] == "3.40" and calls[1][4] is False


def test_unimportable_subcommand_does_not_break_help():
    from qdisclab.cli import LazyGroup

    group = LazyGroup("g", lazy_commands={"ghost": "qdisclab.no_such_module:cmd"})
    runner = CliRunner()
    help_result = runner.invoke(group, ["--help"])
    assert help_result.exit_code == 0
    assert "ghost" in help_result.output and "unavailable" in help_result.output
    result = runner.invoke(group, ["ghost"])
    assert result.exit_code == 1
    assert "No module named 'qdisclab.no_such_module'" in result.output


def test_help_shows_no_rst_markup():
    # Help is read on a terminal: no ``literal`` or :role:`...` markup from docstrings.
    for command in main.list_commands(None):
        result = invoke(command, "--help")
        assert result.exit_code == 0, (command, result.output)
        assert "``" not in result.output and ":func:" not in result.output, command


def test_help_lists_the_commands_without_importing_them():
    """`qdisc-lab --help` reads each subcommand's help from its module's source: the listing is
    the one click writes from the imported commands, and no command module is imported."""
    import json
    import subprocess

    from qdisclab.cli import COMMANDS, LazyGroup

    script = (
        "import json, sys\n"
        "from click.testing import CliRunner\n"
        "from qdisclab.cli import COMMANDS, main\n"
        "out = CliRunner().invoke(main, ['--help'], prog_name='qdisc-lab',\n"
        "                         terminal_width=80).output\n"
        "loaded = sorted({spec.split(':')[0] for spec in COMMANDS.values()} & set(sys.modules))\n"
        "print(json.dumps([out, loaded]))\n"
    )
    lazy, loaded = json.loads(subprocess.run([sys.executable, "-c", script], check=True,
                                             capture_output=True, text=True).stdout)
    assert loaded == []
    eager = LazyGroup("qdisc-lab", lazy_commands=COMMANDS, help=main.help, params=main.params,
                      context_settings=main.context_settings)
    with eager.make_context("qdisc-lab", ["--help"], resilient_parsing=True,
                            terminal_width=80) as ctx:
        for name in COMMANDS:
            eager.get_command(ctx, name)  # imported: click's own listing
        assert set(eager.commands) == set(COMMANDS)
        assert lazy == eager.get_help(ctx) + "\n"


def test_help_of_a_command_its_source_does_not_show_plainly_imports_it(tmp_path):
    from qdisclab.cli import _help_from_source

    assert _help_from_source("qdisclab.commands.demo:demo_cmd").startswith("Build, run a quick demo")
    assert _help_from_source("qdisclab.commands.demo:no_such_cmd") is None
    assert _help_from_source("qdisclab.no_such_module:cmd") is None
    # python_cmd's decorator passes context_settings only: still plain.
    assert _help_from_source("qdisclab.commands.python:python_cmd").startswith("Run Python")


#: Modules a subcommand's --help must not import (each takes from a tenth of a second to
#: seconds to load): they belong inside the command functions that use them.
HEAVY_MODULES = ("matplotlib", "pandas", "xarray", "dask", "distributed", "scipy", "pyarrow",
                 "netCDF4", "sphinx", "docutils", "cppyy", "ns", "pytest")


def test_no_subcommands_help_imports_a_heavy_module():
    """Every `qdisc-lab COMMAND --help`, each in turn in one fresh interpreter: the heavy
    modules each one's help loaded (none, for a fast --help)."""
    import json
    import subprocess

    script = (
        "import json, sys\n"
        "from click.testing import CliRunner\n"
        "from qdisclab.cli import COMMANDS, main\n"
        f"heavy = {HEAVY_MODULES!r}\n"
        "loaded = {}\n"
        "for name in COMMANDS:\n"
        "    result = CliRunner().invoke(main, [name, '--help'], prog_name='qdisc-lab')\n"
        "    assert result.exit_code == 0, (name, result.output)\n"
        "    loaded[name] = sorted({m.split('.')[0] for m in sys.modules} & set(heavy))\n"
        "print(json.dumps(loaded))\n"
    )
    loaded = json.loads(subprocess.run([sys.executable, "-c", script], check=True,
                                       capture_output=True, text=True).stdout)
    from qdisclab.cli import COMMANDS

    assert loaded == {name: [] for name in COMMANDS}
