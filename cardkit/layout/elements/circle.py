"""Element kind ``circle``: a circle by its centre and radius.

Its keys and docs line are :data:`KIND`; the face file's checks and the schema read them
(:mod:`cardkit.layout.elements`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardkit.layout.elements import ElementKind
from cardkit.layout.ops import Circle

if TYPE_CHECKING:
    from cardkit.layout.compose import Composer, Face


def draw(c: Composer, face: Face, el: Mapping[str, Any], s: dict[str, Any], colours: dict[str, str],
         origin: tuple[float, float]) -> None:
    L, C = c.length, c.colour
    ox, oy = origin
    cx, cy = el["centre"]
    face.ops.append(Circle(ox + L(cx, s), oy + L(cy, s), L(el["r"], s), fill=C(el.get("fill"), s, colours),
                           stroke=C(el.get("stroke"), s, colours), lw=float(el.get("lw", 0.5))))


SCHEMA = {
    "required": ["centre", "r"],
    "properties": {
        "centre": {"type": "array", "items": {"$ref": "#/$defs/length"}, "minItems": 2, "maxItems": 2},
        "r": {"$ref": "#/$defs/length"},
        "fill": {"$ref": "#/$defs/colour"},
        "stroke": {"$ref": "#/$defs/colour"},
        "lw": {"type": "number", "minimum": 0, "maximum": 20},
        "style": {
            "type": "string",
            "description": "a style under `styles` whose colour, fill, stroke and backdrop this element takes where it sets none",
        },
    },
}

KIND = ElementKind(
    name="circle",
    order=40,
    doc="`centre: [x, y]`, `r`, `fill`, `stroke`, `lw`",
    schema=SCHEMA,
    draw=draw,
    style_carries=('fill', 'stroke'),
)
