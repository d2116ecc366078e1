"""Element kind ``line``: a straight line, solid or dashed.

Its keys and docs line are :data:`KIND`; the face file's checks and the schema read them
(:mod:`cardkit.layout.elements`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardkit.layout.elements import ElementKind
from cardkit.layout.colour import INK
from cardkit.layout.ops import Line

if TYPE_CHECKING:
    from cardkit.layout.compose import Composer, Face


def draw(c: Composer, face: Face, el: Mapping[str, Any], s: dict[str, Any], colours: dict[str, str],
         origin: tuple[float, float]) -> None:
    L, C = c.length, c.colour
    ox, oy = origin
    x1, y1, x2, y2 = el["points"]
    face.ops.append(Line(ox + L(x1, s), oy + L(y1, s), ox + L(x2, s), oy + L(y2, s), C(el.get("stroke", INK), s, colours) or INK,
                         float(el.get("lw", 0.5)), tuple(float(d) for d in el.get("dash", ()))))


SCHEMA = {
    "required": ["points"],
    "properties": {
        "points": {
            "type": "array",
            "items": {"$ref": "#/$defs/length"},
            "minItems": 4,
            "maxItems": 4,
            "description": "[x, y, width, height] from the bottom-left of the trim box",
        },
        "stroke": {"$ref": "#/$defs/colour"},
        "lw": {"type": "number", "minimum": 0, "maximum": 20},
        "dash": {"type": "array", "items": {"type": "number", "minimum": 0, "maximum": 1000}, "maxItems": 16},
    },
}

KIND = ElementKind(
    name="line",
    order=30,
    doc="`points: [x1, y1, x2, y2]`, `stroke`, `lw`, `dash: [on, off]`",
    schema=SCHEMA,
    draw=draw,
)
