"""The skill ladder and the verdict: every agent side by side per player count, and a
verdict read from the strongest agent that does not see hidden cards.

A player count is **playable** when every game of every agent completed, no invariant
was violated, every ability took effect somewhere in the sweep, the strongest agent's
win rate lies inside the band (exclusive), and the random agent is clearly below it
(the 95 % interval of the gap between them lies above 0).  The gap between the
strongest agent and random is "skill matters"; agents that see hidden information
(a clairvoyant ceiling) are shown but never judged.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from cardkit.playtest.records import VERDICTS, Interval, LadderAgent, LadderStep, Setup, SkillGap, Verdict
from cardkit.playtest.sweep import Sweep, metric_shares, score_figures, wilson

__all__ = ["DEFAULT_BAND", "VERDICTS", "Verdict", "diff_ci", "is_ceiling", "ladder", "ladder_table",
           "paired_diff_ci"]

DEFAULT_BAND = (0.03, 0.80)  # justified in docs/playtest.md

# Verdict and VERDICTS (from records): a player count's verdict, checked in this order


def is_ceiling(agent: str, ceilings: frozenset[str] = frozenset()) -> bool:
    """An agent that sees hidden information: a ceiling to show, never the agent a verdict reads
    (``ceilings``, from :func:`cardkit.playtest.agents.ceilings`; or its name says ``clairvoyant``)."""
    return agent in ceilings or "clairvoyant" in agent


def diff_ci(x1: int, n1: int, x2: int, n2: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """95 % interval for p1 - p2 of two independent proportions (Newcombe's hybrid score
    interval, method 10 of Newcombe 1998: Wilson intervals of each rate combined).

    Newcombe's own examples (56/70 - 48/80 and 9/10 - 3/10):

    >>> [round(v, 4) for v in diff_ci(56, 70, 48, 80)], [round(v, 4) for v in diff_ci(9, 10, 3, 10)]
    ([0.0524, 0.3339], [0.1705, 0.809])
    """
    p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson(x1, n1, z)
    l2, u2 = wilson(x2, n2, z)
    d = p1 - p2
    return (max(-1.0, d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)),
            min(1.0, d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)))


def paired_diff_ci(both: int, only_1: int, only_2: int, neither: int,
                   z: float = 1.959963984540054) -> tuple[float, float]:
    """95 % interval for p1 - p2 of two proportions read from the same trials (Newcombe's
    paired method 10, Newcombe 1998b): Wilson intervals of each rate, combined with the
    correlation of the pairs.  The cells: trials where both succeeded, only the first, only
    the second, neither (for seats: games both won, only seat 1, only the other, neither).

    In a two-seat game without draws, seat 1's advantage is 2 p1 - 1, and the interval is
    Wilson's interval of p1 carried over exactly:

    >>> lo, hi = paired_diff_ci(0, 30, 10, 0)
    >>> w = wilson(30, 40)
    >>> round(lo, 9) == round(2 * w[0] - 1, 9), round(hi, 9) == round(2 * w[1] - 1, 9)
    (True, True)
    """
    n = both + only_1 + only_2 + neither
    if n == 0:
        return (-1.0, 1.0)
    x1, x2 = both + only_1, both + only_2
    p1, p2 = x1 / n, x2 / n
    l1, u1 = wilson(x1, n, z)
    l2, u2 = wilson(x2, n, z)
    denom = x1 * (n - x1) * x2 * (n - x2)
    phi = (both * neither - only_1 * only_2) / math.sqrt(denom) if denom else 0.0
    d = p1 - p2
    lower = (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2
    upper = (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2
    return (max(-1.0, d - math.sqrt(max(0.0, lower))), min(1.0, d + math.sqrt(max(0.0, upper))))


def ladder(sweep: Sweep, setups: Sequence[Setup], band: tuple[float, float], never_fired: list[str],
           ceilings: frozenset[str] = frozenset()) -> list[LadderStep]:
    """One entry per player count: the agents by win rate, the skill gap and the verdict."""
    out = []
    for players in sorted({s.players for s in setups}):
        rows = []
        for s in (s for s in setups if s.players == players):
            t = sweep.tallies[(players, s.agent)]
            rows.append(LadderAgent(
                s.agent, s.games, s.wins, s.win_rate, s.win_rate_ci95, is_ceiling(s.agent, ceilings),
                s.rounds.all.median if s.rounds.all else None, s.rounds.win.median if s.rounds.win else None,
                metric_shares(t), s.completed, s.violations,
                score_figures(t) if t.info is not None and t.info.score_targets else None))
        rows.sort(key=lambda r: (-r.win_rate, r.agent))
        judged = [r for r in rows if not r.ceiling]
        strongest = judged[0] if judged else None
        random = next((r for r in rows if r.agent == "random"), None)
        gap = None
        if strongest and random and strongest is not random:
            ci = diff_ci(strongest.wins, strongest.games, random.wins, random.games)
            gap = SkillGap(strongest.agent, round(strongest.win_rate - random.win_rate, 4), Interval.of(ci))
        verdict, why = _verdict(rows, strongest, random, gap, band, never_fired)
        out.append(LadderStep(players, tuple(rows), strongest.agent if strongest else None, gap, verdict, why))
    return out


def _verdict(rows: list[LadderAgent], strongest: LadderAgent | None, random: LadderAgent | None,
             gap: SkillGap | None, band: tuple[float, float], never_fired: list[str]) -> tuple[Verdict, str]:
    if any(r.completed < r.games for r in rows):
        bad = ", ".join(r.agent for r in rows if r.completed < r.games)
        return "incomplete games", f"games that did not end in a win or a loss ({bad})"
    if any(r.violations for r in rows):
        return "rule violations", "invariant violations: see the failures and their seeds"
    if strongest is None:
        return "skill untested", "only agents that see hidden cards were played"
    rate = strongest.win_rate
    if rate <= band[0]:
        return "too hard", f"the strongest agent ({strongest.agent}) wins {rate:.1%}, at or below {band[0]:.1%}"
    if rate >= band[1]:
        return "too easy", f"the strongest agent ({strongest.agent}) wins {rate:.1%}, at or above {band[1]:.1%}"
    if random is None or random is strongest:
        return "skill untested", "play the random agent too (--agent random) to see whether skill matters"
    if gap is None or gap.ci95.lo <= 0:
        return "skill does not matter", (f"random play ({random.win_rate:.1%}) is not clearly below "
                                         f"{strongest.agent} ({rate:.1%}): the interval of the gap holds 0")
    if never_fired:
        return "dead cards", f"abilities that never took effect: {', '.join(never_fired)}"
    return "playable", (f"{strongest.agent} wins {rate:.1%} (inside {band[0]:.0%}-{band[1]:.0%}), "
                        f"clearly above random ({random.win_rate:.1%})")


def ladder_table(entries: Sequence[LadderStep], reference: Mapping[str, float] | None = None) -> str:
    """The ladder for the terminal: one line per player count, every agent side by side, then
    each agent's game length, score targets and shares beside the game's own reference figures."""
    agents = sorted({r.agent for e in entries for r in e.agents})
    cols = " ".join(f"{a[:20]:>21}" for a in agents)
    head = f"{'players':>7} {cols} {'skill matters (gap)':>23}  verdict"
    lines = ["skill ladder: win rate [95 % interval] per agent", head, "-" * len(head)]
    for e in entries:
        by = {r.agent: r for r in e.agents}
        cells = []
        for a in agents:
            r = by.get(a)
            cell = f"{r.win_rate:.1%} [{r.ci95.lo:.1%},{r.ci95.hi:.1%}]" if r else "-"
            cells.append(f"{cell:>21}")
        g = e.skill_gap
        gap = f"{g.value:+.1%} [{g.ci95.lo:+.1%},{g.ci95.hi:+.1%}]" if g else "-"
        lines.append(f"{e.players:>7} {' '.join(cells)} {gap:>23}  {e.verdict}: {e.why}")
    if reference:
        figures = ", ".join(f"{k.replace('_', ' ')} {_figure(v)}" for k, v in reference.items())
        lines.append(f"game length and results against the game's own figures ({figures}):")
    else:
        lines.append("game length and results:")
    for e in entries:
        for r in e.agents:
            rw = f"{r.rounds_win_median:g}" if r.rounds_win_median is not None else "-"
            rm = f"{r.rounds_median:g}" if r.rounds_median is not None else "-"
            extra = "".join(f", {k[:-len('_share')].replace('_', ' ')} {v:.0%}" if v is not None else f", {k} -"
                            for k, v in r.shares.items())
            for tg in r.score.targets if r.score else ():
                extra += f", score {tg.target:g}+ {tg.rate:.1%} [{tg.ci95.lo:.1%},{tg.ci95.hi:.1%}]"
            lines.append(f"  {e.players}p {r.agent:<12} median rounds {rm} (wins {rw}), "
                         f"win rate {r.win_rate:.1%}{extra}" + ("  [sees hidden cards]" if r.ceiling else ""))
    return "\n".join(lines)


def _figure(v: float) -> str:
    """A reference figure: a share below 1 as a percentage, else the number."""
    return f"{v:.0%}" if 0 < v < 1 else f"{v:g}"
