"""A set's faces as data: ``cards/<set>/faces.yaml`` read, resolved and checked.

The file is validated by ``schemas/face.schema.json``; then ``extends`` (of
faces and of text styles) is resolved, and every name the faces use is
checked: faces named by the print list, palette colours and maps, icons,
plugin elements, length expressions, and every card field a face reads
(a field no card of the face's kinds has is an error).  Every problem is
reported at once, located ``path:line:col``.  The format is documented in
``docs/authoring.md``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardkit.errors import CardkitError, Issue, JsonPath
from cardkit.layout.binding import RESERVED, kind_field_names, template_paths
from cardkit.layout.colour import parse_cmyk
from cardkit.layout.fonts import MAX_FONT_BYTES, ROLES, FontBook, FontTable, register_font
from cardkit.layout.icons import ICONS
from cardkit.layout.elements import KINDS
from cardkit.layout.sizes import resolve_size, size_problem
from cardkit.layout.svgicons import SvgIcon, read_svg
from cardkit.layout.units import compile_length, length, names_in
from cardkit.load.bounds import (
    MAX_DEPTH,
    MAX_ELEMENTS,
    MAX_FONT_PT,
    MAX_LENGTH_PT,
    MAX_REPEAT,
    with_finite,
)
from cardkit.load.schema import short, validate_doc
from cardkit.load.yamlsafe import YamlDoc, YamlError, read_yaml_file
from cardkit.model import CardSet

FACE_FILE = "faces.yaml"
SCHEMA = "face.schema.json"
LENGTH_NAMES = frozenset({"W", "H", "i", "n"})
_LENGTH_KEYS = ("box", "at", "centre", "points", "r", "radius", "inset", "size", "min", "w", "h", "step", "baseline", "ratio")
_NESTED = ("elements", "blocks", "join")  # keys under which elements hold elements
_SOURCES = ("field", "string", "ui", "value", "join")  # where a text element, column block or join part takes its text
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


@dataclass(frozen=True)
class ImageTreatment:
    """What the face file's ``images:`` asks of every artwork (``image``
    elements) it prints, the printer-friendly variant's way to save ink:
    ``lighten`` moves each pixel that share of the way to white (0: as drawn,
    1: white), ``greyscale`` drops the colour, ``omit`` leaves the artwork and
    its backdrop out.  The default changes nothing.

    >>> ImageTreatment.of({"lighten": 0.6}), ImageTreatment.of(None).plain
    (ImageTreatment(lighten=0.6, greyscale=False, omit=False), True)
    """

    lighten: float = 0.0
    greyscale: bool = False
    omit: bool = False

    @classmethod
    def of(cls, spec: Mapping[str, Any] | None) -> ImageTreatment:
        """From the file's (schema-checked) ``images:`` mapping."""
        spec = spec or {}
        return cls(float(spec.get("lighten", 0.0)), bool(spec.get("greyscale", False)), bool(spec.get("omit", False)))

    @property
    def plain(self) -> bool:
        """True when the artwork prints as drawn."""
        return self == ImageTreatment()


@dataclass
class FaceBook:
    """The resolved face data of one set."""

    file: str
    palette: dict[str, str] = field(default_factory=dict)
    maps: dict[str, dict[str, str]] = field(default_factory=dict)
    styles: dict[str, dict[str, Any]] = field(default_factory=dict)
    faces: dict[str, dict[str, Any]] = field(default_factory=dict)
    print: list[dict[str, Any]] = field(default_factory=list)
    extras: list[dict[str, Any]] = field(default_factory=list)
    groups: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    svg_icons: dict[str, SvgIcon] = field(default_factory=dict)
    id_marks: dict[str, tuple[int, int]] = field(default_factory=dict)  # face name -> where its `id` is (P006)
    doc: YamlDoc | None = None  # the file as read: drawing and the print-quality checks locate their findings in it
    where: dict[int, JsonPath] = field(default_factory=dict)  # id() of each element mapping -> its path in the file
    included: list[tuple[Path, Any]] = field(default_factory=list)  # files read through `include`, with their stamps
    variant: str | None = None  # the variant drawn (None: the file as written)
    variants: list[str] = field(default_factory=list)  # the variants the file declares
    fonts: FontTable = field(default_factory=FontTable)  # the game's own fonts (`fonts:`), per locale and role
    images: ImageTreatment = field(default_factory=ImageTreatment)  # `images:`: lighten, greyscale or omit the artwork
    _font_book: FontBook | None = field(default=None, repr=False, compare=False)

    def font_book(self) -> FontBook:
        """The one font book of the set's faces: composing, the fit check and the PDF measure
        and draw with it (the game's own fonts first, then the vendored ones)."""
        if self._font_book is None:
            self._font_book = FontBook(table=self.fonts)
        return self._font_book

    def font_mark(self, locale: str, role: str) -> JsonPath:
        """Where in the file the game's font for ``role`` in ``locale`` is named (for coverage warnings)."""
        roles = (self.doc.data.get("fonts") or {}).get("roles") or {} if self.doc is not None else {}
        for key in (locale, locale.split("_")[0], "default"):
            if role in (roles.get(key) or {}):
                return ("fonts", "roles", key, role)
        return ("fonts",)

    def issue(self, code: str, message: str, el: Mapping[str, Any] | None = None, path: JsonPath = ()) -> Issue:
        """A problem found while drawing, located at element ``el`` of the file (or at ``path``)."""
        path = self.where.get(id(el), path) if el is not None else path
        return self.doc.issue(code, message, path) if self.doc is not None else Issue(code, message, file=self.file)


