# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab bench``: what a queue disc costs per packet.

Runs ``build/<flavor>/bench/qdisc-bench`` (``bench/qdisc-bench.cc``), which drives one queue
disc directly -- no network, no simulation beyond what the queue disc asks for -- with
synthetic multi-flow IPv4/UDP traffic, and times ``QueueDisc::Enqueue`` + ``Dequeue`` only
(the items are built outside the measured region). For every queue disc, flow count and load:

* ``ns_per_packet``: the best of ``repetitions`` runs of ``packets`` packets (wall clock,
  ``steady_clock`` around the measured function);
* ``instructions_per_packet``: the same program, fewer packets, under
  ``valgrind --tool=callgrind --collect-atstart=no --toggle-collect=*RunMeasuredLoop*``:
  the instructions (Ir) executed in the measured function and its callees, divided by the
  packets. Unlike the time, it repeats exactly from run to run.

Results go to ``results/bench/bench.csv`` (one row per combination, :data:`CSV_COLUMNS`),
the callgrind profiles beside it (``callgrind_annotate`` reads them).

Which queue discs are benchmarked by default, with which attributes, and which one the ratios
compare with, come from the module's queue disc catalog (``helper/queue-disc-catalog.cc``), which
``qdisc-bench --list`` prints (:func:`read_catalog`).
"""

from __future__ import annotations

import csv
import json
import math
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import click
from rich import box
from rich.table import Table

from qdisclab.context import CONSOLE, RESULTS_DIR
from qdisclab.metrics import MetricsError, parse_metrics
from qdisclab.toolchain import proc
from qdisclab.toolchain.build import build, ns3_option, runtime_env

PROGRAM = "qdisc-bench"
BENCH_DIR = RESULTS_DIR / "bench"
CSV_NAME = "bench.csv"

FLOWS = (10, 1000, 100000)
LOADS = ("overload", "underload")
#: The same limit for every queue disc, so that they are compared holding as many packets.
MAX_SIZE = "1000p"
#: Schema tag of ``qdisc-bench --list``'s document.
CATALOG_SCHEMA = "qdisc-lab.catalog/2"

#: qdisc-bench's exit status for a queue disc type that is not registered.
EXIT_UNKNOWN_QDISC = 3
#: The function whose instructions callgrind collects.
MEASURED_FUNCTION = "RunMeasuredLoop"

#: What qdisc-bench reports of the per-flow state of this module's queue discs.
STATE_METRICS = (
    "active_flow_state_bytes",
    "bucket_state_bytes",
    "peak_active_flows",
    "state_bytes_per_active_flow",
)

CSV_COLUMNS = (
    "qdisc",
    "attrs",
    "flows",
    "load",
    "instructions_per_packet",
    "ns_per_packet",
    "packets",
    "callgrind_packets",
    "drops",
    "drop_rate",
    "classes",
    "rss_growth_kib",
    "peak_rss_kib",
    "active_flow_state_bytes",
    "bucket_state_bytes",
    "peak_active_flows",
    "state_bytes_per_active_flow",
    "max_size",
    "ns3_flavor",
    "ns3_version",
    "git_revision",
)


@dataclass(frozen=True)
class Settings:
    """How long each measurement runs."""

    packets: int  #: measured packets of a timed run
    warmup: int  #: packets before them (overload fills a 1000-packet queue in 2000)
    repetitions: int  #: timed runs per combination; the fastest counts
    callgrind_packets: int  #: measured packets under callgrind
    callgrind_warmup: int  #: warm-up packets under callgrind


# The default grid (4 queue discs x 3 flow counts x 2 loads) takes a few minutes on 2 cores,
# most of it in callgrind; --quick is for trying the command out.
DEFAULT_SETTINGS = Settings(
    packets=300_000, warmup=10_000, repetitions=3, callgrind_packets=20_000, callgrind_warmup=5_000
)
QUICK_SETTINGS = Settings(
    packets=2_000, warmup=2_500, repetitions=1, callgrind_packets=500, callgrind_warmup=2_500
)


@dataclass(frozen=True)
class CatalogEntry:
    """One queue disc of the module's catalog, as ``qdisc-bench --list`` prints it."""

    name: str  #: short name, the queue disc's one spelling ("DRR")
    type_id: str  #: "ns3::DrrQueueDisc"
    origin: str  #: "qdisc-lab" or "ns-3"
    description: str
    attributes: tuple[str, ...]  #: "Name=Value" set over the TypeId's defaults
    quantum_attribute: str  #: attribute of a weight-1 flow's quantum, or ""
    capabilities: tuple[str, ...]  #: "per_flow", "flow_state", "flow_stats", "class_stats"
    bench_default: bool  #: in the benchmark's default grid
    bench_reference: bool  #: the benchmark's reference (ratios are against it)
    bench_attributes: tuple[str, ...]  #: "Name=Value" the benchmark adds beyond MaxSize


