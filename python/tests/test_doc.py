# SPDX-License-Identifier: GPL-2.0-only
"""The pages under doc/ form one manual that parses as reStructuredText without warnings.

doc/qdisc-lab.rst is the overview; its ``toctree`` leads to one page per model family, the
experiment contract, the campaigns and tooling page and doc/reproductions/. The pages are written on several branches; a
merge can leave a table, a list or a heading level broken, a page out of the toctree or a
``:doc:`` link dangling without anyone building ns-3's Sphinx manual. This parses every page with
docutils as Sphinx would read it inside ns-3's ``doc/models`` (where ``replace.txt`` defines
``|ns3|``, and ``highlight``, ``toctree`` and ``:doc:`` are Sphinx's), checks the toctree and the
ns-3 manual skeleton of the model pages, and that the recipes for adding a queue disc name
only files that exist.
"""

import io
import re
from pathlib import Path

import docutils.core
import pytest
from docutils import nodes
from docutils.parsers.rst import Directive, directives, roles

DOC_DIR = Path(__file__).resolve().parents[2] / "doc"
OVERVIEW = DOC_DIR / "qdisc-lab.rst"
PAGES = sorted(DOC_DIR.rglob("*.rst"))

#: One page per model family, each with ns-3's manual skeleton.
MODEL_PAGES = ["per-flow-schedulers", "red-rio", "dscp-markers", "cioq-switch"]
SKELETON = [
    "Model Description",
    "Scope and Limitations",
    "Usage",
    "Validation",
    "References",
]
#: The Usage section's parts, in ns-3's template order.
USAGE = ["Helpers", "Attributes", "Output", "Traces", "Examples"]

#: The recipes for adding a queue disc: (page, subsection title) of each.
RECIPES = [
    ("per-flow-schedulers", "Adding a queue disc"),
    ("red-rio", "Adding an AQM"),
    ("dscp-markers", "Adding a classful queue disc"),
]
REPO = DOC_DIR.parent

#: What ns-3's doc/models/source/replace.txt and Sphinx supply, for a plain docutils parse.
PRELUDE = ".. |ns3| replace:: ns-3\n\n"

INCLUDE = re.compile(r"^\.\. include:: (\S*replace\.txt)$", re.MULTILINE)
CITATION = re.compile(r"^\.\. \[[^\]]+\] .*(?:\n(?: {3}.*|$))*", re.MULTILINE)
DOC_ROLE = re.compile(r":doc:`(?:[^`<]*<)?([^`>]+)>?`")


class _SphinxToctree(Directive):
    """Sphinx's ``toctree``, which plain docutils does not know: accepted, renders nothing."""

    has_content = True
    option_spec = {"maxdepth": directives.nonnegative_int, "caption": directives.unchanged}

    def run(self):
        return []


def _doc_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    return [nodes.literal(rawtext, text)], []


directives.register_directive("toctree", _SphinxToctree)
roles.register_local_role("doc", _doc_role)


def name_of(page: Path, root: Path = DOC_DIR) -> str:
    return page.relative_to(root).with_suffix("").as_posix()


def citations_elsewhere(page: Path) -> str:
    """Citations defined on other pages: Sphinx resolves ``[KPB]_`` across the whole manual."""
    return "\n\n".join(
        m.group(0) for other in PAGES if other != page for m in CITATION.finditer(other.read_text())
    )


def parse_warnings(text: str, extra: str = "") -> str:
    text = INCLUDE.sub("", text)
    text = re.sub(r"^\.\. highlight:: \w+$", "", text, flags=re.MULTILINE)
    stream = io.StringIO()
    docutils.core.publish_doctree(
        PRELUDE + text + "\n\n" + extra,
        settings_overrides={"warning_stream": stream, "report_level": 2, "halt_level": 5},
    )
    return stream.getvalue()


