"""The "field no face shows" warning (M006): every way a face reads a field
counts, and each field no face reads is one located warning in kinds.yaml."""

from __future__ import annotations

import re
from pathlib import Path

SET = """\
kind: set
id: tiny
game: tiny-game
title: "Tiny"
files: [heroes.yaml, places.yaml]
components: {cards: 4}
"""
KINDS = """\
kind: kinds
kinds:
  hero:
    file_kind: heroes
    label: Hero card
    template: hero
    deck: heroes
    quantity: {field: copies}
    fields:
      name: {type: text}
      power: {type: integer, min: 0, max: 9}
      home: {type: ref, to: place}
      tags:
        type: list
        items:
          type: record
          fields:
            label: {type: label}
            weight: {type: integer}
      stats:
        type: record
        fields:
          left: {type: integer}
          right: {type: integer}
      lucky: {type: boolean, default: false}
      copies: {type: integer, min: 1, max: 3, default: 1}
      secret: {type: integer, default: 0}
      notes: {type: text, optional: true, shown: false}
  place:
    file_kind: places
    label: Place card
    template: place
    deck: places
    fields:
      name: {type: text}
      colour: {type: label}
      size: {type: integer}
      geometry:
        type: record
        fields:
          width: {type: integer}
          depth: {type: integer}
"""
HEROES = """\
kind: heroes
cards:
  - {id: ann, name: "Ann", power: 3, home: inn, tags: [{label: a, weight: 1}], stats: {left: 1, right: 2}}
  - {id: bob, name: "Bob", power: 4, home: inn, tags: [], stats: {left: 0, right: 1}, copies: 2}
"""
PLACES = """\
kind: places
cards:
  - {id: inn, name: "Inn", colour: red, size: 2, geometry: {width: 3, depth: 4}}
"""
FACES = """\
kind: faces
size: [63mm, 88mm]
maps: {colour: {red: "#aa0000"}}
faces:
  hero:
    elements:
      - {type: text, name: name, box: [5mm, 70mm, 53mm, 9mm], field: name}
      - {type: badge, centre: [10mm, 10mm], radius: 4mm, text: "{power}"}
      - {type: rect, box: [0mm, 0mm, 5mm, 5mm], fill: {map: colour, by: "home->colour"}}
      - {type: text, name: home, box: [5mm, 40mm, 53mm, 9mm], string: "{home}.name"}
      - {type: value, repeat: tags, text: "{item.label}", at: [5mm, 30mm - i*3mm]}
      - {type: text, name: stats, box: [5mm, 20mm, 53mm, 5mm], if: lucky,
         join: [{value: "{stats.left}"}, {value: "{stats.right}"}], sep: " / "}
  place:
    elements:
      - {type: text, name: name, box: [5mm, 70mm, 53mm, 9mm], field: name}
      - {type: plugin, name: table-map, box: [5mm, 5mm, 50mm, 50mm], reads: [geometry.width, geometry.depth]}
print:
  - {kinds: [hero], front: hero}
  - {kinds: [place], front: place, sort: size}
"""
LINE = re.compile(r"^cards/tiny/kinds\.yaml:(\d+):(\d+): warning\[M006\]: field '([a-z_.]+)' of kind '(\w+)' is shown by no face")


def _project(root: Path, kinds: str = KINDS, faces: str = FACES) -> Path:
    d = root / "cards" / "tiny"
    d.mkdir(parents=True)
    for name, text in (("set.yaml", SET), ("kinds.yaml", kinds), ("heroes.yaml", HEROES), ("places.yaml", PLACES),
                       ("faces.yaml", faces)):
        (d / name).write_text(text, encoding="utf-8")
    return root


def _warnings(cli, root: Path) -> list[tuple[int, int, str, str]]:
    result = cli("validate", "--root", str(root), "--write-schemas")
    assert result.code == 0, result.err
    lines = result.err.splitlines()
    parsed = [LINE.match(ln) for ln in lines]
    assert all(parsed), lines
    return [(int(m[1]), int(m[2]), m[3], m[4]) for m in parsed if m]


def _line(text: str, needle: str) -> int:
    return next(n for n, ln in enumerate(text.splitlines(), 1) if needle in ln)


def test_every_way_of_reading_counts_and_only_unread_fields_warn(tmp_path: Path, cli):
    """Read: a text field, a badge template, a colour `by` through `->`, a catalog
    string of a referenced card, a repeat's item, an `if`, join parts, a plugin's
    `reads`, the print list's sort, the quantity field.  Not read: hero.secret,
    tags' weight (a nested field), none of the place's own faces show `colour`
    but the hero's face reads it through the reference."""
    warned = _warnings(cli, _project(tmp_path))
    assert warned == [(_line(KINDS, "weight:"), 13, "tags.weight", "hero"),
                      (_line(KINDS, "secret:"), 7, "secret", "hero")]


def test_a_field_read_only_through_a_reference_is_unshown_without_it(tmp_path: Path, cli):
    faces = FACES.replace('fill: {map: colour, by: "home->colour"}', "fill: \"#000000\"")
    warned = _warnings(cli, _project(tmp_path, faces=faces))
    assert ("colour", "place") in [(w[2], w[3]) for w in warned]


def test_shown_false_silences_and_an_unprinted_kind_warns_once(tmp_path: Path, cli):
    kinds = KINDS.replace("secret: {type: integer, default: 0}", "secret: {type: integer, default: 0, shown: false}")
    kinds = kinds.replace("weight: {type: integer}", "weight: {type: integer, shown: false}")
    faces = FACES.replace("  - {kinds: [place], front: place, sort: size}\n", "")
    result = cli("validate", "--root", str(_project(tmp_path, kinds=kinds, faces=faces)), "--write-schemas")
    assert result.code == 0
    assert result.err.splitlines() == [
        f"cards/tiny/kinds.yaml:{_line(kinds, '  place:')}:3: warning[M006]: kind 'place' is shown by no face "
        "(no entry of the print list in faces.yaml names it)"]
