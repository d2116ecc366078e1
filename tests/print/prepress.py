"""A prepress check of a PDF, page by page, read back with pypdf (not from
cardkit's own plan): what a print shop's preflight or a careful customer would
reject.

* **Boxes from the page's own content.**  The cards of a page are found from
  its content stream: a card is drawn inside a clipping rectangle (its trim
  plus its bleed) that is the outermost clip of the page.  A page with cards
  has a TrimBox around the cards' trims and a BleedBox around their clips
  (their union's bounding box) inside its MediaBox; a page without cards (a
  calibration or token page) has no card boxes: none, or (PDF/X, which wants
  a TrimBox on every page) the MediaBox itself.  In a duplex file a back
  page's TrimBox is its front's mirrored about the flip edge's axis.
* **Bleed**: at least ``min_bleed`` beyond the TrimBox on every side.
* **Printable area**: everything drawn outside the cards (crop marks, fold
  line, footer, calibration crosses, tokens) and every card's clip lies at
  least ``margin`` from the paper edge; nothing outside the cards is drawn
  over a card's trim (crop marks stay outside it).
* **Fonts** all embedded.
* **CMYK** (``cmyk=True``): no RGB colour operator, colour space or image;
  the highest total ink of any colour set or image pixel at most
  ``ink_limit`` per cent.

:func:`check_pdf` returns one line per problem (empty: the file passes) and
the measured figures (:class:`Report`).
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageMath
from pypdf import PdfReader
from pypdf.generic import ArrayObject, DictionaryObject

MM = 72 / 25.4
TOL = 0.05  # points: rounding of boxes and coordinates as written

_TOKEN = re.compile(rb"\((?:\\.|[^\\)])*\)|<<|>>|<[0-9a-fA-F\s]*>|\[|\]|/[^\s/\[\]()<>{}%]+|[^\s/\[\]()<>{}%]+")
_PAINT = {b"S", b"s", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*", b"n"}

Box = tuple[float, float, float, float]
Matrix = tuple[float, float, float, float, float, float]


@dataclass
class PageFacts:
    number: int  # 1-based
    media: Box
    trim: Box | None
    bleed_box: Box | None
    clips: list[Box] = field(default_factory=list)  # the cards' outermost clip rectangles (trim + bleed)
    outside: list[tuple[str, Box]] = field(default_factory=list)  # what is drawn outside any clip: (kind, bbox)
    rgb_ops: int = 0
    max_ink: float = 0.0  # per cent, colour operators and CMYK images

    @property
    def has_cards(self) -> bool:
        return bool(self.clips)


@dataclass
class Report:
    pages: list[PageFacts]
    problems: list[str]

    @property
    def max_ink(self) -> float:
        return max((p.max_ink for p in self.pages), default=0.0)

    def bleeds(self) -> set[float]:
        """The bleed (mm, to 0.1) of every page with cards: the least of its four sides."""
        out = set()
        for p in self.pages:
            if p.has_cards and p.trim and p.bleed_box:
                out.add(round(min(_sides(p.trim, p.bleed_box)) / MM, 1))
        return out


def _mul(a: Matrix, b: Matrix) -> Matrix:
    """a then b (PDF row-vector convention: a point p becomes p·a·b)."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def _bbox(points: list[tuple[float, float]]) -> Box:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _box(value: object) -> Box | None:
    if value is None:
        return None
    v = [float(x) for x in value]  # type: ignore[attr-defined]
    return min(v[0], v[2]), min(v[1], v[3]), max(v[0], v[2]), max(v[1], v[3])


def _sides(inner: Box, outer: Box) -> tuple[float, float, float, float]:
    return inner[0] - outer[0], inner[1] - outer[1], outer[2] - inner[2], outer[3] - inner[3]


def _inside(inner: Box, outer: Box, tol: float = TOL) -> bool:
    return all(s >= -tol for s in _sides(inner, outer))


def _overlap(a: Box, b: Box, tol: float = TOL) -> bool:
    return a[0] < b[2] - tol and b[0] < a[2] - tol and a[1] < b[3] - tol and b[1] < a[3] - tol


def _num(tok: bytes) -> float:
    return float(tok)


