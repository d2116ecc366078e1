"""Card kinds declared in data: a set's ``kinds.yaml``.

A set declares every kind of card it holds: the card file that lists them
(``file_kind``), the face template, the deck (which back), the quantity rule
and the typed fields.  From that declaration this module derives

* the JSON Schema of each card file (:func:`derive_schema`, written beside the
  set as ``schemas/<file_kind>.schema.json`` for editors);
* the translatable strings and their ``<card id>.<field>`` contexts
  (:func:`text_paths`);
* the defaults a card's ``fields`` mapping gets (:func:`with_defaults`);
* the checks stated in data (:func:`data_checks`): references resolve to a
  card of the named kind, ``unique`` values, ``sequence`` values run 1..N.

Problems in the declaration itself are located issues (``K001``-``K009``), like
card errors.  Field types are listed in :data:`BASE_TYPES`; ``docs/authoring.md``
("Card kinds") documents each.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field, replace
from typing import Any, Iterator, Mapping

import regex  # type: ignore[import-untyped]
from jsonschema import Draft202012Validator

from cardkit.errors import Issue, JsonPath, Severity
from cardkit.load.schema import bounded_regex, bounded_validator, resolve, schema_names, short
from cardkit.load.yamlsafe import YamlDoc

ID_PATTERN = "^[a-z][a-z0-9_]{0,63}$"
MAX_CARDS = 500  # card entries in one file unless the kind says otherwise (its ``max_cards``)
MAX_CARDS_LIMIT = 5000  # the most a kind's ``max_cards`` may say (kinds.schema.json), so a sheet's rows too
MAX_COPIES = 99  # physical copies of one card entry (as kinds.schema.json bounds a fixed quantity)
BASE_TYPES = ("text", "label", "integer", "boolean", "enum", "icons", "ref", "image", "list", "record",
              "effects", "effect")
RESERVED = ("id", "kind")  # every card has an id; `kind` names the file's kind
# options each base type accepts besides the common ones
_COMMON = {"type", "description", "optional", "nullable", "default", "unique", "shown"}
_OPTIONS = {
    "text": {"max_length"},
    "label": {"pattern", "form", "max_length"},
    "integer": {"min", "max", "sequence"},
    "boolean": set(),
    "enum": {"values"},
    "icons": {"values", "min_items", "max_items", "unique_items"},
    "ref": {"to"},
    "image": set(),
    "list": {"items", "min_items", "max_items", "unique_items"},
    "record": {"fields", "rules"},
    "effects": {"vocabulary", "min_items", "max_items"},
    "effect": {"vocabulary"},
}
DEFS: dict[str, Any] = {
    "id": {"type": "string", "pattern": ID_PATTERN, "description": "stable card id: lower-case letters, digits and underscores"},
    "text": {"description": "English source string (translated through the gettext catalogs): a plain string, "
                            "or a plural message whose wording depends on a number",
             "anyOf": [{"$ref": "#/$defs/plain_text"}, {"$ref": "#/$defs/plural_text"}]},
    "plain_text": {"type": "string", "minLength": 1, "maxLength": 2000, "description": "English source string"},
    "plural_text": {"type": "object", "additionalProperties": False, "required": ["text", "plural", "count"],
                    "description": "a plural message: English singular, English plural, and the placeholder holding "
                                   "the number ({count} in both texts)",
                    "properties": {"text": {"$ref": "#/$defs/plain_text"}, "plural": {"$ref": "#/$defs/plain_text"},
                                   "count": {"type": "string", "pattern": "^[a-z_][a-z0-9_]{0,40}$"}}},
    "image": {"type": "string", "pattern": "^[^\\\\:*?\"<>|]{1,200}$",
              "description": "an image file (PNG, JPEG or WebP) relative to the set folder"},
}
_MISSING = object()


@dataclass(frozen=True)
class FieldSpec:
    """One declared field, named types already resolved to a base type."""

    type: str
    where: JsonPath  # path of the declaration in kinds.yaml
    optional: bool = False
    nullable: bool = False
    default: Any = _MISSING
    description: str = ""
    min: int | None = None
    max: int | None = None
    values: tuple[Any, ...] = ()
    pattern: str | None = None
    max_length: int | None = None
    to: str | None = None
    items: "FieldSpec | None" = None
    min_items: int | None = None
    max_items: int | None = None
    unique_items: bool = False
    fields: Mapping[str, "FieldSpec"] = field(default_factory=dict)
    rules: tuple[Any, ...] = ()
    vocabulary: str = "effect"
    unique: bool = False
    sequence: bool = False
    shown: bool = True  # False: data for the game's rules that no face prints (no M006 warning)

    @property
    def required(self) -> bool:
        return not self.optional and self.default is _MISSING

    @property
    def has_default(self) -> bool:
        return self.default is not _MISSING


@dataclass(frozen=True)
class KindSpec:
    """One kind of card: where its cards are listed, how it prints, its fields."""

    name: str
    file_kind: str
    label: str
    deck: str
    fields: Mapping[str, FieldSpec]
    deck_when: tuple[str, Any, str] | None = None  # (field, value, deck): cards with that value go to another deck
    quantity: int | None = 1  # fixed copies, or None when read from ``quantity_field``
    quantity_field: str | None = None
    copies_field: str | None = None
    one_of: tuple[tuple[str, ...], ...] = ()
    together: tuple[tuple[str, ...], ...] = ()
    max_cards: int = MAX_CARDS
    where: JsonPath = ()

    def deck_of(self, card: Mapping[str, Any]) -> str:
        """The deck (and so the back) of one card, from its fields with defaults."""
        if self.deck_when is not None and card.get(self.deck_when[0]) == self.deck_when[1]:
            return self.deck_when[2]
        return self.deck

    def copies(self, card: Mapping[str, Any]) -> int:
        """Physical copies of one card entry (validated data)."""
        if self.quantity_field is None:
            return int(self.quantity or 1)
        if self.copies_field and isinstance(card.get(self.copies_field), list):
            return len(card[self.copies_field])
        spec = self.fields[self.quantity_field]
        return int(card.get(self.quantity_field, spec.default if spec.has_default else 1))


@dataclass(frozen=True)
class Kinds:
    """A set's declaration: kinds by name and by the ``kind:`` of their files."""

    file: str
    kinds: Mapping[str, KindSpec]
    by_file: Mapping[str, KindSpec]


