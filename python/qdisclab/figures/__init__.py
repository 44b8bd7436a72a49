# SPDX-License-Identifier: GPL-2.0-only
"""Paper reproductions: what each one runs, draws and compares with the paper.

A reproduction is one :class:`Reproduction` in :data:`REPRODUCTIONS`: a campaign
file in ``campaigns/``, a figures function (``"module:function"``, imported only
when used) and, inside that module, the paper's reference numbers. The figures
function takes the campaign's results database and an output directory, writes
``fig<N>.png``/``.pdf`` and ``fig<N>.csv`` (``table<N>.csv`` for tables), named
after the paper's figures and tables, and returns a :class:`FigureSet`: the files,
plus :class:`Claim` objects saying where the reproduction agrees with the paper
and where it does not. ``qdisc-lab reproduce`` and ``qdisc-lab report`` use it.

Adding a paper: write ``campaigns/<name>.toml`` and the package ``figures/<name>/``, and add
one entry here. The package keeps the paper's numbers (``paper.py``: constants transcribed
from the paper), the analysis of the runs (``analysis.py``: parameters, metrics, statistics,
calibration rules), the figures (``plots.py``: matplotlib, their CSV rows) and the claims
(``claims.py``: verdict rules and causes) apart; its ``__init__.py`` has
``make_figures(db_path, out_dir) -> FigureSet``, which puts them together. What the papers
share is in ``figures/common.py``: loading the runs, Student-t intervals, the note on the runs
and seeds, and ``figure_artifact`` (a figure's PNG, PDF and CSV as one :class:`Artifact`).

A run's scenario is read from the run: ``common.RunParams`` gives every parameter as the program
reported it in the stored metrics report (its defaults included), else as the campaign set it,
and names the run and the parameter when neither has it. The packages hold no copy of an
example's defaults (``python/tests/test_figures_defaults.py`` compares what they declare with
the program's ``--schema``).
"""

from __future__ import annotations

import importlib
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

#: Verdicts a claim can have. "calibrated": the statement was used to choose the
#: reproduction's unknowns (the doc's reconstruction plan) and the chosen scenario meets its
#: target, so it is shown, not judged; "calibration target not met": it was used to choose
#: them and no scenario met its target (counted apart, never as "calibrated").
VERDICTS = ("agree", "partly", "disagree", "not evaluated", "calibrated",
            "calibration target not met")

#: Verdicts that need a cause (:attr:`Claim.cause`, classed by :attr:`Claim.cause_class`).
VERDICTS_NEEDING_CAUSE = ("partly", "disagree")

#: What a claim's cause stands on: a variant run that changes exactly that cause and on which
#: the claim's own rule gives another verdict; such a run on which the rule gives the same
#: verdict; an argument (a reading of numbers, of runs or of the paper, without the claim's
#: rule judged on a run that changes the cause); no cause given (or no variant run).
MOVES = "run that moves the verdict"
DOES_NOT_MOVE = "run that does not move the verdict"
ARGUMENT = "argument"
NO_CAUSE = "none"
CAUSE_CLASSES = (MOVES, DOES_NOT_MOVE, ARGUMENT, NO_CAUSE)

#: How a claim stands across the three columns of a reproduction: the paper, the paper's own
#: simulator (ns-2.35 for the papers that ran ns-2, the same scenario as a Tcl program in
#: ``validation/ns2/``), and the module on current ns-3. "agree" counts as agreeing; "partly"
#: and "disagree" as not; the other verdicts are not compared.
BOTH_AGREE = "stands on two simulators"
SIMULATOR_AGREES = "the paper's simulator agrees, the module's run does not"
MODULE_AGREES = "the module's run agrees, the paper's simulator does not"
NEITHER_AGREES = "neither agrees: the paper's unknowns or the paper"
ATTRIBUTIONS = (BOTH_AGREE, SIMULATOR_AGREES, MODULE_AGREES, NEITHER_AGREES)
#: The papers' simulators, as the three-way view names its column, with the suffix of the
#: campaign that runs a reproduction's scenario on it (``campaigns/<name><suffix>.toml``).
NS2_SIMULATOR = ("ns-2.35", "-ns2")
NS324_SIMULATOR = ("ns-3.24", "-ns324")
SIMULATOR_SUFFIXES = (NS2_SIMULATOR[1], NS324_SIMULATOR[1])


