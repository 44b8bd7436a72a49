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
``$QDISC_LAB_BUILD`` if set, else in ``build/wheel`` of the clone this package runs from. It must
have been built against the ns-3 version this Python imports; :func:`check_build` says what is
wrong before the slow import. ``./qdisc-lab python`` runs a script with the build in place.

Installed into another environment (``pip install <clone>/python``, a notebook's kernel), this
module needs only the ns-3 wheel (the package's ``wheel`` extra) and ``$QDISC_LAB_BUILD``: it
imports nothing else of the package, and nothing outside the standard library until ns-3.

ns-3 and the module stop the program (and the Python interpreter, or a notebook's kernel, with
it) on a configuration error: an unknown TypeId or attribute, a value out of range, a malformed
``WeightRules``. :func:`check` finds those errors first and raises :class:`ConfigError`::

    check("ns3::DrrQueueDisc", Quantum=ns.UintegerValue(1500), WeightRules="dport=5000 weight=2")

Importing this module does not load ns-3: only the name ``ns`` does, on first access.
"""

from __future__ import annotations

import difflib
import importlib.metadata
import os
import re
import select
import signal
import sys
import time
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


#: The clone this package runs from when it runs from one (an editable install, the tooling's
#: venv): the directory above python/, holding the ``qdisc-lab`` script.
CLONE = Path(__file__).resolve().parents[2]


def in_clone() -> bool:
    """Whether this package runs from a qdisc-lab clone (not installed elsewhere)."""
    return (CLONE / "qdisc-lab").is_file() and (CLONE / "python" / "qdisclab").is_dir()


def build_dir() -> Path:
    """The build directory to load: ``$QDISC_LAB_BUILD``, else the clone's ``build/wheel``."""
    if configured := os.environ.get(BUILD_ENV):
        return Path(configured).expanduser().resolve()
    if not in_clone():
        raise BuildMissing(
            f"qdisclab is installed outside a qdisc-lab clone ({Path(__file__).parent}), so "
            f"there is no build/wheel beside it: set {BUILD_ENV} to a clone's build directory "
            "(e.g. <clone>/build/wheel, made by `./qdisc-lab build --ns3 wheel`)"
        )
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
            "this Python; `./qdisc-lab setup --wheel` installs them into the tooling's venv, "
            "`pip install '<clone>/python[wheel]'` into another environment"
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


class ConfigError(ValueError):
    """A configuration ns-3 or qdisc-lab would stop the program for, found by :func:`check`."""


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


def check(type_name: str, /, **attributes) -> None:
    """Raise :class:`ConfigError` if creating a ``type_name`` object with ``attributes`` (name:
    an ns-3 ``AttributeValue``, or a ``str`` read as ns-3 reads a ``StringValue``) would stop the
    program, at once or when the object checks its configuration; the message names the TypeId,
    the attribute and the value, as the program would have.

    Checked here: the TypeId exists (close names suggested); each attribute exists (the type's
    attributes listed); the attribute's checker takes the value (its type and range shown); and
    what qdisc-lab's queue discs read later: a MaxSize of 0, a per-flow queue disc's
    ``WeightRules``, a marker's ``Profiles`` (the module's ``qdisclab::CheckAttribute``). Then,
    for one of qdisc-lab's queue discs, what it checks when it is initialized (``CheckConfig``:
    ranges that depend on several attributes): :func:`probe` creates and initializes one in a
    child process. (ns-3's own queue discs check their configuration against the device they
    are installed on, so only the checks before apply to them.) Loads ns-3 (:func:`load`) on
    first use.
    """
    namespace = load()
    tid = namespace.TypeId()
    if not namespace.TypeId.LookupByNameFailSafe(type_name, tid):
        names = [str(namespace.TypeId.GetRegistered(i).GetName())
                 for i in range(namespace.TypeId.GetRegisteredN())]
        close = difflib.get_close_matches(type_name, names, n=3)
        hint = f" (did you mean {' or '.join(close)}?)" if close else ""
        raise ConfigError(f"{type_name!r}: no such TypeId{hint}")
    for name, value in attributes.items():
        if isinstance(value, str):
            value = namespace.StringValue(value)
        error = str(namespace.qdisclab.CheckAttribute(type_name, name, value))
        if error:
            raise ConfigError(error)
        attributes[name] = value
    # The module's queue discs check their configuration without a device; ns-3's need one.
    if tid.GetGroupName() == GROUP and tid.IsChildOf(namespace.QueueDisc.GetTypeId()):
        if error := probe(type_name, attributes):
            raise ConfigError(error)


#: The TypeId group of qdisc-lab's classes (``SetGroupName``).
GROUP = "QdiscLab"
#: How long :func:`probe` waits for its child, in seconds.
PROBE_TIMEOUT = 60
#: The message of ns-3's NS_FATAL_ERROR and NS_ABORT_MSG lines: `msg="TEXT", +0.0s ...` and
#: `aborted. cond="...", msg="TEXT", file=...`.
_FATAL_MESSAGE = re.compile(r'msg="(.*?)", (?:[+-]?\d|file=)')


def probe(type_name: str, attributes: dict) -> str | None:
    """Create a ``type_name`` object with ``attributes`` (name: AttributeValue) and initialize
    it, in a child process (a fork): None if that went through, else the message the child
    stopped with (ns-3's ``msg="..."`` text, else what it printed and how it ended)."""
    namespace = load()
    read, write = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: its stderr into the pipe, no cppyy backtrace on abort
        status = 1
        try:
            os.close(read)
            os.dup2(write, 2)
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
            for number in (signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS, signal.SIGTRAP):
                signal.signal(number, signal.SIG_DFL)
            factory = namespace.ObjectFactory(type_name)
            for name, value in attributes.items():
                factory.Set(name, value)
            factory.Create().Initialize()
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    output = b""
    deadline = time.monotonic() + PROBE_TIMEOUT
    with os.fdopen(read, "rb") as pipe:
        while (left := deadline - time.monotonic()) > 0 and select.select([pipe], [], [], left)[0]:
            if not (chunk := os.read(pipe.fileno(), 65536)):
                break
            output += chunk
    timed_out = time.monotonic() >= deadline
    if timed_out:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    if status == 0:
        return None
    text = output.decode(errors="replace")
    if match := _FATAL_MESSAGE.search(text):
        return match[1]
    how = (f"did not finish in {PROBE_TIMEOUT} s" if timed_out
           else f"ended with {describe_status(status)}")
    return f"creating and initializing a {type_name} {how}: {text.strip() or 'no message'}"


def describe_status(status: int) -> str:
    """A wait status in words: "signal SIGABRT" or "exit status 1"."""
    if os.WIFSIGNALED(status):
        return f"signal {signal.Signals(os.WTERMSIG(status)).name}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"


def __getattr__(name: str):
    # `from qdisclab.ns import ns` loads on first use, so the checks above stay importable fast.
    if name == "ns":
        return load()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
