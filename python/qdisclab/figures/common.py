# SPDX-License-Identifier: GPL-2.0-only
"""Shared pieces of the figures modules: confidence intervals, results loading and the
campaign's state, a run's metrics, error bars, file output (titles fitted into their figures),
notes, parameter parsing.

Confidence intervals are over seeds (RngRun replications): the mean of the ``n``
per-seed values ± ``t(0.975, n-1) · s / √n`` (Student t, ``s`` the sample standard
deviation). With one seed the half-width is NaN (unknown), not zero.
"""

from __future__ import annotations

import csv
import functools
import math
import re
import textwrap
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats

from qdisclab.campaign.spec import Run, stored_campaign
from qdisclab.campaign.store import STATUSES, ResultStore, RunRecord
from qdisclab.figures import Artifact, CampaignState

CONFIDENCE = 0.95


@dataclass(frozen=True)
class Estimate:
    """A mean over seeds with its confidence-interval half-width."""

    mean: float
    half_width: float
    n: int

    @property
    def low(self) -> float:
        """Lower end of the interval."""
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        """Upper end of the interval."""
        return self.mean + self.half_width

    def excludes_zero(self) -> bool:
        """Whether the interval is known and lies entirely on one side of zero."""
        return math.isfinite(self.half_width) and (self.low > 0 or self.high < 0)

    def format(self, digits: int = 3) -> str:
        """``mean ± half`` (``mean`` alone when the half-width is unknown)."""
        if not math.isfinite(self.mean):
            return "–"
        if not math.isfinite(self.half_width):
            return f"{self.mean:.{digits}f}"
        return f"{self.mean:.{digits}f} ± {self.half_width:.{digits}f}"


NO_ESTIMATE = Estimate(float("nan"), float("nan"), 0)


@functools.cache
def t_quantile(n: int, confidence: float = CONFIDENCE) -> float:
    """The two-sided Student-t quantile for ``n`` samples (NaN when ``n < 2``)."""
    if n < 2:
        return float("nan")
    return float(stats.t.ppf(0.5 + confidence / 2, n - 1))


def t_interval(values: Iterable[float], confidence: float = CONFIDENCE) -> Estimate:
    """Mean and Student-t confidence half-width of ``values`` (NaNs dropped)."""
    data = np.asarray([v for v in values if v is not None and math.isfinite(v)], dtype=float)
    n = data.size
    if n == 0:
        return NO_ESTIMATE
    mean = float(data.mean())
    if n < 2:
        return Estimate(mean, float("nan"), 1)
    half = t_quantile(n, confidence) * float(data.std(ddof=1)) / math.sqrt(n)
    return Estimate(mean, half, n)


def metric_value(metrics: dict | None, name: str) -> float | None:
    """A run's metric ``name`` as a float; None when it is missing or not finite."""
    value = (metrics or {}).get(name)
    return float(value) if value is not None and math.isfinite(value) else None


class RunParams(Mapping[str, Any]):
    """A stored run's parameters as a mapping: :meth:`RunRecord.param` for each name, i.e. the
    value the program reported for the run (its defaults included), else the one the campaign
    set. The figures read a run's scenario through it instead of holding the examples' defaults;
    a name the run has neither way raises ``KeyError`` naming the run and the parameter."""

    def __init__(self, run: RunRecord):
        self.run = run

    def __getitem__(self, name: str) -> Any:
        return self.run.param(name)

    def __iter__(self) -> Iterator[str]:
        return iter({**self.run.params, **(self.run.reported_params or {})})

    def __len__(self) -> int:
        return len({**self.run.params, **(self.run.reported_params or {})})


def load_campaign_runs(db_path: Path) -> tuple[dict[str, str], list[RunRecord]]:
    """The database's campaign facts and its ``ok`` runs that belong to the stored campaign.

    Runs left over from an earlier version of the campaign file (other parameters)
    are ignored; without a stored campaign every ``ok`` run counts.
    """
    with ResultStore(db_path) as store:
        meta = store.meta()
        return meta, store.runs(status="ok", keys=campaign_keys(meta))


def campaign_keys(meta: dict[str, str]) -> list[str] | None:
    """The run keys of the campaign stored in a database's ``meta``; None without one."""
    campaign = stored_campaign(meta)
    return None if campaign is None else [run.key for run in campaign.runs()]


