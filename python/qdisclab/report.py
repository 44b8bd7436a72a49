# SPDX-License-Identifier: GPL-2.0-only
"""One self-contained HTML page over every reproduction in ``results/`` (``qdisc-lab report``).

For each ``results/<name>/`` holding a campaign database, the report gives the
campaign's state (runs done, failed, timed out; seeds; ns-3 versions; module
revisions; sweep time) and, for a registered reproduction (see
:mod:`qdisclab.figures`), its figures and tables — drawn again from the database,
images embedded — beside the paper's numbers, and a table of the paper's
statements with ours and a verdict. The full campaign is shown when its database
has successful runs, else the ``--quick`` one (marked as such).

A directory without a database but with a saved figure set (``figures.json``, as
in the recorded results of ``doc/results/``) is reported from those files alone:
its figures, tables, claims and the campaign state the figure set recorded when it
was drawn (figure sets saved before they recorded it: the runs their first note
names). A compact database committed beside them takes over as above.

A full campaign with a row in the timing file (``doc/results/timing.csv``, see
:mod:`qdisclab.campaign.timing`) shows it: runs, CPU and wall seconds, cores, ns-3
flavour and revision; ``report`` also prints those rows.

The page is portable: CSV, PDF and database files are linked by paths relative to
the page, no path of the machine that ran the campaign is shown, and a verdict drawn
from a campaign with runs missing or failed says so in its cell.
"""

from __future__ import annotations

import base64
import html
import os
import re
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from qdisclab.campaign.store import ResultStore, StoreError, read_only
from qdisclab.campaign.timing import TIMING_CSV, read_timing
from qdisclab.context import REPO, RESULTS_DIR
from qdisclab.figures import (
    ATTRIBUTIONS,
    CAUSE_CLASSES,
    MANIFEST,
    REPRODUCTIONS,
    VERDICTS,
    VERDICTS_NEEDING_CAUSE,
    Artifact,
    CampaignState,
    Claim,
    FigureSet,
    Reproduction,
)

#: The databases a results directory may hold: the full campaign's, then the quick one's.
DATABASES = ("campaign.sqlite", "campaign-quick.sqlite")

#: The first note of a figure set saved before figure sets recorded their campaign
#: (:func:`qdisclab.figures.common.runs_note`): "12300 successful runs (full campaign),
#: 3 seed(s) (1, 2, 3)…" (or "…, seeds 1, 2, 3." or "…, 3 seed(s): 1, 2, 3."; a list
#: cut short by "…" is not taken).
_RUNS_NOTE = re.compile(r"(\d+) successful runs \((full|quick) campaign\)"
                        r"(?:, (?:\d+ )?seeds?(?:\(s\))?:? \(?((?:\d+, )*\d+)(?![\d,…]))?")


@dataclass
class Section:
    """One ``results/<name>/`` directory in the report."""

    name: str
    state: CampaignState | None
    db: Path | None = None  # None: reported from the recorded figure set alone
    reproduction: Reproduction | None = None
    figures: FigureSet | None = None
    error: str = ""
    #: The campaign's row of the timing file (full campaigns only), by column.
    timing: dict[str, str] | None = None


def _pick_database(directory: Path) -> Path | None:
    """The full campaign's database if it has successful runs, else the quick one."""
    found = [directory / file for file in DATABASES if (directory / file).is_file()]
    for db in found:
        try:
            with ResultStore(db, write=False) as store:
                if store.counts()["ok"]:
                    return db
        except StoreError:
            continue  # reported by the section that reads it
    return found[0] if found else None


def _database_mtime(db: Path) -> float:
    """When the database last changed (its WAL file included)."""
    files = [db, db.with_name(db.name + "-wal")]
    return max(f.stat().st_mtime for f in files if f.exists())


def _figures(reproduction: Reproduction, db: Path, state: CampaignState, out_dir: Path,
             redraw: bool) -> FigureSet:
    """The saved figure set when it is newer than the database or was drawn from the
    campaign state the database has now (a database and figures committed together:
    a checkout's file times say nothing), else drawn afresh."""
    manifest = out_dir / MANIFEST
    if not redraw and manifest.is_file():
        try:
            figures = FigureSet.load(out_dir)
            current = (manifest.stat().st_mtime >= _database_mtime(db)
                       or figures.campaign == state)
            if current and all(a.csv.is_file() for a in figures.artifacts):
                return figures
        except (OSError, ValueError, KeyError, TypeError):
            pass
    return reproduction.make_figures(db, out_dir)


