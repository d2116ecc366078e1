"""Element kind ``text``: a fitted text box: a translatable string, shrunk to fit and recorded for the fit check.

Its keys and docs line are :data:`KIND`; the face file's checks and the schema read them
(:mod:`cardkit.layout.elements`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardkit.layout.elements import BOX, ROLE, TEXT_FIT, ElementKind
from cardkit.layout.colour import INK

if TYPE_CHECKING:
    from cardkit.layout.compose import Composer, Face


def draw(c: Composer, face: Face, el: Mapping[str, Any], s: dict[str, Any], colours: dict[str, str],
         origin: tuple[float, float]) -> None:
    text, key = c.string(el, s)
    box = c.field_box(el, s, origin)
    c.text(face, el["name"], text, key, box=box, colour=c.colour(el.get("colour", INK), s, colours) or INK,
           valign=el.get("valign", "top"))



def shows(r: Any, el: Mapping[str, Any], s: Any, seen: tuple[str, ...]) -> None:
    r.source(el, s)

SCHEMA = {
    "required": ["name", "box"],
    "properties": {
        "name": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$", "description": "the box's name in fit reports"},
        "box": dict(BOX),
        "style": {"type": "string"},
        "role": dict(ROLE),
        **TEXT_FIT,
        "field": {"type": "string", "description": "this card's translatable field (msgctxt <card id>.<path>)"},
        "string": {"type": "string", "description": "any catalog string by msgctxt"},
        "ui": {"type": "string", "description": "an interface string id"},
        "args": {"type": "object", "additionalProperties": {"type": "string"}},
        "value": {"type": "string", "description": "data shown as is (not translated)"},
        "join": {"type": "array", "items": {"$ref": "#/$defs/part"}},
        "sep": {"type": "string"},
        "format": {"type": "string", "pattern": "\\{\\}"},
        "colour": {"$ref": "#/$defs/colour"},
        "valign": {"enum": ["top", "middle"]},
    },
    "oneOf": [
        {"required": ["field"]},
        {"required": ["string"]},
        {"required": ["ui"]},
        {"required": ["value"]},
        {"required": ["join"]},
    ],
}

KIND = ElementKind(
    name="text",
    order=90,
    doc="a fitted text box: `name` (the box's name in fit reports), `box`, `style` and/or `role`, `size`, `min`, `align`, `max_lines`, `leading`; `colour`, `valign: top|middle`; and a source (below)",
    schema=SCHEMA,
    draw=draw,
    shows=shows,
    font_sizes=True,
    style_carries=('colour', 'valign'),
)
