"""The search agent never reads hidden information: two games that differ only
in the order of unseen cards (and the coming dice) get the same decision; the
clairvoyant agent, which does read them, is told apart by the same check."""

from __future__ import annotations

import random

import pytest

from cardkit.games.death_angel import kinds as K
from cardkit.games.death_angel.agents import AGENTS
from cardkit.games.death_angel.engine import Game
from cardkit.games.death_angel.search import Search, determinize
from cardkit.load.project import load_project
from cardkit.rules.core import Rng
from tests.conftest import REPO


@pytest.fixture(scope="module")
def game():
    return Game(load_project(REPO).card_set("death-angel"), 1)


def _at_action(game, seed, round_):
    st = game.new_state(seed)
    agent = AGENTS["heuristic"](seed)
    while st.decision is not None and not (st.decision.kind == K.ACTION and st.round >= round_):
        st.apply(agent(st, st.decision))
    return st


def _shuffled_hidden(st, r):
    """The same game with every unseen card in another order and other dice to come."""
    other = st.fork()
    pool = other.gs_deck + other.left + other.right
    r.shuffle(pool)
    a, b = len(other.gs_deck), len(other.left)
    other.gs_deck, other.left, other.right = pool[:a], pool[a:a + b], pool[a + b:]
    r.shuffle(other.event_deck)
    other.location_deck = [r.choice([c for c in st.game.locations_by_tier[loc.tier]
                                     if c.id not in {x.id for x in other.past_locations}
                                     and (other.location is None or c.id != other.location.id)])
                           for loc in other.location_deck]
    other.rng = Rng(r.getrandbits(40))
    return other


def _hidden(st):
    return ([c.uid for c in st.gs_deck], [c.uid for c in st.left], [c.uid for c in st.right], list(st.event_deck),
            [c.id for c in st.location_deck], st.rng.getstate())


def test_same_decision_whatever_the_hidden_order(game):
    differ = 0
    for seed in range(8):
        st = _at_action(game, seed, 2 + seed % 3)
        assert st.decision is not None and len(st.decision.options) > 1
        other = _shuffled_hidden(st, random.Random(seed))
        assert _hidden(other) != _hidden(st)
        mine = Search(11, rollouts=3, horizon=2)(st, st.decision)  # as the registered search
        theirs = Search(11, rollouts=3, horizon=2)(other, other.decision)
        assert mine == theirs, f"seed {seed}: the search read hidden cards"
        # the clairvoyant reads them: the same pairs tell it apart (4 of these 8 pairs when written)
        if Search(11, rollouts=3, clairvoyant=True)(st, st.decision) != Search(11, rollouts=3, clairvoyant=True)(other, other.decision):
            differ += 1
    assert differ, "the clairvoyant agent chose the same in every pair: the check cannot tell peeking apart"


def test_determinize_keeps_what_players_know(game):
    st = _at_action(game, 5, 3)
    before = st.fork()
    determinize(st, random.Random(1))
    assert sorted(c.uid for c in st.gs_deck + st.left + st.right) == sorted(c.uid for c in before.gs_deck + before.left + before.right)
    assert (len(st.gs_deck), len(st.left), len(st.right)) == (len(before.gs_deck), len(before.left), len(before.right))
    assert sorted(st.event_deck) == sorted(before.event_deck)
    assert [c.tier for c in st.location_deck] == [c.tier for c in before.location_deck]
    assert [m.id for m in st.marines()] == [m.id for m in before.marines()] and st.event_discard == before.event_discard
    assert _hidden(st) != _hidden(before)
    # the same draw from two orders of the same hidden cards: the same world
    other = _shuffled_hidden(before, random.Random(2))
    determinize(other, random.Random(1))
    assert _hidden(other) == _hidden(st)


def test_determinize_draws_exactly_as_the_random_module():
    """The determinization shuffles and picks in compiled code, drawing from the search's stream
    exactly as ``random.Random.shuffle`` and ``randrange`` would: the same worlds, the same games."""
    from cardkit.games.death_angel.search import _below, _shuffle

    for seed in range(60):
        ours, theirs = random.Random(seed), random.Random(seed)
        for n in (1, 2, 3, 7, 38, 64, 65, 1000):
            deck, same = list(range(n)), list(range(n))
            _shuffle(deck, ours)
            theirs.shuffle(same)
            assert deck == same
            assert _below(ours, n) == theirs.randrange(n)
        assert ours.getstate() == theirs.getstate()
