"""Element kind ``icon``: one icon: the set's SVG icon of that name, else a built-in one.

Its keys and docs line are :data:`KIND`; the face file's checks and the schema read them
(:mod:`cardkit.layout.elements`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardkit.layout.elements import ElementKind
from cardkit.layout.colour import INK

if TYPE_CHECKING:
    from cardkit.layout.compose import Composer, Face


def draw(c: Composer, face: Face, el: Mapping[str, Any], s: dict[str, Any], colours: dict[str, str],
         origin: tuple[float, float]) -> None:
    L, C = c.length, c.colour
    ox, oy = origin
    x, y = el["at"]
    c.place_icon(face, c.icon_name(el["name"], s), ox + L(x, s), oy + L(y, s), L(el["size"], s),
                 C(el.get("colour", INK), s, colours) or INK)



def shows(r: Any, el: Mapping[str, Any], s: Any, seen: tuple[str, ...]) -> None:
    if isinstance(el.get("name"), str):
        r.template(el["name"], s)
    else:  # {map, by, default}: the same lookup as a mapped colour
        r.colour(el.get("name"), s)

SCHEMA = {
    "required": ["name", "at", "size"],
    "properties": {
        "name": {
            "oneOf": [
                {"type": "string"},
                {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["map", "by"],
                    "properties": {"map": {"type": "string"}, "by": {"type": "string"}, "default": {"type": "string"}},
                },
            ],
        },
        "at": {"type": "array", "items": {"$ref": "#/$defs/length"}, "minItems": 2, "maxItems": 2},
        "size": {"$ref": "#/$defs/length"},
        "colour": {"$ref": "#/$defs/colour"},
        "style": {
            "type": "string",
            "description": "a style under `styles` whose colour, fill, stroke and backdrop this element takes where it sets none",
        },
    },
}

KIND = ElementKind(
    name="icon",
    order=50,
    doc="`name` (template, or `{map, by, default}`), `at: [x, y]` (bottom-left), `size`, `colour`",
    schema=SCHEMA,
    draw=draw,
    shows=shows,
    positive=('size',),
    style_carries=('colour',),
)
