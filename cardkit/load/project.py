"""Load a cardkit project folder: ``cards/<set>/set.yaml``, the set's
``kinds.yaml`` (:mod:`cardkit.load.kinds`), the card files it lists and its
optional interface strings (``strings.yaml``).

Loading never stops at the first problem.  Each card file is read, bounded and
checked on its own against the schema derived from its kind; every card that
passed becomes a generic :class:`~cardkit.model.Card` record (its ``fields``
with the declared defaults); the set's game plugin, if installed, turns them
into its typed views (:mod:`cardkit.games`); then the semantic checkers of
:mod:`cardkit.load.checks` and the plugin's run.  Cross-file checks
(counts, references) only run for a set whose files all passed the schema, so
one typo does not cascade into dozens of follow-on errors.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from cardkit.errors import CardkitError, Issue, JsonPath, Severity
from cardkit.load import kinds as kindsmod
from cardkit.load.files import check_project_file, project_rel, resolve_reference
from cardkit.load.kinds import Kinds, KindSpec
from cardkit.load.bounds import with_finite
from cardkit.load.schema import (GAME_SECTION, short, text_paths, validate_doc, validate_manifest, validate_section,
                                 validate_with, validator_for)
from cardkit.load.yamlsafe import YamlDoc, YamlError, read_yaml_file
from cardkit.model import Card, CardSet, Origin, SourceString, Team

MAX_SETS = 64


def safe_path(root: Path, relative: str) -> Path | None:
    """``root / relative`` if it stays inside ``root`` (symlinks resolved), else None."""
    return resolve_reference(root, root, relative)


@dataclass
class LoadedSet:
    """A set and everything needed to point at its source lines."""

    set: CardSet | None
    docs: dict[str, YamlDoc] = field(default_factory=dict)
    schema_clean: bool = True
    kinds: Kinds | None = None
    derived: dict[str, str] = field(default_factory=dict)  # project-relative path -> derived schema text
    icons: frozenset[str] = frozenset()  # the set's own SVG icon names (faces.yaml ``icons:``), inline tokens in its strings
    faces_unreadable: bool = False  # faces.yaml is there but may not be opened (F004/F005, reported here): icons unknown

    def locate(self, origin: Origin, *sub: str | int, key: bool = False) -> tuple[int, int]:
        doc = self.docs.get(origin.file)
        if doc is None:
            return (1, 1)
        return doc.mark(origin.path + sub, key=key)

    def issue(self, code: str, message: str, origin: Origin, *sub: str | int, key: bool = False) -> Issue:
        doc = self.docs.get(origin.file)
        if doc is not None:  # a YAML file names a line, a spreadsheet a cell
            return doc.issue(code, message, origin.path + sub, key=key)
        line, col = self.locate(origin, *sub, key=key)
        return Issue(code, message, file=origin.file, line=line, column=col, path=origin.path + sub)

    def where(self, origin: Origin, *sub: str | int) -> str:
        """``file:line`` of a value, or ``file:Sheet!C4`` for a spreadsheet's."""
        doc = self.docs.get(origin.file)
        if doc is None:
            return origin.file
        file, line, _ = doc.place(origin.path + sub)
        return f"{file}:{line}" if line else file


@dataclass
class Project:
    root: Path
    sets: dict[str, LoadedSet] = field(default_factory=dict)
    issues: list[Issue] = field(default_factory=list)

    def card_set(self, set_id: str) -> CardSet:
        loaded = self.sets.get(set_id)
        if loaded is None or loaded.set is None:
            known = ", ".join(sorted(self.sets)) or "none"
            raise CardkitError(f"no card set '{set_id}' in {self.root} (sets: {known})", code="P002")
        return loaded.set


KINDS_FILE = "kinds.yaml"
STRINGS_FILE = "strings.yaml"


def _msgctxt(data: Any, path: JsonPath, is_manifest: bool) -> tuple[str, str]:
    """gettext context and a short field description for a text at ``path``."""
    parts: list[str] = []
    node = data
    for seg in path:
        child = node[seg]
        if isinstance(seg, int):
            parts.append(str(child["id"]) if isinstance(child, dict) and "id" in child else str(seg))
        else:
            parts.append(seg)
        node = child
    if is_manifest:
        return "set." + ".".join(parts), ".".join(parts)
    # cards.<id>.<field...>
    return ".".join(parts[1:]), ".".join(parts[2:])


