# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab rekey``: a database recorded with a parameter's old values becomes the one the
campaign with the new values plans, with every metric as recorded."""

import json
import sqlite3

import pytest
from click.testing import CliRunner

from qdisclab.campaign.rekey import parse_renames, rekey
from qdisclab.campaign.spec import CampaignError, loads_campaign, run_key
from qdisclab.campaign.store import ResultStore, kept_root
from qdisclab.cli import main

OLD_CAMPAIGN = """\
program = "red-vs-droptail"
seeds = [1, 2]
[factors]
queueDisc = ["DropTail", "Red"]
window = [2000, 8000]
"""


def record(db, campaign, kept=False):
    """Store every run of ``campaign`` as the engine does, a report holding its params."""
    with ResultStore(db) as store:
        store.set_meta({"campaign": campaign.name, "campaign_toml": campaign.text})
        for run in campaign.runs():
            report = {"schema": "qdisc-lab.metrics/1", "program": run.program,
                      "params": {**run.params, "RngRun": run.seed},
                      "metrics": {"goodput_mbps": run.seed + run.params["window"] / 1e4}}
            row = {"run_key": run.key, "campaign": campaign.name, "program": run.program,
                   "grid": run.grid, "params": run.params, "seed": run.seed, "status": "ok",
                   "metrics": report["metrics"], "output": json.dumps(report),
                   "command": " ".join(["prog", *run.args()]), "attempts": 1}
            if kept:
                row["kept_dir"] = f"{kept_root(db).name}/{run.key}"
                row["kept_files"] = [("trace.pcap", 10)]
                (kept_root(db) / run.key).mkdir(parents=True)
            store.record(row)


def rows(db):
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        return {r["run_key"]: dict(r) for r in conn.execute("SELECT * FROM runs")}


def test_renamed_runs_are_the_runs_the_renamed_campaign_plans(tmp_path):
    db = tmp_path / "campaign.sqlite"
    old = loads_campaign(OLD_CAMPAIGN, name="c")
    record(db, old, kept=True)
    before = rows(db)
    new_text = OLD_CAMPAIGN.replace('"DropTail"', '"FIFO"').replace('"Red"', '"RED"')
    new = loads_campaign(new_text, name="c")
    assert not {run.key for run in new.runs()} & set(before)  # the new names miss every run

    done = rekey(db, "queueDisc", {"DropTail": "FIFO", "Red": "RED"})

    after = rows(db)
    assert done.runs == 8 and done.by_value == {"DropTail": 4, "Red": 4}
    assert done.kept_folders == 8 and done.campaign_text
    assert set(after) == {run.key for run in new.runs()}
    by_seed_window = {(r["seed"], json.loads(r["params"])["window"],
                       json.loads(r["params"])["queueDisc"]): r for r in before.values()}
    names = {"DropTail": "FIFO", "Red": "RED"}
    for key, row in after.items():
        params = json.loads(row["params"])
        was = by_seed_window[(row["seed"], params["window"],
                              next(o for o, n in names.items() if n == params["queueDisc"]))]
        assert key == run_key(row["program"], params, row["seed"])
        # Metrics and times as recorded; the report and command name the new value.
        assert row["metrics"] == was["metrics"]
        assert json.loads(row["output"])["metrics"] == json.loads(was["output"])["metrics"]
        assert json.loads(row["output"])["params"]["queueDisc"] == params["queueDisc"]
        assert f"--queueDisc={params['queueDisc']} " in row["command"]
        assert row["kept_dir"] == f"campaign-runs/{key}" and (kept_root(db) / key).is_dir()
    with ResultStore(db) as store:
        assert set(store.kept_files()) == set(after)
        assert store.meta()["campaign_toml"] == new_text


def test_a_rename_onto_stored_runs_leaves_the_database_as_it_was(tmp_path):
    db = tmp_path / "campaign.sqlite"
    record(db, loads_campaign(OLD_CAMPAIGN, name="c"))
    record(db, loads_campaign(OLD_CAMPAIGN.replace('"DropTail", ', ""), name="c"))
    before = rows(db)
    with pytest.raises(CampaignError, match="already stored: the database holds runs with"
                                            " queueDisc=Red too"):
        rekey(db, "queueDisc", {"DropTail": "Red"})
    assert rows(db) == before


def test_other_values_and_parameters_are_left_alone(tmp_path):
    db = tmp_path / "campaign.sqlite"
    record(db, loads_campaign(OLD_CAMPAIGN, name="c"))
    before = rows(db)
    done = rekey(db, "queueDisc", {"Drr": "DRR"})
    assert (done.runs, done.campaign_text) == (0, False)
    assert rows(db) == before
    assert rekey(db, "window", {"Red": "RED"}).runs == 0  # an int parameter: no value is "Red"


@pytest.mark.parametrize(("pairs", "message"), [
    ((), "give at least one OLD=NEW"),
    (("Drr",), "expected OLD=NEW"),
    (("Drr=",), "expected OLD=NEW"),
    (("Drr=Drr",), "two different values"),
    (("Drr=DRR", "Drr=X"), "'Drr' is renamed twice"),
    (("A=B", "B=C"), "renames chain through 'B'"),
])
def test_bad_renames_are_refused(pairs, message):
    with pytest.raises(CampaignError, match=message):
        parse_renames(pairs)


def test_the_command_says_what_it_did_and_refuses_a_file_that_is_no_database(tmp_path):
    db = tmp_path / "campaign.sqlite"
    record(db, loads_campaign(OLD_CAMPAIGN, name="c"))
    result = CliRunner().invoke(main, ["rekey", str(db), "queueDisc", "DropTail=FIFO"])
    assert result.exit_code == 0, result.output
    assert "Rekeyed 4 runs" in result.output and "DropTail: 4" in result.output
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).close()
    result = CliRunner().invoke(main, ["rekey", str(other), "queueDisc", "DropTail=FIFO"])
    assert result.exit_code == 1 and "holds no campaign database" in result.output
