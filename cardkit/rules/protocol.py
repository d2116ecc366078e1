"""The typed engine protocol: what any game's rules engine offers cardkit.

cardkit playtests a game it knows nothing about through these types alone
(OpenSpiel's ``Game``/``State`` split; TAG's "any game gets the same agents and
statistics").  Nothing here names a game, and nothing here imports one.

* :class:`EngineInfo` is what a game declares once: player range, co-operative
  or competitive, hidden information, how chance enters, its seats and the
  metrics and score targets the playtest reports.
* An :class:`Engine` (one object per game, handed out by the game's plugin)
  makes a :class:`Game` for a card set and a player count, optionally with some
  cards' abilities switched off (card impact).
* A :class:`Game` deals seeded :class:`State` objects.
* A :class:`State` is one game in progress: the pending
  :class:`~cardkit.rules.core.Decision` (whose: a seat, or :data:`CHANCE` with
  listed outcomes and probabilities), :meth:`State.apply`, a real
  :meth:`State.clone` at every decision, the finished game's
  :class:`GameResult`, and what the playtest reads (:class:`GameReport`).
* An agent chooses through one callback, ``agent(state, decision) -> Option``;
  an :data:`AgentFactory` makes one from a seed (the agent's own random stream,
  never the game's).

Options are :class:`~cardkit.rules.core.Option` values whose text form parses
back (``kind:value``).  A finished game has a result; it never ends by raising.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, runtime_checkable

from cardkit.errors import Issue
from cardkit.model import CardSet
from cardkit.rules.core import Decision, DecisionKind as DecisionKind, EndReason, Option

#: ``Decision.player`` of a chance node: the outcomes are the options, with
#: :meth:`State.chance_outcomes` giving their probabilities.
CHANCE = -1


class Cooperation(enum.Enum):
    """Who wins together."""

    COOPERATIVE = "cooperative"  # all seats share one result (the team against the game)
    COMPETITIVE = "competitive"  # each seat (or team of seats) has its own result


class Information(enum.Enum):
    PERFECT = "perfect"
    IMPERFECT = "imperfect"  # some cards are hidden from some seats (decks, hands)


class ChanceMode(enum.Enum):
    """How chance enters a game."""

    DETERMINISTIC = "deterministic"  # no chance after the seeded deal
    EXPLICIT = "explicit"  # chance nodes are decisions of :data:`CHANCE` with listed probabilities
    SAMPLED = "sampled"  # the state draws from its own seeded, recorded stream (dice, shuffles)


class Outcome(enum.Enum):
    """What a finished game's result is, as the game declares it (OpenSpiel's utility kinds).

    Combined with :class:`Cooperation`: a co-operative game has one result shared by every
    seat, a competitive game one per seat (or team)."""

    WIN_LOSS = "win-loss"  # each seat wins, draws or loses; a score, if any, is secondary
    SCORED = "scored"  # the score is the result (a range, targets, optionally a win threshold)


class Result(enum.Enum):
    """One seat's result of a finished game."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"


class End(enum.Enum):
    """How a game ended, as the playtest counts it."""

    COMPLETE = "complete"  # a result for every seat
    ABANDONED = "abandoned"  # a limit was reached (rounds, decisions) before the rules ended it
    ERROR = "error"  # the engine raised: a finding, never a lost batch


class MetricKind(enum.Enum):
    COUNT = "count"  # a non-negative integer per game (figures lost, rooms reached)
    FLAG = "flag"  # 0 or 1 per game (a support shortage happened)
    SCORE = "score"  # a number per game (points)


class Aggregate(enum.Enum):
    """How the playtest folds a metric over games (always in constant memory)."""

    MEAN = "mean"  # mean per game
    SHARE = "share"  # share of games where it is non-zero
    HISTOGRAM = "histogram"  # exact histogram of the values (integers)


@dataclass(frozen=True)
class Metric:
    """A per-game number the playtest tallies and reports.

    ``label`` is the id of the set's interface string (``strings.yaml``) that
    names it in reports, so the name is translated with the set."""

    name: str
    kind: MetricKind
    aggregate: Aggregate
    label: str = ""
    #: card impact also reports the paired difference of this metric's mean (``<name>_delta``, ``<name>_ci95``)
    paired: bool = False
    #: another metric's name: the report adds ``<name>_share``, this metric's total over the total of both
    #: (a co-operative game's figures lost among those lost and those standing)
    share_with: str = ""


@dataclass(frozen=True)
class EngineInfo:
    """The static facts a game declares (OpenSpiel's ``GameType`` + ``GameInfo``)."""

    game: str  # the game id, as in set.yaml's ``game:``
    min_players: int
    max_players: int
    cooperation: Cooperation
    information: Information
    chance: ChanceMode
    #: what a seat is called in reports, by seat index ("player", or team names); empty: "seat N"
    seats: tuple[str, ...] = ()
    #: per-game numbers the playtest tallies (the outcome's score is always tallied)
    metrics: tuple[Metric, ...] = ()
    #: score thresholds the ladder and the verdict read besides win/loss (e.g. 15, 20, 25)
    score_targets: tuple[float, ...] = ()
    #: what the result is: won/lost (every engine before this field) or a score
    outcome: Outcome = Outcome.WIN_LOSS
    #: the lowest and highest score a seat can end with (needed when ``outcome`` is SCORED)
    score_range: tuple[float, float] | None = None
    #: a scored game's optional win threshold: a seat scoring at least this counts as a win
    win_score: float | None = None


