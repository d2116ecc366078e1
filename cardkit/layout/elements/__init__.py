"""Element kinds of face files: one module per kind, one registry.

Each module of this package declares one kind of element a face file draws
(``{type: rect, box: [...]}``) as its ``KIND``, an :class:`ElementKind`: the kind's
name, its place in the tables, its line of the docs table (``docs/authoring.md``,
"Elements"), the JSON Schema of the keys it reads (without ``type`` and the keys
every element has: ``if``, ``unless``, ``repeat``, ``where``), how the face file's
checks read its lengths, the keys a style gives it, its draw function, and what it
reads of a card (``shows``, for the "field no face shows" check, M006).

:data:`KINDS` holds them all, found by importing every module of this package.  The
composer (:mod:`cardkit.layout.compose`) draws each element through it;
``schemas/face.schema.json``'s element list (:func:`element_schema`) and the docs
table (:func:`docs_table`) are generated from it (``python tools/element_kinds.py``
writes both; ``tests/layout/test_element_kinds.py`` checks that they are current
and iterates over every kind).  Adding a kind is one new module, its test and its
doc line (``docs/contributing.md``, "Adding an element kind").

Drawings that cannot be data are the ``plugin`` kind: functions registered under
the entry point group ``cardkit.face_elements`` (:mod:`cardkit.layout.elements.plugin`).

>>> [k.name for k in KINDS.values()][:4]
['rect', 'frame', 'line', 'circle']
>>> KINDS["badge"].json_schema()["required"]
['type', 'text', 'centre']
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from cardkit.layout.compose import Composer, Face

#: the keys every element has (docs/authoring.md, "Conditions and repeats"), first in each kind's schema
COMMON_PROPERTIES: Mapping[str, Any] = MappingProxyType({
    "if": {"$ref": "#/$defs/cond"},
    "unless": {"$ref": "#/$defs/cond"},
    "repeat": {"type": "string", "description": "a list field (or an integer field: a count); `item` and `i` name the current one"},
    "where": {"$ref": "#/$defs/cond"},
})

# Schema fragments several kinds share (one home each; the kinds spread them in place, so the
# generated schema keeps its key order).
#: ``box``: where an element sits on the card
BOX: Mapping[str, Any] = MappingProxyType({
    "type": "array",
    "items": {"$ref": "#/$defs/length"},
    "minItems": 4,
    "maxItems": 4,
    "description": "[x, y, width, height] from the bottom-left of the trim box",
})
#: the font role of a text
ROLE: Mapping[str, Any] = MappingProxyType({"enum": ["title", "body", "bold", "italic", "bolditalic", "number"]})
#: how a text box fits its text: size, smallest size, alignment, line cap, leading (after ``role``)
TEXT_FIT: Mapping[str, Any] = MappingProxyType({
    "size": {"$ref": "#/$defs/length"},
    "min": {"$ref": "#/$defs/length"},
    "align": {"enum": ["left", "center", "right"]},
    "max_lines": {"type": "integer", "minimum": 0, "maximum": 50},
    "leading": {"type": "number", "minimum": 0.5, "maximum": 3},
})

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


class Draw(Protocol):
    """An element kind's drawing: append the ops of element ``el`` to ``face.ops``.

    ``scope`` holds the card's fields and ``W``, ``H``, ``i``, ``n`` (one repeat's),
    ``colours`` the face's named colours, ``origin`` the offset of the enclosing
    group.  Lengths go through ``composer.length``, colours through
    ``composer.colour``, texts through ``composer.text`` / ``composer.column`` (so
    the fit check sees them); a :class:`~cardkit.errors.CardkitError` raised here is
    located at the element by the composer."""

    def __call__(self, composer: Composer, face: Face, el: Mapping[str, Any], scope: dict[str, Any],
                 colours: dict[str, str], origin: tuple[float, float], /) -> None: ...


class Shows(Protocol):
    """What an element kind reads of a card, told to the reader of :mod:`cardkit.layout.shown`
    (``reader.template(text, scope)``, ``reader.resolve(path, scope, whole)``, ``reader.colour``,
    ``reader.source``, ``reader.blocks``, ``reader.elements(els, scope, seen)``, ``reader.book``),
    so that the fields it shows count as shown (M006).  The keys every element has (``if``,
    ``repeat`` ...) and its colours are read for every kind."""

    def __call__(self, reader: Any, el: Mapping[str, Any], scope: Any, seen: tuple[str, ...], /) -> None: ...


@dataclass(frozen=True)
class ElementKind:
    """One kind of face element (see the module's docstring)."""

    name: str  # the element's `type`
    order: int  # its place in the schema's list and the docs table (tens: room for a new kind anywhere)
    doc: str  # its line of the docs table: what it draws and the keys it reads
    schema: Mapping[str, Any]  # JSON Schema of its own keys: `required`, `properties` (and `anyOf`, `oneOf` ...)
    draw: Draw
    font_sizes: bool = False  # its `size`, `min` and `sizes` are font sizes (M010), not lengths
    positive: tuple[str, ...] = ()  # its lengths that must be above 0 (M011)
    style_carries: tuple[str, ...] = ()  # the keys a style it names gives it (docs/authoring.md, "Reuse")
    shows: Shows | None = None  # how it reads card fields, for the "field no face shows" check (M006); None: it reads none

    def json_schema(self) -> dict[str, Any]:
        """The ``then`` of the kind in the face schema: its own schema with ``type`` and the common keys."""
        out: dict[str, Any] = {"type": "object", "additionalProperties": False}
        for key, value in self.schema.items():
            if key == "required":
                out[key] = ["type", *value]
            elif key == "properties":
                out[key] = {"type": {"const": self.name}, **COMMON_PROPERTIES, **value}
            else:
                out[key] = value
        return out


def registry(kinds: Iterable[ElementKind]) -> dict[str, ElementKind]:
    """The kinds by name in table order; ValueError for a name or order given twice, a name that
    is not an identifier, or a schema that restates ``type`` or a common key."""
    out: dict[str, ElementKind] = {}
    orders: dict[int, str] = {}
    for k in sorted(kinds, key=lambda k: (k.order, k.name)):
        if not _NAME.match(k.name):
            raise ValueError(f"element kind {k.name!r}: a name is lower-case letters, digits and _")
        if k.name in out:
            raise ValueError(f"element kind {k.name!r} is declared twice")
        if k.order in orders:
            raise ValueError(f"element kinds {orders[k.order]!r} and {k.name!r} have the same order {k.order}")
        restated = sorted({"type", *COMMON_PROPERTIES} & set(k.schema.get("properties", {})))
        if restated:
            raise ValueError(f"element kind {k.name!r} restates {', '.join(restated)}: every element has them")
        out[k.name] = k
        orders[k.order] = k.name
    return out


def discover() -> list[ElementKind]:
    """The ``KIND`` of every module of this package (modules named ``_...`` aside)."""
    found = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        kind = getattr(module, "KIND", None)
        if not isinstance(kind, ElementKind):
            raise ValueError(f"{module.__name__} declares no KIND (an ElementKind)")
        found.append(kind)
    return found


#: every element kind by name, in table order
KINDS: Mapping[str, ElementKind] = MappingProxyType(registry(discover()))


def element_schema(kinds: Mapping[str, ElementKind] = KINDS) -> dict[str, Any]:
    """``$defs.element`` of ``schemas/face.schema.json``: the list of kinds and each one's keys."""
    return {
        "type": "object",
        "required": ["type"],
        "properties": {"type": {"enum": list(kinds)}},
        "allOf": [{"if": {"properties": {"type": {"const": k.name}}}, "then": k.json_schema()} for k in kinds.values()],
    }


def docs_table(kinds: Mapping[str, ElementKind] = KINDS) -> str:
    """The table of ``docs/authoring.md``, "Elements"."""
    return "\n".join(["| type | keys |", "|---|---|", *(f"| `{k.name}` | {k.doc} |" for k in kinds.values())])
