"""A copy of a game in progress (State.fork) plays exactly as the original:
the same decisions, the same dice, the same events to the end."""

from __future__ import annotations

import pytest

from cardkit.games.death_angel import kinds as K
from cardkit.games.death_angel.agents import AGENTS, play
from cardkit.games.death_angel.engine import Game
from cardkit.load.project import load_project
from tests.conftest import REPO


@pytest.fixture(scope="module")
def cards():
    return load_project(REPO).card_set("death-angel")


def _final(st):
    return st.outcome, st.events, [o.text() for o in st.decisions], dict(st.stats.fired), st.stats.alive_by_round


@pytest.mark.parametrize("players", [1, 2, 4, 6])
def test_fork_plays_on_exactly_as_the_original(cards, players):
    game = Game(cards, players)
    forks = 0
    for seed in range(6):
        st = game.new_state(seed)
        agent = AGENTS["heuristic"](seed)
        copies = []
        step = 0
        while st.decision is not None:
            if st.decision.kind == K.ACTION or step % 37 == 5:  # every action choice, and now and then any other
                copies.append((st.fork(), st.decision.kind))
            st.apply(agent(st, st.decision))
            step += 1
        want = _final(st)
        for copy, kind in copies:
            # the same agent (it keeps no memory of the game) plays the copy on
            play(copy, AGENTS["heuristic"](seed))
            assert _final(copy) == want, f"seed {seed}: a copy taken at a {kind} decision played differently"
            forks += 1
    assert forks > 50


def test_fork_is_independent(cards):
    st = Game(cards, 1).new_state(3)
    agent = AGENTS["heuristic"](3)
    while st.decision is not None and not (st.decision.kind == K.ACTION and st.round == 3):
        st.apply(agent(st, st.decision))
    copy = st.fork()
    before = (len(st.events), st.supply, [m.tokens for m in st.marines()], [len(x) for x in (st.gs_deck, st.left, st.right)])
    play(copy, AGENTS["random"](1))
    assert copy.over
    assert (len(st.events), st.supply, [m.tokens for m in st.marines()], [len(x) for x in (st.gs_deck, st.left, st.right)]) == before
    # the original still plays its own game to the same end as a fresh replay of it
    again = st.clone()
    play(st, AGENTS["heuristic"](3))
    play(again, AGENTS["heuristic"](3))
    assert _final(st) == _final(again)


@pytest.mark.parametrize("players", [1, 3, 6])
def test_a_copy_at_a_team_choice_is_a_copy_not_a_replay(cards, players):
    """A copy taken at a combat team choice (a decision other than an action choice)
    copies the board: it does not read the decision log, so a log with its last pick
    dropped still gives a copy at the same decision, which plays on as the original."""
    game = Game(cards, players)
    for seed in range(3):
        st = game.new_state(seed)
        agent = AGENTS["heuristic"](seed)
        st.apply(agent(st, st.decision))  # the first pick: the copy is taken at a later one
        assert st.decision is not None and st.decision.kind == K.TEAM
        st.decisions.pop()  # a replay of this log would stop at the first pick again
        copy = st.fork()
        assert copy.decision == st.decision and len(copy.decision.options) < len(cards.teams)
        play(st, AGENTS["heuristic"](seed))
        play(copy, AGENTS["heuristic"](seed))
        assert (copy.outcome, copy.events, copy.rng.log) == (st.outcome, st.events, st.rng.log)


def test_copies_inside_an_action_cards_resolution_are_copies_not_replays(cards):
    """At the questions of a Support, Move + Activate or Attack card's resolution (a token's
    marine, which marine moves or attacks next, a swap, a facing, a target, attacking again),
    and at a defence re-roll in the Genestealer attack, the copy copies the board and takes the
    resolution up at that question: with the decision log emptied (a replay of it would stop
    at the first team choice) the copy is at the same decision and plays on as the original."""
    met: set[str] = set()
    for players, seed in ((1, 2), (2, 3), (4, 2)):  # (seeds whose games ask all of these)
        st = Game(cards, players).new_state(seed)
        agent = AGENTS["heuristic"](seed)
        copies = []
        while st.decision is not None:
            if st.copies() and st.decision.kind not in (K.ACTION, K.TEAM):
                log, st.decisions = st.decisions, []
                copies.append((st.fork(), st.decision))
                st.decisions = log
            st.apply(agent(st, st.decision))
        for copy, decision in copies:
            assert copy.decision == decision
            met.add(decision.kind)
            play(copy, AGENTS["heuristic"](seed))
            assert (copy.outcome, copy.events, copy.rng.log, dict(copy.stats.fired)) == \
                (st.outcome, st.events, st.rng.log, dict(st.stats.fired)), f"seed {seed}: a copy at {decision.kind}"
    assert {K.SUPPORT, K.NEXT_MARINE, K.MOVE, K.FACING, K.ATTACK_TARGET, K.ATTACK_AGAIN, K.REROLL_DEFENCE} <= met


def _stateless_random(seed):
    """A random agent whose pick depends on the game only (the decision's place in it), not on
    how many picks it made before: a copy played on by a fresh one plays as the original."""
    import random

    def choose(st, d):
        return random.Random(seed * 1_000_003 + 7 * len(st.events) + len(st.rng.log)).choice(d.options)

    return choose


