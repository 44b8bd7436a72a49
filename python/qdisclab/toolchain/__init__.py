# SPDX-License-Identifier: GPL-2.0-only
"""The toolchain: what builds, installs and tests the module, apart from the experiments.

* :mod:`~qdisclab.toolchain.provision`: system packages and the ns-3 wheel (``setup``);
* :mod:`~qdisclab.toolchain.build`: the standalone CMake builds per ns-3 flavour (``build``);
* :mod:`~qdisclab.toolchain.install`: the module into an ns-3 prefix (``install``);
* :mod:`~qdisclab.toolchain.testing` and :mod:`~qdisclab.toolchain.junit`: the test sources
  and their counts (``test``);
* :mod:`~qdisclab.toolchain.intree`: the module in an ns-3 source tree's ``contrib/``
  (``intree``);
* :mod:`~qdisclab.toolchain.ns324`: the ns-3.24 tree the RED study's program runs on;
* :mod:`~qdisclab.toolchain.proc`: running commands for all of them.

The commands themselves are in :mod:`qdisclab.commands`. The experiments (campaigns, figures,
reports, the bench and the demo) use the toolchain; the toolchain does not import them.
"""