def _source(ctx: str, value: str | Mapping[str, Any], doc: YamlDoc, path: JsonPath, where: str) -> SourceString:
    """One extraction record; a plural message (``{text, plural, count}``) is
    located at its singular text."""
    if isinstance(value, Mapping):
        file, line, col = doc.place(path + ("text",))
        return SourceString(ctx, value["text"], file, line, where, col, value["plural"], value["count"])
    file, line, col = doc.place(path)
    return SourceString(ctx, value, file, line, where, col)


def _manifest_strings(doc: YamlDoc) -> list[SourceString]:
    out = []
    for path, value in text_paths(doc.data, "set.schema.json"):
        ctx, fieldname = _msgctxt(doc.data, path, True)
        out.append(_source(ctx, value, doc, path, f"Set manifest, {fieldname}"))
    return out


def _card_strings(doc: YamlDoc, kind: KindSpec) -> list[SourceString]:
    out = []
    for ci, card in enumerate(doc.data["cards"]):
        for path, value in kindsmod.text_paths(card, kind.fields, ("cards", ci)):
            ctx, fieldname = _msgctxt(doc.data, path, False)
            name = card.get("name", card.get("id"))
            where = f"{kind.label} '{name['text'] if isinstance(name, dict) else name}', field {fieldname}"
            out.append(_source(ctx, value, doc, path, where))
    return out


def _load_strings(root: Path, set_dir: Path, taken: list[SourceString], issues: list[Issue]) -> list[SourceString]:
    """The set's own interface strings (``strings.yaml``, optional): extraction
    records whose msgctxt is the id.  An id already used by a card string of the
    set, by cardkit's own interface strings or earlier in the file is C014."""
    from cardkit.load.interface import ui_strings

    path = set_dir / STRINGS_FILE
    if not os.path.lexists(path):
        return []
    rel = project_rel(root, path)
    doc = _read(root, rel, path, issues)
    if doc is None:
        return []
    problems = validate_doc(doc, "strings.schema.json")
    if problems:
        issues.extend(problems)
        return []
    cards = {s.msgctxt: s for s in taken}
    cardkit_ids = {s.msgctxt for s in ui_strings()}
    seen: dict[str, int] = {}
    out = []
    for i, entry in enumerate(doc.data["strings"]):
        sid = entry["id"]
        where = ("strings", i, "id")
        if sid in seen:
            issues.append(doc.issue("C014", f"interface string '{sid}' is defined twice (first at line {seen[sid]})", where))
        elif sid in cards:
            other = cards[sid]
            issues.append(doc.issue("C014", f"interface string '{sid}' has the msgctxt of a card string ({other.file}{f':{other.line}' if other.line else ''}); "
                                            "choose another id", where))
        elif sid in cardkit_ids:
            issues.append(doc.issue("C014", f"interface string '{sid}' is one of cardkit's own interface strings "
                                            "(cardkit/i18n/ui.yaml); choose another id", where))
        else:
            seen[sid] = doc.mark(where)[0]
            if "plural" in entry:
                out.append(_source(sid, entry, doc, ("strings", i), entry["comment"]))
            else:
                out.append(_source(sid, entry["text"], doc, ("strings", i, "text"), entry["comment"]))
    return out


def effect_kind_issues(doc: YamlDoc, kind: KindSpec, vocabularies: Mapping[str, frozenset[str]]) -> list[Issue]:
    """C010 for each effect of a card of ``doc`` (cards of ``kind``) whose ``kind`` is not in its
    vocabulary (``vocabularies``: vocabulary name -> effect kinds), with a did-you-mean; located at
    the effect's ``kind``.  The loader and the spreadsheet import (:mod:`cardkit.sheetio`) share it."""
    out = []
    cards = doc.data.get("cards") if isinstance(doc.data, dict) else None
    for i, card in enumerate(cards if isinstance(cards, list) else []):
        if not isinstance(card, dict):
            continue
        for path, eff, vocab_name in kindsmod.effects_in(card, kind.fields, ("cards", i)):
            vocab = vocabularies.get(vocab_name, frozenset())
            if isinstance(eff, dict) and isinstance(eff.get("kind"), str) and eff["kind"] not in vocab:
                close = difflib.get_close_matches(eff["kind"], sorted(vocab), n=1)
                hint = f"; did you mean '{close[0]}'?" if close else ""
                out.append(doc.issue("C010", f"unknown effect kind '{eff['kind']}'{hint}", path + ("kind",)))
    return out