def _scan(data: bytes, facts: PageFacts) -> None:
    """Walk one content stream: graphics state (CTM, clip) and what is painted where."""
    ctm: Matrix = (1, 0, 0, 1, 0, 0)
    clipped = False
    stack: list[tuple[Matrix, bool]] = []
    operands: list[bytes] = []
    path: list[tuple[float, float]] = []
    pending_clip = False
    text_matrix: Matrix = (1, 0, 0, 1, 0, 0)
    for m in _TOKEN.finditer(data):
        tok = m.group(0)
        c = tok[:1]
        if c in b"(<[]/" or c.isdigit() or c in b"-+." or tok in (b"true", b"false", b"null"):
            operands.append(tok)
            continue
        op = tok
        try:
            if op == b"q":
                stack.append((ctm, clipped))
            elif op == b"Q":
                ctm, clipped = stack.pop() if stack else (ctm, clipped)
            elif op == b"cm":
                ctm = _mul(tuple(_num(t) for t in operands[-6:]), ctm)  # type: ignore[arg-type]
            elif op == b"m" or op == b"l":
                path.append(_apply(ctm, _num(operands[-2]), _num(operands[-1])))
            elif op == b"c":
                v = [_num(t) for t in operands[-6:]]
                path += [_apply(ctm, v[i], v[i + 1]) for i in (0, 2, 4)]
            elif op in (b"v", b"y"):
                v = [_num(t) for t in operands[-4:]]
                path += [_apply(ctm, v[i], v[i + 1]) for i in (0, 2)]
            elif op == b"re":
                x, y, w, h = (_num(t) for t in operands[-4:])
                path += [_apply(ctm, x, y), _apply(ctm, x + w, y), _apply(ctm, x, y + h), _apply(ctm, x + w, y + h)]
            elif op in (b"W", b"W*"):
                pending_clip = True
            elif op in _PAINT:
                if path:
                    if pending_clip and not clipped:
                        facts.clips.append(_bbox(path))
                    elif not clipped and op != b"n":
                        facts.outside.append(("path", _bbox(path)))
                if pending_clip:
                    clipped = True
                path, pending_clip = [], False
            elif op == b"BT":
                text_matrix = (1, 0, 0, 1, 0, 0)
            elif op == b"Tm":
                text_matrix = tuple(_num(t) for t in operands[-6:])  # type: ignore[assignment]
            elif op in (b"Td", b"TD"):
                text_matrix = _mul((1, 0, 0, 1, _num(operands[-2]), _num(operands[-1])), text_matrix)
            elif op in (b"Tj", b"TJ", b"'", b'"'):
                if not clipped:
                    x, y = _apply(_mul(text_matrix, ctm), 0, 0)
                    facts.outside.append(("text", (x, y, x, y)))
            elif op == b"Do":
                if not clipped:
                    facts.outside.append(("image", _bbox([_apply(ctm, x, y) for x in (0, 1) for y in (0, 1)])))
            elif op in (b"rg", b"RG"):
                facts.rgb_ops += 1
            elif op in (b"sc", b"scn", b"SC", b"SCN") and len(operands) == 3:
                facts.rgb_ops += 1
            elif op in (b"k", b"K"):
                facts.max_ink = max(facts.max_ink, 100 * sum(_num(t) for t in operands[-4:]))
            elif op in (b"cs", b"CS") and operands and operands[-1] in (b"/DeviceRGB", b"/CalRGB"):
                facts.rgb_ops += 1
        except (ValueError, IndexError):
            pass
        operands = []


def _image_ink(xobj: DictionaryObject) -> float:
    """The highest C+M+Y+K of any pixel of a CMYK image, in per cent."""
    if xobj.get("/Filter") == "/DCTDecode":
        img = Image.open(io.BytesIO(xobj._data))
    else:
        img = Image.frombytes("CMYK", (int(xobj["/Width"]), int(xobj["/Height"])), xobj.get_data())
    if img.mode != "CMYK":
        img = img.convert("CMYK")
    c, m, y, k = img.split()
    total = ImageMath.lambda_eval(lambda e: e["c"] + e["m"] + e["y"] + e["k"], c=c, m=m, y=y, k=k)
    return 100 * total.getextrema()[1] / 255


