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
    env: tuple[tuple[str, str], ...] = ()  # environment variables set for the run

    @property
    def id(self) -> str:
        env = "".join(f"{name}={value!r} " for name, value in self.env)
        return f"{env}{self.program.split('/')[-1]} {' '.join(self.args)}"


def row(program: str, args: str, outcome: str, *words: str | tuple[str, ...]) -> Row:
    """A row; ``args`` split as a shell would."""
    return Row(program, tuple(shlex.split(args)), outcome, words)


def attribute_default(value: str, program: str, args: str, outcome: str,
                      *words: str | tuple[str, ...]) -> Row:
    """A row run with ``NS_ATTRIBUTE_DEFAULT=value``."""
    return Row(program, tuple(shlex.split(args)), outcome, words,
               (("NS_ATTRIBUTE_DEFAULT", value),))


LOAD, VDE = "cioq-switch-load", "vertical-dimensioning-evaluation"

# A short cioq-switch-load run: two hosts, one simulated second.
SHORT = "--ports=2 --duration=1"


def switch(qdisc: str, override: str, outcome: str, *words: str | tuple[str, ...]) -> Row:
    """A cioq-switch-load row with ``qdisc`` on the outputs and one attribute override."""
    return row(LOAD, f"{SHORT} --qdisc=ns3::{qdisc} --ns3::{override}", outcome,
               *words)


def invalid(qdisc: str, override: str) -> Row:
    """ns-3's CommandLine refuses a value the attribute's checker refuses, naming it; ns-3.44
    stops on an enum name it does not know, listing the known ones; a number or boolean that is
    not one is refused before, by the wrapper, naming the attribute."""
    name, value = override.split("=", 1)
    return switch(qdisc, override, FAIL, (f"Invalid command-line argument: --ns3::{override}",
                                          f"name {value} is not a valid enum value",
                                          f"--ns3::{override}: ns3::{name} = '{value}' is not"))


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
RED, DRR, RIO, CRED, DSCP, DUMB = ("red-vs-droptail", "drr-evaluation", "rio-assured-service",
                                   "cioq-red-evaluation", "dscp-marking", "dumbbell-fifo-vs-red")
#: ns-3's largest RngRun the reports hold (an int64), and the range of RngSeed.
RUN_RANGE, SEED_RANGE = "[0, 9223372036854775807]", "[1, 4294967295]"

