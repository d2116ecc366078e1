"""Load a cardkit project folder: ``cards/<set>/set.yaml`` plus the files it lists.

Loading never stops at the first problem.  Each file is read, bounded and
schema-checked on its own; cards are built from every file that passed; then
the semantic checkers of :mod:`cardkit.load.checks` run.  Cross-file checks
(counts, references) only run for a set whose files all passed the schema, so
one typo does not cascade into dozens of follow-on errors.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from cardkit.effects import EFFECTS, WIN_KINDS
from cardkit.errors import CardkitError, Issue, JsonPath
from cardkit.load.schema import short, schema_names, text_paths, validate_doc
from cardkit.load.yamlsafe import YamlDoc, YamlError, read_yaml_file
from cardkit.model import (Action, Card, CardSet, Effect, Event, Genestealer, Location, Marine, MoveBox,
                           Origin, Placement, Rules, Scenario, SetupCard, SourceString, SpawnBox, Team, Terrain)

MAX_SETS = 64


def safe_path(root: Path, relative: str) -> Path | None:
    """``root / relative`` if it stays inside ``root`` (symlinks resolved), else None."""
    if not relative or relative.startswith(("/", "\\")) or ":" in relative.split("/")[0]:
        return None
    root_resolved = root.resolve()
    target = (root_resolved / relative).resolve()
    try:
        target.relative_to(root_resolved)
    except ValueError:
        return None
    return target


@dataclass
class LoadedSet:
    """A set and everything needed to point at its source lines."""

    set: CardSet | None
    docs: dict[str, YamlDoc] = field(default_factory=dict)
    schema_clean: bool = True

    def locate(self, origin: Origin, *sub: str | int, key: bool = False) -> tuple[int, int]:
        doc = self.docs.get(origin.file)
        if doc is None:
            return (1, 1)
        return doc.mark(origin.path + sub, key=key)

    def issue(self, code: str, message: str, origin: Origin, *sub: str | int, key: bool = False) -> Issue:
        line, col = self.locate(origin, *sub, key=key)
        return Issue(code, message, file=origin.file, line=line, column=col, path=origin.path + sub)


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


CARD_FILE_KINDS = {"marines", "actions", "events", "terrain", "genestealers", "locations", "setup", "scenarios"}


def _rel(root: Path, path: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


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


_KIND_LABEL = {"marines": "Space Marine card", "actions": "Action card", "events": "Event card",
               "terrain": "Terrain card", "genestealers": "Genestealer card", "locations": "Location card",
               "setup": "Setup location card", "scenarios": "Scenario card", "set": "Set"}


def _strings(doc: YamlDoc, schema: str, kind: str) -> list[SourceString]:
    out = []
    for path, value in text_paths(doc.data, schema):
        ctx, fieldname = _msgctxt(doc.data, path, kind == "set")
        plural = isinstance(value, dict)
        line, col = doc.mark(path + ("text",) if plural else path)
        if kind == "set":
            where = f"Set manifest, {fieldname}"
        else:
            card = doc.data["cards"][path[1]]
            name = card.get("name", card.get("id"))
            where = f"{_KIND_LABEL.get(kind, kind)} '{name['text'] if isinstance(name, dict) else name}', field {fieldname}"
        if isinstance(value, dict):
            out.append(SourceString(ctx, value["text"], doc.file, line, where, col, value["plural"], value["count"]))
        else:
            out.append(SourceString(ctx, value, doc.file, line, where, col))
    return out


def _effects(data: list[dict[str, Any]] | None) -> tuple[Effect, ...]:
    return tuple(Effect.from_data(e) for e in data or ())


def _placements(data: list[dict[str, Any]]) -> tuple[Placement, ...]:
    return tuple(Placement(p["side"], p["terrain"], p["position"], p["count_from"]) for p in data)


def _build_card(kind: str, c: dict[str, Any], origin: Origin) -> Card:
    base = dict(id=c["id"], origin=origin, fields=MappingProxyType(c))
    if kind == "marines":
        return Marine(kind="marine", quantity=1, team=c["team"], range=c["range"], **base)
    if kind == "actions":
        return Action(kind="action", quantity=1, team=c["team"], type=c["type"], order=c["order"],
                      timing=c["timing"], effects=_effects(c["effects"]), **base)
    if kind == "events":
        if "copies" in c:
            moves = tuple(_move(cp["move"]) for cp in c["copies"])
        else:
            moves = tuple(_move(c["move"]) for _ in range(c["quantity"]))
        return Event(kind="event", quantity=len(moves), instinct=c["instinct"], effects=_effects(c["effects"]),
                     spawn=tuple(SpawnBox(b["severity"], b["colour"]) for b in c["spawn"]), moves=moves, **base)
    if kind == "terrain":
        return Terrain(kind="terrain", quantity=1, colour=c["colour"], bars=c["bars"],
                       activatable=c["activatable"], effects=_effects(c.get("effects")), **base)
    if kind == "genestealers":
        return Genestealer(kind="brood_lord" if c.get("brood_lord") else "genestealer", quantity=c["quantity"],
                           icons=tuple(c["icons"]), brood_lord=bool(c.get("brood_lord")),
                           defence_modifier=c.get("defence_modifier", 0), **base)
    if kind == "locations":
        return Location(kind="location", quantity=c.get("quantity", 1), tier=c["tier"],
                        blips=(c["blips"]["left"], c["blips"]["right"]), terrain=_placements(c["terrain"]),
                        trigger=c["trigger"], effects=_effects(c["effects"]),
                        win=Effect.from_data(c["win"]) if "win" in c else None, **base)
    if kind == "setup":
        return SetupCard(kind="setup", quantity=c.get("quantity", 1), players=tuple(c["players"]),
                         formation_size=c["formation_size"], blips=(c["blips"]["left"], c["blips"]["right"]),
                         major=c["spawn"]["major"], minor=c["spawn"]["minor"], deck=tuple(c["deck"]),
                         terrain=_placements(c["terrain"]), **base)
    if kind == "scenarios":
        return Scenario(kind="scenario", quantity=1, number=c["number"], data=MappingProxyType(c), **base)
    raise ValueError(kind)  # pragma: no cover - kinds are closed by the schema


def _move(data: dict[str, Any] | None) -> MoveBox | None:
    return MoveBox(data["type"], data["icon"]) if data else None


def _effect_kind_issues(doc: YamlDoc) -> list[Issue]:
    """Unknown effect kinds get their own code and a did-you-mean."""
    out = []
    cards = doc.data.get("cards") if isinstance(doc.data, dict) else None
    for i, card in enumerate(cards if isinstance(cards, list) else []):
        if not isinstance(card, dict):
            continue
        effects = card.get("effects") if isinstance(card.get("effects"), list) else []
        entries: list[tuple[JsonPath, Any, dict[str, Any]]] = [
            (("cards", i, "effects", j), e, EFFECTS) for j, e in enumerate(effects)]
        if isinstance(card.get("win"), dict):
            entries.append((("cards", i, "win"), card["win"], WIN_KINDS))
        for path, eff, vocab in entries:
            if isinstance(eff, dict) and isinstance(eff.get("kind"), str) and eff["kind"] not in vocab:
                close = difflib.get_close_matches(eff["kind"], list(vocab), n=1)
                hint = f"; did you mean '{close[0]}'?" if close else ""
                out.append(doc.issue("C010", f"unknown effect kind '{eff['kind']}'{hint}", path + ("kind",)))
    return out


def _read(root: Path, rel: str, path: Path, issues: list[Issue]) -> YamlDoc | None:
    try:
        return read_yaml_file(path, rel)
    except YamlError as exc:
        issues.append(exc.issue)
        return None


def load_set(root: Path, set_dir: Path, issues: list[Issue]) -> LoadedSet:
    manifest_rel = _rel(root, set_dir / "set.yaml")
    loaded = LoadedSet(None)
    manifest = _read(root, manifest_rel, set_dir / "set.yaml", issues)
    if manifest is None:
        loaded.schema_clean = False
        return loaded
    loaded.docs[manifest_rel] = manifest
    problems = validate_doc(manifest, "set.schema.json")
    if problems:
        issues.extend(problems)
        loaded.schema_clean = False
        return loaded
    m = manifest.data
    strings: list[SourceString] = _strings(manifest, "set.schema.json", "set")
    cards: dict[str, Card] = {}
    duplicates: list[Issue] = []
    first_seen: dict[str, Origin] = {}
    for fi, name in enumerate(m["files"]):
        target = safe_path(set_dir, name)
        if target is None or safe_path(root, _rel(root, target)) is None:
            issues.append(manifest.issue("F002", f"path '{name}' escapes the set folder", ("files", fi)))
            loaded.schema_clean = False
            continue
        rel = _rel(root, target)
        if not target.is_file():
            issues.append(manifest.issue("F001", f"listed file '{name}' does not exist", ("files", fi)))
            loaded.schema_clean = False
            continue
        doc = _read(root, rel, target, issues)
        if doc is None:
            loaded.schema_clean = False
            continue
        loaded.docs[rel] = doc
        kind = doc.data.get("kind") if isinstance(doc.data, dict) else None
        if not isinstance(kind, str) or kind not in CARD_FILE_KINDS or f"{kind}.schema.json" not in schema_names():
            issues.append(doc.issue("S004", f"'kind' must be one of: {', '.join(sorted(CARD_FILE_KINDS))} (found {short(kind)})",
                                    ("kind",) if isinstance(doc.data, dict) and "kind" in doc.data else ()))
            loaded.schema_clean = False
            continue
        kind_issues = _effect_kind_issues(doc)
        problems = [p for p in validate_doc(doc, f"{kind}.schema.json")
                    if not (kind_issues and p.code == "S004" and p.path and p.path[-1] == "kind")]
        if problems or kind_issues:
            issues.extend(problems + kind_issues)
            loaded.schema_clean = False
            continue
        strings.extend(_strings(doc, f"{kind}.schema.json", kind))
        for ci, c in enumerate(doc.data["cards"]):
            origin = Origin(rel, ("cards", ci))
            if c["id"] in cards:
                prev = first_seen[c["id"]]
                prev_line = loaded.locate(prev, "id")[0]
                duplicates.append(loaded.issue("C001", f"duplicate card id '{c['id']}' (first defined in {prev.file}:{prev_line})", origin, "id"))
                continue
            first_seen[c["id"]] = origin
            card = _build_card(kind, c, origin)
            if "art" in c:
                art = safe_path(set_dir, c["art"])
                if art is None:
                    issues.append(doc.issue("F002", f"artwork path '{c['art']}' escapes the set folder", ("cards", ci, "art")))
                    loaded.schema_clean = False
                    continue
                if not art.is_file():
                    issues.append(doc.issue("F001", f"artwork '{c['art']}' does not exist", ("cards", ci, "art")))
                    loaded.schema_clean = False
                    continue
                card = replace(card, art=_rel(root, art))
            cards[c["id"]] = card
    issues.extend(duplicates)
    if duplicates:
        loaded.schema_clean = False
    rules = None
    if "rules" in m:
        r = m["rules"]
        rules = Rules(r["players"]["min"], r["players"]["max"], tuple(r["teams_per_player"]),
                      MappingProxyType(dict(r["adjacent_move"])), tuple(r["location_tiers"]))
    loaded.set = CardSet(
        id=m["id"], game=m["game"], directory=_rel(root, set_dir), cards_total=m["components"]["cards"],
        components=MappingProxyType(dict(m["components"])), cards=MappingProxyType(cards),
        teams=tuple(Team(t["id"], t["colour"]) for t in m.get("teams", [])),
        die_faces=tuple((f["value"], f["skull"]) for f in m.get("combat_die", {}).get("faces", [])),
        rules=rules, glossary=tuple(g["id"] for g in m.get("glossary", [])), strings=tuple(strings),
    )
    return loaded


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
                                            file=_rel(root, set_dir / "set.yaml"), line=1, column=1))
                continue
            project.sets[loaded.set.id] = loaded
    if len(set_dirs) > MAX_SETS:
        project.issues.append(Issue("P003", f"more than {MAX_SETS} sets; the rest were not read", file="cards"))
    if checks:
        for loaded in project.sets.values():
            project.issues.extend(run_checks(loaded))
    return project

