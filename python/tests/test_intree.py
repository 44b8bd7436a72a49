# SPDX-License-Identifier: GPL-2.0-only
"""The in-tree mode's release pins, deb-src handling and the optimized flavour's wiring,
with apt, ns-3 and the network replaced by recordings."""

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from qdisclab.campaign.engine import program_binary
from qdisclab.toolchain import build as build_mod
from qdisclab.toolchain import intree

REPO = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------- pins


def test_every_pin_names_its_release_and_a_sha256():
    assert intree.DEFAULT_RELEASE == "3.37"
    assert intree.DEFAULT_RELEASE in intree.DEBIAN_SOURCES
    for release, pin in intree.DEBIAN_SOURCES.items():
        assert pin.release == release
        assert pin.version.startswith(f"{release}-")  # a Debian revision of that release
        assert pin.orig.startswith(f"ns3_{release}.orig.tar.")
        assert len(pin.sha256) == 64 and int(pin.sha256, 16) >= 0
    assert intree.DEBIAN_SOURCES["3.37"].suite == "bookworm"
    for release, pin in intree.FIXTURE_SOURCES.items():
        assert pin.release == release
        assert pin.path == f"../shared/ns-3/ns-{release}-src.tar.xz"
        assert len(pin.sha256) == 64 and int(pin.sha256, 16) >= 0


def test_each_release_has_one_source():
    """One declaration of where each release comes from: a Debian pin or a fixture, not both."""
    assert not intree.DEBIAN_SOURCES.keys() & intree.FIXTURE_SOURCES.keys()
    assert sorted([*intree.DEBIAN_SOURCES, *intree.FIXTURE_SOURCES]) == ["3.24", "3.35", "3.37", "3.48"]


def test_the_newest_release_is_the_fixture_tarball():
    """No Debian suite reachable here serves ns-3.48's source: the fixture is its source."""
    pin = intree.FIXTURE_SOURCES[intree.NEWEST_RELEASE]
    assert pin.path == "../shared/ns-3/ns-3.48-src.tar.xz"
    assert pin.sha256 == "9bdb4f7f532e7c078323fdbd0d3eb7195327df236d869654ac0efc22b5787adb"


def test_the_newest_pin_matches_the_fixtures_checksum_file():
    pin = intree.FIXTURE_SOURCES[intree.NEWEST_RELEASE]
    sums = (REPO / pin.path).with_name("ns-3.48-src.tar.xz.sha256")
    if not sums.is_file():
        pytest.skip(f"no fixture at {sums}")
    assert sums.read_text().split() == [pin.sha256, "ns-3.48-src.tar.xz"]


def test_the_newest_release_unpacks_from_its_fixture_and_builds_with_cmake(tmp_path, monkeypatch):
    """`--ns3-version newest` (3.48): the fixture's ns-3.48/ becomes cache/ns-3.48, a CMake tree
    configured with only the modules qdisc-lab needs (never lte: the fixture lacks its fading
    traces), built with the -j given."""
    monkeypatch.delenv(intree.SRC_ENV_VAR, raising=False)
    made = _fake_tree(tmp_path / "made", "3.48")
    tarball = tmp_path / "ns-3.48-src.tar.xz"
    subprocess.run(["tar", "-cJf", tarball, "-C", made.parent, "ns-3.48"], check=True)
    pin = intree.FixtureSource("3.48", str(tarball), intree.sha256_of(tarball))
    monkeypatch.setitem(intree.FIXTURE_SOURCES, "3.48", pin)
    cache = tmp_path / "cache"
    tree = intree.ensure_ns3_source(cache, intree.resolve_release("newest"), repo=tmp_path)
    assert tree == cache / "ns-3.48" and intree.ns3_version_of(tree) == "3.48"
    system = intree.BuildSystem.of(tree)
    assert system == intree.BuildSystem(waf=False)
    args = system.configure_args()
    (modules,) = [a.split("=", 1)[1].split(";") for a in args if a.startswith("--enable-modules=")]
    assert modules[0] == "qdisc-lab" and "lte" not in modules
    assert {"internet", "point-to-point", "applications", "flow-monitor", "traffic-control",
            "bridge", "csma"} <= set(modules)
    assert system.build_cmd(tree, 2) == ["cmake", "--build", "cmake-cache", "-j", "2"]
    # Unpacked once: a second call reuses the tree without the tarball.
    tarball.unlink()
    assert intree.ensure_ns3_source(cache, "3.48", repo=tmp_path) == tree


