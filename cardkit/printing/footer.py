"""Page furniture: the page footer (the sheet's title and page number) and where it fits.
"""

from __future__ import annotations

from cardkit.layout.fonts import FontBook
from cardkit.layout.ops import Group, Text
from cardkit.printing.fits import TextFit
from cardkit.layout.sheet import (
    Sheet,
    footer_bands,
)
from cardkit.render.pdf import PdfDocument

LANGUAGE_NAMES = {"en": "English", "fi": "Suomi", "ko": "한국어"}

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


def draw_footer(doc: PdfDocument, sheet: Sheet, text: str, locale: str) -> None:
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


def footer_fit(book: FontBook, sheet: Sheet, text: str, locale: str, keys: tuple[str, ...], place: str = "page footer",
               name: str = "") -> TextFit:
    """The fit of the footer ``text`` on ``sheet`` (:func:`footer_place`): a footer no
    band holds even at 4 pt is left out, so it does not fit."""
    fits = footer_place(book, sheet, text, locale) is not None
    return TextFit(place, keys, fits, f"'{text}' fits {'a' if fits else 'in no'} footer band at "
                   f"{FOOTER_SIZE if fits else FOOTER_MIN:g} pt{'' if fits else ': it is left out'}", name)
