"""The generic agents (cardkit/rules/agents.py) on the competitive test game
(tests/games/duel): names and budgets, strength against random play by seat,
and decisions that do not depend on what the deciding seat cannot see."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import lru_cache
from typing import Any

import pytest

from cardkit.errors import CardkitError
from cardkit.load.project import load_project
from cardkit.playtest.sweep import wilson
from cardkit.rules.agents import (
    SCORE_WEIGHT,
    Budget,
    Values,
    ismcts,
    parse_agent,
    parse_agents,
    parse_budget,
    play,
    sample_chance,
)
from cardkit.rules.conformance import hidden_independence
from cardkit.rules.protocol import (
    CHANCE,
    AgentFactory,
    ChanceMode,
    Cooperation,
    End,
    EngineInfo,
    GameResult,
    Information,
    Outcome,
    Result,
    SeatResult,
)
from tests.games.duel.engine import ENGINE, PLAYOUT_LIMIT, DuelState

DUEL = __import__("pathlib").Path(__file__).resolve().parents[1] / "games" / "duel"


@lru_cache(maxsize=1)
def duel_set() -> Any:
    return load_project(DUEL).card_set("duel")


def factory(name: str) -> AgentFactory:
    return parse_agent(name, ENGINE, duel_set()).factory


# ------------------------------------------------------------------ names and budgets

def test_budgets_parse_as_playouts_or_time():
    assert parse_budget("200") == Budget(playouts=200)
    assert parse_budget("50ms") == Budget(seconds=0.05)
    assert parse_budget("1.5s") == Budget(seconds=1.5)
    assert parse_budget("50ms").text() == "50ms" and parse_budget("2s").text() == "2s"
    for bad in ("0", "-3", "2.5", "ten", "0ms", "5000s", "1e3", ""):
        with pytest.raises(ValueError):
            parse_budget(bad)


def test_expected_cost_of_a_game_by_the_agents_budget():
    """What the playtest sizes its batches by: a search game by its budget, anything else as a random game."""
    from cardkit.rules.agents import PLAYOUT_COST, SECOND_COST, expected_cost

    assert parse_budget("200") == Budget(playouts=200) and parse_budget("50ms").seconds == 0.05
    assert expected_cost("random") == expected_cost("heuristic") == expected_cost("mcts:nonsense") == 1.0
    assert expected_cost("mcts") == expected_cost("mcts:20") == expected_cost("clairvoyant") == 20 * PLAYOUT_COST
    assert expected_cost("flat-mc:5") == 5 * 4 * PLAYOUT_COST
    assert expected_cost("mcts:2s") == 2 * SECOND_COST and expected_cost("mcts:50ms") == SECOND_COST / 20


def test_agent_names_generic_and_the_engines_own():
    specs = parse_agents(["random", "greedy", "flat-mc", "mcts", "mcts:30", "mcts:20ms", "clairvoyant:10"], ENGINE,
                         duel_set())
    assert [(s.base, s.budget) for s in specs] == [
        ("random", None), ("greedy", None), ("flat-mc", Budget(playouts=20)), ("mcts", Budget(playouts=20)),
        ("mcts", Budget(playouts=30)), ("mcts", Budget(seconds=0.02)), ("clairvoyant", Budget(playouts=10))]
    assert [s.ceiling for s in specs] == [False] * 6 + [True]


def test_unknown_agents_and_bad_budgets_are_one_line_each():
    with pytest.raises(CardkitError) as err:
        parse_agents(["mcst", "mcts:0", "random:5", "flat-mc:fast", "mcts"], ENGINE, duel_set())
    lines = [i.format() for i in err.value.issues]
    assert lines == [
        ("cardkit: error[G002]: unknown agent 'mcst' (agents: greedy, random, flat-mc[:N|Nms], mcts[:N|Nms], "
        "clairvoyant[:N|Nms])"),
        "cardkit: error[G031]: agent 'mcts:0': not a budget: '0' (playouts are a whole number from 1 to 1,000,000)",
        "cardkit: error[G031]: agent 'random:5': random takes no budget",
        ("cardkit: error[G031]: agent 'flat-mc:fast': not a budget: 'fast' (a number of playouts such as 200, or a "
        "time such as 50ms or 2s)"),
    ]


# ------------------------------------------------------------------ values

class Finished:
    """A finished game's result, as a state reports it (only ``result`` is read)."""

    def __init__(self, *seats: SeatResult, end: End = End.COMPLETE) -> None:
        self._result = GameResult(end, "over", 3, seats)

    def result(self) -> GameResult:
        return self._result