def _read(root: Path, rel: str, path: Path, issues: list[Issue]) -> YamlDoc | None:
    try:
        return read_yaml_file(path, rel, root=root)
    except YamlError as exc:
        issues.append(exc.issue)
        return None


def _read_card_file(root: Path, rel: str, path: Path, kinds: Kinds, issues: list[Issue]) -> list[YamlDoc] | None:
    """The documents of one listed card file: a YAML file is one; a spreadsheet
    (:mod:`cardkit.load.sheets`) one per kind it holds, each value located at
    its cell.  None when the file cannot be read at all (reported)."""
    from cardkit.load import sheets

    if not sheets.is_sheet(path.name):
        doc = _read(root, rel, path, issues)
        return None if doc is None else [doc]
    docs, problems = sheets.read_sheet_file(path, rel, kinds, root)
    issues.extend(problems)
    if problems and not docs:
        return None
    if problems:  # cell problems: the file fails, but its rows are still checked
        for d in docs:
            d.failed = True
    return list(docs)


#: the name effect fields ``$ref`` (``effect.schema.json#/$defs/<vocabulary>``): the game plugin's schema
EFFECT_SCHEMA = "effect.schema.json"


def game_schemas_of(plugin: Any) -> dict[str, str]:
    """The JSON texts by name that a set's game plugin supplies for its cards' ``$ref``s (its
    effect vocabulary's ``effect.schema.json``); none for a game without a plugin or effects."""
    return {EFFECT_SCHEMA: plugin.effect_schema()} if plugin is not None and plugin.effect_schema else {}


def _load_kinds(root: Path, set_dir: Path, manifest: YamlDoc, vocabularies: Mapping[str, frozenset[str]],
                issues: list[Issue], game_schemas: Mapping[str, str] | None = None) -> tuple[Kinds | None, YamlDoc | None]:
    path = set_dir / KINDS_FILE
    rel = project_rel(root, path)
    if not os.path.lexists(path):
        issues.append(manifest.issue("K006", f"no {KINDS_FILE} next to set.yaml: a set declares its card kinds there "
                                             "(docs/authoring.md, Card kinds)", ("kind",)))
        return None, None
    doc = _read(root, rel, path, issues)
    if doc is None:
        return None, None
    problems = with_finite(validate_doc(doc, "kinds.schema.json"), doc)
    if problems:
        issues.extend(problems)
        return None, doc
    kinds, problems = kindsmod.parse_kinds(doc, vocabularies, game_schemas)
    issues.extend(problems)
    return kinds, doc