def _resources_problems(res: DictionaryObject, cmyk: bool, facts: PageFacts, seen: set[int]) -> list[str]:
    out: list[str] = []
    fonts = res.get("/Font")
    if fonts is not None:
        for name, ref in fonts.get_object().items():
            font = ref.get_object()
            sub = font.get("/Subtype")
            if sub == "/Type3":
                continue
            desc_font = font["/DescendantFonts"][0].get_object() if sub == "/Type0" else font
            desc = desc_font.get("/FontDescriptor")
            desc = desc.get_object() if desc is not None else None
            if desc is None or not any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                out.append(f"font {name} ({font.get('/BaseFont')}) is not embedded")
    xobjects = res.get("/XObject")
    if xobjects is not None:
        for name, ref in xobjects.get_object().items():
            xobj = ref.get_object()
            key = getattr(ref, "idnum", id(xobj))
            if key in seen:
                continue
            seen.add(key)
            if xobj.get("/Subtype") == "/Image" and cmyk:
                cs = xobj.get("/ColorSpace")
                cs = cs.get_object() if cs is not None else None
                base = cs[0] if isinstance(cs, ArrayObject) else cs
                if base != "/DeviceCMYK" and base != "/DeviceGray":
                    out.append(f"image {name} is in {base}, not DeviceCMYK")
                elif base == "/DeviceCMYK":
                    facts.max_ink = max(facts.max_ink, _image_ink(xobj))
            elif xobj.get("/Subtype") == "/Form" and "/Resources" in xobj:
                out += _resources_problems(xobj["/Resources"].get_object(), cmyk, facts, seen)
    spaces = res.get("/ColorSpace")
    if cmyk and spaces is not None:
        for name, cs in spaces.get_object().items():
            cs = cs.get_object()
            base = cs[0] if isinstance(cs, ArrayObject) else cs
            if base in ("/DeviceRGB", "/CalRGB", "/ICCBased"):
                out.append(f"colour space {name} is {base}")
    return out


def check_pdf(pdf: Path | bytes, *, margin: float = 4 * MM, min_bleed: float = 1 * MM, cmyk: bool = False,
              ink_limit: float = 240.0, duplex: str | None = None, pages: range | None = None,
              card_pages: bool = True) -> Report:
    """Check every page (or ``pages``, 0-based) of ``pdf``; ``duplex``
    (long-edge or short-edge): each card page that follows a card page is the
    back of the one before it, and its TrimBox must mirror its front's.
    ``card_pages=False``: a one-card-per-page file (shop), its MediaBox the
    card's BleedBox, nothing outside the card, no margin."""
    reader = PdfReader(io.BytesIO(pdf) if isinstance(pdf, bytes) else str(pdf))
    facts: list[PageFacts] = []
    problems: list[str] = []
    seen: set[int] = set()
    chosen = pages if pages is not None else range(len(reader.pages))
    for i in chosen:
        page = reader.pages[i]
        f = PageFacts(i + 1, _box(page["/MediaBox"]), _box(page.get("/TrimBox")), _box(page.get("/BleedBox")))  # type: ignore[arg-type]
        contents = page.get_contents()
        if contents is not None:
            _scan(contents.get_data(), f)
        res = page.get("/Resources")
        where = f"page {i + 1}"
        problems += [f"{where}: {p}" for p in _resources_problems(res.get_object(), cmyk, f, seen)] if res else []
        problems += [f"{where}: {p}" for p in _page_problems(f, margin, min_bleed, cmyk, ink_limit, card_pages)]
        facts.append(f)
    if duplex in ("long-edge", "short-edge"):
        front: PageFacts | None = None
        for f in facts:
            if not f.has_cards:
                front = None
                continue
            if front is None:
                front = f
                continue
            problems += [f"page {f.number}: {p}" for p in _mirror_problems(front, f, duplex)]
            front = None
    return Report(facts, problems)


