# SPDX-License-Identifier: GPL-2.0-only
"""The paper's numbers: Bakiras et al.'s Vertical Dimensioning, §IV (ns-2).

The comparators and the delay reductions the paper states, the buffer it calls 25 % of the BDP,
and Fig. 4's statistics. The example's defaults (the paper's setup and the reconstruction of
what it leaves out) are the program's own: each run's stored report holds them.
"""

from __future__ import annotations

NAME = "vertical-dimensioning"

#: The paper's comparators, in its order; the claims compare VD with each that was run.
PAPER_COMPARATORS = ("Aliquem", "SRR", "DRR")

#: §IV: "VD's average delay is 8%-54% lower compared to Aliquem, 18%-58% lower compared to
#: SRR, and 46%-57% lower compared to DRR" (percent).
PAPER_DELAY_REDUCTION = {"Aliquem": (8, 54), "SRR": (18, 58), "DRR": (46, 57)}
#: The buffer the paper calls "approximately equal to 25 % of the BDP" (bytes).
PAPER_SMALL_BUFFER = 12500
#: The delay statistics of Fig. 4: (metric suffix, title).
DELAY_STATS = (("mean_delay_ms", "average"), ("p99_delay_ms", "99th percentile"),
               ("max_delay_ms", "maximum"))
