"""``cardkit l10n review``: a static HTML page per locale showing every card face
in English and in the translation side by side, with the face's catalog entries
and its translation findings marked on the card.

Faces come from :func:`cardkit.printing.compose_set` and are rasterized by the
chain ``cardkit build png`` uses (the face drawn on a page of its own,
:func:`cardkit.printing.faces_pdf`, here all faces of a set and locale in one
document, then :func:`cardkit.render.images.rasterize_pages` and
:func:`png_bytes`: the same pixels as :func:`cardkit.printing.face_pdf` and
:func:`cardkit.render.images.rasterize` of each face), so a reviewer sees the
printed layout.  Unlike ``build png`` the review renders faces whose text
does not fit: those are what a translator most needs to see.  The text boxes
come from the fit records of the same layout (``Face.fits``, as in the fit matrix
of :mod:`cardkit.i18n.report`); findings come from
:func:`cardkit.i18n.report.check_translations`.

The folder is written to a temporary sibling and renamed into place, so a
failed run leaves the previous review (or nothing) behind.  Pages use relative
image paths, no server and a few lines of plain JavaScript for the filters;
the same inputs give the same bytes (English images are rendered once per set
and shared by every locale's page).
"""

from __future__ import annotations

import contextlib
import html
import multiprocessing
import os
import shutil
import tempfile
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, TypeVar

from cardkit.errors import CardkitError, Issue, neutral
from cardkit.fsutil import check_write, face_file_stem
from cardkit.i18n.catalogs import po_path, project_locales, read_catalog, rel
from cardkit.i18n.checks import Finding
from cardkit.strings.localize import SOURCE_LOCALE, UI_DOMAIN, ui_catalog, ui_strings
from cardkit.load.files import guard_for
from cardkit.load.project import Project
from cardkit.model import CardSet
from cardkit.workers import forking_is_safe

MARKER = ".cardkit-review"  # names a folder this command wrote, so it may replace it
DEFAULT_DPI = 120
# zlib level of the face images: on the bundled sets 3 takes 1.7 s where the default 6 takes 2.9 s,
# for 2 % more bytes (9.7 MB, not 9.5); the pixels are the same
PNG_LEVEL = 3
SEVERITIES = ("error", "warning", "info")
T = TypeVar("T")


@dataclass(frozen=True)
class Box:
    """One laid-out text box of a face: where it is (fractions of the face,
    from the top left), which catalog entries it shows, and how they fit."""

    field: str
    keys: tuple[tuple[str, str], ...]  # (domain, msgctxt)
    left: float
    top: float
    width: float
    height: float
    status: str
    detail: str
    role: str = "body"  # the font role its text prints in (the page shows the translation in the game's font for it)


@dataclass(frozen=True)
class RenderedFace:
    id: str
    card: str
    kind: str
    image: str  # file name inside the set/locale image folder
    width: float  # points
    height: float
    boxes: tuple[Box, ...]


@dataclass(frozen=True)
class EntryRow:
    domain: str
    msgctxt: str
    english: str
    source: str  # file:line of the English
    translation: str
    where: str  # file:line of the catalog entry
    state: str  # translated, fuzzy, untranslated, missing


@dataclass(frozen=True)
class Mark:
    """A finding shown on one face, with the numbers of the boxes it concerns."""

    severity: str
    check: str
    msgctxt: str
    where: str
    message: str
    boxes: tuple[int, ...]


@dataclass(frozen=True)
class ReviewResult:
    out: Path
    pages: tuple[Path, ...]
    faces: int
    images: int


def image_name(face_id: str) -> str:
    """The PNG file name of a face, as ``cardkit build png`` names it.

    >>> image_name("back:spell:2A"), image_name("fireball#2")
    ('back_spell_2A.png', 'fireball-2.png')
    """
    return f"{face_file_stem(face_id)}.png"


def _split_keys(key: str, card_set: CardSet) -> tuple[tuple[str, str], ...]:
    """(domain, msgctxt) of each string of a layout key; ``ui:<id>`` is the
    set's own interface string when its ``strings.yaml`` defines it."""
    out = []
    for part in key.split(","):
        if part.startswith("ui:"):
            out.append((card_set.id if part[3:] in card_set.ui_ids else UI_DOMAIN, part[3:]))
        else:
            out.append((card_set.id, part))
    return tuple(out)


def _kind(card_set: CardSet, card: str) -> str:
    if card.startswith("back:"):
        return "back"
    c = card_set.cards.get(card)
    return c.kind if c is not None else ("reference" if card == "quick_reference" else "other")


