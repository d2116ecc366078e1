"""Deployment feasibility: can both armies be set up under a scenario's rules?

The table is a grid of 1-inch cells; a unit is a round footprint of radius
``R`` whose centre sits on a cell centre.  A centre is legal for a side when
the footprint lies inside the side's zone (and on the table), keeps the
scenario's distance from the table centre, does not touch impassable terrain,
overlaps no unit, and keeps the scenario's distance from every enemy unit
(edge to edge).

Both sides place alternately (or as the scenario says), each choosing the
legal spot that leaves the opponent the least legal area: a deliberately
hostile strategy, so "it fits" means it fits even against a player who tries
to crowd the other out.  Rows of the grid are Python integers, so "how much
area would this spot take away" is a handful of bit operations per row.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

from cardkit.games.deep_strike.geometry import TableGeometry, table_geometry

SLOTS = ("heavy_support", "troops", "elites", "hq", "fast_attack")


@dataclass(frozen=True)
class ArmyUnit:
    id: str
    slot: str
    infiltrator: bool = False


def default_army(units: int = 8) -> list[ArmyUnit]:
    """A typical force: the slots in a sensible mix, one of the Elites an Infiltrator."""
    mix = ["troops", "troops", "heavy_support", "elites", "hq", "troops", "fast_attack", "heavy_support",
           "elites", "fast_attack", "troops", "troops"]
    out: list[ArmyUnit] = []
    for i in range(units):
        slot = mix[i % len(mix)]
        out.append(ArmyUnit(f"u{i + 1}", slot, infiltrator=(slot == "elites" and not any(u.infiltrator for u in out))))
    return out


@dataclass
class Grid:
    width: int
    depth: int
    rows: list[int]  # bit x of rows[y] = cell (x, y)

    @classmethod
    def empty(cls, w: int, d: int) -> "Grid":
        return cls(w, d, [0] * d)

    def count(self) -> int:
        return sum(r.bit_count() for r in self.rows)

    def cells(self) -> list[tuple[int, int]]:
        out = []
        for y, row in enumerate(self.rows):
            x = 0
            while row:
                if row & 1:
                    out.append((x, y))
                row >>= 1
                x += 1
        return out


def _disk_rows(cx: float, cy: float, radius: float, w: int, d: int) -> dict[int, int]:
    """Row masks of the cells whose centres lie within ``radius`` of (cx, cy)."""
    out = {}
    y0 = max(0, math.floor(cy - radius - 0.5))
    y1 = min(d - 1, math.ceil(cy + radius - 0.5))
    for y in range(y0, y1 + 1):
        dy = (y + 0.5) - cy
        if abs(dy) > radius:
            continue
        half = math.sqrt(radius * radius - dy * dy)
        x0 = max(0, math.ceil(cx - half - 0.5))
        x1 = min(w - 1, math.floor(cx + half - 0.5))
        if x1 >= x0:
            out[y] = ((1 << (x1 - x0 + 1)) - 1) << x0
    return out


def _box_grid(box: tuple[float, float, float, float], inset: float, w: int, d: int) -> Grid:
    g = Grid.empty(w, d)
    x0, y0, x1, y1 = box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset
    for y in range(d):
        cy = y + 0.5
        if y0 - 1e-9 <= cy <= y1 + 1e-9:
            for x in range(w):
                if x0 - 1e-9 <= x + 0.5 <= x1 + 1e-9:
                    g.rows[y] |= 1 << x
    return g


def _subtract(g: Grid, rows: Mapping[int, int]) -> None:
    for y, m in rows.items():
        g.rows[y] &= ~m


@dataclass
class Placement:
    side: str
    unit: str
    x: float
    y: float


@dataclass
class DeployResult:
    scenario: str
    first: str
    placed: dict[str, int]
    army: dict[str, int]
    min_area_second: int  # smallest legal area (sq in) the second player had before one of its placements
    final_area: dict[str, int]
    placements: list[Placement] = field(default_factory=list)
    unplaced: list[str] = field(default_factory=list)
    reserved: list[str] = field(default_factory=list)  # units the rules let wait in reserve when there is no room

    @property
    def feasible(self) -> bool:
        return not self.unplaced


class Deployer:
    def __init__(self, scenario: Mapping[str, Any], radius: float = 2.5, width: float | None = None,
                 depth: float | None = None) -> None:
        self.sc = scenario
        self.geo: TableGeometry = table_geometry(scenario, width, depth)
        self.r = radius
        self.w, self.d = int(round(self.geo.width)), int(round(self.geo.depth))
        dep = scenario["deployment"]
        self.gap = float(dep["min_distance_enemy"]) if dep.get("min_distance_enemy") else 0.0
        inf = scenario.get("infiltrators") or {}
        self.inf_gap = float(inf["min_distance_enemy"]) if inf.get("min_distance_enemy") else 0.0
        self.base = {side: self._zone_grid(side, self.geo.zones[side]) for side in ("a", "b")}
        self.anywhere = self._zone_grid(None, (0.0, 0.0, self.geo.width, self.geo.depth))
        self.extended: dict[str, Grid] = {}
        if inf.get("mode") == "extended_zone" and inf.get("zone_depth"):
            zd = float(inf["zone_depth"])
            self.extended = {"a": self._zone_grid("a", (0.0, 0.0, self.geo.width, zd)),
                             "b": self._zone_grid("b", (0.0, self.geo.depth - zd, self.geo.width, self.geo.depth))}

    def _zone_grid(self, side: str | None, box: tuple[float, float, float, float]) -> Grid:
        g = _box_grid(box, self.r, self.w, self.d)
        cx, cy = self.geo.centre
        if self.geo.centre_exclusion:
            _subtract(g, _disk_rows(cx, cy, self.geo.centre_exclusion + self.r, self.w, self.d))
        for fp in self.geo.footprints:
            if fp.movement == "impassable":
                blocked = _box_grid((fp.box[0] - self.r, fp.box[1] - self.r, fp.box[2] + self.r, fp.box[3] + self.r), 0, self.w, self.d)
                for y, m in enumerate(blocked.rows):
                    g.rows[y] &= ~m
        return g

    def legal(self, side: str, unit: ArmyUnit, placed: list[Placement], infiltrating: bool) -> Grid:
        if infiltrating and (self.sc.get("infiltrators") or {}).get("mode") == "anywhere":
            g = Grid(self.w, self.d, list(self.anywhere.rows))
            gap = self.inf_gap
        elif unit.infiltrator and side in self.extended:
            g = Grid(self.w, self.d, list(self.extended[side].rows))
            gap = self.gap
        else:
            g = Grid(self.w, self.d, list(self.base[side].rows))
            gap = self.gap
        for p in placed:
            dist = 2 * self.r + (gap if p.side != side else 0.0)
            _subtract(g, _disk_rows(p.x, p.y, dist, self.w, self.d))
        return g

    def _deny(self, opp_legal: Grid, x: float, y: float, side_gap: float) -> int:
        taken = 0
        for row, m in _disk_rows(x, y, 2 * self.r + side_gap, self.w, self.d).items():
            taken += (opp_legal.rows[row] & m).bit_count()
        return taken

    def choose(self, side: str, legal: Grid, opp_legal: Grid, gap: float) -> tuple[float, float] | None:
        best = None
        forward = 1 if side == "a" else -1
        for x, y in legal.cells():
            cx, cy = x + 0.5, y + 0.5
            key = (-self._deny(opp_legal, cx, cy, gap), -forward * cy, cx)
            if best is None or key < best[0]:
                best = (key, (cx, cy))
        return best[1] if best else None

    def run(self, army: list[ArmyUnit], first: str) -> DeployResult:
        dep = self.sc["deployment"]
        second = "b" if first == "a" else "a"
        order = dep.get("order") or list(SLOTS)
        inf = self.sc.get("infiltrators") or {}
        after_all = bool(inf.get("after_all_others"))
        rank = {s: i for i, s in enumerate(order)}

        def eligible(u: ArmyUnit) -> bool:
            slots = dep.get("eligible_slots")
            return not slots or u.slot in slots

        main = sorted([u for u in army if eligible(u) and not (u.infiltrator and after_all)],
                      key=lambda u: (rank.get(u.slot, len(rank)), u.id))
        queues = {side: list(main) for side in ("a", "b")}
        if dep["placement"] in ("troops_then_reserves", "roll_per_unit"):
            sequence = [(first, u) for u in queues[first]] + [(second, u) for u in queues[second]]
        else:
            sequence = []
            for i in range(max(len(queues["a"]), len(queues["b"]))):
                for side in (first, second):
                    if i < len(queues[side]):
                        sequence.append((side, queues[side][i]))
        if after_all and inf:
            infs = [u for u in army if u.infiltrator]
            for u in infs:
                for side in (first, second):
                    sequence.append((side, u))
        placed: list[Placement] = []
        unplaced: list[str] = []
        reserved: list[str] = []
        min_second = 10 ** 9
        for side, unit in sequence:
            infiltrating = unit.infiltrator and after_all
            other = "b" if side == "a" else "a"
            legal = self.legal(side, unit, placed, infiltrating)
            if side == second:
                min_second = min(min_second, legal.count())
            opp = self.legal(other, unit, placed, infiltrating)
            gap = self.inf_gap if infiltrating else self.gap
            spot = self.choose(side, legal, opp, gap)
            if spot is None:
                if dep["placement"] == "troops_then_reserves":
                    reserved.append(f"{side}:{unit.id}")  # "any number, at least one": the rest wait in reserve
                else:
                    unplaced.append(f"{side}:{unit.id}")
                continue
            placed.append(Placement(side, unit.id, *spot))
        probe = ArmyUnit("probe", "troops")
        final = {s: self.legal(s, probe, placed, False).count() for s in ("a", "b")}
        counts = {s: sum(1 for p in placed if p.side == s) for s in ("a", "b")}
        minimum = int(dep.get("min_initial_units") or 0)
        for s in ("a", "b"):
            if counts[s] < minimum:
                unplaced.extend(r for r in reserved if r.startswith(f"{s}:"))
        total = {s: sum(1 for side, _ in sequence if side == s) for s in ("a", "b")}
        return DeployResult(self.sc["id"], first, counts, total, 0 if min_second == 10 ** 9 else min_second,
                            final, placed, unplaced, reserved)
