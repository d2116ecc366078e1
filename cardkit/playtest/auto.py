"""``--games auto``: play in rounds of seeds until every figure the verdict reads has settled.

A sequential sweep watches *units*, each one figure with its own anytime-valid confidence
sequence (:mod:`cardkit.playtest.sequential`), fed with one value per seed in seed order:

* a **setup** (player count and agent): the outcome value of each game, a win as 1 or a scored
  game's first-seat score placed in ``[0, 1]`` by the declared ``score_range``;
* a **skill gap** (an agent against ``random`` at one player count, the same seeds): the paired
  difference of the two outcome values, placed in ``[0, 1]``;
* a **matchup** (two agents of a competitive game, both seatings): a's wins minus b's per seed;
* an **impact pair** (a card switched off, one setup): the paired difference of the outcome value,
  read by a group-sequential design instead (:class:`cardkit.playtest.sequential.RepeatedIntervals`:
  the fixed-count run's own interval, Newcombe's or the normal one, with a wider critical value at
  each look), since a pair must tell small changes apart and the sequences are too wide for that.

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
from cardkit.playtest.impact import mean_ci, paired_ci
from cardkit.playtest.sequential import ConfidenceSequence, RepeatedIntervals, settle
from cardkit.playtest.sweep import Backend, Batch, BatchResult, Sweep, Variant, _results, usable_cores
from cardkit.rules.protocol import Cooperation, EngineInfo, Outcome

__all__ = ["CHUNK", "DEFAULT_MAX", "FIRST_ROUND", "IMPACT_MAX", "IMPACT_STEP", "Auto", "Schedule", "run_auto"]

FIRST_ROUND = 50  # seeds per unit in the first round; each round doubles the seeds played
CHUNK = 25  # seeds per batch: the unit of work and of invariant certification, whatever the round
DEFAULT_MAX = 1600  # seeds per unit at most, unless --max-games says otherwise
IMPACT_STEP = 50  # with --impact, every round adds this many seeds: an impact pair's looks
IMPACT_MAX = 300  # seeds per impact pair at most (its last look), unless --max-games says otherwise


@dataclass(frozen=True)
class Schedule:
    """What a sequential sweep plays: the seeds per unit after each round, up to the maximum."""

    max_games: int = DEFAULT_MAX
    precision: float | None = None  # points of the figure: percentage points of a rate, score units
    first: int = FIRST_ROUND
    #: seeds added per round after the first; ``None``: each round doubles the seeds
    step: int | None = None
    #: seeds per impact pair at most (at most ``max_games``)
    impact_max: int | None = None

    def target(self, r: int) -> int:
        """Seeds per unit once round ``r`` (0-based) is played.

        >>> [Schedule(400).target(r) for r in range(5)], [Schedule(400, step=50).target(r) for r in range(4)]
        ([50, 100, 200, 400, 400], [50, 100, 150, 200])
        """
        if self.step is not None:
            return min(self.max_games, self.first + self.step * r)
        return min(self.max_games, self.first * 2 ** r)

    @property
    def impact_cap(self) -> int:
        """Seeds per impact pair at most."""
        return min(self.max_games, self.impact_max) if self.impact_max is not None else self.max_games

    @property
    def impact_looks(self) -> tuple[int, ...]:
        """The seeds at which an impact pair is looked at: after every round, up to its maximum.

        >>> Schedule.for_impact(None, None).impact_looks
        (50, 100, 150, 200, 250, 300)
        >>> Schedule(120, step=50).impact_looks
        (50, 100, 120)
        """
        looks: list[int] = []
        r = 0
        while not looks or looks[-1] < self.impact_cap:
            looks.append(min(self.target(r), self.impact_cap))
            r += 1
        return tuple(looks)

    @property
    def impact_design(self) -> RepeatedIntervals:
        """The group-sequential design of every impact pair (its intervals' critical values)."""
        return RepeatedIntervals(self.impact_looks)

    @classmethod
    def for_impact(cls, max_games: int | None, precision: float | None) -> Schedule:
        """The schedule of a run with ``--impact``: rounds of :data:`IMPACT_STEP` seeds, impact pairs
        looked at after each and at most :data:`IMPACT_MAX` seeds (``max_games`` when given caps
        everything)."""
        return cls(max_games or DEFAULT_MAX, precision, step=IMPACT_STEP, impact_max=max_games or IMPACT_MAX)


@dataclass(frozen=True)
class Auto:
    """A sequential sweep's outcome: the merged sweep, the intervals the report shows (figures, gaps
    and matchups; ``impact``: (card, players, agent) -> the change's interval) and how it played."""

    sweep: Sweep
    anytime: AnytimeIntervals
    sequential: Sequential
    impact: Mapping[tuple[str, int, str], tuple[float, float]]
    #: (card, players, agent) -> why the impact pair stopped ("clear of 0", "precision reached",
    #: "maximum reached"): what an interval holding 0 means
    impact_stops: Mapping[tuple[str, int, str], str] = field(default_factory=dict)


@dataclass
class _Unit:
    what: str  # "setup", "skill gap", "matchup", "impact"
    players: int
    agent: str
    card: str | None = None
    cs: ConfidenceSequence = field(default_factory=ConfidenceSequence)
    stopped: str = ""
    #: an impact pair's outcome values per seed, (base, card switched off), placed in [0, 1]
    pairs: list[tuple[float, float]] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.pairs) if self.what == "impact" else self.cs.n

    def change(self, design: RepeatedIntervals, scored: bool, span: float = 1.0) -> tuple[float, float]:
        """An impact pair's interval of the change (switched off minus base, in the figure's own units:
        a win rate, or score units of a ``span`` wide range) at its current look: the fixed-count
        run's interval (:func:`~cardkit.playtest.impact.paired_ci`, or the normal one of a scored game)
        with the design's critical value."""
        n = len(self.pairs)
        z = design.z(n)
        if scored:
            diffs = [(v - b) * span for b, v in self.pairs]
            total = sum(diffs)
            _, lo, hi = mean_ci(total, sum(d * d for d in diffs), n, z)
            return (lo, hi)
        wins_base = sum(1 for b, _ in self.pairs if b >= 1.0)
        wins_off = sum(1 for _, v in self.pairs if v >= 1.0)
        only_base = sum(1 for b, v in self.pairs if b >= 1.0 > v)
        only_off = sum(1 for b, v in self.pairs if v >= 1.0 > b)
        return paired_ci(n, wins_base, wins_off, only_base, only_off, z)


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
    prec_change = schedule.precision * unit if schedule.precision is not None else None  # an impact pair's
    design = schedule.impact_design

    def place(v: float) -> float:  # an outcome value in [0, 1]
        return min(1.0, max(0.0, (v - low) / span))

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
            raw = res.trace.get("", ())
            base = [place(v) for v in raw]
            setups[(p, a)].cs.extend(base)
            values[(p, a)].extend(base)
            for label, diffs in res.trace.items():
                if label and (label, p, a) in impacts:
                    impacts[(label, p, a)].pairs.extend((place(v), place(v + d)) for v, d in zip(raw, diffs))
        for (p, a), g in gaps.items():
            mine, theirs = values[(p, a)], values[(p, "random")]
            g.cs.extend((x - y + 1.0) / 2.0 for x, y in zip(mine[g.games:], theirs[g.games:]))
        rounds += 1
        at_max = target >= schedule.max_games
        _judge(setups, gaps, matchups, impacts, (place(band[0]), place(band[1])), prec_fig, prec_diff, ceilings,
               competitive, at_max, schedule.impact_cap, lambda u: u.change(design, scored, span), prec_change)

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
    impact_ivs = {k: u.change(design, scored, span) for k, u in impacts.items() if u.games}
    for ik, u in sorted(impacts.items()):
        rows.append(SequentialUnit("impact", u.players, u.agent, u.card, u.games,
                                   Interval.of(impact_ivs.get(ik, (-1.0, 1.0)), digits), u.stopped))
    seq = Sequential(rounds, schedule.first, schedule.max_games, schedule.precision,
                     tuple(r for r in rows if r is not None), played, schedule.step,
                     schedule.impact_cap if impacts else None,
                     (round(design.z(1), 3), round(design.z(schedule.impact_cap), 3)) if impacts else None)
    return Auto(sweep, AnytimeIntervals(figures, gap_ivs, match_ivs), seq, impact_ivs,
                {k: u.stopped for k, u in impacts.items() if u.games})


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
           competitive: bool, at_max: bool, impact_cap: int | None = None,
           change: Callable[[_Unit], tuple[float, float]] | None = None, prec_change: float | None = None) -> None:
    """After a round: stop every unit whose figure has settled (or all of them at the maximum).  An
    impact pair is judged by ``change`` (its interval of the change, clear of 0 or as narrow as
    ``prec_change``) and also stops at ``impact_cap`` seeds."""
    def stop(u: _Unit, why: str) -> None:
        if not u.stopped:
            u.stopped = why

    for group in (gaps.values(), matchups.values(), impacts.values()):
        for u in group:
            if u.stopped:
                continue
            cap = impact_cap if u.what == "impact" and impact_cap is not None else None
            done = at_max or (cap is not None and u.games >= cap)
            if not u.games:
                if done:
                    stop(u, "maximum reached")
                continue
            if u.what == "impact" and change is not None:
                s = settle(change(u), (0.0,), prec_change)
            else:
                s = settle(u.cs.interval(), (0.5,), prec_diff)
            if s.settled:
                stop(u, "clear of 0" if s.why == "clear of the band" else s.why)
            elif done:
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