def _hops(table: Mapping[str, Any]) -> dict[str, int]:
    """How many ``extends`` lead from each entry to one that extends nothing
    (0 for a cycle's members: T003 reports those), found without recursion."""
    hops: dict[str, int] = {}
    for start in table:
        path: list[str] = []
        n: Any = start
        while isinstance(n, str) and n in table and n not in hops and n not in path:
            path.append(n)
            n = table[n].get("extends")
        if isinstance(n, str) and n in path:  # a cycle: its members count 0, those leading into it 1, 2, ...
            idx = path.index(n)
            hops.update(dict.fromkeys(path[idx:], 0))
            path, nxt = path[:idx], 1
        elif isinstance(n, str) and n in hops:
            nxt = hops[n] + 1
        else:  # the last one extends nothing (or an unknown name: M002)
            hops[path[-1]] = 0
            path, nxt = path[:-1], 1
        for m in reversed(path):
            hops[m] = nxt
            nxt += 1
    return hops


def _chain_issues(table: Mapping[str, Any], doc: YamlDoc, section: str) -> list[Issue]:
    """An ``extends`` chain longer than :data:`MAX_DEPTH` (M013), reported once,
    where it first goes too far."""
    hops = _hops(table)
    return [doc.issue("M013", f"{section[:-1]} {short(n)} starts a chain of {MAX_DEPTH + 1} `extends`; at most {MAX_DEPTH}",
                      (section, n, "extends")) for n in table if hops.get(n) == MAX_DEPTH + 1]


def _resolve(table: Mapping[str, Any], name: str, doc: YamlDoc, section: str, issues: list[Issue],
             seen: tuple[str, ...] = ()) -> dict[str, Any]:
    """``extends`` merged: keys override; a face's ``elements`` and ``vars``/``colours`` add to its base's."""
    spec = dict(table[name])
    base_name = spec.pop("extends", None)
    if base_name is None:
        return spec
    if base_name in seen + (name,):
        issues.append(doc.issue("T003", f"{section[:-1]} {short(name)} extends itself (via {' -> '.join(seen + (name, base_name))[:60]})",
                                (section, name, "extends")))
        return spec
    if base_name not in table:
        issues.append(doc.issue("M002", f"{section[:-1]} {short(name)} extends unknown {short(base_name)}", (section, name, "extends")))
        return spec
    base = _resolve(table, base_name, doc, section, issues, seen + (name,))
    merged = {**base, **spec}
    merged.pop("abstract", None)
    if "abstract" in spec:
        merged["abstract"] = spec["abstract"]
    for key in ("vars", "colours"):
        if key in base or key in spec:
            merged[key] = {**base.get(key, {}), **spec.get(key, {})}
    if section == "faces":
        merged["elements"] = list(base.get("elements", [])) + list(spec.get("elements", []))
        merged["_origins"] = list(base.get("_origins", [(base_name, i) for i in range(len(base.get("elements", [])))])) + \
            [(name, i) for i in range(len(spec.get("elements", [])))]
    return merged


_CACHE: dict[Any, tuple[CardSet, FaceBook]] = {}


