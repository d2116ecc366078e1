"""Tidelights' cards as the engine reads them: ids and data fields of the loaded set, never text.

A card's *rule* (a keeper's ability, a harbour's or a crew card's extra rule, what a storm does)
is looked up by the card's stable id in :data:`RULES` (Fireplace's "data merged with behaviour by
card id"); a storm the table does not know strikes by its ``severity``.  Every rule of a card in
``disabled`` is off: the card is dealt and played, but its rule never takes effect.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from cardkit.model import Card, CardSet

Mark = Literal["lamp", "rope", "bell", "oar"]

#: what each card's printed rule does, by card id (see ``RULES.md``)
RULES: Mapping[str, str] = {
    # keepers
    "ottilie_brann": "double_lamp",   # once per turn one lamp counts as two
    "cass_merrow": "shelter",         # discard a rope card to ignore a revealed storm
    "jonah_pell": "peek",             # look at the top tide card, keep it on top or put it at the bottom
    "ines_varga": "shift",            # once per turn move a crew card from ship to ship
    # harbours
    "saltwick": "one_short",          # a ship may berth here with one need uncovered
    "lantern_point": "brig_draw",     # a brig berthing here draws 2 crew cards
    # crew
    "harbour_pilot": "pilot",         # the ship it is played on moves to the safe end of the bay
    "fog_horn": "fog_horn",           # the next storm revealed this round is ignored
    "old_salt": "wild",               # covers only one need, of the player's choice
    # ships
    "patience": "weathered",          # still in the bay when a storm is revealed: +1 when it berths
    "second_chance": "second_chance",  # would be wrecked: to the bottom of the tide deck instead
    "northern_promise": "drag",       # wrecked: the next ship in the bay is wrecked too
    # storms
    "squall": "discard",
    "fog_bank": "fog",
    "cross_current": "current",
    "gale": "wreck_oldest",
    "tempest": "wreck_bare",
}

#: what an unknown storm does, by its severity
SEVERITY_RULES: Mapping[str, str] = {"squall": "discard", "gale": "wreck_oldest", "tempest": "wreck_bare"}

#: the bay holds this many ships; one more wrecks the oldest
BAY_LIMIT = 4
#: the final ship is shuffled into this many cards at the bottom of the tide deck
FINAL_DEPTH = 4
#: wrecks that lose the night
WRECK_LIMIT = 3


@dataclass(frozen=True)
class Keeper:
    id: str
    hand: int
    rule: str  # "" for none (or switched off)


@dataclass(frozen=True)
class Berth:
    id: str
    harbour: str
    bonus: int
    rig: str | None  # the only rig it takes; None: any
    deep: bool  # in deep water (takes brigs)
    harbour_rule: str  # the harbour's rule, "" for none (or switched off)

    def takes(self, rig: str) -> bool:
        if rig == "brig" and not self.deep:
            return False
        return self.rig is None or self.rig == rig


@dataclass(frozen=True)
class Crew:
    id: str
    icons: tuple[str, ...]
    copies: int
    rule: str
    #: the icons as a set (the guide step asks "does it cover any of these needs" for every card in hand)
    marks: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "marks", frozenset(self.icons))


@dataclass(frozen=True)
class Ship:
    id: str
    rig: str
    needs: tuple[str, ...]
    cargo: int
    final: bool
    rule: str


@dataclass(frozen=True)
class Storm:
    id: str
    copies: int
    rule: str  # "" when switched off: revealed, still a storm, but does nothing


@dataclass(frozen=True)
class Deck:
    """Everything of the card set the rules read, with the switched-off rules already removed."""

    keepers: tuple[Keeper, ...]
    berths: tuple[Berth, ...]
    crew: Mapping[str, Crew]
    ships: Mapping[str, Ship]
    storms: Mapping[str, Storm]
    #: the indices of the berths that take each rig (rules and agents ask it at every berthing)
    takers: Mapping[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    #: how many brigs the set has, and how many storm cards (the agents ask at every decision)
    brigs: int = field(init=False, repr=False, compare=False)
    storm_cards: int = field(init=False, repr=False, compare=False)
    #: what agents worked out from this deck and a position of the berths (a cache, bounded by its user)
    memo: dict[object, object] = field(init=False, repr=False, compare=False, default_factory=dict)
    #: the guide step's play options by (hand, ship, needs left) (a cache of the rules engine, bounded there)
    plays: dict[tuple[tuple[str, ...], str, tuple[str, ...]], tuple[Any, ...]] = field(
        init=False, repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        rigs = {s.rig for s in self.ships.values()} | {"skiff", "ketch", "brig"}
        object.__setattr__(self, "takers", {rig: tuple(i for i, b in enumerate(self.berths) if b.takes(rig))
                                            for rig in sorted(rigs)})
        object.__setattr__(self, "brigs", sum(1 for s in self.ships.values() if s.rig == "brig"))
        object.__setattr__(self, "storm_cards", sum(s.copies for s in self.storms.values()))

    def crew_cards(self) -> list[str]:
        """One id per physical crew card, in set order."""
        return [c.id for c in self.crew.values() for _ in range(c.copies)]

    def tide_cards(self) -> list[str]:
        """One id per physical tide card (ships, then storms), the final ships excluded."""
        ships = [s.id for s in self.ships.values() if not s.final]
        return ships + [s.id for s in self.storms.values() for _ in range(s.copies)]

    def finals(self) -> list[str]:
        return [s.id for s in self.ships.values() if s.final]


def _cards(card_set: CardSet, kind: str) -> list[Card]:
    return [c for c in card_set.cards.values() if c.kind == kind]


def _rule(card_id: str, disabled: frozenset[str], default: str = "") -> str:
    if card_id in disabled:
        return ""
    return RULES.get(card_id, default)


def read_deck(card_set: CardSet, disabled: frozenset[str] = frozenset()) -> Deck:
    """The rules' view of a loaded Tidelights set (``cardkit.model.CardSet``): ids and data only."""
    keepers = tuple(Keeper(c.id, int(c.fields["hand"]), _rule(c.id, disabled)) for c in _cards(card_set, "keeper"))
    harbours = sorted(_cards(card_set, "harbour"), key=lambda c: int(c.fields["number"]))
    berths = tuple(Berth(str(b["id"]), h.id, int(b.get("bonus", 0)), b.get("rig"), bool(h.fields.get("deep", False)),
                         _rule(h.id, disabled))
                   for h in harbours for b in h.fields["berths"])
    crew = {c.id: Crew(c.id, tuple(c.fields["icons"]), int(c.quantity), _rule(c.id, disabled))
            for c in _cards(card_set, "crew")}
    ships = {c.id: Ship(c.id, str(c.fields["rig"]), tuple(c.fields["needs"]), int(c.fields["cargo"]),
                        bool(c.fields.get("final", False)), _rule(c.id, disabled))
             for c in _cards(card_set, "ship")}
    storms = {c.id: Storm(c.id, int(c.quantity),
                          _rule(c.id, disabled, SEVERITY_RULES.get(str(c.fields.get("severity")), "")))
              for c in _cards(card_set, "storm")}
    return Deck(keepers, berths, crew, ships, storms)


def ability_cards(card_set: CardSet) -> frozenset[str]:
    """The ids of the set's cards whose rule can be switched off (every card :func:`read_deck` gives a rule)."""
    full = read_deck(card_set)
    ids = [k.id for k in full.keepers if k.rule] + [b.harbour for b in full.berths if b.harbour_rule]
    ids += [c.id for c in full.crew.values() if c.rule] + [s.id for s in full.ships.values() if s.rule]
    ids += [s.id for s in full.storms.values() if s.rule]
    return frozenset(ids)
