"""Icons drawn once as vector shapes in a unit em box (0..1, y up).

Each icon is a tuple of shapes; a shape is a polygon or a circle filled with
``ink`` (the text colour) or ``paper`` (white, for eyes and cut-outs).  The
renderers scale them with the surrounding text.

>>> sorted(ICONS) == sorted(__import__("cardkit.text", fromlist=["x"]).TOKEN_NAMES | {"door-token", "radar"})
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass


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
    "claw": tuple(
        _poly((0.18 + dx, 0.12), (0.32 + dx, 0.12), (0.40 + dx, 0.55), (0.30 + dx, 0.92), (0.27 + dx, 0.58))
        for dx in (0.0, 0.22, 0.44)
    ),
    "tongue": (
        _stroke((0.12, 0.30), (0.30, 0.50), (0.46, 0.38), (0.62, 0.58), (0.74, 0.66), width=0.1),
        _poly((0.70, 0.62), (0.94, 0.86), (0.80, 0.66), (0.96, 0.60), (0.78, 0.70)),
    ),
    "tail": (
        _stroke(*[(0.5 + 0.34 * (1 - i / 24) * math.cos(i * 0.42), 0.5 + 0.34 * (1 - i / 24) * math.sin(i * 0.42)) for i in range(19)], width=0.09),
        _poly((0.84, 0.5), (0.98, 0.74), (0.70, 0.62)),
    ),
    "head": (
        _poly((0.12, 0.30), (0.30, 0.70), (0.56, 0.90), (0.92, 0.94), (0.80, 0.70), (0.66, 0.44), (0.54, 0.18), (0.36, 0.10)),
        _circle(0.40, 0.36, 0.07, paint="paper"),
        _stroke((0.58, 0.86), (0.62, 0.62), width=0.05),
        _stroke((0.72, 0.88), (0.70, 0.66), width=0.05),
    ),
    "spawn-major": (
        _poly(*[(0.5 + (0.46 if i % 2 == 0 else 0.2) * math.cos(math.radians(90 + i * 30)),
                 0.5 + (0.46 if i % 2 == 0 else 0.2) * math.sin(math.radians(90 + i * 30))) for i in range(12)]),
    ),
    "spawn-minor": (
        _poly(*[(0.5 + (0.3 if i % 2 == 0 else 0.14) * math.cos(math.radians(90 + i * 45)),
                 0.5 + (0.3 if i % 2 == 0 else 0.14) * math.sin(math.radians(90 + i * 45))) for i in range(8)]),
    ),
    "move-adjacent": tuple(_arrow(0.5, 0.5, 0.5, 0.96) + _arrow(0.5, 0.5, 0.5, 0.04)),
    "move-flank": (
        _stroke(*_arc(0.5, 0.46, 0.32, 200, -20, 14), width=0.1),
        _poly((0.60, 0.30), (0.98, 0.28), (0.84, 0.62)),
    ),
    "support": (
        _poly((0.5, 0.96), (0.90, 0.80), (0.86, 0.40), (0.5, 0.04), (0.14, 0.40), (0.10, 0.80)),
        _poly((0.44, 0.24), (0.56, 0.24), (0.56, 0.46), (0.74, 0.46), (0.74, 0.58), (0.56, 0.58), (0.56, 0.80),
              (0.44, 0.80), (0.44, 0.58), (0.26, 0.58), (0.26, 0.46), (0.44, 0.46), paint="paper"),
    ),
    "door-token": (_circle(0.5, 0.5, 0.45),),
    "radar": (
        _circle(0.5, 0.5, 0.44),
        _circle(0.5, 0.5, 0.34, paint="paper"),
        _circle(0.5, 0.5, 0.22),
        _circle(0.5, 0.5, 0.12, paint="paper"),
        _poly((0.5, 0.5), (0.96, 0.62), (0.94, 0.74)),
    ),
    "arrow-up": tuple(_arrow(0.5, 0.06, 0.5, 0.94)),
    "arrow-down": tuple(_arrow(0.5, 0.94, 0.5, 0.06)),
    "arrow-left": tuple(_arrow(0.94, 0.5, 0.06, 0.5)),
    "arrow-right": tuple(_arrow(0.06, 0.5, 0.94, 0.5)),
}
