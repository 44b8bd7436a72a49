# SPDX-License-Identifier: GPL-2.0-only
"""The paper's numbers: CIOQ-RED (Sundararajan, Zhao, Youssef-Massaad and Médard, ns-2).

The queue discs compared, the switch sizes with their sessions, speedups and ν, the
figures' numbering, the fabrics, and the readings of the paper's input buffer size.
"""

from __future__ import annotations

NAME = "cioq-red"


# ----------------------------------------------------------------- the paper's setup

QDISCS = ("FIFO", "RED", "CIOQ-RED")
LABELS = {"FIFO": "DropTail", "RED": "RED", "CIOQ-RED": "CIOQ-RED"}
SIZES = (4, 16)
#: Sessions of Figs. 2 / 4 (the full load of Figs. 3 / 5).
PAPER_SESSIONS = {4: 800, 16: 6400}
#: Speedup of Figs. 3 / 5.
PAPER_SPEEDUP = {4: 1.1, 16: 1.4}
#: CIOQ-RED's input weight ν.
PAPER_NU = {4: 0.5, 16: 0.125}
#: Speedup ranges of Figs. 2 / 4.
PAPER_SPEEDUP_RANGE = {4: (1.1, 2.5), 16: (1.1, 2.7)}
#: Figure numbers: (kind, ports) -> paper figure.
FIGURE_NUMBER = {("speedup", 4): 2, ("load", 4): 3, ("speedup", 16): 4, ("load", 16): 5}
FABRICS = ("Paper", "Islip")
FABRIC_LABELS = {"Paper": "the paper's fabric (N² links at s/N)", "Islip": "iSLIP crossbar"}


# ----------------------------------------------------------------- the paper's buffers

#: The input buffer readings of "the input and output buffer sizes are both 20", as the
#: example's (inputBuffer, voqLimit), in the plan's order of preference.
READINGS = (("0p", "20p"), ("20p", "0p"), ("0p", "5p"))
READING_LABELS = {("0p", "20p"): "20 per VOQ", ("20p", "0p"): "20 shared per input",
                  ("0p", "5p"): "5 per VOQ"}
