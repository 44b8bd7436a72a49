# SPDX-License-Identifier: GPL-2.0-only
"""The cross-validation suite against ns-2.35: the cases, how each is run in both simulators,
and how it is judged.

Every case runs the same CBR/UDP scenario in ns-2.35 (``validation/ns2/cbr.tcl``) and in ns-3
(``examples/ns2-validation.cc``), with the parameters of its row, and compares per-flow
delivered (and, where comparable, dropped) packets, the mean queue and the marker's colours.

* A deterministic case (no dither, no random early drop) **agrees** when every judged metric
  differs by at most one packet per flow (the mean queue by at most one packet).
* A case with randomness (CBR dither from a seed, RED's drops) runs ``seeds`` seeds in each
  simulator; it agrees when, for every judged metric, the 99 % Student-t interval of the
  per-seed difference (ns-3 minus ns-2, seed k against seed k) contains 0. A metric with the
  same difference in every seed (the dither does not reach it) has no sampling variance and is
  judged by the deterministic rule.
* A row with ``expected`` states a difference the model has by design or by ns-2's arithmetic;
  its metrics are shown, not judged, and the row says why.
* A row with ``needs`` depends on a compatibility feature of the model: it runs in ns-3 only
  where the feature is in the model's sources (``feature_present``).

``python -m qdisclab.ns2_validation`` runs every case and prints the table the model pages'
Validation sections show (ns-2 | module | difference | verdict).
"""

from __future__ import annotations

import json
import re
import math
import shutil
import subprocess
import sys
import tempfile
import textwrap
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from qdisclab.context import REPO

TCL = REPO / "validation" / "ns2" / "cbr.tcl"
#: The ns-3 program, as ``qdisc-lab build`` builds it.
NS3_PROGRAM = REPO / "build" / "system" / "examples" / "ns2-validation"
#: Runs at once (the machine's two cores).
WORKERS = 2
#: Two-sided confidence of the interval test.
CONFIDENCE = 0.99

#: Compatibility features, and what in the model's sources says a build has them.
FEATURES = {
    "Ns2SourceHashPacketFilter": ("model", "Ns2SourceHashPacketFilter"),
    "Ns2Averaging": ("model/rio-queue-disc.cc", '"Ns2Averaging"'),
}

#: ns-2 queue names of ``cbr.tcl`` and the module's catalog names of ``ns2-validation``.
NS3_QUEUE = {"DropTail": "FIFO", "DRR": "DRR", "SRR": "SRR", "RED": "RED", "RIO": "RIO",
             "dsRED": "DscpMarker"}


@dataclass(frozen=True)
class Case:
    """One row of the suite."""

    name: str
    model: str  #: the model page it belongs to: per-flow, red-rio or dscp
    what: str  #: the row's description
    params: dict  #: parameters both programs take (cbr.tcl's names; ``queue`` is ns-2's)
    judged: tuple[str, ...] = ("delivered",)  #: delivered, dropped, queue, colours
    ns3: dict = field(default_factory=dict)  #: parameters for ns-3 only
    seeds: int = 0  #: 0: deterministic; else the seeds of the interval test
    expected: str = ""  #: a stated, explained difference: shown, not judged
    note: str = ""  #: why a metric shown is not judged
    needs: str = ""  #: a compatibility feature (FEATURES) the row depends on

    @property
    def flows(self) -> int:
        return int(self.params.get("flows", 1))


def feature_present(feature: str) -> bool:
    """Whether the model's sources have a compatibility feature (FEATURES)."""
    where, text = FEATURES[feature]
    path = REPO / where
    files = sorted(path.glob("*.h")) if path.is_dir() else [path]
    return any(text in f.read_text() for f in files if f.is_file())


def ns2_available() -> bool:
    """Whether ns-2 (``ns``) is installed."""
    return shutil.which("ns") is not None


