"""What one game of each agent costs, in games of random play: the figure the playtest sizes its
batches by (:func:`cardkit.playtest.sweep.batch_games`), measured, beside what the sweep uses
(an engine's declared ``agent_costs``, else the generic rule :func:`cardkit.rules.agents.expected_cost`).

    python bench/bench_agent_cost.py [--root .] [--set death-angel] [--players 1,3] [--games 40]
        [--agent random --agent heuristic --agent search ...]

CPU seconds (this process's user + system time), so a loaded machine changes the figures little;
``--games`` is the random games per player count, the others play a tenth as many per unit of
declared cost (at least 2).
"""

from __future__ import annotations

import argparse
import resource
from pathlib import Path


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=".")
    ap.add_argument("--set", default="death-angel")
    ap.add_argument("--players", default="1,3")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--agent", action="append")
    args = ap.parse_args()
    from cardkit._compiled import engine_build
    from cardkit.playtest.agents import agent_cost, agents_for
    from cardkit.playtest.sweep import _card_set, _game, batch_games, engine_of, play_game

    root = str(Path(args.root).resolve())
    cs = _card_set(root, args.set)
    engine = engine_of(cs)
    names = args.agent or ["random", "heuristic", "search"]
    factories = agents_for(engine, cs, names)
    print(f"engine build: {engine_build()}")
    print(f"{'players':>7} {'agent':<14} {'games':>5} {'CPU s/game':>11} {'measured':>9} {'used':>7} {'batch':>6}")
    for p in (int(x) for x in args.players.split(",")):
        game = _game(root, args.set, None, p)
        base = None
        for name in ["random"] + [n for n in names if n != "random"]:
            used = agent_cost(engine, name)
            n = args.games if name == "random" else max(2, int(args.games / 10 / max(1.0, used / 50)))
            start = cpu()
            for seed in range(10_000, 10_000 + n):
                play_game(game, factories[name], seed, False)
            per = (cpu() - start) / n
            base = per if name == "random" else base
            assert base is not None
            print(f"{p:>7} {name:<14} {n:>5} {per:>11.4f} {per / base:>9.0f} {used:>7.0f} "
                  f"{batch_games(name, cost=used):>6}")


if __name__ == "__main__":
    main()
