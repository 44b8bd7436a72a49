# SPDX-License-Identifier: GPL-2.0-only
"""Synthetic results databases for the reproductions' figures tests, and reading their CSVs.

A test constructs every metric of every run of a campaign file, so the figures module's
numbers are known in closed form; :func:`write_campaign_db` stores them as ``ok`` runs of that
campaign, the way ``qdisc-lab campaign`` would, and :func:`draw_results` draws the figures of
such a database laid out as in ``results/``.

Each run stores a metrics report as a program writes it, whose ``params`` are every parameter
the run had but those the program never records: the campaign's over the program's own
defaults (its ``--schema``; the figures read a run's scenario from there), and what the
program computes from them where its default is a placeholder (``resolve``, given by the test
as the program's example tests check it).
"""

import csv
import json
import subprocess
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from qdisclab.campaign.engine import program_binary
from qdisclab.campaign.spec import CampaignError, Run, load_campaign
from qdisclab.campaign.store import ResultStore, RunRecord
from qdisclab.figures import FigureSet, get_reproduction
from qdisclab.schema import SchemaError, parse_schema, read_schema
from qdisclab.toolchain.build import NS2


@cache
def program_schema(program: str, flavor: str, scenario: str | None = None
                   ) -> tuple[dict, frozenset]:
    """The defaults of every parameter of ``program`` (of the build ``flavor``), from its
    ``--schema`` (with ``--scenario=<scenario>`` for a program whose defaults follow its
    scenario), and the names it never records; the test is skipped while it is not built."""
    try:
        binary = program_binary(program, flavor)
        if scenario is None:
            schema = read_schema(binary)
        else:
            args = [str(binary), f"--scenario={scenario}", "--schema"]
            done = subprocess.run(args, capture_output=True, text=True, check=True, timeout=60)
            schema = parse_schema(done.stdout, " ".join(args))
    except (CampaignError, SchemaError) as exc:
        pytest.skip(f"{program}'s --schema (its defaults): {exc}")
    return ({p["name"]: p["default"] for p in schema.params},
            frozenset(p["name"] for p in schema.params if p["recorded"] == "never"))


def program_params(program: str, **params) -> dict:
    """Every parameter a run of ``program`` (system build) that sets ``params`` has."""
    return {**program_schema(program, "system", params.get("scenario"))[0], **params}


def program_report(program: str, **params) -> dict:
    """The ``params`` of the metrics report of a run of ``program`` (system build) that sets
    ``params``: :func:`program_params` but those the program never records."""
    never = program_schema(program, "system", params.get("scenario"))[1]
    return {name: value for name, value in program_params(program, **params).items()
            if name not in never}


def schema_flavor(simulator: str) -> str:
    """The build whose program answers ``--schema`` for a campaign on ``simulator``: ns-2.35's
    program for ns-2, else the system build (every ns-3 flavour builds the same example)."""
    return NS2 if simulator == NS2 else "system"


def run_params(run: Run, flavor: str = "system",
               resolve: Callable[[dict], dict] = lambda params: {}) -> dict:
    """Every parameter ``run`` has: the campaign's over the program's defaults, then
    ``resolve(params)`` (what the program computes from them) over those."""
    params = {**program_schema(run.program, flavor, run.params.get("scenario"))[0],
              **run.params}
    return {**params, **resolve(params)}


def reported_params(run: Run, flavor: str = "system",
                    resolve: Callable[[dict], dict] = lambda params: {}) -> dict:
    """The ``params`` of ``run``'s metrics report: :func:`run_params` but those the program
    never records."""
    never = program_schema(run.program, flavor, run.params.get("scenario"))[1]
    return {name: value for name, value in run_params(run, flavor, resolve).items()
            if name not in never}


def stored_run(run: Run, metrics: dict | None = None, *, grid: str | None = None,
               resolve: Callable[[dict], dict] = lambda params: {}) -> RunRecord:
    """``run`` as the store gives it back once it ran (grid ``grid``, else its own), with
    ``metrics`` and its report's params (:func:`reported_params`, system build)."""
    return RunRecord(run.key, "c", run.program, run.grid if grid is None else grid, run.params,
                     run.seed, "ok", None, metrics, None, None, None, None, None, None, None, 1,
                     None, None, reported_params=reported_params(run, resolve=resolve))


def write_campaign_db(path: Path, campaign_file: Path, metrics: Callable[[Run], dict], *,
                      quick: bool = False, skip: Callable[[Run], bool] = lambda run: False,
                      wall_time_s: Callable[[Run], float] = lambda run: 0.5,
                      ns3_version: str = "3.37",
                      resolve: Callable[[dict], dict] = lambda params: {}) -> int:
    """Store every run of ``campaign_file`` (its --quick grid if ``quick``) but those ``skip``
    names, with ``metrics(run)`` and the report's params :func:`reported_params` gives
    (``resolve``: what the program computes), in the database ``path``; return the number
    stored."""
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
                run_metrics = metrics(run)
                report = {"schema": "qdisc-lab.metrics/1", "program": run.program,
                          "params": reported_params(run, schema_flavor(campaign.ns3), resolve),
                          "metrics": run_metrics}
                store.record({
                    "run_key": run.key, "campaign": campaign.name, "program": run.program,
                    "grid": run.grid, "params": run.params, "seed": run.seed, "status": "ok",
                    "metrics": run_metrics, "output": json.dumps(report),
                    "wall_time_s": wall_time_s(run), "exit_code": 0,
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
