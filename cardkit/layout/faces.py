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
from cardkit.layout.icons import ICONS
from cardkit.layout.sizes import resolve_size, size_problem
from cardkit.layout.svgicons import SvgIcon, read_svg
from cardkit.layout.units import names_in
from cardkit.load.schema import validate_doc
from cardkit.load.yamlsafe import YamlDoc, YamlError, read_yaml_file
from cardkit.model import CardSet

FACE_FILE = "faces.yaml"
SCHEMA = "face.schema.json"
LENGTH_NAMES = frozenset({"W", "H", "i", "n"})
_LENGTH_KEYS = ("box", "at", "centre", "points", "r", "radius", "inset", "size", "min", "w", "h", "step", "baseline", "ratio")


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
    doc: YamlDoc | None = None  # the file as read, to locate later findings (print quality)


def _resolve(table: Mapping[str, Any], name: str, doc: YamlDoc, section: str, issues: list[Issue],
             seen: tuple[str, ...] = ()) -> dict[str, Any]:
    """``extends`` merged: keys override; a face's ``elements`` and ``vars``/``colours`` add to its base's."""
    spec = dict(table[name])
    base_name = spec.pop("extends", None)
    if base_name is None:
        return spec
    if base_name in seen + (name,):
        issues.append(doc.issue("T003", f"{section[:-1]} '{name}' extends itself (via {' -> '.join(seen + (name, base_name))})",
                                (section, name, "extends")))
        return spec
    if base_name not in table:
        issues.append(doc.issue("M002", f"{section[:-1]} '{name}' extends unknown '{base_name}'", (section, name, "extends")))
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


_CACHE: dict[tuple[str, int, int, int], tuple[CardSet, FaceBook]] = {}


def load_faces(root: Path, card_set: CardSet) -> FaceBook:
    """Read and check ``faces.yaml`` of ``card_set``; raise with every problem
    found.  A build composes each set once per locale: the checked file is
    kept while the file (and the card set it was checked against) is the same."""
    path = root / card_set.directory / FACE_FILE
    try:
        st = path.stat()
        key = (str(path.resolve()), st.st_mtime_ns, st.st_size, id(card_set))
    except OSError:
        key = None
    hit = _CACHE.get(key) if key else None
    if hit is not None and hit[0] is card_set:
        return hit[1]
    book = _load_faces(root, card_set)
    if key:
        if len(_CACHE) >= 8:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = (card_set, book)
    return book


def _load_faces(root: Path, card_set: CardSet) -> FaceBook:
    set_dir = root / card_set.directory
    rel = f"{card_set.directory}/{FACE_FILE}"
    try:
        doc = read_yaml_file(set_dir / FACE_FILE, rel, root=root)
    except YamlError as exc:
        raise CardkitError(exc.issue) from None
    except FileNotFoundError:
        raise CardkitError(Issue("F001", f"the set has no face file {FACE_FILE}", file=rel)) from None
    problems = validate_doc(doc, SCHEMA)
    if problems:
        raise CardkitError(problems)
    issues: list[Issue] = []
    data = doc.data
    book = FaceBook(rel, dict(data.get("palette", {})), {k: dict(v) for k, v in data.get("maps", {}).items()}, doc=doc)
    raw_styles = data.get("styles", {})
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
    book.print = list(data.get("print", []))
    book.extras = list(data.get("extras", []))
    for name, path in (data.get("icons") or {}).items():
        from cardkit.load.files import resolve_reference

        target = resolve_reference(root, set_dir, path)
        if target is None:
            issues.append(doc.issue("F002", f"icon path '{path}' escapes the set folder", ("icons", name)))
            continue
        try:
            book.svg_icons[name] = read_svg(target, f"{card_set.directory}/{path}", name, root)
        except CardkitError as exc:  # a problem inside the SVG keeps its own line; the rest points at the entry
            issues.extend(i if i.line else doc.issue(i.code, i.message, ("icons", name)) for i in exc.issues)
    issues.extend(dict.fromkeys(check_faces(book, doc, card_set)))
    issues.extend(file_name_issues(book, doc, card_set))
    if issues:
        raise CardkitError(issues)
    return book


