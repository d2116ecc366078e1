"""JSON Schema validation of YAML documents, with file/line/column for each error.

The schemas live in the project's top-level ``schemas/`` folder; an installed
wheel carries the same files under ``cardkit/_data/schemas`` (see
``pyproject.toml``).  :func:`schema_dir` finds whichever is present.
"""

from __future__ import annotations

import copy
import functools
import json
from importlib import resources
from pathlib import Path
from typing import Any, Iterator, Mapping, cast

import regex  # type: ignore[import-untyped]
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource

from cardkit.errors import Issue, quoted
from cardkit.load.bounds import REGEX_TIMEOUT_S
from cardkit.load.yamlsafe import YamlDoc

TEXT_REF = "common.schema.json#/$defs/text"


def schema_dir() -> Path:
    """The folder of schemas this installation uses."""
    packaged = Path(str(resources.files("cardkit"))) / "_data" / "schemas"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "schemas"


def _refuse(uri: str) -> Resource:
    """A ``$ref`` outside cardkit's own schemas is never fetched, from a file or the network."""
    raise NoSuchResource(ref=uri)  # type: ignore[call-arg]


@functools.lru_cache(maxsize=None)
def _registry() -> tuple[Registry, dict[str, dict[str, Any]]]:
    docs: dict[str, dict[str, Any]] = {}
    for path in sorted(schema_dir().glob("*.schema.json")):
        docs[path.name] = json.loads(path.read_text(encoding="utf-8"))
    registry = Registry(retrieve=_refuse).with_resources(  # type: ignore[call-arg]
        (name, Resource.from_contents(doc)) for name, doc in docs.items()
    )
    return registry, docs


def schema_names() -> list[str]:
    return sorted(_registry()[1])


def get_schema(name: str) -> dict[str, Any]:
    return _registry()[1][name]


@functools.lru_cache(maxsize=None)
def validator(name: str) -> Draft202012Validator:
    registry, docs = _registry()
    return Draft202012Validator(docs[name], registry=registry)


def resolve(ref: str, base: str) -> tuple[str, dict[str, Any]]:
    """Follow a ``$ref`` (relative file + JSON pointer) from schema file ``base``."""
    file, _, pointer = ref.partition("#")
    file = file or base
    node: Any = get_schema(file)
    for part in [p for p in pointer.split("/") if p]:
        node = node[part]
    return file, node


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    return {int: "an integer", float: "a number", str: "a string", list: "a list", dict: "a mapping"}.get(type(value), type(value).__name__)


SHORT = 40  # characters of a value quoted in a message; an error line stays readable whatever the input


def short(value: Any) -> str:
    """A value as an error message may quote it: short scalars as they are,
    anything long or nested by its type and size, never the whole value.

    >>> short("gun_jam"), short(3), short([1, 2]), short("x" * 500)
    ("'gun_jam'", '3', 'a list of 2 items', 'a string of 500 characters')
    """
    if isinstance(value, str):
        shown = quoted(value)  # neutral: a control or bidi character as its escape (escapes count toward the length)
        return shown if len(shown) <= SHORT + 12 and "\n" not in value else f"a string of {len(value)} characters"
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)} item{'s' if len(value) != 1 else ''}"
    if isinstance(value, dict):
        return f"a mapping of {len(value)} key{'s' if len(value) != 1 else ''}"
    text = repr(value)
    return text if len(text) <= SHORT else f"{_describe(value)} of {len(text)} digits"


CHOICES_CHARS = 70  # of a list of allowed values in a message (the line stays under 200 characters)


def _choices(values: Any) -> str:
    """Allowed values as a message lists them: each cut to a short quote, the
    list to about :data:`CHOICES_CHARS` (a data-made enum can hold anything).

    >>> _choices(["fish", "salt", "tea"])
    'fish, salt, tea'
    >>> _choices(["x" * 300, "left"])
    'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..., left'
    """
    items = [short(v) if not isinstance(v, str) else _cut(v, SHORT) for v in values]  # (a choice as long as a line: cut)
    shown: list[str] = []
    for item in items[:8]:
        if shown and len(", ".join(shown + [item])) > CHOICES_CHARS:
            break
        shown.append(item)
    return ", ".join(shown) + (f" (and {len(items) - len(shown)} more)" if len(items) > len(shown) else "")


def _form(error: Any) -> str:
    """What a pattern asks for, in words where the schema has them (its own
    ``description`` or that of the ``oneOf`` it is a branch of); else the
    pattern itself, cut to keep the line short."""
    for node in (error, getattr(error, "parent", None)):
        schema = getattr(node, "schema", None)
        text = schema.get("description") if isinstance(schema, dict) else None
        if isinstance(text, str) and text:
            return f"({_cut(text, 70)})"
    return _cut(str(error.validator_value), 60)