def _args(params: dict) -> list[str]:
    return [f"--{name}={value}" for name, value in params.items()]


def run_ns2(case: Case, seed: int, out_dir: Path) -> dict:
    """Run ``cbr.tcl`` for one seed; return its metrics."""
    output = out_dir / f"{case.name}-ns2-{seed}.json"
    params = dict(case.params, seed=seed)
    subprocess.run(["ns", str(TCL), *_args(params), f"--output={output}"], check=True,
                   timeout=300, capture_output=True, cwd=out_dir)
    return json.loads(output.read_text())["metrics"]


def run_ns3(case: Case, seed: int, out_dir: Path, program: Path = NS3_PROGRAM) -> dict:
    """Run ``ns2-validation`` for one seed; return its metrics."""
    output = out_dir / f"{case.name}-ns3-{seed}.json"
    params = dict(case.params, queue=NS3_QUEUE[case.params.get("queue", "DropTail")],
                  **case.ns3)
    subprocess.run([str(program), *_args(params), f"--RngRun={seed}", f"--output={output}"],
                   check=True, timeout=300, capture_output=True)
    return json.loads(output.read_text())["metrics"]


def judged_metrics(case: Case) -> list[str]:
    """The metric names a case compares, in table order."""
    names = []
    for kind in case.judged:
        if kind == "queue":
            names.append("mean_queue_packets")
        elif kind == "bucket":
            names += [f"bucket{b}_delivered_packets" for b in sorted(set(ns2_buckets(case)))]
        elif kind == "colours":
            names += [f"flow{i}_{c}_packets" for i in range(case.flows)
                      for c in ("green", "yellow", "red")]
        else:
            names += [f"flow{i}_{kind}_packets" for i in range(case.flows)]
    return names


def ns2_bucket(address: int, mask: int, buckets: int) -> int:
    """The bucket ns-2.35's Queue/DRR (``drr.cc``, ``DRR::hash``) puts a source node address in,
    with C's integer arithmetic (its remainder keeps the dividend's sign)."""
    i = address & 0xFFF0 if mask else address
    x = i + (i >> 8) + ~(i >> 4)
    prime = (2 << 23) - 1
    remainder = abs(x) % prime * (1 if x >= 0 else -1)
    return (remainder + 1) % buckets


def ns2_buckets(case: Case) -> list[int]:
    """Each flow's ns-2 DRR bucket in a case (flow i's source is node firstNode + i)."""
    p = case.params
    first, mask = int(p.get("firstNode", 0)), int(p.get("mask", 0))
    buckets = int(p.get("buckets", 10))
    return [ns2_bucket(first + i, mask, buckets) for i in range(case.flows)]


def add_bucket_totals(case: Case, metrics: dict) -> dict:
    """``metrics`` with each ns-2 bucket's delivered packets (``bucket<b>_delivered_packets``)."""
    totals: dict[str, float] = {}
    for i, b in enumerate(ns2_buckets(case)):
        name = f"bucket{b}_delivered_packets"
        totals[name] = totals.get(name, 0) + metrics[f"flow{i}_delivered_packets"]
    return {**metrics, **totals}


def t_quantile(df: int) -> float:
    """The two-sided CONFIDENCE quantile of Student's t with ``df`` degrees of freedom."""
    from scipy import stats

    return float(stats.t.ppf(0.5 + CONFIDENCE / 2, df))


@dataclass
class Outcome:
    """A case's measured numbers and verdict."""

    case: Case
    ns2: dict  #: metric -> value (deterministic) or mean over seeds
    ns3: dict
    intervals: dict  #: metric -> (low, high) of ns-3 minus ns-2 (seeded cases)
    failures: list[str]  #: why the case disagrees; empty when it agrees

    @property
    def verdict(self) -> str:
        if not self.ns3:
            return f"needs {self.case.needs}"
        if self.case.expected:
            return "expected difference"
        return "DISAGREES" if self.failures else "agrees"


