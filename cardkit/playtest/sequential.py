"""Anytime-valid intervals for a sweep that stops as soon as its answer is known.

A fixed-count sweep may read a Wilson interval once, at its end.  A sweep that looks after
every batch and stops when the interval has settled ("optional stopping") may not: looking
again and again, a 95 % interval misses the truth far more often than 5 % of the time.  A
*confidence sequence* is a sequence of intervals that holds the true mean at every time at
once with probability at least 1 - alpha (Howard, Ramdas, McAuliffe and Sekhon, "Time-uniform,
nonparametric, nonasymptotic confidence sequences", Annals of Statistics 2021), so any
stopping rule, however it peeks, keeps its coverage.

The construction here is the betting confidence sequence of Waudby-Smith and Ramdas
("Estimating means of bounded random variables by betting", JRSS-B 2024), hedged capital with
predictable plug-in bets, for values in [0, 1] (a win, a share, a score placed in its range).
For each candidate mean ``m`` two gamblers bet that the mean is above and below ``m``; their
wealth is a nonnegative martingale when ``m`` is the true mean, so by Ville's inequality it
reaches ``1/alpha`` with probability at most ``alpha``.  A candidate is excluded for good once
the hedged wealth reaches ``1/alpha`` (the running intersection); the candidates still alive
form an interval.

The candidates are a grid refined where the interval is (every refinement replays the
observations from the first one, so a candidate's wealth is always exact), and the reported
interval is rounded outwards to the nearest excluded candidates: it always contains the exact
set.  Everything is plain floating-point arithmetic in a fixed order, so the same observations
give the same interval on every machine and for any number of worker processes (the sweep feeds
the games in seed order).

>>> cs = ConfidenceSequence()
>>> cs.extend([1.0, 0.0] * 200)
>>> lo, hi = cs.interval()
>>> 0.35 < lo < 0.5 < hi < 0.65
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["ConfidenceSequence", "RepeatedIntervals", "Settled", "ever_excludes", "settle"]

#: the share of wealth on the "mean is above m" gambler (Waudby-Smith and Ramdas's theta)
_THETA = 0.5
#: bets are truncated at this share of what the wealth could lose (their c, 1/2 or 3/4)
_TRUNCATE = 0.5
#: candidates kept alive at least (the grid is refined below this)
_ALIVE = 32
_START = 128  # the first grid: 1/128 apart


class _Candidate:
    """One candidate mean with its two gamblers' log-wealth."""

    __slots__ = ("m", "up", "down", "out")

    def __init__(self, m: float) -> None:
        self.m = m
        self.up = 0.0  # log wealth of the bet that the mean is above m
        self.down = 0.0  # ... below m
        self.out = False  # excluded for good