def _play_on_and_compare(copy, st, agent, where):
    play(copy, agent)
    assert (copy.outcome, copy.events, copy.rng.log, dict(copy.stats.fired), copy.stats.alive_by_round) == \
        (st.outcome, st.events, st.rng.log, dict(st.stats.fired), st.stats.alive_by_round), where


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_every_decision_is_a_copy_of_the_board_never_a_replay(cards, players):
    """At every decision of random and heuristic games (every kind the rules code asks, in
    every phase: setup, action cards, the Genestealer attack, the event phase, travel) the
    board is copied (``copies()``, and ``clone()`` raises where it is not); copies taken now
    and then, with the decision log emptied (a replay of it would stop at the first team
    choice), are at the same decision and play on exactly as the original."""
    game = Game(cards, players)
    for name, make in (("random", _stateless_random), ("heuristic", AGENTS["heuristic"])):
        for seed in range(3):
            st = game.new_state(seed)
            agent = make(seed)
            copies = []
            n = 0
            while st.decision is not None:
                d = st.decision
                assert st.copies(), f"{name} seed {seed}: a copy at a {d.kind} decision (at {st.at}) would replay"
                if n % 13 == 4:
                    log, st.decisions = st.decisions, []
                    copy = st.clone()
                    st.decisions = log
                    assert copy.decision == d
                    copies.append((copy, d.kind))
                st.apply(agent(st, d))
                n += 1
            for copy, kind in copies:
                _play_on_and_compare(copy, st, make(seed), f"{name} seed {seed}: a copy at {kind}")


@pytest.mark.parametrize(("players", "seed", "kind", "where"), [
    (1, 0, K.TEAM_TARGET, "event_effect"),   # an event card's effect (Gun Jam)
    (1, 0, K.KILL, "event_effect"),          # a kill inside an event card's effect
    (1, 1, K.ATTACK_TARGET, "event_effect"),  # an attack an event card gives (Quick Reflexes)
    (1, 2, K.EXTRA_ATTACK, "overwatch"),     # the end of the event phase (Overwatch)
    (1, 17, K.SPAWN_FIRST, "spawn"),          # a short blip pile at an event's spawn boxes
    (1, 0, K.DOOR_KILL, "travel"),            # travel: a Door's support token kills
])
def test_a_clone_in_the_event_phase_and_travel_plays_on_identically(cards, players, seed, kind, where):
    """A clone taken at a decision of the event phase (an event card's effect, its spawn, the
    abilities timed for its end) or of travel, with the decision log emptied, is at the same
    decision; the original and the clone, each played on by its own heuristic agent, play the
    same game to the same end."""
    st = Game(cards, players).new_state(seed)
    agent = AGENTS["heuristic"](seed)
    while st.decision is not None and not (st.decision.kind == kind and st.at and st.at[0] == where):
        st.apply(agent(st, st.decision))
    assert st.decision is not None, f"seed {seed} asks no {kind} at {where}"
    d = st.decision
    log, st.decisions = st.decisions, []
    copy = st.clone()
    st.decisions = log
    assert copy.decision == d and copy.events == st.events
    play(st, AGENTS["heuristic"](seed))
    _play_on_and_compare(copy, st, AGENTS["heuristic"](seed), f"a clone at {kind} ({where})")


def _board(st):
    """Where every Genestealer card is, and what the state finds wrong (cards lost or doubled)."""
    return ([c.uid for c in st.gs_deck], [c.uid for c in st.left], [c.uid for c in st.right],
            [c.uid for c in st.gs_discard], list(st.violations()))


@pytest.mark.parametrize("players", [1, 3, 5])
def test_a_determinization_mid_intimidation_plays_on_as_a_clone_of_it(cards, players):
    """At a ``return`` question (Intimidation sends swarms back one at a time into the blip pile it
    chose, which its rules code holds across the questions), a determinized copy and a clone of it,
    each played on by the same stateless agent, play the same game: the same decisions, dice and
    events, every Genestealer card in the same place at the end and none lost.  (The copy used to
    start its rules on the true board and redeal after: it went on filling the pile it had read,
    no longer on the board, and the cards it returned were lost to it but not to its clone.)"""
    import random

    game = Game(cards, players)
    checked = 0
    for seed in range(12):
        st = game.new_state(seed)
        agent = _stateless_random(seed)
        while st.decision is not None:
            d = st.decision
            if d.kind == K.RETURN:
                world = st.determinize(0, random.Random(seed))
                clone = world.clone()
                assert clone.decision == world.decision == d
                play(world, _stateless_random(seed))
                play(clone, _stateless_random(seed))
                assert (_final(clone), clone.rng.log, _board(clone)) == (_final(world), world.rng.log, _board(world)), \
                    f"seed {seed}: a clone of a determinization at {d.kind} played on differently"
                assert _board(world)[-1] == [], f"seed {seed}: the determinized game lost cards"
                checked += 1
            st.apply(agent(st, d))
    assert checked >= 3
