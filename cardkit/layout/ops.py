"""Draw operations: the only output of layout, the only input of renderers.

Coordinates are PDF points with the origin at the bottom-left of the card's
trim box (bleed extends to negative coordinates).  Colours are ``#rrggbb``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from cardkit.layout.icons import Shape
from cardkit.layout.svgicons import SvgOp


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    lw: float = 0.5
    r: float = 0.0


@dataclass(frozen=True)
class Poly:
    points: tuple[tuple[float, float], ...]
    fill: str | None = None
    stroke: str | None = None
    lw: float = 0.5
    closed: bool = True


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: str | None = None
    stroke: str | None = None
    lw: float = 0.5


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "#000000"
    lw: float = 0.5
    dash: tuple[float, ...] = ()


@dataclass(frozen=True)
class Text:
    """One run of text in one font role; the renderer splits it along the
    role's fallback chain exactly as the metrics did."""

    x: float
    y: float  # baseline
    text: str
    locale: str
    role: str
    size: float
    colour: str = "#000000"


@dataclass(frozen=True)
class Icon:
    """An icon drawn as vector shapes: ``shapes`` (a set's shape SVG), else cardkit's own icon ``name``."""

    name: str
    x: float  # bottom-left of the icon's em box
    y: float
    size: float
    colour: str = "#000000"
    shapes: tuple[Shape, ...] = field(default=(), repr=False)


@dataclass(frozen=True)
class Picture:
    """A raster image (PNG bytes from :mod:`cardkit.render.images`) fitted into a box, centred, aspect kept."""

    x: float
    y: float
    w: float
    h: float
    png: bytes = field(repr=False)
    px_w: int = 1
    px_h: int = 1


@dataclass(frozen=True)
class Group:
    """Operations drawn translated, then rotated about the translated origin."""

    ops: tuple["Op", ...]
    dx: float = 0.0
    dy: float = 0.0
    rotate: float = 0.0  # degrees, counter-clockwise
    clip: tuple[float, float, float, float] | None = None  # x, y, w, h in the group's own coordinates
    scale: float = 1.0  # after the rotation, before the clip (a card fitted to a print service's size)


Op = Union[Rect, Poly, Circle, Line, Text, Icon, Picture, Group, SvgOp]