def info(cooperation: Cooperation, targets: tuple[float, ...] = ()) -> EngineInfo:
    return EngineInfo("g", 1, 4, cooperation, Information.IMPERFECT, ChanceMode.SAMPLED, score_targets=targets)


def test_values_win_loss_draw_per_seat_and_cooperative_share():
    state = Finished(SeatResult(Result.WIN, 3), SeatResult(Result.LOSS, 9), SeatResult(Result.DRAW))
    assert Values(info(Cooperation.COMPETITIVE))(state) == [1.0, 0.0, 0.5]  # type: ignore[arg-type]
    assert Values(info(Cooperation.COOPERATIVE))(state) == [1.0, 1.0, 1.0]  # type: ignore[arg-type]
    assert Values(info(Cooperation.COMPETITIVE))(Finished(SeatResult(Result.WIN), end=End.ABANDONED)) == []  # type: ignore[arg-type]
    assert Values.of([], 0) == 0.5


def test_score_is_a_bonus_scaled_by_the_largest_target():
    state = Finished(SeatResult(Result.LOSS, 10), SeatResult(Result.LOSS, 40))
    v = Values(info(Cooperation.COMPETITIVE, (15, 20)))(state)  # type: ignore[arg-type]
    assert v == [pytest.approx(SCORE_WEIGHT * 0.5), pytest.approx(SCORE_WEIGHT)]  # 10/20, 40/20 clipped to 1
    won = Values(info(Cooperation.COMPETITIVE, (15, 20)))(Finished(SeatResult(Result.WIN, 0)))  # type: ignore[arg-type]
    assert won == [pytest.approx(1 - SCORE_WEIGHT)]  # any win is worth more than any loss


def test_a_scored_game_is_valued_by_its_score_in_its_range_never_by_win_or_loss():
    """outcome_value's rule: a scored game's value is its score placed in the declared range, whatever
    the seat's win/loss says (a threshold the designer invented must not decide what search wants)."""
    scored = replace(info(Cooperation.COOPERATIVE, (15, 20)), outcome=Outcome.SCORED, score_range=(0.0, 25.0))
    assert Values(scored)(Finished(SeatResult(Result.LOSS, 20.0))) == [pytest.approx(0.8)]  # type: ignore[arg-type]
    assert Values(scored)(Finished(SeatResult(Result.WIN, 5.0))) == [pytest.approx(0.2)]  # type: ignore[arg-type]
    versus = replace(scored, cooperation=Cooperation.COMPETITIVE, score_range=(-10.0, 10.0))
    assert Values(versus)(Finished(SeatResult(Result.WIN, 4.0), SeatResult(Result.LOSS, -4.0))) == [  # type: ignore[arg-type]
        pytest.approx(0.7), pytest.approx(0.3)]


