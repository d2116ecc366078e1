"""Element kind ``value``: a short untranslated text (a number), not fitted.

Its keys and docs line are :data:`KIND`; the face file's checks and the schema read them
(:mod:`cardkit.layout.elements`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardkit.layout.elements import ROLE, ElementKind
from cardkit.layout.binding import render
from cardkit.layout.colour import INK
from cardkit.layout.ops import Text

if TYPE_CHECKING:
    from cardkit.layout.compose import Composer, Face


def label(c: Composer, el: Mapping[str, Any], s: dict[str, Any], colours: dict[str, str]) -> tuple[str, float, str, str]:
    """The text of a ``value`` or ``badge`` element (its ``text`` template filled in), its size
    (``sizes`` by the number of characters, else ``size``), role and colour."""
    text = render(el["text"], s, c.set.cards)
    sizes = el.get("sizes")
    size = c.length(sizes[min(len(text), len(sizes)) - 1] if sizes else el.get("size", 9), s)
    return text, size, el.get("role", "number"), c.colour(el.get("colour", INK), s, colours) or INK


def draw(c: Composer, face: Face, el: Mapping[str, Any], s: dict[str, Any], colours: dict[str, str],
         origin: tuple[float, float]) -> None:
    text, size, role, colour = label(c, el, s, colours)
    ox, oy = origin
    x, y = el["at"]
    x0 = ox + c.length(x, s)
    if el.get("align") == "center":
        x0 -= c.book.width(text, c.book.chain(c.locale, role), size) / 2
    face.ops.append(Text(x0, oy + c.length(y, s), text, c.locale, role, size, colour))



def shows(r: Any, el: Mapping[str, Any], s: Any, seen: tuple[str, ...]) -> None:
    r.template(el.get("text"), s)

SCHEMA = {
    "required": ["text", "at"],
    "properties": {
        "text": {"type": "string"},
        "at": {"type": "array", "items": {"$ref": "#/$defs/length"}, "minItems": 2, "maxItems": 2},
        "align": {"enum": ["left", "center"]},
        "size": {"$ref": "#/$defs/length"},
        "sizes": {"type": "array", "items": {"$ref": "#/$defs/length"}, "minItems": 1},
        "role": dict(ROLE),
        "colour": {"$ref": "#/$defs/colour"},
        "style": {
            "type": "string",
            "description": "a style under `styles` whose colour, fill, stroke and backdrop this element takes where it sets none",
        },
    },
}

KIND = ElementKind(
    name="value",
    order=70,
    doc="a short untranslated text, not fitted: `text` (template), `at: [x, baseline]`, `align: center` (centred on x), `size`/`sizes`, `role` (default `number`), `colour`",
    schema=SCHEMA,
    draw=draw,
    shows=shows,
    font_sizes=True,
    style_carries=('colour',),
)
