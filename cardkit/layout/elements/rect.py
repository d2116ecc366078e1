"""Element kind ``rect``: a rectangle (a rounded one with ``r``).

Its keys and docs line are :data:`KIND`; the face file's checks and the schema read them
(:mod:`cardkit.layout.elements`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardkit.layout.elements import BOX, ElementKind
from cardkit.layout.ops import Rect

if TYPE_CHECKING:
    from cardkit.layout.compose import Composer, Face


def draw(c: Composer, face: Face, el: Mapping[str, Any], s: dict[str, Any], colours: dict[str, str],
         origin: tuple[float, float]) -> None:
    L, C = c.length, c.colour
    ox, oy = origin
    x, y, w, h = el["box"]
    face.ops.append(Rect(ox + L(x, s), oy + L(y, s), L(w, s), L(h, s), fill=C(el.get("fill"), s, colours),
                         stroke=C(el.get("stroke"), s, colours), lw=float(el.get("lw", 0.5)), r=L(el.get("r", 0), s)))


SCHEMA = {
    "required": ["box"],
    "properties": {
        "box": dict(BOX),
        "fill": {"$ref": "#/$defs/colour"},
        "stroke": {"$ref": "#/$defs/colour"},
        "lw": {"type": "number", "minimum": 0, "maximum": 20},
        "r": {"$ref": "#/$defs/length"},
        "style": {
            "type": "string",
            "description": "a style under `styles` whose colour, fill, stroke and backdrop this element takes where it sets none",
        },
    },
}

KIND = ElementKind(
    name="rect",
    order=10,
    doc="`box`, `fill`, `stroke`, `lw` (line width, pt), `r` (corner radius: a rounded frame)",
    schema=SCHEMA,
    draw=draw,
    style_carries=('fill', 'stroke'),
)
