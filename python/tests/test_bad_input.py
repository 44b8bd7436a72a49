# SPDX-License-Identifier: GPL-2.0-only
"""Bad input, one row per input: the built programs must refuse it or warn about it, clearly.

Each row is (program, arguments, expected outcome, expected words):

- ``FAIL``: a non-zero exit that is neither a crash (SIGSEGV, SIGFPE, SIGBUS, SIGILL) nor a hang
  (the run has TIMEOUT seconds), with every expected word on its output: the message names the
  flag or attribute, the value and the range;
- ``PASS``: a GoogleTest case checking what no command line reaches passes;
- ``WARN``: the value is legal but suspicious. Exit 0, a metrics report with at least one
  non-zero metric (never rc 0 with empty metrics), and each expected word on standard error,
  once: the "qdisc-lab warning:" line.

Attribute rows reach a queue disc through ns-3's ``--ns3::Type::Attribute=value`` overrides of
cioq-switch-load, whose outputs take any queue disc (``--qdisc``) with its default attributes;
what no command line reaches (a C++ call with a port past the last) is a row running the
GoogleTest case that checks it. Rows run for every flavour whose build is there.
"""

import json
import os
import shlex
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from qdisclab.context import REPO
from qdisclab.toolchain.build import runtime_env

FAIL, WARN, PASS = "fail", "warn", "pass"
TIMEOUT = 60
CRASHES = {-signal.SIGSEGV, -signal.SIGFPE, -signal.SIGBUS, -signal.SIGILL}
GTEST = "bin/qdisc-lab-gtest"


@dataclass(frozen=True)
class Row:
    """One bad input: what runs, what must happen, what the output must say."""

    program: str
    args: tuple[str, ...]
    outcome: str
    words: tuple[str | tuple[str, ...], ...]  # a tuple: any one of its alternatives

    @property
    def id(self) -> str:
        return f"{self.program.split('/')[-1]} {' '.join(self.args)}"


def row(program: str, args: str, outcome: str, *words: str | tuple[str, ...]) -> Row:
    """A row; ``args`` split as a shell would."""
    return Row(program, tuple(shlex.split(args)), outcome, words)


LOAD, VDE = "cioq-switch-load", "vertical-dimensioning-evaluation"

# A short cioq-switch-load run: two hosts, one simulated second.
SHORT = "--ports=2 --duration=1"


def switch(qdisc: str, override: str, outcome: str, *words: str | tuple[str, ...]) -> Row:
    """A cioq-switch-load row with ``qdisc`` on the outputs and one attribute override."""
    return row(LOAD, f"{SHORT} --qdisc=ns3::{qdisc} --ns3::{override}", outcome,
               *words)


def invalid(qdisc: str, override: str) -> Row:
    """ns-3's CommandLine refuses a value the attribute's checker refuses, naming it; ns-3.44
    stops on an enum name it does not know, listing the known ones."""
    value = override.split("=", 1)[1]
    return switch(qdisc, override, FAIL, (f"Invalid command-line argument: --ns3::{override}",
                                          f"name {value} is not a valid enum value"))


def per_flow(name: str, quantum: str) -> list[Row]:
    """The attributes DRR, SRR and Aliquem share (PerFlowQueueDisc)."""
    disc = f"{name}QueueDisc"
    return [
        switch(disc, f"{disc}::Buckets=0", FAIL,
               f"{disc}: Buckets = 0 is out of range [1, 16777216]"),
        switch(disc, f"{disc}::DefaultWeight=0", FAIL,
               f"{disc}: DefaultWeight must be finite and > 0, got 0"),
        invalid(disc, f"{disc}::DropFrom=Middle"),
        invalid(disc, f"{disc}::Mask=Port"),
        switch(disc, f"{disc}::MaxSize=1000B", FAIL,
               f"{disc}: MaxSize = 1000B is smaller than one MTU (1500 B)"),
        switch(disc, f"{disc}::MaxSize=0p", FAIL,
               f"ns3::{disc}: MaxSize = 0p is out of range", "at least 1p"),
        invalid(disc, f"{disc}::Perturbation=-1"),
        switch(disc, f"{disc}::Quantum=0", FAIL, quantum),
        switch(disc, f"'{disc}::WeightRules=dport=80 weight=-2'", FAIL,
               f"{disc} WeightRules: rule 1"),
    ]


