# SPDX-License-Identifier: GPL-2.0-only
"""Bad input to the campaign tooling, one row per input: each must end in a clear message.

Each row is an input and the words its message must hold. A row passes when the command
exits non-zero with click's ``Error:`` line holding every word (the file, the key, the
allowed range), with no traceback, and, for a campaign file, before any run started and
before a database was created. The commands run in-process through click's CliRunner, with
the fake example program (``fakeprog.py``) as the campaign's program.

Families: campaign files (``sweep``), checked against the program's ``--schema`` too.
"""

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from qdisclab.cli import main
from test_campaign_sweep import write_fake_program


@dataclass(frozen=True)
class Row:
    """One bad input and the words its message must hold."""

    id: str
    text: str
    words: tuple[str, ...]
    extra: tuple[str, ...] = ()


def row(id: str, text: str, *words: str, extra: tuple[str, ...] = ()) -> Row:
    return Row(id, text, words, extra)


HEAD = 'program = "fake-program"\n'
GRID = HEAD + "[factors]\nx = [1, 2]\n"

# -- campaign files --------------------------------------------------------------------

CAMPAIGN_ROWS = [
    # timeouts: not a number, endless, negative, absurd; also under [quick]
    row("timeout nan", HEAD + "timeout = nan\n", ".timeout", "nan", "above 0", "604800"),
    row("timeout inf", HEAD + "timeout = inf\n", ".timeout", "inf", "above 0"),
    row("timeout -inf", HEAD + "timeout = -inf\n", ".timeout", "-inf"),
    row("timeout negative", HEAD + "timeout = -5\n", ".timeout", "-5", "above 0"),
    row("timeout zero", HEAD + "timeout = 0\n", ".timeout", "above 0"),
    row("timeout a year", HEAD + "timeout = 31536000\n", ".timeout", "31536000", "a week"),
    row("timeout bool", HEAD + "timeout = true\n", ".timeout", "True"),
    row("timeout string", HEAD + 'timeout = "60"\n', ".timeout", "'60'"),
    row("quick timeout nan", HEAD + "[quick]\ntimeout = nan\n", "[quick].timeout", "nan"),
    row("quick timeout inf", HEAD + "[quick]\ntimeout = inf\n", "[quick].timeout", "inf"),
    row("quick timeout negative", HEAD + "[quick]\ntimeout = -1\n", "[quick].timeout", "-1"),
    # sizes: counted, not expanded
    row("grid of 10^7 points",
        HEAD + "[factors]\n" + "".join(f"f{i} = [{', '.join(map(str, range(10)))}]\n"
                                       for i in range(7)),
        "10,000,000 runs", "more than the 1,000,000", "10,000,000 points x 1 seeds"),
    row("grid of 2^26 points",
        HEAD + "[factors]\n" + "".join(f"f{i} = [0, 1]\n" for i in range(26)),
        "67,108,864 runs", "1,000,000"),
    row("points times seeds", HEAD + "replications = 1000\n[factors]\n"
        "a = [" + ", ".join(map(str, range(1001))) + "]\n", "1,001,000 runs"),
    row("sub-grids add up",
        HEAD + "replications = 10\n" + "".join(
            f'[[grid]]\nname = "g{i}"\nfactors = {{ a = [{", ".join(map(str, range(60000)))}] }}\n'
            for i in range(2)), "1,200,000 runs", "g0: 60,000 points x 10 seeds"),
    row("quick grid too big",
        HEAD + "[factors]\na = [1]\n[quick.params]\na = [" + ", ".join(
            map(str, range(1000001))) + "]\n", "[quick]", "1,000,001 runs"),
    row("replications 10^9", HEAD + "replications = 1000000000\n", ".replications",
        "1 to 1,000,000", "1000000000"),
    row("replications zero", HEAD + "replications = 0\n", ".replications", "1 to 1,000,000"),
    row("replications float", HEAD + "replications = 2.5\n", ".replications", "2.5"),
    row("quick replications 10^9", HEAD + "[quick]\nreplications = 1000000000\n",
        "[quick].replications", "1 to 1,000,000"),
    row("sub-grid replications 10^9", HEAD + "[[grid]]\nreplications = 1000000000\n",
        "[[grid]] #1.replications", "1 to 1,000,000"),
    # seeds: RngRun is an unsigned 32-bit number
    row("seed 2^63", HEAD + "seeds = [9223372036854775808]\n", ".seeds",
        "9223372036854775808", "0 to 4294967295"),
    row("seed 2^32", HEAD + "seeds = [4294967296]\n", ".seeds", "4294967296", "4294967295"),
    row("seed negative", HEAD + "seeds = [1, -1]\n", ".seeds", "-1", "0 to 4294967295"),
    row("seed float", HEAD + "seeds = [1.5]\n", ".seeds", "1.5"),
    row("seed bool", HEAD + "seeds = [true]\n", ".seeds", "True"),
    row("seeds empty", HEAD + "seeds = []\n", ".seeds", "non-empty list"),
    row("sub-grid seed 2^32", HEAD + "[[grid]]\nseeds = [4294967296]\n", "[[grid]] #1.seeds",
        "4294967296"),
    row("quick seed negative", HEAD + "[quick]\nseeds = [-3]\n", "[quick].seeds", "-3"),
    # names: one folder under results/, one NetCDF group each
    row("name climbs out", HEAD + 'name = "../../../x"\n', "name", "'../../../x'",
        "not a plain name", "no path separators"),
    row("name with a slash", HEAD + 'name = "a/b"\n', "name", "'a/b'", "not a plain name"),
    row("name dot-dot", HEAD + 'name = ".."\n', "name", "'..'", "not a plain name"),
    row("name absolute", HEAD + 'name = "/tmp/x"\n', "name", "'/tmp/x'"),
    row("name empty", HEAD + 'name = ""\n', "name", "''", "not a plain name"),
    row("name with a space", HEAD + 'name = "my run"\n', "name", "'my run'"),
    row("name a number", HEAD + "name = 5\n", "name", "5", "not a plain name"),
    row("two sub-grids one name",
        HEAD + '[[grid]]\nname = "a"\n[[grid]]\nname = "b"\n[[grid]]\nname = "a"\n',
        "[[grid]] #3.name", "'a'", "also the name of [[grid]] #1"),
    row("sub-grid name with a slash", HEAD + '[[grid]]\nname = "a/b"\n[[grid]]\nname = "a_b"\n',
        "[[grid]] #1.name", "'a/b'", "not a plain name"),
    row("sub-grid named like a default",
        HEAD + '[[grid]]\nname = "grid2"\n[[grid]]\nfixed = { x = 2 }\n',
        "[[grid]] #2.name", "'grid2'", "also the name of [[grid]] #1"),
    row("sub-grid name dot-dot", HEAD + '[[grid]]\nname = ".."\n', "[[grid]] #1.name", "'..'"),
    # values that give one command line twice
    row("factor 1 and '1'", HEAD + '[factors]\nx = [1, "1"]\n', "[factors].x", "1 and '1'",
        "same command line"),
    row("factor true and 'true'", HEAD + '[factors]\nflag = [true, "true"]\n',
        "[factors].flag", "True and 'true'"),
    row("factor 0.5 and '0.5'", HEAD + '[factors]\nx = [0.5, 2, "0.5"]\n', "0.5 and '0.5'"),
    row("sub-grid factor 1 and '1'", HEAD + '[[grid]]\nfactors = { x = [1, "1"] }\n',
        "[[grid]] #1.factors.x", "1 and '1'"),
    row("zip rows alike", HEAD + '[[zip]]\nx = [1, "1"]\nbehave = ["ok", "ok"]\n',
        "[[zip]][0]", "same command line", "--x=1 --behave=ok"),
    row("quick override 1 and '1'", GRID + '[quick.params]\nx = [1, "1"]\n',
        "[quick.params].x", "1 and '1'"),
    # flags the engine or ns-3 own
    row("quick as a parameter", HEAD + "[fixed]\nquick = true\n", "[fixed]", "'quick'",
        "sweep --quick", "[quick] table"),
    row("quick as a factor", HEAD + "[factors]\nquick = [true, false]\n", "[factors]",
        "'quick'"),
    row("quick in a sub-grid", HEAD + "[[grid]]\nfixed = { quick = true }\n",
        "[[grid]] #1.fixed", "'quick'"),
    row("output as a parameter", HEAD + '[fixed]\noutput = "x.json"\n', "'output'",
        "the engine sets it"),
    row("RngRun as a parameter", HEAD + "[factors]\nRngRun = [1, 2]\n", "'RngRun'",
        "seeds/replications"),
    row("schema as a parameter", HEAD + "[fixed]\nschema = true\n", "'schema'"),
    row("batch as a parameter", HEAD + '[fixed]\nbatch = "f"\n', "'batch'",
        "points_per_process"),
    row("PrintHelp as a parameter", HEAD + "[fixed]\nPrintHelp = true\n", "'PrintHelp'",
        "runs nothing"),
    row("PrintAttributes as a parameter", HEAD + '[fixed]\nPrintAttributes = "ns3::RedQueueDisc"\n',
        "'PrintAttributes'"),
    # each value against the program's --schema
    row("uint below its range", HEAD + "[fixed]\ncount = 0\n", "fixed: count = 0",
        "from 1 to 100", "uint parameter"),
    row("uint above its range", HEAD + "[factors]\ncount = [5, 101]\n", "factors: count = 101",
        "from 1 to 100"),
    row("uint negative", HEAD + "[fixed]\ncount = -1\n", "count = -1", "from 1 to 100"),
    row("uint a float", HEAD + "[fixed]\ncount = 1.5\n", "count = 1.5",
        "expected an integer"),
    row("uint a string", HEAD + '[fixed]\ncount = "5"\n', "count = '5'", "expected an integer"),
    row("uint a bool", HEAD + "[fixed]\ncount = true\n", "count = True", "expected an integer"),
    row("int a float", HEAD + "[fixed]\noffset = 0.5\n", "offset = 0.5", "expected an integer"),
    row("int beyond int64", HEAD + "[fixed]\noffset = 9223372036854775808\n",
        "offset = 9223372036854775808", "9223372036854775807"),
    row("bool a number", HEAD + "[fixed]\nflag = 1\n", "flag = 1", "true or false"),
    row("bool a word", HEAD + '[fixed]\nflag = "yes"\n', "flag = 'yes'", "true or false"),
    row("double a word", HEAD + '[fixed]\nx = "fast"\n', "x = 'fast'", "expected a number",
        "double parameter"),
    row("double nan", HEAD + "[fixed]\nx = nan\n", "x = nan", "finite"),
    row("double inf in a zip", HEAD + '[[zip]]\nx = [1, inf]\nbehave = ["ok", "ok"]\n',
        "zip: x = inf", "finite"),
    row("rate a bool", HEAD + "[fixed]\nrate = true\n", "rate = True", "10Mbps"),
    row("rate negative", HEAD + "[fixed]\nrate = -5\n", "rate = -5", ">= 0"),
    row("value in a sub-grid", HEAD + '[[grid]]\nname = "a"\n[[grid]]\nname = "b"\n'
        "fixed = { count = 500 }\n", "sub-grid 'b'", "count = 500", "from 1 to 100"),
    row("quick value out of range", HEAD + "[fixed]\ncount = 5\n[quick.params]\ncount = 0\n",
        "count = 0", "from 1 to 100", extra=("--quick",)),
    # metrics the program does not report
    row("unknown metric", HEAD + 'metrics = ["goodput_mbps"]\n', "metrics",
        "'goodput_mbps'", "value_mbps, seed"),
    row("unknown metric among known", HEAD + 'metrics = ["value_mbps", "flow1_kbps"]\n',
        "'flow1_kbps'"),
    row("metric typo", HEAD + 'metrics = ["value_mbp"]\n', "'value_mbp'"),
    # unknown parameters (the engine's check, kept)
    row("unknown parameter", HEAD + "[fixed]\nxx = 1\n", "no parameter 'xx'",
        "its parameters: x, behave"),
]


