# SPDX-License-Identifier: GPL-2.0-only
"""Running external commands, each echoed (dimmed ``$ cmd``) before it runs."""

import os
import shlex
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from qdisclab.context import CONSOLE


def echo(cmd: Sequence[str | os.PathLike], env: Mapping[str, str] | None = None) -> None:
    """Print ``$ cmd`` dimmed, prefixed by the variables of ``env`` that differ from ours."""
    words = [str(word) for word in cmd]
    assignments = [
        f"{key}={shlex.quote(value)}"
        for key, value in (env or {}).items()
        if os.environ.get(key) != value
    ]
    CONSOLE.print(
        f"$ {' '.join([*assignments, shlex.join(words)])}",
        style="dim",
        markup=False,
        soft_wrap=True,
    )


def run(
    cmd: Sequence[str | os.PathLike],
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    check: bool = True,
    capture: bool = False,
) -> subprocess.CompletedProcess:
    """Echo and run ``cmd``.

    ``env`` holds variables added to (not replacing) the current environment.
    With ``capture`` stdout and stderr are returned as text instead of being
    shown. With ``check`` a non-zero exit raises ``CalledProcessError``.
    """
    echo(cmd, env)
    sys.stdout.flush()
    sys.stderr.flush()
    return subprocess.run(
        [str(word) for word in cmd],
        env={**os.environ, **env} if env else None,
        cwd=cwd,
        check=check,
        capture_output=capture,
        text=True,
    )


def sudo_prefix() -> list[str]:
    """``["sudo"]`` when not root (so privileged commands can be prefixed), else ``[]``."""
    return [] if os.geteuid() == 0 else ["sudo"]
