"""`--colour cmyk`, checked by readers cardkit did not write: Ghostscript renders
the Death Angel PDF to CMYK separations (tiff32nc, read with Pillow) for the
total ink per pixel and the plates text lands on; qpdf decompresses the file
for its page operators and dumps it as JSON for the output intent, the boxes
and the fonts (tests/system-deps.sh installs both)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageMath

from cardkit.load.project import load_project
from cardkit.print.presets import PRESETS
from cardkit.print.shop import card_pages_pdf
from cardkit.printing import build_pdf, compose_set
from cardkit.render.cmyk import ColourOptions, convert, image_to_cmyk, limit_ink
from tests.conftest import REPO

GS = shutil.which("gs") or "gs (run tests/system-deps.sh)"
QPDF = shutil.which("qpdf") or "qpdf (run tests/system-deps.sh)"


@pytest.fixture(scope="module")
def death_angel():
    return load_project(REPO).card_set("death-angel")


@pytest.fixture(scope="module")
def cmyk_pdf(death_angel, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("cmyk") / "da-cmyk.pdf"
    build_pdf(REPO, death_angel, "en", out=out, colours=ColourOptions("cmyk"))
    return out


def _separations(pdf: Path, tmp: Path, first: int = 1, last: int | None = None, res: int = 40) -> list[Image.Image]:
    """Ghostscript's CMYK render, one tiff32nc image (C, M, Y, K bands) per page."""
    pages = [f"-dFirstPage={first}"] + ([f"-dLastPage={last}"] if last else [])
    subprocess.run([GS, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiff32nc", f"-r{res}", *pages,
                    "-o", str(tmp / "p%03d.tif"), str(pdf)], check=True)
    return [Image.open(p) for p in sorted(tmp.glob("p*.tif"))]


def _max_total_ink(image: Image.Image) -> float:
    c, m, y, k = (b.convert("I") for b in image.split())
    total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=c, m=m, y=y, k=k)
    return total.getextrema()[1] / 255 * 100


def _qpdf_json(pdf: Path) -> dict:
    out = subprocess.run([QPDF, "--json=2", "--json-key=qpdf", "--json-key=pages", str(pdf)], check=True,
                         capture_output=True, text=True).stdout
    data = json.loads(out)
    return {"objects": data["qpdf"][1], "pages": data["pages"]}


def test_no_page_of_the_death_angel_pdf_is_above_the_ink_limit(cmyk_pdf, tmp_path):
    pages = _separations(cmyk_pdf, tmp_path)
    assert len(pages) == 38  # (3 mm bleed in CMYK: A4 landscape, 8 cards a sheet; issue 33)
    worst = max(_max_total_ink(p) for p in pages)
    assert 150 < worst <= 240  # dark backs do carry ink (the render is not empty), never above the limit


def test_a_lower_ink_limit_is_kept_too(death_angel, tmp_path):
    out = tmp_path / "da-200.pdf"
    build_pdf(REPO, death_angel, "en", out=out, colours=ColourOptions("cmyk", 180.0))
    pages = _separations(out, tmp_path, 3, 6)  # card fronts and backs with the darkest floods
    assert max(_max_total_ink(p) for p in pages) <= 180


def test_no_rgb_content_in_the_page_streams(cmyk_pdf, tmp_path):
    flat = tmp_path / "flat.pdf"
    subprocess.run([QPDF, "--qdf", "--object-streams=disable", str(cmyk_pdf), str(flat)], check=True)
    text = flat.read_bytes().decode("latin-1")
    ops = re.findall(r"(?m)(?:^|\s)(rg|RG|k|K|sc|scn|SC|SCN|g|G)$", text)
    assert "k" in ops and "K" in ops  # the reader sees the CMYK operators it should
    assert not {"rg", "RG", "sc", "scn", "SC", "SCN"} & set(ops)
    assert "/DeviceRGB" not in text and "/CalRGB" not in text and "/ICCBased" not in text


def test_the_rgb_build_is_caught_by_the_same_reader(death_angel, tmp_path):
    """The operator check can fail: the default (RGB) PDF writes rg."""
    out = tmp_path / "rgb.pdf"
    build_pdf(REPO, death_angel, "en", out=out)
    flat = tmp_path / "flat.pdf"
    subprocess.run([QPDF, "--qdf", "--object-streams=disable", str(out), str(flat)], check=True)
    assert re.search(r"(?m)\srg$", flat.read_bytes().decode("latin-1"))
    # and Ghostscript separates its near-black text into all four inks
    (page,) = _separations(out, tmp_path, 1, 1)
    assert max(b.getextrema()[1] for b in page.split()[:3]) > 0


