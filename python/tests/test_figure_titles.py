# SPDX-License-Identifier: GPL-2.0-only
"""Figure titles are wrapped into the figure (and each axes' title into its axes), so a
``--quick`` figure, narrowed to its small grid, does not clip its long title."""

import matplotlib.figure
from matplotlib.figure import Figure

from qdisclab.figures.common import fit_titles, save_figure
from synthetic_campaign import draw_results
from test_report import make_db as make_red_vs_droptail_db

# The suptitle red-vs-droptail's --quick Figure 1 had: 1,1 times as wide as its figure.
LONG_TITLE = ("Figure 1: RED (best of 3 threshold pairs) vs DropTail, 1 Mb/s, 20 ms,"
              " Wait=Gentle=true — RED ≥ DropTail in 7 of 9 (mean ± 95 % CI over seeds;"
              " “DT”: DropTail ahead)")


def titles_outside(fig: Figure) -> list[str]:
    """The titles (figure's and axes') whose drawn box leaves the figure, or whose axes
    title is wider than its axes."""
    fig.draw_without_rendering()
    page = fig.bbox
    bad = []
    titles = [(fig._suptitle, page.x0, page.x1)]
    for axis in fig.axes:
        box = axis.get_window_extent()
        titles.append((axis.title, box.x0 - 1, box.x1 + 1))
    for title, left, right in titles:
        if title is None or not title.get_text():
            continue
        box = title.get_window_extent()
        if box.x0 < max(left, page.x0) or box.x1 > min(right, page.x1) or box.y1 > page.y1:
            bad.append(title.get_text())
    return bad


def narrow_figure(suptitle: str, axes_title: str) -> Figure:
    fig = Figure(figsize=(9.6, 3.6), layout="constrained")
    for index, axis in enumerate(fig.subplots(1, 3, sharey=True)):
        axis.plot([0, 1], [index, index + 1])
        axis.set_title(axes_title if index == 1 else "queue 2k B", fontsize=10)
    fig.suptitle(suptitle, fontsize=10)
    return fig


def test_a_title_wider_than_its_figure_is_wrapped_inside_it(tmp_path):
    fig = narrow_figure(LONG_TITLE, "a panel title far longer than the panel it stands over is")
    fig.draw_without_rendering()
    assert fig._suptitle.get_window_extent().width > fig.bbox.width  # clipped as drawn
    assert len(titles_outside(fig)) == 2

    png, pdf = save_figure(fig, tmp_path, "narrow")

    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and pdf.read_bytes()[:5] == b"%PDF-"
    assert titles_outside(fig) == []
    lines = fig._suptitle.get_text().split("\n")
    assert len(lines) == 2
    assert " ".join(lines) == LONG_TITLE  # wrapped at spaces, no word lost
    assert fig.axes[1].title.get_text().count("\n") >= 1
    assert fig.axes[0].title.get_text() == "queue 2k B"  # what fits stays as it was
    # The constrained layout made room: the axes start below the two-line title.
    assert fig.axes[0].get_window_extent().y1 < fig._suptitle.get_window_extent().y0


def test_titles_that_fit_are_left_alone():
    fig = narrow_figure("Figure 4: short", "queue 16k B")
    fit_titles(fig)
    assert fig._suptitle.get_text() == "Figure 4: short"
    assert [axis.title.get_text() for axis in fig.axes] == ["queue 2k B", "queue 16k B",
                                                            "queue 2k B"]


def test_a_quick_reproduction_draws_no_clipped_title(tmp_path, monkeypatch):
    saved: dict[str, Figure] = {}
    savefig = matplotlib.figure.Figure.savefig

    def recording_savefig(fig, fname, *args, **kwargs):
        saved[str(fname)] = fig
        return savefig(fig, fname, *args, **kwargs)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", recording_savefig)
    _, _, count = draw_results(tmp_path, "red-vs-droptail", make_red_vs_droptail_db,
                                     quick=True)
    assert count == 72
    pngs = {name.rsplit("/", 1)[-1]: fig for name, fig in saved.items() if name.endswith(".png")}
    assert sorted(pngs) == ["fig1.png", "fig5.png"]
    for name, fig in pngs.items():
        assert titles_outside(fig) == [], name
    assert "\n" in pngs["fig1.png"]._suptitle.get_text()  # the one that was clipped