class UnknownQdiscError(RuntimeError):
    """qdisc-bench does not know the queue disc type (exit status 3)."""


class BenchError(RuntimeError):
    """qdisc-bench failed or wrote no usable result."""


def parse_catalog(text: str, source: str = "qdisc-bench --list") -> list[CatalogEntry]:
    """The entries of a ``qdisc-bench --list`` document; :class:`BenchError` if it is not one."""
    try:
        doc = json.loads(text)
        if doc.get("schema") != CATALOG_SCHEMA:
            raise ValueError(f"schema {doc.get('schema')!r}, not {CATALOG_SCHEMA!r}")
        return [
            CatalogEntry(
                name=e["name"],
                type_id=e["type_id"],
                origin=e["origin"],
                description=e["description"],
                attributes=tuple(e["attributes"]),
                quantum_attribute=e["quantum_attribute"],
                capabilities=tuple(e["capabilities"]),
                bench_default=bool(e["bench"]["default"]),
                bench_reference=bool(e["bench"]["reference"]),
                bench_attributes=tuple(e["bench"]["attributes"]),
            )
            for e in doc["entries"]
        ]
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise BenchError(f"{source}: not a queue disc catalog ({exc})") from exc


def read_catalog(binary: Path, env: Mapping[str, str] | None = None) -> list[CatalogEntry]:
    """The module's queue disc catalog, from ``qdisc-bench --list``."""
    result = _run([str(binary), "--list"], env)
    return parse_catalog(result.stdout, f"{binary} --list")


def default_qdiscs(catalog: Sequence[CatalogEntry]) -> list[str]:
    """The TypeIds benchmarked by default, in the catalog's order (each once)."""
    return list(dict.fromkeys(e.type_id for e in catalog if e.bench_default))


def reference_qdisc(catalog: Sequence[CatalogEntry]) -> str:
    """The TypeId the ratios compare with."""
    references = [e.type_id for e in catalog if e.bench_reference]
    if len(references) != 1:
        raise BenchError(f"the catalog names {len(references)} bench references, not one")
    return references[0]


def bench_attributes(catalog: Sequence[CatalogEntry]) -> dict[str, tuple[str, ...]]:
    """Per TypeId, the attributes the benchmark adds beyond MaxSize (of its default entry)."""
    attributes: dict[str, tuple[str, ...]] = {}
    for entry in catalog:
        if entry.bench_default and entry.bench_attributes:
            attributes.setdefault(entry.type_id, entry.bench_attributes)
    return attributes


def qdisc_type_name(name: str) -> str:
    """``Fifo`` or ``FifoQueueDisc`` -> ``ns3::FifoQueueDisc``; full names are kept."""
    if "::" in name:
        return name
    return f"ns3::{name}" if name.endswith("QueueDisc") else f"ns3::{name}QueueDisc"


def resolve_qdiscs(names: Sequence[str], catalog: Sequence[CatalogEntry]
                   ) -> tuple[list[str], dict[str, tuple[str, ...]]]:
    """The queue disc types ``--qdisc`` names, and the attributes the catalog names among them
    set: a catalog name (``RED``, ``RI+O``, ``DRR-tail``) is its entry's TypeId with the entry's
    attributes (``DRR-tail``: ``DropFrom=Tail``) and bench attributes, after its TypeId's benched
    ones when the entry is not in the default grid itself; any other name is a TypeId (``ns3::RedQueueDisc``, or just ``Red``).
    :class:`BenchError` when two names are one TypeId (``DRR`` and ``DRR-tail``): the rows are
    per TypeId, so bench them one at a time."""
    by_name = {entry.name: entry for entry in catalog}
    defaults = bench_attributes(catalog)
    types: list[str] = []
    named: dict[str, tuple[str, ...]] = {}
    given: dict[str, str] = {}
    for name in names:
        entry = by_name.get(name)
        type_id = type_of(name, catalog)
        if type_id in given:
            raise BenchError(f"--qdisc {given[type_id]} and {name} are both {type_id}: its rows"
                             " are one TypeId's, so bench them one at a time")
        given[type_id] = name
        types.append(type_id)
        if entry is not None:
            # An entry outside the default grid starts from its TypeId's benched settings.
            base = () if entry.bench_default else defaults.get(type_id, ())
            if settings := (*base, *entry.attributes, *entry.bench_attributes):
                named[type_id] = settings
    return types, named


