# SPDX-License-Identifier: GPL-2.0-only
"""Figures and claims of CIOQ-RED (Sundararajan, Zhao, Youssef-Massaad and Médard, ns-2).

The paper compares DropTail, RED and its CIOQ-RED (RED on ν·q_input + q_output) at the
outputs of 4 × 4 and 16 × 16 CIOQ switches carrying random TCP sessions; the campaign
``campaigns/cioq-red.toml`` runs the ``cioq-red-evaluation`` example. What is written
(``out_dir``), each figure as PNG, PDF and CSV:

``fig2`` / ``fig4``
    average input and output queue lengths vs speedup, 4 × 4 with 800 sessions /
    16 × 16 with 6400 sessions;
``fig3`` / ``fig5``
    loss rate and utilisation vs load (sessions) at s = 1.1 / 1.4;
``fig2-islip`` … ``fig5-islip``
    the same with an iSLIP crossbar instead of the paper's N² concurrent internal links;
``nu-tradeoff``
    CIOQ-RED's output backlog against its loss rate over the input weight ν (the
    trade-off the paper leaves to future work), RED (ν = 0) and DropTail for reference.

Every point is a mean over seeds with its 95 % Student-t interval. The claims compare
the paper's statements (its Section V text; its figures have no printed numbers) with
ours under rules stated in each claim.

The package splits the paper's numbers (:mod:`.paper`), the analysis of the runs
(:mod:`.analysis`), the figures (:mod:`.plots`) and the claims (:mod:`.claims`);
:func:`make_figures` puts them together.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from qdisclab.figures import FigureSet
from qdisclab.figures.cioq_red.analysis import (
    CALIBRATION_HEADER,
    INPUT,
    LOSS,
    OQ_QDISCS,
    OUTPUT,
    OUTPUT_QUEUED,
    UTIL,
    Study,
    calibration_rows,
    choose_setting,
    loss_differences,
    on_ns2,
    resolved,
    run_params,
    setting_of,
    studies_by_setting,
)
from qdisclab.figures.cioq_red.claims import (
    CLAIM_IDS,
    PAPER_LOSS,
    band_position,
    load_claims,
    loss_cause,
    nu_claims,
    output_queued_claims,
    speedup_claims,
)
from qdisclab.figures.cioq_red.paper import (
    FABRICS,
    FABRIC_LABELS,
    FIGURE_NUMBER,
    LABELS,
    NAME,
    PAPER_NU,
    PAPER_SESSIONS,
    PAPER_SPEEDUP,
    PAPER_SPEEDUP_RANGE,
    QDISCS,
    READINGS,
    READING_LABELS,
    SIZES,
)
from qdisclab.figures.cioq_red.plots import (
    COLORS,
    LOAD_HEADER,
    NU_HEADER,
    SPEEDUP_HEADER,
    VARIANT_HEADER,
    load_figure,
    load_rows,
    loss_variant_rows,
    nu_figure,
    nu_rows,
    output_queued_load_figure,
    sensitivity_figure,
    speedup_figure,
    speedup_rows,
    variant_figure,
)
from qdisclab.figures.common import figure_artifact, load_campaign_runs, variants_db

#: The entry point, and the names the tests and other modules use.
__all__ = [
    "CLAIM_IDS", "COLORS", "INPUT", "LABELS", "LOSS", "OUTPUT", "PAPER_LOSS", "PAPER_NU", "PAPER_SESSIONS",
    "QDISCS", "READING_LABELS", "Study", "UTIL", "band_position", "choose_setting",
    "loss_differences", "make_figures", "on_ns2", "resolved", "run_params", "setting_of",
]


# ----------------------------------------------------------------- entry point


def make_figures(db_path: Path, out_dir: Path) -> FigureSet:
    """Write fig2–fig5, their iSLIP variants and the ν trade-off from ``db_path``."""
    meta, runs = load_campaign_runs(db_path)
    study = Study(runs)
    result = FigureSet(NAME, out_dir)
    mode = meta.get("mode", "full")
    result.notes.append(f"{len(runs)} successful runs ({mode} campaign), {len(study.seeds)}"
                        f" seed(s): {', '.join(map(str, study.seeds))}.")
    if mode == "quick":
        result.notes.append("Quick campaign: the 4×4 switch only, three points per sweep; the"
                            " verdicts are indicative only.")
    for (fabric, ports, sessions), walls in sorted(study.wall.items()):
        if sessions == PAPER_SESSIONS.get(ports):
            result.notes.append(
                f"Wall time of a {ports}×{ports} run with {sessions} sessions ({fabric}):"
                f" mean {np.mean(walls):.1f} s, max {np.max(walls):.1f} s over {len(walls)}"
                " runs.")
    output_queued = [p for p in SIZES if study.loads(OUTPUT_QUEUED, p, OQ_QDISCS)]
    if output_queued:
        result.notes.append(
            "Topology (ns-2.35, validation/ns2/cioq-red-evaluation.tcl): ns-2.35 has no CIOQ"
            " switch, so N sources and N sinks, each on its own 1 Mb/s duplex link, hang on one"
            " output-queued router (the CIOQ switch in the limit of speedup N, no input"
            " queueing), DropTail or Queue/RED (20 packets) at each output, acknowledgements on"
            " the links' other directions; loss rate = packets dropped at the outputs / packets"
            " arriving at them; utilisation = bits the outputs sent / (N × 1 Mb/s × 100 s).")
    if not output_queued or any(key[0] != OUTPUT_QUEUED for key in study.cells):
        result.notes.append(
            "Topology: N sources and N sinks, each on its own 1 Mb/s link to a 2N-port"
            " CioqSwitchNetDevice (input buffers: 20 packets per VOQ), acknowledgements over a"
            " second, uncongested switch; input queue = mean over inputs of the time-averaged"
            " packets in its VOQs (= the mean q_input of eq. (2)); loss rate = packets dropped in"
            " the switch / packets arriving at it; utilisation = bits delivered to the sinks /"
            " (N × 1 Mb/s × 100 s).")

    for fabric in FABRICS:
        suffix = "" if fabric == "Paper" else "-islip"
        for ports in SIZES:
            for kind in ("speedup", "load"):
                number = FIGURE_NUMBER[(kind, ports)]
                stem = f"fig{number}{suffix}"
                xs = (study.speedups if kind == "speedup" else study.loads)(fabric, ports)
                if not xs:
                    continue
                if kind == "speedup":
                    fig = speedup_figure(study, fabric, ports, number)
                    header, rows = SPEEDUP_HEADER, speedup_rows(study, fabric, ports)
                    title = (f"Figure {number}: average input and output queue lengths vs"
                             f" speedup, {ports}×{ports}")
                    caption = (f"{PAPER_SESSIONS[ports]} TCP sessions over 100 s; speedups"
                               f" {xs[0]:g} … {xs[-1]:g} (the paper:"
                               f" {PAPER_SPEEDUP_RANGE[ports][0]:g} …"
                               f" {PAPER_SPEEDUP_RANGE[ports][1]:g}); {FABRIC_LABELS[fabric]}.")
                else:
                    fig = load_figure(study, fabric, ports, number)
                    header, rows = LOAD_HEADER, load_rows(study, fabric, ports)
                    title = (f"Figure {number}: loss rate and utilisation vs load,"
                             f" {ports}×{ports}, s = {PAPER_SPEEDUP[ports]}")
                    caption = (f"{xs[0]} … {xs[-1]} TCP sessions over 100 s (the paper:"
                               f" {PAPER_SESSIONS[ports] // 10} …"
                               f" {PAPER_SESSIONS[ports]}); {FABRIC_LABELS[fabric]}.")
                if fabric != "Paper":
                    title += " (iSLIP, beyond the paper)"
                result.artifacts.append(
                    figure_artifact(fig, out_dir, stem, header, rows, title, caption))

    sizes = [p for p in SIZES if len(study.nus("Paper", p)) >= 2]
    if sizes:
        result.artifacts.append(figure_artifact(
            nu_figure(study, sizes), out_dir, "nu-tradeoff", NU_HEADER, nu_rows(study, sizes),
            "Beyond the paper: output backlog vs loss rate over ν",
            "CIOQ-RED at the operating point of Figs. 3/5 (full load) for each input weight"
            " ν; ν = 0 is RED's run (CIOQ-RED with ν = 0 drops exactly as RED); DropTail for"
            " reference."))

    # The variant campaign: calibration (sensitivity figure) and C7's cause.
    # The module's runs' setting (ns-2.35's router has no input buffers); without any, the
    # plan's first reading, the host link delay unknown.
    settings = [setting_of(run_params(run)) for run in runs if run.metrics and not on_ns2(run)]
    primary_setting = (max(set(settings), key=settings.count) if settings
                       else READINGS[0] + ("",))
    variants_path = variants_db(db_path, NAME)
    variants = None
    if variants_path is not None:
        variant_runs = [run for run in load_campaign_runs(variants_path)[1]
                        if run_params(run)["ports"] == 4]
        variants = studies_by_setting(variant_runs)
        rows = calibration_rows(variants)
        chosen = choose_setting(rows)
        if rows:
            result.artifacts.append(figure_artifact(
                sensitivity_figure(rows), out_dir, "sensitivity", CALIBRATION_HEADER, rows,
                "Sensitivity: the 4×4 headline vs the input buffer reading and the link delay",
                "Calibration grid of campaigns/cioq-red-variants.toml (4×4, 800 sessions, three"
                " seeds): per setting the calibration metrics S14 (input at s = 2.1 ≤ 10 % of"
                " s = 1.1) and S18 (input at s = 1.5 ≥ 25 %), and at s = 1.1 CIOQ-RED's output"
                " queue relative to RED's and the loss-rate difference; the plan's rule picks"
                " the first reading meeting both, then the shortest delay."))
            result.notes.append(
                "Calibration (S14, S18; plan in doc/reproductions/cioq-red.rst): "
                + "; ".join(f"{row[2]}, {row[3]}: S14 {row[4]:.1%}, S18 {row[5]:.1%}"
                            f"{' (chosen)' if row[13] else ''}" for row in rows)
                + (f". Chosen: {READING_LABELS.get(chosen[:2], '?')}, host links {chosen[2]}"
                   f" (final campaign: {READING_LABELS.get(primary_setting[:2], '?')},"
                   f" {primary_setting[2]})." if chosen else ". No setting meets both."))
    variant_rows = loss_variant_rows(study, variants or {}, primary_setting)
    if variants is not None and any(row[0] != "primary" for row in variant_rows):
        result.artifacts.append(figure_artifact(
            variant_figure(variant_rows), out_dir, "variant-loss", VARIANT_HEADER,
            variant_rows, "C7's cause: the loss-rate difference with the input term changed",
            "4×4, s = 1.1, loads 80 … 800, three seeds: CIOQ-RED − RED loss rate, paired over"
            " seeds, for the primary scenario, its loss counted over the packets the sources"
            " sent, the other input buffer readings (loss-buffer: the input queue CIOQ-RED"
            " adds is bounded lower) and ν = 0.25 (loss-nu: the input term halved)."))
    cause = loss_cause(variant_rows, variants, primary_setting)

    # ns-2.35's output-queued router: Figs. 3 / 5 with DropTail and RED, and the claims.
    for ports in output_queued:
        number = FIGURE_NUMBER[("load", ports)]
        xs = study.loads(OUTPUT_QUEUED, ports, OQ_QDISCS)
        result.artifacts.append(figure_artifact(
            output_queued_load_figure(study, ports, number), out_dir, f"fig{number}",
            LOAD_HEADER, load_rows(study, OUTPUT_QUEUED, ports, OQ_QDISCS),
            f"Figure {number} on ns-2.35: loss rate and utilisation vs load, {ports}×{ports}"
            " output-queued router",
            f"{xs[0]} … {xs[-1]} TCP sessions over 100 s; ns-2.35 has no CIOQ switch, so the"
            f" router is the CIOQ switch's limit s = {ports} (no input queueing), with DropTail"
            " and RED only (no CIOQ-RED)."))
        result.claims += output_queued_claims(study, ports)

    for ports in SIZES:
        if any(k[1] == ports and k[0] == "Paper" for k in study.cells):
            result.claims += speedup_claims(study, ports)
            result.claims += load_claims(study, ports,
                                          cause if ports == 4 else ("variant not run (the"
                                          " variants are 4×4; see C7's)", None))
            result.claims += nu_claims(study, ports)
    return result
