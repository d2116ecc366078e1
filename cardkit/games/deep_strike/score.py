"""``cardkit deepstrike score``: score an end-of-game state by a scenario's rules.

Every point comes with a reason (a line naming the scoring rule, the quarter or
unit, and why), so a result can be argued over with the card in hand.  Lines
are structured (a message key and values); the CLI renders them in the chosen
language through the ``ui`` catalogs.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from cardkit.errors import CardkitError, Issue
from cardkit.games.deep_strike.geometry import table_geometry
from cardkit.load.schema import load_validated
from cardkit.load.yamlsafe import YamlDoc
from cardkit.games.deep_strike.cards import Scenario
from cardkit.model import CardSet

QUARTERS = ("bottom_left", "bottom_right", "top_left", "top_right")


@dataclass(frozen=True)
class Unit:
    id: str
    side: str
    type: str
    x: float
    y: float
    strength: str = "above_half"
    mobile: bool = True
    damaged: bool = False
    destroyed: bool = False
    off_table: bool = False
    fell_back: bool = False
    touching: tuple[str, ...] = ()
    close_combat: str | None = None

    @property
    def alive(self) -> bool:
        return not self.destroyed and self.strength != "destroyed" and not self.off_table

    def holds(self) -> bool:
        """Counts for holding (or denying) a quarter: a unit above half strength or a mobile vehicle."""
        if not self.alive:
            return False
        if self.type == "vehicle":
            return self.mobile
        return self.type == "unit" and self.strength == "above_half"


@dataclass(frozen=True)
class Line:
    side: str | None  # None: a note that scores for nobody
    points: int
    rule: str  # scoring line id, "vp", or "" for notes
    key: str  # ui message key explaining it
    values: Mapping[str, Any] = field(default_factory=dict, hash=False)


@dataclass
class ScoreResult:
    scenario: str
    totals: dict[str, int]
    lines: list[Line]

    @property
    def winner(self) -> str | None:
        a, b = self.totals["a"], self.totals["b"]
        return None if a == b else ("a" if a > b else "b")


@functools.lru_cache(maxsize=1)
def state_schema() -> dict[str, Any]:
    """The JSON Schema of an end-of-game state file: Deep Strike's own, beside this module."""
    schema: dict[str, Any] = json.loads(Path(__file__).with_name("state.schema.json").read_text(encoding="utf-8"))
    return schema


def load_state(path: Path, rel: str) -> tuple[YamlDoc, list[Unit]]:
    """Read and validate a state file; every problem is an issue with file and line."""
    doc = load_validated(path, rel, state_schema())
    units: list[Unit] = []
    issues: list[Issue] = []
    seen: dict[str, int] = {}
    for i, u in enumerate(doc.data["units"]):
        if u["id"] in seen:
            issues.append(doc.issue("D401", f"duplicate unit id '{u['id']}' (first on line {seen[u['id']]})", ("units", i, "id")))
            continue
        seen[u["id"]] = doc.mark(("units", i))[0]
        if u["type"] != "vehicle" and ("mobile" in u or "damaged" in u):
            issues.append(doc.issue("D402", f"'{u['id']}' is not a vehicle: 'mobile' and 'damaged' apply to vehicles", ("units", i)))
        if u["type"] == "vehicle" and "strength" in u:
            issues.append(doc.issue("D402", f"'{u['id']}' is a vehicle: give 'mobile', 'damaged' or 'destroyed', not 'strength'", ("units", i, "strength")))
        units.append(Unit(u["id"], u["side"], u["type"], float(u["x"]), float(u["y"]), u.get("strength", "above_half"),
                          u.get("mobile", True), u.get("damaged", False), u.get("destroyed", False), u.get("off_table", False),
                          u.get("fell_back", False), tuple(u.get("touching", ())), u.get("close_combat")))
    box = doc.data.get("black_box")
    if box and box.get("carrier") is not None and box["carrier"] not in seen:
        issues.append(doc.issue("D403", f"black box carrier '{box['carrier']}' is not a unit of this state", ("black_box", "carrier")))
    if issues:
        raise CardkitError(issues)
    return doc, units


