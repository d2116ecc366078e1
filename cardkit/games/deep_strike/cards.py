"""Deep Strike's typed view of its scenario cards: the number the set is sorted
by and the scenario's structured data (the card's ``fields``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from cardkit.model import Card, CardSet


@dataclass(frozen=True, kw_only=True)
class Scenario(Card):
    number: int
    data: Mapping[str, Any] = field(hash=False)


def views(card_set: CardSet) -> CardSet:
    """The set with every scenario record as a :class:`Scenario`."""
    cards = {cid: Scenario(id=c.id, kind=c.kind, quantity=c.quantity, origin=c.origin, art=c.art, fields=c.fields,
                           number=c.fields["number"], data=c.fields) if c.kind == "scenario" else c
             for cid, c in card_set.cards.items()}
    from dataclasses import replace

    return replace(card_set, cards=MappingProxyType(cards))
