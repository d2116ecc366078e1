"""Element kind ``image``: artwork named by a field, fitted (``contain``) or filling and clipped (``cover``).

Its keys and docs line are :data:`KIND`; the face file's checks and the schema read them
(:mod:`cardkit.layout.elements`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardkit.layout.elements import BOX, ElementKind
from cardkit.layout.ops import Group, Picture, Rect

if TYPE_CHECKING:
    from cardkit.layout.compose import Composer, Face


def draw(c: Composer, face: Face, el: Mapping[str, Any], s: dict[str, Any], colours: dict[str, str],
         origin: tuple[float, float]) -> None:
    rel = c.card_art(s, el.get("field", "art"))
    if rel is None or c.art_loader is None:
        return
    art = c.art_loader(rel)
    if art is None:  # left out (the faces' `images: {omit: true}`)
        return
    bx, by, bw, bh = (c.length(v, s) for v in el["box"])
    x, y = origin[0] + bx, origin[1] + by
    if el.get("backdrop", "#000000") is not None:
        face.ops.append(Rect(x, y, bw, bh, fill=c.colour(el.get("backdrop", "#000000"), s, colours)))
    if el.get("fit", "contain") == "cover":
        scale = max(bw / art.width, bh / art.height)
        w, h = art.width * scale, art.height * scale
        pic = Picture((bw - w) / 2, (bh - h) / 2, w, h, art.png, art.width, art.height)
        face.ops.append(Group((pic,), dx=x, dy=y, clip=(0.0, 0.0, bw, bh)))
    else:
        face.ops.append(Picture(x, y, bw, bh, art.png, art.width, art.height))



def shows(r: Any, el: Mapping[str, Any], s: Any, seen: tuple[str, ...]) -> None:
    r.resolve(el.get("field", "art"), s, True)

SCHEMA = {
    "required": ["field", "box"],
    "properties": {
        "field": {"type": "string"},
        "box": dict(BOX),
        "fit": {"enum": ["contain", "cover"]},
        "backdrop": {"oneOf": [{"$ref": "#/$defs/colour"}, {"type": "null"}]},
        "style": {
            "type": "string",
            "description": "a style under `styles` whose colour, fill, stroke and backdrop this element takes where it sets none",
        },
    },
}

KIND = ElementKind(
    name="image",
    order=110,
    doc="artwork from a field: `field` (`art`: the card's checked artwork path), `box`, `fit: contain|cover` (cover fills the box and is clipped to it), `backdrop` colour (default black, `null` for none)",
    schema=SCHEMA,
    draw=draw,
    shows=shows,
    style_carries=('backdrop',),
)
