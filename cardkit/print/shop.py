"""Files for print services: a one-card-per-page PDF (each page's MediaBox and
BleedBox the card with its bleed, its TrimBox the card) and one PNG per card
side at the exact pixel size of the preset, sRGB-tagged.

Porcelain: it composes with :func:`cardkit.printing.compose_set`, draws through
:mod:`cardkit.render.pdf` and rasterizes through :mod:`cardkit.render.images`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from cardkit.errors import CardkitError, Issue
from cardkit.fsutil import atomic_write_bytes
from cardkit.layout.compose import Face, PrintItem
from cardkit.layout.units import INCH
from cardkit.model import CardSet
from cardkit.print.presets import ShopPreset
from cardkit.render.cmyk import RGB_OUTPUT, ColourOptions
from cardkit.render.pdf import PdfDocument


@dataclass
class ShopResult:
    folder: Path
    pdfs: list[Path] = field(default_factory=list)
    pngs: list[Path] = field(default_factory=list)
    cards: int = 0
    warnings: list[Issue] = field(default_factory=list)  # the pseudo-locale's strings printed in English (W030)


def sides(item: PrintItem, preset: ShopPreset) -> list[tuple[str, Face]]:
    """The card's sides in the preset's page order (a card without a back has one side)."""
    out = [("front", item.front)] + ([("back", item.back)] if item.back is not None else [])
    return out[::-1] if preset.page_order == "back-front" else out


def card_pages_pdf(items: list[PrintItem], preset: ShopPreset, title: str, lang: str = "en",
                   colours: ColourOptions = RGB_OUTPUT) -> bytes:
    """One page per card side: MediaBox = BleedBox = trim plus the preset's
    bleed, TrimBox = the card, in the preset's page order."""
    from cardkit.printing import _place

    b = preset.bleed
    first = items[0].front.template
    doc = PdfDocument((first.width + 2 * b, first.height + 2 * b), title, subject=f"{preset.name}", lang=lang,
                      colours=colours)
    for item in items:
        for _, face in sides(item, preset):
            t = face.template
            doc.set_page_size((t.width + 2 * b, t.height + 2 * b))
            doc.set_boxes((b, b, b + t.width, b + t.height), b)
            doc.draw([_place(face, b, b, b, False)])
            doc.end_page()
    return doc.finish()


def face_png(face: Face, preset: ShopPreset) -> bytes:
    """One side at the preset's exact pixel size: the page is made exactly that
    many pixels at the preset's resolution, the bleed taking up the rounding."""
    from cardkit.printing import _place
    from cardkit.render.images import rasterize_exact, srgb_png_bytes

    t = face.template
    px = preset.pixels(t.width, t.height)
    page_w, page_h = (v * INCH / preset.ppi for v in px)
    bx, by = (page_w - t.width) / 2, (page_h - t.height) / 2
    doc = PdfDocument((page_w, page_h), face.id)
    doc.set_boxes((bx, by, bx + t.width, by + t.height), min(bx, by))
    doc.draw([_place(face, bx, by, (bx, by, bx, by), False)])
    doc.end_page()
    return srgb_png_bytes(rasterize_exact(doc.finish(), px, preset.ppi), preset.ppi)


def _safe(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in text.replace(":", "_").replace("#", "-"))


def check_sizes(items: list[PrintItem], preset: ShopPreset) -> None:
    """Every card size the service does not print, one line each."""
    issues: dict[str, Issue] = {}
    for item in items:
        t = item.front.template
        why = preset.check_size(t.width, t.height)
        if why and why not in issues:
            issues[why] = Issue("B011", f"{why} (card {item.front.card}): use --preset generic or a size it prints")
    if issues:
        raise CardkitError(list(issues.values()))


def build_shop(root: Path, card_set: CardSet, locale: str, preset: ShopPreset, out_dir: Path | None = None,
               colours: ColourOptions = RGB_OUTPUT) -> ShopResult:
    """Write the preset's files to ``output/shop/<preset>/<set>-<locale>/``;
    ``colours`` applies to the PDFs (PDF/X-1a in CMYK); the PNGs stay sRGB,
    as the services that take PNGs ask."""
    from cardkit.printing import printable_set

    items, extras, warnings = printable_set(root, card_set, locale)
    all_items = items + extras
    check_sizes(all_items, preset)
    folder = out_dir or root / "output" / "shop" / preset.name / f"{card_set.id}-{locale}"
    result = ShopResult(folder, cards=len(all_items), warnings=warnings)
    if "pdf" in preset.outputs:
        groups: dict[str, list[PrintItem]] = {}
        for it in all_items:
            groups.setdefault(it.deck if preset.pdf_per_deck else "", []).append(it)
        for deck, its in groups.items():
            name = f"{card_set.id}-{locale}" + (f"-{_safe(deck)}" if deck else "") + ".pdf"
            path = folder / name
            atomic_write_bytes(path, card_pages_pdf(its, preset, f"{card_set.id} {locale} {deck}".strip(), locale,
                                                     colours))
            result.pdfs.append(path)
    if "png" in preset.outputs:
        rendered: dict[str, bytes] = {}
        for n, it in enumerate(all_items, 1):
            for side, face in sides(it, preset):
                data = rendered.get(face.id)
                if data is None:
                    data = rendered[face.id] = face_png(face, preset)
                rel = preset.png_name.format(set=card_set.id, locale=locale, deck=_safe(it.deck), n=n, side=side,
                                             face=_safe(face.id))
                path = folder / rel
                atomic_write_bytes(path, data)
                result.pngs.append(path)
    return result
