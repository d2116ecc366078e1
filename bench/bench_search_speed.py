"""Generic search speed, two checkouts side by side in one run: prints a table.

    python bench/bench_search_speed.py --head main=/work/wt/base --head branch=/work/wt/branch
                                       [--rounds 3] [--agent mcts] [--case death-angel:1:20 ...]

Each ``--head NAME=DIR`` is a checkout with its own virtual environment in ``DIR/.venv-compiled``
or ``DIR/.venv`` (``--python`` picks another: ``NAME=DIR=PYTHON``); for a compiled comparison
install both with ``CARDKIT_COMPILE=1 pip install -e .``.  ``--pure NAME`` runs that head with
``CARDKIT_PURE=1`` (its sources, cardkit's and a compiled plugin's alike): one checkout twice,
``--head pure=DIR --head compiled=DIR --pure pure``, compares its pure and compiled builds.  The
Tidelights engine runs from the checkout's source folder, compiled when it was installed there
with ``CARDKIT_COMPILE=1 pip install -e examples/tidelights/engine`` (docs/engines.md).  For every case (an engine, a player
count and a number of games, seeds 1..N) and every round, each head plays the same games in a
fresh process, one head after the other (so a change of the machine's load falls on both alike),
and reports the process CPU seconds of its games (``time.process_time``, the loading of the set
excluded) and a hash of their reports.  The table gives games per CPU second per head, the ratio
of the last head to the first, and whether every head played the same games (equal hashes).

Cases (``--case ENGINE:PLAYERS:GAMES``): ``death-angel`` (the bundled set, compiled with cardkit),
``tidelights`` (the example game's pure-Python engine, from its source folder) and ``duel`` (the
competitive test game, pure Python).  Defaults: ``mcts`` (20 playouts a decision) on Death Angel
solo and at three players, Tidelights at two players and the duel.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

CASES = {  # engine -> (set folder under the checkout, set id, plugin to register, extra import path)
    "death-angel": (".", "death-angel", "", ""),
    "tidelights": ("examples/tidelights", "tidelights", "tidelights_engine.plugin:PLUGIN", "examples/tidelights/engine"),
    "duel": ("tests/games/duel", "duel", "tests.games.duel.engine:PLUGIN", ""),
}
DEFAULT_CASES = ("death-angel:1:16", "death-angel:3:6", "tidelights:2:8", "duel:2:300")

CHILD = r"""
import hashlib, importlib, json, random, sys, time
from pathlib import Path
root, set_id, plugin, agent, players, games = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
import cardkit
from cardkit._compiled import engine_build
from cardkit.load.project import load_project
try:
    from cardkit.plugins import engine_for, plugins, register
except ImportError:  # a head before the registry moved (7d48012: cardkit.games)
    from cardkit.games import engine_for, plugins, register
from cardkit.rules.agents import parse_agent, play
if plugin:
    module, _, attr = plugin.partition(":")
    got = getattr(importlib.import_module(module), attr)
    if got.name not in plugins():
        register(got)
card_set = load_project(Path(root)).card_set(set_id)
engine = engine_for(card_set.game, "bench")
game = engine.new_game(card_set, players)
factory = parse_agent(agent, engine, card_set).factory
h = hashlib.sha256()
decisions = 0
start = time.process_time()
for seed in range(1, games + 1):
    state = game.new_state(seed)
    decisions += play(state, [factory(seed)] * players, random.Random(seed))
    report = state.report()
    h.update(repr((decisions, report.result, sorted(report.metrics.items()), sorted(report.fired),
                   report.violations)).encode())
cpu = time.process_time() - start
print(json.dumps({"cpu": cpu, "hash": h.hexdigest(), "decisions": decisions, "build": engine_build(),
                  "cardkit": str(Path(cardkit.__file__).parent)}))
"""


def run(head: Path, python: str, engine: str, players: int, games: int, agent: str,
        pure: bool = False) -> dict[str, object]:
    folder, set_id, plugin, extra = CASES[engine]
    path = [str(head)] + ([str(head / extra)] if extra else [])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path))
    env.pop("CARDKIT_PURE", None)
    if pure:
        env["CARDKIT_PURE"] = "1"
    out = subprocess.run([python, "-c", CHILD, str(head / folder), set_id, plugin, agent, str(players), str(games)],
                         cwd="/", env=env, capture_output=True, text=True, check=True)
    got: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    if Path(str(got["cardkit"])) != head / "cardkit":
        raise SystemExit(f"{head}: imported cardkit from {got['cardkit']}")
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--head", action="append", required=True, help="NAME=DIR[=PYTHON]")
    ap.add_argument("--case", action="append", default=[], help="ENGINE:PLAYERS:GAMES")
    ap.add_argument("--agent", default="mcts")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--pure", action="append", default=[], help="NAME: run that head with CARDKIT_PURE=1")
    args = ap.parse_args()
    heads = []
    for spec in args.head:
        name, _, rest = spec.partition("=")
        folder, _, python = rest.partition("=")
        d = Path(folder).resolve()
        if not python:
            python = next((str(v / "bin" / "python") for v in (d / ".venv-compiled", d / ".venv") if v.is_dir()),
                          sys.executable)
        heads.append((name, d, python))
    cases = [(e, int(p), int(g)) for e, p, g in (c.split(":") for c in (args.case or DEFAULT_CASES))]
    print(f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}; agent {args.agent}; "
          f"{args.rounds} rounds, heads alternating")
    for name, d, python in heads:
        print(f"  {name}: {d} ({python})")
    cpu: dict[tuple[str, int, str], list[float]] = {}
    hashes: dict[tuple[str, int], set[str]] = {}
    builds: dict[str, str] = {}
    decisions: dict[tuple[str, int], int] = {}
    for r in range(args.rounds):
        for engine, players, games in cases:
            for name, d, python in heads if r % 2 == 0 else list(reversed(heads)):
                got = run(d, python, engine, players, games, args.agent, pure=name in args.pure)
                cpu.setdefault((engine, players, name), []).append(float(str(got["cpu"])))
                hashes.setdefault((engine, players), set()).add(str(got["hash"]))
                builds[f"{name} ({engine})"] = str(got["build"])
                decisions[(engine, players)] = int(str(got["decisions"]))
                print(f"    round {r + 1} {engine} {players}p {name}: {float(str(got['cpu'])):.2f} CPU s", flush=True)
    for name, build in builds.items():
        print(f"  {name}: {build}")
    first, last = heads[0][0], heads[-1][0]
    names = [h[0] for h in heads]
    print()
    print("| engine | players | games | decisions | " + " | ".join(f"{n} games/CPU s (median; runs)" for n in names)
          + f" | {last} / {first} | same games |")
    print("|---|---|---|---|" + "---|" * len(names) + "---|---|")
    for engine, players, games in cases:
        rates = {n: [games / c for c in cpu[(engine, players, n)]] for n in names}
        med = {n: statistics.median(v) for n, v in rates.items()}
        cells = " | ".join(f"{med[n]:.3g} ({', '.join(f'{x:.3g}' for x in rates[n])})" for n in names)
        print(f"| {engine} | {players} | {games} | {decisions[(engine, players)]} | {cells} | "
              f"{med[last] / med[first]:.2f}x | {'yes' if len(hashes[(engine, players)]) == 1 else 'NO'} |")
    print(f"\nload average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
