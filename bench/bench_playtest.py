"""Playtest sweep benchmark: the issue's 6 x 2,000-game heuristic sweep, timed.

    python bench/bench_playtest.py [--games 2000] [--jobs 0] [--certify-every 4]

Runs the same batches as ``cardkit playtest --players 1-6 --games N`` (setup
audit and report left out) on local worker processes and prints the wall time
per configuration: bulk only, and with the default share of certified batches.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cardkit._compiled import engine_build  # noqa: E402

from cardkit.playtest.sweep import plan, run_sweep, usable_cores  # noqa: E402

TARGET_S = 15.0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=0, help="0: one per usable core")
    ap.add_argument("--certify-every", type=int, default=4)
    args = ap.parse_args()
    jobs = args.jobs or usable_cores()
    print(f"rules engine: {engine_build()}")
    print(f"{'sweep':<34} {'games':>7} {'jobs':>5} {'wall s':>8} {'games/s':>8} {'target':>8}")
    for label, certify in (("heuristic, bulk", 0), (f"heuristic, 1 batch in {args.certify_every} certified",
                                                       args.certify_every)):
        batches = plan(ROOT, "death-angel", range(1, 7), ["heuristic"], args.games, 1, certify)
        t = time.perf_counter()
        sweep = run_sweep(batches, jobs=jobs)
        dt = time.perf_counter() - t
        played = sum(tally.games for tally in sweep.tallies.values())
        assert played == 6 * args.games
        print(f"{label:<34} {played:>7} {jobs:>5} {dt:>8.1f} {played / dt:>8.0f} {TARGET_S:>7.0f}s")


if __name__ == "__main__":
    main()
