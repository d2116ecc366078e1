"""Element kind ``group``: elements drawn offset by ``at``, repeated and conditioned as one.

Its keys and docs line are :data:`KIND`; the face file's checks and the schema read them
(:mod:`cardkit.layout.elements`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardkit.layout.elements import ElementKind

if TYPE_CHECKING:
    from cardkit.layout.compose import Composer, Face


def draw(c: Composer, face: Face, el: Mapping[str, Any], s: dict[str, Any], colours: dict[str, str],
         origin: tuple[float, float]) -> None:
    at = el.get("at", [0, 0])
    c.draw(face, el["elements"], s, colours, (origin[0] + c.length(at[0], s), origin[1] + c.length(at[1], s)))



def shows(r: Any, el: Mapping[str, Any], s: Any, seen: tuple[str, ...]) -> None:
    r.elements(el.get("elements", []), s, seen)

SCHEMA = {
    "required": ["elements"],
    "properties": {
        "at": {"type": "array", "items": {"$ref": "#/$defs/length"}, "minItems": 2, "maxItems": 2},
        "elements": {"$ref": "#/$defs/elements"},
    },
}

KIND = ElementKind(
    name="group",
    order=130,
    doc="`elements` drawn offset by `at` (and repeated/conditioned as one)",
    schema=SCHEMA,
    draw=draw,
    shows=shows,
)
