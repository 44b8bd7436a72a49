# SPDX-License-Identifier: GPL-2.0-only
"""Pieces of ``qdisc-lab test`` that need no build: format-check helpers, the table."""

from qdisclab.commands import test as test_command
from qdisclab.toolchain import testing
from qdisclab.toolchain.junit import Counts


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
    table = test_command.summary_table(results)
    assert table.row_count == 2
    assert [c.header for c in table.columns][:4] == ["Source", "Passed", "Failed", "Skipped"]


def test_sanitize_runs_only_the_sanitized_ctest(monkeypatch):
    """`test --sanitize`: the sanitized build's ctest (suites, gtests, examples) and nothing
    else, still closed by the `N passed, N failed` line."""
    from click.testing import CliRunner

    import qdisclab.toolchain.provision

    calls = []

    def fake_ctest(flavor, pattern, sanitize):
        calls.append(("ctest", flavor, pattern, sanitize))
        return testing.SourceResult("ctest/system-sanitize", Counts(7, 1, 0, ["example/x"]))

    monkeypatch.delenv(testing.IN_PYTEST_ENV, raising=False)
    monkeypatch.setattr(qdisclab.toolchain.provision, "ensure_setup", lambda wheel: None)
    monkeypatch.setattr(test_command, "run_ctest", fake_ctest)
    monkeypatch.setattr(test_command, "run_pytest", lambda pattern: calls.append("pytest"))
    monkeypatch.setattr(test_command, "run_format_check", lambda: calls.append("format"))
    result = CliRunner().invoke(test_command.test_cmd, ["--sanitize", "-k", "cioq"])
    assert calls == [("ctest", "system", "cioq", True)]
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == "7 passed, 1 failed"


def test_sanitized_ctest_result_is_named_after_its_build(monkeypatch, tmp_path):
    """run_ctest builds the sanitized tree and runs ctest with the sanitizer options."""
    from qdisclab.toolchain import build as build_mod

    out = tmp_path / "system-sanitize"
    runs = []

    def fake_run(cmd, env=None, check=True, **kwargs):
        runs.append((cmd, env))
        (out / "ctest-junit.xml").write_text(
            '<testsuite><testcase name="example/dscp-marking" status="run"/></testsuite>'
        )
        return testing.subprocess.CompletedProcess(cmd, 0)

    monkeypatch.setattr(testing, "build_dir", lambda flavor, sanitize: out)
    monkeypatch.setattr(testing, "build", lambda flavor, sanitize: out)
    out.mkdir()
    monkeypatch.setattr(testing.proc, "run", fake_run)
    result = testing.run_ctest("system", sanitize=True)
    assert result.name == "ctest/system-sanitize"
    assert (result.counts.passed, result.counts.failed) == (1, 0)
    ((cmd, env),) = runs
    assert cmd[:3] == ["ctest", "--test-dir", str(out)]
    assert env == build_mod.runtime_env("system", sanitize=True)
