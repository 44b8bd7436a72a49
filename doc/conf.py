# SPDX-License-Identifier: GPL-2.0-only
"""Sphinx configuration of the module's manual: ``./qdisc-lab docs`` renders it to
build/docs/html, and python/tests/test_sphinx.py builds it with warnings as errors.

In an ns-3 tree the same pages are part of ns-3's model manual (doc/models, whose own conf.py
and replace.txt apply); this file only lets them build on their own.
"""

project = "qdisc-lab"
author = "the qdisc-lab authors"
root_doc = "qdisc-lab"  # the overview, whose toctree leads to every other page
source_suffix = {".rst": "restructuredtext"}
exclude_patterns = ["results"]  # recorded results: CSVs and figures, read by the pages
highlight_language = "none"  # pages choose theirs (``.. highlight:: cpp``)
html_theme = "alabaster"
html_title = "qdisc-lab"
html_static_path: list[str] = []
