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

A run's CPU time is what the kernel accounts to its process when it is reaped
(``wait4``): user plus system seconds of the program and of the descendants it
waited for, whether it exited, failed or was killed on timeout.

A run's directory holds ``metrics.json`` (its ``--output``), ``stdout`` and ``stderr``
(a batch gives each of its points such a directory of its own). Given ``keep`` (the
patterns of a campaign's ``keep`` and a folder), the run's arguments get the directory's
path for :data:`RUN_DIR`, and after the run, whatever its outcome, :func:`keep_files`
moves the files matching the patterns to the folder; the result's ``kept`` says which,
with their sizes. A run cut short because its sweep is stopping keeps nothing (it is
run again).
"""

import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time

#: How much of a run's standard error (and output) is kept, in characters.
TAIL_CHARS = 4000
#: Scratch directories of runs: ``<prefix><pid of the starting process>-<random>``.
RUN_DIR_PREFIX = "qdisclab-run-"
#: What a run's argument says for its own directory (a campaign's ``{run}/trace``).
RUN_DIR = "{run}"
#: The file in a kept folder that describes the run (written by the engine; never kept).
RUN_NOTE = "qdisclab-run.json"

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


def _inside(path: str, root: str) -> bool:
    """Whether ``path``, its links resolved, is in the directory ``root``."""
    real, base = os.path.realpath(path), os.path.realpath(root)
    return real.startswith(base + os.sep)


def keep_files(run_dir: str, patterns: list[str], folder: str) -> dict:
    """Move the regular files of ``run_dir`` matching ``patterns`` (globs relative to it,
    ``**`` for any depth) to ``folder``, under the same relative names.

    The folder is replaced as a whole: what an earlier attempt of the run kept there is
    removed, and so is the folder when nothing matches. The files go to ``<folder>.partial``
    first, which is then renamed. Returns ``{"dir": folder, "files": [[name, bytes], ...],
    "unmatched": [patterns that matched no file], "error": ""}``; when a file cannot be
    moved (disk full, no permission), ``files`` is empty, ``<folder>.partial`` removed,
    and ``error`` says why.
    """
    root = pathlib.Path(run_dir)
    found: dict[str, pathlib.Path] = {}
    unmatched = []
    for pattern in patterns:
        hits = [path for path in root.glob(pattern)
                if path.is_file() and not path.is_symlink() and _inside(str(path), run_dir)
                and path.relative_to(root).as_posix() != RUN_NOTE]
        if not hits:
            unmatched.append(pattern)
        found.update((path.relative_to(root).as_posix(), path) for path in hits)
    kept = {"dir": folder, "files": [], "unmatched": unmatched, "error": ""}
    staging = folder + ".partial"
    try:
        shutil.rmtree(staging, ignore_errors=True)
        for name in sorted(found):
            target = os.path.join(staging, name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            size = found[name].stat().st_size
            shutil.move(found[name], target)
            kept["files"].append([name, size])
        if os.path.isdir(folder) and not os.path.islink(folder):
            shutil.rmtree(folder)
        elif os.path.lexists(folder):
            os.unlink(folder)
        if kept["files"]:
            os.rename(staging, folder)
    except OSError as exc:
        where = exc.filename or folder
        kept.update(files=[], error=f"cannot keep its files in {folder}: {where}:"
                                    f" {exc.strerror or exc}")
        shutil.rmtree(staging, ignore_errors=True)
    return kept


def _with_run_dir(words: list[str], run_dir: str) -> list[str]:
    """``words`` with :data:`RUN_DIR` replaced by ``run_dir``."""
    return [word.replace(RUN_DIR, run_dir) for word in words]


def _keep(result: dict, keep, run_dir: str, children) -> None:
    """Keep the files of a finished run (see :func:`keep_files`) unless its sweep is stopping."""
    if keep and not (children is not None and children.stopping()):
        result["kept"] = keep_files(run_dir, list(keep[0]), keep[1])


def execute_run(
    argv: list[str],
    timeout: float | None,
    env: dict[str, str] | None = None,
    tail_chars: int = TAIL_CHARS,
    track: bool = False,
    launcher: list[str] | None = None,
    keep: list | None = None,
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
    (:func:`death_signal_launcher`) goes before the command. ``keep`` is ``[patterns,
    folder]``: :data:`RUN_DIR` in ``argv`` is the run's directory, and the files matching
    the patterns go to the folder after the run (``kept`` in the result, see
    :func:`keep_files`); None keeps nothing.
    """
    result = _new_result()
    return _in_run_slot(
        track,
        lambda children: _execute(argv, timeout, env, tail_chars, children, launcher or [],
                                  result, keep),
        lambda: {**result, "outcome": "error", "error": NOT_STARTED},
    )


#: The error of a run refused because its sweep is stopping.
NOT_STARTED = "not started: the sweep is stopping"


def _in_run_slot(track: bool, work, refused):
    """``work(children)``; with ``track``, counted in flight by :mod:`~qdisclab.campaign.children`
    (``children`` is then that module, else None), and ``refused()`` once the sweep is stopping."""
    if not track:
        return work(None)
    from qdisclab.campaign import children

    with children.run_slot() as admitted:
        return work(children) if admitted else refused()


def _new_result() -> dict:
    """A run's result before it starts (see :func:`execute_run`)."""
    return {
        "outcome": "exited",
        "returncode": None,
        "output": None,
        "stderr_tail": "",
        "stdout_tail": "",
        "error_line": "",
        "error": "",
        "wall_time_s": 0.0,
        "cpu_time_s": None,
        "started_at": time.time(),
        "host": socket.gethostname(),
        "kept": None,
    }


def _cannot_start(program: str, launcher: list[str]) -> str:
    """Why ``program`` cannot start under ``launcher`` ("" when it can, or without a launcher)."""
    if launcher and shutil.which(program) is None:
        # Said as Popen would say it (the launcher would exit 127 with its own message).
        problem = "Permission denied" if os.path.exists(program) else "No such file or directory"
        return f"cannot start {program}: {problem}"
    return ""


def _run_process(command, env, stdout_path, stderr_path, timeout, children, launcher,
                 progress=None) -> tuple[str, int | None, str, float | None]:
    """Run ``command`` to its end; return (outcome, return code, error, CPU seconds).

    It is killed (with its process group) once ``timeout`` seconds pass without
    ``progress()`` changing (without ``progress``: ``timeout`` seconds after its start).
    The CPU seconds (user + system, see :func:`_reap`) are None when it did not start.
    """
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        try:
            child = subprocess.Popen(
                [*launcher, *command],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                env={**os.environ, **env} if env else None,
                process_group=0,
            )
        except OSError as exc:
            return "error", None, f"cannot start {command[0]}: {exc.strerror or exc}", None
        if children is not None:
            children.add(child)
        try:
            cpu = _wait(child, timeout, progress)
            if cpu is not None:
                return "exited", child.returncode, "", cpu
            kill_group(child)
            return "timeout", child.returncode, "", _reap(child, None)
        finally:
            if children is not None:
                children.discard(child)


#: How often a batch's progress is looked at, in seconds (the precision of its timeouts).
PROGRESS_POLL_S = 0.25
#: Longest pause between two looks at a running child (what ``Popen.wait`` uses).
REAP_POLL_S = 0.05


def _reap(child: subprocess.Popen, timeout: float | None) -> float | None:
    """Reap ``child`` within ``timeout`` seconds (None: however long it takes) with ``wait4``;
    return its CPU seconds (user + system, including the children it waited for), or None
    when it is still running.

    ``Popen.wait`` drops the resource usage ``wait4`` returns, so the child is reaped here
    and its ``returncode`` set as ``Popen`` would. Waiting with a timeout polls, with the
    pauses ``Popen.wait`` makes (doubling up to :data:`REAP_POLL_S`).
    """
    deadline = None if timeout is None else time.monotonic() + timeout
    delay = 0.0005
    while True:
        pid, status, usage = os.wait4(child.pid, 0 if deadline is None else os.WNOHANG)
        if pid:
            child.returncode = os.waitstatus_to_exitcode(status)
            return usage.ru_utime + usage.ru_stime
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        time.sleep(min(delay, remaining))
        delay = min(delay * 2, REAP_POLL_S)


def _wait(child: subprocess.Popen, timeout: float | None, progress) -> float | None:
    """Wait for ``child`` and return its CPU seconds (see :func:`_reap`); None once
    ``timeout`` s passed without ``progress()`` changing."""
    if timeout is None:
        return _reap(child, None)
    deadline = time.monotonic() + timeout
    seen = progress() if progress else None
    while True:
        step = deadline - time.monotonic()
        if progress:
            step = min(step, PROGRESS_POLL_S)
        if (cpu := _reap(child, max(step, 0.0))) is not None:
            return cpu
        if progress and (now := progress()) != seen:
            seen = now
            deadline = time.monotonic() + timeout
        elif time.monotonic() >= deadline:
            return None


def _collect(result: dict, output_path: str, stdout_path: str, stderr_path: str,
             tail_chars: int) -> None:
    """Fill ``result`` from a finished run's files: tails, error line, metrics file."""
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


def _execute(argv, timeout, env, tail_chars, children, launcher, result, keep=None) -> dict:
    if problem := _cannot_start(argv[0], launcher):
        result["outcome"] = "error"
        result["error"] = problem
        return result
    workdir = tempfile.mkdtemp(prefix=f"{RUN_DIR_PREFIX}{os.getpid()}-")
    output_path = os.path.join(workdir, "metrics.json")
    stdout_path = os.path.join(workdir, "stdout")
    stderr_path = os.path.join(workdir, "stderr")
    if keep:
        argv = _with_run_dir(argv, workdir)
    started = time.monotonic()
    try:
        outcome, code, error, cpu = _run_process(
            [*argv, f"--output={output_path}"], env, stdout_path, stderr_path, timeout,
            children, launcher,
        )
        result.update(outcome=outcome, returncode=code, error=error, cpu_time_s=cpu)
        if outcome == "error":
            return result
        result["wall_time_s"] = time.monotonic() - started
        _collect(result, output_path, stdout_path, stderr_path, tail_chars)
        _keep(result, keep, workdir, children)
        return result
    finally:
        if not result["wall_time_s"]:
            result["wall_time_s"] = time.monotonic() - started
        shutil.rmtree(workdir, ignore_errors=True)


def execute_batch(
    program: str,
    points: list[list[str]],
    timeout: float | None,
    env: dict[str, str] | None = None,
    tail_chars: int = TAIL_CHARS,
    track: bool = False,
    launcher: list[str] | None = None,
    keeps: list | None = None,
) -> list[dict | None]:
    """Run several points of ``program`` in one process (``program --batch=FILE``).

    ``points`` are argument lists, each without ``--output``; the program (see
    experiment/point-batch.h) runs them in order, each from a fresh global state, with its
    own metrics file, standard output and standard error. Returns, per point, what
    :func:`execute_run` returns for a run of its own, or ``None`` for a point that did
    not run because an earlier one ended the process (run it again).

    A point gets ``timeout`` seconds from its start. The point that ended the process
    (the last one that started) gets the process's exit status or timeout, and the
    error line of its own standard error; the points before it exited 0. A point's
    ``wall_time_s`` runs from the end of the point before it (or the process's start)
    to the last change of its files. The process's CPU time is shared among the points
    that ran in proportion to their ``wall_time_s`` (the kernel accounts CPU per process,
    not per point; the shares add up to the process's CPU time, the first point's
    includes the process's start). When the program cannot start, every point gets
    the error.

    ``keeps`` has, per point, what :func:`execute_run`'s ``keep`` is (or None): each point
    has a directory of its own, and keeps its own files.
    """
    result = _new_result()
    keeps = keeps or [None] * len(points)
    return _in_run_slot(
        track,
        lambda children: _execute_batch(program, points, timeout, env, tail_chars, children,
                                        launcher or [], result, keeps),
        lambda: [{**result, "outcome": "error", "error": NOT_STARTED} for _ in points],
    )


def _execute_batch(program, points, timeout, env, tail_chars, children, launcher, batch, keeps):
    if problem := _cannot_start(program, launcher):
        batch.update(outcome="error", error=problem)
        return [dict(batch) for _ in points]
    if any("\t" in word or "\n" in word for words in points for word in words):
        batch.update(outcome="error", error="a batched argument holds a tab or a newline")
        return [dict(batch) for _ in points]
    workdir = tempfile.mkdtemp(prefix=f"{RUN_DIR_PREFIX}{os.getpid()}-")
    points = list(points)
    try:
        run_dirs = [os.path.join(workdir, str(index)) for index in range(len(points))]
        files = []
        for index, run_dir in enumerate(run_dirs):
            os.mkdir(run_dir)
            files.append({kind: os.path.join(run_dir, kind)
                          for kind in ("metrics.json", "stdout", "stderr")})
            if keeps[index]:
                points[index] = _with_run_dir(points[index], run_dir)
        batch_file = os.path.join(workdir, "batch")
        with open(batch_file, "w", encoding="utf-8") as handle:
            for words, paths in zip(points, files, strict=True):
                handle.write("\t".join([*words, f"--output={paths['metrics.json']}",
                                        f"--stdout={paths['stdout']}",
                                        f"--stderr={paths['stderr']}"]) + "\n")

        def started_points() -> int:
            return sum(os.path.exists(paths["stderr"]) for paths in files)

        started_at = time.time()
        outcome, code, error, cpu = _run_process(
            [program, f"--batch={batch_file}"], env, os.path.join(workdir, "stdout"),
            os.path.join(workdir, "stderr"), timeout, children, launcher, started_points,
        )
        ended_at = time.time()
        if outcome == "error":
            batch.update(outcome=outcome, error=error)
            return [dict(batch) for _ in points]
        last = started_points() - 1
        if last < 0:
            # Nothing started: the process failed as a whole (its own files say why).
            files[0] = {"metrics.json": files[0]["metrics.json"],
                        "stdout": os.path.join(workdir, "stdout"),
                        "stderr": os.path.join(workdir, "stderr")}
            last = 0
        results: list[dict | None] = []
        previous_end = started_at
        for index, paths in enumerate(files):
            if index > last:
                results.append(None)
                continue
            final = index == last
            point = {**batch, "started_at": previous_end,
                     "outcome": outcome if final else "exited",
                     "returncode": code if final else 0}
            end = ended_at if final else max([previous_end, *_mtimes(paths.values())])
            point["wall_time_s"] = max(end - previous_end, 0.0)
            previous_end = end
            _collect(point, paths["metrics.json"], paths["stdout"], paths["stderr"], tail_chars)
            _keep(point, keeps[index], run_dirs[index], children)
            results.append(point)
        _share_cpu([point for point in results if point is not None], cpu)
        return results
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _share_cpu(points: list[dict], cpu: float | None) -> None:
    """Set each point's ``cpu_time_s`` to its share of the process's ``cpu`` seconds, in
    proportion to its ``wall_time_s`` (equal shares when no wall time was measured)."""
    if cpu is None or not points:
        return
    walls = [point["wall_time_s"] for point in points]
    total = sum(walls)
    for point, wall in zip(points, walls, strict=True):
        point["cpu_time_s"] = cpu * wall / total if total > 0 else cpu / len(points)


def _mtimes(paths) -> list[float]:
    """The modification times of those of ``paths`` that exist."""
    times = []
    for path in paths:
        try:
            times.append(os.stat(path).st_mtime)
        except OSError:
            pass
    return times


def batch_support(program: str, env: dict[str, str] | None = None,
                  launcher: list[str] | None = None, timeout: float = 60) -> str:
    """Why ``program`` cannot run points in batches ("" when it can).

    Runs it with an empty batch file: a program built on PointBatch with an ns-3
    that can reset between points exits 0; others fail with the reason.
    """
    with tempfile.TemporaryDirectory(prefix=f"{RUN_DIR_PREFIX}{os.getpid()}-") as workdir:
        empty = os.path.join(workdir, "batch")
        open(empty, "wb").close()
        try:
            probe = subprocess.run([*(launcher or []), program, f"--batch={empty}"],
                                   stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                   errors="replace", env={**os.environ, **env} if env else None,
                                   timeout=timeout)
        except (OSError, subprocess.SubprocessError) as exc:
            return f"cannot run {program} --batch: {exc}"
    if probe.returncode == 0:
        return ""
    return error_line(probe.stderr, probe.stdout) or f"--batch exited with {probe.returncode}"