def toctree_entries(text: str) -> list[str]:
    """The entries of every ``toctree`` directive in ``text``, in order."""
    entries = []
    for block in re.finditer(r"^\.\. toctree::\n((?:[ \t]+.*\n|\n)*)", text, flags=re.MULTILINE):
        for line in block.group(1).splitlines():
            line = line.strip()
            if line and not line.startswith(":"):
                entries.append(line)
    return entries


def resolve(page: Path, target: str, root: Path = DOC_DIR) -> Path:
    """The file a toctree entry or ``:doc:`` target names, relative to ``page`` (or to root)."""
    base = root if target.startswith("/") else page.parent
    return (base / (target.lstrip("/") + ".rst")).resolve()


def unreachable(start: Path, pages: list[Path], root: Path = DOC_DIR) -> list[str]:
    """Pages not reached from ``start`` by following toctrees."""
    seen, todo = {start.resolve()}, [start]
    while todo:
        page = todo.pop()
        for entry in toctree_entries(page.read_text()):
            target = resolve(page, entry, root)
            if target not in seen and target.exists():
                seen.add(target)
                todo.append(target)
    return [name_of(p, root) for p in pages if p.resolve() not in seen]


def top_sections(text: str) -> list[str]:
    """Section titles (``*`` underlines, ns-3's "Section (#.#)") in order."""
    return re.findall(r"^(\S.*)\n\*{3,}$", text, flags=re.MULTILINE)


def subsection(text: str, title: str) -> str:
    """The text of subsection ``title`` (``=`` underline), up to the next heading of any level."""
    heading = re.search(rf"^{re.escape(title)}\n={{{len(title)}}}\n", text, flags=re.MULTILINE)
    assert heading, f"no subsection {title!r}"
    start = heading.end()
    end = re.search(r"^\S.*\n([=*#+-])\1{2,}$", text[start:], flags=re.MULTILINE)
    return text[start:start + end.start()] if end else text[start:]


def named_paths(text: str, root: Path = REPO) -> list[str]:
    """The repository paths a text names as literals (``model/x.h``, ``model/x.{h,cc}``), braces
    expanded; placeholders (``xyz``), patterns (``*``, ``<...>``) and other literals left out."""
    tops = {p.name for p in root.iterdir() if p.is_dir()}
    paths = []
    for literal in re.findall(r"``([^`\s]+)``", text):
        if not re.fullmatch(r"[\w.+-]+(?:/[\w.+{},-]+)+", literal) or "xyz" in literal.lower():
            continue
        if literal.split("/")[0] not in tops:
            continue
        group = re.search(r"\{([^}]*)\}", literal)
        alternatives = group.group(1).split(",") if group else [None]
        for alternative in alternatives:
            if alternative is None:
                paths.append(literal)
            else:
                paths.append(literal[:group.start()] + alternative + literal[group.end():])
    return paths


@pytest.mark.parametrize("page, title", RECIPES, ids=[t for _, t in RECIPES])
def test_recipe_lists_new_then_edited_files_and_names_only_existing_ones(page, title):
    recipe = subsection((DOC_DIR / f"{page}.rst").read_text(), title)
    assert 0 <= recipe.index("*New files*") < recipe.index("*Edited files*")
    paths = named_paths(recipe)
    assert len(paths) >= 5, paths
    assert [p for p in paths if not (REPO / p).exists()] == []


def test_recipe_checks_catch_a_missing_file_and_skip_placeholders(tmp_path):
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "a.h").write_text("")
    text = (
        "T\n=\n\nSee ``model/a.{h,cc}``, ``model/xyz.h``, ``build/<flavor>/x``, "
        "``10.2.0.0/24`` and ``ns3::A::B``.\n\nNext\n====\n\nnot this\n"
    )
    assert subsection(text, "T").strip().startswith("See")
    assert "not this" not in subsection(text, "T")
    paths = named_paths(subsection(text, "T"), tmp_path)
    assert paths == ["model/a.h", "model/a.cc"]
    assert [p for p in paths if not (tmp_path / p).exists()] == ["model/a.cc"]