def load_set(root: Path, set_dir: Path, issues: list[Issue]) -> LoadedSet:
    from cardkit.plugins import plugin_for

    manifest_rel = project_rel(root, set_dir / "set.yaml")
    loaded = LoadedSet(None)
    manifest = _read(root, manifest_rel, set_dir / "set.yaml", issues)
    if manifest is None:
        loaded.schema_clean = False
        return loaded
    loaded.docs[manifest_rel] = manifest
    game = manifest.data.get("game") if isinstance(manifest.data, dict) else None
    owner = plugin_for(game) if isinstance(game, str) else None
    extra = owner.manifest_keys() if owner is not None and owner.manifest_keys else None
    problems = validate_manifest(manifest, game, extra.keys if extra else None, extra.components if extra else None)
    if problems:
        issues.extend(problems)
        loaded.schema_clean = False
        return loaded
    m = manifest.data
    players = m.get("players")
    if players is not None and players["min"] > players["max"]:
        issues.append(manifest.issue("E020", f"players: min {players['min']} is above max {players['max']}",
                                     ("players", "min")))
        loaded.schema_clean = False
        return loaded
    plugin = plugin_for(m["game"])
    if plugin and plugin.manifest_schema and GAME_SECTION in m:
        problems = validate_section(manifest, m["game"], plugin.manifest_schema())
        if problems:
            issues.extend(problems)
            loaded.schema_clean = False
            return loaded
    vocabularies = plugin.effect_vocabularies() if plugin and plugin.effect_vocabularies else {}
    # the game's own schemas that effect fields refer to: not in cardkit's generic schemas/
    game_schemas = game_schemas_of(plugin)
    kinds, kinds_doc = _load_kinds(root, set_dir, manifest, vocabularies, issues, game_schemas)
    if kinds_doc is not None:
        loaded.docs[kinds_doc.file] = kinds_doc
    if kinds is None:
        loaded.schema_clean = False
        return loaded
    loaded.kinds = kinds
    schema_dir = project_rel(root, set_dir / "schemas")
    derived = {fk: kindsmod.derive_schema(k, KINDS_FILE) for fk, k in kinds.by_file.items()}
    loaded.derived = {f"{schema_dir}/{fk}.schema.json": kindsmod.schema_text(d) for fk, d in derived.items()}
    if plugin and plugin.effect_schema and any(f.type in ("effects", "effect") for k in kinds.kinds.values()
                                                for f in kindsmod.all_fields(k.fields)):
        loaded.derived[f"{schema_dir}/{EFFECT_SCHEMA}"] = game_schemas[EFFECT_SCHEMA]
    strings: list[SourceString] = _manifest_strings(manifest)
    cards: dict[str, Card] = {}
    duplicates: list[Issue] = []
    first_seen: dict[str, Origin] = {}
    for fi, name in enumerate(m["files"]):
        target = resolve_reference(root, set_dir, name)
        if target is None:
            issues.append(manifest.issue("F002", f"path '{name}' escapes the set folder", ("files", fi)))
            loaded.schema_clean = False
            continue
        rel = project_rel(root, target)
        if not target.exists():
            issues.append(manifest.issue("F001", f"listed file '{name}' does not exist", ("files", fi)))
            loaded.schema_clean = False
            continue
        file_docs = _read_card_file(root, rel, target, kinds, issues)
        if file_docs is None:
            loaded.schema_clean = False
            continue
        for doc in file_docs:
            loaded.docs[doc.file] = doc
            file_kind = doc.data.get("kind") if isinstance(doc.data, dict) else None
            kind = kinds.by_file.get(file_kind) if isinstance(file_kind, str) else None
            if kind is None:
                issues.append(doc.issue("S004", f"'kind' must be one of: {', '.join(sorted(kinds.by_file))} (found {short(file_kind)})",
                                        ("kind",) if isinstance(doc.data, dict) and "kind" in doc.data else ()))
                loaded.schema_clean = False
                continue
            kind_issues = effect_kind_issues(doc, kind, vocabularies)
            follow_on = getattr(doc, "follow_on", None)  # a spreadsheet's unreadable cell is reported once
            problems = [p for p in validate_with(doc, validator_for(f"{set_dir.name}/{kind.file_kind}", derived[kind.file_kind],
                                                                    game_schemas))
                        if not (kind_issues and p.code == "S004" and p.path and p.path[-1] == "kind")
                        and not (follow_on and follow_on(p))]
            if problems or kind_issues or getattr(doc, "failed", False):
                issues.extend(problems + kind_issues)
                loaded.schema_clean = False
                continue
            strings.extend(_card_strings(doc, kind))
            images = [n for n, f in kind.fields.items() if f.type == "image"]
            for ci, c in enumerate(doc.data["cards"]):
                origin = Origin(doc.file, ("cards", ci))
                if c["id"] in cards:
                    prev = first_seen[c["id"]]
                    duplicates.append(loaded.issue("C001", f"duplicate card id '{c['id']}' (first defined in {loaded.where(prev, 'id')})", origin, "id"))
                    continue
                first_seen[c["id"]] = origin
                art_rel: str | None = None
                bad_image = False
                for fname in images:
                    if fname not in c:
                        continue
                    image = resolve_reference(root, set_dir, c[fname])
                    if image is None:
                        issues.append(doc.issue("F002", f"artwork path '{c[fname]}' escapes the set folder", ("cards", ci, fname)))
                        bad_image = True
                    elif not image.exists():
                        issues.append(doc.issue("F001", f"artwork '{c[fname]}' does not exist", ("cards", ci, fname)))
                        bad_image = True
                    elif not image.is_file():
                        issues.append(doc.issue("F005", f"artwork '{c[fname]}' is not a regular file (a FIFO, device or "
                                                        "folder); not opened", ("cards", ci, fname)))
                        bad_image = True
                    elif fname == "art":
                        art_rel = project_rel(root, image)
                if bad_image:
                    loaded.schema_clean = False
                    continue
                fields = MappingProxyType(kindsmod.with_defaults(c, kind.fields))
                cards[c["id"]] = Card(id=c["id"], kind=kind.name, quantity=kind.copies(c), origin=origin, art=art_rel,
                                      fields=fields)
    issues.extend(duplicates)
    if duplicates:
        loaded.schema_clean = False
    interface = _load_strings(root, set_dir, strings, issues)
    card_set = CardSet(
        id=m["id"], game=m["game"], directory=project_rel(root, set_dir), cards_total=m["components"]["cards"],
        components=MappingProxyType(dict(m["components"])), cards=MappingProxyType(cards),
        teams=tuple(Team(t["id"], t["colour"]) for t in m.get("teams", [])),
        manifest=MappingProxyType(m), kinds=MappingProxyType(dict(kinds.kinds)),
        glossary=tuple(g["id"] for g in m.get("glossary", [])), strings=tuple(strings + interface), ui_ids=frozenset(s.msgctxt for s in interface),
    )
    if plugin is not None and plugin.views is not None:
        card_set = plugin.views(card_set)
    loaded.set = card_set
    faces_path = set_dir / "faces.yaml"
    if os.path.lexists(faces_path):
        try:
            check_project_file(faces_path, project_rel(root, faces_path), root)
        except CardkitError as exc:
            issues.extend(exc.issues)
            loaded.faces_unreadable = True
    loaded.icons = set_icon_names(set_dir, root)
    return loaded


