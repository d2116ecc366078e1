"""Icons drawn as vector shapes in a unit em box (0..1, y up).

Each icon is a tuple of shapes; a shape is a polygon, a circle or a stroked
line, painted ``ink`` (the text colour) or ``paper`` (white, for eyes and
cut-outs).  The renderers scale them with the surrounding text.  cardkit's own
icons (:data:`ICONS`, the tokens of :data:`cardkit.text.TOKEN_NAMES`) are a few
generic signs; a game's icons are SVG files of its set, and an SVG made only of
such shapes (:func:`shapes_from_svg`) is drawn through this same path.

>>> sorted(ICONS) == sorted(__import__("cardkit.text", fromlist=["x"]).TOKEN_NAMES)
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Shape:
    kind: str  # "poly" | "circle" | "stroke"
    points: tuple[tuple[float, float], ...] = ()
    cx: float = 0.0
    cy: float = 0.0
    r: float = 0.0
    paint: str = "ink"  # ink | paper
    width: float = 0.0  # stroke width in em (for "stroke")


def _poly(*pts: tuple[float, float], paint: str = "ink") -> Shape:
    return Shape("poly", tuple(pts), paint=paint)


def _circle(cx: float, cy: float, r: float, paint: str = "ink") -> Shape:
    return Shape("circle", cx=cx, cy=cy, r=r, paint=paint)


def _stroke(*pts: tuple[float, float], width: float = 0.08) -> Shape:
    return Shape("stroke", tuple(pts), width=width)


def _arc(cx: float, cy: float, r: float, a0: float, a1: float, n: int = 12) -> list[tuple[float, float]]:
    return [(cx + r * math.cos(math.radians(a0 + (a1 - a0) * i / n)),
             cy + r * math.sin(math.radians(a0 + (a1 - a0) * i / n))) for i in range(n + 1)]


def _arrow(x0: float, y0: float, x1: float, y1: float, head: float = 0.22, width: float = 0.09) -> list[Shape]:
    ang = math.atan2(y1 - y0, x1 - x0)
    bx, by = x1 - head * math.cos(ang), y1 - head * math.sin(ang)
    nx, ny = -math.sin(ang), math.cos(ang)
    return [_stroke((x0, y0), (bx, by), width=width),
            _poly((x1, y1), (bx + nx * head * 0.6, by + ny * head * 0.6), (bx - nx * head * 0.6, by - ny * head * 0.6))]


ICONS: dict[str, tuple[Shape, ...]] = {
    "skull": (
        _poly(*_arc(0.5, 0.56, 0.36, 0, 180), (0.14, 0.42), (0.26, 0.30), (0.26, 0.14), (0.74, 0.14), (0.74, 0.30), (0.86, 0.42)),
        _circle(0.36, 0.48, 0.09, paint="paper"),
        _circle(0.64, 0.48, 0.09, paint="paper"),
        _poly((0.5, 0.38), (0.45, 0.29), (0.55, 0.29), paint="paper"),
        _poly((0.40, 0.14), (0.43, 0.14), (0.43, 0.23), (0.40, 0.23), paint="paper"),
        _poly((0.57, 0.14), (0.60, 0.14), (0.60, 0.23), (0.57, 0.23), paint="paper"),
    ),
    "arrow-up": tuple(_arrow(0.5, 0.06, 0.5, 0.94)),
    "arrow-down": tuple(_arrow(0.5, 0.94, 0.5, 0.06)),
    "arrow-left": tuple(_arrow(0.94, 0.5, 0.06, 0.5)),
    "arrow-right": tuple(_arrow(0.06, 0.5, 0.94, 0.5)),
}


#: the only transform a shape SVG carries: its y axis flipped into the unit box
FLIP = "matrix(1 0 0 -1 0 1)"


def shapes_from_svg(root: Any) -> tuple[Shape, ...] | None:
    """The shapes of an SVG icon (a checked lxml root) that is made of nothing
    but them, else ``None`` (the icon is then drawn through svglib): view box
    ``0 0 1 1``, one ``<g transform="matrix(1 0 0 -1 0 1)">`` (y up, as the
    shapes are) holding ``polygon`` and ``circle`` elements filled black (ink)
    or white (paper) and ``polyline`` elements stroked black with round caps.

    >>> from lxml import etree
    >>> svg = etree.fromstring(b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><g transform="matrix(1 0 0 -1 0 1)">'
    ...                        b'<circle cx="0.5" cy="0.5" r="0.45" fill="#ffffff"/></g></svg>')
    >>> shapes_from_svg(svg)
    (Shape(kind='circle', points=(), cx=0.5, cy=0.5, r=0.45, paint='paper', width=0.0),)
    """
    if _local(root) != "svg" or (root.get("viewBox") or "").split() != ["0", "0", "1", "1"]:
        return None
    groups = [c for c in root if isinstance(c.tag, str) and _local(c) not in ("title", "desc")]
    if len(groups) != 1 or _local(groups[0]) != "g" or groups[0].get("transform") != FLIP:
        return None
    out: list[Shape] = []
    try:
        for el in groups[0]:
            if not isinstance(el.tag, str):
                continue  # a comment
            kind, fill = _local(el), el.get("fill")
            if kind == "polygon" and fill in _PAINT:
                out.append(_poly(*_points(el.get("points", "")), paint=_PAINT[fill]))
            elif kind == "circle" and fill in _PAINT:
                out.append(_circle(float(el.get("cx")), float(el.get("cy")), float(el.get("r")), paint=_PAINT[fill]))
            elif kind == "polyline" and fill == "none" and el.get("stroke") == "#000000" \
                    and el.get("stroke-linecap") == "round" and el.get("stroke-linejoin") == "round":
                out.append(_stroke(*_points(el.get("points", "")), width=float(el.get("stroke-width"))))
            else:
                return None
    except (TypeError, ValueError):
        return None
    if not out or not all(math.isfinite(v) for sh in out for v in (sh.cx, sh.cy, sh.r, sh.width, *sum(sh.points, ()))):
        return None
    return tuple(out)


_PAINT = {"#000000": "ink", "#ffffff": "paper"}


def _local(el: Any) -> str:
    tag = el.tag
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _points(text: str) -> list[tuple[float, float]]:
    pts = []
    for pair in text.split():
        x, y = pair.split(",")
        pts.append((float(x), float(y)))
    if len(pts) < 2:
        raise ValueError("a shape needs two points")
    return pts