def render_faces(root: Path, card_set: CardSet, locale: str, folder: Path, dpi: int) -> list[RenderedFace]:
    """Compose every distinct face of ``card_set`` in ``locale`` (print order,
    fronts then backs of each card) and write one PNG per face into ``folder``."""
    from cardkit.layout.ops import Text
    from cardkit.printing import compose_set, face_files, faces_by_id, faces_pdf
    from cardkit.render.images import png_bytes, rasterize_pages

    items, extras = compose_set(root, card_set, locale)
    out: list[RenderedFace] = []
    files = face_files(root, card_set, folder, faces_by_id(items + extras))
    folder.mkdir(parents=True, exist_ok=True)
    if not files:
        return out
    # one document of every face: its fonts are embedded and read once, not once per face
    pages = rasterize_pages(faces_pdf([face for face, _ in files], 0, f"{card_set.id} ({locale})", for_raster=True), dpi / 72)
    for (face, path), image in zip(files, pages, strict=True):
        w, h = face.template.width, face.template.height
        name = path.name
        path.write_bytes(png_bytes(image, compress_level=PNG_LEVEL))
        boxes = []
        for f in face.fits:
            x, y, bw, bh = f.box
            role = next((op.role for op in f.ops if isinstance(op, Text)), "body")
            boxes.append(Box(f.field, _split_keys(f.key, card_set), x / w, (h - y - bh) / h, bw / w, bh / h,
                             f.result.status, f.result.describe(), role))
        out.append(RenderedFace(face.id, face.card, _kind(card_set, face.card), name, w, h, tuple(boxes)))
    return out


# ------------------------------------------------------------------ catalogs
def _translation(string: object) -> str:
    """A catalog entry's translation as shown: plural forms one after the
    other, and empty when any form is missing.

    >>> _translation("Yksi"), _translation(("{n} pelaaja", "{n} pelaajaa")), _translation(("x", ""))
    ('Yksi', '{n} pelaaja / {n} pelaajaa', '')
    """
    if isinstance(string, str):
        return string
    if isinstance(string, (tuple, list)) and string and all(isinstance(f, str) and f for f in string):
        return " / ".join(string)
    return ""


def _catalog_rows(root: Path, locale: str, domain: str) -> tuple[str, dict[str, tuple[str, int, bool]]]:
    """A locale's catalog of one domain: msgctxt -> (translation, line, fuzzy)
    (``ui``: the project's own or the one shipped with cardkit)."""
    path = (ui_catalog(root, locale) if domain == UI_DOMAIN else None) or po_path(root, locale, domain)
    file = rel(root, path)
    if not os.path.lexists(path):
        return file, {}
    cat = read_catalog(path, file, locale, guard_for(root, path)).catalog
    return file, {str(m.context): (_translation(m.string), m.lineno or 0, bool(m.fuzzy)) for m in cat if m.id and m.context}


class _Entries:
    """English sources and one locale's translations of a set and the interface."""

    def __init__(self, root: Path, card_set: CardSet, locale: str) -> None:
        self.english = {(card_set.id, s.msgctxt): s for s in card_set.strings}
        self.english.update({(UI_DOMAIN, s.msgctxt): s for s in ui_strings()})
        self.by_card: dict[str, list[str]] = {}
        for s in card_set.strings:
            if s.msgctxt in card_set.ui_ids:
                continue  # an interface string belongs to no card
            self.by_card.setdefault(s.msgctxt.split(".")[0], []).append(s.msgctxt)
        self.catalogs = {d: _catalog_rows(root, locale, d) for d in (card_set.id, UI_DOMAIN)}

    def keys_of(self, face: RenderedFace, set_id: str, on_card: set[tuple[str, str]]) -> list[tuple[str, str]]:
        """Entries shown on a face (in layout order), then the card's strings
        that none of its faces shows (``on_card``: those shown on any face)."""
        keys: list[tuple[str, str]] = []
        for b in face.boxes:
            keys.extend(k for k in b.keys if k not in keys)
        keys.extend((set_id, m) for m in self.by_card.get(face.card, []) if (set_id, m) not in on_card)
        return keys

    def row(self, key: tuple[str, str]) -> EntryRow:
        domain, msgctxt = key
        src = self.english.get(key)
        file, table = self.catalogs[domain]
        text, line, fuzzy = table.get(msgctxt, ("", 0, False))
        state = "missing" if msgctxt not in table else "fuzzy" if fuzzy and text else "translated" if text else "untranslated"
        # a string from a spreadsheet names its cell in the file part and has no line
        source = (f"{src.file}:{src.line}" if src.line else src.file) if src else ""
        return EntryRow(domain, msgctxt, src.text if src else "", source,
                        text, f"{file}:{line}" if line else file, state)


# ------------------------------------------------------------------ findings
def _marks(face: RenderedFace, keys: list[tuple[str, str]], findings: dict[tuple[str, str], list[Finding]]) -> list[Mark]:
    """The findings of a face: the report's findings on its entries ``keys``
    (fit findings only where this face's box does not fit), and a note for
    every box that had to shrink."""
    marks: list[Mark] = []
    for key in keys:
        for f in findings.get(key, []):
            boxes = tuple(i + 1 for i, b in enumerate(face.boxes) if key in b.keys
                          and (f.check != "T950" or b.status in ("overflow", "below_min")))
            if f.check == "T950" and not boxes:
                continue  # the string overflows on another card, not on this one
            where = f"{f.file}:{f.line}" if f.line else f.file
            sev = "accepted" if getattr(f, "accepted_at", "") else f.severity.value  # an AcceptedFinding
            marks.append(Mark(sev, f.check, f.msgctxt, where, f.message, boxes))
    for i, b in enumerate(face.boxes):
        if b.status == "shrunk":
            marks.append(Mark("info", "shrink", ", ".join(m for _, m in b.keys), "", f"field '{b.field}': {b.detail}", (i + 1,)))
        elif b.status in ("overflow", "below_min") and not any(i + 1 in m.boxes and m.check == "T950" for m in marks):
            marks.append(Mark("error", "fit", ", ".join(m for _, m in b.keys), "", f"field '{b.field}': {b.detail}", (i + 1,)))
    order = {s: n for n, s in enumerate(SEVERITIES)}
    return sorted(marks, key=lambda m: (order.get(m.severity, 9), m.boxes[:1] or (99,), m.check, m.msgctxt))


