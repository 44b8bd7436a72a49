# SPDX-License-Identifier: GPL-2.0-only
"""The 2^k r factorial analysis (qdisclab.factorial) and ``qdisc-lab factorial``.

The reference data are Tables 2-5 and equations (1) and (3) of J.-S. Li, "An
Evaluation of Deficit Round Robin Fair Queuing Applied in Router Congestion
Control", section 4 (/work/shared/papers/drr-evaluation-li.txt), and Jain,
*The Art of Computer Systems Performance Analysis*, Example 18.1.
"""

import json
import math
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from qdisclab import factorial
from qdisclab.cli import main
from qdisclab.factorial import FactorialError, FactorialResult, analyze, analyze_response

DATA = Path(__file__).resolve().parent / "data" / "factorial"
PAPER_CSV = DATA / "drr-li-tables-2-4.csv"
SYNTHETIC_CSV = DATA / "synthetic-2x2x3.csv"

# Table 1's coding: P packet size 500 B -> -1, 1000 B -> +1; B bandwidth 1.0 Mbps -> -1,
# 1.5 Mbps -> +1; Q queue type DropTail -> -1, DRR -> +1.
P_LEVEL = {500: -1, 1000: 1}
B_LEVEL = {1.0: -1, 1.5: 1}
Q_LEVEL = {"FIFO": -1, "DRR": 1}

# Tables 2 and 4 as printed: one line per bandwidth; columns 500 B DropTail, 500 B DRR,
# 1000 B DropTail, 1000 B DRR.
COLUMNS = [(500, "FIFO"), (500, "DRR"), (1000, "FIFO"), (1000, "DRR")]
TABLE_2_DELAY = {
    1.0: [1.52971, 1.56103, 3.23200, 1.61920],
    1.5: [0.89872, 0.91565, 2.06929, 1.05314],
}
TABLE_4_ARRIVAL = {1.0: [0.646, 0.646, 0.535, 0.524], 1.5: [0.949, 0.949, 0.779, 0.767]}

EFFECTS = ["P", "B", "Q", "PB", "PQ", "BQ", "PBQ"]
# Table 3 (delay) and Table 5 (arrival ratio), exactly as printed.
TABLE_3 = dict(zip(EFFECTS, ["28.37", "27.21", "20.07", "0.62", "21.59", "1.02", "1.12"]))
TABLE_5 = dict(zip(EFFECTS, ["22.04923", "76.9701", "0.034083", "0.91238", "0.034083",
                             "6.4429E-05", "6.4429E-05"]))


def paper_rows(table: dict[float, list[float]], response: str) -> list[dict]:
    """One dict row per run of a table laid out like the paper's Tables 2 and 4."""
    return [
        {"P": P_LEVEL[size], "B": B_LEVEL[bandwidth], "Q": Q_LEVEL[queue], response: value}
        for bandwidth, values in table.items()
        for (size, queue), value in zip(COLUMNS, values)
    ]


def as_printed(value: float, printed: str) -> bool:
    """Whether ``value`` rounds (half up) to ``printed`` at the precision printed."""
    reference = Decimal(printed)
    return Decimal(repr(value)).quantize(reference, rounding=ROUND_HALF_UP) == reference


def invoke(*args):
    return CliRunner().invoke(main, ["factorial", *map(str, args)], prog_name="qdisc-lab")


# --- the paper: delay, Tables 2 and 3, equation (1) ----------------------------------------------


@pytest.fixture(scope="module")
def delay() -> FactorialResult:
    return analyze(paper_rows(TABLE_2_DELAY, "delay"))["delay"]


@pytest.fixture(scope="module")
def arrival() -> FactorialResult:
    return analyze(paper_rows(TABLE_4_ARRIVAL, "arrival"))["arrival"]


def test_effect_names_follow_the_paper(delay):
    assert delay.factors == ("P", "B", "Q")
    assert [effect.name for effect in delay.effects] == ["I", *EFFECTS]
    assert delay.effect("PBQ").factors == ("P", "B", "Q")
    assert delay.effect("q0") is delay.effects[0] and delay.effects[1].label == "qP"


