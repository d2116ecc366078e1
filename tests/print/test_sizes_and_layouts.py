"""Sheets for a set with three card sizes, in every layout, on A4 and Letter,
measured from the PDF: every card's frame (a stroked rectangle centred on its
trim) is found with pdfium, so the trims of fronts and backs come from the
file, not from cardkit's own plan."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader
from pypdfium2 import raw

from cardkit.layout.sheet import plan_sheet
from cardkit.layout.units import INCH, MM
from cardkit.load.project import load_project
from cardkit.printing import build_pdf
from tests.print.threesizes import three_size_project

SIZES = {"tarot": (70.0, 120.0), "mini landscape": (63.0, 41.0), "mini": (41.0, 63.0)}
FRONT_INSET, BACK_INSET = 3.0, 4.0  # mm: the frames the test faces draw
STARTER_INSET = 3.2  # mm: the border of the `cardkit init` starter's faces (clear of the 3 mm safe zone)
MARGIN = 4 * MM


@pytest.fixture(scope="module")
def sizes_project(tmp_path_factory) -> Path:
    return three_size_project(tmp_path_factory.mktemp("sizes") / "game")


def _card_set(root: Path):
    return load_project(root).card_set("sizes")


def _frames(page: pdfium.PdfPage) -> list[tuple[str, str, float, float]]:
    """(size name, "front" or "back", centre x, centre y) of every card frame on the page."""
    out = []
    for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_PATH], max_depth=8):
        left, bottom, right, top = obj.get_bounds()
        w, h = (right - left) / MM, (top - bottom) / MM
        for name, (cw, ch) in SIZES.items():
            for side, inset in (("front", FRONT_INSET), ("back", BACK_INSET)):
                # the bounds take in the 0.8 pt line width (pdfium counts it twice)
                if 0 <= w - (cw - 2 * inset) < 0.7 and 0 <= h - (ch - 2 * inset) < 0.7:
                    out.append((name, side, (left + right) / 2, (bottom + top) / 2))
    return out


def _pages(path: Path) -> list[list[tuple[str, str, float, float]]]:
    doc = pdfium.PdfDocument(str(path))
    try:
        return [_frames(doc[i]) for i in range(len(doc))]
    finally:
        doc.close()


def _key(frames, side):
    return sorted((n, round(x, 2), round(y, 2)) for n, s, x, y in frames if s == side)


def _check_trims_inside(frames, page_w: float, page_h: float, bleed: float) -> None:
    for name, _, x, y in frames:
        w, h = (v * MM for v in SIZES[name])
        for gap in (x - w / 2, page_w - x - w / 2, y - h / 2, page_h - y - h / 2):
            assert gap >= MARGIN + bleed - 0.01, (name, gap / MM, bleed / MM)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("layout", ["grid", "shared-edge"])
@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
def test_every_back_is_behind_its_front(sizes_project, tmp_path, paper, layout, duplex):
    path = build_pdf(sizes_project, _card_set(sizes_project), "en", paper=paper, duplex=duplex, layout=layout,
                     out=tmp_path / "s.pdf").path
    reader = PdfReader(path)
    pages = _pages(path)
    seen: dict[str, int] = {}
    for i in range(len(pages) - 1):
        fronts = [f for f in pages[i] if f[1] == "front"]
        if not fronts:
            continue
        # (each size's sheets take the orientation that holds more of its cards)
        page_w, page_h = float(reader.pages[i].mediabox.width), float(reader.pages[i].mediabox.height)
        backs = pages[i + 1]
        assert all(f[1] == "back" for f in backs) and len(backs) == len(fronts)
        if (duplex == "long-edge") == (page_w <= page_h):  # the flip turns the paper about its long or short side
            mirrored = [(n, "back", page_w - x, y) for n, _, x, y in fronts]
        else:
            mirrored = [(n, "back", x, page_h - y) for n, _, x, y in fronts]
        assert _key(backs, "back") == _key(mirrored, "back")
        page = reader.pages[i]
        bleed = float(page.trimbox.left) - float(page.bleedbox.left)
        _check_trims_inside(fronts + backs, page_w, page_h, bleed)
        for name, *_ in fronts:
            seen[name] = seen.get(name, 0) + 1
    # 2 tarot heroes, 3 landscape spells (Spark twice), 11 portrait relics
    assert seen == {"tarot": 2, "mini landscape": 3, "mini": 11}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_gutterfold_backs_mirror_their_fronts_about_the_fold(sizes_project, tmp_path, paper):
    path = build_pdf(sizes_project, _card_set(sizes_project), "en", paper=paper, layout="gutterfold",
                     out=tmp_path / "g.pdf").path
    reader = PdfReader(path)
    seen = card_pages = 0
    for i, frames in enumerate(_pages(path)):
        fronts = [f for f in frames if f[1] == "front"]
        if not fronts:
            continue
        page_w, page_h = float(reader.pages[i].mediabox.width), float(reader.pages[i].mediabox.height)
        card_pages += 1
        about_x = [(n, "back", page_w - x, y) for n, _, x, y in fronts]  # a vertical fold at the middle
        about_y = [(n, "back", x, page_h - y) for n, _, x, y in fronts]  # a horizontal one
        assert _key(frames, "back") in (_key(about_x, "back"), _key(about_y, "back"))
        page = reader.pages[i]
        _check_trims_inside(frames, page_w, page_h, float(page.trimbox.left) - float(page.bleedbox.left))
        seen += len(fronts)
    assert seen == 16
    assert len(reader.pages) == 3 + card_pages  # a calibration page per size; no back pages


def _margin_is_blank(path: Path, margin: float) -> list[int]:
    """Pages with a non-white pixel within ``margin`` of the paper edge (rendered at 100 dpi)."""
    dirty = []
    doc = pdfium.PdfDocument(str(path))
    try:
        for i in range(len(doc)):
            image = doc[i].render(scale=100 / 72).to_pil().convert("L")
            px = int(margin / 72 * 100) - 1  # the last whole pixel row inside the margin
            w, h = image.size
            for box in ((0, 0, w, px), (0, h - px, w, h), (0, 0, px, h), (w - px, 0, w, h)):
                if image.crop(box).getextrema()[0] < 250:
                    dirty.append(i)
                    break
    finally:
        doc.close()
    return dirty


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("layout", ["grid", "shared-edge", "gutterfold"])
def test_nothing_is_drawn_in_the_printer_margin(sizes_project, tmp_path, paper, layout):
    path = build_pdf(sizes_project, _card_set(sizes_project), "en", paper=paper, layout=layout,
                     out=tmp_path / "m.pdf").path
    assert _margin_is_blank(path, MARGIN) == []


def test_a_wider_margin_is_kept_clear_too(sizes_project, tmp_path):
    path = build_pdf(sizes_project, _card_set(sizes_project), "en", paper="letter", margin=9 * MM,
                     out=tmp_path / "m9.pdf").path
    assert _margin_is_blank(path, 9 * MM) == []
    # and it fails when measured against more than was kept clear
    assert _margin_is_blank(path, 25 * MM) != []


def test_poker_nine_a_page_in_shared_edge_with_eighth_inch_bleed():
    a4 = plan_sheet("a4", 63.5 * MM, 88.9 * MM, 0.125 * INCH, layout="shared-edge")
    assert (a4.cols, a4.rows) == (3, 3)
    # on Letter 9 poker cards with 1/8 in bleed leave 6.35 mm at top and bottom: a 3 mm margin
    letter = plan_sheet("letter", 63.5 * MM, 88.9 * MM, 0.125 * INCH, layout="shared-edge", margin=3 * MM)
    assert (letter.cols, letter.rows) == (3, 3)
    # with the default 4 mm margin the bleed would enter it: one row fewer, never clipped
    assert plan_sheet("letter", 63.5 * MM, 88.9 * MM, 0.125 * INCH, layout="shared-edge").rows == 2
    # and Letter with 3 mm bleed in the grid works (fewer cards, instead of B002)
    grid = plan_sheet("letter", 63.5 * MM, 88.9 * MM, 3 * MM)
    assert grid.per_page >= 4


def test_a_card_too_big_for_the_paper_says_what_it_needs():
    from cardkit.errors import CardkitError

    with pytest.raises(CardkitError) as err:
        plan_sheet("a4", 200 * MM, 290 * MM, 3 * MM)
    (issue,) = err.value.issues
    assert issue.code == "B002" and "needs 214.0 x 304.0 mm" in issue.message and "--margin" in issue.message


@pytest.fixture(scope="module")
def poker_game(tmp_path_factory) -> Path:
    """The starter game on poker cards, with 14 heroes and 3 spells."""
    from cardkit.scaffold import init_project

    root = tmp_path_factory.mktemp("poker") / "game"
    init_project(root, "poker")
    set_dir = root / "cards" / "poker"
    faces = set_dir / "faces.yaml"
    faces.write_text(faces.read_text(encoding="utf-8").replace("size: [63mm, 88mm]", "size: poker"), encoding="utf-8")
    heroes = set_dir / "heroes.yaml"
    extra = "".join(f"  - id: hero_{i}\n    name: \"Hero {i}\"\n    element: earth\n    power: 1\n    text: \"Nothing.\"\n"
                    for i in range(12))
    heroes.write_text(heroes.read_text(encoding="utf-8") + extra, encoding="utf-8")
    manifest = set_dir / "set.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("cards: 5", "cards: 17"), encoding="utf-8")
    return root


def _poker_frames(page: pdfium.PdfPage) -> list[tuple[float, float]]:
    """Centres of the starter faces' border (STARTER_INSET inside the trim, 0.8 pt wide) on a poker card."""
    out = []
    for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_PATH], max_depth=8):
        left, bottom, right, top = obj.get_bounds()
        if 0 <= (right - left) / MM - (63.5 - 2 * STARTER_INSET) < 0.7 and 0 <= (top - bottom) / MM - (88.9 - 2 * STARTER_INSET) < 0.7:
            out.append(((left + right) / 2, (bottom + top) / 2))
    return out


