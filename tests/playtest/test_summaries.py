"""Sweeps in constant memory: batch summaries merge into exactly the report that the
games' own records give, in any merge order; card ablation and paired intervals."""

from __future__ import annotations

import random
import statistics
from dataclasses import replace

import pytest

from cardkit.games.death_angel.agents import AGENTS
from cardkit.games.death_angel.rules_engine import ENGINE, ablated, ability_cards, ability_of
from cardkit.load.project import load_project
from cardkit.playtest.impact import impact_cards, paired_ci
from cardkit.playtest.records import Interval, Spread
from cardkit.playtest.sweep import (BatchResult, Sweep, Tally, hist_median, hist_percentile, percentile, plan,
                                    play_game, run_batch, summarize, wilson)
from tests.conftest import REPO


def ablate(card_set, card):
    return ablated(card_set, [card])


@pytest.fixture(scope="module")
def card_set():
    return load_project(REPO).card_set("death-angel")


def _records(card_set, players: int, agent: str, seeds: range):
    game = ENGINE.new_game(card_set, players)
    return [play_game(game, AGENTS[agent], s, False) for s in seeds]


def test_histogram_statistics_match_the_list_statistics():
    rng = random.Random(7)
    for n in range(1, 60):
        values = [rng.randrange(1, 20) for _ in range(n)]
        hist: dict[int, int] = {}
        for v in values:
            hist[v] = hist.get(v, 0) + 1
        assert hist_median(hist) == statistics.median(values)
        assert type(hist_median(hist)) is type(statistics.median(values))
        for q in (5, 50, 95):
            assert hist_percentile(hist, q) == percentile(values, q)


def test_merged_summaries_give_the_report_of_the_records(card_set):
    """The report of merged batch tallies equals the statistics of the games' records,
    computed the way the record-keeping sweep computed them."""
    batches = plan(REPO, "death-angel", [1, 3], ["random", "heuristic"], 40, 11)
    batches = [replace(b, seeds=(b.seeds[0], b.seeds[0] + 20)) for b in batches] + \
              [replace(b, seeds=(b.seeds[0] + 20, b.seeds[0] + 40)) for b in batches]
    results = [run_batch(b) for b in batches]
    forward, backward = Sweep(), Sweep()
    for r in results:
        forward.merge(r)
    for r in reversed([run_batch(b) for b in batches]):
        backward.merge(r)
    cards = ability_cards(card_set, [1, 3])
    rep = summarize(forward, (0.0, 1.0), cards)
    assert rep == summarize(backward, (0.0, 1.0), cards)
    for setup in rep.setups:
        recs = _records(card_set, setup.players, setup.agent, range(11, 51))
        done = [r for r in recs if r.result in ("win", "loss")]
        wins = [r for r in recs if r.result == "win"]
        assert setup.games == 40 and setup.wins == len(wins) and setup.completed == len(done)
        rounds = [r.report.result.rounds for r in done]
        assert setup.rounds.all == Spread(statistics.median(rounds), percentile(rounds, 5), percentile(rounds, 95))
        assert setup.figures["casualties_mean"] == round(statistics.mean(r.report.metrics["casualties"] for r in recs), 3)
        assert setup.figures["reshuffles_mean"] == round(statistics.mean(r.report.metrics["reshuffles"] for r in recs), 3)
        # a game that ended in round r was still running after r - 1 rounds
        after = [max(0, r.report.result.rounds - 1) for r in recs]
        assert setup.survival_by_round == tuple(
            round(sum(1 for a, r in zip(after, recs) if a > k or r.result == "win") / 40, 4) for k in range(max(after)))
        causes: dict[str, int] = {}
        for r in recs:
            if r.result == "loss":
                causes[r.report.result.reason] = causes.get(r.report.result.reason, 0) + 1
        assert setup.defeat_causes == dict(sorted(causes.items()))
        assert setup.win_rate_ci95 == Interval(*(round(x, 4) for x in wilson(len(wins), 40)))


def test_failures_keep_the_smallest_seeds_in_any_merge_order():
    def tally(seeds):
        t = Tally(1, "random")
        t.failures = [(s, "error", "boom", ()) for s in seeds]
        return BatchResult(t)

    a, b = Sweep(), Sweep()
    parts = [range(40, 55), range(0, 15), range(20, 35)]
    for p in parts:
        a.merge(tally(p))
    for p in reversed(parts):
        b.merge(tally(p))
    want = [s for p in sorted(parts, key=lambda r: r.start) for s in p][:20]
    assert [f[0] for f in a.tallies[(1, "random")].failures] == want
    assert a.tallies[(1, "random")].failures == b.tallies[(1, "random")].failures


def test_ablate_switches_off_one_card_and_leaves_the_set_alone(card_set):
    target = next(c for c in sorted(ability_cards(card_set, [1])) if ability_of(card_set.cards[c]))
    before = card_set.cards[target].effects
    copy = ablate(card_set, target)
    assert copy.cards[target].effects == () and card_set.cards[target].effects == before != ()
    assert copy.cards[target].quantity == card_set.cards[target].quantity
    assert all(copy.cards[c] is card_set.cards[c] for c in card_set.cards if c != target)
    with pytest.raises(ValueError, match="no such card"):
        ablate(card_set, "no_such_card")
    with pytest.raises(ValueError, match="no ability"):
        ablate(card_set, "genestealer_claw")
    # a Brood Lord's abilities are data too: switched off, it is still a Brood Lord with its icons
    lord = ablate(card_set, "brood_lord_a").cards["brood_lord_a"]
    assert lord.effects == () and card_set.cards["brood_lord_a"].effects != ()
    assert lord.brood_lord and lord.icons == card_set.cards["brood_lord_a"].icons


