# SPDX-License-Identifier: GPL-2.0-only
"""``setup``'s apt logic, with dpkg-query and apt-get recorded instead of run; the ns-3 wheel's
install through the wheels cache, with pip recorded, and pip's resolver on a local package."""

import json
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from qdisclab.toolchain import provision


@pytest.fixture
def apt(monkeypatch):
    """Fake dpkg/apt: ``apt.installed`` is what dpkg-query reports; calls are recorded."""

    class Apt:
        installed = set(provision.APT_PACKAGES)
        removed = set()  # reported by dpkg, but not installed
        calls = []

    def fake_run(cmd, **kwargs):
        cmd = [str(c) for c in cmd]
        Apt.calls.append((cmd, kwargs))
        if cmd[0] == "dpkg-query":
            lines = [f"{p} install ok installed" for p in cmd[3:] if p in Apt.installed]
            lines += [f"{p} deinstall ok config-files" for p in cmd[3:] if p in Apt.removed]
            return subprocess.CompletedProcess(cmd, 1, "\n".join(lines) + "\n", "")
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(provision.proc, "run", fake_run)
    monkeypatch.setattr(provision.proc, "sudo_prefix", lambda: [])
    monkeypatch.setattr(provision.shutil, "which", lambda name: f"/usr/bin/{name}")
    return Apt


def test_nothing_missing_installs_nothing(apt):
    provision.ensure_apt_packages()
    assert [cmd[0] for cmd, _ in apt.calls] == ["dpkg-query"]
    assert apt.calls[0][1]["check"] is False  # dpkg-query fails when a package is unknown


def test_removed_package_counts_as_missing(apt):
    apt.installed = set(provision.APT_PACKAGES) - {"valgrind"}
    apt.removed = {"valgrind"}
    assert provision.missing_apt_packages() == ["valgrind"]


def test_missing_packages_are_installed(apt):
    apt.installed = set(provision.APT_PACKAGES) - {"clang-format", "valgrind"}
    provision.ensure_apt_packages()
    commands = [cmd for cmd, _ in apt.calls]
    assert commands[1] == ["apt-get", "update"]
    assert commands[2] == [
        "apt-get", "install", "-y", "--no-install-recommends", "clang-format", "valgrind"
    ]  # fmt: skip
    assert apt.calls[2][1]["env"] == {"DEBIAN_FRONTEND": "noninteractive"}


