# SPDX-License-Identifier: GPL-2.0-only
"""The task a Dask worker runs: one example program run, as a subprocess.

This module uses the standard library only and is sent to remote workers *by
value* (see :func:`qdisclab.campaign.engine.detached_task`), so a worker needs
neither qdisclab nor this repository on its Python path: a task is just the binary's path, its
arguments, a timeout and extra environment variables. The worker runs the
program with ``--output=<temporary file>`` and sends back the file's text, the
exit status, the tail of standard error and the line that says why it failed;
the client checks the metrics contract and stores the row.

A run is its own process group, killed as a whole on timeout. Started through
:func:`death_signal_launcher` (Linux), it also gets SIGKILL from the kernel when
the process that started it dies, even by ``kill -9``, so no run outlives its driver.
Its scratch directory is ``$TMPDIR/qdisclab-run-<pid>-*`` (the starting
process's pid), so the next sweep can remove those of dead drivers
(:func:`remove_stale_run_dirs`).
"""

import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from contextlib import nullcontext

#: How much of a run's standard error (and output) is kept, in characters.
TAIL_CHARS = 4000
#: Scratch directories of runs: ``<prefix><pid of the starting process>-<random>``.
RUN_DIR_PREFIX = "qdisclab-run-"

#: Lines that say why a program failed, best first. ns-3's CommandLine prints
#: "Invalid command-line argument: --x=1" and then its whole help text; NS_ABORT_MSG,
#: NS_ASSERT_MSG and NS_FATAL_ERROR print 'aborted. cond="…", msg="…", file=…, line=…'
#: (or 'msg="…", [time] file=…, line=…'), then "NS_FATAL, terminating" (3.44) and
#: "terminate called without an active exception".
_ERROR_PATTERNS = (
    re.compile(r"^Invalid command-line argument: "),
    re.compile(r'^(?:aborted|assert failed)\. cond=|(?:^|\s)msg="|^file=\S+, line=\d+'),
    re.compile(r": runtime error: |^==\d+==ERROR: "),  # UBSan; ASan, LSan, TSan
    re.compile(r"^\s*what\(\): "),  # an uncaught C++ exception
)
#: Lines printed after the error that say nothing about it.
_TRAILERS = re.compile(
    r"^(?:terminate called without an active exception|NS_FATAL, terminating|==\d+==ABORTING)$"
)
#: Longest error line kept, in characters.
ERROR_LINE_CHARS = 300


def error_line(*texts: str) -> str:
    """The line of a failed program's output that says what went wrong ("" when none).

    ``texts`` are standard error, then standard output. The first line of the best
    kind in :data:`_ERROR_PATTERNS` wins (from the earlier text on a tie); when
    there is none, the last line that is not a known trailer.
    """
    candidates = [
        [line.strip() for line in text.splitlines() if line.strip()] for text in texts if text
    ]
    for pattern in _ERROR_PATTERNS:
        for lines in candidates:
            for line in lines:
                if pattern.search(line):
                    return line[:ERROR_LINE_CHARS]
    for lines in candidates:
        for line in reversed(lines):
            if not _TRAILERS.match(line):
                return line[:ERROR_LINE_CHARS]
    return ""


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


def _head(path: str, limit: int) -> str:
    """The first ``limit`` bytes of the text file ``path`` (empty when unreadable)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit)
    except OSError:
        return ""
    return data.decode("utf-8", errors="replace")


def kill_group(child: subprocess.Popen) -> None:
    """SIGKILL a run's process group (the program and whatever it started), if not reaped."""
    if child.returncode is not None:
        return
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except OSError:  # already gone
        pass


