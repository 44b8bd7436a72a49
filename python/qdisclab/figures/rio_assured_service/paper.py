# SPDX-License-Identifier: GPL-2.0-only
"""The paper's numbers: Kim, Park and Bahk's Assured Service study (RIO vs RI+O, ns-2).

The schemes, Table 1 with its fixed settings, and what the paper reads off Figs. 2 and 3. The
example's defaults (the paper's Table 1 setup) are the program's own: each run's stored report
holds them.
"""

from __future__ import annotations


# ----------------------------------------------------------------- schemes

SCHEMES = ("RIO", "RI+O")
SCHEME_LABELS = {"RIO": "RIO", "RI+O": "RI+O"}


# ----------------------------------------------------------------- Table 1

#: Table 1's profile classes (Mb/s), then best effort.
TABLE1_PROFILES = (2.0, 1.0, 0.5, 0.2, 0.1)
#: Column titles of Table 1: the profile rates, then BE (the paper heads it "0.05").
TABLE1_COLUMNS = ("2.0", "1.0", "0.5", "0.2", "0.1", "BE")
#: Table 1's fixed IN and IN+OUT settings (min, max, P_max).
TABLE1_IN = (390.0, 694.0, 0.02)
TABLE1_TOTAL = (347.0, 694.0, 0.05)
Setting = tuple[float, float, float]  # (min_th, max_th, P_max), thresholds in packets
#: Table 1: the best RIO and RI+O with each OUT setting (IN 390/694/0.02), Mb/s per class.
PAPER_BEST_RIO = (1.765, 1.009, 0.568, 0.333, 0.276, 0.253)
PAPER_TABLE1: dict[Setting, tuple[float, ...]] = {
    (200.0, 600.0, 0.01): (1.633, 0.912, 0.557, 0.322, 0.267, 0.253),
    (100.0, 300.0, 0.01): (1.657, 0.962, 0.586, 0.346, 0.277, 0.229),
    (30.0, 90.0, 0.01): (1.751, 1.013, 0.594, 0.342, 0.276, 0.198),
    (10.0, 30.0, 0.01): (1.781, 1.023, 0.592, 0.345, 0.272, 0.186),
    (5.0, 15.0, 0.01): (1.788, 1.028, 0.591, 0.339, 0.271, 0.179),
}
PAPER_FAIR_SHARE = (2.120, 1.120, 0.620, 0.320, 0.220, 0.120)


# ----------------------------------------------------------------- Figs. 2 and 3

#: Fig. 2: subscription level -> AS profile (four flows on 20 Mb/s).
FIG2_PROFILES = {0.4: 2.0, 0.5: 2.5}
FIG2_BE = (0, 1, 2, 6, 11, 16, 26, 46, 96)
#: Fig. 2: the largest number of BE flows at which the AS flows still meet their profile.
PAPER_FIG2: dict[tuple[float, str], int] = {
    (0.4, "RIO"): 11, (0.4, "RI+O"): 26, (0.5, "RIO"): 6, (0.5, "RI+O"): 16,
}
#: Fig. 3: the highest subscription level up to which the profile is met (None: never).
FIG3_PROFILES = (0.5, 1.0, 2.0)
FIG3_LEVELS = tuple(round(0.1 * k, 1) for k in range(1, 11))
PAPER_FIG3: dict[tuple[float, str], float | None] = {
    (0.5, "RIO"): 0.9, (0.5, "RI+O"): 0.9, (1.0, "RIO"): 0.5, (1.0, "RI+O"): 0.7,
    (2.0, "RIO"): None, (2.0, "RI+O"): 0.5,
}

NAME = "rio-assured-service"
