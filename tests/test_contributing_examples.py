"""docs/contributing.md's worked examples, run as written: "Adding an element kind" (a module, its
test line, its doc line) and "Adding a translation check" (a module, its test, its doc line)."""

from __future__ import annotations

import json
import re
import types
from pathlib import Path

import pytest

from tests.conftest import REPO

GUIDE = REPO / "docs" / "contributing.md"


def _section(title: str) -> str:
    text = GUIDE.read_text(encoding="utf-8")
    return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def _blocks(section: str, lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", section, re.S)


def _module(name: str, source: str) -> types.ModuleType:
    module = types.ModuleType(name)
    exec(compile(source, f"<docs/contributing.md: {name}>", "exec"), module.__dict__)
    return module


def test_the_files_the_examples_name_exist():
    for title in ("Adding an element kind", "Adding a translation check"):
        section = _section(title)
        for rel in re.findall(r"`((?:cardkit|tests|tools)/[\w/.]+\.py)`", section):
            if "polygon" in rel or "doubled" in rel:  # the files the example adds
                assert not (REPO / rel).exists(), f"{rel}: the example's new file is in the tree; pick another example"
            else:
                assert (REPO / rel).is_file(), rel


def test_adding_an_element_kind_as_the_guide_shows(starter_project: Path):
    from cardkit.layout.binding import card_scope
    from cardkit.layout.compose import Composer, Face
    from cardkit.layout.elements import KINDS, docs_table, element_schema, registry
    from cardkit.layout.faces import load_faces
    from cardkit.layout.ops import Poly
    from cardkit.load.project import load_project
    from cardkit.load.schema import bounded_validator
    from cardkit.strings.localize import Localizer

    section = _section("Adding an element kind")
    module_source, test_line = _blocks(section, "python")
    kind = _module("cardkit.layout.elements.polygon", module_source).KIND
    found = registry([*KINDS.values(), kind])
    assert list(found).index("polygon") == list(found).index("circle") + 1

    example = eval(test_line.strip().split(": ", 1)[1].rstrip(","))  # the EXAMPLES line: "polygon": {...},
    schema = json.loads((REPO / "schemas" / "face.schema.json").read_text(encoding="utf-8"))
    schema["$defs"]["element"] = element_schema(found)
    check = bounded_validator(schema)
    doc = {"kind": "faces", "size": ["63mm", "88mm"], "faces": {"f": {"elements": [example]}},
           "print": [{"kinds": ["k"], "front": "f"}]}
    assert list(check.iter_errors(doc)) == []
    doc["faces"]["f"]["elements"] = [{**example, "sides": 40}]
    assert list(check.iter_errors(doc)) != []

    added = [ln[1:] for ln in _blocks(section, "diff")[0].splitlines() if ln.startswith("+")]
    assert added and all(ln in docs_table(found) for ln in added)

    card_set = load_project(starter_project).card_set("g")
    comp = Composer(card_set, Localizer(starter_project, "en", card_set), load_faces(starter_project, card_set))
    card = card_set.cards["ember_knight"]
    hero = comp.face("hero", card.id, card.id, card_scope(card))
    face = Face("x", card.id, hero.template)
    scope = {**card_scope(card), "W": hero.template.width, "H": hero.template.height}
    kind.draw(comp, face, example, scope, {}, (0.0, 0.0))
    assert len(face.ops) == 1 and isinstance(face.ops[0], Poly) and len(face.ops[0].points) == 6
    assert max(y for _, y in face.ops[0].points) == pytest.approx(hero.template.height / 2 + 10 / 25.4 * 72)


def test_adding_a_translation_check_as_the_guide_shows(monkeypatch: pytest.MonkeyPatch):
    from cardkit.i18n import registry

    registry.checks()  # the registry as it is, then the example registered into a copy of it
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    monkeypatch.setattr(registry, "_OWNER", dict(registry._OWNER))
    section = _section("Adding a translation check")
    module_source, test_source = _blocks(section, "python")
    _module("cardkit.i18n.checkers.doubled", module_source)
    assert registry.codes()["T990"][1].name == "check_doubled_words"

    tests = _module("test_doubled", test_source)
    tests.test_a_doubled_word_is_found_and_one_the_english_has_is_not()

    added = [ln[1:] for ln in _blocks(section, "diff")[0].splitlines() if ln.startswith("+")]
    assert added and all(ln in registry.docs_table() for ln in added)
