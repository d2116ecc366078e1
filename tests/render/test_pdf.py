"""Open the generated PDFs again and inspect them (pypdf, pypdfium2)."""

from __future__ import annotations

import math
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from cardkit.layout.fonts import FontBook
from cardkit.layout.ops import Text
from cardkit.layout.sheet import back_slot, plan_sheet
from cardkit.layout.units import MM
from cardkit.load.project import load_project
from cardkit.printing import build_pdf, compose_set
from tests.conftest import REPO

PROJECT = load_project(REPO)
DA = PROJECT.card_set("death-angel")


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("pdf")
    return {loc: build_pdf(REPO, DA, loc, out=out / f"da-{loc}.pdf").path for loc in ("en", "fi", "ko")}


def _catalog(locale: str) -> dict[str, str]:
    from cardkit.strings.localize import Localizer

    loc = Localizer(REPO, locale, DA)
    return {s.msgctxt: loc.card(s.msgctxt) for s in DA.strings}


def test_page_count_size_and_boxes(pdfs):
    items, extras = compose_set(REPO, DA, "en")
    sheet = plan_sheet("a4", 63 * MM, 88 * MM, None)
    card_pages = math.ceil((len(items) + len(extras)) / sheet.per_page)
    reader = PdfReader(pdfs["en"])
    # calibration front+back, a front and a back per sheet, token sheet and its blank back
    assert len(reader.pages) == 2 + 2 * card_pages + 2
    for page in reader.pages:
        assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (595, 842)
    first_cards = reader.pages[2]
    x0, y0, x1, y1 = sheet.trim_box(sheet.per_page)
    trim = [float(v) for v in first_cards.trimbox]
    bleed = [float(v) for v in first_cards.bleedbox]
    assert trim == pytest.approx([x0, y0, x1, y1], abs=0.01)
    assert bleed == pytest.approx([x0 - sheet.bleed, y0 - sheet.bleed, x1 + sheet.bleed, y1 + sheet.bleed], abs=0.01)


def test_every_font_is_embedded(pdfs):
    for loc, path in pdfs.items():
        reader = PdfReader(path)
        seen = set()
        for page in reader.pages:
            fonts = page["/Resources"].get_object().get("/Font", {})
            for ref in fonts.values():
                font = ref.get_object()
                seen.add(font["/BaseFont"])
                desc = font.get("/FontDescriptor")
                if desc is None and "/DescendantFonts" in font:
                    desc = font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
                assert desc is not None, (loc, font["/BaseFont"])
                desc = desc.get_object()
                assert "/FontFile2" in desc, (loc, font["/BaseFont"])  # TrueType program embedded
        assert seen and all("+" in str(n) for n in seen), seen  # subset prefixes


