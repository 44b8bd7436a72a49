# SPDX-License-Identifier: GPL-2.0-only
"""Campaign files: a declarative parameter sweep, read from TOML and expanded into runs.

A campaign names one example program and the runs to make of it::

    name = "red-vs-droptail"            # optional, default: the file's stem
    program = "red-vs-droptail"         # binary under build/<flavor>/examples/
    description = "..."
    metrics = ["total_goodput_mbps"]    # metrics every run must report
    timeout = 300                       # seconds per run
    seeds = [1, 2, 3]                   # RngRun values (or: replications = 3, i.e. 1..3)
    points_per_process = 20             # optional: run up to 20 points in one process
    keep = ["*.pcap", "flowmon.xml"]    # optional: files of each run to keep (see below)

    [fixed]                             # one value, every run
    simTime = 60

    [factors]                           # full factorial, crossed with everything else
    window = [2000, 8000]

    [[zip]]                             # zipped: the i-th values go together
    bottleneckRate = ["1Mbps", "0.5Mbps"]
    bottleneckDelay = ["20ms", "20ms"]

    [[grid]]                            # sub-grids: each is crossed with the axes above,
    name = "droptail"                   # and the campaign is the union of its sub-grids
    fixed = { queueDisc = "FIFO", pcap = "{run}/trace", flowMonitor = "{run}/flowmon.xml" }
    seeds = [1, 2, 3, 4, 5, 6]          # optional: this sub-grid's own seeds (or replications)

    [[grid]]
    name = "red"
    fixed = { queueDisc = "RED" }
    factors = { wait = [true, false] }
    zip = [{ minTh = [0.02, 0.32], maxTh = [0.04, 0.64] }]

    [quick]                             # what --quick changes
    seeds = [1, 2]
    timeout = 60
    [quick.params]                      # per parameter, wherever it is used:
    simTime = 10                        #   a fixed value: a new value
    window = [8000]                     #   a factor: new values
    minTh = [0.32]                      #   a zipped group: new values for every member
    maxTh = [0.64]

    [floor]                             # optional: `qdisc-lab bench --campaigns`
    grid = "red"                        # the sub-grid whose first point it measures (default:
    params = { simTime = 20 }           #   the first), these values over that point's,
    fifo = { queueDisc = "FIFO" }   # and what turns the point into the scenario's floor

``[floor]`` names a representative point of the campaign and its floor: the same topology and
traffic with a FIFO in place of the studied queue disc and nothing else of the module (which
values do that is the program's to say: each documents its floor). The point is the sub-grid's
first combination (its fixed values and each axis's first value) with ``params`` over it, run with
the grid's first seed; the floor is the point with ``fifo`` over it (:meth:`Campaign.floor_runs`).

``points_per_process`` (default 1) lets the engine run several runs in one process of a
program built on PointBatch (experiment/point-batch.h), for campaigns of short runs; each run
is still stored, resumed and failed on its own (see :mod:`qdisclab.campaign.engine`).

``keep`` lists glob patterns (``*``, ``?``, ``[...]``, ``**``) of files in a run's directory
that the engine keeps after the run, beside the results database (see
:mod:`qdisclab.campaign.engine`); a sub-grid's own ``keep`` replaces the campaign's
(``keep = []``: none). ``{run}`` in a parameter's value is that directory, each run its own
(``{run}/trace`` is a file or prefix in it); it is allowed only where files are kept.
``keep`` is no part of a run's identity: :attr:`Run.key` hashes the parameters as written
(``"{run}/trace"``), so a campaign without ``keep`` and ``{run}`` has the keys it always had.

Reading a campaign checks it whole before anything runs, each refusal naming the file, the
key and what is allowed: ``timeout`` finite, above 0 and at most :data:`MAX_TIMEOUT_S`; at
most :data:`MAX_RUNS` runs, counted without expanding the grid (:func:`campaign_size`);
seeds from 0 to :data:`RNG_RUN_MAX`; plain names (:data:`_PLAIN_NAME`) for the campaign and
its sub-grids, each sub-grid its own; no two values of a factor (or rows of a zipped group)
that give one command line; no parameter among :data:`RESERVED_PARAMS`. :func:`check_program`
then checks the values, seeds and metrics against the program's ``--schema``.

A campaign without ``[[grid]]`` is one grid of the top-level axes. A sub-grid runs the
campaign's seeds unless it names its own; ``[quick]``'s seeds replace them all. Runs identical in
program, parameters and seed (say, a point two sub-grids share) are made once: the
:attr:`Run.key` is a hash of exactly those.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

from qdisclab.campaign.runner import RUN_DIR
from qdisclab.context import REPO
from qdisclab.toolchain.build import SIMULATORS

CAMPAIGNS_DIR = REPO / "campaigns"

Scalar = bool | int | float | str

#: Flags a campaign cannot give as parameters, with what to use instead: the engine sets
#: ``RngRun`` and ``output`` on every run's command line, ``quick`` is the campaign's
#: ``[quick]`` (a run made with ``--quick=true`` would record the full settings' values), and
#: the others are the programs' and ns-3's own options, which run no simulation.
RESERVED_PARAMS: dict[str, str] = {
    "RngRun": "the engine sets it from seeds/replications",
    "output": "the engine sets it (each run's metrics report)",
    "quick": "use `sweep --quick` and the campaign's [quick] table",
    "schema": "the engine reads the program's --schema itself",
    "batch": "the engine batches runs itself (points_per_process)",
    **dict.fromkeys(
        ("help", "PrintHelp", "PrintGlobals", "PrintGroups", "PrintGroup", "PrintTypeIds",
         "PrintAttributes", "version", "PrintVersion"),
        "an option of ns-3's CommandLine that prints and runs nothing"),
}
#: The largest ``RngRun`` a campaign may give: the examples' RngRun is an unsigned 32-bit
#: number (a program's ``--schema`` may narrow it with ``min``/``max``).
RNG_RUN_MAX = 2**32 - 1
#: The most runs a campaign may have (its sub-grids' points times their seeds, counted
#: before runs shared by two sub-grids are merged); a larger one is refused when it is read,
#: before anything is expanded.
MAX_RUNS = 1_000_000
#: The longest ``timeout`` a campaign may give, in seconds (a week).
MAX_TIMEOUT_S = 7 * 24 * 3600.0
#: A campaign or sub-grid name: a plain file name (it names a folder under ``results/`` and a
#: NetCDF group), no path separators, not ``.`` or ``..``.
_PLAIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")
#: ``{run}`` not followed by ``/`` and a name: a prefix beside the run's directory, not in it.
_RUN_DIR_MISUSE = re.compile(re.escape(RUN_DIR) + r"(?!/[^/])")

_TOP_KEYS = frozenset(
    {"name", "program", "description", "metrics", "timeout", "seeds", "replications",
     "fixed", "factors", "zip", "grid", "quick", "ns3", "points_per_process", "keep", "floor"}
)
_GRID_KEYS = frozenset({"name", "fixed", "factors", "zip", "seeds", "replications", "keep"})
_QUICK_KEYS = frozenset({"seeds", "replications", "timeout", "params"})
_FLOOR_KEYS = frozenset({"grid", "params", "fifo"})
DEFAULT_TIMEOUT_S = 600.0


class CampaignError(ValueError):
    """A campaign file is unreadable or describes no valid sweep."""


def format_value(value: Scalar) -> str:
    """A parameter value as the example programs' command lines take it.

    Booleans are ``true``/``false``; floats their shortest round-trip form.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def run_key(program: str, params: Mapping[str, Scalar], seed: int) -> str:
    """The identity of a run: a hash of its program, parameters and seed (order-free)."""
    canonical = json.dumps(
        {"program": program, "params": dict(params), "RngRun": seed},
        sort_keys=True,
        separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:32]


