"""The playtest report as a PDF in the chosen language: a results table and
three charts (win rate with intervals, game length, games still running by
round).  Charts are draw operations rendered by the same PDF renderer as the
cards, so fonts, determinism and atomic writing come for free."""

from __future__ import annotations

import math

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from babel import Locale
from babel.numbers import format_percent

from cardkit.fsutil import atomic_write_bytes
from cardkit.strings.localize import Localizer
from cardkit.layout.ops import Circle, Line, Op, Rect, Text
from cardkit.layout.textfit import Style, break_lines
from cardkit.layout.units import MM
from cardkit.playtest.records import ImpactRow
from cardkit.render.pdf import PdfDocument

if TYPE_CHECKING:
    from cardkit.playtest.records import LadderStep, MatchupCell, MetricValue, PlaytestResult, SeatTable
    from cardkit.playtest.tables import Tables

A4 = (210 * MM, 297 * MM)
INK = "#1d1b18"
PALETTE = ["#2f62b3", "#b3262b", "#3f8f3a", "#6c3c9e", "#d9b51f", "#7d8288"]


def _pct(v: float, locale: str) -> str:
    """A percentage with one decimal in the locale's own pattern ("45,6 %" in Finnish)."""
    loc = Locale.parse(locale.replace("-", "_"))
    pattern = loc.percent_formats[None].pattern.replace("#,##0", "#,##0.0", 1)
    return format_percent(v, format=pattern, locale=loc)


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


def _axes(p: _Page, x: float, y: float, w: float, h: float, title: str, xlabel: str, top: float = 1.0) -> None:
    p.text(x, y + h + 5 * MM, title, 10, "bold")
    p.ops.append(Line(x, y, x + w, y, INK, 0.6))
    p.ops.append(Line(x, y, x, y + h, INK, 0.6))
    for k in range(0, 5):
        yy = y + h * k / 4
        p.ops.append(Line(x, yy, x + w, yy, "#dddddd", 0.3))
        p.text(x - 2 * MM, yy - 3, _pct(top * k / 4, p.locale), 7, align="right")
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
    for key, dx in cols:
        p.text(left + dx * MM, y, loc.ui(key), 8, "bold")
    p.ops.append(Line(left, y - 2 * MM, A4[0] - left, y - 2 * MM, INK, 0.5))
    for s in summary.setups:
        y -= 5.2 * MM
        lo, hi = s.win_rate_ci95.lo, s.win_rate_ci95.hi
        rounds = _number(s.rounds.all.median, locale) if s.rounds.all else "-"
        verdict = loc.ui("report.verdict." + (s.verdict or "").replace(" ", "_"))
        values = [str(s.players), s.agent, str(s.games), _pct(s.win_rate, locale),
                  f"{_pct(lo, locale)} - {_pct(hi, locale)}", rounds, verdict]
        for (_, dx), v in zip(cols, values):
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
    # chart 1: win rate with intervals per player count, one colour per agent
    cx, cy, cw, ch = left + 12 * MM, 60 * MM, A4[0] - 2 * left - 14 * MM, 70 * MM
    top = _top(max((s.win_rate_ci95.hi for s in summary.setups), default=1.0))
    _axes(p, cx, cy, cw, ch, loc.ui("report.chart.win_rate"), loc.ui("report.players"), top)
    players = sorted({s.players for s in summary.setups})
    agents_seen = sorted({s.agent for s in summary.setups})
    slot = cw / max(1, len(players))
    for s in summary.setups:
        i, a = players.index(s.players), agents_seen.index(s.agent)
        x = cx + slot * i + slot * (a + 1) / (len(agents_seen) + 1)
        lo, hi = s.win_rate_ci95.lo, s.win_rate_ci95.hi
        colour = PALETTE[a % len(PALETTE)]
        p.ops.append(Line(x, cy + lo / top * ch, x, cy + hi / top * ch, colour, 1.2))
        p.ops.append(Circle(x, cy + s.win_rate / top * ch, 1.4, fill=colour))
    for i, n in enumerate(players):
        p.text(cx + slot * (i + 0.5), cy - 5 * MM, str(n), 8, align="center")
    for a, name in enumerate(agents_seen):
        p.ops.append(Rect(cx + a * 35 * MM, 20 * MM, 3 * MM, 3 * MM, fill=PALETTE[a % len(PALETTE)]))
        p.text(cx + a * 35 * MM + 5 * MM, 20.5 * MM, name, 8)
    p.flush()
    # page 2: rounds histogram and survival curve for the first agent
    agent = agents_seen[0] if agents_seen else ""
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
    if tables is not None and (tables.seats or tables.matchups):
        _seats_page(p, tables.seats, tables.matchups, loc)
    if tables is not None and tables.metrics:
        _metrics_page(p, tables, loc, labels or {})
    measured = [r for r in result.impact or () if isinstance(r, ImpactRow)]
    for count, judged in sorted({(r.players, r.agent) for r in measured}):
        _impact_page(p, [r for r in measured if r.players == count and r.agent == judged], loc, count, judged)
    atomic_write_bytes(path, doc.finish())
    return path


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
    shares = [k for k in dict.fromkeys(k for e in ladder for r in e.agents for k in r.shares)]
    cols: list[tuple[str, float]] = [("report.agent", 4), ("report.win_rate", 44), ("report.interval", 66),
                                     ("report.rounds", 104), ("report.ladder.rounds_win", 132)]
    cols += [(k, 156 + 22 * i) for i, k in enumerate(shares[:2])]
    y -= 3 * MM
    for key, dx in cols:
        head = _label(loc, labels, key[:-len("_share")]) if key.endswith("_share") else loc.ui(key)
        p.text(left + dx * MM, y, head, 7.5, "bold")
    p.ops.append(Line(left, y - 2 * MM, A4[0] - left, y - 2 * MM, INK, 0.5))
    y -= 3 * MM
    for e in ladder:
        y -= 5.5 * MM
        verdict = loc.ui("report.verdict." + e.verdict.replace(" ", "_"))
        p.text(left, y, f"{loc.ui_n('report.legend', e.players)}: {verdict}", 8.5, "bold")
        for r in e.agents:
            y -= 4.6 * MM
            name = loc.ui("report.ladder.ceiling", agent=r.agent) if r.ceiling else r.agent
            rounds = "-" if r.rounds_median is None else _number(r.rounds_median, locale)
            wins = "-" if r.rounds_win_median is None else _number(r.rounds_win_median, locale)
            lo, hi = r.ci95.lo, r.ci95.hi
            values = [name, _pct(r.win_rate, locale), f"{_pct(lo, locale)} - {_pct(hi, locale)}", rounds, wins]
            values += ["-" if (share := r.shares.get(k)) is None else _pct(share, locale) for k in shares[:2]]
            for (_, dx), v in zip(cols, values):
                p.text(left + dx * MM, y, v, 8, "bold" if r.agent == e.strongest and dx == 4 else "body")
        if e.skill_gap:
            g = e.skill_gap
            y -= 4.6 * MM
            p.text(left + 4 * MM, y, f"{loc.ui('report.ladder.gap')}: {_pct(g.value, locale)} "
                   f"({_pct(g.ci95.lo, locale)} - {_pct(g.ci95.hi, locale)})", 8)
        p.ops.append(Line(left, y - 2.2 * MM, A4[0] - left, y - 2.2 * MM, "#dddddd", 0.3))
    p.flush()


