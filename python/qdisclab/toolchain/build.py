# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab build``: standalone CMake build against an installed ns-3.

Two ns-3 flavors are supported:

* ``system`` -- Debian's packaged ns-3 (libns3-dev), found by CMake itself;
* ``wheel``  -- the ``ns3`` wheel from PyPI installed in the venv, passed to
  CMake through ``-Dns3_DIR``.

Each flavor builds in ``build/<flavor>`` with Ninja, through ccache. With ``--sanitize``
a flavor builds instead in ``build/<flavor>-sanitize``: a Debug build at ``-O1`` with
AddressSanitizer (LeakSanitizer included) and UBSan (CMake option ``QDISC_LAB_SANITIZE``),
whose programs run with :data:`SANITIZER_OPTIONS`.

A third, ``optimized``, is for campaigns: ns-3 built from source in its
``release`` profile (-O3, NS_LOG and NS_ASSERT compiled out), the module in its
contrib/ -- the very tree ``qdisc-lab intree`` builds and tests, cached under
``$QDISC_LAB_CACHE``.  ``build/optimized/examples`` links to the tree's example
programs, so campaigns find them where they find the other flavors'.

Campaigns have one more simulator to run on, ``ns2``: ns-2.35 (Debian's ``ns2``
package, ``ns`` on the PATH) running the Tcl programs of ``validation/ns2/``, which
take the parameters of their ns-3 example and write the same metrics
(``validation/ns2/lib/experiment.tcl``). Nothing is built for it.