@dataclass(frozen=True)
class Run:
    """One run of the campaign's program: parameters (in command-line order) and a seed."""

    key: str
    program: str
    params: dict[str, Scalar]
    seed: int
    grid: str = ""
    #: Patterns of the files to keep from the run's directory (its sub-grids' ``keep``).
    keep: tuple[str, ...] = ()

    def args(self) -> list[str]:
        """Command-line arguments, without ``--output`` (the engine adds it)."""
        words = [f"--{name}={format_value(value)}" for name, value in self.params.items()]
        return [*words, f"--RngRun={self.seed}"]

    def label(self) -> str:
        """A short human-readable description (for progress lines and errors)."""
        parts = [f"{name}={format_value(value)}" for name, value in self.params.items()]
        return " ".join([*parts, f"RngRun={self.seed}"])


@dataclass(frozen=True)
class Grid:
    """One sub-grid: fixed values, full-factorial factors and zipped groups, in file order."""

    name: str
    fixed: dict[str, Scalar] = field(default_factory=dict)
    factors: dict[str, list[Scalar]] = field(default_factory=dict)
    zips: tuple[dict[str, list[Scalar]], ...] = ()
    #: This sub-grid's own RngRun values; None: the campaign's.
    seeds: tuple[int, ...] | None = None
    #: Patterns of the files its runs keep (its own ``keep``, else the campaign's).
    keep: tuple[str, ...] = ()

    def parameters(self) -> list[str]:
        """Every parameter this grid sets."""
        names = [*self.fixed, *self.factors]
        for group in self.zips:
            names.extend(group)
        return names

    def combinations(self) -> Iterable[dict[str, Scalar]]:
        """Every parameter assignment of the grid: fixed, then the axes in file order."""
        axes: list[list[dict[str, Scalar]]] = [
            [{name: value} for value in values] for name, values in self.factors.items()
        ]
        for group in self.zips:
            names = list(group)
            rows = zip(*group.values(), strict=True)
            axes.append([dict(zip(names, row, strict=True)) for row in rows])
        for choice in itertools.product(*axes):
            params = dict(self.fixed)
            for part in choice:
                params.update(part)
            yield params

    def size(self) -> int:
        """Number of combinations (before de-duplication)."""
        size = 1
        for values in self.factors.values():
            size *= len(values)
        for group in self.zips:
            size *= len(next(iter(group.values())))
        return size


