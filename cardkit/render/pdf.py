"""Draw operations onto reportlab canvases: the only module that draws PDF.

The canvas is created in reportlab's invariant mode, so the same operations
give byte-identical files.  Text is split along the same font fallback chain
the layout measured with; fonts are embedded as TrueType subsets.

Every operation, and every group's content, is drawn in its own coordinates,
so the same operation always writes the same page content within one
document (the font subsets a string is encoded with belong to the document and
are fixed the first time a character is drawn).  A card face placed again
(every copy of a card, every deck back) and a frame, badge or icon that recurs
on many faces replay the content recorded the first time instead of being
drawn again; pictures and SVG drawings, which register page resources as they
are drawn, are always drawn.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Callable, Iterable
from typing import Any

from reportlab import rl_config
from reportlab.lib.colors import CMYKColor, Color, HexColor, toColor
from reportlab.lib import rl_accel
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfdoc import PDFStream, PDFStreamFilterBase85Encode, PDFZCompress
from reportlab.pdfgen.canvas import Canvas

from cardkit.layout.colour import display_hex
from cardkit.layout.fonts import FontBook
from cardkit.layout.icons import ICONS, Shape
from cardkit.layout.ops import (
    Circle,
    Group,
    Icon,
    Line,
    Op,
    Picture,
    Poly,
    Rect,
    SvgOp,
    Text,
)
from cardkit.render import cmyk
from cardkit.render.cmyk import RGB_OUTPUT, THIN_LINE, ColourOptions, Role

PAPER_WHITE = "#ffffff"


_py_fp_str: Callable[..., str] | None = getattr(rl_accel, "_py_fp_str", None)  # (None: reportlab's C accelerator)


def ascii85(data: bytes) -> str:
    """``data`` in ASCII base-85 as reportlab's own encoder writes it (``z`` for
    a zero word, a short last group, ``~>`` at the end), through the standard
    library's encoder: several times faster than reportlab's pure-Python loop."""
    return base64.a85encode(data).decode("ascii") + "~>"


class _Ascii85Filter(PDFStreamFilterBase85Encode):
    """reportlab's ASCII85 stream filter with :func:`ascii85` as the encoder."""

    def encode(self, text: Any) -> Any:
        if not isinstance(text, bytes):  # (page streams reach it compressed: bytes)
            return super().encode(text)
        from reportlab.pdfbase.pdfutils import _wrap

        out = ascii85(text)
        return _wrap(out) if rl_config.wrapA85 else out


_ASCII85 = _Ascii85Filter()


_FP_MEMO: dict[Any, str] = {}
FP_MEMO_MAX = 200_000  # formatted numbers kept


def memo_fp_str(*args: Any) -> str:
    """reportlab's pure-Python number formatter (``fp_str``: the numbers of every
    operator it writes), each number formatted once: the same coordinates, sizes
    and colours recur all through a document.  Each number of a call is formatted
    on its own and the results joined by spaces, so the text is reportlab's."""
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = tuple(args[0])
    memo, fmt = _FP_MEMO, _py_fp_str
    assert fmt is not None
    out = []
    try:
        for v in args:
            s = memo.get(v)
            if s is None:
                s = fmt(v)
                if len(memo) >= FP_MEMO_MAX:
                    memo.clear()
                memo[v] = s
            out.append(s)
    except TypeError:  # (an unhashable number-like value: reportlab's own way)
        return fmt(*args)
    return " ".join(out)


def _install_memo_fp_str() -> None:
    """Where reportlab writes numbers with its pure-Python ``fp_str`` (no C
    accelerator installed), :func:`memo_fp_str` writes the same text faster."""
    import importlib

    if _py_fp_str is None:
        return
    for name in ("reportlab.pdfgen.canvas", "reportlab.pdfgen.textobject", "reportlab.pdfgen.pathobject",
                 "reportlab.pdfbase.pdfdoc", "reportlab.lib.colors", "reportlab.pdfbase.ttfonts"):
        module = importlib.import_module(name)
        if getattr(module, "fp_str", None) is _py_fp_str:
            module.fp_str = memo_fp_str  # type: ignore[attr-defined]


_install_memo_fp_str()
_fp_str = memo_fp_str if _py_fp_str is not None else fp_str


