"""Page furniture: the token page (the game plugin's tokens and a marker per team) and the
one fit rule of its texts, shared by the printer (P010) and ``l10n check`` (T950).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from cardkit.errors import Issue, Severity
from cardkit.layout.compose import INK, icon_op
from cardkit.layout.fonts import FontBook
from cardkit.layout.ops import Circle, Op, Text
from cardkit.layout.sheet import (
    Sheet,
)
from cardkit.layout.svgicons import SvgIcon
from cardkit.layout.units import MM
from cardkit.model import CardSet, Team
from cardkit.plugins import Token
from cardkit.printing.compose import (
    entry_of,
)
from cardkit.printing.fits import TextFit
from cardkit.printing.footer import draw_footer
from cardkit.render.pdf import PdfDocument
from cardkit.strings.locales import PSEUDO
from cardkit.strings.localize import Localizer


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
TOKEN_HEADING: tuple[str, float] = ("title", 12.0)  # the page's heading...
TOKEN_CUT: tuple[str, float] = ("body", 8.0)  # ...and its cutting instruction


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

    slot: bool = False  # a line above the discs in a free card slot (the room: the slot's width)

    @property
    def ok(self) -> bool:
        return self.width <= self.room + 1e-6

    def describe(self) -> str:
        """``'Lamp' is 20.1 mm wide at its minimum 4.8pt, the token 14.0 mm along its baseline``."""
        at = f"at {self.size:g}pt" if self.ok or self.min_size == self.nominal else f"at its minimum {self.min_size:g}pt"
        if self.slot:
            return f"'{self.text}' is {self.width / MM:.1f} mm wide {at}, the free card slot {self.room / MM:.1f} mm"
        if self.kind in (TokenText.HEADING, TokenText.INSTRUCTION):
            return (f"'{self.text}' is {self.width / MM:.1f} mm wide {at}, the page {self.room / MM:.1f} mm "
                    f"between its margins")
        where = "the token" if self.kind is TokenText.TOKEN_LABEL else "the marker's ring"
        return (f"'{self.text}' is {self.width / MM:.1f} mm wide {at}, {where} {self.room / MM:.1f} mm "
                f"along its baseline")


def token_text_fit(book: FontBook, locale: str, text: str, kind: TokenText, page_w: float = 0.0,
                   slot_w: float | None = None) -> TokenTextFit:
    """The fit of ``text`` printed as ``kind`` on the token page (across its
    disc; the heading and the instruction: on one line between the margins of
    a page ``page_w`` wide) (:class:`TokenTextFit`): what :func:`token_page`
    prints and ``l10n check`` checks.  With ``slot_w``, the heading or the
    instruction above the discs in a free card slot that wide
    (:func:`slot_tokens`): on one line inside the slot, the heading shrunk down
    to the instruction's size at most."""
    role: str
    nominal: float
    if slot_w is not None:
        role, nominal = TOKEN_HEADING if kind is TokenText.HEADING else TOKEN_CUT
        return _shrunk(book, locale, text, kind, role, nominal, TOKEN_CUT[1], slot_w - 2 * SLOT_SIDE, 0.0, slot=True)
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
    min_size = nominal if line else round(nominal * DISC_MIN_SCALE, 1)
    return _shrunk(book, locale, text, kind, role, nominal, min_size, room, dy)


def _shrunk(book: FontBook, locale: str, text: str, kind: TokenText, role: str, nominal: float, min_size: float,
            room: float, dy: float, slot: bool = False) -> TokenTextFit:
    """``text`` at ``nominal`` size, else the largest 0.1 pt step down to ``min_size`` that fits ``room``."""
    chain = book.chain(locale, role)
    size: float = nominal
    width = book.width(text, chain, size)
    if width > room + 1e-6:  # the largest 0.1 pt step that fits, else the minimum
        step = max(int(nominal * room / width * 10), int(round(min_size * 10)))
        size = step / 10
        width = book.width(text, chain, size)
        while width > room + 1e-6 and size > min_size + 1e-6:
            size = round(size - 0.1, 1)
            width = book.width(text, chain, size)
    return TokenTextFit(kind, text, role, size, nominal, min_size, width, room, dy, slot)


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
    where = {t.key: entry_of(loc, english, t.key, loc.locale) if t.key else ("", 0) for t in bad}
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


def _token_ops(token: Token, cx: float, cy: float, book: FontBook, loc: Localizer,
               icons: Mapping[str, SvgIcon]) -> list[Op]:
    """A token's disc centred at (cx, cy): its fill, its icon, its label."""
    ops: list[Op] = [Circle(cx, cy, TOKEN_R, fill=token.fill, stroke=INK, lw=0.6)]
    if token.icon:
        ops.append(icon_op(icons, token.icon, cx - 7 * MM, cy - 5 * MM, 14 * MM, token.icon_colour))
    ops.append(_disc_text(token_text_fit(book, loc.locale, token.label, TokenText.TOKEN_LABEL), cx, cy, loc.locale, INK))
    return ops


