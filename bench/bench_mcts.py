"""Strength and cost of cardkit's generic search agents on an engine, per player count: prints a table.

    python bench/bench_mcts.py [--root R] [--set S] [--players 1-4] [--games N] [--seed S]
                               [--agent random --agent mcts ...]

For each player count and agent, N seeded games (seeds S..S+N-1, the same seeds for every
agent, as the playtest plays them): the win rate of seat 0 with its Wilson 95 % interval, the
mean score, the share of games reaching the lowest score target, decisions per game and the
process CPU seconds per game.  Defaults: the example game Tidelights (its engine imported from
its source folder, nothing installed), players 1-4, 20 games, agents random and mcts.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "tidelights"
sys.path[:0] = [str(ROOT), str(EXAMPLE / "engine")]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--root", type=Path, default=EXAMPLE)
    parser.add_argument("--set", default="tidelights")
    parser.add_argument("--players", default="1-4")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--agent", action="append", default=[])
    args = parser.parse_args()

    from cardkit.plugins import engine_for, plugins, register
    from cardkit.load.project import load_project
    from cardkit.playtest.sweep import wilson
    from cardkit.rules.agents import parse_agent, play
    from cardkit.rules.protocol import Result

    if "tidelights" not in plugins():  # not installed: the engine from its source folder
        from tidelights_engine.plugin import PLUGIN

        register(PLUGIN)
    project = load_project(args.root)
    card_set = project.card_set(args.set)
    engine = engine_for(card_set.game, "bench")
    info = engine.info(card_set)
    low, _, high = args.players.partition("-")
    counts = range(int(low), int(high or low) + 1)
    names = args.agent or ["random", "mcts"]
    target = min(info.score_targets) if info.score_targets else None
    print(f"{'players':>7} {'agent':>14} {'games':>5} {'win':>6} {'95 % interval':>15} {'score':>6} "
          f"{'>=target':>8} {'decisions':>9} {'CPU s/game':>10}")
    for players in counts:
        game = engine.new_game(card_set, players)
        for name in names:
            factory = parse_agent(name, engine, card_set).factory
            wins = reached = decisions = 0
            score = 0.0
            start = time.process_time()
            for seed in range(args.seed, args.seed + args.games):
                state = game.new_state(seed)
                agent = factory(seed)  # one agent for every seat, seeded as the playtest seeds it
                decisions += play(state, [agent] * players, random.Random(seed))
                result = state.result()
                assert result is not None
                wins += result.seats[0].result is Result.WIN
                score += result.seats[0].score
                reached += target is not None and result.seats[0].score >= target
            cpu = time.process_time() - start
            lo, hi = wilson(wins, args.games)
            n = args.games
            print(f"{players:>7} {name:>14} {n:>5} {wins / n:>6.1%} {f'{lo:.1%}-{hi:.1%}':>15} {score / n:>6.1f} "
                  f"{reached / n:>8.0%} {decisions / n:>9.0f} {cpu / n:>10.3f}", flush=True)


if __name__ == "__main__":
    main()
