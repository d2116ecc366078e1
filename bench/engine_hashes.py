"""Hashes of seeded games of any engine (through the typed protocol), to show that a change plays
the same games: prints a table.

    python bench/engine_hashes.py [--root R] [--set S] [--players 1-4] [--games N] [--seed S]
                                  [--agents random,heuristic,mcts] [--save F] [--against F]
                                  [--plugin module:PLUGIN]

For each agent and player count, ``--games`` games (seeds S..S+N-1, every seat played by one agent
made from the seed, chance from ``random.Random(seed)``, as ``bench/bench_mcts.py`` plays them) are
played; every decision's kind, seat and chosen option (text form) and the finished game's report
(result, metrics, abilities fired) are hashed, one SHA-256 per agent and player count.  ``--save``
writes them to a JSON file, ``--against`` compares and exits 1 on any difference; ``--plugin``
registers a game plugin from an importable module (a test game: ``tests.games.duel.engine:PLUGIN``).  Defaults: the
example game Tidelights, its engine imported from its source folder.  Death Angel's own
``bench/game_hashes.py`` hashes its event log as well; this one needs nothing but the protocol.

Run an old head's code with ``PYTHONPATH=/path/to/checkout:/path/to/checkout/examples/tidelights/engine``
(its ``cardkit`` and engine win over this checkout's, and the script says which it ran).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import sys
from pathlib import Path

from hashcells import save_or_compare  # (bench/, the script's own folder)

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "tidelights"
_AFTER = 1 + len([p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
sys.path[_AFTER:_AFTER] = [str(ROOT), str(EXAMPLE / "engine")]  # after PYTHONPATH's entries


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--root", type=Path, default=EXAMPLE)
    ap.add_argument("--set", default="tidelights")
    ap.add_argument("--players", default="1-4")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--agents", default="random,heuristic,mcts")
    ap.add_argument("--save", type=Path)
    ap.add_argument("--against", type=Path)
    ap.add_argument("--plugin", default="", help="register a game plugin from a module (tests.games.duel.engine:PLUGIN)")
    args = ap.parse_args()

    import cardkit
    from cardkit.plugins import engine_for, plugins, register
    from cardkit.load.project import load_project
    from cardkit.rules.agents import parse_agent, sample_chance
    from cardkit.rules.protocol import CHANCE

    if args.plugin:
        import importlib

        module, _, attr = args.plugin.partition(":")
        register(getattr(importlib.import_module(module), attr or "PLUGIN"))
    if args.set == "tidelights" and "tidelights" not in plugins():
        from tidelights_engine.plugin import PLUGIN

        register(PLUGIN)
    card_set = load_project(args.root).card_set(args.set)
    engine = engine_for(card_set.game, "bench")
    print(f"cardkit from {Path(cardkit.__file__).parent}; engine {type(engine).__module__} "
          f"from {Path(sys.modules[type(engine).__module__].__file__ or '').parent}; {args.games} games per cell")
    low, _, high = args.players.partition("-")
    result: dict[str, str] = {}
    for name in args.agents.split(","):
        factory = parse_agent(name, engine, card_set).factory
        for players in range(int(low), int(high or low) + 1):
            game = engine.new_game(card_set, players)
            h = hashlib.sha256()
            for seed in range(args.seed, args.seed + args.games):
                state = game.new_state(seed)
                agent, chance = factory(seed), random.Random(seed)
                while (d := state.decision) is not None:
                    option = sample_chance(state, chance) if d.player == CHANCE else agent(state, d)
                    h.update(f"{d.player} {d.kind} {option.text()}\n".encode())
                    state.apply(option)
                report = state.report()
                h.update(repr((report.result, sorted(report.metrics.items()), sorted(report.fired),
                               report.violations)).encode())
            result[f"{name}/{players}"] = h.hexdigest()
            print(f"{name:<12} {players}p  {h.hexdigest()[:16]}", flush=True)
    return save_or_compare(result, args.save, args.against)


if __name__ == "__main__":
    sys.exit(main())
