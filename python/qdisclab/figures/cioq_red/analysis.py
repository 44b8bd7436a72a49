# SPDX-License-Identifier: GPL-2.0-only
"""The CIOQ-RED reproduction's numbers from the runs: parameters, the runs by setting
(:class:`Study`), input-queue ratios and paired loss differences, and the calibration
(statements S14 and S18, the plan's choice rule)."""

from __future__ import annotations

import math
from collections import ChainMap, defaultdict
from collections.abc import Iterable, Mapping

import numpy as np

from qdisclab.campaign.store import RunRecord
from qdisclab.figures.cioq_red.paper import (
    PAPER_NU,
    PAPER_SESSIONS,
    PAPER_SPEEDUP,
    QDISCS,
    READINGS,
    READING_LABELS,
)
from qdisclab.figures.common import Estimate, RunParams, compare_paired, t_interval


# ----------------------------------------------------------------- metrics

INPUT, OUTPUT = "mean_input_queue_packets", "mean_output_queue_packets"
LOSS, UTIL = "loss_rate", "utilization"


# ----------------------------------------------------------------- the runs

Key = tuple[str, int, str, float, int, float]  # fabric, ports, queueDisc, speedup, sessions, nu

#: The fabric of the runs on ns-2.35 (``validation/ns2/cioq-red-evaluation.tcl``): ns-2 has no
#: CIOQ switch, so the program is an output-queued router, the CIOQ switch in the limit of
#: speedup N (no input queueing); its cells have speedup = ports.
OUTPUT_QUEUED = "OutputQueued"
#: The queue discs ns-2.35 has (it has no CIOQ-RED).
OQ_QDISCS = ("FIFO", "RED")


def on_ns2(run: RunRecord) -> bool:
    """Whether ``run`` is ns-2.35's (the output-queued router)."""
    return str(run.ns3_version or "").startswith("ns-2")


def run_params(run: RunRecord) -> Mapping:
    """Every parameter a stored run had, as the program reported it (:class:`RunParams`). An
    ns-2.35 run is on the output-queued router (validation/ns2/cioq-red-evaluation.tcl), the
    CIOQ switch in the limit of speedup N, which its program reports no fabric or speedup of:
    fabric :data:`OUTPUT_QUEUED`, speedup = ports."""
    params = RunParams(run)
    if not on_ns2(run):
        return params
    return ChainMap({"fabric": OUTPUT_QUEUED, "speedup": float(params["ports"])}, params)


def resolved(params: Mapping) -> dict:
    """The parameters of a run used here (every parameter it had: a metrics report's
    ``params``, or :func:`run_params`), parsed; ν is 0 for the queue discs other than
    CIOQ-RED. ns-2.35's program reports the ``sessions=0`` it ran with: ``load`` times the
    paper's sessions, as the example does."""
    ports = int(params["ports"])
    queue = str(params["queueDisc"])
    sessions = int(params["sessions"])
    if sessions == 0:
        sessions = round(float(params["load"]) * PAPER_SESSIONS.get(ports, 0))
    nu = float(params["nu"]) if queue == "CIOQ-RED" else 0.0
    return {"ports": ports, "queueDisc": queue, "fabric": str(params["fabric"]),
            "speedup": round(float(params["speedup"]), 6), "sessions": sessions, "nu": nu}