def attribution(verdict: str, simulator_verdict: str) -> str:
    """Where a claim with the module's ``verdict`` and the paper's simulator's
    ``simulator_verdict`` stands (:data:`ATTRIBUTIONS`), or "" when either was not judged (not
    run, not evaluated, a calibration statement)."""
    judged = ("agree", *VERDICTS_NEEDING_CAUSE)
    if verdict not in judged or simulator_verdict not in judged:
        return ""
    ours, theirs = verdict == "agree", simulator_verdict == "agree"
    if ours and theirs:
        return BOTH_AGREE
    if theirs:
        return SIMULATOR_AGREES
    return MODULE_AGREES if ours else NEITHER_AGREES


#: What a statement is: one of the paper's claims, or a variant that judges a claim again
#: under a changed setting (counted apart from the claims).
KINDS = ("claim", "variant")


def class_by_verdicts(verdict: str, variant_verdicts) -> str:
    """The class of a cause shown by variant runs whose verdicts on the same claim are
    ``variant_verdicts``: :data:`MOVES` when one of them differs from ``verdict``, else
    :data:`DOES_NOT_MOVE`; :data:`NO_CAUSE` without any judged variant."""
    judged = [v for v in variant_verdicts if v != "not evaluated"]
    if not judged:
        return NO_CAUSE
    return MOVES if any(v != verdict for v in judged) else DOES_NOT_MOVE


def calibration_verdict(met: bool | None) -> str:
    """The verdict of a calibration statement: "calibrated" only when its target was met,
    "calibration target not met" when it was not, "not evaluated" when it could not be
    measured (``met`` None)."""
    if met is None:
        return "not evaluated"
    return "calibrated" if met else "calibration target not met"


@dataclass
class TableData:
    """A small table for the HTML report: column titles and rows of cells (strings)."""

    columns: list[str]
    rows: list[list[str]]


@dataclass
class Artifact:
    """One reproduced figure or table and its files."""

    id: str  # "fig1", "table1": the paper's name for it
    title: str
    caption: str
    csv: Path
    png: Path | None = None
    pdf: Path | None = None
    table: TableData | None = None


@dataclass
class Claim:
    """One statement of the paper, checked against our numbers."""

    where: str  # the paper's section, figure or table
    paper: str  # what the paper says (with its numbers)
    ours: str  # what we measured (with our numbers)
    verdict: str  # one of VERDICTS
    #: Stable id ("C1", "C2", ...): the doc's reconstruction plan names claims by it.
    #: Claims left without one are numbered in their order by :meth:`FigureSet.number_claims`.
    id: str = ""
    #: For a "partly" or "disagree" verdict: the cause, preferably shown by a run that changes
    #: exactly that cause (the variant campaign's grid, what it changed and what it measured).
    cause: str = ""
    #: What the cause stands on, one of :data:`CAUSE_CLASSES` ("none" without a cause).
    cause_class: str = ""
    #: "claim", or "variant": a claim judged again under a changed setting (see :data:`KINDS`).
    kind: str = "claim"
    #: The same claim judged by the same rule on the paper's simulator's runs (the
    #: reproduction's ``<name>-ns2`` campaign): its verdict ("" when that simulator was not
    #: run) and what it measured.
    simulator_verdict: str = ""
    simulator_ours: str = ""

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {self.verdict!r}")
        if self.simulator_verdict and self.simulator_verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {self.simulator_verdict!r}")
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind {self.kind!r}")

    def set_cause(self, cause: str, cause_class: str) -> None:
        """Give the claim its cause and what the cause stands on (:data:`CAUSE_CLASSES`)."""
        if cause_class not in CAUSE_CLASSES:
            raise ValueError(f"unknown cause class {cause_class!r}")
        self.cause, self.cause_class = cause, cause_class if cause else NO_CAUSE

    @property
    def attribution(self) -> str:
        """Where the claim stands across the paper, its simulator and the module
        (:func:`attribution`)."""
        return attribution(self.verdict, self.simulator_verdict)

    def check_cause(self) -> None:
        """Class a claim without a cause as "none"; raise ``ValueError`` for a cause without
        its class (a text saying that no variant was run or covers it is classed "none")."""
        if not self.cause:
            self.cause_class = NO_CAUSE
        elif self.cause_class not in CAUSE_CLASSES:
            raise ValueError(f"{self.id or self.where}: its cause needs a class"
                             f" ({', '.join(CAUSE_CLASSES)}), not {self.cause_class!r}")


