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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from cardkit.playtest.records import (VERDICTS, AnytimeIntervals, Balance, Estimate, Figure_, Interval, LadderAgent,
                                      LadderStep, SeatBalance, Setup, SkillGap, Verdict, score_text)
from cardkit.playtest.stats import bradley_terry, seed_diff_ci, welch_ci
from cardkit.rules.agents import is_ceiling as rule_is_ceiling
from cardkit.playtest.sweep import Sweep, metric_shares, score_figures, wilson
from cardkit.rules.protocol import Cooperation, EngineInfo, Outcome

__all__ = ["DEFAULT_BAND", "VERDICTS", "Verdict", "diff_ci", "is_ceiling", "ladder", "ladder_table",
           "paired_diff_ci"]

DEFAULT_BAND = (0.03, 0.80)  # justified in docs/playtest.md

# Verdict and VERDICTS (from records): a player count's verdict, checked in this order


def is_ceiling(agent: str, ceilings: frozenset[str] = frozenset()) -> bool:
    """An agent that sees hidden information: a ceiling to show, never the agent a verdict reads
    (``ceilings``, from :func:`cardkit.playtest.agents.ceilings`; else by its name alone, the rule
    of :func:`cardkit.rules.agents.is_ceiling`)."""
    return agent in ceilings or rule_is_ceiling(agent)


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


def _figure_kind(info: EngineInfo | None) -> Figure_:
    """What the ladder ranks by, as the game declares its outcome."""
    if info is not None and info.outcome is Outcome.SCORED:
        return "mean score"
    if info is not None and info.cooperation is Cooperation.COMPETITIVE:
        return "rating"
    return "win rate"


@dataclass(frozen=True)
class _Matchups:
    """The matchup games of one player count, between judged agents: points (a win 1, a draw 1/2)
    and games per ordered pair, wins per ordered pair."""

    points: dict[tuple[str, str], tuple[float, float]]  # (a, b) -> (a's points, games), each pair once
    wins: dict[tuple[str, str], int]  # (a, b) -> a's wins against b
    games: dict[tuple[str, str], int]  # (a, b) -> games (both seatings)
    #: (a, b) -> a's points per seed (both seatings of one deal) -> seeds: the rating's clusters
    seeds: dict[tuple[str, str], dict[tuple[float, int], int]]

    @classmethod
    def of(cls, sweep: Sweep, players: int, judged: set[str]) -> _Matchups:
        points, wins, games, seeds = {}, {}, {}, {}
        for (p, a, b), m in sorted(sweep.matchups.items()):
            if p != players or a not in judged or b not in judged:
                continue
            n = 2 * m.seeds
            done = n - m.incomplete
            aw, bw = m.a_first + m.a_second, m.b_first + m.b_second
            points[(a, b)] = (aw + (done - aw - bw) / 2, float(done))
            wins[(a, b)], wins[(b, a)] = aw, bw
            games[(a, b)] = games[(b, a)] = n
            seeds[(a, b)] = dict(m.seed_points)
        return cls(points, wins, games, seeds)

    def diff(self, a: str, b: str) -> tuple[float, tuple[float, float]] | None:
        """a's win rate minus b's in their games against each other, its interval clustered by seed
        (:func:`~cardkit.playtest.stats.seed_diff_ci`: both seatings of a seed share its deal, so
        they are one trial, not two); never narrower than Newcombe's paired interval over the games
        (one's win is the other's loss), which is kept when the seeds are too few or agree too well
        (a seat that decides games makes a seed's two games split)."""
        n = self.games.get((a, b), 0)
        if not n:
            return None
        aw, bw = self.wins[(a, b)], self.wins[(b, a)]
        lo, hi = paired_diff_ci(0, aw, bw, n - aw - bw)
        if (a, b) in self.seeds:
            clustered = seed_diff_ci(self.seeds[(a, b)])
        else:  # (the pair is kept once, as b against a: b's points, the difference turned round)
            turned = seed_diff_ci(self.seeds.get((b, a), {}))
            clustered = None if turned is None else (-turned[0], (-turned[1][1], -turned[1][0]))
        if clustered is not None:
            lo, hi = min(lo, clustered[1][0]), max(hi, clustered[1][1])
        return round((aw - bw) / n, 4), (lo, hi)


