# SPDX-License-Identifier: GPL-2.0-only
"""Campaigns from Python (a notebook, a script): load, run or resume, and read the results.

::

    from qdisclab import campaign

    spec = campaign.load("campaigns/red-vs-droptail.toml", quick=True)
    print(spec.size(), "runs")
    outcome = campaign.run(spec, jobs=2)           # resumes: stored runs are skipped
    frame = campaign.results(outcome.db_path)      # pandas.DataFrame, one row per run
    grids = campaign.datasets(outcome.db_path)     # {sub-grid: xarray.Dataset}

:func:`run` is ``qdisc-lab sweep`` without the command line: the same checks before the first
run, the same database and resume, the same result (:class:`~.engine.SweepResult`); a
campaign that fails its checks raises :class:`~.spec.CampaignError`. :func:`results` and
:func:`datasets` open the database read-only (:mod:`.export` describes their columns and
dimensions). Interrupting :func:`run` (the notebook's stop button is SIGINT) stops the runs
in flight and keeps what is stored; calling it again goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from qdisclab.campaign.spec import Campaign, load_campaign


def load(campaign: str | Path, *, quick: bool = False) -> Campaign:
    """A campaign file (a path, or a name in ``campaigns/``), checked as ``sweep`` checks it
    before reading the program's ``--schema`` (which :func:`run` reads)."""
    return load_campaign(campaign, quick=quick)


def database(campaign: Campaign | str | Path, *, quick: bool = False,
             results: str | Path | None = None) -> Path:
    """Where :func:`run` stores ``campaign``'s runs by default (see ``sweep --results``)."""
    from qdisclab.campaign.engine import default_db_path

    if not isinstance(campaign, Campaign):
        campaign = load(campaign, quick=quick)
    return default_db_path(campaign, Path(results) if results is not None else None)


def run(campaign: Campaign | str | Path, *, quick: bool = False, db: str | Path | None = None,
        results: str | Path | None = None, jobs: int | None = None,
        binary: str | Path | None = None, flavor: str | None = None,
        retry_failed: bool = False, grids: Sequence[str] | None = None,
        console: Any = None):
    """Run every run of ``campaign`` not stored yet (a :class:`Campaign`, or a file or name
    to :func:`load` with ``quick``); return the :class:`~.engine.SweepResult`.

    ``db`` (else :func:`database` in ``results``), ``jobs``, ``binary`` (else
    ``build/<flavor>/examples/<program>``, ``flavor`` defaulting to the campaign's ``ns3``),
    ``retry_failed`` and ``grids`` are ``sweep``'s options. ``console``: a
    :class:`rich.console.Console` for the progress (default: the tooling's).
    """
    from qdisclab.campaign.engine import program_binary, sweep
    from qdisclab.context import CONSOLE
    from qdisclab.toolchain.build import runtime_env

    if not isinstance(campaign, Campaign):
        campaign = load(campaign, quick=quick)
    flavor = flavor or campaign.ns3
    program = Path(binary) if binary is not None else program_binary(campaign.program, flavor)
    db = Path(db) if db is not None else database(campaign, results=results)
    return sweep(campaign, program, db, jobs=jobs, retry_failed=retry_failed,
                 env=runtime_env(flavor) or None, flavor=flavor, grids=grids,
                 console=console or CONSOLE)


def results(db: str | Path):
    """Every run stored in the database ``db`` as a typed :class:`pandas.DataFrame`
    (:func:`~.export.runs_frame`)."""
    from qdisclab.campaign.export import runs_frame

    return runs_frame(db)


def datasets(db: str | Path) -> dict[str, Any]:
    """The database's campaign as one :class:`xarray.Dataset` per sub-grid, by name
    (:func:`~.export.grid_datasets`)."""
    from qdisclab.campaign.export import grid_datasets

    return grid_datasets(db)
