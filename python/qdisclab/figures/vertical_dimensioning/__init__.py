# SPDX-License-Identifier: GPL-2.0-only
"""Figures and claims of Vertical Dimensioning's simulations (Bakiras et al., §IV, ns-2).

Both figures come from ``campaigns/vertical-dimensioning.toml``, run with the
``vertical-dimensioning-evaluation`` example on the reconstructed Fig. 3 parking lot:

``fig4``
    reference flows sending CBR UDP at 125·i kb/s: the mean, 99th-percentile and
    maximum end-to-end delay of each flow (x: its weight i), per scheduler, one row
    per buffer size; mean ± 95 % Student-t interval over the seeds;
``fig5``
    reference flows running long-lived TCP: the throughput of each flow per
    scheduler, one panel per buffer size, beside the ideal weighted max-min share
    (:func:`expected_ideal`); and two summaries over the buffer size, the mean
    relative error against the ideal and the weight-1 flow's share of its ideal.

The ideal is that of the fluid (GPS) model with the paper's traffic: at any moment
every TCP flow wants as much as it can get and every background source that is on
wants its 250 kb/s; the weighted max-min allocation of that moment
(:func:`weighted_max_min`, progressive filling over the core links) is averaged over
the on/off states, each source on independently with the probability its measured
offered load gives (offered / (n · rate); 1/2 nominally). Sources whose on periods
exceed their fair share (250 kb/s against 125 kb/s per unit of weight when all are
backlogged) are cut to it while on, so the background gets less than its mean offered
load and the reference flows more than the static 125·i kb/s.

The schedulers are whatever ``queueDisc`` names the runs have: VD and DRR are the
paper's; ``SCHEDULER_STYLES`` gives known ones a fixed colour, others get the next.

The campaign runs two topologies (``accessDelay`` = ``coreDelay``): 1 ms links (the paper's;
``fig4``, ``fig5``) and 5 ms links (``fig4-5ms``, ``fig5-5ms``), where the paper's 12500 B is
25 % of the BDP. Every buffer is labelled as a fraction of *our* BDP, computed from the runs'
parameters (:func:`bdp_bytes`). Each claim is judged in the 5 ms topology (the paper's regime)
and shows the 1 ms verdict beside it. Cases the paper counts with "in all cases" or "better"
are classified per seed pair (:func:`qdisclab.figures.common.compare_paired`): wins, ties and
losses. The variant campaign (``campaigns/vertical-dimensioning-variants.toml``), when its
database exists, gives the causes of the "partly" and "disagree" verdicts, the ``sensitivity``
figure's delay sweep and the ``variant-fig4`` / ``variant-fig5`` figures.

The package splits the paper's numbers (:mod:`.paper`), the analysis of the runs
(:mod:`.analysis`), the figures (:mod:`.plots`) and the claims (:mod:`.claims`);
:func:`make_figures` puts them together.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from qdisclab.figures import VERDICTS, Claim, FigureSet
from qdisclab.figures.common import figure_artifact, load_campaign_runs, runs_note, variants_db
from qdisclab.figures.vertical_dimensioning.analysis import (
    PRIMARY_DELAY,
    SCHEDULER_STYLES,
    TOPOLOGY_DELAYS,
    Study,
    Variants,
    base_rtt_ms,
    bdp_bytes,
    estimated_rtt_ms,
    expected_ideal,
    main_variant,
    parse_ms,
    resolved,
    run_ideal,
    weighted_max_min,
    weights_of,
)
from qdisclab.figures.vertical_dimensioning.claims import (
    Tally,
    add_causes,
    delay_name,
    fig4_claims,
    fig5_claims,
    lower_is_better,
    merge_claims,
)
from qdisclab.figures.vertical_dimensioning.paper import NAME, PAPER_COMPARATORS
from qdisclab.figures.vertical_dimensioning.plots import (
    FIG4_HEADER,
    FIG5_HEADER,
    SENSITIVITY_HEADER,
    VARIANT4_HEADER,
    VARIANT5_HEADER,
    fig4_figure,
    fig4_rows,
    fig5_figure,
    fig5_rows,
    sensitivity_figure,
    sensitivity_rows,
    variant4_figure,
    variant4_rows,
    variant5_figure,
    variant5_rows,
)

#: The entry point, and the names the tests and other modules use.
__all__ = [
    "PAPER_COMPARATORS", "SCHEDULER_STYLES", "Tally", "base_rtt_ms", "bdp_bytes",
    "estimated_rtt_ms", "expected_ideal", "lower_is_better", "make_figures", "parse_ms", "resolved",
    "run_ideal", "topology_tally", "weighted_max_min", "weights_of",
]


# ----------------------------------------------------------------- entry point


def topology_tally(claims: dict[float, list[Claim]]) -> str:
    """The verdict counts of each topology: the claims' verdicts are the 5 ms topology's; the
    paper's own (1 ms) topology's verdicts are beside them in each claim's numbers."""
    parts = []
    for delay in sorted(claims, key=lambda d: d != PRIMARY_DELAY):
        counts = Counter(c.verdict for c in claims[delay])
        role = ("the claims' verdicts where both judge" if delay == PRIMARY_DELAY
                else "the paper's topology")
        parts.append(f"{delay_name(delay)} ({role}): " + ", ".join(
            f"{counts[v]} {v}" for v in VERDICTS if counts.get(v)))
    changed = sorted((c.id for c in claims.get(PRIMARY_DELAY, [])
                      if any(o.id == c.id and o.verdict != c.verdict
                             for o in claims.get(1.0, []))), key=lambda i: int(i[1:]))
    return ("Verdict counts per topology: " + "; ".join(parts)
            + (f". Claims whose verdict differs between them: {', '.join(changed)}."
               if changed else "."))