def _recorded_state(figures: FigureSet, name: str) -> CampaignState | None:
    """The campaign state a recorded figure set saved, else what its first note says."""
    if figures.campaign is not None:
        return figures.campaign
    match = next(filter(None, map(_RUNS_NOTE.search, figures.notes)), None)
    if match is None:
        return None
    return CampaignState(
        campaign=name, mode=match.group(2), program="", planned=None,
        counts={"ok": int(match.group(1)), "failed": 0, "timeout": 0},
        seeds=[int(seed) for seed in (match.group(3) or "").split(", ") if seed],
        ns3_versions=[], git_revs=[], sweep_wall_s=None, run_time_s=None,
    )


def _recorded(directory: Path) -> Section | None:
    """A section from the figure set saved in ``directory`` (or its ``quick/``), if any."""
    for out_dir in (directory, directory / "quick"):
        if (out_dir / MANIFEST).is_file():
            section = Section(directory.name, None,
                              reproduction=REPRODUCTIONS.get(directory.name))
            try:
                section.figures = FigureSet.load(out_dir)
                section.state = _recorded_state(section.figures, directory.name)
            except (OSError, ValueError, KeyError, TypeError) as exc:
                section.error = f"reading the recorded {MANIFEST} failed: {exc!r}"
            return section
    return None


def collect(results: Path = RESULTS_DIR, redraw: bool = False,
            timing: Path | None = TIMING_CSV) -> list[Section]:
    """Every results directory with a campaign database or a saved figure set, with figures
    for reproductions, and the full campaigns' rows of the timing file ``timing``.

    Figures are drawn again from a database unless those saved (``figures.json``) are
    newer than it or record its present state; ``redraw`` always draws them. Without a
    database, the saved figure set is the section.
    """
    sections = _sections(results, redraw)
    rows = {row["campaign"]: row for row in read_timing(timing)} if timing else {}
    for section in sections:
        if section.state is None and section.db is not None:
            continue  # a database that could not be read
        if section.state is not None and not sum(section.state.counts.values()):
            continue  # an empty database: the timing row is another database's runs
        if section.state is None or section.state.mode != "quick":
            section.timing = rows.get(section.state.campaign if section.state else section.name)
    return sections


def _sections(results: Path, redraw: bool) -> list[Section]:
    # Here, not at module level: numpy and scipy would make `report --help` slow.
    from qdisclab.figures.common import campaign_state

    sections = []
    if not results.is_dir():
        return sections
    for directory in sorted(p for p in results.iterdir() if p.is_dir()):
        db = _pick_database(directory)
        if db is None:
            if (section := _recorded(directory)) is not None:
                sections.append(section)
            continue
        try:
            with read_only():
                state = campaign_state(db)
        except StoreError as exc:  # one damaged database must not hide the others
            sections.append(Section(directory.name, None, db, REPRODUCTIONS.get(directory.name),
                                    error=f"cannot read this campaign's database: {exc}"))
            continue
        section = Section(directory.name, state, db, REPRODUCTIONS.get(directory.name))
        if section.reproduction is not None:
            out_dir = directory / "quick" if state.mode == "quick" else directory
            try:
                with read_only():
                    section.figures = _figures(section.reproduction, db, state, out_dir,
                                               redraw)
            except Exception as exc:  # noqa: BLE001 - one broken section must not hide the rest
                section.error = f"drawing the figures failed: {exc!r}"
        sections.append(section)
    return sections


# ----------------------------------------------------------------- HTML

_CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px; color: #222;
       line-height: 1.45; padding: 0 1em; }