def test_table_3_delay_percentages(delay):
    for name, printed in TABLE_3.items():
        assert f"{delay.effect(name).percent:.2f}" == printed, name
    assert sum(effect.percent for effect in delay.effects[1:]) == pytest.approx(100)
    # Section 4's ranking: "P, B, PQ, Q, PBQ, BQ, PB".
    ranking = sorted(delay.effects[1:], key=lambda effect: -effect.percent)
    assert [effect.name for effect in ranking] == ["P", "B", "PQ", "Q", "PBQ", "BQ", "PB"]


def test_equation_1_delay_coefficients(delay):
    # The sign-table effects, by hand from Table 2 (sum of signs * y / 8).
    assert delay.mean == pytest.approx(12.87874 / 8)
    assert delay.effect("B").value == pytest.approx(-3.00514 / 8)
    rounded = {effect.name: round(effect.value, 2) for effect in delay.effects}
    # Equation (1): y = 1.61 + 0.38xP - 0.37xB - 0.32xQ - 0.06xPxB + 0.07xBxQ - 0.33xQxP
    # + 0.08xPxBxQ. Every coefficient matches except that of B: qB = -0.3756425, which
    # rounds to -0.38; the paper prints -0.37 (and says "the effect of bandwidth was -0.37
    # sec"). It is not a truncation convention either: truncating would turn the paper's
    # -0.06 (qPB = -0.05655) and 0.08 (qPBQ = 0.07638) into -0.05 and 0.07.
    assert rounded == {
        "I": 1.61, "P": 0.38, "B": -0.38, "Q": -0.32,
        "PB": -0.06, "PQ": -0.33, "BQ": 0.07, "PBQ": 0.08,
    }
    assert delay.equation() == (
        "y = 1.61 + 0.38xP \u2212 0.38xB \u2212 0.32xQ \u2212 0.06xPxB \u2212 0.33xPxQ"
        " + 0.07xBxQ + 0.08xPxBxQ"
    )


def test_single_replication_has_no_error_and_no_intervals(delay):
    assert delay.replications == 1 and delay.runs == 8
    assert delay.sse is None and delay.percent_error is None
    assert delay.s_e is delay.s_q is delay.t is delay.dof is None
    assert all(e.ci_low is None and e.ci_high is None for e in delay.effects)
    assert all(e.zero_in_ci is None and e.significant is None for e in delay.effects)
    assert "no confidence interval" in delay.note
    assert delay.sst == pytest.approx(sum(e.sum_of_squares for e in delay.effects[1:]))


# --- the paper: packet arrival ratio, Tables 4 and 5, equation (3) -------------------------------


def test_table_5_arrival_percentages(arrival):
    # Every value of Table 5 agrees with the math at the precision printed.
    for name, printed in TABLE_5.items():
        percent = arrival.effect(name).percent
        assert as_printed(percent, printed), (name, percent)
    # The text's "the variation of packet size was 22.04%" truncates 22.049; Table 5 is right.
    assert round(arrival.effect("P").percent, 2) == 22.05


