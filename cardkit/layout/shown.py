"""Which declared fields the faces show: the "field no face shows" warning (M006).

A field a set declares in ``kinds.yaml`` but that no face drawing the kind's
cards ever reads is usually a mistake: a template that forgot it, a renamed
key.  This module reads a set's resolved face data (:class:`FaceBook`)
symbolically against the kind declarations: every path an element reads
(``field``, ``string``, templates, ``repeat``, ``if``/``unless``/``where``,
colour ``by``/``from``, icon names, ``image``/``diagram`` fields, a plugin
element's ``reads``, join parts, column blocks, ``->`` references into other
kinds, the ``copy`` of a copies entry) is resolved to the declarations it
reaches, and so are the fields the print itself uses (the print list's
``sort``, ``back_variant``, ``copies``; a kind's quantity and ``deck_when``
fields).  Every declared field (nested record fields included) reached by
none of them is a warning located at its declaration, unless the declaration
says ``shown: false`` (data for the game's rules, printed by no face).

A field read through a reference from another kind's face counts as shown: a
hero card that prints the name of the place it names shows the place's
``name``.  A nested field of a named type (``types:``) is declared once and
counts as shown when any use of the type shows it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Union

from cardkit.errors import Issue, JsonPath, Severity
from cardkit.layout.binding import template_paths
from cardkit.layout.elements import KINDS
from cardkit.load.kinds import FieldSpec, Kinds, KindSpec, all_fields
from cardkit.load.yamlsafe import YamlDoc

CODE = "M006"
Sym = Union[KindSpec, FieldSpec]  # what a name in a face's scope stands for: a card of a kind, or a declared field
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_CTX_REF = re.compile(r"^\{([^{}|]+)\}\.(.+)$")  # "{item.home}.name": a string of the card an id names


@dataclass(frozen=True)
class _Scope:
    kind: KindSpec
    consts: frozenset[str] = frozenset()  # a face's `vars`: they shadow fields of the same name
    bound: Mapping[str, tuple[Sym, ...]] = field(default_factory=dict)  # item, copy

    def bind(self, **names: tuple[Sym, ...]) -> "_Scope":
        return _Scope(self.kind, self.consts, {**self.bound, **names})


class _Reader:
    """Walks faces symbolically and collects the declarations they reach (by their place in kinds.yaml)."""

    def __init__(self, kinds: Kinds, book: Any) -> None:
        self.kinds = kinds.kinds
        self.book = book
        self.used: set[JsonPath] = set()

    # ---------------------------------------------------------------- paths
    def mark(self, sym: Sym, whole: bool) -> None:
        if isinstance(sym, FieldSpec):
            self.used.add(sym.where)
            if whole:
                self.used.update(f.where for f in all_fields({"": sym}))
        elif whole:  # the card as a whole (a template printing `{copy}`)
            self.used.update(f.where for f in all_fields(sym.fields))

    def step(self, sym: Sym, seg: str) -> list[Sym]:
        """What one path segment reaches from ``sym`` (``*``: any key or item)."""
        if isinstance(sym, KindSpec) or sym.type == "record":
            fields = sym.fields
            out: list[Sym] = list(fields.values()) if seg == "*" else [fields[seg]] if seg in fields else []
        elif sym.type == "list" and sym.items is not None:
            out = [sym.items]  # an index, an item's id, or a placeholder
        else:
            out = []
        for s in out:
            self.mark(s, False)
        return out

    def walk(self, start: Iterable[Sym], segs: list[str]) -> list[Sym]:
        alts = list(start)
        for seg in segs:
            alts = [nxt for a in alts for nxt in self.step(a, seg.strip())]
        return alts

    def head(self, name: str, scope: _Scope) -> list[Sym]:
        if name in scope.bound and name != "copy":
            return list(scope.bound[name])
        if name in scope.consts:
            return []
        if name in scope.bound:
            return list(scope.bound[name])
        f = scope.kind.fields.get(name)
        if f is None:
            return []
        self.mark(f, False)
        return [f]

    def resolve(self, path: str, scope: _Scope, whole: bool) -> list[Sym]:
        """The declarations a binding path (``a.b``, ``a->b``) reaches, marked as read."""
        hops = path.split("->")
        segs = hops[0].strip().split(".")
        alts = self.walk(self.head(segs[0].strip(), scope), segs[1:])
        for hop in hops[1:]:
            targets = [self.kinds[a.to] for a in alts if isinstance(a, FieldSpec) and a.type == "ref" and a.to is not None and a.to in self.kinds]
            alts = self.walk(targets, hop.strip().split("."))
        if whole:
            for a in alts:
                self.mark(a, True)
        return alts

    def template(self, text: Any, scope: _Scope) -> None:
        if isinstance(text, str):
            for p in template_paths(text):
                self.resolve(p, scope, True)

    def templated_path(self, text: str, scope: _Scope, whole: bool) -> list[Sym]:
        """A path that may hold placeholders (``objectives.scoring.{item.id}.label``)."""
        self.template(text, scope)
        return self.resolve(_PLACEHOLDER.sub("*", text), scope, whole)

    # ------------------------------------------------------------- elements
    def bindings(self, el: Mapping[str, Any], scope: _Scope) -> _Scope:
        """``repeat`` (``item`` bound to the list's items), then ``where``, ``if``, ``unless``."""
        if isinstance(el.get("repeat"), str):
            alts = self.resolve(el["repeat"], scope, False)
            items = tuple(a.items for a in alts if isinstance(a, FieldSpec) and a.items is not None)
            scope = scope.bind(item=items)
        for key in ("where", "if", "unless"):
            cond = el.get(key)
            if isinstance(cond, str):
                self.resolve(cond, scope, False)
            elif isinstance(cond, Mapping) and isinstance(cond.get("field"), str):
                self.resolve(cond["field"], scope, False)
        return scope

    def colour(self, spec: Any, scope: _Scope) -> None:
        if not isinstance(spec, Mapping):
            return
        for key in ("by", "from"):
            if isinstance(spec.get(key), str):
                self.templated_path(spec[key], scope, True)
        self.colour(spec.get("colour"), scope)

    def elements(self, els: Iterable[Mapping[str, Any]], scope: _Scope, seen: tuple[str, ...] = ()) -> None:
        for el in els:
            self.element(el, scope, seen)

    def element(self, el: Mapping[str, Any], scope: _Scope, seen: tuple[str, ...]) -> None:
        s = self.bindings(el, scope)
        kind = KINDS.get(str(el.get("type")))
        for key in ("fill", "stroke", "colour", "backdrop"):
            self.colour(el.get(key), s)
        if kind is not None and kind.shows is not None:  # what the kind reads (cardkit/layout/elements/)
            kind.shows(self, el, s, seen)

    def blocks(self, blocks: Iterable[Mapping[str, Any]], scope: _Scope) -> None:
        for block in blocks:
            s = self.bindings(block, scope)
            if "blocks" in block:
                self.blocks(block["blocks"], s)
            else:
                self.source(block, s)

    def source(self, spec: Mapping[str, Any], s: _Scope) -> None:
        """A text source: ``field``, ``string``, ``ui`` (+ ``args``, ``count``), ``value`` or ``join``."""
        if isinstance(spec.get("field"), str):  # this card's string: a path from the card, whatever is bound
            self.template(spec["field"], s)
            for a in self.walk([s.kind], _PLACEHOLDER.sub("*", spec["field"]).split(".")):
                self.mark(a, True)
        if isinstance(spec.get("string"), str):
            self.template(spec["string"], s)
            m = _CTX_REF.match(spec["string"])
            if m:
                if m.group(1).strip() == "id":
                    targets: list[KindSpec] = [s.kind]
                else:
                    targets = [self.kinds[a.to] for a in self.resolve(m.group(1), s, False)
                               if isinstance(a, FieldSpec) and a.type == "ref" and a.to is not None and a.to in self.kinds]
                for t in targets:
                    for a in self.walk([t], _PLACEHOLDER.sub("*", m.group(2)).split(".")):
                        self.mark(a, True)
        for key in ("ui", "value", "count"):
            self.template(spec.get(key), s)
        for v in (spec.get("args") or {}).values():
            self.template(v, s)
        for part in spec.get("join") or []:
            self.source(part, self.bindings(part, s))

    # ---------------------------------------------------------------- faces
    def face(self, name: str, scope: _Scope) -> None:
        spec = self.book.faces[name]
        s = _Scope(scope.kind, frozenset(spec.get("vars") or {}), scope.bound)
        for cspec in (spec.get("colours") or {}).values():
            self.colour(cspec, s)
        self.colour(spec.get("background"), s)
        self.elements(spec.get("elements", []), s)


def _printed_kinds(book: Any, kinds: Mapping[str, KindSpec]) -> set[str]:
    return {k for entry in book.print for k in entry["kinds"] if k in kinds}


def shown_fields(kinds: Kinds, book: Any) -> set[JsonPath]:
    """The kinds.yaml places (``FieldSpec.where``) of every declaration a face or the print reads."""
    r = _Reader(kinds, book)
    for entry in book.print:
        for kname in entry["kinds"]:
            kind = kinds.kinds.get(kname)
            if kind is None:
                continue  # a kind only a game plugin's typed views name: its cards' kind is declared too
            scope = _Scope(kind)
            if isinstance(entry.get("copies"), str):
                listed = kind.fields.get(entry["copies"])
                alts: tuple[Sym, ...] = (kind,)
                if listed is not None:
                    r.mark(listed, False)
                    if listed.items is not None:
                        alts = (listed.items, kind)
                scope = scope.bind(copy=alts)
            for key in ("sort", "back_variant"):
                if isinstance(entry.get(key), str):
                    r.resolve(entry[key], _Scope(kind), True)
            for side in ("front", "back"):
                fname = entry.get(side)
                if fname in book.faces and not book.faces[fname].get("back"):
                    r.face(fname, scope)
    for kind in kinds.kinds.values():
        for fname in (kind.quantity_field, kind.copies_field, kind.deck_when[0] if kind.deck_when else None):
            if fname is not None and fname in kind.fields:
                r.mark(kind.fields[fname], False)
    return r.used


def unshown_issues(kinds: Kinds, book: Any, doc: YamlDoc) -> list[Issue]:
    """A warning per declared field no face shows (and per kind no print entry lists), at its declaration."""
    used = shown_fields(kinds, book)
    printed = _printed_kinds(book, kinds.kinds)
    out: list[Issue] = []
    seen: set[JsonPath] = set()

    def warn(path: JsonPath, message: str) -> None:
        issue = doc.issue(CODE, message, path, key=True)
        out.append(Issue(issue.code, issue.message, file=issue.file, line=issue.line, column=issue.column,
                         path=issue.path, severity=Severity.WARNING))

    def visit(kname: str, fields: Mapping[str, FieldSpec], prefix: str) -> None:
        for name, spec in fields.items():
            if not spec.shown or spec.where in seen:
                continue
            seen.add(spec.where)
            dotted = prefix + name
            if spec.where not in used:
                warn(spec.where, f"field '{dotted}' of kind '{kname}' is shown by no face (no face drawing its "
                                 "cards reads it; if it is data for the rules, declare it `shown: false`)")
                continue
            sub = spec.items.fields if spec.items is not None and spec.type == "list" else spec.fields
            visit(kname, sub, dotted + ".")

    for kname, kind in kinds.kinds.items():
        if kname not in printed:
            warn(kind.where, f"kind '{kname}' is shown by no face (no entry of the print list in faces.yaml names it)")
            continue
        visit(kname, kind.fields, "")
    return out