def _quarter(x: float, y: float, w: float, d: float) -> str:
    return ("bottom" if y < d / 2 else "top") + "_" + ("left" if x < w / 2 else "right")


def _inside(box: tuple[float, float, float, float], u: Unit) -> bool:
    return box[0] <= u.x <= box[2] and box[1] <= u.y <= box[3]


def score(card_set: CardSet, doc: YamlDoc, units: list[Unit]) -> ScoreResult:
    sid = doc.data["scenario"]
    sc = card_set.cards.get(sid)
    if not isinstance(sc, Scenario):
        known = ", ".join(sorted(c.id for c in card_set.of_kind(Scenario)))
        raise CardkitError(doc.issue("D404", f"unknown scenario '{sid}' (scenarios: {known})", ("scenario",)))
    d = sc.data
    geo = table_geometry(d)
    off = [u for u in units if u.alive and not (0 <= u.x <= geo.width and 0 <= u.y <= geo.depth)]
    if off:
        i = next(i for i, raw in enumerate(doc.data["units"]) if raw["id"] == off[0].id)
        raise CardkitError(doc.issue("D405", f"'{off[0].id}' at ({off[0].x:g}, {off[0].y:g}) is off the {geo.width:g}\" x {geo.depth:g}\" table "
                                             "(mark it off_table if it left)", ("units", i)))
    lines: list[Line] = []
    objectives = d["objectives"]
    if objectives["victory_points"]:
        vp = doc.data.get("victory_points")
        if vp is None:
            raise CardkitError(doc.issue("D406", "this scenario counts Victory Points: give victory_points: {a: N, b: N}", ()))
        for side in ("a", "b"):
            lines.append(Line(side, int(vp[side]), "vp", "score.vp", {}))
    scoring = objectives.get("scoring") or []
    if any(s["type"] in ("quarter_control", "quarter_shared") for s in scoring):
        lines.extend(_quarters(d, geo, units, scoring))
    for rule in scoring:
        if rule["type"] == "unit_in_enemy_zone":
            lines.extend(_deep_units(rule, geo, units))
        elif rule["type"] == "black_box_holder":
            lines.extend(_black_box(rule, doc, units))
        elif rule["type"] == "hull_contact":
            lines.extend(_hull(rule, units))
    # a note (such as "a character is not a unit") can come from several scoring rules: say it once
    unique: list[Line] = []
    for ln in lines:
        if ln.side is None and any(u.key == ln.key and dict(u.values) == dict(ln.values) for u in unique if u.side is None):
            continue
        unique.append(ln)
    totals = {s: sum(ln.points for ln in unique if ln.side == s) for s in ("a", "b")}
    return ScoreResult(sid, totals, unique)


def _quarters(d: Mapping[str, Any], geo: Any, units: list[Unit], scoring: list[Mapping[str, Any]]) -> list[Line]:
    qc = d["objectives"].get("quarter_control") or {}
    contested_rule = qc.get("contested", "shared")
    chars_count = bool(qc.get("independent_characters_count"))
    out: list[Line] = []
    own_quarter = {}
    if geo.zone_kind == "quarters":
        own_quarter = {"a": _quarter(*_centre(geo.zones["a"]), geo.width, geo.depth),
                       "b": _quarter(*_centre(geo.zones["b"]), geo.width, geo.depth)}

    def relation(side: str, q: str) -> str:
        if not own_quarter:
            return "any"
        other = "b" if side == "a" else "a"
        return "own" if own_quarter[side] == q else ("enemy" if own_quarter[other] == q else "side")

    for q in QUARTERS:
        present = [u for u in units if u.alive and _quarter(u.x, u.y, geo.width, geo.depth) == q]
        holders = {s: [u for u in present if u.side == s and (u.holds() or (chars_count and u.type == "character"))] for s in ("a", "b")}
        lonely = [u for u in present if u.type == "character" and not chars_count and not any(
            h.side == u.side for h in holders[u.side])]
        for u in lonely:
            out.append(Line(None, 0, "", "score.character_alone", {"unit": u.id, "quarter": q}))
        if holders["a"] and holders["b"]:
            if contested_rule == "shared":
                for side in ("a", "b"):
                    rule = _rule(scoring, "quarter_shared", relation(side, q))
                    if rule:
                        out.append(Line(side, rule["points"], rule["id"], "score.shared",
                                        {"quarter": q, "units": _ids(holders[side]), "enemy": _ids(holders["b" if side == "a" else "a"])}))
            else:
                out.append(Line(None, 0, "", "score.contested", {"quarter": q, "units": _ids(holders["a"] + holders["b"])}))
            continue
        for side in ("a", "b"):
            if holders[side]:
                rule = _rule(scoring, "quarter_control", relation(side, q))
                if rule:
                    out.append(Line(side, rule["points"], rule["id"], "score.held", {"quarter": q, "units": _ids(holders[side])}))
    return out