#: Issue 28, values read whole: ns-3's parsers stop at the first character they do not know
#: and keep what came before; every value here is refused, naming the flag or attribute.
VALUES = [
    row(RED, "--simTime=4ms", FAIL, "--simTime=4ms is not a number"),
    row(RED, "--udpOn=3abc", FAIL, "--udpOn=3abc is not a number"),
    row(DRR, "--bottleneckDelay=1-2ms", FAIL, "--bottleneckDelay=1-2ms is not a time (e.g."),
    row(DRR, "--bottleneckDelay=5e", FAIL, "--bottleneckDelay=5e is not a time"),
    row(DRR, "--bottleneckRate=1.2.3Mbps", FAIL, "--bottleneckRate=1.2.3Mbps is not a rate"),
    row(DSCP, "--simTime=0x10", FAIL, "--simTime=0x10 is not a number"),
    row(DUMB, "--RngRun=-1", FAIL, f"--RngRun=-1 is not an integer in {RUN_RANGE}"),
    row(RIO, "--traceFlow=1.9", FAIL, "--traceFlow=1.9 is not an integer in"),
    row(VDE, "'--weights=1, 2'", FAIL, "--weights: ' 2' is not a number > 0"),
    row(DRR, "--quick stray", FAIL, "unexpected argument 'stray'", "--name=value"),
    # more of the family
    row(DUMB, "--RngRun=1.5", FAIL, f"--RngRun=1.5 is not an integer in {RUN_RANGE}"),
    row(DUMB, "--RngRun=9223372036854775808", FAIL, "--RngRun=9223372036854775808 is not an"),
    row(DUMB, "--RngSeed=0", FAIL, f"--RngSeed=0 is not an integer in {SEED_RANGE}"),
    row(DUMB, "--RngSeed=4294967296", FAIL, f"--RngSeed=4294967296 is not an integer in"),
    row(CRED, "--sack=2", FAIL, "--sack=2 is not a boolean (true, false, 1 or 0)"),
    row(RED, "--quick=yes", FAIL, "--quick=yes is not a boolean"),
    row(LOAD, "--speedup=1.4x", FAIL, "--speedup=1.4x is not a number"),
    row(RED, "--simTime=1e999", FAIL, "--simTime=1e999 is not a finite number"),
    row(RED, "'--warmup= 1'", FAIL, "--warmup= 1 is not a number"),
    row(CRED, "--linkDelay=1ms2", FAIL, "--linkDelay=1ms2 is not a time"),
    row(RIO, "'--bottleneckDelay=48 ms'", FAIL, "--bottleneckDelay=48 ms is not a time"),
    row(LOAD, "--lineRate=1..5Mbps", FAIL, "--lineRate=1..5Mbps is not a rate"),
    row(VDE, "--weights=0x10", FAIL, "--weights: '0x10' is not a number > 0"),
    row(RIO, "--profiles=1,0x2", FAIL, "--profiles: '0x2' is not a positive rate in Mb/s"),
    row(CRED, "--inputBuffer=10", FAIL, "--inputBuffer=10 is not a queue size (e.g. 100p"),
    row(CRED, "--voqLimit=20pp", FAIL, "--voqLimit=20pp is not a queue size"),
    row(DRR, "--quick --nFlows=0x10", FAIL, "--nFlows=0x10 is not an integer"),
    switch("DrrQueueDisc", "DrrQueueDisc::Quantum=15x0", FAIL,
           "--ns3::DrrQueueDisc::Quantum=15x0: ns3::DrrQueueDisc::Quantum = '15x0' is not an "
           "integer in [0, 9223372036854775807]"),
    switch("CioqRedQueueDisc", "CioqRedQueueDisc::QW=0.5x", FAIL,
           "ns3::CioqRedQueueDisc::QW = '0.5x' is not a number"),
    switch("RioQueueDisc", "RioQueueDisc::LinkBandwidth=1.2.3Mbps", FAIL,
           "ns3::RioQueueDisc::LinkBandwidth = '1.2.3Mbps' is not a rate"),
    switch("FifoQueueDisc", "TcpSocketBase::MinRto=1-2ms", FAIL,
           "ns3::TcpSocketBase::MinRto = '1-2ms' is not a time"),
    switch("DscpMarkerQueueDisc", "'DscpMarkerQueueDisc::Profiles=dport=80 cir=1..5Mbps cbs=1500'",
           FAIL, "DscpMarkerQueueDisc Profiles: rule 1", "'cir=1..5Mbps'"),
    switch("DrrQueueDisc", "'DrrQueueDisc::WeightRules=dport=80 weight=0x10'", FAIL,
           "DrrQueueDisc WeightRules: rule 1", "'weight=0x10'"),
    attribute_default("ns3::DrrQueueDisc::Quantum=15x0", LOAD,
                      f"{SHORT} --qdisc=ns3::DrrQueueDisc", FAIL,
                      "NS_ATTRIBUTE_DEFAULT='ns3::DrrQueueDisc::Quantum=15x0': "
                      "ns3::DrrQueueDisc::Quantum = '15x0' is not an integer"),
]

