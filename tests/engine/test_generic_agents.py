"""Death Angel through the generic layer: the conformance suite and the generic
agents (cardkit/rules/conformance.py, cardkit/rules/agents.py) on the bundled
set, as any engine's tests would run them."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import pytest

from cardkit.load.project import load_project
from cardkit.rules.agents import parse_agent, play
from cardkit.plugins import engine_for
from cardkit.rules.conformance import hidden_independence, run
from cardkit.rules.protocol import Engine, Result
from tests.conftest import REPO


@lru_cache(maxsize=1)
def death_angel() -> tuple[Engine, Any]:
    card_set = load_project(REPO).card_set("death-angel")
    return engine_for(card_set.game, "test"), card_set


def test_death_angel_passes_the_conformance_suite_at_every_player_count():
    """Clean at every player count, N020 included: activating terrain whose ability is
    switched off (a Door, a Promethium Tank, a Control Panel) is no ability taking effect."""
    engine, card_set = death_angel()
    result = run(engine, card_set, games=3, seed=11)
    assert result.players == (1, 2, 3, 4, 5, 6) and result.decisions > 1000
    assert result.issues == [], [i.format() for i in result.issues]
    # a clone was checked at the first decision of every kind met, not only at decisions 0, 1, 3, 7, ...
    assert {"team", "action", "facing", "move", "support", "next_marine", "reroll_defence"} <= set(result.cloned_kinds)
    assert len(result.cloned_kinds) >= 20, result.cloned_kinds


@pytest.mark.parametrize("name", ["mcts:8", "flat-mc:2"])
def test_generic_search_decides_the_same_whatever_the_hidden_order(name: str):
    """Two redeals of what the deciding player cannot see (piles, coming dice): the
    generic agents, whose search sees determinized copies only, choose alike."""
    engine, card_set = death_angel()
    factory = parse_agent(name, engine, card_set).factory
    for players in (1, 4):
        issues, compared = hidden_independence(engine, card_set, players, factory, games=2, per_game=2)
        assert issues == [] and compared >= 2, (players, compared, [i.format() for i in issues])


def test_the_clairvoyant_ceiling_is_caught_reading_hidden_cards():
    engine, card_set = death_angel()
    spec = parse_agent("clairvoyant:20", engine, card_set)
    assert spec.ceiling
    issues, _ = hidden_independence(engine, card_set, 1, spec.factory, games=2, per_game=2)
    assert {i.code for i in issues} == {"N021"}


def test_generic_mcts_plays_every_decision_kind_to_a_result():
    """IS-MCTS with Death Angel's heuristic as rollout policy plays whole games
    (every decision kind the engine asks), one shared result per seat."""
    engine, card_set = death_angel()
    mcts = parse_agent("mcts:3", engine, card_set).factory
    kinds: set[str] = set()
    for players, seed in ((1, 3), (2, 4)):
        st = engine.new_game(card_set, players).new_state(seed)
        seats = [mcts(seed * 10 + k) for k in range(players)]

        def watch(seat: Any) -> Any:
            def agent(state: Any, decision: Any) -> Any:
                kinds.add(decision.kind)
                return seat(state, decision)
            return agent

        play(st, [watch(a) for a in seats], random.Random(seed))
        result = st.result()
        assert result is not None and result.complete and len(result.seats) == players
        assert len({s.result for s in result.seats}) == 1 and result.seats[0].result in (Result.WIN, Result.LOSS)
    assert len(kinds) >= 5, kinds


def test_the_evaluation_tells_won_games_from_lost_ones_and_search_cuts_its_playouts_by_it():
    """The Evaluated hook: in [0, 1], 0 once every marine has fallen, and higher on average over the
    states of heuristic games that were won than over those of games that were lost (the same seeds
    for every player count); generic search finds the hook through parse_agent."""
    from cardkit.games.death_angel.agents import AGENTS
    from cardkit.rules.protocol import Evaluated

    engine, card_set = death_angel()
    assert isinstance(engine, Evaluated) and (engine.playout_limit() or 0) > 0
    by_outcome: dict[bool, list[float]] = {True: [], False: []}
    for players in (1, 3, 6):
        game = engine.new_game(card_set, players)
        for seed in range(40):
            st = game.new_state(5000 + seed)
            agent = AGENTS["heuristic"](seed)
            seen = []
            while (d := st.decision) is not None:
                if st.ready and len(st.decisions) % 4 == 0:
                    v = engine.evaluate(st, 0)
                    assert 0.0 <= v <= 1.0
                    seen.append(v)
                st.apply(agent(st, d))
            won = st.result().seats[0].result is Result.WIN
            by_outcome[won].extend(seen)
            if not won and not st.marines():
                assert engine.evaluate(st, 0) == 0.0
    mean = {k: sum(v) / len(v) for k, v in by_outcome.items()}
    assert by_outcome[True] and mean[True] > 1.5 * mean[False], mean