@pytest.fixture
def fake(tmp_path, monkeypatch):
    monkeypatch.setenv("QDISCLAB_FAKE_LOG", str(tmp_path / "starts.log"))
    return write_fake_program(tmp_path)


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), prog_name="qdisc-lab", terminal_width=400)


def check_refused(result, words: tuple[str, ...]) -> str:
    """The message of a refusal: exit 1, click's ``Error:``, every word, no traceback."""
    message = " ".join(result.output.split())
    assert result.exit_code == 1, message
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    assert message.startswith("Error: "), message
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    return message


@pytest.mark.parametrize("case", CAMPAIGN_ROWS, ids=[r.id for r in CAMPAIGN_ROWS])
def test_a_bad_campaign_file_is_refused_before_the_first_run(tmp_path, fake, case):
    path = tmp_path / "bad.toml"
    path.write_text(case.text, encoding="utf-8")
    db = tmp_path / "db.sqlite"
    result = invoke("sweep", str(path), "--binary", str(fake), "--db", str(db), *case.extra)
    message = check_refused(result, case.words)
    assert str(path) in message  # the file
    assert not (tmp_path / "starts.log").exists()  # no run started
    assert not db.exists()  # nothing was created


def test_the_rows_are_distinct():
    assert len({r.id for r in CAMPAIGN_ROWS}) == len(CAMPAIGN_ROWS)
    assert len({r.text for r in CAMPAIGN_ROWS if not r.extra}) == len(
        [r for r in CAMPAIGN_ROWS if not r.extra])