def campaign_state(db_path: Path) -> CampaignState:
    """Counts and provenance of the runs of the campaign stored in ``db_path`` (every stored
    run without a stored campaign file). A failed run is named by its parameters and seed,
    not by its command line, which holds the paths of the machine that ran it."""
    with ResultStore(db_path) as store:
        meta = store.meta()
        keys = campaign_keys(meta)
        runs = store.runs(keys=keys)
        sweeps = store.sweeps()
    counts = Counter(run.status for run in runs)
    return CampaignState(
        campaign=meta.get("campaign", db_path.parent.name),
        mode=meta.get("mode", "quick" if "quick" in db_path.name else "full"),
        program=meta.get("program", ""),
        planned=None if keys is None else len(keys),
        counts={status: counts.get(status, 0) for status in STATUSES},
        seeds=sorted({run.seed for run in runs}),
        ns3_versions=sorted({run.ns3_version for run in runs if run.ns3_version}),
        git_revs=sorted({run.git_rev for run in runs if run.git_rev}),
        sweep_wall_s=sum(s["wall_time_s"] or 0.0 for s in sweeps),
        run_time_s=sum(run.wall_time_s or 0.0 for run in runs),
        failures=[(Run(run.run_key, run.program, run.params, run.seed, run.grid or "").label(),
                   run.reason or run.status) for run in runs if run.status != "ok"][:20],
    )


