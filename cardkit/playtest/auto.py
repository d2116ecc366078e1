"""``--games auto``: play in rounds of seeds until every figure the verdict reads has settled.

A sequential sweep watches *units*, each one figure with its own anytime-valid confidence
sequence (:mod:`cardkit.playtest.sequential`), fed with one value per seed in seed order:

* a **setup** (player count and agent): the outcome value of each game, a win as 1 or a scored
  game's first-seat score placed in ``[0, 1]`` by the declared ``score_range``;
* a **skill gap** (an agent against ``random`` at one player count, the same seeds): the paired
  difference of the two outcome values, placed in ``[0, 1]``;
* a **matchup** (two agents of a competitive game, both seatings): a's wins minus b's per seed;
* an **impact pair** (a card switched off, one setup): the paired difference of the outcome value.

Round ``r`` (0-based) brings every unit that still needs games up to ``FIRST_ROUND * 2**r`` seeds
(at most ``max_games``).  A unit stops when its interval is clear of every edge that matters for
the verdict (a setup that could be the strongest: the band's two ends; a gap, a matchup, an
impact pair: 0), or when it is as narrow as ``precision`` asks, or at ``max_games``.  A setup also
goes on while a gap or an impact pair of it goes on (their base games are its games).  Whether a
unit goes on is decided only from the rounds already finished, and every round is a fixed list of
seed chunks of :data:`CHUNK` games, so the games played and the report are the same for any
number of workers and for either backend.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cardkit.playtest.ladder import is_ceiling
from cardkit.playtest.records import AnytimeIntervals, Interval, Sequential, SequentialUnit
from cardkit.playtest.sequential import ConfidenceSequence, settle
from cardkit.playtest.sweep import Backend, Batch, BatchResult, Sweep, Variant, _results, usable_cores
from cardkit.rules.protocol import Cooperation, EngineInfo, Outcome

__all__ = ["CHUNK", "DEFAULT_MAX", "FIRST_ROUND", "Auto", "Schedule", "run_auto"]

FIRST_ROUND = 50  # seeds per unit in the first round; each round doubles the seeds played
CHUNK = 25  # seeds per batch: the unit of work and of invariant certification, whatever the round
DEFAULT_MAX = 1600  # seeds per unit at most, unless --max-games says otherwise


@dataclass(frozen=True)
class Schedule:
    """What a sequential sweep plays: the seeds per unit after each round, up to the maximum."""

    max_games: int = DEFAULT_MAX
    precision: float | None = None  # points of the figure: percentage points of a rate, score units
    first: int = FIRST_ROUND

    def target(self, r: int) -> int:
        """Seeds per unit once round ``r`` (0-based) is played."""
        return min(self.max_games, self.first * 2 ** r)


@dataclass(frozen=True)
class Auto:
    """A sequential sweep's outcome: the merged sweep, the intervals the report shows (figures, gaps
    and matchups; ``impact``: (card, players, agent) -> the change's interval) and how it played."""

    sweep: Sweep
    anytime: AnytimeIntervals
    sequential: Sequential
    impact: Mapping[tuple[str, int, str], tuple[float, float]]


@dataclass
class _Unit:
    what: str  # "setup", "skill gap", "matchup", "impact"
    players: int
    agent: str
    card: str | None = None
    cs: ConfidenceSequence = field(default_factory=ConfidenceSequence)
    stopped: str = ""

    @property
    def games(self) -> int:
        return self.cs.n