def run_case(case: Case, out_dir: Path, program: Path = NS3_PROGRAM,
             ns3: bool = True) -> Outcome:
    """Run a case in both simulators (WORKERS runs at a time) and judge it; with ``ns3``
    false, in ns-2 alone (a row whose feature the model does not have)."""
    seeds = list(range(1, case.seeds + 1)) if case.seeds else [1]
    jobs = [(run_ns2, s) for s in seeds] + ([(run_ns3, s) for s in seeds] if ns3 else [])
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        futures = [pool.submit(fn, case, s, out_dir, *([program] if fn is run_ns3 else []))
                   for fn, s in jobs]
        results = [f.result() for f in futures]
    if "bucket" in case.judged:
        results = [add_bucket_totals(case, r) for r in results]
    ns2_runs, ns3_runs = results[:len(seeds)], results[len(seeds):]
    if not ns3:
        names = list(ns2_runs[0])
        return Outcome(case, {n: sum(r[n] for r in ns2_runs) / len(seeds) for n in names}, {},
                       {}, [])
    names = [n for n in ns2_runs[0] if n in ns3_runs[0]]
    mean = lambda runs, name: sum(r[name] for r in runs) / len(runs)  # noqa: E731
    ns2 = {n: mean(ns2_runs, n) for n in names}
    ns3 = {n: mean(ns3_runs, n) for n in names}
    failures, intervals = [], {}
    for name in judged_metrics(case):
        if case.seeds:
            diffs = [b[name] - a[name] for a, b in zip(ns2_runs, ns3_runs)]
            if len(set(diffs)) == 1:
                # The same difference in every seed (a flow the dither does not reach, such as
                # one always backlogged): no sampling variance, so the deterministic rule.
                if abs(diffs[0]) > 1:
                    failures.append(f"{name}: ns-3 - ns-2 = {diffs[0]:g} in every seed")
                continue
            n = len(diffs)
            m = sum(diffs) / n
            sd = math.sqrt(sum((d - m) ** 2 for d in diffs) / (n - 1))
            half = t_quantile(n - 1) * sd / math.sqrt(n)
            intervals[name] = (m - half, m + half)
            if not m - half <= 0 <= m + half:
                failures.append(f"{name}: {CONFIDENCE:.0%} interval of ns-3 - ns-2 "
                                f"[{m - half:.2f}, {m + half:.2f}] excludes 0")
        elif abs(ns3[name] - ns2[name]) > 1:
            failures.append(f"{name}: ns-2 {ns2[name]:g}, ns-3 {ns3[name]:g}")
    return Outcome(case, ns2, ns3, intervals, failures)


# --- the cases ---------------------------------------------------------------------------
#
# Common to every case: 1000-byte IP packets, 30 s, 1 Mb/s 10 ms bottleneck, 100 Mb/s 1 ms
# access links, flow i starting at i ms (cbr.tcl's and ns2-validation's defaults).

_SRR_LIMIT = 50


def _srr(weights: str, rates: str, flows: int, **extra) -> dict:
    # ns-2's Queue/SRR tail-drops each queue at limit_ and ignores blimit_; the module's buffer
    # is shared: as large as ns-2's queues together, so it holds the same backlog.
    params = dict(queue="SRR", flows=flows, weights=weights, rates=rates, limit=_SRR_LIMIT,
                  blimit=flows * _SRR_LIMIT * 1000, buckets=max(10, flows))
    params.update(extra)
    return params


_SRR_NOTE = ("drops and queue are not compared: ns-2's Queue/SRR ignores blimit_ (its check is "
             "commented out) and tail-drops each flow's queue at limit_, where the module "
             "shares one buffer and steals from the longest queue")
_DRR_NOTE = ("the queue is not compared: the device's packet is outside the module's MaxSize = "
             "blimit_, so the module holds one packet more; MaxSize one packet lower would move "
             "the decisions DRR takes by a packet, and the counts with them (drr-small-buffer's "
             "flow 0 then delivers 376 packets, not 1497)")

