"""Every font in a PDF with SVG icons is embedded: the SVG renderer starts from
the embedded default font, not reportlab's unembedded Helvetica (issue 23)."""

from __future__ import annotations

from pypdf import PdfReader

from cardkit.load.project import load_project
from cardkit.printing import build_pdf
from tests.conftest import REPO

EXAMPLE = REPO / "examples" / "tidelights"


def test_a_set_with_svg_icons_embeds_every_font(tmp_path):
    project = load_project(EXAMPLE)
    (set_id,) = project.sets
    path = build_pdf(EXAMPLE, project.card_set(set_id), "en", out=tmp_path / "t.pdf").path
    reader = PdfReader(path)
    fonts = {}
    for page in reader.pages:
        for ref in page["/Resources"].get_object().get("/Font", {}).values():
            font = ref.get_object()
            desc = font.get("/FontDescriptor")
            if desc is None and "/DescendantFonts" in font:
                desc = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            fonts[str(font["/BaseFont"])] = desc is not None and "/FontFile2" in desc.get_object()
    assert fonts and all(fonts.values()), fonts