def test_a_schema_that_narrows_rngrun_narrows_the_seeds():
    from qdisclab.campaign.spec import CampaignError, check_program, loads_campaign
    from qdisclab.schema import parse_schema
    import json

    import fakeprog

    schema = json.loads(json.dumps(fakeprog.SCHEMA))
    for entry in schema["params"]:
        if entry["name"] == "RngRun":
            entry.update(min=1, max=1000)
    program = parse_schema(json.dumps(schema))
    check_program(loads_campaign(HEAD + "seeds = [1, 1000]\n"), program)
    for seeds in ("[0]", "[1001]"):
        with pytest.raises(CampaignError, match=r"seeds: \d+ is outside fake-program's RngRun"
                                                r" range 1 to 1000"):
            check_program(loads_campaign(HEAD + f"seeds = {seeds}\n"), program)


def test_a_good_campaign_passes_the_same_checks(tmp_path, fake):
    path = tmp_path / "good.toml"
    path.write_text(HEAD + 'metrics = ["value_mbps"]\nseeds = [0, 4294967295]\n'
                    "[fixed]\ncount = 100\nflag = true\noffset = -9223372036854775808\n"
                    'rate = "2Mbps"\n[factors]\nx = [1, 1.0, 2]\n', encoding="utf-8")
    db = tmp_path / "db.sqlite"
    result = invoke("sweep", str(path), "--binary", str(fake), "--db", str(db), "--jobs", "1")
    assert result.exit_code == 0, result.output
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM runs WHERE status = 'ok'").fetchone() == (6,)


