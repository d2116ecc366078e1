"""The faces' `images:` option (docs/authoring.md): printer-friendly Tidelights lightens its night-time
art, measured on a rendered page (pdfium) before and after; greyscale and omit read back from the
PDF; a bad option is a located schema error."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image
from pypdf import PdfReader

from cardkit.errors import CardkitError
from cardkit.load.project import load_project
from cardkit.printing import build_pdf

REPO = Path(__file__).resolve().parents[2]
SHIPPED = "    images: {lighten: 0.65}\n"  # the printer-friendly variant's line in examples/tidelights


@pytest.fixture
def tidelights(tmp_path: Path) -> Path:
    root = tmp_path / "tidelights"
    shutil.copytree(REPO / "examples" / "tidelights", root, ignore=shutil.ignore_patterns("engine"))
    return root


def _with_images(root: Path, line: str) -> None:
    """The variant's `images:` line replaced by ``line`` (empty: none, left as a comment)."""
    faces = root / "cards" / "tidelights" / "faces.yaml"
    text = faces.read_text(encoding="utf-8")
    assert SHIPPED in REPO.joinpath("examples/tidelights/cards/tidelights/faces.yaml").read_text(encoding="utf-8")
    text, n = re.subn(r"    (# )?images: .*\n", line or "    # images: none\n", text)
    assert n == 1
    faces.write_text(text, encoding="utf-8")


def _build(root: Path, name: str) -> Path:
    card_set = load_project(root).card_set("tidelights")
    return build_pdf(root, card_set, "en", variant="printer-friendly", out=root / f"{name}.pdf").path


def _keeper_page(pdf: Path) -> int:
    """The first sheet of cards: the keepers' portraits (after the calibration pages)."""
    return next(i for i, p in enumerate(PdfReader(pdf).pages) if "Ottilie Brann" in p.extract_text())


def _ink(pdf: Path) -> tuple[float, float]:
    """(mean ink, share of dark pixels) of the keepers' page rendered at 50 ppi: ink is 1 - the mean
    of R, G and B (0 white paper, 1 solid black); dark is R + G + B below 3 x 90."""
    doc = pdfium.PdfDocument(str(pdf))
    try:
        image = doc[_keeper_page(pdf)].render(scale=50 / 72).to_pil().convert("RGB")
    finally:
        doc.close()
    data = image.tobytes()
    n = len(data) // 3
    sums = [data[i] + data[i + 1] + data[i + 2] for i in range(0, len(data), 3)]
    return sum(765 - s for s in sums) / 765 / n, sum(1 for s in sums if s < 270) / n


def _page_images(pdf: Path) -> list[Image.Image]:
    page = PdfReader(pdf).pages[_keeper_page(pdf)]
    return [Image.open(io.BytesIO(img.data)).convert("RGB") for img in page.images]


def test_printer_friendly_lightens_the_art(tidelights: Path):
    shipped = _ink(_build(tidelights, "lightened"))
    _with_images(tidelights, "")
    before = _ink(_build(tidelights, "as-drawn"))
    # measured: ink 14.5 % -> 9.4 %, dark pixels 9.7 % -> 0.9 % (the portraits' night skies)
    assert shipped[0] < 0.75 * before[0]
    assert shipped[1] < 0.2 * before[1]


def test_greyscale(tidelights: Path):
    _with_images(tidelights, "    images: {greyscale: true}\n")
    grey = _page_images(_build(tidelights, "grey"))
    assert len(grey) == 4  # the four keepers' portraits
    for im in grey:
        r, g, b = im.split()
        assert r.tobytes() == g.tobytes() == b.tobytes()


def test_omit_leaves_the_art_and_its_backdrop_out(tidelights: Path):
    _with_images(tidelights, "")
    drawn = _build(tidelights, "drawn")
    assert len(_page_images(drawn)) == 4
    _with_images(tidelights, "    images: {omit: true}\n")
    omitted = _build(tidelights, "omitted")
    assert _page_images(omitted) == []
    assert _ink(omitted)[0] < _ink(drawn)[0]


@pytest.mark.parametrize("line", ["    images: {lighten: 1.5}\n", "    images: {fade: 0.5}\n"])
def test_a_bad_images_option_is_a_located_schema_error(tidelights: Path, line: str):
    _with_images(tidelights, line)
    with pytest.raises(CardkitError) as err:
        _build(tidelights, "bad")
    (issue,) = err.value.issues
    faces = (tidelights / "cards" / "tidelights" / "faces.yaml").read_text(encoding="utf-8").splitlines()
    assert issue.file.endswith("faces.yaml") and re.search(r"images", faces[issue.line - 1]), issue
    assert not (tidelights / "bad.pdf").exists()


def test_the_default_build_draws_the_art_as_loaded(tidelights: Path):
    """Without a variant no `images:` applies: the PDF's portraits are the files' pixels."""
    from cardkit.render.images import load_art

    card_set = load_project(tidelights).card_set("tidelights")
    pdf = build_pdf(tidelights, card_set, "en", out=tidelights / "plain.pdf").path
    art = load_art(tidelights / "cards/tidelights/art/keeper-north.png", "cards/tidelights/art/keeper-north.png")
    loaded = Image.open(io.BytesIO(art.png)).convert("RGB")
    assert any(im.tobytes() == loaded.tobytes() for im in _page_images(pdf))