def test_equation_3_arrival_coefficients(arrival):
    # The sign-table effects, exactly (sum of signs * y / 8, by hand from Table 4).
    expected = {
        "I": 5.795 / 8, "P": -0.585 / 8, "B": 1.093 / 8, "Q": -0.023 / 8,
        "PB": -0.119 / 8, "PQ": -0.023 / 8, "BQ": -0.001 / 8, "PBQ": -0.001 / 8,
    }
    for name, value in expected.items():
        assert arrival.effect(name).value == pytest.approx(value, abs=1e-12), name
    # Equation (3) prints y = 0.72 - 0.07xP + 0.14xB - 0.003xQ - 0.01xPxB - 0.003xBxQ
    # - 0.0001xQxP - 0.0001xPxBxQ. The mean, P, B, Q, PB and PBQ coefficients match:
    for name, printed in [("I", "0.72"), ("P", "-0.07"), ("B", "0.14"), ("Q", "-0.003"),
                          ("PB", "-0.01"), ("PBQ", "-0.0001")]:
        assert as_printed(arrival.effect(name).value, printed), name
    # DISCREPANCY: the paper's BQ and PQ (QP) coefficients are swapped. The math gives
    # qBQ = -0.000125 (not -0.003) and qPQ = -0.002875 (not -0.0001). Table 5 itself agrees
    # with the math (PQ explains 0.034083 %, BQ 6.4429E-05 %, and 8 q^2 / SST reproduces
    # both), so the slip is in equation (3) and the sentence that paraphrases it.
    assert arrival.effect("BQ").value == pytest.approx(-0.000125)
    assert arrival.effect("PQ").value == pytest.approx(-0.002875)
    assert not as_printed(arrival.effect("BQ").value, "-0.003")
    assert not as_printed(arrival.effect("PQ").value, "-0.0001")
    # With the paper's two decimals (tiny coefficients keep one significant digit, as in (3)):
    assert arrival.equation() == (
        "y = 0.72 \u2212 0.07xP + 0.14xB \u2212 0.003xQ \u2212 0.01xPxB \u2212 0.003xPxQ"
        " \u2212 0.0001xBxQ \u2212 0.0001xPxBxQ"
    )
    assert arrival.equation(4) == (
        "y = 0.7244 \u2212 0.0731xP + 0.1366xB \u2212 0.0029xQ \u2212 0.0149xPxB"
        " \u2212 0.0029xPxQ \u2212 0.0001xBxQ \u2212 0.0001xPxBxQ"
    )


def test_the_fixture_is_the_papers_tables():
    rows = factorial.read_csv(PAPER_CSV)
    assert len(rows) == 8
    for row in rows:
        levels = (int(row["P"]), int(row["B"]), int(row["Q"]))
        assert row["queue"] == ("DRR" if levels[2] == 1 else "DropTail")  # the paper's names
        [delay] = [r["delay"] for r in paper_rows(TABLE_2_DELAY, "delay")
                   if (r["P"], r["B"], r["Q"]) == levels]
        [ratio] = [r["arrival"] for r in paper_rows(TABLE_4_ARRIVAL, "arrival")
                   if (r["P"], r["B"], r["Q"]) == levels]
        assert float(row["delay"]) == delay and float(row["arrival_ratio"]) == ratio


# --- replicated designs: a synthetic 2^2*3 and Jain's Example 18.1 -------------------------------

# y = 10 + 3xA - 2xB + 0.2xAxB + e, with errors -1, 0, +1 in every cell (rows deliberately
# not in standard order).
SYNTHETIC = [
    (-1, -1, 8.2), (1, 1, 11.2), (1, -1, 13.8), (-1, 1, 3.8), (-1, -1, 9.2), (1, -1, 14.8),
    (1, 1, 10.2), (-1, 1, 4.8), (-1, -1, 10.2), (1, -1, 15.8), (-1, 1, 5.8), (1, 1, 12.2),
]
T_95_8 = 1.8595480375228428  # Student t quantile t[0.95; 8] (tables: 1.860)
T_975_8 = 2.306004135033371  # t[0.975; 8] (tables: 2.306)