# -- readers: export, report, figures, factorial -----------------------------------------

SMALL = (HEAD + 'name = "small"\nmetrics = ["value_mbps"]\nseeds = [1, 2]\n'
         "[factors]\nx = [1, 2, 3]\n")


def small_db(path: Path) -> Path:
    """A campaign database of SMALL's six runs, all ok, written as a sweep writes it."""
    from qdisclab.campaign.spec import loads_campaign
    from qdisclab.campaign.store import ResultStore

    campaign = loads_campaign(SMALL)
    with ResultStore(path, write=True) as store:
        store.set_meta({"campaign": campaign.name, "program": campaign.program,
                        "mode": campaign.mode, "campaign_toml": SMALL})
        for run in campaign.runs():
            store.record({"run_key": run.key, "campaign": campaign.name,
                          "program": run.program, "grid": run.grid, "params": run.params,
                          "seed": run.seed, "status": "ok", "wall_time_s": 0.5,
                          "metrics": {"value_mbps": 1.5 * run.params["x"], "seed": run.seed}})
    return path


def set_column(column: str, value: str):
    def damage(db: Path) -> None:
        with sqlite3.connect(db) as conn:
            conn.execute(f"UPDATE runs SET {column} = ? WHERE rowid = 2", (value,))
        conn.close()
    return damage


