# SPDX-License-Identifier: GPL-2.0-only
"""What the tests of the ns-2.35 programs (``validation/ns2/*.tcl``) share: stopping without
``ns`` (a skip, a failure under ``CI=true``, where CI installs ns-2 and must run it), and
running a program for its process, its report or its metrics."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

NS2_MISSING = "ns-2 (ns) is not installed: apt-get install ns2"


def require_ns2() -> None:
    """Stop a test when ns-2 is missing: a failure with CI=true, a skip elsewhere."""
    if shutil.which("ns") is not None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(NS2_MISSING)
    pytest.skip(NS2_MISSING)


class Ns2Program:
    """An ns-2.35 program on the experiment contract, run with ``--name=value`` arguments."""

    def __init__(self, path: Path, timeout: float = 60):
        self.path, self.timeout = Path(path), timeout

    def run(self, *args: str) -> subprocess.CompletedProcess:
        """The finished process (its report on standard output)."""
        return subprocess.run([str(self.path), *args], capture_output=True, text=True,
                              timeout=self.timeout)

    def report(self, *args: str) -> dict:
        """The run's metrics report; the test fails with the program's stderr when it fails."""
        done = self.run(*args)
        assert done.returncode == 0, done.stderr[-2000:]
        return json.loads(done.stdout)

    def metrics(self, *args: str) -> dict:
        """The run's metrics."""
        return self.report(*args)["metrics"]

    def assert_refused(self, *args: str, message: str) -> None:
        """The run stops before simulating: exit code 2, no report, and one line on standard
        error, ``<program>: ...``, containing ``message``."""
        done = self.run(*args)
        assert done.returncode == 2, done.stderr
        assert done.stdout == ""
        assert done.stderr.startswith(f"{self.path.stem}: ") and message in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
