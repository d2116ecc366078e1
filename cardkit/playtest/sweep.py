"""Simulation sweeps: many seeded games per player count and agent, in constant memory.

Games are split into fixed batches (by player count, agent and seed range), sized
by the expected cost of the agent's games (:func:`batch_games`).
A batch plays its games in a worker process and returns a :class:`BatchResult`:
a mergeable :class:`Tally` per setup (counts and exact histograms, never one
record per game) and, when the batch also plays *variants* of the card set on
the same seeds (``--compare``, card impact), one :class:`Paired` tally per
variant.  The parent merges results as they arrive; merging is associative and
commutative (failures are kept ordered by seed), so the report is identical
whatever the number of workers or the backend, and the parent's memory does not
grow with the number of games.

Nothing here knows a game: the batch asks the set's plugin for its engine
(:mod:`cardkit.rules.protocol`), plays seeded states with a named agent and
folds each game's :class:`~cardkit.rules.protocol.GameReport` (the outcome per
seat, the game's declared metrics, the abilities that fired, the invariant
violations, the groups in play) into the tally.
"""

from __future__ import annotations

import math
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from multiprocessing.context import BaseContext
from pathlib import Path
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Literal, TypeVar, get_args, overload

from cardkit.rules.core import Decision, EndReason, Option
from cardkit.rules.protocol import (CHANCE, Agent, Aggregate, AgentFactory, Cooperation, End, Engine, EngineInfo, Game,
                                    GameReport, GameResult, MetricKind, Outcome, Result, State)
from cardkit.workers import inherits, pool_context, portable_plugins, start_worker
if TYPE_CHECKING:
    from concurrent.futures import Future

    from cardkit.plugins import GamePlugin
    from cardkit.model import CardSet
from cardkit.playtest.records import (AnytimeIntervals, Coverage, Estimate, Failure, Figure, Finish, Interval, Rounds, Score, ScoreTarget,
                                      SeatRow, Setup, Spread, Summary)

#: a batch holds about the work of this many games of random play; its games are cut from blocks of
#: this many seeds (a search game costs hundreds of random ones: :func:`batch_games`)
BATCH = 250
MAX_FAILURES = 20  # failed games kept per setup (the ones with the smallest seeds), for their reproduce command


# Finish (from records): how one game ended for the playtest: the first seat's :class:`Result` in a
# complete game, else the :class:`End` that cut it short (the ``result`` of a failure in the JSON report)
#: where the batches run: worker processes on this machine, or a Dask cluster
Backend = Literal["local", "dask"]
BACKENDS: tuple[Backend, ...] = get_args(Backend)


@dataclass(frozen=True)
class Played:
    """One finished game, as the batch sees it; folded into a :class:`Tally` and dropped."""

    seed: int
    report: GameReport

    @property
    def won(self) -> bool:
        """The first seat won (in a co-operative game: the players, together)."""
        r = self.report.result
        return r.end is End.COMPLETE and bool(r.seats) and r.seats[0].result is Result.WIN

    @property
    def result(self) -> Finish:
        """``win``/``loss``/``draw`` (the first seat's) for a complete game, else ``abandoned``/``error``."""
        r = self.report.result
        if r.end is End.COMPLETE:
            return (r.seats[0].result if r.seats else Result.DRAW).value
        return "abandoned" if r.end is End.ABANDONED else "error"

    def value(self, scored: bool) -> float:
        """The game's outcome value: the first seat's score in a scored game, else 1 for a win and 0
        otherwise (an incomplete game: 0 either way)."""
        r = self.report.result
        if r.end is not End.COMPLETE or not r.seats:
            return 0.0
        return float(r.seats[0].score) if scored else float(r.seats[0].result is Result.WIN)

    def metric(self, name: str, kind: MetricKind) -> int | float:
        """A declared metric's value in this game (0 when the game did not report it); counts and flags are integers."""
        v = self.report.metrics.get(name, 0)
        return float(v) if kind is MetricKind.SCORE else int(v)


@dataclass(frozen=True)
class Variant:
    """Another card set played on the batch's seeds: another project folder
    (``--compare``) and/or the set with one card's abilities switched off."""

    label: str
    root: str
    ablate: str | None = None


@dataclass(frozen=True)
class Batch:
    root: str
    set_id: str
    players: int
    agent: str
    seeds: tuple[int, int]  # [start, stop)
    certify: bool = False
    variants: tuple[Variant, ...] = ()
    count_base: bool = True  # False: the base games are only the other half of the variants' pairs
    #: two agents of a competitive game playing each other: every seed is played with the first agent in
    #: seat 1 and the second in seat 2, then swapped (common random numbers: the same deal and chance)
    matchup: tuple[str, str] | None = None
    #: also return every game's outcome value in seed order (:attr:`BatchResult.trace`): what a sequential
    #: (``--games auto``) sweep feeds its confidence sequences; off for fixed sweeps (constant memory)
    trace: bool = False