class Study:
    """The runs by (fabric, ports, queueDisc, speedup, sessions, ν) and seed."""

    def __init__(self, runs: Iterable[RunRecord]):
        self.cells: dict[Key, dict[int, dict]] = defaultdict(dict)
        self.wall: dict[tuple[str, int, int], list[float]] = defaultdict(list)
        for run in runs:
            if not run.metrics:
                continue
            p = resolved(run_params(run))
            key = (p["fabric"], p["ports"], p["queueDisc"], p["speedup"], p["sessions"], p["nu"])
            self.cells[key][run.seed] = run.metrics
            if run.wall_time_s is not None:
                self.wall[(p["fabric"], p["ports"], p["sessions"])].append(run.wall_time_s)
        self.seeds = sorted({seed for cell in self.cells.values() for seed in cell})

    def estimate(self, key: Key, metric: str) -> Estimate:
        """Mean and 95 % interval over seeds of ``metric`` in one cell."""
        return t_interval(v for m in self.cells.get(key, {}).values()
                          if (v := m.get(metric)) is not None)

    def paired(self, a: Key, b: Key, metric: str) -> tuple[list[float], list[float]]:
        """``metric`` of cells ``a`` and ``b`` over the seeds both ran, in seed order."""
        seeds = sorted(set(self.cells.get(a, {})) & set(self.cells.get(b, {})))
        return ([self.cells[a][seed].get(metric, math.nan) for seed in seeds],
                [self.cells[b][seed].get(metric, math.nan) for seed in seeds])

    def compare(self, a: Key, b: Key, metric: str) -> tuple[str, Estimate]:
        """Paired comparison of ``metric`` in cell ``a`` against cell ``b``
        (:func:`qdisclab.figures.common.compare_paired`); "not run" without common seeds."""
        xs, ys = self.paired(a, b, metric)
        if not xs:
            return "not run", t_interval([])
        return compare_paired(xs, ys)

    def default_key(self, fabric: str, ports: int, queue: str, *, speedup: float | None = None,
                    sessions: int | None = None, nu: float | None = None) -> Key:
        """A cell at the paper's operating point, with the given coordinates changed."""
        if nu is None:
            nu = PAPER_NU[ports] if queue == "CIOQ-RED" else 0.0
        if speedup is None:
            speedup = float(ports) if fabric == OUTPUT_QUEUED else PAPER_SPEEDUP[ports]
        return (fabric, ports, queue, round(speedup, 6),
                PAPER_SESSIONS[ports] if sessions is None else sessions, nu)

    def speedups(self, fabric: str, ports: int) -> list[float]:
        """Speedups run with all three queue discs at the paper's load."""
        found = [{k[3] for k in self.cells if k[:3] == (fabric, ports, q)
                  and k[4] == PAPER_SESSIONS[ports]
                  and k[5] == (PAPER_NU[ports] if q == "CIOQ-RED" else 0.0)} for q in QDISCS]
        return sorted(set.intersection(*found)) if found else []

    def loads(self, fabric: str, ports: int, queues: tuple[str, ...] = QDISCS) -> list[int]:
        """Session counts run with all of ``queues`` at the paper's speedup (s = N for the
        output-queued router)."""
        speedup = self.default_key(fabric, ports, queues[0])[3]
        found = [{k[4] for k in self.cells if k[:4] == (fabric, ports, q, speedup)
                  and k[5] == (PAPER_NU[ports] if q == "CIOQ-RED" else 0.0)} for q in queues]
        return sorted(set.intersection(*found)) if found else []

    def nus(self, fabric: str, ports: int) -> list[float]:
        """CIOQ-RED input weights run at the paper's operating point; 0 when RED was run
        there (CIOQ-RED with ν = 0 is RED, drop for drop)."""
        found = {k[5] for k in self.cells
                 if k[:5] == self.default_key(fabric, ports, "CIOQ-RED")[:5]}
        if self.default_key(fabric, ports, "RED") in self.cells:
            found.add(0.0)
        return sorted(found)

    def nu_key(self, fabric: str, ports: int, nu: float) -> Key:
        """The cell of CIOQ-RED with input weight ``nu`` at the paper's operating point (RED's
        for ν = 0 unless CIOQ-RED was run with ν = 0)."""
        key = self.default_key(fabric, ports, "CIOQ-RED", nu=nu)
        if nu == 0 and key not in self.cells:
            return self.default_key(fabric, ports, "RED")
        return key

    def series(self, fabric: str, ports: int, queue: str, axis: str, xs: list,
               metric: str) -> list[Estimate]:
        """Estimates of ``metric`` along ``axis`` ("speedup" or "load")."""
        keys = [self.default_key(fabric, ports, queue, **{axis if axis == "speedup" else
                                                           "sessions": x}) for x in xs]
        return [self.estimate(k, metric) for k in keys]


#: Calibration statements (4 × 4, 800 sessions, input queue averaged over the three queue
#: discs): S14 input(s = 2.1) ≤ 10 % of input(s = 1.1); S18 input(s = 1.5) ≥ 25 % of it.
S14_SPEEDUP, S14_MAX = 2.1, 0.10
S18_SPEEDUP, S18_MIN = 1.5, 0.25


# ----------------------------------------------------------------- calibration

BASE_SPEEDUP = 1.1


def input_ratios(study: Study, fabric: str = "Paper", ports: int = 4) -> dict[float, float]:
    """The input queue at each speedup of the paper's load relative to s = 1.1, averaged over
    the three queue discs (the calibration metrics of S14 and S18)."""
    def mean_input(speedup: float) -> float:
        values = [study.estimate(study.default_key(fabric, ports, q, speedup=speedup),
                                 INPUT).mean for q in QDISCS]
        return float(np.mean(values)) if all(map(math.isfinite, values)) else math.nan

    base = mean_input(BASE_SPEEDUP)
    return {s: mean_input(s) / base if base > 0 else math.nan
            for s in study.speedups(fabric, ports)}