def ladder(sweep: Sweep, setups: Sequence[Setup], band: tuple[float, float], never_fired: list[str],
           ceilings: frozenset[str] = frozenset(), anytime: AnytimeIntervals | None = None) -> list[LadderStep]:
    """One entry per player count: the agents by the figure the game's outcome calls for (win rate,
    mean score, or a rating from the matchups), the agents tied for the top, the skill gap, the
    verdict and, for a competitive game, the first seat's advantage as a balance finding.
    ``anytime``: a sequential sweep's intervals of the differences, which then decide ties and the gap."""
    info = next((t.info for t in sweep.tallies.values() if t.info is not None), None)
    kind = _figure_kind(info)
    out = []
    for players in sorted({s.players for s in setups}):
        mine = [s for s in setups if s.players == players]
        judged_names = {s.agent for s in mine if not is_ceiling(s.agent, ceilings)}
        table = _Matchups.of(sweep, players, judged_names) if kind == "rating" else None
        ratings = {}
        if table is not None and table.points:
            anchor = "random" if "random" in judged_names else None
            ratings = bradley_terry(sorted(judged_names), table.points, anchor, seeds=table.seeds)
        rows = []
        for s in mine:
            t = sweep.tallies[(players, s.agent)]
            ceiling = is_ceiling(s.agent, ceilings)
            figure: Estimate | None = Estimate(s.win_rate, s.win_rate_ci95)
            vs_random = matchup_games = None
            if kind == "mean score":
                figure = s.mean_score
            elif kind == "rating":
                figure = None
                if s.agent in ratings:
                    r, ci = ratings[s.agent]
                    figure = Estimate(round(r, 1), Interval.of(ci, 1))
                if table is not None and table.points and not ceiling:
                    n = table.games.get((s.agent, "random"), 0)
                    if n and s.agent != "random":
                        w = table.wins[(s.agent, "random")]
                        vs_random = Estimate(round(w / n, 4), Interval.of(wilson(w, n)))
                    matchup_games = sum(g for (a, _), g in table.games.items() if a == s.agent)
            rows.append(LadderAgent(
                s.agent, s.games, s.wins, s.win_rate, s.win_rate_ci95, ceiling,
                s.rounds.all.median if s.rounds.all else None, s.rounds.win.median if s.rounds.win else None,
                metric_shares(t), s.completed, s.violations,
                score_figures(t) if t.info is not None and t.info.score_targets else None,
                figure, vs_random, matchup_games))
        rows.sort(key=lambda r: (-_value(r), r.agent))  # the name orders the display only, never a tie
        judged = [r for r in rows if not r.ceiling and r.figure is not None]
        diff = _differ(kind, sweep, players, table, anytime)
        leader = max(judged, key=lambda r: (_value(r), r.figure.ci95.lo if r.figure else 0.0, r.games),
                     default=None)
        tied = tuple(r.agent for r in judged if leader is not None and (r is leader or _holds_zero(diff(leader, r))))
        random = next((r for r in rows if r.agent == "random"), None)
        best = [r for r in judged if r.agent != "random" and (r.agent in tied or "random" in tied)]
        pick = max(best or [r for r in judged if r.agent != "random"],
                   key=lambda r: (_value(r), r.figure.ci95.lo if r.figure else 0.0, r.games), default=None)
        gap = None
        if pick is not None and random is not None and random.figure is not None:
            d = diff(pick, random)
            if d is not None:
                gap = SkillGap(pick.agent, round(d[0], 4), Interval.of(d[1]))
        strongest = tied[0] if len(tied) == 1 else None
        if kind == "rating" and table is not None and not table.points:
            verdict: Verdict = "skill untested"
            why = (f"a competitive game is judged from matchups: play two or more agents at 2 players "
                   f"(none at {players})")
            leader = None
        else:
            verdict, why = _verdict(rows, leader, random, gap, band if kind != "rating" else (-math.inf, math.inf),
                                    never_fired, kind=kind, tied=tied)
        balance = None
        if kind == "rating" and leader is not None:
            own = next((s for s in mine if s.agent == leader.agent), None)
            adv = (own.first_seat_advantage or ()) if own is not None else ()
            if adv:
                a = max(adv, key=lambda x: abs(x.difference))
                finding: Balance = ("first seat ahead" if a.ci95.lo > 0 else "first seat behind" if a.ci95.hi < 0
                                    else "no seat advantage")
                balance = SeatBalance(leader.agent, a.difference, a.ci95, finding)
        out.append(LadderStep(players, tuple(rows), strongest, gap, verdict, why, kind, tied, balance))
    return out


def _value(r: LadderAgent) -> float:
    return r.figure.value if r.figure is not None else -math.inf


def _holds_zero(d: tuple[float, tuple[float, float]] | None) -> bool:
    return d is None or d[1][0] <= 0 <= d[1][1]