def _impact_page(p: _Page, rows: Sequence[ImpactRow], loc: Localizer, players: int, agent: str) -> None:
    """One bar per card: the change in win rate with its ability switched off, with the 95 % interval."""
    locale = p.locale
    left, top = 18 * MM, A4[1] - 20 * MM
    p.text(left, top, loc.ui_n("report.impact.title", players, players=players, agent=agent), 13, "title")
    games = rows[0].games if rows else 0
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
        none = r.effect == "no measurable effect"
        colour = "#9aa0a6" if none else (PALETTE[0] if r.win_rate_delta < 0 else PALETTE[1])
        x0, x1 = sorted((zero, at(r.win_rate_delta)))
        p.ops.append(Rect(x0, y - step * 0.3, max(0.4, x1 - x0), step * 0.6, fill=colour))
        p.ops.append(Line(at(lo), y, at(hi), y, INK, 0.6))
        for v in (lo, hi):
            p.ops.append(Line(at(v), y - step * 0.25, at(v), y + step * 0.25, INK, 0.6))
        p.text(bx - 2 * MM, y - size * 0.35, _name(loc, r.card), size, align="right")
        value = loc.ui("report.impact.no_effect") if none else _pct(r.win_rate_delta, locale)
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
                p.text(x, y, _pct(c.win_rate, locale), 8, "bold")
                p.text(x, y - 3.4 * MM, _span(c.ci95.lo, c.ci95.hi, locale), 6.5)
                p.text(x, y - 6.6 * MM, loc.ui("report.matchups.seating", first=_pct(c.first_win_rate, locale),
                                               second=_pct(c.second_win_rate, locale)), 6.5)
            y -= 7.4 * MM
            p.ops.append(Line(left, y - 1.5 * MM, A4[0] - left, y - 1.5 * MM, "#dddddd", 0.3))
        y -= 10 * MM
    p.flush()


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
