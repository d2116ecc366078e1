"""Playtest reports: the terminal table and the comparison of two card sets."""

from __future__ import annotations

import math
from fractions import Fraction
from cardkit.playtest.records import CompareRow, Interval, Summary, score_text
from cardkit.playtest.sweep import Sweep


def table(summary: Summary) -> str:
    """One line per setup, in the game's outcome: its win rate for a game won or lost, its mean score
    (with a 95 % t interval) for a scored game, which has no wins to count."""
    scored = any(s.mean_score is not None for s in summary.setups)
    figure = f"{'mean score':>10}" if scored else f"{'win rate':>9}"
    head = f"{'players':>7} {'agent':<10} {'games':>6} {'done':>6} {figure} {'95% CI':>15} {'rounds':>7} {'viol.':>5}  verdict"
    lines = [head, "-" * len(head)]
    for s in summary.setups:
        rounds = s.rounds.all.median if s.rounds.all else "-"
        if scored:
            m = s.mean_score
            value = f"{score_text(m.value):>10}" if m is not None else f"{'-':>10}"
            ci = f"[{score_text(m.ci95.lo)}, {score_text(m.ci95.hi)}]" if m is not None else "-"
        else:
            lo, hi = s.win_rate_ci95.lo, s.win_rate_ci95.hi
            value, ci = f"{s.win_rate:>8.1%}", f"[{lo:.1%}, {hi:.1%}]"
        lines.append(f"{s.players:>7} {s.agent:<10} {s.games:>6} {s.completed:>6} {value} "
                     f"{ci:>15} {rounds:>7} {s.violations:>5}  {s.verdict or ''}")
        for f in s.failures[:3]:
            lines.append(f"        failure: seed {f.seed} {f.result} {f.reason} {list(f.violations[:2])}")
    never = summary.coverage.never_fired
    lines.append(f"cards whose ability fired: {len(summary.coverage.fired)}; never fired: {', '.join(never) or 'none'}")
    return "\n".join(lines)


def compare(sweep: Sweep, label: str = "compare") -> list[CompareRow]:
    """Win-rate difference (b minus a) per setup on common seeds, with a paired 95 % interval
    (normal approximation on the per-seed differences)."""
    out = []
    for (lab, players, agent), p in sorted(sweep.paired.items()):
        if lab != label or not p.games:
            continue
        n = p.games
        diff = Fraction(p.only_variant - p.only_base, n)
        # sum over seeds of (d - mean)^2, exactly: d is +1, -1 or 0
        ss = (p.only_variant * (1 - diff) ** 2 + p.only_base * (-1 - diff) ** 2
              + (n - p.only_variant - p.only_base) * diff ** 2)
        half = 1.959963984540054 * math.sqrt(float(ss / (n - 1)) / n) if n > 1 else 1.0
        mean = float(diff)
        out.append(CompareRow(players, agent, n, round(p.wins_base / n, 4), round(p.wins_variant / n, 4),
                              round(mean, 4), Interval.of((mean - half, mean + half))))
    return out
