"""Effect vocabularies: the building blocks a game's plugin names its abilities with.

A card's ability is a list of effects; each effect is a ``kind`` plus
parameters (``{kind: draw, count: 2}``).  A game's plugin lists its kinds as
:class:`EffectKind` values with typed :class:`Param` s, hands the names to the
loader (``GamePlugin.effect_vocabularies``) and the JSON Schema made here to
the validator (``GamePlugin.effect_schema``, from :func:`vocabulary_schema`);
its rules engine registers one handler per kind.  :func:`vocabulary_markdown`
writes the vocabulary as a table for the game's docs.

It belongs to the core: it imports nothing from localization or rendering.

>>> kinds = {"draw": EffectKind("draw", "Draw cards.", {"count": Param("integer", "cards", minimum=1, maximum=3)})}
>>> schema = vocabulary_schema({"effect": kinds}, {"effect": "effect"}, "a vocabulary")
>>> schema["$defs"]["effect"]["properties"]["kind"]
{'enum': ['draw']}
>>> vocabulary_markdown("Effects", [], [("Effects", kinds)]).splitlines()[-1]
'| `draw` | Draw cards. | `count` (integer 1-3): cards |'
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Param:
    """One parameter of an effect kind."""

    type: str  # "integer", "boolean", "string", "faces" (list of die faces), "enum"
    doc: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    required: bool = True
    ref: str | None = None  # names a card kind of the set the value must be an id of

    def schema(self) -> dict[str, Any]:
        if self.type == "faces":
            return {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 5},
                    "minItems": 1, "maxItems": 6, "uniqueItems": True, "description": self.doc}
        if self.type == "enum":
            return {"enum": list(self.choices), "description": self.doc}
        out: dict[str, Any] = {"type": self.type, "description": self.doc}
        if self.type == "string":
            out["pattern"] = "^[a-z][a-z0-9_]*$"
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


@dataclass(frozen=True)
class EffectKind:
    name: str
    doc: str
    params: dict[str, Param] = field(default_factory=dict)


def kind_schema(kinds: Mapping[str, EffectKind], defs_prefix: str) -> dict[str, Any]:
    """The schema of one effect of ``kinds``: a known ``kind`` and exactly its parameters."""
    branches = []
    for kind in kinds.values():
        props: dict[str, Any] = {"kind": {"const": kind.name}}
        props.update({name: p.schema() for name, p in kind.params.items()})
        branches.append({
            "if": {"properties": {"kind": {"const": kind.name}}, "required": ["kind"]},
            "then": {
                "properties": props,
                "required": ["kind"] + [n for n, p in kind.params.items() if p.required],
                "additionalProperties": False,
            },
        })
    return {
        "type": "object",
        "description": f"{defs_prefix}: a kind and its parameters",
        "required": ["kind"],
        "properties": {"kind": {"enum": list(kinds)}},
        "allOf": branches,
    }


def vocabulary_schema(vocabularies: Mapping[str, Mapping[str, EffectKind]], labels: Mapping[str, str],
                      title: str) -> dict[str, Any]:
    """The JSON Schema document ``effect.schema.json`` of a game: one ``$defs``
    entry per vocabulary (``effect.schema.json#/$defs/<name>`` is what an
    ``effects``/``effect`` field of ``kinds.yaml`` refers to)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "effect.schema.json",
        "title": title,
        "$defs": {name: kind_schema(kinds, labels.get(name, name)) for name, kinds in vocabularies.items()},
    }


def vocabulary_schema_text(schema: Mapping[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def _param_text(name: str, p: Param) -> str:
    kind = "/".join(p.choices) if p.type == "enum" else p.type
    span = "" if p.minimum is None else f" {p.minimum}-{p.maximum}" if p.minimum >= 0 else f" {p.minimum} to {p.maximum}"
    ref = f", {p.ref} id" if p.ref else ""
    return f"`{name}` ({kind}{span}{ref}): {p.doc}"


def vocabulary_markdown(title: str, intro: Sequence[str], sections: Sequence[tuple[str, Mapping[str, EffectKind]]]) -> str:
    """A vocabulary as Markdown: a heading, the ``intro`` lines, then a table
    (kind, what it does, parameters) per section."""
    lines = [f"# {title}", "", *intro, *([""] if intro else [])]
    for heading, kinds in sections:
        lines += [f"## {heading}", "", "| kind | what it does | parameters |", "|---|---|---|"]
        for k in kinds.values():
            params = "; ".join(_param_text(n, p) for n, p in k.params.items()) or "none"
            lines.append(f"| `{k.name}` | {k.doc} | {params} |")
        lines.append("")
    return "\n".join(lines)
