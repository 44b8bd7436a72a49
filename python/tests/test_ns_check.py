# SPDX-License-Identifier: GPL-2.0-only
"""``qdisclab.ns.check``: configuration errors that would stop ns-3 (and the Python interpreter
with it) raise ``ConfigError`` naming what is wrong, and the interpreter goes on; a valid
configuration passes and then runs. One ``qdisc-lab python`` run on build/wheel (importing ns-3
takes 15-45 s), skipped when build/wheel is not built.
"""

import json
import os
import subprocess
import sys

import pytest

from qdisclab import ns
from qdisclab.context import PYTHON_DIR, REPO
from qdisclab.toolchain.build import build_dir

EXAMPLE = REPO / "examples" / "python" / "weighted-drr.py"

needs_wheel_build = pytest.mark.skipif(
    not (build_dir("wheel") / ns.LIBRARY).is_file(),
    reason="build/wheel not built (qdisc-lab build --ns3 wheel)",
)

# Each case: a TypeId name and attributes (a str is a StringValue's text; [type, text] is
# ns.<type>(text) built in the session); the session prints, per case, the ConfigError's
# message or null, then runs a valid DRR and prints what it dequeued.
CASES = {
    "typeid": ["ns3::DrrQueueDisk", {}],
    "attribute": ["ns3::DrrQueueDisc", {"Quantm": ["UintegerValue", 1500]}],
    "value text": ["ns3::DrrQueueDisc", {"Quantum": "15x00"}],
    "value range": ["ns3::DrrQueueDisc", {"Quantum": ["UintegerValue", 99999999999]}],
    "enum": ["ns3::DrrQueueDisc", {"DropFrom": "Middle"}],
    "rate": ["ns3::RioQueueDisc", {"LinkBandwidth": "10Mbs"}],
    "weight rules": ["ns3::DrrQueueDisc",
                     {"WeightRules": "dport=5000 weight=1; dprt=5001 weight=2"}],
    "weight": ["ns3::DrrQueueDisc", {"WeightRules": ["StringValue", "dport=5000 weight=0"]}],
    "profiles": ["ns3::DscpMarkerQueueDisc", {"Profiles": "cir=2Mbps"}],
    "max size": ["ns3::DrrQueueDisc", {"MaxSize": "0p"}],
    "check config": ["ns3::DrrQueueDisc", {"Quantum": ["UintegerValue", 0]}],
    "two attributes": ["ns3::DrrQueueDisc", {"Quantum": "4000000000",
                                              "WeightRules": "dport=5000 weight=2"}],
    "valid": ["ns3::DrrQueueDisc", {"Quantum": ["UintegerValue", 1500], "Buckets": "64",
                                    "WeightRules": "dport=5000 weight=2", "DropFrom": "Tail"}],
    "valid ns-3": ["ns3::FqCoDelQueueDisc", {"MaxSize": "100p", "Interval": "50ms"}],
}

SESSION = """
import json, sys
from qdisclab.ns import ConfigError, check, ns

def value(spec):
    return spec if isinstance(spec, str) else getattr(ns, spec[0])(spec[1])

results = {}
for case, (type_name, attributes) in json.loads(sys.argv[1]).items():
    try:
        check(type_name, **{name: value(v) for name, v in attributes.items()})
        results[case] = None
    except ConfigError as error:
        results[case] = str(error)
print(json.dumps(results), flush=True)

# Every queue disc of the module passes with its defaults (the probe finds no false error).
defaults = {}
for i in range(ns.TypeId.GetRegisteredN()):
    tid = ns.TypeId.GetRegistered(i)
    if (tid.GetGroupName() == "QdiscLab" and tid.IsChildOf(ns.QueueDisc.GetTypeId())
            and tid.HasConstructor()):
        try:
            check(str(tid.GetName()))
            defaults[str(tid.GetName())] = None
        except ConfigError as error:
            defaults[str(tid.GetName())] = str(error)
print(json.dumps(defaults), flush=True)

# The interpreter lives on, and ns-3 with it: a DRR configured as checked works.
drr = ns.CreateObject[ns.DrrQueueDisc]()
drr.SetAttribute("WeightRules", ns.StringValue("dport=5000 weight=2"))
drr.Initialize()
print(json.dumps({"n_internal_queues": drr.GetNInternalQueues()}), flush=True)

# The weighted-DRR example refuses a weight DRR refuses, as an argparse error.
import contextlib, io, runpy
example = sys.argv[2]
for weights in ("1,0,3", "1,x,3"):
    sys.argv, err = [example, "--weights", weights], io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            runpy.run_path(sys.argv[0], run_name="__main__")
        code = 0
    except SystemExit as stop:
        code = stop.code
    print(json.dumps({"code": code, "stderr": err.getvalue().splitlines()[-1]}), flush=True)
"""


