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

import random
from typing import Any, Callable, Iterable, Sequence

from cardkit.errors import CardkitError
from cardkit.games.death_angel.board import ROUND_LIMIT, Ask, Board, Flow, Game, RoundEffects, Rules, Stats
from cardkit.games.death_angel import kinds as K
from cardkit.games.death_angel import combat
from cardkit.games.death_angel.phases import (
    attacks_from,
    choose_actions,
    choose_teams,
    end_of_phase,
    end_of_round,
    event_from,
    overwatch_from,
    finish_setup,
    play_round,
    resolve_from,
    rest_of_round,
    resume_spawn,
    resume_travel,
    setup,
)
from cardkit.rules.core import Decision, EndReason, GameOver, Option, Outcome
from cardkit.rules.protocol import End, GameReport, GameResult, Result, SeatResult

__all__ = ["ROUND_LIMIT", "Ask", "Board", "Flow", "Game", "RoundEffects", "Rules", "State", "Stats"]


class State(Board):
    """One game in progress: the board and the flow of play."""

    def __init__(self, game: Game, seed: int, start: Callable[[Board], Flow] | None = None,
                 forced: list[int] | None = None, src: State | None = None) -> None:
        # ``src``: a copy of that game's board (and decision log), whose play goes on with ``start``
        super().__init__(game, seed, forced, src)
        self.decisions: list[Option] = list(src.decisions) if src is not None else []
        # information_state's text of the first ``_told`` events (an event is never changed once
        # logged, and a copy's log starts as its source's: a copy takes the text over)
        self._told: int = src._told if src is not None else 0
        self._told_text: str = src._told_text if src is not None else ""
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
        offered = False
        for o in options:
            if o is opt:
                offered = True
                break
        if not offered and opt not in options:
            raise CardkitError(f"illegal option {opt.text()} for {self.decision.kind} "
                               f"(legal: {', '.join(o.text() for o in self.decision.options)})", code="E011")
        self.decisions.append(opt)
        self.at = None  # a place marked for the question just answered holds no longer (support.RESTARTABLE)
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

    def replayed(self) -> "State":
        """An independent copy rebuilt by replaying this game's decisions from its seed."""
        return State.replay(self.game, self.seed, self.decisions)

    def clone(self) -> "State":
        """The protocol's copy: the board copied, play resumed at the pending decision, never a
        replay (a decision whose place in the rules is not board data is an engine bug: it
        raises, so the conformance suite and ``tests/engine/test_fork.py`` find it).  A finished
        game, where nothing is left to play, is copied by :meth:`replayed`."""
        d = self.decision
        if d is None:
            return self.replayed()
        tail = self._resume()
        if tail is None:
            raise AssertionError(f"no copy of the board at this {d.kind} decision: its place in the rules "
                                 "is not marked (Board.at)")
        return State(self.game, self.seed, start=tail, src=self)

    def fork(self) -> "State":
        """An independent copy that plays on exactly as this game would, dice
        included: :meth:`clone` at every decision the rules code marks (all of them,
        :meth:`copies`), or else (a finished game, or a place a future rule forgets to
        mark) :meth:`replayed`, so that search never stops at such a bug."""
        tail = self._resume()
        if tail is None:
            return self.replayed()
        return State(self.game, self.seed, start=tail, src=self)  # (clone's copy, its place found once)

    def copies(self) -> bool:
        """Does :meth:`fork` copy the board here (rather than replay the game)?"""
        return self._resume() is not None

    def _resume(self) -> Callable[[Board], Flow] | None:
        """How a copy taken now goes on once the board is copied: the rules from the pending
        question on (None: its place in the rules is not board data)."""
        d = self.decision
        if d is None:
            return None
        if d.kind == K.ACTION:
            return _resume_round
        if d.kind == K.TEAM:
            return _resume_setup
        if self.at is None:
            return None
        at = combat.portable(self, self.at)
        where = at[0]
        if where == "defence":
            return _resume_defence(at)
        if where == "spawn":
            return _resume_spawn(at)
        if where == "overwatch":
            return _resume_overwatch(int(str(at[1])), at[2:])
        if where == "travel":
            return _resume_travel(at)
        if where == "event_effect":
            return _resume_event(int(str(at[1])), at[2:] or None)
        if self.resolving >= 0 and combat.resumable(at):
            return _resume_action(self.resolving, at)
        return None
    # ------------------------------------------------------ the engine protocol
    # (cardkit.rules.protocol.State): what the generic playtest and agents read
    def chance_outcomes(self) -> Sequence[tuple[Option, float]]:
        """Always empty: the dice and shuffles are drawn from the game's own recorded stream (ChanceMode.SAMPLED)."""
        return ()

    def result(self) -> GameResult | None:
        """The finished game's result, the same for every seat (the players win or lose together)."""
        o = self.outcome
        if o is None:
            return None
        if o.result == "win" or o.result == "loss":
            seat = SeatResult(Result.WIN if o.result == "win" else Result.LOSS)
            return GameResult(End.COMPLETE, o.reason, o.round, tuple(seat for _ in range(self.game.players)))
        return GameResult(End.ABANDONED, o.reason, o.round, ())

    def violations(self) -> Sequence[str]:
        from cardkit.games.death_angel.invariants import violations

        return violations(self)

    def report(self) -> GameReport:
        """Casualties, survivors, locations reached, support shortage and reshuffles (the metrics of
        :data:`cardkit.games.death_angel.rules_engine.METRICS`), the abilities that took effect, the
        invariant violations and the combat teams in play."""
        result = self.result()
        if result is None:
            result = GameResult(End.ABANDONED, EndReason("unfinished"), self.round, ())
        st = self.stats
        metrics: dict[str, float] = {
            "casualties": len(self.dead), "survivors": len(self.marines()), "locations": st.locations,
            "support_shortage": 1 if st.support_short else 0, "reshuffles": sum(st.reshuffles.values())}
        return GameReport(result, metrics, frozenset(k for k, v in st.fired.items() if v),
                          tuple(sorted(set(self.violations()))), tuple(sorted(self.teams)))

    def information_state(self, player: int) -> str:
        """What the players know (they share it: a co-operative game played in the open): every event
        so far, the formation with its swarms and terrain, the sizes of the face-down piles, the
        event cards seen by Scouting where they lie, the discards, the location and the tiers still
        to come, and the pending decision."""
        from cardkit.games.death_angel.state import SIDES

        lines = [f"player {player}", f"round {self.round}", f"supply {self.supply}"]
        events = self.events
        if self._told < len(events):  # the text of the events logged since the last call (or copy)
            tier = {loc.id: loc.tier for loc in self.game.locations}
            new = [self._told_text] if self._told else []
            for e in events[self._told:]:  # the setup names the dealt locations: only their tiers are known
                new.append(repr(("setup", e[1], [tier.get(c, c) for c in e[2]]) if e[0] == "setup" else e))
            self._told, self._told_text = len(events), "\n".join(new)
        if self._told:
            lines.append(self._told_text)
        for i, r in enumerate(self.rows):
            m = r.marine
            row = [f"row {i}", f"{m.id}:{m.facing}:{m.tokens}" if m is not None else "-"]
            for side in SIDES:
                spot = r.spot(side)
                row.append(side + "=" + ",".join(f"{t.card}:{t.tokens}:{t.used}" for t in spot.terrain)
                           + "/" + ";".join(",".join(sorted(c.uid for c in sw.cards)) + f":{sw.attacked}:{sw.shielded}"
                                            for sw in spot.swarms))
            lines.append(" ".join(row))
        lines.append(f"piles {len(self.gs_deck)} {len(self.left)} {len(self.right)} discard "
                     + ",".join(c.uid for c in self.gs_discard))
        lines.append("unseen " + ",".join(sorted(c.uid for c in self.gs_deck + self.left + self.right)))
        lines.append(f"events {len(self.event_deck)} scouted "
                     + ",".join(f"{i}:{c}" for i, c in enumerate(self.event_deck) if c in self.scouted)
                     + " discard " + ",".join(self.event_discard) + f" current {self.event_current}")
        lines.append(f"location {self.location.id if self.location else '-'} to come "
                     + ",".join(loc.tier for loc in self.location_deck) + " past "
                     + ",".join(loc.id for loc in self.past_locations))
        lines.append("dead " + ",".join(m.id for m in self.dead))
        lines.append("teams " + " ".join(f"{t.id}:{','.join(t.hand)}:{t.last}:{t.chosen}" for t in self.teams.values()))
        lines.append(repr(self.decision))
        return "\n".join(lines)

    def determinize(self, player: int, rng: random.Random) -> "State":
        """A copy with the face-down piles, the event deck's order (Scouting's cards kept), the
        locations still to come and the coming dice redealt from ``rng``
        (:func:`cardkit.games.death_angel.search.determinize`, the search agent's own)."""
        from cardkit.games.death_angel.search import determinize

        tail = self._resume()
        if tail is None:  # (a finished game, or a place no rule marks: see fork)
            copy = self.replayed()
            determinize(copy, rng)
            return copy
        # redealt before the rules resume: a rules generator started on the true board would keep what it
        # read there (a pile it holds), and the copy would play on unlike a clone of it (R005)
        return State(self.game, self.seed, start=_changed_then(lambda st: determinize(st, rng), tail), src=self)

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


