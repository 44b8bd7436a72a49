# SPDX-License-Identifier: GPL-2.0-only
"""2^k r factorial design analysis (``qdisc-lab factorial`` is :mod:`qdisclab.commands.factorial`).

The method is that of Jain, *The Art of Computer Systems Performance
Analysis* (Wiley, 1991), chapter 17 (2^k designs) and chapter 18 (2^k r
designs, with r replications of each experiment):

* **Effects** by the sign-table method: with the factor columns coded -1/+1,
  the column of an interaction is the product of its factors' columns and
  ``q_x = sum(sign_x * y) / (2^k r)``; ``q0`` is the mean response. The
  nonlinear regression model is ``y = q0 + qA xA + qB xB + qAB xA xB + ...``.
* **Allocation of variation**: ``SST = sum((y - mean)^2)``, the sum of squares
  of an effect is ``SSx = 2^k r q_x^2`` and, with r > 1, the error sum of
  squares ``SSE = sum((y - cell mean)^2)``, so ``SST = sum(SSx) + SSE``. Each
  term is reported as a percentage of SST.
* **Confidence intervals** (only with r > 1): ``s_e = sqrt(SSE / (2^k (r-1)))``,
  every effect has the standard deviation ``s_q = s_e / sqrt(2^k r)`` and the
  interval ``q_x -/+ t[1 - alpha/2; 2^k (r-1)] s_q``. An effect whose interval
  includes zero is not significant at that confidence. With r = 1 there are no
  degrees of freedom left for the error, hence no SSE and no intervals.

Input is a table with one row per run: factor columns hold the levels -1/+1,
replications are repeated rows of the same level combination, and every
combination must appear equally often. :func:`analyze` takes a list of dict
rows, a mapping of column name to values (a dict of numpy arrays, a pandas
DataFrame) or a numpy structured array; :func:`analyze_response` takes a plain
runs x factors level matrix and one response vector.

Effect names concatenate the factor names in column order, by increasing
interaction order: factors P, B, Q give P, B, Q, PB, PQ, BQ, PBQ. When a factor
name is longer than one character the names are joined with ``:`` instead
(``size:bw``) so that they stay readable. The mean is the effect ``"I"`` (the
identity column of the sign table), printed as ``q0``.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

SCHEMA = "qdisc-lab.factorial/1"
DEFAULT_CONFIDENCE = 0.90
MEAN = "I"  # the sign table's identity column: the effect q0
MINUS = "\u2212"  # typographic minus, as in "y = 1.61 − 0.37xB"
NO_CI_NOTE = (
    "r = 1 (no replications): the error cannot be estimated, so there is no SSE and"
    " no confidence interval; replicate each experiment (r > 1) to get them."
)


#: The most factors a design may have: 2^16 = 65,536 level combinations and 65,535 effects.
#: More are refused before the design's table is built.
MAX_FACTORS = 16


class FactorialError(ValueError):
    """The table is not a complete, balanced 2^k r design (or cannot be read)."""


@dataclass(frozen=True)
class Effect:
    """One effect of a 2^k r design: the mean q0 (name ``"I"``) or a factor or interaction.

    ``sum_of_squares`` and ``percent`` (of SST) are None for the mean; the
    confidence interval and ``zero_in_ci`` are None when the design has r = 1.
    """

    name: str
    factors: tuple[str, ...]
    value: float
    sum_of_squares: float | None = None
    percent: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    zero_in_ci: bool | None = None

    @property
    def label(self) -> str:
        """``q0`` for the mean, ``qP``, ``qPB``, ... otherwise."""
        return "q0" if self.name == MEAN else f"q{self.name}"

    @property
    def significant(self) -> bool | None:
        """True when the confidence interval excludes zero; None without intervals."""
        return None if self.zero_in_ci is None else not self.zero_in_ci


@dataclass(frozen=True)
class FactorialResult:
    """The analysis of one response column of a 2^k r design.

    ``effects`` lists the mean q0 first, then the 2^k - 1 effects in design
    order (P, B, Q, PB, PQ, BQ, PBQ). ``sse``, ``percent_error``, ``s_e``,
    ``s_q``, ``dof`` and ``t`` are None when r = 1, and ``note`` then says why.
    """

    response: str
    factors: tuple[str, ...]
    replications: int
    confidence: float
    effects: tuple[Effect, ...]
    sst: float
    sse: float | None = None
    percent_error: float | None = None
    s_e: float | None = None
    s_q: float | None = None
    dof: int | None = None
    t: float | None = None
    note: str | None = None

    @property
    def k(self) -> int:
        """The number of factors."""
        return len(self.factors)

    @property
    def runs(self) -> int:
        """The number of runs, 2^k r."""
        return 2**self.k * self.replications

    @property
    def mean(self) -> float:
        """q0, the mean response."""
        return self.effects[0].value

    def effect(self, name: str) -> Effect:
        """The effect called ``name`` (``"I"``, ``"q0"``, ``"P"``, ``"qPB"``, ...)."""
        for candidate in self.effects:
            if name in (candidate.name, candidate.label):
                return candidate
        raise KeyError(f"no effect {name!r}; have {', '.join(e.name for e in self.effects)}")

    def equation(self, decimals: int = 2) -> str:
        """The regression model, e.g. ``y = 1.61 + 0.38xP − 0.37xB − …``.

        Coefficients are rounded to ``decimals`` places, except that a nonzero
        one that would print as zero keeps one significant digit (``0.003``, as
        the paper's equation (3) does); negative ones use the typographic minus
        sign. Interaction terms multiply their variables (``xPxB``, or
        ``x_size·x_bw`` for longer factor names).
        """
        mean = self.effects[0].value
        text = f"y = {MINUS if mean < 0 else ''}{_coefficient(mean, decimals)}"
        short = all(len(name) == 1 for name in self.factors)
        for effect in self.effects[1:]:
            if short:
                term = "".join(f"x{name}" for name in effect.factors)
            else:
                term = "\u00b7".join(f"x_{name}" for name in effect.factors)
            sign = MINUS if effect.value < 0 else "+"
            text += f" {sign} {_coefficient(effect.value, decimals)}{term}"
        return text

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; :meth:`from_dict` reverses it (``equation`` is informative)."""
        data = asdict(self)
        data["factors"] = list(self.factors)
        for effect in data["effects"]:
            effect["factors"] = list(effect["factors"])
        data["effects"] = list(data["effects"])
        data["runs"] = self.runs
        data["equation"] = self.equation()
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FactorialResult:
        """Rebuild a result from :meth:`to_dict`'s output (e.g. parsed ``--json``)."""
        effects = tuple(
            Effect(**{**effect, "factors": tuple(effect["factors"])}) for effect in data["effects"]
        )
        known = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        return cls(**{**known, "factors": tuple(data["factors"]), "effects": effects})


def _coefficient(value: float, decimals: int) -> str:
    """``|value|`` to ``decimals`` places, or to one significant digit if that reads 0."""
    text = f"{abs(value):.{decimals}f}"
    if value != 0 and float(text) == 0.0:
        digit = float(f"{abs(value):.1g}")  # 0.00096 -> 0.001
        text = f"{digit:.{-math.floor(math.log10(digit))}f}"
    return text


def effect_name(factors: Sequence[str], combination: Sequence[int]) -> str:
    """The name of the interaction of ``factors[i]`` for i in ``combination``."""
    names = [factors[i] for i in combination]
    if not names:
        return MEAN
    separator = "" if all(len(name) == 1 for name in factors) else ":"
    return separator.join(names)


def interactions(k: int) -> list[tuple[int, ...]]:
    """The 2^k - 1 factor index combinations, single factors first, in column order."""
    return [
        combination
        for order in range(1, k + 1)
        for combination in itertools.combinations(range(k), order)
    ]


def analyze_response(
    levels: Any,
    y: Any,
    factors: Sequence[str],
    *,
    response: str = "y",
    confidence: float = DEFAULT_CONFIDENCE,
) -> FactorialResult:
    """Analyse one response of a 2^k r design given as arrays.

    ``levels`` is a runs x k matrix of -1/+1 (column i is factor ``factors[i]``),
    ``y`` the runs' responses. Raises :class:`FactorialError` unless the design
    has at least two factors, only -1/+1 levels and every level combination
    equally often.
    """
    factors = tuple(str(name) for name in factors)
    matrix = np.asarray(levels, dtype=float)
    values = np.asarray(y, dtype=float)
    if matrix.ndim != 2:
        raise FactorialError(f"levels must be a runs x factors matrix, got shape {matrix.shape}")
    runs, k = matrix.shape
    if k != len(factors):
        raise FactorialError(f"{k} level columns but {len(factors)} factor names")
    if len(set(factors)) != k:
        raise FactorialError(f"factor names repeat: {', '.join(factors)}")
    if values.shape != (runs,):
        raise FactorialError(f"response {response!r}: {values.size} values for {runs} runs")
    _check_confidence(confidence)
    _check_design(matrix, factors)
    if not np.all(np.isfinite(values)):
        bad = [str(i + 1) for i in np.flatnonzero(~np.isfinite(values))]
        raise FactorialError(
            f"response {response!r} is not a finite number in run(s) {', '.join(bad)}"
        )
    # Sums of squares are at most 4 runs max|y|^2: keep them within a float's range.
    largest = float(np.max(np.abs(values)))
    bound = math.sqrt(sys.float_info.max / (4 * runs))
    if largest > bound:
        raise FactorialError(
            f"response {response!r} has values up to {largest:g} in absolute value: their sums"
            f" of squares would exceed a float's range ({sys.float_info.max:.3g}); with"
            f" {runs} runs each |value| must be at most {bound:.3g}: rescale the column"
            " (other units)")

    cells = 2**k
    replications = runs // cells
    # Each run's fitted value is the mean response of its level combination (cell).
    _, cell, per_cell = np.unique(matrix, axis=0, return_inverse=True, return_counts=True)
    cell = cell.reshape(-1)
    fitted = (np.bincount(cell, weights=values) / per_cell)[cell]

    mean = float(values.mean())
    sst = float(np.sum((values - mean) ** 2))
    sse = float(np.sum((values - fitted) ** 2)) if replications > 1 else None

    s_e = s_q = t = dof = None
    if replications > 1:
        from scipy import stats

        dof = cells * (replications - 1)
        s_e = math.sqrt(sse / dof)
        s_q = s_e / math.sqrt(runs)
        t = float(stats.t.ppf(1 - (1 - confidence) / 2, dof))

    def percent(ss: float | None) -> float | None:
        return None if ss is None or sst == 0 else 100.0 * ss / sst

    def make(name: str, names: tuple[str, ...], value: float, ss: float | None) -> Effect:
        if t is None:
            return Effect(name, names, value, ss, percent(ss))
        low, high = value - t * s_q, value + t * s_q
        return Effect(name, names, value, ss, percent(ss), low, high, bool(low <= 0.0 <= high))

    effects = [make(MEAN, (), mean, None)]
    for combination in interactions(k):
        signs = np.prod(matrix[:, list(combination)], axis=1)
        value = float(signs @ values) / runs
        names = tuple(factors[i] for i in combination)
        effects.append(make(effect_name(factors, combination), names, value, runs * value**2))
    return FactorialResult(
        response=response,
        factors=factors,
        replications=replications,
        confidence=confidence,
        effects=tuple(effects),
        sst=sst,
        sse=sse,
        percent_error=percent(sse),
        s_e=s_e,
        s_q=s_q,
        dof=dof,
        t=t,
        note=None if replications > 1 else NO_CI_NOTE,
    )


def _check_confidence(confidence: float) -> None:
    if not 0.0 < confidence < 1.0:
        raise FactorialError(f"confidence must be between 0 and 1 (exclusive), got {confidence}")


def _check_design(matrix: np.ndarray, factors: tuple[str, ...]) -> None:
    """Raise unless ``matrix`` is a balanced 2^k r design with k >= 2."""
    runs, k = matrix.shape
    if k < 2:
        found = ", ".join(factors) or "none"
        raise FactorialError(f"a 2^k design needs at least 2 factors (found {k}: {found})")
    if k > MAX_FACTORS:
        raise FactorialError(
            f"{k} factors ({', '.join(factors)}): at most {MAX_FACTORS} are analysed (2^{k}"
            f" = {2**k:,} level combinations); choose the factors with --factors")
    for column, name in enumerate(factors):
        bad = list(dict.fromkeys(float(v) for v in matrix[:, column] if v not in (-1.0, 1.0)))
        if bad:
            shown = ", ".join(f"{v:g}" for v in bad[:5])
            raise FactorialError(f"factor {name!r} must have levels -1 and +1 only; found {shown}")
    counts = {combination: 0 for combination in itertools.product((-1, 1), repeat=k)}
    for row in matrix.astype(int):
        counts[tuple(row)] += 1

    def describe(combination: tuple[int, ...]) -> str:
        return " ".join(f"{name}={level:+d}" for name, level in zip(factors, combination))

    missing = [describe(c) for c, n in counts.items() if n == 0]
    if missing:
        shown = "; ".join(missing[:4])
        if len(missing) > 4:
            shown += f"; ... ({len(missing)} in all)"
        raise FactorialError(
            f"{len(missing)} of the {2**k} level combinations have no run: {shown}"
        )
    if len(set(counts.values())) > 1:
        spread = "; ".join(f"{describe(c)}: {n}" for c, n in counts.items())
        raise FactorialError(
            "every level combination must be replicated equally often; runs per"
            f" combination: {spread}"
        )


# --- tables ---------------------------------------------------------------------------------


def _columns(table: Any) -> dict[str, list[Any]]:
    """The table as ``{column: values}``, in column order."""
    names = getattr(getattr(table, "dtype", None), "names", None)
    if names:  # numpy structured array
        return {str(name): list(table[name]) for name in names}
    if isinstance(table, Mapping) or (hasattr(table, "keys") and hasattr(table, "__getitem__")):
        return {str(name): list(table[name]) for name in table.keys()}
    if isinstance(table, np.ndarray):
        raise FactorialError(
            "a plain numpy array has no column names: use analyze_response(levels, y, factors)"
            " or a structured array"
        )
    rows = list(table) if isinstance(table, Iterable) else None
    if rows is None or not all(isinstance(row, Mapping) for row in rows):
        raise FactorialError(
            "a table is a list of dict rows, a mapping of column name to values, or a numpy"
            " structured array"
        )
    order: dict[str, None] = {}
    for row in rows:
        order.update(dict.fromkeys(str(key) for key in row))
    columns: dict[str, list[Any]] = {name: [] for name in order}
    for number, row in enumerate(rows, start=1):
        for name in columns:
            if name not in row:
                raise FactorialError(f"row {number} has no column {name!r}")
            columns[name].append(row[name])
    return columns


def _numeric(values: Sequence[Any]) -> np.ndarray | None:
    """``values`` as floats, or None when one of them is not a number (bools are not)."""
    out = np.empty(len(values))
    for i, value in enumerate(values):
        if isinstance(value, bool | np.bool_):
            return None
        if isinstance(value, str):
            value = value.strip()
        try:
            out[i] = float(value)
        except (TypeError, ValueError):
            return None
    return out


def _is_level_column(values: np.ndarray | None) -> bool:
    """Whether a column looks like a factor: only -1 and +1, and both of them."""
    return values is not None and {float(v) for v in values} == {-1.0, 1.0}


def _split_columns(
    columns: dict[str, list[Any]],
    responses: Sequence[str] | None,
    factors: Sequence[str] | None,
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Choose and convert the factor and response columns."""
    if not columns or not any(len(values) for values in columns.values()):
        raise FactorialError("the table has no runs")
    responses = list(responses) if responses else None
    factors = list(factors) if factors else None
    for name in (responses or []) + (factors or []):
        if name not in columns:
            raise FactorialError(f"no column {name!r}; columns: {', '.join(columns)}")
    if responses and factors and set(responses) & set(factors):
        both = ", ".join(sorted(set(responses) & set(factors)))
        raise FactorialError(f"column(s) {both} cannot be both a factor and a response")
    numeric = {name: _numeric(values) for name, values in columns.items()}

    if factors is None:
        factors = [
            name for name, values in numeric.items()
            if name not in (responses or []) and _is_level_column(values)
        ]
        if len(factors) < 2:
            raise FactorialError(
                f"a 2^k design needs at least 2 factor columns (columns holding only -1 and +1);"
                f" found {len(factors)}{': ' + ', '.join(factors) if factors else ''}"
            )
    for name in factors:
        if numeric[name] is None:
            raise FactorialError(
                f"factor {name!r} must have levels -1 and +1 only; it is not numeric"
            )
    if responses is None:
        responses = [
            name for name, values in numeric.items()
            if name not in factors and values is not None
        ]
        if not responses:
            raise FactorialError(
                "no response column: every numeric column holds only -1/+1 and was taken for a"
                " factor; name the response column(s)"
            )
    for name in responses:
        if numeric[name] is None:
            bad = next(v for v in columns[name] if _numeric([v]) is None)
            raise FactorialError(f"response {name!r} is not numeric (value {bad!r})")
    return {name: numeric[name] for name in factors}, {name: numeric[name] for name in responses}


def analyze(
    table: Any,
    responses: Sequence[str] | None = None,
    factors: Sequence[str] | None = None,
    *,
    confidence: float = DEFAULT_CONFIDENCE,
) -> dict[str, FactorialResult]:
    """Analyse every response column of a 2^k r design table.

    ``factors`` defaults to the columns holding only -1 and +1, both present
    (except those named in ``responses``: name a response whose values are
    -1/+1); ``responses`` defaults to every other numeric column
    (non-numeric columns, such as labels, are ignored). Returns one
    :class:`FactorialResult` per response, in column order.
    """
    _check_confidence(confidence)
    factor_columns, response_columns = _split_columns(_columns(table), responses, factors)
    names = tuple(factor_columns)
    levels = np.column_stack(list(factor_columns.values()))
    return {
        name: analyze_response(levels, values, names, response=name, confidence=confidence)
        for name, values in response_columns.items()
    }


def read_csv(path: Path) -> list[dict[str, str]]:
    """The rows of a CSV file with a header line, as dicts of stripped strings.

    Lines starting with ``#`` before the header (a license line, provenance)
    are skipped.
    """
    try:
        # utf-8-sig: a byte-order mark (spreadsheets write one) is no part of the first name.
        with open(path, newline="", encoding="utf-8-sig") as stream:
            lines = stream.readlines()
            skipped = 0
            while skipped < len(lines) and lines[skipped].lstrip().startswith("#"):
                skipped += 1
            reader = csv.DictReader(lines[skipped:])
            if not reader.fieldnames:
                raise FactorialError(f"{path}: no header line")
            names = [name.strip() for name in reader.fieldnames]
            if repeated := sorted({name for name in names if names.count(name) > 1}):
                raise FactorialError(
                    f"{path}:{skipped + 1}: column name(s) {', '.join(map(repr, repeated))}"
                    " appear more than once in the header; give each column its own name")
            if "" in names:
                raise FactorialError(
                    f"{path}:{skipped + 1}: column {names.index('') + 1} of the header has no"
                    " name")
            rows = []
            for row in reader:
                if None in row or any(value is None for value in row.values()):
                    raise FactorialError(
                        f"{path}:{skipped + reader.line_num}: the row does not have one value"
                        " per column"
                    )
                rows.append({key.strip(): value.strip() for key, value in row.items()})
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise FactorialError(f"{path}: {exc}") from exc
    if not rows:
        raise FactorialError(f"{path}: no runs (only a header)")
    return rows


def to_json(results: Mapping[str, FactorialResult], source: str | None = None) -> str:
    """The ``--json`` document: ``{"schema", "source", "responses": {name: result}}``."""
    document = {
        "schema": SCHEMA,
        "source": source,
        "responses": {name: result.to_dict() for name, result in results.items()},
    }
    return json.dumps(document, indent=2, allow_nan=False)


def from_json(text: str) -> dict[str, FactorialResult]:
    """Parse :func:`to_json`'s output back into results."""
    document = json.loads(text)
    if document.get("schema") != SCHEMA:
        raise FactorialError(f"not a {SCHEMA} document")
    return {name: FactorialResult.from_dict(data) for name, data in document["responses"].items()}


# --- command --------------------------------------------------------------------------------