# ------------------------------------------------------------------ checking
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
                issues.append(doc.issue("M002", f"print entry names unknown face '{entry[key]}'", ("print", i, key)))
        for j, kind in enumerate(entry["kinds"]):
            if card_set.kinds and kind not in card_set.kinds:
                issues.append(doc.issue("M071", f"print entry names unknown kind '{kind}' (kinds.yaml has "
                                        f"{', '.join(sorted(card_set.kinds))})", ("print", i, "kinds", j)))
        fields = kind_field_names(card_set.cards.values(), entry["kinds"])
        for key in ("sort", "back_variant"):  # (`copies` may name a list no card uses yet: each card is then its own copy)
            if key in entry and entry[key] not in fields:
                issues.append(doc.issue("M001", f"print entry's {key} names field '{entry[key]}', which no "
                                        f"{'/'.join(entry['kinds'])} card has", ("print", i, key)))
    for i, entry in enumerate(book.extras):
        for key in ("front", "back"):
            if key in entry and entry[key] not in book.faces:
                issues.append(doc.issue("M002", f"extra card names unknown face '{entry[key]}'", ("extras", i, key)))
    kinds_of = _faces_for_kinds(book)
    cards = list(card_set.cards.values())
    from cardkit.layout.elements import available

    plugins = available()
    for fname, spec in book.faces.items():
        if spec.get("size") is None:
            issues.append(doc.issue("M002", f"face '{fname}' has no size (set `size` in the face or at the top of the file)",
                                    ("faces", fname)))
        origins = spec.get("_origins", [(fname, i) for i in range(len(spec.get("elements", [])))])
        kinds = kinds_of.get(fname)
        # `art` is the optional artwork every card may carry (Card.art)
        known = (kind_field_names(cards, kinds) if kinds else set()) | RESERVED | set(spec.get("vars") or {}) | {"copy_id", "art"}
        face_colours = set(spec.get("colours") or {})
        for (owner, idx), top in zip(origins, spec.get("elements", [])):
            base_path: JsonPath = ("faces", owner, "elements")
            for el, path, guarded in _walk_elements([top], base_path, book.groups):
                if path[0] == "faces":
                    path = base_path + (idx,) + path[len(base_path) + 1:]
                issues.extend(_check_element(el, path, doc, book, face_colours, plugins))
                if not kinds:
                    continue
                for key, p in _reads(el):
                    head = _head(p)
                    if head not in known and head not in guarded and key not in ("if", "unless"):
                        issues.append(doc.issue("M001", f"face '{fname}' reads field '{head}', which no "
                                                f"{'/'.join(sorted(kinds))} card has", path + (key,)))
    for name in raw.get("styles", {}):
        for key in ("size", "min"):
            if key in book.styles[name]:
                issues.extend(_check_length(book.styles[name][key], ("styles", name, key), doc))
    return issues


def _check_length(value: Any, path: JsonPath, doc: YamlDoc) -> list[Issue]:
    if isinstance(value, list):
        return [i for n, v in enumerate(value) for i in _check_length(v, path + (n,), doc)]
    try:
        unknown = names_in(value) - LENGTH_NAMES
    except CardkitError as exc:
        return [doc.issue("U001", exc.issues[0].message, path)]
    if unknown:
        return [doc.issue("M004", f"unknown name(s) {', '.join(sorted(unknown))} in length {value!r} "
                                  f"(use W, H, i, n and lengths such as 4mm)", path)]
    return []


def _check_element(el: Mapping[str, Any], path: JsonPath, doc: YamlDoc, book: FaceBook, face_colours: set[str],
                   plugins: Mapping[str, Any]) -> list[Issue]:
    out: list[Issue] = []
    for key in _LENGTH_KEYS:
        if key in el and not (key == "size" and el.get("type") in (None,)):
            out.extend(_check_length(el[key], path + (key,), doc))
    if "sizes" in el:
        out.extend(_check_length(el["sizes"], path + ("sizes",), doc))
    for key in ("fill", "stroke", "colour", "backdrop"):
        spec = el.get(key)
        for name in _colour_names(spec):
            if name not in book.palette and name not in face_colours:
                out.append(doc.issue("M003", f"unknown colour '{name}' (not in the palette nor the face's colours)", path + (key,)))
        if isinstance(spec, Mapping) and "map" in spec and spec["map"] not in book.maps:
            out.append(doc.issue("M003", f"unknown colour map '{spec['map']}'", path + (key, "map")))
    if el.get("type") == "use" and el["group"] not in book.groups:
        out.append(doc.issue("M002", f"unknown element group '{el['group']}'", path + ("group",)))
    if "style" in el and el["style"] not in book.styles:
        out.append(doc.issue("M002", f"unknown text style '{el['style']}'", path + ("style",)))
    if el.get("type") == "icon" and isinstance(el["name"], str) and "{" not in el["name"] and el["name"] not in ICONS and el["name"] not in book.svg_icons:
        out.append(doc.issue("M005", f"unknown icon '{el['name']}' (built-in: {', '.join(sorted(ICONS))}; or declare an SVG under `icons`)",
                             path + ("name",)))
    if el.get("type") == "plugin" and el["name"] not in plugins:
        out.append(doc.issue("M007", f"no plugin element '{el['name']}' is installed", path + ("name",)))
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
