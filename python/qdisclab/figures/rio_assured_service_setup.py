# SPDX-License-Identifier: GPL-2.0-only
"""The Assured Service study (Kim, Park, Bahk): the example's defaults, the paper's numbers and
a run's scenario, shared by the figures modules (:mod:`rio_assured_service` and
:mod:`rio_assured_service_table1`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from qdisclab.campaign.store import RunRecord
from qdisclab.figures.common import Estimate, t_interval

SCHEMES = ("Rio", "RiPlusO")
SCHEME_LABELS = {"Rio": "RIO", "RiPlusO": "RI+O"}

# ----------------------------------------------------------------- the example's defaults

#: rio-assured-service's defaults (the paper's Table 1 setup) for the parameters read here.
DEFAULTS: dict[str, object] = {
    "queueDisc": "Rio",
    "profiles": "2,1,0.5,0.2,0.1",
    "flowsPerProfile": 4,
    "subscription": 0.0,
    "nBestEffort": 20,
    "inMinTh": 390.0,
    "inMaxTh": 694.0,
    "inMaxP": 0.02,
    "totalMinTh": 347.0,
    "totalMaxTh": 694.0,
    "totalMaxP": 0.05,
    "outMinTh": 10.0,
    "outMaxTh": 30.0,
    "outMaxP": 0.01,
    "queueLimit": 1000,
    "bottleneckRate": "20Mbps",
}

# ----------------------------------------------------------------- the paper's numbers

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

#: Fig. 2: subscription level -> AS profile (four flows on 20 Mb/s).
FIG2_PROFILES = {0.4: 2.0, 0.5: 2.5}
FIG2_BE = (0, 1, 2, 6, 11, 16, 26, 46, 96)
#: Fig. 2: the largest number of BE flows at which the AS flows still meet their profile.
PAPER_FIG2: dict[tuple[float, str], int] = {
    (0.4, "Rio"): 11, (0.4, "RiPlusO"): 26, (0.5, "Rio"): 6, (0.5, "RiPlusO"): 16,
}
#: Fig. 3: the highest subscription level up to which the profile is met (None: never).
FIG3_PROFILES = (0.5, 1.0, 2.0)
FIG3_LEVELS = tuple(round(0.1 * k, 1) for k in range(1, 11))
PAPER_FIG3: dict[tuple[float, str], float | None] = {
    (0.5, "Rio"): 0.9, (0.5, "RiPlusO"): 0.9, (1.0, "Rio"): 0.5, (1.0, "RiPlusO"): 0.7,
    (2.0, "Rio"): None, (2.0, "RiPlusO"): 0.5,
}

# ----------------------------------------------------------------- parameters


def parse_mbps(rate: str) -> float:
    """``"20Mbps"`` → 20.0, ``"500kbps"`` → 0.5 (Mb/s)."""
    text = str(rate).strip()
    for suffix, scale in (("Gbps", 1e3), ("Mbps", 1.0), ("kbps", 1e-3), ("bps", 1e-6)):
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * scale
    raise ValueError(f"not a data rate: {rate!r}")


def parse_profiles(text: str) -> tuple[float, ...]:
    """``"2,1,0.5"`` → (2.0, 1.0, 0.5)."""
    return tuple(float(item) for item in str(text).split(","))


@dataclass(frozen=True)
class Setup:
    """A run's scenario with the example's defaults filled in."""

    grid: str
    queue: str
    profiles: tuple[float, ...]
    flows_per_profile: int
    n_be: int
    capacity: float  # Mb/s
    total: Setting
    out: Setting

    @property
    def n_as(self) -> int:
        """Number of AS flows."""
        return self.flows_per_profile * len(self.profiles)

    @property
    def subscription(self) -> float:
        """Sum of the AS profiles over the bottleneck rate, rounded to 0.1 %."""
        return round(sum(self.profiles) * self.flows_per_profile / self.capacity, 3)

    def fair_share(self, profile: float) -> float:
        """``profile`` plus the unsubscribed capacity split equally over all flows."""
        flows = self.n_as + self.n_be
        return profile + (self.capacity - sum(self.profiles) * self.flows_per_profile) / flows


def setup_of(run: RunRecord) -> Setup:
    """The scenario of a stored run (campaign parameters over the example's defaults)."""
    p = {**DEFAULTS, **run.params}
    profiles = parse_profiles(p["profiles"])
    capacity = parse_mbps(p["bottleneckRate"])
    flows = int(p["flowsPerProfile"])
    if float(p["subscription"]) > 0:
        flows = round(float(p["subscription"]) * capacity / sum(profiles))
    total = (float(p["totalMinTh"]), float(p["totalMaxTh"]), float(p["totalMaxP"]))
    out = ((float(p["outMinTh"]), float(p["outMaxTh"]), float(p["outMaxP"]))
           if p["queueDisc"] == "RiPlusO" else (0.0, 0.0, 0.0))
    return Setup(run.grid or "", str(p["queueDisc"]), profiles, flows, int(p["nBestEffort"]),
                 capacity, total, out)


def setting_label(setting: Setting) -> str:
    """``(347.0, 694.0, 0.05)`` → ``"347/694/0.05"``."""
    low, high, p = setting
    return f"{low:g}/{high:g}/{p:g}"


def metric_value(metrics: dict | None, name: str) -> float | None:
    value = (metrics or {}).get(name)
    return float(value) if value is not None and math.isfinite(value) else None


def seed_estimate(by_seed: dict[int, dict], metric: str) -> Estimate:
    return t_interval(v for m in by_seed.values() if (v := metric_value(m, metric)) is not None)


def last_met(points: Sequence[tuple[float, float]], profile: float) -> float | None:
    """The largest x before the first point whose mean is below ``profile`` (x ascending).

    ``points`` are (x, mean); None when the first point already fails. Missing means
    (NaN) end the scan like a failure would not: they are skipped.
    """
    met = None
    for x, mean in sorted(points):
        if not math.isfinite(mean):
            continue
        if mean < profile:
            return met
        met = x
    return met


def above(a: Estimate, b: Estimate) -> bool:
    """``a`` above ``b`` beyond both 95 % intervals (by the means when one is unknown)."""
    if math.isfinite(a.half_width) and math.isfinite(b.half_width):
        return a.low > b.high
    return a.mean > b.mean


def level_label(value: float | None) -> str:
    return "never" if value is None else f"{100 * value:.0f} %"