h1 { border-bottom: 2px solid #444; }
h2 { margin-top: 2.5em; border-bottom: 1px solid #aaa; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.agree { background: #e3f6e3; } .partly { background: #fdf5d8; }
.disagree { background: #fbe0e0; } .not-evaluated { color: #888; }
.calibrated { color: #557; font-style: italic; }
figure { margin: 1.5em 0; } figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { font-size: 0.9em; color: #444; }
.files a { margin-right: 1em; } .note { color: #555; font-size: 0.9em; }
.quick { background: #fdf5d8; padding: 0.2em 0.5em; border-radius: 3px; }
.incomplete { font-weight: bold; white-space: nowrap; }
code { background: #f4f4f4; padding: 0 0.2em; }
"""


def _e(text: object) -> str:
    return html.escape(str(text))


def _portable(text: str) -> str:
    """``text`` without the paths of this machine: its checkout as ``<repo>``, home as ``~``."""
    for path, name in ((REPO, "<repo>"), (Path.home(), "~")):
        text = text.replace(str(path), name)
    return text


def _href(path: Path, base: Path) -> str:
    """``path`` relative to the page's directory ``base``, in URL form."""
    return _e(Path(os.path.relpath(path.resolve(), base)).as_posix())


def _link(path: Path, base: Path) -> str:
    return f'<a href="{_href(path, base)}">{_e(path.suffix.lstrip(".").upper())}</a>'


def _image(path: Path, alt: str) -> str:
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return f'<img alt="{_e(alt)}" src="data:image/png;base64,{data}">'


def _known(value: object, text: str) -> str:
    return text if value not in (None, [], "") else "<span class='note'>not recorded</span>"


def _seconds(text: str) -> str:
    """A number of seconds from the timing file, with hours or minutes beside it."""
    seconds = float(text)
    other = f"{seconds / 3600:.2f} h" if seconds >= 3600 else f"{seconds / 60:.1f} min"
    return f"{seconds:,.1f} s ({other})"


def _timing_html(row: dict[str, str]) -> str:
    """A campaign's timing row, in words."""
    cpu = f"{_seconds(row['cpu_s'])} CPU" if row.get("cpu_s") else "CPU time not recorded"
    revisions = ", ".join(f"<code>{_e(r)}</code>" for r in row.get("git_revision", "").split())
    work = (f"; {float(row['instructions_g']):,.0f} G instructions (callgrind: mean of"
            f" {_e(row.get('instructions_sampled', ''))} replayed runs x the stored runs)"
            if row.get("instructions_g") else "")
    return (f"{_e(row['runs'])} runs: {cpu}, {_seconds(row['wall_s'])} wall on"
            f" {_e(row['cores'])} cores; ns-3 <code>{_e(row['ns3_flavor'])}</code>"
            + (f"; revision {revisions}" if revisions else "") + work + " (timing.csv)")


def _state_html(section: Section, base: Path) -> str:
    state = section.state
    cost = [("Cost", _timing_html(section.timing))] if section.timing else []
    if section.db is not None:
        source = f'campaign database <a href="{_href(section.db, base)}">' \
                 f"<code>{_e(section.db.name)}</code></a>"
    else:
        manifest = section.figures.out_dir / MANIFEST if section.figures else None
        source = ("the recorded figures and tables, no campaign database"
                  + (f' (<a href="{_href(manifest, base)}"><code>{MANIFEST}</code></a>)'
                     if manifest is not None else ""))
    if state is None:
        rows = [*cost, ("Drawn from", source)]
        return "<table>" + "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows) \
            + "</table>"
    missing = ""
    if state.planned is not None:
        left = state.planned - sum(state.counts.values())
        if left:
            missing = f"; <b>{left} not run yet</b>"
    mode = ('<span class="quick">quick campaign (small grid, short runs)</span>'
            if state.mode == "quick" else "full campaign")
    program = f", program <code>{_e(state.program)}</code>" if state.program else ""
    planned = f"{state.planned} planned: " if state.planned is not None else ""
    time_text = "–"
    if state.run_time_s is not None:
        time_text = (f"{state.run_time_s / 3600:.2f} h of runs,"
                     f" {(state.sweep_wall_s or 0.0) / 60:.1f} min of sweeps")
    rows = [
        ("Campaign", f"<code>{_e(state.campaign)}</code> ({mode}){program}"),
        ("Runs", f"{planned}{state.counts['ok']} ok, {state.counts['failed']} failed,"
                 f" {state.counts['timeout']} timed out{missing}"),
        ("Seeds (RngRun)", _known(state.seeds, _e(", ".join(map(str, state.seeds))))),
        ("ns-3", _known(state.ns3_versions, _e(", ".join(state.ns3_versions)))),
        ("Module revision", _known(state.git_revs, "<br>".join(
            f"<code>{_e(r)}</code>" for r in state.git_revs))),
        ("Time", _known(state.run_time_s, time_text)),
        *cost,
        ("Drawn from", source),
    ]
    body = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    out = f"<table>{body}</table>"
    if state.failures:
        items = "".join(f"<li><code>{_e(_portable(run))}</code>: {_e(_portable(reason))}</li>"
                        for run, reason in state.failures)
        out += f"<details><summary>Failed runs (first {len(state.failures)})</summary>" \
               f"<ul>{items}</ul></details>"
    return out


def _verdict(verdict: str, state: CampaignState | None) -> str:
    """A claim's verdict, marked when the campaign it stands on is incomplete."""
    if state is None or not state.incomplete:
        return _e(verdict)
    return (f"{_e(verdict)} <span class='incomplete'>(incomplete:"
            f" {state.counts['ok']}/{state.planned} runs)</span>")


#: The summary table's verdict columns: (heading, verdicts counted in it).
SUMMARY_COLUMNS = (
    ("agree", ("agree",)),
    ("partly", ("partly",)),
    ("disagree", ("disagree",)),
    ("not evaluated", ("not evaluated",)),
    ("calibrated", ("calibrated",)),
    ("calibration target not met", ("calibration target not met",)),
)
assert {v for _, vs in SUMMARY_COLUMNS for v in vs} == set(VERDICTS)


def _cause_class(claim: Claim) -> str:
    """The class of a claim's cause ("not classified" in a figure set saved before causes
    were classed)."""
    return claim.cause_class or ("none" if not claim.cause else "not classified")


def summary_rows(sections: list[Section]) -> list[dict[str, object]]:
    """Per reproduction with claims: its claims' verdict counts (:data:`SUMMARY_COLUMNS`),
    the number of variants (claims judged again under a changed setting) with their
    verdicts, and the classes of the causes of its partly and disagree claims."""
    rows = []
    for section in sections:
        if section.figures is None or not section.figures.claims:
            continue
        claims = [c for c in section.figures.claims if c.kind == "claim"]
        variants = [c for c in section.figures.claims if c.kind == "variant"]
        needing = [c for c in claims if c.verdict in VERDICTS_NEEDING_CAUSE]
        rows.append({
            "name": section.name,
            "claims": len(claims),
            **{head: sum(c.verdict in verdicts for c in claims)
               for head, verdicts in SUMMARY_COLUMNS},
            "variants": Counter(c.verdict for c in variants),
            "causes": Counter(_cause_class(c) for c in needing),
            "incomplete": bool(section.state is not None and section.state.incomplete),
            "tallies": section.figures.tallies,
            "simulator": section.figures.simulator,
            "simulator_incomplete": bool(section.figures.simulator_campaign is not None
                                         and section.figures.simulator_campaign.incomplete),
            "simulator_counts": section.figures.simulator_counts(),
            "attributions": section.figures.attribution_counts(),
        })
    return rows


def _summary_html(sections: list[Section]) -> str:
    """The table the page leads with: verdict counts per reproduction and in all."""
    rows = summary_rows(sections)
    if not rows:
        return ""
    heads = [head for head, _ in SUMMARY_COLUMNS]

    def line(name: str, cells: list[int], variants: Counter, causes: Counter,
             total: bool = False, incomplete: bool = False) -> str:
        tag = "th" if total else "td"
        link = name if total else f'<a href="#{_e(name)}">{_e(name)}</a>'
        if incomplete:
            link += " <span class='incomplete'>(incomplete campaign)</span>"
        return (f"<tr><{tag}>{link}</{tag}>"
                + "".join(f'<td class="num">{n}</td>' for n in cells)
                + f"<td>{_e(_counts_text(variants, VERDICTS)) or '–'}</td>"
                + f"<td>{_e(_counts_text(causes, (*CAUSE_CLASSES, 'not classified'))) or '–'}"
                "</td></tr>")

    body = []
    for row in rows:
        body.append(line(row["name"], [row["claims"], *(row[h] for h in heads)], row["variants"],
                         row["causes"], incomplete=row["incomplete"]))
        for label, counts in row["tallies"].items():  # other readings, not in the totals
            cells = [sum(counts.values()), *(sum(counts.get(v, 0) for v in verdicts)
                                             for _, verdicts in SUMMARY_COLUMNS)]
            body.append(f"<tr><td>&nbsp;&nbsp;{_e(row['name'])}: {_e(label)}</td>"
                        + "".join(f'<td class="num">{n}</td>' for n in cells)
                        + "<td>–</td><td>–</td></tr>")
        if row["simulator"]:  # the same claims judged on the paper's simulator
            counts = row["simulator_counts"]
            cells = [row["claims"], *(sum(counts.get(v, 0) for v in verdicts)
                                      for _, verdicts in SUMMARY_COLUMNS)]
            label = f"{_e(row['name'])}: on {_e(row['simulator'])}"
            if row["simulator_incomplete"]:
                label += " <span class='incomplete'>(incomplete campaign)</span>"
            body.append(f"<tr><td>&nbsp;&nbsp;{label}</td>"
                        + "".join(f'<td class="num">{n}</td>' for n in cells)
                        + "<td>–</td><td>"
                        + (_e(_counts_text(row["attributions"], ATTRIBUTIONS)) or "–")
                        + "</td></tr>")
    totals = [sum(row["claims"] for row in rows), *(sum(row[h] for row in rows) for h in heads)]
    body.append(line("all", totals, sum((row["variants"] for row in rows), Counter()),
                     sum((row["causes"] for row in rows), Counter()), total=True))
    return ("<h2 id='summary'>Verdicts per reproduction</h2>"
            "<p class='note'>Claims: the papers' statements, each judged against our runs;"
            " calibration statements chose the unknowns and are not judged (“calibrated”"
            " only when the chosen scenario met the target). Variants judge a claim again"
            " under a changed setting and are counted apart. Indented rows count the same claims"
            " under another reading (vertical-dimensioning: each topology; “on ns-2.35”: the"
            " paper's simulator running the same scenario, its last column where each claim"
            " stands across the two simulators) and are not in the totals. The last column classes the causes of the partly and disagree claims.</p>"
            "<table><tr><th>Reproduction</th><th>Claims</th>"
            + "".join(f"<th>{_e(h)}</th>" for h in heads)
            + "<th>Variants</th><th>Causes of partly / disagree</th></tr>"
            + "".join(body) + "</table>")


def _counts_text(counts: Counter, order: tuple[str, ...]) -> str:
    """``counts`` as "2 agree, 1 partly" in the order of ``order`` (zero counts left out)."""
    return ", ".join(f"{counts[key]} {key}" for key in order if counts.get(key))


def _claims_table(claims: list[Claim], state: CampaignState | None, simulator: str = "") -> str:
    def three_way(c: Claim) -> str:
        if not simulator:
            return ""
        return (f"<td>{_e(c.simulator_ours)}</td><td>{_e(c.simulator_verdict or '–')}</td>"
                f"<td>{_e(c.attribution or '–')}</td>")

    rows = "".join(
        f'<tr class="{_e(c.verdict.replace(" ", "-"))}"><td>{_e(c.id)}</td><td>{_e(c.where)}</td>'
        f"<td>{_e(c.paper)}</td><td>{_e(c.ours)}</td><td>{_verdict(c.verdict, state)}</td>"
        + three_way(c)
        + f"<td>{_e(c.cause)}</td><td>{_e(_cause_class(c))}</td></tr>"
        for c in claims
    )
    heads = (f"<th>On {_e(simulator)}</th><th>Verdict on {_e(simulator)}</th>"
             "<th>Where it stands</th>") if simulator else ""
    return ("<table><tr><th>Id</th><th>Where</th><th>The paper</th><th>This reproduction</th>"
            f"<th>Verdict</th>{heads}<th>Cause</th><th>What the cause stands on</th></tr>{rows}"
            "</table>")


def _claims_html(figures: FigureSet, state: CampaignState | None) -> str:
    if not figures.claims:
        return ""
    claims = [c for c in figures.claims if c.kind == "claim"]
    variants = [c for c in figures.claims if c.kind == "variant"]
    summary = _counts_text(Counter(c.verdict for c in claims), VERDICTS) or "no claims"
    if state is not None and state.incomplete:
        summary += (f" — drawn from {state.counts['ok']} of the campaign's {state.planned}"
                    " runs: a verdict may change when the rest are in")
    out = f"<h3>Where we agree and where we do not</h3><p>{_e(summary)}.</p>"
    if figures.simulator:
        on_simulator = _counts_text(figures.simulator_counts(), VERDICTS)
        stands = _counts_text(figures.attribution_counts(), ATTRIBUTIONS)
        out += (f"<p>The same claims on the paper's simulator, {_e(figures.simulator)}, running"
                f" the same scenario: {_e(on_simulator)}. Across the two simulators:"
                f" {_e(stands) or 'no claim judged on both'}.</p>")
    out += _claims_table(claims, state, figures.simulator)
    if variants:
        out += ("<h3>Variants: claims judged again under a changed setting</h3>"
                f"<p>{_e(_counts_text(Counter(c.verdict for c in variants), VERDICTS))}"
                " (not counted with the claims).</p>"
                + _claims_table(variants, state, figures.simulator))
    return out


def _artifact_html(artifact: Artifact, base: Path) -> str:
    files = [p for p in (artifact.png, artifact.pdf, artifact.csv) if p is not None and p.exists()]
    links = " ".join(_link(p, base) for p in files)
    parts = [f'<figure id="{_e(artifact.id)}">']
    if artifact.png is not None and artifact.png.exists():
        parts.append(_image(artifact.png, artifact.title))
    if artifact.table is not None:
        head = "".join(f"<th>{_e(c)}</th>" for c in artifact.table.columns)
        body = "".join(
            "<tr>" + "".join(f"<td>{_e(cell)}</td>" for cell in row) + "</tr>"
            for row in artifact.table.rows
        )
        parts.append(f"<table><tr>{head}</tr>{body}</table>")
    parts.append(
        f"<figcaption><b>{_e(artifact.title)}.</b> {_e(artifact.caption)}"
        f' <span class="files">{links}</span></figcaption></figure>'
    )
    return "".join(parts)


def render(sections: list[Section], base: Path) -> str:
    """The report's HTML; links are relative to ``base`` (the report's directory)."""
    base = base.resolve()
    toc = "".join(f'<li><a href="#{_e(s.name)}">{_e(s.name)}</a></li>' for s in sections)
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<title>qdisc-lab: reproductions</title>",
        f"<style>{_CSS}</style></head><body>",
        "<h1>qdisc-lab: paper reproductions</h1>",
        f"<p class='note'>Generated {_e(time.strftime('%Y-%m-%d %H:%M:%S %Z'))} by"
        " <code>./qdisc-lab report</code>. Means over seeds with 95&nbsp;% Student-t"
        " confidence intervals.</p>",
        _summary_html(sections),
        f"<ul>{toc}</ul>" if sections else "<p>No results yet: run"
        " <code>./qdisc-lab reproduce NAME</code>.</p>",
    ]
    for section in sections:
        parts.append(f'<h2 id="{_e(section.name)}">{_e(section.name)}</h2>')
        if section.reproduction is not None:
            parts.append(f"<p><b>{_e(section.reproduction.title)}</b> — "
                         f"{_e(section.reproduction.citation)}</p>")
        else:
            parts.append("<p class='note'>A campaign without a registered reproduction:"
                         " no figures.</p>")
        parts.append(_state_html(section, base))
        if section.error:
            parts.append(f"<p class='disagree'>{_e(_portable(section.error))}</p>")
        if section.figures is not None:
            for note in section.figures.notes:
                parts.append(f"<p class='note'>{_e(note)}</p>")
            parts.append(_claims_html(section.figures, section.state))
            for artifact in section.figures.artifacts:
                parts.append(_artifact_html(artifact, base))
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(results: Path = RESULTS_DIR, out: Path | None = None,
                 redraw: bool = False, timing: Path | None = TIMING_CSV) -> Path:
    """Write ``results/report.html`` (or ``out``); return its path (see :func:`collect`)."""
    path, _ = write_sections(results, out, redraw, timing)
    return path


def write_sections(results: Path, out: Path | None, redraw: bool,
                   timing: Path | None) -> tuple[Path, list[Section]]:
    """:func:`write_report`, returning the sections too (what ``qdisc-lab report`` prints)."""
    out = out or results / "report.html"
    sections = collect(results, redraw, timing)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render(sections, out.parent), encoding="utf-8")
    return out, sections


