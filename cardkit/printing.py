"""Print-and-play PDFs: compose every face, impose on sheets, render, write atomically.

This is porcelain: it calls the pure layout (:mod:`cardkit.layout`) and the
only PDF-drawing module (:mod:`cardkit.render.pdf`).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from cardkit.errors import CardkitError, Issue, Severity
from cardkit.fsutil import atomic_write_bytes, face_file_stem, output_path
from cardkit.plugins import Token
from cardkit.strings.locales import PSEUDO
from cardkit.strings.localize import Localizer
from cardkit.layout.compose import INK, Composer, Face, FieldFit, PrintItem, bad_fits, icon_op
from cardkit.layout.faces import FaceBook, load_faces
from cardkit.layout.ops import Circle, Group, Line, Op, Rect, Text
from cardkit.layout.svgicons import SvgIcon
from cardkit.layout.sheet import (
    DEFAULT_MARGIN,
    MIN_BLEED,
    MIN_BLEED_PRESS,
    Sheet,
    back_slot,
    check_sheet_options,
    crop_marks,
    fold_line,
    footer_bands,
    plan_sheet,
)
from cardkit.layout.fonts import FontBook
from cardkit.layout.textfit import ColumnResult, Style, block_height
from cardkit.layout.sizes import Fitted
from cardkit.layout.units import INCH, MM
from cardkit.model import CardSet, SourceString
from cardkit.render.cmyk import RGB_OUTPUT, ColourOptions
from cardkit.render.pdf import PdfDocument

LANGUAGE_NAMES = {"en": "English", "fi": "Suomi", "ko": "한국어"}


@dataclass(frozen=True)
class SheetFacts:
    """How one card size was imposed: what the build says per size."""

    card_w: float
    card_h: float
    paper: str
    landscape: bool
    cols: int
    rows: int
    bleed: float
    min_bleed: float
    explicit: bool  # the bleed was given (--bleed)

    @classmethod
    def of(cls, sheet: Sheet, min_bleed: float, explicit: bool) -> SheetFacts:
        return cls(sheet.card_w, sheet.card_h, sheet.paper, sheet.landscape, sheet.cols, sheet.rows, sheet.bleed,
                   min_bleed, explicit)

    @property
    def below_minimum(self) -> bool:
        return self.bleed < self.min_bleed - 1e-6

    def describe(self) -> str:
        """One line: ``63 x 88 mm cards: 3 x 3 a sheet on a4 portrait, bleed 2 mm``."""
        line = (f"{_size_text(self.card_w)} x {_size_text(self.card_h)} mm cards: {self.cols} x {self.rows} a sheet "
                f"on {self.paper} {'landscape' if self.landscape else 'portrait'}, bleed {_size_text(self.bleed)} mm")
        if self.below_minimum:
            why = "as --bleed asked" if self.explicit else "a card does not fit with more"
            line += f" (below the {_size_text(self.min_bleed)} mm minimum: {why})"
        return line


@dataclass
class BuildResult:
    path: Path
    pages: int
    cards: int  # every card printed, the set's and its extras (a quick reference)
    faces: int
    fits: list[FieldFit] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)  # the pseudo-locale's strings printed in English (W030)
    sheets: list[SheetFacts] = field(default_factory=list)  # per card size, in print order
    extras: int = 0  # of ``cards``, those that are the set's extras


UNITS = ("inch", "cm")


def compose_set(root: Path, card_set: CardSet, locale: str, units: str = "inch",
                variant: str | None = None) -> tuple[list[PrintItem], list[PrintItem]]:
    """Every physical card of the set (and the extras) composed in ``locale``
    from the set's face file (with the overrides of ``variant``); ``units``
    (inch or cm) is passed to plugin elements that label distances (a table map)."""
    if units not in UNITS:
        raise CardkitError(f"unknown --units '{units}' (inch or cm)", code="B006")
    key = (Path(root), id(card_set), locale, units, variant)
    if _COMPOSED is not None and key in _COMPOSED:
        return _COMPOSED[key][1]
    comp = _composer(root, card_set, Localizer(root, locale, card_set), units, variant)
    result = comp.items(), comp.extras()
    if _COMPOSED is not None:
        _COMPOSED[key] = (card_set, result)  # the set is kept so that its id stays its own
    return result


# compositions kept while a composed_once block runs: key -> (the set, its items and extras)
_COMPOSED: dict[tuple[Path, int, str, str, str | None], tuple[CardSet, tuple[list[PrintItem], list[PrintItem]]]] | None = None


@contextlib.contextmanager
def composed_once() -> Iterator[None]:
    """Within the block, :func:`compose_set` composes each set, locale, units and
    variant once and gives every later call the same items (the review page
    lays out each face for its fit check, its length budgets and its images);
    callers must not change them.  The files are not read again inside the
    block, so it should span one command's run, no more."""
    global _COMPOSED
    outer = _COMPOSED
    _COMPOSED = {} if outer is None else outer
    try:
        yield
    finally:
        _COMPOSED = outer


def _entry_of(loc: Localizer, english: Mapping[str, SourceString], key: str, locale: str) -> tuple[str, int]:
    """Where a string of a fit is written: its catalog entry, else its English source."""
    if key.startswith("ui:"):
        return loc.where_ui(key[3:])
    if locale != "en" and loc.where(key)[0]:
        return loc.where(key)
    if key in english:
        return english[key].file, english[key].line
    return "", 0


def fit_issues(root: Path, card_set: CardSet, locale: str, fits: list[FieldFit]) -> list[Issue]:
    """Build errors for strings that do not fit, located at their source."""
    loc = Localizer(root, locale, card_set)
    english = {s.msgctxt: s for s in card_set.strings}
    out = []
    for f in fits:
        file, line = _entry_of(loc, english, f.key.split(",")[0], locale)
        out.append(Issue("P010", f"{f.key} ({locale}) does not fit field '{f.field}' of {f.card}: {f.result.describe()}",
                         file=file, line=line, column=1))
    return out


def _composer(root: Path, card_set: CardSet, loc: Localizer, units: str, variant: str | None) -> Composer:
    from cardkit.render.images import art_loader  # (the artwork as the faces' `images:` asks)

    book = load_faces(root, card_set, variant)
    return Composer(card_set, loc, book, art=art_loader(root, book.images), options={"units": units})


