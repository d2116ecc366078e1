"""Death Angel's typed views of the generic card records.

The loader builds every card as a generic :class:`~cardkit.model.Card` whose
``fields`` follow the set's ``kinds.yaml``.  The engine reads attributes in its
inner loops, so the plugin turns each record into a frozen, typed subclass of
it (compiled with the engine by mypyc): same id, kind, quantity, origin, art and
fields, plus the attributes the rules need.  :func:`views` does it for a set.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from cardkit.model import Card, CardSet, Effect


@dataclass(frozen=True, kw_only=True)
class Marine(Card):
    team: str
    range: int


@dataclass(frozen=True, kw_only=True)
class Action(Card):
    team: str
    type: str
    order: int
    timing: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class SpawnBox:
    severity: str  # "major" | "minor"
    colour: str


@dataclass(frozen=True)
class MoveBox:
    type: str  # "adjacent" | "flank"
    icon: str


@dataclass(frozen=True, kw_only=True)
class Event(Card):
    instinct: bool
    effects: tuple[Effect, ...]
    spawn: tuple[SpawnBox, ...]
    moves: tuple[MoveBox | None, ...]  # one per physical copy

    def copy_ids(self) -> tuple[str, ...]:
        """IDs of the physical copies (``gun_jam#1``, ``gun_jam#2``)."""
        if self.quantity == 1:
            return (self.id,)
        return tuple(f"{self.id}#{i}" for i in range(1, self.quantity + 1))


@dataclass(frozen=True, kw_only=True)
class Terrain(Card):
    colour: str
    bars: int
    activatable: bool
    effects: tuple[Effect, ...]


@dataclass(frozen=True, kw_only=True)
class Genestealer(Card):
    """``brood_lord``: which deck the card belongs to (kept out of the Genestealer deck and the
    blips, spawned by ``spawn_brood_lords``, counted by ``kill_brood_lords``); what it does in a
    swarm is its ``effects`` (a Brood Lord: ``defence_modifier`` -1 and ``killed_last``)."""

    icons: tuple[str, ...]
    brood_lord: bool
    effects: tuple[Effect, ...]

    def defence_modifier(self) -> int:
        """What this card adds to a defence roll against its swarm (its ``defence_modifier`` effects)."""
        return sum(int(e.get("amount", 0)) for e in self.effects if e.kind == "defence_modifier")

    def killed_last(self) -> bool:
        return any(e.kind == "killed_last" for e in self.effects)


@dataclass(frozen=True)
class Placement:
    side: str
    terrain: str
    position: int
    count_from: str  # "top" | "bottom"

    def row(self, formation_size: int) -> int:
        """0-based row for a formation of ``formation_size``; numbers past the end clamp."""
        n = min(self.position, formation_size)
        return n - 1 if self.count_from == "top" else formation_size - n


@dataclass(frozen=True, kw_only=True)
class Location(Card):
    tier: str
    blips: tuple[int, int]
    terrain: tuple[Placement, ...]
    trigger: str
    effects: tuple[Effect, ...]
    win: Effect | None


@dataclass(frozen=True, kw_only=True)
class SetupCard(Card):
    players: tuple[int, ...]
    formation_size: int
    blips: tuple[int, int]
    major: int
    minor: int
    deck: tuple[str, ...]
    terrain: tuple[Placement, ...]


@dataclass(frozen=True)
class Rules:
    """The ``rules`` section of a Death Angel manifest, with the generic player range."""

    min_players: int
    max_players: int
    teams_per_player: tuple[int, ...]
    adjacent_move: Mapping[str, str] = field(hash=False)
    location_tiers: tuple[str, ...] = ()

    def teams_for(self, players: int) -> int:
        return self.teams_per_player[players - 1] * players


@dataclass(frozen=True, kw_only=True)
class DeathAngelSet(CardSet):
    """A Death Angel set: typed cards, the combat die and the rules section."""

    die_faces: tuple[tuple[int, bool], ...] = ()
    rules: Rules | None = None


def _effects(data: Any) -> tuple[Effect, ...]:
    return tuple(Effect.from_data(e) for e in data or ())


def _placements(data: Any) -> tuple[Placement, ...]:
    return tuple(Placement(p["side"], p["terrain"], p["position"], p["count_from"]) for p in data)


def _move(data: Any) -> MoveBox | None:
    return MoveBox(data["type"], data["icon"]) if data else None


def view(card: Card) -> Card:
    """The typed view of one generic record (records of unknown kinds pass through)."""
    f = card.fields
    base: dict[str, Any] = dict(id=card.id, kind=card.kind, quantity=card.quantity, origin=card.origin,
                                art=card.art, fields=f)
    k = card.kind
    if k == "marine":
        return Marine(team=f["team"], range=f["range"], **base)
    if k == "action":
        return Action(team=f["team"], type=f["type"], order=f["order"], timing=f["timing"],
                      effects=_effects(f["effects"]), **base)
    if k == "event":
        if "copies" in f:
            moves = tuple(_move(cp["move"]) for cp in f["copies"])
        else:
            moves = tuple(_move(f["move"]) for _ in range(card.quantity))
        return Event(instinct=f["instinct"], effects=_effects(f["effects"]),
                     spawn=tuple(SpawnBox(b["severity"], b["colour"]) for b in f["spawn"]), moves=moves, **base)
    if k == "terrain":
        return Terrain(colour=f["colour"], bars=f["bars"], activatable=f["activatable"],
                       effects=_effects(f.get("effects")), **base)
    if k == "genestealer":
        return Genestealer(icons=tuple(f["icons"]), brood_lord=bool(f["brood_lord"]),
                           effects=_effects(f.get("effects")), **base)
    if k == "location":
        return Location(tier=f["tier"], blips=(f["blips"]["left"], f["blips"]["right"]),
                        terrain=_placements(f["terrain"]), trigger=f["trigger"], effects=_effects(f["effects"]),
                        win=Effect.from_data(f["win"]) if f.get("win") else None, **base)
    if k == "setup":
        return SetupCard(players=tuple(f["players"]), formation_size=f["formation_size"],
                         blips=(f["blips"]["left"], f["blips"]["right"]), major=f["spawn"]["major"],
                         minor=f["spawn"]["minor"], deck=tuple(f["deck"]), terrain=_placements(f["terrain"]), **base)
    return card


def views(card_set: CardSet) -> DeathAngelSet:
    """The set with typed cards, die faces and rules read from its manifest."""
    m = card_set.manifest
    rules = None
    if "rules" in m:
        r = m["rules"]
        # the generic player range (a set without one plays every count its teams_per_player lists:
        # check_rules_section reports the missing field)
        players = m.get("players") or {"min": 1, "max": len(r["teams_per_player"])}
        rules = Rules(players["min"], players["max"], tuple(r["teams_per_player"]),
                      MappingProxyType(dict(r["adjacent_move"])), tuple(r["location_tiers"]))
    faces = tuple((f["value"], f["skull"]) for f in m.get("combat_die", {}).get("faces", []))
    cards = MappingProxyType({cid: view(c) for cid, c in card_set.cards.items()})
    return DeathAngelSet(id=card_set.id, game=card_set.game, directory=card_set.directory,
                         cards_total=card_set.cards_total, components=card_set.components, cards=cards,
                         teams=card_set.teams, manifest=card_set.manifest, kinds=card_set.kinds,
                         glossary=card_set.glossary, strings=card_set.strings, ui_ids=card_set.ui_ids, die_faces=faces, rules=rules)
