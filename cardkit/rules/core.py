"""The engine contract shared by every game: decisions, options, outcomes and
one seeded, recorded source of randomness.

* A :class:`Decision` names who decides, what kind of choice it is and the
  legal :class:`Option` values; an option has a text form that parses back.
* A finished game has an :class:`Outcome`; a game never ends by raising.
* Every shuffle and die roll goes through :class:`Rng`, which records it, so a
  game replays exactly from its seed and its decisions.

An option's text is ``kind:value`` (``swarm:3:left``), and ``Option.parse``
reads it back (``tests/engine/test_engine.py``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Iterable, Literal, Mapping, NewType, Sequence, TypeVar

T = TypeVar("T")


class Option:
    """One legal choice: a kind and a value, immutable, equal and hashed by both.

    A small class rather than a named tuple: compiled (see ``cardkit/_compiled.py``)
    it is a native object built without running Python code, and games build
    hundreds of options per play."""

    __slots__ = ("kind", "value")

    def __init__(self, kind: str, value: str) -> None:
        self.kind = kind
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Option) and self.kind == other.kind and self.value == other.value

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash((self.kind, self.value))

    def __repr__(self) -> str:
        return f"Option(kind={self.kind!r}, value={self.value!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Option, (self.kind, self.value))

    def text(self) -> str:
        return f"{self.kind}:{self.value}"

    @classmethod
    def parse(cls, text: str) -> "Option":
        kind, _, value = text.partition(":")
        if not kind or not _:
            raise ValueError(f"not an option: {text!r} (expected kind:value)")
        return cls(kind, value)


#: a game's word for a kind of decision (``Decision.kind``).  Each game declares its own
#: vocabulary (a set of named constants, an Enum's values or a ``Literal``) and makes its words
#: with ``DecisionKind("move")`` once; the generic side (agents, playtest, conformance) only
#: compares, counts and prints them, so it needs no game's list (see docs/engines.md).
DecisionKind = NewType("DecisionKind", str)

#: a game's word for why a game ended (``Outcome.reason``, ``GameResult.reason``): the game's own
#: vocabulary too (the playtest counts defeats by it); the generic side adds only the text of an
#: engine error for a game that raised
EndReason = NewType("EndReason", str)


class Decision:
    """A choice the game waits for: ``player`` picks one of ``options``.

    ``context`` is the sorted tuple of (key, value) pairs the rules attached;
    :meth:`ctx` reads one of them.  The pairs are kept as a dict and sorted only
    when ``context`` is read (most decisions are answered through ``ctx`` or not
    looked at at all).
    """

    __slots__ = ("player", "kind", "options", "_context")

    def __init__(self, player: int, kind: DecisionKind, options: tuple[Option, ...],
                 context: Mapping[str, Any] | Iterable[tuple[str, Any]] = (), fresh: bool = False) -> None:
        self.player = player
        self.kind = kind
        self.options = options
        # ``fresh``: the caller hands over a dict of its own that nobody else holds (the engine's asks)
        self._context = context if fresh and isinstance(context, dict) else dict(context)

    @property
    def context(self) -> tuple[tuple[str, Any], ...]:
        return tuple(sorted(self._context.items()))

    def ctx(self, key: str, default: Any = None) -> Any:
        return self._context.get(key, default)

    def _key(self) -> tuple[Any, ...]:
        return (self.player, self.kind, self.options, self.context)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Decision(player={self.player!r}, kind={self.kind!r}, options={self.options!r}, "
                f"context={self.context!r})")


#: how a game of the shared core ended: the players won or lost, or a limit cut it short
Ending = Literal["win", "loss", "abandoned"]


@dataclass(frozen=True)
class Outcome:
    result: Ending
    round: int
    reason: EndReason

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
        # the generator is made at the first draw: a game copied for a search gets its generator
        # from the game it copies (shared until either draws: :meth:`copy`), and a determinized copy
        # a new one that its playout may never draw from, so neither seeds one in vain
        self._r: random.Random | None = None
        self._shared = False

    def _stream(self) -> random.Random:
        """The generator, this Rng's own: seeded at the first draw, copied at the first draw after
        :meth:`copy` shared it (a copy in the same state, so the draws are the same)."""
        r = self._r
        if r is None:
            r = self._r = random.Random(self.seed)
        elif self._shared:
            own: random.Random = random.Random.__new__(random.Random)
            own.setstate(r.getstate())
            r = self._r = own
            self._shared = False
        return r

    def copy(self) -> "Rng":
        """An independent Rng in the same state, with the same log and forced rolls: it shares this
        one's generator until either of them draws (copy on write)."""
        new = Rng(self.seed, list(self.log), list(self.forced))
        if self._r is not None:
            new._r = self._r
            new._shared = self._shared = True
        return new

    def below(self, n: int) -> int:
        """A uniform integer in [0, n): the Mersenne Twister's bits, drawn by
        rejection exactly as ``random.Random.randrange(n)`` draws them, so a
        seed gives the same games as ever, here without the Python-level
        layers of the random module (and unchanged if they ever change)."""
        k = n.bit_length()
        stream = self._r
        if stream is None or self._shared:
            stream = self._stream()
        getrandbits = stream.getrandbits
        r: int = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    def roll(self, sides: int) -> int:
        v = self.forced.pop(0) if self.forced else self.below(sides)
        self.log.append(("roll", v))
        return v

    def shuffle(self, items: list[T], what: str) -> None:
        # Fisher-Yates from the end, as random.Random.shuffle does
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        self.log.append(("shuffle", what))

    def choice(self, items: Sequence[T], what: str) -> T:
        i = self.below(len(items))
        self.log.append(("pick", what))
        return items[i]

    def getstate(self) -> Any:
        return self._stream().getstate()

    def setstate(self, state: Any) -> None:
        own: random.Random = random.Random.__new__(random.Random)
        own.setstate(state)
        self._r, self._shared = own, False


class GameOver(Exception):
    """Internal: unwinds the rules code when the game ends; never leaves the engine."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.reason)
        self.outcome = outcome
