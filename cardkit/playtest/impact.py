"""Card impact: what each card's ability is worth, measured by switching it off.

For every card with an ability (the engine's :meth:`~cardkit.rules.protocol.Engine.abilities`),
the same seeds are played with the set as it is and with that card's ability switched off
(the engine's game made with ``disabled={card}``: the card is played, its ability never
takes effect).
The paired difference in win rate gets Newcombe's interval for paired
proportions (:func:`paired_ci`), which uses the pairing (the same seeds) and,
unlike the normal approximation, stays sensible when few games differ.  In a scored
game the effect reads the outcome value instead (the first seat's score, paired
differences with a normal interval), never the win rate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Iterable, Mapping

from cardkit.model import CardSet
from cardkit.playtest.records import (Effect, GroupRate, ImpactEntry, ImpactRow, Interval, PairedMetric, TeamTable,
                                      Unswitchable)
from cardkit.playtest.sweep import Batch, Paired, Sweep, Variant, batch_games, hist_median, seed_ranges, wilson
from cardkit.rules.protocol import Engine, Outcome, Switchable

Z95 = 1.959963984540054
GROUP = 22  # cards per batch: each batch replays the base games once for its group
NOT_SWITCHABLE = "the engine cannot switch this card's ability off"


def plan_impact(root: Path, set_id: str, players: Iterable[int], agents: Iterable[str], games: int, seed: int,
                cards: list[str], certify_every: int = 0, costs: Mapping[str, float] | None = None) -> list[Batch]:
    """The base sweep's batches, each also playing its seeds once per ablated card.  Cards go in
    groups of :data:`GROUP`; only the first group's batches count the base games in the report.
    ``costs``: each agent's expected cost of a game, as the plain sweep's plan takes it
    (:func:`cardkit.playtest.agents.agent_costs`; an agent left out is costed by the generic rule)."""
    groups = [tuple(cards[i:i + GROUP]) for i in range(0, len(cards), GROUP)] or [()]
    out = []
    for p in players:
        for a in agents:
            size = min(batch_games(a, len(group), (costs or {}).get(a)) for group in groups)
            for block, start, stop in seed_ranges(games, size):
                certify = bool(certify_every) and block % certify_every == 0
                for g, group in enumerate(groups):
                    out.append(Batch(str(root), set_id, p, a, (seed + start, seed + stop), certify and g == 0,
                                     tuple(Variant(c, str(root), c) for c in group), count_base=g == 0))
    return out


def paired_ci(n: int, wins_base: int, wins_variant: int, only_base: int, only_variant: int,
              z: float = Z95) -> tuple[float, float]:
    """95 % interval for (variant win rate - base win rate) on ``n`` paired games: Newcombe's
    hybrid score interval for paired data (method 10 of Newcombe 1998, Stat. Med. 17:2635, with
    the plain correlation coefficient of the pairs): the Wilson intervals of both rates, combined
    with how strongly the two games of a seed agree.

    >>> [round(x, 4) for x in paired_ci(100, 20, 20, 0, 0)]  # no game changed
    [-0.0222, 0.0222]
    >>> lo, hi = paired_ci(2000, 200, 150, 60, 10); lo < -0.02 < hi < 0
    True
    """
    if n == 0:
        return (-1.0, 1.0)
    p1, p2 = wins_variant / n, wins_base / n
    l1, u1 = wilson(wins_variant, n, z)
    l2, u2 = wilson(wins_base, n, z)
    both = wins_variant - only_variant
    neither = n - wins_base - only_variant
    den = wins_variant * (n - wins_variant) * wins_base * (n - wins_base)
    phi = (both * neither - only_variant * only_base) / math.sqrt(den) if den else 0.0
    d = p1 - p2
    delta = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    eps = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    return (max(-1.0, d - delta), min(1.0, d + eps))


def mean_ci(total: float, squares: float, n: int, z: float = Z95) -> tuple[float, float, float]:
    """Mean of paired differences with a normal 95 % interval (``z``), from their sum and sum of squares."""
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = total / n
    var = (squares - total * total / n) / (n - 1) if n > 1 else 0.0
    half = z * math.sqrt(max(0.0, var) / n)
    return (mean, mean - half, mean + half)


def effect_word(lo: float, hi: float) -> Effect:
    if lo <= 0 <= hi:
        return "no measurable effect"
    return "helps" if hi < 0 else "hurts"  # switching it off lowers the win rate: the ability helps


def impact_rows(sweep: Sweep, card_set: CardSet, cards: list[str], unablatable: list[str],
                note: str = NOT_SWITCHABLE,
                intervals: Mapping[tuple[str, int, str], tuple[float, float]] | None = None,
                stops: Mapping[tuple[str, int, str], str] | None = None) -> list[ImpactEntry]:
    """One row per ablated card and setup, ranked: the cards whose loss costs the most first (wins, or
    in a scored game the outcome value: the first seat's score).  ``intervals``: (card, players,
    agent) -> the interval of the change to report instead of the fixed-count one (a sequential
    sweep's confidence sequence, in the change's own units); ``stops``: why each such pair stopped,
    which words an interval holding 0 (:func:`auto_effect`)."""
    rows = [_row(p, sweep, (intervals or {}).get(key), (stops or {}).get(key))
            for key, p in sweep.paired.items() if key[0] in cards]
    rows.sort(key=lambda r: (r.players, r.agent, r.score_delta if r.score_delta is not None else r.win_rate_delta,
                             r.card))
    out: list[ImpactEntry] = list(rows)
    out += [Unswitchable(cid, note) for cid in unablatable]
    return out


def auto_effect(lo: float, hi: float, stopped: str) -> tuple[Effect, float | None]:
    """What a sequential sweep's pair says, and its margin: the sign when the interval excludes 0; "no
    effect beyond the margin" (+-the interval's farther end) when it stopped as narrow as asked; "not
    settled" when it stopped at the maximum, too wide to tell either way.

    >>> auto_effect(-0.09, -0.01, "clear of 0"), auto_effect(-0.02, 0.031, "precision reached")
    (('helps', None), ('no effect beyond the margin', 0.031))
    >>> auto_effect(-0.2, 0.1, "maximum reached")
    ('not settled', None)
    """
    word = effect_word(lo, hi)
    if word != "no measurable effect":
        return word, None
    if stopped == "precision reached":
        return "no effect beyond the margin", round(max(abs(lo), abs(hi)), 4)
    return "not settled", None


def _row(p: Paired, sweep: Sweep, interval: tuple[float, float] | None = None,
         stopped: str | None = None) -> ImpactRow:
    n = p.games
    delta = (p.wins_variant - p.wins_base) / n
    scored = p.info is not None and p.info.outcome is Outcome.SCORED
    lo, hi = paired_ci(n, p.wins_base, p.wins_variant, p.only_base, p.only_variant)
    if interval is not None and not scored:
        lo, hi = interval
    rb = hist_median(p.rounds_base) if p.rounds_base else None
    rv = hist_median(p.rounds_variant) if p.rounds_variant else None
    base = sweep.tallies.get((p.players, p.agent))
    fired = base.fired.get(p.label, 0) if base else 0
    effect = effect_word(lo, hi)
    score: dict[str, Any] = {}
    if scored:  # the outcome value decides, not the win rate (a scored game may have no winner at all)
        mean, slo, shi = mean_ci(p.value_variant - p.value_base, p.value_diff_sq, n)
        if interval is not None:
            slo, shi = interval
        effect = effect_word(slo, shi)
        score = {"score_base": round(p.value_base / n, 3), "score_ablated": round(p.value_variant / n, 3),
                 "score_delta": round(mean, 3), "score_ci95": Interval.of((slo, shi), 3)}
    margin = None
    if interval is not None and stopped is not None:
        effect, margin = auto_effect(*interval, stopped)
    return ImpactRow(p.label, p.players, p.agent, n, round(p.wins_base / n, 4), round(p.wins_variant / n, 4),
                     round(delta, 4), Interval.of((lo, hi)), p.only_base + p.only_variant,
                     (rv - rb) if rb is not None and rv is not None else None, _paired_metrics(p), fired,
                     p.fired_variant, effect, **score, margin=margin, stopped=stopped)


def _paired_metrics(p: Paired) -> tuple[PairedMetric, ...]:
    """The mean change of every metric the game declared ``paired``."""
    out = []
    for m in p.info.metrics if p.info else ():
        if m.paired:
            mean, lo, hi = mean_ci(p.sums_variant.get(m.name, 0) - p.sums_base.get(m.name, 0),
                                    p.diff_sq.get(m.name, 0), p.games)
            out.append(PairedMetric(m.name, round(mean, 3), Interval.of((lo, hi), 3)))
    return tuple(out)


def _delta(r: ImpactRow, metric: str) -> str:
    v = next((m.delta for m in r.metrics if m.name == metric), None)
    return f"{v:>+6.2f}" if v is not None else f"{'-':>6}"


def team_tables(sweep: Sweep) -> list[TeamTable]:
    """Win rate per group in play (the game's ``GameReport.groups``) and per pairing of groups
    (games in which both were in play) per setup."""
    def table(d: dict[str, list[int]]) -> tuple[GroupRate, ...]:
        rows = [GroupRate(tuple(k.split("+")), g, w, round(w / g, 4) if g else 0.0, Interval.of(wilson(w, g)))
                for k, (g, w) in d.items()]
        return tuple(sorted(rows, key=lambda r: (-r.win_rate, r.teams)))

    return [TeamTable(players, agent, table(t.teams), table(t.pairs)) for (players, agent), t in sorted(sweep.tallies.items())]


def impact_cards(engine: Engine, card_set: CardSet, counts: Sequence[int]) -> tuple[list[str], list[str]]:
    """The ability cards of these player counts that the engine can switch off, and those it cannot."""
    cards = sorted(engine.abilities(card_set, counts))
    can = engine.switchable(card_set, counts) if isinstance(engine, Switchable) else frozenset(cards)
    return [c for c in cards if c in can], [c for c in cards if c not in can]


def unswitchable_note(engine: Engine) -> str:
    return engine.unswitchable_note() if isinstance(engine, Switchable) else NOT_SWITCHABLE


def impact_table(rows: Sequence[ImpactEntry], names: dict[str, str] | None = None) -> str:
    """One line per card and setup; the last number column is the first paired metric's change."""
    names = names or {}
    metric = next((m.name for r in rows if isinstance(r, ImpactRow) for m in r.metrics), "")
    head = (f"{'players':>7} {'agent':<10} {'card':<28} {'win rate':>9} {'off':>7} {'delta':>7} {'95% CI':>17} {'rounds':>6} "
            f"{metric[:6]:>6}  effect")
    lines = [head, "-" * len(head)]
    for r in rows:
        if isinstance(r, Unswitchable):
            lines.append(f"{'':>7} {'':<10} {names.get(r.card, r.card)[:28]:<28} not switchable: {r.note}")
            continue
        lo, hi = r.ci95.lo, r.ci95.hi
        rd = f"{r.rounds_delta:+g}" if r.rounds_delta is not None else "-"
        lines.append(f"{r.players:>7} {r.agent:<10} {names.get(r.card, r.card)[:28]:<28} "
                     f"{r.win_rate_base:>8.1%} {r.win_rate_ablated:>6.1%} {r.win_rate_delta:>+7.1%} "
                     f"{f'[{lo:+.1%}, {hi:+.1%}]':>17} {rd:>6} {_delta(r, metric)}  {r.effect_text()}")
        if r.score_delta is not None and r.score_ci95 is not None:  # a scored game: the effect reads the score
            lines.append(f"{'':>7} {'':<10} {'':<28} mean score {r.score_base:g} -> {r.score_ablated:g} "
                         f"({r.score_delta:+g} [{r.score_ci95.lo:+g}, {r.score_ci95.hi:+g}])")
    return "\n".join(lines)


def team_table(tables: Sequence[TeamTable]) -> str:
    """Win rate per group and per pairing of groups in play, per setup, best first."""
    lines = ["win rate by group and by pairing of groups in play (95 % interval)"]
    for t in tables:
        for kind, groups in (("teams", t.teams), ("pairings", t.pairings)):
            cells = [f"{'+'.join(r.teams)} {r.win_rate:.1%} [{r.ci95.lo:.1%}, {r.ci95.hi:.1%}] of {r.games}"
                     for r in groups]
            lines.append(f"  {t.players}p {t.agent} {kind}: " + "; ".join(cells))
    return "\n".join(lines)