def _differ(kind: Figure_, sweep: Sweep, players: int, table: _Matchups | None,
            anytime: AnytimeIntervals | None = None
            ) -> Callable[[LadderAgent, LadderAgent], tuple[float, tuple[float, float]] | None]:
    """How two agents of one player count are compared: the difference of their figures with its
    95 % interval (the same test decides ties and the skill gap); a sequential sweep's
    anytime-valid interval of the difference where it has one."""
    plain = _plain_differ(kind, sweep, players, table)
    if anytime is None:
        return plain
    seq = anytime.matchups if kind == "rating" else anytime.gaps

    def differ(a: LadderAgent, b: LadderAgent) -> tuple[float, tuple[float, float]] | None:
        d = plain(a, b)
        iv = seq.get((players, a.agent, b.agent))
        return d if d is None or iv is None else (d[0], iv)
    return differ


def _plain_differ(kind: Figure_, sweep: Sweep, players: int, table: _Matchups | None
                  ) -> Callable[[LadderAgent, LadderAgent], tuple[float, tuple[float, float]] | None]:
    def rates(a: LadderAgent, b: LadderAgent) -> tuple[float, tuple[float, float]]:
        return a.win_rate - b.win_rate, diff_ci(a.wins, a.games, b.wins, b.games)

    def scores(a: LadderAgent, b: LadderAgent) -> tuple[float, tuple[float, float]]:
        return welch_ci(sweep.tallies[(players, a.agent)].scores, sweep.tallies[(players, b.agent)].scores)

    def matchups(a: LadderAgent, b: LadderAgent) -> tuple[float, tuple[float, float]] | None:
        return table.diff(a.agent, b.agent) if table is not None else None

    return scores if kind == "mean score" else matchups if kind == "rating" else rates


def _verdict(rows: list[LadderAgent], strongest: LadderAgent | None, random: LadderAgent | None,
             gap: SkillGap | None, band: tuple[float, float], never_fired: list[str],
             kind: Figure_ = "win rate", tied: tuple[str, ...] = ()) -> tuple[Verdict, str]:
    """The verdict of one player count, read from ``strongest``: the judged agent with the best
    figure (when several are tied for the top, the verdict reads the best figure among them and
    names them all)."""
    if any(r.completed < r.games for r in rows):
        bad = ", ".join(r.agent for r in rows if r.completed < r.games)
        return "incomplete games", f"games that did not end in a win or a loss ({bad})"
    if any(r.violations for r in rows):
        return "rule violations", "invariant violations: see the failures and their seeds"
    if strongest is None:
        return "skill untested", "only agents that see hidden cards were played"
    who = strongest.agent if len(tied) <= 1 else " = ".join(sorted(tied))
    if kind == "mean score":
        rate = _value(strongest)
        if rate <= band[0]:
            return "too hard", (f"the strongest agent ({who}) scores {score_text(rate)} on average, at or below "
                                f"{score_text(band[0])}")
        if rate >= band[1]:
            return "too easy", (f"the strongest agent ({who}) scores {score_text(rate)} on average, at or above "
                                f"{score_text(band[1])}")
    elif kind == "win rate":
        rate = strongest.win_rate
        if rate <= band[0]:
            return "too hard", f"the strongest agent ({who}) wins {rate:.1%}, at or below {band[0]:.1%}"
        if rate >= band[1]:
            return "too easy", f"the strongest agent ({who}) wins {rate:.1%}, at or above {band[1]:.1%}"
    if random is None or random is strongest and gap is None:
        return "skill untested", "play the random agent too (--agent random) to see whether skill matters"
    if gap is None or gap.ci95.lo <= 0:
        if kind == "rating":
            return "skill does not matter", (f"in their matchups {gap.agent if gap else who} does not clearly beat "
                                             f"random play: the interval of the gap holds 0")
        if kind == "mean score":
            return "skill does not matter", (f"random play ({score_text(_value(random))}) is not clearly below {who} "
                                             f"({score_text(_value(strongest))}): the interval of the gap holds 0")
        return "skill does not matter", (f"random play ({random.win_rate:.1%}) is not clearly below "
                                         f"{who} ({strongest.win_rate:.1%}): the interval of the gap holds 0")
    if never_fired:
        return "dead cards", f"abilities that never took effect: {', '.join(never_fired)}"
    if kind == "mean score":
        return "playable", (f"{who} scores {score_text(_value(strongest))} on average (inside {score_text(band[0])}-"
                            f"{score_text(band[1])}), clearly above random ({score_text(_value(random))})")
    if kind == "rating":
        return "playable", (f"{gap.agent} beats random play in their matchups ({gap.value:+.1%} "
                            f"[{gap.ci95.lo:+.1%}, {gap.ci95.hi:+.1%}])")
    return "playable", (f"{who} wins {strongest.win_rate:.1%} (inside {band[0]:.0%}-{band[1]:.0%}), "
                        f"clearly above random ({random.win_rate:.1%})")


