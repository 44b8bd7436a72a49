# SPDX-License-Identifier: GPL-2.0-only
"""Synthetic results databases for the reproductions' figures tests, and reading their CSVs.

A test constructs every metric of every run of a campaign file, so the figures module's
numbers are known in closed form; :func:`write_campaign_db` stores them as ``ok`` runs of that
campaign, the way ``qdisc-lab campaign`` would, and :func:`draw_results` draws the figures of
such a database laid out as in ``results/``.
"""

import csv
from collections.abc import Callable
from pathlib import Path

from qdisclab.campaign.spec import Run, load_campaign
from qdisclab.campaign.store import ResultStore
from qdisclab.figures import FigureSet, get_reproduction


def write_campaign_db(path: Path, campaign_file: Path, metrics: Callable[[Run], dict], *,
                      quick: bool = False, skip: Callable[[Run], bool] = lambda run: False,
                      wall_time_s: Callable[[Run], float] = lambda run: 0.5,
                      ns3_version: str = "3.37") -> int:
    """Store every run of ``campaign_file`` (its --quick grid if ``quick``) but those ``skip``
    names, with ``metrics(run)``, in the database ``path``; return the number stored."""
    campaign = load_campaign(campaign_file, quick=quick)
    stored = 0
    with ResultStore(path) as store:
        store.set_meta({"campaign": campaign.name, "program": campaign.program,
                        "mode": campaign.mode,
                        "campaign_toml": campaign_file.read_text(encoding="utf-8")})
        with store.conn:  # one transaction: fast
            store.conn.execute("BEGIN")
            for run in campaign.runs():
                if skip(run):
                    continue
                store.record({
                    "run_key": run.key, "campaign": campaign.name, "program": run.program,
                    "grid": run.grid, "params": run.params, "seed": run.seed, "status": "ok",
                    "metrics": metrics(run), "wall_time_s": wall_time_s(run), "exit_code": 0,
                    "ns3_version": ns3_version, "git_rev": "abc123",
                })
                stored += 1
    return stored


def draw_results(root: Path, name: str, make_db: Callable[..., int], *,
                 quick: bool) -> tuple[Path, FigureSet, int]:
    """Write reproduction ``name``'s database with ``make_db(path, quick=quick)`` and draw its
    figures, both where ``qdisc-lab reproduce`` puts them under the results directory ``root``
    (``<name>/campaign.sqlite`` and ``<name>/``; ``<name>/campaign-quick.sqlite`` and
    ``<name>/quick/``); return the figures' directory, the figure set and the runs stored."""
    directory = root / name
    db = directory / ("campaign-quick.sqlite" if quick else "campaign.sqlite")
    count = make_db(db, quick=quick)
    out_dir = directory / "quick" if quick else directory
    return out_dir, get_reproduction(name).make_figures(db, out_dir), count


def read_csv(path: Path) -> list[dict[str, str]]:
    """The rows of a CSV the figures wrote, by column name."""
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))