def test_every_death_angel_ability_is_switchable(card_set):
    """The Brood Lords' abilities are data: impact switches them off like the other 54 solo cards."""
    switchable, not_switchable = impact_cards(ENGINE, card_set, [1])
    assert not_switchable == []
    assert {"brood_lord_a", "brood_lord_b"} <= set(switchable)
    assert sorted(switchable) == sorted(ability_cards(card_set, [1]))


def test_an_ablated_card_never_takes_effect(card_set):
    """A card that takes effect in these games takes effect in none once ablated, and the games change."""
    recs = _records(card_set, 1, "heuristic", range(1, 31))
    fired: dict[str, int] = {}
    for r in recs:
        for c in r.report.fired:
            fired[c] = fired.get(c, 0) + 1
    card = max((c for c in fired if c in card_set.cards and ability_of(card_set.cards[c])), key=lambda c: (fired[c], c))
    off = _records(ablate(card_set, card), 1, "heuristic", range(1, 31))
    assert not any(card in r.report.fired for r in off)
    # the engine's own switch does the same: the disabled card is played, its ability never fires
    disabled = [play_game(ENGINE.new_game(card_set, 1, frozenset({card})), AGENTS["heuristic"], s, False) for s in range(1, 31)]
    assert [r.report for r in disabled] == [r.report for r in off]

    def key(r):
        return (r.result, r.report.result.rounds, r.report.metrics["casualties"])
    assert [key(r) for r in off] != [key(r) for r in recs]


def test_paired_interval():
    # no game changed: a narrow interval around 0 (not a point: the Wilson intervals of the two rates are skewed)
    lo, hi = paired_ci(500, 40, 40, 0, 0)
    assert -0.01 < lo < 0 < hi < 0.01
    # the same marginal rates: pairing (few discordant games) gives a narrower interval than many
    lo1, hi1 = paired_ci(1000, 100, 150, 10, 60)
    lo2, hi2 = paired_ci(1000, 100, 150, 90, 140)
    assert lo2 < lo1 < 0.05 < hi1 < hi2
    assert lo1 > 0  # 60 games won only without the card, 10 only with it: a real difference
    # on large samples it agrees with the normal approximation of the paired differences
    n, ob, ov = 20000, 900, 700
    mean = (ov - ob) / n
    var = ((ob + ov) - n * mean * mean) / (n - 1)
    half = 1.959963984540054 * (var / n) ** 0.5
    lo, hi = paired_ci(n, 3000, 3000 - ob + ov, ob, ov)
    assert abs(lo - (mean - half)) < 5e-4 and abs(hi - (mean + half)) < 5e-4


def test_a_plan_makes_its_batches_on_demand_in_the_fixed_order():
    from cardkit.playtest.sweep import BATCH, Batch

    p = plan(REPO, "death-angel", [2, 5], ["random", "heuristic"], 2 * BATCH + 7, 3, 2)
    want = [Batch(str(REPO), "death-angel", n, a, (3 + start, 3 + min(2 * BATCH + 7, start + BATCH)),
                  (start // BATCH) % 2 == 0)
            for n in (2, 5) for a in ("random", "heuristic") for start in range(0, 2 * BATCH + 7, BATCH)]
    assert list(p) == want and len(p) == 12 and p[-1] == want[-1] and p[4:6] == want[4:6]
    with pytest.raises(IndexError):
        p[12]


def test_search_games_go_in_small_batches_that_certify_the_same_games():
    """Batches are sized by the agent's expected cost: a random game's batch holds BATCH games, an
    ``mcts`` game's a few; the batches of each setup cover its seeds once, in order, never straddle a
    block of BATCH seeds, and certify the same games as the random agent's batches of the same seeds."""
    from cardkit.playtest.impact import plan_impact
    from cardkit.playtest.sweep import BATCH, batch_games, plan_matchups

    games = 2 * BATCH + 7
    p = plan(REPO, "death-angel", [2, 5], ["random", "mcts", "flat-mc:1", "mcts:50ms"], games, 3, 2)
    batches = list(p)
    assert len(p) == len(batches) and p[-1] == batches[-1] and p[7:19] == batches[7:19]
    with pytest.raises(IndexError):
        p[len(p)]
    assert batch_games("random") == BATCH and batch_games("mcts") == 1 and batch_games("mcts:50ms") == 1
    assert 1 < batch_games("flat-mc:1") < 10
    certified: dict[str, set[int]] = {}
    for n in (2, 5):
        for a in ("random", "mcts", "flat-mc:1", "mcts:50ms"):
            mine = [b for b in batches if b.players == n and b.agent == a]
            assert all(b.seeds[1] - b.seeds[0] <= batch_games(a) for b in mine)
            assert len(mine) == len({b.seeds for b in mine}) >= -(-games // batch_games(a))
            seeds = [s for b in mine for s in range(*b.seeds)]
            assert seeds == list(range(3, 3 + games))  # every seed once, in order
            assert all((b.seeds[0] - 3) // BATCH == (b.seeds[1] - 4) // BATCH for b in mine)  # within a block
            certified[a] = {s for b in mine if b.certify for s in range(*b.seeds)}
            assert certified[a] == {s for s in range(3, 3 + games) if (s - 3) // BATCH % 2 == 0}
    # card impact: a batch plays each game once per card of its group too, so its batches are smaller still
    impact = plan_impact(REPO, "death-angel", [1], ["mcts"], 12, 0, [f"c{i}" for i in range(17)])
    assert [b.seeds for b in impact] == [(s, s + 1) for s in range(12)]
    matchups = plan_matchups(REPO, "death-angel", [2], ["random", "flat-mc:1"], 9, 0)
    size = batch_games("flat-mc:1")
    assert [b.seeds for b in matchups] == [(s, min(9, s + size)) for s in range(0, 9, size)]
