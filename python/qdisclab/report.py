# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab report``: one self-contained HTML page over every reproduction in ``results/``.

For each ``results/<name>/`` holding a campaign database, the report gives the
campaign's state (runs done, failed, timed out; seeds; ns-3 versions; module
revisions; sweep time) and, for a registered reproduction (see
:mod:`qdisclab.figures`), its figures and tables — drawn again from the database,
images embedded — beside the paper's numbers, and a table of the paper's
statements with ours and a verdict. The full campaign is shown when its database
has successful runs, else the ``--quick`` one (marked as such). CSV and PDF files
are linked by relative paths.
"""

from __future__ import annotations

import base64
import html
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import click

from qdisclab.campaign.spec import CampaignError, loads_campaign
from qdisclab.campaign.store import ResultStore
from qdisclab.context import CONSOLE, RESULTS_DIR
from qdisclab.figures import MANIFEST, REPRODUCTIONS, Artifact, FigureSet, Reproduction

DATABASES = (("campaign.sqlite", "full"), ("campaign-quick.sqlite", "quick"))


@dataclass
class CampaignState:
    """What a results database says about its campaign."""

    db: Path
    mode: str
    campaign: str
    program: str
    planned: int | None
    counts: dict[str, int]
    seeds: list[int]
    ns3_versions: list[str]
    git_revs: list[str]
    sweep_wall_s: float
    run_time_s: float
    failures: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Section:
    """One ``results/<name>/`` directory in the report."""

    name: str
    state: CampaignState
    reproduction: Reproduction | None = None
    figures: FigureSet | None = None
    error: str = ""


def campaign_state(db: Path, mode: str) -> CampaignState:
    """Read counts and provenance from a results database."""
    with ResultStore(db) as store:
        meta = store.meta()
        keys = None
        planned = None
        if meta.get("campaign_toml"):
            try:
                campaign = loads_campaign(meta["campaign_toml"], name=meta.get("campaign"),
                                          quick=meta.get("mode") == "quick")
                keys = [run.key for run in campaign.runs()]
                planned = len(keys)
            except CampaignError:
                pass
        runs = store.runs(keys=keys)
        sweeps = store.sweeps()
    counts = Counter(run.status for run in runs)
    return CampaignState(
        db=db,
        mode=meta.get("mode", mode),
        campaign=meta.get("campaign", db.parent.name),
        program=meta.get("program", ""),
        planned=planned,
        counts={status: counts.get(status, 0) for status in ("ok", "failed", "timeout")},
        seeds=sorted({run.seed for run in runs}),
        ns3_versions=sorted({run.ns3_version for run in runs if run.ns3_version}),
        git_revs=sorted({run.git_rev for run in runs if run.git_rev}),
        sweep_wall_s=sum(s["wall_time_s"] or 0.0 for s in sweeps),
        run_time_s=sum(run.wall_time_s or 0.0 for run in runs),
        failures=[(run.command or run.run_key, run.reason or run.status)
                  for run in runs if run.status != "ok"][:20],
    )


def _pick_database(directory: Path) -> tuple[Path, str] | None:
    """The full campaign's database if it has successful runs, else the quick one."""
    found = [(directory / file, mode) for file, mode in DATABASES if (directory / file).is_file()]
    for db, mode in found:
        with ResultStore(db) as store:
            if store.counts()["ok"]:
                return db, mode
    return found[0] if found else None


def _database_mtime(db: Path) -> float:
    """When the database last changed (its WAL file included)."""
    files = [db, db.with_name(db.name + "-wal")]
    return max(f.stat().st_mtime for f in files if f.exists())


def _figures(reproduction: Reproduction, db: Path, out_dir: Path, redraw: bool) -> FigureSet:
    """The saved figure set when it is newer than the database, else drawn afresh."""
    manifest = out_dir / MANIFEST
    if not redraw and manifest.is_file() and manifest.stat().st_mtime >= _database_mtime(db):
        try:
            figures = FigureSet.load(out_dir)
            if all(a.csv.is_file() for a in figures.artifacts):
                return figures
        except (OSError, ValueError, KeyError, TypeError):
            pass
    return reproduction.make_figures(db, out_dir)


