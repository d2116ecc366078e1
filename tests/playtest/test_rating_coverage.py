"""The rating intervals of a competitive game (Bradley-Terry over the matchups) are honest about
the pairing of the games: each seed is played in both seatings with the same deal and chance, so
its two games are one cluster, not two independent trials.

Simulated ladders with a known rating difference and strong seed effects (a deal that suits one
agent suits it in both seatings): the old interval, which took the games as independent, covers
the true rating in fewer than 93 % of 400 ladders; the interval clustered by seed in at least 93 %."""

from __future__ import annotations

import math
import random

from cardkit.playtest.ladder import _Matchups
from cardkit.playtest.stats import ELO, bradley_terry
from cardkit.playtest.sweep import Matchup, Played, Sweep
from cardkit.rules.protocol import End, EndReason, GameReport, GameResult, Result, SeatResult

LADDERS = 400
EDGE, SPREAD, SEEDS = 0.7, 2.5, 100  # log-odds of the stronger agent, sd of the seed's effect on it, seeds


def _marginal_win(edge: float, spread: float) -> float:
    """P(the stronger agent wins a game) over the seeds: the mean of logistic(edge + spread z), z ~ N(0, 1)
    (a midpoint rule over -9..9 sd, exact to far below the coverage's own noise)."""
    h = 0.001
    total = math.fsum(math.exp(-z * z / 2) / (1 + math.exp(-(edge + spread * z)))
                      for z in ((i + 0.5) * h - 9.0 for i in range(int(18 / h))))
    return total * h / math.sqrt(2 * math.pi)


def _ladder(rng: random.Random) -> tuple[tuple[float, float], dict[tuple[float, int], int]]:
    """One simulated matchup of random (a) against smart (b): random's points and games, and its
    points per seed."""
    per_seed: dict[tuple[float, int], int] = {}
    points = 0
    for _ in range(SEEDS):
        p = 1 / (1 + math.exp(-(EDGE + rng.gauss(0, SPREAD))))  # this deal's chance for smart, both seatings
        smart = (rng.random() < p) + (rng.random() < p)
        key = (float(2 - smart), 2)
        per_seed[key] = per_seed.get(key, 0) + 1
        points += 2 - smart
    return (float(points), float(2 * SEEDS)), per_seed


def test_rating_intervals_clustered_by_seed_cover_and_the_old_ones_did_not():
    p = _marginal_win(EDGE, SPREAD)
    true = ELO * math.log(p / (1 - p))
    rng = random.Random(20261202)
    old = new = 0
    for _ in range(LADDERS):
        result, per_seed = _ladder(rng)
        results = {("random", "smart"): result}
        lo, hi = bradley_terry(["random", "smart"], results, "random")["smart"][1]
        old += lo <= true <= hi
        lo, hi = bradley_terry(["random", "smart"], results, "random", seeds={("random", "smart"): per_seed})["smart"][1]
        new += lo <= true <= hi
    assert 55 < true < 75  # the model is what it says: a rating difference of about 64 Elo points
    assert old / LADDERS < 0.93, old  # the strong seed effects: taken as independent, the games under-cover
    assert new / LADDERS >= 0.93, new


def test_when_the_seat_decides_the_interval_keeps_the_models_width():
    """A seed whose two games split (the first seat wins either way) carries more information than
    two independent games; the interval is then never narrower than the model's."""
    results = {("random", "smart"): (50.0, 100.0)}
    model = bradley_terry(["random", "smart"], results, "random")["smart"][1]
    split = bradley_terry(["random", "smart"], results, "random", seeds={("random", "smart"): {(1.0, 2): 50}})["smart"][1]
    assert split[0] <= model[0] and split[1] >= model[1]
    assert split[1] - split[0] < 1.03 * (model[1] - model[0])  # only the t quantile (49 df) over 1.96


def _played(seed: int, first: Result | None, second: Result | None) -> Played:
    """A two-seat game: each seat's result, or None for an abandoned game."""
    if first is None or second is None:
        return Played(seed, GameReport(GameResult(End.ABANDONED, EndReason("stopped"), 3, ())))
    return Played(seed, GameReport(GameResult(End.COMPLETE, EndReason("done"), 3,
                                              (SeatResult(first), SeatResult(second)))))


def test_the_matchup_tally_keeps_each_seeds_points_and_the_ladder_reads_them():
    W, L, D = Result.WIN, Result.LOSS, Result.DRAW
    one, two = Matchup(2, "random", "smart"), Matchup(2, "random", "smart")
    one.add(_played(0, W, L), _played(0, L, W))  # random wins both seatings: 2 points
    one.add(_played(1, L, W), _played(1, D, D))  # a loss and a draw: 1/2
    two.add(_played(2, D, D), _played(2, None, None))  # a draw, and a game abandoned: 1/2 of one game
    two.add(_played(3, L, W), _played(3, W, L))  # both lost: 0
    one.merge(two)
    assert one.seed_points == {(2.0, 2): 1, (0.5, 2): 1, (0.5, 1): 1, (0.0, 2): 1}
    table = _Matchups.of(Sweep(matchups={(2, "random", "smart"): one}), 2, {"random", "smart"})
    assert table.seeds == {("random", "smart"): one.seed_points}
    assert table.points[("random", "smart")] == (3.0, 7.0)
