"""Print-and-play PDFs: compose every face, impose on sheets, render, write atomically.

This is porcelain: it calls the pure layout (:mod:`cardkit.layout`) and the
only PDF-drawing module (:mod:`cardkit.render.pdf`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from cardkit.errors import CardkitError, Issue
from cardkit.fsutil import atomic_write_bytes, face_file_stem, output_path
from cardkit.i18n.localize import Localizer
from cardkit.layout.compose import INK, Composer, Face, FieldFit, PrintItem, bad_fits
from cardkit.layout.faces import load_faces
from cardkit.layout.ops import Circle, Group, Icon, Line, Op, Rect, Text
from cardkit.layout.sheet import Sheet, back_slot, crop_marks, plan_sheet
from cardkit.layout.textfit import Style, block_height
from cardkit.layout.units import MM
from cardkit.model import CardSet
from cardkit.render.images import load_art
from cardkit.render.pdf import PdfDocument

LANGUAGE_NAMES = {"en": "English", "fi": "Suomi", "ko": "한국어"}


@dataclass
class BuildResult:
    path: Path
    pages: int
    cards: int
    faces: int
    fits: list[FieldFit] = field(default_factory=list)


UNITS = ("inch", "cm")


def compose_set(root: Path, card_set: CardSet, locale: str, units: str = "inch") -> tuple[list[PrintItem], list[PrintItem]]:
    """Every physical card of the set (and the extras) composed in ``locale``
    from the set's face file; ``units`` (inch or cm) is passed to plugin
    elements that label distances (a table map)."""
    if units not in UNITS:
        raise CardkitError(f"unknown --units '{units}' (inch or cm)", code="B006")
    loc = Localizer(root, locale, card_set)
    comp = Composer(card_set, loc, load_faces(root, card_set), art=lambda rel: load_art(root / rel, rel, root),
                    options={"units": units})
    return comp.items(), comp.extras()


def fit_issues(root: Path, card_set: CardSet, locale: str, fits: list[FieldFit]) -> list[Issue]:
    """Build errors for strings that do not fit, located at their source."""
    loc = Localizer(root, locale, card_set)
    english = {s.msgctxt: s for s in card_set.strings}
    out = []
    for f in fits:
        key = f.key.split(",")[0]
        file, line = "", 0
        if key.startswith("ui:"):
            file, line = loc.where_ui(key[3:])
        elif locale != "en" and loc.where(key)[0]:
            file, line = loc.where(key)
        elif key in english:
            file, line = english[key].file, english[key].line
        out.append(Issue("P010", f"{f.key} ({locale}) does not fit field '{f.field}' of {f.card}: {f.result.describe()}",
                         file=file, line=line, column=1))
    return out


def _place(face: Face, x: float, y: float, bleed: float, turned: bool) -> Group:
    t = face.template
    clip = (-bleed, -bleed, t.width + 2 * bleed, t.height + 2 * bleed)
    if turned:
        return Group((Group(tuple(face.ops), clip=clip),), dx=x + t.width, dy=y + t.height, rotate=180)
    return Group(tuple(face.ops), dx=x, dy=y, clip=clip)


def _footer(doc: PdfDocument, sheet: Sheet, text: str, locale: str) -> None:
    doc.draw([Text(sheet.left, max(2.5 * MM, sheet.bottom - 6 * MM), text, locale, "body", 6.5, "#666666")])


def calibration_pages(doc: PdfDocument, sheet: Sheet, loc: Localizer, duplex: str, title: str) -> None:
    """A front and back page with matching crosses in every card slot."""
    book = doc.book
    for side in ("front", "back"):
        if side == "back" and duplex == "none":
            break
        ops: list[Op] = []
        label = loc.ui(f"calibration.{side}")
        for slot in range(sheet.per_page):
            x, y = sheet.trim_xy(slot)
            target, turned = (slot, False) if side == "front" else back_slot(sheet, slot, duplex)
            tx, ty = sheet.trim_xy(target)
            cx, cy = tx + sheet.card_w / 2, ty + sheet.card_h / 2
            ops.append(Rect(tx, ty, sheet.card_w, sheet.card_h, stroke="#999999", lw=0.4))
            ops.append(Line(cx - 12 * MM, cy, cx + 12 * MM, cy, INK, 0.5))
            ops.append(Line(cx, cy - 12 * MM, cx, cy + 12 * MM, INK, 0.5))
            ops.append(Circle(cx, cy, 5 * MM, stroke=INK, lw=0.5))
            tag = f"{label} {slot + 1}"
            w = book.width(tag, book.chain(loc.locale, "bold"), 9)
            dy = -9 * MM if not turned else 9 * MM
            if turned:
                ops.append(Group((Text(-w / 2, -3, tag, loc.locale, "bold", 9, INK),), dx=cx, dy=cy + dy, rotate=180))
            else:
                ops.append(Text(cx - w / 2, cy + dy, tag, loc.locale, "bold", 9, INK))
        doc.draw(crop_marks(sheet, sheet.per_page))
        doc.draw(ops)
        if side == "front":
            notes = [loc.ui("sheet.actual_size", width=f"{sheet.card_w / MM:.0f}", height=f"{sheet.card_h / MM:.0f}")]
            if duplex == "none":
                notes.append(loc.ui("sheet.fronts_only"))
            else:
                notes.append(loc.ui("sheet.duplex", edge=loc.ui(f"sheet.edge.{duplex.split('-')[0]}")))
            _help_box(doc, sheet, loc, [loc.ui("calibration.title")], notes + [loc.ui("calibration.help")])
        _footer(doc, sheet, f"{title} · {loc.ui('calibration.title')}", loc.locale)
        doc.end_page()


def _help_box(doc: PdfDocument, sheet: Sheet, loc: Localizer, headings: list[str], paragraphs: list[str]) -> None:
    """A white box in the middle of the page: a heading, then paragraphs, laid
    out by the same text code as the cards (the first paragraph in bold)."""
    from cardkit.layout.textfit import Block, fit_column

    pad = 3 * MM
    w = min(sheet.page_w - 2 * sheet.left - 20 * MM, 2.6 * sheet.card_w)
    h = sheet.card_h * 0.75
    x = (sheet.page_w - w) / 2
    y = (sheet.page_h - h) / 2
    blocks = [Block(t, Style(loc.locale, "title", 1.15), ratio=1.25, gap_after=0.5) for t in headings]
    blocks += [Block(t, Style(loc.locale, "bold" if i == 0 else "body", 1.25), gap_after=0.5) for i, t in enumerate(paragraphs)]
    res = fit_column(blocks, w - 2 * pad, h - 2 * pad, 9, 6, doc.book)
    ops: list[Op] = [Rect(x, y, w, h, fill="#ffffff", stroke=INK, lw=0.6)]
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


def token_page(doc: PdfDocument, sheet: Sheet, card_set: CardSet, loc: Localizer, duplex: str, title: str) -> None:
    """Support tokens and combat team markers as circles to cut out."""
    n_support = int(card_set.components.get("support_tokens", 0))
    teams = card_set.teams
    if not n_support and not teams:
        return
    ops: list[Op] = []
    r = 11 * MM
    margin = 18 * MM
    x, y = margin, sheet.page_h - 30 * MM
    heading = loc.ui("tokens.title")
    ops.append(Text(margin, sheet.page_h - 15 * MM, heading, loc.locale, "title", 12, INK))
    ops.append(Text(margin, sheet.page_h - 20 * MM, loc.ui("tokens.cut"), loc.locale, "body", 8, INK))
    book = doc.book
    label = loc.ui("tokens.support")
    for i in range(n_support):
        cx, cy = x + r, y - r
        ops.append(Circle(cx, cy, r, fill="#e9e2cf", stroke=INK, lw=0.6))
        ops.append(Icon("support", cx - 7 * MM, cy - 5 * MM, 14 * MM, "#7a1e16"))
        w = book.width(label, book.chain(loc.locale, "bold"), 6)
        ops.append(Text(cx - w / 2, cy - 8.5 * MM, label, loc.locale, "bold", 6, INK))
        x += 2 * r + 5 * MM
        if x + 2 * r > sheet.page_w - margin:
            x, y = margin, y - 2 * r - 5 * MM
    x, y = margin, y - 2 * r - 12 * MM
    for team in teams:
        cx, cy = x + r, y - r
        name = loc.card(f"set.teams.{team.id}.name")
        ops.append(Circle(cx, cy, r, fill=team.colour, stroke=INK, lw=0.6))
        ops.append(Circle(cx, cy, r - 2 * MM, stroke="#ffffff", lw=1))
        for txt, dy, role, size in ((name, 0.5 * MM, "title", 9), (loc.ui("tokens.team"), -4 * MM, "body", 6)):
            w = book.width(txt, book.chain(loc.locale, role), size)
            ops.append(Text(cx - w / 2, cy + dy, txt, loc.locale, role, size, "#ffffff"))
        x += 2 * r + 5 * MM
        if x + 2 * r > sheet.page_w - margin:
            x, y = margin, y - 2 * r - 5 * MM
    doc.draw(ops)
    _footer(doc, sheet, f"{title} · {heading}", loc.locale)
    doc.end_page()
    if duplex != "none":  # keep fronts on odd pages
        doc.end_page()


def build_pdf(root: Path, card_set: CardSet, locale: str, paper: str = "a4", duplex: str = "long-edge",
              bleed: float | None = None, mode: str = "cards", out: Path | None = None, units: str = "inch") -> BuildResult:
    """Write ``output/<set>-<locale>-<paper>.pdf`` (or ``out``); raise with every
    string that does not fit."""
    if duplex not in ("long-edge", "short-edge", "none"):
        raise CardkitError(f"unknown --duplex '{duplex}' (long-edge, short-edge or none)", code="B003")
    if mode not in ("cards", "inserts"):
        raise CardkitError(f"unknown --mode '{mode}' (cards or inserts)", code="B004")
    items, extras = compose_set(root, card_set, locale, units)
    all_items = items + extras
    _check_fits(root, card_set, locale, all_items)
    faces = _faces(all_items)
    if mode == "inserts":
        from cardkit.layout.inserts import insert_items

        all_items = insert_items(all_items)
        duplex = "none"
    loc = Localizer(root, locale, card_set)
    first = all_items[0].front.template
    sheet = plan_sheet(paper, first.width, first.height, bleed)
    title = loc.ui("sheet.title", title=loc.card("set.title"), language=LANGUAGE_NAMES.get(locale, locale))
    doc = PdfDocument((sheet.page_w, sheet.page_h), title, subject=f"{card_set.id} {locale} {paper} {duplex}", lang=locale)
    calibration_pages(doc, sheet, loc, duplex, title)
    per = sheet.per_page
    total_pages = (len(all_items) + per - 1) // per
    for page_no in range(total_pages):
        chunk = all_items[page_no * per:(page_no + 1) * per]
        doc.set_boxes(sheet.trim_box(len(chunk)), sheet.bleed)
        doc.draw(crop_marks(sheet, len(chunk)))
        doc.draw([_place(item.front, *sheet.trim_xy(i), sheet.bleed, False) for i, item in enumerate(chunk)])
        _footer(doc, sheet, f"{title} · {page_no + 1}/{total_pages}", locale)
        doc.end_page()
        if duplex != "none":
            doc.set_boxes(sheet.trim_box(per), sheet.bleed)
            groups = []
            for i, item in enumerate(chunk):
                if item.back is None:
                    continue
                slot, turned = back_slot(sheet, i, duplex)
                groups.append(_place(item.back, *sheet.trim_xy(slot), sheet.bleed, turned))
            doc.draw(groups)
            doc.end_page()
    if mode == "cards":
        token_page(doc, sheet, card_set, loc, duplex, title)
    data = doc.finish()
    path = out or output_path(root / "output", f"{card_set.id}-{locale}-{paper}{'' if mode == 'cards' else '-inserts'}.pdf",
                              "the set id")
    atomic_write_bytes(path, data)
    fits = [f for face in faces for f in face.fits]
    return BuildResult(path, doc.pages, sum(1 for _ in items), len(faces), fits)


def face_pdf(face: Face, bleed: float = 3 * MM, title: str = "") -> bytes:
    """One face on its own page (trim plus bleed), with TrimBox and BleedBox set."""
    t = face.template
    doc = PdfDocument((t.width + 2 * bleed, t.height + 2 * bleed), title or face.id)
    doc.set_boxes((bleed, bleed, bleed + t.width, bleed + t.height), bleed)
    doc.draw([_place(face, bleed, bleed, bleed, False)])
    doc.end_page()
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


def build_png(root: Path, card_set: CardSet, locale: str, dpi: int = 300, bleed: float = 3 * MM,
              out_dir: Path | None = None) -> list[Path]:
    """One PNG per distinct card face at ``dpi`` with bleed, in output/png/<set>-<locale>/."""
    from cardkit.render.images import png_bytes, rasterize

    if not 72 <= dpi <= 1200:
        raise CardkitError(f"--dpi {dpi} is outside 72-1200", code="B005")
    items, extras = compose_set(root, card_set, locale)
    _check_fits(root, card_set, locale, items + extras)
    folder = out_dir or output_path(root / "output" / "png", f"{card_set.id}-{locale}", "the set id")
    written = []
    for face, path in face_files(root, card_set, folder, _faces_by_id(items + extras)):
        image = rasterize(face_pdf(face, bleed), dpi / 72)
        atomic_write_bytes(path, png_bytes(image, dpi))
        written.append(path)
    return written


def build_tts(root: Path, card_set: CardSet, locale: str, out_dir: Path | None = None) -> list[Path]:
    """Tabletop Simulator deck sheets per deck (fronts) and one back image per deck."""
    from cardkit.render.images import TTS_MAX_COLS, TTS_MAX_WIDTH, png_bytes, rasterize, tts_sheets

    items, extras = compose_set(root, card_set, locale)
    _check_fits(root, card_set, locale, items + extras)
    folder = out_dir or output_path(root / "output" / "tts", f"{card_set.id}-{locale}", "the set id")
    first = items[0].front.template
    scale = (TTS_MAX_WIDTH // TTS_MAX_COLS) / first.width  # card width in px at this scale
    decks: dict[str, list[PrintItem]] = {}
    for it in items + extras:
        decks.setdefault(it.deck, []).append(it)
    written = []
    for deck, its in decks.items():
        fronts = [rasterize(face_pdf(it.front, 0), scale) for it in its]
        for n, sheet in enumerate(tts_sheets(fronts), 1):
            path = output_path(folder, f"{deck}-{n}.png", f"deck '{deck[:40]}'")
            atomic_write_bytes(path, png_bytes(sheet))
            written.append(path)
        backs = {it.back.id: it.back for it in its if it.back is not None}
        if len(backs) == 1:
            path = output_path(folder, f"{deck}-back.png", f"deck '{deck[:40]}'")
            atomic_write_bytes(path, png_bytes(tts_sheets([rasterize(face_pdf(next(iter(backs.values())), 0), scale)])[0]))
            written.append(path)
        elif backs:  # double-sided cards or per-tier backs: a sheet of backs in the same order
            for n, sheet in enumerate(tts_sheets([rasterize(face_pdf(it.back, 0), scale) for it in its if it.back]), 1):
                path = output_path(folder, f"{deck}-backs-{n}.png", f"deck '{deck[:40]}'")
                atomic_write_bytes(path, png_bytes(sheet))
                written.append(path)
    return written