@dataclass
class CampaignState:
    """What a campaign's results database said when its figures were drawn: what they stand on.

    Saved in ``figures.json``, so that recorded figures carry it without their database.
    """

    campaign: str
    mode: str  # "full" or "quick"
    program: str
    planned: int | None  # the runs of the stored campaign file; None: unknown
    counts: dict[str, int]  # stored runs of the campaign by status: ok, failed, timeout
    seeds: list[int]
    ns3_versions: list[str]
    git_revs: list[str]
    sweep_wall_s: float | None  # wall time of the sweeps into the database
    run_time_s: float | None  # summed wall time of the runs
    failures: list[tuple[str, str]] = field(default_factory=list)  # (run, reason), first 20

    @property
    def incomplete(self) -> bool:
        """Whether fewer runs succeeded than the campaign plans (known only with a plan)."""
        return self.planned is not None and self.counts.get("ok", 0) < self.planned


#: The manifest a figure set is saved as, in its output directory.
MANIFEST = "figures.json"


@dataclass
class FigureSet:
    """What a figures function produced."""

    reproduction: str
    out_dir: Path
    artifacts: list[Artifact] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: The campaign the figures were drawn from (None in figure sets saved before it was).
    campaign: CampaignState | None = None
    #: Verdict counts of the claims under other readings shown beside the claims' own (VD: per
    #: topology), by label: {label: {verdict: count}}.
    tallies: dict[str, dict[str, int]] = field(default_factory=dict)
    #: The paper's simulator whose runs judged the claims again (:attr:`Claim.simulator_verdict`),
    #: "" when none was run, and the state of its campaign.
    simulator: str = ""
    simulator_campaign: CampaignState | None = None

    def verdict_counts(self, kind: str = "claim") -> Counter:
        """How many statements of ``kind`` have each verdict (every verdict of
        :data:`VERDICTS` present, zero where none)."""
        counts = Counter(claim.verdict for claim in self.claims if claim.kind == kind)
        return Counter({verdict: counts.get(verdict, 0) for verdict in VERDICTS})

    def simulator_counts(self) -> Counter:
        """The claims' verdicts on the paper's simulator, as :meth:`verdict_counts` (claims it
        did not judge are counted "not evaluated")."""
        counts = Counter(claim.simulator_verdict or "not evaluated"
                         for claim in self.claims if claim.kind == "claim")
        return Counter({verdict: counts.get(verdict, 0) for verdict in VERDICTS})

    def attribution_counts(self) -> Counter:
        """How many claims stand where (:data:`ATTRIBUTIONS`), those compared only."""
        counts = Counter(c.attribution for c in self.claims if c.kind == "claim")
        return Counter({where: counts.get(where, 0) for where in ATTRIBUTIONS})

    def attach_simulator(self, simulator: str, judged: FigureSet) -> None:
        """Take the verdicts of ``judged`` (the same figures function on the paper's
        simulator's database) as the claims' :attr:`Claim.simulator_verdict`, pairing claims by
        id; a claim ``judged`` lacks is "not evaluated" there."""
        by_id = {claim.id: claim for claim in judged.claims}
        self.simulator, self.simulator_campaign = simulator, judged.campaign
        state = judged.campaign
        if state is not None and state.incomplete:
            self.notes.append(
                f"The {simulator} column is drawn from {state.counts.get('ok', 0):,} of its"
                f" campaign's {state.planned:,} runs ({state.campaign}): a verdict there may"
                " change when the rest are in.")
        for claim in self.claims:
            other = by_id.get(claim.id)
            claim.simulator_verdict = other.verdict if other else "not evaluated"
            claim.simulator_ours = other.ours if other else f"no {simulator} run of this claim"

    def number_claims(self) -> None:
        """Give every claim without an id the id ``C<n>`` of its position (1-based).

        Raises ``ValueError`` when two claims share an id or a cause has no class
        (:meth:`Claim.check_cause`).
        """
        for index, claim in enumerate(self.claims, start=1):
            if not claim.id:
                claim.id = f"C{index}"
            claim.check_cause()
        ids = [claim.id for claim in self.claims]
        duplicated = sorted({i for i in ids if ids.count(i) > 1})
        if duplicated:
            raise ValueError(f"{self.reproduction}: claim ids used twice: {', '.join(duplicated)}")

    def save(self) -> Path:
        """Write ``out_dir/figures.json`` (file names relative to ``out_dir``)."""

        def relative(path: Path | None) -> str | None:
            return None if path is None else Path(path).name

        doc = {
            "reproduction": self.reproduction,
            "artifacts": [
                {**asdict(a), "csv": relative(a.csv), "png": relative(a.png),
                 "pdf": relative(a.pdf)}
                for a in self.artifacts
            ],
            "claims": [asdict(c) for c in self.claims],
            "notes": self.notes,
            "campaign": None if self.campaign is None else asdict(self.campaign),
            **({"tallies": self.tallies} if self.tallies else {}),
            **({"simulator": self.simulator,
                "simulator_campaign": None if self.simulator_campaign is None
                else asdict(self.simulator_campaign)} if self.simulator else {}),
        }
        if self.simulator:
            for entry, claim in zip(doc["claims"], self.claims):
                entry["attribution"] = claim.attribution
        path = self.out_dir / MANIFEST
        path.write_text(json.dumps(doc, indent=1, ensure_ascii=False), encoding="utf-8")
        return path

    @classmethod
    def load(cls, out_dir: Path) -> FigureSet:
        """Read a figure set saved by :meth:`save` in ``out_dir``."""
        doc = json.loads((out_dir / MANIFEST).read_text(encoding="utf-8"))

        def absolute(name: str | None) -> Path | None:
            return None if name is None else out_dir / name

        artifacts = []
        for a in doc["artifacts"]:
            table = TableData(**a["table"]) if a.get("table") else None
            artifacts.append(Artifact(a["id"], a["title"], a["caption"], absolute(a["csv"]),
                                      absolute(a["png"]), absolute(a["pdf"]), table))
        def state(entry: dict | None) -> CampaignState | None:
            if not entry:
                return None
            loaded = CampaignState(**entry)
            loaded.failures = [tuple(failure) for failure in loaded.failures]
            return loaded

        claims = [Claim(**{k: v for k, v in c.items() if k != "attribution"})
                  for c in doc["claims"]]
        return cls(doc["reproduction"], out_dir, artifacts, claims, list(doc["notes"]),
                   state(doc.get("campaign")), dict(doc.get("tallies") or {}),
                   doc.get("simulator", ""), state(doc.get("simulator_campaign")))