And one for the RED-vs-DropTail study, ``ns-3.24``: the study's own simulator, built from
its fixture in ``$QDISC_LAB_CACHE/ns-3.24`` with waf under Python 2, running the
self-contained programs of ``validation/ns-3.24/`` from its ``scratch/``
(:mod:`qdisclab.toolchain.ns324`; ``qdisc-lab build --ns3 ns-3.24``).
"""

import importlib.util
import os
import shutil
import sysconfig
from pathlib import Path

import click

from qdisclab.context import CACHE, CCACHE_DIR, CONSOLE, REPO, ensure_cache_dir
from qdisclab.toolchain import proc

FLAVORS = ("system", "wheel")  #: installed ns-3s: the module's tests run against each
OPTIMIZED = "optimized"  #: the campaign flavour built from source (qdisclab.toolchain.intree)
#: The ns-3 release the optimized flavour builds.  Moving it changes the TCP a campaign
#: on this flavour simulates: re-record that campaign's results with it.
OPTIMIZED_RELEASE = "3.37"
ALL_FLAVORS = (*FLAVORS, OPTIMIZED)
#: The paper's simulator for the reproductions that ran on ns-2: ns-2.35's ``ns`` running
#: ``validation/ns2/<program>.tcl``.
NS2 = "ns2"
#: The RED-vs-DropTail study's simulator: ns-3.24 running ``validation/ns-3.24/<program>.cc``
#: from its scratch/ (qdisclab.toolchain.ns324).
NS324 = "ns-3.24"
#: What a campaign can run on: an ns-3 flavour, ns-2.35 or ns-3.24.
SIMULATORS = (*ALL_FLAVORS, NS2, NS324)
#: The folder of the ns-2.35 programs.
NS2_PROGRAMS = REPO / "validation" / "ns2"
#: The CMake target of the module's library (``lib`` + build_lib's LIBNAME in CMakeLists.txt):
#: all that ``from qdisclab.ns import ns`` loads.
LIBRARY_TARGET = "libqdisc-lab"

# How the programs of a sanitized build report: stop at the first error (ASan and UBSan, each
# with its stack), check for leaks at exit.
SANITIZER_OPTIONS = {
    "ASAN_OPTIONS": "halt_on_error=1:detect_leaks=1:print_stacktrace=1",
    "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
}


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


def sanitize_option():
    """The ``--sanitize`` flag shared by ``build`` and ``test``."""
    return click.option(
        "--sanitize",
        is_flag=True,
        help="The sanitized build, build/<flavor>-sanitize: Debug at -O1 with AddressSanitizer, "
        "LeakSanitizer and UBSan.",
    )


def build_dir(flavor: str, sanitize: bool = False) -> Path:
    """Return the build directory of ``flavor`` (its sanitized build with ``sanitize``)."""
    return REPO / "build" / (f"{flavor}-sanitize" if sanitize else flavor)


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


def optimized_tree() -> Path:
    """The ns-3 source tree the optimized flavour builds in."""
    return CACHE / f"ns-{OPTIMIZED_RELEASE}"


def runtime_env(flavor: str, sanitize: bool = False) -> dict[str, str]:
    """Extra environment needed to run binaries built against ``flavor`` (``sanitize``: of its
    sanitized build)."""
    env = dict(SANITIZER_OPTIONS) if sanitize else {}
    if flavor == NS324:
        from qdisclab.toolchain import ns324

        return {**env, **ns324.runtime_env()}
    if flavor == OPTIMIZED:
        libdirs = [str(optimized_tree() / "build" / "lib")]
    elif flavor == "wheel":
        root = wheel_ns3_root()
        libdirs = [str(root / d) for d in ("lib64", "lib") if (root / d).is_dir()]
    else:
        return env
    if old := os.environ.get("LD_LIBRARY_PATH"):
        libdirs.append(old)
    env["LD_LIBRARY_PATH"] = os.pathsep.join(libdirs)
    return env


def configure_command(flavor: str, sanitize: bool = False) -> list[str]:
    """Return the CMake configure command line of ``flavor`` (or of its sanitized build)."""
    cmd = [
        "cmake",
        "-S",
        str(REPO),
        "-B",
        str(build_dir(flavor, sanitize)),
        "-G",
        "Ninja",
        f"-DCMAKE_BUILD_TYPE={'Debug' if sanitize else 'Release'}",
        "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache",
    ]
    if sanitize:
        cmd.append("-DQDISC_LAB_SANITIZE=ON")
    if flavor == "wheel":
        cmd.append(f"-Dns3_DIR={wheel_cmake_dir()}")
    return cmd


def build(flavor: str, clean: bool = False, sanitize: bool = False,
          targets: tuple[str, ...] = ()) -> Path:
    """Configure (when needed) and build ``flavor`` (its sanitized build with ``sanitize``);
    return its build directory. ``targets``: only these CMake targets (default: all).

    Raises ``subprocess.CalledProcessError`` when CMake or the build fails.
    """
    if flavor == NS2 and not sanitize:
        return ns2_programs()
    if flavor == NS324:
        if sanitize:
            raise click.UsageError("--sanitize builds a standalone flavour (system or wheel)")
        return build_ns324(clean)
    if flavor not in ALL_FLAVORS:
        raise ValueError(f"unknown ns-3 flavor {flavor!r}")
    if sanitize and flavor == OPTIMIZED:
        raise click.UsageError("--sanitize builds a standalone flavour (system or wheel)")
    out = build_dir(flavor, sanitize)
    if clean and out.exists():
        CONSOLE.print(f"Removing {out}")
        shutil.rmtree(out)
    if flavor == OPTIMIZED:
        if targets:
            raise ValueError(f"the {OPTIMIZED} flavour builds all its targets")
        return build_optimized(out)
    # BASEDIR: paths below the clone are hashed relative, so two clones (a CI clone, a
    # git worktree) share their compiled objects.
    env = {"CCACHE_DIR": str(ensure_cache_dir(CCACHE_DIR)), "CCACHE_BASEDIR": str(REPO)}
    if not (out / "build.ninja").exists():
        proc.run(configure_command(flavor, sanitize), env=env)
    proc.run(["cmake", "--build", str(out), *(["--target", *targets] if targets else [])],
             env=env)
    return out


def ns2_programs() -> Path:
    """The folder of the ns-2.35 programs, once ``ns`` is found (nothing to build)."""
    if shutil.which("ns") is None:
        raise click.ClickException(
            "ns-2.35's `ns` is not on the PATH: `./qdisc-lab setup` installs Debian's ns2 package")
    return NS2_PROGRAMS


def build_ns324(clean: bool = False) -> Path:
    """Build the ns-3.24 tree and its study programs (``clean``: unpack the tree afresh);
    return the folder of the built programs."""
    from qdisclab.toolchain import ns324

    if clean and ns324.tree().exists():
        CONSOLE.print(f"Removing {ns324.tree()}")
        shutil.rmtree(ns324.tree())
    try:
        return ns324.build(console=CONSOLE)
    except ns324.Ns324Error as exc:
        raise click.ClickException(str(exc)) from exc


def build_optimized(out: Path) -> Path:
    """Build the module in ns-3's source tree (fetched and configured on demand) and link
    its example programs into ``out/examples``; return ``out``."""
    from qdisclab.toolchain import intree

    try:
        tree = intree.prepare_tree(REPO, CACHE, OPTIMIZED_RELEASE, console=CONSOLE)
    except (intree.StepFailed, OSError) as exc:
        raise click.ClickException(f"building the {OPTIMIZED} flavour failed: {exc}") from exc
    return link_examples(intree.example_binaries(tree), out / "examples").parent


def link_examples(binaries: dict[str, Path], examples: Path) -> Path:
    """Make ``examples`` hold exactly one symlink per binary, named after its example."""
    if examples.exists():
        shutil.rmtree(examples)
    examples.mkdir(parents=True)
    for name, path in binaries.items():
        (examples / name).symlink_to(path)
    return examples


