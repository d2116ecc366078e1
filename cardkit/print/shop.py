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
from cardkit.model import CardSet
from cardkit.print.presets import FitMode, Fitted, ShopPreset, fit_issue
from cardkit.render.cmyk import RGB_OUTPUT, ColourOptions
from cardkit.printing import exact_png, fitted_face
from cardkit.render.pdf import PdfDocument


@dataclass
class ShopResult:
    folder: Path
    pdfs: list[Path] = field(default_factory=list)
    pngs: list[Path] = field(default_factory=list)
    cards: int = 0
    warnings: list[Issue] = field(default_factory=list)  # the pseudo-locale's strings printed in English (W030)
    notes: list[str] = field(default_factory=list)  # what the build did to fit the service, one line each


def sides(item: PrintItem, preset: ShopPreset) -> list[tuple[str, Face]]:
    """The card's sides in the preset's page order (a card without a back has one side)."""
    out = [("front", item.front)] + ([("back", item.back)] if item.back is not None else [])
    return out[::-1] if preset.page_order == "back-front" else out


def _key(face: Face) -> tuple[float, float]:
    return (round(face.template.width, 3), round(face.template.height, 3))


def card_pages_pdf(items: list[PrintItem], preset: ShopPreset, title: str, lang: str = "en",
                   colours: ColourOptions = RGB_OUTPUT, fits: dict[tuple[float, float], Fitted] | None = None) -> bytes:
    """One page per card side: MediaBox = BleedBox = trim plus the preset's
    bleed, TrimBox = the card (``fits``: the product it is fitted to), in the
    preset's page order."""
    b = preset.bleed
    fits = fits or {}

    def trim(face: Face) -> tuple[float, float]:
        fit = fits.get(_key(face))
        return (fit.width, fit.height) if fit else (face.template.width, face.template.height)

    first = trim(items[0].front)
    doc = PdfDocument((first[0] + 2 * b, first[1] + 2 * b), title, subject=f"{preset.name}", lang=lang,
                      colours=colours, book=items[0].front.book)
    for item in items:
        for _, face in sides(item, preset):
            w, h = trim(face)
            doc.set_page_size((w + 2 * b, h + 2 * b))
            doc.set_boxes((b, b, b + w, b + h), b)
            doc.draw([fitted_face(face, fits.get(_key(face)), b, b, (b, b, b, b))])
            doc.end_page()
    return doc.finish()


def face_png(face: Face, preset: ShopPreset, fit: Fitted | None = None) -> bytes:
    """One side at the preset's exact pixel size: the page is made exactly that
    many pixels at the preset's resolution, the bleed taking up the rounding."""
    return exact_png(face, preset.bleed, preset.ppi, fit)


def _safe(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in text.replace(":", "_").replace("#", "-"))


def check_sizes(items: list[PrintItem], preset: ShopPreset, mode: FitMode = "none") -> dict[tuple[float, float], Fitted]:
    """How each card size goes to the service with ``--fit mode``; every size
    it cannot take is B011, one line each."""
    issues: dict[str, Issue] = {}
    fits: dict[tuple[float, float], Fitted] = {}
    for item in items:
        key = _key(item.front)
        if key in fits:
            continue
        t = item.front.template
        fit = preset.fit(t.width, t.height, mode)
        if isinstance(fit, str):
            if fit not in issues:
                hint = "use --fit scale or --fit pad, --preset generic or a size it prints" if mode == "none" \
                    else "use --preset generic, or give the faces a size it prints (`size:` in faces.yaml)"
                issues[fit] = Issue("B011", f"{fit} (card {item.front.card}): {hint}")
            continue
        fits[key] = fit
    if issues:
        raise CardkitError(list(issues.values()))
    return fits


def build_shop(root: Path, card_set: CardSet, locale: str, preset: ShopPreset, out_dir: Path | None = None,
               colours: ColourOptions = RGB_OUTPUT, fit: FitMode = "none") -> ShopResult:
    """Write the preset's files to ``output/shop/<preset>/<set>-<locale>/``
    (``-cmyk`` added for CMYK PDFs); ``colours`` applies to the PDFs (PDF/X-1a
    in CMYK); the PNGs stay sRGB, as the services that take PNGs ask.
    ``fit`` maps a card size the service does not print to its nearest
    product (:meth:`ShopPreset.fit`); a line per card size says what was done."""
    from cardkit.printing import printable_set

    bad_fit = fit_issue(fit)
    if bad_fit is not None:
        raise CardkitError([bad_fit])
    items, extras, warnings = printable_set(root, card_set, locale)
    all_items = items + extras
    fits = check_sizes(all_items, preset, fit)
    # a CMYK run has its own folder: it must not overwrite the RGB run's files
    cmyk_pdf = colours.space == "cmyk" and "pdf" in preset.outputs
    folder = out_dir or root / "output" / "shop" / preset.name / (
        f"{card_set.id}-{locale}" + ("-cmyk" if cmyk_pdf else ""))
    result = ShopResult(folder, cards=len(all_items), warnings=warnings)
    if preset.sizes is not None:
        result.notes += [f.describe(preset.title) for f in fits.values()]
    if colours.space == "cmyk" and "pdf" not in preset.outputs:
        result.notes.append(f"{preset.title} takes sRGB PNG files only: --colour cmyk does not apply, the files are RGB")
    if "pdf" in preset.outputs:
        groups: dict[str, list[PrintItem]] = {}
        for it in all_items:
            groups.setdefault(it.deck if preset.pdf_per_deck else "", []).append(it)
        for deck, its in groups.items():
            name = f"{card_set.id}-{locale}" + (f"-{_safe(deck)}" if deck else "") + ".pdf"
            path = folder / name
            atomic_write_bytes(path, card_pages_pdf(its, preset, f"{card_set.id} {locale} {deck}".strip(), locale,
                                                     colours, fits))
            result.pdfs.append(path)
    if "png" in preset.outputs:
        rendered: dict[str, bytes] = {}
        for n, it in enumerate(all_items, 1):
            for side, face in sides(it, preset):
                data = rendered.get(face.id)
                if data is None:
                    data = rendered[face.id] = face_png(face, preset, fits.get(_key(face)))
                rel = preset.png_name.format(set=card_set.id, locale=locale, deck=_safe(it.deck), n=n, side=side,
                                             face=_safe(face.id))
                path = folder / rel
                atomic_write_bytes(path, data)
                result.pngs.append(path)
    return result