@dataclass(frozen=True)
class Reproduction:
    """A paper this repository reproduces."""

    name: str
    title: str
    citation: str
    campaign: str  # campaign name: campaigns/<campaign>.toml
    figures: str  # "module:function", function(db_path, out_dir) -> FigureSet
    #: The simulator the paper ran, and the suffix of the campaign running the same scenario
    #: on it (the three-way view's middle column).
    simulator: tuple[str, str] = NS2_SIMULATOR

    def figures_function(self) -> Callable[[Path, Path], FigureSet]:
        """Import and return the figures function."""
        module_name, _, attribute = self.figures.partition(":")
        return getattr(importlib.import_module(module_name), attribute)

    def make_figures(self, db_path: Path, out_dir: Path) -> FigureSet:
        """Draw the figures and tables of the results in ``db_path`` into ``out_dir``.

        Also saves the figure set, with the database's :class:`CampaignState`, as
        ``out_dir/figures.json``, which the report reuses while the database has not
        changed, and renders alone when the database is not there (recorded results).

        When the paper's simulator's database is beside it (:func:`~qdisclab.figures.common.
        simulator_db`), the same function draws that database's figures into
        ``out_dir/<simulator>/`` (``ns2``, ``ns324``) and judges every claim again on it: the
        three-way view.
        """
        from qdisclab.figures.common import campaign_state, simulator_db

        out_dir = Path(out_dir)
        out_dir.mkdir(parents=True, exist_ok=True)
        figures = self._figures(Path(db_path), out_dir)
        simulator, suffix = self.simulator
        if (other := simulator_db(Path(db_path), self.name, suffix)) is not None:
            judged = self._figures(other, out_dir / suffix.lstrip("-"))
            judged.save()
            figures.attach_simulator(simulator, judged)
        figures.save()
        return figures

    def _figures(self, db_path: Path, out_dir: Path) -> FigureSet:
        from qdisclab.figures.common import campaign_state  # common imports this module

        out_dir.mkdir(parents=True, exist_ok=True)
        figures = self.figures_function()(db_path, out_dir)
        figures.number_claims()
        figures.campaign = campaign_state(db_path)
        return figures


