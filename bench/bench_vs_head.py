"""Heuristic games per CPU second of this checkout's Death Angel engine beside another
checkout's (by default the main worktree), measured in one run.

Each timing runs in a fresh child process (``PYTHONPATH`` set to the checkout, so its own
``cardkit`` is imported) that loads the set, plays ``--games`` seeded heuristic games at every
player count 1-6 and reports its own process CPU time for the play alone.  The two checkouts
alternate ``--repeat`` times (each first in every other round) and each keeps its best (fastest) run: on a shared machine the
slow runs measure the neighbours, not the engine.  ``--compiled`` leaves the build choice to the
checkouts (by default both run pure Python, ``CARDKIT_PURE=1``).

    python bench/bench_vs_head.py [--other /work/main] [--this .] [--games 100] [--repeat 5]

Compare checkouts on the same file system (e.g. two ``git archive`` copies under ``/tmp``): on the
shared machine, one commit's code run from ``/tmp`` and from ``/work`` differed by about 5 %.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys, time
from cardkit._compiled import engine_build
from cardkit.games.death_angel.agents import AGENTS, play
from cardkit.games.death_angel.engine import Game
from cardkit.load.project import load_project
cards = load_project(sys.argv[1]).card_set("death-angel")
games = [Game(cards, p) for p in range(1, 7)]
n = int(sys.argv[2])
t = time.process_time()
decisions = 0
for game in games:
    for seed in range(n):
        st = game.new_state(seed)
        play(st, AGENTS["heuristic"](seed))
        decisions += len(st.decisions)
print(json.dumps({"cpu": time.process_time() - t, "games": 6 * n, "decisions": decisions, "build": engine_build()}))
"""


def run(tree: Path, games: int, pure: bool) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    if pure:
        env["CARDKIT_PURE"] = "1"
    out = subprocess.run([sys.executable, "-c", CHILD, str(tree), str(games)], env=env, cwd=tree,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--other", type=Path, default=Path("/work/main"))
    ap.add_argument("--this", type=Path, default=ROOT, help="the checkout compared (default: this one)")
    ap.add_argument("--games", type=int, default=100, help="heuristic games per player count (1-6) per run")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--compiled", action="store_true", help="let each checkout run its compiled build if it has one")
    args = ap.parse_args()
    trees = {"this": args.this.resolve(), "other": args.other.resolve()}
    best: dict[str, dict[str, object]] = {}
    for i in range(args.repeat):
        for name in (("this", "other") if i % 2 == 0 else ("other", "this")):  # either goes first as often
            tree = trees[name]
            r = run(tree, args.games, not args.compiled)
            if name not in best or float(r["cpu"]) < float(best[name]["cpu"]):  # type: ignore[arg-type]
                best[name] = r
    print(f"heuristic agent, {6 * args.games} games (players 1-6) per run, best of {args.repeat}, process CPU time")
    print(f"{'checkout':<36}{'build':<22}{'games/s':>10}{'decisions':>11}")
    for name, tree in trees.items():
        r = best[name]
        print(f"{str(tree):<36}{str(r['build']).split(' (')[0]:<22}{int(r['games']) / float(r['cpu']):>10.0f}"  # type: ignore[call-overload]
              f"{int(r['decisions']):>11}")  # type: ignore[call-overload]
    ratio = (float(best["other"]["cpu"]) / float(best["this"]["cpu"]))  # type: ignore[arg-type]
    print(f"this / other speed: {ratio:.3f}")


if __name__ == "__main__":
    main()