@pytest.mark.parametrize("paper, margin", [("a4", 4 * MM), ("letter", 3 * MM)])
def test_nine_poker_cards_a_page_on_shared_cut_lines(poker_game, tmp_path, paper, margin):
    card_set = load_project(poker_game).card_set("poker")
    path = build_pdf(poker_game, card_set, "en", paper=paper, layout="shared-edge", bleed=0.125 * INCH,
                     margin=margin, out=tmp_path / "p.pdf").path
    reader = PdfReader(path)
    doc = pdfium.PdfDocument(str(path))
    first = _poker_frames(doc[2])  # after the calibration front and back
    assert len(first) == 9
    xs = sorted({round(x, 2) for x, _ in first})
    ys = sorted({round(y, 2) for _, y in first})
    # butted: neighbouring trims share a cut line, so centres are exactly one card apart
    assert [round((b - a) / MM, 2) for a, b in pairwise(xs)] == [63.5, 63.5]
    assert [round((b - a) / MM, 2) for a, b in pairwise(ys)] == [88.9, 88.9]
    page = reader.pages[2]
    trim, bleed = page.trimbox, page.bleedbox
    assert round((float(trim.left) - float(bleed.left)) / INCH, 4) == 0.125  # outer bleed 1/8 in
    assert [round(float(v), 2) for v in (trim.left, trim.bottom)] == [round(xs[0] - 31.75 * MM, 2), round(ys[0] - 44.45 * MM, 2)]
    pw, ph = float(page.mediabox.width), float(page.mediabox.height)
    assert min(float(trim.left), float(trim.bottom), pw - float(trim.right), ph - float(trim.top)) >= margin + 9 - 0.01
    assert _margin_is_blank(path, margin) == []
    doc.close()


def test_poker_gutterfold_backs_mirror_fronts(poker_game, tmp_path):
    card_set = load_project(poker_game).card_set("poker")
    path = build_pdf(poker_game, card_set, "en", layout="gutterfold", out=tmp_path / "g.pdf",
                     orientation="portrait").path
    doc = pdfium.PdfDocument(str(path))
    page_w = doc[1].get_width()
    frames = _poker_frames(doc[1])
    doc.close()
    left = sorted((round(x, 2), round(y, 2)) for x, y in frames if x < page_w / 2)
    right = sorted((round(page_w - x, 2), round(y, 2)) for x, y in frames if x > page_w / 2)
    assert len(left) == 3 and left == right  # A4: one column of three each side of a vertical fold
