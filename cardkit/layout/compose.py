"""Card faces as draw operations: a localized card + the set's face data -> ops.

The faces of a set are data (``cards/<set>/faces.yaml``, read by
:mod:`cardkit.layout.faces`, documented in ``docs/authoring.md``); this module
is the one engine that draws them.  Every text placed on a card goes through
:meth:`Composer.text`, which fits it with :mod:`cardkit.layout.textfit` and
records a :class:`FieldFit`.  The PDF builder draws the ops; the translation
fit check reads the fits.  Both come from this one code path.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardkit.errors import CardkitError, Issue
from cardkit.strings.localize import Localizer
from cardkit.layout.binding import (
    MISSING,
    card_scope,
    lookup,
    render,
    set_scope,
    truthy,
)
from cardkit.layout.colour import INK, PAPER, parse_cmyk
from cardkit.layout.elements import KINDS
from cardkit.layout.fonts import FontBook
from cardkit.layout.ops import Group, Icon, Op, Rect, Text
from cardkit.layout.svgicons import SvgIcon
from cardkit.layout.textfit import (
    Block,
    ColumnResult,
    FitResult,
    Style,
    block_height,
    fit,
    fit_column,
)
from cardkit.layout.units import length
from cardkit.load.bounds import MAX_ELEMENTS, MAX_LENGTH_PT, MAX_REPEAT
from cardkit.model import Card, CardSet

@dataclass(frozen=True)
class Field:
    """A text box: position, size and the style its text is fitted with."""

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

    def at(self, x: float, y: float, w: float | None = None, h: float | None = None) -> Field:
        return Field(x, y, self.w if w is None else w, self.h if h is None else h, self.role, self.size,
                     self.min, self.align, self.max_lines, self.leading)


@dataclass(frozen=True)
class Template:
    """A face's size and its named text boxes (the first box of each name; then
    the file's text styles by name, for texts a plugin element places)."""

    name: str
    width: float
    height: float
    fields: dict[str, Field]


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
    id: str  # physical face id: "<card>#2" (a copy), "<card>:left" (a named side), "back:<deck>:<variant>"
    card: str
    template: Template
    ops: list[Op] = field(default_factory=list)
    fits: list[FieldFit] = field(default_factory=list)
    bleed_colour: str = PAPER
    book: FontBook | None = field(default=None, compare=False, repr=False)  # the fonts it was measured with


@dataclass
class PrintItem:
    """One physical card: its front, and the back printed behind it."""

    front: Face
    back: Face | None
    deck: str


def _cmyk_text(inks: tuple[float, ...]) -> str:
    return "cmyk({})".format(", ".join(f"{round(v * 100, 2):g}" for v in inks))


def lighten(hex_colour: str, amount: float) -> str:
    """Mixed with white: each RGB channel towards 255, or each ink of a ``cmyk(...)`` colour towards 0."""
    inks = parse_cmyk(hex_colour)
    if inks is not None:
        return _cmyk_text(tuple(v * (1 - amount) for v in inks))
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    mix = [round(c + (255 - c) * amount) for c in (r, g, b)]
    return "#{:02x}{:02x}{:02x}".format(*mix)


def darken(hex_colour: str, amount: float) -> str:
    """Mixed with black: each RGB channel towards 0, or a ``cmyk(...)`` colour's K towards 100 %."""
    inks = parse_cmyk(hex_colour)
    if inks is not None:
        c, m, y, k = inks
        return _cmyk_text((c, m, y, 1 - (1 - k) * (1 - amount)))
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(*[round(c * (1 - amount)) for c in (r, g, b)])


class ElementContext:
    """What a plugin element gets: the face being drawn, the card's scope and
    the composer's text code (see ``docs/authoring.md``, "Plugin elements")."""

    def __init__(self, composer: Composer, face: Face, scope: dict[str, Any]) -> None:
        self.composer, self.face, self.scope = composer, face, scope
        self.ops = face.ops
        self.locale = composer.locale
        self.book = composer.book
        self.options = composer.options
        self.fields: Mapping[str, Any] = scope

    def style(self, name: str) -> Field:
        """A named text style of the face file, as a box at (0, 0)."""
        return self.composer.field_box(self.composer.faces.styles[name], {}, (0.0, 0.0))

    def text(self, name: str, text: str, key: str, box: Field, colour: str = INK, valign: str = "top") -> FitResult:
        return self.composer.text(self.face, name, text, key, box=box, colour=colour, valign=valign)

    def ui(self, key: str, **values: object) -> tuple[str, str]:
        return self.composer.ui(key, **values)

    def card_string(self, path: str) -> tuple[str, str]:
        """The localized string of this card at ``path`` (msgctxt ``<card id>.<path>``)."""
        key = f"{self.face.card}.{path}"
        return self.composer.loc.card(key), key


