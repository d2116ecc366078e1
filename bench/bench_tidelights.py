"""Benchmark of the example game's rules engine (examples/tidelights/engine): prints a table.

    python bench/bench_tidelights.py [--games N] [--repeat R] [--mcts BUDGET]

Per player count: games per CPU second of the random and the keeper agents (best of R runs of N
seeded games, process CPU time, steady on a shared machine), their win rate and mean score;
with ``--mcts`` also the generic IS-MCTS agent at that budget (a tenth as many games; CPU
seconds per game).  The engine is imported from its source folder; nothing is installed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "tidelights"
sys.path[:0] = [str(ROOT), str(EXAMPLE / "engine")]

if TYPE_CHECKING:
    from tidelights_engine.engine import TidelightsEngine

    from cardkit.rules.core import Decision, Option
    from cardkit.rules.protocol import Agent, AgentFactory, State


def random_agent(seed: int) -> Agent:
    rng = random.Random(seed)

    def agent(state: State, decision: Decision) -> Option:
        return rng.choice(decision.options)

    return agent


def run(engine: TidelightsEngine, card_set: object, players: int, factory: AgentFactory,
        games: int) -> tuple[float, float, float]:
    from cardkit.rules.protocol import Result

    game = engine.new_game(card_set, players)
    wins, score = 0, 0.0
    start = time.process_time()
    for seed in range(games):
        state, agent = game.new_state(seed), factory(seed)
        while (decision := state.decision) is not None:
            state.apply(agent(state, decision))
        result = state.result()
        assert result is not None
        wins += result.seats[0].result is Result.WIN
        score += result.seats[0].score
    return time.process_time() - start, wins / games, score / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--mcts", default="", help="an IS-MCTS budget, e.g. 50 (playouts per decision)")
    args = parser.parse_args()
    from tidelights_engine.engine import TidelightsEngine

    from cardkit.load.project import load_project

    engine = TidelightsEngine()
    card_set = load_project(EXAMPLE).card_set("tidelights")
    agents: list[tuple[str, AgentFactory, int]] = [("random", random_agent, args.games),
                                                   ("heuristic", engine.agents()["heuristic"], args.games)]
    if args.mcts:
        from cardkit.rules.agents import parse_agent

        name = f"mcts:{args.mcts}"
        agents.append((name, parse_agent(name, engine, card_set).factory, max(1, args.games // 10)))
    print(f"{'players':>7} {'agent':>10} {'games':>6} {'games/CPU s':>12} {'CPU s/game':>11} {'win':>6} {'score':>6}")
    for players in range(1, 5):
        for name, factory, games in agents:
            best = min(run(engine, card_set, players, factory, games) for _ in range(args.repeat if games > 30 else 1))
            cpu, win, score = best
            print(f"{players:>7} {name:>10} {games:>6} {games / cpu:>12,.0f} {cpu / games:>11.4f} {win:>6.1%} {score:>6.1f}")


if __name__ == "__main__":
    main()
