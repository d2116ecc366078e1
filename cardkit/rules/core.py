"""The engine contract shared by every game: decisions, options, outcomes and
one seeded, recorded source of randomness.

* A :class:`Decision` names who decides, what kind of choice it is and the
  legal :class:`Option` values; an option has a text form that parses back.
* A finished game has an :class:`Outcome`; a game never ends by raising.
* Every shuffle and die roll goes through :class:`Rng`, which records it, so a
  game replays exactly from its seed and its decisions.

>>> Option.parse("marine:sergeant_gideon")
Option(kind='marine', value='sergeant_gideon')
>>> Option("swarm", "3:left").text()
'swarm:3:left'
>>> r = Rng(7); r.roll(6) == Rng(7).roll(6)
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Sequence, TypeVar

T = TypeVar("T")


@dataclass(frozen=True, order=True)
class Option:
    kind: str
    value: str

    def text(self) -> str:
        return f"{self.kind}:{self.value}"

    @classmethod
    def parse(cls, text: str) -> "Option":
        kind, _, value = text.partition(":")
        if not kind or not _:
            raise ValueError(f"not an option: {text!r} (expected kind:value)")
        return cls(kind, value)


@dataclass(frozen=True)
class Decision:
    """A choice the game waits for: ``player`` picks one of ``options``."""

    player: int
    kind: str
    options: tuple[Option, ...]
    context: tuple[tuple[str, Any], ...] = ()

    def ctx(self, key: str, default: Any = None) -> Any:
        return dict(self.context).get(key, default)


@dataclass(frozen=True)
class Outcome:
    result: str  # "win" | "loss"
    round: int
    reason: str

    @property
    def win(self) -> bool:
        return self.result == "win"


@dataclass
class Rng:
    """The game's only source of chance; every draw is logged as (kind, value)."""

    seed: int
    log: list[tuple[str, Any]] = field(default_factory=list)
    forced: list[int] = field(default_factory=list)  # die results a rule scenario dictates, in order

    def __post_init__(self) -> None:
        self._r = random.Random(self.seed)

    def roll(self, sides: int) -> int:
        v = self.forced.pop(0) if self.forced else self._r.randrange(sides)
        self.log.append(("roll", v))
        return v

    def shuffle(self, items: list[T], what: str) -> None:
        self._r.shuffle(items)
        self.log.append(("shuffle", what))

    def choice(self, items: Sequence[T], what: str) -> T:
        i = self._r.randrange(len(items))
        self.log.append(("pick", what))
        return items[i]

    def getstate(self) -> Any:
        return self._r.getstate()

    def setstate(self, state: Any) -> None:
        self._r.setstate(state)


class GameOver(Exception):
    """Internal: unwinds the rules code when the game ends; never leaves the engine."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.reason)
        self.outcome = outcome
