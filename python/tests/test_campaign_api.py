# SPDX-License-Identifier: GPL-2.0-only
"""Campaigns from a notebook (``qdisclab.campaign``: load, run or resume, results as pandas and
xarray), results beside a campaign file kept outside the clone, and NetCDF's root grid."""

import io
import math

import pytest
import xarray as xr
from click.testing import CliRunner
from rich.console import Console

from qdisclab import campaign
from qdisclab.cli import main
from qdisclab.context import REPO
from test_campaign_sweep import write_fake_program

TOML = """
name = "notebook"
program = "fake-program"
metrics = ["value_mbps"]
seeds = [1, 2]
[factors]
x = [1, 2, 3]
"""

GRIDS = """
name = "two-grids"
program = "fake-program"
seeds = [1]
[[grid]]
name = "low"
factors = { x = [1, 2] }
[[grid]]
name = "high"
factors = { x = [10, 20, 30] }
"""


def quiet() -> Console:
    return Console(file=io.StringIO(), width=200)


@pytest.fixture
def project(tmp_path):
    """A campaign file and the fake program in a directory outside the clone."""
    assert not tmp_path.resolve().is_relative_to(REPO)
    path = tmp_path / "study" / "notebook.toml"
    path.parent.mkdir()
    path.write_text(TOML, encoding="utf-8")
    return path, write_fake_program(tmp_path)


def test_load_run_resume_and_read_results_from_python(project):
    path, program = project
    spec = campaign.load(path)
    assert spec.name == "notebook" and spec.size() == 6
    # Results beside the campaign file, not in the clone.
    db = path.parent / "results" / "notebook" / "campaign.sqlite"
    assert campaign.database(spec) == db

    outcome = campaign.run(spec, binary=program, jobs=2, console=quiet())
    assert (outcome.ok, outcome.failed, outcome.db_path) == (6, 0, db)
    again = campaign.run(path, binary=program, jobs=2, console=quiet())  # resumes
    assert (again.skipped_done, again.executed) == (6, 0)

    frame = campaign.results(db)
    assert len(frame) == 6 and set(frame["status"]) == {"ok"}
    for row in frame.itertuples():
        assert row.value_mbps == pytest.approx(1.5 * row.x + row.seed / 100)
    assert frame.attrs["campaign"] == "notebook" and frame.attrs["metrics"] == [
        "value_mbps", "metric.seed"]

    (name, dataset), = campaign.datasets(db).items()
    assert name == "notebook" and dict(dataset.sizes) == {"x": 3, "seed": 2}
    assert dataset["value_mbps"].sel(x=2, seed=1).item() == pytest.approx(3.01)


def test_run_refuses_a_bad_campaign_before_any_run(project, tmp_path):
    path, program = project
    path.write_text(TOML.replace("x = [1, 2, 3]", "x = [1, \"1\"]"), encoding="utf-8")
    with pytest.raises(campaign.CampaignError, match=r"notebook\.toml: \[factors\]\.x: values 1"
                                                     r" and '1' give the same command line"):
        campaign.run(path, binary=program, console=quiet())
    assert not (path.parent / "results").exists()


def test_sweep_puts_an_outside_campaigns_results_beside_it_or_in_results(project, tmp_path):
    path, program = project
    result = CliRunner().invoke(main, ["sweep", str(path), "--binary", str(program),
                                       "--jobs", "1", "--quick"])
    assert result.exit_code == 0, result.output
    assert (path.parent / "results" / "notebook" / "campaign-quick.sqlite").is_file()
    elsewhere = tmp_path / "mine"
    result = CliRunner().invoke(main, ["sweep", str(path), "--binary", str(program),
                                       "--jobs", "1", "--results", str(elsewhere)])
    assert result.exit_code == 0, result.output
    assert (elsewhere / "notebook" / "campaign.sqlite").is_file()
    assert not (REPO / "results" / "notebook").exists()


def test_a_single_grid_is_the_netcdf_root(project, tmp_path):
    path, program = project
    outcome = campaign.run(path, binary=program, jobs=2, console=quiet())
    out = tmp_path / "runs.nc"
    result = CliRunner().invoke(main, ["export", str(outcome.db_path), "--netcdf", str(out)])
    assert result.exit_code == 0, result.output
    assert f"Exported notebook (6 runs) to {out}: xarray.open_dataset(" in " ".join(
        result.output.split())
    with xr.open_dataset(out) as dataset:
        assert dict(dataset.sizes) == {"x": 3, "seed": 2}
        assert dataset["value_mbps"].sel(x=3, seed=2).item() == pytest.approx(4.52)
        assert dataset.attrs["grid"] == "notebook"
        xr.testing.assert_identical(dataset.load(),
                                    campaign.datasets(outcome.db_path)["notebook"])


def test_sub_grids_are_groups_and_the_message_names_them(tmp_path):
    path = tmp_path / "two-grids.toml"
    path.write_text(GRIDS, encoding="utf-8")
    program = write_fake_program(tmp_path)
    outcome = campaign.run(path, binary=program, jobs=2, console=quiet())
    assert outcome.ok == 5
    out = tmp_path / "runs.nc"
    result = CliRunner().invoke(main, ["export", str(outcome.db_path), "--netcdf", str(out)])
    message = " ".join(result.output.split())
    assert result.exit_code == 0, result.output
    assert ("Exported low (2 runs), high (3 runs) to" in message
            and "one NetCDF group per sub-grid (/low, /high)" in message
            and "group='low'" in message and "xarray.open_datatree(" in message)
    with xr.open_dataset(out, group="high") as high:
        assert list(high["x"].values) == [10, 20, 30]
        assert not any(math.isnan(v) for v in high["value_mbps"].values.ravel())


def test_the_sweep_states_the_grids_size_and_cost_before_it_starts():
    from qdisclab.campaign.engine import cost_line

    spec = campaign.spec.loads_campaign(GRIDS.replace("x = [1, 2]", "x = [1, 10]")
                                        .replace("seeds = [1]", "seeds = [1, 2]\ntimeout = 60"))
    assert spec.size() == 10 and len(spec.runs()) == 8
    assert cost_line(spec, 8, 2, None, 8) == (
        "Grid: 10 runs (low 2 points, high 3 points, 8 once runs sub-grids share are merged);"
        " the 8 to run on 2 workers take at most 4 min (each at its 60 s timeout).")
    assert cost_line(spec, 6, 4, 30.0, 8) == (
        "Grid: 10 runs (low 2 points, high 3 points, 8 once runs sub-grids share are merged);"
        " the 6 to run on 4 workers take about 45 s at the 30.0 s a run stored so far;"
        " at most 90 s (each at its 60 s timeout).")