# ------------------------------------------------------------------ output
@contextlib.contextmanager
def staged_folder(out: Path) -> Iterator[Path]:
    """A fresh folder beside ``out`` that replaces ``out`` when the block ends
    without error, and is removed otherwise.  An existing ``out`` is replaced only
    when it is empty or was written by this command."""
    out = check_write(out)  # (the stage beside it, and the rename, stay where the user allowed)
    problems = _out_issues(out)
    if problems:
        raise CardkitError(problems)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        stage = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
    except OSError as exc:
        raise CardkitError(Issue("V001", f"cannot write the review folder: {exc.strerror or exc}", file=str(out))) from None
    try:
        os.chmod(stage, 0o777 & ~_umask())
        yield stage
        (stage / MARKER).write_bytes(b"written by cardkit l10n review; the next review replaces this folder\n")
        old = None
        if out.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".old", dir=out.parent))
            os.replace(out, old / "x")
        try:
            os.replace(stage, out)
        except OSError:
            if old is not None:
                os.replace(old / "x", out)
            raise
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        shutil.rmtree(stage, ignore_errors=True)
        raise CardkitError(Issue("V001", f"cannot write the review folder: {exc.strerror or exc}", file=str(out))) from None
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _locale_issues(root: Path, locales: list[str] | None) -> tuple[list[str], list[Issue]]:
    """The target locales (those asked for, else every one with catalogs) and
    the problems with them, coded as every ``l10n`` command codes them
    (:func:`cardkit.i18n.languages.locale_issues`: ``L003`` not a locale name,
    ``L005`` no catalogs here)."""
    from cardkit.i18n.languages import locale_issues

    have = [loc for loc in project_locales(root) if loc != SOURCE_LOCALE]
    wanted = list(dict.fromkeys(locales or have))
    targets, problems = locale_issues(root, wanted)
    if not wanted:
        problems.append(Issue("L002", "no locales to review (locales/<lang>/LC_MESSAGES is empty)"))
    return targets, problems


def _out_issues(out: Path) -> list[Issue]:
    """An existing ``--out`` is replaced as a whole, so it must be a folder this
    command wrote (it holds the marker file) or an empty one."""
    if out.exists() and not out.is_dir():
        return [Issue("V002", "--out exists and is not a folder", file=str(out))]
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
        return [Issue("V002", f"--out is a folder this command did not write (no {MARKER}); refusing to replace it: "
                              "choose a new or empty folder", file=str(out))]
    return []


def write_review(root: Path, project: Project, out: Path, locales: list[str] | None = None,
                 set_ids: list[str] | None = None, dpi: int = DEFAULT_DPI, jobs: int = 0) -> ReviewResult:
    """Write ``out/index.html``, one page per locale (``out/<locale>.html``) and
    the face images (``out/img/<set>/<locale>/``); ``jobs`` worker processes
    render the faces (0: one per core), which changes no byte of the output.
    Every problem with the arguments is reported at once, before anything is written."""
    from cardkit.i18n.report import check_translations
    from cardkit.printing import compose_set, composed_once

    root, out = Path(root), Path(out)
    targets, problems = _locale_issues(root, locales)
    if not 72 <= dpi <= 1200:
        problems.append(Issue("B005", f"--dpi {dpi} is outside 72-1200"))
    known = sorted(sid for sid, ls in project.sets.items() if ls.set is not None)
    problems += [Issue("P002", f"no card set '{s}' (sets: {', '.join(known) or 'none'})") for s in set_ids or [] if s not in known]
    problems += _out_issues(out)
    if problems:
        raise CardkitError(problems)
    sets = [project.card_set(s) for s in (sorted(set(set_ids)) if set_ids else known)]
    with staged_folder(out) as stage, composed_once():
        tasks = [(cs.id, loc) for cs in sorted(sets, key=lambda c: -len(c.strings)) for loc in [SOURCE_LOCALE] + targets]
        # each set and locale is laid out once, here, before the workers fork: the images (in the workers),
        # the fit check and the length budgets (here, meanwhile) use the same faces
        for set_id, loc in tasks:
            compose_set(root, project.card_set(set_id), loc)
        faces, report = _render_all(root, project, stage, tasks, dpi, jobs,
                                    lambda: check_translations(root, project, targets, [s.id for s in sets]))
        pages = []
        totals = {}
        for loc in targets:
            page, total = _page(root, sets, loc, faces, report.findings)
            (stage / f"{loc}.html").write_text(page, encoding="utf-8")
            pages.append(out / f"{loc}.html")
            totals[loc] = total
        (stage / "index.html").write_text(_index(sets, targets, totals), encoding="utf-8")
        _copy_fonts(stage / "fonts", game_font_css(root, sets, targets))
        n_faces = sum(len(v) for k, v in faces.items() if k[1] != SOURCE_LOCALE)
        n_images = sum(len(v) for v in faces.values())
    return ReviewResult(out, tuple(pages), n_faces, n_images)


