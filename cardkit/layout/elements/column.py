"""Element kind ``column``: paragraphs flowed in one box at one shared size.

Its keys and docs line are :data:`KIND`; the face file's checks and the schema read them
(:mod:`cardkit.layout.elements`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardkit.layout.elements import BOX, ROLE, TEXT_FIT, ElementKind
from cardkit.layout.colour import INK
from cardkit.layout.textfit import Block, Style

if TYPE_CHECKING:
    from cardkit.layout.compose import Composer, Face


def collect_blocks(c: Composer, specs: list[Mapping[str, Any]], scope: dict[str, Any], out: list[tuple[Block, str]]) -> None:
    """The column's paragraphs with their catalog keys, each block's ``if`` and ``repeat`` applied,
    nested ``blocks`` in order."""
    for spec in specs:
        for s in c.repeats(spec, scope):
            if "blocks" in spec:
                collect_blocks(c, spec["blocks"], s, out)
                continue
            text, key = c.string(spec, s)
            st = Style(c.locale, spec.get("role", "body"), float(spec.get("leading", 1.18)))
            out.append((Block(text, st, ratio=c.length(spec.get("ratio", 1), s),
                              gap_after=float(spec.get("gap_after", 0))), key))


def draw(c: Composer, face: Face, el: Mapping[str, Any], s: dict[str, Any], colours: dict[str, str],
         origin: tuple[float, float]) -> None:
    blocks: list[tuple[Block, str]] = []
    collect_blocks(c, el["blocks"], s, blocks)
    if blocks:
        box = c.field_box(el, s, origin)
        c.column(face, el["name"], blocks, box, colour=c.colour(el.get("colour", INK), s, colours) or INK)



def shows(r: Any, el: Mapping[str, Any], s: Any, seen: tuple[str, ...]) -> None:
    r.blocks(el.get("blocks", []), s)

SCHEMA = {
    "required": ["name", "box", "blocks"],
    "properties": {
        "name": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
        "box": dict(BOX),
        "style": {"type": "string"},
        "role": dict(ROLE),
        **TEXT_FIT,
        "colour": {"$ref": "#/$defs/colour"},
        "blocks": {"type": "array", "items": {"$ref": "#/$defs/block"}, "minItems": 1},
    },
}

KIND = ElementKind(
    name="column",
    order=100,
    doc="paragraphs flowed in one box at one shared size: `name`, `box`, `style` and/or `role`, `size`, `min`, `align`, `max_lines`, `leading`, `colour`, `blocks` (below)",
    schema=SCHEMA,
    draw=draw,
    shows=shows,
    font_sizes=True,
    style_carries=('colour',),
)