def set_icon_names(set_dir: Path, root: Path | None = None) -> frozenset[str]:
    """The names under ``icons:`` in the set's ``faces.yaml``: valid inline tokens
    in the set's strings and their translations.  A face file that cannot be read
    gives none here; the face loader reports why."""
    try:
        doc = read_yaml_file(set_dir / "faces.yaml", "faces.yaml", root=root)
    except (YamlError, OSError):
        return frozenset()
    icons = doc.data.get("icons") if isinstance(doc.data, dict) else None
    return frozenset(k for k in icons if isinstance(k, str)) if isinstance(icons, dict) else frozenset()


def load_project(root: Path | str, checks: bool = True) -> Project:
    """Load every set under ``root/cards``; problems go to ``project.issues``."""
    from cardkit.load.checks import run_checks

    root = Path(root)
    project = Project(root)
    cards_dir = root / "cards"
    if not cards_dir.is_dir():
        project.issues.append(Issue("P001", f"no cards/ folder in {root}", file=str(root)))
        return project
    set_dirs = sorted(p.parent for p in cards_dir.glob("*/set.yaml"))
    if not set_dirs:
        project.issues.append(Issue("P001", "cards/ holds no set (cards/<set>/set.yaml)", file="cards"))
    for set_dir in set_dirs[:MAX_SETS]:
        loaded = load_set(root, set_dir, project.issues)
        if loaded.set is not None:
            if loaded.set.id in project.sets:
                project.issues.append(Issue("C001", f"duplicate set id '{loaded.set.id}'",
                                            file=project_rel(root, set_dir / "set.yaml"), line=1, column=1))
                continue
            project.sets[loaded.set.id] = loaded
    if len(set_dirs) > MAX_SETS:
        project.issues.append(Issue("P003", f"more than {MAX_SETS} sets; the rest were not read", file="cards"))
    if checks:
        for loaded in project.sets.values():
            project.issues.extend(run_checks(loaded))
    return project



