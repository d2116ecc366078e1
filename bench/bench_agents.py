"""Generic agents on any engine: strength and CPU cost per decision.

    python bench/bench_agents.py [--root tests/games/duel] [--set S] [--players 2] [--games 100]
                                 [--agent random --agent flat-mc:10 --agent mcts:200 ...] [--opponent random]

A competitive game plays each agent against ``--opponent`` in every seat (the
agent in seat k, the opponent in the others, ``--games`` seeds per seat); a
co-operative game seats the agent everywhere.  Prints per agent the win rate
with its Wilson 95 % interval (per seat for a competitive game) and the CPU
milliseconds per decision the agent took (process time, so a shared machine
slows the wall clock but not this figure much).  The test game in
``tests/games/duel`` is registered in-process when ``--root`` is its folder.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from cardkit.load.project import load_project
from cardkit.playtest.sweep import wilson
from cardkit.rules.agents import parse_agent
from cardkit.plugins import engine_for
from cardkit.rules.protocol import CHANCE, Agent, Cooperation, Result

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", type=Path, default=ROOT / "tests" / "games" / "duel")
    ap.add_argument("--set", dest="set_id")
    ap.add_argument("--players", type=int, default=0)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--agent", action="append")
    ap.add_argument("--opponent", default="random")
    args = ap.parse_args()
    if args.root.resolve() == (ROOT / "tests" / "games" / "duel").resolve():
        from cardkit.plugins import register

        sys.path.insert(0, str(ROOT))  # the test game lives in the repository's tests
        from tests.games.duel.engine import PLUGIN

        register(PLUGIN)
    project = load_project(args.root)
    card_set = project.card_set(args.set_id or min(project.sets))
    engine = engine_for(card_set.game, "bench")
    info = engine.info(card_set)
    players = args.players or info.min_players
    game = engine.new_game(card_set, players)
    competitive = info.cooperation is Cooperation.COMPETITIVE and players > 1
    opponent = parse_agent(args.opponent, engine, card_set).factory
    print(f"{card_set.game}, {players} players, {args.games} games per seat, opponent {args.opponent if competitive else '-'}")
    print(f"{'agent':<16} {'seat':>4} {'wins':>6} {'rate':>6}  {'95% interval':<16} {'ms/decision':>11}")
    for name in args.agent or ["random", "flat-mc:10", "mcts:50", "mcts:200", "clairvoyant:200"]:
        factory = parse_agent(name, engine, card_set).factory
        spent, asked = 0.0, 0
        seats = range(players) if competitive else [0]
        total_wins = 0
        for seat in seats:
            wins = 0
            for g in range(args.games):
                s = args.seed + g
                st = game.new_state(s)
                agents: list[Agent] = [(factory if (k == seat or not competitive) else opponent)(s * 31 + k)
                                       for k in range(players)]
                chance = random.Random(s)
                while (d := st.decision) is not None:
                    if d.player == CHANCE:
                        outcomes = st.chance_outcomes()
                        x, acc, pick = chance.random(), 0.0, outcomes[-1][0]
                        for o, p in outcomes:
                            acc += p
                            if x < acc:
                                pick = o
                                break
                        st.apply(pick)
                        continue
                    mine = d.player == seat or not competitive
                    t = time.process_time()
                    option = agents[d.player](st, d)
                    if mine:
                        spent += time.process_time() - t
                        asked += 1
                    st.apply(option)
                result = st.result()
                wins += result is not None and result.seats[seat].result is Result.WIN
            total_wins += wins
            lo, hi = wilson(wins, args.games)
            label = str(seat) if competitive else "all"
            print(f"{name:<16} {label:>4} {wins:>6} {wins / args.games:>6.1%}  [{lo:.1%}, {hi:.1%}]{'':<3}"
                  f" {1000 * spent / max(1, asked):>11.2f}")
        if competitive:
            n = args.games * players
            lo, hi = wilson(total_wins, n)
            print(f"{name:<16} {'any':>4} {total_wins:>6} {total_wins / n:>6.1%}  [{lo:.1%}, {hi:.1%}]")


if __name__ == "__main__":
    main()
