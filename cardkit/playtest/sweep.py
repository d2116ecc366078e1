"""Simulation sweeps: many seeded games per player count and agent, in constant memory.

Games are split into fixed batches (by player count, agent and seed range).
A batch plays its games in a worker process and returns a :class:`BatchResult`:
a mergeable :class:`Tally` per setup (counts and exact histograms, never one
record per game) and, when the batch also plays *variants* of the card set on
the same seeds (``--compare``, card impact), one :class:`Paired` tally per
variant.  The parent merges results as they arrive; merging is associative and
commutative (failures are kept ordered by seed), so the report is identical
whatever the number of workers or the backend, and the parent's memory does not
grow with the number of games.
"""

from __future__ import annotations

import math
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Sequence
from typing import Any, Callable, Iterable, Iterator, overload

BATCH = 250
MAX_FAILURES = 20  # failed games kept per setup (the ones with the smallest seeds), for their reproduce command


@dataclass(frozen=True)
class GameRecord:
    """One finished game, as the batch sees it; folded into a :class:`Tally` and dropped."""

    players: int
    agent: str
    seed: int
    result: str  # win | loss | abandoned | error
    reason: str
    rounds: int
    survivors: int
    casualties: int
    locations: int
    support_short: int
    reshuffles: int
    alive_by_round: tuple[int, ...]
    fired: tuple[str, ...]
    violations: tuple[str, ...] = ()
    teams: tuple[str, ...] = ()  # combat teams in play, sorted


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

    def _per_setup(self) -> int:
        return -(-self.games // BATCH)

    def __len__(self) -> int:
        return len(self.players) * len(self.agents) * self._per_setup()

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
        setup, k = divmod(i, self._per_setup())
        p, a = divmod(setup, len(self.agents))
        start, stop = k * BATCH, min(self.games, (k + 1) * BATCH)
        certify = bool(self.certify_every) and k % self.certify_every == 0
        return Batch(self.root, self.set_id, self.players[p], self.agents[a], (self.seed + start, self.seed + stop),
                     certify, self.variants)


def plan(root: Path, set_id: str, players: Iterable[int], agents: Iterable[str], games: int, seed: int,
         certify_every: int = 0, variants: tuple[Variant, ...] = ()) -> Plan:
    """Batches in a fixed order (by player count, agent and seed range); see :class:`Plan`."""
    return Plan(str(root), set_id, tuple(players), tuple(agents), games, seed, certify_every, variants)


# ------------------------------------------------------------------ mergeable tallies
def _add(into: dict[Any, int], other: dict[Any, int]) -> None:
    for k, v in other.items():
        into[k] = into.get(k, 0) + v


@dataclass
class Tally:
    """Everything the report needs about the games of one setup (player count and
    agent), as counts and exact histograms.  Mutable on purpose: a batch adds its
    games one by one and the parent merges batch tallies into one per setup."""

    players: int
    agent: str
    games: int = 0
    wins: int = 0
    losses: int = 0
    violations: int = 0  # games with at least one invariant violation
    support_short: int = 0
    casualties: int = 0  # sums over games
    survivors: int = 0
    reshuffles: int = 0
    rounds_win: dict[int, int] = field(default_factory=dict)  # rounds -> games
    rounds_loss: dict[int, int] = field(default_factory=dict)
    casualties_hist: dict[int, int] = field(default_factory=dict)
    locations: dict[int, int] = field(default_factory=dict)
    alive_len: dict[int, int] = field(default_factory=dict)  # rounds recorded -> games not won
    max_alive_len: int = 0
    defeat: dict[str, int] = field(default_factory=dict)
    fired: dict[str, int] = field(default_factory=dict)  # card -> games in which its ability took effect
    teams: dict[str, list[int]] = field(default_factory=dict)  # team -> [games, wins]
    pairs: dict[str, list[int]] = field(default_factory=dict)  # "a+b" -> [games, wins]
    failures: list[tuple[int, str, str, tuple[str, ...]]] = field(default_factory=list)  # by seed

    def add(self, r: GameRecord) -> None:
        self.games += 1
        won = r.result == "win"
        if won:
            self.wins += 1
            self.rounds_win[r.rounds] = self.rounds_win.get(r.rounds, 0) + 1
        elif r.result == "loss":
            self.losses += 1
            self.rounds_loss[r.rounds] = self.rounds_loss.get(r.rounds, 0) + 1
            self.defeat[r.reason] = self.defeat.get(r.reason, 0) + 1
        if not won:
            n = len(r.alive_by_round)
            self.alive_len[n] = self.alive_len.get(n, 0) + 1
        self.max_alive_len = max(self.max_alive_len, len(r.alive_by_round))
        self.violations += bool(r.violations)
        self.support_short += bool(r.support_short)
        self.casualties += r.casualties
        self.survivors += r.survivors
        self.reshuffles += r.reshuffles
        self.casualties_hist[r.casualties] = self.casualties_hist.get(r.casualties, 0) + 1
        self.locations[r.locations] = self.locations.get(r.locations, 0) + 1
        for c in r.fired:
            self.fired[c] = self.fired.get(c, 0) + 1
        for t in r.teams:
            self.teams.setdefault(t, [0, 0])
            self.teams[t][0] += 1
            self.teams[t][1] += won
        for i, a in enumerate(r.teams):
            for b in r.teams[i + 1:]:
                rec = self.pairs.setdefault(f"{a}+{b}", [0, 0])
                rec[0] += 1
                rec[1] += won
        if (r.result not in ("win", "loss") or r.violations) and len(self.failures) < MAX_FAILURES:
            self.failures.append((r.seed, r.result, r.reason, r.violations))

    def merge(self, o: Tally) -> None:
        for name in ("games", "wins", "losses", "violations", "support_short", "casualties", "survivors", "reshuffles"):
            setattr(self, name, getattr(self, name) + getattr(o, name))
        for name in ("rounds_win", "rounds_loss", "casualties_hist", "locations", "alive_len", "defeat", "fired"):
            _add(getattr(self, name), getattr(o, name))
        self.max_alive_len = max(self.max_alive_len, o.max_alive_len)
        for mine, theirs in ((self.teams, o.teams), (self.pairs, o.pairs)):
            for k, (g, w) in theirs.items():
                rec = mine.setdefault(k, [0, 0])
                rec[0] += g
                rec[1] += w
        self.failures = sorted(self.failures + o.failures)[:MAX_FAILURES]


@dataclass
class Paired:
    """Games of the base set and of one variant on the same seeds (common random numbers)."""

    label: str
    players: int
    agent: str
    games: int = 0
    wins_base: int = 0
    wins_variant: int = 0
    only_base: int = 0  # base won, variant did not
    only_variant: int = 0
    rounds_base: dict[int, int] = field(default_factory=dict)  # completed games
    rounds_variant: dict[int, int] = field(default_factory=dict)
    casualties_base: int = 0
    casualties_variant: int = 0
    casualty_diff_sq: int = 0  # sum of (variant - base)^2 per seed
    fired_variant: int = 0  # variant games in which the ablated card's ability still took effect (must stay 0)

    def add(self, base: GameRecord, var: GameRecord) -> None:
        self.games += 1
        bw, vw = base.result == "win", var.result == "win"
        self.wins_base += bw
        self.wins_variant += vw
        self.only_base += bw and not vw
        self.only_variant += vw and not bw
        for rec, h in ((base, self.rounds_base), (var, self.rounds_variant)):
            if rec.result in ("win", "loss"):
                h[rec.rounds] = h.get(rec.rounds, 0) + 1
        self.casualties_base += base.casualties
        self.casualties_variant += var.casualties
        self.casualty_diff_sq += (var.casualties - base.casualties) ** 2

    def merge(self, o: Paired) -> None:
        for name in ("games", "wins_base", "wins_variant", "only_base", "only_variant", "casualties_base",
                     "casualties_variant", "casualty_diff_sq", "fired_variant"):
            setattr(self, name, getattr(self, name) + getattr(o, name))
        _add(self.rounds_base, o.rounds_base)
        _add(self.rounds_variant, o.rounds_variant)


@dataclass
class BatchResult:
    tally: Tally
    paired: dict[str, Paired] = field(default_factory=dict)  # variant label -> paired tally


@dataclass
class Sweep:
    """Merged results of a sweep: one tally per setup, one paired tally per (variant, setup)."""

    tallies: dict[tuple[int, str], Tally] = field(default_factory=dict)
    paired: dict[tuple[str, int, str], Paired] = field(default_factory=dict)

    def merge(self, r: BatchResult) -> None:
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
_CACHE: dict[tuple[str, str], Any] = {}
_GAMES: dict[tuple[str, str, str | None, int], Any] = {}


def _card_set(root: str, set_id: str):  # type: ignore[no-untyped-def]
    key = (root, set_id)
    if key not in _CACHE:
        from cardkit.errors import CardkitError
        from cardkit.load.project import load_project

        project = load_project(Path(root))
        if project.issues:
            raise CardkitError(project.issues)
        _CACHE[key] = project.card_set(set_id)
    return _CACHE[key]


def _game(root: str, set_id: str, ablated: str | None, players: int):  # type: ignore[no-untyped-def]
    """The engine's game for a set (or the set with one card ablated), built once per process."""
    key = (root, set_id, ablated, players)
    if key not in _GAMES:
        from cardkit.games.death_angel.engine import Game
        from cardkit.playtest.impact import ablate

        cs = _card_set(root, set_id)
        _GAMES[key] = Game(ablate(cs, ablated) if ablated else cs, players)
    return _GAMES[key]


def play_game(game: Any, make_agent: Callable[[int], Any], players: int, agent: str, seed: int,
              certify: bool) -> GameRecord:
    """Play one seeded game to its end; a crash or an endless game is a finding, never an exception."""
    from cardkit.games.death_angel.invariants import violations

    bad: list[str] = []
    try:
        st = game.new_state(seed)
        choose = make_agent(seed)
        steps = 0
        while st.decision is not None:
            if certify:
                bad.extend(violations(st))
            st.apply(choose(st, st.decision))
            steps += 1
            if steps > 200_000:
                bad.append("too many decisions")
                break
        bad.extend(violations(st))
        o = st.outcome
        result, reason, rounds = (o.result, o.reason, o.round) if o else ("abandoned", "unfinished", st.round)
    except Exception as exc:  # a crash is a finding, never a lost batch
        return GameRecord(players, agent, seed, "error", f"{type(exc).__name__}: {exc}", 0, 0, 0, 0, 0, 0, (), (),
                          tuple(sorted(set(bad))))
    return GameRecord(
        players, agent, seed, result, reason, rounds, len(st.marines()), len(st.dead),
        st.stats.locations, st.stats.support_short, sum(st.stats.reshuffles.values()),
        tuple(st.stats.alive_by_round), tuple(sorted(k for k, v in st.stats.fired.items() if v)),
        tuple(sorted(set(bad))), tuple(sorted(st.teams)))


def run_batch(batch: Batch) -> BatchResult:
    from cardkit.games.death_angel.agents import AGENTS

    make_agent = AGENTS[batch.agent]
    base = _game(batch.root, batch.set_id, None, batch.players)
    out = BatchResult(Tally(batch.players, batch.agent))
    records = [play_game(base, make_agent, batch.players, batch.agent, s, batch.certify) for s in range(*batch.seeds)]
    if batch.count_base:
        for r in records:
            out.tally.add(r)
    for v in batch.variants:
        game = _game(v.root, batch.set_id, v.ablate, batch.players)
        p = out.paired[v.label] = Paired(v.label, batch.players, batch.agent)
        for r in records:
            var = play_game(game, make_agent, batch.players, batch.agent, r.seed, False)
            p.add(r, var)
            p.fired_variant += v.ablate is not None and v.ablate in var.fired
    return out


def usable_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))  # honours CPU limits set on the process
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which stops the sweep (a terminal sends
    SIGINT to the whole process group; each worker would print a traceback)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _pooled(batches: Sequence[Batch], jobs: int) -> Iterator[BatchResult]:
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
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_interrupts)
    todo = iter(batches)
    running: set[Any] = set()
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


