"""``--games auto`` against a fixed count: issue 34's Tidelights acceptance command, side by side.

    python bench/bench_auto.py [--root examples/tidelights] [--players 1-4] [--agent random --agent mcts]
                               [--games 300] [--impact] [--max-games M] [--precision P] [--jobs 0]
                               [--reference fixed.json] [--save auto.json]

Runs ``cardkit playtest --root R --players P --agent ... --games auto`` and the same with ``--games N``
through the library call (``cardkit.playtest.run``; ``--impact`` adds the card impact to both) and
prints per run the games played, CPU seconds (this process and its workers), wall seconds; then
whether the verdicts agree per player count, and, with ``--impact``, whether the impact signs agree
wherever the fixed run's interval excludes 0.  Wall time depends on the machine's load: compare CPU
seconds, and say the load with the figures.  ``--reference`` reads the fixed run from a JSON report of
``cardkit playtest ... --games N --format json`` made before (its rows of the player counts asked) instead
of playing it again.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cardkit._compiled import engine_build  # noqa: E402
from cardkit.playtest import Playtest, PlaytestRequest, run  # noqa: E402
from cardkit.playtest.records import ImpactRow  # noqa: E402


def _cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _players(spec: str) -> tuple[int, ...]:
    if "-" in spec:
        a, b = spec.split("-", 1)
        return tuple(range(int(a), int(b) + 1))
    return tuple(int(x) for x in spec.split(","))


def _timed(request: PlaytestRequest) -> tuple[Playtest, float, float]:
    cpu, t = _cpu(), time.perf_counter()
    done = run(request)
    return done, _cpu() - cpu, time.perf_counter() - t


def _rows(done: Playtest) -> dict[tuple[str, int, str], tuple[float, float]]:
    out = {}
    for r in done.result.impact or ():
        if isinstance(r, ImpactRow):
            iv = r.score_ci95 if r.score_ci95 is not None else r.ci95
            out[(r.card, r.players, r.agent)] = (iv.lo, iv.hi)
    return out


def _sign(lo: float, hi: float) -> int:
    return 0 if lo <= 0 <= hi else (1 if lo > 0 else -1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", type=Path, default=ROOT / "examples" / "tidelights")
    ap.add_argument("--players", default="1-4")
    ap.add_argument("--agent", action="append", default=None)
    ap.add_argument("--games", type=int, default=300, help="the fixed count to compare with")
    ap.add_argument("--impact", action="store_true")
    ap.add_argument("--max-games", type=int, default=None)
    ap.add_argument("--precision", type=float, default=None)
    ap.add_argument("--jobs", type=int, default=0)
    ap.add_argument("--reference", type=Path, default=None, help="the fixed run's JSON report, not played again")
    ap.add_argument("--save", type=Path, default=None, help="write the auto run's JSON report here")
    args = ap.parse_args()
    agents = tuple(args.agent or ["random", "mcts"])
    common = dict(root=args.root, players=_players(args.players), agents=agents, jobs=args.jobs, impact=args.impact)
    print(f"rules engine: {engine_build()}; load average {os.getloadavg()[0]:.1f} at the start; "
          f"{args.root.name} --players {args.players} --agent {' --agent '.join(agents)}"
          + (" --impact" if args.impact else ""))
    print(f"{'run':<34} {'games':>8} {'CPU s':>9} {'wall s':>9}")
    runs = {}
    plays = [("--games auto" + (f" --max-games {args.max_games}" if args.max_games else "")
              + (f" --precision {args.precision:g}" if args.precision else ""),
              PlaytestRequest(games="auto", max_games=args.max_games, precision=args.precision,
                              **common))]  # type: ignore[arg-type]
    if args.reference is None:
        plays.append((f"--games {args.games}", PlaytestRequest(games=args.games, **common)))  # type: ignore[arg-type]
    for label, req in plays:
        done, cpu, wall = _timed(req)
        runs[label] = done
        print(f"{label:<34} {done.games_played:>8,} {cpu:>9.1f} {wall:>9.1f}", flush=True)
    auto = runs[plays[0][0]]
    if args.save is not None:
        args.save.write_text(json.dumps(auto.result.to_json(), indent=2), encoding="utf-8")
    players = set(common["players"])  # type: ignore[call-overload]
    if args.reference is not None:
        ref = json.loads(args.reference.read_text())
        fixed_verdicts = {e["players"]: e["verdict"] for e in ref["ladder"] if e["players"] in players}
        fixed_impact = {(r["card"], r["players"], r["agent"]): tuple((r.get("score_ci95") or r["ci95"])[:2])
                        for r in ref.get("impact", ()) if "ci95" in r and r["players"] in players}
        print(f"(the fixed run: {args.reference}, its rows of players {sorted(players)})")
    else:
        fixed = runs[plays[1][0]]
        fixed_verdicts = {e.players: e.verdict for e in fixed.result.summary.ladder}
        fixed_impact = _rows(fixed)
    print(f"\n{'players':>7} {'auto verdict':<24} {'fixed verdict':<24} agree")
    agree = 0
    for e in auto.result.summary.ladder:
        f = fixed_verdicts[e.players]
        agree += e.verdict == f
        print(f"{e.players:>7} {e.verdict:<24} {f:<24} {'yes' if e.verdict == f else 'NO'}")
    print(f"verdicts agree: {agree} of {len(fixed_verdicts)}")
    seq = auto.result.sequential
    if seq is not None:
        print(f"\nauto: {seq.rounds} rounds; per figure its seeds and why it stopped")
        for u in seq.units:
            what = f"{u.what} {u.players}p {u.agent}" + (f" {u.card}" if u.card else "")
            print(f"  {what:<40} {u.games:>6} [{u.interval.lo:g}, {u.interval.hi:g}] {u.stopped}")
    if args.impact:
        a, f = _rows(auto), fixed_impact
        stops: dict[str, int] = {}
        for r in auto.result.impact or ():
            if isinstance(r, ImpactRow):
                stops[r.effect] = stops.get(r.effect, 0) + 1
        print("auto impact rows: " + ", ".join(f"{k} {v}" for k, v in sorted(stops.items())))
        clear = [k for k, iv in f.items() if _sign(*iv) != 0]
        same = [k for k in clear if k in a and _sign(*a[k]) == _sign(*f[k])]
        open_ = [k for k in clear if k in a and _sign(*a[k]) == 0]
        wrong = [k for k in clear if k in a and _sign(*a[k]) == -_sign(*f[k])]
        print(f"impact pairs: {len(f)}; the fixed interval excludes 0 for {len(clear)}; auto gives the same sign "
              f"for {len(same)}, an interval holding 0 for {len(open_)}, the opposite sign for {len(wrong)}")
        for k in wrong + open_:
            print(f"  {k[0]} {k[1]}p {k[2]}: fixed {f[k]}, auto {a[k]}")


if __name__ == "__main__":
    main()