def type_of(name: str, catalog: Sequence[CatalogEntry]) -> str:
    """The TypeId of a queue disc named as ``--qdisc`` and ``--attr`` take it: a catalog name's
    entry's, else the TypeId it spells (``Red`` -> ``ns3::RedQueueDisc``)."""
    entry = next((e for e in catalog if e.name == name), None)
    return entry.type_id if entry else qdisc_type_name(name)


def short_name(qdisc: str) -> str:
    """``ns3::FqCoDelQueueDisc`` -> ``FqCoDel``."""
    name = qdisc.rsplit("::", 1)[-1]
    return name[: -len("QueueDisc")] if name.endswith("QueueDisc") and name != "QueueDisc" else name


def bench_command(
    binary: Path,
    qdisc: str,
    flows: int,
    load: str,
    packets: int,
    warmup: int,
    output: Path | str,
    max_size: str | None = MAX_SIZE,
    attributes: Mapping[str, Sequence[str]] | None = None,
) -> list[str]:
    """The qdisc-bench command line of one run; ``attributes``: per queue disc type, its
    ``Name=Value`` attributes beyond MaxSize (see :func:`bench_attributes`)."""
    cmd = [
        str(binary),
        f"--qdisc={qdisc}",
        f"--flows={flows}",
        f"--load={load}",
        f"--packets={packets}",
        f"--warmup={warmup}",
        f"--output={output}",
    ]
    if max_size:
        cmd.append(f"--attr=MaxSize={max_size}")
    cmd += [f"--attr={attribute}" for attribute in (attributes or {}).get(qdisc, ())]
    return cmd


def _run(cmd: list[str], env: Mapping[str, str] | None) -> subprocess.CompletedProcess:
    """Run quietly (the command is echoed); map exit status 3 to :class:`UnknownQdiscError`."""
    result = proc.run(cmd, env=env, check=False, capture=True)
    if result.returncode == EXIT_UNKNOWN_QDISC:
        raise UnknownQdiscError(result.stderr.strip() or result.stdout.strip())
    if result.returncode != 0:
        tail = "\n".join((result.stderr or result.stdout).strip().splitlines()[-5:])
        raise BenchError(f"{Path(cmd[0]).name} exited with status {result.returncode}: {tail}")
    return result


def _load(path: Path) -> dict:
    try:
        return parse_metrics(path.read_text(), str(path))
    except (OSError, MetricsError) as exc:
        raise BenchError(str(exc)) from exc


def run_timed(
    binary: Path,
    qdisc: str,
    flows: int,
    load: str,
    settings: Settings,
    workdir: Path,
    env: Mapping[str, str] | None = None,
    max_size: str | None = MAX_SIZE,
    attributes: Mapping[str, Sequence[str]] | None = None,
) -> dict:
    """Run ``settings.repetitions`` times; return the metrics document of the fastest run."""
    best: dict | None = None
    for repetition in range(max(1, settings.repetitions)):
        output = workdir / f"{short_name(qdisc)}-{flows}-{load}-{repetition}.json"
        cmd = bench_command(
            binary,
            qdisc,
            flows,
            load,
            settings.packets,
            settings.warmup,
            output,
            max_size,
            attributes,
        )
        _run(cmd, env)
        doc = _load(output)
        if best is None or doc["metrics"]["ns_per_packet"] < best["metrics"]["ns_per_packet"]:
            best = doc
    assert best is not None
    return best


def parse_callgrind(path: Path, event: str = "Ir") -> int:
    """Total cost of ``event`` in a callgrind output file (its ``totals:`` or ``summary:`` line).

    With ``--collect-atstart=no --toggle-collect=F`` that total is what F and its callees did.
    """
    events: list[str] = []
    totals: dict[str, list[int]] = {}
    with open(path, encoding="utf-8", errors="replace") as lines:
        for line in lines:
            key, sep, rest = line.partition(":")
            if not sep:
                continue
            if key == "events":
                events = rest.split()
            elif key in ("totals", "summary"):
                totals[key] = [int(value) for value in rest.split()]
    values = totals.get("totals") or totals.get("summary")
    if values is None:
        raise BenchError(f"{path}: no totals: or summary: line (not a callgrind output file?)")
    if not events:
        events = ["Ir"]
    if event not in events:
        raise BenchError(f"{path}: no {event} events (events: {' '.join(events)})")
    index = events.index(event)
    return values[index] if index < len(values) else 0


