"""Golden renders: a few cards per locale rasterized and compared with committed
PNGs, with a tolerance for anti-aliasing differences between pdfium builds.

Regenerate after an intended design change with
``CARDKIT_REGEN_GOLDEN=1 pytest tests/render/test_golden.py`` and look at the
new images before committing them.
"""

from __future__ import annotations

import io
import os

import pytest
from PIL import Image, ImageChops, ImageStat

from cardkit.load.project import load_project
from cardkit.printing import compose_set, face_pdf
from cardkit.render.images import rasterize
from tests.conftest import REPO

GOLDEN = REPO / "tests" / "golden"
# at least one face of every kind of both bundled sets, and every back
CASES = [("death-angel", "heroic_charge"), ("death-angel", "genestealer_lair"), ("death-angel", "out_of_thin_air#1"),
         ("death-angel", "void_lock_3_6p"), ("deep-strike", "ds6_fallen_thunderhawk:front"),
         ("death-angel", "brother_claudio:left"), ("death-angel", "brother_claudio:right"),
         ("death-angel", "main_corridor"), ("death-angel", "corridor"), ("death-angel", "artefact"),
         ("death-angel", "genestealer_claw"), ("death-angel", "brood_lord_a"), ("death-angel", "quick_reference"),
         ("death-angel", "back:action:"), ("death-angel", "back:event:"), ("death-angel", "back:genestealer:"),
         ("death-angel", "back:brood_lord:"), ("death-angel", "back:terrain:"), ("death-angel", "back:location:1A"),
         ("death-angel", "back:setup:"), ("deep-strike", "ds6_fallen_thunderhawk:back")]
DPI = 100


def _render(set_id: str, face_id: str, locale: str) -> Image.Image:
    items, extras = compose_set(REPO, load_project(REPO).card_set(set_id), locale)
    face = next(f for it in items + extras for f in (it.front, it.back) if f is not None and f.id == face_id)
    return rasterize(face_pdf(face, 0), DPI / 72)


@pytest.mark.parametrize("locale", ["en", "fi", "ko"])
@pytest.mark.parametrize("set_id, face_id", CASES)
def test_golden(set_id: str, face_id: str, locale: str):
    image = _render(set_id, face_id, locale)
    path = GOLDEN / f"{face_id.replace(':', '_').replace('#', '-')}-{locale}.png"
    if os.environ.get("CARDKIT_REGEN_GOLDEN"):
        buf = io.BytesIO()
        image.save(buf, format="PNG")
        path.write_bytes(buf.getvalue())
    assert path.is_file(), f"missing golden {path.name}: run with CARDKIT_REGEN_GOLDEN=1 and inspect it"
    golden = Image.open(path).convert("RGB")
    assert golden.size == image.size
    diff = ImageChops.difference(golden, image)
    # tolerance: mean channel difference under 1.5 (of 255) and under 0.5 % of pixels off by more than 48
    mean = sum(ImageStat.Stat(diff).mean) / 3
    changed = diff.convert("L").point(lambda v: 255 if v > 48 else 0).histogram()[255] / (image.width * image.height)
    assert mean < 1.5 and changed < 0.005, f"{path.name}: mean diff {mean:.2f}, {changed:.2%} of pixels changed"
