"""``cardkit deepstrike check``: structure checks and deployment feasibility for
every scenario of a Deep Strike set.

Codes (explained in docs/deep-strike.md):

=====  ========  ===========================================================
D101   error     no first-turn rule
D102   error     no victory condition
D103   error     the scoring table does not cover every zone it scores
D104   error     a special rule that the set glossary does not define
D105   error     a unit of the test army could not be deployed
D201   warning   the enemy-distance rule reaches into the other deployment zone
D202   warning   a zone too shallow for more than one rank of footprints
D203   warning   the centre exclusion takes a large share of each quarter
D204   warning   impassable terrain inside a deployment zone
D205   warning   the second player was squeezed to little legal area
D301   info      expected reserve arrivals by turn
D302   info      units expected on the table after a per-unit deployment roll
=====  ========  ===========================================================
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from cardkit.errors import Severity
from cardkit.games.deep_strike.deploy import Deployer, DeployResult, default_army
from cardkit.games.deep_strike.cards import Scenario
from cardkit.model import CardSet


@dataclass(frozen=True)
class Note:
    code: str
    severity: Severity
    scenario: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "severity": self.severity.value, "scenario": self.scenario, "message": self.message}


@dataclass
class ScenarioCheck:
    scenario: str
    name: str
    notes: list[Note] = field(default_factory=list)
    runs: list[DeployResult] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"scenario": self.scenario, "name": self.name,
                "feasible": all(r.feasible for r in self.runs),
                "deployment": [{"first": r.first, "placed": r.placed, "army": r.army,
                                "min_area_second_sq_in": r.min_area_second, "final_area_sq_in": r.final_area,
                                "unplaced": r.unplaced} for r in self.runs],
                "notes": [n.to_json() for n in self.notes]}


def _structure(sc: Scenario, glossary: set[str]) -> list[Note]:
    d = sc.data
    out = []
    E = Severity.ERROR
    ft = d.get("first_turn") or {}
    if not ft.get("text") or "roll" not in ft:
        out.append(Note("D101", E, sc.id, "no first-turn rule"))
    vic = d.get("victory") or {}
    if not vic.get("decided_by") or not vic.get("text"):
        out.append(Note("D102", E, sc.id, "no victory condition"))
    scoring = d["objectives"].get("scoring") or []
    quarter_zones = {s["zone"] for s in scoring if s["type"] == "quarter_control"}
    if quarter_zones and "any" not in quarter_zones:
        needed = {"own", "enemy", "side"} if d["deployment"]["zones"] == "quarters" else {"own", "enemy"}
        missing = sorted(needed - quarter_zones)
        if missing:
            out.append(Note("D103", E, sc.id, f"quarter scoring has no line for the {', '.join(missing)} quarter(s)"))
        shared = {s["zone"] for s in scoring if s["type"] == "quarter_shared"}
        qc = d["objectives"].get("quarter_control") or {}
        if qc.get("contested") == "shared" and needed - shared:
            out.append(Note("D103", E, sc.id, f"contested quarters are shared but there is no shared value for {', '.join(sorted(needed - shared))}"))
    if (vic.get("score") in ("vp_plus_bonus", "quarters_only")) and not scoring:
        out.append(Note("D103", E, sc.id, "the victory condition counts bonus points but the scenario scores nothing"))
    for rule in d["special_rules"]:
        if rule not in glossary:
            out.append(Note("D104", E, sc.id, f"special rule '{rule}' is not defined in the set glossary"))
    return out


def _warnings(sc: Scenario, dep: Deployer, radius: float) -> list[Note]:
    WARN, INFO = Severity.WARNING, Severity.INFO
    d = sc.data
    g = dep.geo
    out = []
    depl = d["deployment"]
    if g.zone_kind == "long_edges":
        depth = float(depl["zone_depth"])
        between = g.depth - 2 * depth
        gap = dep.gap
        if gap and gap > between:
            out.append(Note("D201", WARN, sc.id,
                            f'{gap:g}" between enemy units with {depth:g}" deep zones on a {g.depth:g}" table: the zones are only '
                            f'{between:g}" apart, so a unit at the front of one zone denies up to {gap - between:g}" of the other zone\'s depth'))
        band = depth - 2 * radius
        if band < 0:
            out.append(Note("D202", WARN, sc.id, f'{2 * radius:g}" footprints do not fit in a {depth:g}" deep zone at all'))
        elif band < 2 * radius:
            out.append(Note("D202", WARN, sc.id,
                            f'a {depth:g}" deep zone leaves a {max(band, 0):g}" band for the centres of {2 * radius:g}" footprints: '
                            "units stand in a single rank along the edge"))
    if g.centre_exclusion and g.zone_kind == "quarters":
        share = math.pi * g.centre_exclusion ** 2 / 4 / (g.width * g.depth / 4)
        if share > 0.1:
            out.append(Note("D203", WARN, sc.id, f'the {g.centre_exclusion:g}" no-deployment circle takes {share:.0%} of each quarter'))
    for fp in g.footprints:
        if fp.movement != "impassable":
            continue
        for side, (x0, y0, x1, y1) in g.zones.items():
            if fp.box[0] < x1 and fp.box[2] > x0 and fp.box[1] < y1 and fp.box[3] > y0:
                out.append(Note("D204", WARN, sc.id, f"impassable {fp.id} {fp.part} lies inside player {side.upper()}'s deployment zone"))
    reserves = d.get("reserves") or {}
    schedule = reserves.get("schedule") or []
    if schedule:
        left, by_turn = 1.0, []
        for step in schedule:
            p = 1.0 if step["automatic"] else (7 - step["arrives_on"]) / 6
            left *= (1 - p)
            by_turn.append(f"turn {step['turn']}: {1 - left:.0%}")
        out.append(Note("D301", INFO, sc.id, "a reserve unit has arrived by " + ", ".join(by_turn)))
    roll = depl.get("unit_roll")
    if roll:
        p = (7 - roll["deploy_on"]) / 6
        out.append(Note("D302", INFO, sc.id, f"each unit starts on the table with probability {p:.0%}; "
                                          f"an 8-unit army starts with {8 * p:.1f} units on average"))
    return out


def check_set(card_set: CardSet, units: int = 8, radius: float = 2.5,
              width: float | None = None, depth: float | None = None) -> list[ScenarioCheck]:
    glossary = set(card_set.glossary)
    out = []
    army = default_army(units)
    for sc in sorted(card_set.of_kind(Scenario), key=lambda s: s.number):
        res = ScenarioCheck(sc.id, str(sc.data["name"]))
        res.notes.extend(_structure(sc, glossary))
        dep = Deployer(sc.data, radius, width, depth)
        res.notes.extend(_warnings(sc, dep, radius))
        for first in ("a", "b"):
            run = dep.run(army, first)
            res.runs.append(run)
            if run.unplaced:
                res.notes.append(Note("D105", Severity.ERROR, sc.id,
                                      f"with player {first.upper()} placing first, {len(run.unplaced)} unit(s) could not be deployed: "
                                      + ", ".join(run.unplaced)))
            need = math.pi * (2 * radius) ** 2
            if run.min_area_second < 2 * need and not run.unplaced:
                res.notes.append(Note("D205", Severity.WARNING, sc.id,
                                      f"with player {first.upper()} placing first, the second player was down to "
                                      f"{run.min_area_second} sq in of legal positions before a placement"))
        out.append(res)
    return out


def render_check(results: list[ScenarioCheck], radius: float, units: int) -> str:
    lines = [f"army: {units} units per side, footprint radius {radius:g}\"; hostile alternating placement, both first placers"]
    for r in results:
        ok = all(run.feasible for run in r.runs)
        lines.append(f"{r.scenario} ({r.name}): {'deployable' if ok else 'NOT deployable'}")
        for run in r.runs:
            second = "b" if run.first == "a" else "a"
            lines.append(f"  {run.first.upper()} first: placed A {run.placed['a']}/{run.army['a']}, B {run.placed['b']}/{run.army['b']}; "
                         f"smallest area left to {second.upper()}: {run.min_area_second} sq in; "
                         f"legal area at the end: A {run.final_area['a']}, B {run.final_area['b']} sq in")
        for n in r.notes:
            lines.append(f"  {n.severity.value}[{n.code}] {n.message}")
    errors = sum(1 for r in results for n in r.notes if n.severity is Severity.ERROR)
    warnings = sum(1 for r in results for n in r.notes if n.severity is Severity.WARNING)
    lines.append(f"{len(results)} scenario(s): {errors} error(s), {warnings} warning(s)")
    return "\n".join(lines)
