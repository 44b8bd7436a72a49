# SPDX-License-Identifier: GPL-2.0-only
"""The paper's numbers: J.-S. Li's DRR evaluation (JISE 2002) as printed.

Fig. 3's setup (ten on/off flows, the readings of its ambiguous source rate), the 2^3
factorial design's factors and levels, Tables 2-5 and equations (1) and (3) transcribed
from the paper.
"""

from __future__ import annotations

from qdisclab.factorial import MINUS

NAME = "drr-evaluation"


# ----------------------------------------------------------------- Fig. 3: fairness

#: Number of flows in the fairness experiment (§3).
FLOWS = 10
#: Mappings of flows to buckets, the paper's (ns-2's) first.
MAPPINGS = ("sequential", "hash")

#: Fig. 3's source rate is not given unambiguously ("1 Mb", on/off 3 s / 0.3 s): its readings
#: (doc: "The source rate's readings") as (onRate, meanOn s, meanOff s, meaning). R1 is the
#: final campaign's; R2-R5 run in the variant campaign's ``fig3-rates`` grid.
READINGS: dict[str, tuple[str, float, float, str]] = {
    "R1": ("1Mbps", 3.0, 0.3, "1 Mb/s while on (the access link's rate)"),
    "R2": ("333333bps", 3.0, 0.3, "1 Mbit per mean 3 s on period"),
    "R3": ("100kbps", 3.0, 0.3, "1 Mb/s shared by the ten sources"),
    "R4": ("64kbps", 3.0, 0.3, "ns-2's default rate_ of its exponential source"),
    "R5": ("1Mbps", 0.3, 3.0, "1 Mb/s with on and off swapped"),
}


# ----------------------------------------------------------------- Tables 2-5: the factorial design

#: The factorial's factors, in the paper's order, and their levels (−1, +1).
FACTORS = ("P", "B", "Q")
P_LEVELS = (500, 1000)  # bytes
B_LEVELS = (1.0, 1.5)  # Mb/s
Q_LEVELS = ("FIFO", "DRR")
Q_LABELS = {"FIFO": "DropTail", "DRR": "DRR"}
EFFECTS = ("P", "B", "Q", "PB", "PQ", "BQ", "PBQ")

Cell = tuple[int, float, str]  # (P bytes, B Mb/s, queueDisc)

#: Table 2: mean delay (s) of the measured flow.
PAPER_TABLE2: dict[Cell, float] = {
    (500, 1.0, "FIFO"): 1.52971, (500, 1.0, "DRR"): 1.56103,
    (1000, 1.0, "FIFO"): 3.23200, (1000, 1.0, "DRR"): 1.61920,
    (500, 1.5, "FIFO"): 0.89872, (500, 1.5, "DRR"): 0.91565,
    (1000, 1.5, "FIFO"): 2.06929, (1000, 1.5, "DRR"): 1.05314,
}
#: Table 4: packet arrival ratio of the measured flow.
PAPER_TABLE4: dict[Cell, float] = {
    (500, 1.0, "FIFO"): 0.646, (500, 1.0, "DRR"): 0.646,
    (1000, 1.0, "FIFO"): 0.535, (1000, 1.0, "DRR"): 0.524,
    (500, 1.5, "FIFO"): 0.949, (500, 1.5, "DRR"): 0.949,
    (1000, 1.5, "FIFO"): 0.779, (1000, 1.5, "DRR"): 0.767,
}
#: Table 3 / Table 5: percentage of variation explained.
PAPER_TABLE3 = {"P": 28.37, "B": 27.21, "Q": 20.07, "PB": 0.62, "PQ": 21.59, "BQ": 1.02,
                "PBQ": 1.12}
PAPER_TABLE5 = {"P": 22.04923, "B": 76.9701, "Q": 0.034083, "PB": 0.91238, "PQ": 0.034083,
                "BQ": 6.4429e-05, "PBQ": 6.4429e-05}
#: Equations (1) and (3) as printed: coefficients by effect ("I" = the mean q0).
PAPER_EQ1 = {"I": 1.61, "P": 0.38, "B": -0.37, "Q": -0.32, "PB": -0.06, "PQ": -0.33, "BQ": 0.07,
             "PBQ": 0.08}
PAPER_EQ3 = {"I": 0.72, "P": -0.07, "B": 0.14, "Q": -0.003, "PB": -0.01, "PQ": -0.0001,
             "BQ": -0.003, "PBQ": -0.0001}
PAPER_EQ1_TEXT = (f"y = 1.61 + 0.38xP {MINUS} 0.37xB {MINUS} 0.32xQ {MINUS} 0.06xPxB + 0.07xBxQ"
                  f" {MINUS} 0.33xQxP + 0.08xPxBxQ")
PAPER_EQ3_TEXT = (f"y = 0.72 {MINUS} 0.07xP + 0.14xB {MINUS} 0.003xQ {MINUS} 0.01xPxB"
                  f" {MINUS} 0.003xBxQ {MINUS} 0.0001xQxP {MINUS} 0.0001xPxBxQ")