_JOB: tuple[Path, Project, Path, int] | None = None  # inherited by forked workers


def _render_task(task: tuple[str, str]) -> list[RenderedFace]:
    assert _JOB is not None
    root, project, stage, dpi = _JOB
    set_id, locale = task
    return render_faces(root, project.card_set(set_id), locale, stage / "img" / set_id / locale, dpi)


def _render_all(root: Path, project: Project, stage: Path, tasks: list[tuple[str, str]], dpi: int, jobs: int,
                meanwhile: Callable[[], T]) -> tuple[dict[tuple[str, str], list[RenderedFace]], T]:
    """Render every (set, locale) task, in forked worker processes when more
    than one core is wanted (the project is inherited, not pickled), while
    ``meanwhile`` runs here; results are keyed by task, so order never matters.
    Where forking is not safe (another thread runs here: :mod:`cardkit.workers`)
    every task is rendered here, to the same bytes."""
    global _JOB
    workers = min(len(tasks), jobs or os.cpu_count() or 1)
    _JOB = (root, project, stage, dpi)
    try:
        if workers <= 1 or not forking_is_safe():
            other = meanwhile()
            return {t: _render_task(t) for t in tasks}, other
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            futures = {t: pool.submit(_render_task, t) for t in tasks}
            other = meanwhile()
            return {t: f.result() for t, f in futures.items()}, other
    finally:
        _JOB = None


# ------------------------------------------------------------------ HTML
def _e(text: object) -> str:
    """Text as HTML, every control and bidi character shown as its escape (``\\u202e``),
    never live: the page shows the order the card prints (line breaks kept)."""
    return html.escape(neutral(str(text), keep="\n"), quote=True)


# the bundled fonts the pages use, so that Korean shows on a machine without a CJK system font
PAGE_FONTS = (("cardkit-sans", "noto/NotoSans-Regular.ttf", "normal"), ("cardkit-sans", "noto/NotoSans-Bold.ttf", "bold"),
              ("cardkit-kr", "nanum/NanumGothic.ttf", "normal"), ("cardkit-kr", "nanum/NanumGothicBold.ttf", "bold"))


FONT_CSS = "fonts/fonts.css"
# Visual TrueType's source tables: tools' data, never drawn; Chromium's font sanitizer
# refuses Nanum Gothic for its empty TSI3
_DROP_TABLES = frozenset({b"TSI0", b"TSI1", b"TSI2", b"TSI3", b"TSI5"})


def web_font(data: bytes) -> bytes:
    """A TrueType font without the tables a browser's sanitizer refuses and no
    renderer reads (offsets, padding and checksums rebuilt)."""
    import array
    import struct
    import sys

    version, count = struct.unpack(">IH", data[:6])
    tables = []
    for i in range(count):
        tag, _, offset, length = struct.unpack(">4sIII", data[12 + 16 * i: 28 + 16 * i])
        if tag not in _DROP_TABLES:
            tables.append((tag, data[offset: offset + length]))
    n = len(tables)
    power = 1 << (n.bit_length() - 1)
    head = struct.pack(">IHHHH", version, n, power * 16, power.bit_length() - 1, n * 16 - power * 16)

    def checksum(b: bytes) -> int:  # the sum of the big-endian 32-bit words (an array sums a 4 MB font in ms)
        b += b"\0" * (-len(b) % 4)
        words = array.array("I")
        if words.itemsize != 4:  # pragma: no cover - a platform whose unsigned int is not 32 bits
            return sum(struct.unpack(f">{len(b) // 4}I", b)) & 0xFFFFFFFF
        words.frombytes(b)
        if sys.byteorder == "little":
            words.byteswap()
        return sum(words) & 0xFFFFFFFF

    offset = 12 + 16 * n
    records, body, sums = [], [], []
    for tag, table in tables:
        if tag == b"head":
            table = table[:8] + b"\0\0\0\0" + table[12:]  # checksumAdjustment, set below
        sums.append(checksum(table))
        records.append(struct.pack(">4sIII", tag, sums[-1], offset, len(table)))
        body.append(table + b"\0" * (-len(table) % 4))
        offset += len(body[-1])
    font = bytearray(head + b"".join(records) + b"".join(body))
    at = next((struct.unpack(">I", r[8:12])[0] for r in records if r[:4] == b"head"), None)
    if at is not None:
        # the whole font's checksum: its directory's plus its tables' (each padded to whole words)
        total = (checksum(head + b"".join(records)) + sum(sums)) & 0xFFFFFFFF
        struct.pack_into(">I", font, at + 8, (0xB1B0AFBA - total) & 0xFFFFFFFF)
    return bytes(font)


def css_string(text: str) -> str:
    """``text`` as a quoted CSS string: every character but letters, digits,
    ``-`` and ``_`` written as a CSS escape, so no name (a set id, a locale)
    can end the string, the rule or the style sheet.

    >>> css_string("a'b</style>")
    '"a\\\\27 b\\\\3c \\\\2f style\\\\3e "'
    """
    return '"' + "".join(c if c.isascii() and (c.isalnum() or c in "-_") else f"\\{ord(c):x} " for c in text) + '"'