class Watched:
    """The duel engine with its Evaluated hook watched: the states search evaluates, and how far each
    had been played since search dealt it (the history of a duel state counts its decisions)."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.seen: list[tuple[int, bool]] = []

    def evaluate(self, state: Any, seat: int) -> float:
        self.seen.append((len(state.history), state.result() is None))
        return ENGINE.evaluate(state, seat)

    def playout_limit(self) -> int | None:
        return self.limit


def test_playouts_are_cut_off_at_the_engines_limit_and_evaluated():
    """With the hook, every playout that has not ended stops exactly ``playout_limit()`` decisions after
    the determinization it started from (the tree's steps counted) and is valued by ``evaluate``; a playout
    that ended first is valued by its result, never evaluated; mcts and flat-mc alike."""
    from cardkit.rules.agents import flat_mc
    from cardkit.rules.protocol import Evaluated

    from cardkit.rules import agents

    assert isinstance(ENGINE, Evaluated) and Values(ENGINE.info(duel_set()), ENGINE).limit == PLAYOUT_LIMIT
    assert Values(ENGINE.info(duel_set())).limit == agents.PLAYOUT_LIMIT  # without the hook: to the end
    for make in (lambda e: ismcts(ENGINE.info(duel_set()), Budget(playouts=30), None, evaluator=e),
                 lambda e: flat_mc(ENGINE.info(duel_set()), Budget(playouts=5), None, evaluator=e)):
        for limit in (3, 6):
            watched = Watched(limit)
            for st in midgame_states(6):
                assert st.decision is not None
                start = len(st.history)
                watched.seen.clear()
                make(watched)(1)(st, st.decision)
                assert watched.seen and all(n == start + limit and unfinished for n, unfinished in watched.seen)
    late = []  # fewer than 6 decisions left: every playout ends
    for seed in range(6):
        st = ENGINE.new_game(duel_set(), 2).new_state(seed)
        play(st, [factory("random")(seed)] * 2, random.Random(seed), limit=11)
        assert isinstance(st, DuelState) and st.decision is not None and st.tricks == 5
        late.append(st)
    watched = Watched(6)
    for st in late:
        assert st.decision is not None
        ismcts(ENGINE.info(duel_set()), Budget(playouts=30), None, evaluator=watched)(1)(st, st.decision)
    assert watched.seen == []


# ------------------------------------------------------------------ strength, per seat

def play_duel(seed: int, first: AgentFactory, second: AgentFactory) -> GameResult:
    st = ENGINE.new_game(duel_set(), 2).new_state(seed)
    play(st, [first(2 * seed + 1), second(2 * seed + 2)], random.Random(seed))
    result = st.result()
    assert result is not None
    return result


def test_mcts_beats_random_in_either_seat_with_intervals_apart():
    """40 games per seat (mcts:40 against random): mcts's win rate and random's
    have 95 % Wilson intervals apart, seat by seat and overall."""
    mcts, rand = factory("mcts:40"), factory("random")
    n = 40
    wins = {0: 0, 1: 0}
    for seed in range(n):
        first = play_duel(seed, mcts, rand)
        second = play_duel(seed, rand, mcts)
        for result, seat in ((first, 0), (second, 1)):
            assert result.complete and len(result.seats) == 2
            assert {s.result for s in result.seats} == {Result.WIN, Result.LOSS}
            assert sum(s.score for s in result.seats) == 37
            wins[seat] += result.seats[seat].result is Result.WIN
    for seat in (0, 1):
        lo, _ = wilson(wins[seat], n)
        _, hi = wilson(n - wins[seat], n)
        assert lo > hi, (seat, wins)
    lo, _ = wilson(wins[0] + wins[1], 2 * n)
    _, hi = wilson(2 * n - wins[0] - wins[1], 2 * n)
    assert lo > hi


def test_an_early_stop_makes_the_choice_the_whole_budget_makes(monkeypatch):
    """A playout budget stops once the most visited option leads by more than the playouts
    left: at every decision of six seeded games it chooses as the whole budget does, with
    fewer playouts (each playout deals one determinization, which is what is counted here)."""
    dealt = [0]
    redeal = DuelState.determinize

    def counted(self: DuelState, player: int, rng: random.Random) -> Any:
        dealt[0] += 1
        return redeal(self, player, rng)

    monkeypatch.setattr(DuelState, "determinize", counted)
    info, policy = ENGINE.info(duel_set()), ENGINE.rollout_policy()
    makers = {stop: ismcts(info, Budget(playouts=60), policy, early_stop=stop) for stop in (False, True)}
    spent = {False: 0, True: 0}
    compared = 0
    for seed in range(6):
        st = ENGINE.new_game(duel_set(), 2).new_state(seed)
        chance = random.Random(seed)
        while (d := st.decision) is not None:
            if d.player == CHANCE:
                st.apply(sample_chance(st, chance))
                continue
            choices = {}
            for stop, make in makers.items():
                dealt[0] = 0
                choices[stop] = make(seed)(st, d)
                spent[stop] += dealt[0]
            assert choices[True] == choices[False], (seed, d)
            compared += len(d.options) > 1
            st.apply(choices[True])
    assert compared > 20
    assert spent[True] < spent[False], spent


def test_searching_agents_are_reproducible_from_their_seed():
    for name in ("mcts:20", "flat-mc:4", "random"):
        a = [play_duel(s, factory(name), factory("random")) for s in range(4)]
        b = [play_duel(s, factory(name), factory("random")) for s in range(4)]
        assert a == b


def test_a_time_budget_plays_legal_options():
    result = play_duel(3, factory("mcts:2ms"), factory("flat-mc:1ms"))
    assert result.complete


# ------------------------------------------------------------------ what the agent cannot see

def midgame_states(count: int) -> list[DuelState]:
    """States a few decisions in, with cards hidden from the seat to decide."""
    out = []
    for seed in range(count):
        st = ENGINE.new_game(duel_set(), 2).new_state(100 + seed)
        play(st, [factory("random")(seed), factory("random")(seed + 1)], random.Random(seed), limit=1 + seed % 6)
        assert isinstance(st, DuelState) and st.decision is not None
        if st.decision.player >= 0 and len(st.decision.options) > 1:
            out.append(st)
    return out


@pytest.mark.parametrize("name", ["mcts:25", "flat-mc:4"])
def test_the_same_decision_whatever_the_hidden_order(name: str):
    """Two deals of what the deciding seat cannot see (the other hand, the deck
    order): the agent, with the same seed, chooses the same option in both."""
    checked = 0
    for st in midgame_states(12):
        assert st.decision is not None
        me = st.decision.player
        a, b = st.determinize(me, random.Random(1)), st.determinize(me, random.Random(2))
        assert a.information_state(me) == b.information_state(me)
        if (a.hands[1 - me], a.deck) == (b.hands[1 - me], b.deck):
            continue
        da, db = a.decision, b.decision
        assert da is not None and db is not None and da.options == db.options
        assert factory(name)(7)(a, da) == factory(name)(7)(b, db)
        checked += 1
    assert checked >= 6


def test_the_clairvoyant_ceiling_does_read_the_hidden_cards():
    """The same comparison catches an agent that reads hidden cards: the
    clairvoyant search (clone, not determinize) decides differently somewhere."""
    differ = 0
    for st in midgame_states(12):
        assert st.decision is not None
        me = st.decision.player
        a, b = st.determinize(me, random.Random(1)), st.determinize(me, random.Random(2))
        da, db = a.decision, b.decision
        assert da is not None and db is not None
        differ += factory("clairvoyant:60")(7)(a, da) != factory("clairvoyant:60")(7)(b, db)
    assert differ >= 1


def test_the_library_check_per_engine_finds_no_dependence_on_hidden_cards():
    """cardkit.rules.conformance.hidden_independence, the check any engine's tests
    run on the generic agents: mcts and flat-mc pass, the clairvoyant ceiling is caught (N021)."""
    for name in ("mcts:25", "flat-mc:4"):
        issues, compared = hidden_independence(ENGINE, duel_set(), 2, factory(name), games=6)
        assert issues == [] and compared >= 8, (name, compared)
    issues, _ = hidden_independence(ENGINE, duel_set(), 2, factory("clairvoyant:60"), games=6)
    assert issues and {i.code for i in issues} == {"N021"}
    assert issues[0].format().startswith("cards/duel: error[N021]: 2 players, seed ")


def test_a_ceiling_is_marked_by_its_factory_or_named_clairvoyant():
    from cardkit.rules.agents import is_ceiling

    class Peek:
        clairvoyant = True

    class Plain:
        clairvoyant = False

    assert (is_ceiling("clairvoyant:50"), is_ceiling("mcts"), is_ceiling("peek", Peek()),
            is_ceiling("peek", Plain())) == (True, False, True, False)