def _stamp(path: Path) -> tuple[str, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (str(path.resolve()), st.st_mtime_ns, st.st_size)


def load_faces(root: Path, card_set: CardSet, variant: str | None = None) -> FaceBook:
    """Read and check ``faces.yaml`` of ``card_set`` (with the overrides of
    ``variant``, a name under its ``variants``); raise with every problem
    found.  A build composes each set once per locale: the checked file is
    kept while the file, the files it includes (and the card set it was
    checked against) are the same."""
    path = root / card_set.directory / FACE_FILE
    stamp = _stamp(path)
    key = (stamp, id(card_set), variant) if stamp else None
    hit = _CACHE.get(key) if key else None
    if hit is not None and hit[0] is card_set and all(_stamp(p) == s for p, s in hit[1].included):
        return hit[1]
    book = _load_faces(root, card_set, variant)
    if key:
        if len(_CACHE) >= 8:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = (card_set, book)
    return book


def _load_faces(root: Path, card_set: CardSet, variant: str | None = None) -> FaceBook:
    from cardkit.layout import facereuse as reuse

    set_dir = root / card_set.directory
    rel = f"{card_set.directory}/{FACE_FILE}"
    try:
        plain = read_yaml_file(set_dir / FACE_FILE, rel, root=root)
    except YamlError as exc:
        raise CardkitError(exc.issue) from None
    except FileNotFoundError:
        raise CardkitError(Issue("F001", f"the set has no face file {FACE_FILE}", file=rel)) from None

    def reader(path: Path, name: str) -> YamlDoc:
        return read_yaml_file(path, name, root=root)

    doc, problems, included = reuse.read_includes(plain, root, set_dir, reader)
    variants = reuse.variant_names(doc.data)
    if not problems:
        problems = reuse.apply_variant(doc, variant)
    if not problems:
        problems = reuse.expand_uses(doc.data, doc) + reuse.conditionals_in(doc.data, doc)
    problems = problems or with_finite(validate_doc(doc, SCHEMA), doc)
    if problems:
        raise CardkitError(problems)
    issues: list[Issue] = []
    data = doc.data
    book = FaceBook(rel, dict(data.get("palette", {})), {k: dict(v) for k, v in data.get("maps", {}).items()}, doc=doc)
    book.included = [(p, _stamp(p)) for p in included]
    book.variant, book.variants = variant, variants
    book.images = ImageTreatment.of(data.get("images"))
    raw_styles = data.get("styles", {})
    chains = _chain_issues(raw_styles, doc, "styles") + _chain_issues(data["faces"], doc, "faces")
    if chains:  # (resolving follows each chain)
        raise CardkitError(chains)
    book.styles = {n: _resolve(raw_styles, n, doc, "styles", issues) for n in raw_styles}
    raw_faces = data["faces"]
    for n in raw_faces:
        spec = _resolve(raw_faces, n, doc, "faces", issues)
        spec.setdefault("size", data.get("size"))
        problem = size_problem(spec["size"])
        if problem:  # (a file-wide size is reported once)
            issue = doc.issue("M070", problem, ("faces", n, "size") if "size" in raw_faces[n] else ("size",))
            if issue not in issues:
                issues.append(issue)
        spec["size"] = resolve_size(spec["size"])
        spec.setdefault("bleed", data.get("bleed", "20pt"))
        book.faces[n] = spec
    book.groups = {k: list(v) for k, v in data.get("groups", {}).items()}
    reuse.style_defaults([el for spec in book.faces.values() for el in spec.get("elements", [])], book.styles, book.groups)
    book.print = list(data.get("print", []))
    book.extras = list(data.get("extras", []))
    aliases: dict[str, str] = {}
    for name, path in (data.get("icons") or {}).items():
        from cardkit.load.files import resolve_reference

        if not path.endswith(".svg"):  # an alias: another name of an icon (a card database's [auto_fail])
            aliases[name] = path
            continue
        target = resolve_reference(root, set_dir, path)
        if target is None:
            issues.append(doc.issue("F002", f"icon path {short(path)} escapes the set folder", ("icons", name)))
            continue
        try:
            book.svg_icons[name] = read_svg(target, f"{card_set.directory}/{path}", name, root)
        except CardkitError as exc:  # a problem inside the SVG keeps its own line; the rest points at the entry
            issues.extend(i if i.line else doc.issue(i.code, i.message, ("icons", name)) for i in exc.issues)
    for name, aliased in aliases.items():
        if aliased in book.svg_icons:
            book.svg_icons[name] = book.svg_icons[aliased]
        elif aliased in ICONS:
            book.svg_icons[name] = SvgIcon(aliased, None, shapes=ICONS[aliased])
        elif aliased not in aliases or aliased == name:  # (an SVG that could not be read has its own error)
            if (data.get("icons") or {}).get(aliased, "").endswith(".svg"):
                continue
            builtin = ", ".join(sorted(ICONS))
            issues.append(doc.issue("M089", f"icon alias {short(name)} names {short(aliased)}, which is neither an "
                                    f"SVG icon under `icons` nor a built-in icon ({builtin})", ("icons", name)))
        else:
            issues.append(doc.issue("M089", f"icon alias {short(name)} names the alias {short(aliased)}: name the "
                                    f"icon itself ({short(aliases[aliased])})", ("icons", name)))
    book.fonts = _read_fonts(data.get("fonts") or {}, root, set_dir, card_set.directory, doc, issues)
    structure = structure_issues(book, doc)
    if structure:  # (the checks below walk every `use`: not through a cycle or a fan-out)
        raise CardkitError(list(dict.fromkeys(issues + structure)))
    book.where = element_paths(data)
    issues.extend(dict.fromkeys(check_faces(book, doc, card_set) + colour_map_issues(book, doc)
                                + extras_issues(book, doc, card_set)))
    issues.extend(file_name_issues(book, doc, card_set))
    if issues:
        raise CardkitError(issues)
    return book


# ----------------------------------------------------------------- fonts
def _read_fonts(spec: Mapping[str, Any], root: Path, set_dir: Path, set_rel: str, doc: YamlDoc,
                issues: list[Issue]) -> FontTable:
    """``fonts:``: the game's font files (paths inside the set folder, F002
    else; read with the size bound and checked readable by reportlab, M090)
    and, per locale and role, the chain of them (a name not under ``files``:
    M091).  Problems go to ``issues``."""
    from cardkit.load.files import read_project_file, resolve_reference

    names: dict[str, str] = {}
    sources: dict[str, str] = {}
    for name, rel in (spec.get("files") or {}).items():
        where: JsonPath = ("fonts", "files", name)
        target = resolve_reference(root, set_dir, rel)
        if target is None:
            issues.append(doc.issue("F002", f"font path {short(rel)} escapes the set folder", where))
            continue
        shown = f"{set_rel}/{rel}"
        try:
            data = read_project_file(target, shown, root=root, max_bytes=MAX_FONT_BYTES, too_large="M090")
            names[name] = register_font(data, shown)
        except CardkitError as exc:
            why = exc.issues[0].message
            issues.append(doc.issue("M090", f"font {short(name)} ({short(rel)}): {why}", where))
            continue
        sources[names[name]] = f"{name} ({rel})"
    chains = []
    for locale, roles in (spec.get("roles") or {}).items():
        row = []
        for role, chain in roles.items():
            fonts = [chain] if isinstance(chain, str) else list(chain)
            unknown = [f for f in fonts if f not in (spec.get("files") or {})]
            if unknown:
                issues.append(doc.issue("M091", f"font role {role} ({locale}) names {short(unknown[0])}, which is not "
                                        "under `fonts: files:`", ("fonts", "roles", locale, role)))
            if role not in ROLES:  # (the schema allows only these; kept for a schema copy that does not)
                issues.append(doc.issue("M091", f"unknown font role {short(role)} (roles: {', '.join(ROLES)})",
                                        ("fonts", "roles", locale, role)))
            row.append((role, tuple(names[f] for f in fonts if f in names)))
        chains.append((locale, tuple(row)))
    return FontTable(tuple(chains), tuple(sorted(sources.items())))


# ----------------------------------------------------------------- structure
def _children(el: Mapping[str, Any]) -> Iterator[tuple[str, list[Any]]]:
    for key in _NESTED:
        if isinstance(el.get(key), list):
            yield key, el[key]


def element_paths(data: Mapping[str, Any]) -> dict[int, JsonPath]:
    """Where each element mapping of a schema-valid face file is (by ``id``)."""
    out: dict[int, JsonPath] = {}

    def walk(elements: list[Any], path: JsonPath) -> None:
        for i, el in enumerate(elements):
            if isinstance(el, dict):
                out[id(el)] = path + (i,)
                for key, sub in _children(el):
                    walk(sub, path + (i, key))

    for name, spec in (data.get("faces") or {}).items():
        walk(spec.get("elements") or [], ("faces", name, "elements"))
    for name, elements in (data.get("groups") or {}).items():
        walk(elements, ("groups", name))
    return out


def _uses(elements: list[Any], path: JsonPath) -> Iterator[tuple[str, JsonPath]]:
    """``(group, path of the use)`` for every ``use`` in ``elements``, nested ones included."""
    for i, el in enumerate(elements):
        if el.get("type") == "use":
            yield el["group"], path + (i, "group")
        for key, sub in _children(el):
            yield from _uses(sub, path + (i, key))


def _repeat_factor(el: Mapping[str, Any], face_vars: Mapping[str, Any]) -> int:
    """How many times a repeat over a face variable draws (1 when it depends on card data)."""
    value = face_vars.get(el["repeat"]) if isinstance(el.get("repeat"), str) else None
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= MAX_REPEAT else 1


def structure_issues(book: FaceBook, doc: YamlDoc) -> list[Issue]:
    """Groups that use themselves (M012), elements nested deeper than
    :data:`MAX_DEPTH` (M013), faces that would draw more than
    :data:`MAX_ELEMENTS` elements once every ``use`` is expanded (M014), and
    repeats over a face variable above :data:`MAX_REPEAT` (M017).  Found
    without drawing: each group is measured once."""
    issues: list[Issue] = []
    graph = {g: list(_uses(els, ("groups", g))) for g, els in book.groups.items()}
    # cycles: depth-first, colouring groups; a use of a group on the current path closes a cycle
    state: dict[str, int] = {}  # 1 on the path, 2 done
    order: list[str] = []  # groups after every group they use (post-order)
    for start, first in graph.items():
        if state.get(start):
            continue
        stack: list[tuple[str, Iterator[tuple[str, JsonPath]]]] = [(start, iter(first))]
        state[start] = 1
        while stack:
            g, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[g] = 2
                order.append(g)
                stack.pop()
                continue
            target, where = nxt
            if target not in graph:
                continue  # (M002, reported by the element checks)
            if state.get(target) == 1:
                names = [n for n, _ in stack]
                loop = names[names.index(target):] + [target]
                issues.append(doc.issue("M012", f"element group {short(g)} uses {short(target)}, which uses it again "
                                        f"({' -> '.join(loop[:6])}{' ...' if len(loop) > 6 else ''})", where))
            elif not state.get(target):
                state[target] = 1
                stack.append((target, iter(graph[target])))
    if issues:
        return issues
    # depth and size of each group, measured once, after the groups it uses
    memo: dict[str, tuple[int, int]] = {}
    cap = MAX_ELEMENTS + 1

    def measure(elements: list[Any], face_vars: Mapping[str, Any]) -> tuple[int, int]:
        depth, count = 0, 0
        for el in elements:
            d, c = 1, 1
            for _, sub in _children(el):
                sd, sc = measure(sub, face_vars)
                d, c = max(d, sd + 1), c + sc
            if el.get("type") == "use" and el["group"] in memo:
                gd, gc = memo[el["group"]]
                d, c = max(d, gd + 1), c + gc
            depth, count = max(depth, d), min(cap, count + c * _repeat_factor(el, face_vars))
        return depth, count

    for g in order:
        memo[g] = measure(book.groups[g], {})
    # a group too deep or too large is reported once, where it starts to be (not at every group or face using it)
    too_deep = {g for g, (d, _) in memo.items() if d > MAX_DEPTH}
    too_big = {g for g, (_, c) in memo.items() if c > MAX_ELEMENTS}
    for g in order:
        used = {target for target, _ in graph[g]}
        if g in too_deep and not used & too_deep:
            issues.append(doc.issue("M013", f"element group {short(g)} nests groups, `use`, blocks or join parts "
                                    f"{short_number(memo[g][0])} levels deep; at most {MAX_DEPTH}", ("groups", g)))
        elif g in too_big and not used & too_big and g not in too_deep:
            issues.append(doc.issue("M014", f"element group {short(g)} draws more than {MAX_ELEMENTS:,} elements once every "
                                    "`use` is expanded", ("groups", g)))
    for fname, spec in book.faces.items():
        face_vars = spec.get("vars") or {}
        for el, path in _with_paths(spec, fname):
            value = face_vars.get(el["repeat"]) if isinstance(el.get("repeat"), str) else None
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value > MAX_REPEAT:
                issues.append(doc.issue("M017", f"face {short(fname)} repeats an element {short_number(value)} times "
                                        f"(`{el['repeat']}`); at most {MAX_REPEAT}", path + ("repeat",)))
        if {g for _, g in _face_uses(spec)} & (too_deep | too_big):
            continue  # (reported at the group)
        depth, count = measure(spec.get("elements") or [], face_vars)
        if depth > MAX_DEPTH:
            issues.append(doc.issue("M013", f"face {short(fname)} nests groups, `use`, blocks or join parts {short_number(depth)} "
                                    f"levels deep; at most {MAX_DEPTH}", ("faces", fname)))
        elif count > MAX_ELEMENTS:
            issues.append(doc.issue("M014", f"face {short(fname)} draws more than {MAX_ELEMENTS:,} elements once every `use` "
                                    f"is expanded", ("faces", fname)))
    return issues


def _with_paths(spec: Mapping[str, Any], fname: str) -> Iterator[tuple[dict[str, Any], JsonPath]]:
    """A face's own elements (nested ones included) with their paths in the file."""
    origins = spec.get("_origins", [(fname, i) for i in range(len(spec.get("elements", [])))])

    def walk(el: dict[str, Any], path: JsonPath) -> Iterator[tuple[dict[str, Any], JsonPath]]:
        yield el, path
        for key, sub in _children(el):
            for i, s in enumerate(sub):
                yield from walk(s, path + (key, i))

    for (owner, idx), top in zip(origins, spec.get("elements", [])):
        yield from walk(top, ("faces", owner, "elements", idx))


def _face_uses(spec: Mapping[str, Any]) -> Iterator[tuple[JsonPath, str]]:
    for group, path in _uses(spec.get("elements") or [], ()):
        yield path, group


def short_number(value: float) -> str:
    return f"{value:,.0f}" if abs(value) < 1e15 else f"{value:.3g}"


# ------------------------------------------------------------------ checking
_COLOUR_KEYS = ("fill", "stroke", "colour", "backdrop", "background")


def _colour_maps(spec: Any) -> Iterator[str]:
    """The colour maps a colour spec reads (through ``colour`` and ``default`` too)."""
    if isinstance(spec, Mapping):
        if isinstance(spec.get("map"), str):
            yield spec["map"]
        for k in ("colour", "default"):
            yield from _colour_maps(spec.get(k))


def colour_map_issues(book: FaceBook, doc: YamlDoc) -> list[Issue]:
    """A map used for colours whose value is neither ``#rrggbb`` nor a palette or face colour (M015)."""
    used: set[str] = set()

    def walk(node: Any, key: str | int | None) -> None:
        if key in _COLOUR_KEYS:
            used.update(_colour_maps(node))
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "colours" and isinstance(v, dict):
                    for c in v.values():
                        used.update(_colour_maps(c))
                walk(v, k)
        elif isinstance(node, list):
            for v in node:
                walk(v, None)

    walk(doc.data, None)
    names = set(book.palette) | {c for spec in book.faces.values() for c in (spec.get("colours") or {})}
    out = []
    for m in sorted(used & set(book.maps)):
        for key, value in book.maps[m].items():
            if not _HEX.match(value) and parse_cmyk(value) is None and value not in names:
                out.append(doc.issue("M015", f"colour map {short(m)} maps {short(key)} to {value[:40]!r}, which is not a colour "
                                     "(#rrggbb, cmyk(c, m, y, k), or a palette or face colour name)", ("maps", m, key)))
    return out


def extras_issues(book: FaceBook, doc: YamlDoc, card_set: CardSet) -> list[Issue]:
    """An extra card whose face reads a card string (``field: x``, or ``string: x``
    with no placeholders) that the set does not have (M016)."""
    have = {s.msgctxt for s in card_set.strings}
    out: list[Issue] = []
    for entry in book.extras:
        for side in ("front", "back"):
            fname = entry.get(side)
            if fname not in book.faces:
                continue
            spec = book.faces[fname]
            origins = spec.get("_origins", [(fname, i) for i in range(len(spec.get("elements", [])))])
            for (owner, idx), top in zip(origins, spec.get("elements", [])):
                base: JsonPath = ("faces", owner, "elements")
                for el, path, _ in _walk_elements([top], base, book.groups):
                    if path[0] == "faces":
                        path = base + (idx,) + path[len(base) + 1:]
                    for key, ctx in (("field", f"{entry['id']}.{el.get('field')}"), ("string", el.get("string"))):
                        if isinstance(el.get(key), str) and "{" not in el[key] and ctx not in have:
                            out.append(doc.issue("M016", f"face {short(fname)} of extra card {short(entry['id'])} reads string "
                                                 f"{short(str(ctx)[:60])}, which the set does not have", path + (key,)))
    return out


def _faces_for_kinds(book: FaceBook) -> dict[str, set[str]]:
    """Which card kinds each face is drawn for (deck backs and extras: none)."""
    out: dict[str, set[str]] = {}
    for entry in book.print:
        for key in ("front", "back"):
            name = entry.get(key)
            if name in book.faces and not book.faces[name].get("back"):
                out.setdefault(name, set()).update(entry["kinds"])
    return out


def _head(path: str) -> str:
    return path.split("->")[0].split(".")[0].strip()


def _guards(el: Mapping[str, Any]) -> set[str]:
    """Fields an element tests with ``if``: it (and what it holds) may read them even when no card has them."""
    c = el.get("if")
    return {_head(c)} if isinstance(c, str) else {_head(c["field"])} if isinstance(c, Mapping) else set()


def _walk_elements(elements: list[Any], path: JsonPath, groups: Mapping[str, Any], seen: tuple[str, ...] = (),
                   guarded: frozenset[str] = frozenset()) -> Iterator[tuple[dict[str, Any], JsonPath, frozenset[str]]]:
    for i, el in enumerate(elements):
        g = guarded | _guards(el)
        yield el, path + (i,), g
        if el.get("type") == "group":
            yield from _walk_elements(el["elements"], path + (i, "elements"), groups, seen, g)
        if el.get("type") == "use" and el["group"] in groups and el["group"] not in seen:
            yield from _walk_elements(groups[el["group"]], ("groups", el["group"]), groups, seen + (el["group"],), g)
        for key in ("blocks", "join"):
            if key in el:
                yield from _walk_elements(el[key], path + (i, key), groups, seen, g)


def _reads(el: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(key, path) of every card path an element reads."""
    for key in ("repeat", "list", "field"):
        if isinstance(el.get(key), str):
            yield key, el[key]
    if el.get("type") == "plugin":
        for p in el.get("reads") or []:
            yield "reads", p
    for key in ("if", "unless", "where"):
        c = el.get(key)
        if isinstance(c, str):
            yield key, c
        elif isinstance(c, Mapping):
            yield key, c["field"]
    for key in ("text", "value", "ui", "string", "name"):
        if isinstance(el.get(key), str):
            for p in template_paths(el[key]):
                yield key, p
    for v in (el.get("args") or {}).values():
        for p in template_paths(v):
            yield "args", p


def _colour_names(spec: Any) -> Iterator[str]:
    if isinstance(spec, str):
        if not spec.startswith(("#", "cmyk(")):
            yield spec
    elif isinstance(spec, Mapping):
        for k in ("colour", "default"):
            if k in spec:
                yield from _colour_names(spec[k])


def check_faces(book: FaceBook, doc: YamlDoc, card_set: CardSet) -> list[Issue]:
    issues: list[Issue] = []
    raw = doc.data
    for i, entry in enumerate(book.print):
        for key in ("front", "back"):
            if key in entry and entry[key] not in book.faces:
                issues.append(doc.issue("M002", f"print entry names unknown face {short(entry[key])}", ("print", i, key)))
        for j, kind in enumerate(entry["kinds"]):
            if card_set.kinds and kind not in card_set.kinds:
                issues.append(doc.issue("M071", f"print entry names unknown kind '{kind}' (kinds.yaml has "
                                        f"{', '.join(sorted(card_set.kinds))})", ("print", i, "kinds", j)))
        fields = kind_field_names(card_set.cards.values(), entry["kinds"])
        for key in ("sort", "back_variant"):  # (`copies` may name a list no card uses yet: each card is then its own copy)
            if key in entry and entry[key] not in fields:
                issues.append(doc.issue("M001", f"print entry's {key} names field {short(entry[key])}, which no "
                                        f"{'/'.join(entry['kinds'])[:40]} card has", ("print", i, key)))
    for i, entry in enumerate(book.extras):
        for key in ("front", "back"):
            if key in entry and entry[key] not in book.faces:
                issues.append(doc.issue("M002", f"extra card names unknown face {short(entry[key])}", ("extras", i, key)))
    kinds_of = _faces_for_kinds(book)
    cards = list(card_set.cards.values())
    from cardkit.layout.elements.plugin import available

    plugins = available()
    for fname, spec in book.faces.items():
        if spec.get("size") is None:
            issues.append(doc.issue("M002", f"face {short(fname)} has no size (set `size` in the face or at the top of the file)",
                                    ("faces", fname)))
        origins = spec.get("_origins", [(fname, i) for i in range(len(spec.get("elements", [])))])
        names = _face_names(spec, fname, doc, issues)
        issues.extend(_face_colour_issues(spec, fname, doc, book))
        kinds = kinds_of.get(fname)
        # `art` is the optional artwork every card may carry (Card.art)
        known = (kind_field_names(cards, kinds) if kinds else set()) | RESERVED | set(spec.get("vars") or {}) | {"copy_id", "art"}
        face_colours = set(spec.get("colours") or {})
        for (owner, idx), top in zip(origins, spec.get("elements", [])):
            base_path: JsonPath = ("faces", owner, "elements")
            for el, path, guarded in _walk_elements([top], base_path, book.groups):
                if path[0] == "faces":
                    path = base_path + (idx,) + path[len(base_path) + 1:]
                issues.extend(_check_element(el, path, doc, book, face_colours, plugins, names))
                if not kinds:
                    continue
                for key, p in _reads(el):
                    head = _head(p)
                    if head not in known and head not in guarded and key not in ("if", "unless"):
                        issues.append(doc.issue("M001", f"face {short(fname)} reads field {short(head)}, which no "
                                                f"{'/'.join(sorted(kinds))[:40]} card has", path + (key,)))
    style_names = {"i": 0.0, "n": 1.0}  # (a style has no face: W and H of the file's size, when it has one)
    top = raw.get("size")
    if isinstance(top, list) and all(compile_length(v).const is not None for v in top if not _check_length(v, ("size",), doc)):
        consts = [compile_length(v).const for v in top]
        if len(consts) == 2 and all(c is not None and c > 0 for c in consts):
            style_names.update(W=float(consts[0] or 0), H=float(consts[1] or 0))
    for name, own in raw.get("styles", {}).items():
        for key in ("size", "min"):
            if key in own:  # (what a style inherits is checked where it is written)
                issues.extend(_check_length(own[key], ("styles", name, key), doc, style_names, "font"))
    return issues


def _face_colour_issues(spec: Mapping[str, Any], fname: str, doc: YamlDoc, book: FaceBook) -> list[Issue]:
    """The face's own colours and background: names and maps that exist (M003)."""
    out: list[Issue] = []
    own = doc.data["faces"].get(fname) or {}
    entries = [(("colours", c), s) for c, s in (spec.get("colours") or {}).items()] + \
        ([(("background",), spec["background"])] if "background" in spec else [])
    for sub, cspec in entries:
        where: JsonPath = ("faces", fname) + (sub if (sub[0] in own) else ())
        for name in _colour_names(cspec):
            if name not in book.palette and name not in (spec.get("colours") or {}):
                out.append(doc.issue("M003", f"unknown colour {short(name)} (not in the palette nor the face's colours)", where))
        for m in _colour_maps(cspec):
            if m not in book.maps:
                out.append(doc.issue("M003", f"unknown colour map {short(m)}", where))
    return out


def _face_names(spec: Mapping[str, Any], fname: str, doc: YamlDoc, issues: list[Issue]) -> dict[str, float] | None:
    """W and H of a face (its size checked: constant lengths above 0), for checking the lengths that use them."""
    size = spec.get("size")
    if not isinstance(size, list):
        return None
    where: JsonPath = ("faces", fname, "size") if "size" in doc.data["faces"][fname] else ("size",)
    found = []
    for i, v in enumerate(size):
        problems = _check_length(v, where + (i,), doc, {}, "positive")
        issues.extend(problems)
        c = None if problems else compile_length(v).const
        if c is None:
            if not problems:
                issues.append(doc.issue("M004", f"a face's size cannot use names ({str(v)[:40]!r})", where + (i,)))
            return None
        found.append(c)
    bleed = spec.get("bleed")
    if bleed is not None:
        at: JsonPath = ("faces", fname, "bleed") if "bleed" in doc.data["faces"][fname] else ("bleed",)
        problems = _check_length(bleed, at, doc, {}, "length")
        if not problems and not isinstance(bleed, list) and compile_length(bleed).const is None:
            # (the bleed is measured before any face is drawn: W and H mean nothing yet)
            problems = [doc.issue("M004", f"a face's bleed cannot use names ({str(bleed)[:40]!r})", at)]
        issues.extend(i for i in problems if i not in issues)
    return {"W": found[0], "H": found[1], "i": 0.0, "n": 1.0}  # (i and n as outside a repeat, or at its one item)


def _check_length(value: Any, path: JsonPath, doc: YamlDoc, names: Mapping[str, float] | None = None,
                  kind: str = "length") -> list[Issue]:
    """A length's names (M004), form (U001), and its value with the face's
    ``names`` (W, H, and i = 0, n = 1 as at a repeat of one item): a finite number (M009) within
    :data:`MAX_LENGTH_PT` (M011); a font size (``kind="font"``) above 0 and at
    most :data:`MAX_FONT_PT` (M010); a ``kind="positive"`` size above 0 (M011)."""
    if isinstance(value, list):
        return [i for n, v in enumerate(value) for i in _check_length(v, path + (n,), doc, names, kind)]
    try:
        unknown = names_in(value) - LENGTH_NAMES
    except CardkitError as exc:
        return [doc.issue(exc.issues[0].code, exc.issues[0].message, path)]
    if unknown:
        return [doc.issue("M004", f"unknown name(s) {', '.join(sorted(unknown))[:40]} in length {short(value)} "
                                  f"(use W, H, i, n and lengths such as 4mm)", path)]
    if names is None or not names_in(value) <= set(names):
        return []  # (depends on the repeat: checked as it is drawn)
    try:
        v = length(value, dict(names)) if compile_length(value).const is None else compile_length(value).const
    except CardkitError as exc:
        return [doc.issue(exc.issues[0].code, f"{exc.issues[0].message} ({str(value)[:40]!r})", path)]
    assert v is not None
    return [doc.issue(code, message, path) for code, message in size_problems(v, str(value), kind)]


def size_problems(v: float, source: str, kind: str = "length") -> list[tuple[str, str]]:
    """``(code, message)`` when a length's value is out of its bounds (see :func:`_check_length`)."""
    src = repr(source[:40])
    if kind == "font" and not 0 < v <= MAX_FONT_PT:
        return [("M010", f"font size {src} is {v:.4g}pt; a size must be above 0 and at most {MAX_FONT_PT:.0f}pt")]
    if kind == "positive" and v <= 0:
        return [("M011", f"size {src} is {v:.4g}pt; it must be above 0")]
    if abs(v) > MAX_LENGTH_PT:
        return [("M011", f"length {src} is {v:.4g}pt; at most {MAX_LENGTH_PT:.0f}pt (200in) either way")]
    return []


def _length_kind(el: Mapping[str, Any], key: str) -> str:
    kind = KINDS.get(str(el.get("type")))  # (a column block or a join part has no type: its lengths are lengths)
    if kind is None:
        return "length"
    if key in ("size", "min", "sizes") and kind.font_sizes:
        return "font"
    return "positive" if key in kind.positive else "length"


def _check_element(el: Mapping[str, Any], path: JsonPath, doc: YamlDoc, book: FaceBook, face_colours: set[str],
                   plugins: Mapping[str, Any], names: Mapping[str, float] | None = None) -> list[Issue]:
    out: list[Issue] = []
    for key in _LENGTH_KEYS:
        if key in el and not (key == "size" and el.get("type") in (None,)):
            out.extend(_check_length(el[key], path + (key,), doc, names, _length_kind(el, key)))
    if "sizes" in el:
        out.extend(_check_length(el["sizes"], path + ("sizes",), doc, names, "font"))
    for key in ("fill", "stroke", "colour", "backdrop"):
        spec = el.get(key)
        for name in _colour_names(spec):
            if name not in book.palette and name not in face_colours:
                out.append(doc.issue("M003", f"unknown colour {short(name)} (not in the palette nor the face's colours)", path + (key,)))
        if isinstance(spec, Mapping) and "map" in spec and spec["map"] not in book.maps:
            out.append(doc.issue("M003", f"unknown colour map {short(spec['map'])}", path + (key, "map")))
    if (el.get("type") == "text" or ("type" not in el and "blocks" not in el)) and not any(k in el for k in _SOURCES):
        out.append(doc.issue("M018", "a text, column block or join part needs a source: one of "
                             f"{', '.join(_SOURCES)}", path))
    if el.get("type") == "use" and el["group"] not in book.groups:
        out.append(doc.issue("M002", f"unknown element group {short(el['group'])}", path + ("group",)))
    if "style" in el and el["style"] not in book.styles:
        out.append(doc.issue("M002", f"unknown text style {short(el['style'])}", path + ("style",)))
    if el.get("type") == "icon" and isinstance(el["name"], Mapping) and el["name"].get("map") not in book.maps:
        out.append(doc.issue("M003", f"unknown map {short(el['name'].get('map'))} (icon names by map are under `maps`)",
                             path + ("name", "map")))
    declared = doc.data.get("icons") or {}  # (an SVG icon that could not be read has its own error)
    if el.get("type") == "icon" and isinstance(el["name"], str) and "{" not in el["name"] and el["name"] not in ICONS and \
            el["name"] not in book.svg_icons and el["name"] not in declared:
        builtin = sorted(ICONS)
        out.append(doc.issue("M005", f"unknown icon {short(el['name'])} (built in: {', '.join(builtin[:6])} and {len(builtin) - 6} "
                             "more; or declare an SVG under `icons`)",
                             path + ("name",)))
    if el.get("type") == "plugin" and el["name"] not in plugins:
        out.append(doc.issue("M007", f"no plugin element {short(el['name'])} is installed", path + ("name",)))
    return out


# ------------------------------------------------------------------ file names
_ID_LITERAL = re.compile(r"[A-Za-z0-9_:#-]*")
_SAFE_NAMES = frozenset({"id", "copy_id", "deck", "variant", "card_deck"})  # ids checked by their own schemas


def file_name_issues(book: FaceBook, doc: YamlDoc, card_set: CardSet) -> list[Issue]:
    """Ids that become file names (``build png``, ``build tts``, ``l10n
    review``) are safe names (M055): a face ``id`` template may hold only
    letters, digits, ``_ : # -`` around its ``{placeholders}``, and the card
    field values it or a print entry's ``back_variant`` fills in, and an extra
    card's ``id`` and ``deck``, must pass :func:`cardkit.fsutil.name_problem`.
    Also records where each face's id is written, for the check of the
    filled-in id when its files are named (P006)."""
    from cardkit.fsutil import face_file_stem, name_problem

    issues = []
    kinds_of = _faces_for_kinds(book)

    def values(field_name: str, kinds: set[str]) -> Iterator[tuple[str, str]]:
        for card in card_set.cards.values():
            value = card.fields.get(field_name) if card.kind in kinds else None
            if isinstance(value, (str, int, float)) and not isinstance(value, bool):
                yield card.id, str(value)

    def bad_value(field_name: str, kinds: set[str]) -> str | None:
        for card_id, value in values(field_name, kinds):
            problem = name_problem(face_file_stem(value) + ".png")
            if problem:
                return f"card '{card_id}' fills in '{_printable(value)}' for {{{field_name}}}, and the file name {problem}"
        return None

    for fname, spec in book.faces.items():
        book.id_marks[fname] = doc.mark(("faces", fname, "id"))
        template = spec.get("id")
        if not isinstance(template, str):
            continue
        literal = re.sub(r"\{[^{}]*\}", "", template)
        if not _ID_LITERAL.fullmatch(literal) or template.startswith(".") or len(template) > 100:
            issues.append(doc.issue("M055", f"face id '{_printable(template)}' names a file: use only letters, digits, "
                                            "_ : # - around its {placeholders}", ("faces", fname, "id")))
            continue
        for name in re.findall(r"\{([a-z_][a-z0-9_]*)\}", template):
            why = bad_value(name, kinds_of.get(fname, set())) if name not in _SAFE_NAMES else None
            if why:
                issues.append(doc.issue("M055", f"face id '{_printable(template)}' names a file: {why}", ("faces", fname, "id")))
                break
    for i, entry in enumerate(book.print):
        if isinstance(entry.get("back_variant"), str):
            why = bad_value(entry["back_variant"], set(entry.get("kinds", [])))
            if why:
                issues.append(doc.issue("M055", f"back_variant names the back's file: {why}", ("print", i, "back_variant")))
    for i, entry in enumerate(book.extras):
        for key in ("id", "deck"):
            value = entry.get(key)
            if not isinstance(value, str):
                continue
            problem = name_problem(face_file_stem(value) + ".png")
            if problem:
                issues.append(doc.issue("M055", f"extra card {key} '{_printable(value)}' names a file, and the name "
                                                f"{problem}", ("extras", i, key)))
    return issues


def _printable(text: str) -> str:
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return text if len(text) <= 40 else text[:37] + "..."