@dataclass(frozen=True)
class Floor:
    """A campaign's ``[floor]``: a representative point and what turns it into its floor."""

    #: The sub-grid whose first point is measured.
    grid: str
    #: Values over that point's (a shorter run for callgrind, a representative setting).
    params: dict[str, Scalar]
    #: Values over the point's that make it the scenario's floor (a FIFO, no markers).
    fifo: dict[str, Scalar]


@dataclass(frozen=True)
class Campaign:
    """A parsed campaign, full or with its ``[quick]`` overrides applied."""

    name: str
    program: str
    grids: tuple[Grid, ...]
    seeds: tuple[int, ...]
    timeout: float = DEFAULT_TIMEOUT_S
    metrics: tuple[str, ...] = ()
    description: str = ""
    quick: bool = False
    #: The simulator the campaign runs on unless ``--ns3`` says otherwise: a flavour of
    #: :data:`qdisclab.toolchain.build.SIMULATORS` ("system", "wheel", "optimized", or
    #: "ns2": ns-2.35 running ``validation/ns2/<program>.tcl``).
    ns3: str = "system"
    #: Runs the engine may run in one process (PointBatch); 1: a process per run.
    points_per_process: int = 1
    source: Path | None = None
    text: str = ""
    #: ``[floor]``: the point ``qdisc-lab bench --campaigns`` measures against its floor.
    floor: Floor | None = None

    @property
    def mode(self) -> str:
        """``"quick"`` or ``"full"``."""
        return "quick" if self.quick else "full"

    def parameters(self) -> list[str]:
        """Every parameter any run sets, in first-use order."""
        return list(dict.fromkeys(name for grid in self.grids for name in grid.parameters()))

    def size(self) -> int:
        """Runs of the campaign, counted without expanding it (:func:`campaign_size`: runs
        two sub-grids share count twice)."""
        return campaign_size(self.grids, self.seeds)

    def floor_runs(self) -> tuple[Run, Run]:
        """The ``[floor]`` point and its floor, as runs (see the module docstring). Raises
        :class:`CampaignError` when the campaign has no ``[floor]``."""
        if self.floor is None:
            raise CampaignError(f"campaign {self.name!r} has no [floor] table")
        grid = next(g for g in self.grids if g.name == self.floor.grid)
        point = {**next(iter(grid.combinations())), **self.floor.params}
        seed = (grid.seeds or self.seeds)[0]
        floor = {**point, **self.floor.fifo}
        return tuple(Run(run_key(self.program, params, seed), self.program, params, seed,
                         grid.name) for params in (point, floor))

    def all_seeds(self) -> tuple[int, ...]:
        """Every seed any sub-grid runs: the campaign's, then the sub-grids' own, in order."""
        seeds = list(self.seeds)
        for grid in self.grids:
            seeds.extend(grid.seeds or ())
        return tuple(dict.fromkeys(seeds))

    @property
    def keeps_files(self) -> bool:
        """Whether some run keeps files (a ``keep`` with patterns)."""
        return any(grid.keep for grid in self.grids)

    def runs(self, grids: Sequence[str] | None = None) -> list[Run]:
        """The campaign's runs: seeds outermost, then sub-grids in order, without duplicates
        (a run two sub-grids share keeps the files either keeps).

        ``grids`` keeps only the runs the named sub-grids make; each run keeps the grid name
        and files it has in the whole campaign, so a part is stored as the whole would store
        it. Raises :class:`CampaignError` naming an unknown sub-grid."""
        if grids is not None:
            names = [grid.name for grid in self.grids]
            unknown = [name for name in grids if name not in names]
            if unknown:
                raise CampaignError(
                    f"campaign {self.name!r} has no sub-grid {', '.join(map(repr, unknown))}"
                    f" (its sub-grids: {', '.join(names)})")
        runs: dict[str, Run] = {}
        chosen: set[str] = set()
        for seed in self.all_seeds():
            for grid in self.grids:
                if seed not in (self.seeds if grid.seeds is None else grid.seeds):
                    continue
                for params in grid.combinations():
                    key = run_key(self.program, params, seed)
                    if grids is None or grid.name in grids:
                        chosen.add(key)
                    if key not in runs:
                        runs[key] = Run(key, self.program, params, seed, grid.name, grid.keep)
                    elif grid.keep:
                        keep = tuple(dict.fromkeys([*runs[key].keep, *grid.keep]))
                        runs[key] = replace(runs[key], keep=keep)
        return [run for run in runs.values() if run.key in chosen]