def make_empty(db: Path) -> None:
    db.write_bytes(b"")


def make_foreign(db: Path) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        conn.execute("INSERT INTO notes (text) VALUES ('mine')")
    conn.close()


def make_foreign_runs(db: Path) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE runs (id INTEGER PRIMARY KEY, what TEXT)")
        conn.execute("CREATE TABLE meta (key TEXT, value TEXT)")
    conn.close()


def make_text(db: Path) -> None:
    db.write_text("these are my notes, not a database\n" * 100)


def make_truncated(db: Path) -> None:
    small_db(db)
    _checkpoint(db)
    os.truncate(db, 4096 + 100)


def make_zeroed(db: Path) -> None:
    """Every page but the header's zeroed: the schema points at pages of nothing."""
    small_db(db)
    _checkpoint(db)
    data = bytearray(db.read_bytes())
    data[4096:] = bytes(len(data) - 4096)
    db.write_bytes(bytes(data))


def _checkpoint(db: Path) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()


def make_good(db: Path) -> None:
    small_db(db)


def corrupt(column: str, value: str):
    def make(db: Path) -> None:
        small_db(db)
        set_column(column, value)(db)
    return make


EXPORTS = (("--csv", "out.csv"), ("--parquet", "out.parquet"), ("--netcdf", "out.nc"))