def make_figures(db_path: Path, out_dir: Path) -> FigureSet:
    """Write fig4 and fig5 for both topologies, the sensitivity and variant figures, and the
    claims, from the database ``db_path`` (and the variant campaign's, if it exists)."""
    meta, runs = load_campaign_runs(db_path)
    result = FigureSet(NAME, out_dir)
    mode = meta.get("mode", "full")
    main = {(reference, delay): Study.of(runs, reference, main_variant(delay))
            for reference in ("cbr", "tcp") for delay in TOPOLOGY_DELAYS}
    main = {k: study for k, study in main.items() if study.cells}
    variant_path = variants_db(db_path, NAME) if mode == "full" else None
    variants = Variants(main, load_campaign_runs(variant_path)[1] if variant_path else None)
    result.notes.append(runs_note(runs, mode, "; ".join(
        f"{reference}, {delay_name(delay)}: {', '.join(study.schedulers)} ×"
        f" {len(study.sizes)} buffer(s)" for (reference, delay), study in main.items())))
    if mode == "quick":
        result.notes.append("Quick campaign: 20 s runs, fewer seeds and settings; the verdicts"
                            " are indicative only.")
    if any(study.per_queue_limit for study in main.values()):
        result.notes.append(
            "ns-2.35's runs (validation/ns2/vertical-dimensioning-evaluation.tcl): its own"
            " Queue/SRR, whose flow queues each drop arrivals at limit_ packets (no shared"
            " buffer, no stealing); a run at limit_ L is placed at L x 1000 B and labelled by"
            " L. ns-2.35 has no VD, Aliquem or WF2Q+ and no weighted per-flow DRR: the claims"
            " that compare VD with another scheduler are not evaluated on it.")
    result.notes += [
        "Topology reconstructed from the text (the paper's Fig. 3 did not survive): a parking"
        " lot n0 – n1 = n2 = n3 – n4 with n5 → n6 crossing n1 = n2 and n7 → n8 crossing"
        " n2 = n3; core links 10 Mb/s, access links 100 Mb/s. At 10 Mb/s the reference flows'"
        " 125·i kb/s are exactly the static weighted share of a link with all 80 weight units"
        " backlogged, and the mean offered load of each core link is 10 Mb/s.",
        "Two topologies: 1 ms on every link (the paper's; base RTT 8 ms, so its 12500 B is"
        " 125 % of our BDP) and 5 ms (base RTT 40 ms: 12500 B is 25 % of the BDP, as the paper"
        " says). Buffers are labelled as a fraction of our BDP; each claim's verdict is the 5 ms"
        " topology's, with the 1 ms numbers and verdict beside it. 2500 B (25 % at 1 ms) holds"
        " fewer than three full-size packets and judges no claim alone.",
        "Wins / ties / losses: per case, the paired 95 % interval of the difference over the"
        " common seeds lies on the paper's side of 0, holds 0, or lies on the other side.",
        "The ideal share is the fluid (GPS) weighted max-min share averaged over the"
        " background's on/off states (each source on with the probability its measured"
        " offered load gives); the static 125·i kb/s (every source at its mean rate) is drawn"
        " dashed and counted in the claims' text.",
        "SRR (Guo's Weight Spread Sequence, quantum 1000 B per visit) and Aliquem (q = 5,"
        " phi = 200 B per weight unit) steal from the head of the longest weighted queue, as"
        " DRR does; DRR-tail and FIFO are ours, not the paper's.",
        "Variant campaign: " + (f"{len(variants.runs)} runs" if variants.runs is not None
                                else "not run (causes say 'variant not run')") + ".",
    ]
    claims: dict[float, list[Claim]] = {}
    for delay in sorted(TOPOLOGY_DELAYS):
        stem = "" if delay == 1.0 else f"-{delay:g}ms"
        cbr, tcp = main.get(("cbr", delay)), main.get(("tcp", delay))
        claims[delay] = []
        if cbr is not None:
            result.artifacts.append(figure_artifact(
                fig4_figure(cbr), out_dir, f"fig4{stem}", FIG4_HEADER, fig4_rows(cbr),
                f"Figure 4: delay properties of the schedulers (UDP sources), {delay_name(delay)}",
                "Ten CBR reference flows n0 → n4 at 125·i kb/s, weight i, with 35 Pareto on/off"
                " background flows; end-to-end delay of the packets sent after the warm-up:"
                " mean, 99th percentile (nearest rank) and maximum per run, averaged over seeds;"
                f" our BDP {cbr.bdp_text}."))
        if cbr is not None or not any(k[0] == "cbr" for k in main):
            claims[delay] += fig4_claims(cbr or Study("cbr", {}, ()))
        if tcp is not None:
            result.artifacts.append(figure_artifact(
                fig5_figure(tcp), out_dir, f"fig5{stem}", FIG5_HEADER, fig5_rows(tcp),
                f"Figure 5: fairness properties of the schedulers (TCP sources),"
                f" {delay_name(delay)}",
                "Ten long-lived TCP reference flows n0 → n4 with weight i, with 35 Pareto on/off"
                " background flows; IPv4-layer throughput after the warm-up, against the ideal"
                " weighted max-min share (fluid model over the on/off states, black; the static"
                " 125·i kb/s dashed); ideal_nominal_kbps in the CSV takes the sources' nominal on"
                f" probability 1/2; our BDP {tcp.bdp_text}."))
        if tcp is not None or not any(k[0] == "tcp" for k in main):
            claims[delay] += fig5_claims(tcp or Study("tcp", {}, ()))
    result.claims += merge_claims(claims[PRIMARY_DELAY], claims[1.0],
                                  delay_name(PRIMARY_DELAY), delay_name(1.0))
    result.notes.append(topology_tally(claims))
    result.tallies = {
        f"{delay_name(delay)}" + (" (the paper's topology)" if delay != PRIMARY_DELAY else ""):
            {v: n for v, n in Counter(c.verdict for c in claims[delay]).items()}
        for delay in sorted(claims, key=lambda d: d != PRIMARY_DELAY)}
    both = {c.id for c in claims[PRIMARY_DELAY] if c.verdict != "not evaluated"}
    add_causes(result.claims, variants, {c.id: c.verdict for c in claims[1.0]
                                         if c.id in both and c.verdict != "not evaluated"})
    rows = sensitivity_rows(variants)
    if rows:
        result.artifacts.append(figure_artifact(
            sensitivity_figure(rows), out_dir, "sensitivity", SENSITIVITY_HEADER, rows,
            "Sensitivity: Fig. 5's headline against the buffer as a fraction of our BDP",
            "Mean |throughput / ideal − 1| over the ten TCP flows and the weights 1–2 flows'"
            " share of their ideal, per scheduler, against buffer / BDP: the 1 ms and 5 ms"
            " topologies (ten seeds) and the variant campaign's delay sweep (12500 B, 2-4 ms"
            " links, three seeds); and the estimated average RTT at 12500 B."))
    if variants.runs:
        rows4, rows5 = variant4_rows(variants), variant5_rows(variants)
        if rows4:
            result.artifacts.append(figure_artifact(
                variant4_figure(rows4), out_dir, "variant-fig4", VARIANT4_HEADER, rows4,
                "Variants of Fig. 4: the causes of VD's delay verdicts",
                "VD against each comparator over the (flow, statistic) delay cases, paired over"
                " seeds 1-3: without overflow (1,000,000 B), with --vdReturn=keep (and Fig. 2's"
                " rule on the same seeds), and with exponential on/off periods."))
        if rows5:
            result.artifacts.append(figure_artifact(
                variant5_figure(rows5), out_dir, "variant-fig5", VARIANT5_HEADER, rows5,
                "Variants of Fig. 5 at 12500 B",
                "Mean |throughput / ideal − 1| at 12500 B, seeds 1-3: the main runs, VD with"
                " --vdReturn=keep, and exponential on/off periods, in both topologies."))
    return result
