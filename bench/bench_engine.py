"""Engine benchmark: full games per second on one core, per agent and player count,
with the mean game length (rounds, decisions) and the time per decision (engine and
agent together), since a stronger agent plays longer games.

    python bench/bench_engine.py [--games 200]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cardkit._compiled import engine_build  # noqa: E402

from cardkit.games.death_angel.agents import AGENTS, play  # noqa: E402
from cardkit.games.death_angel.engine import Game  # noqa: E402
from cardkit.load.project import load_project  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    args = ap.parse_args()
    cards = load_project(ROOT).card_set("death-angel")
    print(f"rules engine: {engine_build()}")
    print(f"{'agent':<10} " + " ".join(f"{p}p games/s".rjust(13) for p in range(1, 7))
          + "   all  rounds/game  decisions/game  us/decision")
    for name in ("random", "passive", "heuristic"):
        row, total_t, rounds, decisions = [], 0.0, 0, 0
        for players in range(1, 7):
            game = Game(cards, players)
            t = time.perf_counter()
            for seed in range(args.games):
                st = game.new_state(seed)
                rounds += play(st, AGENTS[name](seed)).round
                decisions += len(st.decisions)
            dt = time.perf_counter() - t
            total_t += dt
            row.append(args.games / dt)
        n = 6 * args.games
        print(f"{name:<10} " + " ".join(f"{r:13.0f}" for r in row) + f"  {n / total_t:4.0f}"
              f"  {rounds / n:11.1f}  {decisions / n:14.0f}  {1e6 * total_t / decisions:11.1f}")


if __name__ == "__main__":
    main()