def test_sudo_when_not_root(apt, monkeypatch):
    monkeypatch.setattr(provision.proc, "sudo_prefix", lambda: ["sudo"])
    apt.installed = set(provision.APT_PACKAGES) - {"ninja-build"}
    provision.ensure_apt_packages()
    assert apt.calls[1][0] == ["sudo", "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "update"]


def test_wheel_requirements_pin():
    assert provision.wheel_requirements() == {"ns3": "3.44.post0"}


# ---- the ns-3 wheel through the wheels cache (qdisc-lab's cache, wheels/)


def report(*urls: str) -> str:
    """pip's --report for one install item per URL (the name and version from its file name)."""
    items = []
    for url in urls:
        name, version = url.split("#")[0].rsplit("/", 1)[1].split("-")[:2]
        items.append({"metadata": {"name": name, "version": version.removesuffix(".tar.gz")},
                      "download_info": {"url": url}})
    return json.dumps({"version": "1", "install": items})


@pytest.fixture
def pip_calls(monkeypatch, tmp_path):
    """pip recorded: the dry run answers ``pip_calls.report``; the ns-3 pin is not installed."""

    class Pip:
        report = report("https://files/ns3-3.44.post0-cp311-cp311-manylinux_2_28_x86_64.whl")
        calls = []

    def fake_run(cmd, **kwargs):
        Pip.calls.append([str(c) for c in cmd])
        stdout = Pip.report if "--dry-run" in cmd else ""
        return subprocess.CompletedProcess(cmd, 0, stdout, "")

    monkeypatch.setattr(provision.proc, "run", fake_run)
    monkeypatch.setattr(provision, "WHEELS_DIR", tmp_path / "wheels")
    monkeypatch.setattr(provision, "missing_wheel_pins", lambda: ["ns3==3.44.post0"])
    return Pip


def test_the_ns3_wheel_installs_with_the_wheels_cache_as_a_source(pip_calls, tmp_path, capsys):
    provision.ensure_wheel()
    find_links = ["--disable-pip-version-check", "--find-links", str(tmp_path / "wheels")]
    pip = [sys.executable, "-m", "pip"]
    assert pip_calls.calls == [
        [*pip, "install", "--dry-run", "--quiet", "--report", "-", "ns3==3.44.post0",
         *find_links],
        [*pip, "install", "ns3==3.44.post0", *find_links],
    ]
    assert (tmp_path / "wheels").is_dir()
    assert "compiles" not in capsys.readouterr().out  # every package has a wheel: no cost


def test_what_pypi_has_no_wheel_for_is_built_once_into_the_cache_first(pip_calls, tmp_path,
                                                                       capsys):
    pip_calls.report = report(
        "https://files/ns3-3.44.post0-cp311-cp311-manylinux_2_28_x86_64.whl",
        "https://files/cppyy-3.5.0.tar.gz",
        f"file://{tmp_path}/wheels/cppyy_backend-1.15.3-py2.py3-none-linux_x86_64.whl",
        "https://files/CPyCppyy-1.13.0.tar.gz#sha256=00",
    )
    provision.ensure_wheel()
    wheels = str(tmp_path / "wheels")
    assert [call[3:] for call in pip_calls.calls[1:]] == [
        ["wheel", "--no-deps", "--wheel-dir", wheels, "cppyy==3.5.0", "CPyCppyy==1.13.0",
         "--disable-pip-version-check", "--find-links", wheels],
        ["install", "ns3==3.44.post0", "--disable-pip-version-check", "--find-links", wheels],
    ]
    said = " ".join(capsys.readouterr().out.split())
    assert (f"PyPI has no wheel of cppyy==3.5.0, CPyCppyy==1.13.0 for this Python "
            f"({sys.version_info.major}.{sys.version_info.minor}): pip compiles them now, about "
            ) in said
    assert f"once: the wheels are kept in {wheels} for later venvs and clones" in said


def test_a_failed_dry_run_leaves_the_install_to_say_why(pip_calls, monkeypatch):
    def offline(cmd, **kwargs):
        pip_calls.calls.append([str(c) for c in cmd])
        return subprocess.CompletedProcess(cmd, 1, "", "no network")

    monkeypatch.setattr(provision.proc, "run", offline)
    assert provision.source_only(["ns3==3.44.post0"]) == []


#: A PEP 517 build backend of no requirements (pip builds with it offline): the wheel of a
#: one-module package, qdisclab-toy 1.0.
TOY_BACKEND = """
import base64, hashlib, pathlib, zipfile

NAME, INFO = "qdisclab_toy-1.0", "qdisclab_toy-1.0.dist-info"
FILES = {"qdisclab_toy.py": "",
         INFO + "/METADATA": "Metadata-Version: 2.1\\nName: qdisclab-toy\\nVersion: 1.0\\n",
         INFO + "/WHEEL": "Wheel-Version: 1.0\\nGenerator: toy\\nRoot-Is-Purelib: true\\n"
                          "Tag: py3-none-any\\n"}

def prepare_metadata_for_build_wheel(directory, config_settings=None):
    info = pathlib.Path(directory, INFO)
    info.mkdir()
    for name in ("METADATA", "WHEEL"):
        (info / name).write_text(FILES[INFO + "/" + name])
    return INFO

def build_wheel(directory, config_settings=None, metadata_directory=None):
    name = NAME + "-py3-none-any.whl"
    record = []
    with zipfile.ZipFile(pathlib.Path(directory, name), "w") as wheel:
        for path, text in FILES.items():
            wheel.writestr(path, text)
            digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest())
            record.append(f"{path},sha256={digest.rstrip(b'=').decode()},{len(text)}")
        wheel.writestr(INFO + "/RECORD", "\\n".join(record + [INFO + "/RECORD,,"]) + "\\n")
    return name
"""


@pytest.fixture
def local_sdist(tmp_path) -> Path:
    """The sdist of qdisclab-toy 1.0, built with :data:`TOY_BACKEND`."""
    source = tmp_path / "qdisclab_toy-1.0"
    source.mkdir()
    (source / "pyproject.toml").write_text(
        '[build-system]\nrequires = []\nbuild-backend = "toy_backend"\nbackend-path = ["."]\n'
        '[project]\nname = "qdisclab-toy"\nversion = "1.0"\n')
    (source / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: qdisclab-toy\nVersion: 1.0\n")
    (source / "toy_backend.py").write_text(TOY_BACKEND)
    sdist = tmp_path / "qdisclab_toy-1.0.tar.gz"
    with tarfile.open(sdist, "w:gz") as tar:
        tar.add(source, arcname=source.name)
    return sdist


def test_a_package_without_a_wheel_is_built_into_the_cache_and_reused_from_there(
    local_sdist, tmp_path, monkeypatch
):
    """Real pip, offline, on a package whose only source is its sdist: the dry run names it as
    one to compile; ``pip wheel`` as ensure_wheel runs it puts its wheel in the cache; then the
    dry run takes that wheel."""
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path / "index"))
    (tmp_path / "index").mkdir()
    local_sdist.rename(tmp_path / "index" / local_sdist.name)
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    monkeypatch.setattr(provision, "WHEELS_DIR", wheels)
    assert provision.source_only(["qdisclab-toy==1.0"]) == ["qdisclab-toy==1.0"]
    provision.proc.run(provision.pip("wheel", "--no-deps", "--wheel-dir", str(wheels),
                                     "qdisclab-toy==1.0"), capture=True)
    assert [p.name for p in wheels.iterdir()] == ["qdisclab_toy-1.0-py3-none-any.whl"]
    assert provision.source_only(["qdisclab-toy==1.0"]) == []
