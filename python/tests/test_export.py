# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab export``: a synthetic campaign database to Parquet (pandas) and NetCDF (xarray),
read back, with every dtype, shape and value known.

The toy campaign is not rectangular: a FIFO sub-grid over ``limit`` and a RED sub-grid over
``gentle`` and a zipped ``minTh``/``maxTh`` (with its own seeds), both crossed with a top-level
``rate`` whose values mix an integer and a float; a third sub-grid repeats one FIFO point. One
run failed, one was never run, and one stored run is not in the campaign file any more.
"""

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from click.testing import CliRunner

from qdisclab.campaign.export import NOT_RUN, grid_datasets, runs_frame
from qdisclab.campaign.spec import loads_campaign, run_key
from qdisclab.campaign.store import ResultStore
from qdisclab.cli import main

CAMPAIGN_TOML = """
name = "toy"
program = "toy-prog"
metrics = ["goodput", "drops"]
seeds = [1, 2]
[fixed]
simTime = 10
[factors]
rate = [1, 2.5]
[[grid]]
name = "fifo"
fixed = { queue = "FIFO" }
factors = { limit = [100, 200, 300] }
[[grid]]
name = "red"
fixed = { queue = "RED" }
factors = { gentle = [true, false] }
zip = [{ minTh = [5, 10], maxTh = [15, 30] }]
seeds = [1, 2, 3]
[[grid]]
name = "fifo-200"
fixed = { queue = "FIFO", limit = 200 }
"""

FAILED = {"simTime": 10, "rate": 2.5, "queue": "RED", "gentle": False, "minTh": 10, "maxTh": 30}
MISSING = {"simTime": 10, "rate": 2.5, "queue": "FIFO", "limit": 300}
LEFTOVER = {"simTime": 10, "rate": 1, "queue": "FIFO", "limit": 400}


def goodput(params: dict, seed: int) -> float:
    """Exact in binary: sums of multiples of 1/16."""
    if params["queue"] == "FIFO":
        return params["rate"] * params["limit"] / 100 + seed / 8
    return params["rate"] * (params["maxTh"] - params["minTh"]) / 8 + seed / 16


def drops(params: dict, seed: int) -> int:
    return seed * 10 + (1 if params.get("gentle") else 0)


def metrics(params: dict, seed: int) -> dict:
    # "limit" is also a parameter's name: the metric is exported as "metric.limit".
    return {"goodput": goodput(params, seed), "drops": drops(params, seed),
            "limit": params.get("limit", params.get("maxTh"))}


def record(store, params, seed, *, status="ok", grid=""):
    failed = status != "ok"
    store.record({
        "run_key": run_key("toy-prog", params, seed), "campaign": "toy", "program": "toy-prog",
        "grid": grid, "params": params, "seed": seed, "status": status,
        "reason": "exit status 3" if failed else None,
        "metrics": None if failed else metrics(params, seed),
        "wall_time_s": 0.5 + seed, "exit_code": 3 if failed else 0, "ns3_version": "3.37",
        "git_rev": "abc123", "started_at": "2026-11-22T10:00:00Z",
        "finished_at": f"2026-11-22T10:00:0{seed}Z",
    })


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("export") / "campaign.sqlite"
    campaign = loads_campaign(CAMPAIGN_TOML)
    with ResultStore(path) as store:
        store.set_meta({"campaign": "toy", "program": "toy-prog", "mode": "full",
                        "campaign_toml": CAMPAIGN_TOML})
        for run in campaign.runs():
            if run.params == MISSING and run.seed == 2:
                continue
            failed = run.params == FAILED and run.seed == 3
            record(store, run.params, run.seed, status="failed" if failed else "ok",
                   grid=run.grid)
        record(store, LEFTOVER, 1, grid="fifo")
    return path


# 2 rates x (3 limits x 2 seeds + 2 gentle x 2 zipped x 3 seeds) = 36 runs; fifo-200's 4 runs
# are fifo's; one not run, one left over.
RUNS = 36 - 1 + 1


def test_the_campaign_is_what_the_tests_assume():
    campaign = loads_campaign(CAMPAIGN_TOML)
    assert len(campaign.runs()) == 36
    assert [grid.size() for grid in campaign.grids] == [6, 8, 2]


def test_parquet_round_trip_keeps_types_and_values(db, tmp_path):
    out = tmp_path / "runs.parquet"
    result = CliRunner().invoke(main, ["export", str(db), "--parquet", str(out)])
    assert result.exit_code == 0, result.output
    assert f"Exported {RUNS} runs to {out}" in result.output

    frame = pd.read_parquet(out)
    assert frame.shape == (RUNS, 23)
    assert frame.dtypes.to_dict() == runs_frame(db).dtypes.to_dict()
    dtypes = {name: str(dtype) for name, dtype in frame.dtypes.items()}
    assert dtypes == {
        "run_key": "string", "status": "category", "seed": "int64", "grid": "category",
        "simTime": "int64", "rate": "float64", "queue": "string", "limit": "Int64",
        "gentle": "boolean", "minTh": "Int64", "maxTh": "Int64",
        "goodput": "float64", "drops": "Int64", "metric.limit": "Int64",
        "wall_time_s": "float64", "exit_code": "Int64", "attempts": "int64",
        "started_at": "datetime64[ms, UTC]", "finished_at": "datetime64[ms, UTC]",
        "ns3_version": "string", "git_rev": "string", "host": "string", "reason": "string",
    }
    assert list(frame["status"].cat.categories) == ["ok", "failed", "timeout"]
    assert frame.attrs == {
        "campaign": "toy", "program": "toy-prog", "mode": "full",
        "params": ["simTime", "queue", "rate", "limit", "gentle", "minTh", "maxTh"],
        "metrics": ["goodput", "drops", "metric.limit"],
    }
    assert frame["status"].value_counts().to_dict() == {"ok": RUNS - 1, "failed": 1,
                                                          "timeout": 0}

    stored = {run.key: run.params for run in loads_campaign(CAMPAIGN_TOML).runs()}
    stored[run_key("toy-prog", LEFTOVER, 1)] = LEFTOVER
    for row in frame.to_dict("records"):
        params = stored.pop(row["run_key"])
        assert {name: row[name] for name in frame.attrs["params"]
                if not pd.isna(row[name])} == params  # 1 == 1.0: rate is a float column
        if row["status"] == "failed":
            assert params == FAILED and row["seed"] == 3
            assert math.isnan(row["goodput"]) and pd.isna(row["drops"])
            assert row["reason"] == "exit status 3" and row["exit_code"] == 3
            continue
        assert row["goodput"] == goodput(params, row["seed"])
        assert row["drops"] == drops(params, row["seed"])
        assert row["wall_time_s"] == 0.5 + row["seed"]
        assert row["finished_at"] == pd.Timestamp(f"2026-11-22T10:00:0{row['seed']}Z")
    assert list(stored.values()) == [MISSING]  # the one run never made
    leftover = frame[frame["limit"] == 400]
    assert len(leftover) == 1 and leftover["rate"].iloc[0] == 1.0
    red = frame[frame["queue"] == "RED"]
    assert red["limit"].isna().all() and red["gentle"].notna().all()
    assert set(red["seed"]) == {1, 2, 3} and len(red) == 24


def test_netcdf_has_one_dataset_per_sub_grid_over_its_factors(db, tmp_path):
    out = tmp_path / "runs.nc"
    result = CliRunner().invoke(main, ["export", str(db), "--netcdf", str(out)])
    assert result.exit_code == 0, result.output
    assert "fifo (11 runs), red (24 runs), fifo-200 (4 runs)" in result.output

    tree = xr.open_datatree(out)
    assert sorted(tree.children) == ["fifo", "fifo-200", "red"]
    assert tree.attrs["campaign"] == "toy" and list(tree.attrs["grids"]) == ["fifo", "red",
                                                                               "fifo-200"]

    fifo = tree["fifo"].to_dataset()
    assert dict(fifo.sizes) == {"rate": 2, "limit": 3, "seed": 2}
    assert fifo["goodput"].dims == ("rate", "limit", "seed")
    assert fifo["rate"].dtype == np.float64 and list(fifo["rate"].values) == [1.0, 2.5]
    assert fifo["limit"].dtype == np.int64 and list(fifo["limit"].values) == [100, 200, 300]
    assert fifo["seed"].dtype == np.int64 and list(fifo["seed"].values) == [1, 2]
    assert fifo["queue"].item() == "FIFO" and fifo["simTime"].item() == 10
    assert set(fifo.data_vars) == {"goodput", "drops", "metric.limit", "status", "wall_time_s"}
    assert fifo["goodput"].dtype == np.float64 and fifo["drops"].dtype == np.float64
    for rate in (1, 2.5):
        for limit in (100, 200, 300):
            for seed in (1, 2):
                point = fifo.sel(rate=rate, limit=limit, seed=seed)
                params = {"simTime": 10, "rate": rate, "queue": "FIFO", "limit": limit}
                if params == MISSING and seed == 2:
                    assert point["status"].item() == NOT_RUN
                    assert math.isnan(point["goodput"].item())
                    continue
                assert point["status"].item() == "ok"
                assert point["goodput"].item() == goodput(params, seed)
                assert point["drops"].item() == drops(params, seed)
                assert point["metric.limit"].item() == limit
    # The left-over run (limit 400) is no point of the grid.
    assert 400 not in fifo["limit"].values

    red = tree["red"].to_dataset()
    assert dict(red.sizes) == {"rate": 2, "gentle": 2, "minTh+maxTh": 2, "seed": 3}
    assert red["gentle"].dtype == np.bool_ and list(red["gentle"].values) == [True, False]
    assert red["minTh"].dims == ("minTh+maxTh",) and list(red["maxTh"].values) == [15, 30]
    failed = red.isel(rate=1, gentle=1, **{"minTh+maxTh": 1}).sel(seed=3)
    assert failed["status"].item() == "failed" and math.isnan(failed["goodput"].item())
    assert failed["wall_time_s"].item() == 3.5
    ok = red.isel(rate=1, gentle=0, **{"minTh+maxTh": 1}).sel(seed=3)
    assert ok["goodput"].item() == goodput({"queue": "RED", "rate": 2.5, "minTh": 10,
                                             "maxTh": 30}, 3)
    assert ok["drops"].item() == 31
    assert int((red["status"] == "ok").sum()) == 23

    # The point fifo-200 shares with fifo is in both, with the same numbers.
    shared = tree["fifo-200"].to_dataset()
    assert dict(shared.sizes) == {"rate": 2, "seed": 2} and shared["limit"].item() == 200
    np.testing.assert_array_equal(shared["goodput"].values,
                                  fifo["goodput"].sel(limit=200).values)


def test_datasets_match_the_file(db, tmp_path):
    out = tmp_path / "runs.nc"
    assert CliRunner().invoke(main, ["export", str(db), "--netcdf", str(out)]).exit_code == 0
    for name, dataset in grid_datasets(db).items():
        xr.testing.assert_identical(xr.open_dataset(out, group=name).load(), dataset)


def test_export_writes_every_format_asked_for(db, tmp_path):
    paths = [tmp_path / "out" / name for name in ("runs.csv", "runs.parquet", "runs.nc")]
    result = CliRunner().invoke(main, ["export", str(db), "--csv", str(paths[0]),
                                       "--parquet", str(paths[1]), "--netcdf", str(paths[2])])
    assert result.exit_code == 0, result.output
    assert all(path.is_file() for path in paths)
    assert len(pd.read_csv(paths[0])) == len(pd.read_parquet(paths[1])) == RUNS


def test_export_needs_a_format(db):
    result = CliRunner().invoke(main, ["export", str(db)])
    assert result.exit_code == 2
    assert "give at least one of --csv, --parquet, --netcdf" in result.output


def test_netcdf_needs_the_stored_campaign(tmp_path):
    path = tmp_path / "bare.sqlite"
    with ResultStore(path) as store:
        record(store, LEFTOVER, 1)
    result = CliRunner().invoke(main, ["export", str(path), "--netcdf", str(tmp_path / "x.nc")])
    assert result.exit_code == 1
    assert "stores no (readable) campaign file, so its grid is unknown" in result.output
    assert len(runs_frame(path)) == 1  # the Parquet export needs no campaign file