def test_newest_and_default_resolve_to_the_pins():
    assert intree.resolve_release("newest") == intree.NEWEST_RELEASE == "3.48"
    assert intree.resolve_release("default") == "3.37"
    assert intree.resolve_release("3.44") == "3.44"


def test_an_unpinned_release_is_refused_with_the_pinned_list(tmp_path, monkeypatch):
    monkeypatch.delenv(intree.SRC_ENV_VAR, raising=False)
    with pytest.raises(intree.StepFailed, match=r"ns-3\.44 cannot be fetched \(pinned: 3\.37, 3\.24, 3\.35, 3\.48\); "
                                                r"set QDISC_LAB_NS3_SRC"):
        intree.ensure_ns3_source(tmp_path, "3.44")


# --------------------------------------------------------------------------- deb-src


def test_deb_src_suites_reads_both_apt_formats():
    one_line = (
        "deb http://deb.debian.org/debian bookworm main\n"
        "deb-src [arch=amd64 signed-by=/k.gpg] http://deb.debian.org/debian sid main\n"
        "# deb-src http://deb.debian.org/debian trixie main\n"
        "deb-src http://deb.debian.org/debian bookworm-updates main\n"
    )
    assert intree.deb_src_suites(one_line) == {"sid", "bookworm-updates"}
    deb822 = (
        "Types: deb\nURIs: http://deb.debian.org/debian\nSuites: experimental\nComponents: main\n"
        "\n"
        "Types: deb deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\n"
        "Components: main\n"
        "\n"
        "Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: sid\nEnabled: no\n"
    )
    assert intree.deb_src_suites(deb822) == {"bookworm", "bookworm-updates"}
    assert intree.deb_src_suites(intree.DEB_SRC_ENTRY.format(suite="sid")) == {"sid"}


def test_has_deb_src_is_per_suite(tmp_path):
    """A bookworm deb-src line does not make sid's source fetchable, nor the reverse."""
    (tmp_path / "sources.list.d").mkdir()
    (tmp_path / "sources.list.d" / "qdisc-lab-src.sources").write_text(
        intree.DEB_SRC_ENTRY.format(suite="bookworm"))
    assert intree.has_deb_src("bookworm", tmp_path)
    assert not intree.has_deb_src("sid", tmp_path)


def test_ensure_deb_src_writes_one_file_per_suite(tmp_path, monkeypatch):
    monkeypatch.setattr(intree, "DEB_SRC_DIR", tmp_path)
    monkeypatch.setattr(intree, "has_deb_src", lambda suite: suite == "bookworm")
    assert intree.ensure_deb_src("bookworm") is False
    assert intree.ensure_deb_src("sid") is True
    assert [p.name for p in tmp_path.iterdir()] == ["qdisc-lab-src-sid.sources"]
    assert intree.deb_src_suites((tmp_path / "qdisc-lab-src-sid.sources").read_text()) == {"sid"}


# --------------------------------------------------------------------------- fetch


@pytest.fixture
def apt(monkeypatch):
    """apt-get replaced: `apt-get source` writes `content` as the pinned orig tarball."""
    state = {"calls": [], "suites": [], "content": b"tarball", "returncode": 0}

    def fake_run(cmd, *, cwd=None, console=None, check=True, **kwargs):
        state["calls"].append(list(cmd))
        if cmd[:2] == ["apt-get", "source"] and state["returncode"] == 0:
            pin = next(p for p in intree.DEBIAN_SOURCES.values() if cmd[-1] == f"ns3={p.version}")
            (Path(cwd) / pin.orig).write_bytes(state["content"])
        return subprocess.CompletedProcess(cmd, state["returncode"])

    monkeypatch.setattr(intree, "run_cmd", fake_run)
    monkeypatch.setattr(intree, "apt_update", lambda console=None: state["calls"].append(["update"]))
    monkeypatch.setattr(intree, "ensure_deb_src",
                        lambda suite, console=None: state["suites"].append(suite) or True)
    return state