def test_synthetic_replicated_design_by_hand():
    rows = [{"A": a, "B": b, "y": y} for a, b, y in SYNTHETIC]
    result = analyze(rows)["y"]
    assert (result.factors, result.replications, result.runs) == (("A", "B"), 3, 12)
    values = {effect.name: effect.value for effect in result.effects}
    assert values == pytest.approx({"I": 10.0, "A": 3.0, "B": -2.0, "AB": 0.2})
    # SSx = 2^k r q^2 = 12 q^2; SSE = 4 cells * (1 + 0 + 1); SST = sum of all.
    assert result.effect("A").sum_of_squares == pytest.approx(108)
    assert result.effect("B").sum_of_squares == pytest.approx(48)
    assert result.effect("AB").sum_of_squares == pytest.approx(0.48)
    assert result.sse == pytest.approx(8)
    assert result.sst == pytest.approx(164.48)
    assert result.effect("A").percent == pytest.approx(100 * 108 / 164.48)
    assert result.percent_error == pytest.approx(100 * 8 / 164.48)
    # s_e = sqrt(SSE / (2^k (r - 1))) = sqrt(8 / 8) = 1; s_q = 1 / sqrt(12); dof = 8.
    assert (result.dof, result.s_e) == (8, pytest.approx(1.0))
    assert result.s_q == pytest.approx(1 / math.sqrt(12))
    assert result.t == pytest.approx(T_95_8)
    half = T_95_8 / math.sqrt(12)  # 0.53681
    for name, value in values.items():
        effect = result.effect(name)
        assert (effect.ci_low, effect.ci_high) == (
            pytest.approx(value - half), pytest.approx(value + half))
    # Only AB's interval (-0.337, 0.737) includes zero.
    assert {e.name: e.zero_in_ci for e in result.effects} == {
        "I": False, "A": False, "B": False, "AB": True}
    assert result.effect("AB").significant is False and result.effect("A").significant is True
    assert result.note is None


def test_confidence_level_is_configurable():
    rows = [{"A": a, "B": b, "y": y} for a, b, y in SYNTHETIC]
    result = analyze(rows, confidence=0.95)["y"]
    assert result.t == pytest.approx(T_975_8)
    assert result.effect("A").ci_high == pytest.approx(3 + T_975_8 / math.sqrt(12))


def test_jain_example_18_1():
    # Jain, Example 18.1 (2^2 3 design): cells (A, B) -> y.
    cells = {(-1, -1): (15, 18, 12), (1, -1): (45, 48, 51), (-1, 1): (25, 28, 19),
             (1, 1): (75, 75, 81)}
    levels = [cell for cell, ys in cells.items() for _ in ys]
    y = [value for ys in cells.values() for value in ys]
    result = analyze_response(levels, y, ["A", "B"])
    assert [e.value for e in result.effects] == pytest.approx([41, 21.5, 9.5, 5])
    assert [e.sum_of_squares for e in result.effects[1:]] == pytest.approx([5547, 1083, 300])
    assert (result.sse, result.sst) == (pytest.approx(102), pytest.approx(7032))
    assert [round(e.percent, 1) for e in result.effects[1:]] == [78.9, 15.4, 4.3]
    assert round(result.percent_error, 1) == 1.5
    # As in Example 18.3: s_e = sqrt(102 / 8) = 3.57, s_q = s_e / sqrt(12) = 1.03 and the
    # 90 % interval of qA is 21.5 -/+ t[0.95; 8] s_q = 21.5 -/+ 1.917.
    assert (round(result.s_e, 2), round(result.s_q, 2)) == (3.57, 1.03)
    assert (round(result.effect("A").ci_low, 2), round(result.effect("A").ci_high, 2)) == (
        19.58, 23.42)


# --- table forms and options ---------------------------------------------------------------------


def test_table_forms_agree():
    rows = paper_rows(TABLE_2_DELAY, "delay")
    by_rows = analyze(rows)["delay"]
    columns = {name: np.array([row[name] for row in rows]) for name in ("P", "B", "Q", "delay")}
    assert analyze(columns)["delay"] == by_rows
    structured = np.array([tuple(row.values()) for row in rows],
                          dtype=[("P", "i4"), ("B", "i4"), ("Q", "i4"), ("delay", "f8")])
    assert analyze(structured)["delay"] == by_rows
    matrix = np.array([[row["P"], row["B"], row["Q"]] for row in rows])
    assert analyze_response(matrix, columns["delay"], "PBQ", response="delay") == by_rows


