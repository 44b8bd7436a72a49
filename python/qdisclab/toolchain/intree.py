# SPDX-License-Identifier: GPL-2.0-only
"""In-tree build mode: build and test qdisc-lab inside an ns-3 source tree.

The module is copied to ``contrib/qdisc-lab`` of an ns-3 source tree kept in a
cache directory outside the repository clone, ns-3 is configured with only the
modules qdisc-lab needs (examples and tests on, but only qdisc-lab's own
examples and tests are compiled), built with ccache, then the module's test
suites run through ``./test.py`` and the demo example through ``./ns3 run``.
A waf-era tree (ns-3 <= 3.35) goes through the same steps with ``./waf`` and
the module's ``wscript`` (:class:`BuildSystem` holds the differences).

Each release the mode can fetch has one source, pinned in one of two tables:
:data:`DEBIAN_SOURCES` for ns-3.37 from Debian bookworm, by its exact Debian
version and the SHA-256 of its orig tarball (``apt-get source ns3=<version>``);
:data:`FIXTURE_SOURCES` for the source tarballs beside the clone, by SHA-256:
ns-3.35, the last waf release; ns-3.48, the newest release (no Debian suite
reachable here serves it); and ns-3.24, the tree of the ``ns-3.24`` campaign flavour
(:mod:`qdisclab.toolchain.ns324`). For any other version pass ``ns3_src=`` or set
``QDISC_LAB_NS3_SRC`` to an existing ns-3 source tree, which is then used in
place.

A tree the mode fetches gets the module's patches for its release (:data:`PATCH_DIR`): on
ns-3.37, ns-3.48's own fix that builds ``Ipv4L3Protocol::Receive``'s routing callbacks once
instead of per packet; results stay byte-identical.  A tree passed in is used as it is.

Repeat runs are cheap: the source tree, the ccache directory and the build
directory all live under ``cache``; the module copy only rewrites files whose
content changed, and ``./ns3 configure`` runs only when its arguments changed.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Sequence

from qdisclab.toolchain import proc

MODULE_NAME = "qdisc-lab"

# ns-3 modules qdisc-lab uses.  ns-3.37 also resolves the dependencies named in
# the module's CMakeLists.txt, but naming them keeps the set explicit.  With
# tests on, "internet" must be in the set or test-runner fails to link.
NS3_MODULES: tuple[str, ...] = (
    "core",
    "network",
    "internet",
    "traffic-control",
    "point-to-point",
    "applications",
    "flow-monitor",
    "csma",
    "bridge",
    "stats",
)

# ns-3's `release` profile: -O3, NS_LOG and NS_ASSERT compiled out (NS3_LOG=OFF,
# NS3_ASSERT=OFF).  Not `optimized`, which is the same plus -march=native -mtune=native:
# binaries (and ccache objects) tied to the build machine's CPU, and floating-point
# results that may change with it (FMA contraction).  The tree doubles as the
# `optimized` campaign flavour (qdisclab.toolchain.build): tests compiled in do not slow a run.
BUILD_PROFILE = "release"

#: Releases whose fetched tree is built with link-time optimization (ns-3's
#: NS3_LINK_TIME_OPTIMIZATION: -flto=auto, the module and ns-3 optimized across libraries): the
#: one the ``optimized`` campaign flavour runs (qdisclab.toolchain.build.OPTIMIZED_RELEASE).
#: Measured there: 5.6-5.8 % fewer instructions per run of drr-evaluation, vertical-dimensioning
#: and rio-assured-service, every metrics report byte-identical (doc/campaigns.rst, "ns-3 builds
#: for campaigns"). The other releases are the module's portability fixtures, built as a user
#: builds them; a tree given through QDISC_LAB_NS3_SRC is configured without it.
LTO_RELEASES: tuple[str, ...] = ("3.37",)

DEMO_EXAMPLE = "dumbbell-fifo-vs-red"
DEMO_ARGS = "--simTime=5 --warmup=1"


@dataclass(frozen=True)
class DebianSource:
    """An ns-3 release pinned as one Debian source package."""

    release: str  #: ns-3 release, e.g. "3.37" (the tarball holds ns-allinone-<release>/ns-<release>)
    suite: str  #: the Debian suite whose deb-src index lists it
    version: str  #: the exact Debian version `apt-get source ns3=<version>` fetches
    orig: str  #: the upstream tarball's file name
    sha256: str  #: of `orig`, checked after every download


# With FIXTURE_SOURCES below, the one place that says which ns-3 source trees the in-tree
# mode fetches (a release is in one of the two).  To pin a Debian source: add the suite's
# deb-src entry (`qdisc-lab intree` writes it), `apt-get update`, then `apt-cache showsrc
# ns3` prints each Version with its Checksums-Sha256 block; copy the version and the orig
# tarball's name and sha256 here.  A Debian version that left the archive is no longer
# served: move the pin then.
DEBIAN_SOURCES: dict[str, DebianSource] = {
    s.release: s
    for s in (
        DebianSource("3.37", "bookworm", "3.37-2", "ns3_3.37.orig.tar.bz2",
                     "dfa5ca1994ff3dbe1d4b23cef54e05e6079f5707a2ed6055f717bdd5b458c38d"),
    )
}


@dataclass(frozen=True)
class FixtureSource:
    """An ns-3 release kept as a source tarball beside the repository clone (no package
    registry reachable here serves its source): the tarball holds ns-<release>/."""

    release: str  #: ns-3 release, e.g. "3.35"
    path: str  #: the tarball, relative to the repository root
    sha256: str  #: of the tarball, checked before it is unpacked


# Releases no Debian suite reachable here serves: 3.35 (the last waf release), 3.48, the
# newest, and 3.24, the RED-vs-DropTail study's simulator, which only the ``ns-3.24`` campaign
# flavour builds (qdisclab.toolchain.ns324: its waf needs Python 2, and the module cannot be
# built in it) (../shared/ns-3/README.md says what each file holds and leaves out).  A new release:
# add its tarball and .sha256 there, a line here, and point NEWEST_RELEASE at it.
FIXTURE_SOURCES: dict[str, FixtureSource] = {
    s.release: s
    for s in (
        FixtureSource("3.24", "../shared/ns-3/ns-3.24-src.tar.xz",
                      "bfdcbe6814fca8243bbdffa25779e743672980060d4c4a6f8619ca7c467db7da"),
        FixtureSource("3.35", "../shared/ns-3/ns-3.35-src.tar.xz",
                      "27728391f1b1a29b257187a52d2d29959a0490be66cf49c5be1b6cfeab59ab15"),
        FixtureSource("3.48", "../shared/ns-3/ns-3.48-src.tar.xz",
                      "9bdb4f7f532e7c078323fdbd0d3eb7195327df236d869654ac0efc22b5787adb"),
    )
}
DEFAULT_RELEASE = "3.37"  #: Debian stable's, the same as the `system` flavour
NEWEST_RELEASE = "3.48"  #: `--ns3-version newest`
SRC_ENV_VAR = "QDISC_LAB_NS3_SRC"

DEB_SRC_DIR = Path("/etc/apt/sources.list.d")
DEB_SRC_ENTRY = """\
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: {suite}
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
"""


def resolve_release(name: str) -> str:
    """``newest``/``default`` to the pinned release they stand for; other names unchanged."""
    return {"newest": NEWEST_RELEASE, "default": DEFAULT_RELEASE}.get(name, name)


def deb_src_file(suite: str) -> Path:
    """The apt source file this tool writes for ``suite``'s deb-src entry."""
    return DEB_SRC_DIR / f"qdisc-lab-src-{suite}.sources"

