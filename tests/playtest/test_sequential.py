"""The anytime-valid intervals (cardkit/playtest/sequential.py): coverage under optional stopping,
measured by simulation of known rates, and the reported interval against the exact set."""

from __future__ import annotations

import random

import pytest

from cardkit.playtest.sequential import ConfidenceSequence, ever_excludes, settle
from cardkit.playtest.sweep import wilson

RATES = (0.005, 0.03, 0.15, 0.5, 0.8, 0.97)


def _runs(p: float, runs: int, n: int, seed: int) -> list[list[float]]:
    rng = random.Random(seed)
    return [[1.0 if rng.random() < p else 0.0 for _ in range(n)] for _ in range(runs)]


@pytest.mark.parametrize("p", RATES)
def test_the_true_rate_is_never_excluded_in_at_least_95_percent_of_1000_runs(p: float) -> None:
    """Time-uniform coverage: the true rate survives every look at once (so any stopping rule, however it
    peeks, keeps 95 %).  1,000 simulated sweeps of 400 games each at a known rate."""
    runs = _runs(p, 1000, 400, seed=int(p * 1000) + 7)
    missed = 0
    for xs in runs:
        missed += ever_excludes(xs, p, 0.05)
    assert missed / len(runs) <= 0.05, f"the true rate {p} was excluded in {missed} of {len(runs)} runs"


def test_peeking_at_a_fixed_count_interval_breaks_its_coverage_and_not_the_sequence() -> None:
    """The simulation can tell a valid method from an invalid one: stopping at the first look (every
    10 games up to 500) whose Wilson interval excludes the true rate happens far more often than 5 %."""
    p = 0.5
    runs = _runs(p, 400, 500, seed=3)
    wilson_missed = seq_missed = 0
    for xs in runs:
        wins = 0
        hit = False
        for k, x in enumerate(xs, 1):
            wins += int(x)
            if k % 10 == 0:
                lo, hi = wilson(wins, k)
                if not lo <= p <= hi:
                    hit = True
                    break
        wilson_missed += hit
        seq_missed += ever_excludes(xs, p)
    assert wilson_missed / len(runs) > 0.15
    assert seq_missed / len(runs) <= 0.05


@pytest.mark.parametrize("p", (0.02, 0.3, 0.9))
def test_a_sweep_that_stops_when_settled_reports_intervals_that_hold_the_rate(p: float) -> None:
    """The interval the sweep reads (interval(), with its refined grid), under a real stopping rule:
    look after every 25 games, stop when clear of the band 3 %-80 % or 2 points wide either side."""
    runs = _runs(p, 150, 400, seed=11)
    held = 0
    for xs in runs:
        cs = ConfidenceSequence()
        for k, x in enumerate(xs, 1):
            cs.add(x)
            if k % 25 == 0 and settle(cs.interval(), (0.03, 0.80), precision=0.02).settled:
                break
        lo, hi = cs.interval()
        held += lo <= p <= hi
    assert held / len(runs) >= 0.95


def test_the_reported_interval_holds_every_mean_not_excluded_and_no_far_one() -> None:
    rng = random.Random(5)
    xs = [1.0 if rng.random() < 0.27 else 0.0 for _ in range(700)]
    cs = ConfidenceSequence()
    cs.extend(xs)
    lo, hi = cs.interval()
    grid = [k / 400 for k in range(1, 400)]
    alive = [m for m in grid if not cs.excludes(m)]
    assert alive, "some mean must survive"
    assert lo <= min(alive) and max(alive) <= hi
    # rounded outwards by at most one candidate spacing: never far from the exact set
    assert min(alive) - lo < 0.02 and hi - max(alive) < 0.02
    assert hi - lo < 0.16


def test_the_same_observations_give_the_same_interval_fed_at_once_or_one_by_one() -> None:
    xs = [float(v) for v in _runs(0.4, 1, 300, seed=9)[0]]
    a, b = ConfidenceSequence(), ConfidenceSequence()
    a.extend(xs)
    for x in xs:
        b.add(x)
        b.interval()  # reading it in between changes nothing
    assert a.interval() == b.interval()


def test_scores_placed_in_their_range_are_observations_too() -> None:
    rng = random.Random(2)
    cs = ConfidenceSequence()
    cs.extend(rng.uniform(0.2, 0.6) for _ in range(500))  # mean 0.4
    lo, hi = cs.interval()
    assert lo < 0.4 < hi and hi - lo < 0.15


@pytest.mark.parametrize("bad", [-0.1, 1.5, float("nan")])
def test_an_observation_outside_0_1_is_refused(bad: float) -> None:
    with pytest.raises(ValueError):
        ConfidenceSequence().add(bad)
