# SPDX-License-Identifier: GPL-2.0-only
"""The ``qdisc-lab`` subcommands, one module each (registered in :data:`qdisclab.cli.COMMANDS`).

A module here holds a command's options, what it prints and how it exits; the work it starts
is done by the libraries, which import nothing from here:

* the toolchain, :mod:`qdisclab.toolchain`: :mod:`.setup`, :mod:`.build`, :mod:`.install`,
  :mod:`.test`, :mod:`.intree` and :mod:`.python`;
* the campaigns, :mod:`qdisclab.campaign`: :mod:`.campaign` (``sweep``, ``export``,
  ``salvage``);
* the reproductions, :mod:`qdisclab.figures` and :mod:`qdisclab.report`: :mod:`.reproduce`
  (``reproduce``, ``figures``) and :mod:`.report`;
* the analyses and measurements: :mod:`.factorial` (over :mod:`qdisclab.factorial`),
  :mod:`.bench` (``bench/qdisc-bench``), :mod:`.demo` and :mod:`.docs` (the manual).

The package's top level holds only the libraries these share: :mod:`qdisclab.context`,
:mod:`qdisclab.metrics`, :mod:`qdisclab.schema`, :mod:`qdisclab.plots`, :mod:`qdisclab.ns`,
:mod:`qdisclab.factorial`, :mod:`qdisclab.report` and :mod:`qdisclab.ns2_validation`.
"""
