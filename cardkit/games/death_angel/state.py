"""Play state of a Death Angel game: the formation, piles, decks and tokens.

Plain mutable objects with ``__slots__`` (the engine runs thousands of games a
second); :mod:`cardkit.games.death_angel.engine` is the only writer.  Nothing
here reads display text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from cardkit.rules.core import Option

# a variable-length tuple type: compiled, loops over it index in place (a fixed
# tuple[str, str] would be boxed into a new tuple and iterated generically)
SIDES: Final[tuple[str, ...]] = ("left", "right")


def other(side: str) -> str:
    return "right" if side == "left" else "left"


class GS:
    """A physical Genestealer or Brood Lord card.  ``brood_lord`` is what the card is (kept out of
    the Genestealer deck and the blip piles, counted by the Brood Lord win condition); ``defence``
    and ``last`` are its abilities, read from its card's effects (``defence_modifier``: added to
    the defence roll against its swarm; ``killed_last``)."""

    __slots__ = ("uid", "card", "icons", "brood_lord", "defence", "last", "moved")

    def __init__(self, uid: str, card: str, icons: tuple[str, ...], brood_lord: bool, defence: int = 0,
                 last: bool = False) -> None:
        self.uid, self.card, self.icons, self.brood_lord = uid, card, icons, brood_lord
        self.defence, self.last = defence, last
        self.moved = False

    def __repr__(self) -> str:
        return self.uid


class Swarm:
    """Face-up Genestealers at one position and side (two swarms may share a
    spot until the end of the event phase)."""

    __slots__ = ("cards", "attacked", "shielded")

    def __init__(self, cards: list[GS] | None = None) -> None:
        self.cards: list[GS] = cards or []
        self.attacked = False
        self.shielded = False

    def __len__(self) -> int:
        return len(self.cards)

    def has_icon(self, icon: str) -> bool:
        return any(icon in c.icons for c in self.cards)

    def defence_modifier(self) -> int:
        """What the swarm's cards add to a defence roll against it (a Brood Lord: -1 each)."""
        total = 0
        for c in self.cards:
            total += c.defence
        return total

    def __repr__(self) -> str:
        return f"Swarm({self.cards})"


class TerrainCard:
    __slots__ = ("card", "colour", "activatable", "tokens", "used")

    def __init__(self, card: str, colour: str, activatable: bool) -> None:
        self.card, self.colour, self.activatable = card, colour, activatable
        self.tokens = 0
        self.used = False  # activated this round

    def __repr__(self) -> str:
        return f"{self.card}({self.tokens})" if self.tokens else self.card


class Marine:
    __slots__ = ("id", "team", "range", "facing", "tokens", "alive", "row_hint", "option")

    def __init__(self, id: str, team: str, range_: int) -> None:
        self.id, self.team, self.range = id, team, range_
        self.option = Option("marine", id)  # offered in every decision that picks a marine
        self.facing = "left"
        self.tokens = 0
        self.alive = True
        # where State.row_of last found him: checked before use, so a stale
        # hint (after a swap or a death) only costs a scan
        self.row_hint = 0

    def __repr__(self) -> str:
        return f"{self.id}({self.facing[0]},{self.tokens})"


class Spot:
    """One side of one position: its terrain cards and swarms."""

    __slots__ = ("terrain", "swarms")

    def __init__(self) -> None:
        self.terrain: list[TerrainCard] = []
        self.swarms: list[Swarm] = []

    def count(self) -> int:
        # called very often (agents weigh every spot); most hold no swarm or one
        swarms = self.swarms
        if not swarms:
            return 0
        if len(swarms) == 1:
            return len(swarms[0].cards)
        return sum([len(s.cards) for s in swarms])


class Row:
    """One position of the formation: its marine (None while a gap closes) and
    its two spots, ``left`` and ``right``."""

    __slots__ = ("marine", "left", "right")

    def __init__(self, marine: Marine | None) -> None:
        self.marine = marine
        self.left = Spot()
        self.right = Spot()

    def spot(self, side: str) -> Spot:
        """The spot on ``side`` ("left" or "right")."""
        return self.left if side == "left" else self.right


@dataclass
class Team:
    id: str
    player: int
    hand: list[str]  # action card ids still usable
    last: str | None = None  # last round's card
    chosen: str | None = None
    forbidden: set[str] = field(default_factory=set)  # action types barred next round (Gun Jam)
    forbidden_next: set[str] = field(default_factory=set)
    removed: bool = False