def _cut(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


def _size_message(error: ValidationError, path: tuple[str | int, ...]) -> str:
    """minItems/maxItems/minLength/maxLength/uniqueItems: the count, the limit,
    and what to do; never the value itself."""
    kw, limit, value = error.validator, error.validator_value, error.instance
    value = cast(Any, value)  # (the stubs type a validator's values as possibly unset)
    if kw == "uniqueItems":
        return f"the {len(value)} items must all be different"
    if kw in ("minLength", "maxLength"):
        n = len(value) if isinstance(value, str) else 0
        bound = "at most" if kw == "maxLength" else "at least"
        return f"a text of {n} characters; {bound} {limit}"
    n = len(value) if isinstance(value, (list, tuple)) else 0
    noun = path[-1] if path and isinstance(path[-1], str) else "items"
    if kw == "maxItems":
        hint = ": split the file" if len(path) == 1 else ""
        return f"{n} {noun} in one {'file' if len(path) == 1 else 'list'}; at most {limit}{hint}"
    return f"{n} {noun}; at least {limit}"


def _issues_for(error: ValidationError, doc: YamlDoc) -> Iterator[Issue]:
    path = tuple(error.absolute_path)
    kw = error.validator
    branches = error.validator_value if kw in ("anyOf", "oneOf") else None
    if isinstance(branches, list) and branches and all(isinstance(b, dict) and set(b) == {"required"} for b in branches):
        # keys that go together, one set of them needed: a badge's radius, or its w and h
        ways = " or ".join(" and ".join(f"'{k}'" for k in b["required"]) for b in branches)
        yield doc.issue("S002", f"missing a required key: {ways}", path)
        return
    if kw in ("allOf", "anyOf", "oneOf") and error.context:
        # Report the most specific sub-error (the effect branches use allOf + if/then);
        # a branch of another type does not apply (a plural text mapping is not a string).
        for sub in sorted(error.context, key=lambda e: (-len(e.absolute_path), e.validator == "type"))[:1]:
            yield from _issues_for(sub, doc)
        return
    if kw == "additionalProperties" and isinstance(error.instance, dict):
        props = cast(Mapping[str, Any], error.schema).get("properties", {})
        allowed = _choices(sorted(props))
        for key in error.instance:
            if key not in props:
                yield doc.issue("S001", f"unknown key {short(key)} (allowed here: {allowed})", path + (key,), key=True)
        return
    if kw == "required":
        missing = [k for k in cast(Any, error.validator_value) if isinstance(error.instance, dict) and k not in error.instance]
        for key in missing:
            yield doc.issue("S002", f"missing required key '{key}'", path)
        return
    if kw == "dependentRequired":
        yield doc.issue("S002", f"missing a key that goes with the keys present (needs: {_choices(_needed(error))})", path)
        return
    if kw == "type":
        yield doc.issue("S003", f"expected {error.validator_value}, found {_describe(error.instance)}", path)
        return
    if kw in ("enum", "const"):
        choices = error.validator_value if kw == "enum" else [error.validator_value]
        yield doc.issue("S004", f"{short(error.instance)} is not one of: {_choices(choices)}", path)
        return
    if kw in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        yield doc.issue("S005", f"value {short(error.instance)} is out of range ({kw} {error.validator_value})", path)
        return
    if kw in ("minItems", "maxItems", "minLength", "maxLength", "uniqueItems"):
        yield doc.issue("S006", _size_message(error, path), path)
        return
    if kw == "pattern" and isinstance(error.cause, PatternTimeout):
        yield doc.issue("K011", f"{error.message} on this value (over {REGEX_TIMEOUT_S * 1000:.0f} ms): kinds.yaml's "
                        "pattern backtracks; simplify it", path)
        return
    if kw == "pattern":
        yield doc.issue("S007", f"{short(error.instance)} does not match the form {_form(error)}", path)
        return
    if kw in ("minProperties", "maxProperties"):
        n = len(error.instance) if isinstance(error.instance, dict) else 0
        yield doc.issue("S006", f"{n} keys; {'at most' if kw == 'maxProperties' else 'at least'} {error.validator_value}", path)
        return
    yield doc.issue("S000", f"{short(error.instance)} fails the schema rule '{kw}'", path)


def _needed(error: ValidationError) -> list[str]:
    present = error.instance if isinstance(error.instance, dict) else {}
    return sorted({k for key, needs in cast(Any, error.validator_value).items() if key in present for k in needs if k not in present})


@functools.lru_cache(maxsize=512)
def bounded_regex(pattern: str) -> Any:
    """A pattern from a project's data, compiled by the ``regex`` engine, whose
    matches take a timeout (raises ``regex.error`` when it is not valid)."""
    return regex.compile(pattern, regex.V0)  # (V0: the syntax of Python's re, which the pattern was checked with)


_SLOW: set[str] = set()


class PatternTimeout(Exception):
    """A data pattern that took longer than :data:`REGEX_TIMEOUT_S` on one value."""


def _bounded_pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """JSON Schema's ``pattern`` keyword through the bounded engine: a match that
    runs out of time is an error of its own (K011), never a hang."""
    if not validator.is_type(instance, "string") or pattern in _SLOW:
        return  # (a pattern that ran out of time once is reported once, and tried no more)
    try:
        found = bounded_regex(pattern).search(instance, timeout=REGEX_TIMEOUT_S)
    except TimeoutError:
        _SLOW.add(pattern)
        yield ValidationError(f"pattern {short(pattern)} takes too long", cause=PatternTimeout())
        return
    except regex.error:
        yield ValidationError(f"pattern {short(pattern)} is not a valid regular expression", cause=PatternTimeout())
        return
    if found is None:
        yield ValidationError(f"{short(instance)} does not match {short(pattern)}")


# the validator of schemas derived from a project's data: its patterns never backtrack without end
BoundedValidator = validators.extend(Draft202012Validator, {"pattern": _bounded_pattern})


def bounded_validator(schema: dict[str, Any], game_schemas: Mapping[str, str] | None = None) -> Any:
    """A validator for a schema made from a project's data (``kinds.yaml``):
    patterns bounded in time, ``$ref`` only into cardkit's own schemas and the set's game's
    (``game_schemas``: name -> JSON text a game plugin supplies, e.g. its ``effect.schema.json``)."""
    registry = _registry()[0]
    if game_schemas:
        registry = registry.with_resources(  # type: ignore[call-arg]
            (name, Resource.from_contents(json.loads(text))) for name, text in sorted(game_schemas.items()))
    return BoundedValidator(schema, registry=registry)


@functools.lru_cache(maxsize=256)
def _validator_from_text(text: str, game_schemas: tuple[tuple[str, str], ...] = ()) -> Any:
    return bounded_validator(json.loads(text), dict(game_schemas))


def validator_for(name: str, schema: dict[str, Any], game_schemas: Mapping[str, str] | None = None) -> Any:
    """A validator for a derived schema (``$ref``s to the shared schemas and the game's own
    resolve), cached by content so an edited declaration never reuses a stale one."""
    del name  # the content is the key
    return _validator_from_text(json.dumps(schema, sort_keys=True), tuple(sorted((game_schemas or {}).items())))


def validate_doc(doc: YamlDoc, schema_name: str) -> list[Issue]:
    """Every schema problem in ``doc``, each located at its YAML node."""
    return validate_with(doc, validator(schema_name))


def validate_manifest(doc: YamlDoc, owner: str | None, keys: Mapping[str, Mapping[str, Any]] | None = None,
                      components: Mapping[str, Mapping[str, Any]] | None = None) -> list[Issue]:
    """Every schema problem of a ``set.yaml``, against cardkit's schema extended by the keys its
    game's plugin adds (``GamePlugin.manifest_keys``: top-level ``keys`` and ``components``
    counts).  A key that redefines a generic one is the plugin's fault (G055), an extension that
    is no JSON Schema too (G040): one line each at the manifest, the manifest not checked."""
    if not keys and not components:
        return validate_doc(doc, "set.schema.json")
    from jsonschema.exceptions import SchemaError

    schema = copy.deepcopy(get_schema("set.schema.json"))
    top, counts = schema["properties"], schema["properties"]["components"]["properties"]
    clash = sorted(k for k in keys or {} if k in top) + sorted(f"components.{k}" for k in components or {} if k in counts)
    if clash:
        return [doc.issue("G055", f"game '{owner}': its plugin's manifest keys redefine cardkit's own "
                                  f"({', '.join(clash)}); the manifest is not checked", ())]
    top.update({k: dict(v) for k, v in (keys or {}).items()})
    counts.update({k: dict(v) for k, v in (components or {}).items()})
    try:
        Draft202012Validator.check_schema(schema)
        check = validator_for("set.schema.json", schema)
    except (SchemaError, TypeError, ValueError) as exc:
        reason = " ".join((exc.message if isinstance(exc, SchemaError) else str(exc)).split())
        return [doc.issue("G040", f"game '{owner}': its plugin's manifest keys are not valid JSON Schema "
                                  f"({reason if len(reason) <= 120 else reason[:119] + '…'}); the manifest is not checked", ())]
    return validate_with(doc, check)


#: the key of ``set.yaml`` that holds a game's own manifest section
GAME_SECTION = "rules"


def validate_section(doc: YamlDoc, owner: str, schema: Mapping[str, Any]) -> list[Issue]:
    """Every problem of ``doc``'s game section (:data:`GAME_SECTION`) against the
    JSON Schema its game's plugin supplies, each located at its YAML node like any
    schema error (S001-S008); a schema that is no valid JSON Schema is the
    plugin's fault, one line (G040) at the section."""
    from jsonschema.exceptions import SchemaError

    try:
        Draft202012Validator.check_schema(dict(schema))
        check = validator_for(owner, {"type": "object", "properties": {GAME_SECTION: dict(schema)}})
    except (SchemaError, TypeError, ValueError) as exc:
        reason = exc.message if isinstance(exc, SchemaError) else str(exc)
        reason = " ".join(reason.split())
        reason = reason if len(reason) <= 120 else reason[:119] + "…"
        return [doc.issue("G040", f"game '{owner}': its plugin's manifest schema is not a valid JSON Schema "
                                  f"({reason}); the section is not checked", (GAME_SECTION,), key=True)]
    return validate_with(doc, check)


_CHECKED: dict[tuple[str, bytes, int], tuple[Draft202012Validator, list[Issue]]] = {}
_CHECKED_MAX = 512


def validate_with(doc: YamlDoc, check: Draft202012Validator) -> list[Issue]:
    """Every problem ``check`` finds in ``doc``, each located at its YAML node.
    A document read while parses are remembered (it has a ``digest``) is
    checked once per validator (``cardkit preview`` rereads unchanged files)."""
    if not doc.digest or type(doc) is not YamlDoc:
        return _validate(doc, check)
    key = (doc.file, doc.digest, id(check))
    hit = _CHECKED.get(key)
    if hit is None or hit[0] is not check:
        if len(_CHECKED) >= _CHECKED_MAX:
            _CHECKED.clear()
        hit = (check, _validate(doc, check))
        _CHECKED[key] = hit
    return list(hit[1])


def _validate(doc: YamlDoc, check: Draft202012Validator) -> list[Issue]:
    _SLOW.clear()  # a data pattern that runs out of time: reported once per document
    issues: list[Issue] = []
    for error in check.iter_errors(doc.data):
        issues.extend(_issues_for(error, doc))
    # one error can surface through several branches; keep each once
    seen: set[tuple[int, int, str, str]] = set()
    unique = []
    for i in issues:
        key = (i.line, i.column, i.code, i.message)
        if key not in seen:
            seen.add(key)
            unique.append(i)
    return unique


def text_paths(data: Any, schema_name: str) -> Iterator[tuple[tuple[str | int, ...], str | dict[str, str]]]:
    """Yield ``(json_path, value)`` for every translatable string in ``data``:
    the values whose schema is the shared ``text`` definition, a string or a
    plural message (``{text, plural, count}``).  Assumes ``data`` is valid
    against the schema."""

    def walk(value: Any, node: dict[str, Any], file: str, path: tuple[str | int, ...]) -> Iterator[tuple[tuple[str | int, ...], str | dict[str, str]]]:
        while "$ref" in node:
            ref = node["$ref"]
            if ref == TEXT_REF or (file == "common.schema.json" and ref == "#/$defs/text"):
                if isinstance(value, (str, dict)):
                    yield path, value
                return
            file, node = resolve(ref, file)
        if isinstance(value, dict):
            props = node.get("properties", {})
            for key, sub in value.items():
                if key in props:
                    yield from walk(sub, props[key], file, path + (key,))
        elif isinstance(value, list) and "items" in node:
            for i, sub in enumerate(value):
                yield from walk(sub, node["items"], file, path + (i,))
        for alt in node.get("oneOf", []) + node.get("anyOf", []):
            if isinstance(alt, dict) and alt.get("type") != "null" and "properties" in alt and isinstance(value, dict):
                yield from walk(value, alt, file, path)
                break

    yield from walk(data, get_schema(schema_name), schema_name, ())


def load_validated(path: Path, rel: str, schema: str | Mapping[str, Any]) -> YamlDoc:
    """Read a YAML file with the untrusting reader and check it against a schema (the name of
    one of cardkit's, or a game's own schema document whose ``$ref``s may point into cardkit's
    shared schemas); raise :class:`~cardkit.errors.CardkitError` with every located problem."""
    from cardkit.errors import CardkitError
    from cardkit.load.yamlsafe import YamlError, read_yaml_file

    try:
        doc = read_yaml_file(path, rel)
    except YamlError as exc:
        raise CardkitError(exc.issue) from None
    if isinstance(schema, str):
        problems = validate_doc(doc, schema)
    else:
        problems = validate_with(doc, validator_for(rel, dict(schema)))
    if problems:
        raise CardkitError(problems)
    return doc
