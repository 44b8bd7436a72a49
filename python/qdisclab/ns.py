# SPDX-License-Identifier: GPL-2.0-only
"""ns-3's Python bindings with qdisc-lab loaded: ``from qdisclab.ns import ns``.

ns-3's own bindings (the PyPI ``ns3`` wheel, built on cppyy) give the ``ns`` namespace; this
module adds qdisc-lab's headers and library to it, so ``ns.DrrQueueDisc``,
``ns.DscpMarkerHelper``, ``ns.CioqSwitchHelper`` and the module's TypeIds (registered when the
library loads) sit next to ns-3's classes::

    from qdisclab.ns import ns          # 15-45 s: ns-3's own `from ns import ns`, then ours

    tch = ns.TrafficControlHelper()
    tch.SetRootQueueDisc("ns3::DrrQueueDisc", "WeightRules", ns.StringValue("dport=5001 weight=2"))

The library comes from qdisc-lab's wheel build (``./qdisc-lab build --ns3 wheel``), found in
``$QDISC_LAB_BUILD`` if set, else in ``build/wheel`` of this checkout. It must have been built
against the ns-3 version this Python imports; :func:`check_build` says what is wrong before the
slow import. ``./qdisc-lab python`` runs a script with the build in place.

Importing this module does not load ns-3: only the name ``ns`` does, on first access.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
from pathlib import Path

#: The environment variable naming the build directory to load (default: build/wheel).
BUILD_ENV = "QDISC_LAB_BUILD"
#: The library and headers in a build directory (see cmake/qdisc-lab-standalone.cmake).
LIBRARY = Path("lib") / "libns3-qdisc-lab.so"
INCLUDE_DIR = Path("include")
MODULE_HEADER = "ns3/qdisc-lab-module.h"
#: Generated at configure time with the ns-3 version the build compiled against.
VERSION_HEADER = "ns3/qdisc-lab-version.h"
#: The PyPI distribution of ns-3's Python bindings.
NS3_DISTRIBUTION = "ns3"


class BuildError(ImportError):
    """The build to load is missing or does not fit this Python's ns-3."""


class BuildMissing(BuildError):
    """The build directory lacks the library or its headers."""


class BuildMismatch(BuildError):
    """The build was compiled against another ns-3 version than this Python's."""


def build_dir() -> Path:
    """The build directory to load: ``$QDISC_LAB_BUILD``, else this checkout's ``build/wheel``."""
    if configured := os.environ.get(BUILD_ENV):
        return Path(configured).expanduser().resolve()
    from qdisclab.toolchain.build import build_dir as flavor_dir

    return flavor_dir("wheel")


def built_against(build: Path) -> tuple[int, int]:
    """The ns-3 (major, minor) ``build`` was compiled against, from its generated header."""
    header = build / INCLUDE_DIR / VERSION_HEADER
    try:
        text = header.read_text()
    except FileNotFoundError:
        raise BuildMismatch(
            f"{header} is missing, so the ns-3 version {build} was built against is unknown; "
            "rebuild it with `./qdisc-lab build --ns3 wheel --clean`"
        ) from None
    version = []
    for part in ("MAJOR", "MINOR"):
        match = re.search(rf"^#define\s+QDISC_LAB_NS3_VERSION_{part}\s+(\d+)\s*$", text, re.M)
        if not match:
            raise BuildMismatch(f"{header} does not define QDISC_LAB_NS3_VERSION_{part}")
        version.append(int(match[1]))
    return version[0], version[1]


def installed_ns3() -> tuple[str, tuple[int, int]]:
    """The version of this Python's ns-3 wheel, as released ("3.44.post0") and (major, minor)."""
    try:
        release = importlib.metadata.version(NS3_DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        raise BuildError(
            f"ns-3's Python bindings (the PyPI `{NS3_DISTRIBUTION}` wheel) are not installed in "
            "this Python; `./qdisc-lab setup --wheel` installs them into the tooling's venv"
        ) from None
    match = re.match(r"(\d+)\.(\d+)", release)
    if not match:
        raise BuildError(f"cannot read a major.minor version from ns3 {release!r}")
    return release, (int(match[1]), int(match[2]))


def check_build(build: Path) -> None:
    """Raise :class:`BuildError` unless ``build`` can be loaded into this Python's ns-3."""
    for path in (LIBRARY, INCLUDE_DIR / MODULE_HEADER):
        if not (build / path).is_file():
            raise BuildMissing(
                f"no qdisc-lab build in {build} (it lacks {path}): build it with `./qdisc-lab "
                "build --ns3 wheel` (or run your script with `./qdisc-lab python SCRIPT`, which "
                f"builds it), or set {BUILD_ENV} to a build directory"
            )
    release, running = installed_ns3()
    built = built_against(build)
    if built != running:
        raise BuildMismatch(
            f"{build} was built against ns-3 {built[0]}.{built[1]}, but this Python's ns-3 is "
            f"{release}; rebuild it against this one with `./qdisc-lab build --ns3 wheel --clean`"
        )


_loaded = None


def load(build: Path | None = None):
    """Import ns-3's bindings, add qdisc-lab's headers and library; return the ``ns`` namespace.

    Loads once per process (later calls return the same namespace, whatever ``build``).
    """
    global _loaded
    if _loaded is None:
        build = build or build_dir()
        check_build(build)
        import cppyy
        from ns import ns as namespace

        # Headers first, then the library (as ns-3's own loader does): the library's static
        # initializers register its TypeIds as it loads.
        cppyy.add_include_path(str(build / INCLUDE_DIR))
        cppyy.include(MODULE_HEADER)
        cppyy.load_library(str(build / LIBRARY))
        _loaded = namespace
    return _loaded


def __getattr__(name: str):
    # `from qdisclab.ns import ns` loads on first use, so the checks above stay importable fast.
    if name == "ns":
        return load()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
