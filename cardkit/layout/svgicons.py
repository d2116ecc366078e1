"""Icons from SVG files of a set, read with svglib into reportlab drawings.

An SVG icon is drawn in a square of ``size`` points (its view box scaled
uniformly and centred); with a colour, every filled or stroked shape takes
that colour (one-colour icons, like the built-in ones); ``colour: none`` in
the face keeps the file's own colours.
"""

from __future__ import annotations

import copy
import functools
import logging
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardkit.errors import CardkitError, Issue

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
    name: str
    drawing: Any = field(repr=False, compare=False)

    def op(self, size: float, colour: str | None) -> SvgOp:
        return _coloured(self, size, colour)


@functools.lru_cache(maxsize=512)
def _coloured(icon: SvgIcon, size: float, colour: str | None) -> SvgOp:
    from reportlab.lib.colors import HexColor

    d = copy.deepcopy(icon.drawing)
    w, h = float(d.width) or 1.0, float(d.height) or 1.0
    k = size / max(w, h)
    d.scale(k, k)
    d.translate((size / k - w) / 2, (size / k - h) / 2)
    d.width, d.height = size, size
    if colour:
        c = HexColor(colour)

        def paint(node: Any) -> None:
            for child in getattr(node, "contents", []):
                paint(child)
            if getattr(node, "fillColor", None) is not None:
                node.fillColor = c
            if getattr(node, "strokeColor", None) is not None:
                node.strokeColor = c

        paint(d)
    return SvgOp(d, icon.name, size, colour)


def read_svg(path: Path, rel: str, name: str) -> SvgIcon:
    """Read one SVG file (bounded) into an icon; a located error if it is not usable."""
    if not path.is_file():
        raise CardkitError(Issue("F001", f"icon file '{rel}' does not exist", file=rel))
    if path.stat().st_size > MAX_SVG_BYTES:
        raise CardkitError(Issue("M008", f"icon '{name}' is larger than {MAX_SVG_BYTES >> 10} KiB", file=rel))
    from lxml import etree  # type: ignore[import-untyped]
    from svglib.svglib import svg2rlg

    logging.getLogger("svglib").setLevel(logging.ERROR)
    try:  # a strict parse first (svglib's own parser recovers from broken files silently); no entities, no network
        root = etree.fromstring(path.read_bytes(), etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False))
        if etree.QName(root).localname != "svg":
            raise ValueError(f"the root element is <{etree.QName(root).localname}>, not <svg>")
        drawing = svg2rlg(str(path))
    except Exception as exc:  # svglib raises whatever its XML parser raises
        raise CardkitError(Issue("M008", f"icon '{name}' is not a readable SVG: {exc}", file=rel)) from None
    if drawing is None:
        raise CardkitError(Issue("M008", f"icon '{name}' is not a readable SVG", file=rel))
    w, h = float(drawing.width), float(drawing.height)
    if not all(math.isfinite(v) and 0 <= v <= MAX_SVG_EXTENT for v in (w, h)) or max(w, h) <= 0:
        # (drawn scaled by its larger side: a size of infinity or NaN would divide by zero)
        raise CardkitError(Issue("M008", f"icon '{name}' has a size of {w:.3g} x {h:.3g}: each side must be a finite number "
                                 f"from 0 to {MAX_SVG_EXTENT:.0f}, one above 0", file=rel))
    return SvgIcon(name, drawing)
