# SPDX-License-Identifier: GPL-2.0-only
"""The reason stored for a failed run is the line that says what went wrong.

``data/ns3-errors`` holds the standard error of the built examples, captured as
they fail on Debian's ns-3.37 (``ns3.37-*``) and on the ns-3.44 wheel
(``ns3.44-*``): an unknown argument (ns-3's CommandLine prints it, then its whole
help text), an ``NS_ABORT_MSG`` of an example, an ``NS_FATAL_ERROR`` of an example
and of a helper (with its time prefix), and an attribute value ns-3 itself rejects.
"""

from pathlib import Path

import pytest

from built_examples import example, needs_build
from qdisclab.campaign import runner
from qdisclab.campaign.engine import sweep
from qdisclab.campaign.spec import loads_campaign
from qdisclab.campaign.store import ResultStore
from test_campaign_reliability import quiet
from test_campaign_sweep import write_fake_program

CAPTURED = Path(__file__).parent / "data" / "ns3-errors"

BOGUS = "Invalid command-line argument: --bogusParam=3"
NFLOWS = ('aborted. cond="!(nFlows >= 1 && nFlows <= 254)", msg="--nFlows must be in [1, 254]",'
          " file=../../examples/drr-evaluation.cc, line=281")
VD = ('msg="--queueDisc=Nope is not a known scheduler; known: VD DRR DRR-tail SRR Aliquem FIFO",'
      " file=../../examples/vertical-dimensioning-evaluation.cc, line=141")
ATTRIBUTE = 'aborted. cond="!(iss.eof())", msg="Attribute value "abc" is not properly formatted", '


@pytest.mark.parametrize(
    ("capture", "line"),
    [
        ("ns3.37-drr-evaluation-bogus-param", BOGUS),
        ("ns3.44-drr-evaluation-bogus-param", BOGUS),
        ("ns3.37-drr-evaluation-abort-msg", NFLOWS),
        ("ns3.44-drr-evaluation-abort-msg", NFLOWS),
        ("ns3.37-vertical-dimensioning-evaluation-fatal-error", VD),
        ("ns3.44-vertical-dimensioning-evaluation-fatal-error", VD),
        ("ns3.37-drr-evaluation-attribute-value",
         ATTRIBUTE + "file=./ns-3.37/src/core/model/uinteger.cc, line=37"),
        ("ns3.44-drr-evaluation-attribute-value",
         ATTRIBUTE + "file=/gcl-builds/src/core/model/uinteger.cc, line=26"),
        ("ns3.37-drr-evaluation-metrics-file",
         "msg=\"MetricsReport: cannot write the metrics file '/nonexistent/dir/x.json'\","
         " +70.000000000s -1 file=../../helper/metrics-report.cc, line=189"),
    ],
)
def test_error_line_of_real_ns3_failures(capture, line):
    stderr = (CAPTURED / f"{capture}.stderr").read_text()
    assert runner.error_line(stderr) == line
    # From standard output as well, when standard error says nothing.
    assert runner.error_line("", stderr) == line


def test_the_help_text_is_not_the_error():
    stderr = (CAPTURED / "ns3.37-drr-evaluation-bogus-param.stderr").read_text()
    last = stderr.strip().splitlines()[-1].strip()
    assert last == "--PrintHelp:                 Print this help message."
    # A help text longer than the kept tail: the head still has the error.
    assert runner.error_line(stderr[:200] + "\n" + stderr[-1000:]) == BOGUS