def game_font_css(root: Path, sets: list[CardSet], locales: list[str]) -> list[str]:
    """The games' own fonts (``fonts:`` of each set's face file) for the
    review pages: an ``@font-face`` per font file a locale's role uses (its
    data read again from the project, inside it and within the size bound,
    inline as the bundled fonts are; the family is its registered name,
    ``cardkit-<hash>``), and per set, locale and role a rule that shows the
    translations printed in that role (``td.tr.role-<role>`` of the set's
    cards on the locale's page) in the game's chain, then the bundled fonts.
    Names are written as escaped CSS strings."""
    import base64

    from cardkit.layout.faces import load_faces
    from cardkit.layout.fonts import MAX_FONT_BYTES, ROLES, game_font_file
    from cardkit.load.files import read_project_file

    faces: list[str] = []
    rules: list[str] = []
    done: set[str] = set()
    for card_set in sets:
        table = load_faces(root, card_set).fonts
        for locale in locales:
            for role in ROLES:
                chain = table.own(locale, role)
                for name in chain:
                    rel = game_font_file(name)
                    if name in done or rel is None:
                        continue
                    data = read_project_file(root / rel, str(rel), root=root, max_bytes=MAX_FONT_BYTES, too_large="M090")
                    faces.append(f"@font-face{{font-family:{css_string(name)};src:url(data:font/ttf;base64,"
                                 f"{base64.b64encode(web_font(data)).decode('ascii')}) format('truetype');font-display:block}}")
                    done.add(name)
                if chain:
                    families = ",".join(css_string(n) for n in chain)
                    rules.append(f"html[lang={css_string(locale)}] article[data-set={css_string(card_set.id)}] "
                                 f"td.tr.role-{role}{{font-family:{families},'cardkit-sans','cardkit-kr',sans-serif}}")
    return faces + rules


def _copy_fonts(target: Path, extra: list[str] | None = None) -> None:
    """``fonts/fonts.css``: the bundled fonts as ``@font-face`` rules with the
    font data inline, then ``extra`` (the games' own: :func:`game_font_css`).
    Chromium refuses a font file a page opened from disk
    names by URL (a file:// font is a cross-origin request), so the data travel
    in the style sheet, which any page may load."""
    import base64

    from cardkit.layout.fonts import FontBook

    source = FontBook().font_dir
    rules = []
    for family, rel_path, weight in PAGE_FONTS:
        data = base64.b64encode(web_font((source / rel_path).read_bytes())).decode("ascii")
        rules.append(f"@font-face{{font-family:'{family}';src:url(data:font/ttf;base64,{data}) format('truetype');"
                     f"font-weight:{weight};font-display:block}}")
    target.mkdir(parents=True, exist_ok=True)
    (target / "fonts.css").write_text("\n".join(rules + list(extra or [])) + "\n", encoding="ascii")


CSS = """
body{font-family:'cardkit-sans','cardkit-kr',system-ui,sans-serif;margin:1.2rem;color:#1d1b18;background:#f4f2ec}
.filters input[type=search]{width:16rem}
h1{font-size:1.4rem;margin:.2rem 0}h2{font-size:1.15rem;margin:1.5rem 0 .5rem}h3{font-size:1rem;margin:0 0 .4rem}
table{border-collapse:collapse;font-size:.85rem;background:#fff}th,td{border:1px solid #ccc;padding:.2rem .4rem;text-align:left;vertical-align:top}
td.n,th.n{text-align:right}.filters{position:sticky;top:0;background:#f4f2ec;padding:.5rem 0;z-index:5;border-bottom:1px solid #ccc}
.filters label{margin-right:1.2rem}.card{background:#fff;border:1px solid #ccc;border-radius:6px;padding:.7rem;margin:.8rem 0;display:flex;gap:1rem;flex-wrap:wrap}
.card[hidden]{display:none}.faces{display:flex;gap:.6rem}.faces figure{margin:0}.faces figcaption{font-size:.75rem;color:#555}
.face{position:relative;width:240px;line-height:0}.face.wide{width:300px}.face img{width:100%;height:auto;display:block;border-radius:3px}
.box{position:absolute;box-sizing:border-box;outline:2px solid;outline-offset:2px;line-height:1}.box span{position:absolute;top:-2px;right:calc(100% + 5px);font:bold 11px sans-serif;
border-radius:50%;width:1.1rem;height:1.1rem;display:flex;align-items:center;justify-content:center;color:#fff}
.box.error{outline-color:#d7191c}.box.error span{background:#d7191c}.box.warning{outline-color:#f28e00;outline-style:dashed}.box.warning span{background:#f28e00}.box.accepted{outline-color:#2a7a2a;outline-style:dotted}.box.accepted span{background:#2a7a2a}
.box.info{outline-color:#2c7bb6;outline-style:dotted}.box.info span{background:#2c7bb6}
.ws{color:#b03a2e;background:#fbe3df;border-radius:2px}.affects,.same{font-size:.78rem;color:#444}
.side{flex:1 1 420px;min-width:0}.findings{margin:0 0 .6rem;padding-left:1.2rem;font-size:.85rem}.findings li{margin:.15rem 0;overflow-wrap:anywhere}
.sev{font-weight:bold;text-transform:uppercase;font-size:.7rem;padding:0 .25rem;border-radius:3px;color:#fff}
.sev.error{background:#d7191c}.sev.warning{background:#f28e00}.sev.info{background:#2c7bb6}.sev.accepted{background:#2a7a2a}
.where,.ctx{font-family:monospace;font-size:.78rem;color:#444}.entries{width:100%;table-layout:fixed}.entries td{overflow-wrap:anywhere}.entries th:first-child{width:26%}.state-fuzzy,.state-untranslated,.state-missing{background:#fde7e7}
.ok{color:#2a7a2a;font-size:.85rem}
"""

