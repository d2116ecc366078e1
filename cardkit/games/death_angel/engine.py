"""The Death Angel rules engine.

A :class:`Game` holds the card set, player count and rule options; a
:class:`State` plays one seeded game.  The state exposes the pending
:class:`~cardkit.rules.core.Decision` (who decides, which legal options),
:meth:`State.apply` takes a chosen option, and :attr:`State.outcome` is set when
the game ends.  All chance goes through one recorded :class:`Rng`; a game
replays exactly from its seed and its list of decisions (:meth:`State.replay`).

The rules code is written as generators that ``yield`` decisions, so it reads
in the order of the rulebook.  Card abilities come from the card data: each
effect ``kind`` has one handler in :mod:`cardkit.games.death_angel.effects`.
The engine never reads display text.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from cardkit.errors import CardkitError
from cardkit.games.death_angel.board import ROUND_LIMIT, Ask, Board, Flow, Game, RoundEffects, Rules, Stats
from cardkit.games.death_angel import kinds as K
from cardkit.games.death_angel.phases import choose_actions, play_round, rest_of_round, setup
from cardkit.rules.core import Decision, GameOver, Option, Outcome

__all__ = ["ROUND_LIMIT", "Ask", "Board", "Flow", "Game", "RoundEffects", "Rules", "State", "Stats"]


class State(Board):
    """One game in progress: the board and the flow of play."""

    def __init__(self, game: Game, seed: int, start: Callable[[Board], Flow] | None = None,
                 forced: list[int] | None = None) -> None:
        super().__init__(game, seed, forced)
        self.decisions: list[Option] = []
        self.outcome: Outcome | None = None
        self.decision: Decision | None = None
        self._send: Callable[[Any], Decision] = self._play(start).send  # (sending None starts it)
        self._advance(None)

    # ------------------------------------------------------------ contract
    def legal(self) -> tuple[Option, ...]:
        return self.decision.options if self.decision else ()

    def apply(self, option: Option | str) -> None:
        if self.decision is None:
            raise CardkitError("the game is over; no decision is pending", code="E010")
        opt = Option.parse(option) if isinstance(option, str) else option
        options = self.decision.options
        # agents hand back one of the offered objects: check identity before equality
        if not any(o is opt for o in options) and opt not in options:
            raise CardkitError(f"illegal option {opt.text()} for {self.decision.kind} "
                               f"(legal: {', '.join(o.text() for o in self.decision.options)})", code="E011")
        self.decisions.append(opt)
        self._advance(opt)

    def _advance(self, opt: Option | None) -> None:
        try:
            self.decision = self._send(opt)
        except StopIteration:
            self.decision = None
        except GameOver as over:
            self.outcome = over.outcome
            self.decision = None
            self.events.append(("end", over.outcome.result, over.outcome.reason, over.outcome.round))

    @classmethod
    def replay(cls, game: Game, seed: int, decisions: Iterable[Option | str]) -> "State":
        st = cls(game, seed)
        for d in decisions:
            st.apply(d)
        return st

    def clone(self) -> "State":
        """An independent copy (rebuilt by replaying this game's decisions)."""
        return State.replay(self.game, self.seed, self.decisions)

    def fork(self) -> "State":
        """An independent copy that plays on exactly as this game would, dice
        included.  At an action choice (where search spends its effort) the board
        is copied and the round resumes from the teams still to choose, without
        replaying anything; at any other decision it falls back to :meth:`clone`
        (the rules code is a stack of generators, which cannot be copied)."""
        d = self.decision
        if d is None or d.kind != K.ACTION:
            return self.clone()
        return State(self.game, self.seed, start=_resume_round(self))

    @property
    def over(self) -> bool:
        return self.outcome is not None

    # ------------------------------------------------------------------ flow
    def _play(self, start: Callable[[Board], Flow] | None) -> Flow:
        if start is not None:
            yield from start(self)
        else:
            yield from setup(self)
        while True:
            if self.round >= self.game.rules.round_limit:
                self.end("abandoned", "round_limit")
            yield from play_round(self)


def _resume_round(src: State) -> Callable[[Board], Flow]:
    """The start of a copy of ``src`` taken at an action choice: copy the
    board, then play the rest of the round (the teams that have not chosen yet
    choose)."""
    decisions = list(src.decisions)

    def start(st: Board) -> Flow:
        st.copy_from(src)
        if isinstance(st, State):
            st.decisions = decisions
        yield from choose_actions(st)
        yield from rest_of_round(st, "resolve")

    return start