def _pin_for(content: bytes, release: str = "3.37") -> intree.DebianSource:
    import hashlib
    from dataclasses import replace

    return replace(intree.DEBIAN_SOURCES[release], sha256=hashlib.sha256(content).hexdigest())


def test_fetch_asks_apt_for_the_exact_pinned_version_of_its_suite(apt, tmp_path):
    pin = _pin_for(b"tarball")
    got = intree.fetch_debian_source(tmp_path, pin)
    assert got == tmp_path / "ns3_3.37.orig.tar.bz2"
    assert apt["suites"] == ["bookworm"]
    assert apt["calls"] == [["update"], ["apt-get", "source", "--download-only", "ns3=3.37-2"]]
    # A second call reuses the file (checked again) without apt.
    apt["calls"].clear()
    assert intree.fetch_debian_source(tmp_path, pin) == got and apt["calls"] == []


def test_fetch_refuses_a_tarball_whose_checksum_differs(apt, tmp_path):
    pin = _pin_for(b"what the pin was made from")
    with pytest.raises(intree.StepFailed, match=rf"ns3_3\.37\.orig\.tar\.bz2: SHA-256 [0-9a-f]{{64}}, "
                                                rf"but the pin for ns3 3\.37-2 says {pin.sha256}"):
        intree.fetch_debian_source(tmp_path, pin)


def test_fetch_says_what_to_do_when_the_mirror_lacks_the_version(apt, tmp_path):
    apt["returncode"] = 100
    with pytest.raises(intree.StepFailed, match=r"apt-get source ns3=3\.37-2 \(bookworm\) did not give "
                                                r"ns3_3\.37\.orig\.tar\.bz2: .*move the pin in "
                                                r"DEBIAN_SOURCES.*QDISC_LAB_NS3_SRC"):
        intree.fetch_debian_source(tmp_path, intree.DEBIAN_SOURCES["3.37"])


# --------------------------------------------------------------------------- the tree


def _fake_tree(root: Path, version: str) -> Path:
    tree = root / f"ns-{version}"
    (tree / "src" / "core").mkdir(parents=True)
    for name in ("ns3", "test.py"):
        (tree / name).write_text("")
    (tree / "VERSION").write_text(f"{version}\n")
    examples = tree / "build" / "contrib" / "qdisc-lab" / "examples"
    examples.mkdir(parents=True)
    (examples / "CMakeFiles").mkdir()
    for name in (f"ns{version}-red-vs-droptail", f"ns{version}-drr-evaluation", "Makefile"):
        path = examples / name
        path.write_text("#!/bin/sh\n")
        path.chmod(0o755)
    (examples / f"ns{version}-not-yet-linked").write_text("")  # not executable
    return tree


def test_example_binaries_are_the_tree_versions_programs_by_name(tmp_path):
    tree = _fake_tree(tmp_path, "3.48")
    assert intree.example_binaries(tree) == {
        "drr-evaluation": tree / "build/contrib/qdisc-lab/examples/ns3.48-drr-evaluation",
        "red-vs-droptail": tree / "build/contrib/qdisc-lab/examples/ns3.48-red-vs-droptail",
    }
    assert intree.example_binaries(tmp_path / "nothing") == {}


def test_configure_uses_the_portable_release_profile():
    args = intree.configure_args()
    assert args[args.index("-d") + 1] == "release"
    assert "--filter-module-examples-and-tests=qdisc-lab" in args


def test_the_optimized_flavours_release_alone_is_built_with_link_time_optimization():
    from qdisclab.toolchain.build import OPTIMIZED_RELEASE

    assert intree.LTO_RELEASES == (OPTIMIZED_RELEASE,)
    plain, lto = intree.configure_args(), intree.configure_args(lto=True)
    assert "-DNS3_LINK_TIME_OPTIMIZATION=ON" not in " ".join(plain)
    # ./ns3 configure has no flag for it: the CMake option goes after "--".
    assert lto == [*plain, "--", "-DNS3_LINK_TIME_OPTIMIZATION=ON"]
    assert intree.BuildSystem(waf=False).configure_args(lto=True) == lto
    assert intree.BuildSystem(waf=True).configure_args(lto=True) == intree.waf_configure_args()


