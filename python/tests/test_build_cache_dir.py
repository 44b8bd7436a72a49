# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab build`` with a HOME it cannot write: a clear error, no traceback."""

import os
import subprocess
import sys

import pytest

from qdisclab.context import ensure_cache_dir

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def build_with_home(home) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != "QDISC_LAB_CACHE"}
    env.update(HOME=str(home), PYTHONPATH=PYTHON_DIR, COLUMNS="200")
    return subprocess.run([sys.executable, "-m", "qdisclab", "build", "--ns3", "system"],
                          env=env, capture_output=True, text=True, timeout=120)


def expected(cache, problem: str) -> str:
    return (f"Error: cannot use the cache directory {cache} ({problem}). Set QDISC_LAB_CACHE to a"
            " writable directory, e.g. `QDISC_LAB_CACHE=/tmp/qdisc-lab-cache ./qdisc-lab build`.")


def test_home_that_is_not_a_directory(tmp_path):
    home = tmp_path / "home"
    home.write_text("a file, as HOME=/dev/null would be\n")
    result = build_with_home(home)
    assert result.returncode == 1
    assert " ".join(result.stderr.split()) == expected(home / ".cache/qdisc-lab/ccache",
                                                       "Not a directory")
    assert result.stdout == ""  # failed before installing or building anything


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_read_only_home(tmp_path):
    home = tmp_path / "home"
    home.mkdir(mode=0o555)
    result = build_with_home(home)
    assert result.returncode == 1
    assert " ".join(result.stderr.split()) == expected(home / ".cache/qdisc-lab/ccache",
                                                       "Permission denied")


def test_ensure_cache_dir_creates_it_once(tmp_path):
    cache = tmp_path / "a" / "b" / "ccache"
    assert ensure_cache_dir(cache) == cache and cache.is_dir()
    assert ensure_cache_dir(cache) == cache
