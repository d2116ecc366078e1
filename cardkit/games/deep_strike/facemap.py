"""The Deep Strike table map: a plugin element of the scenario face (see
``docs/authoring.md``, "Plugin elements").

The map is drawn from :func:`cardkit.games.deep_strike.geometry.table_geometry`,
the same geometry the deployment checker uses, so it cannot be plain shape
data: zones, footprints and exclusion rings are computed from the scenario.
Every label goes through the face engine's text code (fitted, recorded).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from cardkit.games.deep_strike.geometry import table_geometry
from cardkit.layout.compose import INK, ElementContext, lighten
from cardkit.layout.ops import Circle, Line, Rect
from cardkit.layout.units import MM

ZONE_COLOURS = {"a": "#9cc3e6", "b": "#e9a7a0"}
UNITS = ("inch", "cm")


def length(value: float, units: str = "inch") -> str:
    """A table distance for a label: ``12"`` or, for metric play, ``30 cm``
    (1" = 2.54 cm, rounded to whole centimetres as metric players measure).

    >>> length(12), length(12, "cm"), length(72, "cm")
    ('12"', '30 cm', '183 cm')
    """
    if units == "cm":
        return f"{round(value * 2.54)} cm"
    return f'{value:g}"'


def draw(ctx: ElementContext, box: tuple[float, float, float, float], params: Mapping[str, Any]) -> None:
    """Draw the table of the scenario in ``ctx.fields`` scaled into ``box``;
    ``params.label_style`` names the text style of the labels."""
    g = table_geometry(ctx.fields)
    units = str(ctx.options.get("units", "inch"))

    def dist(v: float) -> str:
        return length(v, units)

    x0, y0, mw, mh = box
    scale = min(mw / g.width, mh / g.depth)
    ox = x0 + (mw - g.width * scale) / 2
    oy = y0 + (mh - g.depth * scale) / 2

    def P(x: float, y: float) -> tuple[float, float]:
        return ox + x * scale, oy + y * scale

    ops = ctx.ops
    ops.append(Rect(ox, oy, g.width * scale, g.depth * scale, fill="#e9e4d4", stroke=INK, lw=0.8))
    for side in g.side_quarters:
        ax, ay = P(side[0], side[1])
        ops.append(Rect(ax, ay, (side[2] - side[0]) * scale, (side[3] - side[1]) * scale, fill="#dcd5c0", stroke="#b5ad95", lw=0.4))
    for who, (zx0, zy0, zx1, zy1) in g.zones.items():
        ax, ay = P(zx0, zy0)
        ops.append(Rect(ax, ay, (zx1 - zx0) * scale, (zy1 - zy0) * scale, fill=ZONE_COLOURS[who], stroke=lighten(INK, 0.3), lw=0.5))
    if g.zone_kind == "quarters":
        cx, cy = P(*g.centre)
        ops.append(Line(ox, cy, ox + g.width * scale, cy, "#7d7562", 0.5, (2, 2)))
        ops.append(Line(cx, oy, cx, oy + g.depth * scale, "#7d7562", 0.5, (2, 2)))
    for fp in g.footprints:
        ax, ay = P(fp.box[0], fp.box[1])
        fill = "#5b5e63" if fp.movement == "impassable" else "#9a9c9f"
        ops.append(Rect(ax, ay, (fp.box[2] - fp.box[0]) * scale, (fp.box[3] - fp.box[1]) * scale, fill=fill, stroke=INK, lw=0.4))
    cx, cy = P(*g.centre)
    if g.centre_exclusion:
        ops.append(Circle(cx, cy, g.centre_exclusion * scale, fill="#f6f1e4", stroke="#7a1e16", lw=0.7))
    ops.append(Circle(cx, cy, 0.9 * MM, fill=INK))
    lbl = ctx.style(str(params.get("label_style", "map_label")))
    name = "map_label"
    for who, (zx0, zy0, zx1, zy1) in g.zones.items():
        text, key = ctx.ui(f"map.player_{who}")
        lx, ly = P((zx0 + zx1) / 2, (zy0 + zy1) / 2)
        ctx.text(name, text, key, box=lbl.at(lx - 15 * MM, ly - 2.5 * MM, 30 * MM, 5 * MM), valign="middle")
    for side in g.side_quarters:
        text, key = ctx.ui("map.side")
        lx, ly = P((side[0] + side[2]) / 2, (side[1] + side[3]) / 2)
        ctx.text(name, text, key, box=lbl.at(lx - 15 * MM, ly - 2.5 * MM, 30 * MM, 5 * MM), colour="#5f5846", valign="middle")
    if g.centre_exclusion:
        text, key = ctx.ui("map.no_deploy", distance=dist(g.centre_exclusion))
        r = g.centre_exclusion * scale
        ctx.text(name, text, key, box=lbl.at(cx - r + 1 * MM, cy - 8 * MM, 2 * r - 2 * MM, 7 * MM), colour="#7a1e16", valign="middle")
    if g.zone_kind == "long_edges":
        depth = g.zones["a"][3]
        text, key = ctx.ui("map.depth", distance=dist(depth))
        _, ly = P(0, depth / 2)
        ctx.text(name, text, key, box=replace(lbl, x=ox + 1 * MM, y=ly - 2.5 * MM, w=22 * MM, h=5 * MM, align="left"), valign="middle")
    if g.enemy_gap:
        text, key = ctx.ui("map.gap", distance=dist(g.enemy_gap))
        ctx.text(name, text, key, box=lbl.at(ox + 12 * MM, cy + 1.5 * MM, g.width * scale - 24 * MM, 5 * MM), colour="#7a1e16", valign="middle")
    for piece, mx, my in g.markers:
        px, py = P(mx, my)
        ops.append(Rect(px - 1.6 * MM, py - 1.6 * MM, 3.2 * MM, 3.2 * MM, fill=INK))
        text, key = ctx.ui("map.black_box") if piece == "black_box" else ctx.card_string(f"terrain.{piece}.name")
        ctx.text(name, text, key, box=lbl.at(px - 15 * MM, py + 2.5 * MM, 30 * MM, 4.5 * MM), valign="middle")
    for fp in {fp.id: fp for fp in g.footprints}.values():
        text, key = ctx.ui("map.thunderhawk") if fp.id == "thunderhawk" else ctx.card_string(f"terrain.{fp.id}.name")
        ax, ay = P(fp.box[2], fp.box[3])
        ctx.text(name, text, key, box=replace(lbl, x=ax + 1 * MM, y=ay - 5 * MM, w=24 * MM, h=4.5 * MM, align="left"), valign="middle")
    text, key = ctx.ui("map.table", width=dist(g.width), depth=dist(g.depth))
    ctx.text(name, text, key, box=lbl.at(ox, oy - 4.6 * MM, g.width * scale, 4.2 * MM), colour="#5f5846", valign="middle")