SCRIPT = """
(function(){
  var only=document.getElementById('only-findings'),kind=document.getElementById('kind'),count=document.getElementById('shown');
  var search=document.getElementById('search'),severity=document.getElementById('severity');
  function apply(){
    var cards=document.querySelectorAll('article.card'),n=0,q=search.value.trim().toLowerCase();
    for(var i=0;i<cards.length;i++){
      var c=cards[i],hide=(only.checked&&c.getAttribute('data-findings')==='0')||(kind.value!==''&&c.getAttribute('data-kind')!==kind.value);
      if(severity.value==='error')hide=hide||c.getAttribute('data-errors')==='0';
      if(severity.value==='warning')hide=hide||(c.getAttribute('data-errors')==='0'&&c.getAttribute('data-warnings')==='0');
      if(q)hide=hide||c.textContent.toLowerCase().indexOf(q)<0;
      c.hidden=hide;if(!hide)n++;
    }
    count.textContent=n;
  }
  only.addEventListener('change',apply);kind.addEventListener('change',apply);severity.addEventListener('change',apply);
  search.addEventListener('input',apply);apply();
})();
"""


@dataclass(frozen=True)
class _Row:
    set_id: str
    face: RenderedFace
    english: RenderedFace
    entries: tuple[EntryRow, ...]
    marks: tuple[Mark, ...]


def _page(root: Path, sets: list[CardSet], locale: str, faces: dict[tuple[str, str], list[RenderedFace]],
          all_findings: list[Finding]) -> tuple[str, dict[str, int]]:
    findings: dict[tuple[str, str], list[Finding]] = {}
    loose: list[Finding] = []
    domains = {s.id for s in sets} | {UI_DOMAIN}
    for f in all_findings:
        if f.locale != locale:
            continue
        if f.msgctxt and f.set in domains:
            findings.setdefault((f.set, f.msgctxt), []).append(f)
        else:
            loose.append(f)
    rows: list[_Row] = []
    shown: set[tuple[str, str, str]] = set()
    for cs in sets:
        entries = _Entries(root, cs, locale)
        english = {f.id: f for f in faces[(cs.id, SOURCE_LOCALE)]}
        on_card: dict[str, set[tuple[str, str]]] = {}
        for face in faces[(cs.id, locale)]:
            on_card.setdefault(face.card, set()).update(k for b in face.boxes for k in b.keys)
        for face in faces[(cs.id, locale)]:
            keys = entries.keys_of(face, cs.id, on_card[face.card])
            marks = tuple(_marks(face, keys, findings))
            shown.update((m.check, m.msgctxt, m.message) for m in marks)
            rows.append(_Row(cs.id, face, english[face.id], tuple(entries.row(k) for k in keys), marks))
    # findings on strings no face shows (sheet labels, token page, unprinted set strings)
    loose += [f for fs in findings.values() for f in fs if (f.check, f.msgctxt, f.message) not in shown]
    kinds = sorted({(r.set_id, r.face.kind) for r in rows}, key=lambda k: ([s.id for s in sets].index(k[0]), k[1]))
    summary = []
    for set_id, kind in kinds:
        rs = [r for r in rows if r.set_id == set_id and r.face.kind == kind]
        distinct = {(e.domain, e.msgctxt): e for r in rs for e in r.entries}
        sev = Counter(m.severity for m in {(m.severity, m.check, m.msgctxt, m.message): m for r in rs for m in r.marks}.values())
        summary.append((set_id, kind, len(rs), sum(1 for r in rs if r.marks), len(distinct),
                        sum(e.state == "translated" for e in distinct.values()), sev))
    every = {(e.domain, e.msgctxt): e for r in rows for e in r.entries}
    total = {"faces": len(rows), "with_findings": sum(1 for r in rows if r.marks), "entries": len(every),
             "translated": sum(e.state == "translated" for e in every.values()), "no_face": len(loose)}
    total.update({s: sum(row[6].get(s, 0) for row in summary) for s in SEVERITIES})
    name = {"fi": "Finnish", "ko": "Korean"}.get(locale, locale)
    out = ['<!DOCTYPE html>', f'<html lang="{_e(locale)}"><head><meta charset="utf-8">',
           f'<title>cardkit review: English and {_e(name)} ({_e(locale)})</title>',
           f'<link rel="stylesheet" href="{FONT_CSS}"><style>{CSS}</style></head><body>',
           f'<h1>Translation review: English and {_e(name)} (<code>{_e(locale)}</code>)</h1>',
           '<p><a href="index.html">all locales</a> · sets: ' + ", ".join(_e(s.id) for s in sets) +
           '. Each card face as printed, English on the left; boxes on the translated face mark findings '
           '(red: error, orange dashed: warning, blue dotted: shrunk to fit).</p>',
           '<h2>Summary</h2><table id="summary"><thead><tr><th>set</th><th>kind</th><th class="n">faces</th>'
           '<th class="n">with findings</th><th class="n">entries</th><th class="n">translated</th>'
           '<th class="n">errors</th><th class="n">warnings</th><th class="n">info</th></tr></thead><tbody>']
    for set_id, kind, n, nf, ne, nt, sev in summary:
        out.append(f'<tr data-kind="{_e(kind)}"><td>{_e(set_id)}</td><td>{_e(kind)}</td><td class="n">{n}</td>'
                   f'<td class="n">{nf}</td><td class="n">{ne}</td><td class="n">{nt}</td>' +
                   "".join(f'<td class="n">{sev.get(s, 0)}</td>' for s in SEVERITIES) + '</tr>')
    out.append(f'<tr><th colspan="2">total</th><th class="n">{total["faces"]}</th><th class="n">{total["with_findings"]}</th>'
               f'<th class="n">{total["entries"]}</th><th class="n">{total["translated"]}</th>' + "".join(f'<th class="n">{total[s]}</th>' for s in SEVERITIES) + '</tr></tbody></table>')
    if loose:
        out.append('<h2>Findings on no card face</h2><p>Catalog-wide problems, and strings printed elsewhere '
                   '(sheet notes, token page) or not printed.</p><ul class="findings" id="catalog-findings">')
        for f in loose:
            where = f"{f.file}:{f.line}" if f.line else f.file
            label = "accepted" if getattr(f, "accepted_at", "") else f.severity.value  # an AcceptedFinding
            out.append(f'<li><span class="sev {_e(label)}">{_e(label)}</span> '
                       f'<b>{_e(f.check)}</b> <span class="ctx">{_e(f.msgctxt)}</span> {_e(f.message)} '
                       f'<span class="where">{_e(where)}</span></li>')
        out.append('</ul>')
    out.append('<div class="filters"><label><input type="checkbox" id="only-findings"> only cards with findings</label>'
               '<label>kind <select id="kind"><option value="">all kinds</option>' +
               "".join(f'<option value="{_e(k)}">{_e(k)}</option>' for k in sorted({k for _, k in kinds})) +
               '</select></label><label>severity <select id="severity"><option value="">any</option>'
               '<option value="warning">warnings and errors</option><option value="error">errors</option></select></label>'
               '<label>search <input type="search" id="search" placeholder="English, translation or msgctxt"></label>'
               f'<span><span id="shown">{len(rows)}</span> of {len(rows)} faces shown</span></div>')
    # a finding on a string several faces show (a shared rule text) is written out once, on the first face,
    # with the list of every face it affects; the others point to it
    shared: dict[tuple[str, str, str], list[str]] = {}
    for r in rows:
        for m in r.marks:
            if m.check not in FACE_NOTES:
                ids = shared.setdefault((m.check, m.msgctxt, m.message), [])
                if _anchor(r) not in ids:
                    ids.append(_anchor(r))
    for r in rows:
        out.append(_card_html(r, locale, shared))
    out.append(f'<script>{SCRIPT}</script></body></html>')
    return "\n".join(out) + "\n", total


