"""Card kinds declared in data: a game cardkit has never heard of, with no
Python of its own, loads, derives its schemas, strings and data checks; a game
without a rules engine says so in one line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cardkit.load.project import load_project
from tests.conftest import REPO

SET = """\
kind: set
id: duel
game: duel-of-wits
title: "Duel of Wits"
files: [heroes.yaml, spells.yaml]
components: {cards: 5}
"""
KINDS = """\
kind: kinds
types:
  school: {type: enum, values: [fire, frost]}
kinds:
  hero:
    file_kind: heroes
    label: Hero card
    template: hero
    deck: heroes
    fields:
      name: {type: text}
      school: {type: school}
      health: {type: integer, min: 1, max: 20, default: 10}
      favourite: {type: ref, to: spell, optional: true}
      art: {type: image, optional: true}
  spell:
    file_kind: spells
    label: Spell card
    template: spell
    deck: spells
    quantity: {field: copies}
    fields:
      name: {type: text}
      text: {type: text}
      cost: {type: integer, min: 1, max: 9, unique: true, sequence: true}
      copies: {type: integer, min: 1, max: 4, default: 1}
      tags: {type: list, optional: true, items: {type: record, fields: {id: {type: label, form: id}, label: {type: text}}}}
"""
HEROES = """\
kind: heroes
cards:
  - id: ada
    name: "Ada"
    school: fire
    favourite: ember
  - id: bo
    name: "Bo"
    school: frost
    health: 12
"""
SPELLS = """\
kind: spells
cards:
  - id: ember
    name: "Ember"
    text: "Deal 1 damage."
    cost: 1
    copies: 2
  - id: rime
    name: "Rime"
    text: "Freeze a hero."
    cost: 2
    tags: [{id: slow, label: "Slows"}]