def run_auto(root: Path, set_id: str, counts: Sequence[int], agents: Sequence[str], info: EngineInfo,
             band: tuple[float, float], schedule: Schedule, seed: int, certify_every: int,
             ceilings: frozenset[str] = frozenset(), impact_cards: Sequence[str] = (), judged: Sequence[str] = (),
             jobs: int = 1, backend: Backend = "local", scheduler: str | None = None,
             progress: Callable[[int, int], None] | None = None) -> Auto:
    """Play a sequential sweep (see the module's text): the merged sweep, its anytime-valid intervals
    and how it played.  ``judged``: the agents whose impact pairs are played (``impact_cards``)."""
    jobs = jobs or usable_cores()  # 0: one worker per usable core, as a fixed sweep
    scored = info.outcome is Outcome.SCORED
    competitive = info.cooperation is Cooperation.COMPETITIVE
    span = 1.0
    if scored:
        assert info.score_range is not None  # the caller checked (G082)
        span = info.score_range[1] - info.score_range[0]
    low = info.score_range[0] if scored and info.score_range is not None else 0.0
    unit = span if scored else 0.01  # one "point" of the figure, in its own units
    prec_fig = schedule.precision * unit / span if schedule.precision is not None else None  # in [0, 1]
    prec_diff = prec_fig / 2 if prec_fig is not None else None  # a difference d sits at (d + 1) / 2

    def place(v: float) -> float:  # an outcome value in [0, 1]
        return min(1.0, max(0.0, (v - low) / span))

    def place_diff(d: float) -> float:  # a difference of outcome values in [0, 1]
        return min(1.0, max(0.0, (d / span + 1.0) / 2.0))

    setups = {(p, a): _Unit("setup", p, a) for p in counts for a in agents}
    values: dict[tuple[int, str], list[float]] = {k: [] for k in setups}  # placed values, in seed order
    gaps = {(p, a): _Unit("skill gap", p, f"{a}|random") for p in counts for a in agents
            if not competitive and "random" in agents and a != "random" and not is_ceiling(a, ceilings)}
    names = list(dict.fromkeys(agents))
    matchups = {(2, a, b): _Unit("matchup", 2, f"{a}|{b}") for a, b in _pairs(names)
                if competitive and 2 in counts}
    impacts = {(c, p, a): _Unit("impact", p, a, c) for p in counts for a in judged for c in impact_cards}

    sweep = Sweep()
    played = 0
    rounds = 0
    while True:
        target = schedule.target(rounds)
        going_setups = [k for k, u in setups.items() if not u.stopped]
        going_matchups = [k for k, u in matchups.items() if not u.stopped]
        if not going_setups and not going_matchups:
            break
        batches: list[Batch] = []
        for p, a in going_setups:
            variants = tuple(Variant(c, str(root), c) for (c, pp, aa), u in impacts.items()
                             if pp == p and aa == a and not u.stopped)
            batches += _chunks(Batch(str(root), set_id, p, a, (0, 0), variants=variants, trace=True),
                               seed, setups[(p, a)].games, target, certify_every)
        for p, a, b in going_matchups:
            batches += _chunks(Batch(str(root), set_id, p, f"{a}|{b}", (0, 0), matchup=(a, b), trace=True),
                               seed, matchups[(p, a, b)].games, target, certify_every)
        done_before = played
        planned = sum((b.seeds[1] - b.seeds[0]) * (1 + len(b.variants) + (b.matchup is not None))
                      for b in batches)
        results = _collect(batches, jobs, backend, scheduler, sweep, _shifted(progress, done_before, planned))
        played += planned
        # feed the sequences in seed order: batches of a unit never overlap, so their starts order them
        for (p, a, _start), res in sorted(results.items()):
            if res.matchup is not None:
                matchups[(p, res.matchup.a, res.matchup.b)].cs.extend(
                    min(1.0, max(0.0, (d / 2.0 + 1.0) / 2.0)) for d in res.trace.get("matchup", ()))
                continue
            base = [place(v) for v in res.trace.get("", ())]
            setups[(p, a)].cs.extend(base)
            values[(p, a)].extend(base)
            for label, diffs in res.trace.items():
                if label and (label, p, a) in impacts:
                    impacts[(label, p, a)].cs.extend(place_diff(d) for d in diffs)
        for (p, a), g in gaps.items():
            mine, theirs = values[(p, a)], values[(p, "random")]
            g.cs.extend((x - y + 1.0) / 2.0 for x, y in zip(mine[g.games:], theirs[g.games:]))
        rounds += 1
        at_max = target >= schedule.max_games
        _judge(setups, gaps, matchups, impacts, (place(band[0]), place(band[1])), prec_fig, prec_diff, ceilings,
               competitive, at_max)

    def fig(iv: tuple[float, float]) -> tuple[float, float]:
        return (low + iv[0] * span, low + iv[1] * span)

    def diff(iv: tuple[float, float], scale: float) -> tuple[float, float]:
        return ((2 * iv[0] - 1) * scale, (2 * iv[1] - 1) * scale)

    figures = {k: fig(u.cs.interval()) for k, u in setups.items() if u.games}
    gap_ivs: dict[tuple[int, str, str], tuple[float, float]] = {}
    for p in counts:
        for a, b in _pairs([a for a in agents if (p, a) in setups]):
            xs, ys = values[(p, a)], values[(p, b)]
            cs = ConfidenceSequence()
            cs.extend((x - y + 1.0) / 2.0 for x, y in zip(xs, ys))
            if cs.n:
                lo, hi = diff(cs.interval(), span if scored else 1.0)
                gap_ivs[(p, a, b)], gap_ivs[(p, b, a)] = (lo, hi), (-hi, -lo)
    match_ivs: dict[tuple[int, str, str], tuple[float, float]] = {}
    for (p, a, b), u in matchups.items():
        if u.games:
            lo, hi = diff(u.cs.interval(), 1.0)
            match_ivs[(p, a, b)], match_ivs[(p, b, a)] = (lo, hi), (-hi, -lo)
    rows = []
    digits = 3 if scored else 4
    for k, u in sorted(setups.items()):
        rows.append(SequentialUnit("setup", u.players, u.agent, None, u.games, Interval.of(figures[k], digits),
                                   u.stopped) if u.games else None)
    for (p, a), u in sorted(gaps.items()):
        rows.append(SequentialUnit("skill gap", p, u.agent, None, u.games,
                                   Interval.of(gap_ivs.get((p, a, "random"), (-1.0, 1.0))), u.stopped))
    for mk, u in sorted(matchups.items()):
        rows.append(SequentialUnit("matchup", u.players, u.agent, None, u.games,
                                   Interval.of(match_ivs.get(mk, (-1.0, 1.0))), u.stopped))
    impact_ivs = {k: diff(u.cs.interval(), span if scored else 1.0) for k, u in impacts.items() if u.games}
    for ik, u in sorted(impacts.items()):
        rows.append(SequentialUnit("impact", u.players, u.agent, u.card, u.games,
                                   Interval.of(impact_ivs.get(ik, (-1.0, 1.0)), digits), u.stopped))
    seq = Sequential(rounds, schedule.first, schedule.max_games, schedule.precision,
                     tuple(r for r in rows if r is not None), played)
    return Auto(sweep, AnytimeIntervals(figures, gap_ivs, match_ivs), seq, impact_ivs)