def rio(disc: str, prefix: str = "RioQueueDisc") -> list[Row]:
    """RIO's attributes, on RioQueueDisc or RiPlusOQueueDisc (which inherits them)."""
    p = f"{prefix}::"
    three = f"{p}Precedences=3 --ns3::{p}"  # the Mid* attributes need three precedences
    return [
        invalid(disc, f"{p}Averaging=Bogus"),
        invalid(disc, f"{p}Gentle=maybe"),
        switch(disc, f"{p}InDscps=AF99", FAIL, "InDscps = 'AF99': 'AF99' is not a DSCP"),
        switch(disc, f"{p}InMaxP=0", FAIL, "InMaxP = 0 is out of range (0, 1]"),
        switch(disc, f"{p}InMaxTh=50", FAIL, "InMaxTh = 50 must be finite and above InMinTh = 60"),
        switch(disc, f"{p}InMinTh=-1", FAIL, "InMinTh = -1 must be finite and >= 0"),
        switch(disc, f"{p}LinkBandwidth=0bps", FAIL, "LinkBandwidth = 0 bit/s must be > 0"),
        switch(disc, f"{p}MaxSize=0B", FAIL, f"ns3::{disc}: MaxSize = 0B is out of range"),
        switch(disc, f"{p}MeanPktSize=0", FAIL, "MeanPktSize must be >= 1 byte, got 0"),
        switch(disc, f"{p}Precedences=4", FAIL, "Precedences = 4 must be 2 or 3"
               if disc == "RioQueueDisc" else "RiPlusOQueueDisc: avg_out = avg_total - avg_in "
               "needs Precedences = 2 and Averaging = Coupled"),
        switch(disc, f"{p}QueueWeight=0", FAIL, "QueueWeight = 0 is out of range (0, 1]"),
        switch(disc, f"{p}TotalMaxP=1.5", FAIL, "TotalMaxP = 1.5 is out of range (0, 1]"),
        switch(disc, f"{p}TotalMaxTh=10", FAIL,
               "TotalMaxTh = 10 must be finite and above TotalMinTh = 30"),
        switch(disc, f"{p}TotalMinTh=-1", FAIL, "TotalMinTh = -1 must be finite and >= 0"),
        invalid(disc, f"{p}UseEcn=maybe"),
        invalid(disc, f"{p}UseHardDrop=maybe"),
        invalid(disc, f"{p}Wait=maybe"),
    ] + ([] if disc != "RioQueueDisc" else [
        switch(disc, f"{three}MidDscps=AF11", FAIL,
               "MidDscps = 'AF11': DSCP AF11 already has precedence 1"),
        switch(disc, f"{three}MidMaxP=2", FAIL, "MidMaxP = 2 is out of range (0, 1]"),
        switch(disc, f"{three}MidMaxTh=10", FAIL,
               "MidMaxTh = 10 must be finite and above MidMinTh = 45"),
        switch(disc, f"{three}MidMinTh=-1", FAIL, "MidMinTh = -1 must be finite and >= 0"),
    ])


DEVICE = "CioqSwitchNetDevice"

