"""The tie test and the skill gap of a competitive game (a's win rate minus b's in their matchup)
are honest about the pairing of the games, as the ratings are (tests/playtest/test_rating_coverage.py):
each seed is played in both seatings with the same deal and chance, so its two games are one
cluster, not two independent trials.

Simulated matchups with a known difference and strong seed effects (a deal that suits one agent
suits it in both seatings): Newcombe's interval over the games, which took them as independent,
covers the true difference in fewer than 93 % of 400 matchups; the interval clustered by seed in
at least 93 %."""

from __future__ import annotations

import math
import random

from cardkit.playtest.ladder import _Matchups, paired_diff_ci
from cardkit.playtest.sweep import Matchup, Sweep
from tests.playtest.test_rating_coverage import EDGE, SPREAD, _marginal_win, _played

MATCHUPS = 400
SEEDS = 100


def _table(rng: random.Random, edge: float, spread: float, seat: float = 0.0) -> _Matchups:
    """One simulated matchup of random (a) against smart (b), SEEDS seeds in both seatings: smart's
    chance in a deal is logistic(edge + spread z) for the deal's z, plus ``seat`` log-odds for the
    first seat.  Built by the sweep's own tally and read by the ladder's."""
    from cardkit.rules.protocol import Result

    m = Matchup(2, "random", "smart")
    for seed in range(SEEDS):
        z = edge + rng.gauss(0, spread)
        smart_second = rng.random() < 1 / (1 + math.exp(-(z - seat)))  # random in seat 1
        smart_first = rng.random() < 1 / (1 + math.exp(-(z + seat)))
        ab = _played(seed, Result.LOSS, Result.WIN) if smart_second else _played(seed, Result.WIN, Result.LOSS)
        ba = _played(seed, Result.WIN, Result.LOSS) if smart_first else _played(seed, Result.LOSS, Result.WIN)
        m.add(ab, ba)
    return _Matchups.of(Sweep(matchups={(2, "random", "smart"): m}), 2, {"random", "smart"})


def _newcombe(table: _Matchups) -> tuple[float, float]:
    """The interval the ladder used before: Newcombe's paired interval over the games."""
    sw, rw, n = table.wins[("smart", "random")], table.wins[("random", "smart")], table.games[("smart", "random")]
    return paired_diff_ci(0, sw, rw, n - sw - rw)


def test_gap_intervals_clustered_by_seed_cover_and_the_old_ones_did_not():
    p = _marginal_win(EDGE, SPREAD)
    true = 2 * p - 1  # smart's win rate minus random's: no draws
    rng = random.Random(20261202)
    old = new = 0
    for _ in range(MATCHUPS):
        table = _table(rng, EDGE, SPREAD)
        lo, hi = _newcombe(table)
        old += lo <= true <= hi
        d = table.diff("smart", "random")
        assert d is not None
        lo, hi = d[1]
        new += lo <= true <= hi
    assert 0.15 < true < 0.25  # the model is what it says: smart wins about 60 % of the games
    assert old / MATCHUPS < 0.93, old  # the strong seed effects: taken as independent, the games under-cover
    assert new / MATCHUPS >= 0.93, new


def test_the_difference_reads_the_same_either_way_round():
    table = _table(random.Random(7), EDGE, SPREAD)
    ab, ba = table.diff("smart", "random"), table.diff("random", "smart")
    assert ab is not None and ba is not None
    assert ab[0] == -ba[0] and ab[1] == (-ba[1][1], -ba[1][0])


def test_when_the_seat_decides_the_interval_keeps_newcombes_width():
    """A seed whose two games split (the first seat wins either way) carries more information than
    two independent games; the interval is then never narrower than Newcombe's over the games."""
    table = _table(random.Random(11), 0.0, 0.0, seat=4.0)
    d = table.diff("smart", "random")
    assert d is not None
    assert d[1] == _newcombe(table)