def icon_op(svg_icons: Mapping[str, SvgIcon], name: str, x: float, y: float, size: float, colour: str) -> Op:
    """The icon ``name`` at (x, y): the set's SVG icon of that name (drawn as shapes
    when it is a shape SVG, else through svglib), else cardkit's own icon."""
    svg = svg_icons.get(name)
    if svg is not None and svg.shapes:
        return Icon(name, x, y, size, colour, shapes=svg.shapes)
    if svg is not None:
        return Group((svg.op(size, colour),), dx=x, dy=y)
    return Icon(name, x, y, size, colour)


class Composer:
    """Lays out every face of a card set in one locale from the set's face data."""

    def __init__(self, card_set: CardSet, localizer: Localizer, faces: Any, book: FontBook | None = None,
                 art: Callable[[str], Any] | None = None, options: Mapping[str, Any] | None = None) -> None:
        self.art_loader = art
        self.set = card_set
        self.loc = localizer
        self.locale = localizer.locale
        self.book = book or (faces.font_book() if hasattr(faces, "font_book") else FontBook())
        self.faces = faces
        self.options = dict(options or {})
        self.set_data = set_scope(card_set)
        self.inline_icons = frozenset(getattr(faces, "svg_icons", None) or ())  # the set's SVG icons, inline tokens too
        self._backs: dict[str, Face] = {}
        self._templates: dict[str, Template] = {}
        self._drawn = 0  # elements drawn on the current face (at most MAX_ELEMENTS)

    # ------------------------------------------------------------------ text
    def text(self, face: Face, fieldname: str, text: str, key: str, box: Field | None = None,
             colour: str = INK, valign: str = "top") -> FitResult:
        f = box or face.template.fields[fieldname]
        style = Style(self.locale, f.role, f.leading, f.align, f.max_lines, colour)
        result = fit(text, style, f.w, f.h, f.size, f.min, self.book, icons=self.inline_icons)
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
                    ops.append(self._icon_op(p.value, x0 + p.x + (p.width - s) / 2, y - size * 0.16, s, style.colour))
                elif p.value.strip():
                    ops.append(Text(x0 + p.x, y, p.value, self.locale, p.role, size, style.colour))
            y -= lead
        return top_y - block_h

    def column(self, face: Face, fieldname: str, blocks: list[tuple[Block, str]], box: Field, colour: str = INK) -> ColumnResult:
        """Flow several paragraphs in one box at one shared size."""
        result = fit_column([b for b, _ in blocks], box.w, box.h, box.size, box.min, self.book, icons=self.inline_icons)
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

    def ui(self, key: str, **values: object) -> tuple[str, str]:
        return self.loc.ui(key, **values), f"ui:{key}"

    # -------------------------------------------------------------- binding
    def length(self, value: Any, scope: dict[str, Any]) -> float:
        """A length of the face file in points, in ``scope`` (``W``, ``H``, ``i``, ``n``); M011 past 200in."""
        v = length(value, scope)
        if abs(v) > MAX_LENGTH_PT:  # (a length over the repeat index or a card number)
            raise CardkitError(f"length {str(value)[:40]!r} is {v:.4g}pt here; at most {MAX_LENGTH_PT:.0f}pt (200in) either way",
                               code="M011")
        return v

    def colour(self, spec: Any, scope: dict[str, Any], face_colours: dict[str, str]) -> str | None:
        """A colour: ``#rrggbb``, a palette or face colour name, or a mapping
        (``map``/``by``, ``from``, ``colour``) with ``lighten``/``darken``."""
        if spec is None:
            return None
        if isinstance(spec, str):
            if spec.startswith(("#", "cmyk(")):
                return spec
            if spec in face_colours:
                return face_colours[spec]
            if spec not in self.faces.palette:  # (a name from card data, or a map's value)
                raise CardkitError(f"{spec[:40]!r} is not a colour (#rrggbb, or a palette or face colour name)", code="M015")
            return str(self.faces.palette[spec])
        base: str | None
        if "map" in spec:
            value = lookup(scope, render(spec["by"], scope, self.set.cards), self.set.cards)
            if spec["map"] not in self.faces.maps:
                raise CardkitError(f"unknown colour map {spec['map'][:40]!r}", code="M003")
            table = self.faces.maps[spec["map"]]
            found = table.get(str(value)) if value is not MISSING else None
            base = self.colour(found if found is not None else spec.get("default", "#888888"), scope, face_colours)
        elif "from" in spec:
            value = lookup(scope, render(spec["from"], scope, self.set.cards), self.set.cards)
            base = str(value) if value is not MISSING and value is not None else self.colour(spec.get("default", "#888888"), scope, face_colours)
            if base is None or not _is_hex(base):
                raise CardkitError(f"field {spec['from'][:40]!r} holds {str(base)[:40]!r}, which is not a #rrggbb colour",
                                   code="M015")
        else:
            base = self.colour(spec["colour"], scope, face_colours)
        assert base is not None
        if "lighten" in spec:
            base = lighten(base, float(spec["lighten"]))
        if "darken" in spec:
            base = darken(base, float(spec["darken"]))
        return base

    def condition(self, el: Mapping[str, Any], scope: dict[str, Any]) -> bool:
        if "if" in el and not self._test(el["if"], scope):
            return False
        if "unless" in el and self._test(el["unless"], scope):
            return False
        return True

    def _test(self, cond: Any, scope: dict[str, Any]) -> bool:
        if isinstance(cond, str):
            return truthy(lookup(scope, cond, self.set.cards))
        value = lookup(scope, cond["field"], self.set.cards)
        if "equals" in cond:
            return value is not MISSING and value == cond["equals"]
        if "in" in cond:
            return value is not MISSING and value in cond["in"]
        return truthy(value)

    def repeats(self, el: Mapping[str, Any], scope: dict[str, Any]) -> list[dict[str, Any]]:
        """The scopes an element is drawn in: once, or once per item of ``repeat``
        (a list field, or an integer count) that passes ``where``."""
        if "repeat" not in el:
            return [scope] if self.condition(el, scope) else []
        value = lookup(scope, el["repeat"], self.set.cards)
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if value is MISSING or value is None:
            items: list[Any] = []
        elif isinstance(value, int):
            if value > MAX_REPEAT:
                raise CardkitError(f"`repeat: {el['repeat'][:40]}` is {value:,} here; at most {MAX_REPEAT:,}", code="M017")
            items = list(range(value))
        elif isinstance(value, (list, tuple)):
            if len(value) > MAX_REPEAT:
                raise CardkitError(f"`repeat: {el['repeat'][:40]}` has {len(value):,} items here; at most {MAX_REPEAT:,}",
                                   code="M017")
            items = list(value)
        else:
            raise CardkitError(f"`repeat: {el['repeat'][:40]}` needs a list or a whole number, not {type(value).__name__}",
                               code="M017")
        out: list[dict[str, Any]] = []
        for item in items:
            sub = dict(scope)
            sub["item"] = item
            if "where" in el and not self._test(el["where"], sub):
                continue
            sub["i"] = len(out)
            if self.condition(el, sub):
                out.append(sub)
        for sub in out:
            sub["n"] = len(out)
        return out

    def string(self, spec: Mapping[str, Any], scope: dict[str, Any]) -> tuple[str, str]:
        """A text source: ``field`` (this card's string), ``string`` (any catalog
        string), ``ui`` (an interface string, with ``args``), ``value`` (data,
        not translated) or ``join`` (several, ``sep`` between); ``format``
        wraps the text (``"<b>{}</b>"``)."""
        cards = self.set.cards
        if "field" in spec:
            key = f"{scope['id']}.{render(spec['field'], scope, cards)}"
            text = _known(self.loc.card, key)
        elif "string" in spec:
            key = render(spec["string"], scope, cards)
            text = _known(self.loc.card_n, key, _count(render(spec["count"], scope, cards))) if "count" in spec \
                else _known(self.loc.card, key)
        elif "ui" in spec:
            k = render(spec["ui"], scope, cards)
            args = {a: render(v, scope, cards) for a, v in (spec.get("args") or {}).items()}
            if "count" in spec:  # a plural message: the form the number takes
                text = _known(self.loc.ui_n, k, _count(render(spec["count"], scope, cards)), **args)
            else:
                text = _known(self.loc.ui, k, **args)
            key = f"ui:{k}"
        elif "value" in spec:
            text, key = render(spec["value"], scope, cards), ""
        else:
            parts: list[tuple[str, str]] = []
            for part in spec["join"]:
                for sub in self.repeats(part, scope):
                    t, k = self.string(part, sub)
                    parts.append((t, k if part.get("keyed", True) else ""))
            text = spec.get("sep", "").join(t for t, _ in parts)
            key = ",".join(k for _, k in parts if k)
        if "format" in spec:
            text = spec["format"].replace("{}", text)
        return text, key

    def field_box(self, el: Mapping[str, Any], scope: dict[str, Any], origin: tuple[float, float]) -> Field:
        """The text box of a ``text`` or ``column`` element (or a style): its ``style``, then its own keys."""
        st = dict(self.faces.styles[el["style"]]) if "style" in el else {}
        st.update(el)
        box = st.get("box", [0, 0, 0, 0])
        L = self.length
        return Field(origin[0] + L(box[0], scope), origin[1] + L(box[1], scope), L(box[2], scope), L(box[3], scope),
                     st.get("role", "body"), L(st.get("size", 9), scope), L(st.get("min", st.get("size", 9)), scope),
                     st.get("align", "left"), int(st.get("max_lines", 0)), float(st.get("leading", 1.18)))

    # -------------------------------------------------------------- elements
    def draw(self, face: Face, elements: list[Mapping[str, Any]], scope: dict[str, Any], colours: dict[str, str],
             origin: tuple[float, float] = (0.0, 0.0)) -> None:
        for el in elements:
            try:
                subs = self.repeats(el, scope)
            except CardkitError as exc:
                raise self._relocated(exc, face, el) from None
            for sub in subs:
                self.element(face, el, sub, colours, origin)

    def element(self, face: Face, el: Mapping[str, Any], s: dict[str, Any], colours: dict[str, str],
                origin: tuple[float, float]) -> None:
        self._drawn += 1
        if self._drawn > MAX_ELEMENTS:
            raise CardkitError(self._located(f"face '{face.template.name}' of {face.card} draws more than {MAX_ELEMENTS:,} "
                                             "elements (every `use` and `repeat` counted)", "M014", el))
        try:
            self._element(face, el, s, colours, origin)
        except CardkitError as exc:
            raise self._relocated(exc, face, el) from None

    def _located(self, message: str, code: str, el: Mapping[str, Any] | None, path: tuple[str | int, ...] = ()) -> Issue:
        """A problem met while drawing element ``el`` (or the face at ``path``), located in the face file."""
        locate = getattr(self.faces, "issue", None)
        return locate(code, message, el, path) if locate is not None else Issue(code, message)

    def _relocated(self, exc: CardkitError, face: Face, el: Mapping[str, Any] | None,
                   path: tuple[str | int, ...] = ()) -> CardkitError:
        """``exc`` with each problem that has no place yet put at ``el`` (data-dependent lengths, repeats, colours)."""
        if all(i.file for i in exc.issues):
            return exc
        return CardkitError([i if i.file else self._located(f"face '{face.template.name}' of {face.card}: {i.message}",
                                                            i.code, el, path) for i in exc.issues])

    def _element(self, face: Face, el: Mapping[str, Any], s: dict[str, Any], colours: dict[str, str],
                 origin: tuple[float, float]) -> None:
        kind = KINDS.get(el["type"])
        if kind is None:  # (the schema lists the same kinds; a face file built in code may not have been checked)
            raise CardkitError(f"unknown element type {str(el['type'])[:40]!r} (one of: {', '.join(KINDS)})", code="M002")
        kind.draw(self, face, el, s, colours, origin)

    def icon_name(self, spec: Any, scope: dict[str, Any]) -> str:
        """An icon name: a template (``"arrow-{facing}"``) or a map lookup (``{map, by, default}``)."""
        if isinstance(spec, str):
            return render(spec, scope, self.set.cards)
        value = lookup(scope, render(spec["by"], scope, self.set.cards), self.set.cards)
        if spec["map"] not in self.faces.maps:
            raise CardkitError(f"unknown map {spec['map'][:40]!r}", code="M003")
        found = self.faces.maps[spec["map"]].get(str(value)) if value is not MISSING else None
        return str(found if found is not None else spec.get("default", ""))

    def place_icon(self, face: Face, name: str, x: float, y: float, size: float, colour: str) -> None:
        """Draw icon ``name`` on ``face`` with its bottom-left corner at (x, y)."""
        face.ops.append(self._icon_op(name, x, y, size, colour))

    def _icon_op(self, name: str, x: float, y: float, size: float, colour: str) -> Op:
        """The set's SVG icon of that name (a set's own icon wins over a built-in
        one), else the built-in icon; in an element and inline in text alike."""
        return icon_op(self.faces.svg_icons, name, x, y, size, colour)

    def card_art(self, scope: dict[str, Any], fieldname: str) -> str | None:
        card = self.set.cards.get(str(scope.get("id")))
        if card is not None and fieldname == "art":
            return card.art
        value = lookup(scope, fieldname, self.set.cards)
        return None if value is MISSING or not value else str(value)

    # ----------------------------------------------------------------- faces
    def template(self, name: str) -> Template:
        """The face's size and named text boxes: its own text elements, then
        those of the other side of the same card (front and back of a print
        entry share their boxes), then the file's text styles by name (for the
        texts a plugin element places).  Columns have no nominal box."""
        t = self._templates.get(name)
        if t is None:
            spec = self.faces.faces[name]
            W, H = length(spec["size"][0], {}), length(spec["size"][1], {})
            fields: dict[str, Field] = {}
            scope = {"W": W, "H": H, "i": 0, "n": 1}

            def collect(els: list[Mapping[str, Any]]) -> None:
                for el in els:
                    if el["type"] == "text" and el["name"] not in fields:
                        try:
                            fields[el["name"]] = self.field_box(el, scope, (0.0, 0.0))
                        except CardkitError:
                            pass  # a box that depends on repeat data: no nominal box
                    elif el["type"] == "group":
                        collect(el["elements"])
                    elif el["type"] == "use":
                        collect(self.faces.groups[el["group"]])

            collect(spec.get("elements", []))
            for entry in self.faces.print:
                sides = [entry.get("front"), entry.get("back")]
                if name in sides:
                    for other in sides:
                        if other and other != name and not self.faces.faces[other].get("back"):
                            collect(self.faces.faces[other].get("elements", []))
            for sname in self.faces.styles:
                if sname not in fields:
                    try:
                        fields[sname] = self.field_box({"style": sname}, scope, (0.0, 0.0))
                    except CardkitError as exc:  # (a style's size over W or H, when the file has no size of its own)
                        raise self._relocated(exc, Face(name, name, Template(name, W, H, {})), None, ("styles", sname)) from None
            t = self._templates[name] = Template(name, W, H, fields)
        return t

    def face(self, name: str, face_id: str, card_id: str, scope: dict[str, Any]) -> Face:
        """Draw face ``name`` for the card (or deck) whose names are ``scope``."""
        spec = self.faces.faces[name]
        t = self.template(name)
        self._drawn = 0
        scope = dict(scope)
        scope.update(spec.get("vars") or {})
        scope["W"], scope["H"], scope["set"] = t.width, t.height, self.set_data
        face = Face(face_id, card_id, t, book=self.book)
        colours: dict[str, str] = {}
        try:
            for cname, cspec in (spec.get("colours") or {}).items():
                colours[cname] = self.colour(cspec, scope, colours) or INK
            bg = self.colour(spec["background"], scope, colours) or PAPER if "background" in spec else PAPER
        except CardkitError as exc:
            raise self._relocated(exc, face, None, ("faces", name)) from None
        if "background" in spec:
            bleed = length(spec.get("bleed", 20), {})
            face.bleed_colour = bg
            face.ops.append(Rect(-bleed, -bleed, t.width + 2 * bleed, t.height + 2 * bleed, fill=bg))
        self.draw(face, spec.get("elements", []), scope, colours)
        return face

    def back(self, name: str, deck: str, variant: str | None) -> Face:
        key = f"{deck}:{variant or ''}"
        face = self._backs.get(key)
        if face is None:
            scope = {"deck": deck, "variant": variant or "", "id": f"back:{deck}"}
            face = self._backs[key] = self.face(name, f"back:{key}", f"back:{deck}", scope)
        return face

    # ------------------------------------------------------------------ order
    def items(self) -> list[PrintItem]:
        """Every physical card in print order, each with the face behind it, as
        the face file's ``print`` list says."""
        out: list[PrintItem] = []
        for entry in self.faces.print:
            kinds = set(entry["kinds"])
            cards = [c for c in self.set.cards.values() if c.kind in kinds]
            if "sort" in entry:
                cards.sort(key=lambda c: c.fields.get(entry["sort"], 0))
            for card in cards:
                out.extend(self._card_items(card, entry))
        return out

    def _card_items(self, card: Card, entry: Mapping[str, Any]) -> list[PrintItem]:
        deck = self.deck_of(card)
        scope = card_scope(card)
        scope["card_deck"] = deck  # ("deck" may also be a field of the card, meaning something else)
        back_name = entry.get("back")
        back_is_deck = back_name is not None and self.faces.faces[back_name].get("back", False)
        out = []

        def back_face(sc: dict[str, Any]) -> Face | None:
            if back_name is None:
                return None
            if back_is_deck:
                variant = render(f"{{{entry['back_variant']}}}", sc, self.set.cards) if "back_variant" in entry else None
                return self.back(back_name, deck, variant)
            return self.face(back_name, render(self.faces.faces[back_name].get("id", "{id}"), sc), card.id, sc)

        if entry.get("copies"):
            copies = card.fields.get(entry["copies"]) if isinstance(entry["copies"], str) else None
            for i in range(card.quantity):
                sc = dict(scope)
                sc["copy"] = copies[i] if isinstance(copies, list) else card.fields
                sc["copy_id"] = card.id if card.quantity == 1 else f"{card.id}#{i + 1}"
                front = self.face(entry["front"], render(self.faces.faces[entry["front"]].get("id", "{copy_id}"), sc), card.id, sc)
                out.append(PrintItem(front, back_face(sc), deck))
            return out
        front = self.face(entry["front"], render(self.faces.faces[entry["front"]].get("id", "{id}"), scope), card.id, scope)
        back = back_face(scope)
        for _ in range(card.quantity):
            out.append(PrintItem(front, back, deck))
        return out

    def deck_of(self, card: Card) -> str:
        """The deck a card is printed in (which back it gets): its kind's deck
        rule from ``kinds.yaml`` (``deck_when`` may send some cards of a kind to a back
        of its own), else the kind itself."""
        spec = self.set.kinds.get(card.kind)
        return spec.deck_of(card.fields) if spec is not None and hasattr(spec, "deck_of") else card.kind

    def extras(self) -> list[PrintItem]:
        """Cards that are not part of the counted set (a quick reference, say)."""
        out = []
        for entry in self.faces.extras:
            scope = {"id": entry["id"], "deck": entry["deck"]}
            front = self.face(entry["front"], entry["id"], entry["id"], scope)
            back = self.face(entry["back"], entry["id"], entry["id"], scope) if "back" in entry else None
            out.append(PrintItem(front, back, entry["deck"]))
        return out


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


def _known(lookup_string: Callable[..., str], key: str, *args: Any, **values: Any) -> str:
    """A catalog or interface string by key; one the set and cardkit do not have is M016
    (a templated key, an extra card's field), located by the caller at the element."""
    try:
        return lookup_string(key, *args, **values)
    except KeyError:
        raise CardkitError(f"reads string {key[:60]!r}, which the set does not have", code="M016") from None


def _is_hex(colour: str) -> bool:
    return len(colour) == 7 and colour[0] == "#" and all(c in "0123456789abcdefABCDEF" for c in colour[1:])


def _count(text: str) -> int:
    """The number a plural form is chosen by ("+3" and "3" are 3; anything else 0)."""
    try:
        return abs(int(text.strip().lstrip("+")))
    except ValueError:
        return 0
