"""Strength and cost of cardkit's generic search agents on an engine, per player count: prints a table.

    python bench/bench_mcts.py [--root R] [--set S] [--players 1-4] [--games N] [--seed S]
                               [--agent random --agent mcts ...] [--versus random] [--plugin module:PLUGIN]
                               [--seeds-from 1] [--part 1/2]

For each player count and agent, N seeded games (seeds S..S+N-1, the same seeds for every
agent, as the playtest plays them): the win rate of seat 0 with its Wilson 95 % interval, the
mean score with its 95 % interval (t), the share of games reaching the lowest score target,
decisions per game and the process CPU seconds per game.  Defaults: the example game Tidelights
(its engine imported from its source folder, nothing installed), players 1-4, 20 games, agents
random and mcts.

``--versus A`` (a competitive game): each agent plays against A in every seating (seat 0 and
seat 1 of a two-player game, two games per seed) and the win rate and score are the agent's own,
so "mcts beats its rollout policy" reads straight off the table.  ``--plugin`` registers a game
plugin from an importable module (a test game: ``tests.games.duel.engine:PLUGIN``).  ``--part k/n``
plays the k-th of n interleaved shares of the seeds (run the parts on separate cores, add the counts:
the ``wins``/``sum``/``sumsq`` columns of ``--raw``).
"""

from __future__ import annotations

import argparse
import math
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
    parser.add_argument("--versus", default="")
    parser.add_argument("--plugin", default="")
    parser.add_argument("--part", default="1/1")
    parser.add_argument("--raw", action="store_true", help="also print the counts (to add up parts)")
    args = parser.parse_args()

    from cardkit.plugins import engine_for, plugins, register
    from cardkit.load.project import load_project
    from cardkit.playtest.sweep import wilson
    from cardkit.rules.agents import parse_agent, play
    from cardkit.rules.protocol import Result

    if args.plugin:
        import importlib

        module, _, attr = args.plugin.partition(":")
        register(getattr(importlib.import_module(module), attr or "PLUGIN"))
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
    k, _, n_parts = args.part.partition("/")
    seeds = [s for i, s in enumerate(range(args.seed, args.seed + args.games)) if i % int(n_parts) == int(k) - 1]
    versus = parse_agent(args.versus, engine, card_set).factory if args.versus else None
    print(f"{'players':>7} {'agent':>14} {'games':>5} {'win':>6} {'95 % interval':>15} {'score':>6} "
          f"{'95 % interval':>13} {'>=target':>8} {'decisions':>9} {'CPU s/game':>10}"
          + (f" {'wins':>5} {'sum':>9} {'sumsq':>11}" if args.raw else ""))
    for players in counts:
        game = engine.new_game(card_set, players)
        for name in names:
            factory = parse_agent(name, engine, card_set).factory
            wins = reached = decisions = n = 0
            score = squares = 0.0
            start = time.process_time()
            for seed in seeds:
                for seat in range(players) if versus is not None else (0,):
                    state = game.new_state(seed)
                    agent = factory(seed)  # one agent for every seat, seeded as the playtest seeds it
                    if versus is None:
                        seats = [agent] * players
                    else:  # the agent in one seat, the other agent in the others
                        other = versus(seed + 7919)
                        seats = [agent if i == seat else other for i in range(players)]
                    decisions += play(state, seats, random.Random(seed))
                    result = state.result()
                    assert result is not None
                    mine = result.seats[seat]
                    wins += mine.result is Result.WIN
                    score += mine.score
                    squares += mine.score * mine.score
                    reached += target is not None and mine.score >= target
                    n += 1
            cpu = time.process_time() - start
            lo, hi = wilson(wins, n)
            mean = score / n
            sd = math.sqrt(max(0.0, squares / n - mean * mean) * n / max(1, n - 1))
            half = 1.96 * sd / math.sqrt(n)
            print(f"{players:>7} {name:>14} {n:>5} {wins / n:>6.1%} {f'{lo:.1%}-{hi:.1%}':>15} {mean:>6.2f} "
                  f"{f'{mean - half:.2f}-{mean + half:.2f}':>13} {reached / n:>8.0%} {decisions / n:>9.0f} "
                  f"{cpu / n:>10.3f}" + (f" {wins:>5} {score:>9g} {squares:>11g}" if args.raw else ""), flush=True)


if __name__ == "__main__":
    main()
