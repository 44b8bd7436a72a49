# SPDX-License-Identifier: GPL-2.0-only
"""The toolchain: what builds, installs and tests the module, apart from the experiments.

* :mod:`~qdisclab.toolchain.provision`: ``qdisc-lab setup`` (system packages, the ns-3 wheel);
* :mod:`~qdisclab.toolchain.build`: the standalone CMake builds per ns-3 flavour;
* :mod:`~qdisclab.toolchain.install`: ``qdisc-lab install`` (the module into an ns-3 prefix);
* :mod:`~qdisclab.toolchain.testing` and :mod:`~qdisclab.toolchain.junit`: ``qdisc-lab test``
  and its JUnit report;
* :mod:`~qdisclab.toolchain.intree` and :mod:`~qdisclab.toolchain.intree_cmd`: the module in
  an ns-3 source tree's ``contrib/``;
* :mod:`~qdisclab.toolchain.python_cmd`: ``qdisc-lab python`` (the wheel build in place);
* :mod:`~qdisclab.toolchain.proc`: running commands for all of them.

The experiments (campaigns, figures, reports, the bench and the demo) use the toolchain;
the toolchain does not import them.
"""