ROWS = [
    # --- The cases -------------------------------------------------------------------
    row(LOAD, "--lineRate=0bps", FAIL, "--lineRate=0bps must be > 0 bit/s"),
    row(LOAD, "--load=0", FAIL, "--load=0 is out of range (0, 100]"),
    row(LOAD, "--load=-1", FAIL, "--load=-1 is out of range (0, 100]"),
    row(LOAD, "--load=nan", FAIL, "Invalid command-line argument: --load=nan"),
    row(LOAD, "--payload=70000", FAIL, "--payload=70000 is out of range [0, 1472]"),
    row(LOAD, "--payload=-1", FAIL, "--payload=-1 is out of range [0, 1472]"),
    row(LOAD, "--ports=1", FAIL, "--ports=1 is out of range [2, 1024]"),
    row(LOAD, "--duration=0", FAIL, "--duration=0 must be finite and > 0 seconds"),
    row(LOAD, "--qdisc=ns3::Bogus", FAIL,
        "--qdisc = 'ns3::Bogus': no such TypeId (expected a ns3::QueueDisc)"),
    row(LOAD, "--qdisc=ns3::Node", FAIL, "--qdisc = 'ns3::Node' is not a ns3::QueueDisc"),
    row(LOAD, "--qdisc=ns3::PerFlowQueueDisc", FAIL,
        "--qdisc = 'ns3::PerFlowQueueDisc' has no constructor"),
    row(GTEST, "--gtest_filter=CioqSwitchBadInputDeathTest.PortsAndAttributesAreNamed", PASS,
        "[  PASSED  ] 1 test."),  # GetPortStats(past the last), FrameOverhead=100000, null disc
    *[row(VDE, f"--queueDisc={s} --weights=1e9,1 --simTime=3 "
          "--warmup=1", FAIL, "--weights: weight 1e+09 x --cbrRateUnit=125kbps = 1.25e+14 bit/s "
          "is out of range [1 bit/s, --accessRate=100Mbps]") for s in ("VD", "SRR", "Aliquem")],
    row(VDE, "--weights=1e-9,1", FAIL,
        "--weights: weight 1e-09 x --cbrRateUnit=125kbps = 0.000125 bit/s is out of range"),
    row(VDE, "--weights=1,x", FAIL, "--weights: 'x' is not a number > 0"),
    row(VDE, "--quantum=0", FAIL,
        "--quantum=0 is out of range [1, 65535]"),
    row(VDE, "--maxSize=0p", FAIL,
        "ns3::VerticalDimensioningQueueDisc: MaxSize = 0p is out of range"),
    row(VDE, "--queueDisc=DRR --maxSize=0B", FAIL,
        "ns3::DrrQueueDisc: MaxSize = 0B is out of range"),
    row(VDE, "--hops=-1", FAIL, "--hops=-1 is out of range [1, 84]"),
    row(VDE, "--coreRate=0bps", FAIL, "--coreRate=0bps must be > 0"),
    row("drr-evaluation", "--quantum=-1", FAIL, "--quantum=-1 is out of range [1, 4294967295]"),
    row("drr-evaluation", "--quantum=1.5", FAIL, "--quantum=1.5 is not an integer"),
    row("drr-evaluation", "--maxSize=0B", FAIL, "ns3::DrrQueueDisc: MaxSize = 0B is out of range"),
    row("drr-evaluation", "--nFlows=0", FAIL, "--nFlows=0 is out of range [1, 254]"),
    row("drr-evaluation", "--bottleneckRate=-1Mbps", FAIL,
        "--bottleneckRate=-1Mbps is not a rate"),
    row("rio-assured-service", "--queueLimit=0", FAIL,
        "--queueLimit=0 is out of range [1, 1000000]"),
    row("rio-assured-service", "--nBestEffort=-1", FAIL,
        "--nBestEffort=-1 is out of range [0, 254]"),
    row("cioq-red-evaluation", "--outputBuffer=-1", FAIL,
        "--outputBuffer=-1 is out of range [1, 1000000]"),
    row("cioq-red-evaluation", "--lineRate=0bps", FAIL, "--lineRate=0bps must be > 0 bit/s"),
    row("dscp-marking", "--packetSize=-1", FAIL, "--packetSize=-1 is out of range [12, 1472]"),
    row("dscp-marking", "--ns3::DscpMarkerQueueDisc::MaxSize=0p", FAIL,
        "ns3::DscpMarkerQueueDisc: MaxSize = 0p is out of range"),
    row("dumbbell-fifo-vs-red", "--queueLimit=-1", FAIL,
        "--queueLimit=-1 is out of range [1, 1000000]"),
    row("red-vs-droptail", "--queueSize=-1", FAIL,
        "--queueSize=-1 is out of range [1, 4294967295]"),
    row("red-vs-droptail", "--udpRate=0bps", FAIL, "--udpRate=0bps must be > 0 bit/s"),
    row("red-vs-droptail", "--sack=maybe", FAIL, "Invalid command-line argument: --sack=maybe"),
    # --- Legal but suspicious: rc 0, metrics, one warning ------------------------------------
    switch("CioqRedQueueDisc", "CioqRedQueueDisc::MaxTh=25", WARN,
           "qdisc-lab warning: ns3::CioqRedQueueDisc MaxTh=25 packets exceeds MaxSize=20p: the "
           "buffer overflows before the average reaches it; raise MaxSize or lower the "
           "thresholds"),
    row(LOAD, f"{SHORT} --qdisc=ns3::RioQueueDisc --ns3::RioQueueDisc::InMaxTh=900 "
        "--ns3::RioQueueDisc::MaxSize=500p", WARN,
        "qdisc-lab warning: ns3::RioQueueDisc InMaxTh=900 packets exceeds MaxSize=500p"),
    row(LOAD, f"{SHORT} --qdisc=ns3::RiPlusOQueueDisc "
        "--ns3::RioQueueDisc::MaxSize=25p", WARN,
        "qdisc-lab warning: ns3::RiPlusOQueueDisc InMinTh=60 packets exceeds MaxSize=25p: the "
        "buffer overflows before the average reaches it, RED never drops early",
        "qdisc-lab warning: ns3::RiPlusOQueueDisc OutMaxTh=30 packets exceeds MaxSize=25p"),
    row(LOAD, f"{SHORT} --queueing=Fifo --ns3::{DEVICE}::VoqMaxSize=5p", WARN,
        f"qdisc-lab warning: {DEVICE} VoqMaxSize=5p with InputQueueing=Fifo: there are no VOQs"),
    # --- One out-of-range value per attribute ------------------------------------------------
    *per_flow("Drr", "DrrQueueDisc: Quantum must be >= 1 byte, got 0"),
    *per_flow("Srr", "SrrQueueDisc: Quantum must be >= 1 byte"),
    *per_flow("Aliquem", "AliquemQueueDisc: Quantum must be >= 1 byte"),
    switch("AliquemQueueDisc", "AliquemQueueDisc::ScalingFactor=0", FAIL,
           "ScalingFactor = 0 is out of range [1, 1024]"),
    invalid("VerticalDimensioningQueueDisc",
            "VerticalDimensioningQueueDisc::BucketCounters=maybe"),
    switch("VerticalDimensioningQueueDisc", "VerticalDimensioningQueueDisc::Buckets=0", FAIL,
           "VerticalDimensioningQueueDisc: Buckets = 0 is out of range [1, 16777216]"),
    switch("VerticalDimensioningQueueDisc", "VerticalDimensioningQueueDisc::DefaultWeight=-1",
           FAIL, "DefaultWeight must be finite and > 0, got -1"),
    invalid("VerticalDimensioningQueueDisc", "VerticalDimensioningQueueDisc::Mask=Port"),
    switch("VerticalDimensioningQueueDisc", "VerticalDimensioningQueueDisc::MaxPacketSize=30000",
           FAIL, "MaxSize = 25000B is smaller than MaxPacketSize (L_M = 30000 B)"),
    switch("VerticalDimensioningQueueDisc", "VerticalDimensioningQueueDisc::MaxSize=0p", FAIL,
           "ns3::VerticalDimensioningQueueDisc: MaxSize = 0p is out of range"),
    invalid("VerticalDimensioningQueueDisc", "VerticalDimensioningQueueDisc::Perturbation=-1"),
    switch("VerticalDimensioningQueueDisc", "VerticalDimensioningQueueDisc::Rounds=99999999",
           FAIL, "Rounds = 99999999 is out of range: 0 (automatic) or 18 .. 16777216"),
    switch("VerticalDimensioningQueueDisc",
           "'VerticalDimensioningQueueDisc::WeightRules=dport=80 weight=0'", FAIL,
           "VerticalDimensioningQueueDisc WeightRules: rule 1"),
    *rio("RioQueueDisc"),
    *rio("RiPlusOQueueDisc"),
    switch("RiPlusOQueueDisc", "RiPlusOQueueDisc::OutMaxP=-0.1", FAIL,
           "OutMaxP = -0.1 is out of range (0, 1]"),
    switch("RiPlusOQueueDisc", "RiPlusOQueueDisc::OutMaxTh=5", FAIL,
           "RiPlusOQueueDisc: OutMaxTh = 5 must be finite and above OutMinTh = 10"),
    switch("RiPlusOQueueDisc", "RiPlusOQueueDisc::OutMinTh=-1", FAIL,
           "OutMinTh = -1 must be finite and >= 0"),
    invalid("CioqRedQueueDisc", "CioqRedQueueDisc::Gentle=maybe"),
    switch("CioqRedQueueDisc", "CioqRedQueueDisc::InputWeight=-0.5", FAIL,
           "InputWeight = -0.5 is out of range [0, inf)"),
    switch("CioqRedQueueDisc", "CioqRedQueueDisc::LInterm=0.5", FAIL,
           "LInterm = 0.5 is out of range [1, inf)"),
    switch("CioqRedQueueDisc", "CioqRedQueueDisc::LinkBandwidth=0bps", FAIL,
           "LinkBandwidth = 0 bit/s must be > 0"),
    switch("CioqRedQueueDisc", "CioqRedQueueDisc::MaxSize=0p", FAIL,
           "ns3::CioqRedQueueDisc: MaxSize = 0p is out of range"),
    switch("CioqRedQueueDisc", "CioqRedQueueDisc::MaxTh=4", FAIL,
           "MaxTh = 4 must be finite and above MinTh = 5"),
    switch("CioqRedQueueDisc", "CioqRedQueueDisc::MeanPktSize=0", FAIL,
           "MeanPktSize must be >= 1 byte, got 0"),
    switch("CioqRedQueueDisc", "CioqRedQueueDisc::MinTh=-1", FAIL,
           "MinTh = -1 must be finite and >= 0"),
    switch("CioqRedQueueDisc", "CioqRedQueueDisc::QW=0", FAIL, "QW = 0 is out of range (0, 1]"),
    invalid("CioqRedQueueDisc", "CioqRedQueueDisc::UseEcn=maybe"),
    invalid("CioqRedQueueDisc", "CioqRedQueueDisc::UseHardDrop=maybe"),
    invalid("CioqRedQueueDisc", "CioqRedQueueDisc::Wait=maybe"),
    switch("DscpMarkerQueueDisc", "DscpMarkerQueueDisc::AfClass=5", FAIL,
           "AfClass = 5 is out of range [1, 4]"),
    invalid("DscpMarkerQueueDisc", "DscpMarkerQueueDisc::ColorAware=maybe"),
    switch("DscpMarkerQueueDisc", "DscpMarkerQueueDisc::MaxSize=0B", FAIL,
           "ns3::DscpMarkerQueueDisc: MaxSize = 0B is out of range"),
    invalid("DscpMarkerQueueDisc", "DscpMarkerQueueDisc::MeterScope=Bogus"),
    switch("DscpMarkerQueueDisc", "'DscpMarkerQueueDisc::Profiles=dport=80 cir=0Mbps cbs=1500'",
           FAIL, "DscpMarkerQueueDisc Profiles: rule 1"),
    invalid("DscpMarkerQueueDisc", "DscpMarkerQueueDisc::Unmatched=Bogus"),
    invalid("FifoQueueDisc", f"{DEVICE}::FabricModel=Bogus"),
    invalid("FifoQueueDisc", f"{DEVICE}::Forwarding=Bogus"),
    switch("FifoQueueDisc", f"{DEVICE}::InputBufferSize=0p", FAIL,
           "InputBufferSize = 0p: the input buffer must hold at least 1 packet"),
    invalid("FifoQueueDisc", f"{DEVICE}::InputQueueing=Bogus"),
    invalid("FifoQueueDisc", f"{DEVICE}::IslipIterations=0"),
    switch("FifoQueueDisc", f"{DEVICE}::Mtu=0", FAIL,
           "CioqSwitchNetDevice: Mtu = 0 is out of range [68, 65535] bytes"),
    invalid("FifoQueueDisc", f"{DEVICE}::OutputFull=Bogus"),
    row(LOAD, "--speedup=0.5", FAIL, "Speedup = 0.5 is out of range [1, N]"),
    row(LOAD, "--fabric=Bogus", FAIL, "--fabric must be Paper or Islip, got 'Bogus'"),
    row(LOAD, "--queueing=Lifo", FAIL, "--queueing must be Voq or Fifo, got 'Lifo'"),
]