READER_ROWS = [
    # (id, make the file, command (DB: the file, OUT: an output), words)
    *(row(f"export {flag} of an empty file", "", "is empty", "no tables", "qdisc-lab sweep",
          extra=(make_empty.__name__, "export", "DB", flag, f"OUT/{name}"))
      for flag, name in EXPORTS),
    *(row(f"export {flag} of a foreign SQLite file", "", "not a qdisc-lab campaign database",
          "no runs table", "its tables: notes",
          extra=(make_foreign.__name__, "export", "DB", flag, f"OUT/{name}"))
      for flag, name in EXPORTS),
    row("export of a foreign runs table", "", "not a qdisc-lab campaign database",
        "its runs table lacks metrics, params, run_key, seed, status",
        extra=(make_foreign_runs.__name__, "export", "DB", "--csv", "OUT/x.csv")),
    *(row(f"export {flag} of a text file", "", "is damaged (file is not a database)",
          "qdisc-lab salvage", extra=(make_text.__name__, "export", "DB", flag, f"OUT/{name}"))
      for flag, name in EXPORTS),
    *(row(f"export {flag} of a truncated database", "", "is damaged", "qdisc-lab salvage",
          extra=(make_truncated.__name__, "export", "DB", flag, f"OUT/{name}"))
      for flag, name in EXPORTS),
    row("export of a zeroed database", "", "is damaged", "malformed",
        extra=(make_zeroed.__name__, "export", "DB", "--parquet", "OUT/x.parquet")),
    *(row(f"export {flag} of corrupt params JSON", "", "the params of run",
          "not valid JSON", "DELETE FROM runs WHERE run_key =",
          extra=("corrupt:params:{not json", "export", "DB", flag, f"OUT/{name}"))
      for flag, name in EXPORTS),
    row("export of params as an array", "", "the params of run", "a JSON list, not an object",
        extra=("corrupt:params:[1, 2]", "export", "DB", "--csv", "OUT/x.csv")),
    *(row(f"export {flag} of metrics as an array", "", "the metrics of run",
          "a JSON list, not an object",
          extra=("corrupt:metrics:[1.5, 2]", "export", "DB", flag, f"OUT/{name}"))
      for flag, name in EXPORTS),
    row("export of metrics that are words", "", "the metrics of run",
        "not all numbers or null",
        extra=('corrupt:metrics:{"value_mbps": "fast"}', "export", "DB", "--parquet",
               "OUT/x.parquet")),
    row("export of metrics as a number", "", "a JSON int, not an object",
        extra=("corrupt:metrics:42", "export", "DB", "--csv", "OUT/x.csv")),
    *(row(f"export {flag} to /dev/full", "", "cannot write /dev/full", "unchanged",
          "free some space", extra=(make_good.__name__, "export", "DB", flag, "/dev/full"))
      for flag, _ in EXPORTS),
    row("figures --db of a damaged database", "", "is damaged", "qdisc-lab salvage",
        extra=(make_truncated.__name__, "figures", "red-vs-droptail", "--db", "DB")),
    row("figures --db of an empty file", "", "is empty",
        extra=(make_empty.__name__, "figures", "red-vs-droptail", "--db", "DB")),
    row("figures --db of a foreign SQLite file", "", "not a qdisc-lab campaign database",
        extra=(make_foreign.__name__, "figures", "red-vs-droptail", "--db", "DB")),
    row("figures --db of corrupt params JSON", "", "the params of run", "DELETE FROM runs",
        extra=("corrupt:params:{", "figures", "red-vs-droptail", "--db", "DB")),
]


def _make(spec: str, db: Path) -> None:
    if spec.startswith("corrupt:"):
        _, column, value = spec.split(":", 2)
        corrupt(column, value)(db)
    else:
        globals()[spec](db)


@pytest.mark.parametrize("case", READER_ROWS, ids=[r.id for r in READER_ROWS])
def test_a_reader_ends_in_a_message_and_never_writes(tmp_path, case):
    db = tmp_path / "db.sqlite"
    make, *command = case.extra
    _make(make, db)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    out = tmp_path / "out"
    args = [str(db) if a == "DB" else a.replace("OUT", str(out)) for a in command]
    result = invoke(*args)
    check_refused(result, case.words)
    # Nothing the reader opened changed and no file was added but the empty -wal and the -shm
    # index that SQLite's read-only reader of a WAL database makes beside it.
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    added = set(after) - set(before)
    assert added <= {"db.sqlite-wal", "db.sqlite-shm"}
    assert after.get("db.sqlite-wal", b"") == before.get("db.sqlite-wal", b"")
    assert all(after[name] == data for name, data in before.items() if not name.endswith("-shm"))
    assert not list(out.glob("*")) if out.exists() else True  # no partial output


def test_a_reader_keeps_a_foreign_files_journal_mode(tmp_path):
    db = tmp_path / "foreign.sqlite"
    make_foreign(db)
    for flag, name in EXPORTS:
        invoke("export", str(db), flag, str(tmp_path / name))
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["notes"]
    conn.close()


def test_export_reads_a_good_database_without_writing_it(tmp_path):
    db = small_db(tmp_path / "db.sqlite")
    _checkpoint(db)
    before = db.read_bytes()
    for flag, name in EXPORTS:
        result = invoke("export", str(db), flag, str(tmp_path / name))
        assert result.exit_code == 0, result.output
    assert db.read_bytes() == before
    assert not Path(f"{db}-wal").exists()