def _cell(kind: Figure_, e: Estimate | None) -> str:
    """A ladder figure with its interval, as the terminal shows it."""
    if e is None:
        return "-"
    v, lo, hi = e.value, e.ci95.lo, e.ci95.hi
    if kind == "mean score":
        return f"{score_text(v)} [{score_text(lo)},{score_text(hi)}]"
    if kind == "rating":
        return f"{v:+.0f} [{lo:+.0f},{hi:+.0f}]"
    return f"{v:.1%} [{lo:.1%},{hi:.1%}]"


def ladder_table(entries: Sequence[LadderStep], reference: Mapping[str, float] | None = None) -> str:
    """The ladder for the terminal: one line per player count, every agent side by side, then
    each agent's game length, score targets and shares beside the game's own reference figures."""
    agents = sorted({r.agent for e in entries for r in e.agents})
    cols = " ".join(f"{a[:20]:>21}" for a in agents)
    head = f"{'players':>7} {cols} {'skill matters (gap)':>23}  verdict"
    kinds = list(dict.fromkeys(e.figure for e in entries)) or ["win rate"]
    what = {"win rate": "win rate", "mean score": "mean score",
            "rating": "rating (Bradley-Terry over the matchups, Elo points from random play)"}
    lines = [f"skill ladder: {' / '.join(what[k] for k in kinds)} [95 % interval] per agent", head, "-" * len(head)]
    for e in entries:
        by = {r.agent: r for r in e.agents}
        cells = []
        for a in agents:
            r = by.get(a)
            cell = _cell(e.figure, r.figure) if r else "-"
            cells.append(f"{cell:>21}")
        g = e.skill_gap
        if g is None:
            gap = "-"
        elif e.figure == "mean score":
            gap = f"{score_text(g.value, True)} [{score_text(g.ci95.lo, True)},{score_text(g.ci95.hi, True)}]"
        else:
            gap = f"{g.value:+.1%} [{g.ci95.lo:+.1%},{g.ci95.hi:+.1%}]"
        lines.append(f"{e.players:>7} {' '.join(cells)} {gap:>23}  {e.verdict}: {e.why}")
        if len(e.strongest_set) > 1:
            lines.append(f"{'':>7} tied for the strongest (the 95 % interval of their difference holds 0): "
                         f"{', '.join(sorted(e.strongest_set))}")
        if e.balance is not None:
            b = e.balance
            lines.append(f"{'':>7} first seat minus second ({b.agent} against itself): {b.difference:+.1%} "
                         f"[{b.ci95.lo:+.1%},{b.ci95.hi:+.1%}]: {b.finding}")
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
            if e.figure == "mean score" and r.figure is not None:
                extra += f", mean score {_cell(e.figure, r.figure)}"
            if e.figure == "rating":
                if r.vs_random is not None:
                    extra += f", against random {_cell('win rate', r.vs_random)}"
                if r.figure is not None:
                    extra += f", rating {_cell(e.figure, r.figure)} over {r.matchup_games} matchup games"
            for tg in r.score.targets if r.score else ():
                extra += f", score {score_text(tg.target)}+ {tg.rate:.1%} [{tg.ci95.lo:.1%},{tg.ci95.hi:.1%}]"
            # a scored game has no wins: neither the rounds of won games nor a win rate says anything of it
            outcome = "" if e.figure == "mean score" else f" (wins {rw}), win rate {r.win_rate:.1%}"
            lines.append(f"  {e.players}p {r.agent:<12} median rounds {rm}{outcome}{extra}"
                         + ("  [sees hidden cards]" if r.ceiling else ""))
    return "\n".join(lines)


def score_rounds_table(setups: Sequence[Setup]) -> str:
    """A scored game's score over game length (per setup, the games that ended after each number of
    rounds and their mean score) and its score distribution; empty for a game that is not scored."""
    lines = []
    for s in setups:
        if s.score_by_rounds:
            cells = "; ".join(f"{r}: {g} games, mean {score_text(m)}" for r, (g, m) in sorted(s.score_by_rounds.items()))
            lines.append(f"  {s.players}p {s.agent}: {cells}")
    spread = []
    for s in setups:
        if s.score_histogram:
            spread.append(f"  {s.players}p {s.agent}: "
                          + ", ".join(f"{score_text(v)}: {g}" for v, g in sorted(s.score_histogram.items())))
    if not lines:
        return ""
    return "\n".join(["score by game length (rounds: games ending then, their mean score)", *lines,
                      "score distribution (score: games)", *spread])


def _figure(v: float) -> str:
    """A reference figure: a share below 1 as a percentage, else the number."""
    return f"{v:.0%}" if 0 < v < 1 else f"{v:g}"
