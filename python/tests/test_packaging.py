# SPDX-License-Identifier: GPL-2.0-only
"""The tooling is an installed package: ./qdisc-lab installs python/ (pyproject.toml) into the
clone's venv, editable, with the ``qdisc-lab`` console script; nothing sets PYTHONPATH."""

import ast
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import qdisclab
from qdisclab.context import PYTHON_DIR
from qdisclab.toolchain import provision

PYPROJECT = PYTHON_DIR / "pyproject.toml"


def clean_env() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}


def test_the_venv_imports_this_checkouts_qdisclab_without_pythonpath(tmp_path):
    found = subprocess.run(
        [sys.executable, "-c", "import qdisclab.toolchain.build as m; print(m.__file__)"],
        cwd=tmp_path, env=clean_env(), capture_output=True, text=True, check=True, timeout=120,
    ).stdout.strip()
    assert Path(found) == PYTHON_DIR / "qdisclab" / "toolchain" / "build.py"


def test_the_console_script_runs_the_cli(tmp_path):
    script = Path(sys.executable).parent / "qdisc-lab"
    result = subprocess.run([str(script), "--version"], cwd=tmp_path, env=clean_env(),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"qdisc-lab, version {qdisclab.__version__}"


def test_pyproject_declares_the_console_script_and_the_wheel_extra():
    with open(PYPROJECT, "rb") as handle:
        project = tomllib.load(handle)["project"]
    assert project["scripts"] == {"qdisc-lab": "qdisclab.cli:main"}
    assert project["optional-dependencies"]["wheel"] == [
        f"{name}=={version}" for name, version in provision.wheel_requirements().items()]
    # Declared once: no requirements files beside it.
    assert not list(PYTHON_DIR.glob("requirements*.txt"))


def test_test_doubles_live_with_the_tests():
    assert not (PYTHON_DIR / "qdisclab" / "campaign" / "fakeprog.py").exists()
    assert (PYTHON_DIR / "tests" / "fakeprog.py").is_file()


def qdisclab_imports(path: Path) -> set[str]:
    """The qdisclab modules a source file imports (anywhere in it)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in names if name.startswith("qdisclab.")}


def test_the_toolchain_does_not_import_the_experiments():
    allowed = ("qdisclab.toolchain.", "qdisclab.context.", "qdisclab.__version__")
    for path in sorted((PYTHON_DIR / "qdisclab" / "toolchain").glob("*.py")):
        wrong = {name for name in qdisclab_imports(path) if not name.startswith(allowed)}
        assert not wrong, f"{path.name} imports {sorted(wrong)}"


def _defines_click_command(path: Path) -> bool:
    """Whether a source file decorates a function with ``@click.command`` or ``@click.group``."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                if isinstance(target, ast.Attribute) and target.attr in ("command", "group"):
                    return True
    return False


def test_commands_live_in_the_commands_package_and_only_the_cli_imports_it():
    """Every subcommand is a module of qdisclab.commands (the command group, qdisclab/cli.py,
    aside); the libraries, which do the work, import nothing from there."""
    package = PYTHON_DIR / "qdisclab"
    sources = sorted(package.rglob("*.py"))
    commands = package / "commands"
    defining = [p.relative_to(package).as_posix() for p in sources
                if _defines_click_command(p) and commands not in p.parents]
    assert defining == ["cli.py"], f"click commands outside qdisclab/commands/: {defining}"
    importing = [p.relative_to(package).as_posix() for p in sources
                 if commands not in p.parents and p.name != "cli.py"
                 and any(name.startswith("qdisclab.commands") for name in qdisclab_imports(p))]
    assert not importing, f"libraries importing qdisclab.commands: {importing}"
    from qdisclab.cli import COMMANDS

    assert all(spec.startswith("qdisclab.commands.") for spec in COMMANDS.values())



def test_the_command_scan_sees_a_command(tmp_path):
    """The scan above finds ``@click.command(...)`` and ``@main.command`` and nothing else."""
    library = tmp_path / "library.py"
    library.write_text("import functools\n@functools.cache\ndef f():\n    pass\n")
    assert not _defines_click_command(library)
    for decorator in ('@click.command("x")', "@main.command", '@click.group("g")'):
        stray = tmp_path / "stray.py"
        stray.write_text(f"import click\n{decorator}\ndef x_cmd():\n    pass\n")
        assert _defines_click_command(stray), decorator


def test_qdisclab_ns_installs_outside_the_clone_and_loads_the_build_it_is_told(tmp_path):
    """`pip install --no-deps python/` into a directory of its own (not editable): from there
    `qdisclab.ns` runs without the clone, refuses to guess a build, and checks the one
    $QDISC_LAB_BUILD names against this Python's ns-3 wheel (when installed)."""
    from test_ns import fake_build

    # From a copy: setuptools builds in the source tree (build/, *.egg-info).
    source = tmp_path / "source"
    shutil.copytree(PYTHON_DIR, source, ignore=shutil.ignore_patterns(
        "tests", "build", "*.egg-info", "__pycache__"))
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--quiet",
                    "--disable-pip-version-check", "--target", str(site), str(source)],
                   check=True, capture_output=True, text=True, timeout=600, env=clean_env())
    build = fake_build(tmp_path / "build", (3, 44))
    probe = (
        "import json, os, sys\n"
        "import qdisclab.ns as ns\n"
        "out = {'file': ns.__file__, 'in_clone': ns.in_clone()}\n"
        "try:\n"
        "    ns.build_dir()\n"
        "except ns.BuildMissing as missing:\n"
        "    out['missing'] = str(missing)\n"
        f"os.environ[ns.BUILD_ENV] = {str(build)!r}\n"
        "out['build'] = str(ns.build_dir())\n"
        "try:\n"
        "    ns.check_build(ns.build_dir())\n"
        "    out['check'] = 'ok'\n"
        "except ns.BuildError as error:\n"
        "    out['check'] = str(error)\n"
        "out['loaded'] = sorted(m for m in sys.modules if m.split('.')[0] in\n"
        "                       ('click', 'rich', 'cppyy', 'ns', 'numpy'))\n"
        "print(json.dumps(out))\n"
    )
    env = {**clean_env(), "PYTHONPATH": str(site)}
    env.pop("QDISC_LAB_BUILD", None)
    result = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert Path(out["file"]) == site / "qdisclab" / "ns.py"
    assert out["in_clone"] is False
    assert out["missing"].startswith(f"qdisclab is installed outside a qdisc-lab clone ({site}")
    assert "set QDISC_LAB_BUILD to a clone's build directory" in out["missing"]
    assert out["build"] == str(build)
    try:
        installed = importlib.metadata.version("ns3")
    except importlib.metadata.PackageNotFoundError:
        installed = None
    if installed and installed.startswith("3.44"):
        assert out["check"] == "ok"
    else:
        assert "not installed" in out["check"] or "built against ns-3 3.44" in out["check"]
    assert out["loaded"] == []  # nothing but the standard library before ns-3 is loaded