class PdfDocument:
    """A multi-page PDF built in memory; :meth:`finish` returns its bytes.
    ``replay=False`` draws every operation each time (the same bytes, slower:
    the tests compare the two)."""

    def __init__(self, page_size: tuple[float, float], title: str, subject: str = "", lang: str = "en",
                 replay: bool = True, colours: ColourOptions = RGB_OUTPUT, book: FontBook | None = None) -> None:
        self.buffer = io.BytesIO()
        self.colours = colours
        self.cmyk = colours.space == "cmyk"
        self._boxed = False  # whether the page being drawn has its boxes set (PDF/X: every page has them)
        self.book = book or FontBook()  # the set's (its game's own fonts first), as its texts were measured
        # (locale, role) -> characters drawn in that role that none of the game's own fonts for it has
        self.uncovered: dict[tuple[str, str], set[str]] = {}
        self.book.info("NotoSans")  # registered first, so the canvas default font is embedded too (no Helvetica)
        self.canvas = Canvas(self.buffer, pagesize=page_size, invariant=1, pageCompression=1, lang=lang,
                             initialFontName="NotoSans", initialFontSize=9,
                             **({"enforceColorSpace": self._enforce_cmyk} if self.cmyk else {}))
        self.canvas.setTitle(title)
        self.canvas.setAuthor("cardkit")
        self.canvas.setCreator("cardkit")
        self.canvas.setSubject(subject)
        self.pages = 0
        self._colour_cache: dict[str, HexColor] = {}
        self._cmyk_cache: dict[tuple[str, Role], CMYKColor] = {}
        # operations and group contents drawn so far -> the page content they wrote
        self._recorded: dict[Op | tuple[Op, ...], list[str]] | None = {} if replay else None
        # (font, size, string) -> what a text object writes after its origin (replay only: else
        # reportlab's drawString writes every string)
        self._text_code: dict[tuple[str, float, str], str] | None = {} if replay else None
        self.replayed = 0  # operations and group contents written from a recording (for tests)
        self._resources = 0  # pictures and SVG drawings drawn so far (they register page resources)

    def colour(self, hex_colour: str, role: Role = "fill") -> HexColor | CMYKColor:
        """The colour to paint: RGB as given (a ``cmyk(...)`` colour shown
        through the inverse formula), or for CMYK output converted for ``role``
        (:func:`cardkit.render.cmyk.convert`)."""
        if self.cmyk:
            key = (hex_colour, role)
            k = self._cmyk_cache.get(key)
            if k is None:
                k = self._cmyk_cache[key] = CMYKColor(*cmyk.convert(hex_colour, role, self.colours.ink_limit))
            return k
        c = self._colour_cache.get(hex_colour)
        if c is None:
            c = self._colour_cache[hex_colour] = HexColor(display_hex(hex_colour))
        return c

    def _enforce_cmyk(self, colour: object) -> CMYKColor:
        """Every colour reportlab is asked to set (SVG drawings included) as
        DeviceCMYK: the canvas's colour-space hook."""
        if isinstance(colour, CMYKColor):
            return colour
        c = colour if isinstance(colour, Color) else toColor(colour)
        if isinstance(c, CMYKColor):
            return c
        hex_colour = "#{:02x}{:02x}{:02x}".format(*(round(max(0.0, min(1.0, v)) * 255) for v in (c.red, c.green, c.blue)))
        return self.colour(hex_colour, "fill")

    def set_boxes(self, trim: tuple[float, float, float, float] | None, bleed: float) -> None:
        if trim is None:
            return
        x0, y0, x1, y1 = trim
        self._boxed = True
        self.canvas.setTrimBox((x0, y0, x1, y1))
        self.canvas.setBleedBox((x0 - bleed, y0 - bleed, x1 + bleed, y1 + bleed))

    def set_page_size(self, size: tuple[float, float]) -> None:
        """The size of the page being drawn (and of the next ones)."""
        self.canvas.setPageSize(size)

    def end_page(self) -> None:
        if self.cmyk and not self._boxed:  # PDF/X: a page without a card (calibration, tokens) is trimmed to itself
            w, h = self.canvas._pagesize
            self.canvas.setTrimBox((0, 0, w, h))
            self.canvas.setBleedBox((0, 0, w, h))
        self._boxed = False
        self.canvas.showPage()
        # reportlab keeps a box for the pages after it: each page's boxes come from its own content
        self.canvas._trimBox = self.canvas._bleedBox = None
        self.pages += 1
        if self._recorded is not None:
            self._page_stream_filters()

    def _page_stream_filters(self) -> None:
        """The page just shown gets its content stream as reportlab would make it
        at save time (compressed, then ASCII85), with the faster ASCII85 encoder."""
        page = self.canvas._doc.Pages.pages[-1]
        if page.Contents or not page.compression or not page.stream:
            return
        stream = PDFStream()
        stream.filters = [_ASCII85, PDFZCompress] if rl_config.useA85 else [PDFZCompress]
        stream.content = page.stream
        stream.__Comment__ = "page stream"
        page.Contents = stream

    def finish(self) -> bytes:
        if self.cmyk:
            from cardkit.render.pdfx import mark_pdfx

            mark_pdfx(self.canvas)
        self.canvas.save()
        return self.buffer.getvalue()

    # ------------------------------------------------------------ primitives
    def draw(self, ops: Iterable[Op]) -> None:
        for op in ops:
            self._replay_or(op, self._draw_op, op)

    def _replay_or(self, key: Op | tuple[Op, ...], draw: Callable[[Any], None], arg: Any) -> None:
        """Write what drawing ``key`` wrote before in this document, or call
        ``draw(arg)`` and record what it writes."""
        recorded = self._recorded
        if recorded is None:
            draw(arg)
            return
        try:
            code = recorded.get(key)
        except TypeError:  # an operation holding a list: not a key, drawn each time
            draw(arg)
            return
        if code is not None:  # (reportlab's canvas keeps the page content as a list of strings)
            self.canvas._code.extend(code)
            self.replayed += 1
            return
        start, resources = len(self.canvas._code), self._resources
        draw(arg)
        if self._resources == resources:  # only page content written: replayable
            recorded[key] = self.canvas._code[start:]

    def _draw_op(self, op: Op) -> None:
        c = self.canvas
        if isinstance(op, Text):
            self._text(op)
        elif isinstance(op, Rect):
            self._paint_style(op.fill, op.stroke, op.lw, abs(op.w * op.h))
            if op.r > 0:
                c.roundRect(op.x, op.y, op.w, op.h, op.r, stroke=int(op.stroke is not None), fill=int(op.fill is not None))
            else:
                c.rect(op.x, op.y, op.w, op.h, stroke=int(op.stroke is not None), fill=int(op.fill is not None))
        elif isinstance(op, Icon):
            self._icon(op)
        elif isinstance(op, Circle):
            self._paint_style(op.fill, op.stroke, op.lw, 3.14159 * op.r * op.r)
            c.circle(op.cx, op.cy, op.r, stroke=int(op.stroke is not None), fill=int(op.fill is not None))
        elif isinstance(op, Line):
            c.setStrokeColor(self.colour(op.stroke, "line" if op.lw < THIN_LINE else "fill"))
            c.setLineWidth(op.lw)
            c.setDash(list(op.dash) if op.dash else [])
            c.line(op.x1, op.y1, op.x2, op.y2)
            if op.dash:
                c.setDash([])
        elif isinstance(op, Poly):
            area = 0.0
            if self.cmyk and op.closed and op.fill is not None:  # (only CMYK output tells floods apart)
                pts = op.points
                area = abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]))) / 2
            self._paint_style(op.fill, op.stroke, op.lw, area)
            p = c.beginPath()
            p.moveTo(*op.points[0])
            for pt in op.points[1:]:
                p.lineTo(*pt)
            if op.closed:
                p.close()
            c.drawPath(p, stroke=int(op.stroke is not None), fill=int(op.fill is not None and op.closed))
        elif isinstance(op, Picture):
            scale = min(op.w / op.px_w, op.h / op.px_h)
            w, h = op.px_w * scale, op.px_h * scale
            self._resources += 1
            src = ImageReader(cmyk.png_to_cmyk(op.png, self.colours.ink_limit) if self.cmyk else io.BytesIO(op.png))
            c.drawImage(src, op.x + (op.w - w) / 2, op.y + (op.h - h) / 2, w, h)
        elif isinstance(op, Group):
            c.saveState()
            c.translate(op.dx, op.dy)
            if op.rotate:
                c.rotate(op.rotate)
            if op.scale != 1.0:
                c.scale(op.scale, op.scale)
            if op.clip:
                x, y, w, h = op.clip
                p = c.beginPath()
                p.rect(x, y, w, h)
                c.clipPath(p, stroke=0, fill=0)
            self._replay_or(op.ops, self.draw, op.ops)
            c.restoreState()
        elif isinstance(op, SvgOp):
            from reportlab.graphics import renderPDF

            self._resources += 1
            # the renderer starts from the drawing's font (reportlab's default, an unembedded
            # Helvetica, even for a drawing without text): start from the embedded default instead
            if getattr(op.drawing, "initialFontName", None) != "NotoSans":
                op.drawing.__dict__["initialFontName"] = "NotoSans"
            renderPDF.draw(op.drawing, c, 0, 0)
        else:  # pragma: no cover - closed union
            raise TypeError(op)

    def _paint_style(self, fill: str | None, stroke: str | None, lw: float, area: float = 0.0) -> None:
        c = self.canvas
        if fill is not None:
            c.setFillColor(self.colour(fill, "flood" if area >= cmyk.RICH_BLACK_AREA else "fill"))
        if stroke is not None:
            c.setStrokeColor(self.colour(stroke, "line" if lw < THIN_LINE else "fill"))
            c.setLineWidth(lw)

    def _text(self, op: Text) -> None:
        c = self.canvas
        c.setFillColor(self.colour(op.colour, "text"))
        x = op.x
        chain = self.book.chain(op.locale, op.role)
        if self.book.table.chains:
            lacking = self.book.uncovered(op.text, op.locale, op.role)
            if lacking:
                self.uncovered.setdefault((op.locale, op.role), set()).update(lacking)
        known = self._text_code
        for font, part in self.book.segments(op.text, chain):
            c.setFont(font, op.size)
            if known is None:
                c.drawString(x, op.y, part)
            else:
                self._string(known, font, op.size, x, op.y, part)
            x += self.book.width(part, (font,), op.size)

    def _string(self, known: dict[tuple[str, float, str], str], font: str, size: float, x: float, y: float,
                part: str) -> None:
        """What ``canvas.drawString(x, y, part)`` writes after ``setFont(font,
        size)``, written here: the text object's origin, then its font subsets'
        strings as reportlab's text object formats them for a TrueType font (the
        subsets a character goes to are fixed the first time it is drawn, so the
        same string in the same font and size writes the same after its origin)."""
        c = self.canvas
        key = (font, size, part)
        rest = known.get(key)
        if rest is None:
            face = pdfmetrics.getFont(font)
            if not (getattr(face, "_dynamicFont", False) and c.bottomup and c._fontname == font and c._fontsize == size):
                c.drawString(x, y, part)  # (not a TrueType font as cardkit sets it: reportlab's own way)
                return
            doc = c._doc
            tf = f"{_fp_str(size)} Tf {_fp_str(c._leading)} TL"
            out, current = [], -1
            for subset, chars in face.splitString(part, doc):
                if subset != current:
                    out.append(f"{face.getSubsetInternalName(subset, doc)} {tf}")
                    current = subset
                out.append(f"({c._escape(chars)}) Tj")
            rest = known[key] = " ".join(out) + " T* ET"
        c._code.append(f"BT 1 0 0 1 {_fp_str(x, y)} Tm {rest}")

    def _icon(self, op: Icon) -> None:
        c = self.canvas
        shapes: tuple[Shape, ...] = op.shapes or ICONS[op.name]
        s = op.size
        for sh in shapes:
            colour = self.colour(op.colour if sh.paint == "ink" else PAPER_WHITE,
                                 "line" if sh.kind == "stroke" and sh.width * s < THIN_LINE else "fill")
            if sh.kind == "circle":
                c.setFillColor(colour)
                c.circle(op.x + sh.cx * s, op.y + sh.cy * s, sh.r * s, stroke=0, fill=1)
            elif sh.kind == "poly":
                c.setFillColor(colour)
                p = c.beginPath()
                p.moveTo(op.x + sh.points[0][0] * s, op.y + sh.points[0][1] * s)
                for px, py in sh.points[1:]:
                    p.lineTo(op.x + px * s, op.y + py * s)
                p.close()
                c.drawPath(p, stroke=0, fill=1)
            else:  # stroke
                c.setStrokeColor(colour)
                c.setLineWidth(max(0.2, sh.width * s))
                c.setLineCap(1)
                c.setLineJoin(1)
                p = c.beginPath()
                p.moveTo(op.x + sh.points[0][0] * s, op.y + sh.points[0][1] * s)
                for px, py in sh.points[1:]:
                    p.lineTo(op.x + px * s, op.y + py * s)
                c.drawPath(p, stroke=1, fill=0)
                c.setLineCap(0)
                c.setLineJoin(0)


class binary_streams:  # noqa: N801 - used as a context manager, like a function
    """Documents drawn and finished inside a ``with binary_streams():`` block
    write their streams as Flate data only, not ASCII85 over Flate (reportlab's
    default, a 7-bit file): for a PDF that only a rasterizer reads, where the
    ASCII85 text costs time and bytes.  The same pages, the same pixels;
    reportlab's setting is restored when the block ends."""

    def __enter__(self) -> None:
        from reportlab import rl_config

        self._old = rl_config.useA85
        rl_config.useA85 = 0

    def __exit__(self, *exc: object) -> None:
        from reportlab import rl_config

        rl_config.useA85 = self._old
