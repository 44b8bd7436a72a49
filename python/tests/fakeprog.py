# SPDX-License-Identifier: GPL-2.0-only
"""A stand-in example program that follows (or, on request, breaks) the metrics contract.

It takes ``--name=value`` arguments like the C++ examples and writes one metrics
report to ``--output``. Its ``--behave`` parameter picks what it does:

``ok`` (default)
    write a valid report: metric ``value_mbps`` = ``x`` × 1.5 + ``RngRun`` / 100
    (``x`` defaults to 1) and ``seed`` = ``RngRun``;
``crash``
    print a message to standard error and exit with status 3;
``abort``
    kill itself with SIGABRT;
``hang``
    sleep for an hour (for timeouts);
``spawn``
    start a second process that sleeps for an hour (logged as ``child <pid>``), then hang;
``badarg``
    fail like ns-3's CommandLine on an unknown argument: ``Invalid command-line
    argument: --bogusParam=3``, then a help text longer than a run's kept tail, exit 1;
``nsabort``
    fail like NS_ABORT_MSG on ns-3.44: the ``aborted. cond=…, msg=…`` line, two
    trailer lines, then SIGABRT;
``nojson``
    exit 0 without writing a report;
``badjson``
    write text that is not JSON;
``badschema``
    write a report with the wrong ``schema`` tag;
``nanmetric``
    write a metric that is a string (not a number or null);
``nometric``
    leave out ``value_mbps``.

``--sleep=S`` sleeps S seconds first; ``--spin=S`` then computes for S seconds of CPU time.

``--pcap=PREFIX`` and ``--flowMonitor=FILE`` write trace files like the C++ examples, before
anything else (so runs that then crash or hang have them too): ``PREFIX-1-1.pcap`` and
``PREFIX-2-1.pcap``, each the pcap magic number and then the line
``node=N x=X RngRun=SEED`` (see :func:`pcap_bytes`), and FILE, the XML of
:func:`flow_monitor_text`. Like the examples' they are never recorded in the report.

``--schema`` (alone) prints the program's parameters and metrics like a C++ example
(experiment/experiment-params.h): the flags ``x``, ``behave``, ``sleep``, ``spin``, ``pcap`` and
``flowMonitor``, and ``count`` (uint, 1 to 100), ``flag`` (bool), ``offset`` (int) and ``rate``
(rate), which nothing reads (for the campaign loader's type and range checks); the metrics
``value_mbps`` and ``seed``. With ``$QDISCLAB_FAKE_SCHEMA`` set to ``fail`` it exits 1
instead, like a program built before ``--schema``; set to ``slow`` it logs ``schema <pid>``
and sleeps for an hour (a driver stopped before its first run).

``--batch=FILE`` (the only argument) runs the points FILE lists like a C++ example on
PointBatch (experiment/point-batch.h): one point per line, its arguments separated by tabs,
``--stdout=PATH`` and ``--stderr=PATH`` naming where the point's output goes; the first
point that does not return 0 ends the batch with its status. With
``$QDISCLAB_FAKE_NO_BATCH`` set it refuses, like a build on ns-3.37; with
``$QDISCLAB_FAKE_BATCH_PROBE`` set to ``slow``, an empty batch (the engine's probe) logs
``probe <pid>`` and sleeps for an hour. When ``$QDISCLAB_FAKE_LOG`` is set, one line
``start <pid> <arguments>`` is appended to that file as the program starts, so
tests can count which runs actually ran.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

PROGRAM = "fake-program"

#: What ``--schema`` prints (the ``qdisc-lab.params/1`` layout).
SCHEMA = {
    "schema": "qdisc-lab.params/1",
    "program": PROGRAM,
    "params": [
        {"name": "x", "type": "double", "default": 1, "help": "value_mbps is 1.5 x",
         "recorded": "sometimes"},
        {"name": "behave", "type": "string", "default": "ok", "help": "what the run does",
         "recorded": "sometimes"},
        {"name": "sleep", "type": "double", "default": 0, "help": "seconds to sleep first",
         "recorded": "sometimes"},
        {"name": "spin", "type": "double", "default": 0,
         "help": "seconds of CPU time to compute after the sleep", "recorded": "sometimes"},
        {"name": "RngRun", "type": "uint", "default": 1, "min": 0, "max": 4294967295,
         "help": "ns-3's run number", "recorded": "sometimes"},
        {"name": "pcap", "type": "string", "default": "",
         "help": "prefix of pcap traces, PREFIX-NODE-1.pcap", "recorded": "never"},
        {"name": "flowMonitor", "type": "string", "default": "",
         "help": "file of a FlowMonitor XML", "recorded": "never"},
        {"name": "count", "type": "uint", "default": 1, "min": 1, "max": 100,
         "help": "a count, 1 to 100 (read by nothing)", "recorded": "sometimes"},
        {"name": "flag", "type": "bool", "default": False, "help": "a switch (read by nothing)",
         "recorded": "sometimes"},
        {"name": "offset", "type": "int", "default": 0, "help": "an integer (read by nothing)",
         "recorded": "sometimes"},
        {"name": "rate", "type": "rate", "default": "1Mbps", "help": "a rate (read by nothing)",
         "recorded": "sometimes"},
    ],
    "metrics": [{"name": "value_mbps", "recorded": "always"},
                {"name": "seed", "recorded": "always"}],
}


#: The pcap file header's magic number (what the examples' traces start with).
PCAP_MAGIC = b"\xd4\xc3\xb2\xa1"
#: The nodes whose "devices" ``--pcap`` traces.
PCAP_NODES = (1, 2)


def pcap_bytes(node: int, x: str, seed: str) -> bytes:
    """What ``--pcap`` writes for ``node`` in a run with ``--x=x --RngRun=seed`` (as given)."""
    return PCAP_MAGIC + f"node={node} x={x} RngRun={seed}\n".encode()


def flow_monitor_text(x: str, seed: str) -> str:
    """What ``--flowMonitor`` writes in a run with ``--x=x --RngRun=seed`` (as given)."""
    return f'<?xml version="1.0" ?>\n<FlowMonitor x="{x}" RngRun="{seed}"/>\n'


def _write_traces(params: dict[str, str]) -> None:
    x, seed = params.get("x", "1"), params.get("RngRun", "1")
    if prefix := params.pop("pcap", ""):
        for node in PCAP_NODES:
            with open(f"{prefix}-{node}-1.pcap", "wb") as handle:
                handle.write(pcap_bytes(node, x, seed))
    if flows := params.pop("flowMonitor", ""):
        with open(flows, "w", encoding="utf-8") as handle:
            handle.write(flow_monitor_text(x, seed))


def _parse(argv: list[str]) -> dict[str, str]:
    params = {}
    for word in argv:
        if not word.startswith("--") or "=" not in word:
            raise SystemExit(f"fake-program: bad argument {word!r} (expected --name=value)")
        name, _, value = word[2:].partition("=")
        params[name] = value
    return params


def _typed(value: str):
    if value in ("true", "false"):
        return value == "true"
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def _log(line: str) -> None:
    """A line in ``$QDISCLAB_FAKE_LOG``, when set."""
    if log := os.environ.get("QDISCLAB_FAKE_LOG"):
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(line + "\n")


def _batch(path: str, program: str) -> int:
    """Run the points of a batch file; return the first non-zero status, else 0."""
    if os.environ.get("QDISCLAB_FAKE_NO_BATCH"):
        print('aborted. cond="!(IsSupported())", msg="--batch needs ns-3 >= 3.44"',
              file=sys.stderr)
        return 134
    with open(path, encoding="utf-8") as handle:
        points = [line.rstrip("\n").split("\t") for line in handle if line.strip()]
    if not points and os.environ.get("QDISCLAB_FAKE_BATCH_PROBE") == "slow":
        _log(f"probe {os.getpid()}")
        time.sleep(3600)
    process_out, process_err = os.dup(1), os.dup(2)
    for words in points:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(process_out, 1)
        os.dup2(process_err, 2)
        args = []
        for word in words:
            name, _, value = word.partition("=")
            if name in ("--stdout", "--stderr"):
                with open(value, "wb") as target:
                    os.dup2(target.fileno(), 1 if name == "--stdout" else 2)
            else:
                args.append(word)
        status = main(args, program)
        sys.stdout.flush()
        sys.stderr.flush()
        if status != 0:
            return status
    return 0


def main(argv: list[str] | None = None, program: str = PROGRAM) -> int:
    """Run as the fake example program; return the exit status."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) == 1 and argv[0].startswith("--batch="):
        return _batch(argv[0].partition("=")[2], program)
    if argv == ["--schema"]:
        if os.environ.get("QDISCLAB_FAKE_SCHEMA") == "fail":
            print("Invalid command-line argument: --schema", file=sys.stderr)
            return 1
        if os.environ.get("QDISCLAB_FAKE_SCHEMA") == "slow":
            _log(f"schema {os.getpid()}")
            time.sleep(3600)
        print(json.dumps({**SCHEMA, "program": program}))
        return 0
    if log := os.environ.get("QDISCLAB_FAKE_LOG"):
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(f"start {os.getpid()} {' '.join(argv)}\n")
    params = _parse(argv)
    output = params.pop("output", None)
    _write_traces(params)
    behave = params.get("behave", "ok")
    time.sleep(float(params.get("sleep", 0)))
    spin_until = time.process_time() + float(params.get("spin", 0))
    while time.process_time() < spin_until:
        pass

    if behave == "crash":
        print("fake-program: something went wrong", file=sys.stderr)
        print("msg=\"Simulated fatal error\", file=fake.cc, line=42", file=sys.stderr)
        return 3
    if behave == "abort":
        print("fake-program: aborting", file=sys.stderr, flush=True)
        os.kill(os.getpid(), signal.SIGABRT)
    if behave == "badarg":
        print("Invalid command-line argument: --bogusParam=3", file=sys.stderr)
        print(f"{program} [Program Options] [General Arguments]\n\nProgram Options:",
              file=sys.stderr)
        for index in range(80):
            print(f"    --option{index}:  what option {index} does, in one line [{index}]",
                  file=sys.stderr)
        return 1
    if behave == "nsabort":
        print('aborted. cond="!(x >= 1)", msg="--x must be >= 1", file=fake.cc, line=7\n'
              "NS_FATAL, terminating\nterminate called without an active exception",
              file=sys.stderr, flush=True)
        os.kill(os.getpid(), signal.SIGABRT)
    if behave == "spawn":
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
        if log:
            with open(log, "a", encoding="utf-8") as handle:
                handle.write(f"child {child.pid}\n")
        time.sleep(3600)
    if behave == "hang":
        time.sleep(3600)
    if behave == "nojson":
        return 0

    seed = int(params.get("RngRun", 1))
    x = _typed(params.get("x", "1"))
    value = (x if isinstance(x, int | float) and not isinstance(x, bool) else 1) * 1.5
    metrics: dict[str, object] = {"value_mbps": value + seed / 100, "seed": seed}
    doc = {
        "schema": "qdisc-lab.metrics/1",
        "program": program,
        "ns3_version": "3.37-fake",
        "params": {name: _typed(v) for name, v in params.items()},
        "metrics": metrics,
    }
    if behave == "badschema":
        doc["schema"] = "something-else/0"
    elif behave == "nanmetric":
        metrics["value_mbps"] = "fast"
    elif behave == "nometric":
        del metrics["value_mbps"]
    text = "this is not JSON {" if behave == "badjson" else json.dumps(doc)
    if output is None or output == "-":
        print(text)
    else:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
