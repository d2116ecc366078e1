"""Playtest reports: the terminal table and the comparison of two card sets."""

from __future__ import annotations

import math
from typing import Any

from cardkit.playtest.sweep import GameRecord


def table(summary: dict[str, Any]) -> str:
    head = f"{'players':>7} {'agent':<10} {'games':>6} {'done':>6} {'win rate':>9} {'95% CI':>15} {'rounds':>7} {'viol.':>5}  verdict"
    lines = [head, "-" * len(head)]
    for s in summary["setups"]:
        lo, hi = s["win_rate_ci95"]
        rounds = s["rounds"]["all"]["median"] if s["rounds"]["all"] else "-"
        lines.append(f"{s['players']:>7} {s['agent']:<10} {s['games']:>6} {s['completed']:>6} {s['win_rate']:>8.1%} "
                     f"{f'[{lo:.1%}, {hi:.1%}]':>15} {rounds:>7} {s['violations']:>5}  {s['verdict']}")
        for f in s["failures"][:3]:
            lines.append(f"        failure: seed {f['seed']} {f['result']} {f['reason']} {f['violations'][:2]}")
    never = summary["coverage"]["never_fired"]
    lines.append(f"cards whose ability fired: {len(summary['coverage']['fired'])}; never fired: {', '.join(never) or 'none'}")
    return "\n".join(lines)


def compare(a: list[GameRecord], b: list[GameRecord]) -> list[dict[str, Any]]:
    """Win-rate difference (b minus a) per setup on common seeds, with a paired 95 % interval."""
    index = {(r.players, r.agent, r.seed): r for r in a}
    out = []
    for key in sorted({(r.players, r.agent) for r in b}):
        pairs = [(index[(r.players, r.agent, r.seed)], r) for r in b
                 if (r.players, r.agent) == key and (r.players, r.agent, r.seed) in index]
        if not pairs:
            continue
        d = [(y.result == "win") - (x.result == "win") for x, y in pairs]
        n = len(d)
        mean = sum(d) / n
        var = sum((v - mean) ** 2 for v in d) / (n - 1) if n > 1 else 0.0
        half = 1.959963984540054 * math.sqrt(var / n) if n > 1 else 1.0
        out.append({"players": key[0], "agent": key[1], "games": n,
                    "win_rate_a": round(sum(x.result == "win" for x, _ in pairs) / n, 4),
                    "win_rate_b": round(sum(y.result == "win" for _, y in pairs) / n, 4),
                    "difference": round(mean, 4), "difference_ci95": [round(mean - half, 4), round(mean + half, 4)]})
    return out