def test_body_text_renders_in_the_k_plate_only(cmyk_pdf, tmp_path):
    """The calibration page: paragraphs of help text, labels and thin lines, no artwork."""
    (page,) = _separations(cmyk_pdf, tmp_path, 1, 1, res=100)
    c, m, y, k = page.split()
    assert k.getextrema()[1] == 255 and sum(k.histogram()[128:]) > 2000  # solid black text is there
    assert [c.getextrema(), m.getextrema(), y.getextrema()] == [(0, 0)] * 3


def test_event_card_body_text_knocks_out_to_k_only(cmyk_pdf, tmp_path):
    """A page of event cards: paragraphs of black text on paper-coloured boxes
    (paper is C, M and Y ink). Wherever K is solid, the other plates are empty."""
    (page,) = _separations(cmyk_pdf, tmp_path, 11, 11, res=150)
    c, m, y, k = page.split()
    solid = k.point(lambda v: 255 if v >= 250 else 0)
    assert sum(solid.histogram()[255:]) > 5000  # the text is there
    assert max(c.getextrema()[1], m.getextrema()[1], y.getextrema()[1]) > 100  # and so is colour
    for plate in (c, m, y):
        assert ImageChops.multiply(plate, solid).getextrema() == (0, 0)


def test_output_intent_info_boxes_and_embedded_fonts(cmyk_pdf):
    data = _qpdf_json(cmyk_pdf)
    objects = data["objects"]
    trailer = objects["trailer"]["value"]
    root = objects["obj:" + trailer["/Root"]]["value"]
    (intent,) = root["/OutputIntents"]
    assert intent["/S"] == "/GTS_PDFX" and intent["/Type"] == "/OutputIntent"
    assert intent["/OutputConditionIdentifier"] == "u:FOGRA39" and intent["/RegistryName"] == "u:http://www.color.org"
    info = objects["obj:" + trailer["/Info"]]["value"]
    assert info["/GTS_PDFXVersion"] == "u:PDF/X-1a:2003" and info["/Trapped"] == "/False"
    assert info["/Title"] not in ("u:", "u:untitled")
    assert "/ID" in trailer
    pages = data["pages"]
    assert len(pages) == 38  # (3 mm bleed in CMYK: A4 landscape, 8 cards a sheet; issue 33)
    for p in pages:
        page = objects["obj:" + p["object"]]["value"]
        media, trim, bleed = (page[key] for key in ("/MediaBox", "/TrimBox", "/BleedBox"))
        assert media[0] <= bleed[0] <= trim[0] and media[1] <= bleed[1] <= trim[1]
        assert trim[2] <= bleed[2] <= media[2] and trim[3] <= bleed[3] <= media[3]
    fonts = [o["value"] for o in objects.values() if isinstance(o.get("value"), dict)
             and o["value"].get("/Type") == "/FontDescriptor"]
    assert fonts and all("/FontFile2" in f or "/FontFile" in f or "/FontFile3" in f for f in fonts)
    base_fonts = [o["value"] for o in objects.values() if isinstance(o.get("value"), dict)
                  and o["value"].get("/Type") == "/Font" and o["value"].get("/Subtype") != "/Type0"]
    assert all("/FontDescriptor" in f for f in base_fonts if f.get("/Subtype") != "/Type3")


def test_shop_pdf_in_cmyk_has_the_card_boxes_and_no_rgb(tmp_path):
    card_set = load_project(REPO).card_set("deep-strike")
    items, extras = compose_set(REPO, card_set, "en")
    out = tmp_path / "shop.pdf"
    out.write_bytes(card_pages_pdf((items + extras)[:3], PRESETS["generic"], "shop", colours=ColourOptions("cmyk")))
    data = _qpdf_json(out)
    for p in data["pages"]:
        page = data["objects"]["obj:" + p["object"]]["value"]
        assert page["/MediaBox"] == page["/BleedBox"] and page["/TrimBox"] != page["/MediaBox"]
    flat = tmp_path / "flat.pdf"
    subprocess.run([QPDF, "--qdf", "--object-streams=disable", str(out), str(flat)], check=True)
    assert not re.search(r"(?m)\s(rg|RG)$", flat.read_bytes().decode("latin-1"))
    assert max(_max_total_ink(p) for p in _separations(out, tmp_path)) <= 240


def test_the_transform_keeps_k_and_scales_cmy_to_the_limit():
    assert convert("#000000", "text", 240) == (0.0, 0.0, 0.0, 1.0)
    assert convert("#1d1b18", "text", 240) == (0.0, 0.0, 0.0, 1.0)  # near-black ink: 100 % K
    assert convert("#1d1b18", "flood", 240)[:3] != (0.0, 0.0, 0.0)  # a large dark flood: rich black
    assert convert("#808080", "line", 240)[:3] == (0.0, 0.0, 0.0)
    c, m, y, k = convert("#000080", "fill", 240)  # navy: 100 + 100 + 0 + 50 before the limit
    assert k == pytest.approx(0.498, abs=0.01) and c + m + y + k == pytest.approx(2.4)
    assert convert("cmyk(0, 20, 100, 0)", "fill", 240) == (0.0, 0.2, 1.0, 0.0)
    assert sum(limit_ink((1.0, 1.0, 1.0, 1.0), 300)) == pytest.approx(3.0)