def _shifted(progress: Callable[[int, int], None] | None, before: int, planned: int
             ) -> Callable[[int], None] | None:
    """Progress within a round, as games of the whole run so far (the total grows round by round)."""
    if progress is None:
        return None
    report = progress
    return lambda games: report(before + games, before + planned)


def _pairs(names: Sequence[str]) -> Iterable[tuple[str, str]]:
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            yield a, b


def _chunks(proto: Batch, seed: int, start: int, stop: int, certify_every: int) -> list[Batch]:
    """The batches that bring a unit from ``start`` to ``stop`` seeds: chunks of :data:`CHUNK` seeds at
    fixed places (chunk ``k`` holds seeds ``seed + k * CHUNK`` on), every ``certify_every``-th certified."""
    from dataclasses import replace

    out = []
    k = start // CHUNK
    while k * CHUNK < stop:
        lo, hi = max(start, k * CHUNK), min(stop, (k + 1) * CHUNK)
        if lo < hi:
            out.append(replace(proto, seeds=(seed + lo, seed + hi),
                               certify=bool(certify_every) and k % certify_every == 0))
        k += 1
    return out


def _collect(batches: Sequence[Batch], jobs: int, backend: Backend, scheduler: str | None, sweep: Sweep,
             progress: Callable[[int], None] | None) -> dict[tuple[int, str, int], BatchResult]:
    """Run one round's batches; their results by (players, agent or "a|b", first seed), merged into
    ``sweep`` in that order (not the order the workers finished them)."""
    out: dict[tuple[int, str, int], BatchResult] = {}
    games = 0
    for res in _results(batches, jobs, backend, scheduler):
        if res.matchup is not None:
            key = (res.matchup.players, f"{res.matchup.a}|{res.matchup.b}", res.seeds[0])
        else:
            assert res.tally is not None
            key = (res.tally.players, res.tally.agent, res.seeds[0])
        out[key] = res
        n = res.seeds[1] - res.seeds[0]
        games += n * (1 + len(res.paired) + (res.matchup is not None))
        if progress:
            progress(games)
    for key in sorted(out):
        sweep.merge(out[key])
    return out


def _judge(setups: dict[tuple[int, str], _Unit], gaps: dict[tuple[int, str], _Unit],
           matchups: dict[tuple[int, str, str], _Unit], impacts: dict[tuple[str, int, str], _Unit],
           band: tuple[float, float], prec_fig: float | None, prec_diff: float | None, ceilings: frozenset[str],
           competitive: bool, at_max: bool) -> None:
    """After a round: stop every unit whose figure has settled (or all of them at the maximum)."""
    def stop(u: _Unit, why: str) -> None:
        if not u.stopped:
            u.stopped = why

    for group in (gaps.values(), matchups.values(), impacts.values()):
        for u in group:
            if u.stopped:
                continue
            if not u.games:
                if at_max:
                    stop(u, "maximum reached")
                continue
            s = settle(u.cs.interval(), (0.5,), prec_diff)
            if s.settled:
                stop(u, "clear of 0" if s.why == "clear of the band" else s.why)
            elif at_max:
                stop(u, "maximum reached")
    lows: dict[int, float] = {}
    for (p, a), u in setups.items():
        if u.games and not competitive and not is_ceiling(a, ceilings):
            lows[p] = max(lows.get(p, 0.0), u.cs.interval()[0])
    for (p, a), u in setups.items():
        if u.stopped:
            continue
        lo, hi = u.cs.interval()
        if competitive or is_ceiling(a, ceilings):  # its own figure decides nothing
            s = settle((lo, hi), (), prec_fig) if prec_fig is not None else settle((0.0, 0.0), (), 1.0)
            why = "not judged" if prec_fig is None else s.why
        elif hi < lows.get(p, 0.0):  # clearly below another agent: its figure is not the one judged
            s, why = settle((0.0, 0.0), (), 1.0), "below the strongest"
        else:
            s = settle((lo, hi), band, prec_fig)
            why = s.why
        others = [g for (gp, ga), g in gaps.items() if gp == p and (ga == a or a == "random")]
        others += [i for (_, ip, ia), i in impacts.items() if ip == p and ia == a]
        if any(not o.stopped for o in others):
            continue
        if s.settled:
            stop(u, why)
        elif at_max:
            stop(u, "maximum reached")
    for u in matchups.values():
        if not u.stopped and at_max:
            stop(u, "maximum reached")