def callgrind_command(callgrind_out: Path) -> list[str]:
    """valgrind's part of the command line: collect the measured function only."""
    return [
        "valgrind",
        "--tool=callgrind",
        "--collect-atstart=no",
        f"--toggle-collect=*{MEASURED_FUNCTION}*",
        f"--callgrind-out-file={callgrind_out}",
    ]


def run_callgrind(
    binary: Path,
    qdisc: str,
    flows: int,
    load: str,
    settings: Settings,
    workdir: Path,
    profile_dir: Path,
    env: Mapping[str, str] | None = None,
    max_size: str | None = MAX_SIZE,
    attributes: Mapping[str, Sequence[str]] | None = None,
) -> float:
    """Instructions per measured packet, from one run under callgrind."""
    stem = f"{short_name(qdisc)}-{flows}-{load}"
    callgrind_out = profile_dir / f"{stem}.callgrind"
    output = workdir / f"{stem}-callgrind.json"
    cmd = callgrind_command(callgrind_out) + bench_command(
        binary,
        qdisc,
        flows,
        load,
        settings.callgrind_packets,
        settings.callgrind_warmup,
        output,
        max_size,
        attributes,
    )
    _run(cmd, env)
    instructions = parse_callgrind(callgrind_out)
    if instructions == 0:
        raise BenchError(f"callgrind collected nothing in {MEASURED_FUNCTION} ({callgrind_out})")
    return instructions / settings.callgrind_packets


def probe(
    binary: Path,
    qdisc: str,
    workdir: Path,
    env: Mapping[str, str] | None,
    max_size: str | None,
    attributes: Mapping[str, Sequence[str]] | None = None,
) -> None:
    """A one-packet run: raises :class:`UnknownQdiscError` or :class:`BenchError` early."""
    output = workdir / f"probe-{short_name(qdisc)}.json"
    _run(bench_command(binary, qdisc, 10, "overload", 1, 0, output, max_size, attributes), env)


def result_row(
    doc: Mapping,
    instructions: float | None,
    callgrind_packets: int | None,
    *,
    flavor: str,
    revision: str,
    max_size: str | None,
) -> dict:
    """One CSV row (:data:`CSV_COLUMNS`) from a timed run's metrics and callgrind's count."""
    params, metrics = doc["params"], doc["metrics"]
    return {
        "qdisc": params["qdisc"],
        "attrs": params.get("attrs", ""),
        "flows": int(params["flows"]),
        "load": params["load"],
        "instructions_per_packet": instructions,
        "ns_per_packet": metrics["ns_per_packet"],
        "packets": int(params["packets"]),
        "callgrind_packets": callgrind_packets,
        "drops": metrics.get("measured_drops"),
        "drop_rate": metrics.get("drop_rate"),
        "classes": metrics.get("classes"),
        "rss_growth_kib": metrics.get("rss_growth_kib"),
        "peak_rss_kib": metrics.get("peak_rss_kib"),
        **{key: metrics.get(key) for key in STATE_METRICS},
        "max_size": max_size or "",
        "ns3_flavor": flavor,
        "ns3_version": doc["ns3_version"],
        "git_revision": revision,
    }


def _csv_value(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        if not math.isfinite(value):
            return ""
        return f"{value:.6g}" if not value.is_integer() else str(int(value))
    return str(value)


def write_csv(rows: Iterable[Mapping], path: Path) -> Path:
    """Write ``rows`` with exactly :data:`CSV_COLUMNS`; return ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(CSV_COLUMNS)
        for row in rows:
            writer.writerow([_csv_value(row.get(column)) for column in CSV_COLUMNS])
    return path


def _ratio(numerator: Mapping, denominator: Mapping) -> str | None:
    parts = []
    for key, label in (("instructions_per_packet", "instructions"), ("ns_per_packet", "time")):
        top, bottom = numerator.get(key), denominator.get(key)
        if top and bottom:
            parts.append(f"{top / bottom:.2f}× {label}")
    return ", ".join(parts) or None


def label(qdisc: str, names: Mapping[str, str] | None = None) -> str:
    """How a row's queue disc type is named in the console: its name in ``names`` (the catalog
    name it was benched as, ``RI+O``), else the TypeId's short form (``RiPlusO``)."""
    return (names or {}).get(qdisc) or short_name(qdisc)