def derived_schemas(project: Project, write: bool = False) -> list[Issue]:
    """Compare each set's derived schemas with the files beside its cards (which
    editors read through the cards' ``yaml-language-server`` modeline): a
    warning (K009) per missing or stale file, or, with ``write``, rewrite them."""
    from cardkit.fsutil import atomic_write_bytes

    out = []
    for loaded in project.sets.values():
        for rel, text in sorted(loaded.derived.items()):
            path = project.root / rel
            raw = _own_file(project.root, path)
            current = raw.decode("utf-8", "replace").replace("\r\n", "\n") if raw is not None else None
            if current == text:
                continue
            if write:
                atomic_write_bytes(path, text.encode("utf-8"))
            else:
                out.append(kindsmod.stale_issue(rel, "is missing" if current is None else f"is out of date with {KINDS_FILE}"))
    return out


def _own_file(root: Path, path: Path) -> bytes | None:
    """A schema copy of the project (bounded), or None when it is missing or
    may not be read (a symlink out, a FIFO): then it is reported as missing and
    ``--write-schemas`` replaces it with a file."""
    from cardkit.load.files import read_project_file

    if not os.path.lexists(path):
        return None
    try:
        return read_project_file(path, path.name, root=root, max_bytes=4 << 20)
    except CardkitError:
        return None


MODELINE = "# yaml-language-server: $schema="
_SCAN_FOLDERS = ("cards", "locales", "examples")  # where a project's own YAML lives
_SCAN_MAX_FILES = 5000


def _modeline_schemas(root: Path) -> set[str]:
    """cardkit schema names the project's YAML files point their editors at
    (``# yaml-language-server: $schema=...`` on a file's first line resolving to
    ``<root>/schemas/<name>``)."""
    from cardkit.load.schema import schema_names

    known = set(schema_names())
    target_dir = (root / "schemas").resolve()
    found: set[str] = set()
    files = 0
    for folder in _SCAN_FOLDERS:
        base = root / folder
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*.yaml")):
            files += 1
            if files > _SCAN_MAX_FILES:
                return found
            try:  # (only regular files inside the project: a FIFO would block, a symlink out is not ours)
                check_project_file(path, path.name, root)
                with path.open("rb") as fh:
                    first = fh.readline(1024).decode("utf-8", "replace").strip()
            except (OSError, CardkitError):
                continue
            if not first.startswith(MODELINE):
                continue
            rel = first[len(MODELINE):].strip()
            target = (path.parent / rel).resolve()
            if target.parent == target_dir and target.name in known:
                found.add(target.name)
    return found


def _with_refs(names: set[str]) -> list[str]:
    """``names`` and every cardkit schema they ``$ref`` (``common.schema.json#/...``), transitively."""
    from cardkit.load.schema import get_schema, schema_names

    known = set(schema_names())
    out: set[str] = set()
    todo = sorted(names)
    while todo:
        name = todo.pop()
        if name in out:
            continue
        out.add(name)
        stack: list[Any] = [get_schema(name)]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                ref = node.get("$ref")
                if isinstance(ref, str) and ref.split("#", 1)[0] in known:
                    todo.append(ref.split("#", 1)[0])
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
    return sorted(out)


def core_schemas(root: Path, write: bool = False) -> list[Issue]:
    """Compare cardkit's own file schemas that the project's modelines point at
    (``set``, ``kinds``, ``face``, ``glossary``... and those they ``$ref``) with
    the copies under ``<root>/schemas/``, which editors read: a warning (K010)
    per missing or different copy, or, with ``write``, write them.  In the
    cardkit repository they are the very files cardkit reads."""
    from cardkit.fsutil import atomic_write_bytes
    from cardkit.load.schema import schema_dir

    out = []
    source = schema_dir()
    for name in _with_refs(_modeline_schemas(root)):
        data = (source / name).read_bytes()
        path = root / "schemas" / name
        current = _own_file(root, path)
        if current == data:
            continue
        if write:
            atomic_write_bytes(path, data)
        else:
            what = "is missing" if current is None else "differs from the one this cardkit reads"
            out.append(Issue("K010", f"cardkit's schema {what} (editors validate through it); run: cardkit validate "
                                     "--write-schemas", file=f"schemas/{name}", line=1, column=1,
                             severity=Severity.WARNING))
    return out
