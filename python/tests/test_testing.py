# SPDX-License-Identifier: GPL-2.0-only
"""Pieces of ``qdisc-lab test`` that need no build: format-check helpers, the table."""

from qdisclab import testing
from qdisclab.junit import Counts


def test_offending_files_from_clang_format_diagnostics():
    stderr = (
        "model/a.cc:3:10: error: code should be clang-formatted [-Wclang-format-violations]\n"
        "#include <x>\n"
        "         ^\n"
        "model/a.cc:9:1: error: code should be clang-formatted [-Wclang-format-violations]\n"
        "helper/b c.h:1:2: error: code should be clang-formatted [-Wclang-format-violations]\n"
    )
    assert testing.offending_files(stderr) == ["model/a.cc", "helper/b c.h"]


def test_format_sources(tmp_path):
    for name in ("model/x.cc", "model/x.h", "model/notes.txt", "test/unit/y.cc", "other/z.cc"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    assert [str(p) for p in testing.format_sources(tmp_path)] == [
        "model/x.cc",
        "model/x.h",
        "test/unit/y.cc",
    ]


def test_format_check_fails_without_clang_format(monkeypatch):
    monkeypatch.setattr(testing, "format_sources", lambda: ["model/x.cc"])
    monkeypatch.setattr(testing.shutil, "which", lambda name: None)
    result = testing.run_format_check()
    assert (result.counts.passed, result.counts.failed) == (0, 1)
    assert result.counts.failures == ["clang-format"]
    assert "not installed" in result.note


def test_summary_table_rows():
    results = [
        testing.SourceResult("ctest/system", Counts(10, 0, 0)),
        testing.SourceResult("pytest", Counts(5, 1, 2, ["t::x"])),
    ]
    table = testing.summary_table(results)
    assert table.row_count == 2
    assert [c.header for c in table.columns][:4] == ["Source", "Passed", "Failed", "Skipped"]