# --------------------------------------------------------------------------- waf era (3.35)


def _fake_waf_tree(root: Path) -> Path:
    """A waf-era tree (./waf, no ./ns3) with the module's examples in contrib/."""
    tree = root / "ns-3.35"
    (tree / "src" / "core").mkdir(parents=True)
    for name in ("waf", "test.py"):
        (tree / name).write_text("")
    (tree / "VERSION").write_text("3.35\n")
    examples = tree / "contrib" / "qdisc-lab" / "examples"
    examples.mkdir(parents=True)
    for name in ("red-vs-droptail.cc", "drr-evaluation.cc", "wscript", "CMakeLists.txt"):
        (examples / name).write_text("")
    return tree


def test_a_waf_tree_is_configured_built_tested_and_run_with_waf(tmp_path, monkeypatch):
    tree = _fake_waf_tree(tmp_path)
    assert intree.is_ns3_tree(tree)
    system = intree.BuildSystem.of(tree)
    assert system == intree.BuildSystem(waf=True)
    assert intree.BuildSystem.of(_fake_tree(tmp_path, "3.37")) == intree.BuildSystem(waf=False)
    # waf enables qdisc-lab's dependencies itself: the module is the only one named.
    args = system.configure_args()
    assert args == ["-d", "release", "--enable-examples", "--enable-tests", "--disable-werror",
                    "--disable-python", "--disable-gtk", "--enable-modules=qdisc-lab"]
    assert system.configure_cmd(args) == ["python3", "./waf", "configure", *args]
    # Waf keeps the compiler it was configured with: ccache goes in through CXX.
    monkeypatch.setattr(intree.shutil, "which", lambda name: f"/usr/bin/{name}")
    assert system.configure_env({"PATH": "/bin"}) == {"PATH": "/bin", "CXX": "ccache g++"}
    assert intree.BuildSystem(waf=False).configure_env({"PATH": "/bin"}) == {"PATH": "/bin"}
    # Everything: with --targets, waf would not copy the headers to build/ns3.
    assert system.build_cmd(tree, 2) == ["python3", "./waf", "build", "-j", "2"]
    assert system.no_build == "--nowaf"
    assert system.run_cmd("red-vs-droptail --quick", tmp_path) == [
        "python3", "./waf", "--run-no-build", "red-vs-droptail --quick", f"--cwd={tmp_path}"]


def test_a_waf_tree_needs_configure_until_its_stamp_matches(tmp_path):
    tree = _fake_waf_tree(tmp_path)
    args = intree.waf_configure_args()
    assert intree.needs_configure(tree, args)  # not configured
    (tree / "build" / "c4che").mkdir(parents=True)
    (tree / "build" / "c4che" / "_cache.py").write_text("")
    assert intree.needs_configure(tree, args)  # configured, but not by us
    (tree / "build" / intree.STAMP_NAME).write_text(json.dumps(intree._stamp_data(tree, args)))
    assert not intree.needs_configure(tree, args)
    assert intree.needs_configure(tree, [*args, "--enable-mpi"])
    # The module's wscript (its configure() looks for GoogleTest): a new one, configure again.
    wscript = tree / "contrib" / "qdisc-lab" / "wscript"
    wscript.write_text("def configure(conf):\n    pass\n")
    assert intree.needs_configure(tree, args)
    (tree / "build" / intree.STAMP_NAME).write_text(json.dumps(intree._stamp_data(tree, args)))
    assert not intree.needs_configure(tree, args)


