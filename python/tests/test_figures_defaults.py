# SPDX-License-Identifier: GPL-2.0-only
"""The figures hold no copy of an example's defaults: the program's ``--schema`` is their source.

The figures read a run's scenario from its stored report (:class:`RunParams`). Two checks keep
them from growing copies again:

* no module of a reproduction's figures package has a dict keyed by two or more of its
  example's parameters (``DEFAULTS = {"queueDisc": ..., ...}``), except those that say what the
  paper's own simulator does where its program has no such parameter (``NS2_*``): their keys
  must not be parameters that program has;
* the values the figures still declare because the paper's setup equals the example's default
  (a filter, a label) are each compared with the program's default, below.
"""

import importlib
import inspect
import pkgutil
import re

import pytest

from built_examples import example
from qdisclab.campaign.engine import program_binary
from qdisclab.campaign.spec import CampaignError, load_campaign
from qdisclab.figures import REPRODUCTIONS, get_reproduction
from qdisclab.schema import SchemaError, read_schema
from qdisclab.toolchain.build import NS2


def program_of(name: str) -> str:
    return load_campaign(get_reproduction(name).campaign).program


def schema_of(name: str):
    binary = example(program_of(name))
    if not binary.is_file():
        pytest.skip(f"{binary} not built (qdisc-lab build)")
    return read_schema(binary)


def package_modules(name: str):
    """The modules of reproduction ``name``'s figures package, the package itself first."""
    package = importlib.import_module(get_reproduction(name).figures.split(":")[0])
    yield package
    for info in pkgutil.iter_modules(package.__path__):
        yield importlib.import_module(f"{package.__name__}.{info.name}")


def parameter_dicts(name: str, parameters: set[str]) -> dict[str, dict]:
    """Every module-level dict of the package keyed by two or more of ``parameters``, by its
    qualified name (each object once)."""
    found: dict[int, tuple[str, dict]] = {}
    for module in package_modules(name):
        for attr, value in vars(module).items():
            if (isinstance(value, dict) and id(value) not in found
                    and len({k for k in value if isinstance(k, str)} & parameters) >= 2):
                found[id(value)] = (f"{module.__name__}.{attr}", value)
    return dict(found.values())


@pytest.mark.parametrize("name", sorted(REPRODUCTIONS))
def test_no_figures_module_holds_the_examples_parameters(name):
    parameters = {p["name"] for p in schema_of(name).params}
    dicts = parameter_dicts(name, parameters)
    copies = sorted(q for q in dicts if not q.rsplit(".", 1)[1].startswith("NS2_"))
    assert copies == [], f"{name}: dicts of {program_of(name)}'s parameters (read the run's)"
    for qualified, values in dicts.items():
        try:
            ns2 = read_schema(program_binary(program_of(name), NS2))
        except (CampaignError, SchemaError) as exc:
            pytest.skip(f"ns-2.35's {program_of(name)}: {exc}")
        assert not set(values) & {p["name"] for p in ns2.params}, \
            f"{qualified}: ns-2.35's program reports these itself"


def test_the_scan_finds_a_copy(monkeypatch):
    """A DEFAULTS dict put back into a figures module is found."""
    from qdisclab.figures.drr_evaluation import paper

    monkeypatch.setattr(paper, "DEFAULTS", {"buckets": 10, "quantum": 250}, raising=False)
    found = parameter_dicts("drr-evaluation", {"buckets", "quantum", "maxSize"})
    assert list(found) == ["qdisclab.figures.drr_evaluation.paper.DEFAULTS"]


def seconds(text: str) -> float:
    """``"1s"`` → 1.0, ``"200ms"`` → 0.2."""
    match = re.fullmatch(r"([\d.]+)(s|ms)", text)
    return float(match.group(1)) * {"s": 1.0, "ms": 1e-3}[match.group(2)]


