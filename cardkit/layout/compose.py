"""Card faces as draw operations: a localized card + a template -> ops.

Every text placed on a card goes through :meth:`Composer.text`, which fits it
with :mod:`cardkit.layout.textfit` and records a :class:`FieldFit`.  The PDF
builder draws the ops; the translation fit check reads the fits.  Both come
from this one code path.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from cardkit.errors import CardkitError
from cardkit.i18n.localize import Localizer
from cardkit.layout.fonts import FontBook
from cardkit.layout.ops import Circle, Icon, Line, Op, Picture, Rect, Text
from cardkit.layout.textfit import Block, ColumnResult, FitResult, Style, block_height, fit, fit_column
from cardkit.layout.units import MM, to_pt
from cardkit.load.yamlsafe import read_yaml_file
from cardkit.games.death_angel.cards import (Action, Event, Genestealer, Location, Marine, Placement, SetupCard,
                                             Terrain)
from cardkit.model import Card, CardSet

TEMPLATE_FILE = Path(__file__).resolve().parents[1] / "templates" / "cards.yaml"

TERRAIN_COLOURS = {"red": "#c2352b", "orange": "#e07b1f", "yellow": "#e8c21c", "green": "#3a9a4a"}
PAPER = "#f6f1e4"
INK = "#1d1b18"
DECK_COLOURS = {"event": "#4d1f1c", "location": "#26343d", "setup": "#1f2b33", "genestealer": "#33203d",
                "brood_lord": "#3d1830", "terrain": "#3a352c", "action": "#2b2b2b", "reference": "#2a3a2a",
                "scenario": "#2f3b2a"}


@dataclass(frozen=True)
class Field:
    x: float
    y: float
    w: float
    h: float
    role: str
    size: float
    min: float
    align: str = "left"
    max_lines: int = 0
    leading: float = 1.18

    def at(self, x: float, y: float, w: float | None = None, h: float | None = None) -> "Field":
        return Field(x, y, self.w if w is None else w, self.h if h is None else h, self.role, self.size,
                     self.min, self.align, self.max_lines, self.leading)


@dataclass(frozen=True)
class Template:
    name: str
    width: float
    height: float
    fields: dict[str, Field]


@functools.lru_cache(maxsize=4)
def load_templates(path: str = str(TEMPLATE_FILE)) -> dict[str, Template]:
    doc = read_yaml_file(Path(path), "cardkit/templates/cards.yaml")
    raw: dict[str, Any] = doc.data["templates"]

    def resolve(name: str, seen: tuple[str, ...] = ()) -> dict[str, Any]:
        if name in seen:
            raise CardkitError(f"template '{name}' extends itself", code="T003")
        t = raw[name]
        if "extends" in t:
            base = resolve(t["extends"], seen + (name,))
            merged = {**base, **{k: v for k, v in t.items() if k != "fields"}}
            merged["fields"] = {**base.get("fields", {}), **t.get("fields", {})}
            return merged
        return t

    out = {}
    for name in raw:
        t = resolve(name)
        fields = {}
        for fname, f in t["fields"].items():
            x, y, w, h = (to_pt(v) for v in f["box"])
            fields[fname] = Field(x, y, w, h, f["role"], to_pt(f["size"]), to_pt(f["min"]), f.get("align", "left"),
                                  int(f.get("max_lines", 0)), float(f.get("leading", 1.18)))
        out[name] = Template(name, to_pt(t["size"][0]), to_pt(t["size"][1]), fields)
    return out


@dataclass
class FieldFit:
    """How one string fared in one box."""

    card: str
    field: str
    key: str  # catalog msgctxt, or "ui:<id>" for interface strings
    locale: str
    text: str
    result: FitResult | ColumnResult
    box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    ops: tuple[Op, ...] = ()

    @property
    def ok(self) -> bool:
        return self.result.status in ("fits", "shrunk")


@dataclass
class Face:
    id: str  # physical face id: "gun_jam#2", "sergeant_gideon:left", "back:location:1A"
    card: str
    template: Template
    ops: list[Op] = field(default_factory=list)
    fits: list[FieldFit] = field(default_factory=list)
    bleed_colour: str = PAPER


@dataclass
class PrintItem:
    """One physical card: its front, and the back printed behind it."""

    front: Face
    back: Face | None
    deck: str


def _lighten(hex_colour: str, amount: float) -> str:
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    mix = [round(c + (255 - c) * amount) for c in (r, g, b)]
    return "#{:02x}{:02x}{:02x}".format(*mix)


def _darken(hex_colour: str, amount: float) -> str:
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(*[round(c * (1 - amount)) for c in (r, g, b)])


class Composer:
    """Lays out every face of a card set in one locale."""

    def __init__(self, card_set: CardSet, localizer: Localizer, book: FontBook | None = None,
                 templates: dict[str, Template] | None = None, art: Callable[[str], Any] | None = None) -> None:
        self.art_loader = art
        self.set = card_set
        self.loc = localizer
        self.locale = localizer.locale
        self.book = book or FontBook()
        self.templates = templates or load_templates()
        self.team_colour = {t.id: t.colour for t in card_set.teams}
        self._backs: dict[str, Face] = {}

    # ------------------------------------------------------------------ text
    def text(self, face: Face, fieldname: str, text: str, key: str, box: Field | None = None,
             colour: str = INK, valign: str = "top") -> FitResult:
        f = box or face.template.fields[fieldname]
        style = Style(self.locale, f.role, f.leading, f.align, f.max_lines, colour)
        result = fit(text, style, f.w, f.h, f.size, f.min, self.book)
        start = len(face.ops)
        self._draw_lines(face.ops, result.lines, style, result.size, f, valign)
        face.fits.append(FieldFit(face.card, fieldname, key, self.locale, text, result, (f.x, f.y, f.w, f.h),
                                  tuple(face.ops[start:])))
        return result

    def _draw_lines(self, ops: list[Op], lines: list[Any], style: Style, size: float, f: Field, valign: str,
                    top: float | None = None) -> float:
        lead = size * style.leading
        block_h = block_height(len(lines), size, style.leading)
        top_y = f.y + f.h if top is None else top
        if valign == "middle" and top is None:
            top_y = f.y + (f.h + block_h) / 2
        y = top_y - size * 0.95
        for line in lines:
            if f.align == "center":
                x0 = f.x + (f.w - line.width) / 2
            elif f.align == "right":
                x0 = f.x + f.w - line.width
            else:
                x0 = f.x
            for p in line.pieces:
                if p.kind == "icon":
                    s = size * 1.0
                    ops.append(Icon(p.value, x0 + p.x + (p.width - s) / 2, y - size * 0.16, s, style.colour))
                elif p.value.strip():
                    ops.append(Text(x0 + p.x, y, p.value, self.locale, p.role, size, style.colour))
            y -= lead
        return top_y - block_h

    def column(self, face: Face, fieldname: str, blocks: list[tuple[Block, str]], box: Field, colour: str = INK) -> ColumnResult:
        """Flow several paragraphs in one box at one shared size."""
        result = fit_column([b for b, _ in blocks], box.w, box.h, box.size, box.min, self.book)
        keys = ",".join(k for _, k in blocks)
        start = len(face.ops)
        top = box.y + box.h
        for block, lines, size in result.blocks:
            st = Style(self.locale, block.style.role, block.style.leading, box.align, 0, colour)
            top = self._draw_lines(face.ops, lines, st, size, box, "top", top=top)
            top -= block.gap_after * result.size
        face.fits.append(FieldFit(face.card, fieldname, keys, self.locale, "\n".join(b.text for b, _ in blocks), result,
                                  (box.x, box.y, box.w, box.h), tuple(face.ops[start:])))
        return result

    def card_text(self, card_id: str, fieldname: str) -> tuple[str, str]:
        key = f"{card_id}.{fieldname}"
        return self.loc.card(key), key

    def ui(self, key: str, **values: object) -> tuple[str, str]:
        return self.loc.ui(key, **values), f"ui:{key}"

    # ------------------------------------------------------------- furniture
    def _frame(self, face: Face, colour: str, panel: tuple[float, float, float, float] | None) -> None:
        t = face.template
        face.bleed_colour = colour
        face.ops.append(Rect(-20, -20, t.width + 40, t.height + 40, fill=colour))
        face.ops.append(Rect(2.2 * MM, 2.2 * MM, t.width - 4.4 * MM, t.height - 4.4 * MM, stroke=_lighten(colour, 0.35), lw=0.8, r=2.5 * MM))
        if panel:
            x, y, w, h = panel
            face.ops.append(Rect(x, y, w, h, fill=PAPER, stroke=_darken(colour, 0.2), lw=0.6, r=1.6 * MM))

    def picture(self, face: Face, card: Card, x: float, y: float, w: float, h: float) -> bool:
        """The card's own artwork in a box, if it has any (and a loader was given)."""
        if not card.art or self.art_loader is None:
            return False
        art = self.art_loader(card.art)
        face.ops.append(Rect(x, y, w, h, fill="#000000"))
        face.ops.append(Picture(x, y, w, h, art.png, art.width, art.height))
        return True

    def _new(self, face_id: str, card: str, template: str) -> Face:
        return Face(face_id, card, self.templates[template])

    def _start(self, face_id: str, card: str, template: str, colour: str,
               panel: tuple[float, float, float, float] | None) -> Face:
        """A new face: background, frame, optional text panel, and the card's name."""
        face = self._new(face_id, card, template)
        self._frame(face, colour, panel)
        name, key = self.card_text(card, "name")
        self.text(face, "name", name, key, colour="#ffffff", valign="middle")
        return face

    def _badge(self, face: Face, cx: float, cy: float, w: float, h: float, text: str, size: float) -> None:
        """A gold label centred on (cx, cy) with a number-role text."""
        face.ops.append(Rect(cx - w / 2, cy - h / 2, w, h, fill="#c9a227", r=1.2 * MM))
        tw = self.book.width(text, self.book.chain(self.locale, "number"), size)
        face.ops.append(Text(cx - tw / 2, cy - size * 0.36, text, self.locale, "number", size, INK))

    # ----------------------------------------------------------------- cards
    def marine(self, m: Marine, facing: str) -> Face:
        colour = self.team_colour.get(m.team, "#555555")
        face = self._start(f"{m.id}:{facing}", m.id, "marine", colour, None)
        t = face.template
        # big facing arrow (a badge over the artwork when the card has some)
        if self.picture(face, m, 8 * MM, 27 * MM, t.width - 16 * MM, 44 * MM):
            face.ops.append(Circle(t.width - 15 * MM, 32 * MM, 6 * MM, fill=colour, stroke="#ffffff", lw=1))
            face.ops.append(Icon(f"arrow-{facing}", t.width - 20 * MM, 27 * MM, 10 * MM, "#ffffff"))
        else:
            face.ops.append(Circle(t.width / 2, t.height * 0.5, 17 * MM, fill=_lighten(colour, 0.2), stroke="#ffffff", lw=1.2))
            face.ops.append(Icon(f"arrow-{facing}", t.width / 2 - 13 * MM, t.height * 0.5 - 13 * MM, 26 * MM, "#ffffff"))
        # small arrows that steer adjacent Genestealer movement (left side down, right side up)
        rules = self.set.rules
        moves = dict(rules.adjacent_move) if rules else {"left": "down", "right": "up"}
        face.ops.append(Icon(f"arrow-{moves['left']}", 0.9 * MM, t.height / 2 - 3 * MM, 6 * MM, "#ffffff"))
        face.ops.append(Icon(f"arrow-{moves['right']}", t.width - 6.9 * MM, t.height / 2 - 3 * MM, 6 * MM, "#ffffff"))
        # range badge
        face.ops.append(Rect(5 * MM, 5 * MM, 20 * MM, 18 * MM, fill=PAPER, r=1.5 * MM))
        label, lkey = self.ui("range")
        self.text(face, "range_label", label, lkey)
        face.ops.append(Text(15 * MM - self.book.width(str(m.range), self.book.chain(self.locale, "number"), 28) / 2,
                             7.2 * MM, str(m.range), self.locale, "number", 28, INK))
        team_name, tkey = self.card_text("set.teams", f"{m.team}.name")
        self.text(face, "team", team_name, tkey, colour="#ffffff", valign="middle")
        return face

    def action(self, a: Action) -> Face:
        face = self._new(a.id, a.id, "action")
        colour = self.team_colour.get(a.team, "#555555")
        t = face.template
        self._frame(face, colour, (4.5 * MM, 4.5 * MM, t.width - 9 * MM, 59 * MM))
        face.ops.append(Circle(10 * MM, 79 * MM, 6.2 * MM, fill=PAPER, stroke=_darken(colour, 0.3), lw=1))
        num = str(a.order)
        size = 17.0 if len(num) < 2 else 15.0
        w = self.book.width(num, self.book.chain(self.locale, "number"), size)
        face.ops.append(Text(10 * MM - w / 2, 79 * MM - size * 0.36, num, self.locale, "number", size, INK))
        name, key = self.card_text(a.id, "name")
        self.text(face, "name", name, key, colour="#ffffff", valign="middle")
        f = t.fields["type"]
        face.ops.append(Rect(f.x, f.y, f.w, f.h, fill=_darken(colour, 0.35), r=1 * MM))
        label, lkey = self.ui(f"type.{a.type}")
        self.text(face, "type", label, lkey, colour="#ffffff", valign="middle")
        text, tkey = self.card_text(a.id, "text")
        self.text(face, "text", text, tkey)
        return face

    def event(self, e: Event, copy: int) -> Face:
        face_id = e.copy_ids()[copy]
        face = self._start(face_id, e.id, "event", DECK_COLOURS["event"], (4.5 * MM, 19 * MM, 54 * MM, 50 * MM))
        t = face.template
        if e.instinct:
            f = t.fields["instinct"]
            face.ops.append(Rect(f.x, f.y, f.w, f.h, fill="#c9a227", r=f.h / 2))
            label, lkey = self.ui("instinct")
            self.text(face, "instinct", label, lkey, colour=INK, valign="middle")
            body = t.fields["text"].at(t.fields["text"].x, t.fields["text"].y, h=t.fields["text"].h - 3 * MM)
        else:
            body = t.fields["text"]
        text, tkey = self.card_text(e.id, "text")
        self.text(face, "text", text, tkey, box=body)
        # bottom row: spawn boxes left to right, then the move box
        bw, bh, y = 16 * MM, 12 * MM, 4.5 * MM
        xs = [5 * MM, 23.5 * MM, 42 * MM]
        for i, box in enumerate(e.spawn):
            c = TERRAIN_COLOURS[box.colour]
            face.ops.append(Rect(xs[i], y, bw, bh, fill=c, stroke="#ffffff", lw=0.8, r=1 * MM))
            icon = f"spawn-{box.severity}"
            s = 10 * MM if box.severity == "major" else 7.5 * MM
            face.ops.append(Icon(icon, xs[i] + (bw - s) / 2, y + (bh - s) / 2, s, "#ffffff"))
        move = e.moves[copy]
        if move is not None:
            face.ops.append(Rect(xs[2], y, bw, bh, fill="#d9d4c7", stroke="#ffffff", lw=0.8, r=1 * MM))
            face.ops.append(Icon(move.icon, xs[2] + 1 * MM, y + 2 * MM, 8 * MM, INK))
            face.ops.append(Icon(f"move-{move.type}", xs[2] + 9 * MM, y + 3 * MM, 6 * MM, INK))
        return face

    def _terrain_marker(self, face: Face, p: Placement, x: float, y: float, side: str) -> None:
        terrain = self.set.cards.get(p.terrain)
        colour = TERRAIN_COLOURS.get(terrain.colour, "#888888") if isinstance(terrain, Terrain) else "#888888"
        w, h = 26.5 * MM, 9.5 * MM
        face.ops.append(Rect(x, y, w, h, fill=PAPER, stroke=colour, lw=1.4, r=1.2 * MM))
        sw = 6 * MM
        sx = x if side == "left" else x + w - sw
        face.ops.append(Rect(sx, y, sw, h, fill=colour, r=1.2 * MM))
        num = str(p.position)
        face.ops.append(Text(sx + 1.0 * MM, y + h - 4.2 * MM, num, self.locale, "number", 9, "#ffffff"))
        face.ops.append(Icon("arrow-down" if p.count_from == "top" else "arrow-up", sx + 0.9 * MM, y + 0.6 * MM, 4 * MM, "#ffffff"))
        name, key = self.card_text(p.terrain, "name")
        fname = "terrain_left" if side == "left" else "terrain_right"
        f = face.template.fields[fname]
        tx = x + sw + 0.8 * MM if side == "left" else x + 0.8 * MM
        self.text(face, fname, name, key, box=f.at(tx, y + 1.2 * MM, w - sw - 1.6 * MM, h - 2.4 * MM), valign="middle")

    def _markers(self, face: Face, placements: tuple[Placement, ...]) -> None:
        t = face.template
        rows = {"left": 0, "right": 0}
        for p in placements:
            i = rows[p.side]
            rows[p.side] += 1
            y = 62.5 * MM - i * 11 * MM
            x = 4 * MM if p.side == "left" else t.width - 4 * MM - 26.5 * MM
            self._terrain_marker(face, p, x, y, p.side)

    def _blips(self, face: Face, blips: tuple[int, int]) -> None:
        t = face.template
        for i, n in enumerate(blips):
            x = 5 * MM if i == 0 else t.width - 17 * MM
            face.ops.append(Rect(x, 4 * MM, 12 * MM, 7 * MM, fill="#0f1a20", stroke="#9fb4c0", lw=0.6, r=1 * MM))
            face.ops.append(Icon("blip", x + 0.8 * MM, 4.8 * MM, 5.4 * MM, "#9fe0a8"))
            face.ops.append(Text(x + 7 * MM, 5.6 * MM, str(n), self.locale, "number", 11, "#ffffff"))

    def location(self, loc: Location) -> Face:
        face = self._start(loc.id, loc.id, "location", DECK_COLOURS["location"], (4.5 * MM, 11.5 * MM, 54 * MM, 39.5 * MM))
        t = face.template
        self._badge(face, t.width - 10 * MM, 80.5 * MM, 10 * MM, 8 * MM, loc.tier, 12)
        self._markers(face, loc.terrain)
        label, lkey = self.ui(f"trigger.{loc.trigger}")
        self.text(face, "trigger", label, lkey, colour="#7a1e16")
        text, tkey = self.card_text(loc.id, "text")
        if loc.win is not None:
            self.text(face, "text", text, tkey)
            f = t.fields["win_label"]
            face.ops.append(Line(f.x, f.y + f.h + 0.8 * MM, f.x + f.w, f.y + f.h + 0.8 * MM, "#7a1e16", 0.6))
            wl, wkey = self.ui("win")
            self.text(face, "win_label", wl, wkey, colour="#7a1e16")
            wt, wtkey = self.card_text(loc.id, "win_text")
            self.text(face, "win_text", wt, wtkey)
        else:
            full = t.fields["text"]
            self.text(face, "text", text, tkey, box=full.at(full.x, 12.5 * MM, h=32.5 * MM))
        self._blips(face, loc.blips)
        return face

    def setup(self, st: SetupCard) -> Face:
        face = self._start(st.id, st.id, "setup", DECK_COLOURS["setup"], (4.5 * MM, 11.5 * MM, 54 * MM, 39.5 * MM))
        t = face.template
        players = " · ".join(str(p) for p in st.players)
        self._badge(face, t.width - 12 * MM, 80.5 * MM, 14 * MM, 8 * MM, players, 11)
        self._markers(face, st.terrain)
        f = t.fields["label"]
        rows = [("players", players), ("formation", str(st.formation_size)),
                ("spawn.major", str(st.major)), ("spawn.minor", str(st.minor)),
                ("deck", "  ".join(st.deck))]
        for i, (ui_key, value) in enumerate(rows):
            y = 44 * MM - i * 6.2 * MM
            label, lkey = self.ui(ui_key)
            self.text(face, "label", label, lkey, box=f.at(7 * MM, y, w=27 * MM, h=5 * MM), valign="middle")
            if ui_key.startswith("spawn."):
                face.ops.append(Icon(ui_key.replace(".", "-"), 35 * MM, y + 0.3 * MM, 4.4 * MM, INK))
            face.ops.append(Text(41 * MM, y + 1.3 * MM, value, self.locale, "number", 10, INK))
        self._blips(face, st.blips)
        return face

    def terrain(self, tr: Terrain) -> Face:
        face = self._start(tr.id, tr.id, "terrain", DECK_COLOURS["terrain"], (4.5 * MM, 6.5 * MM, 54 * MM, 52 * MM) if tr.effects else None)
        t = face.template
        colour = TERRAIN_COLOURS[tr.colour]
        # colour bars: how many boxes of this colour the event deck spawns at
        for i in range(tr.bars):
            face.ops.append(Rect(6 * MM + i * 13 * MM, 62 * MM, 11 * MM, 8 * MM, fill=colour, stroke="#ffffff", lw=0.8, r=1 * MM))
        if tr.effects:
            label, lkey = self.ui("activate")
            self.text(face, "activate", label, lkey, colour="#7a1e16")
            text, tkey = self.card_text(tr.id, "text")
            self.text(face, "text", text, tkey)
        elif not self.picture(face, tr, 8 * MM, 12 * MM, t.width - 16 * MM, 42 * MM):
            face.ops.append(Rect(8 * MM, 12 * MM, t.width - 16 * MM, 42 * MM, fill=colour, r=3 * MM))
        return face

    def genestealer(self, g: Genestealer) -> Face:
        colour = DECK_COLOURS["brood_lord" if g.brood_lord else "genestealer"]
        face = self._start(g.id, g.id, "genestealer", colour, (4.5 * MM, 5 * MM, 54 * MM, 28 * MM) if g.brood_lord else None)
        t = face.template
        if g.brood_lord:
            for i, icon in enumerate(g.icons):
                face.ops.append(Circle(18 * MM + i * 27 * MM, 53 * MM, 11 * MM, fill=_lighten(colour, 0.15), stroke="#d8c8e8", lw=1))
                face.ops.append(Icon(icon, 10.5 * MM + i * 27 * MM, 45.5 * MM, 15 * MM, "#f0e6f8"))
            if self.loc.has(f"{g.id}.text"):
                text, tkey = self.card_text(g.id, "text")
                self.text(face, "text", text, tkey)
        else:
            if not self.picture(face, g, 8 * MM, 22 * MM, t.width - 16 * MM, 48 * MM):
                face.ops.append(Circle(t.width / 2, 46 * MM, 20 * MM, fill=_lighten(colour, 0.12), stroke="#d8c8e8", lw=1))
                face.ops.append(Icon(g.icons[0], t.width / 2 - 14 * MM, 32 * MM, 28 * MM, "#f0e6f8"))
            face.ops.append(Rect(4.5 * MM, 4.5 * MM, 11 * MM, 11 * MM, fill=PAPER, r=1.2 * MM))
            face.ops.append(Icon(g.icons[0], 5.5 * MM, 5.5 * MM, 9 * MM, INK))
        return face

    def reference(self) -> Face:
        face = self._new("quick_reference", "quick_reference", "reference")
        t = face.template
        self._frame(face, DECK_COLOURS["reference"], (3.5 * MM, 3.5 * MM, t.width - 7 * MM, 72.5 * MM))
        title, key = self.ui("ref.title")
        self.text(face, "name", title, key, colour="#ffffff", valign="middle")
        head = t.fields["heading"]
        step = t.fields["step"]
        blocks: list[tuple[Block, str]] = []
        for section, steps in (("ref.round", 4), ("ref.travel", 2)):
            text, k = self.ui(section)
            blocks.append((Block(text, Style(self.locale, "bold", 1.1), ratio=head.size / step.size, gap_after=0.15), f"ui:{section}"))
            for i in range(1, steps + 1):
                text, k = self.ui(f"{section}.{i}")
                blocks.append((Block(text, Style(self.locale, "body", step.leading), gap_after=0.35), f"ui:{section}.{i}"))
        box = step.at(5 * MM, 5 * MM, t.width - 10 * MM, 69.5 * MM)
        self.column(face, "steps", blocks, box)
        return face

    # ------------------------------------------------------------------ backs
    def back(self, deck: str, tier: str | None = None) -> Face:
        key = f"{deck}:{tier or ''}"
        if key in self._backs:
            return self._backs[key]
        face = self._new(f"back:{key}", f"back:{deck}", "back")
        t = face.template
        colour = DECK_COLOURS.get(deck, "#333333")
        self._frame(face, colour, None)
        for inset, shade in ((5, 0.18), (8, 0.1)):
            face.ops.append(Rect(inset * MM, inset * MM, t.width - 2 * inset * MM, t.height - 2 * inset * MM,
                                 stroke=_lighten(colour, 0.4 + shade), lw=0.8, r=2 * MM))
        face.ops.append(Circle(t.width / 2, t.height * 0.68, 10 * MM, stroke=_lighten(colour, 0.5), lw=1.2))
        icon = {"event": "skull", "genestealer": "blip", "brood_lord": "head", "location": "arrow-up",
                "setup": "arrow-up", "terrain": "support", "action": "support", "scenario": "skull"}.get(deck, "skull")
        face.ops.append(Icon(icon, t.width / 2 - 7 * MM, t.height * 0.68 - 7 * MM, 14 * MM, _lighten(colour, 0.6)))
        title, tkey = self.ui(f"back.{deck}")
        self.text(face, "title", title, tkey, colour="#ffffff", valign="middle")
        if tier:
            sub = f"{self.loc.ui('tier')} {tier}"
            self.text(face, "sub", sub, "ui:tier", colour="#c9a227", valign="middle")
        self._backs[key] = face
        return face

    # ------------------------------------------------------------------ order
    def items(self) -> list[PrintItem]:
        """Every physical card in print order, each with the face behind it."""
        s = self.set
        out: list[PrintItem] = []
        for m in s.of_kind(Marine):
            out.append(PrintItem(self.marine(m, "left"), self.marine(m, "right"), "marine"))
        for a in sorted(s.of_kind(Action), key=lambda a: a.order):
            out.append(PrintItem(self.action(a), self.back("action"), "action"))
        for e in s.of_kind(Event):
            for i in range(e.quantity):
                out.append(PrintItem(self.event(e, i), self.back("event"), "event"))
        for g in s.of_kind(Genestealer):
            deck = "brood_lord" if g.brood_lord else "genestealer"
            face = self.genestealer(g)
            for _ in range(g.quantity):
                out.append(PrintItem(face, self.back(deck), deck))
        for tr in s.of_kind(Terrain):
            out.append(PrintItem(self.terrain(tr), self.back("terrain"), "terrain"))
        for loc in s.of_kind(Location):
            face = self.location(loc)
            for _ in range(loc.quantity):
                out.append(PrintItem(face, self.back("location", loc.tier), "location"))
        for st in s.of_kind(SetupCard):
            out.append(PrintItem(self.setup(st), self.back("setup"), "setup"))
        return out

    def extras(self) -> list[PrintItem]:
        """Cards that are not part of the counted set (the quick reference)."""
        if self.set.game != "death-angel":
            return []
        return [PrintItem(self.reference(), self.reference(), "reference")]


def bad_fits(faces: list[Face]) -> list[FieldFit]:
    seen: set[tuple[str, str, str]] = set()
    out = []
    for face in faces:
        for f in face.fits:
            k = (f.card, f.field, f.key)
            if not f.ok and k not in seen:
                seen.add(k)
                out.append(f)
    return out

