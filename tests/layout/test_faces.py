"""The face engine on real face files: located errors, SVG icons read by
svglib, artwork fit/cover, diagrams, icon strips and repeats, drawn through
reportlab and pdfium."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import pytest
from PIL import Image

from cardkit.errors import CardkitError
from cardkit.strings.localize import Localizer
from cardkit.layout.binding import card_scope
from cardkit.layout.compose import Composer
from cardkit.layout.faces import load_faces
from cardkit.layout.ops import Circle, Group, Icon, Line, Rect, Text
from cardkit.layout.units import MM, length
from cardkit.load.project import load_project
from cardkit.model import Card, Origin
from cardkit.printing import face_pdf
from cardkit.render.images import rasterize

FACES = Path("cards") / "death-angel" / "faces.yaml"


def _edit(project: Path, old: str, new: str, count: int = 1) -> int:
    path = project / FACES
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return text[:text.index(old)].count("\n") + 1  # the line of the edit


def _append_face(project: Path, yaml: str) -> None:
    path = project / FACES
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("\n# print order:", yaml + "\n# print order:", 1), encoding="utf-8")


def test_face_file_errors_are_all_reported_and_located(project: Path, cli):
    l_field = _edit(project, 'text: "{range}"', 'text: "{rnage}"')
    l_colour = _edit(project, "fill: gold, r: 1.2mm, text: \"{tier}\"", "fill: golden, r: 1.2mm, text: \"{tier}\"")
    l_length = _edit(project, "box: [5mm, 5mm, 20mm, 18mm]", "box: [5mm, 5mm, 20qq, 18mm]")
    l_icon = _edit(project, "name: spawn-major, at:", "name: spawn-majr, at:")
    l_face = _edit(project, "{kinds: [terrain], front: terrain,", "{kinds: [terrain], front: terain,")
    result = cli("build", "pdf", "--root", str(project))
    assert result.code == 1
    lines = result.err.strip().splitlines()
    assert all(re.match(r"^cards/death-angel/faces\.yaml:\d+:\d+: error\[[A-Z]\d{3}\]: ", ln) for ln in lines), result.err
    assert "Traceback" not in result.err
    found = {(int(ln.split(":")[1]), re.search(r"error\[(\w+)\]", ln).group(1)) for ln in lines}
    assert {(l_field, "M001"), (l_colour, "M003"), (l_length, "U001"), (l_icon, "M005"), (l_face, "M002")} <= found
    assert "reads field 'rnage', which no marine card has" in result.err
    assert not (project / "output").exists() or not list((project / "output").glob("*.pdf"))


def test_schema_errors_in_a_face_file_are_located(project: Path, cli):
    line = _edit(project, "{type: rect, box: [5mm, 5mm, 20mm, 18mm], fill: paper, r: 1.5mm}",
                 "{type: rectangle, box: [5mm, 5mm, 20mm, 18mm], fill: paper, r: 1.5mm}")
    result = cli("build", "pdf", "--root", str(project))
    assert result.code == 1
    assert f"cards/death-angel/faces.yaml:{line}:" in result.err
    assert "error[S004]" in result.err and "Traceback" not in result.err


def test_a_colour_of_the_wrong_form_is_said_in_words(project: Path, cli):
    """A colour pattern is long (hex or cmyk(), or a name): the S007 line says
    what the schema asks for in words, not the regular expression."""
    l_palette = _edit(project, 'gold: "#c9a227"', 'gold: "-5mm"')
    l_fill = _edit(project, "fill: gold, r: 1.2mm", "fill: 'Gold!', r: 1.2mm")
    result = cli("build", "pdf", "--root", str(project))
    assert result.code == 1
    lines = [ln for ln in result.err.splitlines() if "error[S007]" in ln]
    assert [int(ln.split(":")[1]) for ln in lines] == [l_palette, l_fill], result.err
    assert lines[0].endswith("'-5mm' does not match the form (#rrggbb, or cmyk(c, m, y, k) in per cent)")
    assert lines[1].endswith("'Gold!' does not match the form (#rrggbb, cmyk(c, m, y, k) in per cent, "
                             "or a colour name)")
    assert all(len(ln) < 200 and "[0-9" not in ln for ln in lines)


def test_a_badge_without_its_size_and_a_long_unknown_card_size_are_one_short_line_each(project: Path, cli):
    """A badge needs `radius`, or `w` and `h` (without them compose met a KeyError:
    exit 70); a size name of any length is quoted short (found by the faces fuzz)."""
    def one_line(line: int, code: str) -> str:
        result = cli("build", "pdf", "--root", str(project))
        assert result.code == 1 and "Traceback" not in result.err and "internal error" not in result.err
        lines = [ln for ln in result.err.splitlines() if "error[" in ln]
        assert [(int(ln.split(":")[1]), re.search(r"error\[(\w+)\]", ln).group(1)) for ln in lines] == [(line, code)], result.err
        assert len(lines[0]) < 200, lines[0]
        return lines[0]

    badge = "w: 10mm, h: 8mm, fill: gold, r: 1.2mm, text: \"{tier}\""
    line = _edit(project, badge, "fill: gold, r: 1.2mm, text: \"{tier}\"")
    assert one_line(line, "S002").endswith("missing a required key: 'radius' or 'w' and 'h'")
    _edit(project, "fill: gold, r: 1.2mm, text: \"{tier}\"", badge)
    line = _edit(project, "size: [63mm, 88mm]", "size: " + "\u00e9" * 300)
    assert "unknown card size '\u00e9\u00e9" in one_line(line, "M070")


@pytest.mark.parametrize("old,new,code", [
    ("bleed: 20pt", "bleed: W/0", "M004"),  # measured before a face is drawn (was: an unlocated U001 at build)
    ("{type: use, group: blip, with: {x: 5mm, side: left}}", "{type: use, group: [blip], with: {x: 5mm, side: left}}",
     "S003"),  # a group that is a list (was: TypeError, exit 70)
])
def test_a_face_file_mistake_found_by_the_fuzz_is_one_located_line(project: Path, cli, old: str, new: str, code: str):
    line = _edit(project, old, new)
    result = cli("build", "pdf", "--root", str(project))
    assert result.code == 1 and "Traceback" not in result.err and "internal error" not in result.err, result.err
    lines = [ln for ln in result.err.splitlines() if "error[" in ln]
    assert lines and all(re.match(r"^cards/death-angel/faces\.yaml:\d+:\d+: error\[", ln) for ln in lines), result.err
    assert (line, code) in {(int(ln.split(":")[1]), re.search(r"error\[(\w+)\]", ln).group(1)) for ln in lines}, result.err


def test_a_field_tested_by_if_may_be_missing_from_every_card(project: Path):
    _edit(project, "{type: use, group: blips}", "{type: value, if: bonus, text: \"{bonus}\", at: [1mm, 1mm]}\n      - {type: use, group: blips}")
    card_set = load_project(project).card_set("death-angel")
    load_faces(project, card_set)  # no error: `bonus` is guarded by its own test
    _edit(project, "{type: value, if: bonus,", "{type: value,")
    with pytest.raises(CardkitError) as err:
        load_faces(project, card_set)
    assert [i.code for i in err.value.issues] == ["M001"]


def _composer(project: Path, locale: str = "en") -> tuple[Composer, object]:
    card_set = load_project(project).card_set("death-angel")
    from cardkit.render.images import load_art

    comp = Composer(card_set, Localizer(project, locale, card_set), load_faces(project, card_set),
                    art=lambda rel: load_art(project / rel, rel))
    return comp, card_set


def _pixel(image: Image.Image, x_mm: float, y_mm: float, height_mm: float, dpi: float) -> tuple[int, int, int]:
    k = dpi / 25.4
    return image.getpixel((int(x_mm * k), int((height_mm - y_mm) * k)))


def test_svg_icon_of_the_set_is_read_by_svglib_and_recoloured(project: Path):
    icons = project / "cards" / "death-angel" / "icons"  # (holds the set's own icons already)
    (icons / "star.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">'
                                    '<rect x="0" y="0" width="10" height="10" fill="#ff0000"/></svg>', encoding="utf-8")
    _edit(project, "\nicons:\n", "\nicons:\n  star: icons/star.svg\n")  # beside the set's own icons
    _edit(project, "      - {type: frame, inset: 8mm,", "      - {type: icon, name: star, at: [10mm, 10mm], size: 10mm, colour: \"#00c000\"}\n"
                   "      - {type: frame, inset: 8mm,")
    comp, _ = _composer(project)
    face = comp.back("back", "event", None)
    assert any(isinstance(op, Group) and type(op.ops[0]).__name__ == "SvgOp" for op in face.ops)
    image = rasterize(face_pdf(face, 0), 100 / 72)
    assert _pixel(image, 15, 15, 88, 100) == (0, 192, 0)  # inside the icon: the face's colour, not the file's red
    assert _pixel(image, 25, 15, 88, 100) != (0, 192, 0)


def test_unreadable_svg_is_a_located_error(project: Path):
    icons = project / "cards" / "death-angel" / "icons"  # (holds the set's own icons already)
    (icons / "bad.svg").write_text("<svg this is not xml", encoding="utf-8")
    _edit(project, "\nicons:\n", "\nicons:\n  bad: icons/bad.svg\n")  # beside the set's own icons
    with pytest.raises(CardkitError) as err:
        load_faces(project, load_project(project).card_set("death-angel"))
    # located in the SVG itself, where the XML breaks
    assert [(i.code, i.file, i.line) for i in err.value.issues] == [("M008", "cards/death-angel/icons/bad.svg", 1)]


def test_artwork_contain_and_cover(project: Path):
    art = project / "cards" / "death-angel" / "wide.png"
    Image.new("RGB", (400, 100), (20, 60, 200)).save(art)
    marines = project / "cards" / "death-angel" / "marines.yaml"
    marines.write_text(marines.read_text(encoding="utf-8").replace("    range: 0\n", '    range: 0\n    art: "wide.png"\n', 1),
                       encoding="utf-8")
    comp, card_set = _composer(project)
    card = next(c for c in card_set.cards.values() if c.art)
    contain = comp.face("marine_left", "x", card.id, card_scope(card))
    image = rasterize(face_pdf(contain, 0), 100 / 72)
    # the 4:1 art is letterboxed in the 47 x 44 mm box: black above it, blue in the middle
    assert _pixel(image, 31.5, 68, 88, 100) == (0, 0, 0)
    assert _pixel(image, 31.5, 49, 88, 100) == (20, 60, 200)
    _edit(project, "box: [8mm, 27mm, W - 16mm, 44mm], fit: contain}", "box: [8mm, 27mm, W - 16mm, 44mm], fit: cover}")
    comp, _ = _composer(project)
    cover = comp.face("marine_left", "x", card.id, card_scope(card))
    image = rasterize(face_pdf(cover, 0), 100 / 72)
    assert _pixel(image, 31.5, 68, 88, 100) == (20, 60, 200)  # filled to the box edge
    assert _pixel(image, 5, 68, 88, 100) != (20, 60, 200)  # and clipped to it


def test_diagram_icon_strip_and_repeats_from_fields(project: Path):
    _append_face(project, """
  sketch:
    background: "#ffffff"
    elements:
      - {type: diagram, field: plan, box: [10mm, 10mm, 40mm, 20mm], stroke: ink}
      - {type: icons, list: marks, at: [5mm, 50mm], size: 6mm, step: 8mm}
      - {type: circle, repeat: marks, where: {field: item, equals: skull}, centre: [5mm + i*10mm, 70mm], r: 2mm, fill: ink}
      - {type: line, if: {field: level, in: [2, 3]}, points: [0mm, 0mm, W, H]}