def test_explicit_factors_responses_and_names():
    rows = [{"size": a, "bw": b, "label": "x", "y": y, "z": 2 * y} for a, b, y in SYNTHETIC]
    results = analyze(rows)
    assert list(results) == ["y", "z"]  # the label column is ignored
    assert results["z"].effect("size").value == pytest.approx(6)
    assert [e.name for e in results["y"].effects] == ["I", "size", "bw", "size:bw"]
    assert "x_size\u00b7x_bw" in results["y"].equation()
    # The factor order names the interactions; a response of -1/+1 is not taken for a factor.
    swapped = analyze(rows, responses=["y"], factors=["bw", "size"])
    assert list(swapped) == ["y"]
    assert [e.name for e in swapped["y"].effects] == ["I", "bw", "size", "bw:size"]
    signs = [{"A": a, "B": b, "C": a * b, "y": y} for a, b, y in SYNTHETIC]
    assert analyze(signs, responses=["C"], factors=["A", "B"])["C"].effect("AB").value == 1


def test_constant_response_has_no_percentages():
    rows = [{"A": a, "B": b, "y": 5.0} for a, b, _ in SYNTHETIC]
    result = analyze(rows)["y"]
    assert result.sst == 0 and result.mean == 5
    assert all(e.percent is None for e in result.effects) and result.percent_error is None
    assert all(e.zero_in_ci for e in result.effects[1:])


# --- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "kwargs", "message"),
    [
        ([{"A": 1, "y": 1.0}, {"A": -1, "y": 2.0}], {}, "at least 2 factor columns"),
        ([{"A": 1, "y": 1.0}, {"A": -1, "y": 2.0}], {"factors": ["A"]}, "at least 2 factors"),
        ([{"A": a, "B": b, "y": 1.0} for a, b in [(-1, -1), (1, -1), (-1, 1)]], {},
         "1 of the 4 level combinations have no run: A=+1 B=+1"),
        ([{"A": a, "B": b, "y": 1.0} for a, b in [(-1, -1), (1, -1), (-1, 1), (1, 1), (1, 1)]],
         {}, "replicated equally often"),
        ([{"A": a, "B": b, "y": 1.0} for a, b in [(0, -1), (1, -1), (0, 1), (1, 1)]],
         {"factors": ["A", "B"]}, "factor 'A' must have levels -1 and +1 only; found 0"),
        ([{"A": a, "B": b, "y": 1.0} for a, b in [(-1, -1), (1, -1), (-1, 1), (1, 1)]],
         {"responses": ["nope"]}, "no column 'nope'"),
        ([{"A": a, "B": b, "y": 1.0} for a, b in [(-1, -1), (1, -1), (-1, 1), (1, 1)]],
         {"responses": ["A"], "factors": ["A", "B"]}, "both a factor and a response"),
        ([{"A": a, "B": b, "y": "fast"} for a, b in [(-1, -1), (1, -1), (-1, 1), (1, 1)]],
         {"responses": ["y"]}, "response 'y' is not numeric"),
        ([{"A": a, "B": b} for a, b in [(-1, -1), (1, -1), (-1, 1), (1, 1)]], {},
         "no response column"),
        ([{"A": a, "B": b, "y": float("nan")} for a, b in [(-1, -1), (1, -1), (-1, 1), (1, 1)]],
         {}, "not a finite number in run(s) 1, 2, 3, 4"),
        ([{"A": 1, "B": 1, "y": 1.0}, {"A": -1, "y": 2.0}], {}, "row 2 has no column 'B'"),
        ([], {}, "no runs"),
        ([{"A": a, "B": b, "y": 1.0} for a, b in [(-1, -1), (1, -1), (-1, 1), (1, 1)]],
         {"confidence": 1.5}, "confidence must be between 0 and 1"),
    ],
)
def test_invalid_designs_are_refused(rows, kwargs, message):
    with pytest.raises(FactorialError) as error:
        analyze(rows, **kwargs)
    assert message in str(error.value)