class ConfidenceSequence:
    """A time-uniform 1 - ``alpha`` confidence sequence for the mean of values in [0, 1].

    Feed observations in a fixed order (:meth:`add`, :meth:`extend`); read :meth:`interval` at any
    time, as often as you like.  Memory grows by one float per observation (the refinement replays
    them)."""

    def __init__(self, alpha: float = 0.05) -> None:
        if not 0 < alpha < 1:
            raise ValueError("alpha must lie in (0, 1)")
        self.alpha = alpha
        self._limit = math.log(1.0 / alpha)
        self._log2 = math.log(2.0 / alpha)
        self._xs: list[float] = []
        self._sum = 0.0
        self._var = 0.25  # 1/4 + the sum of squared deviations from the running mean (the paper's start)
        self._cands = [_Candidate((i + 0.5) / _START) for i in range(_START)]

    @property
    def n(self) -> int:
        return len(self._xs)

    @property
    def mean(self) -> float:
        return self._sum / len(self._xs) if self._xs else 0.5

    @property
    def variance(self) -> float:
        """The variance the bets plug in: 1/4 plus the squared deviations so far, over ``n + 1`` (the
        paper's regularised estimate; it never reaches 0, so a figure that has not varied yet is not
        taken as certain)."""
        return self._var / (len(self._xs) + 1)

    def add(self, x: float) -> None:
        """One observation in [0, 1]."""
        if not 0.0 <= x <= 1.0:  # also refuses NaN
            raise ValueError(f"an observation must lie in [0, 1], not {x!r}")
        lam = _bet(self._log2, len(self._xs) + 1, self._var)
        for c in self._cands:
            if not c.out:
                _step(c, x, lam, self._limit)
        self._xs.append(x)
        self._sum, self._var = _moments(len(self._xs), self._sum, self._var, x)
        if sum(1 for c in self._cands if not c.out) < _ALIVE:
            self._refine()

    def extend(self, xs: Iterable[float]) -> None:
        for x in xs:
            self.add(x)

    def _replay(self, m: float) -> _Candidate:
        """A new candidate whose wealth is what it would be had it been there from the first observation."""
        return _replay(self._xs, m, self.alpha)

    def _refine(self) -> None:
        """Put a new candidate halfway between each pair of neighbours from the last excluded one below
        the alive range to the first excluded one above it (the ends of [0, 1] where there is none);
        candidates farther out are dropped (they stay excluded)."""
        cands = self._cands
        alive = [k for k, c in enumerate(cands) if not c.out]
        if alive:
            lo_k, hi_k = alive[0] - 1, alive[-1] + 1
        else:  # the interval fell between two neighbours: look around the running mean
            k = min(range(len(cands)), key=lambda j: abs(cands[j].m - self.mean))
            lo_k, hi_k = k - 1, k + 1
        inner = cands[max(lo_k, 0):hi_k + 1]
        points = ([] if lo_k >= 0 else [0.0]) + [c.m for c in inner] + ([] if hi_k < len(cands) else [1.0])
        new = [self._replay((a + b) / 2.0) for a, b in zip(points, points[1:]) if b - a > 1e-9]
        self._cands = sorted(inner + new, key=lambda c: c.m)

    def interval(self) -> tuple[float, float]:
        """The interval at this time: every mean not yet excluded, rounded outwards to the nearest
        excluded candidates (0 and 1 at the ends)."""
        for _ in range(8):
            cands = self._cands
            alive = [k for k, c in enumerate(cands) if not c.out]
            if alive:
                lo = cands[alive[0] - 1].m if alive[0] > 0 else 0.0
                hi = cands[alive[-1] + 1].m if alive[-1] + 1 < len(cands) else 1.0
                return (lo, hi)
            self._refine()  # narrower than the grid: look closer
        m = self.mean
        return (m, m)

    def excludes(self, m: float) -> bool:
        """Whether the mean ``m`` has been excluded at some time so far (replays the observations)."""
        return self._replay(m).out


def ever_excludes(xs: Sequence[float], m: float, alpha: float = 0.05) -> bool:
    """Whether the confidence sequence of ``xs`` excludes the mean ``m`` at some time: the outcome whose
    probability, for the true mean, is at most ``alpha`` whatever the stopping rule."""
    return _replay(xs, m, alpha).out


def _replay(xs: Sequence[float], m: float, alpha: float) -> _Candidate:
    c = _Candidate(m)
    limit, log2 = math.log(1.0 / alpha), math.log(2.0 / alpha)
    s, v = 0.0, 0.25
    for i, x in enumerate(xs, 1):
        _step(c, x, _bet(log2, i, v), limit)
        if c.out:
            break
        s, v = _moments(i, s, v, x)
    return c


def _bet(log2: float, i: int, v: float) -> float:
    """The untruncated predictable plug-in bet on observation ``i`` (1-based), from the variance sum ``v``
    of the observations before it: sqrt(2 log(2/alpha) / (sigma2 i log(i + 1))) with sigma2 = v / i."""
    return math.sqrt(2.0 * log2 / (v * math.log(i + 1.0)))


def _moments(i: int, s: float, v: float, x: float) -> tuple[float, float]:
    """The running sum and variance sum after observation ``i`` (1-based) is ``x``: the variance sum adds
    the squared distance of ``x`` from the running mean that includes it, started at 1/2 (the paper's)."""
    s += x
    mu = (0.5 + s) / (i + 1)
    return s, v + (x - mu) ** 2


