"""``cardkit l10n import``: bring existing translations into the catalogs.

Four formats, chosen by the file's extension:

- **CSV** (``.csv``, UTF-8, a header row): a key column, ``msgctxt`` (or
  ``id`` and ``field``, joined as ``id.field``), and a translation column
  (``translation``, ``msgstr``, ``target`` or the locale's code, ``de``);
  optional ``source`` (or ``msgid``, ``en``) and, for plural messages,
  ``msgstr[0]``, ``msgstr[1]`` ...
- **JSON** (``.json``): an object keyed by msgctxt (``{"gun_jam.text": "..."}``)
  or by card id and field (``{"gun_jam": {"name": "...", "text": "..."}}``,
  nested fields joined with dots), a list of strings for the forms of a plural
  message, an object ``{"translation": ..., "source": ...}`` for one entry; or a
  list of objects with ``msgctxt`` (or ``id`` and ``field``) and ``translation``,
  or with ``id`` and the translated fields themselves (``[{"id": "gun_jam",
  "name": "..."}]``).  Numbers, booleans and nulls are not translations and are
  passed over.
- **XLIFF** 1.2 (and the 1.1 translate-toolkit writes) and 2.0 (``.xlf``,
  ``.xliff``): a unit's ``resname``/``name`` or ``id`` is its key, its
  ``<source>`` the English, its ``<target>`` the translation; a unit not
  approved, or in a state that asks for review, is imported fuzzy.  Read with
  expat and no DTD: a ``<!DOCTYPE>`` or an entity declaration is refused.
- **PO** (``.po``): another catalog (read by cardkit's strict reader); its
  fuzzy entries stay fuzzy.

Each record is matched to a card string by its key (a msgctxt of the chosen
sets), else by its English (unique, or narrowed by its source reference), so
files that lost their msgctxt import too.  The report counts what was filled,
what was already there (unchanged), what conflicts (another translation in
the catalog: kept unless ``--overwrite``), what is unknown (no such key or
English) and what is ambiguous (English several strings share, no key).  A
translation of other English than the card's now is imported fuzzy with that
English as its previous source (``#| msgid``).  Every problem of the input
is one located error line and nothing is written; the catalogs are written
as ``l10n update`` writes them, each through one atomic rename.
"""

from __future__ import annotations

import csv
import enum
import io
import json
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from xml.parsers import expat

from cardkit.errors import CardkitError, Issue, Severity
from cardkit.i18n.catalogs import (
    LoadedCatalog,
    Planned,
    PoEntry,
    parse_catalog,
    plan_catalog,
    po_path,
    read_catalog,
    rel,
    template_for,
)
from cardkit.model import SourceString

MAX_IMPORT_BYTES = 16 << 20
MAX_RECORDS = 100_000
MAX_TEXT = 20_000  # characters of one translation
MAX_DEPTH = 16  # nesting of JSON objects and XML elements
MAX_ISSUES = 100


class Format(str, enum.Enum):
    csv = "csv"
    json = "json"
    xliff = "xliff"
    po = "po"


EXTENSIONS = {".csv": Format.csv, ".json": Format.json, ".xlf": Format.xliff, ".xliff": Format.xliff,
              ".po": Format.po}


@dataclass(frozen=True)
class Record:
    """One translation read from the input, where it was read."""

    line: int
    column: int
    key: str | None
    source: str | None
    strings: tuple[str, ...]
    plural: str | None = None
    fuzzy: bool = False
    references: tuple[tuple[str, int | None], ...] = ()


class _Issues:
    def __init__(self, file: str) -> None:
        self.file = file
        self.items: list[Issue] = []

    def add(self, line: int, column: int, message: str) -> None:
        self.items.append(Issue("L030", message, file=self.file, line=line, column=column or 1))

    def raise_any(self) -> None:
        if self.items:
            shown = sorted(self.items, key=lambda i: (i.line, i.column))[:MAX_ISSUES]
            if len(self.items) > MAX_ISSUES:
                shown.append(Issue("L030", f"{len(self.items) - MAX_ISSUES} more problems not shown", file=self.file,
                                   line=shown[-1].line, column=shown[-1].column))
            raise CardkitError(shown)


