"""Playtest sweep benchmark: the issue's 6 x 2,000-game heuristic sweep, timed.

    python bench/bench_playtest.py [--games 2000] [--jobs 0] [--certify-every 4]

Runs ``cardkit playtest --players 1-6 --games N --agent heuristic`` through the library call
(``cardkit.playtest.run``: audit, sweep and summary; no printing) on local worker processes and
prints the wall time per configuration: bulk only, and with the default share of certified batches.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cardkit._compiled import engine_build  # noqa: E402

from cardkit.playtest import PlaytestRequest, run  # noqa: E402
from cardkit.playtest.sweep import usable_cores  # noqa: E402

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
        request = PlaytestRequest(ROOT, "death-angel", tuple(range(1, 7)), ("heuristic",), args.games, seed=1,
                                  jobs=jobs, certify_every=certify)
        t = time.perf_counter()
        done = run(request)  # the library call of `cardkit playtest` (audit and summary included)
        dt = time.perf_counter() - t
        played = done.games_played
        assert played == 6 * args.games
        print(f"{label:<34} {played:>7} {jobs:>5} {dt:>8.1f} {played / dt:>8.0f} {TARGET_S:>7.0f}s")


if __name__ == "__main__":
    main()