def _face_html(face: RenderedFace, src: str, alt: str, marks: tuple[Mark, ...] | None) -> str:
    wide = " wide" if face.width > 200 else ""
    parts = [f'<div class="face{wide}"><a href="{_e(src)}" title="open the image at full size"><img src="{_e(src)}" alt="{_e(alt)}" '
             f'width="{round(face.width)}" height="{round(face.height)}"></a>']
    if marks is not None:
        order = {s: n for n, s in enumerate(SEVERITIES)}
        for i, b in enumerate(face.boxes, 1):
            sev = sorted((m.severity for m in marks if i in m.boxes), key=lambda s: order.get(s, 9))
            if not sev:
                continue
            tip = "; ".join(f"{m.check}: {m.message}" for m in marks if i in m.boxes)
            parts.append(f'<div class="box {sev[0]}" data-box="{i}" title="{_e(tip)}" style="left:{b.left:.2%};top:{b.top:.2%};'
                         f'width:{b.width:.2%};height:{b.height:.2%}"><span>{i}</span></div>')
    parts.append('</div>')
    return "".join(parts)


FACE_NOTES = ("shrink", "fit")  # notes about one face's own boxes, never shared
WHITESPACE_CHECKS = ("T801", "T601")  # findings about spaces: the entry's spaces are shown
_WS = {" ": "·", "\u00a0": "⍽", "\t": "→", "\n": "↵", "\u00ad": "‐"}
_WS_NAMES = {" ": "space", "\u00a0": "no-break space", "\t": "tab", "\n": "line break", "\u00ad": "soft hyphen"}


def _anchor(r: _Row) -> str:
    return f"{r.set_id}--{r.face.id}"


def visible_whitespace(text: str) -> str:
    """``text`` as HTML with every space, no-break space, tab, line break and
    soft hyphen shown as a mark (a doubled or trailing space would collapse
    out of sight in HTML), a line may still break after a space; every
    character is escaped.

    >>> visible_whitespace("a  b<i>")
    'a<span class="ws" title="space">·</span><wbr><span class="ws" title="space">·</span><wbr>b&lt;i&gt;'
    """
    out = []
    for ch in text:
        mark = _WS.get(ch)
        if mark is None:
            out.append(_e(ch))
        else:
            out.append(f'<span class="ws" title="{_WS_NAMES[ch]}">{_e(mark)}</span>' + ("<wbr>" if ch == " " else ""))
    return "".join(out)