def format_of(path: Path) -> Format:
    fmt = EXTENSIONS.get(path.suffix.lower())
    if fmt is None:
        raise CardkitError(Issue("L030", f"cannot tell the format from the extension '{path.suffix}' (.csv, .json, "
                                         ".xlf, .xliff or .po)", file=str(path)))
    return fmt


def read_records(raw: bytes, file: str, fmt: Format, locale: str) -> list[Record]:
    """Every translation of the input; :class:`CardkitError` with one located
    ``L030`` line per problem."""
    if len(raw) > MAX_IMPORT_BYTES:
        raise CardkitError(Issue("L030", f"the file is {len(raw)} bytes; the limit is {MAX_IMPORT_BYTES}", file=file,
                                 line=1, column=1))
    issues = _Issues(file)
    if fmt is Format.po:
        try:
            loaded = parse_catalog(raw, file, None)
        except CardkitError as exc:
            raise CardkitError([replace(i, code="L030") for i in exc.issues]) from None
        records = [Record(e.line, 1, e.context, e.id, e.strings, e.plural, e.fuzzy, e.locations)
                   for e in loaded.active if e.translated]
    else:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise CardkitError(Issue("L030", "the file is not valid UTF-8", file=file,
                                     line=raw[:exc.start].count(b"\n") + 1, column=1)) from None
        text = text[1:] if text.startswith("\ufeff") else text
        reader = {Format.csv: _csv, Format.json: _json, Format.xliff: _xliff}[fmt]
        records = reader(text, issues, locale)
    if len(records) > MAX_RECORDS:
        issues.add(records[MAX_RECORDS].line, 1, f"more than {MAX_RECORDS} translations in one file")
    for r in records[:MAX_RECORDS]:
        longest = max((len(s) for s in r.strings), default=0)
        if longest > MAX_TEXT:
            issues.add(r.line, r.column, f"a translation of {longest} characters (the limit is {MAX_TEXT})")
    issues.raise_any()
    return records


# --------------------------------------------------------------------------- CSV

_KEY_COLUMNS = ("msgctxt", "context", "key")
_SOURCE_COLUMNS = ("source", "msgid", "en", "english")
_TARGET_COLUMNS = ("translation", "msgstr", "target")
_FORM = re.compile(r"(?:msgstr|translation)\[(\d)\]")


def _csv(text: str, issues: _Issues, locale: str) -> list[Record]:
    rows = csv.reader(io.StringIO(text, newline=""), strict=True)
    records: list[Record] = []
    try:
        header = next(rows, None)
        if header is None:
            issues.add(1, 1, "the file is empty (a header row is needed: msgctxt, translation)")
            return []
        names = [h.strip().lower() for h in header]
        col = {n: i for i, n in reversed(list(enumerate(names))) if n}

        def first(options: tuple[str, ...]) -> int | None:
            return next((col[o] for o in options if o in col), None)

        key, id_col, field_col = first(_KEY_COLUMNS), col.get("id"), col.get("field")
        source = first(_SOURCE_COLUMNS)
        target = first(_TARGET_COLUMNS + (locale.lower(), locale.split("_")[0].lower()))
        forms = sorted((int(m.group(1)), i) for i, n in enumerate(names) if (m := _FORM.fullmatch(n)))
        if key is None and (id_col is None or field_col is None) and source is None:
            issues.add(1, 1, "no key column: msgctxt (or id and field), or source (the English)")
        if target is None and not forms:
            issues.add(1, 1, f"no translation column: translation, msgstr, target or {locale}")
        if issues.items:
            return []
        seen = len(names)
        for row in rows:
            n = rows.line_num
            if len(records) > MAX_RECORDS:
                break
            if not any(c.strip() for c in row):
                continue
            if len(row) > seen:
                issues.add(n, 1, f"{len(row)} columns; the header has {seen}")
                continue
            cells = row + [""] * (seen - len(row))
            strings = tuple(cells[i] for _, i in forms) if forms else (cells[target] if target is not None else "",)
            if not any(strings):
                continue  # not translated here
            k = cells[key].strip() if key is not None else (
                f"{cells[id_col].strip()}.{cells[field_col].strip()}" if id_col is not None and field_col is not None
                and cells[id_col].strip() else "")
            src = cells[source] if source is not None else None
            if not k and not src:
                issues.add(n, 1, "a row with a translation but neither key nor English source")
                continue
            records.append(Record(n, 1, k or None, src or None, strings))
    except csv.Error as exc:
        issues.add(rows.line_num or 1, 1, f"not readable as CSV: {exc}")
    return records


