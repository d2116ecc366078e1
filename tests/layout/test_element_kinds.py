"""The registry of face element kinds (cardkit/layout/elements/): the schema's element list and
the docs table are generated from it, every kind has an example the schema accepts, and the
registry refuses a kind declared badly."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from cardkit.layout import elements
from cardkit.layout.elements import COMMON_PROPERTIES, KINDS, ElementKind, docs_table, element_schema, registry
from cardkit.layout.facereuse import STYLE_CARRIES
from cardkit.load.schema import validator
from tests.conftest import REPO

#: one small element of each kind, as a face file writes it; a new kind adds its own here
EXAMPLES = {
    "rect": {"type": "rect", "box": [0, 0, "10mm", "10mm"], "fill": "#ffffff", "r": "1mm"},
    "frame": {"type": "frame", "inset": "2mm", "stroke": "#000000"},
    "line": {"type": "line", "points": [0, 0, "W", "H"], "dash": [2, 1]},
    "circle": {"type": "circle", "centre": ["5mm", "5mm"], "r": "2mm"},
    "icon": {"type": "icon", "name": "skull", "at": [0, 0], "size": "5mm"},
    "icons": {"type": "icons", "list": "keywords", "at": [0, 0], "size": "5mm", "step": "6mm"},
    "value": {"type": "value", "text": "{power}", "at": [0, 0], "align": "center"},
    "badge": {"type": "badge", "text": "{power}", "centre": ["W - 10mm", "80mm"], "radius": "5mm"},
    "text": {"type": "text", "name": "name", "box": [0, 0, "50mm", "9mm"], "field": "name"},
    "column": {"type": "column", "name": "body", "box": [0, 0, "50mm", "40mm"], "blocks": [{"field": "text"}]},
    "image": {"type": "image", "field": "art", "box": [0, 0, "50mm", "40mm"], "fit": "cover"},
    "diagram": {"type": "diagram", "field": "shapes", "box": [0, 0, "50mm", "40mm"]},
    "group": {"type": "group", "at": ["1mm", 0], "elements": [{"type": "frame", "inset": "1mm"}]},
    "use": {"type": "use", "group": "border", "at": [0, 0]},
    "plugin": {"type": "plugin", "name": "table-map", "box": [0, 0, "50mm", "40mm"], "params": {}},
}


#: kinds whose example draws nothing on a card of the starter game, and why
NOT_DRAWN_ON_THE_STARTER = {
    "icons": "its cards have no list field",
    "image": "its cards have no artwork",
    "diagram": "its cards have no shape list",
    "plugin": "the installed plugin, table-map, draws Deep Strike's table",
}


def _face_file(element: dict) -> dict:
    return {"kind": "faces", "size": ["63mm", "88mm"], "faces": {"f": {"elements": [element]}}, "print": [{"kinds": ["k"], "front": "f"}]}


def test_the_face_schema_lists_exactly_the_registered_kinds():
    schema = json.loads((REPO / "schemas" / "face.schema.json").read_text(encoding="utf-8"))
    assert schema["$defs"]["element"] == element_schema(), "schemas/face.schema.json is out of date: python tools/registries.py"
    assert schema["$defs"]["element"]["properties"]["type"]["enum"] == list(KINDS)


def test_the_docs_table_is_the_registrys():
    guide = (REPO / "docs" / "authoring.md").read_text(encoding="utf-8")
    assert docs_table() in guide, "docs/authoring.md, Elements, is out of date: python tools/registries.py"
    assert [f"`{name}`" in docs_table() for name in KINDS].count(False) == 0


@pytest.mark.parametrize("name", list(KINDS))
def test_every_kind_has_an_example_the_schema_accepts_and_a_typo_in_it_refused(name: str):
    kind = KINDS[name]
    assert set(EXAMPLES) == set(KINDS), "give each registered kind an example here"
    check = validator("face.schema.json")
    assert list(check.iter_errors(_face_file(EXAMPLES[name]))) == []
    typo = {**EXAMPLES[name], "colur": "#000000"}  # a key no kind reads
    assert list(check.iter_errors(_face_file(typo))) != []
    for key in kind.schema.get("required", []):  # each required key is required
        missing = {k: v for k, v in EXAMPLES[name].items() if k != key}
        assert list(check.iter_errors(_face_file(missing))) != [], (name, key)
    assert callable(kind.draw) and kind.doc and kind.name == name
    assert set(kind.style_carries) <= set(kind.schema["properties"]), "a style gives only keys the kind reads"
    assert set(kind.positive) <= set(kind.schema["properties"])
    reads_cards = {"field", "text", "list", "name", "blocks", "elements", "group", "reads"} & set(kind.schema["properties"])
    assert (kind.shows is not None) == bool(reads_cards), "a kind that reads card data says how (shows), for M006"


def test_an_unknown_kind_is_refused_by_the_schema_with_the_list_of_kinds():
    errors = list(validator("face.schema.json").iter_errors(_face_file({"type": "hexagon", "box": [0, 0, 1, 1]})))
    assert errors and any("hexagon" in e.message for e in errors)


def test_the_styles_give_what_the_kinds_declare():
    assert STYLE_CARRIES == {k.name: k.style_carries for k in KINDS.values() if k.style_carries}
    assert STYLE_CARRIES["text"] == ("colour", "valign")


def test_the_registry_refuses_a_kind_declared_badly():
    rect = KINDS["rect"]
    with pytest.raises(ValueError, match="declared twice"):
        registry([rect, replace(rect, order=999)])
    with pytest.raises(ValueError, match="same order"):
        registry([rect, replace(KINDS["frame"], order=rect.order)])
    with pytest.raises(ValueError, match="restates repeat"):
        registry([replace(rect, schema={"properties": {"repeat": COMMON_PROPERTIES["repeat"]}})])
    with pytest.raises(ValueError, match="lower-case"):
        registry([replace(rect, name="Rect")])
    star = ElementKind("star", 5, "a star", {"required": ["centre"], "properties": {"centre": {}}}, rect.draw)
    found = registry([*KINDS.values(), star])
    assert list(found)[0] == "star" and element_schema(found)["allOf"][0]["then"]["required"] == ["type", "centre"]


def test_every_module_of_the_package_is_one_kind():
    names = sorted(p.stem for p in (REPO / "cardkit" / "layout" / "elements").glob("*.py") if not p.stem.startswith("_"))
    assert names == sorted(KINDS) == sorted(k.name for k in elements.discover())


@pytest.fixture(scope="module")
def starter_face(starter_project: Path):
    """A composer of the starter game's set, a hero card's face and its scope."""
    from cardkit.layout.binding import card_scope
    from cardkit.layout.compose import Composer
    from cardkit.layout.faces import load_faces
    from cardkit.load.project import load_project
    from cardkit.strings.localize import Localizer

    card_set = load_project(starter_project).card_set("g")
    comp = Composer(card_set, Localizer(starter_project, "en", card_set), load_faces(starter_project, card_set))
    card = card_set.cards["ember_knight"]
    face = comp.face("hero", card.id, card.id, card_scope(card))
    scope = {**card_scope(card), "W": face.template.width, "H": face.template.height, "set": comp.set_data}
    return comp, face, scope


@pytest.mark.parametrize("name", sorted(set(KINDS) - set(NOT_DRAWN_ON_THE_STARTER)))
def test_every_kind_draws_its_example_through_the_registry(name: str, starter_face):
    from cardkit.layout.compose import Face

    comp, hero, scope = starter_face
    face = Face("x", hero.card, hero.template)
    comp.draw(face, [EXAMPLES[name]], dict(scope), {"main": "#555555"})
    assert face.ops, f"{name} drew nothing"
    if name in ("text", "column"):
        assert face.fits and face.fits[0].ok  # a fitted text is recorded for the fit check


def test_an_element_of_no_registered_kind_is_m002_at_draw_time(starter_face):
    from cardkit.errors import CardkitError
    from cardkit.layout.compose import Face

    comp, hero, scope = starter_face
    with pytest.raises(CardkitError) as err:
        comp.draw(Face("x", hero.card, hero.template), [{"type": "hexagon"}], dict(scope), {})
    assert [i.code for i in err.value.issues] == ["M002"] and "one of: rect, frame" in err.value.issues[0].message
