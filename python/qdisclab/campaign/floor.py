# SPDX-License-Identifier: GPL-2.0-only
"""A campaign's cost against its floor: instructions per packet-hop of a representative point
and of the same point with nothing of the module but the topology (``qdisc-lab bench
--campaigns``).

A campaign's ``[floor]`` table (:class:`qdisclab.campaign.spec.Floor`) names the point and the
values that make it the scenario's floor: the same topology and traffic with a FIFO in place of
the studied queue disc and no markers. Both run once under callgrind (instructions repeat
exactly, whatever else the machine runs); each program reports the packets it sent over links
(``run_measurements.packet_hops``: ExperimentParams::CountPacketHops), so the two runs are
compared per packet-hop, the unit of ns-3's work, and not per run (a FIFO may carry a different
number of packets than the queue disc it replaces).
"""

from __future__ import annotations

import csv
import json
import shutil
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from qdisclab.campaign import runner
from qdisclab.campaign.replay import CALLGRIND, collected
from qdisclab.campaign.spec import Campaign, CampaignError, Run, format_value

CSV_NAME = "campaigns.csv"

#: The columns of ``campaigns.csv``, one row per campaign.
CSV_COLUMNS = (
    "campaign",
    "program",
    "point",
    "floor",
    "instructions",
    "packet_hops",
    "instructions_per_hop",
    "floor_instructions",
    "floor_packet_hops",
    "floor_instructions_per_hop",
    "ratio",
    "ns3_flavor",
    "ns3_version",
    "git_revision",
)


@dataclass(frozen=True)
class Measured:
    """One run under callgrind: its instructions and the packet-hops it simulated."""

    instructions: int
    packet_hops: int
    ns3_version: str

    @property
    def per_hop(self) -> float:
        """Instructions per packet-hop."""
        return self.instructions / self.packet_hops


@dataclass(frozen=True)
class FloorResult:
    """A campaign's point and its floor, measured."""

    campaign: Campaign
    point: Run
    floor: Run
    measured: Measured
    floor_measured: Measured

    @property
    def ratio(self) -> float:
        """The point's instructions per packet-hop over its floor's."""
        return self.measured.per_hop / self.floor_measured.per_hop

    def floor_values(self) -> str:
        """What the floor changes, as ``name=value`` words."""
        fifo = self.campaign.floor.fifo if self.campaign.floor else {}
        return " ".join(f"{name}={format_value(value)}" for name, value in fifo.items())

    def row(self, flavor: str, revision: str) -> dict[str, object]:
        """The result as a row of ``campaigns.csv``."""
        return {
            "campaign": self.campaign.name,
            "program": self.campaign.program,
            "point": self.point.label(),
            "floor": self.floor_values(),
            "instructions": self.measured.instructions,
            "packet_hops": self.measured.packet_hops,
            "instructions_per_hop": round(self.measured.per_hop, 1),
            "floor_instructions": self.floor_measured.instructions,
            "floor_packet_hops": self.floor_measured.packet_hops,
            "floor_instructions_per_hop": round(self.floor_measured.per_hop, 1),
            "ratio": round(self.ratio, 4),
            "ns3_flavor": flavor,
            "ns3_version": self.measured.ns3_version,
            "git_revision": revision,
        }


def measure(run: Run, binary: Path, env: Mapping[str, str] | None = None) -> Measured:
    """Run ``run`` with ``binary`` under callgrind: its instructions and packet-hops. Raises
    :class:`CampaignError` naming the run when it fails or its report lacks the packet-hops."""
    raw = runner.execute_run([str(binary), *run.args()], None, dict(env) if env else None,
                             launcher=list(CALLGRIND))
    label = f"{run.program} {run.label()}"
    if raw["outcome"] != "exited" or raw["returncode"] != 0 or not raw.get("output"):
        why = raw.get("error") or raw.get("error_line") or f"exit status {raw['returncode']}"
        raise CampaignError(f"{label}: no report ({raw['outcome']}: {why})")
    instructions = collected(raw.get("stderr_tail", ""))
    if instructions is None:
        raise CampaignError(f"{label}: callgrind printed no instruction count")
    doc = json.loads(raw["output"])
    hops = (doc.get("run_measurements") or {}).get("packet_hops")
    if not isinstance(hops, int | float) or hops <= 0:
        raise CampaignError(f"{label}: its report has no run_measurements.packet_hops (a program"
                            " built before ExperimentParams reported them?)")
    return Measured(instructions, int(hops), str(doc.get("ns3_version", "")))


def measure_floors(
    campaigns: Sequence[Campaign],
    binary_of: Callable[[Campaign], tuple[Path, Mapping[str, str] | None]],
    jobs: int = 1,
    done: Callable[[str], None] | None = None,
) -> list[FloorResult]:
    """Measure each campaign's ``[floor]`` point and its floor, ``jobs`` runs at a time;
    ``binary_of(campaign)`` gives the program and its environment. Results in the campaigns'
    order (``done`` gets a line as each run ends)."""
    if shutil.which(CALLGRIND[0]) is None:
        raise CampaignError("bench --campaigns needs valgrind (`./qdisc-lab setup` installs it)")
    tasks = []
    for campaign in campaigns:
        point, floor = campaign.floor_runs()
        binary, env = binary_of(campaign)
        tasks.extend([(campaign, "point", point, binary, env),
                      (campaign, "floor", floor, binary, env)])

    def one(task) -> Measured:
        campaign, kind, run, binary, env = task
        result = measure(run, binary, env)
        if done is not None:
            done(f"{campaign.name} {kind}: {result.instructions / 1e9:.3f} G instructions,"
                 f" {result.packet_hops} packet-hops, {result.per_hop:,.0f} a hop")
        return result

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        measured = list(pool.map(one, tasks))
    return [FloorResult(task[0], task[2], tasks[i + 1][2], measured[i], measured[i + 1])
            for i, task in enumerate(tasks) if i % 2 == 0]


def write_csv(rows: Sequence[Mapping[str, object]], path: Path) -> Path:
    """Put ``rows`` (:meth:`FloorResult.row`) into ``path`` (:data:`CSV_COLUMNS`): each replaces
    its campaign's row where the file has one, the others are appended, and the file's other
    rows stay (``--campaign NAME`` measures one campaign again)."""
    table: dict[str, Mapping[str, object]] = {}
    if path.is_file():
        with open(path, newline="", encoding="utf-8") as handle:
            table = {row["campaign"]: row for row in csv.DictReader(handle)}
    for row in rows:
        table[str(row["campaign"])] = row
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n",
                                extrasaction="ignore")
        writer.writeheader()
        writer.writerows(table.values())
    return path