def _team_ops(team: Team, cx: float, cy: float, book: FontBook, loc: Localizer) -> list[Op]:
    """A team's marker centred at (cx, cy): its colour, a white ring, its name and the label under it."""
    r = TOKEN_R
    ops: list[Op] = [Circle(cx, cy, r, fill=team.colour, stroke=INK, lw=0.6),
                     Circle(cx, cy, r - TEAM_RING, stroke="#ffffff", lw=1)]
    name = loc.card(f"set.teams.{team.id}.name")
    label = loc.ui("tokens.team") if "tokens.team" in loc.set_ui else ""
    for txt, kind in ((name, TokenText.TEAM_NAME), (label, TokenText.TEAM_LABEL)):
        if txt:
            ops.append(_disc_text(token_text_fit(book, loc.locale, txt, kind), cx, cy, loc.locale, "#ffffff"))
    return ops


DISC_GAP = 5 * MM  # between two discs cut from a card slot
SLOT_SIDE = 1 * MM  # the heading and instruction in a free slot: this far inside its trim's sides...
SLOT_TOP = 2 * MM  # ...the heading's top this far below its trim's top
SLOT_GAP = 1 * MM  # and the discs this far below the instruction


def _disc_places(x0: float, y0: float, w: float, h: float) -> list[tuple[float, float]]:
    """Centres of as many discs as fit in the box (x0, y0, w, h), row by row, centred in it."""
    pitch = 2 * TOKEN_R + DISC_GAP
    cols, rows = int((w + DISC_GAP) // pitch), int((h + DISC_GAP) // pitch)
    left = x0 + (w - (cols * pitch - DISC_GAP)) / 2 + TOKEN_R
    top = y0 + h - (h - (rows * pitch - DISC_GAP)) / 2 - TOKEN_R
    return [(left + c * pitch, top - r * pitch) for r in range(rows) for c in range(cols)]


def disc_centres(sheet: Sheet, slots: list[int], count: int, head: float = 0.0) -> list[tuple[float, float]] | None:
    """Centres for ``count`` discs (tokens and team markers) inside the trims of the
    card ``slots`` named (the free slots of a last sheet), row by row, each slot's
    discs centred in its trim (the first slot's below its top ``head``, which holds the
    heading), :data:`DISC_GAP` apart; None when they do not all fit."""
    out: list[tuple[float, float]] = []
    for n, slot in enumerate(slots):
        x0, y0 = sheet.trim_xy(slot)
        out += _disc_places(x0, y0, sheet.card_w, sheet.card_h - (head if n == 0 else 0.0))
    return out[:count] if len(out) >= count else None


def _discs(card_set: CardSet, loc: Localizer) -> list[Token | Team]:
    """Every disc the token page cuts out: each token as many times as it counts, then a marker per team."""
    return [t for t in game_tokens(card_set, loc) for _ in range(t.count)] + list(card_set.teams)


def token_heading(card_set: CardSet, loc: Localizer, title: str) -> tuple[str, str]:
    """The token page's heading and the string behind it: the set's ``tokens.title``,
    else the sheet ``title`` (on ``set.title``)."""
    if "tokens.title" in loc.set_ui:
        return "ui:tokens.title", loc.ui("tokens.title")
    return "set.title", title


@dataclass(frozen=True)
class SlotTokens:
    """The token page printed in the free card slots of a one-sided sheet's last page:
    the heading and the cutting instruction on top of the first free slot (the heading
    shrunk to fit, down to the instruction's size), the discs below them and in the
    other free slots.  What :func:`draw_slot_tokens` prints and the furniture reports."""

    slots: tuple[int, ...]
    centres: tuple[tuple[float, float], ...]
    heading_key: str
    heading: TokenTextFit
    instruction: TokenTextFit
    x: float  # the left of the first free slot's trim
    top: float  # its top

    @property
    def heading_y(self) -> float:
        return self.top - SLOT_TOP - 0.8 * self.heading.size

    @property
    def instruction_y(self) -> float:
        return self.heading_y - 0.3 * self.heading.size - 1.0 * self.instruction.size


def _head_height(heading_size: float, instruction_size: float) -> float:
    """The room the heading and the instruction take at the top of a free slot."""
    return SLOT_TOP + 1.1 * heading_size + 1.3 * instruction_size + SLOT_GAP


def slot_tokens(sheet: Sheet, filled: int, card_set: CardSet, loc: Localizer, book: FontBook,
                title: str) -> SlotTokens | None:
    """Where the token page goes when the last page of ``sheet`` holds ``filled``
    cards: in its free slots when its layout says so (``free_slots: tokens``) and
    the discs, the heading and the instruction all fit there; None otherwise (the
    token page prints as a page of its own)."""
    from cardkit.layout.sheetlayout import sheet_layout

    discs = _discs(card_set, loc)
    if not discs or filled >= sheet.per_page or sheet_layout(sheet.layout).free_slots != "tokens":
        return None
    key, text = token_heading(card_set, loc, title)
    heading = token_text_fit(book, loc.locale, text, TokenText.HEADING, slot_w=sheet.card_w)
    instruction = token_text_fit(book, loc.locale, loc.ui("tokens.cut"), TokenText.INSTRUCTION, slot_w=sheet.card_w)
    if not (heading.ok and instruction.ok):
        return None
    slots = list(range(filled, sheet.per_page))
    centres = disc_centres(sheet, slots, len(discs), _head_height(heading.size, instruction.size))
    if centres is None:
        return None
    x, y = sheet.trim_xy(slots[0])
    return SlotTokens(tuple(slots), tuple(centres), key, heading, instruction, x, y + sheet.card_h)


def draw_slot_tokens(doc: PdfDocument, sheet: Sheet, placed: SlotTokens, card_set: CardSet, loc: Localizer,
                     icons: Mapping[str, SvgIcon] | None = None) -> None:
    """The token page's discs, heading and instruction in the free slots of the page
    being drawn, where :func:`slot_tokens` puts them.  A gutterfold sheet prints on one
    side, so its last sheet's free slots take the tokens and no token page is needed."""
    ops: list[Op] = []
    for fit, y in ((placed.heading, placed.heading_y), (placed.instruction, placed.instruction_y)):
        ops.append(Text(placed.x + (sheet.card_w - fit.width) / 2, y, fit.text, loc.locale, fit.role, fit.size, INK))
    for disc, (cx, cy) in zip(_discs(card_set, loc), placed.centres):
        ops += (_token_ops(disc, cx, cy, doc.book, loc, icons or {}) if isinstance(disc, Token)
                else _team_ops(disc, cx, cy, doc.book, loc))
    doc.draw(ops)


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
    heading = token_heading(card_set, loc, title)[1]
    book = doc.book
    for text, kind, y_line in ((heading, TokenText.HEADING, sheet.page_h - 15 * MM),
                               (loc.ui("tokens.cut"), TokenText.INSTRUCTION, sheet.page_h - 20 * MM)):
        fit = token_text_fit(book, loc.locale, text, kind, sheet.page_w)
        ops.append(Text(margin, y_line, text, loc.locale, fit.role, fit.size, INK))
    for token in tokens:
        for _i in range(token.count):
            cx, cy = x + r, y - r
            ops += _token_ops(token, cx, cy, book, loc, icons)
            x += 2 * r + 5 * MM
            if x + 2 * r > sheet.page_w - margin:
                x, y = margin, y - 2 * r - 5 * MM
    x, y = margin, y - 2 * r - 12 * MM
    for team in teams:
        cx, cy = x + r, y - r
        ops += _team_ops(team, cx, cy, book, loc)
        x += 2 * r + 5 * MM
        if x + 2 * r > sheet.page_w - margin:
            x, y = margin, y - 2 * r - 5 * MM
    doc.draw(ops)
    draw_footer(doc, sheet, f"{title} · {heading}", loc.locale)
    doc.end_page()
    if duplex != "none":  # keep fronts on odd pages
        doc.end_page()


SLOT_PLACES = {TokenText.HEADING: "token slots, heading", TokenText.INSTRUCTION: "token slots, instruction"}
TOKEN_PLACES = {TokenText.TOKEN_LABEL: "token page, token label", TokenText.TEAM_NAME: "token page, team marker",
                TokenText.TEAM_LABEL: "token page, team marker: the label", TokenText.HEADING: "token page, heading",
                TokenText.INSTRUCTION: "token page, instruction"}


def token_fits(book: FontBook, card_set: CardSet, loc: Localizer, page_w: float, title: str,
               name: str = "") -> list[TextFit]:
    """The fits of the texts :func:`token_page` prints on a page ``page_w`` wide
    (:func:`token_page_fits`) as :class:`~cardkit.printing.fits.TextFit` records."""
    return [TextFit(TOKEN_PLACES[t.fit.kind], (t.key,) if t.key else (), t.fit.ok, t.fit.describe(), name)
            for t in token_page_fits(book, card_set, loc, page_w, title)]


def slot_token_fits(book: FontBook, card_set: CardSet, loc: Localizer, placed: SlotTokens, name: str = ""
                    ) -> list[TextFit]:
    """The fits of the texts :func:`draw_slot_tokens` prints: the discs' (as on the
    token page) and the heading and instruction in the first free slot."""
    out = [TextFit(TOKEN_PLACES[t.fit.kind], (t.key,) if t.key else (), t.fit.ok, t.fit.describe(), name)
           for t in token_page_fits(book, card_set, loc)]
    for key, fit in ((placed.heading_key, placed.heading), ("ui:tokens.cut", placed.instruction)):
        out.append(TextFit(SLOT_PLACES[fit.kind], (key,), fit.ok, fit.describe(), name))
    return out