# --------------------------------------------------------------------------- JSON

def _json(text: str, issues: _Issues, locale: str) -> list[Record]:
    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in items:
            if k in out:
                raise ValueError(f"the key {k!r} twice in one object")
            out[k] = v
        return out

    try:
        data = json.loads(text, object_pairs_hook=pairs)
    except json.JSONDecodeError as exc:
        issues.add(exc.lineno, exc.colno, f"not valid JSON: {exc.msg}")
        return []
    except (ValueError, RecursionError) as exc:
        issues.add(1, 1, f"not valid JSON: {exc}")
        return []
    finder = _JsonLines(text)
    records: list[Record] = []

    def record(path: list[str], key: str | None, value: Any) -> None:
        line = finder.line(path)
        if isinstance(value, str):
            if value:
                records.append(Record(line, 1, key, None, (value,)))
        elif isinstance(value, list):
            if not all(isinstance(v, str) for v in value) or not value:
                issues.add(line, 1, f"{_jpath(path)}: a list holds the forms of a plural message, as strings")
            elif any(value):
                records.append(Record(line, 1, key, None, tuple(value)))
        elif isinstance(value, dict):
            t = next((value[k] for k in ("translation", "msgstr", "target") if k in value), None)
            src = value.get("source")
            if isinstance(t, str):
                t = [t]
            if not isinstance(t, list) or not all(isinstance(s, str) for s in t) or (src is not None and not isinstance(src, str)):
                issues.add(line, 1, f"{_jpath(path)}: 'translation' must be a string or a list of strings, "
                                    "'source' a string")
            elif any(t):
                records.append(Record(line, 1, key, src or None, tuple(t), fuzzy=value.get("fuzzy") is True))

    def walk(path: list[str], node: Any, prefix: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            issues.add(finder.line(path), 1, f"{_jpath(path)}: nested more than {MAX_DEPTH} levels")
            return
        for k, v in node.items():
            key = f"{prefix}.{k}" if prefix else k
            if isinstance(v, dict) and not any(x in v for x in ("translation", "msgstr", "target")):
                walk(path + [k], v, key, depth + 1)
            elif isinstance(v, (str, list, dict)):
                record(path + [k], key, v)

    if isinstance(data, dict):
        walk([], data, "", 0)
    elif isinstance(data, list):
        for i, item in enumerate(data):
            path = [str(i)]
            if not isinstance(item, dict):
                issues.add(finder.line(path), 1, f"{_jpath(path)}: a list holds objects (msgctxt and translation, or id "
                                                 "and the translated fields)")
                continue
            if "msgctxt" in item or ("id" in item and "field" in item):
                key = item.get("msgctxt") if "msgctxt" in item else f"{item.get('id')}.{item.get('field')}"
                if not isinstance(key, str) or key in ("None.None",):
                    issues.add(finder.line(path), 1, f"{_jpath(path)}: msgctxt, id and field must be strings")
                    continue
                record(path, key, {k: v for k, v in item.items() if k not in ("msgctxt", "id", "field")})
            elif isinstance(item.get("id"), str) and item["id"]:
                walk(path, {k: v for k, v in item.items() if k != "id"}, item["id"], 1)
            else:
                issues.add(finder.line(path), 1, f"{_jpath(path)}: an object without msgctxt or id")
    else:
        issues.add(1, 1, "the JSON is neither an object nor a list")
    return records


def _jpath(path: list[str]) -> str:
    return "$" + "".join(f"[{p}]" if p.isdigit() else f".{p}" for p in path)


class _JsonLines:
    """The line of a JSON path: each key's first occurrence after its parent's."""

    def __init__(self, text: str) -> None:
        self.text = text

    def line(self, path: list[str]) -> int:
        at = 0
        for p in path:
            if p.isdigit():
                continue
            found = self.text.find(json.dumps(p, ensure_ascii=False), at)
            if found < 0:
                found = self.text.find(json.dumps(p), at)
            if found >= 0:
                at = found
        return self.text.count("\n", 0, at) + 1


# --------------------------------------------------------------------------- XLIFF

@dataclass
class _Node:
    tag: str  # local name
    attrs: dict[str, str]
    line: int
    column: int
    children: list[_Node] = field(default_factory=list)
    parts: list[Any] = field(default_factory=list)  # text and child nodes in order

    def find(self, tag: str) -> _Node | None:
        return next((c for c in self.children if c.tag == tag), None)

    def all(self, tag: str) -> list[_Node]:
        return [c for c in self.children if c.tag == tag]


def _xml_tree(text: str, issues: _Issues) -> _Node | None:
    """The document as a tree of :class:`_Node` with lines, read by expat with
    no DTD: a document type or entity declaration is refused."""
    parser = expat.ParserCreate(namespace_separator="}")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    stack: list[_Node] = []
    root: list[_Node] = []

    class Refused(Exception):
        pass

    def start(name: str, attrs: dict[str, str]) -> None:
        node = _Node(name.rsplit("}", 1)[-1], {k.rsplit("}", 1)[-1]: v for k, v in attrs.items()},
                     parser.CurrentLineNumber, parser.CurrentColumnNumber + 1)
        if len(stack) > MAX_DEPTH:
            raise Refused(f"elements nested more than {MAX_DEPTH} levels")
        if stack:
            stack[-1].children.append(node)
            stack[-1].parts.append(node)
        else:
            root.append(node)
        stack.append(node)

    def end(name: str) -> None:
        stack.pop()

    def chars(data: str) -> None:
        if stack:
            stack[-1].parts.append(data)

    def doctype(*args: Any) -> None:
        raise Refused("a <!DOCTYPE> declaration (XLIFF needs none; cardkit reads no DTD)")

    def entity(*args: Any) -> None:
        raise Refused("an entity declaration")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = entity
    parser.ExternalEntityRefHandler = lambda *a: 0
    try:
        parser.Parse(text.encode("utf-8"), True)
    except Refused as exc:
        issues.add(parser.CurrentLineNumber, parser.CurrentColumnNumber + 1, f"refused: {exc}")
        return None
    except expat.ExpatError as exc:
        issues.add(exc.lineno, exc.offset + 1, f"not well-formed XML: {expat.ErrorString(exc.code)}")
        return None
    return root[0] if root else None


def _text(node: _Node, issues: _Issues) -> str:
    out = []
    for p in node.parts:
        if isinstance(p, str):
            out.append(p)
        else:
            issues.add(p.line, p.column, f"inline XLIFF markup <{p.tag}> in <{node.tag}>: cardkit's markup (<b>, [icon], "
                                         "{placeholders}) is plain text in a catalog; export without inline codes")
    return "".join(out)


_REVIEW_STATES = {"new", "needs-translation", "needs-adaptation", "needs-l10n", "needs-review-translation",
                  "needs-review-adaptation", "needs-review-l10n", "initial"}


def _xliff(text: str, issues: _Issues, locale: str) -> list[Record]:
    doc = _xml_tree(text, issues)
    if doc is None:
        return []
    if doc.tag != "xliff":
        issues.add(doc.line, doc.column, f"the root element is <{doc.tag}>, not <xliff>")
        return []
    version = doc.attrs.get("version", "")
    records: list[Record] = []
    if version.startswith("1."):
        for f in doc.all("file"):
            body = f.find("body")
            if body is not None:
                _units_1(body, issues, records, 0)
    elif version.startswith("2."):
        for f in doc.all("file"):
            _units_2(f, issues, records, 0)
    else:
        issues.add(doc.line, doc.column, f"XLIFF version {version!r}: cardkit reads 1.2 (and 1.1) and 2.0")
    return records


def _references(unit: _Node) -> tuple[tuple[str, int | None], ...]:
    refs: list[tuple[str, int | None]] = []
    for group in unit.all("context-group"):
        if group.attrs.get("purpose") != "location":
            continue
        ctx = {c.attrs.get("context-type"): "".join(p for p in c.parts if isinstance(p, str)) for c in group.all("context")}
        if ctx.get("sourcefile"):
            line = ctx.get("linenumber", "")
            refs.append((ctx["sourcefile"] or "", int(line) if line.isdigit() else None))
    return tuple(refs)


def _key_1(unit: _Node) -> str | None:
    for group in unit.all("context-group"):
        for c in group.all("context"):
            if c.attrs.get("context-type") in ("x-gettext-msgctxt", "x-po-msgctxt", "msgctxt"):
                return "".join(p for p in c.parts if isinstance(p, str))
    key = unit.attrs.get("resname") or unit.attrs.get("id")
    if key and "\x04" in key:
        key = key.split("\x04", 1)[0]
    return key or None


def _fuzzy_1(unit: _Node, target: _Node | None) -> bool:
    return unit.attrs.get("approved") == "no" or (target is not None and target.attrs.get("state", "") in _REVIEW_STATES)


def _units_1(node: _Node, issues: _Issues, out: list[Record], depth: int) -> None:
    for child in node.children:
        if child.tag == "group" and child.attrs.get("restype") == "x-gettext-plurals":
            units = child.all("trans-unit")
            if len(units) < 2:
                issues.add(child.line, child.column, "a plural group holds a trans-unit per form")
                continue
            sources = [u.find("source") for u in units]
            targets = [u.find("target") for u in units]
            if any(s is None for s in sources):
                issues.add(child.line, child.column, "a trans-unit without <source>")
                continue
            strings = tuple(_text(t, issues) if t is not None else "" for t in targets)
            if any(strings):
                out.append(Record(child.line, child.column, _key_1(units[0]) if units[0].attrs.get("resname") else None,
                                  _text(sources[0], issues), strings, _text(sources[1], issues),  # type: ignore[arg-type]
                                  child.attrs.get("approved") == "no" or any(_fuzzy_1(u, t) for u, t in zip(units, targets)),
                                  _references(child) or _references(units[0])))
        elif child.tag == "group":
            _units_1(child, issues, out, depth + 1)
        elif child.tag == "trans-unit":
            if child.attrs.get("restype") == "x-gettext-domain-header":
                continue
            source, target = child.find("source"), child.find("target")
            if source is None:
                issues.add(child.line, child.column, "a trans-unit without <source>")
                continue
            src = _text(source, issues)
            t = _text(target, issues) if target is not None else ""
            if t:
                key = _key_1(child)
                # translate-toolkit numbers its units: a number is no key
                out.append(Record(child.line, child.column, None if key is None or key.isdigit() else key, src, (t,),
                                  fuzzy=_fuzzy_1(child, target), references=_references(child)))


def _units_2(node: _Node, issues: _Issues, out: list[Record], depth: int) -> None:
    for child in node.children:
        if child.tag == "group":
            _units_2(child, issues, out, depth + 1)
        elif child.tag == "unit":
            segments = [s for s in child.children if s.tag in ("segment", "ignorable")]
            src, tgt, fuzzy = [], [], False
            for s in segments:
                source, target = s.find("source"), s.find("target")
                src.append(_text(source, issues) if source is not None else "")
                tgt.append(_text(target, issues) if target is not None else "")
                fuzzy = fuzzy or s.attrs.get("state", "") in _REVIEW_STATES
            if not segments:
                issues.add(child.line, child.column, "a unit without <segment>")
                continue
            if "".join(tgt):
                key = child.attrs.get("name") or child.attrs.get("id")
                out.append(Record(child.line, child.column, key or None, "".join(src), ("".join(tgt),), fuzzy=fuzzy))


# --------------------------------------------------------------------------- matching and filling

@dataclass
class CatalogResult:
    file: str
    filled: int = 0
    unchanged: int = 0
    conflicts: int = 0
    overwritten: int = 0
    fuzzy: int = 0
    created: bool = False
    plan: Planned | None = None

    def summary(self) -> str:
        conflict = f"{self.conflicts} conflicting (kept; --overwrite replaces them)" if self.conflicts else "0 conflicting"
        return (f"{self.filled} filled, {self.overwritten} overwritten, {self.unchanged} unchanged, {conflict}"
                f"{f', {self.fuzzy} marked fuzzy' if self.fuzzy else ''}{' (new catalog)' if self.created else ''}")


@dataclass
class ImportResult:
    records: int
    catalogs: list[CatalogResult]
    warnings: list[Issue]
    unknown: int = 0
    ambiguous: int = 0


def import_translations(root: Path, domains: list[tuple[str, tuple[SourceString, ...], dict[str, int]]],
                        locale: str, records: list[Record], file: str, *, overwrite: bool = False,
                        fuzzy: bool = False, create: bool = False) -> ImportResult:
    """The catalogs of ``locale`` for ``domains`` with ``records`` filled in
    (nothing is written: :attr:`CatalogResult.plan` holds the bytes)."""
    by_ctx: dict[str, list[tuple[str, SourceString]]] = {}
    by_english: dict[str, list[tuple[str, SourceString]]] = {}
    for domain, strings, _ in domains:
        for s in strings:
            by_ctx.setdefault(s.msgctxt, []).append((domain, s))
            by_english.setdefault(s.text, []).append((domain, s))
    warnings: list[Issue] = []
    errors = _Issues(file)

    def warn(r: Record, code: str, message: str) -> None:
        warnings.append(Issue(code, message, file=file, line=r.line, column=r.column, severity=Severity.WARNING))

    targets: dict[tuple[str, str], tuple[Record, SourceString]] = {}
    unknown = ambiguous = 0
    for r in records:
        hits = by_ctx.get(r.key, []) if r.key else []
        how = "key"
        if not hits and r.source is not None:
            how = "English"
            hits = [h for h in by_english.get(r.source, []) if r.plural is None or h[1].plural == r.plural]
            if len(hits) > 1 and r.references:
                refs = set(r.references)
                narrowed = [h for h in hits if (h[1].file, h[1].line) in refs]
                hits = narrowed if len(narrowed) == 1 else hits
        if not hits:
            unknown += 1
            what = f"key '{r.key}'" if r.key else f"English {(r.source or '')[:50]!r}"
            nor = f" (nor the English {r.source[:50]!r})" if r.key and r.source else ""
            warn(r, "L032", f"unknown {what}: no string of the chosen sets has it{nor}")
            continue
        if len(hits) > 1:
            ambiguous += 1
            names = ", ".join(f"{d}:{s.msgctxt}" for d, s in hits[:4]) + (" ..." if len(hits) > 4 else "")
            said = (r.key if how == "key" else r.source) or ""
            warn(r, "L033", f"the {how} {said[:50]!r} is that of {len(hits)} strings "
                            f"({names}): give the msgctxt{' or --set' if how == 'key' else ''}; not imported")
            continue
        domain, s = hits[0]
        if (domain, s.msgctxt) in targets:
            first = targets[(domain, s.msgctxt)][0]
            if first.strings != r.strings:
                warn(r, "L031", f"{s.msgctxt}: a second, different translation in this file (the first, line "
                                f"{first.line}, is imported)")
            continue
        targets[(domain, s.msgctxt)] = (r, s)
    from cardkit.strings.localize import plural_forms

    n = plural_forms(locale)
    for (_, msgctxt), (r, s) in targets.items():
        want = n if s.plural is not None else 1
        if len(r.strings) != want and not (s.plural is not None and len(r.strings) == 1 and n == 1):
            errors.add(r.line, r.column, f"{msgctxt}: {len(r.strings)} form(s) for a message that takes {want} "
                                         f"({'plural, Plural-Forms of ' + locale if s.plural is not None else 'not plural'})")
    errors.raise_any()
    results: list[CatalogResult] = []
    for domain, strings, budgets in domains:
        mine = {m: v for (d, m), v in targets.items() if d == domain}
        path = po_path(root, locale, domain)
        cfile = rel(root, path)
        exists = os.path.lexists(path)
        if not mine and not (create and not exists):
            continue
        if not exists and not create:
            raise CardkitError(Issue("L005", f"no {locale} catalog for '{domain}' (add it: cardkit l10n update --locale "
                                             f"{locale} --create, or l10n init)", file=cfile))
        old = read_catalog(path, cfile, locale, root) if exists else None
        res = CatalogResult(cfile, created=not exists)
        entries = list(old.entries) if old is not None else []
        at = {e.context: i for i, e in enumerate(entries) if not e.obsolete and e.context is not None}
        for msgctxt, (r, s) in mine.items():
            current = entries[at[msgctxt]] if msgctxt in at else None
            new_strings = r.strings if s.plural is not None or len(r.strings) == 1 else r.strings[:1]
            if s.plural is not None and len(new_strings) == 1 and n == 1:
                new_strings = new_strings[:1]
            other_english = r.source is not None and r.source != s.text
            mark = fuzzy or r.fuzzy or other_english
            if current is not None and current.translated:
                if current.strings == new_strings:
                    res.unchanged += 1
                    continue
                if not overwrite:
                    res.conflicts += 1
                    shown = " | ".join(current.strings)[:60]
                    warn(r, "L031", f"{msgctxt}: the catalog ({cfile}:{current.line}) has another translation "
                                    f"({shown!r}); kept (--overwrite replaces it)")
                    continue
                res.overwritten += 1
            else:
                res.filled += 1
            res.fuzzy += mark
            flags = tuple(f for f in (current.flags if current is not None else ()) if f != "fuzzy")
            entry = PoEntry(0, msgctxt, r.source if other_english and r.source is not None else s.text,
                            (r.plural or s.plural) if s.plural is not None else None, new_strings,
                            flags + (("fuzzy",) if mark else ()),
                            user_comments=current.user_comments if current is not None else ())
            if current is not None:
                entries[at[msgctxt]] = entry
            else:
                entries.append(entry)
        loaded = replace(old, entries=tuple(entries)) if old is not None else LoadedCatalog(cfile, _empty(), "", tuple(entries))
        template = template_for(domain, strings, budgets)
        res.plan = plan_catalog(root, template, locale, loaded if (old is not None or entries) else None)
        results.append(res)
    return ImportResult(len(records), results, warnings, unknown, ambiguous)


def _empty() -> Any:
    from babel.messages.catalog import Catalog

    return Catalog()