def _results(batches: Sequence[Batch], jobs: int, backend: str, scheduler: str | None) -> Iterator[BatchResult]:
    if backend == "dask":
        from cardkit.playtest.dask_backend import run_on_dask

        for _, res in run_on_dask(batches, scheduler):
            yield res
    elif jobs <= 1:
        for b in batches:
            yield run_batch(b)
    else:
        if multiprocessing.get_start_method() == "fork":
            for root, set_id in sorted({(b.root, b.set_id) for b in batches}
                                       | {(v.root, b.set_id) for b in batches for v in b.variants}):
                _card_set(root, set_id)  # loaded and checked once here: forked workers inherit it
        yield from _pooled(batches, jobs)


def run_sweep(batches: Sequence[Batch], jobs: int = 1, backend: str = "local", scheduler: str | None = None,
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
def wilson(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
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


def ability_cards(card_set: Any, counts: Iterable[int]) -> set[str]:
    """Cards whose ability can take effect in games at these player counts: actions,
    events, Genestealers and terrain with an ability (the Brood Lords), and the locations
    that a setup card for one of the counts deals (a location of another tier cannot appear)."""
    from cardkit.games.death_angel.cards import Action, Event, Genestealer, Location, SetupCard, Terrain

    counts = set(counts)
    dealt = {tier for s in card_set.of_kind(SetupCard) if set(s.players) & counts for tier in s.deck}
    return {c.id for c in card_set.cards.values()
            if isinstance(c, (Action, Event)) or (isinstance(c, Terrain) and c.effects)
            or (isinstance(c, Genestealer) and c.effects) or (isinstance(c, Location) and c.tier in dealt)}


def summarize(sweep: Sweep, band: tuple[float, float], all_cards: set[str]) -> dict[str, Any]:
    """The report of a sweep: one entry per setup, the ability coverage and the verdicts."""
    setups: list[dict[str, Any]] = []
    for players, agent in sorted(sweep.tallies):
        t = sweep.tallies[(players, agent)]
        n = t.games
        completed = t.wins + t.losses
        lo, hi = wilson(t.wins, n)
        clo, chi = wilson(completed, n)

        def rounds(hist: dict[int, int]) -> dict[str, float] | None:
            if not hist:
                return None
            return {"median": hist_median(hist), "p5": hist_percentile(hist, 5), "p95": hist_percentile(hist, 95)}

        done = dict(t.rounds_win)
        _add(done, t.rounds_loss)
        survival = [round((t.wins + sum(g for ln, g in t.alive_len.items() if ln > k)) / n, 4)
                    for k in range(t.max_alive_len)]
        win_rate = t.wins / n if n else 0.0
        setups.append({
            "players": players, "agent": agent, "games": n, "completed": completed,
            "completion_ci95": [round(clo, 4), round(chi, 4)],
            "wins": t.wins, "win_rate": round(win_rate, 4), "win_rate_ci95": [round(lo, 4), round(hi, 4)],
            "rounds": {"win": rounds(t.rounds_win), "loss": rounds(t.rounds_loss), "all": rounds(done)},
            "casualties_mean": _mean(t.casualties, n) if n else 0,
            "survivors_mean": _mean(t.survivors, n) if n else 0,
            "locations": dict(sorted(t.locations.items())),
            "survival_by_round": survival,
            "rounds_histogram": dict(sorted(done.items())),
            "defeat_causes": dict(sorted(t.defeat.items())),
            "support_shortage_games": t.support_short,
            "reshuffles_mean": _mean(t.reshuffles, n) if n else 0,
            "violations": t.violations,
            "failures": [{"seed": seed, "result": result, "reason": reason, "violations": list(bad)}
                         for seed, result, reason, bad in t.failures],
            "casualty_share": round(t.casualties / (t.casualties + t.survivors), 4) if t.casualties + t.survivors else None,
            "verdict": "",
        })
    fired = sorted({c for t in sweep.tallies.values() for c in t.fired} & all_cards)
    never = sorted(all_cards - set(fired))
    from cardkit.playtest.ladder import ladder

    steps = ladder(sweep, setups, band, never)
    verdicts = {e["players"]: e["verdict"] for e in steps}
    for s in setups:  # every agent's row carries its player count's verdict, read from the strongest agent
        s["verdict"] = verdicts[s["players"]]
    return {"setups": setups, "coverage": {"fired": fired, "never_fired": never}, "ladder": steps}
