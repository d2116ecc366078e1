"""The build summary (``output/build-summary.txt``) in the reader's language.

``cardkit build`` gathers what it did as small values (:class:`BuildFacts`);
:func:`render_summary` words them through the ``summary.*`` interface messages,
asking for every counted phrase with its number (plural messages), so "1 card"
and "2 cards", "1 kortti" and "2 korttia" both read right.  A game's
playability line comes from its plugin (:class:`~cardkit.plugins.PlayabilityFact`), worded by
its set's own interface strings; a set whose game has no rules engine says so.  Numbers are
formatted by Babel for the locale.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Mapping

from babel.numbers import format_decimal

from cardkit.plugins import PlayabilityFact
from cardkit.strings.localize import Localizer


@dataclass(frozen=True)
class TranslationFacts:
    locale: str
    translated: int
    total: int
    laid_out: int  # texts laid out in a card box by the fit check
    full_size: int
    shrunk: int


@dataclass(frozen=True)
class SizeFacts:
    """How one card size of a PDF was imposed (millimetres)."""

    width: float
    height: float
    cols: int
    rows: int
    paper: str
    landscape: bool
    bleed: float
    minimum: float  # the least bleed the sheet planned for; ``bleed`` below it is said


@dataclass(frozen=True)
class PdfFacts:
    path: str
    cards: int
    pages: int
    sizes: tuple[SizeFacts, ...] = ()


@dataclass(frozen=True)
class NoEngine:
    """A set whose game has no playability hook (no rules engine): nothing was played."""

    set_id: str

    def line(self, ui: Callable[..., str], ui_n: Callable[..., str], num: Callable[[float], str]) -> str:
        return ui("summary.no_engine", set=self.set_id)


Playability = PlayabilityFact


@dataclass(frozen=True)
class BuildFacts:
    sets: tuple[tuple[str, int], ...]  # (set id, physical cards)
    translations: tuple[TranslationFacts, ...]
    pdfs: tuple[PdfFacts, ...]
    playability: tuple[Playability, ...]
    cards: int
    seconds: float


def render_summary(facts: BuildFacts, loc: Localizer, set_locs: Mapping[str, Localizer] | None = None) -> str:
    """The summary text, one line per fact, ending with a newline; a set's
    playability line is worded by that set's own interface strings
    (``set_locs``: a localizer per set id)."""
    locale = loc.locale.replace("-", "_")

    def num(n: float, pattern: str | None = None) -> str:
        return format_decimal(n, format=pattern, locale=locale)

    ui, ui_n = loc.ui, loc.ui_n
    lines = [ui("summary.validated", sets=", ".join(ui_n("summary.set_cards", n, set=sid, cards=num(n))
                                                     for sid, n in facts.sets))]
    for t in facts.translations:
        translated = ui_n("summary.translated", t.total, done=num(t.translated), total=num(t.total))
        fit = ui_n("summary.fit", t.laid_out, strings=num(t.laid_out), full=num(t.full_size), shrunk=num(t.shrunk))
        lines.append(ui("summary.translations", locale=t.locale, translated=translated, fit=fit))
    for p in facts.pdfs:
        lines.append(ui("summary.wrote", path=p.path, cards=ui_n("summary.cards", p.cards, cards=num(p.cards)),
                        pages=ui_n("summary.pages", p.pages, pages=num(p.pages))))
    sheets = []  # how each card size of each PDF was imposed, after the playability lines
    for p in facts.pdfs:
        for z in p.sizes:
            key = "summary.sheet_low" if z.bleed < z.minimum - 1e-6 else "summary.sheet"
            sheets.append(ui(key, path=p.path, width=num(z.width, "0.#"), height=num(z.height, "0.#"),
                             cols=num(z.cols), rows=num(z.rows), paper=z.paper,
                             orientation=ui("summary.landscape" if z.landscape else "summary.portrait"),
                             bleed=num(z.bleed, "0.##"), minimum=num(z.minimum, "0.##")))
    for f in facts.playability:
        if set_locs and f.set_id in set_locs:
            ui, ui_n = set_locs[f.set_id].ui, set_locs[f.set_id].ui_n
        else:
            ui, ui_n = loc.ui, loc.ui_n
        lines.append(f.line(ui, ui_n, num))
    ui, ui_n = loc.ui, loc.ui_n
    lines += sheets
    lines.append(ui_n("summary.built", facts.cards, cards=num(facts.cards), seconds=num(round(facts.seconds, 1), "0.0")))
    return "\n".join(lines) + "\n"
