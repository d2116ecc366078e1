"""What both research adapters read from an engine: a fixed action space, an observation as numbers,
returns from the declared outcome, and the deal as a chance node.

An engine that declares :class:`~cardkit.rules.protocol.Actions` gets a stable action space: action
``k`` is always the option text ``action_texts[k]``.  Without it the action space is a generic *index
over the pending options*: action ``k`` is the ``k``-th option of whatever decision is pending, so its
meaning changes from state to state.  That is enough for search, for random and scripted agents and
for tabular methods keyed by information state, but a learner that generalises across states needs
the engine's own list.  The index's size is found by playing seeded random games (:data:`PROBE_GAMES`)
and doubling the largest option count seen; a decision offering more options than that is a coded
error (X002), never a silent truncation.

An engine that declares :class:`~cardkit.rules.protocol.Observed` gives its own vector; otherwise the
observation is a hashed bag of the words and word pairs of ``information_state(seat)``
(:data:`OBSERVATION_SIZE` numbers): two states a seat cannot tell apart get the same vector.

Returns follow the declared outcome: a won/lost game gives +1 a win, -1 a loss, 0 a draw; a scored
game gives the seat's score (a co-operative game's seats all get the shared one).  A game stopped at
the decision limit is a truncation with returns 0.  The deal is a chance node over
:data:`DEAL_SEEDS` equally likely seeds (the engine's ``new_state(seed)``); chance decisions of an
engine with explicit chance are chance nodes with their listed probabilities.
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

from cardkit.errors import CardkitError
from cardkit.model import CardSet
from cardkit.rules.core import Decision, Option
from cardkit.rules.protocol import (CHANCE, Actions, Cooperation, End, Engine, EngineInfo, Game, Observed, Outcome,
                                    State)

__all__ = ["DEAL_SEEDS", "MAX_DECISIONS", "OBSERVATION_SIZE", "PROBE_GAMES", "Table", "hashed_observation",
           "open_table"]

#: the deal: a chance node over this many equally likely seeds
DEAL_SEEDS = 1024
#: the generic observation's length
OBSERVATION_SIZE = 256
#: seeded random games played to size the generic action index
PROBE_GAMES = 24
#: decisions after which a game is truncated (returns 0), as the playtest abandons it
MAX_DECISIONS = 20_000

_WORD = re.compile(r"\w+|[^\w\s]")


def hashed_observation(text: str, size: int = OBSERVATION_SIZE) -> list[float]:
    """A bag of the words and word pairs of ``text``, hashed (BLAKE2b, so the same on every machine and
    every run) into ``size`` counts.

    >>> v = hashed_observation("hand: 3 of cups; deck 12")
    >>> len(v), sum(v) > 0, v == hashed_observation("hand: 3 of cups; deck 12")
    (256, True, True)
    """
    out = [0.0] * size
    prev = ""
    for tok in _WORD.findall(text):
        for key in (tok, f"{prev}\x1f{tok}"):
            h = int.from_bytes(hashlib.blake2b(key.encode("utf-8"), digest_size=8).digest(), "little")
            out[h % size] += 1.0
        prev = tok
    return out


@dataclass(frozen=True)
class Table:
    """One engine, card set and player count, as the adapters see it (static facts)."""

    engine: Engine
    card_set: CardSet
    set_id: str
    players: int
    info: EngineInfo
    #: the engine's fixed action texts, or None for the generic index over the pending options
    action_texts: tuple[str, ...] | None
    num_actions: int
    observation_size: int
    max_chance_outcomes: int
    _index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {t: i for i, t in enumerate(self.action_texts or ())})

    # -------------------------------------------------------------- building
    def new_game(self) -> Game:
        return self.engine.new_game(self.card_set, self.players)

    # -------------------------------------------------------------- actions
    def legal_actions(self, state: State) -> list[int]:
        """The pending seat decision's actions, ascending (a chance decision has none here)."""
        d = state.decision
        if d is None or d.player == CHANCE:
            return []
        return sorted(self._action_of(d, o, k) for k, o in enumerate(d.options))

    def _action_of(self, d: Decision, option: Option, k: int) -> int:
        if self.action_texts is None:
            if k >= self.num_actions:
                raise CardkitError(f"a '{d.kind}' decision offers {len(d.options)} options, more than the "
                                   f"{self.num_actions} of the generic action index; declare the engine's "
                                   "action_texts (docs/engines.md)", code="X002")
            return k
        try:
            return self._index[option.text()]
        except KeyError:
            raise CardkitError(f"option '{option.text()}' is not in the engine's action_texts", code="X003") from None

    def option(self, state: State, action: int) -> Option:
        """The option an action number stands for in ``state`` (a coded error when it is not legal)."""
        d = state.decision
        if d is None:
            raise CardkitError("the game is over: no action is legal", code="X004")
        if self.action_texts is None:
            if 0 <= action < len(d.options):
                return d.options[action]
        else:
            for k, o in enumerate(d.options):
                if self._action_of(d, o, k) == action:
                    return o
        raise CardkitError(f"action {action} is not legal at this '{d.kind}' decision", code="X004")

    def action_text(self, state: State | None, action: int) -> str:
        """An action's name: the engine's text, or the pending option's text for the generic index."""
        if self.action_texts is not None:
            return self.action_texts[action]
        d = state.decision if state is not None else None
        if d is not None and 0 <= action < len(d.options):
            return d.options[action].text()
        return f"option {action}"

    # -------------------------------------------------------------- chance
    def chance(self, state: State) -> list[tuple[int, float]]:
        """The pending chance decision's outcomes as (action, probability), actions being option indexes."""
        d = state.decision
        assert d is not None and d.player == CHANCE
        listed = state.chance_outcomes()
        if not listed:
            p = 1.0 / len(d.options)
            return [(k, p) for k in range(len(d.options))]
        index = {o: k for k, o in enumerate(d.options)}
        return sorted((index[o], p) for o, p in listed)

    # -------------------------------------------------------------- observation and returns
    def observe(self, state: State, seat: int) -> list[float]:
        if isinstance(self.engine, Observed):
            v = [float(x) for x in self.engine.observation(state, seat)]
            if len(v) != self.observation_size:
                raise CardkitError(f"the engine's observation has {len(v)} numbers, not the "
                                   f"{self.observation_size} it declared", code="X005")
            return v
        return hashed_observation(state.information_state(seat), self.observation_size)

    def returns(self, state: State) -> list[float]:
        """Per seat: the declared outcome's return for a finished game, 0 for a running or stopped one."""
        r = state.result()
        if r is None or r.end is not End.COMPLETE or not r.seats:
            return [0.0] * self.players
        out = []
        for seat in range(self.players):
            s = r.seats[0 if self.info.cooperation is Cooperation.COOPERATIVE else min(seat, len(r.seats) - 1)]
            if self.info.outcome is Outcome.SCORED:
                out.append(float(s.score))
            else:
                out.append({"win": 1.0, "loss": -1.0}.get(s.result.value, 0.0))
        return out

    @property
    def utility_range(self) -> tuple[float, float]:
        if self.info.outcome is Outcome.SCORED and self.info.score_range is not None:
            return (float(self.info.score_range[0]), float(self.info.score_range[1]))
        return (-1.0, 1.0)