#: Issue 28, arithmetic: nothing wraps, overflows, divides by zero or rounds a gap to zero.
ARITHMETIC = [
    row(VDE, "--maxSize=5000000000B", FAIL,
        "--maxSize=5000000000B is not a queue size", "[0, 4294967295]"),
    row(DRR, "--maxSize=4294967296p", FAIL, "--maxSize=4294967296p is not a queue size"),
    switch("DrrQueueDisc", "DrrQueueDisc::MaxSize=5000000000B", FAIL,
           "ns3::DrrQueueDisc::MaxSize = '5000000000B' is not a queue size"),
    switch("DrrQueueDisc", "DrrQueueDisc::DefaultWeight=1e308", FAIL,
           "DrrQueueDisc: Quantum x weight = 250 B x 1e+308 = inf B is out of range "
           "[1, 4294967295] B"),
    switch("DrrQueueDisc", "DrrQueueDisc::Quantum=1 --ns3::DrrQueueDisc::DefaultWeight=4294967296",
           FAIL, "DrrQueueDisc: Quantum x weight = 1 B x 4.29497e+09"),
    switch("AliquemQueueDisc", "AliquemQueueDisc::DefaultWeight=1e308", FAIL,
           "AliquemQueueDisc: Quantum x weight / ScalingFactor = 1000 B x 1e+308"),
    switch("AliquemQueueDisc", "AliquemQueueDisc::Quantum=1 --ns3::AliquemQueueDisc::"
           "ScalingFactor=1 --ns3::AliquemQueueDisc::DefaultWeight=4294967296", FAIL,
           "is out of range [1, 4294967295] B"),
    switch("VerticalDimensioningQueueDisc",
           "'VerticalDimensioningQueueDisc::WeightRules=dport=80 weight=1e-300'", FAIL,
           "VerticalDimensioningQueueDisc: weight 1e-300 x MaxPacketSize",
           "rounds to a quantum of 0 B"),
    switch("VerticalDimensioningQueueDisc", "VerticalDimensioningQueueDisc::DefaultWeight=1e-4",
           FAIL, "weight 0.0001 x MaxPacketSize 1500 B = 0.15 B rounds to a quantum of 0 B"),
    row(DRR, "--onRate=10000000000000000000bps", FAIL,
        "10000000000000000000 bit/s takes less than the time resolution"),
    row(LOAD, "--lineRate=10000000000000000000bps", FAIL,
        "--lineRate=10000000000000000000bps: a 1002-byte frame takes less than the time "
        "resolution"),
    row(LOAD, "--lineRate=18446744073709551616bps", FAIL,
        "--lineRate=18446744073709551616bps is not a rate", "18446744073709551615 bit/s]"),
    row(LOAD, "--load=1e-300", FAIL, "--load=1e-300: one datagram per host every"),
    row(LOAD, "--load=1e-10", FAIL, "--load=1e-10: one datagram per host every 8.016e+07 s",
        "raise --load or --duration"),
    row(LOAD, "--duration=1e-300", FAIL,
        "--duration=1e-300: its tenth (the warmup) is below the time resolution"),
    row(LOAD, "--duration=1e10", FAIL, "--duration=1e10 is out of range [0, 1e+09] seconds"),
    row(RED, "--queueDisc=RED --meanPktSize=0", FAIL, "--meanPktSize=0 is out of range [1, 65535]"),
    row(RED, "--queueDisc=RED --ns3::RedQueueDisc::MeanPktSize=0", FAIL,
        "--meanPktSize=0 is out of range [1, 65535]"),
    row(RED, "--simTime=1e300", FAIL, "--simTime=1e300 is out of range [0, 1e+09] seconds"),
    row(VDE, "--paretoShape=1.0000001", FAIL,
        "shape 1.0000001 with mean 0.5 s makes the shortest period",
        "shorter than 1e-06 s: raise the shape or the mean"),
    row(CRED, "--minRto=1e300", FAIL, "--minRto=1e300 is out of range [0, 1e+09] seconds"),
    row(RIO, "--minRto=1e300", FAIL, "--minRto=1e300 is not a time", "+9.22337e+09s]"),
    row(RIO, "--profiles=1e308", FAIL, "--profiles: '1e308' is not a positive rate in Mb/s"),
    row(RIO, "--profiles=1e-7", FAIL, "--profiles: '1e-7' is not a positive rate in Mb/s"),
    row(VDE, "--queueDisc=DRR --maxSize=4294967296p", FAIL,
        "--maxSize=4294967296p is not a queue size"),
    row(DRR, "--quick --accessDelay=1e300s", FAIL, "--accessDelay=1e300s is not a time"),
]

