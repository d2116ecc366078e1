"""How faces read cards: one binding function, paths and string templates.

A face names a card's data by its YAML keys (``team``, ``stats.left``,
``spawn``); :func:`card_scope` is the only place that turns a card into the
names a face can read.  Paths walk mappings by key and lists by index or by an
item's ``id``; ``a->b`` follows a card reference (the value of ``a`` is a card
id) into that card's own fields.  Templates put values into strings:
``"arrow-{facing}"``, ``"{players| · }"`` (a list joined with `` · ``).
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Mapping

from cardkit.model import Card, CardSet

MISSING: Any = object()
RESERVED = frozenset({"id", "kind", "quantity", "item", "i", "n", "copy", "set", "deck", "card_deck", "variant", "W", "H"})
_TEMPLATE = re.compile(r"\{([^{}|]+)(?:\|([^{}]*))?\}")


def card_scope(card: Card) -> dict[str, Any]:
    """The names a face reads for ``card``: its YAML fields plus ``id``, ``kind`` and ``quantity``."""
    scope = dict(card.fields)
    scope["id"] = card.id
    scope["kind"] = card.kind
    scope["quantity"] = card.quantity
    return scope


def set_scope(card_set: CardSet) -> dict[str, Any]:
    """The set's manifest data faces may read under ``set.`` (``set.rules.adjacent_move.left``);
    ``set.teams.<id>`` is the team's colour."""
    scope = dict(card_set.manifest)
    scope.update({"id": card_set.id, "game": card_set.game, "teams": {t.id: t.colour for t in card_set.teams},
                  "components": dict(card_set.components)})
    return scope


def kind_field_names(cards: Iterable[Card], kinds: Iterable[str]) -> set[str]:
    """Field names the cards of ``kinds`` may have.  For now: every key any such
    card file entry uses (kind declarations will answer this later)."""
    wanted = set(kinds)
    out: set[str] = set()
    for c in cards:
        if c.kind in wanted:
            out.update(c.fields)
    return out


def _step(value: Any, seg: str) -> Any:
    if type(value) is dict:  # (the usual case, without the abstract Mapping check)
        return value.get(seg, MISSING)
    if isinstance(value, Mapping):
        return value.get(seg, MISSING)
    if isinstance(value, (list, tuple)):
        if seg.isdigit():
            i = int(seg)
            return value[i] if i < len(value) else MISSING
        for it in value:
            if isinstance(it, Mapping) and it.get("id") == seg:
                return it
    return MISSING


def lookup(scope: Mapping[str, Any], path: str, cards: Mapping[str, Card] | None = None) -> Any:
    """The value at ``path`` in ``scope`` or :data:`MISSING`."""
    hops = path.split("->")
    value: Any = scope
    for n, hop in enumerate(hops):
        if n:
            card = (cards or {}).get(str(value)) if not isinstance(value, (dict, list)) else None
            if card is None:
                return MISSING
            value = card_scope(card)
        for seg in hop.strip().split("."):
            value = _step(value, seg)
            if value is MISSING:
                return MISSING
    return value


def render(template: Any, scope: Mapping[str, Any], cards: Mapping[str, Card] | None = None) -> str:
    """Fill ``{path}`` and ``{path|sep}`` placeholders; a missing value is an empty string."""
    text = str(template)
    if "{" not in text:
        return text

    def sub(m: re.Match[str]) -> str:
        v = lookup(scope, m.group(1), cards)
        if v is MISSING or v is None:
            return ""
        if isinstance(v, (list, tuple)):
            return (m.group(2) if m.group(2) is not None else ", ").join(str(x) for x in v)
        return str(v)

    return _TEMPLATE.sub(sub, text)


def template_paths(template: Any) -> list[str]:
    """The paths a template reads (for validation)."""
    return [m.group(1) for m in _TEMPLATE.finditer(str(template))]


def truthy(value: Any) -> bool:
    return value is not MISSING and bool(value)
