"""A data-only game with three card sizes, made from `cardkit init`: heroes on
tarot cards, spells on landscape mini cards, relics on portrait mini cards."""

from __future__ import annotations

from pathlib import Path

from cardkit.scaffold import init_project

FACES = """\
kind: faces
size: tarot
bleed: 20pt
palette: {ink: "#1d1b18", white: "#ffffff", gold: "#c9a227"}
maps:
  deck: {heroes: "#3a3350", spells: "#24474a", relics: "#6b3b1f"}
styles:
  name: {role: title, size: 10pt, min: 6pt, align: center, max_lines: 2}
faces:
  hero:
    colours: {main: {map: deck, by: card_deck, default: "#555555"}}
    background: main
    elements:
      - {type: frame, inset: 3mm, stroke: gold, lw: 0.8, r: 2mm}
      - {type: text, name: name, style: name, box: [5mm, H - 16mm, W - 10mm, 10mm], field: name, colour: white}
  spell:
    extends: hero
    size: mini landscape
  relic:
    extends: hero
    size: mini
  back:
    back: true
    colours: {main: {map: deck, by: deck, default: "#333333"}}
    background: main
    elements:
      - {type: frame, inset: 4mm, stroke: white, lw: 0.8, r: 2mm}
  spell_back: {extends: back, size: mini landscape}
  relic_back: {extends: back, size: mini}
print:
  - {kinds: [hero], front: hero, back: back}
  - {kinds: [spell], front: spell, back: spell_back}
  - {kinds: [relic], front: relic, back: relic_back}
"""

RELIC_KIND = """\
  relic:
    file_kind: relics
    label: Relic card
    template: relic
    deck: relics
    fields:
      name: {type: text}
"""


def three_size_project(folder: Path) -> Path:
    """Write the game into ``folder`` (which must not exist) and return it."""
    result = init_project(folder, "sizes")
    set_dir = folder / "cards" / result.set_id
    (set_dir / "faces.yaml").write_text(FACES, encoding="utf-8")
    kinds = set_dir / "kinds.yaml"
    kinds.write_text(kinds.read_text(encoding="utf-8") + RELIC_KIND, encoding="utf-8")
    relics = "kind: relics\ncards:\n" + "".join(
        f"  - id: relic_{i}\n    name: \"Relic {i}\"\n" for i in range(1, 12))
    (set_dir / "relics.yaml").write_text(relics, encoding="utf-8")
    manifest = set_dir / "set.yaml"
    text = manifest.read_text(encoding="utf-8").replace("  - spells.yaml\n", "  - spells.yaml\n  - relics.yaml\n")
    manifest.write_text(text.replace("cards: 5", "cards: 16"), encoding="utf-8")
    return folder
