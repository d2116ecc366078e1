"""Element kind ``use``: the face file's named group (``groups``) drawn where it stands, offset by ``at``.

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
    c.draw(face, c.faces.groups[el["group"]], s, colours, (origin[0] + c.length(at[0], s), origin[1] + c.length(at[1], s)))



def shows(r: Any, el: Mapping[str, Any], s: Any, seen: tuple[str, ...]) -> None:
    group = el.get("group")
    if isinstance(group, str) and group in r.book.groups and group not in seen:
        r.elements(r.book.groups[group], s, seen + (group,))

SCHEMA = {
    "required": ["group"],
    "properties": {
        "at": {"type": "array", "items": {"$ref": "#/$defs/length"}, "minItems": 2, "maxItems": 2},
        "group": {"type": "string"},
        "with": {
            "type": "object",
            "propertyNames": {"pattern": "^[a-z][a-z0-9_]*$"},
            "maxProperties": 32,
            "description": "arguments of a parameterised group: each $name in the group's strings is replaced by its value",
        },
    },
}

KIND = ElementKind(
    name="use",
    order=140,
    doc="draws the named `groups` entry, offset by `at`",
    schema=SCHEMA,
    draw=draw,
    shows=shows,
)
