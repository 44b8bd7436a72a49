# SPDX-License-Identifier: GPL-2.0-only
"""A campaign database as data for pandas and xarray (``qdisc-lab export``).

:func:`runs_frame` / ``--parquet``
    One row per stored run, in a :class:`pandas.DataFrame` with typed columns: ``run_key``,
    ``status`` (a category of ``ok``, ``failed``, ``timeout``), ``seed``, ``grid`` (the
    sub-grid that first named the run), then one column per parameter and per metric, then
    ``wall_time_s``, ``exit_code``, ``attempts``, ``started_at`` and ``finished_at`` (UTC
    times), ``ns3_version``, ``git_rev``, ``host`` and ``reason``, and, when some run kept
    files (a campaign's ``keep``), ``kept_dir``: the run's folder of kept files, absolute, or
    in a Parquet file relative to the file's directory (``<NA>`` where a run kept none). A
    parameter or metric
    column takes the type of its values: ``bool``, ``int64``, ``float64`` (integers mixed
    with floats) or ``string``; a column with runs that lack it (a parameter only some
    sub-grids set, a metric of failed runs) is the nullable ``boolean`` / ``Int64`` /
    ``float64`` (NaN) / ``string``. A name already taken by a column is prefixed
    ``param.`` / ``metric.``, as in the CSV. The frame's ``attrs`` (kept in the Parquet
    file) name the campaign, its program and mode, and its parameter and metric columns.

:func:`grid_datasets` / ``--netcdf``
    The campaign file stored in the database, as one :class:`xarray.Dataset` per sub-grid
    (``[[grid]]``; a campaign without sub-grids is one, named after the campaign). A
    sub-grid is rectangular where the campaign as a whole need not be (the union of
    sub-grids of different factors), so each sub-grid is its own Dataset rather than one
    stacked ``run`` dimension: its dimensions are the sub-grid's factors, one per zipped
    group (named after its members joined by ``+``, the members its coordinates), then
    ``seed``; its fixed parameters are scalar coordinates. The variables are the metrics its
    runs report (``float64``, NaN where a run is missing, failed or reported null),
    ``status`` (``ok``, ``failed``, ``timeout`` or ``not run``) and ``wall_time_s``, and
    ``kept_dir`` (relative to the NetCDF file's directory; empty where a run kept nothing)
    when some run of the sub-grid kept files. A run
    two sub-grids share is in both; runs stored but not in the campaign file (left from an
    earlier version of it) are only in the Parquet/CSV export. A campaign of one grid (no
    ``[[grid]]``, or a single one) is the NetCDF-4 file's root: ``xarray.open_dataset(path)``.
    With several sub-grids the file holds one group per sub-grid:
    ``xarray.open_datatree(path)``, or ``xarray.open_dataset(path, group=NAME)``.

Every function here opens the database read-only (:func:`~qdisclab.campaign.store.read_only`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from qdisclab.campaign.spec import Campaign, CampaignError, run_key, stored_campaign
from qdisclab.campaign.store import STATUSES, ResultStore, RunRecord, kept_path, read_only

#: What ``status`` says in a NetCDF export for a point of the grid with no stored run.
NOT_RUN = "not run"

_HEAD = ("run_key", "status", "seed", "grid")
_TAIL = ("wall_time_s", "exit_code", "attempts", "started_at", "finished_at", "ns3_version",
         "git_rev", "host", "reason")


def titles(names: Iterable[str], taken: Iterable[str], prefix: str) -> dict[str, str]:
    """Each of ``names`` titled itself, or ``prefix.name`` when ``taken`` has it."""
    taken = set(taken)
    return {name: f"{prefix}.{name}" if name in taken else name for name in names}


def _typed(values: Sequence[Any]):
    """``values`` (JSON scalars, None for missing) as a pandas Series of their type."""
    import pandas as pd

    present = [v for v in values if v is not None]
    kinds = {type(v) for v in present}
    complete = len(present) == len(values)
    if kinds and kinds <= {bool}:
        return pd.Series(values, dtype="bool" if complete else "boolean")
    if kinds and kinds <= {int}:
        return pd.Series(values, dtype="int64" if complete else "Int64")
    if kinds <= {int, float}:
        return pd.Series([np.nan if v is None else v for v in values], dtype="float64")
    return pd.Series([None if v is None else str(v) for v in values], dtype="string")


def runs_frame(db: str | Path, relative_to: str | Path | None = None):
    """Every run of the database ``db`` as a typed :class:`pandas.DataFrame` (module doc);
    ``kept_dir`` relative to the directory ``relative_to``, absolute when it is None."""
    import pandas as pd

    with read_only(), ResultStore(db) as store:
        meta = store.meta()
        records = store.runs()
    tail = _TAIL + (("kept_dir",) if any(r.kept_dir for r in records) else ())
    params = list(dict.fromkeys(name for r in records for name in r.params))
    metrics = list(dict.fromkeys(name for r in records for name in (r.metrics or {})))
    param_titles = titles(params, {*_HEAD, *tail}, "param")
    metric_titles = titles(metrics, {*_HEAD, *tail, *param_titles.values()}, "metric")

    def strings(values):
        return pd.Series(values, dtype="string")

    columns = {
        "run_key": strings([r.run_key for r in records]),
        "status": pd.Categorical([r.status for r in records], categories=STATUSES),
        "seed": pd.Series([r.seed for r in records], dtype="int64"),
        "grid": pd.Categorical([r.grid or "" for r in records]),
    }
    for name in params:
        columns[param_titles[name]] = _typed([r.params.get(name) for r in records])
    for name in metrics:
        columns[metric_titles[name]] = _typed([(r.metrics or {}).get(name) for r in records])
    columns.update({
        "wall_time_s": pd.Series([r.wall_time_s for r in records], dtype="float64"),
        "exit_code": pd.Series([r.exit_code for r in records], dtype="Int64"),
        "attempts": pd.Series([r.attempts for r in records], dtype="int64"),
        # Milliseconds: Parquet's coarsest unit, so a frame read back has the same dtype.
        "started_at": pd.to_datetime([r.started_at for r in records], utc=True).as_unit("ms"),
        "finished_at": pd.to_datetime([r.finished_at for r in records], utc=True).as_unit("ms"),
    })
    for name in ("ns3_version", "git_rev", "host", "reason"):
        columns[name] = strings([getattr(r, name) for r in records])
    if "kept_dir" in tail:
        columns["kept_dir"] = strings([kept_path(db, r.kept_dir, relative_to) for r in records])
    frame = pd.DataFrame(columns)
    frame.attrs = {
        "campaign": meta.get("campaign", ""), "program": meta.get("program", ""),
        "mode": meta.get("mode", ""), "params": list(param_titles.values()),
        "metrics": list(metric_titles.values()),
    }
    return frame


def write_parquet(db: str | Path, path: str | Path) -> int:
    """Write :func:`runs_frame` of ``db`` to the Parquet file ``path``; return its rows."""
    path = Path(path)
    frame = runs_frame(db, path.parent)
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_parquet(path, index=False, engine="pyarrow")
    return len(frame)


def _coordinate(values: Sequence[Any]) -> np.ndarray:
    """Parameter values as a typed array (bools, integers, floats or strings)."""
    kinds = {type(v) for v in values}
    if kinds <= {bool} or kinds <= {int} or kinds <= {int, float}:
        return np.asarray(values)
    return np.asarray([str(v) for v in values], dtype=str)


def grid_datasets(db: str | Path, relative_to: str | Path | None = None) -> dict[str, Any]:
    """The database's stored campaign as one :class:`xarray.Dataset` per sub-grid, by the
    sub-grid's name (module doc); :class:`CampaignError` when it stores no campaign file.
    ``kept_dir`` is relative to the directory ``relative_to``, absolute when it is None."""
    import xarray as xr

    with read_only(), ResultStore(db) as store:
        meta = store.meta()
        records = {record.run_key: record for record in store.runs()}
    campaign = stored_campaign(meta)
    if campaign is None:
        raise CampaignError(
            f"{db} stores no (readable) campaign file, so its grid is unknown:"
            " export it with --parquet or --csv"
        )
    return {grid.name: _grid_dataset(xr, campaign, index, records, db, relative_to)
            for index, grid in enumerate(campaign.grids)}


def _grid_dataset(xr, campaign: Campaign, index: int, records: dict[str, RunRecord],
                  db: str | Path, relative_to: str | Path | None):
    grid = campaign.grids[index]
    seeds = list(campaign.seeds if grid.seeds is None else grid.seeds)
    dims: list[str] = []
    sizes: list[int] = []
    coords: dict[str, Any] = {}
    for name, values in grid.factors.items():
        dims.append(name)
        sizes.append(len(values))
        coords[name] = (name, _coordinate(values))
    for group in grid.zips:
        dims.append("+".join(group))
        sizes.append(len(next(iter(group.values()))))
        coords.update({name: (dims[-1], _coordinate(values)) for name, values in group.items()})
    coords.update({name: _coordinate([value])[0] for name, value in grid.fixed.items()})
    coords["seed"] = ("seed", np.asarray(seeds, dtype="int64"))
    shape = (*sizes, len(seeds))

    found: list[tuple[tuple[int, ...], RunRecord]] = []
    combinations = zip(np.ndindex(*shape[:-1]), grid.combinations(), strict=True)
    for (point, params), (s, seed) in itertools.product(combinations, enumerate(seeds)):
        record = records.get(run_key(campaign.program, params, seed))
        if record is not None:
            found.append(((*point, s), record))
    metrics = list(dict.fromkeys([*campaign.metrics, *(
        name for _, record in found for name in (record.metrics or {}))]))
    metric_titles = titles(metrics, {*coords, "status", "wall_time_s", "kept_dir"}, "metric")

    status = np.full(shape, NOT_RUN, dtype=object)
    kept = np.full(shape, "", dtype=object)
    wall = np.full(shape, np.nan)
    data = {name: np.full(shape, np.nan) for name in metrics}
    for point, record in found:
        status[point] = record.status
        kept[point] = kept_path(db, record.kept_dir, relative_to) or ""
        wall[point] = np.nan if record.wall_time_s is None else record.wall_time_s
        for name, value in (record.metrics or {}).items():
            data[name][point] = np.nan if value is None else value
    all_dims = (*dims, "seed")
    variables = {metric_titles[name]: (all_dims, values) for name, values in data.items()
                 if not np.isnan(values).all()}
    variables["status"] = (all_dims, status.astype(str))
    variables["wall_time_s"] = (all_dims, wall, {"units": "s"})
    if any(record.kept_dir for _, record in found):
        variables["kept_dir"] = (all_dims, kept.astype(str))
    attrs = {"campaign": campaign.name, "program": campaign.program, "mode": campaign.mode,
             "grid": grid.name, "runs": len(found)}
    return xr.Dataset(variables, coords=coords, attrs=attrs)


def write_netcdf(db: str | Path, path: str | Path) -> dict[str, int]:
    """Write :func:`grid_datasets` of ``db`` to the NetCDF-4 file ``path``: a single grid at
    the file's root, several as one group each; return the stored runs per sub-grid."""
    import xarray as xr

    path = Path(path)
    datasets = grid_datasets(db, path.parent)
    first = next(iter(datasets.values()))
    if len(datasets) == 1:
        encoding = {variable: {"zlib": True, "complevel": 4} for variable in first.data_vars}
        path.parent.mkdir(parents=True, exist_ok=True)
        first.to_netcdf(path, engine="netcdf4", encoding=encoding)
        return {name: ds.attrs["runs"] for name, ds in datasets.items()}
    root = xr.Dataset(attrs={key: first.attrs[key] for key in ("campaign", "program", "mode")}
                      | {"grids": list(datasets)})
    tree = xr.DataTree.from_dict(
        {"/": root, **{_group(name): ds for name, ds in datasets.items()}}
    )
    # Compressed (zlib): the metrics of runs not made are NaN, and seeds repeat values.
    encoding = {_group(name): {variable: {"zlib": True, "complevel": 4}
                               for variable in ds.data_vars}
                for name, ds in datasets.items()}
    path.parent.mkdir(parents=True, exist_ok=True)
    tree.to_netcdf(path, engine="netcdf4", encoding=encoding)
    return {name: ds.attrs["runs"] for name, ds in datasets.items()}


def netcdf_message(runs: dict[str, int], path: str | Path) -> str:
    """What ``export --netcdf`` says it wrote, and how to open it."""
    grids = ", ".join(f"{name} ({count} runs)" for name, count in runs.items())
    if len(runs) == 1:
        return f"Exported {grids} to {path}: xarray.open_dataset({str(path)!r})"
    first = next(iter(runs))
    return (f"Exported {grids} to {path}, one NetCDF group per sub-grid"
            f" ({', '.join(_group(name) for name in runs)}):"
            f" xarray.open_dataset({str(path)!r}, group={first!r}), or"
            f" xarray.open_datatree({str(path)!r})")


def _group(name: str) -> str:
    """A sub-grid's group path in the file (``/`` would nest groups)."""
    return "/" + (name.replace("/", "_") or "grid")
