# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab python``: the tooling's Python, where ``from qdisclab.ns import ns`` works.

The wheel build's library is made first when it is missing or does not fit the venv's ns-3 (the
library only: tests and examples are ``qdisc-lab build --ns3 wheel``'s), after saying what that
first run costs; then Python replaces this process, so the exit status, signals and streams are
the script's own.
"""

import contextlib
import os
import sys

import click

from qdisclab import ns
from qdisclab.context import CONSOLE
from qdisclab.toolchain.build import LIBRARY_TARGET, build, build_dir, runtime_env

#: What building the library takes on a 2-core machine with an empty compiler cache
#: (ccache in $QDISC_LAB_CACHE makes a rebuild of unchanged files take seconds).
LIBRARY_BUILD_COST = "about 6 minutes on 2 cores, seconds when ccache has seen the sources"
#: What ``from qdisclab.ns import ns`` takes (ns-3's own import, cppyy parsing its headers).
IMPORT_COST = "15-45 s"


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
    from qdisclab.toolchain.provision import missing_wheel_pins

    with stdout_to_stderr():
        CONSOLE.print(first_run_plan(missing_wheel_pins(), target, stale), soft_wrap=True,
                      markup=False)
        ensure_setup(wheel=True)
        build("wheel", clean=stale, targets=(LIBRARY_TARGET,))
    try:
        ns.check_build(target)
    except ns.BuildError as problem:
        raise click.ClickException(str(problem)) from problem


def first_run_plan(pins: list[str], target, stale: bool) -> str:
    """What the run about to start does before the script, and about how long each step takes:
    installing ``pins`` (the ns-3 wheel; none: installed), building the library into
    ``target`` (again when ``stale``), importing ns-3."""
    from qdisclab.toolchain.provision import SOURCE_BUILD_COST, WHEELS_DIR

    steps = []
    if pins:
        steps.append(
            f"install {', '.join(pins)} into the venv: a minute or two of downloads, plus "
            f"{SOURCE_BUILD_COST} if pip must compile what PyPI has no wheel for (once: the "
            f"wheels are kept in {WHEELS_DIR})"
        )
    what = "rebuild" if stale else "build"
    steps.append(f"{what} qdisc-lab's library in {target}: {LIBRARY_BUILD_COST}")
    steps.append(f"import ns-3 in your script: {IMPORT_COST}")
    return "qdisc-lab python: before the script runs, this first run will\n" + "\n".join(
        f"  {number}. {step}" for number, step in enumerate(steps, 1))


@click.command(
    "python",
    context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False},
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def python_cmd(args: tuple[str, ...]) -> None:
    """Run Python (with ARGS) where `from qdisclab.ns import ns` loads the module into ns-3.

    Builds the wheel flavor's library (build/wheel) first when it is missing or was built
    against another ns-3, saying what that costs; after changing the C++, rebuild with
    `qdisc-lab build --ns3 wheel`. Importing ns-3 takes 15-45 s. Example:

        qdisc-lab python examples/python/weighted-drr.py
    """
    ensure_wheel_build()
    env = {**os.environ, **runtime_env("wheel"), ns.BUILD_ENV: str(ns.build_dir())}
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, *args], env)
