"""Print-service files, measured: pages and boxes to the point (pypdf), images
to the pixel (Pillow), on the starter game of `cardkit init` made poker-sized."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from cardkit.load.project import load_project
from cardkit.print.presets import PRESETS
from cardkit.print.shop import build_shop
from cardkit.scaffold import init_project


@pytest.fixture(scope="module")
def poker_game(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("poker") / "game"
    init_project(root, "poker")
    faces = root / "cards" / "poker" / "faces.yaml"
    faces.write_text(faces.read_text(encoding="utf-8").replace("size: [63mm, 88mm]", "size: poker"), encoding="utf-8")
    return root


def _build(root: Path, name: str, tmp_path: Path):
    return build_shop(root, load_project(root).card_set("poker"), "en", PRESETS[name], out_dir=tmp_path / name)


def _png_chunks(data: bytes) -> dict[bytes, bytes]:
    pos, chunks = 8, {}
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], "big")
        kind = data[pos + 4:pos + 8]
        chunks.setdefault(kind, data[pos + 8:pos + 8 + n])
        pos += 12 + n
    return chunks


def test_the_game_crafter_pngs_are_825_by_1125_pixels_srgb(poker_game, tmp_path):
    result = _build(poker_game, "thegamecrafter", tmp_path)
    assert result.pdfs == [] and len(result.pngs) == 2 * 5  # 5 cards (Spark twice), front and back each
    for path in result.pngs:
        data = path.read_bytes()
        with Image.open(io.BytesIO(data)) as im:
            assert im.size == (825, 1125) and im.mode == "RGB"  # 2.75 x 3.75 in at 300 ppi
            assert [round(v) for v in im.info["dpi"]] == [300, 300]
        chunks = _png_chunks(data)
        assert chunks[b"sRGB"] == b"\x00" and b"gAMA" in chunks
    fronts = sorted(p.name for p in result.pngs if "-front-" in p.name)
    assert fronts[0] == "001-front-ember_knight.png"


def test_drivethrucards_pdf_pages_are_the_card_with_eighth_inch_bleed_back_first(poker_game, tmp_path):
    result = _build(poker_game, "drivethrucards", tmp_path)
    assert result.pngs == [] and [p.name for p in result.pdfs] == ["poker-en-heroes.pdf", "poker-en-spells.pdf"]
    reader = PdfReader(result.pdfs[0])
    assert len(reader.pages) == 2 * 2  # two heroes, back then front each
    for page in reader.pages:
        assert [float(v) for v in page.mediabox] == [0, 0, 198, 270]  # 2.75 x 3.75 in
        assert [float(v) for v in page.bleedbox] == [0, 0, 198, 270]
        assert [round(float(v), 3) for v in page.trimbox] == [9, 9, 189, 261]  # 2.5 x 3.5 in, 1/8 in in
    texts = [p.extract_text() for p in reader.pages]
    assert "Hero" in texts[0] and "Ember Knight" not in texts[0]
    assert "Ember Knight" in texts[1]


def test_generic_preset_three_millimetre_bleed_front_first(poker_game, tmp_path):
    result = _build(poker_game, "generic", tmp_path)
    (pdf,) = result.pdfs
    reader = PdfReader(pdf)
    assert len(reader.pages) == 2 * 5
    mm = 72 / 25.4
    first = reader.pages[0]
    assert [round(float(v) / mm, 2) for v in first.mediabox] == [0, 0, 69.5, 94.9]
    assert [round(float(v) / mm, 2) for v in first.trimbox] == [3, 3, 66.5, 91.9]
    assert "Ember Knight" in first.extract_text()
    with Image.open(result.pngs[0]) as im:
        assert im.size == (round(69.5 / 25.4 * 300), round(94.9 / 25.4 * 300)) == (821, 1121)


def test_an_unprintable_size_and_an_unknown_preset_are_refused(tmp_path, cli):
    root = tmp_path / "game"
    init_project(root, "odd")  # 63 x 88 mm: not a size The Game Crafter prints
    result = cli("build", "shop", "--root", str(root), "--preset", "thegamecrafter")
    assert result.code == 1 and "error[B011]" in result.err and "63 x 88 mm" in result.err
    assert not (root / "output").exists()
    bad = cli("build", "shop", "--root", str(root), "--preset", "kinkos")
    assert bad.code == 1 and "error[B010]" in bad.err


def test_shop_files_are_byte_identical_on_rebuild(poker_game, tmp_path):
    a = _build(poker_game, "generic", tmp_path / "a")
    b = _build(poker_game, "generic", tmp_path / "b")
    assert [p.read_bytes() for p in a.pdfs] == [p.read_bytes() for p in b.pdfs]
    assert [p.read_bytes() for p in a.pngs] == [p.read_bytes() for p in b.pngs]


def test_a_size_no_product_takes_names_the_nearest_products_and_what_each_needs(cli):
    """Deep Strike's 95 x 135 mm cards: no product of either service is within --fit
    scale's 3 % (or --fit pad's 1.5 mm a side), so the build is refused, B011, one line,
    nothing written; the line names the products nearest in size and in proportions with
    their sizes and the scale each would need, so that the user can choose a face size."""
    from tests.conftest import REPO

    for preset in ("thegamecrafter", "drivethrucards"):
        result = cli("build", "shop", "--root", str(REPO), "--set", "deep-strike", "--preset", preset, "--fit", "scale")
        lines = [ln for ln in result.err.splitlines() if ln.strip()]
        assert result.code == 1 and len(lines) == 1 and "error[B011]" in lines[0], result.err
        line = lines[0]
        assert "no product within --fit scale's 97-103 % and 2 % in proportions for this 95 x 135 mm card" in line
        assert "nearest in proportions: mini (44.45 x 63.5 mm: scale 47.0 %, proportions 0.5 % off)" in line
        assert "poker (63.5 x 88.9 mm: scale 66.8 %, proportions 1.5 % off)" in line
        assert ("jumbo (88.9 x 146.05 mm" in line) is (preset == "thegamecrafter")  # DriveThruCards sells no jumbo
        assert "Traceback" not in result.err
    assert not (REPO / "output" / "shop" / "thegamecrafter" / "deep-strike-en").exists()
    pad = PRESETS["thegamecrafter"].fit(41 * 72 / 25.4, 63 * 72 / 25.4, "pad")  # a mini of the sizes game
    assert isinstance(pad, str) and "mini (44.45 x 63.5 mm: 1.72 mm a side wider, 0.25 mm at top and bottom longer)" in pad