def collect(results: Path = RESULTS_DIR, redraw: bool = False) -> list[Section]:
    """Every results directory with a campaign database, with figures for reproductions.

    Figures are drawn again unless those saved (``figures.json``) are newer than the
    database; ``redraw`` always draws them.
    """
    sections = []
    if not results.is_dir():
        return sections
    for directory in sorted(p for p in results.iterdir() if p.is_dir()):
        picked = _pick_database(directory)
        if picked is None:
            continue
        db, mode = picked
        section = Section(directory.name, campaign_state(db, mode))
        section.reproduction = REPRODUCTIONS.get(directory.name)
        if section.reproduction is not None:
            out_dir = directory / "quick" if section.state.mode == "quick" else directory
            try:
                section.figures = _figures(section.reproduction, db, out_dir, redraw)
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
figure { margin: 1.5em 0; } figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { font-size: 0.9em; color: #444; }
.files a { margin-right: 1em; } .note { color: #555; font-size: 0.9em; }
.quick { background: #fdf5d8; padding: 0.2em 0.5em; border-radius: 3px; }
code { background: #f4f4f4; padding: 0 0.2em; }
"""


def _e(text: object) -> str:
    return html.escape(str(text))


def _link(path: Path, base: Path) -> str:
    relative = os.path.relpath(path, base)
    return f'<a href="{_e(Path(relative).as_posix())}">{_e(path.suffix.lstrip(".").upper())}</a>'


def _image(path: Path, alt: str) -> str:
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return f'<img alt="{_e(alt)}" src="data:image/png;base64,{data}">'


def _state_html(state: CampaignState) -> str:
    planned = state.planned if state.planned is not None else "?"
    missing = ""
    if state.planned is not None:
        left = state.planned - sum(state.counts.values())
        if left:
            missing = f"; <b>{left} not run yet</b>"
    mode = ('<span class="quick">quick campaign (small grid, short runs)</span>'
            if state.mode == "quick" else "full campaign")
    rows = [
        ("Campaign", f"<code>{_e(state.campaign)}</code> ({mode}), program"
                     f" <code>{_e(state.program)}</code>"),
        ("Runs", f"{planned} planned: {state.counts['ok']} ok, {state.counts['failed']} failed,"
                 f" {state.counts['timeout']} timed out{missing}"),
        ("Seeds (RngRun)", _e(", ".join(map(str, state.seeds)) or "–")),
        ("ns-3", _e(", ".join(state.ns3_versions) or "–")),
        ("Module revision", "<br>".join(f"<code>{_e(r)}</code>" for r in state.git_revs) or "–"),
        ("Time", f"{state.run_time_s / 3600:.2f} h of runs, {state.sweep_wall_s / 60:.1f} min"
                 " of sweeps"),
        ("Database", f"<code>{_e(state.db)}</code>"),
    ]
    body = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    out = f"<table>{body}</table>"
    if state.failures:
        items = "".join(f"<li><code>{_e(cmd)}</code>: {_e(reason)}</li>"
                        for cmd, reason in state.failures)
        out += f"<details><summary>Failed runs (first {len(state.failures)})</summary>" \
               f"<ul>{items}</ul></details>"
    return out


def _claims_html(figures: FigureSet) -> str:
    if not figures.claims:
        return ""
    counts = Counter(claim.verdict for claim in figures.claims)
    summary = ", ".join(f"{n} {verdict}" for verdict, n in counts.items())
    rows = "".join(
        f'<tr class="{_e(c.verdict.replace(" ", "-"))}"><td>{_e(c.where)}</td>'
        f"<td>{_e(c.paper)}</td><td>{_e(c.ours)}</td><td>{_e(c.verdict)}</td></tr>"
        for c in figures.claims
    )
    return (
        f"<h3>Where we agree and where we do not</h3><p>{_e(summary)}.</p>"
        "<table><tr><th>Where</th><th>The paper</th><th>This reproduction</th>"
        f"<th>Verdict</th></tr>{rows}</table>"
    )


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
    toc = "".join(f'<li><a href="#{_e(s.name)}">{_e(s.name)}</a></li>' for s in sections)
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<title>qdisc-lab: reproductions</title>",
        f"<style>{_CSS}</style></head><body>",
        "<h1>qdisc-lab: paper reproductions</h1>",
        f"<p class='note'>Generated {_e(time.strftime('%Y-%m-%d %H:%M:%S %Z'))} by"
        " <code>./qdisc-lab report</code>. Means over seeds with 95&nbsp;% Student-t"
        " confidence intervals.</p>",
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
        parts.append(_state_html(section.state))
        if section.error:
            parts.append(f"<p class='disagree'>{_e(section.error)}</p>")
        if section.figures is not None:
            for note in section.figures.notes:
                parts.append(f"<p class='note'>{_e(note)}</p>")
            parts.append(_claims_html(section.figures))
            for artifact in section.figures.artifacts:
                parts.append(_artifact_html(artifact, base))
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(results: Path = RESULTS_DIR, out: Path | None = None,
                 redraw: bool = False) -> Path:
    """Write ``results/report.html`` (or ``out``); return its path (see :func:`collect`)."""
    out = out or results / "report.html"
    sections = collect(results, redraw)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render(sections, out.parent.resolve()), encoding="utf-8")
    return out


@click.command("report")
@click.option(
    "--results", type=click.Path(file_okay=False, path_type=Path), default=RESULTS_DIR,
    show_default=True, help="Directory holding one subdirectory per campaign.",
)
@click.option(
    "--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="HTML file to write (default RESULTS/report.html).",
)
@click.option("--redraw", is_flag=True,
              help="Draw every figure again, even when the database has not changed.")
def report_cmd(results: Path, output: Path | None, redraw: bool) -> None:
    """Write an HTML report of every reproduction under results/, figures beside the paper."""
    with CONSOLE.status("Writing the report…"):
        path = write_report(results, output, redraw)
    CONSOLE.print(f"Report: {path.resolve()}", markup=False, highlight=False, soft_wrap=True)