@pytest.mark.parametrize("page", PAGES, ids=name_of)
def test_page_parses_without_warnings(page):
    assert parse_warnings(page.read_text(), citations_elsewhere(page)) == ""


@pytest.mark.parametrize("page", PAGES, ids=name_of)
def test_page_includes_replace_txt_where_it_uses_ns3(page):
    text = page.read_text()
    includes = INCLUDE.findall(text)
    if "|ns3|" in text:
        assert includes, f"{name_of(page)} uses |ns3| without including replace.txt"
    for include in includes:
        assert (page.parent / include).resolve() == (DOC_DIR / "replace.txt").resolve(), include


@pytest.mark.parametrize("page", PAGES, ids=name_of)
def test_toctree_entries_and_doc_links_name_existing_pages(page):
    text = page.read_text()
    targets = toctree_entries(text) + DOC_ROLE.findall(text)
    missing = [t for t in targets if not resolve(page, t).exists()]
    assert missing == []


def test_every_page_is_reachable_from_the_overview():
    assert OVERVIEW in PAGES
    assert unreachable(OVERVIEW, PAGES) == []


def test_overview_lists_model_pages_campaigns_and_reproductions():
    assert toctree_entries(OVERVIEW.read_text()) == [
        *MODEL_PAGES,
        "experiment-contract",
        "campaigns",
        "own-program",
        "reproductions/index",
    ]


@pytest.mark.parametrize("name", MODEL_PAGES)
def test_model_page_has_the_ns3_skeleton_in_order(name):
    assert top_sections((DOC_DIR / f"{name}.rst").read_text()) == SKELETON


@pytest.mark.parametrize("name", MODEL_PAGES)
def test_model_page_usage_has_helpers_attributes_traces_and_examples_in_order(name):
    text = (DOC_DIR / f"{name}.rst").read_text()
    usage = text[text.index("\nUsage\n*****\n"):text.index("\nValidation\n**********\n")]
    parts = re.findall(r"^(\S.*)\n={3,}$", usage, flags=re.MULTILINE)
    assert parts == [part for part in USAGE if part in parts], parts
    assert {"Helpers", "Attributes", "Traces", "Examples"} <= set(parts), parts


def test_check_catches_a_broken_table():
    broken = "Title\n=====\n\n=====  =====\na      b\n=====  =====\nc      d  e\n"
    assert "ERROR" in parse_warnings(broken) or "WARNING" in parse_warnings(broken)


def test_checks_catch_an_orphan_page_and_a_dangling_entry(tmp_path):
    pages = {
        "index": ".. toctree::\n   :maxdepth: 1\n\n   a\n   sub/b\n",
        "a": "A\n-\n\nSee :doc:`sub/b` and :doc:`the missing one </sub/c>`.\n",
        "sub/b": "B\n-\n\n.. toctree::\n\n   c\n   /a\n",
        "orphan": "O\n-\n",
    }
    for name, text in pages.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / f"{name}.rst").write_text(text)
    files = sorted(tmp_path.rglob("*.rst"))
    index, a, b = tmp_path / "index.rst", tmp_path / "a.rst", tmp_path / "sub" / "b.rst"
    assert toctree_entries(index.read_text()) == ["a", "sub/b"]
    assert toctree_entries(b.read_text()) == ["c", "/a"]
    assert DOC_ROLE.findall(a.read_text()) == ["sub/b", "/sub/c"]
    assert not resolve(b, "c", tmp_path).exists()
    assert resolve(b, "/a", tmp_path) == a.resolve()
    assert unreachable(index, files, tmp_path) == ["orphan"]
    assert unreachable(b, files, tmp_path) == ["index", "orphan"]
    assert top_sections("T\n-\n\nUsage\n*****\n\nX\n=\n\nValidation\n**********\n") == [
        "Usage",
        "Validation",
    ]