def test_the_waf_release_is_a_fixture_checked_before_it_is_unpacked(tmp_path, monkeypatch):
    monkeypatch.delenv(intree.SRC_ENV_VAR, raising=False)
    pin = intree.FIXTURE_SOURCES["3.35"]
    assert pin.path == "../shared/ns-3/ns-3.35-src.tar.xz"
    repo = tmp_path / "repo"
    repo.mkdir()
    with pytest.raises(intree.StepFailed, match=r"ns-3\.35 is a fixture: .*ns-3\.35-src\.tar\.xz "
                                                r"\(\.\./shared/ns-3/ns-3\.35-src\.tar\.xz from the "
                                                r"repository root\) is missing"):
        intree.ensure_ns3_source(tmp_path / "cache", "3.35", repo=repo)
    tarball = tmp_path / "shared" / "ns-3" / "ns-3.35-src.tar.xz"
    tarball.parent.mkdir(parents=True)
    tarball.write_bytes(b"not the release")
    with pytest.raises(intree.StepFailed, match=rf"SHA-256 [0-9a-f]{{64}}, but the pin for ns-3\.35 "
                                                rf"says {pin.sha256}$"):
        intree.ensure_ns3_source(tmp_path / "cache", "3.35", repo=repo)


def test_the_fixture_unpacks_into_the_cache(tmp_path, monkeypatch):
    """A fixture-shaped tarball (ns-3.35/ at its top) becomes cache/ns-3.35."""
    made = _fake_waf_tree(tmp_path / "made")
    tarball = tmp_path / "ns-3.35-src.tar.xz"
    subprocess.run(["tar", "-cJf", tarball, "-C", made.parent, "ns-3.35"], check=True)
    pin = intree.FixtureSource("3.35", str(tarball), intree.sha256_of(tarball))
    monkeypatch.setitem(intree.FIXTURE_SOURCES, "3.35", pin)
    tree = intree.ensure_ns3_source(tmp_path / "cache", "3.35", repo=tmp_path)
    assert tree == tmp_path / "cache" / "ns-3.35"
    assert intree.BuildSystem.of(tree).waf and intree.ns3_version_of(tree) == "3.35"


# --------------------------------------------------------------------------- optimized flavour


def test_optimized_flavour_builds_the_tree_and_links_its_examples(tmp_path, monkeypatch):
    tree = _fake_tree(tmp_path / "cache", build_mod.OPTIMIZED_RELEASE)
    calls = []

    def prepare_tree(repo, cache, version, jobs=None, console=None, **kwargs):
        calls.append((repo, cache, version))
        return tree

    monkeypatch.setattr(build_mod, "REPO", tmp_path / "repo")
    monkeypatch.setattr(build_mod, "CACHE", tmp_path / "cache")
    monkeypatch.setattr(intree, "prepare_tree", prepare_tree)
    stale = tmp_path / "repo" / "build" / "optimized" / "examples" / "gone"
    stale.parent.mkdir(parents=True)
    stale.write_text("")

    out = build_mod.build("optimized")
    assert out == tmp_path / "repo" / "build" / "optimized"
    assert calls == [(tmp_path / "repo", tmp_path / "cache", build_mod.OPTIMIZED_RELEASE)]
    assert sorted(p.name for p in (out / "examples").iterdir()) == ["drr-evaluation", "red-vs-droptail"]
    assert os.readlink(out / "examples" / "red-vs-droptail") == str(
        intree.example_binaries(tree)["red-vs-droptail"])
    monkeypatch.setattr(build_mod, "build_dir", lambda flavor: tmp_path / "repo" / "build" / flavor)
    assert program_binary("drr-evaluation", "optimized") == out / "examples" / "drr-evaluation"
    assert build_mod.runtime_env("optimized")["LD_LIBRARY_PATH"].split(os.pathsep)[0] == str(
        tmp_path / "cache" / f"ns-{build_mod.OPTIMIZED_RELEASE}" / "build" / "lib")


def test_optimized_flavour_reports_a_failed_tree_build(tmp_path, monkeypatch):
    import click

    def prepare_tree(*args, **kwargs):
        raise intree.StepFailed("./ns3 configure failed")

    monkeypatch.setattr(build_mod, "REPO", tmp_path / "repo")
    monkeypatch.setattr(intree, "prepare_tree", prepare_tree)
    with pytest.raises(click.ClickException, match="optimized flavour failed: ./ns3 configure failed"):
        build_mod.build("optimized")