# Not copied into contrib/qdisc-lab: anywhere in the tree ...
EXCLUDE_ANYWHERE = frozenset({".git", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"})
# ... and at the top of the repository only (as in .gitignore's /build/ etc.).
EXCLUDE_TOP = frozenset({"build", ".venv", "results", "cmake-cache"})

STAMP_NAME = ".qdisc-lab-configure.json"

_SUITE_RE = re.compile(r'TestSuite\s*[({]\s*"(' + re.escape(MODULE_NAME) + r'[^"]*)"')


class StepFailed(RuntimeError):
    """A step of the in-tree run failed; the message says why."""


# --------------------------------------------------------------------------- output


def _say(console, text: str, style: str | None = None) -> None:
    if console is None:
        print(text, flush=True)
        return
    try:
        from rich.markup import escape
    except ImportError:  # a console-like object without rich installed
        console.print(text)
        return
    text = escape(text)
    console.print(f"[{style}]{text}[/]" if style else text)


def _show_cmd(console, cmd: Sequence[str], cwd: Path | None) -> None:
    line = shlex.join(str(c) for c in cmd)
    if cwd is not None:
        line = f"(cd {shlex.quote(str(cwd))} && {line})"
    if console is None:
        print(f"$ {line}", flush=True)
    else:
        try:
            from rich.markup import escape
        except ImportError:
            console.print(f"$ {line}")
        else:
            console.print(f"[dim]$ {escape(line)}[/]")


@contextmanager
def _step(console, name: str) -> Iterator[None]:
    _say(console, f"==> {name}", "bold")
    t0 = time.monotonic()
    ok = False
    try:
        yield
        ok = True
    finally:
        dt = time.monotonic() - t0
        _say(console, f"<== {name}: {'ok' if ok else 'FAILED'} in {dt:.1f} s", "green" if ok else "red")


def run_cmd(
    cmd: Sequence[str | os.PathLike],
    *,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    console=None,
    capture: bool = False,
    check: bool = True,
) -> subprocess.CompletedProcess:
    """Print and run a command; output goes to our stdout unless captured."""
    cmd = [str(c) for c in cmd]
    _show_cmd(console, cmd, cwd)
    sys.stdout.flush()
    proc = subprocess.run(
        cmd,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE if capture else None,
        stderr=subprocess.STDOUT if capture else None,
        text=True,
    )
    if check and proc.returncode != 0:
        tail = ""
        if capture and proc.stdout:
            tail = "\n" + "\n".join(proc.stdout.splitlines()[-40:])
        raise StepFailed(f"command failed with exit code {proc.returncode}: {shlex.join(cmd)}{tail}")
    return proc


# --------------------------------------------------------------------------- system setup


def _privileged(cmd: list[str]) -> list[str]:
    """``cmd`` behind sudo (non-interactive) when not root."""
    sudo = proc.sudo_prefix()
    return [*sudo, "-n", *cmd] if sudo else cmd


def apt_update(console=None) -> None:
    """Refresh apt's package lists (after adding the deb-src entry)."""
    run_cmd(_privileged(["env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "update"]),
            console=console)


def deb_src_suites(text: str) -> set[str]:
    """The suites an apt source file (one-line or deb822 format) enables deb-src entries for."""
    suites: set[str] = set()
    for line in text.splitlines():  # one-line format: deb-src [opts] URI SUITE COMPONENT...
        words = line.split("#", 1)[0].split()
        if words[:1] == ["deb-src"]:
            rest = words[1:]
            if rest and rest[0].startswith("["):  # [ arch=amd64 signed-by=... ]
                while rest and not rest[0].endswith("]"):
                    rest = rest[1:]
                rest = rest[1:]
            if len(rest) >= 2:
                suites.add(rest[1])
    for stanza in re.split(r"\n\s*\n", text):  # deb822: Types / Suites fields
        fields = {}
        for line in stanza.splitlines():
            key, sep, value = line.partition(":")
            if sep and not line.startswith((" ", "\t", "#")):
                fields[key.strip().lower()] = value.split()
        if "deb-src" in fields.get("types", []) and fields.get("enabled", ["yes"]) != ["no"]:
            suites.update(fields.get("suites", []))
    return suites


def has_deb_src(suite: str, apt_dir: Path = Path("/etc/apt")) -> bool:
    """True if some apt source already enables deb-src entries for ``suite``."""
    candidates = [apt_dir / "sources.list"]
    candidates += sorted((apt_dir / "sources.list.d").glob("*.list"))
    candidates += sorted((apt_dir / "sources.list.d").glob("*.sources"))
    for path in candidates:
        try:
            text = path.read_text(errors="replace")
        except OSError:
            continue
        if suite in deb_src_suites(text):
            return True
    return False


def ensure_deb_src(suite: str, console=None) -> bool:
    """Add a deb-src entry for ``suite`` if no apt source has one; True if added.

    A deb-src entry only lists source packages: it never changes which binary
    packages apt installs or upgrades, so adding another suite's is safe on bookworm.
    """
    if has_deb_src(suite):
        return False
    path, entry = deb_src_file(suite), DEB_SRC_ENTRY.format(suite=suite)
    _say(console, f"adding {path}")
    if os.access(path.parent, os.W_OK):
        path.write_text(entry)
    else:  # not root: write it through sudo
        script = f"printf '%s' {shlex.quote(entry)} > {shlex.quote(str(path))}"
        run_cmd(_privileged(["sh", "-c", script]), console=console)
    return True


def ensure_tools(console=None) -> None:
    """The toolchain, ccache (ns-3's CMake uses it when on PATH) and dpkg-dev (apt-get source):
    the same system packages ``qdisc-lab setup`` installs."""
    from qdisclab.toolchain.provision import ensure_apt_packages

    ensure_apt_packages()


# --------------------------------------------------------------------------- ns-3 source


def ns3_version_of(tree: Path) -> str | None:
    try:
        return (tree / "VERSION").read_text().strip()
    except OSError:
        return None


def is_ns3_tree(tree: Path) -> bool:
    """An ns-3 source tree: CMake era (./ns3) or waf era (./waf)."""
    return (((tree / "ns3").is_file() or (tree / "waf").is_file())
            and (tree / "test.py").is_file() and (tree / "src" / "core").is_dir())


def sha256_of(path: Path) -> str:
    with path.open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def fetch_debian_source(src_dir: Path, pin: DebianSource, console=None) -> Path:
    """Download (not unpack) the pinned ns3 source package into src_dir; return the
    orig tarball, its SHA-256 checked against the pin."""
    tarball = src_dir / pin.orig
    if not tarball.is_file():
        src_dir.mkdir(parents=True, exist_ok=True)
        added = ensure_deb_src(pin.suite, console)
        if added:
            apt_update(console)
        # The exact version: with several deb-src suites, a bare `ns3` means the highest.
        cmd = ["apt-get", "source", "--download-only", f"ns3={pin.version}"]
        proc = run_cmd(cmd, cwd=src_dir, console=console, check=False)
        if proc.returncode != 0 and not added:
            apt_update(console)  # the deb-src entry may be there without its index
            proc = run_cmd(cmd, cwd=src_dir, console=console, check=False)
        if proc.returncode != 0 or not tarball.is_file():
            raise StepFailed(
                f"apt-get source ns3={pin.version} ({pin.suite}) did not give {pin.orig}: "
                f"the Debian mirror does not serve it (when the suite moved on, move the pin in "
                f"DEBIAN_SOURCES), or set {SRC_ENV_VAR} to an ns-{pin.release} source tree"
            )
    check_sha256(tarball, pin.sha256, f"ns3 {pin.version}", "; delete the file to fetch it again")
    return tarball


def check_sha256(tarball: Path, expected: str, what: str, hint: str = "") -> None:
    """Raise StepFailed unless the tarball's SHA-256 is the one pinned for `what`."""
    got = sha256_of(tarball)
    if got != expected:
        raise StepFailed(f"{tarball}: SHA-256 {got}, but the pin for {what} says {expected}{hint}")


def main_worktree(repo: Path) -> Path | None:
    """The main working tree of the clone `repo` is a linked worktree of, else None."""
    proc = subprocess.run(["git", "-C", str(repo), "rev-parse", "--path-format=absolute",
                           "--git-common-dir"], capture_output=True, text=True, check=False)
    common = Path(proc.stdout.strip()) if proc.returncode == 0 and proc.stdout.strip() else None
    if common is None or common.name != ".git" or common.parent.resolve() == repo.resolve():
        return None
    return common.parent


def fetch_fixture_source(repo: Path, pin: FixtureSource) -> Path:
    """The pinned fixture tarball beside the clone (or, for a linked git worktree, beside its
    main working tree), its SHA-256 checked."""
    tarball = (repo / pin.path).resolve()
    main = main_worktree(repo) if not tarball.is_file() else None
    if main is not None and (main / pin.path).is_file():
        tarball = (main / pin.path).resolve()
    if not tarball.is_file():
        raise StepFailed(f"ns-{pin.release} is a fixture: {tarball} ({pin.path} from the "
                         f"repository root) is missing; or set {SRC_ENV_VAR} to an "
                         f"ns-{pin.release} source tree")
    check_sha256(tarball, pin.sha256, f"ns-{pin.release}")
    return tarball


def extract_ns3(tarball: Path, dest: Path, version: str, console=None, *, top: bool = False) -> Path:
    """Unpack ns-allinone-<v>/ns-<v> (a Debian orig tarball) or, with `top`, ns-<v> (a
    fixture) from the tarball to dest (atomically)."""
    tmp = dest.parent / f".{dest.name}.extract"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    member = f"ns-{version}/*" if top else f"*/ns-{version}/*"
    run_cmd(["tar", "-xf", tarball, "-C", tmp, "--wildcards", member], console=console)
    found = [p for p in tmp.glob(f"*/ns-{version}") if is_ns3_tree(p)]
    found += [p for p in tmp.glob(f"ns-{version}") if is_ns3_tree(p)]
    if not found:
        shutil.rmtree(tmp, ignore_errors=True)
        raise StepFailed(f"no ns-{version} source tree inside {tarball}")
    if dest.exists():
        shutil.rmtree(dest)
    found[0].rename(dest)
    shutil.rmtree(tmp, ignore_errors=True)
    return dest


def _given_tree(ns3_src: Path | None) -> Path | None:
    """The user's own ns-3 tree (``ns3_src=`` or $QDISC_LAB_NS3_SRC), if one is given."""
    return ns3_src or (Path(os.environ[SRC_ENV_VAR]) if os.environ.get(SRC_ENV_VAR) else None)


def ensure_ns3_source(cache: Path, version: str, console=None, ns3_src: Path | None = None,
                      repo: Path | None = None) -> Path:
    """Return an ns-3 source tree of `version`: given, cached, fetched from Debian, or
    unpacked from its fixture (FIXTURE_SOURCES, relative to `repo`)."""
    given = _given_tree(ns3_src)
    if given is not None:
        given = given.expanduser().resolve()
        if not is_ns3_tree(given):
            raise StepFailed(f"{given} is not an ns-3 source tree (no ns3 or waf, test.py, src/core)")
        found = ns3_version_of(given)
        if found and found != version:
            _say(console, f"note: {given} is ns-{found}, not ns-{version}; using it", "yellow")
        return given

    tree = cache / f"ns-{version}"
    if is_ns3_tree(tree) and ns3_version_of(tree) == version:
        _say(console, f"reusing {tree}")
        return tree
    if version in FIXTURE_SOURCES:
        tarball = fetch_fixture_source(repo or Path(__file__).resolve().parents[3],
                                       FIXTURE_SOURCES[version])
        return extract_ns3(tarball, tree, version, console, top=True)
    pin = DEBIAN_SOURCES.get(version)
    if pin is None:
        raise StepFailed(
            f"ns-{version} cannot be fetched (pinned: {', '.join([*DEBIAN_SOURCES, *FIXTURE_SOURCES])}); "
            f"set {SRC_ENV_VAR} to an ns-{version} source tree"
        )
    tarball = fetch_debian_source(cache / "src", pin, console)
    return extract_ns3(tarball, tree, version, console)


#: The module's patches to ns-3 sources: ``ns3_patches/<release>/*.patch``, applied in name
#: order to the trees this mode fetches (never to a tree passed in, which is the user's). Each
#: is a change a later ns-3 release made, on an older source, that leaves every result
#: byte-identical and saves per-packet work.
PATCH_DIR = Path(__file__).resolve().with_name("ns3_patches")


def ns3_patches(version: str) -> list[Path]:
    """The patches for ns-``version``'s source, in the order they apply."""
    return sorted((PATCH_DIR / version).glob("*.patch"))


def _patch_applies(tree: Path, patch: Path, *, reverse: bool) -> bool:
    cmd = ["patch", "-p1", "--dry-run", "--force", "--silent", "-i", str(patch)]
    return subprocess.run(cmd + (["--reverse"] if reverse else []), cwd=tree,
                          stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0


def apply_patches(tree: Path, version: str, console=None) -> list[str]:
    """Apply :func:`ns3_patches` to ``tree``, each once; return the names applied now.

    A patch already in the tree is left alone (so a cached tree is not touched again, and
    ninja rebuilds nothing); one that neither applies nor is in raises StepFailed.
    """
    applied = []
    for patch in ns3_patches(version):
        if _patch_applies(tree, patch, reverse=True):
            continue
        if not _patch_applies(tree, patch, reverse=False):
            raise StepFailed(f"{patch} neither applies to {tree} nor is in it: is the tree"
                             f" ns-{version} as released?")
        run_cmd(["patch", "-p1", "--forward", "--silent", "-i", patch], cwd=tree, console=console)
        applied.append(patch.name)
    return applied


# --------------------------------------------------------------------------- module copy


@dataclass
class SyncStats:
    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: int = 0


def _excluded(rel: Path) -> bool:
    if any(part in EXCLUDE_ANYWHERE for part in rel.parts):
        return True
    return len(rel.parts) > 0 and rel.parts[0] in EXCLUDE_TOP


def _same_content(a: Path, b: Path) -> bool:
    try:
        if b.is_symlink() or not b.is_file() or a.stat().st_size != b.stat().st_size:
            return False
    except OSError:
        return False
    with a.open("rb") as fa, b.open("rb") as fb:
        while True:
            ca, cb = fa.read(1 << 16), fb.read(1 << 16)
            if ca != cb:
                return False
            if not ca:
                return True


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def sync_tree(src: Path, dst: Path) -> SyncStats:
    """Mirror src into dst like `rsync -r --delete --checksum` with the excludes.

    Files whose content is unchanged are left alone (mtime kept), so ninja and
    ccache see no change; rewritten files get a fresh mtime.
    """
    src, stats = src.resolve(), SyncStats()
    if dst.is_symlink() or (dst.exists() and not dst.is_dir()):
        dst.unlink()
    dst.mkdir(parents=True, exist_ok=True)
    if dst.resolve() == src or src in dst.resolve().parents:
        raise StepFailed(f"refusing to copy {src} into itself ({dst})")

    wanted: set[Path] = set()
    for root, dirs, files in os.walk(src):
        rel_root = Path(root).relative_to(src)
        dirs[:] = sorted(d for d in dirs if not _excluded(rel_root / d))
        for d in dirs:
            wanted.add(rel_root / d)
        for name in sorted(files):
            rel = rel_root / name
            if _excluded(rel):
                continue
            s, d = src / rel, dst / rel
            if not s.is_file():  # dangling symlink, socket, ...
                continue
            wanted.add(rel)
            if _same_content(s, d):
                stats.unchanged += 1
                continue
            if d.exists() or d.is_symlink():
                _remove(d)
            d.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(s, d)
            shutil.copymode(s, d)
            stats.written.append(str(rel))

    # Delete what is no longer in the source (deepest first).
    for root, dirs, files in os.walk(dst, topdown=False):
        rel_root = Path(root).relative_to(dst)
        for name in files + dirs:
            rel = rel_root / name
            if rel not in wanted:
                _remove(dst / rel)
                stats.removed.append(str(rel))
    return stats


# --------------------------------------------------------------------------- configure / build


def ns3_env(cache: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["CCACHE_DIR"] = str(cache / "ccache")
    env.setdefault("CCACHE_MAXSIZE", "5G")
    return env


def configure_args(modules: Sequence[str] = NS3_MODULES, profile: str = BUILD_PROFILE,
                   lto: bool = False) -> list[str]:
    """Arguments after `./ns3 configure` (``lto``: with link-time optimization, a CMake option
    `./ns3 configure` passes on after ``--``)."""
    args = [
        "-d", profile,
        "--enable-examples",
        "--enable-tests",
        "--disable-werror",
        "--disable-python-bindings",
        "--disable-gtk",
        "--disable-gsl",
        "--disable-mpi",
        "--enable-modules=" + ";".join([MODULE_NAME, *modules]),
        # Examples and tests on, but compile only qdisc-lab's, not those of
        # every enabled ns-3 module (which would more than double the build).
        "--filter-module-examples-and-tests=" + MODULE_NAME,
    ]
    if shutil.which("ninja"):
        args[0:0] = ["-G", "Ninja"]
    if lto:
        args += ["--", "-DNS3_LINK_TIME_OPTIMIZATION=ON"]
    return args


def waf_configure_args(profile: str = BUILD_PROFILE) -> list[str]:
    """Arguments after `./waf configure` (ns-3 <= 3.35).

    Only qdisc-lab is named: waf enables the ns-3 modules its wscript depends on, and theirs.
    """
    return [
        "-d", profile,
        "--enable-examples",
        "--enable-tests",
        "--disable-werror",  # ns-3.35's own code trips g++ 12's -Werror=use-after-free
        "--disable-python",
        "--disable-gtk",
        "--enable-modules=" + MODULE_NAME,
    ]


@dataclass(frozen=True)
class BuildSystem:
    """How an ns-3 tree is configured, built, tested and run: CMake through ``./ns3``
    (ns-3 >= 3.36) or waf (``./waf``, ns-3 <= 3.35, the module's ``wscript``)."""

    waf: bool

    @staticmethod
    def of(ns3dir: Path) -> "BuildSystem":
        return BuildSystem(waf=not (ns3dir / "ns3").is_file() and (ns3dir / "waf").is_file())

    @property
    def state_dir(self) -> str:
        """The tree's directory holding the configuration (and our stamp)."""
        return "build" if self.waf else "cmake-cache"

    @property
    def no_build(self) -> str:
        """test.py's flag for "do not build first"."""
        return "--nowaf" if self.waf else "--no-build"

    def configure_args(self, lto: bool = False) -> list[str]:
        return waf_configure_args() if self.waf else configure_args(lto=lto)

    def configure_cmd(self, args: Sequence[str]) -> list[str]:
        return ["python3", "./waf", "configure", *args] if self.waf else ["./ns3", "configure", *args]

    def configure_env(self, env: dict[str, str]) -> dict[str, str]:
        """ns-3's CMake uses ccache when it is on PATH; waf only through CXX (it keeps the
        compiler it was configured with)."""
        if self.waf and shutil.which("ccache"):
            return {**env, "CXX": f"ccache {env.get('CXX', 'g++')}"}
        return env

    def configured(self, ns3dir: Path) -> bool:
        if self.waf:
            return (ns3dir / "build" / "c4che" / "_cache.py").is_file()
        cache_dir = ns3dir / "cmake-cache"
        return ((cache_dir / "CMakeCache.txt").is_file()
                and any((cache_dir / f).is_file() for f in ("build.ninja", "Makefile")))

    def build_cmd(self, ns3dir: Path, jobs: int) -> list[str]:
        """Everything configured: the libraries, the test-runner and qdisc-lab's examples
        (CMake's filter leaves the other modules' examples and tests out). Waf has no such
        filter and builds the enabled modules' examples and test libraries too; naming targets
        (`--targets=test-runner,...`) would skip them but also skip copying the headers to
        build/ns3, and the compiler would then take an installed ns-3's from /usr/include.

        Not `./ns3 build -j N`: ns-3.37's ns3 script caps the job count at
        nproc - 1 (`min(jobs, max_cpu_threads)`), i.e. -j 1 on a 2-core machine,
        whatever -j says.  `cmake --build` on its cmake-cache is the same build.
        """
        if self.waf:
            return ["python3", "./waf", "build", "-j", str(jobs)]
        return ["cmake", "--build", "cmake-cache", "-j", str(jobs)]

    def run_cmd(self, program: str, cwd: Path) -> list[str]:
        """Run a built program (name and arguments in one string) with `cwd` as its directory."""
        if self.waf:
            return ["python3", "./waf", "--run-no-build", program, f"--cwd={cwd}"]
        return ["./ns3", "run", "--no-build", f"--cwd={cwd}", program]


def _stamp_data(ns3dir: Path, args: Sequence[str]) -> dict:
    module_cmake = ns3dir / "contrib" / MODULE_NAME / "CMakeLists.txt"
    # Waf runs the module's wscript configure() (GoogleTest found or not) only at ./waf
    # configure, and does not configure again when it changes: a new wscript is a new stamp.
    # (CMake configures again by itself when a CMakeLists.txt changes.)
    wscript = ns3dir / "contrib" / MODULE_NAME / "wscript"
    waf_module = BuildSystem.of(ns3dir).waf and wscript.is_file()
    return {
        "args": list(args),
        "module_present": module_cmake.is_file(),
        "module_wscript": hashlib.sha256(wscript.read_bytes()).hexdigest() if waf_module else None,
        "ccache": shutil.which("ccache"),
        "ns3_version": ns3_version_of(ns3dir),
    }


def needs_configure(ns3dir: Path, args: Sequence[str]) -> bool:
    system = BuildSystem.of(ns3dir)
    if not system.configured(ns3dir):
        return True
    try:
        old = json.loads((ns3dir / system.state_dir / STAMP_NAME).read_text())
    except (OSError, ValueError):
        return True
    return old != _stamp_data(ns3dir, args)


#: A forwarding header CMake-era ns-3 writes into build/include/ns3/ at configure time.
_STUB = re.compile(r'#include "(?P<path>[^"]+)"\n?')


def remove_stale_header_stubs(ns3dir: Path) -> list[Path]:
    """Remove the forwarding headers of ``build/include/ns3/`` that point at a file of the
    module that is no longer there (a header the module moved or removed), and the configure
    stamp with them; return the headers removed.

    CMake-era ns-3 writes ``#include "<contrib/qdisc-lab/.../x.h>"`` for each module header at
    configure time, and never again once ``x.h`` exists there: a moved header would keep its
    old, broken forward. Removed, the next configure (which the missing stamp makes run) writes
    the new one. Waf trees copy the headers at build time and have no such stubs."""
    include = ns3dir / "build" / "include" / "ns3"
    module = (ns3dir / "contrib" / MODULE_NAME).resolve()
    removed = []
    for stub in sorted(include.glob("*.h")) if include.is_dir() else ():
        if stub.is_symlink() or stub.stat().st_size > 4096:
            continue
        match = _STUB.fullmatch(stub.read_text(errors="replace"))
        if match is None:
            continue
        target = Path(match["path"])
        if target.is_relative_to(module) and not target.exists():
            stub.unlink()
            removed.append(stub)
    if removed:
        system = BuildSystem.of(ns3dir)
        (ns3dir / system.state_dir / STAMP_NAME).unlink(missing_ok=True)
    return removed


def configure(ns3dir: Path, args: Sequence[str], env: dict[str, str], console=None) -> bool:
    """Run ./ns3 configure (./waf configure) when needed; return True if it ran."""
    if not needs_configure(ns3dir, args):
        _say(console, "configuration unchanged; skipping configure")
        return False
    system = BuildSystem.of(ns3dir)
    cache_dir = ns3dir / system.state_dir
    stamp = cache_dir / STAMP_NAME
    stamp.unlink(missing_ok=True)
    cmd = system.configure_cmd(args)
    env = system.configure_env(env)
    if run_cmd(cmd, cwd=ns3dir, env=env, console=console, check=False).returncode != 0:
        if system.waf or not cache_dir.is_dir():
            raise StepFailed(f"{'./waf' if system.waf else './ns3'} configure failed")
        # A cache left by another configuration (e.g. another generator) can
        # make CMake refuse; start from a clean cache once (ccache stays warm).
        _say(console, "configure failed; retrying with a fresh cmake-cache", "yellow")
        shutil.rmtree(cache_dir)
        run_cmd(cmd, cwd=ns3dir, env=env, console=console)
    stamp.write_text(json.dumps(_stamp_data(ns3dir, args), indent=1) + "\n")
    return True


def default_jobs() -> int:
    return os.cpu_count() or 1


def build(ns3dir: Path, env: dict[str, str], jobs: int | None = None, console=None) -> None:
    """Build the libraries, the test-runner and qdisc-lab's examples (BuildSystem.build_cmd)."""
    jobs = jobs or default_jobs()
    run_cmd(BuildSystem.of(ns3dir).build_cmd(ns3dir, jobs), cwd=ns3dir, env=env, console=console)


# --------------------------------------------------------------------------- installed ns-3 headers

#: Where an installed ns-3's headers sit on the compiler's default search path (Debian's
#: libns3-dev: /usr/include/ns3); cmake/qdisc-lab-installed-ns3-guard.cmake keeps them out.
INSTALLED_NS3_INCLUDE_DIRS: tuple[Path, ...] = (Path("/usr/local/include"), Path("/usr/include"))


def installed_headers_used(deps: str, include_dirs: Sequence[Path] = INSTALLED_NS3_INCLUDE_DIRS,
                           module: str = MODULE_NAME) -> dict[str, list[str]]:
    """The module's objects that read an installed ns-3's header, from ``ninja -t deps``.

    ``deps`` lists each object (``OBJ: #deps N, deps mtime M (VALID)``) and then, indented,
    every file the compiler read for it; the result maps each of the module's objects
    (``contrib/<module>/...``) to the files it read under ``<dir>/ns3/`` of ``include_dirs``.
    """
    prefixes = tuple(f"{d}/ns3/" for d in include_dirs)
    found: dict[str, list[str]] = {}
    target = None
    for line in deps.splitlines():
        if line and not line[0].isspace():
            name = line.split(": #deps", 1)[0]
            target = name if name.startswith(f"contrib/{module}/") else None
        elif target is not None and line.strip().startswith(prefixes):
            found.setdefault(target, []).append(line.strip())
    return found


def check_no_installed_headers(ns3dir: Path, env: dict[str, str], console=None) -> None:
    """Raise StepFailed if a module object of the CMake tree read an installed ns-3's header
    (the header dependencies ninja recorded in the build). Waf trees and Makefile builds keep
    no such record: nothing is checked there."""
    cache_dir = ns3dir / "cmake-cache"
    if BuildSystem.of(ns3dir).waf or not (cache_dir / "build.ninja").is_file() or not shutil.which("ninja"):
        _say(console, "no ninja dependency record; header origins not checked")
        return
    proc = run_cmd(["ninja", "-C", cache_dir, "-t", "deps"], env=env, console=console, capture=True)
    used = installed_headers_used(proc.stdout or "")
    if used:
        lines = [f"  {obj}: {', '.join(headers[:3])}{' ...' if len(headers) > 3 else ''}"
                 for obj, headers in sorted(used.items())]
        raise StepFailed(f"{len(used)} of {MODULE_NAME}'s objects read an installed ns-3's headers "
                         "instead of the tree's:\n" + "\n".join(lines))
    _say(console, f"no {MODULE_NAME} object read a header of an installed ns-3")


# --------------------------------------------------------------------------- tests / example


def suites_from_sources(repo: Path) -> list[str]:
    """qdisc-lab suite names found in the module's test sources."""
    names: set[str] = set()
    test_dir = repo / "test"
    for path in sorted(test_dir.rglob("*.cc")) if test_dir.is_dir() else []:
        names.update(_SUITE_RE.findall(path.read_text(errors="replace")))
    return sorted(names)


def parse_test_list(text: str) -> list[str]:
    """qdisc-lab suite names from `./test.py --list` output (lines: TYPE NAME)."""
    names = set()
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] != "example" and parts[-1].startswith(MODULE_NAME):
            names.add(parts[-1])
    return sorted(names)


def discover_suites(ns3dir: Path, repo: Path, env: dict[str, str], console=None) -> list[str]:
    proc = run_cmd(["./test.py", BuildSystem.of(ns3dir).no_build, "--list"], cwd=ns3dir, env=env, console=console,
                   capture=True, check=False)
    suites = parse_test_list(proc.stdout or "") if proc.returncode == 0 else []
    if not suites:
        suites = suites_from_sources(repo)
        if suites:
            _say(console, "test.py --list found no qdisc-lab suite; using names from test/*.cc", "yellow")
    return suites


def run_suites(ns3dir: Path, suites: Sequence[str], env: dict[str, str], jobs: int | None = None,
               console=None) -> dict[str, bool]:
    results = {}
    for suite in suites:
        cmd = ["./test.py", BuildSystem.of(ns3dir).no_build, "--nocolor", "-s", suite]
        if jobs:
            cmd += ["--jobs", str(jobs)]
        proc = run_cmd(cmd, cwd=ns3dir, env=env, console=console, check=False)
        results[suite] = proc.returncode == 0
    return results


def run_example(ns3dir: Path, cache: Path, env: dict[str, str], console=None,
                example: str = DEMO_EXAMPLE, args: str = DEMO_ARGS) -> None:
    out = cache / "example-output" / example
    out.mkdir(parents=True, exist_ok=True)
    run_cmd(BuildSystem.of(ns3dir).run_cmd(f"{example} {args}".strip(), out), cwd=ns3dir, env=env, console=console)


def run_module_suites(ns3dir: Path, repo: Path, env: dict[str, str], jobs: int | None = None,
                      console=None) -> dict[str, bool]:
    """Discover and run every qdisc-lab* suite; raise StepFailed unless all pass."""
    suites = discover_suites(ns3dir, repo, env, console)
    if not suites:
        raise StepFailed(f"no {MODULE_NAME}* test suite was found")
    results = run_suites(ns3dir, suites, env, jobs, console)
    for suite, ok in results.items():
        _say(console, f"{'PASS' if ok else 'FAIL'}: {suite}", "green" if ok else "red")
    n_ok = sum(results.values())
    _say(console, f"{MODULE_NAME}: {n_ok} passed, {len(results) - n_ok} failed")
    if n_ok != len(results):
        raise StepFailed("failed suites: " + ", ".join(s for s, ok in results.items() if not ok))
    return results


# --------------------------------------------------------------------------- entry point


def check_module(repo: Path) -> None:
    missing = [p for p in ("CMakeLists.txt", f"examples/{DEMO_EXAMPLE}.cc") if not (repo / p).is_file()]
    if missing:
        raise StepFailed(f"{repo} is not a complete qdisc-lab module (missing {', '.join(missing)})")


def prepare_tree(repo: Path, cache: Path, version: str = DEFAULT_RELEASE, jobs: int | None = None,
                 console=None, *, ns3_src: Path | None = None) -> Path:
    """Fetch (or reuse) the ns-3 source tree, copy the module into contrib/, configure
    and build it; return the tree.  Raises StepFailed (or OSError) on failure."""
    repo, cache = Path(repo).resolve(), Path(cache).expanduser().resolve()
    version = resolve_release(version)
    check_module(repo)
    cache.mkdir(parents=True, exist_ok=True)
    env = ns3_env(cache)
    with _step(console, "tools"):
        ensure_tools(console)
    with _step(console, f"ns-{version} source"):
        ns3dir = ensure_ns3_source(cache, version, console, ns3_src, repo)
        _say(console, f"ns-3 source tree: {ns3dir}")
    if ns3_patches(version) and not _given_tree(ns3_src):
        with _step(console, f"ns-{version} patches"):
            applied = apply_patches(ns3dir, version, console)
            _say(console, f"applied {', '.join(applied)}" if applied
                          else f"{len(ns3_patches(version))} already in the tree")
    with _step(console, f"copy module to contrib/{MODULE_NAME}"):
        stats = sync_tree(repo, ns3dir / "contrib" / MODULE_NAME)
        _say(console, f"{len(stats.written)} written, {len(stats.removed)} removed, "
                      f"{stats.unchanged} unchanged")
    with _step(console, "configure"):
        if stale := remove_stale_header_stubs(ns3dir):
            _say(console, f"{len(stale)} forwarding header(s) of moved module headers removed"
                          f" ({', '.join(p.name for p in stale[:4])}{', ...' if len(stale) > 4 else ''})")
        lto = version in LTO_RELEASES and not _given_tree(ns3_src)
        configure(ns3dir, BuildSystem.of(ns3dir).configure_args(lto), env, console)
    with _step(console, "build"):
        build(ns3dir, env, jobs or default_jobs(), console)
    with _step(console, "headers: the tree's only"):
        check_no_installed_headers(ns3dir, env, console)
    return ns3dir


def example_binaries(ns3dir: Path) -> dict[str, Path]:
    """qdisc-lab's example programs built in the tree, by example name.

    ns-3 names them ``ns<version>-<example>`` under ``build/contrib/qdisc-lab/examples``
    (the release profile adds no ``-<profile>`` suffix, unlike the others).
    """
    out_dir = ns3dir / "build" / "contrib" / MODULE_NAME / "examples"
    prefix = f"ns{ns3_version_of(ns3dir)}-"
    found = {}
    for path in sorted(out_dir.glob(f"{prefix}*")) if out_dir.is_dir() else []:
        if path.is_file() and os.access(path, os.X_OK):
            found[path.name[len(prefix):]] = path
    return found


def run_intree(repo: Path, cache: Path, version: str = DEFAULT_RELEASE, jobs: int | None = None,
               console=None, *, ns3_src: Path | None = None, keep_going: bool = False) -> bool:
    """Build qdisc-lab inside ns-3, run its test suites and demo; True if all succeeded.

    With keep_going, the demo still runs after a failing test suite (the
    result is still False); a failed build stops the run either way.
    """
    repo, cache = Path(repo).resolve(), Path(cache).expanduser().resolve()
    jobs = jobs or default_jobs()
    t_start = time.monotonic()
    failures: list[str] = []
    try:
        ns3dir = prepare_tree(repo, cache, version, jobs, console, ns3_src=ns3_src)
        env = ns3_env(cache)
        try:
            with _step(console, "test suites"):
                run_module_suites(ns3dir, repo, env, jobs, console)
        except StepFailed as exc:
            if not keep_going:
                raise
            _say(console, str(exc), "red")
            failures.append("test suites")
        with _step(console, f"run {DEMO_EXAMPLE}"):
            run_example(ns3dir, cache, env, console)
    except (StepFailed, OSError) as exc:
        _say(console, f"in-tree run failed: {exc}", "red")
        _say(console, f"total {time.monotonic() - t_start:.1f} s", "red")
        return False
    if failures:
        _say(console, f"in-tree run failed ({', '.join(failures)}) in {time.monotonic() - t_start:.1f} s", "red")
        return False
    _say(console, f"in-tree run passed in {time.monotonic() - t_start:.1f} s", "green")
    return True


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[3])
    parser.add_argument("--cache", type=Path, default=Path("~/.cache/qdisc-lab"))
    parser.add_argument("--ns3-version", default=DEFAULT_RELEASE)
    parser.add_argument("--ns3-src", type=Path, default=None)
    parser.add_argument("-j", "--jobs", type=int, default=None)
    parser.add_argument("--keep-going", action="store_true")
    ns = parser.parse_args(argv)
    ok = run_intree(ns.repo, ns.cache, ns.ns3_version, ns.jobs, ns3_src=ns.ns3_src, keep_going=ns.keep_going)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
