# SPDX-License-Identifier: GPL-2.0-only
"""The paper's numbers: Z. Luo's RED vs. DropTail study (ns-3.24.1).

The link settings, threshold pairs, windows, queue limits and Wait/Gentle settings of the
grid, the paper's table (§3.2) and the cells and pair its text singles out.
"""

from __future__ import annotations

NAME = "red-vs-droptail"

Link = tuple[str, str]  # (bottleneckRate, bottleneckDelay) as on the command line
Pair = tuple[float, float]  # (minTh, maxTh) as fractions of the queue limit
WaitGentle = tuple[bool, bool]


# ----------------------------------------------------------------- the paper's numbers

#: Link settings in the order of the paper's table; fig1 … fig4 follow it.
LINKS: tuple[Link, ...] = (
    ("1Mbps", "20ms"),
    ("1Mbps", "10ms"),
    ("1Mbps", "30ms"),
    ("0.5Mbps", "20ms"),
)
#: The ten threshold pairs (minTh, maxTh), in the paper's order.
PAIRS: tuple[Pair, ...] = tuple(
    zip(
        (0.02, 0.04, 0.08, 0.16, 0.24, 0.32, 0.32, 0.4, 0.48, 0.6),
        (0.04, 0.08, 0.16, 0.32, 0.48, 0.64, 0.8, 0.8, 0.96, 0.85),
        strict=True,
    )
)
WINDOWS = (2000, 8000, 16000, 32000, 64000)
QUEUES = (2000, 8000, 16000, 32000, 64000)
WAIT_GENTLE: tuple[WaitGentle, ...] = ((False, False), (False, True), (True, False), (True, True))

#: The paper's table (§3.2): cases of 25 where RED >= DropTail, per {Wait, Gentle}, in LINKS order.
PAPER_TABLE1: dict[WaitGentle, tuple[int, ...]] = {
    (False, False): (15, 7, 15, 16),
    (False, True): (16, 7, 16, 15),
    (True, False): (15, 6, 16, 14),
    (True, True): (17, 8, 18, 14),
}
PAPER_CELLS = 25
#: The threshold pair with the highest goodput in the paper (§3.1).
PAPER_BEST_PAIR: Pair = (0.32, 0.64)
#: §2.1: the cells (window, queue) of the largest RED and the largest DropTail advantage.
PAPER_RED_LARGEST: tuple[int, int] = (64000, 32000)
PAPER_DROPTAIL_LARGEST: tuple[int, int] = (32000, 64000)
#: Window of the §2.3 and §3 figures.
FOCUS_WINDOW = 32000
BASE_LINK: Link = LINKS[0]
TT: WaitGentle = (True, True)
FIG2_LINK = LINKS[1]
