"""Simulation sweeps: many seeded games per player count and agent.

Games are split into fixed batches (by player count, agent and seed range);
batches run in worker processes and their records are merged in batch order,
so the result is identical whatever the number of workers.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import statistics
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

BATCH = 250


@dataclass(frozen=True)
class GameRecord:
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


@dataclass(frozen=True)
class Batch:
    root: str
    set_id: str
    players: int
    agent: str
    seeds: tuple[int, int]  # [start, stop)
    certify: bool = False


def plan(root: Path, set_id: str, players: Iterable[int], agents: Iterable[str], games: int, seed: int,
         certify_every: int = 0) -> list[Batch]:
    """Batches in a fixed order; game ``k`` of a setup uses seed ``seed + k``."""
    out = []
    for p in players:
        for a in agents:
            for start in range(0, games, BATCH):
                stop = min(games, start + BATCH)
                certify = bool(certify_every) and (start // BATCH) % certify_every == 0
                out.append(Batch(str(root), set_id, p, a, (seed + start, seed + stop), certify))
    return out


_CACHE: dict[tuple[str, str], Any] = {}


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


def run_batch(batch: Batch) -> list[GameRecord]:
    from cardkit.games.death_angel.agents import AGENTS
    from cardkit.games.death_angel.engine import Game
    from cardkit.games.death_angel.invariants import violations

    game = Game(_card_set(batch.root, batch.set_id), batch.players)
    make_agent = AGENTS[batch.agent]
    out = []
    for seed in range(*batch.seeds):
        bad: list[str] = []
        try:
            st = game.new_state(seed)
            choose = make_agent(seed)
            steps = 0
            while st.decision is not None:
                if batch.certify:
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
            result, reason, rounds = "error", f"{type(exc).__name__}: {exc}", 0
            st = None  # type: ignore[assignment]
        if st is None:
            out.append(GameRecord(batch.players, batch.agent, seed, result, reason, 0, 0, 0, 0, 0, 0, (), (), tuple(bad)))
            continue
        out.append(GameRecord(
            batch.players, batch.agent, seed, result, reason, rounds, len(st.marines()), len(st.dead),
            st.stats.locations, st.stats.support_short, sum(st.stats.reshuffles.values()),
            tuple(st.stats.alive_by_round), tuple(sorted(k for k, v in st.stats.fired.items() if v)),
            tuple(sorted(set(bad)))))
    return out


def usable_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))  # honours CPU limits set on the process
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def run_sweep(batches: list[Batch], jobs: int = 1, backend: str = "local", scheduler: str | None = None,
              progress: Callable[[int, int], None] | None = None) -> list[GameRecord]:
    """Run every batch; results in batch order whatever ``jobs`` (0: one worker per usable core) or backend."""
    jobs = jobs or usable_cores()
    results: list[list[GameRecord] | None] = [None] * len(batches)
    done = 0
    if backend == "dask":
        from cardkit.playtest.dask_backend import run_on_dask

        for i, recs in run_on_dask(batches, scheduler):
            results[i] = recs
            done += 1
            if progress:
                progress(done, len(batches))
    elif jobs <= 1:
        for i, b in enumerate(batches):
            results[i] = run_batch(b)
            done += 1
            if progress:
                progress(done, len(batches))
    else:
        if multiprocessing.get_start_method() == "fork":
            for root, set_id in sorted({(b.root, b.set_id) for b in batches}):
                _card_set(root, set_id)  # loaded and checked once here: forked workers inherit it
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(run_batch, b): i for i, b in enumerate(batches)}
            from concurrent.futures import as_completed

            for fut in as_completed(futures):
                results[futures[fut]] = fut.result()
                done += 1
                if progress:
                    progress(done, len(batches))
    return [r for recs in results for r in (recs or [])]


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


def ability_cards(card_set: Any, counts: Iterable[int]) -> set[str]:
    """Cards whose ability can take effect in games at these player counts: actions,
    events, Brood Lords, terrain with an ability, and the locations that a setup card
    for one of the counts deals (a location of another tier cannot appear)."""
    from cardkit.games.death_angel.cards import Action, Event, Genestealer, Location, SetupCard, Terrain

    counts = set(counts)
    dealt = {tier for s in card_set.of_kind(SetupCard) if set(s.players) & counts for tier in s.deck}
    return {c.id for c in card_set.cards.values()
            if isinstance(c, (Action, Event)) or (isinstance(c, Terrain) and c.effects)
            or (isinstance(c, Genestealer) and c.brood_lord) or (isinstance(c, Location) and c.tier in dealt)}


def summarize(records: list[GameRecord], band: tuple[float, float], all_cards: set[str]) -> dict[str, Any]:
    setups: list[dict[str, Any]] = []
    keys = sorted({(r.players, r.agent) for r in records})
    for players, agent in keys:
        rs = [r for r in records if r.players == players and r.agent == agent]
        n = len(rs)
        completed = [r for r in rs if r.result in ("win", "loss")]
        wins = [r for r in rs if r.result == "win"]
        losses = [r for r in rs if r.result == "loss"]
        violations = sum(1 for r in rs if r.violations)
        lo, hi = wilson(len(wins), n)
        clo, chi = wilson(len(completed), n)

        def rounds(sub: list[GameRecord]) -> dict[str, float] | None:
            if not sub:
                return None
            v = [r.rounds for r in sub]
            return {"median": statistics.median(v), "p5": percentile(v, 5), "p95": percentile(v, 95)}

        max_round = max((len(r.alive_by_round) for r in rs), default=0)
        survival = []
        for k in range(max_round):
            alive = sum(1 for r in rs if len(r.alive_by_round) > k or r.result == "win")
            survival.append(round(alive / n, 4))
        win_rate = len(wins) / n if n else 0.0
        failures = [r for r in rs if r.result not in ("win", "loss") or r.violations]
        setups.append({
            "players": players, "agent": agent, "games": n, "completed": len(completed),
            "completion_ci95": [round(clo, 4), round(chi, 4)],
            "wins": len(wins), "win_rate": round(win_rate, 4), "win_rate_ci95": [round(lo, 4), round(hi, 4)],
            "rounds": {"win": rounds(wins), "loss": rounds(losses), "all": rounds(completed)},
            "casualties_mean": round(statistics.mean(r.casualties for r in rs), 3) if rs else 0,
            "survivors_mean": round(statistics.mean(r.survivors for r in rs), 3) if rs else 0,
            "locations": dict(sorted(_count(r.locations for r in rs).items())),
            "survival_by_round": survival,
            "rounds_histogram": dict(sorted(_count(r.rounds for r in completed).items())),
            "defeat_causes": dict(sorted(_count(r.reason for r in losses).items())),
            "support_shortage_games": sum(1 for r in rs if r.support_short),
            "reshuffles_mean": round(statistics.mean(r.reshuffles for r in rs), 3) if rs else 0,
            "violations": violations,
            "failures": [{"seed": r.seed, "result": r.result, "reason": r.reason, "violations": list(r.violations)}
                         for r in failures[:20]],
            "verdict": _verdict(n, len(completed), violations, win_rate, band),
        })
    fired = sorted(set().union(*(set(r.fired) for r in records)) & all_cards) if records else []
    never = sorted(all_cards - set(fired))
    for s in setups:
        if never and s["verdict"] == "playable":
            s["verdict"] = "dead cards"
    return {"setups": setups, "coverage": {"fired": fired, "never_fired": never}}


def _count(values: Iterable[Any]) -> dict[Any, int]:
    out: dict[Any, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return out


def _verdict(n: int, completed: int, violations: int, win_rate: float, band: tuple[float, float]) -> str:
    if completed < n:
        return "incomplete games"
    if violations:
        return "rule violations"
    if win_rate <= band[0]:
        return "too hard"
    if win_rate >= band[1]:
        return "too easy"
    return "playable"


def records_json(records: list[GameRecord]) -> list[dict[str, Any]]:
    return [asdict(r) for r in records]