#: Issue 28, TypeIds, files and state: base types checked up front, every output checked.
TYPES_FILES_STATE = [
    row(CRED, "--tcp=ns3::Node", FAIL, "--tcp = 'ns3::Node' is not a ns3::TcpCongestionOps"),
    row(VDE, "--reference=tcp --tcp=Node", FAIL,
        "--tcp = 'ns3::Node' is not a ns3::TcpCongestionOps"),
    row(LOAD, "--qdisc=ns3::MqQueueDisc", FAIL,
        "--qdisc = 'ns3::MqQueueDisc' needs a multi-queue device"),
    row(CRED, "--tcp=Bogus", FAIL, "--tcp = 'ns3::TcpBogus': no such TypeId"),
    row(VDE, "--reference=tcp --tcp=TcpSocketBase", FAIL,
        "--tcp = 'ns3::TcpSocketBase' is not a ns3::TcpCongestionOps"),
    row(DUMB, "--quick --ns3::TcpL4Protocol::SocketType=ns3::Node", FAIL,
        "--ns3::TcpL4Protocol::SocketType=ns3::Node: ns3::TcpL4Protocol::SocketType = "
        "'ns3::Node' is not a ns3::TcpCongestionOps"),
    row(RED, "--ns3::TcpL4Protocol::RecoveryType=ns3::TcpNewReno", FAIL,
        "ns3::TcpL4Protocol::RecoveryType = 'ns3::TcpNewReno' is not a ns3::TcpRecoveryOps"),
    row(LOAD, f"{SHORT} --ns3::TcpL4Protocol::SocketType=ns3::Bogus", FAIL,
        ("ns3::TcpL4Protocol::SocketType = 'ns3::Bogus': no such TypeId",
         "Invalid command-line argument: --ns3::TcpL4Protocol::SocketType=ns3::Bogus")),
    row(LOAD, f"{SHORT} --output=/dev/full", FAIL,
        "MetricsReport: writing the metrics file '/dev/full' failed"),
    row(DSCP, "--quick --simTime=1 --output=/dev/full", FAIL,
        "writing the metrics file '/dev/full' failed"),
    row(DRR, "--quick --flowMonitor=/nonexistent/dir/x.xml", FAIL,
        "--flowMonitor=/nonexistent/dir/x.xml: no directory"),
    row(LOAD, f"{SHORT} --output=/nonexistent/x.json", FAIL,
        "--output=/nonexistent/x.json: no directory"),
    row(LOAD, f"{SHORT} --output=/tmp", FAIL, "--output=/tmp is a directory, not a file"),
    row(LOAD, f"{SHORT} --output=same.json --flowMonitor=same.json", FAIL,
        ("--flowMonitor=same.json and --output name one file",
         "--output=same.json and --flowMonitor name one file")),
    row(LOAD, f"{SHORT} --output=/tmp/x.json --flowMonitor=/tmp/../tmp/x.json", FAIL,
        "name one file"),
    row(DUMB, "--quick --queueTrace=q.csv --output=q.csv", FAIL, "name one file"),
    row(DUMB, "--quick --queueTrace=/dev/full", FAIL,
        "BottleneckMonitor: writing the queue trace failed"),
    row(RIO, "--quick --traceFlow=0 --traceFile=/dev/full", FAIL,
        "--traceFile: writing the trace failed"),
    attribute_default("DrrQueueDisc::Bogus=1", LOAD, SHORT, FAIL,
                      "NS_ATTRIBUTE_DEFAULT='DrrQueueDisc::Bogus=1': there is no attribute "
                      "ns3::DrrQueueDisc::Bogus"),
    attribute_default("ns3::Bogus::Quantum=1", LOAD, SHORT, FAIL,
                      "there is no attribute ns3::Bogus::Quantum"),
    # Taken without "ns3::", as the command line takes it: Quantum=0 then reaches DRR's check.
    attribute_default("DrrQueueDisc::Quantum=0", LOAD, f"{SHORT} --qdisc=ns3::DrrQueueDisc", FAIL,
                      "DrrQueueDisc: Quantum must be >= 1 byte, got 0"),
    attribute_default("DrrQueueDisc::MaxSize=9000B", DRR, "--quick", FAIL,
                      "sets ns3::DrrQueueDisc::MaxSize itself"),
]

