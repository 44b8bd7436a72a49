# SPDX-License-Identifier: GPL-2.0-only
"""The tooling is an installed package: ./qdisc-lab installs python/ (pyproject.toml) into the
clone's venv, editable, with the ``qdisc-lab`` console script; nothing sets PYTHONPATH."""

import ast
import os
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
    # `qdisc-lab python` prepares the build that qdisclab.ns (the bindings' loader) loads.
    allowed_by = {"python_cmd.py": ("qdisclab.ns",)}
    for path in sorted((PYTHON_DIR / "qdisclab" / "toolchain").glob("*.py")):
        extra = allowed_by.get(path.name, ())
        wrong = {name for name in qdisclab_imports(path)
                 if not name.startswith(allowed) and name not in extra}
        assert not wrong, f"{path.name} imports {sorted(wrong)}"