def catalog_labels(catalog: Sequence[CatalogEntry], given: Sequence[str] = ()) -> dict[str, str]:
    """The console names of the types benched: each ``--qdisc`` value that is a catalog name,
    for its TypeId (``DRR-tail``), and otherwise the first catalog entry of each TypeId."""
    labels = {}
    for entry in catalog:
        labels.setdefault(entry.type_id, entry.name)
    labels.update({type_of(name, catalog): name for name in given
                   if any(e.name == name for e in catalog)})
    return labels


def ratio_lines(rows: Sequence[Mapping], reference: str,
                names: Mapping[str, str] | None = None) -> list[str]:
    """Each queue disc vs the reference at the fewest flows (same load), and each queue disc
    at the most flows vs the fewest, with the resident memory that grew meanwhile (queue discs
    named by ``names``: :func:`label`)."""
    by_key = {(row["qdisc"], int(row["flows"]), row["load"]): row for row in rows}
    qdiscs = list(dict.fromkeys(row["qdisc"] for row in rows))
    loads = list(dict.fromkeys(row["load"] for row in rows))
    flows = sorted({int(row["flows"]) for row in rows})
    if not flows:
        return []
    low, high = flows[0], flows[-1]
    lines = []
    for qdisc in qdiscs:
        if qdisc == reference:
            continue
        for load in loads:
            mine, ref = by_key.get((qdisc, low, load)), by_key.get((reference, low, load))
            if mine and ref and (text := _ratio(mine, ref)):
                lines.append(
                    f"{label(qdisc, names)} vs {label(reference, names)}, {low} flows, {load}:"
                    f" {text}"
                )
    if high == low:
        return lines
    for qdisc in qdiscs:
        for load in loads:
            many, few = by_key.get((qdisc, high, load)), by_key.get((qdisc, low, load))
            if not (many and few):
                continue
            text = _ratio(many, few)
            if text:
                line = f"{label(qdisc, names)}, {load}: {high} vs {low} flows: {text}"
                state = state_per_flow(many, few)
                if state is not None:
                    line += f"; {state}"
                lines.append(line)
    return lines


def flow_state_lines(rows: Sequence[Mapping], names: Mapping[str, str] | None = None
                     ) -> list[str]:
    """For the queue discs that report their per-flow state: bytes per active flow and per-bucket
    state, at each flow count (the largest of the loads); named by ``names`` (:func:`label`)."""
    lines = []
    for qdisc in dict.fromkeys(row["qdisc"] for row in rows):
        by_flows: dict[int, list[Mapping]] = {}
        for row in rows:
            if row["qdisc"] == qdisc and row.get("state_bytes_per_active_flow") not in (None, ""):
                by_flows.setdefault(int(row["flows"]), []).append(row)
        parts = []
        for flows, group in sorted(by_flows.items()):
            row = max(group, key=lambda r: float(r["peak_active_flows"]))
            parts.append(
                f"{flows} flows: {float(row['state_bytes_per_active_flow']):.0f} B per active "
                f"flow (peak {float(row['peak_active_flows']):.0f}), "
                f"{float(row['bucket_state_bytes']) / 1024:,.0f} KiB per-bucket"
            )
        if parts:
            lines.append(f"{label(qdisc, names)} state: " + "; ".join(parts))
    return lines


def state_per_flow(many: Mapping, few: Mapping) -> str | None:
    """Resident memory grown per extra flow (and per extra class), between two runs."""
    grown = [row.get("rss_growth_kib") for row in (many, few)]
    if any(value is None or value == "" for value in grown):
        return None
    delta_kib = float(grown[0]) - float(grown[1])
    extra_flows = int(many["flows"]) - int(few["flows"])
    text = f"RSS {delta_kib:+.0f} KiB = {delta_kib * 1024 / extra_flows:.1f} B/flow"
    classes = [row.get("classes") for row in (many, few)]
    if all(isinstance(value, int | float) for value in classes):
        extra_classes = int(classes[0]) - int(classes[1])
        if extra_classes > 0:
            text += f" ({extra_classes} more classes: {delta_kib * 1024 / extra_classes:.0f} B each)"
    return text