def death_signal_launcher() -> list[str]:
    """``setpriv --pdeathsig KILL --``, to put before a run's command; [] when unavailable.

    ``setpriv`` (util-linux 2.33 and later, Linux) asks the kernel to SIGKILL the
    program when the *thread* that started it ends (``PR_SET_PDEATHSIG``), then
    executes it in the same process. :func:`execute_run` starts and waits for a
    run in the same thread, so that happens only when the whole process dies.
    (Setting it from Python instead, in a ``preexec_fn``, forks the whole driver with
    the GIL held: 25 ms per run instead of 8 ms, and spawns serialize.) A run started
    in the last milliseconds before its driver dies can miss the signal.
    """
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return []
    prefix = [setpriv, "--pdeathsig", "KILL", "--"]
    try:
        probe = subprocess.run([*prefix, "true"], stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return []
    return prefix if probe.returncode == 0 else []


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def remove_stale_run_dirs(tmpdir: str | None = None) -> int:
    """Remove this user's run directories whose starting process is dead; return how many.

    A driver or worker killed with SIGKILL cannot remove its runs' directories;
    the next sweep on the machine does.
    """
    root = tmpdir or tempfile.gettempdir()
    pattern = re.compile(re.escape(RUN_DIR_PREFIX) + r"(\d+)-")
    removed = 0
    try:
        entries = list(os.scandir(root))
    except OSError:
        return 0
    for entry in entries:
        match = pattern.match(entry.name)
        try:
            if not match or not entry.is_dir(follow_symlinks=False):
                continue
            if entry.stat(follow_symlinks=False).st_uid != os.geteuid():
                continue
        except OSError:
            continue
        if not _alive(int(match.group(1))):
            shutil.rmtree(entry.path, ignore_errors=True)
            removed += 1
    return removed


def execute_run(
    argv: list[str],
    timeout: float | None,
    env: dict[str, str] | None = None,
    tail_chars: int = TAIL_CHARS,
    track: bool = False,
    launcher: list[str] | None = None,
) -> dict:
    """Run ``argv + ["--output=FILE"]`` and report what happened.

    Returns a dict of builtins: ``outcome`` (``"exited"``, ``"timeout"`` or
    ``"error"`` when it could not start), ``returncode`` (negative: killed by
    that signal), ``output`` (the metrics file's text, or ``None`` when it was not
    written), ``stderr_tail``, ``stdout_tail``, ``error_line`` (see
    :func:`error_line`; empty after exit status 0), ``error``, ``wall_time_s``,
    ``started_at`` (Unix time) and ``host``.

    With ``track`` (in-process workers only) the run is registered with
    :mod:`qdisclab.campaign.children` from start to cleanup, so an interrupted
    sweep can end it and wait for its directory to be removed. ``launcher``
    (:func:`death_signal_launcher`) goes before the command.
    """
    result = {
        "outcome": "exited",
        "returncode": None,
        "output": None,
        "stderr_tail": "",
        "stdout_tail": "",
        "error_line": "",
        "error": "",
        "wall_time_s": 0.0,
        "started_at": time.time(),
        "host": socket.gethostname(),
    }
    children = None
    if track:
        from qdisclab.campaign import children
    with children.run_slot() if children else nullcontext(True) as admitted:
        if not admitted:
            result["outcome"] = "error"
            result["error"] = "not started: the sweep is stopping"
            return result
        return _execute(argv, timeout, env, tail_chars, children, launcher or [], result)


def _execute(argv, timeout, env, tail_chars, children, launcher, result) -> dict:
    if launcher and shutil.which(argv[0]) is None:
        # Said as Popen would say it (the launcher would exit 127 with its own message).
        problem = "Permission denied" if os.path.exists(argv[0]) else "No such file or directory"
        result["outcome"] = "error"
        result["error"] = f"cannot start {argv[0]}: {problem}"
        return result
    workdir = tempfile.mkdtemp(prefix=f"{RUN_DIR_PREFIX}{os.getpid()}-")
    output_path = os.path.join(workdir, "metrics.json")
    stdout_path = os.path.join(workdir, "stdout")
    stderr_path = os.path.join(workdir, "stderr")
    started = time.monotonic()
    try:
        with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
            try:
                child = subprocess.Popen(
                    [*launcher, *argv, f"--output={output_path}"],
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=err,
                    env={**os.environ, **env} if env else None,
                    process_group=0,
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
                kill_group(child)
                result["returncode"] = child.wait()
                result["outcome"] = "timeout"
            finally:
                if children is not None:
                    children.discard(child)
        result["wall_time_s"] = time.monotonic() - started
        result["stderr_tail"] = _tail(stderr_path, tail_chars)
        result["stdout_tail"] = _tail(stdout_path, tail_chars // 4)
        if result["returncode"] != 0:
            # ns-3's CommandLine prints the bad argument first, then a help text that
            # can be longer than the tail: look at the head too.
            result["error_line"] = error_line(
                _head(stderr_path, tail_chars) + "\n" + result["stderr_tail"],
                _head(stdout_path, tail_chars) + "\n" + result["stdout_tail"],
            )
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