def outcome_value(info: EngineInfo, result: GameResult | None, seat: int) -> float | None:
    """What a finished game is worth to ``seat`` in [0, 1], as the game declares its outcome:
    a scored game's score placed in its range, else 1 a win, 0.5 a draw, 0 a loss.  None for an
    unfinished or stopped game, or a seat the result does not have.  The one home of this rule:
    search values playouts by it, the playtest reads results by it.

    >>> info = EngineInfo("g", 1, 2, Cooperation.COOPERATIVE, Information.PERFECT, ChanceMode.SAMPLED,
    ...                   outcome=Outcome.SCORED, score_range=(0.0, 25.0))
    >>> done = GameResult(End.COMPLETE, EndReason("deck out"), 9, (SeatResult(Result.LOSS, 20.0),))
    >>> outcome_value(info, done, 0)
    0.8
    """
    if result is None or result.end is not End.COMPLETE or not result.seats:
        return None
    i = 0 if info.cooperation is Cooperation.COOPERATIVE else seat
    if not 0 <= i < len(result.seats):
        return None
    s = result.seats[i]
    if info.outcome is Outcome.SCORED and info.score_range is not None:
        lo, hi = info.score_range
        return min(1.0, max(0.0, (s.score - lo) / (hi - lo))) if hi > lo else 0.5
    return 1.0 if s.result is Result.WIN else 0.5 if s.result is Result.DRAW else 0.0


@dataclass(frozen=True)
class SeatResult:
    result: Result
    score: float = 0.0


@dataclass(frozen=True)
class GameResult:
    """A finished (or stopped) game: a result per seat, why it ended, how long it took."""

    end: End
    reason: EndReason
    rounds: int
    seats: tuple[SeatResult, ...] = ()

    @property
    def complete(self) -> bool:
        return self.end is End.COMPLETE

    def returns(self) -> tuple[float, ...]:
        """OpenSpiel's ``returns()``: +1 a win, -1 a loss, 0 a draw or an unfinished game, per seat."""
        if self.end is not End.COMPLETE:
            return tuple(0.0 for _ in self.seats)
        return tuple(1.0 if s.result is Result.WIN else -1.0 if s.result is Result.LOSS else 0.0 for s in self.seats)


@dataclass(frozen=True)
class GameReport:
    """What the playtest reads from a finished game, then drops."""

    result: GameResult
    metrics: Mapping[str, float] = field(default_factory=dict)  # by :attr:`Metric.name`
    fired: frozenset[str] = frozenset()  # card ids whose ability took effect
    violations: tuple[str, ...] = ()  # invariant violations found at the end
    #: groups of cards in play the playtest breaks win rates down by (the teams a co-operative game deals)
    groups: tuple[str, ...] = ()


@runtime_checkable
class State(Protocol):
    """One game in progress."""

    @property
    def decision(self) -> Decision | None:
        """The pending decision, or None once the game is over."""
        ...

    def apply(self, option: Option) -> None:
        """Take one of the pending decision's options (a chance outcome at a chance node)."""
        ...

    def clone(self) -> State:
        """An independent copy that plays on exactly as this state would (its
        random stream included), made at any decision by copying, never by replaying."""
        ...

    def chance_outcomes(self) -> Sequence[tuple[Option, float]]:
        """At a :data:`CHANCE` decision, its outcomes with probabilities summing to 1; else empty."""
        ...

    def result(self) -> GameResult | None:
        """The result once the game is over, else None."""
        ...

    def report(self) -> GameReport:
        """The finished game's report (metrics, abilities fired, violations)."""
        ...

    def violations(self) -> Sequence[str]:
        """Invariant violations of the current state (cards conserved, ...); checked at every decision when certifying."""
        ...

    def information_state(self, player: int) -> str:
        """Everything ``player`` knows, as text: two states with equal text are indistinguishable to them."""
        ...

    def determinize(self, player: int, rng: random.Random) -> State:
        """A copy in which what ``player`` cannot know (hidden cards, the order of decks, future
        chance) is redealt from ``rng`` consistently with what they know (a determinization)."""
        ...


@runtime_checkable
class Game(Protocol):
    """A card set at one player count, with the rule options; deals seeded states."""

    @property
    def players(self) -> int: ...

    def new_state(self, seed: int) -> State: ...


Agent = Callable[[State, Decision], Option]
AgentFactory = Callable[[int], Agent]


