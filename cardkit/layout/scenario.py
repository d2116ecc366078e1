"""Deep Strike scenario cards (95 x 135 mm): briefing, special rules, a drawn
deployment map and the scoring on the front; the rules text on the back.

The map is drawn from :mod:`cardkit.games.deep_strike.geometry`, the same
geometry the deployment checker uses.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from cardkit.games.deep_strike.geometry import table_geometry
from cardkit.layout.compose import DECK_COLOURS, INK, PAPER, Composer, Face, PrintItem, _lighten
from cardkit.layout.ops import Circle, Line, Rect, Text
from cardkit.layout.textfit import Block, Style
from cardkit.layout.units import MM
from cardkit.games.deep_strike.cards import Scenario

ZONE_COLOURS = {"a": "#9cc3e6", "b": "#e9a7a0"}
MAP_BOX = (7 * MM, 34 * MM, 81 * MM, 54 * MM)


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


class ScenarioComposer(Composer):
    units = "inch"

    def length(self, value: float) -> str:
        return length(value, self.units)
    def _s(self, card_id: str, path: str) -> tuple[str, str]:
        key = f"{card_id}.{path}"
        return self.loc.card(key), key

    def front(self, sc: Scenario) -> Face:
        face = self._start(f"{sc.id}:front", sc.id, "scenario", DECK_COLOURS["scenario"], (4.5 * MM, 4.5 * MM, 86 * MM, 85 * MM))
        t = face.template
        face.ops.append(Circle(t.width - 11 * MM, 125.5 * MM, 6 * MM, fill=PAPER, stroke="#c9a227", lw=1.2))
        n = str(sc.number)
        w = self.book.width(n, self.book.chain(self.locale, "number"), 16)
        face.ops.append(Text(t.width - 11 * MM - w / 2, 125.5 * MM - 5.6, n, self.locale, "number", 16, INK))
        brief, bkey = self._s(sc.id, "briefing")
        self.text(face, "briefing", brief, bkey, colour="#f0ead8")
        rules = " · ".join(self.loc.card(f"set.glossary.{r}.name") for r in sc.data["special_rules"])
        self.text(face, "rules", rules, ",".join(f"set.glossary.{r}.name" for r in sc.data["special_rules"]), colour="#e3c35a", valign="middle")
        self.map(face, sc.data)
        # scoring summary under the map
        f = t.fields["section"]
        blocks: list[tuple[Block, str]] = []
        for line in sc.data["objectives"]["scoring"]:
            label, lkey = self._s(sc.id, f"objectives.scoring.{line['id']}.label")
            pts = self.loc.ui("scenario.points", points=f"+{line['points']}")
            blocks.append((Block(f"<b>{pts}</b>  {label}", Style(self.locale, "body", 1.1), gap_after=0.1), lkey))
        if blocks:
            self.column(face, "scoring", blocks, f.at(7 * MM, 6 * MM, 81 * MM, 22.5 * MM))
        return face

    def map(self, face: Face, data: Any) -> None:
        g = table_geometry(data)
        x0, y0, mw, mh = MAP_BOX
        scale = min(mw / g.width, mh / g.depth)
        ox = x0 + (mw - g.width * scale) / 2
        oy = y0 + (mh - g.depth * scale) / 2

        def P(x: float, y: float) -> tuple[float, float]:
            return ox + x * scale, oy + y * scale

        ops = face.ops
        ops.append(Rect(ox, oy, g.width * scale, g.depth * scale, fill="#e9e4d4", stroke=INK, lw=0.8))
        for side in g.side_quarters:
            ax, ay = P(side[0], side[1])
            ops.append(Rect(ax, ay, (side[2] - side[0]) * scale, (side[3] - side[1]) * scale, fill="#dcd5c0", stroke="#b5ad95", lw=0.4))
        for who, (zx0, zy0, zx1, zy1) in g.zones.items():
            ax, ay = P(zx0, zy0)
            ops.append(Rect(ax, ay, (zx1 - zx0) * scale, (zy1 - zy0) * scale, fill=ZONE_COLOURS[who], stroke=_lighten(INK, 0.3), lw=0.5))
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
        lbl = self.templates["scenario"].fields["map_label"]
        # labels
        for who, (zx0, zy0, zx1, zy1) in g.zones.items():
            text, key = self.ui(f"map.player_{who}")
            lx, ly = P((zx0 + zx1) / 2, (zy0 + zy1) / 2)
            self.text(face, "map_label", text, key, box=lbl.at(lx - 15 * MM, ly - 2.5 * MM, 30 * MM, 5 * MM), valign="middle")
        for side in g.side_quarters:
            text, key = self.ui("map.side")
            lx, ly = P((side[0] + side[2]) / 2, (side[1] + side[3]) / 2)
            self.text(face, "map_label", text, key, box=lbl.at(lx - 15 * MM, ly - 2.5 * MM, 30 * MM, 5 * MM), colour="#5f5846", valign="middle")
        if g.centre_exclusion:
            text, key = self.ui("map.no_deploy", distance=self.length(g.centre_exclusion))
            r = g.centre_exclusion * scale
            self.text(face, "map_label", text, key, box=lbl.at(cx - r + 1 * MM, cy - 8 * MM, 2 * r - 2 * MM, 7 * MM), colour="#7a1e16", valign="middle")
        if g.zone_kind == "long_edges":
            depth = g.zones["a"][3]
            text, key = self.ui("map.depth", distance=self.length(depth))
            _, ly = P(0, depth / 2)
            self.text(face, "map_label", text, key, box=replace(lbl, x=ox + 1 * MM, y=ly - 2.5 * MM, w=22 * MM, h=5 * MM, align="left"),
                      valign="middle")
        if g.enemy_gap:
            text, key = self.ui("map.gap", distance=self.length(g.enemy_gap))
            self.text(face, "map_label", text, key, box=lbl.at(ox + 12 * MM, cy + 1.5 * MM, g.width * scale - 24 * MM, 5 * MM), colour="#7a1e16", valign="middle")
        for piece, mx, my in g.markers:
            px, py = P(mx, my)
            ops.append(Rect(px - 1.6 * MM, py - 1.6 * MM, 3.2 * MM, 3.2 * MM, fill=INK))
            text, key = self.ui("map.black_box") if piece == "black_box" else self._s(face.card, f"terrain.{piece}.name")
            self.text(face, "map_label", text, key, box=lbl.at(px - 15 * MM, py + 2.5 * MM, 30 * MM, 4.5 * MM), valign="middle")
        for fp in {fp.id: fp for fp in g.footprints}.values():
            text, key = self.ui("map.thunderhawk") if fp.id == "thunderhawk" else self._s(face.card, f"terrain.{fp.id}.name")
            ax, ay = P(fp.box[2], fp.box[3])
            self.text(face, "map_label", text, key, box=replace(lbl, x=ax + 1 * MM, y=ay - 5 * MM, w=24 * MM, h=4.5 * MM, align="left"),
                      valign="middle")
        text, key = self.ui("map.table", width=self.length(g.width), depth=self.length(g.depth))
        self.text(face, "map_label", text, key, box=lbl.at(ox, oy - 4.6 * MM, g.width * scale, 4.2 * MM), colour="#5f5846", valign="middle")

    def back_face(self, sc: Scenario) -> Face:
        face = self._start(f"{sc.id}:back", sc.id, "scenario", DECK_COLOURS["scenario"], (4.5 * MM, 4.5 * MM, 86 * MM, 114 * MM))
        t = face.template
        d = sc.data
        heading = t.fields["heading"]
        section = t.fields["section"]
        blocks: list[tuple[Block, str]] = []

        def add(ui_key: str | None, path: str, title: tuple[str, str] | None = None) -> None:
            head, hkey = title or self.ui(ui_key or "")
            blocks.append((Block(head, Style(self.locale, "bold", 1.1), ratio=heading.size / section.size, gap_after=0.05), hkey))
            text, tkey = self._s(sc.id, path)
            blocks.append((Block(text, Style(self.locale, "body", section.leading), gap_after=0.45), tkey))

        add("scenario.deployment", "deployment.text")
        if d.get("infiltrators"):
            add("scenario.infiltrators", "infiltrators.text")
        if d.get("reserves"):
            add("scenario.reserves", "reserves.text")
        add("scenario.first_turn", "first_turn.text")
        if d.get("night_fighting"):
            add("scenario.night_fighting", "night_fighting.text")
        add("scenario.objectives", "objectives.text")
        for piece in d.get("terrain") or []:
            if piece.get("text"):
                add(None, f"terrain.{piece['id']}.text", self._s(sc.id, f"terrain.{piece['id']}.name"))
        add("scenario.victory", "victory.text")
        add("scenario.fall_back", "fall_back.text")
        self.column(face, "rules", blocks, section.at(7 * MM, 6.5 * MM, 81 * MM, 110.5 * MM))
        return face

    def items(self) -> list[PrintItem]:
        out = []
        for sc in sorted(self.set.of_kind(Scenario), key=lambda s: s.number):
            out.append(PrintItem(self.front(sc), self.back_face(sc), "scenario"))
        return out
