"""What a copy of a Death Angel game in progress costs, per decision kind.

Games of each ``--agents`` agent are played (seeds 0..games-1 at each player count); at every
decision the state is copied with ``State.fork()`` (the engine protocol's ``clone()`` where the
board is copied, else a replay) ``--copies`` times, and the
process CPU time of those copies is summed per decision kind.  The table gives, per kind, how
many decisions were met, the copies per CPU second and the mean game round at which they were
met (a copy that replays the game costs more the later it is taken).  Whether a kind is copied
or replayed shows in the last column (``copy``: the board is copied; ``replay``: the game is
replayed from its seed and decision log; ``copy+replay``: some of each, as the kind is asked
in several places of the rules).

    python bench/bench_clone.py [--games 10] [--players 1,4] [--copies 1] [--agents heuristic,random]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--players", default="1,4")
    ap.add_argument("--copies", type=int, default=1)
    ap.add_argument("--agents", default="heuristic")
    args = ap.parse_args()
    from cardkit._compiled import engine_build
    from cardkit.games.death_angel.agents import AGENTS
    from cardkit.games.death_angel.engine import Game
    from cardkit.load.project import load_project

    cards = load_project(ROOT).card_set("death-angel")
    seconds: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    rounds: dict[str, int] = defaultdict(int)
    how: dict[str, set[str]] = defaultdict(set)
    for players, name in ((int(p), a) for p in args.players.split(",") for a in args.agents.split(",")):
        game = Game(cards, players)
        for seed in range(args.games):
            st = game.new_state(seed)
            agent = AGENTS[name](seed)
            while st.decision is not None:
                kind = st.decision.kind
                how[kind].add("copy" if st.copies() else "replay")
                t = time.process_time()
                for _ in range(args.copies):
                    st.fork()
                seconds[kind] += time.process_time() - t
                count[kind] += 1
                rounds[kind] += st.round
                st.apply(agent(st, st.decision))
    print(f"rules engine: {engine_build()}; {args.agents} games: {args.games} per player count {args.players}; "
          f"{args.copies} copies per decision; process CPU time")
    print(f"{'decision kind':<20}{'met':>8}{'copies/s':>12}{'mean round':>12}  how")
    total_s = sum(seconds.values())
    total_n = sum(count.values()) * args.copies
    for kind in sorted(count, key=lambda k: -count[k]):
        n = count[kind] * args.copies
        rate = n / seconds[kind] if seconds[kind] else float("inf")
        print(f"{kind:<20}{count[kind]:>8}{rate:>12.0f}{rounds[kind] / count[kind]:>12.1f}  {'+'.join(sorted(how[kind]))}")
    print(f"{'all':<20}{sum(count.values()):>8}{total_n / total_s:>12.0f}")


if __name__ == "__main__":
    main()
