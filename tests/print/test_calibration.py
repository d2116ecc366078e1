"""The calibration page, measured with pdfium: a millimetre scale whose ticks
are 1 mm apart, and labels clear of the crosses' lines (point 6 of issue 23)."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdfium2 import raw

from cardkit.layout.units import MM
from cardkit.load.project import load_project
from cardkit.printing import build_pdf
from tests.print.threesizes import three_size_project


@pytest.fixture(scope="module")
def calibration(tmp_path_factory) -> Path:
    root = three_size_project(tmp_path_factory.mktemp("cal") / "game")
    return build_pdf(root, load_project(root).card_set("sizes"), "en", duplex="short-edge",
                     out=root / "cal.pdf").path


def _paths(page: pdfium.PdfPage) -> list[tuple[float, float, float, float]]:
    return [obj.get_bounds() for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_PATH], max_depth=8)]


def _glyphs(page: pdfium.PdfPage) -> list[tuple[str, tuple[float, float, float, float]]]:
    tp = page.get_textpage()
    text = tp.get_text_range()
    out = [(text[i], tp.get_charbox(i)) for i in range(tp.count_chars()) if i < len(text) and not text[i].isspace()]
    tp.close()
    return out


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_the_scale_has_a_tick_every_millimetre_over_100_mm(calibration):
    doc = pdfium.PdfDocument(str(calibration))
    page = doc[0]  # the tarot cards' calibration front
    ticks = sorted(((left + right) / 2, (top - bottom) / MM) for left, bottom, right, top in _paths(page)
                   if right - left < 1.0 and 1.2 < (top - bottom) / MM < 4.0)
    doc.close()
    assert len(ticks) == 101
    xs = [x for x, _ in ticks]
    assert all(abs((b - a) - MM) < 0.01 for a, b in pairwise(xs))
    assert abs(xs[-1] - xs[0] - 100 * MM) < 0.01
    # longer every 5 and every 10 mm (the bounds take in the 0.3 pt line width)
    expected = [3.5 if i % 10 == 0 else 2.5 if i % 5 == 0 else 1.5 for i in range(101)]
    assert all(abs(h - e - 0.3 * 2 / MM) < 0.05 for (_, h), e in zip(ticks, expected))


@pytest.mark.parametrize("index", range(6))  # the fronts and (turned, short-edge) backs of all three sizes
def test_labels_are_clear_of_every_line(calibration, index):
    doc = pdfium.PdfDocument(str(calibration))
    calibration_pages = [i for i in range(len(doc)) if "alibration" in doc[i].get_textpage().get_text_range()]
    page = doc[calibration_pages[index]]
    paths = _paths(page)
    # the help box (white, drawn over the slots it covers) is the smallest path around the scale's base line
    # (on a front page; a back page has none)
    base = next((b for b in paths if abs((b[2] - b[0]) / MM - 100) < 1 and b[3] - b[1] < 1), None)
    box = None if base is None else min(
        (b for b in paths if b[0] < base[0] and b[2] > base[2] and b[1] < base[1] and b[3] > base[3]),
        key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
    assert (base is None) == (index % 2 == 1)

    def outside_box(b) -> bool:
        return box is None or not (box[0] <= b[0] and b[2] <= box[2] and box[1] <= b[1] and b[3] <= box[3])

    marks = [b for b in paths if (b[2] - b[0]) < 30 * MM and (b[3] - b[1]) < 30 * MM and outside_box(b)]
    labels = [g for g in _glyphs(page) if g[0].isalnum() and outside_box(g[1])]
    doc.close()
    assert len(labels) > 20
    hits = [(ch, box) for ch, box in labels for m in marks if _overlap(box, m)]
    assert hits == []
