# SPDX-License-Identifier: GPL-2.0-only
"""doc/qdisc-lab.rst parses as reStructuredText without warnings.

The module's documentation is assembled from sections written on several branches; a merge can
leave a table, a list or a heading level broken without anyone building ns-3's Sphinx manual.
This parses the file with docutils as Sphinx would read it inside ns-3's ``doc/models`` (where
``replace.txt`` defines ``|ns3|`` and ``highlight`` is a Sphinx directive).
"""

import io
import re
from pathlib import Path

import docutils.core
import pytest

DOC = Path(__file__).resolve().parents[2] / "doc" / "qdisc-lab.rst"

#: What ns-3's doc/models/source/replace.txt and Sphinx supply, for a plain docutils parse.
PRELUDE = ".. |ns3| replace:: ns-3\n\n"


def parse_warnings(text: str) -> str:
    text = text.replace(".. include:: replace.txt", "")
    text = re.sub(r"^\.\. highlight:: \w+$", "", text, flags=re.MULTILINE)
    stream = io.StringIO()
    docutils.core.publish_doctree(
        PRELUDE + text,
        settings_overrides={"warning_stream": stream, "report_level": 2, "halt_level": 5},
    )
    return stream.getvalue()


def test_doc_parses_without_warnings():
    assert parse_warnings(DOC.read_text()) == ""


def test_check_catches_a_broken_table():
    broken = "Title\n=====\n\n=====  =====\na      b\n=====  =====\nc      d  e\n"
    assert "ERROR" in parse_warnings(broken) or "WARNING" in parse_warnings(broken)


@pytest.mark.parametrize("level", ["Model Description", "Usage", "Validation"])
def test_ns3_manual_sections_present(level):
    text = DOC.read_text()
    assert re.search(rf"^{re.escape(level)}\n\*+$", text, flags=re.MULTILINE), level
