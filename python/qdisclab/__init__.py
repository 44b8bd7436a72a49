# SPDX-License-Identifier: GPL-2.0-only
"""Python tooling of qdisc-lab: build, test, run and plot the ns-3 module."""

__version__ = "0.1.0"