def test_a_linked_worktree_finds_the_fixture_beside_its_main_working_tree(tmp_path):
    main, linked = tmp_path / "main", tmp_path / "wt" / "helper"
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q", main], check=True)
    subprocess.run([*git, "-C", main, "commit", "-q", "--allow-empty", "-m", "0"], check=True)
    subprocess.run([*git, "-C", main, "worktree", "add", "-q", linked], check=True)
    tarball = tmp_path / "shared" / "ns-3" / "ns-3.35-src.tar.xz"  # ../shared of main only
    tarball.parent.mkdir(parents=True)
    tarball.write_bytes(b"fixture")
    pin = intree.FixtureSource("3.35", "../shared/ns-3/ns-3.35-src.tar.xz", intree.sha256_of(tarball))
    assert intree.main_worktree(linked) == main
    assert intree.main_worktree(main) is None
    assert intree.fetch_fixture_source(linked, pin) == tarball
    assert intree.fetch_fixture_source(main, pin) == tarball


def test_the_manual_lists_each_release_with_the_source_it_is_pinned_to():
    rows = {line.split()[0]: line for line in (REPO / "doc" / "qdisc-lab.rst").read_text().splitlines()
            if re.match(r"^3\.\d+ \(\w+\) +``", line)}
    assert sorted(rows) == sorted([*intree.DEBIAN_SOURCES, *intree.FIXTURE_SOURCES])
    for release, pin in intree.DEBIAN_SOURCES.items():
        assert f"``apt-get source ns3={pin.version}`` ({pin.suite})" in rows[release]
    for release, pin in intree.FIXTURE_SOURCES.items():
        assert f"``{pin.path}``" in rows[release]
    assert rows[intree.NEWEST_RELEASE].startswith(f"{intree.NEWEST_RELEASE} (newest)")
    assert rows[intree.DEFAULT_RELEASE].startswith(f"{intree.DEFAULT_RELEASE} (default)")


def test_forwarding_headers_of_moved_module_headers_are_removed_and_configure_runs(tmp_path):
    """CMake-era ns-3 writes build/include/ns3/x.h once, at configure; after the module moves x.h
    (helper/ -> experiment/) the old forward is removed so configure writes the new one."""
    tree = tmp_path / "ns-3.37"
    module = tree / "contrib" / intree.MODULE_NAME
    (module / "experiment").mkdir(parents=True)
    (module / "experiment" / "metrics-report.h").write_text("// moved here\n")
    (module / "model").mkdir()
    (module / "model" / "drr-queue-disc.h").write_text("// still here\n")
    include = tree / "build" / "include" / "ns3"
    include.mkdir(parents=True)
    moved = include / "metrics-report.h"
    moved.write_text(f'#include "{module}/helper/metrics-report.h"\n')
    kept = include / "drr-queue-disc.h"
    kept.write_text(f'#include "{module}/model/drr-queue-disc.h"\n')
    elsewhere = include / "gone-core.h"  # not the module's: ns-3's own business
    elsewhere.write_text(f'#include "{tree}/src/core/model/gone-core.h"\n')
    cache = tree / "cmake-cache"
    cache.mkdir()
    stamp = cache / intree.STAMP_NAME
    stamp.write_text("{}")
    assert intree.remove_stale_header_stubs(tree) == [moved]
    assert not moved.exists() and kept.exists() and elsewhere.exists()
    assert not stamp.exists()  # so configure runs and writes experiment/metrics-report.h's
    stamp.write_text("{}")
    assert intree.remove_stale_header_stubs(tree) == [] and stamp.exists()


# --------------------------------------------------------------------------- patches to ns-3


def _patched_tree(root: Path) -> tuple[Path, Path]:
    """A tree with one source file and a patch directory holding one patch for it."""
    tree = _fake_tree(root, "3.37")
    source = tree / "src" / "core" / "thing.cc"
    source.write_text("int\nA()\n{\n    return 1;\n}\n")
    patches = root / "ns3_patches" / "3.37"
    patches.mkdir(parents=True)
    (patches / "0001-a.patch").write_text(
        "A: return 2\n\nWhat it changes, before the diff.\n\n"
        "--- a/src/core/thing.cc\n+++ b/src/core/thing.cc\n"
        "@@ -1,5 +1,5 @@\n int\n A()\n {\n-    return 1;\n+    return 2;\n }\n")
    return tree, source