def test_a_database_older_than_its_columns_is_read_as_it_is(tmp_path):
    db = small_db(tmp_path / "db.sqlite")
    with sqlite3.connect(db) as conn:
        conn.execute("ALTER TABLE runs DROP COLUMN kept_dir")
        conn.execute("ALTER TABLE runs DROP COLUMN cpu_time_s")
        conn.execute("DROP TABLE kept_files")
        conn.execute("ALTER TABLE sweeps DROP COLUMN ns3_flavor")
        conn.execute("INSERT INTO sweeps (campaign, mode, wall_time_s) VALUES ('small', 'full', 2)")
        conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()
    before = db.read_bytes()
    result = invoke("export", str(db), "--csv", str(tmp_path / "x.csv"))
    assert result.exit_code == 0, result.output
    assert "Exported 6 runs" in result.output
    from qdisclab.campaign.store import ResultStore

    with ResultStore(db, write=False) as store:
        (sweep,) = store.sweeps()
        assert sweep["ns3_flavor"] is None and sweep["wall_time_s"] == 2
        assert [r.kept_dir for r in store.runs()] == [None] * 6
    assert db.read_bytes() == before


# -- report --results --------------------------------------------------------------------


def test_report_renders_the_others_and_names_the_damaged_database(tmp_path):
    results = tmp_path / "results"
    (results / "alpha").mkdir(parents=True)
    (results / "beta").mkdir()
    small_db(results / "alpha" / "campaign.sqlite")
    make_truncated(results / "beta" / "campaign.sqlite")
    damaged = (results / "beta" / "campaign.sqlite").read_bytes()
    timing = tmp_path / "timing.csv"
    timing.write_text("campaign,runs,cpu_s,wall_s,cores,ns3_flavor,git_revision\n")
    result = invoke("report", "--results", str(results), "--timing", str(timing))
    assert result.exit_code == 0, result.output
    message = " ".join(result.output.split())
    assert "beta: cannot read this campaign's database:" in message and "is damaged" in message
    page = (results / "report.html").read_text()
    assert 'id="alpha"' in page and "6 planned: 6 ok, 0 failed, 0 timed out" in page
    assert 'id="beta"' in page and "cannot read this campaign&#x27;s database" in page
    assert (results / "beta" / "campaign.sqlite").read_bytes() == damaged


def test_report_shows_an_empty_database_without_the_campaigns_timing_row(tmp_path):
    from qdisclab.campaign.store import ResultStore

    results = tmp_path / "results"
    (results / "small").mkdir(parents=True)
    with ResultStore(results / "small" / "campaign.sqlite", write=True) as store:
        store.set_meta({"campaign": "small", "program": "fake-program", "mode": "full",
                        "campaign_toml": SMALL})
    timing = tmp_path / "timing.csv"
    timing.write_text("campaign,runs,cpu_s,wall_s,cores,ns3_flavor,git_revision\n"
                      "small,6,3.0,4.0,2,system,abc\n")
    result = invoke("report", "--results", str(results), "--timing", str(timing))
    assert result.exit_code == 0, result.output
    page = (results / "report.html").read_text()
    assert "(timing.csv)" not in page and 'id="small"' in page
    # With the runs stored, the row is shown.
    small_db(results / "small" / "campaign.sqlite")
    assert invoke("report", "--results", str(results), "--timing", str(timing)).exit_code == 0
    assert "6 runs: 3.0 s" in (results / "report.html").read_text()


def test_report_onto_a_full_disk_is_a_message(tmp_path):
    results = tmp_path / "results"
    (results / "alpha").mkdir(parents=True)
    small_db(results / "alpha" / "campaign.sqlite")
    result = invoke("report", "--results", str(results), "--output", "/dev/full",
                    "--timing", str(tmp_path / "none.csv"))
    check_refused(result, ("cannot write the report /dev/full", "No space left on device",
                           "--output"))