def english_where_too_long(root: Path, card_set: CardSet, locale: str, units: str, variant: str | None,
                           items: list[PrintItem], extras: list[PrintItem]
                           ) -> tuple[list[PrintItem], list[PrintItem], list[Issue]]:
    """The pseudo-locale's way with a box whose text does not fit even at its
    minimum size: on that card the box's strings print as their English source
    (no brackets, no accents, so the designer sees the place on the sheet), and
    each such string is a W030 warning on its own catalog entry.  Only the
    faces of the cards concerned are composed again; the other cards keep their
    pseudo text.  What still does not fit in English is left for the P010 check."""
    bad = bad_fits(_faces(items + extras))
    if not bad:
        return items, extras, []
    keys_of: dict[str, set[str]] = {}
    for f in bad:
        keys_of.setdefault(f.card, set()).update(k for k in f.key.split(",") if k)
    cards_of: dict[frozenset[str], set[str]] = {}  # one composition per distinct set of strings
    for card, keys in keys_of.items():
        cards_of.setdefault(frozenset(keys), set()).add(card)
    loc = Localizer(root, locale, card_set)
    english = {s.msgctxt: s for s in card_set.strings}

    def swap(mine: PrintItem, alt: PrintItem, cards: set[str]) -> PrintItem:
        front = alt.front if mine.front.card in cards else mine.front
        back = alt.back if mine.back is not None and mine.back.card in cards else mine.back
        return mine if front is mine.front and back is mine.back else PrintItem(front, back, mine.deck)

    for english_keys, cards in sorted(cards_of.items(), key=lambda kv: sorted(kv[1])):
        comp = _composer(root, card_set, loc.without(english_keys), units, variant)
        alt_items, alt_extras = comp.items(), comp.extras()
        items = [swap(a, b, cards) for a, b in zip(items, alt_items)]
        extras = [swap(a, b, cards) for a, b in zip(extras, alt_extras)]
    warnings = []
    for f in bad:
        for key in dict.fromkeys(k for k in f.key.split(",") if k):
            file, line = _entry_of(loc, english, key, locale)
            warnings.append(Issue("W030", f"{key} ({locale}) prints in English on {f.card}, field '{f.field}': "
                                  f"the pseudo text {f.result.describe()}", file=file, line=line, column=1,
                                  severity=Severity.WARNING))
    return items, extras, warnings


Edges = tuple[float, float, float, float]  # bleed beyond the trim: left, bottom, right, top


def _place(face: Face, x: float, y: float, bleed: float | Edges, turned: bool) -> Group:
    """``face`` with its trim's bottom-left corner at (x, y), clipped to its
    bleed (one width all round, or per edge on the page), turned 180° about its
    centre when ``turned``."""
    t = face.template
    left, bottom, right, top = (bleed,) * 4 if isinstance(bleed, (int, float)) else bleed
    if turned:  # the page's left edge is the face's right edge
        left, bottom, right, top = right, top, left, bottom
    clip = (-left, -bottom, t.width + left + right, t.height + bottom + top)
    if turned:
        return Group((Group(tuple(face.ops), clip=clip),), dx=x + t.width, dy=y + t.height, rotate=180)
    return Group(tuple(face.ops), dx=x, dy=y, clip=clip)


FOOTER_SIZE = 6.5
FOOTER_MIN = 4.0


def footer_place(book: FontBook, sheet: Sheet, text: str, locale: str
                 ) -> tuple[float, tuple[float, float, float, float, bool]] | None:
    """Where and how large the page footer ``text`` prints: the first band of
    :func:`footer_bands` that holds it at full size, else the band that holds
    it largest down to 4 pt; None when no band holds it (it is left out)."""
    chain = book.chain(locale, "body")
    width = book.width(text, chain, 1.0)  # per point of size
    best: tuple[float, tuple[float, float, float, float, bool]] | None = None
    for band in footer_bands(sheet):
        x0, y0, x1, y1, turned = band
        length, depth = (y1 - y0, x1 - x0) if turned else (x1 - x0, y1 - y0)
        size = min(FOOTER_SIZE, depth / 1.3, length / width if width else FOOTER_SIZE)
        if size >= FOOTER_SIZE - 1e-6:
            best = (size, band)
            break
        if size >= FOOTER_MIN and (best is None or size > best[0]):
            best = (size, band)
    return best


def _footer(doc: PdfDocument, sheet: Sheet, text: str, locale: str) -> None:
    """The page footer where :func:`footer_place` puts it; left out when no band
    holds it (it is never clipped and never enters the printer margin)."""
    best = footer_place(doc.book, sheet, text, locale)
    if best is None:
        return
    size, (x0, y0, x1, y1, turned) = best
    text_op = Text(0, 0, text, locale, "body", round(size, 2), "#666666")
    if turned:  # reads bottom to top; descenders toward the cards
        doc.draw([Group((text_op,), dx=x1 - 0.32 * size, dy=y0, rotate=90)])
    else:
        doc.draw([Text(x0, y0 + 0.32 * size, text, locale, "body", round(size, 2), "#666666")])


def _size_text(v: float) -> str:
    """A length in mm as a ruler shows it: 63, 63.5, 88.9."""
    return f"{round(v / MM, 1):g}"


LABEL_GAP = 1 * MM  # between a calibration cross and its label
LABEL_ASCENT = 7.5  # pt: the tallest glyph of a 9 pt label above its baseline (Korean included)
SCALE_ROOM = 9 * MM  # the millimetre scale at the foot of the help box
HELP_PAD = 3 * MM  # inside the help box


def mm_scale(x: float, y: float, length_mm: int) -> list[Op]:
    """A ruler of ``length_mm`` millimetres from (x, y) to the right: a tick
    every millimetre, longer every 5 and 10, numbered every 10, to check that
    the page printed at actual size."""
    ops: list[Op] = [Line(x, y, x + length_mm * MM, y, INK, 0.4)]
    for i in range(length_mm + 1):
        h = 3.5 * MM if i % 10 == 0 else 2.5 * MM if i % 5 == 0 else 1.5 * MM
        ops.append(Line(x + i * MM, y, x + i * MM, y + h, INK, 0.3))
    return ops


def _scale_labels(doc: PdfDocument, x: float, y: float, length_mm: int, locale: str) -> list[Op]:
    ops: list[Op] = []
    for i in range(0, length_mm + 1, 10):
        label = f"{i} mm" if i == length_mm else str(i)
        w = doc.book.width(str(i), doc.book.chain(locale, "body"), 6)
        ops.append(Text(x + i * MM - w / 2, y - 2.6 * MM, label, locale, "body", 6, INK))
    return ops