def results_table(rows: Sequence[Mapping], title: str,
                  names: Mapping[str, str] | None = None) -> Table:
    """One line per combination, queue discs named by ``names`` (:func:`label`)."""
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    for header in ("Queue disc", "Flows", "Load", "Instr/pkt", "ns/pkt", "Drops", "Classes"):
        table.add_column(header, justify="left" if header in ("Queue disc", "Load") else "right",
                         no_wrap=True)
    table.add_column("RSS +KiB", justify="right", no_wrap=True)

    def fmt(value, spec: str) -> str:
        return "–" if value is None or value == "" else format(value, spec)

    for row in rows:
        table.add_row(
            label(row["qdisc"], names),
            str(row["flows"]),
            row["load"],
            fmt(row.get("instructions_per_packet"), ",.0f"),
            fmt(row.get("ns_per_packet"), ",.0f"),
            fmt(row.get("drop_rate"), ".0%"),
            fmt(row.get("classes"), ".0f"),
            fmt(row.get("rss_growth_kib"), ",.0f"),
        )
    return table


def _int_list(ctx, param, value: str) -> tuple[int, ...]:
    try:
        numbers = tuple(int(word) for word in re.split(r"[,\s]+", value.strip()) if word)
    except ValueError:
        raise click.BadParameter(f"expected comma-separated integers, got {value!r}") from None
    if not numbers or any(number <= 0 for number in numbers):
        raise click.BadParameter("flow counts must be positive")
    return numbers


def _load_list(ctx, param, value: str) -> tuple[str, ...]:
    loads = tuple(word for word in re.split(r"[,\s]+", value.strip()) if word)
    bad = [load for load in loads if load not in LOADS]
    if bad or not loads:
        raise click.BadParameter(f"loads are {' and '.join(LOADS)}, got {value!r}")
    return loads


def _attribute_list(ctx, param, values: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    attributes: dict[str, tuple[str, ...]] = {}
    for value in values:
        qdisc, colon, assignment = value.partition(":")
        name, equals, setting = assignment.partition("=")
        if not (colon and qdisc and equals and name and setting):
            raise click.BadParameter(f"expected QDISC:NAME=VALUE, got {value!r}")
        # By the name as given: a catalog name or a TypeId, resolved once the catalog is read
        # (type_of).
        attributes[qdisc] = (*attributes.get(qdisc, ()), f"{name}={setting}")
    return attributes


def merge_attributes(
    base: Mapping[str, Sequence[str]], extra: Mapping[str, Sequence[str]]
) -> dict[str, tuple[str, ...]]:
    """``base`` with ``extra``'s attributes appended per queue disc type (a later setting of the
    same attribute wins in qdisc-bench)."""
    merged = {qdisc: tuple(values) for qdisc, values in base.items()}
    for qdisc, values in extra.items():
        merged[qdisc] = (*merged.get(qdisc, ()), *values)
    return merged


def bench_binary(out: Path) -> Path:
    """``<build>/bench/qdisc-bench``, or a ClickException saying why it is missing."""
    binary = out / "bench" / PROGRAM
    if not binary.is_file():
        raise click.ClickException(
            f"{binary} was not built (the top-level CMakeLists.txt adds bench/ with "
            "add_subdirectory(bench) in its standalone block)"
        )
    return binary


def run_bench(
    binary: Path,
    qdiscs: Sequence[str],
    flows: Sequence[int],
    loads: Sequence[str],
    settings: Settings,
    *,
    out_dir: Path = BENCH_DIR,
    env: Mapping[str, str] | None = None,
    max_size: str | None = MAX_SIZE,
    use_callgrind: bool = True,
    skip_unknown: Iterable[str] = (),
    flavor: str = "system",
    revision: str = "unknown",
    attributes: Mapping[str, Sequence[str]] | None = None,
) -> list[dict]:
    """Benchmark every combination; return the CSV rows (also written to ``out_dir``).

    A queue disc in ``skip_unknown`` that the binary does not know is skipped with a note;
    any other unknown name raises :class:`UnknownQdiscError`. ``attributes``: per queue disc
    type, its attributes beyond MaxSize (see :func:`bench_attributes`).
    """
    skip_unknown = set(skip_unknown)
    out_dir.mkdir(parents=True, exist_ok=True)
    profile_dir = out_dir / "callgrind"
    if use_callgrind:
        profile_dir.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="qdisc-bench-") as tmp:
        workdir = Path(tmp)
        available = []
        for name in dict.fromkeys(qdiscs):
            try:
                probe(binary, name, workdir, env, max_size, attributes)
            except UnknownQdiscError:
                if name not in skip_unknown:
                    raise
                CONSOLE.print(
                    f"[yellow]Skipping {name}[/]: the {PROGRAM} binary does not know it (not "
                    "built yet?)"
                )
                continue
            available.append(name)
        if not available:
            raise BenchError("no queue disc to benchmark")

        combos = [(q, f, load) for q in available for f in flows for load in loads]
        # The timed runs one at a time, with nothing else of ours running; then callgrind,
        # whose counts company does not disturb, on every core.
        docs = {}
        with CONSOLE.status("Timing…") as status:
            for index, (q, f, load) in enumerate(combos, 1):
                status.update(f"Timing {index}/{len(combos)}: {short_name(q)}, {f} flows, {load}")
                docs[q, f, load] = run_timed(
                    binary, q, f, load, settings, workdir, env, max_size, attributes
                )
        instructions: dict = {}
        if use_callgrind:
            jobs = max(1, min(len(combos), os.cpu_count() or 1))
            with CONSOLE.status(f"callgrind: {len(combos)} runs, {jobs} at a time…"):
                with ThreadPoolExecutor(max_workers=jobs) as pool:
                    futures = {
                        combo: pool.submit(
                            run_callgrind,
                            binary,
                            *combo,
                            settings,
                            workdir,
                            profile_dir,
                            env,
                            max_size,
                            attributes,
                        )
                        for combo in combos
                    }
                    instructions = {combo: future.result() for combo, future in futures.items()}

    rows = [
        result_row(
            docs[combo],
            instructions.get(combo),
            settings.callgrind_packets if use_callgrind else None,
            flavor=flavor,
            revision=revision,
            max_size=max_size,
        )
        for combo in combos
    ]
    write_csv(rows, out_dir / CSV_NAME)
    (out_dir / "bench.json").write_text(
        json.dumps({"settings": settings.__dict__, "rows": rows}, indent=1) + "\n"
    )
    return rows


