# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab bench --campaigns``: each campaign's cost against its floor
(:mod:`qdisclab.campaign.floor`), into ``results/bench/campaigns.csv``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import click
from rich import box
from rich.table import Table

from qdisclab.context import CONSOLE, RESULTS_DIR

#: Where the table goes (beside ``bench.csv``).
BENCH_DIR = RESULTS_DIR / "bench"


def floor_campaigns(names: Sequence[str]):
    """The campaigns named (files or ``campaigns/<name>.toml``), else every campaign file with
    a ``[floor]`` table, in name order; a named one without a table is an error."""
    from qdisclab.campaign.spec import CAMPAIGNS_DIR, load_campaign

    if names:
        campaigns = [load_campaign(name) for name in names]
        if bare := [c.name for c in campaigns if c.floor is None]:
            raise click.ClickException(
                f"no [floor] table in {', '.join(bare)}: it says which point to measure and"
                " what makes it the floor (campaign files, doc/campaigns.rst)")
        return campaigns
    campaigns = [load_campaign(path) for path in sorted(CAMPAIGNS_DIR.glob("*.toml"))]
    return [campaign for campaign in campaigns if campaign.floor is not None]


def floor_table(rows: Sequence[Mapping[str, object]]) -> Table:
    """The console table of ``campaigns.csv``'s rows (its instruction totals are in the file)."""
    table = Table(title="Instructions per packet-hop against each campaign's floor (callgrind)",
                  box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False)
    table.add_column("campaign", no_wrap=True)
    for header in ("ns-3", "packet-hops", "per hop", "floor's", "ratio"):  # versions: the CSV
        table.add_column(header, justify="right", no_wrap=True)
    for row in rows:
        table.add_row(
            str(row["campaign"]),
            str(row["ns3_flavor"]),
            f"{row['packet_hops']:,}",
            f"{row['instructions_per_hop']:,.0f}",
            f"{row['floor_instructions_per_hop']:,.0f}",
            f"{row['ratio']:.3f}",
        )
    return table


def bench_campaigns(names: Sequence[str], jobs: int) -> Path:
    """Build each campaign's flavour, measure every ``[floor]``, print the table and write
    ``campaigns.csv``; returns its path."""
    from qdisclab.campaign.engine import git_revision, program_binary, program_schema
    from qdisclab.campaign.floor import CSV_NAME, measure_floors, write_csv
    from qdisclab.campaign.spec import CampaignError
    from qdisclab.toolchain.build import build, runtime_env
    from qdisclab.toolchain.provision import ensure_setup

    try:
        campaigns = floor_campaigns(names)
    except CampaignError as exc:
        raise click.ClickException(str(exc)) from exc
    if not campaigns:
        raise click.ClickException("no campaign file has a [floor] table")
    flavors = sorted({campaign.ns3 for campaign in campaigns})
    ensure_setup(wheel="wheel" in flavors)
    for flavor in flavors:
        build(flavor)

    def binary_of(campaign):
        binary = program_binary(campaign.program, campaign.ns3)
        program_schema(campaign, binary)  # the [floor] values against --schema
        return binary, runtime_env(campaign.ns3) or None

    CONSOLE.print(f"{len(campaigns)} campaign(s), two runs each under callgrind"
                  f" ({jobs} at a time; minutes each)")
    try:
        results = measure_floors(campaigns, binary_of, jobs,
                                 done=lambda line: CONSOLE.print(line, markup=False))
    except CampaignError as exc:
        raise click.ClickException(str(exc)) from exc
    revision = git_revision()
    rows = [result.row(result.campaign.ns3, revision) for result in results]
    CONSOLE.print(floor_table(rows))
    path = write_csv(rows, BENCH_DIR / CSV_NAME)
    CONSOLE.print(str(path), markup=False, soft_wrap=True)
    return path