def batch_games(agent: str, variants: int = 0, cost: float | None = None) -> int:
    """Games in a batch of ``agent`` (each game also played on ``variants`` variants of the set): about
    :data:`BATCH` games of random play's work by the agent's expected ``cost`` in games of random play
    (given by the plan: :func:`cardkit.playtest.agents.agent_cost`, which reads an engine's declared
    costs of its own agents; without it the generic rule, :func:`cardkit.rules.agents.expected_cost`),
    at least one game, at most :data:`BATCH`.  A random game's batch holds 250 games, an ``mcts``
    game's one: a sweep of search games is cut into batches small enough to spread over every worker
    of a cluster, and a batch of random games is not cut into slivers.  The size changes which
    batch plays a game, never the game (its seed) nor the merged result.

    >>> batch_games("random"), batch_games("mcts:4"), batch_games("mcts"), batch_games("flat-mc:1")
    (250, 2, 1, 2)
    >>> batch_games("search"), batch_games("search", cost=200.0)  # an engine's own search, as declared
    (250, 1)
    """
    if cost is None:
        from cardkit.rules.agents import expected_cost

        cost = expected_cost(agent)
    return max(1, min(BATCH, int(BATCH // (max(1.0, cost) * (1 + variants)))))


def seed_ranges(games: int, size: int) -> Iterator[tuple[int, int, int]]:
    """``(block, start, stop)`` of every batch of a setup's ``games``: blocks of :data:`BATCH` seeds
    (certification counts blocks, so it checks the same games whatever the batch size), each cut into
    batches of ``size`` games.

    >>> list(seed_ranges(5, 2)), list(seed_ranges(600, 250))
    ([(0, 0, 2), (0, 2, 4), (0, 4, 5)], [(0, 0, 250), (1, 250, 500), (2, 500, 600)])
    """
    for block, first in enumerate(range(0, games, BATCH)):
        end = min(games, first + BATCH)
        for start in range(first, end, size):
            yield block, start, min(end, start + size)


@dataclass(frozen=True)
class Plan(Sequence[Batch]):
    """The batches of a sweep in a fixed order, made on demand: a plan of millions of games
    takes no memory.  Game ``k`` of a setup uses seed ``seed + k``."""

    root: str
    set_id: str
    players: tuple[int, ...]
    agents: tuple[str, ...]
    games: int
    seed: int
    certify_every: int = 0
    variants: tuple[Variant, ...] = ()
    #: (agent, the expected cost of its game in games of random play) for agents whose cost is known
    #: beyond the generic rule (an engine's own agents: :func:`cardkit.playtest.agents.agent_costs`)
    costs: tuple[tuple[str, float], ...] = ()

    def _per_setup(self) -> tuple[tuple[int, int], ...]:
        """(games per batch, batches per setup) of every agent (:func:`batch_games`)."""
        out = []
        full, rest = divmod(self.games, BATCH)
        costs = dict(self.costs)
        for a in self.agents:
            size = batch_games(a, len(self.variants), costs.get(a))
            out.append((size, full * -(-BATCH // size) + -(-rest // size)))
        return tuple(out)

    def __len__(self) -> int:
        return len(self.players) * sum(n for _, n in self._per_setup())

    @overload
    def __getitem__(self, i: int) -> Batch: ...

    @overload
    def __getitem__(self, i: slice) -> list[Batch]: ...

    def __getitem__(self, i: int | slice) -> Batch | list[Batch]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        per_setup = self._per_setup()
        p, k = divmod(i, sum(n for _, n in per_setup))
        a = 0
        while k >= per_setup[a][1]:
            k -= per_setup[a][1]
            a += 1
        size = per_setup[a][0]
        block, j = divmod(k, -(-BATCH // size))  # the k-th batch: the j-th of its block of BATCH seeds
        start = block * BATCH + j * size
        stop = min(self.games, (block + 1) * BATCH, start + size)
        certify = bool(self.certify_every) and block % self.certify_every == 0
        return Batch(self.root, self.set_id, self.players[p], self.agents[a], (self.seed + start, self.seed + stop),
                     certify, self.variants)


def plan(root: Path, set_id: str, players: Iterable[int], agents: Iterable[str], games: int, seed: int,
         certify_every: int = 0, variants: tuple[Variant, ...] = (), costs: Mapping[str, float] | None = None) -> Plan:
    """Batches in a fixed order (by player count, agent and seed range); see :class:`Plan`.  ``costs``:
    each agent's expected cost of a game (:func:`cardkit.playtest.agents.agent_costs`; an agent left
    out is costed by the generic rule)."""
    return Plan(str(root), set_id, tuple(players), tuple(agents), games, seed, certify_every, variants,
                tuple(sorted((costs or {}).items())))


# ------------------------------------------------------------------ mergeable tallies
_K = TypeVar("_K")
_N = TypeVar("_N", int, float, "int | float")


def _add(into: dict[_K, _N], other: dict[_K, _N]) -> None:
    for k, v in other.items():
        into[k] = into.get(k, 0) + v


@dataclass
class Tally:
    """Everything the report needs about the games of one setup (player count and
    agent), as counts and exact histograms.  Mutable on purpose: a batch adds its
    games one by one and the parent merges batch tallies into one per setup.
    ``info`` is the engine's declaration (its metrics, seats and score targets)."""

    players: int
    agent: str
    info: EngineInfo | None = None
    games: int = 0
    wins: int = 0  # complete games the first seat won (co-operative: the players won)
    losses: int = 0
    draws: int = 0
    violations: int = 0  # games with at least one invariant violation
    rounds_win: dict[int, int] = field(default_factory=dict)  # rounds -> games
    rounds_loss: dict[int, int] = field(default_factory=dict)  # (losses and draws)
    running: dict[int, int] = field(default_factory=dict)  # rounds a game not won was still running after -> games
    max_running: int = 0  # the most rounds any game was still running after
    defeat: dict[str, int] = field(default_factory=dict)
    fired: dict[str, int] = field(default_factory=dict)  # card -> games in which its ability took effect
    teams: dict[str, list[int]] = field(default_factory=dict)  # group in play -> [games, wins]
    pairs: dict[str, list[int]] = field(default_factory=dict)  # "a+b" -> [games, wins]
    failures: list[tuple[int, Finish, str, tuple[str, ...]]] = field(default_factory=list)  # by seed
    sums: dict[str, int | float] = field(default_factory=dict)  # metric -> total over games
    nonzero: dict[str, int] = field(default_factory=dict)  # metric -> games where it is not 0
    hists: dict[str, dict[int, int]] = field(default_factory=dict)  # metric -> value -> games (HISTOGRAM metrics)
    seat_wins: list[int] = field(default_factory=list)  # per seat, complete games won
    seat_draws: list[int] = field(default_factory=list)
    seat_both: list[int] = field(default_factory=list)  # per seat, complete games it and seat 1 both won
    score_sum: float = 0.0  # the first seat's score over complete games
    reached: dict[float, int] = field(default_factory=dict)  # score target -> complete games reaching it
    scores: dict[float, int] = field(default_factory=dict)  # the first seat's score -> complete games
    score_rounds: dict[int, dict[float, int]] = field(default_factory=dict)  # rounds -> score -> complete games
    running_lost: dict[int, int] = field(default_factory=dict)  # rounds a lost game was still running after -> games

    def add(self, r: Played) -> None:
        self.games += 1
        res = r.report.result
        won = r.won
        if won:
            self.wins += 1
            self.rounds_win[res.rounds] = self.rounds_win.get(res.rounds, 0) + 1
        elif res.end is End.COMPLETE:
            if r.result == "draw":
                self.draws += 1
            else:
                self.losses += 1
                self.defeat[res.reason] = self.defeat.get(res.reason, 0) + 1
            self.rounds_loss[res.rounds] = self.rounds_loss.get(res.rounds, 0) + 1
        after = max(0, res.rounds - 1)  # a game that ended in round r was still running after r - 1 rounds
        if not won:
            self.running[after] = self.running.get(after, 0) + 1
        self.max_running = max(self.max_running, after)
        if res.end is End.COMPLETE:
            if len(self.seat_wins) < len(res.seats):
                grow = len(res.seats) - len(self.seat_wins)
                self.seat_wins.extend([0] * grow)
                self.seat_draws.extend([0] * grow)
                self.seat_both.extend([0] * grow)
            first = bool(res.seats) and res.seats[0].result is Result.WIN
            for i, seat in enumerate(res.seats):
                self.seat_wins[i] += seat.result is Result.WIN
                self.seat_draws[i] += seat.result is Result.DRAW
                self.seat_both[i] += first and seat.result is Result.WIN
            score = res.seats[0].score if res.seats else 0.0
            self.score_sum += score
            self.scores[score] = self.scores.get(score, 0) + 1
            at = self.score_rounds.setdefault(res.rounds, {})
            at[score] = at.get(score, 0) + 1
            if r.result == "loss":
                self.running_lost[after] = self.running_lost.get(after, 0) + 1
            for target in self.info.score_targets if self.info else ():
                self.reached[target] = self.reached.get(target, 0) + (score >= target)
        self.violations += bool(r.report.violations)
        for m in self.info.metrics if self.info else ():
            v = r.metric(m.name, m.kind)
            self.sums[m.name] = self.sums.get(m.name, 0) + v
            self.nonzero[m.name] = self.nonzero.get(m.name, 0) + (v != 0)
            if m.aggregate is Aggregate.HISTOGRAM:
                h = self.hists.setdefault(m.name, {})
                h[int(v)] = h.get(int(v), 0) + 1
        for c in r.report.fired:
            self.fired[c] = self.fired.get(c, 0) + 1
        groups = r.report.groups
        for t in groups:
            self.teams.setdefault(t, [0, 0])
            self.teams[t][0] += 1
            self.teams[t][1] += won
        for i, a in enumerate(groups):
            for b in groups[i + 1:]:
                rec = self.pairs.setdefault(f"{a}+{b}", [0, 0])
                rec[0] += 1
                rec[1] += won
        if (res.end is not End.COMPLETE or r.report.violations) and len(self.failures) < MAX_FAILURES:
            self.failures.append((r.seed, r.result, res.reason, r.report.violations))

    def merge(self, o: Tally) -> None:
        if self.info is None:
            self.info = o.info
        for name in ("games", "wins", "losses", "draws", "violations", "score_sum"):
            setattr(self, name, getattr(self, name) + getattr(o, name))
        for name in ("rounds_win", "rounds_loss", "running", "defeat", "fired", "sums", "nonzero", "reached", "scores",
                     "running_lost"):
            _add(getattr(self, name), getattr(o, name))
        for rounds, at in o.score_rounds.items():
            _add(self.score_rounds.setdefault(rounds, {}), at)
        for k, h in o.hists.items():
            _add(self.hists.setdefault(k, {}), h)
        for mine, theirs in ((self.seat_wins, o.seat_wins), (self.seat_draws, o.seat_draws),
                             (self.seat_both, o.seat_both)):
            mine.extend([0] * (len(theirs) - len(mine)))
            for i, v in enumerate(theirs):
                mine[i] += v
        self.max_running = max(self.max_running, o.max_running)
        for mine_d, theirs_d in ((self.teams, o.teams), (self.pairs, o.pairs)):
            for k, (g, w) in theirs_d.items():
                rec = mine_d.setdefault(k, [0, 0])
                rec[0] += g
                rec[1] += w
        self.failures = sorted(self.failures + o.failures)[:MAX_FAILURES]


@dataclass
class Paired:
    """Games of the base set and of one variant on the same seeds (common random numbers)."""

    label: str
    players: int
    agent: str
    info: EngineInfo | None = None
    games: int = 0
    wins_base: int = 0
    wins_variant: int = 0
    only_base: int = 0  # base won, variant did not
    only_variant: int = 0
    rounds_base: dict[int, int] = field(default_factory=dict)  # completed games
    rounds_variant: dict[int, int] = field(default_factory=dict)
    sums_base: dict[str, int | float] = field(default_factory=dict)  # paired metrics (Metric.paired)
    sums_variant: dict[str, int | float] = field(default_factory=dict)
    diff_sq: dict[str, int | float] = field(default_factory=dict)  # sum of (variant - base)^2 per seed
    fired_variant: int = 0  # variant games in which the ablated card's ability still took effect (must stay 0)
    #: the outcome value (:meth:`Played.value`: a scored game's first-seat score, else a win as 1) summed
    #: over the base games and the variant games, and the sum of squared paired differences
    value_base: float = 0.0
    value_variant: float = 0.0
    value_diff_sq: float = 0.0

    def add(self, base: Played, var: Played) -> None:
        self.games += 1
        bw, vw = base.won, var.won
        self.wins_base += bw
        self.wins_variant += vw
        self.only_base += bw and not vw
        self.only_variant += vw and not bw
        scored = self.info is not None and self.info.outcome is Outcome.SCORED
        vb, vv = base.value(scored), var.value(scored)
        self.value_base += vb
        self.value_variant += vv
        self.value_diff_sq += (vv - vb) ** 2
        for rec, h in ((base, self.rounds_base), (var, self.rounds_variant)):
            if rec.report.result.end is End.COMPLETE:
                rounds = rec.report.result.rounds
                h[rounds] = h.get(rounds, 0) + 1
        for m in self.info.metrics if self.info else ():
            if m.paired:
                b, v = base.metric(m.name, m.kind), var.metric(m.name, m.kind)
                self.sums_base[m.name] = self.sums_base.get(m.name, 0) + b
                self.sums_variant[m.name] = self.sums_variant.get(m.name, 0) + v
                self.diff_sq[m.name] = self.diff_sq.get(m.name, 0) + (v - b) ** 2

    def merge(self, o: Paired) -> None:
        if self.info is None:
            self.info = o.info
        for name in ("games", "wins_base", "wins_variant", "only_base", "only_variant", "fired_variant",
                     "value_base", "value_variant", "value_diff_sq"):
            setattr(self, name, getattr(self, name) + getattr(o, name))
        for name in ("rounds_base", "rounds_variant", "sums_base", "sums_variant", "diff_sq"):
            _add(getattr(self, name), getattr(o, name))


@dataclass
class Matchup:
    """Two agents of a competitive game playing each other on the same seeds, both ways round.

    Per seed, ``a`` plays seat 1 and ``b`` seat 2, then ``b`` seat 1 and ``a`` seat 2 with the
    same deal and the same chance outcomes.  Kept as counts: a mergeable tally."""

    players: int
    a: str
    b: str
    seeds: int = 0  # seeds played (each twice)
    a_first: int = 0  # games ``a`` won in seat 1
    a_second: int = 0  # games ``a`` won in seat 2
    b_first: int = 0
    b_second: int = 0
    incomplete: int = 0  # games that did not complete (abandoned or an engine error)
    #: a's wins over the seed's two games (0, 1 or 2) -> seeds: the pairing the interval reads
    per_seed: dict[int, int] = field(default_factory=dict)
    per_seed_b: dict[int, int] = field(default_factory=dict)  # the same for b
    #: a's points over the seed's completed games (a win 1, a draw 1/2) and how many completed -> seeds:
    #: the clusters of the rating's interval (the two games of a seed share its deal)
    seed_points: dict[tuple[float, int], int] = field(default_factory=dict)

    def add(self, ab: Played, ba: Played) -> None:
        """One seed: ``ab`` with ``a`` in seat 1, ``ba`` with ``b`` in seat 1."""
        self.seeds += 1
        def won(p: Played, seat: int) -> bool:
            r = p.report.result
            return r.end is End.COMPLETE and len(r.seats) > seat and r.seats[seat].result is Result.WIN
        a1, b2, b1, a2 = won(ab, 0), won(ab, 1), won(ba, 0), won(ba, 1)
        self.a_first += a1
        self.b_second += b2
        self.b_first += b1
        self.a_second += a2
        self.incomplete += (ab.report.result.end is not End.COMPLETE) + (ba.report.result.end is not End.COMPLETE)
        for hist, k in ((self.per_seed, int(a1) + int(a2)), (self.per_seed_b, int(b1) + int(b2))):
            hist[k] = hist.get(k, 0) + 1
        done = [(aw, bw) for p, aw, bw in ((ab, a1, b2), (ba, a2, b1)) if p.report.result.end is End.COMPLETE]
        key = (sum(1.0 if aw else 0.0 if bw else 0.5 for aw, bw in done), len(done))
        self.seed_points[key] = self.seed_points.get(key, 0) + 1

    def merge(self, o: Matchup) -> None:
        for name in ("seeds", "a_first", "a_second", "b_first", "b_second", "incomplete"):
            setattr(self, name, getattr(self, name) + getattr(o, name))
        _add(self.per_seed, o.per_seed)
        _add(self.per_seed_b, o.per_seed_b)
        _add(self.seed_points, o.seed_points)


@dataclass
class BatchResult:
    tally: Tally | None  # None for a matchup batch
    paired: dict[str, Paired] = field(default_factory=dict)  # variant label -> paired tally
    matchup: Matchup | None = None
    #: a traced batch (:attr:`Batch.trace`): per game in seed order, "" -> the base game's outcome value,
    #: a variant label -> the variant's value minus the base's, "matchup" -> a's wins minus b's over the
    #: seed's two games
    trace: dict[str, tuple[float, ...]] = field(default_factory=dict)
    seeds: tuple[int, int] = (0, 0)  # the batch's seeds, [start, stop)


@dataclass
class Sweep:
    """Merged results of a sweep: one tally per setup, one paired tally per (variant, setup)."""

    tallies: dict[tuple[int, str], Tally] = field(default_factory=dict)
    paired: dict[tuple[str, int, str], Paired] = field(default_factory=dict)
    matchups: dict[tuple[int, str, str], Matchup] = field(default_factory=dict)  # (players, a, b)

    def merge(self, r: BatchResult) -> None:
        if r.matchup is not None:
            mk = (r.matchup.players, r.matchup.a, r.matchup.b)
            if mk in self.matchups:
                self.matchups[mk].merge(r.matchup)
            else:
                self.matchups[mk] = r.matchup
        if r.tally is None:
            return
        key = (r.tally.players, r.tally.agent)
        if key in self.tallies:
            self.tallies[key].merge(r.tally)
        else:
            self.tallies[key] = r.tally
        for label, p in r.paired.items():
            k = (label, p.players, p.agent)
            if k in self.paired:
                self.paired[k].merge(p)
            else:
                self.paired[k] = p


# ------------------------------------------------------------------ playing
_CACHE: dict[tuple[str, str], CardSet] = {}
_GAMES: dict[tuple[str, str, str | None, int], Game] = {}


def _card_set(root: str, set_id: str) -> CardSet:
    key = (root, set_id)
    if key not in _CACHE:
        from cardkit.errors import CardkitError
        from cardkit.load.project import load_project

        project = load_project(Path(root))
        if project.issues:
            raise CardkitError(project.issues)
        _CACHE[key] = project.card_set(set_id)
    return _CACHE[key]


def engine_of(card_set: CardSet, command: str = "playtest") -> Engine:
    """The rules engine of the set's game, from its plugin (G008 when it has none)."""
    from cardkit.plugins import engine_for

    return engine_for(card_set.game, command)


def _game(root: str, set_id: str, ablated: str | None, players: int) -> Game:
    """The engine's game for a set (or the set with one card's ability switched off), built once per process."""
    key = (root, set_id, ablated, players)
    if key not in _GAMES:
        cs = _card_set(root, set_id)
        _GAMES[key] = engine_of(cs).new_game(cs, players, frozenset({ablated}) if ablated else frozenset())
    return _GAMES[key]


def play_game(game: Game, make_agent: AgentFactory, seed: int, certify: bool, max_steps: int = 200_000) -> Played:
    """Play one seeded game to its end; a crash or an endless game is a finding, never an exception."""
    bad: list[str] = []
    try:
        st = game.new_state(seed)
        choose = make_agent(seed)
        steps = 0
        while (d := st.decision) is not None:
            if certify:
                bad.extend(st.violations())
            st.apply(choose(st, d))
            steps += 1
            if steps > max_steps:
                bad.append("too many decisions")
                break
        report = st.report()
    except Exception as exc:  # a crash is a finding, never a lost batch
        return Played(seed, GameReport(GameResult(End.ERROR, EndReason(f"{type(exc).__name__}: {exc}"), 0),
                                       violations=tuple(sorted(set(bad)))))
    if bad:
        from dataclasses import replace

        report = replace(report, violations=tuple(sorted(set(bad) | set(report.violations))))
    return Played(seed, report)


def seated(seats: Sequence[Agent], seed: int) -> AgentFactory:
    """One agent per seat, as one agent: chance is drawn by its probabilities from a stream of the
    seed alone, so the same seed deals the same chance outcomes whoever sits where."""
    import random

    from cardkit.rules.agents import sample_chance

    def make(_seed: int) -> Agent:
        rng = random.Random(f"chance {seed}")

        def choose(state: State, decision: Decision) -> Option:
            if decision.player == CHANCE:
                return sample_chance(state, rng)
            return seats[decision.player](state, decision)
        return choose
    return make


def run_matchup(batch: Batch) -> BatchResult:
    """Every seed of the batch twice: ``a`` in seat 1 against ``b``, then swapped.  Each agent
    draws from the same stream of its own in both games of a seed (its seed, and which of the
    pair it is), whichever seat it plays."""
    from cardkit.playtest.agents import agents_for

    assert batch.matchup is not None
    a, b = batch.matchup
    cs = _card_set(batch.root, batch.set_id)
    factories = agents_for(engine_of(cs), cs, [a, b])
    game = _game(batch.root, batch.set_id, None, batch.players)
    m = Matchup(batch.players, a, b)
    trace = []
    for s in range(*batch.seeds):
        ab = play_game(game, seated([factories[a](2 * s), factories[b](2 * s + 1)], s), s, batch.certify)
        ba = play_game(game, seated([factories[b](2 * s + 1), factories[a](2 * s)], s), s, batch.certify)
        before = (m.a_first + m.a_second) - (m.b_first + m.b_second)
        m.add(ab, ba)
        trace.append(float((m.a_first + m.a_second) - (m.b_first + m.b_second) - before))
    return BatchResult(None, matchup=m, trace={"matchup": tuple(trace)} if batch.trace else {}, seeds=batch.seeds)


def plan_matchups(root: Path, set_id: str, players: Iterable[int], agents: Sequence[str], games: int, seed: int,
                  certify_every: int = 0, costs: Mapping[str, float] | None = None) -> list[Batch]:
    """The matchup batches of a sweep: every unordered pair of distinct agents (each playing both
    seatings, so every ordered pair) at two players, games ``seed`` to ``seed + games``.  Other player
    counts have no matchups: who would sit in the third seat is a choice the table would hide."""
    out = []
    names = list(dict.fromkeys(agents))
    for p in players:
        if p != 2:
            continue
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                size = min(batch_games(a, cost=(costs or {}).get(a)), batch_games(b, cost=(costs or {}).get(b)))
                for k, start, stop in seed_ranges(games, size):
                    certify = bool(certify_every) and k % certify_every == 0
                    out.append(Batch(str(root), set_id, p, f"{a}|{b}", (seed + start, seed + stop), certify,
                                     matchup=(a, b)))
    return out


def run_batch(batch: Batch) -> BatchResult:
    from cardkit.playtest.agents import agents_for

    if batch.matchup is not None:
        return run_matchup(batch)
    cs = _card_set(batch.root, batch.set_id)
    engine = engine_of(cs)
    info = engine.info(cs)
    make_agent = agents_for(engine, cs, [batch.agent])[batch.agent]
    base = _game(batch.root, batch.set_id, None, batch.players)
    out = BatchResult(Tally(batch.players, batch.agent, info), seeds=batch.seeds)
    records = [play_game(base, make_agent, s, batch.certify) for s in range(*batch.seeds)]
    if batch.count_base:
        assert out.tally is not None
        for r in records:
            out.tally.add(r)
    scored = info.outcome is Outcome.SCORED
    if batch.trace:
        out.trace[""] = tuple(r.value(scored) for r in records)
    for v in batch.variants:
        game = _game(v.root, batch.set_id, v.ablate, batch.players)
        p = out.paired[v.label] = Paired(v.label, batch.players, batch.agent, info)
        diffs = []
        for r in records:
            var = play_game(game, make_agent, r.seed, False)
            p.add(r, var)
            p.fired_variant += v.ablate is not None and v.ablate in var.report.fired
            diffs.append(var.value(scored) - r.value(scored))
        if batch.trace:
            out.trace[v.label] = tuple(diffs)
    return out


def usable_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))  # honours CPU limits set on the process
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _pooled(batches: Sequence[Batch], jobs: int, context: BaseContext,
            plugins: tuple[GamePlugin, ...]) -> Iterator[BatchResult]:
    """The result of every batch, as worker processes finish them.

    A bounded window of batches is in flight (neither futures nor results pile
    up in the parent), and Ctrl-C is caught by a handler that only sets a flag:
    a KeyboardInterrupt raised inside :mod:`concurrent.futures` while it holds
    its locks can hang the executor.  On an interrupt the queued batches are
    dropped, the workers are stopped, and KeyboardInterrupt reaches the caller."""
    import signal
    import threading
    from concurrent.futures import FIRST_COMPLETED, wait

    interrupted = False

    def on_interrupt(signum: int, frame: object) -> None:
        nonlocal interrupted
        interrupted = True

    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, on_interrupt) if main else None
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=start_worker, initargs=(plugins,))
    todo = iter(batches)
    running: set[Future[BatchResult]] = set()
    try:
        while True:
            while len(running) < 4 * jobs and not interrupted:
                nxt = next(todo, None)
                if nxt is None:
                    break
                running.add(pool.submit(run_batch, nxt))
            if interrupted:
                raise KeyboardInterrupt
            if not running:
                break
            finished, running = wait(running, timeout=0.2, return_when=FIRST_COMPLETED)
            for fut in finished:
                yield fut.result()
    finally:
        if interrupted:  # stop the workers now rather than after their batch (the standard
            # library has no public call for it; _processes has been there since 3.2)
            for proc in list((getattr(pool, "_processes", None) or {}).values()):
                proc.terminate()
        pool.shutdown(wait=not interrupted, cancel_futures=True)
        if main:
            signal.signal(signal.SIGINT, previous)


def _results(batches: Sequence[Batch], jobs: int, backend: Backend, scheduler: str | None) -> Iterator[BatchResult]:
    if backend == "dask":
        from cardkit.playtest.dask_backend import run_on_dask

        for _, res in run_on_dask(batches, scheduler):
            yield res
    elif jobs <= 1:
        for b in batches:
            yield run_batch(b)
    else:
        # workers are forked when that is safe here (cardkit.workers); else they start fresh and
        # are given the plugins registered in this process, or, if those cannot be sent, the
        # batches run here: the results are the same either way
        context = pool_context()
        plugins = () if inherits(context) else portable_plugins()
        if plugins is None:
            for b in batches:
                yield run_batch(b)
            return
        if inherits(context):
            for root, set_id in sorted({(b.root, b.set_id) for b in batches}
                                       | {(v.root, b.set_id) for b in batches for v in b.variants}):
                _card_set(root, set_id)  # loaded and checked once here: forked workers inherit it
        yield from _pooled(batches, jobs, context, plugins)


def run_sweep(batches: Sequence[Batch], jobs: int = 1, backend: Backend = "local", scheduler: str | None = None,
              progress: Callable[[int, int], None] | None = None) -> Sweep:
    """Run every batch and merge the results as they arrive; the same :class:`Sweep`
    whatever ``jobs`` (0: one worker per usable core) or backend."""
    jobs = jobs or usable_cores()
    sweep = Sweep()
    for done, res in enumerate(_results(batches, jobs, backend, scheduler), 1):
        sweep.merge(res)
        if progress:
            progress(done, len(batches))
    return sweep


# ------------------------------------------------------------------ stats
def wilson(successes: float, n: float, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval for a proportion (95 % by default).

    >>> [round(x, 4) for x in wilson(44, 100)]
    [0.3467, 0.5377]
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: list[int], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    s = sorted(values)
    k = max(0, min(len(s) - 1, math.ceil(q / 100 * len(s)) - 1))
    return float(s[k])


def _kth(hist: dict[int, int], k: int) -> int:
    """The ``k``-th smallest value (0-based) of the values a histogram counts."""
    seen = 0
    for v in sorted(hist):
        seen += hist[v]
        if k < seen:
            return v
    raise IndexError(k)


def hist_median(hist: dict[int, int]) -> float:
    """The median of a histogram's values, typed as :func:`statistics.median` types it
    (the middle value itself for an odd count, the mean of the two middle ones otherwise).

    >>> hist_median({3: 2, 9: 1}), hist_median({3: 1, 8: 1})
    (3, 5.5)
    """
    n = sum(hist.values())
    if n % 2:
        return _kth(hist, n // 2)
    return (_kth(hist, n // 2 - 1) + _kth(hist, n // 2)) / 2


def hist_percentile(hist: dict[int, int], q: float) -> float:
    """:func:`percentile` of the values a non-empty histogram counts."""
    n = sum(hist.values())
    return float(_kth(hist, max(0, min(n - 1, math.ceil(q / 100 * n) - 1))))


def _mean(total: int, n: int) -> float:
    """:func:`statistics.mean` of ``n`` integers summing to ``total``, rounded as the report shows it
    (an exact integer mean stays an integer)."""
    return round(total // n if total % n == 0 else total / n, 3)


def metric_figures(t: Tally) -> dict[str, Figure]:
    """The declared metrics of a setup as the report shows them: ``<name>_mean`` (MEAN),
    ``<name>`` as an exact histogram (HISTOGRAM), ``<name>_games`` with a non-zero value (SHARE)."""
    out: dict[str, Figure] = {}
    n = t.games
    for m in t.info.metrics if t.info else ():
        total = t.sums.get(m.name, 0)
        if m.aggregate is Aggregate.MEAN:
            out[f"{m.name}_mean"] = (_mean(total, n) if isinstance(total, int) else round(total / n, 3)) if n else 0
        elif m.aggregate is Aggregate.HISTOGRAM:
            out[m.name] = dict(sorted(t.hists.get(m.name, {}).items()))
        else:
            out[f"{m.name}_games"] = t.nonzero.get(m.name, 0)
    return out


def metric_shares(t: Tally) -> dict[str, float | None]:
    """``<name>_share`` for each metric declared with ``share_with``: its total over the total of both."""
    out: dict[str, float | None] = {}
    for m in t.info.metrics if t.info else ():
        if m.share_with:
            a, b = t.sums.get(m.name, 0), t.sums.get(m.share_with, 0)
            out[f"{m.name}_share"] = round(a / (a + b), 4) if a + b else None
    return out


def seat_table(t: Tally) -> tuple[SeatRow, ...]:
    """Per seat of a competitive game: complete games won, with a 95 % interval (seat 1 is the first player)."""
    done = t.wins + t.losses + t.draws
    names = t.info.seats if t.info else ()
    return tuple(SeatRow(i + 1, names[i] if i < len(names) else f"seat {i + 1}", done, w, t.seat_draws[i],
                         round(w / done, 4) if done else 0.0, Interval.of(wilson(w, done)))
                 for i, w in enumerate(t.seat_wins))


def score_figures(t: Tally) -> Score:
    """The first seat's mean score and the share of complete games reaching each declared target."""
    done = t.wins + t.losses + t.draws
    targets = []
    for target in t.info.score_targets if t.info else ():
        k = t.reached.get(target, 0)
        targets.append(ScoreTarget(target, k, round(k / done, 4) if done else 0.0, Interval.of(wilson(k, done))))
    return Score(round(t.score_sum / done, 3) if done else 0.0, tuple(targets))


def _spread(hist: dict[int, int]) -> Spread | None:
    if not hist:
        return None
    return Spread(hist_median(hist), hist_percentile(hist, 5), hist_percentile(hist, 95))


def setup_of(t: Tally) -> Setup:
    """One setup's record, not yet judged (its verdict comes from the ladder of its player count)."""
    from cardkit.playtest import tables

    n = t.games
    completed = t.wins + t.losses + t.draws
    done = dict(t.rounds_win)
    _add(done, t.rounds_loss)
    scored = t.info is not None and t.info.outcome is Outcome.SCORED
    if not scored:
        # games not lost after each round: the wins, and the games still running after it
        survival = tuple(round((t.wins + sum(g for ln, g in t.running.items() if ln > k)) / n, 4)
                         for k in range(t.max_running))
    else:
        # a scored game ends without a winner: only a game that ended in a loss was lost (none: no curve)
        lost = sum(t.running_lost.values())
        longest = max(t.running_lost, default=-1) + 1
        survival = tuple(round((n - lost + sum(g for ln, g in t.running_lost.items() if ln > k)) / n, 4)
                         for k in range(longest)) if lost else ()
    competitive = t.info is not None and t.info.cooperation is Cooperation.COMPETITIVE
    return Setup(
        players=t.players, agent=t.agent, games=n, completed=completed,
        completion_ci95=Interval.of(wilson(completed, n)), wins=t.wins,
        win_rate=round(t.wins / n if n else 0.0, 4), win_rate_ci95=Interval.of(wilson(t.wins, n)),
        rounds=Rounds(_spread(t.rounds_win), _spread(t.rounds_loss), _spread(done)),
        figures=metric_figures(t), survival_by_round=survival, rounds_histogram=dict(sorted(done.items())),
        defeat_causes=dict(sorted(t.defeat.items())), violations=t.violations,
        failures=tuple(Failure(seed, result, reason, tuple(bad)) for seed, result, reason, bad in t.failures),
        shares=metric_shares(t),
        draws=t.draws if competitive else None,
        seats=seat_table(t) if competitive else None,
        first_seat_advantage=tables.seat_table(t).first_advantage if competitive else None,
        score=score_figures(t) if t.info is not None and t.info.score_targets else None,
        **(_scored(t) if scored else {}))


def _scored(t: Tally) -> dict[str, Any]:
    """A scored game's setup figures: the mean score with its t interval, the score histogram and the
    score over game length (games ending at each round count, with their mean score)."""
    from cardkit.playtest.stats import mean_ci

    bounds = t.info.score_range if t.info is not None else None
    mean, ci = mean_ci(t.scores, bounds)
    by_rounds = {}
    for r, h in sorted(t.score_rounds.items()):
        games = sum(h.values())
        by_rounds[r] = (games, round(math.fsum(v * k for v, k in sorted(h.items())) / games, 3))
    return {"mean_score": Estimate(round(mean, 3), Interval.of(ci, 3)),
            "score_histogram": dict(sorted(t.scores.items())), "score_by_rounds": by_rounds}


def summarize(sweep: Sweep, band: tuple[float, float], all_cards: set[str] | frozenset[str],
              ceilings: Iterable[str] = (), anytime: AnytimeIntervals | None = None) -> Summary:
    """The report of a sweep: one entry per setup, the ability coverage and the verdicts
    (``ceilings``: agents that see hidden information, shown but never judged).  ``anytime``: a
    sequential sweep's intervals, shown and judged instead of the fixed-count ones."""
    from cardkit.playtest import tables
    from cardkit.playtest.ladder import ladder

    drafts = [_anytime(setup_of(sweep.tallies[key]), anytime) for key in sorted(sweep.tallies)]
    fired = sorted({c for t in sweep.tallies.values() for c in t.fired} & set(all_cards))
    never = sorted(set(all_cards) - set(fired))
    steps = ladder(sweep, drafts, band, never, frozenset(ceilings), anytime)
    verdicts = {e.players: e.verdict for e in steps}
    # every agent's row carries its player count's verdict, read from the strongest agent
    setups = tuple(replace(s, verdict=verdicts[s.players]) for s in drafts)
    info = next((t.info for t in sweep.tallies.values() if t.info is not None), None)
    return Summary(setups, Coverage(tuple(fired), tuple(never)), tuple(steps),
                   tuple(tables.matchups(sweep, frozenset(ceilings))) if sweep.matchups else (),
                   tuple(tables.declarations(info)) if info is not None else ())


def _anytime(s: Setup, anytime: AnytimeIntervals | None) -> Setup:
    """A setup with its figure's anytime-valid interval (a sequential sweep's), when there is one."""
    iv = anytime.figures.get((s.players, s.agent)) if anytime is not None else None
    if iv is None:
        return s
    if s.mean_score is not None:
        return replace(s, mean_score=Estimate(s.mean_score.value, Interval.of(iv, 3)))
    return replace(s, win_rate_ci95=Interval.of(iv))
