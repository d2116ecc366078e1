"""Card-impact benchmark: ``cardkit playtest --impact --players 1 --games 2000 --agent heuristic``, timed,
run on two seeds to see how stable the ranking is.

    python bench/bench_impact.py [--games 2000] [--players 1] [--seeds 1 100001] [--jobs 0]

Prints per seed the wall time, the CPU time of all processes (on a shared machine
CPU time / cores is what an idle machine's wall time would be) and the games
played; then the top and bottom five cards of each seed's ranking and how many of
them the two seeds share, with the Spearman rank correlation of all deltas.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cardkit._compiled import engine_build  # noqa: E402
from cardkit.load.project import load_project  # noqa: E402
from cardkit.games.death_angel.rules_engine import ENGINE  # noqa: E402
from cardkit.playtest import PlaytestRequest, run  # noqa: E402
from cardkit.playtest.impact import impact_cards  # noqa: E402
from cardkit.playtest.records import ImpactRow  # noqa: E402
from cardkit.playtest.sweep import usable_cores  # noqa: E402

TARGET_S = 90.0


def _cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _ranks(values: dict[str, float]) -> dict[str, float]:
    order = sorted(values, key=lambda c: values[c])
    out: dict[str, float] = {}
    i = 0
    while i < len(order):  # average ranks for ties
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2
        i = j + 1
    return out


def spearman(a: dict[str, float], b: dict[str, float]) -> float:
    ra, rb = _ranks(a), _ranks(b)
    keys = sorted(a)
    ma, mb = sum(ra[k] for k in keys) / len(keys), sum(rb[k] for k in keys) / len(keys)
    cov = sum((ra[k] - ma) * (rb[k] - mb) for k in keys)
    va = sum((ra[k] - ma) ** 2 for k in keys) ** 0.5
    vb = sum((rb[k] - mb) ** 2 for k in keys) ** 0.5
    return cov / (va * vb) if va and vb else 0.0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=1)
    ap.add_argument("--agent", default="heuristic")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 100_001])
    ap.add_argument("--jobs", type=int, default=0, help="0: one per usable core")
    args = ap.parse_args()
    jobs = args.jobs or usable_cores()
    card_set = load_project(ROOT).card_set("death-angel")
    cards, fixed = impact_cards(ENGINE, card_set, [args.players])
    print(f"rules engine: {engine_build()}; {len(cards)} cards switched off one at a time, "
          f"{len(fixed)} not switchable ({', '.join(fixed)})")
    print(f"{'seed':>7} {'players':>7} {'games/card':>10} {'games':>8} {'jobs':>5} {'wall s':>8} {'CPU s':>8} "
          f"{'CPU s/jobs':>10} {'target':>7}")
    runs = []
    for seed in args.seeds:
        request = PlaytestRequest(ROOT, "death-angel", (args.players,), (args.agent,), args.games, seed=seed,
                                  jobs=jobs, impact=True, certify_every=4)
        cpu, t = _cpu(), time.perf_counter()
        result = run(request).result  # the library call of `cardkit playtest --impact` (audit and summary included)
        wall, cpu = time.perf_counter() - t, _cpu() - cpu
        rows = list(result.impact or ())
        played = (sum(r.games for r in rows if isinstance(r, ImpactRow))
                  + sum(s.games for s in result.summary.setups))
        print(f"{seed:>7} {args.players:>7} {args.games:>10} {played:>8} {jobs:>5} {wall:>8.1f} {cpu:>8.1f} "
              f"{cpu / jobs:>10.1f} {TARGET_S:>6.0f}s", flush=True)
        runs.append([r for r in rows if isinstance(r, ImpactRow)])
    listed = {r.card for r in runs[0]} | set(fixed)
    print(f"abilities listed: {len(listed)} of {len(cards) + len(fixed)}")
    for seed, rows in zip(args.seeds, runs):
        top = ", ".join(f"{r.card} {r.win_rate_delta:+.1%}" for r in rows[:5])
        bottom = ", ".join(f"{r.card} {r.win_rate_delta:+.1%}" for r in rows[-5:])
        print(f"seed {seed}: top five (switching off costs most): {top}")
        print(f"seed {seed}: bottom five: {bottom}")
        print(f"seed {seed}: measurable effect: {sum(r.effect != 'no measurable effect' for r in rows)} cards")
    if len(runs) >= 2:
        a, b = runs[0], runs[1]
        top = len({r.card for r in a[:5]} & {r.card for r in b[:5]})
        bottom = len({r.card for r in a[-5:]} & {r.card for r in b[-5:]})
        rho = spearman({r.card: r.win_rate_delta for r in a}, {r.card: r.win_rate_delta for r in b})
        print(f"ranking stability between seeds {args.seeds[0]} and {args.seeds[1]}: top five share {top} of 5, "
              f"bottom five share {bottom} of 5; Spearman rank correlation of all deltas {rho:.2f}")


if __name__ == "__main__":
    main()
