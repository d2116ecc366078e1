"""A set's SVG icon made only of cardkit's vector shapes is drawn through the built-in
icon path, byte for byte (issue #22: Death Angel's icons are SVG files of its set,
drawn the same); any other SVG keeps going through svglib."""

from __future__ import annotations

from pathlib import Path

from cardkit.layout.icons import ICONS, shapes_from_svg
from cardkit.layout.ops import Icon
from cardkit.layout.svgicons import read_svg
from cardkit.render.pdf import PdfDocument
from tests.conftest import REPO

DA_ICONS = REPO / "cards" / "death-angel" / "icons"


def _svg(shapes) -> str:
    """Shapes written as a shape SVG (full float precision)."""
    body = []
    for sh in shapes:
        fill = "#000000" if sh.paint == "ink" else "#ffffff"
        pts = " ".join(f"{x!r},{y!r}" for x, y in sh.points)
        if sh.kind == "poly":
            body.append(f'<polygon points="{pts}" fill="{fill}"/>')
        elif sh.kind == "circle":
            body.append(f'<circle cx="{sh.cx!r}" cy="{sh.cy!r}" r="{sh.r!r}" fill="{fill}"/>')
        else:
            body.append(f'<polyline points="{pts}" fill="none" stroke="#000000" stroke-width="{sh.width!r}" '
                        'stroke-linecap="round" stroke-linejoin="round"/>')
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" width="1" height="1">'
            f'<g transform="matrix(1 0 0 -1 0 1)">{"".join(body)}</g></svg>')


def _pdf(op: Icon) -> bytes:
    doc = PdfDocument((100.0, 100.0), "icon")
    doc.draw([op])
    doc.end_page()
    return doc.finish()


def test_a_shape_svg_prints_exactly_like_the_built_in_icon(tmp_path: Path):
    path = tmp_path / "mark.svg"
    path.write_text(_svg(ICONS["skull"]), encoding="utf-8")
    icon = read_svg(path, "mark.svg", "mark", tmp_path)
    assert icon.shapes == ICONS["skull"]
    assert _pdf(Icon("mark", 10, 20, 30, "#7a1e16", shapes=icon.shapes)) == _pdf(Icon("skull", 10, 20, 30, "#7a1e16"))
    # the same drawing moved is a different page: the comparison can fail
    assert _pdf(Icon("mark", 11, 20, 30, "#7a1e16", shapes=icon.shapes)) != _pdf(Icon("skull", 10, 20, 30, "#7a1e16"))


def test_any_other_svg_goes_through_svglib(tmp_path: Path):
    for name, text in {
        "rect": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><g transform="matrix(1 0 0 -1 0 1)">'
                '<rect x="0" y="0" width="1" height="1"/></g></svg>',
        "red": _svg(ICONS["skull"]).replace('fill="#000000"', 'fill="#ff0000"', 1),
        "box": _svg(ICONS["skull"]).replace('viewBox="0 0 1 1"', 'viewBox="0 0 2 2"'),
        "flat": _svg(ICONS["skull"]).replace("matrix(1 0 0 -1 0 1)", "matrix(1 0 0 1 0 0)"),
    }.items():
        path = tmp_path / f"{name}.svg"
        path.write_text(text, encoding="utf-8")
        icon = read_svg(path, f"{name}.svg", name, tmp_path)
        assert icon.shapes == (), name
        assert icon.drawing is not None


def test_death_angel_s_icons_are_shape_svgs():
    files = sorted(DA_ICONS.glob("*.svg"))
    assert len(files) == 11
    for path in files:
        icon = read_svg(path, path.name, path.stem, REPO)
        assert icon.shapes, path.name
    from lxml import etree

    assert shapes_from_svg(etree.fromstring((DA_ICONS / "support.svg").read_bytes()))[1].paint == "paper"
