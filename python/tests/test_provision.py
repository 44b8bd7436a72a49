# SPDX-License-Identifier: GPL-2.0-only
"""``setup``'s apt logic, with dpkg-query and apt-get recorded instead of run."""

import subprocess

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
