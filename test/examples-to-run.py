#! /usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# The module's examples that ns-3's test.py runs in-tree (contrib/qdisc-lab): each in its quick
# mode, a run of seconds that must end with exit status 0. Each tuple in the C++ list is
#
#     (example name and arguments, do_run, do_valgrind_run)
#
# where the two conditions are Python expressions test.py evaluates against its configuration
# (e.g. ENABLE_REAL_TIME). Not under valgrind: each run simulates up to 30 s of TCP traffic.
# test.py reads the lists with its own simple parser: no hash sign or closing square bracket
# may appear inside an entry. python/tests/test_examples_to_run.py checks that every example is
# listed, and that test_example_json.py runs each command on the standalone build (comparing
# its report with a recorded one), or test_quick_start.py the quick start (which prints a table,
# not a metrics report).

cpp_examples = [
    ("cioq-red-evaluation --quick", "True", "False"),
    ("cioq-switch-load --quick", "True", "False"),
    ("drr-evaluation --quick", "True", "False"),
    ("drr-evaluation --quick --scenario=factorial", "True", "False"),
    ("dscp-marking --quick", "True", "False"),
    ("dumbbell-fifo-vs-red --quick", "True", "False"),
    ("ns2-validation --quick --queue=DRR --flows=3 --rates=500,500,800", "True", "False"),
    ("quick-start --quick", "True", "False"),
    ("red-vs-droptail --quick", "True", "False"),
    ("rio-assured-service --quick", "True", "False"),
    ("vertical-dimensioning-evaluation --quick", "True", "False"),
    ("vertical-dimensioning-evaluation --quick --reference=tcp --queueDisc=DRR", "True", "False"),
]

# examples/python/weighted-drr.py and quick-start.py load ns-3 through qdisclab.ns (./qdisc-lab
# python), not through an ns-3 tree's own bindings, so test.py does not run them.
python_examples = []
