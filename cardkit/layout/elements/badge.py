"""Element kind ``badge``: a disc or a rounded box with a short value centred on it.

Its keys and docs line are :data:`KIND`; the face file's checks and the schema read them
(:mod:`cardkit.layout.elements`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardkit.layout.elements import ROLE, ElementKind
from cardkit.layout.elements.value import label, shows
from cardkit.layout.ops import Circle, Rect, Text

if TYPE_CHECKING:
    from cardkit.layout.compose import Composer, Face


def draw(c: Composer, face: Face, el: Mapping[str, Any], s: dict[str, Any], colours: dict[str, str],
         origin: tuple[float, float]) -> None:
    L, C = c.length, c.colour
    ox, oy = origin
    text, size, role, colour = label(c, el, s, colours)
    cx, cy = L(el["centre"][0], s) + ox, L(el["centre"][1], s) + oy
    fill, stroke = C(el.get("fill"), s, colours), C(el.get("stroke"), s, colours)
    if "radius" in el:
        face.ops.append(Circle(cx, cy, L(el["radius"], s), fill=fill, stroke=stroke, lw=float(el.get("lw", 0.5))))
    else:
        w, h = L(el["w"], s), L(el["h"], s)
        face.ops.append(Rect(cx - w / 2, cy - h / 2, w, h, fill=fill, stroke=stroke, lw=float(el.get("lw", 0.5)),
                             r=L(el.get("r", 0), s)))
    tw = c.book.width(text, c.book.chain(c.locale, role), size)
    baseline = cy + L(el["baseline"], s) if "baseline" in el else cy - size * 0.36
    face.ops.append(Text(cx - tw / 2, baseline, text, c.locale, role, size, colour))


SCHEMA = {
    "required": ["text", "centre"],
    "anyOf": [{"required": ["radius"]}, {"required": ["w", "h"]}],
    "properties": {
        "text": {"type": "string"},
        "centre": {"type": "array", "items": {"$ref": "#/$defs/length"}, "minItems": 2, "maxItems": 2},
        "w": {"$ref": "#/$defs/length"},
        "h": {"$ref": "#/$defs/length"},
        "radius": {"$ref": "#/$defs/length"},
        "r": {"$ref": "#/$defs/length"},
        "fill": {"$ref": "#/$defs/colour"},
        "stroke": {"$ref": "#/$defs/colour"},
        "lw": {"type": "number", "minimum": 0, "maximum": 20},
        "size": {"$ref": "#/$defs/length"},
        "sizes": {"type": "array", "items": {"$ref": "#/$defs/length"}, "minItems": 1},
        "role": dict(ROLE),
        "colour": {"$ref": "#/$defs/colour"},
        "baseline": {"$ref": "#/$defs/length"},
        "style": {
            "type": "string",
            "description": "a style under `styles` whose colour, fill, stroke and backdrop this element takes where it sets none",
        },
    },
}

KIND = ElementKind(
    name="badge",
    order=80,
    doc="a shape with a centred value: `centre`, either `radius` (a disc) or `w`, `h`, `r` (a rounded box), `fill`, `stroke`, `lw`, `text` (template), `size` or `sizes` (by character count: `[17pt, 15pt]`), `role`, `colour`, `baseline` (offset from the centre; default -0.36 em)",
    schema=SCHEMA,
    draw=draw,
    shows=shows,
    font_sizes=True,
    positive=('radius', 'w', 'h'),
    style_carries=('colour', 'fill', 'stroke'),
)