def _page_problems(f: PageFacts, margin: float, min_bleed: float, cmyk: bool, ink_limit: float,
                   card_pages: bool) -> list[str]:
    out: list[str] = []
    mw, mh = f.media[2], f.media[3]
    printable = (f.media[0] + margin, f.media[1] + margin, mw - margin, mh - margin)
    if f.has_cards:
        if f.trim is None or f.bleed_box is None:
            out.append("a page with cards has no TrimBox or BleedBox")
        else:
            union = _bbox([(b[0], b[1]) for b in f.clips] + [(b[2], b[3]) for b in f.clips])
            if any(abs(a - b) > TOL for a, b in zip(f.bleed_box, union)):
                out.append(f"BleedBox {_mm(f.bleed_box)} is not the cards' bleed {_mm(union)}")
            if not _inside(f.trim, f.bleed_box):
                out.append("TrimBox is not inside BleedBox")
            if not _inside(f.bleed_box, f.media):
                out.append("BleedBox is not inside MediaBox")
            least = min(_sides(f.trim, f.bleed_box))
            if least < min_bleed - TOL:
                out.append(f"bleed {least / MM:.2f} mm is below {min_bleed / MM:.2f} mm")
            bleed = least
            # every clip holds a trim: the TrimBox spans the trims (clips less their outer bleed)
            trims = [b for b in f.clips]
            inner = (min(b[0] for b in trims) + bleed, min(b[1] for b in trims) + bleed,
                     max(b[2] for b in trims) - bleed, max(b[3] for b in trims) - bleed)
            if any(abs(a - b) > TOL for a, b in zip(f.trim, inner)):
                out.append(f"TrimBox {_mm(f.trim)} is not the cards' trim {_mm(inner)}")
        if card_pages:
            for clip in f.clips:
                if not _inside(clip, printable):
                    out.append(f"a card's bleed {_mm(clip)} enters the {margin / MM:g} mm printer margin")
                    break
        trim_rects = _trim_rects(f)
        for kind, box in f.outside:
            if kind == "path" and any(_overlap(box, t) for t in trim_rects):
                out.append(f"a {kind} drawn outside the cards at {_mm(box)} runs over a card's trim")
                break
    else:
        for name, box in (("TrimBox", f.trim), ("BleedBox", f.bleed_box)):
            if box is not None and any(abs(a - b) > TOL for a, b in zip(box, f.media)):
                out.append(f"a page without cards has a {name} {_mm(box)} other than its MediaBox")
        if cmyk and f.trim is None:
            out.append("PDF/X: a page without cards has no TrimBox")
    if card_pages:
        for kind, box in f.outside:
            if not _inside(box, printable, 0.6):
                out.append(f"a {kind} at {_mm(box)} is within the {margin / MM:g} mm printer margin")
                break
    if cmyk:
        if f.rgb_ops:
            out.append(f"{f.rgb_ops} RGB colour operators in a CMYK file")
        if f.max_ink > ink_limit + 0.5:
            out.append(f"ink {f.max_ink:.0f} % above the {ink_limit:g} % limit")
    return out


def _trim_rects(f: PageFacts) -> list[Box]:
    """Each card's trim: its clip less the bleed on the sides where the clip reaches past the TrimBox's bleed."""
    if f.trim is None or f.bleed_box is None:
        return []
    b = min(_sides(f.trim, f.bleed_box))
    return [(c[0] + b, c[1] + b, c[2] - b, c[3] - b) for c in f.clips if c[2] - c[0] > 2 * b and c[3] - c[1] > 2 * b]


def _mirror_problems(front: PageFacts, back: PageFacts, duplex: str) -> list[str]:
    if front.trim is None or back.trim is None:
        return []
    w, h = front.media[2], front.media[3]
    x0, y0, x1, y1 = front.trim
    # the sheet turns about the paper's long side (long-edge) or short side: on a landscape page
    # the long side runs across, so a long-edge flip mirrors top to bottom
    across = (duplex == "long-edge") == (w <= h)
    want = (w - x1, y0, w - x0, y1) if across else (x0, h - y1, x1, h - y0)
    if any(abs(a - b) > TOL for a, b in zip(back.trim, want)):
        return [f"the back's TrimBox {_mm(back.trim)} does not mirror its front's {_mm(front.trim)} ({_mm(want)})"]
    return []


def _mm(box: Box) -> str:
    return "[" + " ".join(f"{v / MM:.2f}" for v in box) + "] mm"