_RED_NOTE = ("the queue is not compared: the RED family in ns-3 averages the queue disc alone, "
             "without the packet the device holds, which ns-2's RED queue counts; its average "
             "is one packet lower for the same backlog, so it drops later and queues about one "
             "packet more")
_RIO_AVERAGING = ("ns-2.35's rio.cc does not update the total average on OUT arrivals; the "
                  "module averages on every arrival, as Clark and Fang's RIO does")

CASES: tuple[Case, ...] = (
    # FIFO: the calibration, exact first.
    Case("fifo", "per-flow", "DropTail limit_ 50: FIFO 48 + device, 3 flows 500/500/800 kb/s",
         dict(queue="DropTail", flows=3, rates="500,500,800", limit=50),
         judged=("delivered", "dropped", "queue")),
    Case("fifo-uncalibrated", "per-flow",
         "the same without the calibrations (link rates unscaled, FIFO 50)",
         dict(queue="DropTail", flows=3, rates="500,500,800", limit=50),
         ns3=dict(ns2Calibration="false"),
         expected="without the PPP-header scaling the fixed-timing CBR flows lock onto another "
                  "phase of the bottleneck's packet times: totals agree, per-flow shares not"),
    # DRR: MaxSize = blimit_, DropFrom = Head, each flow in its own bucket in both.
    Case("drr-equal", "per-flow", "DRR, 4 flows at 500 kb/s, blimit_ 25000",
         dict(queue="DRR", flows=4, rates=500, blimit=25000),
         judged=("delivered", "dropped"),
         note=_DRR_NOTE),
    Case("drr-maxmin", "per-flow", "DRR, 3 flows at 100/400/800 kb/s (max-min 100/400/500)",
         dict(queue="DRR", flows=3, rates="100,400,800", blimit=25000),
         judged=("delivered", "dropped"),
         note=_DRR_NOTE),
    Case("drr-small-buffer", "per-flow",
         "DRR, blimit_ 3000 (3 packets), 3 flows 500/500/800 kb/s: stealing",
         dict(queue="DRR", flows=3, rates="500,500,800", blimit=3000),
         note=_DRR_NOTE + "; nor are drops: holding one packet more, the module drops a "
                          "packet or two fewer and steals them one packet earlier"),
    Case("drr-join-leave", "per-flow",
         "DRR, 4 flows at 500 kb/s: flows 2 and 3 join at 5 s and 10 s, 0 and 2 leave at 20 s "
         "and 25 s",
         dict(queue="DRR", flows=4, rates=500, starts="0,0.001,5,10", stops="20,0,25,0"),
         judged=("delivered", "dropped"),
         note=_DRR_NOTE),
    Case("drr-collisions", "per-flow",
         "DRR, 12 flows at 200 kb/s, 10 buckets: ns-2 node addresses 0-11, flows 0/10 and 1/11 "
         "share buckets (Ns2SourceHashPacketFilter); judged per ns-2 bucket",
         dict(queue="DRR", flows=12, rates=200, blimit=25000),
         ns3=dict(classifier="Ns2SourceHash"), judged=("bucket",),
         note=_DRR_NOTE + "; nor is the split between two flows of one bucket: which of their "
                          "packets a steal from the bucket's head takes depends on the packets' "
                          "phases, and the module's DRR chooses each packet one transmission "
                          "earlier (the device holds the next one)",
         needs="Ns2SourceHashPacketFilter"),
    Case("drr-collisions-mask", "per-flow",
         "DRR mask_ 1, 8 flows at 250 kb/s from ns-2 nodes 10-17: two buckets, 6 flows and 2 "
         "(Ns2SourceHashPacketFilter Mask 1)",
         dict(queue="DRR", flows=8, rates=250, blimit=25000, mask=1, firstNode=10),
         ns3=dict(classifier="Ns2SourceHash"), judged=("delivered", "dropped"),
         note=_DRR_NOTE,
         needs="Ns2SourceHashPacketFilter"),
    # SRR: per-flow delivered packets; the buffers differ by design.
    Case("srr-1234", "per-flow", "SRR weights 1:2:3:4, 4 flows at 1 Mb/s (backlogged)",
         _srr("1,2,3,4", "1000", 4), judged=("delivered",), note=_SRR_NOTE),
    Case("srr-531", "per-flow", "SRR weights 5:3:1, 3 flows at 1 Mb/s (backlogged)",
         _srr("5,3,1", "1000", 3), judged=("delivered",), note=_SRR_NOTE),
    Case("srr-starve-112", "per-flow",
         "SRR weights 1,1,2 at 500/500/800 kb/s, the weight-1 flows 8.1 ms apart, so they empty "
         "and refill on alternate sends: a scheduler that lets a newly backlogged flow join the "
         "column being scanned (instead of waiting for its next turn, as ns-2's add_to_WM "
         "does) starves the weight-2 flow here (3 packets of 1874)",
         _srr("1,1,2", "500,500,800", 3, starts="0,0.0081,0.0003"), judged=("delivered",),
         note=_SRR_NOTE),
    Case("srr-starve-1241", "per-flow",
         "SRR weights 1,2,4,1 at 500/500/100/500 kb/s, the weight-1 flows 8.1 ms apart (the "
         "same scheduler starves the weight-2 and weight-4 flows: 2 and 1 packets)",
         _srr("1,2,4,1", "500,500,100,500", 4, starts="0,0.0003,0.0006,0.0081"),
         judged=("delivered",), note=_SRR_NOTE),
    Case("srr-jitter", "per-flow",
         "SRR weights 1:2:3:4 at 80/300/400/600 kb/s (flow 0 below its share), +-50 % CBR "
         "dither",
         _srr("1,2,3,4", "80,300,400,600", 4, jitter=50), seeds=10, judged=("delivered",),
         note=_SRR_NOTE),
    # RED: ns-3's own RedQueueDisc, the floor of the RED family.
    Case("red", "red-rio",
         "RedQueueDisc (ns-3's) against ns-2's RED: 3 flows 500/500/800 kb/s, limit_ 50, "
         "thresholds 5/15, max_p 0.1, w_q 0.002",
         dict(queue="RED", flows=3, rates="500,500,800", limit=50), seeds=10,
         note=_RED_NOTE),
    # RIO: IN = AF11 in ns-3, flow id 1 (priority_method_ 1) in ns-2.
    Case("rio-fixed", "red-rio",
         "RIO, flows 0 and 1 IN, 2 and 3 OUT, 4 flows at 400 kb/s, +-50 % dither (module's "
         "averaging)",
         dict(queue="RIO", flows=4, rates=400, inFlows="0,1", jitter=50), seeds=10,
         expected=_RIO_AVERAGING),
    Case("rio-fixed-ns2", "red-rio", "the same with RioQueueDisc::Ns2Averaging",
         dict(queue="RIO", flows=4, rates=400, inFlows="0,1", jitter=50), seeds=10,
         ns3=dict(ns2Averaging="true"), note=_RED_NOTE, needs="Ns2Averaging"),
    Case("rio-few-in", "red-rio",
         "RIO, 8 % IN: flow 0 IN at 100 kb/s, 3 OUT flows at 400 kb/s (module's averaging)",
         dict(queue="RIO", flows=4, rates="100,400,400,400", inFlows="0"), seeds=10,
         expected=_RIO_AVERAGING),
    Case("rio-few-in-ns2", "red-rio", "the same with RioQueueDisc::Ns2Averaging",
         dict(queue="RIO", flows=4, rates="100,400,400,400", inFlows="0"), seeds=10,
         ns3=dict(ns2Averaging="true"), needs="Ns2Averaging",
         expected="Ns2Averaging removes the 12-39 % differences of rio-few-in; what remains "
                  "(about 1 % between the two OUT flows at 400 kb/s, and the queue) is the "
                  "device's packet, which the module's averages leave out and ns-2's count: "
                  "with so few IN arrivals the total average moves rarely, and one packet "
                  "less in it shifts the OUT drops between flows locked to fixed phases"),
    Case("rio-all-out", "red-rio", "RIO, every packet OUT, 3 flows 500/500/800 kb/s "
         "(module's averaging)",
         dict(queue="RIO", flows=3, rates="500,500,800"),
         expected="with no IN arrival ns-2.35's average never moves from 0: its RIO is DropTail "
                  "at limit_; the module's is RED"),
    Case("rio-all-out-ns2", "red-rio", "the same with RioQueueDisc::Ns2Averaging",
         dict(queue="RIO", flows=3, rates="500,500,800"), ns3=dict(ns2Averaging="true"),
         judged=("delivered", "dropped", "queue"), needs="Ns2Averaging"),
    # dsRED policers against the DSCP markers: one profile per flow.
    Case("tb-boundary", "dscp",
         "token bucket CIR 320 kb/s, CBS 1000 B, a 640 kb/s flow: the bucket is exactly full "
         "every second packet",
         dict(queue="dsRED", flows=1, rates=640, policer="TokenBucket", cir=320, cbs=1000,
              limit=1000),
         expected="ns-2 accrues tokens in floating point (rate x elapsed time), so an exactly "
                  "full bucket is sometimes a rounding short of the packet; the module counts "
                  "exactly"),
    Case("tb-319", "dscp", "token bucket CIR 319 kb/s, CBS 1000 B, flows at 640 and 300 kb/s",
         dict(queue="dsRED", flows=2, rates="640,300", policer="TokenBucket", cir=319,
              cbs=1000, limit=1000), judged=("delivered", "colours")),
    Case("tb-321", "dscp", "token bucket CIR 321 kb/s, CBS 1000 B, flows at 640 and 300 kb/s",
         dict(queue="dsRED", flows=2, rates="640,300", policer="TokenBucket", cir=321,
              cbs=1000, limit=1000), judged=("delivered", "colours")),
    Case("srtcm", "dscp",
         "srTCM CIR 300 kb/s, CBS 3000 B, EBS 5000 B, flows at 640 and 300 kb/s",
         dict(queue="dsRED", flows=2, rates="640,300", policer="srTCM", cir=300, cbs=3000,
              ebs=5000, limit=1000), judged=("delivered", "colours")),
    Case("trtcm", "dscp",
         "trTCM CIR 210 kb/s, CBS 2000 B, PIR 510 kb/s, PBS 3000 B, flows at 640 and 300 kb/s",
         dict(queue="dsRED", flows=2, rates="640,300", policer="trTCM", cir=210, cbs=2000,
              pir=510, pbs=3000, limit=1000), judged=("delivered", "colours")),
)