@pytest.fixture(scope="module")
def session() -> list[dict]:
    env = {**os.environ, "PYTHONPATH": str(PYTHON_DIR)}
    env.pop(ns.BUILD_ENV, None)
    result = subprocess.run(
        [sys.executable, "-m", "qdisclab", "python", "-c", SESSION, json.dumps(CASES),
         str(EXAMPLE)],
        env=env, cwd=REPO, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    # The probe's children print nothing on the parent's streams (no backtrace).
    assert "Break" not in result.stderr and "msg=" not in result.stderr, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


@needs_wheel_build
@pytest.mark.parametrize("case, message", [
    ("typeid", "'ns3::DrrQueueDisk': no such TypeId (did you mean ns3::DrrQueueDisc"),
    ("attribute", "ns3::DrrQueueDisc has no attribute 'Quantm' (its attributes: MaxSize, "),
    ("value text", "ns3::DrrQueueDisc Quantum = '15x00' is not an integer"),
    ("value range", "ns3::DrrQueueDisc Quantum = '99999999999': not a valid value (expected "
                    "uint32_t 0:4294967295)"),
    ("enum", "ns3::DrrQueueDisc DropFrom = 'Middle' is not one of Head|Tail|Last"),
    ("rate", "ns3::RioQueueDisc LinkBandwidth = '10Mbs' is not a rate"),
    ("weight rules", "DrrQueueDisc WeightRules: rule 2 (' dprt=5001 weight=2'), field "
                     "'dprt=5001': expected key src, dst, sport, dport, proto, dscp or weight"),
    ("weight", "DrrQueueDisc WeightRules: rule 1 ('dport=5000 weight=0'), field 'weight=0': "
               "expected a finite weight > 0"),
    ("profiles", "DscpMarkerQueueDisc Profiles: rule 1 ('cir=2Mbps'), field 'cbs'"),
    ("max size", "ns3::DrrQueueDisc: MaxSize = 0p is out of range"),
    ("check config", "DrrQueueDisc: Quantum must be >= 1 byte, got 0"),
    ("two attributes", "DrrQueueDisc: Quantum x weight = 4000000000 B x 2 = 8e+09 B is out of "
                       "range [1, 4294967295] B"),
])  # fmt: skip
def test_a_configuration_error_is_an_exception_naming_what_is_wrong(session, case, message):
    assert session[0][case] is not None, case
    assert session[0][case].startswith(message), session[0][case]


@needs_wheel_build
def test_a_valid_configuration_passes_and_the_interpreter_lives_on(session):
    assert session[0]["valid"] is None
    assert session[0]["valid ns-3"] is None
    assert {"ns3::DrrQueueDisc", "ns3::RioQueueDisc", "ns3::DscpMarkerQueueDisc"} <= set(session[1])
    assert session[1] == {name: None for name in session[1]}
    assert session[2] == {"n_internal_queues": 1}


def test_the_probe_reads_ns3s_fatal_messages():
    fatal = 'msg="DrrQueueDisc: Quantum must be >= 1 byte, got 0", +0.000000000s -1 file=x.cc'
    aborted = 'aborted. cond="!(ok)", msg="ns3::X: MaxSize = 0p is out of range", file=y.cc, l'
    assert ns._FATAL_MESSAGE.search(fatal)[1] == "DrrQueueDisc: Quantum must be >= 1 byte, got 0"
    assert ns._FATAL_MESSAGE.search(aborted)[1] == "ns3::X: MaxSize = 0p is out of range"
    assert ns.describe_status(6) == "signal SIGABRT"
    assert ns.describe_status(256) == "exit status 1"


@needs_wheel_build
def test_the_weighted_drr_example_refuses_a_bad_weight_as_an_argument_error(session):
    assert session[3] == {
        "code": 2,
        "stderr": "weighted-drr.py: error: --weights 1,0,3: DrrQueueDisc WeightRules: rule 2 "
                  "(' dport=5001 weight=0.0'), field 'weight=0.0': expected a finite weight > 0",
    }  # fmt: skip
    assert session[4] == {
        "code": 2,
        "stderr": "weighted-drr.py: error: --weights '1,x,3': expected numbers separated by "
                  "commas",
    }  # fmt: skip
