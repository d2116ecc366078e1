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
    """One ability step: a kind of the game's effect vocabulary (:mod:`cardkit.effects`) and its parameters."""

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
    """One translatable English string: its gettext context is ``<card id>.<field>``
    (``set.<field>`` for the manifest, the id itself for an interface string).

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
    """One card entry of a set, whatever the game: a generic record.

    ``fields`` is the card's validated YAML mapping with the kind's defaults
    applied (``id`` included), read-only at the top level; faces bind to it by
    YAML key.  ``kind`` is the kind's name in the set's ``kinds.yaml``;
    ``quantity`` the physical copies its quantity rule gives.  A game plugin may
    build typed subclasses of it (its views) for speed.
    """

    id: str
    kind: str
    quantity: int
    origin: Origin
    art: str | None = None  # project-relative path of the user's artwork, checked at load
    # the card's validated YAML mapping, plain data: what faces bind to by key name
    fields: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), hash=False, compare=False, repr=False)


C = TypeVar("C", bound=Card)


@dataclass(frozen=True)
class Team:
    id: str
    colour: str


@dataclass(frozen=True, kw_only=True)
class CardSet:
    """A loaded set: generic card records keyed by id, plus the manifest.

    ``manifest`` is the validated ``set.yaml`` mapping (read-only at the top
    level), for a game plugin to read its own sections from; ``kinds`` maps each
    kind name to its deck for the printer (see :mod:`cardkit.load.kinds`).
    ``strings`` holds every translatable string of the set: the manifest's, the
    cards' and, last, the set's own interface strings (``strings.yaml``), whose
    ids ``ui_ids`` lists (a face or an engine asks for them by id, like
    cardkit's own interface strings).
    """

    id: str
    game: str
    directory: str  # project-relative
    cards_total: int  # as declared in the manifest
    components: Mapping[str, int] = field(hash=False)
    cards: Mapping[str, Card] = field(hash=False)
    teams: tuple[Team, ...] = ()
    manifest: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), hash=False, compare=False)
    kinds: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), hash=False, compare=False)
    glossary: tuple[str, ...] = ()
    strings: tuple[SourceString, ...] = ()
    ui_ids: frozenset[str] = frozenset()

    def of_kind(self, cls: type[C]) -> list[C]:
        return [c for c in self.cards.values() if isinstance(c, cls)]

    def cards_of(self, kind: str) -> list[Card]:
        """The cards of one declared kind, in file order."""
        return [c for c in self.cards.values() if c.kind == kind]

    def physical_count(self) -> int:
        return sum(c.quantity for c in self.cards.values())