def _changed_then(change: Callable[[Board], None], tail: Callable[[Board], Flow]) -> Callable[[Board], Flow]:
    """The start of a copy (``State(src=)``) that is ``change``d (a determinization's redeal) on the
    copied board before the rules resume with ``tail``: a rules generator started on the true board
    would keep what it read there (a pile it holds), and the copy would play on unlike a clone of it."""

    def start(st: Board) -> Flow:
        change(st)
        yield from tail(st)

    return start


def _resume_defence(at: tuple[Any, ...]) -> Callable[[Board], Flow]:
    """A copy taken at a question of a defence roll in the Genestealer attack (a re-roll, the
    Artefact, a counterattack's kill; the swarms' order is :attr:`Board.attack_queue`): that swarm's attack from the question on,
    then the other swarms and the rest of the round."""
    _, k, row, side, marine, value, skull, rerolled = at[:8]
    stage, n = at[8:] or ("reroll", 0)

    def tail(st: Board) -> Flow:
        m = next(x for x in st.marines() if x.id == marine)
        sw = st.attack_queue[k]
        yield from attacks_from(st, k, combat.swarm_attacks(st, m, row, side, sw, k, (value, skull, rerolled), stage, n))
        yield from end_of_phase(st, "genestealer_attack")
        yield from rest_of_round(st, "event")

    return tail