def _centre(box: tuple[float, float, float, float]) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def _rule(scoring: list[Mapping[str, Any]], typ: str, zone: str) -> Mapping[str, Any] | None:
    for s in scoring:
        if s["type"] == typ and s.get("zone") in (zone, "any"):
            return s
    return None


def _ids(units: list[Unit]) -> str:
    return ", ".join(u.id for u in units)


def _deep_units(rule: Mapping[str, Any], geo: Any, units: list[Unit]) -> list[Line]:
    out = []
    for u in units:
        if not u.alive:
            continue
        enemy = geo.zones["b" if u.side == "a" else "a"]
        if not _inside(enemy, u):
            continue
        if u.type == "character":
            out.append(Line(None, 0, "", "score.character_not_unit", {"unit": u.id}))
            continue
        full = (not u.damaged) if u.type == "vehicle" else u.strength == "above_half"
        wanted = rule.get("vehicle_state") if u.type == "vehicle" else rule.get("unit_state")
        matches = (wanted in ("undamaged", "above_half")) == full
        if matches:
            out.append(Line(u.side, rule["points"], rule["id"], "score.in_enemy_zone",
                            {"unit": u.id, "state": ("undamaged" if full else "damaged") if u.type == "vehicle"
                             else ("above_half" if full else "at_or_below_half")}))
    return out


def _black_box(rule: Mapping[str, Any], doc: YamlDoc, units: list[Unit]) -> list[Line]:
    box = doc.data.get("black_box") or {}
    carrier_id = box.get("carrier")
    if carrier_id is None:
        return [Line(None, 0, "", "score.box_free", {})]
    u = next(x for x in units if x.id == carrier_id)
    why = ("destroyed" if (u.destroyed or u.strength == "destroyed") else "off_table" if u.off_table
           else "fell_back" if u.fell_back else None)
    if why:
        return [Line(None, 0, "", "score.box_dropped", {"unit": u.id, "why": why})]
    return [Line(u.side, rule["points"], rule["id"], "score.box_held", {"unit": u.id})]


def _hull(rule: Mapping[str, Any], units: list[Unit]) -> list[Line]:
    part = rule.get("part", "hull")
    live = [u for u in units if u.alive and u.type != "character"]
    touching = {u.id for u in live if part in u.touching}
    notes: list[Line] = []
    if rule.get("close_combat") == "engaged_units_count_as_contact":
        combats = {u.close_combat for u in live if u.id in touching and u.close_combat}
        for c in sorted(combats):
            drawn_in = [u for u in live if u.close_combat == c and u.id not in touching]
            if drawn_in:
                notes.append(Line(None, 0, "", "score.hull_combat", {"combat": c, "units": _ids(drawn_in)}))
            touching.update(u.id for u in drawn_in)
    sides = {u.side for u in live if u.id in touching}
    if not sides:
        return notes + [Line(None, 0, "", "score.hull_nobody", {})]
    if len(sides) == 2:
        return notes + [Line(None, 0, "", "score.hull_both", {"units": ", ".join(sorted(touching))})]
    side = sides.pop()
    claim = [u for u in live if u.id in touching]
    return notes + [Line(side, rule["points"], rule["id"], "score.hull_held", {"unit": claim[0].id})]

