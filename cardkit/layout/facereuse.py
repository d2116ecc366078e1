"""Reuse in face files, resolved before the schema check: ``include:``,
named ``variants``, parameterised groups (``use`` with ``with:``) and
conditional attribute values; after it, styles that carry ``colour``,
``fill``, ``valign`` and ``align`` to the elements that name them.

Each step rewrites the parsed data into the plain form the rest of
:mod:`cardkit.layout.faces` (and the composer) already reads, so a file that
uses none of them draws exactly as before.  Every problem is located in the
file it was written in: an included file's entries keep their own file and
line (:class:`MergedDoc`), a variant's overrides point into the variant.
The format is documented in ``docs/authoring.md``.

>>> pick = {"type": "icon", "name": {"if": {"field": "up", "equals": 1}, "then": "arrow-up", "else": "arrow-down"}}
>>> [sorted(e.items()) for e in expand_conditionals([pick], [])[0]["elements"]]  # doctest: +NORMALIZE_WHITESPACE
[[('if', {'field': 'up', 'equals': 1}), ('name', 'arrow-up'), ('type', 'icon')],
 [('name', 'arrow-down'), ('type', 'icon'), ('unless', {'field': 'up', 'equals': 1})]]
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardkit.errors import Issue, JsonPath
from cardkit.layout.elements import KINDS
from cardkit.load.bounds import MAX_DEPTH, MAX_ELEMENTS
from cardkit.load.yamlsafe import YamlDoc

MAX_INCLUDE_DEPTH = 4  # an included file may include, this many levels deep
MAX_INCLUDES = 16  # files one face file reads through `include`, all levels counted
INCLUDED_SECTIONS = ("palette", "maps", "styles", "groups", "icons")  # what an included file may hold
VARIANT_SECTIONS = ("palette", "maps", "styles", "groups", "faces", "background")
#: element keys a style gives to the elements of each type that name it (each kind's ``style_carries``)
STYLE_CARRIES: dict[str, tuple[str, ...]] = {k.name: k.style_carries for k in KINDS.values() if k.style_carries}
_PARAM = re.compile(r"\$([a-z][a-z0-9_]*)")
_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")


@dataclass
class MergedDoc(YamlDoc):
    """A face file with what it includes: the data merged, and each entry of an
    included file located in that file (by the longest path prefix in ``origins``,
    which maps a path of the merged data to the document and path it came from)."""

    origins: dict[JsonPath, tuple[YamlDoc, JsonPath]] = field(default_factory=dict)

    def place(self, path: JsonPath, key: bool = False) -> tuple[str, int, int]:
        p = tuple(path)
        for n in range(len(p), 0, -1):
            hit = self.origins.get(p[:n])
            if hit is not None:
                doc, there = hit
                return doc.place(there + p[n:], key)
        return super().place(path, key)


def short(value: Any) -> str:
    text = str(value)
    return repr(text if len(text) <= 40 else text[:37] + "...")


# ------------------------------------------------------------------ include
def read_includes(doc: YamlDoc, root: Path, set_dir: Path, reader: Any) -> tuple[MergedDoc, list[Issue], list[Path]]:
    """``doc`` with the sections of the files its ``include:`` names merged in
    (the including file's own entries win; a later include wins over an
    earlier one).  Paths are relative to the including file's folder and must
    stay inside the project (M084); includes nest at most
    :data:`MAX_INCLUDE_DEPTH` deep and at most :data:`MAX_INCLUDES` files
    (M085); a file that includes itself again is a cycle (M086); an included
    file holds only :data:`INCLUDED_SECTIONS` (M087).  ``reader(path, rel)``
    reads one YAML file through the project's file door.  Returns the merged
    document, the problems and the files read (for the load cache)."""
    from cardkit.load.files import inside

    merged = MergedDoc(doc.file, doc.data, doc.marks, doc.key_marks, b"")
    issues: list[Issue] = []
    read: list[Path] = []
    data = doc.data if isinstance(doc.data, dict) else {}
    if "include" not in data:
        return merged, issues, read
    layers: list[YamlDoc] = []  # included documents, innermost and earliest first

    def visit(cur: YamlDoc, folder: Path, chain: tuple[str, ...], depth: int) -> None:
        entries = cur.data.get("include") if isinstance(cur.data, dict) else None
        if entries is None:
            return
        if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
            issues.append(cur.issue("M084", "`include` is a list of face file paths (relative to this file)", ("include",)))
            return
        for i, ref in enumerate(entries):
            where: JsonPath = ("include", i)
            target = (folder / ref).resolve() if ref and not ref.startswith(("/", "\\")) and "\x00" not in ref else None
            if target is None or not inside(root, target) or not ref.endswith((".yaml", ".yml")):
                issues.append(cur.issue("M084", f"include {short(ref)} is not a .yaml file inside the project folder", where))
                continue
            if str(target) in chain:
                issues.append(cur.issue("M086", f"include {short(ref)} includes a file that includes it "
                                        f"({' -> '.join(Path(c).name for c in chain[chain.index(str(target)):])} -> "
                                        f"{target.name})", where))
                continue
            if depth >= MAX_INCLUDE_DEPTH or len(read) >= MAX_INCLUDES:
                issues.append(cur.issue("M085", f"include {short(ref)} goes too far: at most {MAX_INCLUDE_DEPTH} levels "
                                        f"and {MAX_INCLUDES} files", where))
                continue
            rel = target.relative_to(root.resolve()).as_posix()
            try:
                sub = reader(target, rel)
            except Exception as exc:  # (a YamlError or a refused file: located by the reader)
                found = getattr(exc, "issue", None) or (getattr(exc, "issues", None) or [None])[0]
                issues.append(found if isinstance(found, Issue) else cur.issue("M084", f"include {short(ref)} cannot be read",
                                                                               where))
                continue
            read.append(target)
            if not isinstance(sub.data, dict):
                issues.append(sub.issue("M087", "an included face file is a mapping of palette, maps, styles, groups, icons"))
                continue
            bad = [k for k in sub.data if k not in INCLUDED_SECTIONS + ("include", "kind")]
            for k in bad:
                issues.append(sub.issue("M087", f"an included face file holds only {', '.join(INCLUDED_SECTIONS)} "
                                        f"(and `include`); not {short(k)}", (k,), key=True))
            visit(sub, target.parent, chain + (str(target),), depth + 1)
            layers.append(sub)

    visit(doc, set_dir, (str((set_dir / Path(doc.file).name).resolve()),), 0)
    out = {k: v for k, v in data.items() if k != "include"}
    for section in INCLUDED_SECTIONS:
        own = data.get(section)
        if own is not None and not isinstance(own, dict):
            continue  # (the schema reports it)
        inc: dict[str, Any] = {}
        for layer in layers:  # later layers win over earlier ones
            entries = layer.data.get(section)
            if isinstance(entries, dict):
                for name, value in entries.items():
                    inc[name] = value
                    merged.origins[(section, name)] = (layer, (section, name))
        if inc:
            for name in own or {}:
                merged.origins.pop((section, name), None)
            out[section] = {**{k: v for k, v in inc.items() if k not in (own or {})}, **(own or {})}
    merged.data = out
    return merged, issues, read


# ----------------------------------------------------------------- variants
def variant_names(data: Any) -> list[str]:
    """The names of the variants a face file declares."""
    v = data.get("variants") if isinstance(data, dict) else None
    return list(v) if isinstance(v, dict) else []


def apply_variant(doc: MergedDoc, name: str | None) -> list[Issue]:
    """Merge variant ``name`` of the file into its data (in place): mappings
    merge key by key, anything else (a list of elements, a colour) replaces
    what the file has, ``null`` removes it.  The ``variants`` section itself is
    dropped either way.  An unknown name is M080; an override of a face,
    group or style the file does not have is M081 (a variant changes, it does
    not add faces)."""
    data = doc.data
    if not isinstance(data, dict):
        return []
    variants = data.pop("variants", None)
    if name is None:
        return []
    known = list(variants) if isinstance(variants, dict) else []
    if name not in known:
        return [doc.issue("M080", f"unknown variant {short(name)} (the face file has "
                          f"{', '.join(known) if known else 'no `variants`'})", ("variants",) if known else ())]
    over = variants[name]
    if not isinstance(over, dict):
        return []  # (the schema reports it)
    issues: list[Issue] = []
    for section, value in over.items():
        if section == "description" or not isinstance(value, dict):
            continue
        have = data.get(section)
        if section in ("faces", "groups", "styles") and isinstance(have, dict):
            for n in value:
                if n not in have:
                    issues.append(doc.issue("M081", f"variant {short(name)} overrides {section[:-1]} {short(n)}, which the "
                                            "file does not have", ("variants", name, section, n), key=True))
        data[section] = _merge(have if isinstance(have, dict) else {}, value)
        _locate(doc, (section,), value, ("variants", name, section))
    return issues


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        if v is None:
            out.pop(k, None)
        elif isinstance(v, dict) and isinstance(out.get(k), dict) and k not in ("fill", "stroke", "colour", "background"):
            out[k] = _merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def _locate(doc: MergedDoc, path: JsonPath, value: Any, source: JsonPath) -> None:
    """Point the merged entries of a variant at where the variant writes them."""
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, dict) and k not in ("fill", "stroke", "colour", "background"):
                _locate(doc, path + (k,), v, source + (k,))
            else:
                doc.origins[path + (k,)] = (YamlDoc(doc.file, None, doc.marks, doc.key_marks), source + (k,))


# ---------------------------------------------------------- parameterised use
def expand_uses(data: Any, doc: YamlDoc) -> list[Issue]:
    """Each ``use`` with ``with: {name: value}`` becomes a ``group`` (same
    ``at``, ``if``, ``unless``, ``repeat``, ``where``) holding a copy of the
    named group in which every ``$name`` in a string is replaced by its value
    (a length is put in parentheses).  A ``$name`` the use does not give is
    M082, a parameterised group that reaches itself again M083; expansion is
    bounded by :data:`MAX_DEPTH` levels and :data:`MAX_ELEMENTS` elements (M083)."""
    if not isinstance(data, dict) or not isinstance(data.get("groups"), dict):
        return []
    groups = data["groups"]
    issues: list[Issue] = []
    budget = [MAX_ELEMENTS]

    def expand(elements: Any, path: JsonPath, chain: tuple[str, ...]) -> Any:
        if not isinstance(elements, list):
            return elements
        out = []
        for i, el in enumerate(elements):
            here = path + (i,)
            if isinstance(el, dict) and el.get("type") == "use" and "with" in el:
                el = use_group(el, here, chain)
            if isinstance(el, dict):
                for key in ("elements", "blocks", "join"):
                    if isinstance(el.get(key), list):
                        el[key] = expand(el[key], here + (key,), chain)
            out.append(el)
        return out

    def use_group(el: dict[str, Any], here: JsonPath, chain: tuple[str, ...]) -> dict[str, Any]:
        name, args = el.get("group"), el.get("with")
        if not isinstance(name, str) or name not in groups or not isinstance(args, dict) or not isinstance(groups[name], list):
            return el  # (the schema and the element checks report it)
        if name in chain or len(chain) >= MAX_DEPTH:
            issues.append(doc.issue("M083", f"parameterised group {short(name)} is used inside itself or more than "
                                    f"{MAX_DEPTH} levels deep ({' -> '.join(chain + (name,))[:80]})", here + ("group",)))
            return {k: v for k, v in el.items() if k not in ("with",)} | {"type": "group", "elements": []}
        body = copy.deepcopy(groups[name])
        budget[0] -= _count(body)
        if budget[0] < 0:
            issues.append(doc.issue("M083", f"parameterised uses draw more than {MAX_ELEMENTS:,} elements", here))
            return {k: v for k, v in el.items() if k not in ("with", "group")} | {"type": "group", "elements": []}
        missing: set[str] = set()
        body = _substitute(body, {k: v for k, v in args.items() if isinstance(k, str)}, missing)
        for m in sorted(missing):
            issues.append(doc.issue("M082", f"group {short(name)} uses ${m}, which this `use` does not give in `with`",
                                    here + ("with",)))
        group = {k: v for k, v in el.items() if k not in ("with", "group")}
        group["type"] = "group"
        group["elements"] = expand(body, ("groups", name), chain + (name,))  # (problems inside: located in the group)
        return group

    for fname, spec in (data.get("faces") or {}).items() if isinstance(data.get("faces"), dict) else ():
        if isinstance(spec, dict) and isinstance(spec.get("elements"), list):
            spec["elements"] = expand(spec["elements"], ("faces", fname, "elements"), ())
    params = {g for g, els in groups.items() if isinstance(els, list) and _has_params(els)}
    for gname in list(groups):
        if gname not in params and isinstance(groups[gname], list):
            groups[gname] = expand(groups[gname], ("groups", gname), (gname,))
    # a parameterised group is drawn only through its expansions (each checked as it is expanded)
    for gname in params:
        del groups[gname]
    for path, el in _plain_uses(data):
        if isinstance(el.get("group"), str) and el["group"] in params:  # (a group that is not a name: the schema's line)
            issues.append(doc.issue("M082", f"group {short(el['group'])} takes parameters; give them in `with`",
                                    path + ("group",)))
    return issues


def _plain_uses(data: dict[str, Any]) -> list[tuple[JsonPath, dict[str, Any]]]:
    found: list[tuple[JsonPath, dict[str, Any]]] = []

    def walk(els: Any, path: JsonPath) -> None:
        if not isinstance(els, list):
            return
        for i, el in enumerate(els):
            if isinstance(el, dict):
                if el.get("type") == "use":
                    found.append((path + (i,), el))
                for key in ("elements", "blocks", "join"):
                    walk(el.get(key), path + (i, key))

    for fname, spec in (data.get("faces") or {}).items() if isinstance(data.get("faces"), dict) else ():
        if isinstance(spec, dict):
            walk(spec.get("elements"), ("faces", fname, "elements"))
    for gname, els in (data.get("groups") or {}).items():
        walk(els, ("groups", gname))
    return found


def _count(node: Any) -> int:
    if isinstance(node, list):
        return sum(_count(v) for v in node)
    if isinstance(node, dict):
        return 1 + sum(_count(node[k]) for k in ("elements", "blocks", "join") if k in node)
    return 0


def _has_params(node: Any) -> bool:
    if isinstance(node, str):
        return bool(_PARAM.search(node))
    if isinstance(node, list):
        return any(_has_params(v) for v in node)
    if isinstance(node, dict):
        return any(_has_params(v) for v in node.values())
    return False


_LENGTH_KEYS = frozenset({"box", "at", "centre", "points", "r", "radius", "inset", "size", "min", "w", "h", "step",
                          "baseline", "ratio", "sizes"})


def _substitute(node: Any, args: Mapping[str, Any], missing: set[str], key: str = "") -> Any:
    """``node`` with each ``$name`` replaced by ``args[name]``: a whole-string
    ``$name`` takes the value as it is (any type); inside a longer length
    (under a length key) a value with an operator is put in parentheses, so
    ``$x + 1mm`` with ``x: W - 4mm`` means ``(W - 4mm) + 1mm``."""
    if isinstance(node, str):
        whole = _PARAM.fullmatch(node)
        if whole:
            if whole[1] in args:
                return copy.deepcopy(args[whole[1]])
            missing.add(whole[1])
            return node

        def one(m: re.Match[str]) -> str:
            if m[1] not in args:
                missing.add(m[1])
                return m[0]
            v = str(args[m[1]])
            return f"({v})" if key in _LENGTH_KEYS and re.search(r"(?<=.)[-+*/]", v.strip()) else v

        return _PARAM.sub(one, node)
    if isinstance(node, list):
        return [_substitute(v, args, missing, key) for v in node]
    if isinstance(node, dict):
        return {k: _substitute(v, args, missing, k) for k, v in node.items()}
    return node


# ---------------------------------------------------- conditional attributes
def _conditional(value: Any) -> bool:
    return isinstance(value, dict) and "then" in value and (("if" in value) != ("unless" in value)) and \
        set(value) <= {"if", "unless", "then", "else"}


def expand_conditionals(elements: Any, issues: list[Issue], doc: YamlDoc | None = None, path: JsonPath = ()) -> Any:
    """An element with attribute values ``{if: COND, then: A, else: B}`` (or
    ``unless``) becomes a ``group`` of two: one drawn ``if`` the condition with
    the ``then`` values, one ``unless`` it with the ``else`` values (an
    attribute with no ``else`` is left out there).  All the conditional values
    of one element test the same condition (M088); the element's own ``if``,
    ``unless``, ``repeat`` and ``where`` stay on the group."""
    if not isinstance(elements, list):
        return elements
    out = []
    for i, el in enumerate(elements):
        here = path + (i,)
        if isinstance(el, dict):
            for key in ("elements", "blocks", "join"):
                if isinstance(el.get(key), list):
                    el[key] = expand_conditionals(el[key], issues, doc, here + (key,))
            conds = {k: v for k, v in el.items() if _conditional(v)}
            if conds:
                tests = {(("if", repr(v["if"])) if "if" in v else ("unless", repr(v["unless"]))) for v in conds.values()}
                if len(tests) > 1:
                    if doc is not None:
                        issues.append(doc.issue("M088", "the conditional values of one element must test one condition "
                                                f"(these test {len(tests)}: {', '.join(sorted(conds))})", here))
                else:
                    first = next(iter(conds.values()))
                    test, cond = ("if", first["if"]) if "if" in first else ("unless", first["unless"])
                    other = "unless" if test == "if" else "if"
                    outer = {k: el[k] for k in ("if", "unless", "repeat", "where") if k in el}
                    inner = {k: v for k, v in el.items() if k not in outer and k not in conds}
                    yes = {**inner, **{k: v["then"] for k, v in conds.items()}, test: cond}
                    no = {**inner, **{k: v["else"] for k, v in conds.items() if "else" in v}, other: cond}
                    pair = [yes, no]
                    el = {"type": "group", **outer, "elements": pair} if outer else {"type": "group", "elements": pair}
        out.append(el)
    return out


def conditionals_in(data: Any, doc: YamlDoc) -> list[Issue]:
    """:func:`expand_conditionals` over every face and group of the file (in place)."""
    issues: list[Issue] = []
    if not isinstance(data, dict):
        return issues
    for fname, spec in (data.get("faces") or {}).items() if isinstance(data.get("faces"), dict) else ():
        if isinstance(spec, dict) and isinstance(spec.get("elements"), list):
            spec["elements"] = expand_conditionals(spec["elements"], issues, doc, ("faces", fname, "elements"))
    for gname, els in (data.get("groups") or {}).items() if isinstance(data.get("groups"), dict) else ():
        if isinstance(els, list):
            data["groups"][gname] = expand_conditionals(els, issues, doc, ("groups", gname))
    return issues


# -------------------------------------------------------------------- styles
def style_defaults(elements: Any, styles: Mapping[str, Mapping[str, Any]], groups: Mapping[str, Any]) -> None:
    """Give each element that names a style the keys of that (resolved) style
    it does not set itself, those :data:`STYLE_CARRIES` lists for its type
    (in place; every group once)."""
    done: set[int] = set()

    def walk(els: Any) -> None:
        if not isinstance(els, list) or id(els) in done:
            return
        done.add(id(els))
        for el in els:
            if not isinstance(el, dict):
                continue
            st = styles.get(el["style"]) if isinstance(el.get("style"), str) else None
            if st:
                for k in STYLE_CARRIES.get(str(el.get("type", "text")), ()):
                    if k in st and k not in el:
                        el[k] = st[k]
            for key in ("elements", "blocks", "join"):
                walk(el.get(key))

    walk(elements)
    for els in groups.values():
        walk(els)


def is_name(name: str) -> bool:
    return bool(_NAME.match(name))