def case(name: str) -> Case:
    """The case called ``name``."""
    return next(c for c in CASES if c.name == name)


# --- the table ---------------------------------------------------------------------------

def _fmt(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.2f}"


def table_rows(outcome: Outcome) -> list[tuple[str, str, str, str, str]]:
    """(case, metric, ns-2, module, difference) rows of one outcome: the judged metrics, then
    the mean queue ("shown" when not judged); every flow's delivered packets (and colours) and
    the mean queue for a row with an expected difference."""
    c = outcome.case
    if c.expected:
        kinds = ("delivered", "colours") if c.params.get("queue") == "dsRED" else ("delivered",)
        judged = []
        names = judged_metrics(Case(c.name, c.model, "", c.params, judged=kinds))
    else:
        judged = names = judged_metrics(c)
    if "bucket" in c.judged:
        names = [*names, *(f"flow{i}_delivered_packets" for i in range(c.flows))]
    if "mean_queue_packets" not in names and c.params.get("queue") != "dsRED":
        names = [*names, "mean_queue_packets"]
    rows = []
    for name in names:
        a, b = outcome.ns2.get(name), outcome.ns3.get(name)
        if a is None:
            continue
        label = name.replace("_packets", "")
        if b is None:
            rows.append((c.name, label, _fmt(a), "", ""))
            continue
        diff = b - a
        text = f"{diff:+.2f}" if c.seeds else f"{_fmt(diff) if diff < 0 else '+' + _fmt(diff)}"
        if name in outcome.intervals:
            low, high = outcome.intervals[name]
            text += f" [{low:+.2f}, {high:+.2f}]"
        if not c.expected and name not in judged:
            label += " (shown)"
        rows.append((c.name, label, _fmt(a), _fmt(b), text))
    return rows