@runtime_checkable
class Engine(Protocol):
    """A game's rules engine, as its plugin hands it out."""

    def info(self, card_set: CardSet) -> EngineInfo:
        """The static facts for this card set (the player range may come from ``set.yaml``)."""
        ...

    def new_game(self, card_set: CardSet, players: int, disabled: frozenset[str] = frozenset()) -> Game:
        """The game of ``card_set`` at ``players``, with the abilities of the ``disabled`` card ids
        switched off (card impact): those cards are played, but their abilities never take effect."""
        ...

    def abilities(self, card_set: CardSet, players: Sequence[int]) -> frozenset[str]:
        """Card ids whose ability can take effect in games at these player counts (coverage, impact)."""
        ...

    def agents(self) -> Mapping[str, AgentFactory]:
        """The game's own agents by name (e.g. a heuristic), besides the generic ones."""
        ...

    def rollout_policy(self) -> AgentFactory | None:
        """The policy the generic search agents play out with (None: uniformly random)."""
        ...


# ------------------------------------------------------------------ optional hooks
# An engine may also offer any of these; the playtest and the CLI test for them
# with ``isinstance`` (they are runtime-checkable), so a minimal engine needs none.

@runtime_checkable
class Audited(Protocol):
    """An audit of the game's setup at every player count, run before any game is played."""

    def audit(self, card_set: CardSet, players: Sequence[int]) -> list[Issue]:
        """Problems as :class:`cardkit.errors.Issue` values; an empty list when the setup is sound."""
        ...


@runtime_checkable
class Referenced(Protocol):
    """Reference figures printed beside the ladder (a rulebook's stated win rate...)."""

    def reference(self, card_set: CardSet, players: int) -> Mapping[str, float]:
        """Figures by name; a figure's report label is the set's interface string ``reference.<name>``
        (the name itself when the set has none), a value below 1 reads as a share."""
        ...


@runtime_checkable
class Switchable(Protocol):
    """Which of :meth:`Engine.abilities` the ``disabled`` argument can switch off (without this hook:
    all of them).  Impact lists the others as not switchable, with :meth:`unswitchable_note`."""

    def switchable(self, card_set: CardSet, players: Sequence[int]) -> frozenset[str]: ...

    def unswitchable_note(self) -> str: ...


@runtime_checkable
class Evaluated(Protocol):
    """A game's own estimate of an unfinished game (OpenSpiel's evaluators, TAG's state heuristics):
    generic search values a playout cut off at :meth:`playout_limit` decisions by it, so a game whose
    random playouts almost never win still gives search a signal."""

    def evaluate(self, state: State, seat: int) -> float:
        """What ``state`` is worth to ``seat``, in [0, 1] on the scale of :func:`outcome_value`
        (1: as good as a win, or the top of the score range)."""
        ...

    def playout_limit(self) -> int | None:
        """Decisions after which search stops a playout and evaluates it (None: play to the end)."""
        ...


@runtime_checkable
class Costed(Protocol):
    """What a game of each of the engine's own agents costs, so the playtest sizes its batches right
    (a batch holds about the same work whatever its agent).  Without this hook an engine's own agent
    costs as much as random play, and a generic search agent what its budget says
    (:func:`cardkit.rules.agents.expected_cost`)."""

    def agent_costs(self) -> Mapping[str, float]:
        """The expected CPU cost of one game per agent name, in games of random play of this engine
        (a search that plays 200 random games' worth per game: 200).  Names left out, and the
        generic agents, keep the generic rule; a figure below 1 counts as 1."""
        ...


@runtime_checkable
class Narrated(Protocol):
    """``cardkit rules play``: a finished game told as a story in the reader's language."""

    def narrate(self, state: State, localizer: object, players: int, seed: int) -> Sequence[str]:
        """The story's lines; ``localizer`` is a :class:`cardkit.strings.localize.Localizer` for the set."""
        ...


@runtime_checkable
class Scenarios(Protocol):
    """``cardkit rules scenario``: rule scenarios (an exact situation, a script, the expected result)."""

    def run_scenarios(self, card_set: CardSet, paths: Sequence[Path]) -> tuple[str, list[Issue], bool]:
        """The rendered results, the problems (:class:`cardkit.errors.Issue` values) and whether all passed."""
        ...


# ------------------------------------------------------------------ research adapters (cardkit.interop)
# Optional members the PettingZoo and OpenSpiel adapters read; without them the adapters use
# generic defaults (an index over the pending options, a hashed encoding of information_state).

@runtime_checkable
class Actions(Protocol):
    """A fixed action space: every option text a seat's decision can offer at this player count, so
    that an action number means the same thing in every state (what a learner needs)."""

    def action_texts(self, card_set: CardSet, players: int) -> Sequence[str]:
        """Every :meth:`Option.text <cardkit.rules.core.Option.text>` a seat can be offered, each once,
        in a fixed order."""
        ...


@runtime_checkable
class Observed(Protocol):
    """An observation as numbers: a vector of fixed length per seat, built only from what the seat knows."""

    def observation_size(self, card_set: CardSet, players: int) -> int: ...

    def observation(self, state: State, seat: int) -> Sequence[float]:
        """``observation_size`` numbers; equal ``information_state`` texts must give equal vectors."""
        ...
