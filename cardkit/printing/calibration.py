"""Page furniture: the calibration page (crosses in every card slot, the help box with its
millimetre scale), and the fits of its texts (:class:`cardkit.printing.fits.TextFit`).
"""

from __future__ import annotations

from cardkit.layout.compose import INK, FieldFit
from cardkit.layout.fonts import FontBook
from cardkit.layout.ops import Circle, Group, Line, Op, Rect, Text
from cardkit.layout.sheet import (
    Sheet,
    back_slot,
    crop_marks,
    fold_line,
)
from cardkit.layout.textfit import ColumnResult, Style, block_height
from cardkit.layout.units import MM
from cardkit.printing.compose import (
    size_text,
)
from cardkit.printing.fits import TextFit
from cardkit.printing.footer import draw_footer
from cardkit.render.pdf import PdfDocument
from cardkit.strings.localize import Localizer

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
        draw_footer(doc, sheet, f"{title} · {loc.ui('calibration.title')}", loc.locale)
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
        loc.ui("sheet.actual_size", width=size_text(sheet.card_w), height=size_text(sheet.card_h))]
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


def calibration_fits(sheet: Sheet, loc: Localizer, duplex: str, book: FontBook, name: str = "") -> list[TextFit]:
    """The fits of the texts :func:`calibration_pages` prints for ``sheet`` and
    ``duplex`` (``name``: the sheet as the fits name it): the help box, whose strings
    share one box, and each slot label printed (``Front 8``), which must fit across a card."""
    keys, headings, paragraphs = calibration_texts(sheet, loc, duplex)
    (x, y, w, h), res = help_box_layout(sheet, loc.locale, headings, paragraphs, book)
    column = (x, y, w - 2 * HELP_PAD, h - 2 * HELP_PAD - SCALE_ROOM)  # the text's own room
    layout_keys = tuple(f"ui:{k}" for k in keys)
    box = FieldFit("calibration", "help", ",".join(layout_keys), loc.locale, "", res, column)
    out = [TextFit("calibration page, help box", layout_keys, res.status not in ("below_min", "overflow"),
                   res.describe(), name, box)]
    sides = ("front", "back") if duplex != "none" or sheet.fold else ("front",)
    for side in sides:
        width = calibration_label_width(sheet, loc.locale, loc.ui(f"calibration.{side}"), book)
        out.append(TextFit("calibration page, slot label", (f"ui:calibration.{side}",), width <= sheet.card_w,
                           f"{width / MM:.1f} mm wide, the card {sheet.card_w / MM:.1f} mm", name))
    return out