def test_plain_arrays_need_names():
    with pytest.raises(FactorialError, match="no column names"):
        analyze(np.ones((4, 3)))
    with pytest.raises(FactorialError, match="2 level columns but 3 factor names"):
        analyze_response(np.ones((4, 2)), np.ones(4), ["A", "B", "C"])


# --- the command ---------------------------------------------------------------------------------


def test_cli_paper_table():
    result = invoke(PAPER_CSV)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "delay: 2^3 design, factors P, B, Q, r = 1 (8 runs)" in out
    assert "arrival_ratio: 2^3 design" in out
    assert "queue" not in out.split("arrival_ratio")[0].split("Regression")[0]  # label ignored
    assert ("Regression: y = 1.61 + 0.38xP \u2212 0.38xB \u2212 0.32xQ \u2212 0.06xPxB"
            " \u2212 0.33xPxQ + 0.07xBxQ + 0.08xPxBxQ") in out
    for percent in ("28.368", "27.209", "20.066", "0.61663", "21.594", "1.0214", "1.1249",
                    "22.049", "76.97", "0.034083", "0.91238", "6.4429e-05"):
        assert percent in out
    assert "no confidence interval" in out and "CI" not in out


def test_cli_replicated_with_options():
    result = invoke(SYNTHETIC_CSV, "--confidence", "0.95", "--decimals", "1")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "y: 2^2·3 design, factors A, B, r = 3 (12 runs)" in out
    assert "95% CI" in out and "no: CI has 0" in out
    assert "Regression: y = 10.0 + 3.0xA \u2212 2.0xB + 0.2xAxB" in out
    assert "t[0.975; 8] = 2.3060" in out
    assert "Error" in out and "4.8638" in out  # 100 * 8 / 164.48


def test_cli_json_round_trip():
    result = invoke(PAPER_CSV, "--json", "--response", "delay", "--factors", "P,B", "-f", "Q")
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert document["schema"] == factorial.SCHEMA and document["source"] == str(PAPER_CSV)
    assert list(document["responses"]) == ["delay"]
    data = document["responses"]["delay"]
    assert data["replications"] == 1 and data["runs"] == 8 and data["sse"] is None
    assert data["equation"].startswith("y = 1.61 + 0.38xP")
    assert {e["name"]: round(e["percent"], 2) for e in data["effects"][1:]} == {
        name: float(printed) for name, printed in TABLE_3.items()}
    expected = analyze(paper_rows(TABLE_2_DELAY, "delay"))["delay"]
    assert factorial.from_json(result.output)["delay"] == expected

    replicated = invoke(SYNTHETIC_CSV, "--json")
    assert replicated.exit_code == 0, replicated.output
    parsed = factorial.from_json(replicated.output)["y"]
    rows = [{"A": a, "B": b, "y": y} for a, b, y in SYNTHETIC]
    assert parsed == analyze(rows)["y"]
    assert json.loads(replicated.output)["responses"]["y"]["effects"][3]["zero_in_ci"] is True


def test_cli_errors(tmp_path):
    unbalanced = tmp_path / "unbalanced.csv"
    unbalanced.write_text("A,B,y\n-1,-1,1\n1,-1,2\n-1,1,3\n")
    result = invoke(unbalanced)
    assert result.exit_code == 1
    assert "Error: 1 of the 4 level combinations have no run: A=+1 B=+1" in result.output
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("# comment\nA,B,y\n-1,-1,1\n1,-1\n")
    result = invoke(ragged)
    assert result.exit_code == 1
    assert "ragged.csv:4: the row does not have one value" in result.output
    assert "no column 'x'" in invoke(SYNTHETIC_CSV, "--response", "x").output
    assert invoke(SYNTHETIC_CSV, "--confidence", "1").exit_code == 2
    assert invoke(tmp_path / "missing.csv").exit_code == 2


def test_cli_lists_the_command():
    result = CliRunner().invoke(main, ["--help"], prog_name="qdisc-lab")
    assert "factorial" in result.output.split("Commands:", 1)[1]
    assert "Usage: qdisc-lab factorial" in invoke("--help").output
