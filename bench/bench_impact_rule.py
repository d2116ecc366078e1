"""The ``--games auto --impact`` stopping rule replayed on a fixed-count run's own games, before the expensive run.

    python bench/bench_impact_rule.py --reference tl-impact-300.json [--orders 200] [--seed 1]

A fixed-count ``cardkit playtest ... --impact --format json`` report gives, per impact pair (a card
switched off, one setup), how its ``games`` seeds ended: how many both games won, only the base
game, only the ablated one, neither (from the row's base win rate, change and games changed).  Each
pair is replayed in ``--orders`` random orders of exactly those seeds: every order is data the
fixed run really had, so a rule that stops early sees a plausible first part of it, and a rule that
plays to the maximum sees all of it and must give the fixed run's change.  Every rule stops a pair
with auto's own decision (``cardkit.playtest.auto._judge`` on the pair's
:class:`~cardkit.playtest.sequential.RepeatedIntervals` interval, ``_Unit.change``) after each look.

Printed per rule: seeds per pair, CPU seconds estimated from the measured cost of a pure-Python
Tidelights ``mcts`` game per player count (base games included: a setup plays on while one of its
pairs does), and of the pairs whose fixed interval excludes 0 the share the rule gives the same sign,
the share it leaves holding 0, and how many it gives the opposite sign.  Rules marked "futility"
add a stop that auto does not make (conditional power under the current trend below a threshold,
from the normal approximation): they show what such a stop would cost.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cardkit.playtest.auto import Schedule, _judge, _Unit  # noqa: E402
from cardkit.playtest.sequential import RepeatedIntervals  # noqa: E402

#: CPU seconds of one pure-Python Tidelights ``mcts`` game per player count (issue 34's figures)
COST = {1: 0.33, 2: 0.27, 3: 0.29, 4: 0.14}


@dataclass(frozen=True)
class Pair:
    card: str
    players: int
    seeds: tuple[tuple[float, float], ...]  # (base, ablated) outcome per seed, the fixed run's multiset
    sign: int  # the fixed run's: -1, 0, +1


@dataclass(frozen=True)
class Rule:
    name: str
    schedule: Schedule
    interim_alpha: float = 0.0005
    futility: float | None = None  # stop when the conditional power under the current trend is below this


RULES = (
    Rule("default: looks every 50, max 300", Schedule.for_impact(None, None)),
    Rule("interim alpha 0.001", Schedule.for_impact(None, None), 0.001),
    Rule("interim alpha 0.0001", Schedule.for_impact(None, None), 0.0001),
    Rule("looks every 25, max 300", Schedule(1600, step=25, first=50, impact_max=300)),
    Rule("futility, power < 1 %", Schedule.for_impact(None, None), futility=0.01),
    Rule("futility, power < 5 %", Schedule.for_impact(None, None), futility=0.05),
    Rule("futility, power < 10 %", Schedule.for_impact(None, None), futility=0.10),
)


def from_reference(path: Path) -> list[Pair]:
    rep = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for row in rep["impact"]:
        if "effect" not in row:
            continue
        n = row["games"]
        delta = round(row["win_rate_delta"] * n)
        changed = row["games_changed"]
        up, down = (changed + delta) // 2, (changed - delta) // 2
        both = round(row["win_rate_base"] * n) - down
        seeds = ((1.0, 1.0),) * both + ((1.0, 0.0),) * down + ((0.0, 1.0),) * up + ((0.0, 0.0),) * (n - both - down - up)
        lo, hi = row["ci95"]
        out.append(Pair(row["card"], row["players"], seeds, 0 if lo <= 0 <= hi else (1 if lo > 0 else -1)))
    return out


def futile(u: _Unit, final_z: float, n_max: int, power: float) -> bool:
    """Conditional power under the current trend (the B-value's drift) below ``power``."""
    n = u.games
    if n >= n_max:
        return False
    diffs = [v - b for b, v in u.pairs]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    z = abs(mean) / math.sqrt(var / n) if var > 0 else 0.0
    t = n / n_max
    return 1.0 - NormalDist().cdf((final_z - z / math.sqrt(t)) / math.sqrt(1.0 - t)) < power


def replay(order: list[tuple[float, float]], rule: Rule) -> tuple[int, int]:
    """Seeds played and the sign found (0: the interval holds 0) for one order of a pair's seeds."""
    s = rule.schedule
    design = RepeatedIntervals(s.impact_looks, interim_alpha=rule.interim_alpha)
    u = _Unit("impact", 1, "mcts", "card")
    r = 0
    while not u.stopped:
        target = min(s.target(r), s.impact_cap, len(order))
        u.pairs.extend(order[u.games:target])
        r += 1
        _judge({}, {}, {}, {("card", 1, "mcts"): u}, (0.03, 0.80), None, None, frozenset(), False,
               target >= s.max_games, s.impact_cap, lambda v: v.change(design, False))
        if not u.stopped and rule.futility is not None and futile(u, design.z(s.impact_cap), s.impact_cap,
                                                                  rule.futility):
            u.stopped = "futile"
    lo, hi = u.change(design, False)
    return u.games, (0 if lo <= 0 <= hi else (1 if lo > 0 else -1))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reference", type=Path, required=True, help="a fixed-count --impact --format json report")
    ap.add_argument("--orders", type=int, default=200, help="random orders of each pair's seeds")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    pairs = from_reference(args.reference)
    started = time.process_time()
    fixed_n = max(len(p.seeds) for p in pairs)
    counts = sorted({p.players for p in pairs})
    fixed_cpu = sum(len(p.seeds) * COST.get(p.players, 0.3) for p in pairs) + fixed_n * sum(COST.get(c, 0.3) for c in counts)
    clear = sum(1 for p in pairs if p.sign)
    print(f"{len(pairs)} pairs from {args.reference.name}, each replayed in {args.orders} orders of its own seeds; the "
          f"fixed {fixed_n}-seed interval excludes 0 for {clear}; that run's impact games cost about {fixed_cpu:,.0f} "
          "CPU s (pure)")
    print(f"{'rule':<36} {'seeds/pair':>10} {'CPU s (est.)':>12} {'vs fixed':>8} {'same sign':>10} {'holds 0':>8} "
          f"{'opposite':>8}")
    for rule in RULES:
        rng = random.Random(args.seed)
        seeds = cpu = 0.0
        same = holds = opposite = 0
        for _ in range(args.orders):
            longest: dict[int, int] = {}
            for p in pairs:
                order = list(p.seeds)
                rng.shuffle(order)
                n, sign = replay(order, rule)
                seeds += n
                cpu += n * COST.get(p.players, 0.3)
                longest[p.players] = max(longest.get(p.players, 0), n)
                if p.sign:
                    same += sign == p.sign
                    holds += sign == 0
                    opposite += sign == -p.sign
            cpu += sum(n * COST.get(c, 0.3) for c, n in longest.items())  # the base games
        runs = args.orders
        print(f"{rule.name:<36} {seeds / runs / len(pairs):>10.0f} {cpu / runs:>12,.0f} {cpu / runs / fixed_cpu:>8.0%} "
              f"{same / max(1, clear * runs):>10.1%} {holds / max(1, clear * runs):>8.1%} {opposite:>8}")
    print(f"(replay: {time.process_time() - started:.0f} CPU s)")


if __name__ == "__main__":
    main()