def declared():
    """(reproduction, what, the figures' value, the parameters it stands for, the value as the
    schema writes it) for each value the figures declare that equals an example's default."""
    from qdisclab.figures import red_vs_droptail as rvd
    from qdisclab.figures import vertical_dimensioning as vd
    from qdisclab.figures.cioq_red.paper import READINGS
    from qdisclab.figures.drr_evaluation.analysis import FACTORIAL_BUCKETS, NS2_DRR, PACKET_SIZES
    from qdisclab.figures.red_vs_droptail.paper import FOCUS_WINDOW, PAPER_BEST_PAIR
    from qdisclab.figures.rio_assured_service.analysis import UNKNOWNS
    from qdisclab.figures.rio_assured_service.paper import TABLE1_IN, TABLE1_PROFILES, TABLE1_TOTAL

    def profiles(values):
        return ",".join(f"{v:g}" for v in values)

    yield ("vertical-dimensioning", "main_variant: Fig. 2's on/off law and returning flows",
           vd.main_variant(1.0)[1:], ("onOff", "vdReturn"), tuple)
    yield ("rio-assured-service", "TABLE1_PROFILES", TABLE1_PROFILES, ("profiles",),
           lambda v: (profiles(v),))
    yield ("rio-assured-service", "TABLE1_IN", TABLE1_IN, ("inMinTh", "inMaxTh", "inMaxP"),
           tuple)
    yield ("rio-assured-service", "TABLE1_TOTAL", TABLE1_TOTAL,
           ("totalMinTh", "totalMaxTh", "totalMaxP"), tuple)
    for grid, parameter, default, _ in UNKNOWNS:
        yield ("rio-assured-service", f"UNKNOWNS[{grid}]: the sensitivity's primary", default,
               (parameter,), lambda v: (seconds(v) if isinstance(v, str) and
                                        re.fullmatch(r"[\d.]+m?s", v) else v,))
    yield ("red-vs-droptail", "BASE_LINK", rvd.BASE_LINK, ("bottleneckRate", "bottleneckDelay"),
           tuple)
    yield ("red-vs-droptail", "TT", rvd.TT, ("wait", "gentle"), tuple)
    yield ("red-vs-droptail", "PAPER_BEST_PAIR", PAPER_BEST_PAIR, ("minTh", "maxTh"), tuple)
    yield ("red-vs-droptail", "FOCUS_WINDOW", FOCUS_WINDOW, ("window",), lambda v: (v,))
    yield ("drr-evaluation", "FACTORIAL_BUCKETS", FACTORIAL_BUCKETS, ("buckets",),
           lambda v: (v,))
    yield ("drr-evaluation", "PACKET_SIZES: Fig. 3's", PACKET_SIZES,
           ("packetSizeMin", "packetSizeMax"), tuple)
    yield ("drr-evaluation", "NS2_DRR: ns-2's DRR is the module's default", tuple(NS2_DRR.values()),
           tuple(NS2_DRR), tuple)
    yield ("cioq-red", "READINGS[0]: the plan's first input buffer reading", READINGS[0],
           ("inputBuffer", "voqLimit"), tuple)


DECLARED = list(declared())


@pytest.mark.parametrize(("name", "what", "value", "parameters", "spelling"), DECLARED,
                         ids=[f"{d[0]}:{d[1].split(':')[0]}" for d in DECLARED])
def test_a_value_the_figures_declare_is_the_programs_default(name, what, value, parameters,
                                                             spelling):
    schema = schema_of(name)
    defaults = tuple(schema.param(p)["default"] for p in parameters)
    assert spelling(value) == defaults, f"{name}: {what} is not {program_of(name)}'s default"


def test_every_reproduction_is_checked():
    assert {d[0] for d in DECLARED} == set(REPRODUCTIONS)


def figure_queue_discs(name: str) -> dict[str, set[str]]:
    """The queue disc names reproduction ``name``'s figures hold, by where: the module-level
    tuples and dict keys named for queue discs (QDISCS, SCHEMES, LABELS, COLORS, ...) and every
    literal the figures compare a run's ``queueDisc`` with."""
    found: dict[str, set[str]] = {}
    compared = re.compile(r"""\[["']queueDisc["']\]\s*[!=]=\s*["']([^"']+)["']""")
    for module in package_modules(name):
        for attr, value in vars(module).items():
            if re.fullmatch(r"(OQ_)?QDISCS|Q_LEVELS|Q_LABELS|SCHEMES|SCHEME_LABELS|LABELS|COLORS"
                            r"|SCHEDULER_STYLES|PAPER_COMPARATORS", attr):
                found[f"{module.__name__}.{attr}"] = set(value)
        source = inspect.getsource(module)
        if names := set(compared.findall(source)):
            found[f"{module.__name__}: run.params['queueDisc'] == ..."] = names
    return found


@pytest.mark.parametrize("name", sorted(REPRODUCTIONS))
def test_the_figures_name_queue_discs_as_the_program_does(name):
    """One spelling per queue disc: every name the figures hold is one the program's
    --queueDisc takes (its schema's choices: catalog names), so a figure cannot select runs
    by a name no run has."""
    choices = set(schema_of(name).choices("queueDisc"))
    assert choices, f"{program_of(name)}'s --queueDisc lists no choices"
    held = figure_queue_discs(name)
    assert held, f"{name}: the scan found no queue disc names"
    for where, names in held.items():
        assert names <= choices, f"{where}: {sorted(names - choices)} is not a --queueDisc choice"


def test_the_queue_disc_scan_finds_another_spelling(monkeypatch):
    from qdisclab.figures.cioq_red import paper

    monkeypatch.setattr(paper, "QDISCS", ("FIFO", "Red"))
    assert figure_queue_discs("cioq-red")["qdisclab.figures.cioq_red.paper.QDISCS"] == {
        "FIFO", "Red"}
