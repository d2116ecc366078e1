"""Small, deterministic statistics the ladder reads by the kind of outcome a game declares: a
mean score with Student's t interval, the difference of two means (Welch), and ratings over a
table of matchups (Bradley-Terry, on the Elo scale, with intervals clustered by seed).

Everything works from exact histograms (value -> games) and counts summed in a fixed order, so
the figures are the same whatever the number of workers.  Nothing here imports the rest of the
playtest.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

Z95 = 1.959963984540054
ELO = 400 / math.log(10)  # Elo points per unit of log-strength


def t_quantile(df: float, p: float = 0.975) -> float:
    """Student's t quantile: exact for 1 and 2 degrees of freedom, else the Cornish-Fisher
    expansion around the normal quantile (within 0.002 of the tables from 3 on).

    >>> round(t_quantile(1), 3), round(t_quantile(2), 3), round(t_quantile(10), 3), round(t_quantile(120), 3)
    (12.706, 4.303, 2.228, 1.98)
    """
    if df <= 1:
        return math.tan(math.pi * (p - 0.5))
    if df <= 2:
        return (2 * p - 1) * math.sqrt(2 / (4 * p * (1 - p)))
    from statistics import NormalDist

    z = NormalDist().inv_cdf(p)
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    g4 = (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4


def moments(hist: Mapping[float, int]) -> tuple[int, float, float]:
    """Games, mean and sample variance of the values a histogram counts (summed in value order)."""
    n = sum(hist.values())
    if n == 0:
        return 0, 0.0, 0.0
    mean = math.fsum(v * k for v, k in sorted(hist.items())) / n
    var = math.fsum(k * (v - mean) ** 2 for v, k in sorted(hist.items())) / (n - 1) if n > 1 else 0.0
    return n, mean, var


def mean_ci(hist: Mapping[float, int], bounds: tuple[float, float] | None = None) -> tuple[float, tuple[float, float]]:
    """The mean of the counted values and its 95 % t interval, clipped to ``bounds`` (the declared
    score range); with fewer than two values the interval is the whole range.

    >>> mean, (lo, hi) = mean_ci({8.0: 5, 10.0: 5})
    >>> mean, round(lo, 3), round(hi, 3)
    (9.0, 8.246, 9.754)
    """
    n, mean, var = moments(hist)
    if n < 2:
        return mean, bounds if bounds is not None else (mean, mean)
    half = t_quantile(n - 1) * math.sqrt(var / n)
    lo, hi = mean - half, mean + half
    if bounds is not None:
        lo, hi = max(bounds[0], lo), min(bounds[1], hi)
    return mean, (lo, hi)


def welch_ci(a: Mapping[float, int], b: Mapping[float, int]) -> tuple[float, tuple[float, float]]:
    """The difference of two means (a minus b) with Welch's 95 % interval (degrees of freedom by
    Welch-Satterthwaite).  Two constant samples give a point.

    >>> d, (lo, hi) = welch_ci({10.0: 30, 12.0: 30}, {0.0: 50, 2.0: 10})
    >>> round(d, 3), round(lo, 3), round(hi, 3)
    (10.667, 10.345, 10.988)
    """
    na, ma, va = moments(a)
    nb, mb, vb = moments(b)
    d = ma - mb
    if na < 2 or nb < 2:
        return d, (-math.inf, math.inf)
    ea, eb = va / na, vb / nb
    se = math.sqrt(ea + eb)
    if se == 0:
        return d, (d, d)
    df = (ea + eb) ** 2 / ((ea ** 2 / (na - 1) if ea else 0.0) + (eb ** 2 / (nb - 1) if eb else 0.0))
    half = t_quantile(df) * se
    return d, (d - half, d + half)


def seed_diff_ci(seed_points: Mapping[tuple[float, int], int], games_per_seed: int = 2
                 ) -> tuple[float, tuple[float, float]] | None:
    """a's win rate minus b's in their matchup, per game, with a 95 % interval clustered by seed.

    ``seed_points`` is ``{(a's points, games completed): seeds}`` (a win 1, a draw 1/2), each seed
    played ``games_per_seed`` times (both seatings of one deal).  In a seed, a's wins minus b's are
    ``2 x points - games completed`` (a game not completed is won by neither); the seeds are the
    independent units, so the interval is Student's t over the seeds' differences per game (on
    ``G - 1`` degrees of freedom for ``G`` seeds), clipped to -1..1.  None with fewer than two seeds.

    Seeds whose two games agree (a deal that suits a, twice) count once, not twice:

    >>> d, (lo, hi) = seed_diff_ci({(2.0, 2): 30, (0.0, 2): 10})
    >>> d, round(lo, 3), round(hi, 3)
    (0.5, 0.22, 0.78)
    """
    hist: dict[float, int] = {}
    for (x, done), n in sorted(seed_points.items()):
        y = (2 * x - done) / games_per_seed
        hist[y] = hist.get(y, 0) + n
    if sum(hist.values()) < 2:
        return None
    return mean_ci(hist, (-1.0, 1.0))


def _solve(m: list[list[float]]) -> list[list[float]] | None:
    """The inverse of a small square matrix (Gauss-Jordan with partial pivoting); None if singular."""
    n = len(m)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(m)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(a[r][c]))
        if abs(a[piv][c]) < 1e-12:
            return None
        a[c], a[piv] = a[piv], a[c]
        f = a[c][c]
        a[c] = [x / f for x in a[c]]
        for r in range(n):
            if r != c and a[r][c]:
                g = a[r][c]
                a[r] = [x - g * y for x, y in zip(a[r], a[c])]
    return [row[n:] for row in a]


def bradley_terry(agents: Sequence[str], results: Mapping[tuple[str, str], tuple[float, float]],
                  anchor: str | None = None, prior: float = 0.5,
                  seeds: Mapping[tuple[str, str], Mapping[tuple[float, int], int]] | None = None,
                  ) -> dict[str, tuple[float, tuple[float, float]]]:
    """Ratings over a table of matchups on the Elo scale, with 95 % intervals.

    ``results[(a, b)]`` is ``(points of a, games)`` against ``b`` (a win 1, a draw 1/2), for each
    unordered pair once.  The strengths are Bradley-Terry's maximum-likelihood fit (Hunter's MM
    iteration), each pair given ``prior`` points each way as one drawn game (so an agent that won
    every game has a finite rating); a rating is ``400 log10`` of the strength over the ``anchor``'s
    (random play where it played; else the first agent), whose rating is 0 by definition, and each
    interval comes from the observed Fisher information with the anchor held fixed.

    The games of a matchup are paired: each seed is played in both seatings, with the same deal and
    chance outcomes, so a deal that suits one agent counts for it twice.  ``seeds[(a, b)]`` says how
    ``a``'s points fell seed by seed, ``{(points, games completed): seeds}``; given it, the seeds are
    the clusters of a sandwich (cluster-robust) variance, ``I^-1 B I^-1`` with ``B`` the sum over
    seeds of the outer products of their score contributions (times ``G / (G - 1)`` for ``G``
    seeds), read with Student's t on ``G - (k - 1)`` degrees of freedom; never narrower than the
    model's own interval (a seat that decides games makes a seed's two games disagree, and the
    model's width is then kept rather than a variance estimated from few seeds).  Without ``seeds``
    the games are taken as independent, which under-covers when deals favour an agent.

    >>> r = bradley_terry(["random", "smart"], {("random", "smart"): (25.0, 100.0)}, anchor="random")
    >>> round(r["smart"][0]), r["random"]
    (189, (0.0, (0.0, 0.0)))

    The same 100 games as 50 seeds whose two games always agree: half the information, a wider interval.

    >>> paired = bradley_terry(["random", "smart"], {("random", "smart"): (25.0, 100.0)}, anchor="random",
    ...                        seeds={("random", "smart"): {(2.0, 2): 12, (1.0, 2): 1, (0.0, 2): 37}})
    >>> lo, hi = r["smart"][1]
    >>> plo, phi = paired["smart"][1]
    >>> round(paired["smart"][0]) == round(r["smart"][0]), round((phi - plo) / (hi - lo), 2)
    (True, 1.43)
    """
    names = list(agents)
    if not names:
        return {}
    idx = {a: i for i, a in enumerate(names)}
    k = len(names)
    games = [[0.0] * k for _ in range(k)]
    points = [0.0] * k
    for (a, b), (pa, n) in sorted(results.items()):
        if a not in idx or b not in idx or a == b:
            continue
        i, j = idx[a], idx[b]
        games[i][j] += n + 2 * prior
        games[j][i] += n + 2 * prior
        points[i] += pa + prior
        points[j] += n - pa + prior
    strength = [1.0] * k
    for _ in range(10_000):
        new = []
        for i in range(k):
            denom = math.fsum(games[i][j] / (strength[i] + strength[j]) for j in range(k) if j != i and games[i][j])
            new.append(points[i] / denom if denom else strength[i])
        g = math.exp(math.fsum(math.log(max(x, 1e-300)) for x in new) / k)
        new = [x / g for x in new]
        done = max(abs(math.log(x / y)) for x, y in zip(new, strength)) < 1e-10
        strength = new
        if done:
            break
    ref = idx.get(anchor, 0) if anchor is not None else 0
    theta = [math.log(s) - math.log(strength[ref]) for s in strength]
    info = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(k):
            if i != j and games[i][j]:
                p = 1 / (1 + math.exp(theta[j] - theta[i]))
                w = games[i][j] * p * (1 - p)
                info[i][i] += w
                info[i][j] -= w
    free = [i for i in range(k) if i != ref]
    inv = _solve([[info[i][j] for j in free] for i in free]) if free else []
    robust, quantile = _clustered(names, idx, theta, seeds, free, inv) if seeds else (None, Z95)
    out: dict[str, tuple[float, tuple[float, float]]] = {}
    for i, a in enumerate(names):
        r = theta[i] * ELO
        if i == ref:
            out[a] = (0.0, (0.0, 0.0))
            continue
        f = free.index(i)
        var = inv[f][f] if inv is not None else math.inf
        if robust is not None:
            var = max(var, robust[f][f])
        half = quantile * math.sqrt(max(var, 0.0)) * ELO
        out[a] = (r, (r - half, r + half))
    return out


def _clustered(names: Sequence[str], idx: Mapping[str, int], theta: Sequence[float],
               seeds: Mapping[tuple[str, str], Mapping[tuple[float, int], int]], free: Sequence[int],
               inv: list[list[float]] | None) -> tuple[list[list[float]] | None, float]:
    """The sandwich variance of the free log-strengths with the seeds as clusters, and the t quantile
    its interval is read with (see :func:`bradley_terry`)."""
    if inv is None:
        return None, Z95
    k = len(names)
    meat = [[0.0] * k for _ in range(k)]
    clusters = 0
    for (a, b), hist in sorted(seeds.items()):
        if a not in idx or b not in idx or a == b:
            continue
        i, j = idx[a], idx[b]
        p = 1 / (1 + math.exp(theta[j] - theta[i]))
        c = math.fsum(n * (x - g * p) ** 2 for (x, g), n in sorted(hist.items()))
        clusters += sum(hist.values())
        meat[i][i] += c
        meat[j][j] += c
        meat[i][j] -= c
        meat[j][i] -= c
    if clusters < 2:
        return None, Z95
    scale = clusters / (clusters - 1)
    m = len(free)
    between = [[meat[free[r]][free[c]] * scale for c in range(m)] for r in range(m)]
    left = [[math.fsum(inv[r][t] * between[t][c] for t in range(m)) for c in range(m)] for r in range(m)]
    robust = [[math.fsum(left[r][t] * inv[t][c] for t in range(m)) for c in range(m)] for r in range(m)]
    return robust, t_quantile(max(1, clusters - (k - 1)))
