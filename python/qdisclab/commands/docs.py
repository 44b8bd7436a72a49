# SPDX-License-Identifier: GPL-2.0-only
"""``qdisc-lab docs``: render the module's manual (doc/, Sphinx) to HTML.

The pages are ns-3 model documentation: inside an ns-3 tree they are part of ns-3's Sphinx
manual; ``doc/conf.py`` lets them build on their own, with ``doc/qdisc-lab.rst`` (the overview)
as the root. :func:`sphinx_build` is the one way they are built, by this command and by
python/tests/test_sphinx.py, always with warnings as errors (``-W``): a broken table, a dangling
reference or a code block that does not lex stops the build, naming the file and line.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click

from qdisclab.context import REPO

DOC_DIR = REPO / "doc"
OUT_DIR = REPO / "build" / "docs"


def sphinx_command(doc_dir: Path, out_dir: Path, builder: str = "html") -> list[str]:
    """``sphinx-build`` (this interpreter's) with warnings as errors, all of them reported
    (``--keep-going``); the HTML in out_dir/<builder>, the doctrees beside it."""
    return [
        sys.executable, "-m", "sphinx",
        "-b", builder,
        "-W", "--keep-going",
        "-q",
        "-d", str(out_dir / "doctrees"),
        str(doc_dir), str(out_dir / builder),
    ]


def sphinx_build(doc_dir: Path = DOC_DIR, out_dir: Path = OUT_DIR,
                 builder: str = "html") -> subprocess.CompletedProcess:
    """Build doc_dir with Sphinx; the completed process, its output (warnings) captured."""
    return subprocess.run(sphinx_command(doc_dir, out_dir, builder), capture_output=True,
                          text=True, stdin=subprocess.DEVNULL)


def sphinx_available() -> bool:
    try:
        import sphinx  # noqa: F401
    except ImportError:
        return False
    return True


@click.command("docs")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=OUT_DIR, show_default="build/docs",
              help="Directory for the output: the HTML goes to OUT/html.")
def docs_cmd(out_dir: Path) -> None:
    """Render the manual (doc/*.rst) to HTML with Sphinx, warnings as errors."""
    if not sphinx_available():
        raise click.ClickException("Sphinx is not installed in this environment "
                                   "(python/pyproject.toml lists it; run ./qdisc-lab again to "
                                   "install it, or `pip install sphinx`)")
    out_dir = out_dir.resolve()
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise click.ClickException(f"cannot create {out_dir}: {exc.strerror or exc}") from exc
    proc = sphinx_build(DOC_DIR, out_dir)
    output = (proc.stdout + proc.stderr).strip()
    if proc.returncode != 0:
        raise click.ClickException(f"sphinx-build failed (exit {proc.returncode}):\n{output}")
    if output:
        click.echo(output)
    click.echo(f"HTML manual: {out_dir / 'html' / 'qdisc-lab.html'}")  # unwrapped, to copy