# -- factorial ---------------------------------------------------------------------------


def design(k: int, r: int = 2, response=lambda i: float(i % 7)) -> str:
    names = [f"f{i}" for i in range(k)]
    lines = [",".join([*names, "y"])]
    index = 0
    for _ in range(r):
        for combination in range(2**k):
            levels = ["1" if combination >> bit & 1 else "-1" for bit in range(k)]
            lines.append(",".join([*levels, repr(response(index))]))
            index += 1
    return "\n".join(lines) + "\n"


FACTORIAL_ROWS = [
    row("duplicate column", "A,B,A,y\n-1,-1,1,1\n1,-1,1,2\n-1,1,1,3\n1,1,1,4\n",
        "'A' appear more than once", ":1:"),
    row("duplicate column after stripping", "A, A ,B,y\n-1,-1,-1,1\n1,1,-1,2\n-1,-1,1,3\n1,1,1,4\n",
        "'A' appear more than once"),
    row("unnamed column", "A,,B,y\n-1,0,-1,1\n1,0,-1,2\n-1,0,1,3\n1,0,1,4\n",
        "column 2 of the header has no name"),
    row("17 factors", "", "17 factors", "at most 16", "--factors"),
    row("response 1e200", design(2, response=lambda i: 1e200 if i == 3 else 1.0),
        "response 'y'", "1e+200", "rescale"),
    row("response -1e200", design(2, response=lambda i: -1e200 * (i % 2)), "response 'y'",
        "rescale"),
    row("response 1e300", design(3, response=lambda i: 1e300), "response 'y'", "1e+300"),
]


@pytest.mark.parametrize("case", FACTORIAL_ROWS, ids=[r.id for r in FACTORIAL_ROWS])
def test_factorial_refuses_a_bad_table(tmp_path, case):
    path = tmp_path / "design.csv"
    if case.id == "17 factors":
        names = ",".join(f"f{i}" for i in range(17))
        # Two runs: every column holds -1 and +1, so all 17 are factors.
        path.write_text(f"{names},y\n" + ",".join(["-1"] * 17 + ["1"]) + "\n"
                        + ",".join(["1"] * 17 + ["2"]) + "\n")
    else:
        path.write_text(case.text)
    message = check_refused(invoke("factorial", str(path)), case.words)
    assert str(path) in message or "response" in message or "factors" in message


def test_factorial_strips_a_byte_order_mark(tmp_path):
    path = tmp_path / "design.csv"
    path.write_bytes(b"\xef\xbb\xbf" + design(2).encode())
    result = invoke("factorial", str(path), "--json")
    assert result.exit_code == 0, result.output
    import json

    document = json.loads(result.output)
    assert document["responses"]["y"]["factors"] == ["f0", "f1"]


def test_factorial_handles_large_but_representable_responses(tmp_path):
    path = tmp_path / "design.csv"
    path.write_text(design(2, response=lambda i: 1e150 * (1 + i % 2)))
    result = invoke("factorial", str(path), "--json")
    assert result.exit_code == 0, result.output
    import json

    effects = json.loads(result.output)["responses"]["y"]["effects"]
    assert effects[0]["value"] == pytest.approx(1.5e150)


@pytest.mark.parametrize("make", [make_foreign, make_foreign_runs, make_text])
def test_a_sweep_into_a_file_that_is_no_campaign_database_is_refused(tmp_path, fake, make):
    path = tmp_path / "c.toml"
    path.write_text(GRID, encoding="utf-8")
    db = tmp_path / "db.sqlite"
    make(db)
    before = db.read_bytes()
    result = invoke("sweep", str(path), "--binary", str(fake), "--db", str(db))
    check_refused(result, (str(db), ("not a qdisc-lab campaign database"
                                     if make is not make_text else "is damaged")))
    assert db.read_bytes() == before
    assert not (tmp_path / "starts.log").exists()
