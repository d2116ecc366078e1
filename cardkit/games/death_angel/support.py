"""Small helpers shared by combat and the effect handlers: yes/no questions,
marine options, and the abilities in force this round."""

from __future__ import annotations

from typing import Any, Callable, Final, Iterator, Sequence

from cardkit.games.death_angel.board import Flow, Board
from cardkit.games.death_angel.state import SIDES, Marine, other
from cardkit.model import Effect
from cardkit.rules.core import DecisionKind, Option


YES: Final = Option("choice", "yes")
NO: Final = Option("choice", "no")
# the facing question offers the marine's current facing first
FACING: Final = {side: (Option("facing", side), Option("facing", other(side))) for side in SIDES}


# effect kind -> its handler (registered by cardkit.games.death_angel.effects); kept here,
# below combat and the handlers both, so that either runs an effect by a direct call
Handler = Callable[..., Any]
HANDLERS: Final[dict[str, Handler]] = {}


# Effect kinds whose handler changes nothing before its first question is put to the players
# (a question with one legal option is answered without asking, so a handler counts only when
# nothing changes before any question it may ask first, answered or put).  A copy taken at that
# first question runs the effect again from its start (the loops that run effects mark the
# question in ``Board.at``; ``State.apply`` clears the mark once it is answered).
RESTARTABLE: Final[frozenset[str]] = frozenset((
    "move_swarm", "shield_swarm", "discard_from_blips", "scout_event_deck", "roll_return_engaged",
    "gather_at_marine", "spawn_at_marine", "roll_or_die", "lose_support", "gather_support",
    "forbid_action_type", "defence_save_next_round", "spend_support_to_kill", "discard_blips",
    "immediate_attack", "return_swarm", "revive_marine", "limit_spawn_at_terrain", "spawn_into_swarm",
    "place_terrain", "token_or_roll", "door", "attack_for_support"))


def run_effect(st: Board, eff: Effect, source: str, player: int, ctx: dict[str, Any],
               resume: tuple[Any, ...] | None = None) -> Flow:
    """Run one effect by its kind's handler; ``ctx`` (a fresh dict: the effect
    kind is added) holds what the handler may use: team, marine, terrain, action.
    ``resume``: the handler's own place (:func:`mark`) to take it up at, in a copy."""
    fn = HANDLERS.get(eff.kind)
    if fn is None:
        raise AssertionError(f"no handler for effect kind {eff.kind}")
    ctx["effect"] = eff.kind
    if resume is not None:
        ctx["resume"] = resume
    gen = fn(st, eff, source, player, **ctx)
    # a handler that asks nothing returns its result (None, or False when nothing happened);
    # the others are generators (compiled ones are not types.GeneratorType: test the result)
    result = gen if gen is None or gen is False or gen is True else (yield from gen)
    if result is not False:
        st.stats.fired[source] += 1
    st.check_victory()


def mark(st: Board, *place: Any) -> tuple[Any, ...] | None:
    """The mark (:attr:`Board.at`) of a question inside an effect handler: the place of the
    effect being run (:attr:`Board.effect_at`) and the handler's own ``place`` (which
    question, and what the handler has settled so far), handed back to the handler as its
    ``resume`` argument in a copy; None when no loop states where the effect is."""
    at = st.effect_at
    return None if at is None else at + place


def run_effects_from(st: Board, where: tuple[Any, ...], effects: Sequence[Effect], start: int, source: str,
                     player: int, ctx: dict[str, Any], resume: tuple[Any, ...] | None = None) -> Flow:
    """Run a card's ``effects`` from the ``start``-th on (``resume``: that one's handler taken
    up at its own place), each effect's place being ``where + (k,)`` (:attr:`Board.effect_at`):
    its first question is marked when its handler is :data:`RESTARTABLE`, and a handler marks
    its other questions with :func:`mark`.  The one home of these marks."""
    outer = st.effect_at  # (an effect that runs others, a Control Panel's: restored after them)
    for k in range(start, len(effects)):
        eff = effects[k]
        place = where + (k,)
        st.effect_at = place
        st.at = place if eff.kind in RESTARTABLE and resume is None else None
        yield from run_effect(st, eff, source, player, dict(ctx), resume)
        resume = None
        st.at = None
    st.effect_at = outer


def _yes_no(st: Board, player: int, kind: DecisionKind, **ctx: Any) -> Flow:
    pick = yield from st.ask_in(player, kind, [YES, NO], ctx)
    return pick == YES


def _active(st: Board, kind: str, team: str | None = None) -> Iterator[tuple[str, Effect, str]]:
    for card, eff, t in st.active:
        if eff.kind == kind and (team is None or t == team):
            yield card, eff, t


def _marine_option(m: Marine) -> Option:
    return m.option


def _find_marine(st: Board, mid: str) -> Marine:
    for r in st.rows:
        m = r.marine
        if m is not None and m.id == mid:
            return m
    raise AssertionError(f"{mid} is not in the formation")


