# SPDX-License-Identifier: GPL-2.0-only
"""The task a Dask worker runs: one example program run, as a subprocess.

This module uses the standard library only and is sent to remote workers *by
value* (see :func:`qdisclab.campaign.engine.detached_task`), so a worker needs
neither qdisclab nor this repository on its Python path: a task is just the binary's path, its
arguments, a timeout and extra environment variables. The worker runs the
program with ``--output=<temporary file>`` and sends back the file's text, the
exit status and the tail of standard error; the client checks the metrics
contract and stores the row.
"""

import os
import shutil
import socket
import subprocess
import tempfile
import time

#: How much of a run's standard error (and output) is kept, in characters.
TAIL_CHARS = 4000


def _tail(path: str, limit: int) -> str:
    """The last ``limit`` characters of the text file ``path`` (empty when unreadable)."""
    try:
        with open(path, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            handle.seek(max(0, size - 4 * limit))
            data = handle.read()
    except OSError:
        return ""
    return data.decode("utf-8", errors="replace")[-limit:]


def execute_run(
    argv: list[str],
    timeout: float | None,
    env: dict[str, str] | None = None,
    tail_chars: int = TAIL_CHARS,
    track: bool = False,
) -> dict:
    """Run ``argv + ["--output=FILE"]`` and report what happened.

    Returns a dict of builtins: ``outcome`` (``"exited"``, ``"timeout"`` or
    ``"error"`` when it could not start), ``returncode`` (negative: killed by
    that signal), ``output`` (the metrics file's text, or ``None`` when it was not
    written), ``stderr_tail``, ``stdout_tail``, ``error``, ``wall_time_s``,
    ``started_at`` (Unix time) and ``host``.

    With ``track`` (in-process workers only) the child is registered with
    :mod:`qdisclab.campaign.children` while it runs, so an interrupted sweep can end it.
    """
    children = None
    if track:
        from qdisclab.campaign import children
    workdir = tempfile.mkdtemp(prefix="qdisclab-run-")
    output_path = os.path.join(workdir, "metrics.json")
    stdout_path = os.path.join(workdir, "stdout")
    stderr_path = os.path.join(workdir, "stderr")
    result = {
        "outcome": "exited",
        "returncode": None,
        "output": None,
        "stderr_tail": "",
        "stdout_tail": "",
        "error": "",
        "wall_time_s": 0.0,
        "started_at": time.time(),
        "host": socket.gethostname(),
    }
    started = time.monotonic()
    try:
        with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
            try:
                child = subprocess.Popen(
                    [*argv, f"--output={output_path}"],
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=err,
                    env={**os.environ, **env} if env else None,
                )
            except OSError as exc:
                result["outcome"] = "error"
                result["error"] = f"cannot start {argv[0]}: {exc.strerror or exc}"
                return result
            if children is not None:
                children.add(child)
            try:
                result["returncode"] = child.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                child.kill()
                result["returncode"] = child.wait()
                result["outcome"] = "timeout"
            finally:
                if children is not None:
                    children.discard(child)
        result["wall_time_s"] = time.monotonic() - started
        result["stderr_tail"] = _tail(stderr_path, tail_chars)
        result["stdout_tail"] = _tail(stdout_path, tail_chars // 4)
        try:
            with open(output_path, encoding="utf-8", errors="replace") as handle:
                result["output"] = handle.read()
        except OSError:
            pass
        return result
    finally:
        if not result["wall_time_s"]:
            result["wall_time_s"] = time.monotonic() - started
        shutil.rmtree(workdir, ignore_errors=True)
