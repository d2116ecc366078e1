"""The card model: frozen values built from validated card files.  No I/O here.

Cards are keyed by stable IDs.  English display strings stay in the model only
as :class:`SourceString` records (for extraction and layout); nothing in the
rules engine reads them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping, TypeVar

from cardkit.errors import JsonPath


@dataclass(frozen=True)
class Origin:
    """Where a value was defined: a project-relative file and a JSON path in it."""

    file: str
    path: JsonPath = ()

    def child(self, *parts: str | int) -> "Origin":
        return Origin(self.file, self.path + parts)


@dataclass(frozen=True)
class Effect:
    """One ability step: a kind from :mod:`cardkit.effects` and its parameters."""

    kind: str
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), hash=False, compare=True)
    # a private plain copy of ``params``: ``get`` runs in every card effect of
    # every simulated game, and a dict lookup is the fastest answer (compiled too)
    _values: dict[str, Any] = field(default_factory=dict, init=False, repr=False, hash=False, compare=False)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> "Effect":
        params = {k: (tuple(v) if isinstance(v, list) else v) for k, v in data.items() if k != "kind"}
        return cls(str(data["kind"]), MappingProxyType(params))

    def __post_init__(self) -> None:
        object.__setattr__(self, "_values", dict(self.params))

    def get(self, name: str, default: Any = None) -> Any:
        return self._values.get(name, default)


@dataclass(frozen=True)
class SourceString:
    """One translatable English string: its gettext context is ``<card id>.<field>``.

    A string whose wording depends on a number is a plural message: ``text`` is
    the English singular (gettext ``msgid``), ``plural`` the English plural
    (``msgid_plural``) and ``count`` the name of the placeholder that holds the
    number choosing the form (``players`` in ``{players} players``).
    """

    msgctxt: str
    text: str
    file: str
    line: int
    comment: str
    column: int = 1
    plural: str | None = None
    count: str | None = None


@dataclass(frozen=True, kw_only=True)
class Card:
    id: str
    kind: str
    quantity: int
    origin: Origin
    art: str | None = None  # project-relative path of the user's artwork, checked at load
    # the card's validated YAML mapping, plain data: what faces bind to by key name
    fields: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), hash=False, compare=False, repr=False)


C = TypeVar("C", bound=Card)


@dataclass(frozen=True, kw_only=True)
class Marine(Card):
    team: str
    range: int


@dataclass(frozen=True, kw_only=True)
class Action(Card):
    team: str
    type: str
    order: int
    timing: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class SpawnBox:
    severity: str  # "major" | "minor"
    colour: str


@dataclass(frozen=True)
class MoveBox:
    type: str  # "adjacent" | "flank"
    icon: str


@dataclass(frozen=True, kw_only=True)
class Event(Card):
    instinct: bool
    effects: tuple[Effect, ...]
    spawn: tuple[SpawnBox, ...]
    moves: tuple[MoveBox | None, ...]  # one per physical copy

    def copy_ids(self) -> tuple[str, ...]:
        """IDs of the physical copies (``gun_jam#1``, ``gun_jam#2``)."""
        if self.quantity == 1:
            return (self.id,)
        return tuple(f"{self.id}#{i}" for i in range(1, self.quantity + 1))


@dataclass(frozen=True, kw_only=True)
class Terrain(Card):
    colour: str
    bars: int
    activatable: bool
    effects: tuple[Effect, ...]


@dataclass(frozen=True, kw_only=True)
class Genestealer(Card):
    icons: tuple[str, ...]
    brood_lord: bool
    defence_modifier: int


@dataclass(frozen=True)
class Placement:
    side: str
    terrain: str
    position: int
    count_from: str  # "top" | "bottom"

    def row(self, formation_size: int) -> int:
        """0-based row for a formation of ``formation_size``; numbers past the end clamp."""
        n = min(self.position, formation_size)
        return n - 1 if self.count_from == "top" else formation_size - n


@dataclass(frozen=True, kw_only=True)
class Location(Card):
    tier: str
    blips: tuple[int, int]
    terrain: tuple[Placement, ...]
    trigger: str
    effects: tuple[Effect, ...]
    win: Effect | None


@dataclass(frozen=True, kw_only=True)
class SetupCard(Card):
    players: tuple[int, ...]
    formation_size: int
    blips: tuple[int, int]
    major: int
    minor: int
    deck: tuple[str, ...]
    terrain: tuple[Placement, ...]


@dataclass(frozen=True, kw_only=True)
class Scenario(Card):
    number: int
    data: Mapping[str, Any] = field(hash=False)


@dataclass(frozen=True)
class Team:
    id: str
    colour: str


@dataclass(frozen=True)
class Rules:
    min_players: int
    max_players: int
    teams_per_player: tuple[int, ...]
    adjacent_move: Mapping[str, str] = field(hash=False)
    location_tiers: tuple[str, ...] = ()

    def teams_for(self, players: int) -> int:
        return self.teams_per_player[players - 1] * players


@dataclass(frozen=True)
class CardSet:
    id: str
    game: str
    directory: str  # project-relative
    cards_total: int  # as declared in the manifest
    components: Mapping[str, int] = field(hash=False)
    cards: Mapping[str, Card] = field(hash=False)
    teams: tuple[Team, ...] = ()
    die_faces: tuple[tuple[int, bool], ...] = ()
    rules: Rules | None = None
    glossary: tuple[str, ...] = ()
    strings: tuple[SourceString, ...] = ()

    def of_kind(self, cls: type[C]) -> list[C]:
        return [c for c in self.cards.values() if isinstance(c, cls)]

    def physical_count(self) -> int:
        return sum(c.quantity for c in self.cards.values())
