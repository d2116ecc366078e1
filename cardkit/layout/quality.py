"""Print-quality checks on composed faces: what a print shop would flag.

``cardkit validate`` composes every face of a set in English (the same
:class:`~cardkit.layout.compose.Composer` the PDF builder uses) and reads the
draw operations, each tagged with the ``faces.yaml`` element that placed it:

=====  =======  ===============================================================
Q001   warning  text contrast (WCAG 2) against the fill beneath it below 4.5:1,
                or 3:1 for bold text (a bold font role) or text of 18 pt and more
Q002   warning  a frame line or a text closer than the safe zone (3 mm) to the trim
Q003   warning  a raster image printed below 300 ppi
Q004   error    a font file reportlab cannot embed (its licence bits forbid it)
=====  =======  ===============================================================

Rules, so a finding is predictable:

* The background of a text run is the last filled shape drawn before it
  (rectangle, circle, polygon, or raster image) that covers the centre of the
  run's box: its advance width by where glyphs reach (0.75 of the size above
  the baseline, 0.24 below; the font's ascent would add its line gap).  On a raster image the image's
  mean colour under the box is used (sampled with Pillow, from the artwork as it prints: after the
  faces' ``images:``, lightened, greyscale or, omitted, not there at all); in a rotated group
  an image is skipped.  SVG icons are never a background.
* A line is a frame line near the cut when both ends of one of its straight
  segments (rectangle sides, polygon sides, lines) lie less than the safe zone
  minus half the line width inside the same trim edge, and not wholly outside
  the trim; lines that cross the card towards the cut are not frame lines.
* Findings are grouped by face and element: one line per element, with the
  number of cards it concerns and the worst case.
"""

from __future__ import annotations

import functools
import io
import itertools
import math
import re
import struct
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardkit.errors import CardkitError, Issue, JsonPath, Severity
from cardkit.layout.compose import Composer, Face
from cardkit.layout.faces import FaceBook
from cardkit.layout.fonts import FONT_FILES, ROLE_CHAINS, FontBook
from cardkit.layout.ops import Circle, Group, Line, Op, Picture, Poly, Rect, Text
from cardkit.load.yamlsafe import YamlDoc

MM = 72 / 25.4
SAFE_ZONE = 3 * MM
MIN_PPI = 300.0
BODY_CONTRAST = 4.5
LARGE_CONTRAST = 3.0
LARGE_SIZE = 18.0
INK_TOP, INK_BOTTOM = 0.75, 0.24  # where glyphs reach, per point of size: ascender height and descender depth

_HEX = re.compile(r"#[0-9a-fA-F]{6}")
Matrix = tuple[float, float, float, float, float, float]  # a, b, c, d, e, f: x' = a x + c y + e, y' = b x + d y + f
_IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def relative_luminance(hex_colour: str) -> float:
    """WCAG 2 relative luminance of an sRGB ``#rrggbb`` colour."""
    return _luminance(tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)))


def _luminance(rgb: tuple[float, ...]) -> float:
    def lin(c: float) -> float:
        c = c / 255.0
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(l1: float, l2: float) -> float:
    """WCAG contrast ratio of two relative luminances (1 to 21)."""
    hi, lo = max(l1, l2), min(l1, l2)
    return (hi + 0.05) / (lo + 0.05)


# ------------------------------------------------------------ tagged compose
class _Tracing(Composer):
    """A composer that remembers which ``faces.yaml`` element drew each op."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tags: dict[int, list[Mapping[str, Any] | None]] = {}

    def element(self, face: Face, el: Mapping[str, Any], s: dict[str, Any], colours: dict[str, str],
                origin: tuple[float, float]) -> None:
        start = len(face.ops)
        super().element(face, el, s, colours, origin)
        tags = self.tags.setdefault(id(face), [])
        tags.extend([None] * (len(face.ops) - len(tags)))
        for i in range(start, len(face.ops)):
            if tags[i] is None:  # an inner element (of a group) tagged it first
                tags[i] = el


def _mul(m: Matrix, n: Matrix) -> Matrix:
    """``m`` after ``n`` (a point goes through n, then m)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2, a * e2 + c * f2 + e, b * e2 + d * f2 + f)


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


@dataclass(frozen=True)
class _Placed:
    op: Op
    m: Matrix
    tag: Mapping[str, Any] | None


