# SPDX-License-Identifier: GPL-2.0-only
"""What a fresh Debian/Ubuntu machine needs, installed (``qdisc-lab setup``).

Everything is checked first and only what is missing gets installed, so the
other commands call :func:`ensure_setup` unconditionally before they work.
"""

import importlib.metadata
import json
import shutil
import sys
import tomllib


from qdisclab.context import CACHE, CONSOLE, PYTHON_DIR, ensure_cache_dir
from qdisclab.toolchain import proc

APT_PACKAGES = (
    "build-essential",
    "cmake",
    "ninja-build",
    "ccache",
    "pkg-config",
    "libns3-dev",
    "ns3",
    "libgsl-dev",
    "libgtest-dev",
    "libboost-dev",
    "clang-format",
    "python3-venv",
    "dpkg-dev",
    "patch",
    "valgrind",
    "ns2",
)

#: The tooling's package description; its ``wheel`` extra pins the ns-3 wheel.
PYPROJECT = PYTHON_DIR / "pyproject.toml"
#: Wheels pip built from source distributions (PyPI serves none for this Python: cppyy 3.5.0
#: and CPyCppyy for CPython 3.11), kept for every later venv and clone on this machine.
WHEELS_DIR = CACHE / "wheels"
#: What compiling them took on a 2-core machine (CPyCppyy most of it).
SOURCE_BUILD_COST = "about 8 minutes on 2 cores"


def missing_apt_packages(packages: tuple[str, ...] = APT_PACKAGES) -> list[str]:
    """Return the packages of ``packages`` that dpkg does not report as installed."""
    result = proc.run(
        ["dpkg-query", "-W", "-f=${Package} ${Status}\\n", *packages],
        check=False,
        capture=True,
    )
    installed = set()
    for line in result.stdout.splitlines():
        name, _, status = line.partition(" ")
        if status.strip() == "install ok installed":
            installed.add(name)
    return [package for package in packages if package not in installed]


def ensure_apt_packages() -> None:
    """Install the missing :data:`APT_PACKAGES` with apt-get (through sudo when not root)."""
    if shutil.which("dpkg-query") is None or shutil.which("apt-get") is None:
        CONSOLE.print(
            "[yellow]Not a Debian/Ubuntu system: install the tools listed in README by hand.[/]"
        )
        return
    missing = missing_apt_packages()
    if not missing:
        CONSOLE.print("System packages: all installed.")
        return
    CONSOLE.print(f"Installing system packages: {', '.join(missing)}")
    env = {"DEBIAN_FRONTEND": "noninteractive"}
    sudo = proc.sudo_prefix()
    if sudo:
        # sudo resets the environment; set the variable again behind it.
        sudo = [*sudo, "env", "DEBIAN_FRONTEND=noninteractive"]
    proc.run([*sudo, "apt-get", "update"], env=env)
    proc.run([*sudo, "apt-get", "install", "-y", "--no-install-recommends", *missing], env=env)


def wheel_requirements() -> dict[str, str]:
    """Map each ``name==version`` pin of pyproject.toml's ``wheel`` extra to its version."""
    with open(PYPROJECT, "rb") as handle:
        extra = tomllib.load(handle)["project"]["optional-dependencies"]["wheel"]
    pins = {}
    for requirement in extra:
        name, _, version = requirement.partition("==")
        pins[name.strip()] = version.strip()
    return pins


def missing_wheel_pins() -> list[str]:
    """The ``wheel`` extra's pins (``name==version``) this Python does not have installed."""
    stale = []
    for name, version in wheel_requirements().items():
        try:
            if importlib.metadata.version(name) == version:
                continue
        except importlib.metadata.PackageNotFoundError:
            pass
        stale.append(f"{name}=={version}")
    return stale


def pip(*args: str) -> list[str]:
    """A pip command line for this Python, taking wheels from :data:`WHEELS_DIR` too."""
    return [sys.executable, "-m", "pip", *args, "--disable-pip-version-check",
            "--find-links", str(WHEELS_DIR)]


def source_only(pins: list[str]) -> list[str]:
    """Which distributions installing ``pins`` would build from source (``name==version``):
    those pip's resolver (a dry run, its ``--report``) takes as an sdist, not as a wheel from
    the index or from :data:`WHEELS_DIR`. Empty when the dry run fails (pip's own install then
    says why)."""
    result = proc.run(pip("install", "--dry-run", "--quiet", "--report", "-", *pins),
                      check=False, capture=True)
    try:
        items = json.loads(result.stdout)["install"] if result.returncode == 0 else []
    except (ValueError, KeyError, TypeError):
        items = []
    need = []
    for item in items:
        url = item.get("download_info", {}).get("url", "")
        if not url.split("#")[0].endswith(".whl"):
            metadata = item["metadata"]
            need.append(f"{metadata['name']}=={metadata['version']}")
    return need


def ensure_wheel() -> None:
    """Install the ``wheel`` extra's pins (the ns-3 wheel) into this venv unless present.

    What PyPI has no wheel for is first built once into :data:`WHEELS_DIR` (``pip wheel``,
    saying beforehand what that costs); every install takes wheels from there (``--find-links``),
    so a later venv or clone reuses them.
    """
    stale = missing_wheel_pins()
    if not stale:
        CONSOLE.print("Python wheel packages: all installed.")
        return
    ensure_cache_dir(WHEELS_DIR)
    if need := source_only(stale):
        CONSOLE.print(
            f"PyPI has no wheel of {', '.join(need)} for this Python "
            f"({sys.version_info.major}.{sys.version_info.minor}): pip compiles them now, "
            f"{SOURCE_BUILD_COST}, once: the wheels are kept in {WHEELS_DIR} for later venvs "
            "and clones."
        )
        proc.run(pip("wheel", "--no-deps", "--wheel-dir", str(WHEELS_DIR), *need))
    CONSOLE.print(f"Installing into the venv: {', '.join(stale)}")
    proc.run(pip("install", *stale))


def ensure_setup(wheel: bool = False) -> None:
    """Install whatever is missing: apt packages, plus the ns-3 wheel when ``wheel``."""
    ensure_apt_packages()
    if wheel:
        ensure_wheel()