class _Parser:
    def __init__(self, doc: YamlDoc, vocabularies: Mapping[str, frozenset[str]],
                 game_schemas: Mapping[str, str] | None = None) -> None:
        self.doc = doc
        self.vocab = vocabularies
        self.game_schemas = game_schemas
        self.issues: list[Issue] = []
        self.types: dict[str, Any] = doc.data.get("types", {}) or {}
        self.kind_names = set(doc.data.get("kinds", {}))

    def fail(self, code: str, message: str, path: JsonPath, key: bool = False) -> None:
        issue = self.doc.issue(code, message, path, key=key)
        if issue not in self.issues:  # a named type used by several fields reports its problem once
            self.issues.append(issue)

    def field(self, raw: Mapping[str, Any], path: JsonPath, seen: tuple[str, ...] = ()) -> FieldSpec | None:
        typ = raw["type"]
        if typ not in BASE_TYPES:
            if typ in self.types:
                if typ in seen:
                    self.fail("K001", f"type '{typ}' is defined through itself ({' -> '.join(seen + (typ,))})", path + ("type",))
                    return None
                base = self.field(self.types[typ], ("types", typ), seen + (typ,))
                if base is None:
                    return None
                # a use may make a named type optional, nullable or give it a default and description
                extra = set(raw) - {"type", "optional", "nullable", "default", "description", "unique", "shown"}
                for k in sorted(extra):
                    self.fail("K008", f"option '{k}' cannot be set on a use of named type '{typ}'; set it in types.{typ}", path + (k,), key=True)
                spec = replace(base, where=path, optional=raw.get("optional", base.optional),
                                nullable=raw.get("nullable", base.nullable), default=raw.get("default", base.default),
                                description=raw.get("description", base.description), unique=raw.get("unique", base.unique),
                                shown=raw.get("shown", base.shown))
                return self._check_default(spec, path)
            choices = list(BASE_TYPES) + sorted(self.types)
            close = difflib.get_close_matches(typ, choices, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else f" (types: {_listed(choices)})"
            self.fail("K001", f"unknown field type '{typ}'{hint}", path + ("type",))
            return None
        ok = True
        for k in sorted(set(raw) - _COMMON - _OPTIONS[typ]):
            self.fail("K008", f"option '{k}' does not apply to a field of type {typ}", path + (k,), key=True)
            ok = False
        items = None
        sub: dict[str, FieldSpec] = {}
        if typ == "list":
            if "items" not in raw:
                self.fail("K008", "a list field needs `items:` (the type of each item)", path)
                return None
            items = self.field(raw["items"], path + ("items",), seen)
            ok = ok and items is not None
        if typ == "record":
            if not raw.get("fields"):
                self.fail("K008", "a record field needs `fields:`", path)
                return None
            for name, fraw in raw["fields"].items():
                fs = self.field(fraw, path + ("fields", name), seen)
                if fs is None:
                    ok = False
                else:
                    sub[name] = fs
        if typ in ("enum", "icons") and not raw.get("values"):
            self.fail("K008", f"a field of type {typ} needs `values:`", path)
            ok = False
        if typ == "ref":
            to = raw.get("to")
            if to is None:
                self.fail("K008", "a ref field needs `to:` (the kind of card it names)", path)
                ok = False
            elif to not in self.kind_names:
                close = difflib.get_close_matches(to, sorted(self.kind_names), n=1)
                hint = f"; did you mean '{close[0]}'?" if close else f" (kinds: {_listed(sorted(self.kind_names))})"
                self.fail("K002", f"ref to unknown kind '{to}'{hint}", path + ("to",))
                ok = False
        if typ in ("effects", "effect"):
            vocab = raw.get("vocabulary", "effect")
            if vocab not in self.vocab:
                known = ", ".join(sorted(self.vocab)) or "none: the set's game has no effect vocabulary"
                self.fail("K007", f"effect vocabulary '{vocab}' is not provided by the set's game (vocabularies: {known})",
                          path + (("vocabulary",) if "vocabulary" in raw else ("type",)))
                ok = False
        for lo, hi in (("min", "max"), ("min_items", "max_items")):
            if lo in raw and hi in raw and raw[lo] > raw[hi]:
                self.fail("K008", f"{lo} {raw[lo]} is larger than {hi} {raw[hi]}", path + (lo,))
                ok = False
        if "pattern" in raw and not self._pattern(raw["pattern"], path + ("pattern",)):
            ok = False
        for ri, rule in enumerate(raw.get("rules") or ()):
            ok = self._rule(rule, path + ("rules", ri)) and ok
        if raw.get("sequence") and not raw.get("unique"):
            self.fail("K008", "`sequence: true` needs `unique: true` (values running 1..N are distinct)", path + ("sequence",))
            ok = False
        if not ok:
            return None
        spec = FieldSpec(
            type=typ, where=path, optional=bool(raw.get("optional", False)), nullable=bool(raw.get("nullable", False)),
            default=raw.get("default", _MISSING), description=raw.get("description", ""), min=raw.get("min"),
            max=raw.get("max"), values=tuple(raw.get("values", ())),
            pattern=ID_PATTERN if raw.get("form") == "id" else raw.get("pattern"), max_length=raw.get("max_length"),
            to=raw.get("to"), items=items, min_items=raw.get("min_items"), max_items=raw.get("max_items"),
            unique_items=bool(raw.get("unique_items", False)), fields=sub, rules=tuple(raw.get("rules", ())),
            vocabulary=raw.get("vocabulary", "effect"), unique=bool(raw.get("unique", False)),
            sequence=bool(raw.get("sequence", False)), shown=bool(raw.get("shown", True)))
        return self._check_default(spec, path)

    def _pattern(self, pattern: str, path: JsonPath) -> bool:
        """A pattern valid for Python's ``re`` (what editors and jsonschema read)
        and for the bounded engine cardkit matches it with."""
        try:
            re.compile(pattern)
            bounded_regex(pattern)
        except (re.error, regex.error) as exc:
            self.fail("K008", f"pattern is not a valid regular expression: {str(exc)[:80]}", path)
            return False
        return True

    def _rule(self, rule: Mapping[str, Any], path: JsonPath) -> bool:
        """A record's ``rules`` entry: a valid JSON Schema (K012) whose ``$ref``s
        stay within the kind's definitions and cardkit's own schemas (K013:
        nothing is read from a file or fetched), its patterns valid (K008)."""
        meta = Draft202012Validator(Draft202012Validator.META_SCHEMA)
        err = next(iter(sorted(meta.iter_errors(rule), key=lambda e: (len(e.absolute_path), e.validator))), None)
        if err is not None:
            where = f"`{err.absolute_path[-1]}` holds {short(err.instance)}" if err.absolute_path else "it"
            self.fail("K012", f"this rule is not a valid JSON Schema: {where} (fails '{err.validator}')",
                      path + tuple(err.absolute_path))
            return False
        ok = True
        for sub, node in _schema_nodes(rule, path):
            for key in sorted(set(node) & _REFUSED_KEYWORDS):
                self.fail("K012", f"`{key}` is not allowed in a rule (a rule is checked as part of the card file's schema)",
                          sub + (key,), key=True)
                ok = False
            ref = node.get("$ref")
            if isinstance(ref, str) and not _ref_allowed(ref):
                self.fail("K013", f"$ref {short(ref)} refused: a rule refers only to #/$defs/<name> or cardkit's schemas "
                          "(never a file or URL)", sub + ("$ref",))
                ok = False
            if isinstance(node.get("pattern"), str):
                ok = self._pattern(node["pattern"], sub + ("pattern",)) and ok
        return ok

    def _check_default(self, spec: FieldSpec, path: JsonPath) -> FieldSpec | None:
        if not spec.has_default:
            return spec
        node = {"$defs": DEFS, **field_schema(spec)}
        errors = sorted(bounded_validator(node, self.game_schemas).iter_errors(spec.default),
                        key=lambda e: len(e.absolute_path))
        if not errors:
            return spec
        err = errors[0]
        if err.validator == "enum":
            why = f"not one of the field's values ({', '.join(map(str, spec.values))})"
        else:
            why = f"it fails the field's rule '{err.validator}'"  # (the value is quoted above, 40 characters at most)
        self.fail("K003", f"default {json.dumps(spec.default)[:40]} does not fit this {spec.type} field: {why}", path + ("default",))
        return None

    def kind(self, name: str, raw: Mapping[str, Any]) -> KindSpec | None:
        path: JsonPath = ("kinds", name)
        fields: dict[str, FieldSpec] = {}
        ok = True
        for fname, fraw in raw["fields"].items():
            if fname in RESERVED:
                self.fail("K004", f"field '{fname}' is reserved: every card has an id and its file a kind", path + ("fields", fname), key=True)
                ok = False
                continue
            fs = self.field(fraw, path + ("fields", fname))
            if fs is None:
                ok = False
            else:
                fields[fname] = fs
        q = raw.get("quantity", 1)
        qfield = copies = None
        if isinstance(q, dict):
            qfield, copies = q["field"], q.get("copies")
            qf = fields.get(qfield)
            if qfield not in raw["fields"]:
                self.fail("K005", f"quantity is read from field '{qfield}', which kind '{name}' does not declare", path + ("quantity", "field"))
                ok = False
            elif qf is not None and (qf.type != "integer" or (qf.min or 0) < 1 or qf.max is None or qf.max > MAX_COPIES):
                self.fail("K005", f"quantity field '{qfield}' must be an integer field with min 1 or more and max at most "
                          f"{MAX_COPIES}", path + ("quantity", "field"))
                ok = False
            if copies is not None:
                cf = fields.get(copies)
                if copies not in raw["fields"]:
                    self.fail("K005", f"copies are read from field '{copies}', which kind '{name}' does not declare", path + ("quantity", "copies"))
                    ok = False
                elif cf is not None and cf.type != "list":
                    self.fail("K005", f"copies field '{copies}' must be a list field", path + ("quantity", "copies"))
                    ok = False
        dw = raw.get("deck_when")
        if dw is not None and dw["field"] not in raw["fields"]:
            self.fail("K005", f"deck_when reads field '{dw['field']}', which kind '{name}' does not declare", path + ("deck_when", "field"))
            ok = False
        for group_key in ("one_of", "together"):
            for gi, group in enumerate(raw.get(group_key, [])):
                for fi, fname in enumerate(group):
                    if fname not in raw["fields"]:
                        self.fail("K005", f"{group_key} names field '{fname}', which kind '{name}' does not declare", path + (group_key, gi, fi))
                        ok = False
        if not ok:
            return None
        return KindSpec(name=name, file_kind=raw["file_kind"], label=raw["label"],
                        deck=raw["deck"], fields=fields,
                        deck_when=(dw["field"], dw["equals"], dw["deck"]) if dw else None, quantity=None if qfield else int(q), quantity_field=qfield,
                        copies_field=copies, one_of=tuple(tuple(g) for g in raw.get("one_of", [])),
                        together=tuple(tuple(g) for g in raw.get("together", [])),
                        max_cards=raw.get("max_cards", MAX_CARDS), where=path)


def _listed(names: list[str], most: int = 8) -> str:
    """Names for a message, at most ``most`` of them (an error line stays short)."""
    return ", ".join(names[:most]) + (f" and {len(names) - most} more" if len(names) > most else "")


_REFUSED_KEYWORDS = frozenset({"$id", "$schema", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary",
                               "patternProperties"})  # (patternProperties: matched by jsonschema with Python's re)


def _schema_nodes(node: Any, path: JsonPath) -> Iterator[tuple[JsonPath, Mapping[str, Any]]]:
    """Every mapping in a schema (subschemas, and any mapping a keyword holds), with its path."""
    if isinstance(node, dict):
        yield path, node
        for k, v in node.items():
            if k not in ("enum", "const", "default", "examples"):
                yield from _schema_nodes(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _schema_nodes(v, path + (i,))


def _ref_allowed(ref: str) -> bool:
    """``#/$defs/<name>`` of the derived schema, or a pointer into one of cardkit's schemas that exists."""
    if ref.startswith("#"):
        return ref.startswith("#/$defs/") and ref[len("#/$defs/"):] in DEFS
    file, _, _ = ref.partition("#")
    if file not in schema_names():
        return False
    try:
        resolve(ref, file)
    except (KeyError, TypeError, IndexError):
        return False
    return True


def parse_kinds(doc: YamlDoc, vocabularies: Mapping[str, frozenset[str]],
                game_schemas: Mapping[str, str] | None = None) -> tuple[Kinds | None, list[Issue]]:
    """The declaration in a schema-valid ``kinds.yaml``, or None and every problem
    (``game_schemas``: the game plugin's schemas that effect fields refer to)."""
    p = _Parser(doc, vocabularies, game_schemas)
    kinds: dict[str, KindSpec] = {}
    by_file: dict[str, KindSpec] = {}
    claimed: dict[str, str] = {}
    for name, raw in doc.data["kinds"].items():
        spec = p.kind(name, raw)
        fk = raw["file_kind"]
        if fk in claimed:
            p.fail("K004", f"kinds '{claimed[fk]}' and '{name}' both list their cards in files of kind '{fk}'",
                   ("kinds", name, "file_kind"))
            continue
        claimed[fk] = name
        if spec is not None:
            kinds[name] = spec
            by_file[fk] = spec
    for tname, _traw in (doc.data.get("types") or {}).items():
        if tname in BASE_TYPES:
            p.fail("K004", f"type name '{tname}' is a built-in field type", ("types", tname), key=True)
    if p.issues:
        return None, p.issues
    return Kinds(doc.file, kinds, by_file), []


# -- derived JSON Schema ---------------------------------------------------


def field_schema(spec: FieldSpec) -> dict[str, Any]:
    """The JSON Schema of one field's value."""
    t = spec.type
    node: dict[str, Any]
    if t == "text":
        node = {"$ref": "#/$defs/text"} if spec.max_length is None else {"type": "string", "minLength": 1, "maxLength": spec.max_length}
    elif t == "label":
        node = {"type": "string", "minLength": 1, "maxLength": spec.max_length or 200}
        if spec.pattern == ID_PATTERN:
            node = {"$ref": "#/$defs/id"}
        elif spec.pattern:
            node["pattern"] = spec.pattern
    elif t == "integer":
        node = {"type": "integer"}
        if spec.min is not None:
            node["minimum"] = spec.min
        if spec.max is not None:
            node["maximum"] = spec.max
    elif t == "boolean":
        node = {"type": "boolean"}
    elif t == "enum":
        node = {"enum": list(spec.values)}
    elif t == "ref":
        node = {"$ref": "#/$defs/id"}
    elif t == "image":
        node = {"$ref": "#/$defs/image"}
    elif t in ("icons", "list", "effects"):
        if t == "icons":
            items: dict[str, Any] = {"enum": list(spec.values)}
        elif t == "effects":
            items = {"$ref": f"effect.schema.json#/$defs/{spec.vocabulary}"}
        else:
            assert spec.items is not None
            items = field_schema(spec.items)
        node = {"type": "array", "items": items}
        if spec.min_items is not None:
            node["minItems"] = spec.min_items
        if spec.max_items is not None:
            node["maxItems"] = spec.max_items
        if spec.unique_items:
            node["uniqueItems"] = True
    elif t == "effect":
        node = {"$ref": f"effect.schema.json#/$defs/{spec.vocabulary}"}
    else:  # record
        node = record_schema(spec.fields)
        if spec.rules:
            node["allOf"] = list(spec.rules)
    if spec.description:
        node = {**node, "description": spec.description} if "$ref" not in node else {"$ref": node["$ref"], "description": spec.description}
    if spec.nullable:
        node = {"oneOf": [{"type": "null"}, node]}
    return node


def record_schema(fields: Mapping[str, FieldSpec], id_field: bool = False) -> dict[str, Any]:
    props: dict[str, Any] = {"id": {"$ref": "#/$defs/id"}} if id_field else {}
    props.update({name: field_schema(f) for name, f in fields.items()})
    required = (["id"] if id_field else []) + [n for n, f in fields.items() if f.required]
    node: dict[str, Any] = {"type": "object", "additionalProperties": False}
    if required:
        node["required"] = required
    node["properties"] = props
    return node


def derive_schema(kind: KindSpec, source: str) -> dict[str, Any]:
    """The JSON Schema of a card file of ``kind`` (a plain dict, deterministic)."""
    card = record_schema(kind.fields, id_field=True)
    # one_of/together only constrain what the card states: a group member with a default is still "absent"
    for a in kind.together:
        card.setdefault("dependentRequired", {}).update({f: [g for g in a if g != f] for f in a})
    if kind.one_of:
        alts = []
        for gi, group in enumerate(kind.one_of):
            others = [f for gj, g in enumerate(kind.one_of) if gj != gi for f in g]
            alt: dict[str, Any] = {"required": list(group)}
            if others:
                alt["not"] = {"anyOf": [{"required": [f]} for f in others]}
            alts.append(alt)
        card["oneOf"] = alts
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{kind.label}s of kind '{kind.name}' (derived from {source}: do not edit, run cardkit validate --write-schemas)",
        "type": "object",
        "additionalProperties": False,
        "required": ["kind", "cards"],
        "properties": {
            "kind": {"const": kind.file_kind},
            "cards": {"type": "array", "minItems": 1, "maxItems": kind.max_cards, "items": card},
        },
        "$defs": DEFS,
    }


def schema_text(schema: Mapping[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


# -- strings, defaults, data checks ----------------------------------------


def text_paths(card: Any, fields: Mapping[str, FieldSpec], path: JsonPath) -> Iterator[tuple[JsonPath, Any]]:
    """``(json path, string)`` of every translatable string in one card, in the card's key order."""
    for key, value in card.items() if isinstance(card, dict) else ():
        spec = fields.get(key)
        if spec is not None:
            yield from _texts(value, spec, path + (key,))


def _texts(value: Any, spec: FieldSpec, path: JsonPath) -> Iterator[tuple[JsonPath, Any]]:
    if value is None:
        return
    if spec.type == "text" and (isinstance(value, str) or isinstance(value, dict) and "plural" in value):
        yield path, value  # a plain string, or a plural message {text, plural, count}
    elif spec.type == "list" and spec.items is not None and isinstance(value, list):
        for i, item in enumerate(value):
            yield from _texts(item, spec.items, path + (i,))
    elif spec.type == "record":
        yield from text_paths(value, spec.fields, path)


def with_defaults(card: Mapping[str, Any], fields: Mapping[str, FieldSpec]) -> dict[str, Any]:
    """The card's mapping with every absent defaulted field filled in (records too)."""
    out = dict(card)
    for name, spec in fields.items():
        if name not in out:
            if spec.has_default:
                out[name] = _copy(spec.default)
        elif spec.type == "record" and isinstance(out[name], dict):
            out[name] = with_defaults(out[name], spec.fields)
        elif spec.type == "list" and spec.items is not None and spec.items.type == "record" and isinstance(out[name], list):
            out[name] = [with_defaults(v, spec.items.fields) if isinstance(v, dict) else v for v in out[name]]
    return out


def _copy(value: Any) -> Any:
    return json.loads(json.dumps(value)) if isinstance(value, (list, dict)) else value


def refs(value: Any, spec: FieldSpec, path: JsonPath) -> Iterator[tuple[JsonPath, str, str]]:
    """``(path, card id, kind)`` of every ``ref`` value under one field."""
    if value is None:
        return
    if spec.type == "ref" and isinstance(value, str):
        assert spec.to is not None
        yield path, value, spec.to
    elif spec.type == "list" and spec.items is not None and isinstance(value, list):
        for i, item in enumerate(value):
            yield from refs(item, spec.items, path + (i,))
    elif spec.type == "record" and isinstance(value, dict):
        for k, v in value.items():
            if k in spec.fields:
                yield from refs(v, spec.fields[k], path + (k,))


def stale_issue(file: str, what: str) -> Issue:
    return Issue("K009", f"derived schema {what}; run: cardkit validate --write-schemas", file=file, line=1, column=1,
                 severity=Severity.WARNING)


def effects_in(card: Any, fields: Mapping[str, FieldSpec], path: JsonPath) -> Iterator[tuple[JsonPath, Any, str]]:
    """``(path, effect mapping, vocabulary)`` of every effect in one (unvalidated) card."""
    for key, value in card.items() if isinstance(card, dict) else ():
        spec = fields.get(key)
        if spec is not None:
            yield from _effects_under(value, spec, path + (key,))


def _effects_under(value: Any, spec: FieldSpec, path: JsonPath) -> Iterator[tuple[JsonPath, Any, str]]:
    if spec.type == "effect" and isinstance(value, dict):
        yield path, value, spec.vocabulary
    elif spec.type == "effects" and isinstance(value, list):
        for i, v in enumerate(value):
            yield path + (i,), v, spec.vocabulary
    elif spec.type == "list" and spec.items is not None and isinstance(value, list):
        for i, v in enumerate(value):
            yield from _effects_under(v, spec.items, path + (i,))
    elif spec.type == "record":
        yield from effects_in(value, spec.fields, path)


def all_fields(fields: Mapping[str, FieldSpec]) -> Iterator[FieldSpec]:
    """Every field spec, nested ones included."""
    for spec in fields.values():
        yield spec
        if spec.items is not None:
            yield from all_fields({"items": spec.items})
        yield from all_fields(spec.fields)
