"""Element kind ``diagram``: shapes listed in a field (``rect: [x, y, w, h]``, ``circle: [cx, cy, r]``,
``line: [x1, y1, x2, y2]``, ``poly: [[x, y], ...]`` in the field's own units) scaled
uniformly into the box and centred.

Its keys and docs line are :data:`KIND`; the face file's checks and the schema read them
(:mod:`cardkit.layout.elements`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardkit.layout.elements import BOX, ElementKind
from cardkit.layout.binding import lookup
from cardkit.layout.colour import INK
from cardkit.layout.ops import Circle, Line, Poly, Rect

if TYPE_CHECKING:
    from cardkit.layout.compose import Composer, Face


def draw(c: Composer, face: Face, el: Mapping[str, Any], s: dict[str, Any], colours: dict[str, str],
         origin: tuple[float, float]) -> None:
    shapes = lookup(s, el["field"], c.set.cards)
    if not isinstance(shapes, list) or not shapes:
        return
    xs: list[float] = []
    ys: list[float] = []
    for sh in shapes:
        if "rect" in sh:
            x, y, w, h = sh["rect"]
            xs += [x, x + w]
            ys += [y, y + h]
        elif "circle" in sh:
            cx, cy, r = sh["circle"]
            xs += [cx - r, cx + r]
            ys += [cy - r, cy + r]
        elif "line" in sh:
            xs += sh["line"][0::2]
            ys += sh["line"][1::2]
        elif "poly" in sh:
            xs += [p[0] for p in sh["poly"]]
            ys += [p[1] for p in sh["poly"]]
    bx, by, bw, bh = (c.length(v, s) for v in el["box"])
    ext_w, ext_h = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0
    k = min(bw / ext_w, bh / ext_h)
    ox = origin[0] + bx + (bw - ext_w * k) / 2 - min(xs) * k
    oy = origin[1] + by + (bh - ext_h * k) / 2 - min(ys) * k
    lw = float(el.get("lw", 0.5))
    for sh in shapes:
        fill = c.colour(sh.get("fill", el.get("fill")), s, colours)
        stroke = c.colour(sh.get("stroke", el.get("stroke", INK)), s, colours)
        if "rect" in sh:
            x, y, w, h = sh["rect"]
            face.ops.append(Rect(ox + x * k, oy + y * k, w * k, h * k, fill=fill, stroke=stroke, lw=lw))
        elif "circle" in sh:
            cx, cy, r = sh["circle"]
            face.ops.append(Circle(ox + cx * k, oy + cy * k, r * k, fill=fill, stroke=stroke, lw=lw))
        elif "line" in sh:
            x1, y1, x2, y2 = sh["line"]
            face.ops.append(Line(ox + x1 * k, oy + y1 * k, ox + x2 * k, oy + y2 * k, stroke or INK, lw))
        elif "poly" in sh:
            face.ops.append(Poly(tuple((ox + p[0] * k, oy + p[1] * k) for p in sh["poly"]), fill=fill, stroke=stroke, lw=lw))



def shows(r: Any, el: Mapping[str, Any], s: Any, seen: tuple[str, ...]) -> None:
    r.resolve(el.get("field", "art"), s, True)

SCHEMA = {
    "required": ["field", "box"],
    "properties": {
        "field": {"type": "string"},
        "box": dict(BOX),
        "fill": {"$ref": "#/$defs/colour"},
        "stroke": {"$ref": "#/$defs/colour"},
        "lw": {"type": "number", "minimum": 0, "maximum": 20},
    },
}

KIND = ElementKind(
    name="diagram",
    order=120,
    doc="shapes listed in a field scaled uniformly into `box` and centred: `field`, `fill`, `stroke`, `lw`; each shape `{rect: [x, y, w, h]}`, `{circle: [cx, cy, r]}`, `{line: [x1, y1, x2, y2]}` or `{poly: [[x, y], ...]}` in the data's own units, with its own `fill`/`stroke`",
    schema=SCHEMA,
    draw=draw,
    shows=shows,
)
