"""Tokens in a one-sided sheet's free card slots (Death Angel, A4 landscape gutterfold):
the heading and the cutting instruction print on top of the first free slot, and what
the build reports (``BuildResult.furniture``) is what it printed; when they do not fit
there, the token page prints as a page of its own, with its heading and footer."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from cardkit.layout.units import MM
from cardkit.load.project import load_project
from cardkit.printing import build_pdf
from tests.conftest import REPO, set_translation
from tests.print.prepress import check_pdf


def _text_in(path: Path, page: int, box: tuple[float, float, float, float]) -> str:
    """The text pdfium finds inside ``box`` (x0, y0, x1, y1, points) of ``page``."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        text = pdf[page].get_textpage()
        return text.get_text_bounded(*box)
    finally:
        pdf.close()


def _dark_share(path: Path, page: int, box: tuple[float, float, float, float]) -> float:
    """The share of dark pixels in ``box`` of ``page`` rendered at 2 px a point."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        image = pdf[page].render(scale=2).to_pil().convert("L")
        height = image.height / 2
        x0, y0, x1, y1 = box
        crop = image.crop((int(2 * x0), int(2 * (height - y1)), int(2 * x1), int(2 * (height - y0))))
        hist = crop.histogram()
        return sum(hist[:128]) / sum(hist)
    finally:
        pdf.close()


def test_the_heading_and_instruction_print_in_the_first_free_slot_and_are_reported(tmp_path):
    card_set = load_project(REPO).card_set("death-angel")
    result = build_pdf(REPO, card_set, "en", paper="a4", layout="gutterfold", orientation="landscape",
                       out=tmp_path / "g.pdf")
    assert result.pages == 34
    sheet = result.sheets[-1]
    assert (sheet.cols, sheet.rows) == (2, 2)  # 129 cards: 1 on the last sheet, slots 1-3 free
    from cardkit.layout.sheet import plan_sheet

    plan = plan_sheet("a4", 63 * MM, 88 * MM, None, layout="gutterfold", orientation="landscape")
    x, y = plan.trim_xy(1)  # the first free slot
    top_band = (x, y + plan.card_h - 10 * MM, x + plan.card_w, y + plan.card_h)
    printed = " ".join(_text_in(result.path, 33, top_band).split())
    assert printed == "Support tokens and combat team markers Cut along the outlines.", printed
    assert _dark_share(result.path, 33, top_band) > 0.01  # drawn, not only present as text
    below = (x, y, x + plan.card_w, y + plan.card_h - 10 * MM)
    assert _text_in(result.path, 33, below).split().count("Support") == 6  # the discs below it

    places = {f.place: f for f in result.furniture}
    assert places["token slots, heading"].ok and places["token slots, instruction"].ok
    assert places["token slots, heading"].keys == ("ui:tokens.title",)
    assert "token page, heading" not in places and "token page footer" not in places  # no token page printed
    assert "the free card slot 61.0 mm" in places["token slots, heading"].detail
    assert check_pdf(result.path, pages=range(31, 34)).problems == []



def test_a_heading_too_wide_for_the_slot_gets_the_token_page_and_that_is_reported(project: Path, tmp_path):
    """A Finnish heading that fits the page (261 mm between its margins) but not a 63 mm
    slot even at 8 pt: the tokens go on a token page of their own, whose heading and footer
    print and are reported; nothing is reported for the free slots."""
    long = "Tukipelimerkit, taisteluparimerkit ja kaikki muut leikattavat merkit"
    set_translation(project, "fi", "death-angel", "tokens.title", long)
    card_set = load_project(project).card_set("death-angel")
    result = build_pdf(project, card_set, "fi", paper="a4", layout="gutterfold", orientation="landscape",
                       out=tmp_path / "fi.pdf")
    assert result.pages == 35  # the token page after the 33 sheets and the calibration page
    pdf = pdfium.PdfDocument(str(result.path))
    last = " ".join(pdf[34].get_textpage().get_text_range().split())
    before = pdf[33].get_textpage().get_text_range()
    pdf.close()
    assert long in last and "Leikkaa ääriviivoja pitkin." in last and "Tuki" in last
    assert "Tuki" not in before.split()
    places = {f.place for f in result.furniture}
    assert {"token page, heading", "token page, instruction", "token page footer"} <= places
    assert not any(p.startswith("token slots") for p in places)
