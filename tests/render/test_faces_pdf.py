"""One document of many faces (the review page's images) rasterizes to the same
pixels as each face's own document (``cardkit build png``'s), with ASCII85 or
binary streams."""

from __future__ import annotations

from reportlab import rl_config

from cardkit.load.project import load_project
from cardkit.printing import compose_set, face_pdf, faces_by_id, faces_pdf
from cardkit.render.images import rasterize, rasterize_pages
from cardkit.render.pdf import binary_streams
from tests.conftest import REPO


def test_faces_in_one_document_rasterize_as_each_alone():
    card_set = load_project(REPO).card_set("deep-strike")
    items, extras = compose_set(REPO, card_set, "ko")
    faces = faces_by_id(items + extras)[:6]  # fronts and backs, Korean text, maps, art
    alone = [rasterize(face_pdf(f, 0), 1.0).tobytes() for f in faces]
    ascii_doc = faces_pdf(faces, 0, "review")
    binary_doc = faces_pdf(faces, 0, "review", for_raster=True)
    assert b"/ASCII85Decode" in ascii_doc and b"/ASCII85Decode" not in binary_doc
    assert len(binary_doc) < len(ascii_doc)
    for doc in (ascii_doc, binary_doc):
        assert [im.tobytes() for im in rasterize_pages(doc, 1.0)] == alone
    assert rl_config.useA85  # reportlab's setting is back after the block


def test_binary_streams_restore_the_setting_after_an_error():
    before = rl_config.useA85
    try:
        with binary_streams():
            assert not rl_config.useA85
            raise KeyError("drawing failed")
    except KeyError:
        pass
    assert rl_config.useA85 == before
