# SPDX-License-Identifier: GPL-2.0-only
"""Rename a parameter's values in a campaign database (``qdisc-lab rekey``).

A run's key is a hash of its program, parameters and seed (:func:`~.spec.run_key`), so when a
program renames one of a parameter's values (``--queueDisc=Drr`` became ``--queueDisc=DRR``, the
queue disc catalog's one spelling), a database recorded with the old value no longer holds the
runs the campaign plans: a sweep would run them all again. :func:`rekey` rewrites the stored
runs as if they had been recorded with the new value: each renamed run's ``params``, its
metrics report (``output``: the report's ``params`` object), its ``command`` and its
``run_key`` (and its kept files' rows, ``kept_dir`` and folder), and the quoted old values in the stored
campaign text (``meta.campaign_toml``), so that the figures select the same runs. Metrics,
times and everything else stay byte for byte as recorded; nothing is run.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from qdisclab.campaign.spec import CampaignError, run_key
from qdisclab.campaign.store import ResultStore, kept_root


@dataclass(frozen=True)
class Rekeyed:
    """What :func:`rekey` changed."""

    runs: int  #: runs whose parameter held one of the old values
    by_value: dict[str, int]  #: of those, how many per old value
    kept_folders: int  #: kept-file folders renamed to the new run keys
    campaign_text: bool  #: whether the stored campaign text changed


def parse_renames(pairs: tuple[str, ...] | list[str]) -> dict[str, str]:
    """``["OLD=NEW", ...]`` as a mapping; :class:`CampaignError` on a malformed pair, an old
    value given twice, or a new value that is also renamed (a chain is ambiguous)."""
    renames: dict[str, str] = {}
    for pair in pairs:
        old, sep, new = pair.partition("=")
        if not sep or not old or not new or old == new:
            raise CampaignError(f"rename {pair!r}: expected OLD=NEW with two different values")
        if old in renames:
            raise CampaignError(f"rename {pair!r}: {old!r} is renamed twice")
        renames[old] = new
    chained = sorted(set(renames) & set(renames.values()))
    if chained:
        raise CampaignError(f"renames chain through {', '.join(map(repr, chained))}: rename"
                            " each value once, to its final name")
    if not renames:
        raise CampaignError("give at least one OLD=NEW rename")
    return renames


def _json_pair(param: str, value: str) -> str:
    """``"param": "value"``, as the store and the metrics report write a parameter."""
    return f"{json.dumps(param)}: {json.dumps(value)}"


def rekey(db: Path, param: str, renames: Mapping[str, str]) -> Rekeyed:
    """Give the runs of ``db`` whose ``param`` holds an old value of ``renames`` the new one,
    with the run keys that value makes. One transaction: on any error the database is as it
    was. :class:`CampaignError` when a new key is already stored (the database holds runs with
    the new value too) or ``db`` is not a campaign database."""
    db = Path(db)
    if not db.is_file():
        raise CampaignError(f"{db}: no such database")
    ResultStore(db, write=False).close()  # a campaign database (else StoreError, untouched)
    ResultStore(db).close()  # with today's columns
    conn = sqlite3.connect(db, isolation_level=None)
    conn.row_factory = sqlite3.Row
    command_word = {old: re.compile(rf"(?<!\S)--{re.escape(param)}={re.escape(old)}(?!\S)")
                    for old in renames}
    moved: list[tuple[str, str]] = []
    by_value = {old: 0 for old in renames}
    try:
        conn.execute("BEGIN IMMEDIATE")
        rows = conn.execute(
            "SELECT rowid, run_key, program, params, seed, output, command, kept_dir FROM runs"
        ).fetchall()
        keys = {row["run_key"] for row in rows}
        for row in rows:
            params = json.loads(row["params"])
            old = params.get(param)
            if not isinstance(old, str) or old not in renames:
                continue
            new = renames[old]
            params[param] = new
            key = run_key(row["program"], params, row["seed"])
            if key in keys:
                raise CampaignError(
                    f"{db}: run {row['run_key']} ({param}={old}) would become {key}, which is"
                    f" already stored: the database holds runs with {param}={new} too")
            keys.add(key)
            pair_old, pair_new = _json_pair(param, old), _json_pair(param, new)
            stored = row["params"].replace(pair_old, pair_new)
            if json.loads(stored) != params:
                raise CampaignError(f"{db}: run {row['run_key']}: its params are not written as"
                                    f" {pair_old}; left unchanged")
            output = row["output"]
            if output is not None:
                output = output.replace(pair_old, pair_new, 1)
            command = row["command"]
            if command is not None:
                command = command_word[old].sub(f"--{param}={new}", command)
            kept_dir = row["kept_dir"]
            if kept_dir is not None:
                kept_dir = kept_dir.replace(row["run_key"], key)
            conn.execute(
                "UPDATE runs SET run_key = ?, params = ?, output = ?, command = ?, kept_dir = ?"
                " WHERE rowid = ?", (key, stored, output, command, kept_dir, row["rowid"]))
            conn.execute("UPDATE kept_files SET run_key = ? WHERE run_key = ?",
                         (key, row["run_key"]))
            moved.append((row["run_key"], key))
            by_value[old] += 1
        text_row = conn.execute("SELECT value FROM meta WHERE key = 'campaign_toml'").fetchone()
        changed_text = False
        if text_row is not None and isinstance(text_row[0], str):
            text = text_row[0]
            for old, new in renames.items():
                text = text.replace(json.dumps(old), json.dumps(new))
            if text != text_row[0]:
                conn.execute("UPDATE meta SET value = ? WHERE key = 'campaign_toml'", (text,))
                changed_text = True
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    finally:
        conn.close()
    folders = 0
    root = kept_root(db)
    for old_key, new_key in moved:
        if (root / old_key).is_dir():
            (root / old_key).rename(root / new_key)
            folders += 1
    return Rekeyed(len(moved), by_value, folders, changed_text)