def calibration_pages(doc: PdfDocument, sheet: Sheet, loc: Localizer, duplex: str, title: str) -> None:
    """A front and back page with matching crosses in every card slot of
    ``sheet`` (on a gutterfold sheet, one page: the crosses behind the fold)."""
    book = doc.book
    for side in ("front", "back"):
        if side == "back" and (duplex == "none" or sheet.fold):
            break
        ops: list[Op] = []
        label = loc.ui(f"calibration.{side}")
        for slot in range(sheet.per_page):
            if side == "front":
                places = [(*sheet.trim_xy(slot), False, label)]
                if sheet.fold:
                    places.append((*sheet.fold_xy(slot), loc.ui("calibration.back")))
            else:
                target, turned = back_slot(sheet, slot, duplex)
                places = [(*sheet.trim_xy(target), turned, label)]
            arm = min(12 * MM, 0.28 * min(sheet.card_w, sheet.card_h))  # the cross fits any card
            for tx, ty, turned, text in places:
                cx, cy = tx + sheet.card_w / 2, ty + sheet.card_h / 2
                ops.append(Rect(tx, ty, sheet.card_w, sheet.card_h, stroke="#999999", lw=0.4))
                ops.append(Line(cx - arm, cy, cx + arm, cy, INK, 0.5))
                ops.append(Line(cx, cy - arm, cx, cy + arm, INK, 0.5))
                ops.append(Circle(cx, cy, min(5 * MM, 0.42 * arm), stroke=INK, lw=0.5))
                tag = f"{text} {slot + 1}"
                w = book.width(tag, book.chain(loc.locale, "bold"), 9)
                # the label sits beyond the end of the cross's arm (turned: above it), clear of its lines
                reach = arm + LABEL_GAP + LABEL_ASCENT
                if turned:
                    ops.append(Group((Text(-w / 2, 0, tag, loc.locale, "bold", 9, INK),), dx=cx, dy=cy + reach, rotate=180))
                else:
                    ops.append(Text(cx - w / 2, cy - reach, tag, loc.locale, "bold", 9, INK))
        doc.draw(crop_marks(sheet, sheet.per_page))
        doc.draw(ops)
        doc.draw(fold_line(sheet))
        if side == "front":
            _keys, headings, paragraphs = calibration_texts(sheet, loc, duplex)
            _help_box(doc, sheet, loc, headings, paragraphs)
        _footer(doc, sheet, f"{title} · {loc.ui('calibration.title')}", loc.locale)
        doc.end_page()


def help_box_layout(sheet: Sheet, locale: str, headings: list[str], paragraphs: list[str],
                    book: FontBook) -> tuple[tuple[float, float, float, float], ColumnResult]:
    """The help box of a calibration page, (x, y, w, h), and its text laid
    out in it: what :func:`_help_box` prints and what ``l10n check`` fits."""
    from cardkit.layout.textfit import Block, fit_column

    pad = HELP_PAD
    w = min(sheet.page_w - 2 * sheet.left - 20 * MM, 2.6 * sheet.card_w)
    h = min(max(sheet.card_h * 0.75, 62 * MM), sheet.page_h - 2 * sheet.margin)
    x = (sheet.page_w - w) / 2
    y = (sheet.page_h - h) / 2
    blocks = [Block(t, Style(locale, "title", 1.15), ratio=1.25, gap_after=0.5) for t in headings]
    blocks += [Block(t, Style(locale, "bold" if i == 0 else "body", 1.25), gap_after=0.5) for i, t in enumerate(paragraphs)]
    return (x, y, w, h), fit_column(blocks, w - 2 * pad, h - 2 * pad - SCALE_ROOM, 9, 6, book)


def calibration_texts(sheet: Sheet, loc: Localizer, duplex: str) -> tuple[list[str], list[str], list[str]]:
    """The interface strings of a calibration front page's help box: (keys,
    headings, paragraphs), as :func:`calibration_pages` prints them."""
    keys, notes = ["calibration.title", "sheet.actual_size"], [
        loc.ui("sheet.actual_size", width=_size_text(sheet.card_w), height=_size_text(sheet.card_h))]
    if duplex == "none" or sheet.fold:
        keys.append("sheet.fronts_only")
        notes.append(loc.ui("sheet.fronts_only"))
    else:
        edge = f"sheet.edge.{duplex.split('-')[0]}"
        keys += ["sheet.duplex", edge]
        notes.append(loc.ui("sheet.duplex", edge=loc.ui(edge)))
    if not sheet.fold:  # a gutterfold sheet is printed on one side
        keys.append("calibration.help")
        notes.append(loc.ui("calibration.help"))
    return keys, [loc.ui("calibration.title")], notes


def calibration_label_width(sheet: Sheet, locale: str, label: str, book: FontBook) -> float:
    """Width of the widest slot label (``Front 8``) of a calibration page."""
    return book.width(f"{label} {sheet.per_page}", book.chain(locale, "bold"), 9)