def test_artwork_is_converted_with_the_same_limit():
    image = Image.new("RGB", (4, 1))
    for x, colour in enumerate([(0, 0, 0), (255, 0, 0), (0, 0, 128), (255, 255, 255)]):
        image.putpixel((x, 0), colour)
    cmyk = image_to_cmyk(image, 240)
    assert cmyk.mode == "CMYK"
    px = [cmyk.getpixel((x, 0)) for x in range(4)]
    assert px[0] == (0, 0, 0, 255) and px[3] == (0, 0, 0, 0)
    assert px[1][1] > 250 and px[1][2] > 250 and px[1][0] == 0
    assert sum(px[2]) <= 240 * 255 / 100 and px[2][3] == 127


def test_bad_colour_options_are_all_reported(cli, tmp_path):
    result = cli("build", "pdf", "--root", str(REPO), "--set", "deep-strike", "--colour", "lab",
                 "--ink-limit", "50", "--out", str(tmp_path / "x.pdf"))
    assert result.code == 1 and "error[B050]" in result.err and "error[B051]" in result.err
    assert "Traceback" not in result.err and not (tmp_path / "x.pdf").exists()


@pytest.fixture(scope="module")
def cmyk_palette_game(tmp_path_factory) -> Path:
    """The starter game with CMYK palette and map colours (one of them lightened and darkened by the faces)."""
    from cardkit.scaffold import init_project

    root = tmp_path_factory.mktemp("cmykgame") / "game"
    init_project(root, "cmykgame")
    faces = root / "cards" / "cmykgame" / "faces.yaml"
    text = faces.read_text(encoding="utf-8")
    for old, new in (('paper: "#f6f1e4"', 'paper: "cmyk(0, 2, 8, 3)"'), ('gold: "#c9a227"', 'gold: "cmyk(0, 20, 100, 0)"'),
                     ('fire: "#a8402c"', 'fire: "cmyk(0, 75, 80, 30)"')):
        assert old in text
        text = text.replace(old, new)
    faces.write_text(text, encoding="utf-8")
    return root


def _flat_text(pdf: Path, tmp_path: Path) -> str:
    flat = tmp_path / "flat.pdf"
    subprocess.run([QPDF, "--qdf", "--object-streams=disable", str(pdf), str(flat)], check=True)
    return flat.read_bytes().decode("latin-1")


def test_cmyk_palette_colours_validate_and_print_as_given(cmyk_palette_game, cli, tmp_path):
    root = cmyk_palette_game
    assert cli("validate", "--root", str(root)).code == 0
    out = tmp_path / "cmyk.pdf"
    result = cli("build", "pdf", "--root", str(root), "--colour", "cmyk", "--out", str(out))
    assert result.code == 0, result.err
    text = _flat_text(out, tmp_path)
    assert re.search(r"(?m)^0 \.02 \.08 \.03 k$", text)  # paper, as given
    assert re.search(r"(?m)^0 \.75 \.8 \.3 k$", text)  # fire, as given
    assert not re.search(r"(?m)\s(rg|RG)$", text)


def test_cmyk_palette_colours_show_as_rgb_in_rgb_output(cmyk_palette_game, cli, tmp_path):
    out = tmp_path / "rgb.pdf"
    assert cli("build", "pdf", "--root", str(cmyk_palette_game), "--out", str(out)).code == 0
    text = _flat_text(out, tmp_path)
    assert not re.search(r"(?m)\s(k|K)$", text)  # an RGB file stays RGB
    # paper cmyk(0, 2, 8, 3): r, g, b = 0.97, 0.98 x 0.97, 0.92 x 0.97 = #f7f2e4
    assert re.search(r"(?m)^\.968627 \.94902 \.894118 rg$", text)


def test_a_cmyk_colour_above_100_per_cent_is_refused(cmyk_palette_game, cli, tmp_path):
    import shutil as sh

    root = tmp_path / "bad"
    sh.copytree(cmyk_palette_game, root)
    faces = root / "cards" / "cmykgame" / "faces.yaml"
    faces.write_text(faces.read_text(encoding="utf-8").replace("cmyk(0, 20, 100, 0)", "cmyk(0, 20, 120, 0)"),
                     encoding="utf-8")
    result = cli("validate", "--root", str(root))
    assert result.code == 1 and "faces.yaml:" in result.err and "cmyk(0, 20, 120, 0)" in result.err
