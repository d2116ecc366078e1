"""Icons from SVG files of a set, read with svglib into reportlab drawings.

An SVG icon is drawn in a square of ``size`` points (its view box scaled
uniformly and centred); with a colour, every filled or stroked shape takes
that colour (one-colour icons, like the built-in ones); ``colour: none`` in
the face keeps the file's own colours.
"""

from __future__ import annotations

import copy
import functools
import io
import logging
import math
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cardkit.errors import CardkitError, Issue
from cardkit.layout.icons import Shape, shapes_from_svg

MAX_SVG_BYTES = 1 << 20
MAX_SVG_EXTENT = 1e6  # user units of an icon's width and height


@dataclass(frozen=True)
class SvgOp:
    """A drawing placed at (0, 0) in a ``size`` square (drawn by :mod:`cardkit.render.pdf`)."""

    drawing: Any = field(repr=False, compare=False)
    name: str = ""
    size: float = 0.0
    colour: str | None = None


@dataclass(frozen=True)
class SvgIcon:
    """An icon of a set: its svglib drawing, and its shapes when the file is made
    of nothing but the shapes cardkit draws itself (:func:`cardkit.layout.icons.shapes_from_svg`):
    then it is drawn through that vector path, like cardkit's own icons."""

    name: str
    drawing: Any = field(repr=False, compare=False)
    shapes: tuple[Shape, ...] = field(default=(), repr=False, compare=False)

    def op(self, size: float, colour: str | None) -> SvgOp:
        return _coloured(self, size, colour)


@functools.lru_cache(maxsize=512)
def _coloured(icon: SvgIcon, size: float, colour: str | None) -> SvgOp:
    from reportlab.lib.colors import HexColor

    from cardkit.layout.colour import display_hex

    d = copy.deepcopy(icon.drawing)
    w, h = float(d.width) or 1.0, float(d.height) or 1.0
    k = size / max(w, h)
    d.scale(k, k)
    d.translate((size / k - w) / 2, (size / k - h) / 2)
    d.width, d.height = size, size
    if colour:
        c = HexColor(display_hex(colour))  # (a cmyk(...) colour: converted back for CMYK output)

        def paint(node: Any) -> None:
            for child in getattr(node, "contents", []):
                paint(child)
            if getattr(node, "fillColor", None) is not None:
                node.fillColor = c
            if getattr(node, "strokeColor", None) is not None:
                node.strokeColor = c

        paint(d)
    return SvgOp(d, icon.name, size, colour)


def read_svg(path: Path, rel: str, name: str, root: Path | None = None) -> SvgIcon:
    """Read one SVG file (bounded, through :mod:`cardkit.load.files`), check it
    (:func:`cardkit.layout.svgsafe.sanitise_svg`: no reference out of the icon,
    within its budgets) and draw it into an icon; a located error if it is not
    usable.  svglib only ever sees the checked tree, with no file path to
    resolve references against."""
    from svglib.svglib import SvgRenderer

    from cardkit.layout.svgsafe import sanitise_svg
    from cardkit.load.files import read_project_file

    if not os.path.lexists(path):
        raise CardkitError(Issue("F001", f"icon file '{rel}' does not exist", file=rel))
    try:
        raw = read_project_file(path, rel, root=root, max_bytes=MAX_SVG_BYTES, too_large="M008")
    except CardkitError as exc:  # about the file, not a place in it: the face file's `icons` entry is shown
        raise CardkitError([replace(i, line=0, column=0) for i in exc.issues]) from None
    svg = sanitise_svg(raw, rel)
    logging.getLogger("svglib").setLevel(logging.ERROR)
    try:
        drawing = SvgRenderer(io.BytesIO(raw)).render(svg)
        _trial(drawing)
    except Exception as exc:  # svglib and reportlab raise whatever their arithmetic raises
        raise CardkitError(Issue("M008", f"icon '{name}' cannot be drawn ({type(exc).__name__}: {str(exc)[:60]})",
                                 file=rel, line=svg.sourceline or 1, column=1)) from None
    if drawing is None:
        raise CardkitError(Issue("M008", f"icon '{name}' is not a readable SVG", file=rel))
    w, h = float(drawing.width), float(drawing.height)
    if not all(math.isfinite(v) and 0 <= v <= MAX_SVG_EXTENT for v in (w, h)) or max(w, h) <= 0:
        # (drawn scaled by its larger side: a size of infinity or NaN would divide by zero)
        raise CardkitError(Issue("M008", f"icon '{name}' has a size of {w:.3g} x {h:.3g}: each side must be a finite number "
                                 f"from 0 to {MAX_SVG_EXTENT:.0f}, one above 0", file=rel, line=svg.sourceline or 1, column=1))
    return SvgIcon(name, drawing, shapes_from_svg(svg) or ())


def _trial(drawing: Any) -> None:
    """Draw once into a throw-away page, so that a drawing reportlab cannot
    render fails here, at load, with the icon's name, and not half-way through a build."""
    from reportlab.graphics import renderPDF
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(io.BytesIO(), pageCompression=0)
    renderPDF.draw(copy.deepcopy(drawing), canvas, 0, 0)