@pytest.mark.parametrize(
    ("text", "line"),
    [
        # An uncaught C++ exception.
        ("terminate called after throwing an instance of 'std::out_of_range'\n"
         "  what():  vector::_M_range_check: __n (which is 7) >= this->size() (which is 3)\n",
         "what():  vector::_M_range_check: __n (which is 7) >= this->size() (which is 3)"),
        # AddressSanitizer: its first line, not "==N==ABORTING".
        ("=================================================================\n"
         "==4242==ERROR: AddressSanitizer: heap-use-after-free on address 0x6020 at pc 0x55\n"
         "    #0 0x55 in ns3::DrrQueueDisc::DoDequeue() drr-queue-disc.cc:120\n"
         "SUMMARY: AddressSanitizer: heap-use-after-free drr-queue-disc.cc:120 in DoDequeue\n"
         "==4242==ABORTING\n",
         "==4242==ERROR: AddressSanitizer: heap-use-after-free on address 0x6020 at pc 0x55"),
        # UndefinedBehaviorSanitizer.
        ("drr-queue-disc.cc:88:17: runtime error: signed integer overflow: 2147483647 + 1\n"
         "SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior drr-queue-disc.cc:88:17\n",
         "drr-queue-disc.cc:88:17: runtime error: signed integer overflow: 2147483647 + 1"),
        # Anything else: the last line that is not a trailer.
        ("loading\nSegmentation fault in module X\nterminate called without an active exception\n",
         "Segmentation fault in module X"),
        ("", ""),
    ],
)
def test_error_line_of_other_failures(text, line):
    assert runner.error_line(text) == line


def test_error_line_prefers_standard_error_and_is_bounded():
    assert runner.error_line('msg="from stderr", file=a.cc, line=1',
                             'msg="from stdout", file=b.cc, line=2') == \
        'msg="from stderr", file=a.cc, line=1'
    assert runner.error_line("plain words", 'msg="x", file=b.cc, line=2') == \
        'msg="x", file=b.cc, line=2'
    assert len(runner.error_line("Invalid command-line argument: --x=" + "1" * 1000)) == \
        runner.ERROR_LINE_CHARS


def test_sweep_stores_the_real_error_line(tmp_path):
    program = write_fake_program(tmp_path)
    campaign = loads_campaign('program = "fake-program"\n'
                              '[factors]\nbehave = ["badarg", "nsabort", "crash", "ok"]\n')
    db = tmp_path / "db.sqlite"
    result = sweep(campaign, program, db, jobs=2, console=quiet())
    assert (result.ok, result.failed) == (1, 3)
    with ResultStore(db) as store:
        reasons = {r.params["behave"]: r.reason for r in store.runs()}
        badarg = store.runs(status="failed")
    assert reasons == {
        "badarg": f"exit status 1: {BOGUS}",
        "nsabort": 'killed by SIGABRT: aborted. cond="!(x >= 1)", msg="--x must be >= 1",'
                   " file=fake.cc, line=7",
        "crash": 'exit status 3: msg="Simulated fatal error", file=fake.cc, line=42',
        "ok": None,
    }
    # The help text was longer than the kept tail: the error line came from the head.
    (tail,) = [r.stderr_tail for r in badarg if r.params["behave"] == "badarg"]
    assert BOGUS not in tail and len(tail) == runner.TAIL_CHARS


DRR = example("drr-evaluation")


@needs_build(DRR)
def test_sweep_of_a_real_example_stores_its_error_line(tmp_path):
    """(A parameter the program does not have, or a value outside the type or range its
    --schema gives, stops the sweep before its first run, see test_schema.py and
    test_campaign_bad_input.py; a value only the program can judge fails the run, with its
    message.)"""
    campaign = loads_campaign(
        'program = "drr-evaluation"\n'
        '[[grid]]\nfixed = { maxSize = "12Q" }\n'
        '[[grid]]\nfixed = { scenario = "bogus" }\n'
    )
    db = tmp_path / "db.sqlite"
    result = sweep(campaign, DRR, db, jobs=2, console=quiet())
    assert result.failed == 2
    with ResultStore(db) as store:
        reasons = sorted(r.reason for r in store.runs())
    # Both are checked as the flags are parsed: --maxSize read whole as a queue size, --scenario
    # one of the program's choices.
    assert reasons[0].startswith('killed by SIGABRT: aborted. cond="!(expected.empty())", '
                                 'msg="--maxSize=12Q is not a queue size')
    assert reasons[1].startswith('killed by SIGABRT: aborted. cond="!(scenario == "fairness" || '
                                 'scenario == "factorial")", msg="--scenario must be fairness or '
                                 "factorial, got 'bogus'\"")