REPRODUCTIONS: dict[str, Reproduction] = {
    "red-vs-droptail": Reproduction(
        name="red-vs-droptail",
        title="Comparison of RED vs. DropTail queuing",
        citation="Z. Luo, \u201cProject 2 \u2013 Comparison of RED vs. DropTail Queuing\u201d"
        " (ns-3.24.1 study)",
        campaign="red-vs-droptail",
        figures="qdisclab.figures.red_vs_droptail:make_figures",
        simulator=NS324_SIMULATOR,
    ),
    "drr-evaluation": Reproduction(
        name="drr-evaluation",
        title="An evaluation of Deficit Round Robin fair queuing applied in router congestion"
        " control",
        citation="J.-S. Li, \u201cAn Evaluation of Deficit Round Robin Fair Queuing Applied in"
        " Router Congestion Control\u201d, Journal of Information Science and Engineering 18,"
        " 2002 (ns-2)",
        campaign="drr-evaluation",
        figures="qdisclab.figures.drr_evaluation:make_figures",
    ),
    "vertical-dimensioning": Reproduction(
        name="vertical-dimensioning",
        title="Vertical Dimensioning: a novel DRR implementation for efficient fair queueing",
        citation="S. Bakiras, F. Wang, D. Papadias and M. Hamdi, \u201cVertical Dimensioning:"
        " A Novel DRR Implementation for Efficient Fair Queueing\u201d, \u00a7IV (ns-2)",
        campaign="vertical-dimensioning",
        figures="qdisclab.figures.vertical_dimensioning:make_figures",
    ),
    "cioq-red": Reproduction(
        name="cioq-red",
        title="A modification to RED AQM for CIOQ switches",
        citation="J. K. Sundararajan, F. Zhao, P. Youssef-Massaad and M. M\u00e9dard, \u201cA"
        " Modification to RED AQM for CIOQ Switches\u201d (ns-2)",
        campaign="cioq-red",
        figures="qdisclab.figures.cioq_red:make_figures",
    ),
    "rio-assured-service": Reproduction(
        name="rio-assured-service",
        title="A modified RIO queue management scheme that reduces the bandwidth skew problem"
        " in Assured Service",
        citation="H. Kim, W. H. Park, S. Bahk, \u201cA modified RIO queue management scheme"
        " that reduces the bandwidth skew problem in Assured Service\u201d (RI+O; ns-2)",
        campaign="rio-assured-service",
        figures="qdisclab.figures.rio_assured_service:make_figures",
    ),
}


def get_reproduction(name: str) -> Reproduction:
    """The registered reproduction ``name`` (``KeyError`` listing the known ones)."""
    try:
        return REPRODUCTIONS[name]
    except KeyError:
        raise KeyError(
            f"no reproduction {name!r}; known: {', '.join(sorted(REPRODUCTIONS))}"
        ) from None
