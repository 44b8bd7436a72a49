# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab python``: the tooling's Python, where ``from qdisclab.ns import ns`` works.

The wheel build is made first when it is missing or does not fit the venv's ns-3; then Python
replaces this process, so the exit status, signals and streams are the script's own.
"""

import contextlib
import os
import sys

import click

from qdisclab import ns
from qdisclab.toolchain.build import build, build_dir, runtime_env


@contextlib.contextmanager
def stdout_to_stderr():
    """Send this process's stdout, and its children's, to stderr: stdout is the script's."""
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 1)
        os.close(saved)


def ensure_wheel_build() -> None:
    """Make the build :mod:`qdisclab.ns` loads fit this Python's ns-3, or fail saying why.

    Only the checkout's own build/wheel is (re)built; one named by $QDISC_LAB_BUILD is the
    user's to fix.
    """
    from qdisclab.toolchain.provision import ensure_setup

    target = ns.build_dir()
    try:
        ns.check_build(target)
        return
    except ns.BuildError as problem:
        if target != build_dir("wheel"):
            raise click.ClickException(f"{ns.BUILD_ENV}={target}: {problem}") from problem
        stale = isinstance(problem, ns.BuildMismatch)
    with stdout_to_stderr():
        ensure_setup(wheel=True)
        build("wheel", clean=stale)
    try:
        ns.check_build(target)
    except ns.BuildError as problem:
        raise click.ClickException(str(problem)) from problem


@click.command(
    "python",
    context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False},
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def python_cmd(args: tuple[str, ...]) -> None:
    """Run Python (with ARGS) where `from qdisclab.ns import ns` loads the module into ns-3.

    Builds the wheel flavor (build/wheel) first when it is missing or was built against
    another ns-3; after changing the C++, rebuild with `qdisc-lab build --ns3 wheel`.
    Importing ns-3 takes 15-45 s. Example:

        qdisc-lab python examples/python/weighted-drr.py
    """
    ensure_wheel_build()
    env = {**os.environ, **runtime_env("wheel"), ns.BUILD_ENV: str(ns.build_dir())}
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, *args], env)