def _resume_event(k: int, resume: tuple[Any, ...] | None) -> Callable[[Board], Flow]:
    """A copy taken at a question of the event card's ``k``-th effect: that effect from the
    question on (``resume``: the handler's own place; None: its first question, asked before
    its handler changes anything, :data:`~cardkit.games.death_angel.support.RESTARTABLE`), the
    card's other effects, the rest of the event phase and of the round."""

    def tail(st: Board) -> Flow:
        yield from event_from(st, k, resume)
        end_of_round(st)

    return tail


def _resume_spawn(at: tuple[Any, ...]) -> Callable[[Board], Flow]:
    """A copy taken at a spawn question (a short blip pile, at setup or in the event phase)."""

    def tail(st: Board) -> Flow:
        yield from resume_spawn(st, at)

    return tail


def _resume_overwatch(k: int, resume: tuple[Any, ...]) -> Callable[[Board], Flow]:
    """A copy taken at a question of an ability timed for the end of the event phase (Overwatch,
    the ``k``-th of :attr:`Board.active`): from that question on, then the rest of the round."""

    def tail(st: Board) -> Flow:
        yield from overwatch_from(st, k, resume)
        end_of_round(st)

    return tail


def _resume_travel(at: tuple[Any, ...]) -> Callable[[Board], Flow]:
    """A copy taken at a question of travel (a Door's kill, an effect of the location entered):
    travel from the question on, then the rest of the round."""

    def tail(st: Board) -> Flow:
        yield from resume_travel(st, at)

    return tail


def _resume_action(k: int, at: tuple[Any, ...]) -> Callable[[Board], Flow]:
    """A copy taken at a question inside the ``k``-th action card's resolution whose place the
    rules code marks (:attr:`Board.at`, :func:`~cardkit.games.death_angel.combat.resume_action`):
    the rest of that card from the question on, the round's remaining cards and the rest of
    the round."""

    def tail(st: Board) -> Flow:
        team = st.teams[st.resolve_order[k]]
        action = st.game.actions[team.chosen or ""]
        yield from resolve_from(st, k, combat.resume_action(st, team, action, at))
        yield from rest_of_round(st, "genestealer_attack")

    return tail


def _resume_setup(st: Board) -> Flow:
    """A copy taken at a combat team choice (the decks are dealt, the picks so far are
    :attr:`Board.team_picks`): the remaining picks and the rest of the setup."""
    yield from choose_teams(st)
    yield from finish_setup(st)


def _resume_round(st: Board) -> Flow:
    """A copy taken at an action choice: the rest of the round (the teams that have not
    chosen yet choose)."""
    yield from choose_actions(st)
    yield from rest_of_round(st, "resolve")