def test_a_patch_is_applied_once_and_a_second_run_leaves_the_tree_alone(tmp_path, monkeypatch):
    tree, source = _patched_tree(tmp_path)
    monkeypatch.setattr(intree, "PATCH_DIR", tmp_path / "ns3_patches")
    assert [p.name for p in intree.ns3_patches("3.37")] == ["0001-a.patch"]
    assert intree.ns3_patches("3.35") == []
    assert intree.apply_patches(tree, "3.37") == ["0001-a.patch"]
    assert "return 2;" in source.read_text()
    stamp = source.stat().st_mtime_ns
    assert intree.apply_patches(tree, "3.37") == []  # already in: not touched, nothing to rebuild
    assert source.stat().st_mtime_ns == stamp and "return 2;" in source.read_text()


def test_a_patch_that_neither_applies_nor_is_in_the_tree_stops_the_build(tmp_path, monkeypatch):
    tree, source = _patched_tree(tmp_path)
    monkeypatch.setattr(intree, "PATCH_DIR", tmp_path / "ns3_patches")
    source.write_text("int\nA()\n{\n    return 7;\n}\n")  # a tree edited by hand
    with pytest.raises(intree.StepFailed, match=r"0001-a\.patch neither applies .* ns-3\.37"):
        intree.apply_patches(tree, "3.37")
    assert "return 7;" in source.read_text()


def test_the_3_37_patch_is_what_the_newest_release_does(tmp_path):
    """0001-ipv4-route-input-callbacks.patch backports ns-3.48's own code: its RouteInput call
    hands over the four callbacks the constructor made; the patch makes 3.37's do the same."""
    (patch,) = intree.ns3_patches("3.37")
    assert patch.name == "0001-ipv4-route-input-callbacks.patch"
    added = [line[1:].strip() for line in patch.read_text().splitlines()
             if line.startswith("+") and not line.startswith("+++")]
    assert "if (!m_routingProtocol->RouteInput(packet, ipHeader, device, m_ucb, m_mcb, m_lcb, m_ecb))" in added
    assert "m_ucb = MakeCallback(&Ipv4L3Protocol::IpForward, this);" in added
    fixture = REPO / intree.FIXTURE_SOURCES["3.48"].path
    if not fixture.is_file():
        pytest.skip(f"no fixture {fixture}")
    member = "ns-3.48/src/internet/model/ipv4-l3-protocol.cc"
    text = subprocess.run(["tar", "-xOJf", fixture, member], check=True, capture_output=True,
                          text=True).stdout
    assert "RouteInput(packet, ipHeader, device, m_ucb, m_mcb, m_lcb, m_ecb)" in text
    assert "m_ucb = MakeCallback(&Ipv4L3Protocol::IpForward, this);" in text


def test_the_wheels_ns3_has_the_change_already():
    """The 3.44 wheel (red-vs-droptail's and cioq-red's flavour) needs no patch: its
    Ipv4L3Protocol holds the callbacks as members."""
    from qdisclab.toolchain.build import wheel_ns3_root

    header = wheel_ns3_root() / "include" / "ns3" / "ipv4-l3-protocol.h"
    if not header.is_file():
        pytest.skip(f"no ns-3 wheel here ({header})")
    assert "Ipv4RoutingProtocol::UnicastForwardCallback m_ucb;" in header.read_text()
    assert intree.ns3_patches("3.44") == [] and intree.ns3_patches("3.48") == []


def test_the_3_37_patch_applies_to_the_cached_tree_or_is_in_it():
    from qdisclab.context import CACHE

    tree = CACHE / "ns-3.37"
    if not intree.is_ns3_tree(tree):
        pytest.skip(f"no ns-3.37 tree in {CACHE}")
    for patch in intree.ns3_patches("3.37"):
        assert (intree._patch_applies(tree, patch, reverse=True)
                or intree._patch_applies(tree, patch, reverse=False)), patch.name
