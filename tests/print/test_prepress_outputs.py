"""The prepress check over every output kind of every bundled set (Death
Angel, Deep Strike, the Tidelights example) and the mixed-size test game:
sheets in every layout, colour path, paper and variant, inserts, the print
services' one-card-per-page PDFs.  Kept fast: each set is composed once, and
of a long PDF the first and last pages are checked (where the calibration,
the partly filled last sheet and the token page are)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardkit.layout.units import INCH, MM
from cardkit.load.project import load_project
from cardkit.print.presets import PRESETS
from cardkit.printing import build_pdf, composed_once
from cardkit.render.cmyk import ColourOptions
from tests.print.prepress import check_pdf
from tests.print.threesizes import three_size_project

REPO = Path(__file__).resolve().parents[2]
CMYK = ColourOptions("cmyk", 240.0)
RGB = ColourOptions("rgb", 240.0)

# (name, build_pdf options, duplex for the mirror check, minimum bleed)
KINDS = [
    ("grid", {}, "long-edge", 1 * MM),
    ("cmyk", {"colours": CMYK}, "long-edge", 3 * MM),
    ("letter-short-edge", {"paper": "letter", "duplex": "short-edge"}, "short-edge", 1 * MM),
    ("shared-edge", {"layout": "shared-edge"}, "long-edge", 1 * MM),
    ("gutterfold", {"layout": "gutterfold"}, None, 1 * MM),
    ("a3-landscape-cmyk", {"paper": "a3", "orientation": "landscape", "colours": CMYK}, "long-edge", 3 * MM),
    ("printer-friendly", {"variant": "printer-friendly"}, "long-edge", 1 * MM),
    ("inserts", {"mode": "inserts"}, None, 1 * MM),
]


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> Iterator[dict[str, tuple[Path, object]]]:
    sizes = three_size_project(tmp_path_factory.mktemp("sizes") / "game")
    tide = REPO / "examples" / "tidelights"
    with composed_once():
        yield {"death-angel": (REPO, load_project(REPO).card_set("death-angel")),
               "deep-strike": (REPO, load_project(REPO).card_set("deep-strike")),
               "tidelights": (tide, load_project(tide).card_set("tidelights")),
               "sizes": (sizes, load_project(sizes).card_set("sizes"))}


def _ends(path: Path, n: int = 4) -> list[range]:
    pages = len(PdfReader(str(path)).pages)
    return [range(pages)] if pages <= 2 * n else [range(0, n), range(pages - n, pages)]


GAMES = ["death-angel", "deep-strike", "tidelights", "sizes"]
CASES = [pytest.param(game, *kind, id=f"{game}-{kind[0]}") for game in GAMES for kind in KINDS
         if not (game == "sizes" and kind[0] == "printer-friendly")]  # (the test game declares no variant)


@pytest.mark.parametrize("game,kind,options,duplex,least", CASES)
def test_every_sheet_kind_passes(games, tmp_path, game, kind, options, duplex, least):
    root, card_set = games[game]
    result = build_pdf(root, card_set, "en", out=tmp_path / f"{kind}.pdf", **options)
    problems = []
    for pages in _ends(result.path):
        report = check_pdf(result.path, cmyk="colours" in options, min_bleed=least, pages=pages,
                           duplex=duplex if kind != "inserts" else None)
        problems += report.problems
    assert problems == []


@pytest.mark.parametrize("preset,colours", [("generic", RGB), ("generic", CMYK), ("drivethrucards", CMYK)])
@pytest.mark.parametrize("game", ["deep-strike", "tidelights", "sizes"])
def test_every_service_pdf_passes(games, tmp_path, monkeypatch, game, preset, colours):
    from cardkit.errors import CardkitError
    from cardkit.print import shop

    monkeypatch.setattr(shop, "face_png", lambda face, preset, fit=None: b"")  # (PNGs: test_paper_bleed_fit)
    root, card_set = games[game]
    p = PRESETS[preset]
    try:
        result = shop.build_shop(root, card_set, "en", p, out_dir=tmp_path / "s", colours=colours, fit="scale")
    except CardkitError as exc:  # Deep Strike's 95 x 135 mm and the minis are no product of DriveThruCards
        assert preset == "drivethrucards" and all(i.code == "B011" for i in exc.issues)
        return
    assert result.pdfs
    for pdf in result.pdfs:
        report = check_pdf(pdf, margin=0, min_bleed=p.bleed, cmyk=colours.space == "cmyk", card_pages=False,
                           pages=_ends(pdf, 3)[0])
        assert report.problems == [], pdf.name
        if preset == "drivethrucards":
            trim = PdfReader(str(pdf)).pages[0].trimbox
            assert round(float(trim.left) / INCH, 3) == 0.125
