"""Playtest memory benchmark: peak resident memory of a sweep against its number of games.

    python bench/bench_memory.py [--games 30000 300000 3000000] [--jobs 2] [--agent random]

Each size runs in a fresh Python process (``--child``) that plays the sweep of
``cardkit playtest --players 1-6 --agent random --games N/6`` and computes its
report; the table gives the peak RSS of that parent process and of its largest
worker (``getrusage``: the high-water mark, so nothing is missed between
samples), and the spread of the parent's peak over the sizes (acceptance:
within 10 %).  Random is the fastest agent, so it makes the most games per second.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def child(games: int, jobs: int, agent: str) -> None:
    from cardkit._compiled import engine_build
    from cardkit.load.project import load_project
    from cardkit.games.death_angel.rules_engine import ability_cards
    from cardkit.playtest.sweep import plan, run_sweep, summarize

    per = games // 6
    t = time.perf_counter()
    sweep = run_sweep(plan(ROOT, "death-angel", range(1, 7), [agent], per, 1, 4), jobs=jobs)
    card_set = load_project(ROOT).card_set("death-angel")
    report = summarize(sweep, (0.0, 1.0), ability_cards(card_set, range(1, 7)))
    dt = time.perf_counter() - t
    played = sum(s.games for s in report.setups)
    print(json.dumps({"games": played, "seconds": dt, "engine": engine_build(),
                      "parent_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                      "worker_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, nargs="+", default=[30_000, 300_000, 3_000_000])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--agent", default="random")
    ap.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child, args.jobs, args.agent)
        return
    rows = []
    print(f"{'games':>10} {'jobs':>5} {'wall s':>8} {'games/s':>8} {'parent MB':>10} {'worker MB':>10}")
    for n in args.games:
        out = subprocess.run([sys.executable, __file__, "--child", str(n), "--jobs", str(args.jobs),
                              "--agent", args.agent], capture_output=True, text=True, check=True)
        r = json.loads(out.stdout.strip().splitlines()[-1])
        rows.append(r)
        print(f"{r['games']:>10} {args.jobs:>5} {r['seconds']:>8.0f} {r['games'] / r['seconds']:>8.0f} "
              f"{r['parent_kb'] / 1024:>10.1f} {r['worker_kb'] / 1024:>10.1f}", flush=True)
    peaks = [r["parent_kb"] for r in rows]
    print(f"parent peak spread: {100 * (max(peaks) - min(peaks)) / min(peaks):.1f} % (acceptance: within 10 %); "
          f"rules engine: {rows[0]['engine']}")


if __name__ == "__main__":
    main()
