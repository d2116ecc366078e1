"""The playtest's tables: seat advantage, matchups, declared metrics.

Built from a merged :class:`~cardkit.playtest.sweep.Sweep` (counts only, so the same
for any number of workers) as the records of :mod:`cardkit.playtest.records`, rendered for the
terminal here and as PDF pages by :mod:`cardkit.playtest.pdfreport`, and serialized to JSON at
the edge by :func:`~cardkit.playtest.records.to_json`.

* :class:`SeatTable`: per seat of a competitive game, complete games won with a Wilson
  interval, and the first seat's advantage over each other seat: the difference of two
  win rates *of the same games*, its interval clustered by seed (the seeds are the
  independent units, as for the ratings and the skill gap) and never narrower than
  Newcombe's interval for paired proportions (:func:`~cardkit.playtest.ladder.paired_diff_ci`),
  which accounts for one seat's win being another's loss.
* :class:`MatchupCell`: one agent against another at two players, over both seatings
  of the same seeds (common random numbers: the same deal and chance outcomes).
* :class:`MetricDeclaration` and :class:`MetricRow`: what the game declares (name, kind,
  how to aggregate, its label string) and the aggregated value per setup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cardkit.playtest.ladder import is_ceiling, paired_diff_ci
from cardkit.playtest.records import (Advantage, Interval, MatchupCell, MetricDeclaration, MetricRow, MetricValue,
                                      SeatRate, SeatTable, score_text, to_json)
from cardkit.playtest.stats import seed_diff_ci
from cardkit.playtest.sweep import Sweep, Tally, hist_median, hist_percentile, wilson
from cardkit.rules.protocol import Aggregate, Cooperation, EngineInfo

__all__ = ["Advantage", "Interval", "MatchupCell", "MetricDeclaration", "MetricRow", "MetricValue", "SeatRate",
           "SeatTable", "Tables", "declarations", "seat_diff_ci", "matchups", "metric_rows", "seat_table", "seat_tables", "to_json"]


# ------------------------------------------------------------------ building
def seat_table(t: Tally) -> SeatTable:
    """Per seat of one setup: complete games won (Wilson), and seat 1 minus each other seat with
    :func:`seat_diff_ci` (both rates are read from the same games, the seeds independent)."""
    done = t.wins + t.losses + t.draws
    seats = []
    for i, w in enumerate(t.seat_wins):
        seats.append(SeatRate(i + 1, done, w, t.seat_draws[i], round(w / done, 4) if done else 0.0,
                              Interval.of(wilson(w, done))))
    adv = []
    w1 = t.seat_wins[0] if t.seat_wins else 0
    for i in range(1, len(t.seat_wins)):
        both = t.seat_both[i] if i < len(t.seat_both) else 0
        wi = t.seat_wins[i]
        # a 2x2 table of the games: both won, only seat 1, only seat i, neither
        cells = (both, w1 - both, wi - both, done - w1 - wi + both)
        d = (w1 - wi) / done if done else 0.0
        adv.append(Advantage(i + 1, round(d, 4), Interval.of(seat_diff_ci(*cells))))
    return SeatTable(t.players, t.agent, tuple(seats), tuple(adv))


def seat_diff_ci(both: int, only_1: int, only_other: int, neither: int) -> tuple[float, float]:
    """95 % interval for seat 1's win rate minus another seat's, from the complete games of a setup:
    both won, only seat 1, only the other, neither.

    Clustered by seed, as the ratings and the skill gap are (:func:`~cardkit.playtest.stats.seed_diff_ci`):
    the seeds are the independent units, and a seat's advantage in a seed is seat 1's wins minus
    the other's in the seed's games, read with Student's t over the seeds.  A setup plays each seed
    once (game ``k`` of a sweep is seed ``seed + k``, whichever batch plays it), so a seed's
    difference is its game's: +1 only seat 1 won, -1 only the other, 0 both or neither.  Never
    narrower than Newcombe's paired interval (:func:`~cardkit.playtest.ladder.paired_diff_ci`),
    which is kept where it is the wider (few seeds, or rates near 0 or 1, where t's interval
    over the seeds shrinks).

    A seed that one seat wins far more often (the deal decides) changes neither: games of different
    seeds are independent however strong the seed's effect (tests/playtest/test_seat_coverage.py).

    >>> [round(x, 3) for x in seat_diff_ci(0, 30, 10, 0)], [round(x, 3) for x in paired_diff_ci(0, 30, 10, 0)]
    ([0.196, 0.78], [0.196, 0.716])
    """
    lo, hi = paired_diff_ci(both, only_1, only_other, neither)
    # seat 1's points against the other seat in a seed: 1 only seat 1 won, 0 only the other, 1/2 both or neither
    clustered = seed_diff_ci({(1.0, 1): only_1, (0.0, 1): only_other, (0.5, 1): both + neither}, games_per_seed=1)
    if clustered is not None:
        lo, hi = min(lo, clustered[1][0]), max(hi, clustered[1][1])
    return lo, hi


def seat_tables(sweep: Sweep) -> list[SeatTable]:
    """A :class:`SeatTable` per setup of a competitive game, by player count and agent."""
    return [seat_table(t) for key, t in sorted(sweep.tallies.items())
            if t.info is not None and t.info.cooperation is Cooperation.COMPETITIVE and t.seat_wins]


def _paired_rate(per_seed: Mapping[int, int], seeds: int) -> tuple[float, tuple[float, float]]:
    """The win rate over both games of every seed, with a Wilson interval on the effective sample
    size of the pairs (Kish's design effect): the seeds are independent, the two games of a seed
    are not.  Never narrower than Wilson over the games taken as independent.

    Forty seeds whose two games mostly go the same way (the deal decides): wider than
    Wilson's interval of 80 independent games.

    >>> rate, (lo, hi) = _paired_rate({0: 15, 1: 10, 2: 15}, 40)
    >>> rate, round(lo, 3), round(hi, 3), [round(x, 3) for x in wilson(40, 80)]
    (0.5, 0.369, 0.631, [0.393, 0.607])
    """
    n = seeds
    if n == 0:
        return 0.0, (0.0, 1.0)
    mean = sum(k * c for k, c in per_seed.items()) / (2 * n)
    var = sum(c * (k / 2 - mean) ** 2 for k, c in per_seed.items()) / (n - 1) if n > 1 else 0.0
    n_eff = float(2 * n)
    if var > 0 and 0 < mean < 1:
        n_eff = min(n_eff, mean * (1 - mean) / (var / n))
    return mean, wilson(mean * n_eff, n_eff)


def matchups(sweep: Sweep, ceilings: frozenset[str] = frozenset()) -> list[MatchupCell]:
    """Every ordered pair of agents that played each other: the row agent's wins over both
    seatings, and as seat 1 and as seat 2 (Wilson intervals over those games)."""
    out = []
    for (players, a, b), m in sorted(sweep.matchups.items()):
        n = m.seeds
        ceiling = is_ceiling(a, ceilings) or is_ceiling(b, ceilings)
        for me, other, first, second, per_seed in ((a, b, m.a_first, m.a_second, m.per_seed),
                                                   (b, a, m.b_first, m.b_second, m.per_seed_b)):
            rate, ci = _paired_rate(per_seed, n)
            out.append(MatchupCell(players, me, other, 2 * n, first + second, round(rate, 4), Interval.of(ci),
                                   round(first / n, 4) if n else 0.0, Interval.of(wilson(first, n)),
                                   round(second / n, 4) if n else 0.0, Interval.of(wilson(second, n)),
                                   m.incomplete, ceiling))
    out.sort(key=lambda c: (c.players, c.agent, c.opponent))
    return out


def declarations(info: EngineInfo) -> list[MetricDeclaration]:
    return [MetricDeclaration(m.name, m.kind, m.aggregate, m.label) for m in info.metrics]


def metric_rows(sweep: Sweep) -> list[MetricRow]:
    """Each setup's declared metrics, aggregated as each declares (in the declared order)."""
    rows = []
    for (players, agent), t in sorted(sweep.tallies.items()):
        n = t.games
        values = []
        for m in t.info.metrics if t.info else ():
            if m.aggregate is Aggregate.HISTOGRAM:
                h = t.hists.get(m.name, {})
                if h:
                    values.append(MetricValue(m.name, m.aggregate, float(hist_median(h)), hist_percentile(h, 5),
                                              hist_percentile(h, 95)))
                else:
                    values.append(MetricValue(m.name, m.aggregate, 0.0, 0.0, 0.0))
            elif m.aggregate is Aggregate.SHARE:
                values.append(MetricValue(m.name, m.aggregate, round(t.nonzero.get(m.name, 0) / n, 4) if n else 0.0))
            else:
                values.append(MetricValue(m.name, m.aggregate, round(t.sums.get(m.name, 0) / n, 3) if n else 0.0))
        score = None
        if t.info is not None and t.info.score_targets:
            done = t.wins + t.losses + t.draws
            score = round(t.score_sum / done, 3) if done else 0.0
        if values or score is not None:
            rows.append(MetricRow(players, agent, n, tuple(values), score))
    return rows


@dataclass(frozen=True)
class Tables:
    """The new tables of one sweep, together: what the text and PDF reports draw."""

    seats: tuple[SeatTable, ...]
    matchups: tuple[MatchupCell, ...]
    declared: tuple[MetricDeclaration, ...]
    metrics: tuple[MetricRow, ...]

    @classmethod
    def of(cls, sweep: Sweep, info: EngineInfo, ceilings: frozenset[str] = frozenset()) -> Tables:
        return cls(tuple(seat_tables(sweep)), tuple(matchups(sweep, ceilings)), tuple(declarations(info)),
                   tuple(metric_rows(sweep)))


# ------------------------------------------------------------------ the terminal
def _pct(v: float) -> str:
    return f"{v:.1%}"


def _ci(i: Interval, sign: bool = False) -> str:
    return f"[{i.lo:+.1%}, {i.hi:+.1%}]" if sign else f"[{i.lo:.1%}, {i.hi:.1%}]"


def seat_text(tables: Sequence[SeatTable], names: Sequence[str] = ()) -> str:
    """Per-seat win rates with intervals, and seat 1's advantage over each other seat."""
    def name(seat: int) -> str:
        return f"seat {seat} ({names[seat - 1]})" if seat - 1 < len(names) else f"seat {seat}"

    lines = ["win rate by seat (seat 1 plays first; 95 % interval) and first-seat advantage (Newcombe, paired)"]
    for t in tables:
        cells = [f"{name(r.seat)} {_pct(r.win_rate)} {_ci(r.ci95)}" for r in t.seats]
        draws = t.seats[0].draws if t.seats else 0
        lines.append(f"  {t.players}p {t.agent}: " + "; ".join(cells) + f"; draws {draws}")
        for a in t.first_advantage:
            lines.append(f"      seat 1 minus seat {a.over_seat}: {a.difference:+.1%} {_ci(a.ci95, True)}")
    return "\n".join(lines)


def matchup_text(cells: Sequence[MatchupCell]) -> str:
    """A table per player count: the row agent's win rate against the column agent, both seatings."""
    lines = ["matchups: row agent's win rate against the column agent, both seatings of the same seeds [95 % interval]"]
    for players in sorted({c.players for c in cells}):
        mine = [c for c in cells if c.players == players]
        agents = sorted({c.agent for c in mine})
        by = {(c.agent, c.opponent): c for c in mine}
        lines.append(f"  {players}p {'':<14}" + "".join(f"{a[:22]:>24}" for a in agents))
        for a in agents:
            row = []
            for b in agents:
                c = by.get((a, b))
                row.append(f"{f'{_pct(c.win_rate)} {_ci(c.ci95)}' if c else '-':>24}")
            lines.append(f"  {'':>2} {a[:14]:<14}" + "".join(row))
        for c in mine:
            lines.append(f"    {c.agent} vs {c.opponent}: {c.games} games; as seat 1 {_pct(c.first_win_rate)} "
                         f"{_ci(c.first_ci95)}, as seat 2 {_pct(c.second_win_rate)} {_ci(c.second_ci95)}"
                         + (f"; {c.incomplete} incomplete" if c.incomplete else "")
                         + ("  [sees hidden cards]" if c.ceiling else ""))
    return "\n".join(lines)


_AGG = {Aggregate.MEAN: "mean per game", Aggregate.SHARE: "share of games", Aggregate.HISTOGRAM: "median (p5-p95)"}


def metric_value_text(v: MetricValue) -> str:
    if v.aggregate is Aggregate.SHARE:
        return _pct(v.value)
    if v.aggregate is Aggregate.HISTOGRAM:
        return f"{v.value:g} ({v.p5:g}-{v.p95:g})"
    return f"{v.value:g}"


def metric_text(decl: Sequence[MetricDeclaration], rows: Sequence[MetricRow]) -> str:
    """The game's declared metrics: what each is, then its value per setup."""
    lines = ["declared metrics: " + "; ".join(f"{d.name.replace('_', ' ')} ({d.kind.value}, {_AGG[d.aggregate]})"
                                               for d in decl)]
    for r in rows:
        cells = [f"{v.name.replace('_', ' ')} {metric_value_text(v)}" for v in r.values]
        if r.score is not None:
            cells.append(f"score {score_text(r.score)} (mean)")
        lines.append(f"  {r.players}p {r.agent}: " + ", ".join(cells))
    return "\n".join(lines)
