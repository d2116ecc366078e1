"""Element kind ``icons``: an icon strip: one icon per item of a list field, ``step`` apart.

Its keys and docs line are :data:`KIND`; the face file's checks and the schema read them
(:mod:`cardkit.layout.elements`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardkit.layout.elements import ElementKind
from cardkit.layout.binding import lookup
from cardkit.layout.colour import INK

if TYPE_CHECKING:
    from cardkit.layout.compose import Composer, Face


def draw(c: Composer, face: Face, el: Mapping[str, Any], s: dict[str, Any], colours: dict[str, str],
         origin: tuple[float, float]) -> None:
    L, C = c.length, c.colour
    ox, oy = origin
    value = lookup(s, el["list"], c.set.cards)
    x, y = el["at"]
    x0, y0, size, step = ox + L(x, s), oy + L(y, s), L(el["size"], s), L(el["step"], s)
    col = C(el.get("colour", INK), s, colours) or INK
    for i, name in enumerate(value if isinstance(value, (list, tuple)) else []):
        c.place_icon(face, str(name), x0 + i * step, y0, size, col)



def shows(r: Any, el: Mapping[str, Any], s: Any, seen: tuple[str, ...]) -> None:
    r.resolve(el["list"], s, True)

SCHEMA = {
    "required": ["list", "at", "size", "step"],
    "properties": {
        "list": {"type": "string"},
        "at": {"type": "array", "items": {"$ref": "#/$defs/length"}, "minItems": 2, "maxItems": 2},
        "size": {"$ref": "#/$defs/length"},
        "step": {"$ref": "#/$defs/length"},
        "colour": {"$ref": "#/$defs/colour"},
        "style": {
            "type": "string",
            "description": "a style under `styles` whose colour, fill, stroke and backdrop this element takes where it sets none",
        },
    },
}

KIND = ElementKind(
    name="icons",
    order=60,
    doc="an icon strip from a list field: `list`, `at`, `size`, `step` (x advance), `colour`",
    schema=SCHEMA,
    draw=draw,
    shows=shows,
    positive=('size',),
    style_carries=('colour',),
)