ROWS = [
    # --- The cases -------------------------------------------------------------------
    row(LOAD, "--lineRate=0bps", FAIL, "--lineRate=0bps must be > 0 bit/s"),
    row(LOAD, "--load=0", FAIL, "--load=0 is out of range (0, 100]"),
    row(LOAD, "--load=-1", FAIL, "--load=-1 is out of range (0, 100]"),
    row(LOAD, "--load=nan", FAIL, "--load=nan is not a number"),
    row(LOAD, "--payload=70000", FAIL, "--payload=70000 is out of range [0, 1472]"),
    row(LOAD, "--payload=-1", FAIL, "--payload=-1 is out of range [0, 1472]"),
    row(LOAD, "--ports=1", FAIL, "--ports=1 is out of range [2, 1024]"),
    row(LOAD, "--duration=0", FAIL, "--duration=0 must be finite and in (0, 1e9) seconds"),
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
    row("red-vs-droptail", "--sack=maybe", FAIL, "--sack=maybe is not a boolean"),
    *VALUES, *ARITHMETIC, *TYPES_FILES_STATE,
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
    env = {**(env or os.environ), **dict(r.env)}
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


#: Every example program (each reports its RngRun and RngSeed).
PROGRAMS = (LOAD, VDE, RED, DRR, RIO, CRED, DSCP, DUMB)


def built(flavour: str, program: str) -> Path:
    path = binary(flavour, program)
    if not path.is_file():
        pytest.skip(f"{path} not built (qdisc-lab build)")
    return path


@pytest.mark.parametrize("program", PROGRAMS)
def test_schema_records_the_run_number_and_the_seed(program: str):
    schema = json.loads(subprocess.run([str(built("system", program)), "--schema"],
                                       capture_output=True, text=True, check=True,
                                       timeout=TIMEOUT).stdout)
    params = {p["name"]: p for p in schema["params"]}
    assert (params["RngRun"]["recorded"], params["RngSeed"]["recorded"]) == ("always", "always")
    assert (params["RngRun"]["default"], params["RngSeed"]["default"]) == (1, 1)


def test_equal_runs_give_byte_equal_reports(tmp_path):
    """cioq-switch-load's wall and CPU figures are run measurements, apart from the metrics;
    everything else of two runs with one RngRun (their packet-hops too) is the same."""
    path = built("system", LOAD)
    texts = []
    for k in range(2):
        out = tmp_path / f"{k}.json"
        subprocess.run([str(path), *SHORT.split(), "--RngRun=3", "--RngSeed=7",
                        f"--output={out}"], check=True, timeout=TIMEOUT, capture_output=True)
        texts.append(out.read_text())
    docs = [json.loads(t) for t in texts]
    assert set(docs[0]["run_measurements"]) == {"wall_s", "cpu_s", "datagrams_per_wall_s",
                                                "datagrams_per_cpu_s", "packet_hops"}
    # The packet-hops are the simulation's, the same in both runs; the speed figures are not.
    assert docs[0]["run_measurements"]["packet_hops"] == docs[1]["run_measurements"]["packet_hops"]
    assert not set(docs[0]["metrics"]) & set(docs[0]["run_measurements"])
    assert (docs[0]["params"]["RngRun"], docs[0]["params"]["RngSeed"]) == (3, 7)
    assert docs[0]["metrics"]["datagrams"] > 0
    strip = [t[:t.index(', "run_measurements"')] for t in texts]
    assert strip[0] == strip[1]


def test_attribute_default_without_ns3_prefix_sets_the_parameter(tmp_path):
    """NS_ATTRIBUTE_DEFAULT='DrrQueueDisc::Quantum=1000' is taken as the command line takes
    --DrrQueueDisc::Quantum=1000: as --quantum=1000, recorded so."""
    path = built("system", DRR)
    out = tmp_path / "drr.json"
    subprocess.run([str(path), "--quick", "--simTime=5", "--warmup=1", f"--output={out}"],
                   check=True, timeout=TIMEOUT, capture_output=True,
                   env={**os.environ, **runtime_env("system"),
                        "NS_ATTRIBUTE_DEFAULT": "DrrQueueDisc::Quantum=1000"})
    assert json.loads(out.read_text())["params"]["quantum"] == 1000


def test_rows_per_family():
    """The issue's families each have their rows (counted in the issue's note)."""
    assert (len(VALUES), len(ARITHMETIC), len(TYPES_FILES_STATE)) == (34, 26, 22)