def open_table(root: Path | str, set_id: str, players: int, engine: Engine | None = None) -> Table:
    """The table of a set in the project at ``root`` (its game's installed engine unless given)."""
    from cardkit.plugins import engine_for
    from cardkit.load.project import load_project

    card_set = load_project(Path(root)).card_set(set_id)
    eng = engine if engine is not None else engine_for(card_set.game, "interop")
    return table_for(eng, card_set, set_id, players)


def table_for(engine: Engine, card_set: CardSet, set_id: str, players: int) -> Table:
    info = engine.info(card_set)
    if not info.min_players <= players <= info.max_players:
        raise CardkitError(f"{info.game} is for {info.min_players}-{info.max_players} players, not {players}",
                           code="X001")
    texts = tuple(engine.action_texts(card_set, players)) if isinstance(engine, Actions) else None
    size = engine.observation_size(card_set, players) if isinstance(engine, Observed) else OBSERVATION_SIZE
    game = engine.new_game(card_set, players)
    most_options, most_chance = _probe(game)
    actions = len(texts) if texts is not None else max(2, 2 * most_options)
    return Table(engine, card_set, set_id, players, info, texts, actions, size, max(DEAL_SEEDS, 2 * most_chance))


def _probe(game: Game) -> tuple[int, int]:
    """The most options a seat's decision and a chance decision offered in :data:`PROBE_GAMES` seeded
    random games (the same games on every machine)."""
    from cardkit.rules.agents import sample_chance

    most = chance = 1
    for seed in range(PROBE_GAMES):
        rng = random.Random(f"probe {seed}")
        st = game.new_state(seed)
        for _ in range(MAX_DECISIONS):
            d = st.decision
            if d is None:
                break
            if d.player == CHANCE:
                chance = max(chance, len(d.options))
                st.apply(sample_chance(st, rng))
            else:
                most = max(most, len(d.options))
                st.apply(d.options[rng.randrange(len(d.options))])
    return most, chance


def seat_of(decision: Decision | None) -> int | None:
    """The seat to act, or None at a chance decision or the end."""
    if decision is None or decision.player == CHANCE:
        return None
    return int(decision.player)


__all__ += ["seat_of", "table_for"]
