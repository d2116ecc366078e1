"""The research adapters (cardkit.interop) pass their ecosystems' own API tests on every bundled
engine: PettingZoo's ``api_test`` and ``seed_test``, OpenSpiel's ``random_sim_test``."""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pytest

import pyspiel  # the test extra installs the rl extra (open_spiel, pettingzoo)
from pettingzoo.test import api_test, seed_test

from cardkit.errors import CardkitError
from cardkit.plugins import engine_for
from cardkit.interop.openspiel import CardkitGame, load_for
from cardkit.interop.pettingzoo import env_for
from cardkit.interop.table import Table, hashed_observation, table_for
from cardkit.load.project import load_project
from cardkit.rules.protocol import Engine
from tests.conftest import REPO
from tests.games.duel.engine import ENGINE as DUEL, DuelEngine
from tests.games.lanterns.engine import ENGINE as LANTERNS
from tests.games.trumps.engine import ENGINE as TRUMPS


def _tidelights() -> Engine:
    """The example game's engine, imported from its package folder (installed or not)."""
    path = str(REPO / "examples" / "tidelights" / "engine")
    if path not in sys.path:
        sys.path.insert(0, path)
    return importlib.import_module("tidelights_engine.engine").engine()  # type: ignore[no-any-return]


def _cases() -> Iterator[tuple[str, Any, str, int]]:
    yield "death-angel", REPO, "death-angel", 1
    yield "death-angel", REPO, "death-angel", 2
    yield "tidelights", REPO / "examples" / "tidelights", "tidelights", 1
    yield "tidelights", REPO / "examples" / "tidelights", "tidelights", 4
    yield "duel", REPO / "tests" / "games" / "duel", "duel", 2
    yield "lanterns", REPO / "tests" / "games" / "lanterns", "lanterns", 3
    yield "trumps", REPO / "tests" / "games" / "trumps", "trumps", 2


CASES = list(_cases())
IDS = [f"{c[0]}-{c[3]}p" for c in CASES]


def _engine(name: str, card_set: Any) -> Engine:
    if name == "tidelights":
        return _tidelights()
    if name == "duel":
        return DUEL
    if name == "lanterns":
        return LANTERNS
    if name == "trumps":
        return TRUMPS
    return engine_for(card_set.game, "test")


_TABLES: dict[tuple[str, int], Table] = {}


def _table(name: str, root: Any, set_id: str, players: int) -> Table:
    key = (name, players)
    if key not in _TABLES:
        cs = load_project(root).card_set(set_id)
        _TABLES[key] = table_for(_engine(name, cs), cs, set_id, players)
    return _TABLES[key]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pettingzoo_api_test_passes(case: tuple[str, Any, str, int]) -> None:
    t = _table(*case)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on Dict observation spaces (action masks are Dicts)
        api_test(env_for(t.engine, t.card_set, t.set_id, t.players), num_cycles=400)
        seed_test(lambda: env_for(t.engine, t.card_set, t.set_id, t.players), num_cycles=60)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_openspiel_random_sim_test_passes(case: tuple[str, Any, str, int]) -> None:
    t = _table(*case)
    pyspiel.random_sim_test(load_for(t.engine, t.card_set, t.set_id, t.players), num_sims=4, serialize=False,
                            verbose=False)


def _play_out(game: Any, seed: int) -> Any:
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_returns_follow_the_declared_outcome() -> None:
    """A co-operative game's seats share one return (+1 or -1); a two-seat competitive game is zero-sum."""
    t = _table(*CASES[1])  # Death Angel, 2 players
    game = load_for(t.engine, t.card_set, t.set_id, t.players)
    assert game.get_type().utility == pyspiel.GameType.Utility.IDENTICAL
    seen = set()
    for seed in range(6):
        r = _play_out(game, seed).returns()
        assert len(set(r)) == 1 and r[0] in (-1.0, 1.0)
        seen.add(r[0])
    d = _table(*CASES[4])
    duel = load_for(d.engine, d.card_set, d.set_id, 2)
    assert duel.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    results = {tuple(_play_out(duel, seed).returns()) for seed in range(20)}
    assert results <= {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)} and len(results) >= 2


def test_the_deal_is_a_chance_node_and_a_clone_plays_on_alike() -> None:
    t = _table(*CASES[2])
    game = load_for(t.engine, t.card_set, t.set_id, t.players)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == game.max_chance_outcomes()
    state.apply_action(17)
    for _ in range(5):
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[-1])
    twin = state.clone()
    a, b = _replay(state), _replay(twin)
    assert a == b and a[0]  # the same actions and returns, and the original was not advanced by the clone


def _replay(state: Any) -> tuple[list[int], list[float]]:
    moves = []
    while not state.is_terminal():
        act = state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0]
        moves.append(act)
        state.apply_action(act)
    return moves, state.returns()


def test_a_decision_wider_than_the_generic_index_is_a_coded_error() -> None:
    """A table whose generic index is too narrow (as a probe that missed the widest decision would make
    it) stops with X002 at the first wider decision, never truncating the options silently."""
    t = _table(*CASES[0])
    narrow = Table(t.engine, t.card_set, t.set_id, t.players, t.info, None, 2, t.observation_size,
                   t.max_chance_outcomes)
    with pytest.raises(CardkitError) as err:
        for seed in range(5):
            _play_out(CardkitGame(narrow), seed)
    assert [i.code for i in err.value.issues] == ["X002"]


class _Declared(DuelEngine):
    """The test game with a fixed action space declared (the Actions hook)."""

    def action_texts(self, card_set: object, players: int) -> Sequence[str]:
        from tests.games.duel.engine import cards_of

        return [f"play:{c}" for c in sorted(cards_of(card_set))] + ["lead:0", "lead:1"]


def test_a_declared_action_space_gives_actions_a_fixed_meaning() -> None:
    cs = load_project(REPO / "tests" / "games" / "duel").card_set("duel")
    t = table_for(_Declared(), cs, "duel", 2)
    assert t.action_texts is not None and t.num_actions == len(t.action_texts)
    game = load_for(t.engine, cs, "duel", 2)
    pyspiel.random_sim_test(game, num_sims=4, serialize=False, verbose=False)
    state = game.new_initial_state()
    state.apply_action(3)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    for a in state.legal_actions():
        assert state.action_to_string(state.current_player(), a) == t.action_texts[a]
        assert t.option(state.st, a).text() == t.action_texts[a]


def test_a_scored_game_returns_its_score() -> None:
    """A scored co-operative game's seats all get the shared score, within the declared range."""
    t = _table(*CASES[5])  # lanterns, 3 players
    lo, hi = t.utility_range
    game = load_for(t.engine, t.card_set, t.set_id, t.players)
    scores = [_play_out(game, seed).returns() for seed in range(8)]
    assert all(len(set(r)) == 1 and lo <= r[0] <= hi for r in scores)
    assert (lo, hi) == tuple(float(v) for v in t.info.score_range or ())


def test_the_generic_observation_is_what_the_seat_knows() -> None:
    """Equal information states give equal vectors; the vector changes when the seat learns something."""
    t = _table(*CASES[4])
    st = t.new_game().new_state(5)
    before = t.observe(st, 0)
    assert before == hashed_observation(st.information_state(0), t.observation_size)
    assert t.observe(st.clone(), 0) == before
    d = st.decision
    assert d is not None
    st.apply(d.options[0])  # the first card is played: every seat sees it
    assert t.observe(st, 0) != before
