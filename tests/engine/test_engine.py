"""The Death Angel engine: determinism, replay, clone, invariants, data-driven effects."""

from __future__ import annotations

import subprocess
import sys
from types import MappingProxyType

import pytest
from hypothesis import given, settings, strategies as st_

from cardkit.games.death_angel.vocabulary import EFFECTS
from cardkit.games.death_angel.agents import AGENTS, play
from cardkit.games.death_angel.effects import HANDLERS, h_spawn_at_marine
from cardkit.games.death_angel.engine import Game, State
from cardkit.games.death_angel.invariants import violations
from cardkit.load.project import load_project
from cardkit.model import Effect
from tests.conftest import REPO

DA = load_project(REPO).card_set("death-angel")


def test_every_effect_kind_has_one_handler():
    assert set(HANDLERS) == set(EFFECTS)


@pytest.mark.parametrize("players", range(1, 7))
@pytest.mark.parametrize("agent", ["random", "passive", "heuristic"])
def test_games_end_with_invariants_after_every_step(players, agent):
    game = Game(DA, players)
    for seed in range(4):
        st = game.new_state(seed)
        choose = AGENTS[agent](seed)
        steps = 0
        while st.decision is not None:
            assert violations(st) == [], (seed, steps)
            st.apply(choose(st, st.decision))
            steps += 1
        assert st.outcome is not None and st.outcome.result in ("win", "loss")
        assert violations(st) == []


def test_same_seed_same_game_and_replay():
    game = Game(DA, 4)
    a = game.new_state(11)
    play(a, AGENTS["random"](11))
    b = game.new_state(11)
    play(b, AGENTS["random"](11))
    assert a.events == b.events and a.outcome == b.outcome
    replayed = State.replay(game, 11, [o.text() for o in a.decisions])
    assert replayed.events == a.events and replayed.outcome == a.outcome


def test_same_seed_same_game_in_another_process():
    code = ("from cardkit.load.project import load_project; from cardkit.games.death_angel.engine import Game;"
            "from cardkit.games.death_angel.agents import AGENTS, play;"
            f"s = load_project({str(REPO)!r}).card_set('death-angel'); st = Game(s, 3).new_state(5);"
            "play(st, AGENTS['random'](5)); print(len(st.events), st.outcome)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    st = Game(DA, 3).new_state(5)
    play(st, AGENTS["random"](5))
    assert out == f"{len(st.events)} {st.outcome}"


def test_clone_does_not_alias():
    game = Game(DA, 2)
    st = game.new_state(3)
    choose = AGENTS["random"](3)
    for _ in range(15):
        st.apply(choose(st, st.decision))
    twin = st.clone()
    assert twin.events == st.events and twin.decision == st.decision
    twin.apply(twin.decision.options[-1])
    assert len(twin.decisions) == len(st.decisions) + 1
    assert twin.rows is not st.rows


def test_illegal_option_is_refused():
    from cardkit.errors import CardkitError

    st = Game(DA, 1).new_state(0)
    with pytest.raises(CardkitError):
        st.apply("team:nonexistent")


@pytest.mark.parametrize("count", [2, 3])
def test_changing_a_number_in_the_data_changes_the_game(count):
    """Out of Thin Air spawns as many as its card data says."""
    st = Game(DA, 4).new_state(1)
    while not st.ready:
        st.apply(st.decision.options[0])
    eff = next(e for e in DA.cards["out_of_thin_air"].effects if e.kind == "spawn_at_marine")
    eff = Effect(eff.kind, MappingProxyType({**eff.params, "count": count}))
    before = st.gs_in_formation()
    gen = h_spawn_at_marine(st, eff, "out_of_thin_air", 0)
    try:
        d = next(gen)
        while True:
            d = gen.send(d.options[0])
    except StopIteration:
        pass
    assert st.gs_in_formation() - before == count


@settings(max_examples=25, deadline=None)
@given(seed=st_.integers(0, 10**6), players=st_.integers(1, 6), choices=st_.lists(st_.integers(0, 50), min_size=1, max_size=400))
def test_property_random_decisions_keep_invariants(seed, players, choices):
    st = Game(DA, players).new_state(seed)
    for c in choices:
        if st.decision is None:
            break
        st.apply(st.decision.options[c % len(st.decision.options)])
        assert violations(st) == []


def test_narration_is_the_same_game_in_every_language(cli):
    outs = {}
    for loc in ("en", "fi", "ko"):
        r = cli("rules", "play", "--root", str(REPO), "--players", "2", "--seed", "4", "--locale", loc)
        assert r.code == 0, r.err
        outs[loc] = r.out.splitlines()
    assert len(outs["en"]) == len(outs["fi"]) == len(outs["ko"])  # one line per event, whatever the language
    assert any("Round 1" in line for line in outs["en"])
    from cardkit.strings.localize import Localizer

    fi = Localizer(REPO, "fi", DA)
    assert any(fi.card("brother_leon.name") in line or fi.card("sergeant_gideon.name") in line for line in outs["fi"])


def _mid_game(seed: int = 3):
    st = Game(DA, 3).new_state(seed)
    choose = AGENTS["heuristic"](seed)
    for _ in range(40):
        st.apply(choose(st, st.decision))
    assert st.decision is not None and st.left and st.gs_deck and st.marines()
    return st


@pytest.mark.parametrize("defect,expect", [
    (lambda st: st.left.append(st.gs_deck[0]), "cards in two places"),
    (lambda st: st.gs_deck.pop(), "Genestealer/Brood Lord cards accounted for"),
    (lambda st: setattr(st, "supply", st.supply - 1), "support tokens in play"),
    (lambda st: st.event_deck.pop(), "event cards accounted for"),
    (lambda st: st.terrain_reserve.pop(), "terrain cards accounted for"),
    (lambda st: setattr(st.rows[0].marine, "alive", False), "has no living marine"),
])
def test_invariants_catch_each_kind_of_defect(defect, expect):
    """The checker is not vacuous: a state damaged in one way is reported for exactly that."""
    st = _mid_game()
    assert violations(st) == []
    defect(st)
    found = violations(st)
    assert len(found) == 1 and expect in found[0], found
