"""The competitive test game (tests/games/trumps): it conforms, from the library and the CLI; its
own agent beats random play over both seatings; the first seat has a small edge; a determinization
for the second seat keeps the card it saw the first seat take."""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Any

import cardkit.plugins
from cardkit.load.project import load_project
from cardkit.rules.agents import random_agent
from cardkit.rules.conformance import assert_conforms, hidden_independence
from cardkit.rules.protocol import AgentFactory, Result
from tests.conftest import REPO
from tests.games.trumps.engine import ENGINE, KEEP, PLUGIN, TrumpsState, planner

ROOT = REPO / "tests" / "games" / "trumps"


@lru_cache(maxsize=1)
def trumps_set() -> Any:
    return load_project(ROOT).card_set("trumps")


def _first_seat(a: AgentFactory, b: AgentFactory, games: int = 200) -> Counter[Result]:
    game = ENGINE.new_game(trumps_set(), 2)
    out: Counter[Result] = Counter()
    for s in range(games):
        st, seats = game.new_state(s), (a(2 * s), b(2 * s + 1))
        while (d := st.decision) is not None:
            st.apply(seats[d.player](st, d))
        result = st.result()
        assert result is not None and not st.violations()
        out[result.seats[0].result] += 1
    return out


def test_trumps_conforms():
    assert_conforms(ENGINE, trumps_set(), games=10)
    assert hidden_independence(ENGINE, trumps_set(), 2, planner)[0] == []


def test_the_cli_conformance_command_passes_with_the_plugin_registered(cli):
    cardkit.plugins.register(PLUGIN)
    try:
        r = cli("rules", "conformance", "--root", str(ROOT), "--games", "5")
    finally:
        cardkit.plugins.unregister(PLUGIN.name)
    assert r.code == 0 and "conformance trumps: conforms" in r.out, r.out + r.err


def test_the_planner_beats_random_play_in_both_seats_and_the_first_seat_has_an_edge():
    first, second = _first_seat(planner, random_agent), _first_seat(random_agent, planner)
    assert first[Result.WIN] > 1.5 * first[Result.LOSS] and second[Result.LOSS] > 1.5 * second[Result.WIN]
    mirror = _first_seat(planner, planner)
    assert mirror[Result.WIN] > mirror[Result.LOSS] and mirror[Result.DRAW] > 0


def test_a_determinization_keeps_the_card_the_first_seat_took_in_sight():
    game = ENGINE.new_game(trumps_set(), 2)
    checked = 0
    for seed in range(40):
        st = game.new_state(seed)
        assert isinstance(st, TrumpsState)
        d = st.decision
        if d is None or d.kind != "swap":
            continue
        st.apply(next(o for o in d.options if o != KEEP))
        for k in range(4):
            copy = st.determinize(1, random.Random(k))
            assert st.shown in copy.hands[0] and copy.information_state(1) == st.information_state(1)
            assert not copy.violations()
        checked += 1
    assert checked >= 5