def _help_box(doc: PdfDocument, sheet: Sheet, loc: Localizer, headings: list[str], paragraphs: list[str]) -> None:
    """A white box in the middle of the page: a heading, then paragraphs, laid
    out by the same text code as the cards (the first paragraph in bold)."""
    pad = HELP_PAD
    (x, y, w, h), res = help_box_layout(sheet, loc.locale, headings, paragraphs, doc.book)
    ops: list[Op] = [Rect(x, y, w, h, fill="#ffffff", stroke=INK, lw=0.6)]
    length = min(100, int((w - 2 * pad) / MM) // 10 * 10)
    ops += mm_scale(x + pad, y + pad + 3 * MM, length) + _scale_labels(doc, x + pad, y + pad + 3 * MM, length, loc.locale)
    top = y + h - pad
    for block, lines, size in res.blocks:
        yy = top - size * 0.95
        for line in lines:
            for p in line.pieces:
                if p.kind == "text" and p.value.strip():
                    ops.append(Text(x + pad + p.x, yy, p.value, loc.locale, p.role, size, INK))
            yy -= size * block.style.leading
        top -= block_height(len(lines), size, block.style.leading) + block.gap_after * res.size
    doc.draw(ops)


def game_tokens(card_set: CardSet, loc: Localizer) -> list[Token]:
    """The tokens the set's game plugin prints (its ``tokens`` hook), none without one."""
    from cardkit.plugins import plugin_for

    plugin = plugin_for(card_set.game)
    if plugin is None or plugin.tokens is None:
        return []
    return [t for t in plugin.tokens(card_set, loc.ui) if t.count > 0]


TOKEN_R = 11 * MM  # the radius of a token and of a team marker on the token page
TEAM_RING = 2 * MM  # a team marker's white ring, this far inside its edge
TEAM_NAME = ("title", 9.0)  # the role and size of the team's name across its marker
TEAM_NAME_DY = 0.5 * MM  # its baseline, from the marker's centre
TOKEN_LABEL: tuple[str, float, float] = ("bold", 6, -8.5 * MM)  # a token's label: role, size, baseline from the disc's centre
TEAM_LABEL: tuple[str, float, float] = ("body", 6, -4 * MM)  # the label under a team's name on its marker (``tokens.team``)
TOKEN_MARGIN = 18 * MM  # the token page's side margins
TOKEN_HEADING, TOKEN_CUT = ("title", 12), ("body", 8)  # the page's heading and its cutting instruction


def _chord(radius: float, dy: float) -> float:
    """The width of a circle of ``radius`` along the line ``dy`` from its centre."""
    return 2 * max(radius * radius - dy * dy, 0.0) ** 0.5


DISC_MIN_SCALE = 0.8  # a text across a disc shrinks to 80 % at most: 4.8 pt for a 6 pt label, the smallest
# minimum size the bundled faces give a field


class TokenText(Enum):
    """The texts the token page fits: across a disc, a token's label, a team's
    name across its marker, the label under it (``tokens.team``); one line
    between the page's margins, its heading and its cutting instruction."""
    TOKEN_LABEL = "token label"
    TEAM_NAME = "team name"
    TEAM_LABEL = "team marker label"
    HEADING = "heading"
    INSTRUCTION = "instruction"


@dataclass(frozen=True)
class TokenTextFit:
    """How one text fits across its disc of the token page: the size it prints
    at (its nominal size, else the largest size down to ``min_size``, 0.1 pt
    steps, at which it fits; ``min_size`` when nothing does) and its width
    there, against the room it has, in points.  The one fit rule of the token
    page: :func:`token_page` prints at :attr:`size` and refuses what does not
    fit (P010), ``l10n check`` reports the same (T950)."""
    kind: TokenText
    text: str
    role: str
    size: float
    nominal: float
    min_size: float
    width: float
    room: float
    dy: float  # the baseline, from the disc's centre

    @property
    def ok(self) -> bool:
        return self.width <= self.room + 1e-6

    def describe(self) -> str:
        """``'Lamp' is 20.1 mm wide at its minimum 4.8pt, the token 14.0 mm along its baseline``."""
        at = f"at {self.size:g}pt" if self.ok or self.min_size == self.nominal else f"at its minimum {self.min_size:g}pt"
        if self.kind in (TokenText.HEADING, TokenText.INSTRUCTION):
            return (f"'{self.text}' is {self.width / MM:.1f} mm wide {at}, the page {self.room / MM:.1f} mm "
                    f"between its margins")
        where = "the token" if self.kind is TokenText.TOKEN_LABEL else "the marker's ring"
        return (f"'{self.text}' is {self.width / MM:.1f} mm wide {at}, {where} {self.room / MM:.1f} mm "
                f"along its baseline")


def token_text_fit(book: FontBook, locale: str, text: str, kind: TokenText, page_w: float = 0.0) -> TokenTextFit:
    """The fit of ``text`` printed as ``kind`` on the token page (across its
    disc; the heading and the instruction: on one line between the margins of
    a page ``page_w`` wide) (:class:`TokenTextFit`): what :func:`token_page`
    prints and ``l10n check`` checks."""
    role: str
    nominal: float
    dy = 0.0
    line = kind in (TokenText.HEADING, TokenText.INSTRUCTION)  # a line of the page prints at its size (no shrinking)
    if line:
        (role, nominal), radius = TOKEN_HEADING if kind is TokenText.HEADING else TOKEN_CUT, 0.0
    elif kind is TokenText.TOKEN_LABEL:
        (role, nominal, dy), radius = TOKEN_LABEL, TOKEN_R
    elif kind is TokenText.TEAM_LABEL:
        (role, nominal, dy), radius = TEAM_LABEL, TOKEN_R - TEAM_RING
    else:
        (role, nominal), dy, radius = TEAM_NAME, TEAM_NAME_DY, TOKEN_R - TEAM_RING
    if line:
        room = page_w - 2 * TOKEN_MARGIN
    else:
        room = 2 * (TOKEN_R - TEAM_RING) if kind is TokenText.TEAM_NAME else _chord(radius, dy)
    chain = book.chain(locale, role)
    min_size = nominal if line else round(nominal * DISC_MIN_SCALE, 1)
    size: float = nominal
    width = book.width(text, chain, size)
    if width > room + 1e-6:  # the largest 0.1 pt step that fits, else the minimum
        step = max(int(nominal * room / width * 10), int(round(min_size * 10)))
        size = step / 10
        width = book.width(text, chain, size)
        while width > room + 1e-6 and size > min_size + 1e-6:
            size = round(size - 0.1, 1)
            width = book.width(text, chain, size)
    return TokenTextFit(kind, text, role, size, nominal, min_size, width, room, dy)


def token_label_keys(card_set: CardSet, loc: Localizer) -> dict[str, str]:
    """The interface string behind each label of :func:`game_tokens`: label -> key."""
    from cardkit.plugins import plugin_for

    keys: dict[str, str] = {}

    def ui(key: str, **values: object) -> str:
        text = loc.ui(key, **values)
        keys.setdefault(text, key)
        return text

    plugin = plugin_for(card_set.game)
    if plugin is not None and plugin.tokens is not None:
        plugin.tokens(card_set, ui)
    return keys


@dataclass(frozen=True)
class TokenPageText:
    """A text across a disc of the token page, with the string behind it:
    ``ui:<id>`` for an interface string, else the msgctxt (empty for a label
    the game's plugin wrote without one)."""
    key: str
    fit: TokenTextFit


def token_page_fits(book: FontBook, card_set: CardSet, loc: Localizer, page_w: float | None = None,
                    title: str = "") -> list[TokenPageText]:
    """Every distinct text :func:`token_page` prints across a disc (a token's
    label once however many copies print), and with ``page_w`` its heading
    (``tokens.title``, else the sheet ``title``, on ``set.title``) and its
    instruction on a page that wide, fitted as it prints: what ``l10n check``
    reports (T950) and the PDF build refuses (P010)."""
    tokens = game_tokens(card_set, loc)
    if not tokens and not card_set.teams:
        return []
    keys = token_label_keys(card_set, loc) if tokens else {}
    texts: list[tuple[str, str, TokenText]] = [
        (f"ui:{keys[t.label]}" if t.label in keys else "", t.label, TokenText.TOKEN_LABEL) for t in tokens]
    for team in card_set.teams:
        texts.append((f"set.teams.{team.id}.name", loc.card(f"set.teams.{team.id}.name"), TokenText.TEAM_NAME))
    if card_set.teams and "tokens.team" in loc.set_ui:
        texts.append(("ui:tokens.team", loc.ui("tokens.team"), TokenText.TEAM_LABEL))
    if page_w is not None:
        own = "tokens.title" in loc.set_ui
        texts.append(("ui:tokens.title" if own else "set.title", loc.ui("tokens.title") if own else title,
                      TokenText.HEADING))
        texts.append(("ui:tokens.cut", loc.ui("tokens.cut"), TokenText.INSTRUCTION))
    out: dict[tuple[str, str, TokenText], TokenPageText] = {}
    for key, text, kind in texts:
        if text and (key, text, kind) not in out:
            out[(key, text, kind)] = TokenPageText(key, token_text_fit(book, loc.locale, text, kind, page_w or 0.0))
    return list(out.values())


def _shown(key: str) -> str:
    """A string's key as a message names it: its msgctxt (``tokens.support``, not ``ui:tokens.support``)."""
    return key[3:] if key.startswith("ui:") else key


def token_page_strings(root: Path, card_set: CardSet, loc: Localizer, book: FontBook, page_w: float | None = None,
                       title: str = "") -> tuple[Localizer, list[Issue], list[Issue]]:
    """The token page's fit rule for a build, as :func:`printable_set` has it
    for the cards: (the localizer the page prints with, its warnings, its
    errors; the heading and instruction too, given the page's width and the
    sheet title).  A text that does not fit even at its minimum size
    is a P010 on its string's entry; the pseudo-locale prints that string in
    English instead, with a W030 (a preview of fit, not a print), and what
    does not fit in English either is a P010."""
    bad = [t for t in token_page_fits(book, card_set, loc, page_w, title) if not t.fit.ok]
    english = {s.msgctxt: s for s in card_set.strings}
    warnings: list[Issue] = []
    where = {t.key: _entry_of(loc, english, t.key, loc.locale) if t.key else ("", 0) for t in bad}
    if bad and loc.locale == PSEUDO and any(t.key for t in bad):
        for t in bad:
            if t.key:
                file, line = where[t.key]
                warnings.append(Issue("W030", f"{_shown(t.key)} ({loc.locale}) prints in English on the token page, "
                                      f"{t.fit.kind.value}: the pseudo text {t.fit.describe()}", file=file,
                                      line=line, column=1, severity=Severity.WARNING))
        printed = loc.without([t.key for t in bad if t.key])
        bad = [t for t in token_page_fits(book, card_set, printed, page_w, title) if not t.fit.ok]
        loc = printed
    errors = []
    for t in bad:
        file, line = where.get(t.key, ("", 0))
        errors.append(Issue("P010", f"{_shown(t.key) or t.fit.text} ({loc.locale}) does not fit the token page's "
                                    f"{t.fit.kind.value}: {t.fit.describe()}", file=file, line=line,
                            column=1 if file else 0))
    return loc, warnings, errors


def _disc_text(fit: TokenTextFit, cx: float, cy: float, locale: str, colour: str) -> Text:
    """``fit``'s text centred across the disc at (cx, cy), at its size."""
    return Text(cx - fit.width / 2, cy + fit.dy, fit.text, locale, fit.role, fit.size, colour)


def token_page(doc: PdfDocument, sheet: Sheet, card_set: CardSet, loc: Localizer, duplex: str, title: str,
               icons: Mapping[str, SvgIcon] | None = None) -> None:
    """The game's tokens (its plugin's ``tokens`` hook) and a marker per team of the
    manifest, as circles to cut out; a token's icon is one of the set's ``icons``
    (its face file's SVG icons) or cardkit's own."""
    icons = icons or {}
    tokens = game_tokens(card_set, loc)
    teams = card_set.teams
    if not tokens and not teams:
        return
    ops: list[Op] = []
    r = TOKEN_R
    margin = TOKEN_MARGIN
    x, y = margin, sheet.page_h - 30 * MM
    # the heading and the team markers' label are the game's words (its set's strings
    # ``tokens.title`` and ``tokens.team``); a set without them is headed by its title
    heading = loc.ui("tokens.title") if "tokens.title" in loc.set_ui else title
    book = doc.book
    for text, kind, y_line in ((heading, TokenText.HEADING, sheet.page_h - 15 * MM),
                               (loc.ui("tokens.cut"), TokenText.INSTRUCTION, sheet.page_h - 20 * MM)):
        fit = token_text_fit(book, loc.locale, text, kind, sheet.page_w)
        ops.append(Text(margin, y_line, text, loc.locale, fit.role, fit.size, INK))
    for token in tokens:
        for _i in range(token.count):
            cx, cy = x + r, y - r
            ops.append(Circle(cx, cy, r, fill=token.fill, stroke=INK, lw=0.6))
            if token.icon:
                ops.append(icon_op(icons, token.icon, cx - 7 * MM, cy - 5 * MM, 14 * MM, token.icon_colour))
            ops.append(_disc_text(token_text_fit(book, loc.locale, token.label, TokenText.TOKEN_LABEL), cx, cy,
                                  loc.locale, INK))
            x += 2 * r + 5 * MM
            if x + 2 * r > sheet.page_w - margin:
                x, y = margin, y - 2 * r - 5 * MM
    x, y = margin, y - 2 * r - 12 * MM
    for team in teams:
        cx, cy = x + r, y - r
        name = loc.card(f"set.teams.{team.id}.name")
        ops.append(Circle(cx, cy, r, fill=team.colour, stroke=INK, lw=0.6))
        ops.append(Circle(cx, cy, r - TEAM_RING, stroke="#ffffff", lw=1))
        label = loc.ui("tokens.team") if "tokens.team" in loc.set_ui else ""
        for txt, kind in ((name, TokenText.TEAM_NAME), (label, TokenText.TEAM_LABEL)):
            if txt:
                ops.append(_disc_text(token_text_fit(book, loc.locale, txt, kind), cx, cy, loc.locale, "#ffffff"))
        x += 2 * r + 5 * MM
        if x + 2 * r > sheet.page_w - margin:
            x, y = margin, y - 2 * r - 5 * MM
    doc.draw(ops)
    _footer(doc, sheet, f"{title} · {heading}", loc.locale)
    doc.end_page()
    if duplex != "none":  # keep fronts on odd pages
        doc.end_page()


def size_groups(items: list[PrintItem]) -> list[list[PrintItem]]:
    """The cards grouped by trim size (width and height, so orientation too),
    each group in print order, the groups in the order their first card comes."""
    groups: dict[tuple[float, float], list[PrintItem]] = {}
    for it in items:
        t = it.front.template
        groups.setdefault((round(t.width, 3), round(t.height, 3)), []).append(it)
    return list(groups.values())


def _check_back_sizes(items: list[PrintItem]) -> None:
    """A back must be its front's size to sit behind it."""
    bad: dict[tuple[str, str], Issue] = {}
    for it in items:
        if it.back is None:
            continue
        f, b = it.front.template, it.back.template
        if abs(f.width - b.width) > 0.01 or abs(f.height - b.height) > 0.01:
            key = (it.front.card, it.back.id)
            bad.setdefault(key, Issue(
                "B009", f"the back {it.back.id} is {_size_text(b.width)} x {_size_text(b.height)} mm but the card "
                f"{it.front.id} it goes behind is {_size_text(f.width)} x {_size_text(f.height)} mm: give the back "
                "face the front's size"))
    if bad:
        raise CardkitError(list(bad.values()))


def _card_page(doc: PdfDocument, sheet: Sheet, chunk: list[PrintItem]) -> None:
    """The fronts of ``chunk`` (on a gutterfold sheet with their backs behind the fold), then the marks."""
    n = len(chunk)
    doc.set_boxes(sheet.trim_box(n), sheet.bleed)
    groups = [_place(item.front, *sheet.trim_xy(i), sheet.bleeds(i, n), False) for i, item in enumerate(chunk)]
    if sheet.fold:
        for i, item in enumerate(chunk):
            if item.back is not None:
                x, y, turned = sheet.fold_xy(i)
                groups.append(_place(item.back, x, y, sheet.bleed, turned))
    doc.draw(groups)
    doc.draw(crop_marks(sheet, n))
    doc.draw(fold_line(sheet))


def _back_page(doc: PdfDocument, sheet: Sheet, chunk: list[PrintItem], duplex: str) -> None:
    """The backs of ``chunk``, each behind its front for the flip edge."""
    n = len(chunk)
    filled = {back_slot(sheet, i, duplex)[0] for i in range(n)}
    backed = sorted(back_slot(sheet, i, duplex)[0] for i, item in enumerate(chunk) if item.back is not None)
    if backed:  # boxes around the backs drawn: the mirror of the front's (on a last sheet too)
        doc.set_boxes(sheet.slots_box(backed), sheet.bleed)
    groups = []
    for i, item in enumerate(chunk):
        if item.back is None:
            continue
        slot, turned = back_slot(sheet, i, duplex)
        groups.append(_place(item.back, *sheet.trim_xy(slot), _back_bleeds(sheet, slot, filled), turned))
    doc.draw(groups)


def _back_bleeds(sheet: Sheet, slot: int, filled: set[int]) -> tuple[float, float, float, float]:
    """Shared-edge backs: bleed on every edge whose neighbour holds no back."""
    if not sheet.shared:
        return sheet.bleeds(slot, sheet.per_page)
    r, c = divmod(slot, sheet.cols)
    b = sheet.bleed

    def held(rr: int, cc: int) -> bool:
        return 0 <= rr < sheet.rows and 0 <= cc < sheet.cols and rr * sheet.cols + cc in filled

    return (0.0 if held(r, c - 1) else b, 0.0 if held(r + 1, c) else b, 0.0 if held(r, c + 1) else b,
            0.0 if held(r - 1, c) else b)


CALIBRATION = ("every-size", "first", "none")


def build_pdf(root: Path, card_set: CardSet, locale: str, paper: str = "a4", duplex: str = "long-edge",
              bleed: float | None = None, mode: str = "cards", out: Path | None = None, units: str = "inch",
              margin: float = DEFAULT_MARGIN, layout: str = "grid", colours: ColourOptions = RGB_OUTPUT,
              variant: str | None = None, orientation: str = "auto", min_bleed: float | None = None,
              calibration: str = "every-size") -> BuildResult:
    """Write ``output/<set>-<locale>-<paper>.pdf`` (or ``out``; ``-<layout>``
    is added for a layout other than the grid); raise with every string that
    does not fit.  Cards of each trim size get their own sheets, calibration
    page included, in the order the first card of each size is printed.
    ``colours`` CMYK writes a PDF/X-1a file in DeviceCMYK (``-cmyk`` is added
    to the default name); ``variant`` draws the faces with that variant of the
    face file (``-<variant>`` is added to the default name).  ``orientation``
    auto turns each size's sheets landscape when that holds more of its cards;
    without ``bleed``, each size gets at least ``min_bleed`` (default 1 mm,
    3 mm for CMYK) where a card fits with it.  ``calibration``: the calibration
    pages of every size, of the first size only, or none."""
    issues = []
    if duplex not in ("long-edge", "short-edge", "none"):
        issues.append(Issue("B003", f"unknown --duplex '{duplex}' (long-edge, short-edge or none)"))
    if mode not in ("cards", "inserts"):
        issues.append(Issue("B004", f"unknown --mode '{mode}' (cards or inserts)"))
    if calibration not in CALIBRATION:
        issues.append(Issue("B013", f"unknown --calibration '{calibration}' (use {', '.join(CALIBRATION)})"))
    try:
        check_sheet_options(paper, bleed, margin, layout, orientation)
    except CardkitError as exc:
        issues += exc.issues
    if issues:  # every bad option at once, before anything is composed
        raise CardkitError(issues)
    paper = paper.strip().lower()
    floor = min_bleed if min_bleed is not None else MIN_BLEED_PRESS if colours.space == "cmyk" else MIN_BLEED
    try:
        items, extras, warnings = printable_set(root, card_set, locale, units, variant)
    except CardkitError as exc:
        if mode == "cards" and all(i.code == "P010" for i in exc.issues):  # with the token page's, in one run
            raise CardkitError(exc.issues + token_page_strings(
                root, card_set, Localizer(root, locale, card_set), load_faces(root, card_set, variant).font_book())[2]) from None
        raise
    all_items = items + extras
    faces = _faces(all_items)
    if mode == "inserts":
        from cardkit.layout.inserts import insert_items

        all_items = insert_items(all_items)
        duplex = "none"
    _check_back_sizes(all_items)
    groups = size_groups(all_items)
    sheets = [plan_sheet(paper, g[0].front.template.width, g[0].front.template.height, bleed,
                         margin=margin, layout=layout, min_bleed=floor, orientation=orientation) for g in groups]
    if sheets[0].fold:
        duplex = "none"  # the backs are behind the fold
    loc = Localizer(root, locale, card_set)
    title = loc.ui("sheet.title", title=loc.card("set.title"), language=LANGUAGE_NAMES.get(locale, locale))
    face_book = load_faces(root, card_set, variant)
    token_loc = loc
    if mode == "cards":  # the token page's texts, before anything is drawn, in the fonts that print them
        token_loc, token_warnings, token_errors = token_page_strings(root, card_set, loc, face_book.font_book(),
                                                                     sheets[0].page_w, title)
        if token_errors:
            raise CardkitError(token_errors)
        warnings = warnings + token_warnings
    doc = PdfDocument((sheets[0].page_w, sheets[0].page_h), title, subject=f"{card_set.id} {locale} {paper} {duplex}",
                      lang=locale, colours=colours, book=face_book.font_book())
    page_size = (sheets[0].page_w, sheets[0].page_h)

    def use(sheet: Sheet) -> None:  # each size's sheets in its own orientation
        nonlocal page_size
        if (sheet.page_w, sheet.page_h) != page_size:
            page_size = (sheet.page_w, sheet.page_h)
            doc.set_page_size(page_size)

    total_pages = sum((len(g) + sh.per_page - 1) // sh.per_page for g, sh in zip(groups, sheets))
    page_no = 0
    for n, (group, sheet) in enumerate(zip(groups, sheets)):
        use(sheet)
        if calibration == "every-size" or (calibration == "first" and n == 0):
            calibration_pages(doc, sheet, loc, duplex, title)
        per = sheet.per_page
        for start in range(0, len(group), per):
            chunk = group[start:start + per]
            page_no += 1
            _card_page(doc, sheet, chunk)
            _footer(doc, sheet, f"{title} · {page_no}/{total_pages}", locale)
            doc.end_page()
            if duplex != "none":
                _back_page(doc, sheet, chunk, duplex)
                doc.end_page()
    if mode == "cards":
        use(sheets[0])
        token_page(doc, sheets[0], card_set, token_loc, duplex, title, load_faces(root, card_set).svg_icons)
    data = doc.finish()
    warnings = warnings + coverage_warnings(face_book, doc.uncovered)
    suffix = ("" if mode == "cards" else "-inserts") + ("" if layout == "grid" else f"-{layout}") + \
        ("" if colours.space == "rgb" else f"-{colours.space}") + ("" if variant is None else f"-{variant}")
    path = out or output_path(root / "output", f"{card_set.id}-{locale}-{paper}{suffix}.pdf", "the set id")
    atomic_write_bytes(path, data)
    fits = [f for face in faces for f in face.fits]
    facts = [SheetFacts.of(sh, floor, bleed is not None) for sh in sheets]
    return BuildResult(path, doc.pages, len(items) + len(extras), len(faces), fits, warnings, facts, len(extras))


def coverage_warnings(faces: FaceBook, uncovered: dict[tuple[str, str], set[str]]) -> list[Issue]:
    """W040 for each locale and role whose printed text has characters none of
    the game's own fonts for it has (printed in a vendored font instead),
    located at the role's entry under ``fonts: roles:`` of the face file."""
    out: list[Issue] = []
    for (locale, role), chars in sorted(uncovered.items()):
        shown = " ".join(f"'{c}' (U+{ord(c):04X})" if c.isprintable() else f"U+{ord(c):04X}" for c in sorted(chars)[:8])
        more = f" and {len(chars) - 8} more" if len(chars) > 8 else ""
        names = ", ".join(faces.fonts.source(f) for f in faces.font_book().table.own(locale, role))
        issue = faces.issue("W040", f"{locale} {role} text uses {len(chars)} character(s) that {names} lacks: "
                                    f"{shown}{more}; printed with a vendored font instead", path=faces.font_mark(locale, role))
        out.append(dataclasses.replace(issue, severity=Severity.WARNING))
    return out


def face_pdf(face: Face, bleed: float = 3 * MM, title: str = "") -> bytes:
    """One face on its own page (trim plus bleed), with TrimBox and BleedBox set."""
    return faces_pdf([face], bleed, title or face.id)


def faces_pdf(faces: Sequence[Face], bleed: float = 3 * MM, title: str = "", for_raster: bool = False) -> bytes:
    """Each face on a page of its own, drawn as :func:`face_pdf` draws it, in
    one document: the fonts are embedded once rather than once per face, and a
    frame or icon that recurs is written once.  A page rasterizes to the same
    pixels as the face's own :func:`face_pdf` (the review images are compared
    pixel for pixel).  ``for_raster``: a document only a rasterizer reads, its
    streams binary (:func:`cardkit.render.pdf.binary_streams`)."""
    if for_raster:
        from cardkit.render.pdf import binary_streams

        with binary_streams():
            return faces_pdf(faces, bleed, title)
    doc: PdfDocument | None = None
    for face in faces:
        t = face.template
        size = (t.width + 2 * bleed, t.height + 2 * bleed)
        if doc is None:
            doc = PdfDocument(size, title or face.id, book=face.book)
        else:
            doc.set_page_size(size)
        doc.set_boxes((bleed, bleed, bleed + t.width, bleed + t.height), bleed)
        doc.draw([_place(face, bleed, bleed, bleed, False)])
        doc.end_page()
    if doc is None:
        raise ValueError("faces_pdf needs at least one face")
    return doc.finish()


def _faces_by_id(items: list[PrintItem]) -> list[Face]:
    """Every distinct face (fronts, then backs) in print order."""
    seen: dict[str, Face] = {}
    for it in items:
        for face in (it.front, it.back):
            if face is not None and face.id not in seen:
                seen[face.id] = face
    return list(seen.values())


def _faces(items: list[PrintItem]) -> list[Face]:
    return [i.front for i in items] + [i.back for i in items if i.back is not None]


def printable_set(root: Path, card_set: CardSet, locale: str, units: str = "inch", variant: str | None = None
                  ) -> tuple[list[PrintItem], list[PrintItem], list[Issue]]:
    """The set's items and extras as every build prints them, with the warnings
    to show: composed in ``locale``, then for the pseudo-locale (a preview of
    fit, not for print: the build goes on, docs/translation.md) a box that does
    not fit even at its minimum size in English (W030); raises P010 with every
    string that still does not fit.  The one home of the fit rule for the PDF,
    PNG, print-shop and Tabletop Simulator builds."""
    items, extras = compose_set(root, card_set, locale, units, variant)
    warnings: list[Issue] = []
    if locale == PSEUDO:
        items, extras, warnings = english_where_too_long(root, card_set, locale, units, variant, items, extras)
    _check_fits(root, card_set, locale, items + extras)
    return items, extras, warnings


@dataclass
class ImageFiles:
    """What a PNG or Tabletop Simulator build wrote, and its warnings (W030)."""
    paths: list[Path]
    warnings: list[Issue] = field(default_factory=list)


def _check_fits(root: Path, card_set: CardSet, locale: str, items: list[PrintItem]) -> None:
    bad = bad_fits(_faces(items))
    if bad:
        raise CardkitError(fit_issues(root, card_set, locale, bad))


def face_files(root: Path, card_set: CardSet, folder: Path, faces: list[Face]) -> list[tuple[Face, Path]]:
    """Each face with the PNG file it is written to in ``folder`` (named from
    its face id through :func:`cardkit.fsutil.output_path`); every face id that
    makes no safe file name is reported at once (P006, located at the face's
    ``id`` in the face file), before anything is written."""
    book = load_faces(root, card_set)
    out: list[tuple[Face, Path]] = []
    issues: list[Issue] = []
    for face in faces:
        try:
            out.append((face, output_path(folder, f"{face_file_stem(face.id)}.png", f"the id of face '{face.template.name}'")))
        except CardkitError as exc:
            line, column = book.id_marks.get(face.template.name, (1, 1))
            issues.extend(Issue(i.code, i.message, file=book.file, line=line, column=column) for i in exc.issues)
    if issues:
        raise CardkitError(list(dict.fromkeys(issues)))
    return out


def fitted_face(face: Face, fit: Fitted | None, x: float, y: float, bleed: tuple[float, float, float, float]) -> Op:
    """``face`` on the trim of ``fit`` (its product's size) whose bottom-left
    corner is (x, y), clipped to that trim plus ``bleed`` (left, bottom, right,
    top): as it is, scaled about its centre, or centred unscaled."""
    t = face.template
    if fit is None or fit.mode == "exact":
        return _place(face, x, y, bleed, False)
    s = fit.scale
    ox, oy = x + (fit.width - t.width * s) / 2, y + (fit.height - t.height * s) / 2
    left, bottom, right, top = bleed
    clip = ((x - left - ox) / s, (y - bottom - oy) / s, (fit.width + left + right) / s, (fit.height + bottom + top) / s)
    return Group(tuple(face.ops), dx=ox, dy=oy, clip=clip, scale=s)


def exact_png(face: Face, bleed: float, ppi: int, fit: Fitted | None = None) -> bytes:
    """``face`` with ``bleed`` as an sRGB-tagged PNG of exactly (trim + 2 x
    bleed) x ``ppi`` pixels, rounded to the nearest (the size a print service
    computes; ``build png`` and ``build shop`` both write it); ``fit``: on
    its product's trim."""
    from cardkit.render.images import rasterize_exact, srgb_png_bytes

    w, h = (fit.width, fit.height) if fit else (face.template.width, face.template.height)
    px = (round((w + 2 * bleed) * ppi / INCH), round((h + 2 * bleed) * ppi / INCH))
    page_w, page_h = (v * INCH / ppi for v in px)
    bx, by = (page_w - w) / 2, (page_h - h) / 2
    doc = PdfDocument((page_w, page_h), face.id, book=face.book)
    doc.set_boxes((bx, by, bx + w, by + h), min(bx, by))
    doc.draw([fitted_face(face, fit, bx, by, (bx, by, bx, by))])
    doc.end_page()
    return srgb_png_bytes(rasterize_exact(doc.finish(), px, ppi), ppi)


def build_png(root: Path, card_set: CardSet, locale: str, dpi: int = 300, bleed: float = 3 * MM,
              out_dir: Path | None = None) -> ImageFiles:
    """One PNG per distinct card face at ``dpi`` with bleed, in output/png/<set>-<locale>/:
    sRGB-tagged, exactly (trim + 2 x bleed) x dpi pixels, as ``build shop`` writes them."""
    if not 72 <= dpi <= 1200:
        raise CardkitError(f"--dpi {dpi} is outside 72-1200", code="B005")
    items, extras, warnings = printable_set(root, card_set, locale)
    folder = out_dir or output_path(root / "output" / "png", f"{card_set.id}-{locale}", "the set id")
    written = []
    for face, path in face_files(root, card_set, folder, _faces_by_id(items + extras)):
        atomic_write_bytes(path, exact_png(face, bleed, dpi))
        written.append(path)
    return ImageFiles(written, warnings)


def build_tts(root: Path, card_set: CardSet, locale: str, out_dir: Path | None = None) -> ImageFiles:
    """Tabletop Simulator deck sheets per deck (fronts) and one back image per
    deck (a sheet of backs when the cards' backs differ), and beside them
    ``<set>-<locale>.json``, a saved object holding a custom deck per sheet
    (:mod:`cardkit.layout.tts`) that TTS loads from its Saved Objects folder."""
    import json

    from cardkit.layout.tts import TtsDeck, saved_object, unique_names
    from cardkit.render.images import (
        TTS_MAX_COLS,
        TTS_MAX_ROWS,
        TTS_MAX_WIDTH,
        png_bytes,
        rasterize,
        tts_sheets,
    )

    items, extras, warnings = printable_set(root, card_set, locale)
    folder = out_dir or output_path(root / "output" / "tts", f"{card_set.id}-{locale}", "the set id")
    first = items[0].front.template
    scale = (TTS_MAX_WIDTH // TTS_MAX_COLS) / first.width  # card width in px at this scale
    decks: dict[str, list[PrintItem]] = {}
    for it in items + extras:
        decks.setdefault(it.deck, []).append(it)
    loc = Localizer(root, locale, card_set)
    keys = {s.msgctxt for s in card_set.strings}

    def name(card: str) -> str:
        return loc.card(f"{card}.name") if f"{card}.name" in keys else card

    per = TTS_MAX_COLS * TTS_MAX_ROWS
    written = []
    tts_decks: list[TtsDeck] = []
    for deck, its in decks.items():
        fronts = [rasterize(face_pdf(it.front, 0), scale) for it in its]
        sheet_paths = []
        for n, sheet in enumerate(tts_sheets(fronts), 1):
            path = output_path(folder, f"{deck}-{n}.png", f"deck '{deck[:40]}'")
            atomic_write_bytes(path, png_bytes(sheet))
            written.append(path)
            sheet_paths.append(path)
        backs = {it.back.id: it.back for it in its if it.back is not None}
        back_paths: list[Path] = []
        if len(backs) == 1:
            path = output_path(folder, f"{deck}-back.png", f"deck '{deck[:40]}'")
            atomic_write_bytes(path, png_bytes(tts_sheets([rasterize(face_pdf(next(iter(backs.values())), 0), scale)])[0]))
            written.append(path)
            back_paths = [path] * len(sheet_paths)
        elif backs:  # double-sided cards or per-tier backs: a sheet of backs in the same order
            for n, sheet in enumerate(tts_sheets([rasterize(face_pdf(it.back, 0), scale) for it in its if it.back]), 1):
                path = output_path(folder, f"{deck}-backs-{n}.png", f"deck '{deck[:40]}'")
                atomic_write_bytes(path, png_bytes(sheet))
                written.append(path)
                back_paths.append(path)
        unique = len(backs) > 1 and all(it.back is not None for it in its)
        if not back_paths or (len(backs) > 1 and not unique):  # no back, or backs that do not line up: a plain one
            path = output_path(folder, f"{deck}-plain-back.png", f"deck '{deck[:40]}'")
            plain = fronts[0].copy()
            plain.paste((255, 255, 255), (0, 0, *plain.size))
            atomic_write_bytes(path, png_bytes(plain))
            written.append(path)
            back_paths, unique = [path] * len(sheet_paths), False
        names = unique_names([name(it.front.card) for it in its])
        title = deck if len(sheet_paths) == 1 else None
        for n, (face_path, back_path) in enumerate(zip(sheet_paths, back_paths), 1):
            chunk = names[(n - 1) * per:n * per]
            cols = min(TTS_MAX_COLS, len(chunk))
            tts_decks.append(TtsDeck(title or f"{deck} {n}", face_path.resolve().as_uri(), back_path.resolve().as_uri(),
                                     unique, cols, (len(chunk) + cols - 1) // cols, tuple(chunk)))
    obj = saved_object(f"{loc.card('set.title')} ({locale})", tts_decks)
    path = output_path(folder, f"{card_set.id}-{locale}.json", "the set id")
    atomic_write_bytes(path, (json.dumps(obj, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    written.append(path)
    return ImageFiles(written, warnings)