def write_csv(path: Path, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> Path:
    """Write a CSV; NaN and None become empty cells, floats keep full precision."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        for row in rows:
            writer.writerow([_cell(value) for value in row])
    return path


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "" if not math.isfinite(value) else repr(value)
    return value


#: Room a figure title leaves at each side of the figure, as a fraction of its width.
TITLE_MARGIN = 0.01


def _wrap(text: str, ratio: float) -> str:
    """``text`` re-wrapped to ``ratio`` times its longest line's length (in characters)."""
    lines = text.split("\n")
    width = max(8, math.floor(max(map(len, lines)) * ratio))
    return "\n".join(textwrap.fill(line, width, break_on_hyphens=False) for line in lines)


def fit_titles(fig, passes: int = 4) -> None:
    """Wrap the figure's title into the figure's width and each axes' title into its axes'
    width, so that no title is clipped (a long title of a figure narrowed to a small
    ``--quick`` grid) or runs over its neighbour's; the constrained layout then makes room
    for the extra lines."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)  # a Figure made without pyplot has no renderer of its own
    for _ in range(passes):
        fig.draw_without_rendering()  # lays the figure out at its final size
        margin = TITLE_MARGIN * fig.bbox.width
        # Figure has no public getter for its title's Text (get_suptitle gives the string).
        titles = [(getattr(fig, "_suptitle", None), fig.bbox.width - 2 * margin)]
        titles += [(axis.title, axis.get_window_extent().width) for axis in fig.axes]
        wrapped = False
        for title, room in titles:
            if title is None or not title.get_text():
                continue
            extent = title.get_window_extent()
            if extent.width > room:
                title.set_text(_wrap(title.get_text(), room / extent.width))
                wrapped = True
        if not wrapped:
            return


def save_figure(fig, out_dir: Path, stem: str) -> tuple[Path, Path]:
    """Write ``<stem>.png`` (150 dpi) and ``<stem>.pdf`` with the titles fitted
    (:func:`fit_titles`); return both paths."""
    fit_titles(fig)
    png = out_dir / f"{stem}.png"
    pdf = out_dir / f"{stem}.pdf"
    fig.savefig(png, dpi=150)
    fig.savefig(pdf)
    return png, pdf


def errorbar(axis, xs, estimates: Sequence[Estimate], *, capsize: float = 3,
             markersize: float = 3.5, **style) -> None:
    """Draw ``estimates`` at ``xs`` as markers with their intervals (none where unknown)."""
    means = [e.mean for e in estimates]
    errors = [e.half_width if math.isfinite(e.half_width) else 0.0 for e in estimates]
    axis.errorbar(xs, means, yerr=errors, capsize=capsize, marker="o", markersize=markersize,
                  lw=1.2, **style)


def figure_artifact(fig, out_dir: Path, stem: str, header: Sequence[str],
                    rows: Iterable[Sequence[Any]], title: str, caption: str) -> Artifact:
    """Save ``fig`` (``<stem>.png``/``.pdf``) and its numbers ``rows`` (``<stem>.csv``) in
    ``out_dir`` (created if need be): the artifact ``stem`` of those files."""
    csv_path = write_csv(out_dir / f"{stem}.csv", header, rows)
    png, pdf = save_figure(fig, out_dir, stem)
    return Artifact(stem, title, caption, csv_path, png, pdf)


def runs_note(runs: Sequence[RunRecord], mode: str, details: str) -> str:
    """The note on what the figures are drawn from: the runs, the seeds (the first ten
    listed) and ``details``."""
    seeds = sorted({run.seed for run in runs})
    return (f"{len(runs)} successful runs ({mode} campaign), {len(seeds)} seed(s)"
            f" ({', '.join(map(str, seeds[:10]))}{'…' if len(seeds) > 10 else ''}); {details}.")


def parse_bytes(size: str) -> int | None:
    """``"25000B"`` → 25000; None for packets (``"400p"``) or anything else."""
    match = re.fullmatch(r"\s*(\d+)\s*B\s*", str(size))
    return int(match.group(1)) if match else None


def parse_mbps(rate: str) -> float:
    """``"1.5Mbps"`` → 1.5, ``"500kbps"`` → 0.5 (Mb/s)."""
    match = re.fullmatch(r"\s*([\d.]+)\s*([kMG]?)bps\s*", str(rate))
    if not match:
        raise ValueError(f"not a data rate: {rate!r}")
    scale = {"k": 1e-3, "": 1e-6, "M": 1.0, "G": 1e3}[match.group(2)]
    return float(match.group(1)) * scale


def variants_db(db_path: Path, reproduction: str) -> Path | None:
    """The database of ``reproduction``'s variant campaign (``campaigns/<name>-variants.toml``:
    calibration sweeps and cause-demonstrating variants), found beside the final campaign's
    database in the results tree (``results/<name>-variants/campaign.sqlite``, the path
    ``qdisc-lab sweep <name>-variants`` writes), or None when it has not been run."""
    if _on_papers_simulator(db_path):
        return None  # the paper's simulator's runs are judged without the module's variants
    path = Path(db_path).parent.parent / f"{reproduction}-variants" / "campaign.sqlite"
    return path if path.is_file() else None


def _on_papers_simulator(db_path: Path) -> bool:
    from qdisclab.figures import SIMULATOR_SUFFIXES

    return Path(db_path).parent.name.endswith(SIMULATOR_SUFFIXES)


def simulator_db(db_path: Path, reproduction: str, suffix: str = "-ns2") -> Path | None:
    """The database of ``reproduction``'s runs on the paper's simulator (the campaign
    ``<name><suffix>``: the same scenario as an ns-2.35 program for ``-ns2``, on ns-3.24 for
    ``-ns324``), beside the final campaign's (``results/<name>-ns2/campaign.sqlite``;
    ``campaign-quick.sqlite`` beside a quick database), or None when it has not been run."""
    db_path = Path(db_path)
    if _on_papers_simulator(db_path):
        return None
    path = db_path.parent.parent / f"{reproduction}{suffix}" / db_path.name
    return path if path.is_file() else None


#: How a paired comparison of two settings (A - B over common seeds) comes out; shown apart
#: wherever a paper counts "A >= B".
COMPARISONS = ("identical", "A ahead", "tied", "B ahead")


def compare_paired(a: Sequence[float], b: Sequence[float],
                   confidence: float = CONFIDENCE, margin: float = 0.0) -> tuple[str, Estimate]:
    """Classify ``a`` against ``b`` (values per seed, in the same seed order) as one of
    :data:`COMPARISONS` with the paired interval of ``a - b``: *identical* when every seed gives
    the same value, *A ahead* / *B ahead* when the interval lies above / below 0 and not
    entirely within the equivalence margin ±``margin``, *tied* when it contains 0 (or is
    unknown, with one seed and a difference) or lies within ±``margin`` (a difference too
    small to matter, however sure)."""
    if len(a) != len(b) or not a:
        raise ValueError(f"paired comparison needs equal, non-empty samples ({len(a)} vs {len(b)})")
    diff = t_interval(x - y for x, y in zip(a, b))
    if all(x == y for x, y in zip(a, b)):
        return "identical", diff
    if margin > 0 and math.isfinite(diff.half_width) and -margin <= diff.low \
            and diff.high <= margin:
        return "tied", diff
    if diff.excludes_zero():
        return ("A ahead" if diff.low > 0 else "B ahead"), diff
    return "tied", diff
