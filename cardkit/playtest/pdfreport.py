"""The playtest report as a PDF in the chosen language: a results table and
three charts (win rate with intervals, game length, games still running by
round).  Charts are draw operations rendered by the same PDF renderer as the
cards, so fonts, determinism and atomic writing come for free."""

from __future__ import annotations

import math

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from babel import Locale
from babel.numbers import format_percent

from cardkit.fsutil import atomic_write_bytes
from cardkit.strings.localize import Localizer
from cardkit.layout.ops import Circle, Line, Op, Rect, Text
from cardkit.layout.textfit import Style, break_lines
from cardkit.layout.units import MM
from cardkit.playtest.ladder import is_ceiling
from cardkit.playtest.records import Estimate, ImpactRow
from cardkit.render.pdf import PdfDocument

if TYPE_CHECKING:
    from cardkit.playtest.records import (LadderStep, MatchupCell, MetricValue, PlaytestResult, SeatTable, Setup,
                                          Summary)
    from cardkit.playtest.tables import Tables

A4 = (210 * MM, 297 * MM)
INK = "#1d1b18"
PALETTE = ["#2f62b3", "#b3262b", "#3f8f3a", "#6c3c9e", "#d9b51f", "#7d8288"]


def _pct(v: float, locale: str, signed: bool = False) -> str:
    """A percentage with one decimal in the locale's own pattern ("45,6 %" in Finnish); ``signed``: a
    change, "+" before a rise as "-" before a fall ("+21,0 %").

    >>> _pct(0.456, "fi"), _pct(0.21, "en", signed=True), _pct(-0.12, "ko", signed=True)
    ('45,6\xa0%', '+21.0%', '-12.0%')
    """
    loc = Locale.parse(locale.replace("-", "_"))
    pattern = loc.percent_formats[None].pattern.replace("#,##0", "#,##0.0", 1)
    return format_percent(v, format=f"+{pattern};-{pattern}" if signed else pattern, locale=loc)


class _Page:
    def __init__(self, doc: PdfDocument, locale: str) -> None:
        self.doc, self.locale = doc, locale
        self.ops: list[Op] = []

    def text(self, x: float, y: float, s: str, size: float = 9, role: str = "body", colour: str = INK,
             align: str = "left") -> None:
        w = self.doc.book.width(s, self.doc.book.chain(self.locale, role), size)
        dx = {"left": 0, "center": w / 2, "right": w}[align]
        self.ops.append(Text(x - dx, y, s, self.locale, role, size, colour))

    def flush(self) -> None:
        self.doc.draw(self.ops)
        self.doc.end_page()
        self.ops = []


def _top(value: float) -> float:
    """The top of a percentage axis: the next tenth above ``value`` (so 12 % rates are not
    squeezed against the bottom of a 0-100 % chart), at most 100 %.

    >>> _top(0.186), _top(0.0), _top(0.97)
    (0.2, 0.1, 1.0)
    """
    return min(1.0, max(0.1, math.ceil(round(value * 10, 6)) / 10))


def _axes(p: _Page, x: float, y: float, w: float, h: float, title: str, xlabel: str, top: float = 1.0,
          tick: Callable[[float], str] | None = None, bottom: float = 0.0) -> None:
    """Axes with four grid lines from ``bottom`` to ``top``, their ticks as ``tick`` writes them
    (a percentage unless told)."""
    p.text(x, y + h + 5 * MM, title, 10, "bold")
    p.ops.append(Line(x, y, x + w, y, INK, 0.6))
    p.ops.append(Line(x, y, x, y + h, INK, 0.6))
    for k in range(0, 5):
        yy = y + h * k / 4
        p.ops.append(Line(x, yy, x + w, yy, "#dddddd", 0.3))
        v = bottom + (top - bottom) * k / 4
        p.text(x - 2 * MM, yy - 3, tick(v) if tick else _pct(v, p.locale), 7, align="right")
    p.text(x + w / 2, y - 9 * MM, xlabel, 8, align="center")


