"""Death Angel through the engine protocol (cardkit.rules.protocol): the engine its
plugin hands out, the state's result, report, copies, information state and
determinization, and the switch that turns an ability off."""

from __future__ import annotations

import random

import pytest

from cardkit.plugins import plugin_for
from cardkit.games.death_angel import kinds as K
from cardkit.games.death_angel.agents import AGENTS
from cardkit.load.project import load_project
from cardkit.rules import protocol as P
from tests.conftest import REPO


@pytest.fixture(scope="module")
def card_set():
    return load_project(REPO).card_set("death-angel")


@pytest.fixture(scope="module")
def engine():
    plugin = plugin_for("death-angel")
    assert plugin is not None and plugin.engine is not None
    return plugin.engine()


def _play(st, seed, stop=None):
    agent = AGENTS["heuristic"](seed)
    while st.decision is not None and not (stop and stop(st)):
        st.apply(agent(st, st.decision))
    return st


def test_the_plugin_hands_out_a_typed_engine_with_its_hooks(engine, card_set):
    assert isinstance(engine, P.Engine)
    for hook in (P.Audited, P.Referenced, P.Switchable, P.Narrated, P.Scenarios, P.Costed):
        assert isinstance(engine, hook), hook.__name__
    info = engine.info(card_set)
    assert (info.min_players, info.max_players) == (card_set.rules.min_players, card_set.rules.max_players) == (1, 6)
    assert info.cooperation is P.Cooperation.COOPERATIVE and info.chance is P.ChanceMode.SAMPLED
    assert info.information is P.Information.IMPERFECT
    names = [m.name for m in info.metrics]
    assert names == ["casualties", "survivors", "locations", "support_shortage", "reshuffles"]
    assert {"heuristic", "random", "search"} <= set(engine.agents()) and engine.rollout_policy() is not None


def test_another_games_set_is_refused(engine):
    from cardkit.errors import CardkitError

    other = load_project(REPO).card_set("deep-strike")
    with pytest.raises(CardkitError, match="not a Death Angel set"):
        engine.new_game(other, 1)


@pytest.mark.parametrize("players", [1, 4])
def test_a_finished_game_reports_its_result_per_seat_and_its_metrics(engine, card_set, players):
    game = engine.new_game(card_set, players)
    assert isinstance(game, P.Game) and game.players == players
    st = game.new_state(5)
    assert isinstance(st, P.State) and st.result() is None and st.chance_outcomes() == ()
    _play(st, 5)
    res = st.result()
    assert res is not None and res.complete and res.rounds == st.outcome.round and res.reason == st.outcome.reason
    assert len(res.seats) == players and len({s.result for s in res.seats}) == 1  # together
    assert res.seats[0].result is (P.Result.WIN if st.outcome.win else P.Result.LOSS)
    rep = st.report()
    assert rep.result == res and rep.violations == () and list(st.violations()) == []
    assert rep.metrics["casualties"] == len(st.dead) and rep.metrics["survivors"] == len(st.marines())
    assert rep.metrics["locations"] == st.stats.locations
    assert rep.fired == {c for c, n in st.stats.fired.items() if n}
    assert rep.groups == tuple(sorted(st.teams)) and len(rep.groups) == card_set.rules.teams_for(players)


def test_a_clone_plays_on_exactly_as_the_original(engine, card_set):
    st = _play(engine.new_game(card_set, 2).new_state(8), 8, stop=lambda s: s.round >= 3 and s.decision.kind == K.ACTION)
    copy = st.clone()
    assert copy is not st and copy.information_state(0) == st.information_state(0)
    _play(st, 8)
    _play(copy, 8)
    assert copy.report() == st.report() and copy.events == st.events


def test_determinization_keeps_what_the_players_know_and_redeals_the_rest(engine, card_set):
    st = _play(engine.new_game(card_set, 1).new_state(3), 3, stop=lambda s: s.round >= 2 and s.decision.kind == K.ACTION)
    known = st.information_state(0)
    hidden = (list(st.gs_deck), list(st.left), list(st.right), list(st.event_deck))
    worlds = [st.determinize(0, random.Random(k)) for k in range(4)]
    for w in worlds:
        assert w.information_state(0) == known  # the players cannot tell the worlds apart
    assert (list(st.gs_deck), list(st.left), list(st.right), list(st.event_deck)) == hidden  # the original is untouched
    orders = {tuple(c.uid for c in w.gs_deck + w.left + w.right) for w in worlds}
    assert len(orders) > 1  # ... but the face-down cards lie differently
    # and a decision changes what they know
    st.apply(st.decision.options[0])
    assert st.information_state(0) != known


def test_the_dealt_locations_stay_hidden_in_the_information_state(engine, card_set):
    st = engine.new_game(card_set, 1).new_state(4)
    st = _play(st, 4, stop=lambda s: s.decision.kind == K.ACTION)
    text = st.information_state(0)
    assert not any(loc.id in text for loc in st.location_deck)


def test_a_disabled_card_is_played_but_its_ability_never_takes_effect(engine, card_set):
    played = [_play(engine.new_game(card_set, 1).new_state(s), s).report() for s in range(1, 16)]
    card = max(sorted(engine.switchable(card_set, [1])), key=lambda c: sum(c in r.fired for r in played))
    assert any(card in r.fired for r in played)
    off = engine.new_game(card_set, 1, frozenset({card}))
    assert not any(card in _play(off.new_state(s), s).report().fired for s in range(1, 16))
    assert engine.switchable(card_set, [1]) == engine.abilities(card_set, [1])


def test_the_audit_reports_issues_of_the_setup(engine, card_set):
    from dataclasses import replace

    from cardkit.errors import Issue

    assert engine.audit(card_set, [1, 6]) == []
    rules = replace(card_set.rules, teams_per_player=(9,) + card_set.rules.teams_per_player[1:])
    problems = engine.audit(replace(card_set, rules=rules), [1])
    assert problems and all(isinstance(p, Issue) and p.code == "A003" for p in problems)
    assert "(1 players)" in problems[0].message