def describe(
    settings: Settings,
    max_size: str | None,
    use_callgrind: bool,
    attributes: Mapping[str, Sequence[str]] | None = None,
) -> str:
    """What the numbers are, in one paragraph."""
    text = (
        "Measured: QueueDisc::Enqueue + Dequeue only (items built outside the measured region); "
        "IPv4/UDP packets of 64-1500 B, flows picked uniformly; "
        f"MaxSize={max_size or '(each default)'} for every queue disc"
        + "".join(
            f"; {q}: {' '.join(a)}" for q, a in (attributes or {}).items() if a
        )
        + ". "
        "overload = 2 enqueues per dequeue (at a full queue half the packets are dropped); "
        "underload = queue drained after every 4 enqueues. "
        f"ns/pkt: best of {settings.repetitions} run(s) of {settings.packets:,} packets"
    )
    if use_callgrind:
        text += (
            f"; Instr/pkt: callgrind's Ir in {MEASURED_FUNCTION} and callees over "
            f"{settings.callgrind_packets:,} packets"
        )
    return text + "."


@click.command("bench")
@ns3_option()
@click.option(
    "--qdisc",
    "qdiscs",
    multiple=True,
    metavar="NAME",
    help="Queue disc: a catalog name (RED, RI+O, DRR-tail: qdisc-bench --list) or a TypeId "
    "(ns3::RedQueueDisc, or just Red); repeat for several. Default: the catalog's benched "
    "ones: FIFO, RED, FqCoDel and this module's.",
)
@click.option(
    "--flows",
    default=",".join(map(str, FLOWS)),
    show_default=True,
    callback=_int_list,
    help="Flow counts, comma-separated.",
)
@click.option(
    "--load",
    "loads",
    default=",".join(LOADS),
    show_default=True,
    callback=_load_list,
    help="overload (2 enqueues per dequeue) and/or underload (queue drained every 4 packets).",
)
@click.option("--packets", type=click.IntRange(min=1), help="Measured packets per timed run.")
@click.option(
    "--callgrind-packets", type=click.IntRange(min=1), help="Measured packets under callgrind."
)
@click.option(
    "--max-size",
    default=MAX_SIZE,
    show_default=True,
    help="MaxSize of every queue disc (the same for all, for a fair comparison); '' keeps "
    "each queue disc's default.",
)
@click.option(
    "--attr",
    "extra_attributes",
    multiple=True,
    metavar="QDISC:NAME=VALUE",
    callback=_attribute_list,
    help="One more attribute for one queue disc (a catalog name or a TypeId, as --qdisc), e.g. "
    "VD:BucketCounters=false; repeatable. Rows carry their attributes.",
)
@click.option("--no-callgrind", is_flag=True, help="Time only; no instruction counts.")
@click.option(
    "--quick",
    is_flag=True,
    help="Few packets, one repetition: to try it out (under a minute; seconds with "
    "--no-callgrind).",
)
@click.option(
    "--campaigns",
    is_flag=True,
    help="Instead: each campaign's [floor] point and its floor under callgrind, instructions "
    "per packet-hop and their ratio, into results/bench/campaigns.csv (each on its "
    "campaign's ns-3; the queue disc options do not apply).",
)
@click.option(
    "--campaign",
    "campaign_names",
    multiple=True,
    metavar="NAME",
    help="With --campaigns: only this campaign (repeatable). Default: every campaign file "
    "with a [floor] table.",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=lambda: os.cpu_count() or 1,
    show_default="one per core",
    help="With --campaigns: runs at a time.",
)
def bench_cmd(
    flavor: str,
    qdiscs: tuple[str, ...],
    flows: tuple[int, ...],
    loads: tuple[str, ...],
    packets: int | None,
    callgrind_packets: int | None,
    max_size: str,
    extra_attributes: dict[str, tuple[str, ...]],
    no_callgrind: bool,
    quick: bool,
    campaigns: bool,
    campaign_names: tuple[str, ...],
    jobs: int,
) -> None:
    """Measure what queue discs cost per packet (time, instructions) into results/bench/;
    with --campaigns, what each campaign costs per packet-hop against its floor."""
    if campaigns or campaign_names:
        from qdisclab.commands.bench_campaigns import bench_campaigns

        bench_campaigns(campaign_names, jobs)
        return
    from qdisclab.campaign.engine import git_revision
    from qdisclab.toolchain.provision import ensure_setup

    ensure_setup(wheel=flavor == "wheel")
    binary = bench_binary(build(flavor))

    settings = QUICK_SETTINGS if quick else DEFAULT_SETTINGS
    if packets or callgrind_packets:
        settings = Settings(
            packets=packets or settings.packets,
            warmup=settings.warmup,
            repetitions=settings.repetitions,
            callgrind_packets=callgrind_packets or min(packets or 10**9, settings.callgrind_packets),
            callgrind_warmup=settings.callgrind_warmup,
        )
    use_callgrind = not no_callgrind
    if use_callgrind and shutil.which("valgrind") is None:
        CONSOLE.print("[yellow]valgrind not found[/]: timing only (apt-get install valgrind)")
        use_callgrind = False
    env = runtime_env(flavor) or None
    try:
        catalog = read_catalog(binary, env)
    except (BenchError, UnknownQdiscError) as exc:
        raise click.ClickException(str(exc)) from exc
    try:
        names, named = resolve_qdiscs(qdiscs, catalog) if qdiscs else (default_qdiscs(catalog),
                                                                        {})
    except BenchError as exc:
        raise click.UsageError(str(exc)) from exc
    max_size = max_size or None
    extra: dict[str, tuple[str, ...]] = {}
    for name, values in extra_attributes.items():
        key = type_of(name, catalog)
        extra[key] = (*extra.get(key, ()), *values)
    attributes = merge_attributes({**bench_attributes(catalog), **named}, extra)

    try:
        rows = run_bench(
            binary,
            names,
            flows,
            loads,
            settings,
            env=env,
            max_size=max_size,
            use_callgrind=use_callgrind,
            flavor=flavor,
            revision=git_revision(),
            attributes=attributes,
        )
    except (BenchError, UnknownQdiscError) as exc:
        raise click.ClickException(str(exc)) from exc

    title = f"Queue disc cost per packet (ns-3 {rows[0]['ns3_version']}, {flavor})"
    names = catalog_labels(catalog, qdiscs)
    CONSOLE.print(results_table(rows, title, names))
    CONSOLE.print(describe(settings, max_size, use_callgrind, attributes), style="dim")
    for line in [*ratio_lines(rows, reference_qdisc(catalog), names),
                 *flow_state_lines(rows, names)]:
        CONSOLE.print(line)
    CONSOLE.print(str(BENCH_DIR / CSV_NAME), markup=False, soft_wrap=True)
