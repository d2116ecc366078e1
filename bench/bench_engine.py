"""Engine benchmark: full games per second on one core, per agent and player count,
with the mean game length (rounds, decisions) and the time per decision (engine and
agent together), since a stronger agent plays longer games.  Each cell is the best of
``--repeat`` timings of the same games: on a shared machine the slow runs measure the
neighbours, not the engine.

    python bench/bench_engine.py [--games 200] [--repeat 3] [--search-games 10] [--search-agents search]

The search agents cost far more per decision: they get their own table (one run of
``--search-games`` games per player count, the same seeds for every agent), with
the time per game, per searched decision (an action choice: every option's
rollouts) and per rollout.
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
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--search-games", type=int, default=10, help="games per player count for the search agents (0: skip)")
    ap.add_argument("--search-agents", default="search", help="comma-separated, e.g. search,search:4,clairvoyant")
    ap.add_argument("--skip-plain", action="store_true", help="only the search table")
    args = ap.parse_args()
    cards = load_project(ROOT).card_set("death-angel")
    print(f"rules engine: {engine_build()}; best of {args.repeat} runs")
    if not args.skip_plain:
        print(f"{'agent':<10} " + " ".join(f"{p}p games/s".rjust(13) for p in range(1, 7))
              + "   all  rounds/game  decisions/game  us/decision")
    for name in () if args.skip_plain else ("random", "passive", "heuristic"):
        row, total_t, rounds, decisions = [], 0.0, 0, 0
        for players in range(1, 7):
            game = Game(cards, players)
            best = float("inf")
            for _ in range(max(1, args.repeat)):
                t = time.perf_counter()
                n_rounds = n_decisions = 0
                for seed in range(args.games):
                    st = game.new_state(seed)
                    n_rounds += play(st, AGENTS[name](seed)).round
                    n_decisions += len(st.decisions)
                best = min(best, time.perf_counter() - t)
            rounds += n_rounds  # the same games every repeat
            decisions += n_decisions
            total_t += best
            row.append(args.games / best)
        n = 6 * args.games
        print(f"{name:<10} " + " ".join(f"{r:13.0f}" for r in row) + f"  {n / total_t:4.0f}"
              f"  {rounds / n:11.1f}  {decisions / n:14.0f}  {1e6 * total_t / decisions:11.1f}")

    if args.search_games:
        search_table(cards, args.search_games, args.search_agents.split(","))


def search_table(cards: object, games: int, agents: list[str]) -> None:
    from cardkit.games.death_angel import kinds as K
    from cardkit.games.death_angel.search import Search

    print(f"\n{games} games per player count, one run each")
    print(f"{'agent':<14} " + " ".join(f"{p}p s/game".rjust(11) for p in range(1, 7))
          + "  searched/game  ms/searched  rollouts/searched  ms/rollout  wins")
    for name in agents:
        row, total_t, searched, rollouts, wins = [], 0.0, 0, 0, 0
        for players in range(1, 7):
            game = Game(cards, players)  # type: ignore[arg-type]
            t = time.perf_counter()
            for seed in range(games):
                st = game.new_state(seed)
                agent = AGENTS[name](seed)
                assert isinstance(agent, Search)
                while st.decision is not None:
                    d = st.decision
                    if d.kind == K.ACTION and len(d.options) > 1:
                        searched += 1
                        rollouts += agent.rollouts * len(d.options)
                    st.apply(agent(st, d))
                wins += bool(st.outcome and st.outcome.win)
            dt = time.perf_counter() - t
            total_t += dt
            row.append(dt / games)
        print(f"{name:<14} " + " ".join(f"{r:11.2f}" for r in row)
              + f"  {searched / (6 * games):13.1f}  {1e3 * total_t / max(1, searched):11.1f}"
              + f"  {rollouts / max(1, searched):17.1f}  {1e3 * total_t / max(1, rollouts):10.2f}  {wins:4d}")


if __name__ == "__main__":
    main()
