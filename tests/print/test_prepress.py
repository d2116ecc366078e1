"""The prepress check (tests/print/prepress.py) over the sheets: every page's
boxes from its own content, in both colour paths, every layout and paper."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from cardkit.layout.units import MM
from cardkit.load.project import load_project
from cardkit.printing import build_pdf
from cardkit.render.cmyk import ColourOptions
from tests.print.prepress import check_pdf
from tests.print.threesizes import three_size_project

REPO = Path(__file__).resolve().parents[2]
CMYK = ColourOptions("cmyk", 240.0)


@pytest.fixture(scope="module")
def sizes_project(tmp_path_factory) -> Path:
    return three_size_project(tmp_path_factory.mktemp("sizes") / "game")


@pytest.fixture(scope="module")
def death_angel():
    return load_project(REPO).card_set("death-angel")


@pytest.mark.parametrize("colour", ["rgb", "cmyk"])
@pytest.mark.parametrize("layout,duplex", [("grid", "long-edge"), ("grid", "short-edge"),
                                           ("shared-edge", "long-edge"), ("gutterfold", "none")])
def test_every_page_of_a_mixed_size_game_passes(sizes_project, tmp_path, colour, layout, duplex):
    """Three card sizes: the second and third sizes' calibration pages once
    carried the previous size's last TrimBox, and a partly filled last sheet's
    back the box of a full sheet."""
    card_set = load_project(sizes_project).card_set("sizes")
    result = build_pdf(sizes_project, card_set, "en", duplex=duplex, layout=layout, out=tmp_path / "s.pdf",
                       colours=CMYK if colour == "cmyk" else ColourOptions("rgb", 240.0))
    report = check_pdf(result.path, cmyk=colour == "cmyk", duplex=duplex,
                       min_bleed=1 * MM)
    assert report.problems == []
    assert sum(p.has_cards for p in report.pages) >= 3


def test_pages_without_cards_have_no_card_boxes(sizes_project, tmp_path):
    card_set = load_project(sizes_project).card_set("sizes")
    path = build_pdf(sizes_project, card_set, "en", out=tmp_path / "s.pdf").path
    report = check_pdf(path)
    reader = PdfReader(str(path))
    cardless = [f.number for f in report.pages if not f.has_cards]
    assert len(cardless) >= 6  # two calibration pages per size
    for n in cardless:
        page = reader.pages[n - 1]
        assert "/TrimBox" not in page and "/BleedBox" not in page, n


def test_the_back_of_a_partly_filled_last_sheet_mirrors_its_front(death_angel, tmp_path):
    """Death Angel's last sheet holds one row of cards: its back's TrimBox is that row's, mirrored."""
    for duplex in ("long-edge", "short-edge"):
        path = build_pdf(REPO, death_angel, "en", duplex=duplex, out=tmp_path / f"{duplex}.pdf").path
        n = len(PdfReader(str(path)).pages)
        report = check_pdf(path, duplex=duplex, pages=range(n - 4, n))
        assert report.problems == [], duplex
        front, back = report.pages[0], report.pages[1]
        assert front.has_cards and back.has_cards
        assert front.trim is not None and back.trim is not None
        assert front.trim[3] - front.trim[1] < 100 * MM  # one row: not the full sheet's box


def test_the_checker_finds_a_carried_over_box(tmp_path):
    """The check itself: a page without cards given a TrimBox (as reportlab
    carries one over when nothing resets it) is reported."""
    from cardkit.render.pdf import PdfDocument

    doc = PdfDocument((200.0, 200.0), "t")
    doc.set_boxes((50.0, 50.0, 150.0, 150.0), 3 * MM)
    doc.end_page()
    doc.canvas.setTrimBox((50.0, 50.0, 150.0, 150.0))  # the old carried-over state, by hand
    doc.end_page()
    report = check_pdf(doc.finish(), margin=0)
    assert any("page 2" in p and "TrimBox" in p for p in report.problems)
