# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab build``: standalone CMake build against an installed ns-3.

Two ns-3 flavors are supported:

* ``system`` -- Debian's packaged ns-3 (libns3-dev), found by CMake itself;
* ``wheel``  -- the ``ns3`` wheel from PyPI installed in the venv, passed to
  CMake through ``-Dns3_DIR``.

Each flavor builds in ``build/<flavor>`` with Ninja, through ccache.
"""

import importlib.util
import os
import shutil
import sysconfig
from pathlib import Path

import click

from qdisclab import proc
from qdisclab.context import CCACHE_DIR, CONSOLE, REPO, ensure_cache_dir

FLAVORS = ("system", "wheel")


def ns3_option(choices: tuple[str, ...] = FLAVORS, default: str | None = "system"):
    """The ``--ns3`` option shared by the commands that build (default ``system``).

    With ``default=None`` the command decides (a campaign names the build it runs on).
    """
    return click.option(
        "--ns3",
        "flavor",
        type=click.Choice(choices),
        default=default,
        show_default=default is not None,
        help="Which ns-3 installation to build against"
        + ("." if default else " (default: the campaign's `ns3`, else system)."),
    )


def build_dir(flavor: str) -> Path:
    """Return the build directory of ``flavor``."""
    return REPO / "build" / flavor


def wheel_ns3_root() -> Path:
    """Return the installed ``ns3`` wheel's package directory, without importing it.

    Importing ``ns3`` loads cppyy and takes seconds, so the location comes from
    the import machinery's spec (or sysconfig's purelib as a fallback).
    """
    spec = importlib.util.find_spec("ns3")
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    return Path(sysconfig.get_paths()["purelib"]) / "ns3"


def wheel_cmake_dir() -> Path:
    """Return the directory holding the wheel's ``ns3Config.cmake``."""
    root = wheel_ns3_root()
    for libdir in ("lib64", "lib"):
        candidate = root / libdir / "cmake" / "ns3"
        if candidate.is_dir():
            return candidate
    raise click.ClickException(
        f"ns-3 wheel not found under {root}; run `qdisc-lab setup --wheel` first."
    )


def runtime_env(flavor: str) -> dict[str, str]:
    """Extra environment needed to run binaries built against ``flavor``."""
    if flavor != "wheel":
        return {}
    root = wheel_ns3_root()
    libdirs = [str(root / d) for d in ("lib64", "lib") if (root / d).is_dir()]
    if old := os.environ.get("LD_LIBRARY_PATH"):
        libdirs.append(old)
    return {"LD_LIBRARY_PATH": os.pathsep.join(libdirs)}


def configure_command(flavor: str) -> list[str]:
    """Return the CMake configure command line of ``flavor``."""
    cmd = [
        "cmake",
        "-S",
        str(REPO),
        "-B",
        str(build_dir(flavor)),
        "-G",
        "Ninja",
        "-DCMAKE_BUILD_TYPE=Release",
        "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache",
    ]
    if flavor == "wheel":
        cmd.append(f"-Dns3_DIR={wheel_cmake_dir()}")
    return cmd


def build(flavor: str, clean: bool = False) -> Path:
    """Configure (when needed) and build ``flavor``; return its build directory.

    Raises ``subprocess.CalledProcessError`` when CMake or the build fails.
    """
    if flavor not in FLAVORS:
        raise ValueError(f"unknown ns-3 flavor {flavor!r}")
    out = build_dir(flavor)
    if clean and out.exists():
        CONSOLE.print(f"Removing {out}")
        shutil.rmtree(out)
    # BASEDIR: paths below the clone are hashed relative, so two clones (a CI clone, a
    # git worktree) share their compiled objects.
    env = {"CCACHE_DIR": str(ensure_cache_dir(CCACHE_DIR)), "CCACHE_BASEDIR": str(REPO)}
    if not (out / "build.ninja").exists():
        proc.run(configure_command(flavor), env=env)
    proc.run(["cmake", "--build", str(out)], env=env)
    return out


@click.command("build")
@ns3_option()
@click.option("--clean", is_flag=True, help="Delete the build directory first.")
def build_cmd(flavor: str, clean: bool) -> None:
    """Build the module, its tests and examples into build/<flavor>."""
    from qdisclab.provision import ensure_setup

    ensure_cache_dir(CCACHE_DIR)  # before anything is installed: a clear error
    ensure_setup(wheel=flavor == "wheel")
    out = build(flavor, clean=clean)
    CONSOLE.print(f"[green]Built[/] {out}")