def rst_table(outcomes: list[Outcome]) -> str:
    """The outcomes as an RST csv-table: case | metric | ns-2 | module | difference | verdict
    (seeded cases: means over the seeds, the difference with its interval)."""
    out = [".. csv-table::", '   :header: "Case", "Metric", "ns-2", "Module", "Difference", '
           '"Verdict"', ""]
    for outcome in outcomes:
        for i, row in enumerate(table_rows(outcome)):
            cells = (row[0] if i == 0 else "", *row[1:], outcome.verdict if i == 0 else "")
            out.append("   " + ", ".join(f'"{v}"' for v in cells))
    return "\n".join(out)


def _literals(text: str) -> str:
    """ns-2's names (``limit_``, ``add_to_WM``) as RST literals: a trailing underscore is a
    reference in RST."""
    return re.sub(r"(?<![`\w])(\w*_\w*)(?![`\w])", lambda m: f"``{m.group(1)}``"
                  if m.group(1).endswith("_") or "_to_" in m.group(1) else m.group(1), text)


def rst_cases(outcomes: list[Outcome]) -> str:
    """The cases as an RST definition list (what each row runs, and what it states), then each
    reason a metric is shown and not judged, once, with the rows it applies to."""
    out, notes = [], {}
    for o in outcomes:
        c = o.case
        first = c.what.split()[0]
        text = (c.what if first != first.lower() else c.what[0].upper() + c.what[1:]) + "."
        if c.seeds:
            text += f" Judged over {c.seeds} seeds."
        if c.expected:
            text += f" Expected difference: {c.expected}."
        if c.needs:
            text += f" Runs where the model has ``{c.needs}``."
        out.append(f"``{c.name}``\n  "
                   + textwrap.fill(_literals(text), 96, subsequent_indent="  "))
        if c.note:
            notes.setdefault(c.note, []).append(c.name)
    out.append("")
    for note, names in notes.items():
        rows = ", ".join(f"``{n}``" for n in names)
        out.append(textwrap.fill(_literals(f"In {rows} (metrics marked shown): {note}."), 100)
                   + "\n")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    """Run the cases named in ``argv`` (all by default; a model name selects its cases) and
    print, per model, the cases and their table as RST."""
    wanted = [c for c in CASES if not argv or c.name in argv or c.model in argv]
    outcomes = []
    with tempfile.TemporaryDirectory() as tmp:
        for c in wanted:
            ns3 = not c.needs or feature_present(c.needs)
            outcomes.append(run_case(c, Path(tmp), ns3=ns3))
            print(f"{c.name}: {outcomes[-1].verdict} {'; '.join(outcomes[-1].failures)}",
                  file=sys.stderr)
    for model in dict.fromkeys(o.case.model for o in outcomes):
        mine = [o for o in outcomes if o.case.model == model]
        print(f"\n{model}\n\n{rst_cases(mine)}\n\n{rst_table(mine)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
