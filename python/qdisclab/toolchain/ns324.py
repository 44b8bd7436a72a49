# SPDX-License-Identifier: GPL-2.0-only
"""The ``ns-3.24`` campaign flavour: the RED-vs-DropTail study's own simulator.

The study (Luo, *Comparison of RED vs. DropTail Queuing*) names ns-3.24.1. ns-3.24 predates
the traffic-control layer and builds with waf under Python 2, so the module cannot be built in
it; instead the programs of ``validation/ns-3.24/`` (self-contained, on the module's
experiment contract: ``--schema``, ``--output``, the same metrics) are copied into the tree's
``scratch/`` and built there as ns-3's scratch programs. The tree is the fixture
``ns-3.24-src.tar.xz`` (:data:`qdisclab.toolchain.intree.FIXTURE_SOURCES`), unpacked once into
``$QDISC_LAB_CACHE/ns-3.24``; it is configured only when its configure command changed, and
``./waf build`` recompiles only what changed (through ccache).

``./qdisc-lab build --ns3 ns-3.24`` runs :func:`build`; a campaign with ``ns3 = "ns-3.24"``
runs ``<tree>/build/scratch/<program>`` (:func:`program_path`) with the tree's libraries on
``LD_LIBRARY_PATH`` (:func:`runtime_env`).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from qdisclab.context import CACHE, REPO

FLAVOUR = "ns-3.24"  #: the campaign flavour (``ns3 = "ns-3.24"``)
RELEASE = "3.24"  #: the fixture's release (tag ns-3.24 of ns-3-dev)
PROGRAMS = REPO / "validation" / "ns-3.24"  #: its programs, one ``<program>.cc`` each
#: Set (to anything but "" or "0") where the tree must be built: the tests that need it fail
#: instead of skipping.
REQUIRE_ENV = "QDISC_LAB_REQUIRE_NS324"

#: ns-3.24's waf is Python 2 only; pyenv's CPython 2.7.18 runs it.
PYTHON2 = "python2"
PYENV_VERSION = "2.7.18"
#: g++ 12 compiles ns-3.24 as C++11 with permissive errors and no warning fatal.
CXXFLAGS = "-std=c++11 -fpermissive -Wno-error -O2"
#: The modules the study programs use (``point-to-point-layout`` for its dumbbell helper).
MODULES = ("core", "network", "internet", "point-to-point", "point-to-point-layout",
           "applications", "flow-monitor")
CONFIGURE_ARGS = ("configure", "-d", "optimized", "--disable-python",
                  f"--enable-modules={','.join(MODULES)}")
STAMP_NAME = ".qdisc-lab-ns324-configure.json"
MARKER_NAME = ".qdisc-lab-fixture-sha256"  #: in the tree: the fixture it was unpacked from


class Ns324Error(RuntimeError):
    """Building or finding the ns-3.24 tree failed; the message says why and what to run."""


def tree(cache: Path | None = None) -> Path:
    """The ns-3.24 source tree the flavour builds in (in ``cache``, default the tool's)."""
    return (cache or CACHE) / f"ns-{RELEASE}"


def program_path(program: str, cache: Path | None = None) -> Path:
    """The built scratch program ``program``: waf builds ``scratch/<p>.cc`` as
    ``build/scratch/<p>``."""
    return tree(cache) / "build" / "scratch" / program


def library_dir(cache: Path | None = None) -> Path:
    """Where waf puts the tree's shared libraries, ``libns3-dev-<module>-optimized.so`` (the
    tag calls itself 3-dev)."""
    return tree(cache) / "build"


def required() -> bool:
    """Whether :data:`REQUIRE_ENV` says the tree must be there."""
    return os.environ.get(REQUIRE_ENV, "") not in ("", "0")


def find_program(program: str, cache: Path | None = None) -> Path:
    """The built ``program``; :class:`Ns324Error` naming the command that builds it when the
    tree or the program is missing."""
    source = PROGRAMS / f"{program}.cc"
    if not source.is_file():
        raise Ns324Error(f"{source} does not exist: no ns-3.24 program {program!r}")
    path = program_path(program, cache)
    if not path.is_file():
        what = "the ns-3.24 tree" if not tree(cache).is_dir() else "it"
        raise Ns324Error(f"{path} does not exist: build {what} first"
                         f" (`./qdisc-lab build --ns3 {FLAVOUR}`)")
    return path


def runtime_env(cache: Path | None = None) -> dict[str, str]:
    """``LD_LIBRARY_PATH`` with the tree's libraries first (waf links them by soname)."""
    libdirs = [str(library_dir(cache))]
    if old := os.environ.get("LD_LIBRARY_PATH"):
        libdirs.append(old)
    return {"LD_LIBRARY_PATH": os.pathsep.join(libdirs)}


def build_env(cache: Path | None = None) -> dict[str, str]:
    """The environment waf configures and builds with: Python 2 from pyenv, C++11, ccache."""
    env = dict(os.environ)
    # waf sets no run path: without one, a program finds the tree's libraries only through
    # LD_LIBRARY_PATH, which `--schema` (read by the engine before any run) is not given.
    env.update(PYENV_VERSION=PYENV_VERSION, CXXFLAGS=CXXFLAGS,
               LINKFLAGS=f"-Wl,-rpath,{library_dir(cache)}",
               CCACHE_DIR=str((cache or CACHE) / "ccache"))
    if shutil.which("ccache"):
        env["CXX"] = "ccache g++"
    env.setdefault("CCACHE_MAXSIZE", "5G")
    return env


def configure_command() -> list[str]:
    return [PYTHON2, "./waf", *CONFIGURE_ARGS]


def build_command(jobs: int = 2) -> list[str]:
    return [PYTHON2, "./waf", "build", f"-j{jobs}"]


def _stamp(env: dict[str, str]) -> dict:
    return {"cmd": configure_command(), "cxx": env.get("CXX", ""), "cxxflags": env["CXXFLAGS"],
            "linkflags": env["LINKFLAGS"]}


def needs_configure(ns3dir: Path, env: dict[str, str]) -> bool:
    """True unless waf's configuration is there and was made by today's configure command."""
    if not (ns3dir / "build" / "c4che" / "_cache.py").is_file():
        return True
    try:
        return json.loads((ns3dir / "build" / STAMP_NAME).read_text()) != _stamp(env)
    except (OSError, ValueError):
        return True


def copy_programs(ns3dir: Path, programs: Path = PROGRAMS) -> list[str]:
    """Copy ``programs/*.cc`` into ``scratch/`` when their content changed (waf rebuilds by
    timestamp); return the program names."""
    names = []
    for source in sorted(programs.glob("*.cc")):
        target = ns3dir / "scratch" / source.name
        if not target.is_file() or target.read_bytes() != source.read_bytes():
            shutil.copyfile(source, target)
        names.append(source.stem)
    return names


def ensure_tree(cache: Path | None = None, console=None) -> Path:
    """The unpacked fixture tree, unpacked (its SHA-256 checked) unless the marker says it is.

    The tag's ``VERSION`` file says ``3-dev``, so a marker written after unpacking, holding the
    fixture's SHA-256, says which tree it is.
    """
    from qdisclab.toolchain import intree

    ns3dir = tree(cache)
    pin = intree.FIXTURE_SOURCES[RELEASE]
    marker = ns3dir / MARKER_NAME
    if intree.is_ns3_tree(ns3dir) and marker.is_file() and marker.read_text().strip() == pin.sha256:
        return ns3dir
    tarball = intree.fetch_fixture_source(REPO, pin)
    intree.extract_ns3(tarball, ns3dir, RELEASE, console, top=True)
    marker.write_text(pin.sha256 + "\n")
    return ns3dir


def build(cache: Path | None = None, jobs: int = 2, console=None) -> Path:
    """Unpack the fixture (once), copy the programs into ``scratch/``, configure (when needed)
    and build; return the folder of the built programs (``build/scratch``)."""
    from qdisclab.toolchain import intree

    if shutil.which(PYTHON2) is None:
        raise Ns324Error(f"{PYTHON2} is not on the PATH: ns-3.24's waf needs Python 2"
                         f" (pyenv's {PYENV_VERSION})")
    try:
        ns3dir = ensure_tree(cache, console)
        env = build_env(cache)
        names = copy_programs(ns3dir)
        if needs_configure(ns3dir, env):
            (ns3dir / "build" / STAMP_NAME).unlink(missing_ok=True)
            intree.run_cmd(configure_command(), cwd=ns3dir, env=env, console=console)
            (ns3dir / "build" / STAMP_NAME).write_text(json.dumps(_stamp(env), indent=1) + "\n")
        intree.run_cmd(build_command(jobs), cwd=ns3dir, env=env, console=console)
    except (intree.StepFailed, OSError) as exc:
        raise Ns324Error(f"building the {FLAVOUR} flavour failed: {exc}") from exc
    missing = [name for name in names if not program_path(name, cache).is_file()]
    if missing:
        raise Ns324Error(f"./waf build left no {', '.join(missing)} in {ns3dir / 'build/scratch'}")
    return ns3dir / "build" / "scratch"