# --------------------------------------------------------------------------- parsing


def _check_keys(table: Mapping[str, Any], allowed: frozenset[str], where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise CampaignError(
            f"{where}: unknown key(s) {', '.join(unknown)} (allowed: {', '.join(sorted(allowed))})"
        )


def _table(value: Any, where: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise CampaignError(f"{where}: expected a table, got {type(value).__name__}")
    return value


def _scalar(value: Any, where: str) -> Scalar:
    if isinstance(value, bool | int | float | str):
        return value
    raise CampaignError(
        f"{where}: values must be booleans, numbers or strings, got {type(value).__name__}"
    )


def _check_name(name: str, where: str) -> None:
    if name in RESERVED_PARAMS:
        raise CampaignError(
            f"{where}: {name!r} cannot be a campaign parameter: {RESERVED_PARAMS[name]}")
    if not name or name.startswith("-") or "=" in name or any(c.isspace() for c in name):
        raise CampaignError(f"{where}: {name!r} is not a valid parameter name")


def _values(value: Any, where: str, distinct: bool = True) -> list[Scalar]:
    """A factor's values (``distinct``: no two of them give one command line)."""
    if not isinstance(value, list):
        raise CampaignError(f"{where}: expected a list of values, got {type(value).__name__}")
    if not value:
        raise CampaignError(f"{where}: empty list")
    values = [_scalar(item, where) for item in value]
    if distinct:
        _check_distinct([format_value(item) for item in values], values, where)
    return values


def _check_distinct(words: Sequence[str], values: Sequence[Any], where: str) -> None:
    """Refuse two different values that give one command line (``[1, "1"]``): the program
    would make one run twice, stored under two keys. (A value repeated as it is, ``[2, 2]``,
    is one run.)"""
    first: dict[str, int] = {}
    for index, word in enumerate(words):
        if word in first and _typed_value(values[first[word]]) != _typed_value(values[index]):
            raise CampaignError(
                f"{where}: values {values[first[word]]!r} and {values[index]!r} give the same"
                f" command line ({word}); each value must be different once written as"
                " --name=value")
        first.setdefault(word, index)


def _typed_value(value: Any) -> Any:
    """``value`` with its type(s), so that ``1``, ``1.0``, ``True`` and ``"1"`` differ."""
    if isinstance(value, tuple):
        return tuple(_typed_value(item) for item in value)
    return (type(value).__name__, value)


def _check_plain_name(name: Any, where: str) -> str:
    """``name`` when it is a plain name (a folder under ``results/``, a NetCDF group)."""
    if not isinstance(name, str) or not _PLAIN_NAME.fullmatch(name) or name in (".", ".."):
        raise CampaignError(
            f"{where}: {name!r} is not a plain name: use letters, digits and . _ + -,"
            " starting with a letter or digit (no path separators, no '..'), so that it names"
            " one folder under results/ and one NetCDF group")
    return name


def _parse_fixed(value: Any, where: str) -> dict[str, Scalar]:
    fixed = {}
    for name, item in _table(value, where).items():
        _check_name(name, where)
        fixed[name] = _scalar(item, f"{where}.{name}")
    return fixed


def _parse_factors(value: Any, where: str, distinct: bool = True) -> dict[str, list[Scalar]]:
    factors = {}
    for name, items in _table(value, where).items():
        _check_name(name, where)
        factors[name] = _values(items, f"{where}.{name}", distinct)
    return factors


def _parse_zips(value: Any, where: str) -> tuple[dict[str, list[Scalar]], ...]:
    if value is None:
        return ()
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list):
        raise CampaignError(f"{where}: expected a list of tables")
    groups = []
    for index, group in enumerate(value):
        here = f"{where}[{index}]"
        members = _parse_factors(group, here, distinct=False)
        if not members:
            raise CampaignError(f"{here}: a zipped group needs at least one parameter")
        _check_zip_lengths(members, here)
        _check_zip_rows(members, here)
        groups.append(members)
    return tuple(groups)


def _check_zip_lengths(group: Mapping[str, Sequence[Scalar]], where: str) -> None:
    lengths = {name: len(values) for name, values in group.items()}
    if len(set(lengths.values())) > 1:
        detail = ", ".join(f"{name} has {n}" for name, n in lengths.items())
        raise CampaignError(f"{where}: zipped lists must have equal lengths ({detail})")


def _check_zip_rows(group: Mapping[str, Sequence[Scalar]], where: str) -> None:
    """Refuse two rows of a zipped group that give one command line."""
    rows = list(zip(*group.values(), strict=True))
    words = [" ".join(f"--{name}={format_value(v)}" for name, v in zip(group, row, strict=True))
             for row in rows]
    _check_distinct(words, rows, where)


def _check_unique(grid: Grid, where: str) -> None:
    seen: dict[str, None] = {}
    for name in [*grid.factors, *(n for group in grid.zips for n in group)]:
        if name in seen:
            raise CampaignError(f"{where}: parameter {name!r} is varied twice")
        seen[name] = None
    for name in grid.fixed:
        if name in seen:
            raise CampaignError(f"{where}: parameter {name!r} is both fixed and varied")


def check_pattern(pattern: Any, where: str) -> str:
    """``pattern`` if it is a usable ``keep`` pattern: a glob relative to the run's directory
    that stays in it; else :class:`CampaignError` saying what is wrong."""
    if not isinstance(pattern, str):
        raise CampaignError(
            f"{where}: expected file patterns (strings), got {type(pattern).__name__}"
        )
    if not pattern.strip():
        raise CampaignError(f"{where}: empty file pattern")
    if "\0" in pattern:
        raise CampaignError(f"{where}: {pattern!r} holds a NUL character")
    path = PurePosixPath(pattern)
    if path.is_absolute() or pattern.startswith("~"):
        raise CampaignError(
            f"{where}: {pattern!r} is an absolute path; a pattern names files in the run's"
            " directory, relative to it (e.g. \"*.pcap\")"
        )
    if ".." in path.parts:
        raise CampaignError(f"{where}: {pattern!r} leaves the run's directory ('..')")
    if not path.parts:  # ".", "./."
        raise CampaignError(f"{where}: {pattern!r} names the run's directory, not files in it")
    return pattern


def _keep(table: Mapping[str, Any], where: str) -> tuple[str, ...] | None:
    """The ``keep`` patterns of ``table``; None when it has no ``keep``."""
    if "keep" not in table:
        return None
    value = table["keep"]
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise CampaignError(
            f"{where}.keep: expected a list of file patterns, got {type(value).__name__}"
        )
    return tuple(dict.fromkeys(check_pattern(item, f"{where}.keep") for item in value))


def _check_run_dir(grid: Grid, where: str) -> None:
    """``{run}`` only in a grid that keeps files, and only as ``{run}/NAME``."""
    values = [*grid.fixed.items(),
              *((name, value) for name, values in grid.factors.items() for value in values),
              *((name, value) for group in grid.zips for name, values in group.items()
                for value in values)]
    for name, value in values:
        if not isinstance(value, str) or RUN_DIR not in value:
            continue
        if not grid.keep:
            raise CampaignError(
                f"{where}: {name} = {value!r} writes into the run's directory ({RUN_DIR}),"
                " but the grid keeps no files: add keep = [...] with patterns of the files"
                " to keep (the run's directory is removed after the run)"
            )
        if _RUN_DIR_MISUSE.search(value):
            raise CampaignError(
                f"{where}: {name} = {value!r}: {RUN_DIR} is the run's directory; name a file"
                f" or prefix in it, e.g. \"{RUN_DIR}/trace\""
            )


def _seeds(table: Mapping[str, Any], where: str) -> tuple[int, ...] | None:
    if "seeds" in table and "replications" in table:
        raise CampaignError(f"{where}: give either seeds or replications, not both")
    if "replications" in table:
        count = table["replications"]
        limit = min(MAX_RUNS, RNG_RUN_MAX)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= limit:
            raise CampaignError(
                f"{where}.replications: expected an integer from 1 to {limit:,} (a campaign"
                f" has at most {MAX_RUNS:,} runs), got {count!r}")
        return tuple(range(1, count + 1))
    if "seeds" in table:
        seeds = table["seeds"]
        if not isinstance(seeds, list) or not seeds:
            raise CampaignError(
                f"{where}.seeds: expected a non-empty list of integers from 0 to {RNG_RUN_MAX}"
                f" (RngRun), got {seeds!r}")
        for seed in seeds:
            if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= RNG_RUN_MAX:
                raise CampaignError(
                    f"{where}.seeds: {seed!r} is not an RngRun value: expected integers from 0"
                    f" to {RNG_RUN_MAX} (an unsigned 32-bit number)")
        return tuple(dict.fromkeys(seeds))
    return None


def _timeout(table: Mapping[str, Any], where: str) -> float | None:
    if "timeout" not in table:
        return None
    value = table["timeout"]
    if (isinstance(value, bool) or not isinstance(value, int | float)
            or not 0 < value <= MAX_TIMEOUT_S or math.isnan(value)):
        raise CampaignError(
            f"{where}.timeout: expected a number of seconds above 0 and at most"
            f" {MAX_TIMEOUT_S:g} (a week), got {value!r}")
    return float(value)


def _floor(value: Any, grids: Sequence[Grid]) -> Floor | None:
    """The ``[floor]`` table, checked: known keys, a known sub-grid, tables of plain parameter
    values (as ``[fixed]``'s), a non-empty ``fifo``."""
    if value is None:
        return None
    table = _table(value, "[floor]")
    _check_keys(table, _FLOOR_KEYS, "[floor]")
    names = [grid.name for grid in grids]
    grid = table.get("grid", names[0])
    if grid not in names:
        raise CampaignError(
            f"[floor].grid: no sub-grid {grid!r} (the campaign's: {', '.join(map(repr, names))})")
    params = _parse_fixed(table.get("params"), "[floor].params")
    fifo = _parse_fixed(table.get("fifo"), "[floor].fifo")
    if not fifo:
        raise CampaignError("[floor].fifo: give the values that make the point its floor"
                            ' (e.g. { queueDisc = "FIFO" })')
    return Floor(grid=grid, params=params, fifo=fifo)


def campaign_size(grids: Sequence[Grid], seeds: Sequence[int]) -> int:
    """The runs of ``grids``: each one's points times its seeds (``seeds`` unless it has its
    own), before runs two sub-grids share are merged; counted, not expanded."""
    return sum(grid.size() * len(seeds if grid.seeds is None else grid.seeds) for grid in grids)


def _check_size(grids: Sequence[Grid], seeds: Sequence[int], where: str) -> None:
    size = campaign_size(grids, seeds)
    if size > MAX_RUNS:
        detail = ", ".join(
            f"{grid.name}: {grid.size():,} points x"
            f" {len(seeds if grid.seeds is None else grid.seeds):,} seeds" for grid in grids)
        raise CampaignError(
            f"{where}: the campaign has {size:,} runs ({detail}), more than the {MAX_RUNS:,}"
            " a campaign may have: split it into campaigns, or use fewer factor values or seeds")


def _merge_grid(base: Grid, sub: Grid, where: str) -> Grid:
    """``sub`` crossed with the campaign-level axes ``base``.

    A sub-grid may fix or vary a parameter the top level fixes (its values win), but not
    one the top level varies.
    """
    base_varied = {*base.factors, *(n for group in base.zips for n in group)}
    for name in sub.parameters():
        if name in base_varied:
            raise CampaignError(
                f"{where}: parameter {name!r} is already varied at the top level"
            )
    overridden = set(sub.parameters())
    fixed = {**{k: v for k, v in base.fixed.items() if k not in overridden}, **sub.fixed}
    merged = Grid(
        name=sub.name,
        fixed=fixed,
        factors={**base.factors, **sub.factors},
        zips=base.zips + sub.zips,
        seeds=sub.seeds,
        keep=sub.keep,
    )
    _check_unique(merged, where)
    return merged


def _apply_overrides(grids: Sequence[Grid], overrides: Mapping[str, Any]) -> tuple[Grid, ...]:
    """The ``[quick.params]`` overrides applied wherever each parameter appears."""
    where = "[quick.params]"
    known = {name for grid in grids for name in grid.parameters()}
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise CampaignError(f"{where}: unknown parameter(s) {', '.join(unknown)}")
    result = []
    for grid in grids:
        fixed = dict(grid.fixed)
        for name in fixed.keys() & overrides.keys():
            fixed[name] = _scalar(overrides[name], f"{where}.{name}")
        factors = dict(grid.factors)
        for name in factors.keys() & overrides.keys():
            value = overrides[name]
            factors[name] = _values(value if isinstance(value, list) else [value],
                                    f"{where}.{name}")
        zips = []
        for group in grid.zips:
            given = [name for name in group if name in overrides]
            if not given:
                zips.append(group)
                continue
            if len(given) != len(group):
                missing = [name for name in group if name not in overrides]
                raise CampaignError(
                    f"{where}: {', '.join(given)} zipped with {', '.join(missing)}:"
                    " override every member of the group"
                )
            new = {name: _values(overrides[name], f"{where}.{name}", distinct=False)
                   for name in group}
            _check_zip_lengths(new, where)
            _check_zip_rows(new, where)
            zips.append(new)
        result.append(replace(grid, fixed=fixed, factors=factors, zips=tuple(zips)))
    return tuple(result)


def parse_campaign(
    data: Mapping[str, Any],
    *,
    name: str | None = None,
    quick: bool = False,
    source: Path | None = None,
    text: str = "",
) -> Campaign:
    """Build a :class:`Campaign` from a parsed TOML document (see the module docstring)."""
    where = str(source) if source else "campaign"
    _check_keys(data, _TOP_KEYS, where)
    program = data.get("program")
    if not isinstance(program, str) or not program:
        raise CampaignError(f"{where}: 'program' (the example program's name) is required")
    campaign_name = _check_plain_name(data.get("name", name or program), f"{where}: name")

    metrics = data.get("metrics", [])
    if not isinstance(metrics, list) or not all(isinstance(m, str) for m in metrics):
        raise CampaignError(f"{where}.metrics: expected a list of metric names")

    keep = _keep(data, where) or ()
    base = Grid(
        name="",
        fixed=_parse_fixed(data.get("fixed"), "[fixed]"),
        factors=_parse_factors(data.get("factors"), "[factors]"),
        zips=_parse_zips(data.get("zip"), "[[zip]]"),
    )
    _check_unique(base, where)
    subs = data.get("grid")
    if subs is None:
        grids = (Grid(campaign_name, base.fixed, base.factors, base.zips, keep=keep),)
    else:
        if not isinstance(subs, list) or not subs:
            raise CampaignError(f"{where}: [[grid]] must be a non-empty array of tables")
        grids = []
        names: dict[str, str] = {}
        for index, table in enumerate(subs):
            here = f"[[grid]] #{index + 1}"
            table = _table(table, here)
            _check_keys(table, _GRID_KEYS, here)
            grid_name = _check_plain_name(table.get("name", f"grid{index + 1}"), f"{here}.name")
            if grid_name in names:
                raise CampaignError(
                    f"{here}.name: {grid_name!r} is also the name of {names[grid_name]}; each"
                    " sub-grid needs a name of its own (it names its NetCDF group and --grid)")
            names[grid_name] = here
            sub = Grid(
                name=grid_name,
                fixed=_parse_fixed(table.get("fixed"), f"{here}.fixed"),
                factors=_parse_factors(table.get("factors"), f"{here}.factors"),
                zips=_parse_zips(table.get("zip"), f"{here}.zip"),
                seeds=_seeds(table, here),
                keep=keep if (own := _keep(table, here)) is None else own,
            )
            grids.append(_merge_grid(base, sub, here))
        grids = tuple(grids)

    seeds = _seeds(data, where) or (1,)
    timeout = _timeout(data, where) or DEFAULT_TIMEOUT_S
    quick_table = _table(data.get("quick"), "[quick]")
    _check_keys(quick_table, _QUICK_KEYS, "[quick]")
    for index, grid in enumerate(grids):
        _check_run_dir(grid, where if subs is None else f"[[grid]] #{index + 1}")
    # The overrides are checked even when not used, so a typo shows up at once.
    quick_grids = _apply_overrides(grids, _table(quick_table.get("params"), "[quick.params]"))
    for grid in quick_grids:
        _check_run_dir(grid, "[quick.params]")
    quick_seeds = _seeds(quick_table, "[quick]")
    quick_timeout = _timeout(quick_table, "[quick]")
    _check_size(grids, seeds, where)
    _check_size(quick_grids if quick_seeds is None
                else tuple(replace(grid, seeds=None) for grid in quick_grids),
                quick_seeds or seeds, "[quick]")
    if quick:
        grids = quick_grids
        if quick_seeds:
            seeds = quick_seeds
            grids = tuple(replace(grid, seeds=None) for grid in grids)
        timeout = quick_timeout or timeout

    description = data.get("description", "")
    points_per_process = data.get("points_per_process", 1)
    if (isinstance(points_per_process, bool) or not isinstance(points_per_process, int)
            or points_per_process < 1):
        raise CampaignError(
            f"{where}.points_per_process: expected an integer >= 1, got {points_per_process!r}"
        )
    floor = _floor(data.get("floor"), grids)
    ns3 = data.get("ns3", "system")
    if ns3 not in SIMULATORS:
        expected = ", ".join(f'"{f}"' for f in SIMULATORS)
        raise CampaignError(f"{where}.ns3: expected one of {expected}, got {ns3!r}")
    return Campaign(
        name=campaign_name,
        program=program,
        grids=grids,
        seeds=seeds,
        timeout=timeout,
        metrics=tuple(metrics),
        description=str(description),
        quick=quick,
        ns3=ns3,
        points_per_process=points_per_process,
        source=source,
        text=text,
        floor=floor,
    )


def loads_campaign(text: str, *, name: str | None = None, quick: bool = False,
                   source: Path | None = None) -> Campaign:
    """Parse campaign TOML ``text``."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CampaignError(f"{source or 'campaign'}: invalid TOML: {exc}") from exc
    try:
        return parse_campaign(data, name=name, quick=quick, source=source, text=text)
    except CampaignError as exc:
        if source is None or str(exc).startswith(str(source)):
            raise
        raise CampaignError(f"{source}: {exc}") from exc


def resolve_campaign_path(name_or_path: str | Path) -> Path:
    """A campaign file: an existing path, else ``campaigns/<name>.toml``."""
    path = Path(name_or_path)
    if path.is_file():
        return path
    candidate = CAMPAIGNS_DIR / f"{name_or_path}.toml"
    if candidate.is_file():
        return candidate
    known = sorted(p.stem for p in CAMPAIGNS_DIR.glob("*.toml"))
    raise CampaignError(
        f"no campaign {str(name_or_path)!r} (not a file; known: {', '.join(known) or 'none'})"
    )


def load_campaign(name_or_path: str | Path, *, quick: bool = False) -> Campaign:
    """Read and parse a campaign file (a path, or a name in ``campaigns/``)."""
    path = resolve_campaign_path(name_or_path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CampaignError(f"{path}: {exc.strerror or exc}") from exc
    return loads_campaign(text, name=path.stem, quick=quick, source=path)


def stored_campaign(meta: Mapping[str, str]) -> Campaign | None:
    """The campaign a results database's ``meta`` table stores (its TOML text, name and
    mode, as the sweep wrote them); None when it stores none or one that no longer parses."""
    if not meta.get("campaign_toml"):
        return None
    try:
        return loads_campaign(meta["campaign_toml"], name=meta.get("campaign"),
                              quick=meta.get("mode") == "quick")
    except CampaignError:
        return None


# --------------------------------------------------------------------------- the program


#: The integers a schema's ``int`` parameter takes (the wrapper's ``int64_t``).
_INT64 = (-(2**63), 2**63 - 1)
#: The unsigned range of a schema's ``uint`` parameter that gives no ``min``/``max``.
_UINT32 = (0, RNG_RUN_MAX)


def _value_problem(entry: Mapping[str, Any], value: Scalar) -> str | None:
    """Why ``value`` does not suit the schema parameter ``entry`` (None: it does)."""
    kind = entry.get("type")
    if isinstance(value, str) and RUN_DIR in value:
        return None
    if kind == "bool":
        if isinstance(value, bool) or value in ("true", "false"):
            return None
        return "expected true or false"
    if kind in ("int", "uint"):
        low, high = _INT64 if kind == "int" else (entry.get("min", _UINT32[0]),
                                                  entry.get("max", _UINT32[1]))
        if isinstance(value, bool) or not isinstance(value, int):
            return f"expected an integer from {low} to {high}"
        if not low <= value <= high:
            return f"out of range: expected an integer from {low} to {high}"
        return None
    if kind == "double":
        if isinstance(value, bool) or not isinstance(value, int | float):
            return "expected a number"
        if not math.isfinite(value):
            return "expected a finite number"
        return None
    if choices := entry.get("choices"):
        if value not in choices:
            return f"not one of its choices: {', '.join(map(str, choices))}"
        return None
    if kind in ("rate", "time"):
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            return f"expected a {kind} (a string with its unit, e.g. " + (
                '"10Mbps")' if kind == "rate" else '"20ms")')
        if isinstance(value, int | float) and not (math.isfinite(value) and value >= 0):
            return f"expected a {kind} >= 0"
        return None
    return None  # string, and types this tooling does not know


def check_program(campaign: Campaign, schema: Any) -> None:
    """Check ``campaign`` against its program's ``--schema`` (a
    :class:`~qdisclab.schema.ProgramSchema`) before any run: every parameter value has the
    parameter's type and range, every seed is in ``RngRun``'s range and every campaign metric
    is one the program declares. Raises :class:`CampaignError` naming the campaign file, the
    key and what the program takes. (Unknown parameter names are the engine's check.)"""
    from qdisclab.schema import metric_matches

    where = str(campaign.source or f"campaign {campaign.name!r}")
    for grid in campaign.grids:
        here = f"{where}: sub-grid {grid.name!r}" if len(campaign.grids) > 1 else where
        values = [*(("fixed", name, v) for name, v in grid.fixed.items()),
                  *(("factors", name, v) for name, values in grid.factors.items()
                    for v in values),
                  *(("zip", name, v) for group in grid.zips for name, values in group.items()
                    for v in values)]
        for table, name, value in values:
            entry = schema.param(name)
            if entry is None or entry.get("derived"):
                continue
            if problem := _value_problem(entry, value):
                raise CampaignError(
                    f"{here}: {table}: {name} = {value!r}: {problem} ({campaign.program}'s"
                    f" --schema: {name} is a {entry.get('type')} parameter)")
    if campaign.floor is not None:
        for table, given in (("params", campaign.floor.params), ("fifo", campaign.floor.fifo)):
            for name, value in given.items():
                entry = schema.param(name)
                if entry is None:
                    raise CampaignError(f"{where}: [floor].{table}: {campaign.program} has no"
                                        f" parameter {name!r}")
                if problem := _value_problem(entry, value):
                    raise CampaignError(
                        f"{where}: [floor].{table}: {name} = {value!r}: {problem}"
                        f" ({campaign.program}'s --schema: a {entry.get('type')} parameter)")
    rng_run = schema.param("RngRun") or {}
    low, high = rng_run.get("min", 0), rng_run.get("max", RNG_RUN_MAX)
    if bad := [seed for seed in campaign.all_seeds() if not low <= seed <= high]:
        raise CampaignError(
            f"{where}: seeds: {bad[0]} is outside {campaign.program}'s RngRun range"
            f" {low} to {high}")
    declared = [m["name"] for m in schema.metrics]
    unknown = [name for name in campaign.metrics
               if not any(metric_matches(pattern, name) for pattern in declared)]
    if unknown:
        raise CampaignError(
            f"{where}: metrics: {campaign.program} does not report"
            f" {', '.join(map(repr, unknown))} (its --schema lists: {', '.join(declared)})")
