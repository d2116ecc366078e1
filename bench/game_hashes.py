"""Hashes of seeded Death Angel games, to show that a change of the engine plays the same games.

For each agent and player count, ``--games`` games (seeds 0..games-1) are played and each game's
decisions (text forms), events and outcome are hashed; one SHA-256 per agent and player count
(over the games in seed order) is printed as a table row and, with ``--save``, written to a JSON
file.  ``--against FILE`` compares with saved hashes and exits 1 on any difference.

    python bench/game_hashes.py --save /tmp/hashes-main.json          # in a checkout of the old head
    python bench/game_hashes.py --against /tmp/hashes-main.json       # in the changed checkout

Run an old head's code read-only with ``PYTHONPATH=/path/to/checkout python /path/to/checkout/...``
or with this script and ``PYTHONPATH`` pointing at the other checkout (its ``cardkit`` wins).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

from hashcells import save_or_compare  # (bench/, the script's own folder)

ROOT = Path(__file__).resolve().parents[1]


def game_hash(st: object) -> str:
    h = hashlib.sha256()
    h.update(repr([o.text() for o in st.decisions]).encode())  # type: ignore[attr-defined]
    h.update(repr(st.events).encode())  # type: ignore[attr-defined]
    h.update(repr(st.outcome).encode())  # type: ignore[attr-defined]
    return h.hexdigest()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--agents", default="random,heuristic")
    ap.add_argument("--players", default="1,2,3,4,5,6")
    ap.add_argument("--root", type=Path, default=ROOT, help="project holding cards/death-angel")
    ap.add_argument("--save", type=Path)
    ap.add_argument("--against", type=Path)
    args = ap.parse_args()
    import cardkit
    from cardkit._compiled import engine_build
    from cardkit.games.death_angel.agents import AGENTS, play
    from cardkit.games.death_angel.engine import Game
    from cardkit.load.project import load_project

    cards = load_project(args.root).card_set("death-angel")
    print(f"cardkit from {Path(cardkit.__file__).parent}; rules engine: {engine_build()}; {args.games} games per cell")
    result: dict[str, str] = {}
    for name in args.agents.split(","):
        for players in (int(p) for p in args.players.split(",")):
            game = Game(cards, players)
            h = hashlib.sha256()
            for seed in range(args.games):
                st = game.new_state(seed)
                play(st, AGENTS[name](seed))
                h.update(game_hash(st).encode())
            result[f"{name}/{players}"] = h.hexdigest()
            print(f"{name:<12} {players}p  {h.hexdigest()[:16]}", flush=True)
    return save_or_compare(result, args.save, args.against)


if __name__ == "__main__":
    sys.exit(main())