def flavours() -> list[str]:
    return [f for f in ("system", "wheel") if (REPO / "build" / f / GTEST).is_file()]


def binary(flavour: str, program: str) -> Path:
    build = REPO / "build" / flavour
    return build / program if "/" in program else build / "examples" / program


def run(path: Path, r: Row, env: dict[str, str] | None = None) -> tuple[str, str]:
    """Run a row; return (verdict, detail): verdict "clean" if it behaved as the row expects."""
    try:
        result = subprocess.run([str(path), *r.args], capture_output=True, text=True,
                                timeout=TIMEOUT, env=env)
    except subprocess.TimeoutExpired:
        return "hang", f"no end within {TIMEOUT} s"
    out = result.stdout + result.stderr
    if result.returncode in CRASHES:
        return "crash", f"signal {-result.returncode}: {out[-500:]}"
    missing = [w for w in r.words
               if not any(a in out for a in (w if isinstance(w, tuple) else (w,)))]
    if r.outcome == FAIL:
        if result.returncode == 0:
            return "rc 0", out[-500:]
    else:
        if result.returncode != 0:
            return f"rc {result.returncode}", out[-500:]
        twice = [w for w in r.words if isinstance(w, str) and "warning" in w
                 and result.stderr.count(w) != 1]
        if twice:
            return "not once", result.stderr[-500:]
        if path.parent.name == "examples":
            metrics = json.loads(result.stdout)["metrics"]
            if not any(v for v in metrics.values()):
                return "empty metrics", result.stdout[-500:]
    if missing:
        return "unclear", f"missing {missing} in: {out[-700:]}"
    return "clean", ""


@pytest.mark.parametrize("flavour", flavours() or [pytest.param("system", marks=pytest.mark.skip(
    reason="no build (qdisc-lab build)"))])
@pytest.mark.parametrize("r", ROWS, ids=[r.id for r in ROWS])
def test_bad_input(flavour: str, r: Row):
    verdict, detail = run(binary(flavour, r.program), r, {**os.environ, **runtime_env(flavour)})
    assert verdict == "clean", detail


def test_one_row_per_input():
    ids = [r.id for r in ROWS]
    assert len(ids) == len(set(ids))