def _flatten(ops: list[Op] | tuple[Op, ...], tags: list[Any], m: Matrix = _IDENTITY,
             inherited: Mapping[str, Any] | None = None) -> Iterator[_Placed]:
    for i, op in enumerate(ops):
        tag = tags[i] if i < len(tags) and tags[i] is not None else inherited
        if isinstance(op, Group):
            t = math.radians(op.rotate)
            g = _mul(m, (math.cos(t), math.sin(t), -math.sin(t), math.cos(t), op.dx, op.dy))
            yield from _flatten(op.ops, [], g, tag)
        else:
            yield _Placed(op, m, tag)


# ------------------------------------------------------------------ geometry
def _covers(p: _Placed, x: float, y: float) -> bool:
    op, m = p.op, p.m
    det = m[0] * m[3] - m[1] * m[2]
    if not det:
        return False
    # the point in the op's own coordinates
    dx, dy = x - m[4], y - m[5]
    lx, ly = (m[3] * dx - m[2] * dy) / det, (-m[1] * dx + m[0] * dy) / det
    if isinstance(op, (Rect, Picture)):
        return op.x <= lx <= op.x + op.w and op.y <= ly <= op.y + op.h
    if isinstance(op, Circle):
        return (lx - op.cx) ** 2 + (ly - op.cy) ** 2 <= op.r ** 2
    if isinstance(op, Poly):
        inside = False
        pts = op.points
        for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]):
            if (y1 > ly) != (y2 > ly) and lx < x1 + (ly - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
        return inside
    return False


def _segments(p: _Placed) -> Iterator[tuple[tuple[float, float], tuple[float, float]]]:
    op, m = p.op, p.m
    pts: list[tuple[float, float]]
    closed = True
    if isinstance(op, Rect):
        pts = [(op.x, op.y), (op.x + op.w, op.y), (op.x + op.w, op.y + op.h), (op.x, op.y + op.h)]
    elif isinstance(op, Poly):
        pts, closed = list(op.points), op.closed
    elif isinstance(op, Line):
        pts, closed = [(op.x1, op.y1), (op.x2, op.y2)], False
    else:
        return
    world = [_apply(m, x, y) for x, y in pts]
    yield from itertools.pairwise(world + world[:1] if closed and len(world) > 2 else world)


# ------------------------------------------------------------------- images
@functools.lru_cache(maxsize=64)
def _image(png: bytes) -> Any:
    from PIL import Image

    with Image.open(io.BytesIO(png)) as im:
        return im.convert("RGB")


def _drawn_box(op: Picture) -> tuple[float, float, float, float]:
    """Where a picture lands: fitted into its box, centred, aspect kept."""
    k = min(op.w / op.px_w, op.h / op.px_h)
    w, h = op.px_w * k, op.px_h * k
    return op.x + (op.w - w) / 2, op.y + (op.h - h) / 2, w, h


def _mean_under(p: _Placed, box: tuple[float, float, float, float]) -> tuple[float, ...] | None:
    op = p.op
    assert isinstance(op, Picture)
    if p.m[1] or p.m[2]:
        return None  # rotated: skipped (documented)
    im = _image(op.png)
    px, py, pw, ph = _drawn_box(op)
    x0, y0 = px + p.m[4], py + p.m[5]
    bx, by, bw, bh = box
    sx, sy = im.width / pw, im.height / ph
    left, right = max(0, int((bx - x0) * sx)), min(im.width, math.ceil((bx + bw - x0) * sx))
    top, bottom = max(0, int((y0 + ph - by - bh) * sy)), min(im.height, math.ceil((y0 + ph - by) * sy))
    if right <= left or bottom <= top:
        return None
    from PIL import ImageStat

    return tuple(ImageStat.Stat(im.crop((left, top, right, bottom))).mean)


# ------------------------------------------------------------------- checks
@dataclass
class _Finding:
    code: str
    path: JsonPath
    cards: set[str]
    worst: float
    detail: str
    example: str


def _element_paths(book: FaceBook) -> dict[int, JsonPath]:
    """``id(element) -> its path in faces.yaml``: a face's own elements (and
    those it extends, by the face that wrote them), groups, nested groups."""
    out: dict[int, JsonPath] = {}

    def place(el: Any, path: JsonPath) -> None:
        if isinstance(el, Mapping):
            out.setdefault(id(el), path)
            subs = el.get("elements")
            for j, sub in enumerate(subs if isinstance(subs, list) else []):
                place(sub, path + ("elements", j))

    for name, els in book.groups.items():
        for i, el in enumerate(els):
            place(el, ("groups", name, i))
    for name, spec in book.faces.items():
        origins = spec.get("_origins") or [(name, i) for i in range(len(spec.get("elements", [])))]
        for el, (owner, i) in zip(spec.get("elements", []), origins):
            place(el, ("faces", owner, "elements", i))
    return out


def font_issues(book: FontBook | None = None) -> list[Issue]:
    """Q004: every font a role can draw with can be embedded: TrueType outlines
    (reportlab embeds no CFF/PostScript ones) and an OS/2 ``fsType`` that allows
    embedding and subsetting (reportlab subsets every font and does not refuse a
    restricted one itself).  Read from the table directory, once per file version."""
    fb = book or FontBook()
    names = sorted({f for table in ROLE_CHAINS.values() for chain in table.values() for f in chain})
    out = []
    for name in names:
        path = Path(fb.font_dir) / FONT_FILES[name]
        try:
            st = path.stat()
        except OSError:
            continue  # T001 when it is used
        problem = _embedding_problem(str(path), st.st_mtime_ns, st.st_size)
        if problem:
            out.append(Issue("Q004", f"font {name} ({FONT_FILES[name]}) cannot be embedded: {problem}; choose another font",
                             file=str(path)))
    return out


@functools.lru_cache(maxsize=64)
def _embedding_problem(path: str, mtime: int, size: int) -> str | None:
    try:
        with open(path, "rb") as fh:
            head = fh.read(12)
            if head[:4] == b"OTTO":
                return "it has PostScript (CFF) outlines, which reportlab does not embed"
            if len(head) < 12 or head[:4] not in (b"\x00\x01\x00\x00", b"true"):
                return None  # not a TrueType file: T001 when it is read
            (tables,) = struct.unpack(">H", head[4:6])
            directory = fh.read(16 * min(tables, 512))
            for i in range(len(directory) // 16):
                tag, _, offset, length = struct.unpack(">4sIII", directory[16 * i:16 * i + 16])
                if tag == b"OS/2" and length >= 10:
                    fh.seek(offset + 8)
                    (fs_type,) = struct.unpack(">H", fh.read(2))
                    if fs_type == 0x0002 or fs_type & 0x0300:
                        why = "restricted licence" if (fs_type & 0x000F) == 0x0002 else \
                            "bitmap embedding only" if fs_type & 0x0200 else "no subsetting"
                        return f"its OS/2 fsType is 0x{fs_type:04x} ({why}), it does not allow embedding"
    except (OSError, struct.error):
        return None  # unreadable: T001 when it is read
    return None


def quality_issues(composer_args: tuple[Any, ...], book: FaceBook, doc: YamlDoc, card_origin: Any,
                   art_of: Mapping[str, str], safe_zone: float = SAFE_ZONE) -> list[Issue]:
    """Q001-Q003 on every face the set prints (see the module doc).

    ``composer_args`` are the :class:`Composer` arguments (set, localizer,
    face book, font book, art loader: the one the PDF builder draws with, so the art is judged
    as it prints, after the faces' ``images:``); ``card_origin(id, code, message)``
    makes an issue at a card's ``art`` field and ``art_of`` maps art paths to
    the first card that names them; ``safe_zone``: Q002's distance from the
    trim (a print service's own, :attr:`cardkit.print.presets.ShopPreset.safe`)."""
    loaded_art: dict[bytes, str] = {}
    loader = composer_args[4]

    def remember(rel: str) -> Any:
        a = loader(rel)  # (None: the faces' `images: {omit: true}`, the element draws nothing)
        if a is not None:
            loaded_art.setdefault(a.png, rel)
        return a

    comp = _Tracing(*composer_args[:4], art=remember)
    try:
        items = comp.items() + comp.extras()
    except CardkitError as exc:
        return exc.issues
    except (ValueError, TypeError, KeyError, IndexError, ZeroDivisionError):
        return []  # data the composer cannot draw: `cardkit build` reports it; validate stays a check
    paths = _element_paths(book)
    findings: dict[tuple[str, Any], _Finding] = {}
    seen: set[int] = set()
    faces: list[tuple[str, Face]] = []
    for item in items:
        for face in (item.front, item.back):
            if face is not None and id(face) not in seen:
                seen.add(id(face))
                faces.append((face.template.name, face))
    fonts = comp.book

    def where(p: _Placed, tname: str) -> JsonPath:
        found = paths.get(id(p.tag)) if p.tag is not None else None
        return found or ("faces", tname)

    def note(face: Face, tname: str, code: str, p: _Placed, worst: float, detail: str, key: Any = None) -> None:
        path = where(p, tname)
        k = (code, key if key is not None else path)
        f = findings.get(k)
        if f is None:
            findings[k] = _Finding(code, path, {face.card}, worst, detail, face.card)
        else:
            f.cards.add(face.card)
            if worst < f.worst:
                f.worst, f.detail, f.example = worst, detail, face.card

    for tname, face in faces:
        W, H = face.template.width, face.template.height
        placed = list(_flatten(face.ops, comp.tags.get(id(face), [])))
        for idx, p in enumerate(placed):
            op = p.op
            if isinstance(op, Text):
                chain = fonts.chain(op.locale, op.role)
                w = fonts.width(op.text, chain, op.size)
                asc, desc = INK_TOP * op.size, -INK_BOTTOM * op.size
                corners = [_apply(p.m, x, y) for x, y in ((op.x, op.y + desc), (op.x + w, op.y + asc),
                                                          (op.x, op.y + asc), (op.x + w, op.y + desc))]
                xs, ys = [c[0] for c in corners], [c[1] for c in corners]
                box = (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
                cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
                # (a colour from card data that is no #rrggbb is the build's to report)
                fg = relative_luminance(op.colour) if _HEX.fullmatch(op.colour) else None
                large = "Bold" in chain[0] or op.size >= LARGE_SIZE
                need = LARGE_CONTRAST if large else BODY_CONTRAST
                for q in reversed(placed[:idx]) if fg is not None else ():
                    fill = getattr(q.op, "fill", None)
                    if not isinstance(q.op, Picture) and fill is None:
                        continue
                    if not _covers(q, cx, cy):
                        continue
                    if isinstance(q.op, Picture):
                        mean = _mean_under(q, box)
                        if mean is None:
                            break
                        bg, what = _luminance(mean), "#{:02x}{:02x}{:02x} (image)".format(*(round(c) for c in mean[:3]))
                    elif _HEX.fullmatch(str(fill)):
                        bg, what = relative_luminance(str(fill)), str(fill)
                    else:
                        break
                    ratio = contrast(fg or 0.0, bg)
                    if ratio < need:
                        note(face, tname, "Q001", p, ratio, f"{op.colour} on {what}: {ratio:.2f}:1, below {need:g}:1 for "
                                               f"{'bold or large' if large else 'body'} text")
                    break
                inside = min(box[0], W - box[0] - box[2], box[1], H - box[1] - box[3])
                if inside < safe_zone and box[0] + box[2] > 0 and box[0] < W and box[1] + box[3] > 0 and box[1] < H:
                    note(face, tname, "Q002", p, inside, f"text {inside / MM:.1f} mm inside the trim", key=("Q002t", where(p, tname)))
            elif isinstance(op, Picture):
                _, _, dw, _ = _drawn_box(op)
                scale = math.hypot(p.m[0], p.m[1])
                ppi = op.px_w / (dw * scale / 72)
                if ppi < MIN_PPI - 0.5:
                    art = loaded_art.get(op.png)
                    owner = art_of.get(art) if art else None
                    note(face, tname, "Q003", p, ppi, f"{art or 'an image'} ({op.px_w} x {op.px_h} px) printed at {ppi:.0f} ppi",
                         key=art)
                    if owner:  # located at the first card that names the file
                        findings[("Q003", art)].path = ("card", owner)
            stroke = getattr(op, "stroke", None)
            if stroke and not isinstance(op, Text):
                half = float(getattr(op, "lw", 0.5)) / 2
                for (x1, y1), (x2, y2) in _segments(p):
                    for d1, d2 in ((x1, x2), (W - x1, W - x2), (y1, y2), (H - y1, H - y2)):
                        near = max(d1, d2) - half
                        if near < safe_zone and max(d1, d2) + half > 0:
                            note(face, tname, "Q002", p, near, f"a frame line {near / MM:.1f} mm inside the trim", key=("Q002l", where(p, tname)))
                            break
                    else:
                        continue
                    break
    out = []
    for (code, _), f in sorted(findings.items(), key=lambda kv: (kv[1].path[:1] == ("card",), str(kv[1].path), kv[1].code)):
        n = len(f.cards)
        cards = f"{n} card{'s' if n != 1 else ''}, e.g. '{f.example}'" if n > 1 else f"'{f.example}'"
        if code == "Q002":
            msg = f"{f.detail}, within the {safe_zone / MM:g} mm safe zone: a 1-2 mm miscut or duplex shift shows it ({cards})"
        elif code == "Q003":
            msg = f"raster image {f.detail}, below {MIN_PPI:g} ppi at its printed size ({cards})"
        else:
            msg = f"text contrast {f.detail} ({cards})"
        if f.path[:1] == ("card",):
            issue = card_origin(f.path[1], code, msg)
        else:
            issue = doc.issue(code, msg, f.path)
        out.append(Issue(issue.code, issue.message, issue.file, issue.line, issue.column, Severity.WARNING, issue.path))
    return out