def _step(c: _Candidate, x: float, lam: float, limit: float) -> None:
    """One observation's bet for candidate ``c``; excludes it once the hedged wealth reaches 1/alpha."""
    m = c.m
    up = min(lam, _TRUNCATE / m) if m > 0 else lam
    down = min(lam, _TRUNCATE / (1.0 - m)) if m < 1 else lam
    c.up += math.log1p(up * (x - m))
    c.down += math.log1p(-down * (x - m))
    # hedged: max(theta K+, (1 - theta) K-) >= 1/alpha
    if max(math.log(_THETA) + c.up, math.log(1.0 - _THETA) + c.down) >= limit:
        c.out = True


@dataclass(frozen=True)
class RepeatedIntervals:
    """Repeated confidence intervals at a fixed schedule of looks (Jennison and Turnbull, "Group
    Sequential Methods with Applications to Clinical Trials", 2000, ch. 9): a group-sequential
    design for a figure that is looked at only after fixed numbers of observations (``looks``, the
    last one its maximum).  Each look's interval is the fixed-sample interval with a wider critical
    value: Haybittle-Peto boundaries, ``interim_alpha`` (two-sided) at every look before the last and
    what is left of ``alpha`` at the last.  By the union bound the chance that *any* look's
    interval misses the truth is at most ``interim_alpha * (K - 1) + (alpha - interim_alpha * (K - 1))
    = alpha`` (exactly, as far as each interval holds its own level; no integration over the
    looks' correlation is needed), so stopping at any look, for any reason, keeps the coverage.

    The last look's critical value is close to a fixed interval's (1.98 against 1.96 for six looks):
    a figure that reaches its maximum reads almost as the fixed-count run of that size would, which
    the confidence sequences cannot do (their width is 3-3.8 standard errors); the price is that
    early looks stop only a clear answer (z 3.48).

    >>> d = RepeatedIntervals((50, 100, 150, 200, 250, 300))
    >>> round(d.z(50), 2), round(d.z(300), 2)
    (3.48, 1.98)
    """

    looks: tuple[int, ...]
    alpha: float = 0.05
    interim_alpha: float = 0.0005

    def __post_init__(self) -> None:
        if not self.looks or list(self.looks) != sorted(set(self.looks)) or self.looks[0] < 1:
            raise ValueError(f"looks must be increasing positive counts, not {self.looks!r}")
        if not 0 < self.alpha < 1:
            raise ValueError("alpha must lie in (0, 1)")

    @property
    def spent(self) -> float:
        """The two-sided level of each look before the last (halved when ``K - 1`` of them would spend more
        than half of ``alpha``)."""
        k = len(self.looks) - 1
        return min(self.interim_alpha, self.alpha / (2 * k)) if k else 0.0

    @property
    def final_alpha(self) -> float:
        return self.alpha - self.spent * (len(self.looks) - 1)

    def z(self, n: int) -> float:
        """The critical value of the interval after ``n`` observations (the last look's from its maximum on,
        and at every ``n`` of a design with one look: nothing is spent before it).

        >>> round(RepeatedIntervals((50,)).z(1), 2), round(RepeatedIntervals((50,)).z(50), 2)
        (1.96, 1.96)
        """
        from statistics import NormalDist

        a = self.final_alpha if n >= self.looks[-1] or len(self.looks) == 1 else self.spent
        return NormalDist().inv_cdf(1.0 - a / 2.0)


@dataclass(frozen=True)
class Settled:
    """Whether a figure's interval has settled: clear of every edge it is judged against, or narrow enough."""

    settled: bool
    why: str  # "clear of the band", "precision reached", "" while not settled


def settle(interval: tuple[float, float], edges: Iterable[float] = (), precision: float | None = None) -> Settled:
    """Settled when the interval lies clear of every edge (a band's ends: the verdict cannot change),
    or when it is at most ``2 * precision`` wide.

    >>> settle((0.10, 0.20), edges=(0.03, 0.80))
    Settled(settled=True, why='clear of the band')
    >>> settle((0.01, 0.20), edges=(0.03, 0.80))
    Settled(settled=False, why='')
    >>> settle((0.01, 0.05), edges=(0.03,), precision=0.02)
    Settled(settled=True, why='precision reached')
    """
    lo, hi = interval
    edges = tuple(edges)
    if edges and all(not lo <= e <= hi for e in edges):
        return Settled(True, "clear of the band")
    if precision is not None and hi - lo <= 2 * precision:
        return Settled(True, "precision reached")
    return Settled(False, "")