def test_localized_text_on_expected_page(pdfs):
    items, _ = compose_set(REPO, DA, "en")
    index = next(i for i, it in enumerate(items) if it.front.id == "heroic_charge")
    page = 2 + 2 * (index // 9)
    for loc in ("en", "fi", "ko"):
        name = _norm(_catalog(loc)["heroic_charge.name"])
        assert name in _norm(PdfReader(pdfs[loc]).pages[page].extract_text()), (loc, name)
        # and not on the page before
        assert name not in _norm(PdfReader(pdfs[loc]).pages[page - 2].extract_text())


def _norm(text: str) -> str:
    """Text as extracted, without line breaks, hyphenation breaks and soft hyphens."""
    return " ".join(text.replace("\u00ad", "").replace("-\n", "").split())


def _slot_text(page: pdfium.PdfPage, sheet, slot: int) -> str:
    x, y = sheet.trim_xy(slot)
    tp = page.get_textpage()
    return tp.get_text_bounded(left=x, bottom=y, right=x + sheet.card_w, top=y + sheet.card_h)


def test_backs_are_mirrored_long_edge(pdfs):
    items, _ = compose_set(REPO, DA, "en")
    first_loc = next(i for i, it in enumerate(items) if it.deck == "location")
    page_index = first_loc // 9
    sheet = plan_sheet("a4", 63 * MM, 88 * MM, None)
    doc = pdfium.PdfDocument(str(pdfs["en"]))
    back = doc[2 + 2 * page_index + 1]
    for i in range(page_index * 9, min(len(items), page_index * 9 + 9)):
        it = items[i]
        if it.deck != "location":
            continue
        slot = i - page_index * 9
        target, turned = back_slot(sheet, slot, "long-edge")
        tier = next(c for c in DA.cards.values() if c.id == it.front.card).tier
        assert f"Tier {tier}" in _slot_text(back, sheet, target)


def test_short_edge_backs_turned(tmp_path):
    path = build_pdf(REPO, DA, "en", duplex="short-edge", out=tmp_path / "s.pdf").path
    sheet = plan_sheet("a4", 63 * MM, 88 * MM, None)
    doc = pdfium.PdfDocument(str(path))
    # page 3 holds marines 1-9: slot 0 is Gideon; his right-facing side must sit in the mirrored row
    target, turned = back_slot(sheet, 0, "short-edge")
    assert turned and target == 6
    assert "Gideon" in _slot_text(doc[3], sheet, target)
    assert "Gideon" not in _slot_text(doc[3], sheet, 0)


def test_no_text_outside_its_box():
    book = FontBook()
    for loc in ("en", "fi", "ko"):
        for set_id in ("death-angel", "deep-strike"):
            items, extras = compose_set(REPO, PROJECT.card_set(set_id), loc)
            for item in items + extras:
                for face in (item.front, item.back):
                    for f in face.fits if face else ():
                        x, y, w, h = f.box
                        for op in f.ops:
                            if not isinstance(op, Text):
                                continue
                            width = book.width(op.text, book.chain(op.locale, op.role), op.size)
                            assert op.x >= x - 0.01 and op.x + width <= x + w + 0.05, (loc, face.id, f.field, op.text)
                            assert y - 0.3 * op.size <= op.y <= y + h, (loc, face.id, f.field, op.text)


def test_two_builds_are_byte_identical(tmp_path):
    a = build_pdf(REPO, DA, "ko", out=tmp_path / "a.pdf").path.read_bytes()
    b = build_pdf(REPO, DA, "ko", out=tmp_path / "b.pdf").path.read_bytes()
    assert a == b


def test_every_card_is_in_the_pdf(pdfs):
    for loc in ("en", "fi", "ko"):
        text = _norm("\n".join(p.extract_text() for p in PdfReader(pdfs[loc]).pages))
        names = {k: v for k, v in _catalog(loc).items() if k.endswith(".name") and not k.startswith("set.")}
        missing = [k for k, v in names.items() if _norm(v) not in text]
        assert missing == [], loc


def test_deep_strike_cards_and_map_labels(tmp_path):
    ds = PROJECT.card_set("deep-strike")
    for loc in ("en", "fi", "ko"):
        path = build_pdf(REPO, ds, loc, out=tmp_path / f"ds-{loc}.pdf").path
        reader = PdfReader(path)
        text = " ".join(p.extract_text() for p in reader.pages)
        from cardkit.strings.localize import Localizer

        l10n = Localizer(REPO, loc, ds)
        assert l10n.ui("map.player_a") in text
        for sc in ds.cards:
            assert l10n.card(f"{sc}.name").split()[0] in text


def test_replayed_faces_write_what_drawing_them_writes(tmp_path):
    """A face placed again (a copy, a deck back) and an operation seen before are
    replayed from what their first drawing wrote: the document is byte for byte
    the one drawn op by op, turned backs included; a group holding a picture (a
    page resource) and an operation that cannot be a key are drawn every time."""
    from PIL import Image

    from cardkit.layout.ops import Group, Picture, Poly, Rect
    from cardkit.printing import place_face
    from cardkit.render.images import load_art
    from cardkit.render.pdf import PdfDocument

    Image.new("RGB", (8, 6), "#336699").save(tmp_path / "art.png")
    art = load_art(tmp_path / "art.png", "art.png")
    picture = Group((Rect(0, 0, 40, 30, fill="#ffffff"), Picture(0, 0, 40, 30, art.png, art.width, art.height)), dx=20, dy=800)
    items, extras = compose_set(REPO, DA, "ko")
    faces = [f for it in items + extras for f in (it.front, it.back) if f is not None]

    def build(replay: bool) -> tuple[bytes, int]:
        doc = PdfDocument((600, 850), "replay", replay=replay)
        for start in range(0, len(faces), 9):
            chunk = faces[start:start + 9]
            doc.draw([place_face(f, (i % 3) * 190, (i // 3) * 260, 8.5, i % 2 == 1) for i, f in enumerate(chunk)])
            if start % 2 == 0:
                doc.draw([picture, Poly([(0.0, 0.0), (30.0, 0.0), (15.0, 20.0)], fill="#aa0000")])  # type: ignore[arg-type]
            doc.end_page()
        return doc.finish(), doc.replayed

    fast, replayed = build(True)
    slow, drawn_again = build(False)
    assert drawn_again == 0
    assert replayed >= len(faces) - len({id(f) for f in faces}) > 100
    assert fast == slow


def test_ascii85_writes_what_reportlabs_encoder_writes():
    """The page streams' ASCII85 encoder gives reportlab's own encoding of any
    bytes: every length modulo 4, zero words (``z``), a zero last group, high
    bytes, and compressed page content."""
    import random
    import zlib

    from reportlab.lib.rl_accel import _py_asciiBase85Encode

    from cardkit.render.pdf import ascii85

    rng = random.Random(23)
    samples = [b"", b"\0", b"\0" * 4, b"\0" * 5, b"\0" * 7, b"\xff" * 9, b"\x01\0\0\0\0\0\0\0\x80",
               zlib.compress(b"BT 1 0 0 1 72 720 Tm (x) Tj T* ET\n" * 50)]
    samples += [bytes(rng.choice((0, 0, 0, 255, rng.randrange(256))) for _ in range(n)) for n in range(1, 90)]
    for data in samples:
        assert ascii85(data) == _py_asciiBase85Encode(data), data


def test_memo_fp_str_writes_what_reportlabs_formatter_writes():
    """The memo of reportlab's number formatter gives its text for any numbers:
    every magnitude, sign, ints, tiny values, a sequence argument, and numbers
    met again (from the memo); reportlab's modules write numbers through it."""
    import random

    from reportlab.lib.rl_accel import _py_fp_str
    from reportlab.pdfgen import canvas, pathobject, textobject

    from cardkit.render.pdf import memo_fp_str

    rng = random.Random(23)
    values: list[float] = [0, 0.0, -0.0, 1, -1, 1e-7, 1.5e-7, -1e-7, 0.5, 1.0, 1.2, 10, 100.25, 595.2756, 841.8898,
                           123456.789, 1e9, -3.14159, 2 ** 40 + 1, 0.999999, 9.9999996, True]
    values += [rng.uniform(-1000, 1000) for _ in range(300)] + [10 ** rng.uniform(-9, 8) for _ in range(300)]
    values += [round(rng.uniform(0, 600), rng.randrange(5)) for _ in range(300)]
    for _ in range(2):  # the second round reads the memo
        for v in values:
            assert memo_fp_str(v) == _py_fp_str(v), v
        for i in range(0, len(values) - 6, 5):
            group = values[i:i + 6]
            assert memo_fp_str(*group) == _py_fp_str(*group)
            assert memo_fp_str(group) == _py_fp_str(group)
            assert memo_fp_str(tuple(group)) == _py_fp_str(tuple(group))
    assert all(m.fp_str is memo_fp_str for m in (canvas, pathobject, textobject))