""")
    comp, card_set = _composer(project)
    card = Card(id="sketch", kind="sketch", quantity=1, origin=Origin("x.yaml"),
                fields=MappingProxyType({"plan": [{"rect": [0, 0, 4, 1]}, {"circle": [2, 0.5, 0.5], "fill": "gold"}],
                                         "marks": ["skull", "claw", "skull"], "level": 3}))
    face = comp.face("sketch", "sketch", "sketch", card_scope(card))
    rects = [op for op in face.ops if isinstance(op, Rect)]
    # the 4 x 1 plan scaled uniformly (k = 10 mm per unit) into the 40 x 20 mm box, centred vertically
    assert rects[1].x == pytest.approx(10 * MM) and rects[1].w == pytest.approx(40 * MM)
    assert rects[1].y == pytest.approx(15 * MM) and rects[1].h == pytest.approx(10 * MM)
    circles = [op for op in face.ops if isinstance(op, Circle)]
    assert circles[0].cx == pytest.approx(30 * MM) and circles[0].r == pytest.approx(5 * MM) and circles[0].fill == "#c9a227"
    icons = [op for op in face.ops if isinstance(op, Icon)]
    assert [(i.name, round(i.x / MM, 3)) for i in icons] == [("skull", 5), ("claw", 13), ("skull", 21)]
    # repeat with where: two skulls, numbered 0 and 1 among the kept items
    assert [round(c.cx / MM, 3) for c in circles[1:]] == [5, 15]
    assert any(isinstance(op, Line) for op in face.ops)
    no_line = comp.face("sketch", "s2", "sketch", card_scope(replace(card, fields=MappingProxyType({**card.fields, "level": 1}))))
    assert not any(isinstance(op, Line) for op in no_line.ops)


def test_text_bound_to_a_field_is_localized_and_recorded(project: Path):
    comp, card_set = _composer(project, "fi")
    items = comp.items()
    face = next(it.front for it in items if it.front.id == "gun_jam#1")
    fits = {f.field: f for f in face.fits}
    assert fits["text"].key == "gun_jam.text"
    assert fits["text"].text == comp.loc.card("gun_jam.text") != card_set.cards["gun_jam"].fields["text"]
    drawn = " ".join(op.text for op in fits["text"].ops if isinstance(op, Text))
    assert drawn.split()[0] in fits["text"].text


def test_length_expressions():
    assert length("W - 4.4mm", {"W": 63 * MM}) == 63 * MM - 4.4 * MM
    assert length("(16mm - 10mm)/2", {}) == pytest.approx(3 * MM)
    assert length("-20pt", {}) == -20.0
    with pytest.raises(CardkitError) as err:
        length("5mm +", {})
    assert err.value.issues[0].code == "U001"


def test_an_uninstalled_plugin_element_is_a_located_error(project: Path):
    path = project / "cards" / "deep-strike" / "faces.yaml"
    text = path.read_text(encoding="utf-8")
    line = text[:text.index("name: table-map")].count("\n") + 1
    path.write_text(text.replace("name: table-map", "name: table-mop"), encoding="utf-8")
    with pytest.raises(CardkitError) as err:
        load_faces(project, load_project(project).card_set("deep-strike"))
    assert [(i.code, i.line) for i in err.value.issues] == [("M007", line)]
    assert "table-mop" in err.value.issues[0].message


def test_a_print_entry_sorting_by_a_missing_field_is_located(project: Path):
    line = _edit(project, "sort: order", "sort: ordre")
    with pytest.raises(CardkitError) as err:
        load_faces(project, load_project(project).card_set("death-angel"))
    assert [(i.code, i.line) for i in err.value.issues] == [("M001", line)]