def loss_differences(study: Study, ports: int, fabric: str = "Paper", *,
                     nu: float | None = None, red: Study | None = None,
                     metric: str = LOSS) -> list[tuple[int, str, Estimate]]:
    """Per load: the paired comparison of CIOQ-RED's ``metric`` (input weight ``nu``, default
    the paper's) against RED's (from ``red``, default the same study), and the paired interval
    of the difference CIOQ-RED − RED."""
    red = red or study
    out = []
    for sessions in sorted({k[4] for k in study.cells
                            if k[:4] == (fabric, ports, "CIOQ-RED", round(PAPER_SPEEDUP[ports], 6))
                            and k[5] == (PAPER_NU[ports] if nu is None else nu)}):
        a = study.default_key(fabric, ports, "CIOQ-RED", sessions=sessions, nu=nu)
        b = red.default_key(fabric, ports, "RED", sessions=sessions)
        seeds = sorted(set(study.cells.get(a, {})) & set(red.cells.get(b, {})))
        if not seeds:
            continue
        xs = [study.cells[a][seed].get(metric, math.nan) for seed in seeds]
        ys = [red.cells[b][seed].get(metric, math.nan) for seed in seeds]
        kind, diff = compare_paired(xs, ys)
        out.append((sessions, kind, diff))
    return out


# ----------------------------------------------------------------- variants

#: The plan's cause-demonstrating variants of C7 (4 × 4, s = 1.1, loads 80 … 800).
NU_VARIANT = 0.25

Setting = tuple[str, str, str]  # inputBuffer, voqLimit, linkDelay


def setting_of(params: Mapping) -> Setting:
    """A run's input buffer reading and host link delay (every parameter it had: a metrics
    report's ``params``, or :func:`run_params`)."""
    return (str(params["inputBuffer"]), str(params["voqLimit"]), str(params["linkDelay"]))


def delay_ms(delay: str) -> float:
    return float(delay.removesuffix("ms")) if delay.endswith("ms") else math.nan


def studies_by_setting(runs: Iterable[RunRecord]) -> dict[Setting, Study]:
    """The runs split by input buffer reading and link delay, a Study each."""
    groups: dict[Setting, list[RunRecord]] = defaultdict(list)
    for run in runs:
        groups[setting_of(run_params(run))].append(run)
    return {setting: Study(group) for setting, group in groups.items()}


CALIBRATION_HEADER = ("inputBuffer", "voqLimit", "reading", "linkDelay", "s14_ratio",
                      "s18_ratio", "meets_s14", "meets_s18", "output_ratio_s1.1",
                      "output_cioqred", "output_red", "loss_diff_s1.1", "loss_diff_ci95",
                      "chosen", "n")


def calibration_rows(studies: dict[Setting, Study]) -> list[list]:
    """Per setting of the calibration grid: the calibration metrics (S14, S18) and, at
    s = 1.1 with 800 sessions, the headline: CIOQ-RED's output queue relative to RED's and
    the loss-rate difference CIOQ-RED − RED (paired over seeds). The chosen setting (the
    plan's rule, :func:`choose_setting`) is marked."""
    rows = []
    for setting in sorted(studies, key=_setting_order):
        study = studies[setting]
        if not {round(S14_SPEEDUP, 6), round(S18_SPEEDUP, 6)} <= set(
                study.speedups("Paper", 4)):
            continue
        ratio = input_ratios(study)
        s14, s18 = ratio[round(S14_SPEEDUP, 6)], ratio[round(S18_SPEEDUP, 6)]
        red = study.estimate(study.default_key("Paper", 4, "RED"), OUTPUT)
        cioq = study.estimate(study.default_key("Paper", 4, "CIOQ-RED"), OUTPUT)
        _, diff = study.compare(study.default_key("Paper", 4, "CIOQ-RED"),
                                study.default_key("Paper", 4, "RED"), LOSS)
        rows.append([setting[0], setting[1], READING_LABELS.get(setting[:2], "?"), setting[2],
                     s14, s18, s14 <= S14_MAX, s18 >= S18_MIN,
                     cioq.mean / red.mean if red.mean > 0 else math.nan, cioq.mean, red.mean,
                     diff.mean, diff.half_width, False, red.n])
    chosen = choose_setting(rows)
    for row in rows:
        row[13] = chosen is not None and tuple(row[:2]) + (row[3],) == chosen
    return rows


def _setting_order(setting: Setting) -> tuple:
    reading = READINGS.index(setting[:2]) if setting[:2] in READINGS else len(READINGS)
    return reading, delay_ms(setting[2])


def choose_setting(rows: list[list]) -> Setting | None:
    """The plan's choice rule, fixed before the runs: among the settings meeting S14 and S18,
    the first reading of :data:`READINGS`, then the shortest link delay; None when none
    meets both."""
    meeting = [(row[0], row[1], row[3]) for row in rows if row[6] and row[7]]
    return min(meeting, key=_setting_order) if meeting else None
