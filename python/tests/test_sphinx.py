# SPDX-License-Identifier: GPL-2.0-only
"""The manual (doc/*.rst, doc/reproductions/*.rst) builds with Sphinx, warnings as errors.

test_doc.py parses each page with docutils; Sphinx, which ns-3 builds its model docs with, also
resolves citations and references across pages, lexes every code block in the page's
highlight language, and warns about a page no toctree reaches. qdisclab.commands.docs.sphinx_build is
the build ``./qdisc-lab docs`` runs.
"""

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from qdisclab.commands import docs

pytest.importorskip("sphinx")

PAGES = sorted(docs.DOC_DIR.rglob("*.rst"))
EXCLUDED = docs.DOC_DIR / "results"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("docs")
    return out, docs.sphinx_build(docs.DOC_DIR, out)


def test_the_manual_builds_with_sphinx_without_a_warning(built):
    out, proc = built
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "WARNING" not in proc.stderr and "ERROR" not in proc.stderr


def test_every_page_is_rendered(built):
    out, _ = built
    pages = [p for p in PAGES if EXCLUDED not in p.parents]
    assert len(pages) >= 12
    missing = [str(p.relative_to(docs.DOC_DIR)) for p in pages
               if not (out / "html" / p.relative_to(docs.DOC_DIR).with_suffix(".html")).is_file()]
    assert missing == []
    overview = (out / "html" / "qdisc-lab.html").read_text()
    assert 'href="reproductions/index.html"' in overview


def _doc_dir(tmp_path: Path, page: str) -> Path:
    """A manual of one page, qdisc-lab.rst, with the real conf.py and replace.txt."""
    doc = tmp_path / "doc"
    doc.mkdir()
    shutil.copy(docs.DOC_DIR / "conf.py", doc)
    shutil.copy(docs.DOC_DIR / "replace.txt", doc)
    (doc / "qdisc-lab.rst").write_text(page)
    return doc


@pytest.mark.parametrize("page, warning", [
    # a shell line in a literal block under `highlight:: cpp` does not lex as C++
    ("T\n-\n\n.. highlight:: cpp\n\nRun::\n\n  ./qdisc-lab docs   # HTML\n", "Lexing literal_block"),
    # a citation nobody cites: plain docutils is silent about it, Sphinx is not
    ("T\n-\n\n.. include:: replace.txt\n\n|ns3|.\n\n.. [X1] A paper.\n", "is not referenced"),
    ("T\n-\n\nSee :doc:`missing`.\n", "unknown document"),
])
def test_a_warning_fails_the_build_and_is_named(tmp_path, page, warning):
    proc = docs.sphinx_build(_doc_dir(tmp_path, page), tmp_path / "out")
    assert proc.returncode != 0
    assert warning in proc.stderr and "qdisc-lab.rst" in proc.stderr


def test_the_docs_command_renders_html_or_names_the_failure(tmp_path, monkeypatch):
    monkeypatch.setattr(docs, "DOC_DIR", _doc_dir(tmp_path, "T\n-\n\nText.\n"))
    result = CliRunner().invoke(docs.docs_cmd, ["--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "html" / "qdisc-lab.html").is_file()
    assert str(tmp_path / "out" / "html" / "qdisc-lab.html") in result.output

    (docs.DOC_DIR / "qdisc-lab.rst").write_text("T\n-\n\nSee :doc:`missing`.\n")
    result = CliRunner().invoke(docs.docs_cmd, ["--out", str(tmp_path / "out2")])
    assert result.exit_code == 1
    assert "sphinx-build failed" in result.output and "unknown document" in result.output
    assert "Traceback" not in result.output
