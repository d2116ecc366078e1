"""The scored co-operative test game (tests/games/lanterns): it conforms, from the library and the
CLI; its own agent scores far above random play; a determinization keeps what the seat knows
(hints included) and varies what it cannot see."""

from __future__ import annotations

import random
import statistics
from functools import lru_cache
from typing import Any

import pytest

import cardkit.games
from cardkit.load.project import load_project
from cardkit.rules.agents import random_agent
from cardkit.rules.conformance import assert_conforms, hidden_independence
from cardkit.rules.protocol import AgentFactory, Outcome, outcome_value
from tests.conftest import REPO
from tests.games.lanterns.engine import ENGINE, PLUGIN, LanternsState, heuristic

ROOT = REPO / "tests" / "games" / "lanterns"


@lru_cache(maxsize=1)
def lanterns_set() -> Any:
    return load_project(ROOT).card_set("lanterns")


def _scores(players: int, make: AgentFactory, games: int = 60) -> list[float]:
    game = ENGINE.new_game(lanterns_set(), players)
    out = []
    for seed in range(games):
        st, agent = game.new_state(seed), make(seed)
        while (d := st.decision) is not None:
            st.apply(agent(st, d))
        result = st.result()
        assert result is not None and not st.violations()
        out.append(result.seats[0].score)
    return out


def test_lanterns_conforms_at_every_player_count():
    assert_conforms(ENGINE, lanterns_set(), games=8)


def test_the_cli_conformance_command_passes_with_the_plugin_registered(cli):
    cardkit.games.register(PLUGIN)
    try:
        r = cli("rules", "conformance", "--root", str(ROOT), "--games", "5")
    finally:
        cardkit.games.unregister(PLUGIN.name)
    assert r.code == 0 and "conformance lanterns: conforms" in r.out, r.out + r.err


@pytest.mark.parametrize("players", [2, 5])
def test_the_heuristic_scores_far_above_random_play(players):
    own, rand = _scores(players, heuristic), _scores(players, random_agent)
    assert statistics.mean(own) > 6 > 1 > statistics.mean(rand)
    assert max(own) <= 12 and min(rand) >= 0


def test_the_outcome_is_a_score_without_an_invented_threshold():
    info = ENGINE.info(lanterns_set())
    assert info.outcome is Outcome.SCORED and info.score_range == (0.0, 12.0) and info.win_score is None
    game = ENGINE.new_game(lanterns_set(), 3)
    st, agent = game.new_state(4), heuristic(4)
    while (d := st.decision) is not None:
        st.apply(agent(st, d))
    result = st.result()
    assert result is not None and result.reason == "deck out"
    assert outcome_value(info, result, 1) == result.seats[0].score / 12


def _hinted_state(seed: int) -> LanternsState:
    """A 3-player game some turns in, the heuristic playing (so hints were given)."""
    st = ENGINE.new_game(lanterns_set(), 3).new_state(seed)
    assert isinstance(st, LanternsState)
    agent = heuristic(seed)
    for _ in range(7):
        d = st.decision
        assert d is not None
        st.apply(agent(st, d))
    return st


def test_a_determinization_keeps_the_hints_and_redeals_the_rest():
    varied = 0
    for seed in range(10):
        st = _hinted_state(seed)
        seat = st.turn % st.n
        assert any(k != (frozenset({"red", "green", "blue"}), frozenset({1, 2, 3, 4})) for k in st.know[seat])
        for k in range(5):
            d = st.determinize(seat, random.Random(k))
            assert isinstance(d, LanternsState)
            assert d.information_state(seat) == st.information_state(seat)
            assert not d.violations()
            for card, (colours, ranks) in zip(d.hands[seat], d.know[seat]):
                assert d.cards[card].colour in colours and d.cards[card].rank in ranks
            varied += d.hands[seat] != st.hands[seat] or d.deck != st.deck
    assert varied >= 40  # what the seat cannot see is redealt (nearly always differently)


def test_the_heuristic_reads_nothing_its_seat_cannot_see():
    findings, checks = hidden_independence(ENGINE, lanterns_set(), 3, heuristic)
    assert findings == [] and checks > 0