def write_report(path: Path, result: PlaytestResult, loc: Localizer, set_title: str, games: int,
                 labels: Mapping[str, str] | None = None, tables: Tables | None = None) -> Path:
    """The report of ``result`` (``games`` per setup); ``labels`` maps a metric's name to the id of the set string that names it
    (:attr:`cardkit.rules.protocol.Metric.label`); ``tables`` adds the seat, matchup and declared
    metric pages (:mod:`cardkit.playtest.tables`)."""
    summary, seed, agents = result.summary, result.seed, result.agents
    locale = loc.locale
    doc = PdfDocument(A4, loc.ui("report.title", set=set_title), lang=locale)
    p = _Page(doc, locale)
    left, top = 18 * MM, A4[1] - 20 * MM
    p.text(left, top, loc.ui("report.title", set=set_title), 15, "title")
    p.text(left, top - 7 * MM, loc.ui_n("report.subtitle", games, games=games, seed=seed, agents=", ".join(agents)), 9)
    # table
    cols = [("report.players", 0), ("report.agent", 18), ("report.games", 42), ("report.win_rate", 60),
            ("report.interval", 82), ("report.rounds", 120), ("report.verdict", 148)]
    y = top - 18 * MM
    scored = any(s.mean_score is not None for s in summary.setups)
    if scored:  # a scored game's setups by their mean score, not by wins it never has
        cols[3] = ("report.mean_score", 60)
    for i, (key, dx) in enumerate(cols):
        room = ((cols[i + 1][1] if i + 1 < len(cols) else (A4[0] - 2 * left) / MM) - dx - 1.5) * MM
        _fitted(p, left + dx * MM, y, loc.ui(key), 8, room, "bold", upward=True)
    p.ops.append(Line(left, y - 2 * MM, A4[0] - left, y - 2 * MM, INK, 0.5))
    for s in summary.setups:
        y -= 5.2 * MM
        lo, hi = s.win_rate_ci95.lo, s.win_rate_ci95.hi
        rounds = _number(s.rounds.all.median, locale) if s.rounds.all else "-"
        verdict = loc.ui("report.verdict." + (s.verdict or "").replace(" ", "_"))
        values = [str(s.players), s.agent, str(s.games), _pct(s.win_rate, locale),
                  f"{_pct(lo, locale)} - {_pct(hi, locale)}", rounds, verdict]
        if s.mean_score is not None:
            m = s.mean_score
            values[3:5] = [_number(m.value, locale), f"{_number(m.ci95.lo, locale)} - {_number(m.ci95.hi, locale)}"]
        for i, ((_, dx), v) in enumerate(zip(cols, values)):
            if i == 1:  # a long agent name (a budget, a ceiling) shrinks rather than run into the games
                _fitted(p, left + dx * MM, y, v, 8, (cols[2][1] - dx - 1.5) * MM, least=5)
            else:
                p.text(left + dx * MM, y, v, 8)
    never = summary.coverage.never_fired
    names = []
    for cid in never:
        try:
            names.append(loc.card(f"{cid}.name"))
        except KeyError:
            names.append(cid)
    y -= 9 * MM
    line_text = loc.ui("report.never_fired", cards=", ".join(names) or loc.ui("report.none"))
    lines, _ = break_lines(line_text, Style(locale, "body"), 8, A4[0] - 2 * left, doc.book)
    for line in lines[:6]:  # wrapped like card text; a very long list is cut after six lines
        for piece in line.pieces:
            if piece.kind == "text" and piece.value.strip():
                p.text(left + piece.x, y, piece.value, 8, piece.role)
        y -= 8 * 1.2
    # chart 1: the ladder's figure (win rate, mean score or rating) with intervals per player count,
    # one colour per agent
    cx, cy, cw, ch = left + 12 * MM, 60 * MM, A4[0] - 2 * left - 14 * MM, 70 * MM
    kind = summary.ladder[0].figure if summary.ladder else "win rate"
    points: dict[tuple[int, str], Estimate] = {}
    if kind == "win rate":
        points = {(s.players, s.agent): Estimate(s.win_rate, s.win_rate_ci95) for s in summary.setups}
    else:
        points = {(e.players, r.agent): r.figure for e in summary.ladder for r in e.agents if r.figure is not None}
    tick: Callable[[float], str] | None = None
    bottom = 0.0
    if kind == "win rate":
        top = _top(max((e.ci95.hi for e in points.values()), default=1.0))
        title = loc.ui("report.chart.win_rate")
    else:
        lows = [e.ci95.lo for e in points.values()] + [0.0]
        highs = [e.ci95.hi for e in points.values()] + [0.0]
        bottom, top = _nice(min(lows), max(highs))
        title = loc.ui("report.chart.mean_score" if kind == "mean score" else "report.chart.rating")
        tick = lambda v: _number(v, locale)  # noqa: E731
    _axes(p, cx, cy, cw, ch, title, loc.ui("report.players"), top, tick, bottom)
    players = sorted({s.players for s in summary.setups})
    agents_seen = sorted({s.agent for s in summary.setups})
    slot = cw / max(1, len(players))

    def at(v: float) -> float:
        return cy + (v - bottom) / ((top - bottom) or 1.0) * ch
    for (n, agent_name), est in sorted(points.items()):
        i, a = players.index(n), agents_seen.index(agent_name)
        x = cx + slot * i + slot * (a + 1) / (len(agents_seen) + 1)
        colour = PALETTE[a % len(PALETTE)]
        p.ops.append(Line(x, at(est.ci95.lo), x, at(est.ci95.hi), colour, 1.2))
        p.ops.append(Circle(x, at(est.value), 1.4, fill=colour))
    for i, n in enumerate(players):
        p.text(cx + slot * (i + 0.5), cy - 5 * MM, str(n), 8, align="center")
    for a, name in enumerate(agents_seen):
        p.ops.append(Rect(cx + a * 35 * MM, 20 * MM, 3 * MM, 3 * MM, fill=PALETTE[a % len(PALETTE)]))
        p.text(cx + a * 35 * MM + 5 * MM, 20.5 * MM, name, 8)
    p.flush()
    # page 2: rounds histogram and survival curve (a scored game: its mean score by game length) for the
    # first agent that does not see hidden cards
    ceilings = frozenset(r.agent for e in summary.ladder for r in e.agents if r.ceiling)
    judged_seen = [a for a in agents_seen if not is_ceiling(a, ceilings)] or agents_seen
    agent = judged_seen[0] if judged_seen else ""
    setups = [s for s in summary.setups if s.agent == agent]
    hx, hy, hw, hh = left + 12 * MM, 165 * MM, A4[0] - 2 * left - 14 * MM, 85 * MM
    shares = [n / (sum(s.rounds_histogram.values()) or 1) for s in setups for n in s.rounds_histogram.values()]
    htop = _top(max(shares, default=1.0))
    _axes(p, hx, hy, hw, hh, loc.ui("report.chart.rounds", agent=agent), loc.ui("report.round"), htop)
    max_round = max((max(map(int, s.rounds_histogram), default=0) for s in setups), default=1) or 1
    bw = hw / max_round
    for k, s in enumerate(setups):
        total = sum(s.rounds_histogram.values()) or 1
        pts = [(int(r), n / total) for r, n in s.rounds_histogram.items()]
        colour = PALETTE[k % len(PALETTE)]
        for r, share in pts:
            x = hx + (r - 1) * bw + bw * k / (len(setups) + 1)
            p.ops.append(Rect(x, hy, bw / (len(setups) + 1), share / htop * hh, fill=colour))
    for r in range(1, max_round + 1, max(1, max_round // 12)):
        p.text(hx + (r - 0.5) * bw, hy - 5 * MM, str(r), 7, align="center")
    sx, sy, sw, sh = hx, 40 * MM, hw, 85 * MM
    if kind == "mean score":
        _score_rounds(p, setups, loc, agent, (sx, sy, sw, sh))
    elif kind == "win rate":  # a competitive game has no "games not yet lost": one seat's loss is another's win
        _axes(p, sx, sy, sw, sh, loc.ui("report.chart.survival", agent=agent), loc.ui("report.round"))
        longest = max((len(s.survival_by_round) for s in setups), default=1) or 1
        for r in range(1, longest + 1, max(1, longest // 12)):
            p.text(sx + sw * r / longest, sy - 5 * MM, str(r), 7, align="center")
        for k, s in enumerate(setups):
            colour = PALETTE[k % len(PALETTE)]
            curve = [(sx + sw * (i + 1) / longest, sy + v * sh) for i, v in enumerate(s.survival_by_round)]
            prev = (sx, sy + sh)
            for pt in curve:
                p.ops.append(Line(prev[0], prev[1], pt[0], pt[1], colour, 1.1))
                prev = pt
            p.ops.append(Rect(sx + k * 25 * MM, 20 * MM, 3 * MM, 3 * MM, fill=colour))
            p.text(sx + k * 25 * MM + 5 * MM, 20.5 * MM, loc.ui_n("report.legend", s.players), 8)
    p.flush()
    if summary.ladder:
        _ladder_page(p, summary.ladder, loc, result.reference, labels or {})
    if kind == "mean score":
        _scores_page(p, summary, loc)
    if tables is not None and (tables.seats or tables.matchups):
        _seats_page(p, tables.seats, tables.matchups, loc)
    if tables is not None and tables.metrics:
        _metrics_page(p, tables, loc, labels or {})
    measured = [r for r in result.impact or () if isinstance(r, ImpactRow)]
    for count, judged in sorted({(r.players, r.agent) for r in measured}):
        _impact_page(p, [r for r in measured if r.players == count and r.agent == judged], loc, count, judged)
    atomic_write_bytes(path, doc.finish())
    return path


def _nice(lo: float, hi: float) -> tuple[float, float]:
    """An axis from a round number at or below ``lo`` to one at or above ``hi`` (quarters of a round step).

    >>> _nice(0.0, 10.23), _nice(-12.0, 180.0)
    ((0.0, 15.0), (-50.0, 200.0))
    """
    span = (hi - lo) or 1.0
    step = 10 ** math.floor(math.log10(span / 4))
    for m in (1, 2, 2.5, 5, 10):
        if span / (m * step) <= 4:
            step *= m
            break
    return float(math.floor(round(lo / step, 9)) * step), float(math.ceil(round(hi / step, 9)) * step)


def _score_rounds(p: _Page, setups: Sequence[Setup], loc: Localizer, agent: str,
                  box: tuple[float, float, float, float]) -> None:
    """A scored game's mean score by game length: per player count a line through the mean score of the
    games that ended after each number of rounds (a dot's area grows with its games)."""
    x0, y0, w, h = box
    locale = p.locale
    pts = [(s, r, g, m) for s in setups for r, (g, m) in sorted((s.score_by_rounds or {}).items())]
    rng = [0.0] + [m for *_, m in pts]
    bottom, top = _nice(min(rng), max(rng))
    _axes(p, x0, y0, w, h, loc.ui("report.chart.score_rounds", agent=agent), loc.ui("report.round"), top,
          lambda v: _number(v, locale), bottom)
    longest = max((r for _, r, _, _ in pts), default=1) or 1
    for r in range(1, longest + 1, max(1, longest // 12)):
        p.text(x0 + w * (r - 0.5) / longest, y0 - 5 * MM, str(r), 7, align="center")
    for k, s in enumerate(setups):
        colour = PALETTE[k % len(PALETTE)]
        total = sum(g for g, _ in (s.score_by_rounds or {}).values()) or 1
        prev = None
        for r, (g, m) in sorted((s.score_by_rounds or {}).items()):
            pt = (x0 + w * (r - 0.5) / longest, y0 + (m - bottom) / ((top - bottom) or 1) * h)
            if prev is not None:
                p.ops.append(Line(prev[0], prev[1], pt[0], pt[1], colour, 0.8))
            p.ops.append(Circle(pt[0], pt[1], 0.8 + 2.4 * math.sqrt(g / total), fill=colour))
            prev = pt
        p.ops.append(Rect(x0 + k * 25 * MM, 20 * MM, 3 * MM, 3 * MM, fill=colour))
        p.text(x0 + k * 25 * MM + 5 * MM, 20.5 * MM, loc.ui_n("report.legend", s.players), 8)


def _scores_page(p: _Page, summary: Summary, loc: Localizer) -> None:
    """A scored game's score distribution: per player count, the share of each agent's games at each
    score (side by side, one colour per agent), two charts a page."""
    locale = p.locale
    left = 18 * MM
    agents = sorted({s.agent for s in summary.setups})
    counts = sorted({s.players for s in summary.setups})
    for i, n in enumerate(counts):
        if i % 2 == 0 and i:
            p.flush()
        x, w, h = left + 12 * MM, A4[0] - 2 * left - 14 * MM, 80 * MM
        y = 175 * MM if i % 2 == 0 else 50 * MM
        mine = [s for s in summary.setups if s.players == n and s.score_histogram]
        values = sorted({v for s in mine for v in (s.score_histogram or {})})
        shares = [g / (sum((s.score_histogram or {}).values()) or 1) for s in mine
                  for g in (s.score_histogram or {}).values()]
        top = _top(max(shares, default=1.0))
        _axes(p, x, y, w, h, loc.ui_n("report.chart.scores", n, players=n), loc.ui("report.score"), top)
        lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
        whole = all(float(v).is_integer() for v in values)
        slots = int(hi - lo) + 1 if whole else max(1, len(values))
        bw = w / slots
        for s in mine:
            a = agents.index(s.agent)
            colour = PALETTE[a % len(PALETTE)]
            total = sum((s.score_histogram or {}).values()) or 1
            for v, g in (s.score_histogram or {}).items():
                k = int(v - lo) if whole else values.index(v)
                bx = x + k * bw + bw * (a + 0.5) / (len(agents) + 1)
                p.ops.append(Rect(bx, y, bw / (len(agents) + 1), g / total / top * h, fill=colour))
        every = max(1, slots // 12)
        for k in range(0, slots, every):
            v = lo + k if whole else values[k]
            p.text(x + (k + 0.5) * bw, y - 5 * MM, _number(v, locale), 7, align="center")
        if i % 2 == 1 or i == len(counts) - 1:
            for a, name in enumerate(agents):
                p.ops.append(Rect(x + a * 35 * MM, 20 * MM, 3 * MM, 3 * MM, fill=PALETTE[a % len(PALETTE)]))
                p.text(x + a * 35 * MM + 5 * MM, 20.5 * MM, name, 8)
    p.flush()


def _name(loc: Localizer, cid: str) -> str:
    try:
        return loc.card(f"{cid}.name")
    except KeyError:
        return cid


def _label(loc: Localizer, labels: Mapping[str, str], name: str) -> str:
    """A metric's or figure's name in the reader's language: its set string, else the name itself."""
    key = labels.get(name, "")
    try:
        return loc.ui(key) if key else name.replace("_", " ")
    except KeyError:
        return name.replace("_", " ")


def _ladder_page(p: _Page, ladder: Sequence[LadderStep], loc: Localizer, reference: Mapping[str, float],
                 labels: Mapping[str, str]) -> None:
    """Every agent side by side per player count, the skill gap, and the verdict read from the strongest."""
    locale = p.locale
    left, y = 18 * MM, A4[1] - 20 * MM
    p.text(left, y, loc.ui("report.ladder.title"), 13, "title")
    y -= 7 * MM
    if reference:  # the set may word the sentence itself (its string reference.sentence), each figure a placeholder
        shown = {k: _pct(v, locale) if 0 < v < 1 else f"{v:g}" for k, v in reference.items()}
        figures = ", ".join(f"{_label(loc, {k: f'reference.{k}'}, k)} {v}" for k, v in shown.items())
        key = "reference.sentence" if "reference.sentence" in loc.set_ui else "report.ladder.reference"
        ref = loc.ui(key, figures=figures, **shown)
        lines, _ = break_lines(ref, Style(locale, "body"), 8, A4[0] - 2 * left, p.doc.book)
        for line in lines[:3]:
            for piece in line.pieces:
                if piece.kind == "text" and piece.value.strip():
                    p.text(left + piece.x, y, piece.value, 8, piece.role)
            y -= 8 * 1.2
    kind = ladder[0].figure if ladder else "win rate"
    shares = [k for k in dict.fromkeys(k for e in ladder for r in e.agents for k in r.shares)]
    targets = list(dict.fromkeys(t.target for e in ladder for r in e.agents if r.score for t in r.score.targets))
    cols: list[tuple[str, float]]
    if kind == "mean score":  # the score targets' shares instead of the rounds of won games
        cols = [("report.agent", 4), ("report.mean_score", 40), ("report.interval", 60), ("report.rounds", 92)]
        cols += [(f"target:{t:g}", 114 + 20 * i) for i, t in enumerate(targets[:3])]
    elif kind == "rating":
        cols = [("report.agent", 4), ("report.rating", 40), ("report.interval", 58), ("report.vs_random", 86),
                ("report.interval", 116), ("report.rounds", 152)]
    else:
        cols = [("report.agent", 4), ("report.win_rate", 44), ("report.interval", 66), ("report.rounds", 104),
                ("report.ladder.rounds_win", 132)]
        cols += [(k, 156 + 22 * i) for i, k in enumerate(shares[:2])]
    y -= 3 * MM
    for i, (key, dx) in enumerate(cols):
        if key.startswith("target:"):
            head = loc.ui("report.target", target=_number(float(key[len("target:"):]), locale))
        else:
            head = _label(loc, labels, key[:-len("_share")]) if key.endswith("_share") else loc.ui(key)
        room = ((cols[i + 1][1] if i + 1 < len(cols) else (A4[0] - 2 * left) / MM) - dx - 1.5) * MM
        _fitted(p, left + dx * MM, y, head, 7.5, room, "bold", upward=True)
    p.ops.append(Line(left, y - 2 * MM, A4[0] - left, y - 2 * MM, INK, 0.5))
    y -= 3 * MM
    name_width = (cols[1][1] - cols[0][1] - 2) * MM

    def figure(e: Estimate | None) -> tuple[str, str]:
        if e is None:
            return "-", "-"
        if kind == "rating":
            return _elo(e.value), f"{_elo(e.ci95.lo)} - {_elo(e.ci95.hi)}"
        if kind == "mean score":
            return _number(e.value, locale), f"{_number(e.ci95.lo, locale)} - {_number(e.ci95.hi, locale)}"
        return _pct(e.value, locale), f"{_pct(e.ci95.lo, locale)} - {_pct(e.ci95.hi, locale)}"
    for e in ladder:
        y = _room(p, y, (12 + 4.6 * len(e.agents)) * MM)
        y -= 5.5 * MM
        verdict = loc.ui("report.verdict." + e.verdict.replace(" ", "_"))
        p.text(left, y, f"{loc.ui_n('report.legend', e.players)}: {verdict}", 8.5, "bold")
        for r in e.agents:
            y -= 4.6 * MM
            name = loc.ui("report.ladder.ceiling", agent=r.agent) if r.ceiling else r.agent
            rounds = "-" if r.rounds_median is None else _number(r.rounds_median, locale)
            wins = "-" if r.rounds_win_median is None else _number(r.rounds_win_median, locale)
            if kind == "win rate":
                lo, hi = r.ci95.lo, r.ci95.hi
                values = [_pct(r.win_rate, locale), f"{_pct(lo, locale)} - {_pct(hi, locale)}", rounds, wins]
                values += ["-" if (share := r.shares.get(k)) is None else _pct(share, locale) for k in shares[:2]]
            elif kind == "mean score":
                values = [*figure(r.figure), rounds]
                reached = {t.target: t.rate for t in (r.score.targets if r.score else ())}
                values += ["-" if t not in reached else _pct(reached[t], locale) for t in targets[:3]]
            else:
                vs = r.vs_random
                values = [*figure(r.figure), *((_pct(vs.value, locale), _span(vs.ci95.lo, vs.ci95.hi, locale))
                                               if vs is not None else ("-", "-")), rounds]
            bold = r.agent in e.strongest_set or (not e.strongest_set and r.agent == e.strongest)
            extra = _fitted(p, left + 4 * MM, y, name, 8, name_width, "bold" if bold else "body")
            for (_, dx), v in zip(cols[1:], values):
                p.text(left + dx * MM, y, v, 8)
            y -= extra
        if len(e.strongest_set) > 1:
            y -= 4.6 * MM
            y = _para(p, loc.ui("report.ladder.tied", agents=", ".join(sorted(e.strongest_set))), left + 4 * MM,
                      y, 8, A4[0] - 2 * left - 4 * MM, most=2) + 8 * 1.25
        if e.skill_gap:
            g = e.skill_gap
            y -= 4.6 * MM
            if kind == "mean score":
                head, value = loc.ui("report.ladder.gap_score"), (f"{_number(g.value, locale)} ({_number(g.ci95.lo, locale)}"
                                                                   f" - {_number(g.ci95.hi, locale)})")
            else:
                head = loc.ui("report.ladder.gap_matchups" if kind == "rating" else "report.ladder.gap")
                value = f"{_pct(g.value, locale)} ({_pct(g.ci95.lo, locale)} - {_pct(g.ci95.hi, locale)})"
            if kind == "win rate":
                p.text(left + 4 * MM, y, f"{head}: {value}", 8)
            else:
                y = _para(p, f"{head}: {value}", left + 4 * MM, y, 8, A4[0] - 2 * left - 4 * MM, most=2) + 8 * 1.25
        if e.balance is not None:
            b = e.balance
            y -= 4.6 * MM
            sentence = loc.ui("report.ladder.balance", agent=b.agent, difference=_signed(b.difference, locale),
                          low=_signed(b.ci95.lo, locale), high=_signed(b.ci95.hi, locale),
                          finding=loc.ui("report.balance." + b.finding.replace(" ", "_")))
            y = _para(p, sentence, left + 4 * MM, y, 8, A4[0] - 2 * left - 4 * MM, most=2) + 8 * 1.25
        p.ops.append(Line(left, y - 2.2 * MM, A4[0] - left, y - 2.2 * MM, "#dddddd", 0.3))
    p.flush()


def _elo(v: float) -> str:
    """A rating in whole Elo points, signed (random play is 0).

    >>> _elo(78.6), _elo(-0.2), _elo(-31)
    ('+79', '0', '-31')
    """
    r = round(v)
    return "0" if r == 0 else f"{r:+d}"


def _fitted(p: _Page, x: float, y: float, text: str, size: float, width: float, role: str = "body",
            upward: bool = False, least: float = 6.5) -> float:
    """``text`` drawn within ``width`` so it never runs into the next column: smaller down to ``least`` pt,
    then wrapped onto a second line below (``upward``: the first line above, for a column head);
    the height the extra lines take below ``y`` (0 for one line, or upward)."""
    chain = p.doc.book.chain(p.locale, role)
    while size > least and p.doc.book.width(text, chain, size) > width:
        size -= 0.5
    if p.doc.book.width(text, chain, size) <= width:
        p.text(x, y, text, size, role)
        return 0.0
    lines, _ = break_lines(text, Style(p.locale, role), size, width, p.doc.book)
    lines = lines[:2]
    first = y + (len(lines) - 1) * size * 1.15 if upward else y
    for i, line in enumerate(lines):
        for piece in line.pieces:
            if piece.kind == "text" and piece.value.strip():
                p.text(x + piece.x, first - i * size * 1.15, piece.value, size, piece.role)
    return 0.0 if upward else (len(lines) - 1) * size * 1.15


def _impact_page(p: _Page, rows: Sequence[ImpactRow], loc: Localizer, players: int, agent: str) -> None:
    """One bar per card: the change in win rate with its ability switched off, with the 95 % interval."""
    locale = p.locale
    left, top = 18 * MM, A4[1] - 20 * MM
    p.text(left, top, loc.ui_n("report.impact.title", players, players=players, agent=agent), 13, "title")
    games = rows[0].games if rows else 0
    if any(r.stopped is not None for r in rows):  # an auto run: every card played its own number of games
        least, most = min(r.games for r in rows), max(r.games for r in rows)
        p.text(left, top - 6 * MM, loc.ui("report.impact.subtitle_auto", least=least, most=most) if least < most
               else loc.ui_n("report.impact.subtitle_auto_same", most, games=most), 8)
    else:
        p.text(left, top - 6 * MM, loc.ui_n("report.impact.subtitle", games, games=games), 8)
    label_w, value_w = 52 * MM, 30 * MM
    bx, bw = left + label_w, A4[0] - 2 * left - label_w - value_w
    span = max([abs(v) for r in rows for v in (r.ci95.lo, r.ci95.hi)] + [0.01])
    span = math.ceil(span * 100 / 2) * 2 / 100  # whole even percentage points
    y0, y1 = 22 * MM, top - 16 * MM
    step = min(5 * MM, (y1 - y0) / max(1, len(rows)))
    size = min(7.5, step / MM * 1.9)
    zero = bx + bw / 2

    def at(v: float) -> float:
        return zero + v / span * (bw / 2)

    for k in range(-2, 3):  # grid at -span, -span/2, 0, span/2, span
        x = at(span * k / 2)
        p.ops.append(Line(x, y0, x, y1, INK if k == 0 else "#dddddd", 0.6 if k == 0 else 0.3))
        p.text(x, y0 - 4 * MM, f"{span * k / 2 * 100:+.0f}".replace("+0", "0"), 7, align="center")
    for i, r in enumerate(rows):
        y = y1 - (i + 0.5) * step
        lo, hi = r.ci95.lo, r.ci95.hi
        none = r.effect not in ("helps", "hurts")
        colour = "#9aa0a6" if none else (PALETTE[0] if r.win_rate_delta < 0 else PALETTE[1])
        x0, x1 = sorted((zero, at(r.win_rate_delta)))
        p.ops.append(Rect(x0, y - step * 0.3, max(0.4, x1 - x0), step * 0.6, fill=colour))
        p.ops.append(Line(at(lo), y, at(hi), y, INK, 0.6))
        for v in (lo, hi):
            p.ops.append(Line(at(v), y - step * 0.25, at(v), y + step * 0.25, INK, 0.6))
        p.text(bx - 2 * MM, y - size * 0.35, _name(loc, r.card), size, align="right")
        value = _pct(r.win_rate_delta, locale, signed=True)
        if r.effect == "no measurable effect":
            value = loc.ui("report.impact.no_effect")
        elif r.effect == "no effect beyond the margin" and r.margin is not None:
            value = loc.ui("report.impact.within", amount=_pct(r.margin, locale))
        elif r.effect == "not settled":
            value = loc.ui("report.impact.not_settled")
        p.text(bx + bw + 2 * MM, y - size * 0.35, value, size)
    p.flush()


# ------------------------------------------------------------------ seats, matchups, declared metrics
BOTTOM = 22 * MM


def _para(p: _Page, text: str, x: float, y: float, size: float, width: float, role: str = "body",
          most: int = 6) -> float:
    """Text wrapped like card text into ``width``; the baseline below its last line."""
    lines, _ = break_lines(text, Style(p.locale, role), size, width, p.doc.book)
    for line in lines[:most]:
        for piece in line.pieces:
            if piece.kind == "text" and piece.value.strip():
                p.text(x + piece.x, y, piece.value, size, piece.role)
        y -= size * 1.25
    return y


def _signed(v: float, locale: str) -> str:
    return ("+" if v > 0 else "") + _pct(v, locale)


def _span(lo: float, hi: float, locale: str, signed: bool = False) -> str:
    f = _signed if signed else _pct
    return f"{f(lo, locale)} - {f(hi, locale)}"


def _room(p: _Page, y: float, need: float) -> float:
    """``y``, or the top of a new page when less than ``need`` is left above the bottom margin."""
    if y - need >= BOTTOM:
        return y
    p.flush()
    return A4[1] - 20 * MM


def _seats_page(p: _Page, seats: tuple[SeatTable, ...], cells: tuple[MatchupCell, ...], loc: Localizer) -> None:
    """Win rate per seat with Wilson intervals and seat 1's advantage (Newcombe, paired); then, at two
    players, a matrix of agents against each other over both seatings."""
    locale = p.locale
    left, y = 18 * MM, A4[1] - 20 * MM
    width = A4[0] - 2 * left
    if seats:
        p.text(left, y, loc.ui("report.seats.title"), 13, "title")
        y = _para(p, loc.ui("report.seats.note"), left, y - 7 * MM, 8, width)
        most = max(len(t.seats) for t in seats)
        col = min(30 * MM, (width - 56 * MM) / max(1, most))
        y -= 3 * MM
        p.text(left, y, loc.ui("report.players"), 7.5, "bold")
        p.text(left + 16 * MM, y, loc.ui("report.agent"), 7.5, "bold")
        for k in range(most):
            p.text(left + 46 * MM + k * col, y, loc.ui("report.seats.seat", seat=k + 1), 7.5, "bold")
        p.text(left + 46 * MM + most * col, y, loc.ui("report.seats.draws"), 7.5, "bold")
        p.ops.append(Line(left, y - 2 * MM, A4[0] - left, y - 2 * MM, INK, 0.5))
        y -= 2 * MM
        for t in seats:
            y = _room(p, y, (10 + 4 * len(t.first_advantage)) * MM)
            y -= 4.6 * MM
            p.text(left, y, str(t.players), 8)
            p.text(left + 16 * MM, y, t.agent[:18], 8)
            for k, r in enumerate(t.seats):
                p.text(left + 46 * MM + k * col, y, _pct(r.win_rate, locale), 8, "bold")
                p.text(left + 46 * MM + k * col, y - 3.4 * MM, _span(r.ci95.lo, r.ci95.hi, locale), 6.5)
            p.text(left + 46 * MM + most * col, y, str(t.seats[0].draws if t.seats else 0), 8)
            y -= 3.4 * MM
            for a in t.first_advantage:
                y -= 4 * MM
                p.text(left + 16 * MM, y, f"{loc.ui('report.seats.advantage', seat=a.over_seat)}: "
                       f"{_signed(a.difference, locale)} ({_span(a.ci95.lo, a.ci95.hi, locale, True)})", 7.5)
            p.ops.append(Line(left, y - 2 * MM, A4[0] - left, y - 2 * MM, "#dddddd", 0.3))
        y -= 10 * MM
    for players in sorted({c.players for c in cells}):
        mine = [c for c in cells if c.players == players]
        agents = sorted({c.agent for c in mine})
        by = {(c.agent, c.opponent): c for c in mine}
        y = _room(p, y, (30 + 13 * len(agents)) * MM)
        p.text(left, y, loc.ui_n("report.matchups.title", players, players=players), 13, "title")
        y = _para(p, loc.ui_n("report.matchups.note", mine[0].games, games=mine[0].games), left, y - 7 * MM, 8, width)
        col = (width - 40 * MM) / max(1, len(agents))
        y -= 3 * MM
        for k, head in enumerate(agents):
            p.text(left + 40 * MM + k * col, y, head[:22], 7.5, "bold")
        p.ops.append(Line(left, y - 2 * MM, A4[0] - left, y - 2 * MM, INK, 0.5))
        y -= 2 * MM
        for agent in agents:
            y -= 4.6 * MM
            p.text(left, y, agent[:22], 8, "bold")
            for k, b in enumerate(agents):
                x = left + 40 * MM + k * col
                c = by.get((agent, b))
                if c is None:
                    p.text(x, y, "-", 8)
                    continue
                # a heat map: red below one half, blue above, white at one half
                p.ops.append(Rect(x - 1.5 * MM, y - 8.2 * MM, col - 1 * MM, 11.4 * MM, fill=_heat(c.win_rate)))
                p.text(x, y, _pct(c.win_rate, locale), 8, "bold")
                _fitted(p, x, y - 3.4 * MM, _span(c.ci95.lo, c.ci95.hi, locale), 6.5, col - 3 * MM, least=4.5)
                _fitted(p, x, y - 6.6 * MM, loc.ui("report.matchups.seating", first=_pct(c.first_win_rate, locale),
                                                   second=_pct(c.second_win_rate, locale)), 6.5, col - 3 * MM,
                        least=4.5)
            y -= 7.4 * MM
            p.ops.append(Line(left, y - 1.5 * MM, A4[0] - left, y - 1.5 * MM, "#dddddd", 0.3))
        y -= 10 * MM
    p.flush()


def _heat(rate: float) -> str:
    """A light tint for a matchup cell: white at 50 %, towards red at 0 and blue at 100 %.

    >>> _heat(0.5), _heat(0.0), _heat(1.0)
    ('#ffffff', '#f4a6a0', '#a6c4f4')
    """
    t = max(-1.0, min(1.0, (rate - 0.5) * 2))
    end = (0xa6, 0xc4, 0xf4) if t > 0 else (0xf4, 0xa6, 0xa0)
    rgb = [round(255 + (e - 255) * abs(t)) for e in end]
    return "#" + "".join(f"{v:02x}" for v in rgb)


def _metric_value(v: MetricValue, locale: str) -> str:
    from cardkit.rules.protocol import Aggregate

    if v.aggregate is Aggregate.SHARE:
        return _pct(v.value, locale)
    number = _number(v.value, locale)
    if v.aggregate is Aggregate.HISTOGRAM:
        return f"{number} ({_number(v.p5 or 0, locale)}-{_number(v.p95 or 0, locale)})"
    return number


def _number(v: float, locale: str) -> str:
    from babel.numbers import format_decimal

    return format_decimal(round(v, 2), format="#,##0.##", locale=Locale.parse(locale.replace("-", "_")))


def _metrics_page(p: _Page, tables: Tables, loc: Localizer, labels: Mapping[str, str]) -> None:
    """What the game declares it measures (name, kind, aggregation), then each setup's values."""
    locale = p.locale
    left, y = 18 * MM, A4[1] - 20 * MM
    width = A4[0] - 2 * left
    p.text(left, y, loc.ui("report.metrics.title"), 13, "title")
    y = _para(p, loc.ui("report.metrics.note"), left, y - 7 * MM, 8, width)
    y -= 2 * MM
    for d in tables.declared:
        y = _para(p, loc.ui("report.metrics.declared", metric=_label(loc, labels, d.name),
                            kind=loc.ui(f"report.metrics.kind.{d.kind.value}"),
                            aggregate=loc.ui(f"report.metrics.aggregate.{d.aggregate.value}")),
                  left + 4 * MM, y, 8, width - 4 * MM, most=2)
    y -= 5 * MM
    names = [d.name for d in tables.declared]
    scored = any(r.score is not None for r in tables.metrics)
    col = (width - 40 * MM) / max(1, len(names) + scored)
    heads = []
    for head in [_label(loc, labels, name) for name in names] + ([loc.ui("report.metrics.score")] if scored else []):
        lines, _ = break_lines(head, Style(locale, "bold"), 7, col - 2 * MM, p.doc.book)
        heads.append(lines[:5])  # long Finnish compounds hyphenate into four lines
    deepest = max((len(h) for h in heads), default=1)
    p.text(left, y, loc.ui("report.players"), 7, "bold")
    p.text(left + 16 * MM, y, loc.ui("report.agent"), 7, "bold")
    for k, lines in enumerate(heads):
        for j, line in enumerate(lines):
            for piece in line.pieces:
                if piece.kind == "text" and piece.value.strip():
                    p.text(left + 40 * MM + k * col + piece.x, y - j * 7 * 1.2, piece.value, 7, "bold")
    y -= (deepest - 1) * 7 * 1.2
    p.ops.append(Line(left, y - 2 * MM, A4[0] - left, y - 2 * MM, INK, 0.5))
    y -= 2 * MM
    for r in tables.metrics:
        y = _room(p, y, 8 * MM)
        y -= 4.6 * MM
        p.text(left, y, str(r.players), 8)
        p.text(left + 16 * MM, y, r.agent[:18], 8)
        by = {v.name: v for v in r.values}
        for k, name in enumerate(names):
            v = by.get(name)
            p.text(left + 40 * MM + k * col, y, _metric_value(v, locale) if v else "-", 8)
        if r.score is not None:
            p.text(left + 40 * MM + len(names) * col, y, _number(r.score, locale), 8)
    p.flush()
