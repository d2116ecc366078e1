"""The print-and-play PDF writer: every card size imposed on its sheets, with its
calibration page, footers, back pages and the token page.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from cardkit.errors import CardkitError, Issue, Severity
from cardkit.fsutil import atomic_write_bytes, output_path
from cardkit.layout.compose import FieldFit, PrintItem
from cardkit.layout.faces import FaceBook, load_faces
from cardkit.layout.sheetlayout import sheet_layout
from cardkit.layout.sheet import (
    DEFAULT_MARGIN,
    MIN_BLEED,
    MIN_BLEED_PRESS,
    Sheet,
    back_slot,
    check_sheet_options,
    crop_marks,
    fold_line,
    plan_sheet,
)
from cardkit.model import CardSet
from cardkit.printing.calibration import calibration_pages
from cardkit.printing.compose import (
    UNITS,
    all_faces,
    check_back_sizes,
    printable_set,
    size_groups,
    size_text,
    units_message,
)
from cardkit.printing.fits import TextFit
from cardkit.printing.furniture import SheetPlan, plan_fits
from cardkit.printing.footer import LANGUAGE_NAMES, draw_footer
from cardkit.printing.place import Edges, place_face
from cardkit.printing.tokens import draw_slot_tokens, slot_tokens, token_page, token_page_strings
from cardkit.render.cmyk import RGB_OUTPUT, ColourOptions
from cardkit.render.pdf import PdfDocument
from cardkit.strings.localize import Localizer



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
        line = (f"{size_text(self.card_w)} x {size_text(self.card_h)} mm cards: {self.cols} x {self.rows} a sheet "
                f"on {self.paper} {'landscape' if self.landscape else 'portrait'}, bleed {size_text(self.bleed)} mm")
        if self.below_minimum:
            why = "as --bleed asked" if self.explicit else "a card does not fit with more"
            line += f" (below the {size_text(self.min_bleed)} mm minimum: {why})"
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
    furniture: list[TextFit] = field(default_factory=list)  # the fits of the texts printed beside the cards



def _card_page(doc: PdfDocument, sheet: Sheet, chunk: list[PrintItem]) -> None:
    """The fronts of ``chunk`` (on a gutterfold sheet with their backs behind the fold), then the marks."""
    n = len(chunk)
    doc.set_boxes(sheet.trim_box(n), sheet.bleed)
    groups = [place_face(item.front, *sheet.trim_xy(i), sheet.bleeds(i, n), False) for i, item in enumerate(chunk)]
    if sheet.fold:
        backed = {i for i, item in enumerate(chunk) if item.back is not None}
        for i, item in enumerate(chunk):
            if item.back is not None:
                x, y, turned = sheet.fold_xy(i)
                groups.append(place_face(item.back, x, y, _fold_back_bleeds(sheet, i, backed), turned))
    doc.draw(groups)
    doc.draw(crop_marks(sheet, n))
    doc.draw(fold_line(sheet))


def _fold_back_bleeds(sheet: Sheet, slot: int, backed: set[int]) -> float | Edges:
    """The bleed of the back behind the fold of ``slot``: all round, except with shared
    edges, where an edge shared with another back has none (the front's edges, mirrored
    about the fold)."""
    if not sheet.shared:
        return sheet.bleed
    left, bottom, right, top = _back_bleeds(sheet, slot, backed)
    return (right, bottom, left, top) if sheet.fold == "vertical" else (left, top, right, bottom)


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
        groups.append(place_face(item.back, *sheet.trim_xy(slot), _back_bleeds(sheet, slot, filled), turned))
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


def build_option_issues(duplex: str = "long-edge", mode: str = "cards", calibration: str | None = "every-size",
                        units: str | None = None) -> list[Issue]:
    """The problems of :func:`build_pdf`'s own options (the sheet's are
    :func:`cardkit.layout.sheet.check_sheet_options`'), one each: ``--duplex``
    (B003), ``--mode`` (B004), ``--calibration`` (B013, not checked when None) and,
    given, ``--units`` (B006), so that a command can report them with its other options."""
    issues = []
    if duplex not in ("long-edge", "short-edge", "none"):
        issues.append(Issue("B003", f"unknown --duplex '{duplex}' (long-edge, short-edge or none)"))
    if mode not in ("cards", "inserts"):
        issues.append(Issue("B004", f"unknown --mode '{mode}' (cards or inserts)"))
    if calibration is not None and calibration not in CALIBRATION:
        issues.append(Issue("B013", f"unknown --calibration '{calibration}' (use {', '.join(CALIBRATION)})"))
    if units is not None and units not in UNITS:
        issues.append(Issue("B006", units_message(units)))
    return issues


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
    issues = build_option_issues(duplex, mode, calibration)
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
    faces = all_faces(all_items)
    if mode == "inserts":
        from cardkit.layout.inserts import insert_items

        all_items = insert_items(all_items)
        duplex = "none"
    check_back_sizes(all_items)
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
    tokens_placed = False  # on the last card sheet, in its free slots
    for n, (group, sheet) in enumerate(zip(groups, sheets)):
        use(sheet)
        if calibration == "every-size" or (calibration == "first" and n == 0):
            calibration_pages(doc, sheet, loc, duplex, title)
        per = sheet.per_page
        for start in range(0, len(group), per):
            chunk = group[start:start + per]
            page_no += 1
            _card_page(doc, sheet, chunk)
            last = n == len(groups) - 1 and start + per >= len(group)
            placed = slot_tokens(sheet, len(chunk), card_set, token_loc, doc.book, title) \
                if last and mode == "cards" else None
            if placed is not None:
                draw_slot_tokens(doc, sheet, placed, card_set, token_loc, load_faces(root, card_set).svg_icons)
                tokens_placed = True
            draw_footer(doc, sheet, f"{title} · {page_no}/{total_pages}", locale)
            doc.end_page()
            if duplex != "none":
                _back_page(doc, sheet, chunk, duplex)
                doc.end_page()
    if mode == "cards" and not tokens_placed:
        use(sheets[0])
        token_page(doc, sheets[0], card_set, token_loc, duplex, title, load_faces(root, card_set).svg_icons)
    data = doc.finish()
    warnings = warnings + coverage_warnings(face_book, doc.uncovered)
    suffix = ("" if mode == "cards" else "-inserts") + ("" if sheet_layout(layout).default else f"-{layout}") + \
        ("" if colours.space == "rgb" else f"-{colours.space}") + ("" if variant is None else f"-{variant}")
    path = out or output_path(root / "output", f"{card_set.id}-{locale}-{paper}{suffix}.pdf", "the set id")
    atomic_write_bytes(path, data)
    fits = [f for face in faces for f in face.fits]
    facts = [SheetFacts.of(sh, floor, bleed is not None) for sh in sheets]
    plan = SheetPlan(paper, orientation, layout, tuple(sheets))
    counts = [len(g) for g in groups]
    furniture = plan_fits(card_set, loc, doc.book, plan, counts, (duplex,), mode == "cards")
    english = furniture if locale == "en" else plan_fits(card_set, Localizer(root, "en", card_set), doc.book, plan,
                                                           counts, (duplex,), mode == "cards")
    warnings = warnings + sheet_room_warnings(furniture, english)
    return BuildResult(path, doc.pages, len(items) + len(extras), len(faces), fits, warnings, facts, len(extras),
                       furniture)


def sheet_room_warnings(fits: list[TextFit], english: list[TextFit]) -> list[Issue]:
    """B070 for each text of the page furniture that does not fit the sheet built
    (``fits``) when its English does not fit there either (``english``: the same
    sheet's fits in English): the paper, orientation or layout leaves it no room, which
    no translation can fix (one where only the translation does not fit is ``l10n
    check``'s T950)."""
    no_room = {(f.place, f.sheet, f.keys) for f in english if not f.ok}
    out: list[Issue] = []
    for f in fits:
        if f.ok or (f.place, f.sheet, f.keys) not in no_room:
            continue
        out.append(Issue("B070", f"{f.message()}; the English does not fit this sheet either: its paper, "
                                 "orientation or layout leaves no room (a larger --paper, another --orientation or "
                                 "--layout, or a smaller --margin)", severity=Severity.WARNING))
    return out


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