"""


def _game(root: Path, **override: str) -> Path:
    files = {"set.yaml": SET, "kinds.yaml": KINDS, "heroes.yaml": HEROES, "spells.yaml": SPELLS, **override}
    d = root / "cards" / "duel"
    d.mkdir(parents=True)
    for name, text in files.items():
        if text:
            (d / name).write_text(text, encoding="utf-8")
    return root


LINE_RE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning)\[(?P<code>[A-Z]\d{3})\]: .+$")


def test_generic_game_loads_with_defaults_and_strings(tmp_path: Path):
    project = load_project(_game(tmp_path))
    assert project.issues == []
    s = project.card_set("duel")
    assert s.physical_count() == 5  # ember 2 + rime 1 (default) + 2 heroes
    ada, bo = s.cards["ada"], s.cards["bo"]
    assert (ada.kind, ada.fields["health"], bo.fields["health"]) == ("hero", 10, 12)
    assert s.cards["ember"].quantity == 2 and s.cards["rime"].quantity == 1
    with pytest.raises(TypeError):
        ada.fields["health"] = 3  # type: ignore[index]
    ctx = {x.msgctxt: x for x in s.strings}
    assert {"ada.name", "ember.text", "rime.tags.slow.label"} <= set(ctx)
    assert ctx["ember.text"].comment == "Spell card 'Ember', field text"
    assert (ctx["ember.text"].line, ctx["ember.text"].column) == (5, 11)
    assert "set.title" in ctx


def test_template_is_no_longer_needed_and_old_files_still_load(tmp_path: Path):
    """`template:` was required but never read (faces.yaml's print list picks the faces):
    a kinds.yaml without it loads the same cards as one with it (the KINDS above)."""
    old = load_project(_game(tmp_path / "old")).card_set("duel")
    new_root = _game(tmp_path / "new", **{"kinds.yaml": KINDS.replace("    template: hero\n", "").replace("    template: spell\n", "")})
    assert "template" not in (new_root / "cards" / "duel" / "kinds.yaml").read_text()
    project = load_project(new_root)
    assert project.issues == []
    new = project.card_set("duel")
    assert {c.id: (c.kind, dict(c.fields)) for c in new.cards.values()} == \
        {c.id: (c.kind, dict(c.fields)) for c in old.cards.values()}


def test_derived_schema_is_written_and_checked_for_staleness(tmp_path: Path, cli):
    root = _game(tmp_path)
    first = cli("validate", "--root", str(root))
    assert first.code == 0, first.err
    warnings = [LINE_RE.match(line) for line in first.err.splitlines()]
    assert sorted(m["file"] for m in warnings if m) == ["cards/duel/schemas/heroes.schema.json",
                                                        "cards/duel/schemas/spells.schema.json"]
    assert all(m["code"] == "K009" and m["sev"] == "warning" for m in warnings if m)
    assert cli("validate", "--root", str(root), "--write-schemas").code == 0
    schema = json.loads((root / "cards/duel/schemas/spells.schema.json").read_text())
    card = schema["properties"]["cards"]["items"]
    assert schema["properties"]["kind"] == {"const": "spells"}
    assert card["required"] == ["id", "name", "text", "cost"]
    assert card["properties"]["cost"] == {"type": "integer", "minimum": 1, "maximum": 9}
    again = cli("validate", "--root", str(root))
    assert again.code == 0 and "K009" not in again.err
    # an edited declaration makes the written file stale again
    (root / "cards/duel/kinds.yaml").write_text(KINDS.replace("max: 9", "max: 8"), encoding="utf-8")
    assert "K009" in cli("validate", "--root", str(root)).err


def test_derived_schema_validates_cards(tmp_path: Path, cli):
    root = _game(tmp_path, **{"heroes.yaml": HEROES.replace("school: frost", "school: earth")
                              .replace("health: 12", "health: 12\n    mana: 3")})
    result = cli("validate", "--root", str(root))
    assert result.code == 1
    codes = {(m["code"], m["line"]) for m in map(LINE_RE.match, result.err.splitlines()) if m}
    assert ("S004", "9") in codes  # school: earth
    assert ("S001", "11") in codes  # mana: unknown key


def test_data_checks_refs_unique_and_sequence(tmp_path: Path, cli):
    heroes = HEROES.replace("favourite: ember", "favourite: bo")
    spells = SPELLS.replace("cost: 2", "cost: 1")
    result = cli("validate", "--root", str(_game(tmp_path, **{"heroes.yaml": heroes, "spells.yaml": spells})))
    assert result.code == 1
    found = {(m["code"], m["file"], m["line"]) for m in map(LINE_RE.match, result.err.splitlines()) if m}
    assert ("C002", "cards/duel/heroes.yaml", "6") in found  # favourite names a hero, not a spell
    assert ("C003", "cards/duel/spells.yaml", "11") in found  # cost 1 twice
    assert "a hero card" in result.err


def test_sequence_must_run_one_to_n(tmp_path: Path, cli):
    result = cli("validate", "--root", str(_game(tmp_path, **{"spells.yaml": SPELLS.replace("cost: 2", "cost: 3")})))
    assert result.code == 1
    assert re.search(r"spells\.yaml:11:\d+: error\[C003\]: spell 'rime' has cost 3; the 2 spell cards number 1-2", result.err)


def test_set_without_kinds_is_located(tmp_path: Path, cli):
    result = cli("validate", "--root", str(_game(tmp_path, **{"kinds.yaml": ""})))
    assert result.code == 1
    assert re.search(r"^cards/duel/set\.yaml:1:\d+: error\[K006\]: no kinds\.yaml", result.err, re.M)


def test_effects_need_a_game_with_a_vocabulary(tmp_path: Path, cli):
    kinds = KINDS.replace("      text: {type: text}\n", "      text: {type: text}\n      effects: {type: effects, optional: true}\n")
    result = cli("validate", "--root", str(_game(tmp_path, **{"kinds.yaml": kinds})))
    assert result.code == 1
    assert re.search(r"kinds\.yaml:\d+:\d+: error\[K007\]: effect vocabulary 'effect' is not provided", result.err)


@pytest.mark.parametrize("args", [("playtest", "--set", "duel", "--games", "1"),
                                  ("rules", "play", "--set", "duel"),
                                  ("rules", "scenario", "x.yaml", "--set", "duel")])
def test_game_without_engine_says_so(tmp_path: Path, cli, args):
    result = cli(*args, "--root", str(_game(tmp_path)))
    assert result.code == 1
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.err
    assert lines[0].startswith("cardkit: error[G008]: game 'duel-of-wits' has no rules engine")


def test_deep_strike_has_no_engine(cli):
    result = cli("playtest", "--set", "deep-strike", "--root", str(REPO))
    assert result.code == 1
    assert "error[G008]: game 'deep-strike' has no rules engine" in result.err


def test_plugins_come_from_entry_points():
    from importlib.metadata import entry_points

    from cardkit.plugins import GROUP, plugins

    names = {ep.name for ep in entry_points(group=GROUP)}
    assert {"death-angel", "deep-strike"} <= names
    found = plugins()
    assert found["death-angel"].engine is not None and found["deep-strike"].engine is None
    assert found["deep-strike"].playability is not None


def test_build_summary_line_comes_from_the_plugin():
    """`cardkit build` asks the set's plugin for its playability facts (Deep Strike:
    the deployment check), which the build summary words in the reader's language."""
    from cardkit.games.deep_strike.plugin import DeepStrikeFacts
    from cardkit.plugins import plugins
    from cardkit.games.deep_strike.check import check_set

    s = load_project(REPO).card_set("deep-strike")
    facts = plugins()["deep-strike"].playability(REPO, s)
    results = check_set(s)
    ok = sum(all(run.feasible for run in r.runs) for r in results)
    assert facts == DeepStrikeFacts("deep-strike", ok, len(results), facts.warnings)
    assert facts.warnings == sum(n.severity.value == "warning" for r in results for n in r.notes)