def _card_html(r: _Row, locale: str, shared: dict[tuple[str, str, str], list[str]] | None = None) -> str:
    f = r.face
    img = f"img/{r.set_id}/{locale}/{f.image}"
    en = f"img/{r.set_id}/{SOURCE_LOCALE}/{r.english.image}"
    out = [f'<article class="card" id="{_e(r.set_id)}--{_e(f.id)}" data-set="{_e(r.set_id)}" data-kind="{_e(f.kind)}" '
           f'data-findings="{len(r.marks)}" data-errors="{sum(m.severity == "error" for m in r.marks)}" '
           f'data-warnings="{sum(m.severity == "warning" for m in r.marks)}">',
           f'<div class="faces"><figure>{_face_html(r.english, en, f"{f.id} (en)", None)}<figcaption>English</figcaption></figure>'
           f'<figure>{_face_html(f, img, f"{f.id} ({locale})", r.marks)}<figcaption>{_e(locale)}</figcaption></figure></div>',
           f'<div class="side"><h3>{_e(f.id)} <span class="ctx">{_e(r.set_id)} · {_e(f.kind)}</span></h3>']
    if r.marks:
        out.append('<ol class="findings">')
        for m in r.marks:
            boxes = " ".join(f"[{b}]" for b in m.boxes)
            head = (f'<li data-severity="{_e(m.severity)}"><span class="sev {_e(m.severity)}">{_e(m.severity)}</span> '
                    f'<b>{_e(m.check)}</b> {_e(boxes)} <span class="ctx">{_e(m.msgctxt)}</span> ')
            faces = (shared or {}).get((m.check, m.msgctxt, m.message), [])
            if len(faces) > 1 and faces[0] != _anchor(r):
                out.append(head + f'<span class="same">the same finding as on <a href="#{_e(faces[0])}">'
                                  f'{_e(faces[0].split("--", 1)[1])}</a></span></li>')
                continue
            also = ""
            if len(faces) > 1:
                also = (f' <span class="affects">on {len(faces)} faces: ' +
                        ", ".join(f'<a href="#{_e(a)}">{_e(a.split("--", 1)[1])}</a>' for a in faces) + '</span>')
            out.append(head + _e(m.message) + (f' <span class="where">{_e(m.where)}</span>' if m.where else "")
                       + also + '</li>')
        out.append('</ol>')
    else:
        out.append('<p class="ok">no findings</p>')
    if r.entries:
        out.append('<table class="entries"><thead><tr><th>msgctxt</th><th>English</th><th>translation</th></tr></thead><tbody>')
        roles: dict[tuple[str, str], str] = {}  # each entry's role: that of the first box on the face that prints it
        for b in f.boxes:
            for key in b.keys:
                roles.setdefault(key, b.role)
        for e in r.entries:
            ctx = e.msgctxt if e.domain != UI_DOMAIN else f"ui: {e.msgctxt}"
            role = roles.get((e.domain, e.msgctxt), "body")
            spaces = any(m.check in WHITESPACE_CHECKS and e.msgctxt in m.msgctxt.split(", ") for m in r.marks)
            shown = visible_whitespace(e.translation) if spaces else _e(e.translation)
            out.append(f'<tr class="state-{_e(e.state)}"><td class="ctx">{_e(ctx)}</td>'
                       f'<td>{_e(e.english)}<br><span class="where">{_e(e.source)}</span></td>'
                       f'<td class="tr role-{_e(role)}">{shown if e.translation else "<i>(" + _e(e.state) + ")</i>"}'
                       f'{" <i>(fuzzy)</i>" if e.state == "fuzzy" else ""}<br><span class="where">{_e(e.where)}</span></td></tr>')
        out.append('</tbody></table>')
    out.append('</div></article>')
    return "\n".join(out)


def _index(sets: list[CardSet], locales: list[str], totals: dict[str, dict[str, int]]) -> str:
    out = ['<!DOCTYPE html>', '<html lang="en"><head><meta charset="utf-8"><title>cardkit translation review</title>',
           f'<link rel="stylesheet" href="{FONT_CSS}"><style>{CSS}</style></head><body><h1>Translation review</h1>',
           '<p>Sets: ' + ", ".join(_e(s.id) for s in sets) + '. One page per locale:</p>',
           '<table><thead><tr><th>locale</th><th class="n">faces</th><th class="n">with findings</th>'
           '<th class="n">errors</th><th class="n">warnings</th><th class="n">info</th>'
           '<th class="n">findings on no face</th></tr></thead><tbody>']
    for loc in locales:
        t = totals[loc]
        out.append(f'<tr><td><a href="{_e(loc)}.html">{_e(loc)}</a></td><td class="n">{t["faces"]}</td>'
                   f'<td class="n">{t["with_findings"]}</td>' + "".join(f'<td class="n">{t[s]}</td>' for s in SEVERITIES) +
                   f'<td class="n">{t["no_face"]}</td></tr>')
    out.append('</tbody></table></body></html>')
    return "\n".join(out) + "\n"
