"""The image writers: one face per page (PDF), exact-size PNGs, and Tabletop Simulator
deck sheets with their saved object.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cardkit.errors import CardkitError, Issue
from cardkit.fsutil import atomic_write_bytes, face_file_stem, output_path
from cardkit.layout.compose import Face, PrintItem
from cardkit.layout.faces import load_faces
from cardkit.layout.sizes import Fitted
from cardkit.layout.units import INCH, MM
from cardkit.model import CardSet
from cardkit.printing.compose import (
    faces_by_id,
    printable_set,
)
from cardkit.printing.place import fitted_face, place_face
from cardkit.render.pdf import PdfDocument
from cardkit.strings.localize import Localizer


@dataclass
class ImageFiles:
    """What a PNG or Tabletop Simulator build wrote, and its warnings (W030)."""
    paths: list[Path]
    warnings: list[Issue] = field(default_factory=list)


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
        doc.draw([place_face(face, bleed, bleed, bleed, False)])
        doc.end_page()
    if doc is None:
        raise ValueError("faces_pdf needs at least one face")
    return doc.finish()



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
    for face, path in face_files(root, card_set, folder, faces_by_id(items + extras)):
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
